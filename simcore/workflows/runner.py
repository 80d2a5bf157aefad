"""Run a spec: chunks of games through a game's kernel, streamed to Parquet, resumable.

A run directory holds ``run.json``, ``manifest.json`` and ``games/part-*.parquet``
(simcore/workflows/storage.py: one writer at a time, every part listed with its checksum).
Rerunning the
same spec on it computes only the game indices no intact part covers; a different spec is
refused before anything is written. Planning is lazy and peak memory is one chunk, whatever the
number of games.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import hashlib
import importlib.util
import math
import multiprocessing
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simcore import registry
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDINGS,
    LINEUP_SLOT,
    TURNS,
    WINNER,
    WON,
    arcs_sample,
    lineup_slot,
    standing_rows,
)
from simcore.workflows import cluster, files, storage
from simcore.workflows.storage import MAX_GAMES, MAX_SEED

DEFAULT_CHUNK_SIZE = 100_000
# A chunk is held in memory whole: its kernel arrays (at most 1 KB a game, Power Struggle at 5
# players), their column copies and the Arrow table (0.2 KB), so 1-2 GB at this cap.
MAX_CHUNK_SIZE = 1_000_000
SEARCHED_CHUNK_SECONDS = 5.0  # a searched run's chunks, without --chunk-size (Pace)
IDENTITY_KEYS = ("game", "players", "strategies", "rules", "seed", "rotate_seats", "data_files")


@dataclass
class RunSpec:
    """Everything that fixes a run's results (``games`` only says how many)."""

    game: str
    players: int
    strategies: list[dict]
    rules: dict
    seed: int
    games: int
    rotate_seats: bool
    # SHA-256 of each designer's data file a path rule names: editing the file changes the spec.
    data_files: dict = field(default_factory=dict)
    # Share of the games whose arcs (the standing per seat, turn by turn) are recorded: not part
    # of the identity (the games are the same), but a run keeps the share it started with.
    arcs: float = 0.0

    def identity(self) -> dict:
        data = asdict(self)
        return {key: data[key] for key in IDENTITY_KEYS}

    def lineup(self) -> list[str]:
        game = registry.make(self.game)
        return [game.strategy(s["name"]).label(s["params"]) for s in self.strategies]

    def seat_strategies(self) -> list[dict]:
        """One strategy per seat (the lineup the kernel rotates when ``rotate_seats``)."""
        if len(self.strategies) == 1:
            return self.strategies * self.players
        return self.strategies


def build_spec(
    game_id: str,
    players: int,
    strategy_texts: list[str],
    set_texts: list[str],
    seed: int,
    games: int,
    rotate_seats: bool,
    arcs: str | None = None,
) -> RunSpec:
    """A validated spec from CLI-style texts; every mistake is a one-line SpecError."""
    game = registry.make(game_id)
    game.check_players(players)
    texts = strategy_texts or [game.default_strategy]
    strategies = [registry.parse_strategy(game, text, players) for text in texts]
    return check_spec(
        RunSpec(
            game=game_id,
            players=players,
            strategies=strategies,
            rules=registry.parse_settings(game, set_texts),
            seed=seed,
            games=games,
            rotate_seats=rotate_seats,
            arcs=parse_arcs(arcs) if arcs is not None else 0.0,
        )
    )


def parse_arcs(text: str) -> float:
    """``--arcs P%`` (0 < P <= 100) → the share of games whose arcs are recorded."""
    number = text.strip().removesuffix("%")
    try:
        share = float(number) / 100 if text.strip().endswith("%") else None
    except ValueError:
        share = None
    if share is None or not 0 < share <= 1:
        raise registry.SpecError(f"--arcs expects a share of the games such as 1%, not {text!r}")
    return share


