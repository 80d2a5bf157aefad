"""Scripted Time Barons players: every decision a seat makes, dispatched on an integer strategy id.

The four archetypes are one greedy policy with different weights: on each step of its turn a
scripted seat values every legal move (per action it costs) and makes the best one, ending its
turn when nothing is worth anything. The weights are the strategies' parameters (columns in
``PARAM_NAMES`` order of ``prm``), so a designer can tune an archetype or build a new one from
the command line. ``random`` picks uniformly among the legal moves.

A seat sees the public state (sites, followers, damage, levels, stack sizes, the discard pile,
hand sizes) and its own hand, never the opponent's hand or the stacks' order.

Speed: the valuations run for every option of every step. The functions marked
``inline="always"`` are called for each option (or per decision with all the game's arrays):
numba passes every array argument as 7-9 machine words, so such a call costs about as much as
the work it does; inlined into their callers, they cost nothing to call.
"""

import numpy as np
from numba import njit

from simcore.intrinsics import ix
from simcore.registry import Param, Strategy
from simcore.rng import rand_below, rand_bool
from simcore.time_barons_state import (
    A_COST,
    A_EFFECTS,
    A_FOLLOWERS,
    A_N_EFFECTS,
    A_TRIGGER,
    ABILITY,
    ABILITY_WIDTH,
    ACTIONS,
    ACTIVE,
    ARRANGE,
    ATTACHMENT,
    C_ABILITIES,
    C_COST,
    C_EFFECTS,
    C_LEVEL,
    C_N_ABILITIES,
    C_N_EFFECTS,
    C_TYPE,
    DAMAGE,
    DISCARD,
    DISCARD_N,
    DRAW,
    E_ACTIONS,
    E_CANCEL,
    E_DAMAGE,
    E_DAMAGE_EACH,
    E_DECAY,
    E_DESTROY,
    E_DISABLE,
    E_DISCARD,
    E_DRAW,
    E_FORTIFY,
    E_GAIN,
    E_INTEGRITY,
    E_KILL,
    E_KILL_EVERYWHERE,
    E_RECOVER,
    E_RELOCATE,
    E_REPAIR,
    E_SACRIFICE,
    E_START_ACTIONS,
    E_START_GAIN,
    E_STEAL,
    E_UPGRADE_DISCOUNT,
    END,
    EVENT,
    FOLLOW,
    GAIN,
    HOMELAND,
    LEVEL,
    MAX_ABILITIES,
    N_LEVELS,
    NO_BOUND,
    NO_TRIGGER,
    PASS,
    PICK_DAMAGE,
    PICK_DESTROY,
    PICK_KILL,
    PICK_PLACE,
    PICK_REPAIR,
    PICK_SACRIFICE,
    PICK_STEAL,
    PLAY,
    REACT,
    REACTION,
    RELOCATE,
    SITE,
    SITES_BOUND,
    SPARE,
    SUPPLY,
    TRIGGERED,
    UPGRADE,
    USED,
    VALUE_BOUND,
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
    move_is_legal,
    response_is_legal,
    site_at,
    sites_n,
    stack_left,
    upgrade_cost,
)

RANDOM, TECH_RUSH, SWARM, ATTACKER, BUILDER = range(5)

PARAM_NAMES = ("w_upgrade", "w_follower", "w_attack", "w_site", "w_draw", "hand_size", "w_relocate")
W_UPGRADE, W_FOLLOWER, W_ATTACK, W_SITE, W_DRAW, HAND_SIZE, W_RELOCATE = range(7)

FREE_MOVE_BONUS = 2.0  # a move costing no action is valued as if it cost half of one
SURPLUS_DRAW = 0.3  # share of w_draw a draw is worth once the hand holds hand_size cards
CANCEL_VALUE = 3.0  # an attack cancelled, in units of w_attack
STUCK_UPGRADE = 100.0  # an upgrade's value when it is the only way to draw again


