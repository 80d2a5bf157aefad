"""Every POWER: The Game rule as a scenario: build a state by hand, call one transition, check it.

A :class:`Table` is the shipped board set up for 2, 3 or 4 players (``setup``), usually
emptied; a scenario puts pieces and Power Units where it wants them, writes Command pads directly
into the state (layout in ``simcore/games/power_the_game/state.py``) and calls one stage of a round:
``implement`` (the commands, official first and clockwise, then penalties) or ``resolve`` (ties,
battles, Power Units, Flag captures). After every stage the table checks that the per-location
power and piece totals agree with the piece counts and that no count is negative.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_the_game import game as kernel
from simcore.games.power_the_game.components import load_board
from simcore.games.power_the_game.conflicts import resolve
from simcore.games.power_the_game.pieces import change
from simcore.games.power_the_game.rules import implement, setup, winner_at_time
from simcore.games.power_the_game.state import (
    BOMBER,
    BUILD,
    BUY,
    CAPTURE,
    CARRIED,
    CMD_WIDTH,
    CNT,
    CRUISER,
    DESTROYER,
    EV_BOUNCE,
    EV_CAPTURE,
    EV_CONFLICT,
    EV_DESTROYED,
    EV_EXEC,
    EV_FLAG,
    EV_OUT,
    EV_PENALTY,
    EV_POWER_UNITS,
    EV_TAKE,
    EV_USED,
    EXECUTED,
    FIGHTER,
    FIXED,
    FLAGS,
    HEAVY_TANK,
    INFANTRY,
    LAUNCH,
    MAX_COMMANDS,
    MAX_LOC,
    MERCENARY_ARMY,
    MISSILE,
    MOVE,
    N_ARMIES,
    N_KINDS,
    N_SEAT_STATS,
    OFFICIAL,
    PAD,
    PAD_N,
    PIECES_AT,
    POWER_AT,
    POWER_UNIT,
    POWER_VALUE,
    PU,
    REGIMENT,
    RESERVE,
    ROUND,
    SEAT_IN,
    SHARED,
    ST_CANCELLED,
    STANDING,
    STANDOFF,
    STATE_SIZE,
    STATS,
    TANK,
    TRACE_LEN,
    TRACE_WIDTH,
    UPGRADE,
    X_BLOCKADE,
    X_MALFORMED,
    X_MATERIAL,
    X_MERCENARY,
    X_NO_PIECE,
    X_NOT_YOURS,
    X_REACH,
    X_RESERVE,
    X_STOCK,
    X_TOO_MANY,
    piece_index,
    power_value,
)
from strategies import power_the_game as strategy

GAME = registry.make("power-the-game")
BOARD = load_board("")
NODE = {name: i for i, name in enumerate(BOARD.names)}
Y, B, R, G = range(4)  # armies (= seats in the 4-player game)


def loc(where: str) -> int:
    """A node by name, or "RV<army>" for an army's Reserve."""
    if where.startswith("RV"):
        return RESERVE + int(where[2:])
    return NODE[where]


class Table:
    def __init__(self, players=4, official=0, empty=True, **rules):
        self.players = players
        self.rules, self.board, self.dist = kernel.prepare(GAME.rules_with_defaults(rules), players)
        self.st = np.zeros(STATE_SIZE, dtype=np.int64)
        self.trace = np.zeros((5000, TRACE_WIDTH), dtype=np.int64)
        setup(players, self.st, self.rules, self.board, np.zeros(4, np.uint64), self.trace)
        self.st[OFFICIAL] = official
        if empty:
            for army in range(N_ARMIES):
                for place in range(MAX_LOC):
                    for kind in range(N_KINDS):
                        n = self.count(army, place, kind)
                        if n:
                            change(self.st, army, place, kind, -n)
        self.mark = self.st[TRACE_LEN]

    def count(self, army, where, kind):
        place = loc(where) if isinstance(where, str) else where
        return int(self.st[CNT + piece_index(army, place, kind)])

    def put(self, army, where, kind, n=1):
        change(self.st, army, loc(where), kind, n)

    def units(self, army, n=None):
        if n is not None:
            self.st[PU + army] = n
        return int(self.st[PU + army])

    def order(self, seat, army, op, kind, origin="YHQ", target="YHQ"):
        i = self.st[PAD_N + seat]
        c = PAD + (seat * MAX_COMMANDS + i) * CMD_WIDTH
        self.st[c : c + CMD_WIDTH] = (army, op, kind, loc(origin), loc(target))
        self.st[PAD_N + seat] += 1

    def move(self, seat, army, kind, origin, target):
        self.order(seat, army, MOVE, kind, origin, target)

    def implement(self, penalise_idle=False):
        """Implement the pads. Seats that wrote nothing sit this one out unless the scenario is
        about the penalty (it would break down their pieces)."""
        idle = [s for s in range(self.players) if self.st[PAD_N + s] == 0 and not penalise_idle]
        for seat in idle:
            self.st[SEAT_IN + seat] = 0
        rng = np.zeros(4, np.uint64)  # the penalty's choice among equal smallest pieces
        implement(self.st, self.rules, self.board, self.dist, rng, self.trace)
        for seat in idle:
            self.st[SEAT_IN + seat] = 1
        self.st[PAD_N : PAD_N + 4] = 0
        self.check()
        return self

    def resolve(self):
        resolve(self.st, self.rules, self.board, self.trace)
        self.check()
        return self

    def events(self, code):
        rows = self.trace[self.mark : self.st[TRACE_LEN]]
        return [tuple(int(x) for x in row[1:]) for row in rows if row[0] == code]

    def results(self, seat):
        """(result, detail) of each of the seat's commands, in pad order."""
        return [(r[2], r[3]) for r in self.events(EV_EXEC) if r[0] == seat]

    def check(self):
        st = self.st
        for army in range(N_ARMIES):
            for place in range(MAX_LOC):
                counts = [self.count(army, place, kind) for kind in range(N_KINDS)]
                assert min(counts) >= 0
                assert st[PIECES_AT + army * MAX_LOC + place] == sum(counts)
                assert st[POWER_AT + army * MAX_LOC + place] == sum(
                    n * power_value(st, kind) for kind, n in enumerate(counts)
                )
                for kind in range(N_KINDS):
                    i = piece_index(army, place, kind)
                    assert 0 <= st[FIXED + i] <= st[CNT + i]
            assert st[PU + army] >= 0


