"""``opscope.overrides`` — torch.overrides: the ``__torch_function__`` protocol from Python.

Every public opscope function, Tensor method, operator and property checks its arguments for
objects whose type defines ``__torch_function__`` (Tensor subclasses, or plain classes such as an
FX Proxy) and, finding any, calls ``type(arg).__torch_function__(func, types, args, kwargs)``
instead of running the op — subclasses before their parents, else left to right, until one returns
something other than ``NotImplemented``. The ops written in C++ do this in the binding
(core/python/torch_function.h); the functions written in Python get it from
``_C._torch_function_wrapper`` (see ``public``). A ``TorchFunctionMode`` sees every call first.

>>> import opscope
>>> class Logged(opscope.Tensor):
...     @classmethod
...     def __torch_function__(cls, func, types, args=(), kwargs=None):
...         print("called", func.__name__)
...         return super().__torch_function__(func, types, args, kwargs)
>>> x = opscope.ones(2).as_subclass(Logged)
>>> type(opscope.relu(x)).__name__
called relu
'Logged'
"""

import collections
import contextlib
import functools
import types
import warnings

import opscope
from opscope import _C
from opscope._C import (  # noqa: F401  (torch.overrides re-exports these names)
    _disabled_torch_function_impl, _get_function_stack_at, _has_torch_function,
    _has_torch_function_unary, _has_torch_function_variadic, _is_torch_function_enabled,
    _is_torch_function_mode_enabled, _len_torch_function_stack, _pop_torch_function_stack,
    _push_on_torch_function_stack, _set_torch_function_mode)

__all__ = [
    "get_ignored_functions", "get_overridable_functions", "get_testing_overrides",
    "handle_torch_function", "has_torch_function", "resolve_name", "is_tensor_like",
    "is_tensor_method_or_property", "wrap_torch_function", "TorchFunctionMode",
    "get_default_nowrap_functions",
]

has_torch_function = _has_torch_function
has_torch_function_unary = _has_torch_function_unary
has_torch_function_variadic = _has_torch_function_variadic


def _get_overloaded_args(relevant_args):
    """The arguments whose ``__torch_function__`` a call must try, in calling order: one per
    type, a subclass before its parent, otherwise left to right (NEP-18's rule, as torch). An
    exact Tensor counts too (its type has Tensor.__torch_function__), as in torch's Python path."""
    if not _is_torch_function_enabled():
        return []
    overloaded = []
    for arg in relevant_args:
        t = type(arg)
        if any(type(o) is t for o in overloaded):
            continue
        impl = getattr(t, "__torch_function__", None)
        if impl is None or impl is _disabled_torch_function_impl:
            continue
        index = next((i for i, o in enumerate(overloaded) if issubclass(t, type(o))),
                     len(overloaded))
        overloaded.insert(index, arg)
    return overloaded


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls the mode and the ``__torch_function__`` overrides among ``relevant_args`` for a call
    of ``public_api(*args, **kwargs)``; returns the first result that is not NotImplemented, or
    raises TypeError when every one declines. Guard it with ``has_torch_function``:

    >>> def func(a):
    ...     if has_torch_function_unary(a):
    ...         return handle_torch_function(func, (a,), a)
    ...     return a + 0
    """
    overloaded = _get_overloaded_args(relevant_args)
    types_ = tuple(map(type, overloaded))
    if _is_torch_function_mode_enabled():
        with _no_torch_function_mode():
            result = _TorchFunctionStackMode().__torch_function__(public_api, types_, args, kwargs)
        if result is not NotImplemented:
            return result
    for arg in overloaded:
        result = arg.__torch_function__(public_api, types_, args, kwargs)
        if result is not NotImplemented:
            return result
    name = f"{public_api.__module__}.{public_api.__name__}"
    if name.startswith("opscope."):
        name = "torch." + name[len("opscope."):]
    msg = (f"no implementation found for '{name}' on types that implement __torch_function__: "
           f"{[type(arg) for arg in overloaded]}")
    if _is_torch_function_mode_enabled():
        msg += f" nor in mode {_get_current_function_mode()}"
    raise TypeError(msg)


@functools.lru_cache(None)
def _signature(fn):
    import inspect  # here: inspect is a tenth of `import opscope`, and only overrides need it
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _python_function_call(public_api, fn, args, kwargs):
    """A call of a Python-defined public function (``_C._torch_function_wrapper``) that has an
    override among its arguments or runs under a mode: the arguments are passed on as torch's
    Python functions pass them — required parameters positionally, the others by keyword with
    their defaults filled in — and every argument (lists and tuples one level deep) is checked.
    A wrapper marked ``_torch_builtin`` (a function torch writes in C++, such as F.linear) passes
    them on as called, as torch's binding does."""
    builtin = getattr(public_api, "_torch_builtin", False)
    sig = None if builtin else _signature(fn)
    if sig is not None:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return fn(*args, **kwargs)  # the function's own error for a bad call
        bound.apply_defaults()
        args, kwargs = [], {}
        for name, param in sig.parameters.items():
            value = bound.arguments[name]
            if param.kind is param.VAR_POSITIONAL:
                args.extend(value)
            elif param.kind is param.VAR_KEYWORD:
                kwargs.update(value)
            elif param.kind is param.KEYWORD_ONLY or param.default is not param.empty:
                kwargs[name] = value
            else:
                args.append(value)
    relevant = []
    for value in list(args) + list(kwargs.values()):
        if type(value) in (list, tuple):
            relevant.extend(value)
        else:
            relevant.append(value)
    if builtin:  # as torch's C++ functions: exact tensors are not among the types
        relevant = [v for v in relevant if type(v) is not opscope.Tensor]
    return handle_torch_function(public_api, relevant, *args, **kwargs)


