"""How the information-leak check (tests/leak_check.py) reaches Time Barons' decisions."""

from simcore.time_barons import determinize
from tests.leak_check import Glue


def redraw(args: dict, seat: int, rng) -> None:
    determinize(args["st"], args["cards"], seat, rng)


GLUE = Glue(
    strategies="strategies.time_barons",
    decisions={
        "choose_move": "seat",
        "choose_response": "seat",
        "choose_site": "seat",
        "choose_arrangement": "seat",
        "choose_stack": "seat",
        "choose_recover": "seat",
    },
    redraw=redraw,
)
