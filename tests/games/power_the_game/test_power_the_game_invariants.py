"""POWER: The Game invariants over many games, and trace replays.

* ``run_chunk`` results (random, scripted and mixed lineups at 2, 3 and 4 players, rule
  variants): a winner exactly as the end reason says (the last seat in, or the highest power
  value at the round cap), Flags conserved, per-seat counters that add up;
* ``trace_game`` replays: from each round's snapshot, applying only the trace's events (moves of
  executed commands, exchanges, missiles, penalties, bounces, captures, Power Units, take-overs)
  must give exactly the next snapshot, for every army, location and kind and every army's Power
  Units: pieces are conserved between the board, the Reserves and captures; no snapshot has a
  piece on terrain it may not stand on, and every executed move is within its piece's range,
  and the trace's end is the chunk's row.

That a chunk split in two, or played on one thread, gives the same games is
tests/contract/test_determinism.py's.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_the_game import game as kernel
from simcore.games.power_the_game.state import (
    B_TERRAIN,
    BOMBER,
    BUILD,
    BUY,
    CRUISER,
    DESTROYER,
    END_FLAGS,
    END_TIME_LIMIT,
    EV_ARMY_STATE,
    EV_BOUNCE,
    EV_CAPTURE,
    EV_COMMAND,
    EV_DESTROYED,
    EV_END,
    EV_EXEC,
    EV_PENALTY,
    EV_PIECES,
    EV_POWER_UNITS,
    EV_ROUND,
    EV_SCORE,
    EV_TAKE,
    EV_USED,
    EXECUTED,
    FIGHTER,
    HEAVY_TANK,
    INFANTRY,
    LAND,
    LAUNCH,
    MAX_MOVES,
    MISSILE,
    MOVE,
    MOVE_CLASS,
    POWER_UNIT,
    POWER_VALUE,
    REGIMENT,
    RESERVE,
    SEA,
    TANK,
    UPGRADE,
    WATER,
)
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_TIME_LIMIT,
    LINEUP_SLOT,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
)

GAME = registry.make("power-the-game")
SEED = 20_260_422
SEAT_COLUMN = {c.name: N_STANDARD_SEAT_COLUMNS + k for k, c in enumerate(GAME.seat_columns)}
END = N_STANDARD_GAME_COLUMNS
NAMES = [s.name for s in GAME.strategies]

LINEUPS = [
    (4, ["random"] * 4, {}),
    (4, ["opening", "raider", "turtle", "blitz"], {}),
    (4, ["balanced", "missile", "blitz", "random"], {"first_official": "random"}),
    (3, ["blitz", "random", "missile"], {"blockade": False}),
    (3, ["raider", "turtle", "opening"], {"max_rounds": 8}),
    (2, ["blitz", "random"], {}),
    (2, ["balanced", "missile"], {"commands": 3}),
    (4, ["raider", "opening", "missile", "turtle"], {"component_limits": False}),
]


def play(players, names, rules, n_games, first=0, seed=SEED):
    prepared = kernel.prepare(GAME.rules_with_defaults(rules), players)
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, n) for n in names])
    return kernel.run_chunk(prepared, players, ids, rows, seed, first, n_games, True)


@pytest.mark.parametrize(("players", "names", "rules"), LINEUPS)
def test_results_agree_with_the_end_of_each_game(players, names, rules):
    game_out, seat_out = play(players, names, rules, 3000)
    max_rounds = GAME.rules_with_defaults(rules)["max_rounds"]
    col = SEAT_COLUMN
    # The round limit is the rulebook's time limit, never the simulation's cap.
    assert (game_out[:, ENDED_BY] != ENDED_CAP).all()
    time_limit = game_out[:, ENDED_BY] == ENDED_TIME_LIMIT
    assert np.array_equal(time_limit, game_out[:, END] == END_TIME_LIMIT)
    assert ((game_out[:, TURNS] >= 1) & (game_out[:, TURNS] <= max_rounds)).all()
    for g in range(len(game_out)):
        winner, rounds, end = game_out[g, WINNER], game_out[g, TURNS], game_out[g, END]
        seats = seat_out[g]
        still_in = [s for s in range(players) if seats[s, col["round_out"]] == -1]
        assert [s for s in range(players) if seats[s, WON]] == ([winner] if winner >= 0 else [])
        assert sorted(seats[:, LINEUP_SLOT]) == list(range(players))
        assert (seats[:, col["cancelled"]] <= seats[:, col["commands"]]).all()
        assert (seats[:, col["penalties"]] <= rounds).all()
        assert (seats[:, col["round_out"]] < rounds).all()
        flags = seats[:, col["flags_held"]].sum()
        assert flags == 4 if players != 3 else flags <= 4
        if players == 4:
            assert seats[:, col["flags_captured"]].sum() == players - len(still_in)
        if end == END_FLAGS:
            assert len(still_in) <= 1
            assert winner == (still_in[0] if still_in else -1)
        else:
            assert end == END_TIME_LIMIT and rounds == max_rounds and len(still_in) >= 2
            power = seats[:, col["final_power"]]
            if winner >= 0:
                assert power[winner] == max(power[s] for s in still_in)
            for s in range(players):
                if s not in still_in:
                    assert power[s] == 0 and seats[s, col["flags_held"]] == 0


def test_games_end_both_ways_and_the_archetypes_do_what_they_say():
    """Not a property of the rules but of the shipped strategies: against ``random`` a ``blitz``
    takes both Flags before a 60-round cap, two ``turtle``s sit out the round cap; raiders earn
    Power Units; with cheaper Mega-Missiles the missile builder launches them."""
    game_out, seat_out = play(2, ["blitz", "random"], {"max_rounds": 60}, 500)
    assert Counter(game_out[:, END].tolist())[END_FLAGS] > 0
    assert seat_out[:, :, SEAT_COLUMN["flags_captured"]].sum() > 0
    game_out, _ = play(2, ["turtle", "turtle"], {}, 200)
    assert Counter(game_out[:, END].tolist())[END_TIME_LIMIT] > 0
    _, seat_out = play(4, ["missile", "raider", "turtle", "random"], {"missile_cost": 40}, 500)
    by_slot = {slot: seat_out[:, :, SEAT_COLUMN["missiles_launched"]][
        seat_out[:, :, LINEUP_SLOT] == slot].sum() for slot in range(4)}  # fmt: skip
    assert by_slot[0] > 0 and by_slot[1] == by_slot[2] == 0
    units = seat_out[:, :, SEAT_COLUMN["power_units"]]
    assert (
        units[seat_out[:, :, LINEUP_SLOT] == 1].mean()
        > units[seat_out[:, :, LINEUP_SLOT] == 2].mean()
    )


def test_the_archetypes_take_flags_within_the_default_round_cap():
    """Massing the force the guard can spare on the weakest enemy Headquarters ends a share of
    the games by Flags at every table size within the default 24 rounds, and the missile
    builder's hoard reaches the full Mega-Missile cost in time to launch."""
    for players in (2, 3, 4):
        lineup = ["balanced", "missile", "blitz", "opening"][:players]
        game_out, seat_out = play(players, lineup, {}, 200)
        ends = Counter(game_out[:, END].tolist())
        assert ends[END_FLAGS] >= 10, (players, ends)
        missiles = seat_out[:, :, SEAT_COLUMN["missiles_launched"]]
        assert missiles[seat_out[:, :, LINEUP_SLOT] == 1].sum() > 0, players


