"""Tracer and symbolic_trace: run a module's forward on Proxies and keep the graph it builds.

``Tracer.trace(root)`` makes one placeholder Proxy per argument of ``root.forward`` and calls
it. While it runs, ``nn.Module.__call__`` and ``nn.Module.__getattr__`` are patched:

- calling a submodule goes through ``Tracer.call_module``: a leaf module (every module of
  ``opscope.nn`` but Sequential, by ``is_leaf_module``) becomes one ``call_module`` node, any
  other module is traced through, so its insides join the graph;
- reading a parameter gives a ``get_attr`` Proxy; tensors that reach a node's arguments become
  ``get_attr`` of the buffer / attribute that holds them (or of a new ``_tensor_constantN``);
- functions registered with ``wrap`` (and those of ``math``) become ``call_function`` nodes
  when called with a Proxy, instead of being traced into.

Everything else a Proxy meets is recorded by the Proxy itself (proxy.py). The patches are
undone when tracing ends, also on error.
"""
import builtins
import functools
import inspect
import math
import warnings
from types import FunctionType

import opscope
from opscope.fx.graph import Graph
from opscope.fx.graph_module import GraphModule
from opscope.fx.node import _base_types, map_aggregate
from opscope.fx.proxy import ParameterProxy, Proxy, TracerBase

__all__ = ["Tracer", "symbolic_trace", "wrap", "PH", "ProxyableClassMeta", "is_fx_tracing"]

_orig_module_call = opscope.nn.Module.__call__
_orig_module_getattr = opscope.nn.Module.__getattr__
_proxyable_classes = {}
_is_fx_tracing_flag = False


def is_fx_tracing():
    """Whether a symbolic trace is running now."""
    return _is_fx_tracing_flag


class ProxyableClassMeta(type):
    """Metaclass for classes whose construction from Proxies is recorded (a call_function of the
    class) instead of run."""

    def __init__(cls, name, bases, attrs):
        _proxyable_classes.setdefault(cls)
        super().__init__(name, bases, attrs)

    def __call__(cls, *args, **kwargs):
        found = []
        map_aggregate((args, kwargs), lambda a: found.append(a) if isinstance(a, Proxy) else None)
        if found:
            return found[0].tracer.create_proxy("call_function", cls, args, kwargs)
        instance = cls.__new__(cls)
        cls.__init__(instance, *args, **kwargs)
        return instance


_HAS_VARSTUFF = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS


def _patch_function(fn, nargs):
    """fn as a function of nargs positional parameters (its *args / **kwargs / keyword-only
    ones included, in order)."""
    co = fn.__code__
    code = co.replace(co_argcount=nargs, co_posonlyargcount=0, co_kwonlyargcount=0,
                      co_flags=co.co_flags & ~_HAS_VARSTUFF)
    return FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


class PHBase:
    """The placeholder marker in concrete_args: this leaf stays an input."""

    def __repr__(self):
        return "PH"


PH = PHBase()


def _assert(condition, message):
    # The check symbolic_trace adds for a concrete_args value: torch records torch._assert;
    # this stands in while opscope has no opscope._assert.
    assert condition, message


def _assert_is_none(value, msg):
    assert value is None, msg


