"""POWER: The Game's house rules (issue 42): every rule parameter beyond the first eight, each as
a scenario from a set-up state (the ``Table`` of test_power_the_game_rules.py), then every one
flipped in a few kernel games that the referee (power_the_game_referee.py) replays.

The scenarios show each switch changing the rule it names and nothing else; the defaults are
the rulebook's (its scenarios are in test_power_the_game_rules.py). The referee games are the
proof that the referee plays by the same switch as the kernel: each is met in them (``seen``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_the_game.state import (
    B_COUNTRY,
    BOMBER,
    BUILD,
    BUY,
    CMD_WIDTH,
    CRUISER,
    DESTROYER,
    EV_COMMAND,
    EV_FLAG,
    EV_PENALTY,
    EV_POWER_UNITS,
    EXECUTED,
    FIGHTER,
    HEAVY_TANK,
    INFANTRY,
    LAUNCH,
    MAX_COMMANDS,
    MAX_LOC,
    MISSILE,
    MOVE,
    PAD,
    PAD_N,
    POWER_AT,
    REGIMENT,
    STANDING,
    TANK,
    UPGRADE,
    X_BANNED,
    X_MATERIAL,
    X_REACH,
    X_STOCK,
)
from strategies import power_the_game as strategy
from tests.games.power_the_game.power_the_game_referee import replay
from tests.games.power_the_game.test_power_the_game_rules import GAME, Table, loc

B, Y = 1, 0  # armies (= seats in the 4-player game)


def pad_of(table: Table, spec: str, seat: int = Y) -> list[tuple[int, ...]]:
    """The pad strategy ``spec`` writes for ``seat`` on the table's state."""
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, spec)])
    rng = np.zeros(4, np.uint64)
    strategy.plan(ids[0], rows[0], seat, table.st, table.rules, table.board, table.dist, rng)
    base = PAD + seat * MAX_COMMANDS * CMD_WIDTH
    return [
        tuple(int(x) for x in table.st[base + CMD_WIDTH * i : base + CMD_WIDTH * (i + 1)])
        for i in range(table.st[PAD_N + seat])
    ]


# --- Mega-Missiles allowed -------------------------------------------------------------------


def test_without_mega_missiles_nobody_makes_or_launches_one():
    """Rule mega_missiles off: material worth 100 makes no Mega-Missile, and a missile on the
    board (as if from a game with them) cannot be launched."""
    for allowed, result in ((True, EXECUTED), (False, X_BANNED)):
        table = Table(mega_missiles=allowed)
        for kind in (CRUISER, HEAVY_TANK, REGIMENT):
            table.put(Y, "Y2", kind)
        table.put(Y, "Y1", MISSILE)
        table.put(B, "B4", TANK)
        table.order(Y, Y, LAUNCH, MISSILE, "Y1", "B4")
        table.order(Y, Y, BUILD, MISSILE, "Y2", "Y2")  # the set's one missile is free again
        table.implement()
        assert [r for r, _ in table.results(Y)] == [result, result]
        assert table.count(B, "B4", TANK) == (0 if allowed else 1)
        assert table.count(Y, "Y2", CRUISER) == (0 if allowed else 1)


def test_without_mega_missiles_the_missile_builder_writes_none():
    """The strategies respect the rule: the missile builder with a Reserve worth a missile
    builds it with the rule on, and writes no missile command with it off."""
    for allowed in (True, False):
        table = Table(mega_missiles=allowed)
        table.units(Y, 10)
        table.put(Y, "RV0", CRUISER, 2)
        table.put(Y, "YHQ", INFANTRY, 2)
        table.put(B, "BHQ", DESTROYER, 2)
        ops = {c[1] for c in pad_of(table, "missile")}
        assert (BUILD in ops) == allowed and (LAUNCH in ops) == allowed


# --- the numbers of the table of pieces ------------------------------------------------------


def test_power_values_decide_battles():
    """Rule power_<piece>: a Tank (3) loses to a Destroyer (10) by the rulebook's values; with
    Tanks worth 12 it captures the Destroyer, and the totals in the state follow the values."""
    for tank, winner in ((3, B), (12, Y)):
        table = Table(power_tank=tank)
        table.put(Y, "Y0", TANK)
        table.put(B, "Y0", DESTROYER)
        table.implement().resolve()
        loser = Y if winner == B else B
        assert table.count(loser, "Y0", TANK if loser == Y else DESTROYER) == 0
        assert table.count(winner, f"RV{winner}", DESTROYER if winner == Y else TANK) == 1
    table = Table(power_cruiser=70, power_heavy_tank=5)
    table.put(Y, "Y3", CRUISER)
    table.put(Y, "Y3", HEAVY_TANK, 2)
    assert table.st[POWER_AT + Y * MAX_LOC + loc("Y3")] == 80


