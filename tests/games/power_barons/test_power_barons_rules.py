"""Every Power Barons rule as a scenario: build a state by hand, call one transition, check it.

A :class:`Table` is the shipped components set up for 3 or 4 players with every card back in the
drawpile; a scenario then puts chosen cards (by colour and value) in hands, banks or the discard
pile, sets bases, pawns and the challenge in progress directly in ``st`` (layout in
``simcore/games/power_barons/state.py``), and calls one kernel function. The scripted ``baron`` and
``flusher`` decide deterministically for a given state, so each scenario knows what they do.

After every transition the table checks conservation: the per-location counts and credits agree
with the card locations, no card is left on the table outside a challenge, and each seat's
supply plus its bases on the board make its starting bases of each type.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore import registry
from simcore.games.power_barons import actions, components, scripted
from simcore.games.power_barons import game as kernel
from simcore.games.power_barons.rules import determinize
from simcore.games.power_barons.state import (
    BANK,
    BANK_WORDS,
    BANKED,
    BASES,
    BASES_IN,
    CH_ATTACKER,
    CH_DECLARED,
    CH_DEFENDER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_PLAYED,
    CH_ROUND,
    CH_TOTAL,
    COLOUR,
    COUNT_AT,
    CREDITS_AT,
    DISCARD,
    DRAWPILE,
    EMPTY_DRAWS,
    EV_BUY,
    EV_CARD,
    EV_CHALLENGE,
    EV_INVEST,
    EV_MOVE,
    EV_PI,
    EV_REMOVE,
    EV_RESHUFFLE,
    EV_RESULT,
    EV_ROUND,
    EV_SETUP,
    EV_SURRENDER,
    EV_TAKE,
    EV_TURN,
    EV_WIN,
    HAND,
    LOC,
    M_BANK,
    M_DRAW,
    M_GIVE,
    M_INVEST,
    M_PAY,
    M_REFILL,
    M_RETURN,
    M_WON,
    N_CARDS,
    N_LOCATIONS,
    N_TYPES,
    ON_BOARD,
    P_N_CARDS,
    P_N_SPACES,
    PAWN,
    PLAYED,
    PROGRESS,
    RESHUFFLES,
    SPY,
    STATE_SIZE,
    SUPPLY,
    TAKE_PI,
    TAKE_POWER,
    TRACE_LEN,
    TRACE_WIDTH,
    VALUE,
    bank_credits,
    can_place,
    hand_count,
    hand_value,
    has_base,
    has_won,
    recount,
    set_base,
    types_to_win,
)
from simcore.kernel.rng import seed_game_stream
from simcore.registry import SpecError
from strategies.power_barons.banking import bank_choice
from strategies.power_barons.challenge import choose_challenge, pi_choice, surrender_choice
from strategies.power_barons.common import (
    BANKINGS,
    BARON,
    FLUSHER,
    GIVE_AWAYS,
    PI_USES,
    unseen_mean,
)
from strategies.power_barons.spaces import give_choice

GAME = registry.make("power-barons")
T, C, F, E, PI = range(5)  # Transportation, Communications, Finance, Energy, Political Influence
AMERICAS, EUROPE, AFRICA, ASIA = range(4)


def stream(seed: int = 11, index: int = 0) -> np.ndarray:
    rng = np.zeros(4, np.uint64)
    seed_game_stream(seed, index, rng)
    return rng


class Table:
    """The shipped components set up for ``players``, every card back in the drawpile."""

    def __init__(self, strategies: list[str], rules: dict | None = None, seed: int = 11):
        self.players = len(strategies)
        self.rules_dict = GAME.rules_with_defaults(rules or {})
        self.rules = kernel.prepare(self.rules_dict, self.players)
        entries = [registry.parse_strategy(GAME, text) for text in strategies]
        self.sids, self.prm = GAME.encode_strategies(entries)
        self.rng = stream(seed)
        self.trace = np.zeros((5000, TRACE_WIDTH), np.int64)
        self.st = np.zeros(STATE_SIZE, np.int64)
        actions.set_up(self.players, self.st, self.rules, self.rng, self.trace)
        self.per_type = self.st[SUPPLY]
        self.st[LOC : LOC + self.st[N_CARDS]] = DRAWPILE
        recount(self.st)
        self.st[TRACE_LEN] = 0

    # -- building a state --

    def card(self, colour: int, value: int, where: int = DRAWPILE) -> int:
        """A card of that colour and value lying at ``where``."""
        st = self.st
        for card in range(st[N_CARDS]):
            if (
                st[LOC + card] == where
                and st[COLOUR + card] == colour
                and st[VALUE + card] == value
            ):
                return card
        raise AssertionError(f"no card {colour}/{value} at location {where}")

    def put(self, where: int, cards: list[tuple[int, int]]) -> list[int]:
        ids = []
        for colour, value in cards:
            card = self.card(colour, value)
            self.st[LOC + card] = where
            ids.append(card)
        recount(self.st)
        return ids

    def hand(self, seat: int, cards: list[tuple[int, int]]) -> list[int]:
        return self.put(HAND + seat, cards)

    def bank(self, seat: int, cards: list[tuple[int, int]]) -> list[int]:
        return self.put(BANK + seat, cards)

    def fill_hands(self, cards: int = 8) -> None:
        """Top every hand up to ``cards`` with the lowest-id drawpile cards."""
        st = self.st
        for seat in range(self.players):
            while hand_count(st, seat) < cards:
                st[LOC + self.first(DRAWPILE)] = HAND + seat
                recount(st)

    def first(self, where: int) -> int:
        return next(c for c in range(self.st[N_CARDS]) if self.st[LOC + c] == where)

    def base(self, owner: int, territory: int, base_type: int) -> None:
        set_base(self.st, owner, territory, base_type, 1)

    def start_challenge(self, attacker, defender, declared, limited=0, flush=0, done=0):
        st = self.st
        st[CH_ATTACKER], st[CH_DEFENDER], st[CH_DECLARED] = attacker, defender, declared
        st[CH_LIMITED], st[CH_FLUSH], st[CH_DONE] = limited, flush, done
        st[CH_TOTAL] = st[CH_TOTAL + 1] = st[CH_PLAYED] = st[CH_PLAYED + 1] = 0

    # -- reading --

    def at(self, where: int) -> list[tuple[int, int]]:
        st = self.st
        return sorted(
            (int(st[COLOUR + c]), int(st[VALUE + c]))
            for c in range(st[N_CARDS])
            if st[LOC + c] == where
        )

    def events(self, code: int) -> np.ndarray:
        rows = self.trace[: self.st[TRACE_LEN]]
        return rows[rows[:, 0] == code]

    def moves(self, reason: int) -> list[tuple[int, int, int, int]]:
        """(colour, value, from, to) of the card rows with ``reason``."""
        rows = self.events(EV_CARD)
        return [(int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows if r[6] == reason]

    def stat(self, seat: int, column: int) -> int:
        return int(self.st[actions.stat(self.st, seat, column)])

    def assert_conserved(self, in_challenge: bool = False) -> None:
        st = self.st
        copy = st.copy()
        recount(copy)
        assert (
            copy[COUNT_AT : COUNT_AT + N_LOCATIONS] == st[COUNT_AT : COUNT_AT + N_LOCATIONS]
        ).all()
        assert (
            copy[CREDITS_AT : CREDITS_AT + N_LOCATIONS] == st[CREDITS_AT : CREDITS_AT + N_LOCATIONS]
        ).all()
        banked = slice(BANKED, BANKED + BANK_WORDS * self.players)
        assert (copy[banked] == st[banked]).all(), "stale BANKED"
        if not in_challenge:
            for seat in range(self.players):
                assert st[COUNT_AT + PLAYED + seat] == 0, "a card was left on the table"
        for owner in range(self.players):
            for base_type in range(N_TYPES):
                placed = sum(st[BASES + 16 * owner + 4 * t + base_type] for t in range(4))
                assert placed + st[SUPPLY + N_TYPES * owner + base_type] == self.per_type
            for territory in range(4):
                placed = st[
                    BASES + 16 * owner + 4 * territory : BASES + 16 * owner + 4 * territory + 4
                ]
                assert st[BASES_IN + 4 * owner + territory] == placed.sum(), "stale BASES_IN"
            assert st[ON_BOARD + owner] == st[BASES + 16 * owner : BASES + 16 * owner + 16].sum()
            counted = sum(
                min(st[BASES_IN + 4 * owner + territory], types_to_win(st))
                for territory in range(self.players)
                if territory != owner
            )
            assert st[PROGRESS + owner] == counted, "stale PROGRESS"

    # -- transitions --

    def call(self, function, *args, in_challenge: bool = False):
        result = function(*args)
        self.assert_conserved(in_challenge)
        return result

    def restore(self, seat):
        return self.call(
            scripted.restore, seat, self.st, self.rules, self.sids, self.prm, self.rng, self.trace
        )

    def challenge(self, attacker, limited=0):
        return self.call(
            scripted.challenge, attacker, self.players, limited, self.st, self.rules, self.sids,
            self.prm, self.rng, self.trace,
        )  # fmt: skip

    def take(self, seat, kind):
        return self.call(
            scripted.take, seat, kind, self.players, self.st, self.rules, self.sids, self.prm,
            self.rng, self.trace,
        )  # fmt: skip

    def buy(self, seat):
        return self.call(
            scripted.buy,
            seat,
            self.players,
            self.st,
            self.rules,
            self.sids,
            self.prm,
            self.rng,
            self.trace,
        )

    def turn(self, seat):
        return self.call(
            scripted.take_turn, seat, self.players, self.st, self.rules, self.sids, self.prm,
            self.rng, self.trace,
        )  # fmt: skip


STRONG = [(T, 50), (C, 50), (F, 50), (E, 50), (T, 45), (C, 45), (F, 45), (E, 45)]
WEAK = [(T, 5), (C, 5), (F, 5), (E, 5), (T, 10), (C, 10), (F, 10), (E, 10)]


# --- components and set-up ------------------------------------------------------------------


def test_shipped_components_load_from_the_package():
    colours, values, kinds, territories = components.load_components("")
    assert len(values) == 72 and len(kinds) == 32
    assert [int((colours == c).sum()) for c in range(5)] == [16, 16, 16, 16, 8]
    assert values[colours < PI].sum() == 4 * 440 and values[colours == PI].sum() == 270
    assert [int(np.nonzero((kinds == 0) & (territories == t))[0][0]) for t in range(4)] == [
        0, 8, 16, 24,
    ]  # fmt: skip


@pytest.mark.parametrize("players, per_type", [(3, 2), (4, 3)])
def test_set_up_deals_hands_places_pawns_and_bases(players, per_type):
    prepared = kernel.prepare(GAME.rules_with_defaults({}), players)
    st = np.zeros(STATE_SIZE, np.int64)
    trace = np.zeros((500, TRACE_WIDTH), np.int64)
    actions.set_up(players, st, prepared, stream(), trace)
    for seat in range(players):
        assert hand_count(st, seat) == 8 and bank_credits(st, seat) == 0
        assert st[PAWN + seat] == 8 * seat  # its territory's INVESTMENTS PAY OFF space
        assert list(st[SUPPLY + 4 * seat : SUPPLY + 4 * seat + 4]) == [per_type] * 4
    assert st[COUNT_AT + DRAWPILE] == 72 - 8 * players
    rows = trace[: st[TRACE_LEN]]
    setup = rows[rows[:, 0] == EV_SETUP]
    assert setup[:, 1:5].tolist() == [[s, s, 8 * s, per_type] for s in range(players)]
    deal = rows[rows[:, 0] == EV_CARD]
    assert len(deal) == 8 * players
    assert (deal[:, 5] == HAND + np.arange(8 * players) % players).all()  # one at a time


DECK = """[deck]
transportation = [5, 10]
communications = [5, 10]
finance = [5, 10]
energy = [5, 10]
political_influence = [20]
"""
BOARD = "[board]\nspaces = [" + ", ".join(
    f"'investments_pay_off:{t}', 'spy_and_steal'" for t in ("americas", "europe", "africa", "asia")
) + "]\n"  # fmt: skip
JAIL = "[board]\nspaces = ['jail', 'jail', 'jail', 'jail']\n"
BAD_COMPONENTS = [
    ("[deck]\n", "deck.transportation: missing"),
    ("nonsense = 1\n" + DECK + BOARD, "nonsense: unknown key"),
    ("[deck\n", "not valid TOML"),
    (DECK, "board: missing"),
    (
        DECK.replace("[5, 10]", "[5, 0]", 1) + BOARD,
        "deck.transportation[1]: expected an integer in [1, 100], got 0",
    ),
    (DECK.replace("finance = [5, 10]", "finance = [5, 'x']") + BOARD, "deck.finance[1]: expected"),
    (DECK + "money = [5]\n" + BOARD, "deck.money: unknown key"),
    (DECK + JAIL, "board.spaces[0]: expected one of investments_pay_off:americas"),
    (
        DECK + BOARD.replace("'spy_and_steal'", "'spy_and_steal:asia'", 1),
        "board.spaces[1]: expected one of",
    ),
    (DECK + "[board]\nspaces = 'x'\n", "board.spaces: expected a list"),
    (DECK + BOARD.replace("americas", "asia"), "americas appears 0 times"),
]


@pytest.mark.parametrize("text, needle", BAD_COMPONENTS)
def test_bad_components_file_is_one_line_naming_file_and_field(tmp_path, text, needle):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    rules = GAME.rules_with_defaults({"components": str(path)})
    with pytest.raises(SpecError) as error:
        kernel.prepare(rules, 3)
    message = str(error.value)
    assert needle in message and str(path) in message and "\n" not in message


def test_missing_components_file_and_too_small_deck_are_refused(tmp_path):
    with pytest.raises(SpecError, match="cannot read"):
        kernel.prepare(GAME.rules_with_defaults({"components": str(tmp_path / "no.toml")}), 3)
    path = tmp_path / "small.toml"
    path.write_text(DECK + BOARD)  # 9 cards
    with pytest.raises(SpecError, match="cannot deal hand_size=8 to 3 players"):
        kernel.prepare(GAME.rules_with_defaults({"components": str(path)}), 3)
    prepared = kernel.prepare(
        GAME.rules_with_defaults({"components": str(path), "hand_size": 2}), 4
    )
    assert prepared[P_N_CARDS] == 9 and prepared[P_N_SPACES] == 8


def test_a_designers_components_file_is_played(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(DECK + BOARD)
    spec = {"components": str(path), "hand_size": 2}
    table = Table(["baron", "baron", "baron"], spec)
    assert table.st[N_CARDS] == 9
    prepared = kernel.prepare(GAME.rules_with_defaults(spec), 3)
    ids, params = GAME.encode_strategies([registry.parse_strategy(GAME, "baron")] * 3)
    game_out, _ = kernel.run_chunk(prepared, 3, ids, params, 5, 0, 200, True)
    assert (game_out[:, 1] >= 1).all()


# --- drawing, banking, the turn ---------------------------------------------------------------


def test_draw_then_bank_keeps_the_hand_at_eight_and_banks_what_adds_least():
    table = Table(["baron"] * 3)
    hand = [(T, 50), (T, 5), (T, 25), (C, 30), (F, 25), (PI, 50), (PI, 30), (PI, 20)]
    table.hand(0, hand)
    table.hand(0, [(E, 35)])  # the ninth card, as if just drawn
    table.restore(0)
    # T50 plays in Transportation; T25 and T5 add nothing to a challenge now (backups); of the
    # two it banks the lower, as T25 will add more if T50 is lost.
    assert table.at(BANK) == [(T, 5)]
    assert hand_count(table.st, 0) == 8
    assert table.moves(M_BANK) == [(T, 5, HAND, BANK)]


def test_short_hand_draws_up_to_size_and_a_reshuffle_refills_the_drawpile():
    table = Table(["baron"] * 3)
    st = table.st
    st[LOC : LOC + st[N_CARDS]] = DISCARD  # nothing in the drawpile
    recount(st)
    table.restore(1)
    assert hand_count(st, 1) == 8 and st[RESHUFFLES] == 1
    assert table.events(EV_RESHUFFLE)[:, 1].tolist() == [72]
    assert st[COUNT_AT + DISCARD] == 0 and st[COUNT_AT + DRAWPILE] == 64
    assert len(table.moves(M_REFILL)) == 8


def test_with_no_card_anywhere_the_hand_stays_short():
    table = Table(["baron"] * 3)
    st = table.st
    st[LOC : LOC + st[N_CARDS]] = BANK + 2
    recount(st)
    table.st[LOC + table.card(T, 50, BANK + 2)] = HAND + 0
    recount(st)
    table.restore(0)
    assert hand_count(st, 0) == 1 and st[EMPTY_DRAWS] == 1


def test_draws_are_uniform_over_the_drawpile():
    prepared = kernel.prepare(GAME.rules_with_defaults({}), 3)
    counts = np.zeros(72)
    st = np.zeros(STATE_SIZE, np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), np.int64)
    actions.set_up(3, st, prepared, stream(3), no_trace)
    for index in range(3600):
        st[LOC : LOC + 72] = DRAWPILE
        recount(st)
        actions.draw_card(0, M_DRAW, st, stream(4, index), no_trace)
        counts[np.nonzero(st[LOC : LOC + 72] == HAND)[0][0]] += 1
    assert chisquare(counts).pvalue > 1e-3


def test_a_turn_draws_banks_rolls_moves_challenges_in_order():
    table = Table(["baron"] * 4)
    table.fill_hands()
    assert table.turn(0) == -1
    rows = table.trace[: table.st[TRACE_LEN]]
    order = [int(r[0]) for r in rows if r[0] in (EV_TURN, EV_MOVE, EV_CHALLENGE, EV_RESULT)]
    assert order == [EV_TURN, EV_MOVE, EV_CHALLENGE, EV_RESULT]
    first_cards = rows[rows[:, 0] == EV_CARD][:2]
    assert first_cards[0, 6] == M_DRAW and first_cards[0, 4:6].tolist() == [DRAWPILE, HAND]
    assert first_cards[1, 6] == M_BANK and first_cards[1, 4:6].tolist() == [HAND, BANK]
    move = table.events(EV_MOVE)[0]
    _, seat, die1, die2, start, to, kind, _ = move
    assert seat == 0 and 1 <= die1 <= 6 and 1 <= die2 <= 6 and start == 0
    assert to == (start + die1 + die2) % 32 and table.st[PAWN] == to
    assert table.stat(0, actions.CHALLENGES_MADE) == 1


# --- board spaces -----------------------------------------------------------------------------


def test_investments_pay_the_owner_one_and_each_base_one():
    table = Table(["baron"] * 4)
    table.fill_hands()
    table.base(0, EUROPE, T)
    table.base(0, EUROPE, C)
    table.base(2, EUROPE, F)
    table.base(3, AMERICAS, F)
    table.call(
        scripted.investments,
        EUROPE,
        4,
        table.st,
        table.rules,
        table.sids,
        table.prm,
        table.rng,
        table.trace,
    )
    draws = [to - HAND for _, _, _, to in table.moves(M_INVEST)]
    assert draws == [1, 2, 0, 0]  # owner first, then clockwise from the owner
    assert [bank_credits(table.st, s) > 0 for s in range(4)] == [True, True, True, False]
    assert [hand_count(table.st, s) for s in range(4)] == [8] * 4
    assert table.events(EV_INVEST)[:, 1:3].tolist() == [[EUROPE, 1]]


def test_investments_in_an_unowned_territory_pay_nobody():
    table = Table(["baron"] * 3)
    table.fill_hands()
    table.call(
        scripted.investments,
        ASIA,
        3,
        table.st,
        table.rules,
        table.sids,
        table.prm,
        table.rng,
        table.trace,
    )
    assert table.events(EV_INVEST)[:, 1:3].tolist() == [[ASIA, -1]]
    assert not table.moves(M_INVEST)


def test_take_a_power_card_gets_the_victims_lowest_of_the_asked_colour():
    table = Table(["baron"] * 4)
    table.hand(0, [(T, 50), (T, 20), (C, 40), (C, 15), (F, 30), (F, 15), (PI, 30), (PI, 20)])
    table.hand(2, [(E, 10), (E, 40), (T, 35)])
    table.fill_hands()
    table.base(2, AMERICAS, T)  # seat 2 leads: it is asked
    table.take(0, TAKE_POWER)
    # Seat 0 has no Energy: its weakest colour. Seat 2 hands over its lowest Energy card.
    assert table.events(EV_TAKE)[:, 1:6].tolist() == [
        [0, 2, E, table.card(E, 10, HAND), TAKE_POWER]
    ]
    assert table.moves(M_GIVE) == [(E, 10, HAND + 2, HAND)]
    assert [hand_count(table.st, s) for s in range(4)] == [8] * 4  # taker banked, victim drew
    assert len(table.moves(M_BANK)) == 1 and len(table.moves(M_REFILL)) == 1


def test_take_finds_nothing_when_the_victim_lacks_the_colour():
    table = Table(["baron"] * 3)
    table.hand(1, [(T, 10)] + [(C, 10 + 5 * k) for k in range(7)])
    table.fill_hands()
    table.base(1, AMERICAS, T)
    table.take(0, TAKE_PI)
    assert table.events(EV_TAKE)[:, 1:5].tolist() == [[0, 1, PI, -1]]
    assert not table.moves(M_GIVE)


def test_take_political_influence_and_spy_and_steal():
    table = Table(["baron"] * 3)
    table.hand(1, [(PI, 50), (PI, 20), (T, 45), (C, 5), (F, 5), (E, 5), (T, 5), (C, 10)])
    table.fill_hands()
    table.base(1, AMERICAS, T)
    table.take(0, TAKE_PI)
    assert table.moves(M_GIVE) == [(PI, 20, HAND + 1, HAND)]  # the victim's lowest PI card
    shown = [c for c in range(72) if table.st[LOC + c] == HAND + 1]
    best = max(shown, key=lambda c: (table.st[VALUE + c], -c))  # ties: the lower id
    table.take(0, SPY)
    assert table.events(EV_TAKE)[-1, 4] == best  # the shown hand's best card
    assert table.events(EV_TAKE)[-1, 3] == -1  # spy and steal names no colour


def test_remove_a_power_base_hits_the_leader_and_returns_the_base():
    table = Table(["baron"] * 4)
    table.base(1, AMERICAS, T)
    table.base(2, AMERICAS, C)
    table.base(2, AMERICAS, F)
    table.base(2, EUROPE, C)
    table.base(0, EUROPE, F)  # its own base is never removed
    table.call(scripted.remove, 0, 4, table.st, table.sids, table.rng, table.trace)
    # Seat 2 leads; it has the most bases in the Americas; of those, a type drawn at random.
    (removed,) = table.events(EV_REMOVE)[:, 1:5].tolist()
    assert removed[:3] == [0, 2, AMERICAS] and removed[3] in (C, F)
    assert not has_base(table.st, 2, AMERICAS, removed[3])
    assert table.st[SUPPLY + 4 * 2 + removed[3]] == 3
    assert table.stat(0, actions.BASES_REMOVED) == 1 and table.stat(2, actions.BASES_LOST) == 1


def test_remove_with_no_opponent_base_does_nothing():
    table = Table(["baron"] * 3)
    table.base(0, EUROPE, F)
    table.call(scripted.remove, 0, 3, table.st, table.sids, table.rng, table.trace)
    assert table.events(EV_REMOVE)[:, 1:5].tolist() == [[0, -1, -1, -1]]
    assert has_base(table.st, 0, EUROPE, F)


# --- the challenge ----------------------------------------------------------------------------


def test_declared_colour_counts_double_the_rulebook_example():
    table = Table(["baron"] * 3)
    attacker = table.hand(0, [(T, 30), (F, 40), (C, 25), (E, 30)])
    defender = table.hand(1, [(T, 35), (F, 30), (C, 20), (E, 40)])
    table.start_challenge(0, 1, C)
    for a, d in zip(attacker, defender, strict=True):
        actions.play_card(0, 0, a, table.st, table.rules, table.trace)
        actions.play_card(1, 1, d, table.st, table.rules, table.trace)
    assert (table.st[CH_TOTAL], table.st[CH_TOTAL + 1]) == (150, 145)
    assert (table.st[CH_PLAYED], table.st[CH_PLAYED + 1]) == (4, 4)


def test_declared_multiplier_is_a_rule_parameter():
    table = Table(["baron"] * 3, {"declared_multiplier": 3})
    card = table.hand(0, [(C, 25)])[0]
    table.start_challenge(0, 1, C)
    actions.play_card(0, 0, card, table.st, table.rules, table.trace)
    assert table.st[CH_TOTAL] == 75


def test_the_attacker_must_lead_a_card_of_a_new_colour_when_it_holds_one():
    table = Table(["baron"] * 3)
    t30, pi20 = table.hand(0, [(T, 30), (PI, 20)])
    table.start_challenge(0, 1, T, done=1 << C)
    actions.check_lead(0, T, t30, table.st)  # legal
    with pytest.raises(ValueError, match="did not lead a card"):
        actions.check_lead(0, F, -1, table.st)  # calls out while holding a Transportation card
    with pytest.raises(ValueError, match="already had its round"):
        actions.check_lead(0, C, -1, table.st)
    with pytest.raises(ValueError, match="did not lead a card"):
        actions.check_lead(0, T, pi20, table.st)  # a PI card never leads a round
    table.st[CH_DONE] = (1 << T) | (1 << C)
    actions.check_lead(0, E, -1, table.st)  # holds only PI: calls out a remaining colour
    with pytest.raises(ValueError, match="without holding"):
        actions.check_lead(0, E, pi20, table.st)


def test_surrender_options_lower_total_first_ties_attacker_first():
    table = Table(["flusher", "baron", "baron"])
    table.start_challenge(0, 1, T, limited=1, flush=1, done=0b1111)
    st = table.st
    st[CH_ROUND] = 3
    # Defender behind with nothing left to play: it surrenders at once, before the attacker.
    st[CH_TOTAL], st[CH_TOTAL + 1] = 100, 50
    assert (
        scripted.surrender_option(3, st, table.rules, table.sids, table.prm, table.rng, table.trace)
        == 1
    )
    # Tied: the attacker has the first option (the flushing attacker takes it).
    st[CH_TOTAL + 1] = 100
    assert (
        scripted.surrender_option(3, st, table.rules, table.sids, table.prm, table.rng, table.trace)
        == 0
    )
    # The attacker leads: the defender (lower) is asked first and is not hopeless here.
    st[CH_ROUND], st[CH_DONE], st[CH_FLUSH] = 0, 0b0001, 0
    st[CH_TOTAL], st[CH_TOTAL + 1] = 60, 50
    table.hand(1, [(C, 50), (F, 50), (E, 50)])
    assert (
        scripted.surrender_option(0, st, table.rules, table.sids, table.prm, table.rng, table.trace)
        == -1
    )
    rows = table.events(EV_SURRENDER)
    assert rows[:, 1:7].tolist() == [[1, 3, 100, 50, 0, 0], [0, 3, 100, 100, 0, 0]]


def test_nobody_may_surrender_before_both_played_a_power_card():
    table = Table(["baron"] * 3)
    table.hand(0, [(PI, 20), (PI, 30)])  # the attacker holds no Power Card
    table.hand(1, [(T, 5), (T, 10)])
    table.hand(2, [(T, 15), (T, 20)])
    table.challenge(0, limited=1)
    assert not len(table.events(EV_SURRENDER))  # the defender was far behind at no point...
    rounds = table.events(EV_ROUND)
    assert (rounds[:, 3] == -1).all()  # ...and the attacker only called colours out
    assert ((rounds[:, 2] == T) == (rounds[:, 4] >= 0)).all()  # it follows in Transportation
    winner, loser, credits, cards = table.events(EV_RESULT)[0, 1:5]
    assert winner == table.events(EV_CHALLENGE)[0, 2] and loser == 0  # limited: defender wins
    assert credits == cards == 0  # the attacker played nothing, so it loses nothing


def test_full_challenge_goes_to_political_influence_where_a_hand_of_pi_wins():
    table = Table(["baron"] * 3)
    pi20 = table.hand(0, [(PI, 20), (PI, 30)])[0]
    table.hand(1, [(T, 5)])
    table.hand(2, [(T, 10)])
    table.bank(1, [(E, 5)])  # seat 1 leads
    table.challenge(0, limited=0)
    # Seat 1, for a type drawn at random (all its colours are worth 0 to the attacker).
    _, attacker, defender, declared = table.events(EV_CHALLENGE)[0, :4].tolist()
    assert (attacker, defender) == (0, 1)
    assert not len(table.events(EV_SURRENDER)[:-1])  # no option in the Power Card rounds
    # 0 to 5 (10 if T is declared): the attacker plays the smallest PI card that takes the lead.
    behind = 10 if declared == T else 5
    assert table.events(EV_PI)[:, 1:5].tolist() == [[0, pi20, 20, behind]]
    assert table.events(EV_SURRENDER)[:, 1:7].tolist() == [[1, 4, 20, behind, 1, 0]]  # forced
    assert table.events(EV_RESULT)[:, 1:6].tolist() == [[0, 1, 5, 1, 1]]  # T5 banked, base
    assert has_base(table.st, 0, EUROPE, declared)


def test_political_influence_round_sequence_and_forced_surrender():
    table = Table(["baron"] * 3)
    table.hand(0, [(PI, 20), (PI, 30), (PI, 20)])
    table.hand(1, [(PI, 50), (PI, 30)])
    table.start_challenge(0, 1, C)
    table.st[CH_TOTAL], table.st[CH_TOTAL + 1] = 150, 145
    loser = table.call(
        scripted.influence_round, table.st, table.rules, table.sids, table.prm, table.rng,
        table.trace, in_challenge=True,
    )  # fmt: skip
    # The defender (lower) plays first and only needs to draw level; each player plays until it
    # is winning; the attacker's last 20 + 20 cannot beat 225 and it must surrender.
    assert table.events(EV_PI)[:, 1:5].tolist() == [
        [1, table.card(PI, 30, PLAYED + 1), 150, 175],
        [0, table.card(PI, 30, PLAYED), 180, 175],
        [1, table.card(PI, 50, PLAYED + 1), 180, 225],
    ]
    assert loser == 0
    assert table.events(EV_SURRENDER)[:, 1:7].tolist() == [[0, 4, 180, 225, 1, 0]]


def test_a_player_may_play_more_pi_cards_than_it_needs_and_baron_does_not():
    """Rulebook, PI round: each player "plays one or more Political Influence Cards"; nothing
    stops one from playing more than it needs to be winning. The kernel lets the strategy choose
    (``random`` sometimes plays on); ``baron`` stops once it is winning."""
    extra = 0
    for seed in range(40):
        for spec in ("random", "baron"):
            table = Table([spec] * 3, seed=seed)
            table.hand(0, [(PI, 20), (PI, 30), (PI, 50)])
            table.hand(1, [(PI, 40)])
            table.start_challenge(0, 1, C)
            table.st[CH_TOTAL], table.st[CH_TOTAL + 1] = 100, 110
            table.call(
                scripted.influence_round, table.st, table.rules, table.sids, table.prm, table.rng,
                table.trace, in_challenge=True,
            )  # fmt: skip
            pis = table.events(EV_PI)
            # rows of the attacker's first turn: the cards it played once it was winning
            first_turn = pis[: next((i for i, r in enumerate(pis) if r[1] == 1), len(pis))]
            winning = [row[3] > row[4] for row in first_turn]
            more = int(np.sum(winning[:-1]))  # cards played after one that made it winning
            if spec == "baron":
                assert more == 0 and [r[2] for r in first_turn] == [table.card(PI, 20, PLAYED)]
            extra += more
    assert extra > 0


def test_a_tie_going_into_political_influence_makes_the_attacker_play_first():
    table = Table(["baron"] * 3)
    table.hand(0, [(PI, 20)])
    table.hand(1, [(PI, 20)])
    table.start_challenge(0, 1, C)
    table.st[CH_TOTAL], table.st[CH_TOTAL + 1] = 100, 100
    loser = table.call(
        scripted.influence_round, table.st, table.rules, table.sids, table.prm, table.rng,
        table.trace, in_challenge=True,
    )  # fmt: skip
    # Attacker 120 > 100; the defender's 20 draws level at 120, which wins it the tie.
    assert table.events(EV_PI)[:, 1].tolist() == [0, 1]
    assert loser == 0


def test_limited_challenge_tie_goes_to_the_defender():
    table = Table(["baron"] * 3)
    table.hand(0, [(PI, 20)])
    table.hand(1, [(PI, 30)])
    table.challenge(0, limited=1)
    # Nobody holds a Power Card: no surrender option, 0 to 0 after four rounds, no PI round.
    assert table.events(EV_ROUND)[:, 5:7].tolist() == [[0, 0]] * 4
    assert not len(table.events(EV_SURRENDER)) and not len(table.events(EV_PI))
    defender = table.events(EV_CHALLENGE)[0, 2]
    assert table.events(EV_RESULT)[:, 1:6].tolist() == [[defender, 0, 0, 0, 0]]
    table.start_challenge(0, 1, T)
    assert actions.behind_by(table.st, 0) == 1 and actions.behind_by(table.st, 1) == 0


def test_winning_a_challenge_banks_the_losers_cards_and_places_the_base():
    table = Table(["baron"] * 4)
    table.hand(0, STRONG)
    table.hand(2, WEAK[2:4])
    table.fill_hands()
    table.base(2, AMERICAS, T)  # seat 2 leads: it is challenged
    before_bank = bank_credits(table.st, 0)
    placed = table.challenge(0, limited=1)
    _, attacker, defender, declared, *_ = table.events(EV_CHALLENGE)[0]
    winner, loser, credits, cards, base, loser_hand = table.events(EV_RESULT)[0, 1:7]
    assert (attacker, defender, winner, loser, base, placed) == (0, 2, 0, 2, 1, 1)
    assert has_base(table.st, 0, AFRICA, declared)
    won = table.moves(M_WON)
    assert len(won) == cards and sum(v for _, v, _, _ in won) == credits
    assert all(src == PLAYED + 2 and dst == BANK for _, _, src, dst in won)
    assert bank_credits(table.st, 0) == before_bank + credits
    assert hand_count(table.st, 2) == 8 and loser_hand == hand_value(table.st, 2)  # refilled
    assert all(dst == HAND for _, _, _, dst in table.moves(M_RETURN))  # the winner's cards back
    assert hand_count(table.st, 0) == 8
    assert table.stat(0, actions.BASES_WON) == 1 and table.stat(0, actions.CHALLENGES_WON) == 1
    assert table.stat(2, actions.CHALLENGES_LOST) == 1


def test_the_loser_replaces_the_cards_it_lost_and_no_more():
    """Rulebook, Winning a challenge B: "The loser takes enough cards from the drawpile to replace
    the lost cards": a hand left short by empty draws stays as short, it does not fill up."""
    table = Table(["baron"] * 3)
    t50, t5 = table.hand(0, [(T, 50)])[0], table.hand(1, [(T, 5), (C, 5), (F, 5)])[0]
    table.start_challenge(0, 1, C)
    actions.play_card(0, 0, t50, table.st, table.rules, table.trace)
    actions.play_card(1, 1, t5, table.st, table.rules, table.trace)
    table.call(
        actions.resolve, 0, 1, 3, 0, table.st, table.rules, table.rng, table.trace
    )  # fmt: skip
    assert hand_count(table.st, 1) == 3  # lost 1 of 3, drew 1: not 8
    assert [reason for reason in table.events(EV_CARD)[:, 6] if reason == M_REFILL] == [M_REFILL]


