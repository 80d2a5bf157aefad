"""Takeaway sentences: what each figure shows, in words, from the numbers it draws.

Every function takes the same analysis tables as its page (and the facts of analyses/headlines)
and returns one sentence a designer can read without the plot. Percentages are of games, gaps
and differences are in percentage points, intervals are 95%.
"""

import math

import polars as pl

from analyses.headlines import (
    category_ranges,
    fair_share_gaps,
    paired_overview,
    rating_lead,
    response_ranges,
    side,
    strategy_contrasts,
    winner_contrasts,
)
from analyses.length import GameLength
from reports.toolkit import percent, points
from simcore.workflows.study import swept_value


def _interval(low: float, high: float, unit=points) -> str:
    return f"[{unit(low)}, {unit(high)}]"


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


PLURAL = {"seat": "seats", "strategy": "strategies"}


def fair_share(table: pl.DataFrame, key: str, fair: float, noun: str) -> str:
    """Who is clearly off the fair share, and how far the rest are from it. ``key`` names the
    rows (``seat`` or ``strategy``); ``noun`` (seat or strategy) is how a row is called."""
    gaps = fair_share_gaps(table, fair).drop_nulls("gap").filter(~pl.col("gap").is_nan())
    if gaps.is_empty():
        return f"No {noun} has a game with a result, so nothing can be said about fairness."
    clear = gaps.filter(pl.col("side") != "includes")
    rest = gaps.filter(pl.col("side") == "includes")
    if clear.is_empty():
        top = gaps.row(0, named=True)
        return (
            f"No {noun} is clearly off its fair share of {percent(fair)}: every interval "
            f"includes it (largest gap: {_name(top[key], noun)}, {points(top['gap'])} points "
            f"{_interval(top['gap_low'], top['gap_high'])})."
        )
    # The most favoured and the most handicapped, or the two furthest off on one side.
    ranked = clear.sort("gap", descending=True)
    named_rows = [ranked.row(0, named=True), ranked.row(-1, named=True)]
    if named_rows[0]["side"] == named_rows[1]["side"]:
        named_rows = [row for row in clear.head(2).iter_rows(named=True)]
    named_rows = list({row[key]: row for row in named_rows}.values())
    named = [
        f"{_name(row[key], noun)} wins {points(abs(row['gap']), sign=False)} points "
        f"{row['side']} its fair share {_interval(row['gap_low'], row['gap_high'])}"
        for row in named_rows
    ]
    more = clear.height - len(named)
    sentence = "; ".join(named)
    if more:
        sentence += f"; {more} other {noun if more == 1 else PLURAL[noun]} clearly off it too"
    if rest.height:
        within = rest["gap"].abs().max()
        others = f"the other {PLURAL[noun] if rest.height > 1 else noun}"
        sentence += f"; {others} within {points(within, sign=False)} points"
    if noun == "seat":  # a strategy's name keeps its case, even first
        sentence = sentence[0].upper() + sentence[1:]
    return sentence + "."


def _name(value, noun: str) -> str:
    return f"seat {value}" if noun == "seat" else str(value)


def seat_test(result: dict, significance: float) -> str:
    p_value = result["p_value"]
    if math.isnan(p_value):
        return "No game had a single winner, so the seat order cannot be tested."
    if p_value < significance:
        return (
            f"The seat order affects who wins: wins per seat are too uneven to be luck "
            f"(chi-square p = {p_value:.2g} over {result['games']:,} games)."
        )
    return (
        f"No evidence that the seat order affects who wins (chi-square p = {p_value:.2g} "
        f"over {result['games']:,} games with a single winner)."
    )


def balance(metrics: pl.DataFrame, players: int) -> str:
    value = dict(zip(metrics["metric"], metrics["value"], strict=True))
    parts = [
        f"Balance {value['Balance']:.3f}: the seats' win rates lie within "
        f"{points(1 - value['Balance'], sign=False)} points of each other",
        f"the first seat wins {percent(value['AdvantageP1'])} (fair: {percent(1 / players)})",
    ]
    if "StrategyBalance" in value:
        spread = points(1 - value["StrategyBalance"], sign=False)
        parts.insert(1, f"the strategies' within {spread} points (StrategyBalance)")
    if value["Timeouts"]:
        parts.append(f"{percent(value['Timeouts'])} of games were cut off by the turn cap")
    return "; ".join(parts) + "."


