"""Liar's Dice played straight through by scripted strategies: each decision answered by the
seat's strategy (``strategies.decide``) and taken by the same rule helpers as the protocol's
``apply``, so a scripted game is the protocol's game (tests/games/liars_dice/test_toy_game.py). A
game whose turn
holds many decisions plays it here as straight-line code instead (POWER's ``take_turn``)."""

from simcore.kernel.intrinsics import plain_njit
from tests.games.liars_dice.rules import apply, is_over, new_game, to_move
from tests.games.liars_dice.state import P_DECISIONS, P_TRUNCATED, P_WINNER
from tests.games.liars_dice.strategies import decide


@plain_njit(forceinline=True)
def result(st):
    """(winner or -1, turns, truncated) of a finished game: what ``game.write_row`` reads. A turn
    is a bid or a call."""
    return st[P_WINNER], st[P_DECISIONS], st[P_TRUNCATED] != 0


@plain_njit()
def play_game(players, st, rules, sids, prm, rng, trace):
    """Set up and play one game to its end or the round cap: ``result``."""
    new_game(players, st, rules, rng, trace)
    while not is_over(st):
        seat = to_move(st)
        apply(st, rules, decide(sids[seat], prm, seat, st, rules, rng), rng, trace)
    return result(st)
