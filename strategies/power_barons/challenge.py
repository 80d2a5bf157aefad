"""Power Barons' decisions in a challenge: whom to challenge, for which Power Base, and whether
to lose on purpose (strategy hints 2 and 3); the card the attacker leads and the defender
follows; the surrender options; the Political Influence cards played."""

import numpy as np
from numba import njit

from simcore.games.power_barons.state import (
    CH_ATTACKER,
    CH_DEFENDER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_ROUND,
    COLOUR,
    DECK_COUNT,
    DECK_TOTAL,
    DRAWPILE,
    HAND,
    LOC,
    N_CARDS,
    N_TYPES,
    P_DECK_MEAN,
    P_PI_PLAYED,
    PI,
    PI_PER_TURN,
    R_CHALLENGE_ROUNDS,
    VALUE,
    bank_credits,
    bases_on_board,
    behind_by,
    best_value,
    best_values,
    card_at,
    colour_count,
    colour_run,
    hand_count,
    hand_value,
    has_base,
    highest,
    is_hand,
    last_round,
    lowest,
    multiplier,
    pi_playable,
    pi_reach,
)
from simcore.kernel.intrinsics import inline_njit, ix
from simcore.kernel.rng import rand_below, rand_bool
from strategies.power_barons.common import (
    DECLARE,
    DECLARE_RANDOM,
    FLUSH_BELOW,
    FLUSHER,
    LATE_BASES,
    P_FLUSH,
    PI_LARGEST,
    PI_NEVER,
    PI_USE,
    RANDOM,
    SURRENDER_MARGIN,
    TARGET_NEEDED,
    TARGET_POOREST,
    TARGET_RECHALLENGE,
    TARGETING,
    beats,
    extreme_colour,
    leader_score,
    random_card,
    random_opponent,
    takes_tie,
    unseen_mean,
    useful,
)


@inline_njit()
def strongest_useful_type(st, players, me, defender, best, rng):
    """Hint 2: the type ``me`` still needs in ``defender``'s territory in which its best card
    (``best``: best_values of its hand) is highest (ties: drawn); -1 if it needs none there."""
    strongest = -1
    ties = 0
    for base_type in range(N_TYPES):
        if not useful(st, players, me, defender, base_type):
            continue
        if strongest < 0 or best[base_type] > best[strongest]:
            strongest, ties = base_type, 1
        elif best[base_type] == best[strongest]:
            ties += 1
            if takes_tie(rng, ties):
                strongest = base_type
    return strongest


@njit(cache=True, _nrt=False, forceinline=False)
def poorest(st, players, me, rng):
    """Hint 3's victim: the opponent with the fewest credits banked (ties: drawn)."""
    best = -1
    ties = 0
    for other in range(players):
        if other == me:
            continue
        if best < 0 or bank_credits(st, other) < bank_credits(st, best):
            best, ties = other, 1
        elif bank_credits(st, other) == bank_credits(st, best):
            ties += 1
            if takes_tie(rng, ties):
                best = other
    return best


@inline_njit()
def target_score(targeting, st, players, me, other):
    """How much ``me`` wants to challenge ``other`` under ``targeting`` (a TARGETINGS index;
    higher is better, never negative): leader and rechallenge by leader_score, poorest by the
    smallest bank, needed by the count of types ``me`` still needs there, then leader_score."""
    if targeting == TARGET_POOREST:
        return 1_000_000_000 - bank_credits(st, other)
    if targeting == TARGET_NEEDED:
        n = 0
        for base_type in range(N_TYPES):
            n += useful(st, players, me, other, base_type)
        return n * 100_000_000 + leader_score(st, other)
    return leader_score(st, other)


