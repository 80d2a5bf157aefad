"""Power Struggle's codes, state layout, trace events and read-only state queries.

Kept apart from the rules so that the strategies (``strategies/power_struggle/``) can use them
while the scripted games and the search import the strategies (no import cycle).

A game's whole state is one int64 array ``st``: the **table** (copied at set-up from the prepared
data file: track maxima, share prices and stock, bonus amounts, event effects, Archenemy
Competence cards; and the rule parameters) and the **play** state (money, competence tracks,
offices, Board Room, Divisional Heads and Chairman, Privilege cards, share blocks, the round's
event order, the Archenemy cards, what the players know (who sorted the round's events, how many
have been turned up, the accepted bribes per pair: their number public, their Pinats secret),
statistics, the strategies' scratch and the trace length). What is hidden from a seat, and how
``simcore.games.power_struggle.rules.determinize`` redraws it, is documented there.

Seats are numbered clockwise: seat s + 1 sits to the left of seat s. Money is in Pinats.

Offices: division d (DIVISIONS order, left to right on the board) has 6 Department Offices, row 0
the topmost. Office id = 6 * d + row. Occupied offices of a division are always rows 0 .. k-1
(offices move up as soon as one above is vacated), so a new or moved Department always lands in
row k, the topmost vacant one. An office holds an owner (-1: vacant), its heads (1: a Department,
2: a Main Department) and its Employees (0-6).

Privilege cards: 0-5 the Divisions (DIVISIONS order), 6 the Chairman. Each has a holder, a half
(0 the Division half, 1 the Bribed half) and a face (1 face up).

Event ids: 0 .. n-1 the data file's non-standard events (in file order, a card with count c
taking c consecutive ids), then BONUS_EVENT = n and MEETING_EVENT = n + 1 (the two standard
events); the trace gives both as -1 and -2 (EV_BONUS_CARD, EV_MEETING_CARD) so their meaning
does not depend on n.

Trace format
------------
One int64 row of TRACE_WIDTH per event: [event, a, b, c, d, e, f, g]; unused fields are 0.
Rows appear in the order things happen. Offices are named (division, row) as they are at the
moment of the event (before it, for a removal; after it, for an addition); a referee applies the
move-up rule itself. The events and their fields a..g:

setup        seat, colour card (the seat it names; == seat: own colour), competence card (index
             among the data file's cards), its competences c1, c2, c3 (COMPETENCES), money
stock        share-block size (1-7), blocks in stock, price
deal         privilege card, seat (set-up deal, random, as even as possible); the holder of
             Communications is the starting player
appoint      seat, pass (0-2), place (0 Board Room, 1 Department), division (-1 board), row or
             chair, employees (3 for a Department); after its office / board_in row
board_out    seat whose leftmost Board member is pushed out (before the new member sits)
board_in     seat, chair (0-4, after the push-out), cause (BOARD_CAUSES)
meeting      round (1-based), dismissed Chairman's owner (-1: none, round 1 or empty office)
chairman_use seat, half (0 a Department, 1 a Main Department), division, row, employees moved
             in from its other offices (plus the 1 from the supply for a Department); only when
             the card is used
extra_action seat (bribed Communications at the start of a meeting); its action follows
chairman     seat, source (0 leftmost Board member, 1 the Chairman card holder from the
             supply), chair it left (-1)
head         division, new owner, previous owner (-1), case (0 A, 1 B, 2 C), displaced to
             (-1 none, 0 Board Room, 1 Counsel), by card (1: no Department Heads there, the
             card holder provides it); after the displaced head's board_in / consultant row
privilege    card, seat, half, face: a card handed out (step 4) or won by a bribe
influence    seat, points gained at meeting step 5 (after the track cap), influence after
motivation   value after, change, cause (-1 reset at step 6, else the event id)
order        sorter seat, department turns (4-7), policy (ORDER_POLICIES; -1 none: a search sorted
             them, or the Communications card is off and they were dealt), then 8 order_card rows
order_card   position (0-7), event id (-1 bonus payment, -2 directors' meeting)
turn         department turn in the round (1-based), department turns so far in the game,
             starting player of the round
event        event id (-1, -2 as above), position, card's effect count
pay          seat, change (+ received, - paid), money after, cause (PAY_CAUSES), from the bank
             (Moron shortfall the bank pays; else 0), event id (-1 none)
face_down    card, holder, cause (0 resignation, 1 event)
action       seat, kind (ACTIONS), x, y, z, w: the choice, fields as in ACTION_ARGS below
employee     owner, division, row, change (+/-), employees after, cause (EMPLOYEE_CAUSES)
office       owner, division, row, heads after (0 vacated/closed, 1, 2), employees (after; for
             a vacated office the Employees it held, which moved with it or were 0), cause
             (OFFICE_CAUSES); an appointment, a new or moved office is the topmost vacant row,
             a merge in place keeps its row
consultant   seat, division, its consultants in all divisions after, cause (CONSULTANT_CAUSES)
points       seat, track (TRACKS), gained (after the cap), value after, cause (POINT_CAUSES)
bribe        briber, target seat, card, amount, attempt (1, 2), accepted (0, 1)
shares       seat, size paid for, size received, price paid, blocks of that size left
declare      seat, victory points, archenemy point (0/1), routes bitmask (bit r: VP_ROUTES[r])
snap_seat    seat, money, influence, shares, main department points, corruption, consultants
snap_office  division, row, owner, heads, employees (every occupied office)
snap_board   chair, owner (every occupied chair), then the Chairman as chair -1
snap_card    card, holder, half, face
end          winner (-1: none or shared), department turns, truncated, rounds, winners bitmask,
             winning VP

Snapshots (snap_*) come after the meeting's step 7 of every round and before ``end``.

ACTION_ARGS, per action kind (x, y, z, w):
  hire            employees hired (2 + Human Resources), 0, 0, 0; then one employee row each
  create_two      division 1, division 2, employees placed in 1 (>= 2), in 2 (>= 2)
  create_one      division, employees moved from its offices, extra Human Resources employees, 0
  move            office id of a, of b (-1), target division, 0
  merge           office id of a, of b, target division (-1: b moves into a's office), 0
  resign          division, to (0 Board Room, 1 Counsel), 0, 0
  bribe           (attempts follow as bribe rows)
  influence       (3 employee rows, then a points row)
  buy_main        division
  buy_consultant  division
  buy_shares      size paid for, size received
  development     employees to entice (1 or 3)
  legal           employees to dismiss (1 or 2)
  pass            (no legal action, or none chosen)
"""

