"""The Power Barons kernel against an independent pure-Python referee
(tests/games/power_barons/power_barons_referee.py).

Every trace of the sweep (``REFEREE`` in tests/contract/games/power_barons.py) is replayed by
the referee, which checks each decision and chance outcome is legal and computes every
consequence itself (tests/contract/test_referees.py). The sweep covers 3 and 4 players, every
strategy (alone and in mixed lineups, the flusher with its flush on and off) and rule settings
that reach the corners of the rules: a low turn cap, a small deck whose piles run dry (reshuffles
and empty draws), a deck with a colour missing and few Power Cards (called-out colours, rounds
the defender cannot follow, 0-0 ties), cheap and dear bases, multipliers 1 and 5, hands of 1 and
12 cards, and the house rules away from the rulebook; here, that it meets them, that chance
follows the rules, the tamper tests that prove the referee can fail, and each house rule flipped
on its own (small counts, plain Python).
"""

from collections import Counter
from functools import partial

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore import registry
from simcore.games.power_barons.state import (
    EV_BUY,
    EV_CARD,
    EV_CHALLENGE,
    EV_END,
    EV_PI,
    EV_RESULT,
    EV_ROUND,
    EV_SNAPSHOT,
    EV_SURRENDER,
    EV_TAKE,
    EV_TURN,
    EV_WIN,
    M_BANK,
    M_DRAW,
    M_PAY,
    M_PLAY,
    N_COLOURS,
)
from tests.contract import referees
from tests.contract.games.power_barons import FILES
from tests.contract.games.power_barons import REFEREE_CONFIGS as CONFIGS
from tests.contract.referees import caught, first
from tests.games.power_barons.power_barons_referee import describe_row, replay

kernel_traces = partial(referees.traced, "power-barons")
refereed = partial(referees.refereed, "power-barons")


def test_the_sweep_plays_the_flusher_with_its_flush_on_and_off():
    flush = {s for _, lineup, *_ in CONFIGS.values() for s in lineup if s.startswith("flusher")}
    assert "flusher:p_flush=0.0" in flush and any("p_flush=1.0" in s for s in flush)


def test_sweep_reaches_the_corners_of_the_rules():
    """The sweep is only as good as the situations it meets: count them."""
    seen = Counter()
    for config in CONFIGS:
        for table in refereed(config):
            seen.update(table.seen)
        _, lineup, *_ = CONFIGS[config]
        flushes = sum(
            int(row[5]) for _, trace in kernel_traces(config)[2] for row in trace[trace[:, 0] == 8]
        )
        seen["flush challenge"] += flushes
        if not any(s.startswith("flusher") for s in lineup):
            assert flushes == 0, f"{config}: a flush without a flusher"
    needed = [
        "reshuffle", "empty draw", "colour called out", "defender cannot follow",
        "forced surrender", "PI round: gives up", "PI lead changes",
        "PI card played while winning", "political influence round",
        "limited challenge played out", "tie to the defender", "won by challenge",
        "won by purchase", "truncated", "remove: no base", "take: out of luck",
        "investments in nobody's territory", "investments pay a base owner",
        "overpaid (no change)", "attacker wins credits only", "the loser's hand stays short",
        "declared a type it cannot place",
        "the higher total surrenders", "defender wins", "flush challenge",
        ("surrender after round", 1), ("surrender after round", 2),
        ("surrender after round", 3), ("surrender after round", 4),
        ("space", "investments_pay_off"), ("space", "take_a_power_card"),
        ("space", "take_political_influence"), ("space", "spy_and_steal"),
        ("space", "remove_a_power_base"), ("space", "limited_challenge"),
    ]  # fmt: skip
    missing = [key for key in needed if seen[key] == 0]
    assert not missing, f"the sweep never met {missing}"


