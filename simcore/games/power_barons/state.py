"""Power Barons' codes, state layout, trace events and read-only state queries.

Kept apart from the kernel so that the strategies (``strategies/power_barons/``) can use them
while the kernel imports the strategies (no import cycle).

A game's whole state is one int64 array ``st`` (one array, not several, because every array a
numba function touches costs reference counting on each call). It has two parts:

* the **table**, copied at set-up from the prepared components (``prepare`` of
  simcore/games/power_barons/game.py) and constant during a game: the number of players, cards
  and board spaces, each card's colour and value, each space's kind and territory, and the deck's
  count and total value per colour;
* the **play** state: each card's location (``LOC``: every card is in exactly one place, so cards
  are conserved by construction) with, kept in step by ``relocate``, each location's count,
  credits and list of cards (queries read a hand, not the deck; a bank keeps a set of card ids
  instead), and each hand's count and credits per colour and its cards ranked (a decision reads
  the few cards it needs, not the whole hand),
  the pawns, each seat's Power Base supply and the bases on the board, the challenge in
  progress, game and per-seat statistics, the purchase scratch area and the trace length.

Card ids are positions in the components file's deck (colours in COLOURS order, then the
Political Influence cards), 0 .. n_cards-1. Seat k owns territory k.
"""

import numpy as np
from numba import njit

from simcore.kernel.intrinsics import inline_njit, ix

COLOURS = ("Transportation", "Communications", "Finance", "Energy", "Political Influence")
TRANSPORTATION, COMMUNICATIONS, FINANCE, ENERGY, PI = range(5)
N_TYPES = 4  # Power Card colours = Power Base types (PI cards are colour PI = 4)
N_COLOURS = 5

TERRITORIES = ("Americas", "Europe", "Africa", "Asia")
N_TERRITORIES = 4

SPACES = (
    "investments_pay_off",
    "take_a_power_card",
    "take_political_influence",
    "spy_and_steal",
    "remove_a_power_base",
    "limited_challenge",
)
INVESTMENTS, TAKE_POWER, TAKE_PI, SPY, REMOVE, LIMITED = range(6)
BLANK = len(SPACES)  # a space whose directions are switched off (its rule parameter): nothing

# Card locations: st[LOC + card].
DRAWPILE = 0
DISCARD = 1
HAND = 2  # + seat
BANK = 6  # + seat
PLAYED = 10  # + seat: on the table in the challenge in progress
N_LOCATIONS = 14

# Why a card moved (field f of EV_CARD).
MOVE_REASONS = (
    "deal", "draw", "refill", "bank", "give", "steal", "invest", "play", "won", "return", "pay",
    "discard",
)  # fmt: skip
(M_DEAL, M_DRAW, M_REFILL, M_BANK, M_GIVE, M_STEAL, M_INVEST, M_PLAY, M_WON, M_RETURN,
 M_PAY, M_DISCARD) = range(12)  # fmt: skip

# Rule parameter positions in the prepared vector (order of RULES in
# simcore/games/power_barons/game.py); the components tables follow the rules (P_ offsets).
R_COMPONENTS = 0  # a path: its slot is 0, the file's contents follow as tables
R_HAND_SIZE = 1
R_BASE_COST = 2
R_DECLARED_MULTIPLIER = 3
R_MAX_TURNS = 4
R_LOSER_REFILL = 5  # a LOSER_REFILLS index
R_CHALLENGE_ROUNDS = 6
R_SURRENDER = 7  # a SURRENDERS index
R_SURRENDER_AFTER_BOTH_PLAYED = 8
R_WINNER_BANKS = 9
R_POLITICAL_INFLUENCE = 10
R_PI_CARDS_PER_TURN = 11
R_BASES_BOUGHT_PER_TURN = 12
R_TYPES_TO_WIN_3P = 13
R_TYPES_TO_WIN_4P = 14
R_BASES_PER_TYPE_3P = 15
R_BASES_PER_TYPE_4P = 16
R_TURN_DRAWS = 17
R_SPACE_ON = 18  # + space kind (SPACES order): whether that board space's directions apply
R_TIES_GO_TO = R_SPACE_ON + 6  # a TIES_GO_TO index
N_RULES = R_TIES_GO_TO + 1
P_N_CARDS = N_RULES
P_N_SPACES = N_RULES + 1
# The deck's mean card value per Power Card colour (0 for a colour without cards), prepared once
# rather than divided at every surrender option: the same float64 division.
P_DECK_MEAN = N_RULES + 2
P_TABLES = P_DECK_MEAN + N_TYPES  # colours[n_cards], values[n_cards], kinds[...], territories[...]

