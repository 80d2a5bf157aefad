"""POWER's rules (../shared/rules/power.md) as resumable decision points over one state array.

This is the game's decision-point protocol (docs/protocol.md): ``new_game`` deals and runs the
rules up to the first decision; ``to_move`` and ``st[P_DECISION]`` say who decides what;
``legal`` lists the options; ``apply`` applies one and runs the rules (chance included, from the
game's own stream) up to the next decision or the end; ``returns``, ``determinize`` and
``infoset_key`` serve search. The rules never call a strategy.

Between decisions the rules run as steps (``S_*`` in ``st[P_STEP]``); a step either poses a
decision (``ask``) or names the next step. Every rule is one helper below (``reveal``,
``challenged``, ``pay``, ``gain``, ...), called by these steps and by the scripted games'
straight-line turn in simcore/games/power/scripted.py, which asks the strategies directly (the
state machine
costs 0.73x the games/s there: docs/performance.md); tests/contract/test_protocol.py proves that
the two flows play identical games. Every function takes the game as (st, rules, rng, trace): the
state, the encoded rules, the game's random stream, the trace buffer.
"""

import numpy as np

from simcore.games.power.allowed import (
    action_allowed,
    block_characters,
    blockable,
    check_action,
    check_block,
    may_block,
)
from simcore.games.power.components import cards_in, deck_counts, draw_card, draw_from
from simcore.games.power.state import (
    ACTION_CLAIM,
    AID,
    BANK,
    CHALLENGE_ORDER_RANDOM,
    CLAIM_FAILED,
    CLAIM_PROVEN,
    CLAIM_UNCHALLENGED,
    CLAIMS,
    COINS,
    D_ACTION,
    D_BLOCK,
    D_CHALLENGE,
    D_EXCHANGE,
    D_LOSE,
    D_NONE,
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
    EXCHANGE,
    FACE_UP,
    FACE_UP_CLAIMED,
    FIRE,
    HAND,
    IN_GAME,
    INCOME,
    INFLUENCE,
    KEEP,
    MAX_PLAYERS,
    N_CHARACTERS,
    N_SEAT_STATS,
    OPTIONS,
    OVERTHROW,
    P_ACTION,
    P_ACTOR,
    P_AFTER_LOSE,
    P_ASK,
    P_ASK_LEFT,
    P_CLAIM,
    P_CLAIMANT,
    P_DECISION,
    P_DECISIONS,
    P_FORCED,
    P_LOSER,
    P_N_KEEP,
    P_N_OPTIONS,
    P_OUTCOME,
    P_OVER,
    P_PAID,
    P_PLAYERS,
    P_ROUND,
    P_SEAT,
    P_STEP,
    P_TARGET,
    P_TRUNCATED,
    P_TURN,
    P_WINNER,
    R_AID,
    R_BANKER_TAKE,
    R_BLOCKS_CHALLENGEABLE,
    R_CAUGHT_BLUFFER_LOSES,
    R_CEO_COST,
    R_CHALLENGE_ORDER,
    R_COPIES,
    R_ELIMINATED_COINS_TO_SAFE,
    R_EXCHANGE_DRAWS,
    R_FAILED_CHALLENGER_LOSES,
    R_FORCED_OVERTHROW_AT,
    R_INCOME,
    R_MAX_TURNS,
    R_OVERTHROW_COST,
    R_PROVEN_CARD_REPLACED,
    R_REFUND_FAILED_ACTION,
    R_SAFE_SIZE,
    R_STARTING_COINS,
    R_STEAL,
    ROUND_ACTION,
    ROUND_BLOCK,
    SAFE,
    SHOWN,
    SHOWN_ALL,
    STATS,
    STEAL,
    TRACE_LEN,
    action_move,
    card,
    holds,
    influence,
    is_down,
    move_action,
    move_target,
    next_alive,
    seat_after,
    two_alive,
)
from simcore.kernel.chunk import record_event, tracing
from simcore.kernel.intrinsics import ix, plain_njit
from simcore.kernel.rng import _rotl, _splitmix64_mix, rand_below, rand_bool

# Per-seat statistics (the seat columns after the standard ones, simcore/games/power/game.py).
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
) = range(N_SEAT_STATS)

# The rules' steps between decisions (st[P_STEP]).
S_TURN_START = 0  # a turn begins: the action decision
S_ASK = 1  # a challenge round asks the next player
S_ROUND_DONE = 2  # a challenge round has ended (st[P_OUTCOME])
S_BLOCKS = 3  # the action stands: may it be blocked?
S_OFFER = 4  # offer the block to the next player who may block
S_EFFECT = 5  # the action takes effect
S_END_TURN = 6  # the turn is over: the next one, or the end of the game
S_IDLE = 7  # nothing to run: the game is over, or a rule test's transition is done