def test_the_defender_never_wins_a_base_and_a_placed_type_is_not_placed_twice():
    table = Table(["baron"] * 3)
    t50, t5 = table.hand(0, [(T, 50)])[0], table.hand(1, [(T, 5)])[0]
    table.base(0, EUROPE, T)
    table.start_challenge(0, 1, T)
    actions.play_card(0, 0, t50, table.st, table.rules, table.trace)
    actions.play_card(1, 1, t5, table.st, table.rules, table.trace)
    placed = table.call(
        actions.resolve, 0, 1, 3, 0, table.st, table.rules, table.rng, table.trace
    )  # fmt: skip
    assert placed == 0 and bank_credits(table.st, 0) == 5  # credits only: T is already there
    table.start_challenge(1, 0, F)
    actions.play_card(1, 0, table.first(HAND + 1), table.st, table.rules, table.trace)
    actions.play_card(0, 1, t50, table.st, table.rules, table.trace)
    placed = table.call(
        actions.resolve, 0, 1, 3, 0, table.st, table.rules, table.rng, table.trace
    )  # fmt: skip
    assert placed == 0 and table.st[BASES : BASES + 64].sum() == 1  # the defender won: no base


def test_a_flush_loses_the_lowest_cards_to_the_poorest_opponent():
    table = Table(["flusher", "baron", "baron"])
    table.hand(0, [(T, 5), (T, 10), (C, 15), (C, 20), (F, 5), (F, 25), (E, 10), (E, 30)])
    table.hand(1, STRONG[:4] + [(PI, 50)])
    table.hand(2, STRONG[4:])
    table.bank(2, [(T, 40)])
    table.fill_hands()
    before = hand_value(table.st, 0)  # 120, under 8 x the mean unseen card (flush_below 1)
    assert before < 8 * unseen_mean(table.st, 0)
    table.challenge(0, limited=1)
    _, attacker, defender, declared, _, flush, hand, _ = table.events(EV_CHALLENGE)[0]
    assert (attacker, defender, flush, hand) == (0, 1, 1, before)  # seat 1's bank is empty
    rounds = table.events(EV_ROUND)
    # Its lowest-counting card of each colour (the declared colour counts double), lowest first.
    lowest = {T: 5, C: 15, F: 5, E: 10}
    counts = [lowest[c] * (2 if c == declared else 1) for c in (T, C, F, E)]
    played = [table.st[VALUE + row[3]] * (2 if row[2] == declared else 1) for row in rounds]
    assert played == sorted(counts)
    assert table.events(EV_SURRENDER)[:, 1:3].tolist() == [[0, 3]]  # after the fourth round
    result = table.events(EV_RESULT)[0]
    assert result[1:3].tolist() == [1, 0] and result[4] == 4
    assert table.stat(0, actions.FLUSH_ATTEMPTS) == table.stat(0, actions.FLUSHES) == 1
    assert table.stat(0, actions.FLUSH_CREDITS_GIVEN) == result[3]
    assert table.stat(0, actions.FLUSH_HAND_BEFORE) == before
    assert table.stat(0, actions.FLUSH_HAND_AFTER) == hand_value(table.st, 0) == result[6]