def game_length(length: GameLength) -> str:
    if length.mean is None:
        return "Every game was cut off by the simulation's turn cap: none ended by the rules."
    sentence = (
        f"Games last {length.mean:.1f} turns on average (median {length.median:g}; the middle "
        f"80% from {length.p10:g} to {length.p90:g} turns)"
    )
    if length.cut_off_share:
        sentence += f"; {percent(length.cut_off_share)} were cut off by the turn cap"
    return sentence + "."


def category(shares: pl.DataFrame) -> str:
    first = shares.row(0, named=True)
    sentence = (
        f"Most games: {first['value']}, {percent(first['share'])} "
        f"{_interval(first['ci_low'], first['ci_high'], percent)}"
    )
    if shares.height > 1:
        second = shares.row(1, named=True)
        sentence += f"; then {second['value']}, {percent(second['share'])}"
    return sentence + f" (of {shares['total'][0]:,} games)."


def _amount(value: float) -> str:
    return f"{value:.3g}"


def strategy_stats(means: pl.DataFrame) -> str:
    contrasts = strategy_contrasts(means)
    if contrasts.is_empty():
        return "Only one strategy played, so there is nothing to compare."
    parts = [
        f"{row['statistic']} ({row['highest']} {_amount(row['high'])} a game, "
        f"{row['lowest']} {_amount(row['low'])})"
        for row in contrasts.head(2).iter_rows(named=True)
    ]
    return "Strategies differ most in " + " and ".join(parts) + "."


def winner_stats(means: pl.DataFrame) -> str:
    contrasts = winner_contrasts(means)
    if contrasts.is_empty():
        return "No seat won a game, so winners cannot be compared with the others."
    parts = [
        f"{row['statistic']} ({_amount(row['winning_seats'])} a game against "
        f"{_amount(row['other_seats'])})"
        for row in contrasts.head(2).iter_rows(named=True)
    ]
    return "Observational: winners stand out most in " + " and ".join(parts) + "."


def impact(title: str, table: pl.DataFrame, overall: float, observational: bool) -> str:
    ranked = table.drop_nulls("win_rate").filter(~pl.col("win_rate").is_nan())
    if ranked.is_empty():
        return f"No seat with a {title} has a game with a result."
    ranked = ranked.sort("win_rate", descending=True)
    best, worst = ranked.row(0, named=True), ranked.row(-1, named=True)
    sentence = (
        f"Seats with {best['value']} win {percent(best['win_rate'])} "
        f"{_interval(best['ci_low'], best['ci_high'], percent)}, "
        f"{points(best['win_rate'] - overall)} points against all seats; "
        f"with {worst['value']} {percent(worst['win_rate'])} "
        f"({points(worst['win_rate'] - overall)})."
    )
    lead = "Observational: " if observational else "Compared across seats: "
    return lead + sentence + " What it does to the game: `powerlab impact`."


def impact_by_strategy(title: str, table: pl.DataFrame) -> str:
    """Each strategy's best value of an impact group, and whether they agree."""
    ranked = table.drop_nulls("win_rate").filter(~pl.col("win_rate").is_nan())
    if ranked.is_empty():
        return f"No seat with a {title} has a game with a result."
    ranked = ranked.sort("win_rate", descending=True)
    best = ranked.group_by("strategy", maintain_order=True).first()
    parts = [
        f"{row['strategy']} with {row['value']} ({percent(row['win_rate'])})"
        for row in best.sort("strategy").iter_rows(named=True)
    ]
    agree = best["value"].n_unique() == 1
    return (
        ("Every strategy does best with the same value: " if agree else "The best value "
         "depends on the strategy: ") + "; ".join(parts) + "."
    )  # fmt: skip


