"""Scripted Power Barons players: every decision a seat makes, dispatched on an integer id.

``baron`` follows the rulebook's strategy hints 1 (what to keep, what to bank) and 2 (which
opponent and which Power Base to challenge); ``flusher`` plays exactly like ``baron`` and adds
hint 3 (lose a challenge on purpose to flush a weak hand). Each decision reads the seat's row of
``prm`` (columns in ``PARAM_NAMES`` order) and only what that seat may know: its own hand, the
public banks, bases, hand sizes and cards on the table, and a hand it was shown (spy and steal).
"""

import numpy as np
from numba import njit

from simcore.intrinsics import ix
from simcore.power_barons_state import (
    CH_ATTACKER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_ROUND,
    CH_TOTAL,
    COLOUR,
    DECK_COUNT,
    DECK_TOTAL,
    HAND,
    N_CARDS,
    N_COLOURS,
    N_TERRITORIES,
    N_TYPES,
    P_DECK_MEAN,
    PI,
    VALUE,
    bank_credits,
    bases_in,
    bases_on_board,
    best_value,
    best_values,
    can_place,
    card_at,
    colour_count,
    colour_credits,
    colour_run,
    count_at,
    hand_count,
    hand_value,
    has_base,
    highest,
    lowest,
    lowest_slot,
    multiplier,
    outranks,
    progress,
    ranks_below,
    types_to_win,
)
from simcore.registry import Param, Strategy
from simcore.rng import rand_below, rand_bool

RANDOM, BARON, FLUSHER = range(3)

PARAM_NAMES = (
    "flush_below",
    "p_flush",
    "targeting",
    "declare",
    "late_bases",
    "banking",
    "surrender_margin",
    "pi_use",
    "give_away",
)
FLUSH_BELOW, P_FLUSH, TARGETING, DECLARE, LATE_BASES = range(5)
BANKING, SURRENDER_MARGIN, PI_USE, GIVE_AWAY = range(5, 9)

# Choice parameters reach the kernel as the index of their value; index 0 is the default, which
# is also what a seat whose strategy lacks the parameter (``random``) finds in its row.
TARGETINGS = ("leader", "poorest", "needed", "rechallenge")
TARGET_LEADER, TARGET_POOREST, TARGET_NEEDED, TARGET_RECHALLENGE = range(4)
DECLARES = ("strongest", "random")
DECLARE_STRONGEST, DECLARE_RANDOM = range(2)
BANKINGS = ("keep_best", "lowest", "highest_late")
BANK_KEEP_BEST, BANK_LOWEST, BANK_HIGHEST_LATE = range(3)
PI_USES = ("smallest", "largest", "never")
PI_SMALLEST, PI_LARGEST, PI_NEVER = range(3)
GIVE_AWAYS = ("lowest", "highest", "random")
GIVE_LOWEST, GIVE_HIGHEST, GIVE_RANDOM = range(3)