# --- cards and coins ------------------------------------------------------------------------


@plain_njit(forceinline=True)
def take_from_safe(seat, amount, st, trace):
    """Take ``amount`` from the Safe, or what is left in it."""
    amount = min(amount, st[SAFE])
    st[SAFE] -= amount
    st[ix(COINS + seat)] += amount
    record_event(trace, st, TRACE_LEN, EV_GAIN, seat, -1, amount)


@plain_njit(forceinline=True)
def ask(kind, seat, st):
    """Pose a decision: the rules stop until ``apply`` answers it."""
    st[P_DECISION] = kind
    st[P_SEAT] = seat


@plain_njit(forceinline=True)
def start_loss(seat, after, st, rules, trace):
    """``seat`` turns one face-down card face up (its choice: a decision when it has two), then
    the rules go on at step ``after``; with none left it is out."""
    st[P_STEP] = after
    left = influence(st, seat)
    if left == 2:
        st[P_LOSER] = seat
        st[P_AFTER_LOSE] = after
        ask(D_LOSE, seat, st)
    elif left == 1:
        reveal(seat, 0 if is_down(st, seat, 0) else 1, st[P_TURN], st, rules, trace)


@plain_njit(forceinline=True)
def start_penalty(seat, losses, after, st, rules, trace):
    """``seat`` lost a challenge and loses ``losses`` influences (caught_bluffer_loses,
    failed_challenger_loses; the rulebook's one: ``start_loss``), then the rules go on at step
    ``after``. Losing as many as it has, or more, reveals them all: nothing is left to choose."""
    if losses == 1 and influence(st, seat) == 2:
        start_loss(seat, after, st, rules, trace)
        return
    st[P_STEP] = after
    if losses >= influence(st, seat):
        for slot in range(2):
            if is_down(st, seat, slot):
                reveal(seat, slot, st[P_TURN], st, rules, trace)


@plain_njit(forceinline=True)
def reveal(seat, slot, turn, st, rules, trace):
    """``seat`` turns the card in ``slot`` face up; it is out if that was its last influence."""
    left = influence(st, seat)
    shown = card(st, seat, slot)
    st[ix(DOWN + 2 * seat + slot)] = 0
    st[ix(INFLUENCE + seat)] = left - 1
    st[ix(SHOWN + shown)] += 1
    st[SHOWN_ALL] += 1
    st[ix(CLAIMS + seat)] &= ~(1 << shown)
    st[ix(STATS + N_SEAT_STATS * seat + INFLUENCE_LOST)] += 1
    record_event(trace, st, TRACE_LEN, EV_LOSE, seat, slot, card(st, seat, slot))
    if left == 1:
        st[IN_GAME] &= ~(1 << seat)
        st[ix(STATS + N_SEAT_STATS * seat + ELIMINATED_TURN)] = turn
        returned = 0
        if rules[R_ELIMINATED_COINS_TO_SAFE] != 0:
            returned = st[ix(COINS + seat)]
            st[SAFE] += returned
            st[ix(COINS + seat)] = 0
        record_event(trace, st, TRACE_LEN, EV_ELIMINATED, seat, returned)


@plain_njit(forceinline=True)
def prove_claim(seat, character, st, rules, rng, trace):
    """A proven claimant shows the card, shuffles it back and draws a replacement; with
    proven_card_replaced off it keeps the card, and its claim stands, proven."""
    if rules[R_PROVEN_CARD_REPLACED] == 0:
        claim_stands(seat, character, st)
        return
    slot = 0 if is_down(st, seat, 0) and card(st, seat, 0) == character else 1
    st[ix(DECK + character)] += 1
    st[ix(CLAIMS + seat)] &= ~(1 << character)
    drawn = draw_card(st, rng)
    st[ix(HAND + 2 * seat + slot)] = drawn
    record_event(trace, st, TRACE_LEN, EV_REPLACE, seat, slot, character, drawn)


# --- challenge rounds and blocks ------------------------------------------------------------


@plain_njit(forceinline=True)
def first_asked(claimant, character, players, st, rules, rng):
    """A challenge round opens: its public face-up counts, and the first seat it asks (skipping
    the claimant, ``next_asked``): the claimant's left or (challenge_order = random) a random
    number of seats further."""
    st[FACE_UP] = st[SHOWN_ALL]
    st[FACE_UP_CLAIMED] = st[ix(SHOWN + character)]
    start = 0
    if rules[R_CHALLENGE_ORDER] == CHALLENGE_ORDER_RANDOM:
        start = rand_below(rng, players - 1)
    other = claimant + 1 + start
    if other >= players:
        other -= players
    return other


