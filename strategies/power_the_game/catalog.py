"""POWER: The Game's scripted strategies as the registry lists them: the ids the kernels dispatch
on, the parameter columns (``PARAM_NAMES`` order) and each archetype's defaults."""

from simcore.registry import (
    Param,
    Strategy,
)

RANDOM, OPENING, RAIDER, TURTLE, BLITZ, BALANCED, MISSILE_BUILDER = range(7)

PARAM_NAMES = (
    "raiders",
    "guard",
    "home",
    "attack_margin",
    "advance",
    "buy",
    "upgrade",
    "missile",
    "blockade",
    "opening",
    "p_move",
)
RAIDERS, GUARD, HOME, ATTACK_MARGIN, ADVANCE, BUY_KIND, UPGRADES, MISSILES = range(8)
BLOCKADES, OPENING_MOVES, P_MOVE = range(8, 11)

RANDOM_P_MOVE = 0.8  # the random strategy's default (the kernel's ``hide_pads`` uses it)
BUYS = ("infantry", "tank", "fighter", "destroyer")  # choice index = the piece kind bought


def _params(raiders, guard, home, margin, advance, buy, upgrade, missile, blockade, opening):
    return (
        Param("raiders", "int", raiders, "planes sent into enemy countries each round", 0, 10),
        Param(
            "guard",
            "float",
            guard,
            "keep in Headquarters this many times the enemy power that can reach it this round",
            0.0,
            10.0,
        ),
        Param(
            "home",
            "float",
            home,
            "and at least this share of the army's strength (its pieces' power value)",
            0.0,
            1.0,
        ),
        Param(
            "attack_margin",
            "float",
            margin,
            "attack a Headquarters when the power that can reach it is this many times its defence",
            1.0,
            10.0,
        ),
        Param(
            "advance",
            "int",
            advance,
            "pieces (ships excepted) massed towards the target Headquarters each round",
            0,
            10,
        ),
        Param("buy", "choice", buy, "Group I piece bought with Power Units", choices=BUYS),
        Param("upgrade", "bool", upgrade, "exchange three like Group I pieces for a Group II"),
        Param(
            "missile", "bool", missile, "build Mega-Missiles as soon as affordable and launch them"
        ),
        Param("blockade", "bool", blockade, "park a stronger piece in a weak enemy Headquarters"),
        Param("opening", "bool", opening, "play the rulebook's opening in rounds 1 and 2"),
    )


STRATEGIES = (
    Strategy(
        "random",
        RANDOM,
        "legal-looking random commands: moves within range, exchanges, buys, missiles",
        (Param("p_move", "float", RANDOM_P_MOVE, "chance that a command is a move", 0.0, 1.0),),
    ),
    Strategy(
        "opening",
        OPENING,
        "the rulebook's opening (two Fighters raid two countries, buy an Infantry, make a "
        "Regiment), then balanced",
        _params(2, 1.0, 0.25, 1.1, 4, "infantry", True, False, False, True),
    ),
    Strategy(
        "raider",
        RAIDER,
        "Fighters raid enemy countries every round for Power Units, which buy more Fighters",
        _params(6, 0.5, 0.1, 1.1, 2, "fighter", True, False, False, False),
    ),
    Strategy(
        "turtle",
        TURTLE,
        "keeps half its power and twice the threat in Headquarters, blockades the target "
        "Headquarters, storms only at twice its defence",
        _params(1, 2.0, 0.5, 2.0, 2, "destroyer", True, False, True, False),
    ),
    Strategy(
        "blitz",
        BLITZ,
        "no guard: Infantry and Tanks march to the enemy's kill squares and storm the Flag",
        _params(1, 0.0, 0.0, 1.0, 8, "infantry", True, False, False, False),
    ),
    Strategy(
        "balanced",
        BALANCED,
        "some raiding, some advancing, a Headquarters guarded against the threat",
        _params(2, 1.0, 0.25, 1.1, 4, "infantry", True, False, False, False),
    ),
    Strategy(
        "missile",
        MISSILE_BUILDER,
        "hoards half its power in Headquarters for a Mega-Missile, strikes the strongest "
        "Headquarters and walks an Infantry in",
        _params(2, 1.0, 0.5, 1.1, 3, "infantry", True, True, False, False),
    ),
)
assert all(p.name in PARAM_NAMES for s in STRATEGIES for p in s.params)
