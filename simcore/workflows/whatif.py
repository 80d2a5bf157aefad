"""`powerlab whatif`: is rule set A or B better, and does the answer survive a change of players?

Both rule sets play the same games (common random numbers) in several *fields* of players:
- ``scripted``: the lineup given (default: the game's scripted strategies around the table);
- ``tuned``: the game's tuned presets around the table;
- ``re-tuned``: each strategy family of the scripted field tuned again under A and under B
  (a best response to that field, from its own start, kept only if it beats the start on fresh
  games, as restricted play does: docs/studies.md); A's cells seat the field tuned for A, B's the
  field tuned for B. What the tuning gained is how exploitable the field is under each rule set;
- ``search``: the search player (``ismcts``) in a seat of the scripted field (fewer games: a
  search costs hundreds of playouts a decision).
The tunings run first (OUT/tuning/, resumable tune directories); then OUT/whatif.toml, a study
file with arms A and B and an opponent setting per field, plays every cell (OUT/study/). The
study file alone reproduces the cells. analyses/whatif.py pairs the cells and writes the answer.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import tomli_w

from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import files, result_schemas, runner, storage, tuning
from simcore.workflows.study import TUNING_SEED_OFFSET

ARMS = ("A", "B")
FIELDS = ("scripted", "tuned", "re-tuned", "search")
STUDY_FILE = "whatif.toml"
REQUEST_FILE = "whatif.json"
STUDY_DIR = "study"


@dataclass(frozen=True)
class Budget:
    games: int  # per cell of the scripted, tuned and re-tuned fields
    search_games: int  # per cell of the search field
    iterations: int  # of the search player
    tune_budget: int  # games of each tuning


# `--quick`: a POWER question, all four fields, in about 5 minutes on 2 cores (docs/whatif.md).
BUDGETS = {
    # A tuning needs at least 4 candidates through rungs of 25 seats' games x 1, 3, 9 and 27
    # (tuning.py): 16,200 games at 6 players.
    "quick": Budget(games=5_000, search_games=60, iterations=50, tune_budget=20_000),
    "default": Budget(games=20_000, search_games=200, iterations=100, tune_budget=60_000),
    "thorough": Budget(games=100_000, search_games=1_000, iterations=200, tune_budget=200_000),
}


@dataclass(frozen=True)
class WhatIf:
    """A checked request: the rules both sides share, A's and B's own values, the scripted
    field's lineup (spec texts, one per seat), the presets' lineup (None without presets)."""

    game: str
    players: int
    shared: dict
    a: dict
    b: dict
    field: list[str]
    presets: list[str] | None
    seed: int
    budget: Budget
    fields: tuple[str, ...]
    out: Path

    def rules(self, arm: str) -> dict:
        return {**self.shared, **(self.a if arm == "A" else self.b)}

    def request(self) -> dict:
        return {**asdict(self), "out": None}


def _sides(game: registry.Game, set_texts: list[str], vs_texts: list[str]):
    """(shared, A, B): a key given with --vs takes A's value from --set; the other --set keys are
    shared by both."""
    given = registry.parse_settings(game, set_texts)
    other = registry.parse_settings(game, vs_texts)
    if not other:
        raise SpecError("give --vs KEY=VALUE: rule set B, against --set KEY=VALUE (rule set A)")
    alone = [key for key in other if key not in given]
    if alone:
        raise SpecError(f"--vs {alone[0]}=...: give A's value too, with --set {alone[0]}=...")
    a = {key: given[key] for key in other}
    if a == other:
        raise SpecError("--set and --vs give the same values: A and B are the same rules")
    shared = {key: value for key, value in given.items() if key not in other}
    return shared, a, other


def scripted_field(game: registry.Game, players: int) -> list[str]:
    """The game's scripted strategies around the table, in registry order, repeated as needed;
    ``random`` only when there is nothing else (it loses nearly every game: a rule that changes
    how the others beat it says little about the game)."""
    names = [s.name for s in game.strategies if s.name != "random"] or [game.strategies[0].name]
    return [names[k % len(names)] for k in range(players)]


def preset_field(game: registry.Game, players: int) -> list[str] | None:
    """The game's presets around the table (``preset:NAME``), or None without presets."""
    names = list(registry.presets(game.id))
    if not names:
        return None
    return [f"{registry.PRESET_PREFIX}{names[k % len(names)]}" for k in range(players)]


