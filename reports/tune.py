"""The PDF page of a tune directory (simcore/tuning.py): the search's history and, per searched
parameter, how the win rate responds around the best candidates."""

import textwrap
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from reports.figures import RATE_COLOR, page, wrap_label
from reports.pdf import save_pdf
from simcore import storage

BEST_REGION = 0.25  # the best quarter of the candidates that reached the deepest rung


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def headline(summary: dict) -> str:
    """The tuning's answer in one sentence: fresh-seed win rate and gain over the baseline."""
    fresh = summary["fresh"]
    return (
        f"{summary['best']} wins {_pct(fresh['win_rate'])} [{_pct(fresh['ci_low'])}, "
        f"{_pct(fresh['ci_high'])}] of {fresh['games']:,} fresh games (seed {fresh['seed']}), "
        f"{100 * fresh['diff']:+.1f} points [{100 * fresh['diff_ci_low']:+.1f}, "
        f"{100 * fresh['diff_ci_high']:+.1f}] against its starting parameters "
        f"({_pct(fresh['baseline_win_rate'])}) on the same games; fair share "
        f"{_pct(fresh['fair_share'])}; cut off by the cap: {_pct(fresh['cut_off_share'])} "
        f"(starting parameters {_pct(fresh['baseline_cut_off_share'])})."
    )


def tune_figure(summary: dict, trials: pl.DataFrame) -> Figure:
    """History (left) and parameter response (right) of one search."""
    fields = "; ".join(
        f"{100 * f['weight']:.0f}% {', '.join(f['lineup'])}" for f in summary["fields"]
    )
    fig = page(
        f"Tuning {summary['strategy']} ({summary['game']}, {summary['players']} players)",
        "Left: every candidate's win rate at the last rung it reached (grey: stopped early by "
        "successive halving, blue: played every rung), and the best so far. Right: for each "
        "searched parameter, the candidates' win rates against its value (larger dots reached "
        "deeper rungs; orange: the best quarter of those that played every rung, star: the "
        "winner): a flat cloud means the parameter matters little there. Search games are "
        "shared by all candidates (common random numbers); the headline comes from fresh games. "
        f"Field: {fields}.",
    )
    fig.text(0.06, 0.9, textwrap.fill(headline(summary), 160), fontsize=9, va="top")
    params = [c for c in trials.columns if c.startswith("param_")]
    grid = fig.add_gridspec(
        max(1, -(-len(params) // 2)), 3, left=0.07, right=0.97, top=0.8, bottom=0.22,
        hspace=0.7, wspace=0.35,
    )  # fmt: skip
    history = fig.add_subplot(grid[:, 0])
    rated = trials.filter(pl.col("win_rate").is_not_null())
    complete = rated["state"] == "complete"
    history.scatter(rated["number"], rated["win_rate"], s=10,
                    c=np.where(complete, RATE_COLOR, "lightgrey"))  # fmt: skip
    best = rated.filter(complete).sort("number")
    if best.height:
        history.step(best["number"], np.maximum.accumulate(best["win_rate"].to_numpy()),
                     where="post", color="black", label="best so far")  # fmt: skip
        history.legend(fontsize=8)
    history.set_xlabel("trial")
    history.set_ylabel("win rate at its last rung")
    history.yaxis.set_major_formatter(PercentFormatter(1.0))
    finished = rated.filter(complete).sort("win_rate", descending=True)
    region = finished.head(max(1, int(np.ceil(BEST_REGION * finished.height))))
    winner = summary["best_params"]
    for k, column in enumerate(params):
        ax = fig.add_subplot(grid[k // 2, 1 + k % 2])
        name = column.removeprefix("param_")
        sizes = 4 + 20 * rated["games"].to_numpy() / max(1, rated["games"].max())
        ax.scatter(rated[column].to_list(), rated["win_rate"], s=sizes, color="lightgrey")
        ax.scatter(region[column].to_list(), region["win_rate"], s=14, color="#DD8452")
        if name in winner:
            top = finished["win_rate"][0] if finished.height else None
            ax.scatter([winner[name]], [top], marker="*", s=120, color="black", zorder=3)
        ax.set_title(name, fontsize=9)
        ax.tick_params(labelsize=7)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    return fig


def self_play_figure(summary: dict) -> Figure:
    """Self-play rounds: each round's best response against the incumbent, paired on fresh games."""
    fig = page(
        f"Self-play: {summary['strategy']} ({summary['game']}, {summary['players']} players)",
        "Each round tunes a best response to every other seat playing the incumbent, then "
        "measures it against the incumbent on fresh games (paired difference, 95% interval). "
        "A round whose interval lies above zero makes its winner the new incumbent; the first "
        f"that does not ends the iteration. Stopped because {summary['stopped']}. "
        f"Result: {summary['best']}.",
    )
    ax = fig.add_subplot()
    fig.subplots_adjust(left=0.3, right=0.95, top=0.86, bottom=0.25)
    rounds = summary["rounds"]
    y = np.arange(len(rounds))
    diff = np.array([r["diff"] for r in rounds])
    err = [diff - [r["diff_ci_low"] for r in rounds], [r["diff_ci_high"] for r in rounds] - diff]
    ax.errorbar(diff, y, xerr=err, fmt="o", capsize=4, color="black")
    ax.axvline(0, linestyle="--", color="grey")
    ax.set_yticks(y, [wrap_label(f"round {r['round']}: {r['best']}", 50) for r in rounds],
                  fontsize=7)  # fmt: skip
    ax.invert_yaxis()
    ax.set_xlabel("best response minus incumbent, win rate (95% CI)")
    return fig


def write_tune_report(out: str | Path) -> list[str]:
    """Write OUT/report.pdf of a tune directory; returns the page titles."""
    out = Path(out)
    summary = storage.read_json(out / "summary.json")
    if summary.get("self_play"):
        rounds = [out / f"round-{r['round']}" for r in summary["rounds"]]
        pages = [self_play_figure(summary)] + [
            tune_figure(storage.read_json(folder / "summary.json"),
                        pl.read_parquet(folder / "trials.parquet"))
            for folder in rounds
        ]  # fmt: skip
    else:
        pages = [tune_figure(summary, pl.read_parquet(out / "trials.parquet"))]
    metadata = {
        "Title": f"powerlab tune: {summary['strategy']}",
        "Creator": f"powerlab {version('powerlab')}",
        "CreationDate": datetime.now(UTC),
    }
    save_pdf(pages, out / "report.pdf", metadata)
    return [figure.get_suptitle() for figure in pages]
