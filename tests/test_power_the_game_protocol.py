"""POWER: The Game's decision-point protocol (docs/protocol.md,
simcore/games/power_the_game/rules.py).

- Scripted games played through the protocol (``new_game``/``apply``, each seat's orders answered
  by ``strategies.power_the_game.decide``) are the games of the scripted kernel: same rows, same
  traces, in every configuration of the referee's sweep (tests/test_power_the_game_referee.py).
- Random legal play keeps every invariant: every option applied was in ``legal``, the deciding
  seat is in and has not chosen yet, pieces and Power Units are conserved round by round (the
  trace replays to every snapshot, within the colours' sets), and games end by the rules.
- ``determinize`` redraws only what the seat cannot see (the others' chosen options and
  targets), and ``infoset_key`` is blind to it.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_the_game import game as kernel
from simcore.games.power_the_game import search as power_the_game_search
from simcore.games.power_the_game.pieces import change
from simcore.games.power_the_game.rules import (
    apply,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from simcore.games.power_the_game.state import (
    CHOSEN,
    D_ORDERS,
    INFANTRY,
    MAX_OPTIONS,
    N_SEAT_STATS,
    P_DECISION,
    P_DECISIONS,
    P_N_OPTIONS,
    P_SEAT,
    PLAYERS,
    SEAT_IN,
    STATE_SIZE,
    TARGET,
    TRACE_LEN,
    TRACE_WIDTH,
    hq_of,
)
from simcore.kernel.chunk import N_STANDARD_GAME_COLUMNS, N_STANDARD_SEAT_COLUMNS, new_outputs
from simcore.kernel.rng import rand_below, seed_game_stream
from simcore.workflows import runner
from tests.test_power_the_game_invariants import replay
from tests.test_power_the_game_referee import CONFIGS

GAME = registry.make("power-the-game")
TRACE_ROWS = 60_000


def _setup(config: str):
    players, lineup, settings, seed, games = CONFIGS[config]
    spec = runner.build_spec("power-the-game", players, lineup, settings, seed, 1, True)
    prepared = kernel.prepare(spec.rules, players)
    ids, params = GAME.encode_strategies(spec.seat_strategies())
    return players, prepared, ids, params, np.uint64(seed), games


def _play(setup, index, via_protocol, trace_rows):
    players, prepared, ids, params, seed, _ = setup
    game_out, seat_out = new_outputs(
        1, players, N_STANDARD_GAME_COLUMNS + 2, N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS
    )
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    trace = np.zeros((trace_rows, TRACE_WIDTH), dtype=np.int64)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, params.shape[1]))
    rng = np.zeros(4, dtype=np.uint64)
    game = kernel.protocol_game(prepared, ids, params)
    play = kernel.play_indexed_protocol if via_protocol else kernel.play_indexed
    play(
        players, ids, params, seed, index, True, st, game, sids, prm, rng, trace, 0,
        game_out, seat_out,
    )  # fmt: skip
    assert st[TRACE_LEN] <= trace_rows
    return game_out.copy(), seat_out.copy(), trace[: st[TRACE_LEN]].copy()


@pytest.mark.parametrize("config", list(CONFIGS))
def test_scripted_games_through_the_protocol_are_the_kernels_games(config):
    setup = _setup(config)
    for index in range(setup[-1]):
        rows = TRACE_ROWS if index % 3 == 0 else 0  # every third game traced event by event
        fast = _play(setup, index, False, rows)
        protocol = _play(setup, index, True, rows)
        for a, b in zip(fast, protocol, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{config}, game {index}")


def _stream(seed: int, index: int) -> np.ndarray:
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return rng


@pytest.mark.parametrize(
    ("players", "settings"),
    [(4, {}), (3, {"blockade": False, "missile_cost": 20}), (2, {"commands": 3})],
)
def test_random_legal_play_keeps_the_invariants(players, settings):
    rules = GAME.rules_with_defaults(settings)
    prepared = kernel.prepare(rules, players)
    ids, params = GAME.encode_strategies([registry.parse_strategy(GAME, "balanced")] * players)
    game = kernel.protocol_game(prepared, ids, params)
    n_planners = len(game[3])
    moves = np.zeros(MAX_OPTIONS, dtype=np.int64)
    chosen = set()
    for index in range(12):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        trace = np.zeros((TRACE_ROWS, TRACE_WIDTH), dtype=np.int64)
        rng = _stream(3, index)
        pick = _stream(4, index)
        new_game(players, st, game, rng, trace)
        decisions = 0
        while not is_over(st):
            seat = to_move(st)
            assert st[P_DECISION] == D_ORDERS and st[SEAT_IN + seat] == 1
            assert st[CHOSEN + seat] == -1  # one decision per seat and round
            n = legal(st, game, moves)
            assert n == 2 * n_planners == st[P_N_OPTIONS]
            move = int(moves[rand_below(pick, n)])
            chosen.add(move)
            apply(st, game, move, rng, trace)
            decisions += 1
        assert to_move(st) == -1 and decisions <= players * rules["max_rounds"]
        out = np.zeros(4)
        returns(st, out)
        assert out.sum() <= 1.0
        _, board, dist = prepared
        replay(trace[: st[TRACE_LEN]], board, dist, rules["component_limits"])
    assert len(chosen) > n_planners  # base pads and variations were both played
    with pytest.raises(ValueError):  # an option outside legal is a bug, not a move
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        new_game(players, st, game, _stream(5, 0), trace)
        apply(st, game, 2 * n_planners, _stream(5, 0), trace)


def _mid_round(players: int, decided: int):
    """A state in round 5 of a scripted game where seats 0 .. decided - 1 have chosen."""
    prepared = kernel.prepare(GAME.rules_with_defaults({}), players)
    names = ["balanced", "preset:blitz-vs-mixed", "missile", "turtle"][:players]
    ids, params = GAME.encode_strategies([registry.parse_strategy(GAME, n) for n in names])
    game = kernel.protocol_game(prepared, ids, params)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = _stream(8, 1)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    new_game(players, st, game, rng, no_trace)
    for _ in range(5 * players + decided):
        seat = to_move(st)
        move = power_the_game_search.choose(ids, params, seat, st, game, rng)
        apply(st, game, move, rng, no_trace)
    assert to_move(st) == decided and st[PLAYERS] == players
    return st, game


def test_determinize_redraws_only_the_others_choices_and_targets():
    st, _ = _mid_round(4, 2)
    seat = 2
    hidden = {CHOSEN + 0, CHOSEN + 1} | {TARGET + a for a in (0, 1, 3)}
    changed = set()
    keys = set()
    for k in range(20):
        twin = st.copy()
        determinize(twin, seat, _stream(9, k))
        changed |= set(np.flatnonzero(twin != st).tolist())
        keys.add(infoset_key(twin, seat))
        assert twin[CHOSEN + 3] == -1 and twin[CHOSEN + seat] == -1  # not chosen yet: nothing
        assert (twin[CHOSEN : CHOSEN + 2] < twin[P_N_OPTIONS]).all()
    assert changed and changed <= hidden, sorted(changed - hidden)
    assert CHOSEN + 0 in changed and CHOSEN + 1 in changed
    assert keys == {infoset_key(st, seat)}
    # What the other seats see differs with what the redraw changed, and from seat to seat.
    others = {infoset_key(st, s) for s in range(4)}
    assert len(others) == 4


def test_the_infoset_key_sees_public_changes():
    st, game = _mid_round(3, 0)
    key = infoset_key(st, 0)
    for field in (P_DECISIONS,):  # a count of decisions: not observed by the key
        twin = st.copy()
        twin[field] += 1
        assert infoset_key(twin, 0) == key
    gained = st.copy()
    change(gained, 1, hq_of(game[1], 1), INFANTRY, 1)  # seat 1 bought one more
    assert infoset_key(gained, 0) != key
    moved = st.copy()
    rng = _stream(1, 0)
    apply(moved, game, 0, rng, np.zeros((0, TRACE_WIDTH), dtype=np.int64))
    assert to_move(moved) == 1
    assert infoset_key(moved, 0) != key  # its own choice is now part of what it knows
    assert moved[P_SEAT] == 1
