"""Time Barons' scripted games: the straight-line turn and game, asking the seats' strategies
(strategies/time_barons/) straight from the code, over the same rule helpers
(simcore/games/time_barons/effects.py, turns.py) as the decision-point protocol
(simcore/games/time_barons/rules.py), whose steps pose the same questions as decisions;
tests/contract/test_protocol.py proves that the two flows play the same games. Every function
takes the game as (st, cards, rules, sids, prm, rng, trace) or a part of it: the state, the card
table, the encoded rules, each seat's strategy id and parameter row, the game's random stream, the
trace buffer.
"""

import numpy as np
from numba import njit

from simcore.games.time_barons.effects import (
    CHOOSE_NOW,
    arrange,
    attachment_lands,
    check_site,
    check_unit_choice,
    discard_played,
    draw_card,
    effect_now,
    effect_of,
    effects_at,
    has_candidate,
    hit_site,
    name_site,
    named_site,
    open_attack,
    open_window,
    place_from_supply,
    site_add,
    site_purpose,
    start_response,
    takes_units,
    to_name,
    unit_apply,
    unit_possible,
    window_closed,
)
from simcore.games.time_barons.rules import MOVE_CAP
from simcore.games.time_barons.state import (
    ABILITY,
    ACTIONS,
    ACTIVE,
    ARRANGE,
    ATTACHMENT,
    ATTACK,
    C_EFFECTS,
    C_HARMFUL,
    C_N_EFFECTS,
    C_TYPE,
    CANCELLED,
    DRAW,
    DRAW_ACTION,
    E_DAMAGE,
    E_DESTROY,
    E_DRAW,
    E_RECOVER,
    E_RELOCATE,
    E_STEAL,
    END,
    END_TURN_CAP,
    EV_EFFECT,
    EV_END_TURN,
    FIRST,
    GAIN,
    LEVEL,
    NO_ATTACK,
    ON_ATTACK,
    ON_RELOCATE,
    ON_SITE,
    ON_UPGRADE,
    OVER,
    OWNER,
    PASS,
    PICK_PLACE,
    PLAY,
    R_ATTACK_TARGETS,
    R_MAX_TURNS,
    REACT,
    RELOCATE,
    SITE,
    TARGETS,
    TARGETS_DECLARED,
    TRACE_LEN,
    UPGRADE,
    followers,
    may_answer,
    move_is_legal,
    response_is_legal,
    sites_n,
)
from simcore.games.time_barons.turns import (
    after_turn,
    begin_turn,
    game_over,
    pay_move,
    play_from_hand,
    setup,
    use_ability,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit, ix
from strategies import time_barons as strategy


@njit(cache=True, _nrt=False, forceinline=False)
def pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng):
    """The site ``seat`` chooses for ``purpose``, checked (there is always a candidate)."""
    site = strategy.choose_site(sids[seat], prm, seat, purpose, n, st, cards, rules, rng)
    check_site(st, seat, purpose, site)
    return site


