"""The PDF report of a meta-game directory: payoffs, the equilibrium mix, regrets, alpha-rank."""

import math
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analyses.meta import field_matrix, load_meta, payoff_table, solve, summary_lines
from reports.figures import RATE_COLOR, _plot_axes, page, wrap_label
from reports.pdf import save_pdf
from simcore import storage


def field_figure(labels: list[str], matrix: np.ndarray, players: int) -> Figure:
    """Heatmap: the row strategy's win share when every other seat plays the column strategy."""
    fig = page(
        "Payoffs: each strategy against a field of one strategy",
        f"Cell (row, column): the win share of a seat playing the row strategy when the other "
        f"{players - 1} seat(s) all play the column strategy; the diagonal is the mirror. Above "
        f"the fair share 1/{players} (white) the row strategy exploits that field. Every lineup's "
        "payoffs, with 95% intervals, are in payoffs.parquet; the solution below uses them all.",
    )
    fig.subplots_adjust(left=0.2, right=0.78, top=0.86, bottom=0.3)
    ax = fig.add_subplot()
    fair = 1 / players
    norm = TwoSlopeNorm(vcenter=fair, vmin=0.0, vmax=max(float(np.nanmax(matrix)), fair + 1e-6))
    image = ax.imshow(matrix, cmap="RdBu", norm=norm)
    for (r, c), value in np.ndenumerate(matrix):
        ax.text(c, r, f"{100 * value:.0f}%", ha="center", va="center", fontsize=8)
    ticks = [wrap_label(label, 18) for label in labels]
    ax.set_xticks(range(len(labels)), ticks, fontsize=7, rotation=45, ha="right")
    ax.set_yticks(range(len(labels)), ticks, fontsize=7)
    ax.set_xlabel("field (every other seat)")
    ax.set_ylabel("strategy")
    fig.colorbar(image, ax=ax, format=PercentFormatter(1.0), fraction=0.04)
    return fig


def _bars(ax, labels, values, low, high, color=RATE_COLOR) -> None:
    values, low, high = (np.asarray(v, dtype=float) for v in (values, low, high))
    rows = np.arange(len(labels))
    ax.barh(rows, values, color=color, height=0.6)
    ok = ~np.isnan(low)  # an interval from resamples need not contain the point estimate
    ax.hlines(rows[ok], low[ok], high[ok], color="black")
    ax.plot(low[ok], rows[ok], "|", high[ok], rows[ok], "|", color="black", markersize=8)
    ax.set_yticks(rows, [wrap_label(label, 30) for label in labels], fontsize=8)
    ax.invert_yaxis()


def equilibrium_figure(solution: dict) -> Figure:
    labels = solution["labels"]
    equilibrium = solution["equilibrium"]
    fig = page(
        "Equilibrium mix",
        "A symmetric Nash equilibrium of the game over these strategies (gambit: the limit of "
        "the logit quantal-response path from the uniform mix): if every seat draws its strategy "
        "from this mix, no seat gains by switching. Whiskers: 2.5-97.5% of the mixes solved on "
        f"{solution['resamples']} resamples of the games (the same games for every lineup). "
        "A strategy with no bar is not part of the equilibrium. "
        + " ".join(summary_lines(solution)),
    )
    ax = _plot_axes(fig)
    if equilibrium is None:
        ax.text(0.5, 0.5, "no symmetric equilibrium found", ha="center", transform=ax.transAxes)
        return fig
    _bars(ax, labels, equilibrium["mix"], equilibrium["mix_ci_low"], equilibrium["mix_ci_high"])
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of seats in the equilibrium mix")
    return fig


def regret_figure(solution: dict) -> Figure:
    labels = solution["labels"]
    equilibrium = solution["equilibrium"]
    fig = page(
        "Regrets against the equilibrium",
        "What a seat gains (in win share) by switching from the equilibrium mix to each "
        "strategy while every other seat keeps the mix: 0 for the strategies in the mix, "
        "negative for the others (how far each is from being worth playing). Whiskers: the same "
        "regret in the resampled payoffs; one reaching above 0 could belong in the mix.",
    )
    ax = _plot_axes(fig)
    if equilibrium is None:
        return fig
    _bars(ax, labels, equilibrium["regrets"], equilibrium["regret_ci_low"],
          equilibrium["regret_ci_high"], color="#DD8452")  # fmt: skip
    ax.axvline(0, color="black", linewidth=1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(f"gain by deviating (the mix wins {100 * equilibrium['value']:.1f}% per seat)")
    return fig


def alpharank_figure(solution: dict) -> Figure:
    labels = solution["labels"]
    ranking = solution["alpharank"]
    alpha = ranking["headline_alpha"]
    listed = ranking["mass"][str(alpha)]
    mass = np.full(len(labels), np.nan) if listed is None else np.array(listed)
    fig = page(
        f"Alpha-rank (alpha = {alpha:g})",
        "OpenSpiel's alpha-rank: the long-run share of time a population spends on each "
        "strategy when it keeps switching to better-paying ones (selection strength alpha). "
        "Right: the rank at other alphas (inf = only strict improvements count) and, over the "
        "resamples of the games, the share ranking the strategy first and its rank range. A "
        "ranking whose ranks change across these is sensitive to assumptions and luck.",
    )
    fig.subplots_adjust(left=0.2, right=0.55, top=0.86, bottom=0.2)
    ax = fig.add_subplot()
    _bars(ax, labels, mass, [math.nan] * len(mass), [math.nan] * len(mass))
    ax.set_xlim(0, 1)
    ax.set_xlabel("alpha-rank mass")
    header = "rank at alpha " + " ".join(f"{a:>5}" for a in ranking["ranks"]) + "   first  range"
    lines = [header]
    for j, label in enumerate(labels):
        per_alpha = " ".join(
            f"{'n/a' if r is None else r[j]:>5}" for r in ranking["ranks"].values()
        )
        first = ranking["first_share"][j]
        spread = (
            f"{ranking['rank_low'][j]:.0f}-{ranking['rank_high'][j]:.0f}"
            if first is not None
            else "n/a"
        )
        share = f"{100 * first:4.0f}%" if first is not None else "  n/a"
        lines.append(f"{label[:13]:<13} {per_alpha}   {share}  {spread}")
    fig.text(0.57, 0.84, "\n".join(lines), family="monospace", fontsize=7, va="top")
    return fig


def write_meta_report(out: str | Path, resamples: int) -> dict:
    """Solve the meta-game in OUT; write OUT/payoffs.parquet, OUT/solution.json and
    OUT/report.pdf. Returns the solution."""
    meta = load_meta(out)
    storage.atomic_write_bytes(meta.path / "payoffs.parquet", payoff_table(meta).write_parquet)
    solution = solve(meta, resamples, seed=meta.info["spec"]["seed"])
    storage.write_json(meta.path / "solution.json", solution)
    pages = [
        field_figure(meta.labels, field_matrix(meta), meta.players),
        equilibrium_figure(solution),
        regret_figure(solution),
        alpharank_figure(solution),
    ]
    metadata = {
        "Title": f"powerlab meta: {meta.info['spec']['game']}",
        "Creator": f"powerlab {version('powerlab')}",
        "CreationDate": datetime.now(UTC),
    }
    save_pdf(pages, meta.path / "report.pdf", metadata)
    return solution
