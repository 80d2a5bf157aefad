"""The smaller Power Struggle decisions: the initial appointments, where Employees come and go
(hired, moved, dismissed, enticed, lost to a refused bribe), a displaced Divisional Head, bribes
offered and accepted, the Chairman card."""

import numpy as np
from numba import njit

from simcore.games.power_struggle.options import enticeable
from simcore.games.power_struggle.state import (
    CONSULT,
    COUNSEL,
    EMP,
    HEADS,
    HOLDER,
    MAX_EMPLOYEES,
    MIN_BRIBE,
    N_DIVISIONS,
    N_OFFICES,
    N_PRIVILEGES,
    OWNER,
    SCRATCH,
    board_members,
    bribe_most,
    employees,
    has_vacancy,
)
from simcore.kernel.rng import rand_below, rand_float
from strategies.power_struggle.archetypes import ASK_EXTRA, BOARD, OFFER_EXTRA, RANDOM
from strategies.power_struggle.queries import (
    argmax_step,
    best_division,
    office_fits,
    param,
    pick_division,
    pick_office,
)
from strategies.power_struggle.worth import (
    asking_price,
    board_gain,
    board_worth,
    bribed_worth,
    leader_of,
    point_worth,
)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_appointment(sid, prm, seat, st, rng):
    """Initial appointment: -1 the Board Room, else the division of a new Department."""
    if sid == RANDOM:
        choice = rand_below(rng, 1 + vacancies_count(st))
        if choice == 0:
            return -1
        return pick_division(st, rng, 1)
    if sid == BOARD and board_members(st, seat) < 2:
        return -1
    return best_division(sid, seat, st, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def vacancies_count(st):
    n = 0
    for division in range(N_DIVISIONS):
        n += has_vacancy(st, division)
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def office_by(st, rng, owner, exclude, division, need_staff, need_room, score_kind):
    """The office of ``owner`` (not ``exclude``; in ``division`` unless -1; with Employees /
    with room) with the best score, ties at random. ``score_kind`` 0: fewest Managers, then
    fewest Employees (where a new Employee goes; where a victim loses one); 1: most Employees,
    then most Managers (the office an own Employee leaves: Main Departments never close)."""
    best = -1
    best_score = 0
    ties = 0
    for office in range(N_OFFICES):
        if not office_fits(st, office, owner, need_staff, need_room, exclude, division):
            continue
        size = (MAX_EMPLOYEES + 1) * st[HEADS + office] + st[EMP + office]
        if score_kind == 1:
            size = (MAX_EMPLOYEES + 1) * st[EMP + office] + st[HEADS + office]
        score = -size if score_kind == 0 else size
        best, best_score, ties = argmax_step(rng, best, best_score, ties, office, score)
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def choose_employee_office(sid, prm, seat, st, rng):
    """Where a new Employee of ``seat`` goes: its Department with the fewest Employees (then its
    Main Department with the fewest)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, False, True, -1, -1)
    return office_by(st, rng, seat, -1, -1, False, True, 0)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_source_office(sid, prm, seat, exclude, st, rng):
    """Which of its offices gives up an Employee to a new Department: the one with the most
    (Main Departments first on a tie: they never close)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, True, False, exclude, -1)
    return office_by(st, rng, seat, exclude, -1, True, False, 1)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_fire_office(sid, prm, seat, division, st, rng):
    """Which of its own Employees ``seat`` dismisses (in ``division`` unless -1)."""
    if sid == RANDOM:
        return pick_office(st, rng, seat, True, False, -1, division)
    return office_by(st, rng, seat, -1, division, True, False, 1)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_victim_office(sid, prm, chooser, victim, st, rng):
    """Which of ``victim``'s Employees ``chooser`` removes: one that closes a Department if it
    can, else from its smallest office."""
    if sid == RANDOM:
        return pick_office(st, rng, victim, True, False, -1, -1)
    return office_by(st, rng, victim, -1, -1, True, False, 0)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_entice(sid, prm, seat, taken, st, rng):
    """Development: the office another player (not yet in ``taken``) loses an Employee from, or
    -1 for the supply: the leader's smallest office first."""
    if sid == RANDOM:
        n = 1
        for office in range(N_OFFICES):
            n += enticeable(st, office, seat, taken)
        k = rand_below(rng, n)
        for office in range(N_OFFICES):
            if enticeable(st, office, seat, taken):
                k -= 1
                if k == 0:
                    return office
        return -1
    leader = leader_of(st, seat, rng)
    best = -1
    best_score = 0
    ties = 0
    for office in range(N_OFFICES):
        if not enticeable(st, office, seat, taken):
            continue
        size = (MAX_EMPLOYEES + 1) * st[HEADS + office] + st[EMP + office]
        score = 100 * (st[OWNER + office] == leader) - size
        best, best_score, ties = argmax_step(rng, best, best_score, ties, office, score)
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def choose_displaced(sid, prm, seat, division, st, rng):
    """A displaced Divisional Head goes to the Board Room (0) or the Counsel track (1),
    whichever is worth more to ``seat`` (a tie at random)."""
    if sid == RANDOM:
        return rand_below(rng, 2)
    board = board_gain(st, seat, 1) * board_worth(st, seat)
    counsel = 0
    if st[CONSULT + N_DIVISIONS * seat + division] == 0:
        counsel = point_worth(st, seat, COUNSEL)
    if board == counsel:
        return rand_below(rng, 2)
    return 1 if counsel > board else 0