@plain_njit(forceinline=True)
def next_asked(other, claimant, players):
    """(the seat asked now, the one after it) from the round's pointer ``other``."""
    if other == claimant:
        other = seat_after(other, players)
    return other, seat_after(other, players)


@plain_njit(forceinline=True)
def claim_stands(claimant, character, st):
    """Nobody challenged: the claim stands in the public record ``CLAIMS``."""
    st[ix(CLAIMS + claimant)] |= 1 << character


@plain_njit(forceinline=True)
def open_round(claimant, character, kind, st, rules, rng):
    """Open the challenge round of ``claimant``'s claim of ``character``: every other player with
    influence is asked in turn (S_ASK) until one challenges."""
    other = first_asked(claimant, character, st[P_PLAYERS], st, rules, rng)
    st[P_CLAIMANT] = claimant
    st[P_CLAIM] = character
    st[P_ROUND] = kind
    st[P_ASK] = other
    st[P_ASK_LEFT] = st[P_PLAYERS] - 1
    st[P_STEP] = S_ASK


@plain_njit(forceinline=True)
def ask_next_challenger(st):
    """S_ASK: ask the next player with influence, skipping the claimant; when nobody is left to
    ask, the claim stands in the public record ``CLAIMS``."""
    players = st[P_PLAYERS]
    claimant = st[P_CLAIMANT]
    while st[P_ASK_LEFT] > 0:
        st[P_ASK_LEFT] -= 1
        asked, st[P_ASK] = next_asked(st[P_ASK], claimant, players)
        if influence(st, asked) > 0:
            ask(D_CHALLENGE, asked, st)
            return
    claim_stands(claimant, st[P_CLAIM], st)
    st[P_OUTCOME] = CLAIM_UNCHALLENGED
    st[P_STEP] = S_ROUND_DONE


@plain_njit(forceinline=True)
def challenged(challenger, claimant, character, st, rules, rng, trace):
    """``challenger`` challenges: a claimant holding the character proves it (and whether it did
    is returned); then the challenger or the claimant loses an influence."""
    st[ix(STATS + N_SEAT_STATS * challenger + CHALLENGES_MADE)] += 1
    proven = holds(st, claimant, character)
    record_event(trace, st, TRACE_LEN, EV_CHALLENGE, challenger, claimant, character, proven)
    if proven:
        prove_claim(claimant, character, st, rules, rng, trace)
    else:
        st[ix(STATS + N_SEAT_STATS * challenger + CHALLENGES_WON)] += 1
        st[ix(STATS + N_SEAT_STATS * claimant + BLUFFS_CAUGHT)] += 1
        st[ix(CLAIMS + claimant)] &= ~(1 << character)
    return proven


@plain_njit(forceinline=True)
def challenge(challenger, st, rules, rng, trace):
    """Resolve ``challenger``'s challenge of the round's claim."""
    claimant = st[P_CLAIMANT]
    if challenged(challenger, claimant, st[P_CLAIM], st, rules, rng, trace):
        st[P_OUTCOME] = CLAIM_PROVEN
        losses = np.int64(rules[R_FAILED_CHALLENGER_LOSES])
        start_penalty(challenger, losses, S_ROUND_DONE, st, rules, trace)
    else:
        st[P_OUTCOME] = CLAIM_FAILED
        losses = np.int64(rules[R_CAUGHT_BLUFFER_LOSES])
        start_penalty(claimant, losses, S_ROUND_DONE, st, rules, trace)


@plain_njit(forceinline=True)
def refund(seat, paid, st, rules, trace):
    """A caught action's cost comes back (refund_failed_action), from what the Safe holds."""
    # A claimant that the challenge eliminated has handed its Dollars to the Safe
    # (eliminated_coins_to_safe): the refund stays there too.
    out_to_safe = influence(st, seat) == 0 and rules[R_ELIMINATED_COINS_TO_SAFE] != 0
    if rules[R_REFUND_FAILED_ACTION] != 0 and paid > 0 and not out_to_safe:
        amount = min(paid, st[SAFE])
        st[SAFE] -= amount
        st[ix(COINS + seat)] += amount
        record_event(trace, st, TRACE_LEN, EV_REFUND, seat, amount)


@plain_njit(forceinline=True)
def round_done(st, rules, trace):
    """S_ROUND_DONE: a caught action is refunded and ends the turn, a standing one may be
    blocked; a caught block lets the action through, a standing one ends the turn."""
    outcome = st[P_OUTCOME]
    if st[P_ROUND] == ROUND_ACTION:
        if outcome != CLAIM_FAILED:
            st[P_STEP] = S_BLOCKS
            return
        refund(st[P_ACTOR], st[P_PAID], st, rules, trace)
        st[P_STEP] = S_END_TURN
    elif st[P_ROUND] == ROUND_BLOCK:
        st[P_STEP] = S_EFFECT if outcome == CLAIM_FAILED else S_END_TURN
    else:
        st[P_STEP] = S_IDLE


