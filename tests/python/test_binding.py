"""The Python face of the core: dtype / device / Size objects, the schema-driven argument parser
and its errors, the dispatcher tools, Python-registered kernels, NumPy and DLPack interop,
opscope.tensor() inference."""
import gc
import re

import numpy as np
import pytest

import opscope
from conftest import recorded_dispatch as recorded  # rec.steps: one dict per dispatch step


# --- dtype, device, Size ------------------------------------------------------------------------
def test_dtypes_print_like_torch():
    assert repr(opscope.float32) == "torch.float32"
    assert opscope.float is opscope.float32 and opscope.long is opscope.int64
    assert opscope.double is opscope.float64 and opscope.half is opscope.float16
    assert opscope.float16.is_floating_point and not opscope.int8.is_floating_point
    assert not opscope.uint8.is_signed and opscope.int8.is_signed
    assert opscope.get_default_dtype() is opscope.float32


def test_device_parse_and_print():
    assert repr(opscope.device("cpu")) == "device(type='cpu')"
    assert repr(opscope.device("cuda:1")) == "device(type='cuda', index=1)"
    assert str(opscope.device("cuda", 0)) == "cuda:0"
    assert opscope.device("cuda:1").index == 1 and opscope.device("cpu").index is None
    assert opscope.device("cpu") == opscope.device("cpu")
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        opscope.device("tpu")
    with pytest.raises(RuntimeError, match="Invalid device string"):
        opscope.device("cuda:x")


def test_size_is_a_tuple_that_prints_like_torch():
    t = opscope.empty(2, 3)
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert repr(t.shape) == "torch.Size([2, 3])"
    assert t.size() == opscope.Size([2, 3]) and t.size(1) == 3 and t.size(-1) == 3
    assert t.shape.numel() == 6
    assert repr(opscope.empty(()).shape) == "torch.Size([])"
    with pytest.raises(TypeError):
        opscope.Size([2, 3.5])
    with pytest.raises(IndexError, match="Dimension out of range"):
        t.size(2)


# --- tensor object --------------------------------------------------------------------------------
def test_identity_is_preserved():
    t = opscope.ones(3)
    assert t.add_(1) is t
    t += 1
    same = t
    t.my_attribute = 5
    assert same.my_attribute == 5
    v = t[1:]
    assert v is not t


def test_tensor_subclass_roundtrip():
    class Param(opscope.Tensor):
        pass
    p = opscope.Tensor._make_subclass(Param, opscope.zeros(2), True)
    assert type(p) is Param and p.requires_grad
    assert isinstance(p, opscope.Tensor)


def test_item_tolist_and_conversions():
    t = opscope.tensor([[1.5, 2.0], [3.0, 4.25]])
    assert t.tolist() == [[1.5, 2.0], [3.0, 4.25]]
    assert t[1, 1].item() == 4.25 and float(t[0, 0]) == 1.5 and int(t[1, 1]) == 4
    assert opscope.tensor(True).item() is True
    assert opscope.tensor(7).item() == 7 and isinstance(opscope.tensor(7).item(), int)
    with pytest.raises(ValueError, match="only one element tensors"):
        t.item()
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(t)
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(opscope.tensor(1.0))
    assert len(t) == 2 and [r.tolist() for r in t] == [[1.5, 2.0], [3.0, 4.25]]
    assert [1, 2, 3][opscope.tensor(1)] == 2  # __index__


