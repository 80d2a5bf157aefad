"""The legibility contract (reports/legibility.py) on every page of every report: the report of
every shipped study (discovered from studies/*.toml, run at a small number of games) and of a run
of every game; and proof that the checker catches what the reports used to print: the flush
study's pooled matchup matrix and the openings study's page titles, built as they were."""

import dataclasses
import math
import textwrap
from pathlib import Path

import numpy as np
import pytest
from matplotlib.colors import TwoSlopeNorm, to_hex
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Text

from analyses.dataset import Run, load_run
from analyses.meta import load_meta, solve
from analyses.ratings import pooled_matchups
from analyses.study import load_study_dir, rating_pools
from analyses.winrates import matchup_pivot
from reports import meta as meta_report
from reports import pdf, toolkit
from reports import study as study_report
from reports import tune as tune_report
from reports.colors import Palette
from reports.legibility import MAX_LEGEND_ENTRIES, check_page
from reports.skill import SKILL_AXIS
from reports.toolkit import PAGE_SIZE, ReportPage, legend, literal
from simcore import registry
from simcore.workflows import meta, runner, study, tuning
from tests.cli.fakerun import make_fake_run

ROOT = Path(__file__).resolve().parents[2]
STUDIES = sorted((ROOT / "studies").glob("*.toml"))
STUDY_GAMES = 200  # per cell (and per step of a sequentially stopped cell, at most two steps)
# ... but 50 in the 90 cells of the event-order study (at 200 its pages took 75 s to make), and
# in the skill traces whose searches cost most (a searching game is 10-100x a scripted one)
FEWER_GAMES = {
    "power-struggle-event-order": 50,
    "power-barons-skill-trace": 50,
    "power-struggle-skill-trace": 50,
    "time-barons-skill-trace": 50,
    "power-the-game-skill-trace": 50,
}
RUN_GAMES = 1500
# Pages a study's report must have (each expected title matches the beginning of one: long pages
# continue "(k of n)"), beyond the answer, overview and file pages every report has.
EXPECTED_PAGES = {
    "power-overthrow-cost": [
        "Answer: POWER: overthrow cost 6, 7 (rulebook) and 8, against default and tuned fields",
        "Win rate by strategy against opponents",
        "Matchups: 4 players, overthrow_cost=6",
        "Ratings (Bradley–Terry): 4 players, overthrow_cost=6",
        # arcs = "1%": how early games are decided, per cell and paired between arms
        "Tension metrics by cell",
        "Tension metrics: paired differences between arms",
    ],
    # Mirrors only (one setting per strategy): no head-to-head record, so no ratings page.
    "power-seat-advantage": [
        "Win rate by seat against players",
        "Win rate by seat against opponents",
    ],
    "power-struggle-event-order": [
        "Answer: Power Struggle: the event-ordering policy",
        "Answer per opponent setting",
        "Paired differences (1 of",
        "What strategies do, by opponents (random) (1 of",
    ],
    "power-the-game-openings": ["What ended the game, cell by cell (1 of"],
    **{
        f"{game}-skill-trace": ["Skill trace: the ismcts seat's win rate as its iterations grow"]
        for game in ("power", "power-barons", "power-struggle", "power-the-game", "time-barons")
    },
}


@pytest.fixture(scope="module")
def study_dirs(tmp_path_factory):
    """Each shipped study run once at ``STUDY_GAMES`` games per cell, on first use."""
    done: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in done:
            spec = study.load_study(ROOT / "studies" / f"{name}.toml")
            if spec.stop:  # a few steps, not a precision target
                stop = dataclasses.replace(spec.stop, max_games=2 * STUDY_GAMES)
                spec = dataclasses.replace(spec, stop=stop)
            if spec.restrict:  # restricted play: tunings of a few candidates, not a search
                search = spec.restrict.search and {"iterations": 3, "games": 20}  # the pages only
                restrict = dataclasses.replace(
                    spec.restrict, budget=1200, min_games=4, search=search
                )
                spec = dataclasses.replace(spec, restrict=restrict)
            if SKILL_AXIS in spec.sweep:  # a skill trace: the same page shape, tiny searches
                count = len(spec.sweep[SKILL_AXIS])
                sweep = {**spec.sweep, SKILL_AXIS: tuple(2 * 2**k for k in range(count))}
                spec = dataclasses.replace(spec, sweep=sweep)
            out = tmp_path_factory.mktemp("study") / name
            study.run_study(spec, out, games=FEWER_GAMES.get(name, STUDY_GAMES))
            done[name] = out
        return done[name]

    return get


