"""Storages: the flat memory under tensors, as torch 1.13 shows it to Python.

``x.storage()`` is a ``TypedStorage``: the whole buffer under ``x`` — from its element 0, not
from ``x``'s offset — read as ``x``'s dtype; ``x._storage()`` (``x.untyped_storage()`` in
torch 2) is an ``UntypedStorage``, the same memory as bytes. Views share their base's storage, so
``x[1:].storage().data_ptr() == x.storage().data_ptr()``; a write through a storage is seen by
every tensor over it. As in torch, each call makes a new storage object over the same memory.

A storage here is a Python object holding a 1-D tensor over all of the memory (element 0 on,
stride 1), made without running an op: torch's storages run none, so a trace of ``x.storage()[0]``
shows none. On the CPU, elements are read and written through NumPy's view of that memory; on a
GPU (and for bfloat16, which NumPy lacks) through ops on the tensor, as torch copies there too.

>>> import opscope
>>> x = opscope.arange(6.).view(2, 3)[:, 1:]
>>> s = x.storage()
>>> len(s), s.dtype, s[4], s.data_ptr() == x.data_ptr() - x.storage_offset() * 4
(6, torch.float32, 4.0, True)
>>> x._storage().nbytes()
24
"""

import opscope
from opscope import _C

__all__ = ["TypedStorage", "UntypedStorage"]


def _flat(tensor, dtype=None):
    """A 1-D tensor over all of tensor's storage, outside autograd, read as `dtype`."""
    return tensor._storage_flat(dtype)


def _check_index(idx, size):
    if not isinstance(idx, int) or isinstance(idx, bool):
        raise RuntimeError(f"can't index a {type(idx).__name__!r} with {type(idx)}")
    if not -size <= idx < size:
        raise IndexError(f"index {idx} out of range for storage of size {size}")
    return idx % size if size else idx


def _new_flat(size_or_data, dtype, device):
    if isinstance(size_or_data, int) and not isinstance(size_or_data, bool):
        if size_or_data < 0:
            raise RuntimeError(f"Storage size must be non-negative, got {size_or_data}")
        return opscope.empty(size_or_data, dtype=dtype, device=device)
    return opscope.tensor(list(size_or_data), dtype=dtype, device=device).reshape(-1)


class _StorageBase:
    """What both storages share; `_data` is the 1-D tensor over all of the memory."""

    __slots__ = ("_data",)

    def _array(self):
        """NumPy's view of the memory (no op runs), or None where ops must do it (GPU, bf16)."""
        if self._data.device.type != "cpu" or self._data.dtype == opscope.bfloat16:
            return None
        return self._data.numpy()

    def __len__(self):
        return self._data.numel()

    def size(self):
        return self._data.numel()

    def nbytes(self):
        return self._data.numel() * self._data.element_size()

    def data_ptr(self):
        return self._data.data_ptr()

    @property
    def device(self):
        return self._data.device

    @property
    def is_cuda(self):
        return self._data.device.type == "cuda"

    is_sparse = False

    def get_device(self):
        return self._data.device.index if self.is_cuda else -1

    def is_pinned(self):
        return self._data.is_pinned()

    def is_shared(self):
        return False

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        a = self._array()
        return a.tolist() if a is not None else self._data.tolist()

    def fill_(self, value):
        a = self._array()
        if a is not None:
            a.fill(value)
        else:
            self._data.fill_(value)
        return self

    def _get(self, idx):
        a = self._array()
        return a[idx].item() if a is not None else self._data[idx].item()

    def __setitem__(self, idx, value):
        self._set(idx if isinstance(idx, slice) else _check_index(idx, len(self)), value)

    def _set(self, idx, value):
        a = self._array()
        if a is not None:
            a[idx] = value
        else:
            self._data[idx] = value

    def _wrap(self, data):
        out = object.__new__(type(self))
        out._data = data
        return out

    def clone(self):
        return self._wrap(self._data.clone())

    def cpu(self):
        return self if not self.is_cuda else self._wrap(self._data.cpu())

    def cuda(self, device=None, non_blocking=False):
        return self._wrap(self._data.cuda(device, non_blocking))

    def pin_memory(self):
        return self._wrap(self._data.pin_memory())

    def __copy__(self):
        return self._wrap(self._data)

    def __deepcopy__(self, memo):
        key = ("storage", self.data_ptr(), self.nbytes(), type(self))
        if key not in memo:
            memo[key] = self.clone()
        return memo[key]

    def __sizeof__(self):
        return super().__sizeof__() + self.nbytes()

    def __str__(self):
        info = f"[{self._type_name()} of size {len(self)}]"
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __repr__ = __str__


