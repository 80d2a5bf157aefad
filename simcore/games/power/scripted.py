"""POWER's scripted games: each turn asks the seats' strategies straight from its code, calling
the same rule helpers as the decision-point protocol (rules.py) in the order the protocol's steps
take them; a protocol decision costs about 2.7x a scripted one (docs/performance.md).
tests/contract/test_protocol.py plays every reference configuration both ways and finds identical
games. ``play_out`` finishes a game begun through the protocol this way, for the search.
"""

import numpy as np

from simcore.games.power.allowed import (
    anyone_may_block,
    blockable,
    check_action,
    check_block,
    may_block,
)
from simcore.games.power.rules import (
    apply,
    blocked,
    challenged,
    claim_stands,
    close_game,
    count_bluff,
    deal,
    draw_for_exchange,
    finish_exchange,
    first_asked,
    gain,
    game_ends,
    is_over,
    kept_mask,
    next_asked,
    pay,
    refund,
    reveal,
    to_move,
    turn_begins,
    turn_ends,
)
from simcore.games.power.state import (
    ACTION_CLAIM,
    CLAIM_FAILED,
    CLAIM_PROVEN,
    CLAIM_UNCHALLENGED,
    D_ACTION,
    EXCHANGE,
    FIRE,
    OVERTHROW,
    P_ACTOR,
    P_DECISION,
    P_N_KEEP,
    P_N_OPTIONS,
    P_PLAYERS,
    P_TURN,
    R_BLOCKS_CHALLENGEABLE,
    R_CAUGHT_BLUFFER_LOSES,
    R_FAILED_CHALLENGER_LOSES,
    R_MAX_TURNS,
    influence,
    is_down,
    next_alive,
    seat_after,
    two_alive,
)
from simcore.kernel.intrinsics import ix, plain_njit
from strategies import power as strategy


@plain_njit(forceinline=True)
def lose_influence(seat, turn, st, rules, sids, rng, trace):
    """``seat`` turns one face-down card face up (its choice); with none left it is out."""
    left = influence(st, seat)
    if left == 0:
        return
    if left == 2:
        slot = strategy.choose_card_to_lose(sids[ix(seat)], seat, st, rng)
    else:
        slot = 0 if is_down(st, seat, 0) else 1
    reveal(seat, slot, turn, st, rules, trace)


@plain_njit(forceinline=True)
def lose_influences(seat, losses, turn, st, rules, sids, rng, trace):
    """``seat`` lost a challenge and loses ``losses`` influences (caught_bluffer_loses,
    failed_challenger_loses; the rulebook's one: ``lose_influence``). Losing as many as it has,
    or more, reveals them all: nothing is left to choose."""
    if losses == 1:
        lose_influence(seat, turn, st, rules, sids, rng, trace)
    elif losses >= influence(st, seat):
        for slot in range(2):
            if is_down(st, seat, slot):
                reveal(seat, slot, turn, st, rules, trace)


@plain_njit(forceinline=True)
def challenge_round(claimant, character, players, turn, st, rules, sids, prm, rng, trace):
    """Offer every other player the chance to challenge a claim; resolve the first challenge:
    CLAIM_UNCHALLENGED, CLAIM_PROVEN (the challenger lost an influence) or CLAIM_FAILED."""
    other = first_asked(claimant, character, players, st, rules, rng)
    odds = strategy.round_odds(claimant, character, st, rules)
    for _ in range(players - 1):
        asked, other = next_asked(other, claimant, players)
        if influence(st, asked) == 0:
            continue
        if strategy.wants_to_challenge(sids[ix(asked)], prm, asked, character, odds, st, rng):
            if challenged(asked, claimant, character, st, rules, rng, trace):
                losses = np.int64(rules[R_FAILED_CHALLENGER_LOSES])
                lose_influences(asked, losses, turn, st, rules, sids, rng, trace)
                return CLAIM_PROVEN
            losses = np.int64(rules[R_CAUGHT_BLUFFER_LOSES])
            lose_influences(claimant, losses, turn, st, rules, sids, rng, trace)
            return CLAIM_FAILED
    claim_stands(claimant, character, st)
    return CLAIM_UNCHALLENGED


@plain_njit(forceinline=True)
def offer_block(actor, action, target, players, st, rules, sids, prm, rng):
    """(blocker, character) for the first player who blocks, or (-1, -1)."""
    if not anyone_may_block(action):  # the target alone
        character = strategy.choose_block(
            sids[ix(target)], prm, target, action, players, st, rules, rng
        )
        return (target, character) if character >= 0 else (-1, -1)
    other = actor
    for _ in range(players - 1):
        other = seat_after(other, players)
        if not may_block(other, action, target, st):
            continue
        character = strategy.choose_block(
            sids[ix(other)], prm, other, action, players, st, rules, rng
        )
        if character >= 0:
            return other, character
    return -1, -1


