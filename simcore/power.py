"""POWER (../shared/rules/power.md): the rules as a numba kernel over plain state arrays.

Every choice the rulebook leaves open is a rule parameter below or a documented convention in
docs/games/power.md. Decisions come from ``strategies/power.py``; this module only applies rules.
"""

import numpy as np
from numba import njit, prange

from simcore import chunk
from simcore.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    block_bounds,
    record_event,
    seat_lineup,
)
from simcore.intrinsics import ix
from simcore.power_state import (
    ACTION_CLAIM,
    ACTION_TARGETED,
    ACTIONS,
    AID,
    BANK,
    CHALLENGE_ORDER_RANDOM,
    CHARACTERS,
    CLAIMS,
    COINS,
    DECK,
    DOWN,
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
    EVENT_NAMES,
    EXCHANGE,
    FACE_UP,
    FACE_UP_CLAIMED,
    FIRE,
    HAND,
    INCOME,
    KEEP,
    MAX_COPIES,
    MAX_PLAYERS,
    N_CHARACTERS,
    N_SEAT_STATS,
    OPTIONS,
    OVERTHROW,
    R_AID,
    R_BANKER_TAKE,
    R_CEO_COST,
    R_CHALLENGE_ORDER,
    R_COPIES,
    R_ELIMINATED_COINS_TO_SAFE,
    R_FORCED_OVERTHROW_AT,
    R_INCOME,
    R_MAX_TURNS,
    R_OVERTHROW_COST,
    R_REFUND_FAILED_ACTION,
    R_SAFE_SIZE,
    R_STARTING_COINS,
    R_STEAL,
    SAFE,
    STATE_SIZE,
    STATS,
    STEAL,
    TRACE_LEN,
    TRACE_WIDTH,
    card,
    holds,
    influence,
    is_down,
    next_alive,
    seat_after,
    two_alive,
)
from simcore.registry import Arcs, Column, Game, ImpactGroup, Param, SpecError
from simcore.rng import rand_below, seed_game_stream
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
(
    START_CARD0,
    START_CARD1,
    COINS_AT_END,
    INFLUENCE_LOST,
    CHALLENGES_MADE,
    CHALLENGES_WON,
    BLUFFS_MADE,
    BLUFFS_CAUGHT,
    BLOCKS,
    ELIMINATED_TURN,
) = range(len(SEAT_COLUMNS))
assert N_SEAT_STATS == len(SEAT_COLUMNS)

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
    strategy_param_names=strategy.PARAM_NAMES,
    default_strategy="counter",
    game_columns=(),
    seat_columns=SEAT_COLUMNS,
    impact=(ImpactGroup("starting character", ("start_card0", "start_card1")),),
    arcs=ARCS,
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
    check_rules(rules, players)
    return GAME.encode_rules(rules)


# --- cards and coins ------------------------------------------------------------------------
# Every function takes the game as (st, rules, sids, prm, rng, trace): the state, the encoded
# rules, each seat's strategy id and parameter row, the game's random stream, the trace buffer.


@njit(cache=True, _nrt=False, inline="always")
def deck_size(st):
    n = 0
    for character in range(N_CHARACTERS):
        n += st[ix(DECK + character)]
    return n


@njit(cache=True, _nrt=False, inline="always")
def draw_card(st, rng):
    """A uniformly random card from the (always shuffled) deck, removed from it."""
    pick = rand_below(rng, deck_size(st))
    for character in range(N_CHARACTERS):
        if pick < st[ix(DECK + character)]:
            st[ix(DECK + character)] -= 1
            return character
        pick -= st[ix(DECK + character)]
    return -1


@njit(cache=True, _nrt=False)
def determinize(st, seat, rng):
    """Redraw what ``seat`` cannot see: the other seats' face-down cards and the deck form one pool
    of unseen cards, dealt again at random into the same face-down slots, the rest left in the
    deck. Everything else (its own cards, face-up cards, coins, the Safe, the standing claims
    ``CLAIMS``, the exchange scratch area holding its own options) is public or its own.

    This is uniform over the deals that match the cards ``seat`` sees now. It keeps no memory of
    its own: what the seat saw earlier (cards it put back in an exchange) is forgotten, and a
    strategy may not read it from ``st`` either; the standing claims are public history, kept
    as they are, and weigh nothing here (a claim may be a bluff, so every deal stays possible).
    """
    for other in range(MAX_PLAYERS):
        for slot in range(2):
            if other != seat and is_down(st, other, slot):
                st[ix(DECK + card(st, other, slot))] += 1
    for other in range(MAX_PLAYERS):
        for slot in range(2):
            if other != seat and is_down(st, other, slot):
                st[ix(HAND + 2 * other + slot)] = draw_card(st, rng)