def test_a_flush_stops_before_its_next_card_could_put_it_ahead():
    """Ahead after a round, the flusher would leave the first surrender option to the defender,
    who might take it: so it surrenders as soon as its next lead could put it ahead."""
    table = Table(["flusher", "baron", "baron"])
    table.hand(0, [(T, 5), (C, 40), (F, 45), (E, 50)])
    table.hand(1, [(T, 15), (C, 5), (PI, 50)])
    table.start_challenge(0, 1, E, limited=1, flush=1, done=1 << T)
    table.st[CH_TOTAL], table.st[CH_TOTAL + 1] = 5, 30
    table.st[CH_PLAYED], table.st[CH_PLAYED + 1] = 1, 1
    table.st[CH_ROUND] = 0
    # 5 to 30: its next lead, C40, could put it ahead (if the defender holds less): surrender.
    assert surrender_choice(FLUSHER, 0.0, 0, 0, table.st, table.rules, table.rng)
    table.st[CH_TOTAL + 1] = 45  # 5 to 45: C40 cannot put it ahead, play on
    assert not surrender_choice(FLUSHER, 0.0, 0, 0, table.st, table.rules, table.rng)


def test_a_flusher_above_its_threshold_or_with_p_flush_0_plays_to_win():
    for spec in ("flusher:flush_below=0.2", "flusher:flush_below=2.0,p_flush=0"):
        table = Table([spec, "baron", "baron"])
        table.hand(0, WEAK)  # worth 60
        table.fill_hands()
        table.challenge(0, limited=1)
        assert table.events(EV_CHALLENGE)[0, 5] == 0
        assert table.stat(0, actions.FLUSH_ATTEMPTS) == 0


