"""Record PyTorch's tensor printouts as reference data for test_printing.py.

Run with a Python that has torch 1.13 (here Debian's):

    /usr/bin/python3 tests/python/printing_cases.py

It builds a fixed list of tensors (seeded), prints each with torch under the
listed print options, and writes tests/python/data/printing_expected.json.
The test itself never imports torch: it rebuilds each tensor's values with
NumPy and compares opscope's printout with the recorded text.

JSON layout, one entry per case:
    name                 short description, unique
    dtype                "float32", ..., "bool" (torch dtype without "torch.")
    shape                list of ints
    values               flat, C-order list; floats as repr() strings so that
                         nan, inf and -0.0 survive JSON; ints and bools as is
    requires_grad        bool
    grad_fn_name         e.g. "AddBackward0", or null
    is_leaf              bool
    parameter            true when the tensor is an nn.Parameter
    printoptions         keyword arguments given to set_printoptions, {} for none
    default_float_dtype  torch.get_default_dtype() while printing
    expected             repr(tensor) from torch
"""

import json
import math
import os

import numpy as np
import torch

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "printing_expected.json")

F32, F64, F16, BF16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
I64, I32, I16, I8 = torch.int64, torch.int32, torch.int16, torch.int8
U8, BOOL = torch.uint8, torch.bool
nan, inf = math.nan, math.inf


def seeded(seed):
    """A torch.Generator with a fixed seed, so every case is reproducible."""
    return torch.Generator().manual_seed(seed)


def randn(*shape, seed=0, scale=1.0, dtype=F32):
    return (torch.randn(*shape, generator=seeded(seed), dtype=torch.float64) * scale).to(dtype)


def randint(low, high, *shape, seed=0, dtype=I64):
    return torch.randint(low, high, shape, generator=seeded(seed), dtype=torch.int64).to(dtype)


def mixed_magnitudes(*shape, seed=0, dtype=F32):
    """Values spread over many orders of magnitude, to trigger scientific mode."""
    g = seeded(seed)
    mantissa = torch.randn(*shape, generator=g, dtype=torch.float64)
    exponent = torch.randint(-8, 9, shape, generator=g).to(torch.float64)
    return (mantissa * 10.0**exponent).to(dtype)


