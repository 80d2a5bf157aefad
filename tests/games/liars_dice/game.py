"""Liar's Dice, the toy game of docs/adding-a-game.md: its registry entry, its rules as the
kernels read them, the chunk glue and the trace's log.

2-4 players each roll ``dice`` dice in secret. In turn they bid "at least Q dice show face F"
among all the dice in play, each bid higher than the last (more dice, or as many of a higher
face), or call the last bid a lie: the dice are shown, the caller loses a die if the bid holds,
else the bidder does, and the loser opens the next round (the next player, if the loser is out).
The last player with dice wins. No wild ones: a plain game to check the machinery with, not a
game to study.

Registered by ``POWERLAB_GAMES=liars-dice=tests.games.liars_dice.game`` alone (tests/
test_toy_game.py), with no line of powerlab changed for it.
"""

import numpy as np

from simcore.kernel import chunk, glue
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
)
from simcore.kernel.intrinsics import plain_njit
from simcore.registry import SEARCH_PARAM_NAMES, Arcs, Column, Game, Param, search_strategy
from tests.games.liars_dice import strategies as strategy
from tests.games.liars_dice.rules import apply, is_over, legal, new_game, to_move
from tests.games.liars_dice.scripted import play_game
from tests.games.liars_dice.scripted import result as protocol_result
from tests.games.liars_dice.search import choose
from tests.games.liars_dice.state import (
    EV_STANDING,
    EVENT_NAMES,
    MAX_DICE,
    MAX_FACES,
    MAX_MOVES,
    MAX_PLAYERS,
    N_SEAT_STATS,
    P_DECISIONS,
    STATE_SIZE,
    STATS,
    TRACE_LEN,
    TRACE_WIDTH,
)

# The glue (simcore/kernel/glue.py) calls these by name in this module.
__all__ = ["apply", "choose", "is_over", "legal", "new_game", "play_game", "protocol_result"]
__all__ += ["to_move", "MAX_MOVES", "P_DECISIONS"]

RULES = (
    Param("dice", "int", 3, "dice each player starts with", 1, MAX_DICE),
    Param("faces", "int", 6, "faces of a die", 2, MAX_FACES),
    Param(
        "max_rounds",
        "int",
        200,
        "round cap: a game still running is cut off (no winner)",
        1,
        10_000,
    ),
)

SEAT_COLUMNS = (
    Column("bids", "bids made", "int16"),
    Column("calls", "bids called a lie", "int16"),
    Column("calls_won", "calls that caught a bid that did not hold", "int16"),
    Column("dice_lost", "dice lost", "int8"),
    Column("dice_left", "dice at the end of the game", "int8"),
    Column("eliminated_round", "round in which the seat lost its last die, -1 if never", "int32"),
)
assert N_SEAT_STATS == len(SEAT_COLUMNS)  # the statistics rules.py counts

GAME = Game(
    id="liars-dice",
    title="Liar's Dice (toy)",
    min_players=2,
    max_players=MAX_PLAYERS,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    default_strategy="cautious",
    game_columns=(),
    seat_columns=SEAT_COLUMNS,
    arcs=Arcs(unit="round", standing=(Column("dice", "dice left (0: out)"),), event=EV_STANDING),
    # A toy has no tuned presets: the search rolls out with a scripted strategy.
    search=search_strategy("liars-dice", strategy.STRATEGIES, "cautious"),
    module=__name__,
    doc="toy bluffing dice game (tests): bid on the dice in play or call the last bid a lie",
)


def prepare(rules: dict, players: int) -> np.ndarray:
    """The rules as the kernels read them: whole numbers, int64."""
    return GAME.encode_rules(rules).astype(np.int64)


@plain_njit()
def write_row(players, result, st, g, game_out, seat_out):
    """Row ``g`` of the chunk's outputs: the standard columns, then the seat statistics."""
    winner, turns, truncated = result
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else ENDED_RULES
    for seat in range(players):
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[STATS + N_SEAT_STATS * seat + k]


GLUE = glue.specialise(globals())
bench_protocol = GLUE.bench_protocol

CHUNKS = chunk.GameChunks(
    __name__, play=GLUE.play_indexed, play_searching=GLUE.play_indexed_protocol,
    state_size=STATE_SIZE, trace_width=TRACE_WIDTH, trace_len_at=TRACE_LEN,
    game_columns=N_STANDARD_GAME_COLUMNS, seat_columns=N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    first_trace_rows=lambda prepared, players: 64 * players,
)  # fmt: skip
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable round-by-round log of a trace."""

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})"

    lines = []
    for row in trace:
        event, a, b, c, d, e, f, _ = (int(x) for x in row)
        name = EVENT_NAMES[event]
        if name == "roll":
            dice = " ".join(str(x) for x in (b, c, d, e, f) if x)
            lines.append(f"{who(a)} rolls {dice}")
        elif name == "bid":
            lines.append(f"   {who(a)} bids {b} x {c}")
        elif name == "call":
            verdict = "holds" if e >= c else "fails"
            lines.append(
                f"   seat {a} calls seat {b}'s {c} x {d}: {e} shown, the bid {verdict}; "
                f"seat {f} loses a die"
            )
        elif name == "out":
            lines.append(f"   seat {a} is out after round {b}")
        elif name == "standing":
            lines.append(f"   standing after round {a}: {who(b)} has {c} dice")
        elif name == "end":
            outcome = "cut off by the round cap" if c else f"{who(a)} wins"
            lines.append(f"== after {b} rounds, {d} turns: {outcome}")
    return lines
