"""F.grid_sample and F.affine_grid (the spatial transformer ops: grid_sampler -> grid_sampler_2d /
grid_sampler_3d CPU kernels, affine_grid_generator) against torch 1.13's values and gradients
recorded by make_torch_reference_grid_sample.py for the cases of grid_sample_cases.py: every mode
x padding x align_corners, float32 and float64, NaN / inf and far-away grid points, contiguous and
non-contiguous input / grid / grad_output; then torch's errors, warnings, nodes, traces and empty
shapes.

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_grid_sample.py
"""
import json
import os
import re
import warnings

import numpy as np
import pytest

import opscope
import opscope.nn.functional as F
from conftest import assert_close, record_dispatch, tolerance
from grid_sample_cases import AFFINE_CASES, FORWARD_ONLY, SAMPLE_CASES, affine_inputs, sample_inputs
from opscope.autograd import gradcheck

with open(os.path.join(os.path.dirname(__file__), "data", "grid_sample_torch.json")) as f:
    TORCH = json.load(f)


def expected(values, shape, dtype):
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64).astype(dtype).reshape(shape)


def T(a):
    return opscope.from_numpy(np.ascontiguousarray(a))


def strided(a):
    """a with the same values in a non-contiguous layout: its last two dims transposed in memory."""
    t = T(np.swapaxes(a, -1, -2)).transpose(-1, -2)
    assert not t.is_contiguous() or min(a.shape[-2:]) <= 1
    return t


def every_other(a):
    """a as every other element of a buffer twice as wide along dim 1."""
    wide = np.zeros(a.shape[:1] + (a.shape[1] * 2,) + a.shape[2:], dtype=a.dtype)
    wide[:, ::2] = a
    return T(wide)[:, ::2]


def close(actual, ref, dtype, what):
    """actual against torch's ref: NaN in the same places, the rest within dtype's tolerance."""
    a = actual.detach().numpy()
    assert np.array_equal(np.isnan(a), np.isnan(ref)), (
        f"{what}: NaN at {np.argwhere(np.isnan(a)).tolist()}, torch's at {np.argwhere(np.isnan(ref)).tolist()}")
    a, ref = np.nan_to_num(a, nan=0.0), np.nan_to_num(ref, nan=0.0)
    tol = tolerance(dtype)
    # float32: torch's vector lanes and ours round sums of up to 16 products differently
    scale = 8 if dtype == "float32" else 1
    assert_close(a, ref, rtol=tol["rtol"] * scale, atol=tol["atol"] * scale, what=what,
                 family="grid_sample")


# --- values and gradients against torch 1.13 -----------------------------------------------------
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
@pytest.mark.parametrize("case", SAMPLE_CASES, ids=[c["name"] for c in SAMPLE_CASES])
def test_grid_sample_matches_torch(case, layout):
    x, grid, grad_output = sample_inputs(case)
    ref = TORCH["sample"][case["name"]]
    dt = case["dtype"]
    if layout == "contiguous":
        ox, og, ogo = T(x), T(grid), T(grad_output)
    else:
        ox, og, ogo = strided(x), every_other(grid), strided(grad_output)
    ox.requires_grad_()
    og.requires_grad_()
    out = F.grid_sample(ox, og, case["mode"], case["padding_mode"], case["align_corners"])
    assert out.dtype == ox.dtype and out.is_contiguous()
    close(out, expected(ref["out"], out.shape, dt), dt, case["name"] + " out")
    node = "GridSampler2DBackward0" if case["dims"] == 4 else "GridSampler3DBackward0"
    assert out.grad_fn.name() == node
    if case["name"] in FORWARD_ONLY:
        return
    grad_input, grad_grid = opscope.autograd.grad(out, (ox, og), ogo)
    close(grad_input, expected(ref["grad_input"], x.shape, dt), dt, case["name"] + " grad_input")
    close(grad_grid, expected(ref["grad_grid"], grid.shape, dt), dt, case["name"] + " grad_grid")