def _weights(upgrade, follower, attack, site, draw, hand, relocate) -> tuple[Param, ...]:
    def weight(name, default, doc):
        return Param(name, "float", default, doc, 0.0, 100.0)

    return (
        weight("w_upgrade", upgrade, "value of an upgrade, per action it costs"),
        weight("w_follower", follower, "value of a follower gained (per follower)"),
        weight("w_attack", attack, "value of harm done: per damage, kill, or cancelled attack"),
        weight("w_site", site, "value of playing a site (x2) and of a helpful attachment"),
        weight("w_draw", draw, "value of a card drawn while the hand is below hand_size"),
        Param(
            "hand_size", "int", hand, "cards it wants in hand (draws are worth less beyond)", 0, 30
        ),
        weight("w_relocate", relocate, "value of a relocation, per unit of the ability it enables"),
    )


STRATEGIES = (
    Strategy(
        "random",
        RANDOM,
        "uniform over the legal moves (ending the turn included) and over every choice; answers "
        "a trigger with probability 1/2",
    ),
    Strategy(
        "tech_rush",
        TECH_RUSH,
        "upgrades whenever it can afford to, then draws and plays what it holds",
        _weights(6.0, 0.6, 1.0, 1.0, 1.2, 4, 0.5),
    ),
    Strategy(
        "swarm",
        SWARM,
        "gains followers above all and relocates them to use its sites",
        _weights(0.4, 2.0, 1.0, 1.0, 0.8, 2, 1.5),
    ),
    Strategy(
        "attacker",
        ATTACKER,
        "keeps a full hand and spends it on damage, kills and destruction",
        _weights(1.2, 0.8, 3.0, 0.8, 1.5, 5, 0.5),
    ),
    Strategy(
        "builder",
        BUILDER,
        "plays sites and uses their abilities, relocating followers to meet their requirements",
        _weights(1.5, 1.0, 1.0, 3.0, 1.5, 4, 1.0),
    ),
)


# --- what things are worth --------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def draw_value(prm, seat, st):
    """w_draw below hand_size, or when leading in followers (drawing races the stacks' end)."""
    if hand_n(st, seat) < prm[seat, HAND_SIZE] or followers(st, seat) > followers(st, 1 - seat):
        return prm[seat, W_DRAW]
    return SURPLUS_DRAW * prm[seat, W_DRAW]


@njit(cache=True, _nrt=False)
def stuck(st, seat):
    """No stack the seat may draw from has cards, but a higher one does: it must upgrade."""
    if can_draw(st, seat):
        return False
    for level in range(st[ix(LEVEL + seat)] + 1, N_LEVELS + 1):
        if stack_left(st, level) > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def drawable(st, seat):
    """Cards left in the stacks the seat may draw from."""
    n = 0
    for level in range(1, st[ix(LEVEL + seat)] + 1):
        n += stack_left(st, level)
    return n


