"""From an aggregate to the games behind it: conditions on the games table, replay commands.

A ``--where`` condition is parsed, never evaluated: Python's own parser turns the text into a
syntax tree, and only comparisons, ``and``/``or``/``not``, arithmetic, numbers, strings and the
names of the games table's columns are translated into a polars expression; anything else (a
call, an attribute, a subscript, an unknown name) is refused in one line.
"""

import ast
import operator
import shlex

import polars as pl

from analyses import AnalysisError
from analyses.dataset import Run

_COMPARISONS = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_ARITHMETIC = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
}
MAX_WHERE_CHARS = 2000


def parse_where(text: str, columns: list[str]) -> pl.Expr:
    """The polars expression of a condition such as ``winner == 3 and turns < 10`` over
    ``columns``, or AnalysisError naming what is not allowed."""
    if len(text) > MAX_WHERE_CHARS:
        raise AnalysisError(f"--where: longer than {MAX_WHERE_CHARS} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError) as error:
        raise AnalysisError(
            f"--where: not a condition ({error.msg if hasattr(error, 'msg') else error})"
        ) from None
    except RecursionError:
        raise AnalysisError("--where: nested too deeply") from None
    try:
        return _translate(tree.body, columns)
    except RecursionError:
        raise AnalysisError("--where: nested too deeply") from None


def _translate(node: ast.AST, columns: list[str]) -> pl.Expr:
    if isinstance(node, ast.BoolOp):
        parts = [_translate(value, columns) for value in node.values]
        combined = parts[0]
        for part in parts[1:]:
            combined = combined & part if isinstance(node.op, ast.And) else combined | part
        return combined
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ~_translate(node.operand, columns)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_translate(node.operand, columns)
    if isinstance(node, ast.Compare):
        result, left = None, _translate(node.left, columns)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, ast.In | ast.NotIn):
                if not isinstance(comparator, ast.List | ast.Tuple):
                    raise AnalysisError("--where: `in` takes a list of values, e.g. [1, 2]")
                values = [_constant(item) for item in comparator.elts]
                term = left.is_in(values)
                term = ~term if isinstance(op, ast.NotIn) else term
                right = left
            elif type(op) in _COMPARISONS:
                right = _translate(comparator, columns)
                term = _COMPARISONS[type(op)](left, right)
            else:
                raise AnalysisError(f"--where: the comparison {type(op).__name__} is not allowed")
            result = term if result is None else result & term
            left = right
        return result
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        return _ARITHMETIC[type(node.op)](
            _translate(node.left, columns), _translate(node.right, columns)
        )
    if isinstance(node, ast.Name):
        if node.id not in columns:
            raise AnalysisError(
                f"--where: no column {node.id!r} (columns: {', '.join(columns)})"[:300]
            )
        return pl.col(node.id)
    if isinstance(node, ast.Constant):
        return pl.lit(_constant(node))
    raise AnalysisError(
        f"--where: {ast.unparse(node)[:80]!r} is not allowed (only columns, numbers, strings, "
        "comparisons, and/or/not and + - * / %)"
    )


def _constant(node: ast.AST):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_constant(node.operand)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bool):
        return node.value
    raise AnalysisError(f"--where: {ast.unparse(node)[:80]!r} is not a number or a string")


def games_where(run: Run, text: str) -> pl.DataFrame:
    """The games of ``run`` meeting the condition ``text``, in game-index order, strings as
    plain strings."""
    games = run.scan().with_columns(pl.col(pl.Categorical).cast(pl.String))
    condition = parse_where(text, list(run.columns))
    try:
        kind = games.select(condition).collect_schema().dtypes()[0]
        if kind != pl.Boolean:  # a number, a text: what would "winner + 1" pick?
            raise AnalysisError(
                f"--where {text.strip()!r} is not a condition: it gives {_kind_words(kind)}, "
                "not true or false; compare it, e.g. winner == 3"
            )
        return games.filter(condition).sort("game_index").collect()
    except pl.exceptions.PolarsError as error:
        raise AnalysisError(f"--where: {str(error).splitlines()[0]}") from None


def _kind_words(kind: pl.DataType) -> str:
    if kind.is_numeric():
        return "numbers"
    return "text" if kind == pl.String else f"values of type {kind}"


def replay_command(info: dict, game_index: int) -> str:
    """The ``powerlab replay`` command that prints game ``game_index`` of the run ``info``
    (its run.json): the same game, since a game is a function of the spec and its index."""
    from simcore import registry

    spec = info["spec"]
    words = ["powerlab", "replay", spec["game"], "-i", str(game_index), "--seed",
             str(spec["seed"]), "-p", str(spec["players"])]  # fmt: skip
    for label in info["lineup"]:
        words += ["-s", label]
    # Every rule that differs from its default (all of them for a game this powerlab lacks).
    defaults = {}
    if spec["game"] in registry.game_ids():
        defaults = {param.name: param.default for param in registry.make(spec["game"]).rules}
    for name, value in spec["rules"].items():
        if name not in defaults or value != defaults[name]:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            words += ["--set", f"{name}={text}"]
    if not spec["rotate_seats"]:
        words.append("--fixed-seats")
    return shlex.join(words)
