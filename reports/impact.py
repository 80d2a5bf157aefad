"""The report of ``powerlab impact``: the components ranked by what switching each off changes
(analyses/intervention.py), then each measure's forest, then the numbers."""

import tomllib
from pathlib import Path

import polars as pl

from analyses.intervention import LENGTH, MIN_PEERS, clear_of_rest, effects, headlines
from reports.export import write_pages
from reports.paired import measure_forest_pages
from reports.toolkit import TEXT_SIZE, ReportPage, label, table_pages
from simcore.workflows import files
from simcore.workflows.impact import STUDY_FILE

LABEL_WIDTH = 3.4  # inches of row labels
ROW_INCHES = 0.3
FOREST_MARGIN = 0.6  # inches under the forest's rows: its axis and label
MIN_ROWS = 3
RANKED_CAPTION = (
    "Each line is one component: the change its removal (or the change named) makes, against the "
    "base game with everything in, game by game on the same random streams (common random "
    "numbers), minus the median change of the other components of its kind and group (a card's "
    "level), on the measure where that difference is largest, with its 95% interval. What every "
    "card of a level does alike (one card less makes the others come up sooner) cancels out. A "
    "win rate in points, the game length in percent of the base game's (1 point is drawn as 1%). "
    "In brackets: kind, group and rank among them."
)


def _percent(value: float) -> str:
    return f"{100 * value:+.1f}"


def headline_text(row: dict) -> str:
    """A component's headline: its change against its peers, then its own change."""
    unit = "%" if row["measure"] == LENGTH else " points"
    where = ", ".join(filter(None, [row["kind"], row["group"]]))
    against = (
        f" against the median of the {row['peers']} other {row['kind']}s"
        + (f" of {row['group']}" if row["group"] else "")
        if row["peers"] >= MIN_PEERS
        else ""
    )
    return (
        f"{row['component']} ({where}): {row['measure']} {_percent(row['vs_peers'])}{unit} "
        f"[{_percent(row['vs_peers_low'])}, {_percent(row['vs_peers_high'])}]{against}; "
        f"switched off or removed: {_percent(row['relative'])}{unit}"
    )


def answer(ranked: pl.DataFrame) -> str:
    """The takeaway of the first page: the largest changes, and whether the first stands out."""
    if ranked.is_empty():
        return "No component was measured."
    top = [
        f"{row['component']}, {row['measure']} {_percent(row['vs_peers'])}"
        f"{'%' if row['measure'] == LENGTH else ' points'} "
        f"[{_percent(row['vs_peers_low'])}, {_percent(row['vs_peers_high'])}]"
        for row in ranked.head(3).iter_rows(named=True)
    ]
    first = ranked.row(0, named=True)
    stands = (
        f"{first['component']} stands out: its interval is clear of every other component's."
        if clear_of_rest(ranked)
        else "No component's interval is clear of all the others'."
    )
    return "Largest changes against their peers: " + "; ".join(top) + ". " + stands


def _row_label(row: dict) -> str:
    where = ", ".join(filter(None, [row["kind"], row["group"]]))
    return f"{row['component']} ({where}, {row['rank_in_group']} of {row['of']}): {row['measure']}"


