"""Power Barons invariants over many games, trace replays, and reproducibility.

* ``run_chunk`` results (random, scripted and mixed lineups at 3 and 4 players, rule variants and
  a designer's components file): a winner exactly when not truncated and with all the bases it
  needs, challenge and base counters that add up, purchases that match the credits banked, flush
  columns only for flushers and within their threshold;
* ``trace_game`` replays: every card's location is rebuilt from the ``card`` and ``reshuffle``
  rows alone, and every ``snapshot``, ``result``, ``buy``, ``move`` and the final per-seat
  columns of the chunk kernel must agree with it (cards and bases conserved throughout);
* the traced game is the game of the chunk, its flush attempts too (that a chunk split in two,
  or played on one thread, gives the same games is tests/contract/test_determinism.py's).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_barons import actions, components
from simcore.games.power_barons import game as kernel
from simcore.games.power_barons.state import (
    BANK,
    DISCARD,
    DRAWPILE,
    EV_BUY,
    EV_CARD,
    EV_CHALLENGE,
    EV_END,
    EV_MOVE,
    EV_REMOVE,
    EV_RESHUFFLE,
    EV_RESULT,
    EV_ROUND,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_SURRENDER,
    EV_TURN,
    EV_WIN,
    HAND,
    M_PAY,
    M_WON,
    PLAYED,
)
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    LINEUP_SLOT,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    lineup_slot,
)
from strategies.power_barons.common import FLUSH_BELOW, P_FLUSH
from tests.contract.common import Batch

GAME = registry.make("power-barons")
SEED = 20_260_401
SMALL_COMPONENTS = """
[deck]
transportation = [5, 10, 20, 30, 40, 50]
communications = [5, 15, 25, 35, 45]
finance = [10, 20, 30, 40]
energy = [50, 45, 40, 35, 30, 25, 20]
political_influence = [25, 50]
[board]
spaces = ["investments_pay_off:asia", "remove_a_power_base", "remove_a_power_base",
          "investments_pay_off:africa", "take_a_power_card", "spy_and_steal",
          "investments_pay_off:europe", "limited_challenge", "take_political_influence",
          "investments_pay_off:americas"]
