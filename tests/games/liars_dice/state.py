"""Liar's Dice's codes, the layout of its state array and read-only queries of it, shared by the
rules and the strategies (no import cycle: the rules import neither).

The rules (game.py's docstring): 2-4 players each roll their dice in secret; in turn they bid
"at least Q dice show face F" among all the dice in play, each bid higher than the last (more
dice, or as many of a higher face), or call the last bid a lie. Then the dice are shown: the
caller loses a die if the bid holds, else the bidder does, and a new round is rolled, opened by
the loser (or the next player, if the loser is out). A player without dice is out; the last one
with dice wins.

The whole state is one int64 array ``st``: the protocol's fields, each seat's dice count and
dice, and per-seat statistics. Everything but the other seats' dice is public.
"""

from simcore.kernel.intrinsics import plain_njit

MAX_PLAYERS = 4
MAX_DICE = 5  # a seat's dice (the ``dice`` rule's highest value)
MAX_FACES = 6

# A move: a bid of Q dice showing face F is the code Q * FACE_SPAN + F, so that bids order as
# their codes (more dice, or as many of a higher face); CALL (no bid has code 0) calls the
# standing bid a lie.
CALL = 0
FACE_SPAN = 8
MOVE_CODES = (MAX_PLAYERS * MAX_DICE + 1) * FACE_SPAN
MAX_MOVES = MAX_PLAYERS * MAX_DICE * MAX_FACES + 1  # every bid, and the call

# Rule parameter positions in the prepared rules (order of game.RULES).
R_DICE, R_FACES, R_MAX_ROUNDS = range(3)

# Trace events (``describe_trace``); a row is [event, a, b, c, d, e, f, g].
EV_ROLL, EV_BID, EV_CALL, EV_OUT, EV_STANDING, EV_END = range(6)
EVENT_NAMES = ("roll", "bid", "call", "out", "standing", "end")
TRACE_WIDTH = 8

# Per-seat statistics, in game.SEAT_COLUMNS order.
BIDS, CALLS, CALLS_WON, DICE_LOST, DICE_LEFT, ELIMINATED_ROUND = range(6)
N_SEAT_STATS = 6

# The kinds of decision (``P_DECISION``): a round's opening bid, and a bid or the call.
D_NONE = -1  # once the game is over
D_OPEN, D_RAISE = range(2)
DECISION_KINDS = ("open", "raise")

# The protocol's fields (docs/protocol.md). All public.
P_PLAYERS = 0
P_FACES = 1  # the ``faces`` rule: ``determinize`` rolls dice without the rules
P_DECISION = 2  # the kind of decision pending (D_*)
P_TO_MOVE = 3  # the seat deciding, -1 once the game is over
P_ROUND = 4  # rounds played to their call
P_BID = 5  # the standing bid's code, CALL while the round has none
P_BIDDER = 6  # who made it, -1 without one
P_BIDS = 7  # bids made this round
P_DECISIONS = 8  # decisions answered
P_WINNER = 9  # the winner, -1 while playing or when the round cap cut the game off
P_TRUNCATED = 10  # 1 when the round cap cut the game off
TRACE_LEN = 11
COUNT = 12  # st[COUNT + seat]: its dice (0: out)
DICE = COUNT + MAX_PLAYERS  # st[DICE + MAX_DICE * seat + k]: its k-th die's face (1..faces)
STATS = DICE + MAX_DICE * MAX_PLAYERS  # st[STATS + N_SEAT_STATS * seat + stat]
STATE_SIZE = STATS + N_SEAT_STATS * MAX_PLAYERS


@plain_njit(forceinline=True)
def quantity(code):
    return code // FACE_SPAN


@plain_njit(forceinline=True)
def face(code):
    return code % FACE_SPAN


@plain_njit(forceinline=True)
def dice_in_play(st):
    total = 0
    for seat in range(st[P_PLAYERS]):
        total += st[COUNT + seat]
    return total


@plain_njit(forceinline=True)
def next_in(st, seat):
    """The next seat after ``seat`` clockwise that still has dice."""
    players = st[P_PLAYERS]
    other = (seat + 1) % players
    while st[COUNT + other] == 0:
        other = (other + 1) % players
    return other


@plain_njit(forceinline=True)
def showing(st, seat, shown):
    """How many of ``seat``'s dice show face ``shown``."""
    n = 0
    for k in range(st[COUNT + seat]):
        n += st[DICE + MAX_DICE * seat + k] == shown
    return n


@plain_njit(forceinline=True)
def n_raises(st):
    """How many bids beat the standing one (all bids when there is none): up to the dice in
    play, of faces 1 to the ``faces`` rule."""
    faces = st[P_FACES]
    total = dice_in_play(st)
    if st[P_BID] == CALL:
        return total * faces
    return faces - face(st[P_BID]) + (total - quantity(st[P_BID])) * faces


@plain_njit(forceinline=True)
def raise_at(st, k):
    """The ``k``-th lowest bid that beats the standing one (``n_raises``)."""
    faces = st[P_FACES]
    q = quantity(st[P_BID])
    f = face(st[P_BID]) if st[P_BID] != CALL else faces
    if k < faces - f:
        return q * FACE_SPAN + f + 1 + k
    k -= faces - f
    return (q + 1 + k // faces) * FACE_SPAN + 1 + k % faces


@plain_njit(forceinline=True)
def lowest_raise(st, shown):
    """The lowest bid of face ``shown`` that beats the standing one, or CALL if none does."""
    bid = st[P_BID]
    q = quantity(bid) if shown > face(bid) and bid != CALL else quantity(bid) + 1
    if q > dice_in_play(st):
        return CALL
    return q * FACE_SPAN + shown
