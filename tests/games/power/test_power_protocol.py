"""POWER's own parts of its decision-point protocol (docs/protocol.md,
simcore/games/power/rules.py); the checks every game's protocol meets (scripted games through
the protocol are the kernel's, random legal play keeps POWER's invariants, ``determinize``
redraws only what the seat cannot see) are tests/contract/test_protocol.py's.

- ``play_out`` (the search's rollouts) ends a game begun through the protocol as answering each
  decision would, in every reference configuration.
- During one seat's exchange, the drawn cards are hidden from the others and redrawn for them.
- ``believe`` deals claimed cards from public information only.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.power import game as kernel
from simcore.games.power import rules as rules_module
from simcore.games.power.state import (
    CLAIMS,
    D_ACTION,
    D_CHALLENGE,
    D_EXCHANGE,
    DECK,
    DOWN,
    HAND,
    MAX_MOVES,
    N_CHARACTERS,
    OPTIONS,
    P_CLAIM,
    P_CLAIMANT,
    P_DECISION,
    P_DECISIONS,
    P_OVER,
    P_PLAYERS,
    P_SEAT,
    P_TRUNCATED,
    P_TURN,
    P_WINNER,
    STATE_SIZE,
    TRACE_WIDTH,
)
from simcore.kernel.rng import rand_below
from strategies import power as strategy
from tests.contract.common import fresh
from tests.contract.games.power import PROTOCOL, conserved

GAME = registry.make("power")
NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)


def _setup(config: str):
    encoded = PROTOCOL[config].encoded("power")
    spec = encoded.spec
    return spec.players, encoded.prepared, encoded.ids, encoded.params, np.uint64(spec.seed)


def _fresh(seed, index):
    """A zeroed state and game ``index``'s stream under ``seed``."""
    return fresh(STATE_SIZE, seed, index)


@pytest.mark.parametrize("config", list(PROTOCOL))
def test_play_out_finishes_a_game_as_the_protocol_does(config):
    """``play_out`` (the search's rollouts: the protocol up to the next turn, then scripted turns)
    ends a game begun through the protocol exactly as answering each decision would: the same
    cards, Dollars, statistics, winner and turns, and the same draws from the stream, from every
    kind of pending decision."""
    players, prepared, ids, params, seed = _setup(config)
    outcome = [P_OVER, P_WINNER, P_TURN, P_TRUNCATED, P_SEAT]
    kinds = set()
    for index in range(40):
        st, rng = _fresh(seed, index)
        rules_module.new_game(players, st, prepared, rng, NO_TRACE)
        for _ in range(3 * index):  # stop a little later in each game
            if rules_module.is_over(st):
                break
            seat = rules_module.to_move(st)
            move = strategy.decide(ids[seat], params, seat, st, prepared, rng)
            rules_module.apply(st, prepared, move, rng, NO_TRACE)
        kinds.add(int(st[P_DECISION]))
        by_protocol, protocol_rng = st.copy(), rng.copy()
        while not rules_module.is_over(by_protocol):
            seat = rules_module.to_move(by_protocol)
            move = strategy.decide(ids[seat], params, seat, by_protocol, prepared, protocol_rng)
            rules_module.apply(by_protocol, prepared, move, protocol_rng, NO_TRACE)
        kernel.play_out(st, prepared, ids, params, rng, NO_TRACE)
        where = f"{config}, game {index}"
        np.testing.assert_array_equal(rng, protocol_rng, err_msg=where)
        np.testing.assert_array_equal(st[:P_PLAYERS], by_protocol[:P_PLAYERS], err_msg=where)
        kept = slice(P_DECISIONS + 1, None)  # the kept counts
        np.testing.assert_array_equal(st[kept], by_protocol[kept], err_msg=where)
        np.testing.assert_array_equal(st[outcome], by_protocol[outcome], err_msg=where)
    assert {D_ACTION, D_CHALLENGE} <= kinds, kinds


def test_another_seats_exchange_is_redrawn_too():
    """During seat 0's exchange, seat 1 has not seen the drawn cards: they are redrawn."""
    players = 3
    rules = kernel.prepare(GAME.rules_with_defaults({}), players)
    redrawn = 0
    for index in range(200):
        st, rng = _fresh(np.uint64(4), index)
        rules_module.deal(players, st, rules, rng, NO_TRACE)
        st[P_PLAYERS] = players
        rules_module.draw_for_exchange(0, st, rules, rng)
        st[P_DECISION] = D_EXCHANGE
        st[P_SEAT] = 0
        twin = st.copy()
        rules_module.determinize(twin, 1, rng)
        conserved(twin, rules, players)
        assert list(twin[HAND + 2 : HAND + 4]) == list(st[HAND + 2 : HAND + 4])  # seat 1's own
        assert list(twin[OPTIONS : OPTIONS + 2]) == list(twin[HAND : HAND + 2])
        options = OPTIONS + 2
        redrawn += not np.array_equal(twin[options : options + 2], st[options : options + 2])
    assert redrawn > 100


def test_believe_deals_claimed_cards_from_public_information_only():
    """``believe`` (the search's deal, docs/ismcts.md "Beliefs"): trust 0 is ``determinize`` draw
    for draw; trust 1 gives each seat claiming a character a copy of it whenever one is unseen;
    and the deal depends on nothing the seat cannot see (the same deal from the true state and
    from any redraw of it)."""
    players = 4
    rules = kernel.prepare(GAME.rules_with_defaults({}), players)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    believed = 0
    for index in range(30):
        st, rng = _fresh(np.uint64(5), index)
        rules_module.new_game(players, st, rules, rng, NO_TRACE)
        while not rules_module.is_over(st):
            seat = rules_module.to_move(st)
            uniform, trusting = st.copy(), st.copy()
            uniform_rng, trusting_rng = rng.copy(), rng.copy()
            rules_module.determinize(uniform, seat, uniform_rng)
            rules_module.believe(trusting, seat, 0.0, trusting_rng)
            assert np.array_equal(uniform, trusting) and np.array_equal(uniform_rng, trusting_rng)
            redrawn = st.copy()
            rules_module.determinize(redrawn, seat, rng.copy())
            from_truth, from_redraw = st.copy(), redrawn
            rules_module.believe(from_truth, seat, 1.0, rng.copy())
            rules_module.believe(from_redraw, seat, 1.0, rng.copy())
            assert np.array_equal(from_truth, from_redraw)
            conserved(from_truth, rules, players)
            for other in range(players):
                claims = st[CLAIMS + other]
                if st[P_DECISION] == D_CHALLENGE and st[P_CLAIMANT] == other:
                    claims |= 1 << st[P_CLAIM]
                down = [k for k in range(2) if st[DOWN + 2 * other + k]]
                if other == seat or not down or claims == 0:
                    continue
                held = {int(from_truth[HAND + 2 * other + k]) for k in down}
                unseen = [c for c in range(N_CHARACTERS) if (claims >> c) & 1 and (
                    from_truth[DECK + c] > 0 or c in held
                )]  # fmt: skip
                if unseen:  # the first believed character with a copy left is dealt to it
                    assert held & set(unseen)
                    believed += 1
            n = rules_module.legal(st, rules, moves)
            rules_module.apply(st, rules, moves[rand_below(rng, n)], rng, NO_TRACE)
    assert believed > 100