# --- strategy parameters -------------------------------------------------------------------


def targeting_table(spec: str) -> Table:
    """Seat 0 (``spec``) holds its strongest card in Transportation and has a Transportation base
    in Europe and Africa; banks: Europe's owner 100 (the leader), Africa's 10 (the poorest),
    Asia's 50. So it needs 2 bases in Europe and Africa, 3 in Asia."""
    table = Table([spec, "baron", "baron", "baron"])
    table.hand(0, [(T, 50), (C, 30), (F, 35), (E, 25), (T, 5), (C, 5), (F, 5), (E, 5)])
    table.bank(1, [(T, 45), (C, 45), (F, 10)])
    table.bank(2, [(T, 10)])
    table.bank(3, [(C, 50)])
    table.base(0, EUROPE, T)
    table.base(0, AFRICA, T)
    table.fill_hands()
    return table


def challenge_of_seat_0(table: Table) -> tuple[int, int, int]:
    defender, declared, flush = choose_challenge(
        table.sids[0], table.prm, 0, table.players, table.st, table.rng
    )
    return int(defender), int(declared), int(flush)


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("baron", (EUROPE, F, 0)),  # the leader, in its strongest needed colour (F35 > C30)
        ("baron:targeting=leader", (EUROPE, F, 0)),
        ("baron:targeting=poorest", (AFRICA, F, 0)),
        ("baron:targeting=needed", (ASIA, T, 0)),  # 3 types still needed there; T50 is its best
        ("baron:targeting=rechallenge", (EUROPE, F, 0)),  # 2 bases: not late (late_bases=6)
        ("baron:targeting=rechallenge,late_bases=2", (EUROPE, T, 0)),  # T placed: for credits
        ("flusher:targeting=needed,flush_below=0", (ASIA, T, 0)),
    ],
)
def test_targeting_picks_the_defender(spec, expected):
    table = targeting_table(spec)
    assert challenge_of_seat_0(table) == expected
    table.challenge(0, limited=1)  # the kernel plays the same choice
    assert tuple(table.events(EV_CHALLENGE)[0, 2:4]) == expected[:2]