from numba import njit

DIVISIONS = (
    "Development",
    "Human Resources",
    "Communications",
    "Accounting",
    "Legal & Patents",
    "Controlling",
)
DEVELOPMENT, HUMAN_RESOURCES, COMMUNICATIONS, ACCOUNTING, LEGAL, CONTROLLING = range(6)
N_DIVISIONS = 6
ROWS = 6
N_OFFICES = N_DIVISIONS * ROWS
MAX_EMPLOYEES = 6
CHAIRS = 5
CHAIRMAN = 6  # the Chairman's privilege card and its slot in HEAD
PRIVILEGES = (*DIVISIONS, "Chairman")
N_PRIVILEGES = 7

TRACKS = ("influence", "shares", "main_departments", "corruption")
INFLUENCE, SHARES, MAIN, CORRUPTION = range(4)
N_TRACKS = 4
COMPETENCES = (*TRACKS, "counsel")
COUNSEL = 4
N_COMPETENCES = 5
VP_ROUTES = (*COMPETENCES, "archenemy")
ARCHENEMY = 5
N_ROUTES = 6
VP_THRESHOLD = (7, 18, 4, 9, 3)  # per competence; counsel: divisions with a consultant

N_SIZES = 7  # share blocks of 1..7 shares
START_MONEY = 800_000
MIN_BRIBE = 50_000
BRIBE_STEP = 50_000
MAIN_PRICE = 1_500_000
CONSULTANT_PRICE = 2_000_000
MAX_MOTIVATION = 6
MIN_TURNS = 4
MAX_TURNS = 7  # Department Turns in a round at most
ORDER_SIZE = 8

ACTIONS = (
    "hire", "create_two", "create_one", "move", "merge", "resign", "bribe", "influence",
    "buy_main", "buy_consultant", "buy_shares", "development", "legal", "pass",
)  # fmt: skip
(A_HIRE, A_CREATE_TWO, A_CREATE_ONE, A_MOVE, A_MERGE, A_RESIGN, A_BRIBE, A_INFLUENCE,
 A_BUY_MAIN, A_BUY_CONSULTANT, A_BUY_SHARES, A_DEVELOPMENT, A_LEGAL,
 A_PASS) = range(14)  # fmt: skip
N_ACTIONS = 14

EMPLOYEE_CAUSES = (
    "hire", "transfer_out", "transfer_in", "excess", "merge", "resign", "bribe_loss", "event",
    "entice_out", "entice_in", "influence", "legal",
)  # fmt: skip
(E_HIRE, E_TRANSFER_OUT, E_TRANSFER_IN, E_EXCESS, E_MERGE, E_RESIGN, E_BRIBE_LOSS,
 E_EVENT, E_ENTICE_OUT, E_ENTICE_IN, E_INFLUENCE, E_LEGAL) = range(12)  # fmt: skip
OFFICE_CAUSES = (
    "appoint", "create", "closed", "move_out", "move_in", "merge_out", "merge", "buy_main",
    "resign", "chairman",
)  # fmt: skip
(O_APPOINT, O_CREATE, O_CLOSED, O_MOVE_OUT, O_MOVE_IN, O_MERGE_OUT, O_MERGE, O_BUY_MAIN,
 O_RESIGN, O_CHAIRMAN) = range(10)  # fmt: skip