@pytest.fixture(scope="module", params=[path.stem for path in STUDIES])
def study_pages(request, study_dirs) -> list[ReportPage]:
    return study_report.report_pages(load_study_dir(study_dirs(request.param)))


def run_lineup(game: registry.Game) -> tuple[int, list[str]]:
    """The game's usual table (4 players, or the nearest allowed) seating its last strategies
    in registry order (the scripted ones; random comes first)."""
    players = registry.table_players(game)
    names = [strategy.name for strategy in game.strategies]
    return players, [names[-1 - k % len(names)] for k in range(players)]


@pytest.fixture(scope="module", params=registry.game_ids())
def run_report(request, tmp_path_factory) -> tuple[Run, list[ReportPage]]:
    game = registry.make(request.param)
    players, lineup = run_lineup(game)
    # With arcs, so the standing and tension pages of every game are checked too.
    spec = runner.build_spec(game.id, players, lineup, [], 3, RUN_GAMES, True, "10%")
    out = tmp_path_factory.mktemp("run") / game.id
    runner.run(spec, out)
    run = load_run(out)
    return run, pdf.report_pages(run)


def assert_legible(pages: list[ReportPage]) -> None:
    failures = {page.title: [str(p) for p in check_page(page)] for page in pages}
    failures = {title: problems for title, problems in failures.items() if problems}
    assert not failures, failures


def assert_every_page_says_what_it_shows(pages: list[ReportPage]) -> None:
    for page in pages:
        assert isinstance(page, ReportPage) and page.title
        assert len(page.takeaway) > 20 and page.takeaway.endswith("."), page.title
        [shown] = [text for text in page.texts if text.get_gid() == "takeaway"]
        # the takeaway, character for character (a word longer than a line is cut, so line
        # breaks are not compared)
        assert "".join(shown.get_text().split()) == "".join(literal(page.takeaway).split())
    titles = [page.title for page in pages]
    assert len(set(titles)) == len(titles), "two pages share a title (and a PNG name)"


def test_every_page_of_every_study_report_is_legible(study_pages):
    assert_legible(study_pages)
    assert_every_page_says_what_it_shows(study_pages)


def test_study_reports_have_the_pages_their_study_asks_for(request, study_pages):
    titles = [page.title for page in study_pages]
    expected = EXPECTED_PAGES.get(request.node.callspec.params["study_pages"], [])
    assert all(any(title.startswith(start) for title in titles) for start in expected), titles


def test_every_study_with_expected_pages_is_shipped():
    assert set(EXPECTED_PAGES) <= {path.stem for path in STUDIES}


def test_study_reports_open_with_the_answer_then_the_study_and_end_with_its_file(study_pages):
    assert study_pages[0].title.startswith("Answer: ")
    overview = next(k for k, page in enumerate(study_pages) if page.title.startswith("powerlab"))
    assert all(page.title.startswith("Answer") for page in study_pages[:overview])
    assert study_pages[overview].title.startswith("powerlab study: ")
    assert study_pages[-1].title.startswith("The study file")


@pytest.fixture(scope="module")
def tune_dir(tmp_path_factory) -> Path:
    """A small search of POWER's bluffer (two parameters) against a field of challengers."""
    spec = tuning.build_spec(
        "power", 4, "bluffer", ["bluffer:p_challenge=1"], [], 3, 3000,
        only=["p_bluff", "targeting"], min_games=12, final_games=500,
    )  # fmt: skip
    out = tmp_path_factory.mktemp("tune") / "bluffer"
    tuning.tune(spec, out)
    return out


def test_every_page_of_a_tune_report_is_legible(tune_dir):
    _, pages = tune_report.report_pages(tune_dir)
    assert [page.title.split(": ")[-1] for page in pages] == [
        "search history", "parameter response", "finalists",
    ]  # fmt: skip
    assert_legible(pages)
    assert_every_page_says_what_it_shows(pages)


def test_the_self_play_page_is_legible():
    rounds = [
        {"round": r, "best": f"bluffer:p_bluff={0.1 * r:.1f},p_challenge=0.2,targeting=richest",
         "diff": d, "diff_ci_low": d - 0.02, "diff_ci_high": d + 0.02, "improved": d > 0.02}
        for r, d in ((1, 0.12), (2, 0.05), (3, 0.01))
    ]  # fmt: skip
    summary = {
        "game": "power",
        "players": 4,
        "strategy": "bluffer",
        "rounds": rounds,
        "best": rounds[1]["best"],
        "stopped": "a best response did not beat the incumbent",
    }
    pages = [tune_report.self_play_page(summary)]
    assert_legible(pages)
    assert_every_page_says_what_it_shows(pages)