BARON_PARAMS = (
    Param(
        "targeting",
        "choice",
        "leader",
        "whom it challenges, among the opponents in whose territory it still needs a base: "
        "leader (furthest ahead), poorest (smallest bank), needed (where it needs the most "
        "bases), or rechallenge (leader, but once it has late_bases bases on the board it "
        "challenges for a base it already has there, in its strongest colour, for the credits)",
        choices=TARGETINGS,
    ),
    Param(
        "declare",
        "choice",
        "strongest",
        "the Power Base type it declares among those it still needs there: strongest (the colour "
        "of its highest card) or random",
        choices=DECLARES,
    ),
    Param(
        "late_bases",
        "int",
        6,
        "bases of its own on the board from which the game is late for it (banking="
        "highest_late, targeting=rechallenge)",
        0,
        12,
    ),
    Param(
        "banking",
        "choice",
        "keep_best",
        "which card it banks from a hand over size: keep_best (the highest card outside its "
        "best per colour, two best PI cards and a low decoy per colour), lowest (its lowest "
        "card), or highest_late (keep_best, then its highest card once it has late_bases bases "
        "on the board)",
        choices=BANKINGS,
    ),
    Param(
        "surrender_margin",
        "float",
        0.0,
        "credits added to what it expects to catch up before it surrenders a Power Card round "
        "(0: surrender when behind by more than it expects to catch up; higher: more stubborn)",
        -500.0,
        500.0,
    ),
    Param(
        "pi_use",
        "choice",
        "smallest",
        "Political Influence in the PI round: smallest (the smallest card that takes the lead, "
        "else its largest), largest (its largest first), or never (it surrenders instead, and "
        "does not count its PI cards when deciding to surrender earlier)",
        choices=PI_USES,
    ),
    Param(
        "give_away",
        "choice",
        "lowest",
        "the card of the asked colour it gives on TAKE A POWER CARD / TAKE POLITICAL INFLUENCE: "
        "lowest (hint 1's decoy), highest, or random",
        choices=GIVE_AWAYS,
    ),
)

STRATEGIES = (
    Strategy(
        "random",
        RANDOM,
        "uniform over legal choices: banks, asks, steals, removes, challenges, leads and buys at "
        "random; surrenders at each option and declines to play on with probability 1/2",
    ),
    Strategy(
        "baron",
        BARON,
        "the rulebook's strategy hints 1 and 2: keeps its best card of each colour, two Political "
        "Influence cards and a low decoy per colour, banks the highest other card; challenges "
        "an opponent for a Power Base it needs (targeting), declaring its strongest colour "
        "(declare); surrenders when it expects to lose; never loses on purpose",
        BARON_PARAMS,
    ),
    Strategy(
        "flusher",
        FLUSHER,
        "baron plus hint 3: when its hand is worth less than flush_below credits it challenges "
        "the opponent with the smallest bank, plays its lowest cards and surrenders after the "
        "fourth round (flushing them), then draws new cards",
        (
            Param(
                "flush_below",
                "float",
                240.0,
                "flush when the hand's face value is below this many credits (0: never); 240 "
                "won most in the flush study",
                0.0,
                1000.0,
            ),
            Param(
                "p_flush",
                "float",
                1.0,
                "chance to flush when the hand qualifies (drawn at every challenge)",
                0.0,
                1.0,
            ),
            *BARON_PARAMS,
        ),
    ),
)


# --- what a seat sees ----------------------------------------------------------------------
# Helpers called for every opponent or colour of a decision are inline="always" (a numba call
# passes each array as 7-9 machine words).


@njit(cache=True, _nrt=False, inline="always")
def leader_score(st, seat):
    """Who is ahead: bases that count towards a win, then credits banked."""
    return progress(st, seat) * 100_000 + bank_credits(st, seat)


@njit(cache=True, _nrt=False)
def leader(st, players, me):
    """The opponent furthest ahead (ties: the first clockwise from ``me``)."""
    best = -1
    best_score = -1
    for step in range(1, players):
        other = (me + step) % players
        score = leader_score(st, other)
        if score > best_score:
            best = other
            best_score = score
    return best


@njit(cache=True, _nrt=False)
def random_opponent(me, players, rng):
    return (me + 1 + rand_below(rng, players - 1)) % players


@njit(cache=True, _nrt=False, inline="always")
def useful(st, players, me, territory, base_type):
    """A base there would count towards ``me``'s win."""
    if not can_place(st, players, me, territory, base_type):
        return False
    return bases_in(st, me, territory) < types_to_win(players)


# --- banking and the board spaces ------------------------------------------------------------


@njit(cache=True, _nrt=False)
def highest_card(st, seat):
    """``seat``'s highest card (ties: lowest id), or -1."""
    best = -1
    for card_colour in range(N_COLOURS):
        card = highest(st, seat, card_colour)
        if card >= 0 and (best < 0 or outranks(st, card, best)):
            best = card
    return best


