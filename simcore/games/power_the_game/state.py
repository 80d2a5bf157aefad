"""POWER: The Game: codes, board-table and state layouts, the trace format, read-only queries.

Kept apart from the kernel so that ``strategies/power_the_game/`` can use them while the kernel
imports the strategies (no import cycle). docs/games/power-the-game.md explains every rule choice.

Board
-----
The board is data (``simcore/data/power_the_game_board.toml``, the rule parameter ``board``).
Its nodes are numbered 0 .. n_nodes-1 in file order (the shipped file: for each country in
COUNTRY order, its sectors 0-8 then its Headquarters, i.e. country c's sector k is node 10c + k
and its Headquarters node 10c + 9; then the islands NI, EI, SI, WI, XI = nodes 40-44; then sea
lanes S1-S12 = nodes 45-56). A **location** is a board node or a Reserve area: Reserve of army
``a`` is location RESERVE + a (RESERVE = MAX_NODES, whatever the board's size).

``board`` is ``int64[MAX_NODES + 1, BOARD_WIDTH]``: one row per node (B_* columns) and a last row
INFO with facts about the whole board (I_* columns); the columns from FILE_WIDTH on are derived
(reach and sector bitmasks over the nodes, which is why a board has at most 64 nodes).
``dist`` is ``int64[N_CLASSES, MAX_NODES, MAX_NODES]``: the fewest moves a piece of that movement
class needs from one node to another under the terrain rules (UNREACHABLE if it cannot get there
at all); a move is legal when that is at most the piece's range.

Armies, seats and sides
-----------------------
There are always four armies, army ``a`` owning country ``a`` (its Headquarters, Flag and Reserve).
Seats are the players, clockwise. 4 players: seat s commands army s. 3 players: seat s commands
army s and army 3 is the mercenary, commanded by any seat. 2 players: seat 0 commands armies 0 and
1, seat 1 armies 2 and 3 (adjacent countries). A **side** is who fights together: the seat for a
player's armies, side 3 for the mercenary; side of army a is SIDE_OF[players][a].

Pieces
------
Kinds 0-8: INFANTRY, TANK, FIGHTER, DESTROYER (Group I), REGIMENT, HEAVY_TANK, BOMBER, CRUISER
(Group II: Group I kind k upgrades to k + 4), MISSILE. POWER_UNIT (9) only appears in trace rows.
The state counts pieces per (army, location, kind): ``st[CNT + piece_index(army, loc, kind)]``;
``st[FIXED + same]`` counts those that cannot move again this round (moved this round, or made by
an exchange on the board). This round's moves are a log (LOG_*) so that a tie can bounce the
pieces that moved in back to where they came from.

Trace format
------------
One int64 row [event, a, b, c, d, e, f, g] per event (unused fields 0); locations are as above.
The order of a game:

* EV_SETUP, then EV_ARMY for armies 0-3.
* Per round: EV_ROUND; the snapshot: EV_PIECES for every (army, location, kind) with pieces, army
  by army, locations and kinds in increasing order, then EV_ARMY_STATE for armies 0-3; then every
  seat's written commands, EV_COMMAND, seats in increasing order, each pad top to bottom (written
  from the same state before any is executed); then execution: seats from the official clockwise
  (eliminated seats skipped), each pad top to bottom, one EV_EXEC per command, followed for a
  missile made by EV_USED rows (what it was made of) and for a missile launched by EV_DESTROYED
  rows (everything the strike removed); then EV_PENALTY for each seat (same order) none of whose
  commands was carried out; then conflicts: first ties (each bounce is an EV_CONFLICT with outcome
  BOUNCE followed by one EV_BOUNCE per retreating piece; sectors are scanned in node order and the
  scan repeats until no tie can bounce), then battles in node order (EV_CONFLICT with outcome
  CAPTURE followed by EV_CAPTURE rows, kind by kind in CAPTURE_ORDER (Group II first, largest
  first) and army by army, or STANDOFF when the highest totals tie and none of those pieces moved
  in); then EV_POWER_UNITS for each army that gains any; then Flag captures, checked country by
  country from the official's first army on (army order, wrapping): EV_FLAG, EV_TAKE rows (kind
  by kind in CAPTURE_ORDER, location by location, then the Power Units), and EV_OUT if that seat
  has no Flag left (with the rule units_before_flags off, the Flag captures come before the
  Power Units; with the rule bounces off there are no bounces, and a tie stands off).
* At the end: the same snapshot as a round start (EV_PIECES, EV_ARMY_STATE), EV_SCORE per seat,
  EV_END.

When several like pieces are at one place and only some are removed (exchanges, penalties), those
that moved in this round go first, the most recent move first; a bounce moves back the pieces of
the log entries that are still live, in log order. The rule conventions behind each step (what a
missile is made of, the smallest piece of a penalty, mercenary move conflicts, who receives a
2-player capture, the order of Flag captures) are in docs/games/power-the-game.md.
"""

