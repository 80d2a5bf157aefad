"""POWER (../shared/rules/power.md): the rules as a numba kernel over plain state arrays.

Every choice the rulebook leaves open is a rule parameter below or a documented convention in
docs/games/power.md. Decisions come from ``strategies/power.py``; this module only applies rules.
"""

import numpy as np
from numba import njit

from simcore.games.power.rules import (  # noqa: F401  (tests and tools reach the rules from here too)
    BLOCKS,
    BLUFFS_CAUGHT,
    BLUFFS_MADE,
    CHALLENGES_MADE,
    CHALLENGES_WON,
    COINS_AT_END,
    ELIMINATED_TURN,
    INFLUENCE_LOST,
    START_CARD0,
    START_CARD1,
    apply,
    challenged,
    check_action,
    deal,
    determinize,
    draw_card,
    gain,
    is_over,
    legal,
    new_game,
    pay,
    refund,
    to_move,
)
from simcore.games.power.scripted import (  # noqa: F401  (the rules tests reach the turn from here)
    challenge_round,
    exchange,
    lose_influence,
    offer_block,
    play_game,
    play_out,
    take_turn,
)
from simcore.games.power.search import choose  # noqa: F401  (the glue calls it by name)
from simcore.games.power.state import (  # noqa: F401
    ACTION_CLAIM,
    ACTIONS,
    BANK,
    CHARACTERS,
    CLAIM_FAILED,
    CLAIM_PROVEN,
    CLAIM_UNCHALLENGED,
    D_NONE,
    EV_ACTION,
    EV_STANDING,
    EVENT_NAMES,
    EXCHANGE,
    FIRE,
    MAX_COPIES,
    MAX_MOVES,
    MAX_PLAYERS,
    N_CHARACTERS,
    N_SEAT_STATS,
    OVERTHROW,
    P_ACTOR,
    P_DECISION,
    P_DECISIONS,
    P_N_KEEP,
    P_N_OPTIONS,
    P_OUTCOME,
    P_PLAYERS,
    P_SEAT,
    P_STEP,
    P_TRUNCATED,
    P_TURN,
    P_WINNER,
    R_MAX_TURNS,
    ROUND_ALONE,
    SAFE,
    STATE_SIZE,
    STATS,
    TRACE_LEN,
    TRACE_WIDTH,
    influence,
    is_down,
    next_alive,
    recount,
    seat_after,
    two_alive,
)
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
from simcore.kernel.intrinsics import ix, plain_njit
from simcore.registry import (
    SEARCH_PARAM_NAMES,
    Arcs,
    Column,
    Game,
    ImpactGroup,
    Param,
    SpecError,
    search_strategy,
)
from strategies import power as strategy

