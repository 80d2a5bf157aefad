"""Power Barons' decisions on the board spaces: whom to ask and for what (TAKE A POWER CARD,
TAKE POLITICAL INFLUENCE, SPY AND STEAL), the card a victim gives or a spy steals, and the
opponent's Power Base to take back (REMOVE A POWER BASE)."""

import numpy as np
from numba import njit

from simcore.games.power_barons.state import (
    HAND,
    N_TERRITORIES,
    N_TYPES,
    bases_in,
    bases_on_board,
    best_values,
    card_at,
    hand_count,
    has_base,
    highest,
    lowest,
    types_to_win,
)
from simcore.kernel.intrinsics import inline_njit
from simcore.kernel.rng import rand_below
from strategies.power_barons.common import (
    GIVE_AWAY,
    GIVE_HIGHEST,
    GIVE_RANDOM,
    RANDOM,
    beats,
    extreme_card,
    extreme_colour,
    leader,
    leader_score,
    random_card,
    random_opponent,
)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_victim(sid, me, players, st, rng):
    """Whom to ask for a card or spy on: the leader (random: anyone)."""
    if sid == RANDOM:
        return random_opponent(me, players, rng)
    return leader(st, players, me, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_colour_to_ask(sid, me, st, rng):
    """TAKE A POWER CARD: the colour ``me`` asks for: its weakest."""
    if sid == RANDOM:
        return rand_below(rng, N_TYPES)
    return extreme_colour(best_values(st, me), True, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_give(sid, prm, me, card_colour, st, rng):
    """The card of ``card_colour`` ``me`` hands over when asked."""
    return give_choice(sid, np.int64(prm[me, GIVE_AWAY]), me, card_colour, st, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def give_choice(sid, give_away, me, card_colour, st, rng):
    """The card of ``card_colour`` ``me`` hands over when asked (it holds one), under
    ``give_away`` (a GIVE_AWAYS index): its lowest (hint 1's decoy), highest, or a random one."""
    if sid == RANDOM or give_away == GIVE_RANDOM:
        return random_card(st, HAND + me, card_colour, rng)
    if give_away == GIVE_HIGHEST:
        return highest(st, me, card_colour)
    return lowest(st, me, card_colour)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_steal(sid, me, victim, st, rng):
    """SPY AND STEAL: the card ``me`` takes from ``victim``'s hand (not empty), which it is
    shown: the highest."""
    if sid == RANDOM:
        return card_at(st, HAND + victim, rand_below(rng, hand_count(st, victim)))
    return extreme_card(st, victim, True, rng)


@inline_njit()
def counts_towards_win(st, players, owner, territory):
    """A base of ``owner`` in ``territory`` counts towards its win (removing one costs it)."""
    return (
        territory < players
        and territory != owner
        and bases_in(st, owner, territory) <= types_to_win(st)
    )


@njit(cache=True, _nrt=False, forceinline=False)
def choose_removal(sid, me, players, st, rng):
    """REMOVE A POWER BASE: (owner, territory, type) of an opponent's base (one exists).

    The scripted players set the leader back: among the opponents' bases, one whose removal
    costs its owner a base towards its win, of the opponent furthest ahead, in the territory
    where it has the most bases; ties (owner, territory, type) drawn."""
    if sid == RANDOM:
        n = 0
        for owner in range(players):
            if owner != me:
                n += bases_on_board(st, owner)
        pick = rand_below(rng, n)
        for owner in range(players):
            if owner == me:
                continue
            for territory in range(N_TERRITORIES):
                for base_type in range(N_TYPES):
                    if has_base(st, owner, territory, base_type):
                        if pick == 0:
                            return owner, territory, base_type
                        pick -= 1
    best_owner, best_territory, best_type = -1, -1, -1
    best_score = -1
    ties = 0
    for owner in range(players):
        if owner == me:
            continue
        for territory in range(N_TERRITORIES):
            if bases_in(st, owner, territory) == 0:
                continue
            score = (
                counts_towards_win(st, players, owner, territory) * 1_000_000_000_000
                + leader_score(st, owner) * 10
                + bases_in(st, owner, territory)
            )
            for base_type in range(N_TYPES):
                if not has_base(st, owner, territory, base_type):
                    continue
                take, best_score, ties = beats(score, best_score, ties, rng)
                if take:
                    best_owner, best_territory, best_type = owner, territory, base_type
    return best_owner, best_territory, best_type
