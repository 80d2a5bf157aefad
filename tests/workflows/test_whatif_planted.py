"""Planted cases of `powerlab whatif` (issue 43), each with a mechanism (docs/whatif.md, "Planted
cases"): a rule change whose effect has one sign among the default scripted bots and the other
among the tuned presets comes out as "depends"; one that moves a measure the same way whoever
plays comes out "robust", with that sign in all four fields. The seed is fixed, so every answer
is deterministic; each budget is the smallest at which the answer held with margin at seeds 0, 1
and 2 (the margin is noted per case)."""

import dataclasses

import polars as pl
import pytest

from analyses.intervention import LENGTH
from analyses.whatif import SPREAD, measures, robustness
from simcore.workflows import tuning, whatif

# The search field's games and iterations a cell, and the re-tuned field's tunings: the smallest
# tuning.build_spec accepts (MIN_FINISHERS candidates through every rung, the first of 25 games a
# seat).
SEARCH_GAMES = 20
SEARCH_ITERATIONS = 20
SMALLEST_TUNING_PER_PLAYER = 25 * tuning.REDUCTION ** (tuning.RUNGS - 1) * tuning.MIN_FINISHERS


def _answer(tmp_path, game, a, b, fields, games):
    """The measures table and robustness lines of a whatif of rule set ``a`` against ``b``."""
    request = whatif.plan(game, None, [], a, b, 0, "quick", games, list(fields), tmp_path / "out")
    budget = whatif.Budget(
        games, SEARCH_GAMES, SEARCH_ITERATIONS, SMALLEST_TUNING_PER_PLAYER * request.players
    )
    whatif.run(dataclasses.replace(request, budget=budget), notify=lambda _line: None)
    table = measures(request.out)
    assert set(table["field"]) == set(fields)
    return table, robustness(table)


@pytest.mark.parametrize(
    "game, a, b, measure, signs, games",
    [
        # Free failed challenges lift the blind challenger (bluffer, p_challenge > 0): the
        # default bluffer is the scripted field's weakest strategy, the tuned bluffers the tuned
        # field's strongest. Seeds 0-2 at 5,000 games: scripted -12.7, -12.0, -12.8 points;
        # tuned +2.5 [+1.7, +3.3], +2.3 [+1.7, +3.0], +1.7 [+1.0, +2.4].
        pytest.param(
            "power", ["failed_challenger_loses=1"], ["failed_challenger_loses=0"], SPREAD,
            {"scripted": -1, "tuned": +1}, 5_000, id="power",
        ),
        # The ban takes the corrupter's route away: the tuned corrupter leads the presets (65%),
        # the default corrupter trails the scripted bots (14%). Seeds 0-2 at 1,000 games:
        # scripted +15.5 [+10.1, +20.4], +13.9 [+8.2, +19.3], +11.6 [+6.2, +16.7] points; tuned
        # -8.3 [-13.2, -3.5], -12.7 [-18.0, -8.0], -9.4 [-14.2, -4.4].
        pytest.param(
            "power-struggle", ["bribes_allowed=true"], ["bribes_allowed=false"], SPREAD,
            {"scripted": +1, "tuned": -1}, 1_000, id="power-struggle",
        ),
        # Fighters at the Destroyer's price and back: the default raider buys Fighters, the
        # tuned raider Destroyers. Seeds 0-2 at 4,000 games: scripted -5.1, -4.6, -4.1 points;
        # tuned +2.3 [+0.8, +3.7], +2.2 [+0.8, +3.6], +2.6 [+1.1, +4.1].
        pytest.param(
            "power-the-game", ["price_fighter=5", "price_destroyer=10"],
            ["price_fighter=10", "price_destroyer=5"], "raider win rate",
            {"scripted": -1, "tuned": +1}, 4_000, id="power-the-game",
        ),
        # A hand limit of 5 (the deal's size) moves wins towards tech_rush in both fields (+1.6
        # and +2.6 points at seed 0), but the leader differs: the default tech_rush leads the
        # default swarm (95%), so the spread widens; the tuned swarm (hand_size 9, capped) leads
        # the tuned tech_rush (53%), so it narrows: "is the game more even with the limit?"
        # depends on the players. Seeds 0 and 1 at 20,000 games: scripted +3.5 [+3.0, +4.0], +3.6
        # [+3.1, +4.2]; tuned -2.9 [-4.6, -1.1], -2.8 [-4.0, -0.6] (at 4,000 the tuned side
        # was not clear of 0 at seeds 1 and 2).
        # One Political Influence card a turn instead of 12 moves wins from the flusher to the
        # barons in both fields (-0.7 points among the defaults, -4.2 among the presets), but the
        # default flusher leads the default barons (26.4% against 23.6%), so the spread
        # narrows, while the presets are even (24.9% against 25.0%), so it widens. Seeds 0 and
        # 1 at 20,000 games: scripted -1.4 [-2.4, -0.3], -1.2 [-2.2, -0.2]; tuned +5.6
        # [+4.4, +6.2], +5.7 [+4.6, +6.4] (at 4,000 the scripted side was not clear of 0).
        pytest.param(
            "power-barons", ["pi_cards_per_turn=12"], ["pi_cards_per_turn=1"], SPREAD,
            {"scripted": -1, "tuned": +1}, 20_000, id="power-barons",
        ),
        pytest.param(
            "time-barons", ["hand_limit=0"], ["hand_limit=5"], SPREAD,
            {"scripted": +1, "tuned": -1}, 20_000, id="time-barons",
        ),
    ],
)  # fmt: skip
def test_a_change_that_rewards_an_untuned_habit_depends_on_the_players(
    tmp_path, game, a, b, measure, signs, games
):
    table, lines = _answer(tmp_path, game, a, b, tuple(signs), games)
    rows = table.filter(pl.col("measure") == measure)
    assert lines.filter(pl.col("measure") == measure)["verdict"].to_list() == ["depends"], rows
    for field, sign in signs.items():
        (row,) = rows.filter(pl.col("field") == field).iter_rows(named=True)
        assert row["ci_low"] > 0 if sign > 0 else row["ci_high"] < 0, rows


