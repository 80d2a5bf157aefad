"""Power Barons' scripted games: the straight-line turn, which asks the strategies
(strategies/power_barons/) straight from a turn's code.

It calls the same rule helpers (simcore/games/power_barons/actions.py) as the decision-point
protocol's steps (simcore/games/power_barons/rules.py), in the order the steps take them;
tests/contract/test_protocol.py plays the game's protocol set-ups both ways and finds identical
games. Every function takes the game as (st, rules, sids, prm, rng, trace): the state,
the prepared rules, each seat's strategy id and parameter row, the game's random stream, the
trace buffer.
"""

import numpy as np
from numba import njit

from simcore.games.power_barons.actions import (
    any_opponent_base,
    bank_chosen,
    buy_base,
    can_follow,
    check_asked,
    check_taken,
    check_victim,
    draw_to_size,
    end_round,
    first_to_surrender,
    follow,
    game_ends,
    invest_owner,
    invest_pays,
    is_limited,
    lead,
    limited_loser,
    may_buy,
    may_play_pi,
    must_surrender,
    open_challenge,
    open_influence,
    over_size,
    play_pi,
    remove_base,
    resolve,
    roll,
    set_up,
    surrender_options,
    surrenders,
    take_card,
    takes_something,
    turn_begins,
    turn_ends,
    wins,
)
from simcore.games.power_barons.state import (
    CH_ATTACKER,
    CH_DEFENDER,
    CH_ROUND,
    INVESTMENTS,
    N_TYPES,
    P_PI_PLAYED,
    PAWN,
    PI,
    R_CHALLENGE_ROUNDS,
    R_MAX_TURNS,
    REMOVE,
    SPACE_TERRITORY,
    SPY,
    TAKE_PI,
    TAKE_POWER,
    behind_by,
    has_won,
)
from simcore.kernel.intrinsics import inline_njit
from strategies import power_barons as strategy


@njit(cache=True, _nrt=False, forceinline=False)
def restore(seat, st, rules, sids, prm, rng, trace):
    """Back to hand_size: bank (the owner's choice) while over it, draw while under it and a card
    is left."""
    while over_size(seat, st, rules):
        bank_chosen(seat, strategy.choose_bank_card(sids[seat], prm, seat, st, rules, rng), st,
                    trace)  # fmt: skip
    draw_to_size(seat, st, rules, rng, trace)


@inline_njit()
def buy(seat, players, st, rules, sids, prm, rng, trace):
    """Step 4: while base_cost credits are banked the player must buy a Power Base, up to
    bases_bought_per_turn and until one completes its win; the count it bought."""
    bought = 0
    while may_buy(seat, players, bought, st, rules) and not has_won(st, players, seat):
        territory, base_type = strategy.choose_purchase(sids[seat], seat, players, st, rng)
        buy_base(seat, players, territory, base_type, st, rules, rng, trace)
        bought += 1
    return bought