@njit(cache=True, _nrt=False, inline="always")
def effects_value(prm, seat, st, cards, source, base, n_effects):
    """What the effects at ``cards[source, base:]`` are worth to ``seat`` now."""
    other = 1 - seat
    value = 0.0
    w_attack = prm[seat, W_ATTACK]
    w_follower = prm[seat, W_FOLLOWER]
    for k in range(n_effects):
        op = cards[ix(source), ix(base + 2 * k)]
        n = cards[ix(source), ix(base + 2 * k + 1)]
        if op == E_DAMAGE:
            if sites_n(st, other) > 0:
                value += w_attack * n
        elif op == E_DAMAGE_EACH:
            value += w_attack * n * sites_n(st, other)
        elif op == E_KILL:
            value += w_attack * min(n, followers(st, other))
        elif op == E_KILL_EVERYWHERE:
            for i in range(sites_n(st, other)):
                value += w_attack * min(n, st[ix(FOLLOW + site_at(st, other, i))])
            for i in range(sites_n(st, seat)):
                value -= w_follower * min(n, st[ix(FOLLOW + site_at(st, seat, i))])
        elif op == E_DESTROY:
            best = -1
            for i in range(sites_n(st, other)):
                site = site_at(st, other, i)
                if site < HOMELAND:
                    best = max(best, st[ix(FOLLOW + site)])
            if best >= 0:
                value += w_attack * (3 + best)
        elif op == E_STEAL:
            value += (w_attack + w_follower) * min(n, followers(st, other))
        elif op == E_GAIN:
            value += w_follower * min(n, st[SUPPLY])
        elif op == E_ACTIONS:
            if st[ACTIVE] == seat:
                value += n
        elif op == E_DRAW:
            value += draw_value(prm, seat, st) * min(n, drawable(st, seat))
        elif op == E_REPAIR:
            damage = 0
            for i in range(sites_n(st, seat)):
                damage += st[ix(DAMAGE + site_at(st, seat, i))]
            value += 0.5 * min(n, damage)
        elif op == E_RECOVER:
            value += prm[seat, W_DRAW] * min(n, st[DISCARD_N])
        elif op == E_SACRIFICE:
            if followers(st, seat) <= n:
                value -= 1000.0  # it would lose the game
            value -= w_follower * n
        elif op == E_DISCARD:
            value += 0.5 * w_attack * min(n, hand_n(st, other))
        elif op == E_RELOCATE:
            value += 0.1
        elif op == E_CANCEL:
            value += CANCEL_VALUE * w_attack
    return value


@njit(cache=True, _nrt=False)
def effects_bound(prm, seat, cards, source, base, n_effects):
    """An upper bound on ``effects_value`` of these effects for ``seat`` in any state (inf when
    the value grows with the board). Each term is the one of ``effects_value`` with every count
    the state caps it by (followers, supply, cards left...) at its largest, ``n``, and the terms
    that only lower the value left out; the weights are >= 0 (their Param range) and rounding
    is monotonic, so every partial sum stays at least the real one. Keep it beside
    ``effects_value``: a term that grows there must grow here."""
    value = 0.0
    w_attack = prm[seat, W_ATTACK]
    w_follower = prm[seat, W_FOLLOWER]
    for k in range(n_effects):
        op = cards[ix(source), ix(base + 2 * k)]
        n = cards[ix(source), ix(base + 2 * k + 1)]
        if op == E_DAMAGE or op == E_KILL:
            value += w_attack * n
        elif op == E_DAMAGE_EACH or op == E_KILL_EVERYWHERE or op == E_DESTROY:
            return np.inf
        elif op == E_STEAL:
            value += (w_attack + w_follower) * n
        elif op == E_GAIN:
            value += w_follower * n
        elif op == E_ACTIONS:
            value += n
        elif op == E_DRAW or op == E_RECOVER:
            value += prm[seat, W_DRAW] * n  # draw_value is at most w_draw
        elif op == E_REPAIR:
            value += 0.5 * n
        elif op == E_DISCARD:
            value += 0.5 * w_attack * n
        elif op == E_RELOCATE:
            value += 0.1
        elif op == E_CANCEL:
            value += CANCEL_VALUE * w_attack
    return value


# Inlined into the loops that value options: the bound is looked up for most options.
@njit(cache=True, _nrt=False, inline="always")
def value_bound(prm, seat, st, cards, card):
    """An upper bound, for any state and budget, on what ``card`` is worth to ``seat`` on its
    turn: an event in its hand by ``effects_value``, an attachment there by
    ``attachment_choice``, its site in play by ``best_ability`` (so by each of its own-turn
    abilities). Lets the move choice pass over an option that cannot beat the best so far
    without valuing it."""
    bits = st[ix(VALUE_BOUND + card)]
    if bits == NO_BOUND:
        bits = work_out_value_bound(prm, seat, st, cards, card)
    return np.int64(bits).view(np.float64)