MAX_PLAYERS = 4
MAX_CARDS = 200
MAX_SPACES = 100
MAX_CARD_VALUE = 100
MAX_BASE_COST = 1000
MAX_HAND_SIZE = 12

# The choices of the rule parameters (their index reaches the kernel; index 0 is the rulebook's).
LOSER_REFILLS = ("replace_lost", "restore_hands")
REFILL_RESTORE = LOSER_REFILLS.index("restore_hands")
# In order of fewer voluntary surrender options after a round: 2, 1, 0 (surrender_options).
SURRENDERS = ("lower_then_higher", "lower_total_only", "none")
TIES_GO_TO = ("defender", "attacker")  # the side (1, 0) that wins a tie: 1 - the index

# --- st layout --------------------------------------------------------------------------------
# The table (constant during a game).
N_CARDS = 0
N_SPACES = 1
PLAYERS = 2
COLOUR = 3  # st[COLOUR + card]: 0-3 Power Card colour, 4 Political Influence
VALUE = COLOUR + MAX_CARDS  # st[VALUE + card]: credits
SPACE_KIND = VALUE + MAX_CARDS  # st[SPACE_KIND + space]
SPACE_TERRITORY = SPACE_KIND + MAX_SPACES  # st[SPACE_TERRITORY + space]: -1 unless investments
DECK_COUNT = SPACE_TERRITORY + MAX_SPACES  # st[DECK_COUNT + colour]: cards of that colour
DECK_TOTAL = DECK_COUNT + N_COLOURS  # st[DECK_TOTAL + colour]: their credits
# pi_cards_per_turn, copied from the rules: infoset_key (which has no rules) needs to know
# whether the count of PI cards played in a turn can limit what a side may still play.
PI_PER_TURN = DECK_TOTAL + N_COLOURS
# types_to_win_3p or _4p, copied from the rules: set_base, which keeps PROGRESS, has no rules.
TYPES_NEEDED = PI_PER_TURN + 1
# The side winning a tie (ties_go_to: 1 the defender, 0 the attacker), copied from the rules:
# behind_by, which every comparison of totals asks, has no rules.
TIE_SIDE = TYPES_NEEDED + 1
# The play state.
LOC = TIE_SIDE + 1  # st[LOC + card]: location code
# Kept in step with LOC by relocate, so that a query reads one location's cards, not the deck:
COUNT_AT = LOC + MAX_CARDS  # st[COUNT_AT + location]: cards there
CREDITS_AT = COUNT_AT + N_LOCATIONS  # st[CREDITS_AT + location]: their face value
# st[MEMBER + MAX_CARDS * location + i]: its i-th card, and st[SLOT + card]: the card's i in its
# location, for every location but the banks (see BANKED).
MEMBER = CREDITS_AT + N_LOCATIONS
SLOT = MEMBER + MAX_CARDS * N_LOCATIONS
# st[COLOUR_COUNT_AT + N_COLOURS * location + colour] and st[COLOUR_CREDITS_AT + ...]: the cards of
# that colour there and their face value, kept for the hands only (no decision asks about the
# colours of another place, and every card move would pay for them).
COLOUR_COUNT_AT = SLOT + MAX_CARDS
COLOUR_CREDITS_AT = COLOUR_COUNT_AT + N_COLOURS * N_LOCATIONS
# st[RANKED + RUN * (N_COLOURS * seat + colour) + i], i < the colour's count in the hand: the
# seat's cards of that colour from the highest down (the order of outranks), so that a colour's
# highest and lowest cards are the ends of its run. A hand holds at most hand_size cards plus
# the draws of one INVESTMENTS PAY OFF (one per base there) before it banks back down.
RUN = MAX_HAND_SIZE + N_TYPES
RANKED = COLOUR_CREDITS_AT + N_COLOURS * N_LOCATIONS
# A bank is a set of card ids, not a list: st[BANKED + BANK_WORDS * seat + w] has bit b set when
# card SET_BITS * w + b is in the seat's bank. Nothing reads a bank's cards in list order (pay
# shuffles them): the set lists them without a scan of the deck, and a card
# goes in or out of a bank by one bit instead of a list's gap filling (1/3 of all card moves).
# 32 of the int64's bits, so that a set stays a positive number (plain Python runs the same code).
SET_BITS = 32
BANK_WORDS = (MAX_CARDS + SET_BITS - 1) // SET_BITS
BANKED = RANKED + RUN * N_COLOURS * MAX_PLAYERS
PAWN = BANKED + BANK_WORDS * MAX_PLAYERS  # st[PAWN + seat]: board space
SUPPLY = PAWN + MAX_PLAYERS  # st[SUPPLY + N_TYPES * seat + type]: bases not on the board
BASES = SUPPLY + N_TYPES * MAX_PLAYERS  # st[BASES + 16 * owner + 4 * territory + type]: 0/1
# Counts of BASES kept in step by set_base (its only writer), because the strategies ask for a
# seat's bases in a territory or on the board, and who is ahead, many times a turn and bases move
# rarely:
BASES_IN = BASES + MAX_PLAYERS * N_TERRITORIES * N_TYPES  # st[BASES_IN + 4 * owner + territory]
ON_BOARD = BASES_IN + MAX_PLAYERS * N_TERRITORIES  # st[ON_BOARD + owner]
PROGRESS = ON_BOARD + MAX_PLAYERS  # st[PROGRESS + owner]: see progress
# The challenge in progress.
CH_ATTACKER = PROGRESS + MAX_PLAYERS
CH_DEFENDER = CH_ATTACKER + 1
CH_DECLARED = CH_ATTACKER + 2  # declared Power Base type: its colour counts multiplied
CH_LIMITED = CH_ATTACKER + 3  # 1 on a Limited Challenge (no Political Influence round)
CH_FLUSH = CH_ATTACKER + 4  # 1 when the attacker means to lose (strategy hint 3)
CH_ROUND = CH_ATTACKER + 5  # 0-3 Power Card rounds, 4 the Political Influence round
CH_DONE = CH_ATTACKER + 6  # bit c set once colour c has had its round
CH_TOTAL = CH_ATTACKER + 7  # + 0 attacker, + 1 defender: credits played (multiplied)
CH_PLAYED = CH_ATTACKER + 9  # + 0 attacker, + 1 defender: Power Cards played
# Game statistics (the game's result columns).
RESHUFFLES = CH_ATTACKER + 11
EMPTY_DRAWS = RESHUFFLES + 1
N_GAME_STATS = 2
STATS = RESHUFFLES + N_GAME_STATS  # st[STATS + N_SEAT_STATS * seat + stat]
N_SEAT_STATS = 15
TRACE_LEN = STATS + N_SEAT_STATS * MAX_PLAYERS
# The decision-point protocol (docs/protocol.md, simcore/games/power_barons/rules.py): the pending
# decision and its seat, the rules' next step, and where the turn stands between decisions. All
# public: part of every seat's information set.
P_DECISION = TRACE_LEN + 1  # D_* below
P_SEAT = P_DECISION + 1  # the deciding seat; -1 once the game is over
P_STEP = P_DECISION + 2  # the rules' next step (S_* of simcore/games/power_barons/rules.py)
P_ACTOR = P_DECISION + 3  # whose turn it is
P_TURN = P_DECISION + 4  # turns completed
P_OVER = P_DECISION + 5  # 1 once the game is over
P_WINNER = P_DECISION + 6  # the winner, -1 while none (or cut off by the turn cap)
P_TRUNCATED = P_DECISION + 7  # 1 when the turn cap ended the game
P_DECISIONS = P_DECISION + 8  # decisions answered so far
P_RESTORE = P_DECISION + 9  # the seat restoring its hand to hand_size
P_AFTER = P_DECISION + 10  # the step after that restore
P_SPACE = P_DECISION + 11  # the kind of the space the actor landed on
P_TERRITORY = P_DECISION + 12  # INVESTMENTS PAY OFF: the territory paying
P_INVEST_K = P_DECISION + 13  # ... and the next seat (clockwise from its owner) to be paid
P_VICTIM = P_DECISION + 14  # TAKE / SPY AND STEAL: the opponent asked
P_ASKED = P_DECISION + 15  # ... the colour asked for (PI for political influence, -1 spy)
P_LEAD_COLOUR = P_DECISION + 16  # the round's colour (led or called out)
P_LEAD = P_DECISION + 17  # the attacker's card this round, -1 when it called the colour out
P_OPTION = P_DECISION + 18  # surrender options of this round already declined (0, 1)
P_SIDE = P_DECISION + 19  # Political Influence round: the side (0 attacker, 1 defender) to act
P_LOSER = P_DECISION + 20  # the challenge's loser once decided
P_HAND_BEFORE = P_DECISION + 21  # the attacker's hand value when it challenged (flush stats)
P_BOUGHT = P_DECISION + 22  # Power Bases bought this turn (bases_bought_per_turn)
P_PI_PLAYED = P_DECISION + 23  # PI cards the side to act played in its turn (pi_cards_per_turn)
N_PROTOCOL = 24
# Scratch areas, written before they are read (set-up does not clear them).
SCRATCH = P_DECISION + N_PROTOCOL
# Purchase scratch (``pay`` of simcore/games/power_barons/actions.py): the bank's cards shuffled
# (st[PAY_CARDS + k]), and the totals reached before the first card and after each as bitsets of
# 64-bit words (the int64 entries hold the bit patterns; pay shifts bits between words as
# uint64): total s is reached after k cards when bit s % 64 of
# st[PAY_REACHED + words * k + s // 64] is set, ``words`` (up to PAY_WORDS) being what the price
# needs.
WORD_BITS = 64
PAY_WORDS = (MAX_BASE_COST + MAX_CARD_VALUE + WORD_BITS - 1) // WORD_BITS
PAY_CARDS = SCRATCH  # st[PAY_CARDS + k]
PAY_REACHED = PAY_CARDS + MAX_CARDS
STATE_SIZE = PAY_REACHED + PAY_WORDS * (MAX_CARDS + 1)

