"""Scripted POWER players: every decision a seat makes, dispatched on an integer strategy id.

Each decision reads the seat's row of ``prm`` (columns in ``PARAM_NAMES`` order) and only what
that seat may know: the public part of the state ``st`` plus its own face-down cards.
"""

import numpy as np

from simcore.games.power.allowed import action_allowed, block_characters, blocking_claims
from simcore.games.power.rules import kept_mask
from simcore.games.power.state import (
    AID,
    BANK,
    BANKER,
    CEO,
    COINS,
    D_ACTION,
    D_BLOCK,
    D_CHALLENGE,
    D_LOSE,
    DOWN,
    EXCHANGE,
    FACE_UP,
    FACE_UP_CLAIMED,
    FIRE,
    INCOME,
    JOURNALIST,
    KEEP,
    LAWYER,
    MAX_COPIES,
    N_CHARACTERS,
    OPTIONS,
    OVERTHROW,
    P_ACTION,
    P_CLAIM,
    P_CLAIMANT,
    P_DECISION,
    P_FORCED,
    P_N_KEEP,
    P_N_OPTIONS,
    P_PLAYERS,
    POLITICIAN,
    R_CEO_COST,
    R_COPIES,
    R_OVERTHROW_COST,
    STEAL,
    action_move,
    card,
    claims_any,
    holds,
    influence,
    seat_after,
)
from simcore.kernel.intrinsics import ix, plain_njit
from simcore.kernel.rng import rand_below, rand_bool
from simcore.registry import Param, Strategy

RANDOM, HONEST, BLUFFER, COUNTER = range(4)

PARAM_NAMES = ("p_bluff", "p_challenge", "p_block_bluff", "threshold", "targeting")
P_BLUFF, P_CHALLENGE, P_BLOCK_BLUFF, THRESHOLD, TARGETING = range(5)

TARGETINGS = ("leader", "richest", "most_influence", "random")
TARGET_LEADER, TARGET_RICHEST, TARGET_MOST_INFLUENCE, TARGET_RANDOM = range(4)

# Which card to keep when one must go, and which to keep after an exchange (higher = keep).
CARD_VALUE = np.array([5, 2, 3, 1, 4], dtype=np.int64)  # Banker, Lawyer, CEO, Journalist, Pol.


def _targeting(default: str = "leader") -> Param:
    return Param(
        "targeting",
        "choice",
        default,
        "whom to overthrow, fire or steal from: leader (most influence, then coins), richest, "
        "most_influence, or random; ties are broken at random",
        choices=TARGETINGS,
    )


def _probability(name: str, default: float, doc: str) -> Param:
    return Param(name, "float", default, doc, 0.0, 1.0)


STRATEGIES = (
    Strategy(
        "random",
        RANDOM,
        "uniform over legal choices: any action it can afford (claims included), challenges and "
        "blocks with probability 1/2, gives up and keeps cards at random",
    ),
    Strategy(
        "honest",
        HONEST,
        "never bluffs: claims only characters it holds, blocks only with them, challenges only "
        "claims that are impossible from what it has seen; overthrows, fires, banks, steals, "
        "exchanges or takes Aid, never repeating what a standing claim would block (then Income)",
        (_targeting(),),
    ),
    Strategy(
        "bluffer",
        BLUFFER,
        "the honest plan, but on a share p_bluff of its turns plays as if it held every character; "
        "challenges any possible claim with probability p_challenge and bluff-blocks with "
        "probability p_block_bluff",
        (
            _probability("p_bluff", 0.3, "chance per turn to act as if holding every character"),
            _probability("p_challenge", 0.15, "chance to challenge any possible claim"),
            _probability("p_block_bluff", 0.3, "chance to block with a character it lacks"),
            _targeting(),
        ),
    ),
    Strategy(
        "counter",
        COUNTER,
        "the honest plan; tracks public cards and its own hand and challenges a claim when the "
        "claimant holds the character with probability below the threshold; bluffs a Lawyer "
        "against a firing that would take its last influence",
        (
            _probability("threshold", 0.1, "challenge when P(claimant holds the card) < this"),
            _probability("p_bluff", 0.0, "chance per turn to act as if holding every character"),
            _targeting(),
        ),
    ),
)


