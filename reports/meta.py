"""The report of a meta-game directory: payoffs, the equilibrium mix, regrets, alpha-rank.

Every page is a ``ReportPage`` (reports/toolkit.py) and meets the legibility contract: strategies
are named on the y axis of each bar chart, and by number (S1, S2, ...) across the heatmap, whose
rows name them in full.
"""

import math
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.colors import TwoSlopeNorm
from matplotlib.ticker import PercentFormatter

from analyses.meta import field_matrix, load_meta, payoff_table, solve
from reports import takeaways
from reports.colors import Palette
from reports.export import write_pages
from reports.toolkit import SMALL_SIZE, TEXT_SIZE, ReportPage, label, table_pages
from simcore.workflows import storage

LABEL_WIDTH = 2.6  # inches of strategy label left of a bar chart
MAX_ANNOTATED = 12  # a heatmap of more strategies leaves its cells unlabelled


def _short(j: int) -> str:
    return f"S{j + 1}"


def field_page(labels: list[str], matrix: np.ndarray, players: int) -> ReportPage:
    """Heatmap: the row strategy's win share when every other seat plays the column strategy."""
    fair = 1 / players
    page = ReportPage(
        "Payoffs: each strategy against a field of one strategy",
        takeaways.field_edges(labels, matrix, fair),
        f"Cell (row, column): the win share of a seat playing the row strategy when the other "
        f"{players - 1} seat(s) all play the column strategy (columns numbered as the rows); the "
        f"diagonal is the mirror. Blue: above the fair share 1/{players} (the row strategy "
        "exploits that field), red: below. Every lineup's payoffs, with 95% intervals, are in "
        "payoffs.parquet; the solution on the next pages uses them all.",
    )
    ax = page.axes_in_body(left=LABEL_WIDTH + 0.5, right=1.2, bottom=0.5)
    norm = TwoSlopeNorm(vcenter=fair, vmin=0.0, vmax=max(float(np.nanmax(matrix)), fair + 1e-6))
    image = ax.imshow(matrix, cmap="RdBu", norm=norm, aspect="auto")
    if len(labels) <= MAX_ANNOTATED:
        for (r, c), value in np.ndenumerate(matrix):
            ax.text(c, r, f"{100 * value:.0f}%", ha="center", va="center", fontsize=SMALL_SIZE)
    ticks = range(len(labels))
    ax.set_xticks(ticks, [_short(j) for j in ticks], fontsize=TEXT_SIZE)
    ax.set_yticks(
        ticks, [label(f"{_short(j)} {name}", LABEL_WIDTH) for j, name in enumerate(labels)],
        fontsize=TEXT_SIZE,
    )  # fmt: skip
    ax.set_xlabel("field: the strategy every other seat plays", fontsize=TEXT_SIZE)
    bar = page.colorbar(image, ax=ax, format=PercentFormatter(1.0), fraction=0.04)
    bar.ax.tick_params(labelsize=TEXT_SIZE)
    return page


def _bars(page: ReportPage, labels, values, low, high, palette: Palette):
    ax = page.axes_in_body(left=LABEL_WIDTH + 0.3, right=0.4, bottom=0.5)
    values, low, high = (np.asarray(v, dtype=float) for v in (values, low, high))
    rows = np.arange(len(labels))
    ax.barh(rows, values, color=[palette.color(name) for name in labels], height=0.6)
    ok = ~np.isnan(low)  # an interval from resamples need not contain the point estimate
    ax.hlines(rows[ok], low[ok], high[ok], color="black")
    ax.plot(low[ok], rows[ok], "|", high[ok], rows[ok], "|", color="black", markersize=8)
    ax.set_yticks(rows, [label(name, LABEL_WIDTH) for name in labels], fontsize=TEXT_SIZE)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.tick_params(axis="x", labelsize=TEXT_SIZE)
    ax.grid(True, axis="x", alpha=0.3)
    return ax


def equilibrium_page(solution: dict, palette: Palette) -> ReportPage:
    labels, equilibrium = solution["labels"], solution["equilibrium"]
    page = ReportPage(
        "Equilibrium mix",
        takeaways.equilibrium(solution),
        "A symmetric Nash equilibrium of the game over these strategies (gambit: the limit of "
        "the logit quantal-response path from the uniform mix): if every seat draws its strategy "
        "from this mix, no seat gains by switching. Whiskers: 2.5–97.5% of the mixes solved on "
        f"{solution['resamples']} resamples of the games (the same games for every lineup). "
        "A strategy with no bar is not part of the equilibrium.",
    )
    if equilibrium is None:
        return page
    ax = _bars(page, labels, equilibrium["mix"], equilibrium["mix_ci_low"],
               equilibrium["mix_ci_high"], palette)  # fmt: skip
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of seats in the equilibrium mix", fontsize=TEXT_SIZE)
    return page


