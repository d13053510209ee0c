"""opscope.library: operators defined and kernels registered from Python, as torch.library 1.13
(errors recorded from torch by tests/python/make_torch_reference_dispatch.py into
data/dispatch_torch.json; opscope adds the "FRAGMENT" kind of later torch versions).

    PYTHONPATH=core/python:build/python /usr/bin/python3 -m pytest -q tests/python/test_library.py
"""
import gc
import json
import os
import sys

import pytest

import opscope
import opscope.library as library
from opscope.utils._python_dispatch import TorchDispatchMode

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dispatch_cases  # noqa: E402

with open(os.path.join(HERE, "data", "dispatch_torch.json")) as f:
    REF = json.load(f)["library"]


def outcome(fn):
    try:
        return {"value": repr(fn())}
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}


# Where opscope's message is torch's up to a point (torch names its own build's files and keys),
# the part compared; everything else is compared whole.
MESSAGE_PREFIX = {
    # torch's list of keys (FuncTorch*, Named, Conjugate, ...) is its own; the sentence is the same.
    "lib_missing_kernel": "Could not run 'opscope_ref_d::foo' with arguments from the 'CPU' backend.",
    # the sites differ: torch's is /dev/null:52 (its own frame), opscope's this file's line.
    "lib_define_twice": "Tried to register an operator (opscope_ref_a::foo(Tensor x) -> Tensor) with the same "
                        "name and overload name multiple times. Each overload's schema should only be registered "
                        "with a single call to def(). Duplicate registration: ",
    "lib_def_aten": "Only a single TORCH_LIBRARY can be used to register the namespace aten; please put all of "
                    "your definitions in a single TORCH_LIBRARY block.",
    # opscope's schema parser words this its own way; the type is torch's.
    "lib_bad_schema": "",
}


@pytest.mark.parametrize("name", sorted(dispatch_cases.LIBRARY_CASES))
def test_library_outcomes_match_torch(name):
    got = outcome(lambda: dispatch_cases.LIBRARY_CASES[name](opscope, library))
    gc.collect()  # the case's Library objects go, and their registrations with them
    want = REF[name]
    if name in MESSAGE_PREFIX and "error" in want:
        assert got["error"] == want["error"], got
        assert got["message"].startswith(MESSAGE_PREFIX[name]), got
        assert want["message"].startswith(MESSAGE_PREFIX[name])
    else:
        assert got == want


def test_a_defined_op_runs_shows_its_site_and_goes_with_its_library():
    lib = library.Library("opscope_lib_a", "DEF")
    assert lib.define("scale(Tensor x, float factor=2.0) -> Tensor") == "scale"
    lib.impl("scale", lambda x, factor=2.0: x * factor, "CPU")
    line = sys._getframe().f_lineno - 1
    op = opscope.ops.opscope_lib_a.scale
    assert op.default(opscope.ones(2)).tolist() == [2.0, 2.0]
    assert op.default(opscope.ones(2), 3.0).tolist() == [3.0, 3.0]
    dump = opscope._C._dispatch_dump("opscope_lib_a::scale")
    assert "schema: opscope_lib_a::scale(Tensor x, float factor=2.0) -> Tensor" in dump
    assert f"CPU: registered at {__file__}:{line}" in dump
    assert f"debug: registered at {__file__}:{line - 1}" in dump
    with opscope.trace() as t:
        op.default(opscope.ones(2))
    step = t.find("opscope_lib_a::scale").steps[-1]
    assert step.provenance == "python kernel" and step.label == "scale[CPU]"
    crossing, = t.find("opscope_lib_a::scale").children  # C++ → Python: python kernel <lambda>
    assert crossing.crossing and crossing.name.endswith("<lambda> · GIL held")
    assert [c.name for c in crossing.children] == ["aten::mul.Tensor"]
    del lib, op
    gc.collect()
    with pytest.raises(AttributeError, match="'_OpNamespace' 'opscope_lib_a' object has no attribute 'scale'"):
        opscope.ops.opscope_lib_a.scale
    # the namespace is free again
    lib = library.Library("opscope_lib_a", "DEF")
    lib.define("scale(Tensor x) -> Tensor")


def test_composite_implicit_kernels_get_autograd_from_the_ops_they_call():
    lib = library.Library("opscope_lib_b", "DEF")
    lib.define("square(Tensor x) -> Tensor")
    lib.impl("square", lambda x: x * x, "CompositeImplicitAutograd")
    x = opscope.tensor([1.0, 3.0], requires_grad=True)
    y = opscope.ops.opscope_lib_b.square.default(x)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 6.0]


