"""The answer of a whatif directory (simcore/workflows/whatif.py): rule set B against A, field by
field, game by game, and whether each measure keeps its sign across the fields.

Measures, each as the paired change B − A with its 95% interval: every seat's win rate, every
strategy's win rate (by strategy name: the share of its seats that won, a seat's win rate as
everywhere), the spread between the strategies (the best
one's win rate minus the worst one's; bootstrap interval over the paired games) and the game
length in turns. A field's cells pair A's and B's games; the re-tuned field pairs A's games
among the field tuned for A with B's among the field tuned for B.
"""

from pathlib import Path

import numpy as np
import polars as pl

from analyses import AnalysisError
from analyses.answers import robustness_line
from analyses.dataset import CUT_OFF, Run
from analyses.intervention import LENGTH, length_effect, win_effect
from analyses.paired import check_pairable, strategy_name
from analyses.study import load_study_dir
from simcore.workflows import result_schemas, storage
from simcore.workflows import whatif as whatif_files

SPREAD = "strategy spread"
RESAMPLES = 400
FIELD_WORDS = ("field", "the players")
MEASURE_COLUMNS = ("field", "measure", "a", "b", "diff", "ci_low", "ci_high", "games")


def field_pairs(out: Path) -> list[tuple[str, Run, Run]]:
    """(field, A's run, B's run) for every field the directory played, in study order."""
    study = load_study_dir(Path(out) / whatif_files.STUDY_DIR)
    runs = {(cell.arm, cell.values.get("opponents")): cell.run for cell in study.cells}
    pairs = []
    for arm, setting in runs:
        if arm != "A":
            continue
        if setting.startswith("re-tuned for "):
            if setting == "re-tuned for A" and ("B", "re-tuned for B") in runs:
                pairs.append(("re-tuned", runs[arm, setting], runs["B", "re-tuned for B"]))
        elif ("B", setting) in runs:
            pairs.append((setting, runs[arm, setting], runs["B", setting]))
    if not pairs:
        raise AnalysisError(f"{out}: no field played both rule sets")
    return pairs


def _strategy_wins(run: Run) -> tuple[np.ndarray, list[str], np.ndarray]:
    """(games with a result, strategy names, won[games, names]: the share of the seats of that
    name that won)."""
    names = list(dict.fromkeys(strategy_name(label) for label in run.lineup))
    frame = (
        run.scan()
        .select(
            "game_index",
            *(_seat_share(run, name).alias(name) for name in names),
            has_result=pl.col("ended_by").cast(pl.String) != CUT_OFF,
        )
        .sort("game_index")
        .collect()
    )
    won = frame.select(names).to_numpy().astype(float)
    return frame["has_result"].to_numpy(), names, won


def _seat_share(run: Run, name: str) -> pl.Expr:
    held = [
        pl.col(f"s{k}_strategy").cast(pl.String).str.split(":").list.first() == name
        for k in range(run.players)
    ]
    won = pl.sum_horizontal(h & pl.col(f"s{k}_won") for k, h in enumerate(held))
    return won / pl.sum_horizontal(held)


def spread_effect(run_a: Run, run_b: Run, seed: int = 0) -> dict | None:
    """The change of the spread between the strategies' win rates, B − A, with a paired
    bootstrap 95% interval; None when a run has one strategy name."""
    check_pairable(run_a, run_b)
    result_a, names_a, won_a = _strategy_wins(run_a)
    result_b, names_b, won_b = _strategy_wins(run_b)
    if len(names_a) < 2 or sorted(names_a) != sorted(names_b):
        return None
    won_b = won_b[:, [names_b.index(name) for name in names_a]]
    both = result_a & result_b
    won_a, won_b = won_a[both], won_b[both]
    n = len(won_a)
    if n < 2:
        return None

    def spread(rates: np.ndarray) -> np.ndarray:
        return rates.max(axis=-1) - rates.min(axis=-1)

    weights = np.random.default_rng(seed).multinomial(n, np.full(n, 1 / n), size=RESAMPLES)
    draws = spread(weights @ won_b / n) - spread(weights @ won_a / n)
    a, b = spread(won_a.mean(axis=0)), spread(won_b.mean(axis=0))
    low, high = np.percentile(draws, [2.5, 97.5])
    return {
        "measure": SPREAD, "base": float(a), "changed": float(b), "diff": float(b - a),
        "ci_low": float(low), "ci_high": float(high), "games": n,
    }  # fmt: skip


def measures(out: str | Path) -> pl.DataFrame:
    """One row per field and measure (MEASURE_COLUMNS): B − A."""
    rows = []
    for field, run_a, run_b in field_pairs(Path(out)):
        names = dict.fromkeys(strategy_name(label) for label in run_a.lineup)
        focals = [f"seat:{k}" for k in range(run_a.players)]
        focals += [name for name in names if name in map(strategy_name, run_b.lineup)]
        measured = [win_effect(run_b, run_a, focal) for focal in focals]
        spread = spread_effect(run_a, run_b)
        measured += [spread] if spread else []
        measured.append(length_effect(run_b, run_a))
        for entry in measured:
            rows.append({"field": field, **entry, "a": entry["base"], "b": entry["changed"]})
    return pl.DataFrame(rows, schema_overrides={"games": pl.Int64}).select(MEASURE_COLUMNS)


def verdict(rows: pl.DataFrame) -> str:
    """The measure across the fields: "depends" when one field's interval is clear of 0 on one
    side and another's on the other; "robust" (with several fields) when every field's change
    has the same sign and at least half the fields are clear of 0 that way (a field of few
    games, the search's, may be too imprecise to clear 0 while agreeing); else "unclear"."""
    positive, negative = int((rows["ci_low"] > 0).sum()), int((rows["ci_high"] < 0).sum())
    if positive and negative:
        return "depends"
    same_sign = bool((rows["diff"] > 0).all() or (rows["diff"] < 0).all())
    if rows.height > 1 and same_sign and 2 * max(positive, negative) >= rows.height:
        return "robust"
    return "unclear"


def robustness(table: pl.DataFrame) -> pl.DataFrame:
    """[measure, fields, verdict, line]: each measure's robustness across the fields that have
    it (``verdict``), and its line."""
    lines = []
    for (measure,), rows in table.group_by("measure", maintain_order=True):
        unit, scale = ("turns", 1) if measure == LENGTH else ("points", 100)
        line = robustness_line(rows.rename({"diff": "answer"}), FIELD_WORDS, unit, scale)
        lines.append(
            {"measure": measure, "fields": rows.height, "verdict": verdict(rows), "line": line}
        )
    schema = {"measure": pl.String, "fields": pl.Int64, "verdict": pl.String, "line": pl.String}
    return pl.DataFrame(lines, schema=schema)


def exploitability(out: str | Path) -> pl.DataFrame:
    """[rule set, family, start, best, gain, ci_low, ci_high]: what re-tuning each family gained
    on fresh games under each rule set (empty without the re-tuned field)."""
    path = Path(out) / "tunings.json"
    model = result_schemas.WhatifTunings
    retuned = storage.read_stored(path, "whatif tunings", model)["retuned"] if path.exists() else {}
    rows = [
        {"rule set": arm, "family": gain["family"], "start": gain["start"], "best": gain["best"],
         "gain": gain["diff"], "ci_low": gain["diff_ci_low"], "ci_high": gain["diff_ci_high"]}
        for arm, entry in retuned.items()
        for gain in entry["gains"]
    ]  # fmt: skip
    schema = {"rule set": pl.String, "family": pl.String, "start": pl.String, "best": pl.String,
              "gain": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)
