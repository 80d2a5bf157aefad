"""powerlab: Monte Carlo balance analysis for tabletop games.

One function per command. Heavy modules (numba, polars, matplotlib) are imported inside the
commands so that ``powerlab --help`` stays fast. Every bad input ends as one line on stderr and
exit code 2, with nothing written.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="powerlab",
    help="Monte Carlo balance analysis for tabletop games: run millions of games between "
    "scripted strategies, then summarise and report with 95% confidence intervals.\n\n"
    "Start with `powerlab games`, then `powerlab run power --players 4 --games 100000 "
    "--out out/first`, `powerlab summary out/first` and `powerlab report out/first`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class BadInput(Exception):
    """Raised by commands for input errors that are not SpecError/AnalysisError."""


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"powerlab: error: {message}", err=True)
    raise SystemExit(code)


def notice(line: str) -> None:
    """A one-line note on stderr, e.g. a part removed on resume to be computed again."""
    typer.echo(f"powerlab: {line}", err=True)


# --- shared options --------------------------------------------------------------------------

PlayersOpt = Annotated[int, typer.Option("--players", "-p", help="Number of players.")]
NearestPlayersOpt = Annotated[
    int | None, typer.Option("--players", "-p", help="Players (default: 4, or the game's).")
]
StrategyOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--strategy",
        "-s",
        help="Strategy spec `name` or `name:key=value,...`; give it once for every seat or once "
        "per seat (seat 0 moves first). See `powerlab games GAME`.",
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="Rule parameter `key=value` (repeatable); see `powerlab games GAME`."
    ),
]
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Root seed: with the game index it fixes a game.")
]
RotateOpt = Annotated[
    bool,
    typer.Option(
        "--rotate-seats/--fixed-seats",
        help="Cycle the lineup over the seats so every strategy sits in every seat equally.",
    ),
]
ThreadsOpt = Annotated[
    int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
]


FocalOpt = Annotated[
    str,
    typer.Option("--focal", help="`seat:K` or a strategy name: the win rate to follow or compare."),
]


SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Run the chunks as tasks on a running Dask scheduler, e.g. tcp://host:8786 "
        "(docs/cluster.md). Results are identical to a local run.",
    ),
]
ClusterOpt = Annotated[
    str | None,
    typer.Option("--cluster", help="local:N starts a Dask cluster of N worker processes here."),
]


def _dask_target(scheduler: str | None, cluster: str | None) -> str | None:
    from simcore.workflows.cluster import dask_target

    return dask_target(scheduler, cluster)


def _spec(game, players, strategies, settings, seed, games, rotate, arcs=None):
    from simcore.workflows import runner

    return runner.build_spec(
        game, players, strategies or [], settings or [], seed, games, rotate, arcs
    )


# --- commands ---------------------------------------------------------------------------------


@app.command()
def games(
    game: Annotated[
        str | None, typer.Argument(help="Show one game's rules and strategies.")
    ] = None,
) -> None:
    """List the games, or one game's rule parameters and strategies with their docs."""
    from simcore.workflows import catalog

    typer.echo("\n".join(catalog.game_lines(game) if game else catalog.games_lines()))


