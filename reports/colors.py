"""One colour per strategy, the same on every page of every report of a game.

A strategy's colour comes from its place in the game's strategy list in the registry, never from
a lineup, so ``bluffer`` is the same colour in a run, a study and a comparison of POWER. Seats
have their own colours (seat 0, who moves first, the darkest). The focal strategy (the one a
study varies) is drawn strong, the others lighter; grey is kept for "others" and references.
"""

from dataclasses import dataclass

from analyses.paired import strategy_name
from reports.toolkit import GREY
from simcore import registry
from simcore.registry import SpecError

# tab10 without its grey (kept for "others"), then the paler tab20 variants for games with more
# than nine strategies.
STRATEGY_PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22",
    "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2",
)  # fmt: skip
# Seats in order of play, darkest first: a ramp of one hue, so a seat is never mistaken for a
# strategy.
SEAT_PALETTE = ("#08203e", "#1f4e79", "#3d6f99", "#5f8fb4", "#85aecb", "#a9c8dc")


def strategy_order(game_id: str) -> list[str]:
    """The game's strategy names in registry order; empty for a game the registry does not know
    (a run written by another version, or a test's synthetic run)."""
    try:
        return [strategy.name for strategy in registry.make(game_id).strategies]
    except SpecError:
        return []


@dataclass(frozen=True)
class Palette:
    """Colours of one report: ``names`` in colour order (the registry's, then any other name in
    the order met), ``focal`` the strategy names to emphasise."""

    names: tuple[str, ...]
    focal: frozenset[str] = frozenset()

    @classmethod
    def for_game(cls, game_id: str, labels: list[str], focal: set[str] | None = None) -> "Palette":
        order = strategy_order(game_id)
        extra = [name for name in dict.fromkeys(map(strategy_name, labels)) if name not in order]
        return cls(tuple(order + extra), frozenset(focal or ()))

    def color(self, label: str) -> str:
        """The colour of a strategy label (``name`` or ``name:key=value,...``)."""
        name = strategy_name(label)
        if name not in self.names:
            return GREY
        return STRATEGY_PALETTE[self.names.index(name) % len(STRATEGY_PALETTE)]

    def is_focal(self, label: str) -> bool:
        return strategy_name(label) in self.focal

    def line(self, label: str) -> dict:
        """Line properties of a strategy: its colour, stronger when focal (or when there is no
        focal), lighter otherwise."""
        strong = not self.focal or self.is_focal(label)
        return {
            "color": self.color(label),
            "linewidth": 2.4 if strong and self.focal else 1.6,
            "alpha": 1.0 if strong else 0.55,
            "zorder": 3 if strong else 2,
        }


def seat_color(seat: int) -> str:
    return SEAT_PALETTE[seat % len(SEAT_PALETTE)]


def seat_line(seat: int) -> dict:
    """Line properties of a seat: seat 0 (the first player) emphasised."""
    return {
        "color": seat_color(seat),
        "linewidth": 2.4 if seat == 0 else 1.4,
        "alpha": 1.0 if seat == 0 else 0.8,
        "zorder": 3 if seat == 0 else 2,
    }