def assumptions(request: WhatIf) -> list[str]:
    """What the answer rests on that the designer should know: which presets the tuned field is."""
    if "tuned" not in request.fields:
        return []
    names = ", ".join(dict.fromkeys(request.presets))
    return [f"The tuned field: the presets tuned at {request.players} players ({names})."]


def plan(
    game_id: str,
    players: int | None,
    strategies: list[str],
    set_texts: list[str],
    vs_texts: list[str],
    seed: int,
    budget: str,
    games: int | None,
    fields: list[str],
    out: Path,
) -> WhatIf:
    """Check every input of ``powerlab whatif`` before anything runs."""
    game = registry.make(game_id)
    players = registry.table_players(game) if players is None else players
    game.check_players(players)
    shared, a, b = _sides(game, set_texts, vs_texts)
    chosen = tuple(fields) or FIELDS
    unknown = [name for name in chosen if name not in FIELDS]
    if unknown:
        raise SpecError(f"--field {unknown[0]!r}: expected one of {', '.join(FIELDS)}")
    plan_budget = BUDGETS[budget]
    if games is not None:
        storage.check_count(games, "--games", storage.MAX_GAMES, "games per cell")
        plan_budget = Budget(games, plan_budget.search_games, plan_budget.iterations,
                             plan_budget.tune_budget)  # fmt: skip
    field = list(strategies) or scripted_field(game, players)
    presets = preset_field(game, players)
    if "tuned" in chosen and presets is None:
        chosen = tuple(name for name in chosen if name != "tuned")
    request = WhatIf(
        game_id, players, shared, a, b, field, presets, seed, plan_budget, chosen, Path(out)
    )
    for arm in ARMS:  # every lineup under every rule set, checked as a run checks it
        for lineup in _lineups(request).values():
            strategies = [registry.parse_strategy(game, text, players) for text in lineup]
            runner.check_spec(
                runner.RunSpec(game_id, players, strategies, request.rules(arm), seed, 1, True)
            )
    if "re-tuned" in chosen:
        tuning_specs(request)  # a budget too small for a tuning is refused here
    return request


def _search_lineup(request: WhatIf) -> list[str]:
    """The search player in the first seat of the scripted field (the seats rotate)."""
    return [f"{registry.SEARCH}:iterations={request.budget.iterations}", *request.field[1:]]


def _lineups(request: WhatIf) -> dict[str, list[str]]:
    """Every field's lineup that does not wait for a tuning."""
    lineups = {"scripted": request.field}
    if "tuned" in request.fields:
        lineups["tuned"] = request.presets
    if "search" in request.fields:
        lineups["search"] = _search_lineup(request)
    return lineups


def check_out(request: WhatIf) -> None:
    """Refuse, before anything is written, an OUT holding anything but this request."""
    out = request.out
    if out.exists() and not out.is_dir():
        raise SpecError(f"--out {out} is a file, not a directory")
    marker = out / REQUEST_FILE
    if marker.exists():
        stored = storage.read_stored(marker, "whatif request", result_schemas.WhatifRequest)
        if stored.get("request") != storage.as_stored(request.request()):
            raise SpecError(f"--out {out} holds another whatif; use another --out")
    elif out.exists() and not storage.is_empty(out):
        raise SpecError(f"--out {out} is not empty and holds no whatif")


def _families(game: registry.Game, field: list[str], players: int) -> dict[str, int]:
    """Each tunable strategy family of the field and the first seat it holds."""
    found: dict[str, int] = {}
    for seat, text in enumerate(field):
        strategy = registry.parse_strategy(game, text, players)
        if strategy["name"] not in found and game.strategy(strategy["name"]).params:
            found[strategy["name"]] = seat
    return found


