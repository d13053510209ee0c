"""Storages (x.storage(), x._storage(), TypedStorage, UntypedStorage, FloatStorage ...) and
Tensor.view(dtype), against torch 1.13's behaviour (outputs and messages checked by hand against
torch 1.13.1: values are NumPy's reading of the same bytes)."""
import copy

import numpy as np
import pytest

import opscope


def test_storage_is_the_whole_buffer_from_element_zero():
    base = opscope.arange(6.)
    x = base.view(2, 3)[:, 1:]
    s = x.storage()
    assert isinstance(s, opscope.TypedStorage) and opscope.is_storage(s)
    assert len(s) == s.size() == 6 and s.dtype == opscope.float32 and s.element_size() == 4
    assert s.nbytes() == 24 and str(s.device) == "cpu" and not s.is_cuda
    assert s.data_ptr() == base.data_ptr() == x.data_ptr() - x.storage_offset() * 4
    assert s.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and list(s) == s.tolist()
    assert s[4] == 4.0 and s[-1] == 5.0 and isinstance(s[0], float)
    # every view of the same memory has the same storage
    assert base.t().storage().data_ptr() == base[3:].storage().data_ptr() == s.data_ptr()
    assert opscope.arange(6.).storage().data_ptr() != s.data_ptr()


def test_writes_through_a_storage_are_seen_by_the_tensors():
    x = opscope.zeros(2, 3)
    s = x.storage()
    s[4] = 7
    assert x[1, 1].item() == 7.0
    v = x[1]
    v.storage()[0] = -1
    assert x[0, 0].item() == -1.0
    s.fill_(2)
    assert x.tolist() == [[2.0] * 3] * 2


def test_repr_as_torch():
    s = opscope.tensor([0.1, 2]).storage()
    assert repr(s) == (" 0.10000000149011612\n 2.0\n"
                       "[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 2]")
    assert str(opscope.tensor([True]).storage()) == (
        " True\n[torch.storage.TypedStorage(dtype=torch.bool, device=cpu) of size 1]")
    assert repr(opscope.FloatStorage(0)) == (
        " \n[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 0]")
    u = opscope.arange(3.)._storage()[0:4]
    assert repr(u) == " 0\n 0\n 0\n 0\n[torch.storage.UntypedStorage(device=cpu) of size 4]"


def test_untyped_storage_is_the_bytes():
    x = opscope.tensor([1.0, -2.5, 3.0])
    u = x._storage()
    assert isinstance(u, opscope.UntypedStorage) and len(u) == u.nbytes() == 12
    assert u.element_size() == 1 and u.data_ptr() == x.data_ptr()
    assert bytes(u.tolist()) == np.array([1.0, -2.5, 3.0], dtype=np.float32).tobytes()
    assert x.untyped_storage().tolist() == u.tolist()
    assert x.storage().untyped().tolist() == u.tolist()
    # a slice of bytes shares the memory
    u[4:8].fill_(0)
    assert x.tolist() == [1.0, 0.0, 3.0]
    with pytest.raises(RuntimeError, match="step of 2"):
        u[::2]
    assert u.type() == "torch.storage.UntypedStorage"


def test_index_errors():
    s = opscope.arange(2.).storage()
    with pytest.raises(IndexError, match="index 5 out of range for storage of size 2"):
        s[5]
    with pytest.raises(IndexError, match="out of range for storage of size 8"):
        opscope.arange(2.)._storage()[10]  # torch 1.13 reads past the buffer here
    with pytest.raises(RuntimeError, match="slices are only supported in UntypedStorage.__getitem__"):
        s[0:1]


def test_constructors_and_legacy_classes():
    f = opscope.FloatStorage(3)
    assert isinstance(f, opscope.TypedStorage) and f.dtype == opscope.float32 and len(f) == 3
    assert type(f).__name__ == "FloatStorage"
    d = opscope.DoubleStorage([1, 2])
    assert d.dtype == opscope.float64 and d.tolist() == [1.0, 2.0]
    assert opscope.TypedStorage([1, 2]).dtype == opscope.float32
    assert opscope.TypedStorage(4, dtype=opscope.int64).dtype == opscope.int64
    assert opscope.LongStorage([5]).type() == "torch.LongStorage"
    assert opscope.arange(3.).storage_type() is opscope.FloatStorage
    assert opscope.arange(3).storage().type() == "torch.LongStorage"
    with pytest.raises(RuntimeError, match="Keyword argument 'dtype' cannot be specified"):
        opscope.FloatStorage(3, dtype=opscope.float64)
    assert opscope.UntypedStorage(5).nbytes() == 5


