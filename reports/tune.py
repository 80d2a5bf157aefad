"""The report of a tune directory (simcore/workflows/tuning.py): the search's history, how the win
rate
responds to each searched parameter around the best candidates, and the finalists; for self-play,
the rounds first. Every page is a ``ReportPage`` and meets the legibility contract."""

from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator, PercentFormatter

from reports import takeaways
from reports.export import write_pages
from reports.toolkit import (
    GREY,
    SMALL_SIZE,
    TEXT_SIZE,
    ReportPage,
    label,
    legend,
    literal,
    table_pages,
)
from simcore.workflows import storage

BEST_REGION = 0.25  # the best quarter of the candidates that reached the deepest rung
COMPLETE_COLOR = "#4C72B0"
REGION_COLOR = "#DD8452"
PANELS = 8  # parameter panels per page (4 columns)


def _title(summary: dict, what: str, prefix: str = "") -> str:
    table = f"{summary['game']}, {summary['players']} players"
    return f"{prefix}Tuning {summary['strategy']} ({table}): {what}"


def _field_text(summary: dict) -> str:
    return "; ".join(
        f"{100 * f['weight']:.0f}% {', '.join(f['lineup'])}" for f in summary["fields"]
    )


def history_page(summary: dict, trials: pl.DataFrame, prefix: str = "") -> ReportPage:
    """Every candidate's win rate at its last rung, by trial, and the best so far."""
    page = ReportPage(
        _title(summary, "search history", prefix),
        " ".join(filter(None, [takeaways.settling(summary), takeaways.tuning(summary)])),
        "Each dot is a candidate's win rate at the last rung it reached (grey: stopped early by "
        "successive halving, blue: played every rung); the line is the best finished candidate "
        "so far. Search games are shared by all candidates (common random numbers); the takeaway "
        f"comes from fresh games the search never played. Field: {_field_text(summary)}.",
    )
    ax = page.axes_in_body(left=0.8, right=2.4, bottom=0.5)
    rated = trials.filter(pl.col("win_rate").is_not_null())
    complete = (rated["state"] == "complete").to_numpy()
    numbers, rates = rated["number"].to_numpy(), rated["win_rate"].to_numpy()
    ax.scatter(numbers[~complete], rates[~complete], s=12, color=GREY)
    ax.scatter(numbers[complete], rates[complete], s=16, color=COMPLETE_COLOR)
    if complete.any():
        ax.step(numbers[complete], np.maximum.accumulate(rates[complete]), where="post",
                color="black")  # fmt: skip
    handles = [
        Line2D([], [], color=COMPLETE_COLOR, marker="o", linestyle="none"),
        Line2D([], [], color=GREY, marker="o", linestyle="none"),
        Line2D([], [], color="black"),
    ]
    legend(ax, handles, ["played every rung", "stopped early", "best so far"],
           loc="upper left", bbox_to_anchor=(1.02, 1.0))  # fmt: skip
    ax.set_xlabel("trial", fontsize=TEXT_SIZE)
    ax.set_ylabel("win rate at its last rung", fontsize=TEXT_SIZE)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.tick_params(labelsize=TEXT_SIZE)
    ax.grid(True, alpha=0.3)
    return page