# --- set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_initial_forces_two_of_each_group_i_piece_and_a_flag_in_headquarters(players):
    table = Table(players, empty=False)
    for army, country in enumerate("YBRG"):
        for kind in (INFANTRY, TANK, FIGHTER, DESTROYER):
            assert table.count(army, f"{country}HQ", kind) == 2
        assert table.st[STANDING + army] == 1 and table.st[FLAGS + army] == 1
        assert table.units(army) == 0
    assert table.st[SEAT_IN : SEAT_IN + 4].tolist() == [1] * players + [0] * (4 - players)


# --- moves -----------------------------------------------------------------------------------


def test_a_tank_moves_three_sectors_not_four():
    """Rulebook: a Tank moved four Sectors remains where it was and the command is lost."""
    table = Table()
    table.put(Y, "Y3", TANK)
    table.put(Y, "XI", TANK)
    table.put(Y, "Y3", INFANTRY)
    table.move(Y, Y, TANK, "Y3", "YHQ")  # Y3 Y6 Y8 YHQ
    table.move(Y, Y, TANK, "XI", "BHQ")  # XI B0 B4 B8 BHQ
    table.move(Y, Y, INFANTRY, "Y3", "YHQ")  # beyond an Infantry's 2
    table.implement()
    assert table.results(Y) == [(EXECUTED, 3), (X_REACH, 4), (X_REACH, 3)]
    assert table.count(Y, "XI", TANK) == 1 and table.count(Y, "Y3", INFANTRY) == 1


def test_tanks_and_infantry_stop_at_islands_and_cross_no_sea_lane():
    table = Table()
    table.put(Y, "Y0", TANK, 2)
    table.put(Y, "XI", TANK)
    table.put(Y, "Y8", INFANTRY)
    table.move(Y, Y, TANK, "Y0", "B0")  # through X Island without stopping
    table.move(Y, Y, TANK, "Y0", "XI")
    table.move(Y, Y, TANK, "XI", "B0")  # the Tank that started the round there may leave
    table.move(Y, Y, INFANTRY, "Y8", "S1")
    table.implement()
    assert table.results(Y) == [(X_REACH, -1), (EXECUTED, 1), (EXECUTED, 1), (X_REACH, -1)]
    assert table.count(Y, "XI", TANK) == 1 and table.count(Y, "B0", TANK) == 1


def test_planes_fly_over_islands_but_not_sea_lanes():
    table = Table()
    table.put(Y, "Y0", FIGHTER, 2)
    table.put(Y, "YHQ", BOMBER)
    table.move(Y, Y, FIGHTER, "Y0", "B0")  # over X Island: it counts as a move
    table.move(Y, Y, FIGHTER, "Y0", "S3")
    table.move(Y, Y, BOMBER, "YHQ", "B0")  # YHQ Y8 Y4 Y0 XI B0: 5
    table.implement()
    assert table.results(Y) == [(EXECUTED, 2), (X_REACH, -1), (EXECUTED, 5)]


def test_ships_move_one_sector_on_water_and_coastline_never_to_sector_4():
    table = Table()
    table.put(Y, "YHQ", DESTROYER, 2)
    table.put(Y, "Y2", CRUISER)
    table.move(Y, Y, DESTROYER, "YHQ", "S1")
    table.move(Y, Y, DESTROYER, "YHQ", "Y7")  # two moves away
    table.move(Y, Y, CRUISER, "Y2", "Y4")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 1), (X_REACH, 2), (X_REACH, -1)]


def test_a_piece_moves_once_a_round():
    """Rulebook: a Cruiser moved from NI to S1 cannot go on from S1 to XI in the same round."""
    table = Table()
    table.put(Y, "NI", CRUISER)
    table.move(Y, Y, CRUISER, "NI", "S1")
    table.move(Y, Y, CRUISER, "S1", "XI")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 1), (X_NO_PIECE, 0)]
    table = Table()
    table.put(Y, "NI", CRUISER)
    table.put(Y, "S1", CRUISER)  # another Cruiser already there may go
    table.move(Y, Y, CRUISER, "NI", "S1")
    table.move(Y, Y, CRUISER, "S1", "XI")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 1), (EXECUTED, 1)]


def test_reserve_pieces_move_only_to_headquarters_and_then_stay_for_the_round():
    table = Table()
    table.put(Y, "RV0", TANK, 2)
    table.move(Y, Y, TANK, "RV0", "Y8")
    table.move(Y, Y, TANK, "RV0", "YHQ")
    table.move(Y, Y, TANK, "YHQ", "Y8")
    table.move(Y, Y, TANK, "Y8", "RV0")
    table.implement()
    assert table.results(Y) == [(X_RESERVE, 0), (EXECUTED, 1), (X_NO_PIECE, 0), (X_NO_PIECE, 0)]
    table = Table()
    table.put(Y, "Y8", TANK)
    table.move(Y, Y, TANK, "Y8", "RV0")  # pieces cannot move back into Reserve
    table.move(Y, Y, TANK, "Y8", "RV1")
    table.implement()
    assert table.results(Y) == [(X_RESERVE, 0), (X_RESERVE, 0)]


def test_exchange_then_move_only_in_reserve():
    """Rulebook: a Fighter moved into a sector holding two Fighters, then the three exchanged for
    a Bomber: the Bomber cannot move until the next round. In Reserve, pieces bought can move to
    Headquarters at once (two commands)."""
    table = Table()
    table.put(Y, "Y0", FIGHTER, 2)
    table.put(Y, "YHQ", FIGHTER)
    table.move(Y, Y, FIGHTER, "YHQ", "Y0")
    table.order(Y, Y, UPGRADE, FIGHTER, "Y0", "Y0")
    table.move(Y, Y, BOMBER, "Y0", "B0")
    table.units(Y, 2)
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")
    table.move(Y, Y, INFANTRY, "RV0", "YHQ")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 3), (EXECUTED, 1), (X_NO_PIECE, 0), (EXECUTED, 2),
                                (EXECUTED, 1)]  # fmt: skip
    assert table.count(Y, "Y0", BOMBER) == 1 and table.count(Y, "YHQ", INFANTRY) == 1
    assert table.units(Y) == 0


