"""`powerlab balance FILE --out DIR`: which values of the rules and components balance a game
(docs/balance.md).

A balance file (TOML) names the game, the player counts, the lineup that plays, the rule parameters
and data-file numbers that may change (numbers with their ranges; a bool or choice rule among its
values) and the objectives. Every objective is a distance to minimise (0 = on target). The search is
optuna's multi-objective sampler (NSGA-II or TPE) in batches: each batch of candidates plays the
first rung of games, the best third by Pareto rank plays three times as many, and so on (successive
halving); every candidate plays the same game indices of the root seed (common random numbers). The
finalists (the non-dominated candidates of the last rung) and the rulebook's values are then
measured on fresh games (root seed + 1) with bootstrap 95% intervals, and again, with ``[robust]``,
after the lineup's strategies are re-tuned for each of them by ``powerlab tune``'s machinery.

The balance file and the candidates' rules are in balance_spec.py, a candidate's games and
objectives in balance_measure.py; this module searches, measures the finalists and writes the
results.

A balance directory holds ``balance.json`` (the spec: another spec is refused),
``optuna.journal`` (rerunning resumes), ``games/`` (each candidate's per-game results, per rung:
a resumed search reads them instead of playing again), ``data/`` (the data files of the
candidates, named by their content), ``tuning/`` (the re-tunings), ``trials.parquet``,
``front.parquet``, ``summary.json``, ``rulesets/<candidate>.toml`` (a study file that reproduces
each proposed rule set's measurements) and ``report.pdf``.
"""

from __future__ import annotations

import copy
import itertools
import math
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from simcore import registry
from simcore.workflows import storage, tuning
from simcore.workflows.balance_measure import held, intervals, lineups_needed, measure, play, played
from simcore.workflows.balance_spec import (
    REDUCTION,
    BalanceSpec,
    candidate_rules,
    rulebook_values,
)

FORMAT = storage.FORMAT


# --- the search -------------------------------------------------------------------------------


def _stored_identity(spec: BalanceSpec) -> dict:
    return {"format": FORMAT, **spec.identity()}


def check_dir(spec: BalanceSpec, out: Path) -> None:
    """Refuse, before anything is written, an OUT holding something other than this search."""
    identity = _stored_identity(spec)
    storage.check_owned(out, "balance.json", lambda stored: stored == identity, "balance search")


def _sampler(spec: BalanceSpec, number: int):
    """The sampler for trial ``number``, seeded from (seed, number): a resumed search draws the
    same candidates as an uninterrupted one."""
    import optuna

    seed = (spec.seed * 1_000_003 + number) % 2**32
    if spec.sampler == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    return optuna.samplers.NSGAIISampler(population_size=spec.batch, seed=seed)


def _study(spec: BalanceSpec, out: Path):
    return tuning.journal_study(
        out, "balance", directions=["minimize"] * len(spec.objective_names())
    )


def pareto_ranks(values: np.ndarray) -> np.ndarray:
    """Non-dominated sorting of the rows of ``values`` (every column minimised; NaN is worst):
    0 for the front, 1 for the front of the rest, and so on."""
    values = np.where(np.isnan(values), np.inf, values)
    ranks = np.full(len(values), -1)
    rank = 0
    while (ranks < 0).any():
        left = np.flatnonzero(ranks < 0)
        for i in left:
            others = values[left]
            dominated = ((others <= values[i]).all(axis=1) & (others < values[i]).any(axis=1)).any()
            if not dominated:
                ranks[i] = rank
        rank += 1
    return ranks


def best_first(values: np.ndarray) -> list[int]:
    """Row order: Pareto rank, then the sum of the objectives (every one a distance to target)."""
    ranks = pareto_ranks(values)
    totals = np.where(np.isnan(values), np.inf, values).sum(axis=1)
    return sorted(range(len(values)), key=lambda i: (ranks[i], totals[i], i))


def _records_at(spec, out, player, number, rules, rung) -> dict:
    """A trial's search records up to ``rung`` (each rung's games stored once)."""
    games = spec.rung_games()
    parts = []
    for r in range(rung + 1):
        first = games[r - 1] if r else 0
        path = out / "games" / f"trial-{number}-r{r}.npz"
        parts.append(played(path, lambda f=first, s=games[r]: play(
            spec, player, rules, spec.seed, f, s)))  # fmt: skip
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def _objective_values(spec: BalanceSpec, records: dict) -> list[float]:
    measured = measure(spec, records)
    return [measured[name][1] for name in spec.objective_names()]


