"""The Python half of ``opscope.Tensor``: printing, conversions and the torch methods that are
conveniences over ops rather than ops of their own. The C++ half (attributes, operators, every
schema-derived method) lives in core/python/tensor_type.cpp and ops.cpp."""

import copy
import io

import opscope
from opscope import _C, _tensor_str
from opscope.utils.hooks import RemovableHandle

Tensor = _C.Tensor


def _repr(self, *, tensor_contents=None):
    # A CUDA tensor prints from a CPU copy, as torch's does (without recording a graph).
    values = _C._numpy_for_print(self if self.device.type == "cpu" else self.detach().to("cpu"))
    return _tensor_str.format_tensor(
        values,
        dtype_name=str(self.dtype)[len("torch."):],
        default_float_dtype=str(opscope.get_default_dtype())[len("torch."):],
        device=str(self.device),
        requires_grad=self.requires_grad,
        grad_fn_name=type(self.grad_fn).__name__ if self.grad_fn is not None else None,
        is_leaf=self.is_leaf,
        tensor_name=_print_name(type(self)),
    )


def _print_name(cls):
    """What torch's repr opens with: tensor( for a Tensor or Parameter, a subclass's own name."""
    if cls is Tensor:
        return "tensor"
    from opscope.nn.parameter import Parameter
    return "tensor" if cls is Parameter else cls.__name__


def _format(self, spec):
    if self.dim() == 0:
        return self.item().__format__(spec)
    return object.__format__(self, spec)


_to_op = Tensor.to  # the schema-derived method (aten::to.dtype)


def _to(self, *args, **kwargs):
    """to(dtype) / to(device) / to(device, dtype) / to(other): a tensor with that dtype (and
    device), or self when nothing changes (unless copy=True)."""
    dtype, device = kwargs.pop("dtype", None), kwargs.pop("device", None)
    flags = []  # positional non_blocking, copy (torch's order), after the target
    for a in args:
        if isinstance(a, bool):
            flags.append(a)
        elif isinstance(a, opscope.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        elif isinstance(a, (str, opscope.device, int)):
            device = a
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({type(a).__name__})")
    if len(flags) > 2:
        raise TypeError("to() received an invalid combination of arguments - too many bools "
                        "(non_blocking, copy)")
    for name, flag in zip(("non_blocking", "copy"), flags):
        kwargs.setdefault(name, flag)
    if device is not None:
        dev = opscope.device("cuda", device) if isinstance(device, int) else opscope.device(device)
        if dev.type == "cuda":
            opscope.cuda._lazy_init()  # torch's lazy initialisation; without CUDA, its error
        elif dev.type != "cpu" and dev.type != self.device.type:
            raise RuntimeError(f"opscope has no {dev.type} backend in this build")
        return _to_op(self, dtype=dtype, device=dev, **kwargs)
    if dtype is None:
        return self if not kwargs.get("copy") else self.clone()
    return _to_op(self, dtype, **kwargs)


def _cast(dtype):
    def cast(self):
        return _to_op(self, dtype)
    cast.__name__ = str(dtype)[len("torch."):]
    cast.__doc__ = f"self.to({dtype})"
    return cast


def _new_factory(factory):
    def new(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        size = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        return factory(*((size,) if factory is not opscope.tensor else size), dtype=dtype or self.dtype,
                       device=device or self.device, requires_grad=requires_grad, **kwargs)
    return new


def _new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    """A new tensor holding a copy of data, of self's dtype unless dtype is given."""
    if isinstance(data, Tensor):
        import warnings
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() "
                      "or sourceTensor.clone().detach().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
        data = data.detach()
    return opscope.tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                          requires_grad=requires_grad)


def _new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """A tensor of `size` filled with fill_value, of self's dtype unless dtype is given."""
    return opscope.full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                        requires_grad=requires_grad, **kwargs)


def _cpu(self, memory_format=None):
    """A copy of self in CPU memory; self if it is there."""
    return self if self.device.type == "cpu" else _to(self, "cpu")


def _cuda(self, device=None, non_blocking=False, memory_format=None):
    """A copy of self on a CUDA device (the current one by default); self if it is there."""
    index = opscope.cuda._get_device_index(device, optional=True)
    return _to(self, opscope.device("cuda", index) if index >= 0 else "cuda", non_blocking=non_blocking)