@app.command()
def run(
    game: Annotated[str, typer.Argument(help="Game id (see `powerlab games`).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory to create or resume.")],
    players: PlayersOpt = 4,
    strategy: StrategyOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of games.")] = 100_000,
    seed: SeedOpt = 0,
    settings: SetOpt = None,
    rotate_seats: RotateOpt = True,
    threads: ThreadsOpt = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size",
            help="Games per Parquet part (also the resume unit). Default: 100,000, or for a "
            "lineup with an ismcts seat about 5 seconds of play each, so that the progress bar "
            "moves (the results are the same at any size).",
            show_default=False,
        ),
    ] = None,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci",
            help="Sequential stopping: add --games games at a time until the 95% CI half-width "
            "of the --focal win rate is at most this (or --max-games is reached).",
        ),
    ] = None,
    max_games: Annotated[
        int, typer.Option("--max-games", help="Cap on the games of a --until-ci run.")
    ] = 10_000_000,
    focal: FocalOpt = "seat:0",
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            help="K/N: compute only shard K of N of the game indices (SLURM/PBS array jobs); "
            "combine the shards with `powerlab merge`. See docs/cluster.md.",
        ),
    ] = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    arcs: Annotated[
        str | None,
        typer.Option(
            "--arcs",
            help="Also record the standing of every seat turn by turn for this share of the "
            "games, e.g. 1% (chosen by game index: the same games in every run of the spec), "
            "in OUT/arcs for the report's arcs pages (docs/arcs.md).",
        ),
    ] = None,
) -> None:
    """Play GAMES games and store one row per game under OUT (resumable: rerun to finish).

    Example: powerlab run power -p 4 -s counter -s bluffer -s honest -s random -n 1000000
    --seed 1 -o out/mix, then powerlab summary out/mix and powerlab report out/mix.
    """
    from simcore.workflows import console, runner
    from simcore.workflows.cluster import parse_shard, shard_range
    from simcore.workflows.study import run_until_ci

    spec = _spec(game, players, strategy, settings, seed, games, rotate_seats, arcs)
    shard_slice = parse_shard(shard, spec.games) if shard else None
    dask_target = _dask_target(scheduler, cluster)
    if until_ci is not None:
        if shard_slice:
            raise BadInput("--until-ci needs the whole run: it cannot be combined with --shard")
        runner.check_sequential(spec, out, until_ci, max_games, focal)
    first, stop = shard_range(spec.games, shard_slice)
    bar = console.RunBar(f"{game} x{players}", stop - first, notice)

    def run_spec(spec: runner.RunSpec, out: Path) -> dict:
        return runner.run(
            spec, out, threads=threads, chunk_size=chunk_size, progress=bar.update,
            shard=shard_slice, scheduler=dask_target, notify=notice, compiling=bar.compiling,
        )  # fmt: skip

    interrupted = False
    try:
        if until_ci is None:
            info = run_spec(spec, out)
        else:
            info = run_until_ci(spec, out, focal, until_ci, games, max_games, run_spec)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.stop()
    if interrupted:
        fail(console.kept(out, bar.total), INTERRUPTED)
    typer.echo(
        f"{out}: {spec.games} games ({console.computed_now(info['timings'])}). "
        f"Next: powerlab summary {out}"
    )