@pytest.mark.parametrize("case", AFFINE_CASES, ids=[c["name"] for c in AFFINE_CASES])
def test_affine_grid_matches_torch(case):
    theta, weight = affine_inputs(case)
    ref = TORCH["affine"][case["name"]]
    t = T(theta).requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        grid = F.affine_grid(t, case["size"], case["align_corners"])
    k = len(case["size"]) - 2
    assert tuple(grid.shape) == tuple(case["size"][:1]) + tuple(case["size"][2:]) + (k,)
    assert grid.grad_fn.name() == "AffineGridGeneratorBackward0"
    assert grid.grad_fn._saved_size == tuple(case["size"])
    assert grid.grad_fn._saved_align_corners is case["align_corners"]
    close(grid, expected(ref["grid"], grid.shape, case["dtype"]), case["dtype"], case["name"] + " grid")
    (grad_theta,) = opscope.autograd.grad((grid * T(weight)).sum(), t)
    close(grad_theta, expected(ref["grad_theta"], theta.shape, case["dtype"]), case["dtype"],
          case["name"] + " grad_theta")


def test_affine_grid_identity_samples_the_input_back():
    """The identity theta's grid reads every pixel at its centre (align_corners=False)."""
    x = opscope.randn(2, 3, 5, 7)
    theta = opscope.tensor([[1.0, 0, 0], [0, 1.0, 0]]).expand(2, 2, 3)
    grid = F.affine_grid(theta, [2, 3, 5, 7], align_corners=False)
    for mode in ("bilinear", "nearest", "bicubic"):
        y = F.grid_sample(x, grid, mode=mode, align_corners=False)
        assert_close(y, x.numpy(), rtol=1e-5, atol=1e-5, what=mode)


def test_nearest_rounds_halves_as_torch():
    """2-D nearest rounds halves to even (torch's vector kernel), 3-D away from zero (its scalar
    one): grid x = 0 over 6 pixels is pixel coordinate 2.5 without align_corners."""
    row = opscope.arange(6.0)
    y = F.grid_sample(row.view(1, 1, 1, 6), opscope.zeros(1, 1, 1, 2), "nearest", align_corners=False)
    assert y.item() == 2.0
    y3 = F.grid_sample(row.view(1, 1, 1, 1, 6), opscope.zeros(1, 1, 1, 1, 3), "nearest", align_corners=False)
    assert y3.item() == 3.0


def test_out_variants_write_into_out():
    x, grid = opscope.randn(2, 3, 4, 5), opscope.rand(2, 3, 2, 2) * 2 - 1
    out = opscope.empty(0)
    assert opscope.ops.aten.grid_sampler_2d(x, grid, 2, 1, True, out=out) is out
    assert opscope.equal(out, opscope.grid_sampler_2d(x, grid, 2, 1, True))
    go = opscope.randn(2, 3, 3, 2)
    out0, out1 = opscope.empty(0), opscope.empty(0)
    r0, r1 = opscope.ops.aten.grid_sampler_2d_backward(go, x, grid, 0, 2, False, [1, 1], out0=out0, out1=out1)
    e0, e1 = opscope.ops.aten.grid_sampler_2d_backward(go, x, grid, 0, 2, False, [1, 1])
    assert r0 is out0 and r1 is out1 and opscope.equal(out0, e0) and opscope.equal(out1, e1)
    theta = opscope.randn(2, 2, 3)
    g = opscope.empty(0)
    opscope.ops.aten.affine_grid_generator(theta, [2, 1, 3, 4], False, out=g)
    assert opscope.equal(g, opscope.affine_grid_generator(theta, [2, 1, 3, 4], False))
    with pytest.raises(RuntimeError, match=re.escape("grid_sampler_2d(): functions with out=... arguments don't "
                                                     "support automatic differentiation")):
        opscope.ops.aten.grid_sampler_2d(x.requires_grad_(), grid, 0, 0, False, out=opscope.empty(0))


# --- output_mask, nodes, double backward ---------------------------------------------------------
def test_backward_output_mask_as_torch():
    x, grid = opscope.randn(2, 3, 4, 5), opscope.rand(2, 3, 2, 2) * 2 - 1
    go = opscope.randn(2, 3, 3, 2)
    gi, gg = opscope.ops.aten.grid_sampler_2d_backward(go, x, grid, 0, 0, False, [1, 1])
    none_gi, gg_only = opscope.ops.aten.grid_sampler_2d_backward(go, x, grid, 0, 0, False, [0, 1])
    assert none_gi is None and gi.shape == x.shape
    assert opscope.equal(gg, gg_only)
    # the grid's gradient is computed even when output_mask[1] is 0 (torch's kernel ignores it)
    _, gg_unasked = opscope.ops.aten.grid_sampler_2d_backward(go, x, grid, 0, 0, False, [1, 0])
    assert opscope.equal(gg, gg_unasked)


