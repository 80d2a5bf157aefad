"""Where a scripted Time Barons seat puts its followers: relocations that staff the abilities
worth most, the losses the opponent's attacks would cause (exposure), where gained followers go,
and ``choose_arrangement`` (a whole relocation, planned in st[ARRANGE])."""

import numpy as np
from numba import njit

from simcore.games.time_barons.state import (
    A_COST,
    A_EFFECTS,
    A_FOLLOWERS,
    A_N_EFFECTS,
    A_TRIGGER,
    ABILITY_WIDTH,
    ACTIONS,
    ACTIVE,
    ARRANGE,
    ARRANGE_ALT,
    ATTACHMENT,
    ATTACK,
    ATTACK_ABILITY,
    C_ABILITIES,
    C_EFFECTS,
    C_LEVEL,
    C_N_ABILITIES,
    C_N_EFFECTS,
    C_TYPE,
    DAMAGE,
    E_DAMAGE,
    E_DAMAGE_EACH,
    E_DECAY,
    E_DESTROY,
    E_INTEGRITY,
    E_KILL_EVERYWHERE,
    EVENT,
    FOLLOW,
    HOMELAND,
    IN_HAND,
    IN_STACK,
    LEVEL,
    LOC,
    NO_ATTACK,
    NO_TARGET,
    NO_TRIGGER,
    OWNER,
    R_ATTACK_TARGETS,
    S_N_CARDS,
    SET_ROW,
    SHOWN,
    SPARE,
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
    USED,
    ability_site_at,
    ability_sites_n,
    followers,
    hand_n,
    integrity,
    is_disabled,
    is_fortified,
    max_requirement,
    site_at,
    sites_n,
)
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below
from strategies.time_barons.catalog import RANDOM, W_FOLLOWER, W_RELOCATE
from strategies.time_barons.values import (
    ability_income,
    action_value,
    attachment_effect,
    better,
    turns_left,
    value_bound,
)

# --- relocation ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def spare(st, cards, seat, i):
    """Followers in ARRANGE on the seat's ``i``-th site beyond its own requirement."""
    return max(0, st[ix(ARRANGE + i)] - max_requirement(st, site_at(st, seat, i)))


@njit(cache=True, _nrt=False, forceinline=False)
def relocation_value(prm, seat, value):
    """What a relocation enabling an ability worth ``value`` over the game is worth as a move."""
    return prm[seat, W_RELOCATE] * value


@inline_njit()
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


@njit(cache=True, _nrt=False, forceinline=False)
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
        action_value(prm, seat, st, rules),
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


@njit(cache=True, _nrt=False, forceinline=False)
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


# Inlined: called once per effect of every card ``expect_attacks`` counts;
# a call passing the game's arrays cost about as much as its work.
@inline_njit()
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


@njit(cache=True, _nrt=False, forceinline=False)
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


# Inlined: called once per site for every attack ``attack_loss`` weighs;
# a call passing the game's arrays cost about as much as its work.
@inline_njit()
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


# Inlined: called once per attack for every arrangement weighed;
# a call passing the game's arrays cost about as much as its work.
@inline_njit()
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


# Inlined: called once per site for every arrangement weighed;
# a call passing the game's arrays cost about as much as its work.
@inline_njit()
def focused_loss(st, cards, site, count, mean, none):
    """Followers of ``count`` on ``site`` expected lost to damage whose amount is Poisson with
    this mean: it kills up to the amount (none on a fortified site) unless it destroys the site,
    which takes them all. ``none``: np.exp(-mean), the chance of no damage, which the caller
    works out once for all its sites (the exponential was a fifth of a scripted game)."""
    left = integrity(st, cards, site) - st[ix(DAMAGE + site)]
    fortified = is_fortified(st, cards, site)
    chance = none  # of the amount d, from 0 up
    survive = 0.0
    kills = 0.0
    for d in range(max(left, 0)):
        survive += chance
        if not fortified:
            kills += chance * min(d, count)
        chance *= mean / (d + 1)
    return kills + (1.0 - survive) * count


@njit(cache=True, _nrt=False, forceinline=False)
def threat_damage(st, chance):
    """(the damage the attacks in THREAT do together, np.exp of minus it): ``expected_loss``'s
    mean and its chance of no damage, which depend on THREAT and ``chance`` alone, not on the
    arrangement, so each caller works them out once for all the arrangements it weighs (the
    exponential, once per site and arrangement, was a fifth of a scripted game)."""
    damage = 0.0
    for j in range(st[THREAT_N]):
        entry = THREAT + THREAT_WIDTH * j
        if st[ix(entry + THREAT_KIND)] == T_DAMAGE:
            weight = st[ix(entry + THREAT_SURE)] + chance * st[ix(entry + THREAT_HIDDEN)]
            damage += weight * st[ix(entry + THREAT_AMOUNT)]
    return damage, np.exp(-damage)


