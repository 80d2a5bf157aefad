"""What the contract suite (tests/contract/) reads of a game, and the set-ups it plays.

The suite reaches a game only through the registry: its entry (``registry.make``), its game
module (``game.kernel()``: ``prepare``, ``run_chunk``, ``trace_game``, ``describe_trace`` and the
chunk glue ``CHUNKS``) and the sibling modules of the same package: ``search.py`` (the protocol as
the search sees it: ``new_game``, ``legal``, ``apply``, ``to_move``, ``is_over``, ``returns``,
``determinize``, ``infoset_key``, ``choose``, ``MAX_MOVES``, ``STATE_SIZE``) and ``state.py``
(``DECISION_KINDS``, ``P_DECISION``, ``P_WINNER``): the contract of simcore/contract.py.

What a game's own tests know beyond that (the corners its sweeps must reach, its conservation
laws, which fields a seat sees) is its glue, tests/contract/games/<package>.py (the names are
listed in tests/contract/games/__init__.py): optional, so a game without one still runs every
generic check, with the set-ups built here from its registry entry.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simcore import registry
from simcore.kernel.chunk import one_game_scratch, trace_one_game
from simcore.kernel.rng import seed_game_stream
from simcore.workflows import runner, storage
from tests.games.liars_dice import REGISTRATION


@contextmanager
def toy_registered():
    """The toy game of tests/games/liars_dice/ registered as a designer registers a game of their
    own
    (``POWERLAB_GAMES``, docs/adding-a-game.md), for as long as the block runs: the contract
    suite runs over it as over every game of the tree, and no other test sees it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(registry.GAMES_VARIABLE, REGISTRATION)
        yield


def contract_game_ids() -> list[str]:
    """The games the contract suite runs over: every registered game and the toy game."""
    with toy_registered():
        return registry.game_ids()


def contract_make(game_id: str) -> registry.Game:
    """The registry entry of ``game_id``, the toy game's too (at collection, before the suite's
    fixture registers it)."""
    with toy_registered():
        return registry.make(game_id)


def contract_games() -> list[registry.Game]:
    """The registry entries of ``contract_game_ids()``."""
    return [contract_make(game_id) for game_id in contract_game_ids()]


@dataclass(frozen=True)
class Modules:
    """A game's registry entry and modules, and its glue (None without one)."""

    game: registry.Game
    kernel: ModuleType
    search: ModuleType
    state: ModuleType
    glue: ModuleType | None

    def option(self, name: str, default=None):
        """The glue's ``name``, or ``default`` for a game whose glue does not set it."""
        return getattr(self.glue, name, default)


@cache
def modules(game_id: str) -> Modules:
    game = contract_make(game_id)
    package = game.module.rpartition(".")[0]
    glue_name = f"tests.contract.games.{package.rpartition('.')[2]}"
    try:
        glue = importlib.import_module(glue_name)
    except ModuleNotFoundError as error:
        if error.name != glue_name:
            raise
        glue = None
    return Modules(
        game,
        game.kernel(),
        importlib.import_module(package + ".search"),
        importlib.import_module(package + ".state"),
        glue,
    )


@dataclass(frozen=True)
class Setup:
    """Games of a lineup: ``lineup`` has one strategy spec per seat, or one for every seat;
    ``settings`` are ``--set`` texts, where a value ``@NAME`` stands for the data file the
    game's glue holds as ``FILES[NAME]`` (written once per session)."""

    players: int
    lineup: tuple[str, ...]
    settings: tuple[str, ...] = ()
    seed: int = 1
    games: int = 1
    rotate: bool = True

    def spec(self, game_id: str, games: int | None = None) -> runner.RunSpec:
        settings = [resolved(game_id, text) for text in self.settings]
        games = self.games if games is None else games
        return runner.build_spec(
            game_id, self.players, list(self.lineup), settings, self.seed, games, self.rotate
        )

    def encoded(self, game_id: str) -> Encoded:
        spec = self.spec(game_id)
        game = contract_make(game_id)
        prepared = game.kernel().prepare(spec.rules, spec.players)
        ids, params = game.encode_strategies(spec.seat_strategies())
        return Encoded(spec, prepared, ids, params)


