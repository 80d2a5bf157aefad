"""Power Barons' glue for the contract suite (tests/contract/common.py): its referee's sweep and
the decks it plays, its conservation laws, what a seat sees, and the set-ups of the generic
checks at the sizes Power Barons' own tests used."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from simcore.games.power_barons import search
from simcore.games.power_barons.state import (
    BANK_WORDS,
    BANKED,
    BASES,
    COUNT_AT,
    CREDITS_AT,
    D_STEAL,
    D_SURRENDER,
    DRAWPILE,
    HAND,
    LOC,
    N_CARDS,
    N_LOCATIONS,
    N_TYPES,
    P_DECISION,
    P_SEAT,
    P_VICTIM,
    P_WINNER,
    SUPPLY,
    has_won,
    recount,
)
from simcore.kernel.rng import rand_below
from tests.contract.common import Determinize, SearchLeak, SearchRun, Setup
from tests.contract.leak_check import Glue
from tests.games.power_barons.power_barons_referee import replay as referee_replay

# --- the referee (tests/games/power_barons/power_barons_referee.py,
# tests/contract/test_referees.py)

SMALL_DECK = """
[deck]
transportation = [5, 10, 20, 30, 40, 50]
communications = [5, 15, 25, 35, 45]
finance = [10, 20, 30, 40]
energy = [50, 45, 40, 35, 30, 25, 20]
political_influence = [25, 50]
[board]
spaces = ["investments_pay_off:asia", "remove_a_power_base", "take_a_power_card",
          "investments_pay_off:africa", "spy_and_steal", "take_political_influence",
          "investments_pay_off:europe", "limited_challenge", "investments_pay_off:americas"]
"""
# No Transportation at all and few Power Cards: called-out colours, rounds nobody can follow,
# challenges where nobody plays a Power Card (no surrender option, 0-0 ties to the defender).
COLOURLESS_DECK = """
[deck]
transportation = []
communications = [10, 20, 30, 40]
finance = [15, 25, 35]
energy = [40, 45]
political_influence = [10, 20, 30, 40, 50, 60, 70, 80]
[board]
spaces = ["investments_pay_off:americas", "limited_challenge", "investments_pay_off:europe",
          "spy_and_steal", "investments_pay_off:africa", "limited_challenge",
          "investments_pay_off:asia", "take_political_influence", "remove_a_power_base"]
