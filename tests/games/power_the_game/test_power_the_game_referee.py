"""The POWER: The Game kernel against an independent pure-Python referee
(tests/games/power_the_game/power_the_game_referee.py).

Every trace of the sweep (``REFEREE`` in tests/contract/games/power_the_game.py) is replayed by
the referee, which checks each command is judged as the rulebook says (carried out, or cancelled
and why) and computes every consequence itself: movements, exchanges, Mega-Missile strikes,
penalties, bounces, battles, captures, Power Units, Flag captures, eliminations, the official's
rotation and the end; the game results ``run_chunk`` writes must equal the referee's
(tests/contract/test_referees.py). The sweep covers 2, 3 and 4 players, every strategy (alone and
in mixed lineups) and rule settings that reach the corners of the rules (cheap Mega-Missiles, no
blockade, a random first official, short and long games, fewer commands and Power Units): here,
that it meets them. Then the rulebook's own examples, played on hand-built positions; the
kernel's move tables against the referee's own search; and tampered traces, which prove the
referee can fail.
"""

from collections import Counter
from functools import partial

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_the_game.state import (
    AIR,
    BOUNCE,
    BUILD,
    BUY,
    CAPTURE,
    EV_BOUNCE,
    EV_CAPTURE,
    EV_COMMAND,
    EV_CONFLICT,
    EV_DESTROYED,
    EV_EXEC,
    EV_FLAG,
    EV_OUT,
    EV_PIECES,
    EV_POWER_UNITS,
    EV_ROUND,
    EV_TAKE,
    EV_USED,
    EXECUTED,
    GROUND,
    LAUNCH,
    MOVE,
    POWER_UNIT,
    POWER_VALUE,
    RESERVE,
    SEA,
    SHARED,
    STANDOFF,
    UNREACHABLE,
    UPGRADE,
    X_BLOCKADE,
    X_MATERIAL,
    X_NO_PIECE,
    X_REACH,
    X_RESERVE,
)
from tests.contract import referees
from tests.contract.games.power_the_game import REFEREE_CONFIGS as CONFIGS
from tests.contract.referees import caught, first
from tests.games.power_the_game.power_the_game_referee import (
    CODE,
    KINDS,
    N_ARMIES,
    NONE,
    Command,
    Piece,
    Referee,
    Trace,
    describe_row,
    replay,
    tie_sides,
    upgrade_of,
)

GAME = registry.make("power-the-game")
KERNEL = GAME.kernel()


kernel_games = partial(referees.traced, "power-the-game")


def refereed(config: str) -> dict:
    """The referee's final table of every game of a set-up, by game index."""
    return dict(enumerate(referees.refereed("power-the-game", config)))


def test_no_shared_mercenary_move_after_a_cancelled_one():
    """Seats 2 and 0 ordered the mercenary's Reserve Infantry into its Headquarters; the
    blockade cancelled seat 2's order, and the kernel once judged seat 0's 'shared' (carried
    out) though nothing moved (3p random, seed 7, game 36, round 17). The referee replays it."""
    rules, players, traces, *_ = kernel_games("3p random")
    label, trace = traces[36]
    assert replay(trace, rules, players, label).rounds > 17, label


def test_sweep_reaches_the_corners_of_the_rules():
    """The sweep is only as good as the situations it meets: count them."""
    seen = Counter()
    for config in CONFIGS:
        for table in refereed(config).values():
            seen.update(table.seen)
    needed = [
        "bounce", "bounce leaves a conflict", "bounce back to a Reserve",
        "battle in a Headquarters",
        ("battle between sides", 2), ("battle between sides", 3),
        "equal armies choose the receiver", "flag captured", "mercenary flag captured",
        "seat out", "won by flags", "round cap", "round cap: a tie",
        "mercenary move shared", "mercenary moves cancel out", "missile built",
        "missile made with Power Units", "missile launched", "penalty: a Power Unit",
        "penalty: a piece broken down", "penalty: nothing to pay with",
        "reserve to headquarters", "upgrade in reserve", "upgrade on the board", "buy",
        ("move", "air"), ("move", "ground"), ("move", "sea"),
        ("power units", 1), ("power units", 2), ("power units", 3),
        ("result", "executed"), ("result", "shared"), ("result", "blockade"),
        ("result", "material"), ("result", "mercenary conflict"), ("result", "stock"),
        "set runs short",
    ]  # fmt: skip
    missing = [key for key in needed if seen[key] == 0]
    assert not missing, f"the sweep never met {missing}"


# --- the rulebook's own examples, on hand-built positions ---------------------------------