def test_reserve_pieces_can_be_exchanged_twice_in_a_round():
    """Rulebook: two Power Units for an Infantry, then that Infantry and two others for a
    Regiment."""
    table = Table()
    table.units(Y, 3)
    table.put(Y, "RV0", INFANTRY, 2)
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")
    table.order(Y, Y, UPGRADE, INFANTRY, "RV0", "RV0")
    table.move(Y, Y, REGIMENT, "RV0", "YHQ")
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")  # one Power Unit left: not enough
    table.implement()
    assert table.results(Y) == [(EXECUTED, 2), (EXECUTED, 0), (EXECUTED, 1), (X_MATERIAL, 0)]
    assert table.count(Y, "YHQ", REGIMENT) == 1 and table.units(Y) == 1


@pytest.mark.parametrize(("kind", "units"), [(INFANTRY, 2), (TANK, 3), (FIGHTER, 5),
                                             (DESTROYER, 10)])  # fmt: skip
def test_power_units_buy_group_i_pieces_at_their_power_value(kind, units):
    table = Table()
    table.units(Y, units)
    table.order(Y, Y, BUY, kind, "RV0", "RV0")
    table.order(Y, Y, BUY, kind + 4, "RV0", "RV0")  # Group II pieces are not for sale
    table.implement()
    assert table.results(Y) == [(EXECUTED, units), (X_MALFORMED, 0)]
    assert table.count(Y, "RV0", kind) == 1 and table.units(Y) == 0


def test_three_like_pieces_in_one_sector_make_the_group_ii_piece():
    """POWER SECRET: three Tanks (power 9) become a Heavy Tank (power 30)."""
    table = Table()
    table.put(Y, "Y4", TANK, 3)
    table.put(Y, "Y5", FIGHTER, 2)
    table.put(Y, "Y6", FIGHTER)
    table.put(Y, "Y7", INFANTRY, 2)
    table.put(Y, "Y7", TANK)
    table.order(Y, Y, UPGRADE, TANK, "Y4", "Y4")
    table.order(Y, Y, UPGRADE, FIGHTER, "Y5", "Y5")  # the third Fighter is elsewhere
    table.order(Y, Y, UPGRADE, INFANTRY, "Y7", "Y7")  # not three of the same type
    table.implement()
    assert table.results(Y) == [(EXECUTED, 0), (X_MATERIAL, 0), (X_MATERIAL, 0)]
    assert table.count(Y, "Y4", HEAVY_TANK) == 1 and table.count(Y, "Y4", TANK) == 0
    assert table.st[POWER_AT + Y * MAX_LOC + loc("Y4")] == 30


def test_a_blockade_stops_pieces_coming_out_of_reserve():
    for blockade, result in ((True, X_BLOCKADE), (False, EXECUTED)):
        table = Table(blockade=blockade)
        table.put(Y, "RV0", TANK)
        table.put(B, "YHQ", BOMBER)
        table.move(Y, Y, TANK, "RV0", "YHQ")
        table.implement()
        assert table.results(Y)[0][0] == result


def test_commands_run_official_first_then_clockwise():
    """Blue's Bomber enters Yellow's Headquarters; Yellow's Reserve Tank gets in only if Yellow
    reads its pad first."""
    for official, first in ((Y, Y), (B, B), (R, Y), (G, Y)):
        table = Table(official=official)
        table.put(Y, "RV0", TANK)
        table.put(B, "Y4", BOMBER)
        table.move(Y, Y, TANK, "RV0", "YHQ")
        table.move(B, B, BOMBER, "Y4", "YHQ")
        table.implement()
        assert [row[0] for row in table.events(EV_EXEC)] == [first, 1 - first]
        assert table.results(Y)[0][0] == (EXECUTED if first == Y else X_BLOCKADE)


def test_a_seat_commands_only_its_own_armies_and_at_most_five_commands():
    table = Table()
    table.put(Y, "Y0", INFANTRY, 6)
    table.put(B, "B0", INFANTRY)
    table.move(Y, B, INFANTRY, "B0", "B1")
    for _ in range(5):
        table.move(Y, Y, INFANTRY, "Y0", "Y1")
    table.implement()
    assert [r for r, _ in table.results(Y)] == [X_NOT_YOURS] + [EXECUTED] * 4 + [X_TOO_MANY]


def test_two_players_write_five_commands_for_each_army():
    table = Table(2)
    table.put(Y, "Y0", INFANTRY, 6)
    table.put(B, "B0", INFANTRY, 6)
    for _ in range(6):
        table.move(0, Y, INFANTRY, "Y0", "Y1")
    for _ in range(4):
        table.move(0, B, INFANTRY, "B0", "B1")
    table.implement()
    results = [r for r, _ in table.results(0)]
    assert results == [EXECUTED] * 5 + [X_TOO_MANY] + [EXECUTED] * 4


def test_the_mega_missile_cannot_move():
    table = Table()
    table.put(Y, "Y0", MISSILE)
    table.put(Y, "Y0", INFANTRY)
    table.move(Y, Y, MISSILE, "Y0", "Y1")
    table.move(Y, Y, INFANTRY, "Y0", "Y0")  # a move to where it is is no move
    table.implement()
    assert table.results(Y) == [(X_MALFORMED, 0), (X_MALFORMED, 0)]


# --- the penalty -----------------------------------------------------------------------------


def test_no_legal_command_costs_a_power_unit():
    table = Table()
    table.units(Y, 2)
    table.put(Y, "Y3", INFANTRY)
    table.move(Y, Y, INFANTRY, "Y3", "YHQ")
    table.implement()
    assert table.units(Y) == 1
    assert table.events(EV_PENALTY)[0][:3] == (Y, Y, -1)
    assert table.st[CARRIED + Y] == 0


def test_without_power_units_the_smallest_piece_is_broken_down():
    table = Table()
    table.put(Y, "Y8", DESTROYER)
    table.put(Y, "Y3", TANK)
    table.put(Y, "RV0", FIGHTER)
    table.implement(penalise_idle=True)  # no command written at all: also a penalty
    assert table.count(Y, "Y3", TANK) == 0 and table.units(Y) == 2  # 3 Power Units, one lost
    assert table.events(EV_PENALTY)[0] == (Y, Y, TANK, loc("Y3"), 2, -1, 0)


