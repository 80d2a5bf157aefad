"""The Power Struggle kernel against an independent pure-Python referee
(tests/games/power_struggle/power_struggle_referee.py).

First the referee's own rules against the rulebook's worked examples; then the sweep
(``REFEREE`` in tests/contract/games/power_struggle.py: 3, 4 and 5 players, every strategy alone
and in mixed lineups, every event-sorting policy, the longer 5-VP game, a low department-turn cap
and a corner data file that reaches golden spaces, Motivation 0, the Moron's Bank shortfall and
the event vocabulary the shipped cards do not use), whose every trace the referee replays,
checking each decision is legal and computing every consequence itself, and whose whole-game
outcomes it compares with ``run_chunk`` (tests/contract/test_referees.py): here, that the sweep
meets those corners, that chance follows the rulebook, and the tamper tests that prove the
referee can fail.
"""

from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore.games.power_struggle.state import (
    A_BUY_CONSULTANT,
    A_HIRE,
    A_RESIGN,
    ACTIONS,
    E_HIRE,
    EV_ACTION,
    EV_BRIBE,
    EV_CHAIRMAN,
    EV_DEAL,
    EV_DECLARE,
    EV_EMPLOYEE,
    EV_HEAD,
    EV_INFLUENCE,
    EV_ORDER,
    EV_PAY,
    EV_SETUP,
    EV_SNAP_OFFICE,
    EV_SNAP_SEAT,
    PAY_CAUSES,
)
from tests.contract import referees
from tests.contract.games.power_struggle import REFEREE_CONFIGS as CONFIGS
from tests.contract.referees import caught, first
from tests.games.power_struggle.power_struggle_referee import (
    ACCOUNTING,
    BONUS_PAYMENT,
    CHAIRMAN_CARD,
    COMMUNICATIONS,
    CONTROLLING,
    CORRUPTION,
    COUNSEL,
    DEVELOPMENT,
    HUMAN_RESOURCES,
    INFLUENCE,
    LEGAL,
    MAIN_DEPARTMENTS,
    SHARE_PRICES,
    SHARES,
    VP_THRESHOLDS,
    Department,
    GameData,
    IllegalMove,
    PowerStruggle,
    PrivilegeCard,
    describe_row,
    replay,
    share_blocks_in_play,
)

BLUE, YELLOW, GREEN, RED = range(4)  # the rulebook's 4-player examples, clockwise
RULEBOOK = GameData(golden={}, competence_cards=((INFLUENCE, SHARES, COUNSEL),) * 6)


def game(players: int = 4, data: GameData = RULEBOOK) -> PowerStruggle:
    g = PowerStruggle(players, data)
    g.round = 2
    return g


def give(g: PowerStruggle, player: int, card: int, bribed: bool = False) -> None:
    g.cards[card] = PrivilegeCard(holder=player, bribed=bribed)


def department(g: PowerStruggle, player: int, division: int, employees: int, heads: int = 1):
    dep = Department(player, heads, employees)
    g.open_department(division, dep, "create")
    return dep


# --- the rulebook's worked examples ---------------------------------------------------------


def test_initial_appointment_order():
    """Rulebook: "Blue is the starting player, followed in clockwise order by Yellow, Green,
    and Red ... the second turn starts. This time, Red begins ... Green, Yellow, and Blue
    follow. The third turn begins once again with Blue"."""
    assert game().initial_appointment_order(BLUE) == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]


def directors_meeting_example() -> PowerStruggle:
    """The rulebook's initial appointment round and first Directors' Meeting (pp. 3-5): Blue
    starts; the appointments are chosen so the board matches the example's illustrations."""
    g = PowerStruggle(4, RULEBOOK)
    g.round = 1
    starting = g.deal_privileges([YELLOW, RED, BLUE, GREEN, YELLOW, BLUE, RED])
    assert starting == BLUE
    board = None
    choices = [
        board, COMMUNICATIONS, DEVELOPMENT, board,  # Blue, Yellow, Green, Red
        HUMAN_RESOURCES, COMMUNICATIONS, CONTROLLING, ACCOUNTING,  # Red, Green, Yellow, Blue
        CONTROLLING, board, COMMUNICATIONS, board,  # Blue, Yellow, Green, Red
    ]  # fmt: skip
    for player, division in zip(g.initial_appointment_order(starting), choices, strict=True):
        g.initial_appointment(player, division)
    assert g.board == [BLUE, RED, YELLOW, RED]
    return g