@njit(cache=True, _nrt=False)
def lowest_card(st, seat):
    """``seat``'s lowest card (ties: lowest id), or -1."""
    low = -1
    for card_colour in range(N_COLOURS):
        card = lowest(st, seat, card_colour)
        if card >= 0 and (low < 0 or ranks_below(st, card, low)):
            low = card
    return low


@njit(cache=True, _nrt=False, inline="always")
def bank_candidate(st, seat, card_colour):
    """(card, keep priority) of the card hint 1 banks first among ``seat``'s cards of
    ``card_colour``, or (-1, 4) if it has none. Keep priorities: 3 for the colour's best card
    and the second-best Political Influence card, 2 for a Power Card colour's lowest card when
    it is not also its best (a decoy to give away instead of a good card), else 1; the candidate
    is the highest card of the lowest priority, found by its place in the ranked run."""
    first, n = colour_run(st, seat, card_colour)
    if n == 0:
        return -1, 4
    if card_colour == PI:
        return (st[ix(first + 2)], 1) if n >= 3 else (st[ix(first)], 3)
    decoy = lowest_slot(st, first, n)
    unprotected = first + 1 if decoy != first + 1 else first + 2  # the highest other card
    if unprotected < first + n:
        return st[ix(unprotected)], 1
    if decoy != first:
        return st[ix(decoy)], 2
    return st[ix(first)], 3


@njit(cache=True, _nrt=False)
def least_needed(st, seat):
    """Hint 1's banking: the highest of ``seat``'s cards of the lowest keep priority (see
    bank_candidate)."""
    best = -1
    best_priority = 4
    for card_colour in range(N_COLOURS):
        card, priority = bank_candidate(st, seat, card_colour)
        if card >= 0 and (
            priority < best_priority or (priority == best_priority and outranks(st, card, best))
        ):
            best = card
            best_priority = priority
    return best


@njit(cache=True, _nrt=False)
def choose_bank_card(sid, prm, me, st, rng):
    """The card ``me`` banks when its hand is over size."""
    return bank_choice(sid, np.int64(prm[me, BANKING]), prm[me, LATE_BASES], me, st, rng)


@njit(cache=True, _nrt=False)
def bank_choice(sid, banking, late_bases, me, st, rng):
    """The card ``me`` banks under ``banking`` (a BANKINGS index). keep_best: the highest of its
    least needed cards (hint 1: protected cards stay, the rest grows the bank fast); lowest: its
    lowest card; highest_late: keep_best until it has ``late_bases`` bases on the board, then its
    highest card ("late in the game, bank high-value cards")."""
    if sid == RANDOM:
        return card_at(st, HAND + me, rand_below(rng, hand_count(st, me)))
    if banking == BANK_HIGHEST_LATE and bases_on_board(st, me) >= late_bases:
        return highest_card(st, me)
    if banking == BANK_LOWEST:
        return lowest_card(st, me)
    return least_needed(st, me)


@njit(cache=True, _nrt=False, inline="always")
def weakest_colour(best):
    """The Power Card colour whose best card (``best``: best_values of a hand) is lowest."""
    weakest = 0
    for card_colour in range(1, N_TYPES):
        if best[card_colour] < best[weakest]:
            weakest = card_colour
    return weakest


@njit(cache=True, _nrt=False)
def choose_victim(sid, me, players, st, rng):
    """Whom to ask for a card or spy on: the leader (random: anyone)."""
    if sid == RANDOM:
        return random_opponent(me, players, rng)
    return leader(st, players, me)


@njit(cache=True, _nrt=False)
def choose_colour_to_ask(sid, me, st, rng):
    """TAKE A POWER CARD: the colour ``me`` asks for."""
    if sid == RANDOM:
        return rand_below(rng, N_TYPES)
    return weakest_colour(best_values(st, me))