_tolist_in_place = Tensor.tolist  # C++: reads the values where they are, on the host


def _tolist(self):
    """The values as (nested lists of) Python numbers; a CUDA tensor's are copied to the host
    first, as torch's tolist does."""
    return _tolist_in_place(self.detach().to("cpu") if self.is_cuda else self)


def _record_stream(self, stream):
    """Marks this CUDA tensor's memory as used by `stream`: the caching allocator will not reuse
    it, once freed, before the work queued on `stream` so far is done."""
    opscope.cuda._lazy_init()
    if not isinstance(stream, opscope.cuda.Stream):
        raise TypeError(f"record_stream(): argument 'stream' must be Stream, not {type(stream).__name__}")
    _C._cuda_recordStream(self, stream._cdata)


def _is_pinned(self, device=None):
    """Whether this tensor lives in page-locked host memory (Tensor.pin_memory())."""
    return self.device.type == "cpu" and opscope.cuda._is_compiled() and _C._cuda_isPinned(self)


def _pin_memory(self, device=None):
    """A copy of this CPU tensor in page-locked host memory, from which copies to the GPU run
    asynchronously (non_blocking=True); self if it is pinned already."""
    if self.device.type != "cpu":
        raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
    if not opscope.cuda._is_compiled():
        raise RuntimeError("Pinned memory requires CUDA.")
    opscope.cuda._lazy_init()
    return self if _is_pinned(self) else _C._cuda_pinMemory(self)


def _T(self):
    return self.permute(*reversed(range(self.dim())))


def _is_complex(self):
    """True for a complex dtype (opscope has none yet: always False)."""
    return self.dtype.is_complex


def _is_signed(self):
    """True when the dtype holds negative values: every dtype but uint8 and bool."""
    return self.dtype.is_signed


def _get_device(self):
    """The index of the CUDA device the tensor is on; -1 for a CPU tensor."""
    return self.device.index if self.device.type == "cuda" else -1


def _where(self, condition, y):
    """self.where(condition, y) is torch.where(condition, self, y): the schema's `self` is not
    its first argument, so the method is written here."""
    return opscope.where(condition, self, y)


def _polygamma(self, n):
    """self.polygamma(n) is torch.polygamma(n, self): the schema's `self` is not its first
    argument, so the method is written here."""
    return opscope.polygamma(n, self)


def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates the gradient of this tensor (times `gradient`, which scalars may leave out)
    into the .grad of the leaves it depends on. See opscope.autograd.backward."""
    opscope.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def _detach_(self):
    """Detaches this tensor from the graph that created it, in place."""
    _C._detach_(self)
    return self


def _register_hook(self, hook):
    """Registers hook(grad) -> Tensor or None, called with this tensor's gradient each time one
    is computed; a returned tensor replaces the gradient. Returns a handle with remove()."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    hook_id = _C._register_hook(self, hook)
    return RemovableHandle(lambda: _C._remove_hook(self, hook_id), hook_id)


def _retain_grad(self):
    """Makes backward fill this non-leaf tensor's .grad too."""
    _C._retain_grad(self)


def _data(self):
    """The tensor without its autograd history: same storage, requires_grad False — and, unlike
    detach(), a version counter of its own, so in-place writes through it go unnoticed by
    autograd (as torch's .data; prefer detach())."""
    return _C._data(self)


def _array_wrap(self, array):
    """NumPy's result of a ufunc on tensors, back as a tensor (`t + np.array(2.5)`, `np.sin(t)`),
    as torch does — bool arrays as uint8, torch's workaround kept for the same results."""
    if array.dtype == bool:
        array = array.astype("uint8")
    return opscope.from_numpy(array)


