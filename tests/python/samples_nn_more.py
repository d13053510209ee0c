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

# --- margin, embedding and likelihood losses; glu; pixel shuffle ----------------------------------
# Scores x (3, 4) around 0 so that every margin term is positive for some classes and zero for
# others; class targets valid for 4 classes; multilabel rows ended by -1 at different places.
_SCORES = lambda: matrix(3, 4) / 6 - 1  # noqa: E731
_SIGNS = lambda: opscope.tensor([[1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, 1.0, 1.0], [1.0, 1.0, -1.0, -1.0]])  # noqa: E731
_CLASSES = lambda: opscope.tensor([0, 3, 1])  # noqa: E731
_LABELS = lambda: opscope.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]])  # noqa: E731
_IS_TARGET = lambda: opscope.tensor([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]])  # noqa: E731
_EMPTY = lambda: opscope.empty(0)  # noqa: E731
_PAIR = {"input1": _SCORES, "input2": lambda: _SCORES().flip(1)}
_SOFT_MARGIN = {"self": _SCORES, "target": _SIGNS}
_MULTI_MARGIN = {"self": _SCORES, "target": _CLASSES, "p": 2, "margin": 1.5, "weight": lambda: matrix(4) / 4}
_MULTILABEL = {"self": _SCORES, "target": _LABELS}
_GLU = {"self": lambda: matrix(2, 4) / 4 - 1, "dim": 1}
_GLU_BACKWARD = {**_GLU, "grad_output": lambda: matrix(2, 2) / 4}

OVERRIDES.update({
    "aten::margin_ranking_loss": {**_PAIR, "target": lambda: opscope.tensor([1.0, -1.0, 1.0, -1.0]), "margin": 0.2},
    "aten::hinge_embedding_loss": {"self": _SCORES, "target": _SIGNS},
    "aten::cosine_embedding_loss": {**_PAIR, "target": lambda: opscope.tensor([1, -1, 1]), "margin": 0.1},
    "aten::triplet_margin_loss": {"anchor": _SCORES, "positive": lambda: _SCORES() / 2,
                                  "negative": lambda: _SCORES().flip(1), "swap": True},
    "aten::poisson_nll_loss": {"input": lambda: matrix(3, 4) / 4, "target": lambda: matrix(3, 4) % 5,
                               "log_input": False, "full": True, "eps": 1e-8, "reduction": 1},
    "aten::soft_margin_loss": _SOFT_MARGIN,
    "aten::soft_margin_loss.out": {**_SOFT_MARGIN, "out": _EMPTY},
    "aten::soft_margin_loss_backward": {**_SOFT_MARGIN, "grad_output": lambda: opscope.tensor(1.0), "reduction": 1},
    "aten::soft_margin_loss_backward.grad_input": {**_SOFT_MARGIN, "grad_output": lambda: matrix(3, 4),
                                                   "reduction": 0, "grad_input": _EMPTY},
    "aten::multi_margin_loss": _MULTI_MARGIN,
    "aten::multi_margin_loss.out": {**_MULTI_MARGIN, "reduction": 0, "out": _EMPTY},
    "aten::multi_margin_loss_backward": {**_MULTI_MARGIN, "grad_output": lambda: opscope.tensor(1.0)},
    "aten::multi_margin_loss_backward.grad_input": {**_MULTI_MARGIN, "grad_output": lambda: matrix(3), "reduction": 0,
                                                    "grad_input": _EMPTY},
    "aten::multilabel_margin_loss": _MULTILABEL,
    "aten::multilabel_margin_loss.out": {**_MULTILABEL, "out": _EMPTY},
    "aten::multilabel_margin_loss_forward": {**_MULTILABEL, "reduction": 0},
    "aten::multilabel_margin_loss_forward.output": {**_MULTILABEL, "reduction": 2, "output": _EMPTY,
                                                    "is_target": _EMPTY},
    "aten::multilabel_margin_loss_backward": {**_MULTILABEL, "grad_output": lambda: opscope.tensor(1.0),
                                              "reduction": 1, "is_target": _IS_TARGET},
    "aten::multilabel_margin_loss_backward.grad_input": {**_MULTILABEL, "grad_output": lambda: matrix(3),
                                                         "reduction": 0, "is_target": _IS_TARGET,
                                                         "grad_input": _EMPTY},
    "aten::glu": _GLU,
    "aten::glu.out": {**_GLU, "out": _EMPTY},
    "aten::glu_backward": _GLU_BACKWARD,
    "aten::glu_backward.grad_input": {**_GLU_BACKWARD, "grad_input": _EMPTY},
    "aten::pixel_shuffle": {"self": lambda: matrix(1, 8, 2, 3), "upscale_factor": 2},
    "aten::pixel_unshuffle": {"self": lambda: matrix(1, 2, 4, 6), "downscale_factor": 2},
})