def test_rechallenge_goes_to_the_leader_among_territories_holding_its_strongest_type():
    table = targeting_table("baron:targeting=rechallenge,late_bases=2")
    table.bank(2, [(PI, 50), (PI, 50), (PI, 40)])  # Africa's owner now leads
    assert challenge_of_seat_0(table) == (AFRICA, T, 0)
    set_base(table.st, 0, AFRICA, T, 0)  # its T base in Africa goes; Europe keeps one
    table.base(0, AFRICA, C)  # still 2 bases on the board
    assert challenge_of_seat_0(table) == (EUROPE, T, 0)


def test_with_nothing_left_to_place_targeting_still_picks_the_defender():
    for spec, defender in (("baron", EUROPE), ("baron:targeting=poorest", AFRICA)):
        table = targeting_table(spec)
        for territory in (EUROPE, AFRICA, ASIA):
            for base_type in (C, F):
                table.base(0, territory, base_type)
        table.st[SUPPLY : SUPPLY + N_TYPES] = 0  # its supply is empty: no base can be placed
        assert challenge_of_seat_0(table) == (defender, T, 0)  # T50: its strongest colour


def test_declare_strongest_or_random_among_the_types_it_needs():
    table = targeting_table("baron:declare=strongest")
    assert {challenge_of_seat_0(table)[1] for _ in range(50)} == {F}
    table = targeting_table("baron:declare=random")
    declared = [challenge_of_seat_0(table)[1] for _ in range(600)]
    assert set(declared) == {C, F, E}  # T is already placed in Europe
    assert chisquare(np.bincount(declared, minlength=4)[1:]).pvalue > 1e-4
    table.challenge(0, limited=1)
    assert table.events(EV_CHALLENGE)[0, 3] in (C, F, E)