def check_spec(spec: RunSpec) -> RunSpec:
    """The spec with defaults filled in, or SpecError: used for CLI, study and run.json specs."""
    game = registry.make(spec.game)
    game.check_players(spec.players)
    if len(spec.strategies) not in (1, spec.players):
        raise registry.SpecError(
            f"give one --strategy for all seats or one per seat ({spec.players}), "
            f"not {len(spec.strategies)}"
        )
    if not 0 <= spec.seed <= MAX_SEED:
        raise registry.SpecError(f"--seed must be in [0, {MAX_SEED}], not {spec.seed}")
    storage.check_count(spec.games, "--games", MAX_GAMES, storage.GAMES_WHY)
    spec.strategies = [
        registry.check_strategy(game, s, f"strategy {s.get('name')!r}") for s in spec.strategies
    ]
    spec.rules = game.rules_with_defaults(spec.rules)
    if spec.arcs:
        game.check_arcs()
        if not 0 < spec.arcs <= 1:
            raise registry.SpecError(f"arcs: the share {spec.arcs!r} is not in (0, 1]")
    game.kernel().prepare(spec.rules, spec.players)
    spec.data_files = {
        p.name: hashlib.sha256(files.read_bytes(spec.rules[p.name], "data file")).hexdigest()
        for p in game.rules
        if p.kind == "path" and spec.rules[p.name]
    }
    return spec


def spec_from_json(data: dict) -> RunSpec:
    return RunSpec(**{key: data[key] for key in (*IDENTITY_KEYS, "games", "arcs") if key in data})


def load_info(out: Path) -> dict | None:
    """The checked run.json of ``out`` (storage.read_run_json), or None if there is none."""
    if not (Path(out) / "run.json").exists():
        return None
    return storage.read_run_json(out)


def shard_info(shard: tuple[int, int] | None, first: int, stop: int) -> dict | None:
    if shard is None:
        return None
    return {"index": shard[0], "count": shard[1], "first": first, "stop": stop}


def check_out_dir(spec: RunSpec, out: Path, shard: tuple[int, int] | None = None) -> None:
    """Refuse, before writing anything, an OUT that holds something other than this run."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise registry.SpecError(f"--out {out} is a file, not a directory")
    info = load_info(out)
    if info is None:
        if out.exists() and not storage.is_empty(out):
            raise registry.SpecError(f"--out {out} is not empty and holds no powerlab run")
        return
    existing = spec_from_json(info["spec"])
    if existing.identity() != spec.identity():
        changed = [k for k in IDENTITY_KEYS if existing.identity()[k] != spec.identity()[k]]
        raise registry.SpecError(
            f"--out {out} holds a run with a different {', '.join(changed)}; "
            "use another --out or the same spec"
        )
    if existing.arcs != spec.arcs:
        raise registry.SpecError(
            f"--out {out} records the arcs of {_share(existing.arcs)} of its games, not "
            f"{_share(spec.arcs)}; give the same --arcs or use another --out"
        )
    stored_shard = info.get("shard")
    wanted_shard = shard_info(shard, *cluster.shard_range(spec.games, shard))
    if stored_shard is not None and shard is not None:
        stored_shard = {k: stored_shard[k] for k in ("index", "count")}
        wanted_shard = {"index": shard[0], "count": shard[1]}
    if stored_shard != wanted_shard and (stored_shard or shard):
        raise registry.SpecError(
            f"--out {out} holds shard {stored_shard} of this spec, not {wanted_shard}"
        )
    last = max((part.stop for part in storage.read_manifest(out)), default=0)
    if shard is None and last > spec.games:
        raise registry.SpecError(
            f"--out {out} already holds {last} games, more than --games {spec.games}"
        )


def _share(arcs: float) -> str:
    return f"{100 * arcs:g}%" if arcs else "none"


def to_table(game: registry.Game, lineup, first_index, game_out, seat_out) -> pa.Table:
    """A chunk's kernel arrays as the Parquet columns of docs/architecture.md."""
    n_games, players, _ = seat_out.shape
    columns = {
        "game_index": pa.array(np.arange(first_index, first_index + n_games, dtype=np.int64)),
        "winner": pa.array(game_out[:, WINNER].astype(np.int8)),
        "turns": pa.array(game_out[:, TURNS].astype(np.int32)),
        "ended_by": _labelled(game_out[:, ENDED_BY], ENDINGS),
    }
    for seat in range(players):
        columns[f"s{seat}_strategy"] = _labelled(seat_out[:, seat, LINEUP_SLOT], lineup)
        columns[f"s{seat}_won"] = pa.array(seat_out[:, seat, WON].astype(bool))
        for k, column in enumerate(game.seat_columns, start=WON + 1):
            columns[f"s{seat}_{column.name}"] = _column_array(column, seat_out[:, seat, k])
    for k, column in enumerate(game.game_columns, start=ENDED_BY + 1):
        columns[column.name] = _column_array(column, game_out[:, k])
    return pa.table(columns)