@plain_njit(forceinline=True)
def offer_next_block(st):
    """S_OFFER: offer the block to the next player who may block (Aid: anyone, clockwise from the
    actor's left; firing and stealing: only their target); nobody left: the action takes effect."""
    players = st[P_PLAYERS]
    action = st[P_ACTION]
    target = st[P_TARGET]
    while st[P_ASK_LEFT] > 0:
        st[P_ASK_LEFT] -= 1
        other = seat_after(st[P_ASK], players)
        st[P_ASK] = other
        if may_block(other, action, target, st):
            ask(D_BLOCK, other, st)
            return
    st[P_STEP] = S_EFFECT


# --- a turn ---------------------------------------------------------------------------------


@plain_njit(forceinline=True)
def start_turn(st, rules, trace):
    """S_TURN_START: the actor chooses an action; at forced_overthrow_at Dollars (if it can pay)
    it must overthrow."""
    seat = st[P_ACTOR]
    st[P_FORCED] = turn_begins(seat, st, rules, trace)
    ask(D_ACTION, seat, st)


@plain_njit(forceinline=True)
def turn_begins(seat, st, rules, trace):
    """Whether the turn must overthrow: forced_overthrow_at Dollars, if it can pay."""
    coins = st[ix(COINS + seat)]
    forced = coins >= rules[R_FORCED_OVERTHROW_AT] and coins >= rules[R_OVERTHROW_COST]
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, coins, forced)
    return forced


@plain_njit(forceinline=True)
def take_action(move, st, rules, rng, trace):
    """The actor's action: pay, then an overthrow strikes at once, a claim opens its challenge
    round, a general action may be blocked."""
    seat = st[P_ACTOR]
    action = move_action(move)
    target = move_target(move)
    check_action(seat, action, target, st[P_FORCED], st[P_PLAYERS], st, rules)
    st[P_ACTION] = action
    st[P_TARGET] = target
    st[P_PAID] = pay(seat, action, target, st, rules, trace)
    if action == OVERTHROW:
        start_loss(target, S_END_TURN, st, rules, trace)
        return
    claim = ACTION_CLAIM[action]
    if claim >= 0:
        count_bluff(seat, claim, st)
        open_round(seat, claim, ROUND_ACTION, st, rules, rng)
        return
    st[P_STEP] = S_BLOCKS


@plain_njit(forceinline=True)
def pay(seat, action, target, st, rules, trace):
    """An overthrow or a firing is paid into the Safe up front; what was paid."""
    paid = 0
    if action == OVERTHROW:
        paid = np.int64(rules[R_OVERTHROW_COST])
    elif action == FIRE:
        paid = np.int64(rules[R_CEO_COST])
    st[ix(COINS + seat)] -= paid
    st[SAFE] += paid
    record_event(trace, st, TRACE_LEN, EV_ACTION, seat, action, target, paid)
    return paid


@plain_njit(forceinline=True)
def count_bluff(seat, character, st):
    """A claim of a character the seat does not hold is a bluff (a hidden statistic)."""
    st[ix(STATS + N_SEAT_STATS * seat + BLUFFS_MADE)] += not holds(st, seat, character)


@plain_njit(forceinline=True)
def may_be_blocked(st, rules):
    """S_BLOCKS: Aid may be blocked, and firing and stealing while their target is in, when a
    character may block it (``blockable``)."""
    if blockable(st[P_ACTION], st[P_TARGET], st, rules):
        st[P_ASK] = st[P_ACTOR]
        st[P_ASK_LEFT] = st[P_PLAYERS] - 1
        st[P_STEP] = S_OFFER
    else:
        st[P_STEP] = S_EFFECT


@plain_njit(forceinline=True)
def blocked(blocker, character, actor, st, trace):
    st[ix(STATS + N_SEAT_STATS * blocker + BLOCKS)] += 1
    count_bluff(blocker, character, st)
    record_event(trace, st, TRACE_LEN, EV_BLOCK, blocker, character, actor)


@plain_njit(forceinline=True)
def block(blocker, character, st, rules, rng, trace):
    """``blocker`` claims ``character`` to block the action: the claim's challenge round (with
    blocks_challengeable off, no round: the block stands)."""
    check_block(character, st[P_ACTION], rules)
    blocked(blocker, character, st[P_ACTOR], st, trace)
    if rules[R_BLOCKS_CHALLENGEABLE] != 0:
        open_round(blocker, character, ROUND_BLOCK, st, rules, rng)
        return
    claim_stands(blocker, character, st)
    st[P_ROUND] = ROUND_BLOCK
    st[P_OUTCOME] = CLAIM_UNCHALLENGED
    st[P_STEP] = S_ROUND_DONE


