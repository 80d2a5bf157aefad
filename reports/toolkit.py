"""The page toolkit every report page is built with (docs/reports.md).

A page is a :class:`ReportPage`: an A4 landscape Figure with its title on top, one computed
takeaway sentence under the title, the how-to-read caption at the bottom and the body between
them. Text is wrapped with the font's own metrics, so it fits the page by construction; the
legibility contract (reports/legibility.py) checks the result. Every text that comes from data
(strategy labels, card names, cell names) goes through :func:`literal`, so a ``$`` in it is
printed, never read as mathtext.

Figures are built with ``matplotlib.figure.Figure`` rather than pyplot: no GUI backend is ever
selected, and no global figure registry keeps pages alive after they are saved.
"""

import functools
import math
import re
import textwrap
from collections.abc import Sequence
from typing import Any

import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, get_font
from matplotlib.ft2font import LoadFlags

from reports.legibility import A4_INCHES, MAX_LEGEND_ENTRIES

PAGE_SIZE = A4_INCHES  # landscape, inches
MARGIN = 0.5  # inches, on every side
TITLE_SIZE = 15.0
TAKEAWAY_SIZE = 11.5
CAPTION_SIZE = 9.5
TEXT_SIZE = 9.0  # tick labels, legends, annotations, tables
SMALL_SIZE = 8.0  # the smallest text a page uses (the contract's floor is 7 pt)
LINE_SPACING = 1.3  # matplotlib's default line height, in font sizes, rounded up
GREY = "#9a9a9a"
DARK = "#222222"


def literal(text: Any) -> str:
    """``text`` as it must be printed: a ``$`` escaped so that matplotlib never parses data
    (a strategy label such as ``$x$``) as mathtext."""
    return str(text).replace("$", r"\$")


@functools.cache
def _advance(char: str, bold: bool) -> float:
    """Advance width of one character of the font matplotlib draws report text with (its
    default sans-serif), in points at a size of 1 point, unhinted."""
    font = get_font(findfont(FontProperties(weight="bold" if bold else "normal")))
    font.set_size(100, 72)
    glyph = font.load_char(ord(char), flags=LoadFlags.NO_HINTING)
    return glyph.linearHoriAdvance / 65536 / 100


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of one line of ``text`` in points from the font's own advances (kerning, which
    only ever narrows a line of this font slightly, is left out: the width errs wide)."""
    return size * sum(_advance(char, bold) for char in text)


def wrap(text: str, width_inches: float, size: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width_inches`` at ``size`` points; a word
    wider than the line is broken where it must be."""
    limit = width_inches * 72 + 0.01  # a text measured to fit exactly fits

    def fits(candidate: str) -> bool:
        return text_width(candidate, size, bold) <= limit

    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if fits(candidate):
                line = candidate
                continue
            if line:
                lines.append(line)
            while not fits(word):  # a word wider than a whole line: cut where it must be,
                # after the last separator that fits (a strategy spec's "," between settings,
                # else its "="), so that a number is never split; else at the last character
                cut = next(k for k in range(len(word) - 1, 0, -1) if fits(word[:k]) or k == 1)
                for marks in (",:;/", "="):
                    after = max(word.rfind(mark, 0, cut) for mark in marks)
                    if after > 0:
                        cut = after + 1
                        break
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def height_of(lines: int, size: float) -> float:
    """Inches taken by ``lines`` lines of text at ``size`` points."""
    return lines * size * LINE_SPACING / 72


def wrap_label(
    text: Any, width_inches: float = 1.9, size: float = TEXT_SIZE, max_lines: int | None = None
) -> str:
    """A data label (strategy ``name:key=value,...``, card, cell) wrapped to ``width_inches``
    after its separators (not yet escaped: for ``legend``, which escapes); with ``max_lines``,
    cut to that many lines, the last ending in "…" (rows of a fixed height)."""
    spaced = re.sub(r"([:,])(?! )", r"\1 ", str(text))  # break after separators
    lines = wrap(spaced, width_inches, size)
    if max_lines is not None and len(lines) > max_lines:
        last = lines[max_lines - 1]
        lines = [*lines[: max_lines - 1], last[: max(len(last) - 1, 1)].rstrip() + "…"]
    return "\n".join(lines)


