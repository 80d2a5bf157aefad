"""Small queries and picks the Power Struggle decisions share: parameters, argmax with ties broken
from the game's stream, random or best offices and divisions, share purchases, pairs to merge,
and the scratch an action's options go to."""

from numba import njit

from simcore.games.power_struggle.state import (
    CONSULT,
    EMP,
    HEAD,
    HEADS,
    MAX_EMPLOYEES,
    N_DIVISIONS,
    N_OFFICES,
    N_SIZES,
    OWNER,
    PLAYERS,
    ROWS,
    SCRATCH,
    has_vacancy,
    share_option_ok,
    vacancies,
)
from simcore.kernel.rng import rand_below
from strategies.power_struggle.archetypes import CONSULTANT, PREFERENCES


@njit(cache=True, _nrt=False, forceinline=False)
def param(prm, seat, which):
    return prm[seat, which]


@njit(cache=True, _nrt=False, forceinline=False)
def argmax_step(rng, best, best_score, ties, candidate, score):
    """One step of an argmax (start with best -1): (best, best score, candidates tied for it)
    after ``candidate`` with ``score``. The k-th candidate tied for the best takes the place
    with probability 1 / k, so every tied candidate is chosen equally often: ties are broken
    from the game's stream, never by index."""
    if best < 0 or score > best_score:
        return candidate, score, 1
    if score == best_score:
        ties += 1
        if rand_below(rng, ties) == 0:
            return candidate, best_score, ties
    return best, best_score, ties


@njit(cache=True, _nrt=False, forceinline=False)
def pick_office(st, rng, seat, need_staff, need_room, exclude, division):
    """A uniformly random office of ``seat`` (with Employees / with room / not ``exclude`` /
    in ``division`` unless -1), or -1."""
    n = 0
    for office in range(N_OFFICES):
        if office_fits(st, office, seat, need_staff, need_room, exclude, division):
            n += 1
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for office in range(N_OFFICES):
        if office_fits(st, office, seat, need_staff, need_room, exclude, division):
            if k == 0:
                return office
            k -= 1
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def office_fits(st, office, seat, need_staff, need_room, exclude, division):
    return (
        st[OWNER + office] == seat
        and office != exclude
        and (division < 0 or office // ROWS == division)
        and (not need_staff or st[EMP + office] > 0)
        and (not need_room or st[EMP + office] < MAX_EMPLOYEES)
    )


@njit(cache=True, _nrt=False, forceinline=False)
def pick_division(st, rng, need):
    """A uniformly random division with at least ``need`` vacant offices, or -1."""
    n = 0
    for division in range(N_DIVISIONS):
        if vacancies(st, division) >= need:
            n += 1
    if n == 0:
        return -1
    k = rand_below(rng, n)
    for division in range(N_DIVISIONS):
        if vacancies(st, division) >= need:
            if k == 0:
                return division
            k -= 1
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def claim(st, division, seat):
    """Department Heads of ``seat`` in ``division`` (a Main Department counts 2)."""
    n = 0
    for row in range(ROWS):
        if st[OWNER + ROWS * division + row] == seat:
            n += st[HEADS + ROWS * division + row]
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def best_division(sid, seat, st, rng):
    """Where a new Department helps ``seat`` most: a division it would then lead for the
    Divisional Head, weighted by what that division's card does for its route; -1 if none."""
    best = -1
    best_score = 0
    ties = 0
    for division in range(N_DIVISIONS):
        if not has_vacancy(st, division):
            continue
        mine = claim(st, division, seat)
        other = 0
        for p in range(st[PLAYERS]):
            if p != seat:
                other = max(other, claim(st, division, p))
        score = 10 * PREFERENCES[6 * sid + division] - ROWS + vacancies(st, division)
        if mine <= other < mine + 1:
            score += 100
        elif mine > other:
            score += 20
        else:
            score -= 10 * (other - mine)
        if sid == CONSULTANT and st[CONSULT + N_DIVISIONS * seat + division] == 0:
            score += 30
        best, best_score, ties = argmax_step(rng, best, best_score, ties, division, score)
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def best_shares(st, seat):
    """(paid, received) of the allowed purchase receiving the most shares (ties: cheapest), or
    (-1, -1)."""
    best_paid = -1
    best_received = -1
    for received in range(N_SIZES, 0, -1):
        for paid in range(N_SIZES + 1):
            if share_option_ok(st, seat, paid, received):
                if best_received < 0 or (received == best_received and paid < best_paid):
                    best_paid = paid
                    best_received = received
        if best_received > 0:
            return best_paid, best_received
    return best_paid, best_received


@njit(cache=True, _nrt=False, forceinline=False)
def set_choice(st, x, y, z, w):
    st[SCRATCH + 1] = x
    st[SCRATCH + 2] = y
    st[SCRATCH + 3] = z
    st[SCRATCH + 4] = w


@njit(cache=True, _nrt=False, forceinline=False)
def new_counsel_division(st, seat, rng, heading):
    """A division where ``seat`` has no Consultant yet (only those it heads when ``heading``),
    chosen at random; -1 if none."""
    best = -1
    ties = 0
    for division in range(N_DIVISIONS):
        if st[CONSULT + N_DIVISIONS * seat + division] > 0:
            continue
        if heading and st[HEAD + division] != seat:
            continue
        best, _, ties = argmax_step(rng, best, 0, ties, division, 0)
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def merge_pair(st, seat, rng):
    """Two Departments of ``seat`` to merge (the second moves into the first's office): a pair in
    one division if any (the division keeps its Department Heads), else the pair with the fewest
    Employees (the fewest fired beyond the 2); ties at random."""
    best = -1  # N_OFFICES * first + second
    best_score = 0
    ties = 0
    for first in range(N_OFFICES):
        if st[OWNER + first] != seat or st[HEADS + first] != 1:
            continue
        for second in range(first + 1, N_OFFICES):
            if st[OWNER + second] != seat or st[HEADS + second] != 1:
                continue
            same = first // ROWS == second // ROWS
            score = 100 * same - st[EMP + first] - st[EMP + second]
            pair = N_OFFICES * first + second
            best, best_score, ties = argmax_step(rng, best, best_score, ties, pair, score)
    a, b = best // N_OFFICES, best % N_OFFICES
    if rand_below(rng, 2) == 1:  # which of the two moves: no reason to prefer either
        a, b = b, a
    return a, b
