"""The Time Barons kernel against an independent pure-Python referee
(tests/games/time_barons/time_barons_referee.py).

Every trace of the sweep (``REFEREE`` in tests/contract/games/time_barons.py) is replayed by the
referee, which checks each decision is legal and computes every consequence itself
(tests/contract/test_referees.py). The sweep covers every strategy (mirrors and mixed lineups) on
the shipped sample set and on a corner-case card set (``CORNER_CARDS`` there: every op of the
vocabulary, triggered abilities of every trigger, Homeland abilities, two decays on one site,
integrity lowered below the damage, cards that loop), and rule settings that reach the corners
of the rules: 0, 1 and 3 first-turn actions, a random first player, a low turn cap, scarce
damage counters and followers, cheap upgrades, 1, 2 and 4 empty stacks to end, no starting hand;
here, that it meets them, that chance follows the rules, and the tamper tests that prove the
referee can fail.
"""

from collections import Counter
from functools import cache

import numpy as np
import pytest
from scipy.stats import binomtest, chisquare

from simcore.games.time_barons.state import (
    ABILITY,
    DRAW,
    EV_DAMAGE,
    EV_DRAW,
    EV_END_TURN,
    EV_KILL,
    EV_MOVE,
    EV_PLACE,
    EV_RESPONSE,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_TABLE,
    EV_TURN,
    GAIN,
    RELOCATE,
)
from tests.contract import referees
from tests.contract.common import data_file
from tests.contract.games.time_barons import CORNER
from tests.contract.games.time_barons import REFEREE_CONFIGS as CONFIGS
from tests.games.time_barons.time_barons_referee import describe_row, load_card_set, replay


def kernel_traces(config: str) -> tuple:
    """(rules, fingerprint, [(label, trace), ...]) of a set-up of the sweep (the fingerprint
    of the card set the kernel read)."""
    games = referees.sweep("time-barons", config)
    return games.rules, int(games.prepared[1][-1, 1]), games.traces


def refereed(config: str) -> list:
    """The referee's final table of every game of a set-up."""
    return referees.refereed("time-barons", config)


def test_the_sweep_mixes_archetypes_and_first_turn_actions():
    mixed = [lineup for lineup, *_ in CONFIGS.values() if len(set(lineup)) > 1]
    assert len(mixed) >= 6
    firsts = {s for _, settings, *_ in CONFIGS.values() for s in settings if "first_turn" in s}
    assert firsts >= {"first_turn_actions=0", "first_turn_actions=1", "first_turn_actions=3"}


def test_sweep_reaches_the_corners_of_the_rules():
    """The sweep is only as good as the situations it meets: count them."""
    seen = Counter()
    for config in CONFIGS:
        for table in refereed(config):
            seen += table.seen
    ops = [
        "damage", "damage_each", "kill", "kill_everywhere", "destroy", "steal", "gain", "actions",
        "draw", "repair", "recover", "sacrifice", "discard", "relocate", "cancel",
    ]  # fmt: skip
    needed = [("op", op) for op in ops]
    needed += [("move", m) for m in ("draw", "gain", "relocate", "play", "upgrade", "ability")]
    needed += [("play", kind) for kind in ("site", "event", "attachment")]
    for trigger in ("relocate", "attack", "site", "upgrade"):
        needed += [("reaction", trigger), ("triggered ability", trigger)]
    needed += [("cancelled", what) for what in ("event", "ability", "attachment")]
    needed += [
        "once-per-turn ability", "infinite ability", "decay", "destroyed by counters",
        "destroyed with lowered integrity", "destroyed with attachments", "a Homeland destroyed",
        "damage with too few counters", "damage to a fortified site with followers",
        "a player ran out of followers during a turn",
        "a played card discarded after the game was decided", "a turn of 200 moves",
        ("end", 0, "won"), ("end", 1, "won"), ("end", 1, "draw"), ("end", 2, "draw"),
        "stacks: same followers, higher level wins", ("first player", 0), ("first player", 1),
        ("target named", "damage"), ("target named", "destroy"),
    ]  # fmt: skip
    missing = [key for key in needed if seen[key] == 0]
    assert not missing, f"the sweep never met {missing}"


def test_draws_are_uniform_over_the_stack():
    """Rulebook: each stack is shuffled. Every draw of the sample set's games (set-up, moves,
    effects) is a card chosen uniformly among those left in its stack (chi-square)."""
    observed = Counter()
    expected = Counter()
    for config, (_, settings, *_) in CONFIGS.items():
        if CORNER in settings:
            continue
        for table in refereed(config):
            for stack, card in table.draws:
                observed[card] += 1
                for option in stack:
                    expected[option] += 1 / len(stack)
    cards = sorted(expected)
    assert sum(observed.values()) > 20_000
    f_obs = np.array([observed[c] for c in cards], dtype=float)
    f_exp = np.array([expected[c] for c in cards])
    assert chisquare(f_obs, f_exp * f_obs.sum() / f_exp.sum()).pvalue > 1e-4


