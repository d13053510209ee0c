"""Node: one operation of an FX graph, and the helpers that walk its arguments.

A Node is a value in a Graph. Its ``op`` says what kind of step produces the value:

    op              target                       args / kwargs
    placeholder     the input's name (str)       (default,) or ()
    get_attr        dotted attribute path (str)  ()
    call_function   the callable                 its arguments
    call_method     the method's name (str)      (self, *arguments)
    call_module     dotted submodule path (str)  its arguments
    output          'output'                     (the returned value,)

Arguments hold other Nodes (nested in tuples, lists, dicts and slices); each Node keeps the
Nodes it reads (``all_input_nodes``) and the Nodes that read it (``users``) up to date when its
args change, so rewrites (``replace_all_uses_with``) stay consistent. Names and printing follow
torch.fx of PyTorch 1.13.
"""
import builtins
import types
import warnings

__all__ = ["Node", "map_arg", "map_aggregate"]


def _no_mutation(self, *args, **kwargs):
    raise NotImplementedError(
        f"'{type(self).__name__}' object does not support mutation. If you are attempting to "
        "modify the kwargs or args of a torch.fx.Node object,\ninstead create a new copy of it "
        "and assign the copy to the node:\n    new_args = ... # copy and mutate args\n"
        "    node.args = new_args\n")


def _immutable(base, mutators):
    cls = type("immutable_" + base.__name__, (base,), {m: _no_mutation for m in mutators})
    cls.__module__ = __name__
    return cls


# Node.args / kwargs hold these: a rewrite assigns new args instead of editing them in place,
# so the users / input bookkeeping never goes stale.
immutable_list = _immutable(list, ["__delitem__", "__iadd__", "__imul__", "__setitem__", "append",
                                   "clear", "extend", "insert", "pop", "remove"])
immutable_dict = _immutable(dict, ["__delitem__", "__setitem__", "clear", "pop", "popitem",
                                   "update"])
immutable_list.__reduce__ = lambda self: (immutable_list, (tuple(self),))
immutable_dict.__reduce__ = lambda self: (immutable_dict, (list(self.items()),))


def _base_types():
    import opscope
    return (str, int, float, bool, complex, opscope.dtype, opscope.Tensor, opscope.device,
            opscope.memory_format, opscope.layout)


def _side_effectful_functions():
    import opscope
    from opscope.fx._symbolic_trace import _assert
    return {f for f in (getattr(opscope, "_assert", None), _assert) if f is not None}


def _opscope_namespaces():
    # Where an opscope function is found by name when its __module__ says little
    # (opscope.relu's is 'opscope._C'); torch looks in torch and torch.nn.functional the same way.
    import opscope
    import opscope.nn.functional
    return [opscope, opscope.nn.functional, opscope.linalg, opscope.special]


def _find_module_of_method(fn):
    name = fn.__name__
    module = getattr(fn, "__module__", None)
    if module is None or module.startswith("opscope._C"):
        for guess in _opscope_namespaces():
            if getattr(guess, name, None) is fn:
                return guess.__name__
    if module is not None:
        return module
    raise RuntimeError(f"cannot find module for {fn}")


def _get_qualified_name(fn):
    """'opscope.relu', 'operator.add', 'getattr': how generated code and printing name fn."""
    if getattr(builtins, fn.__name__, None) is fn:
        return fn.__name__
    return f"{_find_module_of_method(fn)}.{fn.__name__}"


def _type_repr(obj):
    if isinstance(obj, type):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return f"{obj.__module__}.{obj.__qualname__}"
    if obj is ...:
        return "..."
    if isinstance(obj, types.FunctionType):
        return obj.__name__
    return repr(obj)


def _format_arg(arg):
    """An argument as Graph.__str__ prints it: Nodes as %name, containers spelled out."""
    if isinstance(arg, list):
        return "[" + ", ".join(_format_arg(a) for a in arg) + "]"
    if isinstance(arg, tuple):
        return "(" + ", ".join(_format_arg(a) for a in arg) + ("," if len(arg) == 1 else "") + ")"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