@njit(cache=True, _nrt=False, forceinline=False)
def investments(territory, players, st, rules, sids, prm, rng, trace):
    """INVESTMENTS PAY OFF: the territory's owner draws 1, then every player with bases there
    (clockwise from the owner) draws 1 per base; each banks back down to hand_size."""
    owner = invest_owner(territory, players, st, trace)
    if owner < 0:
        return
    for k in range(players):
        seat = (owner + k) % players
        if invest_pays(seat, owner, territory, st, rng, trace) > 0:
            restore(seat, st, rules, sids, prm, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def take(seat, kind, players, st, rules, sids, prm, rng, trace):
    """TAKE A POWER CARD (the victim picks which card of the asked colour), TAKE POLITICAL
    INFLUENCE (the victim picks which), SPY AND STEAL (the taker picks from the shown hand)."""
    victim = strategy.choose_victim(sids[seat], seat, players, st, rng)
    check_victim(seat, victim, players)
    asked = -1
    if kind == TAKE_POWER:
        asked = strategy.choose_colour_to_ask(sids[seat], seat, st, rng)
        check_asked(asked)
    elif kind == TAKE_PI:
        asked = PI
    card = -1
    if takes_something(victim, asked, kind, st):
        if kind == SPY:
            card = strategy.choose_steal(sids[seat], seat, victim, st, rng)
        else:
            card = strategy.choose_give(sids[victim], prm, victim, asked, st, rng)
        check_taken(victim, asked, kind, card, st)
    take_card(seat, victim, asked, card, kind, st, trace)
    if card >= 0:
        restore(seat, st, rules, sids, prm, rng, trace)
        restore(victim, st, rules, sids, prm, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def remove(seat, players, st, sids, rng, trace):
    """REMOVE A POWER BASE: an opponent's base of the player's choice goes back to its owner."""
    if any_opponent_base(seat, players, st, trace):
        owner, territory, base_type = strategy.choose_removal(sids[seat], seat, players, st, rng)
        remove_base(seat, owner, territory, base_type, players, st, trace)


@inline_njit()
def surrender_option(rnd, st, rules, sids, prm, rng, trace):
    """After a round: the lower total may surrender, then (surrender lower_then_higher) the
    higher (ties: attacker first). Returns the seat that surrendered, or -1."""
    first = first_to_surrender(st)
    for k in range(surrender_options(rules)):
        seat = first if k == 0 else st[CH_ATTACKER] + st[CH_DEFENDER] - first
        if strategy.wants_to_surrender(sids[seat], prm, seat, st, rules, rng):
            surrenders(seat, rnd, 0, st, trace)
            return seat
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def influence_round(st, rules, sids, prm, rng, trace):
    """The Political Influence round of a full challenge: the player who is not winning either
    surrenders or plays "one or more" PI cards, at least until it is winning and then as many
    more as it likes (up to pi_cards_per_turn); then the other does the same; a player whose PI
    cards (its pi_cards_per_turn best) cannot put it ahead must surrender, and under surrender
    none nobody else may. Returns the loser."""
    side = open_influence(st)
    options = surrender_options(rules)
    while True:
        seat = st[CH_ATTACKER + side]
        forced = must_surrender(side, st)
        if forced or (
            options > 0 and strategy.wants_to_surrender(sids[seat], prm, seat, st, rules, rng)
        ):
            surrenders(seat, N_TYPES, forced, st, trace)
            return seat
        st[P_PI_PLAYED] = 0  # the protocol's counter: the strategies read it
        while may_play_pi(st, seat, st[P_PI_PLAYED]):
            card = strategy.choose_pi_card(sids[seat], prm, seat, st, rng)
            if card < 0 and behind_by(st, side) <= 0:
                break  # winning, it plays no more
            play_pi(seat, side, card, st[P_PI_PLAYED], st, rules, trace)
            st[P_PI_PLAYED] += 1
        side = 1 - side
    return -1  # not reached


@inline_njit()
def challenge(attacker, players, limited, st, rules, sids, prm, rng, trace):
    """Step 3, the compulsory challenge. Returns 1 if the attacker placed a Power Base."""
    defender, declared, flush = strategy.choose_challenge(
        sids[attacker], prm, attacker, players, st, rng
    )
    hand_before = open_challenge(attacker, defender, declared, limited, flush, players, st, trace)
    loser = -1
    for rnd in range(np.int64(rules[R_CHALLENGE_ROUNDS])):
        st[CH_ROUND] = rnd
        lead_colour, lead_card = strategy.choose_lead(sids[attacker], attacker, st, rules, rng)
        lead(attacker, lead_colour, lead_card, st, rules, trace)
        follow_card = -1
        if can_follow(defender, lead_colour, st):
            follow_card = strategy.choose_follow(sids[defender], defender, lead_colour, st, rng)
            follow(defender, lead_colour, follow_card, st, rules, trace)
        if end_round(rnd, lead_colour, lead_card, follow_card, st, rules, trace):
            loser = surrender_option(rnd, st, rules, sids, prm, rng, trace)
            if loser >= 0:
                break
    if loser < 0:
        if limited == 1:
            loser = limited_loser(st)
        else:
            loser = influence_round(st, rules, sids, prm, rng, trace)
    return resolve(attacker + defender - loser, loser, players, hand_before, st, rules, rng, trace)


@njit(cache=True, _nrt=False, forceinline=False)
def take_turn(seat, players, st, rules, sids, prm, rng, trace):
    """The four steps of a turn; returns ``seat`` if it won, else -1."""
    # 1. Draw a card, bank a card.
    turn_begins(seat, st, rules, rng, trace)
    restore(seat, st, rules, sids, prm, rng, trace)
    # 2. Roll, move clockwise, follow the directions.
    kind = roll(seat, st, rules, rng, trace)
    if kind == INVESTMENTS:
        territory = st[SPACE_TERRITORY + st[PAWN + seat]]
        investments(territory, players, st, rules, sids, prm, rng, trace)
    elif kind == TAKE_POWER or kind == TAKE_PI or kind == SPY:
        take(seat, kind, players, st, rules, sids, prm, rng, trace)
    elif kind == REMOVE:
        remove(seat, players, st, sids, rng, trace)
    # 3. Challenge; 4. buy a Power Base. A placed base may complete the win.
    limited = is_limited(kind, rules)
    if challenge(seat, players, limited, st, rules, sids, prm, rng, trace) and has_won(
        st, players, seat
    ):
        wins(seat, st, trace)
        return seat
    if buy(seat, players, st, rules, sids, prm, rng, trace) > 0 and has_won(st, players, seat):
        wins(seat, st, trace)
        return seat
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def play_game(players, st, rules, sids, prm, rng, trace):
    """Set up and play one game to a win or the turn cap: (winner or -1, turns, truncated)."""
    set_up(players, st, rules, rng, trace)
    winner = -1
    # int64, not the literal 0: a literal argument makes numba compile take_turn (and all it
    # calls with the seat) a second time, for seat 0 alone.
    turns = np.int64(0)
    seat = np.int64(0)
    max_turns = np.int64(rules[R_MAX_TURNS])
    while winner < 0 and turns < max_turns:
        winner = take_turn(seat, players, st, rules, sids, prm, rng, trace)
        turns += 1
        turn_ends(players, turns, st, trace)
        seat = (seat + 1) % players
    game_ends(players, winner, turns, st, trace)
    return winner, turns, winner < 0