def card_impact(table: pl.DataFrame, first: int, last: int) -> str:
    sides = [side(lo, hi) for lo, hi in zip(table["iwd_ci_low"], table["iwd_ci_high"], strict=True)]
    ranked = table.drop_nulls("iwd").filter(~pl.col("iwd").is_nan()).sort("iwd", descending=True)
    if ranked.is_empty():
        return "No card was drawn in a game with a result."
    best, worst = ranked.row(0, named=True), ranked.row(-1, named=True)
    return (
        f"Observational: of {table.height} cards, {sides.count('above')} clearly help when "
        f"drawn and {sides.count('below')} clearly hurt; most helpful {best['card']} "
        f"({points(best['iwd'])} points), least {worst['card']} ({points(worst['iwd'])}). "
        f"This page: ranks {first} to {last}. What a card does: `powerlab impact`."
    )


def convergence(curves: pl.DataFrame) -> str:
    final = curves.sort("games_played").group_by("strategy", maintain_order=True).last()
    final = final.drop_nulls("half_width").filter(~pl.col("half_width").is_nan())
    if final.is_empty():
        return "No strategy has a game with a result yet."
    widest = final.sort("half_width", descending=True).row(0, named=True)
    narrowest = final.sort("half_width").row(0, named=True)
    games = int(final["games_played"].max())
    widest_margin = points(widest["half_width"], 2, sign=False)
    narrowest_margin = points(narrowest["half_width"], 2, sign=False)
    return (
        f"After {games:,} games every win rate is known to ±{widest_margin} points or better "
        f"(widest: {widest['strategy']}; narrowest: {narrowest['strategy']}, "
        f"±{narrowest_margin}); halving that takes 4 times the games."
    )


def response(rows: pl.DataFrame, axis: str, series: list[str], describe) -> str:
    """The line of a response page that moves most against its fair share over ``axis`` (the
    fair share itself moves with the player count) and whether the move is clear of the noise;
    ``describe(row)`` names a line."""
    gaps = fair_share_gaps(rows)
    ranges = response_ranges(gaps, axis, series, "gap", ("gap_low", "gap_high"))
    if ranges.is_empty():
        return "No cell has a game with a result."
    top = ranges.row(0, named=True)
    verdict = (
        "its 95% intervals at the two ends do not overlap"
        if top["apart"]
        else "within the noise: the intervals at the two ends overlap"
    )
    (first_at, first), (last_at, last) = _in_order(top)
    sentence = (
        f"Largest move against the fair share over {axis}: {describe(top)}, from "
        f"{points(first)} points at {swept_value(axis, first_at)} to {points(last)} at "
        f"{swept_value(axis, last_at)} "
        f"({verdict})"
    )
    if ranges.height > 1:
        rest = ranges.slice(1)["change"].max()
        sentence += f"; every other line moves {points(rest, sign=False)} points or less"
    return sentence + "."


def first_seat(rows: pl.DataFrame, describe) -> str:
    """Seat 0 (the first player) against its fair share over the cells of a seat page: where it
    is clearly off, and its largest gap."""
    gaps = fair_share_gaps(rows.filter(pl.col("name") == "seat:0")).drop_nulls("gap")
    gaps = gaps.filter(~pl.col("gap").is_nan())
    if gaps.is_empty():
        return "Seat 0 has no game with a result."
    top = gaps.row(0, named=True)
    above = gaps.filter(pl.col("side") == "above").height
    below = gaps.filter(pl.col("side") == "below").height
    where = describe(top).removeprefix("seat 0").strip(" ()")
    return (
        f"Seat 0, the first player, is clearly above its fair share in {above} of "
        f"{gaps.height} points and clearly below in {below}; its largest gap: "
        f"{points(top['gap'])} points {_interval(top['gap_low'], top['gap_high'])}"
        + (f" at {where}" if where else "")
        + "."
    )


