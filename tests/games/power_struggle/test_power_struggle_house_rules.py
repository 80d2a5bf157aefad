"""Power Struggle's house rules (docs/games/power-struggle.md, "House rules"): every rule
parameter beyond ``data``, ``victory_points`` and ``max_turns``, flipped.

First each rule from a set-up state (a :class:`Table` of test_power_struggle_rules.py with the
rule flipped, one kernel function called); then the referee: with each rule flipped it agrees
with the kernel's traces (the scripted flow and the protocol's), and it refuses the traces the
rulebook's rules wrote (so its check of the flipped rule can fail).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore.games.power_struggle import meeting, rules, scripted, transitions
from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.game import RULES
from simcore.games.power_struggle.options import action_of
from simcore.games.power_struggle.state import (
    ACCOUNTING,
    CHAIRMAN,
    COMMUNICATIONS,
    CONTROLLING,
    DEVELOPMENT,
    HEAD,
    HUMAN_RESOURCES,
    LEGAL,
    MONEY,
    MOTIVATION,
)
from tests.contract.common import Setup, play_one
from tests.games.power_struggle.power_struggle_referee import replay
from tests.games.power_struggle.test_power_struggle_rules import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Table,
    bonus_example,
    bribe_table,
)

GAME_ID = "power-struggle"

# --- each rule from a set-up state ------------------------------------------------------------


def test_starting_money():
    table = Table(3, rules={"starting_money": 1_250_000})
    assert [int(table.st[MONEY + s]) for s in range(3)] == [1_250_000] * 3


def action_kinds(table, seat):
    """The action kinds among ``seat``'s legal moves (the protocol's ``legal``)."""
    moves = np.zeros(ps.MAX_MOVES, dtype=np.int64)
    n = rules.action_moves(table.st, seat, moves)
    return {int(action_of(m)[0]) for m in moves[:n]}


@pytest.mark.parametrize("allowed", [True, False])
def test_bribes_allowed(allowed):
    """Off: no bribe among the legal actions, and the random strategy (which draws among the
    possible actions) never bribes."""
    table = bribe_table(ask_extra=0, rules={"bribes_allowed": allowed})
    assert (ps.A_BRIBE in action_kinds(table, GREEN)) == allowed
    assert ps.action_possible(table.st, GREEN, ps.A_BRIBE) == allowed
    randoms = Table(4, ["random"] * 4, {"bribes_allowed": allowed})
    randoms.give(CHAIRMAN, BLUE)
    randoms.office(GREEN, ACCOUNTING, staff=3)
    chosen = {
        scripted.strategy.choose_action(randoms.sids[GREEN], randoms.prm, GREEN, randoms.st,
                                        randoms.rng)
        for _ in range(60)
    }  # fmt: skip
    assert (ps.A_BRIBE in chosen) == allowed


def test_bribe_cap_limits_the_offers_the_strategies_and_the_kernel():
    table = bribe_table(ask_extra=0, rules={"bribe_cap": 120_000})
    st = table.st
    assert ps.bribe_most(st, GREEN) == 100_000  # in whole 50,000s
    st[ps.P_DECISION] = ps.D_BRIBE
    st[ps.P_SEAT] = GREEN
    st[ps.P_ATTEMPT] = 1
    moves = np.zeros(ps.MAX_MOVES, dtype=np.int64)
    n = rules.legal(st, table.rules, moves)
    amounts = {(int(m) - 1) // ps.N_PRIVILEGES * ps.BRIBE_STEP + ps.BRIBE_STEP for m in moves[:n]}
    assert amounts == {50_000, 100_000}
    for seat_spec in ("random", "corrupter:offer_extra=1000000"):
        capped = Table(4, [seat_spec] * 4, {"bribe_cap": 100_000})
        for card in range(7):
            capped.give(card, BLUE)
        for _ in range(30):
            card, amount = scripted.strategy.choose_bribe(
                capped.sids[GREEN], capped.prm, GREEN, 1, capped.st, capped.rng
            )
            assert card >= 0 and ps.MIN_BRIBE <= amount <= 100_000
    with pytest.raises(ValueError, match="over the cap"):
        from simcore.games.power_struggle.turns import offer_made

        offer_made(GREEN, 1, CHAIRMAN, 150_000, st, table.trace)
    below = Table(4, rules={"bribe_cap": 40_000})
    below.give(CHAIRMAN, BLUE)
    assert not ps.action_possible(below.st, GREEN, ps.A_BRIBE)


def test_no_second_bribe_attempt():
    """Red refuses the first offer; without a second attempt the action ends there and Red
    still loses an Employee (see test_bribe_declined_then_accepted for the rulebook's)."""
    table = bribe_table(ask_extra=300_000, rules={"second_bribe": False})
    table.action(GREEN, ps.A_BRIBE)
    assert [(row[2], row[5]) for row in table.rows(ps.EV_BRIBE)] == [(CHAIRMAN, 0)]
    assert ps.employees(table.st, RED, -1) == 2
    assert table.track(GREEN, ps.CORRUPTION) == 1


def test_a_refusal_costs_no_employee():
    table = bribe_table(ask_extra=10_000_000, rules={"refusal_costs_employee": False})
    table.action(GREEN, ps.A_BRIBE)
    assert [row[5] for row in table.rows(ps.EV_BRIBE)] == [0, 0]
    assert ps.employees(table.st, RED, -1) == 3
    assert table.rows(ps.EV_EMPLOYEE) == []


@pytest.mark.parametrize("card", [DEVELOPMENT, LEGAL])
def test_an_action_card_off_is_no_legal_action(card):
    kind = ps.A_DEVELOPMENT if card == DEVELOPMENT else ps.A_LEGAL
    name = "development_card" if card == DEVELOPMENT else "legal_patents_card"
    for on in (True, False):
        table = Table(4, rules={name: on})
        table.office(RED, ACCOUNTING, staff=3)
        table.give(card, RED, half=1)
        assert (kind in action_kinds(table, RED)) == on
        assert ps.usable(table.st, RED, card)[0] == on


def test_human_resources_and_accounting_off_give_nothing_extra():
    table = Table(4, rules={"human_resources_card": False, "accounting_card": False})
    table.office(RED, ACCOUNTING, staff=1)
    table.give(HUMAN_RESOURCES, RED, half=1)
    table.give(ACCOUNTING, RED, half=1)
    table.st[MOTIVATION] = 0
    assert ps.motivation_bonus(table.st, RED, HUMAN_RESOURCES) == 0
    table.action(RED, ps.A_HIRE)
    assert ps.employees(table.st, RED, -1) == 3  # 2 hired, none more
    assert not ps.share_option_ok(table.st, RED, 2, 5)  # the Bribed half's +3
    assert ps.share_option_ok(table.st, RED, 2, 2)


def test_controlling_off_pays_no_extra_bonus():
    """The rulebook's example pays 1,950,000 with the Bribed Controlling card at Motivation 1
    (test_bonus_payment_with_bribed_controlling_at_motivation_1); off, 1,150,000."""
    table = Table(4, rules={"controlling_card": False})
    table.office(RED, ACCOUNTING, staff=2)
    table.give(CONTROLLING, RED, half=1)
    table.st[MOTIVATION] = 1
    before = int(table.st[MONEY + RED])
    transitions.bonus_payment(table.st, table.trace)
    assert int(table.st[MONEY + RED]) - before == 100_000
    assert bonus_example(controlling_half=1, motivation=1) == 1_950_000


def test_chairman_card_off_founds_nothing():
    for on in (True, False):
        table = Table(4, ["builder"] * 4, {"chairman_card": on})
        table.give(CHAIRMAN, RED, half=1)
        scripted.chairman_privilege(
            table.st, table.rules, table.sids, table.prm, table.rng, table.trace
        )
        assert (table.rows(ps.EV_CHAIRMAN_USE) != []) == on
        asked = meeting.step_chairman_card(table.st)
        assert asked == on and (table.st[ps.P_STEP] == ps.S_EXTRA) != on


def test_communications_off_gives_no_extra_action():
    for on in (True, False):
        table = Table(4, rules={"communications_card": on})
        table.give(COMMUNICATIONS, YELLOW, half=1)
        assert meeting.extra_action_holder(table.st, table.trace) == (YELLOW if on else -1)


def test_communications_off_deals_the_order_at_random_within_the_rules():
    """Nobody sorts: no D_ORDER decision, the policy recorded as -1, the two ordering rules
    kept, the Directors' Meeting card at place p with chance p / 22 (every legal order equally
    likely), as the Head of Communications' ``random`` policy sorts them."""
    table = Table(4, ["builder:order=max"] * 4, {"communications_card": False})
    table.st[HEAD + COMMUNICATIONS] = GREEN
    meeting.step_sort(table.st, table.rng)
    assert not meeting.step_order(table.st, table.trace)
    assert table.st[ps.P_STEP] == ps.S_SNAPSHOT
    assert table.rows(ps.EV_ORDER)[-1][2] == -1
    n = 3000
    counts = np.zeros(4)
    for _ in range(n):
        scripted.sort_events(table.st, table.rules, table.sids, table.prm, table.rng, table.trace)
        table.st[ps.TRACE_LEN] = 0
        order = [int(table.st[ps.ORDER + p]) for p in range(8)]
        meeting_at = order.index(table.st[ps.MEETING_EVENT])
        assert order.index(table.st[ps.BONUS_EVENT]) < meeting_at and meeting_at >= 4
        assert len({e for e in order if e < table.st[ps.N_EVENTS]}) == 6
        counts[meeting_at - 4] += 1
    assert chisquare(counts, n * np.array([4, 5, 6, 7]) / 22).pvalue > 0.001


@pytest.mark.parametrize(
    ("chairman", "member", "points"), [(2, 1, [0, 1, 0, 3]), (0, 2, [0, 2, 0, 2])]
)
def test_influence_at_the_meeting(chairman, member, points):
    """Step 5: Red is the Chairman with 1 Board member, Yellow has 1."""
    rule = {"chairman_influence": chairman, "board_influence": member}
    table = Table(4, rules=rule)
    table.board(RED, YELLOW)
    table.st[HEAD + CHAIRMAN] = RED
    for card in range(6):
        table.st[HEAD + card] = BLUE
    meeting.meeting_ends(table.st, table.trace)
    assert [table.track(seat, ps.INFLUENCE) for seat in range(4)] == points


@pytest.mark.parametrize(("scoring", "at_the_start", "at_the_end"), [
    ("new board", [0, 0, 0, 0], [0, 1, 0, 2]),
    ("outgoing board", [0, 1, 0, 3], [0, 1, 0, 3]),
])  # fmt: skip
def test_influence_scored_by_the_new_or_the_outgoing_board(scoring, at_the_start, at_the_end):
    """Round 2: Red is the outgoing Chairman with 1 Board member, Yellow has 1; at step 2 Yellow
    and Red tie and Red, leftmost, gives its member as the new Chairman. Moved before step 1,
    step 5 scores the outgoing Chairman and Board; in its place, the new ones."""
    table = Table(4, rules={"influence_scoring": scoring})
    table.board(RED, YELLOW)
    table.st[HEAD + CHAIRMAN] = RED
    table.st[ps.ROUND] = 1
    assert meeting.meeting_begins(table.st, table.trace)
    assert [table.track(seat, ps.INFLUENCE) for seat in range(4)] == at_the_start
    transitions.appoint_chairman(table.st, table.trace)
    for card in range(6):
        table.st[HEAD + card] = BLUE
    meeting.meeting_ends(table.st, table.trace)
    assert [table.track(seat, ps.INFLUENCE) for seat in range(4)] == at_the_end


@pytest.mark.parametrize(("reset", "after"), [(True, 6), (False, 2)])
def test_motivation_reset_at_the_meeting(reset, after):
    table = Table(4, rules={"motivation_reset": reset})
    for card in range(7):
        table.st[HEAD + card] = BLUE
    table.st[MOTIVATION] = 2
    meeting.meeting_ends(table.st, table.trace)
    assert table.st[MOTIVATION] == after


def test_hired_employees_and_the_influence_cost():
    table = Table(4, rules={"hired_employees": 3, "influence_cost": 2})
    table.office(BLUE, DEVELOPMENT, staff=1)
    table.action(BLUE, ps.A_HIRE)
    assert ps.employees(table.st, BLUE, -1) == 4
    table.action(BLUE, ps.A_INFLUENCE)
    assert ps.employees(table.st, BLUE, -1) == 2 and table.track(BLUE, ps.INFLUENCE) == 1
    table.action(BLUE, ps.A_INFLUENCE)
    assert ps.employees(table.st, BLUE, -1) == 0 and table.track(BLUE, ps.INFLUENCE) == 2
    costly = Table(4, rules={"influence_cost": 5})
    costly.office(BLUE, DEVELOPMENT, staff=4)
    assert ps.A_INFLUENCE not in action_kinds(costly, BLUE)


def test_main_department_and_consultant_prices():
    table = Table(4, rules={"main_department_price": 700_000, "consultant_price": 2_500_000})
    st = table.st
    st[MONEY + BLUE] = 2_400_000
    assert ps.action_possible(st, BLUE, ps.A_BUY_MAIN)
    assert not ps.action_possible(st, BLUE, ps.A_BUY_CONSULTANT)
    table.action(BLUE, ps.A_BUY_MAIN, LEGAL)
    assert st[MONEY + BLUE] == 1_700_000
    st[MONEY + BLUE] = 2_500_000
    table.action(BLUE, ps.A_BUY_CONSULTANT, LEGAL)
    assert st[MONEY + BLUE] == 0


# --- the referee with each rule flipped -------------------------------------------------------

LINEUP = ("random", "corrupter", "builder", "consultant")
FLIPPED = (
    "starting_money=1500000",
    "bribes_allowed=false",
    "bribe_cap=100000",
    "second_bribe=false",
    "refusal_costs_employee=false",
    "development_card=false",
    "human_resources_card=false",
    "communications_card=false",
    "accounting_card=false",
    "legal_patents_card=false",
    "controlling_card=false",
    "chairman_card=false",
    "chairman_influence=0",
    "board_influence=2",
    "motivation_reset=false",
    "hired_employees=3",
    "main_department_price=700000",
    "consultant_price=1000000",
    "influence_cost=2",
    "influence_scoring=outgoing board",
)
GAMES = 5  # per flow: the scripted one and the protocol's


@cache
def traces(settings: tuple[str, ...]) -> tuple[dict, list[tuple[str, np.ndarray]]]:
    """(rules, [(label, trace)]) of GAMES games of each flow with ``settings``."""
    encoded = Setup(4, LINEUP, settings, seed=42, games=GAMES).encoded(GAME_ID)
    played = []
    for via_protocol in (False, True):
        for index in range(GAMES):
            trace = play_one(GAME_ID, encoded, index, via_protocol)[2]
            played.append((f"{settings} game {index}, protocol {via_protocol}", trace))
    return encoded.rules, played


def test_every_rule_parameter_is_flipped_here():
    flipped = {text.split("=")[0] for text in FLIPPED}
    assert flipped == {p.name for p in RULES[3:]}


@pytest.mark.parametrize("setting", FLIPPED)
def test_the_referee_agrees_with_a_flipped_rule(setting):
    flipped_rules, played = traces((setting,))
    for label, trace in played:
        replay(trace, flipped_rules, 4, label)
    for index in range(GAMES):  # both flows play the rule alike
        np.testing.assert_array_equal(played[index][1], played[GAMES + index][1])
    refused = 0
    for label, trace in traces(())[1]:
        try:
            replay(trace, flipped_rules, 4, label)
        except AssertionError:
            refused += 1
    assert refused > 0, f"no game under the rulebook's rules breaks {setting}"


# --- the docs ------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "power-struggle.md"
RULEBOOK = Path("/work/shared/rules/power-struggle.md")


def test_the_house_rules_table_covers_the_rulebook_and_every_parameter():
    """docs/games/power-struggle.md, "House rules": a row for every section of the rulebook's
    table of contents, and every rule parameter named there and in "Rule parameters"."""
    text = DOCS.read_text()
    listed, house = text.split("## House rules: rulebook section → rule → parameter", 1)
    listed = listed.split("## Rule parameters", 1)[1]
    house = house.split("\n## ", 1)[0]
    sections = [line.split("|")[1].strip() for line in house.splitlines() if line.startswith("| ")]
    contents = RULEBOOK.read_text().split("Table of Contents", 1)[1].split("Game Components\n")[0]
    headings = [line.split("\t")[0].strip() for line in contents.splitlines() if "\t" in line]
    missing = [h for h in headings if not any(cell.startswith(h) for cell in sections)]
    assert len(headings) >= 10 and not missing, f"no House rules row for {missing}"
    for param in RULES:
        assert f"`{param.name}`" in house, param.name
        assert f"| `{param.name}` |" in listed, param.name