def test_chance_follows_the_rules():
    """Draws are uniform over the drawpile (chi-square over the colour drawn against the pile's
    make-up at each draw) and the dice are fair."""
    observed = np.zeros(N_COLOURS)
    expected = np.zeros(N_COLOURS)
    faces = Counter()
    for config in CONFIGS:
        for table in refereed(config):
            for pile, colour in table.draws:
                observed[colour] += 1
                expected += np.array(pile) / sum(pile)
            faces.update(table.dice)
    assert observed.sum() > 50_000
    assert chisquare(observed, expected).pvalue > 1e-4, (observed, expected)
    counts = [faces[f] for f in range(1, 7)]
    assert sum(counts) > 10_000 and chisquare(counts).pvalue > 1e-4, counts


# --- the referee can fail -------------------------------------------------------------------


def a_game():
    """A default 4-player game with a Political Influence round, a purchase and a win."""
    rules, players, traces = kernel_traces("4p mixed")
    for label, trace in traces:
        events = set(trace[:, 0].tolist())
        if {EV_PI, EV_BUY, EV_WIN} <= events and sum(trace[:, 0] == EV_TURN) >= 12:
            return rules, players, label, trace
    raise AssertionError("no suitable game")


def assert_caught(trace, rules, players, index):
    return caught(lambda: replay(trace, rules, players, "tampered"), index)


def test_tampered_totals_are_caught():
    rules, players, _, trace = a_game()
    for event, column in ((EV_ROUND, 5), (EV_ROUND, 6), (EV_PI, 3), (EV_RESULT, 3)):
        i = first(trace, event)
        tampered = trace.copy()
        tampered[i, column] += 5
        assert f"{describe_row(trace[i]).split('(')[0]}(" in assert_caught(
            tampered, rules, players, i
        )


def challenge_of(trace, i) -> tuple[int, int]:
    """(attacker, defender) of the challenge in progress at row ``i``."""
    j = max(k for k in range(i) if trace[k, 0] == EV_CHALLENGE)
    return int(trace[j, 1]), int(trace[j, 2])


def test_tampered_surrenders_are_caught():
    rules, players, _, trace = a_game()
    # a forced surrender (no PI cards to take the lead) presented as a free one
    i = first(trace, EV_SURRENDER, lambda row: row[5] == 1)
    tampered = trace.copy()
    tampered[i, 5] = 0
    assert "surrender(" in assert_caught(tampered, rules, players, i)
    # in the PI round only the player who is not winning may surrender
    i = first(trace, EV_SURRENDER, lambda row: row[2] == 4)
    attacker, defender = challenge_of(trace, i)
    tampered = trace.copy()
    tampered[i, 1] = attacker + defender - trace[i, 1]
    assert "only it may surrender" in assert_caught(tampered, rules, players, i)
    # a surrender deleted: the challenge must go on
    i = first(trace, EV_SURRENDER, lambda row: row[2] < 3)
    assert_caught(np.delete(trace, i, axis=0), rules, players, i)
    # the other duellist surrenders in a Power Card round: legal, but the resolution that
    # follows (who banks what) then disagrees with the kernel's
    attacker, defender = challenge_of(trace, i)
    tampered = trace.copy()
    tampered[i, 1] = attacker + defender - trace[i, 1]
    with pytest.raises(AssertionError, match=r"trace row (\d+): expected") as caught:
        replay(tampered, rules, players, "tampered")
    assert int(caught.value.args[0].split("trace row ")[1].split(":")[0]) > i


def test_a_surrender_before_both_played_is_caught():
    """Additional challenge rule 1: no surrender until each player has played a card."""
    for config in ("3p mixed, colourless deck", "4p mixed, small deck and board"):
        rules, players, traces = kernel_traces(config)
        for _, trace in traces:
            for i, row in enumerate(trace):
                if row[0] == EV_ROUND and row[1] == 0 and -1 in (row[3], row[4]):
                    if trace[i + 1, 0] == EV_SURRENDER:
                        continue
                    attacker, _ = challenge_of(trace, i)
                    surrender = [EV_SURRENDER, attacker, 0, row[5], row[6], 0, 0, 0]
                    tampered = np.insert(trace, i + 1, surrender, axis=0)
                    message = assert_caught(tampered, rules, players, i + 1)
                    assert "both players must have played a Power Card" in message
                    return
    raise AssertionError("no first round with a card missing")


