"""Game arcs (docs/arcs.md): the sample by game index, the stored standing, and every tension
metric on hand-built arcs with known answers."""

import numpy as np
import polars as pl
import pytest

from analyses import arcs as arcs_analysis
from simcore.chunk import arcs_sample

STANDING = ["vp", "money"]


def hand_built(games: dict[int, list[list[tuple[int, int]]]]) -> pl.DataFrame:
    """games[index][turn - 1][seat] = (vp, money) → the arcs table."""
    rows = [
        (index, turn, seat, vp, money)
        for index, turns in games.items()
        for turn, seats in enumerate(turns, start=1)
        for seat, (vp, money) in enumerate(seats)
    ]
    return pl.DataFrame(
        rows,
        schema={"game_index": pl.Int64, "turn": pl.Int32, "seat": pl.Int8, "vp": pl.Int32,
                "money": pl.Int32},
        orient="row",
    )  # fmt: skip


# Game 0: seat 0 leads turns 1-2, seat 1 takes over at turn 3 (by money on a VP tie) and wins.
# Game 1: seat 2 is last at half-way (turn 2 of 4), then wins: a comeback, 3 VP behind at worst.
# Game 2: seat 1 leads from turn 1 to the end: a runaway leader, decided from the start.
# Game 3: a tie at the top on turn 1 (no leader), then seat 0 leads and wins.
GAMES = {
    0: [[(1, 5), (0, 5), (0, 5)], [(1, 5), (1, 4), (0, 5)], [(1, 5), (1, 6), (0, 5)]],
    1: [[(1, 0), (0, 0), (0, 0)], [(3, 0), (1, 0), (0, 0)], [(3, 0), (1, 0), (2, 0)],
        [(3, 0), (1, 0), (4, 0)]],
    2: [[(0, 9), (1, 0), (0, 0)], [(0, 9), (2, 0), (1, 0)]],
    3: [[(1, 1), (1, 1), (0, 0)], [(2, 1), (1, 1), (0, 0)]],
}  # fmt: skip
WINNERS = {0: 1, 1: 2, 2: 1, 3: 0}


def known_games() -> pl.DataFrame:
    return pl.DataFrame(
        {"game_index": list(WINNERS), "winner": list(WINNERS.values())},
        schema={"game_index": pl.Int64, "winner": pl.Int8},
    )


def test_leaders_break_ties_value_by_value_and_mark_a_tie_at_the_top():
    lead = arcs_analysis.leaders(hand_built(GAMES), STANDING).sort("game_index", "turn")
    assert lead.filter(pl.col("game_index") == 0)["leader"].to_list() == [0, 0, 1]
    assert lead.filter(pl.col("game_index") == 3)["leader"].to_list() == [-1, 0]
    assert lead.filter(pl.col("game_index") == 1)["last"].to_list() == [-1, 2, 1, 1]


def test_every_metric_on_hand_built_arcs():
    table = arcs_analysis.per_game(hand_built(GAMES), known_games(), STANDING)
    by_game = {row["game_index"]: row for row in table.iter_rows(named=True)}
    assert [by_game[g]["lead_changes"] for g in range(4)] == [1, 1, 0, 0]
    # decisiveness = (first turn of the winner's final lead - 1) / turns
    assert [by_game[g]["decisiveness"] for g in range(4)] == [2 / 3, 3 / 4, 0.0, 1 / 2]
    assert [by_game[g]["comeback"] for g in range(4)] == [False, True, False, False]
    assert [by_game[g]["drama"] for g in range(4)] == [1, 3, 0, 0]
    assert [by_game[g]["runaway"] for g in range(4)] == [False, False, True, False]


def test_a_game_without_a_single_winner_has_no_arc_metrics():
    games = known_games().with_columns(
        pl.when(pl.col("game_index") == 0).then(-1).otherwise(pl.col("winner")).alias("winner")
    )
    table = arcs_analysis.per_game(hand_built(GAMES), games, STANDING)
    assert table["game_index"].to_list() == [1, 2, 3]


def test_intervals_closed_form_and_quantile():
    values = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    low, high = arcs_analysis.mean_interval(values)
    half = 2.7764451051977987 * np.std(values, ddof=1) / np.sqrt(5)  # t(0.975, 4)
    assert low == pytest.approx(2 - half) and high == pytest.approx(2 + half)
    low, high = arcs_analysis.quantile_interval(np.arange(100), 0.5)
    assert low < 49.5 < high


def test_the_sample_depends_on_the_game_index_alone():
    whole = arcs_sample(0, 20_000, 0.01)
    ranges = ((0, 7), (7, 12_345), (12_345, 20_000))
    pieces = np.concatenate([arcs_sample(a, b - a, 0.01) for a, b in ranges])
    assert (whole == pieces).all()
    assert 150 <= len(whole) <= 250  # about 1% of 20,000
    assert len(arcs_sample(0, 1000, 1.0)) == 1000
    # Seat rotation repeats every few games: the sample must not keep to one rotation.
    assert len(set((whole % 4).tolist())) == 4
