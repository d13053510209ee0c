"""F.unfold / F.fold (im2col / col2im), F.max_unpool1d / 2d / 3d, F.channel_shuffle,
F.local_response_norm (and the avg_pool3d it pools 4-D and wider inputs with) and F.bilinear
(_trilinear) against NumPy references written from their
definitions: random shapes, windows with dilation, padding and stride, unbatched inputs,
non-contiguous inputs, the dtypes torch 1.13 accepts on CPU and its errors (type and message) for
the rest and for bad arguments; the ops each function dispatches, as torch's trace lists them.
Gradients are checked in tests/python/test_autograd.py, modules and torch-recorded values in
tests/python/test_nn_modules.py (nn_modules_cases.py)."""
import re

import numpy as np
import pytest

import opscope
import opscope.nn.functional as F
from opscope.utils._python_dispatch import TorchDispatchMode

DTYPES = {opscope.float32: np.float32, opscope.float64: np.float64}


@pytest.fixture
def rng():
    return np.random.default_rng(35)


def _report(name, got, want, tol):
    diff = float(np.max(np.abs(got.astype(np.float64) - want), initial=0.0))
    print(f"{name}: maxdiff {diff:.3g}")
    assert got.shape == want.shape, f"{name}: shape {got.shape} != {want.shape}"
    assert diff <= tol, f"{name}: maxdiff {diff}"


def _blocks(h, w, k, d, p, s):
    return [(size + 2 * pad - dil * (ker - 1) - 1) // st + 1 for size, ker, dil, pad, st in
            zip((h, w), k, d, p, s)]


def unfold_ref(x, k, d, p, s):
    """x (N, C, H, W) -> (N, C kh kw, OH OW), element by element from the definition."""
    n, c, h, w = x.shape
    oh, ow = _blocks(h, w, k, d, p, s)
    out = np.zeros((n, c * k[0] * k[1], oh * ow), dtype=np.float64)
    for ci in range(c):
        for i in range(k[0]):
            for j in range(k[1]):
                row = (ci * k[0] + i) * k[1] + j
                for y in range(oh):
                    for z in range(ow):
                        iy, ix = y * s[0] - p[0] + i * d[0], z * s[1] - p[1] + j * d[1]
                        if 0 <= iy < h and 0 <= ix < w:
                            out[:, row, y * ow + z] = x[:, ci, iy, ix]
    return out


def fold_ref(col, size, k, d, p, s):
    """col (N, C kh kw, L) -> (N, C, H, W): unfold's adjoint, overlaps summed."""
    n, rows, _ = col.shape
    c = rows // (k[0] * k[1])
    oh, ow = _blocks(size[0], size[1], k, d, p, s)
    out = np.zeros((n, c, size[0], size[1]), dtype=np.float64)
    for ci in range(c):
        for i in range(k[0]):
            for j in range(k[1]):
                row = (ci * k[0] + i) * k[1] + j
                for y in range(oh):
                    for z in range(ow):
                        iy, ix = y * s[0] - p[0] + i * d[0], z * s[1] - p[1] + j * d[1]
                        if 0 <= iy < size[0] and 0 <= ix < size[1]:
                            out[:, ci, iy, ix] += col[:, row, y * ow + z]
    return out


WINDOWS = [  # (N, C, H, W), kernel, dilation, padding, stride
    ((2, 3, 5, 6), (3, 3), (1, 1), (1, 1), (1, 1)),
    ((1, 2, 7, 5), (2, 3), (2, 1), (0, 2), (2, 1)),
    ((3, 1, 4, 9), (1, 4), (1, 2), (2, 0), (3, 2)),
    ((2, 4, 6, 6), (2, 2), (1, 1), (0, 0), (2, 2)),
    ((1, 3, 3, 3), (3, 3), (1, 1), (0, 0), (1, 1)),
]


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("shape,k,d,p,s", WINDOWS)
def test_unfold_and_fold_match_numpy(rng, dtype, shape, k, d, p, s):
    x = rng.standard_normal(shape).astype(DTYPES[dtype])
    got = F.unfold(opscope.tensor(x), k, dilation=d, padding=p, stride=s)
    want = unfold_ref(x.astype(np.float64), k, d, p, s)
    _report("unfold", got.numpy(), want, 0.0)
    col = rng.standard_normal(want.shape).astype(DTYPES[dtype])
    folded = F.fold(opscope.tensor(col), shape[2:], k, dilation=d, padding=p, stride=s)
    _report("fold", folded.numpy(), fold_ref(col.astype(np.float64), shape[2:], k, d, p, s),
            1e-5 if dtype == opscope.float32 else 1e-12)
    # unbatched: the batch dim dropped
    one = F.unfold(opscope.tensor(x[0]), k, dilation=d, padding=p, stride=s)
    _report("unfold unbatched", one.numpy(), want[0], 0.0)
    back = F.fold(opscope.tensor(col[0]), shape[2:], k, dilation=d, padding=p, stride=s)
    _report("fold unbatched", back.numpy(), folded.numpy()[0].astype(np.float64), 0.0)