def test_a_smallest_group_ii_piece_breaks_into_two_pieces_and_power_units():
    table = Table()
    table.put(Y, "Y8", CRUISER)
    table.put(Y, "Y3", REGIMENT)
    table.implement(penalise_idle=True)
    assert table.count(Y, "Y3", REGIMENT) == 0
    assert table.count(Y, "RV0", INFANTRY) == 2 and table.units(Y) == 1  # 2 for the third, -1
    assert table.events(EV_PENALTY)[0] == (Y, Y, REGIMENT, loc("Y3"), 1, INFANTRY, 2)


def test_a_seat_with_one_command_carried_out_pays_nothing():
    table = Table()
    table.units(Y, 2)
    table.put(Y, "Y3", INFANTRY, 2)
    table.move(Y, Y, INFANTRY, "Y3", "YHQ")
    table.move(Y, Y, INFANTRY, "Y3", "Y4")
    table.implement()
    assert table.units(Y) == 2
    assert [e for e in table.events(EV_PENALTY) if e[0] == Y] == []


# --- conflicts -------------------------------------------------------------------------------


def test_the_highest_total_captures_every_opposing_piece_into_its_reserve():
    """Rulebook: a Tank (3) and a Destroyer (10) in one sector: the Destroyer wins."""
    table = Table()
    table.put(Y, "S3", DESTROYER)
    table.put(B, "B0", TANK)
    table.put(B, "B0", INFANTRY)
    table.put(Y, "Y0", DESTROYER)
    table.move(Y, Y, DESTROYER, "Y0", "XI")
    table.move(B, B, TANK, "B0", "XI")
    table.implement().resolve()
    assert table.count(Y, "RV0", TANK) == 1 and table.count(B, "XI", TANK) == 0
    assert table.count(Y, "XI", DESTROYER) == 1
    assert table.events(EV_CONFLICT)[0][5:] == (CAPTURE, Y)


def test_a_tie_bounces_the_pieces_that_moved_in_and_not_those_already_there():
    table = Table()
    table.put(B, "B0", FIGHTER)  # already there
    table.put(Y, "Y0", FIGHTER)
    table.move(Y, Y, FIGHTER, "Y0", "B0")
    table.implement().resolve()
    assert table.count(Y, "Y0", FIGHTER) == 1 and table.count(B, "B0", FIGHTER) == 1
    assert table.events(EV_BOUNCE) == [(Y, FIGHTER, loc("B0"), loc("Y0"), 0, 0, 0)]


def test_pieces_retreating_into_an_occupied_sector_fight_there():
    table = Table()
    table.put(B, "B0", FIGHTER)
    table.put(Y, "Y0", FIGHTER)
    table.put(R, "XI", TANK)
    table.move(Y, Y, FIGHTER, "Y0", "B0")
    table.move(R, R, TANK, "XI", "Y0")  # Red's Tank takes the sector the Fighter left
    table.implement().resolve()
    # The Fighter bounces back to Y0 and, 5 against 3, captures the Tank.
    assert table.count(Y, "Y0", FIGHTER) == 1 and table.count(Y, "RV0", TANK) == 1


def test_a_piece_retreats_only_once_then_the_opponent_must_retreat():
    table = Table()
    table.put(B, "B0", FIGHTER)
    table.put(Y, "Y0", FIGHTER)
    table.put(R, "XI", INFANTRY)
    table.put(R, "XI", TANK)
    table.move(Y, Y, FIGHTER, "Y0", "B0")
    table.move(R, R, INFANTRY, "XI", "Y0")
    table.move(R, R, TANK, "XI", "Y0")  # 5: ties the Fighter when it comes back
    table.implement().resolve()
    assert table.count(Y, "Y0", FIGHTER) == 1
    assert table.count(R, "XI", INFANTRY) == 1 and table.count(R, "XI", TANK) == 1
    bounced = [(e[0], e[2], e[3]) for e in table.events(EV_BOUNCE)]
    assert bounced == [(Y, loc("B0"), loc("Y0")), (R, loc("Y0"), loc("XI")),
                       (R, loc("Y0"), loc("XI"))]  # fmt: skip


def test_three_sides_the_two_highest_tied_retreat_and_the_lowest_stays():
    table = Table()
    table.put(G, "XI", INFANTRY)  # 2, already there
    table.put(Y, "Y0", FIGHTER)
    table.put(B, "B0", FIGHTER)
    table.move(Y, Y, FIGHTER, "Y0", "XI")
    table.move(B, B, FIGHTER, "B0", "XI")
    table.implement().resolve()
    assert table.count(G, "XI", INFANTRY) == 1
    assert table.count(Y, "Y0", FIGHTER) == 1 and table.count(B, "B0", FIGHTER) == 1


def test_three_sides_the_two_lowest_tied_are_captured_by_the_highest():
    table = Table()
    table.put(G, "XI", DESTROYER)  # 10
    table.put(Y, "Y0", FIGHTER)
    table.put(B, "B0", FIGHTER)
    table.move(Y, Y, FIGHTER, "Y0", "XI")
    table.move(B, B, FIGHTER, "B0", "XI")
    table.implement().resolve()
    assert table.count(G, "RV3", FIGHTER) == 2 and table.count(G, "XI", DESTROYER) == 1


