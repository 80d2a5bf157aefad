"""POWER invariants over many games: every result row and every traced step must make sense.

Two layers:

* ``run_chunk`` results (well over 100,000 random-strategy games, plus mixed lineups and rule
  variants for 3-6 players): exactly one survivor unless truncated, the winner has influence,
  influence losses, elimination turns, coins and challenge counters are consistent;
* ``trace_game`` replays (over 2,000 games): the trace is replayed event by event in plain Python
  and every ``EV_SNAPSHOT`` must equal the replayed state, with the Dollars conserved (coins plus
  Safe == safe_size) and the cards conserved (deck plus hands == 5 x copies, copies of each
  character), and the per-seat results of the chunk kernel must agree with the trace.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import numpy as np
import pytest

from simcore import registry
from simcore.games.power import game as kernel
from simcore.games.power.state import (
    ACTION_CLAIM,
    AID,
    BANKER,
    EV_ACTION,
    EV_BLOCK,
    EV_CHALLENGE,
    EV_DEAL,
    EV_ELIMINATED,
    EV_END,
    EV_EXCHANGE,
    EV_GAIN,
    EV_LOSE,
    EV_REFUND,
    EV_REPLACE,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_TURN,
    FIRE,
    JOURNALIST,
    LAWYER,
    N_CHARACTERS,
    OVERTHROW,
    POLITICIAN,
    STEAL,
)
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    LINEUP_SLOT,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
)
from tests.contract.common import Batch

GAME = registry.make("power")
SEED = 20_260_101


def col(stat: int) -> int:
    """Index of a POWER per-seat statistic in the chunk kernel's ``seat_out``."""
    return N_STANDARD_SEAT_COLUMNS + stat


Config = partial(Batch, "power")


HONEST_EVERY_OTHER_SEAT = ("random", "honest", "random", "honest", "random")
MIXED = ("counter", "bluffer", "honest", "random", "counter:threshold=0.7", "bluffer:p_bluff=0.8")

# 115,000 random-strategy games, 80,000 mixed-lineup games, 26,000 under rule variants.
CONFIGS = [
    Config(3, ("random",), 25_000, 300),
    Config(4, ("random",), 40_000, 600),
    Config(5, ("random",), 25_000, 300),
    Config(6, ("random",), 25_000, 300),
    Config(3, MIXED[:3], 20_000, 150),
    Config(4, MIXED[:4], 20_000, 150),
    Config(5, MIXED[:5], 20_000, 150),
    Config(6, MIXED, 20_000, 150),
    Config(4, ("random",), 5_000, 80, {"eliminated_coins_to_safe": False}),
    Config(4, ("random",), 5_000, 80, {"challenge_order": "random"}),
    Config(4, MIXED[:4], 3_000, 80, {"refund_failed_action": False, "ceo_cost": 4}),
    Config(3, ("random",), 5_000, 80, {"safe_size": 9}),
    Config(5, HONEST_EVERY_OTHER_SEAT, 3_000, 80, {"copies_per_character": 2}, rotate=False),
    Config(6, MIXED, 3_000, 80, {"max_turns": 12}),
    Config(4, ("honest",), 2_000, 40, {"forced_overthrow_at": 7, "overthrow_cost": 5}),
]
CONFIG_IDS = [str(c) for c in CONFIGS]


@pytest.fixture(scope="module", params=CONFIGS, ids=CONFIG_IDS)
def results(request):
    return request.param.played(SEED)


def test_game_counts_are_large_enough():
    random_games = sum(c.games for c in CONFIGS if set(c.lineup) == {"random"})
    assert random_games >= 100_000
    assert sum(c.traced for c in CONFIGS) >= 2_000
    assert {c.players for c in CONFIGS if len(set(c.lineup)) > 2} == {3, 4, 5, 6}


# --- chunk results --------------------------------------------------------------------------


