"""Autograd (core/autograd/): every formula of the derivative table against float64 finite
differences (gradcheck) and, through create_graph, its second derivatives (gradgradcheck), on
plain, broadcast and non-contiguous inputs; node names and graph shapes as torch 1.13 records
them; the engine's accumulation, broadcasting reduction and errors; grad mode.

    PYTHONPATH=core/python /usr/bin/python3 -m pytest -q tests/python/test_autograd.py
"""
import re

import numpy as np
import pytest

import opscope
from conftest import recorded_dispatch
from opscope.autograd import gradcheck, gradgradcheck

F64 = opscope.float64
F = opscope.nn.functional


def leaf(rng, *shape, layout="plain", positive=False):
    """A float64 leaf requiring grad: contiguous, or a transposed / strided view."""
    if layout == "transposed" and len(shape) >= 2:
        a = rng.standard_normal(shape[:-2] + shape[-2:][::-1]).swapaxes(-1, -2)
    elif layout == "strided" and shape:
        a = rng.standard_normal(shape[:-1] + (shape[-1] * 2,))[..., ::2]
    else:
        a = rng.standard_normal(shape)
    if positive:
        a = np.abs(a) + 0.5
    t = opscope.from_numpy(np.array(a))  # contiguous copy, then the same layout again below
    if layout == "transposed" and len(shape) >= 2:
        t = opscope.from_numpy(np.ascontiguousarray(a.swapaxes(-1, -2))).transpose(-1, -2)
    elif layout == "strided" and shape:
        base = np.zeros(shape[:-1] + (shape[-1] * 2,))
        base[..., ::2] = a
        t = opscope.from_numpy(base)[..., ::2]
    return t.requires_grad_()


