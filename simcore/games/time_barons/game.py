"""Time Barons (../shared/rules/time-barons.md): a data-driven card game over plain state arrays.

This module is the game's registry entry (``GAME``), its rule parameters (every choice the rulebook
leaves open is one of them or a documented convention in docs/games/time-barons.md), ``prepare``,
the chunk glue and ``describe_trace``. The 50 level cards are not in the rulebook: they are data
(simcore/games/time_barons/components.py reads the card file). The rules are
simcore/games/time_barons/rules.py (the decision-point protocol) over the helpers of effects.py
and turns.py; scripted.py plays the scripted games' straight-line turn, search.py compiles the
search. Decisions come from strategies/time_barons/; the kernel only applies rules.
"""

import numpy as np
from numba import njit

from simcore.games.time_barons.components import card_labels, card_names, check_rules, load_cards

# What the glue calls by name (simcore/kernel/glue.py, NEEDS).
from simcore.games.time_barons.rules import apply, is_over, legal, new_game, to_move  # noqa: F401
from simcore.games.time_barons.scripted import play_game  # noqa: F401
from simcore.games.time_barons.search import MAX_MOVES, choose  # noqa: F401
from simcore.games.time_barons.state import (
    END_REASONS,
    END_TURN_CAP,
    EV_STANDING,
    EVENT_NAMES,
    FIRST,
    MOVES,
    N_SEAT_STATS,
    OPS,
    P_DECISIONS,  # noqa: F401  (the glue reads it by name)
    P_REASON,
    P_TURNS,
    P_WINNER,
    REACT,
    STATE_SIZE,
    STATS,
    TRACE_LEN,
    TRACE_WIDTH,
    TRIGGERS,
)
from simcore.kernel import chunk, glue
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_DRAW,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
)
from simcore.registry import (
    SEARCH_PARAM_NAMES,
    Arcs,
    CardImpact,
    Column,
    DataComponents,
    Game,
    Param,
    search_strategy,
)
from strategies import time_barons as strategy

RULES = (
    Param(
        "cards",
        "path",
        "",
        "the card file (TOML, format in docs/games/time-barons.md); empty: the shipped sample set",
        shipped="time_barons_cards.toml",
    ),
    Param(
        "first_turn_actions",
        "int",
        2,
        "actions of the first player's first turn (the rulebook: 2)",
        0,
        20,
    ),
    Param("actions_per_turn", "int", 3, "actions at the start of every other turn", 1, 20),
    Param("starting_followers", "int", 10, "followers on each Homeland at set-up", 1, 100),
    Param(
        "followers",
        "int",
        35,
        "follower tokens in all (the rest of set-up is the limited supply)",
        2,
        1000,
    ),
    Param("hand_size", "int", 5, "Level I cards each player draws at set-up", 0, 30),
    Param("upgrade_cost_2", "int", 2, "actions to upgrade from Level I to Level II", 1, 20),
    Param("upgrade_cost_3", "int", 3, "actions to upgrade from Level II to Level III", 1, 20),
    Param("upgrade_cost_4", "int", 4, "actions to upgrade from Level III to Level IV", 1, 20),
    Param(
        "damage_counters",
        "int",
        20,
        "damage counters in the game: damage beyond what is left places none (kills still happen)",
        0,
        10_000,
    ),
    Param(
        "stacks_to_end",
        "int",
        3,
        "the game ends when this many of the 4 level stacks are empty at the end of a turn",
        1,
        4,
    ),
    Param(
        "first_player",
        "choice",
        "seat0",
        "who moves first: seat 0 (with seat rotation, each lineup entry moves first equally "
        "often) or a random seat per game",
        choices=("seat0", "random"),
    ),
    Param(
        "max_turns",
        "int",
        300,
        "turn cap: a game still running is recorded as truncated",
        1,
        100_000,
    ),
    Param(
        "attack_targets",
        "choice",
        "declared",
        "when an attack's sites (damage, destroy) are chosen: named when it is declared, before "
        "the attacked player's responses, or on resolution, after them",
        choices=("declared", "on_resolution"),
    ),
    # House rules (issue 42): each at its default plays the rulebook; positions R_DRAW_COST
    # onwards in simcore/games/time_barons/state.py.
    Param("draw_cost", "int", 1, "actions to draw a card (the rulebook: 1 action)", 1, 20),
    Param(
        "gain_cost", "int", 1, "actions to gain a follower from the supply (the rulebook: 1)", 1, 20
    ),
    Param(
        "relocate_cost",
        "int",
        1,
        "actions to relocate your followers (the rulebook: 1 action)",
        1,
        20,
    ),
    Param(
        "draws_per_turn",
        "int",
        0,
        "most draw moves a player may make in one turn; 0: no limit (the rulebook's)",
        0,
        60,
    ),
    Param(
        "hand_limit",
        "int",
        0,
        "most cards a hand may hold: draws (moves and effects) and recovers stop there; "
        "0: no limit (the rulebook's)",
        0,
        64,
    ),
    Param(
        "max_level",
        "int",
        4,
        "highest tech level a player may upgrade to (the rulebook: Level IV)",
        1,
        4,
    ),
    Param(
        "site_limit",
        "int",
        0,
        "most sites a player may have in play, its Homeland included; 0: no limit (the rulebook's)",
        0,
        66,
    ),
    Param(
        "sites_allowed",
        "bool",
        True,
        "site cards may be played (off: only the Homelands are sites)",
        component="card type",
    ),
    Param(
        "events_allowed",
        "bool",
        True,
        "event cards may be played",
        component="card type",
    ),
    Param(
        "attachments_allowed",
        "bool",
        True,
        "attachment cards may be played",
        component="card type",
    ),
    Param(
        "reactions_allowed",
        "bool",
        True,
        "reaction cards may be played (on the opponent's turn)",
        component="card type",
    ),
    Param(
        "attachments_per_site",
        "int",
        0,
        "most attachments one site may carry; 0: no limit (the rulebook's)",
        0,
        64,
    ),
    Param(
        "attach_to_opponent",
        "bool",
        True,
        "attachments may be placed on the opponent's sites (the rulebook: \"on site cards "
        'owned by either player"); off: on your own sites only',
    ),
    Param(
        "damage_kills",
        "bool",
        True,
        'damage kills followers on the site (the rulebook: "DO DAMAGE to a site by killing '
        'followers on the site"); off: damage only places counters (every site as if '
        "fortified)",
    ),
    Param(
        "level_tiebreak",
        "bool",
        True,
        'when the stacks run out with equal followers, "victory passes to the player at the '
        'higher tech level"; off: equal followers is a draw',
    ),
    Param(
        "draw_lower_levels",
        "bool",
        True,
        'draw from "a stack of a level equal to or less than your current level"; off: only '
        "from the stack of your own level (draw moves and draw effects)",
    ),
    Param(
        "abilities_on_turn_played",
        "bool",
        True,
        'a site\'s abilities may be used "even on the turn the site was played"; off: from '
        "its owner's next turn",
    ),
)

