"""The models of the result files a long command writes and reads back when it is rerun or
reported (the schema layer, ``schemas``): a tune directory's summary.json and finalists.json, a
balance directory's summary.json, a whatif directory's whatif.json and tunings.json and an
impact directory's impact.json. Each requires every key its readers use (``storage.read_stored``
checks a file against its model), so a hand-edited or damaged file is one line naming the file
and the key, never a traceback.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, RootModel, Tag, model_validator

from simcore.workflows.schemas import OBJECTIVE_KEYS, PlayerCount, Stored, refusal

# --- tune directories' summary.json and finalists.json (docs/tuning.md) ------------------------


class TuneFinalist(Stored):
    number: int
    params: dict[str, Any]
    spec: str
    race_win_rate: float
    extra_win_rate: float
    win_rate: float
    games: int


TuneFinalists = Annotated[list[TuneFinalist], Field(min_length=1)]


class Finalists(Stored):
    """finalists.json: the searched candidates replayed on further games, best first."""

    finalists: TuneFinalists


class TuneFresh(Stored):
    seed: int
    games: int
    cut_off_share: float
    baseline_cut_off_share: float
    win_rate: float
    ci_low: float
    ci_high: float
    baseline_win_rate: float
    diff: float
    diff_ci_low: float
    diff_ci_high: float
    fair_share: float


class TuneField(Stored):
    weight: float
    lineup: list[str]


class TuneSettling(Stored):
    verdict: Literal["too few", "improving", "settled"]
    finished: int
    suggested_budget: int
    last_third_gain: float = 0.0
    best_at: int = 0


class TuneHead(Stored):
    """What every tune directory's summary.json starts with."""

    game: str
    players: PlayerCount
    strategy: str
    baseline: str
    best: str


class TuneSearch(Stored):
    sampler: str
    trials: int
    completed: int
    games: int
    seed: int


class SearchSummary(TuneHead):
    """summary.json of one search."""

    best_params: dict[str, Any]
    fields: Annotated[list[TuneField], Field(min_length=1)]
    search: TuneSearch
    finalists: TuneFinalists
    fresh: TuneFresh
    settling: TuneSettling | None = None  # none in a tuning of an earlier powerlab


class StartEntry(Stored):
    start: int
    seed: int
    best: str
    best_params: dict[str, Any]
    own_fresh: TuneFresh
    search_games: int


class RaceCandidate(Stored):
    spec: str
    params: dict[str, Any]
    starts: Annotated[list[int], Field(min_length=1)]
    win_rate: float
    ci_low: float
    ci_high: float


class RunnerUp(Stored):
    diff: float
    ci_low: float
    ci_high: float


class Race(Stored):
    seed: int
    games: int
    candidates: Annotated[list[RaceCandidate], Field(min_length=1)]
    runner_up: RunnerUp | None


class StartsSearch(Stored):
    starts: int
    seed: int
    games: int


class MultiStartSummary(TuneHead):
    """summary.json of several searches from their own seeds, raced."""

    best_params: dict[str, Any]
    fields: Annotated[list[TuneField], Field(min_length=1)]
    starts: Annotated[list[StartEntry], Field(min_length=1)]
    race: Race
    search: StartsSearch
    fresh: TuneFresh


class SelfPlayRound(Stored):
    round: int
    incumbent: str
    best: str
    diff: float
    diff_ci_low: float
    diff_ci_high: float
    improved: bool


class SelfPlaySummary(TuneHead):
    """summary.json of self-play: each round is a search in round-<k>/."""

    self_play: Literal[True]
    rounds: Annotated[list[SelfPlayRound], Field(min_length=1)]
    stopped: str
    cycle: bool
    last_round: str


def _tune_kind(data) -> str:
    if isinstance(data, dict) and "starts" in data:
        return "several searches"
    return "self-play" if isinstance(data, dict) and "self_play" in data else "one search"