def test_tampered_snapshot_is_caught():
    rules, players, _, trace = a_game()
    i = first(trace, EV_SNAPSHOT)
    for column in range(2, 8):  # pawn, hand, hand value, bank, bases, supply
        tampered = trace.copy()
        tampered[i, column] += 1
        assert "snapshot(" in assert_caught(tampered, rules, players, i)


def test_tampered_cards_are_caught():
    rules, players, _, trace = a_game()
    # a drawn card that is in somebody's hand, not in the drawpile
    i = first(trace, EV_CARD, lambda row: row[6] == M_DRAW)
    held = first(trace, EV_CARD, lambda row: row[5] == 2)  # dealt to seat 0, still held early
    tampered = trace.copy()
    tampered[i, 1:4] = trace[held, 1:4]
    assert "drawpile" in assert_caught(tampered, rules, players, i)
    # a banked card that is not in the hand: one dealt to another seat
    i = first(trace, EV_CARD, lambda row: row[6] == M_BANK)
    seat = trace[i, 4] - 2
    other = first(trace, EV_CARD, lambda row: row[5] == 2 + (seat + 1) % players)
    tampered = trace.copy()
    tampered[i, 1:4] = trace[other, 1:4]
    assert "banks a card" in assert_caught(tampered, rules, players, i)
    # a defender that does not follow the led colour (plays nothing though it holds one)
    i = first(trace, EV_ROUND, lambda row: row[4] >= 0)
    tampered = np.delete(trace, i - 1, axis=0)
    assert_caught(tampered, rules, players, i - 1)
    # a purchase paying more than the smallest sufficient total
    i = first(trace, EV_CARD, lambda row: row[6] == M_PAY)
    tampered = np.insert(trace, i, trace[i], axis=0)
    assert_caught(tampered, rules, players, i + 1)


def test_tampered_decisions_are_caught():
    rules, players, _, trace = a_game()
    # a challenge against oneself, or for a type that does not exist
    i = first(trace, EV_CHALLENGE)
    tampered = trace.copy()
    tampered[i, 2] = tampered[i, 1]
    assert "opponent" in assert_caught(tampered, rules, players, i)
    tampered = trace.copy()
    tampered[i, 3] = 4
    assert "type" in assert_caught(tampered, rules, players, i)
    # a die showing 7
    i = first(trace, 4)  # move
    tampered = trace.copy()
    tampered[i, 2] = 7
    assert "dice" in assert_caught(tampered, rules, players, i)
    # a card given on TAKE A POWER CARD of another colour than asked
    i = first(trace, EV_TAKE, lambda row: row[3] in range(4) and row[4] >= 0)
    tampered = trace.copy()
    tampered[i, 3] = (trace[i, 3] + 1) % 4
    assert "take" in assert_caught(tampered, rules, players, i)
    # a Power Card played in the Political Influence round
    i = first(trace, EV_PI)
    k = first(trace, EV_CARD, lambda row: row[6] == M_PLAY and row[2] < 4)
    tampered = trace.copy()
    tampered[i - 1, 1:4] = trace[k, 1:4]
    assert "PI" in assert_caught(tampered, rules, players, i - 1)
    # an attacker that calls out a colour while it holds a card to lead
    i = first(trace, EV_ROUND, lambda row: row[3] >= 0 and row[4] >= 0)
    tampered = np.delete(trace, i - 2, axis=0)
    tampered[i - 2 + 1, 3] = -1
    assert "attacker leads" in assert_caught(tampered, rules, players, i - 2)