def search(spec: BalanceSpec, out: Path, player: tuning.Player, progress=None):
    """Batches of candidates raced by successive halving; returns the optuna study."""
    import optuna

    study = _study(spec, out)
    dimensions = [knob.dimension() for knob in spec.knobs]
    for start in range(0, spec.trials, spec.batch):
        numbers = range(start, min(spec.trials, start + spec.batch))
        known = study.get_trials(deepcopy=False)
        while len(known) < numbers.stop:  # ask the whole batch before playing any of it
            study.sampler = _sampler(spec, len(known))
            trial = study.ask()
            for d in dimensions:
                d.suggest(trial)
            known = study.get_trials(deepcopy=False)
        open_ = [
            t for t in known[numbers.start : numbers.stop]
            if t.state == optuna.trial.TrialState.RUNNING
        ]  # fmt: skip
        if not open_:
            continue
        rules = {t.number: candidate_rules(spec, t.params, out) for t in open_}
        alive, values, reached = [t.number for t in open_], {}, {}
        for rung in range(spec.rungs):
            for number in alive:
                records = _records_at(spec, out, player, number, rules[number], rung)
                values[number], reached[number] = _objective_values(spec, records), rung
                if progress:
                    progress(number, rung)
            if rung < spec.rungs - 1:
                order = best_first(np.array([values[n] for n in alive]))
                alive = [alive[i] for i in order[: max(1, math.ceil(len(alive) / REDUCTION))]]
        lineups = len(lineups_needed(spec))
        for frozen in open_:
            trial = optuna.trial.Trial(study, frozen._trial_id)  # as optuna's own ask() does
            trial.set_user_attr("rung", reached[frozen.number])
            trial.set_user_attr("games", spec.rung_games()[reached[frozen.number]] * lineups)
            finite = [v if math.isfinite(v) else 1e9 for v in values[frozen.number]]
            study.tell(trial, finite)
    return study


def trials_table(spec: BalanceSpec, study):
    """One row per trial: number, batch, rung reached, games, each searched value, each
    objective at its last rung."""
    import polars as pl

    rows = []
    for trial in study.get_trials(deepcopy=False):
        row = {
            "number": trial.number,
            "batch": trial.number // spec.batch,
            "state": trial.state.name.lower(),
            "rung": trial.user_attrs.get("rung"),
            "games": trial.user_attrs.get("games", 0),
        }
        row.update({f"param_{k.name}": trial.params.get(k.name) for k in spec.knobs})
        values = trial.values or [None] * len(spec.objective_names())
        row.update({f"obj_{n}": v for n, v in zip(spec.objective_names(), values, strict=True)})
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def finalists(spec: BalanceSpec, study) -> list:
    """The non-dominated candidates among those that played every rung, best first, distinct
    values only, at most ``spec.finalists``."""
    import optuna

    top = [
        t for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
        if t.user_attrs.get("rung") == spec.rungs - 1
    ]  # fmt: skip
    if not top:
        return []
    values = np.array([t.values for t in top])
    ranks = pareto_ranks(values)
    rulebook = rulebook_values(spec)

    def changes(i: int) -> tuple:
        """How far from the rulebook: values changed, then the changes over the ranges (a
        bool or choice changed counts 1)."""
        moved = [k.moved(top[i].params[k.name], rulebook[k.name]) for k in spec.knobs]
        return sum(m > 0 for m in moved), sum(moved)

    chosen, seen = [], set()
    # Candidates with the same objectives on the same games play alike (a value that never
    # binds): the one that changes the rulebook least stands for them.
    for i in sorted(best_first(values), key=lambda i: (tuple(values[i]), changes(i))):
        key = tuple(values[i])
        if ranks[i] == 0 and key not in seen:
            seen.add(key)
            chosen.append(i)
    order = best_first(values)
    return [top[i] for i in sorted(chosen, key=order.index)][: spec.finalists]


# --- robustness, fresh measures and outputs ----------------------------------------------------


