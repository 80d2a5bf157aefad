"""The PDF report: one page per returned title, readable pages, atomic writing."""

import re
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from matplotlib.figure import Figure

from analyses import AnalysisError
from analyses.dataset import load_run
from reports.export import save_pdf
from reports.pdf import run_pages, write_report
from simcore.workflows.files import all_or_nothing
from tests.cli.fakerun import make_fake_run


def pdf_pages(pdf: bytes) -> int:
    """Page objects in a matplotlib PDF (uncompressed object dictionaries, no object streams)."""
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    [count] = re.findall(rb"/Count (\d+)", pdf)
    assert int(count) == pages
    return pages


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4, "games": 800},
        {"players": 6, "games": 600, "rotate": False},
        {"players": 2, "games": 200, "cut_off_share": 1.0},
    ],
)
def test_write_report_has_one_page_per_title(tmp_path: Path, options: dict) -> None:
    run_dir = make_fake_run(tmp_path, **options)
    pdf_path = tmp_path / "report.pdf"
    titles = write_report(run_dir, pdf_path)
    pdf = pdf_path.read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    assert pdf_pages(pdf) == len(titles)
    # The answer first, then what was played, then the analyses: the same pages for any lineup.
    assert titles[0] == f"What this run says: fake, {options['players']} players"
    assert titles[1] == "powerlab report: fake" and titles[2] == "Win rate by seat"
    for expected in ["Win rate by seat", "Seat advantage test", "Convergence"]:
        assert expected in titles
    assert "Impact of starting character" in titles
    assert b"/Title (powerlab report: fake)" in pdf
    assert f"/Subject ({load_run(run_dir).describe()})".encode() in pdf
    assert [path.name for path in tmp_path.iterdir() if path.is_file()] == ["report.pdf"]


def test_every_page_has_a_title_caption_and_labelled_axes(tmp_path: Path) -> None:
    lineup = ["counter:threshold=0.7,targeting=leader", "honest", "random"]
    run = load_run(make_fake_run(tmp_path, players=3, games=300, lineup=lineup))
    for figure in run_pages(run):
        assert figure.get_suptitle()
        assert any(len(text.get_text()) > 80 for text in figure.texts), "caption missing"
        for ax in figure.axes:
            if ax.axison:  # table pages switch their axes off
                assert ax.get_xlabel() or ax.get_ylabel()


def test_single_label_lineup_has_no_matchup_page(tmp_path: Path) -> None:
    run = load_run(make_fake_run(tmp_path, players=3, games=90, lineup=["counter"] * 3))
    titles = [figure.get_suptitle() for figure in run_pages(run)]
    assert "Matchups" not in titles and "Win rate by strategy" in titles


def test_invalid_run_dir_leaves_an_existing_pdf_alone(tmp_path: Path) -> None:
    pdf_path = tmp_path / "report.pdf"
    pdf_path.write_bytes(b"%PDF-1.4 an older report")
    with pytest.raises(AnalysisError):
        write_report(tmp_path / "missing", pdf_path)
    assert pdf_path.read_bytes() == b"%PDF-1.4 an older report"
    assert [path.name for path in tmp_path.iterdir()] == ["report.pdf"]


def test_failure_while_rendering_leaves_no_half_pdf(tmp_path: Path) -> None:
    pdf_path = tmp_path / "report.pdf"
    pdf_path.write_bytes(b"%PDF-1.4 an older report")

    def pages() -> Iterator[Figure]:
        yield Figure()
        raise RuntimeError("analysis failed half-way")

    with pytest.raises(RuntimeError, match="half-way"), all_or_nothing() as staged:
        save_pdf(pages(), pdf_path, {"Title": "broken"}, staged)
    assert pdf_path.read_bytes() == b"%PDF-1.4 an older report"
    assert [path.name for path in tmp_path.iterdir()] == ["report.pdf"]


def test_the_answer_page_names_each_finding_with_its_interval_and_kind(tmp_path: Path) -> None:
    from reports.run_answer import OBSERVATIONAL, SEATS_KIND, STRATEGIES_KIND, findings

    run = load_run(make_fake_run(tmp_path, players=4, games=800))
    table = findings(run)
    kinds = table["kind"].to_list()
    assert kinds[0] == SEATS_KIND and table["finding"][0].startswith("Seat furthest")
    assert kinds.count(STRATEGIES_KIND) == 3  # strongest, weakest and the gap
    assert OBSERVATIONAL in kinds  # the starting-character comparison
    assert all(ci.startswith("[") for ci in table.filter(pl.col("kind") == SEATS_KIND)["95% CI"])


def test_the_title_table_lists_only_the_rules_that_differ(tmp_path: Path) -> None:
    from reports.pdf import _rule_rows

    rows = dict(_rule_rows({"game": "power", "rules": {"overthrow_cost": 6, "income": 1}}))
    assert rows["rule overthrow_cost"] == "6" and "rule income" not in rows
    assert rows["other rules"].startswith("1 at the rulebook's defaults")
    unknown = dict(_rule_rows({"game": "fake", "rules": {"a": 1}}))
    assert unknown["rule a"] == "1"