def test_appoint_a_new_chairman():
    """Rulebook, step 2: "Red, having the most Board Members, moves his leftmost Board Member
    to the Chairman's Office and then Yellow and Red move their Board Members to the left"."""
    g = directors_meeting_example()
    assert g.appoint_chairman() == (RED, 1)
    assert g.board == [BLUE, YELLOW, RED]


def test_determine_new_divisional_heads():
    """Rulebook, step 3 example: Green in Development, Red in Human Resources, Green 2 to
    Yellow's 1 in Communications, Blue in Accounting, Yellow by the Privilege card in Legal &
    Patents (no Department Heads), Yellow in Controlling (tied with Blue for Department Heads
    and Employees, but in the office closest to the top)."""
    g = directors_meeting_example()
    g.appoint_chairman()
    heads = [g.determine_divisional_head(d, None) for d in range(6)]
    assert heads == [GREEN, RED, GREEN, BLUE, YELLOW, YELLOW]
    # Step 4: "Red receives the Chairman and Human Resources Privilege Cards, Green receives the
    # Development and Communications Privilege Cards, Blue gets the Accounting Privilege Card,
    # and Yellow the Legal & Patents and Controlling Privilege Cards."
    g.hand_out_privileges()
    assert [c.holder for c in g.cards] == [GREEN, RED, GREEN, BLUE, YELLOW, YELLOW, RED]
    assert all(c.face_up and not c.bribed for c in g.cards)
    # Step 5: "Red receives 3 points on the Influence track, Blue and Yellow get 1 point each".
    assert g.score_influence() == [1, 1, 0, 3]
    assert g.journal[-7:] == [
        ("privilege", card, holder, 0, 1)
        for card, holder in enumerate([GREEN, RED, GREEN, BLUE, YELLOW, YELLOW, RED])
    ]


def test_a_replaced_divisional_head_needs_a_choice_and_moves():
    g = game()
    department(g, BLUE, DEVELOPMENT, 3)
    g.divisions[DEVELOPMENT].head = RED
    with pytest.raises(IllegalMove, match="Board Room or Counsel"):
        g.determine_divisional_head(DEVELOPMENT, None)
    assert g.determine_divisional_head(DEVELOPMENT, False) == BLUE
    assert g.players[RED].consultants[DEVELOPMENT] == 1
    # situation B: the same player keeps it, nothing moves
    with pytest.raises(IllegalMove):
        g.determine_divisional_head(DEVELOPMENT, True)
    assert g.determine_divisional_head(DEVELOPMENT, None) == BLUE


def test_empty_board_room_chairman_from_the_card_holder():
    """Rulebook, step 2: "If there are no Managers in the Board Room, the player with the
    Chairman Privilege card (face up or face down) provides the new Chairman"."""
    g = game()
    g.cards[CHAIRMAN_CARD] = PrivilegeCard(holder=GREEN, bribed=True, face_up=False)
    assert g.appoint_chairman() == (GREEN, None)


def test_board_room_push_out():
    """Rulebook, Initial Appointment Round 1: with all 5 chairs occupied "all members of the
    Board of Directors are moved 1 chair to the left. As a result, the leftmost Manager is
    pushed out of the Board Room"."""
    g = game()
    for player in (BLUE, RED, YELLOW, RED, GREEN):
        g.seat_on_board(player, "appoint")
    g.journal.clear()
    g.seat_on_board(YELLOW, "appoint")
    assert g.board == [RED, YELLOW, RED, GREEN, YELLOW]
    assert g.journal == [("board_out", BLUE), ("board_in", YELLOW, 4, "appoint")]


def bonus_example(g: PowerStruggle) -> None:
    """Rulebook, Bonus Payment: "Red owns 2 Blocks of Shares: 1 Block of 1 Share and 1 Block of
    4 Shares ... His 3 Departments ... his 1 Main Department ... 1 Manager on the Board of
    Directors and the Chairman"."""
    g.players[RED].blocks = [1, 4]
    for division in (DEVELOPMENT, ACCOUNTING, LEGAL):
        department(g, RED, division, 2)
    department(g, RED, CONTROLLING, 0, heads=2)
    g.board = [BLUE, RED]
    g.chairman = RED