def test_unfold_and_fold_of_non_contiguous_inputs(rng):
    x = rng.standard_normal((2, 3, 6, 5))
    t = opscope.tensor(x).transpose(2, 3)  # (2, 3, 5, 6), strided
    assert not t.is_contiguous()
    _report("unfold transposed", F.unfold(t, 2, padding=1).numpy(),
            unfold_ref(x.transpose(0, 1, 3, 2), (2, 2), (1, 1), (1, 1), (1, 1)), 0.0)
    col = rng.standard_normal((2, 20, 12))
    c = opscope.tensor(np.ascontiguousarray(col.transpose(0, 2, 1))).transpose(1, 2)  # (2, 20, 12), strided
    assert not c.is_contiguous()
    _report("fold transposed", F.fold(c, (4, 5), 2).numpy(), fold_ref(col, (4, 5), (2, 2), (1, 1), (0, 0), (1, 1)),
            1e-12)


@pytest.mark.parametrize("dtype", [opscope.bfloat16, opscope.float16])
def test_unfold_and_fold_of_half_types(rng, dtype):
    x = opscope.tensor(rng.standard_normal((2, 2, 4, 5))).to(dtype)
    got = F.unfold(x, 2, padding=1, stride=(1, 2))
    assert got.dtype == dtype
    want = unfold_ref(x.float().numpy().astype(np.float64), (2, 2), (1, 1), (1, 1), (1, 2))
    _report("unfold half", got.float().numpy(), want, 0.0)  # moved, not computed: exact
    folded = F.fold(got, (4, 5), 2, padding=1, stride=(1, 2))
    assert folded.dtype == dtype
    _report("fold half", folded.float().numpy(), fold_ref(got.float().numpy().astype(np.float64), (4, 5), (2, 2),
                                                          (1, 1), (1, 1), (1, 2)), 0.05)


def test_unfold_and_fold_empty_batch_and_out():
    assert F.unfold(opscope.zeros(0, 3, 4, 5), 2).shape == (0, 12, 12)
    assert F.fold(opscope.zeros(0, 12, 12), (4, 5), 2).shape == (0, 3, 4, 5)
    x = opscope.arange(40.0).reshape(2, 4, 5)
    out = opscope.empty(0)
    r = opscope.ops.aten.im2col(x, [2, 2], [1, 1], [0, 0], [1, 1], out=out)
    assert r is out and out.shape == (8, 12)
    _report("im2col.out", out.numpy(), unfold_ref(x.numpy()[None].astype(np.float64), (2, 2), (1, 1), (0, 0),
                                                  (1, 1))[0], 0.0)
    back = opscope.empty(3)
    opscope.ops.aten.col2im(out, [4, 5], [2, 2], [1, 1], [0, 0], [1, 1], out=back)
    assert back.shape == (2, 4, 5)
    _report("col2im.out", back.numpy(), F.fold(out, (4, 5), 2).numpy().astype(np.float64), 0.0)
    # a non-contiguous out= tensor is written through
    base = opscope.zeros(12, 16)
    view = base.t()[:, :8].t()  # (8, 12) with strides (1, 16)
    opscope.ops.aten.im2col(x, [2, 2], [1, 1], [0, 0], [1, 1], out=view)
    _report("im2col.out strided", view.numpy(), out.numpy().astype(np.float64), 0.0)


