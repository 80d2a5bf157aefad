"""Run a spec: chunks of games through a game's kernel, streamed to Parquet, resumable.

A run directory holds ``run.json`` and ``games/part-*.parquet``. Rerunning the same spec on it
computes only the game indices no part covers; a different spec is refused before anything is
written. Peak memory is one chunk, whatever the number of games.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pyarrow as pa

from simcore import registry, storage
from simcore.chunk import ENDED_BY, ENDINGS, LINEUP_SLOT, TURNS, WINNER, WON

DEFAULT_CHUNK_SIZE = 100_000
MAX_SEED = 2**63 - 1
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
) -> RunSpec:
    """A validated spec from CLI-style texts; every mistake is a one-line SpecError."""
    game = registry.make(game_id)
    game.check_players(players)
    strategies = [registry.parse_strategy(game, text) for text in strategy_texts]
    return check_spec(
        RunSpec(
            game=game_id,
            players=players,
            strategies=strategies or [registry.parse_strategy(game, game.default_strategy)],
            rules=registry.parse_settings(game, set_texts),
            seed=seed,
            games=games,
            rotate_seats=rotate_seats,
        )
    )


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
    if spec.games < 1:
        raise registry.SpecError(f"--games must be at least 1, not {spec.games}")
    spec.strategies = [
        registry.check_strategy(game, s, f"strategy {s.get('name')!r}") for s in spec.strategies
    ]
    spec.rules = game.rules_with_defaults(spec.rules)
    game.kernel().prepare(spec.rules, spec.players)
    spec.data_files = {
        p.name: hashlib.sha256(Path(spec.rules[p.name]).read_bytes()).hexdigest()
        for p in game.rules
        if p.kind == "path" and spec.rules[p.name]
    }
    return spec


def spec_from_json(data: dict) -> RunSpec:
    return RunSpec(**{key: data[key] for key in (*IDENTITY_KEYS, "games") if key in data})


def load_spec(out: Path) -> RunSpec | None:
    path = Path(out) / "run.json"
    if not path.exists():
        return None
    try:
        return spec_from_json(storage.read_json(path)["spec"])
    except (ValueError, KeyError, TypeError) as error:
        raise registry.SpecError(f"{path} is not a powerlab run.json ({error})") from None


def shard_info(shard: tuple[int, int] | None, first: int, stop: int) -> dict | None:
    if shard is None:
        return None
    return {"index": shard[0], "count": shard[1], "first": first, "stop": stop}


def check_out_dir(spec: RunSpec, out: Path, shard: tuple[int, int] | None = None) -> None:
    """Refuse, before writing anything, an OUT that holds something other than this run."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise registry.SpecError(f"--out {out} is a file, not a directory")
    existing = load_spec(out)
    if existing is None:
        if out.exists() and any(out.iterdir()):
            raise registry.SpecError(f"--out {out} is not empty and holds no powerlab run")
        return
    if existing.identity() != spec.identity():
        changed = [k for k in IDENTITY_KEYS if existing.identity()[k] != spec.identity()[k]]
        raise registry.SpecError(
            f"--out {out} holds a run with a different {', '.join(changed)}; "
            "use another --out or the same spec"
        )
    stored_shard = storage.read_json(out / "run.json").get("shard")
    wanted_shard = shard_info(shard, *shard_range(spec.games, shard))
    if stored_shard is not None and shard is not None:
        stored_shard = {k: stored_shard[k] for k in ("index", "count")}
        wanted_shard = {"index": shard[0], "count": shard[1]}
    if stored_shard != wanted_shard and (stored_shard or shard):
        raise registry.SpecError(
            f"--out {out} holds shard {stored_shard} of this spec, not {wanted_shard}"
        )
    last = max((first + count for first, count, _ in storage.parts(out)), default=0)
    if shard is None and last > spec.games:
        raise registry.SpecError(
            f"--out {out} already holds {last} games, more than --games {spec.games}"
        )


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
        "created": _now(),
        "finished": None,
        "timings": {},
    }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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


