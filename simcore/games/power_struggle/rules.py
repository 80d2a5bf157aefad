"""Power Struggle's rules as the decision-point protocol (docs/protocol.md): ``new_game``,
``legal``, ``apply``, ``to_move``, ``is_over``, ``returns``, ``determinize`` and ``infoset_key``.

The rules run step by step (st[P_STEP], one of S_*: the steps of meeting.py and turns.py, run by
``advance``) until a seat must decide: the step asks (st[P_DECISION], st[P_SEAT]) and returns;
``apply`` answers it and runs on. The search and the tests answer with any option ``legal``
lists, a scripted seat with ``strategies.power_struggle.decide``. A step that loops (Employees one
by one, the event cards place by place, the players of an event or a turn) keeps its counters in
st (P_*), so a copy of st is a game in the middle of a meeting, a turn or an action."""

import numpy as np
from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.meeting import (
    answer_appoint,
    answer_chairman,
    answer_displaced,
    answer_order,
    step_appoint,
    step_chairman_card,
    step_chairman_done,
    step_extra,
    step_heads,
    step_heads_start,
    step_meeting,
    step_meeting_end,
    step_order,
    step_sort,
)
from simcore.games.power_struggle.options import (
    action_move,
    action_ok,
    create_two_problem,
    enticeable,
    merge_problem,
    move_problem,
    office_ok,
    order_candidate,
    order_pick_ok,
)
from simcore.games.power_struggle.state import (
    CHAIRMAN,
    COLOUR_CARD,
    COMP_OF,
    D_ACCEPT,
    D_ACTION,
    D_APPOINT,
    D_BRIBE,
    D_CHAIRMAN,
    D_DISPLACED,
    D_EMPLOYEE,
    D_ENTICE,
    D_FIRE,
    D_NONE,
    D_ORDER,
    D_SOURCE,
    D_VICTIM,
    DECLARED,
    GAME_STATS,
    HALF,
    HEADS,
    HOLDER,
    MAX_EMPLOYEES,
    MEETING_EVENT,
    MONEY,
    N_DIVISIONS,
    N_EVENTS,
    N_OFFICES,
    N_PRIVILEGES,
    N_SIZES,
    ORDER,
    ORDER_SIZE,
    OWNER,
    P_ACTOR,
    P_AMOUNT,
    P_ATTEMPT,
    P_DECISION,
    P_DECISIONS,
    P_DIVISION,
    P_EXCLUDE,
    P_K,
    P_LOSER,
    P_N,
    P_ORDER_POLICY,
    P_OUTCOME,
    P_POS,
    P_SEAT,
    P_STEP,
    P_TAKEN,
    P_TARGET,
    P_THEN,
    P_WINNERS,
    PILE,
    PLAYERS,
    ROWS,
    S_ACCEPT,
    S_ACTION,
    S_ACTIONS,
    S_AFTER_ACTION,
    S_APPOINT,
    S_BRIBE,
    S_BRIBE_LOSERS,
    S_CHAIRMAN_CARD,
    S_CHAIRMAN_DONE,
    S_CREATE_TWO,
    S_DEVELOP,
    S_DEVELOP_PLACE,
    S_EFFECT,
    S_END,
    S_EVENT,
    S_EXTRA,
    S_FOUND,
    S_HEADS,
    S_HEADS_START,
    S_HIRE,
    S_INFLUENCE,
    S_LEGAL,
    S_MEETING,
    S_MEETING_END,
    S_ORDER,
    S_SNAPSHOT,
    S_SORT,
    S_TURN,
    TRACK,
    TRACK_MAX,
    action_possible,
    employees,
    has_vacancy,
    share_option_ok,
)
from simcore.games.power_struggle.transitions import (
    ask,
    set_up,
    shuffle_into,
    shuffle_slice,
    snapshot,
    sort_slice,
)
from simcore.games.power_struggle.turns import (
    answer_accept,
    answer_action,
    answer_bribe,
    answer_employee,
    answer_entice,
    answer_fire,
    answer_source,
    answer_victim,
    step_actions,
    step_after_action,
    step_bribe,
    step_bribe_losers,
    step_create_two,
    step_develop,
    step_effect,
    step_end,
    step_event,
    step_found,
    step_hire,
    step_influence,
    step_legal,
    step_turn,
)
from simcore.kernel.rng import rand_below