def test_result_invariants(results):
    config, rules, _, _, _, game_out, seat_out = results
    players = config.players
    n = config.games
    winner = game_out[:, WINNER]
    turns = game_out[:, TURNS]
    truncated = game_out[:, ENDED_BY] == ENDED_CAP
    lost = seat_out[:, :, col(kernel.INFLUENCE_LOST)]
    eliminated = seat_out[:, :, col(kernel.ELIMINATED_TURN)]
    coins = seat_out[:, :, col(kernel.COINS_AT_END)]
    won = seat_out[:, :, WON].astype(bool)
    alive = lost < 2
    done = ~truncated

    assert ((lost >= 0) & (lost <= 2)).all()
    # Exactly one survivor unless truncated; a truncated game has several and no winner.
    assert (truncated == (alive.sum(1) > 1)).all()
    assert (alive.sum(1)[done] == 1).all()
    assert (winner[truncated] == -1).all() and not won[truncated].any()
    assert (winner[done] >= 0).all()
    # The winner is the one seat with influence; it is the only seat marked won.
    rows = np.nonzero(done)[0]
    assert alive[rows, winner[rows]].all()
    assert won[rows, winner[rows]].all() and (won.sum(1) == done).all()
    assert (lost[rows, winner[rows]] <= 1).all()
    # Every non-winner of a finished game lost both influences.
    assert (lost[done].sum(1) - lost[rows, winner[rows]] == 2 * (players - 1)).all()
    # Eliminated turn: -1 exactly for the seats still in, else a turn that was played; a
    # finished game ends on the turn its last rival fell.
    assert ((eliminated == -1) == alive).all()
    assert ((eliminated < turns[:, None]) & (eliminated >= -1)).all()
    assert (eliminated.max(1)[done] == turns[done] - 1).all()
    # Turns: at least one, the cap exactly when truncated.
    assert (turns >= 1).all() and (turns <= rules["max_turns"]).all()
    assert (turns[truncated] == rules["max_turns"]).all()
    # Dollars: never negative, never more than the game holds.
    assert (coins >= 0).all()
    assert (coins.sum(1) <= rules["safe_size"]).all()
    if rules["eliminated_coins_to_safe"]:
        assert (coins[~alive] == 0).all(), "an eliminated seat holds Dollars"
    # Dealt cards: valid characters, no more copies of one than exist.
    dealt = seat_out[:, :, [col(kernel.START_CARD0), col(kernel.START_CARD1)]].reshape(n, -1)
    assert ((dealt >= 0) & (dealt < N_CHARACTERS)).all()
    for character in range(N_CHARACTERS):
        assert ((dealt == character).sum(1) <= rules["copies_per_character"]).all()
    # Challenge and bluff counters.
    made = seat_out[:, :, col(kernel.CHALLENGES_MADE)]
    wins = seat_out[:, :, col(kernel.CHALLENGES_WON)]
    bluffs = seat_out[:, :, col(kernel.BLUFFS_MADE)]
    caught = seat_out[:, :, col(kernel.BLUFFS_CAUGHT)]
    blocks = seat_out[:, :, col(kernel.BLOCKS)]
    assert ((wins >= 0) & (wins <= made)).all()
    assert ((caught >= 0) & (caught <= bluffs)).all()
    assert (blocks >= 0).all()
    assert (wins.sum(1) == caught.sum(1)).all()
    # Every influence lost is a lost challenge, an overthrow or a firing: at least the challenges.
    assert (lost.sum(1) >= made.sum(1)).all()
    # Seating: with rotation, game i seats lineup entry (seat + i) mod players.
    slots = seat_out[:, :, LINEUP_SLOT]
    expected = (np.arange(players)[None, :] + np.arange(n)[:, None]) % players
    assert (slots == (expected if config.rotate else np.arange(players)[None, :])).all()


def test_truncation_and_variants_are_exercised(results):
    config, rules, _, _, _, game_out, seat_out = results
    truncated = game_out[:, ENDED_BY] == ENDED_CAP
    if rules["max_turns"] == 12:
        assert truncated.any() and (~truncated).any()
    if config.lineup == ("random",) and config.players == 4 and not config.rules:
        # random strategies bluff, block and challenge: every counter is used somewhere
        for stat in ("CHALLENGES_WON", "BLUFFS_CAUGHT", "BLOCKS"):
            assert seat_out[:, :, col(getattr(kernel, stat))].sum() > 0


