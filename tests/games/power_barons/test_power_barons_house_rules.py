"""Power Barons' house rules (issue 42): each rule parameter beyond the rulebook's numbers, from a
set-up state, at the rulebook's value and flipped. The table and its conservation checks are
those of tests/games/power_barons/test_power_barons_rules.py."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import registry
from simcore.games.power_barons import actions, rules, scripted
from simcore.games.power_barons import game as GAME_DEF
from simcore.games.power_barons.state import (
    BLANK,
    CH_PLAYED,
    CH_ROUND,
    CH_TOTAL,
    D_PI,
    DISCARD,
    EV_BUY,
    EV_CHALLENGE,
    EV_INVEST,
    EV_MOVE,
    EV_PI,
    EV_REMOVE,
    EV_RESULT,
    EV_ROUND,
    EV_SURRENDER,
    EV_TAKE,
    LIMITED,
    M_BANK,
    M_DISCARD,
    M_DRAW,
    M_REFILL,
    MAX_MOVES,
    N_SPACES,
    P_DECISION,
    P_PI_PLAYED,
    P_SEAT,
    P_SIDE,
    PLAYED,
    SPACE_KIND,
    SPACE_TERRITORY,
    SPACES,
    SUPPLY,
    TAKE_POWER,
    bank_credits,
    hand_count,
    hand_value,
    has_won,
    types_to_win,
)
from simcore.registry import SpecError
from strategies.power_barons.banking import full_share_weight
from strategies.power_barons.challenge import pi_choice
from strategies.power_barons.common import BARON, PI_USES, RANDOM
from tests.games.power_barons.test_power_barons_rules import AMERICAS, PI, C, E, F, T, Table, stream

GAME = registry.make("power-barons")


def resolve(table: Table, winner: int, loser: int) -> int:
    return table.call(
        actions.resolve, winner, loser, 3, 0, table.st, table.rules, table.rng, table.trace
    )  # fmt: skip


@pytest.mark.parametrize("refill, loser_after, winner_after", [
    ("replace_lost", 3, 1),  # "replace the lost cards": both stay short
    ("restore_hands", 8, 8),  # "Both hands are replenished afterwards"
])  # fmt: skip
def test_loser_refill_replaces_the_lost_cards_or_restores_both_hands(
    refill, loser_after, winner_after
):
    table = Table(["baron"] * 3, {"loser_refill": refill})
    t50 = table.hand(0, [(T, 50)])[0]  # both hands short before the challenge
    t5 = table.hand(1, [(T, 5), (C, 5), (F, 5)])[0]
    table.start_challenge(0, 1, C)
    actions.play_card(0, 0, t50, table.st, table.rules, table.trace)
    actions.play_card(1, 1, t5, table.st, table.rules, table.trace)
    resolve(table, 0, 1)
    assert (hand_count(table.st, 1), hand_count(table.st, 0)) == (loser_after, winner_after)
    assert len(table.moves(M_REFILL)) == (loser_after - 2) + (winner_after - 1)
    assert table.events(EV_RESULT)[0, 6] == hand_value(table.st, 1)


@pytest.mark.parametrize("rounds, winner", [(2, 0), (4, 1)])
def test_challenge_rounds_end_the_challenge_after_that_many_colours(rounds, winner):
    """Attacker T50, C50, F5, E5 against T10, C10, F50, E50 (all at face value): ahead 100 to
    20 after two rounds, behind 110 to 120 after four."""
    settings = {"challenge_rounds": rounds, "surrender": "none", "declared_multiplier": 1}
    table = Table(["baron"] * 3, settings)
    table.hand(0, [(T, 50), (C, 50), (F, 5), (E, 5)])
    table.hand(1, [(T, 10), (C, 10), (F, 50), (E, 50)])
    table.bank(1, [(E, 10)])  # seat 1 leads: it is challenged
    table.challenge(0, limited=1)
    assert len(table.events(EV_ROUND)) == rounds
    assert table.events(EV_RESULT)[0, 1] == winner


def surrender_after_round(surrender: str) -> Table:
    """A flushing attacker (no card left, ahead 60 to 50 after round 1) wants to surrender; the
    baron defender, behind but holding three 50s, does not."""
    table = Table(["flusher", "baron", "baron"], {"surrender": surrender})
    table.hand(1, [(C, 50), (F, 50), (E, 50)])
    table.start_challenge(0, 1, T, limited=1, flush=1, done=1 << T)
    st = table.st
    st[CH_ROUND] = 0
    st[CH_TOTAL], st[CH_TOTAL + 1] = 60, 50
    return table


@pytest.mark.parametrize("surrender, loser, options", [
    ("lower_then_higher", 0, 2),  # the lower total declines, then the higher surrenders
    ("lower_total_only", -1, 1),  # the higher total has no option
    ("none", -1, 0),
])  # fmt: skip
def test_surrender_options_by_rule(surrender, loser, options):
    table = surrender_after_round(surrender)
    t = table
    assert actions.surrender_options(t.rules) == options
    if options:
        assert scripted.surrender_option(0, t.st, t.rules, t.sids, t.prm, t.rng, t.trace) == loser
    assert len(table.events(EV_SURRENDER)) == (loser >= 0)
    # A round's end opens the options only when there are any.
    t.st[CH_PLAYED], t.st[CH_PLAYED + 1] = 1, 1
    assert actions.end_round(1, C, -1, -1, t.st, t.rules, t.trace) == (options > 0)


def test_surrender_none_plays_on_in_the_pi_round_unless_it_cannot_win():
    table = Table(["baron:pi_use=never"] * 3, {"surrender": "none"})
    table.hand(0, [(PI, 20), (PI, 30)])
    table.hand(1, [(PI, 50)])
    table.start_challenge(0, 1, C)
    table.st[CH_TOTAL], table.st[CH_TOTAL + 1] = 100, 110
    t = table
    loser = t.call(
        scripted.influence_round, t.st, t.rules, t.sids, t.prm, t.rng, t.trace, in_challenge=True
    )
    # pi_use=never would give up at once; here it must play (its 20 puts it ahead), then the
    # defender must play its 50, and the attacker's 30 cannot win any more.
    assert [row[2] for row in table.events(EV_PI)] == [
        table.card(PI, 20, PLAYED), table.card(PI, 50, PLAYED + 1)
    ]  # fmt: skip
    assert loser == 0 and table.events(EV_SURRENDER)[:, 5].tolist() == [1]  # forced


@pytest.mark.parametrize("both_played, surrenders", [(True, 0), (False, 1)])
def test_surrender_after_both_played_can_be_switched_off(both_played, surrenders):
    """The attacker holds no Power Card: by the rulebook nobody may surrender; without the rule
    the hopeless attacker surrenders after the first round."""
    table = Table(["baron"] * 3, {"surrender_after_both_played": both_played})
    table.hand(0, [(PI, 20), (PI, 30)])
    table.hand(1, [(T, 5), (T, 10)])
    table.hand(2, [(T, 15), (T, 20)])
    table.challenge(0, limited=1)
    rows = table.events(EV_SURRENDER)
    assert len(rows) == surrenders
    if surrenders:
        assert rows[0, 1:3].tolist() == [0, 0]  # the attacker, after round 1


@pytest.mark.parametrize("winner_banks, banked, discarded", [
    (12, [5, 20, 30], []),
    (1, [30], [5, 20]),
    (0, [], [5, 20, 30]),
])  # fmt: skip
def test_winner_banks_its_cap_of_the_losers_highest_cards(winner_banks, banked, discarded):
    table = Table(["baron"] * 3, {"winner_banks": winner_banks})
    mine = table.hand(0, [(T, 50), (C, 50), (F, 50)])
    lost = table.hand(1, [(T, 5), (C, 20), (F, 30)])
    table.start_challenge(0, 1, E)
    for a, d in zip(mine, lost, strict=True):
        actions.play_card(0, 0, a, table.st, table.rules, table.trace)
        actions.play_card(1, 1, d, table.st, table.rules, table.trace)
    resolve(table, 0, 1)
    assert sorted(v for _, v in table.at(actions.BANK)) == banked
    assert sorted(v for _, v, _, to in table.moves(M_DISCARD) if to == DISCARD) == discarded
    assert table.events(EV_RESULT)[0, 3:5].tolist() == [sum(banked), len(banked)]
    assert bank_credits(table.st, 0) == sum(banked)
    assert hand_count(table.st, 1) == 3  # it lost 3 cards and replaces all 3


@pytest.mark.parametrize("political_influence", [True, False])
def test_political_influence_off_makes_every_challenge_limited(political_influence):
    table = Table(["baron"] * 4, {"political_influence": political_influence})
    assert actions.is_limited(LIMITED, table.rules) == 1
    assert actions.is_limited(TAKE_POWER, table.rules) == (0 if political_influence else 1)
    # keep_best weighs a PI card by the share of full challenges: none without the PI round
    assert (full_share_weight(table.st, table.rules) > 0) == political_influence
    table.fill_hands()
    for seat in range(4):
        table.turn(seat)
    limited = table.events(EV_CHALLENGE)[:, 4]
    assert limited.all() if not political_influence else not limited.all()
    assert political_influence or not len(table.events(EV_PI))


def pi_decision(table: Table, played: int = 0) -> list[int]:
    """The legal options of the attacker's D_PI (its side 0 is to play)."""
    st = table.st
    st[P_DECISION], st[P_SEAT], st[P_SIDE], st[P_PI_PLAYED] = D_PI, 0, 0, played
    moves = np.zeros(MAX_MOVES, np.int64)
    return moves[: rules.legal(st, table.rules, moves)].tolist()


