"""POWER's glue for the contract suite (tests/contract/common.py): its reference games, its
referee's sweep, its conservation laws, what a seat sees, and the set-ups of the generic checks
at the sizes POWER's own tests used."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simcore.games.power import search
from simcore.games.power.state import (
    COINS,
    D_ACTION,
    D_EXCHANGE,
    DECK,
    DOWN,
    EV_STANDING,
    HAND,
    N_CHARACTERS,
    OPTIONS,
    P_DECISION,
    P_N_OPTIONS,
    P_PLAYERS,
    P_SEAT,
    P_TRUNCATED,
    P_TURN,
    P_WINNER,
    R_COPIES,
    R_SAFE_SIZE,
    SAFE,
    influence,
    recount,
)
from tests.contract.common import Determinize, SearchLeak, SearchRun, Setup
from tests.contract.leak_check import Glue
from tests.games.power.power_referee import replay as referee_replay

# --- reference games (tests/contract/test_reference.py) -------------------------------------

_MIXED = ["random", "honest", "bluffer", "counter"]
# id: (players, lineup, rule settings, seed, games, rotate seats, traced game indices)
_REFERENCE = {
    "3p random": (3, ["random"], [], 101, 2000, True, 4),
    "4p random": (4, ["random"], [], 102, 2000, True, 0),
    "6p random": (6, ["random"], [], 103, 1000, True, 4),
    "3p honest": (3, ["honest"], [], 104, 2000, True, 0),
    "4p honest": (4, ["honest"], [], 105, 2000, True, 4),
    "5p honest, richest": (5, ["honest:targeting=richest"], [], 106, 2000, True, 0),
    "4p bluffer": (4, ["bluffer"], [], 107, 2000, True, 4),
    "6p bluffer, bold": (
        6, ["bluffer:p_bluff=0.7,p_challenge=0.5,p_block_bluff=0.6"], [], 108, 1000, True, 0,
    ),
    "3p counter": (3, ["counter"], [], 109, 3000, True, 4),
    "4p counter (bench spec)": (4, ["counter"], [], 110, 4000, True, 4),
    "5p counter": (5, ["counter"], [], 111, 2000, True, 0),
    "6p counter": (6, ["counter"], [], 112, 2000, True, 4),
    "4p counter, bluffing, most influence": (
        4, ["counter:threshold=0.35,p_bluff=0.25,targeting=most_influence"], [], 113, 2000, True, 0,
    ),
    "4p counter, random targets": (4, ["counter:targeting=random"], [], 114, 2000, True, 0),
    "3p mixed": (3, ["counter", "bluffer", "honest"], [], 115, 2000, True, 4),
    "4p mixed": (4, _MIXED, [], 116, 4000, True, 4),
    "4p mixed, fixed seats": (4, _MIXED, [], 117, 2000, False, 4),
    "5p mixed": (5, _MIXED + ["counter:threshold=0.3"], [], 118, 2000, True, 0),
    "6p mixed, fixed seats": (
        6, _MIXED + ["counter:targeting=richest", "bluffer:targeting=random"], [], 119, 2000,
        False, 4,
    ),
    "4p mixed, random challenge order": (
        4, _MIXED, ["challenge_order=random"], 120, 2000, True, 4,
    ),
    "5p mixed, 2 copies, no refunds, coins kept": (
        5,
        _MIXED + ["counter"],
        ["copies_per_character=2", "refund_failed_action=false", "eliminated_coins_to_safe=false"],
        121, 2000, True, 4,
    ),
    "4p counter, Safe of 12, 4 copies": (
        4, ["counter"], ["safe_size=12", "copies_per_character=4"], 122, 2000, True, 0,
    ),
    "6p mixed, cheap and rich, capped": (
        6,
        _MIXED + ["counter", "bluffer"],
        [
            "starting_coins=5", "overthrow_cost=5", "forced_overthrow_at=8", "ceo_cost=1",
            "banker_take=4", "steal=3", "aid=3", "max_turns=30",
        ],
        123, 1000, True, 4,
    ),
    "3p random, nothing to take": (
        3, ["random", "counter", "honest"],
        ["income=0", "aid=0", "banker_take=0", "steal=0", "starting_coins=0", "safe_size=3",
         "max_turns=60"],
        124, 1000, True, 0,
    ),
}  # fmt: skip
REFERENCE = {
    label: (Setup(players, tuple(lineup), tuple(settings), seed, games, rotate), traced)
    for label, (players, lineup, settings, seed, games, rotate, traced) in _REFERENCE.items()
}
REFERENCE_TRACE_STEP = 7
# Standing rows (docs/arcs.md) came after the reference was written; they only read the state.
REFERENCE_SKIPPED_EVENTS = (EV_STANDING,)

# --- the protocol (tests/contract/test_protocol.py) -----------------------------------------

PROTOCOL = {label: replace(setup, games=60) for label, (setup, _) in REFERENCE.items()}
ANSWERS = [PROTOCOL["4p mixed"]]
RANDOM_PLAY = [
    Setup(players, ("counter",), settings, seed=5, games=40)
    for players in (3, 4, 6)
    for settings in (
        (),
        ("challenge_order=random", "safe_size=12", "copies_per_character=4"),
        # house rules (issue 42): random legal play reaches what the switches leave legal
        ("banker_takes=false", "aid_allowed=false", "politician_blocks_steal=false",
         "caught_bluffer_loses=2", "exchange_draws=1", "proven_card_replaced=false"),
    )
]  # fmt: skip
DETERMINIZE = Determinize(Setup(4, ("counter",), seed=9, games=30), changed=100)


def conserved(st, rules, players, start=None) -> None:
    """Dollars and cards conserved, the kept counts in step with the cards, and the protocol's
    fields small enough for ``infoset_key`` to pack."""
    safe_size = int(rules[R_SAFE_SIZE])
    copies = int(rules[R_COPIES])
    assert st[SAFE] >= 0 and all(st[COINS + s] >= 0 for s in range(players))
    assert st[SAFE] + sum(int(st[COINS + s]) for s in range(players)) == safe_size
    for character in range(N_CHARACTERS):
        in_hands = sum(int(st[HAND + k] == character) for k in range(2 * players))
        in_exchange = 0
        if st[P_DECISION] == D_EXCHANGE:  # the drawn options are out of the deck
            n_keep = int(influence(st, st[P_SEAT]))
            options = st[OPTIONS + n_keep : OPTIONS + st[P_N_OPTIONS]]
            in_exchange = int(np.sum(options == character))
        assert st[DECK + character] + in_hands + in_exchange == copies
    recounted = st.copy()
    recount(recounted, players)
    assert np.array_equal(recounted, st), "a kept count differs from the cards"
    # infoset_key packs the protocol fields but the turn a byte each (the Dollars get 32 bits,
    # and the Safe's total bounds them above)
    packed = [int(st[f]) for f in range(P_PLAYERS, P_TRUNCATED + 1) if f != P_TURN]
    assert all(-1 <= value <= 254 for value in packed), packed


check_state = conserved


def check_decision(st, seat, options, rules, players) -> None:
    assert influence(st, seat) > 0


def check_over(st, out, rules, players, trace) -> None:
    winner = int(st[P_WINNER])
    alive = [s for s in range(players) if influence(st, s) > 0]
    assert alive == [winner] or (winner == -1 and len(alive) > 1)


def check_determinized(st, twin, seat, rules, players, start=None) -> None:
    """The seat's own cards and every face-up card kept; another seat's key differs (it sees
    other cards)."""
    conserved(twin, rules, players)
    for other in range(players):
        for slot in range(2):
            if other == seat or st[DOWN + 2 * other + slot] == 0:
                assert twin[HAND + 2 * other + slot] == st[HAND + 2 * other + slot]
    other = (seat + 1) % players
    if st[P_DECISION] == D_ACTION and influence(st, other) > 0:
        assert search.infoset_key(st, other) != search.infoset_key(st, seat)


# --- the search (tests/contract/test_search.py) ---------------------------------------------

SEARCH_RUN = SearchRun(
    Setup(4, ("ismcts:iterations=12", "counter", "preset:bluffer-vs-mixed", "honest"), seed=5,
          games=24),
    two_threads_chunk=5,
    shards_chunk=7,
)  # fmt: skip
SEARCH_LEAK = SearchLeak(
    Setup(3, ("ismcts:iterations=3", "counter", "bluffer"), seed=7, games=3),
    checked=20,
    informative=10,
    slow=True,
)

# --- runs (tests/contract/test_determinism.py) ----------------------------------------------

DETERMINISM = Setup(4, ("counter", "bluffer", "honest", "random"), seed=424_242, games=20_000)

# --- the referee (tests/games/power/power_referee.py, tests/contract/test_referees.py) ------------

_REFEREE_MIXED = ["counter", "bluffer", "honest", "random"]
# id: (players, lineup, rule settings, seed, games)
_REFEREE = {
    "3p random": (3, ["random"], [], 1, 90),
    "3p honest, truncated at 8 turns": (3, ["honest"], ["max_turns=8", "overthrow_cost=6"], 2, 60),
    "3p mixed, everything free": (
        3,
        ["bluffer", "counter", "random"],
        ["ceo_cost=0", "overthrow_cost=0", "forced_overthrow_at=1"],
        3,
        60,
    ),
    "3p random, nothing to take": (
        3,
        ["random"],
        ["income=0", "aid=0", "banker_take=0", "steal=0", "starting_coins=0", "safe_size=3"],
        4,
        40,
    ),
    "4p mixed, defaults": (4, _REFEREE_MIXED, [], 5, 120),
    "4p counter, Safe of 12": (4, ["counter"], ["safe_size=12"], 6, 90),
    "4p random, coins kept, random order": (
        4,
        ["random"],
        ["eliminated_coins_to_safe=false", "challenge_order=random"],
        7,
        90,
    ),
    "4p mixed, forced at 4, rich start": (
        4,
        ["random", "bluffer", "random", "counter"],
        ["forced_overthrow_at=4", "starting_coins=5"],
        8,
        60,
    ),
    "5p bluffer, Safe of 12, no refunds": (
        5,
        ["bluffer"],
        ["safe_size=12", "refund_failed_action=false"],
        9,
        90,
    ),
    "5p mixed, 2 copies (empty deck)": (
        5,
        ["random", "honest", "bluffer", "counter", "random"],
        ["copies_per_character=2"],
        10,
        90,
    ),
    "5p mixed, every non-default at once": (
        5,
        ["random", "honest", "bluffer", "counter", "random"],
        [
            "safe_size=10",
            "eliminated_coins_to_safe=false",
            "refund_failed_action=false",
            "challenge_order=random",
            "copies_per_character=2",
            "overthrow_cost=6",
            "max_turns=40",
        ],
        11,
        60,
    ),
    "6p random, no refunds": (6, ["random"], ["refund_failed_action=false"], 12, 90),
    "6p honest": (6, ["honest"], [], 13, 60),
    "6p bluffer, big numbers": (
        6,
        ["bluffer"],
        ["copies_per_character=10", "steal=5", "aid=4", "banker_take=6", "max_turns=60"],
        14,
        40,
    ),
    "4p mixed, house rules flipped": (
        4,
        _REFEREE_MIXED,
        [
            "ceo_fires=false",
            "journalist_blocks_steal=false",
            "caught_bluffer_loses=2",
            "failed_challenger_loses=0",
            "proven_card_replaced=false",
            "exchange_draws=1",
            "blocks_challengeable=false",
        ],
        16,
        60,
    ),
    "6p mixed, Safe of 12, random order": (
        6,
        _REFEREE_MIXED + ["counter", "bluffer"],
        ["safe_size=12", "challenge_order=random"],
        15,
        90,
    ),
}
REFEREE = {
    label: Setup(players, tuple(lineup), tuple(settings), seed, games)
    for label, (players, lineup, settings, seed, games) in _REFEREE.items()
}


def referee(sweep, trace, label):
    return referee_replay(trace, sweep.rules, sweep.players, label)


def referee_agrees(sweep, index, table, trace) -> None:
    end = trace[-1]
    assert end[1] == table.winner and end[2] == table.turns
    assert table.turns <= sweep.rules["max_turns"]


# --- the leak check (tests/contract/leak_check.py) ------------------------------------------


def redraw(args: dict, seat: int, rng) -> None:
    search.determinize(args["st"], seat, rng)


LEAK = Glue(
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