@njit(cache=True, _nrt=False, forceinline=False)
def advance(st, rules, rng, trace):
    """Carry out the rules' next step; True once a decision is pending or the game is over."""
    step = st[P_STEP]
    if step == S_ACTION:
        return ask(st, D_ACTION, st[P_ACTOR])
    if step == S_AFTER_ACTION:
        return step_after_action(st, rules, trace)
    if step == S_ACTIONS:
        return step_actions(st, rules, trace)
    if step == S_HIRE:
        return step_hire(st)
    if step == S_BRIBE:
        return step_bribe(st)
    if step == S_ACCEPT:
        return ask(st, D_ACCEPT, st[P_TARGET])
    if step == S_BRIBE_LOSERS:
        return step_bribe_losers(st)
    if step == S_TURN:
        return step_turn(st, trace)
    if step == S_EVENT:
        return step_event(st, trace)
    if step == S_EFFECT:
        return step_effect(st, trace)
    if step == S_FOUND:
        return step_found(st)
    if step == S_CREATE_TWO:
        return step_create_two(st, trace)
    if step == S_INFLUENCE:
        return step_influence(st, trace)
    if step == S_LEGAL:
        return step_legal(st, trace)
    if step == S_DEVELOP:
        return step_develop(st)
    if step == S_DEVELOP_PLACE:
        return ask(st, D_EMPLOYEE, st[P_ACTOR])
    if step == S_ORDER:
        return step_order(st, trace)
    if step == S_SORT:
        return step_sort(st, rng)
    if step == S_SNAPSHOT:
        snapshot(st, trace)
        st[P_POS] = 0
        st[P_STEP] = S_TURN
        return False
    if step == S_MEETING:
        return step_meeting(st, trace)
    if step == S_CHAIRMAN_CARD:
        return step_chairman_card(st)
    if step == S_CHAIRMAN_DONE:
        return step_chairman_done(st, trace)
    if step == S_EXTRA:
        return step_extra(st, trace)
    if step == S_HEADS_START:
        return step_heads_start(st, trace)
    if step == S_HEADS:
        return step_heads(st, trace)
    if step == S_MEETING_END:
        return step_meeting_end(st, trace)
    if step == S_APPOINT:
        return step_appoint(st)
    if step == S_END:
        return step_end(st, rules, trace)
    raise ValueError("the rules have no such step")


@njit(cache=True, _nrt=False, forceinline=False)
def answer(st, move, trace):
    """Carry out ``move`` for the pending decision (the rules go on with ``advance``)."""
    st[P_DECISIONS] += 1
    kind = st[P_DECISION]
    if kind == D_ACTION:
        answer_action(st, move, trace)
    elif kind == D_EMPLOYEE:
        answer_employee(st, move, trace)
    elif kind == D_SOURCE:
        answer_source(st, move, trace)
    elif kind == D_FIRE:
        answer_fire(st, move, trace)
    elif kind == D_BRIBE:
        answer_bribe(st, move, trace)
    elif kind == D_ACCEPT:
        answer_accept(st, move, trace)
    elif kind == D_VICTIM:
        answer_victim(st, move, trace)
    elif kind == D_ENTICE:
        answer_entice(st, move, trace)
    elif kind == D_ORDER:
        answer_order(st, move)
    elif kind == D_DISPLACED:
        answer_displaced(st, move, trace)
    elif kind == D_CHAIRMAN:
        answer_chairman(st, move, trace)
    elif kind == D_APPOINT:
        answer_appoint(st, move, trace)
    else:
        raise ValueError("no decision is pending")