"""
# The decks as files for the ``components`` rule (tests/contract/common.py, ``Setup``).
FILES = {"SMALL": SMALL_DECK, "COLOURLESS": COLOURLESS_DECK}

_MIXED4 = ["flusher:flush_below=1.05", "baron", "random", "flusher:flush_below=0.9,p_flush=0.5"]
# id: (players, lineup, rule settings, seed, games)
REFEREE_CONFIGS = {
    "3p baron": (3, ["baron"], [], 1, 90),
    "3p random": (3, ["random"], [], 2, 90),
    "3p flusher flush on vs barons": (
        3,
        ["flusher:p_flush=1.0,flush_below=1.1", "baron", "baron"],
        [],
        3,
        80,
    ),
    "3p flusher flush off vs barons": (3, ["flusher:p_flush=0.0", "baron", "baron"], [], 3, 60),
    "3p random, turn cap 5": (3, ["random"], ["max_turns=5"], 4, 50),
    "3p mixed, hand 12, base 1000, x5, cap 80": (
        3,
        ["random", "baron", "flusher:flush_below=2.0"],
        ["hand_size=12", "base_cost=1000", "declared_multiplier=5", "max_turns=80"],
        5,
        50,
    ),
    "3p mixed, colourless deck": (
        3,
        ["random", "baron", "flusher"],
        ["components=COLOURLESS", "hand_size=4", "base_cost=150"],
        6,
        70,
    ),
    "4p baron": (4, ["baron"], [], 7, 80),
    "4p random": (4, ["random"], [], 8, 80),
    "4p mixed": (4, _MIXED4, [], 9, 100),
    "4p flushers always flushing, turn cap 25": (
        4,
        ["flusher:flush_below=2.0"],
        ["max_turns=25"],
        10,
        50,
    ),
    "4p mixed, small deck and board": (
        4,
        ["random", "flusher", "random", "baron"],
        ["components=SMALL", "hand_size=4", "base_cost=150"],
        11,
        70,
    ),
    "4p mixed, base 5, x1": (
        4,
        ["baron", "random", "flusher", "random"],
        ["base_cost=5", "declared_multiplier=1"],
        12,
        50,
    ),
    "4p random, hand of 1": (4, ["random"], ["hand_size=1", "base_cost=100"], 13, 50),
    "4p mixed colourless, flush on": (
        4,
        ["flusher:flush_below=2.0", "random", "baron", "random"],
        ["components=COLOURLESS", "hand_size=3", "max_turns=200"],
        14,
        50,
    ),
    "4p barons, other targeting and declare": (
        4,
        [
            "baron:targeting=poorest,declare=random,banking=lowest,pi_use=largest",
            "baron:targeting=needed,give_away=random,surrender_margin=-40,banking=decoys",
            "flusher:targeting=rechallenge,late_bases=3,declare=random,banking=highest_late",
            "baron:targeting=rechallenge,late_bases=2,pi_use=never,give_away=highest",
        ],
        [],
        15,
        60,
    ),
    "3p barons, other targeting, base 150": (
        3,
        [
            "baron:targeting=needed,declare=random",
            "flusher:targeting=poorest",
            "baron:targeting=rechallenge,late_bases=0",
        ],
        ["base_cost=150"],
        16,
        50,
    ),
    # The house rules away from the rulebook (issue 42), through both flows.
    "4p mixed, house rules flipped": (
        4,
        _MIXED4,
        [
            "loser_refill=restore_hands",
            "challenge_rounds=3",
            "surrender=lower_total_only",
            "surrender_after_both_played=false",
            "winner_banks=2",
            "pi_cards_per_turn=1",
            "bases_bought_per_turn=2",
            "base_cost=150",
        ],
        19,
        30,
    ),
    "3p mixed, no PI round, no surrender, no buying": (
        3,
        ["random", "baron", "flusher:flush_below=2.0"],
        [
            "political_influence=false",
            "surrender=none",
            "challenge_rounds=2",
            "bases_bought_per_turn=0",
            "max_turns=120",
        ],
        20,
        20,
    ),
    "4p random and barons, no surrender, two PI cards a turn": (
        4,
        ["random", "baron:pi_use=never", "random", "flusher"],
        ["surrender=none", "pi_cards_per_turn=2", "winner_banks=0"],
        21,
        30,
    ),
    "3p mixed, two types to win, two draws, spaces off, ties to the attacker": (
        3,
        ["random", "baron", "flusher"],
        [
            "types_to_win_3p=2",
            "bases_per_type_3p=1",
            "turn_draws=2",
            "spy_and_steal=false",
            "limited_challenge=false",
            "investments_pay_off=false",
            "ties_go_to=attacker",
        ],
        22,
        30,
    ),
}
REFEREE = {
    label: Setup(
        players,
        tuple(lineup),
        tuple(s.replace("components=", "components=@") for s in settings),
        seed,
        games,
    )
    for label, (players, lineup, settings, seed, games) in REFEREE_CONFIGS.items()
}


def referee(sweep, trace, label):
    return referee_replay(trace, sweep.rules, sweep.players, label)


def referee_agrees(sweep, index, table, trace) -> None:
    end = trace[-1]
    assert end[2] == table.turns and end[1] == (-1 if table.truncated else table.winner)
    assert table.turns <= sweep.rules["max_turns"]


# --- the protocol (tests/contract/test_protocol.py) -----------------------------------------

PROTOCOL = REFEREE
PROTOCOL_TRACE_EVERY = 4
ANSWERS = [replace(PROTOCOL["4p mixed"], games=30)]
RANDOM_PLAY = [
    Setup(3, ("baron",), seed=5, games=12),
    Setup(4, ("baron",), seed=5, games=12),
    Setup(4, ("baron",), ("hand_size=3", "base_cost=60"), seed=5, games=12),
]
DETERMINIZE = Determinize(
    Setup(4, ("baron",), seed=9, games=4), changed=100, twins=2, meets=frozenset({D_STEAL})
)


def pick(st, rng, n) -> int:
    """A random option; a surrender rarely, so that challenges reach the PI round."""
    choice = rand_below(rng, n)
    if st[P_DECISION] == D_SURRENDER:
        choice = int(rand_below(rng, 8) == 0)
    return choice


def initial(st) -> int:
    """Power Bases of each type per player."""
    return int(st[SUPPLY])


def conserved(st, rules, players, per_type) -> None:
    """Every card in one place, the kept counts and sets in step with it, no base lost."""
    copy = st.copy()
    recount(copy)
    for first, size in (
        (COUNT_AT, N_LOCATIONS),
        (CREDITS_AT, N_LOCATIONS),
        (BANKED, 4 * BANK_WORDS),
    ):
        np.testing.assert_array_equal(copy[first : first + size], st[first : first + size])
    assert st[COUNT_AT : COUNT_AT + N_LOCATIONS].sum() == st[N_CARDS]
    for owner in range(players):
        for base_type in range(N_TYPES):
            placed = sum(int(st[BASES + 16 * owner + 4 * t + base_type]) for t in range(4))
            assert placed + st[SUPPLY + N_TYPES * owner + base_type] == per_type


check_state = conserved


def check_over(st, out, rules, players, trace) -> None:
    """A winner has built its bases (no winner: cut off by the turn cap)."""
    winner = int(st[P_WINNER])
    assert winner == -1 or has_won(st, players, winner)


def hidden_from(st, seat):
    """Where each card lies, with what ``seat`` cannot see as -1."""
    shown = st[P_VICTIM] if st[P_DECISION] == D_STEAL and st[P_SEAT] == seat else -1
    places = st[LOC : LOC + st[N_CARDS]].copy()
    in_hand = (places >= HAND) & (places < HAND + 4)
    unseen = (places == DRAWPILE) | (in_hand & (places != HAND + seat) & (places != HAND + shown))
    places[unseen] = -1
    return places


def check_determinized(st, twin, seat, rules, players, per_type) -> None:
    """Only unseen cards moved; another seat sees other cards: another key."""
    conserved(twin, rules, players, per_type)
    np.testing.assert_array_equal(hidden_from(twin, seat), hidden_from(st, seat))
    other = (seat + 1) % players
    assert search.infoset_key(st, other) != search.infoset_key(st, seat)


# --- the search (tests/contract/test_search.py) ---------------------------------------------

SEARCH_RUN = SearchRun(
    Setup(4, ("ismcts:iterations=8", "preset:baron-keep_best", "flusher", "baron"), seed=5,
          games=12),
    two_threads_chunk=5,
    shards_chunk=4,
)  # fmt: skip
SEARCH_LEAK = SearchLeak(
    Setup(3, ("ismcts:iterations=3", "baron", "flusher"), seed=7, games=1),
    checked=20,
    informative=10,
    slow=True,
)
SEARCH_CLI = Setup(3, ("ismcts:iterations=6,rollout=flusher", "baron", "random"), seed=2, games=6)

# --- runs (tests/contract/test_determinism.py) ----------------------------------------------

DETERMINISM = Setup(4, ("flusher", "baron", "random", "baron"), seed=99, games=3000)

# --- the leak check (tests/contract/leak_check.py) ------------------------------------------


def redraw(args: dict, seat: int, rng) -> None:
    # SPY AND STEAL: the thief is looking at the victim's hand, which stays as it is (through the
    # protocol, determinize finds the victim in the state).
    search.determinize(args["st"], seat, rng, args.get("victim", -1))


LEAK = Glue(
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
