"""``ismcts`` as a strategy of POWER (docs/ismcts.md): its spec, with the tuned rollout by default
and a rollout with parameters of its own. Reproducibility across threads, chunk sizes and shards,
bad specs and the information-leak check on the searching seat are every game's
(tests/contract/test_search.py, tests/contract/test_spec_errors.py)."""

from __future__ import annotations

from simcore import registry

GAME = registry.make("power")


def test_spec_parses_with_the_tuned_rollout_by_default():
    parsed = registry.parse_strategy(GAME, "ismcts:iterations=50,c=1.2")
    assert parsed == {
        "name": "ismcts",
        "params": {
            "iterations": 50,
            "rollout": "preset:counter-vs-mixed",
            "c": 1.2,
            "margin": 2.0,
            "opponents": "own-view",
            "trust": 0.8,
        },
    }
    assert GAME.strategy("ismcts").label(parsed["params"]) == "ismcts:iterations=50,c=1.2"
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, "ismcts:rollout=bluffer")])
    names = GAME.strategy_param_names
    assert ids[0] == registry.SEARCH_ID
    assert rows[0, names.index("rollout")] == GAME.strategy("bluffer").id
    assert rows[0, names.index("p_bluff")] == 0.3  # the rollout's own defaults ride along
    assert rows[0, names.index("iterations")] == 200
    assert rows[0, names.index("trust")] == registry.TRUST_DEFAULT
    assert rows[0, names.index("opponents")] == 2.0  # own-view, the third choice


def test_a_rollout_may_carry_parameters_of_its_own_last_in_the_spec():
    text = "ismcts:iterations=50,rollout=bluffer:p_bluff=0.1,targeting=richest"
    parsed = registry.parse_strategy(GAME, text)
    assert parsed["params"]["rollout"] == "bluffer:p_bluff=0.1,targeting=richest"
    assert GAME.strategy("ismcts").label(parsed["params"]) == text  # reads back
    ids, rows = GAME.encode_strategies([parsed])
    names = GAME.strategy_param_names
    assert rows[0, names.index("rollout")] == GAME.strategy("bluffer").id
    assert rows[0, names.index("p_bluff")] == 0.1
    # A name or preset alone still ends at the next comma.
    plain = registry.parse_strategy(GAME, "ismcts:rollout=preset:bluffer-vs-mixed,iterations=5")
    assert plain["params"]["rollout"] == "preset:bluffer-vs-mixed"
    data = {"name": "ismcts", "params": {"rollout": "bluffer:p_bluff=0.1"}}  # study files, run.json
    assert registry.check_strategy(GAME, data, "x")["params"]["rollout"] == "bluffer:p_bluff=0.1"
