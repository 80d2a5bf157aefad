"""The information-leak check of tests/contract/test_fair_play.py: a strategy decides only on
what its seat may know.

Run as a child process with NUMBA_DISABLE_JIT=1, where the kernels are plain Python and call the
strategies through module attributes, which this script wraps. At every decision, the wrapper
copies the decision's arrays, redraws everything the deciding seat cannot see (the game's
``determinize``: opponents' hidden cards, the deck, secret scores), and asks the same strategy the
same question on the redrawn copy with a copy of the same random stream. A strategy that reads only
what its seat may know gives the same answer, draws the same random numbers, and writes the same
values into every field the redraw left alone.

    NUMBA_DISABLE_JIT=1 python tests/contract/leak_check.py GAME PLAYERS GAMES STRATEGY...

prints one JSON object: per decision function, the decisions checked, how many of them the redraw
changed something hidden for, and the first few disagreements.

Each game plugs in with a ``Glue``, ``LEAK`` in its contract glue (tests/contract/games/
<package>.py): the strategies module, the decision functions the kernel calls with the name of
their deciding-seat parameter, and how to redraw.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

MAX_REPORTED = 5


@dataclass(frozen=True)
class Glue:
    """How the check reaches one game's decisions."""

    strategies: str
    # decision function -> the parameter naming the deciding seat; ``module:function`` for one
    # outside the strategies module (a game's search)
    decisions: dict[str, str]
    # (bound arguments of the decision, already copied; the deciding seat; a random stream) ->
    # redraw in place what that seat cannot see
    redraw: Callable[[dict, int, np.ndarray], None]


def glue_of(game_id: str) -> Glue:
    """The game's glue: ``LEAK`` in tests/contract/games/<package>.py."""
    from tests.contract.common import modules

    glue = modules(game_id).option("LEAK")  # an unknown game is refused here, in one line
    if glue is None:
        raise LookupError(f"{game_id} has no leak glue (LEAK in its tests/contract/games file)")
    return glue


class LeakCheck:
    """Wraps a game's decision functions; counts checks and collects disagreements."""

    def __init__(self, glue: Glue, seed: int = 1) -> None:
        from simcore.kernel.rng import seed_game_stream

        self.glue = glue
        self.checked = {name: 0 for name in glue.decisions}
        self.informative = {name: 0 for name in glue.decisions}
        self.leaks: list[dict] = []
        self.redraw_rng = np.zeros(4, dtype=np.uint64)
        seed_game_stream(np.uint64(seed), 0, self.redraw_rng)
        self.inside = False

    def wrap(self, name: str, original: Callable) -> Callable:
        signature = inspect.signature(original)
        seat_param = self.glue.decisions[name]

        def checked(*args, **kwargs):
            if self.inside:  # a decision asked from within another one: checked by the outer
                return original(*args, **kwargs)
            bound = signature.bind(*args, **kwargs)
            before = {k: v.copy() for k, v in bound.arguments.items() if isinstance(v, np.ndarray)}
            twin = dict(bound.arguments)
            twin.update({k: v.copy() for k, v in before.items()})
            seat = int(bound.arguments[seat_param])
            self.inside = True
            try:
                self.glue.redraw(twin, seat, self.redraw_rng)
                redrawn = {k: twin[k].copy() for k in before}
                answer = original(*args, **kwargs)
                twin_answer = original(**twin)
            finally:
                self.inside = False
            self.checked[name] += 1
            changed = [k for k in before if not np.array_equal(before[k], redrawn[k])]
            self.informative[name] += bool(changed)
            problems = []
            if _plain(answer) != _plain(twin_answer):
                problems.append(f"answer {_plain(answer)} became {_plain(twin_answer)}")
            if "rng" in before and not np.array_equal(bound.arguments["rng"], twin["rng"]):
                problems.append("the random stream advanced differently")
            for k in before:
                if k == "rng":
                    continue
                # Fields the redraw left alone must end up alike: scratch the decision wrote.
                same = before[k] == redrawn[k]
                if not np.array_equal(bound.arguments[k][same], twin[k][same]):
                    problems.append(f"wrote differently into {k}")
            if problems and len(self.leaks) < MAX_REPORTED:
                self.leaks.append(
                    {"decision": name, "seat": seat, "problems": problems, "changed": changed}
                )
            elif problems:
                self.leaks.append({"decision": name})
            return answer

        return checked

    def install(self) -> None:
        """Replace every reference to each decision function in the loaded simcore and
        strategies modules (kernels may call ``strategy.f`` or an imported ``f``)."""
        for name in self.glue.decisions:
            module_name, _, function = name.rpartition(":")
            original = getattr(sys.modules[module_name or self.glue.strategies], function)
            wrapped = self.wrap(name, original)
            for loaded in list(sys.modules.values()):
                if getattr(loaded, "__name__", "").startswith(("simcore", "strategies")):
                    for attribute, value in list(vars(loaded).items()):
                        if value is original:
                            setattr(loaded, attribute, wrapped)


def _plain(value):
    """A decision's answer as comparable plain Python values."""
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def main() -> None:
    assert os.environ.get("NUMBA_DISABLE_JIT") == "1", "run with NUMBA_DISABLE_JIT=1"
    game_id, players, games, *strategies = sys.argv[1:]
    import importlib

    from simcore.workflows import runner
    from tests.contract.common import contract_make

    game = contract_make(game_id)
    glue = glue_of(game_id)
    importlib.import_module(glue.strategies)
    check = LeakCheck(glue)
    check.install()
    spec = runner.build_spec(game_id, int(players), strategies, [], 7, int(games), True)
    table = runner.play_chunk(spec, 0, int(games)).games
    print(
        json.dumps(
            {
                "game": game.id,
                "games": table.num_rows,
                "checked": check.checked,
                "informative": check.informative,
                "leaks": len(check.leaks),
                "examples": check.leaks[:MAX_REPORTED],
            }
        )
    )


if __name__ == "__main__":
    main()
