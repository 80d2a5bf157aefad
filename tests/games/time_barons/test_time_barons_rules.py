"""Every Time Barons rule as a scenario: build a state by hand, call one transition, check it.

Scenarios run on a small test card set (``TEST_CARDS`` below, one card per effect op) so that they
do not depend on the shipped sample set, which designers replace; the sample set has its own
test. ``hand_size`` is 0, so a table starts with two Homelands of 10 followers, a supply of 15,
20 damage counters and full stacks; :class:`Table` then moves named cards from the stacks into
hands and into play. Seat 0 is on turn with 3 actions unless a test says otherwise.

Choices are made by scripted strategies (``builder`` by default), which are deterministic; where a
rule gives the choice to a player, the scenario leaves one candidate, or checks that the card's
owner (not its victim) chose. Every transition made through :class:`Table` is followed by the
conservation checks: followers on sites + supply = 35, counters on sites + pool = 20, every
card in exactly one place.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binomtest

from simcore import registry
from simcore.games.time_barons import game as kernel
from simcore.games.time_barons.components import card_labels, load_cards
from simcore.games.time_barons.effects import (
    CHOOSE_NOW,
    attach,
    destroy_site,
    hand_add,
    place_from_supply,
    set_followers,
    site_add,
)
from simcore.games.time_barons.scripted import apply_effect, apply_move, resolve, take_turn
from simcore.games.time_barons.state import (
    A_EFFECTS,
    A_FOLLOWERS,
    A_N_EFFECTS,
    A_TRIGGER,
    ABILITY,
    ABILITY_SITES,
    ABILITY_SITES_N,
    ABILITY_WIDTH,
    ACTIONS,
    ACTIVE,
    ATTACHMENT,
    ATTACK,
    ATTACK_ABILITY,
    C_ABILITIES,
    C_EFFECTS,
    C_N_ABILITIES,
    C_N_EFFECTS,
    C_TYPE,
    DAMAGE,
    DECK,
    DISCARD,
    DISCARD_N,
    DRAW,
    END_STACKS,
    END_WIPEOUT,
    EV_ARRANGE,
    EV_CANCEL,
    EV_DAMAGE,
    EV_DESTROY,
    EV_DRAW,
    EV_RESPONSE,
    EV_TARGET,
    EV_TURN,
    FIRST,
    FOLLOW,
    GAIN,
    GONE,
    HAND,
    HAND_N,
    HOMELAND,
    IN_DISCARD,
    IN_HAND,
    IN_PLAY,
    IN_STACK,
    LEVEL,
    LOC,
    MAX_IDS,
    N_FOLLOWERS,
    NO_BOUND,
    OPS,
    OVER,
    OWNER,
    PLAY,
    POOL,
    REACT,
    RELOCATE,
    REQUIRE,
    SITE_DISCOUNT,
    SITES,
    SITES_BOUND,
    SITES_N,
    SPARE,
    STACK_END,
    STACK_TOP,
    STATE_SIZE,
    SUPPLY,
    TARGETS,
    TRACE_LEN,
    TRACE_WIDTH,
    TRIGGERED,
    UNUSED,
    UPGRADE,
    UPGRADE_DISCOUNT,
    USED,
    VALUE_BOUND,
    has_own_turn_ability,
    integrity,
    is_fortified,
    move_is_legal,
    stack_left,
)
from simcore.games.time_barons.state import (
    EVENT as EVENT_TYPE,
)
from simcore.games.time_barons.turns import end_reason, setup, start_of_turn, winner_of
from simcore.kernel.rng import seed_game_stream
from simcore.registry import SpecError
from strategies.time_barons import values

GAME = registry.make("time-barons")

TEST_CARDS = """
[homeland]
name = "Home"
integrity = 6

[[card]]
name = "Tower"
level = 1
type = "site"
cost = 2
integrity = 3
abilities = [
    { followers = 2, cost = 1, effects = ["damage 2"] },
    { followers = 1, cost = 0, effects = ["gain 1"] },
]

[[card]]
name = "Fort"
level = 1
type = "site"
cost = 1
integrity = 4
fortified = true

[[card]]
name = "Farm"
level = 1
type = "site"
cost = 1
integrity = 3
passives = ["start_gain 2"]

[[card]]
name = "Mill"
level = 1
type = "site"
cost = 1
integrity = 3
passives = ["start_actions 1", "upgrade_discount 1"]

[[card]]
name = "Forge"
level = 1
type = "site"
cost = 1
integrity = 3
abilities = [{ cost = 1, infinite = true, effects = ["draw 1"] }]

[[card]]
name = "Lookout"
level = 1
type = "site"
cost = 1
integrity = 3
abilities = [{ followers = 1, infinite = true, trigger = "relocate", effects = ["kill 1"] }]

[[card]]
name = "Strike"
level = 1
type = "event"
cost = 1
effects = ["damage 2"]

[[card]]
name = "Barrage"
level = 1
type = "event"
cost = 1
effects = ["damage_each 1"]

[[card]]
name = "Cull"
level = 1
type = "event"
cost = 1
effects = ["kill 2"]

[[card]]
name = "Plague"
level = 1
type = "event"
cost = 1
effects = ["kill_everywhere 1"]

[[card]]
name = "Demolish"
level = 1
type = "event"
cost = 1
effects = ["destroy"]

[[card]]
name = "Lure"
level = 1
type = "event"
cost = 1
effects = ["steal 2"]

[[card]]
name = "Recruit"
level = 1
type = "event"
cost = 1
effects = ["gain 3"]

[[card]]
name = "Rush"
level = 1
type = "event"
cost = 0
effects = ["actions 2"]

[[card]]
name = "Study"
level = 1
type = "event"
cost = 1
effects = ["draw 2"]

[[card]]
name = "Mend"
level = 1
type = "event"
cost = 1
effects = ["repair 2"]