import numpy as np
from numba import njit

from simcore.kernel.intrinsics import lowest_bit

# --- sizes ---------------------------------------------------------------------------------
MAX_NODES = 64
RESERVE = MAX_NODES  # location of army a's Reserve: RESERVE + a
N_ARMIES = 4
MAX_LOC = MAX_NODES + N_ARMIES
MAX_DEGREE = 16
MAX_PLAYERS = 4
MAX_COMMANDS = 10  # a pad: commands_per_army x armies a seat commands (10 in the 2-player game)
MAX_LOG = 48  # log entries in one round: one per command at most (20 commands a round)

COUNTRIES = ("Y", "B", "R", "G")  # board-file country keys, clockwise; army a owns COUNTRIES[a]
COUNTRY_NAMES = ("Yellow", "Blue", "Red", "Green")

# --- pieces --------------------------------------------------------------------------------
N_KINDS = 9
INFANTRY, TANK, FIGHTER, DESTROYER, REGIMENT, HEAVY_TANK, BOMBER, CRUISER, MISSILE = range(9)
POWER_UNIT = 9  # a pseudo-kind in trace rows (Power Units used, destroyed or taken)
KIND_NAMES = (
    "Infantry", "Tank", "Fighter", "Destroyer", "Regiment", "Heavy Tank", "Bomber", "Cruiser",
    "Mega-Missile", "Power Unit",
)  # fmt: skip
KIND_CODES = ("I", "T", "F", "D", "R", "H", "B", "C", "M", "P")  # the Command pad's abbreviations
GROUP_II_OFFSET = 4  # Group I kind k (0-3) exchanges, three alike, for kind k + 4
# The rulebook's table (The Power Forces): the defaults of the rule parameters power_<piece>,
# price_<piece> (the cost in Power Units "is equal to its power value") and moves_<piece>; the
# kernel reads the rules (``power_value``, ``price``, ``max_moves``), never these.
POWER_VALUE = np.array([2, 3, 5, 10, 20, 30, 25, 50, 0], dtype=np.int64)
MAX_MOVES = np.array([2, 3, 5, 1, 2, 3, 5, 1, 0], dtype=np.int64)
# The kinds that have a power value, largest first at the rulebook's values (the order a
# Mega-Missile's material is chosen in, captured pieces change colour in, and the planners'
# "largest first"; a fixed order whatever the rule parameters power_<piece> say).
BY_VALUE = np.array([CRUISER, HEAVY_TANK, BOMBER, REGIMENT, DESTROYER, FIGHTER, TANK, INFANTRY])
MAX_MISSILE_COST = 1000  # the rule parameter missile_cost's upper bound
MAX_PIECE_POWER = 100  # the rule parameters power_<piece>'s upper bound
# Rulebook, Components: each colour's set has 9 Infantry, 6 Tanks, 3 Heavy Tanks, 6 Fighters,
# 3 Bombers, 6 Destroyers, 3 Cruisers, 1 Mega-Missile and 10 Power Units ("Three Infantry pieces
# snap together to create ... a Regiment": a Regiment is three of the 9 Infantry). With the rule
# component_limits an army never has more of a kind in play than its set holds (a Regiment is
# as many of the set's Infantry as the rule upgrade_pieces exchanges: three).
SET_SIZE = np.array([9, 6, 6, 6, 0, 3, 3, 3, 1], dtype=np.int64)  # Regiments: Infantry pieces
SET_POWER_UNITS = 10
NO_LIMIT = 1 << 40
# Movement classes: ground (Infantry, Regiments, Tanks, Heavy Tanks), air (Fighters, Bombers),
# sea (Destroyers, Cruisers); the Mega-Missile does not move, it is launched.
GROUND, AIR, SEA = range(3)
N_CLASSES = 3
NO_CLASS = -1
MOVE_CLASS = np.array([GROUND, GROUND, AIR, SEA, GROUND, GROUND, AIR, SEA, NO_CLASS], np.int64)
UNREACHABLE = 1_000

