"""Power Struggle's decision-point protocol (docs/protocol.md,
simcore/games/power_struggle/rules.py).

- Scripted games played through ``new_game``/``apply``, each decision answered by
  ``strategies.power_struggle.decide``, are the games of the kernel's straight-line flow (the
  same trace and final state) in every reference configuration, and every answer is one of
  ``legal``'s options. tests/test_power_struggle_reference.py holds the straight-line flow to
  the games of the kernel before the protocol.
- Random legal play keeps the invariants: share blocks conserved, no negative money, offices
  packed top-down with 0-6 Employees and no Department without one, a Board of at most 5, tracks
  within their golden spaces; every decision kind comes up; every game ends.
- ``determinize`` for the deciding seat changes neither its ``infoset_key`` nor its options.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_struggle import game as kernel
from simcore.games.power_struggle import rules as protocol
from simcore.games.power_struggle import scripted
from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import (
    BOARD,
    BOARD_N,
    DECISION_KINDS,
    EMP,
    HEADS,
    HELD,
    HOLDER,
    MAX_MOVES,
    MONEY,
    N_DIVISIONS,
    N_PRIVILEGES,
    N_SIZES,
    OWNER,
    P_DECISION,
    ROWS,
    STATE_SIZE,
    STOCK,
    TRACE_WIDTH,
    TRACK,
    TRACK_MAX,
)
from simcore.kernel.chunk import N_STANDARD_SEAT_COLUMNS, seat_lineup
from simcore.kernel.rng import rand_below, seed_game_stream
from simcore.workflows import runner
from strategies import power_struggle as strategy
from tests.test_power_struggle_reference import CONFIGS

GAME = registry.make("power-struggle")
NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
MOVES = np.zeros(MAX_MOVES, dtype=np.int64)


def _setup(config: str):
    players, lineup, settings, seed, _, rotate, _ = CONFIGS[config]
    spec = runner.build_spec("power-struggle", players, lineup, settings, seed, 1, rotate)
    prepared = kernel.prepare(spec.rules, players)
    ids, params = GAME.encode_strategies(spec.seat_strategies())
    return players, prepared, ids, params, np.uint64(seed), rotate


def _fresh(seed, index):
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return np.zeros(STATE_SIZE, dtype=np.int64), rng


def _options(st, rules):
    n = protocol.legal(st, rules, MOVES)
    return MOVES[:n].copy()


@pytest.mark.parametrize("config", list(CONFIGS))
def test_scripted_games_through_the_protocol_are_the_kernels_games(config):
    """3 games of every reference configuration played through ``new_game``/``apply``, each
    decision answered by ``decide``, end in the very state of the kernel's straight-line game
    (every field before the protocol's) with the very same trace; and every answer was one of
    ``legal``'s options."""
    players, prepared, ids, params, seed, rotate = _setup(config)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, params.shape[1]))
    labels = np.zeros((1, players, N_STANDARD_SEAT_COLUMNS), dtype=np.int64)
    for index in range(3):
        straight = kernel.trace_game(prepared, players, ids, params, seed, index, rotate)
        seat_lineup(ids, params, index, players, rotate, sids, prm, labels, 0)
        st, rng = _fresh(seed, index)
        scripted_st = st.copy()
        trace = np.zeros((len(straight) + 1, TRACE_WIDTH), dtype=np.int64)
        protocol.new_game(players, st, prepared, rng, trace)
        while not protocol.is_over(st):
            seat = protocol.to_move(st)
            options = _options(st, prepared)
            move = strategy.decide(sids[seat], prm, seat, st, prepared, rng)
            assert move in options, (DECISION_KINDS[st[P_DECISION]], move, options[:20])
            protocol.apply(st, prepared, move, rng, trace)
        np.testing.assert_array_equal(trace[: st[ps.TRACE_LEN]], straight)
        rng = _fresh(seed, index)[1]
        scripted.play_game(players, scripted_st, prepared, sids, prm, rng, NO_TRACE)
        np.testing.assert_array_equal(st[:P_DECISION], scripted_st[:P_DECISION])