# --- sliding blocks, unpooling, channel shuffle, bilinear -----------------------------------------
# A (1, 2, 4, 5) image, 2 x 3 windows with dilation, padding and stride (3 x 2 positions); its
# column matrix (1, 2 * 6, 6) folds back. Unpooling indices from a 2 x 2 max pool of (4, 4) planes.
_WINDOW = {"kernel_size": [2, 3], "dilation": [1, 2], "padding": [1, 1], "stride": [2, 2]}
_IM2COL = {"self": lambda: matrix(1, 2, 4, 5), **_WINDOW}
_COL2IM = {"self": lambda: matrix(1, 12, 6), "output_size": [4, 5], **_WINDOW}
_UNPOOL2D = {"self": lambda: matrix(1, 2, 2, 2),
             "indices": lambda: opscope.tensor([[[[0, 3], [9, 14]], [[5, 2], [12, 15]]]]), "output_size": [4, 4]}
_UNPOOL3D = {"self": lambda: matrix(1, 1, 2, 1, 2),
             "indices": lambda: opscope.tensor([[[[[0, 3]], [[9, 15]]]]]), "output_size": [4, 2, 2],
             "stride": [2, 2, 2], "padding": [0, 0, 0]}
_TRILINEAR = {"i1": lambda: matrix(2, 3), "i2": lambda: matrix(4, 3, 2) / 10, "i3": lambda: matrix(2, 2),
              "expand1": [1, 3], "expand2": [0], "expand3": [1, 2], "sumdim": [2, 3]}

OVERRIDES.update({
    "aten::im2col": _IM2COL,
    "aten::im2col.out": {**_IM2COL, "out": _EMPTY},
    "aten::col2im": _COL2IM,
    "aten::col2im.out": {**_COL2IM, "out": _EMPTY},
    "aten::max_unpool2d": _UNPOOL2D,
    "aten::max_unpool2d.out": {**_UNPOOL2D, "out": _EMPTY},
    "aten::max_unpool3d": _UNPOOL3D,
    "aten::max_unpool3d.out": {**_UNPOOL3D, "out": _EMPTY},
    "aten::channel_shuffle": {"self": lambda: matrix(1, 6, 2), "groups": 3},
    "aten::native_channel_shuffle": {"self": lambda: matrix(1, 6, 2), "groups": 2},
    "aten::bilinear": {"input1": lambda: matrix(2, 3), "input2": lambda: matrix(2, 2),
                       "weight": lambda: matrix(4, 3, 2) / 10, "bias": lambda: matrix(4)},
    "aten::_trilinear": _TRILINEAR,
    "aten::_trilinear.out": {**_TRILINEAR, "unroll_dim": 0, "out": _EMPTY},
})

# avg_pool3d: a (1, 2, 3, 4, 4) volume, 2 x 3 x 2 windows with padding, the same with its backward
_AVG_POOL3D = {"self": lambda: matrix(1, 2, 3, 4, 4), "kernel_size": [2, 3, 2], "stride": [1, 2, 2],
               "padding": [1, 1, 0], "ceil_mode": True}
OVERRIDES.update({
    "aten::avg_pool3d": _AVG_POOL3D,
    "aten::avg_pool3d_backward": {**_AVG_POOL3D, "grad_output": lambda: matrix(1, 2, 4, 3, 2), "count_include_pad": False,
                                  "divisor_override": None},
})
