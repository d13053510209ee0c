"""Samples for the statistics ops in the op-table test (tests/python/test_op_table.py): cov,
corrcoef, quantile / nanquantile, mode, aminmax, logspace, the windows, i0 / i1 / i0e / i1e.
Per-op overrides only, so no generic key can clash with another family's."""
import opscope
from reference_cases import matrix

SAMPLES = {}
_Q = {"q": lambda: opscope.tensor([0.25, 0.5])}
_MODE_OUT = {"values": lambda: opscope.empty(0), "indices": lambda: opscope.empty(0, dtype=opscope.int64)}
_AMINMAX_OUT = {"min": lambda: opscope.empty(0), "max": lambda: opscope.empty(0)}
_WINDOW = {"window_length": 5, "periodic": False, "alpha": 0.5, "beta": 0.3}
OVERRIDES = {
    **{f"aten::{fn}{ov}": _Q for fn in ("quantile", "nanquantile") for ov in ("", ".out")},
    **{f"aten::{fn}{ov}": {"q": 0.5} for fn in ("quantile", "nanquantile")
       for ov in (".scalar", ".scalar_out")},
    "aten::mode.values": _MODE_OUT,
    "aten::aminmax.out": _AMINMAX_OUT,
    "aten::logspace": {"steps": 4, "base": 2.0},
    "aten::logspace.out": {"steps": 4, "base": 2.0},
    **{f"aten::{w}{ov}": _WINDOW
       for w in ("hann_window", "hamming_window", "bartlett_window", "blackman_window", "kaiser_window")
       for ov in ("", ".periodic", ".out", ".periodic_out")},
    **{f"aten::hamming_window{ov}": _WINDOW
       for ov in (".periodic_alpha", ".periodic_alpha_beta", ".periodic_alpha_out",
                  ".periodic_alpha_beta_out")},
    "aten::kaiser_window.beta": _WINDOW, "aten::kaiser_window.beta_out": _WINDOW,
    "aten::cov": {"fweights": lambda: opscope.tensor([1, 2, 1]),
                  "aweights": lambda: opscope.tensor([0.5, 1.0, 2.0])},
    "aten::i0": {"self": lambda: matrix(2, 3) / 4},
}
