"""The notebooks in ``notebooks/``: committed with the outputs of a clean run, and still running.

Each notebook is committed with the outputs of one top-to-bottom run (the documentation renders
those outputs without running anything), so the first test checks that every code cell was run,
in order, without an error.  The second runs each notebook again with nbclient, the performance
notebook in its quick mode (``ARGMIN_NOTEBOOK_QUICK=1``, small arrays), so that a change to the
package that breaks a notebook fails here.  Both skip when the notebooks are not beside the tests
(a test run away from the source tree); the second also without nbclient, ipykernel or matplotlib.
"""

from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["semantics", "performance", "real_use"]


def _path(name):
    path = NOTEBOOKS / f"{name}.ipynb"
    if not path.is_file():
        pytest.skip(f"{path} is not here (the tests run away from the source tree)")
    return path


@pytest.mark.parametrize("name", NAMES)
def test_committed_with_the_outputs_of_a_clean_run(name):
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(_path(name), as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, f"{name}.ipynb has no code cell"
    counts = [cell.execution_count for cell in code]
    assert counts == list(range(1, len(code) + 1)), (
        f"{name}.ipynb: execution counts {counts}; run it top to bottom in a fresh kernel "
        f"(jupyter nbconvert --to notebook --execute --inplace notebooks/{name}.ipynb)"
    )
    for number, cell in enumerate(code, start=1):
        for output in cell.outputs:
            assert output.output_type != "error", (
                f"{name}.ipynb, code cell {number}: {output.ename}: {output.evalue}"
            )
            assert not (output.output_type == "stream" and output.name == "stderr"), (
                f"{name}.ipynb, code cell {number} wrote to stderr: {output.text[:200]!r}"
            )


@pytest.mark.parametrize("name", NAMES)
def test_runs_top_to_bottom(name, monkeypatch):
    path = _path(name)
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    monkeypatch.setenv("ARGMIN_NOTEBOOK_QUICK", "1")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and the traceback, on an error
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is not None