@plain_njit()
def exchange(seat, st, rules, sids, rng, trace):
    """Journalist: draw ``exchange_draws`` (2), keep as many cards as the seat has face down,
    return the rest."""
    draw_for_exchange(seat, st, rules, rng)
    strategy.choose_exchange(sids[ix(seat)], seat, st, st[P_N_OPTIONS], st[P_N_KEEP], rng)
    finish_exchange(seat, kept_mask(st), st, trace)


@plain_njit(forceinline=True)
def take_turn(seat, players, turn, st, rules, sids, prm, rng, trace):
    forced = turn_begins(seat, st, rules, trace)
    action, target = strategy.choose_action(
        sids[ix(seat)], prm, seat, players, st, rules, forced, rng
    )
    check_action(seat, action, target, forced, players, st, rules)
    paid = pay(seat, action, target, st, rules, trace)
    if action == OVERTHROW:
        lose_influence(target, turn, st, rules, sids, rng, trace)
        return
    claim = ACTION_CLAIM[action]
    if claim >= 0:
        count_bluff(seat, claim, st)
        outcome = challenge_round(seat, claim, players, turn, st, rules, sids, prm, rng, trace)
        if outcome == CLAIM_FAILED:
            refund(seat, paid, st, rules, trace)
            return
    if blockable(action, target, st, rules):
        blocker, character = offer_block(seat, action, target, players, st, rules, sids, prm, rng)
        if blocker >= 0:
            check_block(character, action, rules)
            blocked(blocker, character, seat, st, trace)
            if rules[R_BLOCKS_CHALLENGEABLE] == 0:
                claim_stands(blocker, character, st)
                return
            outcome = challenge_round(
                blocker, character, players, turn, st, rules, sids, prm, rng, trace
            )
            if outcome != CLAIM_FAILED:
                return
    if action == FIRE:
        lose_influence(target, turn, st, rules, sids, rng, trace)
    elif action == EXCHANGE:
        exchange(seat, st, rules, sids, rng, trace)
    else:
        gain(seat, action, target, st, rules, trace)


@plain_njit(forceinline=True)
def play_game(players, st, rules, sids, prm, rng, trace):
    """Deal and play one game to the end or the turn cap: (winner or -1, turns, truncated)."""
    deal(players, st, rules, rng, trace)
    # Seat and turn as int64, not literal zeros, which numba would compile play_turns for apart
    # from the search's calls (play_out): one compile of the game serves both.
    first = np.int64(0)
    return play_turns(first, first, players, st, rules, sids, prm, rng, trace)


@plain_njit()
def play_turns(seat, turns, players, st, rules, sids, prm, rng, trace):
    """The game from ``seat``'s turn, its ``turns``-th, to the end or the turn cap: (winner or
    -1, turns, truncated). A function, not inlined: the game's code is compiled once per trace
    type, for the chunk kernel and for the search's rollouts (``play_out``) alike."""
    running = True
    max_turns = np.int64(rules[R_MAX_TURNS])
    while running and turns < max_turns:
        take_turn(seat, players, turns, st, rules, sids, prm, rng, trace)
        turns += 1
        turn_ends(players, turns, st, trace)
        running = two_alive(st)
        seat = next_alive(st, seat)
    return game_ends(players, turns, running, st, trace), turns, running


@plain_njit()
def play_out(st, rules, sids, prm, rng, no_trace):
    """The game from its pending decision to the end, each seat's strategy (``sids``, ``prm``)
    deciding: through the protocol up to the next action choice, then the turns as scripted games
    play them, the same game in fewer steps (ismcts's rollouts;
    tests/games/power/test_power_protocol.py).
    Not traced: ``no_trace`` is the protocol's empty trace."""
    while not is_over(st) and st[P_DECISION] != D_ACTION:
        seat = to_move(st)
        move = strategy.decide(sids[ix(seat)], prm, seat, st, rules, rng)
        apply(st, rules, move, rng, no_trace)
    if is_over(st):
        return
    # The protocol has begun this turn (``start_turn``); ``take_turn`` begins it again, which
    # only reads the state when the game is not traced.
    winner, turns, running = play_turns(
        st[P_ACTOR], st[P_TURN], st[P_PLAYERS], st, rules, sids, prm, rng, None
    )
    close_game(winner, turns, running, st)
