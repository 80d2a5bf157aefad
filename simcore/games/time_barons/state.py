"""Time Barons' codes, card-table and state layouts, trace events and read-only state queries.

Kept apart from the kernel so that the strategies (``strategies/time_barons/``) can use them while
the kernel imports the strategies (no import cycle).

Cards are data (``simcore/data/time_barons_cards.toml``, read by
``simcore/games/time_barons/components.py``). Level cards have ids 0 .. n-1 in file order (at most
MAX_CARDS, so that a seat's drawn and played cards fit one int64 bitmask each); the two Homelands
have the fixed ids HOMELAND + seat.

The card table ``cards`` is ``int64[MAX_IDS + 1, CARD_WIDTH]``: one row per card id (unused ids
have type NO_TYPE), and a last row SET_ROW with facts about the whole set. A card's effects are
(op, n) pairs; a site has up to MAX_ABILITIES abilities of ABILITY_WIDTH fields each.

A game's whole mutable state is one int64 array ``st`` (one array, not several, because every
array a numba function touches costs reference counting on each call): the scalars below, the
four shuffled level stacks, each seat's hand and sites in play, the discard pile, per-card-id
fields, per-seat statistics and a scratch area for relocations.
"""

import numpy as np
from numba import njit

from simcore.kernel.intrinsics import inline_njit, ix

MAX_CARDS = 64  # level cards in a set: a seat's drawn / played cards are one int64 bitmask each
HOMELAND = MAX_CARDS  # card id of seat 0's Homeland; seat 1's is HOMELAND + 1
MAX_IDS = MAX_CARDS + 2
N_LEVELS = 4
MAX_EFFECTS = 3  # effects per card or ability
MAX_ABILITIES = 3  # abilities per site

# Card types.
SITE, EVENT, ATTACHMENT, REACTION = range(4)
NO_TYPE = -1
TYPES = ("site", "event", "attachment", "reaction")

# Triggers of reactions and of infinite abilities: something the opponent (the player whose turn
# it is) just did. NO_TRIGGER: a card or ability that is not a response.
NO_TRIGGER, ON_RELOCATE, ON_ATTACK, ON_SITE, ON_UPGRADE = range(5)
TRIGGERS = ("", "relocate", "attack", "site", "upgrade")

# Effect ops: the vocabulary of the card file (docs/games/time-barons.md defines each one).
# Ops 1-15 are things that happen (events, abilities, reactions); 16-19 are what an attachment
# does to its site while attached; 20-22 are a site's standing text ("passives").
(
    NO_OP,
    E_DAMAGE,
    E_DAMAGE_EACH,
    E_KILL,
    E_KILL_EVERYWHERE,
    E_DESTROY,
    E_STEAL,
    E_GAIN,
    E_ACTIONS,
    E_DRAW,
    E_REPAIR,
    E_RECOVER,
    E_SACRIFICE,
    E_DISCARD,
    E_RELOCATE,
    E_CANCEL,
    E_INTEGRITY,
    E_FORTIFY,
    E_DISABLE,
    E_DECAY,
    E_START_GAIN,
    E_START_ACTIONS,
    E_UPGRADE_DISCOUNT,
) = range(23)
OPS = (
    "", "damage", "damage_each", "kill", "kill_everywhere", "destroy", "steal", "gain",
    "actions", "draw", "repair", "recover", "sacrifice", "discard", "relocate", "cancel",
    "integrity", "fortify", "disable", "decay", "start_gain", "start_actions", "upgrade_discount",
)  # fmt: skip
FIRST_ATTACHMENT_OP = E_INTEGRITY
FIRST_PASSIVE_OP = E_START_GAIN
# Ops that harm the opponent: a card or ability with one of them is an attack (trigger "attack").
HARMFUL_OPS = (E_DAMAGE, E_DAMAGE_EACH, E_KILL, E_KILL_EVERYWHERE, E_DESTROY, E_STEAL, E_DISCARD)

# Card table columns.
C_LEVEL = 0  # 1-4; 0 for a Homeland
C_TYPE = 1
C_COST = 2  # actions to play it
C_INTEGRITY = 3  # sites
C_FORTIFIED = 4  # sites: 1 if fortified
C_TRIGGER = 5  # reactions
C_HARMFUL = 6  # 1 if its effects include a harmful op (events, reactions)
C_N_EFFECTS = 7
C_EFFECTS = 8  # (op, n) x MAX_EFFECTS: event / reaction effects, attachment or passive effects
C_N_ABILITIES = C_EFFECTS + 2 * MAX_EFFECTS
C_MAX_FOLLOWERS = C_N_ABILITIES + 1  # sites: the largest follower requirement of its abilities
C_ABILITIES = C_MAX_FOLLOWERS + 1
# Ability fields, at C_ABILITIES + ABILITY_WIDTH * ability.
A_FOLLOWERS = 0  # followers needed on the site
A_COST = 1  # actions
A_INFINITE = 2  # 1: any number of times (per trigger, if it has one); 0: once per turn
A_TRIGGER = 3
A_HARMFUL = 4
A_N_EFFECTS = 5
A_EFFECTS = 6
ABILITY_WIDTH = A_EFFECTS + 2 * MAX_EFFECTS
CARD_WIDTH = C_ABILITIES + ABILITY_WIDTH * MAX_ABILITIES
# The set row.
SET_ROW = MAX_IDS
S_N_CARDS = 0
S_FINGERPRINT = 1  # a hash of the card table, repeated in the trace (EV_SETUP)
S_LEVEL_COUNT = 2  # + level - 1: cards of that level

