"""The POWER kernel against an independent pure-Python referee (tests/games/power/power_referee.py).

Every trace of the sweep (``REFEREE`` in tests/contract/games/power.py) is replayed by the
referee, which checks each decision is legal and computes every consequence itself
(tests/contract/test_referees.py). The sweep covers 3-6 players, every strategy (alone and in
mixed lineups) and rule settings that reach the corners of the rules: a Safe that runs dry, no
refunds, eliminated players keeping their Dollars, random challenge order, a deck with no spare
card, cheap or free actions, and a turn cap that truncates games; here, that it meets them, that
the draws follow the deck, and the tamper tests that prove the referee can fail.
"""

from collections import Counter
from functools import partial

import numpy as np
import pytest
from scipy.stats import chisquare

from simcore.games.power.state import (
    CEO,
    EV_ACTION,
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
    FIRE,
    N_CHARACTERS,
)
from tests.contract import referees
from tests.contract.common import Setup, play_one
from tests.contract.games.power import REFEREE as CONFIGS
from tests.contract.referees import caught, first
from tests.games.power.power_referee import describe_row, replay

kernel_traces = partial(referees.traced, "power")
refereed = partial(referees.refereed, "power")


def test_sweep_reaches_the_corners_of_the_rules():
    """The sweep is only as good as the situations it meets: count them."""
    seen = Counter()
    for config in CONFIGS:
        rules, _, traces = kernel_traces(config)
        for _, trace in traces:
            rows = [tuple(int(x) for x in row) for row in trace]
            for i, row in enumerate(rows):
                event = row[0]
                seen[event] += 1
                if event == EV_TURN and row[3]:
                    seen["forced overthrow"] += 1
                if event == EV_CHALLENGE:
                    on_block = rows[i - 1][0] == 4  # EV_BLOCK
                    seen[("challenge", "block" if on_block else "action", row[4])] += 1
                if event == EV_GAIN and row[3] == 0:
                    seen["gain of 0"] += 1
                if event == EV_EXCHANGE:
                    seen[("exchange drawing", row[2])] += 1
                if event == EV_ELIMINATED:
                    seen["eliminated, coins kept" if row[2] == 0 else "eliminated, coins back"] += 1
                if event == EV_END:
                    seen["truncated" if row[3] else "won"] += 1
                if event == EV_LOSE and rows[i - 1][0] == EV_LOSE and rows[i - 1][1] == row[1]:
                    seen["two influences in a row"] += 1
            seen[("challenge order", rules["challenge_order"])] += 1
    needed = [
        EV_REPLACE, EV_REFUND, EV_ELIMINATED, "forced overthrow", "gain of 0", "truncated", "won",
        ("challenge", "action", 0), ("challenge", "action", 1), ("challenge", "block", 0),
        ("challenge", "block", 1), ("exchange drawing", 0), ("exchange drawing", 2),
        "eliminated, coins kept", "eliminated, coins back", "two influences in a row",
        ("challenge order", "random"),
    ]  # fmt: skip
    missing = [key for key in needed if seen[key] == 0]
    assert not missing, f"the sweep never met {missing}"


def test_random_draws_follow_the_deck():
    """Deals, replacements and exchange draws: each card is drawn with probability proportional
    to its copies left in the deck (a chi-square over every draw of the sweep)."""
    observed = np.zeros(N_CHARACTERS)
    expected = np.zeros(N_CHARACTERS)
    for config in CONFIGS:
        for table in refereed(config):
            for deck, card in table.draws:
                observed[card] += 1
                expected += np.array(deck) / sum(deck)
    assert observed.sum() > 10_000
    assert chisquare(observed, expected).pvalue > 1e-4, (observed, expected)


# --- the house rules (issue 42): the referee agrees with every switch flipped ----------------

# Each house rule flipped, and combinations that reach the corners (a steal nobody may block,
# no character action at all); a lineup that tries everything (``random``) beside the plans.
HOUSE_RULES = [
    ("banker_takes=false",),
    ("ceo_fires=false",),
    ("politician_steals=false",),
    ("journalist_exchanges=false",),
    ("banker_takes=false", "ceo_fires=false", "politician_steals=false",
     "journalist_exchanges=false"),
    ("banker_blocks_aid=false",),
    ("lawyer_blocks_fire=false",),
    ("politician_blocks_steal=false",),
    ("journalist_blocks_steal=false",),
    ("politician_blocks_steal=false", "journalist_blocks_steal=false"),
    ("caught_bluffer_loses=0",),
    ("caught_bluffer_loses=2",),
    ("failed_challenger_loses=0",),
    ("failed_challenger_loses=2",),
    ("proven_card_replaced=false",),
    ("aid_allowed=false",),
    ("aid_allowed=false", "banker_takes=false", "ceo_fires=false", "politician_steals=false",
     "journalist_exchanges=false"),
    ("exchange_draws=1",),
    ("blocks_challengeable=false",),
]  # fmt: skip
HOUSE_LINEUP = ("random", "counter", "bluffer:p_bluff=0.5,p_block_bluff=0.5", "random")
SEARCHED_LINEUP = ("ismcts:iterations=3", "random", "bluffer", "counter")


def house_traces(settings: tuple[str, ...], lineup=HOUSE_LINEUP, games=10, via_protocol=False):
    setup = Setup(4, lineup, settings, seed=42, games=games)
    encoded = setup.encoded("power")
    traces = [play_one("power", encoded, i, via_protocol)[2] for i in range(games)]
    return encoded.rules, traces