BOARD_CAUSES = ("appoint", "displaced_head", "resign_head", "resign_department")
B_APPOINT, B_DISPLACED, B_RESIGN_HEAD, B_RESIGN_DEPARTMENT = range(4)
CONSULTANT_CAUSES = ("displaced_head", "resign", "bought")
C_DISPLACED, C_RESIGN, C_BOUGHT = range(3)
POINT_CAUSES = ("merge", "buy_main", "chairman", "shares", "bribe", "influence", "legal")
P_MERGE, P_BUY_MAIN, P_CHAIRMAN, P_SHARES, P_BRIBE, P_INFLUENCE, P_LEGAL = range(7)
PAY_CAUSES = ("bonus", "event", "moron", "bribe", "buy_main", "buy_consultant", "buy_shares")
PAY_BONUS, PAY_EVENT, PAY_MORON, PAY_BRIBE, PAY_MAIN, PAY_CONSULTANT, PAY_SHARES = range(7)

ORDER_POLICIES = ("random", "max", "min", "self", "adversarial")
ORDER_RANDOM, ORDER_MAX, ORDER_MIN, ORDER_SELF, ORDER_ADVERSARIAL = range(5)

# Event effects (data file vocabulary): kind, who, per, amount, division.
EFFECT_KINDS = ("motivation", "receive", "pay", "lose_employees", "face_down", "moron")
FX_MOTIVATION, FX_RECEIVE, FX_PAY, FX_LOSE, FX_FACE_DOWN, FX_MORON = range(6)
EFFECT_WHO = ("all", "chairman", "head", "board", "most_money", "least_money")
WHO_ALL, WHO_CHAIRMAN, WHO_HEAD, WHO_BOARD, WHO_RICHEST, WHO_POOREST = range(6)
EFFECT_PER = (
    "flat", "department", "main_department", "board_member", "employee", "share_block",
    "consultant", "divisional_head",
)  # fmt: skip
(PER_FLAT, PER_DEPARTMENT, PER_MAIN, PER_BOARD, PER_EMPLOYEE, PER_BLOCK, PER_CONSULTANT,
 PER_HEAD) = range(8)  # fmt: skip
FX_FIELDS = 5  # kind, who, per, amount, division (-1 any)
MAX_EFFECTS = 3
EVENT_WIDTH = 1 + MAX_EFFECTS * FX_FIELDS  # effect count, then the effects
MAX_EVENTS = 64
MAX_COMPETENCE_CARDS = 6
BONUS_ITEMS = ("share_block", "department", "main_department", "board_member", "chairman")
MAX_PLAYERS = 5

# Rule parameter positions in the prepared vector (order of
# simcore.games.power_struggle.game.RULES); the data file's tables follow (P_ offsets). Set-up
# copies them, as integers, to st[RULE + r], where the queries below and the strategies read them.
R_DATA = 0
R_VICTORY_POINTS = 1
R_MAX_TURNS = 2
R_STARTING_MONEY = 3
R_BRIBES_ALLOWED = 4
R_BRIBE_CAP = 5  # Pinats one bribe offer may hold at most; 0: no cap
R_SECOND_BRIBE = 6
R_REFUSAL_LOSS = 7
R_CARD_ON = 8  # + card (PRIVILEGES order): the card's power is in play
R_CHAIRMAN_INFLUENCE = R_CARD_ON + N_PRIVILEGES
R_BOARD_INFLUENCE = R_CHAIRMAN_INFLUENCE + 1
R_MOTIVATION_RESET = R_CHAIRMAN_INFLUENCE + 2
R_HIRED = R_CHAIRMAN_INFLUENCE + 3
R_MAIN_PRICE = R_CHAIRMAN_INFLUENCE + 4
R_CONSULTANT_PRICE = R_CHAIRMAN_INFLUENCE + 5
R_INFLUENCE_COST = R_CHAIRMAN_INFLUENCE + 6
R_INFLUENCE_SCORING = R_CHAIRMAN_INFLUENCE + 7  # INFLUENCE_SCORING
N_RULES = R_CHAIRMAN_INFLUENCE + 8
# When meeting step 5 scores Influence: after the new Chairman (the rulebook's place), or moved
# before step 1 (the outgoing Chairman and Board score).
INFLUENCE_SCORING = ("new board", "outgoing board")
P_TRACK_MAX = N_RULES  # 4 track maxima (golden spaces)
P_STOCK = P_TRACK_MAX + N_TRACKS  # blocks of 1..7 shares at this player count
P_PRICE = P_STOCK + N_SIZES  # price of a block of 1..7 shares
P_BONUS = P_PRICE + N_SIZES  # BONUS_ITEMS amounts
P_N_CARDS = P_BONUS + len(BONUS_ITEMS)  # Archenemy Competence cards kept at this player count
P_CARDS = P_N_CARDS + 1  # 3 competences per card, MAX_COMPETENCE_CARDS cards
P_CARD_IDS = P_CARDS + 3 * MAX_COMPETENCE_CARDS  # each kept card's index in the data file
P_N_EVENTS = P_CARD_IDS + MAX_COMPETENCE_CARDS
P_EVENTS = P_N_EVENTS + 1  # EVENT_WIDTH per event, MAX_EVENTS events
PREPARED_SIZE = P_EVENTS + EVENT_WIDTH * MAX_EVENTS

