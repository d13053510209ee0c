"""Elementwise ops with an operand across the grain on spaces wider than one tile along dim 0
(Note [Tiles for operands across the grain], core/ops/TensorIteratorLoops.cpp): a tile spans up
to 8 KB of each copied row (2048 float32, 1024 float64, 512 float64 per copy with two copies,
8192 uint8), so these shapes walk several tiles per band, with ragged last tiles and bands, on
1 and 2 threads. Results must equal NumPy's exactly."""

import numpy as np
import pytest

import opscope


def arr(t):
    return np.asarray(t.tolist())


@pytest.fixture(params=[1, 2])
def threads(request):
    old = opscope.get_num_threads()
    opscope.set_num_threads(request.param)
    yield request.param
    opscope.set_num_threads(old)


@pytest.mark.parametrize("n0, n1", [(2100, 67), (4500, 64)])
def test_float32_one_copy_several_tiles(threads, n0, n1):
    rng = np.random.RandomState(0)
    a = rng.randn(n1, n0).astype(np.float32)           # the output's layout: dim 0 = n0 fastest
    b = rng.randn(n0, n1).astype(np.float32)           # b.T is across the grain
    got = opscope.from_numpy(a) + opscope.from_numpy(b).t()
    np.testing.assert_array_equal(arr(got).astype(np.float32), a + b.T)
    got = opscope.from_numpy(a).mul(opscope.from_numpy(b).t())
    np.testing.assert_array_equal(arr(got).astype(np.float32), a * b.T)


@pytest.mark.parametrize("n0, n1", [(600, 130), (1100, 65)])
def test_float64_two_copies_several_tiles(threads, n0, n1):
    rng = np.random.RandomState(1)
    b, c = rng.randn(n0, n1), rng.randn(n0, n1)
    got = opscope.from_numpy(b).t() - opscope.from_numpy(c).t()   # both inputs copied
    np.testing.assert_array_equal(arr(got), b.T - c.T)
    a = rng.randn(n1, n0)
    w = opscope.where(opscope.from_numpy(a) > 0, opscope.from_numpy(b).t(),
                      opscope.from_numpy(c).t())
    np.testing.assert_array_equal(arr(w), np.where(a > 0, b.T, c.T))


def test_one_byte_and_two_byte_copies_several_tiles(threads):
    rng = np.random.RandomState(2)
    u = rng.randint(0, 256, (8300, 64)).astype(np.uint8)
    got = opscope.from_numpy(u).t() + opscope.from_numpy(u).t()
    np.testing.assert_array_equal(arr(got).astype(np.uint8), u.T + u.T)
    h = rng.randint(-3000, 3000, (4200, 70)).astype(np.int16)
    got = opscope.from_numpy(h).t() * 3
    np.testing.assert_array_equal(arr(got).astype(np.int16), h.T * np.int16(3))


def test_in_place_out_and_promotion_several_tiles(threads):
    rng = np.random.RandomState(3)
    a = rng.randn(70, 2500)
    b = rng.randn(2500, 70).astype(np.float32)
    x = opscope.from_numpy(a.copy())
    x.add_(opscope.from_numpy(b).t(), alpha=0.5)                     # float64 += float32 across
    np.testing.assert_allclose(arr(x), a + 0.5 * b.T.astype(np.float64), rtol=1e-15, atol=1e-15)
    out = opscope.empty(70, 2500, dtype=opscope.float32)
    opscope.add(opscope.from_numpy(a), opscope.from_numpy(b).t(), out=out)  # cast on write
    np.testing.assert_array_equal(arr(out).astype(np.float32),
                                  (a + b.T.astype(np.float64)).astype(np.float32))
    s = opscope.from_numpy(rng.randn(2500, 140))[:, ::2].t()         # strided, read in place
    np.testing.assert_array_equal(arr(s + 1), arr(s) + 1)