@pytest.mark.parametrize("per_turn, forced", [(12, 0), (2, 0), (1, 1)])
def test_pi_cards_per_turn_caps_a_turn_and_forces_the_surrender_it_implies(per_turn, forced):
    """65 behind with PI 20, 30 and 40: three cards can win, two only with the 40 and the 30,
    one cannot."""
    table = Table(["baron"] * 3, {"pi_cards_per_turn": per_turn})
    pi20, pi30, pi40 = table.hand(0, [(PI, 20), (PI, 30), (PI, 40)])
    table.start_challenge(0, 1, C, done=0b1111)
    table.st[CH_TOTAL], table.st[CH_TOTAL + 1] = 100, 164
    assert actions.must_surrender(0, table.st) == bool(forced)
    if forced:
        return
    # Under a cap of 2 the 20 cannot be one of the two cards that make it winning.
    playable = {pi30, pi40} if per_turn == 2 else {pi20, pi30, pi40}
    assert set(pi_decision(table)) == playable
    if per_turn == 2:
        with pytest.raises(ValueError, match="pi_cards_per_turn"):
            actions.play_pi(0, 0, pi20, 0, table.st, table.rules, table.trace)
    with pytest.raises(ValueError, match="pi_cards_per_turn"):  # a card beyond the turn's count
        actions.play_pi(0, 0, pi30, per_turn, table.st, table.rules, table.trace)
    # random picks only playable cards; the scripted players' picks always are
    picks = {pi_choice(RANDOM, 0, 0, table.st, stream(seed)) for seed in range(30)}
    assert picks == playable
    for use in PI_USES:
        assert pi_choice(BARON, PI_USES.index(use), 0, table.st, table.rng) in playable


