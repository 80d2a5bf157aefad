"""Time Barons invariants over many games, and the columns its runs declare.

Two layers:

* ``run_chunk`` results (over 150,000 games: random, mixed archetypes, rule variants): the winner
  agrees with the end reason and the final followers and levels, truncation only at the turn cap,
  levels 1-4, at most ``followers`` on the board, played cards a subset of drawn cards;
* ``trace_game`` replays (over 1,000 games): the trace is replayed event by event in plain Python
  (card locations, followers and damage per site, supply, damage pool, levels) and every
  snapshot must equal the replay, with followers conserved (board + supply = ``followers``),
  damage counters conserved (sites + pool = ``damage_counters``) and every card in exactly one
  place; the chunk kernel's per-game and per-seat results must equal what the trace shows.

That a run gives the same table whatever the thread count, the chunk size or the number of
invocations is tests/contract/test_determinism.py's.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from simcore import registry
from simcore.games.time_barons import game as kernel
from simcore.games.time_barons.state import (
    C_LEVEL,
    C_TYPE,
    END_STACKS,
    END_TURN_CAP,
    END_WIPEOUT,
    EV_ARRANGE,
    EV_ATTACH,
    EV_DAMAGE,
    EV_DESTROY,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_KILL,
    EV_MOVE,
    EV_PLACE,
    EV_RECOVER,
    EV_REPAIR,
    EV_RESPONSE,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_TABLE,
    EV_TURN,
    HOMELAND,
    N_SEAT_STATS,
    PLAY,
    REACT,
    SITE,
    ST_DRAWN,
    ST_DRAWN_MASK,
    ST_FOLLOWERS,
    ST_LEVEL,
    ST_PLAYED,
    ST_PLAYED_MASK,
    ST_SITES,
    UPGRADE,
)
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_DRAW,
    LINEUP_SLOT,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
)
from simcore.workflows import runner
from tests.contract.common import Batch, table

GAME = registry.make("time-barons")
SEED = 20_260_202
FIRST_PLAYER = kernel.FIRST_PLAYER_COLUMN
END = kernel.END_COLUMN


def col(stat: int) -> int:
    """Index of a per-seat statistic in the chunk kernel's ``seat_out``."""
    return N_STANDARD_SEAT_COLUMNS + stat


Config = partial(Batch, "time-barons", 2)


CONFIGS = [
    Config(("random",), 60_000, 400),
    Config(("builder", "attacker"), 40_000, 250),
    Config(("tech_rush", "swarm"), 20_000, 150),
    Config(("attacker", "random"), 20_000, 150, {"damage_counters": 4, "first_player": "random"}),
    Config(
        ("builder", "swarm"),
        15_000,
        100,
        {"stacks_to_end": 2, "first_turn_actions": 3, "followers": 24, "hand_size": 2},
        rotate=False,
    ),
]


@pytest.fixture(scope="module", params=CONFIGS, ids=str)
def played(request):
    return request.param.played(SEED)


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.array([bin(int(m) & (2**64 - 1)).count("1") for m in masks])


def test_results_are_consistent(played):
    config, rules, _, _, _, game_out, seat_out = played
    winner, turns = game_out[:, WINNER], game_out[:, TURNS]
    truncated = (game_out[:, ENDED_BY] == ENDED_CAP).astype(np.int64)
    # A draw is an ending by the rules without a winner.
    assert np.array_equal(game_out[:, ENDED_BY] == ENDED_DRAW, (winner == -1) & (truncated == 0))
    end = game_out[:, END]
    followers = seat_out[:, :, col(ST_FOLLOWERS)]
    level = seat_out[:, :, col(ST_LEVEL)]
    assert set(np.unique(winner)) <= {-1, 0, 1}
    assert np.array_equal(truncated == 1, end == END_TURN_CAP)
    assert np.all(turns[truncated == 1] == rules["max_turns"]) and np.all(
        winner[truncated == 1] == -1
    )
    assert np.all((turns >= 1) & (turns <= rules["max_turns"]))
    assert (truncated == 1).mean() < 0.01, "the strategies should finish their games"
    for seat in range(2):
        assert np.array_equal(seat_out[:, seat, WON] == 1, winner == seat)
    wipeout = end == END_WIPEOUT
    assert np.all(followers[wipeout].min(axis=1) == 0)
    loser_has_none = followers[wipeout, 1 - np.maximum(winner[wipeout], 0)] == 0
    assert np.all(
        np.where(winner[wipeout] >= 0, loser_has_none, followers[wipeout].max(axis=1) == 0)
    )
    stacks = end == END_STACKS
    f, lv = followers[stacks], level[stacks]
    expected = np.where(
        f[:, 0] != f[:, 1],
        np.where(f[:, 0] > f[:, 1], 0, 1),
        np.where(lv[:, 0] != lv[:, 1], np.where(lv[:, 0] > lv[:, 1], 0, 1), -1),
    )
    assert np.array_equal(winner[stacks], expected)
    assert np.all((level >= 1) & (level <= 4))
    assert np.all(followers.sum(axis=1) <= rules["followers"]) and np.all(followers >= 0)
    assert np.all(seat_out[:, :, col(ST_SITES)] >= (followers > 0))
    for seat in range(2):
        drawn = seat_out[:, seat, col(ST_DRAWN_MASK)]
        played_mask = seat_out[:, seat, col(ST_PLAYED_MASK)]
        assert np.all(played_mask & ~drawn == 0), "a card played was never in hand"
        assert np.all(popcount(drawn) <= seat_out[:, seat, col(ST_DRAWN)])
        assert np.all(popcount(played_mask) <= seat_out[:, seat, col(ST_PLAYED)])
        assert np.all(seat_out[:, seat, col(ST_DRAWN)] >= rules["hand_size"])
    first = game_out[:, FIRST_PLAYER]
    if rules["first_player"] == "seat0":
        assert np.all(first == 0)
    else:
        assert 0.45 < first.mean() < 0.55


