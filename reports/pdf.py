"""The report of one run directory: its pages, the PDF and the PNGs."""

import json
from pathlib import Path
from typing import Any

import polars as pl

from analyses.arcs import load_arcs, tension
from analyses.card_impact import card_impact
from analyses.dataset import Run, load_run, rule_defaults
from analyses.impact import impact
from analyses.length import cut_off_warning, game_length
from analyses.metrics import ludii_metrics
from analyses.outcomes import category_columns, category_shares
from analyses.seat_stats import seat_stat_means, winner_stat_means
from analyses.winrates import by_seat, by_strategy, convergence, seat_advantage
from reports.arcs import arc_pages
from reports.colors import Palette
from reports.export import write_pages
from reports.figures import (
    card_impact_figures,
    category_figure,
    convergence_figure,
    game_length_figure,
    impact_by_strategy_figure,
    impact_figure,
    metrics_figures,
    seat_advantage_figures,
    seat_stats_figures,
    seat_winrate_figure,
    strategy_winrate_figure,
    winner_stats_figures,
)
from reports.run_answer import answer_pages
from reports.skill import run_skill_trace_pages
from reports.toolkit import ReportPage, percent, table_pages


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key}={_value(item)}" for key, item in value.items()) or "defaults"
    return json.dumps(value) if isinstance(value, list) else str(value)


def run_takeaway(run: Run) -> str:
    """The run in one sentence: what was played, and how the games ended."""
    spec = run.spec
    endings = category_shares(run, "ended_by")
    ended = ", ".join(
        f"{percent(share)} {value}"
        for value, share in zip(endings["value"], endings["share"], strict=True)
    )
    rotation = "seats rotated" if spec.get("rotate_seats") else "fixed seats"
    return (
        f"{game_length(run).games:,} games of {', '.join(run.strategy_labels)} at "
        f"{run.players} players ({rotation}, seed {spec.get('seed')}); ended by: {ended}."
    )


def _rule_rows(spec: dict) -> list[tuple[str, str]]:
    """A row per rule that differs from the game's default, then one row for all the others:
    the table stays one page however many house rules the game has. Every rule has a row for
    a game this powerlab does not know (the run of a game registered elsewhere)."""
    defaults = rule_defaults(spec["game"])
    rules = spec.get("rules", {})
    changed = [(f"rule {name}", _value(v)) for name, v in rules.items() if defaults.get(name) != v]
    others = len(rules) - len(changed)
    return [*changed, ("other rules", f"{others} at the rulebook's defaults (powerlab games "
                       f"{spec['game']})")]  # fmt: skip


def title_pages(run: Run) -> list[ReportPage]:
    """The full spec (game, players, lineup, rule parameters, seed, games, rotation) and the
    provenance of the run, as a table."""
    spec = run.spec
    timings = run.info.get("timings") or {}
    length = game_length(run)
    warning = cut_off_warning(length.cut_off_share)
    rows = [
        ("game", spec["game"]),
        ("players", run.players),
        *(
            (f"seat {k} (game 0)", f"{label}: {_value(strategy.get('params', {}))}")
            for k, (label, strategy) in enumerate(zip(run.lineup, spec["strategies"], strict=True))
        ),
        ("seed", spec.get("seed")),
        ("games", f"{spec.get('games'):,}" if spec.get("games") else spec.get("games")),
        ("seat rotation", "yes" if spec.get("rotate_seats") else "no"),
        *_rule_rows(spec),
        ("games in the data", f"{length.games:,}"),
        *([("WARNING", warning)] if warning else []),
        ("powerlab version", run.info.get("powerlab_version")),
        ("created", run.info.get("created")),
        ("finished", run.info.get("finished") or "not finished"),
        (
            "run time",
            f"{timings.get('seconds')} s, {timings.get('games_per_s')} games/s, "
            f"{timings.get('threads')} threads",
        ),
        ("run directory", str(run.path)),
    ]
    table = pl.DataFrame(
        {"setting": [name for name, _ in rows], "value": [str(value) for _, value in rows]}
    )
    return table_pages(
        table,
        f"powerlab report: {spec['game']}",
        run_takeaway(run),
        "Every number in this report comes from the run described here: the same specification "
        "(game, rules, strategies, seed, number of games) reproduces the same games exactly. "
        "Seat rotation means each strategy sits in every seat equally often.",
        widest=(1.9, 3.2),
    )


def run_pages(run: Run) -> list[ReportPage]:
    """Every analysis of one run as report pages, title pages excluded."""
    palette = Palette.for_game(run.spec["game"], run.lineup)
    pages = [
        seat_winrate_figure(by_seat(run), run.players),
        *seat_advantage_figures(seat_advantage(run)),
        *metrics_figures(ludii_metrics(run), run.players),
        strategy_winrate_figure(by_strategy(run), run.players, palette),
        *run_skill_trace_pages(run),
    ]
    # No matchup page: in one run every strategy of the lineup sits at every table, so "A's win
    # rate when B plays" is A's win rate again. Studies whose cells vary the field have one.
    pages.append(game_length_figure(game_length(run)))
    arcs = load_arcs(run) if run.info.get("arcs") else None
    pages.extend(arc_pages(run, arcs, tension(run, arcs)))
    for column in category_columns(run):
        pages.append(category_figure(category_shares(run, column["name"]), column["doc"]))
    stats = seat_stat_means(run)
    if len(stats.columns) > 2:  # the game declares numeric per-seat columns
        pages.extend(seat_stats_figures(stats, run.info["columns"]["seat"]))
        pages.extend(winner_stats_figures(winner_stat_means(run), run.info["columns"]["seat"]))
    for group in impact(run):
        pages.append(impact_figure(group))
        if group.by_strategy is not None and not group.by_strategy.is_empty():
            pages.append(impact_by_strategy_figure(group, palette))
    for table in card_impact(run):
        pages.extend(card_impact_figures(table))
    pages.append(convergence_figure(convergence(run), palette))
    return pages


def report_pages(run: Run) -> list[ReportPage]:
    """Every page of the run's report, in order: what the run says, what was played, then each
    analysis."""
    return [*answer_pages(run), *title_pages(run), *run_pages(run)]


def write_report(
    run: Run | str | Path,
    pdf_path: str | Path,
    png_dir: str | Path | None = None,
    tables_dir: str | Path | None = None,
) -> list[str]:
    """Write the report of one run (loaded, or its directory): the PDF and, with ``png_dir``,
    each page as a PNG, with ``tables_dir`` every table as a CSV, all files or none; return the
    page titles in order.

    Raises ``analyses.AnalysisError`` for an invalid run directory, before touching ``pdf_path``.
    """
    run = run if isinstance(run, Run) else load_run(run)
    title = f"powerlab report: {run.spec['game']}"
    return write_pages(report_pages(run), title, run.describe(), pdf_path, png_dir, tables_dir)