@app.command()
def merge(
    run_dirs: Annotated[list[Path], typer.Argument(help="Shard run directories of one spec.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="New directory for the merged run.")],
) -> None:
    """Combine the shards of a run (made with `run --shard K/N`) into one run directory.

    Checks that every shard has the same spec and that every game index is present exactly once.
    """
    from simcore.workflows import runner

    info = runner.merge(run_dirs, out)
    typer.echo(f"{out}: merged {len(run_dirs)} shards, {info['spec']['games']} games")


@app.command()
def summary(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Headline table: win rate per seat and per strategy with 95% CIs, how games ended, turns."""
    from analyses.dataset import load_run
    from analyses.summary import summary as make_summary
    from analyses.summary import summary_text

    loaded = load_run(run_dir)
    if as_json:
        typer.echo(json.dumps(make_summary(loaded), indent=2, allow_nan=False))
    else:
        typer.echo(summary_text(loaded))


PngOpt = Annotated[
    Path | None,
    typer.Option(
        "--png",
        help="Also write every page as a PNG (for slides) into this folder, created if missing: "
        "NN-page-title.png.",
    ),
]


TablesOpt = Annotated[
    Path | None,
    typer.Option(
        "--tables",
        help="Also write the table of every report page that has one as a CSV (for "
        "spreadsheets) into this folder, created if missing: NN-page-title.csv.",
    ),
]


def _check_targets(*targets, **options) -> None:
    from simcore.workflows import files

    files.check_report_targets(*targets, **options)


def _check_threads(threads: int | None, dask_target: str | None) -> None:
    """Refuse a bad --threads before anything is written (the workflows use it only once their
    directory is claimed)."""
    from simcore.workflows import runner

    if dask_target is None and threads is not None:
        runner.set_threads(threads)


def _echo_pngs(folder: Path | None, pages: int) -> None:
    if folder is not None:
        typer.echo(f"{pages} pages written as PNG to {folder}")


@app.command()
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="PDF to write (default RUN_DIR/report.pdf)."),
    ] = None,
    png: PngOpt = None,
    tables: TablesOpt = None,
) -> None:
    """Write the multi-page PDF report of a run (and, with --png, each page as a PNG; with
    --tables, every table as a CSV)."""
    from analyses.dataset import load_run
    from reports.pdf import write_report

    _check_targets(output, png, tables)
    run = load_run(run_dir)
    pdf = output or Path(run_dir) / "report.pdf"
    if output is None:  # into the run directory, now known to be one
        _check_targets(pdf, png, tables, pdf_option="")
    pages = write_report(run, pdf, png, tables)
    typer.echo(f"Report written to {pdf} ({len(pages)} pages)")
    _echo_pngs(png, len(pages))


@app.command()
def replay(
    game: Annotated[str, typer.Argument(help="Game id.")],
    game_index: Annotated[int, typer.Option("--game-index", "-i", help="Which game of the run.")],
    seed: SeedOpt = 0,
    players: PlayersOpt = 4,
    strategy: StrategyOpt = None,
    settings: SetOpt = None,
    rotate_seats: RotateOpt = True,
) -> None:
    """Print a turn-by-turn log of exactly the game a run with this spec played at GAME_INDEX."""
    from simcore.workflows import console, runner, storage

    storage.check_count(game_index, "--game-index", storage.MAX_GAMES - 1, storage.GAMES_WHY, 0)
    spec = _spec(game, players, strategy, settings, seed, game_index + 1, rotate_seats)
    for line in runner.replay(spec, game_index, console.compile_status):
        typer.echo(line)


@app.command("games-of")
def games_of(
    run_dir: Annotated[Path, typer.Argument(help="A run directory.")],
    where: Annotated[
        str,
        typer.Option(
            "--where",
            help='Condition on the games table\'s columns, e.g. "winner == 3 and turns < 10" '
            "(comparisons, and/or/not, + - * / %, `in [..]`; column names as in the Parquet "
            "table, docs/architecture.md).",
        ),
    ],
    limit: Annotated[
        int, typer.Option("--limit", help="List at most this many games (0: count only).")
    ] = 20,
) -> None:
    """List the games of a run that meet a condition, each with the `powerlab replay` command
    that prints it turn by turn."""
    from analyses.dataset import load_run
    from analyses.selection import games_where, replay_command
    from simcore.workflows import storage

    storage.check_count(limit, "--limit", storage.MAX_GAMES, "no run holds more games", low=0)
    loaded = load_run(run_dir)
    games = games_where(loaded, where)
    typer.echo(f"{games.height:,} of the run's games meet {where!r}")
    for row in games.head(limit).iter_rows(named=True):
        typer.echo(
            f"game {row['game_index']}: winner {row['winner']}, {row['turns']} turns, ended by "
            f"{row['ended_by']}: {replay_command(loaded.info, row['game_index'])}"
        )
    if games.height > limit > 0:
        typer.echo(f"... {games.height - limit:,} more (--limit)")


@app.command()
def warmup(
    game_ids: Annotated[
        list[str] | None, typer.Argument(help="Games to compile (default: all).")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            help="Games compiled side by side, each in a process of its own (numba compiles "
            "one function at a time, on one core); at most the number of cores. Default: one "
            "per core, at most one per game.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Compile the games' kernels now (1-3 minutes each, once per powerlab version), so that
    later runs start at once: for a cluster image, a class, a test run (`make test` runs it
    first), or before timing anything. Scripted seats and the search player (ismcts) are both
    compiled; a game already compiled is only loaded (about a second)."""
    from simcore import registry
    from simcore.workflows import console, runner

    cores = os.cpu_count() or 1
    if jobs is not None and not 1 <= jobs <= cores:
        fail(f"--jobs must be in [1, {cores}] (the cores of this machine), not {jobs}")
    ids = [registry.make(game_id).id for game_id in game_ids or registry.game_ids()]
    jobs = jobs or min(cores, len(ids))
    with contextlib.closing(
        runner.warm_up_games(ids, jobs, notice, console.compile_status)
    ) as results:
        for game_id, compiled, seconds in results:
            what = "compiled" if compiled else "already compiled, loaded"
            typer.echo(f"{game_id}: {what} in {seconds:.1f} s")


@app.command()
def bench(
    game_ids: Annotated[
        list[str] | None, typer.Argument(help="Games to benchmark (default: all).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per measurement.")] = 400_000,
    repeat: Annotated[int, typer.Option("--repeat", help="Measurements; the best counts.")] = 3,
    python_ratio: Annotated[
        bool,
        typer.Option(
            "--python-ratio",
            help="Also time the same kernel as plain Python (NUMBA_DISABLE_JIT=1) on a few games "
            "and report the speed-up.",
        ),
    ] = False,
    dask: Annotated[
        bool,
        typer.Option(
            "--dask",
            help="Also measure the Dask path: the run on LocalClusters of 1 and 2 worker "
            "processes against the local runner (scaling and per-chunk overhead).",
        ),
    ] = False,
    cold: Annotated[
        bool,
        typer.Option(
            "--compile",
            help="Measure each game's compile from an empty cache instead "
            "(a fresh process: its scripted kernel, then the whole warm-up).",
        ),
    ] = False,  # fmt: skip
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Number of players (one game only)."),
    ] = None,
    strategy: StrategyOpt = None,
    settings: SetOpt = None,
) -> None:
    """Games per second after warm-up (compile excluded), 1 thread and all threads.

    Each game is benchmarked at its bench spec: 4 players (or the nearest allowed count), the
    default strategy in every seat, default rules. For one game, --players, --strategy and --set
    bench the lineup and rules of a study instead (scripted strategies differ several-fold in
    speed).
    """
    from simcore.workflows import bench as speed

    speed.check_options(game_ids or [], games, repeat, players, strategy or [], settings or [])
    try:
        results = speed.cold_compile(game_ids or [], notice) if cold else speed.bench(
            game_ids or [], games, repeat, players, strategy or [], settings or [],
            python_ratio, dask, notice,
        )  # fmt: skip
    except speed.KernelFailed as error:  # a kernel bug, not bad input: say where, exit 1
        typer.echo(str(error), err=True)
        raise SystemExit(1) from None
    if as_json:
        typer.echo(json.dumps(results, indent=2))
        return
    describe = speed.describe_compile if cold else lambda g, e: speed.describe(g, e, repeat)
    typer.echo("\n".join(describe(game_id, entry) for game_id, entry in results.items()))


@app.command()
def compare(
    run_a: Annotated[Path, typer.Argument(help="Run directory A.")],
    run_b: Annotated[Path, typer.Argument(help="Run directory B (same seed and games as A).")],
    focal: Annotated[
        list[str] | None,
        typer.Option(
            "--focal", help="`seat:K` or a strategy name (repeatable; default: every strategy)."
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Also write the comparison as a PDF report."),
    ] = None,
    png: PngOpt = None,
    tables: TablesOpt = None,
) -> None:
    """Paired difference A - B in win rate, game by game (common random numbers), with 95% CI;
    with --output (and/or --png, --tables) also as a report: a PDF, each page as a PNG, every
    table as a CSV."""
    import polars as pl

    from analyses.dataset import load_run
    from analyses.paired import check_pairable, compare_runs, default_focals
    from reports.compare import whatif_hint

    _check_targets(output, png, tables)
    a, b = load_run(run_a), load_run(run_b)
    check_pairable(a, b)
    # Every focal first, so that a refusal comes before any line is printed.
    results = [compare_runs(a, b, name) for name in focal or default_focals(a.lineup, a.players)]
    for result in results:
        name = result["focal"]
        typer.echo(
            f"{name}: A {100 * result['rate_a']:.2f}% - B {100 * result['rate_b']:.2f}% = "
            f"{100 * result['diff']:+.2f} points, 95% CI [{100 * result['ci_low']:+.2f}, "
            f"{100 * result['ci_high']:+.2f}] over {result['games']} paired games; variance "
            f"reduction vs unpaired x{result['variance_reduction']:.1f}"
        )
    typer.echo(whatif_hint(a, b))
    if output is not None or png is not None or tables is not None:
        from reports.compare import write_compare_report

        pages = write_compare_report(a, b, pl.DataFrame(results), output, png, tables)
        if output is not None:
            typer.echo(f"Report written to {output} ({len(pages)} pages)")
        _echo_pngs(png, len(pages))


@app.command()
def impact(
    game: Annotated[str, typer.Argument(help="Game id (see `powerlab games`).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Impact directory to create or resume.")],
    players: NearestPlayersOpt = None,
    strategy: StrategyOpt = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per component (and for the base game).")
    ] = 5000,
    seed: SeedOpt = 0,
    settings: SetOpt = None,
    rotate_seats: RotateOpt = True,
    component: Annotated[
        list[str] | None,
        typer.Option(
            "--component",
            "-c",
            help="Measure only this component (repeatable; default: every one the game "
            "declares: its ability switches and its data file's cards or events).",
        ),
    ] = None,
    change: Annotated[
        list[str] | None,
        typer.Option(
            "--change",
            help="KEY=VALUE: also measure this change to the rules, e.g. a designer's edited "
            "card file (cards=my-cards.toml) or a price (banker_take=2); repeatable, one arm each.",
        ),
    ] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    png: PngOpt = None,
    tables: TablesOpt = None,
) -> None:
    """What each component does: every card, character, privilege or event switched off (or
    removed) in turn against the base game, on the same games (common random numbers).

    Writes OUT/impact.csv (each component's paired change of every seat's and strategy's win
    rate and of the game length, with 95% CIs), OUT/impact.pdf (ranked) and OUT/impact.toml,
    the study that reproduces it. Resumable. Example: powerlab impact time-barons -o out/cards
    """
    from reports.impact import headline_lines, write_impact_outputs
    from simcore.workflows import console
    from simcore.workflows import impact as impact_run

    dask_target = _dask_target(scheduler, cluster)
    _check_threads(threads, dask_target)
    _check_targets(png=png, tables=tables)
    plan = impact_run.plan(
        game, players, strategy or [], settings or [], seed, games, rotate_seats, out,
        component or [], change or [],
    )  # fmt: skip
    impact_run.check_out(plan)
    for line in plan.skipped:
        notice(f"left out: {line}")
    with console.cells_progress(len(plan.components) + 1) as on_progress:
        impact_run.run(
            plan, threads=threads, scheduler=dask_target, progress=on_progress, notify=notice
        )
    table, titles = write_impact_outputs(plan.out, png, tables)
    typer.echo("\n".join(headline_lines(table)))
    typer.echo(f"{out}: {len(plan.components)} components; {out / 'impact.csv'}, report "
               f"{out / 'impact.pdf'} ({len(titles)} pages)")  # fmt: skip
    _echo_pngs(png, len(titles))


@app.command()
def whatif(
    game: Annotated[str, typer.Argument(help="Game id (see `powerlab games`).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Whatif directory to create or resume.")],
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="KEY=VALUE: rule set A's value of a rule --vs changes (a rule only --set gives "
            "holds for both); repeatable.",
        ),
    ] = None,
    versus: Annotated[
        list[str] | None,
        typer.Option("--vs", help="KEY=VALUE: rule set B's value (a data file too); repeatable."),
    ] = None,
    players: NearestPlayersOpt = None,
    strategy: Annotated[
        list[str] | None,
        typer.Option(
            "--strategy",
            "-s",
            help="The scripted field, one per seat (default: the "
            "game's scripted strategies around the table).",
        ),
    ] = None,  # fmt: skip
    seed: SeedOpt = 0,
    budget: Annotated[
        str,
        typer.Option(
            "--budget",
            help="quick (a few minutes), default or thorough: games, "
            "tuning and search budgets (docs/whatif.md).",
        ),
    ] = "default",  # fmt: skip
    games: Annotated[
        int | None, typer.Option("--games", "-n", help="Games per cell (overrides --budget).")
    ] = None,
    field: Annotated[
        list[str] | None,
        typer.Option(
            "--field", help="scripted, tuned, re-tuned or search (repeatable; default: all four)."
        ),
    ] = None,  # fmt: skip
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    png: PngOpt = None,
    tables: TablesOpt = None,
) -> None:
    """Is rule set A (--set) or B (--vs) better, and does the answer survive a change of players?

    Plays both on the same games in four fields of players (the scripted strategies, the tuned
    presets, the field re-tuned for each rule set, the search player in a seat) and says per
    measure whether it keeps its sign in every field. Writes OUT/whatif.pdf (the answer first),
    OUT/whatif.csv and OUT/whatif.toml (the study that reproduces it). Resumable.
    Example: powerlab whatif power -p 5 --set banker_take=3 --vs banker_take=2 -o out/banker
    """
    from reports.whatif import robustness_lines, write_whatif_outputs
    from simcore.workflows import console
    from simcore.workflows import whatif as whatif_run

    if budget not in whatif_run.BUDGETS:
        raise BadInput(f"--budget must be one of {', '.join(whatif_run.BUDGETS)}, not {budget!r}")
    dask_target = _dask_target(scheduler, cluster)
    _check_threads(threads, dask_target)
    _check_targets(png=png, tables=tables)
    request = whatif_run.plan(
        game, players, strategy or [], settings or [], versus or [], seed, budget, games,
        field or [], out,
    )  # fmt: skip
    whatif_run.check_out(request)
    for line in whatif_run.assumptions(request):
        notice(line)
    with console.cells_progress(2 * len(request.fields)) as on_progress:
        whatif_run.run(
            request, threads=threads, scheduler=dask_target, progress=on_progress, notify=notice
        )
    table, titles = write_whatif_outputs(request.out, png, tables)
    typer.echo("\n".join(robustness_lines(table)))
    typer.echo(f"{out}: report {out / 'whatif.pdf'} ({len(titles)} pages), {out / 'whatif.csv'}")
    _echo_pngs(png, len(titles))


