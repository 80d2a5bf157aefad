"""What things are worth to a scripted Time Barons seat: a draw, an upgrade, an action, the
effects of a card or ability, a site, an attachment; the cached upper bounds on what a card is
worth (VALUE_BOUND); and the random tie-break between equal values."""

import numpy as np
from numba import njit

from simcore.games.time_barons.state import (
    A_COST,
    A_EFFECTS,
    A_FOLLOWERS,
    A_N_EFFECTS,
    A_TRIGGER,
    ABILITY_WIDTH,
    ACTIVE,
    ATTACHMENT,
    C_ABILITIES,
    C_EFFECTS,
    C_N_ABILITIES,
    C_N_EFFECTS,
    C_TYPE,
    DAMAGE,
    DISCARD_N,
    E_ACTIONS,
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
    E_START_ACTIONS,
    E_START_GAIN,
    E_STEAL,
    E_UPGRADE_DISCOUNT,
    FOLLOW,
    HOMELAND,
    LEVEL,
    N_LEVELS,
    NO_BOUND,
    NO_TRIGGER,
    R_HAND,
    R_STACKS_TO_END,
    S_N_CARDS,
    SET_ROW,
    SITE,
    SITES_BOUND,
    SUPPLY,
    TURN,
    VALUE_BOUND,
    ability_site_at,
    ability_sites_n,
    can_draw,
    followers,
    hand_n,
    integrity,
    site_at,
    sites_n,
    stack_left,
    upgrade_cost,
)
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below
from strategies.time_barons.catalog import (
    HAND_SIZE,
    W_ATTACK,
    W_DRAW,
    W_FOLLOWER,
    W_SITE,
    W_UPGRADE,
)

FREE_MOVE_BONUS = 2.0  # a move costing no action is valued as if it cost half of one
SURPLUS_DRAW = 0.3  # share of w_draw a draw is worth once the hand holds hand_size cards
TIE = 1e-9  # values closer than this are equal: the choice among them is random


@njit(cache=True, _nrt=False, forceinline=False)
def draw_value(prm, seat, st):
    """w_draw below hand_size, or when leading in followers (drawing races the stacks' end)."""
    if hand_n(st, seat) < prm[seat, HAND_SIZE] or followers(st, seat) > followers(st, 1 - seat):
        return prm[seat, W_DRAW]
    return SURPLUS_DRAW * prm[seat, W_DRAW]


@njit(cache=True, _nrt=False, forceinline=False)
def drawable(st, seat):
    """Cards left in the stacks the seat may draw from."""
    n = 0
    for level in range(1, st[ix(LEVEL + seat)] + 1):
        n += stack_left(st, level)
    return n


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@njit(cache=True, _nrt=False, forceinline=False)
def upgrade_value(prm, seat, st, cards, rules):
    """What an upgrade is worth per action it costs: the cards of the next level's stack the
    seat can still draw (its share of the cards_to_end, at most what that stack holds), each
    worth w_upgrade more than the card it would draw otherwise, or a whole draw (draw_value)
    when no stack at its levels has cards left."""
    level = st[ix(LEVEL + seat)]
    access = min(stack_left(st, level + 1), cards_to_end(st, rules) / 2.0)
    premium = prm[seat, W_UPGRADE]
    if not can_draw(st, rules, seat):
        premium = max(premium, draw_value(prm, seat, st))
    return premium * access / upgrade_cost(st, cards, rules, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def action_value(prm, seat, st, rules):
    """What an action is worth to the seat when nothing better is on offer: the better of a
    follower gained and a card drawn, of those it can make (0 if neither)."""
    value = 0.0
    if st[SUPPLY] > 0 and sites_n(st, seat) > 0:
        value = prm[seat, W_FOLLOWER]
    if can_draw(st, rules, seat):
        value = max(value, draw_value(prm, seat, st))
    return value


@njit(cache=True, _nrt=False, forceinline=False)
def better(value, best, ties, rng):
    """Running choice of the highest value, equal values taken uniformly at random from the
    game's stream: (take this one?, best so far, how many share it)."""
    if value > best + TIE:
        return True, value, 1
    if value >= best - TIE:
        ties += 1
        return rand_below(rng, ties) == 0, best, ties
    return False, best, ties


@inline_njit()
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


@njit(cache=True, _nrt=False, forceinline=False)
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
@inline_njit()
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


@inline_njit()
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


@njit(cache=True, _nrt=False, forceinline=False)
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


@inline_njit()
def ability_income(prm, seat, st, cards, site, ability, action):
    """What one use of the site's ``ability`` adds over spending its actions on moves worth
    ``action`` each (action_value); 0 if nothing (then it would not be used)."""
    base = C_ABILITIES + ABILITY_WIDTH * ability
    value = effects_value(
        prm, seat, st, cards, site, base + A_EFFECTS, cards[ix(site), ix(base + A_N_EFFECTS)]
    )
    return max(0.0, value - action * cards[ix(site), ix(base + A_COST)])


@inline_njit()
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


@inline_njit()
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


@njit(cache=True, _nrt=False, forceinline=False)
def attachment_worth(prm, seat, harm, benefit):
    """What an attachment is worth when it has a target: its harm on the opponent's site if it
    harms more than it helps, else its benefit on an own site with followers."""
    if harm > benefit:
        return prm[seat, W_ATTACK] * harm
    return 0.5 * prm[seat, W_SITE] * benefit


@inline_njit()
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


@njit(cache=True, _nrt=False, forceinline=False)
def per_action(value, cost):
    if cost == 0:
        return FREE_MOVE_BONUS * value
    return value / cost
