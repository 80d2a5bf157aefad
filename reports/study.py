"""The report of a study directory: what was asked and run, response curves as small multiples,
paired differences, matchups and ratings per pool of cells, stopping, and the study file.

Every page is a ``ReportPage`` (reports/toolkit.py) and meets the legibility contract: where a
study has more series than a plot can hold, the page is split into panels and pages rather than
given a longer legend.
"""

import itertools
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator, PercentFormatter

from analyses.length import game_length
from analyses.ratings import bradley_terry, pooled_matchups
from analyses.study import (
    Pool,
    StudyDir,
    category_table,
    cut_off_warnings,
    load_study_dir,
    paired_table,
    rating_pools,
    summary_table,
    varied_strategies,
)
from analyses.winrates import matchup_pivot
from reports import takeaways
from reports.answer import answer_pages
from reports.arcs import study_arc_pages
from reports.colors import Palette, seat_line
from reports.export import write_pages
from reports.paired import focal_color, focal_name, forest_pages, paired_table_pages
from reports.skill import CAPTION, SKILL_AXIS, TITLE, draw_skill_trace, table_legend
from reports.toolkit import (
    GREY,
    SMALL_SIZE,
    TEXT_SIZE,
    ReportPage,
    label,
    legend,
    literal,
    percent,
    table_pages,
    text_pages,
    wrap,
    wrap_label,
)
from simcore.registry import SEARCH
from simcore.workflows import storage
from simcore.workflows.study import swept_value

