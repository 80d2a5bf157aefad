"""Each analysis against a slow, obvious recomputation from the raw Parquet rows."""

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest
from scipy.stats import binomtest, chisquare

from analyses import AnalysisError
from analyses.dataset import Run, load_run, seats_long
from analyses.impact import impact
from analyses.length import game_length
from analyses.metrics import ludii_metrics
from analyses.stats import wilson_interval, with_win_rate
from analyses.summary import summary, summary_text
from analyses.winrates import (
    by_seat,
    by_strategy,
    convergence,
    matchup_matrix,
    matchup_pivot,
    seat_advantage,
)
from tests.cli.fakerun import make_fake_run

RUNS = {
    "4p rotated": {"players": 4, "games": 2000},
    "6p fixed seats": {
        "players": 6,
        "games": 1200,
        "rotate": False,
        "lineup": ["counter:threshold=0.7", "bluffer", "honest", "greedy", "counter", "random"],
    },
    "3p duplicate label": {"players": 3, "games": 900, "lineup": ["counter", "counter", "random"]},
    "2p": {"players": 2, "games": 600, "seed": 5},
    "2p all cut off": {"players": 2, "games": 100, "cut_off_share": 1.0},
}


@pytest.fixture(scope="module", params=list(RUNS))
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Run:
    return load_run(make_fake_run(tmp_path_factory.mktemp("run"), **RUNS[request.param]))


def raw_games(run: Run) -> list[dict]:
    """Every game as a dict of plain Python values, read with pandas, not with the analyses."""
    frames = [pd.read_parquet(part) for part in sorted((run.path / "games").glob("*.parquet"))]
    records = pd.concat(frames).astype(object).to_dict("records")
    return sorted(records, key=lambda game: game["game_index"])


def has_result(game: dict) -> bool:
    """The game was not cut off by the simulation's cap: it counts for win rates."""
    return game["ended_by"] != "cap"


def seat_rows(run: Run) -> list[dict]:
    """(game, seat) rows of the games with a result, built by hand: strategy, won, and the other
    per-seat values."""
    return [
        {
            "game_index": game["game_index"],
            "seat": k,
            "strategy": game[f"s{k}_strategy"],
            "won": bool(game[f"s{k}_won"]),
            "turns": game["turns"],
            "ended_by": game["ended_by"],
            "coins": game[f"s{k}_coins"],
            "start_card0": game[f"s{k}_start_card0"],
            "start_card1": game[f"s{k}_start_card1"],
        }
        for game in raw_games(run)
        if has_result(game)
        for k in range(run.players)
    ]


def scipy_wilson(wins: int, trials: int) -> tuple[float, float]:
    interval = binomtest(wins, trials).proportion_ci(confidence_level=0.95, method="wilson")
    return interval.low, interval.high


def assert_rates(table: pl.DataFrame, key: str, expected: dict, trials: str = "games") -> None:
    """``table`` has exactly the (trials, wins) per key of ``expected``, with scipy's intervals;
    a key without trials (all its games cut off) has no rate."""
    assert sorted(table.filter(pl.col(trials) > 0)[key].to_list()) == sorted(expected)
    for row in table.iter_rows(named=True):
        if row[trials] == 0:
            assert row["wins"] == 0 and math.isnan(row["win_rate"]) and math.isnan(row["ci_low"])
            continue
        n, wins = expected[row[key]]
        assert (row[trials], row["wins"]) == (n, wins)
        assert row["win_rate"] == pytest.approx(wins / n)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(scipy_wilson(wins, n))


def tally(rows: list[dict], key: str) -> dict:
    """{key value: [seat-rows, wins]} counted one row at a time."""
    counts: dict = {}
    for row in rows:
        entry = counts.setdefault(row[key], [0, 0])
        entry[0] += 1
        entry[1] += row["won"]
    return {value: tuple(entry) for value, entry in counts.items()}


