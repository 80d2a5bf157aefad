"""powerlab's simulation core: the game registry, the shared compiled parts (``kernel/``), one
package per game (``games/<game>/``) and the plain-Python workflows (``workflows/``)."""

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

# numba's OpenMP threads spin while idle by default. When several powerlab processes share a
# machine (Dask workers, array jobs with --threads 1) the spinning steals their cores: 2 worker
# processes ran at 1.0x one worker. Passive waiting costs only a wake-up per chunk.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


# The folders whose sources compiled code is made from: the shared kernel parts, the games and
# the strategies. Any file in them (a new one too) keys the cache. The registry and the workflows
# are plain Python that compiled code never reads: editing them keeps the compiled kernels.
COMPILED_FOLDERS = ("simcore/kernel", "simcore/games", "strategies")


def _registered_game_folders() -> list[Path]:
    """The package folders of the games registered from outside the tree (``POWERLAB_GAMES``,
    docs/adding-a-game.md), found on the path without importing them: their compiled code keys
    the cache as the tree's games do."""
    folders = []
    for entry in os.environ.get("POWERLAB_GAMES", "").split(","):
        package = entry.partition("=")[2].strip().rpartition(".")[0].split(".")
        for base in sys.path if package != [""] else ():
            folder = Path(base or ".").joinpath(*package)
            if folder.is_dir():
                folders.append(folder.resolve())
                break
    return folders


def _kernel_sources_digest() -> str:
    """A digest of every kernel, game and strategy source file."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder in [root / f for f in COMPILED_FOLDERS] + _registered_game_folders():
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(folder.parent)).encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def prune_stale_caches(parent: Path, current: Path, keep: int = 3, min_age_days: float = 7) -> None:
    """Delete cache folders of older sources: each edit or upgrade leaves ~50 MB behind.

    The ``keep`` most recently written ones stay (switching branches back and forth stays warm),
    and so does any written to in the last ``min_age_days`` (a run of older sources may still be
    saving to it).
    """
    written = []
    for folder in parent.glob("numba-*"):
        try:
            written.append((folder.stat().st_mtime, folder))
        except FileNotFoundError:  # another process pruned it meanwhile
            continue
    written = sorted((w for w in written if w[1] != current), reverse=True)
    oldest_kept = time.time() - min_age_days * 86_400
    for mtime, folder in written[keep:]:
        if mtime < oldest_kept:
            shutil.rmtree(folder, ignore_errors=True)


# numba's cache (cache=True) notices a change only in the file of the cached function itself: a
# kernel calling a strategy edited since would silently run the old strategy. Keying the cache
# folder on all kernel and strategy sources makes any edit start a fresh cache. The cache ignores
# NUMBA_BOUNDSCHECK too (it would load unchecked code), so bounds-checked code has its own folder.
if "NUMBA_CACHE_DIR" not in os.environ:
    _checked = "-boundscheck" if os.environ.get("NUMBA_BOUNDSCHECK", "0") not in ("", "0") else ""
    _folder = f"numba-{_kernel_sources_digest()}{_checked}"
    _cache = Path(__file__).resolve().parent / "__pycache__" / _folder
    os.environ["NUMBA_CACHE_DIR"] = str(_cache)
    prune_stale_caches(_cache.parent, _cache)
    if "numba" in sys.modules:  # imported before us: numba reads its config at import
        sys.modules["numba"].config.CACHE_DIR = str(_cache)