# --- decisions (the protocol's P_DECISION) and their move codes ---------------------------------
# docs/games/power-barons.md, "Decision points", has the table. A card is its id; MOVE_STOP and
# MOVE_CALL_OUT lie above every card id.
D_NONE = 0
D_BANK = 1  # a hand over hand_size banks a card: the card
D_TAKE = 2  # TAKE / SPY AND STEAL: victim + MAX_PLAYERS * colour asked (0 unless TAKE A POWER CARD)
D_GIVE = 3  # the victim hands over a card of the asked colour: the card
D_STEAL = 4  # SPY AND STEAL, shown the victim's hand: the card
D_REMOVE = 5  # REMOVE A POWER BASE: 16 * owner + 4 * territory + type
D_CHALLENGE = 6  # defender + MAX_PLAYERS * declared type + 16 * flush (the attacker's intent)
D_LEAD = 7  # the attacker's card, or MOVE_CALL_OUT + colour when it holds no new colour
D_FOLLOW = 8  # the defender's card of the round's colour
D_SURRENDER = 9  # 0 play on, 1 surrender
D_PI = 10  # a Political Influence card to play, or MOVE_STOP once winning
D_BUY = 11  # N_TYPES * territory + type
N_DECISIONS = 12
DECISION_KINDS = (
    "none", "bank", "take", "give", "steal", "remove", "challenge", "lead", "follow",
    "surrender", "pi", "buy",
)  # fmt: skip
MOVE_STOP = MAX_CARDS
MOVE_CALL_OUT = MAX_CARDS + 1
# Every move code is below this (calling out the last colour is the largest).
MOVE_CODES = MOVE_CALL_OUT + N_TYPES
# The most options of one decision: REMOVE A POWER BASE with 3 opponents' 12 bases each.
MAX_MOVES = 3 * 12