def test_power_units_buy_pieces_at_their_price():
    """Rule price_<piece>: a Destroyer costs 10 Power Units; at price 4 two of them cost 8."""
    table = Table(price_destroyer=4, price_infantry=1)
    table.units(Y, 9)
    table.order(Y, Y, BUY, DESTROYER, "RV0", "RV0")
    table.order(Y, Y, BUY, DESTROYER, "RV0", "RV0")
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")
    table.order(Y, Y, BUY, TANK, "RV0", "RV0")  # still 3: none left to pay with
    table.implement()
    assert table.results(Y) == [(EXECUTED, 4), (EXECUTED, 4), (EXECUTED, 1), (X_MATERIAL, 0)]
    assert table.count(Y, "RV0", DESTROYER) == 2 and table.units(Y) == 0


@pytest.mark.parametrize("pieces", [2, 4])
def test_an_exchange_takes_upgrade_pieces_like_pieces(pieces):
    """Rule upgrade_pieces: the exchange takes that many like pieces in one Sector (three by
    the rulebook); a Regiment is that many of the set's Infantry."""
    table = Table(upgrade_pieces=pieces)
    table.put(Y, "Y4", TANK, pieces)
    table.put(Y, "Y5", FIGHTER, pieces - 1)
    table.order(Y, Y, UPGRADE, TANK, "Y4", "Y4")
    table.order(Y, Y, UPGRADE, FIGHTER, "Y5", "Y5")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 0), (X_MATERIAL, 0)]
    assert table.count(Y, "Y4", HEAVY_TANK) == 1 and table.count(Y, "Y4", TANK) == 0
    # The set's 9 Infantry: 9 // pieces Regiments in play at most.
    table = Table(upgrade_pieces=pieces)
    table.put(Y, "RV0", REGIMENT, 9 // pieces)
    table.put(Y, "RV0", INFANTRY, 9 % pieces)
    table.units(Y, 2)
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")
    table.implement()
    assert table.results(Y) == [(X_STOCK, 0)]


def test_a_broken_down_group_ii_piece_gives_all_but_one_of_its_exchange():
    """Rule upgrade_pieces 4: the penalty breaks a Regiment into three Infantry plus the Power
    Units of the fourth (2), one of which is forfeited."""
    table = Table(upgrade_pieces=4)
    table.put(Y, "Y3", REGIMENT)
    table.implement(penalise_idle=True)
    assert table.count(Y, "RV0", INFANTRY) == 3 and table.units(Y) == 1
    assert table.events(EV_PENALTY)[0] == (Y, Y, REGIMENT, loc("Y3"), 1, INFANTRY, 3)


@pytest.mark.parametrize(
    ("moves", "kind", "origin", "target", "result"),
    [
        ({}, TANK, "YHQ", "Y0", EXECUTED),  # three sectors
        ({"moves_tank": 2}, TANK, "YHQ", "Y0", X_REACH),
        ({}, HEAVY_TANK, "YHQ", "XI", X_REACH),  # four
        ({"moves_tank": 4}, HEAVY_TANK, "YHQ", "XI", EXECUTED),
        ({"moves_infantry": 1}, REGIMENT, "Y8", "Y7", EXECUTED),
        ({"moves_infantry": 1}, REGIMENT, "Y8", "Y0", X_REACH),  # two
        ({"moves_plane": 4}, BOMBER, "YHQ", "R0", X_REACH),  # five
        ({}, CRUISER, "S1", "S4", X_REACH),  # two
        ({"moves_ship": 2}, DESTROYER, "S1", "S4", EXECUTED),
    ],
)
def test_each_pair_of_pieces_moves_its_range(moves, kind, origin, target, result):
    """Rules moves_infantry, moves_tank, moves_plane, moves_ship: the table's MAXIMUM MOVES of
    a Group I piece and the Group II piece it makes."""
    table = Table(**moves)
    table.put(Y, origin, kind)
    table.move(Y, Y, kind, origin, target)
    table.implement()
    assert table.results(Y)[0][0] == result


def test_the_planners_reach_follows_the_ranges():
    """A planner's idea of where a piece can go is the rules': with Fighters of range 1 the
    raider sends none from Headquarters into an enemy country (none is one move away)."""
    for plane, raided in ((5, True), (1, False)):
        table = Table(empty=False, moves_plane=plane)
        flights = [c for c in pad_of(table, "raider") if c[1] == MOVE and c[2] == FIGHTER]
        enemy = [c for c in flights if table.board[c[4], B_COUNTRY] not in (-1, Y)]
        assert bool(enemy) == raided


def test_initial_forces_are_initial_pieces_of_each_group_i_piece():
    table = Table(empty=False, initial_pieces=4)
    for kind in (INFANTRY, TANK, FIGHTER, DESTROYER):
        assert table.count(Y, "YHQ", kind) == 4


# --- Power Units, the penalty, Flags ---------------------------------------------------------


def test_power_units_per_enemy_country():
    """Rule units_per_country 2: two Power Units per enemy Country occupied, still at most
    max_power_units a round."""
    table = Table(units_per_country=2)
    table.put(Y, "B0", FIGHTER)
    table.put(B, "Y0", FIGHTER)
    table.put(B, "R0", FIGHTER)
    table.implement().resolve()
    assert table.units(Y) == 2 and table.units(B) == 3
    assert sorted(e[:2] for e in table.events(EV_POWER_UNITS)) == [(Y, 2), (B, 3)]


def test_without_the_idle_penalty_nothing_is_forfeited():
    for penalty, units in ((True, 1), (False, 2)):
        table = Table(idle_penalty=penalty)
        table.units(Y, 2)
        table.put(Y, "Y3", INFANTRY)
        table.move(Y, Y, INFANTRY, "Y3", "YHQ")  # too far: cancelled
        table.implement()
        assert table.units(Y) == units
        assert len(table.events(EV_PENALTY)) == (1 if penalty else 0)


def test_without_flag_needs_infantry_any_stronger_force_takes_the_flag():
    """The Hot Tip's Bomber (25) against two Tanks and a Destroyer (16) in a Headquarters: by
    the rulebook it captures them but not the Flag; with flag_needs_infantry off it takes the
    Flag too."""
    for needs, falls in ((True, False), (False, True)):
        table = Table(flag_needs_infantry=needs)
        table.put(B, "BHQ", TANK, 2)
        table.put(B, "BHQ", DESTROYER)
        table.put(Y, "B4", BOMBER)
        table.move(Y, Y, BOMBER, "B4", "BHQ")
        table.implement().resolve()
        assert (table.st[STANDING + B] == 0) == falls
        assert len(table.events(EV_FLAG)) == int(falls)


def test_without_bounces_a_tie_stands_off():
    """Rule bounces off: the tied pieces that moved in stay, and nobody is captured."""
    for bounces, back in ((True, 1), (False, 0)):
        table = Table(bounces=bounces)
        table.put(Y, "Y1", TANK)
        table.put(B, "Y0", TANK)
        table.move(Y, Y, TANK, "Y1", "Y0")
        table.implement().resolve()
        assert table.count(Y, "Y1", TANK) == back and table.count(Y, "Y0", TANK) == 1 - back
        assert table.count(B, "Y0", TANK) == 1


def test_flags_before_power_units():
    """Rule units_before_flags off: the Flag falls first, so occupying its Country pays nothing
    that round (by the rulebook it still pays: Power Units come first)."""
    for first, units in ((True, 1), (False, 0)):
        table = Table(units_before_flags=first)
        table.put(Y, "BHQ", INFANTRY)
        table.implement().resolve()
        assert table.st[STANDING + B] == 0 and table.units(Y) == units


# --- the referee plays by every switch -------------------------------------------------------

# id: (players, lineup, settings, games, what the referee must meet)
FLIPPED = {
    "no Mega-Missiles": (
        4, ["missile", "random:p_move=0.3"], ["mega_missiles=false", "missile_cost=20"], 4, None,
    ),
    "power values": (
        4, ["balanced", "random"], ["power_infantry=6", "power_tank=1", "power_cruiser=12",
                                    "power_bomber=40", "power_regiment=9"], 4,
        ("battle between sides", 2),
    ),
    "prices": (
        3, ["random:p_move=0.3"], ["price_infantry=1", "price_tank=1", "price_fighter=2",
                                   "price_destroyer=3"], 3, "buy",
    ),
    "exchanges of two": (3, ["random:p_move=0.2"], ["upgrade_pieces=2"], 3, "upgrade on the board"),
    "exchanges of four": (2, ["balanced", "random"], ["upgrade_pieces=4", "initial_pieces=4"], 3,
                          "upgrade in reserve"),
    "two Power Units a country": (4, ["raider", "random"], ["units_per_country=2"], 3,
                                  ("power units", 2)),
    "no idle penalty": (4, ["raider"], ["idle_penalty=false"], 4, None),
    "any piece takes a Flag": (4, ["blitz", "random"], ["flag_needs_infantry=false"], 3,
                               "flag captured"),
    "no bounces": (4, ["random"], ["bounces=false"], 4, "standoff"),
    "Flags before Power Units": (4, ["blitz", "raider"], ["units_before_flags=false"], 3,
                                 "flag captured"),
    "ranges": (4, ["balanced", "random"], ["moves_infantry=3", "moves_tank=1", "moves_plane=3",
                                           "moves_ship=2"], 3, ("move", "sea")),
}  # fmt: skip


@pytest.mark.parametrize("label", list(FLIPPED))
def test_the_referee_agrees_with_a_switch_flipped(label):
    players, lineup, settings, games, met = FLIPPED[label]
    seen = Counter()
    written = Counter()
    for table, trace in refereed_games(players, lineup, settings, games, label):
        seen.update(table.seen)
        written.update(int(row[4]) for row in trace if row[0] == EV_COMMAND)
    if met is not None:
        assert seen[met] > 0, f"{label}: the games never met {met}"
    if label == "no Mega-Missiles":
        assert written[BUILD] == written[LAUNCH] == 0  # the missile builder respects it
    if label == "no idle penalty":
        # The same lineup pays penalties by the rulebook; not one with the rule off.
        by_rulebook = refereed_games(players, lineup, [], games, label)
        assert sum(table.stats[s]["penalties"] for table, _ in by_rulebook for s in range(players))
        assert not any(str(key).startswith("penalty") for key in seen)


def refereed_games(players, lineup, settings, games, label):
    """[(the referee's final table, the kernel's trace)] of ``games`` games (seed 42)."""
    game = registry.make("power-the-game")
    kernel = game.kernel()
    params = {p.name: p for p in game.rules}
    rules = game.rules_with_defaults(
        {name: params[name].parse(value, label) for name, _, value in
         (text.partition("=") for text in settings)}
    )  # fmt: skip
    prepared = kernel.prepare(rules, players)
    seats = [registry.parse_strategy(game, lineup[k % len(lineup)]) for k in range(players)]
    ids, rows = game.encode_strategies(seats)
    played = []
    for index in range(games):
        trace = kernel.trace_game(prepared, players, ids, rows, 42, index, True)
        played.append((replay(trace, rules, players, f"{label}, game {index}"), trace))
    return played


@pytest.mark.parametrize("label", [label for label in FLIPPED if label != "no Mega-Missiles"])
def test_a_referee_at_the_rulebooks_values_rejects_those_games(label):
    """Each switch flipped changes what the kernel does, and the referee reads it: the same
    games replayed by a referee told the rulebook's values fail. (Without Mega-Missiles nothing
    is cancelled: the strategies write none, which the test above checks.)"""
    players, lineup, settings, games, _ = FLIPPED[label]
    game = registry.make("power-the-game")
    by_rulebook = game.rules_with_defaults({})
    with pytest.raises(AssertionError):
        for _, trace in refereed_games(players, lineup, settings, games, label):
            replay(trace, by_rulebook, players, label)


# --- the page ------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "power-the-game.md"
# The rulebook's contents page, section by section (Elements and Playing the Game are headings).
SECTIONS = (
    "Components", "Object of the Game", "The Power Battleground", "The Power Forces",
    "Movement of the Pieces", "Power Value: Combat Outcome", "Expanding Forces",
    "Setting up the Game", "Initial Forces", "The Official", "Round Structure",
    "1. Planning Commands", "2. Implementing Commands", "3. Resolving Conflicts",
    "4. Capturing Pieces", "5. Collecting Power Units", "6. Flag Captures",
    "Mega-Missile Rules", "Winning the Game", "Two Player Games", "Three Player Games",
    "Tournaments", "Tips, Traps and Strategies",
)  # fmt: skip


def section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_the_page_covers_every_rulebook_section_and_every_parameter():
    """docs/games/power-the-game.md: "House rules" has a row for every section of the
    rulebook's contents; every rule parameter is in it or explained there, and in "Rule
    parameters"."""
    text = DOCS.read_text()
    house = section(text, "House rules: rulebook section → rule → parameter")
    rows = [line.split("|")[1].strip() for line in house.splitlines() if line.startswith("| ")]
    missing = [name for name in SECTIONS if not any(row.startswith(name) for row in rows)]
    assert not missing, f"no House rules row for {missing}"
    listed = section(text, "Rule parameters")
    for param in GAME.rules:
        assert f"`{param.name}`" in listed, param.name
        if param.name not in ("board", "max_rounds", "commands", "first_official"):
            assert f"`{param.name}`" in house or f"`{param.name[:5]}_" in house, param.name
