"""The fused optimizer kernels (core/ops/cpu/optim.cpp) round every product, sum, root and
quotient once, in float32, in the order their comments give: NumPy's float32 evaluation of the
same formula matches them bit for bit, whichever clone the CPU runs (SSE2, AVX2, AVX-512; none
contracts into fused multiply-adds, see the -ffp-contract=off in core/CMakeLists.txt) and over
the vector body and its ragged tail alike (1037 elements)."""

import numpy as np
import pytest

import opscope

N = 1037
f32 = np.float32


def state(seed):
    rng = np.random.RandomState(seed)
    p = rng.randn(N).astype(f32)
    g = (rng.randn(N) * 10.0 ** rng.uniform(-4, 2, N)).astype(f32)  # gradients over six decades
    m = (rng.randn(N) * 0.1).astype(f32)
    v = (rng.rand(N) * 10.0 ** rng.uniform(-8, 1, N)).astype(f32)
    return p, g, m, v


def t(a):
    return opscope.from_numpy(a.copy())


def arr(x):
    return np.asarray(x.tolist(), dtype=f32)


@pytest.mark.parametrize("decoupled", [False, True])
@pytest.mark.parametrize("amsgrad", [False, True])
@pytest.mark.parametrize("maximize", [False, True])
def test_fused_adam_matches_float32_formula_exactly(decoupled, amsgrad, maximize):
    p, g, m, v = state(1)
    vmax = (v * f32(1.5)).astype(f32)
    lr, beta1, beta2, wd, eps, step = 1e-3, 0.9, 0.999, 0.01, 1e-8, 7.0
    P, G, M, V, VM = t(p), t(g), t(m), t(v), t(vmax)
    op = opscope._fused_adamw_ if decoupled else opscope._fused_adam_
    op([P], [G], [M], [V], [VM] if amsgrad else [], [opscope.tensor(step)], lr=lr, beta1=beta1,
       beta2=beta2, weight_decay=wd, eps=eps, amsgrad=amsgrad, maximize=maximize)
    # The kernel's constants: float32 options, the bias corrections in double then rounded.
    bc1, bc2 = 1 - beta1 ** step, 1 - beta2 ** step
    step_size, inv_bc2 = f32(lr / bc1), f32(1 / np.sqrt(bc2))
    sign = f32(-1) if maximize else f32(1)
    coupled = f32(0) if decoupled else f32(wd)
    shrink = f32(1) - f32(lr) * f32(wd) if decoupled else f32(1)
    pk = p * shrink
    gk = sign * g + coupled * pk
    mk = m * f32(beta1) + (f32(1) - f32(beta1)) * gk
    vk = v * f32(beta2) + (f32(1) - f32(beta2)) * (gk * gk)
    wk = np.where((vmax > vk) | np.isnan(vmax), vmax, vk) if amsgrad else vk
    want = pk + (-step_size) * mk / (np.sqrt(wk) * inv_bc2 + f32(eps))
    np.testing.assert_array_equal(arr(M), mk)
    np.testing.assert_array_equal(arr(V), vk)
    if amsgrad:
        np.testing.assert_array_equal(arr(VM), wk)
    np.testing.assert_array_equal(arr(P), want)


@pytest.mark.parametrize("centered", [False, True])
@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_fused_rmsprop_matches_float32_formula_exactly(centered, momentum):
    p, g, ga, sq = state(2)
    buf = (ga * f32(2)).astype(f32)
    sq = sq + ga * ga  # centered: sq - ga * ga stays positive
    lr, alpha, eps, wd = 1e-2, 0.99, 1e-8, 0.001
    P, G, SQ, GA, B = t(p), t(g), t(sq), t(ga), t(buf)
    opscope._fused_rmsprop_([P], [G], [SQ], [GA] if centered else [], [B] if momentum else [],
                            lr=lr, alpha=alpha, eps=eps, weight_decay=wd, momentum=momentum,
                            centered=centered, maximize=False)
    a, rest = f32(alpha), f32(1) - f32(alpha)
    gk = f32(1) * g + f32(wd) * p
    s = sq * a + rest * (gk * gk)
    if centered:
        mg = ga * a + rest * gk
        avg = np.sqrt(s - mg * mg) + f32(eps)
    else:
        avg = np.sqrt(s) + f32(eps)
    if momentum:
        nb = buf * f32(momentum) + gk / avg
        want = p - f32(lr) * nb
        np.testing.assert_array_equal(arr(B), nb)
    else:
        want = p - f32(lr) * (gk / avg)
    np.testing.assert_array_equal(arr(SQ), s)
    if centered:
        np.testing.assert_array_equal(arr(GA), mg)
    np.testing.assert_array_equal(arr(P), want)


@pytest.mark.parametrize("nesterov", [False, True])
def test_fused_sgd_matches_float32_formula_exactly(nesterov):
    p, g, buf, _ = state(3)
    wd, mom, lr, damp = 0.01, 0.9, 0.1, 0.0 if nesterov else 0.1
    P, G, B = t(p), t(g), t(buf)
    opscope._fused_sgd_([P], [G], [B], weight_decay=wd, momentum=mom, lr=lr, dampening=damp,
                        nesterov=nesterov, maximize=False, is_first_step=False)
    d = f32(1) * g + f32(wd) * p
    mb = f32(mom) * buf + (f32(1) - f32(damp)) * d
    own, on_buf = (f32(1), f32(mom)) if nesterov else (f32(0), f32(1))
    want = p - f32(lr) * (own * d + on_buf * mb)
    np.testing.assert_array_equal(arr(B), mb)
    np.testing.assert_array_equal(arr(P), want)