@app.command()
def tune(
    game: Annotated[str, typer.Argument(help="Game id (see `powerlab games`).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Tune directory to create or resume.")],
    players: PlayersOpt = 4,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            help="The strategy to tune, with its starting "
            "parameters: `name` or `name:key=value,...`.",
        ),
    ] = "",
    against: Annotated[
        list[str] | None,
        typer.Option(
            "--against",
            "-a",
            help="The other seats' strategies: once for all of them or once per other seat.",
        ),
    ] = None,
    self_play: Annotated[
        bool,
        typer.Option(
            "--self-play",
            help="Every seat plays the candidate: iterate best "
            "responses until one no longer beats the incumbent on fresh games.",
        ),
    ] = False,
    budget: Annotated[
        int,
        typer.Option(
            "--budget",
            "-n",
            help="Games the search may play (racing and finalists; per round in self-play).",
        ),
    ] = 100_000,
    seed: SeedOpt = 0,
    settings: SetOpt = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            help="Tune only this parameter (repeatable; "
            "default: every numeric, choice and bool parameter).",
        ),
    ] = None,
    fix: Annotated[
        list[str] | None,
        typer.Option(
            "--fix",
            help="NAME=VALUE: keep this parameter at VALUE "
            "(restricted play: switch an option off).",
        ),
    ] = None,
    search_range: Annotated[
        list[str] | None,
        typer.Option(
            "--range",
            help="NAME=LOW:HIGH[:log]: search a numeric "
            "parameter over this range instead of the declared one.",
        ),
    ] = None,
    sampler: Annotated[str, typer.Option("--sampler", help="tpe or cmaes (optuna).")] = "tpe",
    min_games: Annotated[
        int | None,
        typer.Option(
            "--min-games",
            help="Games of the first racing rung (default budget/1000, at least 25 per seat).",
        ),
    ] = None,
    final_games: Annotated[
        int | None,
        typer.Option(
            "--final-games",
            help="Fresh games measuring the winner and the starting parameters (default budget/4).",
        ),
    ] = None,
    rounds: Annotated[int, typer.Option("--rounds", help="Most self-play rounds.")] = 4,
    seeds: Annotated[
        int,
        typer.Option(
            "--seeds",
            help="Independent searches, from root seeds SEED, SEED+2, ...: their winners race "
            "on common games and the best is measured on fresh ones (a landscape with several "
            "basins can hold one search in the worse; each search gets the whole --budget).",
        ),
    ] = 1,
    from_start: Annotated[
        bool,
        typer.Option(
            "--from-start",
            help="The first candidate is the strategy as given (its starting parameters), "
            "racing like the others: the search then keeps the start unless it finds better.",
        ),
    ] = False,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    png: PngOpt = None,
) -> None:
    """Search a strategy's parameters for the highest win rate against a field (docs/tuning.md).

    Example: powerlab tune power -p 4 -s bluffer -a counter -a honest -a random -n 100000
    -o out/tune-bluffer; then use `--strategy "$(cat out/tune-bluffer/best.txt)"`.
    """
    from reports.tune import closing_lines, write_tune_report
    from simcore.workflows import tuning

    if not strategy:
        raise BadInput("give --strategy, the strategy to tune")
    _check_targets(png=png)
    dask_target = _dask_target(scheduler, cluster)
    spec = tuning.build_spec(
        game, players, strategy, against or [], settings or [], seed, budget,
        self_play=self_play, only=param or [], fixed=fix or [], ranges=search_range or [],
        sampler=sampler, min_games=min_games, final_games=final_games, rounds=rounds,
        from_start=from_start, starts=seeds,
    )  # fmt: skip
    summary = tuning.tune(spec, out, threads=threads, scheduler=dask_target)
    titles = write_tune_report(out, png)
    _echo_pngs(png, len(titles))
    typer.echo("\n".join(closing_lines(summary, out)))


