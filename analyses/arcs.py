"""How games unfold: the standing of every seat turn by turn, and tension metrics with 95% CIs
(definitions, formulas and their Ludii/TAG counterparts in docs/arcs.md).

The arcs table (``OUT/arcs``) holds, for the games ``--arcs`` sampled, one row per (game, turn,
seat): ``game_index, turn, seat`` and the game's standing values in order of precedence. The
leader after a turn is the seat strictly ahead of every other on the standing (compared value by
value, as the game's own tie-break); a tie at the top means no leader that turn.
"""

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats

from analyses import AnalysisError
from analyses.dataset import CUT_OFF, Run
from analyses.stats import CONFIDENCE, wilson_interval
from simcore.kernel.chunk import ENDINGS

QUANTILES = (0.1, 0.5, 0.9)


@dataclass(frozen=True)
class Arcs:
    """The sampled games' arcs of a run: ``table`` [game_index, turn, seat, standing...,
    strategy], ``standing`` the standing's names (first = primary), ``unit`` what a turn is."""

    table: pl.DataFrame
    standing: list[str]
    unit: str
    share: float


def load_arcs(run: Run) -> Arcs:
    """The arcs of ``run`` with each seat's strategy label, or AnalysisError if it has none."""
    info = run.info.get("arcs")
    if not info:
        raise AnalysisError(f"{run.path}: no arcs recorded (run it with --arcs 1%)")
    files = [run.path / "arcs" / part.name for part in run.parts]
    table = pl.read_parquet(files) if files else pl.DataFrame()
    strategies = (
        run.scan()
        .select(
            "game_index",
            *(pl.col(f"s{k}_strategy").cast(pl.String).alias(str(k)) for k in range(run.players)),
        )
        .unpivot(index="game_index", variable_name="seat", value_name="strategy")
        .with_columns(pl.col("seat").cast(pl.Int8))
    )
    table = table.lazy().join(strategies, on=["game_index", "seat"], how="left").collect()
    standing = [column["name"] for column in info["standing"]]
    return Arcs(table, standing, info["unit"], info["share"])


def leaders(arcs: pl.DataFrame, standing: list[str]) -> pl.DataFrame:
    """[game_index, turn, leader, last]: the seat strictly ahead of all others after each turn
    (-1 on a tie at the top), and the seat strictly behind all others (-1 on a tie at the
    bottom), comparing the standing value by value."""
    ordered = arcs.sort(
        ["game_index", "turn", *standing], descending=[False, False] + [True] * len(standing)
    )
    key = pl.concat_list(standing)
    grouped = ordered.with_columns(key=key).group_by("game_index", "turn", maintain_order=True)
    tops = grouped.agg(
        pl.col("seat").first().alias("top"),
        pl.col("key").first().alias("k1"),
        pl.col("key").get(1, null_on_oob=True).alias("k2"),
        pl.col("seat").last().alias("bottom"),
        pl.col("key").last().alias("kz"),
        pl.col("key").get(-2, null_on_oob=True).alias("ky"),
    )
    return tops.select(
        "game_index",
        "turn",
        pl.when(pl.col("k1") != pl.col("k2")).then(pl.col("top")).otherwise(-1).alias("leader"),
        pl.when(pl.col("kz") != pl.col("ky")).then(pl.col("bottom")).otherwise(-1).alias("last"),
    )