# (name, function, input shapes, positive inputs, second derivative checked)
CASES = [
    ("add", lambda a, b: a + b, [(2, 3), (3,)], False, True),
    ("add alpha", lambda a, b: opscope.add(a, b, alpha=2.5), [(2, 3), (2, 3)], False, True),
    ("add scalar", lambda a: opscope.ops.aten.add.Scalar(a, 2.0), [(3,)], False, True),
    ("add_ on a non-leaf", lambda a, b: (a * 1).add_(b), [(2, 3), (3,)], False, True),
    ("sub", lambda a, b: a - b, [(2, 1), (1, 3)], False, True),
    ("sub alpha", lambda a, b: opscope.sub(a, b, alpha=-1.5), [(3,), (3,)], False, True),
    ("sub scalar", lambda a: opscope.ops.aten.sub.Scalar(a, 2.0), [(3,)], False, True),
    ("rsub", lambda a: 1.5 - a, [(2, 2)], False, True),
    ("rsub tensor", lambda a, b: opscope.rsub(a, b, alpha=2), [(2, 2), (2,)], False, True),
    ("mul", lambda a, b: a * b, [(2, 3), (2, 1)], False, True),
    ("mul scalar", lambda a: opscope.ops.aten.mul.Scalar(a, 3.0), [(3,)], False, True),
    ("mul_ on a non-leaf", lambda a, b: (a + 0).mul_(b), [(2, 3), (2, 3)], False, True),
    ("div", lambda a, b: a / b, [(2, 3), (3,)], True, True),
    ("div scalar", lambda a: opscope.ops.aten.div.Scalar(a, 4.0), [(3,)], False, True),
    ("rdiv", lambda a: 2 / a, [(3,)], True, True),
    ("neg", lambda a: -a, [(2, 2)], False, True),
    ("pow scalar", lambda a: a ** 3, [(2, 3)], False, True),
    ("pow -1.5", lambda a: a.pow(-1.5), [(3,)], True, True),
    ("pow tensor", lambda a, b: a ** b, [(2, 3), (3,)], True, True),
    ("rpow", lambda a: 2 ** a, [(3,)], False, True),
    ("pow.Scalar", lambda a: opscope.ops.aten.pow.Scalar(1.5, a), [(3,)], False, True),
    ("exp", lambda a: a.exp(), [(2, 3)], False, True),
    ("exp_ on a non-leaf", lambda a: (a * 1).exp_(), [(3,)], False, True),
    ("log", lambda a: a.log(), [(2, 3)], True, True),
    ("sqrt", lambda a: a.sqrt(), [(2, 3)], True, True),
    ("tanh", lambda a: a.tanh(), [(2, 3)], False, True),
    ("sigmoid", lambda a: a.sigmoid(), [(2, 3)], False, True),
    ("relu", lambda a: a.relu(), [(2, 3)], False, False),
    ("threshold_backward", lambda g, x: opscope.ops.aten.threshold_backward(g, x, 0.1), [(2, 3), (2, 3)],
     False, True),
    ("abs", lambda a: a.abs(), [(2, 3)], False, False),
    ("sin", lambda a: a.sin(), [(2, 3)], False, True),
    ("cos", lambda a: a.cos(), [(2, 3)], False, True),
    ("reciprocal", lambda a: a.reciprocal(), [(3,)], True, True),
    ("sum", lambda a: a.sum(), [(2, 3)], False, True),
    ("sum dim", lambda a: a.sum(1), [(2, 3, 4)], False, True),
    ("sum dims keepdim", lambda a: a.sum((0, 2), keepdim=True), [(2, 3, 4)], False, True),
    ("mean", lambda a: a.mean(), [(2, 3)], False, True),
    ("mean dim", lambda a: a.mean(-1), [(2, 3)], False, True),
    ("mm", lambda a, b: a @ b, [(2, 3), (3, 4)], False, True),
    ("addmm", lambda c, a, b: opscope.addmm(c, a, b, beta=0.5, alpha=2), [(4,), (2, 3), (3, 4)], False, True),
    ("linear", lambda x, w, b: opscope.nn.functional.linear(x, w, b), [(2, 3), (4, 3), (4,)], False, True),
    ("bmm", lambda a, b: a @ b, [(2, 2, 3), (2, 3, 2)], False, True),
    ("matmul broadcast", lambda a, b: a @ b, [(2, 2, 3), (3, 2)], False, True),
    ("dot", lambda a, b: a @ b, [(3,), (3,)], False, True),
    ("mv", lambda a, b: a @ b, [(2, 3), (3,)], False, True),
    ("cdist", lambda a, b: opscope.cdist(a, b), [(2, 4, 3), (2, 5, 3)], False, False),
    ("cdist p=1 broadcast", lambda a, b: opscope.cdist(a, b, p=1), [(4, 3), (2, 5, 3)], False, False),
    ("cdist p=0.5", lambda a, b: opscope.cdist(a, b, p=0.5), [(3, 2), (4, 2)], False, False),
    ("cdist p=3", lambda a, b: opscope.cdist(a, b, p=3), [(3, 2), (4, 2)], False, False),
    ("cdist p=inf", lambda a, b: opscope.cdist(a, b, p=float("inf")), [(3, 2), (4, 2)], False, False),
    ("cdist by one product", lambda a, b: opscope.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
     [(2, 4, 3), (5, 3)], False, True),
    ("pdist", lambda a: opscope.pdist(a), [(5, 3)], False, False),
    ("pdist p=1.5", lambda a: opscope.nn.functional.pdist(a, 1.5), [(4, 2)], False, False),
    ("dist", lambda a, b: opscope.dist(a, b), [(2, 3), (3,)], False, True),
    ("dist p=3", lambda a, b: a.dist(b, 3), [(2, 3), (2, 3)], False, True),
    ("dist p=1", lambda a, b: opscope.dist(a, b, 1), [(2, 3), (2, 3)], False, False),
    ("dist p=0.5", lambda a, b: opscope.dist(a, b, 0.5), [(2, 3), (2, 3)], False, False),
    ("dist p=inf", lambda a, b: opscope.dist(a, b, float("inf")), [(2, 3), (2, 3)], False, False),
    ("inner", lambda a, b: opscope.inner(a, b), [(2, 3), (4, 3)], False, True),
    ("fill_diagonal_", lambda a: (a * 1).fill_diagonal_(2.0, wrap=True), [(5, 2)], False, True),
    ("t", lambda a: a.t() * 1, [(2, 3)], False, True),
    ("transpose", lambda a: a.transpose(0, 2) * 1, [(2, 3, 4)], False, True),
    ("permute", lambda a: a.permute(2, 0, 1) * 1, [(2, 3, 4)], False, True),
    ("view", lambda a: a.contiguous().view(6), [(2, 3)], False, True),
    ("reshape", lambda a: a.reshape(3, 2) * 1, [(2, 3)], False, True),
    ("reshape of a copy", lambda a: a.t().reshape(6) * 1, [(2, 3)], False, True),
    ("unsqueeze", lambda a: a.unsqueeze(1) * 1, [(2, 3)], False, True),
    ("squeeze", lambda a: a.squeeze() * 1, [(2, 1, 3)], False, True),
    ("squeeze dim", lambda a: a.squeeze(1) * 1, [(2, 1, 3)], False, True),
    ("logit", lambda a: opscope.logit(opscope.sigmoid(a)), [(2, 3)], False, True),
    ("logit eps", lambda a: opscope.logit(opscope.sigmoid(a), 0.3), [(2, 3)], False, True),
    ("t_", lambda a: (a * 1).t_() * 1, [(2, 3)], False, True),
    ("transpose_", lambda a: (a * 1).transpose_(0, 1) * 1, [(2, 3)], False, True),
    ("unsqueeze_", lambda a: (a * 1).unsqueeze_(1) * 1, [(2, 3)], False, True),
    ("squeeze_", lambda a: (a * 1).squeeze_() * 1, [(2, 1, 3)], False, True),
    ("squeeze_ dim", lambda a: (a * 1).squeeze_(1) * 1, [(2, 1, 3)], False, True),
    ("expand", lambda a: a.expand(4, 2, 3) * 1, [(2, 1)], False, True),
    ("clone", lambda a: a.clone(), [(2, 3)], False, True),
    ("_to_copy", lambda a: opscope.ops.aten._to_copy(a) * 1, [(3,)], False, True),
    ("where", lambda a, b: opscope.where(a > 0, a, b), [(2, 3), (3,)], False, True),
    ("softmax", lambda a: a.softmax(1), [(2, 4)], False, True),
    ("log_softmax", lambda a: a.log_softmax(0), [(3, 2)], False, True),
    ("softmax of the middle dim", lambda a: a.softmax(1), [(2, 3, 2)], False, True),
    ("erf", lambda a: a.erf(), [(2, 3)], False, True),
    ("log1p", lambda a: a.log1p(), [(2, 3)], True, True),
    ("expm1", lambda a: a.expm1(), [(2, 3)], False, True),
    ("gelu", lambda a: F.gelu(a), [(2, 3)], False, True),
    ("gelu tanh", lambda a: F.gelu(a, approximate="tanh"), [(2, 3)], False, True),
    ("silu", lambda a: F.silu(a), [(2, 3)], False, True),
    ("softplus", lambda a: F.softplus(a, beta=2, threshold=1), [(2, 3)], False, False),
    ("leaky_relu", lambda a: F.leaky_relu(a, 0.2), [(2, 3)], False, True),
    ("leaky_relu negative slope", lambda a: F.leaky_relu(a, -0.5), [(2, 3)], False, True),
    ("hardtanh", lambda a: F.hardtanh(a, -0.5, 0.7), [(3, 4)], False, True),
    ("elu", lambda a: F.elu(a, 1.3), [(2, 3)], False, True),
    ("selu", lambda a: F.selu(a), [(2, 3)], False, True),
    ("celu", lambda a: F.celu(a, 0.7), [(2, 3)], False, True),
    ("threshold", lambda a: F.threshold(a, 0.1, 2.0), [(3, 4)], False, True),
    ("prelu", lambda a, w: F.prelu(a, w), [(2, 3, 4), (3,)], False, True),
    ("rrelu eval", lambda a: F.rrelu(a, 0.1, 0.3), [(2, 3)], False, True),
    ("hardshrink", lambda a: F.hardshrink(a * 3, 0.5), [(3, 4)], False, True),
    ("softshrink", lambda a: F.softshrink(a * 3, 0.5), [(3, 4)], False, True),
    ("rrelu_ eval", lambda a: F.rrelu_(a * 1, 0.1, 0.3), [(2, 3)], False, True),
    ("prelu one weight", lambda a, w: F.prelu(a, w), [(2, 3), (1,)], False, True),
    # the in-place forms read their gradient off the result (LeakyReluBackward1, EluBackward1,
    # CeluBackward1) or the original self (ThresholdBackward1)
    ("leaky_relu_", lambda a: F.leaky_relu_(a * 1, 0.2), [(2, 3)], False, True),
    ("elu_", lambda a: F.elu_(a * 1, 1.3), [(2, 3)], False, True),
    ("selu_", lambda a: F.selu_(a * 1), [(2, 3)], False, True),
    ("celu_", lambda a: F.celu_(a * 1, 0.7), [(2, 3)], False, True),
    ("threshold_", lambda a: F.threshold_(a * 1, 0.1, 2.0), [(3, 4)], False, True),
    ("hardsigmoid", lambda a: F.hardsigmoid(a * 4), [(3, 4)], False, True),
    ("hardswish", lambda a: F.hardswish(a * 4), [(3, 4)], False, True),
    ("mish", lambda a: F.mish(a), [(2, 3)], False, True),
    ("logsigmoid", lambda a: F.logsigmoid(a * 3), [(2, 3)], False, True),
    ("cosine_similarity", lambda a, b: F.cosine_similarity(a, b), [(3, 4), (4,)], False, True),
    ("clamp", lambda a: a.clamp(-0.5, 0.5), [(3, 4)], False, False),
    ("clamp_min", lambda a: opscope.clamp_min(a, 0.1), [(3, 4)], False, False),
    ("maximum", lambda a, b: opscope.maximum(a, b), [(2, 3), (3,)], False, False),
    ("minimum", lambda a, b: opscope.minimum(a, b), [(2, 3), (3,)], False, False),
    ("masked_fill", lambda a: a.masked_fill(a > 0.3, 2.0), [(2, 3)], False, False),
    ("amax", lambda a: a.amax(1), [(2, 3)], False, False),
    ("amin keepdim", lambda a: a.amin((0, 1), keepdim=True), [(2, 3)], False, False),
    ("max", lambda a: a.max(), [(2, 3)], False, False),
    ("min", lambda a: a.min(), [(2, 3)], False, False),
    ("max dim", lambda a: a.max(1)[0], [(2, 3)], False, True),
    ("min dim keepdim", lambda a: a.min(0, keepdim=True).values, [(2, 3)], False, True),
    ("var", lambda a: a.var(1), [(2, 3)], False, True),
    ("var all, correction 0", lambda a: a.var(correction=0, dim=None), [(2, 3)], False, True),
    ("std", lambda a: a.std(0, keepdim=True), [(3, 2)], False, True),
    ("logsumexp", lambda a: a.logsumexp(1), [(2, 3)], False, True),
    ("cumsum", lambda a: a.cumsum(1), [(2, 3)], False, True),
    ("flip", lambda a: a.flip(0) * 1, [(2, 3)], False, True),
    ("select", lambda a: a[1] * 1, [(3, 2)], False, True),
    ("slice", lambda a: a[:, 1:3] * 1, [(2, 4)], False, True),
    ("slice with step", lambda a: a[::2] * 1, [(5, 2)], False, True),
    ("index_select", lambda a: a.index_select(0, opscope.tensor([2, 0, 2])), [(3, 2)], False, True),
    ("gather", lambda a: a.gather(1, opscope.tensor([[0, 0], [1, 0]])), [(2, 3)], False, True),
    ("advanced index", lambda a: a[opscope.tensor([0, 2, 0])] * 1, [(3, 2)], False, True),
    ("bool mask", lambda a: a[a > 0] * 1, [(3, 2)], False, True),
    ("cross_entropy", lambda a: F.cross_entropy(a, opscope.tensor([0, 2, 1])), [(3, 4)], False, True),
    ("cross_entropy weight ignore sum", lambda a: F.cross_entropy(
        a, opscope.tensor([0, 2, 1]), weight=opscope.tensor([1.0, 2.0, 0.5, 1.0], dtype=F64),
        ignore_index=1, reduction="sum"), [(3, 4)], False, True),
    ("nll_loss none", lambda a: F.nll_loss(a, opscope.tensor([3, 0]), reduction="none"), [(2, 4)], False, True),
    ("nll_loss2d", lambda a: F.nll_loss(a, opscope.tensor([[[1, 0], [2, 1]]])), [(1, 3, 2, 2)], False, True),
    ("mse_loss", lambda a, b: F.mse_loss(a, b), [(2, 3), (2, 3)], False, True),
    ("binary_cross_entropy", lambda a: F.binary_cross_entropy(
        a.sigmoid(), opscope.tensor([[0.0, 1.0, 0.5], [1.0, 0.2, 0.0]], dtype=F64)), [(2, 3)], False, True),
    ("layer_norm", lambda a, w, b: F.layer_norm(a, (3,), w, b), [(2, 3), (3,), (3,)], False, True),
    ("layer_norm without affine", lambda a: F.layer_norm(a, (2, 3)), [(4, 2, 3)], False, True),
    ("group_norm", lambda a, w, b: F.group_norm(a, 2, w, b), [(2, 4, 3), (4,), (4,)], False, True),
    ("group_norm without affine", lambda a: F.group_norm(a, 3), [(2, 6, 2, 2)], False, True),
    ("interpolate nearest", lambda a: F.interpolate(a, scale_factor=(1.5, 2)), [(1, 2, 3, 2)], False, True),
    ("interpolate nearest-exact", lambda a: F.interpolate(a, size=(4, 5), mode="nearest-exact"), [(1, 2, 3, 2)],
     False, True),
    ("interpolate bilinear", lambda a: F.interpolate(a, size=(4, 5), mode="bilinear"), [(2, 1, 3, 2)], False, True),
    ("interpolate bilinear align_corners", lambda a: F.interpolate(a, scale_factor=1.7, mode="bilinear",
                                                                   align_corners=True), [(1, 2, 3, 3)], False, True),
    ("interpolate 1d nearest", lambda a: F.interpolate(a, size=7), [(2, 2, 3)], False, True),
    ("interpolate 1d nearest-exact", lambda a: F.interpolate(a, size=7, mode="nearest-exact"), [(2, 2, 3)], False,
     True),
    ("interpolate linear", lambda a: F.interpolate(a, scale_factor=2.5, mode="linear"), [(2, 2, 3)], False, True),
    ("instance_norm", lambda a, w, b: F.instance_norm(a, weight=w, bias=b), [(2, 3, 4), (3,), (3,)], False, True),
    ("reflection_pad2d", lambda a: F.pad(a, (1, 2, 2, 0), mode="reflect"), [(1, 2, 3, 4)], False, True),
    ("reflection_pad1d", lambda a: F.pad(a, (2, 1), mode="reflect"), [(2, 4)], False, True),
    ("replication_pad2d", lambda a: F.pad(a, (1, 2, 2, 0), mode="replicate"), [(2, 3, 4)], False, True),
    ("replication_pad1d", lambda a: F.pad(a, (3, -1), mode="replicate"), [(1, 2, 4)], False, True),
    ("reflection_pad2d_backward", lambda g, s: opscope.ops.aten.reflection_pad2d_backward(g, s, [1, 2, 2, 0]),
     [(1, 2, 5, 7), (1, 2, 3, 4)], False, True),
    ("reflection_pad1d_backward", lambda g, s: opscope.ops.aten.reflection_pad1d_backward(g, s, [2, 1]),
     [(2, 7), (2, 4)], False, True),
    ("replication_pad2d_backward", lambda g, s: opscope.ops.aten.replication_pad2d_backward(g, s, [1, 2, 2, 0]),
     [(2, 5, 7), (2, 3, 4)], False, True),
    ("replication_pad1d_backward", lambda g, s: opscope.ops.aten.replication_pad1d_backward(g, s, [3, -1]),
     [(1, 2, 6), (1, 2, 4)], False, True),
    # the backward ops themselves (their gradient is the forward op)
    ("upsample_nearest2d_backward", lambda g: opscope.ops.aten.upsample_nearest2d_backward.vec(
        g, [4, 5], [1, 2, 3, 2], None), [(1, 2, 4, 5)], False, True),
    ("_upsample_nearest_exact2d_backward", lambda g: opscope.ops.aten._upsample_nearest_exact2d_backward.vec(
        g, [4, 5], [1, 2, 3, 2], None), [(1, 2, 4, 5)], False, True),
    ("upsample_bilinear2d_backward", lambda g: opscope.ops.aten.upsample_bilinear2d_backward.vec(
        g, None, [1, 2, 3, 2], True, [1.5, 2.5]), [(1, 2, 4, 5)], False, True),
    ("upsample_nearest1d_backward", lambda g: opscope.ops.aten.upsample_nearest1d_backward.vec(
        g, [7], [2, 2, 3], None), [(2, 2, 7)], False, True),
    ("_upsample_nearest_exact1d_backward", lambda g: opscope.ops.aten._upsample_nearest_exact1d_backward.vec(
        g, [7], [2, 2, 3], None), [(2, 2, 7)], False, True),
    ("upsample_linear1d_backward", lambda g: opscope.ops.aten.upsample_linear1d_backward.vec(
        g, None, [2, 2, 3], False, [2.5]), [(2, 2, 7)], False, True),
    ("dropout", lambda a: (opscope.manual_seed(0), F.dropout(a, 0.4))[1], [(3, 4)], False, True),
    ("native_dropout", lambda a: (opscope.manual_seed(0), opscope.ops.aten.native_dropout(a, 0.4, True)[0])[1],
     [(3, 4)], False, True),
    ("embedding", lambda w: F.embedding(opscope.tensor([[0, 2], [2, 1]]), w, padding_idx=3), [(4, 3)], False, True),
    # --- more unary and binary math
    ("acos", lambda a: (a.tanh() * 0.9).acos(), [(2, 3)], False, True),
    ("acos_ on a non-leaf", lambda a: (a.tanh() * 0.9).acos_(), [(3,)], False, True),
    ("asin", lambda a: (a.tanh() * 0.9).asin(), [(2, 3)], False, True),
    ("atan", lambda a: a.atan(), [(2, 3)], False, True),
    ("atan2", lambda a, b: opscope.atan2(a, b), [(2, 3), (3,)], True, True),
    ("cosh", lambda a: a.cosh(), [(2, 3)], False, True),
    ("sinh", lambda a: a.sinh(), [(2, 3)], False, True),
    ("tan", lambda a: (a * 0.5).tan(), [(2, 3)], False, True),
    ("rsqrt", lambda a: a.rsqrt(), [(2, 3)], True, True),
    ("exp2", lambda a: a.exp2(), [(2, 3)], False, True),
    ("log2", lambda a: a.log2(), [(2, 3)], True, True),
    ("log10_ on a non-leaf", lambda a: (a * 1).log10_(), [(3,)], True, True),
    ("sign", lambda a: a.sign() * a, [(2, 3)], False, True),
    ("sgn", lambda a: a.sgn() * a, [(2, 3)], False, True),
    ("floor", lambda a: a.floor() + a, [(2, 3)], False, False),
    ("ceil", lambda a: a.ceil() + a, [(2, 3)], False, False),
    ("round", lambda a: a.round() + a, [(2, 3)], False, False),
    ("round decimals", lambda a: a.round(decimals=1) + a, [(2, 3)], False, False),
    ("trunc", lambda a: a.trunc() + a, [(2, 3)], False, False),
    ("acosh", lambda a: (a + 1).acosh(), [(2, 3)], True, True),
    ("asinh", lambda a: a.asinh(), [(2, 3)], False, True),
    ("atanh", lambda a: (a.tanh() * 0.9).atanh(), [(2, 3)], False, True),
    ("erfc", lambda a: a.erfc(), [(2, 3)], False, True),
    ("erfinv", lambda a: (a.tanh() * 0.9).erfinv(), [(2, 3)], False, True),
    ("lgamma", lambda a: a.lgamma(), [(2, 3)], True, True),
    ("digamma", lambda a: a.digamma(), [(2, 3)], True, True),
    ("polygamma", lambda a: opscope.polygamma(2, a), [(2, 3)], True, True),
    ("polygamma_ on a non-leaf", lambda a: (a * 1).polygamma_(1), [(3,)], True, True),
    ("sinc", lambda a: opscope.sinc(a), [(2, 3)], False, True),
    # at 0 the slope is 0; its second derivative there is NaN (0 / 0 under the mask), as torch's
    ("sinc at 0", lambda a: opscope.sinc(a) + opscope.sinc(a * 0), [(2, 3)], False, False),
    ("frac", lambda a: (a * 3).frac(), [(2, 3)], False, False),
    ("deg2rad", lambda a: a.deg2rad(), [(2, 3)], False, True),
    ("rad2deg", lambda a: a.rad2deg(), [(2, 3)], False, True),
    ("logaddexp", lambda a, b: opscope.logaddexp(a, b), [(2, 3), (3,)], False, True),
    ("logaddexp2", lambda a, b: opscope.logaddexp2(a, b), [(2, 3), (3,)], False, True),
    ("hypot", lambda a, b: opscope.hypot(a, b), [(2, 3), (3,)], True, True),
    ("copysign", lambda a, b: opscope.copysign(a, b), [(2, 3), (3,)], False, True),
    ("copysign scalar", lambda a: opscope.copysign(a, -1.5), [(2, 3)], False, True),
    ("fmax", lambda a, b: opscope.fmax(a, b), [(2, 3), (3,)], False, True),
    ("fmin", lambda a, b: opscope.fmin(a, b), [(2, 3), (3,)], False, True),
    ("xlogy", lambda a, b: opscope.xlogy(a, b), [(2, 3), (3,)], True, True),
    ("xlogy scalar self", lambda b: opscope.xlogy(2.5, b), [(2, 3)], True, True),
    ("xlogy scalar other", lambda a: opscope.xlogy(a, 3.0), [(2, 3)], True, True),
    ("ldexp", lambda a: opscope.ldexp(a, opscope.tensor([1, -2, 3])), [(2, 3)], False, True),
    ("float_power", lambda a, b: opscope.float_power(a, b), [(2, 3), (3,)], True, True),
    ("div floor", lambda a, b: a.div(b, rounding_mode="floor") + a, [(2, 3), (3,)], True, False),
    ("div scalar trunc", lambda a: opscope.ops.aten.div.Scalar_mode(a, 2.0, rounding_mode="trunc") + a,
     [(3,)], False, False),
    ("div mode None", lambda a, b: opscope.ops.aten.div.Tensor_mode(a, b, rounding_mode=None), [(2, 3), (3,)], True, True),
    ("fmod", lambda a: a.fmod(0.7), [(2, 3)], False, False),
    ("fmod tensor", lambda a, b: a.fmod(b), [(2, 3), (3,)], True, False),
    ("remainder", lambda a: a.remainder(0.7), [(2, 3)], False, False),
    ("remainder tensor", lambda a, b: a.remainder(b), [(2, 3), (3,)], True, False),
    ("lerp", lambda a, b: opscope.lerp(a, b, 0.3), [(2, 3), (3,)], False, True),
    ("lerp tensor weight", lambda a, b, w: opscope.lerp(a, b, w), [(2, 3), (2, 3), (3,)], False, True),
    ("addcmul", lambda a, b, c: opscope.addcmul(a, b, c, value=0.5), [(2, 3), (3,), (2, 1)], False,
     True),
    ("addcdiv", lambda a, b, c: opscope.addcdiv(a, b, c, value=-2), [(2, 3), (2, 3), (3,)], True,
     True),
    ("trace", lambda a: opscope.trace(a), [(3, 4)], False, True),
    ("nan_to_num", lambda a: a.nan_to_num(), [(2, 3)], False, True),
    ("clamp tensors", lambda a, lo, hi: opscope.clamp(a, lo, hi), [(3, 4), (4,), (3, 4)], False, False),
    ("clamp tensor min only", lambda a, lo: opscope.clamp(a, min=lo), [(3, 4), (4,)], False, False),
    ("clamp_max", lambda a: opscope.clamp_max(a, 0.1), [(3, 4)], False, False),
    ("clamp_max tensor", lambda a, b: opscope.clamp_max(a, b), [(3, 4), (4,)], False, False),
    ("clamp_min tensor", lambda a, b: opscope.clamp_min(a, b), [(3, 4), (4,)], False, False),
    # --- products, statistics, norms
    ("addmv", lambda c, a, b: opscope.addmv(c, a, b, beta=0.5, alpha=2), [(1,), (2, 3), (3,)], False, True),
    ("baddbmm", lambda c, a, b: opscope.baddbmm(c, a, b, alpha=0.5), [(2, 1, 2), (2, 2, 3), (2, 3, 2)], False, True),
    ("addmm_ on a non-leaf", lambda c, a, b: (c * 1).addmm_(a, b), [(2, 4), (2, 3), (3, 4)], False, True),
    ("vdot", lambda a, b: opscope.vdot(a, b), [(3,), (3,)], False, True),
    ("prod", lambda a: a.prod(), [(2, 3)], False, True),
    ("prod dim", lambda a: a.prod(1), [(2, 3)], False, True),
    ("prod with a zero", lambda a: (a * opscope.tensor([1.0, 0.0, 1.0], dtype=F64)).prod(0, keepdim=True), [(2, 3)],
     False, False),
    ("cumprod", lambda a: a.cumprod(1), [(2, 3)], True, True),
    ("var_mean", lambda a: (lambda v, m: v * 2 + m)(*opscope.var_mean(a, 1)), [(2, 3)], False, True),
    ("std_mean", lambda a: (lambda s, m: s - m * 3)(*opscope.std_mean(a, 0, keepdim=True)), [(3, 2)], False, True),
    ("std_mean, only the mean used", lambda a: opscope.std_mean(a, 1)[1], [(2, 3)], False, True),
    ("vector_norm", lambda a: opscope.linalg.vector_norm(a), [(2, 3)], False, True),
    ("vector_norm 3 dim", lambda a: opscope.linalg.vector_norm(a, 3, dim=1, keepdim=True), [(2, 3)], False, True),
    ("vector_norm 1", lambda a: opscope.linalg.vector_norm(a, 1, dim=0), [(2, 3)], False, False),
    ("vector_norm inf", lambda a: opscope.linalg.vector_norm(a, float("inf"), dim=1), [(2, 3)], False, False),
    ("norm dim", lambda a: a.norm(dim=1), [(2, 3)], False, True),
    ("norm p=3", lambda a: opscope.ops.aten.norm.Scalar(a, 3), [(2, 3)], False, True),
    ("bce with logits", lambda a, t: F.binary_cross_entropy_with_logits(a, t.sigmoid()), [(2, 3), (2, 3)], False, True),
    ("bce with logits weights", lambda a: F.binary_cross_entropy_with_logits(
        a, opscope.tensor([[0.0, 1.0, 0.5], [1.0, 0.2, 0.0]], dtype=F64), weight=opscope.tensor([1.0, 2.0, 0.5], dtype=F64),
        pos_weight=opscope.tensor([3.0, 1.0, 0.5], dtype=F64), reduction="sum"), [(2, 3)], False, True),
    # --- joining, splitting: Tensor lists (one list element does not require grad)
    ("cat", lambda a, b: opscope.cat([a, opscope.ones(2, 3, dtype=F64), b]), [(2, 3), (1, 3)], False, True),
    ("cat dim 1", lambda a, b: opscope.cat([a, b], 1), [(2, 3), (2, 2)], False, True),
    ("stack", lambda a, b: opscope.stack([a, opscope.zeros(2, 3, dtype=F64), b], 1), [(2, 3), (2, 3)], False, True),
    ("split", lambda a: (lambda p: p[0] * 2 + p[1])(a.split(2)), [(4, 3)], False, True),
    ("split, one piece used", lambda a: a.split(2, 1)[1] * 1, [(2, 5)], False, True),
    ("split_with_sizes", lambda a: a.split_with_sizes([1, 2])[1] * 1, [(3, 2)], False, True),
    ("unsafe_split (the RNN cells' gate split), written in place",
     lambda a: (lambda p: p[0].sigmoid_() * p[1])((a * 1).unsafe_split(2)), [(4, 3)], False, True),
    ("unbind", lambda a: (lambda r: r[0] * r[2])(a.unbind(1)), [(2, 3)], False, True),
    # --- views and element moves
    ("alias", lambda a: opscope.ops.aten.alias(a) * 1, [(2, 3)], False, True),
    ("diagonal", lambda a: a.diagonal(1) * 1, [(3, 4)], False, True),
    ("diagonal of dims 0, 2", lambda a: a.diagonal(0, 0, 2) * 1, [(3, 2, 3)], False, True),
    ("unfold", lambda a: a.unfold(1, 3, 2) * 1, [(2, 6)], False, True),
    ("unfold overlapping", lambda a: a.unfold(0, 2, 1) * 1, [(4, 2)], False, True),
    ("as_strided", lambda a: a.as_strided((2, 2), (1, 2)) * 1, [(3, 2)], False, True),
    ("as_strided overlapping", lambda a: a.contiguous().as_strided((3, 2), (1, 1), 1) * 1, [(2, 3)], False, True),
    ("diag of a vector", lambda a: a.diag(1), [(3,)], False, True),
    ("diag of a matrix", lambda a: a.diag(-1), [(3, 4)], False, True),
    ("diag_embed", lambda a: opscope.diag_embed(a, 1), [(2, 3)], False, True),
    ("tril", lambda a: a.tril(), [(3, 4)], False, True),
    ("triu_ on a non-leaf", lambda a: (a * 1).triu_(1), [(3, 4)], False, True),
    ("repeat", lambda a: a.repeat(2, 1, 3), [(2, 3)], False, True),
    ("roll", lambda a: a.roll((1, -2), (0, 1)), [(3, 4)], False, True),
    ("roll flat", lambda a: a.roll(2), [(2, 3)], False, True),
    ("constant_pad_nd", lambda a: opscope.constant_pad_nd(a, [1, 2, -1, 0], 0.5), [(3, 4)], False, True),
    ("copy_ on a non-leaf", lambda a, b: (a * 1).copy_(b), [(2, 3), (3,)], False, True),
    ("fill_", lambda a: (a * 1).fill_(2.0) + a, [(2, 3)], False, True),
    ("fill_ with a tensor", lambda a, v: (a * 1).fill_(v.sum()), [(2, 3), (2,)], False, True),
    ("zero_", lambda a: (a * 1).zero_() + a, [(2, 3)], False, True),
    # --- indexing, scatters, sorting
    ("index_add", lambda a, s: a.index_add(0, opscope.tensor([0, 2, 0]), s, alpha=2), [(3, 2), (3, 2)], False, True),
    ("index_add_ on a non-leaf", lambda a, s: (a * 1).index_add_(1, opscope.tensor([1, 1]), s), [(2, 3), (2, 2)], False, True),
    ("index_fill", lambda a: a.index_fill(1, opscope.tensor([0, 2]), 1.5), [(2, 3)], False, True),
    ("scatter", lambda a, s: a.scatter(1, opscope.tensor([[2, 0], [1, 2]]), s), [(2, 3), (2, 2)], False, True),
    ("scatter value", lambda a: a.scatter(0, opscope.tensor([[1, 0, 1]]), 0.5), [(2, 3)], False, True),
    ("scatter_add", lambda a, s: a.scatter_add(1, opscope.tensor([[2, 2], [1, 0]]), s), [(2, 3), (2, 2)], False, True),
    ("masked_fill tensor value", lambda a, v: a.masked_fill(a > 0.3, v.sum()), [(2, 3), (2,)], False, True),
    ("masked_select", lambda a: a.masked_select(opscope.tensor([True, False, True])), [(2, 3)], False, True),
    ("masked_scatter", lambda a, s: a.masked_scatter(opscope.tensor([[True, False, True], [False, True, False]]), s),
     [(2, 3), (5,)], False, True),
    ("take", lambda a: a.take(opscope.tensor([[0, 5], [5, 2]])), [(2, 3)], False, True),
    ("put", lambda a, s: a.put(opscope.tensor([0, 4]), s), [(2, 3), (2,)], False, True),
    ("put accumulate", lambda a, s: a.put(opscope.tensor([4, 4]), s, accumulate=True), [(2, 3), (2,)], False, True),
    ("index_put", lambda a, v: a.index_put((opscope.tensor([0, 2]),), v), [(3, 2), (2,)], False, True),
    ("index_put accumulate", lambda a, v: a.index_put((opscope.tensor([0, 0]),), v, accumulate=True), [(3, 2), (2, 2)],
     False, True),
    ("setitem on a non-leaf", lambda a, v: (lambda t: (t.__setitem__(opscope.tensor([1]), v), t)[1])(a * 1),
     [(3, 2), (2,)], False, True),
    ("_index_put_impl_", lambda a, v: opscope.ops.aten._index_put_impl_(a * 1, [opscope.tensor([2, 0])], v, True),
     [(3, 2), (2,)], False, True),
    ("sort", lambda a: a.sort(1)[0] * 1, [(2, 4)], False, True),
    ("sort stable descending", lambda a: a.sort(dim=0, descending=True, stable=True)[0], [(3, 2)], False, True),
    ("topk", lambda a: a.topk(2, 1).values, [(2, 4)], False, True),
    ("kthvalue", lambda a: a.kthvalue(2, 0)[0], [(3, 2)], False, True),
    ("median", lambda a: a.median() + a.nanmedian(), [(3, 4)], False, True),
    ("median dim", lambda a: a.median(1)[0] + a.nanmedian(0, keepdim=True)[0], [(3, 3)], False, True),
    ("mode", lambda a: a.mode(1)[0] + a.mode(0, keepdim=True)[0].sum(), [(3, 4)], False, True),
    ("i0", lambda a: opscope.i0(a * 3) + opscope.special.i0(a), [(2, 3)], False, True),
    ("i0_ on a non-leaf", lambda a: (a * 2).i0_(), [(2, 3)], False, True),
    ("special_i1", lambda a: opscope.special.i1(a * 4), [(2, 3)], False, True),
    ("special_i0e", lambda a: opscope.special.i0e(a * 10), [(2, 3)], False, True),
    ("special_i1e", lambda a: opscope.special.i1e(a * 10), [(2, 3)], False, True),
    ("cov weighted", lambda a, w: opscope.cov(a, correction=2, fweights=opscope.tensor([1, 2, 1, 3]),
                                              aweights=w), [(3, 4), (4,)], True, True),
    ("corrcoef", lambda a: opscope.corrcoef(a), [(3, 5)], False, True),
    ("quantile", lambda a: opscope.quantile(a, opscope.tensor([0.2, 0.7], dtype=F64), dim=1)
     + opscope.nanquantile(a, 0.4, interpolation="midpoint"), [(3, 5)], False, True),
    ("nansum", lambda a: a.nansum() + a.nansum(1, keepdim=True) + a.nanmean(0), [(3, 4)], False, True),
    ("cummax", lambda a: a.cummax(1)[0] + a.cummin(0)[0], [(3, 4)], False, True),
    ("cumsum_ on a non-leaf", lambda a: (a * 1).cumsum_(1), [(2, 3)], False, True),
    ("cumprod_ on a non-leaf", lambda a: (a * 2).cumprod_(0), [(3, 2)], True, True),
    ("logcumsumexp", lambda a: opscope.logcumsumexp(a, 1) + opscope.logcumsumexp(a * 3, 0), [(3, 4)], False, True),
    # --- the backward ops (what double backward through views records)
    ("select_backward", lambda g: opscope.ops.aten.select_backward(g, [2, 3], 0, 1), [(3,)], False, True),
    ("slice_backward", lambda g: opscope.ops.aten.slice_backward(g, [2, 5], 1, 1, 5, 2), [(2, 2)], False, True),
    ("diagonal_backward", lambda g: opscope.ops.aten.diagonal_backward(g, [3, 4], 1, 0, 1), [(3,)], False, True),
    ("unfold_backward", lambda g: opscope.ops.aten.unfold_backward(g, [5], 0, 2, 1), [(4, 2)], False, True),
    # --- convolution and pooling (more in test_conv.py; their backward ops have no derivative yet)
    ("conv2d", lambda x, w, b: F.conv2d(x, w, b, padding=1, groups=2), [(1, 4, 4, 4), (2, 2, 3, 3), (2,)], False, False),
    ("conv_transpose2d", lambda x, w: F.conv_transpose2d(x, w, stride=2), [(1, 2, 3, 3), (2, 3, 2, 2)], False, False),
    ("_convolution", lambda x, w: opscope._convolution(x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1, False,
                                                       False, True, True), [(1, 2, 4, 4), (3, 2, 2, 2)], False, False),
    ("max_pool2d", lambda x: F.max_pool2d(x, 2, 1), [(1, 2, 4, 4)], False, False),
    ("avg_pool2d", lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False), [(1, 2, 5, 5)], False, False),
    ("adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [(1, 2, 5, 5)], False, False),
    ("adaptive_max_pool2d", lambda x: F.adaptive_max_pool2d(x, (2, 3)), [(1, 2, 5, 5)], False, False),
    # --- normalization and robust losses
    ("batch_norm training", lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
     [(4, 3, 2), (3,), (3,)], False, True),
    ("batch_norm training, running stats, no affine", lambda x: F.batch_norm(
        x, opscope.zeros(3, dtype=F64), opscope.ones(3, dtype=F64), training=True), [(2, 3, 2, 2)], False, True),
    ("batch_norm eval", lambda x, w, b: F.batch_norm(
        x, opscope.tensor([0.1, -0.2, 0.3], dtype=F64), opscope.tensor([0.5, 1.5, 2.0], dtype=F64), w, b),
     [(4, 3), (3,), (3,)], False, True),
    ("huber_loss", lambda a, b: F.huber_loss(a, b, delta=0.7), [(2, 3), (2, 3)], False, True),
    ("huber_loss sum", lambda a, b: F.huber_loss(a, b, reduction="sum"), [(2, 3), (2, 3)], False, True),
    ("smooth_l1_loss", lambda a, b: F.smooth_l1_loss(a, b, beta=0.7), [(2, 3), (2, 3)], False, True),
    ("smooth_l1_loss none, beta 0", lambda a, b: F.smooth_l1_loss(a, b, reduction="none", beta=0.0),
     [(2, 3), (2, 3)], False, True),
    # --- linalg (core/ops/linalg.h): well-conditioned inputs made inside each function; eigh's and
    # svd's vectors enter only through sign-invariant products (each is defined up to a sign)
    ("linalg.inv", lambda a: opscope.linalg.inv(a + 3 * opscope.eye(3, dtype=a.dtype)), [(2, 3, 3)], False, True),
    ("linalg.det", lambda a: opscope.linalg.det(a), [(2, 3, 3)], False, True),
    ("linalg.slogdet", lambda a: opscope.linalg.slogdet(a + 3 * opscope.eye(3, dtype=a.dtype))[1], [(3, 3)],
     False, True),
    ("linalg.solve", lambda a, b: opscope.linalg.solve(a + 3 * opscope.eye(3, dtype=a.dtype), b), [(3, 3), (3, 2)],
     False, True),
    ("linalg.cholesky", lambda a: opscope.linalg.cholesky(a @ a.transpose(-2, -1) + 3 * opscope.eye(3, dtype=a.dtype)),
     [(3, 3)], False, True),
    ("cholesky", lambda a: opscope.cholesky(a @ a.transpose(-2, -1) + 3 * opscope.eye(3, dtype=a.dtype)), [(3, 3)],
     False, False),
    ("linalg.qr", lambda a: opscope.linalg.qr(a + 3 * opscope.eye(4, 3, dtype=a.dtype))[0], [(4, 3)], False, True),
    ("linalg.eigh", lambda a: (lambda L, V: V * V * L)(*opscope.linalg.eigh(
        a + a.transpose(-2, -1) + opscope.diag(opscope.arange(3.0, dtype=a.dtype) * 4))), [(3, 3)], False, True),
    ("linalg.svd values", lambda a: opscope.linalg.svd(a + opscope.diag(opscope.arange(3.0, dtype=a.dtype) * 4))[1],
     [(3, 3)], False, True),
    ("linalg.svd vectors", lambda a: (lambda U, S, Vh: U @ Vh + S)(*opscope.linalg.svd(
        a + opscope.diag(opscope.arange(3.0, dtype=a.dtype) * 4))), [(3, 3)], False, True),
    ("linalg.cross", lambda a, b: opscope.linalg.cross(a, b), [(2, 3), (2, 3)], False, True),
    ("linalg.pinv", lambda a: opscope.linalg.pinv(a + 3 * opscope.eye(4, 3, dtype=a.dtype)), [(4, 3)], False, True),
    ("linalg.lstsq", lambda a, b: opscope.linalg.lstsq(a + 3 * opscope.eye(4, 3, dtype=a.dtype), b).solution,
     [(4, 3), (4, 2)], False, True),
    ("linalg.solve_triangular", lambda a, b: opscope.linalg.solve_triangular(
        a + 3 * opscope.eye(3, dtype=a.dtype), b, upper=True), [(3, 3), (3, 2)], False, True),
    # nn losses, glu, pixel_shuffle
    ("soft_margin_loss", lambda a: F.soft_margin_loss(a, _SIGNS()), [(3, 4)], False, True),
    ("soft_margin_loss none", lambda a: F.soft_margin_loss(a, _SIGNS()[0], reduction="none"), [(3, 4)], False, True),
    ("soft_margin_loss_backward", lambda g, x: opscope.ops.aten.soft_margin_loss_backward(g, x, _SIGNS(), 0),
     [(3, 4), (3, 4)], False, True),
    ("soft_margin_loss_backward mean", lambda g, x: opscope.ops.aten.soft_margin_loss_backward(
        g.sum(), x, _SIGNS(), 1), [(3, 4), (3, 4)], False, True),
    ("multi_margin_loss", lambda a: F.multi_margin_loss(a, opscope.tensor([0, 3, 1])), [(3, 4)], False, False),
    ("multi_margin_loss p=2 weight none", lambda a: F.multi_margin_loss(
        a, opscope.tensor([2, 0, 3]), p=2, margin=1.5, weight=opscope.tensor([1.0, 0.5, 2.0, 3.0], dtype=F64),
        reduction="none"), [(3, 4)], False, False),
    ("multilabel_margin_loss", lambda a: F.multilabel_margin_loss(
        a, opscope.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]])), [(3, 4)], False, False),
    ("multilabel_margin_loss none", lambda a: F.multilabel_margin_loss(
        a, opscope.tensor([[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]]), reduction="none"), [(3, 4)], False, False),
    ("glu", lambda a: F.glu(a), [(3, 4)], False, True),
    ("glu dim 0", lambda a: F.glu(a, 0), [(4, 3)], False, True),
    ("glu_backward", lambda g, x: opscope.ops.aten.glu_backward(g, x, 1), [(3, 2), (3, 4)], False, True),
    ("glu_backward broadcast grad_output", lambda g, x: opscope.ops.aten.glu_backward(g, x, 0), [(3,), (2, 3)],
     False, True),
    ("pixel_shuffle", lambda a: F.pixel_shuffle(a, 2), [(2, 8, 2, 3)], False, True),
    ("pixel_unshuffle", lambda a: F.pixel_unshuffle(a, 2), [(1, 2, 4, 6)], False, True),
    ("pixel_shuffle batch dims", lambda a: F.pixel_shuffle(a, 3), [(2, 1, 9, 1, 2)], False, True),
    # spatial transformers (no double backward of grid_sample in torch 1.13: its backward's node is
    # NotImplemented, see test_grid_sample.py)
    ("grid_sample bilinear zeros", lambda x, g: F.grid_sample(x, g, align_corners=False),
     [(2, 2, 3, 4), (2, 3, 2, 2)], False, False),
    ("grid_sample nearest border", lambda x, g: F.grid_sample(x, g, "nearest", "border", True),
     [(1, 2, 3, 4), (1, 2, 2, 2)], False, False),
    ("grid_sample bicubic reflection", lambda x, g: F.grid_sample(x, g, "bicubic", "reflection", True),
     [(1, 2, 3, 4), (1, 3, 2, 2)], False, False),
    ("grid_sample 3d bilinear border", lambda x, g: F.grid_sample(x, g, "bilinear", "border", False),
     [(1, 2, 2, 3, 3), (1, 2, 2, 2, 3)], False, False),
    ("affine_grid", lambda t: F.affine_grid(t, [2, 1, 3, 4], align_corners=False), [(2, 2, 3)], False, True),
    ("affine_grid 3d", lambda t: F.affine_grid(t, [1, 1, 2, 3, 2], align_corners=True), [(1, 3, 4)], False, True),
    # sliding blocks, unpooling, bilinear
    ("im2col", lambda a: F.unfold(a, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), [(2, 2, 4, 5)], False, True),
    ("im2col unbatched", lambda a: F.unfold(a, 2), [(2, 3, 3)], False, True),
    ("col2im", lambda a: F.fold(a, (4, 5), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), [(2, 12, 9)],
     False, True),
    ("col2im unbatched overlapping", lambda a: F.fold(a, 3, 2), [(8, 4)], False, True),
    ("max_unpool2d", lambda a: F.max_unpool2d(a, opscope.tensor([[[[0, 3], [9, 14]], [[5, 2], [12, 15]]]]), 2),
     [(1, 2, 2, 2)], False, True),
    ("max_unpool1d", lambda a: F.max_unpool1d(a, opscope.tensor([[[1, 2, 5]]]), 2), [(1, 1, 3)], False, True),
    ("max_unpool3d", lambda a: F.max_unpool3d(a, opscope.tensor([[[[[0, 3]], [[9, 15]]]]]), (2, 2, 1), (2, 2, 1)),
     [(1, 1, 2, 1, 2)], False, True),
    ("_trilinear", lambda a, w, b: opscope._trilinear(a, w, b, [1, 3], [0], [1, 2], [2, 3]),
     [(2, 3), (4, 3, 2), (2, 2)], False, True),
    ("_trilinear unroll 0", lambda a, w, b: opscope._trilinear(a, w, b, [1, 3], [0], [1, 2], [2, 3], 0),
     [(2, 3), (4, 3, 2), (2, 2)], False, True),
    ("bilinear", lambda a, b, w, c: F.bilinear(a, b, w, c), [(2, 1, 3), (2, 1, 2), (4, 3, 2), (4,)], False, True),
    ("local_response_norm", lambda a: F.local_response_norm(a, 3, alpha=0.5, beta=0.6, k=1.5), [(2, 4, 3)],
     False, True),
    ("local_response_norm 4-D", lambda a: F.local_response_norm(a, 2, alpha=0.5, k=2.0), [(1, 3, 2, 2)], False,
     True),
    ("avg_pool3d", lambda a: F.avg_pool3d(a, (2, 1, 2), stride=1, padding=(1, 0, 0), count_include_pad=False),
     [(1, 2, 2, 3, 2)], False, True),
    ("avg_pool3d_backward", lambda g, x: opscope.ops.aten.avg_pool3d_backward(g, x, [2, 2, 1], [1, 2, 1], [1, 0, 0],
                                                                              True, True, 3),
     [(1, 1, 3, 2, 2), (1, 1, 2, 3, 2)], False, True),
    ("avg_pool2d_backward", lambda g, x: opscope.ops.aten.avg_pool2d_backward(g, x, [3, 1], [1, 1], [1, 0], False,
                                                                              True, None), [(1, 2, 4, 3), (1, 2, 4, 3)],
     False, True),
    ("margin_ranking_loss", lambda a, b: F.margin_ranking_loss(a, b, opscope.tensor([1.0, -1.0, 1.0], dtype=F64),
                                                               margin=0.1), [(3,), (3,)], False, True),
    ("hinge_embedding_loss", lambda a: F.hinge_embedding_loss(a, _SIGNS(), margin=0.5), [(3, 4)], False, True),
    ("cosine_embedding_loss", lambda a, b: F.cosine_embedding_loss(a, b, opscope.tensor([1, -1, 1]), margin=-0.3),
     [(3, 4), (3, 4)], False, True),
    ("triplet_margin_loss swap", lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=3.0, swap=True),
     [(3, 4), (3, 4), (3, 4)], False, True),
    ("poisson_nll_loss", lambda a, t: F.poisson_nll_loss(a, t), [(3, 4), (3, 4)], False, True),
    ("poisson_nll_loss rates full", lambda a, t: F.poisson_nll_loss(a, t * 3, log_input=False, full=True),
     [(3, 4), (3, 4)], True, True),
    ("multilabel_soft_margin_loss", lambda a, t: F.multilabel_soft_margin_loss(a, t.sigmoid()),
     [(3, 4), (3, 4)], False, True),
    ("gaussian_nll_loss", lambda a, b, v: F.gaussian_nll_loss(a, b, v, full=True), [(3, 4), (3, 4), (3,)],
     True, True),
    ("triplet_margin_with_distance_loss", lambda a, p, n: F.triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda x, y: (x - y).abs().sum(-1), margin=3.0), [(3, 4), (3, 4), (3, 4)],
     False, True),
    # shape ops: rot90, block_diag (their own derivative nodes; kron, diagflat, ... are composite)
    ("rot90", lambda a: opscope.rot90(a, 1, [1, 0]), [(2, 3)], False, True),
    ("rot90 k=2 3-D", lambda a: opscope.rot90(a, -2, [0, 2]), [(2, 3, 4)], False, True),
    ("block_diag", lambda a, b, c: opscope.block_diag(a, b, c), [(2, 3), (3,), ()], False, True),
]


