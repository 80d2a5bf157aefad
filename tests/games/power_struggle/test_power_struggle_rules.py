"""Every Power Struggle rule as a scenario: build a state by hand, call one transition, check it.

A :class:`Table` is the shipped data set up for 3-5 players (money dealt, Privilege cards dealt);
a scenario then puts Departments, Board members, cards, money and points directly in ``st``
(layout in ``simcore/games/power_struggle/state.py``) and calls one kernel function. The archetypes
decide deterministically for a given state (their smaller choices: a new Employee goes to the
Department with the fewest, an own Employee leaves the fullest office, an opponent's Employee
is taken where it closes a Department), so each scenario knows what they do.

Seats in the rulebook's examples: Blue 0, Yellow 1, Green 2, Red 3.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore import registry
from simcore.games.power_struggle import components, scripted, transitions
from simcore.games.power_struggle import game as kernel
from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import (
    ACCOUNTING,
    BOARD,
    BOARD_N,
    CHAIRMAN,
    COMMUNICATIONS,
    CONSULT,
    CONTROLLING,
    DEVELOPMENT,
    EMP,
    FACE,
    HALF,
    HEAD,
    HEADS,
    HELD,
    HOLDER,
    HUMAN_RESOURCES,
    LEGAL,
    MONEY,
    MOTIVATION,
    OWNER,
    ROWS,
    STATE_SIZE,
    STOCK,
    TRACE_LEN,
    TRACE_WIDTH,
    TRACK,
    TRACK_MAX,
)
from simcore.kernel.rng import new_stream, seed_game_stream

BLUE, YELLOW, GREEN, RED = range(4)
GAME = registry.make("power-struggle")


class Table:
    """A set-up game with a trace buffer; ``strategies`` as CLI spec strings, one per seat."""

    def __init__(self, players=4, strategies=None, rules=None, seed=1):
        self.players = players
        self.rules = kernel.prepare(GAME.rules_with_defaults(rules or {}), players)
        specs = [registry.parse_strategy(GAME, s) for s in strategies or ["builder"] * players]
        self.sids, self.prm = GAME.encode_strategies(specs)
        self.st = np.zeros(STATE_SIZE, dtype=np.int64)
        self.rng = new_stream()
        seed_game_stream(seed, 0, self.rng)
        self.trace = np.zeros((20_000, TRACE_WIDTH), dtype=np.int64)
        transitions.set_up(players, self.st, self.rules, self.rng, self.trace)
        self.st[TRACE_LEN] = 0

    def office(self, seat, division, staff=3, heads=1):
        """A Department (heads 2: Main Department) in the topmost vacant office; its id."""
        return transitions.open_office(
            self.st, seat, division, heads, staff, ps.O_APPOINT, self.trace
        )

    def board(self, *seats):
        for seat in seats:
            transitions.board_add(self.st, seat, ps.B_APPOINT, self.trace)

    def give(self, card, seat, half=0, face=1):
        self.st[HOLDER + card] = seat
        self.st[HALF + card] = half
        self.st[FACE + card] = face

    def board_seats(self):
        return [int(self.st[BOARD + c]) for c in range(self.st[BOARD_N])]

    def division(self, division):
        """[(owner, heads, employees)] of the occupied offices, top first."""
        return [
            (int(self.st[OWNER + o]), int(self.st[HEADS + o]), int(self.st[EMP + o]))
            for o in range(ROWS * division, ROWS * division + ps.occupied(self.st, division))
        ]

    def track(self, seat, which):
        return int(self.st[TRACK + ps.N_TRACKS * seat + which])

    def set_track(self, seat, which, value):
        self.st[TRACK + ps.N_TRACKS * seat + which] = value

    def rows(self, event):
        n = self.st[TRACE_LEN]
        return [tuple(int(x) for x in r[1:]) for r in self.trace[:n] if r[0] == event]

    def action(self, seat, kind, x=0, y=0, z=0, w=0):
        """Carry out ``kind`` with options (x, y, z, w) as if ``seat``'s strategy chose it."""
        scripted.carry_out(seat, kind, x, y, z, w, self.st, self.sids, self.prm, self.rng,
                           self.trace)  # fmt: skip


# --- set-up and the initial appointment round ---------------------------------------------------


@pytest.mark.parametrize(
    ("players", "stock"),
    [(3, [2, 2, 2, 2, 2, 2, 2]), (4, [2, 2, 2, 2, 2, 3, 3]), (5, [3, 3, 3, 3, 3, 3, 3])],
)
def test_setup_money_shares_archenemy_and_privileges(players, stock):
    table = Table(players)
    st = table.st
    assert [int(st[MONEY + s]) for s in range(players)] == [800_000] * players
    assert [int(st[STOCK + size]) for size in range(1, 8)] == stock
    assert sorted(int(st[ps.COLOUR_CARD + s]) for s in range(players)) == list(range(players))
    cards = [int(st[ps.COMP_CARD_ID + st[ps.COMP_OF + s]]) for s in range(players)]
    assert len(set(cards)) == players and max(cards) < players + 1  # 1 or 2 removed at 3 or 4
    held = [sum(st[HOLDER + c] == s for c in range(7)) for s in range(players)]
    assert sum(held) == 7 and max(held) - min(held) <= 1
    assert all(st[FACE + c] == 1 and st[HALF + c] == 0 for c in range(7))