@plain_njit(forceinline=True)
def take_effect(st, rules, rng, trace):
    """S_EFFECT: the action does what it does."""
    action = st[P_ACTION]
    st[P_STEP] = S_END_TURN
    if action == FIRE:
        start_loss(st[P_TARGET], S_END_TURN, st, rules, trace)
    elif action == EXCHANGE:
        draw_for_exchange(st[P_ACTOR], st, rules, rng)
        ask(D_EXCHANGE, st[P_ACTOR], st)
    else:
        gain(st[P_ACTOR], action, st[P_TARGET], st, rules, trace)


@plain_njit(forceinline=True)
def gain(seat, action, target, st, rules, trace):
    """Income, Aid, the Banker and the Politician take their Dollars."""
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


@plain_njit(forceinline=True)
def draw_for_exchange(seat, st, rules, rng):
    """Journalist: the seat's face-down cards and ``exchange_draws`` (2) drawn (fewer if the
    deck runs out) become the options st[OPTIONS + i]; it keeps as many as it has face down (a
    decision)."""
    n_keep = 0
    for slot in range(2):
        if is_down(st, seat, slot):
            st[ix(OPTIONS + n_keep)] = card(st, seat, slot)
            n_keep += 1
    n_drawn = min(np.int64(rules[R_EXCHANGE_DRAWS]), cards_in(deck_counts(st)))
    for i in range(n_drawn):
        st[ix(OPTIONS + n_keep + i)] = draw_card(st, rng)
    st[P_N_OPTIONS] = n_keep + n_drawn
    st[P_N_KEEP] = n_keep


@plain_njit(forceinline=True)
def kept_mask(st):
    """The options st[KEEP + i] marks as kept, as a bit mask (the exchange decision's move)."""
    kept = 0
    for i in range(st[P_N_OPTIONS]):
        kept |= st[ix(KEEP + i)] << i
    return kept


@plain_njit(forceinline=True)
def finish_exchange(seat, kept, st, trace):
    """Keep the options in the bit mask ``kept`` in the face-down slots, return the rest."""
    n_options = st[P_N_OPTIONS]
    n_drawn = n_options - st[P_N_KEEP]
    slot = 0
    for i in range(n_options):
        keep = (kept >> i) & 1
        st[ix(KEEP + i)] = keep
        if keep == 1:
            while not is_down(st, seat, slot):
                slot += 1
            st[ix(HAND + 2 * seat + slot)] = st[ix(OPTIONS + i)]
            slot += 1
        else:
            st[DECK + st[ix(OPTIONS + i)]] += 1
    drawn0 = st[ix(OPTIONS + st[P_N_KEEP])] if n_drawn > 0 else -1
    drawn1 = st[ix(OPTIONS + st[P_N_KEEP] + 1)] if n_drawn > 1 else -1
    record_event(
        trace, st, TRACE_LEN, EV_EXCHANGE, seat, n_drawn, drawn0, drawn1,
        card(st, seat, 0), card(st, seat, 1),
    )  # fmt: skip


@plain_njit(forceinline=True)
def turn_ends(players, turns, st, trace):
    """A traced game records every seat's coins and cards after each turn, then its standing
    (game arcs, docs/arcs.md: influence, then Dollars)."""
    if tracing(trace):
        for s in range(players):
            record_event(
                trace, st, TRACE_LEN, EV_SNAPSHOT, s, st[ix(COINS + s)],
                card(st, s, 0), card(st, s, 1), st[ix(DOWN + 2 * s)], st[ix(DOWN + 2 * s + 1)],
                st[SAFE],
            )  # fmt: skip
        for s in range(players):
            record_event(
                trace, st, TRACE_LEN, EV_STANDING, turns, s, influence(st, s), st[ix(COINS + s)]
            )


@plain_njit(forceinline=True)
def game_ends(players, turns, running, st, trace):
    """The winner (-1 when the turn cap cut the game off), with the end-of-game statistics."""
    winner = -1
    if not running:
        for s in range(players):
            if influence(st, s) > 0:
                winner = s
    for s in range(players):
        st[ix(STATS + N_SEAT_STATS * s + COINS_AT_END)] = st[ix(COINS + s)]
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, running)
    return winner


@plain_njit(forceinline=True)
def end_turn(st, rules, trace):
    """S_END_TURN: the game ends when one player is left or at the turn cap; else the next player
    with influence takes a turn."""
    players = st[P_PLAYERS]
    st[P_TURN] += 1
    turn_ends(players, st[P_TURN], st, trace)
    running = two_alive(st)
    if running and st[P_TURN] < np.int64(rules[R_MAX_TURNS]):
        st[P_ACTOR] = next_alive(st, st[P_ACTOR])
        st[P_STEP] = S_TURN_START
        return
    close_game(game_ends(players, st[P_TURN], running, st, trace), st[P_TURN], running, st)