def test_bonus_payment():
    """Rulebook: "Altogether, Red receives a total bonus payment of 1,150,000 Pinats.\""""
    g = game()
    bonus_example(g)
    assert g.bonus_payment(RED) == 1_150_000
    # The Division half of Controlling adds nothing at Motivation 5-6.
    give(g, RED, CONTROLLING)
    assert g.bonus_payment(RED) == 1_150_000


def test_bonus_payment_with_bribed_controlling():
    """Rulebook, Controlling: "Assuming that he had the Controlling Privilege Card with the
    Bribed half facing him, and the current Motivation Value had been 1, Red would have received
    an additional 800,000 Pinats ... for a total bonus of 1,950,000 Pinats." Face down, the card
    gives nothing."""
    g = game()
    bonus_example(g)
    give(g, RED, CONTROLLING, bribed=True)
    g.motivation = 1
    assert g.bonus_payment(RED) == 1_950_000
    g.cards[CONTROLLING].face_up = False
    assert g.bonus_payment(RED) == 1_150_000


def test_accounting_at_motivation_1():
    """Rulebook, Accounting: "The current Motivation Value is 1 ... He pays 400,000 Pinats (the
    price for 1 Block of 3 Shares) and takes 1 Block of 5 Shares from the supply. He then
    scores 5 points on the Shares track. Note: The Block of 3 Shares need not be available, but
    the Block of 5 Shares must be.\""""
    g = game()
    give(g, BLUE, ACCOUNTING)
    g.motivation = 1
    g.players[BLUE].money = 1_000_000
    g.share_supply[3] = 0
    g.buy_shares(BLUE, 3, 5)
    assert g.players[BLUE].money == 600_000
    assert g.players[BLUE].points[SHARES] == 5 and g.players[BLUE].blocks == [5]
    assert g.share_supply[5] == 1
    g.share_supply[5] = 0
    with pytest.raises(IllegalMove, match="Block of 5 available"):
        g.buy_shares(BLUE, 3, 5)
    with pytest.raises(IllegalMove, match="Accounting"):
        g.buy_shares(BLUE, 3, 4)  # the card gives exactly 2 more at Motivation 1


def test_bribed_accounting_gives_a_free_block():
    """Rulebook, Accounting (Bribed): "a 0 Share Block is considered to have a price of 0
    Pinats and could allow the current player a Block of 1, 2 or 3 Shares for no cost"."""
    g = game()
    give(g, BLUE, ACCOUNTING, bribed=True)
    g.motivation = 0
    g.buy_shares(BLUE, 0, 3)
    assert g.players[BLUE].money == 800_000 and g.players[BLUE].points[SHARES] == 3
    with pytest.raises(IllegalMove, match="at least 1 Share"):
        game().buy_shares(BLUE, 0, 0)


def test_human_resources_creates_a_department_of_4():
    """Rulebook, Human Resources: "The current Motivation Value is 1, so Green receives 3
    additional new Employees. He moves 1 Manager and 4 Employees from the supply to the topmost
    vacant office in the Accounting Division.\""""
    g = game()
    give(g, GREEN, HUMAN_RESOURCES, bribed=True)
    g.motivation = 1
    department(g, BLUE, ACCOUNTING, 2)
    dep = g.create_department_with_new_employees(GREEN, ACCOUNTING, 3, [])
    assert g.divisions[ACCOUNTING].offices == [Department(BLUE, 1, 2), dep]
    assert dep == Department(GREEN, 1, 4)
    with pytest.raises(IllegalMove, match="Human Resources"):
        g.create_department_with_new_employees(GREEN, ACCOUNTING, 2, [])


def test_create_two_departments_with_existing_employees():
    """Rulebook, B1: "Green takes a total of 7 Employees from his existing Departments and
    places 5 of them in the topmost vacant Accounting Department Office and 2 in the topmost
    vacant Legal & Patents Department Office. He then replaces 1 Employee from each ... Since
    Green's Department Office in Development has no Employees, it needs to be closed\"."""
    g = game()
    department(g, BLUE, DEVELOPMENT, 1)
    department(g, GREEN, DEVELOPMENT, 4)
    department(g, GREEN, HUMAN_RESOURCES, 5)
    taken = [(DEVELOPMENT, 1)] * 4 + [(HUMAN_RESOURCES, 0)] * 3
    g.create_departments_with_existing_employees(GREEN, (ACCOUNTING, LEGAL), (5, 2), taken)
    assert g.divisions[DEVELOPMENT].offices == [Department(BLUE, 1, 1)]
    assert g.divisions[HUMAN_RESOURCES].offices == [Department(GREEN, 1, 2)]
    assert g.divisions[ACCOUNTING].offices == [Department(GREEN, 1, 4)]
    assert g.divisions[LEGAL].offices == [Department(GREEN, 1, 1)]
    with pytest.raises(IllegalMove, match="at least 2"):
        g.create_departments_with_existing_employees(
            GREEN, (ACCOUNTING, LEGAL), (1, 2), [(HUMAN_RESOURCES, 0)] * 3
        )