def tuning_specs(request: WhatIf) -> dict[tuple[str, str], tuning.TuneSpec]:
    """{(arm, family): its tuning}: each tunable family of the scripted field (its first seat)
    tuned against the rest of the field under that rule set, from its own start, on seeds the
    cells never play."""
    game = registry.make(request.game)
    specs = {}
    for arm in ARMS:
        for family, seat in _families(game, request.field, request.players).items():
            against = request.field[:seat] + request.field[seat + 1 :]
            specs[arm, family] = tuning.build_spec(
                request.game, request.players, request.field[seat], against, [],
                (request.seed + TUNING_SEED_OFFSET) % (runner.MAX_SEED + 1),
                request.budget.tune_budget, rules=request.rules(arm), from_start=True,
            )  # fmt: skip
    return specs


def retune(request: WhatIf, threads=None, scheduler=None, notify=print) -> dict:
    """Each tunable family of the scripted field tuned under A and under B against the rest of
    the field: {arm: {"lineup": [...], "gains": [{family, start, best, diff, ci_low, ci_high}]}}.
    Resumable: OUT/tuning/<arm>/<family>/."""
    game = registry.make(request.game)
    specs = tuning_specs(request)
    result = {}
    for arm in ARMS:
        lineup = list(request.field)
        gains = []
        for family, seat in _families(game, request.field, request.players).items():
            spec = specs[arm, family]
            notify(f"tuning {family} for rule set {arm}")
            folder = request.out / "tuning" / arm / family
            summary = tuning.tune(spec, folder, threads, scheduler)
            fresh = summary["fresh"]
            best = summary["best"] if fresh["diff_ci_low"] > 0 else summary["baseline"]
            gains.append(
                {"family": family, "start": request.field[seat], "best": best,
                 **{key: fresh[key] for key in ("diff", "diff_ci_low", "diff_ci_high")}}
            )  # fmt: skip
            lineup = [
                best
                if registry.parse_strategy(game, text, request.players)["name"] == family
                else text
                for text in lineup
            ]
        result[arm] = {"lineup": lineup, "gains": gains}
    return result


def study_text(request: WhatIf, retuned: dict) -> str:
    """The study file: arms A and B, an opponent setting (the whole table) per field."""
    game = registry.make(request.game)
    settings = []
    for name, lineup in _lineups(request).items():
        setting = {"name": name, "seats": "all", "strategies": lineup}
        if name == "search":
            setting["games"] = request.budget.search_games
        settings.append(setting)
    for arm in retuned:
        settings.append(
            {"name": f"re-tuned for {arm}", "seats": "all", "strategies": retuned[arm]["lineup"]}
        )
    study = {
        "title": f"whatif: {game.title}, {request.players} players",
        "question": "Is rule set A or B better, in every field of players? "
        f"A: {_rules_text(request.a)}; B: {_rules_text(request.b)}.",
        "assumptions": assumptions(request),
        "game": request.game,
        "players": request.players,
        "games": request.budget.games,
        "seed": request.seed,
        "rotate_seats": True,
        "rules": request.shared,
        "strategies": request.field[:1],
        "arms": [{"name": arm, "rules": request.a if arm == "A" else request.b} for arm in ARMS],
        "opponents": settings,
    }
    return tomli_w.dumps(study)


def _rules_text(rules: dict) -> str:
    return ", ".join(f"{key}={_value(value)}" for key, value in rules.items())


def _value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def run(request: WhatIf, threads=None, scheduler=None, progress=None, notify=print) -> dict:
    """Tune (the re-tuned field), write the study file, play every cell; returns study.json."""
    from simcore.workflows.study import load_study, run_study

    check_out(request)
    request.out.mkdir(parents=True, exist_ok=True)
    storage.write_json(
        request.out / REQUEST_FILE, {"format": storage.FORMAT, "request": request.request()}
    )
    retuned = retune(request, threads, scheduler, notify) if "re-tuned" in request.fields else {}
    text = study_text(request, retuned)
    path = request.out / STUDY_FILE
    if not path.exists() or files.read_text(path, "study file") != text:
        storage.atomic_write_bytes(path, lambda tmp: tmp.write_text(text))
    storage.write_json(request.out / "tunings.json", {"format": storage.FORMAT, "retuned": retuned})
    study = load_study(path)
    return run_study(
        study, request.out / STUDY_DIR, threads=threads, scheduler=scheduler,
        progress=progress, notify=notify,
    )  # fmt: skip
