"""The legibility contract of a report page, checked with matplotlib's own text extents.

A page passes when, printed on A4: no text overlaps another text, no text runs off the page, no
legend has more than ``MAX_LEGEND_ENTRIES`` entries and no text is smaller than
``MIN_FONT_POINTS``. Every page of every report (run, study, compare, and the reports to come)
must pass; ``docs/reports.md`` says how a new page meets the contract.

The check draws the page with the Agg renderer and records every Text artist that is drawn
(titles, captions, axis and tick labels, legend and table texts alike), so a tick label outside
the view limits, which matplotlib does not draw, is not counted.
"""

from dataclasses import dataclass

from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.text import Text
from matplotlib.transforms import Bbox

A4_INCHES = (11.69, 8.27)  # landscape; a portrait page is checked the other way round
MIN_FONT_POINTS = 7.0
MAX_LEGEND_ENTRIES = 8
# Text extents include the font's ascent and descent: two lines that merely touch overlap by a
# fraction of a point. Anything beyond this is ink on ink.
OVERLAP_TOLERANCE_POINTS = 0.75


@dataclass(frozen=True)
class Problem:
    """One breach of the contract, with the text(s) involved, for a readable failure."""

    kind: str  # "overlap", "off page", "legend", "font size", "page size"
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def _quoted(text: Text) -> str:
    shown = " ".join(text.get_text().split())
    return repr(shown if len(shown) <= 50 else shown[:47] + "...")


def drawn_texts(fig: Figure) -> tuple[list[Text], RendererAgg]:
    """Draw ``fig`` once with Agg and return the visible, non-empty Text artists it drew, in
    drawing order, and the renderer (for their extents)."""
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
    page = Bbox.from_bounds(0, 0, width * fig.dpi, height * fig.dpi)
    extents = [text.get_window_extent(renderer) for text in texts]
    tolerance = OVERLAP_TOLERANCE_POINTS * fig.dpi / 72
    for text, box in zip(texts, extents, strict=True):
        if text.get_fontsize() < MIN_FONT_POINTS:
            problems.append(
                Problem("font size", f"{_quoted(text)} at {text.get_fontsize():.1f} pt")
            )
        inside = Bbox.intersection(box, page)
        clipped = (
            inside is None or max(box.width - inside.width, box.height - inside.height) > tolerance
        )
        if clipped:
            problems.append(Problem("off page", f"{_quoted(text)} at {box.bounds}"))
    for i, first in enumerate(extents):
        for j in range(i + 1, len(extents)):
            both = Bbox.intersection(first, extents[j])
            if both is not None and both.width > tolerance and both.height > tolerance:
                problems.append(Problem("overlap", f"{_quoted(texts[i])} and {_quoted(texts[j])}"))
    for legend in _legends(fig):
        entries = len(legend.get_texts())
        if entries > MAX_LEGEND_ENTRIES:
            problems.append(Problem("legend", f"{entries} entries (at most {MAX_LEGEND_ENTRIES})"))
    return problems