"""


def seat_col(column: int) -> int:
    return N_STANDARD_SEAT_COLUMNS + column


def game_col(k: int) -> int:
    return N_STANDARD_GAME_COLUMNS + k


Config = partial(Batch, "power-barons", files={"SMALL": SMALL_COMPONENTS})


MIXED = ("flusher:flush_below=1.05", "baron", "random", "flusher:flush_below=0.9,p_flush=0.5")

# 64,000 games in all, 740 of them traced and replayed.
CONFIGS = [
    Config(3, ("random",), 12_000, 150),
    Config(4, ("random",), 12_000, 150),
    Config(3, ("baron",), 6_000, 60),
    Config(4, ("flusher:flush_below=1.1",), 6_000, 60),
    Config(3, MIXED[:3], 8_000, 80),
    Config(4, MIXED, 8_000, 80),
    Config(4, MIXED, 3_000, 40, {"hand_size": 6, "base_cost": 200, "declared_multiplier": 3}),
    Config(3, MIXED[:3], 3_000, 40, {"max_turns": 20}, rotate=False),
    Config(
        4,
        ("random", "flusher", "random", "flusher"),
        3_000,
        40,
        {"components": "SMALL", "hand_size": 4, "base_cost": 150},
    ),
    Config(
        3,
        ("baron", "random", "flusher"),
        3_000,
        40,
        {"components": "SMALL", "hand_size": 3, "base_cost": 100},
    ),
]
CONFIG_IDS = [str(c) for c in CONFIGS]


@pytest.fixture(scope="module", params=CONFIGS, ids=CONFIG_IDS)
def results(request):
    return request.param.played(SEED)


def seat_strategies(config: Config, seat_out: np.ndarray) -> np.ndarray:
    """The strategy name in each (game, seat)."""
    names = np.array([text.partition(":")[0] for text in config.lineup])
    if len(names) == 1:
        return np.full(seat_out.shape[:2], names[0])
    return names[seat_out[:, :, LINEUP_SLOT]]


# --- chunk results --------------------------------------------------------------------------


def test_result_invariants(results):
    config, rules, prepared, _, params, game_out, seat_out = results
    players = config.players
    winner = game_out[:, WINNER]
    turns = game_out[:, TURNS]
    truncated = game_out[:, ENDED_BY] == ENDED_CAP
    won = seat_out[:, :, WON].astype(bool)

    def column(name: str) -> np.ndarray:
        return seat_out[:, :, seat_col(getattr(actions, name))]

    # A winner exactly when not truncated; the cap exactly when truncated.
    assert (truncated == (winner < 0)).all()
    assert ((turns >= 1) & (turns <= rules["max_turns"])).all()
    assert (turns[truncated] == rules["max_turns"]).all()
    rows = np.nonzero(~truncated)[0]
    assert won[rows, winner[rows]].all() and (won.sum(1) == ~truncated).all()
    # The winner moved last and has every base it needs.
    assert (winner[rows] == (turns[rows] - 1) % players).all()
    bases = column("BASES_AT_END")
    need = rules[f"types_to_win_{players}p"]
    assert (bases[rows, winner[rows]] >= (players - 1) * need).all()
    per_type = rules[f"bases_per_type_{players}p"]
    assert ((bases >= 0) & (bases <= 4 * per_type)).all()
    # Bases: placed by challenges and purchases, less the ones removed.
    assert (bases == column("BASES_WON") + column("BASES_BOUGHT") - column("BASES_LOST")).all()
    assert (column("BASES_REMOVED").sum(1) == column("BASES_LOST").sum(1)).all()
    # One challenge per turn: seat k moved on turns k, k + players, ...
    made = column("CHALLENGES_MADE")
    expected = (turns[:, None] - np.arange(players)[None, :] + players - 1) // players
    assert (made == expected).all()
    assert (column("CHALLENGES_WON").sum(1) == turns).all()
    assert (column("CHALLENGES_LOST").sum(1) == turns).all()
    # Banks: what was banked less what purchases paid (at least the price, under price + max).
    colours, values, _, _ = components.load_components(rules["components"])
    bank = column("BANK_AT_END")
    paid = column("CREDITS_BANKED") - bank
    bought = column("BASES_BOUGHT")
    assert (bank >= 0).all() and (bank.sum(1) <= values.sum()).all()
    assert (paid >= rules["base_cost"] * bought).all()
    assert (paid <= (rules["base_cost"] + values.max() - 1) * bought).all()
    # Flushes: only flushers, at most one per challenge made, below the threshold.
    strategies = seat_strategies(config, seat_out)
    attempts = column("FLUSH_ATTEMPTS")
    flushes = column("FLUSHES")
    assert ((flushes >= 0) & (flushes <= attempts) & (attempts <= made)).all()
    for name in ("FLUSH_ATTEMPTS", "FLUSH_CREDITS_GIVEN", "FLUSH_HAND_BEFORE", "FLUSH_HAND_AFTER"):
        assert (column(name)[strategies != "flusher"] == 0).all()
    assert (column("FLUSH_CREDITS_GIVEN") >= 0).all() and (column("FLUSH_HAND_AFTER") >= 0).all()
    # (Each flush attempt started from a hand below the flusher's threshold: checked on traces.)
    assert (column("FLUSH_HAND_BEFORE") >= 0).all()
    assert (game_out[:, game_col(0)] >= 0).all() and (game_out[:, game_col(1)] >= 0).all()
    # Seating: with rotation, game i seats lineup entry (seat + i) mod players.
    slots = seat_out[:, :, LINEUP_SLOT]
    n = len(game_out)
    rotation = (np.arange(players)[None, :] + np.arange(n)[:, None]) % players
    assert (slots == (rotation if config.rotate else np.arange(players)[None, :])).all()


def test_variants_are_exercised(results):
    config, rules, _, _, _, game_out, seat_out = results
    truncated = game_out[:, ENDED_BY] == ENDED_CAP
    if rules["max_turns"] == 20:
        assert truncated.any() and (~truncated).any()
    else:
        assert not truncated.any()
    if "flusher" in config.lineup[0] and config.players == 4 and not config.rules:
        assert seat_out[:, :, seat_col(actions.FLUSHES)].sum() > 0
    if config.lineup == ("random",):
        for name in ("BASES_REMOVED", "BASES_BOUGHT", "BASES_WON"):
            assert seat_out[:, :, seat_col(getattr(actions, name))].sum() > 0
        assert game_out[:, game_col(0)].sum() > 0  # reshuffles happen


# --- traces ---------------------------------------------------------------------------------


class Replay:
    """Every card's location and every base, rebuilt from a trace alone; and the flushers'
    decisions checked against what they could see (``flush_params``: each seat's
    (flush_below, p_flush) if it plays flusher, else None), and their play (every flush)."""

    def __init__(self, players: int, rules: dict, flush_params=None):
        colours, values, kinds, territories = components.load_components(rules["components"])
        self.players = players
        self.rules = rules
        self.colour = colours.tolist()
        self.value = values.tolist()
        self.kinds = kinds.tolist()
        self.loc = [DRAWPILE] * len(values)
        self.per_type = rules[f"bases_per_type_{players}p"]
        self.bases = set()  # (owner, territory, type)
        self.pawn = [-1] * players
        self.stats = {name: [0] * players for name in ("CHALLENGES_WON", "CHALLENGES_LOST",
                      "BASES_WON", "BASES_BOUGHT", "BASES_REMOVED", "BASES_LOST",
                      "FLUSH_ATTEMPTS", "FLUSHES", "FLUSH_CREDITS_GIVEN")}  # fmt: skip
        self.pending_won = []  # values of the `won` card rows since the last result
        self.pending_pay = []
        self.challenge = None
        self.end = None
        self.flush_params = flush_params  # None: the flush thresholds are not checked
        # The challenge in progress: Power Cards played per side, colours done, and whether a
        # surrender option has just been offered (both played a Power Card in the last round).
        self.power_played = [0, 0]
        self.done = set()
        self.option_offered = False
        self.must_stay_level = False
        self.defender_surrendered = False
        self.flush_wins = Counter()

    def unseen_mean(self, seat: int) -> float:
        """The mean value of the cards ``seat`` cannot see (opponents' hands and the drawpile)."""
        unseen = [
            card
            for card, loc in enumerate(self.loc)
            if loc == DRAWPILE or (HAND <= loc < HAND + 4 and loc != HAND + seat)
        ]
        return sum(self.value[c] for c in unseen) / len(unseen) if unseen else 0.0

    def at(self, where: int) -> list[int]:
        return [card for card, loc in enumerate(self.loc) if loc == where]

    def credits(self, where: int) -> int:
        return sum(self.value[card] for card in self.at(where))

    def apply(self, row) -> None:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        if self.option_offered and event != EV_SURRENDER:
            self.option_declined()
        self.option_offered = False
        if event == EV_SETUP:
            assert d == self.per_type and a == b
            self.pawn[a] = c
        elif event == EV_CARD:
            assert self.loc[a] == d, "a card moved from a place it was not"
            assert (b, c) == (self.colour[a], self.value[a])
            assert d != e
            self.loc[a] = e
            if f == M_WON:
                attacker, defender = self.challenge[:2]
                assert d == PLAYED + attacker + defender - (e - BANK)  # the loser's cards
                self.pending_won.append(c)
            elif f == M_PAY:
                assert d - BANK in range(self.players) and e == DISCARD
                self.pending_pay.append(c)
        elif event == EV_RESHUFFLE:
            assert not self.at(DRAWPILE) and len(self.at(DISCARD)) == a > 0
            for card in self.at(DISCARD):
                self.loc[card] = DRAWPILE
        elif event == EV_TURN:
            assert self.end is None
            assert all(not self.at(PLAYED + s) for s in range(self.players))
            assert b == self.pawn[a] and c == len(self.at(HAND + a)) and d == self.credits(BANK + a)
            assert c <= self.rules["hand_size"]
        elif event == EV_MOVE:
            assert 1 <= b <= 6 and 1 <= c <= 6 and d == self.pawn[a]
            assert e == (d + b + c) % len(self.kinds) and f == self.kinds[e]
            self.pawn[a] = e
        elif event == EV_REMOVE and b >= 0:
            assert (b, c, d) in self.bases and b != a
            self.bases.remove((b, c, d))
            self.stats["BASES_REMOVED"][a] += 1
            self.stats["BASES_LOST"][b] += 1
        elif event == EV_CHALLENGE:
            assert a != b and 0 <= c < 4
            assert f == self.credits(HAND + a)
            self.challenge = (a, b, c, e)
            self.stats["FLUSH_ATTEMPTS"][a] += e
            self.power_played = [0, 0]
            self.done = set()
            params = self.flush_params[a] if self.flush_params else None
            assert e == 0 or params is not None or not self.flush_params, "only a flusher flushes"
            if params is not None:
                # It flushes exactly when (drawn p_flush and) its hand is worth less than
                # flush_below times an average hand of the cards it cannot see.
                flush_below, p_flush = params
                hand = self.at(HAND + a)
                below = f < flush_below * (len(hand) * self.unseen_mean(a))
                assert e <= below and (e == below or p_flush < 1), "a flush against its rule"
        elif event == EV_ROUND:
            if self.must_stay_level:
                assert e <= f, "the flusher played on and its lead put it ahead"
            self.must_stay_level = False
            self.done.add(b)
            self.power_played[0] += c >= 0
            self.power_played[1] += d >= 0
            self.option_offered = min(self.power_played) > 0
        elif event == EV_RESULT:
            attacker, defender, declared, flush = self.challenge
            assert {a, b} == {attacker, defender}
            assert c == sum(self.pending_won) and d == len(self.pending_won)
            assert not self.at(PLAYED + a) and not self.at(PLAYED + b)
            assert f == self.credits(HAND + b)
            if e:
                assert a == attacker and (a, defender, declared) not in self.bases
                self.bases.add((a, defender, declared))
                self.stats["BASES_WON"][a] += 1
            self.stats["CHALLENGES_WON"][a] += 1
            self.stats["CHALLENGES_LOST"][b] += 1
            if flush and b == attacker:
                self.stats["FLUSHES"][b] += 1
                self.stats["FLUSH_CREDITS_GIVEN"][b] += c
            elif flush:
                # A flush attempt won: only because the defender gave up first, or because it
                # never played a Power Card (no surrender option), never by the flusher's play.
                cause = (
                    "defender surrendered" if self.defender_surrendered else ("no surrender option")
                )
                assert cause == "defender surrendered" or min(self.power_played) == 0
                self.flush_wins[cause] += 1
            self.pending_won = []
        elif event == EV_BUY:
            assert d == sum(self.pending_pay) >= self.rules["base_cost"] and e == len(
                self.pending_pay
            )
            assert d - min(self.pending_pay) < self.rules["base_cost"]  # no card more than needed
            assert f == self.credits(BANK + a)
            assert b != a and b < self.players and (a, b, c) not in self.bases
            self.bases.add((a, b, c))
            self.stats["BASES_BOUGHT"][a] += 1
            self.pending_pay = []
        elif event == EV_SNAPSHOT:
            mine = [base for base in self.bases if base[0] == a]
            assert b == self.pawn[a]
            assert c == len(self.at(HAND + a)) <= self.rules["hand_size"]
            assert d == self.credits(HAND + a) and e == self.credits(BANK + a)
            assert f == len(mine) and g == 4 * self.per_type - len(mine)
            assert len({(t, k) for _, t, k in mine}) == len(mine)  # a type once per territory
        elif event == EV_STANDING:  # after turn a, seat b: bases, credits (docs/arcs.md)
            assert c == sum(base[0] == b for base in self.bases)
            assert d == self.credits(BANK + b)
        elif event == EV_SURRENDER:
            self.defender_surrendered = a == self.challenge[1]
        elif event == EV_END:
            self.end = (a, b, c)
        if event == EV_CHALLENGE:
            self.defender_surrendered = False

    def option_declined(self) -> None:
        """Both declined a surrender option: a flushing attacker only when it has a lead that
        cannot put it ahead (ahead, the defender would have the first option), so the next
        round must not leave it ahead."""
        if self.challenge[3]:
            assert len(self.done) < 4, "the flusher declined its option after the fourth round"
            self.must_stay_level = True


def replay(trace: np.ndarray, players: int, rules: dict, flush_params=None) -> Replay:
    state = Replay(players, rules, flush_params)
    for row in trace:
        state.apply(row)
    assert trace[-1, 0] == EV_END and state.end is not None
    return state


def test_a_flush_attempt_is_won_only_when_the_defender_gives_up_first():
    """A flush is a challenge lost on purpose. The flusher cannot stop the defender from
    surrendering first when the flusher is ahead after a round (the lower total has the first
    option), but it never plays on while its next lead could put it ahead, and it surrenders at
    its option after the fourth round (both checked by Replay at every declined option), so an
    attempt is won only when the defender gives up or never plays a Power Card. ``flushes``
    counts the attempts lost, and only those."""
    prepared, ids, params = encoded(4, ["flusher", "baron", "baron", "baron"])
    game_out, seat_out = kernel.run_chunk(prepared, 4, ids, params, SEED, 0, 300, True)
    wins = Counter()
    rules = GAME.rules_with_defaults({})
    for g in range(300):
        trace = kernel.trace_game(prepared, 4, ids, params, SEED, g, True)
        wins.update(replay(trace, 4, rules).flush_wins)
    attempts = seat_out[:, :, seat_col(actions.FLUSH_ATTEMPTS)].sum()
    flushes = seat_out[:, :, seat_col(actions.FLUSHES)].sum()
    assert attempts - flushes == sum(wins.values()) > 0
    assert set(wins) <= {"defender surrendered", "no surrender option"}


def test_traces_replay_and_agree_with_the_chunk_results(results):
    config, rules, prepared, ids, params, game_out, seat_out = results
    players = config.players
    need = rules[f"types_to_win_{players}p"]
    longest = 0
    names = [text.partition(":")[0] for text in config.lineup] * (
        players if len(config.lineup) == 1 else 1
    )
    for g in range(config.traced):
        trace = kernel.trace_game(prepared, players, ids, params, SEED, g, config.rotate)
        longest = max(longest, len(trace))
        slots = [lineup_slot(g, seat, players, config.rotate) for seat in range(players)]
        flush_params = [
            (params[k, FLUSH_BELOW], params[k, P_FLUSH]) if names[k] == "flusher" else None
            for k in slots
        ]
        state = replay(trace, players, rules, flush_params)
        winner, turns, truncated = state.end
        ended = game_out[g, WINNER], game_out[g, TURNS], game_out[g, ENDED_BY] == ENDED_CAP
        assert (winner, turns, truncated) == ended
        wins = trace[trace[:, 0] == EV_WIN][:, 1].tolist()
        assert wins == ([] if truncated else [winner])
        if not truncated:
            for territory in range(players):
                if territory != winner:
                    have = {k for o, t, k in state.bases if o == winner and t == territory}
                    assert len(have) >= need
        for seat in range(players):
            assert seat_out[g, seat, seat_col(actions.BANK_AT_END)] == state.credits(BANK + seat)
            mine = sum(1 for base in state.bases if base[0] == seat)
            assert seat_out[g, seat, seat_col(actions.BASES_AT_END)] == mine
            for name, counts in state.stats.items():
                assert seat_out[g, seat, seat_col(getattr(actions, name))] == counts[seat], name
        # Every card is somewhere: hands, banks, piles (none left on the table).
        assert sum(1 for loc in state.loc if PLAYED <= loc < PLAYED + 4) == 0
    if config.lineup == ("random",) and players == 4:
        assert longest > kernel.FIRST_TRACE_ROWS  # a trace outgrew the first buffer


def test_describe_trace_reads_every_event(results):
    config, _, prepared, ids, params, _, _ = results
    trace = kernel.trace_game(prepared, config.players, ids, params, SEED, 1, config.rotate)
    lines = kernel.describe_trace(trace, [f"s{k}" for k in range(config.players)])
    assert lines[-1].startswith("== after") and len(lines) > 10


def test_powerlab_replay_says_when_a_surrender_was_forced():
    """``powerlab replay`` prints "(cannot take the lead)" on the surrenders the rules forced (a
    player whose Political Influence cards cannot make it winning) and on no other."""
    lineup = ["baron", "flusher", "random", "baron"]
    prepared, ids, params = encoded(4, lineup)
    for game_index in range(50):
        trace = kernel.trace_game(prepared, 4, ids, params, 0, game_index, True)
        surrenders = trace[trace[:, 0] == EV_SURRENDER]
        forced = int(surrenders[:, 5].sum())
        if 0 < forced < len(surrenders):
            break
    else:
        raise AssertionError("no game of 50 with both a forced and a free surrender")
    strategies = [arg for name in lineup for arg in ("-s", name)]
    result = subprocess.run(
        [sys.executable, "-m", "cli", "replay", "power-barons", "--game-index", str(game_index),
         "--players", "4", *strategies],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[3],
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if " surrenders " in line]
    assert len(lines) == len(surrenders)
    marked = [line.endswith(" (cannot take the lead)") for line in lines]
    assert marked == [bool(flag) for flag in surrenders[:, 5]]


# --- the traced game ------------------------------------------------------------------------


def encoded(players: int, lineup: list[str]):
    prepared = kernel.prepare(GAME.rules_with_defaults({}), players)
    return prepared, *GAME.encode_strategies([registry.parse_strategy(GAME, t) for t in lineup])


def test_the_traced_game_is_the_chunk_game():
    prepared, ids, params = encoded(3, ["flusher:flush_below=1.0", "baron", "random"])
    game_out, seat_out = kernel.run_chunk(prepared, 3, ids, params, 5, 40, 20, True)
    for g in range(20):
        trace = kernel.trace_game(prepared, 3, ids, params, 5, 40 + g, True)
        end = trace[-1]
        assert end[0] == EV_END and list(end[1:4]) == list(game_out[g, :3])
        flags = [int(x) for x in trace[trace[:, 0] == EV_CHALLENGE][:, 5]]
        assert sum(flags) == seat_out[g, :, seat_col(actions.FLUSH_ATTEMPTS)].sum()