MAX_RATING_POOLS = 3
ARM_STYLES = ("--", "-", ":")  # the baseline (first) arm dashed, the arms it is compared with solid
STYLE_MARKERS = ("o", "s", "^")
MAX_STYLES = len(ARM_STYLES)
RESPONSE_PANELS = 8  # win-rate panels per page (4 columns)
STAT_PANELS = 15  # statistic panels per page (5 columns)
STAT_PANELS_ACROSS = 12  # when categories run down the panels (4 columns)
CATEGORY_LINES = 24  # category names a page's height holds down its panels, all rows together
UPRIGHT_CATEGORIES = 3  # a categorical x axis of more values prints them upright
CATEGORY_WIDTH = 1.6  # inches a category's name across the axis takes (wrapped at 1.5)
SLANTED_WIDTH = 1.3  # inches an upright category name may take
MATRIX_LABELS = 9  # a matchup matrix larger than this shows the top 8 and "others"
RATING_ROWS = 14  # two lines of label and of figures (0.33 in) a row, in a body of ~4.8 in
LABEL_LINES = 2  # a strategy label in a row of those pages and of the matchup matrix
CELL_ROWS = 16  # cells per page of an endings page
OTHERS = "others"
CATEGORY_PALETTE = ("#66c2a5", "#fc8d62", "#8da0cb", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494")


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def value_text(key: str, value: Any) -> str:
    """A swept value as a designer reads it: ``3 players``, ``flusher.flush_below=160``."""
    if key == "players":
        return f"{value} players"
    if key == "arm":
        return str(value)
    return f"{key}={swept_value(key, value)}"


@dataclass(frozen=True)
class View:
    """What every page of one study report shares."""

    study: StudyDir
    summary: pl.DataFrame
    palette: Palette

    @property
    def arms(self) -> list[str]:
        return self.study.arms

    def values(self, dim: str) -> list:
        """The values a dimension (a swept key, ``players`` or ``arm``) takes, in order."""
        if dim == "arm":
            return self.arms
        values = list(dict.fromkeys(self.summary[dim].to_list()))
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        return sorted(values) if numeric else values

    def dims(self) -> list[str]:
        """Everything that varies between cells: the swept keys, then the arm."""
        return [*self.study.axes, *(["arm"] if len(self.arms) > 1 else [])]

    def styled(self, dims: list[str]) -> str | None:
        """The dimension drawn as line style inside a panel: the arm when there are 2 or 3,
        else another dimension with 2 or 3 values, else none."""
        ranked = sorted(dims, key=lambda dim: dim != "arm")
        return next((d for d in ranked if 2 <= len(self.values(d)) <= MAX_STYLES), None)

    def describe(self, row: dict, dims: list[str]) -> str:
        """A series or cell in words: its strategy or seat, then its arm and swept values."""
        parts = [value_text(dim, row[dim]) for dim in dims if dim in row]
        name = str(row.get("label", row.get("name", ""))).replace("seat:", "seat ")
        return name + (f" ({', '.join(parts)})" if parts else "")


def _style_of(view: View, dim: str | None, value: Any) -> dict:
    """Line style and marker of one value of the styled dimension."""
    if dim is None:
        return {"linestyle": "-", "marker": "o"}
    k = view.values(dim).index(value)
    if dim == "arm":
        return {"linestyle": ARM_STYLES[min(k, 2)], "marker": STYLE_MARKERS[k]}
    return {"linestyle": ("-", "--", ":")[k], "marker": STYLE_MARKERS[k]}


def _combos(view: View, dims: list[str]) -> list[dict]:
    """Every combination of values of ``dims`` that some cell has, in order."""
    present = set(map(tuple, view.summary.select(dims).unique().rows())) if dims else {()}
    return [
        dict(zip(dims, combo, strict=True))
        for combo in itertools.product(*(view.values(dim) for dim in dims))
        if combo in present
    ]


def _where(rows: pl.DataFrame, combo: dict) -> pl.DataFrame:
    for key, value in combo.items():
        rows = rows.filter(pl.col(key) == value)
    return rows


def _names(view: View, rows: pl.DataFrame, kind: str) -> list[str]:
    """The strategies (palette order) or seats (in order) drawn on a page."""
    present = set(rows["name"])
    if kind == "seat":
        return sorted(present, key=lambda name: int(name.removeprefix("seat:")))
    return [name for name in view.palette.names if name in present]


def _line_props(view: View, name: str, kind: str, shown: list[str]) -> dict:
    if kind == "seat":
        return seat_line(int(name.removeprefix("seat:")))
    props = view.palette.line(name)
    return props if name in shown else {**props, "color": GREY}


def _legend_entries(view: View, names: list[str], kind: str) -> tuple[list[str], list[Line2D]]:
    """Colour legend of a page: each name, or the first 7 and "others" in grey beyond 8."""
    shown = names if len(names) <= 8 else names[:7]
    handles = [
        Line2D([], [], **{**_line_props(view, name, kind, shown), "marker": "o"}) for name in shown
    ]
    labels = [name.replace("seat:", "seat ") for name in shown]
    if len(shown) < len(names):
        handles.append(Line2D([], [], color=GREY, marker="o"))
        labels.append(OTHERS)
    return labels, handles


def _page_legends(page: ReportPage, view: View, names: list[str], kind: str, style: str | None):
    """The colour legend (strategies or seats) and the style legend (arms or values) in the
    right margin of the page."""
    labels, handles = _legend_entries(view, names, kind)
    top = page.body[3]
    legend(
        page,
        handles,
        labels,
        loc="upper right",
        bbox_to_anchor=(page.body[2], top),
        title="seat" if kind == "seat" else "strategy",
        title_fontsize=TEXT_SIZE,
    )
    if style is not None:
        values = view.values(style)
        style_handles = [
            Line2D([], [], color="black", **_style_of(view, style, value)) for value in values
        ]
        legend(
            page,
            style_handles,
            [wrap_label(value_text(style, value), 1.4) for value in values],
            loc="upper right",
            bbox_to_anchor=(page.body[2], top - 0.36),
            title="arm" if style == "arm" else style,
            title_fontsize=TEXT_SIZE,
        )


def _x_axis(view: View, x: str) -> tuple[dict, bool]:
    """Positions of the values of ``x`` and whether they are numbers (else categories)."""
    values = view.values(x)
    numeric = x != "arm" and all(isinstance(v, int | float) for v in values)
    return ({v: v for v in values} if numeric else {v: k for k, v in enumerate(values)}), numeric


def _draw_lines(
    ax: Axes,
    view: View,
    rows: pl.DataFrame,
    x: str,
    value: str,
    kind: str,
    style: str | None,
    shown: list[str],
    with_ci: bool,
    across: bool = False,
    upright: bool | None = None,
) -> None:
    """One line per name and styled value: ``value`` against ``x`` (or, ``across``, the
    categories of ``x`` down the panel and the value along it, dodged by style)."""
    positions, numeric = _x_axis(view, x)
    style_values = view.values(style) if style else [None]
    series = [style] if style else []
    for key, line in rows.group_by(["name", *series], maintain_order=True):
        name, style_value = key[0], (key[1] if style else None)
        line = line.filter(pl.col(value).is_not_null()).sort(
            pl.col(x).replace_strict(positions, default=None)
        )
        if line.is_empty():
            continue
        where = np.array([positions[v] for v in line[x]], dtype=float)
        estimate = line[value].to_numpy().astype(float)
        props = {**_line_props(view, name, kind, shown), **_style_of(view, style, style_value)}
        if across:
            dodge = (style_values.index(style_value) - (len(style_values) - 1) / 2) * 0.18
            props.pop("linestyle")
            ax.plot(estimate, where + dodge, linestyle="none", markersize=4, **props)
            continue
        error = None
        if with_ci:
            error = [estimate - line["ci_low"].to_numpy(), line["ci_high"].to_numpy() - estimate]
        ax.errorbar(where, estimate, yerr=error, capsize=2, markersize=3.5, **props)
    if not numeric:
        ticks = list(positions.values())
        names = [label(v, 1.5, SMALL_SIZE) for v in positions]
        if across:
            ax.set_yticks(ticks, names, fontsize=SMALL_SIZE)
            ax.set_ylim(len(ticks) - 0.5, -0.5)
        elif len(ticks) > UPRIGHT_CATEGORIES if upright is None else upright:  # never overlapping
            names = [label(v, SLANTED_WIDTH, SMALL_SIZE) for v in positions]
            ax.set_xticks(ticks, names, fontsize=SMALL_SIZE, rotation=90)
        else:
            ax.set_xticks(ticks, names, fontsize=SMALL_SIZE)
    elif len(positions) <= 6:
        ax.set_xticks(list(positions), [_number(v) for v in positions])
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
    if across:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=3))