@plain_njit(forceinline=True)
def choose_target(targeting, me, players, st, needs_coins, avoid, rng):
    """The opponent to aim at, or -1 if there is none: among the opponents with influence whose
    standing claims name none of the characters in ``avoid`` (a bit mask: a player who claimed a
    Lawyer will block the next firing too) and, with ``needs_coins``, who have Dollars, the best
    by ``targeting``; ties are broken uniformly at random (never by seat)."""
    best = -1
    best_score = -1
    n_best = 0
    other = me
    for _ in range(players - 1):
        other = seat_after(other, players)
        coins = st[ix(COINS + other)]
        left = influence(st, other)
        # The score as one number: the leader has the most influence, then the most Dollars
        # (fewer than 2**32).
        score = 0
        if targeting == TARGET_RICHEST:
            score = coins
        elif targeting == TARGET_MOST_INFLUENCE:
            score = left
        elif targeting == TARGET_LEADER:
            score = (left << 32) + coins
        # Below any candidate's score: a player who may not be aimed at is never chosen. A
        # select, not a branch: who may be aimed at is data the branch predictor cannot learn.
        allowed = (left > 0) & ~claims_any(st, other, avoid) & ~(needs_coins & (coins == 0))
        score = score if allowed else -2
        if score > best_score:
            best = other
            best_score = score
            n_best = 1
        elif score == best_score:
            n_best += 1  # reservoir sampling: each tied opponent is kept with probability 1/n
            if rand_below(rng, n_best) == 0:
                best = other
    return best


@plain_njit()
def _random_action(me, players, st, rules, forced, rng):
    if forced:
        return OVERTHROW, choose_target(TARGET_RANDOM, me, players, st, False, 0, rng)
    # Income always; Aid and each character's ability while the rules switch them on;
    # Overthrow and Fire when affordable.
    can_overthrow = st[ix(COINS + me)] >= rules[R_OVERTHROW_COST]
    can_fire = (st[ix(COINS + me)] >= rules[R_CEO_COST]) & action_allowed(FIRE, rules)
    n_legal = 1 + can_overthrow + can_fire
    for candidate in (AID, BANK, STEAL, EXCHANGE):
        n_legal += action_allowed(candidate, rules)
    pick = rand_below(rng, n_legal)
    action = INCOME
    for candidate in (INCOME, AID, BANK, STEAL, EXCHANGE, OVERTHROW, FIRE):
        if (candidate == OVERTHROW and not can_overthrow) or (candidate == FIRE and not can_fire):
            continue
        if not action_allowed(candidate, rules):
            continue
        if pick == 0:
            action = candidate
            break
        pick -= 1
    if action == OVERTHROW or action == FIRE or action == STEAL:
        return action, choose_target(TARGET_RANDOM, me, players, st, False, 0, rng)
    return action, -1