def _SIGNS():
    """A (3, 4) float64 target of 1 / -1 for the margin losses above."""
    return opscope.tensor([[1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, 1.0, 1.0], [1.0, 1.0, -1.0, -1.0]], dtype=F64)


def _node_names(t):
    """Names of every node in t's graph."""
    # A node's Python object lives only as long as a reference to it: `seen` keeps each one, so
    # an id() is not handed on to another node's object while the walk runs.
    names, stack, seen = set(), [t.grad_fn], {}
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen[id(n)] = n
        names.add(n.name())
        stack.extend(f for f, _ in n.next_functions)
    return names


@pytest.mark.parametrize("layout", ["plain", "transposed", "strided"])
@pytest.mark.parametrize("name,fn,shapes,positive,second", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_finite_differences(name, fn, shapes, positive, second, layout, rng):
    inputs = [leaf(rng, *s, layout=layout, positive=positive) for s in shapes]
    assert gradcheck(fn, inputs)
    if second and layout == "plain":
        assert gradgradcheck(fn, inputs)


# The random samplers: their outputs do not depend on their inputs' values, so finite differences
# do not apply; their gradients are zeros of the input's shape (torch's). node -> a call that
# records it from x (3 elements, requiring grad; p a probability, s a positive std, both leaves).
SAMPLERS = {
    "NormalBackward0": lambda x, p, s: x.clone().normal_(),
    "UniformBackward0": lambda x, p, s: x.clone().uniform_(),
    "ExponentialBackward0": lambda x, p, s: x.clone().exponential_(),
    "RandomBackward0": lambda x, p, s: x.clone().random_(1, 5),
    "RandomBackward1": lambda x, p, s: x.clone().random_(5),
    "RandomBackward2": lambda x, p, s: x.clone().random_(),
    "BernoulliBackward0": lambda x, p, s: opscope.bernoulli(p),
    "BernoulliBackward1": lambda x, p, s: x.clone().bernoulli_(p),
    "BernoulliBackward2": lambda x, p, s: x.clone().bernoulli_(0.5),
    "NormalBackward1": lambda x, p, s: opscope.normal(x, 2.0),
    "NormalBackward2": lambda x, p, s: opscope.normal(0.5, s),
    "NormalBackward3": lambda x, p, s: opscope.normal(x, s),
}


@pytest.mark.parametrize("node", sorted(SAMPLERS))
def test_samplers_give_zero_gradients(node, rng):
    x = leaf(rng, 3)
    p = opscope.full((3,), 0.5, dtype=opscope.float64, requires_grad=True)
    s = opscope.full((3,), 2.0, dtype=opscope.float64, requires_grad=True)
    out = SAMPLERS[node](x, p, s)
    assert out.grad_fn.name() == node
    grads = opscope.autograd.grad(out.sum(), [x, p, s], allow_unused=True)
    assert any(g is not None for g in grads)
    assert all(g is None or (g.shape == (3,) and not g.any()) for g in grads)


def _first_gradient(fn, u):
    """d fn(u).sum() / du with its graph: the node of a gradient op torch cannot differentiate."""
    return opscope.autograd.grad(fn(u).sum(), u, create_graph=True)[0]


# Ops torch 1.13 records a node for but cannot differentiate: backward through the node fails
# with torch's error. node -> (a call that records it from x and y, the error, its message).
NOT_IMPLEMENTED = {
    "NotImplemented": (lambda x, y: opscope.heaviside(x, y), RuntimeError,
                       "derivative for aten::heaviside is not implemented"),
    "NextafterBackward0": (lambda x, y: opscope.nextafter(x, y), NotImplementedError,
                           "the derivative for 'nextafter' is not implemented."),
    "CdistBackwardBackward0": (lambda x, y: _first_gradient(lambda u: opscope.cdist(u, y.view(1, 3), p=1),
                                                            x.view(1, 3)),
                               NotImplementedError, "the derivative for '_cdist_backward' is not implemented."),
    "PdistBackwardBackward0": (lambda x, y: _first_gradient(opscope.pdist, opscope.stack([x, y])),
                               NotImplementedError, "the derivative for '_pdist_backward' is not implemented."),
}


@pytest.mark.parametrize("node", sorted(NOT_IMPLEMENTED))
def test_not_implemented_derivatives_fail_in_backward(node, rng):
    fn, error, message = NOT_IMPLEMENTED[node]
    out = fn(leaf(rng, 3), leaf(rng, 3))
    assert out.grad_fn.name() == node
    with pytest.raises(error, match=re.escape(message)):
        out.sum().backward()


def test_every_derivative_in_the_table_is_checked(rng):
    covered = set(SAMPLERS) | set(NOT_IMPLEMENTED)  # the two tests above
    for name, fn, shapes, positive, _ in CASES:
        out = fn(*[leaf(rng, *s, positive=positive) for s in shapes])
        covered |= _node_names(out)
    table = {node for _, node in opscope._C._derivatives()}
    assert table - covered == set(), f"no test exercises {sorted(table - covered)}"


# --- the graph, as torch records it ---------------------------------------------------------------
# expression -> (grad_fn name, next_functions names), as printed by PyTorch 1.13.
TORCH_GRAPHS = {
    "x + y": ("AddBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    "x + 1": ("AddBackward0", ["AccumulateGrad", None]),
    "x - 1": ("SubBackward0", ["AccumulateGrad", None]),
    "1 - x": ("RsubBackward1", ["AccumulateGrad"]),
    "x * 2": ("MulBackward0", ["AccumulateGrad", None]),
    "x / 2": ("DivBackward0", ["AccumulateGrad", None]),
    "2 / x": ("MulBackward0", ["ReciprocalBackward0", None]),
    "x ** 2": ("PowBackward0", ["AccumulateGrad"]),
    "x ** y": ("PowBackward1", ["AccumulateGrad", "AccumulateGrad"]),
    "2 ** x": ("PowBackward1", [None, "AccumulateGrad"]),
    "m.sum(0)": ("SumBackward1", ["AccumulateGrad"]),
    "m @ x": ("MvBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    "b @ b": ("UnsafeViewBackward0", ["BmmBackward0"]),
    "b @ m": ("UnsafeViewBackward0", ["MmBackward0"]),
    "m.reshape(9)": ("ReshapeAliasBackward0", ["AccumulateGrad"]),
    "m.t().reshape(9)": ("UnsafeViewBackward0", ["CloneBackward0"]),
    "opscope.nn.functional.linear(m, m, x)": ("AddmmBackward0", ["AccumulateGrad", "AccumulateGrad", "TBackward0"]),
    "x.unsqueeze(0).squeeze(0)": ("SqueezeBackward1", ["UnsqueezeBackward0"]),
    "m.t().contiguous()": ("CloneBackward0", ["TBackward0"]),
    "m.softmax(1)": ("SoftmaxBackward0", ["AccumulateGrad"]),
    "opscope.cat([x, y.detach(), x])": ("CatBackward0", ["AccumulateGrad", None, "AccumulateGrad"]),
    "opscope.stack([x, y])": ("StackBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    "x.sign()": ("SignBackward0", ["AccumulateGrad"]),
    "m.unbind()[0]": ("UnbindBackward0", ["AccumulateGrad"]),
    "m.split(2)[1]": ("SplitBackward0", ["AccumulateGrad"]),
    "m.clamp(x, x)": ("ClampBackward0", ["AccumulateGrad", "AccumulateGrad", "AccumulateGrad"]),
    "m.clamp(max=x)": ("ClampBackward0", ["AccumulateGrad", None, "AccumulateGrad"]),
    "(m * 1).copy_(x)": ("CopyBackwards", ["MulBackward0", "AccumulateGrad"]),
    "(m * 1).fill_(x.sum())": ("FillBackward3", ["MulBackward0", "SumBackward0"]),
    "m.sort()[0]": ("SortBackward0", ["AccumulateGrad"]),
    "opscope.addmv(x, m, y)": ("AddmvBackward0", ["AccumulateGrad", "AccumulateGrad", "AccumulateGrad"]),
    "m.index_put((opscope.tensor([0, 1]),), x)": ("IndexPutBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    "m.diagonal()": ("DiagonalBackward0", ["AccumulateGrad"]),
    "opscope.std_mean(m, 1)[0]": ("StdMeanBackward0", ["AccumulateGrad"]),
}


def torch_node_name(cls_name):
    """name() of a node as torch gives it: its own C++ nodes keep their namespace."""
    cpp = ("AccumulateGrad", "CopySlices", "GraphRoot")
    return f"torch::autograd::{cls_name}" if cls_name in cpp else cls_name


@pytest.mark.parametrize("expr", sorted(TORCH_GRAPHS))
def test_graph_names_match_torch(expr, rng):
    env = {"opscope": opscope, "x": leaf(rng, 3), "y": leaf(rng, 3, positive=True),
           "m": leaf(rng, 3, 3), "b": leaf(rng, 2, 3, 3)}
    if expr.startswith("x ** y"):
        env["x"] = leaf(rng, 3, positive=True)
    out = eval(expr, env)
    name, nexts = TORCH_GRAPHS[expr]
    assert type(out.grad_fn).__name__ == name and out.grad_fn.name() == torch_node_name(name)
    assert [None if f is None else type(f).__name__ for f, _ in out.grad_fn.next_functions] == nexts
    assert [None if f is None else f.name() for f, _ in out.grad_fn.next_functions] == [
        None if n is None else torch_node_name(n) for n in nexts]
    assert repr(out.grad_fn).startswith(f"<{name} object at 0x")
    assert f"grad_fn=<{name}>" in repr(out)


def test_out_variants_refuse_inputs_that_require_grad():
    x = opscope.ones(3, requires_grad=True)
    msg = r"functions with out=\.\.\. arguments don't support automatic differentiation, but one of the arguments requires grad\."
    with pytest.raises(RuntimeError, match="^add\\(\\): " + msg):
        opscope.add(x, x, out=opscope.empty(3))
    with pytest.raises(RuntimeError, match="^sum\\(\\): " + msg):
        opscope.sum(x, 0, out=opscope.empty(()))
    with pytest.raises(RuntimeError, match="^cat\\(\\): " + msg):
        opscope.cat([x.detach(), x], out=opscope.empty(6))
    with pytest.raises(RuntimeError, match="^add\\(\\): " + msg):  # out itself requiring grad, as torch
        opscope.add(x.detach(), 1, out=opscope.empty(3, requires_grad=True))
    out = opscope.empty(3)
    with opscope.no_grad():
        opscope.add(x, x, out=out)
    assert out.tolist() == [2.0, 2.0, 2.0]
    opscope.add(x.detach(), x.detach(), out=out)  # nothing requires grad: fine
    idx = opscope.empty((), dtype=opscope.int64)
    opscope.argmax(x, out=idx)  # argmax has no derivative: torch allows it too
    assert idx.item() == 0


def test_list_outputs_and_inputs_share_one_node():
    x = opscope.arange(6.0).reshape(3, 2).requires_grad_()
    a, b, c = x.unbind()
    assert a.grad_fn is b.grad_fn and a.grad_fn.name() == "UnbindBackward0"
    (b * 2).sum().backward()  # a and c unused: their gradients are zero
    assert x.grad.tolist() == [[0.0, 0.0], [2.0, 2.0], [0.0, 0.0]]
    y = opscope.ones(2, requires_grad=True)
    z = opscope.cat([y, opscope.zeros(1), y * 3])
    assert len(z.grad_fn.next_functions) == 3
    z.sum().backward()
    assert y.grad.tolist() == [4.0, 4.0]


def test_double_backward_through_indexing_records_the_backward_ops():
    x = opscope.ones(3, 2, dtype=F64, requires_grad=True)
    v = opscope.ones(2, dtype=F64, requires_grad=True)
    (g,) = opscope.autograd.grad(x[1], x, v, create_graph=True)
    assert g.grad_fn.name() == "SelectBackwardBackward0"
    (g,) = opscope.autograd.grad(x.index_select(0, opscope.tensor([0, 2])), x, opscope.ones(2, 2, dtype=F64,
                                 requires_grad=True), create_graph=True)
    assert g.grad_fn.name() == "IndexAddBackward0"


def test_leaves_and_grad_fn_identity():
    x = opscope.ones(2, requires_grad=True)
    y = x * 2
    assert x.is_leaf and not y.is_leaf and y.requires_grad
    assert y.grad_fn is y.grad_fn  # one Python object per node
    acc = y.grad_fn.next_functions[0][0]
    assert acc.name() == "torch::autograd::AccumulateGrad" and acc.variable is x
    assert type(acc).__name__ == "AccumulateGrad"
    assert opscope.ones(2).is_leaf and not opscope.ones(2).requires_grad
    assert y.grad_fn._sequence_nr() > 0 or y.grad_fn._sequence_nr() == 0


# --- the engine -----------------------------------------------------------------------------------
def test_backward_accumulates_and_reduces_broadcasts():
    x = opscope.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = opscope.tensor([[0.5], [2.0]], requires_grad=True)
    y = (x * x + x * b).sum()  # x used three times; b broadcast over x's dim
    y.backward()
    assert x.grad.tolist() == [4 * 1 + 2.5, 4 * 2 + 2.5, 4 * 3 + 2.5]  # x * x counted on both rows
    assert b.grad.shape == (2, 1) and b.grad.tolist() == [[6.0], [6.0]]
    (x * 3).sum().backward()  # .grad accumulates across calls
    assert x.grad.tolist() == [9.5, 13.5, 17.5]
    x.grad.zero_()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


def test_backward_with_gradient_retain_graph_and_inputs():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    w = opscope.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    y.backward(opscope.tensor([1.0, 10.0]), retain_graph=True)
    assert x.grad.tolist() == [3.0, 40.0] and w.grad.tolist() == [1.0, 20.0]
    y.backward(opscope.tensor([1.0, 1.0]), inputs=[x])
    assert x.grad.tolist() == [6.0, 44.0] and w.grad.tolist() == [1.0, 20.0]


def test_grad_returns_without_touching_dot_grad():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    z = opscope.tensor([5.0], requires_grad=True)
    (g,) = opscope.autograd.grad((x ** 3).sum(), x)
    assert g.tolist() == [3.0, 12.0] and x.grad is None
    gx, gz = opscope.autograd.grad((x * 2).sum(), [x, z], allow_unused=True)
    assert gx.tolist() == [2.0, 2.0] and gz is None
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        opscope.autograd.grad((x * 2).sum(), [x, z])
    h = x * 2  # the gradient at a non-leaf
    (gh,) = opscope.autograd.grad((h * h).sum(), h)
    assert gh.tolist() == [4.0, 8.0]


def test_double_backward():
    x = opscope.tensor([1.0, 2.0], dtype=F64, requires_grad=True)
    (g,) = opscope.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.requires_grad and g.tolist() == [3.0, 12.0]
    (gg,) = opscope.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0]
    y = (x.exp() * x).sum()
    y.backward(create_graph=True)
    assert x.grad.requires_grad


def test_errors_as_torch():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        (x.exp()).sum().backward() or None
        z = x.exp().sum()
        z.backward()
        z.backward()
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        opscope.ones(2).sum().backward()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation."):
        x.add_(1)
    with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\] has a shape of torch.Size\(\[3\]\)"):
        (x * 2).backward(opscope.ones(3))
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        opscope.ones(2, dtype=opscope.int64).requires_grad_()
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        (x * 2).requires_grad_(False)


def test_modified_saved_tensors_are_detected():
    x = opscope.tensor([1.0, 2.0, 3.0], requires_grad=True)
    z = (x * 2).exp()
    z.add_(1)  # exp saved its result
    with pytest.raises(RuntimeError, match=r"one of the variables needed for gradient computation has been modified by "
                       r"an inplace operation: \[torch.FloatTensor \[3\]\], which is output 0 of ExpBackward0, is at "
                       r"version 1; expected version 0 instead"):
        z.sum().backward()
    a = opscope.tensor([1.0, 2.0, 3.0])
    q = (x * a).sum()  # mul saved a (a leaf that does not require grad)
    a.add_(1)
    with pytest.raises(RuntimeError, match=r"inplace operation: \[torch.FloatTensor \[3\]\] is at version 1; expected "
                       r"version 0 instead"):
        q.backward()
    s = (x + a).sum()  # add saves nothing: in-place writes afterwards are fine
    a.add_(1)
    s.backward()


def test_in_place_on_a_non_leaf_rewrites_its_history():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.mul_(x * 3)  # y = 6 x^2
    assert y.grad_fn.name() == "MulBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [12.0, 24.0]
    y = x * 2
    y.mul_(y)  # y saved as the other factor, then written: torch's error too
    with pytest.raises(RuntimeError, match="which is output 0 of MulBackward0, is at version 1"):
        y.sum().backward()
    with opscope.no_grad():
        x.add_(1)  # allowed without grad mode
    assert x.tolist() == [2.0, 3.0]


def test_embedding_padding_row_gets_no_gradient():
    w = opscope.ones(4, 2, requires_grad=True)
    F.embedding(opscope.tensor([0, 3, 3, 1]), w, padding_idx=3).sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]


def test_dropout_decomposes_as_torch_on_cpu():
    x = opscope.ones(4, requires_grad=True)
    assert F.dropout(x, 0.5).grad_fn.name() == "MulBackward0"  # input * (mask / (1 - p))


def test_detach():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert not d.requires_grad and d.grad_fn is None and d.data_ptr() == y.data_ptr()
    y.detach_()
    assert not y.requires_grad and y.is_leaf


# --- grad mode ------------------------------------------------------------------------------------
def test_no_grad_enable_grad_and_set_grad_enabled():
    x = opscope.ones(2, requires_grad=True)
    with opscope.no_grad():
        assert not opscope.is_grad_enabled()
        y = x * 2
        with opscope.enable_grad():
            z = x * 2
    assert opscope.is_grad_enabled()
    assert not y.requires_grad and y.grad_fn is None and z.requires_grad

    @opscope.no_grad()
    def f(t):
        return t * 2

    assert not f(x).requires_grad and opscope.is_grad_enabled()
    opscope.set_grad_enabled(False)
    assert not (x * 2).requires_grad
    opscope.set_grad_enabled(True)
    with opscope.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert (x * 2).requires_grad

    @opscope.set_grad_enabled(False)
    def g(t):
        return t * 2

    assert opscope.is_grad_enabled() and not g(x).requires_grad


def test_no_grad_still_runs_the_autograd_kernel_but_records_nothing():
    """As in torch: under no_grad the Autograd key is still dispatched to; it records no node."""
    x = opscope.ones(2, requires_grad=True)
    with recorded_dispatch() as rec, opscope.no_grad():
        y = x * 2
    assert [(s["op"], s["key"]) for s in rec.steps] == [("aten::mul.Tensor", "AutogradCPU"),
                                                        ("aten::mul.Tensor", "CPU")]
    assert y.grad_fn is None


# --- hooks ---------------------------------------------------------------------------------------
def test_tensor_hooks_and_retain_grad():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))  # observes (returns None)
    handle = x.register_hook(lambda g: g * 10)  # replaces the leaf's gradient
    (y * y).sum().backward()
    assert seen == [[4.0, 8.0]] and y.grad.tolist() == [4.0, 8.0] and y.retains_grad
    assert x.grad.tolist() == [80.0, 160.0]
    handle.remove()
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_hooks_see_what_grad_returns_and_errors_propagate():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    h.register_hook(lambda g: g + 1)
    (g,) = opscope.autograd.grad((h * 3).sum(), x)
    assert g.tolist() == [4.0, 4.0]

    def bad(grad):
        raise ValueError("from the hook")

    x.register_hook(bad)
    with pytest.raises(ValueError, match="from the hook"):
        (x * 3).sum().backward()
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        opscope.ones(2).register_hook(lambda g: g)
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        opscope.ones(2).retain_grad()


