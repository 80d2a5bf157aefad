"""Power Struggle invariants over many games, trace replays, and its data file.

* ``run_chunk`` results (random, archetype and mixed lineups at 3, 4 and 5 players, every
  event-ordering policy, rule variants and a designer's data file): a winner exactly when the
  game was not truncated, with at least the Victory Points to win; Victory Point columns that
  agree with the tracks; rounds, Department Turns and Communications rounds that add up; bribe
  counters that match across seats; tracks within their golden spaces;
* ``trace_game`` replays: offices, Employees, money, the Board Room, tracks and share blocks are
  rebuilt from the event rows alone (applying the move-up rule) and must agree with every
  snapshot and with the chunk kernel's columns; Employees and money never negative, at most 6
  Employees per office, no open Department without Employees, share blocks conserved, and the
  game ends with the Department Turn of the first declaration;
* a designer's bad data file is one line naming the file and the field.

That a chunk split in two, or played on one thread, gives the same games and that the traced
game is the chunk's is tests/contract/test_determinism.py's.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_struggle import game as kernel
from simcore.games.power_struggle import state as ps
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    LINEUP_SLOT,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
)
from simcore.registry import SpecError
from tests.contract.common import Batch

GAME = registry.make("power-struggle")
SEED = 20_260_405
SEAT_COLUMNS = [c.name for c in kernel.SEAT_COLUMNS]
GAME_COLUMNS = [c.name for c in kernel.GAME_COLUMNS]

# A designer's file: few, harsh events, short tracks, cheap shares.
SMALL_DATA = """
[tracks]
influence = 8
shares = 20
main_departments = 4
corruption = 10
[shares]
prices = [50000, 100000, 200000, 300000, 450000, 600000, 800000]
players_3 = [1, 1, 1, 1, 1, 1, 1]
players_4 = [1, 1, 1, 1, 1, 1, 2]
players_5 = [2, 2, 2, 2, 2, 2, 2]
[bonus_payment]
share_block = 50000
department = 100000
main_department = 300000
board_member = 100000
chairman = 200000
[[archenemy_competence]]
competences = ["influence", "shares", "counsel"]
players = 3
[[archenemy_competence]]
competences = ["main_departments", "corruption", "counsel"]
players = 3
[[archenemy_competence]]
competences = ["influence", "corruption", "shares"]
players = 3
[[archenemy_competence]]
competences = ["shares", "main_departments", "influence"]
players = 4
[[archenemy_competence]]
competences = ["counsel", "main_departments", "influence"]
players = 5
[[events]]
name = "Moron"
count = 3
effects = [{ kind = "moron", amount = 300000 }]
[[events]]
name = "Purge"
count = 2
effects = [{ kind = "lose_employees", who = "board", amount = 2 },
           { kind = "face_down", division = "chairman" }]
[[events]]
name = "Windfall"
count = 2
effects = [{ kind = "receive", who = "least_money", per = "employee", amount = 40000 },
           { kind = "motivation", amount = -3 }]
