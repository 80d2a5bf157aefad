"""Nothing is written before the input is known good (issue 45): every path a command will write
is checked first, a report's files are written all or none, options and study files are checked
before a directory is claimed, and an OSError on a path is one line that says what, where, why
and what to do. Fake runs and refusals before any kernel runs: nothing is compiled."""

import errno
import os
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from reports import compare as reports_compare
from reports import pdf as reports_pdf
from simcore.registry import SpecError
from simcore.workflows import files
from tests.cli.clitools import in_process, one_error_line, tree_digest
from tests.cli.fakerun import make_fake_run

OLD = b"%PDF-1.4 the designer's earlier report"


@pytest.fixture
def place(tmp_path):
    """A fake run holding an earlier report.pdf, a second run, a plain file and a broken link."""
    run = make_fake_run(tmp_path / "a", games=300)
    (run / "report.pdf").write_bytes(OLD)
    make_fake_run(tmp_path / "b", games=300)
    (tmp_path / "notes.txt").write_text("a designer's file")
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    return tmp_path


# (folder given to --png or --tables, words the one line must hold)
BAD_FOLDERS = [
    ("/proc/x", "/proc takes no new files or folders"),
    ("/proc/x/y", "/proc takes no new files or folders"),
    ("{tmp}/notes.txt", "notes.txt is a file, not a folder"),
    ("{tmp}/notes.txt/sub", "notes.txt is a file, not a folder"),
    ("{tmp}/gone", "which does not exist; remove the link"),
]


def _disk(folder: Path) -> tuple[dict, list[str]]:
    """Every file's content hash, and every entry (files, folders, links) by path."""
    return tree_digest(folder), sorted(str(p) for p in folder.rglob("*"))


def _refused(place: Path, *args) -> str:
    """The one error line of ``powerlab ARGS`` (``{tmp}`` standing for ``place``), which must
    exit 2, print nothing on stdout and leave everything under ``place`` as it was."""
    before = _disk(place)
    code, stdout, stderr = in_process(*(str(a).replace("{tmp}", str(place)) for a in args))
    assert code == 2 and stdout == "", (code, stdout, stderr)
    assert _disk(place) == before
    return one_error_line(stderr)


@pytest.mark.parametrize("option", ["--png", "--tables"])
@pytest.mark.parametrize(("folder", "why"), BAD_FOLDERS)
def test_report_to_an_unwritable_folder_keeps_the_old_report(place, option, folder, why):
    line = _refused(place, "report", place / "a" / "run", option, folder)
    assert f"{option} " in line and "cannot create the folder" in line and why in line
    assert (place / "a" / "run" / "report.pdf").read_bytes() == OLD


@pytest.mark.parametrize(("folder", "why"), BAD_FOLDERS)
def test_compare_to_an_unwritable_folder_keeps_the_pdf_and_prints_nothing(place, folder, why):
    (place / "c.pdf").write_bytes(OLD)
    runs = (place / "a" / "run", place / "b" / "run")
    line = _refused(place, "compare", *runs, "-o", place / "c.pdf", "--tables", folder)
    assert "--tables " in line and why in line
    assert (place / "c.pdf").read_bytes() == OLD


@pytest.mark.parametrize(
    ("output", "why"),
    [
        ("/proc/r.pdf", "/proc takes no new files or folders"),
        ("{tmp}/nope/r.pdf", "the folder {tmp}/nope does not exist"),
        ("{tmp}/notes.txt/r.pdf", "notes.txt is a file, not a folder"),
        ("{tmp}/a.pdf", "it is a folder; give a file name"),
    ],
)
def test_report_to_an_unwritable_pdf_writes_nothing(place, output, why):
    (place / "a.pdf").mkdir()
    line = _refused(place, "report", place / "a" / "run", "-o", output)
    assert "--output " in line and "cannot write the file" in line
    assert why.replace("{tmp}", str(place)) in line


@pytest.mark.parametrize(
    ("command", "folder"),
    [
        ("report", "--png"),
        ("report", "--tables"),
        ("compare", "--png"),
        ("compare", "--tables"),
    ],
)
@pytest.mark.parametrize("named", ["{tmp}/r.pdf", "{tmp}/r.pdf/.", "{tmp}/./r.pdf/inner"])
def test_a_folder_where_the_pdf_goes_is_refused_before_any_page_is_drawn(
    place, monkeypatch, command, folder, named
):
    # Before: every page was drawn (seconds), then the PDF could not replace the new folder.
    def reached(*args, **kwargs):
        raise AssertionError("the report was drawn")

    monkeypatch.setattr(reports_pdf, "write_report", reached)
    monkeypatch.setattr(reports_compare, "write_compare_report", reached)
    runs = [place / "a" / "run"] * (2 if command == "compare" else 1)
    line = _refused(place, command, *runs, "-o", "{tmp}/r.pdf", folder, named)
    assert f"{folder} " in line and "where the PDF goes" in line, line