def stat_response(
    rows: pl.DataFrame, axis: str, series: list[str], stats: list[str], describe
) -> str:
    """The statistic and series whose mean changes most (relative to its size) over ``axis``."""
    best = None
    for stat in stats:
        ranges = response_ranges(rows, axis, series, value=stat)
        for row in ranges.iter_rows(named=True):
            scale = max(abs(row["high"]), abs(row["low"]))
            relative = 0.0 if scale == 0 else row["change"] / scale
            if best is None or relative > best[0]:
                best = (relative, stat, row)
    if best is None or best[0] == 0:
        return f"No statistic changes over {axis}."
    _, stat, row = best
    (first_at, first), (last_at, last) = _in_order(row)
    return (
        f"Largest change: {stat.removeprefix('mean_')} of {describe(row)}, from "
        f"{_amount(first)} a game at {axis} = {swept_value(axis, first_at)} to {_amount(last)} at "
        f"{swept_value(axis, last_at)}."
    )


def _in_order(row: dict) -> list[tuple]:
    """A response range's two ends, the smaller swept value first when the values are
    numbers."""
    ends = [(row["low_at"], row["low"]), (row["high_at"], row["high"])]
    numeric = all(isinstance(at, int | float) for at, _ in ends)
    return sorted(ends, key=lambda end: end[0]) if numeric else ends


def category_cells(table: pl.DataFrame) -> str:
    ranges = category_ranges(table)
    parts = [
        f"{row['value']} ends {percent(row['low'], 0)} to {percent(row['high'], 0)} of a cell's "
        "games"
        if row["low"] != row["high"]
        else f"{row['value']} ends {percent(row['low'], 0)} of every cell's games"
        for row in ranges.head(2).iter_rows(named=True)
    ]
    sentence = "; ".join(parts)
    return sentence[:1].upper() + sentence[1:] + "."


def paired(rows: pl.DataFrame, describe) -> str:
    """How many paired differences are clearly positive or negative, and the largest one."""
    overview = paired_overview(rows)
    if overview["rows"] == 0:
        return "No pair of cells shares a strategy to compare."
    largest = max((overview["largest"], overview["smallest"]), key=lambda row: abs(row["diff"]))
    return (
        f"Of {_count(overview['rows'], 'paired difference')}, {overview['above']} "
        f"{'is' if overview['above'] == 1 else 'are'} clearly above zero and "
        f"{overview['below']} clearly below; the largest: {describe(largest)}, "
        f"{points(largest['diff'])} points {_interval(largest['ci_low'], largest['ci_high'])}."
    )


def matchups(matchups_table: pl.DataFrame, fair: float) -> str:
    gaps = fair_share_gaps(matchups_table, fair).drop_nulls("gap")
    clear = gaps.filter(pl.col("side") != "includes")
    if gaps.is_empty():
        return "No two strategies met."
    top = (clear if clear.height else gaps).row(0, named=True)
    lead = (
        "The largest edge"
        if clear.height
        else "No pairing is clearly off the fair share; the largest gap"
    )
    return (
        f"{lead}: {top['strategy']} wins {percent(top['win_rate'])} "
        f"{_interval(top['ci_low'], top['ci_high'], percent)} of the games with "
        f"{top['opponent']} at the table (fair share {percent(fair)}); "
        f"{clear.height} of {gaps.height} pairings are clearly off it."
    )


def ratings(table: pl.DataFrame) -> str:
    lead = rating_lead(table)
    if lead is None:
        return "Only one strategy: nothing to rate."
    first, second = lead["first"], lead["second"]
    verdict = "clearly ahead of" if lead["clear"] else "not clearly ahead of"
    return (
        f"{first['strategy']} is rated highest ({first['rating']:+.0f} "
        f"[{first['ci_low']:+.0f}, {first['ci_high']:+.0f}]), {verdict} {second['strategy']} "
        f"({second['rating']:+.0f} [{second['ci_low']:+.0f}, {second['ci_high']:+.0f}])."
    )


# --- meta-game pages (reports/meta.py) ----------------------------------------------------------