@pytest.mark.parametrize(
    "event, column, name",
    [
        (EV_TURN, 3, "turn"),  # cards in hand at the start of the turn
        (4, 5, "move"),  # where the pawn lands
        (5, 2, "invest"),  # who owns the territory
        (EV_CHALLENGE, 4, "challenge"),  # limited or full (a 0/1 flag)
        (EV_CHALLENGE, 6, "challenge"),  # the attacker's hand value
        (EV_RESULT, 1, "result"),  # the winner
        (EV_RESULT, 5, "result"),  # base placed (a 0/1 flag)
        (EV_RESULT, 6, "result"),  # the loser's hand after refilling
        (EV_BUY, 4, "buy"),  # credits paid
        (EV_BUY, 6, "buy"),  # bank credits left
    ],
)
def test_tampered_consequences_are_caught(event, column, name):
    rules, players, _, trace = a_game()
    i = first(trace, event)
    tampered = trace.copy()
    flag = (event, column) in ((EV_CHALLENGE, 4), (EV_RESULT, 5))
    tampered[i, column] = 1 - trace[i, column] if flag else trace[i, column] + 1
    assert f"{name}(" in assert_caught(tampered, rules, players, i)


def test_a_hand_not_restored_is_caught():
    """A refill left out: the hand must be drawn back to its size (or a challenge's loser must
    replace its lost cards) at once."""
    rules, players, _, trace = a_game()
    refills = [i for i, row in enumerate(trace) if row[0] == EV_CARD and row[6] == 2]
    i = next(i for i in refills if i + 1 not in refills)  # the last card of a refill
    caught = assert_caught(np.delete(trace, i, axis=0), rules, players, i)
    assert "draws back" in caught or "replaces a lost card" in caught


def test_tampered_purchase_and_end_are_caught():
    rules, players, _, trace = a_game()
    # a compulsory purchase left out
    i = first(trace, EV_BUY)
    start = i
    while trace[start - 1, 0] == EV_CARD and trace[start - 1, 6] == M_PAY:
        start -= 1
    tampered = np.delete(trace, range(start, i + 1), axis=0)
    assert_caught(tampered, rules, players, start)
    # the win left out, the number of turns altered, rows cut or added
    i = first(trace, EV_WIN)
    assert "win(" in assert_caught(np.delete(trace, i, axis=0), rules, players, i)
    end = len(trace) - 1
    tampered = trace.copy()
    tampered[end, 2] += 1
    assert "end(" in assert_caught(tampered, rules, players, end)
    with pytest.raises(AssertionError, match=rf"trace row {end}: .*end of trace"):
        replay(trace[:-1], rules, players, "cut")
    with pytest.raises(AssertionError, match=rf"trace row {end + 1}: expected nothing after"):
        replay(np.vstack([trace, trace[-1:]]), rules, players, "extra")


def test_the_turn_cap_is_enforced():
    rules, players, traces = kernel_traces("3p random, turn cap 5")
    _, trace = traces[0]
    assert tuple(trace[-1]) == (EV_END, -1, 5, 1, 0, 0, 0, 0)
    tampered = trace.copy()
    tampered[-1, 1:4] = [0, 5, 0]
    assert "end(" in assert_caught(tampered, rules, players, len(trace) - 1)
    looser = dict(rules, max_turns=6)
    with pytest.raises(AssertionError, match="expected turn"):
        replay(trace, looser, players, "capped at 6")


def test_describe_row_is_readable():
    assert describe_row([EV_CARD, 17, 1, 10, 0, 3, M_DRAW, 0]) == (
        "card(card=17, colour=Communications, value=10, src=drawpile, dst=hand1, reason=draw)"
    )


# --- the house rules flipped (issue 42) -----------------------------------------------------

HOUSE_LINEUP = ["random", "baron", "flusher:flush_below=2.0", "random"]


def surrendered_voluntarily(seen) -> int:
    return (
        sum(n for key, n in seen.items() if key[0] == "surrender after round")
        + seen["PI round: gives up"]
    )