def _panel_title(ax: Axes, combo: dict, width: float) -> None:
    text = ", ".join(value_text(key, value) for key, value in combo.items()) or "all cells"
    ax.set_title(literal("\n".join(wrap(text, width, TEXT_SIZE))), fontsize=TEXT_SIZE)


def response_pages(view: View, axis: str, kind: str) -> list[ReportPage]:
    """Win rate (± 95% CI) against one swept key: one line per strategy (or seat) in its colour,
    the arms as line styles when 2 or 3, one panel per combination of the other swept values
    (and arm, beyond 3), ``RESPONSE_PANELS`` a page."""
    what = "strategy" if kind == "strategy" else "seat"
    rows = view.summary.filter(pl.col("kind") == kind)
    others = [dim for dim in view.dims() if dim != axis]
    style = view.styled(others)
    panels = [dim for dim in others if dim != style]
    combos = _combos(view, panels)
    chunks = [combos[k : k + RESPONSE_PANELS] for k in range(0, len(combos), RESPONSE_PANELS)]
    pages = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        shown_rows = pl.concat([_where(rows, combo) for combo in chunk])
        series = ["arm", "name", *(d for d in others if d != "arm")]
        if kind == "strategy":
            takeaway = takeaways.response(
                shown_rows, axis, series, lambda row: view.describe(row, others)
            )
        else:
            takeaway = takeaways.first_seat(
                shown_rows, lambda row: view.describe(row, [axis, *others])
            )
        page = ReportPage(
            f"Win rate by {what} against {axis}{of}",
            takeaway,
            f"Each line follows one {what} as {axis} changes; points are win rates, whiskers "
            "their 95% Wilson confidence intervals. Where whiskers of neighbouring points do not "
            f"overlap, changing {axis} really moved that {what}'s chances. The dotted grey line "
            "is the fair share, 1 / players."
            + (f" Line styles: {style}." if style else "")
            + (" Panels: " + ", ".join(panels) + "." if panels else "")
            + (" Each strategy keeps its colour on every page." if kind == "strategy" else ""),
        )
        columns = math.ceil(len(chunk) / math.ceil(len(chunk) / 4))  # balanced rows
        # Names upright when there are many categories or too little room for each across.
        room = (page.body_inches()[0] - 0.75 - 1.9) / columns / len(view.values(axis))
        categories = len(view.values(axis)) > UPRIGHT_CATEGORIES or room < CATEGORY_WIDTH
        upright = not _x_axis(view, axis)[1] and categories
        axes = page.panel_grid(
            len(chunk), columns, left=0.75, right=1.9, bottom=SLANTED_WIDTH + 0.5 if upright else
            0.45, hspace=1.6 if upright else 0.55,
        )  # fmt: skip
        names = _names(view, shown_rows, kind)
        shown = names if len(names) <= 8 else names[:7]
        for ax, combo in zip(axes, chunk, strict=True):
            panel = _where(rows, combo)
            _draw_lines(ax, view, panel, axis, "win_rate", kind, style, shown, True, False, upright)
            _fair_share(ax, panel, axis)
            if panels:
                _panel_title(ax, combo, 9.5 / columns)
            ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
            ax.tick_params(labelsize=TEXT_SIZE)
            ax.set_xlabel(literal(axis), fontsize=TEXT_SIZE)
            ax.grid(True, alpha=0.3)
        axes[0].set_ylabel("win rate (95% CI)", fontsize=TEXT_SIZE)
        for k, ax in enumerate(axes):
            if k % columns:
                ax.tick_params(labelleft=False)
        _page_legends(page, view, names, kind, style)
        pages.append(page)
    return pages