@njit(cache=True, _nrt=False, inline="always")
def take_from_safe(seat, amount, st, trace):
    """Take ``amount`` from the Safe, or what is left in it."""
    amount = min(amount, st[SAFE])
    st[SAFE] -= amount
    st[ix(COINS + seat)] += amount
    record_event(trace, st, TRACE_LEN, EV_GAIN, seat, -1, amount)


@njit(cache=True, _nrt=False, inline="always")
def lose_influence(seat, turn, st, rules, sids, rng, trace):
    """``seat`` turns one face-down card face up (its choice); with none left it is out."""
    left = influence(st, seat)
    if left == 0:
        return
    if left == 2:
        slot = strategy.choose_card_to_lose(sids[ix(seat)], seat, st, rng)
    else:
        slot = 0 if is_down(st, seat, 0) else 1
    st[ix(DOWN + 2 * seat + slot)] = 0
    st[ix(CLAIMS + seat)] &= ~(1 << card(st, seat, slot))
    st[ix(STATS + N_SEAT_STATS * seat + INFLUENCE_LOST)] += 1
    record_event(trace, st, TRACE_LEN, EV_LOSE, seat, slot, card(st, seat, slot))
    if left == 1:
        st[ix(STATS + N_SEAT_STATS * seat + ELIMINATED_TURN)] = turn
        returned = 0
        if rules[R_ELIMINATED_COINS_TO_SAFE] != 0:
            returned = st[ix(COINS + seat)]
            st[SAFE] += returned
            st[ix(COINS + seat)] = 0
        record_event(trace, st, TRACE_LEN, EV_ELIMINATED, seat, returned)


@njit(cache=True, _nrt=False, inline="always")
def prove_claim(seat, character, st, rng, trace):
    """A proven claimant shows the card, shuffles it back and draws a replacement."""
    slot = 0 if is_down(st, seat, 0) and card(st, seat, 0) == character else 1
    st[ix(DECK + character)] += 1
    st[ix(CLAIMS + seat)] &= ~(1 << character)
    drawn = draw_card(st, rng)
    st[ix(HAND + 2 * seat + slot)] = drawn
    record_event(trace, st, TRACE_LEN, EV_REPLACE, seat, slot, character, drawn)


CLAIM_UNCHALLENGED = 0
CLAIM_PROVEN = 1
CLAIM_FAILED = 2


@njit(cache=True, _nrt=False, inline="always")
def challenge_round(claimant, character, players, turn, st, rules, sids, prm, rng, trace):
    """Offer every other player the chance to challenge a claim; resolve the first challenge.

    Returns CLAIM_UNCHALLENGED, CLAIM_PROVEN (the challenger lost an influence) or CLAIM_FAILED
    (the claimant lost one). An unchallenged claim stands in the public record ``CLAIMS``.
    """
    face_up = 0
    face_up_claimed = 0
    for seat in range(players):
        for slot in range(2):
            up = 1 - st[ix(DOWN + 2 * seat + slot)]
            face_up += up
            face_up_claimed += up * (card(st, seat, slot) == character)
    st[FACE_UP] = face_up
    st[FACE_UP_CLAIMED] = face_up_claimed
    start = 0
    if rules[R_CHALLENGE_ORDER] == CHALLENGE_ORDER_RANDOM:
        start = rand_below(rng, players - 1)
    challenger = -1
    # The first to ask is ``start`` seats to the claimant's left, then clockwise, skipping it.
    other = claimant + 1 + start
    if other >= players:
        other -= players
    for _ in range(players - 1):
        if other == claimant:
            other = seat_after(other, players)
        asked = other
        other = seat_after(other, players)
        if influence(st, asked) == 0:
            continue
        if strategy.wants_to_challenge(
            sids[ix(asked)], prm, asked, claimant, character, players, st, rules, rng
        ):
            challenger = asked
            break
    if challenger < 0:
        st[ix(CLAIMS + claimant)] |= 1 << character
        return CLAIM_UNCHALLENGED
    st[ix(STATS + N_SEAT_STATS * challenger + CHALLENGES_MADE)] += 1
    proven = holds(st, claimant, character)
    record_event(trace, st, TRACE_LEN, EV_CHALLENGE, challenger, claimant, character, proven)
    if proven:
        prove_claim(claimant, character, st, rng, trace)
        lose_influence(challenger, turn, st, rules, sids, rng, trace)
        return CLAIM_PROVEN
    st[ix(STATS + N_SEAT_STATS * challenger + CHALLENGES_WON)] += 1
    st[ix(STATS + N_SEAT_STATS * claimant + BLUFFS_CAUGHT)] += 1
    st[ix(CLAIMS + claimant)] &= ~(1 << character)
    lose_influence(claimant, turn, st, rules, sids, rng, trace)
    return CLAIM_FAILED


