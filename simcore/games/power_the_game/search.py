"""ISMCTS for POWER: The Game: the generic search of simcore/kernel/ismcts.py, compiled here
against the game's protocol (simcore/games/power_the_game/rules.py) and scripted strategies
(rollouts), with its own cache entries (docs/protocol.md, "Generic code over the protocol")."""

from simcore.games.power_the_game.rules import (
    apply,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from simcore.games.power_the_game.state import MAX_OPTIONS as MAX_MOVES
from simcore.games.power_the_game.state import MAX_OPTIONS as MOVE_CODES
from simcore.games.power_the_game.state import MAX_PLAYERS as MAX_SEATS
from simcore.games.power_the_game.state import STATE_SIZE
from simcore.kernel import ismcts
from strategies.power_the_game import PARAM_NAMES, decide

N_STRATEGY_PARAMS = len(PARAM_NAMES)

__all__ = ["apply", "decide", "determinize", "infoset_key", "is_over", "legal", "new_game"]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "MOVE_CODES", "STATE_SIZE"]
__all__ += ["N_STRATEGY_PARAMS", "choose", "search"]

search = ismcts.specialise(globals())
choose = globals()["choose"]
