"""Scripted Time Barons players: every decision a seat makes, dispatched on an integer strategy id.

The four archetypes are one greedy policy with different weights: on each step of its turn a
scripted seat values every legal move (per action it costs) and makes the best one, ending its
turn when nothing is worth anything. What lasting things are worth (a site, a relocation, an
upgrade, where a follower stands) is worked out from the state over the turns the seat can still
expect; the weights are the strategies' parameters (columns in ``PARAM_NAMES`` order of
``prm``), how much an archetype cares for each kind of gain, so a designer can tune an archetype
or build a new one from the command line. ``random`` picks uniformly among the legal moves. Ties
between equal choices are broken from the game's random stream.

A seat sees the public state (sites, followers, damage, levels, stack sizes, the discard pile,
hand sizes, the attack it answers and the sites it names, the cards taken back from the pile)
and its own hand, never the opponent's other cards or the stacks' order
(simcore.games.time_barons.rules.determinize redraws exactly those; the fair-play leak test checks
it).

Speed: the valuations run for every option of every step. The functions marked
``forceinline=True`` are called for each option (or per decision with all the game's arrays):
numba passes every array argument as 7-9 machine words, so such a call costs about as much as
the work it does; inlined into their callers, they cost nothing to call.

The modules: catalog.py (the strategies' ids, parameters and defaults), values.py (what things are
worth), followers.py (relocations, exposure to attacks, where followers go) and decisions.py (the
decisions the kernel asks, and ``decide`` for the protocol). This module offers what the kernel
(simcore/games/time_barons/), its search and the registry use.
"""

from strategies.time_barons.catalog import PARAM_NAMES, STRATEGIES
from strategies.time_barons.decisions import (
    choose_move,
    choose_recover,
    choose_response,
    choose_site,
    choose_stack,
    decide,
)
from strategies.time_barons.followers import choose_arrangement

__all__ = ["PARAM_NAMES", "STRATEGIES", "choose_arrangement", "choose_move", "choose_recover"]
__all__ += ["choose_response", "choose_site", "choose_stack", "decide"]
