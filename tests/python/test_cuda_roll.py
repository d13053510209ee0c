"""roll on CUDA tensors (core/cuda/kernels/shape.cpp: narrow and cat per dim, as the CPU kernel
and torch's roll_common). Over the fake device of tests/cuda/fake_device.cpp: shapes, layouts,
errors and the trace (cat's kernel does not run there, so no values); on a GPU, values against
the CPU on every form.
"""
import textwrap

import pytest

import opscope
from cuda_compare import assert_same, dev, make, needs_device
from fake_cuda import needs_fake, run

FORMS = [((1,), None), ((-1,), (0,)), ((1, 2), (0, 1)), ((5,), (-1,)), ((-7, 3), (1, 0)),
         ((2,), (1,))]


@needs_fake
def test_roll_host_side_over_the_fake_device(fake):
    code = "import opscope as torch\nFORMS = " + repr(FORMS) + textwrap.dedent("""
        g = torch.ones(3, 4, device="cuda")
        for t in (g, g.t(), g[:, ::2], g[:0]):
            for shifts, dims in FORMS:
                r = t.roll(shifts, dims) if dims is not None else t.roll(shifts)
                assert r.is_cuda and r.shape == t.shape and r.dtype == t.dtype
        with torch.trace() as tr:
            g.roll(1, 0)
        assert [(op.name, op.steps[-1].key) for op in tr.roots] == [("aten::roll", "CUDA")]
        for bad, error, message in [
                (lambda: g.roll([]), RuntimeError, "`shifts` required"),
                (lambda: g.roll((1, 2), (0,)), RuntimeError,
                 "shifts and dimensions must align. shifts: 2, dims:1"),
                (lambda: g.roll(1, 5), IndexError, "Dimension out of range")]:
            try:
                bad()
            except error as e:
                assert str(e).startswith(message), str(e)
            else:
                raise AssertionError("no error: " + message)
        print("ok")
        """)
    out = run(fake, code, preamble="")
    assert out.strip() == "ok", out


@needs_device
@pytest.mark.parametrize("dtype", [opscope.float32, opscope.int64, opscope.bool])
def test_roll_values(dtype):
    x = make((4, 5, 3), dtype, seed=1, low=-9, high=9)
    for t in (x, x.transpose(0, 2), x[:, ::2], x[:0]):
        for shifts, dims in FORMS + [((1, -1, 2), (0, 1, 2))]:
            want = t.roll(shifts, dims) if dims is not None else t.roll(shifts)
            got = dev(t).roll(shifts, dims) if dims is not None else dev(t).roll(shifts)
            assert_same(got, want, exact=True)
