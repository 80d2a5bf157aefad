"""Run directories on disk: atomic Parquet parts and run.json (layout in docs/architecture.md)."""

from __future__ import annotations

import json
import os
import re
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

PART_PATTERN = re.compile(r"^part-(\d{12})-(\d{9})\.parquet$")


def games_dir(out: Path) -> Path:
    return Path(out) / "games"


def part_name(first_index: int, count: int) -> str:
    return f"part-{first_index:012d}-{count:09d}.parquet"


def atomic_write_bytes(path: Path, write) -> None:
    """Call ``write(tmp_path)`` then rename into ``path``: readers never see half a file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_part(out: Path, first_index: int, table: pa.Table) -> Path:
    path = games_dir(out) / part_name(first_index, table.num_rows)
    atomic_write_bytes(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))
    return path


def write_json(path: Path, data: dict) -> None:
    text = json.dumps(data, indent=2, sort_keys=False) + "\n"
    atomic_write_bytes(path, lambda tmp: Path(tmp).write_text(text))


def as_stored(data):
    """``data`` as it reads back from a JSON file (tuples become lists): for comparing a spec
    with the one stored in a directory."""
    return json.loads(json.dumps(data))


def read_json(path: Path) -> dict:
    return json.loads(Path(path).read_text())


def parts(out: Path) -> list[tuple[int, int, Path]]:
    """(first game index, game count, path) of every complete part, in index order."""
    folder = games_dir(out)
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        match = PART_PATTERN.match(path.name)
        if match:
            found.append((int(match.group(1)), int(match.group(2)), path))
    return sorted(found)


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


def read_toml(path: Path) -> dict:
    """A TOML file's data, or a one-line SpecError naming the file."""
    from simcore.registry import SpecError

    path = Path(path)
    try:
        return tomllib.loads(path.read_text())
    except OSError as error:
        raise SpecError(f"{path}: cannot read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise SpecError(f"{path}: not valid TOML ({error})") from None


def check_owned(out: Path, marker: str, same: Callable[[dict], bool], what: str) -> None:
    """Refuse, before anything is written, an ``out`` that is a file, holds another ``what``
    (its ``marker`` JSON file fails ``same``), or is a non-empty folder without the marker."""
    from simcore.registry import SpecError

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise SpecError(f"--out {out} is a file, not a directory")
    if (out / marker).exists():
        if not same(read_json(out / marker)):
            raise SpecError(f"--out {out} holds another {what}; use another --out or the same spec")
    elif out.exists() and any(out.iterdir()):
        raise SpecError(f"--out {out} is not empty and holds no powerlab {what}")
