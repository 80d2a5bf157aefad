"""Power Barons' decision-point protocol (docs/protocol.md, simcore/games/power_barons/rules.py).

- Scripted games played through the protocol (``new_game``/``apply``, each decision answered by
  ``strategies.power_barons.decide``) are the games of the scripted kernel: same rows, same
  traces, in every configuration of the referee sweep (tests/test_power_barons_referee.py).
- Random legal play keeps every invariant: cards and Power Bases are conserved, the deciding
  seat is a player, every option applied was in ``legal`` (a random one; surrenders rare), every
  decision kind comes up, and a finished game has one winner who built its bases (or none, cut
  off by the turn cap).
- ``determinize`` redraws only what the seat cannot see, ``infoset_key`` cannot tell the redrawn
  state from the true one, and ``legal`` lists the same options in both.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_barons import game as kernel
from simcore.games.power_barons import rules as rules_module
from simcore.games.power_barons.state import (
    BANK_WORDS,
    BANKED,
    BASES,
    COUNT_AT,
    CREDITS_AT,
    D_NONE,
    D_STEAL,
    D_SURRENDER,
    DRAWPILE,
    HAND,
    LOC,
    MAX_MOVES,
    N_CARDS,
    N_DECISIONS,
    N_GAME_STATS,
    N_LOCATIONS,
    N_SEAT_STATS,
    N_TYPES,
    P_DECISION,
    P_SEAT,
    P_VICTIM,
    P_WINNER,
    STATE_SIZE,
    SUPPLY,
    TRACE_LEN,
    TRACE_WIDTH,
    has_won,
    recount,
)
from simcore.kernel.chunk import N_STANDARD_GAME_COLUMNS, N_STANDARD_SEAT_COLUMNS, new_outputs
from simcore.kernel.rng import rand_below, seed_game_stream
from simcore.workflows import runner
from strategies import power_barons as strategy
from tests.test_power_barons_referee import CONFIGS, settings_for

GAME = registry.make("power-barons")
NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)


def _setup(config: str):
    players, lineup, settings, seed, games = CONFIGS[config]
    spec = runner.build_spec(
        "power-barons", players, lineup, settings_for(settings), seed, 1, rotate_seats=True
    )
    prepared = kernel.prepare(spec.rules, players)
    ids, params = GAME.encode_strategies(spec.seat_strategies())
    return players, prepared, ids, params, np.uint64(seed), games


def _play(setup, index, via_protocol, trace_rows):
    players, prepared, ids, params, seed, _ = setup
    game_out, seat_out = new_outputs(
        1, players, N_STANDARD_GAME_COLUMNS + N_GAME_STATS, N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS
    )
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    trace = np.zeros((trace_rows, TRACE_WIDTH), dtype=np.int64)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, params.shape[1]))
    rng = np.zeros(4, dtype=np.uint64)
    play = kernel.play_indexed_protocol if via_protocol else kernel.play_indexed
    play(
        players, ids, params, seed, index, True, st, prepared, sids, prm, rng, trace, 0,
        game_out, seat_out,
    )  # fmt: skip
    return game_out.copy(), seat_out.copy(), trace[: st[TRACE_LEN]].copy()


@pytest.mark.parametrize("config", list(CONFIGS))
def test_scripted_games_through_the_protocol_are_the_kernels_games(config):
    setup = _setup(config)
    for index in range(setup[-1]):
        rows = 60_000 if index % 4 == 0 else 0  # every fourth game traced event by event
        fast = _play(setup, index, False, rows)
        protocol = _play(setup, index, True, rows)
        for a, b in zip(fast, protocol, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{config}, game {index}")


def _fresh(seed, index):
    """A zeroed state and game ``index``'s stream under ``seed``."""
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return np.zeros(STATE_SIZE, dtype=np.int64), rng


def _conserved(st, players, per_type):
    """Every card in one place, the kept counts and sets in step with it, no base lost."""
    copy = st.copy()
    recount(copy)
    for first, size in (
        (COUNT_AT, N_LOCATIONS),
        (CREDITS_AT, N_LOCATIONS),
        (BANKED, 4 * BANK_WORDS),
    ):
        np.testing.assert_array_equal(copy[first : first + size], st[first : first + size])
    assert st[COUNT_AT : COUNT_AT + N_LOCATIONS].sum() == st[N_CARDS]
    for owner in range(players):
        for base_type in range(N_TYPES):
            placed = sum(int(st[BASES + 16 * owner + 4 * t + base_type]) for t in range(4))
            assert placed + st[SUPPLY + N_TYPES * owner + base_type] == per_type


