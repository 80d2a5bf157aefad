"""The numba cache folder: keyed on the kernel sources, and apart for bounds-checked code."""

import os
import subprocess
import sys
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
