"""The PDF report of a study directory: response curves, paired differences, stopping."""

from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analyses.ratings import bradley_terry, pooled_matchups
from analyses.study import (
    StudyDir,
    category_table,
    cut_off_warnings,
    load_study_dir,
    paired_table,
    rating_pools,
    summary_table,
)
from reports.answer import answer_figure
from reports.figures import (
    TITLE_SIZE,
    _legend_outside,
    _plot_axes,
    matchup_figure,
    page,
    table_figure,
    wrap_label,
)
from reports.pdf import save_pdf
from simcore import storage

MAX_FOREST_ROWS = 40
MAX_RATING_POOLS = 3


def title_page(study: StudyDir) -> Figure:
    """The study file as run, and the list of cells."""
    fig = page(
        f"powerlab study: {study.info['title']}",
        "The study file below was expanded into one run per cell (arm x swept values x players). "
        "Every cell uses the same seed, so game i of any two cells starts from the same deal: "
        "differences between cells are paired, which removes most of the luck they share.",
    )
    question = study.info.get("question")
    assumptions = study.info.get("assumptions", [])
    top = 0.86
    if question or assumptions:
        lines = [
            *([f"Question: {question}"] if question else []),
            "Assumptions:" if assumptions else "",
        ]
        lines += [f"- {text}" for text in assumptions]
        block = "\n".join(wrap_label(line, 150) for line in lines if line)
        fig.text(0.04, top, block, fontsize=8, va="top")
        top -= 0.02 * (block.count("\n") + 2)
    fig.text(0.04, top, study.info["source"], fontsize=7, family="monospace", va="top")
    warnings = cut_off_warnings(study)
    if warnings:
        fig.text(0.04, 0.1, "\n".join(wrap_label(w, 140) for w in warnings[:5]), fontsize=7,
                 color="firebrick", va="bottom")  # fmt: skip
    cells = [f"{cell.id}: {cell.run.describe()}" for cell in study.cells]
    fig.text(0.55, 0.86, "\n".join(wrap_label(c, 70) for c in cells), fontsize=7, va="top")
    return fig


def response_figure(summary: pl.DataFrame, axes: list[str], axis: str, kind: str) -> Figure:
    """Estimate ± 95% interval against one swept value, one line per strategy or seat (and per
    combination of the other swept values and arms)."""
    what = "strategy" if kind == "strategy" else "seat"
    fig = page(
        f"Win rate by {what} against {axis}",
        f"Each line follows one {what} as {axis} changes; points are win rates, whiskers their "
        "95% Wilson confidence intervals. Where whiskers of neighbouring points do not overlap, "
        f"changing {axis} really moved that {what}'s chances. Other swept values and arms, if "
        "any, are in the legend.",
    )
    ax = _plot_axes(fig)
    rows = summary.filter(pl.col("kind") == kind)
    others = ["arm", "name"]
    others += [other for other in axes if other != axis]
    for key, line in rows.sort(axis).group_by(others, maintain_order=True):
        rate = line["win_rate"].to_numpy()
        yerr = [rate - line["ci_low"].to_numpy(), line["ci_high"].to_numpy() - rate]
        label = ", ".join(f"{value}" for value in key if value != "main")
        ax.errorbar(line[axis], rate, yerr=yerr, marker="o", capsize=3, label=wrap_label(label))
    ax.set_xlabel(axis)
    ax.set_ylabel("win rate (95% CI)")
    ax.grid(True, alpha=0.3)
    _legend_outside(ax)
    return fig