def _rules(players, settings):
    parsed = {k: GAME.rule(k).parse(v, "test") for k, v in (s.split("=") for s in settings)}
    return kernel.prepare(GAME.rules_with_defaults(parsed), players)


@pytest.mark.parametrize(
    ("players", "settings"), [(3, []), (4, []), (4, ["hand_size=3", "base_cost=60"])]
)
def test_random_legal_play_keeps_the_invariants(players, settings):
    rules = _rules(players, settings)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    kinds = set()
    for index in range(12):
        st, rng = _fresh(np.uint64(5), index)
        rules_module.new_game(players, st, rules, rng, NO_TRACE)
        per_type = int(st[SUPPLY])
        decisions = 0
        while not rules_module.is_over(st):
            seat = rules_module.to_move(st)
            assert st[P_DECISION] != D_NONE and 0 <= seat < players
            n = rules_module.legal(st, rules, moves)
            assert 1 <= n <= MAX_MOVES and len(set(moves[:n])) == n
            kinds.add(int(st[P_DECISION]))
            pick = rand_below(rng, n)
            if st[P_DECISION] == D_SURRENDER:  # rarely, so that challenges reach the PI round
                pick = int(rand_below(rng, 8) == 0)
            rules_module.apply(st, rules, moves[pick], rng, NO_TRACE)
            _conserved(st, players, per_type)
            decisions += 1
        assert decisions > 0 and st[P_SEAT] == -1
        winner = int(st[P_WINNER])
        assert winner == -1 or has_won(st, players, winner)
        out = np.zeros(players)
        rules_module.returns(st, out)
        assert out.sum() == (winner >= 0)
    assert kinds == set(range(1, N_DECISIONS))  # every decision kind came up


def test_scripted_answers_are_legal_options():
    """Every answer the scripted strategies give through ``decide`` is in ``legal``."""
    players, prepared, ids, params, seed, _ = _setup("4p mixed")
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    for index in range(30):
        st, rng = _fresh(seed, index)
        rules_module.new_game(players, st, prepared, rng, NO_TRACE)
        while not rules_module.is_over(st):
            seat = rules_module.to_move(st)
            n = rules_module.legal(st, prepared, moves)
            move = strategy.decide(ids[seat], params, seat, st, prepared, rng)
            assert move in moves[:n], (int(st[P_DECISION]), move, moves[:n])
            rules_module.apply(st, prepared, move, rng, NO_TRACE)


def _hidden_from(st, seat):
    """Where each card lies, with what ``seat`` cannot see as -1."""
    shown = st[P_VICTIM] if st[P_DECISION] == D_STEAL and st[P_SEAT] == seat else -1
    places = st[LOC : LOC + st[N_CARDS]].copy()
    in_hand = (places >= HAND) & (places < HAND + 4)
    unseen = (places == DRAWPILE) | (in_hand & (places != HAND + seat) & (places != HAND + shown))
    places[unseen] = -1
    return places


def test_determinize_redraws_only_the_unseen_and_the_key_cannot_tell():
    players = 4
    rules = _rules(players, [])
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    twin_moves = np.zeros(MAX_MOVES, dtype=np.int64)
    changed = steals = 0
    for index in range(4):
        st, rng = _fresh(np.uint64(9), index)
        rules_module.new_game(players, st, rules, rng, NO_TRACE)
        per_type = int(st[SUPPLY])
        while not rules_module.is_over(st):
            seat = rules_module.to_move(st)
            key = rules_module.infoset_key(st, seat)
            twins = [st.copy(), st.copy()]
            for twin in twins:
                rules_module.determinize(twin, seat, rng)
                _conserved(twin, players, per_type)
                assert rules_module.infoset_key(twin, seat) == key
                np.testing.assert_array_equal(_hidden_from(twin, seat), _hidden_from(st, seat))
                n = rules_module.legal(st, rules, moves)
                assert rules_module.legal(twin, rules, twin_moves) == n
                np.testing.assert_array_equal(np.sort(twin_moves[:n]), np.sort(moves[:n]))
            cards = slice(LOC, LOC + st[N_CARDS])
            changed += not np.array_equal(twins[0][cards], st[cards])
            steals += st[P_DECISION] == D_STEAL
            # Another seat sees other cards: another key.
            assert rules_module.infoset_key(st, (seat + 1) % players) != key
            n = rules_module.legal(st, rules, moves)
            rules_module.apply(st, rules, moves[rand_below(rng, n)], rng, NO_TRACE)
    assert changed > 100 and steals > 0
