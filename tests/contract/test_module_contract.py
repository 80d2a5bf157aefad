"""Every registered game meets the game contract (simcore/contract.py): its game module, its
state module, and its search module when it has a search player. The toy game of
tests/games/liars_dice/ is among them, registered by the environment alone (``POWERLAB_GAMES``); so
is
any game a test or a designer registers that way. A module that does not meet the contract is
refused with every member it lacks or offers in another form named, and so is a bad
registration."""

import types

import pytest

from simcore import contract, registry
from simcore.kernel import ismcts
from tests.games.liars_dice import REGISTRATION

TOY = REGISTRATION.partition("=")[0]

with pytest.MonkeyPatch.context() as patch:
    patch.setenv(registry.GAMES_VARIABLE, REGISTRATION)
    GAME_IDS = registry.game_ids()


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setenv(registry.GAMES_VARIABLE, REGISTRATION)
    monkeypatch.setattr(registry, "_REGISTERED", {})  # ``register`` within a test stays there


def test_the_toy_game_is_registered_by_the_environment_alone():
    assert TOY in GAME_IDS
    assert TOY not in registry._GAME_MODULES


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_game_module_meets_the_contract(game_id):
    game = registry.make(game_id)
    module = contract.check_game_module(game.kernel())
    assert isinstance(module, contract.GameModule)
    if game.search is not None:
        assert isinstance(module, contract.SearchingGameModule)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_search_module_meets_the_contract(game_id):
    game = registry.make(game_id)
    if game.search is None:
        pytest.skip(f"{game_id} has no search player")
    module = contract.check_search_module(contract.search_module(game))
    assert isinstance(module, contract.SearchModule)
    assert module.MAX_SEATS >= game.max_players
    assert module.N_STRATEGY_PARAMS == game.strategy_param_names.index("iterations")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_state_module_meets_the_contract(game_id):
    module = contract.check_state_module(contract.state_module(registry.make(game_id)))
    assert isinstance(module, contract.StateModule)
    assert all(isinstance(name, str) for name in module.DECISION_KINDS)


def _toy_game_namespace() -> dict:
    return dict(vars(registry.make(TOY).kernel()))


def test_a_game_module_that_breaks_the_contract_is_refused_with_every_fault_named():
    namespace = _toy_game_namespace()
    del namespace["describe_trace"]
    namespace["run_chunk"] = lambda prepared, players: None
    namespace["CHUNKS"] = "chunks"
    namespace["protocol_game"] = 3  # optional, but then of its declared form
    module = types.ModuleType(namespace["__name__"])
    vars(module).update(namespace)
    with pytest.raises(contract.ContractError) as refused:
        contract.check_game_module(module)
    message = str(refused.value)
    assert "lacks describe_trace(trace, seat_labels)" in message
    assert (
        "run_chunk(prepared, players) cannot be called as run_chunk(prepared, players," in message
    )
    assert "CHUNKS is 'chunks' (str), not CHUNKS: GameChunks" in message
    assert "protocol_game is a int, not the function protocol_game(prepared)" in message


def test_a_search_module_that_breaks_the_contract_is_refused_before_anything_compiles():
    search = contract.search_module(registry.make(TOY))
    namespace = {name: getattr(search, name) for name in contract.members(contract.SearchProtocol)}
    namespace |= {"__name__": "broken", "MAX_MOVES": 2.5, "believe": lambda st, seat: None}
    del namespace["infoset_key"]
    with pytest.raises(contract.ContractError) as refused:
        ismcts.specialise(namespace)
    message = str(refused.value)
    assert message.startswith("broken does not meet the game contract")
    assert "MAX_MOVES is 2.5 (float), not MAX_MOVES: int" in message
    assert "lacks infoset_key(st, seat)" in message
    assert "cannot be called as believe(st, seat, trust, rng)" in message
    assert "search" not in namespace  # nothing compiled


def test_only_optional_members_are_asked_for():
    search = contract.search_module(registry.make(TOY))
    assert contract.offers(search, "MOVE_CODES")
    assert not contract.offers(registry.make(TOY).kernel(), "protocol_game")
    with pytest.raises(ValueError, match="'legal' is not an optional member"):
        contract.offers(search, "legal")


@pytest.mark.parametrize(
    "entry, refusal",
    [
        ("liars-dice", "expected ID=MODULE, got 'liars-dice'"),
        ("power=tests.games.liars_dice.game", "'power' is a game of the tree"),
        ("dice=", "a game needs an id and a module"),
    ],
)
def test_a_bad_registration_is_one_line_naming_it(monkeypatch, entry, refusal):
    monkeypatch.setenv(registry.GAMES_VARIABLE, entry)
    with pytest.raises(registry.SpecError, match=refusal):
        registry.game_ids()


def test_a_registered_module_must_exist_and_be_the_game_it_is_registered_as(monkeypatch):
    monkeypatch.setenv(registry.GAMES_VARIABLE, "dice=tests.no_such_game.game")
    with pytest.raises(registry.SpecError, match="no module 'tests.no_such_game.game'"):
        registry.make("dice")
    monkeypatch.setenv(registry.GAMES_VARIABLE, "dice=tests.games.liars_dice.game")
    with pytest.raises(registry.SpecError, match="is the game 'liars-dice', registered as 'dice'"):
        registry.make("dice")


def test_register_adds_a_game_in_this_process(monkeypatch):
    monkeypatch.delenv(registry.GAMES_VARIABLE)
    assert TOY not in registry.game_ids()
    registry.register(TOY, "tests.games.liars_dice.game")
    assert registry.game_ids()[-1] == TOY
    assert registry.make(TOY).module == "tests.games.liars_dice.game"