def test_requires_grad_only_for_floats():
    assert opscope.ones(2, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        opscope.ones(2, dtype=opscope.int64).requires_grad_()


# --- the schema-driven parser ---------------------------------------------------------------------
def test_positional_keyword_defaults_and_varargs():
    a = opscope.ones(2, 3)
    assert opscope.add(a, a, alpha=2).tolist() == [[3.0] * 3] * 2
    assert opscope.add(input=a, other=a).tolist() == [[2.0] * 3] * 2
    assert a.view(3, 2).shape == (3, 2) and a.view((3, 2)).shape == (3, 2) and a.view([6]).shape == (6,)
    assert opscope.zeros(2, 3).shape == (2, 3) and opscope.zeros((2, 3)).shape == (2, 3)
    assert opscope.zeros(2, dtype=float).dtype is opscope.float64  # Python types are dtypes
    out = opscope.empty(2, 3)
    r = opscope.add(a, a, out=out)
    assert r is out and out.tolist() == [[2.0] * 3] * 2


def test_parser_errors_say_what_was_expected():
    a = opscope.ones(2, 2)
    with pytest.raises(TypeError, match=r"add\(\) received an invalid combination of arguments - got \(Tensor, str\)"):
        opscope.add(a, "x")
    with pytest.raises(TypeError, match=r"\* \(Tensor input, Tensor other, \*, Number alpha, Tensor out\)\n \* \(Tensor input, Number other, Number alpha\)"):
        opscope.add(a, "x")
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'beta'"):
        opscope.mm(a, a, beta=2)
    with pytest.raises(TypeError, match=r"mm\(\): argument 'mat2' \(position 2\) must be Tensor, not int"):
        opscope.mm(a, 3)
    with pytest.raises(TypeError, match=r"missing 1 required positional argument"):
        opscope.mm(a)


def test_numbers_as_tensors_pick_the_tensor_overload():
    with recorded() as rec:
        opscope.add(opscope.ones(2), 2)
        opscope.ones(2) * 3
    ops = [s["op"] for s in rec.steps if s["depth"] == 0]
    assert "aten::add.Tensor" in ops and "aten::mul.Tensor" in ops


# --- dispatcher tools -----------------------------------------------------------------------------
def test_dispatch_dump_table_format():
    table = opscope._C._dispatch_dump_table("aten::mm")
    lines = table.splitlines()
    assert any(l.startswith("CPU: registered at core/ops/") and l.endswith("[kernel]") for l in lines)
    assert "BackendSelect: fallthrough registered at core/ops/fallbacks.cpp" in table
    assert "[backend fallback]" in table
    dump = opscope._C._dispatch_dump("aten::mm")
    assert dump.startswith("name: aten::mm\nschema: aten::mm(Tensor self, Tensor mat2) -> Tensor\n")
    matmul = opscope._C._dispatch_dump_table("aten::matmul")
    assert "AutogradCPU: registered at" in matmul and "[math kernel]" in matmul


def test_keys_and_tls_sets():
    t = opscope.ones(1)
    assert repr(opscope._C._dispatch_keys(t)) == "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)"
    assert repr(opscope._C._dispatch_tls_local_include_set()) == "DispatchKeySet(BackendSelect, ADInplaceOrView)"
    assert repr(opscope._C._dispatch_tls_local_exclude_set()) == "DispatchKeySet()"


def test_matmul_trace_shows_the_decomposition():
    a, b = opscope.ones(2, 3), opscope.ones(3, 4)
    with recorded() as rec:
        opscope.matmul(a, b)
    top = rec.steps[0]
    assert top["op"] == "aten::matmul" and top["key"] == "AutogradCPU"
    assert top["provenance"] == "math kernel" and top["registered_key"] == "CompositeImplicitAutograd"
    assert repr(top["arg_key_sets"][0]) == "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)"
    children = [(s["op"], s["key"], s["depth"]) for s in rec.steps[1:]]
    # mm has a derivative: its Autograd kernel runs, then redispatches to the CPU (as in torch)
    assert children == [("aten::mm", "AutogradCPU", 1), ("aten::mm", "CPU", 2)]


def test_factories_go_through_backend_select():
    with recorded() as rec:
        opscope.zeros(2)
    steps = [(s["op"], s["key"]) for s in rec.steps]
    assert steps[0] == ("aten::zeros", "BackendSelect")
    assert ("aten::zeros", "CPU") in steps


def test_python_kernel_registration_is_undone_by_its_handle():
    lib = opscope._C._Library("FRAGMENT", "opscope_test")
    d = lib.define("twice(Tensor self) -> Tensor")
    h = lib.impl("twice", "CPU", lambda x: x + x)
    f = opscope.ops.opscope_test.twice.default
    assert f(opscope.ones(2)).tolist() == [2.0, 2.0]
    assert "opscope_test::twice" in opscope._C._all_op_names()
    h.remove()
    with pytest.raises(NotImplementedError, match="Could not run 'opscope_test::twice' with arguments from the 'CPU' backend"):
        f(opscope.ones(2))
    d.remove()


def test_ops_namespace():
    a = opscope.ones(2)
    assert opscope.ops.aten.add.Tensor(a, a, alpha=3).tolist() == [4.0, 4.0]
    assert "Tensor" in opscope.ops.aten.add.overloads()
    assert opscope.ops.aten.add(a, a).tolist() == [2.0, 2.0]
    with pytest.raises(AttributeError):
        opscope.ops.aten.add.NoSuchOverload


def test_every_declared_aten_op_has_a_python_entry():
    for full in opscope._C._all_op_names():
        ns, rest = full.split("::")
        name, _, overload = rest.partition(".")
        if ns != "aten":
            continue
        packet = getattr(opscope.ops.aten, name)
        assert (overload or "default") in packet.overloads(), full
        assert callable(getattr(packet, overload or "default"))


# --- NumPy / DLPack / tensor() --------------------------------------------------------------------
def test_numpy_shares_memory_both_ways():
    t = opscope.zeros(2, 3)
    n = t.numpy()
    n[1, 2] = 5
    assert t[1, 2].item() == 5
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    u = opscope.from_numpy(a)
    assert u.dtype is opscope.float64
    u[0, 0] = 42
    assert a[0, 0] == 42
    # Non-contiguous arrays keep their strides.
    v = opscope.from_numpy(a[:, ::2])
    assert v.stride() == (3, 2) and v.tolist() == [[42.0, 2.0], [3.0, 5.0]]
    with pytest.raises(ValueError, match="negative"):
        opscope.from_numpy(a[:, ::-1])
    with pytest.raises(TypeError, match="can't convert np.ndarray of type"):
        opscope.from_numpy(np.zeros(2, dtype=np.complex64))
    # The array keeps the tensor's memory alive.
    n2 = opscope.ones(4).numpy()
    gc.collect()
    assert n2.tolist() == [1.0] * 4
    assert np.asarray(opscope.ones(2)).tolist() == [1.0, 1.0]


def test_dlpack_roundtrip_with_numpy():
    t = opscope.arange(6, dtype=opscope.int32).view(2, 3)
    a = np.from_dlpack(t)  # NumPy marks DLPack imports read-only
    assert a.tolist() == [[0, 1, 2], [3, 4, 5]] and a.dtype == np.int32
    t[0, 0] = 9
    assert a[0, 0] == 9
    back = opscope.from_dlpack(np.arange(4.0))
    assert back.tolist() == [0.0, 1.0, 2.0, 3.0] and back.dtype is opscope.float64
    assert t.__dlpack_device__() == (1, 0)


def test_tensor_from_data_infers_like_torch():
    assert opscope.tensor([1, 2]).dtype is opscope.int64
    assert opscope.tensor([1, 2.5]).dtype is opscope.float32
    assert opscope.tensor([True, False]).dtype is opscope.bool
    assert opscope.tensor([True, 2]).dtype is opscope.int64
    assert opscope.tensor(3.5).shape == () and opscope.tensor([]).shape == (0,)
    assert opscope.tensor(np.zeros(3, dtype=np.float64)).dtype is opscope.float64
    assert opscope.tensor([[1, 2]], dtype=opscope.float16).dtype is opscope.float16
    assert opscope.tensor([opscope.tensor(1.0), opscope.tensor(2.0)]).tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="expected sequence of length 2 at dim 1 \\(got 3\\)"):
        opscope.tensor([[1, 2], [1, 2, 3]])
    with pytest.raises(TypeError, match="new\\(\\): invalid data type 'str'"):
        opscope.tensor(["a"])