def label(
    text: Any, width_inches: float = 1.9, size: float = TEXT_SIZE, max_lines: int | None = None
) -> str:
    """``wrap_label``, printed literally: for tick labels and texts."""
    return literal(wrap_label(text, width_inches, size, max_lines))


def _layout(title: str, takeaway: str, caption: str) -> dict[str, Any]:
    """Where a page's texts go: their wrapped lines and top or bottom (inches from the bottom
    edge), and the body between them as (left, bottom, right, top) figure fractions."""
    width, height = PAGE_SIZE
    text_width_in = width - 2 * MARGIN
    layout: dict[str, Any] = {
        "title": wrap(title, text_width_in, TITLE_SIZE, bold=True),
        "takeaway": wrap(takeaway, text_width_in, TAKEAWAY_SIZE),
        "caption": wrap(caption, text_width_in, CAPTION_SIZE) if caption else [],
    }
    top = height - MARGIN * 0.6
    layout["title_top"] = top
    top -= height_of(len(layout["title"]), TITLE_SIZE) + 0.08
    layout["takeaway_top"] = top
    top -= height_of(len(layout["takeaway"]), TAKEAWAY_SIZE) + 0.25
    bottom = MARGIN * 0.6
    layout["caption_bottom"] = bottom
    if caption:
        bottom += height_of(len(layout["caption"]), CAPTION_SIZE) + 0.2
    layout["body"] = (MARGIN / width, bottom / height, 1 - MARGIN / width, top / height)
    return layout


def body_height(title: str, takeaway: str, caption: str) -> float:
    """Inches of body a page with these texts leaves for its content."""
    _, bottom, _, top = _layout(title, takeaway, caption)["body"]
    return (top - bottom) * PAGE_SIZE[1]