@njit(cache=True, _nrt=False, forceinline=False)
def declared_type(declare, st, players, me, defender, best, rng):
    """The type ``me`` declares against ``defender`` (``declare``: a DECLARES index): among the
    types it still needs there, the one of its strongest colour, or a random one; if it needs
    none there, its strongest colour, or a random type."""
    if declare == DECLARE_RANDOM:
        n = 0
        for base_type in range(N_TYPES):
            n += useful(st, players, me, defender, base_type)
        if n == 0:
            return rand_below(rng, N_TYPES)
        k = rand_below(rng, n)
        for base_type in range(N_TYPES):
            if useful(st, players, me, defender, base_type):
                if k == 0:
                    return base_type
                k -= 1
    needed_type = strongest_useful_type(st, players, me, defender, best, rng)
    return needed_type if needed_type >= 0 else extreme_colour(best, False, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def wants_to_flush(prm, me, st, rng):
    """Hint 3: ``me`` (a flusher) flushes this challenge. The chance p_flush is drawn every
    time, so that arms differing only in p_flush stay paired."""
    wants = rand_bool(rng, prm[me, P_FLUSH])
    average_hand = hand_count(st, me) * unseen_mean(st, me)
    return wants and hand_value(st, me) < prm[me, FLUSH_BELOW] * average_hand


@njit(cache=True, _nrt=False, forceinline=False)
def choose_challenge(sid, prm, me, players, st, rng):
    """(defender, declared type, flush 0/1) for ``me``'s challenge."""
    if sid == RANDOM:
        return random_opponent(me, players, rng), rand_below(rng, N_TYPES), 0
    best = best_values(st, me)
    targeting = np.int64(prm[me, TARGETING])
    declare = np.int64(prm[me, DECLARE])
    if sid == FLUSHER and wants_to_flush(prm, me, st, rng):
        defender = poorest(st, players, me, rng)
        return defender, declared_type(declare, st, players, me, defender, best, rng), 1
    defender = -1
    best_score = -1
    ties = 0
    if targeting == TARGET_RECHALLENGE and bases_on_board(st, me) >= prm[me, LATE_BASES]:
        # hint 2, late in the game: win credits in its strongest colour where it has that base
        strongest = extreme_colour(best, False, rng)
        for other in range(players):
            if other == me or not has_base(st, me, other, strongest):
                continue
            take, best_score, ties = beats(leader_score(st, other), best_score, ties, rng)
            if take:
                defender = other
        if defender >= 0:
            return defender, strongest, 0
    # Among the opponents in whose territory it still needs a base, the one targeting puts
    # first; if it needs nothing anywhere it can still place, the first of all (for credits).
    fallback = -1
    fallback_score = -1
    fallback_ties = 0
    for other in range(players):
        if other == me:
            continue
        score = target_score(targeting, st, players, me, other)
        take, fallback_score, fallback_ties = beats(score, fallback_score, fallback_ties, rng)
        if take:
            fallback = other
        needs = False
        for base_type in range(N_TYPES):
            needs = needs or useful(st, players, me, other, base_type)
        if not needs:
            continue
        take, best_score, ties = beats(score, best_score, ties, rng)
        if take:
            defender = other
    if defender < 0:
        defender = fallback
    return defender, declared_type(declare, st, players, me, defender, best, rng), 0


@inline_njit()
def effective(st, rules, card):
    """What ``card`` would count for in the challenge in progress."""
    return st[ix(VALUE + card)] * multiplier(st, rules, st[ix(COLOUR + card)])


@njit(cache=True, _nrt=False, forceinline=False)
def chance_ahead(st, rules, me, card):
    """The chance that a flushing attacker ``me`` is ahead (winning: a tie too under ties_go_to
    attacker) after it leads ``card``: that the defender holds no card of that colour counting
    enough to keep it from winning, its hand (of known size) being drawn from the cards ``me``
    cannot see (the deck less its own hand, the banks, the discard pile and the table). 0 when
    it is not winning even if the defender cannot follow."""
    card_colour = st[ix(COLOUR + card)]
    times = multiplier(st, rules, card_colour)
    gap = st[ix(VALUE + card)] * times - behind_by(st, 0) + 1  # what the defender must match
    if gap <= 0:
        return 0.0
    unseen = 0
    enough = 0  # unseen cards of the colour that would keep the defender level
    for other in range(st[N_CARDS]):
        loc = st[ix(LOC + other)]
        if loc == DRAWPILE or (is_hand(loc) and loc != HAND + me):
            unseen += 1
            enough += st[ix(COLOUR + other)] == card_colour and st[ix(VALUE + other)] * times >= gap
    chance = 1.0
    for i in range(hand_count(st, st[CH_DEFENDER])):
        chance *= max(unseen - enough - i, 0) / (unseen - i)
    return chance


@njit(cache=True, _nrt=False, forceinline=False)
def least_chance_ahead(st, rules, me):
    """The smallest chance_ahead of the flusher's possible next leads (its lowest card of each
    colour still to be played). When it holds none it would call a colour out, adding nothing:
    0 unless it is ahead already (then 1: it stays ahead if the defender cannot follow)."""
    least = 1.0 if behind_by(st, 0) <= 0 else 0.0
    found = False
    for card_colour in range(N_TYPES):
        card = lowest(st, me, card_colour)
        if card < 0 or (st[CH_DONE] >> card_colour) & 1:
            continue
        chance = chance_ahead(st, rules, me, card)
        if not found or chance < least:
            least, found = chance, True
    return least


@njit(cache=True, _nrt=False, forceinline=False)
def choose_lead(sid, me, st, rules, rng):
    """(colour, card) the attacker leads: a card of a colour not yet played if it holds one,
    else (a random such colour, -1) to call out. Playing to win, its highest-counting card;
    flushing, of its lowest card of each colour, the one least likely to put it ahead
    (chance_ahead), then the lowest-counting. Ties: drawn."""
    done = st[CH_DONE]
    flushing = st[CH_FLUSH] == 1 and sid != RANDOM
    pick = -1
    pick_count = 0
    pick_chance = 0.0
    ties = 0
    n = 0
    for card_colour in range(N_TYPES):
        if (done >> card_colour) & 1:
            continue
        n += colour_count(st, HAND + me, card_colour)
        if sid == RANDOM:
            continue
        card = lowest(st, me, card_colour) if flushing else highest(st, me, card_colour)
        if card < 0:
            continue
        count = effective(st, rules, card)
        chance = chance_ahead(st, rules, me, card) if flushing else 0.0
        if flushing:
            better = chance < pick_chance or (chance == pick_chance and count < pick_count)
            level = chance == pick_chance and count == pick_count
        else:
            better = count > pick_count
            level = count == pick_count
        if pick < 0 or better:
            pick, pick_count, pick_chance, ties = card, count, chance, 1
        elif level:
            ties += 1
            if takes_tie(rng, ties):
                pick = card
    if sid == RANDOM and n > 0:
        k = rand_below(rng, n)
        for i in range(hand_count(st, me)):
            card = card_at(st, HAND + me, i)
            card_colour = st[ix(COLOUR + card)]
            if card_colour != PI and not (done >> card_colour) & 1:
                if k == 0:
                    return card_colour, card
                k -= 1
    if pick >= 0:
        return st[ix(COLOUR + pick)], pick
    k = rand_below(rng, N_TYPES - popcount4(done))
    for card_colour in range(N_TYPES):
        if not (done >> card_colour) & 1:
            if k == 0:
                return card_colour, -1
            k -= 1
    return -1, -1


@inline_njit()
def popcount4(bits):
    """Colours set in a CH_DONE mask."""
    return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1) + ((bits >> 3) & 1)


