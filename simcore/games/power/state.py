"""POWER's codes, state layout and read-only state queries, shared by kernel and strategies.

Kept apart from the kernel so that ``strategies/power.py`` can use them while the kernel imports
the strategies (no import cycle).

A game's whole mutable state is one int64 array ``st`` (one array, not several, because every
array a numba function touches costs reference counting on each call). Its fields, for up to
MAX_PLAYERS seats: the Safe, the deck's count of each character, each seat's coins, hand
(character codes) and down flags (1 while a card is a face-down influence, 0 once revealed),
per-seat statistics, the exchange scratch area, each seat's standing claims (public memory the
strategies read), the challenge round's face-up counts, the trace length, where the game stands
between decisions, and the counts every decision reads (influence, seats in, face-up cards),
kept by their one writer instead of recounted.
"""

import numpy as np

from simcore.kernel.intrinsics import ix, lowest_bit, plain_njit

CHARACTERS = ("Banker", "Lawyer", "CEO", "Journalist", "Politician")
BANKER, LAWYER, CEO, JOURNALIST, POLITICIAN = range(5)
N_CHARACTERS = 5
NO_CARD = -1
MAX_COPIES = 10  # the largest copies_per_character a rule set may give

ACTIONS = ("income", "aid", "overthrow", "bank", "fire", "steal", "exchange")
INCOME, AID, OVERTHROW, BANK, FIRE, STEAL, EXCHANGE = range(7)
N_ACTIONS = 7
# The character an action claims (-1: a general action anyone may take).
ACTION_CLAIM = np.array([-1, -1, -1, BANKER, CEO, POLITICIAN, JOURNALIST], dtype=np.int64)
# Actions aimed at another player.
ACTION_TARGETED = np.array([False, False, True, False, True, True, False])

# Rule parameter positions in the encoded rules vector (order of simcore.games.power.game.RULES).
R_STARTING_COINS = 0
R_SAFE_SIZE = 1
R_OVERTHROW_COST = 2
R_FORCED_OVERTHROW_AT = 3
R_CEO_COST = 4
R_BANKER_TAKE = 5
R_INCOME = 6
R_AID = 7
R_STEAL = 8
R_REFUND_FAILED_ACTION = 9
R_COPIES = 10
R_ELIMINATED_COINS_TO_SAFE = 11
R_CHALLENGE_ORDER = 12
R_MAX_TURNS = 13
# The house rules of issue 42 (docs/games/power.md, "House rules"): each character's ability and
# each block on or off, and what a lost challenge costs.
R_BANKER_TAKES = 14
R_CEO_FIRES = 15
R_POLITICIAN_STEALS = 16
R_JOURNALIST_EXCHANGES = 17
R_BANKER_BLOCKS_AID = 18
R_LAWYER_BLOCKS_FIRE = 19
R_POLITICIAN_BLOCKS_STEAL = 20
R_JOURNALIST_BLOCKS_STEAL = 21
R_CAUGHT_BLUFFER_LOSES = 22
R_FAILED_CHALLENGER_LOSES = 23
R_PROVEN_CARD_REPLACED = 24
R_AID_ALLOWED = 25
R_EXCHANGE_DRAWS = 26
R_BLOCKS_CHALLENGEABLE = 27

CHALLENGE_ORDER_CLOCKWISE = 0
CHALLENGE_ORDER_RANDOM = 1

