"""Power Barons' decisions about a seat's bank: the card a hand over size banks (strategy hint
1: what to keep, what to bank), and the Power Base its banked credits buy."""

import numpy as np
from numba import njit

from simcore.games.power_barons.state import (
    COLOUR,
    HAND,
    LIMITED,
    N_COLOURS,
    N_SPACES,
    N_TYPES,
    PI,
    R_DECLARED_MULTIPLIER,
    R_POLITICAL_INFLUENCE,
    SPACE_KIND,
    VALUE,
    bases_in,
    bases_on_board,
    best_values,
    can_place,
    card_at,
    colour_run,
    hand_count,
    lowest_slot,
)
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below
from strategies.power_barons.common import (
    BANK_DECOYS,
    BANK_HIGHEST_LATE,
    BANK_LOWEST,
    BANKING,
    LATE_BASES,
    RANDOM,
    extreme_card,
    takes_tie,
    useful,
)

# --- banking -------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def full_share_weight(st, rules):
    """How often a challenge is full (has a PI round), as the board's spaces that are not
    LIMITED CHALLENGE (none without political_influence); the weight of a PI card's credits in
    ``challenge_worth``, over N_TYPES * spaces."""
    if rules[R_POLITICAL_INFLUENCE] == 0.0:
        return 0
    n = st[N_SPACES]
    for space in range(st[N_SPACES]):
        n -= st[ix(SPACE_KIND + space)] == LIMITED
    return N_TYPES * n


@inline_njit()
def challenge_worth(st, rules, card, slot, first, n, full_weight):
    """What ``card`` (at ``slot`` in its colour's ranked run st[first : first + n]) adds to its
    holder's expected challenge total, times N_TYPES * spaces (integers, so that equal worths
    tie exactly). In a challenge a hand plays its best card of each Power Card colour, which
    counts (multiplier + 3) / 4 times its value on average (one colour in four is declared),
    and in a full challenge (full_weight) every Political Influence card it needs. Without a
    colour's best card the next one plays, so the best adds the difference; any other Power Card
    adds nothing now (it is a backup)."""
    if st[ix(COLOUR + card)] == PI:
        return st[ix(VALUE + card)] * full_weight
    if slot != first:
        return 0
    after = st[ix(VALUE + st[ix(first + 1)])] if n > 1 else 0
    average = np.int64(rules[R_DECLARED_MULTIPLIER]) + N_TYPES - 1
    return (st[ix(VALUE + card)] - after) * average * st[N_SPACES]


@njit(cache=True, _nrt=False, forceinline=False)
def least_worth(st, rules, seat, rng):
    """keep_best's bank card: the one that adds least to ``seat``'s expected challenge total
    (challenge_worth); among those, the lowest, as a backup is worth more the higher it is once
    its colour's best is lost (ties: drawn)."""
    full_weight = full_share_weight(st, rules)
    pick = -1
    pick_worth = 0
    ties = 0
    for card_colour in range(N_COLOURS):
        first, n = colour_run(st, seat, card_colour)
        for slot in range(first, first + n):
            card = st[ix(slot)]
            worth = challenge_worth(st, rules, card, slot, first, n, full_weight)
            if (
                pick < 0
                or worth < pick_worth
                or (worth == pick_worth and st[ix(VALUE + card)] < st[ix(VALUE + pick)])
            ):
                pick, pick_worth, ties = card, worth, 1
            elif worth == pick_worth and st[ix(VALUE + card)] == st[ix(VALUE + pick)]:
                ties += 1
                if takes_tie(rng, ties):
                    pick = card
    return pick


@inline_njit()
def decoy_candidate(st, seat, card_colour):
    """(card, keep priority) of the card banking=decoys banks first among ``seat``'s cards of
    ``card_colour``, or (-1, 4) if it has none. Keep priorities: 3 for the colour's best card
    and the second-best Political Influence card, 2 for a Power Card colour's lowest card when
    it is not also its best (a decoy to give away instead of a good card), else 1; the candidate
    is the highest card of the lowest priority, found by its place in the ranked run."""
    first, n = colour_run(st, seat, card_colour)
    if n == 0:
        return -1, 4
    if card_colour == PI:
        return (st[ix(first + 2)], 1) if n >= 3 else (st[ix(first)], 3)
    decoy = lowest_slot(st, first, n)
    unprotected = first + 1 if decoy != first + 1 else first + 2  # the highest other card
    if unprotected < first + n:
        return st[ix(unprotected)], 1
    if decoy != first:
        return st[ix(decoy)], 2
    return st[ix(first)], 3


@njit(cache=True, _nrt=False, forceinline=False)
def decoys_choice(st, seat, rng):
    """banking=decoys: the highest of ``seat``'s cards of the lowest keep priority (see
    decoy_candidate; ties between colours: drawn)."""
    best = -1
    best_priority = 4
    ties = 0
    for card_colour in range(N_COLOURS):
        card, priority = decoy_candidate(st, seat, card_colour)
        if card < 0:
            continue
        if priority < best_priority or (
            priority == best_priority and st[ix(VALUE + card)] > st[ix(VALUE + best)]
        ):
            best, best_priority, ties = card, priority, 1
        elif priority == best_priority and st[ix(VALUE + card)] == st[ix(VALUE + best)]:
            ties += 1
            if takes_tie(rng, ties):
                best = card
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def choose_bank_card(sid, prm, me, st, rules, rng):
    """The card ``me`` banks when its hand is over size."""
    return bank_choice(sid, np.int64(prm[me, BANKING]), prm[me, LATE_BASES], me, st, rules, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def bank_choice(sid, banking, late_bases, me, st, rules, rng):
    """The card ``me`` banks under ``banking`` (a BANKINGS index): keep_best the card that adds
    least to its challenges (least_worth); lowest its lowest card; decoys hint 1 read literally
    (decoys_choice); highest_late keep_best until it has ``late_bases`` bases on the board, then
    its highest card ("late in the game, bank high-value cards")."""
    if sid == RANDOM:
        return card_at(st, HAND + me, rand_below(rng, hand_count(st, me)))
    if banking == BANK_HIGHEST_LATE and bases_on_board(st, me) >= late_bases:
        return extreme_card(st, me, True, rng)
    if banking == BANK_LOWEST:
        return extreme_card(st, me, False, rng)
    if banking == BANK_DECOYS:
        return decoys_choice(st, me, rng)
    return least_worth(st, rules, me, rng)


# --- buying ----------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def choose_purchase(sid, me, players, st, rng):
    """(territory, type) of the base ``me`` buys (a legal placement exists). Hint 2: buy the
    bases you are unlikely to win, so the scripted players buy a needed type in their weakest
    colour, in the territory where they have the most bases (ties: drawn)."""
    best = best_values(st, me)
    n = 0
    best_territory = -1
    best_type = -1
    best_score = -1
    ties = 0
    for territory in range(players):
        for base_type in range(N_TYPES):
            if not can_place(st, players, me, territory, base_type):
                continue
            n += 1
            if sid == RANDOM:
                continue
            score = 0
            if useful(st, players, me, territory, base_type):
                score = 10_000 - 10 * best[base_type] + bases_in(st, me, territory)
            if score > best_score:
                best_territory, best_type, best_score, ties = territory, base_type, score, 1
            elif score == best_score:
                ties += 1
                if takes_tie(rng, ties):
                    best_territory, best_type = territory, base_type
    if sid == RANDOM:
        k = rand_below(rng, n)
        for territory in range(players):
            for base_type in range(N_TYPES):
                if can_place(st, players, me, territory, base_type):
                    if k == 0:
                        return territory, base_type
                    k -= 1
    return best_territory, best_type
