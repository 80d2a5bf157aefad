"""Power Barons' rules (../shared/rules/power-barons.md), one helper per rule: a card drawn,
banked or paid, the roll, INVESTMENTS PAY OFF, a card taken, a Power Base removed, won or bought,
each step of a challenge (``open_challenge``, ``lead``, ``follow``, ``end_round``, ``play_pi``,
``resolve``), the set-up and the end of a turn and of the game.

Two flows call them in the same order: the decision-point protocol's steps
(simcore/games/power_barons/rules.py) and the scripted games' straight-line turn
(simcore/games/power_barons/scripted.py); tests/contract/test_protocol.py proves that the two play
identical games. A helper that takes a strategy's answer raises ValueError on an illegal one;
none calls a strategy.
"""

import numpy as np
from numba import njit

from simcore.games.power_barons.state import (
    BANK,
    BANK_WORDS,
    BANKED,
    BLANK,
    CH_ATTACKER,
    CH_DECLARED,
    CH_DEFENDER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_PLAYED,
    CH_ROUND,
    CH_TOTAL,
    COLOUR,
    DECK_COUNT,
    DECK_TOTAL,
    DISCARD,
    DRAWPILE,
    EMPTY_DRAWS,
    EV_BUY,
    EV_CARD,
    EV_CHALLENGE,
    EV_END,
    EV_INVEST,
    EV_MOVE,
    EV_PI,
    EV_REMOVE,
    EV_RESHUFFLE,
    EV_RESULT,
    EV_ROUND,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_SURRENDER,
    EV_TAKE,
    EV_TURN,
    EV_WIN,
    HAND,
    INVESTMENTS,
    LIMITED,
    LOC,
    M_BANK,
    M_DEAL,
    M_DISCARD,
    M_DRAW,
    M_GIVE,
    M_INVEST,
    M_PAY,
    M_PLAY,
    M_REFILL,
    M_RETURN,
    M_STEAL,
    M_WON,
    MAX_CARD_VALUE,
    N_CARDS,
    N_SEAT_STATS,
    N_SPACES,
    N_TERRITORIES,
    N_TYPES,
    P_N_CARDS,
    P_N_SPACES,
    P_TABLES,
    PAWN,
    PAY_CARDS,
    PAY_REACHED,
    PI,
    PI_PER_TURN,
    PLAYED,
    PLAYERS,
    R_BASE_COST,
    R_BASES_BOUGHT_PER_TURN,
    R_BASES_PER_TYPE_3P,
    R_BASES_PER_TYPE_4P,
    R_HAND_SIZE,
    R_LOSER_REFILL,
    R_PI_CARDS_PER_TURN,
    R_POLITICAL_INFLUENCE,
    R_SPACE_ON,
    R_SURRENDER,
    R_SURRENDER_AFTER_BOTH_PLAYED,
    R_TIES_GO_TO,
    R_TURN_DRAWS,
    R_TYPES_TO_WIN_3P,
    R_TYPES_TO_WIN_4P,
    R_WINNER_BANKS,
    REFILL_RESTORE,
    RESHUFFLES,
    SCRATCH,
    SET_BITS,
    SPACE_KIND,
    SPACE_TERRITORY,
    SPY,
    STATS,
    SUPPLY,
    TIE_SIDE,
    TRACE_LEN,
    TYPES_NEEDED,
    VALUE,
    WORD_BITS,
    bank_credits,
    bases_in,
    bases_on_board,
    behind_by,
    can_place,
    card_at,
    colour_count,
    count_at,
    hand_count,
    hand_value,
    has_base,
    multiplier,
    outranks,
    pi_playable,
    pi_reach,
    recount,
    relocate,
    set_base,
    supply_left,
    turn_over_discard,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit, ix, lowest_bit
from simcore.kernel.rng import rand_below

# Per-seat statistics (the seat columns of simcore/games/power_barons/game.py, in order).
(
    BASES_AT_END,
    BANK_AT_END,
    CHALLENGES_MADE,
    CHALLENGES_WON,
    CHALLENGES_LOST,
    BASES_WON,
    BASES_BOUGHT,
    BASES_REMOVED,
    BASES_LOST,
    CREDITS_BANKED,
    FLUSH_ATTEMPTS,
    FLUSHES,
    FLUSH_CREDITS_GIVEN,
    FLUSH_HAND_BEFORE,
    FLUSH_HAND_AFTER,
) = range(N_SEAT_STATS)


@inline_njit()
def stat(st, seat, which):
    """Index of one of ``seat``'s statistics in ``st``."""
    return STATS + N_SEAT_STATS * seat + which


# --- cards ----------------------------------------------------------------------------------
# Every function takes the game as (st, rules, rng, trace): the state, the prepared rules, the
# game's random stream, the trace buffer. The helpers that run once or more a turn and are
# called from one or a few places (resolve, play_card, check_lead, ...) are forceinline=True:
# each call passed its arrays as up to ~45 machine words on the stack.


@njit(cache=True, _nrt=False, forceinline=False)
def move_card(card, to, reason, st, trace):
    """The one way a card changes place (so the trace sees every move)."""
    record_event(
        trace, st, TRACE_LEN, EV_CARD, card, st[COLOUR + card], st[VALUE + card], st[LOC + card],
        to, reason,
    )  # fmt: skip
    relocate(st, card, to)


@njit(cache=True, _nrt=False, forceinline=False)
def draw_card(seat, reason, st, rng, trace):
    """A uniformly random drawpile card into ``seat``'s hand; an empty drawpile is first made of
    the shuffled discard pile. False when neither has a card."""
    n = count_at(st, DRAWPILE)
    if n == 0:
        n = count_at(st, DISCARD)
        if n == 0:
            st[EMPTY_DRAWS] += 1
            return False
        turn_over_discard(st)
        st[RESHUFFLES] += 1
        record_event(trace, st, TRACE_LEN, EV_RESHUFFLE, n)
    move_card(card_at(st, DRAWPILE, rand_below(rng, n)), HAND + seat, reason, st, trace)
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def bank_card(seat, card, reason, st, trace):
    move_card(card, BANK + seat, reason, st, trace)
    st[stat(st, seat, CREDITS_BANKED)] += st[VALUE + card]


@inline_njit()
def in_hand(st, seat, card):
    return 0 <= card < st[N_CARDS] and st[LOC + card] == HAND + seat


# --- Power Bases ----------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def any_placement(st, players, owner):
    for territory in range(players):
        for base_type in range(N_TYPES):
            if can_place(st, players, owner, territory, base_type):
                return True
    return False


@inline_njit()
def has_total(st, reached, total):
    """Total ``total`` is in the bitset of totals at st[reached]."""
    return (st[ix(reached + total // WORD_BITS)] >> (total % WORD_BITS)) & 1 == 1


@njit(cache=True, _nrt=False, forceinline=False)
def pay(seat, cost, st, rng, trace):
    """Move the bank cards with the smallest total of at least ``cost`` to the discard pile (no
    change is given); returns (credits paid, cards paid).

    A 0/1 subset sum over credits with the bank's cards in a random order (shuffled from the
    game's stream): among the sets of that total, which one pays decides which cards return to
    the drawpile, and an order of card ids would favour some colours and values over others
    (the ids follow the components file). The totals reached after each card are a bitset
    (PAY_REACHED):
    those before it, and those shifted by its value. The minimal total is below cost + the
    largest card, which bounds the sets. Following a total back through the first card that
    reached it (s -> s - value, down to 0) names distinct cards.
    """
    words = (cost + MAX_CARD_VALUE + WORD_BITS - 1) // WORD_BITS
    n = 0
    for w in range(BANK_WORDS):
        members = st[ix(BANKED + BANK_WORDS * seat + w)]
        while members != 0:
            st[ix(PAY_CARDS + n)] = SET_BITS * w + lowest_bit(members)
            n += 1
            members &= members - 1
    for k in range(n - 1, 0, -1):  # Fisher-Yates
        j = rand_below(rng, k + 1)
        st[ix(PAY_CARDS + k)], st[ix(PAY_CARDS + j)] = st[ix(PAY_CARDS + j)], st[ix(PAY_CARDS + k)]
    for w in range(words):
        st[ix(PAY_REACHED + w)] = 0
    st[PAY_REACHED] = 1  # total 0, before any card
    reach = 0  # the cards' sum so far: no total above it is reached, so its words are 0
    for k in range(n):
        card_value = st[ix(VALUE + st[ix(PAY_CARDS + k)])]
        reach += card_value
        live = min(words, reach // WORD_BITS + 1)
        before = PAY_REACHED + words * k
        after = before + words
        whole, part = divmod(card_value, WORD_BITS)  # the shift: whole words and part bits
        for w in range(min(whole, live)):
            st[ix(after + w)] = st[ix(before + w)]
        for w in range(whole, live):
            # Shifted as uint64: an int64 shift right would drag the sign bit in.
            shifted = np.uint64(st[ix(before + w - whole)]) << np.uint64(part)
            if w > whole and part > 0:
                shifted |= np.uint64(st[ix(before + w - whole - 1)]) >> np.uint64(WORD_BITS - part)
            st[ix(after + w)] = st[ix(before + w)] | np.int64(shifted)
        for w in range(live, words):
            st[ix(after + w)] = 0
    total = cost
    while not has_total(st, PAY_REACHED + words * n, total):
        total += 1
    s = total
    cards = 0
    reached_after = n  # s is reached after that many cards
    while s > 0:
        # The first card after which s was reached: the sets only grow card by card, so it is
        # found going down while s was reached before the card. And s minus its value was
        # reached before it, so the next search starts below it: one pass over the cards.
        first = reached_after - 1
        while first > 0 and has_total(st, PAY_REACHED + words * first, s):
            first -= 1
        card = st[ix(PAY_CARDS + first)]
        s -= st[ix(VALUE + card)]
        reached_after = first
        move_card(card, DISCARD, M_PAY, st, trace)
        cards += 1
    return total, cards


# --- the challenge --------------------------------------------------------------------------


@inline_njit()
def play_card(seat, side, card, st, rules, trace):
    """``seat`` (side 0 attacker, 1 defender) puts ``card`` on the table: a Power Card counts its
    face value times its colour's multiplier, a Political Influence card its face value."""
    move_card(card, PLAYED + seat, M_PLAY, st, trace)
    card_colour = st[COLOUR + card]
    if card_colour == PI:
        st[CH_TOTAL + side] += st[VALUE + card]
    else:
        st[CH_TOTAL + side] += st[VALUE + card] * multiplier(st, rules, card_colour)
        st[CH_PLAYED + side] += 1


@inline_njit()
def holds_unplayed_colour(st, seat):
    """``seat`` holds a Power Card of a colour that has not had its round yet."""
    for card_colour in range(N_TYPES):
        if colour_count(st, HAND + seat, card_colour) > 0 and not (st[CH_DONE] >> card_colour) & 1:
            return True
    return False


@inline_njit()
def check_lead(attacker, lead_colour, lead, st):
    """The attacker leads a card of a new colour when it holds one, else calls out a new colour."""
    if not 0 <= lead_colour < N_TYPES or (st[CH_DONE] >> lead_colour) & 1:
        raise ValueError("strategy led a colour that already had its round")
    if holds_unplayed_colour(st, attacker):
        if not in_hand(st, attacker, lead) or st[COLOUR + lead] != lead_colour:
            raise ValueError("strategy did not lead a card it holds of the colour it named")
    elif lead != -1:
        raise ValueError("strategy led a card without holding one of a new colour")


@inline_njit()
def lowest_played(st, seat):
    """``seat``'s lowest card on the table (ties: the highest id, the last a 'highest' pick
    would take)."""
    low = card_at(st, PLAYED + seat, 0)
    for i in range(1, count_at(st, PLAYED + seat)):
        card = card_at(st, PLAYED + seat, i)
        if outranks(st, low, card):
            low = card
    return low


@inline_njit()
def resolve(winner, loser, players, hand_before, st, rules, rng, trace):
    """WINNING A CHALLENGE: the winner banks the loser's played cards (at most winner_banks of
    them, the highest; the others go to the discard pile), the loser draws as many cards as it
    lost (loser_refill replace_lost) or up to hand_size (restore_hands), the winner takes its
    own cards back (and, under restore_hands, draws up to hand_size), and a winning attacker
    places its declared base if it may. Returns 1 if a base was placed."""
    lost = count_at(st, PLAYED + loser)
    for _ in range(lost - np.int64(rules[R_WINNER_BANKS])):
        move_card(lowest_played(st, loser), DISCARD, M_DISCARD, st, trace)
    credits = 0
    cards = 0
    while count_at(st, PLAYED + loser) > 0:
        card = card_at(st, PLAYED + loser, 0)
        credits += st[VALUE + card]
        cards += 1
        bank_card(winner, card, M_WON, st, trace)
    restore_hands = np.int64(rules[R_LOSER_REFILL]) == REFILL_RESTORE
    if restore_hands:
        draw_to_size(loser, st, rules, rng, trace)
    else:
        # "The loser takes enough cards from the drawpile to replace the lost cards".
        for _ in range(lost):
            if not draw_card(loser, M_REFILL, st, rng, trace):
                break
    while count_at(st, PLAYED + winner) > 0:
        move_card(card_at(st, PLAYED + winner, 0), HAND + winner, M_RETURN, st, trace)
    if restore_hands:
        draw_to_size(winner, st, rules, rng, trace)
    attacker = st[CH_ATTACKER]
    defender = st[CH_DEFENDER]
    declared = st[CH_DECLARED]
    placed = 0
    if winner == attacker and can_place(st, players, attacker, defender, declared):
        set_base(st, attacker, defender, declared, 1)
        st[stat(st, attacker, BASES_WON)] += 1
        placed = 1
    st[stat(st, winner, CHALLENGES_WON)] += 1
    st[stat(st, loser, CHALLENGES_LOST)] += 1
    if st[CH_FLUSH] == 1 and loser == attacker:
        st[stat(st, attacker, FLUSHES)] += 1
        st[stat(st, attacker, FLUSH_CREDITS_GIVEN)] += credits
        st[stat(st, attacker, FLUSH_HAND_BEFORE)] += hand_before
        st[stat(st, attacker, FLUSH_HAND_AFTER)] += hand_value(st, attacker)
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_RESULT,
        winner,
        loser,
        credits,
        cards,
        placed,
        hand_value(st, loser),
    )
    st[CH_DONE] = 0  # no challenge in progress: nothing is known about voids (determinize)
    return placed


# --- set-up ---------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def set_up(players, st, rules, rng, trace):
    """The table from the prepared components; supplies, pawns on their owners' INVESTMENTS PAY
    OFF spaces; hand_size cards dealt to each player, one at a time clockwise from seat 0."""
    st[:SCRATCH] = 0  # the scratch areas are written before they are read
    st[PI_PER_TURN] = np.int64(rules[R_PI_CARDS_PER_TURN])
    st[TIE_SIDE] = 1 - np.int64(rules[R_TIES_GO_TO])
    n_cards = np.int64(rules[P_N_CARDS])
    n_spaces = np.int64(rules[P_N_SPACES])
    st[N_CARDS] = n_cards
    st[N_SPACES] = n_spaces
    st[PLAYERS] = players
    for card in range(n_cards):
        card_colour = np.int64(rules[P_TABLES + card])
        st[COLOUR + card] = card_colour
        st[VALUE + card] = np.int64(rules[P_TABLES + n_cards + card])
        st[DECK_COUNT + card_colour] += 1
        st[DECK_TOTAL + card_colour] += st[VALUE + card]
        st[LOC + card] = DRAWPILE
    recount(st)
    for space in range(n_spaces):
        st[SPACE_KIND + space] = np.int64(rules[P_TABLES + 2 * n_cards + space])
        st[SPACE_TERRITORY + space] = np.int64(rules[P_TABLES + 2 * n_cards + n_spaces + space])
    three = players == 3
    st[TYPES_NEEDED] = np.int64(rules[R_TYPES_TO_WIN_3P if three else R_TYPES_TO_WIN_4P])
    per_type = np.int64(rules[R_BASES_PER_TYPE_3P if three else R_BASES_PER_TYPE_4P])
    for seat in range(players):
        for base_type in range(N_TYPES):
            st[SUPPLY + N_TYPES * seat + base_type] = per_type
        for space in range(n_spaces):
            if st[SPACE_KIND + space] == INVESTMENTS and st[SPACE_TERRITORY + space] == seat:
                st[PAWN + seat] = space
        record_event(trace, st, TRACE_LEN, EV_SETUP, seat, seat, st[PAWN + seat], per_type)
    for _ in range(np.int64(rules[R_HAND_SIZE])):
        for seat in range(players):
            draw_card(seat, M_DEAL, st, rng, trace)


# --- the standing per seat (game arcs, docs/arcs.md) -------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def record_standing(players, turns, st, trace):
    """After a turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(players):
        record_event(trace, st, TRACE_LEN, EV_STANDING, turns, seat, bases_on_board(st, seat),
                     bank_credits(st, seat))  # fmt: skip


# --- the rules of a turn, shared by the scripted flow and the protocol's steps ----------------


@inline_njit()
def over_size(seat, st, rules):
    return hand_count(st, seat) > np.int64(rules[R_HAND_SIZE])


@inline_njit()
def bank_chosen(seat, card, st, trace):
    """A hand over size banks the card its owner chose."""
    if not in_hand(st, seat, card):
        raise ValueError("strategy banked a card it does not hold")
    bank_card(seat, card, M_BANK, st, trace)


@inline_njit()
def draw_to_size(seat, st, rules, rng, trace):
    """A hand under size draws up to it while a card is left."""
    size = np.int64(rules[R_HAND_SIZE])
    while hand_count(st, seat) < size and draw_card(seat, M_REFILL, st, rng, trace):
        pass


@inline_njit()
def turn_begins(seat, st, rules, rng, trace):
    """Step 1's draw, turn_draws cards (the bank follows: ``restore``)."""
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, st[PAWN + seat], hand_count(st, seat),
           bank_credits(st, seat))  # fmt: skip
    for _ in range(np.int64(rules[R_TURN_DRAWS])):
        draw_card(seat, M_DRAW, st, rng, trace)


@inline_njit()
def roll(seat, st, rules, rng, trace):
    """Step 2: roll both dice and move clockwise; the kind of the space landed on, or BLANK when
    its directions are switched off (the rule parameter named for the space)."""
    die1 = rand_below(rng, 6) + 1
    die2 = rand_below(rng, 6) + 1
    start = st[PAWN + seat]
    space = (start + die1 + die2) % st[N_SPACES]
    st[PAWN + seat] = space
    kind = st[SPACE_KIND + space]
    record_event(
        trace, st, TRACE_LEN, EV_MOVE, seat, die1, die2, start, space, kind,
        st[SPACE_TERRITORY + space],
    )  # fmt: skip
    return kind if rules[R_SPACE_ON + kind] != 0.0 else BLANK


@inline_njit()
def invest_owner(territory, players, st, trace):
    """INVESTMENTS PAY OFF in ``territory``: its owner, or -1 when nobody plays it."""
    owner = territory if territory < players else -1
    record_event(trace, st, TRACE_LEN, EV_INVEST, territory, owner)
    return owner


@inline_njit()
def invest_pays(seat, owner, territory, st, rng, trace):
    """The owner draws 1, every other seat 1 per base it has there; the cards it was owed."""
    n = 1 if seat == owner else bases_in(st, seat, territory)
    for _ in range(n):
        draw_card(seat, M_INVEST, st, rng, trace)
    return n


@inline_njit()
def check_victim(seat, victim, players):
    if not 0 <= victim < players or victim == seat:
        raise ValueError("strategy asked a player who is not an opponent")


@inline_njit()
def check_asked(asked):
    if not 0 <= asked < N_TYPES:
        raise ValueError("strategy asked for a colour that is not a Power Card colour")


@inline_njit()
def takes_something(victim, asked, kind, st):
    """SPY AND STEAL finds a card when the victim holds any, a TAKE one of the asked colour."""
    if kind == SPY:
        return hand_count(st, victim) > 0
    return colour_count(st, HAND + victim, asked) > 0


@inline_njit()
def check_taken(victim, asked, kind, card, st):
    if kind == SPY:
        if not in_hand(st, victim, card):
            raise ValueError("strategy stole a card the victim does not hold")
    elif not in_hand(st, victim, card) or st[COLOUR + card] != asked:
        raise ValueError("strategy gave a card it does not hold or of another colour")


@inline_njit()
def take_card(seat, victim, asked, card, kind, st, trace):
    """The card (-1: none) goes from the victim's hand to the taker's (both restore after)."""
    record_event(trace, st, TRACE_LEN, EV_TAKE, seat, victim, asked, card, kind)
    if card >= 0:
        move_card(card, HAND + seat, M_STEAL if kind == SPY else M_GIVE, st, trace)


@inline_njit()
def any_opponent_base(seat, players, st, trace):
    """REMOVE A POWER BASE finds an opponent's base on the board (else it records that none)."""
    for owner in range(players):
        if owner != seat and bases_on_board(st, owner) > 0:
            return True
    record_event(trace, st, TRACE_LEN, EV_REMOVE, seat, -1, -1, -1)
    return False


@inline_njit()
def remove_base(seat, owner, territory, base_type, players, st, trace):
    """An opponent's base goes back to its owner's supply."""
    if not 0 <= owner < players or owner == seat or not 0 <= territory < N_TERRITORIES:
        raise ValueError("strategy removed a base that is not an opponent's")
    if not 0 <= base_type < N_TYPES or not has_base(st, owner, territory, base_type):
        raise ValueError("strategy removed a base that is not on the board")
    set_base(st, owner, territory, base_type, 0)
    st[stat(st, seat, BASES_REMOVED)] += 1
    st[stat(st, owner, BASES_LOST)] += 1
    record_event(trace, st, TRACE_LEN, EV_REMOVE, seat, owner, territory, base_type)


@inline_njit()
def open_challenge(attacker, defender, declared, limited, flush, players, st, trace):
    """Step 3: the challenge's public record (and the attacker's intent ``flush``); returns the
    attacker's hand value (for the flush statistics)."""
    if not 0 <= defender < players or defender == attacker or not 0 <= declared < N_TYPES:
        raise ValueError("strategy challenged a player who is not an opponent, or no base type")
    hand_before = hand_value(st, attacker)
    st[CH_ATTACKER] = attacker
    st[CH_DEFENDER] = defender
    st[CH_DECLARED] = declared
    st[CH_LIMITED] = limited
    st[CH_FLUSH] = flush
    st[CH_DONE] = 0
    st[CH_ROUND] = 0
    for side in range(2):
        st[CH_TOTAL + side] = 0
        st[CH_PLAYED + side] = 0
    st[stat(st, attacker, CHALLENGES_MADE)] += 1
    st[stat(st, attacker, FLUSH_ATTEMPTS)] += flush
    record_event(
        trace, st, TRACE_LEN, EV_CHALLENGE, attacker, defender, declared, limited, flush,
        hand_before,
    )  # fmt: skip
    return hand_before


@inline_njit()
def lead(attacker, lead_colour, card, st, rules, trace):
    """The attacker leads ``card`` of ``lead_colour`` face up, or calls the colour out (-1)."""
    check_lead(attacker, lead_colour, card, st)
    if card >= 0:
        play_card(attacker, 0, card, st, rules, trace)


@inline_njit()
def can_follow(defender, lead_colour, st):
    return colour_count(st, HAND + defender, lead_colour) > 0


@inline_njit()
def follow(defender, lead_colour, card, st, rules, trace):
    if not in_hand(st, defender, card) or st[COLOUR + card] != lead_colour:
        raise ValueError("strategy did not follow with a card of the led colour")
    play_card(defender, 1, card, st, rules, trace)


@inline_njit()
def end_round(rnd, lead_colour, lead_card, follow_card, st, rules, trace):
    """The round is played; whether the surrender options open (surrender not none, and, under
    surrender_after_both_played, both have played a Power Card)."""
    st[CH_DONE] |= 1 << lead_colour
    record_event(trace, st, TRACE_LEN, EV_ROUND, rnd, lead_colour, lead_card, follow_card,
           st[CH_TOTAL], st[CH_TOTAL + 1])  # fmt: skip
    if surrender_options(rules) == 0:
        return False
    both_played = st[CH_PLAYED] > 0 and st[CH_PLAYED + 1] > 0
    return both_played or rules[R_SURRENDER_AFTER_BOTH_PLAYED] == 0.0


@inline_njit()
def surrender_options(rules):
    """Voluntary surrender options after a Power Card round: 2 (the lower total, then the
    higher), 1 (the lower total only) or 0 (surrender none)."""
    return 2 - np.int64(rules[R_SURRENDER])


@inline_njit()
def is_limited(kind, rules):
    """The turn's challenge has no Political Influence round: the attacker is on LIMITED
    CHALLENGE, or political_influence is off."""
    return 1 if kind == LIMITED or rules[R_POLITICAL_INFLUENCE] == 0.0 else 0


@inline_njit()
def first_to_surrender(st):
    """The player who is not winning has the first surrender option: the lower total (ties: the
    attacker, unless ties_go_to attacker makes it the winner)."""
    return st[CH_ATTACKER] if behind_by(st, 0) > 0 else st[CH_DEFENDER]


@inline_njit()
def surrenders(seat, rnd, forced, st, trace):
    record_event(
        trace, st, TRACE_LEN, EV_SURRENDER, seat, rnd, st[CH_TOTAL], st[CH_TOTAL + 1], forced
    )


@inline_njit()
def limited_loser(st):
    """A Limited Challenge played out: the lower total loses (ties: the attacker)."""
    return st[CH_ATTACKER] if behind_by(st, 0) > 0 else st[CH_DEFENDER]


@inline_njit()
def open_influence(st):
    """A full challenge played out opens the Political Influence round; the side that is not
    winning acts first."""
    st[CH_ROUND] = N_TYPES
    return 0 if behind_by(st, 0) > 0 else 1


@inline_njit()
def must_surrender(side, st):
    """The Political Influence ``side`` may play in its turn (its pi_cards_per_turn highest)
    cannot put it ahead."""
    seat = st[CH_ATTACKER + side]
    return pi_reach(st, seat, st[PI_PER_TURN], -1) < behind_by(st, side)


@inline_njit()
def may_play_pi(st, seat, played):
    """``seat`` holds a PI card and has played fewer than pi_cards_per_turn this turn."""
    return colour_count(st, HAND + seat, PI) > 0 and played < st[PI_PER_TURN]


@inline_njit()
def play_pi(seat, side, card, played, st, rules, trace):
    """``seat`` plays ``card`` as the ``played``-th + 1 Political Influence card of its turn."""
    if not in_hand(st, seat, card) or st[COLOUR + card] != PI:
        raise ValueError("strategy played a Political Influence card it does not hold")
    if played >= st[PI_PER_TURN] or not pi_playable(st, seat, side, card, played):
        raise ValueError("strategy played a PI card beyond pi_cards_per_turn or its need")
    play_card(seat, side, card, st, rules, trace)
    record_event(trace, st, TRACE_LEN, EV_PI, seat, card, st[CH_TOTAL], st[CH_TOTAL + 1])


@inline_njit()
def may_buy(seat, players, bought, st, rules):
    """Step 4: fewer than bases_bought_per_turn bought this turn (``bought``), base_cost
    credits banked and a base it may place."""
    if bought >= np.int64(rules[R_BASES_BOUGHT_PER_TURN]):
        return False
    cost = np.int64(rules[R_BASE_COST])
    return bank_credits(st, seat) >= cost and any_placement(st, players, seat)


@inline_njit()
def buy_base(seat, players, territory, base_type, st, rules, rng, trace):
    """Pay base_cost (no change) and place the base."""
    if not can_place(st, players, seat, territory, base_type):
        raise ValueError("strategy bought a Power Base it cannot place there")
    paid, cards = pay(seat, np.int64(rules[R_BASE_COST]), st, rng, trace)
    set_base(st, seat, territory, base_type, 1)
    st[stat(st, seat, BASES_BOUGHT)] += 1
    record_event(
        trace, st, TRACE_LEN, EV_BUY, seat, territory, base_type, paid, cards,
        bank_credits(st, seat),
    )  # fmt: skip


@inline_njit()
def wins(seat, st, trace):
    record_event(trace, st, TRACE_LEN, EV_WIN, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def turn_ends(players, turns, st, trace):
    """A traced game records every seat's snapshot after each turn, then its standing."""
    if trace.shape[0] > 0:
        for s in range(players):
            record_event(
                trace, st, TRACE_LEN, EV_SNAPSHOT, s, st[PAWN + s], hand_count(st, s),
                hand_value(st, s), bank_credits(st, s), bases_on_board(st, s),
                supply_left(st, s),
            )  # fmt: skip
    record_standing(players, turns, st, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def game_ends(players, winner, turns, st, trace):
    """The end-of-game statistics and record."""
    for s in range(players):
        st[stat(st, s, BASES_AT_END)] = bases_on_board(st, s)
        st[stat(st, s, BANK_AT_END)] = bank_credits(st, s)
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, winner < 0)