# --- traces ---------------------------------------------------------------------------------


class Replay:
    """The game state rebuilt from a trace alone, checked against every event and snapshot."""

    def __init__(self, players: int, rules: dict):
        self.players = players
        self.rules = rules
        self.copies = rules["copies_per_character"]
        self.coins = [rules["starting_coins"]] * players
        self.safe = rules["safe_size"] - players * rules["starting_coins"]
        self.deck = [self.copies] * N_CHARACTERS
        self.hand = [[-1, -1] for _ in range(players)]
        self.down = [[0, 0] for _ in range(players)]
        self.lost = [0] * players
        self.eliminated = [-1] * players
        self.challenges = [0] * players
        self.challenges_won = [0] * players
        self.blocks = [0] * players
        self.turn = -1
        self.snapshots = 0
        self.end = None

    def influence(self, seat: int) -> int:
        return sum(self.down[seat])

    def holds(self, seat: int, character: int) -> bool:
        return any(self.down[seat][s] and self.hand[seat][s] == character for s in range(2))

    def take(self, character: int) -> None:
        assert 0 <= character < N_CHARACTERS and self.deck[character] > 0, "drew a missing card"
        self.deck[character] -= 1

    def apply(self, row) -> None:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        rules = self.rules
        if event == EV_DEAL:
            self.take(b)
            self.take(c)
            self.hand[a] = [b, c]
            self.down[a] = [1, 1]
        elif event == EV_TURN:
            self.turn += 1
            self.failed_actor = 0
            self.out_to_safe = False
            assert self.influence(a) > 0
            assert b == self.coins[a]
            forced = b >= rules["forced_overthrow_at"] and b >= rules["overthrow_cost"]
            assert c == forced
            self.forced = forced
        elif event == EV_ACTION:
            cost = {OVERTHROW: rules["overthrow_cost"], FIRE: rules["ceo_cost"]}.get(b, 0)
            assert d == cost
            assert (b == OVERTHROW) or not self.forced
            if b in (OVERTHROW, FIRE, STEAL):
                assert c != a and self.influence(c) > 0
            self.coins[a] -= d
            self.safe += d
            assert self.coins[a] >= 0
            self.action = (a, b, c)
            self.paid = d
            self.claim = (a, int(ACTION_CLAIM[b]))
        elif event == EV_CHALLENGE:
            # A challenge is to the latest claim (the action's character, then the block's), and
            # at most one challenge is resolved per claim.
            assert (b, c) == self.claim and c >= 0
            self.claim = (-1, -1)
            assert a != b and self.influence(a) > 0
            assert d == self.holds(b, c)
            self.failed_actor = int(d == 0 and b == self.action[0])
            self.challenges[a] += 1
            self.challenges_won[a] += 1 - d
        elif event == EV_BLOCK:
            actor, action, target = self.action
            assert c == actor and self.influence(a) > 0
            allowed = {AID: (BANKER,), FIRE: (LAWYER,), STEAL: (POLITICIAN, JOURNALIST)}[action]
            assert b in allowed
            assert action == AID or a == target
            self.blocks[a] += 1
            self.claim = (a, b)
        elif event == EV_REPLACE:
            assert self.down[a][b] == 1 and self.hand[a][b] == c
            self.deck[c] += 1
            self.take(d)
            self.hand[a][b] = d
        elif event == EV_LOSE:
            assert self.down[a][b] == 1 and self.hand[a][b] == c
            self.down[a][b] = 0
            self.lost[a] += 1
            if self.influence(a) == 0:
                self.eliminated[a] = self.turn
        elif event == EV_EXCHANGE:
            drawn = [card for card in (c, d) if card >= 0]
            assert len(drawn) == b == min(2, sum(self.deck))
            for card in drawn:
                self.take(card)
            new = [e, f]
            pool = Counter(drawn)
            kept = Counter()
            for s in range(2):
                if self.down[a][s]:
                    pool[self.hand[a][s]] += 1
                    kept[new[s]] += 1
                else:
                    assert new[s] == self.hand[a][s], "a revealed card changed"
            returned = pool - kept
            assert not kept - pool and sum(returned.values()) == len(drawn)
            for card, count in returned.items():
                self.deck[card] += count
            self.hand[a] = new
        elif event == EV_GAIN:
            if b < 0:
                self.safe -= c
                assert self.safe >= 0
            else:
                self.coins[b] -= c
                assert self.coins[b] >= 0
            self.coins[a] += c
            assert c >= 0
        elif event == EV_REFUND:
            # Only a caught action claim is refunded: what was paid, or what the Safe holds.
            assert rules["refund_failed_action"] and self.failed_actor and a == self.action[0]
            assert self.influence(a) > 0 or not self.out_to_safe, "refund to an eliminated seat"
            assert b == min(self.paid, self.safe) and b > 0
            self.safe -= b
            self.coins[a] += b
        elif event == EV_ELIMINATED:
            assert self.influence(a) == 0
            assert b == (self.coins[a] if rules["eliminated_coins_to_safe"] else 0)
            self.coins[a] -= b
            self.safe += b
            self.out_to_safe = bool(rules["eliminated_coins_to_safe"])
        elif event == EV_SNAPSHOT:
            assert (b, c, d, e, f, g) == (
                self.coins[a], *self.hand[a], *self.down[a], self.safe,
            )  # fmt: skip
            if a == self.players - 1:
                self.check_conservation()
        elif event == EV_STANDING:  # after turn a, seat b: influence, Dollars (docs/arcs.md)
            assert (c, d) == (self.influence(b), self.coins[b])
        elif event == EV_END:
            self.end = (a, b, c)
        else:
            raise AssertionError(f"unknown event {event}")

    def check_conservation(self) -> None:
        self.snapshots += 1
        assert min(self.coins) >= 0 and self.safe >= 0
        assert sum(self.coins) + self.safe == self.rules["safe_size"]
        in_hands = Counter(card for seat in range(self.players) for card in self.hand[seat])
        for character in range(N_CHARACTERS):
            assert in_hands[character] <= self.copies
            assert self.deck[character] + in_hands[character] == self.copies
        assert sum(self.deck) + 2 * self.players == N_CHARACTERS * self.copies