def test_random_discards_and_first_players_are_fair():
    """Docs: ``discard`` takes random cards from the opponent's hand (chi-square over the
    position of the card in the hand); ``first_player=random``: a fair coin."""
    observed = Counter()
    expected = Counter()
    firsts = []
    for config, (_, settings, *_) in CONFIGS.items():
        for table in refereed(config):
            for hand, card in table.random_discards:
                observed[hand.index(card)] += 1
                for position in range(len(hand)):
                    expected[position] += 1 / len(hand)
            if "first_player=random" in settings:
                firsts.append(table.first)
    assert sum(observed.values()) > 300
    positions = sorted(expected)
    f_obs = np.array([observed[p] for p in positions], dtype=float)
    f_exp = np.array([expected[p] for p in positions])
    assert chisquare(f_obs, f_exp).pvalue > 1e-4
    assert len(firsts) >= 200 and binomtest(sum(firsts), len(firsts)).pvalue > 1e-3


def test_the_referee_reads_the_card_file_itself():
    cards = load_card_set("")
    assert len(cards) == 52 and cards[64].integrity == cards[65].integrity == 6
    assert [c.level for c in cards.values()].count(1) == 16
    corner = load_card_set(data_file("time-barons", "corner"))
    assert corner[64].abilities[0].effects[1].op == "repair"


# --- the referee can fail -------------------------------------------------------------------


@cache
def a_game():
    """A default game between the archetypes long enough to hold every common kind of event."""
    config = "builder vs attacker, 1 first-turn action"
    rules, fingerprint, traces = kernel_traces(config)
    for label, trace in traces:
        events = set(trace[:, 0])
        if {EV_DAMAGE, EV_KILL, EV_RESPONSE, EV_PLACE} <= events and len(trace) > 300:
            moves = trace[trace[:, 0] == EV_MOVE]
            if {DRAW, GAIN, RELOCATE, ABILITY} <= set(moves[:, 2]):
                return rules, fingerprint, label, trace
    raise AssertionError("no suitable game")


def first(trace, event, condition=lambda i, row: True) -> int:
    return next(i for i, row in enumerate(trace) if row[0] == event and condition(i, row))


def assert_caught(trace, index, rules=None, fingerprint=None):
    if rules is None:
        rules, fingerprint, _, _ = a_game()
    with pytest.raises(AssertionError, match=rf"trace row {index}: expected") as caught:
        replay(trace, rules, "tampered", fingerprint)
    assert "the kernel wrote" in str(caught.value)
    return str(caught.value)


def test_tampered_damage_is_caught():
    _, _, _, trace = a_game()
    i = first(trace, EV_DAMAGE)
    for column in (3, 4, 5):  # damage, counters placed, followers killed
        tampered = trace.copy()
        tampered[i, column] += 1
        assert "damage(" in assert_caught(tampered, i)


def test_tampered_draw_is_caught():
    _, _, _, trace = a_game()
    cards = load_card_set("")
    level_four = next(c.id for c in cards.values() if c.level == 4)
    i = first(trace, EV_DRAW)  # a set-up draw of Level I
    tampered = trace.copy()
    tampered[i, 2] = level_four
    assert "a card of stack 1" in assert_caught(tampered, i)
    # the same card dealt twice
    tampered = trace.copy()
    tampered[i + 1, 2] = tampered[i, 2]
    assert_caught(tampered, i + 1)


def test_tampered_moves_are_caught():
    _, _, _, trace = a_game()
    # a draw from a stack above the player's level (everyone is at Level I on turn 0)
    i = first(trace, EV_MOVE, lambda i, row: row[2] == DRAW)
    tampered = trace.copy()
    tampered[i, 3] = 4
    assert "a draw from" in assert_caught(tampered, i)
    # a move that pays one action less, or leaves one more
    i = first(trace, EV_MOVE, lambda i, row: row[5] > 0)
    for column in (5, 6):  # paid, left
        tampered = trace.copy()
        tampered[i, column] += 1 if column == 6 else -1
        assert "move(" in assert_caught(tampered, i)
    # a gain onto the opponent's site
    i = first(trace, EV_MOVE, lambda i, row: row[2] == GAIN)
    tampered = trace.copy()
    tampered[i, 3] = 64 + 1 - trace[i, 1]
    assert "a site of seat" in assert_caught(tampered, i)
    # a move of the player who is not on turn
    i = first(trace, EV_MOVE)
    tampered = trace.copy()
    tampered[i, 1] = 1 - tampered[i, 1]
    assert "whose turn it is" in assert_caught(tampered, i)


