"""A slow, readable, independent referee for Power Barons that replays kernel traces.

The referee is a second implementation of the rules in ``/work/shared/rules/power-barons.md``
(quoted as "Rulebook: ...") plus the choices documented in ``docs/games/power-barons.md`` where
the rulebook is silent (quoted as "Convention: ..." or "Doc: ..."). It shares nothing with the
numba kernel except the event, colour, space and location codes of
``simcore.games.power_barons.state``; it reads the components file (deck and board) itself with
``tomllib``. Every rule below was written from the rulebook and the documented choices.

How a replay works. The trace holds two kinds of facts:

* decisions and chance: which card a player banks, whom it asks or spies on and for which
  colour, which card a giver hands over, which base is removed, whom it challenges for which
  type, which card it leads or follows with, which colour it calls out, whether it surrenders,
  which Political Influence cards it plays, where it places a bought base; the dice, and which
  card each draw found. The referee takes them from the trace and checks that each one is
  *legal* (a drawn card must be in the drawpile, a banked card in the hand, a follow of the led
  colour, a surrender only once both players have played a Power Card, ...);
* consequences: whose turn it is, where the pawn lands and what the space does, when a hand
  banks or draws back to ``hand_size``, reshuffles, every challenge total (the declared colour
  multiplied), whether a player may still choose or *must* act (lead a card, follow, surrender
  in the Political Influence round), who wins a challenge (ties to the defender), who banks what,
  whether a base is placed or only the credits gained, the compulsory purchase at ``base_cost``
  with the smallest overpayment, the win conditions for 3 and 4 players, the turn cap and every
  snapshot. The referee computes them itself and asserts that the kernel's next event is exactly
  the one the rules require.

Any disagreement raises ``AssertionError`` naming the game, the trace row index, what the rules
expected and what the kernel wrote.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import simcore
from simcore.games.power_barons.state import (
    BANK,
    COLOURS,
    DISCARD,
    DRAWPILE,
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
    EV_SURRENDER,
    EV_TAKE,
    EV_TURN,
    EV_WIN,
    EVENT_NAMES,
    HAND,
    INVESTMENTS,
    LIMITED,
    M_BANK,
    M_DEAL,
    M_DISCARD,
    M_DRAW,
    M_GIVE,
    M_INVEST,
    M_PAY,
    M_PLAY,
    M_REFILL,
    M_RETURN,
    M_STEAL,
    M_WON,
    MOVE_REASONS,
    PI,
    PLAYED,
    REMOVE,
    SPACES,
    SPY,
    TAKE_PI,
    TAKE_POWER,
    TERRITORIES,
)
from tests.trace_cursor import TraceCursor

POWER_COLOURS = range(4)  # Transportation, Communications, Finance, Energy = Power Base types
N_TYPES = 4
NONE = -1
ATTACKER, DEFENDER = 0, 1
DEFAULT_COMPONENTS = Path(simcore.__file__).parent / "data" / "power_barons_default.toml"
DECK_KEYS = ("transportation", "communications", "finance", "energy", "political_influence")
TERRITORY_KEYS = tuple(name.lower() for name in TERRITORIES)

#: Field names of each event, for readable messages.
FIELDS = {
    "setup": ("seat", "territory", "pawn", "bases_per_type"),
    "card": ("card", "colour", "value", "src", "dst", "reason"),
    "reshuffle": ("cards",),
    "turn": ("seat", "pawn", "hand", "bank"),
    "move": ("seat", "die1", "die2", "src", "dst", "kind", "territory"),
    "invest": ("territory", "owner"),
    "take": ("seat", "victim", "colour", "card", "kind"),
    "remove": ("seat", "owner", "territory", "type"),
    "challenge": ("attacker", "defender", "declared", "limited", "flush", "hand_value"),
    "round": ("round", "colour", "a_card", "d_card", "a_total", "d_total"),
    "pi": ("seat", "card", "a_total", "d_total"),
    "surrender": ("seat", "round", "a_total", "d_total", "forced"),
    "result": ("winner", "loser", "credits", "cards", "placed", "loser_hand_value"),
    "buy": ("seat", "territory", "type", "paid", "cards", "bank_left"),
    "win": ("seat",),
    "snapshot": ("seat", "pawn", "hand", "hand_value", "bank", "bases", "supply"),
    "end": ("winner", "turns", "truncated"),
}
COLOUR_FIELDS = {"colour", "declared", "type"}


def location_name(code: int) -> str:
    if code == DRAWPILE:
        return "drawpile"
    if code == DISCARD:
        return "discard"
    for base, name in ((PLAYED, "table"), (BANK, "bank"), (HAND, "hand")):
        if code >= base and code - base < 4:
            return f"{name}{code - base}"
    return str(code)


def describe_row(row) -> str:
    """One trace row as ``name(field=value, ...)``, with colours, places and reasons named."""
    row = tuple(int(x) for x in row)
    if not 0 <= row[0] < len(EVENT_NAMES):
        return f"unknown event {list(row)}"
    name = EVENT_NAMES[row[0]]
    names = FIELDS[name]
    parts = []
    for key, value in zip(names, row[1:], strict=False):
        if key in COLOUR_FIELDS and 0 <= value < len(COLOURS):
            parts.append(f"{key}={COLOURS[value]}")
        elif key in ("src", "dst"):
            parts.append(f"{key}={location_name(value)}")
        elif key == "reason" and 0 <= value < len(MOVE_REASONS):
            parts.append(f"{key}={MOVE_REASONS[value]}")
        elif key == "kind" and 0 <= value < len(SPACES):
            parts.append(f"{key}={SPACES[value]}")
        else:
            parts.append(f"{key}={value}")
    extra = row[1 + len(names) :]
    if any(extra):
        parts.append(f"extra={list(extra)}")
    return f"{name}({', '.join(parts)})"


# --- components and rules -------------------------------------------------------------------


@dataclass(frozen=True)
class Components:
    """The deck and the board (Doc, Components: the rulebook lists neither; a TOML file does).

    Card ids are positions in the deck: the Transportation list first, then Communications,
    Finance, Energy, Political Influence. Each board space is (kind, territory or -1)."""

    colours: tuple[int, ...]
    values: tuple[int, ...]
    spaces: tuple[tuple[int, int], ...]

    @classmethod
    def load(cls, path: str) -> Components:
        source = Path(path) if path else DEFAULT_COMPONENTS
        data = tomllib.loads(source.read_text())
        colours, values = [], []
        for colour, key in enumerate(DECK_KEYS):
            for credits in data["deck"][key]:
                colours.append(colour)
                values.append(int(credits))
        spaces = []
        for text in data["board"]["spaces"]:
            kind_name, _, territory_name = text.partition(":")
            kind = SPACES.index(kind_name)
            territory = TERRITORY_KEYS.index(territory_name) if kind == INVESTMENTS else NONE
            spaces.append((kind, territory))
        return cls(tuple(colours), tuple(values), tuple(spaces))

    @property
    def n_cards(self) -> int:
        return len(self.values)

    def start_space(self, territory: int) -> int:
        """Rulebook, Game setup 2: "Place your pawn on the INVESTMENTS PAY OFF space with the
        name of your territory on it"."""
        return self.spaces.index((INVESTMENTS, territory))


