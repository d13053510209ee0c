"""Proxy: the stand-in value that records what a traced program does with it.

Tracing calls the program with Proxies instead of tensors. Each thing done to a Proxy adds a
Node to the tracer's graph and returns a new Proxy for the result:

    proxy + 1, proxy[0], -proxy      magic methods          call_function operator.add, ...
    proxy.view(-1)                   attribute, then call   call_method 'view'
    proxy.shape                      attribute, used        call_function getattr
    opscope.relu(proxy)              __torch_function__     call_function opscope.relu

The last row is the protocol of seed 004: opscope's functions look for ``__torch_function__``
on the types of their arguments and hand the call to it (Proxy's classmethod below), so a
function that knows nothing of tracing still ends up in the graph.
"""
import dis
import inspect
import operator

from opscope.fx._codegen import magic_methods, reflectable_magic_methods
from opscope.fx.graph import Graph
from opscope.fx.node import Node, _base_types, map_aggregate

__all__ = ["TracerBase", "GraphAppendingTracer", "TraceError", "Proxy", "Attribute",
           "ParameterProxy"]


class TracerBase:
    """What Proxies need from a tracer: a graph to add nodes to, and argument conversion."""

    graph: Graph
    record_stack_traces = False
    check_mutable_operations = False
    trace_asserts = False
    proxy_buffer_attributes = False
    traced_func_name = "forward"

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        """Add a node (args / kwargs already converted by create_arg) to the graph."""
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node):
        return Proxy(node, self)

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None,
                     proxy_factory_fn=None):
        """Convert args and kwargs (Proxies -> their Nodes), add the node, return its Proxy."""
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        assert isinstance(args_, tuple)
        assert isinstance(kwargs_, dict)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        proxy = self.proxy(node) if not proxy_factory_fn else proxy_factory_fn(node)
        if self.record_stack_traces:
            user_frame = self._find_user_frame()
            if user_frame:
                import traceback
                summary = traceback.StackSummary.extract(traceback.walk_stack(user_frame))
                proxy.node.stack_trace = "".join(summary.format())   # innermost frame first
        return proxy

    def _find_user_frame(self):
        # The first frame outside the tracer's own files: the line of the traced program.
        frame = inspect.currentframe()
        while frame:
            frame = frame.f_back
            if frame and not any(frame.f_code.co_filename.replace("\\", "/").endswith(f)
                                 for f in _TRACER_FILES):
                return frame
        return None

    def create_arg(self, a):
        """A value as a node argument: Proxies become their Nodes, containers are converted
        element by element, constants of the base types stay; anything else is
        NotImplementedError (Tracer.create_arg adds parameters, tensors and modules)."""
        if not isinstance(a, Proxy) and hasattr(a, "__fx_create_arg__"):
            return a.__fx_create_arg__(self)
        if isinstance(a, tuple) and hasattr(a, "_fields"):
            return type(a)(*(self.create_arg(elem) for elem in a))
        if isinstance(a, (tuple, list)):
            return type(a)(self.create_arg(elem) for elem in a)
        if isinstance(a, dict):
            r = {}
            for k, v in a.items():
                k = self.create_arg(k)

                def no_node(arg):
                    if isinstance(arg, Node):
                        raise RuntimeError("Keys for dictionaries used as an argument cannot "
                                           "contain a Node. Got key: {k}")
                map_aggregate(k, no_node)
                r[k] = self.create_arg(v)
            return r
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop),
                         self.create_arg(a.step))
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, _base_types()) or a is None or a is ...:
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj):
        """bool(proxy): a traced value cannot steer Python control flow."""
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def iter(self, obj):
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the Proxy "
                         "is used in a loop or as a *args or **kwargs function argument. See the "
                         "torch.fx docs on pytorch.org for a more detailed explanation of what "
                         "types of control flow can be traced, and check out the Proxy docstring "
                         "for help troubleshooting Proxy iteration errors")

    def keys(self, obj):
        return Attribute(obj, "keys")()


_TRACER_FILES = ("opscope/fx/proxy.py", "opscope/fx/_symbolic_trace.py", "opscope/overrides.py",
                 "opscope/_tensor.py")


