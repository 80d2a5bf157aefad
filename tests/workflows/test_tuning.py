"""powerlab tune: a known optimum recovered, reproducible and resumable searches, self-play
rounds, the CLI's outputs and its bad input (tiny budgets; heavier checks: docs/performance.md)."""

import numpy as np
import polars as pl
import pytest

from simcore.registry import SpecError
from simcore.workflows import tuning
from tests.cli.clitools import powerlab, tree_digest

# Every other seat challenges every claim it can: each bluff is caught, so a bluffer loses
# influence for every bluff and the best p_bluff is 0 (measured: 71.8% at 0, 66.0% at 0.1,
# 53.1% at the default 0.3, 23.4% at 0.8 over 8,000 games).
ALWAYS_CHALLENGED = ("power", 4, "bluffer", ["bluffer:p_challenge=1"])


def small_spec(**options) -> tuning.TuneSpec:
    game, players, strategy, against = ALWAYS_CHALLENGED
    options = {"only": ["p_bluff"], "min_games": 12, "final_games": 2000, **options}
    return tuning.build_spec(game, players, strategy, against, [], 3, 6000, **options)


def test_tuning_recovers_the_known_optimum(tmp_path):
    summary = tuning.tune(small_spec(), tmp_path / "tune")
    assert summary["best_params"]["p_bluff"] < 0.1
    fresh = summary["fresh"]
    assert fresh["seed"] == 4  # fresh games: another root seed than the search's
    assert fresh["diff_ci_low"] > 0.1  # far better than the default p_bluff = 0.3
    assert fresh["ci_low"] < fresh["win_rate"] < fresh["ci_high"]
    trials = pl.read_parquet(tmp_path / "tune" / "trials.parquet")
    assert set(trials["state"]) <= {"complete", "pruned"} and (trials["state"] == "pruned").any()
    assert summary["search"]["games"] >= 6000 * tuning.SEARCH_SHARE
    best = (tmp_path / "tune" / "best.txt").read_text().strip()
    assert best == summary["best"] and best.startswith("bluffer:p_bluff=")


class Interrupted(Exception):
    pass


class InterruptingPlayer(tuning.Player):
    """Stops the search in the middle of a trial, after ``calls`` evaluations."""

    def __init__(self, calls: int):
        super().__init__()
        self.calls = calls

    def outcomes(self, spec, first, stop):
        self.calls -= 1
        if self.calls < 0:
            raise Interrupted
        return super().outcomes(spec, first, stop)


def test_a_resumed_search_equals_an_uninterrupted_one(tmp_path):
    spec = small_spec()
    whole = tuning.tune(spec, tmp_path / "whole")
    with pytest.raises(Interrupted):
        tuning.tune_once(spec, tmp_path / "resumed", InterruptingPlayer(calls=25))
    stored = tuning._study(spec, tmp_path / "resumed").get_trials()
    assert [t.state.name for t in stored].count("RUNNING") == 1  # stopped inside a trial
    resumed = tuning.tune(spec, tmp_path / "resumed")
    assert resumed["best"] == whole["best"]
    assert resumed["fresh"] == whole["fresh"]
    a = pl.read_parquet(tmp_path / "whole" / "trials.parquet")
    b = pl.read_parquet(tmp_path / "resumed" / "trials.parquet")
    assert a.equals(b)