@dataclass(frozen=True)
class Rules:
    """The rule parameters (``simcore.games.power_barons.game.RULES``), read from a spec's rules
    dict."""

    components: Components
    hand_size: int
    base_cost: int
    declared_multiplier: int
    max_turns: int
    loser_refill: str  # "replace_lost" or "restore_hands"
    challenge_rounds: int
    surrender: str  # "lower_then_higher", "lower_total_only" or "none"
    surrender_after_both_played: bool
    winner_banks: int
    political_influence: bool
    pi_cards_per_turn: int
    bases_bought_per_turn: int
    types_to_win: dict[int, int]  # players -> types to build in every opponent's territory
    bases_per_type: dict[int, int]  # players -> Power Bases of each type per player
    turn_draws: int
    spaces_on: frozenset[int]  # the space kinds whose directions apply
    ties_go_to: str  # "defender" or "attacker"

    @classmethod
    def from_dict(cls, rules: dict) -> Rules:
        return cls(
            components=Components.load(str(rules["components"])),
            hand_size=int(rules["hand_size"]),
            base_cost=int(rules["base_cost"]),
            declared_multiplier=int(rules["declared_multiplier"]),
            max_turns=int(rules["max_turns"]),
            loser_refill=str(rules["loser_refill"]),
            challenge_rounds=int(rules["challenge_rounds"]),
            surrender=str(rules["surrender"]),
            surrender_after_both_played=bool(rules["surrender_after_both_played"]),
            winner_banks=int(rules["winner_banks"]),
            political_influence=bool(rules["political_influence"]),
            pi_cards_per_turn=int(rules["pi_cards_per_turn"]),
            bases_bought_per_turn=int(rules["bases_bought_per_turn"]),
            types_to_win={n: int(rules[f"types_to_win_{n}p"]) for n in (3, 4)},
            bases_per_type={n: int(rules[f"bases_per_type_{n}p"]) for n in (3, 4)},
            turn_draws=int(rules["turn_draws"]),
            spaces_on=frozenset(k for k, name in enumerate(SPACES) if rules[name]),
            ties_go_to=str(rules["ties_go_to"]),
        )


# --- the state ------------------------------------------------------------------------------


@dataclass
class Baron:
    """A seat: its pawn, its Power Base supply and the bases it has on the board."""

    pawn: int
    supply: list[int]  # per type: bases not on the board
    bases: dict[int, set[int]] = field(default_factory=dict)  # territory -> types placed

    def bases_on_board(self) -> int:
        return sum(len(types) for types in self.bases.values())


@dataclass
class Challenge:
    """Rulebook, The Challenge Sequence: one duel in progress."""

    attacker: int
    defender: int
    declared: int
    limited: bool
    ties_go_to: str = "defender"  # Doc: ties_go_to
    totals: list[int] = field(default_factory=lambda: [0, 0])  # attacker, defender
    power_cards: list[int] = field(default_factory=lambda: [0, 0])  # Power Cards played
    done: set[int] = field(default_factory=set)  # colours that had their round

    def seat(self, side: int) -> int:
        return self.attacker if side == ATTACKER else self.defender

    def winning(self, side: int) -> bool:
        """Doc: to be winning, the attacker must be strictly ahead, the defender ahead or level
        (Rulebook: "If the challenge ends in a tie, the defender wins"; under ties_go_to
        attacker the other way round)."""
        mine, theirs = self.totals[side], self.totals[1 - side]
        tie_side = DEFENDER if self.ties_go_to == "defender" else ATTACKER
        return mine > theirs or (mine == theirs and side == tie_side)


@dataclass
class Table:
    """The whole public and hidden state of a game, as the referee sees it."""

    rules: Rules
    players: int
    where: list[int]  # every card's location code
    piles: dict[int, set[int]]  # location code -> the cards there
    barons: list[Baron]
    turns: int = 0
    winner: int | None = None
    truncated: bool = False
    reshuffles: int = 0
    empty_draws: int = 0
    drawpile_colours: list[int] = field(default_factory=lambda: [0] * len(COLOURS))
    #: every random draw: (the drawpile's cards per colour before it, the colour drawn)
    draws: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    #: situations met, for the sweep's coverage test
    seen: Counter = field(default_factory=Counter)

    def pile(self, loc: int) -> set[int]:
        return self.piles[loc]

    def hand(self, seat: int) -> set[int]:
        return self.piles[HAND + seat]

    def credits(self, loc: int) -> int:
        values = self.rules.components.values
        return sum(values[card] for card in self.piles[loc])


