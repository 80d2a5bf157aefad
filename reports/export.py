"""Writing report pages: one PDF (fonts embedded, with its metadata) and, for slides, one PNG
per page named after it, and for spreadsheets one CSV per table; all files or none."""

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from simcore.workflows.files import Staged, all_or_nothing

# TrueType (Type 42) fonts embedded in the PDF: text stays text (selectable, searchable, sharp
# at any zoom) and the PDF prints the same everywhere.
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


def save_pdf(figures: Iterable[Figure], path: str | Path, info: dict, staged: Staged) -> None:
    """The figures as the pages of the PDF ``path``, among the ``staged`` files (written all or
    none: a failure leaves any previous PDF untouched)."""

    def write(temporary: Path) -> None:
        with matplotlib.rc_context(REPORT_RC), PdfPages(temporary, metadata=info) as pdf:
            for figure in figures:
                pdf.savefig(figure)

    staged.write(Path(path), write)


def page_file_name(number: int, title: str) -> str:
    """``NN-title-in-lowercase-words.png``: the page number keeps the order and makes the name
    unique, the title says what it is; only letters, digits and hyphens."""
    words = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:80].rstrip("-")
    return f"{number:02d}-{words or 'page'}.png"


def save_pngs(figures: list[Figure], titles: list[str], folder: str | Path, staged: Staged) -> None:
    """Each figure as ``folder/NN-<title>.png`` among the ``staged`` files (the folder created
    if missing)."""
    for number, (figure, title) in enumerate(zip(figures, titles, strict=True), start=1):
        path = Path(folder) / page_file_name(number, title)
        staged.write(path, lambda tmp, page=figure: page.savefig(tmp, format="png", dpi=PNG_DPI))


def write_pages(
    pages: list,
    title: str,
    subject: str,
    pdf_path: str | Path | None = None,
    png_dir: str | Path | None = None,
    tables_dir: str | Path | None = None,
) -> list[str]:
    """A report's pages (``reports.toolkit.ReportPage``) as a PDF with its metadata and/or as
    PNGs named after them, and with ``tables_dir`` the table of every page that has one as a
    CSV; returns the page titles. Every report writes its pages this way, all files or none
    (``files.all_or_nothing``): a failure half-way leaves the disk as it was."""
    titles = [page.title for page in pages]
    with all_or_nothing() as staged:
        if pdf_path is not None:
            save_pdf(pages, pdf_path, metadata(title, subject), staged)
        if png_dir is not None:
            save_pngs(pages, titles, png_dir, staged)
        if tables_dir is not None:
            save_tables(pages, tables_dir, staged)
    return titles


def save_tables(pages: list, folder: str | Path, staged: Staged) -> None:
    """The table of each page that has one as ``folder/NN-<title>.csv`` (NN the page number, as
    for PNGs), for spreadsheets, among the ``staged`` files (the folder created if missing)."""
    for number, page in enumerate(pages, start=1):
        if page.table is not None:
            name = page_file_name(number, page.title).removesuffix(".png") + ".csv"
            staged.write(Path(folder) / name, lambda tmp, table=page.table: table.write_csv(tmp))
