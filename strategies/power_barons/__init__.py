"""Scripted Power Barons players: every decision a seat makes, dispatched on an integer id.

``baron`` follows the rulebook's strategy hints 1 (what to keep, what to bank) and 2 (which
opponent and which Power Base to challenge); ``flusher`` plays exactly like ``baron`` and adds
hint 3 (lose a challenge on purpose to flush a weak hand). Each decision reads the seat's row of
``prm`` (columns in ``PARAM_NAMES`` order) and only what that seat may know: its own hand, the
public banks, bases, hand sizes and cards on the table, and a hand it was shown (spy and steal).

The decisions live by kind: common.py (what every player shares), banking.py (the bank: banking
and buying), spaces.py (the board spaces) and challenge.py (the challenge). This module holds the
strategies' table (``STRATEGIES``, ``PARAM_NAMES``) and ``decide``, which answers any decision of
the protocol, and offers each decision function the scripted games
(simcore/games/power_barons/scripted.py) call.
"""

import numpy as np
from numba import njit

from simcore.games.power_barons.state import (
    D_BANK,
    D_CHALLENGE,
    D_FOLLOW,
    D_GIVE,
    D_LEAD,
    D_PI,
    D_REMOVE,
    D_STEAL,
    D_SURRENDER,
    D_TAKE,
    MAX_PLAYERS,
    MOVE_CALL_OUT,
    MOVE_STOP,
    N_TERRITORIES,
    N_TYPES,
    P_ASKED,
    P_DECISION,
    P_LEAD_COLOUR,
    P_SPACE,
    P_VICTIM,
    PLAYERS,
    TAKE_POWER,
)
from simcore.registry import Param, Strategy
from strategies.power_barons.banking import choose_bank_card, choose_purchase
from strategies.power_barons.challenge import (
    choose_challenge,
    choose_follow,
    choose_lead,
    choose_pi_card,
    wants_to_surrender,
)
from strategies.power_barons.common import (
    BANKINGS,
    BARON,
    DECLARES,
    FLUSHER,
    GIVE_AWAYS,
    PARAM_NAMES,
    PI_USES,
    RANDOM,
    TARGETINGS,
)
from strategies.power_barons.spaces import (
    choose_colour_to_ask,
    choose_give,
    choose_removal,
    choose_steal,
    choose_victim,
)

# What the kernel (simcore/games/power_barons/: the scripted games, the search, the registry
# entry) uses of the strategies.
__all__ = ["PARAM_NAMES", "STRATEGIES", "decide", "choose_bank_card", "choose_purchase"]
__all__ += ["choose_victim", "choose_colour_to_ask", "choose_give", "choose_steal"]
__all__ += ["choose_removal", "choose_challenge", "choose_lead", "choose_follow"]
__all__ += ["wants_to_surrender", "choose_pi_card"]

BARON_PARAMS = (
    Param(
        "targeting",
        "choice",
        "leader",
        "whom it challenges, among the opponents in whose territory it still needs a base: "
        "leader (furthest ahead), poorest (smallest bank), needed (where it needs the most "
        "bases), or rechallenge (leader, but once it has late_bases bases on the board it "
        "challenges for a base it already has there, in its strongest colour, for the credits)",
        choices=TARGETINGS,
    ),
    Param(
        "declare",
        "choice",
        "strongest",
        "the Power Base type it declares among those it still needs there: strongest (the colour "
        "of its highest card) or random",
        choices=DECLARES,
    ),
    Param(
        "late_bases",
        "int",
        6,
        "bases of its own on the board from which the game is late for it (banking="
        "highest_late, targeting=rechallenge)",
        0,
        12,
    ),
    Param(
        "banking",
        "choice",
        "keep_best",
        "which card it banks from a hand over size: keep_best (the card that adds least to its "
        "expected challenge total: a Power Card that is not its colour's best, the lowest "
        "first), lowest (its lowest card), decoys (a literal hint 1: keeps its best card and a "
        "low decoy per colour and two PI cards, banks the highest other card), or highest_late "
        "(keep_best, then its highest card once it has late_bases bases on the board)",
        choices=BANKINGS,
    ),
    Param(
        "surrender_margin",
        "float",
        0.0,
        "credits added to what it expects to catch up before it surrenders a Power Card round "
        "(0: surrender when behind by more than it expects to catch up; higher: more stubborn)",
        -500.0,
        500.0,
    ),
    Param(
        "pi_use",
        "choice",
        "smallest",
        "Political Influence in the PI round: smallest (the smallest card that takes the lead, "
        "else its largest), largest (its largest first), or never (it surrenders instead, and "
        "does not count its PI cards when deciding to surrender earlier)",
        choices=PI_USES,
    ),
    Param(
        "give_away",
        "choice",
        "lowest",
        "the card of the asked colour it gives on TAKE A POWER CARD / TAKE POLITICAL INFLUENCE: "
        "lowest (hint 1's decoy), highest, or random",
        choices=GIVE_AWAYS,
    ),
)