def build_cases():
    """Return a list of (name, tensor_factory, printoptions, default_float_dtype)."""
    cases = []

    def add(name, factory, options=None, default=F32):
        cases.append((name, factory, options or {}, default))

    # --- 0-d -------------------------------------------------------------
    add("0d float", lambda: torch.tensor(3.5))
    add("0d float int-valued", lambda: torch.tensor(3.0))
    add("0d negative zero", lambda: torch.tensor(-0.0))
    add("0d nan", lambda: torch.tensor(nan))
    add("0d -inf", lambda: torch.tensor(-inf))
    add("0d tiny", lambda: torch.tensor(1.5e-5))
    add("0d huge", lambda: torch.tensor(123456789.0))
    add("0d float64", lambda: torch.tensor(2.25, dtype=F64))
    add("0d float16", lambda: torch.tensor(0.1, dtype=F16))
    add("0d bfloat16", lambda: torch.tensor(0.1, dtype=BF16))
    add("0d int64", lambda: torch.tensor(7))
    add("0d int8 negative", lambda: torch.tensor(-5, dtype=I8))
    add("0d uint8", lambda: torch.tensor(255, dtype=U8))
    add("0d bool", lambda: torch.tensor(True))
    add("0d threshold 0", lambda: torch.tensor(1.25), {"threshold": 0})

    # --- 1-d -------------------------------------------------------------
    add("1d int-valued floats", lambda: torch.tensor([1.0, 2.0]))
    add("1d arange float", lambda: torch.arange(10, dtype=F32))
    add("1d randn 5", lambda: randn(5, seed=1))
    add("1d randn 30 wraps", lambda: randn(30, seed=2))
    add("1d randn 100 wraps", lambda: randn(100, seed=3, scale=50.0))
    add("1d tiny and one", lambda: torch.tensor([1e-5, 1.0]))
    add("1d min exactly 1e-4", lambda: torch.tensor([1e-4, 0.5], dtype=F64))
    add("1d ratio exactly 1000", lambda: torch.tensor([1.0, 1000.0]))
    add("1d ratio above 1000 int", lambda: torch.tensor([1.0, 10000.0]))
    add("1d ratio above 1000 frac", lambda: torch.tensor([0.5, 1000.5]))
    add("1d above 1e8", lambda: torch.tensor([1e9, 2.0]))
    add("1d 1e8 int", lambda: torch.tensor([1e8, 3e8]))
    add("1d mixed magnitudes", lambda: mixed_magnitudes(12, seed=4))
    add("1d mixed magnitudes float64", lambda: mixed_magnitudes(20, seed=5, dtype=F64))
    add("1d zeros", lambda: torch.zeros(4))
    add("1d signed zeros", lambda: torch.tensor([-0.0, 0.0, -0.0]))
    add("1d signed zeros with value", lambda: torch.tensor([-0.0, 0.5, 0.0]))
    add("1d nan and int", lambda: torch.tensor([1.0, nan]))
    add("1d nan inf only", lambda: torch.tensor([inf, -inf, nan]))
    add("1d nan inf fractional", lambda: torch.tensor([inf, -2.5, nan, 0.125]))
    add("1d inf with sci", lambda: torch.tensor([-inf, 1e-7, 3.0, nan]))
    add("1d inf with big int", lambda: torch.tensor([inf, 1e10, 0.0]))
    add("1d negative fractions", lambda: torch.tensor([-1.5, 2.25, -100.125]))
    add("1d rounding", lambda: torch.tensor([0.00005, 0.99995, 1.00005], dtype=F64))
    add("1d int64", lambda: torch.arange(-3, 4))
    add("1d big int64", lambda: torch.tensor([123456789012, -5, 0]))
    add("1d int64 extremes", lambda: torch.tensor([2**63 - 1, -(2**63)]))
    add("1d int32", lambda: randint(-1000, 1000, 8, seed=6, dtype=I32))
    add("1d int16", lambda: randint(-30000, 30000, 7, seed=7, dtype=I16))
    add("1d int8", lambda: randint(-128, 128, 9, seed=8, dtype=I8))
    add("1d uint8", lambda: randint(0, 256, 10, seed=9, dtype=U8))
    add("1d int64 wraps", lambda: randint(-10**9, 10**9, 40, seed=10))
    add("1d bool", lambda: torch.tensor([True, False]))
    add("1d bool all true", lambda: torch.tensor([True, True, True]))
    add("1d bool wraps", lambda: torch.rand(30, generator=seeded(11)) > 0.5)
    add("1d float64", lambda: randn(6, seed=12, dtype=F64))
    add("1d float16", lambda: randn(7, seed=13, dtype=F16))
    add("1d float16 extremes", lambda: torch.tensor([65504.0, -inf, 6e-5, 1.0], dtype=F16))
    add("1d float16 ints", lambda: torch.tensor([1.0, 2.0, 2048.0], dtype=F16))
    add("1d bfloat16", lambda: randn(7, seed=14, dtype=BF16))
    add("1d bfloat16 ints", lambda: torch.tensor([3.0, 256.0, -7.0], dtype=BF16))
    add("1d bfloat16 big", lambda: torch.tensor([1e20, 3.0], dtype=BF16))
    add("1d summarized 2000", lambda: randn(2000, seed=15))
    add("1d summarized 1001", lambda: randn(1001, seed=16))
    add("1d exactly 1000 not summarized", lambda: torch.arange(1000, dtype=F32) / 7)
    add("1d summarized int arange", lambda: torch.arange(1001))
    # Only the printed edges decide the mode: the hidden 1e-9s do not force sci.
    add(
        "1d summarized edges decide sci",
        lambda: torch.cat([torch.ones(3), torch.full((1000,), 1e-9), torch.ones(3)]),
    )
    add("1d summarized bool", lambda: torch.arange(1500) % 3 == 0)

    # --- 2-d -------------------------------------------------------------
    add("2d randn 3x4", lambda: randn(3, 4, seed=20))
    add("2d randn 10x10 wraps", lambda: randn(10, 10, seed=21))
    add("2d randn 4x20 wraps", lambda: randn(4, 20, seed=22, scale=10.0))
    add("2d int 3x3", lambda: torch.arange(9).reshape(3, 3) - 4)
    add("2d eye", lambda: torch.eye(4))
    add("2d float64 2x3", lambda: randn(2, 3, seed=23, dtype=F64))
    add("2d mixed magnitudes", lambda: mixed_magnitudes(5, 6, seed=24))
    add("2d sci scaled", lambda: randn(3, 3, seed=25, scale=1e6))
    add("2d summarized int 40x40", lambda: torch.arange(1600).reshape(40, 40))
    add("2d summarized randn 50x50", lambda: randn(50, 50, seed=26, scale=1000.0))
    add("2d summarized tall 1001x1", lambda: randn(1001, 1, seed=27))
    add("2d summarized wide 1x1001", lambda: randn(1, 1001, seed=28))
    add("2d uint8", lambda: randint(0, 256, 4, 5, seed=29, dtype=U8))
    add("2d bool", lambda: torch.rand(3, 4, generator=seeded(30)) > 0.5)
    add("2d with nan rows", lambda: torch.tensor([[nan, 1.5], [inf, -0.25]]))

    # --- 3-d and 4-d -----------------------------------------------------
    add("3d randn 2x3x4", lambda: randn(2, 3, 4, seed=40))
    add("3d summarized 40x40x3", lambda: randn(40, 40, 3, seed=41))
    add("3d int 2x2x2", lambda: torch.arange(8).reshape(2, 2, 2))
    add("3d 3x1x5", lambda: randn(3, 1, 5, seed=42))
    add("3d wide rows wrap", lambda: randn(2, 2, 15, seed=43))
    add("4d randn 2x2x2x2", lambda: randn(2, 2, 2, 2, seed=44))
    add("4d int 1x2x3x4", lambda: torch.arange(24).reshape(1, 2, 3, 4))
    add("4d summarized 8x8x4x5", lambda: randn(8, 8, 4, 5, seed=45))
    add("4d float16", lambda: randn(2, 1, 2, 3, seed=46, dtype=F16))

    # --- empty -----------------------------------------------------------
    add("empty (0,)", lambda: torch.empty(0))
    add("empty (0,3)", lambda: torch.empty(0, 3))
    add("empty (2,0,3)", lambda: torch.empty(2, 0, 3))
    add("empty int64", lambda: torch.empty(0, dtype=I64))
    add("empty float64", lambda: torch.empty(0, dtype=F64))
    add("empty bool (0,3)", lambda: torch.empty(0, 3, dtype=BOOL))
    add("empty uint8", lambda: torch.empty(0, dtype=U8))
    add("empty float16 (3,0)", lambda: torch.empty(3, 0, dtype=F16))
    add("empty requires_grad", lambda: torch.empty(0, 2, requires_grad=True))

    # --- autograd and parameters ------------------------------------------
    add("requires_grad", lambda: randn(3, seed=50).requires_grad_())
    add("requires_grad float64", lambda: randn(3, seed=51, dtype=F64).requires_grad_())
    add("grad_fn add", lambda: randn(3, seed=52).requires_grad_() + 1)
    add("grad_fn mul", lambda: randn(2, 2, seed=53).requires_grad_() * 2)
    add("grad_fn sum 0d", lambda: randn(4, seed=54).requires_grad_().sum())
    add("grad_fn float64 wide", lambda: randn(3, 8, seed=55, dtype=F64).requires_grad_().exp())
    add("suffix overflows line", lambda: randn(9, seed=56, dtype=F64))
    add("suffix just fits", lambda: torch.arange(22, dtype=I32))
    add("two suffixes overflow", lambda: randn(8, seed=57, dtype=F64).requires_grad_() * 3)
    add("parameter", lambda: torch.nn.Parameter(randn(3, seed=58)))
    add("parameter float64 2d", lambda: torch.nn.Parameter(randn(2, 3, seed=59, dtype=F64)))

    # --- print options ----------------------------------------------------
    add("precision 2", lambda: randn(6, seed=60), {"precision": 2})
    add("precision 0", lambda: torch.tensor([0.4, 1.6, -2.5]), {"precision": 0})
    add("precision 8 float64", lambda: randn(4, seed=61, dtype=F64), {"precision": 8})
    add("precision 2 sci", lambda: mixed_magnitudes(6, seed=62), {"precision": 2})
    add("sci_mode True", lambda: randn(5, seed=63), {"sci_mode": True})
    add("sci_mode True int-valued", lambda: torch.tensor([1.0, 20.0, 300.0]), {"sci_mode": True})
    add("sci_mode True zeros", lambda: torch.zeros(3), {"sci_mode": True})
    add("sci_mode True ints unaffected", lambda: torch.arange(4), {"sci_mode": True})
    add("sci_mode True 2d wraps", lambda: randn(3, 8, seed=64), {"sci_mode": True})
    add("sci_mode False tiny", lambda: torch.tensor([1e-6, 0.5, 2e-5]), {"sci_mode": False})
    add("sci_mode False wide ints", lambda: torch.tensor([1.0, 1e6, 3e9]), {"sci_mode": False})
    add("sci_mode False mixed", lambda: mixed_magnitudes(4, 4, seed=65), {"sci_mode": False})
    add("linewidth 40 2d", lambda: randn(3, 9, seed=66), {"linewidth": 40})
    add("linewidth 40 suffix", lambda: randn(3, seed=67, dtype=F64).requires_grad_(),
        {"linewidth": 40})
    add("linewidth 20 3d", lambda: torch.arange(30).reshape(2, 3, 5), {"linewidth": 20})
    add("linewidth 5 narrower than element", lambda: randn(4, seed=68), {"linewidth": 5})
    add("threshold 5 arange", lambda: torch.arange(10), {"threshold": 5})
    add("threshold 5 small dims", lambda: randn(3, 4, seed=69), {"threshold": 5})
    add("threshold 5 edgeitems 1 3d", lambda: randn(3, 3, 3, seed=70),
        {"threshold": 5, "edgeitems": 1})
    add("edgeitems 1 summarized", lambda: randn(2000, seed=71), {"edgeitems": 1})
    add("edgeitems 0 vector", lambda: torch.arange(10), {"threshold": 5, "edgeitems": 0})
    add("edgeitems 5 2d", lambda: torch.arange(1200).reshape(30, 40), {"edgeitems": 5})
    add("profile short", lambda: randn(50, 50, seed=72), {"profile": "short"})
    add("profile full 1d", lambda: torch.arange(1200) % 17, {"profile": "full"})
    add("profile full 2d", lambda: randn(35, 35, seed=73), {"profile": "full"})
    add("profile short precision 5", lambda: randn(4, seed=74),
        {"profile": "short", "precision": 5})

    # --- default dtype float64 --------------------------------------------
    add("default f64: float64", lambda: randn(3, seed=80, dtype=F64), {}, F64)
    add("default f64: float32", lambda: randn(3, seed=81, dtype=F32), {}, F64)
    add("default f64: empty float64", lambda: torch.empty(0, dtype=F64), {}, F64)
    add("default f64: empty float32", lambda: torch.empty(0, 2, dtype=F32), {}, F64)
    add("default f64: int64", lambda: torch.arange(3), {}, F64)
    return cases