@njit(cache=True, _nrt=False, inline="always")
def offer_block(actor, action, target, players, st, rules, sids, prm, rng):
    """(blocker, character) for the first player who blocks, or (-1, -1).

    Aid may be blocked by anyone (clockwise from the actor's left); firing and stealing only by
    their target.
    """
    other = actor
    for _ in range(players - 1):
        other = seat_after(other, players)
        if influence(st, other) == 0 or (action != AID and other != target):
            continue
        character = strategy.choose_block(
            sids[ix(other)], prm, other, action, players, st, rules, rng
        )
        if character >= 0:
            return other, character
    return -1, -1


@njit(cache=True, _nrt=False)
def exchange(seat, st, sids, rng, trace):
    """Journalist: draw 2, keep as many cards as the seat has face down, return the rest."""
    n_keep = 0
    for slot in range(2):
        if is_down(st, seat, slot):
            st[ix(OPTIONS + n_keep)] = card(st, seat, slot)
            n_keep += 1
    n_drawn = min(2, deck_size(st))
    drawn0 = -1
    drawn1 = -1
    for i in range(n_drawn):
        st[ix(OPTIONS + n_keep + i)] = draw_card(st, rng)
    if n_drawn > 0:
        drawn0 = st[ix(OPTIONS + n_keep)]
    if n_drawn > 1:
        drawn1 = st[ix(OPTIONS + n_keep + 1)]
    strategy.choose_exchange(sids[ix(seat)], seat, st, n_keep + n_drawn, n_keep, rng)
    slot = 0
    for i in range(n_keep + n_drawn):
        if st[ix(KEEP + i)] == 1:
            while not is_down(st, seat, slot):
                slot += 1
            st[ix(HAND + 2 * seat + slot)] = st[ix(OPTIONS + i)]
            slot += 1
        else:
            st[DECK + st[ix(OPTIONS + i)]] += 1
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_EXCHANGE,
        seat,
        n_drawn,
        drawn0,
        drawn1,
        card(st, seat, 0),
        card(st, seat, 1),
    )


