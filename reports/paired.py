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
FOREST_ROWS = 24  # comparisons per page


def focal_color(focal: str, palette: Palette) -> str:
    """A focal's colour: its seat's, or its strategy's."""
    if focal.startswith("seat:"):
        return seat_color(int(focal.removeprefix("seat:")))
    return palette.color(focal)


def focal_name(focal: str) -> str:
    return focal.replace("seat:", "seat ")


def forest_pages(
    paired: pl.DataFrame,
    row_label: Callable[[dict], str],
    palette: Palette,
    title: str,
    caption: str,
) -> list[ReportPage]:
    """Paired differences (rows with focal, diff, ci_low, ci_high) as small multiples: one
    panel per focal (``FOREST_PANELS`` a page), one row per comparison (``row_label`` of a
    row; ``FOREST_ROWS`` a page), each focal in its colour, the zero line dashed."""
    keyed = paired.with_columns(
        row_key=pl.Series([row_label(row) for row in paired.iter_rows(named=True)], dtype=pl.String)
    )
    focals = list(dict.fromkeys(paired["focal"]))
    keys = list(dict.fromkeys(keyed["row_key"]))
    per_page = math.ceil(len(focals) / math.ceil(len(focals) / FOREST_PANELS))  # balanced
    focal_chunks = [focals[k : k + per_page] for k in range(0, len(focals), per_page)]
    key_chunks = [keys[k : k + FOREST_ROWS] for k in range(0, len(keys), FOREST_ROWS)]
    limit = float(np.nanmax(np.abs(paired.select("ci_low", "ci_high").to_numpy()))) * 1.1
    limit = limit if math.isfinite(limit) and limit > 0 else 0.01
    pages = []
    total = len(focal_chunks) * len(key_chunks)
    for key_chunk in key_chunks:
        for focal_chunk in focal_chunks:
            shown = keyed.filter(
                pl.col("focal").is_in(focal_chunk) & pl.col("row_key").is_in(key_chunk)
            )
            of = f" ({len(pages) + 1} of {total})" if total > 1 else ""
            page = ReportPage(
                title + of, takeaways.paired(shown, lambda row: _describe(row, row_label)), caption
            )
            axes = page.panel_grid(
                len(focal_chunk), len(focal_chunk), left=2.9, right=0.2, bottom=0.5, wspace=0.15
            )
            for ax, focal in zip(axes, focal_chunk, strict=True):
                color = focal_color(focal, palette)
                rows = shown.filter(pl.col("focal") == focal)
                _forest_panel(ax, rows, key_chunk, color)
                ax.set_title(
                    literal(focal_name(focal)),
                    color=color,
                    fontsize=TEXT_SIZE + 1,
                    fontweight="bold",
                )
                ax.set_xlim(-limit, limit)
                ax.xaxis.set_major_locator(MaxNLocator(nbins=4, symmetric=True))
                ax.xaxis.set_major_formatter(lambda value, _: points(value, 0) if value else "0")
                ax.tick_params(labelsize=TEXT_SIZE)
                ax.set_xlabel("points (95% CI)", fontsize=TEXT_SIZE)
            axes[0].set_yticks(
                range(len(key_chunk)), [label(key, 2.7) for key in key_chunk], fontsize=TEXT_SIZE
            )
            for ax in axes[1:]:
                ax.tick_params(labelleft=False)
            axes[0].set_ylim(len(key_chunk) - 0.5, -0.5)
            pages.append(page)
    return pages


def _describe(row: dict, row_label: Callable[[dict], str]) -> str:
    return f"{focal_name(row['focal'])} in {row_label(row)}"


def _forest_panel(ax, rows: pl.DataFrame, keys: list[str], color: str) -> None:
    ax.axvline(0, linestyle="--", color="grey", linewidth=1)
    ax.grid(True, axis="y", alpha=0.25)
    for row in rows.iter_rows(named=True):
        y = keys.index(row["row_key"])
        ax.plot([row["ci_low"], row["ci_high"]], [y, y], linewidth=2, color=color)
        ax.plot([row["diff"]], [y], "o", markersize=5, color=color)


def paired_table_pages(
    paired: pl.DataFrame, row_label: Callable[[dict], str], title: str, caption: str
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
    return table_pages(
        table,
        title,
        takeaways.paired(paired, lambda row: _describe(row, row_label)),
        caption,
        size=SMALL_SIZE + 0.5,
        widest=(3.6, 1.4, 1.0, 0.8, 0.8, 1.1, 1.4, 0.9),
    )
