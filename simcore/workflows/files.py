"""Reading the files a designer names (study files, data files, run.json): regular files only,
bounded in size, UTF-8 text. /dev/zero, a FIFO or a 10 GB file is one line of error, never a
hang or an exhausted memory."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from simcore.registry import SpecError

# Study, data and JSON files are a few kB to a few MB; 16 MiB leaves room and still fits easily.
MAX_TEXT_BYTES = 16 * 2**20


def read_bytes(path: str | Path, what: str, limit: int = MAX_TEXT_BYTES) -> bytes:
    """The content of the regular file ``path``, or a SpecError naming it and ``what`` it is."""
    path = Path(path)

    def refuse(reason: str) -> SpecError:
        return SpecError(f"{path}: cannot read the {what} ({reason})")

    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise refuse(error.strerror or type(error).__name__) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # a folder, a FIFO, a device such as /dev/zero
        os.close(fd)
        raise refuse("not a regular file")
    with os.fdopen(fd, "rb") as handle:
        if info.st_size > limit:
            raise refuse(f"{info.st_size:,} bytes, more than the {limit:,} allowed")
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise refuse(error.strerror or type(error).__name__) from None
    if len(data) > limit:  # the file grew while being read
        raise refuse(f"more than the {limit:,} bytes allowed")
    return data


def read_text(path: str | Path, what: str, limit: int = MAX_TEXT_BYTES) -> str:
    """``read_bytes`` decoded as UTF-8, or a SpecError naming the first byte that is not."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SpecError(
            f"{path}: cannot read the {what} (not UTF-8 text: byte {error.start} is "
            f"0x{data[error.start]:02x})"
        ) from None