class Trace(TraceCursor):
    def __init__(self, rows, game_label: str):
        super().__init__(rows, game_label, "Power Barons", EVENT_NAMES, describe_row)


class Referee:
    """Replays one game of Power Barons from its trace, enforcing the rulebook step by step."""

    def __init__(self, rules: dict, players: int, game_label: str = ""):
        assert players in (3, 4), "Rulebook: 'For 3 or 4 Players' (2 players is not modelled)"
        self.rules = Rules.from_dict(rules)
        self.n = players
        self.label = game_label
        self.trace: Trace | None = None
        self.table: Table | None = None

    # --- small helpers ----------------------------------------------------------------------

    def colour(self, card: int) -> int:
        return self.rules.components.colours[card]

    def value(self, card: int) -> int:
        return self.rules.components.values[card]

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat]

    def cards_text(self, cards) -> str:
        shown = sorted(cards)
        return (
            "{"
            + ", ".join(f"{c}:{COLOURS[self.colour(c)][:5]} {self.value(c)}" for c in shown)
            + "}"
        )

    def types_to_win(self) -> int:
        """Rulebook, How to win: 4 different Power Bases in both opponents' territories at 3
        players, 3 different ones in every opponent's territory at 4 (Doc: types_to_win_3p,
        types_to_win_4p)."""
        return self.rules.types_to_win[self.n]

    def bases_per_type(self) -> int:
        """Rulebook, Game setup 3: "Take 2 Power Bases of each type" at 3 players, 3 at 4 (Doc:
        bases_per_type_3p, bases_per_type_4p)."""
        return self.rules.bases_per_type[self.n]

    def has_won(self, seat: int) -> bool:
        baron = self.table.barons[seat]
        need = self.types_to_win()
        return all(len(baron.bases.get(t, ())) >= need for t in self.opponents(seat))

    def may_place(self, seat: int, territory: int, base_type: int) -> bool:
        """Rulebook: a base goes in an opponent's territory ("any opponent's territory"); "You
        can't place more than one type of Power Base in a territory" (one of each type per
        player); it must come from the player's supply. Doc: seat k owns territory k, so at 3
        players Asia is nobody's and takes no base."""
        baron = self.table.barons[seat]
        return (
            0 <= territory < self.n
            and territory != seat
            and baron.supply[base_type] > 0
            and base_type not in baron.bases.get(territory, ())
        )

    def placements(self, seat: int) -> list[tuple[int, int]]:
        return [
            (territory, base_type)
            for territory in self.opponents(seat)
            for base_type in range(N_TYPES)
            if self.may_place(seat, territory, base_type)
        ]

    def place(self, seat: int, territory: int, base_type: int) -> None:
        baron = self.table.barons[seat]
        baron.supply[base_type] -= 1
        baron.bases.setdefault(territory, set()).add(base_type)

    # --- cards ------------------------------------------------------------------------------

    def move(self, card: int, src: int, dst: int, reason: int, what: str) -> None:
        """One card movement: the kernel's next row must say exactly this."""
        t = self.table
        self.trace.expect(
            EV_CARD, card, self.colour(card), self.value(card), src, dst, reason, what=what
        )
        assert t.where[card] == src
        t.piles[src].remove(card)
        t.piles[dst].add(card)
        t.where[card] = dst
        if src == DRAWPILE:
            t.drawpile_colours[self.colour(card)] -= 1

    def choose_card(self, src: int, dst: int, reason: int, allowed, what: str) -> int:
        """A card chosen by a player (or an order the rules leave free): it must be one of
        ``allowed``, and move from ``src`` to ``dst``."""
        row = self.trace.take(EV_CARD, what)
        card = row[1]
        self.trace.check(
            card in allowed, f"{what}: a card among {self.cards_text(allowed)}, moved as such"
        )
        self.move(card, src, dst, reason, what)
        return card

    def draw(self, seat: int, reason: int, what: str) -> bool:
        """Rulebook, Turn sequence 1: "Take the top card from the drawpile"; "When the drawpile
        runs out, just shuffle the cards in the discard pile, and turn them facedown to form a
        new drawpile." Convention: a draw is uniform over the drawpile (checked statistically by
        the tests); with both piles empty nothing is drawn. Returns whether a card was drawn."""
        t = self.table
        if not t.piles[DRAWPILE] and t.piles[DISCARD]:
            turned = len(t.piles[DISCARD])
            self.trace.expect(EV_RESHUFFLE, turned, what="the empty drawpile is reshuffled")
            for card in t.piles[DISCARD]:
                t.where[card] = DRAWPILE
                t.drawpile_colours[self.colour(card)] += 1
            t.piles[DRAWPILE], t.piles[DISCARD] = t.piles[DISCARD], set()
            t.reshuffles += 1
            t.seen["reshuffle"] += 1
        if not t.piles[DRAWPILE]:
            t.empty_draws += 1
            t.seen["empty draw"] += 1
            return False
        row = self.trace.take(EV_CARD, what)
        card = row[1]
        self.trace.check(
            0 <= card < self.rules.components.n_cards and card in t.piles[DRAWPILE],
            f"{what}: a card of the drawpile ({len(t.piles[DRAWPILE])} cards)",
        )
        t.draws.append((tuple(t.drawpile_colours), self.colour(card)))
        self.move(card, DRAWPILE, HAND + seat, reason, what)
        return True

    def can_draw(self) -> bool:
        return bool(self.table.piles[DRAWPILE] or self.table.piles[DISCARD])

    def restore(self, seat: int, why: str) -> None:
        """Rulebook, The Board Spaces: "Whenever cards are gained or lost by such an action,
        players must bank or draw immediately, to maintain their basic 8-card hands." Doc: a hand
        over ``hand_size`` banks cards of its owner's choice one at a time; a hand under it
        draws (reason refill) until full or no card is left."""
        t = self.table
        hand = t.hand(seat)
        size = self.rules.hand_size
        while len(hand) > size:
            self.choose_card(
                HAND + seat, BANK + seat, M_BANK, hand, f"seat {seat} banks a card ({why})"
            )
        while len(hand) < size:
            if not self.draw(seat, M_REFILL, f"seat {seat} draws back to {size} ({why})"):
                break

    # --- the game ---------------------------------------------------------------------------

    def replay(self, rows) -> Table:
        """Replay a whole trace; returns the final table."""
        self.trace = Trace(rows, self.label)
        self.setup()
        while self.table.winner is None and not self.table.truncated:
            self.play_turn(self.table.turns % self.n)  # seat 0 first, then clockwise
            self.after_turn()
        if self.trace.index != len(self.trace.rows):
            self.trace.fail("nothing after the end of the game")
        return self.table

    def setup(self) -> None:
        """Rulebook, Game setup: each player owns a territory (Convention: seat k owns territory
        k), puts its pawn on that territory's INVESTMENTS PAY OFF space and takes 2 Power Bases
        of each type at 3 players, 3 at 4. "Shuffle the card deck, and deal 8 cards to each
        player" (Doc: one at a time, seat 0 first, ``hand_size`` rounds)."""
        comp = self.rules.components
        per_type = self.bases_per_type()
        piles = {loc: set() for loc in (DRAWPILE, DISCARD)}
        for seat in range(self.n):
            for base in (HAND, BANK, PLAYED):
                piles[base + seat] = set()
        piles[DRAWPILE] = set(range(comp.n_cards))
        self.table = Table(
            rules=self.rules,
            players=self.n,
            where=[DRAWPILE] * comp.n_cards,
            piles=piles,
            barons=[Baron(comp.start_space(s), [per_type] * N_TYPES) for s in range(self.n)],
        )
        t = self.table
        for card in range(comp.n_cards):
            t.drawpile_colours[self.colour(card)] += 1
        for seat in range(self.n):
            self.trace.expect(
                EV_SETUP, seat, seat, t.barons[seat].pawn, per_type, what=f"seat {seat}'s set-up"
            )
        for _ in range(self.rules.hand_size):
            for seat in range(self.n):
                row = self.trace.take(EV_CARD, f"the deal to seat {seat}")
                card = row[1]
                self.trace.check(
                    0 <= card < comp.n_cards and card in t.piles[DRAWPILE],
                    f"a dealt card from the drawpile ({len(t.piles[DRAWPILE])} cards)",
                )
                t.draws.append((tuple(t.drawpile_colours), self.colour(card)))
                self.move(card, DRAWPILE, HAND + seat, M_DEAL, f"the deal to seat {seat}")

    def play_turn(self, seat: int) -> None:
        """Rulebook, The Turn Sequence: seat 0 first (Convention), then clockwise; 1. draw a
        card, bank a card; 2. roll, move, follow directions; 3. challenge another player; 4. buy
        a Power Base for 300 credits."""
        t = self.table
        baron = t.barons[seat]
        self.trace.expect(
            EV_TURN,
            seat,
            baron.pawn,
            len(t.hand(seat)),
            t.credits(BANK + seat),
            what=f"turn {t.turns + 1}: seat {seat} plays",
        )
        # 1. Rulebook: "Take the top card from the drawpile ... remove any card and place it
        # faceup in your bank account." Doc: draw one card, then restore.
        for _ in range(self.rules.turn_draws):  # Doc: turn_draws (the rulebook's one)
            self.draw(seat, M_DRAW, f"seat {seat} draws a card (step 1)")
        if self.rules.turn_draws > 1:
            t.seen["step 1 draws several"] += 1
        self.restore(seat, "step 1: draw a card, bank a card")
        # 2.
        limited = self.roll_and_move(seat)
        # 3.
        placed = self.challenge(seat, limited)
        if placed and self.has_won(seat):
            self.win(seat, "by challenge")
            return
        # 4. Doc: up to bases_bought_per_turn purchases (the rulebook's one by default).
        for bought in range(self.rules.bases_bought_per_turn):
            if not self.buy(seat):
                break
            if bought > 0:
                t.seen["bought again in the turn"] += 1
            if self.has_won(seat):
                self.win(seat, "by purchase")
                return

    def win(self, seat: int, how: str) -> None:
        """Rulebook, How to win the game: the first player with every base it needs wins; Doc:
        checked when a base is placed, the game ends at once."""
        self.trace.expect(EV_WIN, seat, what=f"seat {seat} has every base it needs")
        self.table.winner = seat
        self.table.seen[f"won {how}"] += 1

    def after_turn(self) -> None:
        """Doc: one snapshot row per seat after every turn, then ``end`` after the last turn
        (a win, or the ``max_turns`` cap). Also self-checks the referee's conservation laws."""
        t, r = self.table, self.rules
        t.turns += 1
        for seat, baron in enumerate(t.barons):
            self.trace.expect(
                EV_SNAPSHOT,
                seat,
                baron.pawn,
                len(t.hand(seat)),
                t.credits(HAND + seat),
                t.credits(BANK + seat),
                baron.bases_on_board(),
                sum(baron.supply),
                what=f"seat {seat}'s state after turn {t.turns}",
            )
        where = f"Power Barons referee, game {self.label!r}, after trace row {self.trace.index - 1}"
        assert sum(len(p) for p in t.piles.values()) == r.components.n_cards, where
        assert all(not t.piles[PLAYED + s] for s in range(self.n)), f"{where}: cards on table"
        assert all(len(t.hand(s)) <= r.hand_size for s in range(self.n)), f"{where}: big hand"
        per_type = self.bases_per_type()
        for baron in t.barons:
            for base_type in range(N_TYPES):
                on_board = sum(base_type in types for types in baron.bases.values())
                assert on_board + baron.supply[base_type] == per_type, f"{where}: bases"
        if t.winner is not None:
            self.trace.expect(EV_END, t.winner, t.turns, 0, what="the game is won")
        elif t.turns >= r.max_turns:
            t.truncated = True
            t.seen["truncated"] += 1
            self.trace.expect(EV_END, -1, t.turns, 1, what=f"the cap of {r.max_turns} turns")

    # --- step 2: the board ------------------------------------------------------------------

    def roll_and_move(self, seat: int) -> bool:
        """Rulebook: "Roll both dice and move your pawn clockwise around the board the number of
        spaces shown. Then follow the directions on that space." Returns whether the turn's
        challenge is limited."""
        t = self.table
        comp = self.rules.components
        baron = t.barons[seat]
        row = self.trace.take(EV_MOVE, f"seat {seat} rolls and moves")
        die1, die2 = row[2], row[3]
        self.trace.check(1 <= die1 <= 6 and 1 <= die2 <= 6, "two six-sided dice")
        t.dice += [die1, die2]
        src = baron.pawn
        dst = (src + die1 + die2) % len(comp.spaces)
        kind, territory = comp.spaces[dst]
        self.trace.expect(
            EV_MOVE, seat, die1, die2, src, dst, kind, territory, what="the pawn's move"
        )
        baron.pawn = dst
        t.seen[("space", SPACES[kind])] += 1
        if kind not in self.rules.spaces_on:
            # Doc: a space whose rule parameter is off does nothing (LIMITED: a full challenge).
            t.seen["a space switched off"] += 1
        elif kind == INVESTMENTS:
            self.investments(territory)
        elif kind in (TAKE_POWER, TAKE_PI, SPY):
            self.take(seat, kind)
        elif kind == REMOVE:
            self.remove(seat)
        # Doc, political_influence off: no challenge has a Political Influence round.
        limited = kind == LIMITED and kind in self.rules.spaces_on
        return limited or not self.rules.political_influence

    def investments(self, territory: int) -> None:
        """Rulebook, INVESTMENTS PAY OFF: "The owner of that territory takes one card from the
        drawpile. Also, each player who has placed a Power Base in that territory takes one card
        from the drawpile for every Power Base he or she has there." Doc: owner first, then the
        others clockwise from the owner, each restoring after its draws; a territory nobody owns
        (Asia at 3 players) pays nobody."""
        t = self.table
        owner = territory if territory < self.n else NONE
        self.trace.expect(EV_INVEST, territory, owner, what="investments pay off")
        if owner == NONE:
            t.seen["investments in nobody's territory"] += 1
            return
        payees = [(owner, 1)]
        for step in range(1, self.n):
            seat = (owner + step) % self.n
            bases = len(t.barons[seat].bases.get(territory, ()))
            if bases:
                payees.append((seat, bases))
                t.seen["investments pay a base owner"] += 1
        for seat, cards in payees:
            for _ in range(cards):
                self.draw(
                    seat, M_INVEST, f"investments in {TERRITORIES[territory]} pay seat {seat}"
                )
            self.restore(seat, "investments pay off")

    def take(self, seat: int, kind: int) -> None:
        """Rulebook, TAKE A POWER CARD: "Ask any opponent for a Power Card of a specific color
        ... If your opponent doesn't have any of the requested color, you're out of luck!";
        TAKE POLITICAL INFLUENCE: the same for a gray card; SPY AND STEAL: "add any card from it
        to your own hand". Convention: on TAKE spaces the giver chooses the card. Then the taker,
        then the victim, restore (only when a card moved)."""
        t = self.table
        row = self.trace.take(EV_TAKE, f"seat {seat} on {SPACES[kind]}")
        victim, asked, card = row[2], row[3], row[4]
        self.trace.check(row[1] == seat, f"seat {seat} is the taker")
        self.trace.check(victim in self.opponents(seat), f"an opponent of seat {seat} as victim")
        if kind == TAKE_POWER:
            self.trace.check(asked in POWER_COLOURS, "a Power Card colour (0-3) asked for")
        elif kind == TAKE_PI:
            self.trace.check(asked == PI, "a Political Influence card (4) asked for")
        else:
            self.trace.check(asked == NONE, "no colour on SPY AND STEAL (-1)")
        hand = t.hand(victim)
        eligible = {c for c in hand if kind == SPY or self.colour(c) == asked}
        if eligible:
            self.trace.check(
                card in eligible,
                f"a card the victim must hand over, among {self.cards_text(eligible)}",
            )
        else:
            self.trace.check(card == NONE, "nothing (-1): the victim holds no such card")
            t.seen["take: out of luck"] += 1
        self.trace.expect(EV_TAKE, seat, victim, asked, card, kind, what="the take")
        if card == NONE:
            if self.can_draw() and min(len(hand), len(t.hand(seat))) < self.rules.hand_size:
                t.seen["take nothing, a hand short"] += 1  # no card moved: no restore
            return
        reason = M_STEAL if kind == SPY else M_GIVE
        self.move(card, HAND + victim, HAND + seat, reason, f"seat {seat} takes a card")
        self.restore(seat, f"the taker on {SPACES[kind]}")
        self.restore(victim, f"the victim on {SPACES[kind]}")

    def remove(self, seat: int) -> None:
        """Rulebook, REMOVE A POWER BASE: "Remove any opponent's Power Base from the board, and
        return it to its owner." Convention: compulsory when an opponent has a base on the
        board."""
        t = self.table
        targets = {
            (owner, territory, base_type)
            for owner in self.opponents(seat)
            for territory, types in t.barons[owner].bases.items()
            for base_type in types
        }
        row = self.trace.take(EV_REMOVE, f"seat {seat} removes a Power Base")
        if not targets:
            t.seen["remove: no base"] += 1
            self.trace.expect(EV_REMOVE, seat, -1, -1, -1, what="no opponent base on the board")
            return
        owner, territory, base_type = row[2], row[3], row[4]
        self.trace.check(
            (owner, territory, base_type) in targets,
            f"an opponent's base on the board, one of {sorted(targets)}",
        )
        self.trace.expect(EV_REMOVE, seat, owner, territory, base_type, what="the removal")
        baron = t.barons[owner]
        baron.bases[territory].remove(base_type)
        baron.supply[base_type] += 1

    # --- step 3: the challenge --------------------------------------------------------------

    def challenge(self, seat: int, limited: bool) -> bool:
        """Rulebook, The Challenge Sequence ("not optional: you must challenge an opponent on
        every turn"). Returns whether the attacker placed its declared base."""
        t = self.table
        row = self.trace.take(EV_CHALLENGE, f"seat {seat}'s compulsory challenge")
        defender, declared, flush = row[2], row[3], row[5]
        self.trace.check(row[1] == seat, f"seat {seat} attacks")
        # Rulebook 1: "choosing any player to be the defender. Then name the type of Power Base"
        # ("You can declare any type of Power Base").
        self.trace.check(defender in self.opponents(seat), f"an opponent of seat {seat} defends")
        self.trace.check(declared in POWER_COLOURS, "a Power Base type (0-3) declared")
        self.trace.check(flush in (0, 1), "a flush flag of 0 or 1")
        self.trace.expect(
            EV_CHALLENGE,
            seat,
            defender,
            declared,
            int(limited),
            flush,
            t.credits(HAND + seat),
            what="the challenge",
        )
        ch = Challenge(seat, defender, declared, limited, self.rules.ties_go_to)
        t.seen["limited challenge" if limited else "full challenge"] += 1
        if not self.may_place(seat, defender, declared):
            t.seen["declared a type it cannot place"] += 1
        loser = None
        # Rulebook: "four separate rounds of card play" (Doc: challenge_rounds).
        for rnd in range(self.rules.challenge_rounds):
            self.power_round(ch, rnd)
            loser = self.surrender_option(ch, rnd)
            if loser is not None:
                break
        if loser is None:
            if self.rules.challenge_rounds < N_TYPES:
                t.seen["played out after fewer rounds"] += 1
            if limited:
                # Rulebook 7, Limited Challenge: "the player with the higher total wins the
                # challenge. In case of a tie, the defender wins."
                loser = ch.defender if ch.winning(ATTACKER) else ch.attacker
                t.seen["limited challenge played out"] += 1
                if ch.totals[0] == ch.totals[1]:
                    t.seen[f"tie to the {ch.ties_go_to}"] += 1
            else:
                loser = self.influence_round(ch)
        winner = ch.attacker if loser == ch.defender else ch.defender
        return self.resolve(ch, winner, loser)

    def card_count(self, card: int, ch: Challenge) -> int:
        """Rulebook 1: "Power Cards of that color played during the challenge will have
        *double* the credit value for both players" (``declared_multiplier``)."""
        if self.colour(card) == ch.declared:
            return self.value(card) * self.rules.declared_multiplier
        return self.value(card)

    def power_round(self, ch: Challenge, rnd: int) -> None:
        """Rulebook 2, 3, 6 and additional rule 3: the attacker leads a Power Card of a colour
        that has not had its round (Convention: it must when it holds one; otherwise it calls
        out a remaining colour); the defender must follow with that colour if possible."""
        t = self.table
        att, dfd = ch.attacker, ch.defender
        remaining = [c for c in POWER_COLOURS if c not in ch.done]
        leads = {c for c in t.hand(att) if self.colour(c) in remaining}
        what = f"round {rnd + 1} of seat {att}'s challenge against seat {dfd}"
        if leads:
            a_card = self.choose_card(
                HAND + att, PLAYED + att, M_PLAY, leads, f"{what}: the attacker leads"
            )
            colour = self.colour(a_card)
            ch.totals[ATTACKER] += self.card_count(a_card, ch)
            ch.power_cards[ATTACKER] += 1
        else:
            # The colour called out is written in the round row (after the defender's card).
            a_card = NONE
            ahead = [self.trace.peek_row(k) for k in (0, 1)]
            named = [r for r in ahead if r is not None and r[0] == EV_ROUND]
            self.trace.check(bool(named), f"{what}: the attacker calls out a colour")
            colour = named[0][2]
            self.trace.check(
                colour in remaining,
                f"{what}: a called-out colour among {[COLOURS[c] for c in remaining]}",
            )
            t.seen["colour called out"] += 1
        follows = {c for c in t.hand(dfd) if self.colour(c) == colour}
        if follows:
            d_card = self.choose_card(
                HAND + dfd,
                PLAYED + dfd,
                M_PLAY,
                follows,
                f"{what}: the defender follows in {COLOURS[colour]}",
            )
            ch.totals[DEFENDER] += self.card_count(d_card, ch)
            ch.power_cards[DEFENDER] += 1
        else:
            d_card = NONE
            t.seen["defender cannot follow"] += 1
        ch.done.add(colour)
        self.trace.expect(
            EV_ROUND, rnd, colour, a_card, d_card, *ch.totals, what=f"{what}: the totals"
        )

    def surrender_option(self, ch: Challenge, rnd: int) -> int | None:
        """Rulebook 4-5: the lower total, then the higher, may surrender (on a tie the attacker
        first); additional rule 1: "neither player can surrender until each player has played at
        least one card". Returns the seat that surrendered, or None."""
        row = self.trace.peek_row()
        last = rnd == self.rules.challenge_rounds - 1
        if row is None or row[0] != EV_SURRENDER or (last and row[2] != rnd):
            return None  # after the last round a surrender labelled 4 belongs to the PI round
        seat = row[1]
        rules = self.rules
        self.trace.check(rules.surrender != "none", "no voluntary surrender (surrender=none)")
        self.trace.check(
            min(ch.power_cards) >= 1 or not rules.surrender_after_both_played,
            "no surrender: both players must have played a Power Card first "
            f"(attacker {ch.power_cards[0]}, defender {ch.power_cards[1]})",
        )
        self.trace.check(seat in (ch.attacker, ch.defender), "a surrender by a duellist")
        if rules.surrender == "lower_total_only":
            # The first option is the lower total's (on a tie the attacker's); no second one.
            # (the player who is not winning: by the rulebook on a tie the attacker)
            first = ch.defender if ch.winning(ATTACKER) else ch.attacker
            self.trace.check(seat == first, "only the lower total may surrender")
        if min(ch.power_cards) == 0:
            self.table.seen["surrender before both played"] += 1
        self.trace.expect(EV_SURRENDER, seat, rnd, *ch.totals, 0, what="a surrender option")
        self.table.seen[("surrender after round", rnd + 1)] += 1
        if not self.behind_or_level(ch, seat):
            self.table.seen["the higher total surrenders"] += 1
        return seat

    def behind_or_level(self, ch: Challenge, seat: int) -> bool:
        side = ATTACKER if seat == ch.attacker else DEFENDER
        return ch.totals[side] <= ch.totals[1 - side]

    def influence_round(self, ch: Challenge) -> int:
        """Rulebook 7, Full Challenge, sequence A-C: the player with the lower total (on a tie
        the attacker) plays one or more Political Influence cards; "If you can't play enough
        Political Influence credits to beat your opponent, you *must* surrender!" The player
        who is not winning either surrenders or plays "one or more" PI cards: at least until it
        is winning, then as many more as it likes; then the other does the same. PI cards count
        face value. Returns the loser."""
        t = self.table
        t.seen["political influence round"] += 1
        side = DEFENDER if ch.winning(ATTACKER) else ATTACKER
        cap = self.rules.pi_cards_per_turn
        while True:
            seat = ch.seat(side)
            pi_cards = {c for c in t.hand(seat) if self.colour(c) == PI}
            # Doc: at most pi_cards_per_turn cards a turn, so its best that many must do.
            can_win = self.pi_can_win(ch, side, self.best_pi(seat, cap))
            if not can_win and self.pi_can_win(ch, side, self.best_pi(seat, len(pi_cards))):
                t.seen["PI cap forces a surrender"] += 1
            what = f"the PI round: seat {seat} is not winning at {ch.totals[0]} to {ch.totals[1]}"
            row = self.trace.peek_row()
            if not can_win or (row is not None and row[0] == EV_SURRENDER):
                self.trace.take(EV_SURRENDER, f"{what} and its PI cards cannot make it winning")
                self.trace.check(row[1] == seat, f"{what}: only it may surrender")
                self.trace.check(
                    not can_win or self.rules.surrender != "none",
                    f"{what}: it can win, and surrender=none allows no voluntary surrender",
                )
                self.trace.expect(
                    EV_SURRENDER, seat, 4, *ch.totals, int(not can_win), what=f"{what}: surrender"
                )
                t.seen["forced surrender" if not can_win else "PI round: gives up"] += 1
                return seat
            played = 0
            # "One or more" cards: at least until it is winning, then more if it likes, up to
            # pi_cards_per_turn; each card must leave it able to be winning within the cap.
            while played == 0 or (played < cap and self.plays_another(seat)):
                left = cap - played - 1
                playable = {
                    c
                    for c in t.hand(seat)
                    if self.colour(c) == PI
                    and self.pi_can_win(ch, side, [self.value(c), *self.best_pi(seat, left, c)])
                }
                winning = ch.winning(side)
                card = self.choose_card(HAND + seat, PLAYED + seat, M_PLAY, playable, f"{what}: PI")
                ch.totals[side] += self.value(card)
                self.trace.expect(EV_PI, seat, card, *ch.totals, what=f"{what}: the PI card counts")
                t.seen["PI card played while winning" if winning else "PI card played"] += 1
                played += 1
                if played == cap and cap < len(pi_cards):
                    t.seen["PI cap reached"] += 1
            self.trace.check(ch.winning(side), f"{what}: winning after its PI cards")
            side = 1 - side
            t.seen["PI lead changes"] += 1

    def best_pi(self, seat: int, k: int, skip: int = NONE) -> list[int]:
        """The values of ``seat``'s ``k`` highest PI cards other than ``skip``."""
        pi_cards = [c for c in self.table.hand(seat) if self.colour(c) == PI and c != skip]
        return sorted(map(self.value, pi_cards), reverse=True)[: max(k, 0)]

    def pi_can_win(self, ch: Challenge, side: int, values) -> bool:
        """Adding ``values`` (credits of PI cards) makes ``side`` winning, or it is already."""
        after = Challenge(ch.attacker, ch.defender, ch.declared, ch.limited, ch.ties_go_to)
        after.totals = list(ch.totals)
        after.totals[side] += sum(values)
        return after.winning(side)

    def plays_another(self, seat: int) -> bool:
        """The next row plays a card from ``seat``'s hand."""
        row = self.trace.peek_row()
        return row is not None and row[0] == EV_CARD and row[4] == HAND + seat and row[6] == M_PLAY

    def resolve(self, ch: Challenge, winner: int, loser: int) -> bool:
        """Rulebook, Winning a challenge: A. "The winner takes the cards played by the loser, and
        places them faceup in his or her bank account" (Doc: at most ``winner_banks`` of them,
        the highest; the others go to the discard pile first). B. "The loser takes enough cards
        from the drawpile to replace the lost cards" (``loser_refill`` replace_lost: as many as
        it lost, not up to ``hand_size``; restore_hands: up to ``hand_size``, "Both hands are
        replenished afterwards"). C. "The winner puts the cards he or she played back into his
        or her hand" (restore_hands: then draws up to ``hand_size``). D. A winning attacker
        moves its declared base to the defender's territory (Convention: if it may; else it
        only gains the credits). E. "The defender never wins a Power Base." Returns whether a
        base was placed."""
        t = self.table
        rules = self.rules
        lost = t.pile(PLAYED + loser)
        n_lost = len(lost)
        if n_lost == 0:
            t.seen["the loser lost no card"] += 1
        for _ in range(n_lost - rules.winner_banks):
            lowest = min(map(self.value, lost))
            self.choose_card(
                PLAYED + loser,
                DISCARD,
                M_DISCARD,
                {c for c in lost if self.value(c) == lowest},
                f"seat {loser}'s lowest lost card is discarded (winner_banks {rules.winner_banks})",
            )
            t.seen["a lost card discarded"] += 1
        credits = sum(self.value(c) for c in lost)
        n_banked = len(lost)
        for _ in range(n_banked):
            self.choose_card(
                PLAYED + loser, BANK + winner, M_WON, lost, f"seat {winner} banks a won card"
            )
        if rules.loser_refill == "restore_hands":
            if len(t.hand(loser)) + n_lost < rules.hand_size and self.can_draw():
                t.seen["a short loser's hand restored"] += 1
            self.restore(loser, "the loser after a challenge (restore_hands)")
        else:
            for _ in range(n_lost):
                if not self.draw(loser, M_REFILL, f"seat {loser} replaces a lost card"):
                    break
            if len(t.hand(loser)) < rules.hand_size and self.can_draw():
                t.seen["the loser's hand stays short"] += 1
        back = t.pile(PLAYED + winner)
        for _ in range(len(back)):
            self.choose_card(
                PLAYED + winner, HAND + winner, M_RETURN, back, f"seat {winner} takes back a card"
            )
        if rules.loser_refill == "restore_hands":
            self.restore(winner, "the winner after a challenge (restore_hands)")
        placed = winner == ch.attacker and self.may_place(winner, ch.defender, ch.declared)
        if placed:
            self.place(winner, ch.defender, ch.declared)
            t.seen["base won"] += 1
        elif winner == ch.attacker:
            t.seen["attacker wins credits only"] += 1
        else:
            t.seen["defender wins"] += 1
        self.trace.expect(
            EV_RESULT,
            winner,
            loser,
            credits,
            n_banked,
            int(placed),
            t.credits(HAND + loser),
            what=f"seat {winner} wins the challenge",
        )
        return placed

    # --- step 4: buying ---------------------------------------------------------------------

    def cheapest_total(self, bank: set[int]) -> int:
        """Rulebook, Turn sequence 4: "You may have to throw in some extra credits ... no change
        is returned." Convention: the bank cards paid have the smallest total of at least
        ``base_cost`` (which of the sets of that total is the kernel's choice, from the game's
        random stream)."""
        totals = {0}
        for card in bank:
            totals |= {total + self.value(card) for total in totals}
        return min(total for total in totals if total >= self.rules.base_cost)

    def buy(self, seat: int) -> bool:
        """Rulebook, Turn sequence 4: "If you've banked 300 of them, you *must* buy a Power
        Base" and place it "in *any* opponent's territory" (one of each type per territory).
        Convention: one purchase per turn. Returns whether a base was bought."""
        t = self.table
        bank = t.pile(BANK + seat)
        credits = t.credits(BANK + seat)
        if credits < self.rules.base_cost or not self.placements(seat):
            return False
        paid = self.cheapest_total(bank)
        what = (
            f"seat {seat} pays {paid} for a base (the smallest total of at least "
            f"{self.rules.base_cost})"
        )
        to_pay = []
        while sum(self.value(c) for c in to_pay) < paid:
            bank = set(t.pile(BANK + seat))
            to_pay.append(self.choose_card(BANK + seat, DISCARD, M_PAY, bank, what))
        self.trace.check(sum(self.value(c) for c in to_pay) == paid, f"{what}: exactly {paid}")
        n_paid = len(to_pay)
        row = self.trace.take(EV_BUY, f"seat {seat} must buy a base")
        territory, base_type = row[2], row[3]
        options = self.placements(seat)
        self.trace.check(
            (territory, base_type) in options, f"a legal placement (territory, type) in {options}"
        )
        self.trace.expect(
            EV_BUY,
            seat,
            territory,
            base_type,
            paid,
            n_paid,
            t.credits(BANK + seat),
            what="the purchase",
        )
        self.place(seat, territory, base_type)
        t.seen["base bought"] += 1
        if paid > self.rules.base_cost:
            t.seen["overpaid (no change)"] += 1
        return True


def replay(trace_rows, rules: dict, players: int, game_label: str = "") -> Table:
    """Replay one kernel trace against the rulebook; AssertionError on any disagreement."""
    return Referee(rules, players, game_label).replay(trace_rows)
