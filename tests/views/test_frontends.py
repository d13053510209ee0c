"""Views in a real Jupyter kernel (ipykernel, run by nbclient as nbconvert --execute runs a
lecture notebook): the call stack folds the kernel's own frames into one row and names the
user's cell as IPython's tracebacks do; the trace's output stays small in the saved notebook."""
import os
import re

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


def _frame(name, file, python=True, layer="python"):
    return {"name": name, "file": file, "line": 1, "module": "", "layer": layer,
            "is_python": python, "inlined": False, "pc": 0}


def test_fold_names_the_front_end_and_keeps_the_users_frames():
    """Synthetic stacks (innermost first): the user's frames stay, the front end folds."""
    from opscope.profiler import _stack
    user = [_frame("cpu::mm", "core/ops/cpu/linear.cpp", False, "kernel"),
            _frame("train", "/home/me/lecture.py"),
            _frame("<module>", "/tmp/ipykernel_1/123.py")]
    cpython = _frame("_PyEval_EvalFrameDefault", "", False, "cpython")
    cases = {
        "Jupyter kernel": ["/usr/lib/python3/dist-packages/IPython/core/interactiveshell.py",
                           "/usr/lib/python3/dist-packages/ipykernel/kernelbase.py",
                           "/usr/lib/python3.11/asyncio/base_events.py",
                           "/usr/lib/python3/dist-packages/tornado/platform/asyncio.py"],
        "opscope kernel": ["/usr/lib/python3/dist-packages/IPython/core/interactiveshell.py",
                           "/usr/lib/python3/dist-packages/xeus_python_shell/shell.py",
                           "/opt/opscope/kernel/python/xopscope_shell.py"],
        "IPython": ["/usr/lib/python3/dist-packages/IPython/core/interactiveshell.py",
                    "/usr/lib/python3/dist-packages/IPython/terminal/ipapp.py"],
    }
    for name, files in cases.items():
        outer = []
        for f in files:
            outer += [cpython, _frame("run", f)]
        s = _stack.Stack.from_frames(user + outer)
        rows = _stack.table_rows(s.frames)
        assert [r[0] for r in rows[:3]] == ["frame"] * 3, name
        assert rows[-1][0] == "frontend" and len(rows[-1][3]) == len(outer), name
        assert _stack.row_name(rows[-1]).startswith(f"{name} ×{len(outer)}"), name
    # a script run by python: nothing of a front end, nothing folded as one
    s = _stack.Stack.from_frames(user + [cpython])
    assert all(r[0] != "frontend" for r in _stack.table_rows(s.frames))
