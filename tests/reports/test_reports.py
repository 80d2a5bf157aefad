"""The PDF report: one page per returned title, readable pages, atomic writing."""

import re
from collections.abc import Iterator
from pathlib import Path

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
    assert titles[0] == "powerlab report: fake"
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