@njit(cache=True, _nrt=False, forceinline=False)
def choose_follow(sid, me, card_colour, st, rng):
    """The card of ``card_colour`` the defender plays (it holds one): its highest."""
    if sid == RANDOM:
        return random_card(st, HAND + me, card_colour, rng)
    return highest(st, me, card_colour)


@inline_njit()
def expected_remaining(st, rules, me, mine):
    """Credits ``me`` can still add (``mine``: its real best cards) or an unseen hand would add
    on average (not ``mine``: the deck's mean per colour), in the rounds not yet played (with
    fewer challenge_rounds than colours left, that share of the colours' sum), plus Political
    Influence in a full challenge (``mine``: what one turn may play, pi_cards_per_turn)."""
    total = 0.0
    for card_colour in range(N_TYPES):
        if (st[CH_DONE] >> card_colour) & 1:
            continue
        if mine:  # only the colours still to come: their best cards are looked up, no others
            total += best_value(st, me, card_colour) * multiplier(st, rules, card_colour)
        elif st[ix(DECK_COUNT + card_colour)] > 0:
            total += rules[P_DECK_MEAN + card_colour] * multiplier(st, rules, card_colour)
    colours_left = N_TYPES - popcount4(st[CH_DONE])
    rounds_left = np.int64(rules[R_CHALLENGE_ROUNDS]) - popcount4(st[CH_DONE])
    if rounds_left < colours_left:
        total *= max(rounds_left, 0) / colours_left
    if st[CH_LIMITED] == 0:
        if mine:
            total += pi_reach(st, me, st[PI_PER_TURN], -1)
        else:
            total += hand_count(st, me) * st[DECK_TOTAL + PI] / st[N_CARDS]
    return total