@plain_njit(forceinline=True)
def choose_action(sid, prm, me, players, st, rules, forced, rng):
    """(action, target seat or -1) for the seat to move; ``forced``: it must overthrow.

    The scripted players take the first of these plans that can work: overthrow, fire, bank,
    steal, exchange, Aid, Income. A plan that a standing claim would block (a Lawyer against a
    firing, a Politician or Journalist against a steal, a Banker against Aid) is not tried
    again: a player who saw the block expects it again, so it changes plan, in the end to Income,
    which always progresses towards an overthrow. An ability the rules switch off is no plan,
    and a standing claim of a character whose block is switched off blocks nothing.
    """
    if sid == RANDOM:
        return _random_action(me, players, st, rules, forced, rng)
    targeting = np.int64(prm[ix(me), TARGETING])
    if forced or st[ix(COINS + me)] >= rules[R_OVERTHROW_COST]:
        return OVERTHROW, choose_target(targeting, me, players, st, False, 0, rng)
    bluffing = sid != HONEST and rand_bool(rng, prm[ix(me), P_BLUFF])
    # The tests are bitwise (``|``, ``&``), not ``or``/``and``: what a hand holds is data the
    # branch predictor cannot learn, so each plan costs one branch, not one per test.
    fire = (bluffing | holds(st, me, CEO)) & (st[ix(COINS + me)] >= rules[R_CEO_COST])
    if fire & action_allowed(FIRE, rules):
        target = choose_target(targeting, me, players, st, False, blocking_claims(FIRE, rules), rng)
        if target >= 0:
            return FIRE, target
    if (bluffing | holds(st, me, BANKER)) & action_allowed(BANK, rules):
        return BANK, -1
    if (bluffing | holds(st, me, POLITICIAN)) & action_allowed(STEAL, rules):
        target = choose_target(targeting, me, players, st, True, blocking_claims(STEAL, rules), rng)
        if target >= 0:
            return STEAL, target
    weak_card = holds(st, me, LAWYER) | (influence(st, me) == 1)
    if holds(st, me, JOURNALIST) & weak_card & action_allowed(EXCHANGE, rules):
        return EXCHANGE, -1
    blocks_aid = blocking_claims(AID, rules)
    aid_blocked = False
    other = me
    for _ in range(players - 1):
        other = seat_after(other, players)
        aid_blocked |= (influence(st, other) > 0) & claims_any(st, other, blocks_aid)
    if aid_blocked or not action_allowed(AID, rules):
        return INCOME, -1
    return AID, -1


def _holds_probabilities() -> np.ndarray:
    """``[k, unknown, unseen]``: the chance that k cards dealt from ``unknown`` cards include at
    least one of ``unseen`` copies of a character (hypergeometric), for every count a rule set
    allows; a table so that a challenge decision looks up what it would otherwise divide out."""
    table = np.zeros((3, MAX_COPIES * N_CHARACTERS + 1, MAX_COPIES + 1))
    for held in range(3):
        for unknown in range(held, MAX_COPIES * N_CHARACTERS + 1):
            for unseen in range(1, MAX_COPIES + 1):
                p_none = 1.0
                for i in range(held):
                    p_none *= (unknown - unseen - i) / (unknown - i)
                table[held, unknown, unseen] = 1.0 - p_none
    return table


HOLDS_PROBABILITY = _holds_probabilities()


@plain_njit(forceinline=True)
def round_odds(claimant, character, st, rules):
    """What the chance that ``claimant`` holds ``character`` shares for every seat asked in the
    challenge round of that claim, all public (the face-up counts are the round's): the
    claimant's influence, the cards not face up, and the copies of ``character`` not face up.
    Computed once a round, not once an asked seat."""
    copies = np.int64(rules[R_COPIES])
    not_face_up = copies * N_CHARACTERS - st[FACE_UP]
    return influence(st, claimant), not_face_up, copies - st[FACE_UP_CLAIMED]


@plain_njit(forceinline=True)
def claim_probability(me, character, odds, st):
    """P(the claimant holds ``character``) given the public cards (``odds``, ``round_odds``) and
    ``me``'s own hand."""
    held, not_face_up, copies_not_face_up = odds
    # the cards ``me`` has not seen (neither face up nor its own), and the copies of
    # ``character`` among them
    unknown = not_face_up - influence(st, me)
    unseen = copies_not_face_up
    for slot in range(2):
        unseen -= st[ix(DOWN + 2 * me + slot)] & (card(st, me, slot) == character)
    if unseen <= 0:
        return 0.0
    return HOLDS_PROBABILITY[ix(held), ix(unknown), ix(unseen)]