def retuned(spec, out: Path, player, name: str, rules: dict) -> tuple[list, list | None, list]:
    """The lineup with each ``[robust] tune`` strategy re-tuned for these rules (powerlab tune's
    search at ``robust.players`` against the rest of the lineup, in OUT/tuning/<name>/), and the
    lineup of the option held (its focal re-tuned with the option held: restricted play), or
    None without an option value objective. A tuned spec replaces the given one only if it beats
    it on the tuning's fresh games (paired 95% interval above 0, as self-play accepts a round):
    a small budget's noisy winner does not stand for skilled play. Also returns the tunings."""
    game = registry.make(spec.game)
    players = spec.robust_players
    lineup = spec.lineup(players)
    option = next((o for o in spec.objectives if o.kind == "option_value"), None)
    full = copy.deepcopy(spec.strategies)
    held_full = None if option is None else held(full, option)
    summaries = []
    for strategy in spec.robust_tune:
        seat = next(k for k, s in enumerate(lineup) if s["name"] == strategy)
        only = [p for p in spec.robust_params if game.strategy(strategy).param(p)]
        variants = [("free", {})]
        if option and option.focal == strategy:
            variants.append(("held", option.fixed))
        for variant, fixed in variants:
            if not _tunable(game, strategy, only, fixed):
                continue  # the option was all there was to tune: the held lineup stands
            tune_spec = tuning.build_spec(
                spec.game, players, game.strategy(strategy).label(lineup[seat]["params"]),
                lineup[:seat] + lineup[seat + 1 :], [], spec.seed, spec.robust_budget,
                only=[p for p in only if p not in fixed],
                fixed=[f"{k}={_text(v)}" for k, v in fixed.items()], rules=rules,
            )  # fmt: skip
            folder = out / "tuning" / name / f"{strategy}-{variant}"
            summary = tuning.tune_once(tune_spec, folder, player)
            accepted = summary["fresh"]["diff_ci_low"] > 0
            chosen = registry.parse_strategy(game, summary["best"]) if accepted else None
            summaries.append({"candidate": name, "strategy": strategy, "variant": variant,
                              "best": summary["best"], "accepted": accepted,
                              "fresh": summary["fresh"]})  # fmt: skip
            if chosen is None:
                continue
            if variant == "free":
                full = [chosen if s["name"] == strategy else s for s in full]
                if held_full is not None and strategy != option.focal:
                    held_full = [chosen if s["name"] == strategy else s for s in held_full]
                elif held_full is not None:  # held with the re-tuned focal, unless re-tuned held
                    held_full = held(full, option)
            else:
                held_full = [chosen if s["name"] == strategy else s for s in held_full]
    return full, held_full, summaries


def _tunable(game: registry.Game, strategy: str, only: list[str], fixed: dict) -> bool:
    """Whether the strategy has a parameter left to tune (of ``only``, if given) once ``fixed``
    ones are held."""
    return any(
        p.kind != "path" and p.name not in fixed and (not only or p.name in only)
        for p in game.strategy(strategy).params
    )


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def fresh_blocks(spec: BalanceSpec, games: int) -> list[tuple[int, int]]:
    """The fresh games [0, games) as blocks final_games x 1, 1, 2, 4, ...: the stored ones are
    reused when the measurement grows."""
    blocks, first = [], 0
    while first < games:
        stop = max(spec.final_games, 2 * first)
        blocks.append((first, stop))
        first = stop
    return blocks


def _fresh(spec, out, player, name, rules, lineups, games) -> dict:
    """A candidate's records of fresh games [0, games) (root seed + 1), each block stored once."""
    seed = tuning.fresh_seed(spec.seed)
    parts = [
        played(out / "games" / f"fresh-{name}-{first}-{stop}.npz",
               lambda f=first, s=stop: play(spec, player, rules, seed, f, s, lineups))
        for first, stop in fresh_blocks(spec, games)
    ]  # fmt: skip
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def unseparated(spec: BalanceSpec, measured: dict) -> list[tuple[str, str]]:
    """Pairs of non-dominated candidates that no objective tells apart: on none of them does the
    paired 95% interval of their difference exclude 0."""
    names = list(measured)
    objectives = spec.objective_names()
    values = np.array([[measured[n][o]["objective"] for o in objectives] for n in names])
    front = [n for n, rank in zip(names, pareto_ranks(values), strict=True) if rank == 0]
    pairs = []
    for a, b in itertools.combinations(front, 2):
        apart = False
        for o in objectives:
            low, high = np.nanpercentile(measured[a][o]["draws"] - measured[b][o]["draws"],
                                         [2.5, 97.5])  # fmt: skip
            apart |= bool(low > 0 or high < 0)
        if not apart:
            pairs.append((a, b))
    return pairs