# --- a turn and a game ----------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def take_turn(seat, players, turn, st, rules, sids, prm, rng, trace):
    coins = st[ix(COINS + seat)]
    forced = coins >= rules[R_FORCED_OVERTHROW_AT] and coins >= rules[R_OVERTHROW_COST]
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, coins, forced)
    action, target = strategy.choose_action(
        sids[ix(seat)], prm, seat, players, st, rules, forced, rng
    )
    check_action(seat, action, target, forced, players, st, rules)

    paid = 0
    if action == OVERTHROW:
        paid = np.int64(rules[R_OVERTHROW_COST])
    elif action == FIRE:
        paid = np.int64(rules[R_CEO_COST])
    st[ix(COINS + seat)] -= paid
    st[SAFE] += paid
    record_event(trace, st, TRACE_LEN, EV_ACTION, seat, action, target, paid)
    if action == OVERTHROW:
        lose_influence(target, turn, st, rules, sids, rng, trace)
        return

    claim = ACTION_CLAIM[action]
    if claim >= 0:
        if not holds(st, seat, claim):
            st[ix(STATS + N_SEAT_STATS * seat + BLUFFS_MADE)] += 1
        outcome = challenge_round(seat, claim, players, turn, st, rules, sids, prm, rng, trace)
        if outcome == CLAIM_FAILED:
            # A claimant that the challenge eliminated has handed its Dollars to the Safe
            # (eliminated_coins_to_safe): the refund stays there too.
            out_to_safe = influence(st, seat) == 0 and rules[R_ELIMINATED_COINS_TO_SAFE] != 0
            if rules[R_REFUND_FAILED_ACTION] != 0 and paid > 0 and not out_to_safe:
                refund = min(paid, st[SAFE])
                st[SAFE] -= refund
                st[ix(COINS + seat)] += refund
                record_event(trace, st, TRACE_LEN, EV_REFUND, seat, refund)
            return

    if action == AID or ((action == FIRE or action == STEAL) and influence(st, target) > 0):
        blocker, character = offer_block(seat, action, target, players, st, rules, sids, prm, rng)
        if blocker >= 0:
            st[ix(STATS + N_SEAT_STATS * blocker + BLOCKS)] += 1
            if not holds(st, blocker, character):
                st[ix(STATS + N_SEAT_STATS * blocker + BLUFFS_MADE)] += 1
            record_event(trace, st, TRACE_LEN, EV_BLOCK, blocker, character, seat)
            outcome = challenge_round(
                blocker, character, players, turn, st, rules, sids, prm, rng, trace
            )
            if outcome != CLAIM_FAILED:
                return

    if action == INCOME:
        take_from_safe(seat, np.int64(rules[R_INCOME]), st, trace)
    elif action == AID:
        take_from_safe(seat, np.int64(rules[R_AID]), st, trace)
    elif action == BANK:
        take_from_safe(seat, np.int64(rules[R_BANKER_TAKE]), st, trace)
    elif action == STEAL:
        amount = min(np.int64(rules[R_STEAL]), st[ix(COINS + target)])
        st[ix(COINS + target)] -= amount
        st[ix(COINS + seat)] += amount
        record_event(trace, st, TRACE_LEN, EV_GAIN, seat, target, amount)
    elif action == FIRE:
        lose_influence(target, turn, st, rules, sids, rng, trace)
    elif action == EXCHANGE:
        exchange(seat, st, sids, rng, trace)


@njit(cache=True, _nrt=False, inline="always")
def check_action(seat, action, target, forced, players, st, rules):
    """Strategies must only choose legal actions: a violation is a bug, not a move."""
    if forced and action != OVERTHROW:
        raise ValueError("strategy ignored a forced overthrow")
    if action == OVERTHROW and st[ix(COINS + seat)] < rules[R_OVERTHROW_COST]:
        raise ValueError("strategy overthrew without the Dollars")
    if action == FIRE and st[ix(COINS + seat)] < rules[R_CEO_COST]:
        raise ValueError("strategy fired without the Dollars")
    if ACTION_TARGETED[action] and (
        target < 0 or target >= players or target == seat or influence(st, target) == 0
    ):
        raise ValueError("strategy aimed at a player who cannot be targeted")


@njit(cache=True, _nrt=False)
def deal(players, st, rules, rng, trace):
    """Set up: the Safe, the shuffled deck, 2 cards and the starting Dollars for each player."""
    st[:] = 0
    st[SAFE] = np.int64(rules[R_SAFE_SIZE])
    for character in range(N_CHARACTERS):
        st[ix(DECK + character)] = np.int64(rules[R_COPIES])
    for seat in range(players):
        st[ix(COINS + seat)] = np.int64(rules[R_STARTING_COINS])
        st[SAFE] -= st[ix(COINS + seat)]
        for slot in range(2):
            st[ix(HAND + 2 * seat + slot)] = draw_card(st, rng)
            st[ix(DOWN + 2 * seat + slot)] = 1
        st[ix(STATS + N_SEAT_STATS * seat + START_CARD0)] = card(st, seat, 0)
        st[ix(STATS + N_SEAT_STATS * seat + START_CARD1)] = card(st, seat, 1)
        st[ix(STATS + N_SEAT_STATS * seat + ELIMINATED_TURN)] = -1
        record_event(trace, st, TRACE_LEN, EV_DEAL, seat, card(st, seat, 0), card(st, seat, 1))