def test_node_saves_as_torch():
    x = opscope.randn(1, 2, 3, 4, requires_grad=True)
    grid = opscope.rand(1, 2, 2, 2, requires_grad=True)
    y = F.grid_sample(x, grid, mode="bicubic", padding_mode="reflection", align_corners=True)
    fn = y.grad_fn
    assert fn.name() == "GridSampler2DBackward0"
    assert sorted(a for a in dir(fn) if a.startswith("_saved")) == [
        "_saved_align_corners", "_saved_grid", "_saved_input", "_saved_interpolation_mode",
        "_saved_padding_mode"]
    assert (fn._saved_interpolation_mode, fn._saved_padding_mode, fn._saved_align_corners) == (2, 2, True)
    assert fn._saved_input.shape == x.shape and fn._saved_grid.shape == grid.shape
    # only the grid's gradient asked for: grad_input is not computed
    (gg,) = opscope.autograd.grad(y.sum(), grid)
    assert gg.shape == grid.shape


@pytest.mark.parametrize("dims", [4, 5])
def test_double_backward_fails_as_torch(dims):
    x = opscope.randn(*([1, 2] + [3] * (dims - 2)), dtype=opscope.float64, requires_grad=True)
    grid = (opscope.rand(*([1] + [2] * (dims - 2) + [dims - 2]), dtype=opscope.float64) - 0.5).requires_grad_()
    (gx,) = opscope.autograd.grad(F.grid_sample(x, grid, align_corners=False).sum(), x, create_graph=True)
    assert gx.grad_fn.name() == "NotImplemented"
    op = "grid_sampler_2d_backward" if dims == 4 else "grid_sampler_3d_backward"
    with pytest.raises(RuntimeError, match=f"derivative for aten::{op} is not implemented"):
        gx.sum().backward()


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_gradcheck_2d(mode, padding, align):
    rng = np.random.default_rng(7)
    x = T(rng.standard_normal((2, 2, 3, 4))).requires_grad_()
    grid = T(rng.uniform(-1.3, 1.3, (2, 2, 3, 2))).requires_grad_()
    assert gradcheck(lambda a, g: F.grid_sample(a, g, mode, padding, align), [x, grid])


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
def test_gradcheck_3d(mode, padding):
    rng = np.random.default_rng(8)
    x = T(rng.standard_normal((1, 2, 2, 3, 4))).requires_grad_()
    grid = T(rng.uniform(-1.3, 1.3, (1, 2, 2, 2, 3))).requires_grad_()
    assert gradcheck(lambda a, g: F.grid_sample(a, g, mode, padding, True), [x, grid])


# --- traces --------------------------------------------------------------------------------------
def ops_run(fn):
    return [s["op"].replace("aten::", "") for s in record_dispatch(fn).steps]


def test_traces_show_torch_dispatch():
    x, grid = opscope.randn(1, 2, 3, 4), opscope.rand(1, 2, 2, 2)
    steps = ops_run(lambda: F.grid_sample(x, grid, align_corners=True))
    assert steps[0] == "grid_sampler" and "grid_sampler_2d" in steps
    steps = ops_run(lambda: F.grid_sample(x.unsqueeze(2), opscope.rand(1, 1, 2, 2, 3), align_corners=True))
    assert "grid_sampler_3d" in steps
    theta = opscope.randn(1, 2, 3)
    steps = ops_run(lambda: F.affine_grid(theta, [1, 1, 3, 4], align_corners=False))
    # torch's make_base_grid_4D, then view / transpose / bmm / view
    for op in ("affine_grid_generator", "empty.memory_format", "linspace", "mul.Scalar", "div.Scalar",
               "unsqueeze_", "copy_", "fill_.Scalar", "bmm", "transpose.int", "view"):
        assert op in steps, op


# --- errors, warnings, dtypes, empty shapes ------------------------------------------------------
X, G = opscope.randn(2, 3, 4, 5), opscope.rand(2, 6, 7, 2) * 2 - 1
THETA = opscope.randn(2, 2, 3)