# Rule parameter positions in the encoded rules vector (order of
# simcore.games.time_barons.game.RULES; the card file path comes first and is not encoded as a
# number).
R_FIRST_TURN_ACTIONS = 1
R_ACTIONS = 2
R_STARTING_FOLLOWERS = 3
R_FOLLOWERS = 4
R_HAND = 5
R_UPGRADE_COST = 6  # + level - 1: upgrading from that level (I->II, II->III, III->IV)
R_DAMAGE_COUNTERS = 9
R_STACKS_TO_END = 10
R_FIRST_PLAYER = 11
R_MAX_TURNS = 12
R_ATTACK_TARGETS = 13
R_DRAW_COST = 14
R_GAIN_COST = 15
R_RELOCATE_COST = 16
R_DRAWS_PER_TURN = 17  # 0: no limit
R_HAND_LIMIT = 18  # 0: no limit
R_MAX_LEVEL = 19
R_SITE_LIMIT = 20  # 0: no limit
R_TYPE_ALLOWED = 21  # + card type (SITE, EVENT, ATTACHMENT, REACTION): 1 if it may be played
R_ATTACHMENTS_PER_SITE = 25  # 0: no limit
R_ATTACH_TO_OPPONENT = 26
R_DAMAGE_KILLS = 27
R_LEVEL_TIEBREAK = 28
R_DRAW_LOWER_LEVELS = 29
R_ABILITIES_ON_TURN_PLAYED = 30

FIRST_PLAYER_RANDOM = 1  # rule first_player = "random" (its choice index; "seat0" is 0)
# Rule attack_targets (its choice index): an attack's sites are named when it is declared, before
# the attacked player's responses, or chosen as each effect resolves, after them.
TARGETS_DECLARED, TARGETS_ON_RESOLUTION = range(2)

# Where a card is (st[LOC + id]).
IN_STACK, IN_HAND, IN_PLAY, IN_DISCARD, GONE, UNUSED = range(6)

# Moves a player makes on its turn (strategy.choose_move returns (kind, a, b)).
END, DRAW, GAIN, RELOCATE, PLAY, UPGRADE, ABILITY = range(7)
MOVES = ("end", "draw", "gain", "relocate", "play", "upgrade", "ability")
N_MOVE_KINDS = len(MOVES)

# Responses on the opponent's turn (strategy.choose_response returns (kind, a, b)).
PASS, REACT, TRIGGERED = range(3)

# Site choices the owner of an effect makes (strategy.choose_site ``purpose``).
PICK_DAMAGE, PICK_KILL, PICK_DESTROY, PICK_STEAL, PICK_PLACE, PICK_SACRIFICE, PICK_REPAIR = range(7)

# Per-seat statistics, in the order of simcore.games.time_barons.game.SEAT_COLUMNS.
N_SEAT_STATS = 10
(
    ST_LEVEL,
    ST_FOLLOWERS,
    ST_SITES,
    ST_DRAWN,
    ST_PLAYED,
    ST_DAMAGE,
    ST_KILLS,
    ST_DESTROYED,
    ST_DRAWN_MASK,
    ST_PLAYED_MASK,
) = range(N_SEAT_STATS)

# End of a game (per-game column ``end``).
END_WIPEOUT, END_STACKS, END_TURN_CAP = range(3)
END_REASONS = ("wipeout", "stacks", "turn cap")

