"""Report pages on how games unfold (docs/arcs.md): each strategy's standing over the game with
50% and 90% bands, the tension metrics with 95% CIs, and the replay commands of the games
behind them."""

import math

import polars as pl

from analyses.arcs import Arcs, standing_bands
from analyses.dataset import Run
from analyses.selection import replay_command
from reports.colors import Palette
from reports.toolkit import TEXT_SIZE, ReportPage, label, literal, table_pages
from simcore.workflows.study import swept_value

ARC_METRICS = ("lead changes", "decisiveness", "drama", "comeback", "runaway leader")
RATE_METRICS = ("decisiveness", "comeback", "runaway leader")
MAX_PANELS = 6


def _value(metric: str, value: float) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    if metric in RATE_METRICS or metric.startswith("ended by"):
        return f"{100 * value:.1f}%"
    return f"{value:,.2f}"


def standing_figures(arcs: Arcs, palette: Palette) -> list[ReportPage]:
    """One page per standing value: a panel per strategy, median line, 50% and 90% bands."""
    pages = []
    for value in arcs.standing:
        bands = standing_bands(arcs, value)
        strategies = bands["strategy"].unique(maintain_order=True).to_list()[:MAX_PANELS]
        if not strategies:
            continue
        games = arcs.table["game_index"].n_unique()
        final = bands.group_by("strategy", maintain_order=True).agg(
            pl.col("median").last(), pl.col("turn").last()
        )
        best = final.sort("median", descending=True).row(0, named=True)
        page = ReportPage(
            f"Standing over the game: {value}",
            f"Over {games:,} sampled games, {best['strategy']} has the highest median {value} "
            f"by {arcs.unit.lower()} {best['turn']} ({best['median']:,.0f}).",
            f"{value}: the median (line) after each {arcs.unit.lower()}, with the middle 50% "
            f"(dark band) and 90% (light band) of the seats played by the strategy, over the "
            f"games still running then ({100 * arcs.share:g}% of the run's games, chosen by "
            "game index; turns reached by fewer than 20 of them are left out, so the right end "
            "shows the long games only).",
        )
        axes = page.panel_grid(len(strategies), min(3, len(strategies)), left=1.0, bottom=0.55)
        for ax, strategy in zip(axes, strategies, strict=True):
            rows = bands.filter(pl.col("strategy") == strategy)
            color = palette.color(strategy)
            turn = rows["turn"].to_numpy()
            ax.fill_between(turn, rows["q05"], rows["q95"], color=color, alpha=0.18, lw=0)
            ax.fill_between(turn, rows["q25"], rows["q75"], color=color, alpha=0.4, lw=0)
            ax.plot(turn, rows["median"], color=color, lw=1.8)
            ax.set_title(literal(label(strategy, 2.6)), fontsize=TEXT_SIZE)
            ax.set_xlabel(arcs.unit.lower(), fontsize=TEXT_SIZE)
            ax.tick_params(labelsize=TEXT_SIZE)
        axes[0].set_ylabel(value, fontsize=TEXT_SIZE)
        page.table = bands
        pages.append(page)
    return pages


def tension_table(metrics: pl.DataFrame) -> pl.DataFrame:
    """The metrics as printed: value and 95% CI in their unit, games, definition."""
    return pl.DataFrame(
        {
            "metric": metrics["metric"],
            "value": [
                _value(m, v) for m, v in zip(metrics["metric"], metrics["value"], strict=True)
            ],
            "95% CI": [
                f"[{_value(m, lo)}, {_value(m, hi)}]"
                for m, lo, hi in zip(
                    metrics["metric"], metrics["ci_low"], metrics["ci_high"], strict=True
                )
            ],
            "games": [f"{n:,}" for n in metrics["games"]],
            "definition": metrics["doc"],
        }
    )


def example_table(run: Run, metrics: pl.DataFrame) -> pl.DataFrame:
    """For each metric, the replay command of a typical game and of the most extreme ones."""
    rows = []
    for row in metrics.iter_rows(named=True):
        for which in ("typical", "lowest", "highest"):
            if row[which] is not None:
                rows.append((row["metric"], which, replay_command(run.info, row[which])))
    return pl.DataFrame(rows, schema=["metric", "game", "replay command"], orient="row")


