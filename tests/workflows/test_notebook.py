"""docs/api-example.ipynb runs from top to bottom (with nbclient), so the documented API never
rots; its sizes are tiny."""

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "api-example.ipynb"


def test_the_example_notebook_runs(tmp_path):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    ).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    printed = "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stdout")
    assert printed.startswith("bluffer:p_bluff=") and "over the default on fresh games" in printed
