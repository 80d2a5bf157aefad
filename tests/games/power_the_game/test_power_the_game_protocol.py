"""POWER: The Game's decision-point protocol (docs/protocol.md,
simcore/games/power_the_game/rules.py).

The checks every game's protocol meets are tests/contract/test_protocol.py's (for this game:
scripted games through the protocol are the kernel's in every configuration of the referee's
sweep; in random legal play the deciding seat is in and has not chosen yet, and pieces and Power
Units are conserved round by round; ``infoset_key`` is blind to ``determinize``). Here, this
game's own:

- random legal play takes both a planner's base pad and its variations, and no other option;
- ``determinize`` redraws exactly the others' chosen options and targets;
- ``infoset_key`` sees public changes and the seat's own choice.
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
    to_move,
)
from simcore.games.power_the_game.state import (
    CHOSEN,
    INFANTRY,
    MAX_OPTIONS,
    P_DECISIONS,
    P_N_OPTIONS,
    P_SEAT,
    PLAYERS,
    STATE_SIZE,
    TARGET,
    TRACE_WIDTH,
    hq_of,
)
from simcore.kernel.rng import rand_below, seed_game_stream

GAME = registry.make("power-the-game")
TRACE_ROWS = 60_000


def _stream(seed: int, index: int) -> np.ndarray:
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return rng


def test_random_play_takes_base_pads_and_variations_and_no_other_option():
    """In random legal play (whose invariants tests/contract/test_protocol.py checks) both a
    planner's base pad and its variations are played; an option outside ``legal`` is a bug, not
    a move."""
    players = 4
    prepared = kernel.prepare(GAME.rules_with_defaults({}), players)
    ids, params = GAME.encode_strategies([registry.parse_strategy(GAME, "balanced")] * players)
    game = kernel.protocol_game(prepared, ids, params)
    n_planners = len(game[3])
    moves = np.zeros(MAX_OPTIONS, dtype=np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    chosen = set()
    for index in range(12):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        rng = _stream(3, index)
        new_game(players, st, game, rng, no_trace)
        while not is_over(st):
            n = legal(st, game, moves)
            move = int(moves[rand_below(rng, n)])
            chosen.add(move)
            apply(st, game, move, rng, no_trace)
    assert len(chosen) > n_planners
    with pytest.raises(ValueError):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        new_game(players, st, game, _stream(5, 0), no_trace)
        apply(st, game, 2 * n_planners, _stream(5, 0), no_trace)


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