class Tracer(TracerBase):
    """Traces a module or function into a Graph (see the module docstring).

    autowrap_modules / autowrap_functions: functions recorded as call_function nodes when a Proxy
    reaches them (math's by default). param_shapes_constant: parameters' shape, size() and dim()
    answer with the real values instead of adding nodes.
    """

    def __init__(self, autowrap_modules=(math,), autowrap_functions=(),
                 param_shapes_constant=False):
        super().__init__()
        self._autowrap_function_ids = {
            id(value) for m in autowrap_modules for name, value in m.__dict__.items()
            if not name.startswith("_") and callable(value)}
        self._autowrap_function_ids.update(id(f) for f in autowrap_functions)
        self._autowrap_search = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths = None

    def create_arg(self, a):
        """As TracerBase.create_arg, plus: a parameter, buffer, module or tensor attribute of the
        root becomes a get_attr node of its path, any other tensor a new _tensor_constantN."""
        if isinstance(a, opscope.nn.Parameter):
            for n, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", n, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, opscope.Tensor):
            for n, b in self.root.named_buffers():
                if a is b:
                    return self.create_node("get_attr", n, (), {})
        elif isinstance(a, opscope.nn.Module):
            for n, m in self.root.named_modules():
                if a is m:
                    return self.create_node("get_attr", n, (), {})
        if isinstance(a, tuple) and hasattr(a, "_fields"):
            args = tuple(self.create_arg(elem) for elem in a)
            return self.create_node("call_function", a.__class__, args, {})
        if isinstance(a, opscope.Tensor):
            qualname = self.tensor_attrs.get(a)
            if not qualname:
                i = 0
                while hasattr(self.root, f"_tensor_constant{i}"):
                    i += 1
                qualname = f"_tensor_constant{i}"
                self.tensor_attrs[a] = qualname
                setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        if type(a) in _proxyable_classes:
            i = 0
            while hasattr(self.root, f"_{a.__class__.__name__}_constant_{i}"):
                i += 1
            qualname = f"_{a.__class__.__name__}_constant_{i}"
            setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        return super().create_arg(a)

    def is_leaf_module(self, m, module_qualified_name):
        """Leaves are recorded as one call_module node: opscope.nn's modules, but Sequential."""
        return (m.__module__.startswith("opscope.nn")
                and not isinstance(m, opscope.nn.Sequential))

    def path_of_module(self, mod):
        """The dotted path of mod inside the root (NameError when it is not a submodule)."""
        if self.submodule_paths:
            path = self.submodule_paths.get(mod)
            if path is None:
                raise NameError("module is not installed as a submodule")
            return path
        for n, p in self.root.named_modules():
            if mod is p:
                return n
        raise NameError("module is not installed as a submodule")

    def call_module(self, m, forward, args, kwargs):
        """A submodule called during tracing: one call_module node for a leaf, else its forward
        traced inline."""
        module_qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, module_qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", module_qualified_name, args, kwargs)

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        """A module attribute read during tracing: parameters (and, with
        proxy_buffer_attributes, buffers) come back as get_attr Proxies, one per path."""
        def proxy_for(collection):
            for n, p in collection:
                if attr_val is p:
                    if n not in parameter_proxy_cache:
                        factory = None
                        if self.param_shapes_constant:
                            def factory(node):
                                return ParameterProxy(self, node, n, attr_val)
                        parameter_proxy_cache[n] = self.create_proxy(
                            "get_attr", n, (), {}, proxy_factory_fn=factory)
                    return parameter_proxy_cache[n]
            return None

        if isinstance(attr_val, opscope.nn.Parameter):
            found = proxy_for(self.root.named_parameters())
            if found is not None:
                return found
        if self.proxy_buffer_attributes and isinstance(attr_val, opscope.Tensor):
            found = proxy_for(self.root.named_buffers())
            if found is not None:
                return found
        return attr_val

    def create_args_for_root(self, root_fn, is_module, concrete_args=None):
        """The arguments to call root_fn with: self, then a placeholder Proxy per parameter (or
        the concrete value given for it)."""
        fn = inspect.unwrap(root_fn)
        co = fn.__code__
        total_args = co.co_argcount + co.co_kwonlyargcount
        names_iter = iter(co.co_varnames)
        args = []
        skip = 0
        if is_module:
            if total_args == 0:
                raise RuntimeError("``self`` argument cannot be part of *args expansion!")
            skip = 1
            next(names_iter)
            args.append(self.root)
        sig = inspect.signature(fn)

        def default_of(name):
            param = sig.parameters[name]
            return () if param.default is inspect.Parameter.empty else (param.default,)

        def placeholder(name):
            if concrete_args is not None and name in concrete_args:
                count = 0

                def replace_ph(x):
                    nonlocal count
                    count += 1
                    out = self.create_proxy("placeholder", f"{name}_{count}", default_of(name), {})
                    if x is PH:
                        return out
                    if type(x) == bool or (type(x) in _base_types() and type(x) != opscope.Tensor):
                        self.create_proxy("call_function", getattr(opscope, "_assert", _assert),
                                          (out == x, f"{name} has been specialized to have value "
                                                     f"{x} but got another value"), {})
                    elif x is None:
                        self.create_proxy("call_function", _assert_is_none,
                                          (out, f"{name} has been specialized to have value None "
                                                "but got another value"), {})
                    else:
                        warnings.warn(f"Was not able to add assertion to guarantee correct input "
                                      f"{name} to specialized function. It is up to the user to "
                                      "make sure that your inputs match the inputs you "
                                      "specialized the function with.")
                    return x
                return _tree_map(replace_ph, concrete_args[name])
            default = () if name[0] == "*" else default_of(name)
            return self.create_proxy("placeholder", name, default, {},
                                     type_expr=fn.__annotations__.get(name, None))

        arg_names = [next(names_iter) for _ in range(skip, total_args)]
        if isinstance(concrete_args, tuple):
            if len(arg_names) != len(concrete_args):
                raise RuntimeError(f"Tracing expected {len(arg_names)} arguments but got "
                                   f"{len(concrete_args)} concrete arguments")
            concrete_args = dict(zip(arg_names, concrete_args))
        args.extend(placeholder(name) for name in arg_names)
        if co.co_kwonlyargcount > 0 or co.co_flags & _HAS_VARSTUFF:
            # *args and **kwargs become one placeholder each ('*args', '**kwargs'), passed
            # positionally to a copy of the function that takes every parameter by position.
            if co.co_flags & inspect.CO_VARARGS:
                args.append(placeholder("*" + next(names_iter)))
            if co.co_flags & inspect.CO_VARKEYWORDS:
                args.append(placeholder("**" + next(names_iter)))
            root_fn = _patch_function(root_fn, len(args))
        return root_fn, args

    def trace(self, root, concrete_args=None):
        """Trace root (an nn.Module, through its forward, or a plain function) into a Graph."""
        global _is_fx_tracing_flag
        old_flag = _is_fx_tracing_flag
        _is_fx_tracing_flag = True
        try:
            if isinstance(root, opscope.nn.Module):
                self.root = root
                assert hasattr(type(root), self.traced_func_name), \
                    (f"traced_func_name={self.traced_func_name} doesn't exist in "
                     f"{type(root).__name__}")
                fn = getattr(type(root), self.traced_func_name)
                self.submodule_paths = {mod: name for name, mod in root.named_modules()}
            else:
                self.root = opscope.nn.Module()
                fn = root
            self.graph = Graph(tracer_cls=getattr(self, "__class__", None))
            self.tensor_attrs = {}

            def collect_tensor_attrs(m, prefix):
                for k, v in m.__dict__.items():
                    if isinstance(v, opscope.Tensor):
                        self.tensor_attrs[v] = ".".join(prefix + [k])
                for k, v in m.named_children():
                    collect_tensor_attrs(v, prefix + [k])
            collect_tensor_attrs(self.root, [])

            assert isinstance(fn, FunctionType)
            fn_globals = fn.__globals__
            fn, args = self.create_args_for_root(fn, isinstance(root, opscope.nn.Module),
                                                 concrete_args)
            parameter_proxy_cache = {}

            @functools.wraps(_orig_module_getattr)
            def module_getattr_wrapper(mod, attr):
                return self.getattr(attr, _orig_module_getattr(mod, attr), parameter_proxy_cache)

            @functools.wraps(_orig_module_call)
            def module_call_wrapper(mod, *args, **kwargs):
                def forward(*args, **kwargs):
                    return _orig_module_call(mod, *args, **kwargs)
                _autowrap_check(patcher, getattr(getattr(mod, "forward", mod), "__globals__", {}),
                                self._autowrap_function_ids)
                return self.call_module(mod, forward, args, kwargs)

            with _Patcher() as patcher:
                patcher.patch_method(opscope.nn.Module, "__getattr__", module_getattr_wrapper,
                                     deduplicate=False)
                patcher.patch_method(opscope.nn.Module, "__call__", module_call_wrapper,
                                     deduplicate=False)
                _patch_wrapped_functions(patcher)
                _autowrap_check(patcher, fn_globals, self._autowrap_function_ids)
                for module in self._autowrap_search:
                    _autowrap_check(patcher, module.__dict__, self._autowrap_function_ids)
                self.create_node("output", "output", (self.create_arg(fn(*args)),), {},
                                 type_expr=fn.__annotations__.get("return", None))
            self.submodule_paths = None
        finally:
            _is_fx_tracing_flag = old_flag
        return self.graph