@pytest.mark.parametrize(
    "game, a, b, sign",
    # Seed 1 gave the same verdict in every case, with every field's interval clear of 0.
    [
        # An overthrow (it always succeeds) for 5 Dollars instead of 7 comes sooner: seed 0 at
        # 500 games: -5.0 to -9.7 turns, the search field's 20 games -6.0 [-8.8, -3.2].
        pytest.param("power", ["overthrow_cost=7"], ["overthrow_cost=5"], -1, id="power"),
        # Bases of two types in every opponent's territory instead of three: seed 0: -10.8 to
        # -13.7 turns, the search field's -13.0 [-15.9, -10.1].
        pytest.param(
            "power-barons", ["types_to_win_4p=3"], ["types_to_win_4p=2"], -1, id="power-barons"
        ),
        # The rulebook's longer variant, 5 Victory Points to declare: seed 0: +4.1 to +6.0
        # turns, the search field's +6.0 [+3.8, +8.2].
        pytest.param(
            "power-struggle", ["victory_points=4"], ["victory_points=5"], +1, id="power-struggle"
        ),
        # The time limit at 16 rounds instead of 24: seed 0: -5.9 to -7.6 rounds, the search
        # field's -6.0 [-7.3, -4.7].
        pytest.param(
            "power-the-game", ["max_rounds=24"], ["max_rounds=16"], -1, id="power-the-game"
        ),
        # The game ends when 2 level stacks are empty, not 3: seeds 0 and 1: -1.2 [-1.9, -0.5]
        # (re-tuned, seed 0) to -4.0 turns, the search field's -4.0 [-6.2, -1.8] and
        # -3.2 [-5.6, -0.8].
        pytest.param("time-barons", ["stacks_to_end=3"], ["stacks_to_end=2"], -1, id="time-barons"),
    ],
)
def test_a_change_that_moves_the_game_length_by_the_rules_is_robust(tmp_path, game, a, b, sign):
    table, lines = _answer(tmp_path, game, a, b, whatif.FIELDS, 500)
    rows = table.filter(pl.col("measure") == LENGTH)
    assert lines.filter(pl.col("measure") == LENGTH)["verdict"].to_list() == ["robust"], rows
    assert ((rows["diff"] * sign) > 0).all(), rows
