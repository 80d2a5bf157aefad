"""Scripted Time Barons players: every decision a seat makes, dispatched on an integer strategy id.

The four archetypes are one greedy policy with different weights: on each step of its turn a
scripted seat values every legal move (per action it costs) and makes the best one, ending its
turn when nothing is worth anything. What lasting things are worth (a site, a relocation, an
upgrade, where a follower stands) is worked out from the state over the turns the seat can still
expect; the weights are the strategies' parameters (columns in ``PARAM_NAMES`` order of
``prm``), how much an archetype cares for each kind of gain, so a designer can tune an archetype
or build a new one from the command line. ``random`` picks uniformly among the legal moves. Ties
between equal choices are broken from the game's random stream.

A seat sees the public state (sites, followers, damage, levels, stack sizes, the discard pile,
hand sizes, the attack it answers and the sites it names, the cards taken back from the pile)
and its own hand, never the opponent's other cards or the stacks' order
(simcore.games.time_barons.game.determinize redraws exactly those; the fair-play leak test checks
it).

Speed: the valuations run for every option of every step. The functions marked
``inline="always"`` are called for each option (or per decision with all the game's arrays):
numba passes every array argument as 7-9 machine words, so such a call costs about as much as
the work it does; inlined into their callers, they cost nothing to call.
"""

import numpy as np
from numba import njit

from simcore.games.time_barons.state import (
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
    ARRANGE_ALT,
    ATTACHMENT,
    ATTACK,
    ATTACK_ABILITY,
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
    IN_HAND,
    IN_STACK,
    LEVEL,
    LOC,
    N_LEVELS,
    NO_ATTACK,
    NO_BOUND,
    NO_TARGET,
    NO_TRIGGER,
    OWNER,
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
    R_HAND,
    R_STACKS_TO_END,
    REACT,
    REACTION,
    RELOCATE,
    S_N_CARDS,
    SET_ROW,
    SHOWN,
    SITE,
    SITES_BOUND,
    SPARE,
    SUPPLY,
    T_DAMAGE,
    T_DAMAGE_EACH,
    T_DESTROY,
    T_KILL_EVERYWHERE,
    T_WEAKEN,
    TARGETS,
    TARGETS_DECLARED,
    THREAT,
    THREAT_AMOUNT,
    THREAT_HIDDEN,
    THREAT_KIND,
    THREAT_N,
    THREAT_SURE,
    THREAT_WIDTH,
    TRIGGERED,
    TURN,
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
    move_code,
    nth_move,
    response_code,
    response_is_legal,
    site_at,
    sites_n,
    stack_left,
    upgrade_cost,
)
from simcore.kernel.intrinsics import ix
from simcore.kernel.rng import rand_below, rand_bool
from simcore.registry import Param, Strategy

RANDOM, TECH_RUSH, SWARM, ATTACKER, BUILDER = range(5)

PARAM_NAMES = ("w_upgrade", "w_follower", "w_attack", "w_site", "w_draw", "hand_size", "w_relocate")
W_UPGRADE, W_FOLLOWER, W_ATTACK, W_SITE, W_DRAW, HAND_SIZE, W_RELOCATE = range(7)

FREE_MOVE_BONUS = 2.0  # a move costing no action is valued as if it cost half of one
SURPLUS_DRAW = 0.3  # share of w_draw a draw is worth once the hand holds hand_size cards
TIE = 1e-9  # values closer than this are equal: the choice among them is random