def test_strategy_parameters_are_documented_and_validated():
    text = (Path(__file__).resolve().parents[3] / "docs/games/power-barons.md").read_text()
    for name in ("baron", "flusher"):
        for param in GAME.strategy(name).params:
            assert f"`{param.name}`" in text
    assert registry.parse_strategy(GAME, "baron:targeting=poorest")["params"]["targeting"] == (
        "poorest"
    )
    for bad in ("baron:targeting=richest", "baron:declare=weakest", "baron:late_bases=13"):
        with pytest.raises(SpecError):
            registry.parse_strategy(GAME, bad)
    for param in GAME.strategy("flusher").params:
        if param.kind == "choice":
            assert param.choices.index(param.default) == 0  # a zero row means the default


def test_banking_and_give_away_reach_the_kernel():
    for spec, banked in (("baron:banking=decoys", (T, 25)), ("baron:banking=lowest", (T, 5))):
        table = Table([spec, "baron", "baron"])
        hand = [(T, 50), (T, 5), (T, 25), (C, 30), (F, 25), (PI, 50), (PI, 30), (PI, 20)]
        table.hand(0, hand + [(E, 35)])
        table.restore(0)
        assert table.at(BANK) == [banked]
    table = Table(["baron", "baron:give_away=highest", "baron", "baron"])
    table.hand(1, [(E, 10), (E, 40), (T, 35)])
    table.hand(0, [(T, 50), (C, 40), (F, 30)] + [(PI, 20), (PI, 30)] * 2 + [(PI, 50)])
    table.fill_hands()
    table.base(1, AMERICAS, T)  # seat 1 leads: it is asked, for Energy (seat 0 has none)
    table.take(0, TAKE_POWER)
    assert table.moves(M_GIVE)[0][:2] == (E, 40)


# The cores take the setting as an argument; the kernel-facing functions read it from ``prm``.