MAX_PLAYERS = 6
N_SEAT_STATS = 10
SAFE = 0
DECK = 1  # st[DECK + character]: copies of that character in the deck
COINS = DECK + N_CHARACTERS  # st[COINS + seat]
HAND = COINS + MAX_PLAYERS  # st[HAND + 2 * seat + slot]: character code
DOWN = HAND + 2 * MAX_PLAYERS  # st[DOWN + 2 * seat + slot]: 1 face down, 0 revealed
STATS = DOWN + 2 * MAX_PLAYERS  # st[STATS + N_SEAT_STATS * seat + stat]
OPTIONS = STATS + N_SEAT_STATS * MAX_PLAYERS  # exchange: the cards to choose from
KEEP = OPTIONS + 4  # exchange: 1 for each option kept
# st[CLAIMS + seat]: bit c is set while the seat's public claim of character c stands: it claimed
# c (for an action or a block) and nobody challenged; the bit clears when the seat is caught
# lacking c, shows c in a proof (the card goes back to the deck) or reveals a c. An exchange
# leaves it: the table goes on believing the claim. Everyone saw the claims, so this is public
# memory: what a player at the table remembers.
CLAIMS = KEEP + 4
# During a challenge round (written by the kernel when the round opens, read by the strategies'
# challenge decisions): the cards lying face up, and the face-up copies of the claimed character.
# Public, and the same for every player asked in the round, so it is counted once per round
# rather than once per player asked.
FACE_UP = CLAIMS + MAX_PLAYERS
FACE_UP_CLAIMED = FACE_UP + 1
TRACE_LEN = FACE_UP_CLAIMED + 1
# Where the game stands between decisions (the decision-point protocol, docs/protocol.md): the
# pending decision, who makes it, the rules' next step, and the turn in progress. All public.
P_PLAYERS = TRACE_LEN + 1
P_DECISION = P_PLAYERS + 1  # the kind of decision pending (D_*), D_NONE while the rules run
P_SEAT = P_DECISION + 1  # the seat deciding, -1 once the game is over
P_STEP = P_SEAT + 1  # the rules' next step (simcore/games/power/rules.py, S_*)
P_TURN = P_STEP + 1  # turns played
P_ACTOR = P_TURN + 1  # whose turn it is
P_ACTION = P_ACTOR + 1
P_TARGET = P_ACTION + 1
P_PAID = P_TARGET + 1
P_FORCED = P_PAID + 1  # the turn must overthrow
P_CLAIMANT = P_FORCED + 1  # the challenge round's claimant, character and kind (ROUND_*)
P_CLAIM = P_CLAIMANT + 1
P_ROUND = P_CLAIM + 1
P_OUTCOME = P_ROUND + 1  # how the last round ended (CLAIM_*)
P_ASK = P_OUTCOME + 1  # the next seat to ask (challenges) or the last offered (blocks)
P_ASK_LEFT = P_ASK + 1  # seats still to ask or offer
P_LOSER = P_ASK_LEFT + 1  # the seat losing an influence, and the step after it
P_AFTER_LOSE = P_LOSER + 1
P_N_OPTIONS = P_AFTER_LOSE + 1  # exchange: cards at st[OPTIONS:], of which to keep P_N_KEEP
P_N_KEEP = P_N_OPTIONS + 1
P_OVER = P_N_KEEP + 1  # 1 once the game has ended (by the rules or the turn cap)
P_WINNER = P_OVER + 1
P_TRUNCATED = P_WINNER + 1
P_DECISIONS = P_TRUNCATED + 1  # decisions answered so far (benchmarks; not in infoset keys)
# What nearly every decision reads, kept up to date by its one writer (``deal`` and ``reveal`` in
# simcore/games/power/rules.py) instead of recounted from the cards per decision: each seat's
# influence
# (face-down cards), the seats still in as a bit mask, and the face-up cards, per character and
# in all. All public. A state built by hand (rule tests) gets them from ``recount``, and
# ``recount`` is also how the tests check them after every transition.
INFLUENCE = P_DECISIONS + 1  # st[INFLUENCE + seat]
IN_GAME = INFLUENCE + MAX_PLAYERS  # bit s is set while seat s has influence
SHOWN = IN_GAME + 1  # st[SHOWN + character]: face-up copies of that character
SHOWN_ALL = SHOWN + N_CHARACTERS  # face-up cards in all
STATE_SIZE = SHOWN_ALL + 1

# Decision kinds (st[P_DECISION]) and their options (move codes, docs/protocol.md).
D_NONE = -1
D_ACTION = 0  # the turn's action and target: action_move(action, target)
D_CHALLENGE = 1  # challenge the standing claim: 1, or let it stand: 0
D_BLOCK = 2  # block with character c: c + 1, or no block: 0
D_LOSE = 3  # the slot (0, 1) of the card to turn face up
D_EXCHANGE = 4  # the bit mask over st[OPTIONS + i] of the cards to keep
DECISION_KINDS = ("action", "challenge", "block", "lose", "exchange")
# The most options any decision has: 4 untargeted actions and 3 targeted ones at each opponent.
MAX_MOVES = 4 + 3 * (MAX_PLAYERS - 1)
# Every move code is below this (targeted actions at the last seat are the largest).
MOVE_CODES = N_ACTIONS * (MAX_PLAYERS + 1)

# Challenge rounds: whose claim is challenged, and how the round ended.
ROUND_ACTION = 0
ROUND_BLOCK = 1
ROUND_ALONE = 2  # a round opened by itself (rule tests): the rules stop when it ends
CLAIM_UNCHALLENGED = 0
CLAIM_PROVEN = 1  # the challenger lost an influence
CLAIM_FAILED = 2  # the claimant lost one


@plain_njit(forceinline=True)
def action_move(action, target):
    """The move code of ``action`` at ``target`` (-1: not aimed at anyone)."""
    return action + N_ACTIONS * (target + 1)


