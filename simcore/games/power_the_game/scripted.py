"""POWER: The Game's straight-line scripted game: every seat's pads by its own strategy, round
after round, through the same rule helpers as the decision-point protocol's steps (``rules.py``);
tests/contract/test_protocol.py proves the two flows play identical games. Games with a
searching seat are played through the protocol (``play_protocol_game`` in ``game.py``).
"""

from numba import njit

from simcore.games.power_the_game.rules import (
    end_round,
    finish_game,
    goes_on,
    orders_and_resolution,
    setup,
    start_round,
)
from simcore.games.power_the_game.state import ROUND


@njit(cache=True, _nrt=False, forceinline=False)
def play_round(st, rules, board, dist, sids, prm, rng, trace):
    """A scripted round: each seat's pad by its own strategy (CHOSEN[seat] = seat)."""
    start_round(st, board, trace)
    orders_and_resolution(st, rules, board, dist, sids, prm, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def play_game(players, st, game, sids, prm, rng, trace):
    """Set up and play one game, each seat's pads by its own strategy: (winner or -1, rounds,
    end reason). Of ``game``, the protocol's tuple, it reads the rules, the board and the
    distances. The protocol's steps (rules.py) run the same helpers."""
    rules, board, dist = game[0], game[1], game[2]
    setup(players, st, rules, board, rng, trace)
    while goes_on(st, rules):
        play_round(st, rules, board, dist, sids, prm, rng, trace)
        end_round(st, trace)
    winner, reason = finish_game(st, board, trace)
    return winner, st[ROUND], reason