# --- board table ---------------------------------------------------------------------------
LAND, COASTAL, WATER = range(3)
TERRAINS = ("land", "coastal", "water")
SECTOR, HEADQUARTERS, ISLAND, SEA_LANE = range(4)
ROLES = ("sector", "headquarters", "island", "sea_lane")
B_TERRAIN = 0
B_ROLE = 1
B_COUNTRY = 2  # 0-3 for a country's sectors and Headquarters, -1 otherwise
B_NUMBER = 3  # sector number 0-8, sea-lane number (S3 -> 3), else -1
B_DEGREE = 4
B_ADJ = 5  # + i: the i-th neighbour
FILE_WIDTH = B_ADJ + MAX_DEGREE  # the columns above hold the board file (I_FINGERPRINT hashes them)
# Derived columns, filled from the move tables when the board is loaded, so that the planners
# test and enumerate a piece's reach with a few bit operations instead of scanning every node:
B_REACH = FILE_WIDTH  # + kind (not MISSILE): bitmask of the nodes a piece of that kind can get
#                       to from this node in one round (bit n = node n; the node itself included)
B_REACHED_BY = B_REACH + MISSILE  # + kind: bitmask of the nodes from which such a piece can get
#                                   here in one round
B_AIR_RING = B_REACHED_BY + MISSILE  # + d (0 to MAX_NODES - 1): bitmask of the nodes d planes'
#                                      moves from this node, so that the planners can look for a
#                                      node near a Headquarters nearest first
BOARD_WIDTH = B_AIR_RING + MAX_NODES
INFO = MAX_NODES  # the board's last row
I_NODES = 0
I_FINGERPRINT = 1  # a hash of the board file, repeated in EV_SETUP
I_HQ = 2  # + country: its Headquarters' node
I_SECTORS = FILE_WIDTH  # + country (derived): bitmask of its sectors' nodes

# --- rules: positions in the encoded rules vector (order of game.RULES) --------------------
R_BOARD = 0  # a path: slot 0
R_MAX_ROUNDS = 1
R_COMMANDS = 2
R_MAX_POWER_UNITS = 3
R_MISSILE_COST = 4
R_BLOCKADE = 5
R_FIRST_OFFICIAL = 6
R_COMPONENT_LIMITS = 7
R_MEGA_MISSILES = 8
R_POWER = 9  # + kind (not MISSILE): its power value
R_PRICE = R_POWER + MISSILE  # + Group I kind: its cost in Power Units
R_UPGRADE_PIECES = R_PRICE + GROUP_II_OFFSET
R_UNITS_PER_COUNTRY = R_UPGRADE_PIECES + 1
R_IDLE_PENALTY = R_UNITS_PER_COUNTRY + 1
R_FLAG_NEEDS_INFANTRY = R_IDLE_PENALTY + 1
R_INITIAL_PIECES = R_FLAG_NEEDS_INFANTRY + 1
R_MOVES = R_INITIAL_PIECES + 1  # + kind % GROUP_II_OFFSET: the most moves of a pair of kinds
R_BOUNCES = R_MOVES + GROUP_II_OFFSET
R_UNITS_BEFORE_FLAGS = R_BOUNCES + 1
N_RULES = R_UNITS_BEFORE_FLAGS + 1
FIRST_OFFICIAL_RANDOM = 1  # rule first_official = "random" (choice index; "seat0" is 0)

# --- commands ------------------------------------------------------------------------------
# A command is (army, op, kind, from, to): MOVE a piece of ``kind`` from ``from`` to ``to``;
# UPGRADE three ``kind`` (Group I) at ``from`` into one Group II piece; BUY one ``kind`` (Group I)
# in the army's Reserve with Power Units; BUILD a Mega-Missile at ``from`` (kind, to unused);
# LAUNCH the Mega-Missile at ``from`` to location ``to``.
MOVE, UPGRADE, BUY, BUILD, LAUNCH = range(5)
OPS = ("move", "upgrade", "buy", "build", "launch")
CMD_ARMY, CMD_OP, CMD_KIND, CMD_FROM, CMD_TO = range(5)
CMD_WIDTH = 5

# Results of a command (EV_EXEC c): carried out, or cancelled and why.
(
    EXECUTED,  # done
    SHARED,  # a mercenary move other seats also ordered, to the same place: carried out by a
    # piece an earlier such order moved there
    X_NOT_YOURS,  # the seat may not command this army (not its own, not the mercenary, or out)
    X_TOO_MANY,  # beyond the commands an army gets per round
    X_MALFORMED,  # unknown op or kind, a Mega-Missile moved, a move to where it is
    X_NO_PIECE,  # no such piece there that may still move this round (moved, or just made)
    X_REACH,  # beyond the piece's range or terrain (detail: the fewest moves, -1 never)
    X_RESERVE,  # from a Reserve anywhere but the army's own Headquarters, or into a Reserve
    X_BLOCKADE,  # from the Reserve into a Headquarters where an opponent stands
    X_MATERIAL,  # exchange: not three alike / not enough Power Units / under the missile cost
    X_MERCENARY,  # mercenary move cancelled: several seats moved the same piece(s) differently
    X_STOCK,  # buy, exchange or missile: the army's set has no such piece left (component_limits)
    X_BANNED,  # a Mega-Missile made or launched where the rule mega_missiles is off
) = range(13)
RESULTS = (
    "executed", "shared", "not yours", "too many", "malformed", "no piece", "out of reach",
    "reserve", "blockade", "material", "mercenary conflict", "stock", "banned",
)  # fmt: skip

