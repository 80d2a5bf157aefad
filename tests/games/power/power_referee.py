"""A slow, readable, independent referee for POWER that replays kernel traces.

The referee is a second implementation of the rules in ``/work/shared/rules/power.md`` (quoted
as "Rulebook: ...") plus the project's conventions where the rulebook is silent (quoted as
"Convention: ..."). It shares nothing with the numba kernel except the event and character
codes of ``simcore.games.power.state``; every rule below was written from the rulebook.

How a replay works. The trace holds two kinds of facts:

* decisions and chance (which action, who challenges, who blocks claiming what, which card a
  player reveals, which cards an exchange keeps, which card was dealt or drawn). The referee
  takes them from the trace and checks that each one is *legal* (a drawn card must be in the
  deck, a challenger must be alive and not the claimant, a blocker must be eligible, ...);
* consequences (whose turn it is, whether the overthrow is forced, what an action costs, whether
  a challenged claim is proven, who loses an influence, every coin amount, refunds,
  eliminations, every snapshot, the end of the game). The referee computes them itself and
  asserts that the kernel's next event is exactly the one the rules require.

Any disagreement raises ``AssertionError`` naming the game, the trace row index, what the rules
expected and what the kernel wrote.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from simcore.games.power.state import (
    ACTIONS,
    AID,
    BANKER,
    CEO,
    CHARACTERS,
    EV_ACTION,
    EV_BLOCK,
    EV_CHALLENGE,
    EV_DEAL,
    EV_ELIMINATED,
    EV_END,
    EV_EXCHANGE,
    EV_GAIN,
    EV_LOSE,
    EV_REFUND,
    EV_REPLACE,
    EV_SNAPSHOT,
    EV_TURN,
    EVENT_NAMES,
    EXCHANGE,
    FIRE,
    INCOME,
    JOURNALIST,
    LAWYER,
    N_ACTIONS,
    N_CHARACTERS,
    OVERTHROW,
    POLITICIAN,
    STEAL,
)
from tests.trace_cursor import TraceCursor

BANK = 3  # the Banker's action; spelled out so that the table below reads as the rulebook
NO_CARD = -1

#: Rulebook, "Character Actions": the character each action claims (None: a general action).
CLAIMED_CHARACTER = {
    INCOME: None,
    AID: None,
    OVERTHROW: None,
    BANK: BANKER,
    FIRE: CEO,
    STEAL: POLITICIAN,
    EXCHANGE: JOURNALIST,
}
#: Actions aimed at another player (overthrow, fire, steal).
TARGETED = {OVERTHROW, FIRE, STEAL}
#: Rulebook, "Blocking Actions": which characters may block which action.
BLOCKERS = {AID: (BANKER,), FIRE: (LAWYER,), STEAL: (POLITICIAN, JOURNALIST)}
#: House rules (issue 42): the rule switching each action off (Aid, and each character's).
ABILITY_SWITCH = {
    AID: "aid_allowed",
    BANK: "banker_takes",
    FIRE: "ceo_fires",
    STEAL: "politician_steals",
    EXCHANGE: "journalist_exchanges",
}
#: House rules (issue 42): the rule switching each (action, blocking character) off.
BLOCK_SWITCH = {
    (AID, BANKER): "banker_blocks_aid",
    (FIRE, LAWYER): "lawyer_blocks_fire",
    (STEAL, POLITICIAN): "politician_blocks_steal",
    (STEAL, JOURNALIST): "journalist_blocks_steal",
}

#: Field names of each event, for readable messages.
FIELDS = {
    "deal": ("seat", "card0", "card1"),
    "turn": ("seat", "coins", "forced"),
    "action": ("seat", "action", "target", "paid"),
    "challenge": ("challenger", "claimant", "character", "proven"),
    "block": ("blocker", "character", "actor"),
    "replace": ("seat", "slot", "shown", "drawn"),
    "lose": ("seat", "slot", "revealed"),
    "exchange": ("seat", "n_drawn", "drawn0", "drawn1", "new0", "new1"),
    "gain": ("seat", "source", "amount"),
    "refund": ("seat", "amount"),
    "eliminated": ("seat", "returned"),
    "snapshot": ("seat", "coins", "card0", "card1", "down0", "down1", "safe"),
    "end": ("winner", "turns", "truncated"),
}
CARD_FIELDS = {"card0", "card1", "character", "shown", "drawn", "revealed", "drawn0", "drawn1"}
CARD_FIELDS |= {"new0", "new1"}


def describe_row(row) -> str:
    """One trace row as ``name(field=value, ...)``, with character and action names spelled out."""
    row = tuple(int(x) for x in row)
    if not 0 <= row[0] < len(EVENT_NAMES):
        return f"unknown event {list(row)}"
    name = EVENT_NAMES[row[0]]
    names = FIELDS[name]
    parts = []
    for key, value in zip(names, row[1:], strict=False):
        if key in CARD_FIELDS and 0 <= value < N_CHARACTERS:
            parts.append(f"{key}={CHARACTERS[value]}")
        elif key == "action" and 0 <= value < N_ACTIONS:
            parts.append(f"{key}={ACTIONS[value]}")
        else:
            parts.append(f"{key}={value}")
    extra = [v for v in row[1 + len(names) :] if v != 0]
    if extra:
        parts.append(f"extra={list(row[1 + len(names) :])}")
    return f"{name}({', '.join(parts)})"


@dataclass(frozen=True)
class Rules:
    """The rule parameters (``simcore.games.power.game.RULES``) the referee needs, read from a spec
    dict."""

    starting_coins: int
    safe_size: int
    overthrow_cost: int
    forced_overthrow_at: int
    ceo_cost: int
    banker_take: int
    income: int
    aid: int
    steal: int
    refund_failed_action: bool
    copies_per_character: int
    eliminated_coins_to_safe: bool
    challenge_order: str
    max_turns: int
    #: the names in ``ABILITY_SWITCH`` and ``BLOCK_SWITCH`` that are switched off
    switched_off: frozenset[str]
    caught_bluffer_loses: int
    failed_challenger_loses: int
    proven_card_replaced: bool
    exchange_draws: int
    blocks_challengeable: bool

    @classmethod
    def from_dict(cls, rules: dict) -> Rules:
        ints = (
            "starting_coins safe_size overthrow_cost forced_overthrow_at ceo_cost banker_take "
            "income aid steal copies_per_character max_turns caught_bluffer_loses "
            "failed_challenger_loses exchange_draws"
        ).split()
        values = {name: int(rules[name]) for name in ints}
        values["refund_failed_action"] = bool(rules["refund_failed_action"])
        values["eliminated_coins_to_safe"] = bool(rules["eliminated_coins_to_safe"])
        values["proven_card_replaced"] = bool(rules["proven_card_replaced"])
        values["blocks_challengeable"] = bool(rules["blocks_challengeable"])
        switches = (*ABILITY_SWITCH.values(), *BLOCK_SWITCH.values())
        values["switched_off"] = frozenset(name for name in switches if not bool(rules[name]))
        values["challenge_order"] = str(rules["challenge_order"])
        assert values["challenge_order"] in ("clockwise", "random"), rules["challenge_order"]
        return cls(**values)


@dataclass
class Player:
    """A seat: its Dollars and its two influence cards (face down until lost)."""

    coins: int
    cards: list[int] = field(default_factory=lambda: [NO_CARD, NO_CARD])
    down: list[bool] = field(default_factory=lambda: [False, False])

    @property
    def influence(self) -> int:
        """Rulebook: "Each player starts with two influence cards, kept face down"."""
        return sum(self.down)

    @property
    def alive(self) -> bool:
        """Rulebook, Winning: a player is in the game while it has a face-down card."""
        return self.influence > 0

    def down_slots(self) -> list[int]:
        return [slot for slot in (0, 1) if self.down[slot]]

    def holds(self, character: int) -> bool:
        """Rulebook, Challenging: a claim is proven by "that character is one of their
        face-down cards"."""
        return any(self.cards[slot] == character for slot in self.down_slots())


