"""Pure functions from analysis tables to matplotlib Figures, one report page each.

Figures are built with ``matplotlib.figure.Figure`` rather than pyplot: no GUI backend is ever
selected (rendering uses Agg for images and the PDF backend for PdfPages), and no global figure
registry keeps pages alive after they are saved.
"""

import math
import textwrap
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analyses.card_impact import OUTCOMES, CardImpactTable
from analyses.impact import ImpactGroup
from analyses.length import GameLength
from analyses.winrates import matchup_pivot

PAGE_SIZE = (11.69, 8.27)  # A4 landscape, inches
TITLE_SIZE = 16
CAPTION_SIZE = 10.5
RATE_COLOR = "#4C72B0"
CUT_OFF_COLOR = "#DD8452"
SIGNIFICANCE = 0.05


def page(title: str, caption: str) -> Figure:
    """An empty page with its title on top and its how-to-read caption at the bottom."""
    fig = Figure(figsize=PAGE_SIZE)
    fig.suptitle(title, fontsize=TITLE_SIZE, fontweight="bold")
    fig.text(0.06, 0.03, caption, fontsize=CAPTION_SIZE, wrap=True, va="bottom", ha="left")
    return fig


def _plot_axes(fig: Figure) -> Axes:
    """The single plot area of a page, leaving room for title, caption and, on the right, the
    legend or per-bar annotations (outside the plot so they never hide data)."""
    fig.subplots_adjust(left=0.2, right=0.78, top=0.86, bottom=0.2)
    return fig.add_subplot()


def _legend_outside(ax: Axes) -> None:
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=9)


def wrap_label(label: str, width: int = 24) -> str:
    """Break a long strategy label (``name:key=value,...``) after its separators."""
    spaced = label.replace(":", ": ").replace(",", ", ")
    lines = textwrap.wrap(spaced, width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines) or label


def _percent(value: float | None) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


def _rate_bars(
    ax: Axes,
    labels: list[str],
    table: pl.DataFrame,
    trials: str,
    reference: float | None,
    reference_label: str,
    rate_column: str = "win_rate",
    rate_name: str = "win rate",
) -> None:
    """Horizontal rate bars with Wilson error bars, first row on top, a dashed reference line
    (if any), and each bar's rate, interval and number of trials written right of the plot."""
    rate = table[rate_column].to_numpy()
    low = table["ci_low"].to_numpy()
    high = table["ci_high"].to_numpy()
    rows = np.arange(len(labels))
    ax.barh(rows, rate, color=RATE_COLOR, height=0.6)
    ax.errorbar(rate, rows, xerr=[rate - low, high - rate], fmt="none", ecolor="black", capsize=4)
    for row, value, lo, hi, n in zip(rows, rate, low, high, table[trials], strict=True):
        ax.text(
            1.02,
            row,
            f"{_percent(value)}  [{_percent(lo)}, {_percent(hi)}]\nn = {n:,}",
            transform=ax.get_yaxis_transform(),  # x in axes fraction, y at the bar
            va="center",
            fontsize=9,
        )
    if reference is not None:
        ax.axvline(reference, color="black", linestyle="--", linewidth=1, label=reference_label)
        ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), fontsize=9)
    ax.set_yticks(rows, labels)
    ax.invert_yaxis()
    right = np.nanmax([*high, 0.0 if reference is None else reference])
    ax.set_xlim(0, min(1.0, right * 1.1) if right > 0 else 1.0)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(f"{rate_name} (bars: 95% Wilson confidence interval)")


def seat_winrate_figure(seats: pl.DataFrame, players: int) -> Figure:
    """Win rate per seat (``winrates.by_seat``) against the fair share 1/players."""
    fig = page(
        "Win rate by seat",
        "Each bar is how often the player in that seat won, over all games; seat 0 moves first. "
        "The black whiskers show the 95% confidence interval, and the dashed line is the fair "
        "share (1 / number of players): a seat whose whiskers do not reach the line is favoured "
        "or handicapped by its position.",
    )
    labels = [f"seat {seat}" + (" (first)" if seat == 0 else "") for seat in seats["seat"]]
    ax = _plot_axes(fig)
    _rate_bars(ax, labels, seats, "games", 1 / players, f"fair share 1/{players}")
    ax.set_ylabel("seat (order of play)")
    return fig


def strategy_winrate_figure(strategies: pl.DataFrame, players: int) -> Figure:
    """Win rate per strategy (``winrates.by_strategy``) against the fair share 1/players."""
    fig = page(
        "Win rate by strategy",
        "Each bar is how often a seat played by that strategy won (n counts seats played, so a "
        "strategy seated twice in a game counts twice). Whiskers are 95% confidence intervals; "
        "the dashed line is the fair share (1 / number of players). Strategies whose whiskers "
        "do not overlap really differ in strength.",
    )
    labels = [wrap_label(label) for label in strategies["strategy"]]
    ax = _plot_axes(fig)
    _rate_bars(ax, labels, strategies, "games", 1 / players, f"fair share 1/{players}")
    ax.set_ylabel("strategy")
    return fig


