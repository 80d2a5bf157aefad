"""The contract between a game and the rest of powerlab, in code (docs/adding-a-game.md).

A game is a package (``simcore/games/<game>/``, or a designer's own registered through
``POWERLAB_GAMES``: simcore/registry.py) whose modules offer:

- ``game.py``, the registry's ``Game.module``: ``GameModule`` below, what the runner, the CLI,
  the analyses and the tools call on ``Game.kernel()``; a game with a search player
  (``GAME.search``) offers ``SearchingGameModule``. What a game module *may* offer is
  ``GameModuleOptional``.
- ``search.py`` (beside ``game.py``: ``search_module``): the decision-point protocol
  (docs/protocol.md) that the generic search reads, ``SearchProtocol`` (checked by
  ``ismcts.specialise`` when it compiles the search there), and once compiled
  ``SearchModule``; optional members in ``SearchProtocolOptional`` and ``SearchModuleOptional``.
- ``state.py`` (``state_module``): ``StateModule``, the protocol's fields that code reading a
  state without playing it needs.

Each is a ``typing.Protocol``: a member annotated with a type is a constant of that type, a
method is a function called with the method's parameters after ``self`` (so a function may
have more parameters, with defaults, but not fewer). ``check_game_module``,
``check_search_module`` and ``check_state_module`` check a module against them and raise one
``ContractError`` naming every member that is missing or ill-typed; ``offers`` is the one way
to ask whether a module offers an optional member. tests/contract/test_module_contract.py
checks every registered game.
"""

import functools
import importlib
import inspect
import numbers
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, get_type_hints, runtime_checkable

import numpy as np

from simcore.kernel.chunk import GameChunks
from simcore.registry import Game


class ContractError(TypeError):
    """A game module lacks a member of the contract, or offers one of the wrong kind."""


@runtime_checkable
class GameModule(Protocol):
    """What every game's ``game.py`` offers (``registry.Game.kernel()``)."""

    GAME: Game  # the registry entry: plain data (simcore/registry.py)
    # The chunk kernels (simcore/kernel/chunk.py): the runner asks them whether numba's cache
    # holds the game (``runner.kernel_compiled``).
    CHUNKS: GameChunks

    def prepare(self, rules: dict, players: int) -> Any:
        """The rules (every rule parameter's value) as the kernels read them; SpecError for a
        combination the game cannot play at ``players``."""

    def run_chunk(
        self, prepared, players, lineup_ids, lineup_params, seed, first_index, n_games, rotate
    ) -> tuple[np.ndarray, np.ndarray]:
        """``n_games`` games from ``first_index`` on: (game_out, seat_out) int64 arrays
        (``CHUNKS.run_chunk``)."""

    def trace_game(
        self, prepared, players, lineup_ids, lineup_params, seed, game_index, rotate
    ) -> np.ndarray:
        """The event trace of one game, exactly as the chunk kernel plays it
        (``CHUNKS.trace_game``): ``powerlab replay`` and the arcs (docs/arcs.md)."""

    def describe_trace(self, trace: np.ndarray, seat_labels: list[str]) -> list[str]:
        """A readable log of a trace, a line an event (``powerlab replay``)."""


@runtime_checkable
class SearchingGameModule(GameModule, Protocol):
    """What the ``game.py`` of a game with a search player (``GAME.search``) offers too."""

    def bench_protocol(
        self, prepared, players, lineup_ids, lineup_params, seed, n_games
    ) -> tuple[int, int]:
        """``n_games`` games through the protocol (``powerlab bench``): (decisions answered,
        searches run); ``kernel/glue.py`` makes it."""


class GameModuleOptional(Protocol):
    """What a game's ``game.py`` may offer."""

    def protocol_game(self, prepared) -> Any:
        """What the protocol's functions take as ``rules`` when it is more than the prepared
        rules (POWER: The Game's planner table): tools/openspiel_games.py."""


