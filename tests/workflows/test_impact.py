"""`powerlab impact`: components found and switched off, checked before anything is written, and a
planted card found by intervention (simcore/workflows/impact.py, analyses/intervention.py)."""

import tomllib
from pathlib import Path

import polars as pl
import pytest
import tomli_w

from analyses.intervention import LENGTH, against_peers, clear_of_rest, effects, headlines
from reports.impact import impact_pages
from reports.legibility import check_page
from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import impact
from tests.cli.clitools import in_process, one_error_line, tree_digest

SHIPPED_CARDS = registry.make("time-barons").rule("cards").shipped_path()
# Compared within the planted file: the planted card, an exact copy of an ordinary Level I card,
# and ordinary cards of Level I.
ORDINARY = ("Catapult", "Church", "Hospital", "Farm")


def _cards() -> dict:
    return tomllib.loads(SHIPPED_CARDS.read_text())


def _plan(out: Path, wanted=(), changes=(), settings=()) -> impact.ImpactPlan:
    return impact.plan(
        "time-barons", 2, [], list(settings), 0, 100, True, out, list(wanted), list(changes)
    )


def test_every_card_and_every_switch_is_a_component(tmp_path):
    plan = _plan(tmp_path / "out")
    cards = _cards()["card"]
    by_kind: dict[str, list[impact.Component]] = {}
    for component in plan.components:
        by_kind.setdefault(component.kind, []).append(component)
    assert [c.name for c in by_kind["card"]] == [card["name"] for card in cards]
    assert [c.group for c in by_kind["card"]] == [f"level {card['level']}" for card in cards]
    switches = [p.name for p in registry.make("time-barons").rules if p.component]
    assert sorted(c.name for kind, found in by_kind.items() if kind != "card" for c in found) == (
        sorted(switches)
    )
    # A card's arm plays a copy of the file without that card, and nothing else changes.
    first = by_kind["card"][0]
    removed = tomllib.loads(plan.data_files[Path(first.rules["cards"]).name])["card"]
    assert [card["name"] for card in removed] == [card["name"] for card in cards[1:]]


def test_repeated_names_are_numbered_like_the_reports(tmp_path):
    document = _cards()
    document["card"].append(dict(document["card"][0]))
    path = tmp_path / "cards.toml"
    path.write_text(tomli_w.dumps(document))
    names = [c.name for c in _plan(tmp_path / "out", settings=[f"cards={path}"]).components]
    first = document["card"][0]["name"]
    assert names.count(first) == 1 and names.count(f"{first} (2)") == 1


@pytest.mark.parametrize(
    "wanted, changes, message",
    [
        (["No Such Card"], [], "unknown component 'No Such Card'"),
        ([], ["no_such_rule=1"], "unknown rule parameter 'no_such_rule'"),
        ([], ["draw_cost"], "--change 'draw_cost': expected KEY=VALUE"),
        ([], ["cards=/no/such/file.toml"], "cannot read the data file"),
    ],
)
def test_bad_components_and_changes_are_one_line(tmp_path, wanted, changes, message):
    with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _plan(tmp_path / "out", wanted, changes)


@pytest.mark.parametrize("players", [0, 1, 3])
def test_a_player_count_the_game_does_not_allow_is_refused(tmp_path, players):
    """0 is a count like any other, not "the default" (Time Barons is for 2 players)."""
    with pytest.raises(SpecError, match=f"is for 2 players, not {players}"):
        impact.plan("time-barons", players, [], [], 0, 10, True, tmp_path / "out", [], [])


def test_an_out_of_other_settings_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "out"
    first = _plan(out, ["Catapult"])
    impact.check_out(first)
    impact.write(first)
    impact.check_out(first)  # the same command resumes
    before = tree_digest(out)
    with pytest.raises(SpecError, match="holds an impact run of other settings"):
        impact.check_out(_plan(out, ["Church"]))
    assert tree_digest(out) == before
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(SpecError, match="not empty and holds no impact run"):
        impact.check_out(_plan(busy, ["Catapult"]))


