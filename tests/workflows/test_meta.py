"""The meta-game: solver wiring on payoff tables with known answers, and `powerlab meta` end to end
(tiny game counts; the cost of real meta-games is in docs/performance.md)."""

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from open_spiel.python.egt import alpharank

from analyses import gametheory
from analyses.meta import load_meta, solve
from simcore.registry import SpecError
from simcore.workflows import meta
from tests.cli.clitools import powerlab, tree_digest


def game_from(payoff, strategies: int, players: int):
    """Normal form of the symmetric game whose lineup payoffs ``payoff(lineup)`` gives."""
    table = {}
    for lineup in gametheory.lineups(strategies, players):
        row = np.full(strategies, np.nan)
        for j in set(lineup):
            row[j] = payoff(lineup, j)
        table[lineup] = row
    return gametheory.normal_form(table, strategies, players)


def rock_paper_scissors(lineup, j):
    beats = {(0, 2), (2, 1), (1, 0)}  # rock beats scissors beats paper beats rock
    other = lineup[1] if lineup[0] == j else lineup[0]
    return 0.5 if other == j else float((j, other) in beats)


def volunteers(lineup, j, cost=0.25):
    """Three players; volunteering (1) costs ``cost``, and everyone gets 1 if anyone volunteers.
    The symmetric equilibrium volunteers with p where (1 - p)^2 = cost: p = 1 - sqrt(cost)."""
    return 1 - cost if j == 1 else float(1 in lineup)


def dominated(lineup, j):
    """Strategy 0 wins 60% of any table; the others share little, whoever they meet."""
    return 0.6 if j == 0 else 0.1 + 0.01 * j + 0.02 * lineup.count(0)


def test_normal_form_reads_each_profile_from_its_multiset():
    arrays = game_from(lambda lineup, j: 10 * j + len(set(lineup)), 3, 3)
    assert arrays[0][2, 0, 1] == 23 and arrays[1][2, 0, 1] == 3 and arrays[2][2, 0, 1] == 13
    assert arrays[0][1, 1, 1] == 11


def test_rock_paper_scissors_mixes_evenly_and_nothing_dominates():
    arrays = game_from(rock_paper_scissors, 3, 2)
    equilibrium = gametheory.symmetric_equilibrium(arrays)
    assert equilibrium.mix == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert equilibrium.regrets == pytest.approx([0, 0, 0], abs=1e-6)
    assert gametheory.dominant_strategy(arrays) == (None, False)
    for alpha in (0.1, 10, math.inf):  # a cycle: every strategy equally long-lived
        assert gametheory.alpha_rank(arrays, alpha) == pytest.approx([1 / 3] * 3, abs=1e-6)


def test_a_dominant_strategy_is_found_and_is_the_equilibrium():
    arrays = game_from(dominated, 4, 4)
    assert gametheory.dominant_strategy(arrays) == (0, True)
    equilibrium = gametheory.symmetric_equilibrium(arrays)
    assert equilibrium.mix == pytest.approx([1, 0, 0, 0])
    # a deviant j meets three 0s: 0.1 + 0.01 j + 0.06, against the 0.6 of staying
    assert equilibrium.regrets[1:] == pytest.approx([-0.43, -0.42, -0.41])
    mass = gametheory.alpha_rank(arrays, 100)
    assert list(gametheory.ranks(mass))[0] == 1 and mass[0] > 0.99


def test_three_player_volunteers_dilemma_has_its_known_mixed_equilibrium():
    arrays = game_from(volunteers, 2, 3)
    equilibrium = gametheory.symmetric_equilibrium(arrays)
    assert equilibrium.mix == pytest.approx([0.5, 0.5], abs=1e-6)
    assert equilibrium.method == "logit"
    assert equilibrium.values == pytest.approx([0.75, 0.75], abs=1e-6)
    assert gametheory.dominant_strategy(arrays) == (None, False)


def test_a_cycle_where_the_logit_tracer_fails_gets_its_equilibrium_from_liap():
    """Power Struggle's builder self-play winners (their best responses cycle): gambit's logit
    tracer stops at a branch point and no pure equilibrium exists, so the equilibrium comes from
    gambit's liap_solve, polished; it must pass the regret check to 1e-9 (docs/meta.md)."""
    import pygambit as gbt

    data = json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "cyclic_meta_payoffs.json").read_text()
    )
    payoffs = {
        tuple(lineup): np.array([np.nan if p is None else p for p in row])
        for lineup, row in data["payoffs"]
    }
    arrays = gametheory.normal_form(payoffs, data["strategies"], data["players"])
    assert gbt.nash.logit_solve(gametheory._gambit_game(arrays)).equilibrium is None
    equilibrium = gametheory.symmetric_equilibrium(arrays)
    assert equilibrium.method == "liap"
    assert equilibrium.mix.sum() == pytest.approx(1) and equilibrium.mix.min() >= 0
    assert equilibrium.max_regret < 1e-9
    played = equilibrium.mix > 0
    assert played.sum() >= 2  # a mixed answer: the cycle has no pure one
    assert np.ptp(equilibrium.values[played]) < 1e-9  # what it plays earns the same


@pytest.mark.parametrize("alpha", [0.1, 1.0, 10.0])
def test_alpha_rank_matches_openspiel_compute(alpha):
    """The linear solve of the stationary distribution equals OpenSpiel's own eigenvector."""
    rng = np.random.default_rng(7)
    noise = {lineup: rng.random(3) for lineup in gametheory.lineups(3, 3)}
    arrays = game_from(lambda lineup, j: noise[lineup][j], 3, 3)
    _, _, pi, _, _ = alpharank.compute(arrays, alpha=alpha)
    expected = pi.reshape((3, 3, 3)).sum(axis=(1, 2))
    assert gametheory.alpha_rank(arrays, alpha) == pytest.approx(expected, abs=1e-6)