@app.command()
def meta(
    game: Annotated[str, typer.Argument(help="Game id (see `powerlab games`).")],
    population: Annotated[
        Path, typer.Option("--population", help='TOML file: strategies = ["spec", ...].')
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Meta directory to create or resume.")],
    players: PlayersOpt = 4,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per lineup.")] = 20_000,
    seed: SeedOpt = 0,
    settings: SetOpt = None,
    resamples: Annotated[
        int,
        typer.Option(
            "--resamples",
            help="Bootstrap resamples of the games for the intervals of the solution.",
        ),
    ] = 20,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    png: PngOpt = None,
) -> None:
    """The empirical game of a population: every lineup played, then solved (docs/meta.md).

    Writes OUT/payoffs.parquet, OUT/solution.json (equilibrium mix, regrets, dominance,
    alpha-rank with its sensitivity) and OUT/report.pdf. Resumable: rerun to finish.
    """
    from analyses.meta import summary_lines
    from reports.meta import write_meta_report
    from simcore.workflows import meta as meta_game

    meta_game.check_resamples(resamples)
    _check_targets(png=png)
    dask_target = _dask_target(scheduler, cluster)
    _check_threads(threads, dask_target)
    spec = meta_game.build_spec(game, players, population, settings or [], seed, games)
    info = meta_game.run_meta(spec, out, threads=threads, scheduler=dask_target, notify=notice)
    solution = write_meta_report(out, resamples, png)
    typer.echo(
        f"{out}: {len(info['lineups'])} lineups of {games} games; report {out / 'report.pdf'}"
    )
    for line in summary_lines(solution):
        typer.echo(line)


@app.command()
def balance(
    file: Annotated[Path, typer.Argument(help="Balance file (TOML), e.g. studies/balance/*.toml.")],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Balance directory to create or resume.")
    ],
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    png: PngOpt = None,
) -> None:
    """Search rule values and data-file numbers that balance a game (docs/balance.md).

    The file names the game, player counts, lineup, the values that may change (a rule, or
    numbers inside a data file by a path such as deck.*[0]) with their ranges, and the
    objectives (seat fairness per player count, game length window, share ended by the rules,
    an option's value band under restricted play, strategic variety). Writes OUT/front.parquet,
    OUT/report.pdf and a study file per proposed rule set in OUT/rulesets/. Resumable: rerun the
    same command to continue. Example: powerlab balance studies/balance/power.toml -o out/bal
    """
    import polars as pl

    from reports.balance import headline, write_balance_report
    from simcore.workflows import balance as balance_search
    from simcore.workflows.balance_spec import load_balance

    _check_targets(png=png)
    dask_target = _dask_target(scheduler, cluster)
    _check_threads(threads, dask_target)
    spec = load_balance(file)

    def progress(number: int, rung: int) -> None:
        notice(f"trial {number}: rung {rung + 1} of {spec.rungs} played")

    summary = balance_search.balance(spec, out, threads, dask_target, progress)
    titles = write_balance_report(out, png)
    _echo_pngs(png, len(titles))
    typer.echo(f"{out}: {headline(summary, pl.read_parquet(out / 'front.parquet'))}")
    typer.echo(
        f"{summary['search']['trials']} candidates, {summary['search']['games']:,} search games; "
        f"front {out / 'front.parquet'}, study files {out / 'rulesets'}, report "
        f"{out / 'report.pdf'} ({len(titles)} pages)"
    )