STRATEGIES = (
    Strategy(
        "random",
        RANDOM,
        "uniform over legal choices: banks, asks, steals, removes, challenges, leads and buys at "
        "random; surrenders at each option and declines to play on with probability 1/2",
    ),
    Strategy(
        "baron",
        BARON,
        "the rulebook's strategy hints 1 and 2: banks the card that adds least to its challenges "
        "(banking), challenges the opponent furthest ahead for a Power Base it needs "
        "(targeting), declaring its strongest colour (declare), leads and follows with its "
        "highest cards, surrenders when behind by more than it expects to catch up; never loses "
        "on purpose",
        BARON_PARAMS,
    ),
    Strategy(
        "flusher",
        FLUSHER,
        "baron plus hint 3: when its hand is worth less than flush_below times an average hand "
        "of the cards it cannot see, it challenges the opponent with the smallest bank, leads its "
        "lowest cards and surrenders before it could get ahead (flushing them), then draws new "
        "cards",
        (
            Param(
                "flush_below",
                "float",
                1.0,
                "flush when the hand's face value is below this share of an average hand of the "
                "same size drawn from the cards it cannot see (0: never)",
                0.0,
                2.0,
            ),
            Param(
                "p_flush",
                "float",
                1.0,
                "chance to flush when the hand qualifies (drawn at every challenge)",
                0.0,
                1.0,
            ),
            *BARON_PARAMS,
        ),
    ),
)


# --- the decision-point protocol (docs/protocol.md) ----------------------------------------------


@njit(cache=True, _nrt=False, forceinline=False)
def decide(sid, prm, me, st, rules, rng):
    """The option strategy ``sid`` takes at the decision pending in ``st`` (``me`` decides): the
    answer of the decision function above, as the protocol's move code (docs/games/
    power-barons.md, "Decision points")."""
    kind = st[P_DECISION]
    players = st[PLAYERS]
    if kind == D_BANK:  # the most frequent first
        return choose_bank_card(sid, prm, me, st, rules, rng)
    if kind == D_SURRENDER:
        return np.int64(wants_to_surrender(sid, prm, me, st, rules, rng))
    if kind == D_LEAD:
        card_colour, card = choose_lead(sid, me, st, rules, rng)
        return card if card >= 0 else MOVE_CALL_OUT + card_colour
    if kind == D_FOLLOW:
        return choose_follow(sid, me, st[P_LEAD_COLOUR], st, rng)
    if kind == D_PI:
        card = choose_pi_card(sid, prm, me, st, rng)
        return card if card >= 0 else MOVE_STOP
    if kind == D_CHALLENGE:
        defender, declared, flush = choose_challenge(sid, prm, me, players, st, rng)
        return defender + MAX_PLAYERS * (declared + N_TYPES * flush)
    if kind == D_TAKE:
        victim = choose_victim(sid, me, players, st, rng)
        asked = choose_colour_to_ask(sid, me, st, rng) if st[P_SPACE] == TAKE_POWER else 0
        return victim + MAX_PLAYERS * asked
    if kind == D_GIVE:
        return choose_give(sid, prm, me, st[P_ASKED], st, rng)
    if kind == D_STEAL:
        return choose_steal(sid, me, st[P_VICTIM], st, rng)
    if kind == D_REMOVE:
        owner, territory, base_type = choose_removal(sid, me, players, st, rng)
        return N_TYPES * (N_TERRITORIES * owner + territory) + base_type
    territory, base_type = choose_purchase(sid, me, players, st, rng)
    return N_TYPES * territory + base_type