def test_load_run_reads_the_run_directory(run: Run) -> None:
    info = json.loads((run.path / "run.json").read_text())
    assert run.players == info["spec"]["players"]
    assert run.lineup == info["lineup"]
    assert len(run.parts) == 2
    assert run.seat_fields == ["strategy", "won", "coins", "start_card0", "start_card1"]
    assert run.scan().select(pl.len()).collect().item() == info["spec"]["games"]
    assert run.describe().startswith(f"fake, {run.players} players: ")


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda d: d.rename(d.with_name("elsewhere")), "no such run directory"),
        (lambda d: (d / "run.json").unlink(), "no run.json"),
        (lambda d: (d / "run.json").write_text("{not json"), "invalid JSON"),
        (lambda d: (d / "run.json").write_text('{"spec": {}}'), "older powerlab"),
        (lambda d: (d / "run.json").write_text('{"format": 2, "spec": {}}'), "spec.game"),
        (lambda d: [p.unlink() for p in (d / "games").iterdir()], "no games yet"),
        (lambda d: max((d / "games").iterdir()).write_bytes(b"garbage"), "checksum"),
    ],
)
def test_load_run_rejects_invalid_directories(tmp_path: Path, damage, message: str) -> None:
    run_dir = make_fake_run(tmp_path, games=50)
    damage(run_dir)
    with pytest.raises(AnalysisError, match=message) as raised:
        load_run(run_dir)
    assert isinstance(raised.value, ValueError)
    assert "\n" not in str(raised.value)


def test_load_run_rejects_missing_columns(tmp_path: Path) -> None:
    run_dir = make_fake_run(tmp_path, games=50)
    info = json.loads((run_dir / "run.json").read_text())
    info["impact"][0]["columns"].append("start_card2")
    (run_dir / "run.json").write_text(json.dumps(info))
    with pytest.raises(AnalysisError, match="s0_start_card2"):
        load_run(run_dir)


def test_load_run_rejects_parts_of_another_run(tmp_path: Path) -> None:
    run_dir = make_fake_run(tmp_path / "a", games=50)
    other = make_fake_run(tmp_path / "b", players=3, games=50)
    max((other / "games").iterdir()).rename(
        run_dir / "games" / "part-000000000050-000000025.parquet"
    )
    with pytest.raises(AnalysisError, match="part-000000000050-000000025.parquet: not in the"):
        load_run(run_dir)


def test_seats_long_has_one_row_per_game_with_a_result_and_seat(run: Run) -> None:
    long = seats_long(run).sort("game_index", "seat").collect()
    expected = seat_rows(run)
    assert long.columns[:6] == ["game_index", "seat", "strategy", "won", "turns", "ended_by"]
    assert long.rows(named=True) == expected


def test_wilson_interval_is_scipys_and_nan_without_trials() -> None:
    assert wilson_interval(7, 20) == pytest.approx(scipy_wilson(7, 20))
    assert wilson_interval(0, 20) == pytest.approx(scipy_wilson(0, 20))
    assert all(math.isnan(bound) for bound in wilson_interval(0, 0))
    table = with_win_rate(pl.DataFrame({"games": [0, 4], "wins": [0, 4]}))
    assert math.isnan(table["win_rate"][0]) and math.isnan(table["ci_low"][0])
    assert table["win_rate"][1] == 1.0 and table["ci_high"][1] == pytest.approx(1.0)


def test_by_seat_counts_each_seats_wins(run: Run) -> None:
    table = by_seat(run)
    assert table["seat"].to_list() == list(range(run.players))
    assert_rates(table, "seat", tally(seat_rows(run), "seat"))


def test_by_strategy_counts_seat_rows(run: Run) -> None:
    table = by_strategy(run)
    assert table["strategy"].to_list() == list(dict.fromkeys(run.lineup))
    expected = tally(seat_rows(run), "strategy")
    assert_rates(table, "strategy", expected)
    # A label seated twice per game plays twice as many seat-rows as there are games.
    seats_per_game = Counter(run.lineup)
    games = sum(has_result(game) for game in raw_games(run))
    assert dict(zip(table["strategy"], table["games"], strict=True)) == {
        label: count * games for label, count in seats_per_game.items()
    }


def test_hopeless_strategy_has_zero_wins_and_a_proper_interval(run: Run) -> None:
    row = by_strategy(run).filter(pl.col("strategy") == "random").row(0, named=True)
    if row["games"] == 0:  # every game was cut off: no rate at all rather than a fake 0%
        assert math.isnan(row["win_rate"]) and math.isnan(row["ci_low"])
        return
    assert row["wins"] == 0 and row["win_rate"] == 0.0 and row["ci_low"] == 0.0
    assert 0 < row["ci_high"] < 0.1