def test_merge_into_a_main_department():
    """Rulebook, C2: "Green moves his lowest Communications Department (1 Department Head and 3
    Employees) to his Development Department. Both Department Heads remain ... 2 Employees are
    fired from the Main Department and the other 4 Employees remain. Finally, Green scores 1
    point on the Main Department track.\""""
    g = game()
    department(g, GREEN, DEVELOPMENT, 3)
    department(g, GREEN, COMMUNICATIONS, 2)
    department(g, YELLOW, COMMUNICATIONS, 2)
    department(g, GREEN, COMMUNICATIONS, 3)
    g.merge_departments(GREEN, (DEVELOPMENT, 0), (COMMUNICATIONS, 2), None)
    assert g.divisions[DEVELOPMENT].offices == [Department(GREEN, 2, 4)]
    assert len(g.divisions[COMMUNICATIONS].offices) == 2
    assert g.players[GREEN].points[MAIN_DEPARTMENTS] == 1
    with pytest.raises(IllegalMove, match="not Main"):
        g.merge_departments(GREEN, (DEVELOPMENT, 0), (COMMUNICATIONS, 0), None)


def test_resign_to_the_board_room():
    """Rulebook, D1: "Green resigns as Divisional Head of Communications ... He moves the
    Divisional Head, along with both of the Department Heads ... All 6 Employees in his two
    Departments are returned to the supply ... There is only 1 vacant chair ... Blue's Manager
    and Red's leftmost Manager are both dismissed". The card turns face down, even when held by
    a briber."""
    g = game()
    g.board = [BLUE, RED, YELLOW, RED]
    g.divisions[COMMUNICATIONS].head = GREEN
    department(g, GREEN, COMMUNICATIONS, 3)
    department(g, YELLOW, COMMUNICATIONS, 2)
    department(g, GREEN, COMMUNICATIONS, 3)
    give(g, RED, COMMUNICATIONS, bribed=True)
    g.journal.clear()
    g.resign(GREEN, COMMUNICATIONS, to_board=True)
    assert g.board == [YELLOW, RED, GREEN, GREEN, GREEN]
    assert [fact[0] for fact in g.journal].count("board_out") == 2
    assert g.divisions[COMMUNICATIONS].offices == [Department(YELLOW, 1, 2)]
    assert g.divisions[COMMUNICATIONS].head is None
    assert not g.cards[COMMUNICATIONS].face_up
    assert g.usable(RED, COMMUNICATIONS) is None


def test_resign_as_a_consultant_keeps_the_main_department():
    """Rulebook, D2: "He moves the Divisional Head to the Development space on the Counsel
    track. All of Green's Employees in Development are then returned to the supply (as would any
    Department Heads not in Main Departments), but the Main Department remains.\""""
    g = game()
    g.divisions[DEVELOPMENT].head = GREEN
    department(g, GREEN, DEVELOPMENT, 2)
    department(g, GREEN, DEVELOPMENT, 5, heads=2)
    department(g, BLUE, DEVELOPMENT, 1)
    g.resign(GREEN, DEVELOPMENT, to_board=False)
    assert g.divisions[DEVELOPMENT].offices == [Department(GREEN, 2, 0), Department(BLUE, 1, 1)]
    assert g.players[GREEN].consultants[DEVELOPMENT] == 1
    with pytest.raises(IllegalMove, match="his own Divisional Head"):
        g.resign(GREEN, DEVELOPMENT, to_board=False)