def _weights(upgrade, follower, attack, site, draw, hand, relocate) -> tuple[Param, ...]:
    def weight(name, default, doc):
        return Param(name, "float", default, doc, 0.0, 100.0)

    return (
        weight(
            "w_upgrade",
            upgrade,
            "worth of each card of the next level's stack an upgrade lets it draw, over the card "
            "it would draw otherwise",
        ),
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
        _weights(0.9, 0.6, 1.0, 1.0, 1.2, 4, 0.5),
    ),
    Strategy(
        "swarm",
        SWARM,
        "gains followers above all (while the supply lasts), rarely upgrades, plays and staffs "
        "sites once followers cost more than they yield",
        _weights(0.15, 2.0, 1.0, 1.0, 0.8, 2, 1.5),
    ),
    Strategy(
        "attacker",
        ATTACKER,
        "keeps a full hand and spends it on damage, kills and destruction",
        _weights(0.18, 0.8, 3.0, 0.8, 1.5, 5, 0.5),
    ),
    Strategy(
        "builder",
        BUILDER,
        "plays sites that pay over the turns left, relocates followers to staff their "
        "abilities, and upgrades while the next stack holds many cards it can still draw",
        _weights(0.6, 1.0, 1.0, 1.0, 1.5, 4, 1.0),
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
def drawable(st, seat):
    """Cards left in the stacks the seat may draw from."""
    n = 0
    for level in range(1, st[ix(LEVEL + seat)] + 1):
        n += stack_left(st, level)
    return n


@njit(cache=True, _nrt=False)
def cards_to_end(st, rules):
    """Cards that must still leave the stacks before the game ends by the stacks: all those of
    the ``stacks_to_end`` smallest stacks."""
    to_end = 0
    for level in range(1, N_LEVELS + 1):
        left = stack_left(st, level)
        smaller = 0  # stacks that empty before this one (equal sizes: either, the sum is alike)
        for other in range(1, N_LEVELS + 1):
            other_left = stack_left(st, other)
            smaller += other_left < left or (other_left == left and other < level)
        if smaller < rules[R_STACKS_TO_END]:
            to_end += left
    return to_end


@njit(cache=True, _nrt=False)
def turns_left(st, cards, rules, seat):
    """The seat's turns still to come, this one included (at least 1), as the stacks tell: the
    cards_to_end at the rate cards have left the stacks so far (one card for one turn counted
    before the first, so that the first turn has a rate). Public: stack sizes, turn count."""
    in_stacks = 0
    for level in range(1, N_LEVELS + 1):
        in_stacks += stack_left(st, level)
    drawn = cards[SET_ROW, S_N_CARDS] - in_stacks - 2 * rules[R_HAND]
    rate = (drawn + 1.0) / (st[TURN] + 1.0)
    return max(1.0, cards_to_end(st, rules) / rate / 2.0)


@njit(cache=True, _nrt=False)
def upgrade_value(prm, seat, st, cards, rules):
    """What an upgrade is worth per action it costs: the cards of the next level's stack the
    seat can still draw (its share of the cards_to_end, at most what that stack holds), each
    worth w_upgrade more than the card it would draw otherwise, or a whole draw (draw_value)
    when no stack at its levels has cards left."""
    level = st[ix(LEVEL + seat)]
    access = min(stack_left(st, level + 1), cards_to_end(st, rules) / 2.0)
    premium = prm[seat, W_UPGRADE]
    if not can_draw(st, seat):
        premium = max(premium, draw_value(prm, seat, st))
    return premium * access / upgrade_cost(st, cards, rules, seat)


@njit(cache=True, _nrt=False)
def action_value(prm, seat, st):
    """What an action is worth to the seat when nothing better is on offer: the better of a
    follower gained and a card drawn, of those it can make (0 if neither)."""
    value = 0.0
    if st[SUPPLY] > 0 and sites_n(st, seat) > 0:
        value = prm[seat, W_FOLLOWER]
    if can_draw(st, seat):
        value = max(value, draw_value(prm, seat, st))
    return value


@njit(cache=True, _nrt=False)
def better(value, best, ties, rng):
    """Running choice of the highest value, equal values taken uniformly at random from the
    game's stream: (take this one?, best so far, how many share it)."""
    if value > best + TIE:
        return True, value, 1
    if value >= best - TIE:
        ties += 1
        return rand_below(rng, ties) == 0, best, ties
    return False, best, ties


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
        # relocate and cancel: what they save when answering an attack (response_value)
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
def ability_income(prm, seat, st, cards, site, ability, action):
    """What one use of the site's ``ability`` adds over spending its actions on moves worth
    ``action`` each (action_value); 0 if nothing (then it would not be used)."""
    base = C_ABILITIES + ABILITY_WIDTH * ability
    value = effects_value(
        prm, seat, st, cards, site, base + A_EFFECTS, cards[ix(site), ix(base + A_N_EFFECTS)]
    )
    return max(0.0, value - action * cards[ix(site), ix(base + A_COST)])


@njit(cache=True, _nrt=False, inline="always")
def site_card_value(prm, seat, st, cards, card, turns, action):
    """A site in play is a lasting asset: w_site times one (a place for followers) plus what it
    yields on the seat's turns after this one: the income of its best own-turn ability
    (ability_income) that the seat has the followers to staff, and its passives (start_gain:
    followers, start_actions: actions, upgrade_discount: actions saved on each upgrade left)."""
    future = turns - 1.0
    income = 0.0
    for ability in range(cards[ix(card), C_N_ABILITIES]):
        base = C_ABILITIES + ABILITY_WIDTH * ability
        if cards[ix(card), ix(base + A_TRIGGER)] == NO_TRIGGER and cards[
            ix(card), ix(base + A_FOLLOWERS)
        ] < followers(st, seat):
            income = max(income, ability_income(prm, seat, st, cards, card, ability, action))
    value = 1.0 + income * future
    for k in range(cards[ix(card), C_N_EFFECTS]):
        op = cards[ix(card), ix(C_EFFECTS + 2 * k)]
        n = cards[ix(card), ix(C_EFFECTS + 2 * k + 1)]
        if op == E_START_GAIN and st[SUPPLY] > 0:
            value += prm[seat, W_FOLLOWER] * n * future
        elif op == E_START_ACTIONS:
            value += action * n * future
        elif op == E_UPGRADE_DISCOUNT:
            value += action * n * (N_LEVELS - st[ix(LEVEL + seat)])
    return prm[seat, W_SITE] * value


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
def per_action(value, cost):
    if cost == 0:
        return FREE_MOVE_BONUS * value
    return value / cost


# --- relocation ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def spare(st, cards, seat, i):
    """Followers in ARRANGE on the seat's ``i``-th site beyond its own requirement."""
    return max(0, st[ix(ARRANGE + i)] - max_requirement(st, site_at(st, seat, i)))


@njit(cache=True, _nrt=False)
def relocation_value(prm, seat, value):
    """What a relocation enabling an ability worth ``value`` over the game is worth as a move."""
    return prm[seat, W_RELOCATE] * value


@njit(cache=True, _nrt=False, inline="always")
def relocation_target(prm, seat, st, cards, budget, turns, action, beat):
    """(value, site, followers missing there) of the most valuable ability not yet usable that
    a relocation would enable by moving followers other sites do not need: its income
    (ability_income) on each turn it will be used, this one if ``budget`` actions are left for
    it and the seat's ``turns`` - 1 after; (0, -1, 0) if none.

    Only a relocation worth more than ``beat`` matters to the caller: sites whose abilities
    cannot make it so (by ``value_bound`` over ``turns``) are passed over unvalued. The result
    is exact when the best relocation is worth more than ``beat``, else it is worth at most
    ``beat`` too; a negative ``beat`` passes over no site."""
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
            continue  # nothing to enable there (a disabled site requires nothing)
        bound = value_bound(prm, seat, st, cards, site)
        if beat >= 0.0 and relocation_value(prm, seat, bound * turns) <= beat:
            continue  # valuing its abilities is the costly part, and it cannot win
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            base = C_ABILITIES + ABILITY_WIDTH * ability
            required = cards[ix(site), ix(base + A_FOLLOWERS)]
            if (
                cards[ix(site), ix(base + A_TRIGGER)] != NO_TRIGGER
                or required <= follow
                or required > follow + available
            ):
                continue
            uses = turns - 1.0 + (cards[ix(site), ix(base + A_COST)] <= budget)
            value = ability_income(prm, seat, st, cards, site, ability, action) * uses
            if value > best:
                best = value
                target = site
                need = required - follow
    return best, target, need


@njit(cache=True, _nrt=False)
def plan_relocation(prm, seat, st, cards, rules, budget, rng):
    """Write into ARRANGE the arrangement of ``relocation_target``, moving followers other
    sites do not need to the target site, largest spare first (equal spares: at random);
    return its value (0: none)."""
    value, target_site, need = relocation_target(
        prm,
        seat,
        st,
        cards,
        budget,
        turns_left(st, cards, rules, seat),
        action_value(prm, seat, st),
        -1.0,
    )
    n = sites_n(st, seat)
    target = -1
    for i in range(n):
        site = site_at(st, seat, i)
        st[ix(ARRANGE + i)] = st[ix(FOLLOW + site)]
        if site == target_site:
            target = i
    while need > 0:
        donor = -1
        most = 0.0
        ties = 0
        for i in range(n):
            take, most, ties = better(spare(st, cards, seat, i), most, ties, rng)
            if take:
                donor = i
        moved = min(need, spare(st, cards, seat, donor))
        st[ix(ARRANGE + donor)] -= moved
        st[ix(ARRANGE + target)] += moved
        need -= moved
    return value


# --- exposure: what the opponent's attacks would take ------------------------------------------
# Where followers stand decides what an attack takes: damage n on a site kills n of its followers
# (none on a fortified site) or all of them if it destroys the site; a destroy takes them all;
# damage_each and kill_everywhere hit every site. Spreading followers limits what one attack on
# one site takes; concentrating them limits what attacks on every site take. The strategies weigh
# an arrangement (in ARRANGE) by the followers the attack being answered and the attacks the
# opponent may make next would take, the attacker naming the sites that hurt most.


@njit(cache=True, _nrt=False)
def threat_kind(op, n):
    """(kind, amount) of the attack an effect is, for the followers it takes: an attachment's
    decay is damage, its negative integrity weakens; kind -1 when where the followers stand
    does not matter (kill and steal take n wherever they are)."""
    if op == E_DAMAGE or op == E_DECAY:
        return T_DAMAGE, n
    if op == E_DAMAGE_EACH:
        return T_DAMAGE_EACH, n
    if op == E_KILL_EVERYWHERE:
        return T_KILL_EVERYWHERE, n
    if op == E_DESTROY:
        return T_DESTROY, 1
    if op == E_INTEGRITY and n < 0:
        return T_WEAKEN, -n
    return -1, n


@njit(cache=True, _nrt=False)
def add_threats(st, cards, source, base, n_effects, sure, hidden):
    """Count the effects at ``cards[source, base:]`` in THREAT: ``sure`` times as attacks the
    opponent can make, ``hidden`` times as attacks a hidden card of its hand could be."""
    for k in range(n_effects):
        kind, amount = threat_kind(
            cards[ix(source), ix(base + 2 * k)], cards[ix(source), ix(base + 2 * k + 1)]
        )
        if kind < 0:
            continue
        j = 0
        while j < st[THREAT_N] and (
            st[ix(THREAT + THREAT_WIDTH * j + THREAT_KIND)] != kind
            or st[ix(THREAT + THREAT_WIDTH * j + THREAT_AMOUNT)] != amount
        ):
            j += 1
        entry = THREAT + THREAT_WIDTH * j
        if j == st[THREAT_N]:
            st[THREAT_N] += 1
            st[ix(entry + THREAT_KIND)] = kind
            st[ix(entry + THREAT_AMOUNT)] = amount
            st[ix(entry + THREAT_SURE)] = 0
            st[ix(entry + THREAT_HIDDEN)] = 0
        st[ix(entry + THREAT_SURE)] += sure
        st[ix(entry + THREAT_HIDDEN)] += hidden


@njit(cache=True, _nrt=False)
def expect_attacks(st, cards, seat):
    """Fill THREAT with the attacks the opponent of ``seat`` may make on its next turn, from
    what ``seat`` may know: every own-turn ability of its sites it has the followers for, the
    events and attachments of its hand that are face up (taken back from the discard pile), and
    every event and attachment not yet seen (in a stack or hidden in its hand) of a level it may
    hold, as one of its hidden cards. Returns the chance that a hidden card is a given unseen
    one: its hidden cards over the unseen cards of levels up to its level."""
    other = 1 - seat
    st[THREAT_N] = 0
    for i in range(ability_sites_n(st, other)):
        site = ability_site_at(st, other, i)
        if is_disabled(st, site):
            continue
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            base = C_ABILITIES + ABILITY_WIDTH * ability
            if (
                cards[ix(site), ix(base + A_TRIGGER)] == NO_TRIGGER
                and st[ix(FOLLOW + site)] >= cards[ix(site), ix(base + A_FOLLOWERS)]
            ):
                add_threats(
                    st, cards, site, base + A_EFFECTS, cards[ix(site), ix(base + A_N_EFFECTS)], 1, 0
                )
    hidden = hand_n(st, other)
    unseen = 0
    for card in range(cards[SET_ROW, S_N_CARDS]):
        in_its_hand = st[ix(LOC + card)] == IN_HAND and st[ix(OWNER + card)] == other
        is_event = cards[card, C_TYPE] == EVENT or cards[card, C_TYPE] == ATTACHMENT
        if in_its_hand and st[ix(SHOWN + card)] == 1:
            hidden -= 1
            if is_event:
                add_threats(st, cards, card, C_EFFECTS, cards[card, C_N_EFFECTS], 1, 0)
        elif (in_its_hand or st[ix(LOC + card)] == IN_STACK) and cards[card, C_LEVEL] <= st[
            ix(LEVEL + other)
        ]:
            unseen += 1
            if is_event:
                add_threats(st, cards, card, C_EFFECTS, cards[card, C_N_EFFECTS], 0, 1)
    return hidden / unseen if unseen > 0 else 0.0


@njit(cache=True, _nrt=False)
def site_loss(st, cards, site, count, kind, n):
    """Followers of ``count`` on ``site`` that one attack of ``kind`` and amount ``n`` takes."""
    if kind == T_KILL_EVERYWHERE:
        return min(n, count)
    if kind == T_DESTROY:
        return count if site < HOMELAND else 0
    if n >= integrity(st, cards, site) - st[ix(DAMAGE + site)]:
        return count  # destroyed
    if kind == T_WEAKEN:
        return 0
    if is_fortified(st, cards, site):
        return 0
    return min(n, count)


@njit(cache=True, _nrt=False)
def attack_loss(st, cards, seat, kind, n, target):
    """Followers the seat, arranged as in ARRANGE, loses to one attack: on ``target`` (a site it
    names), or, with NO_TARGET, on the site where it takes most (damage_each and
    kill_everywhere: on every site)."""
    total = 0
    worst = 0
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        loss = site_loss(st, cards, site, st[ix(ARRANGE + i)], kind, n)
        if site == target:
            return loss
        total += loss
        worst = max(worst, loss)
    if target != NO_TARGET:
        return 0  # the site it named is not the seat's (any more)
    if kind == T_DAMAGE_EACH or kind == T_KILL_EVERYWHERE:
        return total
    return worst


@njit(cache=True, _nrt=False)
def focused_loss(st, cards, site, count, mean):
    """Followers of ``count`` on ``site`` expected lost to damage whose amount is Poisson with
    this mean: it kills up to the amount (none on a fortified site) unless it destroys the site,
    which takes them all."""
    left = integrity(st, cards, site) - st[ix(DAMAGE + site)]
    fortified = is_fortified(st, cards, site)
    chance = np.exp(-mean)  # of the amount d, from 0 up
    survive = 0.0
    kills = 0.0
    for d in range(max(left, 0)):
        survive += chance
        if not fortified:
            kills += chance * min(d, count)
        chance *= mean / (d + 1)
    return kills + (1.0 - survive) * count


@njit(cache=True, _nrt=False)
def expected_loss(st, cards, seat, chance):
    """Followers the seat, arranged as in ARRANGE, can expect to lose to the attacks in THREAT
    (expect_attacks; ``chance``: that a hidden card is a given unseen one): its damage together
    on the one site where it takes most (an attacker focuses, and counters add up to
    destruction), its amount uncertain (Poisson with the expected amount as mean: the more
    integrity a site has left, the less likely it falls); each other attack on its own."""
    loss = 0.0
    damage = 0.0
    for j in range(st[THREAT_N]):
        entry = THREAT + THREAT_WIDTH * j
        weight = st[ix(entry + THREAT_SURE)] + chance * st[ix(entry + THREAT_HIDDEN)]
        kind = st[ix(entry + THREAT_KIND)]
        amount = st[ix(entry + THREAT_AMOUNT)]
        if kind == T_DAMAGE:
            damage += weight * amount
        else:
            loss += weight * attack_loss(st, cards, seat, kind, amount, NO_TARGET)
    if damage > 0.0:
        worst = 0.0
        for i in range(sites_n(st, seat)):
            site = site_at(st, seat, i)
            worst = max(worst, focused_loss(st, cards, site, st[ix(ARRANGE + i)], damage))
        loss += worst
    return loss


@njit(cache=True, _nrt=False)
def attack_effects(st, cards):
    """(card, first effect column, number of effects) of the attack being answered."""
    source = st[ATTACK]
    ability = st[ATTACK_ABILITY]
    if ability < 0:
        return source, C_EFFECTS, cards[ix(source), C_N_EFFECTS]
    base = C_ABILITIES + ABILITY_WIDTH * ability
    return source, base + A_EFFECTS, cards[ix(source), ix(base + A_N_EFFECTS)]


@njit(cache=True, _nrt=False)
def pending_loss(st, cards, rules, seat):
    """Followers the seat, arranged as in ARRANGE, loses to the attack being answered (0 if
    none): a damage or destroy effect on the site it named (attack_targets "declared"; naming
    none, it hits nothing) or on the site where it takes most (chosen on resolution); an
    attachment whose integrity change would destroy the site it goes on takes its followers."""
    if st[ATTACK] == NO_ATTACK:
        return 0.0
    source, base, n_effects = attack_effects(st, cards)
    declared = rules[R_ATTACK_TARGETS] == TARGETS_DECLARED
    loss = 0.0
    if cards[ix(source), C_TYPE] == ATTACHMENT:
        site = st[TARGETS]
        _, _, change = attachment_effect(cards, source)
        if st[ix(DAMAGE + site)] >= integrity(st, cards, site) + change:
            for i in range(sites_n(st, seat)):
                if site_at(st, seat, i) == site:
                    loss += st[ix(ARRANGE + i)]  # destroyed at once, with its followers
        return loss
    for k in range(n_effects):
        kind, amount = threat_kind(
            cards[ix(source), ix(base + 2 * k)], cards[ix(source), ix(base + 2 * k + 1)]
        )
        if kind < 0:
            continue
        target = NO_TARGET
        if kind == T_DAMAGE or kind == T_DESTROY:
            if declared:
                target = st[ix(TARGETS + k)]
                if target == NO_TARGET:
                    continue
        loss += attack_loss(st, cards, seat, kind, amount, target)
    return loss


# --- where followers go --------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def enabling_value(prm, seat, st, cards, site, count, turns, action):
    """What one more follower on the seat's ``site``, holding ``count``, is worth towards its
    own-turn abilities: for each ability short of followers, its income over the seat's turns
    shared among the followers it lacks; the best of them."""
    best = 0.0
    if is_disabled(st, site):
        return best
    for ability in range(cards[ix(site), C_N_ABILITIES]):
        base = C_ABILITIES + ABILITY_WIDTH * ability
        required = cards[ix(site), ix(base + A_FOLLOWERS)]
        if cards[ix(site), ix(base + A_TRIGGER)] == NO_TRIGGER and required > count:
            income = ability_income(prm, seat, st, cards, site, ability, action)
            best = max(best, income * turns / (required - count))
    return best


@njit(cache=True, _nrt=False)
def place_target(prm, seat, st, cards, rules, rng):
    """Where a new follower goes: the site where it is worth most, what it brings towards an
    ability (enabling_value) less w_follower per follower it adds to what the opponent's
    expected attacks would take (expected_loss); equal worths: at random."""
    if sites_n(st, seat) == 1:
        return site_at(st, seat, 0)
    turns = turns_left(st, cards, rules, seat)
    action = action_value(prm, seat, st)
    chance = expect_attacks(st, cards, seat)
    n = sites_n(st, seat)
    for i in range(n):
        st[ix(ARRANGE + i)] = st[ix(FOLLOW + site_at(st, seat, i))]
    before = expected_loss(st, cards, seat, chance)
    choice = -1
    best = -np.inf
    ties = 0
    for i in range(n):
        site = site_at(st, seat, i)
        st[ix(ARRANGE + i)] += 1
        added = expected_loss(st, cards, seat, chance) - before
        st[ix(ARRANGE + i)] -= 1
        value = (
            enabling_value(prm, seat, st, cards, site, st[ix(FOLLOW + site)], turns, action)
            - prm[seat, W_FOLLOWER] * added
        )
        take, best, ties = better(value, best, ties, rng)
        if take:
            choice = site
    return choice


@njit(cache=True, _nrt=False)
def fill(st, cards, rules, seat, chance, count, rng):
    """Add ``count`` followers to ARRANGE one at a time, each where it adds least to what the
    attack being answered and the expected attacks would take (equal: at random)."""
    n = sites_n(st, seat)
    for _ in range(count):
        choice = -1
        best = -np.inf
        ties = 0
        for i in range(n):
            st[ix(ARRANGE + i)] += 1
            loss = pending_loss(st, cards, rules, seat) + expected_loss(st, cards, seat, chance)
            st[ix(ARRANGE + i)] -= 1
            take, best, ties = better(-loss, best, ties, rng)
            if take:
                choice = i
        st[ix(ARRANGE + choice)] += 1


@njit(cache=True, _nrt=False)
def shelter_cost(prm, seat, st, cards, rules, chance, action):
    """What the arrangement in ARRANGE costs the seat under attack: w_follower per follower the
    attack being answered and the expected attacks would take, plus one action (``action``) if
    it leaves an ability that can be used now short of followers (one relocation puts them
    back)."""
    loss = pending_loss(st, cards, rules, seat) + expected_loss(st, cards, seat, chance)
    short = 0.0
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        if st[ix(ARRANGE + i)] < st[ix(FOLLOW + site)] and not is_disabled(st, site):
            for ability in range(cards[ix(site), C_N_ABILITIES]):
                required = cards[ix(site), ix(C_ABILITIES + ABILITY_WIDTH * ability + A_FOLLOWERS)]
                if st[ix(ARRANGE + i)] < required <= st[ix(FOLLOW + site)]:
                    short = action
    return prm[seat, W_FOLLOWER] * loss + short


@njit(cache=True, _nrt=False)
def plan_shelter(prm, seat, st, cards, rules, rng):
    """A free relocation off the seat's turn (answering an attack, or any trigger): write into
    ARRANGE the cheaper (shelter_cost) of two arrangements, each filled follower by follower
    where it adds least to the losses: every site keeping the followers its abilities need, or
    none keeping any. Returns what it saves over the arrangement now (0 or more)."""
    chance = expect_attacks(st, cards, seat)
    action = action_value(prm, seat, st)
    n = sites_n(st, seat)
    for i in range(n):
        st[ix(ARRANGE + i)] = st[ix(FOLLOW + site_at(st, seat, i))]
    now = shelter_cost(prm, seat, st, cards, rules, chance, action)
    for i in range(n):
        st[ix(ARRANGE + i)] = 0
    fill(st, cards, rules, seat, chance, followers(st, seat), rng)
    free = shelter_cost(prm, seat, st, cards, rules, chance, action)
    surplus = 0
    for i in range(n):
        site = site_at(st, seat, i)
        st[ix(ARRANGE_ALT + i)] = st[ix(ARRANGE + i)]
        st[ix(ARRANGE + i)] = min(st[ix(FOLLOW + site)], max_requirement(st, site))
        surplus += st[ix(FOLLOW + site)] - st[ix(ARRANGE + i)]
    fill(st, cards, rules, seat, chance, surplus, rng)
    keep = shelter_cost(prm, seat, st, cards, rules, chance, action)
    if free < keep:
        for i in range(n):
            st[ix(ARRANGE + i)] = st[ix(ARRANGE_ALT + i)]
    return max(0.0, now - min(free, keep))


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
        plan_relocation(prm, seat, st, cards, rules, st[ACTIONS], rng)
    else:
        plan_shelter(prm, seat, st, cards, rules, rng)


# --- moves on the seat's turn ---------------------------------------------------------------


@njit(cache=True, _nrt=False)
def highest_stack(st, seat):
    """The highest level stack the seat may draw from that has cards, 0 if none."""
    for level in range(st[ix(LEVEL + seat)], 0, -1):
        if stack_left(st, level) > 0:
            return level
    return 0


@njit(cache=True, _nrt=False, inline="always")
def scripted_move(prm, seat, st, cards, rules, rng):
    """The move with the highest value per action, or END when none is worth anything."""
    actions = st[ACTIONS]
    kind = END
    a = -1
    b = -1
    best = 0.0
    turns = turns_left(st, cards, rules, seat)
    action = action_value(prm, seat, st)
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
            and relocation_value(prm, seat, sites_value_bound(prm, seat, st, cards) * turns) > best
        ):
            target_value, _, _ = relocation_target(
                prm, seat, st, cards, actions - 1, turns, action, best
            )
            value = relocation_value(prm, seat, target_value)
            if value > best:
                best, kind, a, b = value, RELOCATE, -1, -1
        # An upgrade costs at least 1 action: with none left, its cost is not worth working out.
        if st[ix(LEVEL + seat)] < N_LEVELS and upgrade_cost(st, cards, rules, seat) <= actions:
            value = upgrade_value(prm, seat, st, cards, rules)
            if not can_draw(st, seat) and stack_left(st, st[ix(LEVEL + seat)] + 1) > 0:
                value = np.inf  # first: the only way to draw again, and the end needs draws
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
        value = per_action(value, cost)
        if value > best:
            best, kind, a, b = value, PLAY, card, target
    if kind == GAIN:
        a = place_target(prm, seat, st, cards, rules, rng)
    return kind, a, b


