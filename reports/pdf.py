"""Assembling analysis pages into a PDF report of one run directory."""

import json
import os
import textwrap
from collections.abc import Iterable
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from analyses.card_impact import card_impact
from analyses.dataset import Run, load_run
from analyses.impact import impact
from analyses.length import cut_off_warning, game_length
from analyses.metrics import ludii_metrics
from analyses.outcomes import category_columns, category_shares
from analyses.seat_stats import seat_stat_means, winner_stat_means
from analyses.winrates import by_seat, by_strategy, convergence, seat_advantage
from reports.figures import (
    card_impact_figures,
    category_figure,
    convergence_figure,
    game_length_figure,
    impact_figure,
    page,
    seat_advantage_figure,
    seat_stats_figure,
    seat_winrate_figure,
    strategy_winrate_figure,
    table_figure,
    winner_stats_figure,
)

BLOCK_WIDTH = 44  # characters per line in a title-page column
BLOCK_HEIGHT = 350  # font points x lines that fit between a column heading and the caption


def _text_block(fig: Figure, x: float, heading: str, lines: list[str]) -> None:
    """A titled column of monospaced lines on the title page, shrunk to fit when long."""
    wrapped = [
        part
        for line in lines
        for part in textwrap.wrap(line, BLOCK_WIDTH, subsequent_indent="      ") or [""]
    ]
    size = min(10.0, BLOCK_HEIGHT / max(len(wrapped), 1))
    fig.text(x, 0.86, heading, fontsize=13, fontweight="bold", va="top")
    fig.text(x, 0.81, "\n".join(wrapped), fontsize=size, family="monospace", va="top")


def _value(value: Any) -> str:
    return json.dumps(value) if isinstance(value, dict | list) else str(value)


def title_page(run: Run) -> Figure:
    """The full spec (game, players, lineup, rule parameters, seed, games, rotation) and the
    provenance of the run."""
    spec = run.spec
    fig = page(
        f"powerlab report: {spec['game']}",
        "Every number in this report comes from the run described here: the same specification "
        "(game, rules, strategies, seed, number of games) reproduces the same games exactly. "
        "Seat rotation means each strategy sits in every seat equally often.",
    )
    strategies = [
        line
        for k, (label, strategy) in enumerate(zip(run.lineup, spec["strategies"], strict=True))
        for line in (f"  seat {k}: {label}", f"    {_value(strategy.get('params', {}))}")
    ]
    specification = [
        f"game: {spec['game']}",
        f"players: {run.players}",
        "lineup (seating of game 0):",
        *strategies,
        f"seed: {spec.get('seed')}",
        f"games: {spec.get('games')}",
        f"seat rotation: {'yes' if spec.get('rotate_seats') else 'no'}",
    ]
    rules = [f"{name} = {_value(value)}" for name, value in spec.get("rules", {}).items()]
    timings = run.info.get("timings") or {}
    length = game_length(run)
    endings = category_shares(run, "ended_by")
    warning = cut_off_warning(length.cut_off_share)
    provenance = [
        f"powerlab version: {run.info.get('powerlab_version')}",
        f"created: {run.info.get('created')}",
        f"finished: {run.info.get('finished') or 'not finished'}",
        f"games in the data: {length.games:,}",
        "ended by: "
        + ", ".join(
            f"{value} {100 * share:.1f}%"
            for value, share in zip(endings["value"], endings["share"], strict=True)
        ),
        *([warning.upper()] if warning else []),
        f"run time (s): {timings.get('seconds')}",
        f"games per second: {timings.get('games_per_s')}",
        f"threads: {timings.get('threads')}",
        f"run directory: {run.path}",
    ]
    _text_block(fig, 0.04, "Specification", specification)
    _text_block(fig, 0.37, "Rules", rules or ["(none)"])
    _text_block(fig, 0.68, "Provenance", provenance)
    return fig


def run_pages(run: Run) -> list[Figure]:
    """Every analysis of one run as report pages, title page excluded."""
    pages = [
        seat_winrate_figure(by_seat(run), run.players),
        seat_advantage_figure(seat_advantage(run)),
        table_figure(
            ludii_metrics(run),
            "Balance metrics",
            "Headline numbers named after the Ludii game-evaluation metrics; the doc column says "
            "what each measures. Balance near 1 and AdvantageP1 near the fair share mean the seats "
            "are even; a high Timeouts share means many games never reached an end.",
        ),
        strategy_winrate_figure(by_strategy(run), run.players),
    ]
    # No matchup page: in one run every strategy of the lineup sits at every table, so "A's win
    # rate when B plays" is A's win rate again. Studies whose cells vary the field have one.
    pages.append(game_length_figure(game_length(run)))
    for column in category_columns(run):
        pages.append(category_figure(category_shares(run, column["name"]), column["doc"]))
    stats = seat_stat_means(run)
    if len(stats.columns) > 2:  # the game declares numeric per-seat columns
        pages.append(seat_stats_figure(stats, run.info["columns"]["seat"]))
        pages.append(winner_stats_figure(winner_stat_means(run), run.info["columns"]["seat"]))
    pages.extend(impact_figure(group) for group in impact(run))
    for table in card_impact(run):
        pages.extend(card_impact_figures(table))
    pages.append(convergence_figure(convergence(run)))
    return pages


def report_metadata(run: Run) -> dict[str, Any]:
    """PDF document properties: title, spec summary, producing version and date."""
    return {
        "Title": f"powerlab report: {run.spec['game']}",
        "Subject": run.describe(),
        "Creator": f"powerlab {version('powerlab')}",
        "CreationDate": datetime.now(UTC),
    }


def literal_text():
    """A context in which every plot text is drawn as written: names from designers' files (a
    card, a lane, an arm, a folder) may hold ``$...$``, which matplotlib would otherwise parse
    as a formula, and fail on. Figures must be built and saved inside it."""
    return matplotlib.rc_context({"text.parse_math": False, "text.usetex": False})


def save_pdf(figures: Iterable[Figure], path: str | Path, metadata: dict[str, Any]) -> None:
    """Write the figures as PDF pages, atomically: a temporary file in the same folder replaces
    ``path`` only once complete, so a failure leaves any previous PDF untouched."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with PdfPages(temporary, metadata=metadata) as pdf:
            for figure in figures:
                pdf.savefig(figure)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_report(run_dir: str | Path, pdf_path: str | Path) -> list[str]:
    """Write the report of one run directory; return the page titles in order.

    Raises ``analyses.AnalysisError`` for an invalid run directory, before touching ``pdf_path``.
    """
    run = load_run(run_dir)
    with literal_text():
        figures = [title_page(run), *run_pages(run)]
        save_pdf(figures, pdf_path, report_metadata(run))
    return [figure.get_suptitle() for figure in figures]