SEAT_COLUMNS = (
    Column("level", "tech level at the end (1-4)", "int8"),
    Column("followers", "followers on the seat's sites at the end", "int16"),
    Column("sites", "sites in play at the end (the Homeland included)", "int16"),
    Column("cards_drawn", "cards that entered the hand (dealt, drawn, recovered)", "int16"),
    Column("cards_played", "cards played from the hand (reactions included)", "int16"),
    Column("damage_dealt", "damage the seat's cards did to opponent sites", "int16"),
    Column("kills", "opponent followers the seat's cards killed", "int16"),
    Column("sites_destroyed", "opponent sites the seat's cards destroyed", "int16"),
    Column("drawn_mask", "bit k set: level card k entered the seat's hand", "int64"),
    Column("played_mask", "bit k set: the seat played level card k", "int64"),
)
assert len(SEAT_COLUMNS) == N_SEAT_STATS
GAME_COLUMNS = (
    Column("first_player", "seat that took the first turn", "int8"),
    Column("end", "what ended the game", "int8", END_REASONS),
)
FIRST_PLAYER_COLUMN = N_STANDARD_GAME_COLUMNS
END_COLUMN = N_STANDARD_GAME_COLUMNS + 1


# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``.
ARCS = Arcs(
    unit="turn",
    standing=(
        Column(
            "followers", "followers on the seat's sites (the most wins when the stacks run out)"
        ),
        Column("level", "tech level (1-4; the tie-break on followers)"),
    ),
    event=EV_STANDING,
)

GAME = Game(
    id="time-barons",
    title="Time Barons",
    min_players=2,
    max_players=2,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    default_strategy="builder",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    card_impact=(CardImpact("level card", "drawn_mask", "played_mask", card_labels),),
    data_components=(DataComponents("cards", "card", "card", group="level"),),
    arcs=ARCS,
    module=__name__,
    doc="two time-travelling barons build sites, grow followers and tear each other down; "
    "the cards are data",
    rulebook="time-barons.md",
    # Rollouts by the 2-player meta-game's equilibrium (docs/games/time-barons.md).
    search=search_strategy("time-barons", strategy.STRATEGIES, "preset:swarm-vs-builder"),
)


def prepare(rules: dict, players: int) -> tuple[np.ndarray, np.ndarray]:
    """(encoded rules, card table): the card file is read here, never inside the kernel."""
    cards = load_cards(rules["cards"])
    check_rules(rules, players, cards)
    encoded = np.array(
        [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES], dtype=np.float64
    )
    return encoded, cards.table


@njit(cache=True, _nrt=False, forceinline=False)
def protocol_result(st):
    """(winner or -1, turns, truncated, end reason) of a game the protocol played to its end, as
    ``play_game`` returns them."""
    return st[P_WINNER], st[P_TURNS], st[P_REASON] == END_TURN_CAP, st[P_REASON]