# Conflict outcomes (EV_CONFLICT f).
BOUNCE, CAPTURE, STANDOFF = range(3)
OUTCOMES = ("bounce", "capture", "standoff")

# End of a game (game column ``end``).
END_FLAGS, END_TIME_LIMIT = range(2)
END_REASONS = ("flags", "time limit")

# Per-seat statistics, in the order of game.SEAT_COLUMNS.
(
    ST_FLAGS_CAPTURED,
    ST_PIECES_CAPTURED,
    ST_PIECES_LOST,
    ST_MISSILES_LAUNCHED,
    ST_COMMANDS,
    ST_CANCELLED,
    ST_PENALTIES,
    ST_POWER_UNITS,
    ST_FINAL_POWER,
    ST_FLAGS_HELD,
    ST_ROUND_OUT,
) = range(11)
N_SEAT_STATS = 11

# --- trace events --------------------------------------------------------------------------
TRACE_WIDTH = 8
EV_SETUP = 0  # players, nodes, board fingerprint, first official seat, max rounds,
#               commands per army, max Power Units per round
EV_ARMY = 1  # army, commanding seat (-1: the mercenary), side, its Headquarters node
EV_ROUND = 2  # round (0-based), official seat, seats still in
EV_PIECES = 3  # army, location, kind, count (snapshot)
EV_ARMY_STATE = 4  # army, Power Units, Flag standing (0/1), Flags held, power value (pieces
#                    everywhere plus Power Units), pieces
EV_COMMAND = 5  # seat, index on its pad, army, op, kind, from, to
EV_EXEC = 6  # seat, index on its pad, result, detail (move: moves used; X_REACH: fewest moves or
#              -1; upgrade: consumed pieces that had moved in; buy: Power Units paid; build: power
#              value used; launch: target location)
EV_USED = 7  # army, location, kind or POWER_UNIT, count: what a Mega-Missile was made of
EV_DESTROYED = 8  # army, location, kind or POWER_UNIT, count: removed by a Mega-Missile strike
#                   (the launched missile itself is removed from its place before the strike)
EV_PENALTY = 9  # seat, army paying (-1: the seat has nothing to pay with), kind broken down
#                 (-1: a Power Unit paid), its location, Power Units added to the Reserve (net of
#                 the one forfeited), kind of pieces added to the Reserve (-1 none), their count
#                 (what the army's set has room for, with component_limits)
EV_CONFLICT = 10  # location, power of side 0, 1, 2, 3 (-1: absent), outcome, side (CAPTURE: the
#                   winner; BOUNCE: bitmask of the sides that retreat; STANDOFF: bitmask tied)
EV_BOUNCE = 11  # army, kind, from (the tied sector), to (where it came from)
EV_CAPTURE = 12  # winning army (to its Reserve), losing army, location, kind, count, how many
#                  of them the winner receives (its set's room, with component_limits; the rest
#                  leave play)
EV_POWER_UNITS = 13  # army, units gained, bitmask of the countries that paid
EV_FLAG = 14  # captor army, captured army, attacking power in that Headquarters, defending power,
#               captor seat (-1 mercenary)
EV_TAKE = 15  # captor army, captured army, location, kind or POWER_UNIT, count, how many of them
#               the captor receives (as EV_CAPTURE)
EV_OUT = 16  # seat, round
EV_SCORE = 17  # seat, power value, Flags held, seat still in (0/1)
EV_END = 18  # winner seat (-1 none), rounds played, end reason
EVENT_NAMES = (
    "setup", "army", "round", "pieces", "army_state", "command", "exec", "used", "destroyed",
    "penalty", "conflict", "bounce", "capture", "power_units", "flag", "take", "out", "score",
    "end",
)  # fmt: skip
# The standing of every seat (docs/arcs.md): [EV_STANDING, round, seat, power value, Flags held].
# Recorded only when tracing; it reads the state.
EVENT_NAMES = (*EVENT_NAMES, "standing")
EV_STANDING = len(EVENT_NAMES) - 1

SIDE_OF = np.array(
    [[0, 1, 2, 3], [0, 1, 2, 3], [0, 0, 1, 1], [0, 1, 2, 3], [0, 1, 2, 3]], dtype=np.int64
)  # SIDE_OF[players, army]; in the 3-player game side 3 is the mercenary
MERCENARY_ARMY = 3  # in the 3-player game