# --- trace events -----------------------------------------------------------------------------
# One int64 row of TRACE_WIDTH per event: [event, a, b, c, d, e, f, g]; unused fields are 0.
# docs/games/power-barons.md ("Trace format") is the full description.
TRACE_WIDTH = 8
EV_SETUP = 0  # seat, territory, pawn space, bases of each type in its supply
EV_CARD = 1  # card, colour, value, from location, to location, reason (MOVE_REASONS)
EV_RESHUFFLE = 2  # cards turned from the discard pile into the new drawpile
EV_TURN = 3  # seat, pawn space, cards in hand, bank credits
EV_MOVE = 4  # seat, die 1, die 2, from space, to space, space kind, space territory (-1)
EV_INVEST = 5  # territory, owner (-1 if nobody owns it)
EV_TAKE = 6  # seat, victim, colour asked (SPY: -1), card taken (-1: none), space kind
EV_REMOVE = 7  # seat, owner, territory, type (owner -1: no opponent base on the board)
EV_CHALLENGE = 8  # attacker, defender, declared type, limited, flush, attacker's hand value
EV_ROUND = 9  # round, colour, attacker's card (-1), defender's card (-1), totals a, d
EV_PI = 10  # seat, card, attacker total, defender total
EV_SURRENDER = 11  # seat, round (0-3; 4 = PI round), attacker total, defender total, forced
EV_RESULT = 12  # winner, loser, credits banked, cards banked, base placed (0/1), loser hand value
EV_BUY = 13  # seat, territory, type, credits paid, cards paid, bank credits left
EV_WIN = 14  # seat
EV_SNAPSHOT = 15  # seat, pawn, hand cards, hand value, bank credits, bases on board, supply
EV_END = 16  # winner (-1), turns, truncated
EVENT_NAMES = (
    "setup", "card", "reshuffle", "turn", "move", "invest", "take", "remove", "challenge",
    "round", "pi", "surrender", "result", "buy", "win", "snapshot", "end",
)  # fmt: skip
# The standing of every seat (docs/arcs.md): [EV_STANDING, turn, seat, Power Bases on the board,
# bank credits]. Recorded only when tracing; it reads the state.
EVENT_NAMES = (*EVENT_NAMES, "standing")
EV_STANDING = len(EVENT_NAMES) - 1


