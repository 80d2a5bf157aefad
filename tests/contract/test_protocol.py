"""Every game's decision-point protocol (docs/protocol.md), through its search module.

- Scripted games played through the protocol (each decision answered by the game's scripted
  strategies) are the games of the scripted kernel: the same rows and, every few games, the same
  traces (the chunk glue's ``play_searching`` against its ``play``), in every set-up of the
  game's glue (``PROTOCOL``; its ``PROTOCOL_SHARED_FIELDS`` of the final state too).
- Random legal play: the deciding seat is a player with a decision of a declared kind pending,
  ``legal`` lists 1 to ``MAX_MOVES`` distinct options, every declared kind comes up, every game
  ends with nobody to move and ``returns`` gives 1 to the winner and 0 to the others (1 to each
  sharer of a shared win, in a game whose glue declares ``SHARED_WINS``); the game's own laws
  hold throughout (glue ``check_decision``, ``check_state``, ``check_over``).
- Every answer of the scripted strategies is one of ``legal``'s options.
- ``determinize`` for the deciding seat keeps its ``infoset_key``, its options and what it sees
  (glue ``check_determinized``), and redraws what it cannot see.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.kernel.rng import rand_below
from tests.contract.common import (
    Determinize,
    Games,
    Setup,
    contract_game_ids,
    default_lineup,
    modules,
    play_one,
)


def protocol_setups(game_id: str) -> dict[str, Setup]:
    m = modules(game_id)
    counts = sorted({m.game.min_players, m.game.max_players})
    default = {f"{p}p": Setup(p, default_lineup(m.game, p), games=12) for p in counts}
    return m.option("PROTOCOL", default)


def random_play_setups(game_id: str) -> list[Setup]:
    m = modules(game_id)
    counts = sorted({m.game.min_players, m.game.max_players})
    default = [Setup(p, (m.game.default_strategy,), seed=5, games=12) for p in counts]
    return m.option("RANDOM_PLAY", default)


def answer_setups(game_id: str) -> list[Setup]:
    return modules(game_id).option("ANSWERS", list(protocol_setups(game_id).values())[:1])


def determinize_setup(game_id: str) -> Determinize:
    m = modules(game_id)
    players = m.game.min_players
    default = Determinize(Setup(players, default_lineup(m.game, players), seed=9, games=4))
    return m.option("DETERMINIZE", default)


def declared_kinds(game_id: str) -> set[int]:
    """The decision kinds of the game's state module (``DECISION_KINDS`` but "none")."""
    names = modules(game_id).state.DECISION_KINDS
    return {kind for kind, name in enumerate(names) if name != "none"}


def _nothing(*args) -> None:
    return None


def _uniform(st, rng, n) -> int:
    return rand_below(rng, n)


# --- scripted games through the protocol ------------------------------------------------------


def _protocol_cases():
    return [
        pytest.param(game_id, label, id=f"{game_id}-{label}")
        for game_id in contract_game_ids()
        for label in protocol_setups(game_id)
    ]


@pytest.mark.parametrize(("game_id", "label"), _protocol_cases())
def test_scripted_games_through_the_protocol_are_the_kernels_games(game_id, label):
    m = modules(game_id)
    setup = protocol_setups(game_id)[label]
    encoded = setup.encoded(game_id)
    every = m.option("PROTOCOL_TRACE_EVERY", 3)
    shared = m.option("PROTOCOL_SHARED_FIELDS")
    for index in range(setup.games):
        traced = index % every == 0
        fast = play_one(game_id, encoded, index, traced=traced)
        protocol = play_one(game_id, encoded, index, via_protocol=True, traced=traced)
        where = f"{game_id} {label}, game {index}"
        for a, b in zip(fast[:3], protocol[:3], strict=True):
            np.testing.assert_array_equal(a, b, err_msg=where)
        if shared is not None:
            np.testing.assert_array_equal(fast[3][shared], protocol[3][shared], err_msg=where)


# --- random legal play -------------------------------------------------------------------------


def _cases(setups_of) -> list:
    """(game id, set-up) of every set-up of every game."""
    return [
        pytest.param(game_id, setup, id=f"{game_id}-{setup.players}p-{k}")
        for game_id in contract_game_ids()
        for k, setup in enumerate(setups_of(game_id))
    ]