# --- the state array ------------------------------------------------------------------------
ACTIVE = 0  # seat whose turn it is
ACTIONS = 1  # actions the active seat has left
SUPPLY = 2  # followers in the supply
POOL = 3  # damage counters not on any site
FIRST = 4  # the first player's seat
OVER = 5  # 1 once a seat has no followers left
CANCELLED = 6  # set by a "cancel" effect during an attack's response window
TURN = 7  # turns started so far
TRACE_LEN = 8
LEVEL = 9  # + seat: tech level 1-4
N_FOLLOWERS = LEVEL + 2  # + seat: followers on the seat's sites
STACK_TOP = N_FOLLOWERS + 2  # + level - 1: position in DECK of that stack's next card
STACK_END = STACK_TOP + N_LEVELS  # + level - 1: one past that stack's last card
DECK = STACK_END + N_LEVELS  # the four stacks, level I first, each shuffled at set-up
HAND_N = DECK + MAX_CARDS  # + seat
HAND = HAND_N + 2  # + MAX_IDS * seat + i: card ids, in the order they came
SITES_N = HAND + 2 * MAX_IDS  # + seat
SITES = SITES_N + 2  # + MAX_IDS * seat + i: the seat's sites in play, in the order played
DISCARD_N = SITES + 2 * MAX_IDS
DISCARD = DISCARD_N + 1  # + i: the common discard pile, oldest first
LOC = DISCARD + MAX_IDS  # + id: IN_STACK ... UNUSED
OWNER = LOC + MAX_IDS  # + id: holder (hand), owner (in play), -1 otherwise
FOLLOW = OWNER + MAX_IDS  # + site id: followers on it
DAMAGE = FOLLOW + MAX_IDS  # + site id: damage counters on it
HOST = DAMAGE + MAX_IDS  # + attachment id: the site it is attached to, -1 otherwise
USED = HOST + MAX_IDS  # + site id: 1 once a once-per-turn ability was used this turn
INTEGRITY_MOD = USED + MAX_IDS  # + site id: sum of its attachments' "integrity" effects
FORTIFY = INTEGRITY_MOD + MAX_IDS  # + site id: attachments that fortify it
DISABLE = FORTIFY + MAX_IDS  # + site id: attachments that disable it
DECAY = DISABLE + MAX_IDS  # + site id: its attachments' total "decay"
RESPONDED = DECAY + MAX_IDS  # + site id: its triggered abilities used in this response window
# Cached per-card facts, so that valuing moves does not go back to the card table and the DISABLE
# count for every site on every step (see docs/performance.md). Set from the card table at set-up
# (kernel: reset_card_facts); REQUIRE and SITE_DISCOUNT are zeroed when an attachment disables
# the site (kernel: attach) and restored when it leaves play (kernel: destroy_site, the only way
# out of play).
REQUIRE = RESPONDED + MAX_IDS  # + site id: followers its most demanding ability needs, or 0
SITE_DISCOUNT = REQUIRE + MAX_IDS  # + site id: its "upgrade_discount" passives, or 0
# + card id: bit t set if the card answers trigger t at all (a reaction's trigger, a site's
# triggered abilities), wherever it is: a cheap superset test before a response window. Bit
# NO_TRIGGER: a site with an ability used on its owner's own turn.
ANSWERS = SITE_DISCOUNT + MAX_IDS
# + seat: SITE_DISCOUNT summed over the seat's sites in play (kernel: site_add, attach,
# destroy_site), read by every upgrade valuation.
UPGRADE_DISCOUNT = ANSWERS + MAX_IDS
# + seat: spare_on summed over the seat's sites in play, read by every relocation valuation; kept
# by the kernel's set_spare_input, the only writer of FOLLOW and REQUIRE in play.
SPARE = UPGRADE_DISCOUNT + 2
# + seat: how many of the seat's sites in play have an own-turn ability, and at
# + MAX_IDS * seat + i: those sites, in the order of SITES. Kept by the kernel's site_add and
# site_remove, the only writers of SITES: the move choice looks for abilities to use or enable
# only there (a Homeland and sites with only passives or triggered abilities have none).
ABILITY_SITES_N = SPARE + 2
ABILITY_SITES = ABILITY_SITES_N + 2
# + card id: the strategies' cache of an upper bound on what the card is worth to the seat that
# holds it or has it in play (a float64 stored as its bit pattern; strategies: value_bound). It
# depends only on the card and that seat's weights, so the kernel's hand_add and site_add, the
# only ways into a hand or into play, forget it (NO_BOUND) and the strategy works it out when
# first asked.
VALUE_BOUND = ABILITY_SITES + 2 * MAX_IDS
NO_BOUND = -1  # not worked out yet (a bound is >= 0, so its bit pattern never is negative)
# + seat: the strategies' cache of the largest VALUE_BOUND of the seat's ABILITY_SITES, the most
# a relocation can enable (strategies: sites_value_bound); the kernel forgets it (NO_BOUND)
# whenever that list changes (set-up leaves 0, the bit pattern of 0.0, right for no sites).
SITES_BOUND = VALUE_BOUND + MAX_IDS
STATS = SITES_BOUND + 2  # + N_SEAT_STATS * seat + stat
ARRANGE = STATS + 2 * N_SEAT_STATS  # + i: a relocation's followers for the seat's i-th site
ARRANGE_ALT = ARRANGE + MAX_IDS  # + i: the strategies' scratch for a second arrangement
# The attack being answered (public: the attacked player sees the card or ability and the sites
# it names), so that a response can weigh what the attack will do. ATTACK: its card (an event, an
# attachment onto an opponent site, or the site whose ability it is), NO_ATTACK when no attack is
# pending; ATTACK_ABILITY: the ability's index, -1 for a card's own effects; TARGETS + k: the
# site named for its k-th effect (an attachment: k = 0, its site), NO_TARGET when it names none
# (an effect without a site, an attack whose sites are chosen on resolution, no candidate).
ATTACK = ARRANGE_ALT + MAX_IDS
ATTACK_ABILITY = ATTACK + 1
TARGETS = ATTACK_ABILITY + 1
NO_ATTACK = -1
NO_TARGET = -1
# + card id: 1 while the card is in a hand face up to both players (taken back from the discard
# pile, which is public); the determinization keeps such cards where they are.
SHOWN = TARGETS + MAX_EFFECTS
# The strategies' scratch for the attacks a seat expects (strategies: expect_attacks): THREAT_N
# kinds of attack, each THREAT_WIDTH fields at THREAT + THREAT_WIDTH * j: the kind (T_DAMAGE,
# T_DAMAGE_EACH, T_KILL_EVERYWHERE, T_DESTROY, T_WEAKEN: an attachment lowering a site's
# integrity), its amount, how many of them the opponent can surely make (abilities in play,
# cards known in its hand) and how many of its hidden cards could be one.
T_DAMAGE, T_DAMAGE_EACH, T_KILL_EVERYWHERE, T_DESTROY, T_WEAKEN = range(5)
THREAT_KIND, THREAT_AMOUNT, THREAT_SURE, THREAT_HIDDEN = range(4)
THREAT_WIDTH = 4
MAX_THREATS = 5 * 21  # every kind with every amount 1-20 (destroy: one)
THREAT_N = SHOWN + MAX_IDS
THREAT = THREAT_N + 1
# + card id: the card's level (0 for a Homeland), copied from the card table at set-up, so that
# ``determinize`` and ``infoset_key`` need only the state.
CARD_LEVEL = THREAT + THREAT_WIDTH * MAX_THREATS

