"""The files a designer names. Reading them (study files, data files, run.json): regular files
only, bounded in size, UTF-8 text; /dev/zero, a FIFO or a 10 GB file is one line of error, never
a hang or an exhausted memory. Writing where they point (reports, PNG and table folders): every
target checked before anything is written (``check_file_target``, ``check_folder_target``), then
all files or none (``all_or_nothing``). An OSError on a path becomes one line that says what
could not be done, where, why in plain words and what to do (``os_error_line``)."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from simcore.errors import SpecError

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
        raise refuse(_why(error.errno, path, error.strerror, reading=True)) from None
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
            raise refuse(_why(error.errno, path, error.strerror, reading=True)) from None
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


# --- OSErrors in words ---------------------------------------------------------------------------


def os_error_line(error: OSError, action: str = "use it", parents_made: bool = False) -> str:
    """``error`` as one line a designer can act on: ``PATH: cannot ACTION (why; what to do)``.
    ``action`` says what was being done, e.g. "create the folder" or "write the file";
    ``parents_made``: the missing folders above PATH were to be created too."""
    strerror = error.strerror or type(error).__name__
    why = _why(error.errno, error.filename, strerror, parents_made=parents_made)
    where = f"{error.filename}: " if error.filename else ""
    return f"{where}cannot {action} ({why})"


def _why(
    number: int | None,
    path: str | Path | None,
    strerror: str,
    reading: bool = False,
    parents_made: bool = False,
) -> str:
    """Why an operation on ``path`` failed with errno ``number``, in plain words, and what to do;
    a file in the way or a missing folder is named by looking at the path as it is now."""
    path = Path(path) if path is not None else None
    if number == errno.ENOTDIR and path is not None:
        blocker = next((p for p in _down_to(path) if p.exists() and not p.is_dir()), None)
        if blocker is not None:
            return f"{blocker} is a file, not a folder; move it away or choose another path"
    if number == errno.EEXIST and path is not None:
        if path.is_symlink() and not path.exists():
            return (
                f"{path} is a link to {os.readlink(path)}, which does not exist; remove the link "
                "or choose another path"
            )
        if path.exists() and not path.is_dir():
            return f"{path} is a file, not a folder; move it away or choose another path"
    if number == errno.ENOENT and path is not None:
        missing = next((p for p in _down_to(path) if not p.exists()), None)
        folder_missing = missing not in (path, None)
        if reading or (folder_missing and not parents_made):
            name = f"the folder {missing}" if folder_missing else "it"
            todo = "check the spelling" if reading else "check the spelling or create it"
            return f"{name} does not exist; {todo}"
        # Every folder on the way is there or to be made, yet one refused a new entry.
        folder = missing.parent if missing else path if path.is_dir() else path.parent
        return f"{folder} takes no new files or folders; choose a folder on a disk"
    plain = {
        errno.EISDIR: "it is a folder; give a file name",
        errno.EACCES: "no permission; choose a folder of your own or change its permissions",
        errno.EPERM: "not permitted; choose a folder of your own or change its permissions",
        errno.EROFS: "the file system is read-only; choose a folder on a writable disk",
        errno.ENOSPC: "the disk is full; free some space or choose another disk",
        errno.EDQUOT: "your disk quota is used up; free some space or choose another disk",
        errno.ENAMETOOLONG: "a name in the path is too long; choose a shorter one",
        errno.ELOOP: "its links lead round in a circle; fix them or choose another path",
        errno.EIO: "the disk reported an input/output error; check the disk",
    }
    if reading:
        plain[errno.EACCES] = "no permission to read it; change its permissions"
        plain[errno.EPERM] = plain[errno.EACCES]
    return plain.get(number, f"{strerror[:1].lower()}{strerror[1:]}; check the path")


def _down_to(path: Path) -> list[Path]:
    """``path``'s folders from the outermost down, then ``path``: the first odd one is the cause."""
    return [*reversed(path.parents), path]


# --- writing: checked first, then all files or none ------------------------------------------


def temporary_beside(path: Path) -> Path:
    """A new empty file beside ``path`` (``.NAME.PID-RANDOM.tmp``) that readers, the manifest
    and a resume ignore."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666))
    return tmp


def make_folder(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; returns the folders created, innermost first
    (for ``remove_empty_folders``). An OSError is a one-line SpecError, the folders made before
    it removed again."""
    folder = Path(folder)
    created = [p for p in (folder, *folder.parents) if not p.exists()]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        remove_empty_folders(created)
        raise SpecError(os_error_line(error, "create the folder", parents_made=True)) from None
    return created