def referee_for(players: int = 4, **rules) -> Referee:
    """A referee on an empty board: no pieces, every Flag standing, seat 0 the official."""
    referee = Referee(GAME.rules_with_defaults(rules), players, "rulebook example")
    referee.table = referee.initial_table(0)
    referee.table.pieces.clear()
    return referee


def location(referee: Referee, name: str) -> int:
    """A board node by name, or a Reserve as the pad writes it ("YRV": Yellow's Reserve)."""
    if name.endswith("RV"):
        return RESERVE + "YBRG".index(name[0])
    return referee.board.node(name)


def place(referee: Referee, army: int, letter: str, where: str, came_from: str = "") -> Piece:
    """A piece of ``army`` at ``where``; with ``came_from`` it moved in this round from there."""
    t = referee.table
    piece = Piece(army, CODE[letter], location(referee, where))
    if came_from:
        piece.came_from, piece.move_order = location(referee, came_from), t.moves_this_round
        piece.fixed = True
        t.moves_this_round += 1
    t.pieces.append(piece)
    return piece


def order(referee: Referee, army: int, op: int, letter: str, origin: str, target: str):
    """(result, detail) of one command, carried out when legal (as the kernel would; a strike
    reads what it destroys from ``referee.trace``)."""
    seat = referee.table.armies[army].seat
    c = Command(
        seat, 0, army, op, CODE[letter], location(referee, origin), location(referee, target)
    )
    result, detail = referee.judge(c, Counter({army: 1}), {})
    if result == EXECUTED and op in (MOVE, UPGRADE, BUY, LAUNCH):
        referee.carry_out(c, "rulebook example", None)
    return result, detail


def test_piece_table_is_the_rulebooks():
    """Rulebook, The Power Forces table; POWER SECRET: "By exchanging three Tanks for one Heavy
    Tank a player goes from a combined power of 9 to a power value of 30"."""
    table = {k.letter: (k.moves, k.power) for k in KINDS.values()}
    assert table == {
        "I": (2, 2), "T": (3, 3), "F": (5, 5), "D": (1, 10), "R": (2, 20), "H": (3, 30),
        "B": (5, 25), "C": (1, 50), "M": (0, 0),
    }  # fmt: skip
    pairs = {KINDS[k].letter: KINDS[upgrade_of(k)].letter for k in KINDS if KINDS[k].group == 1}
    assert pairs == {"I": "R", "T": "H", "F": "B", "D": "C"}
    assert 3 * KINDS[CODE["T"]].power == 9 and KINDS[CODE["H"]].power == 30


def test_default_board_meets_the_rulebooks_constraints():
    """NOTES.md: "sector 4 is the centre of a country and the only sector ships cannot reach;
    sectors 4, 6, 7 and 8 are within 2 moves of that country's Headquarters; a ship in sea lane
    S3 can reach up to 6 sectors and 2 islands"; Strategies: enemy Fighters reach Sectors 0, 3
    or 5 from their Headquarters in the first round."""
    board = referee_for().board
    nodes = range(len(board))
    destroyer, infantry, fighter = CODE["D"], CODE["I"], CODE["F"]
    from_s3 = [
        board.nodes[t] for t in nodes if board.fewest_moves(destroyer, board.node("S3"), t) == 1
    ]
    near = [n for n in from_s3 if n.role != "sea_lane"]
    assert sum(n.role == "sector" for n in near) == 6 and sum(n.role == "island" for n in near) == 2
    for army, country in enumerate("YBRG"):
        hq = board.headquarters(army)
        never = {
            board.nodes[t].name
            for t in nodes
            if all(board.fewest_moves(destroyer, o, t) is None for o in nodes if o != t)
        }
        assert never == {f"{c}4" for c in "YBRG"}
        sectors = {k: board.node(f"{country}{k}") for k in range(9)}
        close = {k for k, node in sectors.items() if board.fewest_moves(infantry, node, hq) <= 2}
        assert close == {4, 6, 7, 8}
        raided = {
            board.nodes[t].name[1:]
            for t in nodes
            for enemy in range(N_ARMIES)
            if enemy != army
            and board.nodes[t].country == army
            and (board.fewest_moves(fighter, board.headquarters(enemy), t) or 99) <= 5
        }
        assert raided == {"0", "3", "5"}