class Replay:
    """Plain-Python state rebuilt from a trace, checked against every snapshot."""

    def __init__(self, rules: dict, cards: np.ndarray):
        self.rules = rules
        self.cards = cards
        n_cards = int(cards[-1, 0])
        self.where = {card: "stack" for card in range(n_cards)}  # card -> place
        self.followers: dict[int, int] = {}  # site in play -> followers
        self.damage: dict[int, int] = {}
        self.owner: dict[int, int] = {}  # card in a hand or in play -> seat
        self.level = [1, 1]
        self.drawn = [[0, 0], [0, 0]]  # per seat: cards that entered the hand, their bitmask
        self.played = [[0, 0], [0, 0]]  # per seat: cards played, their bitmask

    def take(self, card: int, place: str, seat: int | None = None) -> None:
        self.where[card] = place
        if seat is None:
            self.owner.pop(card, None)
        else:
            self.owner[card] = seat

    def into_hand(self, seat: int, card: int, source: str) -> None:
        assert self.where[card] == source, f"card {card} is {self.where[card]}, not {source}"
        self.take(card, "hand", seat)
        self.drawn[seat][0] += 1
        self.drawn[seat][1] |= 1 << card

    def play_from_hand(self, seat: int, card: int) -> None:
        assert self.where[card] == "hand" and self.owner[card] == seat
        self.take(card, "resolving", seat)
        self.played[seat][0] += 1
        self.played[seat][1] |= 1 << card

    def sites(self, seat: int) -> list[int]:
        return [c for c, place in self.where.items() if place == "site" and self.owner[c] == seat]

    def apply(self, row: np.ndarray) -> None:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        if event == EV_SETUP:
            self.supply, self.pool = b, c
            assert c == self.rules["damage_counters"]
            for seat in range(2):
                home = HOMELAND + seat
                self.where[home] = "site"
                self.owner[home] = seat
                self.followers[home] = self.rules["starting_followers"]
                self.damage[home] = 0
        elif event == EV_DRAW:
            assert self.cards[b, C_LEVEL] == c and c <= self.level[a]
            self.into_hand(a, b, "stack")
        elif event == EV_MOVE:
            assert e >= 0 and f >= 0
            if b == PLAY:
                self.play_from_hand(a, c)
                if self.cards[c, C_TYPE] == SITE:
                    self.take(c, "site", a)
                    self.followers[c] = 0
                    self.damage[c] = 0
            elif b == UPGRADE:
                self.level[a] += 1
        elif event == EV_RESPONSE:
            if b == REACT:
                self.play_from_hand(a, c)
        elif event == EV_PLACE:
            if d < 0:
                self.supply -= c
            else:
                self.followers[d] -= c
            self.followers[b] += c
        elif event == EV_DAMAGE:
            self.followers[a] -= e
            self.supply += e
            self.damage[a] += d
            self.pool -= d
        elif event == EV_KILL:
            self.followers[a] -= c
            self.supply += c
        elif event == EV_DESTROY:
            self.followers[a] -= c
            self.supply += c
            self.damage[a] -= d
            self.pool += d
            assert self.followers.pop(a) == 0 and self.damage.pop(a) == 0
            self.take(a, "gone" if a >= HOMELAND else "destroyed")  # a discard row follows
        elif event == EV_DISCARD:
            assert self.where[a] in ("hand", "resolving", "attached", "destroyed")
            self.take(a, "discard")
        elif event == EV_ATTACH:
            assert self.where[a] == "resolving" and self.where[b] == "site"
            self.take(a, "attached", c)
        elif event == EV_ARRANGE:
            assert self.owner[b] == a
            self.followers[b] = c
        elif event == EV_REPAIR:
            self.damage[a] -= c
            self.pool += c
        elif event == EV_RECOVER:
            self.into_hand(a, b, "discard")
        elif event == EV_SNAPSHOT:
            sites = self.sites(a)
            hand = sum(
                1 for card, place in self.where.items() if place == "hand" and self.owner[card] == a
            )
            on_sites = sum(self.followers[site] for site in sites)
            counters = sum(self.damage[site] for site in sites)
            assert [b, c, d, e, f] == [self.level[a], on_sites, hand, len(sites), counters]
            assert all(self.followers[site] >= 0 for site in sites)
        elif event == EV_STANDING:  # after turn a, seat b: followers, level (docs/arcs.md)
            assert [c, d] == [sum(self.followers[site] for site in self.sites(b)), self.level[b]]
        elif event == EV_TABLE:
            assert "resolving" not in self.where.values() and "destroyed" not in self.where.values()
            board = sum(self.followers.values())
            assert board + self.supply == self.rules["followers"] and self.supply == a
            assert sum(self.damage.values()) + self.pool == self.rules["damage_counters"]
            assert self.pool == b
            assert sum(1 for place in self.where.values() if place == "discard") == c
            stacks = [0, 0, 0, 0]
            for card, place in self.where.items():
                if place == "stack":
                    stacks[self.cards[card, C_LEVEL] - 1] += 1
            assert stacks == [d, e, f, g]