class Node:
    """One step of a Graph (see the module docstring for what op, target and args mean)."""

    def __init__(self, graph, name, op, target, args, kwargs, return_type=None):
        self.graph = graph
        self.name = name
        assert op in ("placeholder", "call_method", "call_module", "call_function", "get_attr",
                      "output", "root")
        self.op = op
        if op == "call_function":
            if not callable(target):
                raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has "
                                 f"type {_typename(target)} but a Callable is expected")
        elif not isinstance(target, str):
            raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                             f"{_typename(target)} but a str is expected")
        self.target = target
        self._input_nodes = {}   # the Nodes this one reads, first use first (an ordered set)
        self.users = {}          # the Nodes that read this one (same)
        self._set_args_kwargs(map_arg(args, lambda n: n), map_arg(kwargs, lambda n: n))
        self.type = return_type
        # The graph is a circular doubly-linked list through a root sentinel.
        self._prev = self
        self._next = self
        self._erased = False
        self._repr_fn = None
        self.meta = {}

    # --- position in the graph ------------------------------------------------------------------
    @property
    def next(self):
        return self._next

    @property
    def prev(self):
        return self._prev

    def prepend(self, x):
        """Move x (of the same graph) to just before this node."""
        assert self.graph == x.graph, "Attempting to move a Node into a different Graph"
        if self is x:
            warnings.warn("Trying to prepend a node to itself. This behavior has no effect on "
                          "the graph.")
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x):
        """Move x (of the same graph) to just after this node."""
        self._next.prepend(x)

    def _remove_from_list(self):
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    # --- arguments ------------------------------------------------------------------------------
    @property
    def args(self):
        return self._args

    @args.setter
    def args(self, a):
        self._set_args_kwargs(map_arg(a, lambda n: n), self._kwargs)

    @property
    def kwargs(self):
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k):
        self._set_args_kwargs(self._args, map_arg(k, lambda n: n))

    @property
    def all_input_nodes(self):
        """The Nodes this one reads, each once, in the order its args and kwargs name them."""
        return list(self._input_nodes)

    def update_arg(self, idx, arg):
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key, arg):
        kwargs = dict(self.kwargs)
        kwargs[key] = arg
        self.kwargs = kwargs

    def _set_args_kwargs(self, new_args, new_kwargs):
        self._args = new_args
        self._kwargs = new_kwargs
        for old in self._input_nodes:
            old.users.pop(self)
        self._input_nodes = {}
        map_arg(self._args, lambda n: self._input_nodes.setdefault(n))
        map_arg(self._kwargs, lambda n: self._input_nodes.setdefault(n))
        for new in self._input_nodes:
            new.users.setdefault(self)

    @property
    def stack_trace(self):
        return self.meta.get("stack_trace", None)

    @stack_trace.setter
    def stack_trace(self, trace):
        self.meta["stack_trace"] = trace

    # --- printing -------------------------------------------------------------------------------
    def __repr__(self):
        if self._repr_fn:
            return self._repr_fn(self)
        return self.name

    def _pretty_print_target(self, target):
        if isinstance(target, str):
            return target
        if hasattr(target, "__module__") and hasattr(target, "__name__"):
            if target.__module__ == "builtins":
                return f"builtins.{target.__name__}"
            if target.__module__ == "_operator":
                return f"operator.{target.__name__}"
        return _get_qualified_name(target)

    def format_node(self, placeholder_names=None, maybe_return_typename=None):
        """This node as one line of Graph.__str__ (None for a placeholder listed in the header)."""
        typename = f"{_type_repr(self.type)} " if self.type is not None else ""
        if self.op == "placeholder":
            arg_str = self.target
            if self.type:
                arg_str += arg_str + f": {_type_repr(self.type)}"   # sic: torch 1.13 doubles it
            if placeholder_names:
                placeholder_names.append(arg_str)
                return None
            default = "(default=" + str(self.args[0]) + ")" if self.args else ""
            return (f"%{self.name} : {typename}[#users={len(self.users)}] = "
                    f"{self.op}[target={self.target}]{default}")
        if self.op == "get_attr":
            return (f"%{self.name} : {typename}[#users={len(self.users)}] = "
                    f"{self.op}[target={self._pretty_print_target(self.target)}]")
        if self.op == "output":
            if self.type and maybe_return_typename:
                maybe_return_typename[0] = f" -> {_type_repr(self.type)}"
            return f"return {self.args[0]}"
        return (f"%{self.name} : {typename}[#users={len(self.users)}] = "
                f"{self.op}[target={self._pretty_print_target(self.target)}]"
                f"(args = {_format_arg(self.args)}, kwargs = {_format_arg(self.kwargs)})")

    # --- rewriting ------------------------------------------------------------------------------
    def replace_all_uses_with(self, replace_with, delete_user_cb=lambda user: True):
        """Make every user (for which delete_user_cb says True) read replace_with instead of this
        node; returns the users changed."""
        to_process = list(self.users)
        changed = []
        for user in to_process:
            if not delete_user_cb(user):
                continue
            swap = lambda n: replace_with if n is self else n  # noqa: E731
            user._set_args_kwargs(map_arg(user.args, swap), map_arg(user.kwargs, swap))
            changed.append(user)
        return changed

    def replace_input_with(self, old_input, new_input):
        swap = lambda n: new_input if n is old_input else n  # noqa: E731
        self._set_args_kwargs(map_arg(self.args, swap), map_arg(self.kwargs, swap))

    def is_impure(self):
        """Whether dead-code elimination must keep this node although nothing reads it."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_function":
            return self.target in _side_effectful_functions()
        if self.op == "call_module":
            assert self.graph.owning_module is not None, \
                "self.graph.owning_module not set for purity check"
            target_mod = self.graph.owning_module.get_submodule(self.target)
            return getattr(target_mod, "_is_impure", False)
        return False


def _typename(obj):
    import opscope
    return opscope.typename(obj) if hasattr(opscope, "typename") else type(obj).__qualname__


def map_arg(a, fn):
    """Apply fn to every Node inside the argument structure a (tuples, lists, dicts, slices)."""
    assert callable(fn), "torch.fx.map_arg(a, fn): fn must be a callable"
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def map_aggregate(a, fn):
    """Apply fn to every leaf of the argument structure a; lists and dicts come back immutable."""
    if isinstance(a, tuple):
        t = tuple(map_aggregate(elem, fn) for elem in a)
        return type(a)(*t) if hasattr(a, "_fields") else t
    if isinstance(a, list):
        return immutable_list(map_aggregate(elem, fn) for elem in a)
    if isinstance(a, dict):
        return immutable_dict((k, map_aggregate(v, fn)) for k, v in a.items())
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn),
                     map_aggregate(a.step, fn))
    return fn(a)