# --- st layout --------------------------------------------------------------------------------
PLAYERS = 0
ROUND = 1
DEPT_TURNS = 2  # department turns played in the game
MOTIVATION = 3
START_SEAT = 4  # starting player of the round's Action Steps
ENDING = 5  # 1 once somebody declared: the game ends with this department turn
N_EVENTS = 6
BONUS_EVENT = 7  # its id: N_EVENTS
MEETING_EVENT = 8
TRACK_MAX = 9  # st[TRACK_MAX + track]
PRICE = TRACK_MAX + N_TRACKS  # st[PRICE + size], size 0..7 (0 costs 0)
BONUS = PRICE + N_SIZES + 1  # st[BONUS + item]
EVENT_FX = BONUS + len(BONUS_ITEMS)  # st[EVENT_FX + EVENT_WIDTH * event + field]
N_COMP_CARDS = EVENT_FX + EVENT_WIDTH * MAX_EVENTS
COMP_CARD = N_COMP_CARDS + 1  # st[COMP_CARD + 3 * card + k]
COMP_CARD_ID = COMP_CARD + 3 * MAX_COMPETENCE_CARDS
RULE = COMP_CARD_ID + MAX_COMPETENCE_CARDS  # st[RULE + r]: rule parameter r (R_*)
MONEY = RULE + N_RULES  # st[MONEY + seat]
TRACK = MONEY + MAX_PLAYERS  # st[TRACK + N_TRACKS * seat + track]
CONSULT = TRACK + N_TRACKS * MAX_PLAYERS  # st[CONSULT + N_DIVISIONS * seat + division]
OWNER = CONSULT + N_DIVISIONS * MAX_PLAYERS  # st[OWNER + office]: -1 vacant
HEADS = OWNER + N_OFFICES  # st[HEADS + office]: 1 Department, 2 Main Department
EMP = HEADS + N_OFFICES  # st[EMP + office]: Employees
HEAD = EMP + N_OFFICES  # st[HEAD + division]: Divisional Head's owner; HEAD + 6: Chairman
BOARD = HEAD + N_PRIVILEGES  # st[BOARD + chair]: owner, chairs 0 .. BOARD_N - 1 (left first)
BOARD_N = BOARD + CHAIRS
HOLDER = BOARD_N + 1  # st[HOLDER + card]
HALF = HOLDER + N_PRIVILEGES
FACE = HALF + N_PRIVILEGES
STOCK = FACE + N_PRIVILEGES  # st[STOCK + size]: blocks left, size 1..7 (slot 0 unused)
HELD = STOCK + N_SIZES + 1  # st[HELD + 8 * seat + size]: blocks held
COLOUR_CARD = HELD + (N_SIZES + 1) * MAX_PLAYERS  # st[COLOUR_CARD + seat]: seat it names
COMP_OF = COLOUR_CARD + MAX_PLAYERS  # st[COMP_OF + seat]: its competence card (kept index)
DECLARED = COMP_OF + MAX_PLAYERS  # st[DECLARED + seat]: 1 once it declared
ARCH_LOCKED = DECLARED + MAX_PLAYERS  # st[ARCH_LOCKED + seat]: archenemy point at declaration
PILE = ARCH_LOCKED + MAX_PLAYERS  # scratch: the non-standard event ids, shuffled
ORDER = PILE + MAX_EVENTS  # the round's 8 event ids in order
# What the players know of the event order: the seat that sorted this round's cards (-1 before
# the first meeting's step 7; it may look at the stack, nobody else), and how many of the 8
# places have been turned up this round.
SORTER = ORDER + ORDER_SIZE
REVEALED = SORTER + 1
# Accepted bribes, per ordered pair (briber a, bribed b) at st[X + MAX_PLAYERS * a + b]: how many
# (public: the card changes hands) and the Pinats paid (secret: only a and b know the amounts).
BRIBE_COUNT = REVEALED + 1
BRIBE_PAID = BRIBE_COUNT + MAX_PLAYERS * MAX_PLAYERS
# Statistics (result columns).
GAME_STATS = BRIBE_PAID + MAX_PLAYERS * MAX_PLAYERS
N_GAME_STATS = 6  # rounds, rounds of 4, 5, 6, 7 department turns, winners
STATS = GAME_STATS + N_GAME_STATS  # st[STATS + N_SEAT_STATS * seat + stat]
N_SEAT_STATS = 23
# The statistics' places, in the order of simcore.games.power_struggle.game.GAME_COLUMNS and
# SEAT_COLUMNS.
G_ROUNDS, G_ROUNDS_4, G_WINNERS = 0, 1, 5
(
    ST_VP, ST_VP_INFLUENCE, ST_VP_SHARES, ST_VP_MAIN, ST_VP_CORRUPTION, ST_VP_COUNSEL,
    ST_VP_ARCHENEMY, ST_MONEY, ST_INFLUENCE, ST_SHARES, ST_MAIN, ST_CORRUPTION, ST_CONSULTANTS,
    ST_COMM_ROUNDS, ST_BRIBES_OFFERED, ST_BRIBES_ACCEPTED, ST_BRIBES_TAKEN, ST_DECLARED,
    ST_ACTIONS, ST_EMPLOYEES, ST_COMM_SHARE, ST_DEALT_CARDS, ST_DEALT_COMM,
) = range(N_SEAT_STATS)  # fmt: skip
# The decision-point protocol (docs/protocol.md): the pending decision (DECISION_KINDS; D_NONE
# once the game is over) and its deciding seat, the rules' next step (S_* below) and the fields
# of the meeting step, turn, event or action in progress.
# All public but P_AMOUNT (a pending bribe's Pinats: the briber's and the target's).
P_DECISION = STATS + N_SEAT_STATS * MAX_PLAYERS
P_SEAT = P_DECISION + 1
P_STEP = P_DECISION + 2
P_RESUME = P_DECISION + 3  # the step after the action in progress
P_ACTOR = P_DECISION + 4  # the seat taking the action (or using the Chairman card)
P_POS = P_DECISION + 5  # the event card's place in the round (0-7)
P_EVENT = P_DECISION + 6  # the event whose effects are being carried out
P_K = P_DECISION + 7  # appointment number, division (step 3), or acting seat's place in the turn
P_FX = P_DECISION + 8  # the event's effect in progress
P_FX_SEAT = P_DECISION + 9  # the seat an effect is reaching
P_N = P_DECISION + 10  # repetitions done of the loop in progress (Employees, picks, ...)
P_LIMIT = P_DECISION + 11  # repetitions the loop may take
P_X = P_DECISION + 12  # the action's options (ACTION_ARGS) or the Chairman card's division
P_Y = P_DECISION + 13
P_Z = P_DECISION + 14
P_W = P_DECISION + 15
P_OFFICE = P_DECISION + 16  # the Department being founded (its Employees' destination)
P_EXCLUDE = P_DECISION + 17  # an office a source Employee may not come from (-1 none)
P_DIVISION = P_DECISION + 18  # where Employees must be dismissed from (-1 anywhere)
P_CAUSE = P_DECISION + 19  # EMPLOYEE_CAUSES of the Employees moved by the loop in progress
P_TAKEN = P_DECISION + 20  # Development: bit p, an Employee was enticed from player p
P_ATTEMPT = P_DECISION + 21  # bribe attempt (1, 2)
P_CARD = P_DECISION + 22  # the card of the bribe on offer
P_AMOUNT = P_DECISION + 23  # its Pinats (secret: only the briber and the target see it)
P_TARGET = P_DECISION + 24  # its target
P_FIRST = P_DECISION + 25  # the first attempt's target
P_SECOND = P_DECISION + 26  # the second's (-1 none)
P_ACCEPTED = P_DECISION + 27  # the second attempt was accepted
P_LOSER = P_DECISION + 28  # the player losing an Employee for a refused bribe
P_NEW_HEAD = P_DECISION + 29  # step 3: the new Divisional Head, and whether the card provides it
P_BY_CARD = P_DECISION + 30
P_ORDER_POLICY = P_DECISION + 31  # the sorter's strategy's policy label (trace only; -1 none)
P_OUTCOME = P_DECISION + 32  # 1 ended by a declaration, 2 cut off by the turn cap
P_WINNERS = P_DECISION + 33  # bitmask of the winners once the game is over
P_WINNER = P_DECISION + 34  # the single winner or -1
P_DECISIONS = P_DECISION + 35  # decisions answered so far
P_THEN = P_DECISION + 36  # the step after a new Department's Employees moved in
N_PROTOCOL = 37
DECISION_KINDS = (
    "none", "appoint", "chairman", "displaced", "order", "action", "source", "employee", "fire",
    "bribe", "accept", "victim", "entice",
)  # fmt: skip
(D_NONE, D_APPOINT, D_CHAIRMAN, D_DISPLACED, D_ORDER, D_ACTION, D_SOURCE, D_EMPLOYEE, D_FIRE,
 D_BRIBE, D_ACCEPT, D_VICTIM, D_ENTICE) = range(13)  # fmt: skip