def response_pages(summary: dict, trials: pl.DataFrame, prefix: str = "") -> list[ReportPage]:
    """Per searched parameter, the candidates' win rates against its value."""
    params = [c for c in trials.columns if c.startswith("param_")]
    rated = trials.filter(pl.col("win_rate").is_not_null())
    finished = rated.filter(pl.col("state") == "complete").sort("win_rate", descending=True)
    region = finished.head(max(1, int(np.ceil(BEST_REGION * finished.height))))
    winner = summary["best_params"]
    best_race = summary["finalists"][0]["race_win_rate"]
    chunks = [params[k : k + PANELS] for k in range(0, len(params), PANELS)]
    pages = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        page = ReportPage(
            _title(summary, "parameter response", prefix) + of,
            takeaways.tuning_region(winner, region, [c.removeprefix("param_") for c in chunk]),
            "One panel per searched parameter: every candidate's win rate against its value "
            "(larger dots reached deeper rungs; orange: the best quarter of those that played "
            "every rung; black star: the winner, at its racing win rate). A flat cloud means the "
            "parameter matters little there; a tight orange cluster marks where the best "
            "candidates agree.",
        )
        choice = any(rated[column].dtype == pl.String for column in chunk)
        axes = page.panel_grid(len(chunk), min(4, len(chunk)), left=0.8,
                               bottom=1.2 if choice else 0.45, hspace=1.1 if choice else 0.6,
                               wspace=0.25)  # fmt: skip
        sizes = 6 + 24 * rated["games"].to_numpy() / max(1, rated["games"].max())
        for ax, column in zip(axes, chunk, strict=True):
            name = column.removeprefix("param_")
            ax.scatter(_positions(rated[column]), rated["win_rate"], s=sizes, color=GREY)
            ax.scatter(_positions(region[column]), region["win_rate"], s=16, color=REGION_COLOR)
            if name in winner:
                ax.scatter(_positions(pl.Series([winner[name]])), [best_race],
                           marker="*", s=140, color="black", zorder=3)  # fmt: skip
            ax.set_title(literal(name), fontsize=TEXT_SIZE)
            ax.tick_params(labelsize=SMALL_SIZE)
            if rated[column].dtype == pl.String:  # a choice: its values slanted, never overlapping
                ax.tick_params(axis="x", labelrotation=90)
            else:
                ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
            ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        pages.append(page)
    return pages


def _positions(values: pl.Series) -> list:
    """A parameter's values as plot positions: booleans as 0 and 1."""
    return [int(v) if isinstance(v, bool) else v for v in values.to_list()]


def finalists_pages(summary: dict, prefix: str = "") -> list[ReportPage]:
    table = pl.DataFrame(
        {
            "candidate": [f["spec"] for f in summary["finalists"]],
            "trial": [f["number"] for f in summary["finalists"]],
            "race win rate": [f"{100 * f['race_win_rate']:.2f}%" for f in summary["finalists"]],
            "further games": [f"{100 * f['extra_win_rate']:.2f}%" for f in summary["finalists"]],
            "all its games": [f"{100 * f['win_rate']:.2f}%" for f in summary["finalists"]],
            "games per field": [f"{f['games']:,}" for f in summary["finalists"]],
        }
    )
    return table_pages(
        table,
        _title(summary, "finalists", prefix),
        takeaways.tuning_finalists(summary),
        "The best candidates that played every rung, each replayed on a further block of search "
        "games; the winner is the best over all its games, so one lucky rung does not pick it. "
        f"Search: {summary['search']['trials']} candidates ({summary['search']['completed']} "
        f"played every rung), {summary['search']['games']:,} games, sampler "
        f"{summary['search']['sampler']}, seed {summary['search']['seed']}.",
        widest=(4.2, 0.6, 1.0, 1.0, 1.0, 1.0),
    )


def tuning_pages(summary: dict, trials: pl.DataFrame, prefix: str = "") -> list[ReportPage]:
    return [
        history_page(summary, trials, prefix),
        *response_pages(summary, trials, prefix),
        *finalists_pages(summary, prefix),
    ]


def self_play_page(summary: dict) -> ReportPage:
    """Self-play rounds: each round's best response against the incumbent, paired on fresh games."""
    page = ReportPage(
        f"Self-play: {summary['strategy']} ({summary['game']}, {summary['players']} players)",
        takeaways.self_play(summary),
        "Each round tunes a best response to every other seat playing the incumbent, then "
        "measures it against the incumbent on fresh games (paired difference, 95% interval). A "
        "round whose interval lies above zero makes its winner the new incumbent; the first that "
        "does not ends the iteration. The pages after this one show each round's search.",
    )
    ax = page.axes_in_body(left=4.2, right=0.4, bottom=0.5)
    rounds = summary["rounds"]
    y = np.arange(len(rounds))
    diff = np.array([r["diff"] for r in rounds])
    err = [diff - [r["diff_ci_low"] for r in rounds], [r["diff_ci_high"] for r in rounds] - diff]
    ax.errorbar(diff, y, xerr=err, fmt="o", capsize=4, color="black")
    ax.axvline(0, linestyle="--", color=GREY)
    ax.set_yticks(y, [label(f"round {r['round']}: {r['best']}", 4.0) for r in rounds],
                  fontsize=TEXT_SIZE)  # fmt: skip
    ax.set_ylim(max(len(rounds), 4) - 0.5, -0.5)
    ax.xaxis.set_major_formatter(lambda value, _: f"{100 * value:+.3g}" if value else "0")
    ax.tick_params(axis="x", labelsize=TEXT_SIZE)
    ax.set_xlabel("best response minus incumbent, points (95% CI)", fontsize=TEXT_SIZE)
    return page