class ReportPage(Figure):
    """An A4 landscape page: ``title`` on top, the one-sentence ``takeaway`` under it, the
    ``caption`` (how to read the page) at the bottom. ``body`` is the free area between them
    as (left, bottom, right, top) figure fractions."""

    # The table the page shows or draws, for ``--tables`` (a CSV beside the PDF); None if none.
    table: pl.DataFrame | None = None

    def __init__(self, title: str, takeaway: str, caption: str = "") -> None:
        super().__init__(figsize=PAGE_SIZE)
        width, height = PAGE_SIZE
        layout = _layout(title, takeaway, caption)
        self.title = title
        self.takeaway = takeaway
        self.suptitle(
            literal("\n".join(layout["title"])),
            y=layout["title_top"] / height,
            va="top",
            fontsize=TITLE_SIZE,
            fontweight="bold",
        )
        self.text(
            0.5,
            layout["takeaway_top"] / height,
            literal("\n".join(layout["takeaway"])),
            ha="center",
            va="top",
            fontsize=TAKEAWAY_SIZE,
            color=DARK,
            gid="takeaway",
        )
        if caption:
            self.text(
                MARGIN / width,
                layout["caption_bottom"] / height,
                literal("\n".join(layout["caption"])),
                ha="left",
                va="bottom",
                fontsize=CAPTION_SIZE,
                gid="caption",
            )
        self.body = layout["body"]

    def body_inches(self) -> tuple[float, float]:
        """Width and height of the body in inches."""
        left, bottom, right, top = self.body
        return (right - left) * PAGE_SIZE[0], (top - bottom) * PAGE_SIZE[1]

    def axes_in_body(
        self,
        left: float = 0.0,
        right: float = 0.0,
        bottom: float = 0.0,
        top: float = 0.0,
    ) -> Axes:
        """One plot area filling the body, less margins given in inches (room for tick labels
        on the left, annotations or a legend on the right, axis labels below)."""
        body_left, body_bottom, body_right, body_top = self.body
        width, height = PAGE_SIZE
        return self.add_axes(
            (
                body_left + left / width,
                body_bottom + bottom / height,
                body_right - body_left - (left + right) / width,
                body_top - body_bottom - (top + bottom) / height,
            )
        )

    def panel_grid(
        self,
        panels: int,
        columns: int,
        left: float = 0.7,
        right: float = 0.0,
        bottom: float = 0.5,
        hspace: float = 0.55,
        wspace: float = 0.3,
        sharey: bool = True,
    ) -> list[Axes]:
        """``panels`` small multiples in a grid of ``columns`` columns inside the body (margins
        in inches), sharing the y axis when ``sharey``; unused grid cells stay empty."""
        rows = math.ceil(panels / columns)
        body_left, body_bottom, body_right, body_top = self.body
        width, height = PAGE_SIZE
        grid = self.add_gridspec(
            rows,
            columns,
            left=body_left + left / width,
            right=body_right - right / width,
            bottom=body_bottom + bottom / height,
            top=body_top - 0.25 / height,  # room for the first row's panel titles
            hspace=hspace,
            wspace=wspace,
        )
        axes: list[Axes] = []
        for k in range(panels):
            share = axes[0] if sharey and axes else None
            axes.append(self.add_subplot(grid[k // columns, k % columns], sharey=share))
        return axes


def legend(target: Figure | Axes, handles: list, labels: list[str], **options) -> None:
    """A legend of at most ``MAX_LEGEND_ENTRIES`` entries (more is a page to redesign, not a
    legend to shrink); its labels and title are raw text, printed literally."""
    if len(labels) > MAX_LEGEND_ENTRIES:
        raise ValueError(f"a legend of {len(labels)} entries; at most {MAX_LEGEND_ENTRIES}")
    options.setdefault("fontsize", TEXT_SIZE)
    options.setdefault("frameon", False)
    if "title" in options:
        options["title"] = literal(options["title"])
    target.legend(handles, [literal(text) for text in labels], **options)


def percent(value: float | None, digits: int = 1) -> str:
    """A rate as a percentage, ``n/a`` when missing."""
    if value is None or math.isnan(value):
        return "n/a"
    return f"{100 * value:.{digits}f}%"


def points(value: float | None, digits: int = 1, sign: bool = True) -> str:
    """A difference of rates in percentage points: ``+2.1``."""
    if value is None or math.isnan(value):
        return "n/a"
    return f"{100 * value:{'+' if sign else ''}.{digits}f}"


def cell_text(value: Any) -> str:
    """A table cell: floats to four significant digits, missing values as a dash."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.4g}"
    return str(value)


TABLE_WIDTH_IN = PAGE_SIZE[0] - 2 * MARGIN


def _column_widths(
    header: Sequence[str], rows: list[list[str]], size: float, widest: Sequence[float] | None
) -> list[float]:
    """Inches per column: each column as wide as its widest cell, then the widest columns
    narrowed (their text wraps) until the table fits the page."""
    pad = 0.16
    columns = list(zip(header, *rows, strict=True))
    natural = [
        pad + max(text_width(text, size, bold=(r == 0)) for r, text in enumerate(column)) / 72
        for column in columns
    ]
    # No column narrower than its longest word, so that words are never cut.
    words = [
        pad
        + max(text_width(word, size, bold=True) for text in column for word in text.split()) / 72
        if any(text.strip() for text in column)
        else pad
        for column in columns
    ]
    caps = widest or [TABLE_WIDTH_IN] * len(header)
    widths = [min(w, max(cap, least)) for w, cap, least in zip(natural, caps, words, strict=True)]
    while sum(widths) > TABLE_WIDTH_IN:
        k = widths.index(max(widths))
        widths[k] -= min(0.1, sum(widths) - TABLE_WIDTH_IN)
    return widths


LEAD_SIZE = 11.0
FLOW_GAP = 0.4  # inches between the two columns of a narrow table


def table_pages(
    table: pl.DataFrame,
    title: str,
    takeaway: str,
    caption: str,
    size: float = TEXT_SIZE,
    widest: Sequence[float] | None = None,
    lead: str = "",
) -> list[ReportPage]:
    """A DataFrame as one or more pages of a ruled table at ``size`` points: cells wrap within
    their column, rows never split, and the rows that do not fit continue on a new page with
    the header repeated. ``widest`` caps the columns' widths in inches; ``lead`` is a paragraph
    printed above the table on the first page (a study's question)."""
    header = [str(name) for name in table.columns]
    rows = [[cell_text(value) for value in row] for row in table.iter_rows()]
    widths = _column_widths(header, rows, size, widest)

    def wrapped(cells: list[str], bold: bool = False) -> list[list[str]]:
        return [wrap(text, w - 0.16, size, bold) for text, w in zip(cells, widths, strict=True)]

    head = wrapped(header, bold=True)
    body = [wrapped(row) for row in rows]
    lead_lines = wrap(lead, TABLE_WIDTH_IN, LEAD_SIZE) if lead else []
    lead_height = height_of(len(lead_lines), LEAD_SIZE) + 0.2 if lead else 0.0
    line = height_of(1, size)
    room = body_height(title + " (1 of 9)", takeaway, caption) - line * max(map(len, head)) - 0.1
    # A narrow table flows into two columns side by side, like a newspaper's.
    flows = 2 if sum(widths) <= (TABLE_WIDTH_IN - FLOW_GAP) / 2 else 1
    columns: list[list[list[list[str]]]] = [[]]
    used = lead_height
    for row in body:
        need = line * max(map(len, row)) + 0.06
        if columns[-1] and used + need > room:
            columns.append([])
            used = lead_height if len(columns) <= flows else 0.0
        columns[-1].append(row)
        used += need
    chunks = [columns[k : k + flows] for k in range(0, len(columns), flows)]
    pages: list[ReportPage] = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        page = ReportPage(title + of, takeaway, caption)
        top = page.body[3] * PAGE_SIZE[1]
        if number == 0 and lead:
            page.text(
                page.body[0],
                page.body[3],
                literal("\n".join(lead_lines)),
                va="top",
                ha="left",
                fontsize=LEAD_SIZE,
            )
            top -= lead_height
        for flow, column in enumerate(chunk):
            left = page.body[0] * PAGE_SIZE[0] + flow * (TABLE_WIDTH_IN + FLOW_GAP) / 2
            _draw_table(page, head, column, widths, size, left, top)
        pages.append(page)
    pages[0].table = table
    return pages


def _draw_table(
    page: ReportPage,
    head: list[list[str]],
    rows: list[list[list[str]]],
    widths: list[float],
    size: float,
    left: float,
    top: float,
) -> None:
    """Rows of wrapped cells as text on the page from (``left``, ``top``) (inches) down, a rule
    under the header and between rows."""
    width, height = PAGE_SIZE
    x_edges = [left]
    for w in widths:
        x_edges.append(x_edges[-1] + w)
    y = top
    line = height_of(1, size)
    ascent = 0.8 * size / 72
    for r, row in enumerate([head, *rows]):
        lines = max(map(len, row))
        for cell, x in zip(row, x_edges, strict=False):
            for k, text in enumerate(cell):  # line by line, on common baselines
                page.text(
                    (x + 0.08) / width,
                    (y - 0.03 - ascent - k * line) / height,
                    literal(text),
                    va="baseline",
                    ha="left",
                    fontsize=size,
                    fontweight="bold" if r == 0 else "normal",
                )
        y -= line * lines + (0.1 if r == 0 else 0.06)
        page.add_artist(
            _rule(x_edges[0] / width, x_edges[-1] / width, (y + 0.01) / height, r == 0, page)
        )


def _rule(x0: float, x1: float, y: float, strong: bool, page: Figure):
    from matplotlib.lines import Line2D

    return Line2D(
        [x0, x1],
        [y, y],
        transform=page.transFigure,
        color="black" if strong else "#cccccc",
        linewidth=0.9 if strong else 0.5,
    )


MONO_SIZE = 8.5


def text_pages(title: str, takeaway: str, text: str, caption: str = "") -> list[ReportPage]:
    """A long plain text (a study file) as pages of monospaced lines, long lines wrapped with
    an indent, nothing shrunk."""
    width_chars = 140
    lines = [
        part
        for raw in text.rstrip("\n").split("\n")
        for part in (textwrap.wrap(raw, width_chars, subsequent_indent="    ") or [""])
    ]
    room = body_height(title + " (1 of 9)", takeaway, caption)
    per_page = max(1, int(room / height_of(1, MONO_SIZE)) - 1)
    chunks = [lines[k : k + per_page] for k in range(0, len(lines), per_page)] or [[]]
    pages = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        page = ReportPage(title + of, takeaway, caption)
        left, _, _, top = page.body
        page.text(
            left,
            top,
            literal("\n".join(chunk)),
            va="top",
            ha="left",
            family="monospace",
            fontsize=MONO_SIZE,
            linespacing=1.2,
        )
        pages.append(page)
    return pages