[[card]]
name = "Dig"
level = 1
type = "event"
cost = 1
effects = ["recover 1"]

[[card]]
name = "Offering"
level = 1
type = "event"
cost = 1
effects = ["sacrifice 1", "gain 3"]

[[card]]
name = "Spy"
level = 1
type = "event"
cost = 1
effects = ["discard 1"]

[[card]]
name = "Wall"
level = 1
type = "attachment"
cost = 1
effects = ["integrity 2"]

[[card]]
name = "Crack"
level = 1
type = "attachment"
cost = 1
effects = ["integrity -2"]

[[card]]
name = "Moat"
level = 1
type = "attachment"
cost = 1
effects = ["fortify"]

[[card]]
name = "Jam"
level = 1
type = "attachment"
cost = 1
effects = ["disable"]

[[card]]
name = "Rot"
level = 1
type = "attachment"
cost = 1
effects = ["decay 1"]

[[card]]
name = "Shield"
level = 1
type = "reaction"
trigger = "attack"
effects = ["cancel"]

[[card]]
name = "Trap"
level = 1
type = "reaction"
trigger = "relocate"
effects = ["kill 1"]

[[card]]
name = "Hide"
level = 1
type = "reaction"
trigger = "attack"
effects = ["relocate"]

[[card]]
name = "Toll"
level = 1
type = "reaction"
trigger = "site"
effects = ["damage 1"]

[[card]]
name = "Envy"
level = 1
type = "reaction"
trigger = "upgrade"
effects = ["gain 1"]

[[card]]
name = "Lab"
level = 2
type = "site"
cost = 1
integrity = 3

[[card]]
name = "Bomb"
level = 2
type = "event"
cost = 1
effects = ["damage 4"]

[[card]]
name = "Reactor"
level = 3
type = "site"
cost = 1
integrity = 3

