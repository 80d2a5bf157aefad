"""Time Barons' rule helpers for cards and sites: where cards are (stacks, hands, sites in play,
the discard pile), followers, damage and destruction, the effects of cards and abilities, and the
bookkeeping of response windows and attacks.

Every rule is one helper that both flows call: the scripted games' straight-line turn
(simcore/games/time_barons/scripted.py), which asks the strategies directly, and the
decision-point protocol's steps (simcore/games/time_barons/rules.py), which pose the same
questions as decisions. Every function takes the game as (st, cards, rules, rng, trace) or a part
of it: the state, the card table, the encoded rules, the game's random stream, the trace buffer
(layouts in simcore/games/time_barons/state.py).
"""

import numpy as np
from numba import njit

from simcore.games.time_barons.state import (
    A_EFFECTS,
    A_N_EFFECTS,
    ABILITY_SITES,
    ABILITY_SITES_N,
    ABILITY_WIDTH,
    ACTIONS,
    ACTIVE,
    ANSWERS,
    ATTACK,
    ATTACK_ABILITY,
    C_ABILITIES,
    C_EFFECTS,
    C_MAX_FOLLOWERS,
    C_N_EFFECTS,
    CANCELLED,
    DAMAGE,
    DECAY,
    DECK,
    DISABLE,
    DISCARD,
    DISCARD_N,
    DRAW_EFFECT,
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
    E_REPAIR,
    E_SACRIFICE,
    E_STEAL,
    ENTERED,
    EV_ARRANGE,
    EV_ATTACH,
    EV_CANCEL,
    EV_DAMAGE,
    EV_DESTROY,
    EV_DISCARD,
    EV_DRAW,
    EV_KILL,
    EV_PLACE,
    EV_RECOVER,
    EV_REPAIR,
    EV_RESPONSE,
    EV_TARGET,
    FOLLOW,
    FORTIFY,
    FROM_HAND,
    FROM_PLAY,
    GONE,
    HAND,
    HAND_N,
    HOMELAND,
    HOST,
    IN_DISCARD,
    IN_HAND,
    IN_PLAY,
    INTEGRITY_MOD,
    LOC,
    MAX_CARDS,
    MAX_EFFECTS,
    MAX_IDS,
    N_FOLLOWERS,
    N_SEAT_STATS,
    NO_BOUND,
    NO_TARGET,
    OVER,
    OWNER,
    PICK_DAMAGE,
    PICK_DESTROY,
    PICK_KILL,
    PICK_PLACE,
    PICK_REPAIR,
    PICK_SACRIFICE,
    PICK_STEAL,
    POOL,
    R_DAMAGE_KILLS,
    REACT,
    REQUIRE,
    RESPONDED,
    SHOWN,
    SITE_DISCOUNT,
    SITES,
    SITES_BOUND,
    SITES_N,
    SPARE,
    ST_DAMAGE,
    ST_DESTROYED,
    ST_DRAWN,
    ST_DRAWN_MASK,
    ST_KILLS,
    ST_PLAYED,
    ST_PLAYED_MASK,
    STACK_TOP,
    STATS,
    SUPPLY,
    TARGETS,
    TRACE_LEN,
    TURN,
    UPGRADE_DISCOUNT,
    USED,
    VALUE_BOUND,
    answers,
    can_draw,
    hand_card,
    hand_has_room,
    hand_n,
    has_own_turn_ability,
    integrity,
    is_candidate,
    is_fortified,
    may_draw_from,
    site_at,
    site_discount,
    sites_n,
    spare_on,
)
from simcore.kernel.chunk import record_event
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below

# --- where cards are ------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def stat_add(st, seat, stat, amount):
    st[ix(STATS + N_SEAT_STATS * seat + stat)] += amount


@njit(cache=True, _nrt=False, forceinline=False)
def mark_card(st, seat, stat, mask_stat, card):
    """Count a level card as drawn or played by ``seat`` and set its bit in the seat's mask."""
    stat_add(st, seat, stat, 1)
    if card < MAX_CARDS:
        st[ix(STATS + N_SEAT_STATS * seat + mask_stat)] |= np.int64(1) << np.int64(card)


