"""POWER: The Game: no seat, node or army is favoured by an index (issue 15).

The planners break every tie from the game's random stream, so results cannot depend on how the
board file happens to list its nodes, and on the shipped board, which is the same seen from every
country (a quarter turn maps Yellow to Blue, NI to EI, S1 to S5, ...), no seat of a mirror has an
edge but what the rules give it:

* relabelling: the shipped board with its nodes listed in reverse and in a random order (written
  as board files, passed through the ``board`` rule parameter) gives the same seat and strategy
  win rates within their 95% intervals (tests/fair_play.py ``rate_differences``, Bonferroni over
  the comparisons);
* rotation: the shipped board is mapped onto itself by a quarter turn, and in a mirror every
  seat's win rate is within its 95% interval of the fair share.
"""

from __future__ import annotations

import json
import random
import tomllib

import pytest
from scipy.stats import norm

from simcore.games.power_the_game.components import SHIPPED_BOARD
from tests.fair_play import play, rate_differences, seat_and_strategy_rates

GAME_ID = "power-the-game"
GAMES = 4000
MIXED = ["opening", "raider", "turtle", "blitz"]
# Where a quarter turn takes each sea lane. The two lanes by each Headquarters are numbered
# clockwise except Yellow's (S1 touches North Island, S2 West Island; by Blue's, S4 touches North
# Island, S5 East Island), so S1 goes to S5 and S2 to S4.
LANES = {1: 5, 2: 4, 3: 6, 4: 7, 5: 8, 6: 9, 7: 10, 8: 11, 9: 12, 10: 2, 11: 1, 12: 3}
ROTATION = {"Y": "B", "B": "R", "R": "G", "G": "Y", "NI": "EI", "EI": "SI", "SI": "WI", "WI": "NI"}


def shipped_nodes() -> dict[str, dict]:
    return tomllib.loads(SHIPPED_BOARD.read_text())["nodes"]


def write_board(path, nodes: dict[str, dict], order: list[str], rng: random.Random):
    """A board file listing ``nodes`` in ``order``, each node's neighbours shuffled too."""
    lines = ["[nodes]"]
    for name in order:
        node = dict(nodes[name])
        adjacent = list(node.pop("adjacent"))
        rng.shuffle(adjacent)
        fields = [f"{key} = {json.dumps(value)}" for key, value in node.items()]
        fields.append(f"adjacent = {json.dumps(adjacent)}")
        lines.append(f"{name} = {{ {', '.join(fields)} }}")
    path.write_text("\n".join(lines) + "\n")
    return path


def rotated(name: str) -> str:
    """The node a quarter turn clockwise puts where ``name`` is (Y3 -> B3, S1 -> S5, XI -> XI)."""
    if name in ROTATION:
        return ROTATION[name]
    if name[0] == "S":
        return f"S{LANES[int(name[1:])]}"
    if name[0] in ROTATION:
        return ROTATION[name[0]] + name[1:]
    return name


def test_the_shipped_board_is_the_same_from_every_country():
    nodes = shipped_nodes()
    for name, node in nodes.items():
        turned = nodes[rotated(name)]
        assert {k: v for k, v in node.items() if k not in ("adjacent", "country")} == {
            k: v for k, v in turned.items() if k not in ("adjacent", "country")
        }
        assert sorted(rotated(n) for n in node["adjacent"]) == sorted(turned["adjacent"]), name


@pytest.mark.slow
@pytest.mark.parametrize(("players", "lineup"), [(4, MIXED), (3, MIXED[1:]), (2, ["balanced"])])
def test_win_rates_do_not_depend_on_the_order_the_board_lists_its_nodes(tmp_path, players, lineup):
    nodes = shipped_nodes()
    rng = random.Random(15)
    shuffled = list(nodes)
    rng.shuffle(shuffled)
    original = seat_and_strategy_rates(play(GAME_ID, players, lineup, GAMES), players)
    for label, order in (("reversed", list(reversed(nodes))), ("shuffled", shuffled)):
        board = write_board(tmp_path / f"{label}.toml", nodes, order, rng)
        games = play(GAME_ID, players, lineup, GAMES, [f"board={board}"])
        found = rate_differences(original, seat_and_strategy_rates(games, players))
        assert not found, f"{players} players, nodes {label}: " + "; ".join(found)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["balanced", "blitz"])
def test_no_seat_of_a_mirror_has_an_edge_on_a_board_the_same_from_every_seat(name):
    players = 4
    rates = seat_and_strategy_rates(play(GAME_ID, players, [name] * players, GAMES), players)
    z = norm.ppf(1 - 0.05 / (2 * players))  # Bonferroni over the seats
    fair = 1 / players
    off = []
    for seat in range(players):
        wins, n = rates[f"seat {seat}"]
        if abs(wins / n - fair) > z * (fair * (1 - fair) / n) ** 0.5:
            off.append(f"seat {seat}: {100 * wins / n:.1f}%")
    assert not off, f"{name} x{players}: " + "; ".join(off)
