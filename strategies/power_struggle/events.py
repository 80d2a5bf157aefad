"""Sorting the round's event cards as Divisional Head of Communications (``order_events``): the
strategy's ``order`` policy, with what each event is worth to the seat it judges."""

import numpy as np
from numba import njit

from simcore.games.power_struggle import state as ps
from simcore.games.power_struggle.state import (
    ACCOUNTING,
    BONUS,
    BONUS_EVENT,
    CHAIRMAN,
    COMMUNICATIONS,
    CONTROLLING,
    EVENT_FX,
    EVENT_WIDTH,
    FACE,
    FX_FACE_DOWN,
    FX_FIELDS,
    FX_LOSE,
    FX_MORON,
    FX_MOTIVATION,
    FX_RECEIVE,
    HALF,
    HEAD,
    HOLDER,
    HUMAN_RESOURCES,
    MAX_MOTIVATION,
    MAX_TURNS,
    MEETING_EVENT,
    MIN_TURNS,
    MOTIVATION,
    ORDER,
    ORDER_ADVERSARIAL,
    ORDER_MAX,
    ORDER_MIN,
    ORDER_RANDOM,
    ORDER_SELF,
    ORDER_SIZE,
    PILE,
    PLAYERS,
    SCRATCH,
    board_members,
    departments,
    employees,
    main_departments,
    money_seen,
    share_blocks,
)
from simcore.kernel.rng import rand_below
from strategies.power_struggle.archetypes import ORDER_PARAM
from strategies.power_struggle.queries import param
from strategies.power_struggle.worth import EMPLOYEE_WORTH, card_worth, held_worth, leader_of


@njit(cache=True, _nrt=False, forceinline=False)
def event_worth(st, event, judged, observer):
    """What non-standard ``event`` is worth to ``judged`` as ``observer`` reckons it (Pinats):
    payments exactly (money as ``observer`` can know it decides who is the richest or the
    poorest), an Employee lost EMPLOYEE_WORTH, a card turned face down its worth, a Motivation
    change what it changes in the worth of the Human Resources, Accounting and Controlling cards
    ``judged`` holds face up (their effects grow as Motivation falls)."""
    base = EVENT_FX + EVENT_WIDTH * event
    worth = 0.0
    players = st[PLAYERS]
    richest = money_seen(st, observer, 0)
    poorest = richest
    for p in range(players):
        richest = max(richest, money_seen(st, observer, p))
        poorest = min(poorest, money_seen(st, observer, p))
    money = money_seen(st, observer, judged)
    motivation = st[MOTIVATION]
    for k in range(st[base]):
        fx = base + 1 + FX_FIELDS * k
        kind = st[fx]
        who = st[fx + 1]
        per = st[fx + 2]
        amount = st[fx + 3]
        division = st[fx + 4]
        if kind == FX_MOTIVATION:
            after = max(0, min(MAX_MOTIVATION, motivation + amount))
            for card in (HUMAN_RESOURCES, ACCOUNTING, CONTROLLING):
                if st[HOLDER + card] == judged and st[FACE + card] == 1:
                    half = st[HALF + card]
                    worth += card_worth(st, judged, card, half, after)
                    worth -= card_worth(st, judged, card, half, motivation)
            motivation = after
        elif kind == FX_FACE_DOWN:
            worth -= held_worth(st, judged, division)
        elif kind == FX_MORON:
            head = st[HEAD + COMMUNICATIONS]
            if head == judged:
                worth -= amount * (players - 1)
            elif head >= 0:
                worth += amount
        elif ps.matches(st, judged, who, division, money, richest, poorest):
            if kind == FX_LOSE:
                worth -= EMPLOYEE_WORTH * min(amount, employees(st, judged, division))
            elif kind == FX_RECEIVE:
                worth += amount * ps.units(st, judged, per)
            else:
                worth -= amount * ps.units(st, judged, per)
    return worth


@njit(cache=True, _nrt=False, forceinline=False)
def bonus_worth(st, seat):
    """The Bonus Payment ``seat`` would receive now, without the Controlling card."""
    return (
        st[BONUS] * share_blocks(st, seat)
        + st[BONUS + 1] * departments(st, seat, -1)
        + st[BONUS + 2] * main_departments(st, seat, -1)
        + st[BONUS + 3] * board_members(st, seat)
        + st[BONUS + 4] * (st[HEAD + CHAIRMAN] == seat)
    )


@njit(cache=True, _nrt=False, forceinline=False)
def place_order(st, rng, turns, bonus_at, by_worth):
    """Write the round's order: the meeting card at ``turns``, the bonus at ``bonus_at``, the six
    drawn events in the other places: best worth first when ``by_worth`` (worths in
    st[SCRATCH + 6..11]), else in random order."""
    for i in range(6):
        st[SCRATCH + i] = i
    if by_worth:
        for i in range(6):  # selection sort, best first, stable
            best = i
            for j in range(i + 1, 6):
                if st[SCRATCH + 6 + st[SCRATCH + j]] > st[SCRATCH + 6 + st[SCRATCH + best]]:
                    best = j
            held = st[SCRATCH + best]
            for j in range(best, i, -1):
                st[SCRATCH + j] = st[SCRATCH + j - 1]
            st[SCRATCH + i] = held
    else:
        for i in range(5, 0, -1):
            j = rand_below(rng, i + 1)
            held = st[SCRATCH + i]
            st[SCRATCH + i] = st[SCRATCH + j]
            st[SCRATCH + j] = held
    k = 0
    for position in range(ORDER_SIZE):
        if position == turns:
            st[ORDER + position] = st[MEETING_EVENT]
        elif position == bonus_at:
            st[ORDER + position] = st[BONUS_EVENT]
        else:
            st[ORDER + position] = st[PILE + st[SCRATCH + k]]
            k += 1


@njit(cache=True, _nrt=False, forceinline=False)
def order_events(sid, prm, seat, st, rng):
    """Sort the drawn events (st[PILE + 0..5]) with the two standard ones into st[ORDER + 0..7]
    under the two ordering rules; returns the policy used (ORDER_POLICIES)."""
    policy = np.int64(param(prm, seat, ORDER_PARAM))
    if policy == ORDER_RANDOM or policy == ORDER_MAX or policy == ORDER_MIN:
        if policy == ORDER_MAX:
            turns = MAX_TURNS
        elif policy == ORDER_MIN:
            turns = MIN_TURNS
        else:
            # Every legal order equally likely: the meeting card at position p (4..7) has p
            # places for the bonus before it, so P(p) is proportional to p.
            r = rand_below(rng, 4 + 5 + 6 + 7)
            turns = 4 if r < 4 else (5 if r < 9 else (6 if r < 15 else 7))
        place_order(st, rng, turns, rand_below(rng, turns), False)
        return policy
    judged = seat if policy == ORDER_SELF else leader_of(st, seat, rng)
    sign = 1 if policy == ORDER_SELF else -1
    good = 0
    for i in range(6):
        st[SCRATCH + 6 + i] = np.int64(sign * event_worth(st, st[PILE + i], judged, seat))
        good += st[SCRATCH + 6 + i] >= 0
    turns = max(MIN_TURNS, min(MAX_TURNS, good + 1))
    average = 0
    for p in range(st[PLAYERS]):
        average += bonus_worth(st, p)
    early = bonus_worth(st, judged) * st[PLAYERS] >= average
    if policy == ORDER_ADVERSARIAL:
        early = not early
    place_order(st, rng, turns, 0 if early else turns - 1, True)
    return policy
