"""torch's legacy tensor types and constructors: ``opscope.FloatTensor(2, 3)``,
``opscope.LongTensor([1, 2])``, ``opscope.Tensor(data)``, ``isinstance(x, opscope.FloatTensor)``,
and ``Tensor.type()``.

As in torch, ``FloatTensor`` is not a subclass of Tensor: it is a constructor of float32 tensors
whose ``isinstance`` asks for a tensor of that dtype. Each constructor takes, as torch 1.13's
legacy_tensor_ctor does, nothing (an empty tensor), sizes (``FloatTensor(2, 3)`` or a
``Size``: uninitialized), a sequence or array (its data, converted), or a tensor of the type's
dtype (an alias of it); ``device=`` is its only keyword.

>>> import opscope
>>> x = opscope.FloatTensor([1, 2])
>>> x.type(), isinstance(x, opscope.FloatTensor), isinstance(x, opscope.LongTensor)
('torch.FloatTensor', True, False)
>>> x.type(opscope.LongTensor)
tensor([1, 2])
"""

import numbers

import opscope
from opscope import _C

# The legacy type names, by dtype (torch/_tensor_str and torch.Tensor.type use the same names).
_TYPE_NAMES = {
    "float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
    "bfloat16": "BFloat16Tensor", "int64": "LongTensor", "int32": "IntTensor",
    "int16": "ShortTensor", "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor",
}

# The C++ element type names torch's TensorOptions message prints.
_CPP_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
    "uint8": "unsigned char", "bool": "bool",
}

_SIGNATURES = """ * (*, torch.device device)
      didn't match because some of the keywords were incorrect: {keys}
 * (torch.Storage storage)
 * (Tensor other)
 * (tuple of ints size, *, torch.device device)
 * (object data, *, torch.device device)
"""


def _dtype_name(dtype):
    return str(dtype)[len("torch."):]