# --- the decision-point protocol (docs/protocol.md; steps in simcore/games/time_barons/rules.py) --
# Decision kinds (st[P_DECISION]) and their move codes (docs/games/time-barons.md lists them):
# D_MOVE the player on turn's move, move_code(kind, a, b); D_RESPONSE the other player's answer
# to a trigger, response_code(kind, a, b) (0: pass); D_SITE a site for st[P_PURPOSE] (PICK_*)
# with amount st[P_PICK_N], the site's card id; D_STACK the level a draw effect draws from;
# D_RECOVER the index in the discard pile of the card taken back; D_ARRANGE during a relocation,
# the followers for the seat's site number st[P_ARR_I] (0 .. those not yet placed; the last
# site takes the rest).
D_NONE, D_MOVE, D_RESPONSE, D_SITE, D_STACK, D_RECOVER, D_ARRANGE = range(7)
DECISION_KINDS = ("none", "move", "response", "site", "stack", "recover", "arrange")
# Options ``legal`` lists at most (in its fixed order); the sample set never comes near it (a
# move list is draws, relocate, upgrade, per own site gain and abilities, per card in hand its
# play, an attachment onto each site). ``apply`` takes any valid code, listed or not.
MAX_MOVES = 128
PROTOCOL = CARD_LEVEL + MAX_IDS
P_DECISION = PROTOCOL  # D_* pending, D_NONE between steps and once the game is over
P_SEAT = PROTOCOL + 1  # the deciding seat, -1 once the game is over
P_STEP = PROTOCOL + 2  # the rules' next step (S_* of the kernel)
P_TURNS = PROTOCOL + 3  # turns played to their end
P_REASON = PROTOCOL + 4  # END_* once the game is over, else -1
P_WINNER = PROTOCOL + 5  # the winner once the game is over (-1: none)
P_MOVES_LEFT = PROTOCOL + 6  # moves the player on turn may still make (MOVE_CAP a turn)
P_MOVE_KIND = PROTOCOL + 7  # the move being carried out: kind, a, b (move_is_legal's)
P_MOVE_A = PROTOCOL + 8
P_MOVE_B = PROTOCOL + 9
P_TRIGGER = PROTOCOL + 10  # the open response window's trigger
P_WINDOW_LEFT = PROTOCOL + 11  # responses still allowed in it (MOVE_CAP a window)
P_WINDOW_AFTER = PROTOCOL + 12  # the step after the window
P_REACT_CARD = PROTOCOL + 13  # the reaction card resolving (discarded after its effects)
P_ATTACK_AFTER = PROTOCOL + 14  # the step after the attack
P_DECLARE_K = PROTOCOL + 15  # the attack's next effect to name a site for
P_CANCELLED = PROTOCOL + 16  # an attachment's attack was cancelled
P_RES_SEAT = PROTOCOL + 17  # the effects resolving: their owner, source card, first (op, n)
P_RES_SOURCE = PROTOCOL + 18  # column in the card table, how many, the next one, whether the
P_RES_BASE = PROTOCOL + 19  # attack named their sites, and the step after them
P_RES_N = PROTOCOL + 20
P_RES_K = PROTOCOL + 21
P_RES_DECLARED = PROTOCOL + 22
P_RES_AFTER = PROTOCOL + 23
P_OP = PROTOCOL + 24  # the effect resolving: op, n, the site its attack named
P_AMOUNT = PROTOCOL + 25
P_TARGET = PROTOCOL + 26
P_UNITS = PROTOCOL + 27  # followers / cards the effect may still take, place, draw, ...
P_STEAL_FROM = PROTOCOL + 28  # the site a steal took its follower from (placed next)
P_PURPOSE = PROTOCOL + 29  # D_SITE: PICK_* and the amount (choose_site's purpose and n)
P_PICK_N = PROTOCOL + 30
P_ARR_SEAT = PROTOCOL + 31  # a relocation: the seat, its next site, followers not yet placed,
P_ARR_I = PROTOCOL + 32  # the step after it
P_ARR_LEFT = PROTOCOL + 33
P_ARR_AFTER = PROTOCOL + 34
P_DECISIONS = PROTOCOL + 35  # decisions answered in this game
P_ARRANGE = PROTOCOL + 36  # + i: followers chosen for the seat's i-th site
# Draw moves the player on turn made this turn (rule draws_per_turn); public.
DRAWS_MADE = P_ARRANGE + MAX_IDS
# + site id: the turn (st[TURN]) the site came into play, -1 for a Homeland (rule
# abilities_on_turn_played); public.
ENTERED = DRAWS_MADE + 1
STATE_SIZE = ENTERED + MAX_IDS


# --- queries --------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def hand_n(st, seat):
    return st[ix(HAND_N + seat)]


@njit(cache=True, _nrt=False, forceinline=False)
def hand_card(st, seat, i):
    return st[ix(HAND + MAX_IDS * seat + i)]