def _check_storage(source):
    if not isinstance(source, _StorageBase):
        raise TypeError(f"copy_(): expected a storage, got {type(source).__name__}")


def _copy(dst, src, non_blocking):
    a, b = dst._array(), src._array()
    if a is not None and b is not None:
        a[...] = b
    else:
        dst._data.copy_(src._data, non_blocking)


class UntypedStorage(_StorageBase):
    """Bytes: ``UntypedStorage(n)`` (uninitialized), ``UntypedStorage([1, 2])``, or a tensor's
    ``_storage()``. Indexing reads and writes bytes; a slice is a storage over those bytes."""

    __slots__ = ()

    def __init__(self, size_or_data=0, *, device=None):
        self._data = _new_flat(size_or_data, opscope.uint8, device)

    @classmethod
    def _over(cls, tensor):
        out = object.__new__(cls)
        out._data = _flat(tensor, opscope.uint8)
        return out

    def element_size(self):
        return 1

    def _type_name(self):
        return f"torch.storage.UntypedStorage(device={self.device})"

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            start, stop, step = idx.indices(len(self))
            if step != 1:
                raise RuntimeError(f"Trying to slice with a step of {step}, but only a step of 1 "
                                   "is supported")
            return self._wrap(self._data[start:max(start, stop)])
        return self._get(_check_index(idx, len(self)))

    def copy_(self, source, non_blocking=False):
        _check_storage(source)
        src = source.untyped() if isinstance(source, TypedStorage) else source
        if len(src) != len(self):
            raise RuntimeError(f"size mismatch, {self.nbytes()} bytes vs {src.nbytes()} bytes")
        _copy(self, src, non_blocking)
        return self

    def type(self):
        return "torch.storage.UntypedStorage"


class TypedStorage(_StorageBase):
    """Elements of one dtype: ``TypedStorage(n, dtype=...)``, ``TypedStorage([1., 2.])``, or a
    tensor's ``storage()``. Indexing takes and gives Python numbers, as torch's does."""

    __slots__ = ()
    _fixed_dtype = None  # the legacy classes (FloatStorage) fix it

    def __init__(self, *args, dtype=None, device=None):
        if self._fixed_dtype is not None:
            if dtype is not None:
                raise RuntimeError(
                    f"{type(self)}.__new__ received an invalid combination of arguments. Expected "
                    "one of:\n * no arguments\n * (int size)\n * (Sequence data)\n * (*, "
                    "UntypedStorage wrap_storage)\nKeyword argument 'dtype' cannot be specified")
            dtype = self._fixed_dtype
        dtype = dtype if dtype is not None else opscope.get_default_dtype()
        if len(args) > 1:
            raise TypeError(f"{type(self).__name__}(): expected at most one argument (a size "
                            f"or a sequence), got {len(args)}")
        self._data = _new_flat(args[0] if args else 0, dtype, device)

    @classmethod
    def _over(cls, tensor):
        out = object.__new__(cls)
        out._data = _flat(tensor)
        return out

    @property
    def dtype(self):
        return self._data.dtype

    def element_size(self):
        return self._data.element_size()

    def _type_name(self):
        return f"torch.storage.TypedStorage(dtype={self.dtype}, device={self.device})"

    def untyped(self):
        """The same memory as bytes."""
        out = object.__new__(UntypedStorage)
        out._data = self._data._storage_flat(opscope.uint8)
        return out

    _untyped = untyped

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        return self._get(_check_index(idx, len(self)))

    def copy_(self, source, non_blocking=False):
        _check_storage(source)
        if len(source) != len(self) and not isinstance(source, UntypedStorage):
            raise RuntimeError(f"size mismatch, {len(self)} vs {len(source)}")
        if isinstance(source, UntypedStorage):
            self.untyped().copy_(source, non_blocking)
        else:
            _copy(self, source, non_blocking)  # converts, as torch's does
        return self

    def _to(self, dtype):
        return self if dtype == self.dtype else self._wrap(self._data.to(dtype))

    def type(self, dtype=None, non_blocking=False):
        """Without an argument the legacy type name ('torch.FloatStorage'); with a dtype or a
        legacy storage class, a copy as that dtype."""
        if dtype is None:
            prefix = "torch.cuda." if self.is_cuda else "torch."
            return prefix + _LEGACY_NAMES[self.dtype]
        if isinstance(dtype, type) and issubclass(dtype, TypedStorage) and dtype._fixed_dtype:
            dtype = dtype._fixed_dtype
        if isinstance(dtype, str):
            dtype = _BY_NAME[dtype.rsplit(".", 1)[-1]]
        return self._to(dtype)

    def double(self): return self._to(opscope.float64)
    def float(self): return self._to(opscope.float32)
    def half(self): return self._to(opscope.float16)
    def bfloat16(self): return self._to(opscope.bfloat16)
    def long(self): return self._to(opscope.int64)
    def int(self): return self._to(opscope.int32)
    def short(self): return self._to(opscope.int16)
    def char(self): return self._to(opscope.int8)
    def byte(self): return self._to(opscope.uint8)
    def bool(self): return self._to(opscope.bool)