# --- the protocol's functions (docs/protocol.md) -----------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def new_game(players, st, rules, rng, trace):
    """Set up from the game's stream and run the rules to the first decision."""
    set_up(players, st, rules, rng, trace)
    st[P_K] = 0
    st[P_STEP] = S_APPOINT
    while not advance(st, rules, rng, trace):
        pass


@njit(cache=True, _nrt=False, forceinline=False)
def apply(st, rules, move, rng, trace):
    """Answer the pending decision with ``move``, then run the rules to the next decision or the
    end (chance from ``rng``)."""
    answer(st, move, trace)
    while not advance(st, rules, rng, trace):
        pass


@njit(cache=True, _nrt=False, forceinline=False)
def to_move(st):
    return st[P_SEAT] if st[P_DECISION] != D_NONE else -1


@njit(cache=True, _nrt=False, forceinline=False)
def is_over(st):
    return st[P_DECISION] == D_NONE


@njit(cache=True, _nrt=False, forceinline=False)
def returns(st, out):
    """1.0 for each winner (a shared win: each sharer), 0.0 otherwise; all 0 at the turn cap."""
    for seat in range(st[PLAYERS]):
        out[seat] = np.float64((st[P_WINNERS] >> seat) & 1)


@njit(cache=True, _nrt=False, forceinline=False)
def push(moves, n, move):
    if n >= moves.shape[0]:
        raise ValueError("more options than the move buffer holds (MAX_MOVES)")
    moves[n] = move
    return n + 1


