"""A test-only game for `powerlab balance`: a dice race whose rule ``head_start`` adds to the
roll of seat 0 (or, with ``head_start_seat = "last"``, of the last seat), so that its fair value
(0) is known and a planted bias (head_start = 2) has to be undone.

Each seat rolls a d10 (a ``reroller`` rolls again below ``reroll_below`` and keeps the second
roll, unless ``rerolls_allowed`` is off; a ``steady`` never does); the highest total wins, ties
broken by a draw from the game's own stream. A game is a pure function of (seed, game index):
each game has its own numpy generator seeded by both. Plain numpy (no numba): the tests register
it with ``register(monkeypatch)``.
"""

import numpy as np

from simcore import registry
from simcore.kernel.chunk import ENDED_BY, ENDED_RULES, LINEUP_SLOT, TURNS, WINNER, WON, lineup_slot
from simcore.registry import Game, Param, Strategy

GAME_ID = "toy-race"

GAME = Game(
    id=GAME_ID,
    title="Toy dice race",
    min_players=2,
    max_players=4,
    rules=(
        Param("head_start", "int", 0, "pips added to one seat's roll", -5, 5),
        Param("sides", "int", 10, "sides of the die", 2, 100),
        Param("rerolls_allowed", "bool", True, "a player may roll again and keep the second roll"),
        Param(
            "head_start_seat",
            "choice",
            "first",
            "the seat that gets head_start",
            choices=("first", "last"),
        ),
    ),
    strategies=(
        Strategy(
            "reroller",
            0,
            "rolls again below reroll_below and keeps the second roll",
            (Param("reroll_below", "int", 1, "roll again below this", 1, 10),),
        ),
        Strategy("steady", 1, "never rolls again"),
    ),
    strategy_param_names=("reroll_below",),
    default_strategy="reroller",
    game_columns=(),
    seat_columns=(),
    module=__name__,
    doc="a dice race for the balance tests",
)


def register(monkeypatch) -> None:
    """Make the toy a game of the registry (and tell the runner it has nothing to compile)."""
    from simcore.workflows import runner

    monkeypatch.setitem(registry._GAME_MODULES, GAME_ID, __name__)
    monkeypatch.setattr(runner, "kernel_compiled", lambda game, strategies=None: True)


def prepare(rules: dict, players: int) -> tuple[int, int, bool, int]:
    ahead = 0 if rules["head_start_seat"] == "first" else players - 1
    return int(rules["head_start"]), int(rules["sides"]), bool(rules["rerolls_allowed"]), ahead


def run_chunk(prepared, players, lineup_ids, lineup_params, seed, first_index, n_games, rotate):
    head_start, sides, rerolls_allowed, ahead = prepared
    game_out = np.zeros((n_games, 3), dtype=np.int64)
    seat_out = np.zeros((n_games, players, 2), dtype=np.int64)
    for g in range(n_games):
        index = first_index + g
        rng = np.random.default_rng([seed, index])
        totals = np.zeros(players)
        for seat in range(players):
            slot = lineup_slot(index, seat, players, rotate)
            roll = rng.integers(1, sides + 1)
            if rerolls_allowed and lineup_ids[slot] == 0 and roll < lineup_params[slot, 0]:
                roll = rng.integers(1, sides + 1)
            totals[seat] = roll + (head_start if seat == ahead else 0) + rng.random() * 1e-3
            seat_out[g, seat, LINEUP_SLOT] = slot
        winner = int(np.argmax(totals))
        seat_out[g, winner, WON] = 1
        game_out[g, WINNER], game_out[g, TURNS], game_out[g, ENDED_BY] = winner, 1, ENDED_RULES
    return game_out, seat_out
