"""The report of a balance directory (simcore/workflows/balance.py): the proposed rule sets against
the
rulebook with 95% intervals, the Pareto front of the search, each candidate's measured values,
what changed against the rulebook, and how each objective responds to each searched value.
Every page is a ``ReportPage`` and meets the legibility contract."""

import itertools
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator
from scipy.stats import spearmanr

from reports.export import write_pages
from reports.toolkit import (
    GREY,
    SMALL_SIZE,
    TEXT_SIZE,
    ReportPage,
    label,
    legend,
    literal,
    table_pages,
)
from simcore.workflows import storage
from simcore.workflows.balance_spec import CATEGORICAL

FRONT_COLOR = "#DD8452"
RETUNED_COLOR = "#4C72B0"
PANELS = 6  # panels per page


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return f"{value:.3g}" if abs(value) >= 1 else f"{value:.3f}"


def _value(value) -> str:
    """A searched value: a number, a switch as a balance file writes it, a choice by name."""
    if isinstance(value, bool):
        return str(value).lower()
    return value if isinstance(value, str) else _number(value)


def _categorical(param: dict) -> bool:
    """Whether a searched value is a switch or a choice (summary.json's ``params`` entry)."""
    return param["kind"] in CATEGORICAL


def _searched(param: dict) -> str:
    """What was searched: the range of a number, the values of a switch or choice."""
    if _categorical(param):
        return ", ".join(_value(choice) for choice in param["choices"])
    return f"[{param['low']:g}, {param['high']:g}]"


def _measured(row: dict, name: str) -> str:
    return (
        f"{_number(row[f'{name}_value'])} [{_number(row[f'{name}_low'])}, "
        f"{_number(row[f'{name}_high'])}]"
    )


def _changes(row: dict, summary: dict) -> str:
    changed = [
        f"{name} {_value(summary['rulebook'][name])} → {_value(row[f'param_{name}'])}"
        for name in (p["name"] for p in summary["params"])
        if row[f"param_{name}"] != summary["rulebook"][name]
    ]
    return ", ".join(changed) or "no change"


def headline(summary: dict, front: pl.DataFrame) -> str:
    """The takeaway: the first proposal (in the order of its robust measurement) against the
    rulebook, on every objective whose paired 95% interval of the difference excludes 0."""
    setting = "re-tuned" if summary["tunings"] else "as given"
    rows = front.filter(pl.col("setting") == setting)
    if rows.height < 2:
        return "no candidate played every rung: raise trials or lower min_games"
    rulebook = rows.filter(pl.col("trial").is_null()).row(0, named=True)
    best = rows.filter(pl.col("proposal") == 1).row(0, named=True)
    better, worse = [], []
    for name in summary["objectives"]:
        text = f"{name} {_measured(best, name)} against {_measured(rulebook, name)}"
        if best[f"{name}_vs_rulebook_high"] < 0:
            better.append(text)
        elif best[f"{name}_vs_rulebook_low"] > 0:
            worse.append(text)
    parts = [f"closer to target: {'; '.join(better) or 'none beyond noise'}"]
    if worse:
        parts.append(f"further: {'; '.join(worse)}")
    return (
        f"Best proposal {best['candidate']} ({_changes(best, summary)}), {setting}, against the "
        f"rulebook's values: {'. '.join(parts)}; on {summary['search']['fresh_games']:,} fresh "
        f"games per lineup (95% intervals){_separation(summary)}."
    )


def _separation(summary: dict) -> str:
    """Whether the fresh games told the non-dominated candidates apart."""
    pairs = summary["search"]["unseparated"]
    if not pairs:
        return "; every pair of non-dominated candidates differs on some objective"
    shown = ", ".join(f"{a} and {b}" for a, b in pairs[:3])
    return f"; not told apart at this budget (raise max_final_games): {shown}"