@pytest.mark.parametrize(("game_id", "setup"), _cases(random_play_setups))
def test_random_legal_play_keeps_the_invariants(game_id, setup):
    m = modules(game_id)
    games = Games(game_id, setup, m.option("RANDOM_PLAY_TRACE_ROWS", 0))
    search, game, players = m.search, games.game, setup.players
    kinds, declared = set(), declared_kinds(game_id)
    every = m.option("CHECK_EVERY", 1)
    pick = m.option("pick", _uniform)
    initial = m.option("initial", _nothing)
    check_decision = m.option("check_decision", _nothing)
    check_state = m.option("check_state", _nothing)
    check_over = m.option("check_over", _nothing)
    shared = m.option("SHARED_WINS", False)
    for index in range(setup.games):
        st, rng, _, _ = games.start(index)
        start = initial(st)
        decisions = 0
        while not search.is_over(st):
            seat = search.to_move(st)
            kind = int(st[m.state.P_DECISION])
            assert kind in declared and 0 <= seat < players, (kind, seat)
            options = games.legal(st)
            assert 1 <= len(options) <= search.MAX_MOVES
            assert len(set(options.tolist())) == len(options)
            check_decision(st, seat, options, game, players)
            kinds.add(kind)
            games.apply(st, options[pick(st, rng, len(options))], rng)
            decisions += 1
            if decisions % every == 0 or search.is_over(st):
                check_state(st, game, players, start)
        assert decisions > 0 and search.to_move(st) == -1
        out = np.zeros(players)
        search.returns(st, out)
        assert set(out.tolist()) <= {0.0, 1.0}, out
        winner = int(st[m.state.P_WINNER])
        assert winner < 0 or (out[winner] == 1.0 and out.sum() == 1.0), (winner, out)
        assert shared or out.sum() == (winner >= 0), (winner, out)  # else nobody, or sharers
        check_over(st, out, game, players, games.traced(st))
    assert kinds == declared, sorted(declared - kinds)


# --- scripted answers --------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "setup"), _cases(answer_setups))
def test_scripted_answers_are_legal_options(game_id, setup):
    """Every answer the seated strategies give (``choose``) is one of ``legal``'s options."""
    m = modules(game_id)
    games = Games(game_id, setup)
    for index in range(setup.games):
        st, rng, sids, prm = games.start(index)
        while not m.search.is_over(st):
            seat = m.search.to_move(st)
            options = games.legal(st)
            move = games.choose(sids, prm, seat, st, rng)
            assert move in options, (int(st[m.state.P_DECISION]), move, options)
            games.apply(st, move, rng)


# --- determinize -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", contract_game_ids())
def test_determinize_keeps_what_the_seat_sees_and_redraws_what_it_cannot(game_id):
    m = modules(game_id)
    search = m.search
    check = determinize_setup(game_id)
    games = Games(game_id, check.setup)
    initial = m.option("initial", _nothing)
    check_determinized = m.option("check_determinized", _nothing)
    checked = changed = 0
    kinds = set()
    for index in range(check.setup.games):
        st, rng, sids, prm = games.start(index)
        start = initial(st)
        while not search.is_over(st):
            seat = search.to_move(st)
            kinds.add(int(st[m.state.P_DECISION]))
            key = search.infoset_key(st, seat)
            options = games.legal(st)
            for _ in range(check.twins):
                twin = st.copy()
                search.determinize(twin, seat, rng)
                assert search.infoset_key(twin, seat) == key
                np.testing.assert_array_equal(np.sort(games.legal(twin)), np.sort(options))
                check_determinized(st, twin, seat, games.game, check.setup.players, start)
                checked += 1
                changed += not np.array_equal(twin, st)
            if check.scripted and index % 2 == 0:
                move = games.choose(sids, prm, seat, st, rng)
            else:
                move = options[rand_below(rng, len(options))]
            games.apply(st, move, rng)
    assert changed > check.changed and changed > check.changed_share * checked, (changed, checked)
    assert check.meets <= kinds, sorted(check.meets - kinds)
