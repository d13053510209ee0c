"""repr() and str() of real opscope tensors against the text torch 1.13 printed for the same
tensors (data/printing_tensors_torch.json, written by make_torch_reference.py).

test_printing.py checks the formatter (opscope/_tensor_str.py) on NumPy values; this file checks
the whole path from a tensor: every dtype (bfloat16 and float16 included), 0-d, empty, large
(summarized), requires_grad, and non-contiguous tensors (transposed, sliced with steps, expanded,
permuted), whose values must be read through their strides.

    /usr/bin/python3 -m pytest -q tests/python/test_printing_tensors.py
"""
import difflib
import math

import numpy as np
import pytest

import opscope
from reference_cases import load_reference

TORCH = load_reference("printing_tensors")
CASES = TORCH["cases"]


def explain(expected, actual):
    diff = "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "torch",
                                          "opscope", lineterm=""))
    return f"\n--- torch ---\n{expected}\n--- opscope ---\n{actual}\n--- diff ---\n{diff}"


@pytest.fixture(autouse=True)
def default_printoptions():
    opscope.set_printoptions(profile="default")
    yield
    opscope.set_printoptions(profile="default")


@pytest.mark.parametrize("case", CASES, ids=[f"{c['expr'][:70]} {c['options'] or ''}" for c in CASES])
def test_repr_and_str_match_torch(case):
    t = eval(case["expr"], {"m": opscope, "math": math, "np": np})
    opscope.set_printoptions(**case["options"])
    assert repr(t) == case["repr"], explain(case["repr"], repr(t))
    assert str(t) == case["repr"], explain(case["repr"], str(t))


def test_the_cases_cover_every_dtype_and_layout():
    exprs = " ".join(c["expr"] for c in CASES)
    for dtype in ["bool", "uint8", "int8", "int16", "int32", "int64",
                  "float16", "bfloat16", "float32", "float64"]:
        assert f"m.{dtype}" in exprs
    for marker in [".t()", "[::2", ".expand(", ".permute(", "requires_grad=True", "m.zeros(0", "m.ones(2001"]:
        assert marker in exprs
    assert TORCH["torch_version"].startswith("1.13") and len(CASES) > 100


def test_printing_does_not_change_the_tensor():
    t = opscope.arange(24.0).view(2, 3, 4).transpose(0, 2)[::2]
    strides, offset, version = t.stride(), t.storage_offset(), t._version
    repr(t)
    assert (t.stride(), t.storage_offset(), t._version) == (strides, offset, version)


def test_format_of_zero_dim_tensors_formats_the_value():
    assert f"{opscope.tensor(2.5):.3f}" == "2.500" and f"{opscope.tensor(7):>3}" == "  7"
    assert "{}".format(opscope.tensor([1.0])) == "tensor([1.])"
