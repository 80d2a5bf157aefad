"""Rewrite the key tables of docs/ from the schema layer's models (simcore/workflows/schemas.py).

A table sits between ``<!-- keys: MODEL -->`` and ``<!-- /keys -->`` in a docs page; MODEL is a
model of ``schemas`` or ``data_schemas``. Run from the repository root after changing a model:

    .venv/bin/python tools/schema_tables.py

tests/cli/test_file_shapes.py fails while a table differs from its model's rendering.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simcore.workflows.schema_docs import with_key_tables  # noqa: E402


def main() -> None:
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text()
        rendered = with_key_tables(text)
        if rendered != text:
            page.write_text(rendered)
            print(f"rewrote {page.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
