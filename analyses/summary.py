"""The headline of a run, for ``powerlab summary DIR`` (plain text) and ``--json``."""

import math
from typing import Any

import polars as pl

from analyses.dataset import Run
from analyses.length import cut_off_warning, game_length
from analyses.outcomes import category_shares
from analyses.winrates import by_seat, by_strategy
from simcore.workflows import storage


def _records(table: pl.DataFrame) -> list[dict[str, Any]]:
    """Rows as dicts, NaN as None, since JSON has no NaN."""
    return [
        {key: None if isinstance(v, float) and math.isnan(v) else v for key, v in row.items()}
        for row in table.iter_rows(named=True)
    ]


def summary(run: Run) -> dict[str, Any]:
    """JSON-serialisable headline: spec, lineup, games present, how they ended (shares of each
    ``ended_by`` value), mean turns of the games with a result, warnings, and the by_seat and
    by_strategy tables (games with a result only) as lists of dicts."""
    length = game_length(run)
    endings = category_shares(run, "ended_by")
    warning = cut_off_warning(length.cut_off_share)
    return {
        "run_dir": str(run.path),
        "description": run.describe(),
        "spec": run.spec,
        "lineup": run.lineup,
        "powerlab_version": run.info.get("powerlab_version"),
        "finished": run.info.get("finished"),
        "games": length.games,
        "ended_by": dict(zip(endings["value"], endings["share"], strict=True)),
        "cut_off_share": length.cut_off_share,
        "mean_turns": length.mean,
        "warnings": [warning] if warning else [],
        "by_seat": _records(by_seat(run)),
        "by_strategy": _records(by_strategy(run)),
    }


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _text_table(rows: list[dict[str, Any]], key: str) -> list[str]:
    """Aligned text lines: key, games, wins, win rate and its 95% interval."""
    header = [key, "games", "wins", "win rate", "95% CI"]
    body = [
        [
            str(row[key]),
            str(row["games"]),
            str(row["wins"]),
            _percent(row["win_rate"]),
            f"{_percent(row['ci_low'])} - {_percent(row['ci_high'])}",
        ]
        for row in rows
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in [header, *body]
    ]


def completeness(run: Run) -> str:
    """Whether the run holds every game it plans: "finished", "unfinished" (its writer has not
    finished), or the game indices it lacks and the part files listed but gone."""
    first, stop = storage.run_range(run.info)
    check = storage.check_parts(run.path, first, stop)
    gaps = storage.missing_ranges([(p.first, p.count) for p in check.parts], first, stop)
    finished = run.info.get("finished")
    if not gaps:
        return "finished" if finished else "unfinished"
    ranges = ", ".join(f"{a}-{b - 1}" for a, b in gaps[:3]) + (", ..." if len(gaps) > 3 else "")
    gone = [part.name for part in check.missing]
    why = f"; listed but missing: {', '.join(gone[:3])}" if gone else ""
    return (
        f"{'incomplete' if finished else 'unfinished'}: games {ranges} are not there{why}; "
        "rerun the run's command to compute them"
    )


def summary_text(run: Run) -> str:
    """The summary as plain text for a terminal."""
    head = summary(run)
    planned = head["spec"].get("games")
    status = completeness(run)
    endings = ", ".join(f"{label} {_percent(share)}" for label, share in head["ended_by"].items())
    mean = "n/a" if head["mean_turns"] is None else f"{head['mean_turns']:.1f}"
    cut_off = head["cut_off_share"]
    cut = _percent(cut_off)
    lines = [
        head["description"],
        f"{head['games']} of {planned} games ({status}); ended by: {endings}; mean {mean} turns",
        *head["warnings"],
        *([f"win rates leave out the {cut} of games cut off by the cap"] if cut_off else []),
        "",
        *_text_table(head["by_seat"], "seat"),
        "",
        *_text_table(head["by_strategy"], "strategy"),
    ]
    return "\n".join(lines)