@njit(cache=True, _nrt=False, forceinline=False)
def sites_n(st, seat):
    return st[ix(SITES_N + seat)]


@njit(cache=True, _nrt=False, forceinline=False)
def site_at(st, seat, i):
    return st[ix(SITES + MAX_IDS * seat + i)]


@njit(cache=True, _nrt=False, forceinline=False)
def ability_sites_n(st, seat):
    return st[ix(ABILITY_SITES_N + seat)]


@njit(cache=True, _nrt=False, forceinline=False)
def ability_site_at(st, seat, i):
    return st[ix(ABILITY_SITES + MAX_IDS * seat + i)]


@njit(cache=True, _nrt=False, forceinline=False)
def followers(st, seat):
    return st[ix(N_FOLLOWERS + seat)]


@njit(cache=True, _nrt=False, forceinline=False)
def integrity(st, cards, site):
    """The site's integrity with its attachments' modifiers."""
    return cards[ix(site), C_INTEGRITY] + st[ix(INTEGRITY_MOD + site)]


@njit(cache=True, _nrt=False, forceinline=False)
def is_fortified(st, cards, site):
    return cards[ix(site), C_FORTIFIED] == 1 or st[ix(FORTIFY + site)] > 0


@njit(cache=True, _nrt=False, forceinline=False)
def is_disabled(st, site):
    """A disabled site's abilities cannot be used and its passives do not apply."""
    return st[ix(DISABLE + site)] > 0


@njit(cache=True, _nrt=False, forceinline=False)
def stack_left(st, level):
    return st[ix(STACK_END + level - 1)] - st[ix(STACK_TOP + level - 1)]


@njit(cache=True, _nrt=False, forceinline=False)
def empty_stacks(st):
    n = 0
    for level in range(1, N_LEVELS + 1):
        n += stack_left(st, level) == 0
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def lowest_draw_level(st, rules, seat):
    """The lowest stack the seat may draw from: Level I ("a level equal to or less than your
    current level"), or under rule draw_lower_levels off its own level only."""
    return 1 if rules[R_DRAW_LOWER_LEVELS] != 0.0 else st[ix(LEVEL + seat)]


@njit(cache=True, _nrt=False, forceinline=False)
def may_draw_from(st, rules, seat, level):
    """Is ``level`` a stack the seat may draw from now (its levels, not empty)?"""
    return (
        lowest_draw_level(st, rules, seat) <= level <= st[ix(LEVEL + seat)]
        and stack_left(st, level) > 0
    )


@njit(cache=True, _nrt=False, forceinline=False)
def can_draw(st, rules, seat):
    """Some stack the seat may draw from is not empty."""
    for level in range(lowest_draw_level(st, rules, seat), st[ix(LEVEL + seat)] + 1):
        if stack_left(st, level) > 0:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def site_discount(cards, site):
    """What the site's "upgrade_discount" passives take off an upgrade while it is enabled."""
    discount = 0
    for k in range(cards[ix(site), C_N_EFFECTS]):
        if cards[ix(site), ix(C_EFFECTS + 2 * k)] == E_UPGRADE_DISCOUNT:
            discount += cards[ix(site), ix(C_EFFECTS + 2 * k + 1)]
    return discount


@njit(cache=True, _nrt=False, forceinline=False)
def upgrade_cost(st, cards, rules, seat):
    """Actions to upgrade from the seat's level (its enabled sites' "upgrade_discount" lower it,
    to 1)."""
    cost = np.int64(rules[R_UPGRADE_COST + st[ix(LEVEL + seat)] - 1])
    return max(cost - st[ix(UPGRADE_DISCOUNT + seat)], 1)


@njit(cache=True, _nrt=False, forceinline=False)
def answers(cards, card):
    """Bit t set: the card (a reaction, or a site by a triggered ability) answers trigger t;
    bit NO_TRIGGER: a site with an ability used on its owner's own turn."""
    if cards[ix(card), C_TYPE] == REACTION:
        return np.int64(1) << cards[ix(card), C_TRIGGER]
    mask = np.int64(0)
    if cards[ix(card), C_TYPE] == SITE:
        for ability in range(cards[ix(card), C_N_ABILITIES]):
            mask |= (
                np.int64(1)
                << cards[ix(card), ix(C_ABILITIES + ABILITY_WIDTH * ability + A_TRIGGER)]
            )
    return mask


@njit(cache=True, _nrt=False, forceinline=False)
def has_own_turn_ability(st, site):
    return st[ix(ANSWERS + site)] & (np.int64(1) << NO_TRIGGER) != 0


@njit(cache=True, _nrt=False, forceinline=False)
def may_answer(st, seat, trigger):
    """Does a card in the seat's hand or a site it has in play answer ``trigger`` at all? When
    not, no response is legal (most windows): the full legality of each need not be checked."""
    bit = np.int64(1) << trigger
    for i in range(hand_n(st, seat)):
        if st[ix(ANSWERS + hand_card(st, seat, i))] & bit:
            return True
    for i in range(sites_n(st, seat)):
        if st[ix(ANSWERS + site_at(st, seat, i))] & bit:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def max_requirement(st, site):
    """Followers the site needs for its most demanding ability (0 if disabled or none)."""
    return st[ix(REQUIRE + site)]


@njit(cache=True, _nrt=False, forceinline=False)
def spare_on(st, site):
    """Followers on the site beyond its requirement: what a relocation may take from it."""
    return max(0, st[ix(FOLLOW + site)] - st[ix(REQUIRE + site)])