@njit(cache=True, _nrt=False, inline="always")
def sites_value_bound(prm, seat, st, cards):
    """The largest ``value_bound`` of the seat's sites with own-turn abilities: no relocation
    can enable an ability worth more. Cached in st[SITES_BOUND + seat] (the kernel forgets it
    when a site with such abilities enters or leaves play)."""
    bits = st[ix(SITES_BOUND + seat)]
    if bits == NO_BOUND:
        bound = 0.0
        for i in range(ability_sites_n(st, seat)):
            bound = max(bound, value_bound(prm, seat, st, cards, ability_site_at(st, seat, i)))
        bits = np.float64(bound).view(np.int64)
        st[ix(SITES_BOUND + seat)] = bits
    return np.int64(bits).view(np.float64)


@njit(cache=True, _nrt=False)
def work_out_value_bound(prm, seat, st, cards, card):
    """``value_bound`` of the card, cached in st[VALUE_BOUND + card] as its bit pattern: it
    depends only on the card and the seat's weights, so it holds while the card stays in the
    seat's hand or in play (the kernel's hand_add and site_add forget it)."""
    if cards[ix(card), C_TYPE] == SITE:
        bound = 0.0
        for ability in range(cards[ix(card), C_N_ABILITIES]):
            base = C_ABILITIES + ABILITY_WIDTH * ability
            if cards[ix(card), ix(base + A_TRIGGER)] == NO_TRIGGER:
                bound = max(
                    bound,
                    effects_bound(
                        prm,
                        seat,
                        cards,
                        card,
                        base + A_EFFECTS,
                        cards[ix(card), ix(base + A_N_EFFECTS)],
                    ),
                )
    elif cards[ix(card), C_TYPE] == ATTACHMENT:
        harm, benefit, _ = attachment_effect(cards, card)
        bound = attachment_worth(prm, seat, harm, benefit)
    else:
        bound = effects_bound(prm, seat, cards, card, C_EFFECTS, cards[ix(card), C_N_EFFECTS])
    bits = np.float64(bound).view(np.int64)
    st[ix(VALUE_BOUND + card)] = bits
    return bits


@njit(cache=True, _nrt=False, inline="always")
def site_card_value(prm, seat, st, cards, card):
    """A site in play is a lasting asset: twice w_site, plus its passives."""
    value = 2.0 * prm[seat, W_SITE]
    for k in range(cards[ix(card), C_N_EFFECTS]):
        op = cards[ix(card), ix(C_EFFECTS + 2 * k)]
        n = cards[ix(card), ix(C_EFFECTS + 2 * k + 1)]
        if op == E_START_GAIN:
            value += prm[seat, W_FOLLOWER] * n
        elif op == E_START_ACTIONS:
            value += 2.0 * n
        elif op == E_UPGRADE_DISCOUNT and st[ix(LEVEL + seat)] < N_LEVELS:
            value += 0.5 * prm[seat, W_UPGRADE] * n
    return value


@njit(cache=True, _nrt=False, inline="always")
def attachment_effect(cards, card):
    """(harm, benefit, integrity change) of an attachment's effects on the site it goes on."""
    harm = 0
    benefit = 0
    integrity_change = 0
    for k in range(cards[ix(card), C_N_EFFECTS]):
        op = cards[ix(card), ix(C_EFFECTS + 2 * k)]
        n = cards[ix(card), ix(C_EFFECTS + 2 * k + 1)]
        if op == E_INTEGRITY:
            integrity_change += n
            if n < 0:
                harm -= n
            else:
                benefit += n
        elif op == E_FORTIFY:
            benefit += 2
        elif op == E_DISABLE:
            harm += 2
        elif op == E_DECAY:
            harm += 2 * n
    return harm, benefit, integrity_change


@njit(cache=True, _nrt=False)
def attachment_worth(prm, seat, harm, benefit):
    """What an attachment is worth when it has a target: its harm on the opponent's site if it
    harms more than it helps, else its benefit on an own site with followers."""
    if harm > benefit:
        return prm[seat, W_ATTACK] * harm
    return 0.5 * prm[seat, W_SITE] * benefit


