"""POWER's codes, state layout and read-only state queries, shared by kernel and strategies.

Kept apart from the kernel so that ``strategies/power.py`` can use them while the kernel imports
the strategies (no import cycle).

A game's whole mutable state is one int64 array ``st`` (one array, not several, because every
array a numba function touches costs reference counting on each call). Its fields, for up to
MAX_PLAYERS seats: the Safe, the deck's count of each character, each seat's coins, hand
(character codes) and down flags (1 while a card is a face-down influence, 0 once revealed),
per-seat statistics, the exchange scratch area, each seat's standing claims (public memory the
strategies read) and the trace length.
"""

import numpy as np
from numba import njit

CHARACTERS = ("Banker", "Lawyer", "CEO", "Journalist", "Politician")
BANKER, LAWYER, CEO, JOURNALIST, POLITICIAN = range(5)
N_CHARACTERS = 5
NO_CARD = -1

ACTIONS = ("income", "aid", "overthrow", "bank", "fire", "steal", "exchange")
INCOME, AID, OVERTHROW, BANK, FIRE, STEAL, EXCHANGE = range(7)
N_ACTIONS = 7
# The character an action claims (-1: a general action anyone may take).
ACTION_CLAIM = np.array([-1, -1, -1, BANKER, CEO, POLITICIAN, JOURNALIST], dtype=np.int64)
# Actions aimed at another player.
ACTION_TARGETED = np.array([False, False, True, False, True, True, False])

# Rule parameter positions in the encoded rules vector (order of simcore.power.RULES).
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
TRACE_LEN = CLAIMS + MAX_PLAYERS
STATE_SIZE = TRACE_LEN + 1


@njit(cache=True, _nrt=False)
def card(st, seat, slot):
    return st[HAND + 2 * seat + slot]


@njit(cache=True, _nrt=False)
def is_down(st, seat, slot):
    return st[DOWN + 2 * seat + slot] == 1


@njit(cache=True, _nrt=False)
def influence(st, seat):
    return st[DOWN + 2 * seat] + st[DOWN + 2 * seat + 1]


@njit(cache=True, _nrt=False)
def holds(st, seat, character):
    return (is_down(st, seat, 0) and card(st, seat, 0) == character) or (
        is_down(st, seat, 1) and card(st, seat, 1) == character
    )


@njit(cache=True, _nrt=False)
def claims_any(st, seat, characters):
    """Whether a standing claim of ``seat`` names one of ``characters`` (a bit mask)."""
    return (st[CLAIMS + seat] & characters) != 0


@njit(cache=True, _nrt=False)
def revealed_count(st, players, character):
    """Copies of ``character`` lying face up in front of the players: public knowledge."""
    n = 0
    for seat in range(players):
        for slot in range(2):
            if not is_down(st, seat, slot) and card(st, seat, slot) == character:
                n += 1
    return n


@njit(cache=True, _nrt=False)
def next_alive(st, players, seat):
    """The next player clockwise from ``seat`` who still has influence."""
    for step in range(1, players + 1):
        other = (seat + step) % players
        if influence(st, other) > 0:
            return other
    return seat


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