def proposals_pages(summary: dict, front: pl.DataFrame) -> list[ReportPage]:
    rows = []
    for row in front.iter_rows(named=True):
        entry = {
            "candidate": f"{row['candidate']} ({row['setting']})",
            "changes": _changes(row, summary),
        }
        entry.update({name: _measured(row, name) for name in summary["objectives"]})
        entry["on front"] = "yes" if row["on_front"] else "no"
        rows.append(entry)
    targets = "; ".join(_target(t) for t in summary["targets"])
    return table_pages(
        pl.DataFrame(rows),
        f"{summary['title']}: proposed rule sets",
        headline(summary, front),
        "Each row: a candidate's measured values with bootstrap 95% intervals on fresh games the "
        "search never played (root seed + 1), as the file's lineup plays it ('as given') and, "
        "with [robust], after its strategies were re-tuned for that rule set ('re-tuned'). "
        f"Targets: {targets}. 'on front': no other candidate's 'as given' row is at least as "
        "close to every target and closer to one.",
    )


def _target(target: dict) -> str:
    kind = target["kind"]
    if kind == "seat_fairness":
        return "seat fairness: largest seat deviation from 1/n, 0 is fair"
    if kind == "length":
        return f"length: mean turns in [{target['low']:g}, {target['high']:g}]"
    if kind == "ended_by_rules":
        return f"ended by the rules: at least {target['at_least']:.0%}"
    if kind == "option_value":
        return (
            f"option value of {target['focal']} holding {target['fixed']}: in "
            f"[{target['low']:g}, {target['high']:g}]"
        )
    return f"variety ({target['measure']}): 0 is most varied"


def front_pages(summary: dict, trials: pl.DataFrame) -> list[ReportPage]:
    """Pairs of objectives: every candidate at its last rung, the deepest rung's front marked."""
    names = summary["objectives"]
    columns = [f"obj_{n}" for n in names]
    done = trials.filter(pl.col("state") == "complete")
    top = done.filter(pl.col("rung") == done["rung"].max())
    kinds = [next(t["kind"] for t in summary["targets"] if n.startswith(t["kind"])) for n in names]
    pairs = list(itertools.combinations(range(len(names)), 2)) or [(0, 0)]
    # Trade-offs between different kinds of objective first (fairness against length, ...)
    pairs = sorted(pairs, key=lambda p: kinds[p[0]] == kinds[p[1]])[:PANELS]
    finalists = {int(name.removeprefix("trial-")) for name in summary["finalists"]}
    page = ReportPage(
        f"{summary['title']}: the search's front",
        f"{done.height} candidates searched, {top.height} played every rung; "
        f"{len(finalists)} non-dominated ones went on to the fresh measurement.",
        "Each panel plots two objectives (distance to target, 0 is on target) of every candidate "
        "at the last rung it reached (grey: stopped early by successive halving; blue: played "
        "every rung; orange: the finalists, the front of those). With one objective, the panel "
        "plots it by trial.",
    )
    axes = page.panel_grid(len(pairs), min(3, len(pairs)), left=0.8, bottom=0.6, sharey=False,
                           wspace=0.35, hspace=0.7)  # fmt: skip
    for ax, (i, j) in zip(axes, pairs, strict=True):
        x = (lambda t: t["number"]) if i == j else (lambda t, i=i: t[columns[i]])
        chosen = top.filter(pl.col("number").is_in(sorted(finalists)))
        ax.scatter(x(done), done[columns[j]], s=10, color=GREY)
        ax.scatter(x(top), top[columns[j]], s=14, color=RETUNED_COLOR)
        ax.scatter(x(chosen), chosen[columns[j]], s=30, color=FRONT_COLOR, zorder=3)
        ax.set_xlabel(literal("trial" if i == j else names[i]), fontsize=TEXT_SIZE)
        ax.set_ylabel(literal(names[j]), fontsize=TEXT_SIZE)
        ax.tick_params(labelsize=SMALL_SIZE)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
    return [page]