def test_the_run_folders_report_pdf_is_no_png_folder(place, monkeypatch):
    (place / "a" / "run" / "report.pdf").unlink()
    line = _refused(place, "report", place / "a" / "run", "--png", place / "a/run/report.pdf")
    assert "--png " in line and "where the PDF goes" in line, line


def test_a_failure_half_way_through_a_report_leaves_the_disk_as_it_was(place, monkeypatch):
    """The disk fills up at the third PNG: the PDF, the PNGs and the CSVs already written stay
    temporary and are removed with the folders made for them; the earlier report remains."""
    pngs = []
    savefig = Figure.savefig

    def third_png_fails(figure, path, **options):
        if options.get("format") == "png":
            pngs.append(path)
            if len(pngs) == 3:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return savefig(figure, path, **options)

    monkeypatch.setattr(Figure, "savefig", third_png_fails)
    run = place / "a" / "run"
    line = _refused(place, "report", run, "--tables", "{tmp}/new/tables", "--png", "{tmp}/png")
    assert len(pngs) == 3
    assert f"{place / 'png'}/03-" in line and "the disk is full; free some space" in line
    assert (run / "report.pdf").read_bytes() == OLD


def test_a_complete_report_replaces_the_old_one_and_fills_new_folders(place):
    run = place / "a" / "run"
    tables = place / "t"
    code, _, stderr = in_process("report", run, "--png", place / "p" / "q", "--tables", tables)
    assert code == 0, stderr
    pdf = (run / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf != OLD
    pngs = sorted((place / "p" / "q").iterdir())
    assert pngs and all(p.suffix == ".png" for p in pngs)
    assert list(tables.glob("*.csv")) and not list(place.rglob(".*.tmp"))


# --- options and study files checked before a directory is claimed ----------------------------

STUDY = 'game = "power"\nplayers = 4\ngames = 50\nseed = 3\n'
BALANCE = (
    'game = "power"\nplayers = [3]\nstrategies = ["counter", "honest", "bluffer"]\n'
    "[search]\ntrials = 2\nbatch = 2\nmin_games = 6\nrungs = 1\nfinalists = 1\n"
    'final_games = 6\n[[params]]\nrule = "overthrow_cost"\nlow = 5\nhigh = 9\n'
    '[[objectives]]\nkind = "seat_fairness"\n'
)
RESTRICT = '[restrict]\nstrategy = "bluffer"\nbudget = 600\nmin_games = 4\n'


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["tune", "power", "-s", "bluffer", "-a", "counter", "-n", 600, "--min-games", 4,
          "--threads", 0], "--threads must be in"),
        (["tune", "power", "-s", "bluffer", "--self-play", "--threads", 0],
         "--threads must be in"),
        (["study", "run", "{study}", "--threads", 0], "--threads must be in"),
        (["meta", "power", "--population", "{population}", "-n", 20, "--threads", 0],
         "--threads must be in"),
        # Before: each of these wrote its directory's first files, then failed to connect.
        *[(args, "Dask scheduler at 'nosuch'") for args in (
            ["study", "run", "{study}", "--scheduler", "nosuch"],
            ["balance", "{balance}", "--scheduler", "nosuch"],
            ["tune", "power", "-s", "bluffer", "-a", "counter", "-n", 600, "--min-games", 4,
             "--seeds", 2, "--scheduler", "nosuch"],
            ["tune", "power", "-s", "bluffer", "--self-play", "--scheduler", "nosuch"],
            ["impact", "power", "-n", 20, "-c", "banker_takes", "--scheduler", "nosuch"],
            ["whatif", "power", "--set", "income=1", "--vs", "income=2", "--field", "scripted",
             "--scheduler", "nosuch"],
        )],
        # Before: "--cluster expects local:N ...", an option not given.
        (["meta", "power", "--population", "{population}", "-n", 20, "--scheduler", "local:0"],
         "--scheduler expects local:N with N in [1, "),
    ],
)  # fmt: skip
def test_bad_threads_or_dask_are_refused_before_anything_is_written(tmp_path, args, needle):
    (tmp_path / "s.toml").write_text(STUDY)
    (tmp_path / "pop.toml").write_text('strategies = ["counter", "honest"]\n')
    (tmp_path / "b.toml").write_text(BALANCE)
    paths = {"{study}": tmp_path / "s.toml", "{population}": tmp_path / "pop.toml",
             "{balance}": tmp_path / "b.toml"}  # fmt: skip
    args = [paths.get(str(a), a) for a in args]
    code, _, stderr = in_process(*args, "-o", tmp_path / "out")
    assert code == 2 and needle in one_error_line(stderr)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        # The free arm is valid and would be tuned first; the held value is not.
        (STUDY + '[[opponents]]\nname = "x"\nstrategies = ["counter"]\n' + RESTRICT
         + "fixed = { p_bluff = 7.0 }\n", "p_bluff=7.0 is not a number in [0.0, 1.0]"),
        (STUDY + '[[opponents]]\nname = "x"\nstrategies = ["counter"]\nseats = "all"\n'
         + RESTRICT + "fixed = { p_bluff = 0.0 }\n", "fill every seat"),
        (STUDY + RESTRICT + "fixed = { p_bluff = 0.0 }\n", "one per other seat"),
    ],
)  # fmt: skip
def test_a_bad_restrict_table_is_refused_before_study_json(tmp_path, text, needle):
    (tmp_path / "s.toml").write_text(text)
    code, _, stderr = in_process("study", "run", tmp_path / "s.toml", "-o", tmp_path / "out")
    line = one_error_line(stderr)
    assert code == 2 and "s.toml: restrict" in line and needle in line, line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("out", "why"),
    [
        ("{tmp}/notes.txt/sub", "{tmp}/notes.txt is a file, not a folder; move it away"),
        ("{tmp}/gone", "{tmp}/gone is a link to {tmp}/nowhere, which does not exist"),
        ("/proc/x", "/proc takes no new files or folders; choose a folder on a disk"),
    ],
)
def test_an_out_directory_that_cannot_be_made_is_one_plain_line(tmp_path, out, why):
    (tmp_path / "notes.txt").write_text("a designer's file")
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    before = tree_digest(tmp_path)
    out = out.replace("{tmp}", str(tmp_path))
    code, _, stderr = in_process("run", "power", "-n", 50, "-o", out)
    line = one_error_line(stderr)
    assert code == 2 and f"{out}: cannot create the folder (" in line
    assert why.replace("{tmp}", str(tmp_path)) in line and "Errno" not in line
    assert tree_digest(tmp_path) == before and not (tmp_path / "nowhere").exists()


