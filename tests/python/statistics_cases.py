"""The statistics cases (cov, corrcoef, quantile, nanquantile, mode, aminmax, logspace, the signal
windows, i0 / i1 / i0e / i1e): what make_torch_reference_statistics.py records under torch 1.13
into data/statistics_torch.json and test_statistics.py replays under opscope.

A case is a line of Python in which ``m`` is the tensor module and the names of ``env(m)`` are
its inputs (see reference_cases.py). This module imports neither torch nor opscope."""
import numpy as np


def env(m):
    """The named inputs of the recorded cases, built with module m (torch or opscope) from the
    same NumPy numbers."""
    rng = np.random.default_rng(35)
    f64 = m.float64
    X = rng.standard_normal((3, 6))
    ties = rng.integers(0, 4, (5, 12))  # few distinct values: many ties
    long_ties = rng.integers(0, 6, (4, 40))  # slices past std::sort's insertion sort
    nan_rows = rng.standard_normal((4, 7))
    nan_rows[0, 2] = nan_rows[1, 0] = nan_rows[1, 5] = np.nan
    nan_rows[3, :] = np.nan
    grid = np.array([0.0, 1e-20, 0.3, -0.5, 1.0, -2.5, 7.9, 8.0, 8.1, -12.0, 30.0, -85.0, 700.0,
                     -720.0, np.inf, -np.inf, np.nan])
    return {
        "X": m.tensor(X.tolist(), dtype=f64),
        "X32": m.tensor(X.tolist()),
        "XI": m.tensor((X * 4).round().astype(int).tolist()),
        "X3": m.tensor(rng.standard_normal((2, 3, 4)).tolist(), dtype=f64),
        "FW": m.tensor([1, 2, 0, 3, 1, 1]),
        "AW": m.tensor([0.5, 1.5, 2.0, 0.25, 1.0, 3.0], dtype=f64),
        "T": m.tensor(ties.tolist()),
        "TF": m.tensor(ties.tolist(), dtype=m.float32),
        "L": m.tensor(long_ties.tolist()),
        "LF": m.tensor((long_ties / 2).tolist(), dtype=f64),
        "N": m.tensor(nan_rows.tolist(), dtype=f64),
        "G": m.tensor(grid.tolist(), dtype=f64),
        "G32": m.tensor(grid.tolist()),
        "Q": m.tensor([0.0, 0.25, 0.5, 0.9, 1.0], dtype=f64),
        "out": lambda dtype=m.float32: m.empty(0, dtype=dtype),
    }


INTERPOLATIONS = ["linear", "lower", "higher", "midpoint", "nearest"]

