"""A study's answer (its ``[answer]`` table, docs/studies.md) per opponent setting, and how
robust it is across them.

The answer is the focal's win rate in one arm minus in another, game by game on the same games
(paired), or without arms its win rate minus the fair share. An opponent setting that is a mix
seats several lineups; each game's answer is then the mix-weighted sum over them, so the interval
keeps the pairing of the common random numbers.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analyses import AnalysisError
from analyses.paired import focal_outcomes
from analyses.stats import mean_interval
from analyses.study import StudyCell, StudyDir

NO_OPPONENTS = "the study's lineup"


def _key(cell: StudyCell) -> str:
    """The cell's values other than its opponent setting, as text ("" when there are none)."""
    return ", ".join(
        f"{value}p" if key == "players" else f"{key}={value}"
        for key, value in cell.values.items()
        if key != "opponents"
    )


def answers(study: StudyDir) -> pl.DataFrame:
    """[key, opponents, answer, ci_low, ci_high, games, players] per opponent setting and other
    cell values (sweep point, player count; per arm when the answer compares no arms). An answer
    with further arm pairs (``pairs``: restricted play's search arms) answers each pair the same
    way, its key led by the pair."""
    spec = study.info.get("answer")
    if not spec:
        return pl.DataFrame()
    focal, arms = spec["focal"], spec["arms"]
    pairs = [tuple(arms), *(tuple(p) for p in spec.get("pairs") or ())] if arms else [None]
    rows = []
    for pair in pairs:
        lead = f"{pair[0]} − {pair[1]}" if len(pairs) > 1 else ""
        rows += _pair_rows(study, focal, pair, lead)
    return pl.DataFrame(rows)


def _pair_rows(study: StudyDir, focal: str, arms: tuple[str, str] | None, lead: str) -> list:
    groups: dict[tuple, list[StudyCell]] = {}
    for cell in study.cells:
        if arms and cell.arm not in arms:
            continue
        arm = cell.arm if len(study.arms) > 1 else ""  # one arm: nothing to tell apart
        key = _key(cell) if arms else ", ".join(filter(None, [arm, _key(cell)]))
        key = ", ".join(filter(None, [lead, key]))
        groups.setdefault((key, cell.values.get("opponents", NO_OPPONENTS)), []).append(cell)
    rows = []
    for (key, opponents), members in groups.items():
        players = members[0].run.players
        total, valid = None, None
        for variant in sorted({c.variant for c in members}):
            cells = [c for c in members if c.variant == variant]
            if arms:
                a, has_a = _scores(next(c for c in cells if c.arm == arms[0]), focal)
                b, has_b = _scores(next(c for c in cells if c.arm == arms[1]), focal)
                score, has = a - b, has_a & has_b
            else:
                score, has = _scores(cells[0], focal)
                score = score - 1 / players
            weighted = cells[0].weight * score
            if total is not None and len(weighted) != len(total):
                raise AnalysisError(f"{cells[0].run.path}: other games than its opponent mix's")
            total = weighted if total is None else total + weighted
            valid = has if valid is None else valid & has
        answer, low, high = mean_interval(total[valid])
        rows.append(
            {"key": key, "opponents": opponents, "answer": answer, "ci_low": low,
             "ci_high": high, "games": int(valid.sum()), "players": players}
        )  # fmt: skip
    return rows


def _scores(cell: StudyCell, focal: str) -> tuple[np.ndarray, np.ndarray]:
    _, won, has_result = focal_outcomes(cell.run, focal)
    return won.astype(float), has_result


def _points(value: float) -> str:
    return f"{100 * value:+.1f}"


def robustness_line(
    rows: pl.DataFrame, settings=("opponent setting", "the opponents"), unit="points", scale=100
) -> str:
    """How the answer moves across opponent settings, in one line: its range (``scale`` times
    the values, in ``unit``) and in how many settings its 95% interval is above zero, below zero
    or across it. ``settings``: what a setting is called, and what a sign change depends on."""
    setting, depends = settings
    settings = f"{setting}s"
    n = rows.height
    positive = int((rows["ci_low"] > 0).sum())
    negative = int((rows["ci_high"] < 0).sum())
    low, high = (f"{scale * value:+.1f}" for value in (rows["answer"].min(), rows["answer"].max()))
    span = f"{low} to {high} {unit}"
    if n == 1:
        return f"{span}; measured against one {setting} only: robustness unknown"
    if positive and negative:
        return (
            f"{span}; the sign changes (positive in {positive}, negative in {negative} of {n} "
            f"{settings}): this answer depends on {depends}"
        )
    if positive == n:
        return f"{span}; positive in {n} of {n} {settings}"
    if negative == n:
        return f"{span}; negative in {n} of {n} {settings}"
    unclear = n - positive - negative
    if unclear == n:
        return f"{span}; indistinguishable from 0 in {n} of {n} {settings}"
    sign = f"positive in {positive}" if positive else f"negative in {negative}"
    return f"{span}; {sign} and indistinguishable from 0 in {unclear} of {n} {settings}"


def headline(study: StudyDir, rows: pl.DataFrame) -> str:
    """The answer in a sentence with its 95% interval, for the first setting and cell values."""
    spec = study.info["answer"]
    first = rows.row(0, named=True)
    what = (
        f"win rate with {spec['arms'][0]!r} minus with {spec['arms'][1]!r}"
        if spec["arms"]
        else "win rate minus the fair share"
    )
    where = f" ({first['key']})" if first["key"] else ""
    return (
        f"{spec['focal']}: {what} = {_points(first['answer'])} points "
        f"[{_points(first['ci_low'])}, {_points(first['ci_high'])}], 95% CI over "
        f"{first['games']:,} {'paired ' if spec['arms'] else ''}games, against "
        f"{first['opponents']}{where}."
    )


def robustness(rows: pl.DataFrame) -> pl.DataFrame:
    """[key, line]: the robustness line of each set of cell values across opponent settings."""
    return pl.DataFrame(
        [{"key": key, "line": robustness_line(group)}
         for (key,), group in rows.group_by("key", maintain_order=True)],
        schema={"key": pl.String, "line": pl.String},
    )  # fmt: skip