def test_traces_replay_with_conserved_dollars_and_cards(results):
    config, rules, prepared, ids, params, game_out, seat_out = results
    players = config.players
    snapshots = 0
    for index in range(config.traced):
        trace = kernel.trace_game(prepared, players, ids, params, SEED, index, config.rotate)
        replay = Replay(players, rules)
        for k, row in enumerate(trace):
            try:
                replay.apply(row)
            except AssertionError as error:
                raise AssertionError(f"{config} game {index} row {k}: {row.tolist()}") from error
        snapshots += replay.snapshots
        # One snapshot round per turn, and the trace agrees with the chunk kernel's results.
        winner, turns, truncated = replay.end
        assert replay.snapshots == turns
        ended = (
            game_out[index, WINNER],
            game_out[index, TURNS],
            game_out[index, ENDED_BY] == ENDED_CAP,
        )
        assert (winner, turns, truncated) == ended
        seats = seat_out[index]
        assert replay.lost == seats[:, col(kernel.INFLUENCE_LOST)].tolist()
        assert replay.eliminated == seats[:, col(kernel.ELIMINATED_TURN)].tolist()
        assert replay.coins == seats[:, col(kernel.COINS_AT_END)].tolist()
        assert replay.challenges == seats[:, col(kernel.CHALLENGES_MADE)].tolist()
        assert replay.challenges_won == seats[:, col(kernel.CHALLENGES_WON)].tolist()
        assert replay.blocks == seats[:, col(kernel.BLOCKS)].tolist()
        deals = trace[trace[:, 0] == EV_DEAL]
        assert deals[:, 2].tolist() == seats[:, col(kernel.START_CARD0)].tolist()
        assert deals[:, 3].tolist() == seats[:, col(kernel.START_CARD1)].tolist()
    assert snapshots > 0