# The rules' steps (st[P_STEP]): simcore/games/power_struggle/meeting.py (Stage I) and turns.py
# (Stage II), run by ``advance`` in rules.py.
(S_APPOINT, S_MEETING, S_CHAIRMAN_CARD, S_CHAIRMAN_DONE, S_EXTRA, S_HEADS_START, S_HEADS,
 S_MEETING_END, S_SORT, S_ORDER, S_SNAPSHOT, S_TURN, S_EVENT, S_EFFECT, S_ACTIONS,
 S_ACTION, S_AFTER_ACTION, S_HIRE, S_CREATE_TWO, S_FOUND, S_INFLUENCE, S_LEGAL,
 S_DEVELOP, S_DEVELOP_PLACE, S_BRIBE, S_ACCEPT, S_BRIBE_LOSERS, S_END,
 S_STOP) = range(29)  # fmt: skip
# Action move codes pack the kind and its options (ACTION_ARGS) as kind + 16 * (x + 1) + ...
ACTION_BASE = 16
ARG_BASE = 64
# Options of one decision at most: an action lists every legal option (offices and divisions:
# below 20,000 with all 36 offices one player's); a bribe every card and amount in 50,000s.
MAX_MOVES = 1 << 15
# Strategy scratch.
SCRATCH = P_DECISION + N_PROTOCOL
N_SCRATCH = 24
TRACE_LEN = SCRATCH + N_SCRATCH
STATE_SIZE = TRACE_LEN + 1

