"""Liar's Dice's components: each player's dice (``dice`` of them at the start, a rule, with
``faces`` faces, another), rolled in secret at the start of every round. A die shows a face from
1 to ``faces``, each equally likely."""

from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import plain_njit
from simcore.kernel.rng import rand_below
from tests.games.liars_dice.state import COUNT, DICE, EV_ROLL, MAX_DICE, P_FACES, TRACE_LEN

# ``roll``'s trace row holds a seat's dice in its five columns after the seat.
assert MAX_DICE == 5


@plain_njit(forceinline=True)
def roll_dice(st, seat, rng):
    """Roll ``seat``'s dice: each face uniform in 1 to the ``faces`` rule."""
    for k in range(st[COUNT + seat]):
        st[DICE + MAX_DICE * seat + k] = 1 + rand_below(rng, st[P_FACES])


@plain_njit(forceinline=True)
def roll(st, seat, rng, trace):
    """Roll ``seat``'s dice for a new round; the trace shows them (unused dice show 0)."""
    roll_dice(st, seat, rng)
    hand = DICE + MAX_DICE * seat
    for k in range(st[COUNT + seat], MAX_DICE):
        st[hand + k] = 0
    record_event(
        trace, st, TRACE_LEN, EV_ROLL, seat, st[hand], st[hand + 1], st[hand + 2], st[hand + 3],
        st[hand + 4],
    )  # fmt: skip
