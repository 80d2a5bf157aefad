"""Time Barons' glue for the contract suite (tests/contract/common.py): its referee's sweep and
the corner card set it plays, its conservation laws, what a seat sees, and the set-ups of the
generic checks at the sizes Time Barons' own tests used."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simcore.games.time_barons import search
from simcore.games.time_barons.state import (
    DAMAGE,
    DECK,
    DISCARD_N,
    FOLLOW,
    GONE,
    HAND,
    HAND_N,
    IN_DISCARD,
    IN_HAND,
    IN_PLAY,
    IN_STACK,
    LOC,
    MAX_IDS,
    OWNER,
    POOL,
    R_DAMAGE_COUNTERS,
    R_FOLLOWERS,
    SHOWN,
    SITES,
    SITES_N,
    STACK_END,
    STACK_TOP,
    SUPPLY,
    UNUSED,
)
from tests.contract.common import Determinize, SearchLeak, SearchRun, Setup
from tests.contract.leak_check import Glue
from tests.games.time_barons.time_barons_referee import replay as referee_replay

# --- the referee (tests/games/time_barons/time_barons_referee.py, tests/contract/test_referees.py)

CORNER_CARDS = """
# Corner cases of the effect vocabulary for the Time Barons referee (not a real card set).
[set]
name = "referee corner set"

[homeland]
name = "Keep"
integrity = 5
abilities = [{ followers = 6, cost = 1, effects = ["gain 1", "repair 1"] }]

[[card]]
name = "Tower"
level = 1
type = "site"
cost = 1
integrity = 3
abilities = [
    { followers = 2, cost = 1, effects = ["damage 1"] },
    { followers = 1, cost = 0, effects = ["gain 1"] },
]

[[card]]
name = "Forge"
level = 1
type = "site"
cost = 1
integrity = 3
abilities = [
    { cost = 1, infinite = true, effects = ["draw 1"] },
    { followers = 1, cost = 0, effects = ["repair 2", "actions 1"] },
]

[[card]]
name = "Mill"
level = 1
type = "site"
cost = 1
integrity = 2
passives = ["start_actions 1", "upgrade_discount 2", "start_gain 3"]

[[card]]
name = "Lookout"
level = 1
type = "site"
cost = 1
integrity = 3
abilities = [
    { followers = 1, infinite = true, trigger = "relocate", effects = ["kill 1"] },
    { followers = 2, infinite = true, trigger = "attack", effects = ["cancel", "sacrifice 1"] },
]

[[card]]
name = "Sentry"
level = 1
type = "site"
cost = 2
integrity = 4
fortified = true
abilities = [
    { followers = 1, infinite = true, trigger = "upgrade", effects = ["damage 1"] },
    { followers = 1, infinite = true, trigger = "site", effects = ["steal 1", "relocate"] },
]

[[card]]
name = "Offering"
level = 1
type = "event"
cost = 1
effects = ["sacrifice 2", "gain 3"]

[[card]]
name = "Echo"
level = 1
type = "event"
cost = 0
effects = ["recover 1"]

[[card]]
name = "Echo"
level = 1
type = "event"
cost = 0
effects = ["recover 1"]

[[card]]
name = "Spy"
level = 1
type = "event"
cost = 1
effects = ["discard 2", "draw 1"]

[[card]]
name = "Plague"
level = 1
type = "event"
cost = 1
effects = ["kill_everywhere 2"]

[[card]]
name = "Barrage"
level = 1
type = "event"
cost = 1
effects = ["damage_each 2"]

[[card]]
name = "Rush"
level = 1
type = "event"
cost = 0
effects = ["actions 2", "relocate"]

[[card]]
name = "Crumble"
level = 1
type = "attachment"
cost = 1
effects = ["integrity -3"]

[[card]]
name = "Rot"
level = 1
type = "attachment"
cost = 0
effects = ["decay 2"]

[[card]]
name = "Rot"
level = 1
type = "attachment"
cost = 0
effects = ["decay 1", "integrity 1"]

[[card]]
name = "Jam"
level = 1
type = "attachment"
cost = 1
effects = ["disable", "decay 1"]

[[card]]
name = "Wall"
level = 1
type = "attachment"
cost = 1
effects = ["integrity 2", "fortify"]

[[card]]
name = "Shield"
level = 1
type = "reaction"
trigger = "attack"
effects = ["cancel", "relocate"]

[[card]]
name = "Trap"
level = 1
type = "reaction"
trigger = "relocate"
effects = ["kill 2", "sacrifice 1"]

[[card]]
name = "Envy"
level = 1
type = "reaction"
trigger = "upgrade"
effects = ["gain 1", "actions 2", "draw 1"]

[[card]]
name = "Toll"
level = 1
type = "reaction"
trigger = "site"
effects = ["damage_each 1"]

[[card]]
name = "Lab"
level = 2
type = "site"
cost = 2
integrity = 3
abilities = [{ followers = 2, cost = 1, infinite = true, effects = ["destroy"] }]

