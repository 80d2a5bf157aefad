"""Pure functions from analysis tables to report pages (reports/toolkit.py), one page each (or
a list of pages where a table or ranking continues)."""

import math
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.ticker import NullFormatter, PercentFormatter

from analyses.card_impact import OUTCOMES, CardImpactTable
from analyses.impact import ImpactGroup
from analyses.length import GameLength
from reports import takeaways
from reports.colors import Palette, seat_color
from reports.toolkit import (
    SMALL_SIZE,
    TEXT_SIZE,
    ReportPage,
    label,
    legend,
    literal,
    percent,
    table_pages,
    wrap_label,
)

NEUTRAL_COLOR = "#4C72B0"  # bars that are not strategies or seats (card values, endings)
CUT_OFF_COLOR = "#DD8452"
SIGNIFICANCE = 0.05


def _rate_bars(
    ax: Axes,
    labels: list[str],
    table: pl.DataFrame,
    trials: str,
    reference: float | None,
    reference_label: str,
    colors: list[str] | str = NEUTRAL_COLOR,
    rate_column: str = "win_rate",
    rate_name: str = "win rate",
) -> None:
    """Horizontal rate bars with Wilson error bars, first row on top, a dashed reference line
    (if any), and each bar's rate, interval and number of trials written right of the plot."""
    rate = table[rate_column].to_numpy()
    low = table["ci_low"].to_numpy()
    high = table["ci_high"].to_numpy()
    rows = np.arange(len(labels))
    ax.barh(rows, rate, color=colors, height=0.6)
    ax.errorbar(rate, rows, xerr=[rate - low, high - rate], fmt="none", ecolor="black", capsize=4)
    for row, value, lo, hi, n in zip(rows, rate, low, high, table[trials], strict=True):
        ax.text(
            1.02,
            row,
            f"{percent(value)}  [{percent(lo)}, {percent(hi)}]\nn = {n:,}",
            transform=ax.get_yaxis_transform(),  # x in axes fraction, y at the bar
            va="center",
            fontsize=TEXT_SIZE,
        )
    if reference is not None:
        ax.axvline(reference, color="black", linestyle="--", linewidth=1, label=reference_label)
        handles, names = ax.get_legend_handles_labels()
        legend(ax, handles, names, loc="lower right", bbox_to_anchor=(1.0, 1.0))
    ax.set_yticks(rows, labels, fontsize=TEXT_SIZE)
    ax.invert_yaxis()
    right = np.nanmax([*high, 0.0 if reference is None else reference])
    ax.set_xlim(0, min(1.0, right * 1.1) if right > 0 else 1.0)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.tick_params(labelsize=TEXT_SIZE)
    ax.set_xlabel(f"{rate_name} (bars: 95% Wilson confidence interval)")


def _bar_page(page: ReportPage) -> Axes:
    """The plot area of a bar page: labels left, per-bar numbers right."""
    return page.axes_in_body(left=2.2, right=2.3, bottom=0.45, top=0.3)


def seat_winrate_figure(seats: pl.DataFrame, players: int) -> ReportPage:
    """Win rate per seat (``winrates.by_seat``) against the fair share 1/players."""
    page = ReportPage(
        "Win rate by seat",
        takeaways.fair_share(seats, "seat", 1 / players, "seat"),
        "Each bar is how often the player in that seat won, over all games with a result; seat "
        "0 moves first. The black whiskers show the 95% confidence interval, and the dashed line "
        "is the fair share (1 / number of players): a seat whose whiskers do not reach the line "
        "is favoured or handicapped by its position.",
    )
    labels = [f"seat {seat}" + (" (first)" if seat == 0 else "") for seat in seats["seat"]]
    ax = _bar_page(page)
    colors = [seat_color(seat) for seat in seats["seat"]]
    _rate_bars(ax, labels, seats, "games", 1 / players, f"fair share 1/{players}", colors)
    ax.set_ylabel("seat (order of play)")
    return page


def strategy_winrate_figure(strategies: pl.DataFrame, players: int, palette: Palette) -> ReportPage:
    """Win rate per strategy (``winrates.by_strategy``) against the fair share 1/players."""
    page = ReportPage(
        "Win rate by strategy",
        takeaways.fair_share(strategies, "strategy", 1 / players, "strategy"),
        "Each bar is how often a seat played by that strategy won (n counts seats played, so a "
        "strategy seated twice in a game counts twice). Whiskers are 95% confidence intervals; "
        "the dashed line is the fair share (1 / number of players). Strategies whose whiskers "
        "do not overlap really differ in strength. Each strategy keeps its colour on every page.",
    )
    labels = [label(name, 1.9) for name in strategies["strategy"]]
    ax = _bar_page(page)
    colors = [palette.color(name) for name in strategies["strategy"]]
    _rate_bars(ax, labels, strategies, "games", 1 / players, f"fair share 1/{players}", colors)
    ax.set_ylabel("strategy")
    return page


