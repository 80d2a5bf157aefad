"""A slow, readable, independent referee for Time Barons that replays kernel traces.

The referee is a second implementation of the rules in ``/work/shared/rules/time-barons.md``
(quoted as "Rulebook: ...") plus the project's documented choices where the rulebook is silent
(``docs/games/time-barons.md``, quoted as "Docs: ..." with the rule-parameter key where there is
one) and the card file's effect vocabulary. It reads the card file itself (``tomllib``) and shares
nothing with the numba kernel except the event, move, op and trigger codes of
``simcore.games.time_barons.state``.

How a replay works. The trace holds two kinds of facts:

* decisions and chance (which move, which level to draw from, which card to play and on which
  site, which reaction or triggered ability answers a trigger, every choice of a card's owner:
  the site damaged, destroyed, repaired, the follower killed, stolen or sacrificed, where a new
  follower goes, the arrangement of a relocation, the card recovered; the card each draw turns
  up, the card a ``discard`` effect takes at random, the first player of ``first_player=random``).
  The referee takes them from the trace and checks that each one is *legal*;
* consequences (whose turn it is and with how many actions, what a move costs and what is left,
  every effect a card or ability has and in what order, damage, kills, fortified sites,
  destruction, discards, the limited supply and damage counters, responses opened or not, the
  cancel of an attack, start-of-turn attachments and passives, every snapshot and table row, the
  end of the game). The referee computes them itself and asserts that the kernel's next event is
  exactly the one the rules require.

Any disagreement raises ``AssertionError`` naming the game, the trace row index, what the rules
expected and what the kernel wrote.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from simcore.games.time_barons.state import (
    ABILITY,
    DRAW,
    EV_ARRANGE,
    EV_ATTACH,
    EV_CANCEL,
    EV_DAMAGE,
    EV_DESTROY,
    EV_DISCARD,
    EV_DRAW,
    EV_EFFECT,
    EV_END,
    EV_END_TURN,
    EV_KILL,
    EV_MOVE,
    EV_PLACE,
    EV_RECOVER,
    EV_REPAIR,
    EV_RESPONSE,
    EV_SETUP,
    EV_SNAPSHOT,
    EV_TABLE,
    EV_TARGET,
    EV_TURN,
    EVENT_NAMES,
    GAIN,
    MOVES,
    OPS,
    PLAY,
    REACT,
    RELOCATE,
    TRIGGERED,
    TRIGGERS,
    UPGRADE,
)
from tests.trace_cursor import TraceCursor

SHIPPED_CARDS = Path(__file__).resolve().parents[3] / "simcore" / "data" / "time_barons_cards.toml"
HOMELAND_IDS = (64, 65)  # Docs, Trace format: "Homelands 64 (seat 0) and 65 (seat 1)"
N_LEVELS = 4
#: Docs: "at most 200 moves per turn and 200 responses per window".
MOVE_CAP = 200
RESPONSE_CAP = 200

#: Docs, Effect vocabulary: "Harmful ops (the ones that make an attack)".
HARMFUL = {"damage", "damage_each", "kill", "kill_everywhere", "destroy", "steal", "discard"}
#: ops an event, ability or reaction may have; an attachment's; a site's passives.
ACTION_OPS = {
    "damage", "damage_each", "kill", "kill_everywhere", "destroy", "steal", "gain", "actions",
    "draw", "repair", "recover", "sacrifice", "discard", "relocate", "cancel",
}  # fmt: skip
ATTACHMENT_OPS = {"integrity", "fortify", "disable", "decay"}
PASSIVE_OPS = {"start_gain", "start_actions", "upgrade_discount"}
NO_AMOUNT = {"destroy", "relocate", "cancel", "fortify", "disable"}

#: Docs: draw causes; discard origins; end reasons.
SETUP_DRAW, MOVE_DRAW, EFFECT_DRAW = 0, 1, 2
FROM_HAND, FROM_PLAY = 0, 1
WIPEOUT, STACKS, TURN_CAP = 0, 1, 2

#: Field names of each event (Docs, Trace format), for readable messages.
FIELDS = {
    "setup": ("first", "supply", "pool", "fingerprint"),
    "draw": ("seat", "card", "level", "cause"),
    "turn": ("seat", "turn", "actions"),
    "move": ("seat", "move", "a", "b", "paid", "left"),
    "response": ("seat", "kind", "source", "ability", "trigger"),
    "effect": ("seat", "source", "op", "n"),
    "place": ("seat", "site", "followers", "from"),
    "damage": ("site", "owner", "damage", "counters", "killed"),
    "kill": ("site", "owner", "killed"),
    "destroy": ("site", "owner", "killed", "counters"),
    "discard": ("card", "seat", "from"),
    "attach": ("attachment", "site", "seat"),
    "arrange": ("seat", "site", "followers"),
    "repair": ("site", "owner", "removed"),
    "recover": ("seat", "card"),
    "cancel": ("seat",),
    "end_turn": ("seat", "left"),
    "snapshot": ("seat", "level", "followers", "hand", "sites", "counters"),
    "table": ("supply", "pool", "discard", "stack1", "stack2", "stack3", "stack4"),
    "end": ("winner", "turns", "truncated", "reason"),
    "target": ("seat", "source", "effect", "site"),
}


def describe_row(row, names: dict[int, str] | None = None) -> str:
    """One trace row as ``name(field=value, ...)``, with moves, ops and card names spelled out."""
    row = tuple(int(x) for x in row)
    if not 0 <= row[0] < len(EVENT_NAMES):
        return f"unknown event {list(row)}"
    name = EVENT_NAMES[row[0]]
    keys = FIELDS[name]
    parts = []
    for key, value in zip(keys, row[1:], strict=False):
        text = str(value)
        if key == "move" and 0 <= value < len(MOVES):
            text = MOVES[value]
        elif key == "op" and 0 <= value < len(OPS):
            text = OPS[value]
        elif key == "trigger" and 0 < value < len(TRIGGERS):
            text = TRIGGERS[value]
        elif names and key in ("card", "source", "site", "attachment") and value in names:
            text = f"{value}:{names[value]}"
        parts.append(f"{key}={text}")
    extra = row[1 + len(keys) :]
    if any(extra):
        parts.append(f"extra={list(extra)}")
    return f"{name}({', '.join(parts)})"


# --- the card file ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """One ``"op n"`` of the card file (Docs, Effect vocabulary); ``n`` is 1 for ops without one."""

    op: str
    n: int

    @classmethod
    def parse(cls, text: str, allowed: set[str]) -> Effect:
        parts = text.split()
        assert parts and parts[0] in allowed, f"effect {text!r} is not one of {sorted(allowed)}"
        if parts[0] in NO_AMOUNT:
            assert len(parts) == 1, f"effect {text!r} takes no number"
            return cls(parts[0], 1)
        assert len(parts) == 2, f"effect {text!r} needs one number"
        return cls(parts[0], int(parts[1]))

    @property
    def code(self) -> int:
        return OPS.index(self.op)


@dataclass(frozen=True)
class Ability:
    """Rulebook, Sites: "Most abilities require that a minimum number of followers are on the site
    before the ability can be activated. To activate some abilities, you have to spend actions"."""

    followers: int
    cost: int
    infinite: bool
    trigger: str  # "" unless an infinite ability that answers the opponent's moves
    effects: tuple[Effect, ...]

    @property
    def harmful(self) -> bool:
        return any(e.op in HARMFUL for e in self.effects)


