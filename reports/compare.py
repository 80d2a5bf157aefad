"""The report of ``powerlab compare``: two runs on the same seed, paired game by game."""

import json
from pathlib import Path

import polars as pl

from analyses.dataset import Run, rule_defaults
from reports.colors import Palette
from reports.export import write_pages
from reports.paired import focal_color, focal_name, forest_pages, paired_table_pages
from reports.toolkit import ReportPage, table_pages


def _settings(run: Run) -> dict[str, str]:
    spec = run.spec
    return {
        "game": spec["game"],
        "players": str(run.players),
        "lineup": ", ".join(run.lineup),
        "seed": str(spec.get("seed")),
        "games": f"{spec.get('games'):,}",
        "seat rotation": "yes" if spec.get("rotate_seats") else "no",
        **{f"rule {name}": json.dumps(value) for name, value in spec.get("rules", {}).items()},
    }


def settings_table(run_a: Run, run_b: Run) -> pl.DataFrame:
    """[setting, A, B, differs]: the two runs' specifications side by side, in A's order (then
    any setting only B has); a rule at the rulebook's value in both is left out, and one row
    counts them."""
    a, b = _settings(run_a), _settings(run_b)
    defaults = {f"rule {k}": json.dumps(v) for k, v in rule_defaults(run_a.spec["game"]).items()}
    names = list(dict.fromkeys([*a, *b]))
    usual = [n for n in names if n in defaults and a.get(n) == b.get(n) == defaults[n]]
    names = [n for n in names if n not in usual]
    if usual:
        a = {**a, "other rules": f"{len(usual)} at the rulebook's values"}
        b = {**b, "other rules": a["other rules"]}
        names.append("other rules")
    return pl.DataFrame(
        {
            "setting": names,
            "A": [a.get(name, "–") for name in names],
            "B": [b.get(name, "–") for name in names],
            "differs": ["yes" if a.get(name) != b.get(name) else "" for name in names],
        }
    )


def compare_pages(run_a: Run, run_b: Run, paired: pl.DataFrame) -> list[ReportPage]:
    """What A and B are, the paired differences A − B per focal (forest plot), and the numbers.
    ``paired`` holds one ``analyses.paired.compare_runs`` result per focal."""
    settings = settings_table(run_a, run_b)
    differs = settings.filter(pl.col("differs") == "yes")
    what = (
        "; ".join(
            f"{row['setting']}: {row['A']} vs {row['B']}"
            for row in differs.head(3).rows(named=True)
        )
        if differs.height
        else "nothing (the same specification)"
    )
    palette = Palette.for_game(run_a.spec["game"], [*run_a.lineup, *run_b.lineup])
    caption = (
        "Each row is a strategy's (or seat's) win rate in run A minus its win rate in run B, "
        "game by game over the games both runs hold (common random numbers: game i of both "
        "starts from the same deal), with its 95% interval in percentage points. A row whose "
        "interval misses the dashed zero line is a real difference."
    )
    return [
        *table_pages(
            settings,
            "powerlab compare: A against B",
            f"A and B differ in {differs.height} settings: {what}.",
            f"A = {run_a.path}, B = {run_b.path}. Paired comparisons need the same seed and the "
            "same game indices; every other setting may differ.",
            widest=(2.6, 3.6, 3.6, 0.7),
        ),
        *forest_pages(
            paired,
            row_label=lambda row: focal_name(row["focal"]),
            panel_label=lambda row: "A − B",
            color_of=lambda row: focal_color(row["focal"], palette),
            describe=lambda row: focal_name(row["focal"]),
            title="Paired differences: A − B",
            caption=caption,
        ),
        *paired_table_pages(
            paired,
            lambda row: "A − B",
            lambda row: focal_name(row["focal"]),
            "Paired differences: the numbers",
            caption + " The variance reduction is how many times more games an unpaired "
            "comparison would need for the same precision.",
        ),
    ]


def write_compare_report(
    run_a: Run,
    run_b: Run,
    paired: pl.DataFrame,
    pdf_path: str | Path | None = None,
    png_dir: str | Path | None = None,
    tables_dir: str | Path | None = None,
) -> list[str]:
    """Write the comparison as a PDF, PNGs and/or its tables as CSVs; return the page titles."""
    subject = f"A: {run_a.describe()} | B: {run_b.describe()}"
    pages = compare_pages(run_a, run_b, paired)
    return write_pages(pages, "powerlab compare", subject, pdf_path, png_dir, tables_dir)


def whatif_hint(run_a: Run, run_b: Run) -> str:
    """The line `compare` ends with: its answer holds for these players only, and the whatif
    command that would test the rule change in other fields of players."""
    rules_a, rules_b = run_a.spec.get("rules", {}), run_b.spec.get("rules", {})
    changed = [key for key in rules_a if rules_a[key] != rules_b.get(key)]
    if not changed:
        return "These differences hold for these players only (the runs share their rules)."
    sides = " ".join(
        f"--set {key}={_text(rules_a[key])} --vs {key}={_text(rules_b[key])}" for key in changed
    )
    return (
        "These differences hold for these players only; to test the rule change against other "
        f"players: powerlab whatif {run_a.spec['game']} -p {run_a.players} {sides} -o OUT"
    )


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
