"""Power Barons (../shared/rules/power-barons.md): the rules as a numba kernel over one state array.

The deck and the board are not in the rulebook: they come from a components file (TOML; the
shipped one is simcore/data/power_barons_default.toml, a designer's own is the rule parameter
``components``). Every choice the rulebook leaves open is a rule parameter below or a documented
convention in docs/games/power-barons.md. Decisions come from ``strategies/power_barons.py``;
this module only applies rules.
"""

import tomllib
from importlib import resources

import numpy as np
from numba import njit

from simcore.games.power_barons import search as power_barons_search
from simcore.games.power_barons.rules import (  # noqa: F401  (tests reach the rules from here too)
    BANK_AT_END,
    BASES_AT_END,
    BASES_BOUGHT,
    BASES_LOST,
    BASES_REMOVED,
    BASES_WON,
    CHALLENGES_LOST,
    CHALLENGES_MADE,
    CHALLENGES_WON,
    CREDITS_BANKED,
    FLUSH_ATTEMPTS,
    FLUSH_CREDITS_GIVEN,
    FLUSH_HAND_AFTER,
    FLUSH_HAND_BEFORE,
    FLUSHES,
    any_opponent_base,
    apply,
    bank_chosen,
    behind_by,
    buy_base,
    can_follow,
    check_asked,
    check_lead,
    check_taken,
    check_victim,
    determinize,
    draw_card,
    draw_to_size,
    end_round,
    first_to_surrender,
    follow,
    game_ends,
    invest_owner,
    invest_pays,
    is_over,
    lead,
    legal,
    limited_loser,
    may_buy,
    must_surrender,
    new_game,
    open_challenge,
    open_influence,
    over_size,
    pay,
    play_card,
    play_pi,
    record_standing,
    remove_base,
    resolve,
    returns,
    roll,
    set_up,
    stat,
    surrenders,
    take_card,
    takes_something,
    to_move,
    turn_begins,
    turn_ends,
    wins,
)
from simcore.games.power_barons.state import (  # noqa: F401
    BANK,
    CH_ATTACKER,
    CH_DEFENDER,
    CH_ROUND,
    COLOURS,
    DISCARD,
    DRAWPILE,
    EV_STANDING,
    EVENT_NAMES,
    HAND,
    INVESTMENTS,
    LIMITED,
    MAX_BASE_COST,
    MAX_CARD_VALUE,
    MAX_CARDS,
    MAX_HAND_SIZE,
    MAX_MOVES,
    MAX_PLAYERS,
    MAX_SPACES,
    MOVE_REASONS,
    N_GAME_STATS,
    N_RULES,
    N_SEAT_STATS,
    N_TERRITORIES,
    N_TYPES,
    P_DECISIONS,
    P_N_CARDS,
    P_N_SPACES,
    P_TRUNCATED,
    P_TURN,
    P_WINNER,
    PAWN,
    PI,
    PLAYED,
    R_MAX_TURNS,
    REMOVE,
    RESHUFFLES,
    SPACE_TERRITORY,
    SPACES,
    SPY,
    STATE_SIZE,
    TAKE_PI,
    TAKE_POWER,
    TERRITORIES,
    TRACE_LEN,
    TRACE_WIDTH,
    can_place,
    colour_count,
    has_won,
)
from simcore.kernel import chunk
from simcore.kernel.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    seat_lineup,
)
from simcore.kernel.rng import seed_game_stream
from simcore.registry import (
    SEARCH_ID,
    SEARCH_PARAM_NAMES,
    Arcs,
    Column,
    Game,
    Param,
    SpecError,
    search_strategy,
)
from simcore.workflows import files
from strategies import power_barons as strategy

RULES = (
    Param(
        "components",
        "path",
        "",
        "TOML file with the deck and the board (format in docs/games/power-barons.md); "
        '"" = the shipped simcore/data/power_barons_default.toml',
        shipped="power_barons_default.toml",
    ),
    Param("hand_size", "int", 8, "cards in a hand (draw to one more, bank one)", 1, MAX_HAND_SIZE),
    Param("base_cost", "int", 300, "credits a Power Base costs (no change)", 5, MAX_BASE_COST),
    Param(
        "declared_multiplier",
        "int",
        2,
        "what Power Cards of the declared Power Base's colour count for in a challenge (x face)",
        1,
        5,
    ),
    Param(
        "max_turns",
        "int",
        1000,
        "turn cap: a game still running is recorded as truncated",
        1,
        100_000,
    ),
)
assert len(RULES) == N_RULES