[[card]]
name = "Laser"
level = 4
type = "event"
cost = 1
effects = ["damage 5"]
"""


@pytest.fixture(scope="module")
def card_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("cards") / "test_cards.toml"
    path.write_text(TEST_CARDS)
    return str(path)


def stream(seed: int = 11, index: int = 0) -> np.ndarray:
    rng = np.zeros(4, np.uint64)
    seed_game_stream(seed, index, rng)
    return rng


class Table:
    """A Time Barons state right after set-up, plus everything a transition needs."""

    def __init__(self, card_file, strategies=("builder", "builder"), rules=None, seed=11):
        self.rules_dict = GAME.rules_with_defaults(
            {"cards": card_file, "hand_size": 0, **(rules or {})}
        )
        self.rules, self.cards = kernel.prepare(self.rules_dict, 2)
        self.names = load_cards(card_file).names
        entries = [registry.parse_strategy(GAME, text) for text in strategies]
        self.sids, self.prm = GAME.encode_strategies(entries)
        self.rng = stream(seed)
        self.trace = np.zeros((20_000, TRACE_WIDTH), np.int64)
        self.st = np.zeros(STATE_SIZE, np.int64)
        setup(self.st, self.cards, self.rules, self.rng, self.trace)
        self.st[ACTIVE] = 0
        self.st[ACTIONS] = 3
        self.check()

    # --- building the position ---

    def id(self, name: str) -> int:
        return self.names.index(name)

    def pull(self, name: str) -> int:
        """Take a named card out of its stack (as if it had been drawn)."""
        card = self.id(name)
        level = self.cards[card, 0]
        top, end = self.st[STACK_TOP + level - 1], self.st[STACK_END + level - 1]
        deck = self.st[DECK + top : DECK + end]
        assert card in deck, f"{name} is not in its stack"
        position = top + int(np.flatnonzero(deck == card)[0])
        self.st[DECK + position], self.st[DECK + top] = self.st[DECK + top], card
        self.st[STACK_TOP + level - 1] += 1
        return card

    def give(self, seat: int, name: str) -> int:
        card = self.pull(name)
        hand_add(self.st, seat, card)
        return card

    def build(self, seat: int, name: str, followers: int = 0, damage: int = 0) -> int:
        site = self.pull(name)
        site_add(self.st, seat, site)
        place_from_supply(seat, site, followers, self.st, self.trace)
        self.st[DAMAGE + site] = damage
        self.st[POOL] -= damage
        self.check()
        return site

    def set_followers(self, site: int, count: int) -> None:
        """Set a site's followers by hand (the supply is the test's business), through the
        kernel's one writer so that its cached totals stay true."""
        seat = self.st[OWNER + site]
        self.st[N_FOLLOWERS + seat] += count - self.st[FOLLOW + site]
        set_followers(self.st, site, count)

    def attach(self, name: str, site: int, by: int) -> int:
        card = self.pull(name)
        attach(card, site, by, self.st, self.cards, self.trace)
        self.check()
        return card

    # --- transitions ---

    def legal(self, seat: int, kind: int, a: int = -1, b: int = -1) -> bool:
        return move_is_legal(self.st, self.cards, self.rules, seat, kind, a, b)

    def move(self, seat: int, kind: int, a: int = -1, b: int = -1) -> None:
        assert self.legal(seat, kind, a, b), "the scenario's move should be legal"
        apply_move(
            seat, kind, a, b, self.st, self.cards, self.rules, self.sids, self.prm, self.rng,
            self.trace,
        )  # fmt: skip
        self.check()

    def effect(self, seat: int, text: str) -> None:
        op, _, n = text.partition(" ")
        apply_effect(
            seat, OPS.index(op), int(n or 1), CHOOSE_NOW, self.st, self.cards, self.rules,
            self.sids, self.prm, self.rng, self.trace,
        )  # fmt: skip
        self.check()

    def turn(self, seat: int, turn: int = 5) -> None:
        take_turn(
            seat, turn, self.st, self.cards, self.rules, self.sids, self.prm, self.rng, self.trace
        )
        self.check()

    # --- reading it ---

    def events(self, code: int) -> list[list[int]]:
        rows = self.trace[: self.st[TRACE_LEN]]
        return [list(map(int, row[1:])) for row in rows if row[0] == code]

    def hand(self, seat: int) -> list[int]:
        return list(self.st[HAND + MAX_IDS * seat : HAND + MAX_IDS * seat + self.st[HAND_N + seat]])

    def sites(self, seat: int) -> list[int]:
        return list(
            self.st[SITES + MAX_IDS * seat : SITES + MAX_IDS * seat + self.st[SITES_N + seat]]
        )

    def discard(self) -> list[int]:
        return list(self.st[DISCARD : DISCARD + self.st[DISCARD_N]])

    def followers(self, seat: int) -> int:
        return int(self.st[N_FOLLOWERS + seat])

    def own_turn_abilities(self, site: int) -> list[int]:
        """The card-table columns where the site's own-turn abilities start."""
        bases = [C_ABILITIES + ABILITY_WIDTH * k for k in range(self.cards[site, C_N_ABILITIES])]
        return [base for base in bases if self.cards[site, base + A_TRIGGER] == 0]

    def check(self) -> None:
        """Conservation of followers, damage counters and cards."""
        st = self.st
        on_sites = sum(st[FOLLOW + site] for seat in range(2) for site in self.sites(seat))
        assert on_sites + st[SUPPLY] == self.rules_dict["followers"]
        for seat in range(2):
            assert sum(st[FOLLOW + site] for site in self.sites(seat)) == st[N_FOLLOWERS + seat]
            spare = sum(max(0, st[FOLLOW + s] - st[REQUIRE + s]) for s in self.sites(seat))
            assert st[SPARE + seat] == spare, "the kernel's cached spare followers are stale"
            discount = sum(st[SITE_DISCOUNT + s] for s in self.sites(seat))
            assert st[UPGRADE_DISCOUNT + seat] == discount, "the cached upgrade discount is stale"
            with_abilities = [s for s in self.sites(seat) if has_own_turn_ability(st, s)]
            first = ABILITY_SITES + MAX_IDS * seat
            listed = list(st[first : first + st[ABILITY_SITES_N + seat]])
            assert listed == with_abilities, "the kernel's list of ability sites is stale"
            fresh = st.copy()
            fresh[SITES_BOUND + seat] = NO_BOUND
            bounds = [values.value_bound(self.prm, seat, st.copy(), self.cards, s) for s in listed]
            assert values.sites_value_bound(self.prm, seat, fresh, self.cards) == max(bounds + [0])
            assert st[SITES_BOUND + seat] in (NO_BOUND, fresh[SITES_BOUND + seat]), "stale bound"
            events = [card for card in self.hand(seat) if self.cards[card, C_TYPE] == EVENT_TYPE]
            attachments = [c for c in self.hand(seat) if self.cards[c, C_TYPE] == ATTACHMENT]
            for card in self.sites(seat) + events + attachments:
                fresh = st.copy()
                fresh[VALUE_BOUND + card] = NO_BOUND
                bound = values.value_bound(self.prm, seat, fresh, self.cards, card)
                cached = st[VALUE_BOUND + card]
                assert cached in (NO_BOUND, fresh[VALUE_BOUND + card]), "a value bound is stale"
                if card in events:
                    value = values.effects_value(
                        self.prm,
                        seat,
                        st,
                        self.cards,
                        card,
                        C_EFFECTS,
                        self.cards[card, C_N_EFFECTS],
                    )
                elif card in attachments:
                    value, _ = values.attachment_choice(self.prm, seat, st, self.cards, card)
                else:
                    value = max(
                        [0.0]
                        + [
                            values.effects_value(
                                self.prm,
                                seat,
                                st,
                                self.cards,
                                card,
                                base + A_EFFECTS,
                                self.cards[card, base + A_N_EFFECTS],
                            )  # fmt: skip
                            for base in self.own_turn_abilities(card)
                        ]
                    )
                assert value <= bound, "a card is worth more than its value bound"
        counters = sum(st[DAMAGE + site] for seat in range(2) for site in self.sites(seat))
        assert counters + st[POOL] == self.rules_dict["damage_counters"]
        places = []
        for level in range(1, 5):
            top, end = st[STACK_TOP + level - 1], st[STACK_END + level - 1]
            places += [int(c) for c in st[DECK + top : DECK + end]]
            assert all(st[LOC + c] == IN_STACK for c in st[DECK + top : DECK + end])
        for seat in range(2):
            places += self.hand(seat)
            places += self.sites(seat)
            assert all(st[LOC + c] == IN_HAND and st[OWNER + c] == seat for c in self.hand(seat))
        places += [c for c in range(MAX_IDS) if st[LOC + c] == IN_PLAY and self.cards[c, 1] != 0]
        places += self.discard()
        places += [c for c in range(MAX_IDS) if st[LOC + c] == GONE]
        used = [c for c in range(MAX_IDS) if st[LOC + c] != UNUSED]
        assert sorted(places) == sorted(used), "a card is in two places or in none"


@pytest.fixture
def table(card_file) -> Table:
    return Table(card_file)


# --- set-up -----------------------------------------------------------------------------------


