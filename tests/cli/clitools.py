"""Running the CLI in tests: as a real process, or in-process through ``cli.main`` (the same
error handling, without the second of interpreter start-up)."""

import contextlib
import hashlib
import io
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def powerlab(*args, timeout: float | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli", *map(str, args)],
        capture_output=True, text=True, cwd=ROOT, timeout=timeout,
    )  # fmt: skip


def in_process(*args) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``powerlab ARGS`` run through ``cli.main`` here."""
    import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.main([str(a) for a in args])
            code = 0
        except SystemExit as exit_:
            code = exit_.code
    return code, out.getvalue(), err.getvalue()


def tree_digest(folder: Path) -> dict:
    """Every file under ``folder`` with its content hash: to prove nothing changed."""
    if not folder.exists():
        return {}
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def one_error_line(stderr: str) -> str:
    """The single ``powerlab: error:`` line of a refusal (asserting there is exactly one)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("powerlab: error:"), stderr
    assert "Traceback" not in stderr
    return lines[0]


def part_files(out: Path) -> list[tuple[int, int, Path]]:
    """(first index, count, path) of every verified part of a run directory, in index order."""
    from simcore.workflows import storage

    parts = storage.parts(out, storage.read_run_json(out))
    return [(part.first, part.count, part.path(out)) for part in parts]