def test_a_tuning_killed_while_optuna_held_its_journal_lock_resumes(tmp_path):
    """A writer killed inside optuna's journal write leaves the lock (a symlink, here relative as
    optuna makes it from a relative --out); the resume removes it instead of spinning forever."""
    out = tmp_path / "t"
    with pytest.raises(Interrupted):
        tuning.tune_once(small_spec(), out, InterruptingPlayer(calls=25))
    (out / "optuna.journal.lock").symlink_to("t/optuna.journal")
    result = powerlab(
        "tune", "power", "-p", 4, "-s", "bluffer", "-a", "bluffer:p_challenge=1", "-n", 6000,
        "--param", "p_bluff", "--min-games", 12, "--final-games", 2000, "--seed", 3, "-o", out,
        timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert not (out / "optuna.journal.lock").is_symlink()


def test_a_finished_tuning_reruns_without_playing(tmp_path):
    spec = small_spec()
    tuning.tune(spec, tmp_path / "t")
    before = tree_digest(tmp_path / "t")
    play = tuning.Player()
    tuning.tune_once(spec, tmp_path / "t", play)
    assert play.games == 0 and tree_digest(tmp_path / "t") == before


def test_restricted_play_keeps_the_fixed_parameter(tmp_path):
    spec = small_spec(only=[], fixed=["p_bluff=0"], ranges=["p_challenge=0:0.5"])
    assert [d.name for d in spec.space] == ["p_challenge", "p_block_bluff", "targeting"]
    assert spec.space[0].high == 0.5
    assert spec.strategy["params"]["p_bluff"] == 0.0
    assert spec.candidate({"p_challenge": 0.2})["params"]["p_bluff"] == 0.0


def test_from_start_races_the_starting_parameters_first_and_once(tmp_path):
    # A narrowed range that excludes the start's p_challenge (0.15) leaves that one to the sampler.
    spec = small_spec(only=["p_bluff", "p_challenge"], ranges=["p_challenge=0.5:1"],
                      from_start=True)  # fmt: skip
    assert spec.start_params() == {"p_bluff": 0.3}
    with pytest.raises(Interrupted):  # stopped inside the first trial: the start's
        tuning.tune_once(spec, tmp_path / "t", InterruptingPlayer(calls=2))
    summary = tuning.tune(spec, tmp_path / "t")
    trials = pl.read_parquet(tmp_path / "t" / "trials.parquet").sort("number")
    assert trials["param_p_bluff"][0] == 0.3 and 0.5 <= trials["param_p_challenge"][0] <= 1
    assert (trials["param_p_bluff"] == 0.3).sum() == 1  # asked once, also across the resume
    assert summary["best_params"]["p_bluff"] < 0.1  # the start raced and lost
    # Without the option the identity is the one tune directories had before it.
    assert "from_start" not in small_spec().identity()
    assert spec.identity()["from_start"] is True


def test_self_play_iterates_best_responses(tmp_path):
    spec = tuning.build_spec(
        "power", 3, "bluffer", [], [], 1, 1400, self_play=True, only=["p_bluff"], min_games=6,
        final_games=600, rounds=2,
    )  # fmt: skip
    summary = tuning.tune(spec, tmp_path / "sp")
    rounds = summary["rounds"]
    assert 1 <= len(rounds) <= 2
    assert all(r["improved"] == (r["diff_ci_low"] > 0) for r in rounds)
    assert rounds[0]["incumbent"] == spec.spec_text({})
    if rounds[0]["improved"] and len(rounds) == 2:  # round 2 answers round 1's winner
        assert rounds[1]["incumbent"] == rounds[0]["best"]
    assert (tmp_path / "sp" / "round-1" / "summary.json").exists()


class CyclicPlayer(tuning.Player):
    """Rock-paper-scissors over the bluffer's targeting instead of games: each of leader, richest,
    most_influence wins 80% against three opponents of the one before it (and 20% against the
    one after), a mirror its fair share, random 10% against anything; the same draws for every
    candidate of a game range (common random numbers)."""

    CYCLE = ("leader", "richest", "most_influence")

    def outcomes(self, spec, first, stop):
        mine, theirs = (spec.strategies[k]["params"]["targeting"] for k in (0, 1))
        if mine == "random" or theirs == "random":
            p = 0.1 if mine == "random" else 0.9
        else:
            step = (self.CYCLE.index(mine) - self.CYCLE.index(theirs)) % 3
            p = (1 / spec.players, 0.8, 0.2)[step]
        draws = np.random.default_rng([spec.seed, first, stop]).random(stop - first)
        return np.stack([draws < p, np.ones(stop - first)], axis=1).astype(np.int8)


def test_self_play_races_earlier_incumbents_and_reports_a_cycle(tmp_path, monkeypatch):
    monkeypatch.setattr(tuning, "Player", CyclicPlayer)
    spec = tuning.build_spec(
        "power", 3, "bluffer", [], [], 1, 3000, self_play=True, only=["targeting"], min_games=6,
        final_games=600, rounds=6, from_start=True,
    )  # fmt: skip
    summary = tuning.tune(spec, tmp_path / "sp")
    winners = [r["best"].split("targeting=")[1].split(",")[0] for r in summary["rounds"]]
    assert winners == ["richest", "most_influence", "leader"]
    assert summary["cycle"] and summary["rounds"][-1]["cycle_to_round"] == 1
    assert "cycle" in summary["stopped"]
    # Round 3's first candidates: its incumbent, then the earlier ones in order.
    trials = pl.read_parquet(tmp_path / "sp" / "round-3" / "trials.parquet").sort("number")
    assert trials["param_targeting"].head(3).to_list() == ["most_influence", "leader", "richest"]


def test_cli_tune_writes_the_directory_and_report(tmp_path):
    out = tmp_path / "cli"
    result = powerlab(
        "tune", "power", "-p", 4, "-s", "bluffer", "-a", "bluffer:p_challenge=1", "-n", 3000,
        "--param", "p_bluff", "--min-games", 12, "--final-games", 400, "--seed", 3, "-o", out,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "fresh games" in result.stdout and "best.txt" in result.stdout
    assert "race games" not in result.stdout  # one search: no race
    for name in ("tune.json", "optuna.journal", "trials.parquet", "summary.json", "report.pdf"):
        assert (out / name).exists(), name
    best = (out / "best.txt").read_text().strip()
    run = powerlab("run", "power", "-p", 4, "-s", best, "-n", 8, "-o", tmp_path / "run")
    assert run.returncode == 0, run.stderr  # the best spec is ready for --strategy


BAD_TUNES = [
    ({"strategy": "nobody"}, "unknown strategy"),
    ({"against": []}, "--against"),
    ({"against": ["counter", "honest"]}, "one per other seat"),
    ({"self_play": True}, "--self-play"),
    ({"budget": 100}, "too small"),
    ({"ranges": ["p_bluff=0.5"]}, "--range"),
    ({"ranges": ["p_bluff=0:2"]}, "p_bluff"),
    ({"ranges": ["p_bluff=0.5:0.2"]}, "LOW < HIGH"),
    ({"only": ["nope"]}, "no parameter"),
    ({"strategy": "random"}, "no parameter left"),
    ({"sampler": "grid"}, "--sampler"),
    ({"fixed": ["p_bluff=2"]}, "p_bluff"),
    ({"seed": -1}, "--seed"),
    ({"starts": 0}, "--seeds"),
    ({"starts": 2, "self_play": True, "against": []}, "--seeds with --self-play"),
]


@pytest.mark.parametrize(("change", "needle"), BAD_TUNES)
def test_bad_tune_input_is_refused_in_one_line(change, needle):
    args = {"strategy": "bluffer", "against": ["counter"], "budget": 100_000, **change}
    options = {k: v for k, v in args.items() if k not in ("strategy", "against", "budget", "seed")}
    with pytest.raises(SpecError, match=needle) as error:
        tuning.build_spec(
            "power", 4, args["strategy"], args["against"], [], args.get("seed", 0),
            args["budget"], **options,
        )  # fmt: skip
    assert "\n" not in str(error.value)


def test_cli_bad_tune_input_is_one_line_exit_2_and_writes_nothing(tmp_path):
    result = powerlab("tune", "power", "-p", 4, "-s", "bluffer", "-o", tmp_path / "t")
    assert result.returncode == 2
    assert result.stderr.startswith("powerlab: error:") and "--against" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t").exists()


def test_another_spec_in_the_same_directory_is_refused(tmp_path):
    tuning.tune(small_spec(), tmp_path / "t")
    before = tree_digest(tmp_path / "t")
    with pytest.raises(SpecError, match="another tuning"):
        tuning.tune(small_spec(only=["p_challenge"]), tmp_path / "t")
    assert tree_digest(tmp_path / "t") == before


def test_shipped_presets_are_tuned_at_every_count_and_name_the_command_that_made_them():
    """Every game ships presets, each tuned at every player count the game allows; each tuning
    names every parameter of its strategy, and its command is a valid `powerlab tune` of that
    game, strategy and count: parsed by the CLI and checked as a tuning spec (ranges, fixed
    values, field), without playing it. ``preset:NAME`` at a count is that count's tuning."""
    import shlex

    import typer

    import cli
    from simcore import registry

    tune_command = typer.main.get_command(cli.app).commands["tune"]
    for game_id in registry.game_ids():
        game = registry.make(game_id)
        assert registry.presets(game_id), f"{game_id} ships no presets"
        counts = set(range(game.min_players, game.max_players + 1))
        for name, preset in registry.presets(game_id).items():
            assert preset["doc"] and set(preset["players"]) == counts, (name, preset["players"])
            for players, tuned in preset["players"].items():
                assert set(tuned) >= {"spec", "command", "measured"}, (name, players)
                spec = registry.parse_strategy(game, f"preset:{name}", players)
                assert spec == registry.parse_strategy(game, tuned["spec"])
                written = {item.split("=")[0] for item in tuned["spec"].split(":", 1)[1].split(",")}
                assert written == set(spec["params"]), f"{name} lists every parameter"
                words = shlex.split(tuned["command"])
                assert words[:3] == ["powerlab", "tune", game_id], tuned["command"]
                args = tune_command.make_context("tune", words[2:]).params
                assert args["strategy"].split(":")[0] == spec["name"], name
                assert args["players"] == players, tuned["command"]
                tuning.build_spec(
                    game_id, args["players"], args["strategy"], args["against"] or [],
                    args["settings"] or [], args["seed"], args["budget"],
                    self_play=args["self_play"], only=args["param"] or [], fixed=args["fix"] or [],
                    ranges=args["search_range"] or [], from_start=args["from_start"],
                )  # fmt: skip


def test_a_preset_is_the_tuning_at_the_runs_count():
    """``preset:NAME`` in a 3-player run is the preset's 3-player tuning; with no count given it
    is the one at 4 players (the count commands default to); a count it was not tuned at is a
    one-line error naming the counts it has."""
    from simcore import registry
    from simcore.workflows import runner

    game = registry.make("power")
    tunings = registry.presets("power")["counter-vs-mixed"]["players"]
    assert tunings[3]["spec"] != tunings[4]["spec"]
    spec = runner.build_spec("power", 3, ["preset:counter-vs-mixed"], [], 0, 10, True)
    assert spec.strategies == [registry.parse_strategy(game, tunings[3]["spec"])]
    default = registry.parse_strategy(game, "preset:counter-vs-mixed")
    assert default == registry.parse_strategy(game, tunings[4]["spec"])
    with pytest.raises(SpecError, match="tuned at 3, 4, 5, 6 players, not 7"):
        registry.parse_strategy(game, "preset:counter-vs-mixed", 7)


def test_an_unknown_preset_is_a_one_line_error():
    from simcore import registry

    with pytest.raises(SpecError, match="unknown preset 'nope' \\(known: bluffer-vs-mixed"):
        registry.parse_strategy(registry.make("power"), "preset:nope")


def test_a_preset_takes_overrides_of_its_own_parameters():
    from simcore import registry

    game = registry.make("power")
    preset = registry.parse_strategy(game, "preset:bluffer-vs-mixed")
    changed = registry.parse_strategy(game, "preset:bluffer-vs-mixed:p_bluff=0.1,targeting=leader")
    assert changed["params"] == {**preset["params"], "p_bluff": 0.1, "targeting": "leader"}
    for bad, message in (
        ("preset:bluffer-vs-mixed:nope=1", "has no parameter 'nope'"),
        ("preset:bluffer-vs-mixed:p_bluff=2", "p_bluff=2"),
        ("preset:bluffer-vs-mixed:p_bluff=0.1,p_bluff=0.2", "given twice"),
    ):
        with pytest.raises(SpecError, match=message):
            registry.parse_strategy(game, bad)


def test_a_tuning_on_dask_equals_the_local_one(tmp_path, dask_scheduler):
    spec = small_spec(final_games=400)
    local = tuning.tune(spec, tmp_path / "local")
    on_dask = tuning.tune(spec, tmp_path / "dask", scheduler=dask_scheduler)
    assert on_dask["best"] == local["best"] and on_dask["fresh"] == local["fresh"]
    a = pl.read_parquet(tmp_path / "local" / "trials.parquet")
    assert a.equals(pl.read_parquet(tmp_path / "dask" / "trials.parquet"))


def test_several_searches_race_their_winners_and_measure_the_best_on_unseen_games(tmp_path):
    summary = tuning.tune(small_spec(starts=2, final_games=1000), tmp_path / "multi")
    assert [s["seed"] for s in summary["starts"]] == [3, 5]  # even offsets from the root seed
    assert [s["own_fresh"]["seed"] for s in summary["starts"]] == [4, 6]
    race = summary["race"]
    assert race["seed"] == 7 and summary["fresh"]["seed"] == 8  # seeds no search played
    rates = [c["win_rate"] for c in race["candidates"]]
    assert rates == sorted(rates, reverse=True) and summary["best"] == race["candidates"][0]["spec"]
    assert sorted(k for c in race["candidates"] for k in c["starts"]) == [1, 2]
    assert (race["runner_up"] is None) == (len(race["candidates"]) == 1)
    assert summary["best_params"]["p_bluff"] < 0.1 and summary["fresh"]["diff_ci_low"] > 0.1
    for k in (1, 2):  # each search is a whole tune directory of its own
        one = tmp_path / "multi" / f"start-{k}"
        assert (one / "summary.json").exists() and (one / "trials.parquet").exists()
    assert (tmp_path / "multi" / "best.txt").read_text().strip() == summary["best"]
    again = tuning.tune(small_spec(starts=2, final_games=1000), tmp_path / "multi")
    assert again == summary  # a finished multi-start reruns without playing
    with pytest.raises(SpecError, match="another tuning"):
        tuning.tune(small_spec(starts=3, final_games=1000), tmp_path / "multi")


def test_cli_tune_with_several_seeds_reports_the_race(tmp_path):
    out = tmp_path / "seeds"
    result = powerlab(
        "tune", "power", "-p", 4, "-s", "bluffer", "-a", "bluffer:p_challenge=1", "-n", 3000,
        "--param", "p_bluff", "--min-games", 12, "--final-games", 400, "--seed", 3,
        "--seeds", 2, "-o", out,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "race games (seed 7)" in result.stdout and "fresh games (seed 8)" in result.stdout
    assert (out / "report.pdf").exists() and (out / "start-2" / "best.txt").exists()


@pytest.mark.parametrize(
    "rates, verdict, gain",
    [
        ([0.30, 0.35, 0.31, 0.33, 0.32, 0.34], "settled", -0.01),  # the best came early
        ([0.30, 0.31, 0.32, 0.31, 0.30, 0.36], "improving", 0.04),  # the last third found more
        ([0.30, 0.40, 0.35], "too few", None),
    ],
)
def test_a_search_says_whether_it_had_settled(rates, verdict, gain):
    table = pl.DataFrame(
        {
            "state": ["complete", "pruned"] * len(rates),
            "win_rate": [r for rate in rates for r in (rate, 0.99)],  # pruned ones do not count
        }
    )
    entry = tuning.settling(table, 10_000)
    assert entry["verdict"] == verdict and entry["finished"] == len(rates)
    if gain is not None:
        assert entry["last_third_gain"] == pytest.approx(gain)
    assert entry["suggested_budget"] == (10_000 if verdict == "settled" else 20_000)
    from reports.takeaways import settling

    assert {"settled": "Settled", "improving": "Still improving", "too few": "Only"}[
        verdict
    ] in settling({"settling": entry})


def test_a_presets_file_of_another_shape_is_one_line_naming_the_key(tmp_path, monkeypatch):
    from simcore import registry

    shipped = (registry.PRESETS_DIR / "power.toml").read_text()
    monkeypatch.setattr(registry, "PRESETS_DIR", tmp_path)
    (tmp_path / "power.toml").write_text(
        shipped.replace(
            "[counter-vs-mixed.players.3]\n", "[counter-vs-mixed.players.3]\nrounds = 2\n"
        )
    )
    with pytest.raises(
        SpecError, match=r"power.toml: counter-vs-mixed.players.3.rounds: unknown key"
    ):
        registry.parse_strategy(registry.make("power"), "preset:counter-vs-mixed", 3)
    (tmp_path / "power.toml").write_text(
        shipped.replace('[counter-vs-mixed]\ndoc = "', '[counter-vs-mixed]\ndoc = 3\nnote = "')
    )
    with pytest.raises(
        SpecError, match=r"counter-vs-mixed.note: unknown key \(expected one of doc, players\)"
    ):
        registry.presets("power")