RULES = (
    Param("starting_coins", "int", 2, "Dollars each player takes from the Safe at set-up", 0, 30),
    Param(
        "safe_size",
        "int",
        50,
        "Dollars in the game (the Safe is finite: take what is there)",
        1,
        10_000,
    ),
    Param("overthrow_cost", "int", 7, "Dollars an overthrow costs (it always succeeds)", 0, 50),
    Param(
        "forced_overthrow_at",
        "int",
        10,
        "a turn starting with this many Dollars must overthrow",
        1,
        1000,
    ),
    Param("ceo_cost", "int", 3, "Dollars the CEO pays to fire", 0, 50),
    Param("banker_take", "int", 3, "Dollars the Banker takes from the Safe", 0, 50),
    Param("income", "int", 1, "Dollars Income takes from the Safe", 0, 50),
    Param("aid", "int", 2, "Dollars Aid takes from the Safe (a Banker blocks it)", 0, 50),
    Param("steal", "int", 2, "Dollars the Politician steals (all the victim has, if less)", 0, 50),
    Param(
        "refund_failed_action", "bool", True, "a successfully challenged action returns its cost"
    ),
    Param("copies_per_character", "int", 3, "cards of each of the 5 characters", 1, MAX_COPIES),
    Param(
        "eliminated_coins_to_safe",
        "bool",
        True,
        "an eliminated player's Dollars go back to the Safe (rulebook silent)",
    ),
    Param(
        "challenge_order",
        "choice",
        "clockwise",
        "who challenges first when several would: clockwise from the claimant's left, or "
        "clockwise from a random player (rulebook silent)",
        choices=("clockwise", "random"),
    ),
    Param(
        "max_turns",
        "int",
        500,
        "turn cap: a game still running is cut off (no winner)",
        1,
        100_000,
    ),
    # The house rules of issue 42: each character's ability and block may be switched off (then
    # nobody may claim it), and what a lost challenge costs is a count.
    Param(
        "banker_takes",
        "bool",
        True,
        "the Banker's action: 'Take 3 coins from the Safe' (off: nobody may claim it)",
        component="character",
    ),
    Param(
        "ceo_fires",
        "bool",
        True,
        "the CEO's action: pay to 'Fire' a player, who loses an influence (off: nobody may "
        "claim it)",
        component="character",
    ),
    Param(
        "politician_steals",
        "bool",
        True,
        "the Politician's action: 'Steal 2 Dollars from a player' (off: nobody may claim it)",
        component="character",
    ),
    Param(
        "journalist_exchanges",
        "bool",
        True,
        "the Journalist's action: 'Exchange cards with the left over Influence deck' (off: "
        "nobody may claim it)",
        component="character",
    ),
    Param(
        "banker_blocks_aid",
        "bool",
        True,
        "the Banker 'Blocks players trying to collect Aid' (off: Aid cannot be blocked)",
        component="character",
    ),
    Param(
        "lawyer_blocks_fire",
        "bool",
        True,
        "the Lawyer 'Blocks Firing by the CEO' (off: a firing cannot be blocked)",
        component="character",
    ),
    Param(
        "politician_blocks_steal",
        "bool",
        True,
        "the player stolen from may claim the Politician to block the steal (rulebook)",
        component="character",
    ),
    Param(
        "journalist_blocks_steal",
        "bool",
        True,
        "the player stolen from may claim the Journalist to block the steal (rulebook)",
        component="character",
    ),
    Param(
        "caught_bluffer_loses",
        "int",
        1,
        "influences a claimant caught bluffing loses ('you'll lose one of your influence cards')",
        0,
        2,
    ),
    Param(
        "failed_challenger_loses",
        "int",
        1,
        "influences a challenger loses when the claim is proven ('they lose one instead')",
        0,
        2,
    ),
    Param(
        "proven_card_replaced",
        "bool",
        True,
        "a proven claimant returns the card shown to the deck and draws a replacement (off: it "
        "keeps the card)",
    ),
    Param("aid_allowed", "bool", True, "Aid may be taken (off: nobody may take it)"),
    Param(
        "exchange_draws",
        "int",
        2,
        "cards the Journalist's exchange draws ('First take 2 random cards from the deck')",
        1,
        2,
    ),
    Param(
        "blocks_challengeable",
        "bool",
        True,
        "a block may be challenged ('Any action or counteraction can be challenged'; off: "
        "blocks stand)",
    ),
)

SEAT_COLUMNS = (
    Column("start_card0", "first character dealt", "int8", CHARACTERS),
    Column("start_card1", "second character dealt", "int8", CHARACTERS),
    Column("coins", "Dollars at the end of the game", "int16"),
    Column("influence_lost", "influences lost (0-2)", "int8"),
    Column("challenges_made", "challenges this seat made", "int16"),
    Column("challenges_won", "challenges made that caught a bluff", "int16"),
    Column("bluffs_made", "claims (actions and blocks) made without the card", "int16"),
    Column("bluffs_caught", "of those, challenged and lost", "int16"),
    Column("blocks", "blocks claimed", "int16"),
    Column(
        "eliminated_turn", "turn on which the seat lost its last influence, -1 if never", "int32"
    ),
)
assert N_SEAT_STATS == len(SEAT_COLUMNS)  # the statistics simcore/games/power/rules.py counts

# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``.
ARCS = Arcs(
    unit="turn",
    standing=(
        Column("influence", "influence left: face-down cards (0-2; 0 = out of the game)"),
        Column("dollars", "Dollars in front of the player (public)"),
    ),
    event=EV_STANDING,
)

GAME = Game(
    id="power",
    title="POWER",
    min_players=3,
    max_players=MAX_PLAYERS,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    default_strategy="counter",
    game_columns=(),
    seat_columns=SEAT_COLUMNS,
    impact=(ImpactGroup("starting character", ("start_card0", "start_card1")),),
    arcs=ARCS,
    # Opponents searched on the searcher's deals learn its cards (docs/ismcts.md, "Opponents").
    search=search_strategy(
        "power",
        strategy.STRATEGIES,
        "preset:counter-vs-mixed",
        believes_claims=True,
        opponents="own-view",
    ),
    module=__name__,
    doc="bluffing card game: claim characters, challenge, block; the last one with influence wins",
    rulebook="power.md",
)