# --- the state array -----------------------------------------------------------------------
PLAYERS = 0
ROUND = 1
OFFICIAL = 2
TRACE_LEN = 3
LOG_N = 4
FIRST_OFFICIAL = 5
CNT = 6  # + piece_index(army, loc, kind)
FIXED = CNT + N_ARMIES * MAX_LOC * N_KINDS  # same index: pieces that cannot move this round
# Kept in step with CNT by pieces.change (queries read them, not the counts):
POWER_AT = FIXED + N_ARMIES * MAX_LOC * N_KINDS  # + army * MAX_LOC + loc: power value there
PIECES_AT = POWER_AT + N_ARMIES * MAX_LOC  # + army * MAX_LOC + loc: pieces there
OCCUPIED = PIECES_AT + N_ARMIES * MAX_LOC  # + loc: bit a set while army a has pieces there
# The same by board node, as bitmasks over the nodes (bit n = node n), so that planners and
# conflicts visit only the nodes that matter:
ARMY_NODES = OCCUPIED + MAX_LOC  # + army: the board nodes where it has pieces
KIND_NODES = ARMY_NODES + N_ARMIES  # + army * N_KINDS + kind: where it has pieces of that kind
PU = KIND_NODES + N_ARMIES * N_KINDS  # + army: Power Units in its Reserve
STANDING = PU + N_ARMIES  # + army: 1 while its Flag stands
FLAGS = STANDING + N_ARMIES  # + army: Flags in its Headquarters (its own and captured ones)
SEAT_IN = FLAGS + N_ARMIES  # + seat: 1 while the seat has a standing Flag
CARRIED = SEAT_IN + MAX_PLAYERS  # + seat: its commands carried out this round
# This round's moves (LOG_LIVE 1 until the piece bounces or is removed) and pieces made on the
# board (LOG_LIVE 0: they never bounce); FIXED is only ever set at these entries' places.
LOG = CARRIED + MAX_PLAYERS  # + LOG_WIDTH * i
LOG_ARMY, LOG_KIND, LOG_FROM, LOG_TO, LOG_LIVE = range(5)
LOG_WIDTH = 5
PAD_N = LOG + LOG_WIDTH * MAX_LOG  # + seat: commands written
PAD = PAD_N + MAX_PLAYERS  # + (seat * MAX_COMMANDS + i) * CMD_WIDTH: the written commands
PAD_RESULT = PAD + MAX_PLAYERS * MAX_COMMANDS * CMD_WIDTH  # + seat * MAX_COMMANDS + i
# A mercenary move several seats ordered to the same place: how many of the pieces that stood
# there when the pads were written have not moved yet (kept alike on every such order).
SHARE_LEFT = PAD_RESULT + MAX_PLAYERS * MAX_COMMANDS  # + seat * MAX_COMMANDS + i
STATS = SHARE_LEFT + MAX_PLAYERS * MAX_COMMANDS  # + N_SEAT_STATS * seat + stat
# Planning scratch for strategies: the pad's picture of its own pieces as its commands leave
# them, as differences from CNT (pieces there; pieces it may still order to move), with the list
# of the entries the pad touched.
PLAN_CNT = STATS + N_SEAT_STATS * MAX_PLAYERS  # + (army, loc, kind) as CNT
PLAN_FREE = PLAN_CNT + N_ARMIES * MAX_LOC * N_KINDS
PLAN_TOUCHED_N = PLAN_FREE + N_ARMIES * MAX_LOC * N_KINDS
PLAN_TOUCHED = PLAN_TOUCHED_N + 1  # + i: piece indices
MAX_TOUCHED = MAX_COMMANDS * (N_KINDS + 1)
PLAN_NODES = PLAN_TOUCHED + MAX_TOUCHED  # + army: bitmask of the board nodes where the picture
#                                          may have pieces (where it stood, its commands' places)
PLAN_TRIPLES = PLAN_NODES + N_ARMIES  # + army: bitmask of the board nodes where the pad's moves
#                                       brought three or more like Group I pieces together
PLAN_PU = PLAN_TRIPLES + N_ARMIES  # + army
PLAN_N = PLAN_PU + N_ARMIES  # + army: commands planned for it
PLAN_STOCK = PLAN_N + N_ARMIES  # + army * N_KINDS + kind: pieces its buys, exchanges and
#                                 missiles so far add to what the army has in play
PLAN_POWER = PLAN_STOCK + N_ARMIES * N_KINDS  # + army * MAX_LOC + loc: the power the pad's
#                                 picture adds there (the PLAN_CNT entries times their values)
# The planners' view of the round, computed once by strategies.survey before the pads are
# written: planning never changes the state the pads are written from, so these facts hold for
# every seat's pad (and are not kept up to date by anything else).
VIEW_SIDE_POWER = PLAN_POWER + N_ARMIES * MAX_LOC  # + side * MAX_NODES + node: as side_power_at
VIEW_ENEMY_POWER = VIEW_SIDE_POWER + N_ARMIES * MAX_NODES  # + side * MAX_NODES + node: the
#                                          strongest other side's power there (0: none)
VIEW_THREAT = VIEW_ENEMY_POWER + N_ARMIES * MAX_NODES  # + army: power of the pieces of other
#                                          sides that could reach its Headquarters this round
VIEW_REACH = VIEW_THREAT + N_ARMIES  # + army * N_ARMIES + target (of another side): power of the
#                                      army's pieces that could reach target's Headquarters this
#                                      round (the parts VIEW_THREAT sums; 0 for the same side)
# Strategies' memory, kept across rounds (reset by setup): each army's chosen target, the enemy
# army + 1 whose Headquarters it is massing on (0: none chosen yet). Private to the seat that
# commands the army: rules.determinize redraws the other seats' targets.
TARGET = VIEW_REACH + N_ARMIES * N_ARMIES  # + army
# Planning scratch: the power each army keeps in its Headquarters this round (its guard).
PLAN_GUARD = TARGET + N_ARMIES  # + army
# Every piece an army has, wherever it is (kept in step with CNT by pieces.change):
# what it has in play of its set.
IN_PLAY = PLAN_GUARD + N_ARMIES  # + army * N_KINDS + kind
# The rules' numbers the piece bookkeeping and the planners read (set by setup from the rule
# parameters, which only the set-up reads for them): each kind's power value (a Mega-Missile's
# is 0), each Group I kind's price in Power Units, the like pieces an exchange takes.
PIECE_POWER = IN_PLAY + N_ARMIES * N_KINDS  # + kind
PIECE_PRICE = PIECE_POWER + N_KINDS  # + Group I kind
UPGRADE_SIZE = PIECE_PRICE + GROUP_II_OFFSET
# Scratch of build_missile (the least power value a Mega-Missile's material can have): level j
# (0-8) is the bitset of the totals the pieces of kinds BY_VALUE[j:] at the place can make
# (total s: bit s % 64 of word s // 64), up to the price plus the largest piece.
SUM_WORDS = (MAX_MISSILE_COST + MAX_PIECE_POWER) // 64 + 1
SUMS = UPGRADE_SIZE + 1  # + level * SUM_WORDS + word
# The decision-point protocol (docs/protocol.md, simcore/games/power_the_game/rules.py): where the
# game stands between decisions. All public except CHOSEN: each seat writes its orders without
# seeing the others' (``determinize`` redraws the options the other seats chose this round).
PROTOCOL = SUMS + (len(BY_VALUE) + 1) * SUM_WORDS
P_DECISION = PROTOCOL  # the pending decision's kind (D_*)
P_SEAT = PROTOCOL + 1  # the seat deciding now, -1 when none (the game is over)
P_STEP = PROTOCOL + 2  # the rules' next step (S_* of the rules module)
P_ASK = PROTOCOL + 3  # the next seat to ask for its orders this round
P_N_OPTIONS = PROTOCOL + 4  # the options of an orders decision (twice the planners)
P_OVER = PROTOCOL + 5  # 1 once the game is over
P_WINNER = PROTOCOL + 6  # the winning seat, -1 none (valid once over)
P_REASON = PROTOCOL + 7  # END_FLAGS or END_TIME_LIMIT (valid once over)
P_DECISIONS = PROTOCOL + 8  # decisions answered so far (powerlab bench)
CHOSEN = PROTOCOL + 9  # + seat: the option its orders are this round, -1 before it decides
STATE_SIZE = CHOSEN + MAX_PLAYERS