def bank_of(table: Table, banking: str, late_bases: float = 6.0) -> tuple[int, int]:
    card = bank_choice(
        BARON,
        BANKINGS.index(banking),
        late_bases,
        0,
        table.st,
        table.rules,
        table.rng,
    )
    return int(table.st[COLOUR + card]), int(table.st[VALUE + card])


def test_banking_keep_best_lowest_decoys_highest_late():
    table = Table(["baron"] * 3)
    hand = [(T, 50), (T, 5), (T, 25), (C, 30), (F, 25), (PI, 50), (PI, 30), (PI, 20), (E, 35)]
    table.hand(0, hand)
    assert bank_of(table, "keep_best") == (T, 5)  # the lowest card that does not play
    assert bank_of(table, "lowest") == (T, 5)
    assert bank_of(table, "decoys") == (T, 25)  # T5 is T's decoy, kept
    assert bank_of(table, "highest_late", 1) == (T, 5)  # no base on the board: not late yet
    table.base(0, EUROPE, T)
    assert {bank_of(table, "highest_late", 1) for _ in range(20)} == {(T, 50), (PI, 50)}  # drawn
    assert bank_of(table, "highest_late", 2) == (T, 5)


def test_keep_best_banks_the_card_that_adds_least_to_its_challenges():
    """A colour's best Power Card adds the difference to the colour's next card, times the
    average multiplier ((2 + 3) / 4 by default); a PI card its value in the full challenges
    (24 of the 32 shipped spaces are not LIMITED CHALLENGE); a backup nothing. Scaled by
    4 x 32: T50 over T45 adds 5 x 5 x 32 = 800, PI20 adds 20 x 4 x 24 = 1920, F25 alone 4000."""
    table = Table(["baron"] * 3)
    table.hand(0, [(T, 50), (C, 30), (F, 25), (E, 35), (PI, 50), (PI, 40), (PI, 30), (PI, 20)])
    table.hand(0, [(T, 45)])
    assert bank_of(table, "keep_best") == (T, 45)  # a backup
    table = Table(["baron"] * 3)
    table.hand(0, [(T, 50), (C, 30), (F, 25), (E, 35), (PI, 50), (PI, 40), (PI, 30), (PI, 20)])
    assert bank_of(table, "keep_best") == (PI, 20)  # everything plays: PI20 adds least
    table = Table(["baron"] * 3)
    table.hand(0, [(T, 50), (T, 45), (C, 30), (F, 25), (E, 35), (PI, 50), (PI, 40), (PI, 30)])
    table.put(DISCARD, [(T, 5)])
    table.st[LOC + table.card(T, 45, HAND)] = DRAWPILE  # T45 gone: now T50 has no backup
    recount(table.st)
    assert bank_of(table, "keep_best") == (PI, 30)


def test_give_away_lowest_highest_random():
    table = Table(["baron"] * 3)
    table.hand(0, [(E, 10), (E, 40), (E, 25), (T, 35)])

    def give(how):
        card = give_choice(BARON, GIVE_AWAYS.index(how), 0, E, table.st, table.rng)
        return int(table.st[VALUE + card])

    assert give("lowest") == 10 and give("highest") == 40
    assert {give("random") for _ in range(100)} == {10, 25, 40}


def surrender_table(attacker_hand, attacker_lead, defender_follow) -> Table:
    """A limited challenge, seat 0 attacking seat 1 in Transportation, after round 0."""
    table = Table(["baron"] * 3)
    table.hand(0, attacker_hand + [attacker_lead])
    table.hand(1, [defender_follow, (C, 20), (F, 20), (E, 20)])
    table.start_challenge(0, 1, T, limited=1)
    actions.play_card(0, 0, table.card(*attacker_lead, HAND), table.st, table.rules, table.trace)
    actions.play_card(1, 1, table.card(*defender_follow, HAND + 1), table.st, table.rules,
                     table.trace)  # fmt: skip
    table.st[CH_DONE], table.st[CH_ROUND] = 0b0001, 0
    return table


def surrenders(table: Table, seat: int, margin: float, pi_use: str = "smallest") -> bool:
    return bool(
        surrender_choice(
            BARON,
            margin,
            PI_USES.index(pi_use),
            seat,
            table.st,
            table.rules,
            table.rng,
        )  # fmt: skip
    )


def test_surrender_margin_moves_the_threshold():
    # Behind 10 to 20 (+1: ties go to the defender) with C50, F50, E50 left: it expects to
    # catch up 150 - 3 x 27.5 = 67.5, so it plays on unless the margin is below -56.5.
    table = surrender_table([(C, 50), (F, 50), (E, 50)], (T, 5), (T, 10))
    assert not surrenders(table, 0, 0.0)
    assert not surrenders(table, 0, -56.0)
    assert surrenders(table, 0, -57.0)
    # Hopeless (behind 10 to 100 with 5s left): it gives up unless the margin is large.
    table = surrender_table([(C, 5), (F, 5), (E, 5)], (T, 5), (T, 50))
    assert surrenders(table, 0, 0.0)
    assert not surrenders(table, 0, 200.0)
    assert not surrenders(table, 1, -200.0)  # the side ahead never surrenders


def test_pi_use_smallest_largest_never():
    table = Table(["baron"] * 3)
    table.hand(0, [(PI, 20), (PI, 30), (PI, 50)])
    table.start_challenge(0, 1, T, done=0b1111)
    table.st[CH_ROUND] = 4
    table.st[CH_TOTAL], table.st[CH_TOTAL + 1] = 100, 115  # the attacker needs 16

    def pi_card(how):
        card = pi_choice(BARON, PI_USES.index(how), 0, table.st, table.rng)
        return int(table.st[VALUE + card])

    assert pi_card("smallest") == 20 and pi_card("largest") == 50
    assert not surrenders(table, 0, 0.0, "smallest") and not surrenders(table, 0, 0.0, "largest")
    assert surrenders(table, 0, 0.0, "never")
    # In the Power Card rounds a seat that will not play PI does not count on it.
    table = surrender_table([(C, 20), (F, 20), (E, 20), (PI, 50), (PI, 50)], (T, 20), (T, 40))
    table.st[CH_LIMITED] = 0
    assert not surrenders(table, 0, 0.0, "smallest") and surrenders(table, 0, 0.0, "never")


# --- buying and winning -----------------------------------------------------------------------


def test_buying_pays_the_smallest_total_of_at_least_the_price():
    table = Table(["baron"] * 3)
    table.bank(0, [(T, 50), (C, 50), (F, 50), (E, 50), (T, 45), (C, 45), (F, 40), (E, 10)])
    table.fill_hands()
    assert table.buy(0)
    paid = sorted(v for _, v, src, dst in table.moves(M_PAY))
    assert paid == [10, 45, 45, 50, 50, 50, 50]  # exactly 300; F40 stays
    assert table.events(EV_BUY)[0, 4:7].tolist() == [300, 7, 40]
    assert table.at(DISCARD) == sorted((c, v) for c, v, _, _ in table.moves(M_PAY))
    assert table.stat(0, actions.BASES_BOUGHT) == 1


def test_among_payments_of_the_same_total_the_game_stream_chooses_not_the_card_id():
    """Three of the four 50s and the four 45s make the smallest total of at least 300 (330):
    which 50 stays in the bank is drawn from the game's stream, not the first card id."""
    kept = set()
    for seed in range(20):
        table = Table(["baron"] * 3, seed=seed)
        table.bank(0, [(colour, value) for colour in (T, C, F, E) for value in (50, 45)])
        table.fill_hands()
        assert table.buy(0)
        assert table.events(EV_BUY)[0, 4:7].tolist() == [330, 7, 50]
        kept.add(table.at(BANK)[0])
    assert kept == {(T, 50), (C, 50), (F, 50), (E, 50)}


