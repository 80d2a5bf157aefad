"""`powerlab whatif`: rule sets A and B read from --set/--vs, checked before anything is written,
and a rule change that helps a seat in every field found robust (simcore/workflows/whatif.py,
analyses/whatif.py)."""

import tomllib

import polars as pl
import pytest

from analyses.whatif import exploitability, measures, robustness, verdict
from reports.legibility import check_page
from reports.whatif import whatif_pages
from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import runner, whatif
from tests.cli.clitools import in_process, one_error_line


def _plan(out, set_texts=(), vs_texts=(), strategies=(), players=None, fields=()):
    return whatif.plan(
        "power", players, list(strategies), list(set_texts), list(vs_texts), 0, "quick", 50,
        list(fields), out,
    )  # fmt: skip


def test_a_key_given_with_vs_is_compared_and_the_others_are_shared(tmp_path):
    request = _plan(tmp_path / "out", ["banker_take=3", "income=2"], ["banker_take=2"], players=5)
    assert request.a == {"banker_take": 3} and request.b == {"banker_take": 2}
    assert request.shared == {"income": 2}
    assert request.rules("B") == {"income": 2, "banker_take": 2}
    assert len(request.field) == 5 and request.fields == whatif.FIELDS


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set", "banker_take=2"], "give --vs KEY=VALUE"),
        (["--vs", "banker_take=2"], "give A's value too, with --set banker_take="),
        (["--set", "banker_take=2", "--vs", "banker_take=2"], "A and B are the same rules"),
        (["--set", "no_such=1", "--vs", "no_such=2"], "unknown rule parameter 'no_such'"),
        (["--set", "banker_take=3", "--vs", "banker_take=999"], "banker_take=999"),
        (["--set", "banker_take=3", "--vs", "banker_take=2", "-s", "preset:baron-tuned"], "baron"),
        (["--set", "banker_take=3", "--vs", "banker_take=2", "--field", "mirror"], "mirror"),
        (["--set", "banker_take=3", "--vs", "banker_take=2", "--budget", "huge"], "--budget"),
        (["--set", "banker_take=3", "--vs", "banker_take=2", "-p", "0"], "3-6 players, not 0"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    code, _, err = in_process("whatif", "power", "-o", out, *args)
    assert code == 2, err
    assert message in one_error_line(err)
    assert not out.exists()


def test_a_data_file_that_is_not_one_is_refused(tmp_path):
    out = tmp_path / "out"
    bad = tmp_path / "deck.toml"
    bad.write_text("this is not toml = = =")
    code, _, err = in_process(
        "whatif", "power-barons", "-p", "3", "--set", "components=", "--vs",
        f"components={bad}", "-o", out,
    )  # fmt: skip
    assert code == 2 and str(bad) in one_error_line(err)
    assert not out.exists()


def test_another_request_in_the_same_out_is_refused(tmp_path):
    out = tmp_path / "out"
    first = _plan(out, ["banker_take=3"], ["banker_take=2"])
    whatif.check_out(first)
    out.mkdir()
    (out / whatif.REQUEST_FILE).write_text(
        '{"format": 1, "request": {"game": "power", "players": 4}}'
    )
    with pytest.raises(SpecError, match="holds another whatif"):
        whatif.check_out(first)


def test_the_tuned_field_is_the_presets_tuned_at_the_count_asked():
    """At 5 players the tuned field seats each preset's 5-player tuning, and says so."""
    game = registry.make("power")
    five = _plan("unused", ["banker_take=3"], ["banker_take=2"], players=5)
    assert five.presets == whatif.preset_field(game, 5)
    text = whatif.study_text(five, {})
    tuned = next(s for s in tomllib.loads(text)["opponents"] if s["name"] == "tuned")
    study = runner.build_spec("power", 5, tuned["strategies"], [], 0, 1, True)
    for name, spec in zip(five.presets, study.strategies, strict=True):
        preset = registry.presets("power")[name.removeprefix("preset:")]["players"][5]
        assert spec == registry.parse_strategy(game, preset["spec"])
    assert "presets tuned at 5 players" in whatif.assumptions(five)[0]


def test_whatif_on_dask_equals_the_local_run(tmp_path, dask_scheduler):
    """Every field, the tunings of the re-tuned one included, as Dask tasks (a local cluster of
    one worker process, tests/workflows/conftest.py): the same answer table as the local run."""
    tables = []
    for name, extra in (("local", []), ("dask", ["--scheduler", dask_scheduler])):
        out = tmp_path / name
        code, _, err = in_process(
            "whatif", "power", "-p", "3", "--set", "banker_take=3", "--vs", "banker_take=2",
            "--budget", "quick", "-n", "300", "-o", out, *extra,
        )  # fmt: skip
        assert code == 0, err
        tables.append((out / "whatif.csv").read_text())
    assert tables[0] == tables[1]
    assert set(pl.read_csv(tmp_path / "local" / "whatif.csv")["field"]) == set(whatif.FIELDS)


@pytest.mark.parametrize(
    "intervals, expected",
    [
        ([(0.01, 0.03), (0.02, 0.05)], "robust"),
        ([(-0.03, -0.01), (-0.05, -0.02), (-0.04, -0.001)], "robust"),
        ([(0.01, 0.03), (0.02, 0.04), (0.01, 0.05), (-0.05, 0.15)], "robust"),  # agrees, wide
        ([(0.01, 0.03), (-0.05, -0.02)], "depends"),
        ([(0.01, 0.03), (-0.03, 0.01)], "unclear"),  # the second leans the other way
        ([(0.01, 0.03), (-0.01, 0.05), (-0.02, 0.06), (-0.01, 0.04)], "unclear"),  # 1 of 4 clear
        ([(0.01, 0.03)], "unclear"),
    ],
)
def test_a_measure_is_robust_only_with_one_sign_in_every_field(intervals, expected):
    rows = pl.DataFrame(
        {
            "ci_low": [low for low, _ in intervals],
            "ci_high": [high for _, high in intervals],
            "diff": [(low + high) / 2 for low, high in intervals],
        }
    )
    assert verdict(rows) == expected


def test_more_first_turn_actions_help_seat_0_in_every_field(tmp_path):
    """A planted robust change: Time Barons' first player gets 4 first-turn actions instead of
    the rulebook's 2. Every field must see seat 0 gain."""
    out = tmp_path / "out"
    code, stdout, err = in_process(
        "whatif", "time-barons", "--set", "first_turn_actions=2", "--vs",
        "first_turn_actions=4", "--budget", "quick", "-n", "4000", "-o", out,
    )  # fmt: skip
    assert code == 0, err
    table = measures(out)
    assert set(table["field"]) == set(whatif.FIELDS)
    lines = robustness(table)
    seat0 = lines.filter(pl.col("measure") == "seat 0 win rate").row(0, named=True)
    assert seat0["verdict"] == "robust", table.filter(pl.col("measure") == "seat 0 win rate")
    assert (table.filter(pl.col("measure") == "seat 0 win rate")["diff"] > 0).all()
    assert "seat 0 win rate: " in stdout
    assert (out / "whatif.pdf").exists() and (out / "whatif.csv").exists()
    pages = whatif_pages(table, "planted", "question", exploitability(out))
    assert not {page.title: check_page(page) for page in pages if check_page(page)}
    # The study file alone reproduces the cells: the same command again plays nothing new.
    again = in_process(
        "whatif", "time-barons", "--set", "first_turn_actions=2", "--vs",
        "first_turn_actions=4", "--budget", "quick", "-n", "4000", "-o", out,
    )  # fmt: skip
    assert again[0] == 0 and again[1] == stdout