def test_conversions_copy_clone():
    s = opscope.tensor([1.5, 2.5]).storage()
    assert s.double().dtype == opscope.float64 and s.double().tolist() == [1.5, 2.5]
    assert s.long().tolist() == [1, 2] and s.float() is s
    assert s.type(opscope.DoubleStorage).dtype == opscope.float64
    assert s.type("torch.IntStorage").tolist() == [1, 2]
    c = s.clone()
    c[0] = 9
    assert s[0] == 1.5 and c.data_ptr() != s.data_ptr()
    t = opscope.FloatStorage(2)
    t.copy_(s)
    assert t.tolist() == [1.5, 2.5]
    with pytest.raises(RuntimeError, match="size mismatch"):
        opscope.FloatStorage(3).copy_(s)
    assert copy.deepcopy(s).tolist() == [1.5, 2.5]


def test_is_set_to():
    x = opscope.arange(6.)
    assert x.is_set_to(x) and x.is_set_to(x.view(6)) and not x.is_set_to(x.view(2, 3))
    assert not x.is_set_to(x.clone())


def test_storage_of_a_grad_tensor_is_outside_autograd():
    w = opscope.ones(3, requires_grad=True)
    s = w.storage()
    assert s.tolist() == [1.0, 1.0, 1.0]
    (w * 2).sum().backward()
    assert w.grad.storage().tolist() == [2.0, 2.0, 2.0]


# --- Tensor.view(dtype) -------------------------------------------------------------------------

@pytest.mark.parametrize("src,dst", [("float32", "int32"), ("float32", "uint8"),
                                     ("float64", "float32"), ("int16", "float64"),
                                     ("int64", "float64"), ("uint8", "bool"), ("float16", "int16")])
def test_view_dtype_reads_the_same_bytes(src, dst):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((3, 8)) * 10).astype(src) if src != "uint8" else \
        rng.integers(0, 2, (3, 8)).astype(src)
    x = opscope.tensor(a)
    y = x.view(getattr(opscope, dst))
    np.testing.assert_array_equal(y.numpy(), a.view(dst))
    assert y.data_ptr() == x.data_ptr() and y._base is x


def test_view_dtype_geometry_and_sharing():
    x = opscope.arange(12.).view(3, 4)
    y = x[:, :2].view(opscope.float64)       # strides (4, 1) -> (2, 1), size (3, 1)
    assert y.shape == (3, 1) and y.stride() == (2, 1)
    b = x[1:].view(opscope.int16)            # offset 4 floats -> 8 shorts
    assert b.shape == (2, 8) and b.stride() == (8, 1) and b.storage_offset() == 8
    z = x.view(opscope.int32)
    z[0, 0] = 1065353216                     # the bits of 1.0
    assert x[0, 0].item() == 1.0 and x._version == z._version
    assert opscope.tensor(3.).view(opscope.int32).item() == 1077936128
    assert opscope.tensor(3.).view(opscope.int32).shape == ()
    assert x.t().view(opscope.int32).shape == (4, 3)  # same size: any strides


@pytest.mark.parametrize("make,dtype,message", [
    (lambda: opscope.arange(6.).view(2, 3).t(), "int16",
     "self.stride(-1) must be 1 to view Float as Short (different element sizes), but got 3"),
    (lambda: opscope.arange(6.)[:5], "float64",
     "self.size(-1) must be divisible by 2 to view Float as Double (different element sizes), "
     "but got 5"),
    (lambda: opscope.arange(6.)[1:5], "float64",
     "self.storage_offset() must be divisible by 2 to view Float as Double (different element "
     "sizes), but got 1"),
    (lambda: opscope.arange(35.).view(5, 7)[1:, 1:3], "float64",
     "self.stride(0) must be divisible by 2 to view Float as Double (different element sizes), "
     "but got 7"),
    (lambda: opscope.tensor(3.), "int16",
     "self.dim() cannot be 0 to view Float as Short (different element sizes)"),
])
def test_view_dtype_errors(make, dtype, message):
    with pytest.raises(RuntimeError) as e:
        make().view(getattr(opscope, dtype))
    assert str(e.value) == message


def test_view_dtype_is_not_differentiable():
    w = opscope.arange(6., requires_grad=True) * 1
    assert w.view(opscope.float32).grad_fn is None and not w.view(opscope.int32).requires_grad


def test_reading_and_writing_a_storage_runs_no_op():
    # torch's storages run no aten op; a trace of them must not teach otherwise
    x, zeros = opscope.arange(6.), opscope.zeros(6)
    with opscope.trace() as t:
        s = x.storage()
        s[1], s.tolist(), len(s), s.data_ptr()
        s[2] = 5
        s.fill_(1)
        s.untyped().tolist()
        x._storage().copy_(zeros.storage())
    assert [op.name for op in t.ops] == []
    assert x.tolist() == [0.0] * 6
