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