# Decision kinds. A seat's orders for a round are one decision; its options are macro-actions:
# option k < n of the n planners (``planner_table`` of the kernel) is the pad planner k writes for
# the seat, option n + k the same pad without its last command (docs/games/power-the-game.md).
D_NONE, D_ORDERS = range(2)
DECISION_KINDS = ("none", "orders")
MAX_PLANNERS = 16  # the game's planners and presets, and a lineup's own parameter rows
MAX_OPTIONS = 2 * MAX_PLANNERS


# --- queries -------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def piece_index(army, loc, kind):
    return (army * MAX_LOC + loc) * N_KINDS + kind


@njit(cache=True, _nrt=False, forceinline=True)  # in the commonest bookkeeping
def power_value(st, kind):
    """A piece's power value (rule parameters power_<piece>; a Mega-Missile's is 0)."""
    return st[PIECE_POWER + kind]


@njit(cache=True, _nrt=False, forceinline=False)
def price(st, kind):
    """Power Units a Group I piece costs (rule parameters price_<piece>)."""
    return st[PIECE_PRICE + kind]


@njit(cache=True, _nrt=False, forceinline=False)
def upgrade_size(st):
    """Like Group I pieces one exchange takes (rule upgrade_pieces: three)."""
    return st[UPGRADE_SIZE]


