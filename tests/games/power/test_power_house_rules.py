"""POWER's house rules (issue 42; docs/games/power.md, "House rules"): each character's ability
and block switched off, and what a lost challenge costs, each from a hand-built state.

With an ability off nobody may claim it: it is missing from the protocol's legal moves (what the
search chooses from), taking it anyway is an error, and the scripted players (which choose
without the legal list) change plan. With a block off nobody may claim it: it is missing from the
block options, is not offered when no character may block, and a standing claim of that character
no longer deters the scripted players. Both flows are checked: the scripted turn (``Table.turn``,
``Table.challenge``) and the decision-point protocol (``legal``, ``open_round`` + ``apply``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simcore.games.power import game as kernel
from simcore.games.power import rules as rules_module
from simcore.games.power.state import (
    AID,
    BANK,
    BANKER,
    CEO,
    CLAIM_FAILED,
    CLAIM_PROVEN,
    CLAIMS,
    D_ACTION,
    D_BLOCK,
    D_NONE,
    EV_BLOCK,
    EV_CHALLENGE,
    EV_ELIMINATED,
    EV_EXCHANGE,
    EV_LOSE,
    EV_REFUND,
    EV_REPLACE,
    EXCHANGE,
    FIRE,
    INCOME,
    JOURNALIST,
    LAWYER,
    MAX_MOVES,
    OVERTHROW,
    P_ACTION,
    P_DECISION,
    P_FORCED,
    P_OUTCOME,
    P_PLAYERS,
    P_SEAT,
    P_TARGET,
    POLITICIAN,
    ROUND_ALONE,
    STEAL,
    action_move,
    move_action,
)
from strategies import power as strategy
from tests.games.power.test_power_rules import (
    ALWAYS_BLOCK,
    ALWAYS_BLUFF,
    CHALLENGE_ALL,
    HONEST,
    Table,
    stream,
)

B, L, C, J, P = BANKER, LAWYER, CEO, JOURNALIST, POLITICIAN
CHARACTER_ABILITY = {BANK: "banker_takes", FIRE: "ceo_fires", STEAL: "politician_steals"}
CHARACTER_ABILITY[EXCHANGE] = "journalist_exchanges"
ALL_ABILITIES_OFF = {name: False for name in CHARACTER_ABILITY.values()}
ABILITY = {**CHARACTER_ABILITY, AID: "aid_allowed"}  # the actions a rule switches off
NO_AID = {"aid_allowed": False}


def legal_moves(t: Table) -> list[int]:
    moves = np.zeros(MAX_MOVES, np.int64)
    n = kernel.legal(t.st, t.rules, moves)
    return [int(m) for m in moves[:n]]


def pose(t: Table, kind: int, seat: int, fields: dict[int, int] | None = None) -> Table:
    """Make ``kind`` the pending decision of ``seat`` (with the protocol fields ``fields``)."""
    t.st[P_PLAYERS] = t.players
    t.st[P_DECISION] = kind
    t.st[P_SEAT] = seat
    for field, value in (fields or {}).items():
        t.st[field] = value
    return t


# --- abilities ------------------------------------------------------------------------------


@pytest.mark.parametrize("action", list(ABILITY))
def test_a_switched_off_ability_is_not_a_legal_action(action):
    """The protocol's legal actions (what ``ismcts`` chooses from) lose exactly that action."""
    hands, coins = [(L, J), (C, B), (P, L)], [3, 2, 2]
    on = pose(Table(hands, coins, [HONEST] * 3), D_ACTION, 0, {P_FORCED: 0})
    off = Table(hands, coins, [HONEST] * 3, rules={ABILITY[action]: False})
    pose(off, D_ACTION, 0)
    actions_on = {move_action(m) for m in legal_moves(on)}
    actions_off = {move_action(m) for m in legal_moves(off)}
    assert actions_on == {INCOME, AID, BANK, FIRE, STEAL, EXCHANGE}
    assert actions_off == actions_on - {action}