study_app = typer.Typer(
    help="Studies: sweeps, arms and sequential stopping from a TOML file (docs/studies.md).",
    no_args_is_help=True,
)
app.add_typer(study_app, name="study")


@study_app.command("run")
def study_run(
    file: Annotated[Path, typer.Argument(help="Study file (TOML), e.g. studies/*.toml.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Study directory to create or resume.")],
    games: Annotated[
        int | None, typer.Option("--games", "-n", help="Games per cell (overrides the file).")
    ] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    png: PngOpt = None,
    tables: TablesOpt = None,
) -> None:
    """Run every cell of a study, then write OUT/summary.parquet and OUT/report.pdf."""
    from reports.study import write_study_report
    from simcore.workflows import console
    from simcore.workflows.study import cells, load_study, run_study

    dask_target = _dask_target(scheduler, cluster)
    _check_threads(threads, dask_target)
    _check_targets(png=png, tables=tables)
    study = load_study(file)
    n_cells = len(cells(study, games))
    with console.cells_progress(n_cells) as on_progress:
        run_study(
            study, out, games=games, threads=threads, progress=on_progress,
            scheduler=dask_target, notify=notice,
        )  # fmt: skip
    titles = write_study_report(out, png, tables)
    typer.echo(f"{out}: {n_cells} cells; report {out / 'report.pdf'} ({len(titles)} pages)")
    _echo_pngs(png, len(titles))
    _echo_cut_off_warnings(out)


