"""The numba cache folder: keyed on the kernel sources, and apart for bounds-checked code."""

import os
import subprocess
import sys
import time
from pathlib import Path

import simcore


def cache_folder(**env) -> Path:
    """NUMBA_CACHE_DIR as a fresh interpreter importing simcore sets it, under ``env``."""
    base = {
        k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_BOUNDSCHECK")
    }
    shown = (
        "import os, simcore, numba; print(os.environ['NUMBA_CACHE_DIR'], numba.config.CACHE_DIR)"
    )
    out = subprocess.run(
        [sys.executable, "-c", shown], env=base | env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == out[1]  # numba reads the folder simcore chose
    return Path(out[0])


def test_cache_folder_is_named_by_the_kernel_sources():
    folder = cache_folder()
    assert folder.parent == Path(simcore.__file__).resolve().parent / "__pycache__"
    assert folder.name == f"numba-{simcore._kernel_sources_digest()}"
    assert cache_folder(NUMBA_BOUNDSCHECK="0") == folder


def test_bounds_checked_code_is_cached_apart():
    # numba's cache ignores NUMBA_BOUNDSCHECK: sharing a folder would load unchecked code.
    assert cache_folder(NUMBA_BOUNDSCHECK="1").name == cache_folder().name + "-boundscheck"


def test_stale_cache_folders_are_pruned_but_recent_ones_kept(tmp_path):
    now = time.time()
    ages_days = {"numba-current": 30, "numba-a": 20, "numba-b": 10, "numba-c": 9, "numba-d": 8}
    ages_days |= {"numba-e": 40, "numba-f": 2, "numba-g": 1, "other": 50}
    for name, age in ages_days.items():
        folder = tmp_path / name
        folder.mkdir()
        (folder / "kernel.nbi").write_text("index")
        os.utime(folder, (now - age * 86_400, now - age * 86_400))
    simcore.prune_stale_caches(tmp_path, tmp_path / "numba-current", keep=3, min_age_days=7)
    # The newest three besides the current one stay: g, f (recent anyway) and d; c, b, a and e
    # are older and over a week old, so they go. Folders not named numba-* are never touched.
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["numba-current", "numba-d", "numba-f", "numba-g", "other"]


def test_pruning_keeps_everything_written_this_week(tmp_path):
    for k in range(6):
        (tmp_path / f"numba-{k}").mkdir()
    simcore.prune_stale_caches(tmp_path, tmp_path / "numba-0", keep=1, min_age_days=7)
    assert len(list(tmp_path.iterdir())) == 6


def test_only_plain_python_modules_are_left_out_of_the_cache_key():
    # Editing the runner or the study parser must not recompile the kernels, but a module that
    # compiled code comes from must key the cache: no module outside the compiled folders holds
    # numba code.
    root = Path(simcore.__file__).resolve().parent.parent
    compiled = [root / folder for folder in simcore.COMPILED_FOLDERS]
    for path in (root / "simcore").rglob("*.py"):
        if any(path.is_relative_to(folder) for folder in compiled):
            continue
        source = path.read_text()
        assert "@njit" not in source and "@overload" not in source, path


def test_an_edit_of_any_kernel_file_refreshes_the_cache_and_a_workflow_edit_does_not(tmp_path):
    # In a temporary copy of the tree: a file in a game's package (nested under simcore/games/),
    # a shared compiled part and a strategies file each key the cache; the runner does not.
    root = Path(simcore.__file__).resolve().parent.parent
    for folder in ("simcore", "strategies"):
        for path in (root / folder).rglob("*.py"):
            target = tmp_path / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())

    def folder_name() -> str:
        shown = "import os, simcore; print(os.environ['NUMBA_CACHE_DIR'])"
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        out = subprocess.run(
            [sys.executable, "-c", shown], cwd=tmp_path, env=env | {"PYTHONPATH": str(tmp_path)},
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert Path(out.strip()).is_relative_to(tmp_path)  # the copy's simcore was imported
        return Path(out.strip()).name

    names = [folder_name()]
    for edited in (
        "simcore/games/power/rules.py", "simcore/kernel/chunk.py", "strategies/power.py",
        "simcore/workflows/runner.py",
    ):  # fmt: skip
        with open(tmp_path / edited, "a") as source:
            source.write("\n# edited\n")
        names.append(folder_name())
    assert len(set(names[:4])) == 4  # each kernel edit: a new cache folder
    assert names[4] == names[3]  # the runner is plain Python: the same folder


def test_a_game_registered_from_outside_the_tree_keys_the_cache():
    # The toy game of tests/games/liars_dice/ registered as a designer registers their own game: its
    # sources are compiled code too, so they key the cache like the tree's games.
    from tests.games.liars_dice import REGISTRATION

    assert cache_folder(POWERLAB_GAMES=REGISTRATION).name != cache_folder().name
    assert simcore._registered_game_folders() == []