def per_game(arcs: pl.DataFrame, games: pl.DataFrame, standing: list[str]) -> pl.DataFrame:
    """One row per sampled game with a single winner: game_index, turns, lead_changes,
    decisiveness, comeback, drama, runaway (docs/arcs.md has the formulas)."""
    won = games.filter(pl.col("winner") >= 0).select("game_index", "winner")
    lead = leaders(arcs, standing).join(won, on="game_index")
    primary = standing[0]
    values = arcs.select("game_index", "turn", "seat", pl.col(primary).alias("value"))
    top = values.group_by("game_index", "turn").agg(pl.col("value").max().alias("top_value"))
    winner_value = values.join(won, on="game_index").filter(pl.col("seat") == pl.col("winner"))
    behind = (
        winner_value.join(top, on=["game_index", "turn"])
        .group_by("game_index")
        .agg((pl.col("top_value") - pl.col("value")).max().alias("drama"))
    )
    # Is a seat strictly ahead of, or strictly behind, the winner at each turn (for "last")?
    key = pl.concat_list(standing)
    keyed = arcs.join(won, on="game_index").with_columns(key=key)
    winner_key = keyed.filter(pl.col("seat") == pl.col("winner")).select(
        "game_index", "turn", pl.col("key").alias("winner_key")
    )
    compared = keyed.join(winner_key, on=["game_index", "turn"]).with_columns(
        ahead=_lexicographic_greater(pl.col("key"), pl.col("winner_key"), len(standing)),
        behind=_lexicographic_greater(pl.col("winner_key"), pl.col("key"), len(standing)),
    )
    position = compared.group_by("game_index", "turn").agg(
        pl.col("ahead").any().alias("anyone_ahead"), pl.col("behind").any().alias("anyone_behind")
    )
    lead = lead.join(position, on=["game_index", "turn"]).sort("game_index", "turn")
    result = lead.group_by("game_index", maintain_order=True).agg(
        pl.col("turn").max().alias("turns"),
        pl.col("leader").filter(pl.col("leader") >= 0).diff().ne(0).sum().alias("lead_changes"),
        pl.col("leader").alias("leaders"),
        pl.col("winner").first(),
        (pl.col("anyone_ahead") & ~pl.col("anyone_behind")).alias("winner_last"),
    )
    rows = []
    for row in result.iter_rows(named=True):
        turns, leaders_, winner = row["turns"], row["leaders"], row["winner"]
        leads = [seat == winner for seat in leaders_]
        decided_at = turns + 1 - _trailing_true(leads)  # first turn of the winner's final lead
        half = math.ceil(turns / 2) - 1  # 0-based position of the half-way turn
        half_leader = leaders_[half]
        rows.append(
            {
                "game_index": row["game_index"],
                "turns": turns,
                "lead_changes": row["lead_changes"],
                "decisiveness": (decided_at - 1) / turns,
                "comeback": bool(row["winner_last"][half]),
                "runaway": half_leader == winner and all(leads[half:]),
            }
        )
    schema = {
        "game_index": pl.Int64,
        "turns": pl.Int64,
        "lead_changes": pl.Int64,
        "decisiveness": pl.Float64,
        "comeback": pl.Boolean,
        "runaway": pl.Boolean,
    }
    table = pl.DataFrame(rows, schema=schema)
    return table.join(behind, on="game_index").sort("game_index")


def _lexicographic_greater(a: pl.Expr, b: pl.Expr, n: int) -> pl.Expr:
    """``a > b`` for lists of ``n`` values compared value by value."""
    result = pl.lit(False)
    for k in reversed(range(n)):
        ak, bk = a.list.get(k), b.list.get(k)
        result = (ak > bk) | ((ak == bk) & result)
    return result


def _trailing_true(flags: list[bool]) -> int:
    n = 0
    for flag in reversed(flags):
        if not flag:
            break
        n += 1
    return n


# --- metrics with confidence intervals ------------------------------------------------------


def mean_interval(values: np.ndarray) -> tuple[float, float]:
    """Student-t 95% interval of the mean (the closed form; games are independent)."""
    n = len(values)
    if n < 2:
        return math.nan, math.nan
    mean = float(np.mean(values))
    half = stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean - half, mean + half


def quantile_interval(values: np.ndarray, p: float) -> tuple[float, float]:
    """Distribution-free 95% interval of the p-quantile (order statistics, scipy)."""
    if len(values) == 0:
        return math.nan, math.nan
    ci = stats.quantile_test(values, p=p).confidence_interval(CONFIDENCE)
    return float(ci.low), float(ci.high)


def _examples(games: pl.DataFrame, column: str) -> dict[str, int | None]:
    """Game indices of a typical game (value nearest the median, then lowest index) and of the
    most extreme ones (lowest and highest value, lowest index first)."""
    if games.is_empty():
        return {"typical": None, "lowest": None, "highest": None}
    value = pl.col(column).cast(pl.Float64)
    median = games.select(value.median()).item()
    pick = games.with_columns(distance=(value - median).abs())
    return {
        "typical": pick.sort("distance", "game_index")["game_index"][0],
        "lowest": games.sort(column, "game_index")["game_index"][0],
        "highest": games.sort([column, "game_index"], descending=[True, False])["game_index"][0],
    }


METRIC_DOCS = {
    "lead changes": "times the leader changed in a game (mean per game)",
    "decisiveness": "share of the game played before the winner took the lead for good (mean)",
    "comeback": "share of games won by a seat that was last at the half-way turn",
    "drama": "how far behind the leader the winner was at its worst (mean, in {unit})",
    "runaway leader": "share of games whose leader at half-way led to the end and won",
}


