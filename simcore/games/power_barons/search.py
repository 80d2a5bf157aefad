"""ISMCTS for Power Barons: the generic search of simcore/kernel/ismcts.py, compiled here against
the game's protocol (simcore/games/power_barons/rules.py) and scripted strategies (rollouts), with
its own cache entries (docs/protocol.md, "Generic code over the protocol")."""

from simcore.games.power_barons.rules import (
    apply,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from simcore.games.power_barons.state import MAX_MOVES, MOVE_CODES, STATE_SIZE
from simcore.games.power_barons.state import MAX_PLAYERS as MAX_SEATS
from simcore.kernel import ismcts
from strategies.power_barons import PARAM_NAMES, decide

N_STRATEGY_PARAMS = len(PARAM_NAMES)

__all__ = ["apply", "decide", "determinize", "infoset_key", "is_over", "legal", "new_game"]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "MOVE_CODES", "STATE_SIZE"]
__all__ += ["N_STRATEGY_PARAMS", "choose", "search"]

search = ismcts.specialise(globals())
choose = globals()["choose"]
