"""Pages of paired differences (a study's arms against its baseline, or ``powerlab compare``):
a forest plot per focal strategy or seat, and the numbers as a table."""

import math
from collections.abc import Callable

import numpy as np
import polars as pl
from matplotlib.ticker import MaxNLocator

from reports import takeaways
from reports.colors import Palette, seat_color
from reports.toolkit import SMALL_SIZE, TEXT_SIZE, ReportPage, label, literal, points, table_pages

FOREST_PANELS = 4  # focals side by side on one page
# Comparisons per page: a label of two lines at 9 pt takes 0.33 in, and the body holds ~4.8 in.
FOREST_ROWS = 14
MIN_ROWS = 8  # a forest of fewer rows keeps their spacing and leaves the rest of the panel empty


def focal_color(focal: str, palette: Palette) -> str:
    """A focal's colour: its seat's, or its strategy's."""
    if focal.startswith("seat:"):
        return seat_color(int(focal.removeprefix("seat:")))
    return palette.color(focal)


def focal_name(focal: str) -> str:
    return focal.replace("seat:", "seat ")


Label = Callable[[dict], str]


def forest_pages(
    paired: pl.DataFrame,
    row_label: Label,
    panel_label: Label,
    color_of: Label,
    describe: Label,
    title: str,
    caption: str,
) -> list[ReportPage]:
    """Paired differences (rows with diff, ci_low, ci_high) as small multiples: one panel per
    ``panel_label`` (``FOREST_PANELS`` a page), one line per ``row_label`` (``FOREST_ROWS`` a
    page), each difference in ``color_of`` its row, the zero line dashed. ``describe`` names a
    row in the takeaway."""
    keyed = paired.with_columns(
        row_key=pl.Series(
            [row_label(row) for row in paired.iter_rows(named=True)], dtype=pl.String
        ),
        panel_key=pl.Series(
            [panel_label(row) for row in paired.iter_rows(named=True)], dtype=pl.String
        ),
    )
    panels = list(dict.fromkeys(keyed["panel_key"]))
    keys = list(dict.fromkeys(keyed["row_key"]))
    per_page = math.ceil(len(panels) / math.ceil(len(panels) / FOREST_PANELS))  # balanced
    panel_chunks = [panels[k : k + per_page] for k in range(0, len(panels), per_page)]
    key_chunks = [keys[k : k + FOREST_ROWS] for k in range(0, len(keys), FOREST_ROWS)]
    limit = float(np.nanmax(np.abs(paired.select("ci_low", "ci_high").to_numpy()))) * 1.1
    limit = limit if math.isfinite(limit) and limit > 0 else 0.01
    pages = []
    total = len(panel_chunks) * len(key_chunks)
    for key_chunk in key_chunks:
        for panel_chunk in panel_chunks:
            shown = keyed.filter(
                pl.col("panel_key").is_in(panel_chunk) & pl.col("row_key").is_in(key_chunk)
            )
            of = f" ({len(pages) + 1} of {total})" if total > 1 else ""
            page = ReportPage(title + of, takeaways.paired(shown, describe), caption)
            axes = page.panel_grid(
                len(panel_chunk), len(panel_chunk), left=2.9, right=0.2, bottom=0.5, wspace=0.15
            )
            for ax, panel in zip(axes, panel_chunk, strict=True):
                rows = shown.filter(pl.col("panel_key") == panel)
                colors = {color_of(row) for row in rows.iter_rows(named=True)}
                _forest_panel(ax, rows, key_chunk, color_of)
                ax.set_title(
                    literal(panel),
                    color=colors.pop() if len(colors) == 1 else "black",
                    fontsize=TEXT_SIZE + 1,
                    fontweight="bold",
                )
                ax.set_xlim(-limit, limit)
                ax.xaxis.set_major_locator(MaxNLocator(nbins=4, symmetric=True))
                ax.xaxis.set_major_formatter(
                    lambda value, _: f"{100 * value:+.3g}" if value else "0"
                )
                ax.tick_params(labelsize=TEXT_SIZE)
                ax.set_xlabel("points (95% CI)", fontsize=TEXT_SIZE)
            axes[0].set_yticks(
                range(len(key_chunk)), [label(key, 2.7) for key in key_chunk], fontsize=TEXT_SIZE
            )
            for ax in axes[1:]:
                ax.tick_params(labelleft=False)
            axes[0].set_ylim(max(len(key_chunk), MIN_ROWS) - 0.5, -0.5)  # rows evenly spaced
            pages.append(page)
    return pages


def _forest_panel(ax, rows: pl.DataFrame, keys: list[str], color_of: Label) -> None:
    ax.axvline(0, linestyle="--", color="grey", linewidth=1)
    ax.grid(True, axis="y", alpha=0.25)
    for row in rows.iter_rows(named=True):
        y = keys.index(row["row_key"])
        color = color_of(row)
        ax.plot([row["ci_low"], row["ci_high"]], [y, y], linewidth=2, color=color)
        ax.plot([row["diff"]], [y], "o", markersize=5, color=color)


def paired_table_pages(
    paired: pl.DataFrame, row_label: Label, describe: Label, title: str, caption: str
) -> list[ReportPage]:
    """Every paired difference as a table: the comparison, the focal, games, both rates, the
    difference with its interval and the variance-reduction factor."""
    table = pl.DataFrame(
        {
            "comparison": [row_label(row) for row in paired.iter_rows(named=True)],
            "focal": [focal_name(focal) for focal in paired["focal"]],
            "paired games": [f"{n:,}" for n in paired["games"]],
            "rate A": [f"{100 * v:.2f}%" for v in paired["rate_a"]],
            "rate B": [f"{100 * v:.2f}%" for v in paired["rate_b"]],
            "A − B (points)": [points(v, 2) for v in paired["diff"]],
            "95% interval": [
                f"[{points(lo, 2)}, {points(hi, 2)}]"
                for lo, hi in zip(paired["ci_low"], paired["ci_high"], strict=True)
            ],
            "variance reduction": [f"{v:.1f}x" for v in paired["variance_reduction"]],
        }
    )
    if table["comparison"].n_unique() == 1:  # one comparison: the title names it
        table = table.drop("comparison")
    return table_pages(
        table,
        title,
        takeaways.paired(paired, describe),
        caption,
        size=SMALL_SIZE + 0.5,
        widest=(3.6, 1.4, 1.0, 0.8, 0.8, 1.1, 1.4, 0.9)[-table.width :],
    )


def measure_forest_pages(
    rows: pl.DataFrame, row_label: Label, length: str, base: str, title: str, caption: str
) -> list[ReportPage]:
    """``forest_pages`` with a panel per measure (rows with measure, diff, ci_low, ci_high): the
    win rates in points, the measure named ``length`` (the game length, in turns) in percent of
    ``base`` ("A's", "of length"), drawn blue, so that one axis (x 100) reads for every panel."""
    is_length = pl.col("measure") == length
    shares = rows.with_columns(
        pl.when(is_length).then(pl.col(c) / pl.col("base")).otherwise(pl.col(c)).alias(c)
        for c in ("diff", "ci_low", "ci_high")
    )
    return forest_pages(
        shares,
        row_label=row_label,
        panel_label=lambda row: (
            row["measure"] + (f" (% of {base})" if row["measure"] == length else "")
        ),
        color_of=lambda row: "tab:blue" if row["measure"] == length else "black",
        describe=lambda row: f"{row['measure']} ({row_label(row)})",
        title=title,
        caption=caption,
    )