@njit(cache=True, _nrt=False, inline="always")
def attachment_choice(prm, seat, st, cards, card):
    """(value, target site) of an attachment: a harmful one goes on the opponent's site it hurts
    most, a helpful one on the own site with the most followers."""
    harm, benefit, integrity_change = attachment_effect(cards, card)
    owner = 1 - seat if harm > benefit else seat
    target = -1
    best = -1
    for i in range(sites_n(st, owner)):
        site = site_at(st, owner, i)
        score = st[ix(FOLLOW + site)]
        if owner != seat and st[ix(DAMAGE + site)] >= integrity(st, cards, site) + integrity_change:
            score += 100  # it would be destroyed at once
        if score > best:
            best = score
            target = site
    if target < 0 or owner == seat and best == 0:
        return 0.0, target
    return attachment_worth(prm, seat, harm, benefit), target


@njit(cache=True, _nrt=False)
def own_turn_ability(cards, site, ability, budget):
    """Is the site's ``ability`` usable on the owner's turn for at most ``budget`` actions
    (its follower requirement and once-per-turn use aside)?"""
    base = C_ABILITIES + ABILITY_WIDTH * ability
    return (
        cards[ix(site), ix(base + A_TRIGGER)] == NO_TRIGGER
        and cards[ix(site), ix(base + A_COST)] <= budget
    )


@njit(cache=True, _nrt=False, inline="always")
def best_ability(prm, seat, st, cards, site, budget):
    """(value, ability) of the site's best own-turn ability costing at most ``budget`` actions,
    ignoring its follower requirement; (0, -1) if none is worth anything."""
    best = 0.0
    chosen = -1
    if is_disabled(st, site):
        return best, chosen
    for ability in range(cards[ix(site), C_N_ABILITIES]):
        if not own_turn_ability(cards, site, ability, budget):
            continue
        base = C_ABILITIES + ABILITY_WIDTH * ability
        value = effects_value(
            prm, seat, st, cards, site, base + A_EFFECTS, cards[ix(site), ix(base + A_N_EFFECTS)]
        )
        if value > best:
            best = value
            chosen = ability
    return best, chosen


@njit(cache=True, _nrt=False)
def per_action(value, cost):
    if cost == 0:
        return FREE_MOVE_BONUS * value
    return value / cost


# --- relocation ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def safest_site(st, cards, seat):
    """Index among the seat's sites of the one least likely to lose followers: fortified
    first, then the most integrity left."""
    best = 0
    best_score = -1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        score = integrity(st, cards, site) - st[ix(DAMAGE + site)]
        if is_fortified(st, cards, site):
            score += 1000
        if score > best_score:
            best_score = score
            best = i
    return best


@njit(cache=True, _nrt=False)
def spare(st, cards, seat, i):
    """Followers in ARRANGE on the seat's ``i``-th site beyond its own requirement."""
    return max(0, st[ix(ARRANGE + i)] - max_requirement(st, site_at(st, seat, i)))


@njit(cache=True, _nrt=False)
def relocation_value(prm, seat, target_value):
    """What a relocation enabling an ability worth ``target_value`` is worth as a move."""
    return 0.5 * prm[seat, W_RELOCATE] * target_value