# --- trace events -----------------------------------------------------------------------------
TRACE_WIDTH = 8
EVENT_NAMES = (
    "setup", "stock", "deal", "appoint", "board_out", "board_in", "meeting", "chairman_use",
    "extra_action", "chairman", "head", "privilege", "influence", "motivation", "order",
    "order_card", "turn", "event", "pay", "face_down", "action", "employee", "office",
    "consultant", "points", "bribe", "shares", "declare", "snap_seat", "snap_office",
    "snap_board", "snap_card", "end",
)  # fmt: skip
(EV_SETUP, EV_STOCK, EV_DEAL, EV_APPOINT, EV_BOARD_OUT, EV_BOARD_IN, EV_MEETING,
 EV_CHAIRMAN_USE, EV_EXTRA_ACTION, EV_CHAIRMAN, EV_HEAD, EV_PRIVILEGE, EV_INFLUENCE,
 EV_MOTIVATION, EV_ORDER, EV_ORDER_CARD, EV_TURN, EV_EVENT, EV_PAY, EV_FACE_DOWN, EV_ACTION,
 EV_EMPLOYEE, EV_OFFICE, EV_CONSULTANT, EV_POINTS, EV_BRIBE, EV_SHARES, EV_DECLARE,
 EV_SNAP_SEAT, EV_SNAP_OFFICE, EV_SNAP_BOARD, EV_SNAP_CARD, EV_END) = range(33)  # fmt: skip
EV_BONUS_CARD = -1
EV_MEETING_CARD = -2
# The standing of a seat after a Department Turn (docs/arcs.md): [EV_STANDING, game turn, seat,
# Victory Points, Pinats]; recorded only when tracing, after the event names above.
EVENT_NAMES = (*EVENT_NAMES, "standing")
EV_STANDING = len(EVENT_NAMES) - 1


# --- read-only queries ------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def office_id(division, row):
    return ROWS * division + row


@njit(cache=True, _nrt=False, forceinline=False)
def occupied(st, division):
    """Occupied offices of ``division`` (they are its rows 0 .. occupied - 1)."""
    n = 0
    while n < ROWS and st[OWNER + ROWS * division + n] >= 0:
        n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def has_vacancy(st, division):
    return st[OWNER + ROWS * division + ROWS - 1] < 0


