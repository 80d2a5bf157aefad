"""``ismcts`` as a strategy of POWER: The Game (docs/ismcts.md): its spec, with the tuned rollout
by default, and the planner table its seats answer from. Reproducibility across threads, chunk
sizes and shards, a run and a replay from the CLI and the information-leak check on the
searching seat are every game's (tests/contract/test_search.py)."""

from __future__ import annotations

from simcore import registry
from simcore.games.power_the_game import game as kernel

GAME = registry.make("power-the-game")


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"] == {
        "iterations": 50,
        "rollout": "preset:blitz-vs-mixed",
        "c": 0.7,
        "margin": 0.0,  # plans: the most visited one (docs/ismcts.md, "The margin")
        "opponents": "search",
    }
    ids, rows = GAME.encode_strategies([parsed, registry.parse_strategy(GAME, "turtle")])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("blitz").id
    # The preset's own parameters ride along: the tuning at the lineup's count (2 seats).
    preset = registry.parse_strategy(GAME, "preset:blitz-vs-mixed", 2)["params"]
    assert rows[0, names.index("advance")] == preset["advance"]
    assert preset != registry.parse_strategy(GAME, "preset:blitz-vs-mixed", 4)["params"]
    # Every seat answers with an option of the planner table: the rollout preset and a seat's
    # own parameters are rows of it.
    planner_ids, planner_rows = kernel.planner_table(ids, rows)
    n = len(strategy_names := [s.name for s in GAME.strategies if s.name != "random"])
    assert n == 6 and [GAME.strategies[i].name for i in planner_ids[:n]] == strategy_names
    # The game's planners are its strategies and its presets as tuned at 4 players; the
    # rollout's 2-player tuning is another plan, appended (turtle at its defaults is one).
    assert len(planner_ids) == n + len(registry.presets("power-the-game")) + 1
    assert planner_ids[-1] == GAME.strategy("blitz").id
    assert planner_rows[-1, names.index("advance")] == preset["advance"]