def test_bribe_example():
    """Rulebook, E: Green offers Yellow 100,000 for Controlling and is declined (Green scores 1
    Corruption point); he then offers Red 350,000 for the Chairman card and Red accepts (Red
    scores 1); Green lays it out Bribed half up and removes 1 Employee of Yellow's."""
    g = game()
    give(g, YELLOW, CONTROLLING)
    give(g, RED, CHAIRMAN_CARD)
    department(g, YELLOW, LEGAL, 1)
    g.bribe(GREEN, YELLOW, CONTROLLING, 100_000, accepted=False)
    g.briber_corruption(GREEN)
    g.bribe(GREEN, RED, CHAIRMAN_CARD, 350_000, accepted=True)
    g.employee_lost_for_declining(YELLOW, (LEGAL, 0))
    assert g.players[GREEN].money == 450_000 and g.players[RED].money == 1_150_000
    assert g.players[GREEN].points[CORRUPTION] == 1 and g.players[RED].points[CORRUPTION] == 1
    assert g.players[YELLOW].points[CORRUPTION] == 0
    assert g.cards[CHAIRMAN_CARD] == PrivilegeCard(holder=GREEN, bribed=True, face_up=True)
    assert g.divisions[LEGAL].offices == []  # the emptied Department closed
    with pytest.raises(IllegalMove, match="50,000"):
        g.bribe(GREEN, YELLOW, CONTROLLING, 40_000, accepted=True)
    with pytest.raises(IllegalMove, match="another player"):
        g.bribe(GREEN, GREEN, CHAIRMAN_CARD, 100_000, accepted=True)


def test_bribed_development_entices_three():
    """Rulebook, Development (Bribed): "He takes 1 Employee each from Departments owned by Blue,
    Yellow, and Green. Those he places in his Department in Human Resources. That Department now
    has 6 Employees"; no more than 1 from a single player."""
    g = game()
    give(g, RED, DEVELOPMENT, bribed=True)
    red = department(g, RED, HUMAN_RESOURCES, 3)
    for player, division in ((BLUE, DEVELOPMENT), (YELLOW, ACCOUNTING), (GREEN, LEGAL)):
        department(g, player, division, 2)
    to_red = (HUMAN_RESOURCES, 0)
    with pytest.raises(IllegalMove, match="single player"):
        game_copy = game()
        give(game_copy, RED, DEVELOPMENT, bribed=True)
        department(game_copy, RED, HUMAN_RESOURCES, 3)
        department(game_copy, BLUE, DEVELOPMENT, 2)
        game_copy.development_privilege(
            RED, [((DEVELOPMENT, 0), to_red), ((DEVELOPMENT, 0), to_red), (None, to_red)]
        )
    g.development_privilege(
        RED, [((DEVELOPMENT, 0), to_red), ((ACCOUNTING, 0), to_red), ((LEGAL, 0), to_red)]
    )
    assert red.employees == 6


def test_bribed_legal_and_patents():
    """Rulebook, Legal & Patents (Bribed): "He removes 2 Employees from his Department ... Then
    he scores 2 points on the Influence track"; "to the extent that you have Employees"."""
    g = game()
    give(g, RED, LEGAL, bribed=True)
    department(g, RED, CONTROLLING, 3)
    g.legal_privilege(RED, [(CONTROLLING, 0), (CONTROLLING, 0)])
    assert g.players[RED].points[INFLUENCE] == 2
    g.legal_privilege(RED, [(CONTROLLING, 0)])  # only 1 left
    assert g.players[RED].points[INFLUENCE] == 3 and g.divisions[CONTROLLING].offices == []
    with pytest.raises(IllegalMove, match="an Employee to dismiss"):
        g.legal_privilege(RED, [])


def test_golden_space_caps_points_and_beats_everybody():
    """Rulebook, Competence Tracks: at a golden space "he cannot gain any more points"; for the
    Archenemy "it always counts as having more points than all other players ... if both Red
    and Blue reach a golden space, Red is considered to have more points than Blue and Blue is
    considered to have more points than Red ... This does not apply to the Counsel track\"."""
    g = game(data=GameData(golden={SHARES: 20}, competence_cards=RULEBOOK.competence_cards))
    g.gain_points(RED, SHARES, 25, "shares")
    g.gain_points(BLUE, SHARES, 20, "shares")
    assert g.players[RED].points[SHARES] == 20
    assert g.beats(RED, BLUE, SHARES) and g.beats(BLUE, RED, SHARES)
    assert not g.beats(RED, BLUE, INFLUENCE)  # 0 to 0 is not more