@njit(cache=True, _nrt=False)
def play_game(players, st, rules, sids, prm, rng, trace):
    """Deal and play one game to the end or the turn cap: (winner or -1, turns, truncated)."""
    deal(players, st, rules, rng, trace)
    running = True
    seat = 0
    turns = 0
    max_turns = np.int64(rules[R_MAX_TURNS])
    while running and turns < max_turns:
        take_turn(seat, players, turns, st, rules, sids, prm, rng, trace)
        turns += 1
        if trace.shape[0] > 0:
            for s in range(players):
                record_event(
                    trace, st, TRACE_LEN, EV_SNAPSHOT, s, st[ix(COINS + s)],
                    card(st, s, 0), card(st, s, 1), st[ix(DOWN + 2 * s)], st[ix(DOWN + 2 * s + 1)],
                    st[SAFE],
                )  # fmt: skip
        running = two_alive(st, players)
        seat = next_alive(st, players, seat)
        record_standing(players, turns, st, trace)
    winner = -1
    if not running:
        for s in range(players):
            if influence(st, s) > 0:
                winner = s
    for s in range(players):
        st[ix(STATS + N_SEAT_STATS * s + COINS_AT_END)] = st[ix(COINS + s)]
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, running)
    return winner, turns, running


# --- the standing per seat (game arcs, docs/arcs.md) -------------------------------------------


@njit(cache=True, _nrt=False)
def record_standing(players, turns, st, trace):
    """After a turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(players):
        record_event(trace, st, TRACE_LEN, EV_STANDING, turns, seat, influence(st, seat),
                     st[ix(COINS + seat)])  # fmt: skip


@njit(cache=True, _nrt=False)
def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, rules, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, turns, truncated = play_game(players, st, rules, sids, prm, rng, trace)
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


@njit(parallel=True, cache=True)
def simulate_chunk(
    rules, players, lineup_ids, lineup_params, seed, first_index, rotate, game_out, seat_out
):
    n_games = game_out.shape[0]
    n_blocks = min(n_games, 64)
    for block in prange(n_blocks):
        # Each block owns its scratch state; games never share anything but read-only inputs.
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        sids = np.zeros(players, dtype=np.int64)
        prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
        rng = np.zeros(4, dtype=np.uint64)
        no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
        lo, hi = block_bounds(n_games, n_blocks, block)
        for g in range(lo, hi):
            play_indexed(
                players, lineup_ids, lineup_params, seed, first_index + g, rotate,
                st, rules, sids, prm, rng, no_trace, g, game_out, seat_out,
            )  # fmt: skip


# --- the interface the runner and the CLI use ---------------------------------------------


def run_chunk(prepared, players, lineup_ids, lineup_params, seed, first_index, n_games, rotate):
    """Play ``n_games`` games from ``first_index`` on: (game_out, seat_out) int64 arrays."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    game_out, seat_out = chunk.new_outputs(
        n_games, players, N_STANDARD_GAME_COLUMNS, N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS
    )
    simulate_chunk(
        prepared, players, lineup_ids, lineup_params, np.uint64(seed), first_index, rotate,
        game_out, seat_out,
    )  # fmt: skip
    return game_out, seat_out


def trace_game(prepared, players, lineup_ids, lineup_params, seed, game_index, rotate):
    """The event trace of one game, exactly as the chunk kernel plays it."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    sids, prm, rng, game_out, seat_out = chunk.one_game_scratch(
        players, lineup_params, N_STANDARD_GAME_COLUMNS, N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS
    )

    def play(st, trace):
        play_indexed(
            players, lineup_ids, lineup_params, np.uint64(seed), game_index, rotate,
            st, prepared, sids, prm, rng, trace, 0, game_out, seat_out,
        )  # fmt: skip

    first_rows = 64 + int(prepared[R_MAX_TURNS]) * (24 + players)
    return chunk.trace_one_game(play, first_rows, STATE_SIZE, TRACE_LEN, TRACE_WIDTH)


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