[[card]]
name = "Heist"
level = 2
type = "event"
cost = 1
effects = ["steal 3"]

[[card]]
name = "Demolish"
level = 2
type = "event"
cost = 1
effects = ["destroy", "damage 1"]

[[card]]
name = "Reactor"
level = 3
type = "site"
cost = 1
integrity = 3
passives = ["start_actions 2"]

[[card]]
name = "Mend"
level = 3
type = "event"
cost = 1
effects = ["repair 3", "recover 2"]

[[card]]
name = "Laser"
level = 4
type = "event"
cost = 1
effects = ["damage 6"]

[[card]]
name = "Quake"
level = 4
type = "event"
cost = 2
effects = ["damage_each 3", "kill_everywhere 1"]
"""
# The card set as a file for the ``cards`` rule (tests/contract/common.py, ``Setup``).
FILES = {"corner": CORNER_CARDS}
CORNER = "cards=@corner"

# id: (lineup, rule settings, seed, games)
REFEREE_CONFIGS = {
    "random, rulebook defaults": (["random"], [], 1, 120),
    "builder mirror": (["builder"], [], 2, 60),
    "attacker mirror": (["attacker"], [], 3, 60),
    "swarm mirror": (["swarm"], [], 4, 60),
    "tech_rush mirror": (["tech_rush"], [], 5, 60),
    "builder vs attacker, 1 first-turn action": (
        ["builder", "attacker"],
        ["first_turn_actions=1"],
        6,
        80,
    ),
    "swarm vs tech_rush, 3 first-turn actions, random first player": (
        ["swarm", "tech_rush"],
        ["first_turn_actions=3", "first_player=random"],
        7,
        80,
    ),
    "random vs attacker, 0 first-turn actions, random first player": (
        ["random", "attacker"],
        ["first_turn_actions=0", "first_player=random"],
        8,
        60,
    ),
    "random vs builder, turn cap 12": (["random", "builder"], ["max_turns=12"], 9, 60),
    "attacker vs swarm, 4 counters, 24 followers": (
        ["attacker", "swarm"],
        ["damage_counters=4", "followers=24"],
        10,
        80,
    ),
    "tech_rush vs random, cheap upgrades, 1 empty stack ends": (
        ["tech_rush", "random"],
        ["upgrade_cost_2=1", "upgrade_cost_3=1", "upgrade_cost_4=2", "stacks_to_end=1"],
        11,
        60,
    ),
    "builder vs swarm, 4 empty stacks end, 2 actions, no hand": (
        ["builder", "swarm"],
        ["stacks_to_end=4", "actions_per_turn=2", "hand_size=0", "starting_followers=5"],
        12,
        60,
    ),
    "corner set, random": (["random"], [CORNER, "hand_size=4"], 13, 100),
    "corner set, random, sites chosen on resolution": (
        ["random"],
        [CORNER, "hand_size=4", "attack_targets=on_resolution"],
        17,
        60,
    ),
    "attacker vs builder, sites chosen on resolution": (
        ["attacker", "builder"],
        ["attack_targets=on_resolution"],
        18,
        60,
    ),
    "corner set, attacker vs swarm, scarce": (
        ["attacker", "swarm"],
        [CORNER, "hand_size=4", "damage_counters=8", "followers=26"],
        14,
        60,
    ),
    "corner set, builder vs random, 2 empty stacks end": (
        ["builder", "random"],
        [CORNER, "first_turn_actions=3", "stacks_to_end=2"],
        15,
        60,
    ),
    "corner set, tech_rush vs random, 4 actions": (
        ["tech_rush", "random"],
        [CORNER, "hand_size=3", "actions_per_turn=4", "first_player=random"],
        16,
        60,
    ),
    # House rules (issue 42) flipped together: the kernel, the referee, the protocol and the
    # scripted answers agree with them (each one alone: test_time_barons_house_rules.py).
    "house rules: prices and caps, builder vs attacker": (
        ["builder", "attacker"],
        [
            "draw_cost=2",
            "gain_cost=2",
            "relocate_cost=2",
            "draws_per_turn=1",
            "hand_limit=6",
            "max_level=3",
            "site_limit=3",
            "attachments_per_site=1",
            "attach_to_opponent=false",
            "damage_kills=false",
            "level_tiebreak=false",
            "draw_lower_levels=false",
            "abilities_on_turn_played=false",
        ],
        19,
        40,
    ),
    "corner set, random, house rules: no events, no reactions, 1 attachment a site": (
        ["random"],
        [
            CORNER,
            "hand_size=4",
            "events_allowed=false",
            "reactions_allowed=false",
            "attachments_per_site=1",
            "site_limit=4",
        ],
        20,
        40,
    ),
}
REFEREE = {
    label: Setup(2, tuple(lineup), tuple(settings), seed, games)
    for label, (lineup, settings, seed, games) in REFEREE_CONFIGS.items()
}


def referee(sweep, trace, label):
    """The referee reads the card file itself; the kernel's fingerprint of it is checked."""
    fingerprint = int(sweep.prepared[1][-1, 1])
    return referee_replay(trace, sweep.rules, label, fingerprint)