def impact_figure(group: ImpactGroup) -> Figure:
    """Win rate per category value of one impact group, sorted from strongest to weakest."""
    columns = ", ".join(group.columns)
    fig = page(
        f"Impact of {group.title}",
        f"Each bar is the win rate of seats that had this {group.title} (in any of: {columns}), "
        "strongest first, with its 95% confidence interval. The dashed line is the win rate of "
        "all seats together; values whose whiskers stay clear of it change a seat's chances."
        + (
            f" OBSERVATIONAL, NOT AN EXPERIMENT: {group.observational} A difference here may be "
            "the cause, the effect or neither."
            if group.observational
            else " Chance alone sets the value, so a difference is its effect."
        ),
    )
    table = group.table.sort("win_rate", descending=True, nulls_last=True)
    ax = _plot_axes(fig)
    _rate_bars(
        ax,
        [wrap_label(value) for value in table["value"]],
        table,
        "seat_rows",
        group.overall_win_rate,
        f"all seats: {_percent(group.overall_win_rate)}",
    )
    ax.set_ylabel(group.title)
    return fig


CARDS_PER_PAGE = 25


def card_impact_figures(impact: CardImpactTable) -> list[Figure]:
    """Cards ranked by improvement when drawn (IWD), strongest first, ``CARDS_PER_PAGE`` a page:
    bars with 95% intervals, and each card's drawn / played / never-seen win rates beside."""
    ranked = impact.table.sort("iwd", descending=True, nulls_last=True)
    pages = []
    n_pages = max(1, math.ceil(ranked.height / CARDS_PER_PAGE))
    for number in range(n_pages):
        part = ranked.slice(number * CARDS_PER_PAGE, CARDS_PER_PAGE)
        of = f" ({number + 1} of {n_pages})" if n_pages > 1 else ""
        fig = page(
            f"Card impact: {impact.title}{of}",
            "Improvement when drawn (IWD) = win rate of seats that drew the card minus win rate "
            "of seats that never saw it, with its 95% interval; cards ranked from the most to "
            "the least helpful (over- and under-powered cards sit at the two ends). Beside each "
            "bar: win rate when drawn, when played and when never seen, and how many seats drew "
            f"it. All seats together won {_percent(impact.win_rate)} of "
            f"{impact.seat_rows:,} seat-games. Seats that draw more cards (longer games, "
            "draw-heavy play) see more of every card, which moves all cards together: compare "
            "cards with each other rather than with zero.",
        )
        fig.subplots_adjust(left=0.15, right=0.66, top=0.86, bottom=0.2)  # room for the rates
        ax = fig.add_subplot()
        rows = np.arange(part.height)
        iwd = part["iwd"].to_numpy()
        low = part["iwd_ci_low"].to_numpy()
        high = part["iwd_ci_high"].to_numpy()
        colors = [RATE_COLOR if value >= 0 else CUT_OFF_COLOR for value in iwd]
        ax.barh(rows, iwd, color=colors, height=0.6)
        ax.errorbar(iwd, rows, xerr=[iwd - low, high - iwd], fmt="none", ecolor="black", capsize=2)
        for row, record in zip(rows, part.iter_rows(named=True), strict=True):
            ax.text(
                1.02,
                row,
                " · ".join(_percent(record[f"{outcome}_win_rate"]) for outcome in OUTCOMES)
                + f"   n = {record['drawn_seats']:,}",
                transform=ax.get_yaxis_transform(),
                va="center",
                fontsize=7,
            )
        ax.text(
            1.02,
            1.01,
            "win rate when drawn · played · never seen,\nseats that drew it (n)",
            transform=ax.transAxes,
            va="bottom",
            fontsize=7,
        )
        ax.axvline(0, color="black", linewidth=1)
        ax.set_yticks(rows, part["card"].to_list(), fontsize=7)
        ax.invert_yaxis()
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_xlabel("improvement when drawn (percentage points, 95% interval)")
        pages.append(fig)
    return pages


