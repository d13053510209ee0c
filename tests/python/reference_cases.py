"""Recorded outcomes: what an expression did under torch 1.13, replayed under opscope.

Semantically, a *case* is a line of Python such as ``m.tensor([1, 2]).add_(0.5)`` in which ``m``
is the tensor module; its *outcome* is what evaluating it gave: a tensor (dtype, shape, values),
a plain value (a shape, a tuple of strides, a bool), several tensors, or an exception (its type
and message). make_torch_reference.py evaluates every case with ``m = torch`` and stores the
outcomes in data/*_torch.json; the tests evaluate the same text with ``m = opscope`` and compare.
Neither this module nor the tests import torch.

    >>> import opscope
    >>> outcome("m.tensor([1, 2]) * 2.5", opscope)
    {'dtype': 'float32', 'shape': [2], 'values': [2.5, 5.0]}
    >>> outcome("m.tensor([1, 2]).add_(0.5)", opscope)["message"]
    "result type Float can't be cast to the desired output type Long"
"""

import json
import math
import os

import numpy as np
import pytest

import opscope

FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")

# How far a float result may be from torch's, relative to its size. Both compute in the same
# precision, but opscope's vector loops may round (or fuse) differently from ATen's.
RTOL = {"float64": 1e-12, "float32": 2e-6, "float16": 1e-3, "bfloat16": 8e-3}


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _flat(values):
    if isinstance(values, list):
        return [x for v in values for x in _flat(v)]
    return [values]


def describe(value, m):
    """The JSON-able outcome of a value produced by a case."""
    if isinstance(value, m.Tensor):
        return {"dtype": _dtype_name(value.dtype), "shape": list(value.shape),
                "values": _flat(value.tolist())}
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, m.Tensor) for v in value):
        return {"tensors": [describe(v, m) for v in value]}
    if hasattr(m, "dtype") and isinstance(value, m.dtype):
        return {"value": _dtype_name(value)}
    return {"value": _plain(value)}


def _plain(value):
    """Tuples (Size, strides) as lists; devices, layouts and the like as the text they print."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    return str(value)


def torch_op_names(expr, m, **env):
    """The aten ops torch's profiler records while evaluating expr with `m` (torch) and env in
    scope, in order, top-level ops and their children: what a recorded trace case expects."""
    from torch.profiler import profile

    with profile() as prof:
        eval(expr, {"m": m, **env})  # noqa: S307 - our own cases
    return [e.name for e in prof.events() if e.name.startswith("aten::")]


def outcome(expr, m, **env):
    """Evaluates `expr` with `m` (and `np`, `math`, `env`) in scope; describes what happened."""
    scope = {"m": m, "np": np, "math": math, **env}
    try:
        value = eval(expr, scope)  # noqa: S307 - the cases are our own test data
    except Exception as e:  # noqa: BLE001 - the exception *is* the outcome
        return {"error": type(e).__name__, "message": str(e)}
    return describe(value, m)


def _values_differ(expected, actual, dtype):
    """(max absolute difference, whether it is out of tolerance) for two flat value lists."""
    if dtype not in FLOAT_DTYPES:
        bad = expected != actual
        return (0.0 if not bad else math.inf), bad
    e = np.array(expected, dtype=np.float64)
    a = np.array(actual, dtype=np.float64)
    same = (e == a) | (np.isnan(e) & np.isnan(a))
    with np.errstate(invalid="ignore"):  # inf - inf
        diff = np.where(same, 0.0, np.abs(e - a))
    maxdiff = float(np.max(diff)) if diff.size else 0.0
    tol = RTOL[dtype] * np.abs(e) + RTOL[dtype] * 1e-3
    return maxdiff, bool((diff > tol).any())


def mismatch(expected, actual):
    """None when `actual` (an outcome from opscope) matches `expected` (torch's); else a short
    description of the first difference. Float values may differ within RTOL."""
    if "error" in expected or "error" in actual:
        if expected.get("error") != actual.get("error") or expected.get("message") != actual.get("message"):
            return f"torch: {_short(expected)}\n   opscope: {_short(actual)}"
        return None
    if "tensors" in expected:
        if len(expected["tensors"]) != len(actual.get("tensors", [])):
            return f"torch: {_short(expected)}\n   opscope: {_short(actual)}"
        for e, a in zip(expected["tensors"], actual["tensors"]):
            why = mismatch(e, a)
            if why:
                return why
        return None
    if "value" in expected:
        return None if expected == actual else f"torch: {expected['value']!r}, opscope: {actual!r}"
    for key in ("dtype", "shape"):  # a table row records no shape
        if key in expected and expected[key] != actual.get(key):
            return f"{key}: torch {expected[key]}, opscope {actual.get(key)}"
    _, bad = _values_differ(expected["values"], actual["values"], expected["dtype"])
    if bad:
        return f"values ({expected['dtype']}): torch {expected['values']}, opscope {actual['values']}"
    return None


def max_difference(expected, actual):
    """(largest absolute, largest relative) difference between the values of two matching
    tensor outcomes."""
    if "values" not in expected or "values" not in actual or expected["dtype"] not in FLOAT_DTYPES:
        return 0.0, 0.0
    e = np.array(expected["values"], dtype=np.float64)
    a = np.array(actual["values"], dtype=np.float64)
    finite = np.isfinite(e) & np.isfinite(a) & (e != 0)
    absdiff = _values_differ(expected["values"], actual["values"], expected["dtype"])[0]
    rel = float(np.max(np.abs(e[finite] - a[finite]) / np.abs(e[finite]))) if finite.any() else 0.0
    return absdiff, rel


def _short(o):
    if "error" in o:
        return f"{o['error']}: {o['message']}"
    return repr(o)[:300]


def case_params(cases, known_differences):
    """One pytest param per recorded case, named by its expression; a strict xfail (whose reason
    says what differs and where) for each case in `known_differences`."""
    params = []
    for case in cases:
        reason = known_differences.get(case["expr"])
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(case, id=case["expr"], marks=marks))
    return params


def check_case(case, m):
    """Asserts that `case` (an expression and torch's outcome) has the same outcome under `m`."""
    expected = {k: v for k, v in case.items() if k != "expr"}
    why = mismatch(expected, outcome(case["expr"], m))
    assert why is None, f"{case['expr']}\n   {why}"


# Every dtype opscope has, and its floating ones (the test suites parametrize over these).
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64",
          "float16", "bfloat16", "float32", "float64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]


def load_reference(name):
    """The torch-recorded data tests/python/data/<name>_torch.json (see make_torch_reference.py)."""
    with open(os.path.join(os.path.dirname(__file__), "data", f"{name}_torch.json")) as f:
        return json.load(f)


def matrix(*shape, dtype=opscope.float32):
    """1, 2, 3, ... in `shape`: positive (pow, division), distinct (comparisons)."""
    n = 1
    for s in shape:
        n *= s
    return opscope.arange(1, n + 1).to(dtype).view(*shape)
