"""``ismcts`` as a strategy of Power Struggle (docs/ismcts.md): its spec, with the tuned rollout
by default. Reproducibility across threads, chunk sizes and shards, a searching seat in
``powerlab run`` and the information-leak question on the searching seat are every game's
(tests/contract/test_search.py)."""

from __future__ import annotations

from simcore import registry

GAME = registry.make("power-struggle")


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50")
    assert parsed["params"]["rollout"] == "preset:corrupter-vs-mixed"
    ids, rows = GAME.encode_strategies([parsed])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("iterations")] == 50
    assert rows[0, names.index("rollout")] == GAME.strategy("corrupter").id
    preset = GAME.encode_strategies([registry.parse_strategy(GAME, "preset:corrupter-vs-mixed")])
    assert rows[0, names.index("p_bribe")] == preset[1][0, names.index("p_bribe")] != 1.0