def test_archenemy_point():
    """Rulebook, Archenemy: another's Color card: more in all 3 competences of the Competence
    card; own Color card: more than all other players in 2 of the 3; Counsel counts Consultants
    in all Divisions (FAQ)."""
    g = game(players=3)
    for player in range(3):
        g.players[player].competences = (INFLUENCE, SHARES, COUNSEL)
    g.players[BLUE].archenemy = YELLOW
    g.players[BLUE].points[INFLUENCE] = 2
    g.players[BLUE].points[SHARES] = 1
    g.players[BLUE].consultants[DEVELOPMENT] = 1
    g.players[YELLOW].consultants = [0, 1, 0, 0, 0, 0]
    assert not g.beats_archenemy(BLUE)  # 1 Consultant each: not more
    g.players[BLUE].consultants[DEVELOPMENT] = 2
    assert g.beats_archenemy(BLUE)
    g.players[GREEN].archenemy = GREEN
    g.players[GREEN].points[INFLUENCE] = 3
    assert not g.beats_archenemy(GREEN)
    g.players[GREEN].consultants[LEGAL] = 3
    assert g.beats_archenemy(GREEN)


def test_victory_points_and_declaring():
    """Rulebook, Object of the Game: 7 Influence, 18 Shares, 4 Main Departments, 9 Corruption,
    Consultants in 3 different Divisions (FAQ: 3 Consultants in one Division are not enough), the
    Archenemy; End of the Game: the Archenemy point of a player who declared "cannot later be
    lost"; the most Victory Points win, then the most money."""
    g = game(players=3)
    for player in range(3):
        g.players[player].competences = (INFLUENCE, SHARES, CORRUPTION)
        g.players[player].archenemy = (player + 1) % 3
    blue = g.players[BLUE]
    blue.points.update({INFLUENCE: 7, SHARES: 18, CORRUPTION: 9})
    blue.consultants = [3, 0, 0, 0, 0, 0]
    assert sum(g.competence_vps(BLUE)) == 3 and g.victory_points(BLUE) == 4
    assert g.declare(BLUE, 4) and not g.declare(BLUE, 4)
    g.players[YELLOW].points.update({INFLUENCE: 8, SHARES: 20, CORRUPTION: 10})
    assert not g.beats_archenemy(BLUE) and g.victory_points(BLUE) == 4
    g.players[YELLOW].money = 100  # 3 tracks and beating Green
    assert g.victory_points(YELLOW) == 4 and g.winners() == [BLUE]
    blue.money = 100
    assert g.winners() == [BLUE, YELLOW]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_shipped_data_file_prints_the_rulebook_numbers(players):
    """What the rulebook prints, the data file must say: the Block prices (F4), the Blocks in
    play (Set Up 4), the Bonus Payment amounts, 24 non-standard Event cards (Game Components),
    the Competence cards ("in a game with 3 or 4 players, first remove the 1 or 2 cards"), and
    golden spaces no lower than the Victory Point thresholds."""
    data = GameData.load("", players)
    assert data.share_prices == SHARE_PRICES
    assert data.share_stock == share_blocks_in_play(players)
    assert data.bonus == BONUS_PAYMENT
    assert len(data.events) == 24
    assert len(data.competence_cards) == 6 - (5 - players)
    assert all(len(set(card)) == 3 for card in data.competence_cards)
    assert all(data.golden[t] >= VP_THRESHOLDS[t] for t in data.golden)


# --- the kernel's traces, replayed ----------------------------------------------------------


def kernel_traces(config: str) -> tuple:
    """(spec, [(label, trace), ...]) of a set-up of the sweep."""
    games = referees.sweep("power-struggle", config)
    return games.spec, games.traces


def refereed(config: str) -> list:
    """The referee's outcome of every game of a set-up."""
    return referees.refereed("power-struggle", config)


