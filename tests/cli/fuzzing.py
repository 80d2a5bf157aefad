"""What the property-based CLI tests (test_fuzz.py, test_fuzz_commands.py) share: the tricky
values, the hypothesis settings, and the one check of a fuzzed command: exit 0, or exit 2 with
one ``powerlab: error:`` line; never a traceback; a refusal changes no file, and a success
changes none of the files that existed before it (but reports, which it may rewrite)."""

import contextlib
from pathlib import Path

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from tests.cli.clitools import in_process, tree_digest

BIG = str(2**64)
# Every valid number here is small: a fuzzed command never plays many games.
NUMBERS = ["0", "-1", "1", "3", "5", "٣", "²", "1_0", " 2", "+2", "1e3", "nan", "", BIG,
           str(2**62 + 1), "9" * 30]  # fmt: skip
FOCALS = ["seat:0", "seat:٣", "seat:²", "seat:9", "seat:", "seat:03", "counter", "nobody", ""]
SETTINGS = ["overthrow_cost=nan", "overthrow_cost=inf", "overthrow_cost=٣", f"income={BIG}",
            "income=1", "nosuch=1", "=", "overthrow_cost", "components=/dev/zero"]  # fmt: skip
STRATEGIES = ["counter", "bluffer:p_bluff=nan", "bluffer:p_bluff=2", "honest", "", ":", "wizard",
              "bluffer:p_bluff=0.5", "bluffer:p_bluff=٠.٥"]  # fmt: skip

FUZZ = settings(
    max_examples=80, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)  # fmt: skip


def option(name: str, values: list) -> st.SearchStrategy:
    """``[name, value]`` one time in three, else nothing: most runs get only a few options."""
    given_ = st.sampled_from(values).map(lambda value: [name, value])
    return st.one_of(st.just([]), st.just([]), given_)


def flatten(parts):
    """The words of nested lists and tuples of words, in order."""
    for part in parts:
        if isinstance(part, list | tuple):
            yield from flatten(part)
        else:
            yield part


def _protected(before: dict, after: dict) -> list[str]:
    """Files of ``before`` that changed or vanished, reports aside (a successful report or study
    report rewrites them)."""
    return [
        name
        for name, digest in before.items()
        if Path(name).name not in ("report.pdf", "summary.parquet") and after.get(name) != digest
    ]


def check(folder: Path, args: list, values: dict[str, Path], cwd: Path | None = None) -> None:
    """Run ``powerlab ARGS`` (each placeholder of ``values`` replaced by its path; relative paths
    taken from ``cwd``, which lies under ``folder``) and assert the promise of every command
    about the files under ``folder``."""
    resolved = []
    for arg in map(str, args):
        for key, value in values.items():
            arg = arg.replace(key, str(value))
        resolved.append(arg)
    before = tree_digest(folder)
    with contextlib.chdir(cwd) if cwd else contextlib.nullcontext():
        code, _, err = in_process(*resolved)
    assert "Traceback" not in err, (resolved, err)
    after = tree_digest(folder)
    event(f"{resolved[0]}: exit {code}")  # --hypothesis-show-statistics shows the mix
    if code == 0:
        assert not _protected(before, after), (resolved, _protected(before, after))
        return
    lines = err.strip().splitlines()
    assert code == 2, (resolved, code, err)
    assert len(lines) == 1 and lines[0].startswith("powerlab: error:"), (resolved, err)
    assert after == before, (resolved, err)