def starts_page(summary: dict) -> ReportPage:
    """A multi-start tuning: each search's winner on the same race games."""
    page = ReportPage(
        f"Several searches: {summary['strategy']} ({summary['game']}, {summary['players']} "
        "players)",
        takeaways.multi_start(summary),
        "Each search started from its own root seed and chose its winner on its own games. The "
        "winners then played the same race games (a root seed no search played), win rate with "
        "its 95% interval; the best of them was measured against the starting parameters on "
        "fresh games of yet another seed. The pages after this one show each search.",
    )
    ax = page.axes_in_body(left=4.2, right=0.4, bottom=0.5)
    candidates = summary["race"]["candidates"]
    y = np.arange(len(candidates))
    rate = np.array([c["win_rate"] for c in candidates])
    err = [rate - [c["ci_low"] for c in candidates], [c["ci_high"] for c in candidates] - rate]
    ax.errorbar(rate, y, xerr=err, fmt="o", capsize=4, color="black")
    ax.axvline(1 / summary["players"], linestyle="--", color=GREY)
    names = [
        label(f"search {', '.join(str(k) for k in c['starts'])}: {c['spec']}", 4.0)
        for c in candidates
    ]
    ax.set_yticks(y, names, fontsize=TEXT_SIZE)
    ax.set_ylim(max(len(candidates), 4) - 0.5, -0.5)
    ax.xaxis.set_major_formatter(lambda value, _: f"{100 * value:.3g}%")
    ax.tick_params(axis="x", labelsize=TEXT_SIZE)
    ax.set_xlabel("win rate on the race games (95% CI; dashed: fair share)", fontsize=TEXT_SIZE)
    return page


def report_pages(out: Path) -> tuple[dict, list[ReportPage]]:
    """summary.json of a tune directory and its report's pages."""
    summary = storage.read_tune_summary(out)
    if "starts" in summary:
        numbers = [entry["start"] for entry in summary["starts"]]
        return summary, [starts_page(summary), *_searches(out, "start", "Search", numbers)]
    if not summary.get("self_play"):
        return summary, tuning_pages(summary, pl.read_parquet(out / "trials.parquet"))
    numbers = [entry["round"] for entry in summary["rounds"]]
    return summary, [self_play_page(summary), *_searches(out, "round", "Round", numbers)]


def _searches(out: Path, folder: str, name: str, numbers: list[int]) -> list[ReportPage]:
    """The pages of the searches in OUT/<folder>-<k>/ (self-play rounds, several seeds)."""
    pages = []
    for number in numbers:
        one = out / f"{folder}-{number}"
        summary = storage.read_tune_summary(one)
        trials = pl.read_parquet(one / "trials.parquet")
        pages.extend(tuning_pages(summary, trials, prefix=f"{name} {number}: "))
    return pages


def write_tune_report(out: str | Path, png_dir: str | Path | None = None) -> list[str]:
    """Write OUT/report.pdf of a tune directory (and, with ``png_dir``, every page as a PNG);
    returns the page titles."""
    out = Path(out)
    summary, pages = report_pages(out)
    return write_pages(
        pages,
        f"powerlab tune: {summary['strategy']}",
        f"{summary['strategy']} tuned for {summary['game']} at {summary['players']} players",
        out / "report.pdf",
        png_dir,
    )


def closing_lines(summary: dict, out: Path) -> list[str]:
    """What `powerlab tune` prints at the end: the headline, the starts raced, the best spec."""
    if "rounds" in summary:
        last = summary["rounds"][-1]
        lines = [
            f"{out}: {len(summary['rounds'])} self-play rounds; stopped because "
            f"{summary['stopped']} (last round {100 * last['diff']:+.1f} points)."
        ]
    else:
        lines = [f"{out}: {takeaways.tuning(summary)}"]
        lines += filter(None, [takeaways.settling(summary)])
    if "starts" in summary:
        lines.append(takeaways.multi_start(summary))
    label = "The last incumbent" if summary.get("cycle") else "Best spec"
    best = f"{label} in {out / 'best.txt'}: {summary['best']}; report {out / 'report.pdf'}"
    return [*lines, best]
