"""The legibility contract of a report page, checked with matplotlib's own text extents.

A page passes when, printed on A4: no text overlaps another text, no text runs off the page, no
legend has more than ``MAX_LEGEND_ENTRIES`` entries, no text is smaller than
``MIN_FONT_POINTS``, and no text is typeset as mathtext (report text is data and words, so a
``$`` in it must print as a dollar sign). Every page of every report (run, study, compare, and
the reports to come) must pass; ``docs/reports.md`` says how a new page meets the contract.

The check draws the page with the Agg renderer and records every Text artist that is drawn
(titles, captions, axis and tick labels, legend and table texts alike), so a tick label outside
the view limits, which matplotlib does not draw, is not counted.
"""

from dataclasses import dataclass

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text

A4_INCHES = (11.69, 8.27)  # landscape; a portrait page is checked the other way round
MIN_FONT_POINTS = 7.0
MAX_LEGEND_ENTRIES = 8
# Text extents include the font's ascent and descent: two lines that merely touch overlap by a
# fraction of a point. Anything beyond this is ink on ink.
OVERLAP_TOLERANCE_POINTS = 0.75
CHECK_DPI = 100


@dataclass(frozen=True)
class Problem:
    """One breach of the contract, with the text(s) involved, for a readable failure."""

    kind: str  # "overlap", "off page", "legend", "font size", "mathtext", "page size"
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def _quoted(text: Text) -> str:
    shown = " ".join(text.get_text().split())
    return repr(shown if len(shown) <= 50 else shown[:47] + "...")


def drawn_texts(fig: Figure) -> tuple[list[Text], RendererAgg]:
    """Draw ``fig`` once with Agg and return the visible, non-empty Text artists it drew, in
    drawing order, and the renderer (for their extents)."""
    fig.set_dpi(CHECK_DPI)  # extents in pixels of a known size, whatever the figure's own dpi
    renderer = FigureCanvasAgg(fig).get_renderer()
    drawn: dict[int, Text] = {}
    draw = Text.draw

    # Text.draw is where every text (multi-line ones included) reaches a renderer; matplotlib
    # calls it only for what it really draws.
    def recording_draw(text: Text, target) -> None:
        if target is renderer and text.get_visible() and text.get_text().strip():
            drawn.setdefault(id(text), text)
        draw(text, target)

    Text.draw = recording_draw
    try:
        fig.draw(renderer)
    finally:
        Text.draw = draw
    return list(drawn.values()), renderer


def _legends(fig: Figure) -> list[Legend]:
    return [artist for artist in fig.findobj(Legend) if artist.get_visible()]


def check_page(fig: Figure) -> list[Problem]:
    """Every breach of the legibility contract on one page (an empty list if it passes)."""
    problems = []
    width, height = fig.get_size_inches()
    if sorted((round(width, 2), round(height, 2))) != sorted(A4_INCHES):
        problems.append(Problem("page size", f"{width:.2f} x {height:.2f} in, not A4"))
    texts, renderer = drawn_texts(fig)
    if not texts:
        return problems
    boxes = np.array([text.get_window_extent(renderer).extents for text in texts])  # x0 y0 x1 y1
    tolerance = OVERLAP_TOLERANCE_POINTS * fig.dpi / 72
    for text in texts:
        if text.get_fontsize() < MIN_FONT_POINTS:
            problems.append(
                Problem("font size", f"{_quoted(text)} at {text.get_fontsize():.1f} pt")
            )
        if text._preprocess_math(text.get_text())[1]:
            problems.append(Problem("mathtext", f"{_quoted(text)} would be typeset as math"))
    page = np.array([0.0, 0.0, width * fig.dpi, height * fig.dpi])
    outside = np.maximum(page[:2] - boxes[:, :2], 0).max(axis=1)
    outside = np.maximum(outside, np.maximum(boxes[:, 2:] - page[2:], 0).max(axis=1))
    for k in np.flatnonzero(outside > tolerance):
        problems.append(Problem("off page", f"{_quoted(texts[k])} by {outside[k]:.0f} px"))
    # Pairwise intersections of all extents at once: width and height of each overlap.
    across = np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(
        boxes[:, None, 0], boxes[None, :, 0]
    )
    up = np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(
        boxes[:, None, 1], boxes[None, :, 1]
    )
    for i, j in zip(
        *np.nonzero(np.triu((across > tolerance) & (up > tolerance), k=1)), strict=True
    ):
        problems.append(Problem("overlap", f"{_quoted(texts[i])} and {_quoted(texts[j])}"))
    for legend in _legends(fig):
        entries = len(legend.get_texts())
        if entries > MAX_LEGEND_ENTRIES:
            problems.append(Problem("legend", f"{entries} entries (at most {MAX_LEGEND_ENTRIES})"))
    return problems
