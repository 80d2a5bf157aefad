"""Run and study directories on disk (layout and rules in docs/architecture.md).

A run directory behaves like a small database: one writer at a time (``locked``: an advisory
lock that dies with its process), every part file listed with its game range, row count and
SHA-256 in ``manifest.json`` (``add_part``), and every reader and resume checking the parts
against it (``check_parts``). run.json and study.json are read through one validating loader
each (``read_run_json``, ``read_study_json``), through their models in ``schemas``.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import numbers
import os
import re
import socket
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.parquet as pq
from pydantic import BaseModel

from simcore.registry import SpecError
from simcore.workflows import files, result_schemas, schemas

# Defined with the schemas, read by the workflows as storage.MAX_GAMES and so on.
from simcore.workflows.schemas import (  # noqa: F401
    CELL_ID,
    GAMES_WHY,
    MAX_GAMES,
    MAX_PLAYERS,
    MAX_SEED,
)

# The run and study directory format; readers refuse any other. 2: manifest.json and a lock.
FORMAT = 2
PART_PATTERN = re.compile(r"^part-(\d{12,19})-(\d{9,19})\.parquet$")
MANIFEST = "manifest.json"
LOCK_FILE = ".powerlab.lock"
TEMPORARY = re.compile(r"^\..+\.tmp$")
# 10,000 parts (a billion games at the default chunk size) make a manifest of about 2 MB.
MAX_MANIFEST_BYTES = 256 * 2**20
REGENERATE = "rerun the command that made it with a new --out to regenerate it"
DAMAGED = "the directory was damaged: remove it, or rerun the command with a new --out"


def check_count(value, what: str, high: int, why: str, low: int = 1) -> int:
    """``value`` if it is an integer in [low, high], else SpecError: the one bound check of a
    count (games, budgets, rounds, resamples, limits). ``what`` names the option or the file's
    key, ``why`` what the upper bound protects (memory, or time at today's speed)."""
    whole = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not whole or not low <= value <= high:
        raise SpecError(f"{what} must be in [{low}, {high:,}] ({why}), not {value!r}")
    return value


def games_dir(out: Path) -> Path:
    return Path(out) / "games"


def arcs_dir(out: Path) -> Path:
    """The turn-level arcs parts (docs/arcs.md), one per games part, named like it."""
    return Path(out) / "arcs"


def part_name(first_index: int, count: int) -> str:
    return f"part-{first_index:012d}-{count:09d}.parquet"


def atomic_write_bytes(path: Path, write, before_rename: Callable[[Path], None] | None = None):
    """Call ``write(tmp_path)`` (then ``before_rename(tmp_path)``) and rename into ``path``:
    readers never see half a file. The file's mode follows the umask, as ``open`` would."""
    path = Path(path)
    tmp = files.temporary_beside(path)
    try:
        write(tmp)
        if before_rename:
            before_rename(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json(path: Path, data: dict) -> None:
    text = json.dumps(data, indent=2, sort_keys=False) + "\n"
    atomic_write_bytes(path, lambda tmp: Path(tmp).write_text(text))


def as_stored(data):
    """``data`` as it reads back from a JSON file (tuples become lists): for comparing a spec
    with the one stored in a directory."""
    return json.loads(json.dumps(data))


def read_json(path: Path, what: str, limit: int = files.MAX_TEXT_BYTES) -> dict:
    """A JSON object file powerlab wrote, read like the files a designer names (bounded, regular
    files only), or a one-line SpecError naming it."""
    text = files.read_text(path, what, limit)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise SpecError(f"{path}: invalid JSON ({error})") from None
    if not isinstance(data, dict):
        raise SpecError(f"{path}: expected a JSON object; {REGENERATE}")
    return data


def read_stored(path: Path, what: str, model: type[BaseModel]) -> dict:
    """A result file a command wrote to read back later (a tune or balance directory's
    summary.json, say; ``result_schemas``), checked as ``model``: a damaged one is a one-line
    SpecError naming the file and the key. The data as written (defaults left unfilled)."""
    data = read_json(path, what)
    try:
        schemas.check(model, data, path)
    except SpecError as error:
        raise SpecError(f"{error}; {DAMAGED}") from None
    return data


def read_tune_summary(out: Path) -> dict:
    """``out/summary.json`` of a tune directory (or of one search or round of it), checked."""
    return read_stored(Path(out) / "summary.json", "tuning summary", result_schemas.TuneSummary)


def read_balance_summary(out: Path) -> dict:
    """``out/summary.json`` of a balance directory, checked."""
    return read_stored(Path(out) / "summary.json", "balance summary", result_schemas.BalanceSummary)


def read_versioned(path: Path, what: str, limit: int = files.MAX_TEXT_BYTES) -> dict:
    """``read_json`` of a directory's identity file (run.json, study.json, manifest.json,
    tune.json, meta.json), refused unless it carries this FORMAT."""
    data = read_json(path, what, limit)
    if "format" not in data:
        raise SpecError(f"{path}: written by an older powerlab (no format number); {REGENERATE}")
    if data["format"] != FORMAT:
        raise SpecError(
            f"{path}: format {data['format']!r}, this powerlab reads format {FORMAT}; {REGENERATE}"
        )
    return data


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- the writer lock --------------------------------------------------------------------------

_held: dict[str, int] = {}  # folders this process has locked, with their nesting depth


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold the exclusive writer lock of ``folder`` (created if missing) for the block.

    The lock is ``flock`` on ``folder/.powerlab.lock``: the kernel drops it when its process
    ends, even by kill -9, so a lock is never stale. A second writer gets a SpecError naming the
    holder (pid, host, command, start) from the lock file, before writing anything. Nested use in
    one process re-enters. A folder this call created is removed again if nothing was written.
    """
    folder = Path(folder)
    key = os.path.realpath(folder)
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    if folder.exists() and not folder.is_dir():
        raise SpecError(f"--out {folder} is a file, not a directory")
    created = files.make_folder(folder)
    try:
        fd = _acquire(folder)
    except BaseException:
        files.remove_empty_folders(created)
        raise
    _held[key] = 1
    try:
        yield
    finally:
        del _held[key]
        # Unlinked while still held, so a waiting opener of the old file sees that it is gone.
        (folder / LOCK_FILE).unlink(missing_ok=True)
        os.close(fd)
        files.remove_empty_folders(created)


def _acquire(folder: Path) -> int:
    path = folder / LOCK_FILE
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise SpecError(
                f"{folder} is being written by {holder}; wait for it to finish or use another --out"
            ) from None
        except OSError as error:
            os.close(fd)
            raise SpecError(
                f"{folder}: cannot lock it for writing ({error.strerror}); powerlab needs a "
                "filesystem with file locks"
            ) from None
        # The holder we raced may have removed the file as it finished: lock the one on disk.
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            holder = {
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
                "started": now(),
            }
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(holder).encode(), 0)
            return fd
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 65536, 0))
        return (
            f"pid {info['pid']} on {info['host']} since {info['started']} ({info['command'][:200]})"
        )
    except (ValueError, KeyError, TypeError, OSError):
        return "another powerlab process"


def is_empty(folder: Path) -> bool:
    """Whether ``folder`` holds nothing but its writer's lock file."""
    return all(p.name == LOCK_FILE for p in Path(folder).iterdir())


# --- parts and the manifest -------------------------------------------------------------------


@dataclass(frozen=True)
class ArcsFile:
    """The arcs part of a games part (``--arcs``): its rows and SHA-256."""

    rows: int
    sha256: str


@dataclass(frozen=True)
class Part:
    """A part file as the manifest lists it: games ``first .. first + count - 1``, with the
    arcs of its sampled games in ``arcs/`` under the same name when the run records arcs."""

    first: int
    count: int
    rows: int
    sha256: str
    arcs: ArcsFile | None = None

    @property
    def name(self) -> str:
        return part_name(self.first, self.count)

    def path(self, out: Path) -> Path:
        return games_dir(out) / self.name

    def arcs_path(self, out: Path) -> Path:
        return arcs_dir(out) / self.name

    @property
    def stop(self) -> int:
        return self.first + self.count


def read_manifest(out: Path) -> list[Part]:
    """The parts ``out/manifest.json`` lists (none if there is no manifest yet)."""
    path = Path(out) / MANIFEST
    if not path.exists():
        return []
    data = read_checked(path, "manifest", schemas.Manifest, MAX_MANIFEST_BYTES)
    result = []
    for entry in data["parts"]:
        arcs = entry["arcs"] and ArcsFile(entry["arcs"]["rows"], entry["arcs"]["sha256"])
        part = Part(entry["first"], entry["count"], entry["rows"], entry["sha256"], arcs)
        if entry["file"] != part.name:
            raise SpecError(f"{path}: entry {entry['file']!r} does not name games {part.first}-"
                            f"{part.stop - 1}; {REGENERATE}")  # fmt: skip
        result.append(part)
    return result


def write_manifest(out: Path, parts: list[Part]) -> None:
    entries = [
        {"file": p.name, "first": p.first, "count": p.count, "rows": p.rows, "sha256": p.sha256}
        | ({"arcs": {"rows": p.arcs.rows, "sha256": p.arcs.sha256}} if p.arcs else {})
        for p in sorted(parts, key=lambda p: p.first)
    ]
    write_json(Path(out) / MANIFEST, {"format": FORMAT, "parts": entries})


def file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def add_part(
    out: Path,
    parts: list[Part],
    first: int,
    count: int,
    write,
    expected_sha256: str = "",
    write_arcs=None,
    expected_arcs_sha256: str = "",
) -> Part:
    """Write part ``first, count`` with ``write(tmp)`` (and its arcs part with
    ``write_arcs(tmp)``), list it in the manifest, then rename it into place (appending it to
    ``parts``, the manifest's entries). Hold the lock.

    The manifest entry is written before the renames, so a reader that lists ``games/`` before it
    reads the manifest never meets a complete part the manifest lacks; a writer killed between
    the two leaves a listed part that is missing, which the next writer recomputes. The arcs part
    is renamed before the games part, so a games part on disk always has its arcs.
    """
    name = part_name(first, count)
    arcs_tmp = None
    try:
        arcs = None
        if write_arcs is not None:
            arcs_dir(out).mkdir(exist_ok=True)
            arcs_tmp = files.temporary_beside(arcs_dir(out) / name)
            write_arcs(arcs_tmp)
            arcs = ArcsFile(pq.read_metadata(arcs_tmp).num_rows, file_sha256(arcs_tmp))
            if expected_arcs_sha256 and arcs.sha256 != expected_arcs_sha256:
                raise SpecError(f"{name}: the copy of its arcs differs from the source (checksum)")

        def list_it(tmp: Path) -> None:
            part = Part(first, count, count, file_sha256(tmp), arcs)
            if expected_sha256 and part.sha256 != expected_sha256:
                raise SpecError(f"{part.name}: the copy differs from its source (checksum)")
            write_manifest(out, [*parts, part])
            parts.append(part)
            if arcs_tmp is not None:
                os.replace(arcs_tmp, arcs_dir(out) / name)

        atomic_write_bytes(games_dir(out) / name, write, before_rename=list_it)
    finally:
        if arcs_tmp is not None:
            arcs_tmp.unlink(missing_ok=True)
    return parts[-1]


@dataclass
class PartCheck:
    """``check_parts``: intact parts, and what is wrong with the others."""

    parts: list[Part] = field(default_factory=list)  # listed, on disk, intact: in index order
    problems: list[tuple[Path, str]] = field(default_factory=list)  # (file, what is wrong)
    missing: list[Part] = field(default_factory=list)  # listed, not (yet) on disk
    temporary: list[Path] = field(default_factory=list)  # left by an interrupted writer


def check_parts(out: Path, first: int, stop: int) -> PartCheck:
    """Every part file of ``out`` against the manifest: listed, inside the run's game indices
    [first, stop), not overlapping another, with the listed rows and SHA-256."""
    folder = games_dir(out)
    # List the folders before reading the manifest: see add_part for why that order is safe.
    names = sorted(os.listdir(folder)) if folder.is_dir() else []
    arcs_names = sorted(os.listdir(arcs_dir(out))) if arcs_dir(out).is_dir() else []
    listed = read_manifest(out)
    result = PartCheck()
    on_disk = set(names)
    end = first
    for part in sorted(listed, key=lambda p: p.first):
        path = part.path(out)
        if part.name not in on_disk:
            result.missing.append(part)
            continue
        problem = _part_problem(path, part, first, stop, end)
        if problem:
            result.problems.append((path, problem))
            continue
        end = part.stop
        problem = _arcs_problem(part.arcs_path(out), part)
        if problem:
            result.problems.append((part.arcs_path(out), problem))
        else:
            result.parts.append(part)
    listed_names = {part.name for part in listed}
    for name in names:
        if TEMPORARY.match(name):
            result.temporary.append(folder / name)
        elif name.startswith("part-") and name not in listed_names:
            why = "not in the manifest (a copy, or a part of another run?)"
            result.problems.append((folder / name, why))
    listed_arcs = {part.name for part in listed if part.arcs}
    for name in arcs_names:
        if TEMPORARY.match(name):
            result.temporary.append(arcs_dir(out) / name)
        elif name not in listed_arcs:
            why = "arcs not in the manifest (a copy, or arcs of another run?)"
            result.problems.append((arcs_dir(out) / name, why))
    return result


def _arcs_problem(path: Path, part: Part) -> str | None:
    if part.arcs is None:
        return None
    if not path.is_file():
        return "the arcs part the manifest lists is missing"
    if file_sha256(path) != part.arcs.sha256:
        return "its content differs from the manifest (checksum): damaged or replaced"
    rows = pq.read_metadata(path).num_rows
    if rows != part.arcs.rows:
        return f"holds {rows} rows, the manifest says {part.arcs.rows}"
    return None


def _part_problem(path: Path, part: Part, first: int, stop: int, end: int) -> str | None:
    if part.first < first or part.stop > stop:
        return f"games {part.first}-{part.stop - 1} lie outside this run's {first}-{stop - 1}"
    if part.first < end:
        return f"games {part.first}-{part.stop - 1} overlap another part"
    if part.rows != part.count:
        return f"the manifest lists {part.rows} rows for {part.count} games"
    if file_sha256(path) != part.sha256:
        return "its content differs from the manifest (checksum): damaged or replaced"
    rows = pq.read_metadata(path).num_rows
    if rows != part.rows:
        return f"holds {rows} rows, the manifest says {part.rows}"
    return None


def run_range(info: dict) -> tuple[int, int]:
    """The [first, stop) game indices a run directory holds (its shard's, or all its games)."""
    shard = info.get("shard")
    return (shard["first"], shard["stop"]) if shard else (0, info["spec"]["games"])


def parts(out: Path, info: dict) -> list[Part]:
    """The intact parts of a run directory, for readers: any part that is not the run's is a
    one-line SpecError naming its file."""
    check = check_parts(out, *run_range(info))
    if check.problems:
        path, problem = check.problems[0]
        raise SpecError(f"{path}: {problem}; rerun the command that wrote the run to repair it")
    return check.parts


def repair(out: Path, info: dict, notify: Callable[[str], None]) -> list[Part]:
    """For a writer holding the lock: remove every part that is not the run's, and the files of
    an interrupted writer, saying so through ``notify``; returns the intact parts (the manifest
    then lists exactly them)."""
    check = check_parts(out, *run_range(info))
    for path, problem in check.problems:
        # A games part and its arcs go together: either being bad, both are computed again.
        (games_dir(out) / path.name).unlink(missing_ok=True)
        (arcs_dir(out) / path.name).unlink(missing_ok=True)
        notify(f"{path}: {problem}; removed, its games are computed again")
    for part in check.missing:
        part.arcs_path(out).unlink(missing_ok=True)
        notify(f"{part.path(out)}: listed in the manifest but missing; computed again")
    # A writer's own temporary files only: a report being written beside them is a reader's.
    leftovers = [
        *check.temporary,
        *Path(out).glob(".run.json.*.tmp"),
        *Path(out).glob(".manifest.json.*.tmp"),
    ]
    for path in leftovers:
        path.unlink(missing_ok=True)
    if leftovers:
        notify(f"{out}: removed {len(leftovers)} temporary file(s) of an interrupted writer")
    if check.problems or check.missing or not (Path(out) / MANIFEST).exists():
        write_manifest(out, check.parts)
    return check.parts


def missing_ranges(covered: list[tuple[int, int]], start: int, stop: int) -> list[tuple[int, int]]:
    """The [first, stop) ranges of game indices in [start, stop) not covered by (first, count)."""
    gaps = []
    cursor = start
    for first, count in sorted(covered):
        if first > cursor:
            gaps.append((cursor, min(first, stop)))
        cursor = max(cursor, first + count)
        if cursor >= stop:
            break
    if cursor < stop:
        gaps.append((cursor, stop))
    return [(a, b) for a, b in gaps if b > a]


def check_owned(out: Path, marker: str, same: Callable[[dict], bool], what: str) -> None:
    """Refuse, before anything is written, an ``out`` that is a file, holds another ``what``
    (its ``marker`` JSON file, of this FORMAT, fails ``same``), or is a non-empty folder without
    the marker. Writers call it again once they hold ``out``'s lock."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SpecError(f"--out {out} is a file, not a directory")
    if (out / marker).exists():
        if not same(read_versioned(out / marker, marker)):
            raise SpecError(f"--out {out} holds another {what}; use another --out or the same spec")
    elif out.exists() and not is_empty(out):
        raise SpecError(f"--out {out} is not empty and holds no powerlab {what}")


# --- run.json and study.json ------------------------------------------------------------------


def read_run_json(out: Path) -> dict:
    """``out/run.json``, checked: every entry the runner, the analyses and the reports read has
    its type and range, or a one-line SpecError naming the file and the entry."""
    return read_checked(Path(out) / "run.json", "run.json", schemas.RunInfo)


def read_study_json(out: Path) -> dict:
    """``out/study.json``, checked like ``read_run_json`` (cell ids are plain folder names)."""
    return read_checked(Path(out) / "study.json", "study.json", schemas.StudyInfo)


def read_checked(path: Path, what: str, model: type[BaseModel], limit=files.MAX_TEXT_BYTES) -> dict:
    """``read_versioned`` checked as ``model`` (``schemas``), with the defaults of optional
    entries filled in."""
    return schemas.check(model, read_versioned(path, what, limit), path).model_dump()
