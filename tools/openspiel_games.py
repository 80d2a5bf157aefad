"""Every game on the decision-point protocol as an OpenSpiel game, and the external check of our
search against OpenSpiel's own ISMCTS (docs/ismcts.md, "Checked against OpenSpiel").

    .venv/bin/python tools/openspiel_games.py GAME [GAMES] [ITERATIONS] [FIELD] [PLAYERS]

plays GAMES games (default 200) with a search player in seat 0 and FIELD (a strategy or preset,
default the search's rollout) in the other seats, once with our ``ismcts`` and once with
OpenSpiel's pure-Python ``ISMCTSBot`` (our ``determinize`` as its resampler, our rollout
strategy as its evaluator, the same iterations and exploration constant), and prints both win
rates with 95% Wilson intervals and the difference with its 95% interval.

A game is registered as ``python_powerlab_<game id>`` (e.g. ``python_powerlab_power``) once
``register(game_id)`` ran; importing this module registers every game that has a search module
(``simcore/<kernel>_search.py``, which imports the game's whole protocol: docs/protocol.md). The
wrapper: one OpenSpiel action per protocol move code where the search module bounds them
(``MOVE_CODES``), else an action is a place in the decision's list of options (``legal``'s
order, at most ``MAX_MOVES``): Power Struggle packs an action's options and a bribe's amount into
codes of up to 2^28 and without a bound, which OpenSpiel's legal-action masks (one int per
distinct action, every step) cannot hold. A place names the same move in every state of an
information set, because the options of a decision are the deciding seat's to know (each game's
protocol test checks them on determinized states). Chance is sampled inside ``apply`` from the
state's own stream (SAMPLED_STOCHASTIC), the information state string of a player is the
protocol's ``infoset_key`` (what that player observes now). Nothing here names a game: the
registry gives the player counts, rules and default rollout, the search module the protocol.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simcore import contract, registry
from simcore.kernel import ismcts  # noqa: E402
from simcore.kernel.rng import seed_game_stream  # noqa: E402
from simcore.workflows import runner

# The protocol's ``apply`` takes a trace to record into; these games record nothing.
NO_TRACE = np.zeros((0, 1), dtype=np.int64)
# OpenSpiel wants a bound on a game's length; the wrapper knows none (each game's own turn or
# round cap ends it long before this many decisions).
MAX_GAME_LENGTH = 1_000_000


def search_module(game: registry.Game):
    """The game's thin search module: its protocol, scripted ``decide`` and compiled search."""
    return importlib.import_module(game.module.rpartition(".")[0] + ".search")


def openspiel_name(game_id: str) -> str:
    return "python_powerlab_" + game_id.replace("-", "_")