def stat_response_figure(summary: pl.DataFrame, axes: list[str], axis: str) -> Figure:
    """Each per-seat statistic the game records (its mean per seat and game) against one swept
    value, one small panel per statistic, one line per strategy."""
    stats = [c for c in summary.columns if c.startswith("mean_")]
    fig = page(
        f"What strategies do, against {axis}",
        f"One panel per statistic the game records for each seat (its mean per game); each line "
        f"follows one strategy as {axis} changes (other swept values and arms in the legend). "
        "These explain the win-rate curves: e.g. how often a move is made, what it costs.",
    )
    columns = 4
    grid = fig.add_gridspec(
        -(-len(stats) // columns), columns, left=0.06, right=0.8, top=0.9, bottom=0.14,
        hspace=0.6, wspace=0.35,
    )  # fmt: skip
    rows = summary.filter(pl.col("kind") == "strategy").sort(axis)
    others = ["arm", "name", *(other for other in axes if other != axis)]
    for k, stat in enumerate(stats):
        ax = fig.add_subplot(grid[k // columns, k % columns])
        for key, line in rows.group_by(others, maintain_order=True):
            label = ", ".join(f"{value}" for value in key if value != "main")
            ax.plot(line[axis], line[stat], marker="o", markersize=3, label=wrap_label(label))
        ax.set_title(stat.removeprefix("mean_"), fontsize=8)
        ax.tick_params(labelsize=7)
        ax.set_xlabel(axis, fontsize=7)
    handles, labels = fig.axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center right", fontsize=8, frameon=False)
    return fig


def category_study_figure(table: pl.DataFrame) -> Figure:
    """``study.category_table`` rows of one column: a stacked bar of value shares per cell."""
    doc = table["doc"][0]
    fig = page(
        f"{doc[:1].upper() + doc[1:]}, cell by cell",
        "Each bar is one cell of the study, split into the share of its games that ended with "
        "each value (printed when at least 4%); the cell's swept values are on the left. Compare "
        "bars to see how the swept settings change how games end.",
    )
    ax = _plot_axes(fig)
    cells = list(dict.fromkeys(table["cell"]))
    values = list(dict.fromkeys(table.sort("games", descending=True)["value"]))
    left = np.zeros(len(cells))
    colors = [colormaps["tab10"](k % 10) for k in range(len(values))]
    for value, color in zip(values, colors, strict=True):
        rows = table.filter(pl.col("value") == value)
        share_of = dict(zip(rows["cell"], rows["share"], strict=True))
        shares = np.array([share_of.get(cell, 0.0) for cell in cells])
        ax.barh(range(len(cells)), shares, left=left, color=color, height=0.6, label=value)
        for row, (start, share) in enumerate(zip(left, shares, strict=True)):
            if share >= 0.04:
                ax.text(start + share / 2, row, f"{100 * share:.0f}%", ha="center", va="center",
                        fontsize=7)  # fmt: skip
        left += shares
    ax.set_yticks(range(len(cells)), [wrap_label(cell, 30) for cell in cells], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of the cell's games")
    _legend_outside(ax)
    return fig


def forest_figure(paired: pl.DataFrame) -> Figure:
    """Paired differences arm − baseline with 95% intervals, one row per cell and focal."""
    rows = paired.head(MAX_FOREST_ROWS)
    fig = page(
        "Paired differences between arms",
        f"Each row is an arm's win rate minus the baseline arm's ({rows['baseline'][0]}) for one "
        "strategy or seat, on the same games (common random numbers), with its 95% interval. "
        "Rows whose interval misses the dashed zero line are real differences. 'VR' is the "
        "variance-reduction factor: how many times more games an unpaired comparison would need.",
    )
    ax = _plot_axes(fig)
    y = np.arange(len(rows))
    diff = rows["diff"].to_numpy()
    err = [diff - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - diff]
    ax.errorbar(diff, y, xerr=err, fmt="o", capsize=3, color="black")
    ax.axvline(0, linestyle="--", color="grey")
    labels = [
        f"{row['arm']} [{row['group']}] {row['focal']}" if row["group"] else
        f"{row['arm']}: {row['focal']}" for row in rows.iter_rows(named=True)
    ]  # fmt: skip
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    for k, row in enumerate(rows.iter_rows(named=True)):
        ax.text(1.02, k, f"{100 * row['diff']:+.2f} pts, VR {row['variance_reduction']:.1f}",
                transform=ax.get_yaxis_transform(), va="center", fontsize=8)  # fmt: skip
    ax.set_xlabel("difference in win rate, arm minus baseline (95% CI)")
    return fig


def ratings_figure(ratings: pl.DataFrame, pool: str) -> Figure:
    """Bradley–Terry ratings, ranked, with 95% intervals and their values as a table."""
    fig = page(
        f"Ratings (Bradley–Terry): {pool}",
        "Cells pooled: those with the same players and rules. Each strategy's rating on the Elo "
        "scale (mean 0), strongest on top, "
        "fitted to who beat whom (a win beats every other strategy at the table). 400 points "
        "apart means the stronger wins 10 to 1 head to head; whiskers are 95% intervals, so "
        "strategies whose whiskers overlap are not clearly ranked.",
    )
    ax = _plot_axes(fig)
    y = np.arange(len(ratings))
    rating = ratings["rating"].to_numpy()
    err = [rating - ratings["ci_low"].to_numpy(), ratings["ci_high"].to_numpy() - rating]
    ax.errorbar(rating, y, xerr=err, fmt="o", capsize=4, color="black")
    ax.set_yticks(y, [wrap_label(label) for label in ratings["strategy"]], fontsize=9)
    ax.invert_yaxis()
    for k, row in enumerate(ratings.iter_rows(named=True)):
        ax.text(1.02, k, f"#{k + 1}  {row['rating']:+.0f} [{row['ci_low']:+.0f}, "
                f"{row['ci_high']:+.0f}]\nn = {row['games']:,}",
                transform=ax.get_yaxis_transform(), va="center", fontsize=9)  # fmt: skip
    ax.axvline(0, linestyle="--", color="grey")
    ax.set_xlabel("rating (Elo scale, 95% CI)")
    return fig


def stopping_figure(study: StudyDir) -> Figure:
    """How many games each sequentially stopped cell (or SPRT pair) played, and why."""
    table = pl.DataFrame(
        [{**entry, "cells": " vs ".join(entry["cells"])} for entry in study.info["stopping"]],
        infer_schema_length=None,
    )
    return table_figure(
        table,
        "Sequential stopping",
        "Cells grew by whole steps of games until the focal estimate was precise enough "
        "(half_width: half the 95% interval) or, for an SPRT pair, until the log-likelihood "
        "ratio (llr) crossed a bound (verdict), or the cap was reached. The stored games equal a "
        "fixed run of the same size.",
    )


def study_pages(study: StudyDir, summary: pl.DataFrame) -> list[Figure]:
    """Answer, title, response curves per swept key, paired differences, matchups and ratings per
    pool of cells with the same rules, and stopping, as present."""
    pages = [answer_figure(study), title_page(study)]
    for axis in study.axes:
        pages.append(response_figure(summary, study.axes, axis, "strategy"))
        pages.append(response_figure(summary, study.axes, axis, "seat"))
        if any(column.startswith("mean_") for column in summary.columns):
            pages.append(stat_response_figure(summary, study.axes, axis))
    categories = category_table(study)
    if len(categories):
        for _, rows in categories.group_by("column", maintain_order=True):
            pages.append(category_study_figure(rows))
    paired = paired_table(study)
    if not paired.is_empty():
        pages.append(forest_figure(paired))
    for pool, runs in rating_pools(study)[:MAX_RATING_POOLS]:
        matchups = pooled_matchups(runs)
        matchups_page = matchup_figure(matchups, runs[0].players)
        matchups_page.suptitle(
            f"{matchups_page.get_suptitle()}: {pool}", fontsize=TITLE_SIZE, fontweight="bold"
        )
        pages.append(matchups_page)
        pages.append(ratings_figure(bradley_terry(matchups), pool))
    if study.info["stopping"]:
        pages.append(stopping_figure(study))
    return pages


def write_study_report(study_dir: str | Path) -> list[str]:
    """Write STUDY_DIR/summary.parquet and STUDY_DIR/report.pdf; return the page titles."""
    study = load_study_dir(study_dir)
    summary = summary_table(study)
    storage.atomic_write_bytes(study.path / "summary.parquet", summary.write_parquet)
    pages = study_pages(study, summary)
    metadata = {
        "Title": f"powerlab study: {study.info['title']}",
        "Creator": f"powerlab {version('powerlab')}",
        "CreationDate": datetime.now(UTC),
    }
    save_pdf(pages, study.path / "report.pdf", metadata)
    return [figure.get_suptitle() for figure in pages]
