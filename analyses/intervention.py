"""What each component does, from an impact directory (simcore/workflows/impact.py): each arm
against the base arm, game by game on the same random streams.

For every component and every measure — each seat's win rate, each strategy's win rate (a
seat's, as everywhere: the share of its seats that won) and the game length in turns — the paired
difference (arm − base) with its 95% interval. A component's *headline* is its largest change
against the median of its peers (the other components of its kind and group, ``against_peers``):
a win rate's in points or the game length's in percent of the base length (1 point ≙ 1%), so
that one ranking covers both; its interval is that measure's.
"""

from pathlib import Path

import numpy as np
import polars as pl

from analyses import AnalysisError
from analyses.dataset import CUT_OFF, Run
from analyses.paired import check_pairable, compare_runs, default_focals
from analyses.stats import mean_interval
from analyses.study import load_study_dir
from simcore.workflows import impact as impact_files

LENGTH = "game length"
EFFECT_COLUMNS = (
    "component", "kind", "group", "measure", "base", "changed", "diff", "ci_low", "ci_high",
    "relative", "relative_low", "relative_high", "games",
)  # fmt: skip


def length_effect(arm: Run, base: Run) -> dict:
    """The paired change of the game length (turns) over games with a result in both runs."""
    check_pairable(arm, base)
    frames = [
        run.scan()
        .select("game_index", "turns", has_result=pl.col("ended_by").cast(pl.String) != CUT_OFF)
        .sort("game_index")
        .collect()
        for run in (arm, base)
    ]
    both = (frames[0]["has_result"] & frames[1]["has_result"]).to_numpy()
    changed = frames[0]["turns"].to_numpy()[both].astype(float)
    before = frames[1]["turns"].to_numpy()[both].astype(float)
    diff, low, high = mean_interval(changed - before)
    mean = before.mean() if len(before) else np.nan
    return {
        "measure": LENGTH,
        "base": mean,
        "changed": changed.mean() if len(changed) else np.nan,
        "diff": diff,
        "ci_low": low,
        "ci_high": high,
        # The base length's own noise is left out of the percent's interval: it is shared.
        "relative": diff / mean,
        "relative_low": low / mean,
        "relative_high": high / mean,
        "games": int(both.sum()),
    }


def win_effect(arm: Run, base: Run, focal: str) -> dict:
    result = compare_runs(arm, base, focal)
    return {
        "measure": f"{focal.replace('seat:', 'seat ')} win rate",
        "base": result["rate_b"],
        "changed": result["rate_a"],
        "diff": result["diff"],
        "ci_low": result["ci_low"],
        "ci_high": result["ci_high"],
        "relative": result["diff"],
        "relative_low": result["ci_low"],
        "relative_high": result["ci_high"],
        "games": result["games"],
    }


def effects(out: str | Path) -> pl.DataFrame:
    """One row per component and measure (EFFECT_COLUMNS), in arm order."""
    out = Path(out)
    study = load_study_dir(out / impact_files.STUDY_DIR)
    runs = {cell.arm: cell.run for cell in study.cells}
    if impact_files.BASE_ARM not in runs:
        raise AnalysisError(f"{out}: the study has no {impact_files.BASE_ARM!r} arm")
    base = runs[impact_files.BASE_ARM]
    focals = [f"seat:{k}" for k in range(base.players)]
    strategies = default_focals(base.lineup, base.players)
    focals += [name for name in strategies if not name.startswith("seat:")]
    rows = []
    for component in impact_files.read_components(out):
        arm = runs.get(component["arm"])
        if arm is None:
            raise AnalysisError(f"{out}: no cell for component {component['arm']!r}")
        who = {key: component[key] for key in ("kind", "group")}
        for measured in [*(win_effect(arm, base, f) for f in focals), length_effect(arm, base)]:
            rows.append({"component": component["name"], **who, **measured})
    return pl.DataFrame(rows, schema_overrides={"games": pl.Int64}).select(EFFECT_COLUMNS)


# A component is compared with the median of the others of its kind and group when it has at
# least this many: fewer give no typical value to stand out from.
MIN_PEERS = 2


def against_peers(table: pl.DataFrame) -> pl.DataFrame:
    """``table`` with ``peers`` (how many other components of its kind and group) and
    ``vs_peers``, ``vs_peers_low``, ``vs_peers_high``: its change minus the median change of
    those others on the same measure (the interval is its own, shifted; the median is taken as
    known). What every card of a level does alike — one card less in the level's stack makes
    the others come up sooner — cancels out, so a card that stands out from its level is
    ranked by what it does itself. A designer's change, or a component with too few peers, keeps
    its own change."""
    rows = []
    for row in table.iter_rows(named=True):
        others = table.filter(
            (pl.col("kind") == row["kind"]) & (pl.col("group") == row["group"])
            & (pl.col("measure") == row["measure"]) & (pl.col("component") != row["component"])
        )  # fmt: skip
        shift = 0.0
        if row["kind"] != "change" and others.height >= MIN_PEERS:
            shift = float(others["relative"].median())
        rows.append({
            "peers": others.height if row["kind"] != "change" else 0,
            "vs_peers": row["relative"] - shift,
            "vs_peers_low": row["relative_low"] - shift,
            "vs_peers_high": row["relative_high"] - shift,
        })  # fmt: skip
    compared = pl.DataFrame(rows, schema_overrides={"peers": pl.Int64})
    return pl.concat([table, compared], how="horizontal")


def headlines(table: pl.DataFrame) -> pl.DataFrame:
    """Each component's largest change against its peers (by |vs_peers|, ``against_peers``),
    ranked largest first, with its rank among the components of its kind and group (``of``
    of them)."""
    size = pl.col("vs_peers").abs()
    ranked = (
        against_peers(table)
        .sort(size, descending=True, nulls_last=True)
        .group_by("component", maintain_order=True)
        .first()
        .sort(size, descending=True, nulls_last=True)
    )
    within = size.rank("ordinal", descending=True).over("kind", "group")
    return ranked.with_columns(
        rank=pl.int_range(1, pl.len() + 1),
        rank_in_group=within.cast(pl.Int64),
        of=pl.len().over("kind", "group").cast(pl.Int64),
    )


def clear_of_rest(ranked: pl.DataFrame) -> bool:
    """Whether the first component's headline interval (against its peers) lies wholly beyond
    every other's: its interval's near end is larger (in size) than the others' far ends."""
    if ranked.height < 2:
        return False
    first = ranked.row(0, named=True)
    if first["vs_peers_low"] < 0 < first["vs_peers_high"]:
        return False
    near = min(abs(first["vs_peers_low"]), abs(first["vs_peers_high"]))
    rest = ranked.slice(1)
    far = np.maximum(rest["vs_peers_low"].abs().to_numpy(), rest["vs_peers_high"].abs().to_numpy())
    return bool(near > far.max())