def ranked_pages(ranked: pl.DataFrame, title: str) -> list[ReportPage]:
    """The headline of every component, largest first, as a forest over as many pages as it
    takes."""
    takeaway = answer(ranked)
    probe = ReportPage(title + " (1 of 9)", takeaway, RANKED_CAPTION)
    per_page = max(MIN_ROWS, int((probe.body_inches()[1] - FOREST_MARGIN) / ROW_INCHES))
    chunks = [ranked.slice(k, per_page) for k in range(0, max(ranked.height, 1), per_page)]
    limit = 1.1 * max(
        abs(ranked["vs_peers_low"].min() or 0), abs(ranked["vs_peers_high"].max() or 0), 1e-3
    )
    pages = []
    for number, chunk in enumerate(chunks):
        of = f" ({number + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        page = ReportPage(title + of, takeaway, RANKED_CAPTION)
        ax = page.axes_in_body(left=LABEL_WIDTH + 0.2, right=0.6, bottom=0.5)
        for y, row in enumerate(chunk.iter_rows(named=True)):
            color = "tab:blue" if row["measure"] == LENGTH else "black"
            ax.plot([row["vs_peers_low"], row["vs_peers_high"]], [y, y], linewidth=2, color=color)
            ax.plot([row["vs_peers"]], [y], "o", markersize=5, color=color)
        ax.axvline(0, linestyle="--", color="grey", linewidth=1)
        labels = [label(_row_label(row), LABEL_WIDTH) for row in chunk.iter_rows(named=True)]
        ax.set_yticks(range(chunk.height), labels, fontsize=TEXT_SIZE)
        ax.set_ylim(max(chunk.height, MIN_ROWS) - 0.5, -0.5)
        ax.set_xlim(-limit, limit)
        ax.xaxis.set_major_formatter(lambda value, _: f"{100 * value:+.3g}" if value else "0")
        ax.tick_params(axis="x", labelsize=TEXT_SIZE)
        ax.set_xlabel(
            "change against its peers: win-rate points (black) or % of game length (blue), 95% CI",
            fontsize=TEXT_SIZE,
        )
        ax.grid(True, axis="y", alpha=0.25)
        page.table = chunk.select(
            "rank", "component", "kind", "group", "measure", "vs_peers", "vs_peers_low",
            "vs_peers_high", "peers", "relative", "rank_in_group", "of",
        )  # fmt: skip
        pages.append(page)
    return pages


def measure_pages(table: pl.DataFrame, order: list[str]) -> list[ReportPage]:
    """Every measure's paired change per component (components in headline order): the win
    rates in points, the game length in percent."""
    rows = table.with_columns(pl.col("component").cast(pl.Enum(order))).sort("component")
    return measure_forest_pages(
        rows, lambda row: str(row["component"]), LENGTH, "length",
        "Each measure, component by component",
        "Each panel is one measure: the change switching each component off (or the change "
        "named) makes to it, game by game on the same random streams, with its 95% interval; a "
        "win rate in points, the game length in percent of the base game's length.",
    )  # fmt: skip


def impact_pages(table: pl.DataFrame, title: str) -> list[ReportPage]:
    ranked = headlines(table)
    numbers = table.select(
        "component", "kind", "group", "measure", "base", "changed", "diff", "ci_low", "ci_high",
        "games",
    )  # fmt: skip
    return [
        *ranked_pages(ranked, title),
        *measure_pages(table, ranked["component"].to_list()),
        *table_pages(
            numbers,
            "The numbers",
            "Every component and measure: the base game's value, the value with the component "
            "off, the paired change and its 95% interval.",
            "Win rates as shares (0.25 = 25%), game length in turns; games: the games with a "
            "result in both (a game the cap cut off in either is left out).",
        ),
    ]


def headline_lines(table: pl.DataFrame, count: int = 5) -> list[str]:
    """The ``count`` largest changes, a line each, as the command prints them."""
    return [headline_text(row) for row in headlines(table).head(count).iter_rows(named=True)]


def write_impact_outputs(
    out: Path, png_dir: Path | None = None, tables_dir: Path | None = None
) -> tuple[pl.DataFrame, list[str]]:
    """OUT/impact.csv (every component and measure) and OUT/impact.pdf of an impact directory
    (and PNGs, page tables with ``png_dir``, ``tables_dir``); the table and the page titles."""
    study = tomllib.loads(files.read_text(out / STUDY_FILE, "study file"))
    title = (
        f"Component impact: {study['game']}, {study['players']} players, "
        f"{study['games']:,} games each"
    )
    table = effects(out)
    pages = impact_pages(table, title)
    titles = write_pages(pages, "powerlab impact", title, out / "impact.pdf", png_dir, tables_dir)
    table.write_csv(out / "impact.csv")
    return table, titles
