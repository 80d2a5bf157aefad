"""The decisions of a scripted Time Barons seat: its moves on its turn (``choose_move``), the
choices while effects resolve (``choose_site``, ``choose_stack``, ``choose_recover``), its answers
in a response window (``choose_response``), and ``decide``, the same choices for the
decision-point protocol (docs/protocol.md)."""

import numpy as np
from numba import njit

from simcore.games.time_barons.state import (
    A_COST,
    A_EFFECTS,
    A_N_EFFECTS,
    ABILITY,
    ABILITY_WIDTH,
    ACTIONS,
    ARRANGE,
    ATTACHMENT,
    ATTACK,
    C_ABILITIES,
    C_COST,
    C_EFFECTS,
    C_LEVEL,
    C_N_ABILITIES,
    C_N_EFFECTS,
    C_TYPE,
    D_MOVE,
    D_RECOVER,
    D_RESPONSE,
    D_SITE,
    D_STACK,
    DAMAGE,
    DISCARD,
    DISCARD_N,
    DRAW,
    E_CANCEL,
    E_DAMAGE,
    E_DESTROY,
    E_DISABLE,
    E_DISCARD,
    E_KILL,
    E_RELOCATE,
    E_STEAL,
    END,
    EVENT,
    FOLLOW,
    GAIN,
    LEVEL,
    NO_ATTACK,
    NO_TARGET,
    P_ARR_I,
    P_ARR_LEFT,
    P_ARRANGE,
    P_DECISION,
    P_PICK_N,
    P_PURPOSE,
    P_TRIGGER,
    PASS,
    PICK_DAMAGE,
    PICK_DESTROY,
    PICK_KILL,
    PICK_PLACE,
    PICK_REPAIR,
    PICK_SACRIFICE,
    PICK_STEAL,
    PLAY,
    R_ATTACK_TARGETS,
    REACT,
    REACTION,
    RELOCATE,
    SITE,
    SUPPLY,
    TARGETS,
    TARGETS_DECLARED,
    TRIGGERED,
    UPGRADE,
    ability_ready,
    ability_site_at,
    ability_sites_n,
    can_draw,
    followers,
    hand_card,
    hand_n,
    integrity,
    is_candidate,
    is_disabled,
    is_fortified,
    max_requirement,
    may_attach_to,
    may_draw_from,
    may_draw_more,
    may_play_kind,
    may_upgrade,
    move_code,
    move_cost,
    nth_move,
    response_code,
    response_is_legal,
    site_at,
    site_waits,
    sites_n,
    stack_left,
    upgrade_cost,
)
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below, rand_bool
from strategies.time_barons.catalog import RANDOM, W_FOLLOWER, W_RELOCATE
from strategies.time_barons.followers import (
    attack_effects,
    choose_arrangement,
    pending_loss,
    place_target,
    plan_shelter,
    relocation_target,
    relocation_value,
)
from strategies.time_barons.values import (
    action_value,
    attachment_choice,
    attachment_effect,
    better,
    draw_value,
    effects_value,
    per_action,
    site_card_value,
    sites_value_bound,
    turns_left,
    upgrade_value,
    value_bound,
)

# --- moves on the seat's turn ---------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def highest_stack(st, rules, seat):
    """The highest level stack the seat may draw from that has cards, 0 if none."""
    for level in range(st[ix(LEVEL + seat)], 0, -1):
        if may_draw_from(st, rules, seat, level):
            return level
    return 0


