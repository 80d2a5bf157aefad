"""The shipped POWER: The Game board meets every constraint the rulebook states, the move tables
follow the terrain rules, and a bad board file is one clear error naming the file and the node."""

from __future__ import annotations

import re

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_the_game import game as kernel
from simcore.games.power_the_game.components import SHIPPED_BOARD, load_board
from simcore.games.power_the_game.state import (
    AIR,
    B_COUNTRY,
    B_NUMBER,
    B_ROLE,
    B_TERRAIN,
    COUNTRIES,
    DESTROYER,
    FIGHTER,
    GROUND,
    HEADQUARTERS,
    I_HQ,
    I_NODES,
    INFANTRY,
    INFO,
    ISLAND,
    LAND,
    MAX_MOVES,
    SEA,
    SEA_LANE,
    SECTOR,
    TANK,
    UNREACHABLE,
    WATER,
)

BOARD = load_board("")
NODE = {name: i for i, name in enumerate(BOARD.names)}
N = len(BOARD.names)


def neighbours(name):
    return {BOARD.names[j] for j in range(N) if adjacent(NODE[name], j)}


def adjacent(i, j):
    row = BOARD.table[i]
    return j in row[5 : 5 + row[4]]


def role(name):
    return BOARD.table[NODE[name], B_ROLE]


def test_the_shipped_board_has_every_component():
    roles = [BOARD.table[i, B_ROLE] for i in range(N)]
    assert roles.count(SECTOR) == 36
    assert roles.count(HEADQUARTERS) == 4
    assert sorted(n for n in BOARD.names if role(n) == ISLAND) == ["EI", "NI", "SI", "WI", "XI"]
    assert sorted(n for n in BOARD.names if role(n) == SEA_LANE) == sorted(
        f"S{k}" for k in range(1, 13)
    )
    for c, country in enumerate(COUNTRIES):
        assert BOARD.names[BOARD.table[INFO, I_HQ + c]] == f"{country}HQ"
        numbers = sorted(
            BOARD.table[i, B_NUMBER]
            for i in range(N)
            if BOARD.table[i, B_ROLE] == SECTOR and BOARD.table[i, B_COUNTRY] == c
        )
        assert numbers == list(range(9))
    assert BOARD.table[INFO, I_NODES] == N == 57


def test_adjacency_is_symmetric_and_never_to_itself():
    for i in range(N):
        assert not adjacent(i, i)
        for j in range(N):
            assert adjacent(i, j) == adjacent(j, i)


def test_sector_4_is_the_only_sector_ships_cannot_reach():
    """Rulebook: "The centre Sectors of each Country (Sector 4) are the only areas that cannot be
    reached by Cruisers or Destroyers" — every other node is reachable by a ship from some
    Headquarters, sector 4 by none."""
    for name in BOARD.names:
        i = NODE[name]
        from_any_hq = min(BOARD.dist[SEA, BOARD.table[INFO, I_HQ + c], i] for c in range(4))
        if role(name) == SECTOR and name[1:] == "4":
            assert BOARD.table[i, B_TERRAIN] == LAND
            assert from_any_hq == UNREACHABLE
        else:
            assert BOARD.table[i, B_TERRAIN] != LAND
            assert from_any_hq < UNREACHABLE


def test_the_kill_squares_are_within_two_moves_of_their_headquarters():
    """Rulebook: "Sectors 4, 6, 7 and 8 in each Country are only 2 moves away from Headquarters";
    the shipped board makes them exactly the sectors an Infantry reaches from there in a round."""
    for c, country in enumerate(COUNTRIES):
        hq = BOARD.table[INFO, I_HQ + c]
        within_two = {
            BOARD.names[i]
            for i in range(N)
            if role(BOARD.names[i]) == SECTOR and BOARD.dist[GROUND, hq, i] <= MAX_MOVES[INFANTRY]
        }
        assert within_two == {f"{country}{k}" for k in (4, 6, 7, 8)}
        for k in (4, 6, 7, 8):  # and from there an Infantry reaches the Flag in one round
            assert BOARD.dist[GROUND, NODE[f"{country}{k}"], hq] <= MAX_MOVES[INFANTRY]


