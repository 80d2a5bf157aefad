"""How the information-leak check (tests/leak_check.py) reaches POWER: The Game's decisions: a
seat's planner writes its whole pad while the other seats' pads of the round are hidden
(``hide_pads``); the search chooses its orders while the options the others chose are hidden
(the protocol's ``determinize``)."""

from simcore.games.power_the_game.rules import determinize, hide_pads
from tests.leak_check import Glue


def redraw(args: dict, seat: int, rng) -> None:
    if "board" in args:  # a planner: write_pad(sid, prm, seat, st, rules, board, dist, rng)
        hide_pads(args["st"], args["rules"], args["board"], seat, rng)
    else:  # the search: search(st, rules, seat, ...), its rules the protocol's game tuple
        determinize(args["st"], seat, rng)


GLUE = Glue(
    strategies="strategies.power_the_game",
    decisions={
        "write_pad": "seat",
        # ismcts: reads only determinized copies
        "simcore.games.power_the_game.search:search": "seat",
    },
    redraw=redraw,
)