@plain_njit(forceinline=True)
def close_game(winner, turns, running, st):
    """The protocol's record of a finished game: over, its winner (-1 when cut off at the turn
    cap), its turns, nobody to move."""
    st[P_OVER] = 1
    st[P_WINNER] = winner
    st[P_TURN] = turns
    st[P_TRUNCATED] = running
    st[P_DECISION] = D_NONE
    st[P_SEAT] = -1
    st[P_STEP] = S_IDLE


# --- the protocol ---------------------------------------------------------------------------


@plain_njit(forceinline=True)
def advance(st, rules, rng, trace, stop):
    """Run the rules until a decision is pending, the game is over, or step ``stop`` is next."""
    while st[P_DECISION] == D_NONE:
        step = st[P_STEP]
        if step == stop or step == S_IDLE:
            return
        if step == S_ASK:
            ask_next_challenger(st)
        elif step == S_TURN_START:
            start_turn(st, rules, trace)
        elif step == S_ROUND_DONE:
            round_done(st, rules, trace)
        elif step == S_BLOCKS:
            may_be_blocked(st, rules)
        elif step == S_OFFER:
            offer_next_block(st)
        elif step == S_EFFECT:
            take_effect(st, rules, rng, trace)
        else:
            end_turn(st, rules, trace)


@plain_njit(forceinline=True)
def answer(move, st, rules, rng, trace):
    """Apply the pending decision's option ``move``; the rules then go on at ``st[P_STEP]``."""
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    st[P_DECISION] = D_NONE
    st[P_DECISIONS] += 1
    # Most frequent first; a declined challenge or block asks the next player at once.
    if kind == D_CHALLENGE:
        if move == 1:
            challenge(seat, st, rules, rng, trace)
        else:
            ask_next_challenger(st)
    elif kind == D_ACTION:
        take_action(move, st, rules, rng, trace)
    elif kind == D_BLOCK:
        if move > 0:
            block(seat, move - 1, st, rules, rng, trace)
        else:
            offer_next_block(st)
    elif kind == D_LOSE:
        st[P_STEP] = st[P_AFTER_LOSE]
        reveal(seat, move, st[P_TURN], st, rules, trace)
    else:
        finish_exchange(seat, move, st, trace)
        st[P_STEP] = S_END_TURN


@plain_njit()
def deal(players, st, rules, rng, trace):
    """Set up: the Safe, the shuffled deck, 2 cards and the starting Dollars for each player; seat
    0 is to take the first turn."""
    st[:] = 0
    st[SAFE] = np.int64(rules[R_SAFE_SIZE])
    copies = np.int64(rules[R_COPIES])
    deck = (copies, copies, copies, copies, copies)
    for seat in range(players):
        st[ix(COINS + seat)] = np.int64(rules[R_STARTING_COINS])
        st[SAFE] -= st[ix(COINS + seat)]
        for slot in range(2):
            st[ix(HAND + 2 * seat + slot)], deck = draw_from(deck, rng)
            st[ix(DOWN + 2 * seat + slot)] = 1
        st[ix(INFLUENCE + seat)] = 2
        st[IN_GAME] |= 1 << seat
        st[ix(STATS + N_SEAT_STATS * seat + START_CARD0)] = card(st, seat, 0)
        st[ix(STATS + N_SEAT_STATS * seat + START_CARD1)] = card(st, seat, 1)
        st[ix(STATS + N_SEAT_STATS * seat + ELIMINATED_TURN)] = -1
        record_event(trace, st, TRACE_LEN, EV_DEAL, seat, card(st, seat, 0), card(st, seat, 1))
    for character in range(N_CHARACTERS):
        st[ix(DECK + character)] = deck[character]
    st[P_PLAYERS] = players
    st[P_DECISION] = D_NONE
    st[P_STEP] = S_TURN_START


@plain_njit()
def new_game(players, st, rules, rng, trace):
    """Deal, then run the rules to the first decision."""
    deal(players, st, rules, rng, trace)
    advance(st, rules, rng, trace, S_IDLE)


@plain_njit()
def apply(st, rules, move, rng, trace):
    """Apply option ``move`` of the pending decision and run the rules to the next decision or the
    end of the game."""
    answer(move, st, rules, rng, trace)
    advance(st, rules, rng, trace, S_IDLE)


@plain_njit(forceinline=True)
def to_move(st):
    """The seat deciding now, or -1 once the game is over."""
    return st[P_SEAT]


