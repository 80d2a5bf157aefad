"""What POWER lets a player do (../shared/rules/power.md, "Actions" and "Blocking Actions"): which
actions it may take and which characters it may claim to block, under the rule switches that turn
a character's ability or block off (docs/games/power.md, "House rules").

One place for these rules, read by the rules' legal moves and checks (rules.py), the scripted
turn (scripted.py) and the strategies (strategies/power.py), so that a switched-off ability or
block is missing from every list a player chooses from.
"""

from simcore.games.power.state import (
    ACTION_TARGETED,
    AID,
    BANK,
    BANKER,
    COINS,
    EXCHANGE,
    FIRE,
    JOURNALIST,
    LAWYER,
    OVERTHROW,
    POLITICIAN,
    R_AID_ALLOWED,
    R_BANKER_BLOCKS_AID,
    R_BANKER_TAKES,
    R_CEO_COST,
    R_CEO_FIRES,
    R_JOURNALIST_BLOCKS_STEAL,
    R_JOURNALIST_EXCHANGES,
    R_LAWYER_BLOCKS_FIRE,
    R_OVERTHROW_COST,
    R_POLITICIAN_BLOCKS_STEAL,
    R_POLITICIAN_STEALS,
    STEAL,
    influence,
)
from simcore.kernel.intrinsics import ix, plain_njit


@plain_njit(forceinline=True)
def action_allowed(action, rules):
    """Whether the rules let anyone take ``action``: a character's ability may be switched off
    (banker_takes, ceo_fires, politician_steals, journalist_exchanges), and Aid (aid_allowed);
    Income and Overthrow always may."""
    if action == AID:
        return rules[R_AID_ALLOWED] != 0
    if action == BANK:
        return rules[R_BANKER_TAKES] != 0
    if action == FIRE:
        return rules[R_CEO_FIRES] != 0
    if action == STEAL:
        return rules[R_POLITICIAN_STEALS] != 0
    if action == EXCHANGE:
        return rules[R_JOURNALIST_EXCHANGES] != 0
    return True


@plain_njit(forceinline=True)
def block_characters(action, rules):
    """The characters that may block ``action`` (the same one twice when only one may; (-1, -1)
    when none may): the Banker Aid, the Lawyer a firing, the Politician and the Journalist a
    steal, each while its block is switched on."""
    first = BANKER
    second = BANKER
    first_on = rules[R_BANKER_BLOCKS_AID] != 0
    second_on = first_on
    if action == FIRE:
        first = LAWYER
        second = LAWYER
        first_on = rules[R_LAWYER_BLOCKS_FIRE] != 0
        second_on = first_on
    elif action == STEAL:
        first = POLITICIAN
        second = JOURNALIST
        first_on = rules[R_POLITICIAN_BLOCKS_STEAL] != 0
        second_on = rules[R_JOURNALIST_BLOCKS_STEAL] != 0
    if not first_on:
        first = second if second_on else -1
    if not second_on:
        second = first
    return first, second


@plain_njit(forceinline=True)
def blocking_claims(action, rules):
    """The characters that may block ``action``, as a bit mask (0 when none may)."""
    first, second = block_characters(action, rules)
    if first < 0:
        return 0
    return (1 << first) | (1 << second)


@plain_njit(forceinline=True)
def blockable(action, target, st, rules):
    """Aid may be blocked, and firing and stealing while their target is in, when a character
    may block it."""
    aimed = action == AID or ((action == FIRE or action == STEAL) and influence(st, target) > 0)
    return aimed and block_characters(action, rules)[0] >= 0


@plain_njit(forceinline=True)
def anyone_may_block(action):
    """Aid may be blocked by anyone in, firing and stealing only by their target."""
    return action == AID


@plain_njit(forceinline=True)
def may_block(other, action, target, st):
    """Whether ``other`` may block ``action`` at ``target`` (``anyone_may_block``)."""
    return influence(st, other) > 0 and (anyone_may_block(action) or other == target)


@plain_njit(forceinline=True)
def check_action(seat, action, target, forced, players, st, rules):
    """Only legal actions are applied: a violation is a bug, not a move."""
    if forced and action != OVERTHROW:
        raise ValueError("strategy ignored a forced overthrow")
    if not action_allowed(action, rules):
        raise ValueError("strategy took an action the rules switch off")
    if action == OVERTHROW and st[ix(COINS + seat)] < rules[R_OVERTHROW_COST]:
        raise ValueError("strategy overthrew without the Dollars")
    if action == FIRE and st[ix(COINS + seat)] < rules[R_CEO_COST]:
        raise ValueError("strategy fired without the Dollars")
    if ACTION_TARGETED[action] and (
        target < 0 or target >= players or target == seat or influence(st, target) == 0
    ):
        raise ValueError("strategy aimed at a player who cannot be targeted")


@plain_njit(forceinline=True)
def check_block(character, action, rules):
    """Only legal blocks are applied: a block claims a character that may block the action."""
    first, second = block_characters(action, rules)
    if first < 0 or (character != first and character != second):
        raise ValueError("strategy blocked with a character that may not block this action")