def _row(spec, name, trial, values, setting, measured, rulebook) -> dict:
    row = {"candidate": name, "trial": trial, "setting": setting}
    row.update({f"param_{k}": v for k, v in values.items()})
    for objective, entry in measured.items():
        row.update({f"{objective}_{key}": value for key, value in entry.items() if key != "draws"})
        if rulebook is not None:  # paired: the same resampled games
            other = rulebook[objective]
            low, high = np.nanpercentile(entry["draws"] - other["draws"], [2.5, 97.5])
            row[f"{objective}_vs_rulebook"] = entry["objective"] - other["objective"]
            row[f"{objective}_vs_rulebook_low"] = float(low)
            row[f"{objective}_vs_rulebook_high"] = float(high)
    return row


def balance(spec: BalanceSpec, out: Path, threads=None, scheduler=None, progress=None) -> dict:
    """Run the search into ``out`` (resumable); returns (and writes) summary.json."""
    out = Path(out)
    check_dir(spec, out)
    with storage.locked(out):
        check_dir(spec, out)  # again, now that no other writer can
        storage.write_json(out / "balance.json", _stored_identity(spec))
        if (out / "summary.json").exists():
            return storage.read_balance_summary(out)
        with tuning.player(threads, scheduler) as player:
            return _search_and_measure(spec, out, player, progress)


def _search_and_measure(spec: BalanceSpec, out: Path, player, progress) -> dict:
    import polars as pl

    started, games_before = time.perf_counter(), player.games
    study = search(spec, out, player, progress)
    table = trials_table(spec, study)
    storage.atomic_write_bytes(out / "trials.parquet", table.write_parquet)
    chosen = finalists(spec, study)
    candidates = [("rulebook", None, rulebook_values(spec), dict(spec.rules))]
    candidates += [
        (f"trial-{t.number}", t.number, t.params, candidate_rules(spec, t.params, out))
        for t in chosen
    ]
    seed = tuning.fresh_seed(spec.seed)
    games = spec.final_games
    while True:  # more fresh games until the front's candidates are told apart (or the cap)
        measured_by = {
            name: intervals(spec, _fresh(spec, out, player, name, rules, None, games), seed)
            for name, _, _, rules in candidates
        }
        apart = unseparated(spec, measured_by)
        if not apart or 2 * games > spec.max_final_games:
            break
        games *= 2
    rows, tunings = [], []
    for name, number, values, rules in candidates:
        rows.append(_row(spec, name, number, values, "as given", measured_by[name],
                         measured_by["rulebook"]))  # fmt: skip
        if spec.robust_tune:
            full, held_full, summaries = retuned(spec, out, player, name, rules)
            tunings += summaries
            lineups = lineups_needed(spec, full, held_full)
            records = _fresh(spec, out, player, f"{name}-retuned", rules, lineups, games)
            measured_by[f"{name}-retuned"] = intervals(spec, records, seed)
            rows.append(_row(spec, name, number, values, "re-tuned", measured_by[f"{name}-retuned"],
                             measured_by["rulebook-retuned"]))  # fmt: skip
            if number is not None:
                write_ruleset(spec, out, name, rules, values, measured_by[f"{name}-retuned"],
                              games, (full, held_full))  # fmt: skip
        if number is not None:
            write_ruleset(spec, out, name, rules, values, measured_by[name], games)
    front = pl.DataFrame(rows, infer_schema_length=None)
    columns = [f"{name}_objective" for name in spec.objective_names()]
    given = front.filter(pl.col("setting") == "as given")
    ranks = pareto_ranks(given.select(columns).to_numpy())
    # The proposals in order of their robust measurement (re-tuned, with [robust]): Pareto rank
    # among the proposals, then the sum of the distances.
    robust = front.filter(
        (pl.col("setting") == ("re-tuned" if spec.robust_tune else "as given"))
        & pl.col("trial").is_not_null()
    )
    order = best_first(robust.select(columns).to_numpy())
    proposal = {robust["candidate"][i]: k + 1 for k, i in enumerate(order)}
    front = front.join(
        given.select("candidate").with_columns(
            on_front=pl.Series(ranks == 0),
            proposal=pl.Series([proposal.get(c) for c in given["candidate"]], dtype=pl.Int64),
        ),
        on="candidate",
    ).sort(pl.col("proposal").fill_null(0), maintain_order=True)
    storage.atomic_write_bytes(out / "front.parquet", front.write_parquet)
    wall = time.perf_counter() - started
    summary = {
        "title": spec.title,
        "question": spec.question,
        "game": spec.game,
        "players": spec.players,
        "lineup": [
            registry.make(spec.game).strategy(s["name"]).label(s["params"]) for s in spec.strategies
        ],  # fmt: skip
        "objectives": spec.objective_names(),
        "targets": [asdict(o) | {"population": None} for o in spec.objectives],
        "params": [asdict(k) | {"name": k.name} for k in spec.knobs],
        "rulebook": candidates[0][2],
        "finalists": sorted(proposal, key=proposal.get),
        "search": {
            "sampler": spec.sampler,
            "trials": table.height,
            "batch": spec.batch,
            "rung_games": spec.rung_games(),
            "lineups_per_candidate": len(lineups_needed(spec)),
            "games": int(table["games"].sum()),
            "final_games": spec.final_games,
            "fresh_games": games,
            "unseparated": [list(pair) for pair in apart],
            "seed": spec.seed,
            "fresh_seed": seed,
        },
        "tunings": tunings,
        "timings": {
            "seconds": round(wall, 3),
            "games_played_now": player.games - games_before,
        },
    }
    storage.write_json(out / "summary.json", summary)
    return summary


