"""Bad input gets a Python exception, never a crash: every op function and Tensor method is
called with a battery of wrong arguments (None, negative and huge ints, strings, empty lists,
tensors of other dtypes, shapes, 0-d and empty tensors). A segfault would kill this process and
fail the run; any Python exception is fine, and so is a result."""
import itertools

import numpy as np
import pytest

import opscope

ODD_VALUES = [
    None, -1, 0, 2**62, -(2**62), 2.5, float("nan"), True, "x", [], [-1], [2**40, 2**40], (1, 2, 3),
    opscope.float64, opscope.device("cpu"),
    opscope.ones(3), opscope.ones(2, 3), opscope.tensor(1.5), opscope.empty(0, 3),
    opscope.ones(2, dtype=opscope.int64), opscope.ones(2, dtype=opscope.bool),
    opscope.ones(3, 4).t(), opscope.ones(1).expand(5), object(), np.float32(2.0),
]


def _function_names():
    return sorted(n for n in dir(opscope._C._VariableFunctions) if not n.startswith("__"))


def _method_names():
    names = []
    for n in dir(opscope.Tensor):
        if n.startswith("__") and n not in ("__getitem__", "__setitem__", "__add__", "__matmul__", "__pow__"):
            continue
        if n in ("_make_subclass",):
            continue
        if callable(getattr(opscope.Tensor, n, None)):
            names.append(n)
    return sorted(names)


def _argument_lists():
    yield ()
    for v in ODD_VALUES:
        yield (v,)
    for a, b in itertools.islice(itertools.product(ODD_VALUES, repeat=2), 0, None, 7):
        yield (a, b)
    yield (opscope.ones(2, 3), opscope.ones(4, 5), -7)


def _call(fn, args, kwargs=None):
    try:
        fn(*args, **(kwargs or {}))
    except (RuntimeError, TypeError, ValueError, IndexError, NotImplementedError, OverflowError):
        pass
    except AssertionError as e:  # torch's own error for a CUDA device in a build without CUDA
        if str(e) != "Torch not compiled with CUDA enabled":
            raise


@pytest.mark.parametrize("name", _function_names())
def test_functions_survive_bad_arguments(name):
    fn = getattr(opscope._C._VariableFunctions, name)
    if name.startswith(("rand", "empty", "zeros", "ones", "full")):
        # Factories would allocate 2**62-element tensors: they must refuse, not try.
        pass
    for args in _argument_lists():
        _call(fn, args)
    _call(fn, (opscope.ones(2),), {"out": "not a tensor"})
    _call(fn, (opscope.ones(2),), {"nonexistent": 1})


@pytest.mark.parametrize("name", _method_names())
def test_methods_survive_bad_arguments(name):
    for self in (opscope.ones(2, 3), opscope.tensor(2.0), opscope.empty(0), opscope.ones(3, dtype=opscope.uint8)):
        method = getattr(self, name)
        for args in _argument_lists():
            if name == "__setitem__" and len(args) != 2:
                continue
            _call(method, args)


def test_huge_sizes_are_refused_cleanly():
    for f in (opscope.empty, opscope.zeros, opscope.ones, opscope.rand):
        with pytest.raises(RuntimeError):
            f(2**62)
        with pytest.raises(RuntimeError):
            f(2**40, 2**40)
    with pytest.raises(RuntimeError):
        opscope.ones(2).view(2**62)
    with pytest.raises(RuntimeError):
        opscope.ones(2).expand(2**62, 2**62).contiguous()