# Inlined: called once per arrangement weighed;
# a call passing the game's arrays cost about as much as its work.
@inline_njit()
def spread_loss(st, cards, seat, chance):
    """``expected_loss`` of the attacks in THREAT other than damage, each on its own."""
    loss = 0.0
    for j in range(st[THREAT_N]):
        entry = THREAT + THREAT_WIDTH * j
        kind = st[ix(entry + THREAT_KIND)]
        if kind != T_DAMAGE:
            weight = st[ix(entry + THREAT_SURE)] + chance * st[ix(entry + THREAT_HIDDEN)]
            amount = st[ix(entry + THREAT_AMOUNT)]
            loss += weight * attack_loss(st, cards, seat, kind, amount, NO_TARGET)
    return loss


@njit(cache=True, _nrt=False, forceinline=False)
def focused_top(st, cards, seat, damage, none):
    """(the largest focused_loss of the damage on the seat's sites as arranged in ARRANGE, at
    least 0.0; the index of its site, -1 if none is above 0.0; the largest of the other sites',
    at least 0.0). When one site gains a follower, the most the damage takes is the larger of
    that site's new loss and the others' largest, which did not change: ``place_target`` and
    ``fill`` weigh one more follower on each site with one focused_loss each, not one a site."""
    top = 0.0
    at = -1
    second = 0.0
    for i in range(sites_n(st, seat)):
        value = focused_loss(st, cards, site_at(st, seat, i), st[ix(ARRANGE + i)], damage, none)
        if value > top:
            second = top
            top = value
            at = i
        elif value > second:
            second = value
    return top, at, second


@njit(cache=True, _nrt=False, forceinline=False)
def expected_loss(st, cards, seat, chance, damage, none):
    """Followers the seat, arranged as in ARRANGE, can expect to lose to the attacks in THREAT
    (expect_attacks; ``chance``: that a hidden card is a given unseen one): its damage together
    (``damage``, ``none`` from ``threat_damage``) on the one site where it takes most (an
    attacker focuses, and counters add up to destruction), its amount uncertain (Poisson with
    the expected amount as mean: the more integrity a site has left, the less likely it falls);
    each other attack on its own (spread_loss)."""
    loss = spread_loss(st, cards, seat, chance)
    if damage > 0.0:
        worst, _, _ = focused_top(st, cards, seat, damage, none)
        loss += worst
    return loss


@njit(cache=True, _nrt=False, forceinline=False)
def expected_loss_raised(st, cards, seat, chance, damage, none, i, top, at, second):
    """``expected_loss`` once the caller has put one more follower in ARRANGE on the seat's
    ``i``-th site, ``focused_top`` (top, at, second) taken before: the same value."""
    loss = spread_loss(st, cards, seat, chance)
    if damage > 0.0:
        others = second if i == at else top
        raised = focused_loss(st, cards, site_at(st, seat, i), st[ix(ARRANGE + i)], damage, none)
        loss += max(others, raised)
    return loss


@njit(cache=True, _nrt=False, forceinline=False)
def attack_effects(st, cards):
    """(card, first effect column, number of effects) of the attack being answered."""
    source = st[ATTACK]
    ability = st[ATTACK_ABILITY]
    if ability < 0:
        return source, C_EFFECTS, cards[ix(source), C_N_EFFECTS]
    base = C_ABILITIES + ABILITY_WIDTH * ability
    return source, base + A_EFFECTS, cards[ix(source), ix(base + A_N_EFFECTS)]


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def place_target(prm, seat, st, cards, rules, rng):
    """Where a new follower goes: the site where it is worth most, what it brings towards an
    ability (enabling_value) less w_follower per follower it adds to what the opponent's
    expected attacks would take (expected_loss); equal worths: at random."""
    if sites_n(st, seat) == 1:
        return site_at(st, seat, 0)
    turns = turns_left(st, cards, rules, seat)
    action = action_value(prm, seat, st, rules)
    chance = expect_attacks(st, cards, seat)
    damage, none = threat_damage(st, chance)
    n = sites_n(st, seat)
    for i in range(n):
        st[ix(ARRANGE + i)] = st[ix(FOLLOW + site_at(st, seat, i))]
    before = expected_loss(st, cards, seat, chance, damage, none)
    top, at, second = focused_top(st, cards, seat, damage, none)
    choice = -1
    best = -np.inf
    ties = 0
    for i in range(n):
        site = site_at(st, seat, i)
        st[ix(ARRANGE + i)] += 1
        added = expected_loss_raised(st, cards, seat, chance, damage, none, i, top, at, second)
        added -= before
        st[ix(ARRANGE + i)] -= 1
        value = (
            enabling_value(prm, seat, st, cards, site, st[ix(FOLLOW + site)], turns, action)
            - prm[seat, W_FOLLOWER] * added
        )
        take, best, ties = better(value, best, ties, rng)
        if take:
            choice = site
    return choice