def write_ruleset(
    spec, out: Path, name: str, rules: dict, values, measured, games: int, lineups=None
) -> Path:
    """OUT/rulesets/<name>.toml: a study file that plays this rule set on the fresh games the
    balance search measured it on (same seed, games, lineup), so `powerlab study run` reproduces
    its seat win rates, lengths and endings, and (with an option value objective) the option's
    value as the paired answer of its two arms."""
    import tomli_w

    game = registry.make(spec.game)
    changed = {k: v for k, v in rules.items() if v != game.rule(k).default}
    strategies, held_strategies = lineups or (spec.strategies, None)
    texts = [game.strategy(s["name"]).label(s["params"]) for s in strategies]
    summary = ", ".join(f"{k} = {_text(v)}" for k, v in values.items())
    headline = "; ".join(
        f"{objective} {entry['value']:.4g} [{entry['low']:.4g}, {entry['high']:.4g}]"
        for objective, entry in measured.items()
    )
    study = {
        "title": f"{spec.title}: {name} ({summary})",
        "question": spec.question or f"How does {spec.game} play with {summary}?",
        "assumptions": [
            f"A rule set proposed by powerlab balance ({name}): {summary}"
            + (", with the strategies re-tuned for it ([robust])." if lineups else "."),
            f"Its balance measurement on these games (95% intervals): {headline}.",
            "Data files are named as the search wrote them (under its --out): run from the "
            "folder the search ran in.",
        ],
        "game": spec.game,
        "players": spec.players,
        "games": games,
        "seed": tuning.fresh_seed(spec.seed),
        "rotate_seats": True,
        "rules": changed,
        "strategies": texts,
    }
    option = next((o for o in spec.objectives if o.kind == "option_value"), None)
    if option:
        held_texts = [
            game.strategy(s["name"]).label(s["params"])
            for s in held(held_strategies or strategies, option)
        ]
        study["arms"] = [
            {"name": "as proposed", "strategies": texts},
            {"name": "option held", "strategies": held_texts},
        ]
        study["answer"] = {"focal": option.focal, "arms": ["as proposed", "option held"]}
    path = out / "rulesets" / f"{name}{'-retuned' if lineups else ''}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = tomli_w.dumps(study)
    storage.atomic_write_bytes(path, lambda tmp: tmp.write_text(text))
    return path