@njit(cache=True, _nrt=False)
def choose_give(sid, prm, me, card_colour, st, rng):
    """The card of ``card_colour`` ``me`` hands over when asked."""
    return give_choice(sid, np.int64(prm[me, GIVE_AWAY]), me, card_colour, st, rng)


@njit(cache=True, _nrt=False)
def give_choice(sid, give_away, me, card_colour, st, rng):
    """The card of ``card_colour`` ``me`` hands over when asked (it holds one), under
    ``give_away`` (a GIVE_AWAYS index): its lowest (hint 1's decoy), highest, or a random one."""
    if sid == RANDOM or give_away == GIVE_RANDOM:
        return random_card(st, HAND + me, card_colour, rng)
    if give_away == GIVE_HIGHEST:
        return highest(st, me, card_colour)
    return lowest(st, me, card_colour)


@njit(cache=True, _nrt=False)
def random_card(st, loc, card_colour, rng):
    """A uniformly random card of ``card_colour`` at ``loc`` (there is one)."""
    n = 0
    for i in range(count_at(st, loc)):
        n += st[ix(COLOUR + card_at(st, loc, i))] == card_colour
    k = rand_below(rng, n)
    for i in range(count_at(st, loc)):
        card = card_at(st, loc, i)
        if st[ix(COLOUR + card)] == card_colour:
            if k == 0:
                return card
            k -= 1
    return -1


@njit(cache=True, _nrt=False)
def choose_steal(sid, me, victim, st, rng):
    """SPY AND STEAL: the card ``me`` takes from ``victim``'s hand (not empty): the highest."""
    if sid == RANDOM:
        return card_at(st, HAND + victim, rand_below(rng, hand_count(st, victim)))
    return highest_card(st, victim)


@njit(cache=True, _nrt=False)
def choose_removal(sid, me, players, st, rng):
    """REMOVE A POWER BASE: (owner, territory, type) of an opponent's base (one exists).

    The scripted players hit the leader among the opponents with bases, in the territory where it
    has the most."""
    if sid == RANDOM:
        n = 0
        for owner in range(players):
            if owner != me:
                n += bases_on_board(st, owner)
        pick = rand_below(rng, n)
        for owner in range(players):
            if owner == me:
                continue
            for territory in range(N_TERRITORIES):
                for base_type in range(N_TYPES):
                    if has_base(st, owner, territory, base_type):
                        if pick == 0:
                            return owner, territory, base_type
                        pick -= 1
    best_owner = -1
    best_score = -1
    for owner in range(players):
        if owner != me and bases_on_board(st, owner) > 0:
            score = leader_score(st, owner)
            if score > best_score:
                best_owner = owner
                best_score = score
    best_territory = 0
    for territory in range(1, N_TERRITORIES):
        if bases_in(st, best_owner, territory) > bases_in(st, best_owner, best_territory):
            best_territory = territory
    for base_type in range(N_TYPES):
        if has_base(st, best_owner, best_territory, base_type):
            return best_owner, best_territory, base_type
    return -1, -1, -1


# --- the challenge ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def strongest_useful_type(st, players, me, defender, best):
    """Hint 2: the type ``me`` still needs in ``defender``'s territory in which its best card
    (``best``: best_values of its hand) is highest; -1 if it needs none there."""
    strongest = -1
    for base_type in range(N_TYPES):
        if useful(st, players, me, defender, base_type) and (
            strongest < 0 or best[base_type] > best[strongest]
        ):
            strongest = base_type
    return strongest


@njit(cache=True, _nrt=False, inline="always")
def strongest_colour(best):
    strongest = 0
    for card_colour in range(1, N_TYPES):
        if best[card_colour] > best[strongest]:
            strongest = card_colour
    return strongest


@njit(cache=True, _nrt=False)
def poorest(st, players, me):
    """Hint 3's victim: the opponent with the fewest credits banked (ties: first clockwise)."""
    best = -1
    for step in range(1, players):
        other = (me + step) % players
        if best < 0 or bank_credits(st, other) < bank_credits(st, best):
            best = other
    return best


