"""How the information-leak check (tests/leak_check.py) reaches POWER: The Game's decisions: a
seat writes its whole pad in one decision, while the other seats' pads of the round are hidden."""

from simcore.power_the_game import determinize
from tests.leak_check import Glue


def redraw(args: dict, seat: int, rng) -> None:
    determinize(args["st"], args["rules"], args["board"], seat, rng)


GLUE = Glue(strategies="strategies.power_the_game", decisions={"write_pad": "seat"}, redraw=redraw)
