"""Views in a real Jupyter kernel (ipykernel, run by nbclient as nbconvert --execute runs a
lecture notebook): the call stack folds the kernel's own frames into one row and names the
user's cell as IPython's tracebacks do; the trace's output stays small in the saved notebook."""
import os
import re
import sys

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

SETUP = "import opscope\ny, z = opscope.randn(64, 32), opscope.randn(32, 16)\nopscope.mm(y, z);"
CELL = ("with opscope.trace(with_stack=True) as t:\n"
        "    x = opscope.matmul(y, z)\n"
        "s = t.stack('aten::mm')\n"
        "print(s.table(width=120))\n"
        "s")


@pytest.fixture(scope="module")
def executed():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SETUP),
                                         nbformat.v4.new_code_cell(CELL),
                                         nbformat.v4.new_code_cell("t")])
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (*sys.path[:0], env_path) if p)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": ROOT}})
    try:
        client.execute()
    except Exception as e:  # no kernel here: say why rather than fail obscurely
        pytest.skip(f"the python3 kernel did not run: {e}")
    return nb


def _outputs(cell):
    text, html = [], []
    for out in cell.outputs:
        if out.get("name") == "stdout":
            text.append(out["text"])
        data = out.get("data", {})
        text.append(data.get("text/plain", ""))
        html.append(data.get("text/html", ""))
    return "\n".join(text), "\n".join(html)


def test_stack_folds_the_kernel_and_names_the_cell(executed):
    text, html = _outputs(executed.cells[1])
    # the user's line, as IPython's tracebacks name it (the cell ran second: In [2])
    assert "Cell In [2], line 2" in text and "Cell In [2], line 2" in html
    assert "/tmp/ipykernel_" not in text
    # the kernel's machinery below it: one row, openable in HTML
    folded = re.search(r"Jupyter kernel ×(\d+)", text)
    assert folded and int(folded.group(1)) >= 20, text[-2000:]
    assert re.search(r"Jupyter kernel ×\d+", html) and "<details>" in html
    printed = text.split("\n\n")[0]          # print(s.table(width=120)): 108 frames
    rows = [line for line in printed.splitlines() if re.match(r"\d", line)]
    assert len(rows) < 40, len(rows)


def test_trace_output_is_small_in_the_notebook(executed):
    cell = executed.cells[2]
    [out] = [o for o in cell.outputs if o.get("output_type") == "execute_result"]
    assert set(out["data"]) == {"text/plain", "text/html"}
    size = len(nbformat.writes(nbformat.v4.new_notebook(cells=[cell])).encode())
    assert size < 30 * 1024, size