@dataclass(frozen=True)
class Card:
    """A card of the set: a level card (ids 0..n-1 in file order) or a Homeland (64, 65)."""

    id: int
    name: str
    level: int  # 0 for a Homeland
    type: str  # site, event, attachment, reaction
    cost: int = 0
    integrity: int = 0
    fortified: bool = False
    trigger: str = ""  # reactions
    effects: tuple[Effect, ...] = ()  # events, attachments, reactions
    passives: tuple[Effect, ...] = ()  # sites
    abilities: tuple[Ability, ...] = ()  # sites

    @property
    def harmful(self) -> bool:
        """Docs: "An attack is playing an event whose effects include a harmful op"."""
        return any(e.op in HARMFUL for e in self.effects)

    @property
    def is_homeland(self) -> bool:
        return self.id in HOMELAND_IDS


def load_card_set(path_text: str) -> dict[int, Card]:
    """Read a card file (Docs, The card file) into ``{card id: Card}``; "" is the shipped set."""
    path = Path(path_text) if path_text else SHIPPED_CARDS
    data = tomllib.loads(path.read_text())
    cards = {}
    for card_id, entry in enumerate(data["card"]):
        cards[card_id] = _card(card_id, entry)
    for seat, card_id in enumerate(HOMELAND_IDS):
        homeland = dict(data["homeland"], level=0, type="site", cost=0)
        homeland.setdefault("name", "Homeland")
        homeland["name"] = f"{homeland['name']} of seat {seat}"
        cards[card_id] = _card(card_id, homeland)
    return cards


def _card(card_id: int, entry: dict) -> Card:
    kind = entry["type"]
    if kind == "site":
        abilities = tuple(
            Ability(
                followers=int(a.get("followers", 0)),
                cost=int(a.get("cost", 0)),
                infinite=bool(a.get("infinite", False)),
                trigger=str(a.get("trigger", "")),
                effects=tuple(Effect.parse(t, ACTION_OPS) for t in a["effects"]),
            )
            for a in entry.get("abilities", [])
        )
        return Card(
            card_id,
            entry["name"],
            int(entry["level"]),
            kind,
            cost=int(entry.get("cost", 0)),
            integrity=int(entry["integrity"]),
            fortified=bool(entry.get("fortified", False)),
            passives=tuple(Effect.parse(t, PASSIVE_OPS) for t in entry.get("passives", [])),
            abilities=abilities,
        )
    allowed = ATTACHMENT_OPS if kind == "attachment" else ACTION_OPS
    return Card(
        card_id,
        entry["name"],
        int(entry["level"]),
        kind,
        cost=int(entry.get("cost", 0)),
        trigger=str(entry.get("trigger", "")),
        effects=tuple(Effect.parse(t, allowed) for t in entry["effects"]),
    )


# --- rules and state --------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The rule parameters (Docs, Rule parameters) the referee needs, read from a spec dict."""

    cards: str
    first_turn_actions: int
    actions_per_turn: int
    starting_followers: int
    followers: int
    hand_size: int
    upgrade_costs: tuple[int, int, int]  # from I, II, III
    damage_counters: int
    stacks_to_end: int
    first_player: str
    max_turns: int
    attack_targets: str
    # House rules (Docs, House rules): 0 for a limit means none.
    draw_cost: int
    gain_cost: int
    relocate_cost: int
    draws_per_turn: int
    hand_limit: int
    max_level: int
    site_limit: int
    attachments_per_site: int
    allowed: frozenset[str]  # the card types that may be played (sites_allowed, ...)
    attach_to_opponent: bool
    damage_kills: bool
    level_tiebreak: bool
    draw_lower_levels: bool
    abilities_on_turn_played: bool

    @classmethod
    def from_dict(cls, rules: dict) -> Rules:
        ints = (
            "first_turn_actions actions_per_turn starting_followers followers hand_size "
            "damage_counters stacks_to_end max_turns draw_cost gain_cost relocate_cost "
            "draws_per_turn hand_limit max_level site_limit attachments_per_site"
        ).split()
        values = {name: int(rules[name]) for name in ints}
        kinds = ("site", "event", "attachment", "reaction")
        values["allowed"] = frozenset(k for k in kinds if bool(rules[f"{k}s_allowed"]))
        switches = (
            "attach_to_opponent damage_kills level_tiebreak draw_lower_levels "
            "abilities_on_turn_played"
        ).split()
        for name in switches:
            values[name] = bool(rules[name])
        values["upgrade_costs"] = tuple(int(rules[f"upgrade_cost_{k}"]) for k in (2, 3, 4))
        values["cards"] = str(rules["cards"])
        values["first_player"] = str(rules["first_player"])
        assert values["first_player"] in ("seat0", "random"), rules["first_player"]
        values["attack_targets"] = str(rules["attack_targets"])
        assert values["attack_targets"] in ("declared", "on_resolution"), rules["attack_targets"]
        return cls(**values)


@dataclass
class Site:
    """A site in play. Rulebook, Sites: "Sites are played face up and remain in play until
    destroyed"; followers are placed on them; damage counters go on them."""

    card: Card
    owner: int
    followers: int = 0
    damage: int = 0
    attachments: list[int] = field(default_factory=list)  # attachment card ids
    used: bool = False  # a once-per-turn ability was used this turn
    responded: set[int] = field(default_factory=set)  # triggered abilities used in this window
    entered: int = 0  # Table.turns when it came into play (0: before the first turn)


