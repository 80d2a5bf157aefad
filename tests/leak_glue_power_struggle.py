"""How the information-leak check (tests/leak_check.py) reaches Power Struggle's decisions."""

from simcore.games.power_struggle.rules import determinize
from tests.leak_check import Glue


def redraw(args: dict, seat: int, rng) -> None:
    determinize(args["st"], seat, rng)


GLUE = Glue(
    strategies="strategies.power_struggle",
    decisions={
        "choose_action": "seat",
        "choose_appointment": "seat",
        "choose_employee_office": "seat",
        "choose_source_office": "seat",
        "choose_fire_office": "seat",
        "choose_victim_office": "chooser",
        "choose_entice": "seat",
        "choose_displaced": "seat",
        "choose_bribe": "seat",
        "accept_bribe": "seat",
        "choose_chairman_privilege": "seat",
        "order_events": "seat",
    },
    redraw=redraw,
)