def arcs_table(arcs: registry.Arcs, traces: list[tuple[int, np.ndarray]]) -> pa.Table:
    """The standing rows of the sampled games' traces (``(game index, trace)``) as the arcs
    Parquet columns: game_index, turn, seat, then the game's standing (docs/arcs.md)."""
    n_values = len(arcs.standing)
    blocks = [standing_rows(trace, arcs.event, n_values) for _, trace in traces]
    rows = np.concatenate(blocks) if blocks else np.zeros((0, 2 + n_values), dtype=np.int64)
    games = np.repeat(
        np.array([index for index, _ in traces], dtype=np.int64), [len(b) for b in blocks]
    )
    columns = {
        "game_index": pa.array(games),
        "turn": pa.array(rows[:, 0].astype(np.int32)),
        "seat": pa.array(rows[:, 1].astype(np.int8)),
    }
    for k, column in enumerate(arcs.standing, start=2):
        columns[column.name] = pa.array(rows[:, k].astype(column.dtype))
    return pa.table(columns)


def _column_array(column: registry.Column, values: np.ndarray) -> pa.Array:
    if column.labels:
        return _labelled(values, column.labels)
    return pa.array(values.astype(column.dtype))


def _labelled(codes: np.ndarray, labels) -> pa.DictionaryArray:
    """Integer codes as a dictionary column of their labels."""
    return pa.DictionaryArray.from_arrays(
        pa.array(codes.astype(np.int32)), pa.array(list(labels), type=pa.string())
    )


def run_info(spec: RunSpec) -> dict:
    """The run.json written before the first chunk (provenance filled in as the run goes)."""
    from importlib.metadata import version

    game = registry.make(spec.game)
    return {
        "format": storage.FORMAT,
        "powerlab_version": version("powerlab"),
        "spec": asdict(spec),
        "title": game.title,
        "lineup": spec.lineup(),
        "columns": {
            "game": [{"name": c.name, "doc": c.doc} for c in game.game_columns],
            "seat": [{"name": c.name, "doc": c.doc} for c in game.seat_columns],
        },
        "impact": [
            {"title": g.title, "columns": list(g.columns), "observational": g.observational}
            for g in game.impact
        ],
        "card_impact": [
            {
                "title": c.title,
                "drawn_column": c.drawn_column,
                "played_column": c.played_column,
                "labels": list(c.labels(spec.rules)),
            }
            for c in game.card_impact
        ],
        "arcs": None
        if not spec.arcs
        else {
            "share": spec.arcs,
            "unit": game.arcs.unit,
            "standing": [{"name": c.name, "doc": c.doc} for c in game.arcs.standing],
        },
        "created": storage.now(),
        "finished": None,
        "timings": {},
    }


# The compiled entry points of a game's chunks (simcore/kernel/chunk.py, ``GameChunks``), each
# cached by numba under an index of its own and compiled only when called: the chunk loop a run
# calls (``run_chunk``) and the one-game player of replay and arcs (``trace_game``), scripted
# (False) and searching (True). A command asks the cache only for those it calls: a plain run
# never compiles a one-game player, so asking for one would announce a compile that never comes.
CHUNK_LOOPS = {False: "simulate_blocks", True: "simulate_searching_blocks"}
ONE_GAME_PLAYERS = {False: "play", True: "play_searching"}
ALL_ENTRY_POINTS = (*CHUNK_LOOPS.values(), *ONE_GAME_PLAYERS.values())