@plain_njit(forceinline=True)
def is_over(st):
    return st[P_OVER] != 0


@plain_njit()
def returns(st, out):
    """Each seat's result: 1 for the winner, 0 for the others (a capped game: 0 for all)."""
    for seat in range(st[P_PLAYERS]):
        out[seat] = 1.0 if seat == st[P_WINNER] else 0.0


@plain_njit()
def legal(st, rules, moves):
    """The options of the pending decision, written to ``moves`` in a fixed order; their count."""
    kind = st[P_DECISION]
    seat = st[P_SEAT]
    n = 0
    if kind == D_ACTION:
        players = st[P_PLAYERS]
        coins = st[ix(COINS + seat)]
        if st[P_FORCED] == 0:
            for action in (INCOME, AID, BANK, EXCHANGE):
                if action_allowed(action, rules):
                    moves[n] = action_move(action, -1)
                    n += 1
        for action in (OVERTHROW, FIRE, STEAL):
            if not action_allowed(action, rules):
                continue
            if action == OVERTHROW and coins < rules[R_OVERTHROW_COST]:
                continue
            if st[P_FORCED] != 0 and action != OVERTHROW:
                continue
            if action == FIRE and coins < rules[R_CEO_COST]:
                continue
            for target in range(players):
                if target != seat and influence(st, target) > 0:
                    moves[n] = action_move(action, target)
                    n += 1
    elif kind == D_CHALLENGE:
        moves[0] = 0
        moves[1] = 1
        n = 2
    elif kind == D_BLOCK:
        first, second = block_characters(st[P_ACTION], rules)
        moves[0] = 0
        moves[1] = first + 1
        n = 2
        if second != first:
            moves[2] = second + 1
            n = 3
    elif kind == D_LOSE:
        moves[0] = 0
        moves[1] = 1
        n = 2
    elif kind == D_EXCHANGE:
        n_keep = st[P_N_KEEP]
        for kept in range(1 << st[P_N_OPTIONS]):
            bits = 0
            for i in range(st[P_N_OPTIONS]):
                bits += (kept >> i) & 1
            if bits == n_keep:
                moves[n] = kept
                n += 1
    return n


@plain_njit()
def determinize(st, seat, rng):
    """Redraw what ``seat`` cannot see: the other seats' face-down cards and the deck form one pool
    of unseen cards, dealt again at random into the same face-down slots, the rest left in the
    deck. Everything else (its own cards, face-up cards, coins, the Safe, the standing claims
    ``CLAIMS``, the protocol fields) is public or its own. During another seat's exchange, the
    cards it drew are unseen too: they go back to the pool and are drawn again.

    This is uniform over the deals that match the cards ``seat`` sees now. It keeps no memory of
    its own: what the seat saw earlier (cards it put back in an exchange) is forgotten, and a
    strategy may not read it from ``st`` either; the standing claims are public history, kept
    as they are, and weigh nothing here (a claim may be a bluff, so every deal stays possible).
    """
    deal_unseen(st, seat, 0.0, rng)


@plain_njit()
def believe(st, seat, trust, rng):
    """``determinize`` for a seat that believes claims: each face-down card of another seat is,
    with probability ``trust``, one of the characters that seat claims and nobody refuted (its
    standing claims ``CLAIMS``, and the claim being challenged now) while the pool has a copy;
    otherwise dealt from the pool as ``determinize`` does. ``trust`` 0 is ``determinize``, draw
    for draw. A search's belief about bluffs (docs/ismcts.md): reads only what is public."""
    deal_unseen(st, seat, trust, rng)


@plain_njit()
def deal_unseen(st, seat, trust, rng):
    """Deal the cards ``seat`` cannot see again (``determinize``, ``believe``)."""
    foreign_exchange = st[P_DECISION] == D_EXCHANGE and st[P_SEAT] != seat
    if foreign_exchange:
        for i in range(st[P_N_KEEP], st[P_N_OPTIONS]):
            st[ix(DECK + st[ix(OPTIONS + i)])] += 1
    for other in range(MAX_PLAYERS):
        for slot in range(2):
            if other != seat and is_down(st, other, slot):
                st[ix(DECK + card(st, other, slot))] += 1
    for other in range(MAX_PLAYERS):
        believed = st[ix(CLAIMS + other)]
        if st[P_DECISION] == D_CHALLENGE and st[P_CLAIMANT] == other:
            believed |= 1 << st[P_CLAIM]
        for slot in range(2):
            if other != seat and is_down(st, other, slot):
                dealt = -1
                if trust > 0.0 and believed != 0 and rand_bool(rng, trust):
                    dealt = take_believed(st, believed)
                    if dealt >= 0:
                        believed &= ~(1 << dealt)
                st[ix(HAND + 2 * other + slot)] = dealt if dealt >= 0 else draw_card(st, rng)
    if foreign_exchange:
        actor = st[P_SEAT]
        kept = 0
        for slot in range(2):
            if is_down(st, actor, slot):
                st[ix(OPTIONS + kept)] = card(st, actor, slot)
                kept += 1
        for i in range(st[P_N_KEEP], st[P_N_OPTIONS]):
            st[ix(OPTIONS + i)] = draw_card(st, rng)


