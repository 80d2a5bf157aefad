"""Power Struggle's strategies play fair (issue 15): no seat is favoured by an index, bribes are
priced by what the card is worth, resignations by what they cost, the run report has an
experiment by chance beside the observational Communications page, and ``determinize`` redraws
exactly what a seat cannot see.

The generic contracts (games end by the rules, every strategy beats random, no strategy reads
what its seat cannot see) are in tests/contract/test_fair_play.py; the relabelling tests are here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore import registry
from simcore.games.power_struggle import components, scripted, transitions
from simcore.games.power_struggle import game as kernel
from simcore.games.power_struggle import rules as protocol
from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import (
    CHAIRMAN,
    COMMUNICATIONS,
    DECLARED,
    EMP,
    FACE,
    HALF,
    HEAD,
    HOLDER,
    MONEY,
    OWNER,
    ROWS,
    STATE_SIZE,
    TRACE_WIDTH,
    TRACK,
)
from simcore.kernel.rng import new_stream, seed_game_stream
from strategies import power_struggle as strategy
from strategies.power_struggle import worth
from tests.fair_play import play, rate_differences, seat_and_strategy_rates

ROOT = Path(__file__).resolve().parents[3]
GAME = registry.make("power-struggle")
MIXED = ["builder", "investor", "corrupter", "board", "consultant"]
NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)


@cache
def prepared(players):
    return kernel.prepare(GAME.rules_with_defaults({}), players)


def set_up(players, seed, strategies=None):
    """A set-up game: (st, sids, prm, rng)."""
    rules = prepared(players)
    specs = [registry.parse_strategy(GAME, s) for s in strategies or ["builder"] * players]
    sids, prm = GAME.encode_strategies(specs)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = new_stream()
    seed_game_stream(seed, 0, rng)
    transitions.set_up(players, st, rules, rng, NO_TRACE)
    return st, sids, prm, rng


# --- no seat favoured ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5])
def test_the_extra_privilege_cards_go_to_random_seats(players):
    """Set Up 8 deals the 7 cards "randomly ... as equally as possible": which players get the
    extra cards is chance, so every seat holds one of them equally often (it was always the
    lowest seats)."""
    games = 1500
    extra = np.zeros(players)
    starting = np.zeros(players)
    for seed in range(games):
        st, *_ = set_up(players, seed)
        held = np.array([sum(st[HOLDER + c] == s for c in range(7)) for s in range(players)])
        assert held.max() - held.min() <= 1
        extra += held == held.max()
        starting[st[HOLDER + COMMUNICATIONS]] += 1
    share = (7 % players) / players
    assert chisquare(extra, np.full(players, games * share)).pvalue > 0.001, extra
    assert chisquare(starting).pvalue > 0.001, starting


def test_seats_are_interchangeable_in_a_mirror():
    """Relabelling the seats (each seat's label moved one place round the table) leaves every
    seat's win rate within its interval: nothing but the shuffle decides who starts and who gets
    the extra Privilege cards."""
    players = 5
    rates = seat_and_strategy_rates(play("power-struggle", players, ["builder"] * players, 4000),
                                    players)  # fmt: skip
    seats = {key: value for key, value in rates.items() if key.startswith("seat")}
    moved = {f"seat {s}": seats[f"seat {(s + 1) % players}"] for s in range(players)}
    assert not rate_differences(seats, moved)


def relabelled_data(tmp_path):
    """The shipped data file with its event cards listed in reverse order and its Archenemy
    Competence cards rotated: every card id changes, nothing else."""
    text = (resources.files("simcore") / "data" / components.DEFAULT_DATA).read_text()
    head, _, events = text.partition("\n[[events]]\n")
    event_blocks = ("[[events]]\n" + events).split("\n[[events]]\n")
    event_blocks = [block.removeprefix("[[events]]\n").strip() for block in event_blocks]
    head, _, cards = head.partition("\n[[archenemy_competence]]\n")
    card_blocks = [b.strip() for b in cards.split("\n[[archenemy_competence]]\n")]
    comments = card_blocks[-1].split("\n\n", 1)  # the events' comment follows the last card
    card_blocks[-1] = comments[0]
    card_blocks = card_blocks[2:] + card_blocks[:2]
    text = (
        head
        + "".join(f"\n[[archenemy_competence]]\n{b}\n" for b in card_blocks)
        + "".join(f"\n[[events]]\n{b}\n" for b in reversed(event_blocks))
    )
    path = tmp_path / "relabelled.toml"
    path.write_text(text)
    original = tomllib.loads(
        (resources.files("simcore") / "data" / components.DEFAULT_DATA).read_text()
    )
    changed = tomllib.loads(text)
    assert changed["events"] == original["events"][::-1]
    assert sorted(map(str, changed["archenemy_competence"])) == sorted(
        map(str, original["archenemy_competence"])
    )
    assert changed["archenemy_competence"] != original["archenemy_competence"]
    return path


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 5])
def test_card_ids_permuted_in_the_data_file(tmp_path, players):
    """The same cards under other ids (the data file's lists reordered) play the same game: seat
    and strategy win rates stay within their intervals."""
    path = relabelled_data(tmp_path)
    lineup = MIXED[:players]
    shipped = play("power-struggle", players, lineup, 4000)
    renamed = play("power-struggle", players, lineup, 4000, [f"data={path}"])
    assert not rate_differences(
        seat_and_strategy_rates(shipped, players), seat_and_strategy_rates(renamed, players)
    )


# --- bribes priced by worth ------------------------------------------------------------------


def bribe_scene():
    """Four builders; seat 0 heads nothing and holds every card but the Chairman's, seat 1 holds
    the Chairman card and has Employees; everybody has 800,000."""
    st, sids, prm, rng = set_up(4, 3, ["corrupter", "builder", "builder", "builder"])
    for card in range(7):
        st[HOLDER + card] = 0
        st[HALF + card] = 0
        st[FACE + card] = 1
    st[HOLDER + CHAIRMAN] = 1
    transitions.open_office(st, 1, ps.ACCOUNTING, 1, 3, ps.O_APPOINT, NO_TRACE)
    return st, sids, prm, rng


def test_a_bribe_is_accepted_when_the_card_is_worth_less_than_the_offer():
    """A holder that already has its Corruption Victory Point sells a face-down card (worth
    nothing to it this round) for the least bribe, but not the face-up Chairman card (a
    Department at the next meeting, a Main Department and point to the briber) for 300,000:
    acceptance follows what the card is worth, not one fixed amount."""
    st, sids, prm, rng = bribe_scene()
    st[TRACK + ps.N_TRACKS * 1 + ps.CORRUPTION] = 9
    assert not strategy.accept_bribe(sids[1], prm, 1, 0, CHAIRMAN, 300_000, st, rng)
    price = worth.asking_price(st, 1, 0, CHAIRMAN)
    assert price > 300_000
    assert strategy.accept_bribe(sids[1], prm, 1, 0, CHAIRMAN, price, st, rng)
    st[FACE + CHAIRMAN] = 0
    assert strategy.accept_bribe(sids[1], prm, 1, 0, CHAIRMAN, ps.MIN_BRIBE, st, rng)
    assert worth.asking_price(st, 1, 0, CHAIRMAN) < 0


def test_the_briber_offers_the_price_it_reckons_and_it_is_accepted():
    """The corrupter offers the holder's asking price (rounded up to 50,000s), which the holder
    accepts; with ``ask_extra`` the holder refuses the same offer."""
    st, sids, prm, rng = bribe_scene()
    st[TRACK + ps.N_TRACKS * 1 + ps.CORRUPTION] = 9
    before = st.copy()
    scripted.carry_out(0, ps.A_BRIBE, 0, 0, 0, 0, st, sids, prm, rng, NO_TRACE)
    assert st[HOLDER + CHAIRMAN] == 0 and st[HALF + CHAIRMAN] == 1
    paid = before[MONEY] - st[MONEY]
    assert paid == max(ps.MIN_BRIBE, -(-worth.asking_price(before, 1, 0, CHAIRMAN) // 50_000)
                       * 50_000)  # fmt: skip
    hard = registry.parse_strategy(GAME, "builder:ask_extra=500000")
    st, sids, prm, rng = bribe_scene()
    st[TRACK + ps.N_TRACKS * 1 + ps.CORRUPTION] = 9
    sids[1:2], prm[1:2] = GAME.encode_strategies([hard])
    scripted.carry_out(0, ps.A_BRIBE, 0, 0, 0, 0, st, sids, prm, rng, NO_TRACE)
    assert st[HOLDER + CHAIRMAN] == 1 and st[MONEY] == 800_000


@pytest.mark.slow
def test_bribes_change_hands_in_play():
    """In a mixed game the corrupter's bribes are accepted when they are worth it to both sides
    (before, every archetype wanted 250,000 and the corrupter offered 100,000 and 200,000: not
    one was ever accepted)."""
    games = play("power-struggle", 4, MIXED[:4], 400)
    offered = accepted = 0
    for seat in range(4):
        mine = games[f"s{seat}_strategy"].cast(str) == "corrupter"
        offered += int(games.filter(mine)[f"s{seat}_bribes_offered"].sum())
        accepted += int(games.filter(mine)[f"s{seat}_bribes_accepted"].sum())
    assert offered > 1000 and accepted > offered / 2


# --- resignations priced by worth --------------------------------------------------------------


def test_a_builder_does_not_resign_what_it_would_lose_more_on():
    """A builder heading Communications, where it has a Department and a Main Department full of
    Employees, with no Main Department action and no money: resigning to the Board would fire 12
    Employees and close a Department for 2 Board seats, so it does not (it used to, whenever its
    Influence route came up)."""
    st, sids, prm, rng = set_up(4, 5, ["builder:departments=1", "builder", "builder", "builder"])
    for card in range(7):
        st[HOLDER + card] = 1
    transitions.open_office(st, 0, COMMUNICATIONS, 1, 6, ps.O_APPOINT, NO_TRACE)
    transitions.open_office(st, 0, COMMUNICATIONS, 2, 6, ps.O_APPOINT, NO_TRACE)
    transitions.open_office(st, 0, ps.CONTROLLING, 2, 6, ps.O_APPOINT, NO_TRACE)
    st[HEAD + COMMUNICATIONS] = 0
    st[TRACK + ps.N_TRACKS * 0 + ps.MAIN] = 2
    st[MONEY] = 0
    kind = strategy.choose_action(sids[0], prm, 0, st, rng)
    assert kind != ps.A_RESIGN
    assert worth.resign_worth(st, 0, COMMUNICATIONS, False) < 0
    assert ps.occupied(st, COMMUNICATIONS) == 2 and st[OWNER + ROWS * COMMUNICATIONS] == 0
    # With nothing to lose there it resigns for the Board seat.
    for row in range(ROWS):
        st[OWNER + ROWS * COMMUNICATIONS + row] = -1
        st[ps.HEADS + ROWS * COMMUNICATIONS + row] = 0
        st[EMP + ROWS * COMMUNICATIONS + row] = 0
    assert strategy.choose_action(sids[0], prm, 0, st, rng) == ps.A_RESIGN


# --- the impact pages --------------------------------------------------------------------------


def test_the_run_report_has_a_chance_set_communications_page():
    """Who is dealt the Communications card (and so starts) is chance: an experiment beside the
    observational page of rounds as Head of Communications."""
    groups = {group.columns: group for group in GAME.impact}
    assert groups[("dealt_comm",)].observational == ""
    assert groups[("dealt_cards",)].observational == ""
    assert groups[("comm_share",)].observational
    games = play("power-struggle", 4, MIXED[:4], 200)
    for seat in range(4):
        assert set(games[f"s{seat}_dealt_comm"].cast(str)) <= {"no", "yes"}
    starters = sum(
        (games[f"s{seat}_dealt_comm"].cast(str) == "yes").to_numpy() for seat in range(4)
    )
    assert (starters == 1).all()
    cards = sum(games[f"s{seat}_dealt_cards"].cast(str).str.head(1).cast(int).to_numpy()
                for seat in range(4))  # fmt: skip
    assert (cards == 7).all()


# --- determinize ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_event_orders_read_only_what_the_sorter_may_know():
    """The generic leak check (tests/contract/test_fair_play.py) plays the default
    ``order=random``; the ``self`` and ``adversarial`` orders judge events by ``event_worth`` and
    ``leader_of``, which read the others' money and Victory Points. Before issue 15 they read the
    secret ones (8 disagreements in these 40 games, all in ``order_events``); now every decision
    on a redrawn copy is the same."""
    lineup = ["builder:order=self", "investor:order=adversarial", "corrupter:order=self",
              "board:order=adversarial"]  # fmt: skip
    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "contract" / "leak_check.py"), "power-struggle",
         "4", "40", *lineup],
        capture_output=True, text=True, cwd=ROOT, timeout=1200,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["informative"]["order_events"] > 100, report
    assert report["leaks"] == 0, json.dumps(report["examples"], indent=1)


def hidden_fields(st, seat):
    """The state fields ``determinize`` may change for ``seat``."""
    fields = {ps.COLOUR_CARD + p for p in range(5) if p != seat and st[DECLARED + p] == 0}
    fields |= {ps.COMP_OF + p for p in range(5) if p != seat and st[DECLARED + p] == 0}
    fields |= {MONEY + p for p in range(5) if p != seat}
    fields |= {ps.BRIBE_PAID + k for k in range(25)}
    fields |= set(range(ps.PILE, ps.PILE + ps.MAX_EVENTS))
    if st[ps.SORTER] != seat:
        fields |= set(range(ps.ORDER + st[ps.REVEALED], ps.ORDER + ps.ORDER_SIZE))
    return fields


def test_determinize_redraws_only_what_the_seat_cannot_see():
    """Played to many decision points: the redraw keeps every public and own field, keeps the
    money totals, the bribes' counts, the revealed events and the ordering rules, deals Archenemy
    cards that are a valid deal, and does change the hidden ones."""
    players = 4
    rules = prepared(players)
    sids, prm = GAME.encode_strategies([registry.parse_strategy(GAME, s) for s in MIXED[:4]])
    changed = set()
    for game in range(30):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        rng = new_stream()
        seed_game_stream(7, game, rng)
        transitions.set_up(players, st, rules, rng, NO_TRACE)
        scripted.initial_appointments(st, sids, prm, rng, NO_TRACE)
        for _ in range(1 + game % 4):
            scripted.meeting(st, rules, sids, prm, rng, NO_TRACE)
            if scripted.department_turns(st, rules, sids, prm, rng, NO_TRACE) != 0:
                break
        seat = game % players
        twin = st.copy()
        redraw = new_stream()
        seed_game_stream(9, game, redraw)
        protocol.determinize(twin, seat, redraw)
        differs = set(np.flatnonzero(twin != st))
        assert differs <= hidden_fields(st, seat)
        changed |= differs
        assert twin[MONEY : MONEY + players].sum() == st[MONEY : MONEY + players].sum()
        assert (twin[MONEY : MONEY + players] >= 0).all()
        assert sorted(twin[ps.COLOUR_CARD : ps.COLOUR_CARD + players]) == list(range(players))
        assert len(set(twin[ps.COMP_OF : ps.COMP_OF + players])) == players
        assert sorted(twin[ps.PILE : ps.PILE + st[ps.N_EVENTS]]) == list(range(st[ps.N_EVENTS]))
        order = list(twin[ps.ORDER : ps.ORDER + 8])
        bonus, meeting = order.index(st[ps.BONUS_EVENT]), order.index(st[ps.MEETING_EVENT])
        assert bonus < meeting and meeting >= ps.MIN_TURNS
        standard = {st[ps.BONUS_EVENT], st[ps.MEETING_EVENT]}
        assert set(twin[ps.PILE : ps.PILE + 6]) == set(order) - standard
        for p in range(players):
            assert ps.money_seen(twin, seat, p) == ps.money_seen(st, seat, p)
            assert ps.routes_seen(twin, seat, p) == ps.routes_seen(st, seat, p)
    assert any(ps.COLOUR_CARD <= f < ps.COLOUR_CARD + 5 for f in changed)
    assert any(ps.COMP_OF <= f < ps.COMP_OF + 5 for f in changed)
    assert any(ps.ORDER <= f < ps.ORDER + 8 for f in changed)
