"""Loading a run directory (docs/architecture.md) and its seat-long view."""

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from analyses import AnalysisError
from simcore.registry import SpecError
from simcore.workflows import storage

GAME_COLUMNS = ("game_index", "winner", "turns", "ended_by")
# The ``ended_by`` label of a game the simulation's turn cap stopped: it has no result, so every
# analysis of who wins leaves it out (docs/architecture.md).
CUT_OFF = "cap"
SEAT_COLUMNS = ("strategy", "won")


@dataclass(frozen=True)
class Run:
    """A run directory: its parsed run.json, its part files and the columns they hold."""

    path: Path
    info: dict[str, Any]
    players: int
    lineup: list[str]
    parts: tuple[Path, ...]
    columns: tuple[str, ...]

    @property
    def spec(self) -> dict[str, Any]:
        return self.info["spec"]

    @property
    def seat_fields(self) -> list[str]:
        """Per-seat column names without their ``s<k>_`` prefix: strategy, won, the game's own."""
        return [name.removeprefix("s0_") for name in self.columns if name.startswith("s0_")]

    @property
    def strategy_labels(self) -> list[str]:
        """The distinct lineup labels, in lineup order (a label may fill several seats)."""
        return list(dict.fromkeys(self.lineup))

    def scan(self) -> pl.LazyFrame:
        """All games, one row each, lazily."""
        return pl.scan_parquet(list(self.parts))

    def scan_results(self) -> pl.LazyFrame:
        """The games with a result: all but those the simulation's cap cut off."""
        return self.scan().filter(pl.col("ended_by").cast(pl.String) != CUT_OFF)

    def describe(self) -> str:
        """The spec in one line, e.g. for a PDF subject or a console header."""
        spec = self.spec
        rotation = "seats rotated" if spec.get("rotate_seats") else "fixed seats"
        return (
            f"{spec['game']}, {self.players} players: {', '.join(self.lineup)}; "
            f"{spec.get('games')} games, seed {spec.get('seed')}, {rotation}"
        )


def load_run(run_dir: str | Path) -> Run:
    """Open a run directory: run.json through its validating loader, every part verified against
    the manifest (listed, in range, no overlap, checksum), and the Parquet columns the analyses
    rely on. Any problem is one AnalysisError line naming the file."""
    path = Path(run_dir)
    if not path.is_dir():
        raise AnalysisError(f"{path}: no such run directory")
    if not (path / "run.json").exists():
        raise AnalysisError(f"{path}: no run.json, not a powerlab run directory")
    try:
        info = storage.read_run_json(path)
        parts = tuple(part.path(path) for part in storage.parts(path, info))
    except SpecError as error:
        raise AnalysisError(str(error)) from None
    players = info["spec"]["players"]
    lineup = info["lineup"]
    if not parts:
        raise AnalysisError(f"{path}: no games yet (games/part-*.parquet)")
    # Every part's footer, so that a damaged or foreign part fails here in one line rather than
    # as a traceback in the middle of an analysis.
    try:
        schemas = [pl.read_parquet_schema(part) for part in parts]
    except (pl.exceptions.PolarsError, OSError) as error:
        raise AnalysisError(f"{path}: unreadable games ({str(error).splitlines()[0]})") from None
    odd = [part.name for part, schema in zip(parts, schemas, strict=True) if schema != schemas[0]]
    if odd:
        raise AnalysisError(f"{path}: {odd[0]} has other columns than {parts[0].name}")
    columns = tuple(schemas[0])
    impact_fields = [name for group in info["impact"] for name in group["columns"]]
    seat_fields = [*SEAT_COLUMNS, *impact_fields]
    expected = [*GAME_COLUMNS, *(f"s{k}_{f}" for k in range(players) for f in seat_fields)]
    missing = [name for name in expected if name not in columns]
    if missing:
        raise AnalysisError(f"{path}: games lack columns {', '.join(missing)}")
    seat_of = [re.match(r"s(\d+)_", name) for name in columns]
    beyond = [m.string for m in seat_of if m and int(m.group(1)) >= players]
    if beyond:
        raise AnalysisError(
            f"{path}: games have columns of more seats than run.json's {players} players "
            f"({', '.join(beyond[:3])}); {storage.REGENERATE}"
        )
    return Run(path=path, info=info, players=players, lineup=lineup, parts=parts, columns=columns)


def seats_long(run: Run) -> pl.LazyFrame:
    """One row per (game, seat) of the games with a result: game_index, seat, strategy, won,
    turns, ended_by, then the other per-seat columns without their ``s<k>_`` prefix. Strings come
    out as pl.String."""
    games = run.scan_results()
    others = [name for name in run.seat_fields if name not in SEAT_COLUMNS]

    def one_seat(k: int) -> pl.LazyFrame:
        return games.select(
            "game_index",
            pl.lit(k, dtype=pl.Int64).alias("seat"),
            pl.col(f"s{k}_strategy").alias("strategy"),
            pl.col(f"s{k}_won").alias("won"),
            "turns",
            "ended_by",
            *(pl.col(f"s{k}_{name}").alias(name) for name in others),
        )

    # Dictionary columns arrive as Categorical; plain strings concatenate across seats safely.
    return pl.concat([one_seat(k) for k in range(run.players)]).with_columns(
        pl.col(pl.Categorical).cast(pl.String)
    )


def rule_defaults(game_id: str) -> dict:
    """The rulebook's value of every rule of a game this powerlab knows ({} for another: a run of
    a game registered elsewhere), so that reports can list only the rules a run changed."""
    from simcore import registry

    try:
        return {p.name: p.default for p in registry.make(game_id).rules}
    except registry.SpecError:
        return {}