@njit(cache=True, _nrt=False, forceinline=False)
def ability_usable(st, cards, seat, site, ability, responding):
    """Can ``seat`` use this ability of its ``site`` now (actions and triggers aside)?

    Outside a response window (``responding`` False): not triggered, and once-per-turn ones not
    yet used this turn. In a window: only triggered ones, each once per window.
    """
    if st[ix(OWNER + site)] != seat or st[ix(LOC + site)] != IN_PLAY or is_disabled(st, site):
        return False
    if ability >= cards[ix(site), C_N_ABILITIES]:
        return False
    return ability_ready(st, cards, site, ability, responding)


@njit(cache=True, _nrt=False, forceinline=False)
def ability_ready(st, cards, site, ability, responding):
    """``ability_usable`` for one of the site's abilities, the site being in play under the seat
    and not disabled (the move choice loops over such sites and checks that once per site)."""
    base = C_ABILITIES + ABILITY_WIDTH * ability
    if st[ix(FOLLOW + site)] < cards[ix(site), ix(base + A_FOLLOWERS)]:
        return False
    triggered = cards[ix(site), ix(base + A_TRIGGER)] != NO_TRIGGER
    if responding:
        return triggered and (st[ix(RESPONDED + site)] >> ability) & 1 == 0
    if triggered:
        return False
    return cards[ix(site), ix(base + A_INFINITE)] == 1 or st[ix(USED + site)] == 0


# --- trace events ---------------------------------------------------------------------------
# One int64 row of TRACE_WIDTH per event, [event, a, b, c, d, e, f, g] (unused fields 0); the
# section "Trace format" of docs/games/time-barons.md defines every field and the order in which
# events come. In short: EV_SETUP, the dealt EV_DRAWs (seat 0, then seat 1); per turn EV_TURN,
# the start-of-turn decay and passive EV_EFFECTs with their results, then per move an EV_MOVE
# followed by its results (an attack first names its sites, one EV_TARGET per effect that names
# one, when they are declared; an opponent's EV_RESPONSEs with their effects come first for an
# attack, after the move for the other triggers; EV_CANCEL closes a cancelled attack's window),
# EV_END_TURN, EV_SNAPSHOT for seat 0 and 1, EV_TABLE; last EV_END. Every effect of a card or
# ability starts with EV_EFFECT; its results follow (EV_DAMAGE, EV_KILL, EV_PLACE, EV_DESTROY
# then EV_DISCARD of the site's attachments and of the site, EV_DRAW, EV_REPAIR, EV_RECOVER,
# EV_DISCARD, EV_ARRANGE). Not traced, for a replayer to derive: the Homelands in play from the
# start with rules' starting_followers (EV_SETUP's supply is net of them); a played site entering
# play with no followers or damage; the level +1 of an upgrade; actions gained (seen in the next
# EV_MOVE's actions left); END moves.
TRACE_WIDTH = 8
EV_SETUP = 0  # first player, supply, damage counters, card-set fingerprint
EV_DRAW = 1  # seat, card, level of the stack, cause (0 set-up, 1 action, 2 effect)
EV_TURN = 2  # seat, turn (0-based), actions
EV_MOVE = 3  # seat, move, a, b, actions paid, actions left
EV_RESPONSE = 4  # seat, kind (1 reaction, 2 triggered ability), card or site, ability, trigger
EV_EFFECT = 5  # seat, source card, op, n
EV_PLACE = 6  # seat, site, followers, from (-1 = the supply, else the site stolen from)
EV_DAMAGE = 7  # site, owner, damage, counters placed, followers killed
EV_KILL = 8  # site, owner, followers killed
EV_DESTROY = 9  # site, owner, followers killed, counters returned to the pool
EV_DISCARD = 10  # card, seat it belonged to, from (0 hand, 1 play)
EV_ATTACH = 11  # attachment, site, seat playing it
EV_ARRANGE = 12  # seat, site, followers
EV_REPAIR = 13  # site, owner, counters removed
EV_RECOVER = 14  # seat, card
EV_CANCEL = 15  # seat whose move was cancelled
EV_END_TURN = 16  # seat, actions left unused
EV_SNAPSHOT = 17  # seat, level, followers, hand, sites, damage counters on its sites
EV_TABLE = 18  # supply, damage pool, discard pile, stack I, stack II, stack III, stack IV
EV_END = 19  # winner (-1), turns, truncated, end reason
EV_TARGET = 20  # seat, source card, effect index, site named (attack_targets = "declared")
EVENT_NAMES = (
    "setup", "draw", "turn", "move", "response", "effect", "place", "damage", "kill", "destroy",
    "discard", "attach", "arrange", "repair", "recover", "cancel", "end_turn", "snapshot",
    "table", "end", "target",
)  # fmt: skip
# The standing of every seat (docs/arcs.md): [EV_STANDING, turn, seat, followers, tech level].
# Recorded only when tracing; it reads the state.
EVENT_NAMES = (*EVENT_NAMES, "standing")
EV_STANDING = len(EVENT_NAMES) - 1
DRAW_SETUP, DRAW_ACTION, DRAW_EFFECT = range(3)
FROM_HAND, FROM_PLAY = range(2)