def register(game_id: str) -> None:
    """Register ``game_id`` with OpenSpiel (once) as ``openspiel_name(game_id)``."""
    if openspiel_name(game_id) in pyspiel.registered_names():
        return
    game = registry.make(game_id)
    protocol = search_module(game)
    by_code = contract.offers(protocol, "MOVE_CODES")
    default_players = max(game.min_players, min(4, game.max_players))
    game_type = pyspiel.GameType(
        short_name=openspiel_name(game_id),
        long_name=f"powerlab {game.title} (decision-point protocol)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"players": default_players, "seed": 1},
    )

    class ProtocolGame(pyspiel.Game):
        def __init__(self, params=None):
            params = params or {}
            self.players = int(params.get("players", default_players))
            self.seed = int(params.get("seed", 1))
            self.state_class = state_class
            kernel = game.kernel()
            self.rules = kernel.prepare(game.rules_with_defaults({}), self.players)
            # A kernel whose protocol takes more than its prepared rules says how to build it
            # (POWER: The Game: the planner table of its orders decision).
            if contract.offers(kernel, "protocol_game"):
                self.rules = kernel.protocol_game(self.rules)
            info = pyspiel.GameInfo(
                num_distinct_actions=int(protocol.MOVE_CODES if by_code else protocol.MAX_MOVES),
                max_chance_outcomes=0,
                num_players=self.players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(game_type, info, params)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return InfosetObserver()

        def new_initial_state(self):
            """Game 0 of the seed: a game is a pure function of its history of actions (OpenSpiel
            replays histories); other deals are ``game.state_class(game, index)``."""
            return state_class(self, 0)

    # The protocol is a class attribute: OpenSpiel clones a state by deep-copying its fields,
    # and a module cannot be copied.
    fields = {"protocol": protocol, "by_code": by_code}
    state_class = type("ProtocolState", (ProtocolState,), fields)
    pyspiel.register_game(game_type, ProtocolGame)


class ProtocolState(pyspiel.State):
    """A game in progress; ``register`` makes a subclass per game with its ``protocol``."""

    protocol = None
    by_code = True  # an action is a move code (the game bounds them), else a place in ``legal``

    def __init__(self, game, index: int):
        super().__init__(game)
        self.rules = game.rules
        self.st = np.zeros(self.protocol.STATE_SIZE, dtype=np.int64)
        self.rng = np.zeros(4, dtype=np.uint64)
        seed_game_stream(np.uint64(game.seed), index, self.rng)
        self.protocol.new_game(game.players, self.st, self.rules, self.rng, NO_TRACE)

    def current_player(self):
        if self.protocol.is_over(self.st):
            return pyspiel.PlayerId.TERMINAL
        return int(self.protocol.to_move(self.st))

    def moves(self) -> list[int]:
        """The move codes of the pending decision, in ``legal``'s order."""
        moves = np.zeros(self.protocol.MAX_MOVES, dtype=np.int64)
        return [int(m) for m in moves[: self.protocol.legal(self.st, self.rules, moves)]]

    def move_of(self, action: int) -> int:
        return action if self.by_code else self.moves()[action]

    def action_of(self, move: int) -> int:
        """The OpenSpiel action of a move code (our search's and strategies' answer)."""
        return int(move) if self.by_code else self.moves().index(int(move))

    def _legal_actions(self, player):
        return sorted(self.moves()) if self.by_code else list(range(len(self.moves())))

    def _apply_action(self, action):
        self.protocol.apply(self.st, self.rules, self.move_of(action), self.rng, NO_TRACE)

    def _action_to_string(self, player, action):
        return f"seat {player}: move {self.move_of(action)}"

    def is_terminal(self):
        return bool(self.protocol.is_over(self.st))

    def returns(self):
        """The results (OpenSpiel: returns so far, so 0 until the end; the protocol's
        ``returns`` is defined once the game is over)."""
        out = np.zeros(self.protocol.MAX_SEATS)
        if self.is_terminal():
            self.protocol.returns(self.st, out)
        return list(out[: self.get_game().num_players()])

    def rewards(self):
        return self.returns()  # terminal rewards: all at the end

    def information_state_string(self, player=None):
        player = self.current_player() if player is None else player
        return InfosetObserver().string_from(self, player)

    def resampled(self, player: int, rng: np.ndarray) -> ProtocolState:
        """A copy determinized for ``player`` (the bot's resampler), its own stream reseeded."""
        twin = self.clone()
        self.protocol.determinize(twin.st, player, rng)
        seed_game_stream(rng[0], 0, twin.rng)
        return twin

    def __str__(self):
        # The whole state, as hex bytes: OpenSpiel's random_sim_test asks for it at every step,
        # and joining Power Barons' 8,351 ints one by one cost 86% of that test.
        return self.st.tobytes().hex()


class InfosetObserver:
    """What a player observes, as OpenSpiel's observer interface: the protocol's infoset key
    (no tensor)."""

    def __init__(self):
        self.tensor = np.zeros(0)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return str(int(state.protocol.infoset_key(state.st, player)))


class RolloutEvaluator:
    """OpenSpiel evaluator: the game played out by our rollout strategy (uniform priors)."""

    def __init__(self, protocol, rollout_id: int, rollout_prm: np.ndarray, rng: np.ndarray):
        self.protocol = protocol
        self.rollout_sids = np.full(protocol.MAX_SEATS, rollout_id, dtype=np.int64)  # every seat
        self.rollout_prm = rollout_prm
        self.rng = rng

    def evaluate(self, state: ProtocolState):
        st = state.st.copy()
        self.protocol.play_out(
            st, state.rules, self.rollout_sids, self.rollout_prm, self.rng, NO_TRACE
        )
        out = np.zeros(self.protocol.MAX_SEATS)
        self.protocol.returns(st, out)
        return out[: state.get_game().num_players()]

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def default_rollout(game_id: str) -> str:
    return registry.make(game_id).search.param("rollout").default


def play(
    game_id: str, arm: str, games: int, iterations: int, c: float, field: str | None = None,
    players: int | None = None,
) -> list[int]:  # fmt: skip
    """Seat 0's result (1 win, 0 not) in each game: ``arm`` is "ours" or "openspiel"; the search
    rolls out with the game's default rollout, the other seats play ``field`` (default: the
    rollout)."""
    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    register(game_id)
    rollout = default_rollout(game_id)
    field = field or rollout
    game = registry.make(game_id)
    protocol = search_module(game)
    os_game = pyspiel.load_game(openspiel_name(game_id), {"seed": 11} | (
        {"players": players} if players else {}
    ))  # fmt: skip
    players = os_game.num_players()
    spec = runner.build_spec(game_id, players, [rollout] + [field] * (players - 1), [], 1, 1, True)
    ids, prm = game.encode_strategies(spec.seat_strategies())
    rollout_prm = np.repeat(prm[:1], players, axis=0)  # the rollout's row in every seat
    search_rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(12), 0, search_rng)
    bot = ISMCTSBot(
        os_game, RolloutEvaluator(protocol, int(ids[0]), rollout_prm, search_rng), c, iterations,
        random_state=np.random.RandomState(13), allow_inconsistent_action_sets=True,
    )  # fmt: skip
    bot.set_resampler(lambda state, player: state.resampled(player, search_rng))
    results = []
    for index in range(games):
        state = os_game.state_class(os_game, index)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == 0 and arm == "openspiel":
                if len(state.legal_actions()) == 1:
                    state.apply_action(state.legal_actions()[0])
                else:
                    bot.reset()
                    state.apply_action(bot.step(state))
                continue
            if seat == 0:  # trust 0: uniform deals, as the resampler OpenSpiel's bot is given;
                # margin 0: the most visited option, as OpenSpiel's bot answers; opponents
                # searched at their information sets, as in its tree
                move = protocol.search(
                    state.st, state.rules, 0, iterations, c, 0.0, 0.0, ismcts.SEARCHED, int(ids[0]),
                    rollout_prm, search_rng,
                )  # fmt: skip
            else:
                move = protocol.decide(ids[seat], prm, seat, state.st, state.rules, state.rng)
            state.apply_action(state.action_of(move))
        results.append(int(state.returns()[0] == 1.0))
    return results


def protocol_games() -> list[str]:
    """The games that offer the protocol (have a search player)."""
    return [g for g in registry.game_ids() if registry.make(g).search is not None]


for _game_id in protocol_games():
    register(_game_id)


def main() -> None:
    from scipy.stats import binomtest

    game_id = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    field = sys.argv[4] if len(sys.argv) > 4 else default_rollout(game_id)
    players = int(sys.argv[5]) if len(sys.argv) > 5 else None
    report = {"game": game_id, "games": games, "iterations": iterations, "c": 0.7}
    report |= {"rollout": default_rollout(game_id), "field": field}
    rates = {}
    for arm in ("ours", "openspiel"):
        wins = play(game_id, arm, games, iterations, 0.7, field, players)
        ci = binomtest(sum(wins), games).proportion_ci(method="wilson")
        rates[arm] = sum(wins) / games
        report[arm] = {"wins": sum(wins), "rate": rates[arm], "ci95": [ci.low, ci.high]}
    diff = rates["ours"] - rates["openspiel"]
    se = np.sqrt(sum(r * (1 - r) / games for r in rates.values()))
    report["difference"] = {"value": diff, "ci95": [diff - 1.96 * se, diff + 1.96 * se]}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