@pytest.mark.parametrize(
    "settings, met",
    [
        ({"loser_refill": "restore_hands"}, lambda seen: seen["a short loser's hand restored"]),
        ({"challenge_rounds": 2}, lambda seen: seen["played out after fewer rounds"]),
        (
            {"surrender": "lower_total_only"},
            lambda seen: (
                seen[("surrender after round", 1)] and not seen["the higher total surrenders"]
            ),
        ),
        (
            {"surrender": "none"},
            lambda seen: seen["forced surrender"] and not surrendered_voluntarily(seen),
        ),
        (
            {"surrender_after_both_played": False, "hand_size": 3},
            lambda seen: seen["surrender before both played"],
        ),
        ({"winner_banks": 1}, lambda seen: seen["a lost card discarded"]),
        (
            {"political_influence": False},
            lambda seen: seen["limited challenge"] and not seen["political influence round"],
        ),
        ({"pi_cards_per_turn": 1}, lambda seen: seen["PI cap forces a surrender"]),
        ({"bases_bought_per_turn": 0}, lambda seen: not seen["base bought"]),
        (
            {"bases_bought_per_turn": 3, "base_cost": 100},
            lambda seen: seen["bought again in the turn"],
        ),
        (
            {"types_to_win_4p": 2, "bases_per_type_4p": 2},
            lambda seen: seen["won by challenge"] + seen["won by purchase"] == 8,
        ),
        ({"turn_draws": 3}, lambda seen: seen["step 1 draws several"]),
        (
            {"ties_go_to": "attacker", "components": "COLOURLESS", "hand_size": 4},
            lambda seen: seen["tie to the attacker"],
        ),
        (
            {"spy_and_steal": False, "remove_a_power_base": False, "limited_challenge": False},
            lambda seen: seen["a space switched off"] and not seen["limited challenge"],
        ),
        (
            {"investments_pay_off": False, "take_a_power_card": False},
            lambda seen: seen["a space switched off"] and not seen["investments pay a base owner"],
        ),
    ],
    ids=lambda value: (
        ",".join(f"{k}={v}" for k, v in value.items()) if isinstance(value, dict) else ""
    ),
)
def test_the_referee_agrees_with_each_house_rule_flipped(settings, met, tmp_path):
    """The kernel's traces under each switch away from the rulebook, replayed by the referee
    (which gains the switch): every game agrees, and the switch's situation is met. A
    ``components`` named in the contract glue's FILES is that deck (ties need few cards)."""
    if settings.get("components") in FILES:
        deck = tmp_path / "deck.toml"
        deck.write_text(FILES[settings["components"]])
        settings = dict(settings, components=str(deck))
    game = registry.make("power-barons")
    kernel = game.kernel()
    rules = game.rules_with_defaults(settings)
    lineup = [registry.parse_strategy(game, text) for text in HOUSE_LINEUP]
    ids, params = game.encode_strategies(lineup)
    prepared = kernel.prepare(rules, 4)
    seen = Counter()
    for index in range(8):
        trace = kernel.trace_game(prepared, 4, ids, params, 42, index, True)
        seen.update(replay(trace, rules, 4, f"{settings}, game {index}").seen)
    assert met(seen), dict(seen)


@pytest.mark.parametrize(
    "surrender, message",
    [("none", "no voluntary surrender"), ("lower_total_only", "only the lower total")],
)
def test_a_surrender_the_house_rule_forbids_is_caught(surrender, message):
    """Traces under the rulebook's surrender options, replayed by a referee under fewer options:
    the first surrender those options forbid is caught."""
    rules, players, traces = kernel_traces("4p mixed")
    stricter = dict(rules, surrender=surrender)
    messages = []
    for label, trace in traces[:20]:
        try:
            replay(trace, stricter, players, label)
        except AssertionError as error:
            messages.append(str(error))
    assert any(message in text for text in messages), messages[:3]