# --- trace replays ---------------------------------------------------------------------------


def snapshot_at(rows, i):
    """(pieces {(army, loc, kind): n}, Power Units [army]) of the snapshot starting at row i."""
    pieces = {}
    units = [0] * 4
    while rows[i][0] == EV_PIECES:
        _, army, place, kind, n = rows[i][:5]
        pieces[(army, place, kind)] = n
        i += 1
    while i < len(rows) and rows[i][0] == EV_ARMY_STATE:
        units[rows[i][1]] = rows[i][2]
        i += 1
    return pieces, units, i


def replay(trace, board, dist, limits):
    """Check every round of one traced game (with ``limits``, no army ever has more in play than
    its set); returns the number of rounds checked."""
    rows = [tuple(int(x) for x in row) for row in trace]
    rounds = 0
    i = 0
    while rows[i][0] != EV_ROUND:
        i += 1
    pieces, units, i = snapshot_at(rows, i + 1)
    pads = {}
    while True:
        check_terrain(pieces, board)
        if limits:
            check_sets(pieces, units)
        count = Counter(pieces)
        pu = list(units)
        while rows[i][0] not in (EV_ROUND, EV_PIECES, EV_ARMY_STATE):
            event, a, b, c, d, e, f, g = rows[i]
            if event == EV_COMMAND:
                pads[(a, b)] = (c, d, e, f, g)
            elif event == EV_EXEC and c == EXECUTED:
                army, op, kind, origin, target = pads[(a, b)]
                if op == MOVE:
                    count[(army, origin, kind)] -= 1
                    count[(army, target, kind)] += 1
                    if origin < RESERVE:
                        moves = dist[MOVE_CLASS[kind], origin, target]
                        assert moves == d and 0 < moves <= MAX_MOVES[kind]
                elif op == UPGRADE:
                    count[(army, origin, kind)] -= 3
                    count[(army, origin, kind + 4)] += 1
                elif op == BUY:
                    pu[army] -= POWER_VALUE[kind]
                    count[(army, RESERVE + army, kind)] += 1
                elif op == BUILD:
                    count[(army, origin, MISSILE)] += 1
                elif op == LAUNCH:
                    count[(army, origin, MISSILE)] -= 1
            elif event in (EV_USED, EV_DESTROYED):
                if c == POWER_UNIT:
                    pu[a] -= d
                else:
                    count[(a, b, c)] -= d
            elif event == EV_PENALTY and b >= 0:
                if c < 0:
                    pu[b] -= 1
                else:
                    count[(b, d, c)] -= 1
                    pu[b] += e
                    if f >= 0:
                        count[(b, RESERVE + b, f)] += g
            elif event == EV_BOUNCE:
                count[(a, c, b)] -= 1
                count[(a, d, b)] += 1
            elif event == EV_CAPTURE:  # e captured, f of them received (the set's room)
                assert 0 <= f <= e
                count[(b, c, d)] -= e
                count[(a, RESERVE + a, d)] += f
            elif event == EV_POWER_UNITS:
                pu[a] += b
            elif event == EV_TAKE:
                assert 0 <= f <= e
                if d == POWER_UNIT:
                    pu[b] -= e
                    pu[a] += f
                else:
                    count[(b, c, d)] -= e
                    count[(a, RESERVE + a, d)] += f
            i += 1
        if rows[i][0] == EV_ROUND:
            i += 1
        expected, units, i = snapshot_at(rows, i)
        assert {k: n for k, n in count.items() if n} == expected, f"round {rounds}"
        assert min(count.values(), default=0) >= 0
        assert pu == units, f"round {rounds}"
        pieces = expected
        rounds += 1
        if rows[i][0] == EV_SCORE:
            assert rows[-1][0] == EV_END and rows[-1][2] == rounds
            return rounds