def play_arrays(spec: RunSpec, start: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's ``game_out`` and ``seat_out`` arrays (simcore/chunk.py) for games
    ``start .. start + n - 1`` of ``spec``."""
    game = registry.make(spec.game)
    kernel = game.kernel()
    prepared = kernel.prepare(spec.rules, spec.players)
    ids, params = game.encode_strategies(spec.seat_strategies())
    return kernel.run_chunk(
        prepared, spec.players, ids, params, spec.seed, start, n, spec.rotate_seats
    )


def play_chunk(spec: RunSpec, start: int, n: int) -> pa.Table:
    """Games ``start .. start + n - 1`` of ``spec`` as an Arrow table (local and Dask paths)."""
    game = registry.make(spec.game)
    lineup = spec.lineup() if len(spec.strategies) > 1 else spec.lineup() * spec.players
    return to_table(game, lineup, start, *play_arrays(spec, start, n))


def chunk_plan(ranges: list[tuple[int, int]], chunk_size: int) -> list[tuple[int, int]]:
    """(first index, count) of each chunk covering the [first, stop) ranges."""
    return [
        (start, min(chunk_size, stop - start))
        for first, stop in ranges
        for start in range(first, stop, chunk_size)
    ]


def parse_shard(text: str) -> tuple[int, int]:
    """``K/N`` (1 <= K <= N) → (K, N)."""
    k, slash, n = text.partition("/")
    try:
        k_value, n_value = int(k), int(n)
    except ValueError:
        k_value = n_value = 0
    if not slash or not 1 <= k_value <= n_value:
        raise registry.SpecError(f"--shard expects K/N with 1 <= K <= N, not {text!r}")
    return k_value, n_value


def shard_range(games: int, shard: tuple[int, int] | None) -> tuple[int, int]:
    """The [first, stop) game indices of shard K of N: consecutive, near-equal slices."""
    if shard is None:
        return 0, games
    k, n = shard
    return games * (k - 1) // n, games * k // n


def run(
    spec: RunSpec,
    out: Path,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    progress: Callable[[int, int], None] | None = None,
    shard: tuple[int, int] | None = None,
    scheduler: str | None = None,
) -> dict:
    """Compute every game of ``spec`` (of its ``shard``) that ``out`` lacks; returns run.json.

    ``scheduler`` runs the chunks as Dask tasks (``local:N`` or a scheduler address); without it
    they run here on ``threads`` numba threads.
    """
    out = Path(out)
    check_out_dir(spec, out, shard)
    if chunk_size < 1:
        raise registry.SpecError(f"--chunk-size must be at least 1, not {chunk_size}")
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            used_threads = set_threads(threads)
            play_chunks = _play_here
        else:
            # Connect before writing anything: an unreachable scheduler leaves OUT untouched.
            from simcore import cluster

            used_threads = threads or 1
            client = stack.enter_context(cluster.connect(scheduler))
            play_chunks = functools.partial(
                cluster.play_chunks, client=client, threads=used_threads
            )
        info = _run_chunks(spec, out, chunk_size, progress, shard, play_chunks)
        info["timings"].update(threads=used_threads, chunk_size=chunk_size, scheduler=scheduler)
        storage.write_json(out / "run.json", info)
        return info


def _play_here(spec: RunSpec, chunks: list[tuple[int, int]]):
    return ((start, play_chunk(spec, start, n)) for start, n in chunks)


def _run_chunks(spec, out, chunk_size, progress, shard, play_chunks) -> dict:
    """Write run.json, then every missing chunk of the shard; returns run.json with timings."""
    first, stop = shard_range(spec.games, shard)
    storage.games_dir(out).mkdir(parents=True, exist_ok=True)
    run_json = out / "run.json"
    info = storage.read_json(run_json) if run_json.exists() else run_info(spec)
    info["spec"]["games"] = spec.games
    info["shard"] = shard_info(shard, first, stop)
    info["finished"] = None
    storage.write_json(run_json, info)

    covered = [(start, count) for start, count, _ in storage.parts(out)]
    chunks = chunk_plan(storage.missing_ranges(covered, first, stop), chunk_size)
    done = stop - first - sum(n for _, n in chunks)
    if progress:
        progress(done, stop - first)
    started = time.perf_counter()
    computed = 0
    for start, table in play_chunks(spec, chunks):
        storage.write_part(out, start, table)
        computed += table.num_rows
        if progress:
            progress(done + computed, stop - first)
    seconds = time.perf_counter() - started
    info["finished"] = _now()
    info["timings"] = {
        "seconds": round(seconds, 3),
        "games_computed": computed,
        "games_per_s": round(computed / seconds, 1) if computed and seconds > 0 else None,
    }
    return info


def merge(run_dirs: list[Path], out: Path) -> dict:
    """Combine shard runs of one spec into ``out``: every game index exactly once, or SpecError.

    The merged dataset holds the same rows as one unsharded run of the spec.
    """
    out = Path(out)
    if not run_dirs:
        raise registry.SpecError("merge needs at least one run directory")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise registry.SpecError(f"--out {out} already exists and is not empty")
    specs = []
    for folder in run_dirs:
        spec = load_spec(folder)
        if spec is None:
            raise registry.SpecError(f"{folder} holds no powerlab run (no run.json)")
        specs.append(spec)
    first = specs[0]
    for folder, spec in zip(run_dirs, specs, strict=True):
        if spec.identity() != first.identity() or spec.games != first.games:
            changed = [k for k in IDENTITY_KEYS if spec.identity()[k] != first.identity()[k]]
            what = ", ".join(changed) or "games"
            raise registry.SpecError(
                f"{folder} is a run of a different spec ({what}) than {run_dirs[0]}"
            )
    found = sorted(
        (start, count, path) for folder in run_dirs for start, count, path in storage.parts(folder)
    )
    cursor = 0
    for start, count, path in [*found, (first.games, 0, None)]:  # the sentinel checks the end
        if start < cursor:
            raise registry.SpecError(
                f"game indices {start}-{min(cursor, start + count) - 1} appear twice "
                f"(again in {path.parent.parent}): is a shard given twice?"
            )
        if start > cursor:
            raise registry.SpecError(
                f"game indices {cursor}-{start - 1} are missing: is a shard missing or unfinished?"
            )
        cursor = start + count
    storage.games_dir(out).mkdir(parents=True, exist_ok=True)
    for _, _, path in found:
        storage.atomic_write_bytes(
            storage.games_dir(out) / path.name, lambda tmp, src=path: shutil.copyfile(src, tmp)
        )
    info = run_info(first)
    info["finished"] = _now()
    info["merged_from"] = [str(folder) for folder in run_dirs]
    storage.write_json(out / "run.json", info)
    return info