def test_setup_follows_the_rulebook():
    """Homelands of integrity 6 with 10 followers, a supply of 15, four shuffled level stacks,
    5 Level I cards each, levels at I."""
    rules = GAME.rules_with_defaults({})
    prepared = kernel.prepare(rules, 2)
    st = np.zeros(STATE_SIZE, np.int64)
    trace = np.zeros((100, TRACE_WIDTH), np.int64)
    setup(st, prepared[1], prepared[0], stream(), trace)
    cards = prepared[1]
    for seat in range(2):
        home = HOMELAND + seat
        assert st[SITES_N + seat] == 1 and st[SITES + MAX_IDS * seat] == home
        assert st[FOLLOW + home] == 10 and integrity(st, cards, home) == 6
        assert st[HAND_N + seat] == 5 and st[LEVEL + seat] == 1
        assert all(cards[c, 0] == 1 for c in st[HAND + MAX_IDS * seat : HAND + MAX_IDS * seat + 5])
    assert st[SUPPLY] == 15 and st[POOL] == 20 and st[FIRST] == 0
    assert [stack_left(st, level) for level in range(1, 5)] == [16 - 10, 13, 12, 9]
    for level in range(1, 5):
        stack = st[
            DECK + st[STACK_TOP + level - 1] - (10 if level == 1 else 0) : DECK
            + st[STACK_END + level - 1]
        ]
        assert sorted(stack) == sorted(np.flatnonzero(cards[:64, 0] == level))
    draws = [row for row in trace[: st[TRACE_LEN]] if row[0] == EV_DRAW]
    assert len(draws) == 10 and all(row[4] == 0 for row in draws)


def test_stacks_are_shuffled_per_game():
    rules = GAME.rules_with_defaults({})
    prepared = kernel.prepare(rules, 2)
    orders = set()
    for index in range(20):
        st = np.zeros(STATE_SIZE, np.int64)
        setup(st, prepared[1], prepared[0], stream(3, index), np.zeros((0, TRACE_WIDTH), np.int64))
        orders.add(tuple(st[DECK : DECK + 50]))
    assert len(orders) == 20


def test_first_player_is_seat_0_or_random():
    """Default: seat 0 (rotation varies who sits there); first_player=random: a fair coin."""
    for choice, expected in (("seat0", 0), ("random", None)):
        rules = GAME.rules_with_defaults({"first_player": choice})
        prepared = kernel.prepare(rules, 2)
        firsts = []
        for index in range(400):
            st = np.zeros(STATE_SIZE, np.int64)
            setup(st, prepared[1], prepared[0], stream(7, index), np.zeros((0, 8), np.int64))
            firsts.append(int(st[FIRST]))
        if expected is not None:
            assert set(firsts) == {expected}
        else:
            assert binomtest(sum(firsts), len(firsts)).pvalue > 0.001


@pytest.mark.parametrize("first_turn_actions", [1, 2, 3])
def test_first_turn_has_fewer_actions(card_file, first_turn_actions):
    """3 actions a turn; the first player's first turn has first_turn_actions (rulebook: 2)."""
    t = Table(card_file, rules={"first_turn_actions": first_turn_actions})
    t.turn(0, turn=0)
    t.turn(1, turn=1)
    assert [row[2] for row in t.events(EV_TURN)] == [first_turn_actions, 3]


# --- actions ----------------------------------------------------------------------------------


def test_draw_from_a_level_at_most_yours(table):
    t = table
    assert not t.legal(0, DRAW, 2)
    top = t.st[DECK + t.st[STACK_TOP + 1 - 1]]
    t.move(0, DRAW, 1)
    assert t.hand(0) == [top] and t.st[ACTIONS] == 2
    t.st[LEVEL] = 3
    assert t.legal(0, DRAW, 2) and t.legal(0, DRAW, 3) and not t.legal(0, DRAW, 4)
    t.st[STACK_TOP + 1] = t.st[STACK_END + 1]  # empty the Level II stack
    assert not t.legal(0, DRAW, 2)


def test_gain_a_follower_from_the_limited_supply(table):
    t = table
    home = HOMELAND
    t.move(0, GAIN, home)
    assert t.st[FOLLOW + home] == 11 and t.st[SUPPLY] == 14 and t.st[ACTIONS] == 2
    assert not t.legal(0, GAIN, HOMELAND + 1), "only onto your own sites"
    t.st[SUPPLY] = 0
    t.set_followers(home, t.st[FOLLOW + home] + 14)  # keep the count: the 14 are on the board
    assert not t.legal(0, GAIN, home)


# A seat that values holding a card at nothing (w_draw=0) answers whenever an answer gains it
# something: these scenarios are about what may be answered, not about when it pays.
EAGER = ("builder", "builder:w_draw=0")


def test_relocate_rearranges_and_the_opponent_may_respond(card_file):
    """Relocation (1 action) moves followers between your sites; the opponent may answer with a
    relocate reaction and with infinite abilities triggered by relocation, at no action cost."""
    t = Table(card_file, strategies=("swarm", EAGER[1]))
    tower = t.build(0, "Tower")
    lookout = t.build(1, "Lookout", followers=1)
    trap = t.give(1, "Trap")
    t.move(0, RELOCATE)
    arranged = {site: n for seat, site, n, *_ in t.events(EV_ARRANGE) if seat == 0}
    # swarm values a follower at 2: Tower's free gain (1 follower) pays more than its damage
    assert arranged == {HOMELAND: 9, tower: 1}, "1 follower moves to enable Tower's gain"
    responses = t.events(EV_RESPONSE)
    assert [(r[1], r[2]) for r in responses] == [(REACT, trap), (TRIGGERED, lookout)]
    assert t.followers(0) == 10 - 2 and t.st[ACTIONS] == 2
    assert trap in t.discard()


def test_relocate_with_the_same_trigger_twice_uses_an_ability_once_per_trigger(card_file):
    t = Table(card_file, strategies=("swarm", "builder"))
    t.build(0, "Tower")
    t.build(1, "Lookout", followers=1)
    t.move(0, RELOCATE)
    t.move(0, RELOCATE)
    assert len(t.events(EV_RESPONSE)) == 2  # one per relocation