def check_sets(pieces, units):
    """Rulebook, Components: 9 Infantry (three to a Regiment), 6 Tanks, 3 Heavy Tanks, 6 Fighters,
    3 Bombers, 6 Destroyers, 3 Cruisers, 1 Mega-Missile and 10 Power Units a colour."""
    held = Counter()
    for (army, _, kind), n in pieces.items():
        held[(army, kind)] += n
    for army in range(4):
        assert held[(army, INFANTRY)] + 3 * held[(army, REGIMENT)] <= 9
        for kind, most in ((TANK, 6), (HEAVY_TANK, 3), (FIGHTER, 6), (BOMBER, 3),
                           (DESTROYER, 6), (CRUISER, 3), (MISSILE, 1)):  # fmt: skip
            assert held[(army, kind)] <= most, (army, kind, held[(army, kind)])
        assert units[army] <= 10


def check_terrain(pieces, board):
    for (_, place, kind), n in pieces.items():
        assert n > 0
        if place >= RESERVE or kind == MISSILE:
            continue
        terrain = board[place, B_TERRAIN]
        if MOVE_CLASS[kind] == SEA:
            assert terrain != LAND
        else:
            assert terrain != WATER


@pytest.mark.parametrize(("players", "names", "rules"), LINEUPS)
def test_traces_replay_to_every_snapshot(players, names, rules):
    prepared = kernel.prepare(GAME.rules_with_defaults(rules), players)
    _, board, dist = prepared
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, n) for n in names])
    game_out, _ = kernel.run_chunk(prepared, players, ids, rows, SEED, 0, 40, True)
    for g in range(40):
        trace = kernel.trace_game(prepared, players, ids, rows, SEED, g, True)
        limits = GAME.rules_with_defaults(rules)["component_limits"]
        assert replay(trace, board, dist, limits) == game_out[g, TURNS]
        end = trace[-1]
        assert (end[1], end[2], end[3]) == (game_out[g, WINNER], game_out[g, TURNS],
                                            game_out[g, END])  # fmt: skip
        assert kernel.describe_trace(trace, names)[-1].startswith("== after")


def test_every_strategy_is_registered_with_its_parameters():
    assert NAMES == ["random", "opening", "raider", "turtle", "blitz", "balanced", "missile"]
    assert GAME.default_strategy in NAMES
    for strategy in GAME.strategies:
        for param in strategy.params:
            assert param.name in GAME.strategy_param_names