def impact_figure(group: ImpactGroup) -> ReportPage:
    """Win rate per category value of one impact group, sorted from strongest to weakest."""
    columns = ", ".join(group.columns)
    page = ReportPage(
        f"Impact of {group.title}" + (" (observational)" if group.observational else ""),
        takeaways.impact(group.title, group.table, group.overall_win_rate, group.observational),
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
    ax = _bar_page(page)
    _rate_bars(
        ax,
        [label(value, 1.9) for value in table["value"]],
        table,
        "seat_rows",
        group.overall_win_rate,
        f"all seats: {percent(group.overall_win_rate)}",
    )
    ax.set_ylabel(literal(group.title))
    return page


def impact_by_strategy_figure(group: ImpactGroup, palette: Palette) -> ReportPage:
    """Win rate per category value of one impact group for each strategy of the lineup: a dot
    per strategy and value with its 95% interval, values in the pooled page's order."""
    table = group.by_strategy
    order = group.table.sort("win_rate", descending=True, nulls_last=True)["value"].to_list()
    strategies = list(dict.fromkeys(table["strategy"]))
    page = ReportPage(
        f"Impact of {group.title}, by strategy",
        takeaways.impact_by_strategy(group.title, table),
        f"Each dot is the win rate of the seats of one strategy that had this {group.title}, "
        "with its 95% confidence interval; the dashed line is the win rate of all seats. The "
        "pooled page mixes the strategies that happened to hold each value; here each strategy "
        "is apart. Compared across seats, not an intervention: what a component does to the "
        "game is measured by `powerlab impact`.",
    )
    ax = page.axes_in_body(left=2.2, right=0.3, bottom=0.45, top=0.6)
    spread = 0.6 / max(len(strategies), 1)
    for k, strategy in enumerate(strategies):
        rows = table.filter(pl.col("strategy") == strategy)
        y = np.array([order.index(v) for v in rows["value"]]) - 0.3 + spread * (k + 0.5)
        rate, low, high = (rows[c].to_numpy() for c in ("win_rate", "ci_low", "ci_high"))
        color = palette.color(strategy)
        ax.errorbar(rate, y, xerr=[rate - low, high - rate], fmt="o", color=color, capsize=2)
    ax.axvline(group.overall_win_rate, color="black", linestyle="--", linewidth=1)
    handles = [ax.plot([], [], "o", color=palette.color(name))[0] for name in strategies]
    legend(ax, handles, strategies, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=4)
    ax.set_yticks(range(len(order)), [label(value, 1.9) for value in order], fontsize=TEXT_SIZE)
    ax.set_ylim(len(order) - 0.5, -0.5)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.tick_params(labelsize=TEXT_SIZE)
    ax.set_xlabel("win rate (95% Wilson confidence interval)")
    ax.set_ylabel(literal(group.title))
    return page


CARDS_PER_PAGE = 25


def card_impact_figures(impact: CardImpactTable) -> list[ReportPage]:
    """Cards ranked by improvement when drawn (IWD), strongest first, ``CARDS_PER_PAGE`` a page:
    bars with 95% intervals, and each card's drawn / played / never-seen win rates beside."""
    ranked = impact.table.sort("iwd", descending=True, nulls_last=True)
    pages = []
    n_pages = max(1, math.ceil(ranked.height / CARDS_PER_PAGE))
    for number in range(n_pages):
        first = number * CARDS_PER_PAGE
        part = ranked.slice(first, CARDS_PER_PAGE)
        of = f" ({number + 1} of {n_pages})" if n_pages > 1 else ""
        page = ReportPage(
            f"Card impact: {impact.title}{of}",
            takeaways.card_impact(ranked, first + 1, first + part.height),
            "Improvement when drawn (IWD) = win rate of seats that drew the card minus win rate "
            "of seats that never saw it, with its 95% interval; cards ranked from the most to "
            "the least helpful. Beside each bar: win rate when drawn, when played and when never "
            f"seen, and how many seats drew it. All seats together won "
            f"{percent(impact.win_rate)} of {impact.seat_rows:,} seat-games. Seats that draw "
            "more cards (longer games, draw-heavy play) see more of every card, which moves all "
            "cards together: compare cards with each other rather than with zero.",
        )
        ax = page.axes_in_body(left=1.6, right=3.3, bottom=0.45, top=0.35)
        rows = np.arange(part.height)
        iwd = part["iwd"].to_numpy()
        low = part["iwd_ci_low"].to_numpy()
        high = part["iwd_ci_high"].to_numpy()
        colors = [NEUTRAL_COLOR if value >= 0 else CUT_OFF_COLOR for value in iwd]
        ax.barh(rows, iwd, color=colors, height=0.6)
        ax.errorbar(iwd, rows, xerr=[iwd - low, high - iwd], fmt="none", ecolor="black", capsize=2)
        for row, record in zip(rows, part.iter_rows(named=True), strict=True):
            ax.text(
                1.02,
                row,
                " · ".join(percent(record[f"{outcome}_win_rate"]) for outcome in OUTCOMES)
                + f"   n = {record['drawn_seats']:,}",
                transform=ax.get_yaxis_transform(),
                va="center",
                fontsize=SMALL_SIZE,
            )
        ax.text(
            1.02,
            1.01,
            "win rate when drawn · played · never seen,\nseats that drew it (n)",
            transform=ax.transAxes,
            va="bottom",
            fontsize=SMALL_SIZE,
        )
        ax.axvline(0, color="black", linewidth=1)
        ax.set_yticks(rows, [literal(card) for card in part["card"]], fontsize=SMALL_SIZE)
        ax.set_ylim(CARDS_PER_PAGE - 0.5, -0.5)  # the same bar height on every page
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.tick_params(axis="x", labelsize=TEXT_SIZE)
        ax.set_xlabel("improvement when drawn (percentage points, 95% interval)")
        pages.append(page)
    return pages


def category_figure(shares: pl.DataFrame, doc: str) -> ReportPage:
    """``outcomes.category_shares`` of one game column as a page titled by what it records."""
    heading, _, detail = doc.partition(": ")
    page = ReportPage(
        heading[:1].upper() + heading[1:],
        takeaways.category(shares),
        f"The share of all {int(shares['total'][0]):,} games in which the game recorded each "
        "value, with its 95% confidence interval: how games end, and how often each ending "
        "happens at this table." + (f" Values: {detail}." if detail else ""),
    )
    ax = _bar_page(page)
    labels = [label(value, 1.9) for value in shares["value"]]
    _rate_bars(
        ax, labels, shares, "games", None, "", rate_column="share", rate_name="share of games"
    )
    return page


def game_length_figure(length: GameLength) -> ReportPage:
    """Histogram of turns per game, games cut off by the cap stacked in their own colour."""
    page = ReportPage(
        "Game length",
        takeaways.game_length(length),
        "How many games lasted each number of turns. Orange games were cut off by the "
        f"simulation's turn cap ({percent(length.cut_off_share)} of all games) rather than "
        "ended by the rules. Over the games with a result, the solid line is the mean, the "
        "dashed line the median, and the dotted lines enclose the middle 80% of games.",
    )
    turns = length.counts["turns"].to_numpy()
    cut_off = length.counts["cut_off"].to_numpy()
    finished = length.counts["games"].to_numpy() - cut_off
    ax = page.axes_in_body(left=1.0, right=2.6, bottom=0.45)
    ax.bar(turns, finished, width=1.0, color=NEUTRAL_COLOR, label="ended by the rules")
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
    ax.tick_params(labelsize=TEXT_SIZE)
    handles, names = ax.get_legend_handles_labels()
    legend(ax, handles, names, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return page


def convergence_figure(curves: pl.DataFrame, palette: Palette) -> ReportPage:
    """``winrates.convergence``: each strategy's ± margin of win rate against games played."""
    page = ReportPage(
        "Convergence",
        takeaways.convergence(curves),
        "The ± margin of each strategy's win rate (half its 95% confidence interval) after the "
        "first N games of the run. It shrinks like 1/√N, so halving it takes four times as many "
        "games; differences between strategies smaller than the final margin are not resolved "
        "by this run.",
    )
    ax = page.axes_in_body(left=1.0, right=2.6, bottom=0.45)
    for (name,), curve in curves.group_by("strategy", maintain_order=True):
        ax.plot(
            curve["games_played"],
            curve["half_width"],
            marker="o",
            markersize=3,
            label=wrap_label(name, 2.2),
            **palette.line(name),
        )
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(lambda value, _: f"{value:,.0f}")  # plain numbers, not 10^k
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("games played (log scale)")
    ax.set_ylabel("± margin of the win rate (95%)")
    ax.tick_params(labelsize=TEXT_SIZE)
    ax.grid(True, which="both", alpha=0.3)
    handles, names = ax.get_legend_handles_labels()
    legend(ax, handles, names, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return page


def seat_advantage_figures(result: dict[str, Any]) -> list[ReportPage]:
    """``winrates.seat_advantage`` as a table of wins per seat, with the verdict on top."""
    games = result["games"]
    table = pl.DataFrame(
        {
            "seat": list(range(len(result["wins"]))),
            "wins": result["wins"],
            "expected if fair": result["expected"],
            "share of wins": [percent(w / games) if games else "n/a" for w in result["wins"]],
        }
    )
    statistic = (
        f"chi-square = {result['statistic']:.4g} with {result['dof']} degrees of freedom, "
        f"p = {result['p_value']:.3g}. "
        if not math.isnan(result["p_value"])
        else ""
    )
    return table_pages(
        table,
        "Seat advantage test",
        takeaways.seat_test(result, SIGNIFICANCE),
        f"Wins per seat over the {games:,} games with a single winner, compared with an equal "
        f"split. {statistic}A small p-value (below {SIGNIFICANCE}) means the differences "
        "between seats are too large to be luck.",
        size=11,
    )


def metrics_figures(metrics: pl.DataFrame, players: int) -> list[ReportPage]:
    """``metrics.ludii_metrics`` as a table."""
    return table_pages(
        metrics,
        "Balance metrics",
        takeaways.balance(metrics, players),
        "Headline numbers named after the Ludii game-evaluation metrics; the doc column says "
        "what each measures. Balance near 1 and AdvantageP1 near the fair share mean the seats "
        "are even; a high Timeouts share means many games never reached an end.",
        size=11,
        widest=(2.0, 1.4, 7.0),
    )


def _docs(docs: list[dict[str, str]]) -> dict[str, str]:
    return {column["name"]: column["doc"] for column in docs}


def winner_stats_figures(means: pl.DataFrame, docs: list[dict[str, str]]) -> list[ReportPage]:
    """``seat_stats.winner_stat_means`` as a table: winning seats beside all other seats."""
    doc_of = _docs(docs)

    def shown(value: float | None) -> str:
        return "–" if value is None else f"{value:.3g}"

    table = pl.DataFrame(
        {
            "statistic (mean)": means["statistic"],
            "winning seats": [shown(v) for v in means["winning_seats"]],
            "other seats": [shown(v) for v in means["other_seats"]],
            "what it counts": [doc_of.get(n, "") for n in means["statistic"]],
        }
    )
    return table_pages(
        table,
        "How winners win",
        takeaways.winner_stats(means),
        "Each count the game records per seat, averaged over the seats that won a game and over "
        "all other seats (every strategy together; a shared win counts for each sharer). Where "
        "winners' and others' averages differ most is how games are won at this table. "
        "OBSERVATIONAL: a count may be the cause of winning, its effect (a winner's game runs "
        "differently) or neither.",
        widest=(2.2, 1.3, 1.3, 5.5),
    )


def seat_stats_figures(means: pl.DataFrame, docs: list[dict[str, str]]) -> list[ReportPage]:
    """``seat_stats.seat_stat_means`` as a table: one row per statistic, one column per
    strategy."""
    doc_of = _docs(docs)
    stats = [name for name in means.columns if name not in ("strategy", "seat_games")]
    table = pl.DataFrame(
        {
            "statistic (mean)": stats,
            **{
                row["strategy"]: [f"{row[name]:.3g}" for name in stats]
                for row in means.iter_rows(named=True)
            },
            "what it counts": [doc_of.get(name, "") for name in stats],
        }
    )
    width = min(1.3, 5.5 / max(1, means.height))
    return table_pages(
        table,
        "What each strategy does in a game",
        takeaways.strategy_stats(means),
        "Each cell is the average, over every game a strategy played (one value per seat it "
        "held), of a count the game records per seat; the last column says what it counts. Read "
        "it beside the win rates: it shows how a strategy wins or loses, not whether it does.",
        widest=(2.0, *([width] * means.height), 4.0),
    )