def test_the_rulebooks_command_pad_is_legal():
    """Rulebook, Planning Commands: "D S12 WI", "T Y4 XI", "T B2 B1", "B Y4 B0" (the Bomber flies
    over X Island), "2P XRV I" (two Power Units exchanged in Reserve for an Infantry)."""
    referee = referee_for()
    for letter, where in (("D", "S12"), ("T", "Y4"), ("T", "B2"), ("B", "Y4")):
        place(referee, 0, letter, where)
    referee.table.armies[0].power_units = 2
    assert order(referee, 0, MOVE, "D", "S12", "WI") == (EXECUTED, 1)
    assert order(referee, 0, MOVE, "T", "Y4", "XI") == (EXECUTED, 2)
    assert order(referee, 0, MOVE, "T", "B2", "B1") == (EXECUTED, 1)
    assert order(referee, 0, MOVE, "B", "Y4", "B0") == (EXECUTED, 3)
    assert order(referee, 0, BUY, "I", "YRV", "YRV") == (EXECUTED, 2)
    assert referee.table.armies[0].power_units == 0


def test_movement_rules():
    """Rulebook, Movement of the Pieces and Traps to Avoid: "Failure to stop Tanks and Infantry
    at Islands", "Flying Planes over Sea-lanes", ships "cannot" reach Sector 4, a Tank moves at
    most three Sectors; Command Rules: "if a player moves a Cruiser from NI to S1, they cannot
    move the same Cruiser from S1 to XI during the same round"."""
    referee = referee_for()
    pieces = (("T", "Y0"), ("F", "Y0"), ("F", "Y5"), ("D", "Y2"), ("C", "NI"), ("I", "Y3"))
    for letter, where in pieces:
        place(referee, 0, letter, where)
    assert order(referee, 0, MOVE, "T", "Y0", "B0") == (X_REACH, NONE)  # through X Island
    assert order(referee, 0, MOVE, "F", "Y0", "B0") == (EXECUTED, 2)  # over X Island
    assert order(referee, 0, MOVE, "F", "Y5", "S1") == (X_REACH, NONE)  # a sea lane
    assert order(referee, 0, MOVE, "D", "Y2", "Y4") == (X_REACH, NONE)  # all land
    assert order(referee, 0, MOVE, "I", "Y3", "NI") == (X_REACH, 3)  # Y3-Y4-Y5-NI
    assert order(referee, 0, MOVE, "I", "Y3", "Y5") == (EXECUTED, 2)
    assert order(referee, 0, MOVE, "C", "NI", "S1") == (EXECUTED, 1)
    assert order(referee, 0, MOVE, "C", "S1", "XI") == (X_NO_PIECE, 0)


def test_exchange_and_reserve_rules():
    """Rulebook, Command Rules: a Fighter moved in and exchanged with two others for a Bomber:
    "they cannot move the Bomber until the next round"; in Reserve, "exchange two Power Units
    for an Infantry (first command), and then exchange that same Infantry along with two others
    for a Regiment (second command)", then move it to Headquarters; "Pieces in Reserve can move
    ... only to Headquarters"; "Pieces cannot move back into Reserve"; the blockade."""
    referee = referee_for()
    place(referee, 0, "F", "B2")
    place(referee, 0, "F", "B2")
    place(referee, 0, "F", "B5")
    assert order(referee, 0, MOVE, "F", "B5", "B2") == (EXECUTED, 1)
    assert order(referee, 0, UPGRADE, "F", "B2", "B2") == (EXECUTED, 1)  # one had moved in
    assert order(referee, 0, MOVE, "B", "B2", "B5") == (X_NO_PIECE, 0)
    assert order(referee, 0, UPGRADE, "T", "B2", "B2") == (X_MATERIAL, 0)
    place(referee, 0, "I", "YRV")
    place(referee, 0, "I", "YRV")
    referee.table.armies[0].power_units = 2
    assert order(referee, 0, BUY, "I", "YRV", "YRV") == (EXECUTED, 2)
    assert order(referee, 0, BUY, "I", "YRV", "YRV") == (X_MATERIAL, 0)
    assert order(referee, 0, UPGRADE, "I", "YRV", "YRV") == (EXECUTED, 0)
    assert order(referee, 0, MOVE, "R", "YRV", "Y8") == (X_RESERVE, 0)
    assert order(referee, 0, MOVE, "R", "YRV", "YHQ") == (EXECUTED, 1)
    assert order(referee, 0, MOVE, "R", "YHQ", "YRV") == (X_NO_PIECE, 0)
    place(referee, 0, "T", "Y8")
    assert order(referee, 0, MOVE, "T", "Y8", "YRV") == (X_RESERVE, 0)
    place(referee, 0, "T", "YRV")
    place(referee, 1, "B", "YHQ")
    assert order(referee, 0, MOVE, "T", "YRV", "YHQ") == (X_BLOCKADE, 0)
    free = referee_for(blockade=False)
    place(free, 0, "T", "YRV")
    place(free, 1, "B", "YHQ")
    assert order(free, 0, MOVE, "T", "YRV", "YHQ") == (EXECUTED, 1)


