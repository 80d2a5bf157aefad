"""POWER as an OpenSpiel game over the decision-point protocol, and the external check of our
search against OpenSpiel's own ISMCTS (docs/ismcts.md, "Checked against OpenSpiel").

    .venv/bin/python tools/openspiel_power.py [GAMES] [ITERATIONS] [FIELD]

plays GAMES 4-player games (default 200) with a search player in seat 0 and FIELD (a strategy or
preset, default the rollout preset) in the other seats, once with our ``ismcts`` and once with
OpenSpiel's pure-Python ``ISMCTSBot`` (our ``determinize`` as its resampler, our rollout
strategy as its evaluator, the same iterations and exploration constant), and prints both win
rates with 95% Wilson intervals and the difference with its 95% interval (open-spiel is a
dependency of powerlab).

The wrapper: one OpenSpiel action per protocol move code (at most 49 in POWER), chance sampled
inside ``apply`` from the state's own stream (SAMPLED_STOCHASTIC), the information state string
of a player the protocol's ``infoset_key`` (what that player observes now).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simcore import power, power_rules, power_search, registry, runner  # noqa: E402
from simcore.power_state import (  # noqa: E402
    DECISION_KINDS,
    MAX_MOVES,
    MAX_PLAYERS,
    N_ACTIONS,
    P_DECISION,
    STATE_SIZE,
    TRACE_WIDTH,
)
from simcore.rng import seed_game_stream  # noqa: E402

NO_TRACE = np.zeros((0, TRACE_WIDTH), dtype=np.int64)
ROLLOUT = "preset:counter-vs-mixed"
_GAME = registry.make("power")

GAME_TYPE = pyspiel.GameType(
    short_name="python_powerlab_power",
    long_name="powerlab POWER (decision-point protocol)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={"players": 4, "seed": 1},
)


class PowerGame(pyspiel.Game):
    def __init__(self, params=None):
        params = params or {}
        self.players = int(params.get("players", 4))
        self.seed = int(params.get("seed", 1))
        self.rules = power.prepare(_GAME.rules_with_defaults({}), self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=N_ACTIONS * (MAX_PLAYERS + 1),
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=int(self.rules[13]) * 40,  # turns cap x decisions a turn can take
        )
        super().__init__(GAME_TYPE, info, params)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return PowerObserver()

    def new_initial_state(self):
        """Game 0 of the seed: a game is a pure function of its history of actions (OpenSpiel
        replays histories); other deals are ``PowerState(game, index)``."""
        return PowerState(self, 0)


class PowerState(pyspiel.State):
    def __init__(self, game: PowerGame, index: int):
        super().__init__(game)
        self.rules = game.rules
        self.st = np.zeros(STATE_SIZE, dtype=np.int64)
        self.rng = np.zeros(4, dtype=np.uint64)
        seed_game_stream(np.uint64(game.seed), index, self.rng)
        power_rules.new_game(game.players, self.st, self.rules, self.rng, NO_TRACE)

    def current_player(self):
        if power_rules.is_over(self.st):
            return pyspiel.PlayerId.TERMINAL
        return int(power_rules.to_move(self.st))

    def _legal_actions(self, player):
        moves = np.zeros(MAX_MOVES, dtype=np.int64)
        return sorted(int(m) for m in moves[: power_rules.legal(self.st, self.rules, moves)])

    def _apply_action(self, action):
        power_rules.apply(self.st, self.rules, action, self.rng, NO_TRACE)

    def _action_to_string(self, player, action):
        return f"{DECISION_KINDS[self.st[P_DECISION]]}:{action}"

    def is_terminal(self):
        return bool(power_rules.is_over(self.st))

    def returns(self):
        """The results (OpenSpiel: returns so far, so 0 until the end; the protocol's
        ``returns`` is defined once the game is over)."""
        out = np.zeros(MAX_PLAYERS)
        if self.is_terminal():
            power_rules.returns(self.st, out)
        return list(out[: self.get_game().num_players()])

    def rewards(self):
        return self.returns()  # terminal rewards: all at the end

    def information_state_string(self, player=None):
        player = self.current_player() if player is None else player
        return PowerObserver().string_from(self, player)

    def resampled(self, player: int, rng: np.ndarray) -> PowerState:
        """A copy determinized for ``player`` (the bot's resampler), its own stream reseeded."""
        twin = self.clone()
        power_rules.determinize(twin.st, player, rng)
        seed_game_stream(rng[0], 0, twin.rng)
        return twin

    def __str__(self):
        return " ".join(str(int(x)) for x in self.st)


class PowerObserver:
    """What a player observes, as OpenSpiel's observer interface: the protocol's infoset key
    (no tensor)."""

    def __init__(self):
        self.tensor = np.zeros(0)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return str(int(power_rules.infoset_key(state.st, player)))


pyspiel.register_game(GAME_TYPE, PowerGame)


class RolloutEvaluator:
    """OpenSpiel evaluator: the game played out by our rollout strategy (uniform priors)."""

    def __init__(self, rollout_id: int, rollout_prm: np.ndarray, rng: np.ndarray):
        self.rollout_id = rollout_id
        self.rollout_prm = rollout_prm
        self.rng = rng

    def evaluate(self, state: PowerState):
        st = state.st.copy()
        power_search._rollout(
            st, state.rules, self.rollout_id, self.rollout_prm, self.rng, NO_TRACE
        )
        out = np.zeros(MAX_PLAYERS)
        power_rules.returns(st, out)
        return out[: state.get_game().num_players()]

    def prior(self, state):
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def play(
    arm: str, games: int, iterations: int, c: float, field: str = ROLLOUT, players: int = 4
) -> list[int]:
    """Seat 0's result (1 win, 0 not) in each game: ``arm`` is "ours" or "openspiel"; the search
    rolls out with ROLLOUT, the other seats play ``field``."""
    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    spec = runner.build_spec("power", players, [ROLLOUT] + [field] * (players - 1), [], 1, 1, True)
    ids, prm = _GAME.encode_strategies(spec.seat_strategies())
    game = pyspiel.load_game("python_powerlab_power", {"players": players, "seed": 11})
    rollout_prm = np.repeat(prm[:1], players, axis=0)  # the rollout's row in every seat
    search_rng = np.zeros(4, dtype=np.uint64)
    seed_game_stream(np.uint64(12), 0, search_rng)
    bot = ISMCTSBot(
        game, RolloutEvaluator(int(ids[0]), rollout_prm, search_rng), c, iterations,
        random_state=np.random.RandomState(13), allow_inconsistent_action_sets=True,
    )  # fmt: skip
    bot.set_resampler(lambda state, player: state.resampled(player, search_rng))
    results = []
    for index in range(games):
        state = PowerState(game, index)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == 0 and arm == "openspiel":
                if len(state.legal_actions()) == 1:
                    action = state.legal_actions()[0]
                else:
                    bot.reset()
                    action = bot.step(state)
            elif seat == 0:
                action = power_search.search(
                    state.st, state.rules, 0, iterations, c, int(ids[0]), rollout_prm, search_rng
                )
            else:
                action = power.strategy.decide(
                    ids[seat], prm, seat, state.st, state.rules, state.rng
                )
            state.apply_action(int(action))
        results.append(int(state.returns()[0] == 1.0))
    return results


def main() -> None:
    from scipy.stats import binomtest

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    field = sys.argv[3] if len(sys.argv) > 3 else ROLLOUT
    report = {"games": games, "iterations": iterations, "c": 0.7, "rollout": ROLLOUT}
    report["field"] = field
    rates = {}
    for arm in ("ours", "openspiel"):
        wins = play(arm, games, iterations, 0.7, field)
        ci = binomtest(sum(wins), games).proportion_ci(method="wilson")
        rates[arm] = sum(wins) / games
        report[arm] = {"wins": sum(wins), "rate": rates[arm], "ci95": [ci.low, ci.high]}
    diff = rates["ours"] - rates["openspiel"]
    se = np.sqrt(sum(r * (1 - r) / games for r in rates.values()))
    report["difference"] = {"value": diff, "ci95": [diff - 1.96 * se, diff + 1.96 * se]}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
