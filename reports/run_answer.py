"""The first page of a run's report: what the run says, finding by finding, each with its 95%
interval and whether it is an experiment or an observation, before any detail."""

import polars as pl

from analyses.card_impact import card_impact
from analyses.dataset import Run
from analyses.headlines import fair_share_gaps
from analyses.impact import impact
from analyses.length import game_length
from analyses.winrates import by_seat, by_strategy
from reports import takeaways
from reports.toolkit import ReportPage, percent, points, table_pages

SEATS_KIND = "experiment: seats rotate"
FIXED_SEATS_KIND = "measured, seats fixed: a seat's strategy goes with it"
STRATEGIES_KIND = "measured against these players only (powerlab whatif tests other fields)"
OBSERVATIONAL = "observational (powerlab impact intervenes)"


def _ci(low: float, high: float, scale=percent) -> str:
    return f"[{scale(low)}, {scale(high)}]"


def _furthest(table: pl.DataFrame, key: str, fair: float) -> dict | None:
    gaps = fair_share_gaps(table, fair).drop_nulls("gap").filter(~pl.col("gap").is_nan())
    return gaps.row(0, named=True) if gaps.height else None


def findings(run: Run) -> pl.DataFrame:
    """[finding, value, 95% CI, kind]: the seat furthest from its fair share, the strongest and
    the weakest strategy and the gap between them, the game length, and each impact page's
    extremes (observational)."""
    fair = 1 / run.players
    rows = []
    seat = _furthest(by_seat(run), "seat", fair)
    if seat:
        kind = SEATS_KIND if run.spec.get("rotate_seats") else FIXED_SEATS_KIND
        rows.append((
            f"Seat furthest from its fair share ({percent(fair)}): seat {seat['seat']}",
            f"{percent(seat['win_rate'])} ({points(seat['gap'])} points)",
            _ci(seat["ci_low"], seat["ci_high"]), kind,
        ))  # fmt: skip
    strategies = by_strategy(run).drop_nulls("win_rate").sort("win_rate", descending=True)
    if strategies.height > 1:
        best, worst = strategies.row(0, named=True), strategies.row(-1, named=True)
        for what, row in (("Strongest strategy", best), ("Weakest strategy", worst)):
            rows.append((
                f"{what}: {row['strategy']} (a seat of it wins)", percent(row["win_rate"]),
                _ci(row["ci_low"], row["ci_high"]), STRATEGIES_KIND,
            ))  # fmt: skip
        rows.append((
            "Gap between them", f"{points(best['win_rate'] - worst['win_rate'], sign=False)} "
            "points", "see the strategy page", STRATEGIES_KIND,
        ))  # fmt: skip
    length = game_length(run)
    if length.mean is not None:
        rows.append((
            "Game length (turns)", f"mean {length.mean:.1f}, median {length.median:g}",
            f"10%-90%: {length.p10:g}-{length.p90:g}",
            f"{percent(length.cut_off_share)} of games cut off by the cap",
        ))  # fmt: skip
    for group in impact(run):
        ranked = group.table.drop_nulls("win_rate").sort("win_rate", descending=True)
        if ranked.height > 1:
            top = ranked.row(0, named=True)
            rows.append((
                f"{group.title}: seats with {top['value']} win most", percent(top["win_rate"]),
                _ci(top["ci_low"], top["ci_high"]), OBSERVATIONAL,
            ))  # fmt: skip
    for table in card_impact(run):
        cards = table.table.drop_nulls("iwd").sort("iwd", descending=True)
        if cards.height:
            top = cards.row(0, named=True)
            rows.append((
                f"{table.title}: most helpful when drawn, {top['card']}",
                f"{points(top['iwd'])} points", _ci(top["iwd_ci_low"], top["iwd_ci_high"], points),
                OBSERVATIONAL,
            ))  # fmt: skip
    return pl.DataFrame(rows, schema=["finding", "value", "95% CI", "kind"], orient="row")


def answer_pages(run: Run) -> list[ReportPage]:
    """The findings as the report's first page, its takeaway the seats' fairness."""
    return table_pages(
        findings(run),
        f"What this run says: {run.spec['game']}, {run.players} players",
        takeaways.fair_share(by_seat(run), "seat", 1 / run.players, "seat"),
        "Each row is one finding with its 95% interval. An experiment is a comparison chance "
        "alone decides (rotated seats); a strategy's win rate holds against these players only; "
        "an observation compares seats that happened to differ and may mix cause and effect. "
        "The pages that follow show each finding in full; the run's specification is after "
        "this page.",
        widest=(4.0, 1.8, 1.6, 3.0),
    )
