"""analyses/headlines.py: the numbers the takeaway sentences state, on hand-made tables with
known answers; and the sentences built from them (reports/takeaways.py) state those numbers."""

import math

import polars as pl
import pytest

from analyses.headlines import (
    category_ranges,
    fair_share_gaps,
    paired_overview,
    rating_lead,
    relative_spread,
    response_ranges,
    side,
    strategy_contrasts,
    winner_contrasts,
)
from reports import takeaways


def rates(rows: list[tuple]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=["seat", "win_rate", "ci_low", "ci_high"], orient="row")


def test_side_of_an_interval():
    assert side(0.01, 0.03) == "above"
    assert side(-0.03, -0.01) == "below"
    assert side(-0.01, 0.01) == "includes"
    assert side(math.nan, 0.2) == "includes"
    assert side(0.30, 0.35, reference=0.25) == "above"


def test_fair_share_gaps_shift_the_interval_and_rank_by_size():
    seats = rates([(0, 0.271, 0.266, 0.276), (1, 0.245, 0.240, 0.250), (2, 0.234, 0.229, 0.239)])
    gaps = fair_share_gaps(seats, 0.25)
    assert gaps["seat"].to_list() == [0, 2, 1]
    first = gaps.row(0, named=True)
    assert first["gap"] == pytest.approx(0.021)
    assert (first["gap_low"], first["gap_high"]) == pytest.approx((0.016, 0.026))
    assert gaps["side"].to_list() == ["above", "below", "includes"]


def test_fair_share_gaps_per_player_count():
    rows = rates([(0, 0.40, 0.36, 0.44), (0, 0.30, 0.27, 0.36)]).with_columns(
        players=pl.Series([2, 3])
    )
    gaps = fair_share_gaps(rows)
    assert sorted(gaps["gap"].to_list()) == pytest.approx([-0.1, 0.3 - 1 / 3])
    assert set(gaps["side"]) == {"below", "includes"}


def test_the_seat_sentence_states_the_gap_and_the_rest():
    seats = rates([(0, 0.271, 0.266, 0.276), (1, 0.245, 0.240, 0.254), (2, 0.234, 0.229, 0.251)])
    sentence = takeaways.fair_share(seats, "seat", 0.25, "seat")
    assert sentence == (
        "Seat 0 wins 2.1 points above its fair share [+1.6, +2.6]; the other seats within 1.6 "
        "points."
    )
    even = rates([(0, 0.25, 0.24, 0.26), (1, 0.255, 0.245, 0.265)])
    assert takeaways.fair_share(even, "seat", 0.25, "seat").startswith(
        "No seat is clearly off its fair share of 25.0%"
    )


def test_relative_spread():
    assert relative_spread(2.0, 1.0) == 0.5
    assert relative_spread(1.0, 0.0) == 1.0
    assert relative_spread(0.0, 0.0) == 0.0


def test_strategy_contrasts_rank_statistics_by_spread():
    means = pl.DataFrame(
        {
            "strategy": ["bluffer", "honest", "counter"],
            "seat_games": [10, 10, 10],
            "bluffs": [2.0, 0.0, 0.5],
            "coins": [3.0, 3.3, 3.1],
        }
    )
    table = strategy_contrasts(means)
    assert table["statistic"].to_list() == ["bluffs", "coins"]
    top = table.row(0, named=True)
    assert (top["highest"], top["high"], top["lowest"], top["low"]) == ("bluffer", 2, "honest", 0)
    assert takeaways.strategy_stats(means).startswith("Strategies differ most in bluffs (bluffer 2")


def test_winner_contrasts_sign_and_order():
    means = pl.DataFrame(
        {
            "statistic": ["flushes", "bank", "empty"],
            "winning_seats": [1.0, 100.0, None],
            "other_seats": [2.0, 90.0, 1.0],
        }
    )
    table = winner_contrasts(means)
    assert table["statistic"].to_list() == ["flushes", "bank"]
    assert table["spread"].to_list() == pytest.approx([-0.5, 0.1])


def test_response_ranges_find_the_line_that_moves_most():
    rows = pl.DataFrame(
        {
            "name": ["a", "a", "a", "b", "b", "b"],
            "x": [1, 2, 3, 1, 2, 3],
            "win_rate": [0.20, 0.30, 0.25, 0.50, 0.52, 0.49],
            "ci_low": [0.18, 0.28, 0.23, 0.45, 0.47, 0.44],
            "ci_high": [0.22, 0.32, 0.27, 0.55, 0.57, 0.54],
        }
    )
    ranges = response_ranges(rows, "x", ["name"], interval=("ci_low", "ci_high"))
    a, b = ranges.rows(named=True)
    assert (a["name"], a["low_at"], a["high_at"]) == ("a", 1, 2)
    assert a["change"] == pytest.approx(0.10) and a["apart"]
    assert b["change"] == pytest.approx(0.03) and not b["apart"]
    assert not response_ranges(rows, "x", ["name"])["apart"].any()  # no interval given


def test_paired_overview_counts_sides():
    paired = pl.DataFrame(
        {
            "focal": ["a", "b", "c"],
            "diff": [0.03, -0.02, 0.001],
            "ci_low": [0.01, -0.03, -0.01],
            "ci_high": [0.05, -0.01, 0.012],
        }
    )
    overview = paired_overview(paired)
    assert (overview["above"], overview["below"], overview["includes"]) == (1, 1, 1)
    assert overview["largest"]["focal"] == "a" and overview["smallest"]["focal"] == "b"
    sentence = takeaways.paired(paired, lambda row: row["focal"])
    assert sentence == (
        "Of 3 paired differences, 1 is clearly above zero and 1 clearly below; the largest: a, "
        "+3.0 points [+1.0, +5.0]."
    )


def test_category_ranges_count_a_missing_value_as_zero():
    table = pl.DataFrame(
        {
            "cell": ["c1", "c1", "c2"],
            "value": ["rules", "cap", "rules"],
            "share": [0.9, 0.1, 1.0],
        }
    )
    ranges = category_ranges(table)
    assert ranges["value"].to_list() == ["rules", "cap"]
    assert ranges.row(1, named=True) == {"value": "cap", "low": 0.0, "high": 0.1, "mean": 0.05}


def test_rating_lead_is_clear_only_when_intervals_part():
    ratings = pl.DataFrame(
        {
            "strategy": ["a", "b", "c"],
            "rating": [100.0, 20.0, -120.0],
            "ci_low": [60.0, -10.0, -150.0],
            "ci_high": [140.0, 50.0, -90.0],
        }
    )
    lead = rating_lead(ratings)
    assert lead["first"]["strategy"] == "a" and lead["clear"]
    close = ratings.with_columns(ci_low=pl.Series([10.0, -10.0, -150.0]))
    assert not rating_lead(close)["clear"]
    assert rating_lead(ratings.head(1)) is None