# --- the helpers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "why"),
    [
        (errno.EACCES, "no permission; choose a folder of your own or change its permissions"),
        (errno.EPERM, "not permitted"),
        (errno.EROFS, "the file system is read-only; choose a folder on a writable disk"),
        (errno.ENOSPC, "the disk is full; free some space or choose another disk"),
        (errno.EDQUOT, "your disk quota is used up"),
        (errno.ENAMETOOLONG, "a name in the path is too long"),
        (errno.EISDIR, "it is a folder; give a file name"),
        (errno.EBUSY, "device or resource busy; check the path"),
    ],
)
def test_an_os_error_is_one_line_of_what_where_why_and_what_to_do(number, why):
    error = OSError(number, os.strerror(number), "out/report.pdf")
    line = files.os_error_line(error, "write the file")
    assert line.startswith(f"out/report.pdf: cannot write the file ({why}") and line[-1] == ")"
    assert "\n" not in line and "Errno" not in line


def test_a_missing_file_to_read_is_named_without_advice_to_create_it(tmp_path):
    with pytest.raises(SpecError) as error:
        files.read_text(tmp_path / "s.toml", "study file")
    assert str(error.value) == (
        f"{tmp_path / 's.toml'}: cannot read the study file (it does not exist; check the spelling)"
    )


def test_all_or_nothing_leaves_the_disk_as_it_was_on_an_error(tmp_path):
    (tmp_path / "a.txt").write_text("old a")

    def fail(path: Path) -> None:
        path.write_text("half")
        raise RuntimeError("failed half-way")

    with pytest.raises(RuntimeError, match="half-way"), files.all_or_nothing() as staged:
        staged.write(tmp_path / "a.txt", lambda path: path.write_text("new a"))
        staged.write(tmp_path / "new" / "deeper" / "b.txt", fail)
    assert [p.name for p in tmp_path.rglob("*")] == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "old a"
    with files.all_or_nothing() as staged:
        staged.write(tmp_path / "a.txt", lambda path: path.write_text("new a"))
        staged.write(tmp_path / "new" / "b.txt", lambda path: path.write_text("b"))
        assert (tmp_path / "a.txt").read_text() == "old a"  # nothing in place before the end
    assert (tmp_path / "a.txt").read_text() == "new a"
    assert sorted(tree_digest(tmp_path)) == ["a.txt", "new/b.txt"]