@dataclass(frozen=True)
class Encoded:
    """A set-up as the kernel reads it."""

    spec: runner.RunSpec
    prepared: object
    ids: np.ndarray
    params: np.ndarray

    @property
    def players(self) -> int:
        return self.spec.players

    @property
    def rules(self) -> dict:
        return self.spec.rules

    def seated(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Each seat's strategy id and parameter row in game ``index`` (``chunk.seat_lineup``)."""
        rotate = self.spec.rotate_seats
        slots = [lineup_slot(index, seat, self.players, rotate) for seat in range(self.players)]
        return self.ids[slots].copy(), self.params[slots].copy()

    def protocol_game(self, game_id: str):
        """What the protocol's functions read of the rules (the chunk glue's ``game_of``)."""
        chunks = modules(game_id).kernel.CHUNKS
        return chunks.game_of(self.prepared, self.ids, self.params)


@dataclass(frozen=True)
class Batch:
    """A batch of a game's invariant sweep (tests/test_<package>_invariants.py): ``games`` games
    of ``lineup`` (one entry: every seat) under the rule values ``rules``, ``traced`` of them
    also traced and replayed; a rule value that names a key of ``files`` stands for that text,
    written once as a data file."""

    game_id: str
    players: int
    lineup: tuple[str, ...]
    games: int
    traced: int
    rules: dict = field(default_factory=dict)
    rotate: bool = True
    files: dict = field(default_factory=dict, repr=False)

    def encoded(self) -> tuple[dict, object, np.ndarray, np.ndarray]:
        """(rules, prepared rules, lineup ids, lineup parameter rows)."""
        game = contract_make(self.game_id)
        rules = {k: inline_file(self.files[v]) if v in self.files else v
                 for k, v in self.rules.items()}  # fmt: skip
        rules = game.rules_with_defaults(rules)
        prepared = game.kernel().prepare(rules, self.players)
        entries = [registry.parse_strategy(game, text) for text in self.lineup]
        ids, params = game.encode_strategies(entries * (self.players // len(entries)))
        return rules, prepared, ids, params

    def played(self, seed: int) -> tuple:
        """(this batch, rules, prepared rules, ids, parameter rows, game_out, seat_out) of its
        games from index 0 under ``seed``."""
        rules, prepared, ids, params = self.encoded()
        kernel = contract_make(self.game_id).kernel()
        game_out, seat_out = kernel.run_chunk(
            prepared, self.players, ids, params, seed, 0, self.games, self.rotate
        )
        return self, rules, prepared, ids, params, game_out, seat_out

    def __str__(self) -> str:
        rules = ",".join(f"{k}={v}" for k, v in self.rules.items())
        return f"{self.players}p-{'+'.join(self.lineup)}" + (f"-{rules}" if rules else "")


@dataclass(frozen=True)
class Determinize:
    """The games of the ``determinize`` check: random legal play, or with ``scripted`` every
    other game answered by the strategies; at each decision the state is redrawn ``twins``
    times for the deciding seat, and more than ``changed`` redraws, and more than
    ``changed_share`` of them, must change something; the decision kinds ``meets`` must come
    up."""

    setup: Setup
    changed: int = 0
    changed_share: float = 0.0
    twins: int = 1
    scripted: bool = False
    meets: frozenset[int] = frozenset()


@dataclass(frozen=True)
class SearchRun:
    """A run whose first lineup entry searches, played whole, on two threads in chunks of
    ``two_threads_chunk`` and as two shards in chunks of ``shards_chunk``."""

    setup: Setup
    two_threads_chunk: int
    shards_chunk: int


@dataclass(frozen=True)
class SearchLeak:
    """Games in which each decision of the searching seats (``ismcts`` entries) is asked again
    on a redrawn copy: more than ``checked`` decisions, more than ``informative`` of them, and
    more than ``informative_share`` of them, redrawn."""

    setup: Setup
    checked: int
    informative: int = 0
    informative_share: float = 0.0
    slow: bool = False


def lineup_slot(index: int, seat: int, players: int, rotate: bool) -> int:
    """The lineup entry in ``seat`` in game ``index`` (simcore.kernel.chunk.lineup_slot)."""
    return (seat + index) % players if rotate else seat


def resolved(game_id: str, setting: str) -> str:
    key, _, value = setting.partition("=")
    if value.startswith("@"):
        return f"{key}={data_file(game_id, value[1:])}"
    return setting


@cache
def _files_dir() -> Path:
    directory = Path(tempfile.mkdtemp(prefix="contract_files_"))
    atexit.register(shutil.rmtree, directory, True)
    return directory


@cache
def inline_file(text: str) -> str:
    """The path of a data file holding ``text``, written on first use."""
    path = _files_dir() / f"inline-{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
    path.write_text(text)
    return str(path)


@cache
def data_file(game_id: str, name: str) -> str:
    """The path of the glue's data file ``name``, written on first use."""
    return inline_file(modules(game_id).glue.FILES[name])


def default_lineup(game: registry.Game, players: int) -> tuple[str, ...]:
    """Every strategy of the game at the table, cycling to fill the seats."""
    names = [s.name for s in game.strategies]
    return tuple(names[k % len(names)] for k in range(players))


def fresh(state_size: int, seed: int, index: int) -> tuple[np.ndarray, np.ndarray]:
    """A zeroed state and game ``index``'s random stream under ``seed``."""
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return np.zeros(state_size, dtype=np.int64), rng


def play_one(game_id: str, encoded: Encoded, index: int, via_protocol=False, traced=True):
    """(game row, seat rows, trace, final state) of game ``index`` played as the chunk kernels
    play it, by the chunk glue's ``play`` or, ``via_protocol``, by its ``play_searching`` (for
    every lineup, scripted ones too); ``traced``, its whole trace (``trace_game``'s), else an
    empty one."""
    chunks = modules(game_id).kernel.CHUNKS
    play = chunks.play_searching if via_protocol else chunks.play
    game = encoded.protocol_game(game_id)
    players, ids, params = encoded.players, encoded.ids, encoded.params
    sids, prm, rng, game_out, seat_out = one_game_scratch(
        players, params, chunks.game_columns, chunks.seat_columns
    )
    states = []

    def run(st, trace):
        play(
            players, ids, params, np.uint64(encoded.spec.seed), index, encoded.spec.rotate_seats,
            st, game, sids, prm, rng, trace, 0, game_out, seat_out,
        )  # fmt: skip
        states.append(st)

    if traced:
        first_rows = chunks.first_trace_rows(encoded.prepared, players)
        width = chunks.trace_width
        trace = trace_one_game(run, first_rows, chunks.state_size, chunks.trace_len_at, width)
    else:
        trace = no_trace(game_id)
        run(np.zeros(chunks.state_size, dtype=np.int64), trace)
    return game_out.copy(), seat_out.copy(), trace, states[-1]


class Games:
    """A set-up's games played through a game's protocol (its search module, ``search``):
    ``start(index)`` deals game ``index``, ``legal`` lists a state's options, ``apply`` plays
    one, recording into ``trace`` (``trace_rows`` rows; none by default)."""

    def __init__(self, game_id: str, setup: Setup, trace_rows: int = 0):
        m = modules(game_id)
        self.search, self.setup, self.players = m.search, setup, setup.players
        self.encoded = setup.encoded(game_id)
        self.game = self.encoded.protocol_game(game_id)
        self.trace = np.zeros((trace_rows, m.kernel.CHUNKS.trace_width), dtype=np.int64)
        self.trace_len_at = m.kernel.CHUNKS.trace_len_at
        self._moves = np.zeros(m.search.MAX_MOVES, dtype=np.int64)

    def start(self, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(state, random stream, seat strategy ids, parameter rows) of game ``index``, dealt."""
        sids, prm = self.encoded.seated(index)
        st, rng = fresh(self.search.STATE_SIZE, self.setup.seed, index)
        self.search.new_game(self.players, st, self.game, rng, self.trace)
        return st, rng, sids, prm

    def legal(self, st) -> np.ndarray:
        """The options of the decision pending in ``st``."""
        n = self.search.legal(st, self.game, self._moves)
        return self._moves[:n].copy()

    def choose(self, sids, prm, seat, st, rng) -> int:
        """The seated strategy's answer (the search's, for an ``ismcts`` seat)."""
        return self.search.choose(sids, prm, seat, st, self.game, rng)

    def apply(self, st, move, rng) -> None:
        self.search.apply(st, self.game, move, rng, self.trace)

    def traced(self, st) -> np.ndarray:
        """The trace of the game ``st`` holds."""
        return self.trace[: st[self.trace_len_at]]


def no_trace(game_id: str) -> np.ndarray:
    return np.zeros((0, modules(game_id).kernel.CHUNKS.trace_width), dtype=np.int64)


def table(out: Path) -> pa.Table:
    """Every part of a run, concatenated and sorted by game index."""
    parts = storage.parts(out, storage.read_run_json(out))
    assert parts, f"no parts in {out}"
    return pa.concat_tables([pq.read_table(part.path(out)) for part in parts]).sort_by("game_index")


def param_ids(values) -> list[str]:
    return [str(value) for value in values]