def test_buying_gives_no_change_and_needs_the_price():
    table = Table(["baron"] * 3)
    table.bank(0, [(T, 45), (C, 45), (F, 45), (E, 45), (T, 40), (C, 40), (F, 30)])  # 290
    table.fill_hands()
    assert not table.buy(0)
    table.bank(0, [(E, 35)])  # 325: no 7 of the 8 cards make 300, so it pays all 8
    assert table.buy(0)
    assert table.events(EV_BUY)[0, 4:7].tolist() == [325, 8, 0]


def test_one_base_per_turn_even_with_twice_the_price_banked():
    table = Table(["baron"] * 3)
    table.bank(0, [(c, v) for c in (T, C, F, E) for v in (50, 45, 40, 35)])  # 680
    table.fill_hands()
    table.turn(0)
    assert len(table.events(EV_BUY)) == 1 and bank_credits(table.st, 0) >= 300


def test_the_scripted_buyer_places_a_needed_base_in_its_weakest_colour():
    table = Table(["baron"] * 3)
    table.hand(0, [(T, 50), (C, 45), (F, 15), (E, 40), (T, 5), (C, 5), (F, 5), (E, 5)])
    table.bank(0, [(C, 50), (F, 50), (E, 50), (T, 45), (F, 45), (E, 45), (T, 40)])
    table.base(0, EUROPE, T)
    assert table.buy(0)
    assert table.events(EV_BUY)[0, 1:4].tolist() == [0, EUROPE, F]


def test_a_type_goes_once_into_a_territory_and_never_into_ones_own():
    table = Table(["baron"] * 4)
    table.base(0, EUROPE, T)
    assert not can_place(table.st, 4, 0, EUROPE, T)
    assert can_place(table.st, 4, 0, EUROPE, C)
    assert not can_place(table.st, 4, 0, AMERICAS, C)  # its own territory
    three = Table(["baron"] * 3)
    assert not can_place(three.st, 3, 0, ASIA, C)  # nobody's territory at 3 players


@pytest.mark.parametrize("players, need", [(3, 4), (4, 3)])
def test_win_needs_all_types_at_3_players_and_3_types_at_4(players, need):
    table = Table(["baron"] * players)
    opponents = list(range(1, players))
    for territory in opponents:
        for base_type in range(need):
            table.base(0, territory, base_type)
    assert has_won(table.st, players, 0)
    set_base(table.st, 0, opponents[-1], 0, 0)
    assert not has_won(table.st, players, 0)


def test_the_base_that_completes_the_set_ends_the_turn_with_a_win():
    table = Table(["baron"] * 4)
    for territory, types in ((EUROPE, (T, C, F)), (AFRICA, (T, C, F)), (ASIA, (T, C))):
        for base_type in types:
            table.base(0, territory, base_type)
    table.hand(0, STRONG)
    table.hand(3, WEAK)
    table.fill_hands()
    table.st[PAWN] = 1  # a roll of 2-12 lands on 3-13: no REMOVE space
    assert table.turn(0) == 0
    assert table.events(EV_CHALLENGE)[0, 2] == 3
    assert table.events(EV_WIN)[:, 1].tolist() == [0]
    assert has_won(table.st, 4, 0)


def test_every_rule_parameter_is_documented():
    text = (Path(__file__).resolve().parents[3] / "docs/games/power-barons.md").read_text()
    for param in GAME.rules:
        assert f"`{param.name}`" in text
    for column in GAME.seat_columns:
        assert f"`s<k>_{column.name}`" in text
    for strategy in GAME.strategies:
        assert f"`{strategy.name}`" in text


# --- what a seat cannot see (determinize) ---------------------------------------------------


def test_determinize_redeals_only_what_the_seat_cannot_see():
    table = Table(["baron"] * 4)
    table.bank(2, [(T, 40)])
    table.put(DISCARD, [(C, 20)])
    table.put(PLAYED + 1, [(E, 30)])
    table.put(PLAYED + 3, [(E, 45)])
    table.fill_hands()
    table.start_challenge(1, 3, F, flush=1, done=1 << E)
    st = table.st
    n = st[N_CARDS]

    def where(state, places):
        return [c for c in range(n) if state[LOC + c] in places]

    hidden = (DRAWPILE, HAND + 1, HAND + 2, HAND + 3)
    flush_seen, moved = set(), 0
    for seed in range(20):
        twin = st.copy()
        determinize(twin, 0, stream(seed))
        for loc in (HAND, BANK + 2, DISCARD, PLAYED + 1, PLAYED + 3):
            assert where(twin, (loc,)) == where(st, (loc,))  # open: unchanged
        assert [hand_count(twin, seat) for seat in range(4)] == [8] * 4
        assert where(twin, hidden) == where(st, hidden)  # the same pool, dealt again
        copy = twin.copy()
        recount(copy)
        counts = slice(COUNT_AT, COUNT_AT + N_LOCATIONS)
        assert (copy[counts] == twin[counts]).all()
        flush_seen.add(int(twin[CH_FLUSH]))
        moved += where(twin, (HAND + 1,)) != where(st, (HAND + 1,))
    assert flush_seen == {0, 1}  # the attacker's intent is a coin to seat 0
    assert moved == 20


def test_determinize_keeps_a_hand_being_shown_and_the_seats_own_intent():
    table = Table(["baron"] * 3)
    table.fill_hands()
    table.start_challenge(0, 1, T, flush=1)
    twin = table.st.copy()
    determinize(twin, 0, stream(), 2)
    assert (twin[LOC : LOC + 72] == table.st[LOC : LOC + 72])[
        [c for c in range(72) if table.st[LOC + c] in (HAND, HAND + 2)]
    ].all()
    assert twin[CH_FLUSH] == 1  # its own intent


def test_determinize_deals_uniformly_among_the_deals_consistent_with_the_challenge(tmp_path):
    """A third seat watches a challenge: the attacker led T1 then called Communications out
    (so it holds no C, F or E), the defender followed C3 but not Transportation (so no T).
    Unseen: T2, C4, F5, E6, PI7 for the attacker's 1 card, the defender's 2 and the drawpile's
    2. Consistent deals: attacker T2 with any 2 of C4, F5, E6, PI7 (6), or PI7 with 2 of C4, F5,
    E6 (3); each must come up 1/9 of the time (a naive deal, attacker first, gives T2 1/2)."""
    deck = tmp_path / "tiny.toml"
    deck.write_text(
        "[deck]\ntransportation = [1, 2]\ncommunications = [3, 4]\nfinance = [5]\n"
        "energy = [6]\npolitical_influence = [7, 8]\n[board]\nspaces = ["
        + ", ".join(f'"investments_pay_off:{t}"' for t in ("americas", "europe", "africa", "asia"))
        + "]\n"
    )
    table = Table(["baron"] * 3, {"components": str(deck), "hand_size": 2})
    table.hand(0, [(PI, 8)])
    table.hand(1, [(PI, 7)])
    table.hand(2, [(F, 5), (E, 6)])
    table.put(PLAYED + 1, [(T, 1)])
    table.put(PLAYED + 2, [(C, 3)])
    table.start_challenge(1, 2, F, done=(1 << T) | (1 << C))
    counts = {}
    rng = stream(5)
    for _ in range(4500):
        twin = table.st.copy()
        determinize(twin, 0, rng)
        deal = (tuple(table_values(twin, HAND + 1)), tuple(table_values(twin, HAND + 2)))
        counts[deal] = counts.get(deal, 0) + 1
    assert len(counts) == 9
    assert sum(n for (attacker, _), n in counts.items() if attacker == (2,)) > 0.6 * 4500
    assert chisquare(list(counts.values())).pvalue > 1e-4, counts


def table_values(st, loc) -> list[int]:
    return sorted(int(st[VALUE + c]) for c in range(st[N_CARDS]) if st[LOC + c] == loc)
