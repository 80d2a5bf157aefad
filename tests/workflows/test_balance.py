"""`powerlab balance`: the planted test (a head start skews seat 0; the search must undo it),
data-file paths, bad balance files, resuming, and the study file of a proposed rule set."""

import json

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simcore.registry import SpecError
from simcore.workflows import balance, balance_spec, study
from tests.cli.clitools import in_process, one_error_line, tree_digest
from tests.workflows.balance_toy import register

PLANTED = """
title = "Toy: undo a head start"
game = "toy-race"
players = [2, 3]
strategies = ["reroller"]
rules = { head_start = 2 }
seed = 5

[search]
trials = 8
batch = 4
min_games = 300
rungs = 2
finalists = 2
final_games = 3000

[[params]]
rule = "head_start"
low = -3
high = 3

[[objectives]]
kind = "seat_fairness"
"""


@pytest.fixture(autouse=True)
def toy_game(monkeypatch):
    register(monkeypatch)


def write(tmp_path, text: str, name: str = "balance.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_planted_head_start_is_undone(tmp_path):
    """Seat 0's head start of 2 pips is planted in the file's rules; the search proposes the
    fair value 0, whose seat deviations are within their intervals of 0 and clearly below the
    planted rules' at both table sizes (paired intervals of the difference below 0)."""
    spec = balance_spec.load_balance(write(tmp_path, PLANTED))
    summary = balance.balance(spec, tmp_path / "out")
    front = pl.read_parquet(tmp_path / "out" / "front.parquet")
    rulebook = front.filter(pl.col("candidate") == "rulebook").row(0, named=True)
    best = front.filter(pl.col("candidate") == summary["finalists"][0]).row(0, named=True)
    assert summary["rulebook"] == {"head_start": 2}
    assert best["param_head_start"] == 0
    for n in (2, 3):
        name = f"seat_fairness_{n}p"
        assert rulebook[f"{name}_low"] > 0.1  # the planted skew is found
        assert best[f"{name}_low"] <= 0.005 and best[f"{name}_high"] < 0.04
        assert best[f"{name}_vs_rulebook_high"] < 0
    assert best["on_front"] and not rulebook["on_front"]
    trials = pl.read_parquet(tmp_path / "out" / "trials.parquet")
    # successive halving: only some candidates of a batch play the second rung
    assert 0 < (trials["rung"] == 1).sum() < trials.height
    assert (tmp_path / "out" / "report.pdf").exists() is False  # the command writes it


def test_the_study_file_reproduces_the_measurement(tmp_path):
    spec = balance_spec.load_balance(write(tmp_path, PLANTED))
    summary = balance.balance(spec, tmp_path / "out")
    name = summary["finalists"][0]
    proposed = study.load_study(tmp_path / "out" / "rulesets" / f"{name}.toml")
    study.run_study(proposed, tmp_path / "study")
    front = pl.read_parquet(tmp_path / "out" / "front.parquet")
    best = front.filter(pl.col("candidate") == name).row(0, named=True)
    from analyses.dataset import load_run

    for cell in study.cells(proposed):
        n = cell.spec.players
        games = load_run(tmp_path / "study" / "cells" / cell.id).scan().collect()
        rates = [games[f"s{s}_won"].mean() for s in range(n)]
        deviation = max(abs(r - 1 / n) for r in rates)
        assert deviation == pytest.approx(best[f"seat_fairness_{n}p_value"], abs=1e-12)


def test_cli_report_and_resume_equal_an_uninterrupted_search(tmp_path, monkeypatch):
    path = write(tmp_path, PLANTED)
    code, out, err = in_process("balance", path, "-o", tmp_path / "whole")
    assert code == 0, err
    assert "Best proposal" in out and (tmp_path / "whole" / "report.pdf").stat().st_size > 0
    from reports.balance import report_pages
    from reports.legibility import check_page

    _, pages = report_pages(tmp_path / "whole")
    assert [problem for page in pages for problem in check_page(page)] == []
    spec = balance_spec.load_balance(path)
    calls = []

    def interrupt(number, rung):
        calls.append(number)
        if len(calls) == 7:  # mid-way through the second batch's first rung
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        balance.balance(spec, tmp_path / "resumed", progress=interrupt)
    assert not (tmp_path / "resumed" / "summary.json").exists()
    balance.balance(spec, tmp_path / "resumed")
    for name in ("trials.parquet", "front.parquet"):
        whole = pl.read_parquet(tmp_path / "whole" / name)
        resumed = pl.read_parquet(tmp_path / "resumed" / name)
        assert whole.equals(resumed), name
    # a rerun of a finished search changes nothing
    before = tree_digest(tmp_path / "resumed")
    balance.balance(spec, tmp_path / "resumed")
    assert tree_digest(tmp_path / "resumed") == before


SWITCHES = """
title = "Toy: ban rerolls?"
game = "toy-race"
players = 2
strategies = ["reroller:reroll_below=6", "steady"]
seed = 2

[search]
trials = 4
batch = 4
min_games = 200
rungs = 1
finalists = 2
final_games = 2000

[[params]]
rule = "rerolls_allowed"

[[params]]
name = "who gets the head start"
rule = "head_start_seat"

[[objectives]]
kind = "option_value"
focal = "reroller"
fixed = { reroll_below = 1 }
low = 0
high = 0.02
"""


def test_bool_and_choice_rules_are_searched_as_their_values(tmp_path):
    """A switch and a choice are searched among their values (false and true; the rule's
    choices). Banning rerolls makes the option to roll again worth nothing (both arms play the
    same games), so the search proposes it; with no head start, the seat that would get one
    changes no game: of the candidates that play alike, the one that keeps the rulebook's seat
    stands for them (a changed choice counts as a change against the rulebook; this seed's
    batch holds every pair of values, rerolls banned with the head start last before first).
    The report
    shows both values by name and passes the legibility contract."""
    spec = balance_spec.load_balance(write(tmp_path, SWITCHES))
    switch, choice = spec.knobs
    assert (switch.kind, switch.choices, switch.low, switch.high) == ("bool", (False, True),
                                                                     None, None)  # fmt: skip
    assert (choice.name, choice.choices) == ("who gets the head start", ("first", "last"))
    code, out, err = in_process("balance", tmp_path / "balance.toml", "-o", tmp_path / "out")
    assert code == 0, err
    trials = pl.read_parquet(tmp_path / "out" / "trials.parquet")
    assert set(trials["param_rerolls_allowed"]) == {False, True}
    assert set(trials["param_who gets the head start"]) == {"first", "last"}
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["rulebook"] == {"rerolls_allowed": True, "who gets the head start": "first"}
    assert summary["params"][0]["choices"] == [False, True]
    front = pl.read_parquet(tmp_path / "out" / "front.parquet")
    best = front.filter(pl.col("candidate") == summary["finalists"][0]).row(0, named=True)
    assert best["param_rerolls_allowed"] is False
    assert best["param_who gets the head start"] == "first"
    assert best["option_value_value"] == 0.0 and best["option_value_vs_rulebook_high"] < 0
    proposed = study.load_study(tmp_path / "out" / "rulesets" / f"{summary['finalists'][0]}.toml")
    assert proposed.rules["rerolls_allowed"] is False
    assert "rerolls_allowed = false" in proposed.title
    assert "rerolls_allowed true → false" in out  # the headline names the change
    from reports.balance import report_pages
    from reports.legibility import check_page

    _, pages = report_pages(tmp_path / "out")
    assert [problem for page in pages for problem in check_page(page)] == []
    sensitivity = next(page for page in pages if "sensitivity" in page.title)
    titles = [ax.get_title() for ax in sensitivity.axes]
    assert titles[0].startswith("option_value: rho +") and titles[1] == "option_value: by choice"
    ticks = [[t.get_text() for t in ax.get_xticklabels()] for ax in sensitivity.axes]
    assert ticks == [["false", "true"], ["first", "last"]]


def test_a_study_sweeps_a_bool_rule(tmp_path):
    """A study's [sweep] of a switch plays a cell per value: banning rerolls takes the reroller's
    edge away (62.5% on a d10 with rerolls below 6, exactly 1/2 without)."""
    path = write(tmp_path, """
title = "Toy: rerolls on and off"
game = "toy-race"
players = 2
games = 4000
seed = 1
strategies = ["reroller:reroll_below=6", "steady"]
[sweep]
rerolls_allowed = [true, false]
""", "study.toml")  # fmt: skip
    spec = study.load_study(path)
    cells = study.cells(spec)
    assert [cell.spec.rules["rerolls_allowed"] for cell in cells] == [True, False]
    study.run_study(spec, tmp_path / "study")
    from analyses.dataset import load_run, seats_long

    for cell, expected in zip(cells, (0.625, 0.5), strict=True):
        seats = seats_long(load_run(tmp_path / "study" / "cells" / cell.id)).collect()
        reroller = seats.filter(pl.col("strategy").str.starts_with("reroller"))["won"]
        assert abs(reroller.mean() - expected) < 0.025, cell.id
    from analyses.study import load_study_dir
    from reports import study as study_report
    from reports.legibility import check_page

    pages = study_report.report_pages(load_study_dir(tmp_path / "study"))
    assert [problem for page in pages for problem in check_page(page)] == []


def test_data_file_paths():
    document = {"deck": {"red": [5, 10, 15], "blue": [5, 20]}, "name": "x"}
    assert balance_spec.set_numbers(document, "deck.*[0]", 7) == [5, 5]
    assert document["deck"] == {"red": [7, 10, 15], "blue": [7, 20]}
    assert balance_spec.set_numbers(document, "deck.red[*]", 1) == [7, 10, 15]
    for path, message in (
        ("deck.green[0]", "no key 'green'"),
        ("deck.red[3]", "past the list"),
        ("name", "not numbers"),
        ("deck.red.x", "not a table"),
        ("deck..red", "is not a key"),
    ):
        with pytest.raises(SpecError, match=message):
            balance_spec.set_numbers(document, path, 0)


def test_power_barons_components_numbers(tmp_path):
    """The shipped balance file's paths reach the shipped components file; a candidate's data
    file is written once, named by its content, and holds the searched values."""
    spec = balance_spec.load_balance("studies/balance/power-barons.toml")
    low, high = "lowest Power Card", "highest Power Card"
    assert balance_spec.rulebook_values(spec) == {low: 5, high: 50}
    values = {low: 3, high: 60}
    rules = balance_spec.candidate_rules(spec, values, tmp_path)
    assert balance_spec.candidate_rules(spec, values, tmp_path) == rules
    import tomllib

    deck = tomllib.loads(open(rules["components"]).read())["deck"]
    assert deck["finance"][0] == 3 and deck["energy"][15] == 60
    assert deck["political_influence"] == [20, 20, 30, 30, 30, 40, 50, 50]


BAD = [
    ('game = "nope"', "game: unknown game"),
    ("players = [7]", "players: toy-race is for 2-4 players"),
    ('strategies = ["nobody"]', "unknown strategy"),
    ("rules = { head_start = 9 }", "rules:"),
    ("search = { sampler = 'grid' }", "search.sampler"),
    ("search = { trials = 0 }", "search.trials"),
    ("extra = 1", "extra: unknown key"),
    ('params = [{ rule = "head_start", low = -9, high = 3 }]', "leaves head_start's declared"),
    ('params = [{ rule = "head_start", low = 3, high = 1 }]', "expected low < high"),
    ('params = [{ rule = "head_start", low = 0.5, high = 3 }]', "whole numbers"),
    ('params = [{ rule = "head_start", low = 0, high = 3, name = 1 }]', "params[0].name"),
    ('params = [{ rule = "nope", low = 0, high = 3 }]', "unknown rule parameter"),
    ('params = [{ rule = "head_start", path = "a.b", low = 0, high = 3 }]', "not a data file"),
    ('params = [{ rule = "rerolls_allowed", low = 0, high = 1 }]',
     "params[0].low: rerolls_allowed is true or false"),
    ('params = [{ rule = "head_start_seat", high = 1 }]',
     "params[0].high: head_start_seat is one of first, last"),
    ("params = []", "params: expected a non-empty list"),
    ('objectives = [{ kind = "fun" }]', "objectives[0].kind"),
    ('objectives = [{ kind = "length", low = 5 }]', "objectives[0].high: missing"),
    ('objectives = [{ kind = "seat_fairness", players = [4] }]', "not among the file's"),
    ('objectives = [{ kind = "option_value", focal = "x", fixed = {}, low = 0, high = 1 }]',
     "not a strategy of the lineup"),
    ('objectives = [{ kind = "variety", population = ["reroller"] }]', "at least 2"),
    ('robust = { tune = ["nobody"] }', "robust.tune"),
    ('robust = { tune = ["reroller"], budget = 1000000000000000000 }', "robust.budget"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_balance_files_are_one_line_and_write_nothing(tmp_path, change, message):
    key = change.split(" = ")[0]
    lines = [line for line in PLANTED.strip().splitlines()]
    if key in ("params", "objectives", "search"):  # replace the tables of that name
        text = _without_tables(PLANTED, key) + "\n"
        text = text.replace("seed = 5\n", f"seed = 5\n{change}\n")
    else:
        kept = [line for line in lines if not line.startswith(f"{key} =")]
        kept.insert(1, change)
        text = "\n".join(kept) + "\n"
    path = write(tmp_path, text)
    with pytest.raises(SpecError, match=message.replace("[", r"\[").replace("]", r"\]")):
        balance_spec.load_balance(path)
    code, _, err = in_process("balance", path, "-o", tmp_path / "out")
    assert code == 2 and message.split(":")[0] in one_error_line(err)
    assert not (tmp_path / "out").exists()


def _without_tables(text: str, key: str) -> str:
    """``text`` without its [key] or [[key]] tables."""
    kept, skipping = [], False
    for line in text.splitlines():
        if line.startswith("["):
            skipping = line.strip("[]") == key
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def test_bad_options_are_one_line_and_write_nothing(tmp_path):
    path = write(tmp_path, PLANTED)
    (tmp_path / "file").write_text("x")
    for options, message in (
        (["-o", tmp_path / "file"], "is a file, not a directory"),
        (["-o", tmp_path / "out", "--threads", "99"], "--threads must be in"),
        (["-o", tmp_path / "out", "--cluster", "x"], "--cluster expects local:N"),
        (["-o", tmp_path / "out", "--png", tmp_path / "file"], "is a file, not a folder"),
    ):
        code, _, err = in_process("balance", path, *options)
        assert code == 2 and message in one_error_line(err)
        assert not (tmp_path / "out").exists()
    code, _, err = in_process("balance", tmp_path / "missing.toml", "-o", tmp_path / "out")
    assert code == 2 and "cannot read the balance file" in one_error_line(err)


def test_another_spec_in_the_directory_is_refused(tmp_path):
    spec = balance_spec.load_balance(write(tmp_path, PLANTED))
    balance.balance(spec, tmp_path / "out")
    before = tree_digest(tmp_path / "out")
    other = write(tmp_path, PLANTED.replace("seed = 5", "seed = 6"), "other.toml")
    code, _, err = in_process("balance", other, "-o", tmp_path / "out")
    assert code == 2 and "holds another balance search" in one_error_line(err)
    assert tree_digest(tmp_path / "out") == before
    assert json.loads((tmp_path / "out" / "balance.json").read_text())["seed"] == 5
    assert np.isfinite(pl.read_parquet(tmp_path / "out" / "front.parquet")["trial"][1])


OPTION = """
title = "Toy: the value of rolling again"
game = "toy-race"
players = 2
strategies = ["reroller:reroll_below=6", "steady"]
seed = 3

[search]
trials = 2
batch = 2
min_games = 200
rungs = 1
finalists = 1
final_games = 10000

[[params]]
rule = "sides"
low = 9
high = 11

[[objectives]]
kind = "option_value"
focal = "reroller"
fixed = { reroll_below = 1 }
low = 0.1
high = 0.15

[[objectives]]
kind = "variety"
measure = "MEASURE"
population = ["steady", "reroller:reroll_below=6"]
"""


@pytest.mark.parametrize(("measure", "expected"), [("regret", 0.0625), ("entropy", 1.0)])
def test_option_value_and_variety_match_their_exact_values(tmp_path, measure, expected):
    """On a d10, rolling again below 6 wins 62.5% against a player who never does (exact sum),
    so the option is worth 12.5 points; the population's meta-game: the reroller dominates
    (equilibrium entropy measure 1) and gains 6.25 points over the average strategy against a
    uniform field (regret measure)."""
    spec = balance_spec.load_balance(write(tmp_path, OPTION.replace("MEASURE", measure)))
    balance.balance(spec, tmp_path / "out")
    rulebook = pl.read_parquet(tmp_path / "out" / "front.parquet").row(0, named=True)
    assert rulebook["candidate"] == "rulebook"
    assert rulebook["option_value_low"] < 0.125 < rulebook["option_value_high"]
    assert rulebook["option_value_objective"] == 0.0  # inside its band
    if measure == "entropy":
        assert rulebook["variety_value"] == pytest.approx(1.0)
    else:
        assert rulebook["variety_low"] < expected < rulebook["variety_high"]


def test_robust_retunes_the_focal_for_each_finalist(tmp_path):
    """[robust] re-tunes the reroller by powerlab tune's machinery: its best threshold is to roll
    again below the mean roll of 5.5 (reroll_below = 6); with the option held there is nothing
    left to tune, so the held lineup is the re-tuned one with the option held."""
    text = OPTION.replace("MEASURE", "regret").replace('"reroller:reroll_below=6"', '"reroller"', 1)
    text += '\n[robust]\ntune = ["reroller"]\nbudget = 6000\n'
    spec = balance_spec.load_balance(write(tmp_path, text))
    summary = balance.balance(spec, tmp_path / "out")
    assert {t["variant"] for t in summary["tunings"]} == {"free"}
    for tuned in summary["tunings"]:
        assert tuned["best"] in {f"reroller:reroll_below={k}" for k in (5, 6, 7)}
    front = pl.read_parquet(tmp_path / "out" / "front.parquet")
    given = front.filter(pl.col("setting") == "as given").row(0, named=True)
    retuned = front.filter(pl.col("setting") == "re-tuned").row(0, named=True)
    assert given["option_value_value"] == pytest.approx(0.0, abs=0.03)  # reroll_below = 1
    assert retuned["option_value_low"] > 0.09
    assert (tmp_path / "out" / "tuning" / "rulebook" / "reroller-free" / "summary.json").exists()
    assert all(t["accepted"] for t in summary["tunings"])  # it beat reroll_below = 1 clearly
    finalist = summary["finalists"][0]
    proposed = study.load_study(tmp_path / "out" / "rulesets" / f"{finalist}-retuned.toml")
    tuned = next(t["best"] for t in summary["tunings"] if t["candidate"] == finalist)
    assert proposed.arms[0].strategies[0] == tuned
    assert proposed.arms[1].strategies[0] == "reroller"  # the option held: reroll_below = 1


def test_fresh_games_grow_until_the_front_is_told_apart():
    spec = balance_spec.load_balance("studies/balance/power.toml")
    assert balance.fresh_blocks(spec, spec.final_games) == [(0, 20000)]
    assert balance.fresh_blocks(spec, 80000) == [(0, 20000), (20000, 40000), (40000, 80000)]
    rng = np.random.default_rng(0)

    def entry(objective, spread):
        draws = objective + spread * rng.standard_normal(100)
        return {"objective": objective, "draws": draws}

    names = spec.objective_names()
    # a and b trade off (a better on the first objective, b on the last), c is dominated by a
    a = {n: entry(0.01 if n == names[0] else 0.02, 0.001) for n in names}
    b = {n: entry(0.02 if n == names[0] else 0.01, 0.001) for n in names}
    c = {n: entry(0.03, 0.001) for n in names}
    assert balance.unseparated(spec, {"a": a, "b": b, "c": c}) == []
    noisy = {n: entry(0.015, 0.05) for n in names}  # on the front, within noise of a and b
    noisy[names[0]] = entry(0.0, 0.05)
    assert ("b", "noisy") in balance.unseparated(spec, {"a": a, "b": b, "noisy": noisy})


def test_a_balance_search_on_dask_equals_the_local_one(tmp_path, dask_scheduler):
    """The same search with every candidate's games as Dask tasks (a real game: workers import
    the registry) writes the same trials and front."""
    text = """
game = "power"
players = 3
strategies = ["counter", "bluffer", "honest"]
seed = 1
[search]
trials = 2
batch = 2
min_games = 60
rungs = 1
finalists = 1
final_games = 300
[[params]]
rule = "overthrow_cost"
low = 5
high = 9
[[objectives]]
kind = "seat_fairness"
[[objectives]]
kind = "length"
low = 20
high = 30
"""
    spec = balance_spec.load_balance(write(tmp_path, text))
    balance.balance(spec, tmp_path / "local")
    balance.balance(spec, tmp_path / "dask", scheduler=dask_scheduler)
    for name in ("trials.parquet", "front.parquet"):
        local = pl.read_parquet(tmp_path / "local" / name)
        assert local.equals(pl.read_parquet(tmp_path / "dask" / name)), name


def test_an_edited_data_file_is_another_search(tmp_path):
    """A designer's components file is part of the spec by its content: editing it between two
    runs of the same balance file is refused, not mixed into the stored candidates."""
    components = tmp_path / "components.toml"
    components.write_text(open("simcore/data/power_barons_default.toml").read())
    text = open("studies/balance/power-barons.toml").read()
    text = text.replace("seed = 2026", f'seed = 2026\nrules = {{ components = "{components}" }}')
    spec = balance_spec.load_balance(write(tmp_path, text))
    assert list(spec.data_files) == ["components"]
    balance.check_dir(spec, tmp_path / "out")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "balance.json").write_text(json.dumps(balance._stored_identity(spec)))
    balance.check_dir(spec, tmp_path / "out")  # the same file: resumes
    components.write_text(components.read_text().replace("[5, 10,", "[6, 10,", 1))
    edited = balance_spec.load_balance(tmp_path / "balance.toml")
    with pytest.raises(SpecError, match="holds another balance search"):
        balance.check_dir(edited, tmp_path / "out")


VALUES = st.one_of(
    st.integers(-(2**70), 2**70), st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.text(max_size=8), st.lists(st.integers(-5, 5), max_size=3),
    st.sampled_from(["toy-race", "reroller", "head_start", "rerolls_allowed", "head_start_seat",
                     "seat_fairness", "length", "nsga2"]),
)  # fmt: skip
TABLES = st.dictionaries(
    st.sampled_from(["rule", "path", "low", "high", "kind", "players", "focal", "fixed",
                     "measure", "population", "at_least", "trials", "min_games", "sampler",
                     "tune", "budget", "name", "log"]),
    st.one_of(VALUES, st.dictionaries(st.sampled_from(["reroll_below", "x"]), VALUES, max_size=2)),
    max_size=5,
)  # fmt: skip


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    changes=st.dictionaries(
        st.sampled_from(["game", "players", "strategies", "rules", "seed", "search", "params",
                         "objectives", "robust", "extra"]),
        st.one_of(VALUES, TABLES, st.lists(TABLES, max_size=2)),
        max_size=3,
    )
)  # fmt: skip
def test_fuzzed_balance_files_load_or_are_one_spec_error(tmp_path, changes):
    """Whatever a balance file holds, loading it gives a spec or one SpecError line."""
    import tomllib

    import tomli_w

    data = tomllib.loads(PLANTED)
    data.update(changes)
    try:
        text = tomli_w.dumps(data)
    except (TypeError, ValueError):  # not expressible in TOML (nan keys are fine, None is not)
        return
    path = write(tmp_path, text, "fuzz.toml")
    try:
        balance_spec.load_balance(path)
    except SpecError as error:
        assert "\n" not in str(error) and str(error).startswith(str(path))