def test_initial_appointments_snake_order_from_the_communications_holder():
    table = Table(4)
    table.give(COMMUNICATIONS, YELLOW)
    scripted.initial_appointments(table.st, table.sids, table.prm, table.rng, table.trace)
    order = [row[0] for row in table.rows(ps.EV_APPOINT)]
    assert order == [1, 2, 3, 0] + [0, 3, 2, 1] + [1, 2, 3, 0]
    for seat, _, place, division, row, staff, _ in table.rows(ps.EV_APPOINT):
        assert place == 1 and staff == 3
        assert table.st[OWNER + ROWS * division + row] == seat


def test_board_room_push_out_example():
    """All 5 chairs taken: everyone moves a chair left, the leftmost goes back to its owner."""
    table = Table(4)
    table.board(BLUE, YELLOW, GREEN, RED, BLUE)
    table.board(GREEN)
    assert table.board_seats() == [YELLOW, GREEN, RED, BLUE, GREEN]
    assert table.rows(ps.EV_BOARD_OUT) == [(BLUE, 0, 0, 0, 0, 0, 0)]


# --- the Directors' Meeting ------------------------------------------------------------------


def test_chairman_is_the_leftmost_member_of_the_largest_board_delegation():
    table = Table(4)
    table.board(YELLOW, RED, BLUE, RED)
    transitions.appoint_chairman(table.st, table.trace)
    assert table.st[HEAD + CHAIRMAN] == RED
    assert table.board_seats() == [YELLOW, BLUE, RED]


def test_chairman_tie_goes_to_the_leftmost_and_an_empty_board_to_the_card_holder():
    table = Table(4)
    table.board(GREEN, BLUE, BLUE, GREEN)
    transitions.appoint_chairman(table.st, table.trace)
    assert table.st[HEAD + CHAIRMAN] == GREEN
    assert table.board_seats() == [BLUE, BLUE, GREEN]
    empty = Table(4)
    empty.give(CHAIRMAN, RED)
    transitions.appoint_chairman(empty.st, empty.trace)
    assert empty.st[HEAD + CHAIRMAN] == RED
    assert empty.rows(ps.EV_CHAIRMAN) == [(RED, 1, -1, 0, 0, 0, 0)]


def divisional_head_example():
    """The rulebook's step-3 example (p. 5) as a board."""
    table = Table(4)
    table.office(GREEN, DEVELOPMENT)
    table.office(RED, HUMAN_RESOURCES)
    table.office(GREEN, COMMUNICATIONS)
    table.office(YELLOW, COMMUNICATIONS)
    table.office(GREEN, COMMUNICATIONS)
    table.office(BLUE, ACCOUNTING)
    table.office(YELLOW, CONTROLLING, staff=2)
    table.office(BLUE, CONTROLLING, staff=2)
    table.give(LEGAL, YELLOW)
    return table


def test_divisional_head_example():
    table = divisional_head_example()
    scripted.appoint_heads(table.st, table.sids, table.prm, table.rng, table.trace)
    heads = [int(table.st[HEAD + d]) for d in range(6)]
    assert heads == [GREEN, RED, GREEN, BLUE, YELLOW, YELLOW]
    by_card = [row[5] for row in table.rows(ps.EV_HEAD)]
    assert by_card == [0, 0, 0, 0, 1, 0]
    assert [row[3] for row in table.rows(ps.EV_HEAD)] == [0] * 6  # case A everywhere


def test_privilege_cards_and_influence_after_the_example():
    """Step 4 hands out the cards (Division half, face up); step 5 scores the Chairman 2 and each
    Board member 1 (Red 3, Blue and Yellow 1 each in the rulebook's example)."""
    table = divisional_head_example()
    table.board(RED, YELLOW, RED, BLUE)
    table.st[ps.ROUND] = 0
    scripted.meeting(table.st, table.rules, table.sids, table.prm, table.rng, table.trace)
    st = table.st
    holders = [int(st[HOLDER + c]) for c in range(7)]
    assert holders == [GREEN, RED, GREEN, BLUE, YELLOW, YELLOW, RED]
    assert all(st[HALF + c] == 0 and st[FACE + c] == 1 for c in range(7))
    assert [table.track(s, ps.INFLUENCE) for s in range(4)] == [1, 1, 0, 3]
    assert st[MOTIVATION] == 6