def test_sweep_reaches_the_corners_of_the_rules():
    """The sweep is only as good as the situations it meets: count them."""
    seen = Counter()
    for config in CONFIGS:
        for outcome in refereed(config):
            seen.update(outcome.seen)
    needed = [
        "appoint a Department", "appoint to the Board Room", "Chairman",
        "Chairman from the card holder",
        ("head case", "A"), ("head case", "B"), ("head case", "C"),
        "Divisional Head by the Privilege card", "Chairman card used (Division half)",
        "Chairman card used (Bribed half)", "extra action (Bribed Communications)",
        ("department turns", 4), ("department turns", 5), ("department turns", 6),
        ("department turns", 7), "bonus payment", ("effect", "motivation"), ("effect", "receive"),
        ("effect", "pay"), ("effect", "lose_employees"), ("effect", "face_down"),
        ("effect", "moron"), "moron without a Head of Communications",
        ("bribe attempt", 1, "accepted"), ("bribe attempt", 1, "declined"),
        ("bribe attempt", 2, "accepted"), ("bribe attempt", 2, "declined"),
        ("resign", "Board Room"), ("resign", "Counsel"), "shares with Accounting",
        "hire: excess to the supply", "declare", "truncated", "shared victory",
        "a refusal without a lost Employee", "Event cards dealt (Communications off)",
    ] + [("action", name) for name in ACTIONS if name != "pass"]  # fmt: skip
    missing = [key for key in needed if seen[key] == 0]
    assert not missing, f"the sweep never met {missing}"


def test_the_event_cards_drawn_are_uniform():
    """Rulebook, step 7: "He then shuffles the remaining Event cards face down, draws 6 from the
    top": over the sweep's default-data rounds every one of the 24 cards is drawn equally often
    (chi-square)."""
    drawn = Counter()
    for config, (_, _, settings, _, _) in CONFIGS.items():
        if not settings or not settings[0].startswith("data="):
            for outcome in refereed(config):
                drawn.update(outcome.event_draws)
    counts = [drawn[card] for card in range(24)]
    assert sum(counts) > 20_000 and chisquare(counts).pvalue > 1e-4, counts


def test_the_set_up_deals_are_uniform():
    """Rulebook, Set Up 7 and 8: the Archenemy Color and Competence cards are shuffled and dealt,
    the seven Privilege cards "randomly" dealt "as equally as possible": over the sweep each
    player is equally likely to hold his own colour or any other's, each Competence card in
    play is dealt equally often, and the Communications card (the starting player) lands on a
    seat in proportion to the cards that seat was dealt (chi-square each). Who gets the extra
    cards the rulebook leaves to the dealer: the kernel deals from seat 0, so the low seats
    always hold one more (3 players: 3-2-2)."""
    colours, cards, communications, expected = Counter(), Counter(), Counter(), Counter()
    for config, (players, _, settings, _, _) in CONFIGS.items():
        if settings:
            continue
        for _, trace in kernel_traces(config)[1]:
            for row in trace[trace[:, 0] == EV_SETUP]:
                colours[(players, (row[2] - row[1]) % players)] += 1
                cards[(players, row[3])] += 1
            deal = trace[trace[:, 0] == EV_DEAL]
            communications[(players, deal[deal[:, 1] == COMMUNICATIONS][0, 2])] += 1
            for seat in deal[:, 2]:
                expected[(players, seat)] += 1 / 7
    for players in (3, 4, 5):
        for counts, size in ((colours, players), (cards, players + 1)):
            observed = [counts[(players, k)] for k in range(size)]
            assert chisquare(observed).pvalue > 1e-4, (players, observed)
        observed = [communications[(players, seat)] for seat in range(players)]
        shares = [expected[(players, seat)] for seat in range(players)]
        assert chisquare(observed, shares).pvalue > 1e-4, (players, observed, shares)


# --- the referee can fail -------------------------------------------------------------------


def a_game() -> tuple:
    """A 4-player default game with an accepted bribe, a resignation, a Bonus Payment and a
    declaration."""
    spec, traces = kernel_traces("4p random")
    for label, trace in traces:
        kinds = Counter(trace[trace[:, 0] == EV_ACTION][:, 2].tolist())
        accepted = ((trace[:, 0] == EV_BRIBE) & (trace[:, 6] == 1)).any()
        if accepted and kinds[A_RESIGN] and kinds[A_HIRE] and (trace[:, 0] == EV_DECLARE).any():
            return spec, label, trace
    raise AssertionError("no suitable game")


def assert_caught(trace, spec, index: int) -> str:
    return caught(lambda: replay(trace, spec.rules, spec.players, "tampered"), index)


def test_a_tampered_payment_is_caught():
    spec, _, trace = a_game()
    # a Bonus Payment 50,000 too high
    i = first(trace, EV_PAY, lambda row: row[4] == PAY_CAUSES.index("bonus"))
    tampered = trace.copy()
    tampered[i, 2] += 50_000
    assert "pay(" in assert_caught(tampered, spec, i)
    # an accepted bribe that pays the bribed player more than the briber gave
    i = first(trace, EV_PAY, lambda row: row[4] == PAY_CAUSES.index("bribe") and row[2] > 0)
    tampered = trace.copy()
    tampered[i, 2:4] += 50_000
    assert_caught(tampered, spec, i)


