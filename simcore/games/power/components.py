"""POWER's components: the deck of character cards (../shared/rules/power.md, "Components").

Five characters, ``copies_per_character`` copies of each (a rule parameter; the rulebook's 3 by
default), the deck always shuffled: the state keeps each character's count in the deck
(``st[DECK + character]``), and drawing takes a uniformly random card of those left. The
characters' names and codes are in state.py (the strategies read them too).
"""

import numpy as np

from simcore.games.power.state import DECK, N_CHARACTERS
from simcore.kernel.intrinsics import ix, plain_njit
from simcore.kernel.rng import rand_below

# ``deck_counts`` and ``draw_from`` spell out the five characters.
assert N_CHARACTERS == 5


@plain_njit(forceinline=True)
def deck_counts(st):
    """The deck as each character's copies in it, a tuple (``draw_from``)."""
    return (st[DECK], st[DECK + 1], st[DECK + 2], st[DECK + 3], st[DECK + 4])


@plain_njit(forceinline=True)
def cards_in(deck):
    """The cards in ``deck`` (``deck_counts``)."""
    return deck[0] + deck[1] + deck[2] + deck[3] + deck[4]


@plain_njit(forceinline=True)
def draw_from(deck, rng):
    """A uniformly random card from ``deck`` (``deck_counts``): (its character, or -1 if the deck
    is empty; the deck without it). A tuple rather than the state, so that a deal's draws keep
    the deck in registers instead of each waiting for the last one's store."""
    size = cards_in(deck)
    pick = rand_below(rng, size)
    if size == 0:
        return -1, deck
    # The character whose copies cover ``pick`` when the deck is laid out character by
    # character: the count of characters whose copies all lie at or below it. Counted, not
    # searched, so that no branch depends on the card drawn.
    below = deck[0]
    character = np.int64(pick >= below)
    below += deck[1]
    character += pick >= below
    below += deck[2]
    character += pick >= below
    below += deck[3]
    character += pick >= below
    return character, (
        deck[0] - (character == 0), deck[1] - (character == 1), deck[2] - (character == 2),
        deck[3] - (character == 3), deck[4] - (character == 4),
    )  # fmt: skip


@plain_njit(forceinline=True)
def draw_card(st, rng):
    """A uniformly random card from the (always shuffled) deck, removed from it; -1 if the deck
    is empty."""
    character, _ = draw_from(deck_counts(st), rng)
    if character >= 0:
        st[ix(DECK + character)] -= 1
    return character
