"""opscope — a tensor runtime you can see through.

A PyTorch-shaped eager runtime (tensors, a dispatcher, autograd, CPU kernels) that shows what every
op does inside: its dispatch trace, its call stack and its profile. ``import opscope as torch``
runs ordinary PyTorch code within opscope's op set.

>>> import opscope
>>> a = opscope.ones(2, 3)
>>> (a + 1).sum().item()
12.0
"""


def _join_build_folder():
    # See Note [Each build folder holds its own compiled part] (CMakeLists.txt): the compiled
    # part lives in <build>/python/opscope/. Every opscope/ folder on sys.path joins the package
    # (PYTHONPATH=core/python:<build>/python, the first build folder wins); with none, the
    # repository's default build folder does.
    import glob
    import os
    import pkgutil

    path = pkgutil.extend_path(__path__, __name__)
    if not any(glob.glob(os.path.join(p, "_C*.so")) for p in path):
        default = os.path.join(os.path.dirname(__file__), "..", "..", "..", "build", "python",
                               "opscope")
        if os.path.isdir(default):
            path.append(os.path.normpath(default))
    return path


__path__ = _join_build_folder()
del _join_build_folder

from opscope import _C  # noqa: E402
from opscope._C import (  # noqa: F401
    DispatchKeySet, Generator, Size, Tensor, default_generator, device, dtype, from_dlpack,
    from_numpy, get_default_dtype, get_num_threads, initial_seed, manual_seed, seed,
    set_default_dtype, set_num_threads, tensor, promote_types, can_cast, result_type,
    bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64,
    float, double, half, long, int, short,
)
from opscope._enums import (  # noqa: F401
    channels_last, contiguous_format, layout, memory_format, preserve_format, strided)
from opscope._tensor_str import get_printoptions, set_printoptions  # noqa: F401

# Every aten op declared in C++ becomes a function here (opscope.add, opscope.matmul, ...).
for _name in dir(_C._VariableFunctions):
    if not _name.startswith("__"):
        globals()[_name] = getattr(_C._VariableFunctions, _name)
del _name

from opscope import _tensor  # noqa: E402
from opscope.ops import ops  # noqa: E402,F401
from opscope import return_types  # noqa: E402,F401  (filled by _C: torch.return_types.max ...)

_tensor._install()

from opscope import nn  # noqa: E402,F401  (opscope.nn.functional, as torch.nn.functional)
from opscope import functional as _functional  # noqa: E402  (unique, norm: torch/functional.py)
from opscope import linalg  # noqa: E402,F401
from opscope import autograd  # noqa: E402,F401
from opscope import profiler  # noqa: E402,F401
from opscope.profiler import trace as _trace_recorder  # noqa: E402
from opscope.autograd import (  # noqa: E402,F401
    enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, set_grad_enabled)
from opscope import optim  # noqa: E402,F401
from opscope import cuda  # noqa: E402,F401  (torch.cuda's namespace; see opscope/cuda/__init__.py)

_functional._install()

from opscope import _legacy_tensor  # noqa: E402  (FloatTensor ..., Tensor.type: torch's legacy types)
_legacy_tensor._install()
from opscope import storage  # noqa: E402  (x.storage(), TypedStorage, FloatStorage ...)
from opscope.storage import TypedStorage, UntypedStorage, is_storage  # noqa: E402,F401
globals().update(storage.LEGACY_CLASSES)
storage._install()
from opscope import backends, special  # noqa: E402,F401
from opscope.backends import (  # noqa: E402,F401  (the flags torch keeps in at::Context)
    are_deterministic_algorithms_enabled, get_deterministic_debug_mode, get_float32_matmul_precision,
    is_deterministic_algorithms_warn_only_enabled, set_deterministic_debug_mode,
    set_float32_matmul_precision, use_deterministic_algorithms)

# Ctrl-C stops a long op with KeyboardInterrupt (Note [Interrupting long ops] in
# core/runtime/Interrupt.cpp); on the main thread only, a no-op elsewhere.
_C._install_interrupt_handler()

__version__ = "0.1.0"


def is_tensor(obj):
    """True when obj is an opscope.Tensor (or a subclass)."""
    return isinstance(obj, Tensor)


def numel(input):
    """Number of elements of a tensor."""
    if type(input) is not Tensor and _C._has_torch_function_unary(input):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(numel, (input,), input)
    return input.numel()