def replays(traces, rules) -> bool:
    """Whether the referee accepts every trace under ``rules``."""
    try:
        for i, trace in enumerate(traces):
            replay(trace, rules, 4, f"house rules, game {i}")
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize("settings", HOUSE_RULES, ids=" ".join)
def test_referee_agrees_with_a_house_rule_flipped(settings):
    """The kernel's games with the rule flipped, played as scripted games and through the
    protocol (a searching seat, whose moves come from ``legal``), replay under the referee; and
    the referee tells the two rule sets apart: the default games break the flipped rule, or the
    flipped games the default one (so the switch changes play and the referee can fail)."""
    rules, traces = house_traces(settings)
    for i, trace in enumerate(traces):
        replay(trace, rules, 4, f"{' '.join(settings)}, game {i}")
    _, searched = house_traces(settings, SEARCHED_LINEUP, games=2, via_protocol=True)
    for i, trace in enumerate(searched):
        replay(trace, rules, 4, f"{' '.join(settings)}, searched game {i}")
    defaults, default_traces = house_traces(())
    assert not replays(default_traces, rules) or not replays(traces, defaults)


# --- the referee can fail -------------------------------------------------------------------


def a_game(min_turns: int = 6):
    """A default 4-player game long enough to hold every kind of event."""
    rules, players, traces = kernel_traces("4p mixed, defaults")
    for label, trace in traces:
        if sum(trace[:, 0] == EV_TURN) >= min_turns and (trace[:, 0] == EV_REPLACE).any():
            if not (trace[:, 0] == EV_REFUND).any():
                return rules, players, label, trace
    raise AssertionError("no suitable game")


def assert_caught(trace, rules, players, index):
    return caught(lambda: replay(trace, rules, players, "tampered"), index)


def test_tampered_coin_amount_is_caught():
    rules, players, _, trace = a_game()
    trace = trace.copy()
    i = first(trace, EV_GAIN, lambda row: row[3] > 0)
    trace[i, 3] += 1
    assert "gain(" in assert_caught(trace, rules, players, i)


def test_tampered_proven_flag_is_caught():
    rules, players, _, trace = a_game()
    trace = trace.copy()
    i = first(trace, EV_CHALLENGE)
    trace[i, 4] = 1 - trace[i, 4]
    message = assert_caught(trace, rules, players, i)
    assert "challenge(" in message and "proven=" in message


def test_tampered_snapshot_is_caught():
    rules, players, _, trace = a_game()
    i = first(trace, EV_SNAPSHOT)
    for column, value in (
        (2, trace[i, 2] + 1),
        (3, (trace[i, 3] + 1) % N_CHARACTERS),
        (5, 1 - trace[i, 5]),
        (7, trace[i, 7] - 1),
    ):  # coins, card, down, Safe
        tampered = trace.copy()
        tampered[i, column] = value
        assert "snapshot(" in assert_caught(tampered, rules, players, i)


def test_tampered_deal_and_draws_are_caught():
    rules, players, _, trace = a_game()
    # a fourth Banker (3 copies): the deck cannot provide it
    tampered = trace.copy()
    deals = [i for i, row in enumerate(trace) if row[0] == EV_DEAL]
    for i in deals[:2]:
        tampered[i, 2:4] = 0
    assert_caught(tampered, rules, players, deals[1])
    # a replacement card the deck does not hold
    i = first(trace, EV_REPLACE)
    tampered = trace.copy()
    tampered[i, 4] = 7
    assert "deck" in assert_caught(tampered, rules, players, i)


def test_tampered_decisions_are_caught():
    rules, players, _, trace = a_game()
    # the claimant challenges itself
    i = first(trace, EV_CHALLENGE)
    tampered = trace.copy()
    tampered[i, 1] = tampered[i, 2]
    assert "living challenger" in assert_caught(tampered, rules, players, i)
    # an influence lost by revealing a card the player does not have in that slot
    i = first(trace, EV_LOSE)
    tampered = trace.copy()
    tampered[i, 3] = (tampered[i, 3] + 1) % N_CHARACTERS
    assert_caught(tampered, rules, players, i)
    # the wrong player takes the turn
    i = first(trace, EV_TURN, lambda row: row[1] > 0)
    tampered = trace.copy()
    tampered[i, 1] = 0
    assert "turn(" in assert_caught(tampered, rules, players, i)
    # an untargeted action turned into a fire paid with no Dollars
    i = first(trace, EV_ACTION, lambda row: row[3] == -1)
    tampered = trace.copy()
    tampered[i, 2], tampered[i, 3] = FIRE, (tampered[i, 1] + 1) % players
    assert_caught(tampered, rules, players, i)


def test_tampered_end_is_caught():
    rules, players, _, trace = a_game()
    end = len(trace) - 1
    tampered = trace.copy()
    tampered[end, 2] += 1  # the number of turns
    assert "end(" in assert_caught(tampered, rules, players, end)
    with pytest.raises(AssertionError, match=rf"trace row {end}: .*end of trace"):
        replay(trace[:-1], rules, players, "cut")
    with pytest.raises(AssertionError, match=rf"trace row {end + 1}: expected nothing after"):
        replay(np.vstack([trace, trace[-1:]]), rules, players, "extra")


def test_no_refund_reaches_a_claimant_its_failed_challenge_eliminated():
    """A caught last-influence CEO bluff: the paid $3 stay in the Safe with its other Dollars."""
    rules, players, traces = kernel_traces("4p mixed, defaults")
    seen = 0
    for _, trace in traces:
        rows = [tuple(int(x) for x in row) for row in trace]
        for i, row in enumerate(rows):
            if row[0] == EV_ELIMINATED and i + 1 < len(rows):
                assert rows[i + 1][0] != EV_REFUND
                seen += 1
    assert seen > 0


def test_describe_row_is_readable():
    assert describe_row([EV_CHALLENGE, 2, 0, CEO, 1, 0, 0, 0]) == (
        "challenge(challenger=2, claimant=0, character=CEO, proven=1)"
    )