@dataclass
class Player:
    """A seat: level marker, hand and sites in play (in the order played, Homeland first)."""

    seat: int
    level: int = 1
    hand: list[int] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)

    @property
    def followers(self) -> int:
        return sum(site.followers for site in self.sites)


@dataclass
class Table:
    """The whole public and hidden state of a game, as the referee sees it."""

    cards: dict[int, Card]
    supply: int
    pool: int
    stacks: dict[int, list[int]]  # level -> the cards still in that stack (order not traced)
    players: list[Player]
    discard: list[int] = field(default_factory=list)  # the common discard pile, oldest first
    gone: list[int] = field(default_factory=list)  # destroyed Homelands
    attached: dict[int, tuple[int, int]] = field(default_factory=dict)  # card -> (site, owner)
    first: int = 0
    active: int = 0
    actions: int = 0
    turns: int = 0
    draws_made: int = 0  # draw moves of the player on turn this turn
    winner: int | None = None
    reason: int | None = None
    truncated: bool = False
    resolving: list[int] = field(default_factory=list)  # played cards not yet discarded
    #: chance events, for statistical tests: (the options, the outcome)
    draws: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    random_discards: list[tuple[tuple[int, ...], int]] = field(default_factory=list)
    #: situations met (for the sweep's coverage test)
    seen: Counter = field(default_factory=Counter)

    def site(self, card_id: int) -> Site | None:
        """The site in play with this card id, None if it is not in play."""
        for player in self.players:
            for site in player.sites:
                if site.card.id == card_id:
                    return site
        return None

    def over(self) -> bool:
        """Rulebook, Game End: "One player loses all of his or her followers"."""
        return any(p.followers == 0 for p in self.players)

    def integrity(self, site: Site) -> int:
        """Rulebook: integrity "is displayed on a shield"; Docs: "the card's plus its
        attachments' ``integrity`` effects"."""
        return site.card.integrity + sum(
            e.n for a in site.attachments for e in self.cards[a].effects if e.op == "integrity"
        )

    def fortified(self, site: Site) -> bool:
        """Rulebook: "Some sites are FORTIFIED"; Docs: by its card or a ``fortify`` attachment."""
        return site.card.fortified or any(
            e.op == "fortify" for a in site.attachments for e in self.cards[a].effects
        )

    def disabled(self, site: Site) -> bool:
        """Docs: ``disable``: "the site's abilities cannot be used and its passives do not
        apply"."""
        return any(e.op == "disable" for a in site.attachments for e in self.cards[a].effects)

    def empty_stacks(self) -> int:
        return sum(1 for level in range(1, N_LEVELS + 1) if not self.stacks[level])

    def drawable(self, seat: int, lower_levels: bool) -> list[int]:
        """Rulebook: "DRAW A CARD from a stack of a level equal to or less than your current
        level" (Docs: not from an empty stack; ``draw_lower_levels`` off: only your level)."""
        level = self.players[seat].level
        lowest = 1 if lower_levels else level
        return [lv for lv in range(lowest, level + 1) if self.stacks[lv]]


class Trace(TraceCursor):
    """The shared trace cursor, describing cards by the set's names."""

    def __init__(self, rows, game_label: str, names: dict[int, str]):
        super().__init__(
            rows, game_label, "Time Barons", EVENT_NAMES, lambda row: describe_row(row, names)
        )


class GameOver(Exception):
    """Docs: "A player who has no follower left loses at once, whatever is being resolved (the
    rest of the move and of the turn is skipped)"."""


