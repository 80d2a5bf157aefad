"""Power Barons' own fair-play tests (the generic ones are in tests/contract/test_fair_play.py).

- Relabelling: colours, card ids and board positions carry no meaning. The same deck with its
  Power Card colours rotated, each colour's cards listed in another order (new card ids) and
  the board listed from another starting space plays the same game up to names, so every seat's
  and every strategy's win rate must stay within its confidence interval.
- Banking: ``baron``'s default banking (keep_best, derived from what each card adds to its
  challenges) beats every other banking option head to head, so that no study answer rests on a
  default that a fixed rule would beat.
"""

from __future__ import annotations

import random

import pytest

from analyses.stats import wilson_interval
from simcore.games.power_barons.components import _components_text
from tests.fair_play import play, rate_differences, seat_and_strategy_rates

# Colours that differ, so that a rotation of the colours is a real relabelling.
DECK = {
    "transportation": [5, 10, 15, 20, 20, 25, 25, 25, 30, 30, 30, 35, 35, 40, 45, 50],
    "communications": [5, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 50],
    "finance": [10, 15, 20, 25, 25, 30, 30, 30, 30, 35, 35, 40, 40, 45],
    "energy": [5, 10, 20, 20, 20, 25, 30, 35, 35, 45, 50, 50, 50, 50, 15, 40, 30, 25],
    "political_influence": [20, 20, 30, 30, 30, 40, 50, 50],
}
COLOURS = ["transportation", "communications", "finance", "energy"]


def components(deck: dict, spaces: list[str]) -> str:
    lines = ["[deck]"] + [f"{key} = {values}" for key, values in deck.items()]
    return "\n".join(lines + ["[board]", f"spaces = {spaces!r}".replace("'", '"'), ""])


def shipped_board() -> list[str]:
    import tomllib

    text = _components_text("")[1]
    return tomllib.loads(text)["board"]["spaces"]


def relabelled(deck: dict, spaces: list[str], seed: int) -> tuple[dict, list[str]]:
    """Colours rotated by one, each list shuffled (other card ids), the board started 8 spaces
    later."""
    shuffle = random.Random(seed).shuffle
    rotated = {COLOURS[(k + 1) % 4]: list(deck[COLOURS[k]]) for k in range(4)}
    rotated["political_influence"] = list(deck["political_influence"])
    for values in rotated.values():
        shuffle(values)
    return rotated, spaces[8:] + spaces[:8]


LINEUPS = {
    3: ["baron", "flusher", "random"],
    4: ["baron", "flusher", "random", "baron:banking=lowest"],
}


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_relabelled_colours_cards_and_board_play_the_same_game(players, tmp_path):
    board = shipped_board()
    original = tmp_path / "original.toml"
    original.write_text(components(DECK, board))
    deck, spaces = relabelled(DECK, board, players)
    other = tmp_path / "relabelled.toml"
    other.write_text(components(deck, spaces))
    rates = [
        seat_and_strategy_rates(
            play("power-barons", players, LINEUPS[players], 20_000, [f"components={path}"]),
            players,
        )
        for path in (original, other)
    ]
    assert not rate_differences(*rates)


BANKINGS = ["lowest", "decoys", "highest_late"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("banking", BANKINGS)
def test_keep_best_banking_beats_every_other_banking_head_to_head(players, banking):
    other = f"baron:banking={banking}"
    lineup = ["baron", other, "baron", other][:players]
    rates = seat_and_strategy_rates(play("power-barons", players, lineup, 4000), players)
    keep_best, theirs = rates["baron"], rates[other]
    assert wilson_interval(*keep_best)[0] > wilson_interval(*theirs)[1], (keep_best, theirs)