def _tree_map(fn, value):
    if isinstance(value, (tuple, list)):
        return type(value)(_tree_map(fn, v) for v in value)
    if isinstance(value, dict):
        return {k: _tree_map(fn, v) for k, v in value.items()}
    return fn(value)


# (globals dict, name) of every function given to wrap(); patched for the time of each trace.
_wrapped_fns_to_patch = []


def _find_proxy(*objects):
    found = []
    map_aggregate(objects, lambda x: found.append(x) if isinstance(x, Proxy) else None)
    return found[-1] if found else None


def _create_wrapped_func(orig_fn):
    @functools.wraps(orig_fn)
    def wrapped(*args, **kwargs):
        proxy = _find_proxy(args, kwargs)
        if proxy is not None:
            result = proxy.tracer.create_proxy("call_function", orig_fn, args, kwargs)
            result.node.meta["is_wrapped"] = True
            return result
        return orig_fn(*args, **kwargs)
    return wrapped


class _Patcher:
    """Patches made during a trace (globals entries and class attributes), undone on exit."""

    def __init__(self):
        self.reverts = []
        self.visited = set()

    def patch(self, frame_dict, name, new_fn, deduplicate=True):
        new_fn.__fx_already_patched = deduplicate
        if name not in frame_dict and hasattr(builtins, name):
            self.reverts.append(lambda: frame_dict.pop(name))
        elif getattr(frame_dict[name], "__fx_already_patched", False):
            return
        else:
            orig = frame_dict[name]
            self.reverts.append(lambda: frame_dict.__setitem__(name, orig))
        frame_dict[name] = new_fn

    def patch_method(self, cls, name, new_fn, deduplicate=True):
        new_fn.__fx_already_patched = deduplicate
        orig = getattr(cls, name)
        if getattr(orig, "__fx_already_patched", False):
            return
        self.reverts.append(lambda: setattr(cls, name, orig))
        setattr(cls, name, new_fn)

    def visit_once(self, thing):
        if id(thing) in self.visited:
            return False
        self.visited.add(id(thing))
        return True

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        while self.reverts:
            self.reverts.pop()()
        self.visited.clear()


