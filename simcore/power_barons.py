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
from numba import njit, prange

from simcore import chunk, files
from simcore.chunk import (
    ENDED_BY,
    ENDED_CAP,
    ENDED_RULES,
    N_STANDARD_GAME_COLUMNS,
    N_STANDARD_SEAT_COLUMNS,
    TURNS,
    WINNER,
    WON,
    block_bounds,
    record_event,
    seat_lineup,
)
from simcore.intrinsics import ix, lowest_bit
from simcore.power_barons_state import (
    BANK,
    BANK_WORDS,
    BANKED,
    CH_ATTACKER,
    CH_DECLARED,
    CH_DEFENDER,
    CH_DONE,
    CH_FLUSH,
    CH_LIMITED,
    CH_PLAYED,
    CH_ROUND,
    CH_TOTAL,
    COLOUR,
    COLOURS,
    DECK_COUNT,
    DECK_TOTAL,
    DISCARD,
    DRAWPILE,
    EMPTY_DRAWS,
    EV_BUY,
    EV_CARD,
    EV_CHALLENGE,
    EV_END,
    EV_INVEST,
    EV_MOVE,
    EV_PI,
    EV_REMOVE,
    EV_RESHUFFLE,
    EV_RESULT,
    EV_ROUND,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_STANDING,
    EV_SURRENDER,
    EV_TAKE,
    EV_TURN,
    EV_WIN,
    EVENT_NAMES,
    HAND,
    INVESTMENTS,
    LIMITED,
    LOC,
    M_BANK,
    M_DEAL,
    M_DRAW,
    M_GIVE,
    M_INVEST,
    M_PAY,
    M_PLAY,
    M_REFILL,
    M_RETURN,
    M_STEAL,
    M_WON,
    MAX_BASE_COST,
    MAX_CARD_VALUE,
    MAX_CARDS,
    MAX_HAND_SIZE,
    MAX_PLAYERS,
    MAX_SPACES,
    MEMBER,
    MOVE_REASONS,
    N_CARDS,
    N_GAME_STATS,
    N_RULES,
    N_SEAT_STATS,
    N_SPACES,
    N_TERRITORIES,
    N_TYPES,
    P_N_CARDS,
    P_N_SPACES,
    P_TABLES,
    PAWN,
    PAY_CARDS,
    PAY_REACHED,
    PI,
    PLAYED,
    PLAYERS,
    R_BASE_COST,
    R_HAND_SIZE,
    R_MAX_TURNS,
    REMOVE,
    RESHUFFLES,
    SCRATCH,
    SET_BITS,
    SLOT,
    SPACE_KIND,
    SPACE_TERRITORY,
    SPACES,
    SPY,
    STATE_SIZE,
    STATS,
    SUPPLY,
    TAKE_PI,
    TAKE_POWER,
    TERRITORIES,
    TRACE_LEN,
    TRACE_WIDTH,
    VALUE,
    WORD_BITS,
    bank_credits,
    bases_in,
    bases_on_board,
    can_place,
    card_at,
    colour_count,
    colour_credits,
    count_at,
    hand_count,
    hand_value,
    has_base,
    has_won,
    multiplier,
    recount,
    relocate,
    set_base,
    supply_left,
    turn_over_discard,
)
from simcore.registry import Arcs, Column, Game, Param, SpecError
from simcore.rng import rand_below, rand_float, seed_game_stream
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
(
    BASES_AT_END,
    BANK_AT_END,
    CHALLENGES_MADE,
    CHALLENGES_WON,
    CHALLENGES_LOST,
    BASES_WON,
    BASES_BOUGHT,
    BASES_REMOVED,
    BASES_LOST,
    CREDITS_BANKED,
    FLUSH_ATTEMPTS,
    FLUSHES,
    FLUSH_CREDITS_GIVEN,
    FLUSH_HAND_BEFORE,
    FLUSH_HAND_AFTER,
) = range(len(SEAT_COLUMNS))
assert N_SEAT_STATS == len(SEAT_COLUMNS)

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
    strategy_param_names=strategy.PARAM_NAMES,
    default_strategy="baron",
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    arcs=ARCS,
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


@njit(cache=True, _nrt=False, inline="always")
def stat(st, seat, which):
    """Index of one of ``seat``'s statistics in ``st``."""
    return STATS + N_SEAT_STATS * seat + which


# --- cards ----------------------------------------------------------------------------------
# Every function takes the game as (st, rules, sids, prm, rng, trace): the state, the prepared
# rules, each seat's strategy id and parameter row, the game's random stream, the trace buffer.
# The steps that run once or more a turn and are called from one or a few places (challenge,
# resolve, surrender_options, buy, play_card, check_lead) are inline="always": each call passed
# its arrays as up to ~45 machine words on the stack.


