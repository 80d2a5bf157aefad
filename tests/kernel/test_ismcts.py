"""The generic ISMCTS (simcore/kernel/ismcts.py): one source, compiled per game, cached per game.

- Nim (tests/kernel/nim_protocol.py), a toy game of perfect information, is solved: the search
leaves a
  multiple of (max take + 1) stones.
- POWER's search answers a legal option, is a pure function of the state and the stream, draws
  once from the game's stream and reads only determinized copies: a state whose hidden cards
  were redrawn gets the same answer.
- A second process loads both games' searches from numba's cache (no compilation) and each
  still answers from its own game's rules.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.games.power import game as kernel
from simcore.games.power import rules as power_rules
from simcore.games.power import search as power_search
from simcore.games.power.state import MAX_MOVES, STATE_SIZE, TRACE_WIDTH
from simcore.kernel import ismcts
from simcore.kernel.rng import next_u64, seed_game_stream
from simcore.workflows import runner
from tests.kernel import nim_protocol as nim

ROOT = Path(__file__).resolve().parents[2]
NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)


def _stream(seed: int, index: int = 0) -> np.ndarray:
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return rng


def nim_answer(
    heap: int,
    seed: int = 1,
    iterations: int = 3000,
    margin: float = 0.0,
    rollout: int = nim.RANDOM,
    opponents: int = ismcts.SEARCHED,
) -> int:
    rules = np.array([heap, 3.0])
    st = np.zeros(nim.STATE_SIZE, dtype=np.int64)
    nim.new_game(st, rules)
    prm = np.zeros((2, 1))
    stream = _stream(seed)
    return int(
        nim.search(st, rules, 0, iterations, 0.7, 0.0, margin, opponents, rollout, prm, stream)
    )


@pytest.mark.parametrize("heap, winning", [(5, 1), (6, 2), (7, 3), (10, 2), (11, 3)])
def test_nim_search_finds_the_winning_move(heap, winning):
    assert [nim_answer(heap, seed) for seed in range(3)] == [winning] * 3


def test_the_margin_keeps_the_rollouts_answer_unless_another_is_clearly_better():
    # The rollout always takes one; from 10 the winning move is to take two (leave a multiple
    # of 4). 3,000 playouts tell them apart by far more than 2 standard errors, so the default
    # margin still plays the winning move; an impossible margin keeps the rollout's answer.
    take_one = {"rollout": nim.TAKE_ONE}
    assert [nim_answer(10, seed, margin=2.0, **take_one) for seed in range(3)] == [2] * 3
    assert [nim_answer(10, seed, margin=1e9, **take_one) for seed in range(3)] == [1] * 3


@pytest.mark.parametrize("heap, winning", [(5, 1), (6, 2), (7, 3)])
def test_opponents_learning_from_their_own_view_still_solve_a_game_without_secrets(heap, winning):
    # Nim hides nothing, so the opponent's deals are the searcher's: the opponent learns in every
    # other iteration and answers from what it learnt in the others, and the winning move stays.
    answers = [nim_answer(heap, seed, opponents=ismcts.OWN_VIEW) for seed in range(3)]
    assert answers == [winning] * 3


def test_opponents_played_by_the_rollout_strategy_get_its_best_answer():
    # From 4 stones every move loses against perfect play, and a searched opponent learns to
    # take the rest: no move is better than another. Against an opponent who takes 1 to 3 at
    # random, taking one wins 2/3 of games (two of its three answers leave 1 or 2 stones to take),
    # two wins 1/2 and three never (one stone is left for it to take).
    model = [nim_answer(4, seed, opponents=ismcts.MODELLED) for seed in range(3)]
    assert model == [1] * 3


def power_position(index: int, decisions: int):
    """A 4-player POWER game after ``decisions`` decisions of the tuned counter preset."""
    spec = runner.build_spec("power", 4, ["preset:counter-vs-mixed"], [], 3, 1, rotate_seats=True)
    rules = kernel.prepare(spec.rules, 4)
    ids, params = registry.make("power").encode_strategies(spec.seat_strategies())
    rng = _stream(3, index)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    power_rules.new_game(4, st, rules, rng, NO_TRACE)
    for _ in range(decisions):
        if power_rules.is_over(st):
            break
        seat = power_rules.to_move(st)
        move = kernel.strategy.decide(ids[seat], params, seat, st, rules, rng)
        power_rules.apply(st, rules, move, rng, NO_TRACE)
    return st, rules, ids, params, rng


def test_power_search_is_legal_pure_and_reads_only_what_its_seat_sees():
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    different_hidden = 0
    for index in range(12):
        st, rules, ids, params, rng = power_position(index, 3 * index)
        if power_rules.is_over(st):
            continue
        seat = power_rules.to_move(st)
        n = power_rules.legal(st, rules, moves)
        before = st.copy()
        first_rng = rng.copy()
        answer = power_search.search(
            st, rules, seat, 60, 0.7, 0.0, 2.0, ismcts.SEARCHED, ids[0], params, first_rng
        )
        assert answer in moves[:n]
        np.testing.assert_array_equal(st, before)  # the true state is only read
        expected_rng = rng.copy()
        next_u64(expected_rng)
        np.testing.assert_array_equal(first_rng, expected_rng)  # one draw from the game
        again = power_search.search(
            st, rules, seat, 60, 0.7, 0.0, 2.0, ismcts.SEARCHED, ids[0], params, rng.copy()
        )
        assert again == answer
        twin = st.copy()
        power_rules.determinize(twin, seat, _stream(99, index))
        different_hidden += not np.array_equal(twin, st)
        twin_answer = power_search.search(
            twin, rules, seat, 60, 0.7, 0.0, 2.0, ismcts.SEARCHED, ids[0], params, rng.copy()
        )
        assert twin_answer == answer
    assert different_hidden >= 8


CACHE_PROBE = """
import json, sys
import numpy as np
sys.path.insert(0, {root!r})
from tests.kernel import test_ismcts as t
from simcore.kernel import ismcts
from simcore.games.power import search as power_search
from tests.kernel import nim_protocol as nim
st, rules, ids, params, rng = t.power_position(0, 5)
seat = int(t.power_rules.to_move(st))
opponents = ismcts.SEARCHED
power = int(power_search.search(st, rules, seat, 40, 0.7, 0.0, 2.0, opponents, ids[0], params, rng))
answers = {{"nim": t.nim_answer(10), "power": power}}
stats = {{name: (sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values()))
          for name, f in (("power", power_search.search), ("nim", nim.search))}}