def regret_page(solution: dict, palette: Palette) -> ReportPage:
    labels, equilibrium = solution["labels"], solution["equilibrium"]
    page = ReportPage(
        "Regrets against the equilibrium",
        takeaways.regrets(solution),
        "What a seat gains (in win share) by switching from the equilibrium mix to each "
        "strategy while every other seat keeps the mix: 0 for the strategies in the mix, "
        "negative for the others (how far each is from being worth playing). Whiskers: the same "
        "regret in the resampled payoffs; one reaching above 0 could belong in the mix.",
    )
    if equilibrium is None:
        return page
    ax = _bars(page, labels, equilibrium["regrets"], equilibrium["regret_ci_low"],
               equilibrium["regret_ci_high"], palette)  # fmt: skip
    ax.axvline(0, color="black", linewidth=1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(
        f"gain by deviating (the mix wins {100 * equilibrium['value']:.1f}% per seat)",
        fontsize=TEXT_SIZE,
    )
    return page


def alpharank_pages(solution: dict, palette: Palette) -> list[ReportPage]:
    """The alpha-rank mass at the headline alpha, then the ranks at every alpha and over the
    resamples as a table."""
    labels, ranking = solution["labels"], solution["alpharank"]
    alpha = ranking["headline_alpha"]
    listed = ranking["mass"][str(alpha)]
    mass = np.full(len(labels), np.nan) if listed is None else np.array(listed)
    sentence = takeaways.alpharank(solution)
    page = ReportPage(
        f"Alpha-rank (alpha = {alpha:g})",
        sentence,
        "OpenSpiel's alpha-rank: the long-run share of time a population spends on each "
        "strategy when it keeps switching to better-paying ones (selection strength alpha). The "
        "next page gives the rank at other alphas (inf: only strict improvements count) and, over "
        "the resamples of the games, the share ranking each strategy first and its rank range: a "
        "ranking that changes across these is sensitive to assumptions and luck.",
    )
    nothing = [math.nan] * len(mass)
    ax = _bars(page, labels, np.nan_to_num(mass), nothing, nothing, palette)
    ax.set_xlim(0, 1)
    ax.set_xlabel("alpha-rank mass", fontsize=TEXT_SIZE)
    rows = []
    for j, name in enumerate(labels):
        row = {"strategy": name}
        for key, ranks in ranking["ranks"].items():
            row[f"rank at alpha {key}"] = "n/a" if ranks is None else str(ranks[j])
        first = ranking["first_share"][j]
        row["ranked first (resamples)"] = "n/a" if first is None else f"{100 * first:.0f}%"
        row["rank range"] = (
            "n/a"
            if first is None
            else f"{ranking['rank_low'][j]:.0f}–{ranking['rank_high'][j]:.0f}"
        )
        rows.append(row)
    table = table_pages(
        pl.DataFrame(rows),
        "Alpha-rank at every alpha and over the resamples",
        sentence,
        f"Ranks (1 = most mass) at each selection strength alpha; 'ranked first' and 'rank range' "
        f"over the {ranking['ranked_resamples']} resamples whose ranking at alpha {alpha:g} was "
        "unique. Ties share a rank.",
        widest=(3.2, *([0.9] * (len(rows[0]) - 1))),
    )
    return [page, *table]


def report_pages(meta, solution: dict) -> list[ReportPage]:
    palette = Palette.for_game(meta.info["spec"]["game"], meta.labels)
    return [
        field_page(meta.labels, field_matrix(meta), meta.players),
        equilibrium_page(solution, palette),
        regret_page(solution, palette),
        *alpharank_pages(solution, palette),
    ]


def write_meta_report(out: str | Path, resamples: int, png_dir: str | Path | None = None) -> dict:
    """Solve the meta-game in OUT; write OUT/payoffs.parquet, OUT/solution.json and
    OUT/report.pdf (and, with ``png_dir``, every page as a PNG). Returns the solution."""
    meta = load_meta(out)
    storage.atomic_write_bytes(meta.path / "payoffs.parquet", payoff_table(meta).write_parquet)
    solution = solve(meta, resamples, seed=meta.info["spec"]["seed"])
    storage.write_json(meta.path / "solution.json", solution)
    spec = meta.info["spec"]
    write_pages(
        report_pages(meta, solution),
        f"powerlab meta: {spec['game']}",
        f"The meta-game of {len(meta.labels)} strategies at {spec['players']} players",
        meta.path / "report.pdf",
        png_dir,
    )
    return solution