def referee_agrees(sweep, index, table, trace) -> None:
    end = trace[-1]
    assert end[1] == table.winner and end[2] == table.turns
    assert table.turns <= sweep.rules["max_turns"]


# --- the protocol (tests/contract/test_protocol.py) -----------------------------------------

PROTOCOL = {label: replace(setup, games=12) for label, setup in REFEREE.items()}
ANSWERS = [
    replace(PROTOCOL[label], games=8)
    for label in (
        "random, rulebook defaults",
        "builder vs attacker, 1 first-turn action",
        "house rules: prices and caps, builder vs attacker",
    )
]
RANDOM_PLAY = [
    Setup(2, ("builder",), settings, seed=3, games=30)
    for settings in ((), (CORNER, "hand_size=4", "attack_targets=on_resolution"))
]
DETERMINIZE = Determinize(Setup(2, ("builder",), seed=9, games=10), changed=100)


def check_decision(st, seat, options, game, players) -> None:
    assert len(options) < search.MAX_MOVES


def check_state(st, game, players, start=None) -> None:
    """Followers, damage counters and cards are all somewhere, once."""
    rules = game[0]
    sites = [int(st[SITES + MAX_IDS * s + i]) for s in range(2) for i in range(st[SITES_N + s])]
    assert st[SUPPLY] >= 0 and st[POOL] >= 0
    assert sum(int(st[FOLLOW + site]) for site in sites) + st[SUPPLY] == rules[R_FOLLOWERS]
    assert sum(int(st[DAMAGE + site]) for site in sites) + st[POOL] == rules[R_DAMAGE_COUNTERS]
    places = []
    for level in range(1, 5):
        stack = st[DECK + st[STACK_TOP + level - 1] : DECK + st[STACK_END + level - 1]]
        assert all(st[LOC + c] == IN_STACK for c in stack)
        places += [int(c) for c in stack]
    for seat in range(2):
        hand = st[HAND + MAX_IDS * seat : HAND + MAX_IDS * seat + st[HAND_N + seat]]
        assert all(st[LOC + c] == IN_HAND and st[OWNER + c] == seat for c in hand)
        places += [int(c) for c in hand]
    # An event or reaction being played, out of the hand and not yet discarded (an event and a
    # reaction answering it at most).
    resolving = [c for c in range(MAX_IDS) if st[LOC + c] == IN_HAND and st[OWNER + c] == -1]
    assert len(resolving) <= 2
    places += resolving
    places += [c for c in range(MAX_IDS) if st[LOC + c] == IN_PLAY]
    places += [c for c in range(MAX_IDS) if st[LOC + c] == IN_DISCARD]
    places += [c for c in range(MAX_IDS) if st[LOC + c] == GONE]
    assert st[DISCARD_N] == sum(1 for c in range(MAX_IDS) if st[LOC + c] == IN_DISCARD)
    assert sorted(places) == [c for c in range(MAX_IDS) if st[LOC + c] != UNUSED]


def check_determinized(st, twin, seat, game, players, start=None) -> None:
    """The seat's own hand kept; the other's redrawn within its levels, its shown cards kept;
    the other seat, which sees its own hand, tells a redrawn hand apart."""
    cards = game[1]
    other = 1 - seat
    own = slice(HAND + MAX_IDS * seat, HAND + MAX_IDS * (seat + 1))
    assert np.array_equal(twin[own], st[own])
    hand = slice(HAND + MAX_IDS * other, HAND + MAX_IDS * other + st[HAND_N + other])
    for a, b in zip(st[hand], twin[hand], strict=True):
        assert cards[a, 0] == cards[b, 0]  # the same level
        assert not st[SHOWN + a] or a == b  # a shown card stays
    if not np.array_equal(twin[hand], st[hand]):
        assert search.infoset_key(twin, other) != search.infoset_key(st, other)


# --- the search (tests/contract/test_search.py) ---------------------------------------------

SEARCH_RUN = SearchRun(
    Setup(2, ("ismcts:iterations=4", "preset:builder-vs-attacker"), seed=5, games=6),
    two_threads_chunk=4,
    shards_chunk=2,
)
# The plain-Python leak check would take hours here: the search is asked in-process, compiled.
SEARCH_LEAK = SearchLeak(
    Setup(2, ("ismcts:iterations=3", "builder"), seed=3, games=2, rotate=False),
    checked=20,
    informative=10,
)
SEARCH_CLI = Setup(2, ("ismcts:iterations=3", "builder"), games=2)

# --- runs (tests/contract/test_determinism.py) ----------------------------------------------

DETERMINISM = Setup(2, ("builder", "random"), ("first_player=random",), seed=99, games=6_000)

# --- the leak check (tests/contract/leak_check.py) ------------------------------------------


def redraw(args: dict, seat: int, rng) -> None:
    search.determinize(args["st"], seat, rng)


LEAK = Glue(
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