# --- read-only queries ------------------------------------------------------------------------
# The small queries that decisions ask dozens of times a turn are forceinline=True: each numba
# call passes ``st`` as 7 machine words and saves and restores registers around a load or two.


@inline_njit()
def value(st, card):
    return st[ix(VALUE + card)]


@inline_njit()
def colour(st, card):
    return st[ix(COLOUR + card)]


@inline_njit()
def card_at(st, loc, i):
    """The ``i``-th card (0 <= i < count_at) at ``loc`` (not a bank), in no particular order."""
    return st[ix(MEMBER + MAX_CARDS * loc + i)]


@inline_njit()
def is_hand(loc):
    return HAND <= loc < HAND + MAX_PLAYERS


@inline_njit()
def is_bank(loc):
    return BANK <= loc < BANK + MAX_PLAYERS


@inline_njit()
def banked_word(seat, card):
    """Where the bit of ``card`` in ``seat``'s bank set is in ``st`` (see BANKED)."""
    return BANKED + BANK_WORDS * seat + card // SET_BITS


@inline_njit()
def run_start(seat, card_colour):
    """Where ``seat``'s run of ``card_colour`` starts in ``st`` (see RANKED)."""
    return RANKED + RUN * (N_COLOURS * seat + card_colour)


@inline_njit()
def _rank_in(st, card, seat):
    """Insert ``card`` into its colour's run in ``seat``'s hand, before it is counted there."""
    card_colour = st[ix(COLOUR + card)]
    first = run_start(seat, card_colour)
    i = colour_count(st, HAND + seat, card_colour)
    if i == RUN:
        raise ValueError("more cards of one colour in a hand than its run holds")
    while i > 0 and outranks(st, card, st[ix(first + i - 1)]):
        st[ix(first + i)] = st[ix(first + i - 1)]
        i -= 1
    st[ix(first + i)] = card