def test_an_illegal_bribe_is_caught():
    spec, _, trace = a_game()
    i = first(trace, EV_BRIBE)
    # less than 50,000 Pinats
    tampered = trace.copy()
    tampered[i, 4] = 40_000
    assert "50,000" in assert_caught(tampered, spec, i)
    # for one's own card
    tampered = trace.copy()
    tampered[i, 2] = trace[i, 1]
    assert "another player" in assert_caught(tampered, spec, i)


def test_an_illegal_action_is_caught():
    spec, _, trace = a_game()
    # hiring into another player's office (one of the round's snapshot)
    i = first(trace, EV_ACTION, lambda row: row[2] == A_HIRE)
    seat = trace[i, 1]
    j = first(trace, EV_EMPLOYEE, lambda row: row[6] == E_HIRE and row[1] == seat)
    k = max(n for n, row in enumerate(trace[:i]) if row[0] == EV_SNAP_OFFICE and row[3] != seat)
    tampered = trace.copy()
    tampered[j, 1:4] = [trace[k, 3], trace[k, 1], trace[k, 2]]
    assert "own, not" in assert_caught(tampered, spec, i)
    # resigning from a Division the player does not head (per the last meeting)
    i = first(trace, EV_ACTION, lambda row: row[2] == A_RESIGN)
    seat = trace[i, 1]
    heads = {row[1]: row[2] for row in trace[:i] if row[0] == EV_HEAD}
    tampered = trace.copy()
    tampered[i, 3] = next(d for d, owner in heads.items() if owner != seat)
    assert "his own Divisional Head" in assert_caught(tampered, spec, i)
    # buying a Consultant without 2,000,000 Pinats: the first action of the game
    i = first(trace, EV_ACTION)
    tampered = np.insert(
        np.delete(trace, i, axis=0),
        i,
        [EV_ACTION, trace[i, 1], A_BUY_CONSULTANT, 0, 0, 0, 0, 0],
        axis=0,
    )
    assert "2,000,000" in assert_caught(tampered, spec, i)


def test_tampered_meeting_and_order_are_caught():
    spec, _, trace = a_game()
    # the Directors' Meeting card as the 4th card (3 department turns)
    i = first(trace, EV_ORDER)
    cards = trace[i + 1 : i + 9, 2].tolist()
    meeting = cards.index(-2)
    tampered = trace.copy()
    tampered[i + 1 + meeting, 2], tampered[i + 1 + 3, 2] = cards[3], -2
    assert_caught(tampered, spec, i + 8)
    # the wrong Chairman, the wrong Divisional Head, Influence not scored
    for event, column in ((EV_CHAIRMAN, 1), (EV_HEAD, 2)):
        i = first(trace, event)
        tampered = trace.copy()
        tampered[i, column] = (trace[i, column] + 1) % spec.players
        assert_caught(tampered, spec, i)
    i = first(trace, EV_INFLUENCE)
    assert_caught(np.delete(trace, i, axis=0), spec, i)


def test_tampered_snapshot_and_end_are_caught():
    spec, _, trace = a_game()
    i = first(trace, EV_SNAP_SEAT)
    for column in range(2, 8):  # money, the four tracks, consultants
        tampered = trace.copy()
        tampered[i, column] += 1
        assert "snap_seat(" in assert_caught(tampered, spec, i)
    i = first(trace, EV_DECLARE)
    assert "declare(" in assert_caught(np.delete(trace, i, axis=0), spec, i)
    end = len(trace) - 1
    tampered = trace.copy()
    tampered[end, 1] = (trace[end, 1] + 1) % spec.players
    assert "end(" in assert_caught(tampered, spec, end)
    with pytest.raises(AssertionError, match=rf"trace row {end + 1}: expected nothing after"):
        replay(np.vstack([trace, trace[-1:]]), spec.rules, spec.players, "extra")


def test_describe_row_is_readable():
    assert describe_row([EV_EMPLOYEE, 2, 3, 1, -1, 4, 0, 0]) == (
        "employee(owner=2, division=3, row=1, change=-1, after=4, cause=hire)"
    )