def test_a_second_use_of_a_once_per_turn_ability_is_caught():
    """The rulebook's "ONLY ONCE PER TURN": repeat a free ability's move and consequences."""
    rules, fingerprint, traces = kernel_traces("builder mirror")
    cards = load_card_set("")
    for _, trace in traces:
        for i, row in enumerate(trace):
            if row[0] != EV_MOVE or row[2] != ABILITY or row[5] != 0:
                continue
            if cards[int(row[3])].abilities[int(row[4])].infinite:
                continue
            j = next(k for k in range(i + 1, len(trace)) if trace[k, 0] in (EV_MOVE, EV_END_TURN))
            tampered = np.vstack([trace[:j], trace[i:j], trace[j:]])
            message = assert_caught(tampered, j, rules, fingerprint)
            assert "once per turn" in message
            return
    raise AssertionError("no free once-per-turn ability in the sweep")


def test_tampered_responses_are_caught():
    _, _, _, trace = a_game()
    i = first(trace, EV_RESPONSE)
    # answered by the player on turn
    tampered = trace.copy()
    tampered[i, 1] = 1 - tampered[i, 1]
    assert "not on turn" in assert_caught(tampered, i)
    # with a card that is not in the responder's hand
    tampered = trace.copy()
    tampered[i, 2], tampered[i, 3], tampered[i, 4] = 1, 65, -1  # a Homeland
    assert_caught(tampered, i)
    # a response where none may come: right after a draw
    j = first(trace, EV_DRAW, lambda i, row: row[4] == 1)
    tampered = np.vstack([trace[: j + 1], trace[i : i + 1], trace[j + 1 :]])
    assert_caught(tampered, j + 1)


def test_tampered_choices_of_the_cards_owner_are_caught():
    _, _, _, trace = a_game()
    # a kill aimed at one of the killer's own sites
    i = first(trace, EV_KILL)
    victim = trace[i, 2]
    tampered = trace.copy()
    tampered[i, 1], tampered[i, 2] = 64 + 1 - victim, 1 - victim
    assert_caught(tampered, i)
    # a damage aimed at the wrong player's Homeland
    i = first(trace, EV_DAMAGE)
    tampered = trace.copy()
    tampered[i, 1] = 64 + 1 - trace[i, 2]
    assert_caught(tampered, i)


def test_tampered_turns_and_state_rows_are_caught():
    _, _, _, trace = a_game()
    # the first turn with the full 3 actions instead of first_turn_actions=1
    i = first(trace, EV_TURN)
    tampered = trace.copy()
    tampered[i, 3] = 3
    assert "turn(" in assert_caught(tampered, i)
    # the same seat twice in a row
    i = first(trace, EV_TURN, lambda i, row: row[2] == 1)
    tampered = trace.copy()
    tampered[i, 1] = 1 - tampered[i, 1]
    assert_caught(tampered, i)
    i = first(trace, EV_SNAPSHOT, lambda i, row: i > 100)
    for column in range(2, 7):  # level, followers, hand, sites, counters
        tampered = trace.copy()
        tampered[i, column] += 1
        assert "snapshot(" in assert_caught(tampered, i)
    i = first(trace, EV_TABLE, lambda i, row: i > 100)
    for column in range(1, 8):  # supply, pool, discard pile, stacks
        tampered = trace.copy()
        tampered[i, column] -= 1
        assert "table(" in assert_caught(tampered, i)


def test_tampered_setup_and_end_are_caught():
    _, _, _, trace = a_game()
    for column in (1, 2, 3, 4):  # first player, supply, pool, card-set fingerprint
        tampered = trace.copy()
        tampered[0, column] += 1
        assert "setup(" in assert_caught(tampered, 0)
    assert trace[0, 0] == EV_SETUP
    end = len(trace) - 1
    for column, value in ((1, 1 - trace[end, 1]), (2, trace[end, 2] + 1), (3, 1), (4, 2)):
        tampered = trace.copy()
        tampered[end, column] = value
        assert "end(" in assert_caught(tampered, end)
    rules, fingerprint, _, _ = a_game()
    with pytest.raises(AssertionError, match=rf"trace row {end}: .*end of trace"):
        replay(trace[:-1], rules, "cut", fingerprint)
    with pytest.raises(AssertionError, match=rf"trace row {end + 1}: expected nothing after"):
        replay(np.vstack([trace, trace[-1:]]), rules, "extra", fingerprint)


def test_describe_row_is_readable():
    names = {c.id: c.name for c in load_card_set("").values()}
    assert describe_row([EV_MOVE, 1, 4, 0, -1, 2, 1, 0], names) == (
        "move(seat=1, move=play, a=0, b=-1, paid=2, left=1)"
    )
    assert describe_row([5, 0, 0, 1, 1, 0, 0, 0], names) == (
        "effect(seat=0, source=0:Catapult, op=damage, n=1)"
    )