def test_mega_missile_material():
    """Rulebook, Mega-Missile rules: "a player could exchange one Cruiser (with a power value of
    50), one Heavy Tank (with a power value of 30) and one Regiment (with a power value of 20)
    for a Mega-Missile"; without the Regiment it is not enough."""
    referee = referee_for()
    place(referee, 0, "C", "S2")
    place(referee, 0, "H", "S2")
    assert order(referee, 0, BUILD, "M", "S2", "S2") == (X_MATERIAL, 0)
    place(referee, 0, "R", "S2")
    assert order(referee, 0, BUILD, "M", "S2", "S2") == (EXECUTED, 0)
    assert order(referee, 0, LAUNCH, "M", "S2", "BHQ") == (X_NO_PIECE, 0)


def test_mega_missile_strikes():
    """Rulebook, Mega-Missile rules: "all the forces in that Sector are destroyed"; "If the
    Sector is a Headquarters, the Flag remains standing"; "A Mega-Missile can be launched into
    an opponent's Reserve area destroying all the pieces and Power Units there"; "The
    Mega-Missile is itself destroyed"."""
    referee = referee_for()
    b = referee.board.node
    t = referee.table
    place(referee, 0, "M", "YRV")
    place(referee, 0, "M", "S2")
    place(referee, 1, "T", "BRV")
    t.armies[1].power_units = 5
    place(referee, 1, "D", "BHQ")
    place(referee, 2, "B", "BHQ")
    strikes = (
        ("YRV", "BRV", [(1, RESERVE + 1, CODE["T"], 1), (1, RESERVE + 1, POWER_UNIT, 5)]),
        ("S2", "BHQ", [(1, b("BHQ"), CODE["D"], 1), (2, b("BHQ"), CODE["B"], 1)]),
    )
    for origin, target, destroyed in strikes:
        rows = [(EV_DESTROYED, *row, 0, 0, 0) for row in destroyed]
        referee.trace = Trace(rows, "example", referee.board)
        assert order(referee, 0, LAUNCH, "M", origin, target) == (
            EXECUTED,
            location(referee, target),
        )
        assert referee.trace.index == len(rows)
    assert t.pieces == [] and t.armies[1].power_units == 0 and t.armies[1].standing


def test_kernel_move_tables_agree_with_the_referee():
    """The kernel's fewest-moves table (prepared with the rules) against the referee's own
    search, for every pair of nodes and each way of moving: it decides every move's range."""
    _, board_table, dist = KERNEL.prepare(GAME.rules_with_defaults({}), 4)
    board = referee_for().board
    for travel, letter in ((GROUND, "I"), (AIR, "F"), (SEA, "D")):
        for origin in range(len(board)):
            for target in range(len(board)):
                if origin != target:
                    mine = board.fewest_moves(CODE[letter], origin, target)
                    expected = UNREACHABLE if mine is None else mine
                    assert dist[travel, origin, target] == expected, (letter, origin, target)


def resolve(referee: Referee, rows: list[tuple]) -> None:
    """The referee resolves the round's conflicts; the kernel's rows would be ``rows``."""
    padded = [tuple(row) + (0,) * (8 - len(row)) for row in rows]
    referee.trace = Trace(padded or np.zeros((0, 8), dtype=np.int64), "example", referee.board)
    referee.resolve_conflicts()
    assert referee.trace.index == len(padded)


def test_battles_from_the_rulebook():
    """Rulebook, Power Value: "if a single Tank and a single Destroyer engage in battle in the
    same Sector at the end of a round, the Destroyer wins"; Hot Tips: "if an opponent has two
    Tanks and a Destroyer (power value 16) sitting in their Headquarters, and a player attacks
    with a Bomber (power value 25) they capture all these pieces"."""
    referee = referee_for()
    b = referee.board.node
    place(referee, 0, "T", "B3", came_from="B1")
    place(referee, 1, "D", "B3")
    place(referee, 2, "B", "BHQ", came_from="B7")
    for letter in "TTD":
        place(referee, 1, letter, "BHQ")
    resolve(
        referee,
        [
            (EV_CONFLICT, b("B3"), 3, 10, NONE, NONE, CAPTURE, 1),
            (EV_CAPTURE, 1, 0, b("B3"), CODE["T"], 1, 1),
            (EV_CONFLICT, b("BHQ"), NONE, 16, 25, NONE, CAPTURE, 2),
            (EV_CAPTURE, 2, 1, b("BHQ"), CODE["T"], 2, 2),
            (EV_CAPTURE, 2, 1, b("BHQ"), CODE["D"], 1, 1),
        ],
    )
    reserve = [p for p in referee.table.pieces if p.where == RESERVE + 2]
    assert sorted(KINDS[p.kind].letter for p in reserve) == ["D", "T", "T"]