def test_seat_advantage_is_scipys_chisquare_on_single_winners(run: Run) -> None:
    result = seat_advantage(run)
    counts = [0] * run.players
    for game in raw_games(run):
        if has_result(game) and game["winner"] >= 0:
            counts[game["winner"]] += 1
    assert result["wins"] == counts
    assert result["games"] == sum(counts)
    assert result["dof"] == run.players - 1
    assert result["expected"] == pytest.approx([sum(counts) / run.players] * run.players)
    if sum(counts) == 0:
        assert math.isnan(result["statistic"]) and math.isnan(result["p_value"])
    else:
        expected = chisquare(counts)
        assert result["statistic"] == pytest.approx(expected.statistic)
        assert result["p_value"] == pytest.approx(expected.pvalue)


@pytest.mark.parametrize("grouped", [False, True], ids=["labels", "last two as others"])
def test_matchup_matrix_counts_games_together(run: Run, grouped: bool) -> None:
    distinct = list(dict.fromkeys(run.lineup))
    groups = {label: "others" for label in distinct[-2:]} if grouped else {}
    table = matchup_matrix(run, groups)
    labels = list(dict.fromkeys(groups.get(label, label) for label in distinct))
    expected = {}
    for a in labels:
        for b in labels:
            if a == b:
                continue
            together = won = 0
            for game in filter(has_result, raw_games(run)):
                labels_here = [game[f"s{k}_strategy"] for k in range(run.players)]
                seated = [groups.get(label, label) for label in labels_here]
                if a in seated and b in seated:
                    together += 1
                    won += any(seated[k] == a and game[f"s{k}_won"] for k in range(run.players))
            if together:
                expected[(a, b)] = (together, won)
    keys = list(zip(table["strategy"], table["opponent"], strict=True))
    assert sorted(keys) == sorted(expected)
    for row in table.iter_rows(named=True):
        n, wins = expected[(row["strategy"], row["opponent"])]
        assert (row["games"], row["wins"]) == (n, wins)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(scipy_wilson(wins, n))


def test_matchup_pivot_is_square_with_an_empty_diagonal(run: Run) -> None:
    table = matchup_matrix(run)
    wide = matchup_pivot(table)
    labels = wide["strategy"].to_list()
    assert wide.columns == ["strategy", *labels]
    for row in wide.iter_rows(named=True):
        assert row[row["strategy"]] is None
    for pair in table.iter_rows(named=True):
        cell = wide.filter(pl.col("strategy") == pair["strategy"])[pair["opponent"]].item()
        assert cell == pair["win_rate"]


def test_matchup_matrix_of_a_single_label_is_empty(tmp_path: Path) -> None:
    run = load_run(make_fake_run(tmp_path, players=3, games=60, lineup=["counter"] * 3))
    table = matchup_matrix(run)
    assert table.is_empty()
    assert matchup_pivot(table).columns == ["strategy"]


def test_game_length_statistics(run: Run) -> None:
    turns = np.array([game["turns"] for game in raw_games(run)])
    finished = np.array([game["turns"] for game in raw_games(run) if has_result(game)])
    cut_off = [game["turns"] for game in raw_games(run) if not has_result(game)]
    length = game_length(run)
    assert length.games == len(turns)
    if len(finished):  # the statistics describe the games with a result
        assert length.mean == pytest.approx(finished.mean())
        assert length.median == pytest.approx(np.median(finished))
        assert length.p10 == pytest.approx(np.percentile(finished, 10))
        assert length.p90 == pytest.approx(np.percentile(finished, 90))
    else:
        assert (length.mean, length.median, length.p10, length.p90) == (None, None, None, None)
    assert length.cut_off_share == pytest.approx(len(cut_off) / len(turns))
    counts, cut_off_counts = Counter(turns.tolist()), Counter(cut_off)
    assert length.counts.rows() == [
        (value, counts[value], cut_off_counts[value]) for value in sorted(counts)
    ]


def test_ludii_metrics(run: Run) -> None:
    rates = {seat: wins / n for seat, (n, wins) in tally(seat_rows(run), "seat").items()}
    turns = [game["turns"] for game in raw_games(run) if has_result(game)]
    cut_off = [not has_result(game) for game in raw_games(run)]
    metrics = dict(ludii_metrics(run).select("metric", "value").iter_rows())
    if not turns:  # nothing has a result: nothing to measure but the timeouts
        assert metrics["Timeouts"] == 1.0
        assert all(metrics[k] is None or math.isnan(metrics[k]) for k in metrics if k != "Timeouts")
        return
    strategies = {s: wins / n for s, (n, wins) in tally(seat_rows(run), "strategy").items()}
    expected = {
        "Balance": 1 - (max(rates.values()) - min(rates.values())),
        "AdvantageP1": rates[0],
        "Timeouts": sum(cut_off) / len(cut_off),
        "DurationTurns": sum(turns) / len(turns),
    }
    if len(strategies) > 1:  # the balance between strategies, not only seats
        expected["StrategyBalance"] = 1 - (max(strategies.values()) - min(strategies.values()))
    assert metrics == pytest.approx(expected)
    assert all(ludii_metrics(run)["doc"].str.len_chars() > 10)