@njit(cache=True, _nrt=False, inline="always")
def target_score(targeting, st, players, me, other):
    """How much ``me`` wants to challenge ``other`` under ``targeting`` (a TARGETINGS index;
    higher is better, never negative): leader and rechallenge by leader_score, poorest by the
    smallest bank, needed by the count of types ``me`` still needs there, then leader_score."""
    if targeting == TARGET_POOREST:
        return 1_000_000_000 - bank_credits(st, other)
    if targeting == TARGET_NEEDED:
        n = 0
        for base_type in range(N_TYPES):
            n += useful(st, players, me, other, base_type)
        return n * 100_000_000 + leader_score(st, other)
    return leader_score(st, other)


@njit(cache=True, _nrt=False)
def declared_type(declare, st, players, me, defender, best, rng):
    """The type ``me`` declares against ``defender`` (``declare``: a DECLARES index): among the
    types it still needs there, the one of its strongest colour, or a random one; if it needs
    none there, its strongest colour, or a random type."""
    if declare == DECLARE_RANDOM:
        n = 0
        for base_type in range(N_TYPES):
            n += useful(st, players, me, defender, base_type)
        if n == 0:
            return rand_below(rng, N_TYPES)
        k = rand_below(rng, n)
        for base_type in range(N_TYPES):
            if useful(st, players, me, defender, base_type):
                if k == 0:
                    return base_type
                k -= 1
    return strongest_declaration(strongest_useful_type(st, players, me, defender, best), best)


@njit(cache=True, _nrt=False, inline="always")
def strongest_declaration(needed_type, best):
    """declare=strongest: ``needed_type`` (strongest_useful_type in the defender's territory), or
    its strongest colour if it needs none there."""
    return needed_type if needed_type >= 0 else strongest_colour(best)


@njit(cache=True, _nrt=False)
def choose_challenge(sid, prm, me, players, st, rng):
    """(defender, declared type, flush 0/1) for ``me``'s challenge."""
    if sid == RANDOM:
        return random_opponent(me, players, rng), rand_below(rng, N_TYPES), 0
    best = best_values(st, me)
    targeting = np.int64(prm[me, TARGETING])
    declare = np.int64(prm[me, DECLARE])
    if sid == FLUSHER:
        wants = rand_bool(rng, prm[me, P_FLUSH])  # drawn every time: arms stay paired
        if wants and hand_value(st, me) < prm[me, FLUSH_BELOW]:
            defender = poorest(st, players, me)
            return defender, declared_type(declare, st, players, me, defender, best, rng), 1
    if targeting == TARGET_RECHALLENGE and bases_on_board(st, me) >= prm[me, LATE_BASES]:
        # hint 2, late in the game: win credits in its strongest colour where it has that base
        strongest = strongest_colour(best)
        defender = -1
        best_score = -1
        for step in range(1, players):
            other = (me + step) % players
            if has_base(st, me, other, strongest) and leader_score(st, other) > best_score:
                defender = other
                best_score = leader_score(st, other)
        if defender >= 0:
            return defender, strongest, 0
    defender = -1
    # The type it needs most in the defender's territory, kept from the search so that declaring
    # the strongest does not look for it again; -1 (none) for the fallback.
    defender_type = -1
    best_score = -1
    fallback = -1  # it needs nothing anywhere it can still place: play for credits
    fallback_score = -1
    for step in range(1, players):
        other = (me + step) % players
        score = target_score(targeting, st, players, me, other)
        if score > fallback_score:
            fallback = other
            fallback_score = score
        if score > best_score:
            needed_type = strongest_useful_type(st, players, me, other, best)
            if needed_type >= 0:
                defender = other
                defender_type = needed_type
                best_score = score
    if defender < 0:
        defender = fallback
    if declare == DECLARE_RANDOM:
        return defender, declared_type(declare, st, players, me, defender, best, rng), 0
    return defender, strongest_declaration(defender_type, best), 0


