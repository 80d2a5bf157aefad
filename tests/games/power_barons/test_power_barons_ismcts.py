"""``ismcts`` as a strategy of Power Barons (docs/ismcts.md): its spec, with the tuned rollout by
default. Reproducibility across threads, chunk sizes and shards, a run from the CLI and the
information-leak check on the searching seat are every game's (tests/contract/test_search.py)."""

from __future__ import annotations

from simcore import registry

GAME = registry.make("power-barons")


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"]["rollout"] == "preset:baron-keep_best"
    ids, rows = GAME.encode_strategies([parsed])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("baron").id
    assert rows[0, names.index("iterations")] == 50