@njit(cache=True, _nrt=False, forceinline=False)
def fill(st, cards, rules, seat, chance, damage, none, count, rng):
    """Add ``count`` followers to ARRANGE one at a time, each where it adds least to what the
    attack being answered and the expected attacks would take (equal: at random)."""
    n = sites_n(st, seat)
    for _ in range(count):
        choice = -1
        best = -np.inf
        ties = 0
        top, at, second = focused_top(st, cards, seat, damage, none)
        for i in range(n):
            st[ix(ARRANGE + i)] += 1
            loss = pending_loss(st, cards, rules, seat) + expected_loss_raised(
                st, cards, seat, chance, damage, none, i, top, at, second
            )
            st[ix(ARRANGE + i)] -= 1
            take, best, ties = better(-loss, best, ties, rng)
            if take:
                choice = i
        st[ix(ARRANGE + choice)] += 1


@njit(cache=True, _nrt=False, forceinline=False)
def shelter_cost(prm, seat, st, cards, rules, chance, damage, none, action):
    """What the arrangement in ARRANGE costs the seat under attack: w_follower per follower the
    attack being answered and the expected attacks would take, plus one action (``action``) if
    it leaves an ability that can be used now short of followers (one relocation puts them
    back)."""
    loss = pending_loss(st, cards, rules, seat) + expected_loss(
        st, cards, seat, chance, damage, none
    )
    short = 0.0
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        if st[ix(ARRANGE + i)] < st[ix(FOLLOW + site)] and not is_disabled(st, site):
            for ability in range(cards[ix(site), C_N_ABILITIES]):
                required = cards[ix(site), ix(C_ABILITIES + ABILITY_WIDTH * ability + A_FOLLOWERS)]
                if st[ix(ARRANGE + i)] < required <= st[ix(FOLLOW + site)]:
                    short = action
    return prm[seat, W_FOLLOWER] * loss + short


@njit(cache=True, _nrt=False, forceinline=False)
def plan_shelter(prm, seat, st, cards, rules, rng):
    """A free relocation off the seat's turn (answering an attack, or any trigger): write into
    ARRANGE the cheaper (shelter_cost) of two arrangements, each filled follower by follower
    where it adds least to the losses: every site keeping the followers its abilities need, or
    none keeping any. Returns what it saves over the arrangement now (0 or more)."""
    chance = expect_attacks(st, cards, seat)
    damage, none = threat_damage(st, chance)
    action = action_value(prm, seat, st, rules)
    n = sites_n(st, seat)
    for i in range(n):
        st[ix(ARRANGE + i)] = st[ix(FOLLOW + site_at(st, seat, i))]
    now = shelter_cost(prm, seat, st, cards, rules, chance, damage, none, action)
    for i in range(n):
        st[ix(ARRANGE + i)] = 0
    fill(st, cards, rules, seat, chance, damage, none, followers(st, seat), rng)
    free = shelter_cost(prm, seat, st, cards, rules, chance, damage, none, action)
    surplus = 0
    for i in range(n):
        site = site_at(st, seat, i)
        st[ix(ARRANGE_ALT + i)] = st[ix(ARRANGE + i)]
        st[ix(ARRANGE + i)] = min(st[ix(FOLLOW + site)], max_requirement(st, site))
        surplus += st[ix(FOLLOW + site)] - st[ix(ARRANGE + i)]
    fill(st, cards, rules, seat, chance, damage, none, surplus, rng)
    keep = shelter_cost(prm, seat, st, cards, rules, chance, damage, none, action)
    if free < keep:
        for i in range(n):
            st[ix(ARRANGE + i)] = st[ix(ARRANGE_ALT + i)]
    return max(0.0, now - min(free, keep))


@njit(cache=True, _nrt=False, forceinline=False)
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