def metrics_pages(summary: dict, front: pl.DataFrame) -> list[ReportPage]:
    """Per objective, each candidate's measured value with its 95% interval."""
    names = summary["objectives"]
    pages = []
    for start in range(0, len(names), PANELS):
        chunk = names[start : start + PANELS]
        page = ReportPage(
            f"{summary['title']}: measured values" + (f" ({start // PANELS + 1})" if start else ""),
            headline(summary, front),
            "One panel per objective: each candidate's measured value on fresh games with its "
            "bootstrap 95% interval (black: the file's lineup; blue: its strategies re-tuned for "
            "that rule set, with [robust]). The shaded band is the target, where it has one.",
        )
        axes = page.panel_grid(len(chunk), min(3, len(chunk)), left=1.6, bottom=0.5,
                               sharey=True, wspace=0.25, hspace=0.6)  # fmt: skip
        candidates = front["candidate"].unique(maintain_order=True).to_list()
        for ax, name in zip(axes, chunk, strict=True):
            for setting, color, shift in (("as given", "black", 0.0), ("re-tuned", RETUNED_COLOR,
                                                                        0.25)):  # fmt: skip
                rows = front.filter(pl.col("setting") == setting)
                y = [candidates.index(c) + shift for c in rows["candidate"]]
                values = rows[f"{name}_value"].to_numpy()
                err = [values - rows[f"{name}_low"].to_numpy(),
                       rows[f"{name}_high"].to_numpy() - values]  # fmt: skip
                ax.errorbar(values, y, xerr=np.clip(err, 0, None), fmt="o", color=color,
                            capsize=3, markersize=4)  # fmt: skip
            target = next(t for t in summary["targets"] if name.startswith(t["kind"]))
            _shade_target(ax, target)
            ax.set_yticks(range(len(candidates)), [label(c, 1.4) for c in candidates],
                          fontsize=SMALL_SIZE)  # fmt: skip
            ax.set_ylim(len(candidates) - 0.5, -0.5)
            ax.set_title(literal(name), fontsize=TEXT_SIZE)
            ax.tick_params(axis="x", labelsize=SMALL_SIZE)
            ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        handles = [Line2D([], [], color=c, marker="o") for c in ("black", RETUNED_COLOR)]
        legend(page, handles, ["file's lineup", "re-tuned"], loc="lower right")
        pages.append(page)
    return pages


def _shade_target(ax, target: dict) -> None:
    kind = target["kind"]
    if kind in ("length", "option_value"):
        ax.axvspan(target["low"], target["high"], color=FRONT_COLOR, alpha=0.2)
    elif kind == "ended_by_rules":
        ax.axvspan(target["at_least"], 1.0, color=FRONT_COLOR, alpha=0.2)
    else:
        ax.axvline(0.0, color=FRONT_COLOR, linestyle="--")


def changes_pages(summary: dict, front: pl.DataFrame) -> list[ReportPage]:
    rows = []
    for row in front.filter(pl.col("setting") == "as given").iter_rows(named=True):
        if row["trial"] is None:
            continue
        for param in summary["params"]:
            name = param["name"]
            old, new = summary["rulebook"][name], row[f"param_{name}"]
            if _categorical(param):
                change = "changed" if new != old else "none"
            else:
                change = f"{new - old:+.3g}"
            rows.append(
                {"candidate": row["candidate"], "value": name, "rulebook": _value(old),
                 "proposed": _value(new), "change": change, "searched": _searched(param)}
            )  # fmt: skip
    if not rows:
        return []
    return table_pages(
        pl.DataFrame(rows),
        f"{summary['title']}: changes against the rulebook",
        f"{len(rows) // len(summary['params'])} proposed rule sets, each a study file in "
        "OUT/rulesets/ that reproduces its measured values (powerlab study run).",
        "Each row: a searched value of a proposed rule set against the rulebook's (the file's "
        "rules; for a data file, the first number the path reaches in it), and what was searched: "
        "a number's range, a switch's or choice's values.",
    )