CASES = [
    # --- cov / corrcoef
    "m.cov(X)", "m.cov(X, correction=0)", "m.cov(X, correction=3)", "m.cov(X, fweights=FW)",
    "m.cov(X, aweights=AW)", "m.cov(X, correction=2, fweights=FW, aweights=AW)",
    "m.cov(X, correction=0, fweights=FW, aweights=AW)", "m.cov(X[0])", "m.cov(X.t())",
    "m.cov(X.t(), aweights=m.tensor([1.0, 2.0, 3.0], dtype=m.float64))", "m.cov(XI)",
    "m.cov(X32)", "m.cov(X, correction=7)", "m.cov(X[:, :1], aweights=AW[:1])",
    "m.cov(X[:, :1], fweights=FW[:1])", "m.cov(m.tensor(3.0))", "m.cov(m.zeros(3, 0))",
    "m.cov(m.zeros(0, 4))", "m.cov(X32.bfloat16())", "m.cov(X, fweights=FW.int())",
    "m.cov(X, aweights=AW.float())", "X.cov(correction=0)",
    "m.cov(X3)", "m.cov(X > 0)", "m.cov(X, fweights=FW.view(2, 3))", "m.cov(X, fweights=FW.double())",
    "m.cov(X, fweights=FW[:4])", "m.cov(X, fweights=-FW)", "m.cov(X, aweights=FW)",
    "m.cov(X, aweights=AW.view(3, 2))", "m.cov(X, aweights=AW[:5])", "m.cov(X, aweights=-AW)",
    "m.cov(X, fweights=m.zeros(6, dtype=m.int64))", "m.cov(X, aweights=m.zeros(6, dtype=m.float64))",
    "m.corrcoef(X)", "m.corrcoef(X[0])", "m.corrcoef(m.tensor(3.0))", "m.corrcoef(XI)",
    "m.corrcoef(X32)", "m.corrcoef(X.t())", "X.corrcoef()", "m.corrcoef(X3)",
    "m.corrcoef(m.stack([X[0], X[0] * 2, -X[0]]))",

    # --- quantile / nanquantile
    *[f"m.{fn}(X, 0.3, interpolation='{i}')" for fn in ("quantile", "nanquantile")
      for i in INTERPOLATIONS],
    *[f"m.{fn}(X, Q, dim={d}, keepdim={k}, interpolation='{i}')"
      for fn in ("quantile", "nanquantile") for d in (0, 1, -1) for k in (False, True)
      for i in INTERPOLATIONS],
    *[f"m.{fn}(N, {q}, dim=1, interpolation='{i}')" for fn in ("quantile", "nanquantile")
      for q in ("0.4", "Q") for i in INTERPOLATIONS],
    "m.quantile(N, 0.5)", "m.nanquantile(N, 0.5)", "m.nanquantile(N, Q)",
    "m.quantile(X3, Q, dim=1)", "m.quantile(X3, 0.7, dim=0, keepdim=True)", "m.quantile(X3, Q, keepdim=True)",
    "m.quantile(X.t(), Q, dim=0)", "m.quantile(X32, 0.5)", "m.quantile(X32, m.tensor([0.5]), dim=0)",
    "m.quantile(m.tensor(3.0), 0.5)", "m.quantile(m.tensor(3.0), 0.5, dim=0)",
    "m.quantile(m.tensor(3.0), 0.5, dim=0, keepdim=True)", "m.quantile(m.tensor(3.0), Q, dim=-1)",
    "m.quantile(X, m.tensor(0.25, dtype=m.float64), dim=1)", "m.quantile(X, Q[:0])",
    "m.quantile(X, Q[:0], dim=0)", "m.quantile(m.zeros(0, 3), 0.5, dim=1)",
    "X.quantile(0.5, 1)", "X.nanquantile(Q, 0)", "m.quantile(X, 0.0)", "m.quantile(X, 1.0)",
    "m.quantile(X, 0.5, dim=1, out=out(m.float64))",
    "m.quantile(X, Q, dim=1, keepdim=True, out=out(m.float64))",
    "m.nanquantile(N, 0.5, dim=1, out=out(m.float64))", "m.nanquantile(N, Q, out=out(m.float64))",
    "m.quantile(X, 0.5, interpolation='foo')", "m.quantile(m.empty(0), 0.5, interpolation='foo')",
    "m.quantile(X, 1.5, interpolation='foo')",
    "m.quantile(m.empty(0), 1.5)", "m.quantile(m.empty(0), m.tensor(1.5))", "m.quantile(X, 1.5)",
    "m.quantile(X, -0.1)", "m.quantile(X, float('nan'))", "m.nanquantile(X, 2.0)",
    "m.quantile(X, m.tensor([1.5], dtype=m.float64))", "m.quantile(X, m.tensor(float('nan'), dtype=m.float64))",
    "m.quantile(X, m.tensor([[0.5]], dtype=m.float64))", "m.quantile(X, m.tensor([0.5]))",
    "m.quantile(XI, 0.5)", "m.quantile(X32.bfloat16(), 0.5)", "m.quantile(X, 0.5, dim=2)",
    "m.quantile(m.zeros(3, 0), 0.5, dim=1)", "m.quantile(X, 0.5, out=out())",
    "m.nanquantile(X, 0.5, interpolation='Linear')",

    # --- mode
    "m.mode(T)", "m.mode(T, 0)", "m.mode(T, 1, keepdim=True)", "m.mode(T.t(), 1)", "m.mode(TF)",
    "m.mode(L)", "m.mode(L, 0)", "m.mode(LF)", "m.mode(L.t().contiguous(), 0)", "m.mode(N)",
    "m.mode(N, 0)", "m.mode(m.tensor([[1.0, 2, 2, 3, 3, 1]]), 1)", "m.mode(m.tensor([5.0, 4, 3]))",
    "m.mode(m.tensor([float('nan'), float('nan'), 1, 1]))",
    "m.mode(m.tensor([1.0, float('nan'), 1, float('nan'), float('nan')]))",
    "m.mode(m.tensor([0.0, -0.0]))", "m.mode(m.tensor([-0.0, 0.0]))",
    "m.mode(T > 1)", "m.mode(T.to(m.uint8))", "m.mode(T.to(m.int8), 0)", "m.mode(T.to(m.int16))",
    "m.mode(T.to(m.int32))", "m.mode(TF.half())", "m.mode(TF.bfloat16(), 0)",
    "m.mode(L.to(m.float16))", "m.mode(m.tensor(3.0))", "m.mode(m.tensor(3.0), 0, True)",
    "m.mode(m.tensor(3), -1)", "m.mode(m.empty(0))", "m.mode(m.empty(0, 3), 1)", "m.mode(m.empty(0, 3), 0)",
    "m.mode(m.empty(3, 0), 0)", "m.mode(X, 5)", "T.mode()", "T.mode(0, True)",
    "m.mode(TF, 1, out=(m.empty(0), m.empty(0, dtype=m.int64)))",
    "m.mode(TF, 1, True, out=(m.empty(0), m.empty(0, dtype=m.int64)))",
    "m.mode(TF, 1, out=(m.empty(0, dtype=m.float64), m.empty(0, dtype=m.int64)))",
    "m.mode(TF, 1, out=(m.empty(0), m.empty(0)))", "m.mode(TF, 1, out=(m.empty(0), m.empty(0, dtype=m.int32)))",
    "m.mode(T.expand(2, 5, 12), 2)",

    # --- aminmax
    "m.aminmax(X)", "m.aminmax(X, dim=0)", "m.aminmax(X, dim=1)", "m.aminmax(X, dim=-1, keepdim=True)",
    "m.aminmax(X, keepdim=True)", "m.aminmax(X.t(), dim=1)", "m.aminmax(X3, dim=1)", "m.aminmax(X3[:, 1:, ::2])",
    "m.aminmax(N)", "m.aminmax(N, dim=1)", "m.aminmax(N, dim=0)", "m.aminmax(T)", "m.aminmax(T, dim=0)",
    "m.aminmax(T > 1)", "m.aminmax(T > 1, dim=1)", "m.aminmax(T.to(m.uint8), dim=1)",
    "m.aminmax(T.to(m.int8))", "m.aminmax(T.to(m.int16), dim=0)", "m.aminmax(T.to(m.int32))",
    "m.aminmax(X32)", "m.aminmax(X32, dim=1)", "m.aminmax(X32.bfloat16())", "m.aminmax(N.bfloat16())",
    "m.aminmax(X32.bfloat16(), dim=0)", "m.aminmax(X32.half())", "m.aminmax(X32.half(), dim=0)",
    "m.aminmax(m.empty(0))", "m.aminmax(m.empty(0, 3), dim=1)", "m.aminmax(m.empty(0, 3), dim=0)",
    "m.aminmax(m.tensor(3.0))", "m.aminmax(m.tensor(3.0), dim=0)", "m.aminmax(m.tensor(3.0), dim=0, keepdim=True)",
    "m.aminmax(m.tensor(3.0), keepdim=True)", "m.aminmax(X, dim=5)", "X.aminmax()", "X.aminmax(dim=0)",
    "m.aminmax(LF)", "m.aminmax(m.arange(1000.0).reshape(10, 100).t(), dim=0)",
    "m.aminmax(X, dim=1, out=(m.empty(0, dtype=m.float64), m.empty(0, dtype=m.float64)))",
    "m.aminmax(X, out=(m.empty(0, dtype=m.float64), m.empty(0, dtype=m.float64)))",
    "m.aminmax(X, dim=1, out=(m.empty(0), m.empty(0, dtype=m.float64)))",
    "m.aminmax(X, dim=1, out=(m.empty(0, dtype=m.float64), m.empty(0, dtype=m.int64)))",
    "m.aminmax(X.requires_grad_()).min.grad_fn.name()",

    # --- logspace
    *[f"m.logspace(-2, 3, 7, base=2, dtype=m.{dt})" for dt in
      ("float32", "float64", "int64", "int32", "int16", "uint8", "int8", "bool", "float16", "bfloat16")],
    "m.logspace(0, 3, 1)", "m.logspace(0, 3, 0)", "m.logspace(0, 3, -1)", "m.logspace(1, 3, 4, base=-2.0)",
    "m.logspace(0, 3, 4, dtype=m.int64, base=10.5)", "m.logspace(0.5, 2.5, 4, dtype=m.int64)",
    "m.logspace(0, 1, 1, dtype=m.bool)", "m.logspace(0, 2, 5)", "m.logspace(-1.5, 1.25, 37, dtype=m.float64)",
    "m.logspace(-1.5, 1.25, 37, base=3.0)", "m.logspace(-1.5, 1.25, 37, dtype=m.bfloat16)",
    "m.logspace(10, 1, 5, base=0.5)", "m.logspace(0, 40, 5, dtype=m.int64)", "m.logspace(0, 40, 5, dtype=m.int32)",
    "m.logspace(0, 40, 5, dtype=m.int8)", "m.logspace(2, 2, 3)", "m.logspace(0, 3, 4, requires_grad=True).requires_grad",
    "m.logspace(0, 3, 4, out=m.empty(2, dtype=m.float64))", "m.logspace(0, 3, 4, out=m.empty(8)[::2])",
    "m.logspace(1, 2, 1, out=m.empty(0, dtype=m.int64))", "m.logspace(True, 3, 4)",

    # --- the windows
    *[f"m.{w}({n})" for w in ("hann_window", "hamming_window", "bartlett_window", "blackman_window",
                               "kaiser_window") for n in (0, 1, 2, 5, 8)],
    *[f"m.{w}({n}, False)" for w in ("hann_window", "hamming_window", "bartlett_window",
                                      "blackman_window", "kaiser_window") for n in (1, 2, 5, 8)],
    *[f"m.{w}(6, dtype=m.{dt})" for w in ("hann_window", "hamming_window", "bartlett_window",
                                           "blackman_window", "kaiser_window")
      for dt in ("float64", "bfloat16", "float16", "int64", "bool")],
    *[f"m.{w}(1, dtype=m.float16)" for w in ("hann_window", "kaiser_window")],
    *[f"m.{w}(0, dtype=m.int64)" for w in ("hann_window", "bartlett_window")],
    *[f"m.{w}(-1)" for w in ("hann_window", "hamming_window", "bartlett_window", "blackman_window",
                             "kaiser_window")],
    "m.hamming_window(7, True, 0.3)", "m.hamming_window(7, False, 0.3, 0.2)",
    "m.hamming_window(7, False, 0.3, 0.2, dtype=m.float64)", "m.kaiser_window(7, False, 5.0)",
    "m.kaiser_window(7, True, 0.5, dtype=m.float64)", "m.kaiser_window(9, False, 30.0)",
    "m.kaiser_window(33, dtype=m.float64)", "m.hann_window(33)", "m.blackman_window(33, dtype=m.float64)",
    "m.hann_window(4, requires_grad=True).requires_grad", "m.hann_window(3, True, dtype=m.float64).dtype",
    "m.ops.aten.hann_window.out(5, out=out(m.float64))", "m.ops.aten.hann_window.periodic_out(5, False, out=out())",
    "m.ops.aten.hamming_window.periodic_alpha_beta_out(6, True, 0.3, 0.2, out=out())",
    "m.ops.aten.hamming_window.periodic_alpha_out(6, False, 0.3, out=out(m.float64))",
    "m.ops.aten.bartlett_window.out(5, out=m.empty(9))", "m.ops.aten.blackman_window.periodic_out(4, True, out=out())",
    "m.ops.aten.kaiser_window.beta_out(6, False, 4.0, out=out(m.float64))",
    "m.ops.aten.kaiser_window.beta(6, False, 2.0, dtype=m.float64, layout=m.strided)",

    # --- i0 / i1 / i0e / i1e
    "m.i0(G)", "m.i0(G32)", "m.special.i0(G)", "m.special.i1(G)", "m.special.i1(G32)",
    "m.special.i0e(G)", "m.special.i0e(G32)", "m.special.i1e(G)", "m.special.i1e(G32)",
    "G32.i0()", "G32.clone().i0_()", "m.i0_(G.clone())", "m.i0(G, out=out(m.float64))",
    "m.special.i0(G32, out=out())", "m.special.i1(G, out=out(m.float64))",
    "m.special.i0e(G32, out=out())", "m.special.i1e(G, out=out(m.float64))",
    *[f"{f}(m.tensor([1, 2, 5], dtype=m.{dt}))" for f in ("m.i0", "m.special.i1", "m.special.i0e",
                                                          "m.special.i1e")
      for dt in ("int64", "uint8", "bool", "bfloat16", "float16")],
    *[f"{f}(m.tensor([-1, 2, -3]))" for f in ("m.i0", "m.special.i1", "m.special.i0e", "m.special.i1e")],
    "m.i0(G32.bfloat16())", "m.special.i0e(G32.bfloat16())", "m.i0(m.tensor(2))",
    "m.i0(X.t())", "m.special.i1(X.t()[::2])", "m.i0(m.empty(0, 3))",
    "m.i0(m.tensor([1, 2]), out=m.empty(0, dtype=m.int64))",
    "m.tensor([1, 2]).i0_()",
    "m.i0(X.requires_grad_()).grad_fn.name()", "m.special.i0(X.requires_grad_()).grad_fn.name()",
    "m.special.i1(X.requires_grad_()).grad_fn.name()", "m.special.i0e(X.requires_grad_()).grad_fn.name()",
    "m.special.i1e(X.requires_grad_()).grad_fn.name()",
    "m.mode(X.requires_grad_(), 1).values.grad_fn.name()",
    "(lambda x: m.autograd.grad(m.special.i1(x).sum(), x)[0])(m.tensor([0.0, 1e-20, 0.5, -2.0], dtype=m.float64, requires_grad=True))",
    "(lambda x: m.autograd.grad(m.special.i1e(x).sum(), x)[0])(m.tensor([0.0, 1e-20, 0.5, -2.0, 9.0], dtype=m.float64, requires_grad=True))",
    "(lambda x: m.autograd.grad(m.special.i1(x).sum(), x)[0])(m.tensor([0.0, 1e-8, 0.5, -2.0], requires_grad=True))",
    "(lambda x: m.autograd.grad(m.special.i0e(x).sum(), x)[0])(m.tensor([0.0, -1.5, 0.5, -2.0, 9.0], dtype=m.float64, requires_grad=True))",
    "(lambda x: m.autograd.grad(m.i0(x).sum(), x)[0])(m.tensor([0.0, -1.5, 0.5, 9.0], dtype=m.float64, requires_grad=True))",
    "(lambda x: m.autograd.grad(m.mode(x, 1).values.sum(), x)[0])(m.tensor([[1.0, 2, 2, 3], [4, 4, 5, 5]], dtype=m.float64, requires_grad=True))",
    "(lambda x: m.autograd.grad(m.mode(x, 0, True).values.sum(), x)[0])(m.tensor([[1.0, 2], [1, 3], [2, 3]], dtype=m.float64, requires_grad=True))",
    "(lambda x: m.autograd.grad(m.cov(x, aweights=AW).sum(), x)[0])(X.clone().requires_grad_())",
    "(lambda x: m.autograd.grad(m.corrcoef(x).sum(), x)[0])(X.clone().requires_grad_())",
    "(lambda x: m.autograd.grad(m.quantile(x, Q, dim=1).sum(), x)[0])(X.clone().requires_grad_())",
    "(lambda x: m.autograd.grad(m.nanquantile(x, 0.3, interpolation='midpoint').sum(), x)[0])(N.clone().requires_grad_())",
    "(lambda x: m.autograd.grad(m.aminmax(x).max, x)[0])(X.clone().requires_grad_())",
]