@njit(cache=True, _nrt=False)
def move_card(card, to, reason, st, trace):
    """The one way a card changes place (so the trace sees every move)."""
    record_event(
        trace, st, TRACE_LEN, EV_CARD, card, st[COLOUR + card], st[VALUE + card], st[LOC + card],
        to, reason,
    )  # fmt: skip
    relocate(st, card, to)


@njit(cache=True, _nrt=False)
def draw_card(seat, reason, st, rng, trace):
    """A uniformly random drawpile card into ``seat``'s hand; an empty drawpile is first made of
    the shuffled discard pile. False when neither has a card."""
    n = count_at(st, DRAWPILE)
    if n == 0:
        n = count_at(st, DISCARD)
        if n == 0:
            st[EMPTY_DRAWS] += 1
            return False
        turn_over_discard(st)
        st[RESHUFFLES] += 1
        record_event(trace, st, TRACE_LEN, EV_RESHUFFLE, n)
    move_card(card_at(st, DRAWPILE, rand_below(rng, n)), HAND + seat, reason, st, trace)
    return True


@njit(cache=True, _nrt=False)
def bank_card(seat, card, reason, st, trace):
    move_card(card, BANK + seat, reason, st, trace)
    st[stat(st, seat, CREDITS_BANKED)] += st[VALUE + card]


@njit(cache=True, _nrt=False)
def restore(seat, st, rules, sids, prm, rng, trace):
    """Back to hand_size: bank (the owner's choice) while over it, draw while under it and a card
    is left."""
    size = np.int64(rules[R_HAND_SIZE])
    while hand_count(st, seat) > size:
        card = strategy.choose_bank_card(sids[seat], prm, seat, st, rules, rng)
        if card < 0 or st[LOC + card] != HAND + seat:
            raise ValueError("strategy banked a card it does not hold")
        bank_card(seat, card, M_BANK, st, trace)
    while hand_count(st, seat) < size and draw_card(seat, M_REFILL, st, rng, trace):
        pass


@njit(cache=True, _nrt=False, inline="always")
def in_hand(st, seat, card):
    return 0 <= card < st[N_CARDS] and st[LOC + card] == HAND + seat