@pytest.mark.parametrize("per_turn, bought", [(0, 0), (1, 1), (2, 2)])
def test_bases_bought_per_turn(per_turn, bought):
    table = Table(["baron"] * 3, {"bases_bought_per_turn": per_turn})
    table.bank(0, [(c, v) for c in (T, C, F, E) for v in (50, 45, 40, 35)])  # 680
    table.fill_hands()
    table.turn(0)
    assert len(table.events(EV_BUY)) == bought
    assert table.stat(0, actions.BASES_BOUGHT) == bought


@pytest.mark.parametrize("players, need, per_type", [(3, 2, 2), (4, 1, 1), (4, 4, 3)])
def test_types_to_win_and_bases_per_type(players, need, per_type):
    suffix = f"{players}p"
    table = Table(
        ["baron"] * players, {f"types_to_win_{suffix}": need, f"bases_per_type_{suffix}": per_type}
    )
    st = table.st
    assert types_to_win(st) == need and (st[SUPPLY : SUPPLY + 4] == per_type).all()
    for territory in range(1, players):
        for base_type in range(need):
            assert not has_won(st, players, 0)
            table.base(0, territory, base_type)
    assert has_won(st, players, 0)


def test_a_win_no_supply_can_build_is_refused():
    with pytest.raises(SpecError, match="types_to_win_3p=4 needs 8 bases.*nobody could win"):
        GAME_DEF.prepare(GAME.rules_with_defaults({"bases_per_type_3p": 1}), 3)