@njit(cache=True, _nrt=False, forceinline=False)
def hand_add(st, seat, card):
    st[HAND + MAX_IDS * seat + st[ix(HAND_N + seat)]] = card
    st[ix(HAND_N + seat)] += 1
    st[ix(LOC + card)] = IN_HAND
    st[ix(OWNER + card)] = seat
    st[ix(VALUE_BOUND + card)] = NO_BOUND  # it may have been another seat's
    st[ix(SHOWN + card)] = 0
    mark_card(st, seat, ST_DRAWN, ST_DRAWN_MASK, card)


# Inlined: a hand card or site leaves its list on most moves, and the call cost as much as the
# few steps of the search.
@inline_njit()
def list_remove(st, base, count_at, item):
    """Take ``item`` out of the list st[base : base + st[count_at]], keeping the others' order."""
    n = st[ix(count_at)]
    i = 0
    while i < n and st[ix(base + i)] != item:
        i += 1
    for j in range(base + i, base + n - 1):  # the items after it move up one place
        st[ix(j)] = st[ix(j + 1)]
    st[ix(count_at)] = n - 1


@njit(cache=True, _nrt=False, forceinline=False)
def hand_remove(st, seat, card):
    """Take ``card`` out of ``seat``'s hand, keeping the order of the others."""
    list_remove(st, HAND + MAX_IDS * seat, HAND_N + seat, card)
    st[ix(OWNER + card)] = -1
    st[ix(SHOWN + card)] = 0


@njit(cache=True, _nrt=False, forceinline=False)
def reset_card_facts(st, cards, card):
    """The card's cached facts (REQUIRE, SITE_DISCOUNT, ANSWERS) as the card table gives them,
    for a site with no attachments."""
    st[ix(REQUIRE + card)] = cards[ix(card), C_MAX_FOLLOWERS]
    st[ix(SITE_DISCOUNT + card)] = site_discount(cards, card)
    st[ix(ANSWERS + card)] = answers(cards, card)


@njit(cache=True, _nrt=False, forceinline=False)
def site_add(st, seat, site):
    """Put a site into play under ``seat``, with no followers, damage or attachments."""
    st[ix(UPGRADE_DISCOUNT + seat)] += st[ix(SITE_DISCOUNT + site)]
    st[SITES + MAX_IDS * seat + st[ix(SITES_N + seat)]] = site
    st[ix(SITES_N + seat)] += 1
    if has_own_turn_ability(st, site):
        st[ABILITY_SITES + MAX_IDS * seat + st[ix(ABILITY_SITES_N + seat)]] = site
        st[ix(ABILITY_SITES_N + seat)] += 1
        st[ix(SITES_BOUND + seat)] = NO_BOUND
    st[ix(LOC + site)] = IN_PLAY
    st[ix(OWNER + site)] = seat
    st[ix(ENTERED + site)] = st[TURN]
    st[ix(FOLLOW + site)] = 0
    st[ix(DAMAGE + site)] = 0
    st[ix(USED + site)] = 0
    st[ix(RESPONDED + site)] = 0
    st[ix(INTEGRITY_MOD + site)] = 0
    st[ix(FORTIFY + site)] = 0
    st[ix(DISABLE + site)] = 0
    st[ix(DECAY + site)] = 0
    st[ix(VALUE_BOUND + site)] = NO_BOUND  # its owner may differ from the last time it was in play


@njit(cache=True, _nrt=False, forceinline=False)
def site_remove(st, seat, site):
    list_remove(st, SITES + MAX_IDS * seat, SITES_N + seat, site)
    if has_own_turn_ability(st, site):
        list_remove(st, ABILITY_SITES + MAX_IDS * seat, ABILITY_SITES_N + seat, site)
        st[ix(SITES_BOUND + seat)] = NO_BOUND


@njit(cache=True, _nrt=False, forceinline=False)
def discard_add(st, card):
    st[DISCARD + st[DISCARD_N]] = card
    st[DISCARD_N] += 1
    st[ix(LOC + card)] = IN_DISCARD
    st[ix(OWNER + card)] = -1
    st[ix(HOST + card)] = -1


@njit(cache=True, _nrt=False, forceinline=False)
def discard_take(st, i):
    """Remove the ``i``-th card of the discard pile (oldest first) and return it."""
    card = st[ix(DISCARD + i)]
    for j in range(i + 1, st[DISCARD_N]):
        st[ix(DISCARD + j - 1)] = st[ix(DISCARD + j)]
    st[DISCARD_N] -= 1
    return card