def is_floating_point(input):
    """True for a tensor of a floating point dtype."""
    if type(input) is not Tensor and _C._has_torch_function_unary(input):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(is_floating_point, (input,), input)
    return input.is_floating_point()


import builtins as _builtins  # noqa: E402


def _tensor_argument(name, input):
    # torch's parser's TypeError for a non-tensor `input`, in the Python-written functions below.
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")


def is_complex(input):
    """True for a tensor of a complex dtype (opscope has none yet: always False)."""
    if type(input) is not Tensor and _C._has_torch_function_unary(input):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(is_complex, (input,), input)
    _tensor_argument("is_complex", input)
    return input.is_complex()


def is_signed(input):
    """True when input's dtype holds negative values: every dtype but uint8 and bool."""
    if type(input) is not Tensor and _C._has_torch_function_unary(input):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(is_signed, (input,), input)
    _tensor_argument("is_signed", input)
    return input.is_signed()


def get_device(input):
    """The index of the CUDA device input is on; -1 for a CPU tensor."""
    if type(input) is not Tensor and _C._has_torch_function_unary(input):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(get_device, (input,), input)
    _tensor_argument("get_device", input)
    return input.get_device()


def broadcast_shapes(*shapes):
    """The shape tensors of these shapes broadcast to, without making tensors (torch's
    broadcast_shapes): each shape a tuple, list or int, aligned at the last dim; a size-1 dim
    takes the other's size.

    >>> opscope.broadcast_shapes((2,), (3, 1), (1, 1, 1))
    torch.Size([1, 3, 2])
    """
    integer = _builtins.int  # `int` here is opscope.int, the dtype
    result = [1] * _builtins.max([1 if isinstance(s, integer) else len(s) for s in shapes
                        if isinstance(s, (integer, tuple, list))], default=0)
    for shape in shapes:
        if isinstance(shape, integer):
            shape = (shape,)
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list of "
                               "ints, got ", shape)
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension ({shape[i]}): "
                                   f"({shape[i]})")
            if shape[i] == 1 or shape[i] == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape")
            result[i] = shape[i]
    return Size(result)


def broadcast_tensors(*tensors):
    """The tensors expanded to one broadcast shape (aten::broadcast_tensors, each an expand
    view; a tensor already of that shape comes back as it is)."""
    if _C._has_torch_function(tensors):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(broadcast_tensors, tensors, *tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")
    return _C._VariableFunctions.broadcast_tensors(tensors)


class trace(_trace_recorder):
    """Two things share the name ``trace``. ``opscope.trace(input)`` is torch.trace: the sum of a
    2-D tensor's diagonal (aten::trace). ``with opscope.trace() as t:`` is opscope's trace
    recorder, opscope.profiler.trace (see there); it takes no tensor, so a tensor first argument
    (or ``input=``) picks the op."""

    def __new__(cls, *args, **kwargs):
        if (args and (isinstance(args[0], Tensor) or _C._has_torch_function_unary(args[0]))) \
                or "input" in kwargs:
            return _C._VariableFunctions.trace(*args, **kwargs)
        return super().__new__(cls)


def _assert(condition, message):
    """`assert condition, message` as a function, so that a traced program (opscope.fx) can
    record it; a Proxy condition reaches its __torch_function__, as with torch._assert."""
    if type(condition) is not Tensor and _C._has_torch_function((condition,)):
        from opscope.overrides import handle_torch_function
        return handle_torch_function(_assert, (condition,), condition, message)
    assert condition, message


def __getattr__(name):
    # opscope.save / opscope.load and their module load on first use: serialization.py and the
    # zipfile / pickle machinery it needs are a fifth of `import opscope` and most sessions never
    # save. (PEP 562; the first call caches them as ordinary attributes.)
    if name in ("serialization", "save", "load"):
        import importlib
        serialization = importlib.import_module("opscope.serialization")
        globals().update(serialization=serialization, save=serialization.save,
                         load=serialization.load)
        return globals()[name]
    if name == "fx":   # opscope.fx (the tracer) loads on first use too
        return __import__("importlib").import_module("opscope.fx")
    if name == "futures":  # opscope.futures (asyncio, threads) loads on first use too
        return __import__("importlib").import_module("opscope.futures")
    if name == "library":  # opscope.library (operators from Python) loads on first use too
        return __import__("importlib").import_module("opscope.library")
    raise AttributeError(f"module 'opscope' has no attribute '{name}'")