def _options(dtype):
    return (f"TensorOptions(dtype={_CPP_NAMES[_dtype_name(dtype)]}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


def _describe(args, kwargs):
    parts = [type(a).__name__ for a in args] + [
        f"{k}={'torch.dtype' if isinstance(v, opscope.dtype) else type(v).__name__}"
        for k, v in kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def legacy_new(dtype, args, kwargs, typed=False):
    """A tensor of `dtype` from a legacy constructor's arguments (torch's legacy_tensor_ctor).
    A typed constructor (FloatTensor) takes a tensor of its dtype only; Tensor(t) any tensor."""
    unexpected = [k for k in kwargs if k != "device"]
    if unexpected:
        raise TypeError("new() received an invalid combination of arguments - got "
                        f"{_describe(args, kwargs)}, but expected one of:\n"
                        + _SIGNATURES.format(keys=", ".join(unexpected)))
    device = kwargs.get("device")
    if device is not None and opscope.device(device).type != "cpu":
        raise RuntimeError(f"legacy constructor expects device type: cpu but device type: "
                           f"{opscope.device(device).type} was passed")
    if not args:
        return opscope.empty(0, dtype=dtype)
    first = args[0]
    if len(args) == 1 and isinstance(first, opscope.Tensor):
        if typed and first.dtype != dtype:
            raise TypeError(f"expected {_options(dtype)} (got {_options(first.dtype)})")
        return opscope.ops.aten.alias(first)
    if len(args) == 1 and isinstance(first, opscope.Size):
        return opscope.empty(tuple(first), dtype=dtype)
    if all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args):
        return opscope.empty(args, dtype=dtype)
    if len(args) == 1:
        if isinstance(first, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(first).__name__}'")
        if isinstance(first, numbers.Number):
            raise TypeError(f"new(): data must be a sequence (got {type(first).__name__})")
        return opscope.tensor(first, dtype=dtype)
    raise TypeError("new() received an invalid combination of arguments - got "
                    f"{_describe(args, kwargs)}, but expected one of:\n"
                    + _SIGNATURES.format(keys="").replace(
                        "      didn't match because some of the keywords were incorrect: \n", ""))


class tensortype(type):
    """The type of opscope.FloatTensor and its kin (torch.tensortype): calling one constructs a
    tensor of its dtype; isinstance asks for a CPU tensor of that dtype."""

    def __call__(cls, *args, **kwargs):
        return legacy_new(cls.dtype, args, kwargs, typed=True)

    def __instancecheck__(cls, obj):
        return isinstance(obj, opscope.Tensor) and obj.dtype == cls.dtype and obj.device.type == "cpu"

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _make_type(dtype_name):
    name = _TYPE_NAMES[dtype_name]
    dtype = getattr(opscope, dtype_name)
    return tensortype(name, (), {"dtype": dtype, "is_cuda": False, "is_sparse": False,
                                 "__module__": "opscope",
                                 "__doc__": f"Constructor of {dtype} tensors (torch.{name})."})


_TYPES = {dtype_name: _make_type(dtype_name) for dtype_name in _TYPE_NAMES}
_BY_NAME = {"torch." + cls.__name__: cls for cls in _TYPES.values()}


def type_name(tensor):
    """'torch.FloatTensor' for a float32 CPU tensor: torch's string, kept as is so that code
    comparing `x.type() == 'torch.FloatTensor'` runs unchanged under `import opscope as torch`."""
    return ("torch.cuda." if tensor.is_cuda else "torch.") + _TYPE_NAMES[_dtype_name(tensor.dtype)]


def tensor_type(self, dtype=None, non_blocking=False, **kwargs):
    """x.type(): the type name ('torch.FloatTensor'); x.type(t): x as type t — a dtype, a name
    ('torch.LongTensor') or a type (opscope.LongTensor) — x itself when it is already of it."""
    if dtype is None:
        return type_name(self)
    if isinstance(dtype, str):
        if dtype.startswith("torch.cuda."):
            raise RuntimeError("opscope has no CUDA backend in this build: tensors live on the cpu")
        if dtype not in _BY_NAME:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = _BY_NAME[dtype].dtype
    elif isinstance(dtype, tensortype):
        dtype = dtype.dtype
    elif not isinstance(dtype, opscope.dtype):
        raise TypeError("dtype must be a type, str, or dtype object")
    if dtype == self.dtype:
        return self
    return self.to(dtype, non_blocking=non_blocking)


def tensor_new(self, *args, **kwargs):
    """x.new(...): the legacy constructor of x's type (x.new(2, 3), x.new([1, 2]))."""
    return legacy_new(self.dtype, args, kwargs, typed=True)


def set_default_tensor_type(t):
    """The legacy spelling of set_default_dtype: a floating type, by class or name
    (opscope.DoubleTensor, 'torch.DoubleTensor')."""
    if isinstance(t, str):
        if t.startswith("torch.cuda."):
            raise TypeError(f"type {t} not available. Torch not compiled with CUDA enabled.")
        if t not in _BY_NAME:
            raise AttributeError(f"module 'torch' has no attribute '{t[len('torch.'):]}'")
        t = _BY_NAME[t]
    if not isinstance(t, tensortype):
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    opscope.set_default_dtype(t.dtype)


def typename(o):
    """The type of o as text: a tensor's type() ('torch.FloatTensor'), else its class's module and
    qualified name ('int', 'torch.nn.modules.linear.Linear' style)."""
    if isinstance(o, opscope.Tensor):
        return o.type()
    module = getattr(o, "__module__", None)
    prefix = module + "." if module not in (None, "builtins", "__builtin__") else ""
    name = getattr(o, "__qualname__", None) or getattr(o, "__name__", None) or type(o).__name__
    return prefix + name


def is_storage(obj):
    """False: opscope tensors have no separate storage objects (x.storage() does not exist)."""
    return False


def _install():
    """opscope.FloatTensor ..., set_default_tensor_type, typename, is_storage; Tensor.type and
    Tensor.new."""
    for cls in _TYPES.values():
        setattr(opscope, cls.__name__, cls)
    for fn in (set_default_tensor_type, typename, is_storage):
        setattr(opscope, fn.__name__, fn)
    _C.Tensor.type = tensor_type
    _C.Tensor.new = tensor_new