@njit(cache=True, _nrt=False, inline="always")
def choose_move(sid, prm, seat, st, cards, rules, rng):
    """(move, a, b) for the seat on turn; see ``move_is_legal`` for the arguments."""
    if sid == RANDOM:
        total, _, _, _ = nth_move(st, cards, rules, seat, -1)
        _, kind, a, b = nth_move(st, cards, rules, seat, rand_below(rng, total))
        return kind, a, b
    return scripted_move(prm, seat, st, cards, rules, rng)


# --- choices while effects resolve ---------------------------------------------------------


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


@njit(cache=True, _nrt=False)
def choose_stack(sid, prm, seat, st, cards, rng):
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


@njit(cache=True, _nrt=False)
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
    action = action_value(prm, seat, st)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False, inline="always")
def choose_response(sid, prm, seat, trigger, st, cards, rules, rng):
    """(PASS, -1, -1), (REACT, card, -1) or (TRIGGERED, site, ability) answering ``trigger``.
    Scripted seats make the response worth the most (response_value; a reaction card less what
    a card in hand is worth, draw_value), none if none is worth anything; random ones answer
    half the time, uniformly."""
    if sid == RANDOM:
        return random_response(seat, trigger, st, cards, rng)
    kind = PASS
    a = -1
    b = -1
    best = 0.0
    for i in range(hand_n(st, seat)):
        card = hand_card(st, seat, i)
        if response_is_legal(st, cards, seat, trigger, REACT, card, -1):
            value = response_value(
                prm, seat, st, cards, rules, card, C_EFFECTS, cards[ix(card), C_N_EFFECTS], rng
            ) - draw_value(prm, seat, st)
            if value > best:
                best, kind, a, b = value, REACT, card, -1
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            if response_is_legal(st, cards, seat, trigger, TRIGGERED, site, ability):
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


