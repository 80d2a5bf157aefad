"""Scripted Power Barons players: every decision a seat makes, dispatched on an integer id.

``baron`` follows the rulebook's strategy hints 1 (what to keep, what to bank) and 2 (which
opponent and which Power Base to challenge); ``flusher`` plays exactly like ``baron`` and adds
hint 3 (lose a challenge on purpose to flush a weak hand). Each decision reads the seat's row of
``prm`` (columns in ``PARAM_NAMES`` order) and only what that seat may know: its own hand, the
public banks, bases, hand sizes and cards on the table, and a hand it was shown (spy and steal).
"""

import numpy as np
from numba import njit

from simcore.games.power_barons.state import (
    CH_ATTACKER,
    CH_DEFENDER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_ROUND,
    CH_TOTAL,
    COLOUR,
    D_BANK,
    D_CHALLENGE,
    D_FOLLOW,
    D_GIVE,
    D_LEAD,
    D_PI,
    D_REMOVE,
    D_STEAL,
    D_SURRENDER,
    D_TAKE,
    DECK_COUNT,
    DECK_TOTAL,
    DRAWPILE,
    HAND,
    LIMITED,
    LOC,
    MAX_PLAYERS,
    MOVE_CALL_OUT,
    MOVE_STOP,
    N_CARDS,
    N_COLOURS,
    N_LOCATIONS,
    N_SPACES,
    N_TERRITORIES,
    N_TYPES,
    P_ASKED,
    P_DECISION,
    P_DECK_MEAN,
    P_LEAD_COLOUR,
    P_SPACE,
    P_VICTIM,
    PI,
    PLAYERS,
    R_DECLARED_MULTIPLIER,
    SPACE_KIND,
    TAKE_POWER,
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
    credits_at,
    hand_count,
    hand_value,
    has_base,
    highest,
    is_hand,
    lowest,
    lowest_slot,
    multiplier,
    progress,
    types_to_win,
)
from simcore.kernel.intrinsics import ix
from simcore.kernel.rng import rand_below, rand_bool
from simcore.registry import Param, Strategy

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
BANKINGS = ("keep_best", "lowest", "decoys", "highest_late")
BANK_KEEP_BEST, BANK_LOWEST, BANK_DECOYS, BANK_HIGHEST_LATE = range(4)
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
        "which card it banks from a hand over size: keep_best (the card that adds least to its "
        "expected challenge total: a Power Card that is not its colour's best, the lowest "
        "first), lowest (its lowest card), decoys (a literal hint 1: keeps its best card and a "
        "low decoy per colour and two PI cards, banks the highest other card), or highest_late "
        "(keep_best, then its highest card once it has late_bases bases on the board)",
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
        "the rulebook's strategy hints 1 and 2: banks the card that adds least to its challenges "
        "(banking), challenges the opponent furthest ahead for a Power Base it needs "
        "(targeting), declaring its strongest colour (declare), leads and follows with its "
        "highest cards, surrenders when behind by more than it expects to catch up; never loses "
        "on purpose",
        BARON_PARAMS,
    ),
    Strategy(
        "flusher",
        FLUSHER,
        "baron plus hint 3: when its hand is worth less than flush_below times an average hand "
        "of the cards it cannot see, it challenges the opponent with the smallest bank, leads its "
        "lowest cards and surrenders before it could get ahead (flushing them), then draws new "
        "cards",
        (
            Param(
                "flush_below",
                "float",
                1.0,
                "flush when the hand's face value is below this share of an average hand of the "
                "same size drawn from the cards it cannot see (0: never)",
                0.0,
                2.0,
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


@njit(cache=True, _nrt=False, inline="always")
def takes_tie(rng, ties):
    """Whether the ``ties``-th candidate level with the best so far replaces it: with probability
    1 / ties, so that each of the tied candidates is kept with the same chance (reservoir
    sampling). Every tie of these strategies is broken this way, from the game's stream, except
    between cards of the same colour and value, which are interchangeable."""
    return rand_below(rng, ties) == 0


@njit(cache=True, _nrt=False, inline="always")
def beats(score, best_score, ties, rng):
    """One step of "the candidate with the highest score, ties drawn": (whether the candidate
    with ``score`` becomes the pick, the best score, the count of candidates level with it)."""
    if score > best_score:
        return True, score, 1
    if score == best_score:
        ties += 1
        return takes_tie(rng, ties), best_score, ties
    return False, best_score, ties


# --- what a seat sees ----------------------------------------------------------------------
# Helpers called for every opponent or colour of a decision are inline="always" (a numba call
# passes each array as 7-9 machine words).


@njit(cache=True, _nrt=False, inline="always")
def leader_score(st, seat):
    """Who is ahead: bases that count towards a win, then credits banked."""
    return progress(st, seat) * 100_000 + bank_credits(st, seat)


@njit(cache=True, _nrt=False)
def leader(st, players, me, rng):
    """The opponent furthest ahead (ties: drawn)."""
    best = -1
    best_score = -1
    ties = 0
    for other in range(players):
        if other == me:
            continue
        take, best_score, ties = beats(leader_score(st, other), best_score, ties, rng)
        if take:
            best = other
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


@njit(cache=True, _nrt=False)
def unseen_mean(st, me):
    """The mean face value of the cards ``me`` cannot see (opponents' hands and the drawpile):
    the deck less its own hand, the discard pile, the banks and the table, which are open; 0
    when it sees every card."""
    credits = 0
    cards = st[N_CARDS]
    for card_colour in range(N_COLOURS):
        credits += st[ix(DECK_TOTAL + card_colour)]
    for loc in range(N_LOCATIONS):
        if loc != DRAWPILE and (loc == HAND + me or not is_hand(loc)):
            credits -= credits_at(st, loc)
            cards -= count_at(st, loc)
    return credits / cards if cards > 0 else 0.0


# --- banking and the board spaces ------------------------------------------------------------


@njit(cache=True, _nrt=False)
def extreme_card(st, seat, highest_first, rng):
    """``seat``'s highest (``highest_first``) or lowest card, or -1 (ties between colours:
    drawn)."""
    pick = -1
    ties = 0
    for card_colour in range(N_COLOURS):
        card = highest(st, seat, card_colour) if highest_first else lowest(st, seat, card_colour)
        if card < 0:
            continue
        if pick < 0 or (
            st[ix(VALUE + card)] > st[ix(VALUE + pick)]
            if highest_first
            else st[ix(VALUE + card)] < st[ix(VALUE + pick)]
        ):
            pick, ties = card, 1
        elif st[ix(VALUE + card)] == st[ix(VALUE + pick)]:
            ties += 1
            if takes_tie(rng, ties):
                pick = card
    return pick


@njit(cache=True, _nrt=False)
def full_share_weight(st):
    """How often a challenge is full (has a PI round), as the board's spaces that are not
    LIMITED CHALLENGE; the weight of a PI card's credits in ``challenge_worth``, over N_TYPES *
    spaces."""
    n = st[N_SPACES]
    for space in range(st[N_SPACES]):
        n -= st[ix(SPACE_KIND + space)] == LIMITED
    return N_TYPES * n


@njit(cache=True, _nrt=False, inline="always")
def challenge_worth(st, rules, card, slot, first, n, full_weight):
    """What ``card`` (at ``slot`` in its colour's ranked run st[first : first + n]) adds to its
    holder's expected challenge total, times N_TYPES * spaces (integers, so that equal worths
    tie exactly). In a challenge a hand plays its best card of each Power Card colour, which
    counts (multiplier + 3) / 4 times its value on average (one colour in four is declared),
    and in a full challenge (full_weight) every Political Influence card it needs. Without a
    colour's best card the next one plays, so the best adds the difference; any other Power Card
    adds nothing now (it is a backup)."""
    if st[ix(COLOUR + card)] == PI:
        return st[ix(VALUE + card)] * full_weight
    if slot != first:
        return 0
    after = st[ix(VALUE + st[ix(first + 1)])] if n > 1 else 0
    average = np.int64(rules[R_DECLARED_MULTIPLIER]) + N_TYPES - 1
    return (st[ix(VALUE + card)] - after) * average * st[N_SPACES]


@njit(cache=True, _nrt=False)
def least_worth(st, rules, seat, rng):
    """keep_best's bank card: the one that adds least to ``seat``'s expected challenge total
    (challenge_worth); among those, the lowest, as a backup is worth more the higher it is once
    its colour's best is lost (ties: drawn)."""
    full_weight = full_share_weight(st)
    pick = -1
    pick_worth = 0
    ties = 0
    for card_colour in range(N_COLOURS):
        first, n = colour_run(st, seat, card_colour)
        for slot in range(first, first + n):
            card = st[ix(slot)]
            worth = challenge_worth(st, rules, card, slot, first, n, full_weight)
            if (
                pick < 0
                or worth < pick_worth
                or (worth == pick_worth and st[ix(VALUE + card)] < st[ix(VALUE + pick)])
            ):
                pick, pick_worth, ties = card, worth, 1
            elif worth == pick_worth and st[ix(VALUE + card)] == st[ix(VALUE + pick)]:
                ties += 1
                if takes_tie(rng, ties):
                    pick = card
    return pick


@njit(cache=True, _nrt=False, inline="always")
def decoy_candidate(st, seat, card_colour):
    """(card, keep priority) of the card banking=decoys banks first among ``seat``'s cards of
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
def decoys_choice(st, seat, rng):
    """banking=decoys: the highest of ``seat``'s cards of the lowest keep priority (see
    decoy_candidate; ties between colours: drawn)."""
    best = -1
    best_priority = 4
    ties = 0
    for card_colour in range(N_COLOURS):
        card, priority = decoy_candidate(st, seat, card_colour)
        if card < 0:
            continue
        if priority < best_priority or (
            priority == best_priority and st[ix(VALUE + card)] > st[ix(VALUE + best)]
        ):
            best, best_priority, ties = card, priority, 1
        elif priority == best_priority and st[ix(VALUE + card)] == st[ix(VALUE + best)]:
            ties += 1
            if takes_tie(rng, ties):
                best = card
    return best


@njit(cache=True, _nrt=False)
def choose_bank_card(sid, prm, me, st, rules, rng):
    """The card ``me`` banks when its hand is over size."""
    return bank_choice(sid, np.int64(prm[me, BANKING]), prm[me, LATE_BASES], me, st, rules, rng)


@njit(cache=True, _nrt=False)
def bank_choice(sid, banking, late_bases, me, st, rules, rng):
    """The card ``me`` banks under ``banking`` (a BANKINGS index): keep_best the card that adds
    least to its challenges (least_worth); lowest its lowest card; decoys hint 1 read literally
    (decoys_choice); highest_late keep_best until it has ``late_bases`` bases on the board, then
    its highest card ("late in the game, bank high-value cards")."""
    if sid == RANDOM:
        return card_at(st, HAND + me, rand_below(rng, hand_count(st, me)))
    if banking == BANK_HIGHEST_LATE and bases_on_board(st, me) >= late_bases:
        return extreme_card(st, me, True, rng)
    if banking == BANK_LOWEST:
        return extreme_card(st, me, False, rng)
    if banking == BANK_DECOYS:
        return decoys_choice(st, me, rng)
    return least_worth(st, rules, me, rng)


@njit(cache=True, _nrt=False)
def extreme_colour(best, weakest, rng):
    """The Power Card colour whose best card (``best``: best_values of a hand) is lowest
    (``weakest``) or highest (ties: drawn)."""
    pick = 0
    ties = 1
    for card_colour in range(1, N_TYPES):
        if best[card_colour] < best[pick] if weakest else best[card_colour] > best[pick]:
            pick, ties = card_colour, 1
        elif best[card_colour] == best[pick]:
            ties += 1
            if takes_tie(rng, ties):
                pick = card_colour
    return pick


@njit(cache=True, _nrt=False)
def choose_victim(sid, me, players, st, rng):
    """Whom to ask for a card or spy on: the leader (random: anyone)."""
    if sid == RANDOM:
        return random_opponent(me, players, rng)
    return leader(st, players, me, rng)


@njit(cache=True, _nrt=False)
def choose_colour_to_ask(sid, me, st, rng):
    """TAKE A POWER CARD: the colour ``me`` asks for: its weakest."""
    if sid == RANDOM:
        return rand_below(rng, N_TYPES)
    return extreme_colour(best_values(st, me), True, rng)


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
    """SPY AND STEAL: the card ``me`` takes from ``victim``'s hand (not empty), which it is
    shown: the highest."""
    if sid == RANDOM:
        return card_at(st, HAND + victim, rand_below(rng, hand_count(st, victim)))
    return extreme_card(st, victim, True, rng)


@njit(cache=True, _nrt=False, inline="always")
def counts_towards_win(st, players, owner, territory):
    """A base of ``owner`` in ``territory`` counts towards its win (removing one costs it)."""
    return (
        territory < players
        and territory != owner
        and bases_in(st, owner, territory) <= types_to_win(players)
    )


@njit(cache=True, _nrt=False)
def choose_removal(sid, me, players, st, rng):
    """REMOVE A POWER BASE: (owner, territory, type) of an opponent's base (one exists).

    The scripted players set the leader back: among the opponents' bases, one whose removal
    costs its owner a base towards its win, of the opponent furthest ahead, in the territory
    where it has the most bases; ties (owner, territory, type) drawn."""
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
    best_owner, best_territory, best_type = -1, -1, -1
    best_score = -1
    ties = 0
    for owner in range(players):
        if owner == me:
            continue
        for territory in range(N_TERRITORIES):
            if bases_in(st, owner, territory) == 0:
                continue
            score = (
                counts_towards_win(st, players, owner, territory) * 1_000_000_000_000
                + leader_score(st, owner) * 10
                + bases_in(st, owner, territory)
            )
            for base_type in range(N_TYPES):
                if not has_base(st, owner, territory, base_type):
                    continue
                take, best_score, ties = beats(score, best_score, ties, rng)
                if take:
                    best_owner, best_territory, best_type = owner, territory, base_type
    return best_owner, best_territory, best_type


# --- the challenge ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def strongest_useful_type(st, players, me, defender, best, rng):
    """Hint 2: the type ``me`` still needs in ``defender``'s territory in which its best card
    (``best``: best_values of its hand) is highest (ties: drawn); -1 if it needs none there."""
    strongest = -1
    ties = 0
    for base_type in range(N_TYPES):
        if not useful(st, players, me, defender, base_type):
            continue
        if strongest < 0 or best[base_type] > best[strongest]:
            strongest, ties = base_type, 1
        elif best[base_type] == best[strongest]:
            ties += 1
            if takes_tie(rng, ties):
                strongest = base_type
    return strongest


@njit(cache=True, _nrt=False)
def poorest(st, players, me, rng):
    """Hint 3's victim: the opponent with the fewest credits banked (ties: drawn)."""
    best = -1
    ties = 0
    for other in range(players):
        if other == me:
            continue
        if best < 0 or bank_credits(st, other) < bank_credits(st, best):
            best, ties = other, 1
        elif bank_credits(st, other) == bank_credits(st, best):
            ties += 1
            if takes_tie(rng, ties):
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
    needed_type = strongest_useful_type(st, players, me, defender, best, rng)
    return needed_type if needed_type >= 0 else extreme_colour(best, False, rng)


@njit(cache=True, _nrt=False)
def wants_to_flush(prm, me, st, rng):
    """Hint 3: ``me`` (a flusher) flushes this challenge. The chance p_flush is drawn every
    time, so that arms differing only in p_flush stay paired."""
    wants = rand_bool(rng, prm[me, P_FLUSH])
    average_hand = hand_count(st, me) * unseen_mean(st, me)
    return wants and hand_value(st, me) < prm[me, FLUSH_BELOW] * average_hand


@njit(cache=True, _nrt=False)
def choose_challenge(sid, prm, me, players, st, rng):
    """(defender, declared type, flush 0/1) for ``me``'s challenge."""
    if sid == RANDOM:
        return random_opponent(me, players, rng), rand_below(rng, N_TYPES), 0
    best = best_values(st, me)
    targeting = np.int64(prm[me, TARGETING])
    declare = np.int64(prm[me, DECLARE])
    if sid == FLUSHER and wants_to_flush(prm, me, st, rng):
        defender = poorest(st, players, me, rng)
        return defender, declared_type(declare, st, players, me, defender, best, rng), 1
    defender = -1
    best_score = -1
    ties = 0
    if targeting == TARGET_RECHALLENGE and bases_on_board(st, me) >= prm[me, LATE_BASES]:
        # hint 2, late in the game: win credits in its strongest colour where it has that base
        strongest = extreme_colour(best, False, rng)
        for other in range(players):
            if other == me or not has_base(st, me, other, strongest):
                continue
            take, best_score, ties = beats(leader_score(st, other), best_score, ties, rng)
            if take:
                defender = other
        if defender >= 0:
            return defender, strongest, 0
    # Among the opponents in whose territory it still needs a base, the one targeting puts
    # first; if it needs nothing anywhere it can still place, the first of all (for credits).
    fallback = -1
    fallback_score = -1
    fallback_ties = 0
    for other in range(players):
        if other == me:
            continue
        score = target_score(targeting, st, players, me, other)
        take, fallback_score, fallback_ties = beats(score, fallback_score, fallback_ties, rng)
        if take:
            fallback = other
        needs = False
        for base_type in range(N_TYPES):
            needs = needs or useful(st, players, me, other, base_type)
        if not needs:
            continue
        take, best_score, ties = beats(score, best_score, ties, rng)
        if take:
            defender = other
    if defender < 0:
        defender = fallback
    return defender, declared_type(declare, st, players, me, defender, best, rng), 0


@njit(cache=True, _nrt=False, inline="always")
def effective(st, rules, card):
    """What ``card`` would count for in the challenge in progress."""
    return st[ix(VALUE + card)] * multiplier(st, rules, st[ix(COLOUR + card)])


@njit(cache=True, _nrt=False)
def chance_ahead(st, rules, me, card):
    """The chance that a flushing attacker ``me`` is ahead after it leads ``card``: that the
    defender holds no card of that colour counting enough to keep it level, its hand (of known
    size) being drawn from the cards ``me`` cannot see (the deck less its own hand, the banks,
    the discard pile and the table). 0 when even a defender who cannot follow stays level."""
    card_colour = st[ix(COLOUR + card)]
    times = multiplier(st, rules, card_colour)
    gap = st[ix(VALUE + card)] * times - (st[CH_TOTAL + 1] - st[CH_TOTAL])
    if gap <= 0:
        return 0.0
    unseen = 0
    enough = 0  # unseen cards of the colour that would keep the defender level
    for other in range(st[N_CARDS]):
        loc = st[ix(LOC + other)]
        if loc == DRAWPILE or (is_hand(loc) and loc != HAND + me):
            unseen += 1
            enough += st[ix(COLOUR + other)] == card_colour and st[ix(VALUE + other)] * times >= gap
    chance = 1.0
    for i in range(hand_count(st, st[CH_DEFENDER])):
        chance *= max(unseen - enough - i, 0) / (unseen - i)
    return chance


@njit(cache=True, _nrt=False)
def least_chance_ahead(st, rules, me):
    """The smallest chance_ahead of the flusher's possible next leads (its lowest card of each
    colour still to be played). When it holds none it would call a colour out, adding nothing:
    0 unless it is ahead already (then 1: it stays ahead if the defender cannot follow)."""
    least = 1.0 if st[CH_TOTAL] > st[CH_TOTAL + 1] else 0.0
    found = False
    for card_colour in range(N_TYPES):
        card = lowest(st, me, card_colour)
        if card < 0 or (st[CH_DONE] >> card_colour) & 1:
            continue
        chance = chance_ahead(st, rules, me, card)
        if not found or chance < least:
            least, found = chance, True
    return least


@njit(cache=True, _nrt=False)
def choose_lead(sid, me, st, rules, rng):
    """(colour, card) the attacker leads: a card of a colour not yet played if it holds one,
    else (a random such colour, -1) to call out. Playing to win, its highest-counting card;
    flushing, of its lowest card of each colour, the one least likely to put it ahead
    (chance_ahead), then the lowest-counting. Ties: drawn."""
    done = st[CH_DONE]
    flushing = st[CH_FLUSH] == 1 and sid != RANDOM
    pick = -1
    pick_count = 0
    pick_chance = 0.0
    ties = 0
    n = 0
    for card_colour in range(N_TYPES):
        if (done >> card_colour) & 1:
            continue
        n += colour_count(st, HAND + me, card_colour)
        if sid == RANDOM:
            continue
        card = lowest(st, me, card_colour) if flushing else highest(st, me, card_colour)
        if card < 0:
            continue
        count = effective(st, rules, card)
        chance = chance_ahead(st, rules, me, card) if flushing else 0.0
        if flushing:
            better = chance < pick_chance or (chance == pick_chance and count < pick_count)
            level = chance == pick_chance and count == pick_count
        else:
            better = count > pick_count
            level = count == pick_count
        if pick < 0 or better:
            pick, pick_count, pick_chance, ties = card, count, chance, 1
        elif level:
            ties += 1
            if takes_tie(rng, ties):
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
    k = rand_below(rng, N_TYPES - popcount4(done))
    for card_colour in range(N_TYPES):
        if not (done >> card_colour) & 1:
            if k == 0:
                return card_colour, -1
            k -= 1
    return -1, -1


@njit(cache=True, _nrt=False, inline="always")
def popcount4(bits):
    """Colours set in a CH_DONE mask."""
    return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1) + ((bits >> 3) & 1)


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
    it expects to catch up plus ``margin`` credits; in the PI round only with pi_use never.
    A flushing attacker surrenders after the fourth round, and earlier as soon as every lead it
    could make might put it ahead (least_chance_ahead above 0): ahead, the defender would have
    the first option and might surrender."""
    if sid == RANDOM:
        return rand_bool(rng, 0.5)
    attacking = me == st[CH_ATTACKER]
    if attacking and st[CH_FLUSH] == 1:
        if st[CH_ROUND] >= N_TYPES - 1:
            return True
        return least_chance_ahead(st, rules, me) > 0.0
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
    first, n = colour_run(st, me, PI)  # PI cards from the highest down
    if pi_use == PI_LARGEST:
        return st[ix(first)]
    enough = first  # the smallest card that takes the lead, else the largest
    for i in range(first + 1, first + n):
        if st[ix(VALUE + st[ix(i)])] >= needed:
            enough = i
    return st[ix(enough)]


# --- buying ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def choose_purchase(sid, me, players, st, rng):
    """(territory, type) of the base ``me`` buys (a legal placement exists). Hint 2: buy the
    bases you are unlikely to win, so the scripted players buy a needed type in their weakest
    colour, in the territory where they have the most bases (ties: drawn)."""
    best = best_values(st, me)
    n = 0
    best_territory = -1
    best_type = -1
    best_score = -1
    ties = 0
    for territory in range(players):
        for base_type in range(N_TYPES):
            if not can_place(st, players, me, territory, base_type):
                continue
            n += 1
            if sid == RANDOM:
                continue
            score = 0
            if useful(st, players, me, territory, base_type):
                score = 10_000 - 10 * best[base_type] + bases_in(st, me, territory)
            if score > best_score:
                best_territory, best_type, best_score, ties = territory, base_type, score, 1
            elif score == best_score:
                ties += 1
                if takes_tie(rng, ties):
                    best_territory, best_type = territory, base_type
    if sid == RANDOM:
        k = rand_below(rng, n)
        for territory in range(players):
            for base_type in range(N_TYPES):
                if can_place(st, players, me, territory, base_type):
                    if k == 0:
                        return territory, base_type
                    k -= 1
    return best_territory, best_type


# --- the decision-point protocol (docs/protocol.md) ----------------------------------------------


@njit(cache=True, _nrt=False)
def decide(sid, prm, me, st, rules, rng):
    """The option strategy ``sid`` takes at the decision pending in ``st`` (``me`` decides): the
    answer of the decision function above, as the protocol's move code (docs/games/
    power-barons.md, "Decision points")."""
    kind = st[P_DECISION]
    players = st[PLAYERS]
    if kind == D_BANK:  # the most frequent first
        return choose_bank_card(sid, prm, me, st, rules, rng)
    if kind == D_SURRENDER:
        return np.int64(wants_to_surrender(sid, prm, me, st, rules, rng))
    if kind == D_LEAD:
        card_colour, card = choose_lead(sid, me, st, rules, rng)
        return card if card >= 0 else MOVE_CALL_OUT + card_colour
    if kind == D_FOLLOW:
        return choose_follow(sid, me, st[P_LEAD_COLOUR], st, rng)
    if kind == D_PI:
        card = choose_pi_card(sid, prm, me, st, rng)
        return card if card >= 0 else MOVE_STOP
    if kind == D_CHALLENGE:
        defender, declared, flush = choose_challenge(sid, prm, me, players, st, rng)
        return defender + MAX_PLAYERS * (declared + N_TYPES * flush)
    if kind == D_TAKE:
        victim = choose_victim(sid, me, players, st, rng)
        asked = choose_colour_to_ask(sid, me, st, rng) if st[P_SPACE] == TAKE_POWER else 0
        return victim + MAX_PLAYERS * asked
    if kind == D_GIVE:
        return choose_give(sid, prm, me, st[P_ASKED], st, rng)
    if kind == D_STEAL:
        return choose_steal(sid, me, st[P_VICTIM], st, rng)
    if kind == D_REMOVE:
        owner, territory, base_type = choose_removal(sid, me, players, st, rng)
        return N_TYPES * (N_TERRITORIES * owner + territory) + base_type
    territory, base_type = choose_purchase(sid, me, players, st, rng)
    return N_TYPES * territory + base_type