@runtime_checkable
class SearchProtocol(Protocol):
    """The decision-point protocol (docs/protocol.md) as the generic search reads it: the
    namespace of a game's ``search.py`` when it calls ``ismcts.specialise(globals())``."""

    MAX_SEATS: int  # seats the state can hold (the search's per-seat arrays)
    MAX_MOVES: int  # the most options of one decision (``legal``'s ``moves`` array)
    STATE_SIZE: int  # the length of the int64 state array
    N_STRATEGY_PARAMS: int  # the game's strategy parameter columns, before the search's

    def to_move(self, st) -> int:
        """The seat deciding now."""

    def is_over(self, st) -> bool:
        """Whether the game has ended (then ``returns`` is defined)."""

    def legal(self, st, rules, moves) -> int:
        """The options of the pending decision into ``moves``, in a fixed order; their count."""

    def apply(self, st, rules, move, rng, trace) -> None:
        """Take option ``move`` and run the rules to the next decision or the end."""

    def returns(self, st, out) -> None:
        """Each seat's result (1 a win, 0 not) into ``out`` once the game is over."""

    def determinize(self, st, seat, rng) -> None:
        """Redraw in place what ``seat`` cannot see, among the states consistent with what it
        sees."""

    def infoset_key(self, st, seat) -> np.uint64:
        """A hash of what ``seat`` knows now (its information set)."""

    def decide(self, sid, prm, seat, st, rules, rng) -> int:
        """The option scripted strategy ``sid`` takes (the game's strategies module)."""


class SearchProtocolOptional(Protocol):
    """What a game's protocol may offer the search: the generic search compiles its own
    otherwise (simcore/kernel/ismcts.py)."""

    def believe(self, st, seat, trust, rng) -> None:
        """``determinize``, with standing public claims taken as true with probability
        ``trust`` (a game whose players make claims that may be bluffs)."""

    def play_out(self, st, rules, sids, prm, rng, no_trace) -> None:
        """The game from its pending decision to the end by each seat's strategy: the same games
        as ``decide`` and ``apply`` at every decision, faster."""


@runtime_checkable
class SearchModule(SearchProtocol, Protocol):
    """A game's ``search.py`` once ``ismcts.specialise`` compiled the search there: the protocol,
    how a game starts, and the compiled search (tools/openspiel_games.py and the tests play
    through it)."""

    def new_game(self, players, st, rules, rng, trace) -> None:
        """Set up a game of ``players`` seats in ``st``, run to its first decision."""

    def search(
        self, st, rules, seat, iterations, c, trust, margin, opponents, rollout_sid, rollout_prm,
        rng,
    ) -> int:  # fmt: skip
        """The option the search takes for ``seat`` (simcore/kernel/ismcts.py)."""

    def choose(self, sids, prm, seat, st, rules, rng) -> int:
        """The deciding seat's option: searched, or its scripted strategy's."""

    def believe(self, st, seat, trust, rng) -> None:
        """The game's own, or ``determinize`` whatever the trust."""

    def play_out(self, st, rules, sids, prm, rng, no_trace) -> None:
        """The game's own, or ``decide`` and ``apply`` to the end."""


@runtime_checkable
class StateModule(Protocol):
    """What a game's ``state.py`` (beside its ``game.py``: ``state_module``) declares of the
    protocol's fields, for code that reads a state without playing it (tests/contract/)."""

    DECISION_KINDS: tuple  # the decision kinds' names by code; "none" names a code for none
    P_DECISION: int  # st[P_DECISION]: the pending decision's kind
    P_WINNER: int  # st[P_WINNER]: the winner once the game is over, -1 for none


class SearchModuleOptional(Protocol):
    """What a game's ``search.py`` may offer besides."""

    # A bound on the move codes (every code is below it): OpenSpiel then names an action by its
    # code; without one, by its place in ``legal``'s list (tools/openspiel_games.py).
    MOVE_CODES: int


# The optional members of each protocol's module.
_OPTIONAL = {
    GameModule: (GameModuleOptional,),
    SearchingGameModule: (GameModuleOptional,),
    SearchProtocol: (SearchProtocolOptional,),
    SearchModule: (SearchProtocolOptional, SearchModuleOptional),
    StateModule: (),
}


@functools.cache
def members(protocol: type) -> dict[str, object]:
    """A protocol's members, each a type (a constant) or an ``inspect.Signature`` (a function:
    the parameters it is called with)."""
    found: dict[str, object] = {}
    for cls in reversed(protocol.__mro__):
        if cls is Protocol or Protocol not in cls.__mro__:
            continue
        hints = get_type_hints(cls)
        for name in cls.__dict__.get("__annotations__", {}):
            found[name] = hints[name]
        for name, value in cls.__dict__.items():
            if inspect.isfunction(value) and not name.startswith("_"):
                signature = inspect.signature(value)
                parameters = list(signature.parameters.values())[1:]  # after self
                found[name] = signature.replace(parameters=parameters)
    return found


