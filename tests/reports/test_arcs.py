"""Game arcs (docs/arcs.md): the sample by game index, the stored standing, and every tension
metric on hand-built arcs with known answers."""

import os
import shutil

import numpy as np
import polars as pl
import pytest

from analyses import arcs as arcs_analysis
from simcore.kernel.chunk import arcs_sample
from tests.cli.clitools import in_process, one_error_line, tree_digest

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


# --- runs with arcs: storage, sampling across splits, integrity, CLI ---------------------------

PS = ["run", "power-struggle", "--players", 3, "--games", 600, "--seed", 4, "--arcs", "10%"]


def arcs_of(out) -> pl.DataFrame:
    return pl.read_parquet(sorted((out / "arcs").glob("part-*.parquet"))).sort(
        "game_index", "turn", "seat"
    )


@pytest.fixture(scope="module")
def ps_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("arcs") / "whole"
    code, _, err = in_process(*PS, "--out", out, "--chunk-size", 250)
    assert code == 0, err
    return out


def test_the_same_games_sampled_across_chunks_threads_and_shards(ps_run, tmp_path):
    whole = arcs_of(ps_run)
    assert whole["game_index"].unique().sort().to_list() == arcs_sample(0, 600, 0.1).tolist()
    code, _, err = in_process(*PS, "--out", tmp_path / "one", "--chunk-size", 600, "--threads", 1)
    assert code == 0, err
    assert arcs_of(tmp_path / "one").equals(whole)
    for k in (1, 2):
        code, _, err = in_process(*PS, "--out", tmp_path / f"s{k}", "--shard", f"{k}/2")
        assert code == 0, err
    code, _, err = in_process("merge", tmp_path / "s1", tmp_path / "s2", "--out", tmp_path / "m")
    assert code == 0, err
    assert arcs_of(tmp_path / "m").equals(whole)


def check_last_standing(out, players: int, final) -> None:
    """The last standing row of each sampled game is its end: the games table's ``turns`` and
    final columns (``final(seat)`` = {standing column: the games table expression})."""
    games = pl.read_parquet(sorted((out / "games").glob("*.parquet")))
    last = arcs_of(out).group_by("game_index", "seat").agg(pl.all().sort_by("turn").last())
    joined = last.join(games, on="game_index")
    assert joined.height == players * last["game_index"].n_unique() > 0
    assert (joined["turn"] == joined["turns"]).all()
    for seat in range(players):
        rows = joined.filter(pl.col("seat") == seat)
        for name, expected in final(seat).items():
            assert (rows[name] == rows.select(expected).to_series()).all(), (seat, name)


def test_the_last_standing_is_the_games_final_result(ps_run):
    assert arcs_of(ps_run)["game_index"].n_unique() == len(arcs_sample(0, 600, 0.1))
    check_last_standing(
        ps_run, 3, lambda k: {"vp": pl.col(f"s{k}_vp"), "money": pl.col(f"s{k}_money")}
    )


# Each game's standing as its games table's final columns (docs/arcs.md, "The standing of each
# game"): the players, and {standing column: expression} per seat.
FINAL_STANDING = {
    "power": (
        4,
        lambda k: {
            "influence": 2 - pl.col(f"s{k}_influence_lost"),
            "dollars": pl.col(f"s{k}_coins"),
        },
    ),
    "power-barons": (
        4,
        lambda k: {"bases": pl.col(f"s{k}_bases"), "credits": pl.col(f"s{k}_bank")},
    ),
    "time-barons": (
        2,
        lambda k: {"followers": pl.col(f"s{k}_followers"), "level": pl.col(f"s{k}_level")},
    ),
    "power-the-game": (
        3,
        lambda k: {"power": pl.col(f"s{k}_final_power"), "flags": pl.col(f"s{k}_flags_held")},
    ),
}