def test_cli_bad_component_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    code, _, err = in_process("impact", "time-barons", "-c", "No Such Card", "-o", out)
    assert code == 2
    assert "unknown component 'No Such Card'" in one_error_line(err)
    assert not out.exists()
    code, _, err = in_process("impact", "time-barons", "--set", "draw_cost=99", "-o", out)
    assert code == 2 and "draw_cost" in one_error_line(err)
    assert not out.exists()


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """An impact run of a card file with a planted Level I card that wins on the spot when
    played (it kills every opponent follower) and an exact copy of an ordinary Level I card,
    against ordinary Level I cards and a change that changes nothing (the same file, renamed)."""
    folder = tmp_path_factory.mktemp("planted")
    document = _cards()
    farm = next(card for card in document["card"] if card["name"] == "Farm")
    document["card"] += [
        {"name": "Planted", "level": 1, "type": "event", "cost": 1, "effects": ["damage_each 20"]},
        dict(farm),
    ]
    cards = folder / "planted.toml"
    cards.write_text(tomli_w.dumps(document))
    same = folder / "same.toml"
    same.write_text(cards.read_text())
    out = folder / "out"
    code, stdout, err = in_process(
        "impact", "time-barons", "--set", f"cards={cards}", "-n", "4000", "-o", out,
        "-c", "Planted", "-c", "Farm (2)", *[a for name in ORDINARY for a in ("-c", name)],
        "--change", f"cards={same}",
    )  # fmt: skip
    assert code == 0, err
    return out, stdout


def test_a_planted_card_ranks_first_clear_of_the_rest(planted):
    out, stdout = planted
    ranked = headlines(effects(out))
    assert ranked["component"][0] == "Planted"
    assert clear_of_rest(ranked)
    assert stdout.splitlines()[0].startswith("Planted (card, level 1)")
    assert (out / "impact.csv").exists() and (out / "impact.pdf").exists()
    pages = impact_pages(effects(out), "planted")
    assert not {page.title: check_page(page) for page in pages if check_page(page)}


def test_an_exact_copy_of_an_ordinary_card_measures_zero_against_its_level(planted):
    """Removing any Level I card makes the planted one come up sooner (every removal shortens
    the games alike); against the median of its level, the copy of Farm does nothing."""
    out, _ = planted
    copy = against_peers(effects(out)).filter(pl.col("component") == "Farm (2)")
    assert copy.height > 0 and (copy["peers"] == len(ORDINARY) + 1).all()
    assert (copy["vs_peers_low"] <= 0).all() and (copy["vs_peers_high"] >= 0).all(), copy


def test_a_change_that_changes_nothing_is_exactly_zero(planted):
    out, _ = planted
    same = effects(out).filter(pl.col("kind") == "change")
    assert set(same["measure"]) >= {LENGTH, "seat 0 win rate"}
    assert (same["diff"] == 0).all() and (same["ci_low"] == 0).all()


def test_a_rerun_resumes_and_keeps_every_game(planted):
    out, stdout = planted
    before = {p: p.read_bytes() for p in (out / impact.STUDY_DIR).rglob("*.parquet")}
    study = tomllib.loads((out / impact.STUDY_FILE).read_text())
    cards = study["rules"]["cards"]
    same = next(arm for arm in study["arms"] if arm["name"].startswith("change"))
    code, again, err = in_process(
        "impact", "time-barons", "--set", f"cards={cards}", "-n", "4000", "-o", out,
        "-c", "Planted", "-c", "Farm (2)", *[a for name in ORDINARY for a in ("-c", name)],
        "--change", f"cards={same['rules']['cards']}",
    )  # fmt: skip
    assert code == 0, err
    assert again == stdout
    assert {p: p.read_bytes() for p in (out / impact.STUDY_DIR).rglob("*.parquet")} == before


def test_impact_on_dask_equals_the_local_run(tmp_path, dask_scheduler):
    """The arms' chunks as Dask tasks (a local cluster of one worker process,
    tests/workflows/conftest.py): the same table."""
    tables = []
    for name, extra in (("local", []), ("dask", ["--scheduler", dask_scheduler])):
        out = tmp_path / name
        code, _, err = in_process(
            "impact", "time-barons", "-n", "300", "-c", "Catapult", "-c", "Church", "-o", out,
            *extra,
        )  # fmt: skip
        assert code == 0, err
        tables.append((out / "impact.csv").read_text())
    assert tables[0] == tables[1]