def test_impact_counts_seats_holding_each_value_once(run: Run) -> None:
    rows = seat_rows(run)
    if not rows:  # every game cut off: nothing to compare
        assert all(group.table.is_empty() for group in impact(run))
        return
    overall = sum(row["won"] for row in rows) / len(rows)
    expected: dict = {}
    for row in rows:
        for value in {row["start_card0"], row["start_card1"]}:
            entry = expected.setdefault(value, [0, 0])
            entry[0] += 1
            entry[1] += row["won"]
    [group] = impact(run)
    assert group.title == "starting character"
    assert group.columns == ["start_card0", "start_card1"]
    assert group.overall_win_rate == pytest.approx(overall)
    assert_rates(group.table, "value", {k: tuple(v) for k, v in expected.items()}, "seat_rows")
    for row in group.table.iter_rows(named=True):
        assert row["diff"] == pytest.approx(row["win_rate"] - overall)
    # Split by strategy: the same counts, per strategy label (the lineup has several).
    assert len(set(run.lineup)) > 1
    per_strategy: dict = {}
    for row in rows:
        for value in {row["start_card0"], row["start_card1"]}:
            entry = per_strategy.setdefault((row["strategy"], value), [0, 0])
            entry[0] += 1
            entry[1] += row["won"]
    split = group.by_strategy.with_columns(key=pl.concat_str("strategy", pl.lit("|"), "value"))
    expected = {f"{s}|{v}": tuple(counts) for (s, v), counts in per_strategy.items()}
    assert_rates(split, "key", expected, "seat_rows")


def test_impact_without_groups_is_empty(tmp_path: Path) -> None:
    run_dir = make_fake_run(tmp_path, games=40)
    info = json.loads((run_dir / "run.json").read_text())
    del info["impact"]
    (run_dir / "run.json").write_text(json.dumps(info))
    assert impact(load_run(run_dir)) == []


def test_convergence_recounts_each_checkpoint(run: Run) -> None:
    curves = convergence(run)
    if not seat_rows(run):  # every game cut off: no rate to follow
        assert curves.is_empty()
        return
    checkpoints = sorted(set(curves["games_played"]))
    games = run.spec["games"]
    assert len(checkpoints) <= 20 and checkpoints[-1] == games
    assert checkpoints[0] == min(10, games)
    rows = seat_rows(run)
    for checkpoint in checkpoints[::4] + [games]:
        expected = tally([row for row in rows if row["game_index"] < checkpoint], "strategy")
        at_checkpoint = curves.filter(pl.col("games_played") == checkpoint)
        assert_rates(at_checkpoint, "strategy", expected)
        for row in at_checkpoint.iter_rows(named=True):
            assert row["half_width"] == pytest.approx((row["ci_high"] - row["ci_low"]) / 2)
    final = curves.filter(pl.col("games_played") == games).drop("games_played", "half_width")
    assert final.equals(by_strategy(run))


def test_summary_is_json_and_matches_the_tables(run: Run) -> None:
    head = json.loads(json.dumps(summary(run), allow_nan=False))
    assert head["spec"] == run.spec and head["lineup"] == run.lineup
    assert head["games"] == run.spec["games"]
    assert head["cut_off_share"] == pytest.approx(game_length(run).cut_off_share)
    endings = Counter(game["ended_by"] for game in raw_games(run))
    assert head["ended_by"] == pytest.approx({k: n / head["games"] for k, n in endings.items()})
    assert bool(head["warnings"]) == (head["cut_off_share"] > 0.01)
    # JSON has no NaN: a rate without games is null.
    assert head["by_seat"] == by_seat(run).fill_nan(None).to_dicts()
    assert head["by_strategy"] == by_strategy(run).fill_nan(None).to_dicts()
    text = summary_text(run)
    assert text.splitlines()[0] == run.describe()
    for row in head["by_strategy"]:
        assert any(
            line.split()[:3] == [row["strategy"], str(row["games"]), str(row["wins"])]
            for line in text.splitlines()
        )