def _patch_wrapped_functions(patcher):
    for frame_dict, name in _wrapped_fns_to_patch:
        if name not in frame_dict and hasattr(builtins, name):
            orig_fn = getattr(builtins, name)
        elif name in frame_dict:
            orig_fn = frame_dict[name]
        else:
            # Generated code re-registers its wrapped functions by their qualified name
            # (opscope.fx._symbolic_trace.wrap("opscope.x.f")), which names no global: the
            # function is reached through 'opscope' and was wrapped where it is defined.
            continue
        patcher.patch(frame_dict, name, _create_wrapped_func(orig_fn))


def _autowrap_check(patcher, frame_dict, function_ids):
    if patcher.visit_once(frame_dict):
        for name, value in list(frame_dict.items()):
            if not name.startswith("_") and callable(value) and id(value) in function_ids:
                patcher.patch(frame_dict, name, _create_wrapped_func(value))


def wrap(fn_or_name):
    """Record calls of a module-level function (or of the global named fn_or_name) as one
    call_function node instead of tracing into it. Call at the top level of a module:

        def my_len(x): return len(x)
        opscope.fx.wrap('my_len')
    """
    if not callable(fn_or_name) and not isinstance(fn_or_name, str):
        raise RuntimeError("Unsupported type for global function! Must be either a callable or "
                           "string name")
    fn_name = fn_or_name.__name__ if callable(fn_or_name) else fn_or_name
    caller = inspect.currentframe().f_back
    if caller.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    _wrapped_fns_to_patch.append((caller.f_globals, fn_name))
    return fn_or_name


def symbolic_trace(root, concrete_args=None):
    """Trace an nn.Module or function into a GraphModule (named after root's class / name).

    concrete_args: {parameter name: value} (or a tuple, one per parameter) to fix some inputs
    while tracing; PH keeps one as an input.
    """
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, opscope.nn.Module) else root.__name__
    return GraphModule(tracer.root, graph, name)


wrap("_assert_is_none")
