"""The CLI end to end, as a designer uses it: real subprocesses, real files."""

import json
import re

import pytest

from tests.cli.clitools import powerlab, tree_digest

LINEUP = ["-s", "counter", "-s", "bluffer", "-s", "honest", "-s", "random"]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "run"
    result = powerlab(
        "run", "power", "--players", 4, *LINEUP, "--games", 3000, "--seed", 5, "--out", out,
        "--chunk-size", 1000,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return out


def test_run_writes_parts_and_run_json(small_run):
    info = json.loads((small_run / "run.json").read_text())
    assert info["spec"]["games"] == 3000
    assert info["lineup"] == ["counter", "bluffer", "honest", "random"]
    assert info["finished"] is not None
    assert len(list((small_run / "games").glob("part-*.parquet"))) == 3


def test_rerun_same_spec_computes_nothing(small_run):
    before = tree_digest(small_run / "games")
    result = powerlab(
        "run", "power", "--players", 4, *LINEUP, "--games", 3000, "--seed", 5, "--out", small_run,
        "--chunk-size", 1000,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "0 computed now" in result.stdout
    assert tree_digest(small_run / "games") == before


def test_summary_text_and_json(small_run):
    text = powerlab("summary", small_run)
    assert text.returncode == 0, text.stderr
    assert "95% CI" in text.stdout and "counter" in text.stdout
    data = json.loads(powerlab("summary", small_run, "--json").stdout)
    assert data["games"] == 3000
    with_result = round(3000 * (1 - data["cut_off_share"]))  # cut-off games count for nobody
    assert sum(row["games"] for row in data["by_seat"]) == 4 * with_result
    assert {row["strategy"] for row in data["by_strategy"]} == {
        "counter",
        "bluffer",
        "honest",
        "random",
    }


PNG_NAME = re.compile(r"^\d\d-[a-z0-9]+(-[a-z0-9]+)*\.png$")


def test_report_writes_a_pdf_and_a_png_per_page(small_run, tmp_path):
    pdf = tmp_path / "r.pdf"
    result = powerlab("report", small_run, "-o", pdf, "--png", tmp_path / "slides")
    assert result.returncode == 0, result.stderr
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    # Fonts embedded as TrueType (Type 42), not as Type 3 bitmaps of glyphs.
    assert b"/FontFile2" in data and b"/Type3" not in data
    pages = int(result.stdout.split("(")[1].split()[0])
    pngs = sorted(path.name for path in (tmp_path / "slides").iterdir())
    assert len(pngs) == pages and all(PNG_NAME.match(name) for name in pngs), pngs
    # What the run says first; the title table after it continues on a second page when its
    # values wrap (a long run directory).
    assert pngs[0].startswith("01-what-this-run-says-power")
    assert pngs[1].startswith("02-powerlab-report-power")
    assert any(name.endswith("-win-rate-by-seat.png") for name in pngs[2:4])
    assert (tmp_path / "slides" / pngs[1]).read_bytes().startswith(b"\x89PNG")


def test_compare_writes_a_report_on_request(small_run, tmp_path):
    other = tmp_path / "cost8"
    result = powerlab(
        "run", "power", "--players", 4, *LINEUP, "--games", 3000, "--seed", 5,
        "--set", "overthrow_cost=8", "--out", other,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    pdf = tmp_path / "compare.pdf"
    result = powerlab("compare", small_run, other, "-o", pdf, "--png", tmp_path / "slides")
    assert result.returncode == 0, result.stderr
    assert "bluffer: A " in result.stdout and f"Report written to {pdf}" in result.stdout
    # The answer is about these players only: the line names the whatif that would test it.
    hint = "powerlab whatif power -p 4 --set overthrow_cost=7 --vs overthrow_cost=8 -o OUT"
    assert hint in result.stdout
    assert b"/Title (powerlab compare)" in pdf.read_bytes()
    assert sorted(path.name for path in (tmp_path / "slides").iterdir()) == [
        "01-powerlab-compare-a-against-b.png",
        "02-paired-differences-a-b.png",
        "03-paired-differences-the-numbers.png",
    ]
    # --tables alone: every table of the report as a CSV, nothing else written.
    import polars as pl

    result = powerlab("compare", small_run, other, "--tables", tmp_path / "tables")
    assert result.returncode == 0, result.stderr
    assert "Report written" not in result.stdout
    settings, numbers = sorted((tmp_path / "tables").iterdir())
    assert (settings.name, numbers.name) == (
        "01-powerlab-compare-a-against-b.csv",
        "03-paired-differences-the-numbers.csv",
    )
    differs = pl.read_csv(settings).filter(pl.col("differs") == "yes")["setting"]
    assert differs.to_list() == ["rule overthrow_cost"]
    printed = [line.split(":")[0] for line in result.stdout.splitlines()[:-1]]  # then the hint
    assert pl.read_csv(numbers)["focal"].to_list() == printed


def test_replay_prints_the_game_the_run_stored(small_run):
    import polars as pl

    row = (
        pl.scan_parquet(small_run / "games" / "*.parquet")
        .filter(pl.col("game_index") == 1234)
        .collect()
    )
    result = powerlab("replay", "power", "--players", 4, *LINEUP, "--seed", 5, "--game-index", 1234)
    assert result.returncode == 0, result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert f"after {row['turns'][0]} turns" in last
    winner = row["winner"][0]
    if winner >= 0:
        assert f"seat {winner} ({row[f's{winner}_strategy'][0]}) wins" in last
    assert "is dealt" in result.stdout


def test_games_lists_power_and_its_parameters():
    result = powerlab("games")
    assert result.returncode == 0 and "power" in result.stdout
    detail = powerlab("games", "power")
    assert "overthrow_cost" in detail.stdout and "bluffer" in detail.stdout


def test_bench_json_reports_games_per_second():
    result = powerlab("bench", "power", "--games", 2000, "--repeat", 1, "--json")
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout)["power"]
    assert entry["1"]["games_per_s"] > 0
    # POWER is on the decision-point protocol: its decisions/s and the search's cost
    assert entry["protocol_1_thread"]["decisions_per_s"] > 0
    assert entry["ismcts_1_thread"]["iterations_per_s"] > 0
    assert entry["ismcts_1_thread"]["spec"] == "ismcts"
    # and the same at every thread count the machine has (its protocol loop releases the GIL)
    for count in (k for k in entry if k.isdigit() and k != "1"):
        protocol, search = entry[f"protocol_{count}_threads"], entry[f"ismcts_{count}_threads"]
        assert protocol["games"] == int(count) * entry["protocol_1_thread"]["games"]
        assert protocol["decisions_per_s"] > 0 and search["iterations_per_s"] > 0
        assert search["games"] == entry["ismcts_1_thread"]["games"] == 40  # each game once


def test_bench_prints_a_line_a_game_with_its_protocol_figures():
    result = powerlab("bench", "power", "--games", 2000, "--repeat", 1)
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.strip().splitlines()
    assert line.startswith("power (4 players") and "1 thread: " in line
    assert "protocol, 1 thread: " in line and "iterations/s" in line


def test_bench_measures_the_lineup_and_rules_given():
    result = powerlab(
        "bench", "power", "-p", 3, "-s", "honest", "-s", "bluffer", "-s", "counter",
        "--set", "overthrow_cost=6", "--games", 2000, "--repeat", 1, "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout)["power"]
    assert entry["players"] == 3
    assert entry["lineup"] == ["honest", "bluffer", "counter"]
    assert entry["1"]["games_per_s"] > 0


BAD_RUNS = [
    (["run", "nosuchgame", "--out", "{out}"], "unknown game"),
    (["run", "power", "--players", 2, "--out", "{out}"], "3-6 players"),
    (["run", "power", "-s", "nosuch", "--out", "{out}"], "unknown strategy"),
    (["run", "power", "-s", "bluffer:p_bluff=2", "--out", "{out}"], "p_bluff"),
    (["run", "power", "-s", "bluffer:nokey=1", "--out", "{out}"], "no parameter"),
    (["run", "power", "-s", "bluffer:p_bluff", "--out", "{out}"], "key=value"),
    (["run", "power", "-s", "counter", "-s", "honest", "--out", "{out}"], "one per seat"),
    (["run", "power", "--set", "overthrow_cost=abc", "--out", "{out}"], "overthrow_cost"),
    (["run", "power", "--set", "nosuch=1", "--out", "{out}"], "unknown rule"),
    (["run", "power", "--set", "safe_size=3", "--out", "{out}"], "safe_size"),
    (["run", "power", "--games", 0, "--out", "{out}"], "--games"),
    (["run", "power", "--seed", -1, "--out", "{out}"], "--seed"),
    (["run", "power", "--threads", 999, "--games", 10, "--out", "{new}"], "--threads"),
    (["run", "power", "--games", "many", "--out", "{out}"], "--games"),
    (["summary", "{out}"], ""),
    (["report", "{out}"], ""),
    (["report", "{out}", "--png", "{out}/notes.txt"], "is a file"),
    (["compare", "{out}", "{out}", "-o", "{out}/c.txt"], ".pdf"),
    (["compare", "{out}", "{out}", "--tables", "{out}/notes.txt"], "is a file"),
    (["replay", "power", "--game-index", -1], "--game-index"),
    (["bench", "nosuchgame"], "unknown game"),
    (["bench", "power", "time-barons", "-s", "honest"], "exactly one game"),
    (["bench", "power", "--set", "nosuch=1"], "unknown rule"),
    (["bench", "time-barons", "-p", 3], "2 players"),
    (["run", "power", "--shard", "4/3", "--out", "{new}"], "--shard"),
    (["run", "power", "--cluster", "remote:2", "--out", "{new}"], "--cluster"),
    (["run", "power", "--cluster", "local:x", "--out", "{new}"], "--cluster"),
    (
        ["run", "power", "--cluster", "local:1", "--scheduler", "tcp://h:1", "--out", "{new}"],
        "not both",
    ),
    (["run", "power", "--scheduler", "tcp://127.0.0.1:9", "--games", 10, "--out", "{new}"], "Dask"),
    (["merge", "{out}", "--out", "{new}"], "no powerlab run"),
]


@pytest.mark.parametrize(("args", "needle"), BAD_RUNS)
def test_bad_input_is_one_line_exit_2_and_changes_nothing(tmp_path, args, needle):
    out = tmp_path / "existing"
    out.mkdir()
    (out / "notes.txt").write_text("a designer's file")
    before = tree_digest(tmp_path)
    new = tmp_path / "new"
    result = powerlab(*[str(a).replace("{out}", str(out)).replace("{new}", str(new)) for a in args])
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("powerlab: error:")
    assert needle in lines[0]
    assert "Traceback" not in result.stderr
    assert tree_digest(tmp_path) == before


def test_different_spec_on_existing_run_is_refused(small_run):
    before = tree_digest(small_run)
    result = powerlab("run", "power", "--games", 3000, "--seed", 6, "--out", small_run)
    assert result.returncode == 2
    assert "different" in result.stderr
    assert tree_digest(small_run) == before


def test_fewer_games_than_stored_is_refused(small_run):
    before = tree_digest(small_run)
    result = powerlab(
        "run", "power", "--players", 4, *LINEUP, "--games", 1000, "--seed", 5, "--out", small_run
    )
    assert result.returncode == 2
    assert "already holds" in result.stderr
    assert tree_digest(small_run) == before


def test_report_to_missing_folder_is_refused(small_run, tmp_path):
    result = powerlab("report", small_run, "-o", tmp_path / "nope" / "r.pdf")
    assert result.returncode == 2
    assert "does not exist" in result.stderr


def test_shards_then_merge_through_the_cli(small_run, tmp_path):
    for k in (1, 2):
        result = powerlab(
            "run", "power", "--players", 4, *LINEUP, "--games", 3000, "--seed", 5,
            "--shard", f"{k}/2", "--out", tmp_path / f"shard{k}",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
    result = powerlab("merge", tmp_path / "shard1", tmp_path / "shard2", "--out", tmp_path / "m")
    assert result.returncode == 0, result.stderr
    merged = json.loads(powerlab("summary", tmp_path / "m", "--json").stdout)
    whole = json.loads(powerlab("summary", small_run, "--json").stdout)
    assert merged["by_strategy"] == whole["by_strategy"]
