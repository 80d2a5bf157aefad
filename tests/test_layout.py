"""The shape of the tree (issue 41): no source file over 1,000 lines, the same file names in every
game package, no import cycle among the project's modules.

Plain Python over the files (``ast``; nothing is imported or compiled): a few seconds.
Each check is a function of a root folder, run on this tree and on planted trees in tmp_path.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 1000
# Folders that hold no project source: tests (long scenario tables are allowed), environments,
# run output and build products. Hidden folders (.venv, .git, .ci...) are skipped as well.
NOT_SOURCE = {"tests", "out", "build", "dist", "__pycache__", "node_modules"}
GAME_FILES = {
    "__init__.py", "state.py", "components.py", "rules.py", "scripted.py", "search.py", "game.py",
}  # fmt: skip
PROJECT = ("cli", "simcore", "strategies", "analyses", "reports")


def _skipped(part: str) -> bool:
    return part in NOT_SOURCE or part.startswith(".") or part.endswith(".egg-info")


def source_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*.py")):
        if not any(_skipped(part) for part in path.relative_to(root).parts[:-1]):
            yield path


def long_files(root: Path, limit: int = MAX_LINES) -> list[str]:
    """``path: N lines`` of every source file over ``limit`` lines."""
    problems = []
    for path in source_files(root):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            problems.append(f"{path.relative_to(root)}: {lines} lines")
    return problems


def game_folder_problems(root: Path) -> list[str]:
    """The standard files each package under simcore/games/ lacks (extra modules are allowed)."""
    problems = []
    games = root / "simcore" / "games"
    for folder in sorted(p for p in games.iterdir() if p.is_dir() and not _skipped(p.name)):
        missing = GAME_FILES - {p.name for p in folder.glob("*.py")}
        if missing:
            problems.append(f"{folder.relative_to(root)}: no {', '.join(sorted(missing))}")
    return problems


def project_modules(root: Path) -> dict[str, Path]:
    """Dotted name -> file of every module of the project's top-level modules and packages."""
    modules = {}
    for top in PROJECT:
        if (root / f"{top}.py").is_file():
            modules[top] = root / f"{top}.py"
        if (root / top).is_dir():
            for path in source_files(root / top):
                parts = (top, *path.relative_to(root / top).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, at module level and inside functions and classes,
    except those only a type checker runs (``if TYPE_CHECKING:``; its ``else:`` does run)."""
    for child in ast.iter_child_nodes(node):
        typing_only = isinstance(child, ast.If) and _is_type_checking(child.test)
        for item in child.orelse if typing_only else [child]:
            if isinstance(item, ast.Import | ast.ImportFrom):
                yield item
            else:
                yield from _imports(item)


def _imported(module: str, is_package: bool, node, modules: dict[str, Path]) -> Iterator[str]:
    """The project modules an import statement loads: ``from pkg import name`` is the submodule
    pkg.name when there is one, else pkg itself; relative imports are resolved from ``module``."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        yield submodule if submodule in modules else base


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its code."""
    modules = project_modules(root)
    graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for node in _imports(tree):
            for name in _imported(module, path.name == "__init__.py", node, modules):
                # ``import a.b.c`` of a name that is not a module: its nearest module
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    targets.add(name)
        graph[module] = targets
    return graph


def import_cycles(root: Path) -> list[str]:
    """One cycle per strongly connected group of modules, as the chain ``a -> b -> ... -> a``."""
    graph = import_graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(node: str) -> None:  # Tarjan; the graph is a few hundred modules deep at most
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(" -> ".join(_chain(graph, group)) for group in groups)


def _chain(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest way round from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # a strongly connected group has one


# --- this tree ----------------------------------------------------------------------------------


def test_no_source_file_is_over_1000_lines():
    assert long_files(ROOT) == []


def test_every_game_package_has_the_standard_files():
    assert game_folder_problems(ROOT) == []


def test_no_import_cycle_among_the_project_modules():
    assert import_cycles(ROOT) == []


def test_the_graph_holds_imports_inside_functions():
    graph = import_graph(ROOT)
    assert "simcore.workflows.bench" in graph["cli"]  # imported inside the bench command
    assert "simcore.registry" in graph["simcore.workflows.runner"]


# --- planted trees ------------------------------------------------------------------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_long_file_is_found_and_tests_venv_and_out_are_not(tmp_path):
    long = "x = 1\n" * (MAX_LINES + 1)
    _write(tmp_path, {
        "simcore/big.py": long, "simcore/ok.py": "x = 1\n" * MAX_LINES, "tests/test_big.py": long,
        ".venv/lib/big.py": long, "out/big.py": long, "tools/big.py": long,
    })  # fmt: skip
    assert long_files(tmp_path) == [
        f"simcore/big.py: {MAX_LINES + 1} lines",
        f"tools/big.py: {MAX_LINES + 1} lines",
    ]


def test_a_game_package_without_a_standard_file_is_found(tmp_path):
    games = tmp_path / "simcore" / "games"
    _write(games, {f"full/{name}": "" for name in GAME_FILES} | {"full/extra.py": ""})
    _write(games, {f"short/{name}": "" for name in GAME_FILES - {"components.py", "scripted.py"}})
    _write(games, {"__init__.py": ""})
    assert game_folder_problems(tmp_path) == ["simcore/games/short: no components.py, scripted.py"]


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    _write(tmp_path, {
        "cli.py": "from simcore.workflows import runner\n",
        "simcore/__init__.py": "",
        "simcore/workflows/__init__.py": "",
        "simcore/workflows/runner.py": "from simcore.workflows.cluster import connect\n",
        "simcore/workflows/cluster.py": "def f():\n    from simcore.workflows import runner\n",
    })  # fmt: skip
    assert import_cycles(tmp_path) == [
        "simcore.workflows.cluster -> simcore.workflows.runner -> simcore.workflows.cluster"
    ]


def test_a_longer_cycle_through_relative_and_package_imports_is_found(tmp_path):
    _write(tmp_path, {
        "simcore/__init__.py": "",
        "simcore/games/__init__.py": "",
        "simcore/games/g/__init__.py": "",
        "simcore/games/g/game.py": "from . import search\n",
        "simcore/games/g/search.py": "import simcore.games.g.rules as rules\n",
        "simcore/games/g/rules.py": "from simcore.games.g.game import GAME\n",
        "analyses/__init__.py": "from simcore.games.g import game\n",  # into the cycle only
    })  # fmt: skip
    assert import_cycles(tmp_path) == [
        "simcore.games.g.game -> simcore.games.g.search -> simcore.games.g.rules"
        " -> simcore.games.g.game"
    ]


def test_type_checking_imports_and_outside_modules_make_no_cycle(tmp_path):
    _write(tmp_path, {
        "simcore/__init__.py": "",
        "simcore/a.py": "import numpy\nfrom simcore import b\n",
        "simcore/b.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from simcore import a\nelse:\n    import os\n"
        ),
        "strategies/__init__.py": "from simcore.b import name_not_a_module\n",
    })  # fmt: skip
    assert import_graph(tmp_path)["strategies"] == {"simcore.b"}
    assert import_cycles(tmp_path) == []