@njit(cache=True, _nrt=False, forceinline=False)
def choose_bribe(sid, prm, seat, attempt, st, rng):
    """(card, amount) of a bribe attempt; card -1 skips a second attempt. An archetype wants the
    card with the most surplus (its worth to it won by the bribe, less the price: the holder's
    asking price plus its ``offer_extra``, at least 50,000, in 50,000s); a second
    attempt skips the card just refused and needs a surplus. A first attempt with no surplus
    anywhere (the Corruption point alone is worth the action) offers 50,000."""
    if bribe_most(st, seat) < MIN_BRIBE:
        return -1, 0
    if sid == RANDOM:
        if attempt == 2 and rand_float(rng) < 0.5:
            return -1, 0
        n = 0
        for card in range(N_PRIVILEGES):
            n += st[HOLDER + card] != seat
        k = rand_below(rng, n)
        chosen = -1
        for card in range(N_PRIVILEGES):
            if st[HOLDER + card] != seat:
                if k == 0:
                    chosen = card
                k -= 1
        steps = rand_below(rng, min(bribe_most(st, seat) // MIN_BRIBE, 6)) + 1
        return chosen, steps * MIN_BRIBE
    best = -1
    best_surplus = 0.0
    ties = 0
    for card in range(N_PRIVILEGES):
        if st[HOLDER + card] == seat or (attempt == 2 and card == st[SCRATCH + 5]):
            continue
        surplus = bribed_worth(st, seat, card) - bribe_price(st, prm, seat, card)
        best, best_surplus, ties = argmax_step(rng, best, best_surplus, ties, card, surplus)
    if best < 0 or (attempt == 2 and best_surplus < 0):
        return -1, 0
    st[SCRATCH + 5] = best
    amount = bribe_price(st, prm, seat, best) if best_surplus >= 0 else MIN_BRIBE
    return best, min(amount, bribe_most(st, seat))


@njit(cache=True, _nrt=False, forceinline=False)
def bribe_price(st, prm, seat, card):
    """What ``seat`` would offer for ``card``: the holder's asking price plus its
    ``offer_extra``, in whole 50,000s, at least 50,000."""
    wanted = asking_price(st, st[HOLDER + card], seat, card) + param(prm, seat, OFFER_EXTRA)
    return max(MIN_BRIBE, np.int64(np.ceil(wanted / MIN_BRIBE)) * MIN_BRIBE)


@njit(cache=True, _nrt=False, forceinline=False)
def accept_bribe(sid, prm, seat, briber, card, amount, st, rng):
    """An archetype accepts at least its asking price plus ``ask_extra``."""
    if sid == RANDOM:
        return rand_float(rng) < 0.5
    return amount >= asking_price(st, seat, briber, card) + param(prm, seat, ASK_EXTRA)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_chairman_privilege(sid, prm, seat, half, st, rng):
    """The division of the Department (half 0) or Main Department (half 1) the Chairman card
    founds, or -1; Employees it moves into a new Department go to st[SCRATCH + 1]."""
    if sid == RANDOM:
        if rand_float(rng) < 0.25:
            return -1
        st[SCRATCH + 1] = rand_below(rng, min(employees(st, seat, -1), 2) + 1)
        return pick_division(st, rng, 1)
    st[SCRATCH + 1] = 0
    return best_division(sid, seat, st, rng)