@njit(cache=True, _nrt=False)
def random_response(seat, trigger, st, cards, rng):
    """Pass half the time, else any legal response, uniformly."""
    count = 0
    for i in range(hand_n(st, seat)):
        count += response_is_legal(st, cards, seat, trigger, REACT, hand_card(st, seat, i), -1)
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        for ability in range(cards[ix(site), C_N_ABILITIES]):
            count += response_is_legal(st, cards, seat, trigger, TRIGGERED, site, ability)
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


# --- the decision-point protocol (docs/protocol.md) ------------------------------------------


@njit(cache=True, _nrt=False)
def arrangement_planned(st, i):
    """Do the followers chosen for the relocating seat's first ``i`` sites follow the plan in
    st[ARRANGE]? (They do when this seat chose them; not when a search chose them.)"""
    for j in range(i):
        if st[ix(ARRANGE + j)] != st[ix(P_ARRANGE + j)]:
            return False
    return True


@njit(cache=True, _nrt=False)
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
        return choose_stack(sid, prm, seat, st, cards, rng)
    if kind == D_RECOVER:
        return choose_recover(sid, prm, seat, st, cards, rng)
    i = st[P_ARR_I]  # D_ARRANGE
    left = st[P_ARR_LEFT]
    if i == 0 or not arrangement_planned(st, i):
        choose_arrangement(sid, prm, seat, st, cards, rules, rng)
    if i == sites_n(st, seat) - 1:
        return left
    return min(max(st[ix(ARRANGE + i)], 0), left)
