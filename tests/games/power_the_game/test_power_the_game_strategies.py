"""POWER: The Game strategies do what their docs say (docs/games/power-the-game.md, "Strategies").

Scenarios on hand-built states (the rules tests' ``Table``): the guard kept in Headquarters is
derived from the enemy power that can reach it and from the army's strength, never a fixed
number above the starting force; pieces of one kind at one place advance together where they
outweigh the enemy. Then over many games: every archetype leaves Headquarters and plays its plan
(the turtle takes Flags, the missile builder launches Mega-Missiles). Last, ``hide_pads``
redraws exactly what a seat cannot see while it writes its pad, and the information-leak check
(tests/contract/leak_check.py) catches a pad that reads another seat's pad.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy.stats import norm

from simcore import registry
from simcore.games.power_the_game import game as kernel
from simcore.games.power_the_game.rules import hide_pads, setup
from simcore.games.power_the_game.scripted import play_round
from simcore.games.power_the_game.state import (
    CMD_WIDTH,
    CNT,
    DESTROYER,
    INFANTRY,
    MAX_COMMANDS,
    MOVE,
    PAD,
    PAD_N,
    PLAN_CNT,
    REGIMENT,
    ROUND,
    SEAT_IN,
    STATE_SIZE,
    TANK,
    TARGET,
    TRACE_WIDTH,
    VIEW_SIDE_POWER,
    hq_of,
)
from simcore.kernel.rng import seed_game_stream
from strategies import power_the_game as strategy
from strategies.power_the_game.planner import planned_power
from tests.contract.leak_check import Glue, LeakCheck, glue_of
from tests.fair_play import play
from tests.games.power_the_game.test_power_the_game_rules import BOARD, Table, loc

GAME = registry.make("power-the-game")
Y, B, R, G = range(4)


def pad(table, name, seat=Y, rng_seed=1):
    """The pad ``name`` writes for ``seat`` on the table: [(army, op, kind, from, to), ...]."""
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, name)])
    rng = np.zeros(4, np.uint64)
    seed_game_stream(np.uint64(rng_seed), 0, rng)
    strategy.plan(ids[0], rows[0], seat, table.st, table.rules, table.board, table.dist, rng)
    base = PAD + seat * MAX_COMMANDS * CMD_WIDTH
    return [
        tuple(int(x) for x in table.st[base + CMD_WIDTH * i : base + CMD_WIDTH * (i + 1)])
        for i in range(table.st[PAD_N + seat])
    ]


def kept(table, army, where):
    """Power the army has at ``where`` once the pad just written is carried out (the planner's
    own picture of its pieces)."""
    return int(planned_power(table.st, army, loc(where)))


def starting_table():
    """Every army in its Headquarters with its starting force (40)."""
    return Table(empty=False)


def test_the_turtle_leaves_headquarters_when_nothing_threatens_it():
    """Nothing can reach the Yellow Headquarters this round: the turtle keeps half its strength
    (20 of 40) there and sends the rest out. (Its old fixed guard, 60, kept all 40 at home.)"""
    table = starting_table()
    commands = pad(table, "turtle")
    assert any(origin == loc("YHQ") and op == MOVE for _, op, _, origin, _ in commands)
    assert 20 <= kept(table, Y, "YHQ") < 40


def test_the_guard_grows_with_the_enemy_power_in_reach():
    """Two enemy Regiments (40) two moves from the Yellow Headquarters: the turtle keeps twice the
    threat, more than it has, so nothing leaves; ``balanced`` keeps the threat; both bring the
    Tank outside back; ``blitz`` keeps nothing back."""
    table = starting_table()
    table.put(Y, "Y4", TANK)
    table.put(B, "Y4", REGIMENT, 2)
    commands = pad(table, "turtle")
    assert not [c for c in commands if c[1] == MOVE and c[3] == loc("YHQ")]
    pad(table, "balanced")
    assert kept(table, Y, "YHQ") >= 40
    for name in ("turtle", "balanced"):
        assert (Y, MOVE, TANK, loc("Y4"), loc("YHQ")) in pad(table, name), name
    pad(table, "blitz")
    assert kept(table, Y, "YHQ") < 40


def test_pieces_of_one_kind_at_one_place_advance_together_where_they_outweigh_the_enemy():
    """Four Yellow Regiments on X Island, marching on the Green Headquarters; Green holds G0 (30)
    and G4 (23), the nodes on their way: no single Regiment (20) outweighs either, the four
    together (80) do, and they go together."""
    table = Table()
    table.put(Y, "XI", REGIMENT, 4)
    table.put(Y, "YHQ", DESTROYER, 2)
    for where in ("G0", "G4"):
        table.put(G, where, REGIMENT)
        table.put(G, where, DESTROYER if where == "G0" else TANK)
    table.put(G, "GHQ", INFANTRY)
    for army in (B, R):
        table.put(army, BOARD.names[hq_of(table.board, army)], DESTROYER, 9)
    commands = pad(table, "blitz")
    moves = [c for c in commands if c[2] == REGIMENT and c[3] == loc("XI")]
    assert len(moves) == 4 and len({c[4] for c in moves}) == 1
    assert BOARD.names[moves[0][4]] in ("G0", "G4")


def per_game(games: pl.DataFrame, players: int, name: str, column: str) -> tuple[float, float]:
    """(mean per game, its 95% lower bound) of a seat column over the seats playing ``name``."""
    values = []
    for seat in range(players):
        mine = games[f"s{seat}_strategy"].cast(pl.String).str.split(":").list.first() == name
        values.append(games.filter(mine)[f"s{seat}_{column}"].to_numpy())
    values = np.concatenate(values)
    mean = values.mean()
    return mean, mean - norm.ppf(0.975) * values.std(ddof=1) / np.sqrt(len(values))


def test_the_turtle_takes_flags_and_the_missile_builder_launches():
    """At 4 players (4,000 games): in its mirror the turtle captured no Flag at all when its guard
    (60) was above its starting force; beside ``opening``, ``raider`` and ``turtle`` the missile
    builder (guard 40) launched 0.14 Mega-Missiles a game. Now each plays its plan."""
    games = play("power-the-game", 4, ["turtle"] * 4, 4000)
    mean, low = per_game(games, 4, "turtle", "flags_captured")
    assert low > 0.1, f"turtle: {mean:.3f} Flags a game"
    games = play("power-the-game", 4, ["opening", "raider", "turtle", "missile"], 4000)
    mean, low = per_game(games, 4, "missile", "missiles_launched")
    assert low > 0.4, f"missile: {mean:.3f} Mega-Missiles a game"


def test_every_archetype_wins_games_by_flags_in_its_mirror():
    """Within the default 24 rounds, at 2 and 4 players, each archetype alone at the table ends
    some games by taking the Flags (the time limit ended every turtle mirror before)."""
    for name in (s.name for s in GAME.strategies if s.name != "random"):
        for players in (2, 4):
            games = play("power-the-game", players, [name] * players, 2000)
            by_flags = (games["ended_by"].cast(pl.String) == "rules").sum()
            assert by_flags >= 5, f"{name} x{players}: {by_flags} games of 2000 end by Flags"


# --- what a seat cannot see -----------------------------------------------------------------


def mid_game_state(players=4, rounds=6):
    """A 4-player game of mixed strategies after ``rounds`` rounds, with the pads of seats 0 and
    1 of the next round written (seat 2 is about to write)."""
    names = ["balanced", "turtle", "blitz", "missile"][:players]
    rules, board, dist = kernel.prepare(GAME.rules_with_defaults({}), players)
    ids, rows = GAME.encode_strategies([registry.parse_strategy(GAME, n) for n in names])
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    rng = np.zeros(4, np.uint64)
    seed_game_stream(np.uint64(5), 3, rng)
    trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    setup(players, st, rules, board, rng, trace)
    for _ in range(rounds):
        play_round(st, rules, board, dist, ids, rows, rng, trace)
        st[ROUND] += 1
    strategy.survey(st, board)
    for seat in (0, 1):
        strategy.write_pad(ids[seat], rows[seat], seat, st, rules, board, dist, rng)
    return st, rules, board, dist, ids, rows, rng


def test_hide_pads_redraws_the_other_pads_and_targets_and_nothing_public():
    st, rules, board, dist, ids, rows, rng = mid_game_state()
    seat = 2
    assert all(st[SEAT_IN + s] for s in range(4))
    redrawn = st.copy()
    other = np.zeros(4, np.uint64)
    seed_game_stream(np.uint64(9), 0, other)
    hide_pads(redrawn, rules, board, seat, other)
    changed = set(np.flatnonzero(redrawn != st).tolist())
    pads = {
        i
        for s in (0, 1, 3)
        for i in range(PAD + s * MAX_COMMANDS * CMD_WIDTH, PAD + (s + 1) * MAX_COMMANDS * CMD_WIDTH)
    }
    hidden = pads | {PAD_N + s for s in (0, 1, 3)} | {TARGET + a for a in (0, 1, 3)}
    scratch = set(range(PLAN_CNT, VIEW_SIDE_POWER))  # the pads' planning picture and lists
    assert changed <= hidden | scratch, sorted(changed - hidden - scratch)[:10]
    assert changed & pads, "the other seats' pads were not redrawn"
    # The seat's own pad, written afterwards, is the same on both.
    twin_rng = rng.copy()
    strategy.write_pad(ids[seat], rows[seat], seat, st, rules, board, dist, rng)
    strategy.write_pad(ids[seat], rows[seat], seat, redrawn, rules, board, dist, twin_rng)
    mine = slice(PAD + seat * MAX_COMMANDS * CMD_WIDTH, PAD + (seat + 1) * MAX_COMMANDS * CMD_WIDTH)
    assert st[PAD_N + seat] > 0 and st[PAD_N + seat] == redrawn[PAD_N + seat]
    assert np.array_equal(st[mine], redrawn[mine]) and np.array_equal(rng, twin_rng)


def test_the_leak_check_catches_a_pad_that_reads_another_seats_pad():
    """A planner that answers from the pad the previous seat wrote this round is caught; one that
    reads only the board is not."""
    st, rules, board, *_ = mid_game_state()

    def copies_the_last_pad(seat, st, rules, board, rng):
        last = PAD + (seat - 1) * MAX_COMMANDS * CMD_WIDTH
        return int(st[PAD_N + seat - 1]) * 100 + int(st[last + CMD_WIDTH - 1])

    def reads_the_board(seat, st, rules, board, rng):
        return int(st[CNT + 3 * 9]) + int(st[ROUND])

    glue = glue_of("power-the-game")
    check = LeakCheck(Glue(glue.strategies, {"peek": "seat", "own": "seat"}, glue.redraw))
    peeking, looking = check.wrap("peek", copies_the_last_pad), check.wrap("own", reads_the_board)
    rng = np.zeros(4, np.uint64)
    for seat in (1, 2, 3):
        for _ in range(10):
            peeking(seat, st, rules, board, rng)
            looking(seat, st, rules, board, rng)
    assert check.checked == {"peek": 30, "own": 30}
    assert {leak["decision"] for leak in check.leaks} == {"peek"}
    assert len(check.leaks) > 15
