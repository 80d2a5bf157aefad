"""ISMCTS for POWER: the generic search of simcore/kernel/ismcts.py, compiled here against POWER's
protocol (simcore/games/power/rules.py) and scripted strategies (rollouts, played out as scripted
games
play: simcore/games/power/scripted.py), with its own cache entries (docs/protocol.md, "Generic code
over
the protocol")."""

from simcore.games.power.rules import (
    apply,
    believe,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from simcore.games.power.scripted import play_out
from simcore.games.power.state import MAX_MOVES, MOVE_CODES, STATE_SIZE
from simcore.games.power.state import MAX_PLAYERS as MAX_SEATS
from simcore.kernel import ismcts
from strategies.power import PARAM_NAMES, decide

N_STRATEGY_PARAMS = len(PARAM_NAMES)

__all__ = [
    "apply",
    "believe",
    "decide",
    "determinize",
    "infoset_key",
    "is_over",
    "legal",
    "new_game",
    "play_out",
]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "MOVE_CODES", "STATE_SIZE"]
__all__ += ["N_STRATEGY_PARAMS", "choose", "search"]

search = ismcts.specialise(globals())
choose = globals()["choose"]