@plain_njit(forceinline=True)
def wants_to_challenge(sid, prm, me, character, odds, st, rng):
    """Whether ``me`` challenges the claim of ``character`` (``odds``: ``round_odds``)."""
    if sid == RANDOM:
        return rand_bool(rng, 0.5)
    p_holds = claim_probability(me, character, odds, st)
    if sid == COUNTER:
        # Bitwise: one branch (on the answer, nearly always no) instead of one per test.
        return (p_holds == 0.0) | (p_holds < prm[ix(me), THRESHOLD])
    if p_holds == 0.0:
        return True
    if sid == BLUFFER:
        return rand_bool(rng, prm[ix(me), P_CHALLENGE])
    return False


@plain_njit(forceinline=True)
def choose_block(sid, prm, me, action, players, st, rules, rng):
    """The character ``me`` claims to block ``action`` (aimed at it, or Aid), or -1 for no block:
    one of those the rules let block it (``block_characters``; asked only when one may)."""
    first, second = block_characters(action, rules)
    if sid == RANDOM:
        if rand_bool(rng, 0.5):
            return first if rand_bool(rng, 0.5) else second
        return -1
    holds_first = holds(st, me, first)
    if holds_first | holds(st, me, second):
        return first if holds_first else second
    if sid == COUNTER:
        # Against a firing that would end the game for it anyway the bluff costs nothing.
        return first if (action == FIRE) & (influence(st, me) == 1) else -1
    if sid == BLUFFER and rand_bool(rng, prm[ix(me), P_BLOCK_BLUFF]):
        return first
    return -1


@plain_njit(forceinline=True)
def choose_card_to_lose(sid, me, st, rng):
    """The slot of the face-down card ``me`` gives up (it has two)."""
    if sid == RANDOM:
        return rand_below(rng, 2)
    return 0 if CARD_VALUE[card(st, me, 0)] <= CARD_VALUE[card(st, me, 1)] else 1


@plain_njit()
def choose_exchange(sid, me, st, n_options, n_keep, rng):
    """Set st[KEEP + i] to 1 for the ``n_keep`` of the ``n_options`` st[OPTIONS + i] ``me``
    keeps."""
    for i in range(4):
        st[ix(KEEP + i)] = 0
    if sid == RANDOM:
        kept = 0
        while kept < n_keep:
            i = rand_below(rng, n_options)
            if st[ix(KEEP + i)] == 0:
                st[ix(KEEP + i)] = 1
                kept += 1
        return
    for _ in range(n_keep):
        best = -1
        best_score = -100
        for i in range(n_options):
            if st[ix(KEEP + i)] == 0 and _keep_score(st, n_options, i) > best_score:
                best = i
                best_score = _keep_score(st, n_options, i)
        st[ix(KEEP + best)] = 1


@plain_njit()
def _keep_score(st, n_options, i):
    """A card's value, less when the same character is already kept: two characters beat a pair."""
    for j in range(n_options):
        if st[ix(KEEP + j)] == 1 and st[ix(OPTIONS + j)] == st[ix(OPTIONS + i)]:
            return CARD_VALUE[st[ix(OPTIONS + i)]] - 10
    return CARD_VALUE[st[ix(OPTIONS + i)]]


@plain_njit(forceinline=True)
def decide(sid, prm, me, st, rules, rng):
    """The option strategy ``sid`` takes at the decision pending in ``st`` (``me`` decides): the
    answer of the decision function above, as the protocol's move code (docs/protocol.md)."""
    kind = st[P_DECISION]
    players = st[P_PLAYERS]
    if kind == D_CHALLENGE:  # the most frequent first
        odds = round_odds(st[P_CLAIMANT], st[P_CLAIM], st, rules)
        return np.int64(wants_to_challenge(sid, prm, me, st[P_CLAIM], odds, st, rng))
    if kind == D_ACTION:
        action, target = choose_action(sid, prm, me, players, st, rules, st[P_FORCED] != 0, rng)
        return action_move(action, target)
    if kind == D_BLOCK:
        return choose_block(sid, prm, me, st[P_ACTION], players, st, rules, rng) + 1
    if kind == D_LOSE:
        return choose_card_to_lose(sid, me, st, rng)
    choose_exchange(sid, me, st, st[P_N_OPTIONS], st[P_N_KEEP], rng)
    return kept_mask(st)
