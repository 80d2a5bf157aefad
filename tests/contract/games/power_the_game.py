"""POWER: The Game's glue for the contract suite (tests/contract/common.py): its referee's sweep,
what each orders decision offers, and the set-ups of the generic checks at the sizes POWER: The
Game's own tests used."""

from __future__ import annotations

from dataclasses import replace

from simcore.games.power_the_game.rules import determinize, hide_pads
from simcore.games.power_the_game.state import (
    CHOSEN,
    D_ORDERS,
    EV_END,
    P_DECISION,
    P_DECISIONS,
    P_N_OPTIONS,
    R_COMPONENT_LIMITS,
    R_MAX_ROUNDS,
    SEAT_IN,
)
from simcore.kernel import chunk
from tests.contract.common import SearchLeak, SearchRun, Setup
from tests.contract.leak_check import Glue
from tests.games.power_the_game.power_the_game_referee import replay as referee_replay
from tests.games.power_the_game.test_power_the_game_invariants import replay as replay_rounds

# --- the referee (tests/games/power_the_game/power_the_game_referee.py,
# tests/contract/test_referees.py)

# id: (players, lineup, rule settings, seed, games)
REFEREE_CONFIGS = {
    "4p balanced": (4, ["balanced"], [], 1, 90),
    "4p random": (4, ["random"], [], 2, 90),
    "4p opening, raider, turtle, blitz": (4, ["opening", "raider", "turtle", "blitz"], [], 3, 90),
    "4p missile, balanced, random, blitz": (
        4,
        ["missile", "balanced", "random", "blitz"],
        [],
        4,
        80,
    ),
    "4p random exchanges, cheap missiles, 10 rounds": (
        4,
        ["random:p_move=0.3"],
        ["missile_cost=20", "max_rounds=10"],
        5,
        60,
    ),
    "4p blitz, 60 rounds": (4, ["blitz"], ["max_rounds=60"], 6, 40),
    "3p random": (3, ["random"], [], 7, 100),
    "3p balanced, missile, blitz": (3, ["balanced", "missile", "blitz"], [], 8, 80),
    "3p random, no blockade, random first official": (
        3,
        ["random"],
        ["blockade=false", "first_official=random"],
        9,
        80,
    ),
    "3p random, no Power Units, cheap missiles": (
        3,
        ["random"],
        ["max_power_units=0", "missile_cost=5"],
        17,
        40,
    ),
    "3p turtle, raider, opening, 60 rounds": (
        3,
        ["turtle", "raider", "opening"],
        ["max_rounds=60"],
        10,
        40,
    ),
    "2p random": (2, ["random"], [], 11, 100),
    "4p raider, opening, missile, turtle, no component limits": (
        4,
        ["raider", "opening", "missile", "turtle"],
        ["component_limits=false"],
        18,
        40,
    ),
    "2p turtle vs raider": (2, ["turtle", "raider"], [], 12, 60),
    "2p missile vs blitz, cheap missiles": (2, ["missile", "blitz"], ["missile_cost=30"], 13, 60),
    "2p blitz vs balanced, 3 commands, 1 Power Unit, 60 rounds": (
        2,
        ["blitz", "balanced"],
        ["commands=3", "max_power_units=1", "max_rounds=60"],
        14,
        40,
    ),
    # long enough for the last Flag to fall: the win by Flags
    "4p blitz vs random, 150 rounds": (
        4,
        ["blitz", "random", "random", "random"],
        ["max_rounds=150"],
        15,
        16,
    ),
    "2p blitz vs random, 150 rounds": (2, ["blitz", "random"], ["max_rounds=150"], 16, 16),
}
REFEREE = {
    label: Setup(players, tuple(lineup), tuple(settings), seed, games)
    for label, (players, lineup, settings, seed, games) in REFEREE_CONFIGS.items()
}


def referee(sweep, trace, label):
    return referee_replay(trace, sweep.rules, sweep.players, label)


