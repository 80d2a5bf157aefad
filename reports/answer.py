"""The first page of a study report: the question, the answer with its 95% interval, how robust
it is across opponent settings, and the assumptions it rests on (analyses/answers.py)."""

import textwrap

import numpy as np
from matplotlib.figure import Figure

from analyses.answers import answers, headline, robustness
from analyses.study import StudyDir
from reports.figures import page

MAX_ROWS = 16


def answer_figure(study: StudyDir) -> Figure:
    """Question, headline, robustness lines, assumptions; a forest of the answer per setting."""
    info = study.info
    rows = answers(study)
    fig = page(
        f"Answer: {info['title']}",
        "The answer is the study's [answer]: the focal's paired win-rate difference between two "
        "arms, or its win rate minus the fair share, on the same games (common random "
        "numbers), with its 95% interval. The robustness line says whether it survives a change "
        "of opponents: one line per other setting of the cells (sweep point, player count).",
    )
    lines = [f"Question: {info.get('question') or '(the study file states none)'}", ""]
    if rows.is_empty():
        lines.append("This study declares no [answer]: see the pages that follow.")
    else:
        lines.append(f"Answer: {headline(study, rows)}")
        for key, line in robustness(rows).iter_rows():
            lines.append(f"Robustness{f' ({key})' if key else ''}: {line}.")
    assumptions = info.get("assumptions") or ["(the study file states none)"]
    lines += ["", "Assumptions:", *(f"- {text}" for text in assumptions)]
    text = "\n".join(textwrap.fill(line, 120, subsequent_indent="  ") for line in lines)
    fig.text(0.05, 0.9, text, fontsize=9, va="top")
    if not rows.is_empty():
        shown = rows.head(MAX_ROWS)
        top = max(0.3, 0.86 - 0.022 * (text.count("\n") + 2))
        ax = fig.add_axes((0.35, 0.2, 0.4, top - 0.22))
        y = np.arange(shown.height)
        values = 100 * shown["answer"].to_numpy()
        ax.errorbar(values, y, fmt="o", color="black", capsize=3, xerr=[
            values - 100 * shown["ci_low"].to_numpy(), 100 * shown["ci_high"].to_numpy() - values,
        ])  # fmt: skip
        ax.axvline(0, linestyle="--", color="grey")
        labels = [", ".join(filter(None, [o, k])) for o, k in zip(
            shown["opponents"], shown["key"], strict=True)]  # fmt: skip
        ax.set_yticks(y, [textwrap.shorten(label, 60) for label in labels], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("answer, points (95% CI)")
    return fig