# --- legality: the one place that says what a player may do -------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def move_cost(st, cards, rules, seat, kind, a, b):
    """Actions a move costs."""
    if kind == DRAW:
        return np.int64(rules[R_DRAW_COST])
    if kind == GAIN:
        return np.int64(rules[R_GAIN_COST])
    if kind == RELOCATE:
        return np.int64(rules[R_RELOCATE_COST])
    if kind == PLAY:
        return cards[ix(a), C_COST]
    if kind == UPGRADE:
        return upgrade_cost(st, cards, rules, seat)
    if kind == ABILITY:
        return cards[ix(a), ix(C_ABILITIES + ABILITY_WIDTH * b + A_COST)]
    return 0


@njit(cache=True, _nrt=False, forceinline=False)
def is_site_in_play(st, cards, card):
    return 0 <= card < MAX_IDS and st[ix(LOC + card)] == IN_PLAY and cards[ix(card), C_TYPE] == SITE


@njit(cache=True, _nrt=False, forceinline=False)
def in_hand_of(st, seat, card):
    return 0 <= card < MAX_IDS and st[ix(LOC + card)] == IN_HAND and st[ix(OWNER + card)] == seat


@njit(cache=True, _nrt=False, forceinline=False)
def hand_has_room(st, rules, seat):
    """Rule hand_limit: a card may enter the seat's hand (a draw, a recover)."""
    limit = np.int64(rules[R_HAND_LIMIT])
    return limit == 0 or hand_n(st, seat) < limit


