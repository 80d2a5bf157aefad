"""What a command shows on the terminal while its work runs: a compile's status with its time,
the games bar of a run, and the closing lines that say what was computed or kept. Drawn on
stderr, only on a terminal or with POWERLAB_PROGRESS=1; elsewhere plain lines."""

import contextlib
import os
import sys
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from simcore.workflows import storage


def live_progress() -> bool:
    """Whether to draw progress (bars, a compile's time) on stderr: on a terminal, or with
    POWERLAB_PROGRESS=1."""
    return sys.stderr.isatty() or os.environ.get("POWERLAB_PROGRESS") == "1"


@contextlib.contextmanager
def compile_status(line: str):
    """A compile the command waits for (``runner.CompileStatus``): where progress is drawn, the
    notice with a spinner and the time elapsed, left on screen with its final time; else the
    notice in one line."""
    if not live_progress():
        typer.echo(f"powerlab: {line}", err=True)
        yield
        return
    with Progress(
        TextColumn("powerlab: {task.description}", markup=False),
        SpinnerColumn(finished_text="done"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    ) as status:
        task = status.add_task(line, total=None)
        yield
        status.update(task, total=1, completed=1)


def clock(seconds: float) -> str:
    """``seconds`` as minutes:seconds, e.g. 3:52."""
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def games_per_second(rate: float) -> str:
    """A run's rate, e.g. 296,784 games/s, or 1.2 games/s: searched games can take a second."""
    return f"{rate:,.{1 if rate < 10 else 0}f} games/s"


def computed_now(timings: dict) -> str:
    """What a run's invocation computed and how fast it played (run.json's ``timings``): the
    games/s count the playing only, the compile before it is named apart."""
    text = f"{timings['games_computed']} computed now"
    if timings["games_per_s"]:
        text += f", {games_per_second(timings['games_per_s'])}"
        if timings.get("compile_seconds"):
            text += f", compile {clock(timings['compile_seconds'])} excluded"
    return text


def kept(out: Path, total: int) -> str:
    """The Ctrl-C line of a run: what OUT keeps, and how to go on."""
    parts = storage.read_manifest(out)
    games = sum(part.count for part in parts)
    return (
        f"interrupted: {out} keeps {games:,} of {total:,} games ({len(parts)} "
        f"part{'s' if len(parts) != 1 else ''}); rerun the same command to resume"
    )


def games_bar() -> Progress:
    """A run's bar: games done of the total, the rate, the time elapsed and left."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not live_progress(),
    )


class RunBar:
    """The games bar of ``powerlab run``. It starts at the runner's first report, after any
    compile, so that its clock and rate count playing only; a compile before it is a status
    line with its time, a later one (``--until-ci``; numba's cache unwritable) a line above it.
    ``total`` is the games as last reported (``--until-ci`` grows it)."""

    def __init__(self, title: str, total: int, notify) -> None:
        self.progress = games_bar()
        self.task = self.progress.add_task(title, total=total, rate="", start=False)
        self.total = total
        self.notify = notify
        self.first: tuple[int, float] | None = None  # (games done, when) at the first report

    def update(self, done: int, total: int) -> None:
        if self.first is None:
            self.first = (done, time.perf_counter())
            self.progress.start()
            self.progress.start_task(self.task)
        elapsed = time.perf_counter() - self.first[1]
        rate = (done - self.first[0]) / elapsed if elapsed > 0 else 0.0
        self.total = total
        self.progress.update(self.task, completed=done, total=total, rate=games_per_second(rate))

    def compiling(self, line: str):
        if self.progress.live.is_started:
            return contextlib.nullcontext(self.notify(line))
        return compile_status(line)

    def stop(self) -> None:
        if self.progress.live.is_started:
            self.progress.stop()


@contextlib.contextmanager
def cells_progress(n_cells: int):
    """Two progress bars, cells done and the current cell's games; yields the ``progress``
    callback of ``run_study`` (cell id, games done, games in the cell)."""
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        disable=not live_progress(),
    ) as progress:
        cell_task = progress.add_task("cells", total=n_cells)
        game_task = progress.add_task("games", total=None)
        seen: list[str] = []

        def on_progress(cell_id: str, done: int, total: int) -> None:
            if cell_id not in seen:
                seen.append(cell_id)
                progress.update(cell_task, completed=len(seen) - 1)
            progress.update(game_task, description=cell_id, completed=done, total=total)

        yield on_progress
        progress.update(cell_task, completed=n_cells)