def test_playing_a_card_costs_its_actions(table):
    t = table
    fort = t.give(0, "Fort")
    tower = t.give(0, "Tower")
    t.st[ACTIONS] = 1
    assert not t.legal(0, PLAY, tower), "Tower costs 2"
    t.move(0, PLAY, fort)
    assert t.st[ACTIONS] == 0 and fort in t.sites(0) and t.st[FOLLOW + fort] == 0
    rush = t.give(0, "Rush")
    t.move(0, PLAY, rush)
    assert t.st[ACTIONS] == 2 and rush in t.discard(), "an event is discarded after it resolves"


def test_reactions_are_not_played_on_your_own_turn(table):
    t = table
    shield = t.give(0, "Shield")
    assert not t.legal(0, PLAY, shield)


@pytest.mark.parametrize(("level", "cost"), [(1, 2), (2, 3), (3, 4)])
def test_upgrade_costs(table, level, cost):
    t = table
    t.st[LEVEL] = level
    t.st[ACTIONS] = cost - 1
    assert not t.legal(0, UPGRADE)
    t.st[ACTIONS] = cost
    t.move(0, UPGRADE)
    assert t.st[LEVEL] == level + 1 and t.st[ACTIONS] == 0


def test_no_upgrade_beyond_level_iv_and_discounts(table):
    t = table
    t.st[LEVEL] = 4
    assert not t.legal(0, UPGRADE)
    t.st[LEVEL] = 3
    t.build(0, "Mill")
    t.move(0, UPGRADE)  # 4 - 1 (Mill's upgrade_discount) = 3 actions
    assert t.st[LEVEL] == 4 and t.st[ACTIONS] == 0


def test_the_opponent_may_react_to_an_upgrade(card_file):
    t = Table(card_file, strategies=EAGER)
    envy = t.give(1, "Envy")
    t.move(0, UPGRADE)
    assert envy in t.discard() and t.followers(1) == 11


# --- site abilities ---------------------------------------------------------------------------


def test_one_ability_per_site_per_turn(table):
    """A site's abilities need their followers; only one of them per turn, even when the site
    was played this turn; at the start of the owner's next turn it may be used again."""
    t = table
    tower = t.build(0, "Tower", followers=1)
    assert not t.legal(0, ABILITY, tower, 0), "damage needs 2 followers"
    t.move(0, ABILITY, tower, 1)  # gain 1, no action
    assert t.st[FOLLOW + tower] == 2 and t.st[ACTIONS] == 3
    assert not t.legal(0, ABILITY, tower, 0) and not t.legal(0, ABILITY, tower, 1)
    start_of_turn(1, t.st, t.cards, t.rules, t.trace)
    assert not t.legal(0, ABILITY, tower, 0), "the opponent's turn does not reset it"
    start_of_turn(0, t.st, t.cards, t.rules, t.trace)
    assert t.legal(0, ABILITY, tower, 0)


def test_infinite_abilities_as_often_as_paid(table):
    t = table
    forge = t.build(0, "Forge")
    for left in (2, 1, 0):
        t.move(0, ABILITY, forge, 0)
        assert t.st[ACTIONS] == left
    assert len(t.hand(0)) == 3


def test_triggered_abilities_are_not_moves(table):
    t = table
    lookout = t.build(0, "Lookout", followers=3)
    assert not t.legal(0, ABILITY, lookout, 0)


def test_a_disabled_site_has_no_abilities(table):
    t = table
    tower = t.build(0, "Tower", followers=2)
    t.attach("Jam", tower, by=1)
    assert not t.legal(0, ABILITY, tower, 0) and not t.legal(0, ABILITY, tower, 1)


def test_a_disabled_site_has_no_passives(table):
    t = table
    farm = t.build(0, "Farm")
    t.attach("Jam", farm, by=1)
    start_of_turn(0, t.st, t.cards, t.rules, t.trace)
    assert t.st[FOLLOW + farm] == 0


def test_start_of_turn_passives(table):
    t = table
    farm = t.build(0, "Farm")
    t.build(0, "Mill")
    t.st[ACTIONS] = 3
    start_of_turn(0, t.st, t.cards, t.rules, t.trace)
    t.check()
    assert t.st[FOLLOW + farm] == 2 and t.st[ACTIONS] == 4


def test_decay_damages_its_site_at_the_start_of_the_owners_turn(table):
    t = table
    tower = t.build(0, "Tower", followers=2)
    t.attach("Rot", tower, by=1)
    start_of_turn(1, t.st, t.cards, t.rules, t.trace)
    assert t.st[DAMAGE + tower] == 0, "only at the start of the site owner's turn"
    start_of_turn(0, t.st, t.cards, t.rules, t.trace)
    t.check()
    assert t.st[DAMAGE + tower] == 1 and t.st[FOLLOW + tower] == 1


# --- attachments ------------------------------------------------------------------------------


def test_attachments_go_on_either_players_sites(table):
    t = table
    own = t.build(0, "Tower")
    theirs = HOMELAND + 1
    wall = t.give(0, "Wall")
    crack = t.give(0, "Crack")
    t.move(0, PLAY, wall, own)
    t.move(0, PLAY, crack, theirs)
    assert integrity(t.st, t.cards, own) == 5 and integrity(t.st, t.cards, theirs) == 4
    moat = t.give(0, "Moat")
    t.move(0, PLAY, moat, own)
    assert is_fortified(t.st, t.cards, own)


def test_attachment_destroys_when_integrity_drops_to_damage(table):
    t = table
    tower = t.build(1, "Tower", followers=2, damage=1)
    crack = t.give(0, "Crack")
    t.move(0, PLAY, crack, tower)  # integrity 3 - 2 = 1 <= 1 counter
    assert t.st[LOC + tower] == IN_DISCARD and t.st[LOC + crack] == IN_DISCARD
    assert t.followers(1) == 10 and t.st[POOL] == 20


def test_attachments_are_discarded_with_their_site(table):
    t = table
    tower = t.build(1, "Tower", followers=1)
    wall = t.attach("Wall", tower, by=1)
    t.effect(0, "destroy")
    assert t.st[LOC + tower] == IN_DISCARD and t.st[LOC + wall] == IN_DISCARD