@njit(cache=True, _nrt=False, forceinline=False)
def relocate(seat, st, cards, rules, sids, prm, rng, trace):
    """``seat`` rearranges all its followers over its sites, as its strategy chooses."""
    n = sites_n(st, seat)
    strategy.choose_arrangement(sids[seat], prm, seat, st, cards, rules, rng)
    total = 0
    for i in range(n):
        if st[ix(ARRANGE + i)] < 0:
            raise ValueError("strategy arranged a negative number of followers")
        total += st[ix(ARRANGE + i)]
    if total != followers(st, seat):
        raise ValueError("strategy's arrangement does not hold all its followers")
    arrange(seat, ARRANGE, st, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def apply_effect(seat, op, n, target, st, cards, rules, sids, prm, rng, trace):
    """One effect of a card or ability owned by ``seat``; the owner makes every choice. A damage
    or destroy effect hits ``target``, the site its attack named (NO_TARGET: none), or with
    CHOOSE_NOW the site the owner chooses now."""
    if op == E_DAMAGE or op == E_DESTROY:
        purpose = site_purpose(op)
        if target != CHOOSE_NOW:
            site = named_site(seat, purpose, target, st)
        elif has_candidate(st, seat, purpose):
            site = pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng)
        else:
            site = -1
        if site >= 0:
            hit_site(seat, op, n, site, st, cards, rules, trace)
    elif takes_units(op):
        for _ in range(n):
            if not unit_possible(seat, op, st, rules):
                return
            to_site = -1
            if op == E_DRAW:
                choice = strategy.choose_stack(sids[seat], prm, seat, st, cards, rules, rng)
            elif op == E_RECOVER:
                choice = strategy.choose_recover(sids[seat], prm, seat, st, cards, rng)
            else:
                choice = strategy.choose_site(
                    sids[seat], prm, seat, site_purpose(op), 1, st, cards, rules, rng
                )
            check_unit_choice(seat, op, choice, st, rules)
            if op == E_STEAL:
                to_site = pick_site(seat, PICK_PLACE, 1, st, cards, rules, sids, prm, rng)
            unit_apply(seat, op, choice, to_site, st, cards, trace)
    elif op == E_RELOCATE:
        relocate(seat, st, cards, rules, sids, prm, rng, trace)
    else:
        effect_now(seat, op, n, st, cards, rules, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def resolve(seat, source, base, n_effects, declared, st, cards, rules, sids, prm, rng, trace):
    """The effects at ``cards[source, base:]`` in order, stopping if the game ends; ``declared``:
    the sites of the attack's damage and destroy effects were named (st[TARGETS + k])."""
    for k in range(n_effects):
        if st[OVER] == 1:
            return
        op, n, target = effect_of(st, cards, source, base, k, declared)
        record_event(trace, st, TRACE_LEN, EV_EFFECT, seat, source, op, n)
        apply_effect(seat, op, n, target, st, cards, rules, sids, prm, rng, trace)


# Inlined into its callers: most windows have nothing that answers the trigger, and then the
# call of response_window with all the game's arrays would cost more than the test.
@inline_njit()
def respond(trigger, st, cards, rules, sids, prm, rng, trace):
    """The player not on turn may answer ``trigger`` with reactions from its hand (no action
    cost) and its sites' infinite abilities with that trigger (each once per trigger)."""
    if may_answer(st, 1 - st[ACTIVE], trigger):  # otherwise the strategy could only pass
        # int64: each call site's literal trigger would compile the window once more
        response_window(np.int64(trigger), st, cards, rules, sids, prm, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def response_window(trigger, st, cards, rules, sids, prm, rng, trace):
    """``respond`` when the player not on turn has something that answers ``trigger``."""
    seat = 1 - st[ACTIVE]
    open_window(seat, st)
    for _ in range(MOVE_CAP):
        if st[OVER] == 1:
            return
        kind, a, b = strategy.choose_response(sids[seat], prm, seat, trigger, st, cards, rules, rng)
        if kind == PASS:
            return
        if not response_is_legal(st, cards, rules, seat, trigger, kind, a, b):
            raise ValueError("strategy chose an illegal response")
        base, n_effects = start_response(seat, kind, a, b, trigger, st, cards, trace)
        resolve(seat, a, base, n_effects, False, st, cards, rules, sids, prm, rng, trace)
        if kind == REACT:
            discard_played(a, seat, st, trace)


# Inlined into its callers (like respond, whose test it mostly is): a call passing all the
# game's arrays costs more than the test.
@inline_njit()
def attack_cancelled(st, cards, rules, sids, prm, rng, trace):
    """The attacked player's response window, before an attack resolves (st[ATTACK] says what
    the attack is): cancelled?"""
    st[CANCELLED] = 0
    respond(ON_ATTACK, st, cards, rules, sids, prm, rng, trace)
    return window_closed(st, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def attack(seat, source, ability, st, cards, rules, sids, prm, rng, trace):
    """An event (``ability`` -1) or ability with a harmful op: with attack_targets "declared"
    the attacker names the site of each damage and destroy effect first; then the attacked
    player answers; then, unless cancelled, the effects resolve (on the named sites)."""
    base, n_effects = effects_at(cards, source, ability)
    open_attack(source, ability, st)
    declared = rules[R_ATTACK_TARGETS] == TARGETS_DECLARED
    if declared:
        for k in range(n_effects):
            purpose = to_name(seat, source, base, k, st, cards)
            if purpose >= 0:
                n = cards[ix(source), ix(base + 2 * k + 1)]
                site = pick_site(seat, purpose, n, st, cards, rules, sids, prm, rng)
                name_site(seat, k, site, st, trace)
    if not attack_cancelled(st, cards, rules, sids, prm, rng, trace):
        resolve(seat, source, base, n_effects, declared, st, cards, rules, sids, prm, rng, trace)
    st[ATTACK] = NO_ATTACK


# Inlined into take_turn: a call passing all the game's arrays costs as much as a simple move.
@inline_njit()
def apply_move(seat, kind, a, b, st, cards, rules, sids, prm, rng, trace):
    """Pay for and carry out a legal move of the player on turn."""
    pay_move(seat, kind, a, b, st, cards, rules, trace)
    if kind == DRAW:
        draw_card(seat, a, DRAW_ACTION, st, trace)
    elif kind == GAIN:
        place_from_supply(seat, a, 1, st, trace)
    elif kind == RELOCATE:
        relocate(seat, st, cards, rules, sids, prm, rng, trace)
        respond(ON_RELOCATE, st, cards, rules, sids, prm, rng, trace)
    elif kind == UPGRADE:
        st[ix(LEVEL + seat)] += 1
        respond(ON_UPGRADE, st, cards, rules, sids, prm, rng, trace)
    elif kind == ABILITY:
        if use_ability(a, b, st, cards):
            attack(seat, a, b, st, cards, rules, sids, prm, rng, trace)
            return
        base, n_effects = effects_at(cards, a, b)
        resolve(seat, a, base, n_effects, False, st, cards, rules, sids, prm, rng, trace)
    elif kind == PLAY:
        play_from_hand(seat, a, st)
        kind_of_card = cards[ix(a), C_TYPE]
        if kind_of_card == SITE:
            site_add(st, seat, a)
            respond(ON_SITE, st, cards, rules, sids, prm, rng, trace)
            return
        if kind_of_card == ATTACHMENT:
            cancelled = False
            if st[ix(OWNER + b)] != seat:  # an attack on the site it names
                open_attack(a, -1, st)
                st[TARGETS] = b
                cancelled = attack_cancelled(st, cards, rules, sids, prm, rng, trace)
                st[ATTACK] = NO_ATTACK
            attachment_lands(a, b, seat, cancelled, st, cards, trace)
            return
        if cards[ix(a), C_HARMFUL] == 1:
            attack(seat, a, -1, st, cards, rules, sids, prm, rng, trace)
        else:
            resolve(seat, a, C_EFFECTS, cards[ix(a), C_N_EFFECTS], False, st, cards, rules,
                    sids, prm, rng, trace)  # fmt: skip
        discard_played(a, seat, st, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def take_turn(seat, turn, st, cards, rules, sids, prm, rng, trace):
    begin_turn(seat, turn, st, cards, rules, trace)
    for _ in range(MOVE_CAP):
        if st[OVER] == 1:
            break
        kind, a, b = strategy.choose_move(sids[seat], prm, seat, st, cards, rules, rng)
        if kind == END:
            break
        if not move_is_legal(st, cards, rules, seat, kind, a, b):
            raise ValueError("strategy chose an illegal move")
        apply_move(seat, kind, a, b, st, cards, rules, sids, prm, rng, trace)
    record_event(trace, st, TRACE_LEN, EV_END_TURN, seat, st[ACTIONS])


@njit(cache=True, _nrt=False, forceinline=False)
def play_game(players, st, game, sids, prm, rng, trace):
    """Set up and play one game (``players`` is always 2; ``game``: the prepared rules and card
    table): (winner or -1, turns, truncated, end reason)."""
    rules, cards = game
    setup(st, cards, rules, rng, trace)
    seat = st[FIRST]
    turns = np.int64(0)  # not the literal 0, which would compile take_turn twice
    reason = -1
    max_turns = np.int64(rules[R_MAX_TURNS])
    while reason < 0 and turns < max_turns:
        take_turn(seat, turns, st, cards, rules, sids, prm, rng, trace)
        turns += 1
        reason = after_turn(turns, st, rules, trace)
        seat = 1 - seat
    winner, reason = game_over(turns, reason, st, rules, trace)
    return winner, turns, reason == END_TURN_CAP, reason