def test_ties_bounce():
    """Rulebook, Resolving ties: tied pieces that moved in retreat ("bounce"); "Pieces that were
    already in the Sector before the current round do not retreat"; "If pieces retreat to a
    Sector that is already occupied by another player, the conflict is resolved following the
    standard rules (i.e. ruthlessly)"; "Pieces can only retreat once during a round. If a piece
    retreats to its original Sector and a new tie exists, the opponent's piece must retreat"."""
    referee = referee_for()
    b = referee.board.node
    # R4: two Fighters move in and tie: both bounce; Blue's lands on Red's Tank in R2: a battle
    place(referee, 0, "F", "R4", came_from="R1")
    place(referee, 1, "F", "R4", came_from="R2")
    place(referee, 2, "T", "R2", came_from="RHQ")
    # G0: Green's Fighter was there already: only Red's bounces
    place(referee, 3, "F", "G0")
    place(referee, 2, "F", "G0", came_from="G2")
    # S6: Blue's Destroyer bounces back to S5, onto Green's: a tie nobody can retreat from
    place(referee, 0, "D", "S6")
    place(referee, 1, "D", "S6", came_from="S5")
    place(referee, 3, "D", "S5")
    # S9: two Destroyers tie and bounce
    place(referee, 0, "D", "S9", came_from="S6")
    place(referee, 1, "D", "S9", came_from="S8")
    resolve(
        referee,
        [
            (EV_CONFLICT, b("R4"), 5, 5, NONE, NONE, BOUNCE, 0b11),
            (EV_BOUNCE, 0, CODE["F"], b("R4"), b("R1")),
            (EV_BOUNCE, 1, CODE["F"], b("R4"), b("R2")),
            (EV_CONFLICT, b("G0"), NONE, NONE, 5, 5, BOUNCE, 0b1100),
            (EV_BOUNCE, 2, CODE["F"], b("G0"), b("G2")),
            (EV_CONFLICT, b("S6"), 10, 10, NONE, NONE, BOUNCE, 0b11),
            (EV_BOUNCE, 1, CODE["D"], b("S6"), b("S5")),
            (EV_CONFLICT, b("S9"), 10, 10, NONE, NONE, BOUNCE, 0b11),
            (EV_BOUNCE, 0, CODE["D"], b("S9"), b("S6")),
            (EV_BOUNCE, 1, CODE["D"], b("S9"), b("S8")),
            (EV_CONFLICT, b("R2"), NONE, 5, 3, NONE, CAPTURE, 1),
            (EV_CAPTURE, 1, 2, b("R2"), CODE["T"], 1, 1),
            (EV_CONFLICT, b("S5"), NONE, 10, NONE, 10, STANDOFF, 0b1010),
        ],
    )
    again = referee_for()
    place(again, 1, "D", "S9", came_from="S6")  # Blue's Destroyer left S6, ties in S9 and
    place(again, 2, "D", "S9", came_from="S8")  # comes back to S6, where Yellow's moved in:
    place(again, 0, "D", "S6", came_from="S5")  # a new tie, so Yellow's retreats
    resolve(
        again,
        [
            (EV_CONFLICT, b("S9"), NONE, 10, 10, NONE, BOUNCE, 0b110),
            (EV_BOUNCE, 1, CODE["D"], b("S9"), b("S6")),
            (EV_BOUNCE, 2, CODE["D"], b("S9"), b("S8")),
            (EV_CONFLICT, b("S6"), 10, 10, NONE, NONE, BOUNCE, 0b11),
            (EV_BOUNCE, 0, CODE["D"], b("S6"), b("S5")),
        ],
    )


