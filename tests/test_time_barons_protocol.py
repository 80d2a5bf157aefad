"""Time Barons' decision-point protocol (docs/protocol.md, simcore/games/time_barons/rules.py).

- Scripted games played through the protocol (``new_game``/``apply``, each decision answered by
  ``strategies.time_barons.decide``) are the games of the scripted kernel: same rows, same
  traces, in every configuration of the referee's sweep (tests/test_time_barons_referee.py).
- Random legal play keeps every invariant: followers, damage counters and cards are conserved,
  every option applied was in ``legal``, and games end.
- ``determinize`` redraws only what the seat cannot see, and ``infoset_key`` is blind to it.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.time_barons import game as kernel
from simcore.games.time_barons.rules import (
    apply,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from simcore.games.time_barons.state import (
    D_NONE,
    DAMAGE,
    DECISION_KINDS,
    DECK,
    DISCARD_N,
    FOLLOW,
    GONE,
    HAND,
    HAND_N,
    IN_DISCARD,
    IN_HAND,
    IN_PLAY,
    IN_STACK,
    LOC,
    MAX_IDS,
    MAX_MOVES,
    N_SEAT_STATS,
    OWNER,
    P_DECISION,
    P_WINNER,
    POOL,
    SHOWN,
    SITES,
    SITES_N,
    STACK_END,
    STACK_TOP,
    STATE_SIZE,
    SUPPLY,
    TRACE_LEN,
    TRACE_WIDTH,
    UNUSED,
)
from simcore.kernel.chunk import N_STANDARD_GAME_COLUMNS, N_STANDARD_SEAT_COLUMNS, new_outputs
from simcore.kernel.rng import rand_below, seed_game_stream
from simcore.workflows import runner
from strategies import time_barons as strategy
from tests.test_time_barons_referee import CONFIGS, CORNER, corner_card_file

GAME = registry.make("time-barons")
NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
COLUMNS = (
    N_STANDARD_GAME_COLUMNS + len(kernel.GAME_COLUMNS),
    N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
)


def _setup(config: str):
    lineup, settings, seed, _ = CONFIGS[config]
    settings = [f"cards={corner_card_file()}" if s == CORNER else s for s in settings]
    spec = runner.build_spec("time-barons", 2, lineup, settings, seed, 1, rotate_seats=True)
    prepared = kernel.prepare(spec.rules, 2)
    ids, params = GAME.encode_strategies(spec.seat_strategies())
    return spec.rules, prepared, ids, params, np.uint64(seed)


def _play(setup, index, via_protocol, trace_rows):
    _, prepared, ids, params, seed = setup
    game_out, seat_out = new_outputs(1, 2, *COLUMNS)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    trace = np.zeros((trace_rows, TRACE_WIDTH), dtype=np.int64)
    sids = np.zeros(2, dtype=np.int64)
    prm = np.zeros((2, params.shape[1]))
    rng = np.zeros(4, dtype=np.uint64)
    play = kernel.play_indexed_protocol if via_protocol else kernel.play_indexed
    play(
        2, ids, params, seed, index, True, st, prepared, sids, prm, rng, trace, 0,
        game_out, seat_out,
    )  # fmt: skip
    return game_out.copy(), seat_out.copy(), trace[: st[TRACE_LEN]].copy()


@pytest.mark.parametrize("config", list(CONFIGS))
def test_scripted_games_through_the_protocol_are_the_kernels_games(config):
    setup = _setup(config)
    for index in range(12):
        rows = 40_000 if index % 3 == 0 else 0  # every third game traced event by event
        fast = _play(setup, index, False, rows)
        protocol = _play(setup, index, True, rows)
        for a, b in zip(fast, protocol, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{config}, game {index}")


def _fresh(seed, index):
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return np.zeros(STATE_SIZE, dtype=np.int64), rng


def _conserved(st, rules):
    """Followers, damage counters and cards are all somewhere, once."""
    sites = [int(st[SITES + MAX_IDS * s + i]) for s in range(2) for i in range(st[SITES_N + s])]
    assert st[SUPPLY] >= 0 and st[POOL] >= 0
    assert sum(int(st[FOLLOW + site]) for site in sites) + st[SUPPLY] == rules["followers"]
    assert sum(int(st[DAMAGE + site]) for site in sites) + st[POOL] == rules["damage_counters"]
    places = []
    for level in range(1, 5):
        stack = st[DECK + st[STACK_TOP + level - 1] : DECK + st[STACK_END + level - 1]]
        assert all(st[LOC + c] == IN_STACK for c in stack)
        places += [int(c) for c in stack]
    for seat in range(2):
        hand = st[HAND + MAX_IDS * seat : HAND + MAX_IDS * seat + st[HAND_N + seat]]
        assert all(st[LOC + c] == IN_HAND and st[OWNER + c] == seat for c in hand)
        places += [int(c) for c in hand]
    # An event or reaction being played, out of the hand and not yet discarded (an event and a
    # reaction answering it at most).
    resolving = [c for c in range(MAX_IDS) if st[LOC + c] == IN_HAND and st[OWNER + c] == -1]
    assert len(resolving) <= 2
    places += resolving
    places += [c for c in range(MAX_IDS) if st[LOC + c] == IN_PLAY]
    places += [c for c in range(MAX_IDS) if st[LOC + c] == IN_DISCARD]
    places += [c for c in range(MAX_IDS) if st[LOC + c] == GONE]
    assert st[DISCARD_N] == sum(1 for c in range(MAX_IDS) if st[LOC + c] == IN_DISCARD)
    assert sorted(places) == [c for c in range(MAX_IDS) if st[LOC + c] != UNUSED]


@pytest.mark.parametrize("settings", [[], [CORNER, "hand_size=4", "attack_targets=on_resolution"]])
def test_random_legal_play_keeps_the_invariants(settings):
    settings = [f"cards={corner_card_file()}" if s == CORNER else s for s in settings]
    rules = GAME.rules_with_defaults(
        {k: GAME.rule(k).parse(v, "test") for k, v in (s.split("=") for s in settings)}
    )
    prepared = kernel.prepare(rules, 2)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    kinds = set()
    for index in range(30):
        st, rng = _fresh(3, index)
        new_game(2, st, prepared, rng, NO_TRACE)
        decisions = 0
        while not is_over(st):
            seat = to_move(st)
            assert st[P_DECISION] != D_NONE and seat in (0, 1)
            n = legal(st, prepared, moves)
            assert 1 <= n < MAX_MOVES and len(set(moves[:n])) == n
            kinds.add(DECISION_KINDS[st[P_DECISION]])
            move = moves[rand_below(rng, n)]
            apply(st, prepared, move, rng, NO_TRACE)
            _conserved(st, rules)
            decisions += 1
        assert decisions > 0 and to_move(st) == -1
        out = np.zeros(2)
        returns(st, out)
        winner = int(st[P_WINNER])
        assert out.sum() == (winner >= 0) and (winner < 0 or out[winner] == 1)
    assert kinds == set(DECISION_KINDS[1:]), kinds  # every kind of decision came up


def test_scripted_answers_are_legal_options():
    """Every answer the scripted strategies give through ``decide`` is in ``legal``."""
    for config in ("random, rulebook defaults", "builder vs attacker, 1 first-turn action"):
        _, prepared, ids, params, seed = _setup(config)
        moves = np.zeros(MAX_MOVES, dtype=np.int64)
        for index in range(8):
            st, rng = _fresh(seed, index)
            new_game(2, st, prepared, rng, NO_TRACE)
            while not is_over(st):
                seat = to_move(st)
                n = legal(st, prepared, moves)
                move = strategy.decide(ids[index % 2 ^ seat], params, seat, st, prepared, rng)
                assert move in moves[:n], (DECISION_KINDS[st[P_DECISION]], move, moves[:n])
                apply(st, prepared, move, rng, NO_TRACE)


def test_determinize_redraws_only_the_unseen_and_the_key_cannot_tell():
    prepared = kernel.prepare(GAME.rules_with_defaults({}), 2)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    changed = 0
    for index in range(10):
        st, rng = _fresh(9, index)
        new_game(2, st, prepared, rng, NO_TRACE)
        while not is_over(st):
            seat = to_move(st)
            other = 1 - seat
            twin = st.copy()
            determinize(twin, seat, rng)
            key = infoset_key(st, seat)
            assert infoset_key(twin, seat) == key
            own = slice(HAND + MAX_IDS * seat, HAND + MAX_IDS * (seat + 1))
            assert np.array_equal(twin[own], st[own])
            hand = slice(HAND + MAX_IDS * other, HAND + MAX_IDS * other + st[HAND_N + other])
            for a, b in zip(st[hand], twin[hand], strict=True):
                assert prepared[1][a, 0] == prepared[1][b, 0]  # the same level
                assert not st[SHOWN + a] or a == b  # a shown card stays
            changed += not np.array_equal(twin[hand], st[hand])
            if not np.array_equal(twin[hand], st[hand]):  # the other seat sees its own hand
                assert infoset_key(twin, other) != infoset_key(st, other)
            n = legal(st, prepared, moves)
            apply(st, prepared, moves[rand_below(rng, n)], rng, NO_TRACE)
    assert changed > 100