def skill_trace_pages(view: View) -> list[ReportPage]:
    """The skill trace (reports/skill.py): one panel per combination of the other swept values,
    arms and opponent settings; none unless the study sweeps ``ismcts.iterations``."""
    if SKILL_AXIS not in view.study.axes:
        return []
    rows = view.summary.filter((pl.col("kind") == "strategy") & (pl.col("name") == SEARCH))
    panels = [dim for dim in view.dims() if dim not in (SKILL_AXIS, "players")]
    combos = _combos(view, panels)
    tables = sorted(set(rows["players"]))
    chunks = [combos[k : k + RESPONSE_PANELS] for k in range(0, len(combos), RESPONSE_PANELS)]
    pages = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        page = ReportPage(
            TITLE + of,
            takeaways.skill_trace(_where(rows, chunk[0]), SKILL_AXIS),
            CAPTION + (" Panels: " + ", ".join(panels) + "." if panels else ""),
        )
        columns = math.ceil(len(chunk) / math.ceil(len(chunk) / 4))
        axes = page.panel_grid(len(chunk), columns, left=0.75, right=1.9)
        for ax, combo in zip(axes, chunk, strict=True):
            draw_skill_trace(ax, _where(rows, combo), tables)
            if panels:
                _panel_title(ax, combo, 9.5 / columns)
        axes[0].set_ylabel("win rate (95% CI)", fontsize=TEXT_SIZE)
        table_legend(page, tables)
        pages.append(page)
    return pages


def _fair_share(ax: Axes, rows: pl.DataFrame, axis: str) -> None:
    """The fair share 1/players of a panel as a dotted grey line (a curve against players)."""
    tables = sorted(set(rows["players"]))
    style = {"color": GREY, "linestyle": ":", "linewidth": 1.3, "zorder": 1}
    if axis == "players":
        ax.plot(tables, [1 / n for n in tables], **style)
    elif len(tables) == 1:
        ax.axhline(1 / tables[0], **style)


def _stat_plan(view: View) -> tuple[str, str | None, list[str]] | None:
    """(x, styled dimension, page dimensions) of the statistics pages: the study's last swept
    key or the arm along x, whichever needs the fewest pages."""
    dims = view.dims()
    candidates = [dim for dim in (view.study.axes[-1:] + ["arm"]) if dim in dims]
    best = None
    for x in dict.fromkeys(candidates):
        rest = [dim for dim in dims if dim != x]
        style = view.styled(rest)
        pages = [dim for dim in rest if dim != style]
        count = len(_combos(view, pages))
        if best is None or count < best[0]:
            best = (count, (x, style, pages))
    return None if best is None else best[1]