@njit(cache=True, _nrt=False, forceinline=False)
def draw_card(seat, level, cause, st, trace):
    """The top card of the ``level`` stack into ``seat``'s hand."""
    card = st[DECK + st[ix(STACK_TOP + level - 1)]]
    st[ix(STACK_TOP + level - 1)] += 1
    hand_add(st, seat, card)
    record_event(trace, st, TRACE_LEN, EV_DRAW, seat, card, level, cause)


# --- followers, damage, destruction ---------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def set_spare_input(st, site, field, value):
    """Set ``st[field + site]`` of the site in play, where ``field`` is FOLLOW or REQUIRE (the
    two inputs of ``spare_on``), keeping its owner's SPARE."""
    owner = st[ix(OWNER + site)]
    st[ix(SPARE + owner)] -= spare_on(st, site)
    st[ix(field + site)] = value
    st[ix(SPARE + owner)] += spare_on(st, site)


@njit(cache=True, _nrt=False, forceinline=False)
def set_followers(st, site, count):
    """Put ``count`` followers on the site in play, keeping its owner's SPARE."""
    set_spare_input(st, site, FOLLOW, count)


@njit(cache=True, _nrt=False, forceinline=False)
def move_followers(site, amount, st):
    """Add ``amount`` (negative: remove) followers to ``site``; a seat left with none ends the
    game (checked wherever followers leave, so the game stops at once)."""
    owner = st[ix(OWNER + site)]
    set_followers(st, site, st[ix(FOLLOW + site)] + amount)
    st[ix(N_FOLLOWERS + owner)] += amount
    if st[ix(N_FOLLOWERS + owner)] == 0:
        st[OVER] = 1


@njit(cache=True, _nrt=False, forceinline=False)
def place_from_supply(seat, site, amount, st, trace):
    """Up to ``amount`` followers from the supply onto ``site`` (what the supply has)."""
    amount = min(amount, st[SUPPLY])
    if amount > 0:
        st[SUPPLY] -= amount
        move_followers(site, amount, st)
        record_event(trace, st, TRACE_LEN, EV_PLACE, seat, site, amount, -1)


@njit(cache=True, _nrt=False, forceinline=False)
def credit(st, by, victim, stat, amount):
    """Count harm done by ``by`` (a seat, or -1 for nobody) to the other seat's things."""
    if by >= 0 and by != victim:
        stat_add(st, by, stat, amount)


@njit(cache=True, _nrt=False, forceinline=False)
def kill_on(site, amount, by, st, trace):
    """Kill up to ``amount`` followers on ``site`` (they return to the supply)."""
    amount = min(amount, st[ix(FOLLOW + site)])
    if amount > 0:
        owner = st[ix(OWNER + site)]
        move_followers(site, -amount, st)
        st[SUPPLY] += amount
        credit(st, by, owner, ST_KILLS, amount)
        record_event(trace, st, TRACE_LEN, EV_KILL, site, owner, amount)


@njit(cache=True, _nrt=False, forceinline=False)
def destroy_site(site, by, st, cards, trace):
    """Kill its followers, return its counters, discard it and its attachments (a Homeland is
    removed from the game instead of discarded)."""
    owner = st[ix(OWNER + site)]
    killed = st[ix(FOLLOW + site)]
    counters = st[ix(DAMAGE + site)]
    if killed > 0:
        move_followers(site, -killed, st)
    st[SUPPLY] += killed
    st[POOL] += counters
    st[ix(DAMAGE + site)] = 0
    credit(st, by, owner, ST_KILLS, killed)
    credit(st, by, owner, ST_DESTROYED, 1)
    record_event(trace, st, TRACE_LEN, EV_DESTROY, site, owner, killed, counters)
    for card in range(MAX_IDS):
        if st[ix(LOC + card)] == IN_PLAY and st[ix(HOST + card)] == site:
            holder = st[ix(OWNER + card)]
            discard_add(st, card)
            record_event(trace, st, TRACE_LEN, EV_DISCARD, card, holder, FROM_PLAY)
    site_remove(st, owner, site)
    st[ix(UPGRADE_DISCOUNT + owner)] -= st[ix(SITE_DISCOUNT + site)]
    reset_card_facts(st, cards, site)
    if site >= HOMELAND:
        st[ix(LOC + site)] = GONE
        st[ix(OWNER + site)] = -1
    else:
        discard_add(st, site)
        record_event(trace, st, TRACE_LEN, EV_DISCARD, site, owner, FROM_PLAY)