# torch's legacy storage classes: FloatStorage(3) is a TypedStorage of float32.
_LEGACY = [("FloatStorage", "float32"), ("DoubleStorage", "float64"), ("HalfStorage", "float16"),
           ("BFloat16Storage", "bfloat16"), ("LongStorage", "int64"), ("IntStorage", "int32"),
           ("ShortStorage", "int16"), ("CharStorage", "int8"), ("ByteStorage", "uint8"),
           ("BoolStorage", "bool")]
_LEGACY_NAMES = {}
_BY_NAME = {}


def _make_legacy(name, dtype):
    cls = type(name, (TypedStorage,), {"__slots__": (), "_fixed_dtype": dtype,
                                         "__module__": "opscope", "__doc__":
                                         f"torch's legacy {name}: a TypedStorage of {dtype}."})
    _LEGACY_NAMES[dtype] = name
    _BY_NAME[name] = dtype
    return cls


LEGACY_CLASSES = {name: _make_legacy(name, getattr(opscope, dtype)) for name, dtype in _LEGACY}


def is_storage(obj):
    """True when obj is a storage (typed or untyped)."""
    return isinstance(obj, _StorageBase)


def _install():
    Tensor = _C.Tensor
    from opscope._tensor import _method
    Tensor.storage = _method(lambda self: TypedStorage._over(self), "storage")
    Tensor._storage = _method(lambda self: UntypedStorage._over(self), "_storage")
    Tensor.untyped_storage = _method(lambda self: UntypedStorage._over(self), "untyped_storage")
    Tensor.storage_type = _method(
        lambda self: LEGACY_CLASSES[_LEGACY_NAMES[self.dtype]], "storage_type")

    def is_set_to(self, tensor):
        """True when both tensors have the same storage, offset, sizes and strides."""
        if not isinstance(tensor, Tensor):
            raise TypeError(f"is_set_to(): argument 'tensor' (position 1) must be Tensor, not "
                            f"{type(tensor).__name__}")
        mine, theirs = self._storage(), tensor._storage()
        return (mine.data_ptr() == theirs.data_ptr() and mine.nbytes() == theirs.nbytes()
                and self.storage_offset() == tensor.storage_offset()
                and self.dtype == tensor.dtype and self.device == tensor.device
                and self.size() == tensor.size() and self.stride() == tensor.stride())
    Tensor.is_set_to = _method(is_set_to, "is_set_to")