@pytest.mark.parametrize("game", list(FINAL_STANDING))
def test_every_games_last_standing_is_its_final_result(game, tmp_path):
    players, final = FINAL_STANDING[game]
    out = tmp_path / game
    code, _, err = in_process("run", game, "--players", players, "--games", 400, "--seed", 2,
                              "--arcs", "5%", "--out", out)  # fmt: skip
    assert code == 0, err
    assert (
        arcs_of(out)["game_index"].unique().sort().to_list() == arcs_sample(0, 400, 0.05).tolist()
    )
    check_last_standing(out, players, final)


def test_a_damaged_arcs_part_is_refused_then_repaired(ps_run, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(ps_run, out)
    before = arcs_of(out)
    part = sorted((out / "arcs").glob("part-*.parquet"))[1]
    part.write_bytes(part.read_bytes()[:-9] + b"x" * 9)
    code, _, err = in_process("summary", out)
    assert code == 2 and err.count("\n") == 1 and part.name in err and "checksum" in err
    code, _, err = in_process(*PS, "--out", out, "--chunk-size", 250)
    assert code == 0 and "removed, its games are computed again" in err
    assert arcs_of(out).equals(before)
    (out / "arcs" / "part-000000999000-000000250.parquet").write_bytes(part.read_bytes())
    code, _, err = in_process("summary", out)
    assert code == 2 and "arcs not in the manifest" in err


@pytest.fixture
def power_without_arcs(monkeypatch):
    """POWER as a game that declares no standing (as a new game starts out)."""
    import dataclasses

    from simcore import registry

    kernel = registry.make("power").kernel()
    monkeypatch.setattr(kernel, "GAME", dataclasses.replace(kernel.GAME, arcs=None))


def test_bad_arcs_input_is_one_line_and_changes_nothing(ps_run, tmp_path, power_without_arcs):
    before = tree_digest(ps_run)
    for args, message in (
        ([*PS[:-2], "--arcs", "5%", "--out", ps_run], "records the arcs of 10% of its games"),
        ([*PS[:-2], "--out", ps_run], "records the arcs of 10% of its games, not none"),
        ([*PS[:-2], "--arcs", "0%", "--out", tmp_path / "x"], "--arcs expects a share"),
        ([*PS[:-2], "--arcs", "ten", "--out", tmp_path / "x"], "--arcs expects a share"),
        (["run", "power", "--arcs", "1%", "--out", tmp_path / "x"], "power does not record arcs"),
    ):
        code, _, err = in_process(*args)
        assert code == 2 and err.count("\n") == 1 and message in err, err
    assert tree_digest(ps_run) == before
    assert not (tmp_path / "x").exists()


def test_games_of_lists_the_games_a_condition_picks_with_their_replay(ps_run):
    games = pl.read_parquet(sorted((ps_run / "games").glob("*.parquet")))
    expected = games.filter((pl.col("winner") == 2) & (pl.col("turns") < 20))["game_index"]
    code, out, err = in_process("games-of", ps_run, "--where", "winner == 2 and turns < 20",
                                "--limit", 1000)  # fmt: skip
    assert code == 0, err
    assert out.startswith(f"{len(expected):,} of the run's games meet")
    listed = [int(line.split(":")[0].removeprefix("game ")) for line in out.splitlines()[1:]]
    assert listed == sorted(expected.to_list())
    command = out.splitlines()[1].split(": ", 1)[1].split(": ", 1)[1]
    code, replay, _ = in_process(*command.split()[1:])
    assert code == 0 and "seat 2 (builder) wins" in replay.splitlines()[-1]


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("__import__('os').system('touch /tmp/pwned')", "is not allowed"),
        ("winner.__class__", "is not allowed"),
        ("open('x')", "is not allowed"),
        ("winnr == 1", "no column 'winnr'"),
        ("winner ==", "not a condition"),
        ("winner in 3", "`in` takes a list"),
        ("(" * 5000 + "winner" + ")" * 5000, "--where"),
    ],
)
def test_games_of_refuses_anything_but_a_condition(ps_run, where, message):
    code, out, err = in_process("games-of", ps_run, "--where", where)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_report_pages_and_tables(ps_run, tmp_path):
    from analyses.dataset import load_run
    from reports.legibility import check_page
    from reports.pdf import report_pages

    pages = report_pages(load_run(ps_run))
    titles = [page.title for page in pages]
    assert "Standing over the game: vp" in titles and "Tension metrics" in titles
    for page in pages:
        if page.title.startswith(("Standing", "Tension", "The games behind")):
            assert not check_page(page), page.title
    code, _, err = in_process(
        "report", ps_run, "-o", tmp_path / "r.pdf", "--tables", tmp_path / "t"
    )
    assert code == 0, err
    tables = {path.name: path for path in (tmp_path / "t").glob("*.csv")}
    assert len(tables) == sum(page.table is not None for page in pages)
    [tension] = [path for name, path in tables.items() if name.endswith("tension-metrics.csv")]
    metrics = pl.read_csv(tension)
    assert {"lead changes", "decisiveness", "comeback", "ended by cap"} <= set(metrics["metric"])
    (tmp_path / "file").write_text("x")
    code, _, err = in_process("report", ps_run, "-o", tmp_path / "r.pdf", "--tables",
                              tmp_path / "file")  # fmt: skip
    assert code == 2 and "--tables" in err


