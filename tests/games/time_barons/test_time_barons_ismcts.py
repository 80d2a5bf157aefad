"""``ismcts`` as a strategy of Time Barons (docs/ismcts.md): its spec, with the tuned rollout by
default. Reproducibility across threads, chunk sizes and shards, a run from the CLI and the
information-leak question on the searching seat are every game's (tests/contract/test_search.py)."""

from __future__ import annotations

from simcore import registry

GAME = registry.make("time-barons")


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"] == {
        "iterations": 50,
        "rollout": "preset:swarm-vs-builder",
        "c": 0.7,
        "margin": 2.0,
        "opponents": "search",
    }
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, "ismcts:rollout=attacker")])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("attacker").id
    assert rows[0, names.index("w_attack")] == 3.0  # the rollout's own defaults ride along