def test_an_attachment_on_an_opponent_site_is_an_attack(table):
    t = table
    tower = t.build(1, "Tower", followers=1, damage=1)  # Crack would destroy it
    shield = t.give(1, "Shield")
    crack = t.give(0, "Crack")
    t.move(0, PLAY, crack, tower)
    assert t.events(EV_CANCEL) == [[0, 0, 0, 0, 0, 0, 0]]
    assert t.st[LOC + crack] == IN_DISCARD and t.st[LOC + shield] == IN_DISCARD
    assert integrity(t.st, t.cards, tower) == 3


# --- damage, kill, destroy, fortified ---------------------------------------------------------


def test_damage_kills_followers_and_places_counters(table):
    t = table
    tower = t.build(1, "Tower", followers=3)
    strike = t.give(0, "Strike")
    t.move(0, PLAY, strike)
    assert t.st[DAMAGE + tower] == 2 and t.st[FOLLOW + tower] == 1
    assert t.followers(1) == 11 and t.st[SUPPLY] == 12 + 2 and t.st[POOL] == 18


def test_damage_on_a_fortified_site_kills_nobody_until_it_is_destroyed(table):
    t = table
    home = HOMELAND + 1
    t.attach("Moat", home, by=1)
    t.effect(0, "damage 2")
    assert t.st[FOLLOW + home] == 10 and t.st[DAMAGE + home] == 2
    t.effect(0, "damage 4")  # 6 counters = integrity 6: destroyed, all followers die
    assert t.st[LOC + home] == GONE and t.followers(1) == 0 and t.st[OVER] == 1
    assert t.st[POOL] == 20 and t.st[SUPPLY] == 25


def test_a_destroyed_homeland_leaves_the_game(table):
    t = table
    t.build(1, "Tower", followers=1)
    home = HOMELAND + 1
    t.st[DAMAGE + home] = 5
    t.st[POOL] -= 5
    t.effect(0, "damage 1")  # the builder goes for the kill shot on the Homeland
    assert t.st[LOC + home] == GONE and home not in t.discard()
    assert t.followers(1) == 1 and t.st[SUPPLY] == 14 + 10 and t.st[POOL] == 20


def test_damage_counters_are_limited(card_file):
    t = Table(card_file, rules={"damage_counters": 1})
    t.effect(0, "damage 2")
    home = HOMELAND + 1
    assert t.st[DAMAGE + home] == 1 and t.st[POOL] == 0 and t.followers(1) == 8
    t.effect(0, "damage 2")
    assert t.st[DAMAGE + home] == 1 and t.followers(1) == 6, "kills happen without counters"


def test_damage_each_hits_every_opponent_site(table):
    t = table
    tower = t.build(1, "Tower", followers=1)
    t.effect(0, "damage_each 1")
    assert t.st[DAMAGE + tower] == 1 and t.st[DAMAGE + HOMELAND + 1] == 1
    assert t.followers(1) == 9 and t.st[DAMAGE + HOMELAND] == 0


def test_kill_returns_opponent_followers_to_the_supply(table):
    t = table
    t.effect(0, "kill 2")
    assert t.followers(1) == 8 and t.followers(0) == 10 and t.st[SUPPLY] == 17


def test_kill_everywhere_hits_both_players(table):
    t = table
    tower = t.build(0, "Tower", followers=2)
    t.effect(0, "kill_everywhere 1")
    assert t.st[FOLLOW + tower] == 1 and t.followers(0) == 10 and t.followers(1) == 9


def test_destroy_spares_homelands(table):
    t = table
    t.effect(0, "destroy")
    assert t.st[LOC + HOMELAND + 1] == IN_PLAY
    tower = t.build(1, "Tower", followers=2)
    t.effect(0, "destroy")
    assert t.st[LOC + tower] == IN_DISCARD and t.followers(1) == 10 and t.st[SUPPLY] == 15


def test_steal_moves_opponent_followers_to_your_sites(table):
    t = table
    t.effect(0, "steal 2")
    assert t.followers(0) == 12 and t.followers(1) == 8 and t.st[SUPPLY] == 15


def test_gain_takes_what_the_supply_has(table):
    t = table
    t.st[SUPPLY] = 2
    t.set_followers(HOMELAND + 1, t.st[FOLLOW + HOMELAND + 1] + 13)
    t.effect(0, "gain 3")
    assert t.followers(0) == 12 and t.st[SUPPLY] == 0


def test_actions_are_gained_on_your_turn_only(table):
    t = table
    t.effect(0, "actions 2")
    assert t.st[ACTIONS] == 5
    t.effect(1, "actions 2")
    assert t.st[ACTIONS] == 5


def test_draw_effect_draws_from_your_levels(table):
    t = table
    t.effect(0, "draw 2")
    assert len(t.hand(0)) == 2 and all(t.cards[c, 0] == 1 for c in t.hand(0))


def test_repair_removes_counters_from_your_sites(table):
    t = table
    tower = t.build(0, "Tower", damage=2)
    t.effect(0, "repair 1")
    assert t.st[DAMAGE + tower] == 1 and t.st[POOL] == 19
    t.effect(0, "repair 5")
    assert t.st[DAMAGE + tower] == 0 and t.st[POOL] == 20


def test_recover_takes_a_discarded_card_back(table):
    t = table
    strike = t.give(0, "Strike")
    t.move(0, PLAY, strike)
    dig = t.give(0, "Dig")
    t.move(0, PLAY, dig)
    assert t.st[LOC + strike] == IN_HAND and t.hand(0) == [strike] and t.discard() == [dig]


def test_sacrifice_kills_your_own_followers(table):
    t = table
    offering = t.give(0, "Offering")
    t.move(0, PLAY, offering)
    assert t.followers(0) == 10 - 1 + 3 and t.st[SUPPLY] == 15 + 1 - 3