def _deepcopy(self, memo):
    """copy.deepcopy(t): a tensor with its own memory, the same values, strides, requires_grad,
    grad and Python attributes. Views copied in one deepcopy stay views of one copied base (the
    memo holds the base), as torch's storages do."""
    if not self.is_leaf:
        raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the "
                           "deepcopy protocol at the moment")
    if id(self) in memo:
        return memo[id(self)]
    with opscope.no_grad():
        base = _C._view_base(self)
        if base is not None and base.is_leaf:
            new = _deepcopy(base, memo).as_strided(self.size(), self.stride(), self.storage_offset())
        else:
            new = opscope.empty_strided(self.size(), self.stride(), dtype=self.dtype,
                                        device=self.device)  # a CUDA tensor's copy stays there
            new.copy_(self)
    if type(self) is not Tensor:
        new = Tensor._make_subclass(type(self), new, self.requires_grad)
    elif self.requires_grad:
        new.requires_grad_(True)
    if self.grad is not None:
        new.grad = _deepcopy(self.grad, memo)
    memo[id(self)] = new
    for name, value in getattr(self, "__dict__", {}).items():
        setattr(new, name, copy.deepcopy(value, memo))
    return new


def _rebuild_from_bytes(data):
    return opscope.load(io.BytesIO(data))


def _reduce_ex(self, protocol):
    """pickle.dumps(t) / multiprocessing: the tensor as a small torch-format checkpoint in bytes
    (values, dtype, strides, requires_grad, a Parameter as a Parameter), as torch pickles a storage
    by saving it into bytes. Each pickled tensor carries its own memory."""
    buffer = io.BytesIO()
    opscope.save(self, buffer)
    return (_rebuild_from_bytes, (buffer.getvalue(),))


# --- __torch_function__ (see opscope/overrides.py) ------------------------------------------

def _convert(ret, cls):
    """A result of an op on a `cls` object, as `cls` (tensors in tuples and lists too), as the
    default __torch_function__ returns them; other values as they are."""
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        ret = ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        ret = type(ret)([_convert(r, cls) for r in ret])
    return ret


_nowrap = None  # overrides.get_default_nowrap_functions(), once opscope is imported


def __torch_function__(cls, func, types, args=(), kwargs=None):
    """The default override every Tensor subclass inherits: runs func with overrides off and
    returns its tensors as `cls` (except field accesses such as .grad, whose identity must hold).
    NotImplemented when a type among `types` is not one of cls's bases."""
    global _nowrap
    if kwargs is None:
        kwargs = {}
    if not _C._is_torch_function_enabled():
        # opscope never calls an override with overrides off: the caller is a library that does
        # not see opscope's switch (PyTorch's own functions, handed opscope tensors), and running
        # func again would come straight back here until the recursion limit.
        raise TypeError(_foreign_call_message(func))
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with _C.DisableTorchFunction():
        ret = func(*args, **kwargs)
        if _nowrap is None:
            from opscope.overrides import get_default_nowrap_functions
            _nowrap = get_default_nowrap_functions()
        if func in _nowrap:
            return ret
        return _convert(ret, cls)


def _foreign_call_message(func):
    """What a TypeError says when a function of another library (PyTorch's, most often, when
    both are imported) is called on opscope tensors."""
    module = getattr(func, "__module__", None) or ""
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", None) or repr(func)
    if name.startswith("_"):  # torch._VariableFunctionsClass.add is torch.add to its users
        name = getattr(func, "__name__", name)
    where = f"{module}.{name}" if module else name
    if module.split(".")[0] != "torch":
        return f"{where}() was called on opscope tensors but does not run opscope's ops"
    return (f"{where}() is PyTorch's function, not opscope's, and was called on opscope tensors: "
            "call opscope's (`import opscope as torch`, `import opscope.nn.functional as F`), "
            "or give PyTorch tensors of its own (`t.numpy()`, then PyTorch's from_numpy)")


def _method(fn, name=None, builtin=True):
    """A Tensor method written in Python, with the __torch_function__ check of the C++ ones.
    `builtin`: torch writes it in C++ (Tensor.to), so an override gets the arguments as called;
    else (Tensor.__repr__) as torch's Python methods pass them (see overrides.py)."""
    if name is not None:
        fn.__name__ = name
    fn.__qualname__ = "Tensor." + fn.__name__
    wrapper = _C._torch_function_wrapper(fn)
    if builtin:
        wrapper._torch_builtin = True
    return wrapper