def test_traces_replay_and_match_the_chunk_kernel(played):
    config, rules, prepared, ids, params, game_out, seat_out = played
    cards = prepared[1]
    for game_index in range(config.traced):
        trace = kernel.trace_game(prepared, 2, ids, params, SEED, game_index, config.rotate)
        replay = Replay(rules, cards)
        turns = []
        for row in trace:
            replay.apply(row)
            if row[0] == EV_TURN:
                turns.append(int(row[1]))
        first = int(trace[0, 1])
        assert turns == [(first + k) % 2 for k in range(len(turns))], "turns alternate"
        end = trace[-1]
        assert end[0] == EV_END
        assert list(end[1:5]) == [
            game_out[game_index, WINNER],
            game_out[game_index, TURNS],
            game_out[game_index, ENDED_BY] == ENDED_CAP,
            game_out[game_index, END],
        ]
        assert first == game_out[game_index, FIRST_PLAYER] and len(turns) == end[2]
        for seat in range(2):
            stats = seat_out[game_index, seat, N_STANDARD_SEAT_COLUMNS:]
            assert stats[ST_LEVEL] == replay.level[seat]
            assert stats[ST_FOLLOWERS] == sum(replay.followers[s] for s in replay.sites(seat))
            assert stats[ST_SITES] == len(replay.sites(seat))
            assert stats[ST_DRAWN] == replay.drawn[seat][0]
            assert stats[ST_DRAWN_MASK] == np.int64(np.uint64(replay.drawn[seat][1]))
            assert stats[ST_PLAYED] == replay.played[seat][0]
            assert stats[ST_PLAYED_MASK] == np.int64(np.uint64(replay.played[seat][1]))
            slot = seat_out[game_index, seat, LINEUP_SLOT]
            assert slot == ((seat + game_index) % 2 if config.rotate else seat)


def test_enough_games_are_checked():
    assert sum(c.games for c in CONFIGS) >= 150_000
    assert sum(c.traced for c in CONFIGS) >= 1_000
    assert N_SEAT_STATS == len(kernel.SEAT_COLUMNS)


# --- the runner -------------------------------------------------------------------------------


def test_run_json_declares_the_card_impact_columns(tmp_path):
    spec = runner.build_spec(
        "time-barons", 2, ["builder", "random"], ["first_player=random"], 99, 100, True
    )
    info = runner.run(spec, tmp_path)
    [entry] = info["card_impact"]
    assert entry["drawn_column"] == "drawn_mask" and entry["played_column"] == "played_mask"
    assert len(entry["labels"]) == 50 and entry["labels"][0] == "Catapult"
    columns = set(table(tmp_path).column_names)
    assert {"s0_drawn_mask", "s1_played_mask", "first_player", "end"} <= columns