def test_a_ship_in_s3_reaches_six_sectors_and_two_islands():
    s3 = NODE["S3"]
    reached = [
        BOARD.names[j]
        for j in range(N)
        if j != s3 and BOARD.dist[SEA, s3, j] <= MAX_MOVES[DESTROYER]
    ]
    sectors = [n for n in reached if role(n) == SECTOR]
    islands = [n for n in reached if role(n) == ISLAND]
    assert len(sectors) == 6 and len(islands) == 2
    assert max(sum(role(n) == SECTOR for n in neighbours(lane)) for lane in
               (f"S{k}" for k in range(1, 13))) == 6  # fmt: skip


def test_the_rulebook_example_commands_are_in_reach():
    """The example Command pad: D S12 WI, T Y4 XI, T B2 B1, B Y4 B0; and a Cruiser NI to S1."""
    assert BOARD.dist[SEA, NODE["S12"], NODE["WI"]] == 1
    assert BOARD.dist[GROUND, NODE["Y4"], NODE["XI"]] <= MAX_MOVES[TANK]
    assert BOARD.dist[GROUND, NODE["B2"], NODE["B1"]] <= MAX_MOVES[TANK]
    assert BOARD.dist[AIR, NODE["Y4"], NODE["B0"]] <= MAX_MOVES[FIGHTER]
    assert BOARD.dist[SEA, NODE["NI"], NODE["S1"]] == 1


# Every movement example of the rulebook, with the pieces' ranges (the table's MAXIMUM MOVES):
# (quote, kind of piece, from, to, the fewest moves it needs on the shipped board, or None: it
# can never get there). The rulebook's other movement statements are whole-board properties,
# each tested on its own above and below: sector 4 and ships, the kill squares, S3's reach, the
# Fighters' reach of sectors 0, 3 and 5, and ground pieces stopping at islands.
MOVEMENT_EXAMPLES = [
    ("Command Rules: a Cruiser from NI to S1", DESTROYER, "NI", "S1", 1),
    ("Command Rules: ... they cannot move the same Cruiser from S1 to XI during the same round "
     "(a move it could otherwise make)", DESTROYER, "S1", "XI", 1),
    ("Command pad: D S12 WI", DESTROYER, "S12", "WI", 1),
    ("Command pad: T Y4 XI", TANK, "Y4", "XI", 2),
    ("Command pad: T B2 B1", TANK, "B2", "B1", 1),
    ("Command pad: B Y4 B0", FIGHTER, "Y4", "B0", 3),
    ("Planes can fly over the Islands without stopping, but the Island still counts as one move",
     FIGHTER, "Y0", "B0", 2),
    ("Traps to Avoid: failure to stop Tanks and Infantry at Islands", TANK, "Y0", "B0", None),
    ("Traps to Avoid: flying Planes over Sea-lanes", FIGHTER, "YHQ", "S1", None),
    ("Infantry ... are prevented from travelling across Sea-lanes", INFANTRY, "Y8", "S1", None),
    ("Implementing Commands: a Tank can only move a maximum of three Sectors (YHQ to XI is four)",
     TANK, "YHQ", "XI", 4),
    ("Strategies: from Sectors 4, 6, 7 and 8 an Infantry may capture the Flag in one round",
     INFANTRY, "Y4", "YHQ", 2),
    ("Cruisers and Destroyers ... cannot cut diagonally across Sectors containing only land",
     DESTROYER, "Y2", "Y4", None),
]  # fmt: skip
CLASS_OF = {INFANTRY: GROUND, TANK: GROUND, FIGHTER: AIR, DESTROYER: SEA}