@pytest.mark.parametrize("draws", [0, 1, 3])
def test_turn_draws_draws_that_many_then_banks_back_to_size(draws):
    table = Table(["baron"] * 3, {"turn_draws": draws})
    table.fill_hands()
    table.call(actions.turn_begins, 0, table.st, table.rules, table.rng, table.trace)
    assert len(table.moves(M_DRAW)) == draws
    table.restore(0)
    assert hand_count(table.st, 0) == 8 and len(table.moves(M_BANK)) == draws


@pytest.mark.parametrize("space", SPACES)
def test_a_board_space_switched_off_does_nothing(space):
    """Every space of the board made of ``space`` (and the territories' start spaces): with its
    parameter off, a landing pawn follows no directions."""
    kind = SPACES.index(space)
    for on in (True, False):
        table = Table(["baron"] * 4, {space: on})
        table.fill_hands()
        table.base(1, AMERICAS, T)  # something to remove
        st = table.st
        st[SPACE_KIND : SPACE_KIND + st[N_SPACES]] = kind
        st[SPACE_TERRITORY : SPACE_TERRITORY + st[N_SPACES]] = AMERICAS
        landed = table.call(actions.roll, 0, st, table.rules, table.rng, table.trace)
        assert landed == (kind if on else BLANK)
        assert table.events(EV_MOVE)[0, 6] == kind  # the trace names the space landed on
        table.turn(1)
        follows = {
            "investments_pay_off": len(table.events(EV_INVEST)),
            "take_a_power_card": len(table.events(EV_TAKE)),
            "take_political_influence": len(table.events(EV_TAKE)),
            "spy_and_steal": len(table.events(EV_TAKE)),
            "remove_a_power_base": len(table.events(EV_REMOVE)),
            "limited_challenge": table.events(EV_CHALLENGE)[0, 4],
        }[space]
        assert bool(follows) == on


@pytest.mark.parametrize("ties_go_to, tie_winner", [("defender", 1), ("attacker", 0)])
def test_ties_go_to(ties_go_to, tie_winner):
    """Nobody holds a Power Card: 0 to 0 after the Limited Challenge's rounds, a tie."""
    table = Table(["baron"] * 3, {"ties_go_to": ties_go_to})
    table.hand(0, [(PI, 20)])
    table.hand(1, [(PI, 30)])
    table.bank(1, [(E, 10)])  # seat 1 leads: it is challenged
    table.challenge(0, limited=1)
    assert table.events(EV_RESULT)[0, 1] == tie_winner
    st = table.st
    table.start_challenge(0, 1, T)  # level at 0: the tie's loser must add a credit
    assert (actions.behind_by(st, 0), actions.behind_by(st, 1)) == (tie_winner, 1 - tie_winner)
    # the player who is not winning has the first surrender option, and plays PI first
    assert actions.first_to_surrender(st) == 1 - tie_winner
    assert actions.open_influence(st) == 1 - tie_winner