def test_alpha_rank_without_a_unique_ranking_says_so():
    """Two strict equilibria (coordination) and strong selection: the chain falls apart into
    two closed classes, so no ranking exists at that alpha; weak selection still ranks."""
    arrays = game_from(lambda lineup, j: float(len(set(lineup)) == 1), 2, 2)
    assert gametheory.alpha_rank(arrays, 100) is None
    assert gametheory.alpha_rank(arrays, 0.1) == pytest.approx([0.5, 0.5])


POWER_POPULATION = [
    "random", "honest", "bluffer", "bluffer:p_bluff=0.1,p_challenge=0.05", "counter",
    "counter:threshold=0.3",
]  # fmt: skip


def population_file(tmp_path, strategies, game="power"):
    path = tmp_path / "population.toml"
    path.write_text(f'game = "{game}"\nstrategies = {json.dumps(strategies)}\n')
    return path


@pytest.fixture(scope="module")
def power_meta(tmp_path_factory):
    folder = tmp_path_factory.mktemp("meta")
    out = folder / "meta"
    path = population_file(folder, POWER_POPULATION)
    # 3 players keep the solvers' normal form at 6^3 profiles; docs/performance.md runs every
    # game at 4 players (6^4 profiles: alpha-rank alone takes ~6 s a solve on 2 shared cores).
    result = powerlab(
        "meta", "power", "-p", 3, "--population", path, "-n", 42, "--seed", 2,
        "--resamples", 2, "-o", out,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return out, path, result


def test_meta_plays_every_lineup_and_writes_the_report(power_meta):
    out, _, result = power_meta
    assert len(list((out / "lineups").iterdir())) == math.comb(6 + 3 - 1, 3)
    assert (out / "report.pdf").stat().st_size > 0
    assert "Alpha-rank" in result.stdout
    payoffs = pl.read_parquet(out / "payoffs.parquet")
    mirror = payoffs.filter(pl.col("lineup") == "counter, counter, counter")
    assert mirror["seats"].to_list() == [3]
    assert 0 < mirror["win_rate"][0] <= 1 / 3
    solution = json.loads((out / "solution.json").read_text())
    assert solution["labels"][3] == "bluffer:p_bluff=0.1,p_challenge=0.05"
    equilibrium = solution["equilibrium"]
    assert sum(equilibrium["mix"]) == pytest.approx(1)
    assert max(equilibrium["regrets"]) <= 1e-5
    assert len(solution["alpharank"]["order"]) >= 1 and solution["resamples"] == 2


def test_meta_payoffs_pair_the_same_games_in_every_lineup(power_meta):
    out, _, _ = power_meta
    game = load_meta(out)
    assert game.wins.shape == (56, 42, 6)
    # the seats a strategy fills win at most that many times a game
    assert (game.wins <= game.seats[:, None, :]).all()
    table = pl.read_parquet(out / "payoffs.parquet")
    assert (table["wins"] <= table["games"]).all() and len(table) == game.seats.astype(bool).sum()


def test_meta_rerun_plays_nothing_more_and_another_spec_is_refused(power_meta):
    out, path, _ = power_meta
    parts = {k: v for k, v in tree_digest(out / "lineups").items() if "/games/" in k}
    spec = meta.build_spec("power", 3, path, [], 2, 42)
    meta.run_meta(spec, out)
    assert {k: v for k, v in tree_digest(out / "lineups").items() if "/games/" in k} == parts
    with pytest.raises(SpecError, match="another meta-game"):
        meta.run_meta(meta.build_spec("power", 3, path, [], 3, 42), out)


def test_meta_on_a_two_player_game(tmp_path):
    strategies = ["random", "tech_rush", "swarm", "attacker", "builder", "builder:w_site=2"]
    spec = meta.build_spec(
        "time-barons", 2, population_file(tmp_path, strategies, "time-barons"), [], 1, 20
    )
    meta.run_meta(spec, tmp_path / "m")
    solution = solve(load_meta(tmp_path / "m"), resamples=2, seed=5)
    assert solution["players"] == 2 and len(solution["labels"]) == 6
    assert solve(load_meta(tmp_path / "m"), resamples=2, seed=5) == solution  # seeded resamples
    assert len(list((tmp_path / "m" / "lineups").iterdir())) == math.comb(7, 2)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('strategies = ["counter"]', "at least 2"),
        ('strategies = "counter"', "list of specs"),
        ('strategies = ["counter", "counter"]', "appears twice"),
        ('strategies = ["counter", "nobody"]', "unknown strategy"),
        ('game = "time-barons"\nstrategies = ["counter", "honest"]', "not 'power'"),
        ('strategy = ["counter", "honest"]', "unknown key"),
        ("strategies = [", "not valid TOML"),
    ],
)
def test_bad_population_files_are_one_line_errors(tmp_path, text, needle):
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(SpecError, match=needle) as error:
        meta.build_spec("power", 4, path, [], 0, 10)
    assert "\n" not in str(error.value)


def test_too_many_profiles_are_refused(tmp_path):
    path = population_file(tmp_path, [f"bluffer:p_bluff={k / 20}" for k in range(12)])
    with pytest.raises(SpecError, match="profiles"):
        meta.build_spec("power", 6, path, [], 0, 10)
