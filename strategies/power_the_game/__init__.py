"""Scripted POWER: The Game players: each round a seat writes its pad, dispatched on an integer id.

All seats write from the same state (``plan`` only reads the board as it stands at the start of
the round, which every player sees); a seat never sees another's pad. While writing, a seat
keeps its own armies' pieces as its commands will leave them (PLAN_* in the state), so that it
does not order a piece twice, spend Power Units twice, move a piece it has not bought yet, or buy
a piece its colour's set no longer has. Every choice between equals is drawn from the game's
random stream (``pick_node`` and reservoir draws), never taken in board-file, army or seat order.

``random`` writes legal-looking random commands. The archetypes share one planner whose steps
each read a parameter (columns in ``PARAM_NAMES`` order), in this order: set the round's guard
(``guard`` times the enemy power in reach of Headquarters, at least the ``home`` share of the
army's strength), storm an enemy Headquarters the power in reach beats, build and launch a
Mega-Missile (an Infantry following the strike in), the rulebook's opening, defend Headquarters,
raid enemy countries with planes for Power Units, buy and upgrade pieces, bring Reserve pieces to
Headquarters, choose (or keep) the target, blockade its Headquarters, mass the pieces the guard
can spare on it (stacks step together; Infantry to its kill squares), and, with commands to
spare, push mercenary pieces into its own forces (3 players). A seat's target is its memory,
kept in the state (TARGET); the protocol's ``determinize`` and the planners' ``hide_pads``
(simcore/games/power_the_game/rules.py) hide it from the others.

The modules: catalog.py (the strategies' ids, parameters and defaults), pad.py (the pad being
written: the round's view, the seat's picture of its own pieces, the ``random`` pad) and
planner.py (the archetypes' planner, ``write_pad``, ``decide``). This module offers what the
kernel (simcore/games/power_the_game/), its search and the registry use.
"""

from strategies.power_the_game.catalog import (
    P_MOVE,
    PARAM_NAMES,
    RANDOM,
    RANDOM_P_MOVE,
    STRATEGIES,
)
from strategies.power_the_game.pad import plan_random, start_pad, survey
from strategies.power_the_game.planner import decide, enemy_army, plan, write_pad

__all__ = ["P_MOVE", "PARAM_NAMES", "RANDOM", "RANDOM_P_MOVE", "STRATEGIES"]
__all__ += ["plan_random", "start_pad", "survey", "decide", "enemy_army", "plan", "write_pad"]