class TuneSummary(RootModel):
    """A tune directory's summary.json, of whichever kind its keys say (the tags have spaces,
    so that ``key_path`` never takes one for a key)."""

    root: Annotated[
        Annotated[SearchSummary, Tag("one search")]
        | Annotated[MultiStartSummary, Tag("several searches")]
        | Annotated[SelfPlaySummary, Tag("self-play")],
        Discriminator(_tune_kind),
    ]


# --- balance directories' summary.json (docs/balance.md) ---------------------------------------

# The numbers a report shows of each objective's target, by kind.
TARGET_NUMBERS = {"length": ("low", "high"), "ended_by_rules": ("at_least",),
                  "option_value": ("low", "high")}  # fmt: skip


class BalanceTarget(Stored):
    kind: Literal[tuple(OBJECTIVE_KEYS)]
    low: float | None = None
    high: float | None = None
    at_least: float | None = None
    focal: str = ""
    fixed: dict[str, Any] = {}
    measure: str = "entropy"

    @model_validator(mode="after")
    def _its_numbers(self):
        for key in TARGET_NUMBERS.get(self.kind, ()):
            if getattr(self, key) is None:
                raise refusal(f"expected a number (a {self.kind} target has one)", key)
        return self


class BalanceParam(Stored):
    name: str
    kind: Literal["int", "float", "bool", "choice"]
    low: float | None = None
    high: float | None = None
    choices: list[Any] = []

    @model_validator(mode="after")
    def _its_values(self):
        if self.kind in ("bool", "choice") and not self.choices:
            raise refusal(f"expected a non-empty list (a {self.kind} has choices)", "choices")
        for key in () if self.kind in ("bool", "choice") else ("low", "high"):
            if getattr(self, key) is None:
                raise refusal(f"expected a number (an {self.kind} is searched in a range)", key)
        return self


class BalanceSearch(Stored):
    trials: int
    games: int
    fresh_games: int
    unseparated: list[Annotated[list[str], Field(min_length=2, max_length=2)]]


class BalanceSummary(Stored):
    """summary.json of a balance directory."""

    title: str
    game: str
    objectives: Annotated[list[str], Field(min_length=1)]
    targets: Annotated[list[BalanceTarget], Field(min_length=1)]
    params: Annotated[list[BalanceParam], Field(min_length=1)]
    rulebook: dict[str, Any]
    finalists: list[Annotated[str, Field(pattern=r"^trial-[0-9]{1,9}$")]]
    search: BalanceSearch
    tunings: list[dict[str, Any]]

    @model_validator(mode="after")
    def _consistent(self):
        missing = [p.name for p in self.params if p.name not in self.rulebook]
        if missing:
            raise refusal(f"expected a value of every searched rule, {missing[0]!r} missing",
                          "rulebook")  # fmt: skip
        kinds = [target.kind for target in self.targets]
        for k, name in enumerate(self.objectives):
            if not any(name.startswith(kind) for kind in kinds):
                raise refusal(f"expected an objective of targets' kinds, got {name!r}",
                              "objectives", k)  # fmt: skip
        return self


# --- whatif and impact directories (docs/whatif.md, docs/impact.md) ----------------------------


class WhatifRequest(Stored):
    """whatif.json: the request a whatif directory holds (a rerun must ask the same)."""

    format: int
    request: dict[str, Any]


class WhatifGain(Stored):
    family: str
    start: str
    best: str
    diff: float
    diff_ci_low: float
    diff_ci_high: float


class RetunedArm(Stored):
    gains: list[WhatifGain]


class WhatifTunings(Stored):
    """tunings.json: what re-tuning each family gained under each rule set."""

    format: int
    retuned: dict[str, RetunedArm]


class ImpactArm(Stored):
    name: str
    kind: str
    group: str
    arm: str


class ImpactComponents(Stored):
    """impact.json: the components of an impact directory, in arm order."""

    format: int
    components: list[ImpactArm]