def test_four_sides_the_highest_tied_retreat_then_the_other_two_battle():
    table = Table()
    for army, country in ((Y, "Y"), (B, "B"), (R, "R"), (G, "G")):
        table.put(army, f"{country}0", FIGHTER if army in (Y, B) else TANK)
    table.put(R, "R0", INFANTRY)  # Red 5, Green 3
    for army, country in ((Y, "Y"), (B, "B"), (R, "R"), (G, "G")):
        table.move(army, army, FIGHTER if army in (Y, B) else TANK, f"{country}0", "XI")
    table.move(R, R, INFANTRY, "R0", "XI")
    table.implement().resolve()
    # Yellow and Blue (5 and 5) tie with Red (5): all three bounce; Green stays.
    assert table.count(G, "XI", TANK) == 1
    table = Table()
    table.put(Y, "Y0", BOMBER)
    table.put(B, "B0", BOMBER)
    table.put(R, "R0", FIGHTER)
    table.put(G, "G0", TANK)
    for army, kind, country in ((Y, BOMBER, "Y"), (B, BOMBER, "B"), (R, FIGHTER, "R"),
                                (G, TANK, "G")):  # fmt: skip
        table.move(army, army, kind, f"{country}0", "XI")
    table.implement().resolve()
    assert table.count(Y, "Y0", BOMBER) == 1 and table.count(B, "B0", BOMBER) == 1
    assert table.count(R, "RV2", TANK) == 1 and table.count(R, "XI", FIGHTER) == 1


def test_tied_pieces_that_were_all_already_there_stand_off():
    table = Table()
    table.put(Y, "XI", FIGHTER)
    table.put(B, "XI", FIGHTER)
    table.implement().resolve()
    assert table.events(EV_CONFLICT)[0][5] == STANDOFF
    assert table.count(Y, "XI", FIGHTER) == 1 and table.count(B, "XI", FIGHTER) == 1


def test_two_players_combine_both_armies_in_battle():
    table = Table(2)
    table.put(Y, "XI", FIGHTER)  # seat 0: Yellow 5 + Blue 5
    table.put(B, "XI", FIGHTER)
    table.put(R, "XI", DESTROYER)  # seat 1: 10 + 3
    table.put(G, "XI", TANK)
    table.put(Y, "Y0", TANK)
    table.move(0, Y, TANK, "Y0", "XI")  # 13 to 13: the Tank bounces, then 10 against 13
    table.implement().resolve()
    assert table.count(Y, "Y0", TANK) == 1
    assert table.count(R, "RV2", FIGHTER) == 2  # Red had more of seat 1's power: it takes them


# --- Power Units -----------------------------------------------------------------------------


def test_one_power_unit_per_enemy_country_at_most_three():
    table = Table()
    table.put(Y, "B0", FIGHTER)
    table.put(Y, "B1", FIGHTER)  # the same country again: no more
    table.put(Y, "R0", FIGHTER)
    table.put(Y, "G0", FIGHTER)
    table.put(Y, "Y1", FIGHTER)  # own country
    table.put(Y, "XI", FIGHTER)  # island
    table.put(Y, "S1", DESTROYER)  # sea lane
    table.put(B, "Y0", FIGHTER)
    table.implement().resolve()
    assert table.units(Y) == 3 and table.units(B) == 1
    table = Table(max_power_units=2)
    for place in ("B0", "R0", "G0"):
        table.put(Y, place, FIGHTER)
    table.implement().resolve()
    assert table.units(Y) == 2


def test_no_power_unit_for_a_country_without_a_flag():
    table = Table()
    table.st[STANDING + B] = 0
    table.put(Y, "B0", FIGHTER)
    table.put(Y, "BHQ", FIGHTER)
    table.implement().resolve()
    assert table.units(Y) == 0


def test_two_players_earn_power_units_per_colour():
    table = Table(2)
    table.put(Y, "R0", FIGHTER)
    table.put(B, "R1", FIGHTER)
    table.put(B, "G1", FIGHTER)
    table.put(R, "Y1", FIGHTER)  # Red in Blue's ally's country
    table.put(Y, "B4", FIGHTER)  # own side's other country: not an enemy
    table.implement().resolve()
    assert [table.units(a) for a in range(4)] == [1, 2, 1, 0]
    assert [e[:2] for e in table.events(EV_POWER_UNITS)] == [(Y, 1), (B, 2), (R, 1)]


# --- Flag captures ---------------------------------------------------------------------------


def test_an_infantry_with_greater_power_captures_the_flag_and_everything():
    table = Table()
    table.put(B, "BHQ", TANK, 2)
    table.put(B, "B2", CRUISER)
    table.put(B, "RV1", FIGHTER)
    table.units(B, 4)
    table.put(Y, "B8", INFANTRY)
    table.put(Y, "B7", FIGHTER)
    table.move(Y, Y, INFANTRY, "B8", "BHQ")
    table.move(Y, Y, FIGHTER, "B7", "BHQ")
    table.move(B, B, CRUISER, "B2", "S6")
    table.implement().resolve()
    # Battle first (7 against 6): Blue's Tanks go to Yellow's Reserve; Yellow earns a Power Unit
    # for Blue (its Flag still stands then); then the Flag, Blue's pieces and Power Units.
    assert table.st[STANDING + B] == 0 and table.st[FLAGS + Y] == 2 and table.st[FLAGS + B] == 0
    assert table.count(Y, "RV0", TANK) == 2 and table.count(Y, "RV0", CRUISER) == 1
    assert table.events(EV_CAPTURE) == [(Y, B, loc("BHQ"), TANK, 2, 2, 0)]
    assert table.count(Y, "RV0", FIGHTER) == 1
    assert table.units(Y) == 1 + 4 and table.units(B) == 0
    assert table.st[SEAT_IN + B] == 0 and table.events(EV_OUT) == [(B, 0, 0, 0, 0, 0, 0)]
    flag = table.events(EV_FLAG)[0]
    assert flag[:5] == (Y, B, 7, 0, Y)
    taken = {(e[2], e[3]): e[4] for e in table.events(EV_TAKE)}
    assert taken == {(loc("S6"), CRUISER): 1, (loc("RV1"), FIGHTER): 1,
                     (loc("RV1"), POWER_UNIT): 4}  # fmt: skip


# --- the components: each colour's set ------------------------------------------------------


