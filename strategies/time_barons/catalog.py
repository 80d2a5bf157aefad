"""The Time Barons strategies' ids, parameters (the archetypes' weights) and defaults."""

from simcore.registry import Param, Strategy

RANDOM, TECH_RUSH, SWARM, ATTACKER, BUILDER = range(5)

PARAM_NAMES = ("w_upgrade", "w_follower", "w_attack", "w_site", "w_draw", "hand_size", "w_relocate")
W_UPGRADE, W_FOLLOWER, W_ATTACK, W_SITE, W_DRAW, HAND_SIZE, W_RELOCATE = range(7)


def _weights(upgrade, follower, attack, site, draw, hand, relocate) -> tuple[Param, ...]:
    def weight(name, default, doc):
        return Param(name, "float", default, doc, 0.0, 100.0)

    return (
        weight(
            "w_upgrade",
            upgrade,
            "worth of each card of the next level's stack an upgrade lets it draw, over the card "
            "it would draw otherwise",
        ),
        weight("w_follower", follower, "value of a follower gained (per follower)"),
        weight("w_attack", attack, "value of harm done: per damage, kill, or cancelled attack"),
        weight("w_site", site, "value of playing a site (x2) and of a helpful attachment"),
        weight("w_draw", draw, "value of a card drawn while the hand is below hand_size"),
        Param(
            "hand_size", "int", hand, "cards it wants in hand (draws are worth less beyond)", 0, 30
        ),
        weight("w_relocate", relocate, "value of a relocation, per unit of the ability it enables"),
    )


STRATEGIES = (
    Strategy(
        "random",
        RANDOM,
        "uniform over the legal moves (ending the turn included) and over every choice; answers "
        "a trigger with probability 1/2",
    ),
    Strategy(
        "tech_rush",
        TECH_RUSH,
        "upgrades whenever it can afford to, then draws and plays what it holds",
        _weights(0.9, 0.6, 1.0, 1.0, 1.2, 4, 0.5),
    ),
    Strategy(
        "swarm",
        SWARM,
        "gains followers above all (while the supply lasts), rarely upgrades, plays and staffs "
        "sites once followers cost more than they yield",
        _weights(0.15, 2.0, 1.0, 1.0, 0.8, 2, 1.5),
    ),
    Strategy(
        "attacker",
        ATTACKER,
        "keeps a full hand and spends it on damage, kills and destruction",
        _weights(0.18, 0.8, 3.0, 0.8, 1.5, 5, 0.5),
    ),
    Strategy(
        "builder",
        BUILDER,
        "plays sites that pay over the turns left, relocates followers to staff their "
        "abilities, and upgrades while the next stack holds many cards it can still draw",
        _weights(0.6, 1.0, 1.0, 1.0, 1.5, 4, 1.0),
    ),
)