def _rank_correlation(param: dict, x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation of objective ``y`` with searched value ``x``; a switch ranks
    false below true; NaN for a choice (its values have no order) or a constant."""
    if param["kind"] == "choice" or len(set(x)) < 2 or len(set(y)) < 2:
        return np.nan
    return spearmanr(x.astype(float), y).statistic


def _scatter_x(param: dict, x: np.ndarray) -> np.ndarray:
    """Where a candidate sits along a panel's x axis: its value, or for a switch or choice the
    position of its value, spread sideways (the same spread every time) so that the candidates
    of one value do not hide each other."""
    if not _categorical(param):
        return x
    positions = np.array([param["choices"].index(v) for v in x], dtype=float)
    return positions + 0.3 * ((np.arange(len(x)) * 0.618) % 1 - 0.5)


def sensitivity_pages(summary: dict, trials: pl.DataFrame) -> list[ReportPage]:
    """Per searched value, every objective of every candidate against it, with the Spearman rank
    correlation in the panel title (none for a choice: its values have no order)."""
    done = trials.filter(pl.col("state") == "complete")
    pairs = [(p, o) for p in summary["params"] for o in summary["objectives"]]
    pages = []
    strongest = []
    for param, objective in pairs:
        x, y = done[f"param_{param['name']}"].to_numpy(), done[f"obj_{objective}"].to_numpy()
        rho = _rank_correlation(param, x, y)
        strongest.append((abs(rho) if np.isfinite(rho) else -1, param["name"], objective, rho))
    best = max(strongest)
    if best[0] >= 0:
        takeaway = (
            f"{best[2]} follows {best[1]} most closely (Spearman rank correlation {best[3]:+.2f})."
        )
    elif all(p["kind"] == "choice" for p in summary["params"]):
        takeaway = "Every searched value is a choice: compare the objectives of each choice."
    else:
        takeaway = "No searched value moves any objective in this search."
    for start in range(0, len(pairs), PANELS):
        chunk = pairs[start : start + PANELS]
        page = ReportPage(
            f"{summary['title']}: sensitivity" + (f" ({start // PANELS + 1})" if start else ""),
            takeaway,
            "One panel per searched value and objective: every candidate's objective (distance "
            "to target, at the last rung it reached; larger dots played more games) against the "
            "value (a switch's or choice's candidates spread sideways around each value); the "
            "title gives Spearman's rank correlation (near 0: the objective does not follow this "
            "value within the searched range; a switch ranks false below true; none for a "
            "choice, whose values have no order).",
        )
        axes = page.panel_grid(len(chunk), min(3, len(chunk)), left=0.8, bottom=0.6,
                               sharey=False, wspace=0.35, hspace=0.8)  # fmt: skip
        sizes = 6 + 24 * done["games"].to_numpy() / max(1, done["games"].max())
        for ax, (param, objective) in zip(axes, chunk, strict=True):
            name = param["name"]
            rho = next(r for _, n, o, r in strongest if n == name and o == objective)
            x = _scatter_x(param, done[f"param_{name}"].to_numpy())
            ax.scatter(x, done[f"obj_{objective}"], s=sizes, color=GREY)
            shown = "by choice" if param["kind"] == "choice" else f"rho {rho:+.2f}"
            ax.set_title(literal(f"{objective}: {shown}"), fontsize=TEXT_SIZE)
            ax.set_xlabel(literal(name), fontsize=SMALL_SIZE)
            ax.tick_params(labelsize=SMALL_SIZE)
            if _categorical(param):
                choices = param["choices"]
                width = ax.get_position().width * page.get_figwidth() / len(choices)
                ticks = [label(_value(c), width, SMALL_SIZE, 2) for c in choices]
                ax.set_xticks(range(len(choices)), ticks)
                ax.set_xlim(-0.5, len(choices) - 0.5)
            else:
                ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        pages.append(page)
    return pages


def report_pages(out: Path) -> tuple[dict, list[ReportPage]]:
    summary = storage.read_balance_summary(out)
    front = pl.read_parquet(out / "front.parquet")
    trials = pl.read_parquet(out / "trials.parquet")
    pages = [
        *proposals_pages(summary, front),
        *front_pages(summary, trials),
        *metrics_pages(summary, front),
        *changes_pages(summary, front),
        *sensitivity_pages(summary, trials),
    ]
    return summary, pages


def write_balance_report(out: str | Path, png_dir: str | Path | None = None) -> list[str]:
    """Write OUT/report.pdf of a balance directory (and, with ``png_dir``, every page as a PNG);
    returns the page titles."""
    out = Path(out)
    summary, pages = report_pages(out)
    return write_pages(
        pages, f"powerlab balance: {summary['title']}", f"rule-set search for {summary['game']}",
        out / "report.pdf", png_dir,
    )  # fmt: skip