def check_rules(rules: dict, players: int) -> None:
    """Rule combinations the kernel cannot play, as one-line errors."""
    if rules["safe_size"] < players * rules["starting_coins"]:
        raise SpecError(
            f"power: safe_size={rules['safe_size']} cannot pay starting_coins="
            f"{rules['starting_coins']} to {players} players"
        )
    if rules["copies_per_character"] * N_CHARACTERS < 2 * players:
        raise SpecError(
            f"power: copies_per_character={rules['copies_per_character']} leaves too few cards "
            f"to deal 2 to {players} players"
        )


def prepare(rules: dict, players: int) -> np.ndarray:
    """The rules as the kernel reads them: every POWER rule is a whole number (counts, flags,
    choices), so int64, which the rules compare with coins and counts without conversions."""
    check_rules(rules, players)
    return GAME.encode_rules(rules).astype(np.int64)


@njit(cache=True, _nrt=False, inline="always")
def protocol_result(st):
    """(winner, turns, truncated) of a game the protocol played to its end, as ``play_game``
    returns them."""
    return st[P_WINNER], st[P_TURN], st[P_TRUNCATED] != 0


@plain_njit(forceinline=True)
def write_row(players, result, st, g, game_out, seat_out):
    winner, turns, truncated = result
    row = ix(g)
    game_out[row, WINNER] = winner
    game_out[row, TURNS] = turns
    game_out[row, ENDED_BY] = ENDED_CAP if truncated else ENDED_RULES
    for seat in range(players):
        seat_out[row, ix(seat), WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[row, ix(seat), ix(N_STANDARD_SEAT_COLUMNS + k)] = st[
                ix(STATS + N_SEAT_STATS * seat + k)
            ]


# The glue written once (simcore/kernel/glue.py), compiled here; the scripted game is inlined into
# the chunk's loop.
GLUE = glue.specialise(globals(), scripted_inline=True)
bench_protocol = GLUE.bench_protocol

CHUNKS = chunk.GameChunks(
    __name__, play=GLUE.play_indexed, play_searching=GLUE.play_indexed_protocol,
    state_size=STATE_SIZE, trace_width=TRACE_WIDTH, trace_len_at=TRACE_LEN,
    game_columns=N_STANDARD_GAME_COLUMNS, seat_columns=N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    untraced_as_none=True,
    # Sized for a typical game (most end within 64 turns), not the turn cap: arcs trace 1% of a
    # run's games, and zeroing a cap-sized buffer (0.9 MB at 500 turns) cost more than playing
    # them. A longer game fills it and is played again with a larger one (trace_one_game).
    first_trace_rows=lambda prepared, players: (
        64 + min(int(prepared[R_MAX_TURNS]), 64) * (24 + players)
    ),
)  # fmt: skip
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable turn-by-turn log of a trace."""

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})"

    lines = []
    for row in trace:
        event, a, b, c, d, e, f, _ = (int(x) for x in row)
        name = EVENT_NAMES[event]
        if name == "deal":
            lines.append(f"{who(a)} is dealt {CHARACTERS[b]} and {CHARACTERS[c]}")
        elif name == "turn":
            forced = " and must overthrow" if c else ""
            lines.append(f"-- {who(a)} starts a turn with ${b}{forced}")
        elif name == "action":
            target = f" at seat {c}" if c >= 0 else ""
            paid = f", paying ${d}" if d else ""
            claim = ACTION_CLAIM[b]
            claims = f" (claims {CHARACTERS[claim]})" if claim >= 0 else ""
            lines.append(f"   {who(a)}: {ACTIONS[b]}{target}{paid}{claims}")
        elif name == "challenge":
            result = "proven" if d else "a bluff"
            lines.append(f"   seat {a} challenges seat {b}'s {CHARACTERS[c]}: {result}")
        elif name == "block":
            lines.append(f"   seat {a} blocks seat {c}, claiming {CHARACTERS[b]}")
        elif name == "replace":
            lines.append(f"   seat {a} shuffles {CHARACTERS[c]} back and draws a replacement")
        elif name == "lose":
            lines.append(f"   seat {a} loses an influence: reveals {CHARACTERS[c]}")
        elif name == "exchange":
            lines.append(f"   seat {a} draws {b} card(s) and exchanges")
        elif name == "gain":
            source = "the Safe" if b < 0 else f"seat {b}"
            lines.append(f"   seat {a} takes ${c} from {source}")
        elif name == "refund":
            lines.append(f"   seat {a} gets its ${b} back")
        elif name == "eliminated":
            back = f"; ${b} return to the Safe" if b else ""
            lines.append(f"   seat {a} is out{back}")
        elif name == "standing":
            lines.append(f"   standing: {who(b)} {c} influence, ${d}")
        elif name == "end":
            result = "truncated by the turn cap" if c else f"{who(a)} wins"
            lines.append(f"== after {b} turns: {result}")
    return lines