# --- Power Bases ----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def any_placement(st, players, owner):
    for territory in range(players):
        for base_type in range(N_TYPES):
            if can_place(st, players, owner, territory, base_type):
                return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def has_total(st, reached, total):
    """Total ``total`` is in the bitset of totals at st[reached]."""
    return (st[ix(reached + total // WORD_BITS)] >> (total % WORD_BITS)) & 1 == 1


@njit(cache=True, _nrt=False)
def pay(seat, cost, st, rng, trace):
    """Move the bank cards with the smallest total of at least ``cost`` to the discard pile (no
    change is given); returns (credits paid, cards paid).

    A 0/1 subset sum over credits with the bank's cards in a random order (shuffled from the
    game's stream): among the sets of that total, which one pays decides which cards return to
    the drawpile, and an order of card ids would favour some colours and values over others
    (the ids follow the components file). The totals reached after each card are a bitset
    (PAY_REACHED):
    those before it, and those shifted by its value. The minimal total is below cost + the
    largest card, which bounds the sets. Following a total back through the first card that
    reached it (s -> s - value, down to 0) names distinct cards.
    """
    words = (cost + MAX_CARD_VALUE + WORD_BITS - 1) // WORD_BITS
    n = 0
    for w in range(BANK_WORDS):
        members = st[ix(BANKED + BANK_WORDS * seat + w)]
        while members != 0:
            st[ix(PAY_CARDS + n)] = SET_BITS * w + lowest_bit(members)
            n += 1
            members &= members - 1
    for k in range(n - 1, 0, -1):  # Fisher-Yates
        j = rand_below(rng, k + 1)
        st[ix(PAY_CARDS + k)], st[ix(PAY_CARDS + j)] = st[ix(PAY_CARDS + j)], st[ix(PAY_CARDS + k)]
    for w in range(words):
        st[ix(PAY_REACHED + w)] = 0
    st[PAY_REACHED] = 1  # total 0, before any card
    reach = 0  # the cards' sum so far: no total above it is reached, so its words are 0
    for k in range(n):
        card_value = st[ix(VALUE + st[ix(PAY_CARDS + k)])]
        reach += card_value
        live = min(words, reach // WORD_BITS + 1)
        before = PAY_REACHED + words * k
        after = before + words
        whole, part = divmod(card_value, WORD_BITS)  # the shift: whole words and part bits
        for w in range(min(whole, live)):
            st[ix(after + w)] = st[ix(before + w)]
        for w in range(whole, live):
            # Shifted as uint64: an int64 shift right would drag the sign bit in.
            shifted = np.uint64(st[ix(before + w - whole)]) << np.uint64(part)
            if w > whole and part > 0:
                shifted |= np.uint64(st[ix(before + w - whole - 1)]) >> np.uint64(WORD_BITS - part)
            st[ix(after + w)] = st[ix(before + w)] | np.int64(shifted)
        for w in range(live, words):
            st[ix(after + w)] = 0
    total = cost
    while not has_total(st, PAY_REACHED + words * n, total):
        total += 1
    s = total
    cards = 0
    reached_after = n  # s is reached after that many cards
    while s > 0:
        # The first card after which s was reached: the sets only grow card by card, so it is
        # found going down while s was reached before the card. And s minus its value was
        # reached before it, so the next search starts below it: one pass over the cards.
        first = reached_after - 1
        while first > 0 and has_total(st, PAY_REACHED + words * first, s):
            first -= 1
        card = st[ix(PAY_CARDS + first)]
        s -= st[ix(VALUE + card)]
        reached_after = first
        move_card(card, DISCARD, M_PAY, st, trace)
        cards += 1
    return total, cards


@njit(cache=True, _nrt=False, inline="always")
def buy(seat, players, st, rules, sids, prm, rng, trace):
    """Step 4: with base_cost credits banked the player must buy one Power Base; True if it did."""
    cost = np.int64(rules[R_BASE_COST])
    if bank_credits(st, seat) < cost or not any_placement(st, players, seat):
        return False
    territory, base_type = strategy.choose_purchase(sids[seat], seat, players, st, rng)
    if not can_place(st, players, seat, territory, base_type):
        raise ValueError("strategy bought a Power Base it cannot place there")
    paid, cards = pay(seat, cost, st, rng, trace)
    set_base(st, seat, territory, base_type, 1)
    st[stat(st, seat, BASES_BOUGHT)] += 1
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_BUY,
        seat,
        territory,
        base_type,
        paid,
        cards,
        bank_credits(st, seat),
    )
    return True


# --- board spaces ---------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def investments(territory, players, st, rules, sids, prm, rng, trace):
    """INVESTMENTS PAY OFF: the territory's owner draws 1, then every player with bases there
    (clockwise from the owner) draws 1 per base; each banks back down to hand_size."""
    owner = territory if territory < players else -1
    record_event(trace, st, TRACE_LEN, EV_INVEST, territory, owner)
    if owner < 0:
        return
    for k in range(players):
        seat = (owner + k) % players
        n = 1 if seat == owner else bases_in(st, seat, territory)
        for _ in range(n):
            draw_card(seat, M_INVEST, st, rng, trace)
        if n > 0:
            restore(seat, st, rules, sids, prm, rng, trace)


@njit(cache=True, _nrt=False)
def take(seat, kind, players, st, rules, sids, prm, rng, trace):
    """TAKE A POWER CARD (the victim picks which card of the asked colour), TAKE POLITICAL
    INFLUENCE (the victim picks which), SPY AND STEAL (the taker picks from the shown hand)."""
    victim = strategy.choose_victim(sids[seat], seat, players, st, rng)
    if not 0 <= victim < players or victim == seat:
        raise ValueError("strategy asked a player who is not an opponent")
    asked = -1
    if kind == TAKE_POWER:
        asked = strategy.choose_colour_to_ask(sids[seat], seat, st, rng)
        if not 0 <= asked < N_TYPES:
            raise ValueError("strategy asked for a colour that is not a Power Card colour")
    elif kind == TAKE_PI:
        asked = PI
    card = -1
    if kind == SPY:
        if hand_count(st, victim) > 0:
            card = strategy.choose_steal(sids[seat], seat, victim, st, rng)
            if not in_hand(st, victim, card):
                raise ValueError("strategy stole a card the victim does not hold")
    elif colour_count(st, HAND + victim, asked) > 0:
        card = strategy.choose_give(sids[victim], prm, victim, asked, st, rng)
        if not in_hand(st, victim, card) or st[COLOUR + card] != asked:
            raise ValueError("strategy gave a card it does not hold or of another colour")
    record_event(trace, st, TRACE_LEN, EV_TAKE, seat, victim, asked, card, kind)
    if card >= 0:
        move_card(card, HAND + seat, M_STEAL if kind == SPY else M_GIVE, st, trace)
        restore(seat, st, rules, sids, prm, rng, trace)
        restore(victim, st, rules, sids, prm, rng, trace)


@njit(cache=True, _nrt=False)
def remove(seat, players, st, sids, rng, trace):
    """REMOVE A POWER BASE: an opponent's base of the player's choice goes back to its owner."""
    found = False
    for owner in range(players):
        if owner != seat and bases_on_board(st, owner) > 0:
            found = True
    if not found:
        record_event(trace, st, TRACE_LEN, EV_REMOVE, seat, -1, -1, -1)
        return
    owner, territory, base_type = strategy.choose_removal(sids[seat], seat, players, st, rng)
    if not 0 <= owner < players or owner == seat or not 0 <= territory < N_TERRITORIES:
        raise ValueError("strategy removed a base that is not an opponent's")
    if not 0 <= base_type < N_TYPES or not has_base(st, owner, territory, base_type):
        raise ValueError("strategy removed a base that is not on the board")
    set_base(st, owner, territory, base_type, 0)
    st[stat(st, seat, BASES_REMOVED)] += 1
    st[stat(st, owner, BASES_LOST)] += 1
    record_event(trace, st, TRACE_LEN, EV_REMOVE, seat, owner, territory, base_type)


# --- the challenge --------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def play_card(seat, side, card, st, rules, trace):
    """``seat`` (side 0 attacker, 1 defender) puts ``card`` on the table: a Power Card counts its
    face value times its colour's multiplier, a Political Influence card its face value."""
    move_card(card, PLAYED + seat, M_PLAY, st, trace)
    card_colour = st[COLOUR + card]
    if card_colour == PI:
        st[CH_TOTAL + side] += st[VALUE + card]
    else:
        st[CH_TOTAL + side] += st[VALUE + card] * multiplier(st, rules, card_colour)
        st[CH_PLAYED + side] += 1


@njit(cache=True, _nrt=False, inline="always")
def behind_by(st, side):
    """Credits ``side`` must add to be winning (ties go to the defender); <= 0 when winning."""
    mine = st[CH_TOTAL + side]
    theirs = st[CH_TOTAL + 1 - side]
    return theirs - mine + (1 if side == 0 else 0)


@njit(cache=True, _nrt=False, inline="always")
def holds_unplayed_colour(st, seat):
    """``seat`` holds a Power Card of a colour that has not had its round yet."""
    for card_colour in range(N_TYPES):
        if colour_count(st, HAND + seat, card_colour) > 0 and not (st[CH_DONE] >> card_colour) & 1:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def check_lead(attacker, lead_colour, lead, st):
    """The attacker leads a card of a new colour when it holds one, else calls out a new colour."""
    if not 0 <= lead_colour < N_TYPES or (st[CH_DONE] >> lead_colour) & 1:
        raise ValueError("strategy led a colour that already had its round")
    if holds_unplayed_colour(st, attacker):
        if not in_hand(st, attacker, lead) or st[COLOUR + lead] != lead_colour:
            raise ValueError("strategy did not lead a card it holds of the colour it named")
    elif lead != -1:
        raise ValueError("strategy led a card without holding one of a new colour")


@njit(cache=True, _nrt=False, inline="always")
def surrender_options(rnd, st, rules, sids, prm, rng, trace):
    """After a round: the lower total may surrender, then the higher (ties: attacker first).
    Returns the seat that surrendered, or -1."""
    attacker = st[CH_ATTACKER]
    defender = st[CH_DEFENDER]
    first = attacker if st[CH_TOTAL] <= st[CH_TOTAL + 1] else defender
    for k in range(2):
        seat = first if k == 0 else attacker + defender - first
        if strategy.wants_to_surrender(sids[seat], prm, seat, st, rules, rng):
            record_event(
                trace, st, TRACE_LEN, EV_SURRENDER, seat, rnd, st[CH_TOTAL], st[CH_TOTAL + 1], 0
            )
            return seat
    return -1


@njit(cache=True, _nrt=False)
def influence_round(st, rules, sids, prm, rng, trace):
    """The Political Influence round of a full challenge: the player who is not winning either
    surrenders or plays "one or more" PI cards, at least until it is winning and then as many
    more as it likes; then the other does the same; a player whose PI cards cannot put it ahead
    must surrender. Returns the loser."""
    st[CH_ROUND] = N_TYPES
    attacker = st[CH_ATTACKER]
    side = 0 if behind_by(st, 0) > 0 else 1
    while True:
        seat = st[CH_ATTACKER + side]
        forced = colour_credits(st, HAND + seat, PI) < behind_by(st, side)
        if forced or strategy.wants_to_surrender(sids[seat], prm, seat, st, rules, rng):
            record_event(
                trace,
                st,
                TRACE_LEN,
                EV_SURRENDER,
                seat,
                N_TYPES,
                st[CH_TOTAL],
                st[CH_TOTAL + 1],
                forced,
            )
            return seat
        while colour_count(st, HAND + seat, PI) > 0:
            card = strategy.choose_pi_card(sids[seat], prm, seat, st, rng)
            if card < 0 and behind_by(st, side) <= 0:
                break  # winning, it plays no more
            if not in_hand(st, seat, card) or st[COLOUR + card] != PI:
                raise ValueError("strategy played a Political Influence card it does not hold")
            play_card(seat, side, card, st, rules, trace)
            record_event(trace, st, TRACE_LEN, EV_PI, seat, card, st[CH_TOTAL], st[CH_TOTAL + 1])
        side = 1 - side
    return attacker  # not reached


@njit(cache=True, _nrt=False, inline="always")
def resolve(winner, loser, players, hand_before, st, rules, sids, prm, rng, trace):
    """WINNING A CHALLENGE: the winner banks the loser's played cards, the loser draws as many
    cards as it lost, the winner takes its own cards back, and a winning attacker places its
    declared base if it may. Returns 1 if a base was placed."""
    credits = 0
    cards = 0
    while count_at(st, PLAYED + loser) > 0:
        card = card_at(st, PLAYED + loser, 0)
        credits += st[VALUE + card]
        cards += 1
        bank_card(winner, card, M_WON, st, trace)
    # "The loser takes enough cards from the drawpile to replace the lost cards" (not to size).
    for _ in range(cards):
        if not draw_card(loser, M_REFILL, st, rng, trace):
            break
    while count_at(st, PLAYED + winner) > 0:
        move_card(card_at(st, PLAYED + winner, 0), HAND + winner, M_RETURN, st, trace)
    attacker = st[CH_ATTACKER]
    defender = st[CH_DEFENDER]
    declared = st[CH_DECLARED]
    placed = 0
    if winner == attacker and can_place(st, players, attacker, defender, declared):
        set_base(st, attacker, defender, declared, 1)
        st[stat(st, attacker, BASES_WON)] += 1
        placed = 1
    st[stat(st, winner, CHALLENGES_WON)] += 1
    st[stat(st, loser, CHALLENGES_LOST)] += 1
    if st[CH_FLUSH] == 1 and loser == attacker:
        st[stat(st, attacker, FLUSHES)] += 1
        st[stat(st, attacker, FLUSH_CREDITS_GIVEN)] += credits
        st[stat(st, attacker, FLUSH_HAND_BEFORE)] += hand_before
        st[stat(st, attacker, FLUSH_HAND_AFTER)] += hand_value(st, attacker)
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_RESULT,
        winner,
        loser,
        credits,
        cards,
        placed,
        hand_value(st, loser),
    )
    return placed


@njit(cache=True, _nrt=False, inline="always")
def challenge(attacker, players, limited, st, rules, sids, prm, rng, trace):
    """Step 3, the compulsory challenge. Returns 1 if the attacker placed a Power Base."""
    defender, declared, flush = strategy.choose_challenge(
        sids[attacker], prm, attacker, players, st, rng
    )
    if not 0 <= defender < players or defender == attacker or not 0 <= declared < N_TYPES:
        raise ValueError("strategy challenged a player who is not an opponent, or no base type")
    hand_before = hand_value(st, attacker)
    st[CH_ATTACKER] = attacker
    st[CH_DEFENDER] = defender
    st[CH_DECLARED] = declared
    st[CH_LIMITED] = limited
    st[CH_FLUSH] = flush
    st[CH_DONE] = 0
    for side in range(2):
        st[CH_TOTAL + side] = 0
        st[CH_PLAYED + side] = 0
    st[stat(st, attacker, CHALLENGES_MADE)] += 1
    st[stat(st, attacker, FLUSH_ATTEMPTS)] += flush
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_CHALLENGE,
        attacker,
        defender,
        declared,
        limited,
        flush,
        hand_before,
    )
    loser = -1
    for rnd in range(N_TYPES):
        st[CH_ROUND] = rnd
        lead_colour, lead = strategy.choose_lead(sids[attacker], attacker, st, rules, rng)
        check_lead(attacker, lead_colour, lead, st)
        follow = -1
        if colour_count(st, HAND + defender, lead_colour) > 0:
            follow = strategy.choose_follow(sids[defender], defender, lead_colour, st, rng)
            if not in_hand(st, defender, follow) or st[COLOUR + follow] != lead_colour:
                raise ValueError("strategy did not follow with a card of the led colour")
        if lead >= 0:
            play_card(attacker, 0, lead, st, rules, trace)
        if follow >= 0:
            play_card(defender, 1, follow, st, rules, trace)
        st[CH_DONE] |= 1 << lead_colour
        record_event(trace, st, TRACE_LEN, EV_ROUND, rnd, lead_colour, lead, follow, st[CH_TOTAL],
               st[CH_TOTAL + 1])  # fmt: skip
        # Nobody may surrender before both have played a Power Card.
        if st[CH_PLAYED] > 0 and st[CH_PLAYED + 1] > 0:
            loser = surrender_options(rnd, st, rules, sids, prm, rng, trace)
            if loser >= 0:
                break
    if loser < 0:
        if limited == 1:
            loser = attacker if behind_by(st, 0) > 0 else defender
        else:
            loser = influence_round(st, rules, sids, prm, rng, trace)
    winner = attacker + defender - loser
    placed = resolve(winner, loser, players, hand_before, st, rules, sids, prm, rng, trace)
    st[CH_DONE] = 0  # no challenge in progress: nothing is known about voids (determinize)
    return placed


# --- what a seat cannot see --------------------------------------------------------------------


@njit(cache=True)
def determinize(st, seat, rng, shown=-1):
    """Redraw, in place, everything ``seat`` cannot see, uniformly among the states consistent
    with what it sees now; ``shown`` is an opponent whose hand it is being shown (SPY AND STEAL),
    or -1.

    Hidden from a seat: the other seats' hands (their sizes are public), the drawpile (its size
    is public, its order is not), and, in another seat's challenge, whether the attacker means
    to lose (CH_FLUSH, the attacker's private intent: redrawn as a fair coin). Open: its own
    hand, every bank, the discard pile (paid face up), the cards on the table, bases, pawns and
    the rules. The unseen cards (the drawpile and the other hands) are pooled and dealt again:
    each hand its size, the rest to the drawpile in a random order.

    What it has seen in the challenge in progress constrains the deal (known_voids): no card
    is drawn during a challenge, so a duellist who could not follow a colour holds none of it.
    The deal is exact: with one constrained hand, it is dealt first from its allowed cards;
    with two (a third seat watching a challenge), the first is dealt from its allowed cards and
    kept with probability C(the second's allowed cards left, its size) / C(its allowed cards,
    its size) (rejection sampling), so that every consistent deal is equally likely.

    It keeps no other memory: cards seen earlier (a hand shown on SPY AND STEAL, a challenge
    winner's returned cards, cards given on TAKE spaces) are forgotten, as no strategy here
    reads them; a strategy that did would keep that memory in the state and extend this.
    """
    players = st[PLAYERS]
    void = known_voids(st)
    if seat != st[CH_ATTACKER]:
        st[CH_FLUSH] = rand_below(rng, 2)
    sizes = np.zeros(MAX_PLAYERS, np.int64)
    for other in range(players):
        if other != seat and other != shown:
            sizes[other] = count_at(st, HAND + other)
            while count_at(st, HAND + other) > 0:
                relocate(st, card_at(st, HAND + other, 0), DRAWPILE)
        else:
            void[other] = 0
    first = st[CH_ATTACKER]
    second = st[CH_DEFENDER]
    if void[first] == 0:
        first, second = second, first
    if void[first] != 0:
        while True:
            _deal(st, first, sizes[first], void[first], rng)
            if void[second] == 0:
                break
            allowed = _allowed_in(st, DRAWPILE, void[second])
            taken = _allowed_in(st, HAND + first, void[second])
            keep = 1.0
            for i in range(sizes[second]):
                keep *= max(allowed - i, 0) / (allowed + taken - i)
            if rand_float(rng) < keep:
                _deal(st, second, sizes[second], void[second], rng)
                break
            while count_at(st, HAND + first) > 0:
                relocate(st, card_at(st, HAND + first, 0), DRAWPILE)
    for other in range(players):
        if count_at(st, HAND + other) == 0 and sizes[other] > 0:
            _deal(st, other, sizes[other], 0, rng)
    n = count_at(st, DRAWPILE)
    for k in range(n - 1, 0, -1):  # the drawpile's order
        j = rand_below(rng, k + 1)
        card_k = card_at(st, DRAWPILE, k)
        card_j = card_at(st, DRAWPILE, j)
        st[MEMBER + MAX_CARDS * DRAWPILE + k] = card_j
        st[MEMBER + MAX_CARDS * DRAWPILE + j] = card_k
        st[SLOT + card_j] = k
        st[SLOT + card_k] = j


@njit(cache=True)
def known_voids(st):
    """Per seat, the Power Card colours (a bit each) it is known to hold none of, from the
    challenge in progress (none outside one: CH_DONE is cleared after it): the defender could
    not follow a colour whose round is done if it has no card of it on the table; an attacker
    with no card of a done colour on the table called it out, so it held none of the colours
    still to come then, which are the called-out ones and those not done yet."""
    void = np.zeros(MAX_PLAYERS, np.int64)
    done = st[CH_DONE]
    if done == 0:
        return void
    attacker = st[CH_ATTACKER]
    defender = st[CH_DEFENDER]
    called_out = 0
    for card_colour in range(N_TYPES):
        if (done >> card_colour) & 1:
            if not _on_table(st, defender, card_colour):
                void[defender] |= 1 << card_colour
            if not _on_table(st, attacker, card_colour):
                called_out |= 1 << card_colour
    if called_out != 0:
        void[attacker] = called_out | (((1 << N_TYPES) - 1) & ~done)
    return void


@njit(cache=True)
def _on_table(st, seat, card_colour):
    for i in range(count_at(st, PLAYED + seat)):
        if st[COLOUR + card_at(st, PLAYED + seat, i)] == card_colour:
            return True
    return False


@njit(cache=True)
def _allowed_in(st, loc, void):
    """Cards at ``loc`` of a colour outside ``void``."""
    n = 0
    for i in range(count_at(st, loc)):
        n += not (void >> st[COLOUR + card_at(st, loc, i)]) & 1
    return n


@njit(cache=True)
def _deal(st, seat, size, void, rng):
    """``size`` drawpile cards of colours outside ``void``, uniformly, into ``seat``'s hand."""
    for _ in range(size):
        k = rand_below(rng, _allowed_in(st, DRAWPILE, void))
        for i in range(count_at(st, DRAWPILE)):
            card = card_at(st, DRAWPILE, i)
            if not (void >> st[COLOUR + card]) & 1:
                if k == 0:
                    relocate(st, card, HAND + seat)
                    break
                k -= 1


# --- a turn and a game ----------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def take_turn(seat, players, st, rules, sids, prm, rng, trace):
    """The four steps of a turn; returns ``seat`` if it won, else -1."""
    record_event(trace, st, TRACE_LEN, EV_TURN, seat, st[PAWN + seat], hand_count(st, seat),
           bank_credits(st, seat))  # fmt: skip
    # 1. Draw a card, bank a card.
    draw_card(seat, M_DRAW, st, rng, trace)
    restore(seat, st, rules, sids, prm, rng, trace)
    # 2. Roll, move clockwise, follow the directions.
    die1 = rand_below(rng, 6) + 1
    die2 = rand_below(rng, 6) + 1
    start = st[PAWN + seat]
    space = (start + die1 + die2) % st[N_SPACES]
    st[PAWN + seat] = space
    kind = st[SPACE_KIND + space]
    record_event(
        trace,
        st,
        TRACE_LEN,
        EV_MOVE,
        seat,
        die1,
        die2,
        start,
        space,
        kind,
        st[SPACE_TERRITORY + space],
    )
    if kind == INVESTMENTS:
        investments(st[SPACE_TERRITORY + space], players, st, rules, sids, prm, rng, trace)
    elif kind == TAKE_POWER or kind == TAKE_PI or kind == SPY:
        take(seat, kind, players, st, rules, sids, prm, rng, trace)
    elif kind == REMOVE:
        remove(seat, players, st, sids, rng, trace)
    # 3. Challenge; 4. buy a Power Base. A placed base may complete the win.
    limited = 1 if kind == LIMITED else 0
    if challenge(seat, players, limited, st, rules, sids, prm, rng, trace) and has_won(
        st, players, seat
    ):
        record_event(trace, st, TRACE_LEN, EV_WIN, seat)
        return seat
    if buy(seat, players, st, rules, sids, prm, rng, trace) and has_won(st, players, seat):
        record_event(trace, st, TRACE_LEN, EV_WIN, seat)
        return seat
    return -1


@njit(cache=True, _nrt=False)
def set_up(players, st, rules, rng, trace):
    """The table from the prepared components; supplies, pawns on their owners' INVESTMENTS PAY
    OFF spaces; hand_size cards dealt to each player, one at a time clockwise from seat 0."""
    st[:SCRATCH] = 0  # the scratch areas are written before they are read
    n_cards = np.int64(rules[P_N_CARDS])
    n_spaces = np.int64(rules[P_N_SPACES])
    st[N_CARDS] = n_cards
    st[N_SPACES] = n_spaces
    st[PLAYERS] = players
    for card in range(n_cards):
        card_colour = np.int64(rules[P_TABLES + card])
        st[COLOUR + card] = card_colour
        st[VALUE + card] = np.int64(rules[P_TABLES + n_cards + card])
        st[DECK_COUNT + card_colour] += 1
        st[DECK_TOTAL + card_colour] += st[VALUE + card]
        st[LOC + card] = DRAWPILE
    recount(st)
    for space in range(n_spaces):
        st[SPACE_KIND + space] = np.int64(rules[P_TABLES + 2 * n_cards + space])
        st[SPACE_TERRITORY + space] = np.int64(rules[P_TABLES + 2 * n_cards + n_spaces + space])
    per_type = 2 if players == 3 else 3
    for seat in range(players):
        for base_type in range(N_TYPES):
            st[SUPPLY + N_TYPES * seat + base_type] = per_type
        for space in range(n_spaces):
            if st[SPACE_KIND + space] == INVESTMENTS and st[SPACE_TERRITORY + space] == seat:
                st[PAWN + seat] = space
        record_event(trace, st, TRACE_LEN, EV_SETUP, seat, seat, st[PAWN + seat], per_type)
    for _ in range(np.int64(rules[R_HAND_SIZE])):
        for seat in range(players):
            draw_card(seat, M_DEAL, st, rng, trace)


@njit(cache=True, _nrt=False)
def play_game(players, st, rules, sids, prm, rng, trace):
    """Set up and play one game to a win or the turn cap: (winner or -1, turns, truncated)."""
    set_up(players, st, rules, rng, trace)
    winner = -1
    turns = 0
    seat = 0
    max_turns = np.int64(rules[R_MAX_TURNS])
    while winner < 0 and turns < max_turns:
        winner = take_turn(seat, players, st, rules, sids, prm, rng, trace)
        turns += 1
        if trace.shape[0] > 0:
            for s in range(players):
                record_event(
                    trace, st, TRACE_LEN, EV_SNAPSHOT, s, st[PAWN + s], hand_count(st, s),
                    hand_value(st, s), bank_credits(st, s), bases_on_board(st, s),
                    supply_left(st, s),
                )  # fmt: skip
        seat = (seat + 1) % players
        record_standing(players, turns, st, trace)
    for s in range(players):
        st[stat(st, s, BASES_AT_END)] = bases_on_board(st, s)
        st[stat(st, s, BANK_AT_END)] = bank_credits(st, s)
    record_event(trace, st, TRACE_LEN, EV_END, winner, turns, winner < 0)
    return winner, turns, winner < 0


# --- the standing per seat (game arcs, docs/arcs.md) -------------------------------------------


@njit(cache=True, _nrt=False)
def record_standing(players, turns, st, trace):
    """After a turn: one standing row per seat when tracing; nothing otherwise."""
    if trace.shape[0] == 0:
        return
    for seat in range(players):
        record_event(trace, st, TRACE_LEN, EV_STANDING, turns, seat, bases_on_board(st, seat),
                     bank_credits(st, seat))  # fmt: skip


@njit(cache=True, _nrt=False)
def play_indexed(
    players, lineup_ids, lineup_params, seed, game_index, rotate,
    st, rules, sids, prm, rng, trace, g, game_out, seat_out,
):  # fmt: skip
    """Seat the lineup for ``game_index``, play it from its own stream, write row ``g``."""
    seat_lineup(lineup_ids, lineup_params, game_index, players, rotate, sids, prm, seat_out, g)
    seed_game_stream(seed, game_index, rng)
    winner, turns, truncated = play_game(players, st, rules, sids, prm, rng, trace)
    game_out[g, WINNER] = winner
    game_out[g, TURNS] = turns
    game_out[g, ENDED_BY] = ENDED_CAP if truncated else ENDED_RULES
    for k in range(N_GAME_STATS):
        game_out[g, N_STANDARD_GAME_COLUMNS + k] = st[RESHUFFLES + k]
    for seat in range(players):
        seat_out[g, seat, WON] = seat == winner
        for k in range(N_SEAT_STATS):
            seat_out[g, seat, N_STANDARD_SEAT_COLUMNS + k] = st[stat(st, seat, k)]


@njit(parallel=True, cache=True)
def simulate_chunk(
    rules, players, lineup_ids, lineup_params, seed, first_index, rotate, game_out, seat_out
):
    n_games = game_out.shape[0]
    n_blocks = min(n_games, 64)
    for block in prange(n_blocks):
        # Each block owns its scratch state; games never share anything but read-only inputs.
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        sids = np.zeros(players, dtype=np.int64)
        prm = np.zeros((players, lineup_params.shape[1]), dtype=np.float64)
        rng = np.zeros(4, dtype=np.uint64)
        no_trace = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
        lo, hi = block_bounds(n_games, n_blocks, block)
        for g in range(lo, hi):
            play_indexed(
                players, lineup_ids, lineup_params, seed, first_index + g, rotate,
                st, rules, sids, prm, rng, no_trace, g, game_out, seat_out,
            )  # fmt: skip


# --- the interface the runner and the CLI use ---------------------------------------------


def run_chunk(prepared, players, lineup_ids, lineup_params, seed, first_index, n_games, rotate):
    """Play ``n_games`` games from ``first_index`` on: (game_out, seat_out) int64 arrays."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    game_out, seat_out = chunk.new_outputs(
        n_games,
        players,
        N_STANDARD_GAME_COLUMNS + N_GAME_STATS,
        N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    )
    simulate_chunk(
        prepared, players, lineup_ids, lineup_params, np.uint64(seed), first_index, rotate,
        game_out, seat_out,
    )  # fmt: skip
    return game_out, seat_out


FIRST_TRACE_ROWS = 2048  # about 45 turns; a longer game is played again with a bigger buffer


def trace_game(prepared, players, lineup_ids, lineup_params, seed, game_index, rotate):
    """The event trace of one game, exactly as the chunk kernel plays it."""
    chunk.check_lineup(players, lineup_ids, lineup_params)
    sids, prm, rng, game_out, seat_out = chunk.one_game_scratch(
        players,
        lineup_params,
        N_STANDARD_GAME_COLUMNS + N_GAME_STATS,
        N_STANDARD_SEAT_COLUMNS + N_SEAT_STATS,
    )

    def play(st, trace):
        play_indexed(
            players, lineup_ids, lineup_params, np.uint64(seed), game_index, rotate,
            st, prepared, sids, prm, rng, trace, 0, game_out, seat_out,
        )  # fmt: skip

    return chunk.trace_one_game(play, FIRST_TRACE_ROWS, STATE_SIZE, TRACE_LEN, TRACE_WIDTH)


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