def test_in_place_writes_bump_the_shared_version_counter():
    t = opscope.zeros(4)
    v = t[1:]
    assert t._version == 0
    t.add_(1)
    assert t._version == 1 and v._version == 1  # shared with views
    v[0] = 5  # fill_ through a view of a view
    assert t._version == 2
    opscope.add(t, t, out=opscope.empty(4))
    assert t._version == 2  # only the out tensor is written
    with recorded() as rec:
        t.mul_(2)
    assert [(s["op"], s["key"]) for s in rec.steps] == [
        ("aten::mul_.Tensor", "AutogradCPU"), ("aten::mul_.Tensor", "ADInplaceOrView"),
        ("aten::mul_.Tensor", "CPU")]


def test_python_registration_site_is_the_callers_line():
    lib = opscope._C._Library("FRAGMENT", "opscope_site")
    d = lib.define("f(Tensor self) -> Tensor")
    h = lib.impl("f", "CPU", lambda x: x)
    line = test_python_registration_site_is_the_callers_line.__code__.co_firstlineno + 3
    assert f"test_binding.py:{line} [kernel]" in opscope._C._dispatch_dump_table("opscope_site::f")
    h.remove()
    d.remove()


def test_int_lists_take_varargs_only_as_the_sole_positional_parameter():
    """torch's rule: `t.view(2, 3)` packs ints, but an int[] among other positional parameters
    wants a list (a single int only for int[N])."""
    t = opscope.arange(12).reshape(3, 4)
    assert t.view(12).shape == (12,) and t.permute(1, 0).shape == (4, 3) and t.flip(0).shape == (3, 4)
    assert [p.shape for p in t.tensor_split(3, 1)] == [(3, 2), (3, 1), (3, 1)]  # sections=3, dim=1
    assert opscope.amax(t, 0).tolist() == [8, 9, 10, 11]  # int[1] takes one int
    with pytest.raises(TypeError, match=r"flip\(\): argument 'dims' \(position 2\) must be tuple of ints, not int"):
        opscope.flip(t, 0)
    with pytest.raises(TypeError, match=r"got \(int, int\)"):
        t.sum(0, 1)