def test_every_page_of_a_meta_report_is_legible(tmp_path):
    population = tmp_path / "population.toml"
    population.write_text(
        'strategies = ["random", "honest", "bluffer", "bluffer:p_bluff=0.1,p_challenge=0.05", '
        '"counter", "counter:threshold=0.3,targeting=richest"]\n'
    )
    meta.run_meta(meta.build_spec("power", 3, population, [], 2, 30), tmp_path / "m")
    game = load_meta(tmp_path / "m")
    pages = meta_report.report_pages(game, solve(game, 2, seed=2))
    assert_legible(pages)
    assert_every_page_says_what_it_shows(pages)


def test_every_page_of_every_run_report_is_legible(run_report):
    _, pages = run_report
    assert "Tension metrics" in [page.title for page in pages]
    assert_legible(pages)
    assert_every_page_says_what_it_shows(pages)


def test_each_strategy_keeps_its_registry_colour(run_report):
    run, pages = run_report
    # The colour of a strategy does not depend on the lineup it is met in.
    expected = [
        to_hex(Palette.for_game(run.spec["game"], [label]).color(label))
        for label in run.strategy_labels
    ]
    assert len(set(expected)) == len(expected)
    [bars] = [page for page in pages if page.title == "Win rate by strategy"][0].axes
    assert [to_hex(bar.get_facecolor()) for bar in bars.patches] == expected
    [lines] = [page for page in pages if page.title == "Convergence"][0].axes
    drawn = [to_hex(line.get_color()) for line in lines.get_lines() if line.get_marker() == "o"]
    assert drawn == expected


# --- the checker catches the pages the reports used to print ----------------------------------


def old_matchup_page(matchups, players: int, title: str) -> Figure:
    """The pooled matchup page as reports/figures.py built it before the legibility contract."""
    fig = Figure(figsize=PAGE_SIZE)
    fig.suptitle(title, fontsize=16, fontweight="bold")
    fig.text(0.06, 0.03, "Each cell is how often the row strategy won ...", fontsize=10.5)
    wide = matchup_pivot(matchups)
    labels = wide["strategy"].to_list()
    rates = wide.drop("strategy").to_numpy().astype(float)
    games = matchup_pivot(matchups, value="games").drop("strategy").to_numpy()
    norm = TwoSlopeNorm(vmin=0.0, vcenter=1 / players, vmax=1.0)
    fig.subplots_adjust(left=0.22, right=0.9, top=0.86, bottom=0.22)
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(rates), cmap="RdBu", norm=norm)
    for row in range(len(labels)):
        for col in range(len(labels)):
            if math.isnan(rates[row, col]):
                text = "same\nstrategy" if row == col else "never\nmet"
            else:
                text = f"{100 * rates[row, col]:.1f}%\nn={int(games[row, col]):,}"
            ax.text(col, row, text, ha="center", va="center", fontsize=9)
    wrapped = [
        "\n".join(textwrap.wrap(label.replace(":", ": ").replace(",", ", "), 14)) or label
        for label in labels
    ]
    ax.set_xticks(range(len(labels)), wrapped, fontsize=9)
    ax.set_yticks(range(len(labels)), wrapped, fontsize=9)
    fig.colorbar(image, ax=ax)
    return fig


def old_pool_title(cell_ids: list[str], players: int) -> str:
    """A pool's name as the old report wrote it: every cell id."""
    return f"{', '.join(cell_ids)} ({players} players)"


def test_the_checker_fails_the_old_flush_matchup_page(study_dirs):
    flush = load_study_dir(study_dirs("power-barons-flush-threshold"))
    pool = rating_pools(flush)[0]
    old = old_matchup_page(
        pooled_matchups(pool.runs),
        pool.runs[0].players,
        f"Matchups: {old_pool_title(pool.cell_ids, pool.runs[0].players)}",
    )
    kinds = [problem.kind for problem in check_page(old)]
    # The labels and numbers print over each other: 36 overlaps with the 12 labels of the
    # 4-player flush study (more than 50 with the 17 of the study before issue 15).
    assert kinds.count("overlap") > 30
    assert "off page" in kinds  # the title lists every cell


