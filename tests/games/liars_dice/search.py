"""ISMCTS for Liar's Dice: the generic search of simcore/kernel/ismcts.py compiled here against
the toy's protocol (rules.py) and scripted strategies (rollouts), with its own cache entries
(docs/protocol.md, "Generic code over the protocol"). Without ``believe`` or ``play_out`` of its
own, the game gets the generic ones (simcore/contract.py, ``SearchProtocolOptional``)."""

from simcore.kernel import ismcts
from tests.games.liars_dice.rules import (
    apply,
    determinize,
    infoset_key,
    is_over,
    legal,
    new_game,
    returns,
    to_move,
)
from tests.games.liars_dice.state import MAX_MOVES, MOVE_CODES, STATE_SIZE
from tests.games.liars_dice.state import MAX_PLAYERS as MAX_SEATS
from tests.games.liars_dice.strategies import PARAM_NAMES, decide

N_STRATEGY_PARAMS = len(PARAM_NAMES)

__all__ = ["apply", "decide", "determinize", "infoset_key", "is_over", "legal", "new_game"]
__all__ += ["returns", "to_move", "MAX_MOVES", "MAX_SEATS", "MOVE_CODES", "STATE_SIZE"]
__all__ += ["N_STRATEGY_PARAMS", "choose", "search"]

search = ismcts.specialise(globals())
choose = globals()["choose"]
