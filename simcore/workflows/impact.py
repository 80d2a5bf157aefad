"""`powerlab impact`: what each component does to the game, measured by intervention.

Every component the game declares — a rule that switches one component's ability on
(``Param.component``: a character, a privilege card) or an entry of a data file
(``Game.data_components``: a card, an event) — becomes one arm of a study: the same games (seed,
lineup, rotation) played with that component switched off or removed, against a base arm with
everything in. A designer's own change (``--change KEY=VALUE``: a rule value or an edited data
file) is one more arm. Every arm plays the same game indices, so game i of every arm starts from
the same random stream and the paired differences (analyses/intervention.py) measure what the
component does, not when it happens to show up.

OUT holds the study file that reproduces the measurement (impact.toml), the data files it plays
(data/), what each arm switches (impact.json) and the study's cells (study/). Rerunning the same
command resumes it; a different one is refused.
"""

from __future__ import annotations

import hashlib
import tempfile
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

import tomli_w

from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import files, result_schemas, runner, storage
from simcore.workflows.balance_spec import data_document

BASE_ARM = "base"
STUDY_FILE = "impact.toml"
COMPONENTS_FILE = "impact.json"
STUDY_DIR = "study"
DATA_DIR = "data"
DEFAULT_GAMES = 5000  # per arm: a win rate's paired 95% CI of about ±1 point on most games


@dataclass(frozen=True)
class Component:
    """One arm: ``name`` (unique), what it is (``kind``: "card", "character", "change"), the
    value it is compared within (``group``: a card's level, "" for none) and the rule overrides
    that switch it off or apply the change. ``document`` is an edited data file to write for
    rule ``data_rule``, if any."""

    name: str
    kind: str
    group: str
    rules: dict
    document: dict | None = None
    data_rule: str = ""

    @property
    def arm(self) -> str:
        return f"{self.kind} {self.name}"


def _entry_names(entries: list) -> list[str]:
    """Each entry's name, a repeated one as "Name (2)", "Name (3)" (the reports' labels)."""
    seen: dict[str, int] = {}
    names = []
    for entry in entries:
        name = str(entry.get("name", "?")) if isinstance(entry, dict) else "?"
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return names


def switch_components(game: registry.Game, rules: dict) -> list[Component]:
    """A component per rule that switches one on, where the rules in play have it on."""
    return [
        Component(p.name, p.component, "", {p.name: False})
        for p in game.rules
        if p.component and rules[p.name] is True
    ]


def data_components(game: registry.Game, rules: dict) -> list[Component]:
    """A component per entry of every data file the game declares components in: its rules
    with a copy of the file that lacks the entry."""
    found = []
    for declared in game.data_components:
        document = data_document(game, rules, declared.rule)
        entries = document.get(declared.table)
        if not isinstance(entries, list):
            raise SpecError(
                f"{game.id}: the {declared.rule} file has no [[{declared.table}]] entries"
            )
        for k, name in enumerate(_entry_names(entries)):
            edited = tomllib.loads(tomli_w.dumps(document))  # a deep copy, as TOML
            removed = edited[declared.table].pop(k)
            group = ""
            if declared.group and isinstance(removed, dict) and declared.group in removed:
                group = f"{declared.group} {removed[declared.group]}"
            found.append(Component(name, declared.kind, group, {}, edited, declared.rule))
    return found


def change_components(game: registry.Game, changes: list[str]) -> list[Component]:
    """An arm per ``--change KEY=VALUE``: a rule value, or a data file for a path rule."""
    found = []
    for text in changes:
        key, sep, value = text.partition("=")
        if not sep or not key.strip():
            raise SpecError(f"--change {text!r}: expected KEY=VALUE (a rule parameter)")
        param = game.rule(key.strip())
        parsed = param.parse(value, f"--change {key.strip()}")
        if param.kind == "path":
            files.read_bytes(parsed, "data file")
        shown = Path(parsed).name if param.kind == "path" else value.strip()
        found.append(Component(f"{param.name}={shown}", "change", "", {param.name: parsed}))
    return found


def select(components: list[Component], wanted: list[str]) -> list[Component]:
    """The components named in ``wanted`` (all when empty); an unknown name is a SpecError that
    lists a few known ones."""
    if not wanted:
        return components
    by_name = {c.name: c for c in components}
    unknown = [name for name in wanted if name not in by_name]
    if unknown:
        known = ", ".join(list(by_name)[:12]) + (", ..." if len(by_name) > 12 else "")
        raise SpecError(f"unknown component {unknown[0]!r} (known: {known or 'none'})")
    return [by_name[name] for name in dict.fromkeys(wanted)]


@dataclass(frozen=True)
class ImpactPlan:
    """Everything an impact run writes, computed (and checked) before it writes anything."""

    out: Path
    study_text: str
    components: list[Component]
    data_files: dict[str, str]  # file name under OUT/data -> text
    skipped: list[str]  # components the game's own loader refuses without them, and why

    @property
    def study_path(self) -> Path:
        return self.out / STUDY_FILE


def _data_name(rule: str, text: str) -> str:
    return f"{rule}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.toml"