# What shows a compile while it lasts: called with the notice, it returns the context the compile
# runs in (the CLI draws a spinner with the time elapsed; ``announce`` says it in one line).
CompileStatus = Callable[[str], contextlib.AbstractContextManager]


def searches(strategies: list[dict]) -> bool:
    """Whether a lineup of ``strategies`` has a search seat (``ismcts``)."""
    return any(s["name"] == registry.SEARCH for s in strategies)


def entry_points(strategies: list[dict], chunks: bool, traced: bool) -> tuple[str, ...]:
    """The entry points a lineup of ``strategies`` calls (the searching ones if a seat is
    ``ismcts``): the chunk loop for ``chunks`` (a run), the one-game player for ``traced``
    (replay, a run's arcs)."""
    searching = searches(strategies)
    return (CHUNK_LOOPS[searching],) * chunks + (ONE_GAME_PLAYERS[searching],) * traced


def kernel_compiled(game: registry.Game, needed: Iterable[str] = ALL_ENTRY_POINTS) -> bool:
    """Whether numba's cache already holds the ``needed`` entry points of the game's chunks
    (``entry_points``; by default all of them), else the first call compiles them: a minute or
    two of one core (docs/performance.md). As plain Python (``NUMBA_DISABLE_JIT=1``) nothing
    is compiled, so nothing is missing."""
    import os

    import numba

    if numba.config.DISABLE_JIT:
        return True
    chunks = game.kernel().CHUNKS
    return all(
        os.path.exists(getattr(chunks, name)._cache._cache_file._index_path) for name in needed
    )


def compile_notice(game: registry.Game) -> str:
    return f"compiling the {game.id} kernel once (a minute or two)"


def announce(notify: Callable[[str], None]) -> CompileStatus:
    """The compile status of a caller that only has one-line notices: the notice, before."""

    @contextlib.contextmanager
    def status(line: str) -> Iterator[None]:
        notify(line)
        yield

    return status


def compile_kernel(spec: RunSpec, chunks: bool, traced: bool, compiling: CompileStatus) -> float:
    """Seconds spent compiling the entry points of ``spec``'s kernel a command calls (``chunks``:
    the chunk loop of a run; ``traced``: the one-game player of replay and arcs), by playing game
    0 through them inside ``compiling(notice)``; 0 when numba's cache holds them. Compiling
    before the first chunk keeps the compile out of the run's games/s."""
    game = registry.make(spec.game)
    if kernel_compiled(game, entry_points(spec.strategies, chunks, traced)):
        return 0.0
    started = time.perf_counter()
    with compiling(compile_notice(game)):
        inputs = _kernel_inputs(spec)
        _, kernel, prepared, ids, params = inputs
        if chunks:
            play_arrays(spec, 0, 1, inputs)
        if traced:
            kernel.trace_game(prepared, spec.players, ids, params, spec.seed, 0, spec.rotate_seats)
    return time.perf_counter() - started


def warm_up(game: registry.Game, compiling: CompileStatus) -> bool:
    """Compile (or load) the game's kernel: one game through the chunk kernel and one traced,
    at its smallest table, with the default strategy in every seat and with the search player
    (``ismcts``) in the first, inside ``compiling(notice)`` if anything is missing. Returns
    whether it compiled anything."""
    missing = not kernel_compiled(game)
    kernel = game.kernel()
    lineups = [[]]
    if game.search is not None:
        lineups.append(
            [f"{registry.SEARCH}:iterations=2"] + [game.default_strategy] * (game.min_players - 1)
        )
    with compiling(compile_notice(game)) if missing else contextlib.nullcontext():
        for lineup in lineups:
            spec = build_spec(game.id, game.min_players, lineup, [], 0, 1, True)
            play_chunk(spec, 0, 1)
            ids, params = game.encode_strategies(spec.seat_strategies())
            prepared = kernel.prepare(spec.rules, spec.players)
            kernel.trace_game(prepared, spec.players, ids, params, 0, 0, True)
    return missing