def test_a_colour_buys_and_exchanges_only_what_its_set_still_has():
    """Rulebook, Components: each set has 9 Infantry (three snap together into a Regiment),
    6 Tanks, 3 Heavy Tanks, ... 1 Mega-Missile. Yellow has 2 Regiments and 2 Infantry in play
    (8 of its 9 Infantry): one more Infantry, not two; three Tanks make a Heavy Tank only while
    the set has one; three Infantry always make a Regiment; a second Mega-Missile waits for the
    first to be launched."""
    table = Table()
    table.put(Y, "Y2", REGIMENT, 2)
    table.put(Y, "RV0", INFANTRY, 2)
    table.units(Y, 20)
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")
    table.order(Y, Y, UPGRADE, INFANTRY, "RV0", "RV0")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 2), (X_STOCK, 0), (EXECUTED, 0)]
    assert table.count(Y, "RV0", REGIMENT) == 1 and table.units(Y) == 18
    table.mark = table.st[TRACE_LEN]
    table.put(Y, "Y4", HEAVY_TANK, 3)
    table.put(Y, "Y4", FIGHTER, 2)
    table.put(Y, "Y3", TANK, 3)
    table.put(Y, "Y5", CRUISER, 2)
    table.order(Y, Y, UPGRADE, TANK, "Y3", "Y3")
    table.order(Y, Y, BUILD, MISSILE, "Y5", "Y5")
    table.order(Y, Y, BUILD, MISSILE, "Y4", "Y4")
    table.implement()
    assert table.results(Y) == [(X_STOCK, 0), (EXECUTED, 100), (X_STOCK, 0)]
    table = Table(component_limits=False)
    table.put(Y, "Y2", REGIMENT, 3)
    table.units(Y, 2)
    table.order(Y, Y, BUY, INFANTRY, "RV0", "RV0")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 2)]


def test_captured_pieces_change_colour_only_while_the_set_has_them():
    """The victor exchanges captured pieces "for the same pieces in their own colour": with 8 of
    its 9 Infantry in play, Yellow keeps a captured Regiment (its three Infantry) only if it had
    three to spare: it receives 1 of Blue's 2 Infantry and none of the Regiment; Power Units
    earned stop at the set's 10."""
    table = Table()
    table.put(Y, "Y2", REGIMENT, 2)
    table.put(Y, "Y2", INFANTRY, 2)
    table.put(Y, "B1", CRUISER)
    table.put(B, "B1", REGIMENT)
    table.put(B, "B1", INFANTRY, 2)
    table.units(Y, 10)
    table.implement().resolve()
    captures = {e[3]: (e[4], e[5]) for e in table.events(EV_CAPTURE)}
    assert captures == {REGIMENT: (1, 0), INFANTRY: (2, 1)}
    assert table.count(Y, "RV0", INFANTRY) == 1 and table.count(Y, "RV0", REGIMENT) == 0
    assert table.units(Y) == 10 and table.events(EV_POWER_UNITS) == []


def test_a_flag_capture_takes_over_what_the_captors_set_has_room_for():
    """Yellow (5 Tanks, 8 Power Units, and one more for standing in Blue's country) takes Blue's
    Flag: of Blue's 3 Tanks and 5 Power Units it receives 1 Tank and 1 Power Unit."""
    table = Table()
    table.put(Y, "Y2", TANK, 5)
    table.units(Y, 8)
    table.put(B, "B0", TANK, 3)
    table.units(B, 5)
    table.put(Y, "BHQ", INFANTRY)
    table.implement().resolve()
    assert table.st[STANDING + B] == 0
    taken = {e[3]: (e[4], e[5]) for e in table.events(EV_TAKE)}
    assert taken == {TANK: (3, 1), POWER_UNIT: (5, 1)}
    assert table.units(Y) == 10 and table.count(Y, "RV0", TANK) == 1


def test_no_flag_capture_without_an_infantry_or_a_regiment():
    """Hot tip: a Bomber (25) attacking two Tanks and a Destroyer (16) in a Headquarters captures
    them all, but not the Flag."""
    table = Table()
    table.put(B, "BHQ", TANK, 2)
    table.put(B, "BHQ", DESTROYER)
    table.put(Y, "B4", BOMBER)
    table.move(Y, Y, BOMBER, "B4", "BHQ")
    table.implement().resolve()
    assert table.count(Y, "RV0", TANK) == 2 and table.count(Y, "RV0", DESTROYER) == 1
    assert table.st[STANDING + B] == 1 and table.events(EV_FLAG) == []


def test_a_tie_in_headquarters_is_no_flag_capture():
    table = Table()
    table.put(B, "BHQ", INFANTRY)
    table.put(Y, "BHQ", INFANTRY)
    table.implement().resolve()
    assert table.st[STANDING + B] == 1


def test_two_players_win_by_capturing_both_flags():
    table = Table(2)
    table.put(Y, "RHQ", INFANTRY)
    table.put(R, "GHQ", TANK)
    table.implement().resolve()
    assert table.st[STANDING + R] == 0 and table.st[SEAT_IN + 1] == 1  # Green still stands
    assert table.count(Y, "RV0", TANK) == 1  # Red's Tank in Green's HQ went with Red's army


# --- Mega-Missiles ---------------------------------------------------------------------------


def test_a_mega_missile_from_pieces_worth_100_in_one_sector():
    """Rulebook: a Cruiser (50), a Heavy Tank (30) and a Regiment (20) make a Mega-Missile."""
    table = Table()
    for kind in (CRUISER, HEAVY_TANK, REGIMENT):
        table.put(Y, "Y2", kind)
    table.put(Y, "Y2", INFANTRY)
    table.put(Y, "Y1", CRUISER)
    table.order(Y, Y, BUILD, MISSILE, "Y2", "Y2")
    table.order(Y, Y, BUILD, MISSILE, "Y1", "Y1")  # 50: not enough
    table.implement()
    assert table.results(Y) == [(EXECUTED, 100), (X_MATERIAL, 0)]
    assert table.count(Y, "Y2", MISSILE) == 1 and table.count(Y, "Y2", INFANTRY) == 1
    assert sorted(e[2] for e in table.events(EV_USED)) == [REGIMENT, HEAVY_TANK, CRUISER]


def test_a_missile_made_in_reserve_from_power_units_is_launched_the_same_round():
    table = Table()
    table.units(Y, 95)
    table.put(Y, "RV0", CRUISER)  # the Cruiser and 50 of the Power Units: nothing is lost
    table.put(B, "BHQ", CRUISER)
    table.put(B, "BHQ", INFANTRY, 3)
    table.order(Y, Y, BUILD, MISSILE, "RV0", "RV0")
    table.order(Y, Y, LAUNCH, MISSILE, "RV0", "BHQ")
    table.implement()
    assert table.results(Y) == [(EXECUTED, 100), (EXECUTED, loc("BHQ"))]
    assert table.units(Y) == 45 and table.count(Y, "RV0", CRUISER) == 0
    assert table.count(B, "BHQ", CRUISER) == 0 and table.count(B, "BHQ", INFANTRY) == 0
    assert table.st[STANDING + B] == 1  # the Flag stays
    assert sorted(e[2:4] for e in table.events(EV_DESTROYED)) == [(INFANTRY, 3), (CRUISER, 1)]