def test_main_department_counts_two_and_ties_go_to_employees_then_the_top():
    table = Table(4)
    table.office(BLUE, DEVELOPMENT, staff=1)
    table.office(BLUE, DEVELOPMENT, staff=1)
    table.office(RED, DEVELOPMENT, staff=3, heads=2)
    table.office(GREEN, ACCOUNTING, staff=2)
    table.office(YELLOW, ACCOUNTING, staff=3)
    scripted.appoint_heads(table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[HEAD + DEVELOPMENT] == RED  # 2 heads each, Red 3 Employees to 2
    assert table.st[HEAD + ACCOUNTING] == YELLOW


@pytest.mark.parametrize(("consultants", "to"), [(1, 0), (0, 1)])
def test_case_c_the_displaced_head_chooses_board_room_or_counsel(consultants, to):
    """It goes where it is worth more: a Consultant in a new Division (a third of a Victory
    Point) over a Board seat, a Board seat over a second Consultant there."""
    table = Table(4, ["board", "builder", "builder", "builder"])
    table.st[CONSULT + 6 * BLUE + HUMAN_RESOURCES] = consultants
    table.st[HEAD + HUMAN_RESOURCES] = BLUE
    table.office(YELLOW, HUMAN_RESOURCES)
    table.give(HUMAN_RESOURCES, BLUE)
    scripted.appoint_heads(table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[HEAD + HUMAN_RESOURCES] == YELLOW
    row = table.rows(ps.EV_HEAD)[HUMAN_RESOURCES]
    assert row[:5] == (HUMAN_RESOURCES, YELLOW, BLUE, 2, to)
    if to == 0:
        assert table.board_seats() == [BLUE]
    else:
        assert table.st[CONSULT + 6 * BLUE + HUMAN_RESOURCES] == 1 + consultants


def test_case_b_keeps_the_head():
    table = Table(4)
    table.st[HEAD + ACCOUNTING] = GREEN
    table.office(GREEN, ACCOUNTING)
    scripted.appoint_heads(table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.rows(ps.EV_HEAD)[ACCOUNTING][:5] == (ACCOUNTING, GREEN, GREEN, 1, -1)
    assert table.board_seats() == []


@pytest.mark.parametrize(("policy", "turns"), [("max", {7}), ("min", {4})])
def test_event_order_policies_fix_the_department_turns(policy, turns):
    table = Table(4, [f"builder:order={policy}"] * 4)
    table.st[HEAD + COMMUNICATIONS] = GREEN
    seen = set()
    for _ in range(20):
        scripted.sort_events(table.st, table.rules, table.sids, table.prm, table.rng, table.trace)
        seen.add(table.rows(ps.EV_ORDER)[-1][1])
    assert seen == turns


@pytest.mark.parametrize("policy", ["random", "self", "adversarial"])
def test_every_policy_keeps_the_two_ordering_rules(policy):
    table = Table(5, [f"investor:order={policy}"] * 5)
    table.office(GREEN, ACCOUNTING)
    table.st[HEAD + COMMUNICATIONS] = GREEN
    for _ in range(200):
        scripted.sort_events(table.st, table.rules, table.sids, table.prm, table.rng, table.trace)
        order = [row[1] for row in table.rows(ps.EV_ORDER_CARD)[-8:]]
        bonus = order.index(ps.EV_BONUS_CARD)
        meeting = order.index(ps.EV_MEETING_CARD)
        assert bonus < meeting and meeting >= 4
        assert len({e for e in order if e >= 0}) == 6


def test_random_order_is_uniform_over_legal_orders():
    """Meeting card at position p has p places for the bonus: P(p) = p / 22."""
    table = Table(4, ["random"] * 4)
    table.st[HEAD + COMMUNICATIONS] = BLUE
    n = 4000
    counts = np.zeros(4)
    for _ in range(n):
        scripted.sort_events(table.st, table.rules, table.sids, table.prm, table.rng, table.trace)
        table.st[TRACE_LEN] = 0
        meeting = next(p for p in range(8) if table.st[ps.ORDER + p] == table.st[ps.MEETING_EVENT])
        counts[meeting - 4] += 1
    assert chisquare(counts, n * np.array([4, 5, 6, 7]) / 22).pvalue > 0.001


def test_sorting_draws_six_different_events_and_counts_the_round():
    table = Table(3)
    table.st[HEAD + COMMUNICATIONS] = YELLOW
    scripted.sort_events(table.st, table.rules, table.sids, table.prm, table.rng, table.trace)
    drawn = [int(table.st[ps.PILE + i]) for i in range(6)]
    assert len(set(drawn)) == 6 and max(drawn) < 24
    assert table.st[transitions.stat(YELLOW, ps.ST_COMM_ROUNDS)] == 1


def test_chairman_card_founds_a_department_or_a_main_department():
    table = Table(4, ["builder"] * 4)
    table.office(RED, ACCOUNTING, staff=4)
    table.give(CHAIRMAN, RED, half=0)
    scripted.chairman_privilege(
        table.st, table.rules, table.sids, table.prm, table.rng, table.trace
    )
    ((seat, half, division, row, staff, _, _),) = table.rows(ps.EV_CHAIRMAN_USE)
    assert (seat, half, staff) == (RED, 0, 1)
    assert table.st[OWNER + ROWS * division + row] == RED
    bribed = Table(4, ["builder"] * 4)
    bribed.give(CHAIRMAN, RED, half=1)
    scripted.chairman_privilege(
        bribed.st, bribed.rules, bribed.sids, bribed.prm, bribed.rng, bribed.trace
    )
    ((_, half, division, row, staff, _, _),) = bribed.rows(ps.EV_CHAIRMAN_USE)
    assert (half, staff) == (1, 0)
    assert bribed.st[HEADS + ROWS * division + row] == 2
    assert bribed.track(RED, ps.MAIN) == 1
    face_down = Table(4)
    face_down.give(CHAIRMAN, RED, face=0)
    scripted.chairman_privilege(
        face_down.st, face_down.rules, face_down.sids, face_down.prm, face_down.rng,
        face_down.trace,
    )  # fmt: skip
    assert face_down.rows(ps.EV_CHAIRMAN_USE) == []


def test_round_one_uses_no_chairman_card_and_dismisses_nobody():
    table = Table(4)
    table.give(CHAIRMAN, RED, half=1)
    scripted.meeting(table.st, table.rules, table.sids, table.prm, table.rng, table.trace)
    assert table.rows(ps.EV_CHAIRMAN_USE) == []
    assert table.rows(ps.EV_MEETING)[0][:2] == (1, -1)


# --- the standard events and privilege tables ------------------------------------------------


def bonus_example(controlling_half=None, motivation=6):
    """Red: blocks of 1 and 4 shares, 3 Departments, 1 Main Department, 1 Board member, the
    Chairman (p. 7)."""
    table = Table(4)
    st = table.st
    st[HELD + 8 * RED + 1] = 1
    st[HELD + 8 * RED + 4] = 1
    for division in (DEVELOPMENT, ACCOUNTING, LEGAL):
        table.office(RED, division, staff=2)
    table.office(RED, HUMAN_RESOURCES, staff=0, heads=2)
    table.board(RED)
    st[HEAD + CHAIRMAN] = RED
    if controlling_half is not None:
        table.give(CONTROLLING, RED, half=controlling_half)
    else:
        table.give(CONTROLLING, BLUE)
    st[MOTIVATION] = motivation
    before = int(st[MONEY + RED])
    transitions.bonus_payment(st, table.trace)
    return int(st[MONEY + RED]) - before


def test_bonus_payment_example():
    assert bonus_example() == 1_150_000


def test_bonus_payment_with_bribed_controlling_at_motivation_1():
    assert bonus_example(controlling_half=1, motivation=1) == 1_950_000


@pytest.mark.parametrize(
    ("half", "table_by_motivation"),
    [
        (0, {6: 0, 5: 0, 4: 50_000, 3: 50_000, 2: 100_000, 1: 100_000, 0: 100_000}),
        (1, {6: 100_000, 3: 100_000, 2: 150_000, 1: 200_000, 0: 200_000}),
    ],
)
def test_controlling_table(half, table_by_motivation):
    table = Table(4)
    table.give(CONTROLLING, RED, half=half)
    for motivation, amount in table_by_motivation.items():
        table.st[MOTIVATION] = motivation
        assert ps.motivation_bonus(table.st, RED, CONTROLLING) == amount


@pytest.mark.parametrize(
    ("half", "table_by_motivation"),
    [
        (0, {6: 0, 4: 0, 3: 1, 2: 1, 1: 2, 0: 2}),
        (1, {6: 1, 4: 1, 3: 2, 2: 2, 1: 3, 0: 3}),
    ],
)
def test_human_resources_and_accounting_tables(half, table_by_motivation):
    table = Table(4)
    table.give(HUMAN_RESOURCES, RED, half=half)
    table.give(ACCOUNTING, RED, half=half)
    for motivation, extra in table_by_motivation.items():
        table.st[MOTIVATION] = motivation
        assert ps.motivation_bonus(table.st, RED, HUMAN_RESOURCES) == extra
        assert ps.motivation_bonus(table.st, RED, ACCOUNTING) == extra
    table.st[FACE + ACCOUNTING] = 0
    assert ps.motivation_bonus(table.st, RED, ACCOUNTING) == 0


def test_accounting_example_pay_for_three_receive_five():
    table = Table(4)
    table.give(ACCOUNTING, BLUE, half=0)
    table.st[MOTIVATION] = 1
    table.st[STOCK + 3] = 0  # the paid-for block need not be available
    assert not ps.share_option_ok(table.st, BLUE, 3, 3)
    transitions.buy_shares(BLUE, 3, 5, table.st, table.trace)
    assert table.st[MONEY + BLUE] == 400_000
    assert table.track(BLUE, ps.SHARES) == 5
    assert table.st[HELD + 8 * BLUE + 5] == 1 and table.st[STOCK + 5] == 1
    # a 0-share block costs 0: 2 shares for free at Motivation 1
    transitions.buy_shares(BLUE, 0, 2, table.st, table.trace)
    assert table.st[MONEY + BLUE] == 400_000 and table.track(BLUE, ps.SHARES) == 7


def test_shares_need_the_received_block_in_stock_and_the_price():
    table = Table(4)
    table.st[STOCK + 2] = 0
    assert not ps.share_option_ok(table.st, BLUE, 2, 2)
    assert ps.share_option_ok(table.st, BLUE, 4, 4)
    assert not ps.share_option_ok(table.st, BLUE, 5, 5)  # 900,000 > 800,000
    assert not ps.share_option_ok(table.st, BLUE, 1, 3)  # no Accounting card
    assert not ps.share_option_ok(table.st, BLUE, 0, 0)


def test_human_resources_example_bribed_at_motivation_1():
    """Green creates 1 Department with new Employees: 1 + 3 go to the topmost vacant office."""
    table = Table(4)
    table.give(HUMAN_RESOURCES, GREEN, half=1)
    table.st[MOTIVATION] = 1
    table.office(BLUE, ACCOUNTING)
    table.action(GREEN, ps.A_CREATE_ONE, ACCOUNTING, 0)
    assert table.division(ACCOUNTING) == [(BLUE, 1, 3), (GREEN, 1, 4)]


# --- actions ----------------------------------------------------------------------------------


def test_hiring_fills_the_emptiest_department_and_stops_at_six():
    table = Table(4)
    table.office(GREEN, DEVELOPMENT, staff=5)
    table.office(GREEN, ACCOUNTING, staff=6)
    table.action(GREEN, ps.A_HIRE)
    assert table.division(DEVELOPMENT) == [(GREEN, 1, 6)]
    assert table.division(ACCOUNTING) == [(GREEN, 1, 6)]


def test_create_two_departments_example():
    """Green moves 7 Employees: 5 to Accounting, 2 to Legal & Patents; 1 in each becomes a
    Manager; its emptied Development Department closes."""
    table = Table(4)
    table.office(GREEN, DEVELOPMENT, staff=3)
    table.office(GREEN, COMMUNICATIONS, staff=4)
    table.office(BLUE, DEVELOPMENT, staff=2)
    table.action(GREEN, ps.A_CREATE_TWO, ACCOUNTING, LEGAL, 5, 2)
    assert table.division(ACCOUNTING) == [(GREEN, 1, 4)]
    assert table.division(LEGAL) == [(GREEN, 1, 1)]
    assert table.division(DEVELOPMENT) == [(BLUE, 1, 2)]  # Blue moved up
    assert table.division(COMMUNICATIONS) == []


def test_create_one_department_moves_own_employees_in():
    table = Table(4)
    table.office(GREEN, DEVELOPMENT, staff=4)
    table.action(GREEN, ps.A_CREATE_ONE, DEVELOPMENT, 2)
    assert table.division(DEVELOPMENT) == [(GREEN, 1, 2), (GREEN, 1, 3)]


def test_move_two_departments_to_another_division():
    table = Table(4)
    a = table.office(GREEN, DEVELOPMENT, staff=2)
    b = table.office(GREEN, DEVELOPMENT, staff=5)
    table.office(BLUE, DEVELOPMENT, staff=1)
    table.office(RED, ACCOUNTING)
    transitions.move_offices(GREEN, a, b, ACCOUNTING, table.st, table.trace)
    assert table.division(DEVELOPMENT) == [(BLUE, 1, 1)]
    assert table.division(ACCOUNTING) == [(RED, 1, 3), (GREEN, 1, 2), (GREEN, 1, 5)]
    main = table.office(GREEN, LEGAL, staff=0, heads=2)
    transitions.move_offices(GREEN, main, -1, DEVELOPMENT, table.st, table.trace)
    assert table.division(DEVELOPMENT) == [(BLUE, 1, 1), (GREEN, 2, 0)]
    with pytest.raises(ValueError, match="within its own division"):
        transitions.move_offices(GREEN, ROWS * DEVELOPMENT + 1, -1, DEVELOPMENT, table.st,
                                 table.trace)  # fmt: skip


def test_merge_example():
    """Green moves its lowest Communications Department (3 Employees) into its Development
    Department (3): a Main Department, 2 Employees fired, 4 remain, 1 Main Department point."""
    table = Table(4)
    development = table.office(GREEN, DEVELOPMENT, staff=3)
    table.office(GREEN, COMMUNICATIONS, staff=2)
    lowest = table.office(GREEN, COMMUNICATIONS, staff=3)
    transitions.merge(GREEN, development, lowest, -1, table.st, table.trace)
    assert table.division(DEVELOPMENT) == [(GREEN, 2, 4)]
    assert table.division(COMMUNICATIONS) == [(GREEN, 1, 2)]
    assert table.track(GREEN, ps.MAIN) == 1


def test_merge_into_a_new_office_fires_the_excess_over_six():
    table = Table(4)
    a = table.office(GREEN, DEVELOPMENT, staff=6)
    b = table.office(GREEN, ACCOUNTING, staff=5)
    transitions.merge(GREEN, a, b, LEGAL, table.st, table.trace)
    assert table.division(LEGAL) == [(GREEN, 2, 6)]
    assert table.division(DEVELOPMENT) == [] and table.division(ACCOUNTING) == []


def test_resign_to_the_board_example():
    """Green's Head of Communications and both its Department Heads there go to the Board Room;
    their 6 Employees are fired; Blue and Red's leftmost member are pushed out."""
    table = Table(4)
    table.board(BLUE, RED, YELLOW, RED)
    table.office(GREEN, COMMUNICATIONS, staff=3)
    table.office(YELLOW, COMMUNICATIONS, staff=2)
    table.office(GREEN, COMMUNICATIONS, staff=3)
    table.st[HEAD + COMMUNICATIONS] = GREEN
    table.give(COMMUNICATIONS, RED, half=1)  # held by a briber: it turns face down all the same
    transitions.resign(GREEN, COMMUNICATIONS, False, table.st, table.trace)
    assert table.board_seats() == [YELLOW, RED, GREEN, GREEN, GREEN]
    assert table.division(COMMUNICATIONS) == [(YELLOW, 1, 2)]
    assert table.st[HEAD + COMMUNICATIONS] == -1
    assert table.st[FACE + COMMUNICATIONS] == 0
    assert [row[0] for row in table.rows(ps.EV_BOARD_OUT)] == [BLUE, RED]


def test_resign_to_counsel_example_keeps_the_main_department():
    table = Table(4)
    table.office(GREEN, DEVELOPMENT, staff=4, heads=2)
    table.office(GREEN, DEVELOPMENT, staff=2)
    table.office(BLUE, DEVELOPMENT, staff=1)
    table.st[HEAD + DEVELOPMENT] = GREEN
    transitions.resign(GREEN, DEVELOPMENT, True, table.st, table.trace)
    assert table.division(DEVELOPMENT) == [(GREEN, 2, 0), (BLUE, 1, 1)]
    assert table.st[CONSULT + 6 * GREEN + DEVELOPMENT] == 1
    assert table.board_seats() == []


def bribe_table(ask_extra, face=1, red_cards=(CHAIRMAN, HUMAN_RESOURCES), rules=None):
    """Green (the corrupter) holds every card but ``red_cards``; Red asks ``ask_extra`` beyond
    its asking price. At Motivation 6 the Chairman card (Bribed half: a Main Department and
    point) is worth most to Green, then Human Resources (1 more Employee a hire); Red's asking
    price for either is below the least bribe (the Corruption point and the Employee a refusal
    costs outweigh what the cards do for it this round); ``rules``: rule parameters by name."""
    lineup = ["builder", "builder", "corrupter", f"builder:ask_extra={ask_extra}"]
    table = Table(4, lineup, rules)
    for card in range(7):
        table.give(card, GREEN)
    for card in red_cards:
        table.give(card, RED, face=face)
    table.office(RED, ACCOUNTING, staff=2)
    table.office(RED, LEGAL, staff=1)
    return table


def test_bribe_declined_then_accepted():
    """Green offers Red 50,000 for the Chairman card (declined: Red asks 300,000 more), then
    50,000 for Human Resources (accepted): Green scores 1 Corruption point for the action, Red
    1; the card changes hands Bribed half up; Red keeps its Employees (it accepted the second
    attempt)."""
    table = bribe_table(ask_extra=300_000)
    table.action(GREEN, ps.A_BRIBE)
    assert [(row[2], row[5]) for row in table.rows(ps.EV_BRIBE)] == [
        (CHAIRMAN, 0), (HUMAN_RESOURCES, 1)
    ]  # fmt: skip
    st = table.st
    assert (st[HOLDER + CHAIRMAN], st[HALF + CHAIRMAN]) == (RED, 0)
    held = (st[HOLDER + HUMAN_RESOURCES], st[HALF + HUMAN_RESOURCES], st[FACE + HUMAN_RESOURCES])
    assert held == (GREEN, 1, 1)
    assert st[MONEY + GREEN] == 750_000 and st[MONEY + RED] == 850_000
    assert table.track(GREEN, ps.CORRUPTION) == 1 and table.track(RED, ps.CORRUPTION) == 1
    assert ps.employees(st, RED, -1) == 3


def test_bribe_declined_twice_costs_one_employee_and_no_money():
    table = bribe_table(ask_extra=10_000_000)
    table.action(GREEN, ps.A_BRIBE)
    st = table.st
    assert [row[5] for row in table.rows(ps.EV_BRIBE)] == [0, 0]
    assert st[HOLDER + CHAIRMAN] == RED
    assert st[MONEY + GREEN] == 800_000 and table.track(GREEN, ps.CORRUPTION) == 1
    assert table.track(RED, ps.CORRUPTION) == 0
    assert table.division(LEGAL) == []  # Green took the Employee that closes a Department
    assert ps.employees(st, RED, -1) == 2


def test_a_face_down_card_stays_face_down_when_bribed():
    table = bribe_table(ask_extra=0, face=0, red_cards=(CHAIRMAN,))
    table.action(GREEN, ps.A_BRIBE)
    assert table.st[HOLDER + CHAIRMAN] == GREEN and table.st[FACE + CHAIRMAN] == 0


def test_gain_influence_buy_main_buy_consultant():
    table = Table(4)
    table.office(BLUE, DEVELOPMENT, staff=1)
    table.office(BLUE, ACCOUNTING, staff=2)
    table.st[MONEY + BLUE] = 4_000_000
    table.action(BLUE, ps.A_INFLUENCE)
    assert table.track(BLUE, ps.INFLUENCE) == 1
    assert ps.offices_of(table.st, BLUE) == 0  # both Departments closed
    table.action(BLUE, ps.A_BUY_MAIN, LEGAL)
    assert table.division(LEGAL) == [(BLUE, 2, 0)] and table.track(BLUE, ps.MAIN) == 1
    table.action(BLUE, ps.A_BUY_CONSULTANT, CONTROLLING)
    assert table.st[CONSULT + 6 * BLUE + CONTROLLING] == 1
    assert table.st[MONEY + BLUE] == 500_000


def test_development_entices_one_from_each_other_player_or_the_supply():
    table = Table(4, ["builder"] * 4)
    table.office(RED, ACCOUNTING, staff=2)
    table.office(BLUE, LEGAL, staff=1)
    table.office(YELLOW, LEGAL, staff=3)
    table.office(YELLOW, CONTROLLING, staff=3)
    table.give(DEVELOPMENT, RED, half=1)
    table.action(RED, ps.A_DEVELOPMENT)
    assert table.division(ACCOUNTING) == [(RED, 1, 5)]
    assert ps.employees(table.st, BLUE, -1) == 0 and ps.employees(table.st, YELLOW, -1) == 5
    sources = [row[0] for row in table.rows(ps.EV_EMPLOYEE) if row[5] == ps.E_ENTICE_OUT]
    assert sorted(sources) == [BLUE, YELLOW]  # Green has none: the third from the supply


@pytest.mark.parametrize(("half", "staff", "points"), [(0, 3, 1), (1, 3, 2), (1, 1, 1)])
def test_legal_and_patents_dismisses_for_influence(half, staff, points):
    table = Table(4)
    table.office(YELLOW, ACCOUNTING, staff=staff)
    table.give(LEGAL, YELLOW, half=half)
    table.action(YELLOW, ps.A_LEGAL)
    assert ps.employees(table.st, YELLOW, -1) == staff - points
    assert table.track(YELLOW, ps.INFLUENCE) == points


def test_development_division_half_takes_one():
    table = Table(4, ["builder"] * 4)
    table.office(RED, ACCOUNTING, staff=2)
    table.office(BLUE, LEGAL, staff=2)
    table.give(DEVELOPMENT, RED, half=0)
    table.action(RED, ps.A_DEVELOPMENT)
    assert table.division(ACCOUNTING) == [(RED, 1, 3)]
    assert table.division(LEGAL) == [(BLUE, 1, 1)]


# --- general rules ----------------------------------------------------------------------------


def test_an_empty_department_closes_and_the_offices_below_move_up():
    table = Table(4)
    top = table.office(BLUE, HUMAN_RESOURCES, staff=1)
    table.office(RED, HUMAN_RESOURCES, staff=2)
    main = table.office(RED, HUMAN_RESOURCES, staff=1, heads=2)
    transitions.remove_employees(table.st, top, 1, ps.E_EVENT, table.trace)
    assert table.division(HUMAN_RESOURCES) == [(RED, 1, 2), (RED, 2, 1)]
    transitions.remove_employees(table.st, main - 1, 1, ps.E_EVENT, table.trace)
    assert table.division(HUMAN_RESOURCES) == [(RED, 1, 2), (RED, 2, 0)]  # never closes


def test_tracks_stop_at_their_golden_space():
    table = Table(4)
    top = int(table.st[TRACK_MAX + ps.SHARES])
    table.set_track(RED, ps.SHARES, top - 2)
    assert transitions.gain(table.st, RED, ps.SHARES, 5, ps.P_SHARES, table.trace) == 2
    assert table.track(RED, ps.SHARES) == top


# --- Victory Points and the end ----------------------------------------------------------------


def archenemy_table(colour, card):
    table = Table(4)
    table.st[ps.COLOUR_CARD + BLUE] = colour
    table.st[ps.COMP_CARD + 0 : ps.COMP_CARD + 3] = card
    table.st[ps.COMP_OF + BLUE] = 0
    return table


def test_archenemy_of_another_colour_needs_all_three():
    table = archenemy_table(RED, (ps.INFLUENCE, ps.SHARES, ps.COUNSEL))
    table.set_track(BLUE, ps.INFLUENCE, 3)
    table.set_track(BLUE, ps.SHARES, 5)
    table.st[CONSULT + 6 * BLUE + DEVELOPMENT] = 1
    assert ps.archenemy_now(table.st, BLUE)
    table.st[CONSULT + 6 * RED + LEGAL] = 1  # equal is not more
    assert not ps.archenemy_now(table.st, BLUE)


def test_archenemy_counsel_counts_consultants_not_divisions():
    """FAQ: 1 Consultant in each of 3 Divisions does not beat 3 in one Division."""
    table = archenemy_table(RED, (ps.COUNSEL, ps.INFLUENCE, ps.SHARES))
    table.set_track(BLUE, ps.INFLUENCE, 1)
    table.set_track(BLUE, ps.SHARES, 1)
    for division in (DEVELOPMENT, ACCOUNTING, LEGAL):
        table.st[CONSULT + 6 * BLUE + division] = 1
    table.st[CONSULT + 6 * RED + LEGAL] = 3
    assert not ps.archenemy_now(table.st, BLUE)
    table.st[CONSULT + 6 * RED + LEGAL] = 2
    assert ps.archenemy_now(table.st, BLUE)


def test_own_colour_needs_two_of_three_against_everyone():
    table = archenemy_table(BLUE, (ps.INFLUENCE, ps.CORRUPTION, ps.MAIN))
    table.set_track(BLUE, ps.INFLUENCE, 5)
    table.set_track(RED, ps.INFLUENCE, 4)
    assert not ps.archenemy_now(table.st, BLUE)
    table.set_track(BLUE, ps.CORRUPTION, 1)
    assert ps.archenemy_now(table.st, BLUE)


def test_golden_space_counts_as_more_than_everybody():
    table = archenemy_table(RED, (ps.INFLUENCE, ps.SHARES, ps.MAIN))
    top = int(table.st[TRACK_MAX + ps.INFLUENCE])
    table.set_track(BLUE, ps.INFLUENCE, top)
    table.set_track(RED, ps.INFLUENCE, top)
    table.set_track(BLUE, ps.SHARES, 1)
    table.set_track(BLUE, ps.MAIN, 1)
    assert ps.archenemy_now(table.st, BLUE)


def test_victory_point_thresholds():
    table = Table(4)
    table.st[ps.COLOUR_CARD + RED] = BLUE
    table.st[ps.COMP_CARD : ps.COMP_CARD + 3] = (ps.INFLUENCE, ps.SHARES, ps.MAIN)
    table.st[ps.COMP_OF + RED] = 0
    for which, value in ((ps.INFLUENCE, 7), (ps.SHARES, 17), (ps.MAIN, 4), (ps.CORRUPTION, 9)):
        table.set_track(RED, which, value)
    table.set_track(BLUE, ps.MAIN, 5)  # Blue beats Red on main departments: no Archenemy point
    for division in (DEVELOPMENT, ACCOUNTING):
        table.st[CONSULT + 6 * RED + division] = 2
    assert ps.routes(table.st, RED) == 0b1101
    assert ps.victory_points(table.st, RED) == 3
    table.st[CONSULT + 6 * RED + LEGAL] = 1
    assert ps.victory_points(table.st, RED) == 4


def test_winners_most_vp_then_money_then_shared():
    table = Table(4)
    st = table.st
    for seat in (BLUE, RED):
        for which, value in ((ps.INFLUENCE, 7), (ps.SHARES, 18), (ps.MAIN, 4), (ps.CORRUPTION, 9)):
            table.set_track(seat, which, value)
        st[ps.COLOUR_CARD + seat] = YELLOW
        st[ps.COMP_OF + seat] = 0
    st[ps.COMP_CARD : ps.COMP_CARD + 3] = (ps.COUNSEL, ps.COUNSEL, ps.COUNSEL)
    st[MONEY + BLUE] = 100
    st[MONEY + RED] = 100
    assert transitions.winners_of(st, 4, True) == ((1 << BLUE) | (1 << RED), 4)
    st[MONEY + RED] = 101
    assert transitions.winners_of(st, 4, True) == (1 << RED, 4)
    assert transitions.winners_of(st, 5, True) == (0, 0)
    assert transitions.winners_of(st, 4, False) == (0, 0)


def test_declared_archenemy_point_is_not_lost():
    table = archenemy_table(RED, (ps.INFLUENCE, ps.SHARES, ps.MAIN))
    for which in (ps.INFLUENCE, ps.SHARES, ps.MAIN):
        table.set_track(BLUE, which, 1)
    transitions.declare(table.st, BLUE, table.trace)
    table.set_track(RED, ps.INFLUENCE, 3)
    assert not ps.archenemy_now(table.st, BLUE)
    assert (ps.routes(table.st, BLUE) >> ps.ARCHENEMY) & 1
    assert table.st[ps.ENDING] == 1


# --- events -----------------------------------------------------------------------------------


def event_id(table, name):
    _, events = components.load_data("", table.players)
    return events.names.index(name)


def test_moron_shortfall_is_paid_by_the_bank_and_no_effect_after_resignation():
    table = Table(4)
    moron = event_id(table, "Moron")
    table.st[HEAD + COMMUNICATIONS] = GREEN
    table.st[MONEY + GREEN] = 150_000
    scripted.apply_event(moron, 0, table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[MONEY + GREEN] == 0
    assert [int(table.st[MONEY + s]) for s in (RED, BLUE, YELLOW)] == [900_000] * 3
    assert [row[4] for row in table.rows(ps.EV_PAY) if row[1] > 0] == [0, 50_000, 100_000]
    table.st[HEAD + COMMUNICATIONS] = -1
    scripted.apply_event(moron, 1, table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[MONEY + RED] == 900_000


def test_motivation_events_stay_within_0_and_6():
    table = Table(4)
    strike = event_id(table, "Strike")
    party = event_id(table, "Summer party")
    table.st[MOTIVATION] = 1
    scripted.apply_event(strike, 0, table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[MOTIVATION] == 0
    table.st[MOTIVATION] = 5
    scripted.apply_event(party, 0, table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[MOTIVATION] == 6


def test_payment_events_pay_what_a_player_has_and_layoffs_cost_employees():
    table = Table(4)
    tax = event_id(table, "Tax audit")
    layoffs = event_id(table, "Layoffs")
    table.st[HELD + 8 * BLUE + 1] = 3
    table.st[MONEY + BLUE] = 100_000
    scripted.apply_event(tax, 0, table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[MONEY + BLUE] == 0 and table.st[MONEY + RED] == 800_000
    table.office(RED, LEGAL, staff=1)
    table.office(YELLOW, LEGAL, staff=2)
    scripted.apply_event(layoffs, 0, table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.division(LEGAL) == [(YELLOW, 1, 1)]


def test_face_down_event_invalidates_the_card_until_the_next_meeting():
    table = Table(4)
    investigation = event_id(table, "Internal investigation")
    table.give(LEGAL, RED, half=1)
    table.office(RED, ACCOUNTING)
    scripted.apply_event(investigation, 0, table.st, table.sids, table.prm, table.rng, table.trace)
    assert table.st[FACE + LEGAL] == 0
    assert not ps.action_possible(table.st, RED, ps.A_LEGAL)
