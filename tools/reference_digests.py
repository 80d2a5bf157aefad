"""Digests of what every game computes, through the command line alone, to compare two trees.

For each registered game at its fewest and most players: the rows of a scripted run (every
strategy in the lineup, several chunks) at 1 and 2 threads, the arcs of a run that samples every
game, two replayed traces, and a few games with a searching seat. A refactoring that must not
change results (a move, the glue written once) compares the JSON of the tree before with the
JSON of the tree after: any difference names the game, the players and what differs.

Usage: python tools/reference_digests.py OUT.json [--games GAME ...]
       python tools/reference_digests.py --compare BEFORE.json AFTER.json
It runs the ``cli.py`` of the tree it lives in, so the same file measures any commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
SCRIPTED_GAMES = 3000
CHUNK = 1000
ARC_GAMES = 200
SEARCHED_GAMES = 4
SEARCH_SPEC = "ismcts:iterations=25"


def powerlab(*args: str) -> str:
    """Run this tree's ``cli.py`` with ``args``; its standard output (a failure raises)."""
    command = [sys.executable, "-c", "import sys, cli; cli.main(sys.argv[1:])", *args]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"powerlab {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def table_digest(folder: Path) -> str:
    """SHA-256 of every column of the Parquet parts under ``folder``, rows in a fixed order."""
    parts = sorted(folder.glob("*.parquet"), key=lambda p: int(p.stem.split("-")[-1]))
    digest = hashlib.sha256()
    for part in parts:
        table = pq.read_table(part)
        for name in table.column_names:
            digest.update(name.encode())
            digest.update(str(table.column(name).to_pylist()).encode())
    return digest.hexdigest()


def lineup(strategies: list[str], players: int) -> list[str]:
    """Every scripted strategy once, cycled to at least ``players`` seats."""
    seats = [strategies[k % len(strategies)] for k in range(max(players, len(strategies)))]
    return [arg for name in seats[:players] for arg in ("-s", name)]


def game_digests(game_id: str) -> dict:
    from simcore import registry

    game = registry.make(game_id)
    names = [s.name for s in game.strategies]
    out: dict[str, str] = {}
    for players in sorted({game.min_players, game.max_players}):
        seats = lineup(names, players)
        base = [game_id, "-p", str(players), *seats]
        with tempfile.TemporaryDirectory() as tmp:
            for threads in (1, 2):
                run = Path(tmp) / f"run{threads}"
                powerlab(
                    "run", *base, "-n", str(SCRIPTED_GAMES), "--seed", "11",
                    "--chunk-size", str(CHUNK), "--threads", str(threads), "--out", str(run),
                )  # fmt: skip
                out[f"{players}p rows, {threads} thread(s)"] = table_digest(run / "games")
            if game.arcs is not None:
                arcs = Path(tmp) / "arcs"
                powerlab(
                    "run", *base, "-n", str(ARC_GAMES), "--seed", "12", "--arcs", "100%",
                    "--out", str(arcs),
                )  # fmt: skip
                out[f"{players}p arcs"] = table_digest(arcs / "arcs")
            for index in (0, 7):
                log = powerlab("replay", *base, "--seed", "13", "-i", str(index))
                out[f"{players}p trace {index}"] = hashlib.sha256(log.encode()).hexdigest()
            if game.search is not None:
                searched = [game_id, "-p", str(players), "-s", SEARCH_SPEC, *seats[2:]]
                for threads in (1, 2):
                    run = Path(tmp) / f"search{threads}"
                    powerlab(
                        "run", *searched, "-n", str(SEARCHED_GAMES), "--seed", "14",
                        "--chunk-size", "2", "--threads", str(threads), "--out", str(run),
                    )  # fmt: skip
                    out[f"{players}p searched, {threads} thread(s)"] = table_digest(run / "games")
    return out


def compare(before: Path, after: Path) -> int:
    old, new = json.loads(before.read_text()), json.loads(after.read_text())
    differences = [
        f"{game}: {key}: {old[game].get(key)} != {new.get(game, {}).get(key)}"
        for game in old
        for key in old[game]
        if old[game].get(key) != new.get(game, {}).get(key)
    ]
    print("\n".join(differences) or f"identical: {sum(map(len, old.values()))} digests")
    return 1 if differences else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--games", nargs="*")
    parser.add_argument("--compare", nargs=2, type=Path)
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    sys.path.insert(0, str(ROOT))
    from simcore import registry

    digests = {}
    for game_id in args.games or registry.game_ids():
        digests[game_id] = game_digests(game_id)
        print(game_id, len(digests[game_id]), "digests", flush=True)
        args.out.write_text(json.dumps(digests, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
