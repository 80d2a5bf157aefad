"""Bad input to every game is one line a designer can act on (``registry.SpecError``): an unknown
strategy, preset, strategy parameter or rule; a value out of range or of the wrong kind, for every
rule and every strategy parameter the game declares; a player count the game is not for; a
lineup of the wrong length; and a search spec that cannot be played."""

from __future__ import annotations

import pytest

from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import runner
from tests.contract.common import contract_game_ids, contract_make


def one_line(call) -> str:
    with pytest.raises(SpecError) as error:
        call()
    message = str(error.value)
    assert message and "\n" not in message, message
    return message


def bad_values(param: registry.Param) -> list[str]:
    """Texts ``param`` must refuse (none for a path: the game reads the file)."""
    if param.kind == "bool":
        return ["maybe", "2"]
    if param.kind in ("choice", "strategy"):
        return ["bogus"]
    if param.kind in ("int", "float"):
        texts = ["x", "nan", "inf"] + (["1.5"] if param.kind == "int" else [])
        if param.low is not None:
            texts.append(str(param.low - 1))
        if param.high is not None:
            texts.append(str(param.high + 1))
        return texts
    return []


@pytest.mark.parametrize("game_id", contract_game_ids())
def test_unknown_names_are_one_line_errors(game_id):
    game = contract_make(game_id)
    assert "nosuch" in one_line(lambda: registry.parse_strategy(game, "nosuch"))
    assert "nosuch" in one_line(lambda: registry.parse_strategy(game, "preset:nosuch"))
    assert "nosuch" in one_line(lambda: registry.parse_settings(game, ["nosuch=1"]))
    assert "key=value" in one_line(lambda: registry.parse_settings(game, ["nosuch"]))
    for strategy in game.strategies:
        text = f"{strategy.name}:nosuch=1"
        assert "nosuch" in one_line(lambda text=text: registry.parse_strategy(game, text))


@pytest.mark.parametrize("game_id", contract_game_ids())
def test_bad_values_of_every_rule_and_strategy_parameter_are_one_line_errors(game_id):
    game = contract_make(game_id)
    for param in game.rules:
        for value in bad_values(param):
            setting = f"{param.name}={value}"
            assert param.name in one_line(lambda s=setting: registry.parse_settings(game, [s]))
    for strategy in game.strategies:
        for param in strategy.params:
            for value in bad_values(param):
                text = f"{strategy.name}:{param.name}={value}"
                assert param.name in one_line(lambda t=text: registry.parse_strategy(game, t))


@pytest.mark.parametrize("game_id", contract_game_ids())
def test_player_counts_and_lineups_the_game_is_not_for_are_one_line_errors(game_id):
    game = contract_make(game_id)
    for players in (game.min_players - 1, game.max_players + 1, 0):
        message = one_line(lambda p=players: runner.build_spec(game_id, p, [], [], 1, 10, True))
        assert game.player_counts() in message
    players = game.min_players
    lineup = [game.default_strategy] * (players + 1)
    one_line(lambda: runner.build_spec(game_id, players, lineup, [], 1, 10, True))


def _search_specs(game: registry.Game) -> list[str]:
    """Search specs that cannot be played: bad search parameters, a rollout that is no scripted
    strategy, a rollout with bad parameters of its own, a rollout glued to another value."""
    texts = [
        "ismcts:rollout=nobody", "ismcts:iterations=0", "ismcts:c=-1", "ismcts:depth=3",
        "ismcts:rollout=ismcts", "ismcts:opponents=bogus", "ismcts:opponents=1",
    ]  # fmt: skip
    for strategy in game.strategies:
        for param in strategy.params:
            if param.kind in ("int", "float") and param.high is not None:
                name = strategy.name
                texts += [
                    f"ismcts:rollout={name}:{param.name}={param.high + 1}",
                    f"ismcts:rollout={name}:nope=1",
                    f"ismcts:iterations=5rollout={name}:{param.name}={param.default}",
                ]
                return texts
    return texts


def _search_cases():
    return [
        pytest.param(game_id, text, id=f"{game_id}-{text}")
        for game_id in contract_game_ids()
        if contract_make(game_id).search is not None
        for text in _search_specs(contract_make(game_id))
    ]


@pytest.mark.parametrize(("game_id", "text"), _search_cases())
def test_bad_search_specs_are_one_line_errors(game_id, text):
    one_line(lambda: registry.parse_strategy(contract_make(game_id), text))