def warm_up_alone(
    game_id: str, compiling: CompileStatus = contextlib.nullcontext
) -> tuple[str, bool, float]:
    """``warm_up`` by game id, timed: (game id, whether it compiled, seconds). ``powerlab warmup
    --jobs`` runs it in processes of their own, because numba compiles on one core: games
    compile side by side only in separate processes, and the cache joins their work."""
    started = time.perf_counter()
    compiled = warm_up(registry.make(game_id), compiling)
    return game_id, compiled, time.perf_counter() - started


def warm_up_games(
    game_ids: list[str], jobs: int, notify: Callable[[str], None], compiling: CompileStatus
) -> Iterator[tuple[str, bool, float]]:
    """``warm_up_alone`` of every game, ``jobs`` at a time: with more than one, each game in a
    spawned process of its own (``notify`` hears of them in one line), the largest kernel
    sources first, else here in order, each compile shown by ``compiling``. Closing the iterator
    waits for the processes."""
    if jobs == 1:
        for game_id in game_ids:
            yield warm_up_alone(game_id, compiling)
        return
    notify(
        f"warming up {len(game_ids)} games, {jobs} at a time: a game not yet compiled takes "
        "1-3 minutes"
    )
    with concurrent.futures.ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("spawn")
    ) as pool:
        yield from pool.map(warm_up_alone, sorted(game_ids, key=_source_bytes, reverse=True))


def _source_bytes(game_id: str) -> int:
    """The size of a game's package, the folder its kernel lives in: its compile time grows with
    it (POWER's 77 kB warm up in about 60 s, Power Struggle's 168 kB in about 160), so that the
    longest does not start last. Measured, the whole warm-up is no faster for it (346 s against
    340 in the registry's order): two large compiles side by side each run slower
    (docs/performance.md, "Compile and suite time")."""
    folder = Path(importlib.util.find_spec(registry.make(game_id).module).origin).parent
    return sum(path.stat().st_size for path in folder.glob("*.py"))