def stat_pages(view: View) -> list[ReportPage]:
    """Each per-seat statistic the game records (its mean per seat and game), one small panel
    per statistic, one line per strategy, against the plan's x (``_stat_plan``)."""
    stats = [c for c in view.summary.columns if c.startswith("mean_")]
    plan = _stat_plan(view)
    if not stats or plan is None:
        return []
    x, style, page_dims = plan
    across = not _x_axis(view, x)[1]  # categories (arms, opponent settings) run down the panels
    columns = 4 if across else 5
    per_page = STAT_PANELS
    if across:  # rows of panels as far as their categories stay legible one above the other
        panel_rows = STAT_PANELS_ACROSS // columns
        per_page = columns * max(1, min(panel_rows, CATEGORY_LINES // len(view.values(x))))
    rows = view.summary.filter(pl.col("kind") == "strategy")
    series = ["name", *(dim for dim in view.dims() if dim != x)]
    pages = []
    for combo in _combos(view, page_dims):
        part = _where(rows, combo)
        where = ", ".join(value_text(k, v) for k, v in combo.items())
        names = _names(view, part, "strategy")
        shown = names if len(names) <= 8 else names[:7]
        stat_chunks = [stats[k : k + per_page] for k in range(0, len(stats), per_page)]
        for number, chunk in enumerate(stat_chunks):
            of = f" ({number + 1} of {len(stat_chunks)})" if len(stat_chunks) > 1 else ""
            heading = f"by {x}" if across else f"against {x}"
            page = ReportPage(
                f"What strategies do, {heading}" + (f" ({where})" if where else "") + of,
                takeaways.stat_response(
                    part, x, series, chunk, lambda row: view.describe(row, series[1:])
                ),
                "One panel per statistic the game records for each seat (its mean per game); "
                + (
                    f"each {'arm' if x == 'arm' else x + ' setting'} is a row, each strategy a "
                    "colour"
                    if across
                    else f"each line follows one strategy as {x} changes"
                )
                + (f", {style} as {'marker' if across else 'line style'}" if style else "")
                + ". These explain the win rates: how often a move is made, what it costs, "
                "what it brings.",
            )
            axes = page.panel_grid(
                len(chunk),
                columns,
                left=1.5 if across else 0.45,
                right=1.9,
                bottom=0.35,
                hspace=0.75,
                wspace=0.35 if not across else 0.15,
                sharey=across,
            )
            for ax, stat in zip(axes, chunk, strict=True):
                _draw_lines(ax, view, part, x, stat, "strategy", style, shown, False, across)
                name = stat.removeprefix("mean_")
                ax.set_title(literal("\n".join(wrap(name, 1.7, TEXT_SIZE))), fontsize=TEXT_SIZE)
                ax.tick_params(labelsize=SMALL_SIZE)
                ax.grid(True, alpha=0.3)
                if across and axes.index(ax) % columns:
                    ax.tick_params(labelleft=False)
            _page_legends(page, view, names, "strategy", style)
            pages.append(page)
    return pages


def category_pages(view: View, table: pl.DataFrame) -> list[ReportPage]:
    """``study.category_table`` rows of one column: a stacked bar of value shares per cell,
    ``CELL_ROWS`` cells a page."""
    doc = table["doc"][0]
    heading, _, detail = doc.partition(": ")
    cells = list(dict.fromkeys(table["cell"]))
    by_cell = {cell.id: cell for cell in view.study.cells}
    values = list(dict.fromkeys(table.sort("games", descending=True)["value"]))
    shown = values if len(values) <= 8 else values[:7]
    chunks = [cells[k : k + CELL_ROWS] for k in range(0, len(cells), CELL_ROWS)]
    pages = []
    dims = view.dims()
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        part = table.filter(pl.col("cell").is_in(chunk))
        page = ReportPage(
            f"{heading[:1].upper() + heading[1:]}, cell by cell{of}",
            takeaways.category_cells(part),
            "Each bar is one cell of the study, split into the share of its games that ended with "
            "each value (printed when at least 5%). Compare bars to see how the settings change "
            "how games end." + (f" Values: {detail}." if detail else ""),
        )
        ax = page.axes_in_body(left=3.2, right=1.9, bottom=0.45)
        left = np.zeros(len(chunk))
        for k, value in enumerate([*shown, *([OTHERS] if len(shown) < len(values) else [])]):
            members = [value] if value != OTHERS else values[len(shown) :]
            rows = part.filter(pl.col("value").is_in(members)).group_by("cell").agg(pl.sum("share"))
            share_of = dict(zip(rows["cell"], rows["share"], strict=True))
            shares = np.array([share_of.get(cell, 0.0) for cell in chunk])
            color = GREY if value == OTHERS else CATEGORY_PALETTE[k % len(CATEGORY_PALETTE)]
            ax.barh(range(len(chunk)), shares, left=left, color=color, height=0.7, label=value)
            for row, (start, share) in enumerate(zip(left, shares, strict=True)):
                if share >= 0.05:
                    ax.text(
                        start + share / 2,
                        row,
                        f"{100 * share:.0f}%",
                        ha="center",
                        va="center",
                        fontsize=SMALL_SIZE,
                    )
            left += shares
        names = [
            label(", ".join(value_text(d, _cell_value(by_cell[cell], d)) for d in dims), 3.0)
            for cell in chunk
        ]
        ax.set_yticks(range(len(chunk)), names, fontsize=SMALL_SIZE)
        ax.set_ylim(len(chunk) - 0.5, -0.5)
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.tick_params(axis="x", labelsize=TEXT_SIZE)
        ax.set_xlabel("share of the cell's games")
        handles, labels = ax.get_legend_handles_labels()
        legend(ax, handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0))
        pages.append(page)
    return pages


def _cell_value(cell, dim: str) -> Any:
    return cell.arm if dim == "arm" else cell.values[dim]


def _group_text(group: str) -> str:
    """``players=3, key=160.0`` as the report writes cells: ``3 players, key=160``."""
    parts = [part.partition("=") for part in group.split(", ")] if group else []
    return ", ".join(value_text(key, _parsed(value)) for key, _, value in parts)


def _parsed(text: str) -> Any:
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        return text


def paired_pages(view: View, paired: pl.DataFrame) -> list[ReportPage]:
    baseline = " or ".join(dict.fromkeys(paired["baseline"]))  # search arms: their own
    arms = list(dict.fromkeys(paired["arm"]))
    one_arm = len(arms) == 1

    def comparison(row: dict) -> str:
        """A row's label: the arm against the baseline (when several are) and its cells."""
        parts = ([] if one_arm else [f"{row['arm']} − {row['baseline']}"]) + (
            [_group_text(row["group"])] if row["group"] else []
        )
        return ", ".join(parts) or f"{row['arm']} − {row['baseline']}"

    caption = (
        f"Each row is {'the arm ' + arms[0] if one_arm else 'an arm'}'s win rate minus the "
        f"baseline arm's ({baseline}) for one strategy or seat, on the same games (common "
        "random numbers), with its 95% interval, in percentage points. Rows whose interval "
        "misses the dashed zero line are real differences."
    )

    def describe(row: dict) -> str:
        return f"{focal_name(row['focal'])} ({comparison(row)})"

    title = f"Paired differences: {arms[0]} − {baseline}" if one_arm else "Paired differences"
    return [
        *forest_pages(
            paired,
            row_label=comparison,
            panel_label=lambda row: focal_name(row["focal"]),
            color_of=lambda row: focal_color(row["focal"], view.palette),
            describe=describe,
            title=title,
            caption=caption,
        ),
        *paired_table_pages(
            paired,
            comparison,
            describe,
            f"{title}, the numbers",
            caption + " A is the arm, B the baseline; the variance reduction is how many times "
            "more games an unpaired comparison would need for the same precision.",
        ),
    ]


def matchup_page(view: View, pool: Pool, ratings: pl.DataFrame) -> ReportPage:
    """Pooled head-to-head win rates of one pool as a heatmap, strategies in rating order; a
    pool of more than ``MATRIX_LABELS`` labels shows the 8 best rated and "others" together."""
    players = pool.runs[0].players
    order = ratings["strategy"].to_list()
    groups = None
    if len(order) > MATRIX_LABELS:
        groups = {name: OTHERS for name in order[MATRIX_LABELS - 1 :]}
        order = [*order[: MATRIX_LABELS - 1], OTHERS]
    matchups = pooled_matchups(pool.runs, groups)
    wide = matchup_pivot(matchups)
    labels = [name for name in order if name in wide["strategy"].to_list()]
    rates = wide.select("strategy", *labels)
    index = {name: k for k, name in enumerate(rates["strategy"])}
    rates = rates[[index[name] for name in labels]].drop("strategy").to_numpy().astype(float)
    games_wide = matchup_pivot(matchups, value="games").select("strategy", *labels)
    games = games_wide[[index[name] for name in labels]].drop("strategy").to_numpy()
    fair = 1 / players
    codes = [chr(ord("A") + k) for k in range(len(labels))]
    page = ReportPage(
        f"Matchups: {pool.name}",
        takeaways.matchups(matchups, fair),
        f"Pooled over {len(pool.cell_ids)} cells with the same players and rules. Each cell is "
        "how often the row strategy won in games where the column strategy (by its letter) was "
        f"also at the table, and n the number of such games. Blue is above the fair share 1/"
        f"{players}, red below, white fair; grey pairs never met. Rows and columns in rating "
        "order (best first)."
        + (
            f" '{OTHERS}' pools the {len(ratings) - MATRIX_LABELS + 1} lowest rated."
            if groups
            else ""
        ),
    )
    norm = TwoSlopeNorm(vmin=0.0, vcenter=fair, vmax=1.0)
    _, body_height = page.body_inches()
    side = min(body_height - 0.6, max(3.5, 0.75 * len(labels)))
    ax = page.axes_in_body(left=3.6, right=page.body_inches()[0] - 3.6 - side, bottom=0.5)
    ax.set_box_aspect(1)
    image = ax.imshow(np.ma.masked_invalid(rates), cmap="RdBu", norm=norm)
    ax.set_facecolor("#d9d9d9")
    size = SMALL_SIZE if len(labels) > 6 else TEXT_SIZE
    for row in range(len(labels)):
        for col in range(len(labels)):
            if row == col or math.isnan(rates[row, col]):
                continue
            color = "white" if abs(norm(rates[row, col]) - 0.5) > 0.3 else "black"
            text = f"{percent(rates[row, col], 0)}\nn={_count(int(games[row, col]))}"
            ax.text(col, row, text, ha="center", va="center", fontsize=size, color=color)
    ax.set_xticks(range(len(labels)), codes, fontsize=TEXT_SIZE)
    ax.set_yticks(
        range(len(labels)),
        [
            f"{code}  " + label(name, 2.9, max_lines=LABEL_LINES)
            for code, name in zip(codes, labels, strict=True)
        ],
        fontsize=TEXT_SIZE,
    )
    for tick, name in zip(ax.get_yticklabels(), labels, strict=True):
        tick.set_color(GREY if name == OTHERS else view.palette.color(name))
    ax.set_xlabel("opponent at the table (letter of its row)")
    colorbar = page.colorbar(image, ax=ax, format=PercentFormatter(1.0), fraction=0.05)
    colorbar.set_label("win rate of the row strategy")
    colorbar.ax.tick_params(labelsize=TEXT_SIZE)
    return page


def _count(n: int) -> str:
    """A count in at most five characters: 987, 9,876, 98.8k, 988k, 9.9M."""
    if n < 10_000:
        return f"{n:,}"
    if n < 1_000_000:
        return f"{n / 1000:.3g}k"
    return f"{n / 1_000_000:.2g}M"


def rating_pages(view: View, pool: Pool, ratings: pl.DataFrame) -> list[ReportPage]:
    """Bradley–Terry ratings, ranked, with 95% intervals and their values, ``RATING_ROWS`` a
    page."""
    chunks = [ratings.slice(k, RATING_ROWS) for k in range(0, ratings.height, RATING_ROWS)]
    pages = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        page = ReportPage(
            f"Ratings (Bradley–Terry): {pool.name}{of}",
            takeaways.ratings(ratings),
            f"Pooled over {len(pool.cell_ids)} cells with the same players and rules. Each "
            "strategy's rating on the Elo scale (mean 0), strongest on top, fitted to who beat "
            "whom (a win beats every other strategy at the table). 400 points apart means the "
            "stronger wins 10 to 1 head to head; whiskers are 95% intervals, so strategies whose "
            "whiskers overlap are not clearly ranked.",
        )
        ax = page.axes_in_body(left=3.0, right=2.2, bottom=0.45)
        y = np.arange(chunk.height)
        rating = chunk["rating"].to_numpy()
        error = [rating - chunk["ci_low"].to_numpy(), chunk["ci_high"].to_numpy() - rating]
        for k, name in enumerate(chunk["strategy"]):
            color = view.palette.color(name)
            ax.errorbar(
                rating[k],
                y[k],
                xerr=[[error[0][k]], [error[1][k]]],
                fmt="o",
                capsize=4,
                color=color,
            )
        names = [label(name, 2.8, max_lines=LABEL_LINES) for name in chunk["strategy"]]
        ax.set_yticks(y, names, fontsize=TEXT_SIZE)
        ax.set_ylim(max(chunk.height, 6) - 0.5, -0.5)
        first = number * RATING_ROWS
        for k, row in enumerate(chunk.iter_rows(named=True)):
            ax.text(
                1.02,
                k,
                f"#{first + k + 1}  {row['rating']:+.0f} [{row['ci_low']:+.0f}, "
                f"{row['ci_high']:+.0f}]\nn = {row['games']:,}",
                transform=ax.get_yaxis_transform(),
                va="center",
                fontsize=SMALL_SIZE,
            )
        ax.axvline(0, linestyle="--", color="grey")
        ax.tick_params(axis="x", labelsize=TEXT_SIZE)
        ax.set_xlabel("rating (Elo scale, 95% CI)")
        pages.append(page)
    return pages


def stopping_pages(study: StudyDir) -> list[ReportPage]:
    """How many games each sequentially stopped cell (or SPRT pair) played, and why."""
    entries = study.info["stopping"]
    table = pl.DataFrame(
        [{**entry, "cells": " vs ".join(entry["cells"])} for entry in entries],
        infer_schema_length=None,
    )
    games = [entry["games"] for entry in entries]
    sentence = f"{len(entries)} sequential stops, after {min(games):,} to {max(games):,} games"
    widths = [entry["half_width"] for entry in entries if "half_width" in entry]
    if widths:
        sentence += (
            f"; the win rate known to ±{100 * min(widths):.2f} to ±{100 * max(widths):.2f} points"
        )
    verdicts = [entry["verdict"] for entry in entries if "verdict" in entry]
    if verdicts:
        decided = sum(verdict != "undecided" for verdict in verdicts)
        sentence += f"; {decided} of {len(verdicts)} SPRT pairs decided"
    return table_pages(
        table,
        "Sequential stopping",
        sentence + ".",
        "Cells grew by whole steps of games until the focal estimate was precise enough "
        "(half_width: half the 95% interval) or, for an SPRT pair, until the log-likelihood "
        "ratio (llr) crossed a bound (verdict), or the cap was reached. The stored games equal a "
        "fixed run of the same size.",
    )


def _spec_rows(source: str) -> list[tuple[str, str]]:
    """The study file's settings as (setting, value) rows, in file order: tables and arms one
    row per entry."""
    data = tomllib.loads(source)
    rows = []
    for key, value in data.items():
        if key in ("title", "question", "assumptions"):
            continue
        if key == "arms":
            for arm in value:
                details = "; ".join(
                    f"{name}: {_setting(item)}" for name, item in arm.items() if name != "name"
                )
                rows.append((f"arm {arm['name']}", details or "the base settings"))
        elif isinstance(value, dict):
            rows.extend((f"{key} {name}", _setting(item)) for name, item in value.items())
        else:
            rows.append((key, _setting(value)))
    return rows


def _setting(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_setting(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{name}={_setting(item)}" for name, item in value.items())
    return _number(value)


def overview_pages(view: View) -> list[ReportPage]:
    """The question and assumptions, then the study's settings as a table."""
    info = view.study.info
    question = info.get("question") or ""
    assumptions = info.get("assumptions") or []
    lead = "\n".join(
        [
            f"Question: {question}" if question else "Question: (the study file states none)",
            *(["Assumptions:"] if assumptions else []),
            *(f"  – {text}" for text in assumptions),
        ]
    )
    rows = _spec_rows(info["source"])
    rows.append(("games per cell, as run", f"{info['games_per_cell']:,}"))
    table = pl.DataFrame({"setting": [k for k, _ in rows], "value": [v for _, v in rows]})
    cells = view.study.cells
    dims = view.dims()
    shape = " × ".join(f"{len(view.values(d))} {_plural(d, len(view.values(d)))}" for d in dims)
    sentence = (
        f"{len(cells)} {'cell' if len(cells) == 1 else 'cells'}"
        + (f" ({shape})" if shape else "")
        + f", {info['games_per_cell']:,} games per cell"
        + (" (or more, stopped sequentially)" if info["stopping"] else "")
        + f", all on seed {cells[0].run.spec['seed']} so cells are paired game by game."
    )
    return table_pages(
        table,
        f"powerlab study: {info['title']}",
        sentence,
        "The study file was expanded into one run per cell (arm × swept values × players). "
        "Every cell uses the same seed, so game i of any two cells starts from the same deal: "
        "differences between cells are paired, which removes most of the luck they share. The "
        "cells are listed next; the file itself is attached at the end.",
        widest=(2.6, 8.0),
        lead=lead,
    )


def _plural(dim: str, count: int) -> str:
    if dim == "players":
        return "player counts" if count > 1 else "player count"
    if dim == "arm":
        return "arms" if count > 1 else "arm"
    return f"values of {dim}"


def cell_pages(view: View) -> list[ReportPage]:
    """Every cell: its arm and swept values, games, and the share cut off by the turn cap."""
    dims = view.dims()
    records = []
    for cell in view.study.cells:
        length = game_length(cell.run)
        records.append(
            {
                "cell": cell.id,
                **{d: _number(_cell_value(cell, d)) for d in dims},
                "lineup": ", ".join(cell.run.lineup),
                "games": f"{length.games:,}",
                "cut off": percent(length.cut_off_share),
            }
        )
    warnings = cut_off_warnings(view.study)
    sentence = (
        f"{len(warnings)} of {len(records)} cells have more than 1% of their games cut off by "
        "the turn cap: their win rates may reflect strategies stuck in loops."
        if warnings
        else f"All {len(records)} cells ended at least 99% of their games by the rules."
    )
    return table_pages(
        pl.DataFrame(records),
        "The cells",
        sentence,
        "One run per cell, under DIR/cells/<cell>/ (each a normal run directory: `powerlab "
        "report` writes its own report). 'cut off' is the share of games the simulation's turn "
        "cap stopped; they count for nobody.",
        size=SMALL_SIZE,
        widest=(2.6, *([1.3] * len(dims)), 3.6, 0.8, 0.7),
    )


def file_pages(view: View) -> list[ReportPage]:
    info = view.study.info
    lines = info["source"].rstrip("\n").count("\n") + 1
    return text_pages(
        "The study file",
        f"{info['file']} as run ({lines} lines): with the seed it reproduces every number above.",
        info["source"],
    )


def report_pages(study: StudyDir, summary: pl.DataFrame | None = None) -> list[ReportPage]:
    """Every page of a study's report, in order."""
    summary = summary_table(study) if summary is None else summary
    labels = [label for cell in study.cells for label in cell.run.lineup]
    palette = Palette.for_game(study.cells[0].run.spec["game"], labels, varied_strategies(study))
    view = View(study, summary, palette)
    pages = [*answer_pages(study), *overview_pages(view), *cell_pages(view)]
    pages.extend(skill_trace_pages(view))
    for axis in study.axes:
        pages.extend(response_pages(view, axis, "strategy"))
        pages.extend(response_pages(view, axis, "seat"))
    pages.extend(stat_pages(view))
    pages.extend(study_arc_pages(study))
    categories = category_table(study)
    if len(categories):
        for _, rows in categories.group_by("column", maintain_order=True):
            if rows["value"].n_unique() > 1:  # one ending everywhere: the cells page says so
                pages.extend(category_pages(view, rows))
    paired = paired_table(study)
    if not paired.is_empty():
        pages.extend(paired_pages(view, paired))
    for pool in rating_pools(study)[:MAX_RATING_POOLS]:
        ratings = bradley_terry(pooled_matchups(pool.runs))
        pages.append(matchup_page(view, pool, ratings))
        pages.extend(rating_pages(view, pool, ratings))
    if study.info["stopping"]:
        pages.extend(stopping_pages(study))
    pages.extend(file_pages(view))
    return pages


def write_study_report(
    study_dir: str | Path,
    png_dir: str | Path | None = None,
    tables_dir: str | Path | None = None,
) -> list[str]:
    """Write STUDY_DIR/summary.parquet and STUDY_DIR/report.pdf (and, with ``png_dir``, every
    page as a PNG); return the page titles."""
    study = load_study_dir(study_dir)
    summary = summary_table(study)
    storage.atomic_write_bytes(study.path / "summary.parquet", summary.write_parquet)
    return write_pages(
        report_pages(study, summary),
        f"powerlab study: {study.info['title']}",
        study.info.get("question") or study.info["title"],
        study.path / "report.pdf",
        png_dir,
        tables_dir,
    )