def matchup_figure(matchups: pl.DataFrame, players: int) -> Figure:
    """Heatmap of ``winrates.matchup_matrix``: row strategy's win rate when the column one plays."""
    fig = page(
        "Matchups",
        "Each cell is how often the row strategy won in games where the column strategy was also "
        "at the table (n = number of such games). Blue cells are above the fair share "
        f"1/{players}, red cells below, white is fair. With more than two players every "
        "strategy at the table counts, so rows differ little when all strategies always meet.",
    )
    wide = matchup_pivot(matchups)
    labels = wide["strategy"].to_list()
    rates = wide.drop("strategy").to_numpy().astype(float)
    games = matchup_pivot(matchups, value="games").drop("strategy").to_numpy()
    norm = TwoSlopeNorm(vmin=0.0, vcenter=1 / players, vmax=1.0)
    fig.subplots_adjust(left=0.22, right=0.9, top=0.86, bottom=0.22)
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(rates), cmap="RdBu", norm=norm)
    ax.set_facecolor("#d9d9d9")  # the diagonal and pairs that never met
    for row in range(len(labels)):
        for col in range(len(labels)):
            if math.isnan(rates[row, col]):
                text, color = "same\nstrategy" if row == col else "never\nmet", "black"
            else:
                text = f"{_percent(rates[row, col])}\nn={int(games[row, col]):,}"
                color = "white" if abs(norm(rates[row, col]) - 0.5) > 0.3 else "black"
            ax.text(col, row, text, ha="center", va="center", fontsize=9, color=color)
    wrapped = [wrap_label(label, 14) for label in labels]
    ax.set_xticks(range(len(labels)), wrapped, fontsize=9)
    ax.set_yticks(range(len(labels)), wrapped, fontsize=9)
    ax.set_xlabel("opponent at the table")
    ax.set_ylabel("strategy whose win rate is shown")
    colorbar = fig.colorbar(image, ax=ax, format=PercentFormatter(1.0))
    colorbar.set_label("win rate of the row strategy")
    return fig


def category_figure(shares: pl.DataFrame, doc: str) -> Figure:
    """``outcomes.category_shares`` of one game column as a page titled by what it records."""
    fig = page(
        doc[:1].upper() + doc[1:],
        f"The share of all {int(shares['total'][0]):,} games in which the game recorded each "
        "value, with its 95% confidence interval: how games end, and how often each ending "
        "happens at this table.",
    )
    ax = _plot_axes(fig)
    labels = [wrap_label(value) for value in shares["value"]]
    _rate_bars(
        ax, labels, shares, "games", None, "", rate_column="share", rate_name="share of games"
    )
    return fig


def game_length_figure(length: GameLength) -> Figure:
    """Histogram of turns per game, games cut off by the cap stacked in their own colour."""
    fig = page(
        "Game length",
        "How many games lasted each number of turns. Orange games were cut off by the "
        f"simulation's turn cap ({_percent(length.cut_off_share)} of all games) rather than "
        "ended by the rules. Over the games with a result, the solid line is the mean, the "
        "dashed line the median, and the dotted lines enclose the middle 80% of games.",
    )
    turns = length.counts["turns"].to_numpy()
    cut_off = length.counts["cut_off"].to_numpy()
    finished = length.counts["games"].to_numpy() - cut_off
    ax = _plot_axes(fig)
    ax.bar(turns, finished, width=1.0, color=RATE_COLOR, label="ended by the rules")
    ax.bar(turns, cut_off, width=1.0, bottom=finished, color=CUT_OFF_COLOR, label="cut off")
    if length.mean is not None:  # some game has a result
        ax.axvline(length.mean, color="black", label=f"mean {length.mean:.1f}")
        ax.axvline(length.median, color="black", linestyle="--", label=f"median {length.median:g}")
        ax.axvline(
            length.p10, color="black", linestyle=":", label=f"10th percentile {length.p10:g}"
        )
        ax.axvline(
            length.p90, color="black", linestyle=":", label=f"90th percentile {length.p90:g}"
        )
    ax.set_xlabel("turns played")
    ax.set_ylabel("games")
    _legend_outside(ax)
    return fig


def convergence_figure(curves: pl.DataFrame) -> Figure:
    """``winrates.convergence``: each strategy's ± margin of win rate against games played."""
    fig = page(
        "Convergence",
        "The ± margin of each strategy's win rate (half its 95% confidence interval) after the "
        "first N games of the run. It shrinks like 1/√N, so halving it takes four times as many "
        "games; differences between strategies smaller than the final margin are not resolved "
        "by this run.",
    )
    ax = _plot_axes(fig)
    for (label,), curve in curves.group_by("strategy", maintain_order=True):
        ax.plot(
            curve["games_played"],
            curve["half_width"],
            marker="o",
            markersize=3,
            label=wrap_label(label),
        )
    ax.set_xscale("log")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("games played (log scale)")
    ax.set_ylabel("± margin of the win rate (95%)")
    ax.grid(True, which="both", alpha=0.3)
    _legend_outside(ax)
    return fig


def _cell(value: Any) -> str:
    """Table cell text: floats to four significant digits, long text wrapped."""
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.4g}"
    return "\n".join(textwrap.wrap(str(value), 60)) or str(value)