def _invariants(st, rules, players, stock):
    assert all(st[MONEY + s] >= 0 for s in range(players))
    for size in range(1, N_SIZES + 1):
        held = sum(int(st[HELD + (N_SIZES + 1) * s + size]) for s in range(players))
        assert st[STOCK + size] + held == stock[size - 1]
    for division in range(N_DIVISIONS):
        owners = [int(st[OWNER + ROWS * division + r]) for r in range(ROWS)]
        n = sum(o >= 0 for o in owners)
        assert all(o >= 0 for o in owners[:n]) and all(o == -1 for o in owners[n:])
        for r in range(ROWS):
            office = ROWS * division + r
            assert 0 <= st[EMP + office] <= 6
            assert st[HEADS + office] == (0 if r >= n else st[HEADS + office])
            assert r >= n or st[HEADS + office] == 2 or st[EMP + office] >= 1
    assert 0 <= st[BOARD_N] <= 5
    assert all(0 <= st[BOARD + c] < players for c in range(st[BOARD_N]))
    assert all(0 <= st[HOLDER + c] < players for c in range(N_PRIVILEGES))
    for s in range(players):
        for which in range(ps.N_TRACKS):
            assert 0 <= st[TRACK + ps.N_TRACKS * s + which] <= st[TRACK_MAX + which]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_legal_play_keeps_the_invariants(players):
    rules = kernel.prepare(GAME.rules_with_defaults({}), players)
    kinds = set()
    for index in range(12):
        st, rng = _fresh(np.uint64(11), index)
        protocol.new_game(players, st, rules, rng, NO_TRACE)
        stock = [int(st[STOCK + size]) for size in range(1, N_SIZES + 1)]
        decisions = 0
        while not protocol.is_over(st):
            seat = protocol.to_move(st)
            assert 0 <= seat < players
            options = _options(st, rules)
            assert len(options) >= 1 and len(set(options)) == len(options)
            kinds.add(int(st[P_DECISION]))
            protocol.apply(st, rules, options[rand_below(rng, len(options))], rng, NO_TRACE)
            decisions += 1
            if decisions % 7 == 0 or protocol.is_over(st):
                _invariants(st, rules, players, stock)
        assert protocol.to_move(st) == -1 and st[ps.P_OUTCOME] in (1, 2)
        out = np.zeros(players)
        protocol.returns(st, out)
        winners = [s for s in range(players) if out[s] == 1.0]
        assert out.sum() == len(winners) and (winners == [] or st[ps.P_OUTCOME] == 1)
        target = 4
        assert all(ps.victory_points(st, s) >= target for s in winners)
    assert kinds == set(range(1, len(DECISION_KINDS))), [DECISION_KINDS[k] for k in kinds]


def test_determinize_keeps_the_deciding_seats_key_and_options():
    """At every decision of scripted and random games, a redraw for the deciding seat has the
    same ``infoset_key`` and the same options for it; the redraw does change hidden things."""
    config = "5p mixed with random"
    players, prepared, ids, params, seed, rotate = _setup(config)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, params.shape[1]))
    labels = np.zeros((1, players, N_STANDARD_SEAT_COLUMNS), dtype=np.int64)
    redraw = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(3), 0, redraw)
    changed = 0
    checked = 0
    for index in range(4):
        seat_lineup(ids, params, index, players, rotate, sids, prm, labels, 0)
        st, rng = _fresh(seed, index)
        protocol.new_game(players, st, prepared, rng, NO_TRACE)
        while not protocol.is_over(st):
            seat = protocol.to_move(st)
            twin = st.copy()
            protocol.determinize(twin, seat, redraw)
            assert protocol.infoset_key(twin, seat) == protocol.infoset_key(st, seat)
            assert np.array_equal(_options(twin, prepared), _options(st, prepared))
            changed += not np.array_equal(twin, st)
            checked += 1
            if index % 2:
                move = _options(st, prepared)[rand_below(rng, len(_options(st, prepared)))]
            else:
                move = strategy.decide(sids[seat], prm, seat, st, prepared, rng)
            protocol.apply(st, prepared, move, rng, NO_TRACE)
    assert changed > checked // 2