@njit(cache=True, _nrt=False, inline="always")
def effective(st, rules, card):
    """What ``card`` would count for in the challenge in progress."""
    return st[ix(VALUE + card)] * multiplier(st, rules, st[ix(COLOUR + card)])


@njit(cache=True, _nrt=False)
def choose_lead(sid, me, st, rules, rng):
    """(colour, card) the attacker leads: a card of a colour not yet played if it holds one,
    else (that colour, -1) for the first such colour it calls out."""
    done = st[CH_DONE]
    pick = -1
    n = 0
    for card_colour in range(N_TYPES):
        if (done >> card_colour) & 1:
            continue
        n += colour_count(st, HAND + me, card_colour)
        if sid == RANDOM:
            continue
        # A colour's candidate is its lowest card when flushing (shed the lowest card first),
        # else its highest (the one counting most).
        if st[CH_FLUSH] == 1:
            card = lowest(st, me, card_colour)
            if card >= 0 and (pick < 0 or ranks_below(st, card, pick)):
                pick = card
        else:
            card = highest(st, me, card_colour)
            if card >= 0 and (
                pick < 0
                or effective(st, rules, card) > effective(st, rules, pick)
                or (effective(st, rules, card) == effective(st, rules, pick) and card < pick)
            ):
                pick = card
    if sid == RANDOM and n > 0:
        k = rand_below(rng, n)
        for i in range(hand_count(st, me)):
            card = card_at(st, HAND + me, i)
            card_colour = st[ix(COLOUR + card)]
            if card_colour != PI and not (done >> card_colour) & 1:
                if k == 0:
                    return card_colour, card
                k -= 1
    if pick >= 0:
        return st[ix(COLOUR + pick)], pick
    for card_colour in range(N_TYPES):
        if not (done >> card_colour) & 1:
            return card_colour, -1
    return -1, -1


@njit(cache=True, _nrt=False)
def choose_follow(sid, me, card_colour, st, rng):
    """The card of ``card_colour`` the defender plays (it holds one): its highest."""
    if sid == RANDOM:
        return random_card(st, HAND + me, card_colour, rng)
    return highest(st, me, card_colour)


@njit(cache=True, _nrt=False, inline="always")
def expected_remaining(st, rules, me, mine):
    """Credits ``me`` can still add (``mine``: its real best cards) or an unseen hand would add
    on average (not ``mine``: the deck's mean per colour), in the rounds not yet played, plus
    Political Influence in a full challenge."""
    total = 0.0
    for card_colour in range(N_TYPES):
        if (st[CH_DONE] >> card_colour) & 1:
            continue
        if mine:  # only the colours still to come: their best cards are looked up, no others
            total += best_value(st, me, card_colour) * multiplier(st, rules, card_colour)
        elif st[ix(DECK_COUNT + card_colour)] > 0:
            total += rules[P_DECK_MEAN + card_colour] * multiplier(st, rules, card_colour)
    if st[CH_LIMITED] == 0:
        if mine:
            total += colour_credits(st, HAND + me, PI)
        else:
            total += hand_count(st, me) * st[DECK_TOTAL + PI] / st[N_CARDS]
    return total


@njit(cache=True, _nrt=False)
def wants_to_surrender(sid, prm, me, st, rules, rng):
    """At a surrender option."""
    margin = prm[me, SURRENDER_MARGIN]
    return surrender_choice(sid, margin, np.int64(prm[me, PI_USE]), me, st, rules, rng)