def encode_values(tensor):
    """Flat C-order list; floats as strings so that nan, inf and -0.0 survive JSON.

    float32, float16 and bfloat16 values are written as the shortest string
    that reads back as the same float32 (numpy's float32 repr), float64 values
    as Python's repr; each is checked to read back exactly.
    """
    flat = tensor.detach().reshape(-1)
    if not tensor.dtype.is_floating_point:
        return flat.tolist()
    if tensor.dtype == F64:
        return [repr(v) for v in flat.tolist()]
    exact = flat.float().numpy()
    texts = [str(v) for v in exact]
    back = np.array([float(t) for t in texts]).astype(np.float32)
    assert np.array_equal(back.view(np.uint32), exact.view(np.uint32)) or np.isnan(exact).any()
    assert np.array_equal(back, exact, equal_nan=True)
    return texts


def record(name, factory, options, default):
    torch.set_default_dtype(default)
    torch.set_printoptions(profile="default")
    try:
        tensor = factory()
        torch.set_printoptions(**options)
        expected = repr(tensor)
    finally:
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(F32)
    grad_fn = tensor.grad_fn
    return {
        "name": name,
        "dtype": str(tensor.dtype).replace("torch.", ""),
        "shape": list(tensor.shape),
        "values": encode_values(tensor),
        "requires_grad": tensor.requires_grad,
        "grad_fn_name": None if grad_fn is None else type(grad_fn).__name__,
        "is_leaf": tensor.is_leaf,
        "parameter": isinstance(tensor, torch.nn.Parameter),
        "printoptions": options,
        "default_float_dtype": str(default).replace("torch.", ""),
        "expected": expected,
    }


def main():
    entries = [record(*case) for case in build_cases()]
    names = [entry["name"] for entry in entries]
    assert len(names) == len(set(names)), "case names must be unique"
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "w") as f:
        # One case per line keeps the file small and its diffs per case.
        f.write('{"torch_version": %s,\n "cases": [\n' % json.dumps(torch.__version__))
        f.write(",\n".join("  " + json.dumps(entry) for entry in entries))
        f.write("\n ]\n}\n")
    print(f"wrote {len(entries)} cases to {OUTPUT}")


if __name__ == "__main__":
    main()