@inline_njit()
def _rank_out(st, card, seat):
    """Take ``card`` out of its colour's run in ``seat``'s hand, before it is uncounted there."""
    card_colour = st[ix(COLOUR + card)]
    first = run_start(seat, card_colour)
    i = 0
    while st[ix(first + i)] != card:
        i += 1
    for j in range(i, colour_count(st, HAND + seat, card_colour) - 1):
        st[ix(first + j)] = st[ix(first + j + 1)]


@inline_njit()
def _count(st, card, loc, sign):
    """Add (``sign`` 1) or take away (-1) ``card`` in ``loc``'s count and credits."""
    st[ix(COUNT_AT + loc)] += sign
    st[ix(CREDITS_AT + loc)] += sign * st[ix(VALUE + card)]


@inline_njit()
def _count_colour(st, card, hand_loc, sign):
    """Add (``sign`` 1) or take away (-1) ``card`` in the count and credits of its colour in the
    hand at ``hand_loc``."""
    by_colour = N_COLOURS * hand_loc + st[ix(COLOUR + card)]
    st[ix(COLOUR_COUNT_AT + by_colour)] += sign
    st[ix(COLOUR_CREDITS_AT + by_colour)] += sign * st[ix(VALUE + card)]


@inline_njit()
def _append(st, card, to):
    if is_bank(to):
        st[ix(banked_word(to - BANK, card))] |= 1 << (card % SET_BITS)
    else:
        i = st[ix(COUNT_AT + to)]
        st[ix(MEMBER + MAX_CARDS * to + i)] = card
        st[ix(SLOT + card)] = i
        if is_hand(to):
            _rank_in(st, card, to - HAND)
            _count_colour(st, card, to, 1)
    _count(st, card, to, 1)
    st[ix(LOC + card)] = to


@njit(cache=True, _nrt=False, forceinline=False)
def relocate(st, card, to):
    """Put ``card`` at ``to``; in a list, its old place's last card fills the gap it leaves."""
    here = st[ix(LOC + card)]
    if is_bank(here):
        st[ix(banked_word(here - BANK, card))] &= ~(1 << (card % SET_BITS))
    else:
        slot = st[ix(SLOT + card)]
        last = st[ix(MEMBER + MAX_CARDS * here + st[ix(COUNT_AT + here)] - 1)]
        st[ix(MEMBER + MAX_CARDS * here + slot)] = last
        st[ix(SLOT + last)] = slot
        if is_hand(here):
            _rank_out(st, card, here - HAND)
            _count_colour(st, card, here, -1)
    _count(st, card, here, -1)
    _append(st, card, to)


@njit(cache=True, _nrt=False, forceinline=False)
def turn_over_discard(st):
    """The discard pile becomes the drawpile (which is empty): what relocating the discard pile's
    first card to the drawpile until none is left gives, in one pass. Each such move fills the
    gap with the pile's last card, so the drawpile lists the discard pile's first card, then the
    others from its last back to its second."""
    n = st[COUNT_AT + DISCARD]
    for k in range(n):
        card = st[MEMBER + MAX_CARDS * DISCARD + (n - k if k > 0 else 0)]
        st[MEMBER + MAX_CARDS * DRAWPILE + k] = card
        st[SLOT + card] = k
        st[LOC + card] = DRAWPILE
    st[COUNT_AT + DRAWPILE] = n
    st[CREDITS_AT + DRAWPILE] = st[CREDITS_AT + DISCARD]
    st[COUNT_AT + DISCARD] = 0
    st[CREDITS_AT + DISCARD] = 0


@njit(cache=True, _nrt=False, forceinline=False)
def recount(st):
    """Rebuild the per-location lists, bank sets, counts, credits and ranked hands from LOC
    (set-up, tests)."""
    for loc in range(N_LOCATIONS):
        st[COUNT_AT + loc] = 0
        st[CREDITS_AT + loc] = 0
        for card_colour in range(N_COLOURS):
            st[COLOUR_COUNT_AT + N_COLOURS * loc + card_colour] = 0
            st[COLOUR_CREDITS_AT + N_COLOURS * loc + card_colour] = 0
    for w in range(BANK_WORDS * MAX_PLAYERS):
        st[BANKED + w] = 0
    for card in range(st[N_CARDS]):
        _append(st, card, st[LOC + card])