class GraphAppendingTracer(TracerBase):
    """A tracer that only appends to a given graph (what a bare Proxy(node) uses)."""

    def __init__(self, graph):
        super().__init__()
        self.graph = graph


class TraceError(ValueError):
    pass


def _is_tensor_method_or_property(fn):
    # Tensor methods (and property getters) become call_method nodes, everything else
    # call_function. opscope.overrides answers this once __torch_function__ support is in.
    try:
        from opscope.overrides import is_tensor_method_or_property
    except ImportError:
        import opscope
        name = getattr(fn, "__name__", None)
        return name == "__get__" or (name is not None and getattr(opscope.Tensor, name, None) is fn)
    return is_tensor_method_or_property(fn)


class Proxy:
    """A value being traced: it stands for ``node`` of ``tracer``'s graph (see module docstring)."""

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return f"Proxy({self.node.name})"

    def __getattr__(self, k):
        # Only names not found normally get here: tensor attributes and methods to be traced.
        return Attribute(self, k)

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self):
        # `a, b = proxy` unpacks into proxy[0], proxy[1]; any other iteration cannot be traced.
        frame = inspect.currentframe().f_back
        inst = next((i for i in dis.get_instructions(frame.f_code) if i.offset == frame.f_lasti),
                    None)
        if inst is not None and inst.opname == "UNPACK_SEQUENCE":
            return (self[i] for i in range(inst.argval))
        return self.tracer.iter(self)

    def __bool__(self):
        return self.tracer.to_bool(self)

    def keys(self):
        return self.tracer.keys(self)

    def __len__(self):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want "
                           "this call to be recorded, please call torch.fx.wrap('len') at module "
                           "scope")

    @classmethod
    def __torch_function__(cls, orig_method, types, args=None, kwargs=None):
        """An opscope function called with a Proxy argument: record the call."""
        args = args if args else ()
        kwargs = kwargs if kwargs else {}
        tracers = {}

        def find_tracer(a):
            if isinstance(a, cls):
                tracers[a.tracer] = None
        map_aggregate(args, find_tracer)
        map_aggregate(kwargs, find_tracer)
        if len(tracers) > 1:
            raise RuntimeError(f"Found multiple different tracers {list(tracers.keys())} while "
                               f"trying to trace operations {orig_method}")
        tracer = next(iter(tracers))
        if _is_tensor_method_or_property(orig_method):
            return tracer.create_proxy("call_method", orig_method.__name__, args, kwargs)
        return tracer.create_proxy("call_function", orig_method, args, kwargs,
                                   name=tracer.graph._target_to_str(orig_method.__name__))


class Attribute(Proxy):
    """``proxy.name``: a call_method node when called, else a getattr node (made on first use)."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr,
                                                  (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


class ParameterProxy(Proxy):
    """A parameter's Proxy that answers shape questions from the real parameter (the tracer's
    param_shapes_constant=True), so code that branches on parameter shapes can be traced."""

    def __init__(self, tracer, node, name, param):
        super().__init__(node, tracer)
        self.param = param
        self.name = name

    def __repr__(self):
        return f"ParameterProxy({self.name})"

    @property
    def shape(self):
        return self.param.shape

    def size(self):
        return self.param.size()

    def dim(self):
        return self.param.dim()

    @property
    def ndim(self):
        return self.param.ndim

    def numel(self):
        return self.param.numel()

    def nelement(self):
        return self.param.nelement()


def _install_magic_methods():
    # Set after the class is made (not in its body) so that defining __eq__ leaves Proxy hashable.
    for method in magic_methods:
        def scope(method):
            def impl(*args, **kwargs):
                return args[0].tracer.create_proxy("call_function", getattr(operator, method),
                                                   args, kwargs)
            impl.__name__ = method
            setattr(Proxy, f"__{method.strip('_')}__", impl)
        scope(method)

    for method in reflectable_magic_methods:
        def scope_r(method):
            name = f"__r{method.strip('_')}__"

            def impl(self, rhs):
                return self.tracer.create_proxy("call_function", getattr(operator, method),
                                                (rhs, self), {})
            impl.__name__ = impl.__qualname__ = name
            setattr(Proxy, name, impl)
        scope_r(method)


_install_magic_methods()