@njit(cache=True, _nrt=False, forceinline=False)
def max_moves(rules, kind):
    """The most moves a piece of ``kind`` makes in a round (rule parameters moves_<piece>)."""
    return np.int64(rules[R_MOVES + kind % GROUP_II_OFFSET])


@njit(cache=True, _nrt=False, forceinline=False)
def count(st, army, loc, kind):
    return st[CNT + piece_index(army, loc, kind)]


@njit(cache=True, _nrt=False, forceinline=False)
def free_count(st, army, loc, kind):
    """Pieces that may still move this round."""
    i = piece_index(army, loc, kind)
    return st[CNT + i] - st[FIXED + i]


@njit(cache=True, _nrt=False, forceinline=False)
def army_power_at(st, army, loc):
    return st[POWER_AT + army * MAX_LOC + loc]


@njit(cache=True, _nrt=False, forceinline=False)
def army_pieces_at(st, army, loc):
    return st[PIECES_AT + army * MAX_LOC + loc]


@njit(cache=True, _nrt=False, forceinline=False)
def next_contested(st, loc):
    """The first board node after ``loc`` (-1: the first of all) where more than one army has
    pieces (a conflict is possible there), as the state stands now; -1 if none."""
    if loc + 1 >= MAX_NODES:
        return -1
    seen = 0
    several = 0
    for army in range(N_ARMIES):
        several |= seen & st[ARMY_NODES + army]
        seen |= st[ARMY_NODES + army]
    later = several & -(np.int64(1) << (loc + 1))
    return lowest_bit(later) if later != 0 else -1


@njit(cache=True, _nrt=False, forceinline=False)
def side_of(st, army):
    return SIDE_OF[st[PLAYERS], army]


@njit(cache=True, _nrt=False, forceinline=False)
def side_power_at(st, side, loc):
    """Power of a side's pieces at ``loc``, or -1 when it has none there."""
    total = -1
    armies = st[OCCUPIED + loc]  # those with pieces there, lowest first
    while armies:
        army = lowest_bit(armies)
        armies &= armies - 1
        if side_of(st, army) == side:
            total = max(total, 0) + army_power_at(st, army, loc)
    return total


@njit(cache=True, _nrt=False, forceinline=False)
def has_foot(st, side, loc):
    """An Infantry or a Regiment of the side is at ``loc`` (what a Flag capture needs)."""
    for army in range(N_ARMIES):
        if side_of(st, army) == side and (
            count(st, army, loc, INFANTRY) > 0 or count(st, army, loc, REGIMENT) > 0
        ):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def army_total_power(st, army):
    """Power value of every piece of the army, on the board and in Reserve, plus Power Units."""
    total = st[PU + army]
    for loc in range(MAX_LOC):
        total += army_power_at(st, army, loc)
    return total


@njit(cache=True, _nrt=False, forceinline=False)
def army_total_pieces(st, army):
    total = 0
    for loc in range(MAX_LOC):
        total += army_pieces_at(st, army, loc)
    return total


@njit(cache=True, _nrt=False, forceinline=False)
def seat_of_army(players, army):
    """The seat commanding ``army`` (-1: the mercenary of the 3-player game)."""
    if players == 2:
        return army // 2
    if army < players:
        return army
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def armies_of(players, seat):
    """(first army, number of armies) a seat owns."""
    if players == 2:
        return 2 * seat, 2
    return seat, 1


@njit(cache=True, _nrt=False, forceinline=False)
def may_command(st, seat, army):
    """May ``seat`` write commands for ``army`` now? (its own army, or the mercenary)."""
    if st[STANDING + army] == 0:
        return False
    owner = seat_of_army(st[PLAYERS], army)
    return owner == seat or (owner == -1 and st[PLAYERS] == 3)


@njit(cache=True, _nrt=False, forceinline=False)
def hq_of(board, army):
    return board[INFO, I_HQ + army]


@njit(cache=True, _nrt=False, forceinline=False)
def n_nodes(board):
    return board[INFO, I_NODES]


@njit(cache=True, _nrt=False, forceinline=False)
def is_location(board, loc):
    return 0 <= loc < n_nodes(board) or RESERVE <= loc < MAX_LOC


@njit(cache=True, _nrt=False, forceinline=False)
def moves_needed(dist, board, kind, origin, target):
    """Fewest moves a piece of ``kind`` needs between two board nodes (UNREACHABLE if never)."""
    cls = MOVE_CLASS[kind]
    if cls == NO_CLASS or not (0 <= origin < n_nodes(board) and 0 <= target < n_nodes(board)):
        return UNREACHABLE
    return dist[cls, origin, target]