[[events]]
name = "Levy"
count = 1
effects = [{kind="pay", who="head", division="accounting", per="divisional_head", amount=250000}]
"""


def seat_col(name: str) -> int:
    return N_STANDARD_SEAT_COLUMNS + SEAT_COLUMNS.index(name)


def game_col(name: str) -> int:
    return N_STANDARD_GAME_COLUMNS + GAME_COLUMNS.index(name)


Config = partial(Batch, "power-struggle", files={"SMALL": SMALL_DATA})


ARCHETYPES = ("board", "investor", "builder", "corrupter", "consultant")
POLICIES = (
    "corrupter:order=self",
    "builder:order=adversarial",
    "investor:order=max",
    "consultant:order=min",
    "board:order=random",
)

CONFIGS = [
    Config(3, ("random",), 4_000, 60),
    Config(4, ("random",), 4_000, 60),
    Config(5, ("random",), 3_000, 40),
    Config(3, ARCHETYPES[:3], 3_000, 30),
    Config(4, ARCHETYPES[1:], 3_000, 30),
    Config(5, ARCHETYPES, 3_000, 30),
    Config(5, POLICIES, 3_000, 30),
    Config(4, ("random", "corrupter", "random", "builder"), 3_000, 30, {"victory_points": 5}),
    Config(4, ("random", "consultant", "corrupter", "investor"), 2_000, 30, {"data": "SMALL"}),
    Config(3, ("random",), 1_000, 20, {"max_turns": 12}),
]


@pytest.fixture(scope="module", params=CONFIGS, ids=str)
def played(request):
    return request.param.played(SEED)


def test_results_are_consistent(played):
    config, rules, _, _, _, game_out, seat_out = played
    players = config.players
    truncated = game_out[:, ENDED_BY] == ENDED_CAP
    winner = game_out[:, WINNER]
    won = seat_out[:, :, WON]
    winners = game_out[:, game_col("winners")]
    assert (won.sum(axis=1) == winners).all()
    assert (winners[truncated] == 0).all() and (winners[~truncated] >= 1).all()
    single = winners == 1
    assert (won[single, winner[single]] == 1).all()
    assert (winner[~single] == -1).all()
    vp = seat_out[:, :, seat_col("vp")]
    assert (vp[won == 1] >= rules["victory_points"]).all()
    routes = sum(seat_out[:, :, seat_col(f"vp_{r}")] for r in
                 ("influence", "shares", "main", "corruption", "counsel", "archenemy"))  # fmt: skip
    assert (routes == vp).all()
    for track, route, threshold in (("influence", "vp_influence", 7), ("shares", "vp_shares", 18),
                                    ("main_departments", "vp_main", 4),
                                    ("corruption", "vp_corruption", 9)):  # fmt: skip
        values = seat_out[:, :, seat_col(track)]
        assert ((values >= threshold) == (seat_out[:, :, seat_col(route)] == 1)).all()
    # Among the winners: the most VP, then the most money.
    for g in np.flatnonzero(winners >= 1)[:500]:
        best = max((vp[g, s], seat_out[g, s, seat_col("money")]) for s in range(players)
                   if vp[g, s] >= rules["victory_points"])  # fmt: skip
        for s in range(players):
            mine = (vp[g, s], seat_out[g, s, seat_col("money")])
            assert won[g, s] == (vp[g, s] >= rules["victory_points"] and mine == best)
    assert (seat_out[:, :, seat_col("money")] >= 0).all()
    assert (seat_out[:, :, seat_col("employees")] >= 0).all()
    declared = seat_out[:, :, seat_col("declared")]
    assert ((declared.sum(axis=1) >= 1) == ~truncated).all()  # several may declare in a turn
    assert (vp[declared == 1] >= rules["victory_points"]).all()
    rounds = game_out[:, game_col("rounds")]
    by_length = sum(game_out[:, game_col(f"rounds_{k}")] for k in (4, 5, 6, 7))
    assert (by_length == rounds).all()
    held = seat_out[:, :, seat_col("comm_rounds")]
    assert (held.sum(axis=1) == rounds).all()
    share = np.where(held == 0, 0, np.where(2 * held >= rounds[:, None], 2, 1))
    assert (seat_out[:, :, seat_col("comm_share")] == share).all()
    turns = game_out[:, TURNS]
    assert (turns >= 1).all() and (turns <= 7 * rounds).all() and (turns > 4 * (rounds - 1)).all()
    assert (turns[truncated] == rules["max_turns"]).all()
    offered = seat_out[:, :, seat_col("bribes_offered")]
    accepted = seat_out[:, :, seat_col("bribes_accepted")]
    assert (accepted <= offered).all()
    assert (accepted.sum(axis=1) == seat_out[:, :, seat_col("bribes_taken")].sum(axis=1)).all()
    slots = seat_out[:, :, LINEUP_SLOT]
    assert (np.sort(slots, axis=1) == np.arange(players)).all()


class Replay:
    """The public board rebuilt from a trace's event rows alone."""

    def __init__(self, players):
        self.players = players
        self.offices = {d: [] for d in range(ps.N_DIVISIONS)}  # [owner, heads, employees], top 1st
        self.money = {}
        self.tracks = np.zeros((players, ps.N_TRACKS), dtype=np.int64)
        self.consultants = np.zeros(players, dtype=np.int64)
        self.board = []
        self.chairman = -1
        self.stock = {}
        self.initial_stock = {}
        self.held = np.zeros((players, 8), dtype=np.int64)

    def office(self, owner, division, row, heads, staff):
        offices = self.offices[division]
        if heads == 0:
            assert offices[row][0] == owner
            del offices[row]  # the offices below move up
        elif row == len(offices):
            offices.append([owner, heads, staff])  # a new office: the topmost vacant one
        else:
            assert offices[row][0] == owner  # a merge in place
            offices[row] = [owner, heads, staff]
        assert len(offices) <= ps.ROWS

    def apply(self, row):
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        name = ps.EVENT_NAMES[event]
        if name == "setup":
            self.money[a] = g
        elif name == "stock":
            self.stock[a] = self.initial_stock[a] = b
        elif name == "office":
            self.office(a, b, c, d, e)
        elif name == "employee":
            office = self.offices[b][c]
            assert office[0] == a
            office[2] += d
            assert office[2] == e >= 0  # a merge may pass 6 until it fires the excess
        elif name == "pay":
            assert self.money[a] + b == c >= 0
            self.money[a] = c
        elif name == "board_out":
            assert self.board[0] == a
            self.board.pop(0)
        elif name == "board_in":
            self.board.append(a)
            assert len(self.board) == b + 1 <= ps.CHAIRS
        elif name == "chairman":
            self.chairman = a
            if b == 0:
                assert self.board[c] == a and a not in self.board[:c]
                self.board.pop(c)
        elif name == "meeting":
            assert b == self.chairman
            if a > 1:
                self.chairman = -1
        elif name == "points":
            self.tracks[a, b] += c
            assert self.tracks[a, b] == d
        elif name == "influence":
            self.tracks[a, ps.INFLUENCE] += b
            assert self.tracks[a, ps.INFLUENCE] == c
        elif name == "consultant":
            self.consultants[a] += 1
            assert self.consultants[a] == c
        elif name == "shares":
            self.stock[c] -= 1
            self.held[a, c] += 1
            assert self.stock[c] == e >= 0
        elif name == "snap_seat":
            assert self.money[a] == b
            assert list(self.tracks[a]) == [c, d, e, f]
            assert self.consultants[a] == g
        elif name == "snap_office":
            assert self.offices[a][b] == [c, d, e]
            assert e <= ps.MAX_EMPLOYEES and (
                e >= 1 or d == 2
            )  # only a Main Department may be empty
        elif name == "snap_board":
            if a >= 0:
                assert self.board[a] == b
            else:
                assert self.chairman == b

    def check_snapshot_complete(self, trace, end_index):
        """The last snapshot block names every occupied office and every Board member."""
        offices = [(int(r[1]), int(r[2])) for r in trace[:end_index] if r[0] == ps.EV_SNAP_OFFICE]
        n = sum(len(v) for v in self.offices.values())
        assert set(offices[-n:] if n else []) == {
            (d, row) for d, v in self.offices.items() for row in range(len(v))
        }