def test_with_every_ability_off_the_general_actions_remain():
    t = Table([(B, C), (C, B), (P, L)], [7, 2, 2], [HONEST] * 3, rules=ALL_ABILITIES_OFF)
    pose(t, D_ACTION, 0)
    assert legal_moves(t) == [
        action_move(INCOME, -1), action_move(AID, -1), action_move(OVERTHROW, 1),
        action_move(OVERTHROW, 2),
    ]  # fmt: skip
    t = Table([(B, C), (C, B), (P, L)], [2, 2, 2], [HONEST] * 3, rules=ALL_ABILITIES_OFF | NO_AID)
    pose(t, D_ACTION, 0)
    assert legal_moves(t) == [action_move(INCOME, -1)]  # Income is always there


@pytest.mark.parametrize("action", list(ABILITY))
def test_taking_a_switched_off_ability_is_an_error(action):
    t = Table([(C, B), (L, P), (P, J)], [3, 2, 2], [HONEST] * 3, rules={ABILITY[action]: False})
    target = 1 if action in (FIRE, STEAL) else -1
    with pytest.raises(ValueError, match="switch off"):
        kernel.check_action(0, action, target, False, t.players, t.st, t.rules)
    with pytest.raises(ValueError, match="switch off"):
        kernel.apply(pose(t, D_ACTION, 0).st, t.rules, action_move(action, target), t.rng, t.trace)


@pytest.mark.parametrize(
    "hand, action, fallback",
    [
        ((C, L), FIRE, AID),  # a CEO with $3 fires, else asks for Aid
        ((B, L), BANK, AID),
        ((P, L), STEAL, AID),
        ((J, L), EXCHANGE, AID),  # a Journalist with a weak card exchanges
        ((L, L), AID, INCOME),  # nothing else to do: Aid, else Income
    ],
)
def test_honest_players_change_plan_when_their_ability_is_off(hand, action, fallback):
    hands, coins = [hand, (J, J), (P, B)], [3, 2, 2]
    assert Table(hands, coins, [HONEST] * 3).turn(0).action()[1] == action
    off = Table(hands, coins, [HONEST] * 3, rules={ABILITY[action]: False}).turn(0)
    assert off.action()[1] == fallback


def test_a_bluffer_claims_no_switched_off_ability():
    """``bluffer:p_bluff=1`` plays as if it held every character: it fires, and with every
    ability off it can only ask for Aid."""
    hands, coins = [(L, L), (J, J), (J, L)], [3, 2, 2]
    lineup = [ALWAYS_BLUFF, HONEST, HONEST]
    assert Table(hands, coins, lineup).turn(0).action()[1] == FIRE
    assert Table(hands, coins, lineup, rules=ALL_ABILITIES_OFF).turn(0).action()[1] == AID
    no_action = ALL_ABILITIES_OFF | NO_AID
    assert Table(hands, coins, lineup, rules=no_action).turn(0).action()[1] == INCOME


def test_random_players_choose_only_among_the_allowed_actions():
    """``random`` draws uniformly among what it may take: with every ability off and too few
    Dollars to overthrow or fire, Income and Aid, each about half the time."""
    seen = {INCOME: 0, AID: 0}
    for index in range(200):
        t = Table(
            [(B, C), (C, B), (P, J)], [3, 2, 2], ["random", HONEST, HONEST],
            rules=ALL_ABILITIES_OFF, rng=stream(5, index),
        )  # fmt: skip
        seen[t.turn(0).action()[1]] += 1  # KeyError: an action that is switched off
    assert 70 < seen[INCOME] < 130
    t = Table(
        [(B, C), (C, B), (P, J)], [3, 2, 2], ["random", HONEST, HONEST],
        rules=ALL_ABILITIES_OFF | NO_AID,
    )  # fmt: skip
    assert t.turn(0).action()[1] == INCOME