def test_the_checker_fails_the_old_openings_titles(study_dirs):
    openings = load_study_dir(study_dirs("power-the-game-openings"))
    for pool in rating_pools(openings):
        name = old_pool_title(pool.cell_ids, pool.runs[0].players)
        for title in (f"Matchups: {name}", f"Ratings (Bradley–Terry): {name}"):
            old = Figure(figsize=PAGE_SIZE)
            old.suptitle(title, fontsize=16, fontweight="bold")
            problems = check_page(old)
            assert [problem.kind for problem in problems] == ["off page"], title


# --- the checker itself -----------------------------------------------------------------------


def blank_page() -> ReportPage:
    return ReportPage("A page", "Its takeaway.", "Its caption.")


def test_a_clean_page_passes():
    page = blank_page()
    ax = page.axes_in_body(left=1.0, bottom=0.5)
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x")
    assert check_page(page) == []


def test_overlapping_texts_fail():
    page = blank_page()
    page.text(0.5, 0.5, "one text")
    page.text(0.51, 0.5, "another text")
    [problem] = check_page(page)
    assert problem.kind == "overlap" and "one text" in problem.detail


def test_text_off_the_page_fails():
    page = blank_page()
    page.text(0.97, 0.5, "runs off the right edge")
    assert [problem.kind for problem in check_page(page)] == ["off page"]


def test_a_long_legend_fails_and_the_toolkit_refuses_it():
    page = blank_page()
    ax = page.axes_in_body(left=1.0, right=2.0, bottom=0.5)
    for k in range(MAX_LEGEND_ENTRIES + 1):
        ax.plot([0, 1], [k, k], label=f"line {k}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
    assert [problem.kind for problem in check_page(page)] == ["legend"]
    handles = [Line2D([], []) for _ in range(MAX_LEGEND_ENTRIES + 1)]
    with pytest.raises(ValueError, match="at most 8"):
        legend(ax, handles, [f"line {k}" for k in range(MAX_LEGEND_ENTRIES + 1)])


def test_small_print_fails():
    page = blank_page()
    page.text(0.3, 0.5, "fine print", fontsize=6)
    assert [problem.kind for problem in check_page(page)] == ["font size"]


def test_a_page_that_is_not_a4_fails():
    page = Figure(figsize=(8, 6))
    assert [problem.kind for problem in check_page(page)] == ["page size"]


def test_data_text_is_printed_literally():
    page = blank_page()
    page.text(0.3, 0.5, "strategy $x$")
    assert [problem.kind for problem in check_page(page)] == ["mathtext"]
    page = blank_page()
    shown = page.text(0.3, 0.5, literal("strategy $x$"))
    assert check_page(page) == []
    assert shown._preprocess_math(shown.get_text()) == ("strategy $x$", False)


def test_a_run_with_dollar_signs_in_its_labels_reports_them_literally(tmp_path):
    lineup = ["counter:note=$x$", "honest:$", "random"]
    run = load_run(make_fake_run(tmp_path, players=3, games=300, lineup=lineup))
    pages = pdf.report_pages(run)
    assert_legible(pages)  # which includes: nothing typeset as mathtext
    printed = [
        text._preprocess_math(text.get_text())[0]
        for page in pages
        for text in page.findobj(Text)
        if text.get_visible()
    ]
    assert any("note=$x$" in text for text in printed)  # in the tick labels and the legends
    assert not any("\\" in text for text in printed)  # and escaped once, not twice


def test_strategy_colours_follow_the_registry_not_the_lineup():
    names = [strategy.name for strategy in registry.make("power").strategies]
    one = Palette.for_game("power", ["counter:threshold=0.7", "bluffer"])
    other = Palette.for_game("power", list(reversed(names)), focal={"bluffer"})
    assert [one.color(name) for name in names] == [other.color(name) for name in names]
    assert one.color("counter:threshold=0.7") == one.color("counter")
    assert other.line("bluffer")["linewidth"] > other.line("honest")["linewidth"]


def test_a_word_longer_than_a_line_is_cut_after_a_separator_not_inside_a_number():
    spec = "swarm:attack_worth=0.73125,locate=1.81792,relocate=2.5"
    lines = toolkit.wrap(f"The tuned {spec} wins.", 1.2, 9)
    assert "".join(lines).replace(" ", "") == f"Thetuned{spec}wins."
    assert all(toolkit.text_width(line, 9) <= 1.2 * 72 + 0.01 for line in lines)
    cut = lines[1:-1]  # the spec's lines
    assert len(cut) > 1 and all(line[-1] in ",:=" for line in cut), lines