@plain_njit(forceinline=True)
def take_believed(st, believed):
    """The first character in ``believed`` (a bit set) with a copy left in the pool, taken from
    it; -1 if none."""
    for character in range(N_CHARACTERS):
        if (believed >> character) & 1 and st[ix(DECK + character)] > 0:
            st[ix(DECK + character)] -= 1
            return character
    return -1


@plain_njit(forceinline=True)
def _mix(h, value):
    return _splitmix64_mix(h ^ np.uint64(value + 0x100))


@plain_njit(forceinline=True)
def _mix_word(h, word):
    return _splitmix64_mix(h ^ word)


@plain_njit(forceinline=True)
def _field_bytes(st, first, n):
    """Fields ``first`` to ``first + n - 1`` (n at most 8), one byte each: each is a code from
    -1 to 254 (tests/contract/test_protocol.py checks them in every state of random games)."""
    word = np.uint64(0)
    for field in range(first, first + n):
        word = (word << np.uint64(8)) | np.uint64(st[ix(field)] + 1)
    return word


# ``infoset_key`` packs the protocol fields before the turn into half a word, and those after it
# into words of at most eight: a field added to the layout must still fit.
assert P_TURN - P_PLAYERS <= 4 and P_TRUNCATED - P_TURN - 12 <= 8


@plain_njit(forceinline=True)
def _seat_word(st, seat, other):
    """What ``seat`` sees of ``other``: its Dollars (fewer than 2**32), its standing claims (5
    bits) and each card (a byte each): face down or not, and which character if ``seat`` may see
    it (its own, or face up)."""
    word = np.uint64(st[ix(COINS + other)]) | (np.uint64(st[ix(CLAIMS + other)]) << np.uint64(32))
    for slot in range(2):
        down = st[ix(DOWN + 2 * other + slot)]
        seen = other == seat or down == 0
        shown = down + 2 * (card(st, other, slot) + 1) * seen
        word |= np.uint64(shown) << np.uint64(40 + 8 * slot)
    return word


@plain_njit()
def infoset_key(st, seat):
    """A 64-bit hash of exactly what ``seat`` observes now: the Safe, coins, face-down flags, the
    face-up cards and its own, the standing claims, the protocol fields and, while it is
    exchanging, its options. Two states get the same key iff they differ only in what
    ``determinize(st, seat, ...)`` redraws (up to hash collisions): the deck, the other seats'
    face-down cards and the statistics (whose bluff counts are hidden).

    A search computes a key at every decision it walks, so the values are packed into few words
    (each in bits of its own), and the words go into four hashes joined at the end: a mix waits
    for the one before it in its hash, and four hashes run side by side on the processor. They
    are joined rotated, by one last mix, not by a chain of mixes that would wait for each other.
    """
    a = _mix(np.uint64(0x9E3779B97F4A7C15), seat)
    a = _mix_word(a, np.uint64(st[SAFE]) | (np.uint64(st[FACE_UP]) << np.uint64(32)))
    a = _mix(a, st[FACE_UP_CLAIMED])
    b = np.uint64(0xBF58476D1CE4E5B9)
    c = np.uint64(0x94D049BB133111EB)
    players = st[P_PLAYERS]
    for other in range(0, players, 2):
        b = _mix_word(b, _seat_word(st, seat, other))
        if other + 1 < players:
            c = _mix_word(c, _seat_word(st, seat, other + 1))
    # The protocol fields: the turn on its own, the others a byte each.
    d = _mix(np.uint64(0xD1B54A32D192ED03), st[P_TURN])
    d = _mix_word(
        d,
        (_field_bytes(st, P_PLAYERS, P_TURN - P_PLAYERS) << np.uint64(32))
        | (_field_bytes(st, P_TURN + 1, 4)),
    )
    d = _mix_word(d, _field_bytes(st, P_TURN + 5, 8))
    d = _mix_word(d, _field_bytes(st, P_TURN + 13, P_TRUNCATED - P_TURN - 12))
    if st[P_DECISION] == D_EXCHANGE and st[P_SEAT] == seat:
        for i in range(st[P_N_OPTIONS]):
            a = _mix(a, st[ix(OPTIONS + i)])
    return _splitmix64_mix(a ^ _rotl(b, 16) ^ _rotl(c, 32) ^ _rotl(d, 48))