# --- blocks ---------------------------------------------------------------------------------

BLOCK = {
    (AID, B): "banker_blocks_aid",
    (FIRE, L): "lawyer_blocks_fire",
    (STEAL, P): "politician_blocks_steal",
    (STEAL, J): "journalist_blocks_steal",
}


@pytest.mark.parametrize(
    "action, off, options",
    [
        (AID, "banker_blocks_aid", []),
        (FIRE, "lawyer_blocks_fire", []),
        (STEAL, "politician_blocks_steal", [J]),
        (STEAL, "journalist_blocks_steal", [P]),
        (AID, None, [B]),
        (FIRE, None, [L]),
        (STEAL, None, [P, J]),
    ],
)
def test_block_options_are_the_characters_switched_on(action, off, options):
    t = Table([(C, B), (L, P), (P, J)], [3, 2, 2], [HONEST] * 3, rules={off: False} if off else {})
    if options:
        pose(t, D_BLOCK, 1, {P_ACTION: action, P_TARGET: 1})
        assert legal_moves(t) == [0] + [c + 1 for c in options]
        with pytest.raises(ValueError, match="may not block"):
            rules_module.block(
                1, ({B, L, P, J} - set(options)).pop(), t.st, t.rules, t.rng, t.trace
            )
    else:  # nobody may block: the action goes straight to its effect
        t.st[P_ACTION], t.st[P_TARGET] = action, 1
        rules_module.may_be_blocked(t.st, t.rules)
        assert t.st[kernel.P_STEP] == rules_module.S_EFFECT


def test_without_the_banker_block_aid_goes_through():
    hands, coins = [(L, C), (B, P), (P, J)], [2, 2, 2]
    assert Table(hands, coins, [HONEST] * 3).turn(0).events(EV_BLOCK) == [(1, B, 0, 0, 0, 0, 0)]
    t = Table(
        hands, coins, [HONEST, ALWAYS_BLOCK, ALWAYS_BLOCK], rules={"banker_blocks_aid": False}
    )
    t.turn(0)
    assert t.action()[1] == AID and not t.events(EV_BLOCK)
    assert t.coins(0) == 4


def test_without_the_lawyer_block_a_firing_strikes():
    hands, coins = [(C, B), (L, P), (P, J)], [3, 4, 1]
    assert Table(hands, coins, [HONEST] * 3).turn(0).influence(1) == 2  # blocked
    t = Table(hands, coins, [HONEST, ALWAYS_BLOCK, HONEST], rules={"lawyer_blocks_fire": False})
    t.turn(0)
    assert t.action() == (0, FIRE, 1, 3) and not t.events(EV_BLOCK)
    assert t.influence(1) == 1


def test_a_last_influence_is_not_defended_by_a_switched_off_lawyer():
    """``counter`` bluffs a Lawyer against a firing that would take its last influence, unless
    the Lawyer may not block."""
    hands, coins = [(C, B), (J, P), (P, J)], [3, 4, 1]
    down = [(1, 1), (1, 0), (1, 0)]  # seat 1 leads on Dollars: the target
    lineup = [HONEST, "counter", HONEST]
    assert Table(hands, coins, lineup, down=down).turn(0).events(EV_BLOCK)[0][:2] == (1, L)
    t = Table(hands, coins, lineup, down=down, rules={"lawyer_blocks_fire": False}).turn(0)
    assert not t.events(EV_BLOCK) and t.influence(1) == 0


@pytest.mark.parametrize(
    "off, blocker", [("politician_blocks_steal", J), ("journalist_blocks_steal", P)]
)
def test_a_steal_is_blocked_only_by_a_character_switched_on(off, blocker):
    """The victim holds both a Politician and a Journalist and blocks with the one allowed."""
    hands, coins = [(P, L), (P, J), (C, C)], [2, 4, 0]
    t = Table(hands, coins, [HONEST] * 3, rules={off: False}).turn(0)
    assert t.action() == (0, STEAL, 1, 0)
    assert t.events(EV_BLOCK) == [(1, blocker, 0, 0, 0, 0, 0)]


