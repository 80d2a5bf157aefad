"""Scripted Power Struggle players: every decision a seat makes, dispatched on an integer id.

Five archetypes share one way of valuing things and differ in the order in which they work on
the Victory Point routes: ``board`` (Influence first), ``investor`` (Shares), ``builder`` (Main
Departments), ``corrupter`` (Corruption) and ``consultant`` (Counsel); ``random`` picks
uniformly among legal choices. Every archetype first takes an action that completes a Victory
Point when one exists, founds Departments up to ``departments`` offices, then works on its
routes in its order, then grows (Development, hire, shares, trade Employees for Influence).

What things are worth (``point_worth``, ``card_worth``, ...) is in Pinats and derived from the
rulebook's prices: a Victory Point is worth VP_PRICE, the price at which the rulebook sells one
on either purchasable route (4 Main Departments at 1,500,000, or Consultants in 3 Divisions at
2,000,000); a point on a track is its share of a Victory Point while the seat still lacks that
Victory Point; an Employee is a third of an Influence point (action F1 trades 3 for 1); an
action is worth at least a hire of 2 Employees. Bribes (offers, acceptances), resignations and
where a displaced Divisional Head goes are decided on these worths in the current state; the
bribe behaviour has two parameters, ``offer_extra`` and ``ask_extra`` (Pinats beyond the
reckoned price), which the shipped study varies.

Separately, every strategy has ``order``, its policy as Divisional Head of Communications when it
sorts the round's 8 event cards: random, max (7 Department Turns), min (4), self (events that
hurt it after the Directors' Meeting card, good ones before, the Bonus Payment first when it
earns more than the average) or adversarial (the same against the leader among the others).

A decision reads only what its seat may know: the public board, its own cards and money, the
event cards it sorted, ``money_seen`` for the others' money and ``routes_seen`` (with the chance
of an unseen Archenemy point) for their Victory Points. Every tie is broken from the game's
random stream. Scratch: decisions write their options to st[SCRATCH + 1..4] (choose_action),
st[SCRATCH + 1] (choose_chairman_privilege), the card of a first bribe attempt to
st[SCRATCH + 5]; order_events uses st[SCRATCH + 0..11] while the events are sorted (no action is
in progress then) and ``decide`` keeps the places already sorted in st[SCRATCH + 16..23] while it
sorts again.

The package: archetypes.py (ids, parameters, registry entries, preferences), worth.py (what
things are worth, what a seat may know), queries.py (shared small queries), actions.py (the
action), decisions.py (the smaller decisions), events.py (sorting the event cards), protocol.py
(``decide``: any decision point of the protocol, docs/protocol.md, as a move code of
``simcore.games.power_struggle.rules.legal``). The game (simcore/games/power_struggle/: its
scripted games, its search, its registry entry) uses the names offered here.
"""

from strategies.power_struggle.actions import choose_action
from strategies.power_struggle.archetypes import PARAM_NAMES, STRATEGIES
from strategies.power_struggle.decisions import (
    accept_bribe,
    choose_appointment,
    choose_bribe,
    choose_chairman_privilege,
    choose_displaced,
    choose_employee_office,
    choose_entice,
    choose_fire_office,
    choose_source_office,
    choose_victim_office,
)
from strategies.power_struggle.events import order_events
from strategies.power_struggle.protocol import decide

__all__ = [
    "PARAM_NAMES",
    "STRATEGIES",
    "accept_bribe",
    "choose_action",
    "choose_appointment",
    "choose_bribe",
    "choose_chairman_privilege",
    "choose_displaced",
    "choose_employee_office",
    "choose_entice",
    "choose_fire_office",
    "choose_source_office",
    "choose_victim_office",
    "decide",
    "order_events",
]
