"""ISMCTS for Power Struggle: the generic search of simcore/kernel/ismcts.py, compiled here against
the game's protocol (simcore/games/power_struggle/rules.py) and scripted strategies (rollouts),
with its own cache entries (docs/protocol.md, "Generic code over the protocol")."""

from simcore.games.power_struggle.rules import (
    apply,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from simcore.games.power_struggle.state import MAX_MOVES, STATE_SIZE
from simcore.games.power_struggle.state import MAX_PLAYERS as MAX_SEATS
from simcore.kernel import ismcts
from strategies.power_struggle import PARAM_NAMES, decide

N_STRATEGY_PARAMS = len(PARAM_NAMES)
__all__ = ["apply", "decide", "determinize", "infoset_key", "is_over", "legal", "new_game"]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "STATE_SIZE"]
__all__ += ["N_STRATEGY_PARAMS", "choose", "search"]

search = ismcts.specialise(globals())
choose = globals()["choose"]
