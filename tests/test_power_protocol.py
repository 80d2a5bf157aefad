"""POWER's decision-point protocol (docs/protocol.md, simcore/games/power/rules.py).

- Scripted games played through the protocol (``new_game``/``apply``, each decision answered by
  ``strategies.power.decide``) are the games of the scripted kernel: same rows, same traces, in
  every configuration of the reference digests (tests/test_power_reference.py).
- Random legal play keeps every invariant: Dollars and cards are conserved, the deciding seat is
  in the game, every option applied was in ``legal``, and games end.
- ``determinize`` redraws only what the seat cannot see, and ``infoset_key`` is blind to it.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.power import game as kernel
from simcore.games.power import rules as rules_module
from simcore.games.power.state import (
    CLAIMS,
    COINS,
    D_ACTION,
    D_CHALLENGE,
    D_EXCHANGE,
    D_NONE,
    DECK,
    DOWN,
    HAND,
    MAX_MOVES,
    N_CHARACTERS,
    N_SEAT_STATS,
    OPTIONS,
    P_CLAIM,
    P_CLAIMANT,
    P_DECISION,
    P_DECISIONS,
    P_N_OPTIONS,
    P_OVER,
    P_PLAYERS,
    P_SEAT,
    P_TRUNCATED,
    P_TURN,
    P_WINNER,
    SAFE,
    STATE_SIZE,
    TRACE_WIDTH,
    influence,
)
from simcore.kernel.chunk import N_STANDARD_GAME_COLUMNS, N_STANDARD_SEAT_COLUMNS, new_outputs
from simcore.kernel.rng import rand_below, seed_game_stream
from simcore.workflows import runner
from strategies import power as strategy
from tests.test_power_reference import CONFIGS

GAME = registry.make("power")
NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)


def _setup(config: str):
    players, lineup, settings, seed, _, rotate, _ = CONFIGS[config]
    spec = runner.build_spec("power", players, lineup, settings, seed, 1, rotate_seats=rotate)
    prepared = kernel.prepare(spec.rules, players)
    ids, params = GAME.encode_strategies(spec.seat_strategies())
    return players, prepared, ids, params, np.uint64(seed), rotate


def _play(setup, index, via_protocol, trace_rows):
    players, prepared, ids, params, seed, rotate = setup
    game_out, seat_out = new_outputs(
        1, players, N_STANDARD_GAME_COLUMNS, N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS
    )
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    trace = np.zeros((trace_rows, TRACE_WIDTH), dtype=np.int64)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, params.shape[1]))
    rng = np.zeros(4, dtype=np.uint64)
    play = kernel.play_indexed_protocol if via_protocol else kernel.play_indexed
    play(
        players, ids, params, seed, index, rotate, st, prepared, sids, prm, rng, trace, 0,
        game_out, seat_out,
    )  # fmt: skip
    return game_out.copy(), seat_out.copy(), trace[: st[kernel.TRACE_LEN]].copy()


@pytest.mark.parametrize("config", list(CONFIGS))
def test_scripted_games_through_the_protocol_are_the_kernels_games(config):
    setup = _setup(config)
    for index in range(60):
        rows = 20_000 if index % 3 == 0 else 0  # every third game traced event by event
        fast = _play(setup, index, False, rows)
        protocol = _play(setup, index, True, rows)
        for a, b in zip(fast, protocol, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{config}, game {index}")


def _fresh(seed, index):
    """A zeroed state and game ``index``'s stream under ``seed``."""
    rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(seed), index, rng)
    return np.zeros(STATE_SIZE, dtype=np.int64), rng


