"""Means of a game's numeric per-seat columns, per strategy: what each strategy does in a game.

Generic over games: it reads the per-seat columns run.json declares (POWER's challenges and bluffs,
Power Barons' flushes and credits given, …) and leaves out categorical and bitmask columns.
"""

import polars as pl

from analyses.dataset import Run, seats_long


def seat_stat_columns(run: Run) -> list[str]:
    """The per-seat columns worth averaging: numeric, declared by the game, not card bitmasks."""
    masks = {
        column
        for entry in run.info.get("card_impact", [])
        for column in (entry["drawn_column"], entry["played_column"])
    }
    declared = [column["name"] for column in run.info["columns"]["seat"]]
    schema = seats_long(run).collect_schema()
    return [
        name
        for name in declared
        if name not in masks and name in schema and schema[name].is_numeric()
    ]


def seat_stat_means(run: Run) -> pl.DataFrame:
    """[strategy, seat_games, <column means>...]: one row per strategy label, lineup order."""
    columns = seat_stat_columns(run)
    table = (
        seats_long(run)
        .group_by("strategy")
        .agg(pl.len().alias("seat_games"), *(pl.col(c).mean() for c in columns))
        .collect()
    )
    order = {label: k for k, label in enumerate(run.strategy_labels)}
    return table.sort(pl.col("strategy").replace_strict(order, default=len(order)))


def winner_stat_means(run: Run) -> pl.DataFrame:
    """[statistic, winning_seats, other_seats]: each numeric per-seat column's mean over the seats
    that won and over all other seats — how winners win (Power Struggle's Victory Point routes,
    Power Barons' flushes). A shared win counts for every sharer; games cut off by the cap are
    left out, as everywhere."""
    columns = seat_stat_columns(run)
    seats = seats_long(run).with_columns(pl.col("won").cast(pl.Boolean))
    means = (
        seats.group_by("won").agg(*(pl.col(c).cast(pl.Float64).mean() for c in columns)).collect()
    )

    def row_of(won: bool) -> list[float | None]:
        rows = means.filter(pl.col("won") == won)
        return [rows[c][0] if len(rows) else None for c in columns]

    return pl.DataFrame(
        {"statistic": columns, "winning_seats": row_of(True), "other_seats": row_of(False)},
        schema={"statistic": pl.String, "winning_seats": pl.Float64, "other_seats": pl.Float64},
    )