def referee_agrees(sweep, index, table, trace) -> None:
    """The end row is the referee's, and the result columns ``run_chunk`` writes for the same
    game (no trace) are the referee's: winner, rounds, end reason, first official and every
    seat's statistics; the round cap is a rule, never the simulation's cap."""
    assert tuple(trace[-1][:4]) == (EV_END, table.winner, table.rounds, table.end_reason)
    game_out, seat_out = sweep.chunk()
    assert game_out[index, chunk.WINNER] == table.winner
    assert game_out[index, chunk.TURNS] == table.rounds
    assert game_out[index, chunk.ENDED_BY] != chunk.ENDED_CAP
    assert game_out[index, chunk.N_STANDARD_GAME_COLUMNS] == table.end_reason
    assert game_out[index, chunk.N_STANDARD_GAME_COLUMNS + 1] == table.first_official
    columns = [c.name for c in sweep.game.seat_columns]
    for seat in range(sweep.players):
        assert seat_out[index, seat, chunk.WON] == int(seat == table.winner)
        kernel = seat_out[index, seat, chunk.N_STANDARD_SEAT_COLUMNS :].tolist()
        mine = [table.stats[seat][name] for name in columns]
        assert kernel == mine, f"seat {seat}: {columns}"


# --- the protocol (tests/contract/test_protocol.py) -----------------------------------------

PROTOCOL = REFEREE
ANSWERS = [replace(PROTOCOL["4p missile, balanced, random, blitz"], games=12)]
RANDOM_PLAY = [
    Setup(4, ("balanced",), seed=3, games=12),
    Setup(3, ("balanced",), ("blockade=false", "missile_cost=20"), seed=3, games=12),
    Setup(2, ("balanced",), ("commands=3",), seed=3, games=12),
]
# Each random game is traced and replayed round by round
# (tests/games/power_the_game/test_power_the_game_invariants.py).
RANDOM_PLAY_TRACE_ROWS = 60_000


def check_decision(st, seat, options, game, players) -> None:
    """Orders, once per seat and round, from one of two options per planner of the table."""
    assert st[P_DECISION] == D_ORDERS and st[SEAT_IN + seat] == 1
    assert st[CHOSEN + seat] == -1
    assert len(options) == 2 * len(game[3]) == st[P_N_OPTIONS]


def check_over(st, out, game, players, trace) -> None:
    """At most a decision per seat and round; pieces and Power Units conserved round by round
    (the trace replays to every snapshot, within the colours' sets)."""
    rules, board, dist = game[:3]
    assert st[P_DECISIONS] <= players * int(rules[R_MAX_ROUNDS])
    replay_rounds(trace, board, dist, bool(rules[R_COMPONENT_LIMITS]))


# --- the search (tests/contract/test_search.py) ---------------------------------------------

SEARCH_RUN = SearchRun(
    Setup(4, ("ismcts:iterations=6", "balanced", "preset:raider-vs-mixed", "missile:guard=2"),
          seed=5, games=12),
    two_threads_chunk=5,
    shards_chunk=4,
)  # fmt: skip
SEARCH_LEAK = SearchLeak(
    Setup(3, ("ismcts:iterations=2", "balanced", "blitz"), seed=7, games=2),
    checked=20,
    informative=10,
)
SEARCH_CLI = Setup(
    3, ("ismcts:iterations=4,rollout=balanced", "blitz", "preset:turtle-vs-mixed"), seed=2,
    games=6,
)  # fmt: skip

# --- runs (tests/contract/test_determinism.py) ----------------------------------------------

DETERMINISM = Setup(4, ("random", "balanced", "blitz", "missile"), seed=20_260_422, games=400)

# --- the leak check (tests/contract/leak_check.py) ------------------------------------------


def redraw(args: dict, seat: int, rng) -> None:
    """A seat's planner writes its whole pad while the other seats' pads of the round are hidden
    (``hide_pads``); the search chooses its orders while the options the others chose are hidden
    (the protocol's ``determinize``)."""
    if "board" in args:  # a planner: write_pad(sid, prm, seat, st, rules, board, dist, rng)
        hide_pads(args["st"], args["rules"], args["board"], seat, rng)
    else:  # the search: search(st, rules, seat, ...), its rules the protocol's game tuple
        determinize(args["st"], seat, rng)


LEAK = Glue(
    strategies="strategies.power_the_game",
    decisions={
        "write_pad": "seat",
        # ismcts: reads only determinized copies
        "simcore.games.power_the_game.search:search": "seat",
    },
    redraw=redraw,
)