def test_three_and_four_sided_ties():
    """Rulebook: "If there are three players involved in a conflict and the two with the highest
    power values are tied, these two players retreat and the third player with the lowest power
    value remains unaffected in the Sector. If the two players with the lowest power values are
    tied, the third player with the highest power value captures all pieces from these tied
    players." "If there are four players in a Sector and the two players with the highest power
    values are tied, they retreat and the remaining two battle it out. If they are tied, they
    also retreat." """
    assert tie_sides({0: 10, 1: 10, 2: 3}) == [0, 1]
    assert tie_sides({0: 25, 1: 5, 2: 5}) == []
    referee = referee_for()
    b = referee.board.node
    place(referee, 0, "B", "G4", came_from="G0")
    place(referee, 1, "F", "G4", came_from="G2")
    place(referee, 2, "F", "G4", came_from="G6")
    place(referee, 0, "B", "EI", came_from="B5")
    place(referee, 1, "B", "EI", came_from="R3")
    place(referee, 2, "F", "EI")
    place(referee, 0, "B", "XI", came_from="Y0")
    place(referee, 1, "B", "XI", came_from="B0")
    place(referee, 2, "F", "XI", came_from="R0")
    place(referee, 3, "F", "XI", came_from="G0")
    resolve(
        referee,
        [
            (EV_CONFLICT, b("EI"), 25, 25, 5, NONE, BOUNCE, 0b11),
            (EV_BOUNCE, 0, CODE["B"], b("EI"), b("B5")),
            (EV_BOUNCE, 1, CODE["B"], b("EI"), b("R3")),
            (EV_CONFLICT, b("XI"), 25, 25, 5, 5, BOUNCE, 0b11),
            (EV_BOUNCE, 0, CODE["B"], b("XI"), b("Y0")),
            (EV_BOUNCE, 1, CODE["B"], b("XI"), b("B0")),
            (EV_CONFLICT, b("XI"), NONE, NONE, 5, 5, BOUNCE, 0b1100),
            (EV_BOUNCE, 2, CODE["F"], b("XI"), b("R0")),
            (EV_BOUNCE, 3, CODE["F"], b("XI"), b("G0")),
            (EV_CONFLICT, b("G4"), 25, 5, 5, NONE, CAPTURE, 0),
            (EV_CAPTURE, 0, 1, b("G4"), CODE["F"], 1, 1),
            (EV_CAPTURE, 0, 2, b("G4"), CODE["F"], 1, 1),
        ],
    )
    assert [p.army for p in referee.table.pieces if p.where == b("EI")] == [2]


def test_standoff_of_pieces_that_cannot_retreat():
    referee = referee_for()
    b = referee.board.node
    place(referee, 0, "T", "EI")
    place(referee, 1, "T", "EI")
    resolve(referee, [(EV_CONFLICT, b("EI"), 3, 3, NONE, NONE, STANDOFF, 0b11)])


def test_power_units_and_flags():
    """Rulebook, Hot Tips: "Players fly 2 Fighters into 2 different opponents' countries in the
    first round. This will give them 2 Power Units"; Collecting Power Units: none for "their own
    Country", "an Island or a Sea lane", "a Country without a Flag", and three at most; Flag
    Captures: "Players cannot capture the Flag unless they have an Infantry or Regiment amongst
    their attacking forces"; the captor takes the loser's forces and Power Units."""
    referee = referee_for()
    b = referee.board.node
    t = referee.table
    place(referee, 0, "F", "B0")
    place(referee, 0, "F", "R3")
    place(referee, 0, "F", "Y2")  # its own country
    place(referee, 0, "F", "XI")  # an island
    place(referee, 1, "T", "S1")  # a sea lane
    place(referee, 2, "F", "Y5")
    place(referee, 2, "F", "B5")
    place(referee, 2, "F", "G5")
    place(referee, 2, "I", "YHQ")  # a Headquarters counts as its country (the kernel's reading)
    place(referee, 3, "T", "BHQ")  # a Tank alone cannot capture a Flag
    t.armies[0].power_units = 4
    t.armies[3].standing = False  # Green's Flag has fallen: Green pays nobody
    place(referee, 1, "F", "G3")
    referee.trace = Trace(
        [
            (EV_POWER_UNITS, 0, 2, 0b110, 0, 0, 0, 0),
            (EV_POWER_UNITS, 2, 2, 0b11, 0, 0, 0, 0),
            (EV_FLAG, 2, 0, 2, 0, 2, 0, 0),
            # Red has 3 of its set's 6 Fighters in play: it receives 3 of Yellow's 4, place by
            # place in location order (Y2, B0, R3, XI).
            (EV_TAKE, 2, 0, b("B0"), CODE["F"], 1, 1, 0),
            (EV_TAKE, 2, 0, b("R3"), CODE["F"], 1, 1, 0),
            (EV_TAKE, 2, 0, b("Y2"), CODE["F"], 1, 1, 0),
            (EV_TAKE, 2, 0, b("XI"), CODE["F"], 1, 0, 0),
            (EV_TAKE, 2, 0, RESERVE, POWER_UNIT, 6, 6, 0),
            (EV_OUT, 0, 0, 0, 0, 0, 0, 0),
        ],
        "example",
        referee.board,
    )
    referee.collect_power_units()
    referee.flag_captures()
    assert referee.trace.index == len(referee.trace.rows)
    assert t.armies[2].power_units == 8 and t.armies[2].flags == 2
    assert not t.seats_in[0] and t.seats_in[1]