@njit(cache=True, _nrt=False)
def surrender_choice(sid, margin, pi_use, me, st, rules, rng):
    """At a surrender option (st[CH_ROUND]: 0-3 after a Power Card round, 4 in the Political
    Influence round when ``me`` could still take the lead): surrender when behind by more than
    it expects to catch up plus ``margin`` credits; in the PI round only with pi_use never."""
    if sid == RANDOM:
        return rand_bool(rng, 0.5)
    attacking = me == st[CH_ATTACKER]
    if attacking and st[CH_FLUSH] == 1:
        return st[CH_ROUND] >= 3  # play out all four rounds, shedding four low cards
    opponent_side = 1 if attacking else 0
    mine = st[ix(CH_TOTAL + 1 - opponent_side)]
    theirs = st[ix(CH_TOTAL + opponent_side)]
    deficit = theirs - mine + (1 if attacking else 0)  # ties go to the defender
    if deficit <= 0:
        return False
    if st[CH_ROUND] == 4:
        return pi_use == PI_NEVER
    opponent = st[ix(CH_ATTACKER + opponent_side)]
    catch_up = expected_remaining(st, rules, me, True) - expected_remaining(
        st, rules, opponent, False
    )
    if pi_use == PI_NEVER and st[CH_LIMITED] == 0:
        catch_up -= colour_credits(st, HAND + me, PI)  # it will not play them
    return deficit > catch_up + margin


@njit(cache=True, _nrt=False)
def choose_pi_card(sid, prm, me, st, rng):
    """The next Political Influence card ``me`` plays in its turn of the PI round (it holds
    one), or -1 to stop, which it may only do once it is winning."""
    return pi_choice(sid, np.int64(prm[me, PI_USE]), me, st, rng)


@njit(cache=True, _nrt=False)
def pi_choice(sid, pi_use, me, st, rng):
    """The next Political Influence card ``me`` plays, or -1 to stop. While behind: under
    pi_use smallest the smallest that takes the lead, else its largest; under largest its
    largest. Once winning the scripted players stop: a card more cannot win a challenge the
    cards it keeps would not win (it can still play them if the opponent retakes the lead), and
    the loser's played cards go to the winner. random stops or plays one of its k PI cards,
    each with probability 1 / (k + 1)."""
    attacking = me == st[CH_ATTACKER]
    mine = st[ix(CH_TOTAL + (0 if attacking else 1))]
    theirs = st[ix(CH_TOTAL + (1 if attacking else 0))]
    needed = theirs - mine + (1 if attacking else 0)
    if sid == RANDOM:
        if needed <= 0 and rand_below(rng, colour_count(st, HAND + me, PI) + 1) == 0:
            return -1
        return random_card(st, HAND + me, PI, rng)
    if needed <= 0:
        return -1
    enough = -1
    largest = -1
    first, n = colour_run(st, me, PI)
    for i in range(first, first + n):
        card = st[ix(i)]
        if st[ix(VALUE + card)] >= needed and (enough < 0 or ranks_below(st, card, enough)):
            enough = card
        if largest < 0 or outranks(st, card, largest):
            largest = card
    return enough if enough >= 0 and pi_use != PI_LARGEST else largest


# --- buying ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def choose_purchase(sid, me, players, st, rng):
    """(territory, type) of the base ``me`` buys (a legal placement exists). Hint 2: buy the
    bases you are unlikely to win, so the scripted players buy a needed type in their weakest
    colour, in the territory where they have the most bases."""
    best = best_values(st, me)
    n = 0
    best_territory = -1
    best_type = -1
    best_score = -1
    for territory in range(players):
        for base_type in range(N_TYPES):
            if not can_place(st, players, me, territory, base_type):
                continue
            n += 1
            score = 0
            if useful(st, players, me, territory, base_type):
                score = 10_000 - 10 * best[base_type] + bases_in(st, me, territory)
            if score > best_score:
                best_territory = territory
                best_type = base_type
                best_score = score
    if sid == RANDOM:
        k = rand_below(rng, n)
        for territory in range(players):
            for base_type in range(N_TYPES):
                if can_place(st, players, me, territory, base_type):
                    if k == 0:
                        return territory, base_type
                    k -= 1
    return best_territory, best_type