def test_seat_stat_means_match_a_direct_average(tmp_path):
    from analyses.seat_stats import seat_stat_columns, seat_stat_means

    run = load_run(make_fake_run(tmp_path, players=4, games=2000))
    columns = seat_stat_columns(run)
    assert columns, "the fake run declares a numeric per-seat column"
    means = seat_stat_means(run)
    frame = pd.concat([pd.read_parquet(p) for p in sorted((tmp_path).rglob("part-*.parquet"))])
    frame = frame[frame["ended_by"].astype(str) != "cap"]  # what cut-off games did is left out
    for column in columns:
        for row in means.iter_rows(named=True):
            values = [
                frame.loc[frame[f"s{k}_strategy"].astype(str) == row["strategy"], f"s{k}_{column}"]
                for k in range(4)
            ]
            expected = pd.concat(values).mean()
            assert row[column] == pytest.approx(expected)


def test_winner_stat_means_match_a_direct_average(tmp_path):
    from analyses.seat_stats import seat_stat_columns, winner_stat_means

    run = load_run(make_fake_run(tmp_path, players=4, games=2000))
    means = winner_stat_means(run)
    frame = pd.concat([pd.read_parquet(p) for p in sorted(tmp_path.rglob("part-*.parquet"))])
    frame = frame[frame["ended_by"].astype(str) != "cap"]
    seats = pd.concat(
        frame[[f"s{k}_won", *(f"s{k}_{c}" for c in seat_stat_columns(run))]].set_axis(
            ["won", *seat_stat_columns(run)], axis=1
        )
        for k in range(4)
    )
    assert means["statistic"].to_list() == seat_stat_columns(run)
    for row in means.iter_rows(named=True):
        column = seats[row["statistic"]]
        assert row["winning_seats"] == pytest.approx(column[seats["won"] == 1].mean())
        assert row["other_seats"] == pytest.approx(column[seats["won"] == 0].mean())
        assert row["winning_seats"] != pytest.approx(row["other_seats"])


def test_category_shares_count_each_ending_with_wilson_intervals(tmp_path):
    from analyses.outcomes import category_columns, category_shares
    from analyses.stats import wilson_interval

    run = load_run(make_fake_run(tmp_path, players=3, games=3000))
    # The standard ending first, then the game's own labelled columns; numeric ones left out.
    assert [c["name"] for c in category_columns(run)] == ["ended_by", "end"]
    shares = category_shares(run, "end")
    frame = pd.concat([pd.read_parquet(p) for p in sorted(tmp_path.rglob("part-*.parquet"))])
    expected = frame["end"].astype(str).value_counts()
    assert dict(zip(shares["value"], shares["games"], strict=True)) == expected.to_dict()
    assert shares["games"].to_list() == sorted(expected, reverse=True)
    assert shares["share"].sum() == pytest.approx(1.0)
    cut_off = (frame["ended_by"].astype(str) == "cap").sum()
    assert shares.filter(pl.col("value") == "turn cap")["games"][0] == cut_off
    for row in shares.iter_rows(named=True):
        assert (row["ci_low"], row["ci_high"]) == wilson_interval(row["games"], 3000)


def test_a_strategys_win_rate_is_a_seats_in_compare_as_in_summary(tmp_path: Path) -> None:
    """One definition: with two counter seats a game, compare's counter rate is the share of its
    seats that won, the same number as summary's per-seat rate (not "any counter won")."""
    from analyses.paired import compare_runs

    lineup = ["counter", "bluffer", "counter", "random"]
    run = load_run(make_fake_run(tmp_path, players=4, games=600, lineup=lineup))
    compared = compare_runs(run, run, "counter")
    rates = by_strategy(run)
    per_seat = rates.filter(pl.col("strategy") == "counter")["win_rate"][0]
    assert compared["rate_a"] == pytest.approx(per_seat)
    assert compared["diff"] == 0


def test_summary_names_the_games_a_run_lacks_instead_of_calling_it_finished(tmp_path: Path):
    from analyses.summary import summary_text
    from simcore.workflows import storage

    run_dir = make_fake_run(tmp_path, games=400)
    assert "400 of 400 games (finished)" in summary_text(load_run(run_dir))
    second = storage.read_manifest(run_dir)[1]
    second.path(run_dir).unlink()  # a part deleted by hand
    text = summary_text(load_run(run_dir))
    assert "(finished)" not in text
    assert f"incomplete: games 200-399 are not there; listed but missing: {second.name}" in text