@njit(cache=True, _nrt=False, forceinline=False)
def departments(st, seat, division):
    """``seat``'s Departments (not Main Departments); division -1: all divisions."""
    n = 0
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat and st[HEADS + office] == 1:
            if division < 0 or office // ROWS == division:
                n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def main_departments(st, seat, division):
    n = 0
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat and st[HEADS + office] == 2:
            if division < 0 or office // ROWS == division:
                n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def employees(st, seat, division):
    """``seat``'s Employees; division -1: all divisions."""
    n = 0
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat and (division < 0 or office // ROWS == division):
            n += st[EMP + office]
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def room(st, seat):
    """Free Employee places in ``seat``'s Departments and Main Departments."""
    n = 0
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat:
            n += MAX_EMPLOYEES - st[EMP + office]
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def board_members(st, seat):
    n = 0
    for chair in range(st[BOARD_N]):
        if st[BOARD + chair] == seat:
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def divisional_heads(st, seat):
    n = 0
    for division in range(N_DIVISIONS):
        if st[HEAD + division] == seat:
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def consultants(st, seat):
    n = 0
    for division in range(N_DIVISIONS):
        n += st[CONSULT + N_DIVISIONS * seat + division]
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def counsel_divisions(st, seat):
    n = 0
    for division in range(N_DIVISIONS):
        if st[CONSULT + N_DIVISIONS * seat + division] > 0:
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def share_blocks(st, seat):
    n = 0
    for size in range(1, N_SIZES + 1):
        n += st[HELD + (N_SIZES + 1) * seat + size]
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def track(st, seat, which):
    return st[TRACK + N_TRACKS * seat + which]


@njit(cache=True, _nrt=False, forceinline=False)
def competence(st, seat, which):
    """A seat's value on a competence: its track points, or its Consultants for counsel."""
    if which == COUNSEL:
        return consultants(st, seat)
    return track(st, seat, which)


@njit(cache=True, _nrt=False, forceinline=False)
def usable(st, seat, card):
    """``seat`` holds ``card`` face up and the card's power is in play (its rule parameter):
    (True, half) or (False, 0)."""
    if st[HOLDER + card] == seat and st[FACE + card] == 1 and card_on(st, card):
        return True, st[HALF + card]
    return False, 0


@njit(cache=True, _nrt=False, forceinline=False)
def card_on(st, card):
    """Privilege ``card``'s power is in play (its rule parameter, R_CARD_ON + card)."""
    return st[RULE + R_CARD_ON + card] != 0


@njit(cache=True, _nrt=False, forceinline=False)
def loses_employee(st, loser):
    """``loser`` (-1: nobody) loses an Employee for declining a bribe: the rule is in play
    (R_REFUSAL_LOSS) and it has one."""
    return loser >= 0 and st[RULE + R_REFUSAL_LOSS] != 0 and employees(st, loser, -1) > 0


@njit(cache=True, _nrt=False, forceinline=False)
def bribe_most(st, seat):
    """The most Pinats ``seat`` may offer in one bribe now: its money in whole 50,000s, and no
    more than the bribe cap (R_BRIBE_CAP, 0: none)."""
    most = st[MONEY + seat] // BRIBE_STEP * BRIBE_STEP
    cap = st[RULE + R_BRIBE_CAP]
    if cap > 0:
        most = min(most, cap // BRIBE_STEP * BRIBE_STEP)
    return most


@njit(cache=True, _nrt=False, forceinline=False)
def motivation_bonus(st, seat, card):
    """What a face-up Human Resources, Accounting or Controlling card gives ``seat`` at the
    current Motivation (extra Employees, extra Shares, extra Pinats per Department); 0 if it
    does not hold the card face up."""
    ok, half = usable(st, seat, card)
    if not ok:
        return 0
    return motivation_extra(card, half, st[MOTIVATION])


@njit(cache=True, _nrt=False, forceinline=False)
def motivation_extra(card, half, m):
    """The Human Resources, Accounting or Controlling card's table: its ``half`` at Motivation
    ``m`` gives this many extra Employees, extra Shares or extra Pinats per Department."""
    if card == CONTROLLING:
        if half == 0:
            return 0 if m >= 5 else (50_000 if m >= 3 else 100_000)
        return 100_000 if m >= 3 else (150_000 if m == 2 else 200_000)
    # Human Resources and Accounting share one table per half.
    if half == 0:
        return 0 if m >= 4 else (1 if m >= 2 else 2)
    return 1 if m >= 4 else (2 if m >= 2 else 3)


@njit(cache=True, _nrt=False, forceinline=False)
def beats(st, seat, other, which):
    """``seat`` counts as having more than ``other`` on a competence: strictly more, or (tracks
    only, not counsel) at its track's golden top space."""
    if which != COUNSEL and track(st, seat, which) >= st[TRACK_MAX + which]:
        return True
    return competence(st, seat, which) > competence(st, other, which)


@njit(cache=True, _nrt=False, forceinline=False)
def archenemy_now(st, seat):
    """The Archenemy point as the board stands: beating the named player in all 3 competences of
    the card, or (own colour) beating every other player in 2 of the 3."""
    return archenemy_with(st, seat, st[COLOUR_CARD + seat], st[COMP_OF + seat])


@njit(cache=True, _nrt=False, forceinline=False)
def archenemy_with(st, seat, enemy, card):
    """The Archenemy point of ``seat`` as the board stands if its Colour card named ``enemy`` and
    its Competence card were ``card`` (index among the cards kept at this table)."""
    players = st[PLAYERS]
    won = 0
    for k in range(3):
        which = st[COMP_CARD + 3 * card + k]
        if enemy != seat:
            if not beats(st, seat, enemy, which):
                return False
        else:
            all_beaten = True
            for other in range(players):
                if other != seat and not beats(st, seat, other, which):
                    all_beaten = False
            if all_beaten:
                won += 1
    return enemy != seat or won >= 2


@njit(cache=True, _nrt=False, forceinline=False)
def routes(st, seat):
    """Bitmask of the Victory Points ``seat`` holds (bit r: VP_ROUTES[r]); the Archenemy point
    counts once declared even if lost since."""
    mask = 0
    for which in range(N_TRACKS):
        if track(st, seat, which) >= VP_THRESHOLD[which]:
            mask |= 1 << which
    if counsel_divisions(st, seat) >= VP_THRESHOLD[COUNSEL]:
        mask |= 1 << COUNSEL
    if st[ARCH_LOCKED + seat] == 1 or archenemy_now(st, seat):
        mask |= 1 << ARCHENEMY
    return mask


@njit(cache=True, _nrt=False, forceinline=False)
def victory_points(st, seat):
    return count_bits(routes(st, seat), N_ROUTES)


@njit(cache=True, _nrt=False, forceinline=False)
def count_bits(bits, n):
    """Set bits among the lowest ``n`` of ``bits``."""
    count = 0
    for k in range(n):
        count += (bits >> k) & 1
    return count


@njit(cache=True, _nrt=False, forceinline=False)
def routes_seen(st, observer, seat):
    """The Victory Points of ``seat`` that ``observer`` can see (bitmask as ``routes``): the
    tracks and the Counsel track are public; the Archenemy point only its owner knows, until it
    declares and shows its Archenemy cards."""
    if observer == seat or st[DECLARED + seat] == 1:
        return routes(st, seat)
    return routes(st, seat) & ~(1 << ARCHENEMY)


@njit(cache=True, _nrt=False, forceinline=False)
def money_seen(st, observer, seat):
    """``seat``'s money as ``observer`` can know it (Set Up 5: a player may keep his money
    secret). Every payment is public but the amount of a bribe, which only the briber and the
    bribed player know; ``observer`` counts each accepted bribe between ``seat`` and a third
    player at MIN_BRIBE, the least a bribe can be. Its own money it knows exactly."""
    money = st[MONEY + seat]
    if observer == seat:
        return money
    for other in range(st[PLAYERS]):
        if other == seat or other == observer:
            continue
        given = MAX_PLAYERS * other + seat
        taken = MAX_PLAYERS * seat + other
        money -= st[BRIBE_PAID + given] - MIN_BRIBE * st[BRIBE_COUNT + given]
        money += st[BRIBE_PAID + taken] - MIN_BRIBE * st[BRIBE_COUNT + taken]
    return money


@njit(cache=True, _nrt=False, forceinline=False)
def units(st, seat, per):
    """How many of an event effect's ``per`` items ``seat`` has (EFFECT_PER)."""
    if per == PER_FLAT:
        return 1
    if per == PER_DEPARTMENT:
        return departments(st, seat, -1)
    if per == PER_MAIN:
        return main_departments(st, seat, -1)
    if per == PER_BOARD:
        return board_members(st, seat)
    if per == PER_EMPLOYEE:
        return employees(st, seat, -1)
    if per == PER_BLOCK:
        return share_blocks(st, seat)
    if per == PER_CONSULTANT:
        return consultants(st, seat)
    return divisional_heads(st, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def matches(st, seat, who, division, money, richest, poorest):
    """An event effect's ``who`` includes ``seat``, whose money is ``money`` (the most and the
    least of all players': ``richest``, ``poorest``)."""
    if who == WHO_ALL:
        return True
    if who == WHO_CHAIRMAN:
        return st[HEAD + CHAIRMAN] == seat
    if who == WHO_HEAD:
        return st[HEAD + division] == seat
    if who == WHO_BOARD:
        return board_members(st, seat) > 0
    if who == WHO_RICHEST:
        return money == richest
    return money == poorest


@njit(cache=True, _nrt=False, forceinline=False)
def price(st, size):
    return st[PRICE + size]


@njit(cache=True, _nrt=False, forceinline=False)
def vacancies(st, division):
    return ROWS - occupied(st, division)


@njit(cache=True, _nrt=False, forceinline=False)
def any_vacancy(st):
    for division in range(N_DIVISIONS):
        if has_vacancy(st, division):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def offices_of(st, seat):
    n = 0
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat:
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def share_bonus(st, seat):
    """Extra shares the Accounting card gives ``seat`` on a purchase now (0 without it)."""
    return motivation_bonus(st, seat, ACCOUNTING)


@njit(cache=True, _nrt=False, forceinline=False)
def share_option_ok(st, seat, paid, received):
    """Paying for a block of ``paid`` shares and receiving one of ``received`` is allowed: the
    received block is in stock and affordable, and either the same size or exactly the Accounting
    bonus larger (then the paid-for block need not exist, and 0 shares cost 0)."""
    if not (0 <= paid <= N_SIZES and 1 <= received <= N_SIZES):
        return False
    if st[STOCK + received] <= 0 or st[MONEY + seat] < st[PRICE + paid]:
        return False
    if received == paid:
        return True
    bonus = share_bonus(st, seat)
    return bonus > 0 and received == paid + bonus


@njit(cache=True, _nrt=False, forceinline=False)
def can_buy_shares(st, seat):
    for paid in range(N_SIZES + 1):
        for received in range(1, N_SIZES + 1):
            if share_option_ok(st, seat, paid, received):
                return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def bribe_target_exists(st, seat):
    for card in range(N_PRIVILEGES):
        if st[HOLDER + card] != seat:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def can_move(st, seat):
    """Some office of ``seat`` has another division with a vacant office to move to."""
    for office in range(N_OFFICES):
        if st[OWNER + office] == seat:
            for division in range(N_DIVISIONS):
                if division != office // ROWS and has_vacancy(st, division):
                    return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def action_possible(st, seat, kind):
    """``kind`` has at least one legal choice for ``seat`` now (pass always has)."""
    money = st[MONEY + seat]
    if kind == A_HIRE:
        return room(st, seat) > 0
    if kind == A_CREATE_TWO:
        free = 0
        for division in range(N_DIVISIONS):
            free += vacancies(st, division)
        return employees(st, seat, -1) >= 4 and free >= 2
    if kind == A_CREATE_ONE:
        return any_vacancy(st)
    if kind == A_MOVE:
        return can_move(st, seat)
    if kind == A_MERGE:
        return departments(st, seat, -1) >= 2
    if kind == A_RESIGN:
        return divisional_heads(st, seat) > 0
    if kind == A_BRIBE:
        allowed = st[RULE + R_BRIBES_ALLOWED] != 0
        return allowed and bribe_most(st, seat) >= MIN_BRIBE and bribe_target_exists(st, seat)
    if kind == A_INFLUENCE:
        return employees(st, seat, -1) >= st[RULE + R_INFLUENCE_COST]
    if kind == A_BUY_MAIN:
        return money >= st[RULE + R_MAIN_PRICE] and any_vacancy(st)
    if kind == A_BUY_CONSULTANT:
        return money >= st[RULE + R_CONSULTANT_PRICE]
    if kind == A_BUY_SHARES:
        return can_buy_shares(st, seat)
    if kind == A_DEVELOPMENT:
        return usable(st, seat, DEVELOPMENT)[0] and room(st, seat) > 0
    if kind == A_LEGAL:
        return usable(st, seat, LEGAL)[0] and employees(st, seat, -1) > 0
    return kind == A_PASS