# The aten ops torch's profiler records for these, in order: opscope's trace must call the same
# ops (test_statistics.py's subsequence check).
TRACE_CASES = [
    "m.cov(X)", "m.cov(X, fweights=FW, aweights=AW)", "m.cov(X, correction=0, fweights=FW, aweights=AW)",
    "m.cov(X, aweights=AW)", "m.cov(X[0])", "m.cov(X, correction=7)", "m.corrcoef(X)", "m.corrcoef(m.tensor(3.0))",
    "m.quantile(X, 0.3)", "m.quantile(X, Q, dim=1, keepdim=True)", "m.quantile(X, 0.3, dim=0, interpolation='lower')",
    "m.quantile(X, 0.3, dim=0, interpolation='midpoint')", "m.quantile(X, 0.3, dim=0, interpolation='nearest')",
    "m.nanquantile(N, 0.3, dim=0)", "m.quantile(X, 0.3, out=out(m.float64))",
    "m.hann_window(5)", "m.hann_window(5, False)", "m.hamming_window(5, True, 0.3, 0.2)", "m.bartlett_window(5)",
    "m.blackman_window(5)", "m.kaiser_window(5)", "m.hann_window(1)", "m.kaiser_window(1)",
    "m.logspace(0, 2, 5)", "m.logspace(0, 2, 1)", "m.special.i0(X)", "m.mode(X)", "m.aminmax(X, dim=0)",
]