def table_figure(
    table: pl.DataFrame, title: str, caption: str, font_size: int = 11, line_height: float = 0.06
) -> Figure:
    """A small DataFrame as a page: header row, one row per record."""
    fig = page(title, caption)
    ax = fig.add_axes((0.06, 0.2, 0.88, 0.68))
    ax.axis("off")
    cells = [[_cell(value) for value in row] for row in table.iter_rows()]
    widths = [  # characters, plus room for the padding and the bold header
        3
        + max(len(line) for text in [name, *(row[i] for row in cells)] for line in text.split("\n"))
        for i, name in enumerate(table.columns)
    ]
    shown = ax.table(
        cellText=cells,
        colLabels=table.columns,
        colWidths=[w / sum(widths) for w in widths],
        cellLoc="left",
        loc="upper center",
    )
    shown.auto_set_font_size(False)
    shown.set_fontsize(font_size)
    for (row, _), cell in shown.get_celld().items():
        lines = 1 if row == 0 else max(text.count("\n") + 1 for text in cells[row - 1])
        cell.set_height(line_height * lines)
        cell.PAD = 0.02  # matplotlib pads by a fraction of the cell width: too much for wide ones
        if row == 0:
            cell.set_text_props(fontweight="bold")
    return fig


def seat_advantage_figure(result: dict[str, Any]) -> Figure:
    """``winrates.seat_advantage`` as a table of wins per seat, with the verdict in the caption."""
    p_value = result["p_value"]
    test = f"chi-square = {result['statistic']:.4g}, degrees of freedom: {result['dof']}"
    if math.isnan(p_value):
        verdict = "No game had a single winner, so the seat order cannot be tested."
    elif p_value < SIGNIFICANCE:
        verdict = f"{test}, p = {p_value:.3g} < {SIGNIFICANCE}: the seat order affects who wins."
    else:
        verdict = f"{test}, p = {p_value:.3g}: no evidence that the seat order affects who wins."
    games = result["games"]
    table = pl.DataFrame(
        {
            "seat": list(range(len(result["wins"]))),
            "wins": result["wins"],
            "expected if fair": result["expected"],
            "share of wins": [w / games if games else math.nan for w in result["wins"]],
        }
    )
    return table_figure(
        table,
        "Seat advantage test",
        f"Wins per seat over the {games:,} games with a single winner, compared with an equal "
        f"split. {verdict} A small p-value means the differences between seats are too large "
        "to be luck.",
    )


def winner_stats_figure(means: pl.DataFrame, docs: list[dict[str, str]]) -> Figure:
    """``seat_stats.winner_stat_means`` as a page: winning seats beside all other seats."""
    doc_of = {column["name"]: column["doc"] for column in docs}

    def shown(value: float | None) -> str:
        return "–" if value is None else f"{value:.3g}"

    table = pl.DataFrame(
        {
            "statistic (mean)": means["statistic"],
            "winning seats": [shown(v) for v in means["winning_seats"]],
            "other seats": [shown(v) for v in means["other_seats"]],
            "what it counts": [wrap_label(doc_of.get(n, ""), 60) for n in means["statistic"]],
        }
    )
    rows = len(table) + sum(text.count("\n") for text in table["what it counts"])
    return table_figure(
        table,
        "How winners win",
        "Each count the game records per seat, averaged over the seats that won a game and over "
        "all other seats (every strategy together; a shared win counts for each sharer). Where "
        "winners' and others' averages differ most is how games are won at this table.",
        font_size=9 if rows > 10 else 11,
        line_height=min(0.06, 0.66 / (rows + 1)),
    )


def seat_stats_figure(means: pl.DataFrame, docs: list[dict[str, str]]) -> Figure:
    """``seat_stats.seat_stat_means`` as a page: one row per statistic, one column per strategy."""
    doc_of = {column["name"]: column["doc"] for column in docs}
    stats = [name for name in means.columns if name not in ("strategy", "seat_games")]
    table = pl.DataFrame(
        {
            "statistic (mean)": stats,
            **{
                wrap_label(row["strategy"], 18): [f"{row[name]:.3g}" for name in stats]
                for row in means.iter_rows(named=True)
            },
            "what it counts": [wrap_label(doc_of.get(name, ""), 60) for name in stats],
        }
    )
    rows = len(stats) + sum(text.count("\n") for text in table["what it counts"])
    return table_figure(
        table,
        "What each strategy does in a game",
        "Each cell is the average, over every game a strategy played (one value per seat it held), "
        "of a count the game records per seat; the last column says what it counts. Read it "
        "beside the win rates: it shows how a strategy wins or loses, not whether it does.",
        font_size=9 if rows > 10 else 11,
        line_height=min(0.06, 0.66 / (rows + 1)),
    )
