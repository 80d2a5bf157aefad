"""POWER's scripted players play as real players would (issue 15): they believe a block they have
seen, change plan instead of repeating it, fall back on Income when nothing else can progress, and
break ties between opponents at random rather than by seat.

The scenarios reuse the hand-built tables of tests/games/power/test_power_rules.py; whole-game
checks use the
runner (tests/fair_play.py).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore.games.power import game as kernel
from simcore.games.power.state import (
    AID,
    CLAIMS,
    COINS,
    EV_BLOCK,
    EXCHANGE,
    FIRE,
    INCOME,
    OVERTHROW,
    STEAL,
    next_alive,
)
from strategies import power as strategy
from tests.fair_play import ending_shares, play
from tests.games.power.test_power_rules import (
    ALWAYS_CHALLENGE,
    CHALLENGE_IMPOSSIBLE,
    HONEST,
    B,
    C,
    J,
    L,
    P,
    Table,
    encode_lineup,
    encode_rules,
    stream,
)

COUNTER = "counter"


def play_on(t: Table, first: int, turns: int) -> list[tuple[int, int]]:
    """Play up to ``turns`` turns from seat ``first`` until one player has influence left; the
    (seat, action) of every turn played."""
    actions = []
    seat = first
    for turn in range(turns):
        if sum(t.influence(s) > 0 for s in range(t.players)) == 1:
            break
        before = len(t.events(kernel.EV_ACTION))
        t.turn(seat, turn)
        actions.append(t.events(kernel.EV_ACTION)[before][:2])
        seat = next_alive(t.st, seat)
    return actions


def alive(t: Table) -> list[int]:
    return [s for s in range(t.players) if t.influence(s) > 0]


# --- a block seen is a block expected ----------------------------------------------------------


@pytest.mark.parametrize("lineup", [[COUNTER, COUNTER], [HONEST, HONEST], [COUNTER, HONEST]])
def test_two_politicians_who_block_each_others_steals_still_finish(lineup):
    # The endless game of issue 15: both hold a Politician, each steal is blocked by the other's
    # Politician and nobody challenges (P(holds) = 2/10 is above counter's 0.1). Before: the two
    # stole from each other until the turn cap. Now each stops stealing from a player who claimed
    # a Politician, takes Aid or Income, and the first to reach the overthrow cost wins.
    t = Table(
        [(P, C), (P, C), (B, B)],
        [1, 1, 0],
        [*lineup, HONEST],
        down=[(1, 0), (1, 0), (0, 0)],
    )
    actions = play_on(t, 0, 60)
    assert len(alive(t)) == 1, f"still running after 60 turns: {actions[-6:]}"
    assert {action for _, action in actions} & {AID, INCOME}
    steals = [seat for seat, action in actions if action == STEAL]
    assert steals.count(0) <= 1 and steals.count(1) <= 1  # each saw the block once


def test_a_player_blocked_once_does_not_fire_at_that_lawyer_again():
    # Seat 1 has one influence left and bluffs a Lawyer against the firing (counter does: the
    # firing would end its game anyway). Seat 0 does not challenge (P(Lawyer) = 2/11), and then
    # does not pay for a second firing the same Lawyer would block: it fires at the other player,
    # although seat 1, with more Dollars, is still the leader.
    t = Table(
        [(C, L), (J, J), (B, P)],
        [3, 3, 2],
        [COUNTER, COUNTER, HONEST],
        down=[(1, 1), (1, 0), (1, 0)],
    )
    t.turn(0)
    assert t.action() == (0, FIRE, 1, 3)
    assert t.events(EV_BLOCK)[0][:3] == (1, L, 0)
    assert t.st[CLAIMS + 1] == 1 << L
    t.st[COINS + 0] += 3
    t.st[kernel.SAFE] -= 3
    t.turn(0, 1)
    assert t.events(kernel.EV_ACTION)[1][:3] == (0, FIRE, 2)


def test_a_player_whose_aid_a_banker_blocks_takes_income():
    # Nobody ever took Income before issue 15: a player with no useful character asked for Aid
    # every turn, and a Banker blocked it every turn.
    t = Table([(L, L), (B, P), (C, J)], [2, 2, 2], [COUNTER, HONEST, HONEST])
    t.turn(0)
    assert t.action()[1] == AID
    assert t.events(EV_BLOCK) == [(1, B, 0, 0, 0, 0, 0)]
    t.turn(0, 1)
    assert t.events(kernel.EV_ACTION)[1][:2] == (0, INCOME)
    assert t.coins(0) == 3


def test_a_player_who_claimed_the_banker_is_expected_to_block_aid():
    # A Banker claimed for the Bank action stands too: the others take Income, not Aid.
    t = Table([(B, C), (L, L), (L, J)], [2, 2, 2], [HONEST, COUNTER, COUNTER])
    t.turn(0)
    assert t.action()[1] == kernel.BANK
    t.turn(1, 1)
    assert t.events(kernel.EV_ACTION)[1][:2] == (1, INCOME)


# --- the public record of standing claims ------------------------------------------------------


def test_an_unchallenged_claim_stands_until_the_card_is_shown_or_revealed():
    t = Table([(P, L), (J, C), (B, B)], [2, 2, 2], [HONEST, HONEST, CHALLENGE_IMPOSSIBLE])
    t.turn(0)  # steals from seat 1 or 2; its Politician claim stands
    assert t.st[CLAIMS + 0] == 1 << P
    t.lose(0)  # loses the Lawyer (worth less): the Politician claim still stands
    assert t.st[CLAIMS + 0] == 1 << P
    t.lose(0)  # reveals the Politician
    assert t.st[CLAIMS + 0] == 0

    t = Table([(J, L), (C, C), (B, B)], [2, 2, 2], [HONEST, HONEST, HONEST])
    t.st[CLAIMS + 0] = (1 << J) | (1 << P)
    t.exchange(0)  # nobody saw what it kept: the table goes on believing its claims
    assert t.st[CLAIMS + 0] == (1 << J) | (1 << P)


def test_a_proven_claim_goes_back_to_the_deck_and_a_caught_one_never_stood():
    t = Table([(B, L), (C, C), (P, J)], [2, 2, 2], [HONEST, ALWAYS_CHALLENGE, HONEST])
    t.st[CLAIMS + 0] = 1 << B
    assert t.challenge(0, B) == kernel.CLAIM_PROVEN
    assert t.st[CLAIMS + 0] == 0  # the Banker was shuffled back; a random card replaced it
    t = Table([(L, L), (C, C), (P, J)], [2, 2, 2], [HONEST, ALWAYS_CHALLENGE, HONEST])
    t.st[CLAIMS + 0] = 1 << B
    assert t.challenge(0, B) == kernel.CLAIM_FAILED
    assert t.st[CLAIMS + 0] == 0


# --- ties between opponents --------------------------------------------------------------------


def tied_overthrow_targets(lineup: str, draws: int) -> np.ndarray:
    """How often seat 0, forced to overthrow, picks each of three opponents that tie on every
    targeting score (2 influence, 2 Dollars each)."""
    rules = encode_rules(4)
    sids, prm = encode_lineup([lineup] * 4)
    t = Table([(C, L), (J, J), (B, P), (L, C)], [10, 2, 2, 2], [lineup] * 4)
    counts = np.zeros(4, np.int64)
    for index in range(draws):
        _, target = strategy.choose_action(sids[0], prm, 0, 4, t.st, rules, True, stream(5, index))
        counts[target] += 1
    return counts


@pytest.mark.parametrize(
    "lineup",
    [
        "counter",
        "honest:targeting=richest",
        "bluffer:targeting=most_influence",
        "counter:targeting=random",
    ],
)
def test_ties_between_opponents_are_broken_at_random_not_by_seat(lineup):
    # Before issue 15 a tie went "to the first opponent clockwise": seat 1 every time, so the
    # player on a strategy's left drew every tied overthrow, firing and steal.
    counts = tied_overthrow_targets(lineup, 3000)
    assert counts[0] == 0
    assert counts[1:].min() > 0, counts
    assert chisquare(counts[1:]).pvalue > 1e-3, counts


def test_a_steal_skips_opponents_without_dollars_and_those_who_claimed_a_blocker():
    rules = encode_rules(4)
    t = Table([(P, P), (J, J), (B, C), (L, C)], [2, 0, 2, 2], [COUNTER] * 4)
    t.st[CLAIMS + 2] = 1 << J
    sids, prm = encode_lineup([COUNTER] * 4)
    for index in range(50):
        assert strategy.choose_action(sids[0], prm, 0, 4, t.st, rules, False, stream(6, index)) == (
            STEAL,
            3,
        )
    t.st[CLAIMS + 3] = 1 << P
    action, _ = strategy.choose_action(sids[0], prm, 0, 4, t.st, rules, False, stream(6, 0))
    assert action == AID


def test_exchange_and_overthrow_are_unchanged_by_standing_claims():
    rules = encode_rules(3)
    t = Table([(J, L), (B, B), (P, P)], [2, 2, 2], [COUNTER] * 3)
    t.st[CLAIMS + 1] = 1 << B
    sids, prm = encode_lineup([COUNTER] * 3)
    assert strategy.choose_action(sids[0], prm, 0, 3, t.st, rules, False, stream())[0] == EXCHANGE
    t.st[COINS + 0] = 7
    t.st[CLAIMS + 1] = t.st[CLAIMS + 2] = 0b11111
    assert strategy.choose_action(sids[0], prm, 0, 3, t.st, rules, False, stream())[0] == OVERTHROW


# --- whole games -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "lineup"),
    [
        (4, ["counter", "bluffer", "honest", "random"]),  # `make demo`: 5.7% cut off before
        (4, ["counter"] * 4),  # 10.7% before
        (6, ["counter"] * 6),  # 14.3% before
        (4, ["honest"] * 4),  # 12.9% before
    ],
)
def test_the_lineups_of_the_issue_end_by_the_rules(players, lineup):
    games = play("power", players, lineup, 4000)
    assert ending_shares(games).get("cap", 0.0) <= 0.001


# --- the docs say what the code does -----------------------------------------------------------

DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "power.md"
STUDIES = Path(__file__).resolve().parents[3] / "studies"


def docs_table(heading: str) -> list[list[str]]:
    """The cells of the first table after ``heading`` in docs/games/power.md."""
    text = DOCS.read_text().split(heading, 1)[1]
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # the header and its rule


def test_the_rule_parameter_table_matches_the_kernel():
    def shown(param):
        if param.kind == "bool":
            return f"`{str(param.default).lower()}`", "true / false"
        if param.kind == "choice":
            return f"`{param.default}`", ", ".join(param.choices)
        return f"`{param.default}`", f"{param.low}–{param.high}"

    expected = [[f"`{p.name}`", p.kind, *shown(p), p.doc] for p in kernel.RULES]
    assert docs_table("## Rule parameters") == expected


def test_every_probability_of_the_scripted_players_is_swept_by_the_study_the_docs_name():
    # Issue 15: no magic number decides a route; a parameter must be swept by a shipped study,
    # and the docs say which one and over which values.
    rows = {row[0]: row for row in docs_table("**Parameters and the studies that sweep them.**")}
    for strategy_ in kernel.GAME.strategies:
        for param in strategy_.params:
            key = f"`{strategy_.name}.{param.name}`"
            if param.kind != "float":
                continue
            _, default, study_cell, values = rows.pop(key)
            assert float(default) == param.default, key
            if param.default == 0.0 and study_cell.startswith("–"):
                continue  # off by default: the docs say why it is not swept
            study_file = STUDIES / study_cell.strip("`").removeprefix("studies/")
            sweep = tomllib.loads(study_file.read_text())["sweep"][key.strip("`")]
            assert sweep == [float(v) for v in values.split(", ")], key
            assert param.default in sweep, key