def test_penalty_breakdown():
    """Rulebook, Command Rules: the lowest piece is exchanged "for the equivalent Power Units"
    and one is forfeited; a Regiment, Bomber, Heavy Tank or Cruiser gives "two smaller pieces
    plus the Power Units for the third piece"."""
    breakdown = referee_for().rules.penalty_breakdown
    assert breakdown(CODE["I"]) == (1, NONE, 0)
    assert breakdown(CODE["D"]) == (9, NONE, 0)
    assert breakdown(CODE["R"]) == (1, CODE["I"], 2)
    assert breakdown(CODE["C"]) == (9, CODE["D"], 2)


# --- the referee can fail -------------------------------------------------------------------

FLAG_CONFIG = "4p missile, balanced, random, blitz"  # Flags fall, seats go out


def a_game(config: str, *events: int) -> tuple:
    """(rules, players, trace) of a game of ``config`` with every event of ``events``."""
    rules, players, traces, *_ = kernel_games(config)
    for _, trace in traces:
        if set(events) <= set(trace[:, 0].tolist()):
            return rules, players, trace
    raise AssertionError(f"no game of {config} has {events}")


def assert_caught(trace, rules, players, index) -> str:
    return caught(lambda: replay(trace, rules, players, "tampered"), index)


def exec_row(trace, i_command: int) -> int:
    """The EV_EXEC row of the command written at row ``i_command``."""
    seat, index = trace[i_command, 1], trace[i_command, 2]
    return first(trace[i_command:], EV_EXEC, lambda r: r[1] == seat and r[2] == index) + i_command


def test_a_piece_moved_out_of_range_is_caught():
    """A Tank's executed move pointed at a node four or more moves away (or unreachable)."""
    rules, players, trace = a_game("4p random")
    board = referee_for().board
    tank_moves = (
        i
        for i, row in enumerate(trace)
        if row[0] == EV_COMMAND and row[4] == MOVE and row[5] == CODE["T"] and row[6] < RESERVE
    )
    i = next(i for i in tank_moves if trace[exec_row(trace, i), 3] == EXECUTED)
    origin = trace[i, 6]
    far = next(t for t in range(len(board)) if (board.fewest_moves(CODE["T"], origin, t) or 99) > 3)
    tampered = trace.copy()
    tampered[i, 7] = far
    assert "result=out of reach" in assert_caught(tampered, rules, players, exec_row(trace, i))


def test_a_cancelled_command_presented_as_carried_out_is_caught():
    rules, players, trace = a_game("3p random")
    j = first(trace, EV_EXEC, lambda row: row[3] not in (EXECUTED, SHARED))
    tampered = trace.copy()
    tampered[j, 3] = EXECUTED
    assert "exec(" in assert_caught(tampered, rules, players, j)


def test_a_wrong_conflict_outcome_is_caught():
    rules, players, trace = a_game("4p random", EV_CAPTURE, EV_BOUNCE)
    i = first(trace, EV_CONFLICT, lambda row: row[6] == CAPTURE)
    winner = trace[i, 7]
    loser = next(s for s in range(4) if s != winner and trace[i, 2 + s] >= 0)
    tampered = trace.copy()
    tampered[i, 7] = loser
    assert "conflict(" in assert_caught(tampered, rules, players, i)
    tampered = trace.copy()
    tampered[i, 2 + winner] += 1  # a power total
    assert "conflict(" in assert_caught(tampered, rules, players, i)
    tampered = trace.copy()
    tampered[i, 6] = STANDOFF
    assert_caught(tampered, rules, players, i)
    j = i + 1  # the first captured pieces
    tampered = trace.copy()
    tampered[j, 5] += 1
    assert "capture(" in assert_caught(tampered, rules, players, j)
    k = first(trace, EV_BOUNCE)
    tampered = trace.copy()
    tampered[k, 4] = trace[k, 3]  # bounced back onto the tied sector
    assert "bounce(" in assert_caught(tampered, rules, players, k)
    # a bounce left out (its conflict row and its pieces): the tie must be resolved
    last = k
    while trace[last + 1, 0] == EV_BOUNCE:
        last += 1
    tampered = np.delete(trace, range(k - 1, last + 1), axis=0)
    assert "outcome=bounce" in assert_caught(tampered, rules, players, k - 1)