def test_a_steal_nobody_may_block_takes_its_dollars():
    t = Table(
        [(P, L), (P, J), (C, C)], [2, 4, 0], [HONEST, ALWAYS_BLOCK, HONEST],
        rules={"politician_blocks_steal": False, "journalist_blocks_steal": False},
    )  # fmt: skip
    t.turn(0)
    assert not t.events(EV_BLOCK)
    assert t.coins(0) == 4 and t.coins(1) == 2


@pytest.mark.parametrize(
    "hand, claim, action, off",
    [
        ((C, B), L, FIRE, "lawyer_blocks_fire"),  # no firing at a standing Lawyer
        ((P, L), J, STEAL, "journalist_blocks_steal"),  # no steal from a standing Journalist
        ((L, L), B, AID, "banker_blocks_aid"),  # no Aid past a standing Banker: Income
    ],
)
def test_a_standing_claim_of_a_switched_off_block_deters_nobody(hand, claim, action, off):
    """The scripted players do not repeat what a standing claim would block; a claim of a
    character whose block is off blocks nothing, so they go ahead."""
    hands, coins = [hand, (J, J), (P, P)], [3, 2, 2]

    def first_action(rules):
        t = Table(hands, coins, [HONEST] * 3, rules=rules)
        for seat in (1, 2):
            t.st[CLAIMS + seat] = 1 << claim
        return t.turn(0).action()[1]

    assert first_action({}) != action
    assert first_action({off: False}) == action


# --- what a lost challenge costs ------------------------------------------------------------


def caught_bluff(rules: dict) -> Table:
    """Seat 0 bluffs a CEO (it holds a Lawyer and a Journalist) and seat 1 challenges."""
    t = Table(
        [(L, J), (B, P), (C, B)], [3, 1, 4], [ALWAYS_BLUFF, CHALLENGE_ALL, HONEST], rules=rules
    )
    return t.turn(0)


def proven_claim(rules: dict) -> Table:
    """Seat 0 fires with a real CEO at seat 2 (no Lawyer) and seat 1 challenges."""
    t = Table([(C, J), (B, P), (J, B)], [3, 1, 4], [HONEST, CHALLENGE_ALL, HONEST], rules=rules)
    return t.turn(0)


def test_a_caught_bluffer_loses_the_set_number_of_influences():
    for losses, left in ((1, 1), (0, 2), (2, 0)):
        t = caught_bluff({"caught_bluffer_loses": losses})
        assert t.events(EV_CHALLENGE) == [(1, 0, C, 0, 0, 0, 0)]
        assert t.influence(0) == left, losses
        assert len(t.events(EV_LOSE)) == losses
        assert t.influence(2) == 2  # the firing failed
    assert caught_bluff({"caught_bluffer_loses": 0}).events(EV_REFUND) == [(0, 3, 0, 0, 0, 0, 0)]
    t = caught_bluff({"caught_bluffer_loses": 2})
    assert t.events(EV_LOSE) == [(0, 0, L, 0, 0, 0, 0), (0, 1, J, 0, 0, 0, 0)]
    # out with the $3 it paid for the firing in the Safe, and no refund to a player who is out
    assert t.events(EV_ELIMINATED) == [(0, 0, 0, 0, 0, 0, 0)] and t.coins(0) == 0
    assert not t.events(EV_REFUND)


def test_a_failed_challenger_loses_the_set_number_of_influences():
    for losses, left in ((1, 1), (0, 2), (2, 0)):
        t = proven_claim({"failed_challenger_loses": losses})
        assert t.events(EV_CHALLENGE) == [(1, 0, C, 1, 0, 0, 0)]
        challenger_losses = [e for e in t.events(EV_LOSE) if e[0] == 1]
        assert t.influence(1) == left and len(challenger_losses) == losses, losses
    t = proven_claim({"failed_challenger_loses": 2})
    assert t.influence(2) == 1  # the firing went on, at seat 2
    assert t.events(EV_ELIMINATED)[0][0] == 1