print(json.dumps({{"answers": answers, "stats": stats}}))
"""


def _probe() -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CACHE_PROBE.format(root=str(ROOT))],
        capture_output=True, text=True, cwd=ROOT, check=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_second_process_loads_each_games_search_from_the_cache():
    first = _probe()  # compiles what is not cached yet
    second = _probe()
    assert second["stats"] == {"power": [1, 0], "nim": [1, 0]}, second
    assert second["answers"] == first["answers"]
    assert second["answers"]["nim"] == 2  # Nim's rules, not POWER's
    st, rules, *_ = power_position(0, 5)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    assert second["answers"]["power"] in moves[: power_rules.legal(st, rules, moves)]


def _visits_to_come(n_options: int, remaining: int):
    """Every way ``remaining`` more root visits can fall on ``n_options`` options."""
    if n_options == 1:
        yield (remaining,)
        return
    for first in range(remaining + 1):
        for rest in _visits_to_come(n_options - 1, remaining - first):
            yield (first, *rest)


@pytest.mark.parametrize("margin", [0.0, 2.0])
def test_the_search_stops_only_once_no_remaining_iterations_can_change_its_answer(margin):
    # A root's statistics at random, then every way the remaining iterations could add visits
    # (each a win or a loss at random): wherever ``_answer_settled`` stops the search, the
    # answer ``_settled_choice`` would give at the end is the one it gives now. And it does stop
    # whenever that holds for the most visited option being the rollout strategy's answer (or,
    # with margin 0, any option).
    generator = np.random.default_rng(5)
    srng = _stream(9)
    stopped = 0
    for _ in range(300):
        n = int(generator.integers(2, 5))
        remaining = int(generator.integers(0, 5))
        moves = np.arange(10, 10 + n, dtype=np.int64)
        slots = np.arange(n, dtype=np.int64)
        start, n_children = np.zeros(1, dtype=np.int64), np.array([n], dtype=np.int64)
        pool = np.zeros((4, n))
        pool[0] = moves
        pool[1] = generator.integers(1, 9, n)
        pool[3] = [generator.integers(0, v + 1) for v in pool[1]]
        answer = int(moves[generator.integers(0, n)])
        settled = nim._answer_settled(0, start, n_children, pool, answer, margin, remaining)
        now = nim._settled_choice(n, moves, slots, pool, answer, margin, srng)
        later = set()
        for added in _visits_to_come(n, remaining):
            final = pool.copy()
            final[1] += added
            final[3] += [generator.integers(0, a + 1) for a in added]
            later.add(nim._settled_choice(n, moves, slots, final, answer, margin, srng))
        leader = int(np.argmax(pool[1]))
        others = np.delete(pool[1], leader)
        determined = pool[1, leader] - others.max() > remaining and (
            margin == 0 or moves[leader] == answer
        )
        assert settled == determined
        if settled:
            stopped += 1
            assert later == {now} == {leader}
    assert 30 < stopped < 270  # both outcomes were exercised
