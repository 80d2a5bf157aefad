"""Scripted Liar's Dice players, dispatched on an integer strategy id: ``decide`` answers the
pending decision from the seat's row of ``prm`` (columns in ``PARAM_NAMES`` order) and what the
seat may know: the public fields and its own dice.

The odds of a bid come from the seat's own dice and the others' dice taken as uniform: a bid of
Q dice of face F holds when the other dice show at least Q minus the seat's own Fs, a binomial
tail."""

from simcore.kernel.intrinsics import plain_njit
from simcore.kernel.rng import rand_below, rand_bool
from simcore.registry import Param, Strategy
from tests.games.liars_dice.state import (
    CALL,
    COUNT,
    P_BID,
    P_FACES,
    dice_in_play,
    face,
    lowest_raise,
    n_raises,
    quantity,
    raise_at,
    showing,
)

RANDOM, CAUTIOUS, BLUFFER = range(3)

PARAM_NAMES = ("threshold", "p_bluff")
THRESHOLD, P_BLUFF = range(2)


def _threshold(default: float) -> Param:
    return Param(
        "threshold", "float", default,
        "call the standing bid when the odds that it holds are below this", 0.0, 1.0,
    )  # fmt: skip


STRATEGIES = (
    Strategy("random", RANDOM, "uniform over the legal options: any higher bid, or the call"),
    Strategy(
        "cautious",
        CAUTIOUS,
        "calls a bid whose odds are below threshold, else bids the lowest raise most likely "
        "to hold",
        (_threshold(0.5),),
    ),
    Strategy(
        "bluffer",
        BLUFFER,
        "cautious, but a share p_bluff of its bids raise a face at random",
        (
            _threshold(0.3),
            Param("p_bluff", "float", 0.3, "chance that a bid raises a random face", 0.0, 1.0),
        ),
    ),
)


@plain_njit(forceinline=True)
def odds(st, me, code):
    """The chance that bid ``code`` holds, to ``me`` (its dice known, the others' uniform)."""
    need = quantity(code) - showing(st, me, face(code))
    unknown = dice_in_play(st) - st[COUNT + me]
    if need <= 0:
        return 1.0
    if need > unknown:
        return 0.0
    p = 1.0 / st[P_FACES]
    term = (1.0 - p) ** unknown  # P(exactly i of the unknown dice show the face), i = 0, 1, ...
    below = 0.0
    for i in range(need):
        below += term
        term *= (unknown - i) / (i + 1) * p / (1.0 - p)
    return max(0.0, 1.0 - below)


@plain_njit(forceinline=True)
def likeliest_raise(st, me):
    """The raise most likely to hold, of each face's lowest; the lower bid of equals."""
    best = CALL
    best_odds = -1.0
    for shown in range(1, st[P_FACES] + 1):
        code = lowest_raise(st, shown)
        if code != CALL:
            chance = odds(st, me, code)
            if chance > best_odds or (chance == best_odds and code < best):
                best, best_odds = code, chance
    return best


@plain_njit()
def decide(sid, prm, me, st, rules, rng):
    """The option strategy ``sid`` takes at ``me``'s decision: a bid's code, or CALL."""
    standing = st[P_BID] != CALL
    if sid == RANDOM:
        k = rand_below(rng, n_raises(st) + standing)
        if standing:
            if k == 0:
                return CALL
            k -= 1
        return raise_at(st, k)
    if standing and (n_raises(st) == 0 or odds(st, me, st[P_BID]) < prm[me, THRESHOLD]):
        return CALL
    if sid == BLUFFER and rand_bool(rng, prm[me, P_BLUFF]):
        code = lowest_raise(st, 1 + rand_below(rng, st[P_FACES]))
        if code != CALL:
            return code
    return likeliest_raise(st, me)
