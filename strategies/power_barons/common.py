"""What every scripted Power Barons player shares: the strategy ids, the columns of a seat's
parameter row (``PARAM_NAMES``) and the codes of the choice parameters, tie breaking from the
game's stream, what a seat sees of the others, and picking a card or a colour."""

from numba import njit

from simcore.games.power_barons.state import (
    COLOUR,
    DECK_TOTAL,
    DRAWPILE,
    HAND,
    N_CARDS,
    N_COLOURS,
    N_LOCATIONS,
    N_TYPES,
    VALUE,
    bank_credits,
    bases_in,
    can_place,
    card_at,
    count_at,
    credits_at,
    highest,
    is_hand,
    lowest,
    progress,
    types_to_win,
)
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below

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


@inline_njit()
def takes_tie(rng, ties):
    """Whether the ``ties``-th candidate level with the best so far replaces it: with probability
    1 / ties, so that each of the tied candidates is kept with the same chance (reservoir
    sampling). Every tie of these strategies is broken this way, from the game's stream, except
    between cards of the same colour and value, which are interchangeable."""
    return rand_below(rng, ties) == 0


@inline_njit()
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
# Helpers called for every opponent or colour of a decision are forceinline=True (a numba call
# passes each array as 7-9 machine words).


@inline_njit()
def leader_score(st, seat):
    """Who is ahead: bases that count towards a win, then credits banked."""
    return progress(st, seat) * 100_000 + bank_credits(st, seat)


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def random_opponent(me, players, rng):
    return (me + 1 + rand_below(rng, players - 1)) % players


@inline_njit()
def useful(st, players, me, territory, base_type):
    """A base there would count towards ``me``'s win."""
    if not can_place(st, players, me, territory, base_type):
        return False
    return bases_in(st, me, territory) < types_to_win(st)


@njit(cache=True, _nrt=False, forceinline=False)
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


# --- picking a card or a colour ---------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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