def test_discard_takes_random_cards_from_the_opponent(table):
    t = table
    hand = [t.give(1, name) for name in ("Strike", "Cull", "Study")]
    t.effect(0, "discard 1")
    assert len(t.hand(1)) == 2 and len(t.discard()) == 1 and t.discard()[0] in hand


def test_relocate_effect_is_free(table):
    t = table
    t.build(0, "Tower")
    t.effect(0, "relocate")
    assert t.st[ACTIONS] == 3 and t.events(EV_RESPONSE) == []


def test_a_cancelled_attack_has_no_effect(table):
    """A reaction at no action cost: cancel an event; the event is still paid for and discarded."""
    t = table
    shield = t.give(1, "Shield")
    strike = t.give(0, "Strike")
    t.move(0, PLAY, strike)
    assert t.followers(1) == 10 and t.st[POOL] == 20 and t.st[ACTIONS] == 2
    assert t.discard() == [shield, strike]


def test_a_cancelled_ability_counts_as_used(table):
    t = table
    tower = t.build(0, "Tower", followers=2)
    t.give(1, "Shield")
    t.move(0, ABILITY, tower, 0)
    assert t.st[USED + tower] == 1 and t.followers(1) == 10 and t.st[ACTIONS] == 2


def test_an_attack_names_its_sites_before_the_responses(card_file):
    """attack_targets = "declared" (the default): the site a damage effect hits is named first
    (a target row), the attacked player answers knowing it (Hide moves the followers away),
    and the damage lands on the named site. "on_resolution": nothing is named, the attacker
    chooses the site after the answer."""
    t = Table(card_file)
    t.set_followers(HOMELAND + 1, 6)
    t.st[SUPPLY] += 4
    tower = t.build(1, "Tower", followers=4, damage=1)  # Strike's 2 damage destroy it
    hide = t.give(1, "Hide")
    strike = t.give(0, "Strike")
    t.move(0, PLAY, strike)
    rows = [list(map(int, row)) for row in t.trace[: t.st[TRACE_LEN]]]
    named = [row for row in rows if row[0] == EV_TARGET]
    assert len(named) == 1 and named[0][1:5] == [0, strike, 0, tower]
    assert rows.index(named[0]) < rows.index(next(r for r in rows if r[0] == EV_RESPONSE))
    assert hide in t.discard() and t.st[LOC + tower] == IN_DISCARD
    assert [row[1:6] for row in rows if row[0] == EV_DESTROY] == [[tower, 1, 0, 3, 0]]
    assert t.followers(1) == 10, "the followers left the named site before it was destroyed"

    t = Table(card_file, rules={"attack_targets": "on_resolution"})
    t.give(1, "Hide")
    strike = t.give(0, "Strike")
    t.move(0, PLAY, strike)
    assert t.events(EV_TARGET) == [] and len(t.events(EV_DAMAGE)) == 1


def test_a_named_site_gone_at_resolution_takes_nothing(card_file):
    t = Table(card_file)
    tower = t.build(1, "Tower", followers=2)
    t.st[ATTACK] = t.id("Strike")
    t.st[ATTACK_ABILITY] = -1
    t.st[TARGETS] = tower
    destroy_site(tower, -1, t.st, t.cards, t.trace)
    resolve(
        0, t.id("Strike"), C_EFFECTS, 1, True, t.st, t.cards, t.rules, t.sids, t.prm, t.rng,
        t.trace,
    )  # fmt: skip
    assert t.events(EV_DAMAGE) == [] and t.followers(1) == 10


def test_a_site_played_may_be_answered(card_file):
    t = Table(card_file, strategies=EAGER)
    toll = t.give(1, "Toll")
    tower = t.give(0, "Tower")
    t.move(0, PLAY, tower)
    assert toll in t.discard() and t.st[DAMAGE + tower] + t.st[DAMAGE + HOMELAND] == 1


def test_the_card_owner_makes_the_choices(card_file):
    """Seat 0's Strike is aimed by seat 0's strategy: the builder's choice is the same in every
    stream, while a random owner's varies."""
    targets = {"builder": set(), "random": set()}
    for owner in targets:
        for seed in range(30):
            t = Table(card_file, strategies=(owner, "random"), seed=seed)
            tower = t.build(1, "Tower", followers=2, damage=1)
            t.effect(0, "damage 2")
            targets[owner].add(tower if t.st[LOC + tower] != IN_PLAY else HOMELAND + 1)
    assert len(targets["builder"]) == 1 and len(targets["random"]) == 2


# --- game end ---------------------------------------------------------------------------------


def test_a_player_without_followers_loses_at_once(table):
    t = table
    t.set_followers(HOMELAND + 1, 1)
    t.st[SUPPLY] += 9
    cull = t.give(0, "Cull")
    t.move(0, PLAY, cull)
    assert t.st[OVER] == 1 and end_reason(t.st, t.rules) == END_WIPEOUT
    assert winner_of(t.st, t.rules, END_WIPEOUT) == 0


def test_effects_stop_when_the_game_is_over(table):
    t = table
    t.set_followers(HOMELAND, 1)
    t.st[SUPPLY] += 9
    offering = t.give(0, "Offering")  # sacrifice 1 (the last), then gain 3: never happens
    t.move(0, PLAY, offering)
    assert t.followers(0) == 0 and winner_of(t.st, t.rules, END_WIPEOUT) == 1


def test_nobody_left_is_a_draw(table):
    t = table
    t.set_followers(HOMELAND, 1)
    t.set_followers(HOMELAND + 1, 1)
    t.st[SUPPLY] += 18
    t.effect(0, "kill_everywhere 1")
    assert winner_of(t.st, t.rules, END_WIPEOUT) == -1