@njit(cache=True, _nrt=False, inline="always")
def relocation_target(prm, seat, st, cards, budget, beat):
    """(value, site, followers missing there) of the most valuable ability not yet usable
    that a relocation would enable (with ``budget`` actions left to use it) by moving followers
    other sites do not need; (0, -1, 0) if none.

    Only a relocation worth more than ``beat`` matters to the caller: sites whose abilities
    cannot make it so (by ``value_bound``) are passed over unvalued. The result is exact when
    the best relocation is worth more than ``beat``, else it is worth at most ``beat`` too; a
    negative ``beat`` passes over no site."""
    available = st[ix(SPARE + seat)]
    target = -1
    need = 0
    best = 0.0
    if available == 0:
        return best, target, need  # every site that lacks followers would stay short
    for i in range(ability_sites_n(st, seat)):
        site = ability_site_at(st, seat, i)
        follow = st[ix(FOLLOW + site)]
        if st[ix(USED + site)] == 1 or follow >= max_requirement(st, site):
            continue  # nothing to enable there
        bound = value_bound(prm, seat, st, cards, site)
        if beat >= 0.0 and relocation_value(prm, seat, bound) <= beat:
            continue  # valuing its abilities is the costly part, and it cannot win
        if not enables_some_ability(cards, site, follow, follow + available, budget):
            continue  # whichever ability best_ability picks, it stays short or is usable already
        value, ability = best_ability(prm, seat, st, cards, site, budget)
        if ability < 0 or value <= best:
            continue
        missing = cards[ix(site), ix(C_ABILITIES + ABILITY_WIDTH * ability + A_FOLLOWERS)] - follow
        if 0 < missing <= available:  # the site lacks followers, so it has none to spare
            best = value
            target = site
            need = missing
    return best, target, need


@njit(cache=True, _nrt=False)
def enables_some_ability(cards, site, follow, reachable, budget):
    """Does one of the site's own-turn abilities costing at most ``budget`` need more than
    ``follow`` followers but at most ``reachable``? (Checked before valuing them: valuing is
    the costly part.)"""
    for ability in range(cards[ix(site), C_N_ABILITIES]):
        required = cards[ix(site), ix(C_ABILITIES + ABILITY_WIDTH * ability + A_FOLLOWERS)]
        if follow < required <= reachable and own_turn_ability(cards, site, ability, budget):
            return True
    return False


@njit(cache=True, _nrt=False)
def plan_relocation(prm, seat, st, cards, budget):
    """Write into ARRANGE the arrangement of ``relocation_target``, moving followers other
    sites do not need to the target site, largest spare first; return its value (0: none)."""
    value, target_site, need = relocation_target(prm, seat, st, cards, budget, -1.0)
    n = sites_n(st, seat)
    target = -1
    for i in range(n):
        site = site_at(st, seat, i)
        st[ix(ARRANGE + i)] = st[ix(FOLLOW + site)]
        if site == target_site:
            target = i
    while need > 0:
        donor = 0
        for i in range(1, n):
            if spare(st, cards, seat, i) > spare(st, cards, seat, donor):
                donor = i
        moved = min(need, spare(st, cards, seat, donor))
        st[ix(ARRANGE + donor)] -= moved
        st[ix(ARRANGE + target)] += moved
        need -= moved
    return value


@njit(cache=True, _nrt=False)
def plan_shelter(st, cards, seat):
    """Under attack: every follower beyond its site's requirement goes to the safest site."""
    surplus = 0
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        st[ix(ARRANGE + i)] = min(st[ix(FOLLOW + site)], max_requirement(st, site))
        surplus += st[ix(FOLLOW + site)] - st[ix(ARRANGE + i)]
    st[ix(ARRANGE + safest_site(st, cards, seat))] += surplus


@njit(cache=True, _nrt=False)
def choose_arrangement(sid, prm, seat, st, cards, rules, rng):
    """Fill st[ARRANGE + i] with the followers for the seat's i-th site (all of them, >= 0)."""
    n = sites_n(st, seat)
    if sid == RANDOM:
        for i in range(n):
            st[ix(ARRANGE + i)] = 0
        for _ in range(followers(st, seat)):
            st[ix(ARRANGE + rand_below(rng, n))] += 1
    elif st[ACTIVE] == seat:
        plan_relocation(prm, seat, st, cards, st[ACTIONS])
    else:
        plan_shelter(st, cards, seat)


# --- moves on the seat's turn ---------------------------------------------------------------