@plain_njit(forceinline=True)
def move_action(move):
    return move % N_ACTIONS


@plain_njit(forceinline=True)
def move_target(move):
    return move // N_ACTIONS - 1


@plain_njit(forceinline=True)
def card(st, seat, slot):
    return st[ix(HAND + 2 * seat + slot)]


@plain_njit(forceinline=True)
def is_down(st, seat, slot):
    return st[ix(DOWN + 2 * seat + slot)] == 1


@plain_njit(forceinline=True)
def influence(st, seat):
    return st[ix(INFLUENCE + seat)]


@plain_njit(forceinline=True)
def holds(st, seat, character):
    # Bitwise, not ``and``/``or``: no branches to mispredict on what a hand holds.
    return (is_down(st, seat, 0) & (card(st, seat, 0) == character)) | (
        is_down(st, seat, 1) & (card(st, seat, 1) == character)
    )


@plain_njit(forceinline=True)
def claims_any(st, seat, characters):
    """Whether a standing claim of ``seat`` names one of ``characters`` (a bit mask)."""
    return (st[ix(CLAIMS + seat)] & characters) != 0


@plain_njit(forceinline=True)
def seat_after(seat, players):
    """The seat to the left of ``seat`` (clockwise), without a division."""
    seat += 1
    return 0 if seat == players else seat


@plain_njit(forceinline=True)
def next_alive(st, seat):
    """The next player clockwise from ``seat`` who still has influence (``seat`` itself when it is
    the only one, or when nobody is left)."""
    in_game = st[IN_GAME]
    after = in_game & -(np.int64(2) << seat)  # the seats after ``seat`` that are in
    if after != 0:
        return lowest_bit(after)
    if in_game != 0:
        return lowest_bit(in_game)
    return seat


@plain_njit(forceinline=True)
def two_alive(st):
    """Whether at least two players still have influence (the game goes on)."""
    in_game = st[IN_GAME]
    return (in_game & (in_game - 1)) != 0


@plain_njit()
def recount(st, players):
    """Set the kept counts (``INFLUENCE``, ``IN_GAME``, ``SHOWN``, ``SHOWN_ALL``) from the cards:
    for a state built by hand. The rules keep them up to date from ``deal`` on."""
    st[IN_GAME] = 0
    for character in range(N_CHARACTERS):
        st[SHOWN + character] = 0
    st[SHOWN_ALL] = 0
    for seat in range(MAX_PLAYERS):
        st[INFLUENCE + seat] = 0
        if seat >= players:
            continue
        for slot in range(2):
            if st[DOWN + 2 * seat + slot] == 1:
                st[INFLUENCE + seat] += 1
            else:
                st[SHOWN + st[HAND + 2 * seat + slot]] += 1
                st[SHOWN_ALL] += 1
        if st[INFLUENCE + seat] > 0:
            st[IN_GAME] |= 1 << seat


# Trace events: one int64 row of TRACE_WIDTH per event, [event, fields...]; see docs/games/power.md.
TRACE_WIDTH = 8
EV_DEAL = 0  # seat, card0, card1
EV_TURN = 1  # seat, coins at start, forced overthrow (0/1)
EV_ACTION = 2  # seat, action, target (-1), coins paid to the Safe
EV_CHALLENGE = 3  # challenger, claimant, character, proven (0/1)
EV_BLOCK = 4  # blocker, character, actor
EV_REPLACE = 5  # seat, slot, card shown and shuffled back, card drawn
EV_LOSE = 6  # seat, slot, card revealed
EV_EXCHANGE = 7  # seat, cards drawn, drawn card 0, drawn card 1, new card in slot 0, in slot 1
EV_GAIN = 8  # seat, from (-1 = Safe, else seat), amount
EV_REFUND = 9  # seat, amount returned from the Safe
EV_ELIMINATED = 10  # seat, coins returned to the Safe
EV_SNAPSHOT = 11  # seat, coins, card0, card1, down0, down1, Safe   (after every turn)
EV_END = 12  # winner (-1), turns, truncated
EVENT_NAMES = (
    "deal", "turn", "action", "challenge", "block", "replace", "lose", "exchange",
    "gain", "refund", "eliminated", "snapshot", "end",
)  # fmt: skip
# The standing of every seat after a turn (docs/arcs.md): [EV_STANDING, turn, seat, influence,
# Dollars]. It only reads the state, and only when tracing.
EVENT_NAMES = (*EVENT_NAMES, "standing")
EV_STANDING = len(EVENT_NAMES) - 1
