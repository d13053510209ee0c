"""What a view costs in a saved notebook (Note [Output size] in _html.py): one traced training
step at most 30 KiB, any view at most 100 KiB, the trace's JSON only when asked for, one small
style sheet per output."""
import json

import pytest

import programs
from opscope.profiler import _css, _html

KIB = 1024


def ipynb_bytes(bundle):
    """Bytes of a display output in a .ipynb, as nbformat writes it (indent 1, text split in
    lines, non-ASCII as UTF-8)."""
    data = {k: (v.splitlines(True) if isinstance(v, str) else v) for k, v in bundle.items()}
    out = {"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": data}
    return len(json.dumps(out, indent=1, ensure_ascii=False).encode())


def _bundle(view):
    if hasattr(view, "_repr_mimebundle_"):
        return view._repr_mimebundle_()
    return {"text/plain": str(view), "text/html": view._repr_html_()}


def test_a_training_step_fits_30_kib():
    t = programs.training_step()
    size = ipynb_bytes(t._repr_mimebundle_())
    print(f"one traced training step ({len(t.ops)} ops): {size / KIB:.1f} KiB in the notebook")
    assert size <= 30 * KIB


@pytest.mark.parametrize("name", ["matmul", "stack", "tree", "loop", "failing", "scopes",
                                  "profile", "graph"])
def test_any_view_fits_100_kib(name):
    view = dict((n, v) for n, _, v in programs.views())[name]
    size = ipynb_bytes(_bundle(view))
    print(f"{name}: {size / KIB:.1f} KiB")
    assert size <= 100 * KIB


def test_a_long_loop_and_a_traced_step_with_stacks_fit_100_kib():
    loop = programs.loop(10_000)
    assert ipynb_bytes(loop._repr_mimebundle_()) <= 100 * KIB
    model, opt = programs.mlp()
    x, y = programs.torch.randn(32, 4), programs.torch.randn(32, 3)
    with programs.torch.trace(with_stack=True) as t:
        programs.F.mse_loss(model(x), y).backward()
    assert ipynb_bytes(t._repr_mimebundle_()) <= 100 * KIB


def test_json_only_when_asked_and_one_small_style_sheet():
    t = programs.matmul()
    bundle = t._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert _html.TRACE_MIME in t._repr_mimebundle_(include=[_html.TRACE_MIME])
    for _, _, view in programs.views():
        html = _bundle(view)["text/html"]
        assert html.count("<style>") == 1, view
    assert len(_css.CSS) < 4 * KIB