@pytest.mark.parametrize(("quote", "kind", "origin", "target", "moves"), MOVEMENT_EXAMPLES)
def test_every_movement_example_of_the_rulebook(quote, kind, origin, target, moves):
    needed = BOARD.dist[CLASS_OF[kind], NODE[origin], NODE[target]]
    assert needed == (UNREACHABLE if moves is None else moves), quote
    if moves is not None:
        legal = "Tank can only move" not in quote
        assert (needed <= MAX_MOVES[kind]) == legal, quote


def test_the_rulebooks_opening_flies_into_two_opponents_countries():
    """Hot Tips: "Players fly 2 Fighters into 2 different opponents' countries in the first
    round": from its Headquarters a Fighter reaches sectors of at least two other countries."""
    for c, country in enumerate(COUNTRIES):
        hq = BOARD.table[INFO, I_HQ + c]
        reached = {
            BOARD.table[i, B_COUNTRY]
            for i in range(N)
            if role(BOARD.names[i]) == SECTOR and BOARD.dist[AIR, hq, i] <= MAX_MOVES[FIGHTER]
        }
        assert len(reached - {c}) >= 2, country


def test_enemy_fighters_reach_only_sectors_0_3_and_5_from_their_headquarters():
    """Rulebook: pieces in Sectors 0, 3 or 5 can pick off enemy Fighters (range 5)."""
    for c, country in enumerate(COUNTRIES):
        hq = BOARD.table[INFO, I_HQ + c]
        for other in COUNTRIES:
            if other == country:
                continue
            reached = {
                BOARD.names[i][1:]
                for i in range(N)
                if BOARD.names[i].startswith(other)
                and role(BOARD.names[i]) == SECTOR
                and BOARD.dist[AIR, hq, i] <= MAX_MOVES[FIGHTER]
            }
            assert reached and reached <= {"0", "3", "5"}


def test_ground_pieces_stop_on_islands_and_headquarters_and_cross_no_sea_lane():
    # Y0 -> XI -> B0 is two steps, but a Tank must stop on X Island: no path of 3 or fewer.
    assert BOARD.dist[GROUND, NODE["Y0"], NODE["B0"]] == UNREACHABLE
    assert BOARD.dist[GROUND, NODE["XI"], NODE["B0"]] == 1  # leaving next round is fine
    assert BOARD.dist[AIR, NODE["Y0"], NODE["B0"]] == 2  # planes fly over it
    for lane in (f"S{k}" for k in range(1, 13)):
        assert BOARD.dist[GROUND, NODE["Y8"], NODE[lane]] == UNREACHABLE
        assert BOARD.dist[AIR, NODE["Y8"], NODE[lane]] == UNREACHABLE
    # YHQ is entered, not crossed: Y8 -> YHQ -> S1 is not a ground path, and nothing leads on.
    assert BOARD.dist[GROUND, NODE["Y7"], NODE["YHQ"]] == 2
    assert all(
        BOARD.dist[GROUND, NODE[a], NODE[b]] == UNREACHABLE
        for a in ("Y0", "Y4")
        for b in ("B0", "R0", "G0")
    )


def test_ships_keep_to_water_and_coastline():
    for i in range(N):
        for j in range(N):
            if BOARD.dist[SEA, i, j] < UNREACHABLE and i != j:
                assert BOARD.table[j, B_TERRAIN] != LAND
            if BOARD.dist[GROUND, i, j] < UNREACHABLE and i != j:
                assert BOARD.table[j, B_TERRAIN] != WATER


# --- a designer's board --------------------------------------------------------------------

SHIPPED_TEXT = SHIPPED_BOARD.read_text()


def bad_board(tmp_path, text):
    path = tmp_path / "board.toml"
    path.write_text(text)
    return path


def edited(old, new):
    assert old in SHIPPED_TEXT
    return SHIPPED_TEXT.replace(old, new, 1)