ERRORS = [  # call, exception type, torch 1.13's message
    (lambda: F.unfold(opscope.zeros(4, 5), 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: F.unfold(opscope.zeros(1, 2, 3, 4, 5), 2), RuntimeError,
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
     "but got: [1, 2, 3, 4, 5]"),
    (lambda: F.unfold(opscope.zeros(2, 0, 4, 5), 2), RuntimeError,
     "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
     "but got: [2, 0, 4, 5]"),
    (lambda: F.unfold(opscope.zeros(1, 2, 4, 5), 0), RuntimeError,
     "kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 0"),
    (lambda: F.unfold(opscope.zeros(1, 2, 4, 5), 2, dilation=0), RuntimeError,
     "dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0"),
    (lambda: F.unfold(opscope.zeros(1, 2, 4, 5), 2, padding=-1), RuntimeError,
     "padding should be non-negative, but got pad_height: -1 pad_width: -1"),
    (lambda: F.unfold(opscope.zeros(1, 2, 4, 5), 2, stride=0), RuntimeError,
     "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
    (lambda: F.unfold(opscope.zeros(2, 3, 5, 6), 7), RuntimeError,
     "Given input with spatial size (5, 5), kernel_size=(7, 7), dilation=(1, 1), padding=(0, 0), calculated shape "
     "of the array of sliding blocks as (-1, 0), but its components must be at least one."),
    (lambda: F.unfold(opscope.zeros(1, 2, 4, 5, dtype=opscope.int64), 2), RuntimeError,
     "\"im2col_out_cpu\" not implemented for 'Long'"),
    (lambda: F.fold(opscope.zeros(20), (5, 6), 2), RuntimeError,
     "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
     "input, but got: [20]"),
    (lambda: F.fold(opscope.zeros(2, 10, 20), (5, 6), 2), RuntimeError,
     "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
     "input.size(1)=10 and kernel_size=(2, 2)."),
    (lambda: F.fold(opscope.zeros(2, 12, 21), (5, 6), 2), RuntimeError,
     "Given output_size=(5, 6), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(1, 1), expected size "
     "of input's dimension 2 to match the calculated number of sliding blocks 4 * 5 = 20, but got "
     "input.size(2)=21."),
    (lambda: F.fold(opscope.zeros(2, 4, 1), (-1, -1), 1, padding=1), RuntimeError,
     "Expected output spatial size to be positive, but got: output_size=(-1, -1)."),
    (lambda: F.fold(opscope.zeros(2, 12, 20, dtype=opscope.int32), (5, 6), 2), RuntimeError,
     "\"col2im_out_cpu\" not implemented for 'Int'"),
    (lambda: F.max_unpool2d(opscope.ones(1, 1, 2, 2), opscope.tensor([[[[0, 1], [2, 16]]]]), 2), RuntimeError,
     "Found an invalid max index: 16 (output volumes are of size 4x4"),
    (lambda: F.max_unpool3d(opscope.ones(1, 1, 1, 1, 2), opscope.tensor([[[[[0, -3]]]]]), 2), RuntimeError,
     "Found an invalid max index: -3 (output volumes are of size 2x2x4"),
    (lambda: F.max_unpool2d(opscope.ones(1, 1, 2, 2), opscope.zeros(1, 1, 2, 2, dtype=opscope.int32), 2),
     RuntimeError, "elements in indices should be type int64 but got: Int"),
    (lambda: F.max_unpool2d(opscope.ones(1, 1, 2, 2), opscope.zeros(1, 1, 2, 1, dtype=opscope.int64), 2),
     RuntimeError, "Expected shape of indices to be same as that of the input tensor ([1, 1, 2, 2]) but got indices "
     "tensor with shape: [1, 1, 2, 1]"),
    (lambda: F.max_unpool2d(opscope.ones(2, 2), opscope.zeros(2, 2, dtype=opscope.int64), 2), RuntimeError,
     "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with 2 dimensions."),
    (lambda: F.max_unpool2d(opscope.ones(1, 0, 2, 2), opscope.zeros(1, 0, 2, 2, dtype=opscope.int64), 2),
     RuntimeError, "max_unpooling2d_forward_out_cpu(): Expected input to have non-zero size for non-batch "
     "dimensions, but got [1, 0, 2, 2] with dimension 1 being empty."),
    (lambda: F.max_unpool2d(opscope.ones(1, 1, 2, 2, dtype=opscope.bfloat16),
                            opscope.zeros(1, 1, 2, 2, dtype=opscope.int64), 2), RuntimeError,
     "\"max_unpool2d\" not implemented for 'BFloat16'"),
    (lambda: F.max_unpool2d(opscope.ones(1, 1, 2, 2), opscope.zeros(1, 1, 2, 2, dtype=opscope.int64), 2,
                            output_size=[6, 6]), ValueError,
     'invalid output_size "[6, 6]" (dim 0 must be between 2 and 6)'),
    (lambda: F.max_unpool3d(opscope.ones(1, 2, 2), opscope.zeros(1, 2, 2, dtype=opscope.int64), 2), RuntimeError,
     "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with 3 dimensions."),
    (lambda: F.channel_shuffle(opscope.zeros(2, 4), 2), RuntimeError,
     "channel_shuffle expects input with > 2 dims, but got input with sizes [2, 4]"),
    (lambda: F.channel_shuffle(opscope.zeros(2, 4, 3), 0), RuntimeError,
     "Number of groups to divide channels in must be positive. Value of groups:0"),
    (lambda: F.channel_shuffle(opscope.zeros(2, 6, 3), 4), RuntimeError,
     "Number of channels must be divisible by groups. Got 6 channels and 4 groups."),
    (lambda: F.local_response_norm(opscope.zeros(2, 3), 2), ValueError,
     "Expected 3D or higher dimensionality                          input (got 2 dimensions)"),
    (lambda: F.bilinear(opscope.ones(2, 3), opscope.ones(3, 2), opscope.ones(4, 3, 2)), RuntimeError,
     "bilinear(): input batch dimensions do not match at dim 0: got 2 and 3"),
    (lambda: F.bilinear(opscope.ones(2, 4), opscope.ones(2, 2), opscope.ones(4, 3, 2)), RuntimeError,
     "bilinear(): input1 size does not match weight size: got 4 but expected 3"),
    (lambda: F.bilinear(opscope.ones(2, 3), opscope.ones(2, 2), opscope.ones(4, 3, 2), opscope.ones(3)),
     RuntimeError, "bilinear(): bias size does not match weight size: got 3 but expected 4"),
    (lambda: F.bilinear(opscope.tensor(1.0), opscope.tensor(1.0), opscope.ones(4, 3, 2)), IndexError,
     "Dimension specified as -1 but tensor has no dimensions"),
    (lambda: opscope._trilinear(opscope.ones(2, 3), opscope.ones(4, 3, 2), opscope.ones(2, 2), [1, 3], [0], [1, 2],
                                [2, 3], 4), RuntimeError, "unroll_dim must be in [0,3]"),
]


@pytest.mark.parametrize("call,error,message", ERRORS)
def test_errors_are_torchs(call, error, message):
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        call()


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_max_unpool_matches_numpy(rng, dtype):
    n, c, h, w, oh, ow = 2, 3, 3, 4, 5, 7
    x = rng.standard_normal((n, c, h, w)).astype(DTYPES[dtype])
    # distinct targets per plane, so the result does not depend on the write order
    idx = np.stack([np.stack([rng.permutation(oh * ow)[:h * w].reshape(h, w) for _ in range(c)])
                    for _ in range(n)])
    want = np.zeros((n, c, oh * ow))
    for a in range(n):
        for b in range(c):
            want[a, b, idx[a, b].ravel()] = x[a, b].ravel()
    got = opscope.ops.aten.max_unpool2d(opscope.tensor(x), opscope.tensor(idx), [oh, ow])
    _report("max_unpool2d", got.numpy(), want.reshape(n, c, oh, ow), 0.0)
    # unbatched, and input / indices transposed (read in their logical order)
    got = opscope.ops.aten.max_unpool2d(opscope.tensor(x[0]), opscope.tensor(idx[0]), [oh, ow])
    _report("max_unpool2d unbatched", got.numpy(), want[0].reshape(c, oh, ow), 0.0)
    xt = opscope.tensor(np.ascontiguousarray(x.transpose(0, 1, 3, 2))).transpose(2, 3)
    it = opscope.tensor(np.ascontiguousarray(idx.transpose(0, 1, 3, 2))).transpose(2, 3)
    got = opscope.ops.aten.max_unpool2d(xt, it, [oh, ow])
    _report("max_unpool2d transposed", got.numpy(), want.reshape(n, c, oh, ow), 0.0)
    # 3-D: the same flat indices into (OT, OH, OW) planes; stride and padding only checked
    got3 = opscope.ops.aten.max_unpool3d(opscope.tensor(x[:, :, None]), opscope.tensor(idx[:, :, None]), [1, oh, ow],
                                         [1, 2, 2], [0, 0, 0])
    _report("max_unpool3d", got3.numpy(), want.reshape(n, c, 1, oh, ow), 0.0)
    # F.max_unpool1d: max_unpool2d on a trailing dim of 1
    v = rng.standard_normal((2, 3, 4)).astype(DTYPES[dtype])
    pos = np.array([1, 2, 5, 7])
    got1 = F.max_unpool1d(opscope.tensor(v), opscope.tensor(np.broadcast_to(pos, v.shape).copy()), 2)
    want1 = np.zeros((2, 3, 8))
    want1[..., pos] = v
    _report("max_unpool1d", got1.numpy(), want1, 0.0)


def test_max_unpool_inverts_max_pool():
    x = opscope.arange(36.0).reshape(1, 1, 6, 6)
    o, i = F.max_pool2d(x, 2, return_indices=True)
    u = F.max_unpool2d(o, i, 2)
    kept = np.zeros((6, 6))
    kept[1::2, 1::2] = x.numpy()[0, 0, 1::2, 1::2]
    _report("unpool(pool)", u.numpy()[0, 0], kept, 0.0)
    assert F.max_unpool2d(o, i, 2, output_size=(7, 7)).shape == (1, 1, 7, 7)
    assert F.max_unpool2d(opscope.zeros(0, 2, 2, 2), opscope.zeros(0, 2, 2, 2, dtype=opscope.int64), 2).shape == (
        0, 2, 4, 4)
    out = opscope.empty(0)
    opscope.ops.aten.max_unpool2d(o, i, [6, 6], out=out)
    _report("max_unpool2d.out", out.numpy(), u.numpy().astype(np.float64), 0.0)


ALL_DTYPES = [opscope.float32, opscope.float64, opscope.bfloat16, opscope.float16, opscope.int64, opscope.int32,
              opscope.int16, opscope.int8, opscope.uint8, opscope.bool]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_channel_shuffle_every_dtype(rng, dtype):
    x = rng.integers(0, 2 if dtype == opscope.bool else 100, (2, 6, 3, 2))
    t = opscope.tensor(x).to(dtype)
    want = x.reshape(2, 3, 2, 3, 2).transpose(0, 2, 1, 3, 4).reshape(2, 6, 3, 2)  # (g, k) -> (k, g)
    got = F.channel_shuffle(t, 3)
    assert got.dtype == dtype and got.is_contiguous()
    _report("channel_shuffle", got.to(opscope.float64).numpy(), want.astype(np.float64), 0.0)
    nat = opscope.native_channel_shuffle(t.transpose(2, 3), 2)  # non-contiguous, groups 2
    want2 = x.transpose(0, 1, 3, 2).reshape(2, 2, 3, 2, 3).transpose(0, 2, 1, 3, 4).reshape(2, 6, 2, 3)
    _report("native_channel_shuffle", nat.to(opscope.float64).numpy(), want2.astype(np.float64), 0.0)


def test_channel_shuffle_has_torchs_not_implemented_node():
    x = opscope.ones(1, 4, 2, requires_grad=True)
    for y, message in [(F.channel_shuffle(x, 2), "derivative for channel_shuffle is not implemented"),
                       (opscope.native_channel_shuffle(x, 2),
                        "derivative for aten::native_channel_shuffle is not implemented")]:
        assert type(y.grad_fn).__name__ == "NotImplemented"
        with pytest.raises(RuntimeError, match="^" + re.escape(message) + "$"):
            y.sum().backward()


def lrn_ref(x, size, alpha, beta, k):
    """x / (k + alpha / size * sum over the channels c - size // 2 .. c + (size - 1) // 2 of x^2)^beta."""
    c = x.shape[1]
    sq = x * x
    acc = np.zeros_like(x)
    for ch in range(c):
        lo, hi = max(0, ch - size // 2), min(c, ch + (size - 1) // 2 + 1)
        acc[:, ch] = sq[:, lo:hi].sum(axis=1)
    return x / (k + alpha / size * acc) ** beta


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("size", [1, 2, 3, 6])
def test_local_response_norm_matches_numpy(rng, dtype, size):
    x = rng.standard_normal((2, 5, 4)).astype(DTYPES[dtype])
    got = F.local_response_norm(opscope.tensor(x), size, alpha=0.3, beta=0.7, k=1.2)
    _report("local_response_norm", got.numpy(), lrn_ref(x.astype(np.float64), size, 0.3, 0.7, 1.2),
            1e-5 if dtype == opscope.float32 else 1e-12)
    m = opscope.nn.LocalResponseNorm(size, alpha=0.3, beta=0.7, k=1.2)
    _report("LocalResponseNorm", m(opscope.tensor(x)).numpy(), got.numpy().astype(np.float64), 0.0)


@pytest.mark.parametrize("shape", [(2, 5, 3, 2), (1, 4, 2, 3, 2), (2, 3, 1, 1, 1, 2)])
def test_local_response_norm_of_wider_inputs(rng, shape):
    x = rng.standard_normal(shape)
    got = F.local_response_norm(opscope.tensor(x), 3, alpha=0.2, beta=0.75, k=1.0)
    want = lrn_ref(x.reshape(shape[0], shape[1], -1), 3, 0.2, 0.75, 1.0).reshape(shape)
    _report("local_response_norm wide", got.numpy(), want, 1e-12)


def avg_pool3d_ref(x, k, s, p, ceil_mode, count_include_pad, divisor_override=None, divide=np.divide):
    """x (N, C, T, H, W) -> the mean of each window, from the definition (torch's output sizes);
    divide(sum, divisor) makes the mean (np.trunc of the quotient for integers)."""
    def size(n, kk, ss, pp):
        o = (n + 2 * pp - kk + (ss - 1 if ceil_mode else 0)) // ss + 1
        return o - 1 if ceil_mode and (o - 1) * ss >= n + pp else o
    dims = x.shape[2:]
    outs = [size(n, kk, ss, pp) for n, kk, ss, pp in zip(dims, k, s, p)]
    out = np.zeros(x.shape[:2] + tuple(outs))
    for idx in np.ndindex(*outs):
        lo = [i * ss - pp for i, ss, pp in zip(idx, s, p)]
        hi = [min(a + kk, n + pp) for a, kk, n, pp in zip(lo, k, dims, p)]
        pool = np.prod([b - a for a, b in zip(lo, hi)])
        lo = [max(a, 0) for a in lo]
        hi = [min(b, n) for b, n in zip(hi, dims)]
        win = x[:, :, lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]]
        div = divisor_override or (pool if count_include_pad else win[0, 0].size)
        out[(slice(None), slice(None)) + idx] = divide(win.sum(axis=(2, 3, 4)), div)
    return out


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("k,s,p,ceil_mode,count_include_pad,divisor", [
    ((2, 2, 2), (2, 2, 2), (0, 0, 0), False, True, None),
    ((3, 2, 1), (1, 2, 3), (1, 1, 0), False, True, None),
    ((3, 3, 3), (2, 2, 2), (1, 1, 1), True, False, None),
    ((2, 3, 2), (2, 1, 2), (1, 1, 0), True, True, 5),
])
def test_avg_pool3d_matches_numpy(rng, dtype, k, s, p, ceil_mode, count_include_pad, divisor):
    x = rng.standard_normal((2, 3, 4, 5, 6)).astype(DTYPES[dtype])
    got = F.avg_pool3d(opscope.tensor(x), k, s, p, ceil_mode, count_include_pad, divisor)
    want = avg_pool3d_ref(x.astype(np.float64), k, s, p, ceil_mode, count_include_pad, divisor)
    tol = 1e-5 if dtype == opscope.float32 else 1e-12
    _report("avg_pool3d", got.numpy(), want, tol)
    unbatched = F.avg_pool3d(opscope.tensor(x[0]).transpose(2, 3).transpose(2, 3), k, s, p, ceil_mode,
                             count_include_pad, divisor)
    _report("avg_pool3d unbatched", unbatched.numpy(), want[0], tol)
    # integers: the sum divided as integers (truncated toward zero), as torch's
    ints = (x * 10).astype(np.int64)
    got = F.avg_pool3d(opscope.tensor(ints), k, s, p, ceil_mode, count_include_pad, divisor)
    assert got.dtype == opscope.int64
    want = avg_pool3d_ref(ints, k, s, p, ceil_mode, count_include_pad, divisor, lambda a, b: np.trunc(a / b))
    _report("avg_pool3d int64", got.numpy(), want, 0.0)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("batch", [(), (3,), (2, 3), (0,)])
def test_bilinear_matches_numpy(rng, dtype, batch):
    a = rng.standard_normal(batch + (4,)).astype(DTYPES[dtype])
    b = rng.standard_normal(batch + (5,)).astype(DTYPES[dtype])
    w = rng.standard_normal((6, 4, 5)).astype(DTYPES[dtype])
    bias = rng.standard_normal(6).astype(DTYPES[dtype])
    want = np.einsum("...i,oij,...j->...o", a.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    tol = 1e-4 if dtype == opscope.float32 else 1e-12
    got = F.bilinear(opscope.tensor(a), opscope.tensor(b), opscope.tensor(w))
    _report("bilinear", got.numpy(), want, tol)
    got = F.bilinear(opscope.tensor(a), opscope.tensor(b), opscope.tensor(w), opscope.tensor(bias))
    _report("bilinear bias", got.numpy(), want + bias, tol)


def test_bilinear_of_transposed_inputs_and_other_dtypes(rng):
    a = rng.standard_normal((4, 3))
    b = rng.standard_normal((2, 3))
    w = rng.standard_normal((5, 4, 2))
    want = np.einsum("ni,oij,nj->no", a.T, w, b.T)
    got = F.bilinear(opscope.tensor(a).t(), opscope.tensor(b).t(), opscope.tensor(w).transpose(1, 2).transpose(1, 2))
    _report("bilinear transposed", got.numpy(), want, 1e-12)
    bf = F.bilinear(opscope.tensor(a).t().bfloat16(), opscope.tensor(b).t().bfloat16(), opscope.tensor(w).bfloat16())
    assert bf.dtype == opscope.bfloat16
    _report("bilinear bfloat16", bf.double().numpy(), want, 0.1)
    ints = F.bilinear(opscope.ones(2, 3, dtype=opscope.int64), opscope.ones(2, 2, dtype=opscope.int64),
                      opscope.ones(4, 3, 2, dtype=opscope.int64))
    assert ints.dtype == opscope.int64 and ints.tolist() == [[6] * 4] * 2
    # a float64 bias promotes the sum, as torch's `output + bias`
    assert F.bilinear(opscope.ones(2, 3), opscope.ones(2, 2), opscope.ones(4, 3, 2),
                      opscope.ones(4, dtype=opscope.float64)).dtype == opscope.float64


def test_trilinear_out_and_unroll_dims(rng):
    a, w, b = (opscope.tensor(rng.standard_normal(s)) for s in [(2, 3), (4, 3, 2), (2, 2)])
    want = np.einsum("ni,oij,nj->no", a.numpy(), w.numpy(), b.numpy())
    for unroll in range(4):
        got = opscope._trilinear(a, w, b, [1, 3], [0], [1, 2], [2, 3], unroll)
        _report(f"_trilinear unroll {unroll}", got.numpy(), want, 1e-12)
    out = opscope.empty(0, dtype=opscope.float64)
    opscope._trilinear(a, w, b, [1, 3], [0], [1, 2], [2, 3], out=out)
    _report("_trilinear.out", out.numpy(), want, 1e-12)


class _Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append(str(func))
        return func(*args, **(kwargs or {}))


def _zeros(*sizes, dtype=opscope.float32):
    return lambda: opscope.zeros(*sizes, dtype=dtype)


_LONG = opscope.int64
# (function, its inputs' makers, what torch 1.13's TorchDispatchMode logs for the call)
TRACES = [
    (lambda x: F.unfold(x, 3), [_zeros(2, 4, 5, 5)], ["aten.im2col.default"]),
    (lambda x: F.fold(x, (5, 5), 2), [_zeros(2, 36, 16)], ["aten.col2im.default"]),
    (lambda x: F.channel_shuffle(x, 2), [_zeros(2, 4, 5, 5)], ["aten.channel_shuffle.default"]),
    (lambda x: opscope.native_channel_shuffle(x, 2), [_zeros(2, 4, 5, 5)], ["aten.native_channel_shuffle.default"]),
    (lambda x: F.local_response_norm(x, 2), [_zeros(2, 4, 5)],
     ["aten.mul.Tensor", "aten.unsqueeze.default", "aten.constant_pad_nd.default", "aten.avg_pool2d.default",
      "aten.squeeze.dim", "aten.mul.Tensor", "aten.add.Tensor", "aten.pow.Tensor_Scalar", "aten.div.Tensor"]),
    (lambda x: F.local_response_norm(x, 2), [_zeros(2, 4, 5, 5)],
     ["aten.mul.Tensor", "aten.unsqueeze.default", "aten.view.default", "aten.constant_pad_nd.default",
      "aten.avg_pool3d.default", "aten.squeeze.dim", "aten.view.default", "aten.mul.Tensor", "aten.add.Tensor",
      "aten.pow.Tensor_Scalar", "aten.div.Tensor"]),
    (F.bilinear, [_zeros(3, 4), _zeros(3, 5), _zeros(6, 4, 5), _zeros(6)],
     ["aten._reshape_alias.default", "aten._reshape_alias.default", "aten._trilinear.default",
      "aten._reshape_alias.default", "aten.add.Tensor"]),
    (lambda x, i: F.max_unpool1d(x, i, 2), [_zeros(2, 3, 4), _zeros(2, 3, 4, dtype=_LONG)],
     ["aten.unsqueeze.default", "aten.unsqueeze.default", "aten.max_unpool2d.default", "aten.squeeze.dim"]),
    (lambda x, i: F.max_unpool3d(x, i, 2), [_zeros(2, 3, 2, 2, 2), _zeros(2, 3, 2, 2, 2, dtype=_LONG)],
     ["aten.max_unpool3d.default"]),
]


@pytest.mark.parametrize("index", range(len(TRACES)))
def test_dispatched_ops_are_torchs(index):
    fn, makers, want = TRACES[index]
    inputs = [make() for make in makers]
    with _Log() as log:
        fn(*inputs)
    assert log.calls == want


def test_nodes_and_saved_names_are_torchs():
    x = opscope.zeros(2, 3, 5, 5, requires_grad=True)
    u = F.unfold(x, 3)
    assert type(u.grad_fn).__name__ == "Im2ColBackward0"
    assert {"_saved_self", "_saved_kernel_size", "_saved_dilation", "_saved_padding", "_saved_stride"} <= set(
        dir(u.grad_fn))
    f = F.fold(u, (5, 5), 3)
    assert type(f.grad_fn).__name__ == "Col2ImBackward0" and f.grad_fn._saved_kernel_size == (3, 3)
    o = opscope.zeros(1, 1, 2, 2, requires_grad=True)
    i = opscope.zeros(1, 1, 2, 2, dtype=opscope.int64)
    assert type(F.max_unpool2d(o, i, 2).grad_fn).__name__ == "MaxUnpool2DBackward0"
    assert F.max_unpool2d(o, i, 2).grad_fn._saved_indices.shape == (1, 1, 2, 2)
    o3 = opscope.zeros(1, 1, 1, 2, 2, requires_grad=True)
    assert type(F.max_unpool3d(o3, opscope.zeros(1, 1, 1, 2, 2, dtype=opscope.int64), 2).grad_fn).__name__ == (
        "MaxUnpool3DBackward0")
    a, b, w = (opscope.zeros(*s, requires_grad=True) for s in [(2, 3), (2, 2), (4, 3, 2)])
    t = opscope._trilinear(a, w, b, [1, 3], [0], [1, 2], [2, 3])
    assert type(t.grad_fn).__name__ == "TrilinearBackward0"
    assert t.grad_fn._saved_sumdim == (2, 3) and t.grad_fn._saved_i2.shape == (4, 3, 2)
    y = F.bilinear(a, b, w)
    assert type(y.grad_fn).__name__ == "ReshapeAliasBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "TrilinearBackward0"
