"""The report of ``powerlab whatif``: the answer first (each measure's robustness across the
fields of players), then each measure's forest, how exploitable each rule set's field is, and
the numbers (analyses/whatif.py)."""

import tomllib
from pathlib import Path

import polars as pl

from analyses.intervention import LENGTH
from analyses.whatif import exploitability, measures, robustness
from reports.export import write_pages
from reports.paired import measure_forest_pages
from reports.toolkit import ReportPage, table_pages
from simcore.workflows import files
from simcore.workflows.whatif import STUDY_FILE

CAPTION = (
    "Each measure is rule set B minus rule set A, game by game on the same random streams "
    "(common random numbers), in every field of players: the scripted strategies, the tuned "
    "presets, the scripted strategies re-tuned for each rule set, and the search player in a "
    "seat. A measure is an answer about the game only if it keeps its sign in every field."
)


def answer(lines: pl.DataFrame) -> str:
    """The takeaway: which measures keep their sign in every field, which depend on the players."""

    def measures_that(verdict: str) -> str:
        return ", ".join(lines.filter(pl.col("verdict") == verdict)["measure"])

    parts = []
    if measures_that("robust"):
        parts.append(f"keeps its sign in every field: {measures_that('robust')}")
    if measures_that("depends"):
        parts.append(f"depends on the players (the sign changes): {measures_that('depends')}")
    if not parts:
        return "No measure keeps a clear sign across the fields: B and A play alike here."
    return "B against A " + "; ".join(parts) + "."


def whatif_pages(table: pl.DataFrame, title: str, question: str, gains: pl.DataFrame) -> list:
    lines = robustness(table)
    pages: list[ReportPage] = [
        *table_pages(
            lines.select("measure", "fields", "line"),
            title,
            answer(lines),
            CAPTION,
            widest=(1.8, 0.6, 7.0),
            lead=question,
        ),  # fmt: skip
        *measure_forest_pages(
            table.with_columns(base=pl.col("a")),
            lambda row: row["field"],
            LENGTH,
            "A's",
            "B − A in each field",
            "Each panel is one measure, each line one field: B minus A with its 95% interval "
            "(win rates and the spread in points, the game length in percent of A's).",
        ),  # fmt: skip
    ]
    if gains.height:
        pages += table_pages(
            gains, "How exploitable each rule set's field is",
            "What re-tuning each strategy family against the field gained on fresh games, "
            "under A and under B (a large gain: the field's own play is easy to beat).",
            "gain: the re-tuned spec's win rate minus the start's, paired, on games the tuning "
            "never played; the re-tuned field keeps the start where the gain is not clear of 0.",
        )  # fmt: skip
    pages += table_pages(
        table, "The numbers", "Every field and measure: A, B, B − A and its 95% interval.",
        "Win rates and the spread as shares (0.25 = 25%), the game length in turns; games: "
        "the paired games with a result under both rule sets.",
    )  # fmt: skip
    return pages


def write_whatif_outputs(
    out: Path, png_dir: Path | None = None, tables_dir: Path | None = None
) -> tuple[pl.DataFrame, list[str]]:
    """OUT/whatif.csv and OUT/whatif.pdf of a whatif directory; the table and the page titles."""
    study = tomllib.loads(files.read_text(out / STUDY_FILE, "study file"))
    title = f"Is B better than A? {study['game']}, {study['players']} players"
    table = measures(out)
    lead = " ".join([study["question"], *study.get("assumptions", [])])
    pages = whatif_pages(table, title, lead, exploitability(out))
    titles = write_pages(pages, "powerlab whatif", title, out / "whatif.pdf", png_dir, tables_dir)
    table.write_csv(out / "whatif.csv")
    return table, titles


def robustness_lines(table: pl.DataFrame) -> list[str]:
    """Each measure's robustness line, as the command prints them."""
    return [f"{row['measure']}: {row['line']}" for row in robustness(table).iter_rows(named=True)]