@inline_njit()
def scripted_move(prm, seat, st, cards, rules, rng):
    """The move with the highest value per action, or END when none is worth anything."""
    actions = st[ACTIONS]
    kind = END
    a = -1
    b = -1
    best = 0.0
    turns = turns_left(st, cards, rules, seat)
    action = action_value(prm, seat, st, rules)
    if actions >= 1:  # every move below costs at least 1 action (rules draw_cost, ...)
        cost = move_cost(st, cards, rules, seat, DRAW, -1, -1)
        if can_draw(st, rules, seat) and cost <= actions and may_draw_more(st, rules, seat):
            value = per_action(draw_value(prm, seat, st), cost)
            if value > best:
                best, kind, a, b = value, DRAW, highest_stack(st, rules, seat), -1
        cost = move_cost(st, cards, rules, seat, GAIN, -1, -1)
        if st[SUPPLY] > 0 and sites_n(st, seat) > 0 and cost <= actions:
            value = per_action(prm[seat, W_FOLLOWER], cost)
            if value > best:
                best, kind, a, b = value, GAIN, -1, -1  # where: worked out only if it stays best
        cost = move_cost(st, cards, rules, seat, RELOCATE, -1, -1)
        if (
            sites_n(st, seat) > 1
            and prm[seat, W_RELOCATE] > 0
            and cost <= actions
            and per_action(
                relocation_value(prm, seat, sites_value_bound(prm, seat, st, cards) * turns), cost
            )
            > best
        ):
            target_value, _, _ = relocation_target(
                prm, seat, st, cards, actions - cost, turns, action, best
            )
            value = per_action(relocation_value(prm, seat, target_value), cost)
            if value > best:
                best, kind, a, b = value, RELOCATE, -1, -1
        # An upgrade costs at least 1 action: with none left, its cost is not worth working out.
        if may_upgrade(st, rules, seat) and upgrade_cost(st, cards, rules, seat) <= actions:
            value = upgrade_value(prm, seat, st, cards, rules)
            if not can_draw(st, rules, seat) and stack_left(st, st[ix(LEVEL + seat)] + 1) > 0:
                value = np.inf  # first: the only way to draw again, and the end needs draws
            if value > best:
                best, kind, a, b = value, UPGRADE, -1, -1
    for i in range(ability_sites_n(st, seat)):
        site = ability_site_at(st, seat, i)
        if is_disabled(st, site) or site_waits(st, rules, site):
            continue  # none of its abilities may be used (now)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            base = C_ABILITIES + ABILITY_WIDTH * ability
            cost = cards[ix(site), ix(base + A_COST)]
            if cost > actions or not ability_ready(st, cards, site, ability, False):
                continue
            if per_action(value_bound(prm, seat, st, cards, site), cost) <= best:
                continue  # it cannot win: not worth valuing
            value = per_action(
                effects_value(
                    prm,
                    seat,
                    st,
                    cards,
                    site,
                    base + A_EFFECTS,
                    cards[ix(site), ix(base + A_N_EFFECTS)],
                ),
                cost,
            )
            if value > best:
                best, kind, a, b = value, ABILITY, site, ability
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        cost = cards[ix(card), C_COST]
        kind_of_card = cards[ix(card), C_TYPE]
        if cost > actions or kind_of_card == REACTION:
            continue
        if not may_play_kind(st, cards, rules, seat, card):
            continue  # banned by a house rule, or no room for another site
        target = -1
        if kind_of_card == SITE:
            value = site_card_value(prm, seat, st, cards, card, turns, action)
        elif kind_of_card == EVENT:
            if per_action(value_bound(prm, seat, st, cards, card), cost) <= best:
                continue  # it cannot win: not worth valuing
            value = effects_value(
                prm, seat, st, cards, card, C_EFFECTS, cards[ix(card), C_N_EFFECTS]
            )
        else:
            if per_action(value_bound(prm, seat, st, cards, card), cost) <= best:
                continue  # it cannot win: not worth valuing
            value, target = attachment_choice(prm, seat, st, cards, card)
            if not may_attach_to(st, cards, rules, seat, target):
                continue  # its best site is closed to it (attach_to_opponent, the limit)
        value = per_action(value, cost)
        if value > best:
            best, kind, a, b = value, PLAY, card, target
    if kind == GAIN:
        a = place_target(prm, seat, st, cards, rules, rng)
    return kind, a, b


@inline_njit()
def choose_move(sid, prm, seat, st, cards, rules, rng):
    """(move, a, b) for the seat on turn; see ``move_is_legal`` for the arguments."""
    if sid == RANDOM:
        total, _, _, _ = nth_move(st, cards, rules, seat, -1)
        _, kind, a, b = nth_move(st, cards, rules, seat, rand_below(rng, total))
        return kind, a, b
    return scripted_move(prm, seat, st, cards, rules, rng)


# --- choices while effects resolve ---------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def site_score(st, cards, seat, purpose, n, site):
    """How much ``seat`` wants ``site`` for ``purpose`` (higher is better)."""
    f = st[ix(FOLLOW + site)]
    if purpose == PICK_DAMAGE:
        left = integrity(st, cards, site) - st[ix(DAMAGE + site)]
        if n >= left:
            return 1000 + 10 * f
        if is_fortified(st, cards, site):
            return -left
        return 100 + 10 * min(n, f) - left
    if purpose == PICK_KILL or purpose == PICK_STEAL:
        breaks = f == max_requirement(st, site)  # one less disables its best ability
        return 100 * breaks + f
    if purpose == PICK_DESTROY:
        return 10 * f + cards[ix(site), C_LEVEL]
    if purpose == PICK_SACRIFICE:
        return 100 * (f - max_requirement(st, site)) + f
    if purpose == PICK_REPAIR:
        return st[ix(DAMAGE + site)]
    return 0