def tension(run: Run, arcs: Arcs | None = None) -> pl.DataFrame:
    """The tension metrics of a run with 95% CIs and example games: [metric, value, ci_low,
    ci_high, games, doc, typical, lowest, highest]. Arc metrics need the run's arcs; how games
    end and their length come from every game."""
    rows = []
    games = run.scan().select("game_index", "winner", "turns", "ended_by").collect()
    games = games.with_columns(pl.col("ended_by").cast(pl.String))
    if arcs is not None:
        sampled = sampled_games(run, arcs)
        n = sampled.height
        for metric, column in (
            ("lead changes", "lead_changes"),
            ("decisiveness", "decisiveness"),
            ("drama", "drama"),
        ):
            values = sampled[column].cast(pl.Float64).to_numpy()
            low, high = mean_interval(values)
            doc = METRIC_DOCS[metric].format(unit=arcs.standing[0])
            mean = float(values.mean()) if n else math.nan
            rows.append((metric, mean, low, high, n, doc, _examples(sampled, column)))
        for metric, column in (("comeback", "comeback"), ("runaway leader", "runaway")):
            k = int(sampled[column].sum())
            low, high = wilson_interval(k, n)
            value = k / n if n else math.nan
            rows.append((metric, value, low, high, n, METRIC_DOCS[metric],
                         _examples(sampled, column)))  # fmt: skip
    total = games.height
    for ending in ENDINGS:
        ended = games.filter(pl.col("ended_by") == ending)
        low, high = wilson_interval(ended.height, total)
        example = {"typical": ended["game_index"].min(), "lowest": None, "highest": None}
        rows.append((f"ended by {ending}", ended.height / total, low, high, total,
                     f"share of all games that ended by {ending}", example))  # fmt: skip
    played = games.filter(pl.col("ended_by") != CUT_OFF)
    turns = played["turns"].to_numpy()
    extremes = _examples(played, "turns")
    for p in QUANTILES:
        low, high = quantile_interval(turns, p)
        value = float(np.quantile(turns, p, method="inverted_cdf")) if len(turns) else math.nan
        # A game of exactly that length; the shortest and longest games with the median.
        example = {
            "typical": played.filter(pl.col("turns") == value)["game_index"].min(),
            "lowest": extremes["lowest"] if p == 0.5 else None,
            "highest": extremes["highest"] if p == 0.5 else None,
        }
        rows.append((f"length {int(100 * p)}% quantile", value, low, high, len(turns),
                     f"turns by which {int(100 * p)}% of the games with a result had ended",
                     example))  # fmt: skip
    return pl.DataFrame(
        [(*row[:6], row[6]["typical"], row[6]["lowest"], row[6]["highest"]) for row in rows],
        schema={
            "metric": pl.String,
            "value": pl.Float64,
            "ci_low": pl.Float64,
            "ci_high": pl.Float64,
            "games": pl.Int64,
            "doc": pl.String,
            "typical": pl.Int64,
            "lowest": pl.Int64,
            "highest": pl.Int64,
        },  # fmt: skip
        orient="row",
    )


def standing_bands(arcs: Arcs, value: str, min_games: int = 20) -> pl.DataFrame:
    """[strategy, turn, games, q05, q25, median, q75, q95] of one standing value after each
    turn, over the sampled games still running at that turn (turns with fewer than
    ``min_games`` games are left out: their bands would be noise)."""
    column = pl.col(value)
    return (
        arcs.table.group_by("strategy", "turn")
        .agg(
            pl.col("game_index").n_unique().alias("games"),
            *(
                column.quantile(q, interpolation="nearest").alias(name)
                for q, name in (
                    (0.05, "q05"),
                    (0.25, "q25"),
                    (0.5, "median"),
                    (0.75, "q75"),
                    (0.95, "q95"),
                )
            ),  # fmt: skip
        )
        .filter(pl.col("games") >= min_games)
        .sort("strategy", "turn")
    )


PER_GAME_METRICS = {
    "lead changes": "lead_changes",
    "decisiveness": "decisiveness",
    "drama": "drama",
    "comeback": "comeback",
    "runaway leader": "runaway",
}


def sampled_games(run: Run, arcs: Arcs) -> pl.DataFrame:
    """``per_game`` over the run's sampled games that have a result."""
    games = run.scan().select("game_index", "winner", "ended_by").collect()
    games = games.filter(pl.col("ended_by").cast(pl.String) != CUT_OFF)
    return per_game(arcs.table, games, arcs.standing)


def paired_tension(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    """[metric, diff, ci_low, ci_high, games]: the mean per-game difference A - B of each arc
    metric over the games both runs sampled and both had a single winner in (the sample is by
    game index, so two arms of a study sample the same games: common random numbers), with a
    Student-t 95% interval of the mean difference."""
    both = a.join(b, on="game_index", suffix="_b")
    rows = []
    for metric, column in PER_GAME_METRICS.items():
        diffs = (both[column].cast(pl.Float64) - both[f"{column}_b"].cast(pl.Float64)).to_numpy()
        low, high = mean_interval(diffs)
        mean = float(diffs.mean()) if len(diffs) else math.nan
        rows.append((metric, mean, low, high, len(diffs)))
    return pl.DataFrame(
        rows,
        schema={
            "metric": pl.String,
            "diff": pl.Float64,
            "ci_low": pl.Float64,
            "ci_high": pl.Float64,
            "games": pl.Int64,
        },  # fmt: skip
        orient="row",
    )