@njit(cache=True, _nrt=False, forceinline=False)
def legal(st, rules, moves):
    """The options of the pending decision (move codes, DECISION_KINDS in
    docs/games/power-struggle.md) into ``moves``; their number."""
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    n = 0
    if kind == D_ACTION:
        return action_moves(st, seat, moves)
    if kind == D_EMPLOYEE or kind == D_SOURCE or kind == D_FIRE or kind == D_VICTIM:
        owner = st[P_LOSER] if kind == D_VICTIM else seat
        for office in range(N_OFFICES):
            if not office_ok(st, office, owner, kind != D_EMPLOYEE, kind == D_EMPLOYEE):
                continue
            if kind == D_SOURCE and office == st[P_EXCLUDE]:
                continue
            if kind == D_FIRE and st[P_DIVISION] >= 0 and office // ROWS != st[P_DIVISION]:
                continue
            n = push(moves, n, office)
        return n
    if kind == D_BRIBE:
        if st[P_ATTEMPT] == 2:
            n = push(moves, n, 0)
        for card in range(N_PRIVILEGES):
            if st[HOLDER + card] != seat:
                for k in range(ps.bribe_most(st, seat) // ps.BRIBE_STEP):
                    n = push(moves, n, 1 + card + N_PRIVILEGES * k)
        return n
    if kind == D_ACCEPT or kind == D_DISPLACED:
        n = push(moves, n, 0)
        return push(moves, n, 1)
    if kind == D_ENTICE:
        n = push(moves, n, 0)
        for office in range(N_OFFICES):
            if enticeable(st, office, seat, st[P_TAKEN]):
                n = push(moves, n, office + 1)
        return n
    if kind == D_ORDER:
        for i in range(ORDER_SIZE):
            if order_pick_ok(st, order_candidate(st, i)):
                n = push(moves, n, order_candidate(st, i))
        return n
    if kind == D_APPOINT or kind == D_CHAIRMAN:
        n = push(moves, n, 0)
        most = 0
        if kind == D_CHAIRMAN and st[HALF + CHAIRMAN] == 0:
            most = min(employees(st, seat, -1), MAX_EMPLOYEES - 1)
        for moved in range(most + 1):
            for division in range(N_DIVISIONS):
                if has_vacancy(st, division):
                    n = push(moves, n, 1 + division + N_DIVISIONS * moved)
        return n
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def action_moves(st, seat, moves):
    """Every legal action with its options (``action_ok``), in the order of ACTIONS."""
    n = 0
    for kind in range(ps.N_ACTIONS):
        if not action_possible(st, seat, kind):
            continue
        if kind == ps.A_CREATE_TWO:
            for x in range(N_DIVISIONS):
                for y in range(N_DIVISIONS):
                    for z in range(2, MAX_EMPLOYEES + 2):
                        for w in range(2, MAX_EMPLOYEES + 2):
                            if create_two_problem(st, seat, x, y, z, w) == 0:
                                n = push(moves, n, action_move(kind, x, y, z, w))
        elif kind == ps.A_CREATE_ONE:
            for x in range(N_DIVISIONS):
                if has_vacancy(st, x):
                    for y in range(min(employees(st, seat, -1), MAX_EMPLOYEES - 1) + 1):
                        n = push(moves, n, action_move(kind, x, y, 0, 0))
        elif kind == ps.A_MOVE or kind == ps.A_MERGE:
            for x in range(N_OFFICES):
                if st[OWNER + x] != seat:
                    continue
                for y in range(-1 if kind == ps.A_MOVE else 0, N_OFFICES):
                    if y >= 0 and (st[OWNER + y] != seat or st[HEADS + y] != 1):
                        continue
                    for z in range(-1 if kind == ps.A_MERGE else 0, N_DIVISIONS):
                        if kind == ps.A_MOVE:
                            ok = move_problem(st, seat, x, y, z) == 0
                        else:
                            ok = merge_problem(st, seat, x, y, z) == 0
                        if ok:
                            n = push(moves, n, action_move(kind, x, y, z, 0))
        elif kind == ps.A_BUY_SHARES:
            for x in range(N_SIZES + 1):
                for y in range(1, N_SIZES + 1):
                    if share_option_ok(st, seat, x, y):
                        n = push(moves, n, action_move(kind, x, y, 0, 0))
        elif kind == ps.A_RESIGN or kind == ps.A_BUY_MAIN or kind == ps.A_BUY_CONSULTANT:
            for x in range(N_DIVISIONS):
                for y in range(2 if kind == ps.A_RESIGN else 1):
                    if action_ok(st, seat, kind, x, y, 0, 0):
                        n = push(moves, n, action_move(kind, x, y, 0, 0))
        else:
            n = push(moves, n, action_move(kind, 0, 0, 0, 0))
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def mix(h, value):
    """FNV-1a step over one int64 (its low 63 bits)."""
    return (h ^ np.uint64(value & 0x7FFFFFFFFFFFFFFF)) * np.uint64(1099511628211)


@njit(cache=True, _nrt=False, forceinline=False)
def order_known(st, seat):
    """How many places of the round's event order ``seat`` knows."""
    if st[ps.SORTER] != seat:
        return st[ps.REVEALED]
    return st[P_N] if st[P_STEP] == S_ORDER else ORDER_SIZE


@njit(cache=True, _nrt=False, forceinline=False)
def infoset_key(st, seat):
    """A hash of what ``seat`` observes now: everything but what ``determinize`` redraws for it
    (other undeclared players' Archenemy cards, the Pinats of bribes it was not party to, the
    event cards it has not seen, the deck's order) and the strategies' scratch. Other players'
    money enters as ``money_seen``. The data file's tables are constant in a game: left out."""
    h = mix(np.uint64(14695981039346656037), seat)
    for i in range(TRACK_MAX):
        h = mix(h, st[i])
    players = st[PLAYERS]
    for p in range(players):
        h = mix(h, ps.money_seen(st, seat, p))
    for i in range(TRACK, COLOUR_CARD):
        h = mix(h, st[i])
    for p in range(players):
        if p == seat or st[DECLARED + p] == 1:
            h = mix(h, st[COLOUR_CARD + p])
            h = mix(h, st[COMP_OF + p])
    for i in range(DECLARED, PILE):
        h = mix(h, st[i])
    if st[ps.SORTER] == seat:
        for i in range(ORDER_SIZE - 2):
            h = mix(h, st[PILE + i])
    for position in range(order_known(st, seat)):
        h = mix(h, st[ORDER + position])
    for i in range(ps.SORTER, ps.BRIBE_PAID):
        h = mix(h, st[i])
    for a in range(players):
        for b in range(players):
            if a == seat or b == seat:
                h = mix(h, st[ps.BRIBE_PAID + ps.MAX_PLAYERS * a + b])
    for i in range(GAME_STATS, P_AMOUNT):
        h = mix(h, st[i])
    if seat == st[P_ACTOR] or seat == st[P_TARGET]:
        h = mix(h, st[P_AMOUNT])
    for i in range(P_AMOUNT + 1, P_ORDER_POLICY):
        h = mix(h, st[i])
    for i in range(P_OUTCOME, P_DECISIONS):
        h = mix(h, st[i])
    return mix(h, st[P_THEN])


# --- what a seat cannot see: the redraw (the search, the leak check) ------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def determinize(st, seat, rng):
    """Redraw everything hidden from ``seat``, uniformly among the states consistent with what it
    sees now, and nothing else (the information-leak check and tree search use it):

    - the Archenemy cards of every other player who has not declared (Set Up 7; a declaring
      player shows his): their Colour cards are the colours that neither ``seat`` holds nor a
      declared player showed, dealt among them anew; their Competence cards are drawn from the
      cards kept at this table that ``seat`` has not seen (unused ones included);
    - money (Set Up 5): a bribe's amount is known only to the briber and the bribed player, so
      for each pair of other players the total of the accepted bribes from one to the other is
      redrawn (a multiple of 50,000, at least 50,000 a bribe and at most the bribe cap, their
      number is public) and both players' money moves with it, neither's below 0;
    - the event cards (Sort Event Cards: only the player who sorted them may look at the stack):
      unless ``seat`` sorted this round's cards, the places not yet turned up get the Directors'
      Meeting card at a legal place (5th or later), the Bonus Payment before it if it has not
      come up, and cards drawn from the ones not turned up this round elsewhere, every legal
      completion equally likely; the rest of the deck is shuffled for everyone.

    What it does not keep: a player who has not declared with target - 1 visible Victory Points
    is known to lack the Archenemy point at the end of his last action, and a past shortfall or
    "richest pays" event tells something of someone's money; the redraw keeps only the present
    (cards dealt, money never negative, the ordering rules)."""
    players = st[PLAYERS]
    hidden = 0  # bit p: p's Archenemy cards are hidden from seat
    for p in range(players):
        if p != seat and st[DECLARED + p] == 0:
            hidden |= 1 << p
    # Colour cards: the hidden players hold exactly the colours seat has not seen; Competence
    # cards: any of the kept cards seat has not seen (unused ones included).
    colours = 0  # bit: a colour seat has seen, or already dealt in this redraw
    cards = 0
    for p in range(players):
        if not (hidden >> p) & 1:
            colours |= 1 << st[COLOUR_CARD + p]
            cards |= 1 << st[COMP_OF + p]
    for p in range(players):
        if (hidden >> p) & 1:
            st[COLOUR_CARD + p] = draw_unseen(colours, players, rng)
            colours |= 1 << st[COLOUR_CARD + p]
            st[COMP_OF + p] = draw_unseen(cards, st[ps.N_COMP_CARDS], rng)
            cards |= 1 << st[COMP_OF + p]
    # Bribe amounts between two other players.
    for a in range(players):
        for b in range(players):
            pair = ps.MAX_PLAYERS * a + b
            count = st[ps.BRIBE_COUNT + pair]
            if a == seat or b == seat or count == 0:
                continue
            paid = st[ps.BRIBE_PAID + pair]
            step = ps.BRIBE_STEP
            least = max(count * ps.MIN_BRIBE, -((st[MONEY + b] - paid) // step) * step)
            most = (st[MONEY + a] + paid) // step * step
            cap = st[ps.RULE + ps.R_BRIBE_CAP] // step * step
            if cap > 0:
                most = min(most, count * cap)
            redrawn = least + step * rand_below(rng, (most - least) // step + 1)
            st[ps.BRIBE_PAID + pair] = redrawn
            st[MONEY + a] += paid - redrawn
            st[MONEY + b] += redrawn - paid
    redraw_events(st, seat, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def draw_unseen(seen, n, rng):
    """One of 0 .. n-1 not in the bitmask ``seen``, uniformly."""
    k = rand_below(rng, n - ps.count_bits(seen, n))
    for value in range(n):
        if not (seen >> value) & 1:
            if k == 0:
                return value
            k -= 1
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def redraw_events(st, seat, rng):
    """The event-card part of ``determinize``."""
    n_events = st[N_EVENTS]
    sorter = st[ps.SORTER]
    drawn = ORDER_SIZE - 2
    # The deck's order is unknown: shuffled from a canonical (sorted) order, so the redraw does
    # not depend on the order it replaces.
    if sorter < 0:  # no round sorted yet: only the deck, in an order nobody knows
        shuffle_into(st, PILE, n_events, rng)
        return
    if sorter == seat:  # it knows the round's cards (st[PILE + 0..5]); the deck is unknown
        sort_slice(st, PILE + drawn, n_events - drawn)
        shuffle_slice(st, PILE + drawn, n_events - drawn, rng)
        return
    revealed = st[ps.REVEALED]
    meeting_up = False
    bonus_up = False
    for position in range(revealed):
        meeting_up = meeting_up or st[ORDER + position] == st[MEETING_EVENT]
        bonus_up = bonus_up or st[ORDER + position] == st[ps.BONUS_EVENT]
    # The cards not turned up this round, in random order, into st[PILE + ...] after the
    # turned-up ones.
    k = 0
    for event in range(n_events):
        up = False
        for position in range(revealed):
            up = up or st[ORDER + position] == event
        if up:
            st[PILE + k] = event
            k += 1
    shown = k
    for event in range(n_events):
        up = False
        for position in range(revealed):
            up = up or st[ORDER + position] == event
        if not up:
            st[PILE + k] = event
            k += 1
    shuffle_slice(st, PILE + shown, n_events - shown, rng)
    meeting_at = -1
    bonus_at = -1
    if not meeting_up:
        # P(meeting at m) proportional to the bonus's places before it (1 if it came up).
        total = 0
        for m in range(max(ps.MIN_TURNS, revealed), ORDER_SIZE):
            total += 1 if bonus_up else m - revealed
        r = rand_below(rng, total)
        for m in range(max(ps.MIN_TURNS, revealed), ORDER_SIZE):
            weight = 1 if bonus_up else m - revealed
            if meeting_at < 0 and r < weight:
                meeting_at = m
                if not bonus_up:
                    bonus_at = revealed + r
            r -= weight
    k = shown
    for position in range(revealed, ORDER_SIZE):
        if position == meeting_at:
            st[ORDER + position] = st[MEETING_EVENT]
        elif position == bonus_at:
            st[ORDER + position] = st[ps.BONUS_EVENT]
        else:
            st[ORDER + position] = st[PILE + k]
            k += 1
    # The round's six drawn cards first in the pile, as sort_events leaves them.
    k = 0
    for position in range(ORDER_SIZE):
        event = st[ORDER + position]
        if event != st[MEETING_EVENT] and event != st[ps.BONUS_EVENT]:
            for i in range(k, n_events):
                if st[PILE + i] == event:
                    st[PILE + i] = st[PILE + k]
                    st[PILE + k] = event
            k += 1
    shuffle_slice(st, PILE + drawn, n_events - drawn, rng)
