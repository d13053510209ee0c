"""opscope's tensor printout against text recorded from PyTorch 1.13.

The reference text lives in data/printing_expected.json, written by
printing_cases.py (which needs torch).  This test needs only NumPy: it
rebuilds each tensor's values and checks that opscope._tensor_str prints them
exactly as torch did, showing both texts and the first differing line when not.

    /usr/bin/python3 -m pytest -q tests/python/test_printing.py
"""

import difflib
import doctest
import importlib.util
import json
import math
import os

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE_PATH = os.path.join(HERE, "..", "..", "core", "python", "opscope", "_tensor_str.py")
DATA_PATH = os.path.join(HERE, "data", "printing_expected.json")


def _load_module():
    """Load _tensor_str.py on its own, without opscope/__init__.py (which may
    need the C++ extension): printing must not depend on the core."""
    spec = importlib.util.spec_from_file_location("opscope_tensor_str", MODULE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ts = _load_module()

with open(DATA_PATH) as f:
    REFERENCE = json.load(f)
CASES = REFERENCE["cases"]

_NUMPY_DTYPES = {
    "float32": np.float32,
    "float64": np.float64,
    "float16": np.float16,
    "bfloat16": np.float32,  # NumPy has no bfloat16; values are already rounded
    "int64": np.int64,
    "int32": np.int32,
    "int16": np.int16,
    "int8": np.int8,
    "uint8": np.uint8,
    "bool": np.bool_,
}


def rebuild_values(case):
    """The case's values as a NumPy array of its shape (see printing_cases.py)."""
    np_dtype = _NUMPY_DTYPES[case["dtype"]]
    values = case["values"]
    if case["dtype"] in ("float32", "float64", "float16", "bfloat16"):
        # float32-like values are stored as float32 shortest reprs.
        parse_as = np.float64 if case["dtype"] == "float64" else np.float32
        flat = np.array([float(text) for text in values], dtype=np.float64).astype(parse_as)
        flat = flat.astype(np_dtype)
    else:
        flat = np.array(values, dtype=np_dtype)
    return flat.reshape(case["shape"])


def explain_mismatch(expected, actual):
    """Both texts in full, then a line diff, for a readable assertion message."""
    diff = "\n".join(
        difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "torch", "opscope", lineterm=""
        )
    )
    return f"\n--- torch ---\n{expected}\n--- opscope ---\n{actual}\n--- diff ---\n{diff}"


@pytest.fixture(autouse=True)
def default_printoptions():
    """Every test starts and ends with the default print options."""
    ts.set_printoptions(profile="default")
    yield
    ts.set_printoptions(profile="default")


# ---------------------------------------------------------------------------
# Against torch
# ---------------------------------------------------------------------------


def test_reference_data_is_substantial():
    assert REFERENCE["torch_version"].startswith("1.13")
    assert len(CASES) >= 120
    assert {case["dtype"] for case in CASES} == set(_NUMPY_DTYPES)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_matches_torch(case):
    values = rebuild_values(case)
    printer = ts.format_parameter if case["parameter"] else ts.format_tensor
    ts.set_printoptions(**case["printoptions"])
    actual = printer(
        values,
        dtype_name=case["dtype"],
        default_float_dtype=case["default_float_dtype"],
        requires_grad=case["requires_grad"],
        grad_fn_name=case["grad_fn_name"],
        is_leaf=case["is_leaf"],
    )
    expected = case["expected"]
    assert actual == expected, explain_mismatch(expected, actual)


# ---------------------------------------------------------------------------
# Suffixes torch cannot produce here (no GPU) — written from its rules
# ---------------------------------------------------------------------------


def test_device_suffix():
    text = ts.format_tensor(np.array([1.0, 2.0]), dtype_name="float32", device="cuda:0")
    assert text == "tensor([1., 2.], device='cuda:0')"


def test_device_comes_before_dtype_and_grad():
    text = ts.format_tensor(
        np.array([1, 2]), dtype_name="int32", device="cuda:1", requires_grad=True
    )
    assert text == "tensor([1, 2], device='cuda:1', dtype=torch.int32, requires_grad=True)"


def test_empty_on_device():
    text = ts.format_tensor(np.zeros((0, 2)), dtype_name="float32", device="cuda:0")
    assert text == "tensor([], device='cuda:0', size=(0, 2))"


def test_tensor_name():
    text = ts.format_tensor(np.array([1.0]), dtype_name="float32", tensor_name="nested_tensor")
    assert text == "nested_tensor([1.])"


def test_float64_input_is_rounded_to_float32():
    # torch.tensor([0.1]) stores float32(0.1) = 0.10000000149...; both print 0.1000
    # but a value on a rounding boundary must be rounded like torch would.
    text = ts.format_tensor(np.array([1.00005]), dtype_name="float32")
    assert text == "tensor([1.0000])"  # float32(1.00005) = 1.0000499...
    text = ts.format_tensor(np.array([1.00005]), dtype_name="float64")
    assert text == "tensor([1.0001], dtype=torch.float64)"


# ---------------------------------------------------------------------------
# set_printoptions / get_printoptions
# ---------------------------------------------------------------------------


DEFAULTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}


def test_defaults():
    assert ts.get_printoptions() == DEFAULTS


def test_set_individual_options():
    ts.set_printoptions(precision=2, threshold=10, edgeitems=1, linewidth=40, sci_mode=True)
    assert ts.get_printoptions() == {
        "precision": 2, "threshold": 10, "edgeitems": 1, "linewidth": 40, "sci_mode": True
    }


def test_sci_mode_resets_when_not_given():
    # torch quirk: every call assigns sci_mode, None when left out.
    ts.set_printoptions(sci_mode=False)
    ts.set_printoptions(precision=3)
    assert ts.get_printoptions()["sci_mode"] is None
    assert ts.get_printoptions()["precision"] == 3


def test_profiles():
    ts.set_printoptions(profile="short")
    assert ts.get_printoptions() == dict(DEFAULTS, precision=2, edgeitems=2)
    ts.set_printoptions(profile="full")
    assert ts.get_printoptions() == dict(DEFAULTS, threshold=math.inf)
    ts.set_printoptions(profile="short", precision=6)
    assert ts.get_printoptions()["precision"] == 6
    ts.set_printoptions(profile="default")
    assert ts.get_printoptions() == DEFAULTS


def test_unknown_profile_is_an_error():
    with pytest.raises(ValueError):
        ts.set_printoptions(profile="fancy")


def test_get_printoptions_returns_a_copy():
    options = ts.get_printoptions()
    options["precision"] = 9
    assert ts.get_printoptions()["precision"] == 4


def test_printoptions_context_restores():
    ts.set_printoptions(precision=6, sci_mode=False)
    with ts.printoptions(threshold=5):
        assert ts.get_printoptions()["threshold"] == 5
        assert ts.get_printoptions()["sci_mode"] is None
    assert ts.get_printoptions() == dict(DEFAULTS, precision=6, sci_mode=False)


def test_printoptions_context_restores_on_error():
    with pytest.raises(RuntimeError):
        with ts.printoptions(linewidth=10):
            raise RuntimeError
    assert ts.get_printoptions() == DEFAULTS


def test_unsupported_dtype_is_an_error():
    with pytest.raises(ValueError):
        ts.format_tensor(np.array([1 + 2j]), dtype_name="complex64")


def test_docstring_examples():
    result = doctest.testmod(ts)
    assert result.attempted > 0
    assert result.failed == 0
