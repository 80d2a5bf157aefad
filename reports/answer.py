"""The first pages of a study report: the question, the answer with its 95% interval, how robust
it is across opponent settings, and the assumptions it rests on (analyses/answers.py); then the
answer per setting as a forest when there is more than one."""

import polars as pl

from analyses.answers import answers, headline, robustness
from analyses.study import StudyDir
from reports.toolkit import (
    GREY,
    TABLE_WIDTH_IN,
    TEXT_SIZE,
    ReportPage,
    height_of,
    label,
    literal,
    wrap,
)

LEAD_SIZE = 10.5
ROW_INCHES = 0.34  # a forest row: room for a label of two lines
LABEL_WIDTH = 3.6


def answer_pages(study: StudyDir) -> list[ReportPage]:
    """The answer page (question, headline, robustness lines, assumptions, and the answer per
    opponent setting as a forest when it fits below them), then the forest on pages of its own
    when it does not."""
    info = study.info
    rows = answers(study)
    if rows.is_empty():
        takeaway = "This study declares no [answer]: its findings are the pages that follow."
    else:
        takeaway = headline(study, rows)
    page = ReportPage(f"Answer: {info['title']}", takeaway, CAPTION)
    lines = [f"Question: {info.get('question') or '(the study file states none)'}", ""]
    for key, line in robustness(rows).iter_rows() if not rows.is_empty() else ():
        lines.append(f"Robustness{f' ({key})' if key else ''}: {line}.")
    assumptions = info.get("assumptions") or ["(the study file states none)"]
    lines += ["", "Assumptions:", *(f"– {text}" for text in assumptions)]
    wrapped = [part for line in lines for part in (wrap(line, TABLE_WIDTH_IN, LEAD_SIZE) or [""])]
    room = int(page.body_inches()[1] / height_of(1, LEAD_SIZE))
    if len(wrapped) > room:  # many settings: the forest pages that follow show every one
        wrapped = [*wrapped[: room - 1], "… (continued: every setting is on the following pages)"]
    left, _, _, top = page.body
    page.text(left, top, literal("\n".join(wrapped)), va="top", ha="left", fontsize=LEAD_SIZE)
    if rows.is_empty():
        return [page]
    free = page.body_inches()[1] - height_of(len(wrapped), LEAD_SIZE) - 0.3
    if FOREST_MARGIN + ROW_INCHES * max(rows.height, MIN_ROWS) <= free:
        _forest(page, rows, height=FOREST_MARGIN + ROW_INCHES * max(rows.height, MIN_ROWS))
        return [page]
    return [page, *_forest_pages(study, rows, takeaway)]


CAPTION = (
    "The answer is the study's [answer]: the focal's paired win-rate difference between two arms, "
    "or its win rate minus the fair share, on the same games (common random numbers), with its "
    "95% interval. A robustness line says whether it survives a change of opponents; there is "
    "one per other setting of the cells (sweep point, player count). In the forest, each line is "
    "the answer against one opponent setting (and setting of the cells); the dashed line is 0."
)
FOREST_MARGIN = 0.6  # inches under the forest's rows: its axis and label
MIN_ROWS = 3


def _row_label(row: dict) -> str:
    return ", ".join(filter(None, [row["opponents"], row["key"]]))


def _forest(page: ReportPage, rows: pl.DataFrame, height: float | None = None) -> None:
    """The answer per row, with its interval, in the bottom ``height`` inches of the body (all
    of it by default)."""
    body_height = page.body_inches()[1]
    top = 0.0 if height is None else body_height - height
    ax = page.axes_in_body(left=LABEL_WIDTH + 0.2, right=0.6, bottom=0.5, top=top)
    for y, row in enumerate(rows.iter_rows(named=True)):
        ax.plot([row["ci_low"], row["ci_high"]], [y, y], linewidth=2, color="black")
        ax.plot([row["answer"]], [y], "o", markersize=5, color="black")
    ax.axvline(0, linestyle="--", color=GREY, linewidth=1)
    labels = [label(_row_label(row), LABEL_WIDTH) for row in rows.iter_rows(named=True)]
    ax.set_yticks(range(rows.height), labels, fontsize=TEXT_SIZE)
    ax.set_ylim(max(rows.height, MIN_ROWS) - 0.5, -0.5)
    limit = 1.1 * max(abs(rows["ci_low"].min()), abs(rows["ci_high"].max()), 1e-3)
    ax.set_xlim(-limit, limit)
    ax.xaxis.set_major_formatter(lambda value, _: f"{100 * value:+.3g}" if value else "0")
    ax.tick_params(axis="x", labelsize=TEXT_SIZE)
    ax.set_xlabel("answer, points (95% CI)", fontsize=TEXT_SIZE)
    ax.grid(True, axis="y", alpha=0.25)


def _forest_pages(study: StudyDir, rows: pl.DataFrame, takeaway: str) -> list[ReportPage]:
    title = f"Answer per opponent setting: {study.info['title']}"
    probe = ReportPage(title + " (1 of 9)", takeaway, CAPTION)
    per_page = max(MIN_ROWS, int((probe.body_inches()[1] - FOREST_MARGIN) / ROW_INCHES))
    chunks = [rows.slice(k, per_page) for k in range(0, rows.height, per_page)]
    pages = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        page = ReportPage(title + of, takeaway, CAPTION)
        _forest(page, chunk)
        pages.append(page)
    return pages