@pytest.mark.parametrize(
    ("units", "pieces", "used", "left"),
    [
        # 90 Power Units and a Cruiser: the Cruiser and 50 Power Units (100), not all (140).
        (90, {CRUISER: 1}, {POWER_UNIT: 50, CRUISER: 1}, {CRUISER: 0}),
        # Enough Power Units alone: they go, the Cruiser stays.
        (100, {CRUISER: 1}, {POWER_UNIT: 100}, {CRUISER: 1}),
        # A Cruiser and two Bombers make exactly 100; the largest first (50 + 30 + 25) loses 5.
        (0, {CRUISER: 1, HEAVY_TANK: 1, BOMBER: 2}, {CRUISER: 1, BOMBER: 2}, {HEAVY_TANK: 1}),
        # Nothing makes exactly 100: 105 is the least (the largest first would take 110).
        (0, {CRUISER: 1, HEAVY_TANK: 2, BOMBER: 1}, {CRUISER: 1, HEAVY_TANK: 1, BOMBER: 1},
         {HEAVY_TANK: 1}),
        # 100 two ways (50 + 30 + 20, 50 + 25 + 25): the one with the most of the largest pieces.
        (0, {CRUISER: 1, HEAVY_TANK: 1, REGIMENT: 1, BOMBER: 2},
         {CRUISER: 1, HEAVY_TANK: 1, REGIMENT: 1}, {BOMBER: 2}),
        # 100 either way (97 Power Units and the Tank, or 96 and both Infantry): the most Power
        # Units.
        (97, {TANK: 1, INFANTRY: 2}, {POWER_UNIT: 97, TANK: 1}, {INFANTRY: 2}),
    ],
)  # fmt: skip
def test_a_mega_missile_is_made_of_the_material_that_wastes_least(units, pieces, used, left):
    """Rulebook: "any combination of existing pieces and/or Power Units ... If the power value is
    greater than 100, the player simply loses the extra power": the player's choice, modelled as
    the least loss, then the most Power Units, then the largest pieces."""
    table = Table()
    table.units(Y, units)
    for kind, n in pieces.items():
        table.put(Y, "RV0", kind, n)
    table.order(Y, Y, BUILD, MISSILE, "RV0", "RV0")
    table.implement()
    total = sum(n * (1 if kind == POWER_UNIT else POWER_VALUE[kind]) for kind, n in used.items())
    assert table.results(Y) == [(EXECUTED, total)]
    assert {e[2]: e[3] for e in table.events(EV_USED)} == used
    assert table.units(Y) == units - used.get(POWER_UNIT, 0)
    for kind, n in left.items():
        assert table.count(Y, "RV0", kind) == n


def test_a_missile_into_a_reserve_destroys_its_pieces_and_power_units():
    table = Table()
    table.put(Y, "Y4", MISSILE)
    table.put(B, "RV1", BOMBER)
    table.units(B, 7)
    table.order(Y, Y, LAUNCH, MISSILE, "Y4", "RV1")
    table.implement()
    assert table.count(B, "RV1", BOMBER) == 0 and table.units(B) == 0
    assert table.count(Y, "Y4", MISSILE) == 0


def test_opposing_missiles_into_one_sector_both_destroy_everything_there():
    table = Table()
    table.put(Y, "Y4", MISSILE)
    table.put(B, "B4", MISSILE)
    table.put(R, "XI", CRUISER)
    table.order(Y, Y, LAUNCH, MISSILE, "Y4", "XI")
    table.order(B, B, LAUNCH, MISSILE, "B4", "XI")
    table.implement()
    assert table.count(R, "XI", CRUISER) == 0
    assert table.count(Y, "Y4", MISSILE) == 0 and table.count(B, "B4", MISSILE) == 0


def test_a_missile_has_no_defensive_value_and_a_captured_one_launches_from_reserve():
    table = Table()
    table.put(B, "B0", MISSILE)
    table.put(Y, "B1", INFANTRY)
    table.move(Y, Y, INFANTRY, "B1", "B0")
    table.implement().resolve()
    assert table.count(Y, "RV0", MISSILE) == 1
    table.order(Y, Y, LAUNCH, MISSILE, "RV0", "RHQ")
    table.implement()
    assert table.results(Y)[-1] == (EXECUTED, loc("RHQ"))


# --- the 3-player mercenary ------------------------------------------------------------------


def mercenary_table():
    table = Table(3)
    table.put(MERCENARY_ARMY, "G0", TANK, 2)
    table.put(MERCENARY_ARMY, "G1", FIGHTER)
    return table


def test_any_seat_moves_the_mercenary():
    table = mercenary_table()
    table.move(1, MERCENARY_ARMY, FIGHTER, "G1", "G2")
    table.implement()
    assert table.results(1) == [(EXECUTED, 1)] and table.count(MERCENARY_ARMY, "G2", FIGHTER) == 1


def test_mercenary_moves_of_one_piece_to_different_places_cancel():
    table = mercenary_table()
    table.move(0, MERCENARY_ARMY, FIGHTER, "G1", "G2")
    table.move(1, MERCENARY_ARMY, FIGHTER, "G1", "G4")
    table.implement()
    assert table.results(0) == [(X_MERCENARY, 0)] and table.results(1) == [(X_MERCENARY, 0)]
    assert table.count(MERCENARY_ARMY, "G1", FIGHTER) == 1


def test_mercenary_moves_of_one_piece_to_the_same_place_are_carried_out():
    table = mercenary_table()
    table.move(0, MERCENARY_ARMY, FIGHTER, "G1", "G2")
    table.move(1, MERCENARY_ARMY, FIGHTER, "G1", "G2")
    table.implement()
    assert table.results(0) == [(EXECUTED, 1)] and table.results(1) == [(SHARED, 0)]
    assert table.count(MERCENARY_ARMY, "G2", FIGHTER) == 1