def test_the_default_key_is_composite_implicit_autograd_and_define_decorates():
    lib = library.Library("opscope_lib_c", "DEF")

    @library.define(lib, "plus_one(Tensor x) -> Tensor")
    def plus_one(x):
        return x + 1

    assert opscope.ops.opscope_lib_c.plus_one(opscope.zeros(2)).tolist() == [1.0, 1.0]
    assert "CompositeImplicitAutograd[alias]: registered at" in opscope._C._dispatch_dump("opscope_lib_c::plus_one")


def test_impl_overrides_an_aten_kernel_until_the_library_goes():
    calls = []
    lib = library.Library("aten", "IMPL")

    def neg_cpu(x):
        calls.append("neg")
        return opscope.zeros_like(x)

    lib.impl("neg", neg_cpu, "CPU")
    x = opscope.ones(2)
    assert opscope.neg(x).tolist() == [0.0, 0.0] and calls == ["neg"]
    with pytest.raises(RuntimeError, match="already a kernel registered from python overriding neg's "
                                           "behavior for CPU dispatch key and aten namespace"):
        library.Library("aten", "IMPL").impl("neg", neg_cpu, "CPU")
    lib._destroy()
    assert opscope.neg(x).tolist() == [-1.0, -1.0]


def test_a_fallthrough_skips_the_key():
    lib = library.Library("opscope_lib_d", "DEF")
    lib.define("ident(Tensor x) -> Tensor")
    lib.impl("ident", lambda x: x.clone(), "CPU")
    failing = library.Library("opscope_lib_d", "IMPL")
    failing.impl("ident", lambda x: 1 / 0, "AutogradCPU")
    x = opscope.ones(1, requires_grad=True)
    with pytest.raises(ZeroDivisionError):
        opscope.ops.opscope_lib_d.ident(x)
    del failing
    gc.collect()
    skipping = library.Library("opscope_lib_d", "IMPL")
    skipping.impl("ident", library.fallthrough_kernel, "AutogradCPU")
    assert opscope.ops.opscope_lib_d.ident(x).tolist() == [1.0]
    assert "AutogradCPU: fallthrough registered at" in opscope._C._dispatch_dump_table("opscope_lib_d::ident")


def test_an_autograd_kernel_from_python():
    lib = library.Library("opscope_lib_e", "DEF")
    lib.define("double(Tensor x) -> Tensor")
    lib.impl("double", lambda x: x * 2, "CPU")

    class Double(opscope.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            with opscope._C._AutoDispatchBelowAutograd():
                return opscope.ops.opscope_lib_e.double(x)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    lib.impl("double", Double.apply, "Autograd")
    x = opscope.ones(2, requires_grad=True)
    y = opscope.ops.opscope_lib_e.double(x)
    y.sum().backward()
    assert y.tolist() == [2.0, 2.0] and x.grad.tolist() == [2.0, 2.0]


def test_a_mode_sees_an_op_defined_in_python_and_not_what_its_kernel_runs():
    lib = library.Library("opscope_lib_f", "DEF")
    lib.define("tag(Tensor x) -> Tensor")
    lib.impl("tag", lambda x: x + 1, "CPU")
    seen = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    x = opscope.zeros(1)
    with Log():
        r = opscope.ops.opscope_lib_f.tag(x)
    # the kernel's add runs while the mode is off the stack (it is handling the call), as in torch
    assert r.tolist() == [1.0] and seen == ["opscope_lib_f.tag.default"]


def test_bad_dispatch_key_and_callable():
    lib = library.Library("opscope_lib_g", "FRAGMENT")
    lib.define("h(Tensor x) -> Tensor")
    with pytest.raises(TypeError, match="Input function is required to be a callable"):
        lib.impl("h", 3, "CPU")
    with pytest.raises(RuntimeError, match="Invalid alias_analysis type PURE"):
        lib.define("k(Tensor x) -> Tensor", alias_analysis="PURE")
    with pytest.raises(RuntimeError, match="Cannot define an operator inside of a TORCH_LIBRARY_IMPL block"):
        library.Library("opscope_lib_g", "IMPL").define("z(Tensor x) -> Tensor")


def test_impl_takes_an_op_overload():
    lib = library.Library("opscope_lib_h", "DEF")
    lib.define("neg2(Tensor x) -> Tensor")
    op = opscope.ops.opscope_lib_h.neg2.default
    lib.impl(op, lambda x: -x, "CPU")
    assert op(opscope.ones(2)).tolist() == [-1.0, -1.0]
    with pytest.raises(RuntimeError, match="impl should be passed either a name or an OpOverload"):
        lib.impl(3, lambda x: x, "CPU")