def test_traces_replay(played):
    config, rules, prepared, ids, params, game_out, seat_out = played
    players = config.players
    for index in range(config.traced):
        trace = kernel.trace_game(prepared, players, ids, params, SEED, index, True)
        replay = Replay(players)
        declared_turn = None
        for i, row in enumerate(trace):
            replay.apply(row)
            if row[0] == ps.EV_DECLARE and declared_turn is None:
                declared_turn = i
            if row[0] == ps.EV_TURN:
                assert declared_turn is None  # the game ends with the declaring turn
        replay.check_snapshot_complete(trace, len(trace) - 1)
        end = trace[-1]
        assert end[0] == ps.EV_END
        assert (end[1], end[2], end[3]) == (
            game_out[index, WINNER],
            game_out[index, TURNS],
            game_out[index, ENDED_BY] == ENDED_CAP,
        )
        assert end[4] == game_out[index, game_col("rounds")]
        assert end[5] == sum(int(seat_out[index, s, WON]) << s for s in range(players))
        for seat in range(players):
            assert replay.money[seat] == seat_out[index, seat, seat_col("money")]
            for k, track in enumerate(("influence", "shares", "main_departments", "corruption")):
                assert replay.tracks[seat, k] == seat_out[index, seat, seat_col(track)]
            staff = sum(o[2] for v in replay.offices.values() for o in v if o[0] == seat)
            assert staff == seat_out[index, seat, seat_col("employees")]
            mains = sum(o[1] == 2 for v in replay.offices.values() for o in v if o[0] == seat)
            top = int(prepared[ps.P_TRACK_MAX + ps.MAIN])
            assert replay.tracks[seat, ps.MAIN] == min(mains, top)  # Main Departments never close
        for size, left in replay.stock.items():
            assert left + replay.held[:, size].sum() == replay.initial_stock[size]
        assert (replay.tracks <= np.array(prepared[ps.P_TRACK_MAX : ps.P_TRACK_MAX + 4])).all()