def test_an_illegal_shared_mercenary_move_is_cancelled_for_every_seat_that_ordered_it():
    """Seats 2 (the official) and 0 both order the mercenary's one Reserve Infantry into its
    Headquarters, where Red stands: the blockade cancels seat 2's order, and seat 0's, the same
    illegal move, is cancelled too (nothing moved there), so seat 0 pays the penalty."""
    table = Table(3, official=2)
    table.put(MERCENARY_ARMY, "RV3", INFANTRY)
    table.put(R, "GHQ", BOMBER)
    table.units(Y, 2)
    table.move(0, MERCENARY_ARMY, INFANTRY, "RV3", "GHQ")
    table.move(2, MERCENARY_ARMY, INFANTRY, "RV3", "GHQ")
    table.implement()
    assert table.results(2)[0][0] == X_BLOCKADE and table.results(0)[0][0] == X_BLOCKADE
    assert table.count(MERCENARY_ARMY, "RV3", INFANTRY) == 1
    assert table.st[STATS + N_SEAT_STATS * 0 + ST_CANCELLED] == 1
    assert table.units(Y) == 1  # the penalty


def test_two_seats_two_like_mercenary_pieces_both_move_three_seats_cancel():
    table = mercenary_table()
    table.move(0, MERCENARY_ARMY, TANK, "G0", "G2")
    table.move(1, MERCENARY_ARMY, TANK, "G0", "G4")
    table.implement()
    assert table.results(0) == [(EXECUTED, 1)] and table.results(1) == [(EXECUTED, 1)]
    table = mercenary_table()
    for seat, target in ((0, "G2"), (1, "G4"), (2, "G5")):
        table.move(seat, MERCENARY_ARMY, TANK, "G0", target)
    table.implement()
    assert [table.results(s)[0][0] for s in range(3)] == [X_MERCENARY] * 3


def test_the_mercenary_collects_power_units_and_its_flag_falls_like_any_other():
    table = mercenary_table()
    table.put(MERCENARY_ARMY, "Y3", FIGHTER)
    table.put(0, "GHQ", INFANTRY)
    table.units(MERCENARY_ARMY, 3)
    table.implement().resolve()
    assert table.st[STANDING + MERCENARY_ARMY] == 0
    assert table.units(0) == 3 + 1 + 1  # its own for Green, the mercenary's 3 + 1 for Yellow
    assert table.count(0, "RV0", TANK) == 2
    assert all(table.st[SEAT_IN + s] == 1 for s in range(3))


# --- the rulebook's opening ----------------------------------------------------------------


def test_the_opening_reaches_a_power_value_of_20_in_two_rounds():
    """Rulebook: fly two Fighters into two opponents' countries in round 1 (two Power Units);
    exchange them in Reserve for an Infantry, move it to Headquarters, and exchange the three
    Infantry for a Regiment."""
    table = Table(empty=False)
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, "opening")])
    rng = np.zeros(4, np.uint64)

    def pad():
        strategy.plan(ids[0], rows[0], Y, table.st, table.rules, table.board, table.dist, rng)
        base = PAD + Y * MAX_COMMANDS * CMD_WIDTH
        return [tuple(table.st[base + CMD_WIDTH * i : base + CMD_WIDTH * (i + 1)])
                for i in range(table.st[PAD_N + Y])]  # fmt: skip

    first = pad()
    assert [(c[0], c[1], c[2], c[3]) for c in first] == [(Y, MOVE, FIGHTER, loc("YHQ"))] * 2
    countries = {BOARD.names[c[4]][0] for c in first}
    assert len(countries) == 2 and "Y" not in countries
    table.implement().resolve()
    assert table.units(Y) == 2
    table.st[ROUND] = 1
    second = pad()
    assert second[:3] == [
        (Y, BUY, INFANTRY, loc("RV0"), loc("RV0")),
        (Y, MOVE, INFANTRY, loc("RV0"), loc("YHQ")),
        (Y, UPGRADE, INFANTRY, loc("YHQ"), loc("YHQ")),
    ]
    table.implement()
    assert [r for r, _ in table.results(Y)[2:5]] == [EXECUTED] * 3
    assert table.count(Y, "YHQ", REGIMENT) == 1 and table.count(Y, "YHQ", INFANTRY) == 0


# --- the end ---------------------------------------------------------------------------------


def test_at_the_time_limit_the_highest_power_value_wins_then_the_most_flags():
    table = Table()
    table.put(Y, "Y0", CRUISER)
    table.put(B, "B0", HEAVY_TANK)
    table.units(B, 20)
    assert winner_at_time(table.st) == -1  # 50 against 30 + 20 Power Units, one Flag each
    table.units(B, 21)
    assert winner_at_time(table.st) == B
    table.units(B, 20)
    table.st[FLAGS + Y] = 2
    assert winner_at_time(table.st) == Y
    table.st[FLAGS + B] = 2
    assert winner_at_time(table.st) == -1


def test_the_missile_builder_strikes_a_guard_and_an_infantry_walks_in_behind_it():
    """Rulebook: a Mega-Missile destroys every piece where it lands; the Flag then falls to an
    Infantry with greater power (any). The missile builder aims at the Headquarters its Infantry
    can reach and sends it in after the strike."""
    table = Table()
    table.put(Y, "RV0", MISSILE)
    table.put(Y, "B7", INFANTRY)
    table.put(B, "BHQ", DESTROYER, 2)
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, "missile")])
    strategy.plan(
        ids[0], rows[0], Y, table.st, table.rules, table.board, table.dist, np.zeros(4, np.uint64)
    )
    base = PAD + Y * MAX_COMMANDS * CMD_WIDTH
    assert [
        tuple(table.st[base + CMD_WIDTH * i : base + CMD_WIDTH * (i + 1)]) for i in range(2)
    ] == [
        (Y, LAUNCH, MISSILE, loc("RV0"), loc("BHQ")),
        (Y, MOVE, INFANTRY, loc("B7"), loc("BHQ")),
    ]
    table.implement().resolve()
    assert table.st[STANDING + B] == 0 and table.count(Y, "BHQ", INFANTRY) == 1