def test_a_penalty_at_one_influence_left_eliminates_whatever_its_count():
    for losses in (1, 2):
        t = Table(
            [(L, J), (B, P), (C, B)], [3, 1, 4], [ALWAYS_BLUFF, CHALLENGE_ALL, HONEST],
            down=[(0, 1), (1, 1), (1, 1)], rules={"caught_bluffer_loses": losses},
        )  # fmt: skip
        t.turn(0)
        assert t.events(EV_LOSE) == [(0, 1, J, 0, 0, 0, 0)] and t.influence(0) == 0


@pytest.mark.parametrize(
    "rule, losses, claimant_hand, outcome, loser",
    [
        ("caught_bluffer_loses", 0, (L, J), CLAIM_FAILED, 0),
        ("caught_bluffer_loses", 2, (L, J), CLAIM_FAILED, 0),
        ("failed_challenger_loses", 0, (C, J), CLAIM_PROVEN, 1),
        ("failed_challenger_loses", 2, (C, J), CLAIM_PROVEN, 1),
    ],
)
def test_the_protocol_charges_the_same_penalties(rule, losses, claimant_hand, outcome, loser):
    """A challenge round through the protocol (``open_round``, the strategies answering): the
    same outcome and losses as the scripted round."""
    t = Table(
        [claimant_hand, (B, P), (L, B)], [3, 1, 4], [HONEST, CHALLENGE_ALL, HONEST],
        rules={rule: losses},
    )  # fmt: skip
    scripted = Table(
        [claimant_hand, (B, P), (L, B)], [3, 1, 4], [HONEST, CHALLENGE_ALL, HONEST],
        rules={rule: losses},
    )  # fmt: skip
    assert scripted.challenge(0, C) == outcome
    pose(t, D_NONE, -1)
    rules_module.open_round(0, C, ROUND_ALONE, t.st, t.rules, t.rng)
    rules_module.advance(t.st, t.rules, t.rng, t.trace, rules_module.S_IDLE)
    while t.st[P_DECISION] != D_NONE:
        seat = int(t.st[P_SEAT])
        move = strategy.decide(t.sids[seat], t.prm, seat, t.st, t.rules, t.rng)
        rules_module.apply(t.st, t.rules, move, t.rng, t.trace)
    t.assert_conserved()
    assert t.st[P_OUTCOME] == outcome
    assert t.influence(loser) == 2 - losses == scripted.influence(loser)
    assert t.events(EV_LOSE) == scripted.events(EV_LOSE)


# --- the proof, the exchange, challenging a block -------------------------------------------


@pytest.mark.parametrize("replaced", [True, False])
def test_a_proven_card_is_replaced_unless_the_rule_is_off(replaced):
    """Rulebook: the winner of a challenge returns the card shown and draws a replacement; with
    proven_card_replaced off it keeps the card, and its claim stands, proven."""
    for index in range(20):  # a replacement of any character
        t = Table(
            [(C, J), (B, P), (L, B)], [3, 1, 4], [HONEST, CHALLENGE_ALL, HONEST],
            rules={"proven_card_replaced": replaced}, rng=stream(3, index),
        )  # fmt: skip
        deck = t.deck
        assert t.challenge(0, C) == CLAIM_PROVEN
        assert len(t.events(EV_REPLACE)) == replaced
        if replaced:
            ((seat, slot, shown, drawn, *_),) = t.events(EV_REPLACE)
            assert (seat, slot, shown) == (0, 0, C) and t.hand(0) == (drawn, J)
            assert sum(t.deck) == sum(deck) and not t.st[CLAIMS] & (1 << C)
        else:
            assert t.hand(0) == (C, J) and t.deck == deck
            assert t.st[CLAIMS] == 1 << C  # shown and kept: the claim stands