SEAT_COLUMNS = (
    Column("bases", "Power Bases of this seat on the board at the end", "int8"),
    Column("bank", "credits in the bank at the end", "int16"),
    Column("challenges_made", "challenges this seat made (one per turn)", "int16"),
    Column("challenges_won", "challenges won, attacking or defending", "int16"),
    Column("challenges_lost", "challenges lost, attacking or defending", "int16"),
    Column("bases_won", "Power Bases placed by winning a challenge", "int16"),
    Column("bases_bought", "Power Bases bought", "int16"),
    Column("bases_removed", "opponents' Power Bases this seat removed", "int16"),
    Column("bases_lost", "Power Bases of this seat that opponents removed", "int16"),
    Column("credits_banked", "credits this seat put into its bank over the game", "int32"),
    Column("flush_attempts", "challenges made to lose on purpose (strategy hint 3)", "int16"),
    Column("flushes", "of those, lost as planned", "int16"),
    Column("flush_credits_given", "credits of the cards lost in flushes (to opponents)", "int32"),
    Column("flush_hand_before", "sum over flushes of the hand's value before them", "int32"),
    Column(
        "flush_hand_after", "sum over flushes of the hand's value after it was refilled", "int32"
    ),
)
assert N_SEAT_STATS == len(
    SEAT_COLUMNS
)  # the statistics simcore/games/power_barons/rules.py counts

GAME_COLUMNS = (
    Column("reshuffles", "times the discard pile became the new drawpile", "int16"),
    Column("empty_draws", "draws that found no card in the drawpile nor the discard pile", "int32"),
)
assert N_GAME_STATS == len(GAME_COLUMNS)

# The standing per seat (game arcs, docs/arcs.md): recorded by ``record_standing``.
ARCS = Arcs(
    unit="turn",
    standing=(
        Column("bases", "Power Bases of this seat on the board (in opponents' territories)"),
        Column("credits", "credits in its bank account (banked cards lie face up)"),
    ),
    event=EV_STANDING,
)

GAME = Game(
    id="power-barons",
    title="Power Barons",
    min_players=3,
    max_players=MAX_PLAYERS,
    rules=RULES,
    strategies=strategy.STRATEGIES,
    strategy_param_names=strategy.PARAM_NAMES + SEARCH_PARAM_NAMES,
    default_strategy="baron",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    arcs=ARCS,
    search=search_strategy("power-barons", strategy.STRATEGIES, "preset:baron-keep_best"),
    module=__name__,
    doc="card duels for Power Bases in the opponents' territories; bank credits to buy the rest",
    rulebook="power-barons.md",
)


# --- components -----------------------------------------------------------------------------

DEFAULT_COMPONENTS = "power_barons_default.toml"
DECK_KEYS = tuple(name.lower().replace(" ", "_") for name in COLOURS)
TERRITORY_KEYS = tuple(name.lower() for name in TERRITORIES)


def _components_text(path: str) -> tuple[str, str]:
    """(name for messages, TOML text) of the components file (the shipped one for "")."""
    if path == "":
        shipped = resources.files("simcore").joinpath("data", DEFAULT_COMPONENTS)
        return f"simcore/data/{DEFAULT_COMPONENTS}", shipped.read_text()
    return path, files.read_text(path, "components file")


def _table(where: str, data: dict, key: str, keys: tuple[str, ...]) -> dict:
    table = data.get(key)
    if not isinstance(table, dict):
        raise SpecError(f"{where}: [{key}]: missing, expected a table with {', '.join(keys)}")
    for name in table:
        if name not in keys:
            raise SpecError(f"{where}: {key}.{name}: unknown key (expected {', '.join(keys)})")
    for name in keys:
        if name not in table:
            raise SpecError(f"{where}: {key}.{name}: missing")
    return table