@njit(cache=True, _nrt=False, forceinline=False)
def check_destroyed(site, by, st, cards, trace):
    """A site whose damage counters reach its integrity is destroyed."""
    if st[ix(LOC + site)] == IN_PLAY and st[ix(DAMAGE + site)] >= integrity(st, cards, site):
        destroy_site(site, by, st, cards, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def damage_site(site, amount, by, st, cards, rules, trace):
    """Kill ``amount`` followers on the site (none if it is fortified, or under rule
    damage_kills off) and place ``amount`` damage counters (as many as the pool has); destroy it
    if they reach its integrity."""
    owner = st[ix(OWNER + site)]
    killed = 0
    if rules[R_DAMAGE_KILLS] != 0.0 and not is_fortified(st, cards, site):
        killed = min(amount, st[ix(FOLLOW + site)])
        if killed > 0:
            move_followers(site, -killed, st)
            st[SUPPLY] += killed
    placed = min(amount, st[POOL])
    st[POOL] -= placed
    st[ix(DAMAGE + site)] += placed
    credit(st, by, owner, ST_DAMAGE, amount)
    credit(st, by, owner, ST_KILLS, killed)
    record_event(trace, st, TRACE_LEN, EV_DAMAGE, site, owner, amount, placed, killed)
    check_destroyed(site, by, st, cards, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def attach(card, site, seat, st, cards, trace):
    """``seat``'s attachment onto ``site`` (either player's): its effects apply while attached."""
    st[ix(LOC + card)] = IN_PLAY
    st[ix(OWNER + card)] = seat
    st[ix(HOST + card)] = site
    for k in range(cards[ix(card), C_N_EFFECTS]):
        op = cards[ix(card), ix(C_EFFECTS + 2 * k)]
        n = cards[ix(card), ix(C_EFFECTS + 2 * k + 1)]
        if op == E_INTEGRITY:
            st[ix(INTEGRITY_MOD + site)] += n
        elif op == E_FORTIFY:
            st[ix(FORTIFY + site)] += 1
        elif op == E_DISABLE:
            st[ix(DISABLE + site)] += 1
            set_spare_input(st, site, REQUIRE, 0)
            st[UPGRADE_DISCOUNT + st[ix(OWNER + site)]] -= st[ix(SITE_DISCOUNT + site)]
            st[ix(SITE_DISCOUNT + site)] = 0
        elif op == E_DECAY:
            st[ix(DECAY + site)] += n
    record_event(trace, st, TRACE_LEN, EV_ATTACH, card, site, seat)
    check_destroyed(site, seat, st, cards, trace)


# --- effects --------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def check_site(st, seat, purpose, site):
    """A site chosen for ``purpose`` must be a candidate."""
    if not is_candidate(st, seat, purpose, site):
        raise ValueError("strategy chose a site it cannot choose")


@njit(cache=True, _nrt=False, forceinline=False)
def has_candidate(st, seat, purpose):
    owner = 1 - seat if purpose <= PICK_STEAL else seat
    for i in range(sites_n(st, owner)):
        if is_candidate(st, seat, purpose, site_at(st, owner, i)):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def arrange(seat, base, st, trace):
    """Put st[base + i] followers on the seat's i-th site (a checked relocation)."""
    for i in range(sites_n(st, seat)):
        site = site_at(st, seat, i)
        set_followers(st, site, st[ix(base + i)])
        record_event(trace, st, TRACE_LEN, EV_ARRANGE, seat, site, st[ix(base + i)])


CHOOSE_NOW = -2  # apply_effect's target: the owner chooses the site as the effect resolves


@njit(cache=True, _nrt=False, forceinline=False)
def site_purpose(op):
    """What an effect chooses sites for (PICK_*), -1 for an effect that chooses none."""
    if op == E_DAMAGE:
        return PICK_DAMAGE
    if op == E_DESTROY:
        return PICK_DESTROY
    if op == E_KILL:
        return PICK_KILL
    if op == E_STEAL:
        return PICK_STEAL
    if op == E_GAIN:
        return PICK_PLACE
    if op == E_REPAIR:
        return PICK_REPAIR
    if op == E_SACRIFICE:
        return PICK_SACRIFICE
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def takes_units(op):
    """Effects that take, place or draw n things one at a time, a choice each."""
    return (
        op == E_KILL or op == E_STEAL or op == E_GAIN or op == E_DRAW or op == E_REPAIR
        or op == E_RECOVER or op == E_SACRIFICE
    )  # fmt: skip


@njit(cache=True, _nrt=False, forceinline=False)
def unit_possible(seat, op, st, rules):
    """Can such an effect take its next one? When not, it ends (the game may have ended, or
    nothing is left to take)."""
    if op == E_KILL or op == E_STEAL or op == E_SACRIFICE:
        return st[OVER] == 0 and has_candidate(st, seat, site_purpose(op))
    if op == E_GAIN:
        return st[SUPPLY] > 0 and sites_n(st, seat) > 0
    if op == E_DRAW:
        return can_draw(st, rules, seat) and hand_has_room(st, rules, seat)
    if op == E_REPAIR:
        return has_candidate(st, seat, PICK_REPAIR)
    return st[DISCARD_N] > 0 and hand_has_room(st, rules, seat)  # E_RECOVER


@njit(cache=True, _nrt=False, forceinline=False)
def check_unit_choice(seat, op, choice, st, rules):
    """The choice for one unit of such an effect: a stack (draw), a pile index (recover) or a
    site, one the effect may take."""
    if op == E_DRAW:
        if not may_draw_from(st, rules, seat, choice):
            raise ValueError("strategy drew from a stack it cannot draw from")
    elif op == E_RECOVER:
        if choice < 0 or choice >= st[DISCARD_N]:
            raise ValueError("strategy recovered a card that is not in the discard pile")
    else:
        check_site(st, seat, site_purpose(op), choice)


@njit(cache=True, _nrt=False, forceinline=False)
def unit_apply(seat, op, choice, to_site, st, cards, trace):
    """One unit of such an effect on the chosen stack, pile index or site (a steal: from
    ``choice`` to ``to_site``)."""
    if op == E_KILL or op == E_SACRIFICE:
        kill_on(choice, 1, seat, st, trace)
    elif op == E_STEAL:
        move_followers(choice, -1, st)
        move_followers(to_site, 1, st)
        record_event(trace, st, TRACE_LEN, EV_PLACE, seat, to_site, 1, choice)
    elif op == E_GAIN:
        place_from_supply(seat, choice, 1, st, trace)
    elif op == E_DRAW:
        draw_card(seat, choice, DRAW_EFFECT, st, trace)
    elif op == E_REPAIR:
        st[ix(DAMAGE + choice)] -= 1
        st[POOL] += 1
        record_event(trace, st, TRACE_LEN, EV_REPAIR, choice, seat, 1)
    else:  # E_RECOVER
        card = discard_take(st, choice)
        hand_add(st, seat, card)
        st[ix(SHOWN + card)] = 1  # taken from the public pile: both players know it
        record_event(trace, st, TRACE_LEN, EV_RECOVER, seat, card)


@njit(cache=True, _nrt=False, forceinline=False)
def named_site(seat, purpose, target, st):
    """The site an attack named for a damage or destroy effect, if the effect may still hit it,
    else -1."""
    return target if is_candidate(st, seat, purpose, target) else -1


@njit(cache=True, _nrt=False, forceinline=False)
def hit_site(seat, op, n, site, st, cards, rules, trace):
    """A damage or destroy effect on its site."""
    if op == E_DAMAGE:
        damage_site(site, n, seat, st, cards, rules, trace)
    else:
        destroy_site(site, seat, st, cards, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def effect_now(seat, op, n, st, cards, rules, rng, trace):
    """The effects nobody chooses anything for (the discarded cards are random)."""
    other = 1 - seat
    if op == E_DAMAGE_EACH:
        # Backwards: a destroyed site only shifts the sites after it, already done.
        for i in range(sites_n(st, other) - 1, -1, -1):
            if st[OVER] == 1:
                return
            damage_site(site_at(st, other, i), n, seat, st, cards, rules, trace)
    elif op == E_KILL_EVERYWHERE:
        for owner in (seat, other):
            for i in range(sites_n(st, owner)):
                kill_on(site_at(st, owner, i), n, seat, st, trace)
    elif op == E_ACTIONS:
        if st[ACTIVE] == seat:  # actions gained on the opponent's turn are lost
            st[ACTIONS] += n
    elif op == E_DISCARD:
        for _ in range(n):  # the discarded cards are random: the hand is hidden from the owner
            if hand_n(st, other) == 0:
                return
            card = hand_card(st, other, rand_below(rng, hand_n(st, other)))
            hand_remove(st, other, card)
            discard_add(st, card)
            record_event(trace, st, TRACE_LEN, EV_DISCARD, card, other, FROM_HAND)
    elif op == E_CANCEL:
        st[CANCELLED] = 1


@njit(cache=True, _nrt=False, forceinline=False)
def effect_of(st, cards, source, base, k, declared):
    """(op, n, target) of the k-th effect at ``cards[source, base:]``; the target is the site
    the attack named (``declared``) or CHOOSE_NOW."""
    op = cards[ix(source), ix(base + 2 * k)]
    n = cards[ix(source), ix(base + 2 * k + 1)]
    return op, n, st[ix(TARGETS + k)] if declared else CHOOSE_NOW


# --- responses on the opponent's turn -------------------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def open_window(seat, st):
    """A response window opens for ``seat``: each triggered ability once per window."""
    for i in range(sites_n(st, seat)):
        st[ix(RESPONDED + site_at(st, seat, i))] = 0


@njit(cache=True, _nrt=False, forceinline=False)
def start_response(seat, kind, a, b, trigger, st, cards, trace):
    """A legal answer is made: a reaction card leaves the hand, a triggered ability is used for
    this window. Returns where its effects are: (column, how many)."""
    record_event(trace, st, TRACE_LEN, EV_RESPONSE, seat, kind, a, b, trigger)
    if kind == REACT:
        hand_remove(st, seat, a)
        mark_card(st, seat, ST_PLAYED, ST_PLAYED_MASK, a)
        return C_EFFECTS, cards[ix(a), C_N_EFFECTS]
    st[ix(RESPONDED + a)] |= np.int64(1) << np.int64(b)
    base = C_ABILITIES + ABILITY_WIDTH * b
    return base + A_EFFECTS, cards[ix(a), ix(base + A_N_EFFECTS)]


@njit(cache=True, _nrt=False, forceinline=False)
def discard_played(card, seat, st, trace):
    """A played event or reaction (or an attachment that could not attach) is discarded."""
    discard_add(st, card)
    record_event(trace, st, TRACE_LEN, EV_DISCARD, card, seat, FROM_PLAY)


@njit(cache=True, _nrt=False, forceinline=False)
def window_closed(st, trace):
    """After an attack's response window: was it cancelled?"""
    cancelled = st[CANCELLED] == 1
    st[CANCELLED] = 0
    if cancelled:
        record_event(trace, st, TRACE_LEN, EV_CANCEL, st[ACTIVE])
    return cancelled


@njit(cache=True, _nrt=False, forceinline=False)
def open_attack(source, ability, st):
    """Make the attack public for the response window: its card or site, its ability (-1: the
    card's own effects), no site named yet."""
    st[ATTACK] = source
    st[ATTACK_ABILITY] = ability
    for k in range(MAX_EFFECTS):
        st[TARGETS + k] = NO_TARGET


@njit(cache=True, _nrt=False, forceinline=False)
def effects_at(cards, source, ability):
    """(column, how many) of the effects of a card (``ability`` -1) or of a site's ability."""
    if ability < 0:
        return C_EFFECTS, cards[ix(source), C_N_EFFECTS]
    base = C_ABILITIES + ABILITY_WIDTH * ability
    return base + A_EFFECTS, cards[ix(source), ix(base + A_N_EFFECTS)]


@njit(cache=True, _nrt=False, forceinline=False)
def to_name(seat, source, base, k, st, cards):
    """The purpose (PICK_DAMAGE, PICK_DESTROY) of the site the attacker names for the attack's
    k-th effect, -1 if that effect names none or has no candidate."""
    op = cards[ix(source), ix(base + 2 * k)]
    purpose = site_purpose(op)
    if (op == E_DAMAGE or op == E_DESTROY) and has_candidate(st, seat, purpose):
        return purpose
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def name_site(seat, k, site, st, trace):
    st[ix(TARGETS + k)] = site
    record_event(trace, st, TRACE_LEN, EV_TARGET, seat, st[ATTACK], k, site)


@njit(cache=True, _nrt=False, forceinline=False)
def attachment_lands(card, site, seat, cancelled, st, cards, trace):
    """An attachment after its attack (if any): discarded if cancelled, or if a response
    destroyed its site (nothing to attach to); else attached."""
    if cancelled or st[ix(LOC + site)] != IN_PLAY:
        discard_played(card, seat, st, trace)
    else:
        attach(card, site, seat, st, cards, trace)