@njit(cache=True, _nrt=False, forceinline=False)
def wants_to_surrender(sid, prm, me, st, rules, rng):
    """At a surrender option."""
    margin = prm[me, SURRENDER_MARGIN]
    return surrender_choice(sid, margin, np.int64(prm[me, PI_USE]), me, st, rules, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def surrender_choice(sid, margin, pi_use, me, st, rules, rng):
    """At a surrender option (st[CH_ROUND]: 0-3 after a Power Card round, 4 in the Political
    Influence round when ``me`` could still take the lead): surrender when behind by more than
    it expects to catch up plus ``margin`` credits; in the PI round only with pi_use never.
    A flushing attacker surrenders after the fourth round, and earlier as soon as every lead it
    could make might put it ahead (least_chance_ahead above 0): ahead, the defender would have
    the first option and might surrender."""
    if sid == RANDOM:
        return rand_bool(rng, 0.5)
    attacking = me == st[CH_ATTACKER]
    if attacking and st[CH_FLUSH] == 1:
        if last_round(st[CH_ROUND], rules):
            return True
        return least_chance_ahead(st, rules, me) > 0.0
    opponent_side = 1 if attacking else 0
    deficit = behind_by(st, 1 - opponent_side)
    if deficit <= 0:
        return False
    if st[CH_ROUND] == 4:
        return pi_use == PI_NEVER
    opponent = st[ix(CH_ATTACKER + opponent_side)]
    catch_up = expected_remaining(st, rules, me, True) - expected_remaining(
        st, rules, opponent, False
    )
    if pi_use == PI_NEVER and st[CH_LIMITED] == 0:
        catch_up -= pi_reach(st, me, st[PI_PER_TURN], -1)  # it will not play them
    return deficit > catch_up + margin


@njit(cache=True, _nrt=False, forceinline=False)
def choose_pi_card(sid, prm, me, st, rng):
    """The next Political Influence card ``me`` plays in its turn of the PI round (it holds
    one), or -1 to stop, which it may only do once it is winning."""
    return pi_choice(sid, np.int64(prm[me, PI_USE]), me, st, rng)


@njit(cache=True, _nrt=False, forceinline=False)
def pi_choice(sid, pi_use, me, st, rng):
    """The next Political Influence card ``me`` plays, or -1 to stop. While behind: under
    pi_use smallest the smallest that takes the lead, else its largest; under largest its
    largest (both always playable under pi_cards_per_turn: if any card can still make it
    winning within the cap, its largest can). Once winning the scripted players stop: a card
    more cannot win a challenge the cards it keeps would not win (it can still play them if the
    opponent retakes the lead), and the loser's played cards go to the winner. random stops or
    plays one of its k playable PI cards, each with probability 1 / (k + 1)."""
    attacking = me == st[CH_ATTACKER]
    needed = behind_by(st, 0 if attacking else 1)
    if sid == RANDOM:
        if needed <= 0 and rand_below(rng, colour_count(st, HAND + me, PI) + 1) == 0:
            return -1
        return random_playable_pi(st, me, 0 if attacking else 1, rng)
    if needed <= 0:
        return -1
    first, n = colour_run(st, me, PI)  # PI cards from the highest down
    if pi_use == PI_LARGEST:
        return st[ix(first)]
    enough = first  # the smallest card that takes the lead, else the largest
    for i in range(first + 1, first + n):
        if st[ix(VALUE + st[ix(i)])] >= needed:
            enough = i
    return st[ix(enough)]


@njit(cache=True, _nrt=False, forceinline=False)
def random_playable_pi(st, me, side, rng):
    """A uniformly random PI card of ``me``'s hand that it may play now (pi_playable)."""
    played = st[P_PI_PLAYED]
    n = 0
    for i in range(hand_count(st, me)):
        card = card_at(st, HAND + me, i)
        n += st[ix(COLOUR + card)] == PI and pi_playable(st, me, side, card, played)
    k = rand_below(rng, n)
    for i in range(hand_count(st, me)):
        card = card_at(st, HAND + me, i)
        if st[ix(COLOUR + card)] == PI and pi_playable(st, me, side, card, played):
            if k == 0:
                return card
            k -= 1
    return -1