def field_edges(labels: list[str], matrix, fair: float) -> str:
    """The largest edge of a strategy over a field of one other strategy, and how many pairings
    are above the fair share."""
    edges = matrix - fair
    r, c = divmod(int(edges.argmax()), edges.shape[1])
    above = int((edges > 0).sum())
    return (
        f"The largest edge: {labels[r]} wins {percent(matrix[r, c])} when every other seat plays "
        f"{labels[c]} (fair share {percent(fair)}); {above} of {edges.size} pairings are above "
        "the fair share."
    )


def equilibrium(solution: dict) -> str:
    """The equilibrium mix's support with its intervals, and dominance."""
    labels, found = solution["labels"], solution["equilibrium"]
    dominant = solution["dominant"]["strategy"]
    tail = f"; {dominant} dominates every other strategy" if dominant else ""
    if found is None:
        return f"No symmetric equilibrium was found (gambit's logit tracer and pure search){tail}."
    support = [
        f"{labels[j]} {percent(p, 0)} {_interval(lo, hi, lambda v: percent(v, 0))}"
        for j, (p, lo, hi) in enumerate(
            zip(found["mix"], found["mix_ci_low"], found["mix_ci_high"], strict=True)
        )
        if p > 0
    ]
    return (
        f"The equilibrium mix plays {'; '.join(support)}, winning {percent(found['value'])} per "
        f"seat{tail}."
    )


def regrets(solution: dict) -> str:
    """The strategy outside the mix closest to being worth playing."""
    labels, found = solution["labels"], solution["equilibrium"]
    if found is None:
        return "No symmetric equilibrium was found, so there are no regrets against it."
    outside = [(r, j) for j, (r, p) in enumerate(zip(found["regrets"], found["mix"], strict=True))
               if p == 0]  # fmt: skip
    if not outside:
        return "Every strategy is part of the equilibrium mix: none loses by deviating to it."
    regret, j = max(outside)
    return (
        f"Of the {len(outside)} strategies outside the mix, {labels[j]} comes closest: a seat "
        f"switching to it gains {points(regret)} points "
        f"{_interval(found['regret_ci_low'][j], found['regret_ci_high'][j])}."
    )


def alpharank(solution: dict) -> str:
    """The alpha-rank order and how often the first strategy stays first over resamples."""
    ranking = solution["alpharank"]
    alpha = ranking["headline_alpha"]
    order = ranking["order"]
    if ranking["mass"][str(alpha)] is None:
        return f"At alpha {alpha:g} the ranking is not unique; across the other alphas: " + (
            " > ".join(order) + "."
        )
    first = order[0].split(" = ")[0]
    share = ranking["first_share"][solution["labels"].index(first)]
    stays = "" if share is None else f", first in {percent(share, 0)} of the resamples"
    return f"Alpha-rank at alpha {alpha:g}: {' > '.join(order)} ({first}{stays})."


# --- tuning pages (reports/tune.py) -------------------------------------------------------------


def tuning(summary: dict) -> str:
    """The tuning's answer: the winner's fresh-seed win rate and its paired gain over the
    starting parameters, with the cut-off shares the search counted as lost."""
    fresh = summary["fresh"]
    return (
        f"{summary['best']} wins {percent(fresh['win_rate'])} "
        f"{_interval(fresh['ci_low'], fresh['ci_high'], percent)} of {fresh['games']:,} fresh "
        f"games (seed {fresh['seed']}), {points(fresh['diff'])} points "
        f"{_interval(fresh['diff_ci_low'], fresh['diff_ci_high'])} against its starting "
        f"parameters ({percent(fresh['baseline_win_rate'])}) on the same games; fair share "
        f"{percent(fresh['fair_share'])}; cut off by the cap: {percent(fresh['cut_off_share'])} "
        f"(starting parameters {percent(fresh['baseline_cut_off_share'])})."
    )


def settling(summary: dict) -> str:
    """Whether the search had settled when its budget ran out, and the budget that would tell."""
    entry = summary.get("settling")
    if entry is None:  # a tuning of an earlier powerlab
        return ""
    if entry["verdict"] == "too few":
        return (
            f"Only {entry['finished']} candidates played every rung: too few to tell whether the "
            f"search had settled; --budget {entry['suggested_budget']:,} would tell."
        )
    if entry["verdict"] == "improving":
        return (
            f"Still improving: the last third of the {entry['finished']} finished candidates "
            f"beat the earlier best by {points(entry['last_third_gain'])} points on the search "
            f"games; --budget {entry['suggested_budget']:,} would tell whether it settles."
        )
    return (
        f"Settled: the last third of the {entry['finished']} finished candidates found none "
        f"better (the best was candidate {entry['best_at']})."
    )