@njit(cache=True, _nrt=False, forceinline=False)
def write_row(players, result, st, g, game_out, seat_out):
    winner, turns, truncated, reason = result
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else (ENDED_DRAW if winner < 0 else ENDED_RULES)
    game_out[g, FIRST_PLAYER_COLUMN] = st[FIRST]
    game_out[g, END_COLUMN] = reason
    for seat in range(2):  # ``players`` is always 2
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[STATS + N_SEAT_STATS * seat + k]


# The glue written once (simcore/kernel/glue.py), compiled here.
GLUE = glue.specialise(globals())
bench_protocol = GLUE.bench_protocol

FIRST_TRACE_ROWS = 4096  # a longer game is played again with a bigger buffer

CHUNKS = chunk.GameChunks(
    __name__,
    play=GLUE.play_indexed,
    play_searching=GLUE.play_indexed_protocol,
    state_size=STATE_SIZE,
    trace_width=TRACE_WIDTH,
    trace_len_at=TRACE_LEN,
    game_columns=N_STANDARD_GAME_COLUMNS + len(GAME_COLUMNS),
    seat_columns=N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    first_trace_rows=lambda prepared, players: FIRST_TRACE_ROWS,
)
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable turn-by-turn log of a trace.

    Card names come from the card set whose fingerprint the trace's set-up row carries, as loaded
    by ``prepare`` in this process (the replay command always prepares first); a trace of a set
    not loaded here names cards by id.
    """
    names: tuple[str, ...] = ()

    def card(card_id):
        return names[card_id] if 0 <= card_id < len(names) else f"card #{card_id}"

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})"

    def level_name(level):
        return "I II III IV".split()[level - 1]

    lines = []
    for row in trace:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        name = EVENT_NAMES[event]
        if name == "setup":
            names = card_names(d)
            lines.append(f"{who(a)} moves first; supply {b} followers, {c} damage counters")
        elif name == "draw":
            how = ("is dealt", "draws", "draws (effect)")[d]
            lines.append(f"   seat {a} {how} {card(b)} from stack {level_name(c)}")
        elif name == "turn":
            lines.append(f"-- turn {b}: {who(a)} with {c} actions")
        elif name == "move":
            move = MOVES[b]
            if move == "draw":
                detail = f" from stack {level_name(c)}"
            elif move == "gain":
                detail = f" onto {card(c)}"
            elif move == "play":
                detail = f" {card(c)}" + (
                    f" onto {card(d)}" if d >= 0 and c >= 0 and d != c else ""
                )
            elif move == "ability":
                detail = f" of {card(c)} (#{d + 1})"
            else:
                detail = ""
            lines.append(f"   seat {a}: {move}{detail} [{e} action(s), {f} left]")
        elif name == "response":
            what = card(c) if b == REACT else f"{card(c)} ability #{d + 1}"
            lines.append(f"   seat {a} responds to {TRIGGERS[e]} with {what}")
        elif name == "effect":
            lines.append(f"     {card(b)}: {OPS[c]} {d}")
        elif name == "place":
            source = "the supply" if d < 0 else card(d)
            lines.append(f"     {c} follower(s) from {source} onto {card(b)} (seat {a})")
        elif name == "damage":
            lines.append(f"     {card(a)} takes {c} damage ({d} counters placed, {e} killed)")
        elif name == "kill":
            lines.append(f"     {c} follower(s) killed on {card(a)}")
        elif name == "destroy":
            lines.append(f"     {card(a)} is destroyed ({c} followers killed)")
        elif name == "discard":
            lines.append(f"     {card(a)} goes to the discard pile")
        elif name == "attach":
            lines.append(f"     {card(a)} attached to {card(b)}")
        elif name == "arrange":
            lines.append(f"     {card(b)}: {c} follower(s)")
        elif name == "repair":
            lines.append(f"     {card(a)} repaired by {c}")
        elif name == "recover":
            lines.append(f"     seat {a} takes {card(b)} back from the discard pile")
        elif name == "cancel":
            lines.append(f"     seat {a}'s attack is cancelled")
        elif name == "target":
            lines.append(f"     {card(b)} targets {card(d)} (its effect #{c + 1})")
        elif name == "snapshot":
            lines.append(
                f"   seat {a}: level {level_name(b)}, {c} followers, {d} cards in hand, "
                f"{e} sites, {f} damage"
            )
        elif name == "table":
            lines.append(f"   supply {a}, pool {b}, discard {c}, stacks {d}/{e}/{f}/{g}")
        elif name == "standing":
            lines.append(f"   standing: {who(b)} {c} followers, level {level_name(d)}")
        elif name == "end":
            reason = END_REASONS[d]
            result = "a draw" if a < 0 else f"{who(a)} wins"
            lines.append(f"== after {b} turns ({reason}): {result}")
    return lines