ERRORS = [
    (lambda: opscope.grid_sampler(X, G[:1], 0, 0, False), RuntimeError,
     "grid_sampler(): expected grid and input to have same batch size, but got input with sizes "
     "[2, 3, 4, 5] and grid with sizes [1, 6, 7, 2]"),
    (lambda: opscope.grid_sampler(X, G[..., :1], 0, 0, False), RuntimeError,
     "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes [2, 6, 7, 1]"),
    (lambda: opscope.grid_sampler(X, G[0], 0, 0, False), RuntimeError,
     "grid_sampler(): expected grid and input to have same batch size, but got input with sizes "
     "[2, 3, 4, 5] and grid with sizes [6, 7, 2]"),
    (lambda: opscope.grid_sampler(X.unsqueeze(2), opscope.rand(2, 3, 3, 3, 3), 2, 0, False), RuntimeError,
     "grid_sampler(): bicubic interpolation only supports 4D input"),
    (lambda: opscope.grid_sampler(X[:, :, :0], G, 0, 0, False), RuntimeError,
     "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes "
     "[2, 3, 0, 5] with dimension 2 being empty"),
    (lambda: opscope.grid_sampler_2d(X.unsqueeze(2), G.unsqueeze(1), 0, 0, False), RuntimeError,
     "grid_sampler(): expected grid to have size 3 in last dimension, but got grid with sizes [2, 1, 6, 7, 2]"),
    (lambda: opscope.grid_sampler_2d(X[0], G[0], 0, 0, False), RuntimeError,
     "grid_sampler(): expected grid and input to have same batch size"),
    (lambda: opscope.grid_sampler_3d(X, G, 0, 0, False), RuntimeError,
     "grid_sampler(): expected 5D input and grid with same number of dimensions, but got input with "
     "sizes [2, 3, 4, 5] and grid with sizes [2, 6, 7, 2]"),
    (lambda: opscope.grid_sampler(X.half(), G.half(), 0, 0, False), RuntimeError,
     "grid_sampler_2d_cpu not implemented for Half"),
    (lambda: opscope.grid_sampler(X.bfloat16(), G.bfloat16(), 0, 0, False), RuntimeError,
     "grid_sampler_2d_cpu not implemented for BFloat16"),
    (lambda: opscope.grid_sampler(X.long(), G, 0, 0, False), RuntimeError,
     "grid_sampler_2d_cpu not implemented for Long"),
    (lambda: opscope.grid_sampler(X.double(), G, 0, 0, False), RuntimeError,
     "expected scalar type Double but found Float"),
    (lambda: opscope.grid_sampler(X, G.double(), 0, 0, False), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda: opscope.grid_sampler(X.unsqueeze(2).half(), opscope.rand(2, 1, 1, 1, 3).half(), 0, 0, False),
     RuntimeError, "\"grid_sampler3d_cpu\" not implemented for 'Half'"),
    (lambda: opscope.ops.aten.grid_sampler_2d_backward(opscope.randn(2, 3, 6, 7).double(), X, G, 0, 0,
                                                        False, [1, 1]), RuntimeError,
     "expected scalar type Float but found Double"),
    (lambda: opscope.ops.aten.grid_sampler_2d_backward(opscope.randn(2, 3, 6, 7).half(), X.half(), G.half(),
                                                        0, 0, False, [1, 1]), RuntimeError,
     "grid_sampler_2d_backward_cpu not implemented for Half"),
    (lambda: opscope.ops.aten.grid_sampler_3d_backward(opscope.randn(2, 3, 1, 1, 1).int(), X.unsqueeze(2).int(),
                                                        opscope.rand(2, 1, 1, 1, 3).int(), 0, 0, False, [1, 1]),
     RuntimeError, "\"grid_sampler_3d_backward_cpu\" not implemented for 'Int'"),
    (lambda: F.grid_sample(X, G, mode="linear"), ValueError,
     "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'linear'"),
    (lambda: F.grid_sample(X, G, padding_mode="zero"), ValueError,
     "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', "
     "but got: 'zero'"),
    (lambda: F.affine_grid(THETA, [2, 3, 4], False), NotImplementedError,
     "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
     "Got size [2, 3, 4]."),
    (lambda: F.affine_grid(THETA.int(), [2, 3, 4, 5], False), ValueError,
     "Expected theta to have floating point type, but got torch.int32"),
    (lambda: F.affine_grid(THETA, [2, 3, 4, 5, 6], False), ValueError,
     "Expected a batch of 3D affine matrices of shape Nx3x4 for size [2, 3, 4, 5, 6]. Got torch.Size([2, 2, 3])."),
    (lambda: F.affine_grid(THETA[:, :1], [2, 3, 4, 5], False), ValueError,
     "Expected a batch of 2D affine matrices of shape Nx2x3 for size [2, 3, 4, 5]. Got torch.Size([2, 1, 3])."),
    (lambda: F.affine_grid(THETA, [2, 3, 0, 5], False), ValueError,
     "Expected non-zero, positive output size. Got [2, 3, 0, 5]"),
    (lambda: opscope.affine_grid_generator(THETA, [2, 3, 4], False), RuntimeError,
     "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs."),
    (lambda: opscope.ops.aten.affine_grid_generator_backward(opscope.randn(2, 4, 5, 2), [2, 3, 4], False),
     RuntimeError, "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs."),
    (lambda: opscope.ops.aten.affine_grid_generator_backward(opscope.randn(2, 4, 5, 3), [2, 3, 4, 5], False),
     RuntimeError, "grad_grid.sizes() == IntArrayRef({N, H, W, 2}) INTERNAL ASSERT FAILED"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors_as_torch(i):
    fn, error, message = ERRORS[i]
    with pytest.raises(error, match=re.escape(message)):
        fn()


def test_bad_enums_are_refused_not_read():
    """torch 1.13's CPU kernel leaves the output uninitialized for an unknown enum; opscope refuses."""
    with pytest.raises(RuntimeError, match="interpolation_mode"):
        opscope.grid_sampler(X, G, 3, 0, False)
    with pytest.raises(RuntimeError, match="padding_mode"):
        opscope.grid_sampler(X, G, 0, -1, False)


def test_wrong_grad_output_is_refused_not_read_past_its_end():
    """torch reads grad_output at the output's sizes unchecked; opscope checks them."""
    with pytest.raises(RuntimeError, match=re.escape("expected grad_output with sizes [2, 3, 6, 7]")):
        opscope.ops.aten.grid_sampler_2d_backward(opscope.randn(1, 3, 6, 7), X, G, 0, 0, False, [1, 1])


ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                 "Please specify align_corners=True if the old behavior is desired. "
                 "See the documentation of grid_sample for details.")
UNIT_WARNING = ("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                "align_corners=True. This is not an intended use case of affine_grid. "
                "See the documentation of affine_grid for details.")


def test_warnings_as_torch():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.affine_grid(THETA, [2, 3, 4, 5])
        F.grid_sample(X, G)
        F.affine_grid(THETA, [2, 3, 1, 5], True)
        F.grid_sample(X, G, align_corners=False)
        F.affine_grid(THETA, [2, 3, 1, 5], False)
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, ALIGN_WARNING), (UserWarning, ALIGN_WARNING), (UserWarning, UNIT_WARNING)]


@pytest.mark.parametrize("dims", [4, 5])
def test_empty_batch_channels_and_grid(dims):
    spatial = [3] * (dims - 2)
    for in_shape, grid_shape in [([0, 2] + spatial, [0] + [2] * (dims - 2) + [dims - 2]),
                                 ([2, 0] + spatial, [2] + [2] * (dims - 2) + [dims - 2]),
                                 ([2, 2] + spatial, [2, 0] + [2] * (dims - 3) + [dims - 2])]:
        x = opscope.randn(*in_shape, requires_grad=True)
        grid = opscope.rand(*grid_shape, requires_grad=True)
        y = F.grid_sample(x, grid, align_corners=False)
        assert tuple(y.shape) == tuple(in_shape[:2] + grid_shape[1:-1])
        gx, gg = opscope.autograd.grad(y.sum(), (x, grid))
        assert gx.shape == x.shape and gg.shape == grid.shape
        assert not gx.any() and not gg.any()


def test_affine_grid_dtypes_follow_bmm():
    for dtype in (opscope.float32, opscope.float64):
        assert F.affine_grid(THETA.to(dtype), [2, 1, 3, 3], False).dtype == dtype