def remove_empty_folders(folders: list[Path]) -> None:
    """Remove each folder (innermost first) that is empty; leave the others."""
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def _refuse_unwritable(
    path: Path, action: str, check: Callable[[], None], parents_made: bool = False
) -> None:
    """``check()``, its OSError a one-line SpecError about ``path``."""
    try:
        check()
    except OSError as error:
        on_path = OSError(error.errno, error.strerror, str(path))
        raise SpecError(os_error_line(on_path, action, parents_made)) from None


def _probe(folder: Path) -> None:
    """Create and remove a file in ``folder``: the one sure test that files can be made there
    (permissions, a read-only or special file system, a full disk of inodes; root passes
    ``os.access``)."""
    os.unlink(temporary_beside(folder / "probe"))


def check_file_target(path: Path) -> None:
    """Refuse (one-line SpecError) a file that cannot be written at ``path``, before anything
    is: a folder in its place, a missing folder, a folder where no file can be made."""
    path = Path(path)

    def check() -> None:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        _probe(path.parent)

    _refuse_unwritable(path, "write the file", check)


def check_folder_target(folder: Path) -> None:
    """Refuse (one-line SpecError) a folder that cannot be written into or created (with its
    parents) at ``folder``, before anything is: a file in its place or in a parent's, a folder
    where nothing can be made. Nothing is created."""
    folder = Path(folder)
    existing = next(p for p in (folder, *folder.parents) if os.path.lexists(p))

    def check() -> None:
        if not existing.is_dir():
            code = errno.EEXIST if existing == folder else errno.ENOTDIR
            raise OSError(code, os.strerror(code))
        _probe(existing)

    action = "write into the folder" if folder.is_dir() else "create the folder"
    _refuse_unwritable(folder, action, check, parents_made=True)


class Staged:
    """Files being written all or none (``all_or_nothing``): each to a temporary name beside
    its target, renamed into place once every one is written."""

    def __init__(self) -> None:
        self.renames: list[tuple[Path, Path]] = []
        self.created: list[Path] = []

    def write(self, path: Path, write: Callable[[Path], None]) -> None:
        """``write(temporary)`` for the file ``path`` (its folder created if missing)."""
        path = Path(path)
        self.created[:0] = make_folder(path.parent)
        try:
            tmp = temporary_beside(path)
            self.renames.append((tmp, path))
            write(tmp)
        except OSError as error:
            target = OSError(error.errno, error.strerror, str(path))
            raise SpecError(os_error_line(target, "write the file")) from None


@contextlib.contextmanager
def all_or_nothing() -> Iterator[Staged]:
    """Files written in the block (``Staged.write``) replace their targets only when the block
    ends without error, all together; otherwise the temporaries and the folders made for them
    are removed and the disk is as it was."""
    staged = Staged()
    try:
        yield staged
        for tmp, path in staged.renames:
            try:
                os.replace(tmp, path)
            except OSError as error:
                target = OSError(error.errno, error.strerror, str(path))
                raise SpecError(os_error_line(target, "write the file")) from None
    except BaseException:
        for tmp, _ in staged.renames:
            tmp.unlink(missing_ok=True)
        remove_empty_folders(staged.created)
        raise


def _within(path: Path, other: Path) -> bool:
    """Whether ``path`` is ``other`` or lies inside it, however either is spelled (``.``,
    ``..``, links)."""
    path, other = path.resolve(), other.resolve()
    return path == other or other in path.parents


def check_report_targets(
    pdf: Path | None = None,
    png: Path | None = None,
    tables: Path | None = None,
    pdf_option: str = "--output ",
) -> None:
    """Refuse, before anything is written, a report's PDF, PNG folder or tables folder that
    cannot be written there (``pdf_option``: "" for a PDF the designer did not name)."""
    if pdf is not None and pdf.suffix.lower() != ".pdf":
        raise SpecError(f"{pdf_option}{pdf} should end in .pdf")
    for option, folder in (("--png ", png), ("--tables ", tables)):
        # The folder would stand where the PDF goes (or the PDF become a folder above it): the
        # PDF could be written only after every page was drawn, then fail.
        if pdf is not None and folder is not None and _within(Path(folder), Path(pdf)):
            where = f" ({pdf_option.strip()} {pdf})" if pdf_option else f" ({pdf})"
            raise SpecError(f"{option}{folder} is where the PDF goes{where}; choose another folder")
    for option, target, check in (
        (pdf_option, pdf, check_file_target),
        ("--png ", png, check_folder_target),
        ("--tables ", tables, check_folder_target),
    ):
        if target is not None:
            try:
                check(target)
            except SpecError as error:
                raise SpecError(f"{option}{error}") from None
