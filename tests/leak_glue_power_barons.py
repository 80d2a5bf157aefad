"""How the information-leak check (tests/leak_check.py) reaches Power Barons' decisions."""

from simcore.games.power_barons.game import determinize
from tests.leak_check import Glue


def redraw(args: dict, seat: int, rng) -> None:
    # SPY AND STEAL: the thief is looking at the victim's hand, which stays as it is (through the
    # protocol, determinize finds the victim in the state).
    determinize(args["st"], seat, rng, args.get("victim", -1))


GLUE = Glue(
    strategies="strategies.power_barons",
    decisions={
        "choose_bank_card": "me",
        "choose_victim": "me",
        "choose_colour_to_ask": "me",
        "choose_give": "me",
        "choose_steal": "me",
        "choose_removal": "me",
        "choose_challenge": "me",
        "choose_lead": "me",
        "choose_follow": "me",
        "wants_to_surrender": "me",
        "choose_pi_card": "me",
        "choose_purchase": "me",
        # ismcts: reads only determinized copies
        "simcore.games.power_barons.search:search": "seat",
    },
    redraw=redraw,
)