@inline_njit()
def count_at(st, loc):
    return st[ix(COUNT_AT + loc)]


@inline_njit()
def credits_at(st, loc):
    """Face value of the cards at ``loc`` (a hand's value, a bank's credits)."""
    return st[ix(CREDITS_AT + loc)]


@inline_njit()
def colour_count(st, loc, card_colour):
    """Cards of ``card_colour`` at ``loc`` (a hand)."""
    return st[ix(COLOUR_COUNT_AT + N_COLOURS * loc + card_colour)]


@inline_njit()
def colour_credits(st, loc, card_colour):
    """Face value of the cards of ``card_colour`` at ``loc`` (a hand)."""
    return st[ix(COLOUR_CREDITS_AT + N_COLOURS * loc + card_colour)]


@inline_njit()
def colour_run(st, seat, card_colour):
    """(first, n): ``seat``'s cards of ``card_colour`` are st[first] (its highest) to
    st[first + n - 1]."""
    return run_start(seat, card_colour), colour_count(st, HAND + seat, card_colour)


@inline_njit()
def highest(st, seat, card_colour):
    """``seat``'s highest card of ``card_colour`` (ties: lowest id), or -1."""
    first, n = colour_run(st, seat, card_colour)
    return st[ix(first)] if n > 0 else -1


@inline_njit()
def lowest(st, seat, card_colour):
    """``seat``'s lowest card of ``card_colour`` (ties: lowest id), or -1."""
    first, n = colour_run(st, seat, card_colour)
    return st[ix(lowest_slot(st, first, n))] if n > 0 else -1


@inline_njit()
def lowest_slot(st, first, n):
    """Where the lowest card of the run st[first : first + n] (n > 0) is: the first of its cards
    of the lowest value, as ties go to the lowest id."""
    low = first + n - 1
    while low > first and st[ix(VALUE + st[ix(low - 1)])] == st[ix(VALUE + st[ix(low)])]:
        low -= 1
    return low


@inline_njit()
def best_value(st, seat, card_colour):
    """The value of ``seat``'s highest card of ``card_colour`` (0 if none)."""
    card = highest(st, seat, card_colour)
    return st[ix(VALUE + card)] if card >= 0 else 0


@inline_njit()
def best_values(st, seat):
    """The highest card value of each colour in ``seat``'s hand (0 where none)."""
    return (
        best_value(st, seat, 0),
        best_value(st, seat, 1),
        best_value(st, seat, 2),
        best_value(st, seat, 3),
        best_value(st, seat, 4),
    )


@inline_njit()
def pi_reach(st, seat, k, skip):
    """The credits of ``seat``'s ``k`` highest Political Influence cards other than ``skip``
    (-1: none skipped): what it can add in one turn of the PI round (pi_cards_per_turn)."""
    first, n = colour_run(st, seat, PI)
    total = 0
    for i in range(first, first + n):
        if k <= 0:
            break
        if st[ix(i)] != skip:
            total += st[ix(VALUE + st[ix(i)])]
            k -= 1
    return total


@inline_njit()
def behind_by(st, side):
    """Credits ``side`` must add to be winning (ties go to the defender, or under ties_go_to
    attacker to the attacker); <= 0 when winning."""
    mine = st[CH_TOTAL + side]
    theirs = st[CH_TOTAL + 1 - side]
    return theirs - mine + (1 if side != st[TIE_SIDE] else 0)


@inline_njit()
def pi_playable(st, seat, side, card, played):
    """``seat`` may play ``card`` (a PI card it holds) as the ``played``-th + 1 card of its
    turn in the PI round: winning, any card; behind, the card and its best others still within
    pi_cards_per_turn must be able to make it winning."""
    needed = behind_by(st, side)
    if needed <= 0:
        return True
    left = st[PI_PER_TURN] - played - 1
    return st[ix(VALUE + card)] + pi_reach(st, seat, left, card) >= needed