@study_app.command("report")
def study_report(
    study_dir: Annotated[Path, typer.Argument(help="A study directory.")],
    png: PngOpt = None,
    tables: TablesOpt = None,
) -> None:
    """Rebuild OUT/summary.parquet and OUT/report.pdf of a study directory (and, with --png,
    each page as a PNG; with --tables, every table as a CSV)."""
    from analyses.study import load_study_dir
    from reports.study import write_study_report

    _check_targets(png=png, tables=tables)
    load_study_dir(study_dir)
    _check_targets(study_dir / "report.pdf", png, tables, pdf_option="")  # now known to be one
    titles = write_study_report(study_dir, png, tables)
    typer.echo(f"Report written to {study_dir / 'report.pdf'} ({len(titles)} pages)")
    _echo_pngs(png, len(titles))
    _echo_cut_off_warnings(study_dir)


def _echo_cut_off_warnings(study_dir: Path) -> None:
    from analyses.study import cut_off_warnings, load_study_dir

    for warning in cut_off_warnings(load_study_dir(study_dir)):
        typer.echo(warning, err=True)


INTERRUPTED = 130  # the shell's code for a process ended by Ctrl-C (128 + SIGINT)


def main(args: list[str] | None = None) -> None:
    """Console entry point: input errors become one line on stderr and exit code 2; Ctrl-C one
    line and exit code 130."""
    from analyses import AnalysisError
    from simcore.registry import SpecError
    from simcore.workflows import files

    # Typer bundles its own click; its exception base is reached through a public class.
    click_exception = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    try:
        code = app(args=args, standalone_mode=False)
    except click_exception as error:
        fail(error.format_message().splitlines()[0])
    except (typer.Abort, KeyboardInterrupt):
        code = INTERRUPTED
    except (BadInput, SpecError, AnalysisError) as error:
        fail(str(error).splitlines()[0] if str(error) else type(error).__name__)
    except OSError as error:  # a path that cannot be read or written, not met by a check first
        fail(files.os_error_line(error))
    if code == INTERRUPTED:  # Typer turns Ctrl-C into this exit code, silently
        fail("interrupted; rerun the same command to resume", INTERRUPTED)
    raise SystemExit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