def offers(module: ModuleType | Mapping, name: str) -> bool:
    """Whether ``module`` (or a module's namespace) offers the optional member ``name``; a name
    the contract does not make optional is an error, so that no caller probes for members the
    contract does not declare."""
    optional = {extra for extras in _OPTIONAL.values() for extra in extras}
    if not any(name in members(extra) for extra in optional):
        raise ValueError(f"{name!r} is not an optional member of the game contract")
    return name in _namespace(module)


def check_game_module(module: ModuleType) -> ModuleType:
    """``module`` if it meets ``GameModule`` (and ``SearchingGameModule`` when its game has a
    search player) and its optional members have their declared form; else ContractError."""
    namespace = _namespace(module)
    game = namespace.get("GAME")
    searching = isinstance(game, Game) and game.search is not None
    problems = _problems(SearchingGameModule if searching else GameModule, namespace)
    if isinstance(game, Game) and game.module != module.__name__:
        problems.append(f"GAME.module is {game.module!r}, not this module")
    _raise(module.__name__, problems)
    return module


def search_module(game: Game) -> ModuleType:
    """The ``search.py`` of a game with a search player: beside its ``game.py``."""
    return importlib.import_module(game.module.rpartition(".")[0] + ".search")


def state_module(game: Game) -> ModuleType:
    """A game's ``state.py``: beside its ``game.py``."""
    return importlib.import_module(game.module.rpartition(".")[0] + ".state")


def check_search_protocol(namespace: Mapping, where: str) -> None:
    """ContractError unless ``namespace`` (a search module's globals) offers ``SearchProtocol``
    and its optional members have their declared form."""
    _raise(where, _problems(SearchProtocol, namespace))


def check_search_module(module: ModuleType) -> ModuleType:
    """``module`` if it meets ``SearchModule`` and its optional members have their declared
    form; else ContractError."""
    _raise(module.__name__, _problems(SearchModule, _namespace(module)))
    return module


def check_state_module(module: ModuleType) -> ModuleType:
    """``module`` if it meets ``StateModule``; else ContractError."""
    _raise(module.__name__, _problems(StateModule, _namespace(module)))
    return module


def _namespace(module: ModuleType | Mapping) -> Mapping:
    return module if isinstance(module, Mapping) else vars(module)


def _problems(protocol: type, namespace: Mapping) -> list[str]:
    """What ``namespace`` lacks of ``protocol`` or offers in another form, and which of the
    protocol's optional members it offers in another form, as phrases."""
    checked = dict(members(protocol))  # a copy: members are cached
    for extra in _OPTIONAL[protocol]:
        checked |= {
            name: want
            for name, want in members(extra).items()
            if name in namespace and name not in checked
        }
    problems = []
    for name, want in checked.items():
        if name not in namespace:
            problems.append(f"lacks {_form(name, want)}")
        elif isinstance(want, inspect.Signature):
            problems += _function_problems(name, namespace[name], want)
        elif not _is_a(namespace[name], want):
            kind = type(namespace[name]).__name__
            problems.append(f"{name} is {namespace[name]!r} ({kind}), not {_form(name, want)}")
    return problems


def _function_problems(name: str, value, want: inspect.Signature) -> list[str]:
    if not callable(value):
        return [f"{name} is a {type(value).__name__}, not the function {_form(name, want)}"]
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):  # no signature to read (a builtin): the call will tell
        return []
    try:
        signature.bind(*want.parameters)
    except TypeError:
        return [f"{name}{signature} cannot be called as {_form(name, want)}"]
    return []


def _is_a(value, want) -> bool:
    if want is int:  # a count or an id: numpy's integers too, not a bool
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    return isinstance(value, want)


def _form(name: str, want) -> str:
    if isinstance(want, inspect.Signature):
        return f"{name}({', '.join(want.parameters)})"
    return f"{name}: {getattr(want, '__name__', want)}"


def _raise(where: str, problems: list[str]) -> None:
    if problems:
        raise ContractError(
            f"{where} does not meet the game contract (simcore/contract.py): " + "; ".join(problems)
        )