def test_three_empty_stacks_end_the_game_with_most_followers_then_level(table):
    t = table
    assert end_reason(t.st, t.rules) == -1
    for level in (2, 3):
        t.st[STACK_TOP + level - 1] = t.st[STACK_END + level - 1]
    assert end_reason(t.st, t.rules) == -1, "two empty stacks are not enough"
    t.st[STACK_TOP] = t.st[STACK_END]
    assert end_reason(t.st, t.rules) == END_STACKS
    assert winner_of(t.st, t.rules, END_STACKS) == -1, "same followers, same level: a draw"
    t.st[LEVEL + 1] = 2
    assert winner_of(t.st, t.rules, END_STACKS) == 1
    t.st[N_FOLLOWERS] += 1
    assert winner_of(t.st, t.rules, END_STACKS) == 0


def test_stacks_to_end_is_a_rule_parameter(card_file):
    t = Table(card_file, rules={"stacks_to_end": 1})
    t.st[STACK_TOP + 3] = t.st[STACK_END + 3]
    assert end_reason(t.st, t.rules) == END_STACKS


# --- the card file ----------------------------------------------------------------------------


def test_shipped_sample_set():
    cards = load_cards("")
    table = cards.table
    levels = [int(table[c, 0]) for c in range(50)]
    assert table[-1, 0] == 50 and [levels.count(level) for level in (1, 2, 3, 4)] == [16, 13, 12, 9]

    def card(name):
        return cards.names.index(name)

    assert table[card("Hospital"), 2] == 1
    radio = card("Radio Station")
    assert table[radio, C_ABILITIES + A_FOLLOWERS] == 3
    assert OPS[table[radio, C_ABILITIES + A_EFFECTS]] == "steal"
    assert table[radio, C_ABILITIES + A_EFFECTS + 1] == 1
    assert table[card("Catapult"), 0] == 1 and table[card("Doomsday Laser"), 0] == 4
    for name in ("Archaeology", "Bubonic Plague", "Robotics Lab", "Computer Network", "Church"):
        assert name in cards.names
    assert card_labels(GAME.rules_with_defaults({}))[:2] == ("Catapult", "Church")


def test_duplicate_names_get_numbered_labels(tmp_path):
    path = tmp_path / "dup.toml"
    first_card = TEST_CARDS.split("[[card]]")[1]
    path.write_text(TEST_CARDS + "[[card]]" + first_card)
    labels = card_labels(GAME.rules_with_defaults({"cards": str(path)}))
    assert labels[0] == "Tower" and labels[-1] == "Tower (2)"


HOME = "[homeland]\nintegrity = 6\n"
EVENT = 'level = 1\ntype = "event"\ncost = 1\n'
SITE = 'level = 1\ntype = "site"\ncost = 1\nintegrity = 3\n'


def one_card(body: str) -> str:
    return HOME + '[[card]]\nname = "X"\n' + body


BAD_CARDS = [
    ("", "homeland: missing"),
    (HOME, "card: missing"),
    ("[homeland\n", "not valid TOML"),
    (
        one_card('level = 5\ntype = "event"\ncost = 1\neffects = ["draw 1"]\n'),
        "card[0].level: expected an integer in [1, 4], got 5",
    ),
    (one_card('level = 1\ntype = "spell"\n'), "card[0].type: expected one of site"),
    (one_card(EVENT + 'effects = ["fly 2"]\n'), "card 'X': field effects: 'fly 2'"),
    (one_card(EVENT + 'effects = ["damage"]\n'), "card 'X': field effects: 'damage'"),
    (
        one_card('level = 1\ntype = "event"\neffects = ["damage 1"]\n'),
        "card 'X': field cost: missing",
    ),
    (one_card('level = 1\ntype = "site"\ncost = 1\n'), "card 'X': field integrity"),
    (one_card(EVENT + 'effects = ["cancel"]\n'), "card 'X': field effects: 'cancel' only"),
    (
        one_card('level = 1\ntype = "reaction"\ntrigger = "sneeze"\neffects = ["kill 1"]\n'),
        "card[0].trigger: expected one of relocate",
    ),
    (
        one_card(SITE + 'abilities = [{ infinite = true, effects = ["gain 1"] }]\n'),
        "card 'X': field abilities[1].cost",
    ),
    (
        one_card(SITE + 'abilities = [{ trigger = "relocate", effects = ["gain 1"] }]\n'),
        "card 'X': field abilities[1].trigger",
    ),
    (
        one_card('level = 1\ntype = "attachment"\ncost = 1\neffects = ["damage 1"]\n'),
        "card 'X': field effects: 'damage 1': an attachment's effect",
    ),
    (one_card(EVENT + 'health = 3\neffects = ["draw 1"]\n'), "card[0].health: unknown key"),
]


@pytest.mark.parametrize(("text", "message"), BAD_CARDS)
def test_a_bad_card_file_is_one_line_naming_file_card_and_field(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SpecError) as error:
        load_cards(str(path))
    assert str(path) in str(error.value) and message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_missing_card_file_is_a_clear_error(tmp_path):
    with pytest.raises(SpecError, match="cannot read the card file"):
        load_cards(str(tmp_path / "nope.toml"))


def test_the_cli_refuses_a_bad_card_file_with_exit_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(BAD_CARDS[3][0])
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "cli", "run", "time-barons", "--players", "2", "--games", "10",
         "--set", f"cards={path}", "--out", str(out)],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[3],
    )  # fmt: skip
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"powerlab: error: {path}: card[0].level: expected an integer in [1, 4], got 5"
    )
    assert not out.exists()


def test_rule_combinations_the_kernel_cannot_play():
    with pytest.raises(SpecError, match="cannot put starting_followers"):
        kernel.prepare(GAME.rules_with_defaults({"followers": 19}), 2)
    with pytest.raises(SpecError, match="Level I cards cannot deal hand_size=9"):
        kernel.prepare(GAME.rules_with_defaults({"hand_size": 9}), 2)