def test_several_out_tensors_come_as_one_tuple():
    """torch's out=(values, indices) for ops with two named returns: the tensors given are
    written and returned in the `*_out` named tuple; a tuple of the wrong length or with a
    non-tensor is torch's TypeError; the signature lists `tuple of Tensors out`."""
    x = opscope.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    v, i = opscope.empty(0), opscope.empty(0, dtype=opscope.int64)
    r = opscope.sort(x, 1, out=(v, i))
    assert type(r).__name__ == "sort_out" and r.values is v and r.indices is i
    assert v.tolist() == [[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]] and i.tolist() == [[1, 2, 0], [0, 2, 1]]
    r = opscope.max(x, 1, out=[v, i])  # a list too, as torch
    assert r.values is v and v.tolist() == [3.0, 5.0] and i.tolist() == [0, 1]
    assert opscope.median(x, 1, out=(v, i)).indices.tolist() == [2, 2]
    with pytest.raises(TypeError, match="^expected tuple of 2 elements but got 1$"):
        opscope.sort(x, 1, out=(v,))
    with pytest.raises(TypeError, match="^expected Tensor as element 1 in argument 3, but got int$"):
        opscope.sort(x, 1, out=(v, 3))
    with pytest.raises(TypeError, match=r"\(Tensor input, int dim, bool descending, \*, tuple of Tensors out\)"):
        opscope.sort(x, 1, out=v)


def test_invalid_combination_lists_the_arguments_as_torch_does():
    """Methods leave out self; keyword arguments come in reverse order; with no positional
    argument before them each keeps its trailing ', ' (torch 1.13's own formatting)."""
    t = opscope.ones(2)
    with pytest.raises(TypeError, match=re.escape("std() received an invalid combination of arguments - got (correction=int, ),")):
        t.std(correction=0)
    with pytest.raises(TypeError, match=re.escape("got (Tensor, correction=int),")):
        opscope.std(t, correction=0)
    with pytest.raises(TypeError, match=re.escape("got (Tensor, max=int, min=Tensor),")):
        opscope.clamp(t, min=t, max=7)