_C._set_python_function_handler(_python_function_call)


def wrap_torch_function(dispatcher):
    """Decorator: makes ``func`` dispatchable by ``__torch_function__``; ``dispatcher(*args,
    **kwargs)`` (same signature as func) returns the arguments to check."""
    def inner(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant_args = dispatcher(*args, **kwargs)
            if has_torch_function(relevant_args):
                return handle_torch_function(wrapped, relevant_args, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return inner


def is_tensor_like(inp):
    """True for an opscope.Tensor and for any object whose type has ``__torch_function__``."""
    return type(inp) is opscope.Tensor or hasattr(type(inp), "__torch_function__")


# --- Which functions take part --------------------------------------------------------------

# The public names torch 1.13 lists in get_ignored_functions(): functions that no tensor argument
# can override (factories, global switches, ...). Those opscope has are returned.
_IGNORED = {
    "opscope": [
        "typename", "is_tensor", "is_storage", "set_default_tensor_type", "set_rng_state",
        "get_rng_state", "manual_seed", "initial_seed", "seed", "save", "load",
        "set_printoptions", "fork", "get_default_dtype", "get_num_interop_threads",
        "get_num_threads", "init_num_threads", "import_ir_module", "import_ir_module_from_buffer",
        "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "is_grad_enabled",
        "merge_type_from_type_comment", "parse_ir", "parse_schema", "parse_type_comment",
        "set_anomaly_enabled", "set_flush_denormal", "set_num_interop_threads",
        "set_num_threads", "wait", "as_tensor", "asarray", "from_numpy", "frombuffer",
        "from_file", "get_device", "tensor", "default_generator", "dtype", "finfo", "iinfo",
        "memory_format", "qscheme", "set_grad_enabled", "no_grad", "enable_grad",
        "inference_mode", "is_inference_mode_enabled", "layout", "device", "arange",
        "bartlett_window", "blackman_window", "hamming_window", "hann_window", "kaiser_window",
        "empty", "empty_strided", "empty_quantized", "eye", "full", "linspace", "logspace",
        "ones", "rand", "randint", "randn", "randperm", "range", "scalar_tensor", "zeros",
        "tril_indices", "triu_indices", "vander", "normal", "result_type", "can_cast",
        "promote_types", "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
        "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
        "get_deterministic_debug_mode", "set_float32_matmul_precision",
        "get_float32_matmul_precision", "unify_type_list", "is_warn_always_enabled",
        "set_warn_always", "vitals_enabled", "set_vital", "read_vitals", "as_strided", "fill",
        "sparse_coo_tensor", "sparse_csr_tensor",
    ],
    "opscope.nn.functional": [
        "assert_int_or_pair", "boolean_dispatch", "handle_torch_function", "has_torch_function",
        "has_torch_function_unary", "has_torch_function_variadic", "hardsigmoid", "hardswish",
        "sigmoid", "tanh", "upsample", "upsample_bilinear", "upsample_nearest",
    ],
    "opscope.nn.init": [
        "calculate_gain", "constant", "dirac", "eye", "kaiming_normal", "kaiming_uniform",
        "normal", "orthogonal", "sparse", "uniform", "xavier_normal", "xavier_uniform",
    ],
    "opscope.Tensor": [
        "__class__", "__delitem__", "__dir__", "__hash__", "__init_subclass__", "__iter__",
        "__new__", "__subclasshook__", "__torch_dispatch__", "__torch_function__",
        "_make_subclass", "_make_wrapper_subclass", "as_subclass", "new", "new_empty",
        "new_empty_strided", "new_full", "new_ones", "new_tensor", "new_zeros", "stride",
        "unflatten", "_reduce_ex_internal", "_fix_weakref",
    ],
}


def _namespace(name):
    import importlib
    if name == "opscope.Tensor":
        return opscope.Tensor
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


@functools.lru_cache(None)
def get_ignored_functions():
    """The public functions that ``__torch_function__`` cannot override (none of their arguments
    is a tensor): torch 1.13's list, as far as opscope has them.

    >>> opscope.Tensor.as_subclass in get_ignored_functions()
    True
    >>> opscope.add in get_ignored_functions()
    False
    """
    ignored = set()
    for ns_name, names in _IGNORED.items():
        ns = _namespace(ns_name)
        for name in names:
            f = getattr(ns, name, None) if ns is not None else None
            if f is None:
                continue
            if ns is opscope.Tensor and isinstance(f, (property, types.GetSetDescriptorType)):
                f = f.__get__
            try:
                ignored.add(f)
            except TypeError:  # unhashable
                pass
    return ignored


@functools.lru_cache(None)
def get_default_nowrap_functions():
    """Functions whose results the default ``Tensor.__torch_function__`` does not convert to the
    subclass: field accesses, where ``a.grad is a.grad`` must hold."""
    Tensor = opscope.Tensor
    return {Tensor._base.__get__, Tensor.grad.__get__}


_NAMESPACES = [
    ("torch", "opscope"),
    ("torch.functional", "opscope.functional"),
    ("torch.nn.functional", "opscope.nn.functional"),
    ("torch.nn.init", "opscope.nn.init"),
    ("torch.Tensor", "opscope.Tensor"),
    ("torch.linalg", "opscope.linalg"),
    ("torch.special", "opscope.special"),
]


@functools.lru_cache(None)
def _get_overridable_functions():
    overridable = collections.defaultdict(list)
    index = {}
    ignored = get_ignored_functions()
    for torch_name, ns_name in _NAMESPACES:
        ns = _namespace(ns_name)
        if ns is None:
            continue
        is_tensor = ns is opscope.Tensor
        names = getattr(ns, "__all__", None) if ns_name == "opscope.functional" else None
        for name in (names if names is not None else dir(ns)):
            private = False
            if not is_tensor:
                if name.startswith("__"):
                    continue
                private = name.startswith("_") or name.endswith("_") or not name[0].islower()
            func = getattr(ns, name, None)
            if func is None or isinstance(func, (types.ModuleType, type)):
                continue
            if is_tensor and (name == "__weakref__" or getattr(object, name, None) == func):
                continue
            if not callable(func) and hasattr(func, "__get__"):
                index[func.__get__] = f"{torch_name}.{name}.__get__"
                if hasattr(func, "__set__"):
                    index[func.__set__] = f"{torch_name}.{name}.__set__"
                if not private and func.__get__ not in ignored:
                    overridable[func].append(func.__get__)
                continue
            if not callable(func):
                continue
            try:
                index[func] = f"{torch_name}.{name}"
            except TypeError:
                continue
            if private or func in ignored:
                continue
            overridable[ns].append(func)
    return overridable, index


def get_overridable_functions():
    """{namespace: [functions]} of the public functions ``__torch_function__`` can override
    (namespace ``opscope``, ``opscope.nn.functional``, ..., and ``opscope.Tensor`` for the methods;
    a property maps to its ``__get__``)."""
    return _get_overridable_functions()[0]


def resolve_name(f):
    """A readable name ('torch.add', 'torch.Tensor.add', 'torch.Tensor.shape.__get__') for a
    function an override received, or None."""
    if hasattr(f, "_schema") and hasattr(f, "overloadpacket"):  # opscope.ops.aten.x.overload
        return str(f)
    return _get_overridable_functions()[1].get(f)


@functools.lru_cache(None)
def _get_tensor_methods():
    return set(get_overridable_functions()[opscope.Tensor])


def is_tensor_method_or_property(func):
    """True for a Tensor method (``opscope.Tensor.add``) or a property's ``__get__`` as an
    override receives it; False for a function (``opscope.add``)."""
    return func in _get_tensor_methods() or getattr(func, "__name__", None) == "__get__"


def _schema_signature(func):
    """The parameters of an op's first overload as an inspect.Signature, read from its doc
    ("add(Tensor input, Tensor other, *, Number alpha, Tensor out)" and the schema line under it,
    whose defaults say which parameters may be left out); None when the doc has no such lines."""
    import ast
    import inspect
    lines = (getattr(func, "__doc__", None) or "").splitlines()
    if len(lines) < 2 or "(" not in lines[0] or "schema:" not in lines[1]:
        return None
    display = lines[0][lines[0].index("(") + 1:lines[0].rindex(")")]
    schema = lines[1][lines[1].index("(") + 1:lines[1].rindex(")")]
    defaults = {}
    for arg in schema.split(", "):
        if "=" in arg:
            name = arg[:arg.index("=")].rsplit(" ", 1)[-1]
            try:
                defaults[name] = ast.literal_eval(arg[arg.index("=") + 1:])
            except (ValueError, SyntaxError):
                defaults[name] = None
    params, kind = [], inspect.Parameter.POSITIONAL_OR_KEYWORD
    if is_tensor_method_or_property(func) and not display.startswith("Tensor self"):
        params.append(inspect.Parameter("self", kind))
    for arg in filter(None, display.split(", ")):
        if arg == "*":
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        name = arg.rsplit(" ", 1)[-1]
        optional = name == "out" or name in defaults or (name == "input" and "self" in defaults)
        default = defaults.get(name) if optional else inspect.Parameter.empty
        if kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and params and \
                params[-1].default is not inspect.Parameter.empty and default is inspect.Parameter.empty:
            default = None  # keep the order legal: a required one after an optional one
        try:
            params.append(inspect.Parameter(name, kind, default=default))
        except ValueError:  # a Python keyword as a name (uniform_'s `from`): no signature
            return None
    try:
        return inspect.Signature(params)
    except ValueError:
        return None


def _dummy_for(func):
    """A stand-in with func's parameters that returns -1 (get_testing_overrides)."""
    import inspect
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        sig = _schema_signature(func)

    def dummy(*args, **kwargs):
        return -1
    if sig is not None:
        dummy.__signature__ = sig
    dummy.__name__ = getattr(func, "__name__", "dummy")
    return dummy


@functools.lru_cache(None)
def get_testing_overrides():
    """{function: stand-in returning -1} for every overridable function, for testing that a
    Tensor-like type overrides the whole API (as torch's, with each stand-in taking the function's
    parameters where opscope can tell them)."""
    overrides = {}
    for ns, funcs in get_overridable_functions().items():
        for f in funcs:
            overrides[f] = _dummy_for(f)
    return overrides


# --- Modes ----------------------------------------------------------------------------------

class TorchFunctionMode:
    """Overrides every ``__torch_function__``-overridable call inside ``with Mode():``, factories
    included, without tensor subclasses. Modes nest: inside a mode's ``__torch_function__`` the
    mode itself is off, so the calls it makes reach the next mode out (or the ops).

    >>> class Log(TorchFunctionMode):
    ...     def __torch_function__(self, func, types, args=(), kwargs=None):
    ...         print(func.__name__)
    ...         return func(*args, **(kwargs or {}))
    >>> with Log():
    ...     _ = opscope.zeros(2) + 1
    zeros
    add
    """

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError()

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()

    @classmethod
    def push(cls, *args, **kwargs):
        warnings.warn("`Mode.push()` is no longer necessary and can be replaced with just "
                      "`with Mode()`")
        return cls(*args, **kwargs)


def _get_current_function_mode():
    n = _len_torch_function_stack()
    return _get_function_stack_at(n - 1) if n > 0 else None


def _get_current_function_mode_stack():
    return [_get_function_stack_at(i) for i in range(_len_torch_function_stack())]


def _push_mode(mode):
    if _len_torch_function_stack() == 0:
        _set_torch_function_mode(_TorchFunctionStackMode())
    _push_on_torch_function_stack(mode)


def _pop_mode():
    old = _pop_torch_function_stack()
    if _len_torch_function_stack() == 0:
        _set_torch_function_mode(None)
    return old


@contextlib.contextmanager
def _pop_mode_temporarily():
    old = _pop_mode()
    try:
        yield old
    finally:
        _push_mode(old)


class _TorchFunctionStackMode:
    """The one mode the C++ side calls while the stack is not empty: it runs the innermost mode
    with that mode popped, so the mode's own calls go to the one below it."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        with _pop_mode_temporarily() as old:
            if _len_torch_function_stack() > 0:
                _set_torch_function_mode(self)
            if getattr(old.__torch_function__, "__self__", None) is type(old):
                raise RuntimeError("TorchFunctionMode's torch_function function "
                                   "should be a normal method not a class method")
            return old.__torch_function__(func, types, args, kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs each call as is (subclass it and call super())."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


@contextlib.contextmanager
def _no_torch_function_mode():
    _set_torch_function_mode(None)
    try:
        yield
    finally:
        if _len_torch_function_stack() > 0:
            _set_torch_function_mode(_TorchFunctionStackMode())


class _ScriptMethod:
    """torch._C.ScriptMethod's place: opscope has no TorchScript, so no object is ever one. It
    exists so that code written for torch, such as FX's Proxy.__torch_function__
    (``isinstance(orig_method, torch._C.ScriptMethod)``), runs unchanged."""

    def __init__(self, *args, **kwargs):
        raise TypeError("opscope has no TorchScript: ScriptMethod objects cannot be made")


_ScriptMethod.__name__ = _ScriptMethod.__qualname__ = "ScriptMethod"
_ScriptMethod.__module__ = "opscope._C"
if not hasattr(_C, "ScriptMethod"):
    _C.ScriptMethod = _ScriptMethod