def _value(value) -> str:
    return f"{value:.3g}" if isinstance(value, float) else str(value).lower()


def tuning_region(winner: dict, region: pl.DataFrame, names: list[str]) -> str:
    """The winner's values of ``names`` and the span of the best quarter of the finished
    candidates."""
    parts = []
    for name in names:
        values = region[f"param_{name}"].drop_nulls()
        numeric = values.dtype.is_numeric() and values.len()
        span = f" (best quarter {_value(values.min())}–{_value(values.max())})" if numeric else ""
        parts.append(f"{name}={_value(winner[name])}{span}" if name in winner else name)
    return f"The winner: {'; '.join(parts)}."


def tuning_finalists(summary: dict) -> str:
    best = summary["finalists"][0]
    return (
        f"Of {_count(len(summary['finalists']), 'finalist')}, {best['spec']} won "
        f"{percent(best['win_rate'])} over its {best['games']:,} search games per field "
        f"and was measured on fresh games."
    )


def multi_start(summary: dict) -> str:
    """How far apart the winners of a multi-start tuning's searches are, on common games."""
    race = summary["race"]
    candidates = race["candidates"]
    best, worst = candidates[0], candidates[-1]
    text = (
        f"The winners of {len(summary['starts'])} searches ({len(candidates)} distinct) on "
        f"the same {race['games']:,} race games (seed {race['seed']}): the best won "
        f"{percent(best['win_rate'])} "
        f"{_interval(best['ci_low'], best['ci_high'], percent)}"
    )
    if race["runner_up"] is None:
        return text + "; every search found it."
    runner_up = race["runner_up"]
    apart = runner_up["ci_high"] < 0
    return text + (
        f"; the runner-up {points(runner_up['diff'])} points "
        f"{_interval(runner_up['ci_low'], runner_up['ci_high'])}, the worst "
        f"{percent(worst['win_rate'])}: "
        + ("the searches reached different optima, so one search is not enough here."
           if apart else "the best two are not apart, so the optimum is stable across seeds.")
    )  # fmt: skip


def self_play(summary: dict) -> str:
    rounds = summary["rounds"]
    last = rounds[-1]
    return (
        f"After {_count(len(rounds), 'round')} the incumbent is {summary['best']}; the last "
        f"round's best response gained {points(last['diff'])} points "
        f"{_interval(last['diff_ci_low'], last['diff_ci_high'])}, so {summary['stopped']}."
    )


def skill_trace(rows: pl.DataFrame, axis: str) -> str:
    """Per player count, the search seat's win rate at the fewest and the most iterations of a
    skill trace's first panel (and its peak between them), against the fair share, and whether
    the change is clear of the noise (the 95% intervals at the two ends apart)."""
    parts = []
    for (players,), line in rows.sort("players", axis).group_by("players", maintain_order=True):
        first, last = line.row(0, named=True), line.row(-1, named=True)
        top = line.sort("win_rate", descending=True).row(0, named=True)
        apart = last["ci_low"] > first["ci_high"] or last["ci_high"] < first["ci_low"]
        peak = (
            f", peaking at {percent(top['win_rate'])} at {top[axis]:,}"
            if top[axis] not in (first[axis], last[axis])
            else ""
        )
        parts.append(
            f"at {players} players from {percent(first['win_rate'])} at {first[axis]:,} "
            f"iterations to {percent(last['win_rate'])} at {last[axis]:,}{peak} (fair share "
            f"{percent(1 / players)}; {'a clear change' if apart else 'within the noise'})"
        )
    if not parts:
        return "No cell has a game with a result."
    return "The search seat's win rate " + "; ".join(parts) + "."