@dataclass
class Table:
    """The whole public and hidden state of a game, as the referee sees it."""

    safe: int
    deck: list[int]  # copies of each character in the deck
    players: list[Player]
    turns: int = 0
    last_seat: int | None = None  # seat of the latest turn
    winner: int | None = None
    truncated: bool = False
    #: every random draw: (the deck's counts before it, the card drawn), for statistical tests
    draws: list[tuple[tuple[int, ...], int]] = field(default_factory=list)

    def alive_seats(self) -> list[int]:
        return [seat for seat, p in enumerate(self.players) if p.alive]


class Trace(TraceCursor):
    def __init__(self, rows, game_label: str):
        super().__init__(rows, game_label, "POWER", EVENT_NAMES, describe_row)


class Referee:
    """Replays one game of POWER from its trace, enforcing the rulebook turn by turn."""

    def __init__(
        self,
        rules: dict,
        players: int,
        game_label: str = "",
    ):
        assert 3 <= players <= 6, "Rulebook, Set up: this game can be played with 3-6 players"
        self.rules = Rules.from_dict(rules)
        self.n = players
        self.label = game_label
        self.trace: Trace | None = None
        self.table: Table | None = None

    # --- the game ---------------------------------------------------------------------------

    def replay(self, rows) -> Table:
        """Replay a whole trace; returns the final table."""
        self.trace = Trace(rows, self.label)
        self.setup()
        while self.table.winner is None and not self.table.truncated:
            self.play_turn()
            self.snapshots()
            self.check_end()
        if self.trace.index != len(self.trace.rows):
            self.trace.fail("nothing after the end of the game")
        return self.table

    def setup(self) -> None:
        """Rulebook, Set up: shuffle, deal 2 cards to each player, then each takes 2 Dollars
        (Convention: ``starting_coins``) from the Safe (``safe_size`` Dollars in all)."""
        r = self.rules
        self.table = Table(
            safe=r.safe_size - self.n * r.starting_coins,
            deck=[r.copies_per_character] * N_CHARACTERS,
            players=[Player(coins=r.starting_coins) for _ in range(self.n)],
        )
        assert self.table.safe >= 0, "the Safe cannot pay the starting coins"
        for seat in range(self.n):
            row = self.trace.take(EV_DEAL, f"seat {seat} is dealt 2 cards")
            dealt = list(row[2:4])
            for card in dealt:
                self.draw_from_deck(card, f"a dealt card must be in the deck {self.deck_text()}")
            self.trace.expect(EV_DEAL, seat, *dealt, what=f"the deal to seat {seat}")
            player = self.table.players[seat]
            player.cards = dealt
            player.down = [True, True]

    def next_seat(self) -> int:
        """Rulebook: play continues clockwise (Convention: seat 0 first, increasing seat index,
        skipping players with no face-down card)."""
        t = self.table
        if t.last_seat is None:
            return 0
        for step in range(1, self.n + 1):
            seat = (t.last_seat + step) % self.n
            if t.players[seat].alive:
                return seat
        raise AssertionError(f"game {self.label!r}: nobody is left to play")

    def play_turn(self) -> None:
        """Rulebook, Game play: "During each turn the player has to play one action." Other
        players may then challenge it or counteract it; challenges are resolved first."""
        t, r = self.table, self.rules
        seat = self.next_seat()
        t.last_seat = seat
        actor = t.players[seat]
        # Rulebook: "IF you start your turn with 10 or more Dollars then your action HAS to be
        # an overthrow" (Convention: only when the player can pay for it).
        forced = actor.coins >= r.forced_overthrow_at and actor.coins >= r.overthrow_cost
        self.trace.expect(EV_TURN, seat, actor.coins, int(forced), what="the next turn")

        row = self.trace.take(EV_ACTION, f"seat {seat}'s action")
        action, target = row[2], row[3]
        self.trace.check(row[1] == seat, f"seat {seat} acts on its own turn")
        self.trace.check(0 <= action < N_ACTIONS, "a known action")
        self.trace.check(not forced or action == OVERTHROW, f"a forced overthrow (${actor.coins})")
        # House rules: a character's action switched off may not be claimed.
        self.trace.check(
            ABILITY_SWITCH.get(action) not in r.switched_off,
            f"an action the rules allow ({ABILITY_SWITCH.get(action)} is off)",
        )
        if action in TARGETED:
            self.trace.check(
                0 <= target < self.n and target != seat and t.players[target].alive,
                "a living target other than the actor",
            )
        else:
            self.trace.check(target == -1, "no target (-1) for an untargeted action")
        # Rulebook: overthrow "Pay 7 Dollars to the Safe"; CEO "Pay 3 Dollars" to fire.
        # Convention: costs are paid into the Safe when the action is declared.
        cost = {OVERTHROW: r.overthrow_cost, FIRE: r.ceo_cost}.get(action, 0)
        self.trace.check(
            actor.coins >= cost, f"an action seat {seat} can afford (${actor.coins} < ${cost})"
        )
        self.trace.expect(EV_ACTION, seat, action, target, cost, what="the action and its cost")
        actor.coins -= cost
        t.safe += cost

        # Rulebook, Challenging: "Any action or counteraction can be challenged when a player
        # uses an influence card"; "Over-Throws are always successful" (never challenged).
        claim = CLAIMED_CHARACTER[action]
        if claim is not None and not self.offer_challenge(seat, claim):
            # Rulebook: "If an action is successfully challenged the action fails, and any coins
            # paid as the cost of the action are returned to the player."
            if cost and r.refund_failed_action:
                self.refund(seat, cost)
            return

        if action in BLOCKERS and self.block_stands(seat, action, target):
            # Rulebook: a blocked player loses the action ("receives no coins", "cannot take
            # Aid"); Convention: the paid cost is not refunded.
            return
        self.resolve(seat, action, target)

    def refund(self, seat: int, cost: int) -> None:
        """Rulebook: "any coins paid as the cost of the action are returned to the player"
        (Convention: ``refund_failed_action``, from what the Safe holds). A player eliminated by
        the very challenge that failed the action is out of the game: with
        ``eliminated_coins_to_safe`` its Dollars belong in the Safe, so the refund stays there
        (no refund event)."""
        t = self.table
        actor = t.players[seat]
        if not actor.alive and self.rules.eliminated_coins_to_safe:
            if self.trace.peek() == EV_REFUND:
                self.trace.fail(
                    f"no refund: seat {seat} was eliminated by this challenge and its Dollars "
                    "went back to the Safe (eliminated_coins_to_safe)"
                )
            return
        amount = min(cost, t.safe)
        self.trace.expect(EV_REFUND, seat, amount, what="the failed action's refund")
        t.safe -= amount
        actor.coins += amount

    # --- challenges and blocks --------------------------------------------------------------

    def offer_challenge(self, claimant: int, character: int) -> bool:
        """Rulebook, Challenging: the claimant must show the character face down; "If they can
        prove it, the challenger loses"; otherwise the claimant loses an influence (house rules:
        ``failed_challenger_loses`` and ``caught_bluffer_loses`` influences). Returns whether
        the claim stands (unchallenged or proven)."""
        t = self.table
        if self.trace.peek() != EV_CHALLENGE:
            return True
        row = self.trace.take(EV_CHALLENGE, "a challenge")
        challenger = row[1]
        # Rulebook: "Any player can challenge whether they are involved in the action or not"
        # (Convention: any other living player, first clockwise or from a random start).
        self.trace.check(
            0 <= challenger < self.n and challenger != claimant and t.players[challenger].alive,
            f"a living challenger other than the claimant (seat {claimant})",
        )
        proven = t.players[claimant].holds(character)
        self.trace.expect(
            EV_CHALLENGE, challenger, claimant, character, int(proven), what="the challenge result"
        )
        if proven:
            # Rulebook: "they first return that card to the remaining card deck, re-shuffle the
            # deck and take a random replacement card" (Convention: into the same slot; house
            # rule ``proven_card_replaced`` off: it keeps the card).
            if self.rules.proven_card_replaced:
                self.replace_card(claimant, character)
            self.lose_for_challenge(
                challenger, self.rules.failed_challenger_loses, "the challenger lost the challenge"
            )
            return True
        self.lose_for_challenge(
            claimant, self.rules.caught_bluffer_loses, "the claimant was caught bluffing"
        )
        return False

    def lose_for_challenge(self, seat: int, losses: int, why: str) -> None:
        """Rulebook: "Whoever loses the challenge immediately loses an influence". House rules:
        ``losses`` influences: fewer than it has (one of two), the player chooses the card; as
        many as it has, or more, every face-down card is revealed, left to right, and it is out."""
        player = self.table.players[seat]
        if losses == 0 or not player.alive:
            return
        if losses < player.influence:
            self.lose_influence(seat, why)
            return
        for slot in player.down_slots():
            self.trace.expect(EV_LOSE, seat, slot, player.cards[slot], what=f"{why} (all cards)")
            player.down[slot] = False
        self.eliminate(seat)

    def block_stands(self, actor: int, action: int, target: int) -> bool:
        """Rulebook, Blocking Actions: a Banker blocks Aid (any other living player may claim it);
        the player being fired may claim the Lawyer; the player being stolen from may claim the
        Politician or the Journalist. A block is itself a claim that can be challenged.
        Convention: blocks are offered only if the action survived its challenge, and for fire
        and steal only if the target still has influence."""
        t = self.table
        if action in (FIRE, STEAL) and not t.players[target].alive:
            return False
        # House rules: a character whose block is switched off may not claim it.
        allowed = tuple(
            c for c in BLOCKERS[action] if BLOCK_SWITCH[action, c] not in self.rules.switched_off
        )
        if self.trace.peek() != EV_BLOCK:
            return False
        self.trace.check(
            bool(allowed), f"no block: every block of {ACTIONS[action]} is switched off"
        )
        row = self.trace.take(EV_BLOCK, "a block")
        blocker, character = row[1], row[2]
        if action == AID:
            self.trace.check(
                0 <= blocker < self.n and blocker != actor and t.players[blocker].alive,
                "a living blocker other than the actor",
            )
        else:
            self.trace.check(blocker == target, f"only the target (seat {target}) blocks")
        self.trace.check(
            character in allowed,
            f"a block of {ACTIONS[action]} claiming {' or '.join(CHARACTERS[c] for c in allowed)}",
        )
        self.trace.expect(EV_BLOCK, blocker, character, actor, what="the block")
        if not self.rules.blocks_challengeable:
            # House rule: a block cannot be challenged; it stands.
            self.trace.check(
                self.trace.peek() != EV_CHALLENGE, "no challenge of a block (blocks_challengeable)"
            )
            return True
        return self.offer_challenge(blocker, character)

    # --- cards ------------------------------------------------------------------------------

    def deck_text(self) -> str:
        held = {CHARACTERS[c]: n for c, n in enumerate(self.table.deck) if n}
        return f"(deck: {held or 'empty'})"

    def draw_from_deck(self, card: int, expected: str) -> None:
        """A random draw: the card must be one of those left in the deck."""
        self.trace.check(0 <= card < N_CHARACTERS and self.table.deck[card] > 0, expected)
        self.table.draws.append((tuple(self.table.deck), card))
        self.table.deck[card] -= 1

    def replace_card(self, seat: int, character: int) -> None:
        """The proven claimant shuffles the shown card back and draws a replacement."""
        player = self.table.players[seat]
        row = self.trace.take(EV_REPLACE, f"seat {seat} replaces its {CHARACTERS[character]}")
        slot, drawn = row[2], row[4]
        self.trace.check(
            slot in player.down_slots() and player.cards[slot] == character,
            f"a face-down {CHARACTERS[character]} slot of seat {seat} (hand {player.cards}, "
            f"down {player.down})",
        )
        self.table.deck[character] += 1
        self.draw_from_deck(drawn, f"a replacement drawn from the deck {self.deck_text()}")
        self.trace.expect(EV_REPLACE, seat, slot, character, drawn, what="the replacement")
        player.cards[slot] = drawn

    def lose_influence(self, seat: int, why: str) -> None:
        """Rulebook: "Whoever loses the challenge immediately loses an influence." Convention:
        with 2 face-down cards the player chooses which to reveal, with 1 it is revealed, with
        0 nothing happens; a player left with no face-down card is eliminated."""
        player = self.table.players[seat]
        slots = player.down_slots()
        if not slots:
            return
        row = self.trace.take(EV_LOSE, f"seat {seat} loses an influence: {why}")
        slot = row[2]
        self.trace.check(
            row[1] == seat and slot in slots,
            f"seat {seat} reveals one of its face-down slots {slots} ({why})",
        )
        self.trace.expect(EV_LOSE, seat, slot, player.cards[slot], what=why)
        player.down[slot] = False
        if not player.alive:
            self.eliminate(seat)

    def eliminate(self, seat: int) -> None:
        """Rulebook: players play "until one is left". Convention: an eliminated player's
        Dollars go back to the Safe when ``eliminated_coins_to_safe``."""
        player = self.table.players[seat]
        returned = player.coins if self.rules.eliminated_coins_to_safe else 0
        self.trace.expect(EV_ELIMINATED, seat, returned, what=f"seat {seat} has no influence left")
        player.coins -= returned
        self.table.safe += returned

    # --- resolving an action ----------------------------------------------------------------

    def take_from_safe(self, seat: int, amount: int, what: str) -> None:
        """Convention: the Safe is finite; a player takes what is left if it holds less."""
        amount = min(amount, self.table.safe)
        self.trace.expect(EV_GAIN, seat, -1, amount, what=what)
        self.table.safe -= amount
        self.table.players[seat].coins += amount

    def resolve(self, seat: int, action: int, target: int) -> None:
        """Rulebook, Actions: the effect of an action that was neither stopped by a challenge
        nor blocked."""
        r, t = self.rules, self.table
        if action == INCOME:
            self.take_from_safe(seat, r.income, "Income: take 1 Dollar from the Safe")
        elif action == AID:
            self.take_from_safe(seat, r.aid, "Aid: take 2 Dollars from the Safe")
        elif action == BANK:
            self.take_from_safe(seat, r.banker_take, "Banker: take 3 coins from the Safe")
        elif action == STEAL:
            # Rulebook: "Steal 2 Dollars from a player. If they only have 1, take one."
            victim = t.players[target]
            amount = min(r.steal, victim.coins)
            self.trace.expect(EV_GAIN, seat, target, amount, what="Politician: steal 2 Dollars")
            victim.coins -= amount
            t.players[seat].coins += amount
        elif action in (FIRE, OVERTHROW):
            # Rulebook: "That player immediately loses one of their influence character cards".
            self.lose_influence(target, f"seat {target} is the target of {ACTIONS[action]}")
        elif action == EXCHANGE:
            self.exchange(seat)

    def exchange(self, seat: int) -> None:
        """Rulebook, Journalist: "First take 2 random cards from the deck. Choose which, if any,
        to exchange with your face-down cards. Then return two cards to the deck". Convention:
        draw min(2, deck size) (house rule: ``exchange_draws`` instead of 2); keep as many
        cards as you have face down, from (face-down cards + drawn); kept cards fill the
        face-down slots in order; face-up cards stay."""
        t = self.table
        player = t.players[seat]
        n_drawn = min(self.rules.exchange_draws, sum(t.deck))
        row = self.trace.take(EV_EXCHANGE, f"seat {seat} exchanges")
        drawn = list(row[3 : 3 + n_drawn])
        for card in drawn:
            self.draw_from_deck(card, f"exchange draws from the deck {self.deck_text()}")
        new_hand = [row[5], row[6]]
        slots = player.down_slots()
        options = [player.cards[slot] for slot in slots] + drawn
        kept = [new_hand[slot] for slot in slots]
        self.trace.check(
            all(new_hand[s] == player.cards[s] for s in (0, 1) if not player.down[s]),
            f"face-up cards stay in place (hand {player.cards}, down {player.down})",
        )
        self.trace.check(
            is_subsequence(kept, options),
            f"kept cards chosen, in order, from face-down cards + drawn {options}",
        )
        unused = [NO_CARD] * (2 - n_drawn)
        self.trace.expect(
            EV_EXCHANGE, seat, n_drawn, *drawn, *unused, *new_hand, what="the exchange"
        )
        returned = Counter(options) - Counter(kept)
        for card, count in returned.items():
            t.deck[card] += count
        player.cards = new_hand

    # --- after each turn --------------------------------------------------------------------

    def snapshots(self) -> None:
        """Convention: after every turn one snapshot row per seat; also checks conservation."""
        t, r = self.table, self.rules
        t.turns += 1
        for seat, p in enumerate(t.players):
            self.trace.expect(
                EV_SNAPSHOT,
                seat,
                p.coins,
                *p.cards,
                *(int(d) for d in p.down),
                t.safe,
                what=f"seat {seat}'s state after turn {t.turns}",
            )
        # Rulebook, Components: 50 Dollars (``safe_size``) and 3 (``copies``) of each character.
        # These are self-checks of the referee's state (the kernel's was compared row by row).
        where = f"POWER referee, game {self.label!r}, after trace row {self.trace.index - 1}"
        dollars = t.safe + sum(p.coins for p in t.players)
        assert dollars == r.safe_size, f"{where}: {dollars} Dollars in play, not {r.safe_size}"
        assert t.safe >= 0 and all(p.coins >= 0 for p in t.players), f"{where}: negative Dollars"
        if r.eliminated_coins_to_safe:
            rich = [seat for seat, p in enumerate(t.players) if not p.alive and p.coins]
            assert not rich, f"{where}: eliminated seats {rich} hold Dollars"
        cards = Counter(c for p in t.players for c in p.cards)
        for character in range(N_CHARACTERS):
            total = t.deck[character] + cards[character]
            assert total == r.copies_per_character, (
                f"{where}: {total} {CHARACTERS[character]} cards in play"
            )

    def check_end(self) -> None:
        """Rulebook, Winning: "players play until one is left". Convention: or the game is
        truncated after ``max_turns`` turns (winner -1)."""
        t = self.table
        alive = t.alive_seats()
        if len(alive) == 1:
            t.winner = alive[0]
            self.trace.expect(EV_END, t.winner, t.turns, 0, what="the last one standing wins")
        elif t.turns >= self.rules.max_turns:
            t.truncated = True
            t.winner = -1
            self.trace.expect(EV_END, -1, t.turns, 1, what="the turn cap truncates the game")


def is_subsequence(part: list[int], whole: list[int]) -> bool:
    """Whether ``part`` can be read from ``whole`` left to right, skipping elements."""
    rest = iter(whole)
    return all(any(x == y for y in rest) for x in part)


def replay(
    trace_rows,
    rules: dict,
    players: int,
    game_label: str = "",
) -> Table:
    """Replay one kernel trace against the rulebook; AssertionError on any disagreement."""
    return Referee(rules, players, game_label).replay(trace_rows)
