"""How the information-leak check (tests/leak_check.py) reaches Time Barons' decisions."""

import simcore.games.time_barons.search  # noqa: F401  (loaded, so that its search can be wrapped)
from simcore.games.time_barons.rules import determinize
from tests.leak_check import Glue


def redraw(args: dict, seat: int, rng) -> None:
    determinize(args["st"], seat, rng)


GLUE = Glue(
    strategies="strategies.time_barons",
    decisions={
        "choose_move": "seat",
        "choose_response": "seat",
        "choose_site": "seat",
        "choose_arrangement": "seat",
        "choose_stack": "seat",
        "choose_recover": "seat",
        "simcore.games.time_barons.search:search": "seat",
    },
    redraw=redraw,
)