def replay(spec: RunSpec, game_index: int, compiling: CompileStatus) -> list[str]:
    """The turn-by-turn log of exactly the game a run of ``spec`` stores at ``game_index``: a
    heading, then the game's ``describe_trace`` lines with each seat's strategy label."""
    game = registry.make(spec.game)
    compile_kernel(spec, chunks=False, traced=True, compiling=compiling)
    kernel = game.kernel()
    prepared = kernel.prepare(spec.rules, spec.players)
    ids, params = game.encode_strategies(spec.seat_strategies())
    trace = kernel.trace_game(
        prepared, spec.players, ids, params, spec.seed, game_index, spec.rotate_seats
    )
    labels = spec.lineup() if len(spec.strategies) > 1 else spec.lineup() * spec.players
    seat_labels = [
        labels[lineup_slot(game_index, seat, spec.players, spec.rotate_seats)]
        for seat in range(spec.players)
    ]
    return [
        f"{game.title}, game {game_index} of seed {spec.seed}",
        *kernel.describe_trace(trace, seat_labels),
    ]


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (default: all); returns the count in use."""
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if threads is not None:
        if not 1 <= threads <= available:
            raise registry.SpecError(f"--threads must be in [1, {available}], not {threads}")
        numba.set_num_threads(threads)
    else:
        numba.set_num_threads(available)
    return numba.get_num_threads()


def _kernel_inputs(spec: RunSpec) -> tuple:
    """(game, kernel, prepared rules, strategy ids, strategy parameters) of ``spec``."""
    game = registry.make(spec.game)
    kernel = game.kernel()
    ids, params = game.encode_strategies(spec.seat_strategies())
    return game, kernel, kernel.prepare(spec.rules, spec.players), ids, params


def play_arrays(spec: RunSpec, start: int, n: int, inputs: tuple | None = None):
    """The kernel's ``game_out`` and ``seat_out`` arrays (simcore/kernel/chunk.py) for games
    ``start .. start + n - 1`` of ``spec`` (``inputs``: ``_kernel_inputs(spec)``, if at hand)."""
    _, kernel, prepared, ids, params = inputs or _kernel_inputs(spec)
    return kernel.run_chunk(
        prepared, spec.players, ids, params, spec.seed, start, n, spec.rotate_seats
    )


@dataclass(frozen=True)
class Chunk:
    """A chunk's games as an Arrow table, and the arcs of its sampled games (None without
    ``--arcs``)."""

    games: pa.Table
    arcs: pa.Table | None = None


def play_chunk(spec: RunSpec, start: int, n: int) -> Chunk:
    """Games ``start .. start + n - 1`` of ``spec`` (local and Dask paths). The sampled games
    are played again with a trace for their arcs: the same games, since a game is a pure
    function of its index, and the chunk kernel keeps its speed."""
    inputs = _kernel_inputs(spec)
    game, kernel, prepared, ids, params = inputs
    lineup = spec.lineup() if len(spec.strategies) > 1 else spec.lineup() * spec.players
    games = to_table(game, lineup, start, *play_arrays(spec, start, n, inputs))
    if not spec.arcs:
        return Chunk(games)
    traces = [
        (index, kernel.trace_game(prepared, spec.players, ids, params, spec.seed, index,
                                  spec.rotate_seats))
        for index in arcs_sample(start, n, spec.arcs).tolist()
    ]  # fmt: skip
    return Chunk(games, arcs_table(game.check_arcs(), traces))


def chunk_plan(
    ranges: list[tuple[int, int]], chunk_size: int, next_size: Callable[[], int] | None = None
) -> Iterator[tuple[int, int]]:
    """(first index, count) of each chunk covering the [first, stop) ranges, lazily: planning
    costs nothing however many games are asked for. Chunks are of ``chunk_size`` games, or of
    ``next_size()`` (at most ``chunk_size``), asked as each chunk is planned."""
    for first, stop in ranges:
        start = first
        while start < stop:
            count = min(next_size() if next_size else chunk_size, chunk_size, stop - start)
            yield start, count
            start += count


@dataclass
class Pace:
    """The games a run has played so far and the seconds it took, from its first chunk on (the
    compile before it excluded); with ``searched_first`` it sizes the chunks of a searched run
    without --chunk-size (``searched_chunk``)."""

    searched_first: int | None = None
    games: int = 0
    seconds: float = 0.0

    def searched_chunk(self) -> int:
        """The next chunk's games: ``searched_first`` before any was played, then about
        SEARCHED_CHUNK_SECONDS of play at the pace so far. A searched game takes 0.03-0.6 s a
        thread (docs/performance.md), so a DEFAULT_CHUNK_SIZE chunk would move the progress bar
        once an hour or less, and Ctrl-C would lose all of it. A game's row depends only on its
        index: the sizes never change the results."""
        if not self.games or self.seconds <= 0:
            return self.searched_first
        games = int(self.games / self.seconds * SEARCHED_CHUNK_SECONDS)
        return max(1, min(DEFAULT_CHUNK_SIZE, games))


def run_timings(games: int, play_seconds: float, compile_seconds: float) -> dict:
    """run.json's ``timings`` of a run's games (docs/architecture.md, "run.json"): ``seconds``
    the run took, ``compile_seconds`` of them compiling the kernel before its first game, and
    ``games_per_s`` the games computed over the seconds spent playing them (compile excluded)."""
    return {
        "seconds": round(compile_seconds + play_seconds, 3),
        "compile_seconds": round(compile_seconds, 3),
        "games_computed": games,
        "games_per_s": round(games / play_seconds, 1) if games and play_seconds > 0 else None,
    }


def run(
    spec: RunSpec,
    out: Path,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    shard: tuple[int, int] | None = None,
    scheduler: str | None = None,
    notify: Callable[[str], None] = lambda line: None,
    compiling: CompileStatus | None = None,
) -> dict:
    """Compute every game of ``spec`` (of its ``shard``) that ``out`` lacks; returns run.json.

    ``scheduler`` runs the chunks as Dask tasks (``local:N`` or a scheduler address); without it
    they run here on ``threads`` numba threads, after compiling what numba's cache lacks inside
    ``compiling(notice)`` (by default ``notify`` hears the notice). Chunks are of ``chunk_size``
    games; without it DEFAULT_CHUNK_SIZE, or for a lineup with a search seat a few seconds' play
    each (``Pace.searched_chunk``). The run holds OUT's writer lock throughout; ``notify`` hears,
    one line each, of parts removed for recomputation.
    """
    out = Path(out)
    if chunk_size is not None and not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise registry.SpecError(
            f"--chunk-size must be in [1, {MAX_CHUNK_SIZE}] (a chunk is held in memory whole), "
            f"not {chunk_size}"
        )
    # Checked under the lock only: a run another process is writing looks like a folder that
    # holds no run until its run.json lands, so a check before the lock named the wrong cause.
    with storage.locked(out), contextlib.ExitStack() as stack:
        check_out_dir(spec, out, shard)
        if scheduler is None:
            used_threads = set_threads(threads)  # bad --threads: refused before any notice
            compile_first = functools.partial(
                compile_kernel, spec, True, bool(spec.arcs), compiling or announce(notify)
            )
            play_chunks = _play_here
        else:
            # Connect before writing anything: an unreachable scheduler leaves OUT untouched.
            used_threads = threads or 1
            client = stack.enter_context(cluster.connect(scheduler))
            compile_first = float  # the workers compile: 0.0 seconds here
            play_chunks = functools.partial(
                cluster.play_chunks, client=client, threads=used_threads, play=play_chunk
            )
        paced = chunk_size is None and searches(spec.strategies)
        chunk_size = chunk_size or DEFAULT_CHUNK_SIZE
        pace = Pace(used_threads if paced else None)
        info = _run_chunks(
            spec, out, chunk_size, pace, progress, shard, compile_first, play_chunks, notify
        )
        info["timings"].update(
            threads=used_threads, chunk_size=None if paced else chunk_size, scheduler=scheduler
        )
        storage.write_json(out / "run.json", info)
        return info


def _play_here(spec: RunSpec, chunks: Iterator[tuple[int, int]]):
    return ((start, play_chunk(spec, start, n)) for start, n in chunks)


def _run_chunks(
    spec, out, chunk_size, pace, progress, shard, compile_first, play_chunks, notify
) -> dict:
    """Write run.json, then every missing chunk of the shard, after ``compile_first()`` (its
    seconds) if any is missing; returns run.json with timings."""
    first, stop = cluster.shard_range(spec.games, shard)
    storage.games_dir(out).mkdir(parents=True, exist_ok=True)
    info = load_info(out) or run_info(spec)
    info["spec"]["games"] = spec.games
    info["shard"] = shard_info(shard, first, stop)
    info["finished"] = None
    storage.write_json(out / "run.json", info)

    parts = storage.repair(out, info, notify)
    missing = storage.missing_ranges([(p.first, p.count) for p in parts], first, stop)
    done = stop - first - sum(b - a for a, b in missing)
    # Before the first progress report: a caller may draw the compile, then the progress bar.
    compile_seconds = compile_first() if missing else 0.0
    if progress:
        progress(done, stop - first)
    next_size = pace.searched_chunk if pace.searched_first else None
    started = time.perf_counter()
    for start, played in play_chunks(spec, chunk_plan(missing, chunk_size, next_size)):
        storage.add_part(
            out, parts, start, played.games.num_rows,
            lambda tmp, table=played.games: pq.write_table(table, tmp, compression="zstd"),
            write_arcs=None if played.arcs is None else (
                lambda tmp, table=played.arcs: pq.write_table(table, tmp, compression="zstd")),
        )  # fmt: skip
        pace.games += played.games.num_rows
        pace.seconds = time.perf_counter() - started
        if progress:
            progress(done + pace.games, stop - first)
    info["finished"] = storage.now()
    info["timings"] = run_timings(pace.games, pace.seconds, compile_seconds)
    return info


def _differences(a: dict, b: dict, keys) -> list[str]:
    return [key for key in keys if a.get(key) != b.get(key)]


def merge(run_dirs: list[Path], out: Path) -> dict:
    """Combine shard runs of one spec into ``out``: every game index exactly once, each part
    verified against its run's manifest, or SpecError before anything is written.

    The merged dataset holds the same rows as one unsharded run of the spec.
    """
    out = Path(out)
    if not run_dirs:
        raise registry.SpecError("merge needs at least one run directory")
    infos = []
    for folder in run_dirs:
        info = load_info(folder)
        if info is None:
            raise registry.SpecError(f"{folder} holds no powerlab run (no run.json)")
        infos.append(info)
    first = infos[0]["spec"]
    for folder, info in zip(run_dirs, infos, strict=True):
        changed = _differences(info["spec"], first, (*IDENTITY_KEYS, "games", "arcs"))
        if changed:
            raise registry.SpecError(
                f"{folder} is a run of a different spec ({', '.join(changed)}) than {run_dirs[0]}"
            )
    found = sorted(
        (
            (part, folder)
            for folder, info in zip(run_dirs, infos, strict=True)
            for part in storage.parts(folder, info)
        ),
        key=lambda item: item[0].first,
    )
    cursor = 0
    for part, folder in [*found, (storage.Part(first["games"], 0, 0, ""), None)]:  # the end
        if part.first < cursor:
            raise registry.SpecError(
                f"game indices {part.first}-{min(cursor, part.stop) - 1} appear twice "
                f"(again in {folder}): is a shard given twice?"
            )
        if part.first > cursor:
            raise registry.SpecError(
                f"game indices {cursor}-{part.first - 1} are missing: is a shard missing or "
                "unfinished?"
            )
        cursor = part.stop
    if out.exists() and not out.is_dir():
        raise registry.SpecError(f"--out {out} is a file, not a directory")
    if out.exists() and not storage.is_empty(out):
        raise registry.SpecError(f"--out {out} already exists and is not empty")
    with storage.locked(out):
        if not storage.is_empty(out):
            raise registry.SpecError(f"--out {out} already exists and is not empty")
        info = run_info(spec_from_json(first))
        info["merged_from"] = [str(folder) for folder in run_dirs]
        storage.write_json(out / "run.json", info)
        storage.games_dir(out).mkdir()
        merged: list[storage.Part] = []
        storage.write_manifest(out, merged)
        for part, folder in found:
            source, arcs_source = part.path(folder), part.arcs_path(folder)
            storage.add_part(
                out, merged, part.first, part.count,
                lambda tmp, source=source: shutil.copyfile(source, tmp),
                expected_sha256=part.sha256,
                write_arcs=None if part.arcs is None else (
                    lambda tmp, source=arcs_source: shutil.copyfile(source, tmp)),
                expected_arcs_sha256=part.arcs.sha256 if part.arcs else "",
            )  # fmt: skip
        info["finished"] = storage.now()
        storage.write_json(out / "run.json", info)
    return info


def covered_games(out: Path) -> int:
    """Games of ``out`` from index 0 on (the end of the last part its manifest lists)."""
    if load_info(out) is None:  # checks run.json: a run of an older format is refused
        return 0
    return max((part.stop for part in storage.read_manifest(out)), default=0)


def first_look(out: Path, step: int) -> int:
    """Games at the first look of a sequential run: the stored games rounded up to a whole step,
    so a resumed run looks at the same totals as an uninterrupted one."""
    return max(step, math.ceil(covered_games(out) / step) * step)


def check_sequential(spec: RunSpec, out: Path, until_ci: float, max_games: int, focal: str):
    """Refuse bad sequential-stopping options (``run --until-ci``) before anything is written."""
    from analyses.paired import focal_problem

    if not 0 < until_ci <= 0.5:
        raise registry.SpecError(f"--until-ci must be in (0, 0.5], not {until_ci}")
    storage.check_count(max_games, "--max-games", MAX_GAMES, storage.GAMES_WHY)
    problem = focal_problem(focal, spec.players, spec.lineup())
    if problem:
        raise registry.SpecError(f"--focal: {problem}")
    resumed = RunSpec(**{**vars(spec), "games": min(first_look(out, spec.games), max_games)})
    check_out_dir(resumed, out)