def _conserved(st, rules, players):
    safe_size = int(rules[1])  # R_SAFE_SIZE
    copies = int(rules[10])  # R_COPIES
    assert st[SAFE] >= 0 and all(st[COINS + s] >= 0 for s in range(players))
    assert st[SAFE] + sum(int(st[COINS + s]) for s in range(players)) == safe_size
    for character in range(N_CHARACTERS):
        in_hands = sum(int(st[HAND + k] == character) for k in range(2 * players))
        in_exchange = 0
        if st[P_DECISION] == D_EXCHANGE:  # the drawn options are out of the deck
            n_keep = int(influence(st, st[P_SEAT]))
            options = st[OPTIONS + n_keep : OPTIONS + st[P_N_OPTIONS]]
            in_exchange = int(np.sum(options == character))
        assert st[DECK + character] + in_hands + in_exchange == copies
    recounted = st.copy()
    kernel.recount(recounted, players)
    assert np.array_equal(recounted, st), "a kept count differs from the cards"
    # infoset_key packs the protocol fields but the turn a byte each (the Dollars get 32 bits,
    # and the Safe's total bounds them above)
    packed = [int(st[f]) for f in range(P_PLAYERS, P_TRUNCATED + 1) if f != P_TURN]
    assert all(-1 <= value <= 254 for value in packed), packed


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize(
    "settings", [[], ["challenge_order=random", "safe_size=12", "copies_per_character=4"]]
)
def test_random_legal_play_keeps_the_invariants(players, settings):
    rules = kernel.prepare(
        GAME.rules_with_defaults(
            {k: GAME.rule(k).parse(v, "test") for k, v in (s.split("=") for s in settings)}
        ),
        players,
    )
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    kinds = set()
    for index in range(40):
        st, rng = _fresh(np.uint64(5), index)
        rules_module.new_game(players, st, rules, rng, NO_TRACE)
        decisions = 0
        while not rules_module.is_over(st):
            seat = rules_module.to_move(st)
            assert st[P_DECISION] != D_NONE and 0 <= seat < players and influence(st, seat) > 0
            n = rules_module.legal(st, rules, moves)
            assert 1 <= n <= MAX_MOVES and len(set(moves[:n])) == n
            kinds.add(int(st[P_DECISION]))
            move = moves[rand_below(rng, n)]
            rules_module.apply(st, rules, move, rng, NO_TRACE)
            _conserved(st, rules, players)
            decisions += 1
        assert decisions > 0 and st[P_SEAT] == -1
        winner = int(st[kernel.P_WINNER])
        alive = [s for s in range(players) if influence(st, s) > 0]
        assert alive == [winner] or (winner == -1 and len(alive) > 1)
        out = np.zeros(players)
        rules_module.returns(st, out)
        assert out.sum() == (winner >= 0)
    assert kinds == set(range(5))  # action, challenge, block, lose, exchange all came up


def test_scripted_answers_are_legal_options():
    """Every answer the scripted strategies give through ``decide`` is in ``legal``."""
    setup = _setup("4p mixed")
    players, prepared, ids, params, seed, _ = setup
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    for index in range(60):
        st, rng = _fresh(seed, index)
        rules_module.new_game(players, st, prepared, rng, NO_TRACE)
        while not rules_module.is_over(st):
            seat = rules_module.to_move(st)
            n = rules_module.legal(st, prepared, moves)
            move = strategy.decide(ids[seat], params, seat, st, prepared, rng)
            assert move in moves[:n], (int(st[P_DECISION]), move, moves[:n])
            rules_module.apply(st, prepared, move, rng, NO_TRACE)


@pytest.mark.parametrize("config", list(CONFIGS))
def test_play_out_finishes_a_game_as_the_protocol_does(config):
    """``play_out`` (the search's rollouts: the protocol up to the next turn, then scripted turns)
    ends a game begun through the protocol exactly as answering each decision would: the same
    cards, Dollars, statistics, winner and turns, and the same draws from the stream, from every
    kind of pending decision."""
    players, prepared, ids, params, seed, _ = _setup(config)
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


def test_determinize_redraws_only_the_unseen_and_the_key_cannot_tell():
    players = 4
    rules = kernel.prepare(GAME.rules_with_defaults({}), players)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    changed = 0
    for index in range(30):
        st, rng = _fresh(np.uint64(9), index)
        rules_module.new_game(players, st, rules, rng, NO_TRACE)
        while not rules_module.is_over(st):
            seat = rules_module.to_move(st)
            twin = st.copy()
            rules_module.determinize(twin, seat, rng)
            _conserved(twin, rules, players)
            key = rules_module.infoset_key(st, seat)
            assert rules_module.infoset_key(twin, seat) == key
            for other in range(players):
                for slot in range(2):
                    if other == seat or st[DOWN + 2 * other + slot] == 0:
                        assert twin[HAND + 2 * other + slot] == st[HAND + 2 * other + slot]
            hidden = [HAND + 2 * o + k for o in range(players) for k in range(2) if o != seat]
            changed += not np.array_equal(twin[hidden], st[hidden])
            # Another seat's key differs: it sees other cards.
            other = (seat + 1) % players
            if st[P_DECISION] == D_ACTION and influence(st, other) > 0:
                assert rules_module.infoset_key(st, other) != key
            n = rules_module.legal(st, rules, moves)
            rules_module.apply(st, rules, moves[rand_below(rng, n)], rng, NO_TRACE)
    assert changed > 100


def test_another_seats_exchange_is_redrawn_too():
    """During seat 0's exchange, seat 1 has not seen the drawn cards: they are redrawn."""
    players = 3
    rules = kernel.prepare(GAME.rules_with_defaults({}), players)
    redrawn = 0
    for index in range(200):
        st, rng = _fresh(np.uint64(4), index)
        rules_module.deal(players, st, rules, rng, NO_TRACE)
        st[P_PLAYERS] = players
        rules_module.draw_for_exchange(0, st, rng)
        st[P_DECISION] = D_EXCHANGE
        st[P_SEAT] = 0
        twin = st.copy()
        rules_module.determinize(twin, 1, rng)
        _conserved(twin, rules, players)
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
            _conserved(from_truth, rules, players)
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
