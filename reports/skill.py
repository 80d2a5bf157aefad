"""The skill trace (docs/ismcts.md): how the search player's win rate grows with its iterations
against a fixed field, one line per player count with its fair share. A study that sweeps
``ismcts.iterations`` draws one per panel (reports/study.py); a run whose lineup seats the search
player at two or more iteration counts (and nothing else different between those seats) draws
its own page."""

import polars as pl
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.ticker import PercentFormatter

from analyses.dataset import Run
from analyses.winrates import by_strategy
from reports import takeaways
from reports.toolkit import TEXT_SIZE, ReportPage, legend, literal
from simcore.registry import SEARCH

SKILL_AXIS = f"{SEARCH}.iterations"  # the swept key (and column) of a skill trace
TABLE_COLORS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02")
TITLE = f"Skill trace: the {SEARCH} seat's win rate as its iterations grow"
CAPTION = (
    f"How much the game rewards thinking: the win rate of the {SEARCH} seat (points, 95% Wilson "
    "intervals as whiskers) against the same fixed field as its search iterations per decision "
    "grow (log scale), one line per player count; the dotted line of the same colour is that "
    "table's fair share, 1 / players. A line that keeps rising has not reached the game's skill "
    "ceiling at these iterations."
)


def _color(k: int) -> str:
    return TABLE_COLORS[k % len(TABLE_COLORS)]


def draw_skill_trace(ax: Axes, rows: pl.DataFrame, tables: list[int]) -> None:
    """``rows`` [players, ismcts.iterations, win_rate, ci_low, ci_high] on ``ax``: one line per
    player count of ``tables`` (colours fixed by its position there), with its fair share."""
    iterations = sorted(set(rows[SKILL_AXIS]))
    for k, players in enumerate(tables):
        line = rows.filter(pl.col("players") == players).sort(SKILL_AXIS)
        if line.is_empty():
            continue
        rate = line["win_rate"].to_numpy()
        error = [rate - line["ci_low"].to_numpy(), line["ci_high"].to_numpy() - rate]
        ax.errorbar(
            line[SKILL_AXIS], rate, yerr=error, capsize=2, markersize=3.5, marker="o",
            color=_color(k),
        )  # fmt: skip
        ax.axhline(1 / players, color=_color(k), linestyle=":", linewidth=1.3, zorder=1)
    ax.set_xscale("log")
    ax.set_xticks(iterations, [f"{n:,}" for n in iterations])
    ax.minorticks_off()
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.tick_params(labelsize=TEXT_SIZE)
    ax.set_xlabel(literal(SKILL_AXIS), fontsize=TEXT_SIZE)
    ax.grid(True, alpha=0.3)


def table_legend(page: ReportPage, tables: list[int]) -> None:
    """The colour of each player count, in the page's right margin."""
    handles = [Line2D([], [], color=_color(k), marker="o") for k in range(len(tables))]
    legend(
        page, handles, [f"{n} players" for n in tables], loc="upper right",
        bbox_to_anchor=(page.body[2], page.body[3]), title="table", title_fontsize=TEXT_SIZE,
    )  # fmt: skip


def run_skill_trace(run: Run) -> pl.DataFrame:
    """The run's search seats as skill-trace rows (one per lineup label), or an empty table
    unless they hold at least two iteration counts, one label each."""
    iterations = {
        label: strategy["params"]["iterations"]
        for label, strategy in zip(run.lineup, run.spec["strategies"], strict=True)
        if strategy["name"] == SEARCH
    }
    if len(iterations) < 2 or len(set(iterations.values())) < len(iterations):
        return pl.DataFrame()
    return (
        by_strategy(run)
        .filter(pl.col("strategy").is_in(list(iterations)))
        .with_columns(
            pl.col("strategy").replace_strict(iterations).alias(SKILL_AXIS),
            players=pl.lit(run.players),
        )
    )


def run_skill_trace_pages(run: Run) -> list[ReportPage]:
    """A run's skill-trace page (``run_skill_trace``), or none."""
    rows = run_skill_trace(run)
    if rows.is_empty():
        return []
    page = ReportPage(
        TITLE,
        takeaways.skill_trace(rows, SKILL_AXIS),
        CAPTION + " Here the searching seats of one run, each against the others.",
    )
    [ax] = page.panel_grid(1, 1, left=0.75, right=1.9)
    draw_skill_trace(ax, rows, [run.players])
    ax.set_ylabel("win rate (95% CI)", fontsize=TEXT_SIZE)
    table_legend(page, [run.players])
    return [page]