class Referee:
    """Replays one game of Time Barons from its trace, enforcing the rulebook event by event."""

    def __init__(self, rules: dict, game_label: str = "", fingerprint: int | None = None):
        self.rules = Rules.from_dict(rules)
        self.cards = load_card_set(self.rules.cards)
        self.label = game_label
        self.fingerprint = fingerprint
        self.trace: Trace | None = None
        self.table: Table | None = None
        self.cancelled = False
        self.attacking = ""

    # --- the game ---------------------------------------------------------------------------

    def replay(self, rows) -> Table:
        """Replay a whole trace; returns the final table."""
        names = {card_id: card.name for card_id, card in self.cards.items()}
        self.trace = Trace(rows, self.label, names)
        self.setup()
        while self.table.winner is None:
            self.play_turn()
            self.end_of_turn()
            self.check_end()
        if self.trace.index != len(self.trace.rows):
            self.trace.fail("nothing after the end of the game")
        return self.table

    def setup(self) -> None:
        """Rulebook, Setup: a Homeland for each player with 10 followers (``starting_followers``)
        of 35 (``followers``), the rest forming the supply; four face-down stacks by level, each
        shuffled; each player draws 5 (``hand_size``) Level I cards (Docs: seat 0 first); level
        markers at I; "Determine randomly which player will go first" (Docs: ``first_player``:
        seat 0, or a coin per game)."""
        r = self.rules
        stacks = {level: [] for level in range(1, N_LEVELS + 1)}
        for card in self.cards.values():
            if not card.is_homeland:
                stacks[card.level].append(card.id)
        players = [Player(seat) for seat in (0, 1)]
        for seat, home in enumerate(HOMELAND_IDS):
            players[seat].sites.append(Site(self.cards[home], seat, followers=r.starting_followers))
        t = self.table = Table(
            cards=self.cards,
            supply=r.followers - 2 * r.starting_followers,
            pool=r.damage_counters,
            stacks=stacks,
            players=players,
        )
        assert t.supply >= 0, "the followers cannot fill two Homelands"
        row = self.trace.take(EV_SETUP, "the set-up")
        first = row[1] if r.first_player == "random" else 0
        self.trace.check(first in (0, 1), "a first player, seat 0 or 1")
        fingerprint = row[4] if self.fingerprint is None else self.fingerprint
        self.trace.expect(
            EV_SETUP, first, t.supply, t.pool, fingerprint, what="the set-up and the card set"
        )
        t.first = first
        t.seen[("first player", first)] += 1
        for seat in (0, 1):
            for _ in range(r.hand_size):
                self.draw(seat, 1, SETUP_DRAW, "a set-up draw of Level I")

    def play_turn(self) -> None:
        """Rulebook, Gameplay: "Each player starts their turn with 3 ACTIONS" (Docs:
        ``actions_per_turn``); "The player who starts the game only gets 2 actions on their first
        turn" (``first_turn_actions``); players alternate. Then the start of turn, the moves (as
        many as the player wants and can pay for, Docs: at most 200) and the end of the turn."""
        t, r = self.table, self.rules
        seat = t.first if t.turns == 0 else 1 - t.active
        t.active = seat
        t.actions = r.first_turn_actions if t.turns == 0 else r.actions_per_turn
        t.draws_made = 0
        self.trace.expect(EV_TURN, seat, t.turns, t.actions, what="the next turn")
        t.turns += 1
        try:
            self.start_of_turn(seat)
            moves = 0
            while self.trace.peek() == EV_MOVE:
                moves += 1
                self.trace.check(moves <= MOVE_CAP, f"at most {MOVE_CAP} moves in a turn")
                self.move(seat)
                if t.over():
                    raise GameOver
            if moves == MOVE_CAP:
                t.seen["a turn of 200 moves"] += 1
        except GameOver:
            t.seen["a player ran out of followers during a turn"] += 1

    def start_of_turn(self, seat: int) -> None:
        """Docs, A turn (convention): once-per-turn abilities are usable again; then every
        ``decay`` attachment on the player's sites does its damage (sites from the last played to
        the first, attachments by card id); then the passives of every site that is not disabled
        (``start_actions``, ``start_gain``, sites in play order)."""
        t = self.table
        player = t.players[seat]
        for site in player.sites:
            site.used = False
        for site in list(reversed(player.sites)):
            for attachment in sorted(site.attachments):
                for effect in self.cards[attachment].effects:
                    # an earlier decay may have destroyed the site (and discarded this card)
                    if effect.op != "decay" or attachment not in site.attachments:
                        continue
                    owner = t.attached[attachment][1]
                    self.trace.expect(
                        EV_EFFECT, owner, attachment, effect.code, effect.n,
                        what=f"the decay of {self.name(attachment)} on {self.name(site.card.id)}",
                    )  # fmt: skip
                    t.seen["decay"] += 1
                    self.damage(site, effect.n, "decay")
                    self.stop_if_over()
        for site in list(player.sites):
            if t.disabled(site):
                continue
            for effect in site.card.passives:
                if effect.op not in ("start_actions", "start_gain"):
                    continue
                what = f"the passive {effect.op} {effect.n} of {self.name(site.card.id)}"
                self.trace.expect(EV_EFFECT, seat, site.card.id, effect.code, effect.n, what=what)
                if effect.op == "start_actions":
                    t.actions += effect.n
                elif t.supply > 0:
                    placed = min(effect.n, t.supply)
                    self.trace.expect(EV_PLACE, seat, site.card.id, placed, -1, what=what)
                    t.supply -= placed
                    site.followers += placed

    def end_of_turn(self) -> None:
        """Docs: after every turn ``end_turn``, then a snapshot of seat 0, of seat 1 and the
        table. Conservation (Rulebook, Components: 35 followers, 20 damage counters, 52 cards) is
        self-checked on the referee's state (the kernel's is compared row by row)."""
        t = self.table
        self.trace.expect(EV_END_TURN, t.active, t.actions, what="the end of the turn")
        for p in t.players:
            counters = sum(site.damage for site in p.sites)
            self.trace.expect(
                EV_SNAPSHOT, p.seat, p.level, p.followers, len(p.hand), len(p.sites), counters,
                what=f"seat {p.seat}'s state after turn {t.turns - 1}",
            )  # fmt: skip
        stacks = [len(t.stacks[level]) for level in range(1, N_LEVELS + 1)]
        self.trace.expect(
            EV_TABLE, t.supply, t.pool, len(t.discard), *stacks, what="the table after the turn"
        )
        where = f"Time Barons referee, game {self.label!r}, after trace row {self.trace.index - 1}"
        on_sites = sum(p.followers for p in t.players)
        assert on_sites + t.supply == self.rules.followers, f"{where}: followers not conserved"
        counters = sum(site.damage for p in t.players for site in p.sites)
        assert counters + t.pool == self.rules.damage_counters, f"{where}: counters not conserved"
        places = [c for stack in t.stacks.values() for c in stack] + t.discard + t.gone
        places += [c for p in t.players for c in p.hand] + t.resolving
        places += [s.card.id for p in t.players for s in p.sites] + list(t.attached)
        assert sorted(places) == sorted(self.cards), f"{where}: a card is in two places or none"
        assert all(s.followers >= 0 and s.damage >= 0 for p in t.players for s in p.sites), where

    def check_end(self) -> None:
        """Rulebook, Game End: "One player loses all of his or her followers. The player who
        still has followers is the winner" (Docs: both without followers: a draw); "If three of
        the four card stacks have run out at the end of a player's turn, the player with the most
        followers wins. If both players have the same number of followers, victory passes to the
        player at the higher tech level. If the technology level is also the same, the game is a
        draw" (``stacks_to_end``). Docs: a game still running after ``max_turns`` turns is
        truncated."""
        t = self.table
        counts = [p.followers for p in t.players]
        levels = [p.level for p in t.players]
        if t.over():
            winner = counts.index(max(counts)) if max(counts) > 0 else -1
            self.finish(winner, WIPEOUT, "a player without followers loses")
        elif t.empty_stacks() >= self.rules.stacks_to_end:
            if counts[0] != counts[1]:
                winner = counts.index(max(counts))
            elif levels[0] != levels[1] and self.rules.level_tiebreak:
                winner = levels.index(max(levels))
                t.seen["stacks: same followers, higher level wins"] += 1
            else:
                if levels[0] != levels[1]:
                    t.seen["stacks: same followers, no level tie-break"] += 1
                winner = -1
            self.finish(winner, STACKS, "the stacks ran out: most followers, then level")
        elif t.turns >= self.rules.max_turns:
            t.truncated = True
            self.finish(-1, TURN_CAP, "the turn cap truncates the game")

    def finish(self, winner: int, reason: int, what: str) -> None:
        t = self.table
        t.seen[("end", reason, "draw" if winner == -1 else "won")] += 1
        self.trace.expect(EV_END, winner, t.turns, int(t.truncated), reason, what=what)
        t.winner, t.reason = winner, reason

    # --- moves ------------------------------------------------------------------------------

    def upgrade_cost(self, seat: int) -> int:
        """Rulebook: "Upgrading from Level I to Level II costs 2 actions", II to III 3, III to IV 4
        (``upgrade_cost_2/3/4``); Docs: less each ``upgrade_discount`` of the player's sites that
        is not disabled, never below 1."""
        t = self.table
        player = t.players[seat]
        cost = self.rules.upgrade_costs[player.level - 1]
        for site in player.sites:
            if not t.disabled(site):
                cost -= sum(e.n for e in site.card.passives if e.op == "upgrade_discount")
        return max(cost, 1)

    def ability_usable(self, seat: int, site: Site | None, index: int, trigger: str) -> bool:
        """Rulebook, Sites: abilities need their followers on the site; "the site owner can only
        activate a particular site's ability DURING THEIR TURN and ONLY ONCE PER TURN"; "You may
        ONLY CHOOSE ONE of these abilities to activate per turn"; infinite abilities "can be
        activated during any player's turn, and as many times as the owner wants". Docs: a
        triggered ability answers its trigger once per trigger; a disabled site has none."""
        t = self.table
        if site is None or site.owner != seat or t.disabled(site):
            return False
        if not 0 <= index < len(site.card.abilities):
            return False
        ability = site.card.abilities[index]
        if site.followers < ability.followers or ability.trigger != trigger:
            return False
        if trigger:
            return ability.infinite and index not in site.responded
        return ability.infinite or not site.used

    def move(self, seat: int) -> None:
        """One move of the player on turn (Rulebook, Gameplay; Docs, A turn and House rules): its
        legality (with the house rules' bans and limits), its cost, then its consequences."""
        t = self.table
        player = t.players[seat]
        row = self.trace.take(EV_MOVE, "a move")
        kind, a, b = row[2], row[3], row[4]
        self.trace.check(row[1] == seat, f"a move of seat {seat}, whose turn it is")
        card = self.cards.get(a)
        site = t.site(a)
        if kind == DRAW:
            r = self.rules
            levels = t.drawable(seat, r.draw_lower_levels)
            self.trace.check(b == -1 and a in levels, f"a draw from {levels}")
            self.trace.check(
                not r.draws_per_turn or t.draws_made < r.draws_per_turn,
                f"at most draws_per_turn={r.draws_per_turn} draw moves a turn",
            )
            self.trace.check(self.hand_has_room(seat), f"a hand below hand_limit={r.hand_limit}")
            t.draws_made += 1
            cost = r.draw_cost
        elif kind == GAIN:
            self.trace.check(
                b == -1 and t.supply > 0 and site is not None and site.owner == seat,
                f"a gain onto a site of seat {seat} from a supply of {t.supply}",
            )
            cost = self.rules.gain_cost
        elif kind == RELOCATE:
            self.trace.check((a, b) == (-1, -1) and bool(player.sites), "a relocation (-1, -1)")
            cost = self.rules.relocate_cost
        elif kind == PLAY:
            self.trace.check(
                a in player.hand and card.type != "reaction",
                f"a card from seat {seat}'s hand {player.hand}, not a reaction (Rulebook: "
                'reactions "may be played during an opponent\'s turn")',
            )
            r = self.rules
            self.trace.check(card.type in r.allowed, f"a card type the rules allow {r.allowed}")
            if card.type == "site":
                self.trace.check(
                    not r.site_limit or len(player.sites) < r.site_limit,
                    f"room for a site under site_limit={r.site_limit}",
                )
            if card.type == "attachment":
                target = t.site(b)
                self.trace.check(target is not None, "an attachment onto a site in play")
                self.trace.check(
                    r.attach_to_opponent or target.owner == seat,
                    "an attachment onto an own site (attach_to_opponent off)",
                )
                self.trace.check(
                    not r.attachments_per_site or len(target.attachments) < r.attachments_per_site,
                    f"room on the site under attachments_per_site={r.attachments_per_site}",
                )
            else:
                self.trace.check(b == -1, "no target (-1) for a card that is not an attachment")
            cost = card.cost
        elif kind == UPGRADE:
            top = min(self.rules.max_level, N_LEVELS)
            self.trace.check((a, b) == (-1, -1) and player.level < top, f"an upgrade below {top}")
            cost = self.upgrade_cost(seat)
        elif kind == ABILITY:
            self.trace.check(
                self.ability_usable(seat, site, b, ""),
                f"a usable ability of a site of seat {seat} (followers, once per turn, not "
                "triggered, not disabled)",
            )
            cost = site.card.abilities[b].cost
        else:
            self.trace.fail("a known move (draw, gain, relocate, play, upgrade, ability)")
        self.trace.check(cost <= t.actions, f"a move seat {seat} can pay ({t.actions} actions)")
        t.actions -= cost
        self.trace.expect(EV_MOVE, seat, kind, a, b, cost, t.actions, what="the move and its cost")
        t.seen[("move", MOVES[kind])] += 1
        if kind == PLAY:
            t.seen[("play", card.type)] += 1
        if kind == ABILITY and not self.rules.abilities_on_turn_played:
            self.trace.check(
                site.entered != t.turns,
                "no ability of a site played this turn (abilities_on_turn_played off)",
            )

        if kind == DRAW:
            self.draw(seat, a, MOVE_DRAW, f"seat {seat} draws from stack {a}")
        elif kind == GAIN:
            self.trace.expect(EV_PLACE, seat, a, 1, -1, what="a follower from the supply")
            t.supply -= 1
            site.followers += 1
        elif kind == RELOCATE:
            self.arrange(seat)
            self.window("relocate")
        elif kind == UPGRADE:
            player.level += 1
            self.window("upgrade")
        elif kind == PLAY:
            player.hand.remove(a)
            self.play(seat, card, b)
        elif kind == ABILITY:
            self.use_ability(seat, site, b)

    def play(self, seat: int, card: Card, target: int) -> None:
        """Rulebook, Sites / Other Card Types: a site is played face up (Docs: no followers, no
        damage; the opponent may answer); "Events take effect immediately after they are played.
        Follow the instructions on the card and then place it in the common discard pile";
        "Attachments are placed on site cards owned by either player". Docs: an event with a
        harmful op, or an attachment onto the opponent's site, is an attack answered first."""
        t = self.table
        if card.type == "site":
            t.players[seat].sites.append(Site(card, seat, entered=t.turns))
            self.window("site")
            return
        t.resolving.append(card.id)
        if card.type == "event":
            with self.then_discard(card.id, seat):
                self.attacking = "event"
                targets = self.declare(seat, card.id, card.effects) if card.harmful else None
                cancelled = self.window("attack") if card.harmful else False
                if not cancelled:
                    self.resolve(seat, card.id, card.effects, targets)
            return
        site = t.site(target)
        with self.then_discard(card.id, seat, only_if_over=True):
            self.attacking = "attachment"
            cancelled = self.window("attack") if site.owner != seat else False
        if t.site(target) is not site:
            t.seen["attachment target destroyed in the window"] += 1
        if cancelled or t.site(target) is not site:
            self.discard_played(card.id, seat)
            return
        t.resolving.remove(card.id)
        self.trace.expect(EV_ATTACH, card.id, target, seat, what=f"{card.name} attached")
        site.attachments.append(card.id)
        t.attached[card.id] = (target, seat)
        self.check_destroyed(site)

    def use_ability(self, seat: int, site: Site, index: int) -> None:
        """Rulebook, Sites: activate an ability (Docs: an ability with a harmful op is an attack;
        a cancelled ability still counts as used; an ability whose site is destroyed in the
        response window still resolves)."""
        ability = site.card.abilities[index]
        self.table.seen["infinite ability" if ability.infinite else "once-per-turn ability"] += 1
        if not ability.infinite:
            site.used = True
        self.attacking = "ability"
        targets = self.declare(seat, site.card.id, ability.effects) if ability.harmful else None
        cancelled = self.window("attack") if ability.harmful else False
        if not cancelled:
            self.resolve(seat, site.card.id, ability.effects, targets)

    def declare(self, seat: int, source: int, effects: tuple[Effect, ...]) -> list | None:
        """Docs (``attack_targets``): with "declared", an attack names the site of each damage
        and destroy effect, in effect order, before the attacked player's responses (a
        ``target`` row each, for the effects that have a candidate: any opponent site for
        damage, one that is not a Homeland for destroy); with "on_resolution" it names none and
        the sites are chosen as the effects resolve. Returns per effect the site named (-1 for
        none), or None when nothing is named."""
        if self.rules.attack_targets != "declared":
            return None
        t = self.table
        them = t.players[1 - seat]
        targets = []
        for k, effect in enumerate(effects):
            candidates = [
                s.card.id
                for s in them.sites
                if effect.op == "damage" or (effect.op == "destroy" and not s.card.is_homeland)
            ]
            if effect.op not in ("damage", "destroy") or not candidates:
                targets.append(-1)
                continue
            what = f"the site {self.name(source)} names for its {effect.op}"
            row = self.trace.take(EV_TARGET, what)
            self.trace.check(row[4] in candidates, f"one of the sites {candidates} ({what})")
            self.trace.expect(EV_TARGET, seat, source, k, row[4], what=what)
            targets.append(row[4])
            t.seen[("target named", effect.op)] += 1
        return targets

    # --- responses --------------------------------------------------------------------------

    def window(self, trigger: str) -> bool:
        """Rulebook, Reaction cards "can only be played when certain conditions are met ... may be
        played during an opponent's turn and cost zero actions. Discard them after they're
        played"; infinite abilities "can be activated during any player's turn". Docs: the other
        player answers, one response at a time, with reactions whose trigger matches or infinite
        abilities with that trigger (once each per window); no chains; a ``cancel`` stops an
        attack. Returns whether the attack was cancelled."""
        t = self.table
        seat = 1 - t.active
        player = t.players[seat]
        for site in player.sites:
            site.responded = set()
        self.cancelled = False
        code = TRIGGERS.index(trigger)
        responses = 0
        while self.trace.peek() == EV_RESPONSE:
            responses += 1
            self.trace.check(responses <= RESPONSE_CAP, f"at most {RESPONSE_CAP} responses")
            row = self.trace.take(EV_RESPONSE, "a response")
            kind, source, index = row[2], row[3], row[4]
            self.trace.check(row[1] == seat, f"a response of seat {seat}, not on turn")
            if kind == REACT:
                card = self.cards.get(source)
                self.trace.check(
                    source in player.hand and card.type == "reaction" and card.trigger == trigger
                    and index == -1 and "reaction" in self.rules.allowed,
                    f"a reaction to {trigger} from seat {seat}'s hand {player.hand}",
                )  # fmt: skip
                self.trace.expect(EV_RESPONSE, seat, REACT, source, -1, code, what="the reaction")
                t.seen[("reaction", trigger)] += 1
                player.hand.remove(source)
                t.resolving.append(source)
                with self.then_discard(source, seat):
                    self.resolve(seat, source, card.effects)
            elif kind == TRIGGERED:
                site = t.site(source)
                self.trace.check(
                    self.ability_usable(seat, site, index, trigger),
                    f"an infinite ability of seat {seat}'s site with trigger {trigger}, its "
                    "followers, once per trigger",
                )
                self.trace.expect(
                    EV_RESPONSE, seat, TRIGGERED, source, index, code, what="the triggered ability"
                )
                site.responded.add(index)
                t.seen[("triggered ability", trigger)] += 1
                self.resolve(seat, source, site.card.abilities[index].effects)
            else:
                self.trace.fail("a reaction (1) or a triggered ability (2)")
        cancelled = self.cancelled and trigger == "attack"
        self.cancelled = False
        if cancelled:
            self.trace.expect(EV_CANCEL, t.active, what="the cancelled attack")
            t.seen[("cancelled", self.attacking)] += 1
        return cancelled

    # --- effects ----------------------------------------------------------------------------

    def stop_if_over(self) -> None:
        if self.table.over():
            raise GameOver

    def resolve(
        self, seat: int, source: int, effects: tuple[Effect, ...], targets: list | None = None
    ) -> None:
        """Docs: a card's effects resolve in order, each an ``effect`` row then its consequences;
        the owner of the card or site makes every choice (Rulebook: "THE OWNER OF A PARTICULAR
        CARD MAKES ALL CHOICES"); ``targets``: the sites the attack named (``declare``)."""
        for k, effect in enumerate(effects):
            what = f"{self.name(source)}: {effect.op} {effect.n}"
            self.trace.expect(EV_EFFECT, seat, source, effect.code, effect.n, what=what)
            self.table.seen[("op", effect.op)] += 1
            if targets is not None and effect.op in ("damage", "destroy"):
                self.hit_named(seat, effect, targets[k], what)
            else:
                self.apply(seat, effect, what)
            self.stop_if_over()

    def hit_named(self, seat: int, effect: Effect, target: int, what: str) -> None:
        """Docs (``attack_targets`` = "declared"): a damage or destroy effect hits the site its
        attack named, if that site is still in play under the opponent; otherwise (it left
        play, or none was named) it does nothing."""
        site = self.table.site(target)
        if site is None or site.owner == seat:
            if target >= 0:
                self.table.seen["a named site is gone at resolution"] += 1
            return
        if effect.op == "damage":
            self.damage(site, effect.n, what)
        else:
            self.destroy(site, what)

    def apply(self, seat: int, effect: Effect, what: str) -> None:
        """Docs, Effect vocabulary: what each op does ("you" = ``seat``)."""
        t = self.table
        me, them = t.players[seat], t.players[1 - seat]
        op, n = effect.op, effect.n
        if op == "damage":
            # "n damage to one opponent site" (Docs: an effect without a target does nothing)
            if them.sites:
                row = self.trace.take(EV_DAMAGE, what)
                site = t.site(row[1])
                self.trace.check(site in them.sites, f"a site of the opponent (seat {them.seat})")
                self.damage(site, n, what)
        elif op == "damage_each":
            # "n damage to every opponent site" (Docs: from the last played to the first).
            # Rulebook: damage goes "only at one site at a time": a player left without
            # followers loses at once (Docs), before the next site is damaged.
            for site in list(reversed(them.sites)):
                if site in them.sites:
                    self.damage(site, n, what)
                    self.stop_if_over()
        elif op == "kill":
            # "kill n opponent followers, one at a time, from sites you choose"
            for _ in range(min(n, them.followers)):
                self.kill_one(them, what)
        elif op == "kill_everywhere":
            # "kill n followers on every site in play, both players' (yours first)", all at
            # once (Docs: "if neither has followers (e.g. a plague), it is a draw")
            for player in (me, them):
                for site in list(player.sites):
                    killed = min(n, site.followers)
                    if killed:
                        self.trace.expect(EV_KILL, site.card.id, site.owner, killed, what=what)
                        site.followers -= killed
                        t.supply += killed
        elif op == "destroy":
            # "destroy one opponent site that is not a Homeland"
            if any(not s.card.is_homeland for s in them.sites):
                row = self.trace.take(EV_DESTROY, what)
                site = t.site(row[1])
                self.trace.check(
                    site in them.sites and not site.card.is_homeland,
                    f"an opponent site that is not a Homeland ({what})",
                )
                self.destroy(site, what)
        elif op == "steal":
            # "move n opponent followers, one at a time, from their sites to yours"
            for _ in range(min(n, them.followers)):
                row = self.trace.take(EV_PLACE, what)
                to, source = t.site(row[2]), t.site(row[4])
                self.trace.check(
                    to in me.sites and source in them.sites and source.followers > 0,
                    f"a follower moved from an opponent site to a site of seat {seat}",
                )
                self.trace.expect(EV_PLACE, seat, to.card.id, 1, source.card.id, what=what)
                source.followers -= 1
                to.followers += 1
        elif op == "gain":
            # "n followers from the supply onto your sites (what the supply has)"
            for _ in range(min(n, t.supply)):
                row = self.trace.take(EV_PLACE, what)
                to = t.site(row[2])
                self.trace.check(to in me.sites, f"a site of seat {seat} for the new follower")
                self.trace.expect(EV_PLACE, seat, to.card.id, 1, -1, what=what)
                t.supply -= 1
                to.followers += 1
        elif op == "actions":
            # "n more actions this turn (lost when it is not your turn)"
            if seat == t.active:
                t.actions += n
        elif op == "draw":
            # "draw n cards, each from a stack of a level <= yours"
            for _ in range(n):
                levels = t.drawable(seat, self.rules.draw_lower_levels)
                if not levels or not self.hand_has_room(seat):
                    break
                row = self.trace.take(EV_DRAW, what)
                self.trace.check(row[3] in levels, f"a draw from one of the stacks {levels}")
                self.draw(seat, row[3], EFFECT_DRAW, what)
        elif op == "repair":
            # "remove n damage counters from your sites (back to the pool)"
            for _ in range(min(n, sum(s.damage for s in me.sites))):
                row = self.trace.take(EV_REPAIR, what)
                site = t.site(row[1])
                self.trace.check(site in me.sites and site.damage > 0, "a damaged site of yours")
                self.trace.expect(EV_REPAIR, site.card.id, seat, 1, what=what)
                site.damage -= 1
                t.pool += 1
        elif op == "recover":
            # "take n cards from the discard pile into your hand"
            # (Docs, ``hand_limit``: none once the hand is full)
            for _ in range(min(n, len(t.discard))):
                if not self.hand_has_room(seat):
                    break
                row = self.trace.take(EV_RECOVER, what)
                self.trace.check(row[2] in t.discard, f"a card of the discard pile {t.discard}")
                self.trace.expect(EV_RECOVER, seat, row[2], what=what)
                t.discard.remove(row[2])
                me.hand.append(row[2])
        elif op == "sacrifice":
            # Rulebook: "To SACRIFICE a follower is to kill a follower you own."
            for _ in range(min(n, me.followers)):
                self.kill_one(me, what)
        elif op == "discard":
            # "the opponent discards n random cards from its hand"
            for _ in range(min(n, len(them.hand))):
                row = self.trace.take(EV_DISCARD, what)
                card = row[1]
                self.trace.check(card in them.hand, f"a card of seat {them.seat}'s hand")
                t.random_discards.append((tuple(them.hand), card))
                self.trace.expect(EV_DISCARD, card, them.seat, FROM_HAND, what=what)
                them.hand.remove(card)
                t.discard.append(card)
        elif op == "relocate":
            # "a free relocation of your followers (no trigger)"
            self.arrange(seat)
        elif op == "cancel":
            # "the attack being answered has no effect"
            self.cancelled = True
        else:
            raise AssertionError(f"the referee does not know the op {op!r}")

    # --- damage and destruction -------------------------------------------------------------

    def damage(self, site: Site, n: int, what: str) -> None:
        """Rulebook: "DO DAMAGE to a site by killing followers on the site (if any are present),
        and placing damage tokens on the site"; "Damage done to a fortified site does not kill
        the followers on it unless the site is destroyed". Docs (``damage_counters``): place
        what the pool has; the kills still happen; ``damage_kills`` off: no kills at all."""
        t = self.table
        kills = self.rules.damage_kills and not t.fortified(site)
        killed = min(n, site.followers) if kills else 0
        counters = min(n, t.pool)
        self.trace.expect(
            EV_DAMAGE, site.card.id, site.owner, n, counters, killed, what=f"damage ({what})"
        )
        site.followers -= killed
        t.supply += killed
        site.damage += counters
        t.pool -= counters
        if counters < n:
            t.seen["damage with too few counters"] += 1
        if t.fortified(site) and site.followers:
            t.seen["damage to a fortified site with followers"] += 1
        self.check_destroyed(site)

    def check_destroyed(self, site: Site) -> None:
        """Rulebook: "A site is DESTROYED when the number of damage counters on it equals or
        exceeds its integrity" (Docs: at once, also when an attachment lowers the integrity)."""
        if site.damage >= self.table.integrity(site):
            self.table.seen["destroyed by counters"] += 1
            if self.table.integrity(site) < site.card.integrity:
                self.table.seen["destroyed with lowered integrity"] += 1
            self.destroy(site, "its counters reach its integrity")

    def destroy(self, site: Site, what: str) -> None:
        """Rulebook: "When a site is destroyed, all the followers on the site are killed and
        returned to the supply. The site is discarded"; "If a site with an attachment on it is
        destroyed, discard the attachment as well". Docs: its counters return to the pool;
        attachments are discarded by card id; a destroyed Homeland leaves the game."""
        t = self.table
        self.trace.expect(
            EV_DESTROY, site.card.id, site.owner, site.followers, site.damage,
            what=f"{self.name(site.card.id)} destroyed ({what})",
        )  # fmt: skip
        t.supply += site.followers
        t.pool += site.damage
        site.followers = site.damage = 0
        t.players[site.owner].sites.remove(site)
        if site.attachments:
            t.seen["destroyed with attachments"] += 1
        for attachment in sorted(site.attachments):
            owner = t.attached.pop(attachment)[1]
            self.trace.expect(
                EV_DISCARD, attachment, owner, FROM_PLAY, what="an attachment of a destroyed site"
            )
            t.discard.append(attachment)
        site.attachments = []
        if site.card.is_homeland:
            t.seen["a Homeland destroyed"] += 1
            t.gone.append(site.card.id)
        else:
            self.trace.expect(
                EV_DISCARD, site.card.id, site.owner, FROM_PLAY, what="the destroyed site"
            )
            t.discard.append(site.card.id)

    def kill_one(self, victim: Player, what: str) -> None:
        """Rulebook: "KILL a follower by returning it to the supply" (the card's owner chooses
        the site, among the victim's sites with followers)."""
        t = self.table
        row = self.trace.take(EV_KILL, what)
        site = t.site(row[1])
        self.trace.check(
            site in victim.sites and site.followers > 0,
            f"a site of seat {victim.seat} with followers ({what})",
        )
        self.trace.expect(EV_KILL, site.card.id, victim.seat, 1, what=what)
        site.followers -= 1
        t.supply += 1

    # --- cards and followers ----------------------------------------------------------------

    def draw(self, seat: int, level: int, cause: int, what: str) -> None:
        """Rulebook: draw the top card of a shuffled stack: any card still in that stack."""
        t = self.table
        row = self.trace.take(EV_DRAW, what)
        card = row[2]
        stack = t.stacks[level]
        self.trace.check(card in stack, f"a card of stack {level} {sorted(stack)} ({what})")
        t.draws.append((tuple(stack), card))
        self.trace.expect(EV_DRAW, seat, card, level, cause, what=what)
        stack.remove(card)
        t.players[seat].hand.append(card)

    def discard_played(self, card: int, seat: int) -> None:
        """Rulebook: events are placed "in the common discard pile" after they take effect,
        reactions are discarded "after they're played" (Docs: also a cancelled attachment, or one
        whose site was destroyed meanwhile)."""
        t = self.table
        self.trace.expect(EV_DISCARD, card, seat, FROM_PLAY, what=f"{self.name(card)} discarded")
        t.resolving.remove(card)
        t.discard.append(card)

    @contextmanager
    def then_discard(self, card: int, seat: int, only_if_over: bool = False):
        """Rulebook: a played event or reaction goes to the discard pile after it is played.
        Docs: when a player runs out of followers the rest of the resolution is skipped, but the
        card that was being played still reaches the discard pile (it has left the hand)."""
        try:
            yield
        except GameOver:
            self.table.seen["a played card discarded after the game was decided"] += 1
            self.discard_played(card, seat)
            raise
        if not only_if_over:
            self.discard_played(card, seat)

    def arrange(self, seat: int) -> None:
        """Rulebook: "RELOCATE. Pick up any number of your followers from any number of your sites
        and redistribute them across your sites in any new arrangement you want." Docs: one
        ``arrange`` row per site of the seat, in play order."""
        player = self.table.players[seat]
        total = player.followers
        counts = []
        for site in player.sites:
            row = self.trace.take(EV_ARRANGE, f"seat {seat} arranges {self.name(site.card.id)}")
            self.trace.check(
                row[1] == seat and row[2] == site.card.id and row[3] >= 0,
                f"arrange(seat={seat}, site={site.card.id}, followers >= 0), sites in play order",
            )
            counts.append(row[3])
            if len(counts) == len(player.sites):
                self.trace.check(
                    sum(counts) == total, f"the {total} followers of seat {seat}, no more, no less"
                )
            self.trace.expect(EV_ARRANGE, seat, site.card.id, row[3], what="the arrangement")
        for site, count in zip(player.sites, counts, strict=True):
            site.followers = count

    def hand_has_room(self, seat: int) -> bool:
        """Docs, ``hand_limit``: a draw (move or effect) or a recover needs a hand below it."""
        limit = self.rules.hand_limit
        return not limit or len(self.table.players[seat].hand) < limit

    def name(self, card_id: int) -> str:
        card = self.cards.get(card_id)
        return card.name if card else f"card {card_id}"


def replay(trace_rows, rules: dict, game_label: str = "", fingerprint: int | None = None):
    """Replay one kernel trace against the rulebook; AssertionError on any disagreement."""
    return Referee(rules, game_label, fingerprint).replay(trace_rows)
