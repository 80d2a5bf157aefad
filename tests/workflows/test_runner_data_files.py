"""A designer's data file is part of a run's spec: editing it cannot mix two decks in one run."""

import shutil
from pathlib import Path

import pytest

from simcore import registry
from simcore.workflows import runner

SHIPPED = Path(__file__).resolve().parents[2] / "simcore" / "data" / "power_barons_default.toml"


def spec_with(path: Path) -> runner.RunSpec:
    return runner.build_spec("power-barons", 4, [], [f"components={path}"], 3, 200, True)


def test_an_edited_data_file_is_a_different_spec(tmp_path):
    deck = tmp_path / "deck.toml"
    shutil.copyfile(SHIPPED, deck)
    out = tmp_path / "run"
    runner.run(spec_with(deck), out, threads=1)
    runner.run(spec_with(deck), out, threads=1)  # the same file: resumes, nothing to do
    deck.write_text(deck.read_text() + "\n# a designer's edit\n")
    with pytest.raises(registry.SpecError, match="data_files"):
        runner.run(spec_with(deck), out, threads=1)


def test_the_shipped_file_needs_no_digest():
    spec = runner.build_spec("power-barons", 4, [], [], 3, 200, True)
    assert spec.data_files == {}
    assert (
        spec_with(SHIPPED).data_files["components"] == spec_with(SHIPPED).data_files["components"]
    )