@pytest.mark.parametrize("draws", [1, 2])
def test_an_exchange_draws_exchange_draws_cards(draws):
    for index in range(10):
        t = Table(
            [(J, L), (C, L), (P, B)], [2, 2, 2], [HONEST] * 3,
            rules={"exchange_draws": draws}, rng=stream(4, index),
        )  # fmt: skip
        deck = t.deck
        t.turn(0)
        ((seat, n_drawn, d0, d1, *_),) = t.events(EV_EXCHANGE)
        assert (seat, n_drawn) == (0, draws)
        assert (d1 == -1) == (draws == 1)
        assert sum(t.deck) == sum(deck)


@pytest.mark.parametrize("challengeable", [True, False])
def test_a_block_stands_unchallenged_when_blocks_cannot_be_challenged(challengeable):
    """Seat 1 bluff-blocks Aid with a Banker it lacks; the actor challenges every claim: it
    catches the bluff, unless blocks cannot be challenged (then the block stands)."""
    rules = {"blocks_challengeable": challengeable}
    hands, coins = [(L, L), (C, P), (C, J)], [2, 2, 2]
    t = Table(hands, coins, [CHALLENGE_ALL, ALWAYS_BLOCK, HONEST], rules=rules).turn(0)
    assert t.events(EV_BLOCK) == [(1, B, 0, 0, 0, 0, 0)]
    assert bool(t.events(EV_CHALLENGE)) == challengeable
    assert t.coins(0) == (4 if challengeable else 2)
    assert t.influence(1) == (1 if challengeable else 2)
    # the same through the protocol: the actor answers the block offer ...
    p = Table(hands, coins, [CHALLENGE_ALL, ALWAYS_BLOCK, HONEST], rules=rules)
    pose(p, D_NONE, -1)
    p.st[kernel.P_ACTOR] = 0
    p.st[kernel.P_STEP] = rules_module.S_TURN_START
    rules_module.advance(p.st, p.rules, p.rng, p.trace, rules_module.S_IDLE)
    while p.st[P_DECISION] != D_NONE and p.st[kernel.P_TURN] == 0:
        seat = int(p.st[P_SEAT])
        move = strategy.decide(p.sids[seat], p.prm, seat, p.st, p.rules, p.rng)
        rules_module.apply(p.st, p.rules, move, p.rng, p.trace)
    assert p.events(EV_BLOCK) == t.events(EV_BLOCK)
    assert p.events(EV_CHALLENGE) == t.events(EV_CHALLENGE)
    assert p.coins(0) == t.coins(0) and p.influence(1) == t.influence(1)


# --- the docs -------------------------------------------------------------------------------

RULEBOOK = Path("/work/shared/rules/power.md")
DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "power.md"


def test_the_house_rules_table_covers_the_rulebook_and_every_parameter():
    """docs/games/power.md, "House rules": a row for every section heading of the rulebook, and
    every rule parameter named there (as the rule it changes) and in "Rule parameters"."""
    text = DOCS.read_text()
    house = text.split("## House rules: rulebook section → rule → parameter", 1)[1]
    house, listed = house.split("## Rule parameters", 1)
    sections = [line.split("|")[1].strip() for line in house.splitlines() if line.startswith("| ")]
    headings = [
        line.strip("#* :\n").strip("*")
        for line in RULEBOOK.read_text().splitlines()
        if line.startswith("#")
    ]
    missing = [h for h in headings if not any(h.lower() in cell.lower() for cell in sections)]
    assert len(headings) >= 15 and not missing, f"no House rules row for {missing}"
    for param in kernel.RULES:
        assert f"`{param.name}`" in house, param.name
        assert f"| `{param.name}` |" in listed, param.name