@njit(cache=True, _nrt=False, forceinline=True)  # small, hot in planning and execution
def opponent_at(st, army, loc):
    """A piece of another side than ``army``'s stands at ``loc``."""
    mine = side_of(st, army)
    for other in range(N_ARMIES):
        if side_of(st, other) != mine and army_pieces_at(st, other, loc) > 0:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def stock_room(st, rules, at, planned_at, kind):
    """How many more pieces of ``kind`` a set can put in play, its pieces in play being
    st[at + kind] (plus st[planned_at + kind], a pad's changes, when planned_at >= 0); NO_LIMIT
    without the rule component_limits. Regiments are made of the set's Infantry, three each (a
    Regiment exchanged from Infantry in play takes none: the same pieces snap together)."""
    if rules[R_COMPONENT_LIMITS] == 0:
        return NO_LIMIT
    per_regiment = upgrade_size(st)
    infantry = st[at + INFANTRY] + per_regiment * st[at + REGIMENT]
    held = st[at + kind]
    if planned_at >= 0:
        infantry += st[planned_at + INFANTRY] + per_regiment * st[planned_at + REGIMENT]
        held += st[planned_at + kind]
    if kind == INFANTRY:
        return SET_SIZE[INFANTRY] - infantry
    if kind == REGIMENT:
        return (SET_SIZE[INFANTRY] - infantry) // per_regiment
    return SET_SIZE[kind] - held


@njit(cache=True, _nrt=False, forceinline=False)
def stock_left(st, rules, army, kind):
    """How many more pieces of ``kind`` the army's set can put in play (``stock_room``)."""
    return stock_room(st, rules, IN_PLAY + army * N_KINDS, -1, kind)


@njit(cache=True, _nrt=False, forceinline=False)
def units_left(st, rules, army):
    """How many more Power Units the army's set has (NO_LIMIT without component_limits)."""
    if rules[R_COMPONENT_LIMITS] == 0:
        return NO_LIMIT
    return SET_POWER_UNITS - st[PU + army]


# --- legality: the one place that says what a command may do -------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def material_at(st, army, loc):
    """Power value a Mega-Missile at ``loc`` can be made of: the army's pieces there and, in its
    own Reserve, its Power Units."""
    total = army_power_at(st, army, loc)
    if loc == RESERVE + army:
        total += st[PU + army]
    return total


@njit(cache=True, _nrt=False, forceinline=True)  # one caller, passing 4 arrays
def check_command(st, rules, board, dist, army, op, kind, origin, target):
    """(result, detail) of a command of ``army`` on the current state: EXECUTED or why it is
    cancelled (who may command the army and the pad's length are checked by the caller)."""
    if op == MOVE:
        if not (0 <= kind < MISSILE):
            return X_MALFORMED, 0
        if not (is_location(board, origin) and is_location(board, target)) or origin == target:
            return X_MALFORMED, 0
        if free_count(st, army, origin, kind) <= 0:
            return X_NO_PIECE, 0
        if target >= RESERVE:
            return X_RESERVE, 0
        if origin >= RESERVE:
            if target != hq_of(board, army):
                return X_RESERVE, 0
            if rules[R_BLOCKADE] != 0 and opponent_at(st, army, target):
                return X_BLOCKADE, 0
            return EXECUTED, 1
        needed = moves_needed(dist, board, kind, origin, target)
        if needed > max_moves(rules, kind):
            return X_REACH, needed if needed < UNREACHABLE else -1
        return EXECUTED, needed
    if op == UPGRADE:
        if not (0 <= kind < GROUP_II_OFFSET) or not is_location(board, origin):
            return X_MALFORMED, 0
        if count(st, army, origin, kind) < upgrade_size(st):
            return X_MATERIAL, 0
        if kind != INFANTRY and stock_left(st, rules, army, kind + GROUP_II_OFFSET) <= 0:
            return X_STOCK, 0
        return EXECUTED, 0
    if op == BUY:
        if not (0 <= kind < GROUP_II_OFFSET):
            return X_MALFORMED, 0
        if st[PU + army] < price(st, kind):
            return X_MATERIAL, 0
        if stock_left(st, rules, army, kind) <= 0:
            return X_STOCK, 0
        return EXECUTED, price(st, kind)
    if op == BUILD:
        if not is_location(board, origin):
            return X_MALFORMED, 0
        if rules[R_MEGA_MISSILES] == 0:
            return X_BANNED, 0
        if material_at(st, army, origin) < rules[R_MISSILE_COST]:
            return X_MATERIAL, 0
        if stock_left(st, rules, army, MISSILE) <= 0:
            return X_STOCK, 0
        return EXECUTED, 0
    if op == LAUNCH:
        if not (is_location(board, origin) and is_location(board, target)):
            return X_MALFORMED, 0
        if rules[R_MEGA_MISSILES] == 0:
            return X_BANNED, 0
        if count(st, army, origin, MISSILE) <= 0:
            return X_NO_PIECE, 0
        return EXECUTED, target
    return X_MALFORMED, 0
