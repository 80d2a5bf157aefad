"""Writing report pages: one PDF (atomically, fonts embedded, with its metadata) and, for
slides, one PNG per page named after it."""

import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from simcore import storage

# TrueType (Type 42) fonts embedded whole: text stays text (selectable, searchable, sharp at any
# zoom) and the PDF prints the same everywhere.
REPORT_RC = {"pdf.fonttype": 42, "ps.fonttype": 42}
PNG_DPI = 150


def metadata(title: str, subject: str) -> dict:
    """PDF document properties: title, subject (the run or the study's question), producer."""
    return {
        "Title": title,
        "Subject": subject,
        "Creator": f"powerlab {version('powerlab')}",
        "CreationDate": datetime.now(UTC),
    }


def save_pdf(figures: Iterable[Figure], path: str | Path, info: dict) -> None:
    """Write the figures as PDF pages, atomically: a temporary file in the same folder replaces
    ``path`` only once complete, so a failure leaves any previous PDF untouched."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with matplotlib.rc_context(REPORT_RC), PdfPages(temporary, metadata=info) as pdf:
            for figure in figures:
                pdf.savefig(figure)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def page_file_name(number: int, title: str) -> str:
    """``NN-title-in-lowercase-words.png``: the page number keeps the order and makes the name
    unique, the title says what it is; only letters, digits and hyphens."""
    words = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:80].rstrip("-")
    return f"{number:02d}-{words or 'page'}.png"


def save_pngs(figures: list[Figure], titles: list[str], folder: str | Path) -> list[Path]:
    """Each figure as ``folder/NN-<title>.png`` (each file written atomically); returns the
    paths. The folder is created if missing (its parent must exist)."""
    folder = Path(folder)
    folder.mkdir(exist_ok=True)
    paths = []
    for number, (figure, title) in enumerate(zip(figures, titles, strict=True), start=1):
        path = folder / page_file_name(number, title)
        storage.atomic_write_bytes(
            path, lambda tmp, figure=figure: figure.savefig(tmp, format="png", dpi=PNG_DPI)
        )
        paths.append(path)
    return paths
