"""Power Barons (../shared/rules/power-barons.md): the registry entry (rule parameters, result
columns, arcs), ``prepare``, the chunk glue and ``describe_trace``.

The deck and the board are not in the rulebook: they come from a components file
(simcore/games/power_barons/components.py). Every choice the rulebook leaves open is a rule
parameter below or a documented convention in docs/games/power-barons.md. The rules are
actions.py (one helper per rule) and rules.py (the decision points), the scripted games
scripted.py; decisions come from ``strategies/power_barons/``. This module only applies rules.
"""

import numpy as np

from simcore.games.power_barons.actions import stat
from simcore.games.power_barons.components import load_components

# What the glue calls by name (simcore/kernel/glue.py, NEEDS).
from simcore.games.power_barons.rules import apply, is_over, legal, new_game, to_move  # noqa: F401
from simcore.games.power_barons.scripted import play_game  # noqa: F401
from simcore.games.power_barons.search import MAX_MOVES, choose  # noqa: F401
from simcore.games.power_barons.state import (
    BANK,
    COLOURS,
    DISCARD,
    DRAWPILE,
    EV_STANDING,
    EVENT_NAMES,
    HAND,
    LOSER_REFILLS,
    MAX_BASE_COST,
    MAX_HAND_SIZE,
    MAX_PLAYERS,
    MOVE_REASONS,
    N_GAME_STATS,
    N_RULES,
    N_SEAT_STATS,
    N_TYPES,
    P_DECISIONS,  # noqa: F401  (the glue reads it by name)
    P_TRUNCATED,
    P_TURN,
    P_WINNER,
    PLAYED,
    RESHUFFLES,
    SPACES,
    STATE_SIZE,
    SURRENDERS,
    TERRITORIES,
    TIES_GO_TO,
    TRACE_LEN,
    TRACE_WIDTH,
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
from simcore.kernel.intrinsics import inline_njit
from simcore.registry import (
    SEARCH_PARAM_NAMES,
    Arcs,
    Column,
    Game,
    Param,
    SpecError,
    search_strategy,
)
from strategies import power_barons as strategy

RULES = (
    Param(
        "components",
        "path",
        "",
        "TOML file with the deck and the board (format in docs/games/power-barons.md); "
        '"" = the shipped simcore/data/power_barons_default.toml',
        shipped="power_barons_default.toml",
    ),
    Param("hand_size", "int", 8, "cards in a hand (draw to one more, bank one)", 1, MAX_HAND_SIZE),
    Param("base_cost", "int", 300, "credits a Power Base costs (no change)", 5, MAX_BASE_COST),
    Param(
        "declared_multiplier",
        "int",
        2,
        "what Power Cards of the declared Power Base's colour count for in a challenge (x face)",
        1,
        5,
    ),
    Param(
        "max_turns",
        "int",
        1000,
        "turn cap: a game still running is recorded as truncated",
        1,
        100_000,
    ),
    Param(
        "loser_refill",
        "choice",
        "replace_lost",
        'after a challenge: replace_lost ("the loser takes enough cards from the drawpile to '
        'replace the lost cards": a hand short before stays short) or restore_hands ("both '
        'hands are replenished afterwards": loser and winner draw up to hand_size)',
        choices=LOSER_REFILLS,
    ),
    Param(
        "challenge_rounds",
        "int",
        N_TYPES,
        'Power Card rounds in a challenge, each of a colour not played yet ("four separate '
        'rounds of card play, one round for each Power Card color")',
        1,
        N_TYPES,
    ),
    Param(
        "surrender",
        "choice",
        "lower_then_higher",
        "voluntary surrender: lower_then_higher (after each round the lower total, then the "
        "higher; before playing Political Influence), lower_total_only (the higher total has no "
        "option), or none (only the forced surrender of a player whose PI cannot win)",
        choices=SURRENDERS,
    ),
    Param(
        "surrender_after_both_played",
        "bool",
        True,
        '"neither player can surrender until each player has played at least one card" '
        "(off: the options open after every round)",
    ),
    Param(
        "winner_banks",
        "int",
        MAX_HAND_SIZE,
        "most of the loser's played cards the winner banks, its highest; the rest go to the "
        'discard pile (12: all, "the winner takes the cards played by the loser")',
        0,
        MAX_HAND_SIZE,
    ),
    Param(
        "political_influence",
        "bool",
        True,
        "Political Influence Cards resolve a full challenge after the last round (off: every "
        "challenge ends as a Limited Challenge; PI cards are only credits)",
        component="card type",
    ),
    Param(
        "pi_cards_per_turn",
        "int",
        MAX_HAND_SIZE,
        "most Political Influence Cards a player plays at a time in the PI round; it must be "
        'winning after them, else it must surrender (12: no limit, "one or more")',
        1,
        MAX_HAND_SIZE,
    ),
    Param(
        "bases_bought_per_turn",
        "int",
        1,
        "Power Bases a player must buy in step 4 while it has base_cost banked (0: buying is "
        "banned)",
        0,
        N_TYPES,
    ),
    Param(
        "types_to_win_3p",
        "int",
        4,
        "different Power Bases to build in both opponents' territories to win at 3 players",
        1,
        N_TYPES,
    ),
    Param(
        "types_to_win_4p",
        "int",
        3,
        "different Power Bases to build in every opponent's territory to win at 4 players",
        1,
        N_TYPES,
    ),
    Param("bases_per_type_3p", "int", 2, "Power Bases of each type per player at 3 players", 1, 3),
    Param("bases_per_type_4p", "int", 3, "Power Bases of each type per player at 4 players", 1, 3),
    Param(
        "turn_draws",
        "int",
        1,
        'cards drawn in step 1 ("draw a card, bank a card"; the hand then banks back to hand_size)',
        0,
        N_TYPES,
    ),
    *(
        Param(
            space,
            "bool",
            True,
            f"landing on {space.upper().replace('_', ' ')} follows its directions (off: the "
            "space does nothing"
            + ("; the turn's challenge is full)" if space == "limited_challenge" else ")"),
            component="board space",
        )
        for space in SPACES
    ),
    Param(
        "ties_go_to",
        "choice",
        "defender",
        'who wins a tied challenge ("in case of a tie, the defender wins"), and so is winning '
        "at a tie in the surrender order and the PI round",
        choices=TIES_GO_TO,
    ),
)
assert len(RULES) == N_RULES

SEAT_COLUMNS = (
    Column("bases", "Power Bases of this seat on the board at the end", "int8"),
    Column("bank", "credits in the bank at the end", "int16"),
    Column("challenges_made", "challenges this seat made (one per turn)", "int16"),
    Column("challenges_won", "challenges won, attacking or defending", "int16"),
    Column("challenges_lost", "challenges lost, attacking or defending", "int16"),
    Column("bases_won", "Power Bases placed by winning a challenge", "int16"),
    Column("bases_bought", "Power Bases bought", "int16"),
    Column("bases_removed", "opponents' Power Bases this seat removed", "int16"),
    Column("bases_lost", "Power Bases of this seat that opponents removed", "int16"),
    Column("credits_banked", "credits this seat put into its bank over the game", "int32"),
    Column("flush_attempts", "challenges made to lose on purpose (strategy hint 3)", "int16"),
    Column("flushes", "of those, lost as planned", "int16"),
    Column("flush_credits_given", "credits of the cards lost in flushes (to opponents)", "int32"),
    Column("flush_hand_before", "sum over flushes of the hand's value before them", "int32"),
    Column(
        "flush_hand_after", "sum over flushes of the hand's value after it was refilled", "int32"
    ),
)
assert N_SEAT_STATS == len(SEAT_COLUMNS)  # the statistics that actions.py counts

GAME_COLUMNS = (
    Column("reshuffles", "times the discard pile became the new drawpile", "int16"),
    Column("empty_draws", "draws that found no card in the drawpile nor the discard pile", "int32"),
)
assert N_GAME_STATS == len(GAME_COLUMNS)

# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``.
ARCS = Arcs(
    unit="turn",
    standing=(
        Column("bases", "Power Bases of this seat on the board (in opponents' territories)"),
        Column("credits", "credits in its bank account (banked cards lie face up)"),
    ),
    event=EV_STANDING,
)

GAME = Game(
    id="power-barons",
    title="Power Barons",
    min_players=3,
    max_players=MAX_PLAYERS,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    default_strategy="baron",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    arcs=ARCS,
    search=search_strategy("power-barons", strategy.STRATEGIES, "preset:baron-keep_best"),
    module=__name__,
    doc="card duels for Power Bases in the opponents' territories; bank credits to buy the rest",
    rulebook="power-barons.md",
)


def prepare(rules: dict, players: int) -> np.ndarray:
    """The kernel's read-only input: the numeric rules in RULES order (the components path's slot
    is 0), then n_cards, n_spaces, the deck's mean value per Power Card colour and the components
    tables (layout: P_* of simcore/games/power_barons/state.py)."""
    colours, values, kinds, territories = load_components(rules["components"])
    suffix = "3p" if players == 3 else "4p"
    need, per_type = rules[f"types_to_win_{suffix}"], rules[f"bases_per_type_{suffix}"]
    if need * (players - 1) > N_TYPES * min(per_type, players - 1):
        raise SpecError(
            f"power-barons: types_to_win_{suffix}={need} needs {need * (players - 1)} bases in "
            f"the opponents' territories, but bases_per_type_{suffix}={per_type} places at most "
            f"{N_TYPES * min(per_type, players - 1)} (one of each type per territory): nobody "
            "could win"
        )
    if len(values) <= players * rules["hand_size"]:
        raise SpecError(
            f"power-barons: the deck's {len(values)} cards cannot deal hand_size="
            f"{rules['hand_size']} to {players} players and leave a drawpile"
        )
    numbers = [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES]
    means = []
    for card_colour in range(N_TYPES):
        credits = values[colours == card_colour]
        means.append(int(credits.sum()) / len(credits) if len(credits) else 0.0)
    return np.concatenate(
        [np.array([*numbers, len(values), len(kinds), *means]), colours, values, kinds, territories]
    ).astype(np.float64)


# --- games through the protocol (a searching seat) -----------------------------------------


@inline_njit()
def protocol_result(st):
    """(winner or -1, turns, truncated) of a game the protocol played to its end, as
    ``play_game`` returns them."""
    return st[P_WINNER], st[P_TURN], st[P_TRUNCATED] != 0


@inline_njit()
def write_row(players, result, st, g, game_out, seat_out):
    winner, turns, truncated = result
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else ENDED_RULES
    for k in range(N_GAME_STATS):
        game_out[g, N_STANDARD_GAME_COLUMNS + k] = st[RESHUFFLES + k]
    for seat in range(players):
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[stat(st, seat, k)]


# The glue written once (simcore/kernel/glue.py), compiled here.
GLUE = glue.specialise(globals())
bench_protocol = GLUE.bench_protocol

FIRST_TRACE_ROWS = 2048  # about 45 turns; a longer game is played again with a bigger buffer

CHUNKS = chunk.GameChunks(
    __name__,
    play=GLUE.play_indexed,
    play_searching=GLUE.play_indexed_protocol,
    state_size=STATE_SIZE,
    trace_width=TRACE_WIDTH,
    trace_len_at=TRACE_LEN,
    game_columns=N_STANDARD_GAME_COLUMNS + N_GAME_STATS,
    seat_columns=N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    first_trace_rows=lambda prepared, players: FIRST_TRACE_ROWS,
)
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


def _location(code: int) -> str:
    if code == DRAWPILE:
        return "the drawpile"
    if code == DISCARD:
        return "the discard pile"
    for base, what in ((HAND, "hand"), (BANK, "bank"), (PLAYED, "table")):
        if base <= code < base + MAX_PLAYERS:
            return f"seat {code - base}'s {what}"
    return f"location {code}"


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable turn-by-turn log of a trace."""

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})"

    def card_name(card_colour, credits):
        return f"{COLOURS[card_colour]} {credits}"

    cards = {}  # card id -> (colour, value), learnt from the card rows
    lines = []
    for row in trace:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        name = EVENT_NAMES[event]
        if name == "setup":
            lines.append(f"{who(a)} owns {TERRITORIES[b]}, starts on space {c}, "
                         f"{d} Power Bases of each type")  # fmt: skip
        elif name == "card":
            cards[a] = (b, c)
            reason = MOVE_REASONS[f]
            if reason not in ("deal", "play"):
                lines.append(f"   {card_name(b, c)}: {_location(d)} -> {_location(e)} ({reason})")
        elif name == "reshuffle":
            lines.append(f"   the discard pile ({a} cards) is shuffled into a new drawpile")
        elif name == "turn":
            lines.append(f"-- {who(a)} on space {b}, {c} cards in hand, {d} credits banked")
        elif name == "move":
            where = f" {TERRITORIES[g]}" if g >= 0 else ""
            lines.append(f"   rolls {b}+{c}: space {d} -> {e}, {SPACES[f]}{where}")
        elif name == "invest":
            owner = f"owned by seat {b}" if b >= 0 else "owned by nobody"
            lines.append(f"   investments pay off in {TERRITORIES[a]} ({owner})")
        elif name == "take":
            asked = COLOURS[c] if c >= 0 else "any card"
            got = card_name(*cards[d]) if d >= 0 else "nothing"
            lines.append(f"   seat {a} takes from seat {b} ({asked}): {got}")
        elif name == "remove":
            if b < 0:
                lines.append(f"   seat {a} finds no opponent's Power Base to remove")
            else:
                lines.append(f"   seat {a} removes seat {b}'s {COLOURS[d]} base from "
                             f"{TERRITORIES[c]}")  # fmt: skip
        elif name == "challenge":
            kind = "limited challenge" if d else "challenge"
            flush = " to lose on purpose (flush)" if e else ""
            lines.append(f"   seat {a} makes a {kind} against seat {b} for {COLOURS[c]}{flush}; "
                         f"hand worth {f}")  # fmt: skip
        elif name == "round":
            lead = card_name(*cards[c]) if c >= 0 else "calls it out"
            follow = card_name(*cards[d]) if d >= 0 else "cannot follow"
            lines.append(f"   round {a + 1} ({COLOURS[b]}): attacker {lead}, defender {follow}: "
                         f"{e} to {f}")  # fmt: skip
        elif name == "pi":
            lines.append(f"   seat {a} plays {card_name(*cards[b])}: {c} to {d}")
        elif name == "surrender":
            stage = "in the Political Influence round" if b == N_TYPES else f"after round {b + 1}"
            must = " (cannot take the lead)" if e else ""
            lines.append(f"   seat {a} surrenders {stage} at {c} to {d}{must}")
        elif name == "result":
            base = ", places its base" if e else ""
            lines.append(f"   seat {a} wins the challenge, banks {d} cards worth {c}{base}; "
                         f"seat {b}'s hand is now worth {f}")  # fmt: skip
        elif name == "buy":
            lines.append(f"   seat {a} pays {d} credits ({e} cards) for a {COLOURS[c]} base in "
                         f"{TERRITORIES[b]}; {f} credits left")  # fmt: skip
        elif name == "win":
            lines.append(f"   seat {a} has built every Power Base it needs")
        elif name == "standing":
            lines.append(f"   standing: {who(b)} {c} Power Bases on the board, {d} credits banked")
        elif name == "end":
            result = "truncated by the turn cap" if d else f"{who(a)} wins"
            lines.append(f"== after {b} turns: {result}")
    return lines