@njit(cache=True, _nrt=False)
def nth_move(st, cards, rules, seat, pick):
    """Walk the legal moves in a fixed order: (count, kind, a, b) of move number ``pick``, or
    (number of legal moves, END, -1, -1) when ``pick`` is past the end."""
    count = 0
    if pick == count:
        return count, END, -1, -1
    count += 1
    for level in range(1, N_LEVELS + 1):
        if move_is_legal(st, cards, rules, seat, DRAW, level, -1):
            if pick == count:
                return count, DRAW, level, -1
            count += 1
    if move_is_legal(st, cards, rules, seat, RELOCATE, -1, -1):
        if pick == count:
            return count, RELOCATE, -1, -1
        count += 1
    if move_is_legal(st, cards, rules, seat, UPGRADE, -1, -1):
        if pick == count:
            return count, UPGRADE, -1, -1
        count += 1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        if move_is_legal(st, cards, rules, seat, GAIN, site, -1):
            if pick == count:
                return count, GAIN, site, -1
            count += 1
        for ability in range(MAX_ABILITIES):
            if move_is_legal(st, cards, rules, seat, ABILITY, site, ability):
                if pick == count:
                    return count, ABILITY, site, ability
                count += 1
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        if cards[ix(card), C_TYPE] != ATTACHMENT:
            if move_is_legal(st, cards, rules, seat, PLAY, card, -1):
                if pick == count:
                    return count, PLAY, card, -1
                count += 1
            continue
        for owner in range(2):
            for j in range(sites_n(st, owner)):
                site = site_at(st, owner, j)
                if move_is_legal(st, cards, rules, seat, PLAY, card, site):
                    if pick == count:
                        return count, PLAY, card, site
                    count += 1
    return count, END, -1, -1


@njit(cache=True, _nrt=False)
def highest_stack(st, seat):
    """The highest level stack the seat may draw from that has cards, 0 if none."""
    for level in range(st[ix(LEVEL + seat)], 0, -1):
        if stack_left(st, level) > 0:
            return level
    return 0


@njit(cache=True, _nrt=False, inline="always")
def scripted_move(prm, seat, st, cards, rules):
    """The move with the highest value per action, or END when none is worth anything."""
    actions = st[ACTIONS]
    kind = END
    a = -1
    b = -1
    best = 0.0
    if actions >= 1:
        if can_draw(st, seat):
            value = draw_value(prm, seat, st)
            if value > best:
                best, kind, a, b = value, DRAW, highest_stack(st, seat), -1
        if st[SUPPLY] > 0 and sites_n(st, seat) > 0:
            value = prm[seat, W_FOLLOWER]
            if value > best:
                best, kind, a, b = value, GAIN, -1, -1  # where: worked out only if it stays best
        if (
            sites_n(st, seat) > 1
            and prm[seat, W_RELOCATE] > 0
            and relocation_value(prm, seat, sites_value_bound(prm, seat, st, cards)) > best
        ):
            target_value, _, _ = relocation_target(prm, seat, st, cards, actions - 1, best)
            value = relocation_value(prm, seat, target_value)
            if value > best:
                best, kind, a, b = value, RELOCATE, -1, -1
        # An upgrade costs at least 1 action: with none left, its cost is not worth working out.
        if st[ix(LEVEL + seat)] < N_LEVELS and upgrade_cost(st, cards, rules, seat) <= actions:
            value = STUCK_UPGRADE if stuck(st, seat) else prm[seat, W_UPGRADE]
            if value > best:
                best, kind, a, b = value, UPGRADE, -1, -1
    for i in range(ability_sites_n(st, seat)):
        site = ability_site_at(st, seat, i)
        if is_disabled(st, site):
            continue  # none of its abilities may be used
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
        target = -1
        if kind_of_card == SITE:
            value = site_card_value(prm, seat, st, cards, card)
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
        value = per_action(value, cost)
        if value > best:
            best, kind, a, b = value, PLAY, card, target
    if kind == GAIN:
        a = place_target(st, cards, seat)
    return kind, a, b


@njit(cache=True, _nrt=False, inline="always")
def choose_move(sid, prm, seat, st, cards, rules, rng):
    """(move, a, b) for the seat on turn; see ``move_is_legal`` for the arguments."""
    if sid == RANDOM:
        total, _, _, _ = nth_move(st, cards, rules, seat, -1)
        _, kind, a, b = nth_move(st, cards, rules, seat, rand_below(rng, total))
        return kind, a, b
    return scripted_move(prm, seat, st, cards, rules)