def _refusal(game: registry.Game, rules: dict, players: int) -> str | None:
    """Why the game's loader refuses ``rules`` at ``players``, or None."""
    try:
        game.kernel().prepare(rules, players)
    except SpecError as error:
        return str(error).splitlines()[0]
    return None


def plan(
    game_id: str,
    players: int | None,
    strategies: list[str],
    settings: list[str],
    seed: int,
    games: int,
    rotate: bool,
    out: Path,
    wanted: list[str],
    changes: list[str],
) -> ImpactPlan:
    """Check every input and build the study: a base arm, then an arm per component (or per
    ``wanted`` one) and per change. An entry whose removal the game's loader refuses (a deck
    too small without it) is left out with its reason, unless it was asked for by name. Without
    ``players``: 4, or the game's nearest count."""
    game = registry.make(game_id)
    players = registry.table_players(game) if players is None else players
    base = runner.build_spec(game_id, players, strategies, settings, seed, games, rotate)
    found = switch_components(game, base.rules) + data_components(game, base.rules)
    chosen = select(found, wanted) + change_components(game, changes)
    if not chosen:
        raise SpecError(
            f"{game_id} declares no components to switch off in these rules: "
            "give --change KEY=VALUE"
        )
    out = Path(out).resolve()
    data_files: dict[str, str] = {}
    kept, skipped = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for component in chosen:
            rules = {**base.rules, **component.rules}
            if component.document is not None:
                text = tomli_w.dumps(component.document)
                name = _data_name(component.data_rule, text)
                (Path(scratch) / name).write_text(text)
                refused = _refusal(
                    game, {**rules, component.data_rule: str(Path(scratch) / name)}, players
                )
                rules[component.data_rule] = str(out / DATA_DIR / name)
                component = Component(
                    component.name, component.kind, component.group,
                    {component.data_rule: rules[component.data_rule]},
                )  # fmt: skip
            else:
                name, text, refused = "", "", _refusal(game, rules, players)
            if refused:
                if component.name in wanted or component.kind == "change":
                    raise SpecError(f"{component.arm}: {refused.replace(scratch, DATA_DIR)}")
                skipped.append(f"{component.arm}: {refused.replace(scratch, DATA_DIR)}")
                continue
            if name:
                data_files[name] = text
            kept.append(component)
    arms = [{"name": BASE_ARM}] + [{"name": c.arm, "rules": c.rules} for c in kept]
    study = {
        "title": f"impact: {game.title}, {players} players",
        "question": "What does each component do to the game? Each arm switches one off "
        "(or applies one change); every arm plays the same games.",
        "game": game_id,
        "players": players,
        "games": base.games,
        "seed": seed,
        "rotate_seats": rotate,
        "strategies": strategies or [game.default_strategy],
        "rules": {k: v for k, v in base.rules.items() if v != game.rule(k).default},
        "arms": arms,
    }
    return ImpactPlan(out, tomli_w.dumps(study), kept, data_files, skipped)


def check_out(impact: ImpactPlan) -> None:
    """Refuse, before anything is written, an OUT that holds something else than this impact
    run (the same command resumes it)."""
    out = impact.out
    if out.exists() and not out.is_dir():
        raise SpecError(f"--out {out} is a file, not a directory")
    if impact.study_path.exists():
        if files.read_text(impact.study_path, "study file") != impact.study_text:
            raise SpecError(f"--out {out} holds an impact run of other settings; use another --out")
    elif out.exists() and not storage.is_empty(out):
        raise SpecError(f"--out {out} is not empty and holds no impact run")


def write(impact: ImpactPlan) -> None:
    """The data files, what each arm is and the study file (last: its presence marks OUT)."""
    out = impact.out
    (out / DATA_DIR).mkdir(parents=True, exist_ok=True)
    for name, text in impact.data_files.items():
        target = out / DATA_DIR / name
        if not target.exists():
            storage.atomic_write_bytes(target, lambda tmp, text=text: tmp.write_text(text))
    components = [
        {**{k: v for k, v in asdict(c).items() if k not in ("document", "data_rule")}, "arm": c.arm}
        for c in impact.components
    ]
    storage.write_json(out / COMPONENTS_FILE, {"format": storage.FORMAT, "components": components})
    storage.atomic_write_bytes(impact.study_path, lambda tmp: tmp.write_text(impact.study_text))


def read_components(out: Path) -> list[dict]:
    """The components of an impact directory (impact.json), in arm order."""
    path = Path(out) / COMPONENTS_FILE
    model = result_schemas.ImpactComponents
    return storage.read_stored(path, "impact components", model)["components"]


def run(impact: ImpactPlan, threads=None, scheduler=None, progress=None, notify=print) -> dict:
    """Write OUT (checked first) and play every arm: a resumed run plays only what is missing.
    Returns the study's study.json."""
    from simcore.workflows.study import load_study, run_study

    check_out(impact)
    write(impact)
    study = load_study(impact.study_path)
    return run_study(
        study, impact.out / STUDY_DIR, threads=threads, scheduler=scheduler,
        progress=progress, notify=notify,
    )  # fmt: skip