BAD_BOARDS = [
    ("nodes = [", "not valid TOML"),
    ("[board]\nx = 1\n", "board: unknown key (expected one of nodes)"),
    (
        edited('Y0 = { role = "sector"', 'Y0 = { role = "hill"'),
        "nodes.Y0.role: expected one of sector, headquarters, island or sea_lane, got 'hill'",
    ),
    (
        edited(
            'Y4 = { role = "sector", terrain = "land"', 'Y4 = { role = "sector", terrain = "mud"'
        ),
        "nodes.Y4.terrain: expected one of land, coastal or water, got 'mud'",
    ),  # fmt: skip
    (
        edited(
            'S1 = { role = "sea_lane", terrain = "water"',
            'S1 = { role = "sea_lane", terrain = "coastal"',
        ),
        "node S1: field terrain: a sea lane is water",
    ),  # fmt: skip
    (
        edited(
            'Y0 = { role = "sector", terrain = "coastal", country = "Y"',
            'Y0 = { role = "sector", terrain = "coastal", country = "Q"',
        ),
        "nodes.Y0.country: expected one of Y, B, R or G, got 'Q'",
    ),  # fmt: skip
    (
        edited(
            'adjacent = ["Y1", "Y2", "Y4", "XI", "S3", "S12"]',
            'adjacent = ["Y1", "Y2", "Y4", "XI", "S3", "S13"]',
        ),
        "node Y0: field adjacent: 'S13' is unknown",
    ),  # fmt: skip
    (
        edited(
            'adjacent = ["Y1", "Y2", "Y4", "XI", "S3", "S12"]',
            'adjacent = ["Y1", "Y2", "Y4", "XI", "S3"]',
        ),
        "node S12: adjacent to Y0 but Y0 does not list S12",
    ),  # fmt: skip
    (
        edited(
            'YHQ = { role = "headquarters", terrain = "coastal", country = "Y", ',
            'YHQ = { role = "island", terrain = "coastal", ',
        ),
        "country Y: 0 headquarters nodes",
    ),  # fmt: skip
    (
        edited(
            'Y0 = { role = "sector", terrain = "coastal", country = "Y", adjacent',
            'Y0 = { role = "sector", terrain = "coastal", country = "Y", size = 3, adjacent',
        ),
        "nodes.Y0.size: unknown key",
    ),  # fmt: skip
]


@pytest.mark.parametrize(("text", "message"), BAD_BOARDS)
def test_a_bad_board_file_is_one_line_naming_the_file_and_the_node(tmp_path, text, message):
    path = bad_board(tmp_path, text)
    with pytest.raises(registry.SpecError) as error:
        load_board(str(path))
    text = str(error.value)
    assert "\n" not in text
    assert str(path) in text
    assert message in text, text


def test_a_missing_board_file_is_a_spec_error(tmp_path):
    with pytest.raises(registry.SpecError, match=re.escape(str(tmp_path / "none.toml"))):
        load_board(str(tmp_path / "none.toml"))


def test_a_designer_board_loads_through_the_rule_parameter(tmp_path):
    """A copy of the shipped board, plus a new adjacency (WI-XI), changes the move tables."""
    wi = 'WI = { role = "island", terrain = "coastal", adjacent = ['
    xi = 'XI = { role = "island", terrain = "coastal", adjacent = ['
    text = edited(wi, wi + '"XI", ').replace(xi, xi + '"WI", ')
    path = bad_board(tmp_path, text)
    game = registry.make("power-the-game")
    rules, table, dist = kernel.prepare(game.rules_with_defaults({"board": str(path)}), 4)
    assert dist[AIR, NODE["WI"], NODE["XI"]] == 1
    assert BOARD.dist[AIR, NODE["WI"], NODE["XI"]] > 1
    assert table[INFO, 1] != BOARD.table[INFO, 1]  # another fingerprint
    assert np.array_equal(table[:N, B_ROLE], BOARD.table[:N, B_ROLE])
