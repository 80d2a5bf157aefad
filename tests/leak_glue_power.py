"""How the information-leak check (tests/leak_check.py) reaches POWER's decisions."""

from simcore.games.power.game import determinize
from tests.leak_check import Glue


def redraw(args: dict, seat: int, rng) -> None:
    determinize(args["st"], seat, rng)


GLUE = Glue(
    strategies="strategies.power",
    decisions={
        "choose_action": "me",
        "wants_to_challenge": "me",
        "choose_block": "me",
        "choose_card_to_lose": "me",
        "choose_exchange": "me",
        "simcore.games.power.search:search": "seat",  # ismcts: reads only determinized copies
    },
    redraw=redraw,
)