@inline_njit()
def last_round(rnd, rules):
    """``rnd`` (0-based) is the challenge's last Power Card round (challenge_rounds)."""
    return rnd >= np.int64(rules[R_CHALLENGE_ROUNDS]) - 1


@inline_njit()
def hand_count(st, seat):
    return count_at(st, HAND + seat)


@inline_njit()
def hand_value(st, seat):
    return credits_at(st, HAND + seat)


@inline_njit()
def bank_credits(st, seat):
    return credits_at(st, BANK + seat)


@inline_njit()
def ranks_below(st, card, other):
    """``card`` is lower than ``other``: a lower value, or the same value and a lower id."""
    return st[ix(VALUE + card)] < st[ix(VALUE + other)] or (
        st[ix(VALUE + card)] == st[ix(VALUE + other)] and card < other
    )


@inline_njit()
def outranks(st, card, other):
    """``card`` is higher than ``other``: a higher value, or the same value and a lower id (the
    fixed tie-break of every 'highest' and 'lowest' choice)."""
    return st[ix(VALUE + card)] > st[ix(VALUE + other)] or (
        st[ix(VALUE + card)] == st[ix(VALUE + other)] and card < other
    )


@inline_njit()
def has_base(st, owner, territory, base_type):
    return st[ix(BASES + 16 * owner + 4 * territory + base_type)] == 1


@inline_njit()
def bases_in(st, owner, territory):
    return st[ix(BASES_IN + N_TERRITORIES * owner + territory)]


@inline_njit()
def bases_on_board(st, owner):
    return st[ix(ON_BOARD + owner)]


@njit(cache=True, _nrt=False, forceinline=False)
def set_base(st, owner, territory, base_type, present):
    """Puts ``owner``'s base of ``base_type`` on ``territory`` (``present`` 1) or back into its
    supply (0). The only writer of BASES, so that SUPPLY, BASES_IN, ON_BOARD and PROGRESS stay in
    step."""
    change = present - st[BASES + 16 * owner + 4 * territory + base_type]
    st[BASES + 16 * owner + 4 * territory + base_type] = present
    st[SUPPLY + N_TYPES * owner + base_type] -= change
    before = st[BASES_IN + N_TERRITORIES * owner + territory]
    st[BASES_IN + N_TERRITORIES * owner + territory] = before + change
    st[ON_BOARD + owner] += change
    if territory != owner and territory < st[PLAYERS]:
        need = types_to_win(st)
        st[PROGRESS + owner] += min(before + change, need) - min(before, need)


@njit(cache=True, _nrt=False, forceinline=False)
def supply_left(st, owner):
    n = 0
    for base_type in range(N_TYPES):
        n += st[SUPPLY + N_TYPES * owner + base_type]
    return n


@inline_njit()
def types_to_win(st):
    """Different Power Bases needed in every opponent's territory (types_to_win_3p, _4p: the
    rulebook's 4 at 3 players, 3 at 4)."""
    return st[ix(TYPES_NEEDED)]


@inline_njit()
def can_place(st, players, owner, territory, base_type):
    """``owner`` may put a base of ``base_type`` in ``territory``: an opponent's territory, a base
    of that type left in its supply, and none of its own of that type there yet."""
    return (
        0 <= territory < players
        and territory != owner
        and st[ix(SUPPLY + N_TYPES * owner + base_type)] > 0
        and not has_base(st, owner, territory, base_type)
    )


@inline_njit()
def progress(st, seat):
    """Bases that count towards ``seat``'s win: per opponent territory, up to types_to_win (kept
    by set_base: a sum over territories in every comparison of who is ahead cost more than the
    upkeep when a base moves)."""
    return st[ix(PROGRESS + seat)]


@njit(cache=True, _nrt=False, forceinline=False)
def has_won(st, players, seat):
    return progress(st, seat) == (players - 1) * types_to_win(st)


@inline_njit()
def multiplier(st, rules, card_colour):
    """What a card of ``card_colour`` counts for in the challenge in progress: the declared
    type's colour is multiplied (doubled by the rulebook), everything else counts face value."""
    if card_colour == st[CH_DECLARED]:
        return np.int64(rules[R_DECLARED_MULTIPLIER])
    return np.int64(1)