def test_non_leaf_grad_warns_and_data_is_detached():
    x = opscope.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with pytest.warns(UserWarning, match="The .grad attribute of a Tensor that is not a leaf Tensor"):
        assert y.grad is None
    d = x.data
    assert not d.requires_grad and d.data_ptr() == x.data_ptr()


def test_inference_mode_makes_inference_tensors_and_records_nothing():
    w = opscope.ones(2, requires_grad=True)
    with opscope.inference_mode():
        assert opscope.is_inference_mode_enabled() and not opscope.is_grad_enabled()
        x = opscope.ones(2) * 2
        y = w * 3
        assert x.is_inference() and y.is_inference() and not y.requires_grad
        assert not w.is_inference()
        x.add_(1)  # in place on an inference tensor: fine inside
        with opscope.inference_mode(False):
            z = w * 2
            assert z.requires_grad and not z.is_inference()
    assert not opscope.is_inference_mode_enabled() and opscope.is_grad_enabled()
    assert x.view(2).is_inference() and x.detach().is_inference() and not (x + 1).is_inference()

    @opscope.inference_mode()
    def double(a):
        return a * 2
    assert double(w).is_inference() and not opscope.is_inference_mode_enabled()


def test_inference_mode_skips_the_autograd_and_inplace_layers():
    w = opscope.ones(2, requires_grad=True)
    with opscope.inference_mode(), recorded_dispatch() as rec:
        x = w * 2
        x.add_(1)
    assert [(s["op"], s["key"]) for s in rec.steps] == [("aten::mul.Tensor", "CPU"),
                                                         ("aten::add_.Tensor", "CPU")]


def test_inference_tensors_outside_inference_mode_errors_as_torch():
    w = opscope.ones(2, requires_grad=True)
    with opscope.inference_mode():
        x = opscope.ones(2)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode is not allowed"):
        x.add_(1)
    assert x.tolist() == [1.0, 1.0]  # nothing was written
    with pytest.raises(RuntimeError, match="Setting requires_grad=True on inference tensor outside InferenceMode "
                       "is not allowed."):
        x.requires_grad_()
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward."):
        w * x
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter."):
        x._version
    assert (w + x).requires_grad  # add saves nothing: fine, as in torch


def test_data_is_outside_autograd_and_can_be_replaced():
    x = opscope.ones(2, requires_grad=True)
    y = x * x  # saves x
    d = x.data
    assert d._base is None and d.is_leaf and not d.requires_grad
    d.mul_(2)  # writes x's memory behind autograd's back (its own version counter), as torch
    assert (x._version, d._version) == (0, 1)
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]  # torch's (stale) answer: 2 * x with x now 2
    x.data = opscope.zeros(3, dtype=F64)
    assert x.tolist() == [0.0, 0.0, 0.0] and x.dtype == F64 and x.requires_grad and x._version == 0
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got list"):
        x.data = [1, 2]