@njit(cache=True, _nrt=False, forceinline=False)
def may_draw_more(st, rules, seat):
    """Rules draws_per_turn and hand_limit allow the seat on turn one more draw move."""
    cap = np.int64(rules[R_DRAWS_PER_TURN])
    return (cap == 0 or st[DRAWS_MADE] < cap) and hand_has_room(st, rules, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def may_upgrade(st, rules, seat):
    """The seat's level is below the highest (rule max_level, at most Level IV)."""
    return st[ix(LEVEL + seat)] < min(np.int64(rules[R_MAX_LEVEL]), N_LEVELS)


@njit(cache=True, _nrt=False, forceinline=False)
def may_play_kind(st, cards, rules, seat, card):
    """Rules sites_allowed, events_allowed, attachments_allowed, site_limit: may the seat play
    a card of this type at all (an attachment's site aside)?"""
    kind = cards[ix(card), C_TYPE]
    if rules[R_TYPE_ALLOWED + kind] == 0.0:
        return False
    if kind == SITE:
        limit = np.int64(rules[R_SITE_LIMIT])
        return limit == 0 or sites_n(st, seat) < limit
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def attachments_on(st, site):
    count = 0
    for card in range(MAX_IDS):
        count += st[ix(LOC + card)] == IN_PLAY and st[ix(HOST + card)] == site
    return count


@njit(cache=True, _nrt=False, forceinline=False)
def may_attach_to(st, cards, rules, seat, site):
    """May the seat's attachment go on ``site``: in play, the opponent's only with rule
    attach_to_opponent, with room under rule attachments_per_site."""
    if not is_site_in_play(st, cards, site):
        return False
    if st[ix(OWNER + site)] != seat and rules[R_ATTACH_TO_OPPONENT] == 0.0:
        return False
    limit = np.int64(rules[R_ATTACHMENTS_PER_SITE])
    return limit == 0 or attachments_on(st, site) < limit


@njit(cache=True, _nrt=False, forceinline=False)
def site_waits(st, rules, site):
    """Rule abilities_on_turn_played off: the site came into play this turn, so its abilities
    wait for its owner's next turn (a triggered one answers the opponent's turns, never the turn
    it was played)."""
    return rules[R_ABILITIES_ON_TURN_PLAYED] == 0.0 and st[ix(ENTERED + site)] == st[TURN]


# Inlined: the kernel checks every move a strategy makes, and a call passing three arrays costs
# as much as the check; inlined where ``kind`` is a constant (the random strategy's move list),
# only that kind's branch is left.
@inline_njit()
def move_is_legal(st, cards, rules, seat, kind, a, b):
    """May ``seat``, on its turn, make move ``kind`` with arguments ``a``, ``b``?

    DRAW a = level; GAIN a = own site; RELOCATE; PLAY a = card, b = target site (attachments);
    UPGRADE; ABILITY a = own site, b = ability index; END.
    """
    if kind == END:
        return True
    if kind == DRAW:
        if not may_draw_from(st, rules, seat, a):
            return False
        if not may_draw_more(st, rules, seat):
            return False
    elif kind == GAIN:
        if st[SUPPLY] == 0 or not is_site_in_play(st, cards, a) or st[ix(OWNER + a)] != seat:
            return False
    elif kind == RELOCATE:
        if sites_n(st, seat) == 0:
            return False
    elif kind == PLAY:
        if not in_hand_of(st, seat, a) or cards[ix(a), C_TYPE] == REACTION:
            return False
        if not may_play_kind(st, cards, rules, seat, a):
            return False
        if cards[ix(a), C_TYPE] == ATTACHMENT and not may_attach_to(st, cards, rules, seat, b):
            return False
    elif kind == UPGRADE:
        if not may_upgrade(st, rules, seat):
            return False
    elif kind == ABILITY:
        if not is_site_in_play(st, cards, a) or b < 0 or b >= MAX_ABILITIES:
            return False
        if not ability_usable(st, cards, seat, a, b, False) or site_waits(st, rules, a):
            return False
    else:
        return False
    return move_cost(st, cards, rules, seat, kind, a, b) <= st[ACTIONS]


@njit(cache=True, _nrt=False, forceinline=False)
def response_is_legal(st, cards, rules, seat, trigger, kind, a, b):
    """May ``seat`` (not on turn) answer ``trigger`` with a reaction card ``a`` (REACT; rule
    reactions_allowed) or the triggered ability ``b`` of its site ``a`` (TRIGGERED)?"""
    if kind == REACT:
        return (
            rules[R_TYPE_ALLOWED + REACTION] != 0.0
            and in_hand_of(st, seat, a)
            and cards[ix(a), C_TYPE] == REACTION
            and cards[ix(a), C_TRIGGER] == trigger
        )
    if kind == TRIGGERED:
        return (
            is_site_in_play(st, cards, a)
            and 0 <= b < MAX_ABILITIES
            and ability_usable(st, cards, seat, a, b, True)
            and cards[ix(a), ix(C_ABILITIES + ABILITY_WIDTH * b + A_TRIGGER)] == trigger
        )
    return kind == PASS


@njit(cache=True, _nrt=False, forceinline=False)
def is_candidate(st, seat, purpose, site):
    """Is ``site`` one that ``seat`` may choose for ``purpose``?

    Opponent sites: PICK_DAMAGE any, PICK_KILL and PICK_STEAL with followers, PICK_DESTROY not a
    Homeland. Own sites: PICK_PLACE any, PICK_SACRIFICE with followers, PICK_REPAIR damaged.
    """
    if site < 0 or site >= MAX_IDS or st[ix(LOC + site)] != IN_PLAY or st[ix(HOST + site)] >= 0:
        return False
    owner = 1 - seat if purpose <= PICK_STEAL else seat
    if st[ix(OWNER + site)] != owner:
        return False
    if purpose == PICK_KILL or purpose == PICK_STEAL or purpose == PICK_SACRIFICE:
        return st[ix(FOLLOW + site)] > 0
    if purpose == PICK_DESTROY:
        return site < HOMELAND
    if purpose == PICK_REPAIR:
        return st[ix(DAMAGE + site)] > 0
    return True


# --- move codes of the decision-point protocol ---------------------------------------------
CODE_RADIX = MAX_IDS + 1  # a and b are card ids, levels or -1
# Every move code is below this (D_MOVE's are the largest; a D_ARRANGE count is at most the rule
# followers, at most 1000).
MOVE_CODES = N_MOVE_KINDS * CODE_RADIX * CODE_RADIX


@njit(cache=True, _nrt=False, forceinline=False)
def move_code(kind, a, b):
    """D_MOVE's code of the move (kind, a, b) (``move_is_legal``'s arguments); END is 0."""
    return kind + N_MOVE_KINDS * ((a + 1) + CODE_RADIX * (b + 1))


@njit(cache=True, _nrt=False, forceinline=False)
def response_code(kind, a, b):
    """D_RESPONSE's code of the answer (kind, a, b) (``response_is_legal``'s); PASS is 0."""
    return kind + 3 * ((a + 1) + CODE_RADIX * (b + 1))


@njit(cache=True, _nrt=False, forceinline=False)
def decode(code, kinds):
    """(kind, a, b) of a D_MOVE (``kinds`` = N_MOVE_KINDS) or D_RESPONSE (3) code."""
    rest = code // kinds
    return code % kinds, rest % CODE_RADIX - 1, rest // CODE_RADIX - 1


@njit(cache=True, _nrt=False, forceinline=False)
def nth_move(st, cards, rules, seat, pick):
    """Walk the legal moves in a fixed order: (count, kind, a, b) of move number ``pick``, or
    (number of legal moves, END, -1, -1) when ``pick`` is past the end. The order of the random
    strategy's choice and of the protocol's ``legal``."""
    count = 0
    if pick == count:
        return count, END, -1, -1
    count += 1
    for level in range(1, N_LEVELS + 1):
        if move_is_legal(st, cards, rules, seat, DRAW, level, -1):
            if pick == count:
                return count, DRAW, level, -1
            count += 1
    if move_is_legal(st, cards, rules, seat, RELOCATE, -1, -1):
        if pick == count:
            return count, RELOCATE, -1, -1
        count += 1
    if move_is_legal(st, cards, rules, seat, UPGRADE, -1, -1):
        if pick == count:
            return count, UPGRADE, -1, -1
        count += 1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        if move_is_legal(st, cards, rules, seat, GAIN, site, -1):
            if pick == count:
                return count, GAIN, site, -1
            count += 1
        for ability in range(MAX_ABILITIES):
            if move_is_legal(st, cards, rules, seat, ABILITY, site, ability):
                if pick == count:
                    return count, ABILITY, site, ability
                count += 1
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        if cards[ix(card), C_TYPE] != ATTACHMENT:
            if move_is_legal(st, cards, rules, seat, PLAY, card, -1):
                if pick == count:
                    return count, PLAY, card, -1
                count += 1
            continue
        for owner in range(2):
            for j in range(sites_n(st, owner)):
                site = site_at(st, owner, j)
                if move_is_legal(st, cards, rules, seat, PLAY, card, site):
                    if pick == count:
                        return count, PLAY, card, site
                    count += 1
    return count, END, -1, -1