def _property(name, fget, fset=None, doc=None):
    """A Tensor property written in Python whose get / set honour __torch_function__ with
    func = Tensor.<name>.__get__ / __set__, as torch's C++ properties do."""
    def get(self):
        if _C._has_torch_function_unary(self):
            from opscope.overrides import handle_torch_function
            return handle_torch_function(getattr(Tensor, name).__get__, (self,), self)
        return fget(self)

    def set_(self, value):
        if _C._has_torch_function_variadic(self, value):
            from opscope.overrides import handle_torch_function
            return handle_torch_function(getattr(Tensor, name).__set__, (self, value), self, value)
        return fset(self, value)
    return property(get, set_ if fset is not None else None, doc=doc or fget.__doc__)


def _install():
    Tensor.__torch_function__ = classmethod(__torch_function__)
    Tensor.__repr__ = _method(_repr, "__repr__", builtin=False)
    Tensor.__str__ = Tensor.__repr__
    Tensor.__format__ = _method(_format, "__format__", builtin=False)
    Tensor.__array_priority__ = 1000  # numpy_scalar * tensor -> Tensor.__rmul__
    Tensor.__array_wrap__ = _method(_array_wrap, "__array_wrap__", builtin=False)
    Tensor.to = _method(_to, "to")
    Tensor.__deepcopy__ = _method(_deepcopy, "__deepcopy__", builtin=False)
    Tensor.__reduce_ex__ = _method(_reduce_ex, "__reduce_ex__", builtin=False)
    for name, dtype in [("float", opscope.float32), ("double", opscope.float64), ("half", opscope.float16),
                        ("bfloat16", opscope.bfloat16), ("long", opscope.int64), ("int", opscope.int32),
                        ("short", opscope.int16), ("char", opscope.int8), ("byte", opscope.uint8),
                        ("bool", opscope.bool)]:
        setattr(Tensor, name, _method(_cast(dtype), name))
    Tensor.cpu = _method(_cpu, "cpu")
    Tensor.cuda = _method(_cuda, "cuda")
    Tensor.tolist = _method(_tolist, "tolist")
    Tensor.record_stream = _method(_record_stream, "record_stream")
    Tensor.is_pinned = _method(_is_pinned, "is_pinned")
    Tensor.pin_memory = _method(_pin_memory, "pin_memory")
    Tensor.T = _property("T", _T)
    # aten::mT / aten::mH, schema-derived methods, as torch's properties (a compiled part
    # older than these ops has neither: then there are none)
    for name, doc in (("mT", "The last two dims swapped (aten::mT)."),
                      ("mH", "The conjugate transpose of the last two dims (aten::mH): mT, as "
                             "opscope's dtypes are real.")):
        op = getattr(Tensor, name, None)
        if op is not None:
            setattr(Tensor, name, _property(name, op, doc=doc))
    Tensor.is_complex = _method(_is_complex, "is_complex")
    Tensor.is_signed = _method(_is_signed, "is_signed")
    Tensor.get_device = _method(_get_device, "get_device")
    Tensor.new_zeros = _new_factory(opscope.zeros)
    Tensor.new_ones = _new_factory(opscope.ones)
    Tensor.new_empty = _new_factory(opscope.empty)
    Tensor.new_tensor = _new_tensor
    Tensor.new_full = _new_full
    Tensor.where = _method(_where, "where")
    Tensor.polygamma = _method(_polygamma, "polygamma")
    Tensor.backward = _method(_backward, "backward", builtin=False)
    Tensor.detach_ = _method(_detach_, "detach_")
    Tensor._base = _property("_base", _C._view_base, doc="The tensor this one is a view of, or None.")
    Tensor._is_view = _method(lambda self: _C._view_base(self) is not None, "_is_view")
    Tensor.register_hook = _method(_register_hook, "register_hook", builtin=False)
    Tensor.retain_grad = _method(_retain_grad, "retain_grad")
    Tensor.retains_grad = _property("retains_grad", _C._retains_grad,
                                    doc="Whether backward fills this non-leaf tensor's .grad.")
    Tensor.data = _property("data", _data, _C._set_data)
    from opscope import overrides  # noqa: F401  (opscope.overrides, as torch.overrides after import torch)
    Tensor.__module__ = "opscope"
