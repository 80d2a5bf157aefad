"""The docs' key tables, rendered from the schema layer's models (``schemas``,
``data_schemas``): a key, its type and range, its default and its meaning (the field's
description) per row, a table-valued key's keys after it. A table sits in a docs page between
``<!-- keys: MODEL -->`` and ``<!-- /keys -->``; tools/schema_tables.py rewrites them and
tests/cli/test_file_shapes.py checks they are current."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel

from simcore.workflows import data_schemas, schemas
from simcore.workflows.schemas import Scalar

# A docs table: "<!-- keys: MODEL -->", the table, "<!-- /keys -->" (tools/schema_tables.py).
KEY_TABLE = re.compile(r"(<!-- keys: (\w+) -->\n)(.*?)(<!-- /keys -->)", re.DOTALL)


def with_key_tables(text: str) -> str:
    """A docs page's ``text`` with each of its key tables rendered from the model it names."""

    def table(match: re.Match) -> str:
        model = getattr(schemas, match[2], None) or getattr(data_schemas, match[2])
        return match[1] + markdown_table(model) + match[4]

    return KEY_TABLE.sub(table, text)


def markdown_table(model: type[BaseModel], prefix: str = "") -> str:
    """``model``'s keys as a markdown table (key, type and range, default, meaning), each
    table-valued key's keys after it as ``key.subkey`` rows: the docs' format tables."""
    rows = ["| key | type | default | meaning |", "|---|---|---|---|"]
    rows += _rows(model, prefix)
    return "\n".join(rows) + "\n"


def _rows(model: type[BaseModel], prefix: str) -> list[str]:
    rows = []
    for name, field in model.model_fields.items():
        key = f"{prefix}{field.alias or name}"
        default = "required" if field.is_required() else _default(field.default)
        rows.append(f"| `{key}` | {_shape(field.annotation, field.metadata)} | {default} | "
                    f"{field.description or ''} |")  # fmt: skip
        nested = _table_of(field.annotation)
        if nested is not None:
            container = _container(field.annotation)
            below = {list: f"{key}[].", dict: f"{key}.NAME."}.get(container, f"{key}.")
            rows += _rows(nested, below)
    return rows


def _default(value) -> str:
    if value is None or value == {} or value == [] or isinstance(value, BaseModel):
        return "none"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f'`"{value}"`' if isinstance(value, str) else f"`{value:,}`"


def _constraints(metadata) -> dict:
    """The bounds and lengths in a type's metadata (a union's member holds them in a
    FieldInfo)."""
    found = {}
    for item in [c for m in metadata for c in getattr(m, "metadata", [m])]:
        for name in ("ge", "gt", "le", "lt", "min_length", "max_length"):
            if getattr(item, name, None) is not None:
                found[name] = getattr(item, name)
    return found


def _number(value) -> str:
    """A bound as the docs write it: 2^62 rather than its 19 digits."""
    if isinstance(value, int) and value > 2**32:
        for offset, text in ((0, ""), (1, " - 1")):
            if (value + offset).bit_count() == 1:
                return f"2^{(value + offset).bit_length() - 1}{text}"
    return f"{value:,}"


def _bounds(metadata) -> str:
    found = _constraints(metadata)
    low = next((f"{b}{_number(found[k])}" for k, b in (("ge", "["), ("gt", "(")) if k in found), "")
    high = next(
        (f"{_number(found[k])}{b}" for k, b in (("le", "]"), ("lt", ")")) if k in found), ""
    )
    return f" in {low or '(-inf'}, {high or 'inf)'}" if low or high else ""


def _lengths(metadata) -> str:
    found = _constraints(metadata)
    low, high = found.get("min_length"), found.get("max_length")
    if high is not None:
        return f" ({low or 0} to {high})"
    return " (non-empty)" if low == 1 else f" (at least {low})" if low else ""


def _shape(annotation, metadata=()) -> str:
    """A type as the docs say it: integer in [1, 6], text, list of texts, table, ..."""
    if annotation == Scalar:
        return "value"
    origin = get_origin(annotation)
    args = [a for a in get_args(annotation) if a is not type(None)]
    if origin is Annotated:
        return _shape(args[0], [*metadata, *annotation.__metadata__])
    if origin is Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is list:
        return f"list of {_plural(_shape(args[0]))}{_lengths(metadata)}"
    if origin is dict:
        return f"table of {_plural(_shape(args[1]))}{_lengths(metadata)}"
    if args:  # a union: its alternatives
        return " or ".join(_shape(a) for a in args) + _bounds(metadata)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "table"
    names = {int: "integer", float: "number", str: "text", bool: "true/false", Any: "any"}
    return names.get(annotation, str(annotation)) + _bounds(metadata)


def _plural(shape: str) -> str:
    if shape.startswith("one of "):
        return "texts, each " + shape
    first, _, rest = shape.partition(" ")
    plural = {"integer": "integers", "number": "numbers", "text": "texts", "table": "tables"}
    return " ".join(filter(None, [plural.get(first, first + "s"), rest]))


def _table_of(annotation) -> type[BaseModel] | None:
    """The model a key's value is (or is a list of), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _table_of(arg)
        if found is not None:
            return found
    return None


def _container(annotation):
    """list or dict if a key's value is a list or a table of tables, else None."""
    origin = get_origin(annotation)
    if origin in (list, dict):
        return origin
    return next(filter(None, map(_container, get_args(annotation))), None)