def test_a_first_compile_is_announced(monkeypatch, tmp_path):
    from simcore import registry
    from simcore.workflows import runner

    game = registry.make("power-struggle")
    assert runner.kernel_compiled(game)  # the fixtures above compiled it
    monkeypatch.setattr(runner, "kernel_compiled", lambda game, strategies=None: False)
    heard = []
    spec = runner.build_spec("power-struggle", 3, [], [], 0, 5, True)
    runner.run(spec, tmp_path / "x", notify=heard.append)
    assert heard == ["compiling the power-struggle kernel once (a minute or two)"]
    code, out, err = in_process("warmup", "power-struggle")
    assert code == 0 and out.startswith("power-struggle: compiled in") and "compiling" in err
    # In processes of their own (spawned), which find what this one compiled in the cache.
    jobs = str(min(2, os.cpu_count()))
    code, out, err = in_process("warmup", "power-struggle", "--jobs", jobs)
    assert code == 0 and out.startswith("power-struggle: already compiled, loaded in"), err
    code, _, err = in_process("warmup", "nonsense")
    assert code == 2 and "unknown game 'nonsense'" in err
    code, _, err = in_process("warmup", "--jobs", "0")
    assert code == 2 and "--jobs must be in [1, " in one_error_line(err)


def test_games_says_what_every_game_records():
    for game, unit, first in (
        ("power-struggle", "Department Turn", "vp"),
        ("power", "turn", "influence"),
        ("power-barons", "turn", "bases"),
        ("time-barons", "turn", "followers"),
        ("power-the-game", "round", "power"),
    ):
        code, out, _ = in_process("games", game)
        assert code == 0 and f"the standing after every {unit}," in out and f"  {first} " in out


def test_games_says_when_a_game_records_no_arcs(power_without_arcs):
    code, out, _ = in_process("games", "power")
    assert code == 0 and "does not record arcs yet" in out


def test_replay_commands_name_every_rule_that_differs(tmp_path):
    from analyses.selection import replay_command

    info = {
        "spec": {"game": "power-struggle", "players": 3, "seed": 7, "rotate_seats": False,
                 "rules": {"data": "", "victory_points": 5, "max_turns": 300}},
        "lineup": ["builder", "investor:x=1", "board"],
    }  # fmt: skip
    assert replay_command(info, 12) == (
        "powerlab replay power-struggle -i 12 --seed 7 -p 3 -s builder -s investor:x=1 -s board "
        "--set victory_points=5 --fixed-seats"
    )
    info["spec"]["game"] = "a-game-this-powerlab-lacks"
    assert "--set data= --set victory_points=5 --set max_turns=300" in replay_command(info, 1)