def tension_pages(run: Run, metrics: pl.DataFrame) -> list[ReportPage]:
    """The tension metrics with their CIs, then the commands that replay the games behind them."""
    by_name = {row["metric"]: row for row in metrics.iter_rows(named=True)}
    if "decisiveness" in by_name:
        d, c = by_name["decisiveness"], by_name["comeback"]
        takeaway = (
            f"The winner took the lead for good after {_value('decisiveness', d['value'])} of "
            f"the game on average (95% CI [{_value('decisiveness', d['ci_low'])}, "
            f"{_value('decisiveness', d['ci_high'])}]); {_value('comeback', c['value'])} of the "
            "games were won from last place at half-way."
        )
    else:
        takeaway = "This run records no arcs (run with --arcs 1%): how games end and last only."
    pages = table_pages(
        tension_table(metrics),
        "Tension metrics",
        takeaway,
        "Arc metrics are over the sampled games with a single winner; endings and length over "
        "all games. Means have Student-t intervals, rates Wilson intervals, quantiles "
        "distribution-free order-statistic intervals. Definitions and Ludii/TAG counterparts: "
        "docs/arcs.md.",
        widest=(1.6, 0.8, 1.5, 0.7, 4.5),
    )
    pages[0].table = metrics  # the numbers unrounded, with the example games, for spreadsheets
    pages += table_pages(
        example_table(run, metrics),
        "The games behind the metrics",
        "Each command prints one game turn by turn: the typical game is the one nearest the "
        "median, the others the lowest and highest values.",
        "Paste a command into a shell in the project to see the game it names; the seed and game "
        'index fix it exactly. More: powerlab games-of RUN --where "CONDITION".',
        size=TEXT_SIZE - 1,
        widest=(1.5, 0.8, 7.5),
    )
    return pages


def arc_pages(run: Run, arcs: Arcs | None, metrics: pl.DataFrame) -> list[ReportPage]:
    """The standing pages (with arcs) and the tension pages of a run."""
    pages = []
    if arcs is not None:
        palette = Palette.for_game(run.spec["game"], run.lineup)
        pages += standing_figures(arcs, palette)
    return pages + tension_pages(run, metrics)


def study_arc_pages(study) -> list[ReportPage]:
    """A study's tension metrics per cell, and for each group of cells that differ only in
    their arm, the paired differences of each other arm minus the first (the same games are
    sampled in every arm; the same order as the win-rate pages' paired differences). No pages
    when the study records no arcs."""
    from analyses.arcs import load_arcs, paired_tension, sampled_games, tension

    cells = [cell for cell in study.cells if cell.run.info.get("arcs")]
    if not cells:
        return []
    rows = []
    sampled = {}
    for cell in cells:
        arcs = load_arcs(cell.run)
        sampled[cell.id] = sampled_games(cell.run, arcs)
        printed = tension_table(tension(cell.run, arcs).filter(pl.col("metric").is_in(ARC_METRICS)))
        rows.append(printed.drop("definition").insert_column(0, pl.lit(cell.id).alias("cell")))
    table = pl.concat(rows)
    pages = table_pages(
        table,
        "Tension metrics by cell",
        f"The arc metrics of {len(cells)} cells, each over its sampled games with a single winner.",
        "Definitions and Ludii/TAG counterparts: docs/arcs.md. Means have Student-t, rates "
        "Wilson 95% intervals.",
    )
    paired = []
    groups: dict[tuple, list] = {}
    for cell in cells:
        groups.setdefault(cell.group(), []).append(cell)
    for group in groups.values():
        first = group[0]
        for other in group[1:]:
            diff = paired_tension(sampled[other.id], sampled[first.id])
            where = ", ".join(
                f"{key}={swept_value(key, value)}" for key, value in first.values.items()
            )
            paired.append(
                diff.insert_column(0, pl.lit(where).alias("cells")).insert_column(
                    0, pl.lit(f"{other.arm} − {first.arm}").alias("arms")
                )
            )
    if paired:
        diffs = pl.concat(paired)
        printed = diffs.select(
            "arms",
            "cells",
            "metric",
            pl.format("{}", pl.col("diff").round(3)).alias("difference"),
            pl.format("[{}, {}]", pl.col("ci_low").round(3), pl.col("ci_high").round(3)).alias(
                "95% CI"
            ),
            "games",
        )
        paired_pages = table_pages(
            printed,
            "Tension metrics: paired differences between arms",
            "Per-game differences over the games both arms sampled (the same game indices), "
            "so the intervals are those of a paired comparison.",
            "Rates (comeback, runaway leader, decisiveness) differ in shares: 0.05 is 5 "
            "percentage points. An interval that excludes 0 is a difference this study resolves.",
        )
        paired_pages[0].table = diffs  # unrounded, for spreadsheets
        pages += paired_pages
    return pages
