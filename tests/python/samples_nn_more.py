"""Op-table samples (see tests/python/test_op_table.py) for batch norm, group norm, upsampling, padding and the Huber / smooth L1
losses (core/ops/nn.cpp): a (N, C, L) input with per-channel affine and running statistics,
saved batch statistics for the backward, and loss targets whose differences to the input fall on
both sides of delta / beta (so both branches of the loss run)."""
import opscope
from reference_cases import matrix

_C = 3
_EPS = 1e-5


def _input():
    return matrix(2, _C, 4) / 10


def _saved_stats():
    """The batch mean and 1 / sqrt(var + eps) per channel that a training forward saves."""
    x = _input()
    mean = x.mean((0, 2))
    var = ((x - mean.view(1, _C, 1)) ** 2).mean((0, 2))
    return mean, 1 / (var + _EPS).sqrt()


_AFFINE = {"weight": lambda: matrix(_C) / 2, "bias": lambda: matrix(_C) / 4,
           "running_mean": lambda: opscope.zeros(_C), "running_var": lambda: opscope.ones(_C)}
_BATCH_NORM = {"input": _input, **_AFFINE, "training": True, "momentum": 0.1, "eps": _EPS}

# Input is 1..6 (the generic (2, 3) self); target = input / 2 puts |input - target| in 0.5..3.
_TARGET = {"target": lambda: matrix(2, 3) / 2}
# reduction=1 (mean): the incoming gradient is 0-d.
_LOSS_BACKWARD = {"grad_output": lambda: opscope.tensor(1.0), **_TARGET, "reduction": 1}

SAMPLES = {}

OVERRIDES = {
    "aten::batch_norm": {**_BATCH_NORM, "cudnn_enabled": False},
    "aten::native_batch_norm": _BATCH_NORM,
    "aten::native_batch_norm_backward": {
        "grad_out": lambda: matrix(2, _C, 4) / 24 - 0.5, "input": _input, "weight": _AFFINE["weight"],
        "running_mean": _AFFINE["running_mean"], "running_var": _AFFINE["running_var"],
        "save_mean": lambda: _saved_stats()[0], "save_invstd": lambda: _saved_stats()[1],
        # output_mask: torch's bool[3], declared int[3] here (Note [Boolean masks as ints], nn.cpp).
        "train": True, "eps": _EPS, "output_mask": [1, 1, 1]},
    # group norm: (2, 4, 3) in 2 groups
    "aten::group_norm": {"input": lambda: matrix(2, 4, 3), "num_groups": 2, "weight": lambda: matrix(4),
                         "bias": lambda: matrix(4), "cudnn_enabled": False},
    "aten::native_group_norm": {"input": lambda: matrix(2, 4, 3), "weight": lambda: matrix(4),
                                "bias": lambda: matrix(4), "N": 2, "C": 4, "HxW": 3, "group": 2,
                                "eps": _EPS},
    "aten::native_group_norm_backward": {
        "grad_out": lambda: matrix(2, 4, 3) / 24 - 0.5, "input": lambda: matrix(2, 4, 3),
        "mean": lambda: matrix(2, 2), "rstd": lambda: matrix(2, 2) / 4, "weight": lambda: matrix(4),
        "N": 2, "C": 4, "HxW": 3, "group": 2, "output_mask": [1, 1, 1]},
    # upsampling: (1, 2, 3, 4) -> (1, 2, 6, 8), (1, 2, 4) -> (1, 2, 8)
    **{f"aten::{op}.vec": {"input": lambda: matrix(1, 2, 3, 4), "output_size": None, "align_corners": False,
                            "scale_factors": [2.0, 2.0]}
       for op in ("upsample_nearest2d", "_upsample_nearest_exact2d", "upsample_bilinear2d")},
    **{f"aten::{op}.vec": {"input": lambda: matrix(1, 2, 4), "output_size": [8], "align_corners": True,
                            "scale_factors": None}
       for op in ("upsample_nearest1d", "_upsample_nearest_exact1d", "upsample_linear1d")},
    **{f"aten::{op}_backward.vec": {"grad_output": lambda: matrix(1, 2, 6, 8), "output_size": None,
                                     "input_size": [1, 2, 3, 4], "align_corners": False,
                                     "scale_factors": [2.0, 2.0]}
       for op in ("upsample_nearest2d", "_upsample_nearest_exact2d", "upsample_bilinear2d")},
    **{f"aten::{op}_backward.vec": {"grad_output": lambda: matrix(1, 2, 8), "output_size": [8],
                                     "input_size": [1, 2, 4], "align_corners": True, "scale_factors": None}
       for op in ("upsample_nearest1d", "_upsample_nearest_exact1d", "upsample_linear1d")},
    # reflection / replication padding of (1, 2, 3, 4) / (1, 2, 4)
    **{f"aten::{kind}_pad2d": {"self": lambda: matrix(1, 2, 3, 4), "padding": [1, 2, 2, 0]}
       for kind in ("reflection", "replication")},
    **{f"aten::{kind}_pad1d": {"self": lambda: matrix(1, 2, 4), "padding": [2, 1]}
       for kind in ("reflection", "replication")},
    **{f"aten::{kind}_pad2d_backward": {"grad_output": lambda: matrix(1, 2, 5, 7), "self": lambda: matrix(1, 2, 3, 4),
                                         "padding": [1, 2, 2, 0]}
       for kind in ("reflection", "replication")},
    **{f"aten::{kind}_pad1d_backward": {"grad_output": lambda: matrix(1, 2, 7), "self": lambda: matrix(1, 2, 4),
                                         "padding": [2, 1]}
       for kind in ("reflection", "replication")},
    "aten::instance_norm": {"input": _input, "weight": _AFFINE["weight"], "bias": _AFFINE["bias"],
                            "running_mean": _AFFINE["running_mean"], "running_var": _AFFINE["running_var"],
                            "use_input_stats": True, "momentum": 0.1, "eps": _EPS, "cudnn_enabled": False},
    "aten::cosine_similarity": {"x1": lambda: matrix(2, 3), "x2": lambda: matrix(3) / 2},
    "aten::pairwise_distance": {"x1": lambda: matrix(2, 3), "x2": lambda: matrix(3) / 2},
    "aten::huber_loss": _TARGET,
    "aten::huber_loss_backward": {**_LOSS_BACKWARD, "delta": 1.0},
    "aten::smooth_l1_loss": _TARGET,
    "aten::smooth_l1_loss_backward": {**_LOSS_BACKWARD, "beta": 1.0},
}