def load_components(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(card colours, card values, space kinds, space territories) of a components file, or a
    one-line SpecError naming the file and the field."""
    name, text = _components_text(path)
    where = f"power-barons: components {name}"
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise SpecError(f"{where}: not valid TOML ({error})") from None
    for key in data:
        if key not in ("deck", "board"):
            raise SpecError(f"{where}: {key}: unknown key (expected deck, board)")
    deck = _table(where, data, "deck", DECK_KEYS)
    colours, values = [], []
    for card_colour, key in enumerate(DECK_KEYS):
        cards = deck[key]
        if not isinstance(cards, list):
            raise SpecError(f"{where}: deck.{key}: expected a list of card values")
        for k, credits in enumerate(cards):
            if isinstance(credits, bool) or not isinstance(credits, int):
                raise SpecError(f"{where}: deck.{key}[{k}]: expected an integer, got {credits!r}")
            if not 1 <= credits <= MAX_CARD_VALUE:
                raise SpecError(
                    f"{where}: deck.{key}[{k}]: {credits} is not in [1, {MAX_CARD_VALUE}]"
                )
            colours.append(card_colour)
            values.append(credits)
    if not 1 <= len(values) <= MAX_CARDS:
        raise SpecError(f"{where}: deck: {len(values)} cards, expected 1 to {MAX_CARDS}")
    spaces = _table(where, data, "board", ("spaces",))["spaces"]
    if not isinstance(spaces, list) or not N_TERRITORIES <= len(spaces) <= MAX_SPACES:
        raise SpecError(
            f"{where}: board.spaces: expected a list of {N_TERRITORIES} to {MAX_SPACES} spaces"
        )
    kinds, territories = [], []
    for k, space in enumerate(spaces):
        kind, _, territory = str(space).partition(":")
        if not isinstance(space, str) or kind not in SPACES:
            raise SpecError(
                f"{where}: board.spaces[{k}]: {space!r} is not one of {', '.join(SPACES)}"
            )
        if (kind == SPACES[INVESTMENTS]) != (territory in TERRITORY_KEYS):
            raise SpecError(
                f"{where}: board.spaces[{k}]: {space!r}: only investments_pay_off names a "
                f"territory, as investments_pay_off:TERRITORY ({', '.join(TERRITORY_KEYS)})"
            )
        kinds.append(SPACES.index(kind))
        territories.append(TERRITORY_KEYS.index(territory) if territory else -1)
    for territory, key in enumerate(TERRITORY_KEYS):
        if territories.count(territory) != 1:
            raise SpecError(
                f"{where}: board.spaces: investments_pay_off:{key} appears "
                f"{territories.count(territory)} times, expected once (a starting space)"
            )
    as_array = np.array
    return (
        as_array(colours, np.int64),
        as_array(values, np.int64),
        as_array(kinds, np.int64),
        as_array(territories, np.int64),
    )


def prepare(rules: dict, players: int) -> np.ndarray:
    """The kernel's read-only input: the numeric rules in RULES order (the components path's slot
    is 0), then n_cards, n_spaces, the deck's mean value per Power Card colour and the components
    tables (layout: power_barons_state P_*)."""
    colours, values, kinds, territories = load_components(rules["components"])
    if len(values) <= players * rules["hand_size"]:
        raise SpecError(
            f"power-barons: the deck's {len(values)} cards cannot deal hand_size="
            f"{rules['hand_size']} to {players} players and leave a drawpile"
        )
    numbers = [0.0 if p.kind == "path" else p.encode(rules[p.name]) for p in RULES]
    means = []
    for card_colour in range(N_TYPES):
        credits = values[colours == card_colour]
        means.append(int(credits.sum()) / len(credits) if len(credits) else 0.0)
    return np.concatenate(
        [np.array([*numbers, len(values), len(kinds), *means]), colours, values, kinds, territories]
    ).astype(np.float64)


# --- scripted games -------------------------------------------------------------------------
# A scripted game asks the strategies straight from a turn's code: the same rule helpers as the
# decision-point protocol (simcore/games/power_barons/rules.py) in the order the protocol's steps
# take
# them. tests/test_power_barons_protocol.py plays every referee configuration both ways and finds
# identical games. Every function takes the game as (st, rules, sids, prm, rng, trace): the
# state, the prepared rules, each seat's strategy id and parameter row, the game's random stream,
# the trace buffer.


@njit(cache=True, _nrt=False)
def restore(seat, st, rules, sids, prm, rng, trace):
    """Back to hand_size: bank (the owner's choice) while over it, draw while under it and a card
    is left."""
    while over_size(seat, st, rules):
        bank_chosen(seat, strategy.choose_bank_card(sids[seat], prm, seat, st, rules, rng), st,
                    trace)  # fmt: skip
    draw_to_size(seat, st, rules, rng, trace)


@njit(cache=True, _nrt=False, inline="always")
def buy(seat, players, st, rules, sids, prm, rng, trace):
    """Step 4: with base_cost credits banked the player must buy one Power Base; True if it did."""
    if not may_buy(seat, players, st, rules):
        return False
    territory, base_type = strategy.choose_purchase(sids[seat], seat, players, st, rng)
    buy_base(seat, players, territory, base_type, st, rules, rng, trace)
    return True


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def remove(seat, players, st, sids, rng, trace):
    """REMOVE A POWER BASE: an opponent's base of the player's choice goes back to its owner."""
    if any_opponent_base(seat, players, st, trace):
        owner, territory, base_type = strategy.choose_removal(sids[seat], seat, players, st, rng)
        remove_base(seat, owner, territory, base_type, players, st, trace)


@njit(cache=True, _nrt=False, inline="always")
def surrender_options(rnd, st, rules, sids, prm, rng, trace):
    """After a round: the lower total may surrender, then the higher (ties: attacker first).
    Returns the seat that surrendered, or -1."""
    first = first_to_surrender(st)
    for k in range(2):
        seat = first if k == 0 else st[CH_ATTACKER] + st[CH_DEFENDER] - first
        if strategy.wants_to_surrender(sids[seat], prm, seat, st, rules, rng):
            surrenders(seat, rnd, 0, st, trace)
            return seat
    return -1


@njit(cache=True, _nrt=False)
def influence_round(st, rules, sids, prm, rng, trace):
    """The Political Influence round of a full challenge: the player who is not winning either
    surrenders or plays "one or more" PI cards, at least until it is winning and then as many
    more as it likes; then the other does the same; a player whose PI cards cannot put it ahead
    must surrender. Returns the loser."""
    side = open_influence(st)
    while True:
        seat = st[CH_ATTACKER + side]
        forced = must_surrender(side, st)
        if forced or strategy.wants_to_surrender(sids[seat], prm, seat, st, rules, rng):
            surrenders(seat, N_TYPES, forced, st, trace)
            return seat
        while colour_count(st, HAND + seat, PI) > 0:
            card = strategy.choose_pi_card(sids[seat], prm, seat, st, rng)
            if card < 0 and behind_by(st, side) <= 0:
                break  # winning, it plays no more
            play_pi(seat, side, card, st, rules, trace)
        side = 1 - side
    return -1  # not reached


@njit(cache=True, _nrt=False, inline="always")
def challenge(attacker, players, limited, st, rules, sids, prm, rng, trace):
    """Step 3, the compulsory challenge. Returns 1 if the attacker placed a Power Base."""
    defender, declared, flush = strategy.choose_challenge(
        sids[attacker], prm, attacker, players, st, rng
    )
    hand_before = open_challenge(attacker, defender, declared, limited, flush, players, st, trace)
    loser = -1
    for rnd in range(N_TYPES):
        st[CH_ROUND] = rnd
        lead_colour, lead_card = strategy.choose_lead(sids[attacker], attacker, st, rules, rng)
        lead(attacker, lead_colour, lead_card, st, rules, trace)
        follow_card = -1
        if can_follow(defender, lead_colour, st):
            follow_card = strategy.choose_follow(sids[defender], defender, lead_colour, st, rng)
            follow(defender, lead_colour, follow_card, st, rules, trace)
        if end_round(rnd, lead_colour, lead_card, follow_card, st, trace):
            loser = surrender_options(rnd, st, rules, sids, prm, rng, trace)
            if loser >= 0:
                break
    if loser < 0:
        if limited == 1:
            loser = limited_loser(st)
        else:
            loser = influence_round(st, rules, sids, prm, rng, trace)
    return resolve(attacker + defender - loser, loser, players, hand_before, st, rng, trace)


@njit(cache=True, _nrt=False)
def take_turn(seat, players, st, rules, sids, prm, rng, trace):
    """The four steps of a turn; returns ``seat`` if it won, else -1."""
    # 1. Draw a card, bank a card.
    turn_begins(seat, st, rng, trace)
    restore(seat, st, rules, sids, prm, rng, trace)
    # 2. Roll, move clockwise, follow the directions.
    kind = roll(seat, st, rng, trace)
    if kind == INVESTMENTS:
        territory = st[SPACE_TERRITORY + st[PAWN + seat]]
        investments(territory, players, st, rules, sids, prm, rng, trace)
    elif kind == TAKE_POWER or kind == TAKE_PI or kind == SPY:
        take(seat, kind, players, st, rules, sids, prm, rng, trace)
    elif kind == REMOVE:
        remove(seat, players, st, sids, rng, trace)
    # 3. Challenge; 4. buy a Power Base. A placed base may complete the win.
    limited = 1 if kind == LIMITED else 0
    if challenge(seat, players, limited, st, rules, sids, prm, rng, trace) and has_won(
        st, players, seat
    ):
        wins(seat, st, trace)
        return seat
    if buy(seat, players, st, rules, sids, prm, rng, trace) and has_won(st, players, seat):
        wins(seat, st, trace)
        return seat
    return -1


@njit(cache=True, _nrt=False)
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


# --- games through the protocol (a searching seat) -----------------------------------------


@njit(cache=True)
def play_protocol_game(players, st, rules, sids, prm, rng, trace):
    """The same game through the decision-point protocol: each decision answered by the deciding
    seat's ``strategies.power_barons.decide``, or searched. Games with a searching seat are
    played this way; tests/test_power_barons_protocol.py plays scripted ones too (the same games
    as ``play_game``)."""
    new_game(players, st, rules, rng, trace)
    while not is_over(st):
        seat = to_move(st)
        apply(st, rules, power_barons_search.choose(sids, prm, seat, st, rules, rng), rng, trace)
    return st[P_WINNER], st[P_TURN], st[P_TRUNCATED] != 0


@njit(cache=True, nogil=True)
def bench_protocol(rules, players, lineup_ids, lineup_params, seed, n_games):
    """``n_games`` games through the protocol (``powerlab bench``): (decisions answered,
    searches run: decisions of a searching seat with more than one option)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    sids = np.zeros(players, dtype=np.int64)
    prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
    rng = np.zeros(4, dtype=np.uint64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
    scratch = np.zeros((1, players, N_STANDARD_SEAT_COLUMNS), dtype=np.int64)
    decisions = 0
    searches = 0
    for game_index in range(n_games):
        seat_lineup(lineup_ids, lineup_params, game_index, players, True, sids, prm, scratch, 0)
        seed_game_stream(seed, game_index, rng)
        new_game(players, st, rules, rng, no_trace)
        while not is_over(st):
            seat = to_move(st)
            searches += sids[seat] == SEARCH_ID and legal(st, rules, moves) > 1
            apply(
                st,
                rules,
                power_barons_search.choose(sids, prm, seat, st, rules, rng),
                rng,
                no_trace,
            )
        decisions += st[P_DECISIONS]
    return decisions, searches


@njit(cache=True, _nrt=False)
def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, rules, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, turns, truncated = play_game(players, st, rules, sids, prm, rng, trace)
    write_row(players, winner, turns, truncated, st, g, game_out, seat_out)


@njit(cache=True)
def play_indexed_protocol(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, rules, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """``play_indexed`` through the decision-point protocol: for lineups with a searching seat
    (the search allocates its tree, so this one may allocate: the scripted path may not)."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, turns, truncated = play_protocol_game(players, st, rules, sids, prm, rng, trace)
    write_row(players, winner, turns, truncated, st, g, game_out, seat_out)


@njit(cache=True, _nrt=False, inline="always")
def write_row(players, winner, turns, truncated, st, g, game_out, seat_out):
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else ENDED_RULES
    for k in range(N_GAME_STATS):
        game_out[g, N_STANDARD_GAME_COLUMNS + k] = st[RESHUFFLES + k]
    for seat in range(players):
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[stat(st, seat, k)]


FIRST_TRACE_ROWS = 2048  # about 45 turns; a longer game is played again with a bigger buffer

CHUNKS = chunk.GameChunks(
    __name__,
    play=play_indexed,
    play_searching=play_indexed_protocol,
    state_size=STATE_SIZE,
    trace_width=TRACE_WIDTH,
    trace_len_at=TRACE_LEN,
    game_columns=N_STANDARD_GAME_COLUMNS + N_GAME_STATS,
    seat_columns=N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    first_trace_rows=lambda prepared, players: FIRST_TRACE_ROWS,
)
run_chunk = CHUNKS.run_chunk
trace_game = CHUNKS.trace_game


def _location(code: int) -> str:
    if code == DRAWPILE:
        return "the drawpile"
    if code == DISCARD:
        return "the discard pile"
    for base, what in ((HAND, "hand"), (BANK, "bank"), (PLAYED, "table")):
        if base <= code < base + MAX_PLAYERS:
            return f"seat {code - base}'s {what}"
    return f"location {code}"


def describe_trace(trace, seat_labels: list[str]) -> list[str]:
    """A readable turn-by-turn log of a trace."""

    def who(seat):
        return f"seat {seat} ({seat_labels[seat]})"

    def card_name(card_colour, credits):
        return f"{COLOURS[card_colour]} {credits}"

    cards = {}  # card id -> (colour, value), learnt from the card rows
    lines = []
    for row in trace:
        event, a, b, c, d, e, f, g = (int(x) for x in row)
        name = EVENT_NAMES[event]
        if name == "setup":
            lines.append(f"{who(a)} owns {TERRITORIES[b]}, starts on space {c}, "
                         f"{d} Power Bases of each type")  # fmt: skip
        elif name == "card":
            cards[a] = (b, c)
            reason = MOVE_REASONS[f]
            if reason not in ("deal", "play"):
                lines.append(f"   {card_name(b, c)}: {_location(d)} -> {_location(e)} ({reason})")
        elif name == "reshuffle":
            lines.append(f"   the discard pile ({a} cards) is shuffled into a new drawpile")
        elif name == "turn":
            lines.append(f"-- {who(a)} on space {b}, {c} cards in hand, {d} credits banked")
        elif name == "move":
            where = f" {TERRITORIES[g]}" if g >= 0 else ""
            lines.append(f"   rolls {b}+{c}: space {d} -> {e}, {SPACES[f]}{where}")
        elif name == "invest":
            owner = f"owned by seat {b}" if b >= 0 else "owned by nobody"
            lines.append(f"   investments pay off in {TERRITORIES[a]} ({owner})")
        elif name == "take":
            asked = COLOURS[c] if c >= 0 else "any card"
            got = card_name(*cards[d]) if d >= 0 else "nothing"
            lines.append(f"   seat {a} takes from seat {b} ({asked}): {got}")
        elif name == "remove":
            if b < 0:
                lines.append(f"   seat {a} finds no opponent's Power Base to remove")
            else:
                lines.append(f"   seat {a} removes seat {b}'s {COLOURS[d]} base from "
                             f"{TERRITORIES[c]}")  # fmt: skip
        elif name == "challenge":
            kind = "limited challenge" if d else "challenge"
            flush = " to lose on purpose (flush)" if e else ""
            lines.append(f"   seat {a} makes a {kind} against seat {b} for {COLOURS[c]}{flush}; "
                         f"hand worth {f}")  # fmt: skip
        elif name == "round":
            lead = card_name(*cards[c]) if c >= 0 else "calls it out"
            follow = card_name(*cards[d]) if d >= 0 else "cannot follow"
            lines.append(f"   round {a + 1} ({COLOURS[b]}): attacker {lead}, defender {follow}: "
                         f"{e} to {f}")  # fmt: skip
        elif name == "pi":
            lines.append(f"   seat {a} plays {card_name(*cards[b])}: {c} to {d}")
        elif name == "surrender":
            stage = "in the Political Influence round" if b == N_TYPES else f"after round {b + 1}"
            must = " (cannot take the lead)" if e else ""
            lines.append(f"   seat {a} surrenders {stage} at {c} to {d}{must}")
        elif name == "result":
            base = ", places its base" if e else ""
            lines.append(f"   seat {a} wins the challenge, banks {d} cards worth {c}{base}; "
                         f"seat {b}'s hand is now worth {f}")  # fmt: skip
        elif name == "buy":
            lines.append(f"   seat {a} pays {d} credits ({e} cards) for a {COLOURS[c]} base in "
                         f"{TERRITORIES[b]}; {f} credits left")  # fmt: skip
        elif name == "win":
            lines.append(f"   seat {a} has built every Power Base it needs")
        elif name == "standing":
            lines.append(f"   standing: {who(b)} {c} Power Bases on the board, {d} credits banked")
        elif name == "end":
            result = "truncated by the turn cap" if d else f"{who(a)} wins"
            lines.append(f"== after {b} turns: {result}")
    return lines
