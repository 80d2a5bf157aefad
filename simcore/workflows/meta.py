"""`powerlab meta`: the empirical game over every lineup of a population (docs/meta.md).

A population file is TOML: ``strategies = ["spec", ...]`` (the same spec strings as
``--strategy``, presets included), optionally ``game = "..."`` to guard against the wrong file.
With k strategies and n seats the game is symmetric, so only the multisets matter: C(k + n - 1, n)
lineups. Each is a normal run directory ``OUT/lineups/<i-j-...>/`` (indices into the population),
all with the same seed, so game g of every lineup starts from the same random stream (common
random numbers). Rerunning resumes every lineup; ``OUT/meta.json`` holds the spec, and a
different spec is refused before anything is written.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from simcore import registry
from simcore.registry import SpecError
from simcore.workflows import runner, schemas, storage

MAX_PROFILES = 20_000  # the normal form the solvers read has k^n profiles
# The solvers hold every lineup's games in memory, k + 1 bytes a game (the seats of each of the
# k strategies that won, whether the game had a result), twice over while they are stacked.
MAX_HELD_BYTES = 4 * 2**30
# Each resample solves the game again: up to seconds each at today's speed (6 strategies at 4
# players: 7 s), so a thousand of them can take hours.
MAX_RESAMPLES = 1000
RESAMPLES_WHY = "each resample solves the game again, up to seconds each"


@dataclass
class MetaSpec:
    game: str
    players: int
    population: list[dict]
    rules: dict
    seed: int
    games: int

    def labels(self) -> list[str]:
        game = registry.make(self.game)
        return [game.strategy(s["name"]).label(s["params"]) for s in self.population]

    def lineups(self) -> list[tuple[int, ...]]:
        from analyses.gametheory import lineups

        return lineups(len(self.population), self.players)

    def run_spec(self, lineup: tuple[int, ...]) -> runner.RunSpec:
        return runner.RunSpec(
            game=self.game,
            players=self.players,
            strategies=[dict(self.population[j]) for j in lineup],
            rules=dict(self.rules),
            seed=self.seed,
            games=self.games,
            rotate_seats=True,
        )


def lineup_id(lineup: tuple[int, ...]) -> str:
    return "-".join(map(str, lineup))


def read_population(path: Path, game: registry.Game) -> list[str]:
    """The strategy specs of a population file; every mistake is one line."""
    data = schemas.read_toml(path, "population file", schemas.PopulationFile)
    if data.game not in (None, game.id):
        raise SpecError(f"{path}: game: a population of {data.game!r}, not {game.id!r}")
    return list(data.strategies)


def check_population(
    game: registry.Game, texts: list[str], where: str, players: int | None = None
) -> list[dict]:
    """Checked specs of a population (presets: tuned at ``players``): at least two, each label
    once."""
    if len(texts) < 2:
        raise SpecError(f"{where}: strategies: a meta-game needs at least 2, got {len(texts)}")
    population = []
    for text in texts:
        try:
            population.append(registry.parse_strategy(game, text, players))
        except SpecError as error:
            raise SpecError(f"{where}: strategies: {error}") from None
    labels = [game.strategy(s["name"]).label(s["params"]) for s in population]
    twice = next((label for label in labels if labels.count(label) > 1), None)
    if twice:
        raise SpecError(f"{where}: strategies: {twice!r} appears twice")
    return population


def build_spec(
    game_id: str,
    players: int,
    population: Path | list[str],
    set_texts: list[str],
    seed: int,
    games: int,
) -> MetaSpec:
    """A checked spec; ``population`` is a population file or a list of strategy specs."""
    game = registry.make(game_id)
    game.check_players(players)
    if isinstance(population, list):
        texts, where = population, "population"
    else:
        texts, where = read_population(population, game), str(population)
    spec = MetaSpec(
        game=game_id,
        players=players,
        population=check_population(game, texts, where, players),
        rules=registry.parse_settings(game, set_texts),
        seed=seed,
        games=games,
    )
    profiles = len(spec.population) ** players
    if profiles > MAX_PROFILES:
        raise SpecError(
            f"{len(spec.population)} strategies at {players} players make {profiles:,} profiles "
            f"for the solvers (at most {MAX_PROFILES:,}): use a smaller population"
        )
    lineups = len(spec.lineups())
    per_game = 2 * lineups * (len(spec.population) + 1)
    storage.check_count(
        games, "--games", MAX_HELD_BYTES // per_game,
        f"the solvers hold the games of all {lineups} lineups in memory, {per_game} bytes a game",
    )  # fmt: skip
    checked = runner.check_spec(spec.run_spec(spec.lineups()[0]))
    spec.rules = checked.rules
    return spec


def check_resamples(resamples: int) -> int:
    """The bootstrap resamples of a meta report, or SpecError before any lineup is played."""
    return storage.check_count(resamples, "--resamples", MAX_RESAMPLES, RESAMPLES_WHY, low=0)


def lineup_dir(out: Path, lineup: tuple[int, ...]) -> Path:
    return Path(out) / "lineups" / lineup_id(lineup)


def check_dir(spec: MetaSpec, out: Path) -> None:
    """Refuse, before anything is written, an OUT holding something other than this meta-game."""
    identity = {**_identity(spec), "games": 0}  # more games per lineup extend the runs

    def same(stored: dict) -> bool:
        spec = stored.get("spec")
        return isinstance(spec, dict) and {**spec, "games": 0} == identity

    storage.check_owned(out, "meta.json", same, "meta-game")
    for lineup in spec.lineups():
        runner.check_out_dir(spec.run_spec(lineup), lineup_dir(out, lineup))


def _identity(spec: MetaSpec) -> dict:
    return storage.as_stored(asdict(spec))


def run_meta(
    spec: MetaSpec,
    out: Path,
    threads: int | None = None,
    scheduler: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    notify: Callable[[str], None] = lambda line: None,
) -> dict:
    """Play every lineup (resuming), then write OUT/meta.json; returns it. The meta-game holds
    OUT's writer lock throughout (each lineup's run holds its own)."""
    out = Path(out)
    check_dir(spec, out)
    with storage.locked(out):
        check_dir(spec, out)  # again, now that no other writer can
        info = {
            "format": storage.FORMAT,
            "spec": _identity(spec),
            "labels": spec.labels(),
            "lineups": [lineup_id(lineup) for lineup in spec.lineups()],
        }
        storage.write_json(out / "meta.json", info)
        for lineup in spec.lineups():
            folder = lineup_dir(out, lineup)
            report = functools.partial(progress, folder.name) if progress else None
            runner.run(
                spec.run_spec(lineup), folder, threads=threads, progress=report,
                scheduler=scheduler, notify=notify,
            )  # fmt: skip
    return info


def read_meta_json(out: Path) -> dict:
    """OUT/meta.json of this FORMAT, checked (``schemas.MetaInfo``)."""
    return storage.read_checked(Path(out) / "meta.json", "meta.json", schemas.MetaInfo)