@njit(cache=True, _nrt=False, forceinline=False)
def choose_site(sid, prm, seat, purpose, n, st, cards, rules, rng):
    """A site ``is_candidate`` accepts for ``purpose`` (the kernel checks one exists): scripted
    seats place followers with ``place_target`` and take the best ``site_score`` otherwise,
    equal scores at random; random seats any candidate."""
    if purpose == PICK_PLACE and sid != RANDOM:
        return place_target(prm, seat, st, cards, rules, rng)
    owner = 1 - seat if purpose <= PICK_STEAL else seat
    count = 0
    choice = -1
    best = -np.inf
    for i in range(sites_n(st, owner)):
        site = site_at(st, owner, i)
        if not is_candidate(st, seat, purpose, site):
            continue
        if sid == RANDOM:  # uniform: each candidate replaces the choice with chance 1/count
            count += 1
            if rand_below(rng, count) == 0:
                choice = site
            continue
        take, best, count = better(
            float(site_score(st, cards, seat, purpose, n, site)), best, count, rng
        )
        if take:
            choice = site
    return choice


@njit(cache=True, _nrt=False, forceinline=False)
def choose_stack(sid, prm, seat, st, cards, rules, rng):
    """The level to draw from (one the seat may draw from, with cards), 0 if there is none."""
    if sid == RANDOM:
        n = 0
        for level in range(1, st[ix(LEVEL + seat)] + 1):
            n += may_draw_from(st, rules, seat, level)
        if n == 0:
            return 0
        pick = rand_below(rng, n)
        for level in range(1, st[ix(LEVEL + seat)] + 1):
            if may_draw_from(st, rules, seat, level):
                if pick == 0:
                    return level
                pick -= 1
    return highest_stack(st, rules, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_recover(sid, prm, seat, st, cards, rng):
    """Index in the discard pile of the card to take back: the highest level, latest first."""
    n = st[DISCARD_N]
    if sid == RANDOM:
        return rand_below(rng, n)
    best = n - 1
    for i in range(n - 1, -1, -1):
        if cards[st[DISCARD + i], C_LEVEL] > cards[st[DISCARD + best], C_LEVEL]:
            best = i
    return best


@njit(cache=True, _nrt=False, forceinline=False)
def attack_worth(prm, seat, st, cards, rules):
    """What the attack being answered would cost the seat, so what cancelling it is worth:
    w_follower per follower it takes (pending_loss; a kill or steal takes n wherever they are,
    and a stolen follower also goes to the attacker), the worth of each site of the seat it
    names for destruction (site_card_value; an attachment: that it destroys or disables) and
    draw_value per card it discards."""
    n_sites = sites_n(st, seat)
    for i in range(n_sites):
        st[ix(ARRANGE + i)] = st[ix(FOLLOW + site_at(st, seat, i))]
    lost = pending_loss(st, cards, rules, seat)
    source, base, n_effects = attack_effects(st, cards)
    turns = turns_left(st, cards, rules, seat)
    action = action_value(prm, seat, st, rules)
    sites_lost = 0.0
    cards_lost = 0.0
    if cards[ix(source), C_TYPE] == ATTACHMENT:
        site = st[TARGETS]
        _, _, change = attachment_effect(cards, source)
        disables = False
        for k in range(n_effects):
            disables = disables or cards[ix(source), ix(base + 2 * k)] == E_DISABLE
        if disables or st[ix(DAMAGE + site)] >= integrity(st, cards, site) + change:
            sites_lost += site_card_value(prm, seat, st, cards, site, turns, action)
        return prm[seat, W_FOLLOWER] * lost + sites_lost
    declared = rules[R_ATTACK_TARGETS] == TARGETS_DECLARED
    for k in range(n_effects):
        op = cards[ix(source), ix(base + 2 * k)]
        n = cards[ix(source), ix(base + 2 * k + 1)]
        site = st[ix(TARGETS + k)]
        if op == E_KILL:
            lost += min(n, followers(st, seat))
        elif op == E_STEAL:
            lost += 2 * min(n, followers(st, seat))
        elif op == E_DISCARD:
            cards_lost += draw_value(prm, seat, st) * min(n, hand_n(st, seat))
        elif declared and site != NO_TARGET:
            left = integrity(st, cards, site) - st[ix(DAMAGE + site)]
            if op == E_DESTROY or (op == E_DAMAGE and n >= left):
                sites_lost += site_card_value(prm, seat, st, cards, site, turns, action)
    return prm[seat, W_FOLLOWER] * lost + sites_lost + cards_lost


@njit(cache=True, _nrt=False, forceinline=False)
def response_value(prm, seat, st, cards, rules, source, base, n_effects, rng):
    """What a response with the effects at ``cards[source, base:]`` is worth now: its effects
    (effects_value), what a relocation saves (plan_shelter) and what a cancel saves
    (attack_worth)."""
    value = effects_value(prm, seat, st, cards, source, base, n_effects)
    for k in range(n_effects):
        op = cards[ix(source), ix(base + 2 * k)]
        if op == E_RELOCATE:
            value += plan_shelter(prm, seat, st, cards, rules, rng)
        elif op == E_CANCEL and st[ATTACK] != NO_ATTACK:
            value += attack_worth(prm, seat, st, cards, rules)
    return value


@inline_njit()
def choose_response(sid, prm, seat, trigger, st, cards, rules, rng):
    """(PASS, -1, -1), (REACT, card, -1) or (TRIGGERED, site, ability) answering ``trigger``.
    Scripted seats make the response worth the most (response_value; a reaction card less what
    a card in hand is worth, draw_value), none if none is worth anything; random ones answer
    half the time, uniformly."""
    if sid == RANDOM:
        return random_response(seat, trigger, st, cards, rules, rng)
    kind = PASS
    a = -1
    b = -1
    best = 0.0
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        if response_is_legal(st, cards, rules, seat, trigger, REACT, card, -1):
            value = response_value(
                prm, seat, st, cards, rules, card, C_EFFECTS, cards[ix(card), C_N_EFFECTS], rng
            ) - draw_value(prm, seat, st)
            if value > best:
                best, kind, a, b = value, REACT, card, -1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            if response_is_legal(st, cards, rules, seat, trigger, TRIGGERED, site, ability):
                base = C_ABILITIES + ABILITY_WIDTH * ability
                value = response_value(
                    prm,
                    seat,
                    st,
                    cards,
                    rules,
                    site,
                    base + A_EFFECTS,
                    cards[ix(site), ix(base + A_N_EFFECTS)],
                    rng,
                )
                if value > best:
                    best, kind, a, b = value, TRIGGERED, site, ability
    return kind, a, b


@njit(cache=True, _nrt=False, forceinline=False)
def random_response(seat, trigger, st, cards, rules, rng):
    """Pass half the time, else any legal response, uniformly."""
    count = 0
    for i in range(hand_n(st, seat)):
        count += response_is_legal(
            st, cards, rules, seat, trigger, REACT, hand_card(st, seat, i), -1
        )
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            count += response_is_legal(st, cards, rules, seat, trigger, TRIGGERED, site, ability)
    if count == 0 or rand_bool(rng, 0.5):
        return PASS, -1, -1
    pick = rand_below(rng, count)
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        if response_is_legal(st, cards, rules, seat, trigger, REACT, card, -1):
            if pick == 0:
                return REACT, card, -1
            pick -= 1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            if response_is_legal(st, cards, rules, seat, trigger, TRIGGERED, site, ability):
                if pick == 0:
                    return TRIGGERED, site, ability
                pick -= 1
    return PASS, -1, -1


# --- the decision-point protocol (docs/protocol.md) ------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def arrangement_planned(st, i):
    """Do the followers chosen for the relocating seat's first ``i`` sites follow the plan in
    st[ARRANGE]? (They do when this seat chose them; not when a search chose them.)"""
    for j in range(i):
        if st[ix(ARRANGE + j)] != st[ix(P_ARRANGE + j)]:
            return False
    return True


@njit(cache=True, _nrt=False, forceinline=False)
def decide(sid, prm, seat, st, game, rng):
    """Strategy ``sid``'s answer to the pending decision (st[P_DECISION]) as a move code of the
    protocol's ``legal``: the same choice, with the same random draws, as the straight-line
    game asks of it. A relocation is planned whole at its first site (``choose_arrangement``)
    and each later D_ARRANGE reads the plan; if another player (a search) chose the sites
    before, it is planned again and each count capped to what is left."""
    rules, cards = game
    kind = st[P_DECISION]
    if kind == D_MOVE:
        move, a, b = choose_move(sid, prm, seat, st, cards, rules, rng)
        return move_code(move, a, b)
    if kind == D_RESPONSE:
        answer, a, b = choose_response(sid, prm, seat, st[P_TRIGGER], st, cards, rules, rng)
        return response_code(answer, a, b)
    if kind == D_SITE:
        return choose_site(sid, prm, seat, st[P_PURPOSE], st[P_PICK_N], st, cards, rules, rng)
    if kind == D_STACK:
        return choose_stack(sid, prm, seat, st, cards, rules, rng)
    if kind == D_RECOVER:
        return choose_recover(sid, prm, seat, st, cards, rng)
    i = st[P_ARR_I]  # D_ARRANGE
    left = st[P_ARR_LEFT]
    if i == 0 or not arrangement_planned(st, i):
        choose_arrangement(sid, prm, seat, st, cards, rules, rng)
    if i == sites_n(st, seat) - 1:
        return left
    return min(max(st[ix(ARRANGE + i)], 0), left)