def test_tampered_power_units_flags_and_end_are_caught():
    rules, players, trace = a_game(FLAG_CONFIG, EV_FLAG, EV_OUT)
    i = first(trace, EV_POWER_UNITS)
    tampered = trace.copy()
    tampered[i, 2] += 1
    assert "power_units(" in assert_caught(tampered, rules, players, i)
    i = first(trace, EV_FLAG)
    tampered = trace.copy()
    tampered[i, 3] += 1  # the attacking power
    assert "flag(" in assert_caught(tampered, rules, players, i)
    assert_caught(np.delete(trace, i, axis=0), rules, players, i)  # a Flag capture left out
    i = first(trace, EV_TAKE)
    tampered = trace.copy()
    tampered[i, 5] += 1
    assert "take(" in assert_caught(tampered, rules, players, i)
    end = len(trace) - 1
    tampered = trace.copy()
    tampered[end, 1] = (trace[end, 1] + 1) % players
    assert "end(" in assert_caught(tampered, rules, players, end)
    with pytest.raises(AssertionError, match=rf"trace row {end}: .*end of trace"):
        replay(trace[:-1], rules, players, "cut")
    with pytest.raises(AssertionError, match=rf"trace row {end + 1}: expected nothing after"):
        replay(np.vstack([trace, trace[-1:]]), rules, players, "extra")


def test_tampered_snapshot_and_round_are_caught():
    rules, players, trace = a_game("2p random")
    i = first(trace, EV_PIECES, lambda row: row[1] > 0)
    tampered = trace.copy()
    tampered[i, 4] += 1
    assert "pieces(" in assert_caught(tampered, rules, players, i)
    i = first(trace, EV_ROUND, lambda row: row[1] == 1)
    tampered = trace.copy()
    tampered[i, 2] = (trace[i, 2] + 1) % players  # the official did not rotate
    assert "round(" in assert_caught(tampered, rules, players, i)


def test_a_missile_made_of_too_little_is_caught():
    rules, players, trace = a_game("2p missile vs blitz, cheap missiles", EV_USED)
    i = first(trace, EV_USED)
    tampered = trace.copy()
    tampered[i, 4] = 0  # nothing used
    assert "material" in assert_caught(tampered, rules, players, i)


def test_a_missile_that_wastes_power_is_caught():
    """Enough material, but more than the least-waste choice: one more piece (or Power Unit) of a
    kind the maker had to spare, with the command's power used to match."""
    rules, players, traces, *_ = kernel_games("3p balanced, missile, blitz")
    for _, trace in traces:
        for i in np.flatnonzero(trace[:, 0] == EV_USED):
            tampered = trace.copy()
            tampered[i, 4] += 1
            exec_at = max(np.flatnonzero(trace[:i, 0] == EV_EXEC))
            tampered[exec_at, 4] += 1 if trace[i, 3] == POWER_UNIT else POWER_VALUE[trace[i, 3]]
            try:
                replay(tampered, rules, players, "tampered")
            except AssertionError as caught:
                if "least-waste" in str(caught):
                    assert f"trace row {exec_at}: expected" in str(caught)
                    return
    raise AssertionError("no missile with material to spare")


def test_too_many_commands_are_caught():
    """A sixth command on a full 4-player pad, carried out: "up to five commands"."""
    rules, players, traces, *_ = kernel_games("4p random")
    trace = next(t for _, t in traces if any(r[0] == EV_COMMAND and r[2] == 4 for r in t))
    i = first(trace, EV_COMMAND, lambda row: row[2] == 4)
    sixth = trace[i].copy()
    sixth[2] = 5
    tampered = np.insert(trace, i + 1, sixth, axis=0)
    seat = sixth[1]
    j = first(tampered[i:], EV_EXEC, lambda row: row[1] == seat and row[2] == 4) + i + 1
    tampered = np.insert(tampered, j, [EV_EXEC, seat, 5, EXECUTED, 1, 0, 0, 0], axis=0)
    assert "result=too many" in assert_caught(tampered, rules, players, j)


def test_describe_row_is_readable():
    board = referee_for().board
    row = [EV_COMMAND, 1, 0, 1, MOVE, CODE["T"], board.node("Y4"), board.node("XI")]
    assert describe_row(row, board) == (
        "command(seat=1, index=0, army=1, op=move, kind=T, from=Y4, to=XI)"
    )
    assert describe_row([EV_EXEC, 0, 2, X_REACH, 4, 0, 0, 0]) == (
        "exec(seat=0, index=2, result=out of reach, detail=4)"
    )