# --- choices while effects resolve ---------------------------------------------------------


@njit(cache=True, _nrt=False)
def place_target(st, cards, seat):
    """Where a new follower goes: the site furthest below its requirement, else the safest."""
    best = -1
    best_deficit = 0
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        deficit = max_requirement(st, site) - st[ix(FOLLOW + site)]
        if deficit > best_deficit:
            best_deficit = deficit
            best = site
    if best >= 0:
        return best
    return site_at(st, seat, safest_site(st, cards, seat))


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def choose_site(sid, prm, seat, purpose, n, st, cards, rng):
    """A site ``is_candidate`` accepts for ``purpose`` (the kernel checks one exists)."""
    owner = 1 - seat if purpose <= PICK_STEAL else seat
    if purpose == PICK_PLACE and sid != RANDOM:
        return place_target(st, cards, seat)
    count = 0
    best = -1
    best_score = 0
    for i in range(sites_n(st, owner)):
        site = site_at(st, owner, i)
        if not is_candidate(st, seat, purpose, site):
            continue
        count += 1
        score = site_score(st, cards, seat, purpose, n, site)
        if best < 0 or score > best_score:
            best = site
            best_score = score
    if sid == RANDOM:
        pick = rand_below(rng, count)
        for i in range(sites_n(st, owner)):
            site = site_at(st, owner, i)
            if is_candidate(st, seat, purpose, site):
                if pick == 0:
                    return site
                pick -= 1
    return best


@njit(cache=True, _nrt=False)
def choose_stack(sid, prm, seat, st, rng):
    """The level to draw from (at most the seat's, with cards), 0 if there is none."""
    if sid == RANDOM:
        n = 0
        for level in range(1, st[ix(LEVEL + seat)] + 1):
            n += stack_left(st, level) > 0
        if n == 0:
            return 0
        pick = rand_below(rng, n)
        for level in range(1, st[ix(LEVEL + seat)] + 1):
            if stack_left(st, level) > 0:
                if pick == 0:
                    return level
                pick -= 1
    return highest_stack(st, seat)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False, inline="always")
def choose_response(sid, prm, seat, trigger, st, cards, rules, rng):
    """(PASS, -1, -1), (REACT, card, -1) or (TRIGGERED, site, ability) answering ``trigger``;
    scripted seats make the response worth the most, random ones answer half the time."""
    kind = PASS
    a = -1
    b = -1
    best = 0.0
    count = 0
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        if response_is_legal(st, cards, seat, trigger, REACT, card, -1):
            count += 1
            value = effects_value(
                prm, seat, st, cards, card, C_EFFECTS, cards[ix(card), C_N_EFFECTS]
            )
            if value > best:
                best, kind, a, b = value, REACT, card, -1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            if response_is_legal(st, cards, seat, trigger, TRIGGERED, site, ability):
                count += 1
                base = C_ABILITIES + ABILITY_WIDTH * ability
                value = effects_value(
                    prm,
                    seat,
                    st,
                    cards,
                    site,
                    base + A_EFFECTS,
                    cards[ix(site), ix(base + A_N_EFFECTS)],
                )
                if value > best:
                    best, kind, a, b = value, TRIGGERED, site, ability
    if sid != RANDOM:
        return kind, a, b
    if count == 0 or rand_bool(rng, 0.5):
        return PASS, -1, -1
    pick = rand_below(rng, count)
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        if response_is_legal(st, cards, seat, trigger, REACT, card, -1):
            if pick == 0:
                return REACT, card, -1
            pick -= 1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            if response_is_legal(st, cards, seat, trigger, TRIGGERED, site, ability):
                if pick == 0:
                    return TRIGGERED, site, ability
                pick -= 1
    return PASS, -1, -1