def test_describe_trace_reads_every_row():
    config = CONFIGS[5]
    _, prepared, ids, params = config.encoded()
    trace = kernel.trace_game(prepared, config.players, ids, params, SEED, 3, True)
    lines = kernel.describe_trace(trace, list(config.lineup))
    assert lines[0] == "   3 blocks of 1 shares at 100,000"
    assert any(line.startswith("seat 0 (board): 800,000 Pinats, Archenemy") for line in lines)
    assert lines[-1].startswith("== after ")
    assert any("Directors' Meeting" in line for line in lines)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tracks\n", "not valid TOML"),
        (
            SMALL_DATA.replace("influence = 8", "influence = 3"),
            "tracks.influence: expected an integer in [7, 1,000]",
        ),
        (
            SMALL_DATA.replace("players_4 = [1, 1, 1, 1, 1, 1, 2]", "players_4 = [1, 1]"),
            "shares.players_4: expected at least 7 item(s), got [1, 1]",
        ),  # fmt: skip
        (
            SMALL_DATA.replace('kind = "moron"', 'kind = "party"'),
            "events[0].effects[0].kind: expected one of motivation",
        ),  # fmt: skip
        (
            SMALL_DATA.replace('"counsel"]\nplayers = 3', '"bribes"]\nplayers = 3', 1),
            "archenemy_competence[0].competences[2]",
        ),  # fmt: skip
        (SMALL_DATA.replace('division="accounting", ', ""), "events[3].effects[0].division"),
        (SMALL_DATA + "[extra]\n", "extra: unknown key"),
        (
            SMALL_DATA.replace("count = 3", "count = 0"),
            "events[0].count: expected an integer in [1, 64]",
        ),
    ],
)
def test_a_bad_data_file_is_one_line_naming_the_file_and_the_field(tmp_path, text, message):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    rules = GAME.rules_with_defaults({"data": str(path)})
    with pytest.raises(SpecError) as error:
        kernel.prepare(rules, 4)
    assert str(path) in str(error.value) and message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_missing_data_file_is_a_spec_error():
    rules = GAME.rules_with_defaults({"data": "/nonexistent/events.toml"})
    with pytest.raises(SpecError, match="cannot read"):
        kernel.prepare(rules, 3)
