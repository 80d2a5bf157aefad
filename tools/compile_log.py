"""Where the suite's numba compile time goes (docs/performance.md, "Suite time").

As a pytest plugin it appends one JSON line per real compile (a cache miss) to
``$COMPILE_LOG-<worker>.jsonl``: the function, its argument types, its own seconds (without the
functions it compiled on the way), and the test that caused it. Run from the repository root:

    COMPILE_LOG=/tmp/compile NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=tools \\
        .venv/bin/python -m pytest -n 2 --dist worksteal -p compile_log
    .venv/bin/python tools/compile_log.py /tmp/compile

The second command summarises the log: seconds per worker, the same function and signature
compiled in more than one worker, the functions that cost most, and those compiled for the most
signatures (often literal arguments: a constant passed where an int64 was meant). Compiles in
child processes (the CLI tests) are not logged.
"""

from __future__ import annotations

import collections
import glob
import json
import os
import sys
import time

_stack: list[list[float]] = []
_state = {"test": "<collection>", "out": None}


def _listener():
    from numba.core import event

    class CompileListener(event.Listener):
        def on_start(self, ev):
            _stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev):
            started, in_callees = _stack.pop()
            seconds = time.perf_counter() - started
            if _stack:
                _stack[-1][1] += seconds
            function = ev.data["dispatcher"].py_func
            row = {
                "function": f"{function.__module__}.{function.__qualname__}",
                "signature": str(ev.data["args"]),
                "seconds": seconds - in_callees,
                "test": _state["test"],
            }
            _state["out"].write(json.dumps(row) + "\n")
            _state["out"].flush()

    return CompileListener()


def pytest_configure(config):
    from numba.core import event

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _state["out"] = open(f"{os.environ['COMPILE_LOG']}-{worker}.jsonl", "a")  # noqa: SIM115
    event.register("numba:compile", _listener())


def pytest_runtest_logstart(nodeid, location):
    _state["test"] = nodeid


def summarise(prefix: str, top: int = 30) -> None:
    rows = []
    for path in sorted(glob.glob(f"{prefix}-*.jsonl")):
        worker = path[len(prefix) + 1 : -len(".jsonl")]
        rows += [dict(json.loads(line), worker=worker) for line in open(path)]
    per_worker = collections.Counter()
    by_function = collections.defaultdict(list)
    by_signature = collections.defaultdict(list)
    for row in rows:
        per_worker[row["worker"]] += row["seconds"]
        by_function[row["function"]].append(row)
        by_signature[row["function"], row["signature"]].append(row)
    print("compile seconds per worker:", {w: round(s) for w, s in sorted(per_worker.items())})
    repeated = sum(
        sum(r["seconds"] for r in same) - max(r["seconds"] for r in same)
        for same in by_signature.values()
    )
    print(f"the same function and signature compiled again: {repeated:.0f} s")
    print("\nseconds  signatures  function")
    costs = sorted(by_function.items(), key=lambda item: -sum(r["seconds"] for r in item[1]))
    for function, compiled in costs[:top]:
        signatures = {r["signature"] for r in compiled}
        print(f"{sum(r['seconds'] for r in compiled):7.1f} {len(signatures):11d}  {function}")
    print("\nmost signatures (literal arguments compile a function once per constant):")
    spread = sorted(by_function.items(), key=lambda item: -len({r["signature"] for r in item[1]}))
    for function, compiled in spread[:10]:
        signatures = {r["signature"] for r in compiled}
        seconds = sum(r["seconds"] for r in compiled)
        literal = sum("Literal" in s for s in signatures)
        print(f"{len(signatures):4d} signatures, {literal} literal, {seconds:6.1f} s  {function}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tools/compile_log.py LOG_PREFIX")
    summarise(sys.argv[1])
