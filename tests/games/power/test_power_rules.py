"""Every POWER rule as a scenario: build a state by hand, call one transition, check the result.

Each scenario sets the Safe, the deck, the coins, the hands and the face-down flags directly in the
state array ``st`` (layout in ``simcore/games/power/state.py``) and picks strategies whose decisions
are deterministic for that state:

* ``honest`` never bluffs, blocks only with cards it holds and challenges only impossible claims;
* ``counter:threshold=1.0`` challenges every claim (``threshold=0.0``: only impossible ones);
* ``bluffer:p_bluff=1`` acts as if it held every character, ``p_challenge=1`` always challenges,
  ``p_block_bluff=1`` always blocks;
* ``random`` is driven onto a known choice by picking a game stream whose first draw is known.

Every transition made through :class:`Table` is followed by a conservation check: the Dollars in
front of the players plus the Safe make ``safe_size``, and for each character the copies in the
deck plus those in hands (face down or revealed) make ``copies_per_character``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore import registry
from simcore.games.power import game as kernel
from simcore.games.power.state import (
    AID,
    BANK,
    BANKER,
    CEO,
    COINS,
    DECK,
    DOWN,
    EV_ACTION,
    EV_BLOCK,
    EV_CHALLENGE,
    EV_DEAL,
    EV_ELIMINATED,
    EV_END,
    EV_EXCHANGE,
    EV_GAIN,
    EV_LOSE,
    EV_REFUND,
    EV_REPLACE,
    EV_SNAPSHOT,
    EV_TURN,
    EXCHANGE,
    FIRE,
    HAND,
    INCOME,
    JOURNALIST,
    LAWYER,
    N_CHARACTERS,
    N_SEAT_STATS,
    OVERTHROW,
    POLITICIAN,
    SAFE,
    STATE_SIZE,
    STATS,
    STEAL,
    TRACE_LEN,
    TRACE_WIDTH,
    influence,
)
from simcore.kernel.rng import rand_below, seed_game_stream
from simcore.registry import SpecError

GAME = registry.make("power")
B, L, C, J, P = BANKER, LAWYER, CEO, JOURNALIST, POLITICIAN

HONEST = "honest"
CHALLENGE_ALL = "counter:threshold=1.0"
CHALLENGE_IMPOSSIBLE = "counter:threshold=0.0"
ALWAYS_BLUFF = "bluffer:p_bluff=1.0,p_challenge=0.0,p_block_bluff=0.0"
ALWAYS_CHALLENGE = "bluffer:p_bluff=0.0,p_challenge=1.0,p_block_bluff=0.0"
ALWAYS_BLOCK = "bluffer:p_bluff=0.0,p_challenge=0.0,p_block_bluff=1.0"


# --- set-up helpers -------------------------------------------------------------------------


def encode_rules(players: int, **overrides) -> np.ndarray:
    return kernel.prepare(GAME.rules_with_defaults(overrides), players)


def encode_lineup(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    return GAME.encode_strategies([registry.parse_strategy(GAME, text) for text in texts])


def stream(seed: int = 11, index: int = 0) -> np.ndarray:
    rng = np.zeros(4, np.uint64)
    seed_game_stream(seed, index, rng)
    return rng


def stream_whose_first_draw(n: int, value: int, seed: int = 11) -> np.ndarray:
    """A game stream whose first ``rand_below(rng, n)`` is ``value``: steers ``random``."""
    for index in range(10_000):
        rng = stream(seed, index)
        if rand_below(rng.copy(), n) == value:
            return rng
    raise AssertionError("no such stream")


class Table:
    """A hand-built POWER state plus everything a transition needs."""

    def __init__(
        self,
        hands: list[tuple[int, int]],
        coins: list[int],
        strategies: list[str],
        *,
        down: list[tuple[int, int]] | None = None,
        rules: dict | None = None,
        rng: np.ndarray | None = None,
    ):
        self.players = len(hands)
        assert len(coins) == len(strategies) == self.players
        self.rules_dict = GAME.rules_with_defaults(rules or {})
        self.rules = kernel.prepare(self.rules_dict, self.players)
        self.sids, self.prm = encode_lineup(strategies)
        self.rng = stream() if rng is None else rng
        self.trace = np.zeros((500, TRACE_WIDTH), np.int64)
        copies = self.rules_dict["copies_per_character"]
        st = np.zeros(STATE_SIZE, np.int64)
        for seat in range(self.players):
            st[COINS + seat] = coins[seat]
            for slot in range(2):
                st[HAND + 2 * seat + slot] = hands[seat][slot]
                st[DOWN + 2 * seat + slot] = 1 if down is None else down[seat][slot]
            st[STATS + N_SEAT_STATS * seat + kernel.START_CARD0] = hands[seat][0]
            st[STATS + N_SEAT_STATS * seat + kernel.START_CARD1] = hands[seat][1]
            st[STATS + N_SEAT_STATS * seat + kernel.ELIMINATED_TURN] = -1
        for character in range(N_CHARACTERS):
            st[DECK + character] = copies - sum(hand.count(character) for hand in hands)
        st[SAFE] = self.rules_dict["safe_size"] - sum(coins)
        kernel.recount(st, self.players)
        self.st = st
        self.assert_conserved()

    # transitions
    def turn(self, seat: int, turn: int = 0) -> Table:
        kernel.take_turn(
            seat, self.players, turn, self.st, self.rules, self.sids, self.prm, self.rng,
            self.trace,
        )  # fmt: skip
        self.assert_conserved()
        return self

    def lose(self, seat: int, turn: int = 0) -> Table:
        kernel.lose_influence(seat, turn, self.st, self.rules, self.sids, self.rng, self.trace)
        self.assert_conserved()
        return self

    def challenge(self, claimant: int, character: int) -> int:
        outcome = kernel.challenge_round(
            claimant, character, self.players, 0, self.st, self.rules, self.sids, self.prm,
            self.rng, self.trace,
        )  # fmt: skip
        self.assert_conserved()
        return outcome

    def exchange(self, seat: int) -> Table:
        kernel.exchange(seat, self.st, self.rules, self.sids, self.rng, self.trace)
        self.assert_conserved()
        return self

    # reading the state
    def coins(self, seat: int) -> int:
        return int(self.st[COINS + seat])

    @property
    def safe(self) -> int:
        return int(self.st[SAFE])

    @property
    def deck(self) -> list[int]:
        return [int(self.st[DECK + c]) for c in range(N_CHARACTERS)]

    def hand(self, seat: int) -> tuple[int, int]:
        return int(self.st[HAND + 2 * seat]), int(self.st[HAND + 2 * seat + 1])

    def down(self, seat: int) -> tuple[int, int]:
        return int(self.st[DOWN + 2 * seat]), int(self.st[DOWN + 2 * seat + 1])

    def influence(self, seat: int) -> int:
        return int(influence(self.st, seat))

    def stat(self, seat: int, column: int) -> int:
        return int(self.st[STATS + N_SEAT_STATS * seat + column])

    def events(self, kind: int | None = None) -> list[tuple[int, ...]]:
        """The trace rows so far (all fields after the event code), of one kind if given."""
        rows = self.trace[: self.st[TRACE_LEN]]
        return [tuple(int(x) for x in row[1:]) for row in rows if kind is None or row[0] == kind]

    def kinds(self) -> list[int]:
        return [int(row[0]) for row in self.trace[: self.st[TRACE_LEN]]]

    def action(self) -> tuple[int, int, int, int]:
        """(seat, action, target, paid) of the only action so far."""
        (event,) = self.events(EV_ACTION)
        return event[:4]

    def assert_conserved(self) -> None:
        recounted = self.st.copy()
        kernel.recount(recounted, self.players)
        assert np.array_equal(recounted, self.st), "a kept count differs from the cards"
        assert self.safe >= 0
        assert all(self.coins(seat) >= 0 for seat in range(self.players))
        assert (
            sum(self.coins(s) for s in range(self.players)) + self.safe
            == self.rules_dict["safe_size"]
        )
        copies = self.rules_dict["copies_per_character"]
        for character in range(N_CHARACTERS):
            in_hands = sum(self.hand(s).count(character) for s in range(self.players))
            assert self.deck[character] >= 0
            assert self.deck[character] + in_hands == copies, f"character {character}"


# --- general actions ------------------------------------------------------------------------


def test_income_takes_one_dollar_from_the_safe():
    # random's first draw picks among its legal actions; 0 is Income (5 legal at 2 Dollars).
    t = Table(
        [(L, J), (C, B), (P, L)],
        [2, 2, 2],
        ["random", HONEST, HONEST],
        rng=stream_whose_first_draw(5, 0),
    )
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, INCOME, -1, 0)
    assert t.coins(0) == 3 and t.safe == safe - 1
    assert t.events(EV_GAIN) == [(0, -1, 1, 0, 0, 0, 0)]
    assert not t.events(EV_CHALLENGE) and not t.events(EV_BLOCK)


def test_aid_takes_two_dollars_from_the_safe():
    # honest without a Banker, a Politician or a usable CEO asks for Aid; nobody holds a Banker.
    t = Table([(L, C), (C, L), (P, J)], [2, 2, 2], [HONEST, HONEST, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, AID, -1, 0)
    assert t.coins(0) == 4 and t.safe == safe - 2
    assert not t.events(EV_BLOCK)


def test_banker_takes_three_dollars_from_the_safe():
    t = Table([(B, L), (C, L), (P, J)], [2, 2, 2], [HONEST, HONEST, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, BANK, -1, 0)
    assert t.coins(0) == 5 and t.safe == safe - 3
    assert not t.events(EV_CHALLENGE)


@pytest.mark.parametrize(
    "rule, value, hand, expected",
    [("income", 4, (L, J), 4), ("aid", 5, (L, C), 5), ("banker_take", 6, (B, L), 6)],
)
def test_amounts_taken_from_the_safe_are_rule_parameters(rule, value, hand, expected):
    rng = stream_whose_first_draw(5, 0) if rule == "income" else None
    first = "random" if rule == "income" else HONEST
    t = Table(
        [hand, (C, L), (P, J)], [2, 2, 2], [first, HONEST, HONEST], rules={rule: value}, rng=rng
    )
    t.turn(0)
    assert t.coins(0) == 2 + expected


@pytest.mark.parametrize("hand, action", [((L, C), AID), ((B, L), BANK)])
def test_safe_with_one_dollar_left_pays_one(hand, action):
    # safe_size 7 minus 6 Dollars in front of the players: 1 Dollar is left in the Safe.
    t = Table([hand, (C, L), (P, J)], [2, 2, 2], [HONEST, HONEST, HONEST], rules={"safe_size": 7})
    assert t.safe == 1
    t.turn(0)
    assert t.action()[1] == action
    assert t.coins(0) == 3 and t.safe == 0
    assert t.events(EV_GAIN) == [(0, -1, 1, 0, 0, 0, 0)]


def test_empty_safe_pays_nothing():
    t = Table([(L, C), (C, L), (P, J)], [2, 2, 2], [HONEST, HONEST, HONEST], rules={"safe_size": 6})
    t.turn(0)
    assert t.action()[1] == AID
    assert t.coins(0) == 2 and t.safe == 0


# --- overthrow ------------------------------------------------------------------------------


def test_overthrow_pays_seven_into_the_safe_and_target_loses_an_influence():
    # honest overthrows as soon as it can; the leader (most influence, then most Dollars) is seat 2.
    # The overthrow cannot be challenged or blocked, even by players who challenge and block all.
    t = Table([(B, L), (C, L), (P, J)], [7, 1, 3], [HONEST, CHALLENGE_ALL, ALWAYS_BLOCK])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, OVERTHROW, 2, 7)
    assert t.coins(0) == 0 and t.safe == safe + 7
    assert t.influence(2) == 1 and t.influence(1) == 2
    # The target chooses which card to reveal (bluffer keeps the Politician over the Journalist).
    assert t.events(EV_LOSE) == [(2, 1, J, 0, 0, 0, 0)]
    assert t.down(2) == (1, 0)
    assert not t.events(EV_CHALLENGE) and not t.events(EV_BLOCK)


def test_overthrow_cost_is_a_rule_parameter():
    t = Table(
        [(B, L), (C, L), (P, J)], [4, 1, 3], [HONEST, HONEST, HONEST], rules={"overthrow_cost": 4}
    )
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, OVERTHROW, 2, 4)
    assert t.coins(0) == 0 and t.safe == safe + 4
    assert t.influence(2) == 1


@pytest.mark.parametrize("index", range(12))
def test_forced_overthrow_at_ten(index):
    # random picks any legal action, but a turn started with 10 Dollars must overthrow.
    t = Table(
        [(B, L), (C, L), (P, J)], [10, 1, 3], ["random", HONEST, HONEST], rng=stream(5, index)
    )
    t.turn(0)
    assert t.events(EV_TURN) == [(0, 10, 1, 0, 0, 0, 0)]
    seat, action, target, paid = t.action()
    assert (seat, action, paid) == (0, OVERTHROW, 7)
    assert target in (1, 2) and t.influence(target) == 1
    assert t.coins(0) == 3


def test_no_forced_overthrow_at_nine():
    # At 9 Dollars random has 7 legal actions; its first draw 0 picks Income, not an overthrow.
    rng = stream_whose_first_draw(7, 0)
    t = Table([(B, L), (C, L), (P, J)], [9, 1, 3], ["random", HONEST, HONEST], rng=rng.copy())
    t.turn(0)
    assert t.events(EV_TURN) == [(0, 9, 0, 0, 0, 0, 0)]
    assert t.action() == (0, INCOME, -1, 0)
    assert t.coins(0) == 10
    # The same stream at 10 Dollars: the overthrow is forced.
    t = Table([(B, L), (C, L), (P, J)], [10, 1, 3], ["random", HONEST, HONEST], rng=rng.copy())
    t.turn(0)
    assert t.action()[1] == OVERTHROW


def test_forced_overthrow_at_is_a_rule_parameter():
    rng = stream_whose_first_draw(7, 0)
    t = Table(
        [(B, L), (C, L), (P, J)],
        [7, 1, 3],
        ["random", HONEST, HONEST],
        rules={"forced_overthrow_at": 7},
        rng=rng.copy(),
    )
    t.turn(0)
    assert t.events(EV_TURN)[0][:3] == (0, 7, 1)
    assert t.action()[1] == OVERTHROW
    t = Table(
        [(B, L), (C, L), (P, J)],
        [7, 1, 3],
        ["random", HONEST, HONEST],
        rules={"forced_overthrow_at": 8},
        rng=rng.copy(),
    )
    t.turn(0)
    assert t.events(EV_TURN)[0][:3] == (0, 7, 0)
    assert t.action()[1] == INCOME


def test_no_forced_overthrow_without_the_dollars_to_pay():
    # Convention: forced only when the overthrow is affordable (cost 12 > 11 Dollars).
    rng = stream_whose_first_draw(6, 0)  # 6 legal: no overthrow, but a firing
    t = Table(
        [(B, L), (C, L), (P, J)],
        [11, 1, 3],
        ["random", HONEST, HONEST],
        rules={"overthrow_cost": 12},
        rng=rng,
    )
    t.turn(0)
    assert t.events(EV_TURN)[0][:3] == (0, 11, 0)
    assert t.action()[1] == INCOME


@pytest.mark.parametrize(
    "forced, action, target, coins, message",
    [
        (True, INCOME, -1, 10, "forced overthrow"),
        (False, OVERTHROW, 1, 6, "overthrew without"),
        (False, FIRE, 1, 2, "fired without"),
        (False, STEAL, 0, 2, "cannot be targeted"),
        (False, STEAL, 2, 2, "cannot be targeted"),
        (False, FIRE, 3, 5, "cannot be targeted"),
    ],
)
def test_illegal_strategy_choices_are_errors(forced, action, target, coins, message):
    t = Table([(B, L), (C, L), (P, J)], [coins, 1, 3], [HONEST] * 3, down=[(1, 1), (1, 1), (0, 0)])
    with pytest.raises(ValueError, match=message):
        kernel.check_action(0, action, target, forced, t.players, t.st, t.rules)


# --- Banker blocks Aid ----------------------------------------------------------------------


def test_banker_blocks_aid():
    t = Table([(L, C), (B, P), (P, J)], [2, 2, 2], [HONEST, HONEST, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action()[1] == AID
    assert t.events(EV_BLOCK) == [(1, B, 0, 0, 0, 0, 0)]
    assert t.coins(0) == 2 and t.safe == safe
    assert t.stat(1, kernel.BLOCKS) == 1 and t.stat(1, kernel.BLUFFS_MADE) == 0


def test_any_player_may_block_aid_first_clockwise_from_the_actor():
    # Seats 2 and 3 both hold a Banker; clockwise from the actor's left, seat 2 is asked first.
    t = Table([(L, C), (P, J), (B, P), (B, L)], [2, 2, 2, 2], [HONEST] * 4)
    t.turn(0)
    assert t.events(EV_BLOCK) == [(2, B, 0, 0, 0, 0, 0)]
    assert t.coins(0) == 2


def test_caught_banker_bluff_lets_aid_through():
    # Seat 1 bluff-blocks with a Banker it lacks; the actor challenges every claim and wins.
    t = Table([(L, L), (C, P), (C, J)], [2, 2, 2], [CHALLENGE_ALL, ALWAYS_BLOCK, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action()[1] == AID
    assert t.events(EV_BLOCK) == [(1, B, 0, 0, 0, 0, 0)]
    assert t.events(EV_CHALLENGE) == [(0, 1, B, 0, 0, 0, 0)]
    assert t.influence(1) == 1
    assert t.coins(0) == 4 and t.safe == safe - 2
    assert t.stat(1, kernel.BLUFFS_MADE) == 1 and t.stat(1, kernel.BLUFFS_CAUGHT) == 1
    assert t.stat(0, kernel.CHALLENGES_MADE) == 1 and t.stat(0, kernel.CHALLENGES_WON) == 1


def test_proven_banker_block_stands_and_the_challenger_loses():
    t = Table([(L, L), (B, P), (C, J)], [2, 2, 2], [CHALLENGE_ALL, HONEST, HONEST])
    t.turn(0)
    assert t.events(EV_CHALLENGE) == [(0, 1, B, 1, 0, 0, 0)]
    assert t.influence(0) == 1 and t.influence(1) == 2
    assert t.coins(0) == 2
    assert not t.events(EV_GAIN)


# --- CEO and Lawyer -------------------------------------------------------------------------


def test_unchallenged_ceo_fires_the_target():
    t = Table([(C, B), (L, P), (P, J)], [3, 1, 4], [HONEST, HONEST, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, FIRE, 2, 3)
    assert t.coins(0) == 0 and t.safe == safe + 3
    assert t.influence(2) == 1


def test_caught_ceo_claim_is_refunded():
    # bluffer:p_bluff=1 fires without a CEO; seat 1 challenges every claim and catches it.
    t = Table([(L, J), (B, P), (C, B)], [3, 1, 4], [ALWAYS_BLUFF, CHALLENGE_ALL, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, FIRE, 2, 3)
    assert t.events(EV_CHALLENGE) == [(1, 0, C, 0, 0, 0, 0)]
    assert t.events(EV_REFUND) == [(0, 3, 0, 0, 0, 0, 0)]
    assert t.coins(0) == 3 and t.safe == safe
    assert t.influence(0) == 1 and t.influence(2) == 2
    assert t.stat(0, kernel.BLUFFS_MADE) == 1 and t.stat(0, kernel.BLUFFS_CAUGHT) == 1


def test_no_refund_when_refund_failed_action_is_false():
    t = Table(
        [(L, J), (B, P), (C, B)],
        [3, 1, 4],
        [ALWAYS_BLUFF, CHALLENGE_ALL, HONEST],
        rules={"refund_failed_action": False},
    )
    safe = t.safe
    t.turn(0)
    assert t.events(EV_CHALLENGE) == [(1, 0, C, 0, 0, 0, 0)]
    assert not t.events(EV_REFUND)
    assert t.coins(0) == 0 and t.safe == safe + 3
    assert t.influence(0) == 1 and t.influence(2) == 2


def test_ceo_cost_is_a_rule_parameter():
    t = Table([(C, B), (L, P), (P, J)], [5, 1, 4], [HONEST, HONEST, HONEST], rules={"ceo_cost": 5})
    t.turn(0)
    assert t.action() == (0, FIRE, 2, 5)
    assert t.coins(0) == 0


def test_ceo_pays_even_when_blocked_by_a_lawyer():
    t = Table([(C, B), (L, P), (P, J)], [3, 4, 1], [HONEST, HONEST, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, FIRE, 1, 3)
    assert t.events(EV_BLOCK) == [(1, L, 0, 0, 0, 0, 0)]
    assert not t.events(EV_REFUND)
    assert t.coins(0) == 0 and t.safe == safe + 3


def test_lawyer_blocks_a_firing():
    t = Table([(C, B), (L, P), (P, J)], [3, 4, 1], [HONEST, HONEST, HONEST])
    t.turn(0)
    assert t.events(EV_BLOCK) == [(1, L, 0, 0, 0, 0, 0)]
    assert t.influence(1) == 2
    assert not t.events(EV_LOSE)


def test_only_the_target_may_block_a_firing():
    # Seat 2 holds a Lawyer but is not the target; seat 1 has none: no block.
    t = Table([(C, B), (J, P), (L, L)], [3, 4, 1], [HONEST, HONEST, HONEST])
    t.turn(0)
    assert t.action()[2] == 1
    assert not t.events(EV_BLOCK)
    assert t.influence(1) == 1


def test_caught_lawyer_bluff_costs_the_target_both_influences():
    # The target bluff-blocks with a Lawyer; the actor challenges it and wins; the firing goes on.
    t = Table([(C, B), (B, P), (P, J)], [3, 4, 1], [CHALLENGE_ALL, ALWAYS_BLOCK, HONEST])
    t.turn(0, turn=3)
    assert t.events(EV_BLOCK) == [(1, L, 0, 0, 0, 0, 0)]
    assert t.events(EV_CHALLENGE) == [(0, 1, L, 0, 0, 0, 0)]
    assert t.influence(1) == 0 and t.down(1) == (0, 0)
    assert t.stat(1, kernel.INFLUENCE_LOST) == 2
    assert t.stat(1, kernel.ELIMINATED_TURN) == 3


# --- challenges -----------------------------------------------------------------------------


def test_proven_claim_swaps_the_card_and_the_challenger_loses_an_influence():
    t = Table([(L, B), (C, P), (P, J)], [2, 2, 2], [HONEST, CHALLENGE_ALL, HONEST])
    deck = t.deck
    safe = t.safe
    t.turn(0)
    assert t.action()[1] == BANK
    assert t.events(EV_CHALLENGE) == [(1, 0, B, 1, 0, 0, 0)]
    ((seat, slot, shown, drawn, *_),) = t.events(EV_REPLACE)
    assert (seat, slot, shown) == (0, 1, B)
    assert t.hand(0) == (L, drawn) and t.down(0) == (1, 1)
    expected = list(deck)
    expected[B] += 1
    expected[drawn] -= 1
    assert t.deck == expected and sum(t.deck) == sum(deck)
    # The challenger loses an influence, the action proceeds: the Banker takes 3.
    assert t.influence(1) == 1
    assert t.coins(0) == 5 and t.safe == safe - 3
    assert t.stat(1, kernel.CHALLENGES_MADE) == 1 and t.stat(1, kernel.CHALLENGES_WON) == 0
    # The challenge is resolved before the Banker is paid.
    kinds = t.kinds()
    assert kinds.index(EV_CHALLENGE) < kinds.index(EV_REPLACE) < kinds.index(EV_GAIN)


def test_replacement_is_drawn_after_the_card_is_shuffled_back():
    # Two copies each, five players: the deck is empty, so the only card to draw is the one shown.
    hands = [(B, L), (B, L), (C, C), (P, P), (J, J)]
    t = Table(
        hands,
        [2] * 5,
        [HONEST, CHALLENGE_ALL, HONEST, HONEST, HONEST],
        rules={"copies_per_character": 2},
    )
    assert t.deck == [0, 0, 0, 0, 0]
    assert t.challenge(0, B) == kernel.CLAIM_PROVEN
    assert t.events(EV_REPLACE)[0][:4] == (0, 0, B, B)
    assert t.hand(0) == (B, L) and t.deck == [0, 0, 0, 0, 0]


def test_challenge_outcomes():
    t = Table([(B, L), (C, P), (P, J)], [2, 2, 2], [HONEST, CHALLENGE_IMPOSSIBLE, HONEST])
    assert t.challenge(0, C) == kernel.CLAIM_UNCHALLENGED  # possible: nobody challenges
    t = Table([(B, L), (C, P), (P, J)], [2, 2, 2], [HONEST, CHALLENGE_ALL, HONEST])
    assert t.challenge(0, B) == kernel.CLAIM_PROVEN
    assert t.influence(1) == 1 and t.influence(0) == 2
    t = Table([(B, L), (C, P), (P, J)], [2, 2, 2], [HONEST, CHALLENGE_ALL, HONEST])
    assert t.challenge(0, J) == kernel.CLAIM_FAILED
    assert t.influence(0) == 1 and t.influence(1) == 2
    assert not t.events(EV_REPLACE)


def test_impossible_claims_are_challenged_by_honest_players():
    # Seat 2 sees all three CEOs (two revealed, one in its own hand): a CEO claim is a lie.
    t = Table(
        [(B, L), (C, C), (C, J)], [2, 2, 2], [HONEST, HONEST, HONEST], down=[(1, 1), (0, 0), (1, 1)]
    )
    assert t.challenge(0, C) == kernel.CLAIM_FAILED
    assert t.events(EV_CHALLENGE) == [(2, 0, C, 0, 0, 0, 0)]


@pytest.mark.parametrize("claimant", range(4))
def test_challenge_order_is_clockwise_from_the_claimants_left(claimant):
    strategies = [CHALLENGE_ALL] * 4
    strategies[claimant] = HONEST
    hands = [(C, L), (C, P), (P, J), (J, L)]
    hands[claimant] = (B, L)
    t = Table(hands, [2, 2, 2, 2], strategies)
    t.turn(claimant)
    assert t.action()[1] == BANK
    assert [e[:2] for e in t.events(EV_CHALLENGE)] == [((claimant + 1) % 4, claimant)]


def test_challenge_order_skips_eliminated_players():
    t = Table(
        [(B, L), (C, P), (P, J), (J, L)],
        [2, 0, 2, 2],
        [HONEST] + [CHALLENGE_ALL] * 3,
        down=[(1, 1), (0, 0), (1, 1), (1, 1)],
    )
    t.turn(0)
    assert [e[:2] for e in t.events(EV_CHALLENGE)] == [(2, 0)]


def test_a_block_is_challenged_clockwise_from_the_blockers_left():
    # Seat 1 blocks seat 0's Aid; seats 2 and 0 both challenge every claim: seat 2 is asked first.
    t = Table([(L, L), (B, P), (C, J)], [2, 2, 2], [CHALLENGE_ALL, HONEST, CHALLENGE_ALL])
    t.turn(0)
    assert [e[:2] for e in t.events(EV_CHALLENGE)] == [(2, 1)]


def test_random_challenge_order_starts_anywhere():
    counts = {1: 0, 2: 0, 3: 0}
    for index in range(300):
        t = Table(
            [(B, L), (C, P), (P, J), (J, L)],
            [2, 2, 2, 2],
            [HONEST] + [CHALLENGE_ALL] * 3,
            rules={"challenge_order": "random"},
            rng=stream(3, index),
        )
        assert t.challenge(0, B) == kernel.CLAIM_PROVEN
        ((challenger, *_),) = t.events(EV_CHALLENGE)
        counts[challenger] += 1
    assert min(counts.values()) > 60, counts


def test_a_challenge_to_an_action_is_resolved_before_any_block():
    # Seat 1 is fired, challenges the true CEO and loses, then blocks with its Lawyer.
    t = Table([(C, B), (L, J), (P, J)], [3, 4, 1], [HONEST, ALWAYS_CHALLENGE, HONEST])
    t.turn(0)
    assert t.events(EV_CHALLENGE) == [(1, 0, C, 1, 0, 0, 0)]
    assert t.events(EV_BLOCK) == [(1, L, 0, 0, 0, 0, 0)]
    kinds = t.kinds()
    assert kinds.index(EV_CHALLENGE) < kinds.index(EV_BLOCK)
    assert t.influence(1) == 1


def test_double_loss_in_one_turn():
    # The target challenges a true CEO and loses, then is fired: both influences in one turn.
    t = Table([(C, B), (B, P), (L, J)], [3, 5, 1], [HONEST, ALWAYS_CHALLENGE, HONEST])
    safe = t.safe
    t.turn(0, turn=6)
    assert t.action() == (0, FIRE, 1, 3)
    assert t.events(EV_CHALLENGE) == [(1, 0, C, 1, 0, 0, 0)]
    assert [e[:3] for e in t.events(EV_LOSE)] == [(1, 1, P), (1, 0, B)]
    assert t.influence(1) == 0
    assert t.stat(1, kernel.INFLUENCE_LOST) == 2
    assert t.stat(1, kernel.ELIMINATED_TURN) == 6
    assert t.events(EV_ELIMINATED) == [(1, 5, 0, 0, 0, 0, 0)]
    assert t.coins(1) == 0 and t.safe == safe + 3 + 5


# --- Politician steals, Politician and Journalist block -------------------------------------


def test_steal_takes_two():
    t = Table([(P, L), (C, L), (C, B)], [2, 4, 1], [HONEST, HONEST, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, STEAL, 1, 0)
    assert t.events(EV_GAIN) == [(0, 1, 2, 0, 0, 0, 0)]
    assert t.coins(0) == 4 and t.coins(1) == 2 and t.safe == safe


def test_steal_takes_one_when_the_victim_has_one():
    t = Table([(P, L), (C, L), (C, B)], [2, 1, 0], [HONEST, HONEST, HONEST])
    t.turn(0)
    assert t.action() == (0, STEAL, 1, 0)
    assert t.coins(0) == 3 and t.coins(1) == 0


def test_steal_amount_is_a_rule_parameter():
    t = Table([(P, L), (C, L), (C, B)], [2, 9, 1], [HONEST, HONEST, HONEST], rules={"steal": 4})
    t.turn(0)
    assert t.coins(0) == 6 and t.coins(1) == 5


def test_stealing_from_a_player_without_dollars_is_allowed_and_takes_nothing():
    # Convention: no targeting restriction; random may steal from an empty purse.
    for index in range(2000):
        t = Table(
            [(L, L), (C, L), (C, B)], [2, 0, 0], ["random", HONEST, HONEST], rng=stream(9, index)
        )
        t.turn(0)
        if t.action()[1] == STEAL:  # nobody holds a blocker; honest players do not challenge
            assert t.events(EV_GAIN)[0][:3] == (0, t.action()[2], 0)
            assert t.coins(0) == 2
            return
    raise AssertionError("random never stole unopposed")


@pytest.mark.parametrize("blocker_card", [POLITICIAN, JOURNALIST])
def test_politician_and_journalist_each_block_a_steal(blocker_card):
    t = Table([(P, L), (blocker_card, C), (C, B)], [2, 4, 1], [HONEST, HONEST, HONEST])
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, STEAL, 1, 0)
    assert t.events(EV_BLOCK) == [(1, blocker_card, 0, 0, 0, 0, 0)]
    assert t.coins(0) == 2 and t.coins(1) == 4 and t.safe == safe
    assert not t.events(EV_GAIN)


def test_caught_steal_block_bluff_lets_the_steal_through():
    # bluffer's bluff-block claims the first blocker of a steal: the Politician.
    t = Table([(P, L), (C, B), (C, L)], [2, 4, 1], [CHALLENGE_ALL, ALWAYS_BLOCK, HONEST])
    t.turn(0)
    assert t.events(EV_BLOCK) == [(1, POLITICIAN, 0, 0, 0, 0, 0)]
    assert t.events(EV_CHALLENGE) == [(0, 1, POLITICIAN, 0, 0, 0, 0)]
    assert t.influence(1) == 1
    assert t.coins(0) == 4 and t.coins(1) == 2


def test_only_the_victim_may_block_a_steal():
    t = Table([(P, L), (C, B), (P, J)], [2, 4, 1], [HONEST, HONEST, HONEST])
    t.turn(0)
    assert t.action()[2] == 1
    assert not t.events(EV_BLOCK)
    assert t.coins(1) == 2


def test_victim_eliminated_by_its_challenge_is_not_offered_a_block():
    # The victim (one influence) challenges a true Politician, is out, its Dollars go to the Safe:
    # the steal then takes what it has left, nothing.
    t = Table(
        [(P, L), (J, B), (C, L)],
        [2, 4, 1],
        [HONEST, ALWAYS_CHALLENGE, HONEST],
        down=[(1, 1), (1, 0), (1, 0)],
    )
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, STEAL, 1, 0)
    assert t.influence(1) == 0
    assert not t.events(EV_BLOCK)
    assert t.coins(1) == 0 and t.safe == safe + 4
    assert t.events(EV_GAIN) == [(0, 1, 0, 0, 0, 0, 0)]


# --- Journalist exchange --------------------------------------------------------------------


@pytest.mark.parametrize("down", [(1, 1), (1, 0)])
def test_exchange_keeps_the_face_down_count_and_conserves_the_deck(down):
    for index in range(30):
        t = Table(
            [(J, L), (C, L), (P, B)],
            [2, 2, 2],
            [HONEST, HONEST, HONEST],
            down=[down, (1, 1), (1, 1)],
            rng=stream(4, index),
        )
        deck = t.deck
        before = t.hand(0)
        t.turn(0)
        assert t.action() == (0, EXCHANGE, -1, 0)
        ((seat, n_drawn, d0, d1, new0, new1, _),) = t.events(EV_EXCHANGE)
        assert (seat, n_drawn) == (0, 2) and (new0, new1) == t.hand(0)
        assert t.down(0) == down
        assert sum(t.deck) == sum(deck)
        if down == (1, 0):
            assert t.hand(0)[1] == before[1]  # the revealed card stays
        # What the player holds face down now came from its face-down cards or the two drawn.
        pool = sorted([before[s] for s in range(2) if down[s]] + [d0, d1])
        kept = sorted(t.hand(0)[s] for s in range(2) if down[s])
        returned = list(pool)
        for card in kept:
            returned.remove(card)
        assert len(returned) == 2
        for character in range(N_CHARACTERS):
            assert t.deck[character] == (
                deck[character] - [d0, d1].count(character) + returned.count(character)
            )


def test_exchange_with_an_empty_deck_keeps_the_hand():
    # copies 2 with 5 players: the deck is empty after the deal; nothing is drawn.
    hands = [(J, L), (B, B), (C, C), (P, P), (J, L)]
    t = Table(hands, [2] * 5, [HONEST] * 5, rules={"copies_per_character": 2})
    assert sum(t.deck) == 0
    t.exchange(0)
    assert t.events(EV_EXCHANGE)[0][:2] == (0, 0)
    assert t.hand(0) == (J, L)


# --- losing influence, elimination ----------------------------------------------------------


def test_the_player_losing_an_influence_chooses_the_card():
    # Scripted players give up their least valuable card: Journ. < Lawyer < CEO < Pol. < Banker.
    t = Table([(B, J), (L, C), (P, B)], [2, 2, 2], [HONEST, HONEST, HONEST])
    t.lose(0).lose(1).lose(2)
    assert [e[:3] for e in t.events(EV_LOSE)] == [(0, 1, J), (1, 0, L), (2, 0, P)]
    assert t.down(0) == (1, 0) and t.down(1) == (0, 1) and t.down(2) == (0, 1)
    assert [t.stat(s, kernel.INFLUENCE_LOST) for s in range(3)] == [1, 1, 1]
    assert [t.stat(s, kernel.ELIMINATED_TURN) for s in range(3)] == [-1, -1, -1]
    # the revealed card stays in front of the player (public), not back in the deck
    assert t.hand(0) == (B, J)


def test_losing_the_last_influence_eliminates():
    t = Table(
        [(B, J), (L, C), (P, B)], [2, 5, 2], [HONEST, HONEST, HONEST], down=[(1, 1), (0, 1), (1, 1)]
    )
    safe = t.safe
    t.lose(1, turn=8)
    assert t.influence(1) == 0
    assert t.events(EV_LOSE)[0][:3] == (1, 1, C)
    assert t.events(EV_ELIMINATED) == [(1, 5, 0, 0, 0, 0, 0)]
    assert t.stat(1, kernel.ELIMINATED_TURN) == 8
    # a player with no influence left loses nothing more
    t.lose(1, turn=9)
    assert len(t.events(EV_LOSE)) == 1 and t.stat(1, kernel.ELIMINATED_TURN) == 8
    assert t.coins(1) == 0 and t.safe == safe + 5


@pytest.mark.parametrize("to_safe", [True, False])
def test_eliminated_players_dollars_return_to_the_safe(to_safe):
    t = Table(
        [(B, L), (C, J), (P, J)],
        [7, 4, 1],
        [HONEST, HONEST, HONEST],
        down=[(1, 1), (1, 0), (0, 1)],
        rules={"eliminated_coins_to_safe": to_safe},
    )
    safe = t.safe
    t.turn(0, turn=2)
    assert t.action() == (0, OVERTHROW, 1, 7)
    assert t.influence(1) == 0
    if to_safe:
        assert t.events(EV_ELIMINATED) == [(1, 4, 0, 0, 0, 0, 0)]
        assert t.coins(1) == 0 and t.safe == safe + 7 + 4
    else:
        assert t.events(EV_ELIMINATED) == [(1, 0, 0, 0, 0, 0, 0)]
        assert t.coins(1) == 4 and t.safe == safe + 7


@pytest.mark.parametrize("to_safe", [True, False])
def test_eliminated_claimant_keeps_no_refund(to_safe):
    # One influence left, bluffs a CEO (pays 3 of its 4), is caught and eliminated: its Dollars
    # go to the Safe, and so does the refund (it would be returned at once).
    t = Table(
        [(L, J), (B, P), (C, B)],
        [4, 1, 4],
        [ALWAYS_BLUFF, CHALLENGE_ALL, HONEST],
        down=[(1, 0), (1, 1), (1, 1)],
        rules={"eliminated_coins_to_safe": to_safe},
    )
    safe = t.safe
    t.turn(0)
    assert t.action() == (0, FIRE, 2, 3)
    assert t.influence(0) == 0
    if to_safe:
        assert t.events(EV_ELIMINATED) == [(0, 1, 0, 0, 0, 0, 0)]
        assert not t.events(EV_REFUND)
        assert t.coins(0) == 0 and t.safe == safe + 4
    else:
        # the eliminated player keeps its Dollars, the refund included
        assert t.events(EV_REFUND) == [(0, 3, 0, 0, 0, 0, 0)]
        assert t.coins(0) == 4 and t.safe == safe


# --- whole games ----------------------------------------------------------------------------


def play(players: int, strategies: list[str], seed: int, index: int = 0, **rules):
    prepared = encode_rules(players, **rules)
    sids, prm = encode_lineup(strategies)
    st = np.zeros(STATE_SIZE, np.int64)
    trace = np.zeros((20_000, TRACE_WIDTH), np.int64)
    result = kernel.play_game(players, st, prepared, sids, prm, stream(seed, index), trace)
    return result, st, trace[: st[TRACE_LEN]]


@pytest.mark.parametrize("players", [3, 6])
def test_deal_for_three_and_six_players(players):
    (winner, turns, truncated), st, trace = play(players, ["random"] * players, 1)
    deals = trace[trace[:, 0] == EV_DEAL]
    assert deals[:, 1].tolist() == list(range(players))
    dealt = np.bincount(deals[:, 2:4].ravel(), minlength=N_CHARACTERS)
    assert dealt.sum() == 2 * players and dealt.max() <= 3
    first = trace[trace[:, 0] == EV_SNAPSHOT][:players]
    assert first[0, 7] + first[:, 2].sum() == 50  # Safe + coins after turn 0
    assert not truncated and 0 <= winner < players


def test_deal_gives_starting_coins_and_fills_the_deck():
    for players in range(3, 7):
        prepared = encode_rules(players, starting_coins=3)
        st = np.zeros(STATE_SIZE, np.int64)
        kernel.deal(players, st, prepared, stream(2, players), np.zeros((0, TRACE_WIDTH), np.int64))
        assert st[SAFE] == 50 - 3 * players
        assert [st[COINS + s] for s in range(players)] == [3] * players
        assert sum(st[DECK + c] for c in range(N_CHARACTERS)) == 15 - 2 * players
        assert all(st[DOWN + k] == 1 for k in range(2 * players))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_last_player_with_influence_wins(players):
    for index in range(40):
        (winner, turns, truncated), st, trace = play(players, ["random"] * players, 8, index)
        alive = [s for s in range(players) if influence(st, s) > 0]
        assert not truncated
        assert alive == [winner]
        assert tuple(trace[-1, :4]) == (EV_END, winner, turns, 0)
        assert st[STATS + N_SEAT_STATS * winner + kernel.ELIMINATED_TURN] == -1
        last = max(st[STATS + N_SEAT_STATS * s + kernel.ELIMINATED_TURN] for s in range(players))
        assert last == turns - 1  # the game ends on the turn the last rival falls


def test_turn_cap_truncates():
    (winner, turns, truncated), st, trace = play(3, [HONEST] * 3, 4, max_turns=1)
    assert (winner, turns, truncated) == (-1, 1, True)
    assert tuple(trace[-1, :4]) == (EV_END, -1, 1, 1)
    (winner, turns, truncated), _, _ = play(3, [HONEST] * 3, 4, max_turns=3)
    assert (winner, turns, truncated) == (-1, 3, True)
    (winner, turns, truncated), _, _ = play(3, [HONEST] * 3, 4)
    assert not truncated and winner >= 0 and 3 < turns < 500


def test_turns_pass_clockwise_skipping_eliminated_players():
    for index in range(20):
        (_, _, _), st, trace = play(4, ["random"] * 4, 12, index)
        out: set[int] = set()
        expected = 0
        for row in trace:
            if row[0] == EV_TURN:
                assert row[1] == expected
                assert row[1] not in out
            elif row[0] == EV_ELIMINATED:
                out.add(int(row[1]))
            elif row[0] == EV_SNAPSHOT and row[1] == 0:
                previous = expected
                expected = next(
                    (previous + k) % 4 for k in range(1, 5) if (previous + k) % 4 not in out
                )


# --- rule combinations, draws ---------------------------------------------------------------


@pytest.mark.parametrize(
    "players, overrides, message",
    [
        (3, {"safe_size": 5}, "safe_size"),
        (6, {"safe_size": 11}, "safe_size"),
        (3, {"starting_coins": 17}, "safe_size"),
        (3, {"copies_per_character": 1}, "too few cards"),
        (6, {"copies_per_character": 2}, "too few cards"),
    ],
)
def test_illegal_rule_combinations_raise_spec_error(players, overrides, message):
    with pytest.raises(SpecError, match=message):
        kernel.prepare(GAME.rules_with_defaults(overrides), players)


def test_edge_rule_combinations_are_accepted():
    kernel.prepare(GAME.rules_with_defaults({"safe_size": 12}), 6)
    kernel.prepare(GAME.rules_with_defaults({"copies_per_character": 2}), 5)


@pytest.mark.parametrize(
    "overrides", [{"safe_size": 0}, {"max_turns": 0}, {"challenge_order": "left"}, {"nope": 1}]
)
def test_out_of_range_rules_raise_spec_error(overrides):
    with pytest.raises(SpecError):
        GAME.rules_with_defaults(overrides)


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_outside_three_to_six_raises(players):
    with pytest.raises(SpecError):
        GAME.check_players(players)


def test_a_draw_is_uniform_over_the_remaining_cards():
    deck = np.array([3, 0, 1, 2, 3])
    counts = np.zeros(N_CHARACTERS, np.int64)
    st = np.zeros(STATE_SIZE, np.int64)
    rng = stream(21, 0)
    for _ in range(18_000):
        st[DECK : DECK + N_CHARACTERS] = deck
        drawn = kernel.draw_card(st, rng)
        counts[drawn] += 1
        assert st[DECK + drawn] == deck[drawn] - 1
    assert counts[1] == 0
    expected = deck / deck.sum() * counts.sum()
    keep = deck > 0
    assert chisquare(counts[keep], expected[keep]).pvalue > 1e-3
