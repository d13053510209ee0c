"""Graph: the list of Nodes that make up one traced function, and its Python code.

A Graph is a doubly-linked list of Nodes (see node.py for the op kinds) in execution order.
It names every node uniquely (``linear``, ``linear_1``, ``sum_1`` because ``sum`` is a builtin),
prints itself as torch.fx does (``str(graph)``, ``print_tabular()``), checks itself
(``lint()``), and turns itself back into a ``forward`` function (``python_code``), the source
that GraphModule compiles and shows as ``.code``.

>>> import opscope, opscope.fx
>>> g = opscope.fx.Graph()
>>> x = g.placeholder("x")
>>> g.output(g.call_function(opscope.relu, (x,)))
output
>>> print(g.python_code("self").src.strip())
def forward(self, x):
    relu = opscope.relu(x);  x = None
    return relu
"""
import builtins
import contextlib
import copy
import inspect
import keyword
import math
import re
import typing
import warnings
from dataclasses import dataclass

from opscope.fx._tabulate import simple_table
from opscope.fx.node import Node, _get_qualified_name, _type_repr, map_arg

__all__ = ["PythonCode", "CodeGen", "Graph"]


# Operators that generated code writes as Python syntax: operator.add(a, b) -> 'a + b'.
reflectable_magic_methods = {
    "add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}",
    "truediv": "{} / {}", "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}",
    "lshift": "{} << {}", "rshift": "{} >> {}", "and_": "{} & {}", "or_": "{} | {}",
    "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}",
}
magic_methods = dict({
    "eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}",
    "ge": "{} >= {}", "pos": "+{}", "neg": "-{}", "invert": "~{}",
}, **reflectable_magic_methods)
inplace_methods = {
    "iadd": "{} += {}", "iand": "{} &= {}", "ifloordiv": "{} //= {}", "ilshift": "{} <<= {}",
    "imod": "{} %= {}", "imul": "{} *= {}", "imatmul": "{} @= {}", "ior": "{} |= {}",
    "ipow": "{} **= {}", "irshift": "{} >>= {}", "isub": "{} -= {}", "itruediv": "{} /= {}",
    "ixor": "{} ^= {}", "setitem": "{}[{}] = {}",
}


# Generic builtins as annotations name them in generated code: list[int] -> List[int].
_origin_type_map = {list: typing.List, dict: typing.Dict, set: typing.Set,
                    frozenset: typing.FrozenSet, tuple: typing.Tuple}


def _custom_builtins():
    """Names every generated forward can use without an import: name -> object."""
    import opscope
    return {"inf": math.inf, "nan": math.nan, "NoneType": type(None), "opscope": opscope,
            "device": opscope.device}


def _is_magic(name):
    return name.startswith("__") and name.endswith("__")


def _snake_case(s):
    """'pascalCase' -> 'pascal_case', 'ALL_CAPS' -> 'all_caps' (how targets become node names)."""
    chars = []
    prev_lower = False
    for c in s:
        if prev_lower and c.isupper():
            chars.append("_")
        chars.append(c.lower())
        prev_lower = c.islower()
    return "".join(chars)


def _is_from_opscope(obj):
    """opscope's own functions are written by qualified name (opscope.relu) in generated code."""
    module = getattr(obj, "__module__", None)
    if module is not None:
        return module.partition(".")[0] == "opscope"
    return False


class _Namespace:
    """Unique Python identifiers for objects: each object one name, no name twice, and no name
    that shadows a keyword, a builtin or one of the custom builtins (unless it is that object)."""

    _illegal_chars = re.compile("[^0-9a-zA-Z_]+")
    _name_suffix = re.compile(r"(.*)_(\d+)$")

    def __init__(self):
        self._obj_to_name = {}
        self._unassociated_names = set()
        self._used_names = set()

    def create_name(self, candidate, obj):
        if obj is not None and obj in self._obj_to_name:
            return self._obj_to_name[obj]
        candidate = self._illegal_chars.sub("_", candidate)
        if candidate[0].isdigit():
            candidate = f"_{candidate}"
        match = self._name_suffix.match(candidate)
        if match is None:
            base, num = candidate, None
        else:
            base, num = match.group(1), int(match.group(2))
        candidate = base if num is None else f"{base}_{num}"
        num = num or 0
        while candidate in self._used_names or self._is_illegal_name(candidate, obj):
            num += 1
            candidate = f"{base}_{num}"
        self._used_names.add(candidate)
        if obj is None:
            self._unassociated_names.add(candidate)
        else:
            self._obj_to_name[obj] = candidate
        return candidate

    def associate_name_with_obj(self, name, obj):
        assert obj not in self._obj_to_name
        assert name in self._unassociated_names
        self._obj_to_name[obj] = name
        self._unassociated_names.remove(name)

    def _is_illegal_name(self, name, obj):
        if name in keyword.kwlist:
            return True
        if name in builtins.__dict__:
            return obj is not builtins.__dict__[name]
        customs = _custom_builtins()
        if name in customs:
            return obj is not customs[name]
        return False


@dataclass
class PythonCode:
    """The source of a graph's forward (``src``) and the globals it runs with."""
    src: str
    globals: dict


def _format_target(base, target):
    """'self' + 'layers.0' -> 'self.layers[0]'-style access: getattr() for non-identifiers."""
    r = base
    for atom in target.split("."):
        r = f"{r}.{atom}" if atom.isidentifier() else f'getattr({r}, "{atom}")'
    return r


class _InsertPoint:
    def __init__(self, graph, new_insert):
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, new_insert

    def __enter__(self):
        pass

    def __exit__(self, exc_type, exc, tb):
        self.graph._insert = self.orig_insert


class _node_list:
    """The graph's nodes in order (or reversed); safe to mutate the graph while iterating."""

    def __init__(self, graph, direction="_next"):
        self.graph = graph
        self.direction = direction

    def __len__(self):
        return self.graph._len

    def __iter__(self):
        root, direction = self.graph._root, self.direction
        cur = getattr(root, direction)
        while cur is not root:
            if not cur._erased:
                yield cur
            cur = getattr(cur, direction)

    def __reversed__(self):
        return _node_list(self.graph, "_next" if self.direction == "_prev" else "_prev")


class CodeGen:
    """Writes a graph's nodes as the body of ``def forward(self, ...)``; subclass to change the
    signature or the return statement."""

    def __init__(self):
        self._body_transformer = None

    def gen_fn_def(self, free_vars, maybe_return_annotation):
        if not free_vars or free_vars[0] != "self":
            free_vars.insert(0, "self")
        return f"def forward({', '.join(free_vars)}){maybe_return_annotation}:"

    def generate_output(self, output_args):
        return f"return {output_args!r}"

    def process_inputs(self, *args):
        return args

    def process_outputs(self, outputs):
        return outputs

    def additional_globals(self):
        return []

    def _gen_python_code(self, nodes, root_module, namespace, *, verbose=False):
        free_vars = []
        body = []
        globals_ = {}
        wrapped_fns = {}
        return_annotation = [""]

        def add_global(name_hint, obj):
            # opscope's functions keep their qualified name (opscope.nn.functional.gelu), reached
            # through the 'opscope' global; anything else gets a global of its own.
            import opscope
            if _is_from_opscope(obj) and obj is not opscope.device:
                return _get_qualified_name(obj)
            global_name = namespace.create_name(name_hint, obj)
            if global_name in globals_:
                assert globals_[global_name] is obj
                return global_name
            globals_[global_name] = obj
            return global_name

        for name, obj in _custom_builtins().items():
            add_global(name, obj)

        def type_repr(o):
            if o == ():
                return "()"      # Tuple[()]
            if hasattr(o, "__origin__"):
                # A generic (List[Tensor]): its origin as the typing name, then its arguments.
                origin = _origin_type_map.get(o.__origin__, o.__origin__)
                origin_name = add_global(_type_repr(origin), origin)
                args = [type_repr(a) for a in getattr(o, "__args__", ())]
                return f"{origin_name}[{','.join(args)}]" if args else origin_name
            return add_global(_type_repr(o), o)

        def arg_repr(arg):
            if isinstance(arg, tuple) and hasattr(arg, "_fields"):   # a NamedTuple
                return f"{add_global(_get_qualified_name(type(arg)), type(arg))}{tuple(arg)!r}"
            return repr(arg)

        def format_args(args, kwargs):
            args_s = ", ".join(arg_repr(a) for a in args)
            kwargs_s = ", ".join(f"{k} = {arg_repr(v)}" for k, v in kwargs.items())
            if args_s and kwargs_s:
                return f"{args_s}, {kwargs_s}"
            return args_s or kwargs_s

        # A value is freed (`x = None`) right after its last reader: walk backwards and record,
        # for each node, the first reader met.
        last_reader = {}
        frees_after = {}
        for node in reversed(nodes):
            for read in node.all_input_nodes:
                if read not in last_reader:
                    last_reader[read] = node
                    frees_after.setdefault(node, []).append(read)

        def end_line(user):
            if user.op == "placeholder":
                return
            if user.op == "output":
                body.append("\n")
                return
            to_free = frees_after.get(user, [])
            if to_free:
                body.append(f";  {' = '.join([repr(n) for n in to_free] + ['None'])}\n")
            else:
                body.append("\n")

        def emit(node):
            annotation = "" if node.type is None else f" : {type_repr(node.type)}"
            if node.op == "placeholder":
                default = "" if not node.args else f" = {node.args[0]!r}"
                free_vars.append(f"{node.target}{annotation}{default}")
                raw_name = node.target.replace("*", "")
                if raw_name != repr(node):
                    body.append(f"{node!r} = {raw_name}\n")
                return
            if node.op == "call_method":
                method = _format_target(repr(node.args[0]), node.target)
                body.append(f"{node!r}{annotation} = {method}"
                            f"({format_args(node.args[1:], node.kwargs)})")
                return
            if node.op == "call_function":
                target = node.target
                module = getattr(target, "__module__", None)
                name = getattr(target, "__name__", None)
                if module == "_operator" and name in magic_methods:
                    body.append(f"{node!r}{annotation} = "
                                f"{magic_methods[name].format(*(repr(a) for a in node.args))}")
                    return
                if module == "_operator" and name in inplace_methods:
                    body.append(f"{inplace_methods[name].format(*(repr(a) for a in node.args))};  "
                                f"{node!r}{annotation} = {node.args[0]!r}")
                    return
                global_name = add_global(_get_qualified_name(target), target)
                if (global_name == "getattr" and len(node.args) == 2
                        and isinstance(node.args[1], str) and node.args[1].isidentifier()):
                    attr = _format_target(repr(node.args[0]), node.args[1])
                    body.append(f"{node!r}{annotation} = {attr}")
                    return
                body.append(f"{node!r}{annotation} = "
                            f"{global_name}({format_args(node.args, node.kwargs)})")
                if node.meta.get("is_wrapped", False):
                    wrapped_fns.setdefault(global_name)
                return
            if node.op == "call_module":
                body.append(f"{node!r}{annotation} = {_format_target(root_module, node.target)}"
                            f"({format_args(node.args, node.kwargs)})")
                return
            if node.op == "get_attr":
                body.append(f"{node!r}{annotation} = {_format_target(root_module, node.target)}")
                return
            if node.op == "output":
                if node.type is not None:
                    return_annotation[0] = f" -> {type_repr(node.type)}"
                body.append(self.generate_output(node.args[0]))
                return
            raise NotImplementedError(f"node: {node.op} {node.target}")

        prev_stacktrace = [None]

        def stacktrace_summary(node):
            # verbose: a comment naming the user's line before each run of nodes it produced.
            if node.op in ("placeholder", "output"):
                return
            if node.stack_trace:
                if node.stack_trace != prev_stacktrace[0]:
                    prev_stacktrace[0] = node.stack_trace
                    body.append(f"\n# {_summarize_stack_trace(node.stack_trace)}\n")
            elif prev_stacktrace[0] != "":
                prev_stacktrace[0] = ""
                body.append("\n# No stacktrace found for following nodes \n")

        for node in nodes:
            if verbose:
                stacktrace_summary(node)
            emit(node)
            end_line(node)
        if not body:
            body.append("pass\n")

        wrap_stmts = ""
        if wrapped_fns:
            from opscope.fx._symbolic_trace import wrap
            wrap_name = add_global(_get_qualified_name(wrap), wrap)
            wrap_stmts = "\n".join(f'{wrap_name}("{name}")' for name in wrapped_fns)

        if self._body_transformer:
            body = self._body_transformer(body)
        for name, value in self.additional_globals():
            add_global(name, value)
        prologue = self.gen_fn_def(free_vars, return_annotation[0])
        code = "\n".join("    " + line for line in "".join(body).split("\n"))
        return PythonCode(f"\n{wrap_stmts}\n\n{prologue}\n{code}", globals_)


def _summarize_stack_trace(stack_trace):
    """'File: path:line, code: source' from a node's stack trace (innermost frame first), with
    any leading lines that are not frames joined in front."""
    lines = stack_trace.strip().split("\n")
    idx = 0
    context = []
    while idx < len(lines) and not lines[idx].strip().startswith("File "):
        context.append(lines[idx].strip())
        idx += 1
    parts = [", ".join(context)] if context else []
    if idx + 1 < len(lines):
        match = re.match(r'^File "(.+)", line (\d+), in (.+)$', lines[idx].strip())
        if match:
            parts.append(f"File: {match.group(1)}:{match.group(2)}")
        parts.append(f"code: {lines[idx + 1].strip()}")
    return ", ".join(parts)


class Graph:
    """The nodes of one function, in execution order; see the module docstring."""

    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None):
        self._root = Node(self, "", "root", "", (), {})
        self._insert = self._root.prepend    # new nodes go before the root: at the end
        self._len = 0
        self._graph_namespace = _Namespace()
        self._owners = 0
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._tracer_extras = tracer_extras
        self._codegen = CodeGen()

    @property
    def owning_module(self):
        """The GraphModule that holds this graph (None when none or several do)."""
        return self._owning_module

    @owning_module.setter
    def owning_module(self, mod):
        if mod:
            self._owning_module = mod if not self._owners else None
            self._owners += 1

    @property
    def nodes(self):
        return _node_list(self)

    # --- building -------------------------------------------------------------------------------
    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        """A new node at the insert point (the end, unless inserting_before/after says)."""
        assert op in ("call_function", "call_method", "get_attr", "call_module", "placeholder",
                      "output")
        args = () if args is None else args
        kwargs = {} if kwargs is None else kwargs
        assert isinstance(args, tuple), "args must be a tuple"
        assert isinstance(kwargs, dict), "kwargs must be a dict"
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        n = Node(self, name, op, target, args, kwargs, type_expr)
        self._graph_namespace.associate_name_with_obj(name, n)
        self._insert(n)
        self._len += 1
        return n

    def placeholder(self, name, type_expr=None, default_value=inspect.Signature.empty):
        args = () if default_value is inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        if self.owning_module and not _attr_reference_exists(self.owning_module, qualified_name):
            warnings.warn("Attempted to insert a get_attr Node with no underlying reference in "
                          "the owning GraphModule! Call GraphModule.add_submodule to add the "
                          "necessary submodule, GraphModule.add_parameter to add the necessary "
                          "Parameter, or nn.Module.register_buffer to add the necessary buffer",
                          stacklevel=2)
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        if self.owning_module and _submodule_or_none(self.owning_module, module_name) is None:
            warnings.warn("Attempted to insert a call_module Node with no underlying reference in "
                          "the owning GraphModule! Call GraphModule.add_submodule to add the "
                          "necessary submodule")
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_function", the_function, args, kwargs, type_expr=type_expr)

    def output(self, result, type_expr=None):
        return self.create_node(op="output", target="output", args=(result,), type_expr=type_expr)

    def node_copy(self, node, arg_transform=lambda x: x):
        """A copy of node (from any graph) in this one; arg_transform maps its Node arguments."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result.meta = copy.copy(node.meta)
        return result

    def graph_copy(self, g, val_map, return_output_node=False):
        """Copy g's nodes into this graph (val_map: g's node -> this graph's); returns what g's
        output returns, mapped (and g's output node with it when asked)."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                rv = map_arg(node.args[0], lambda n: val_map[n])
                return rv if not return_output_node else (rv, node)
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def __deepcopy__(self, memo=None):
        memo = memo if memo else {}
        g = Graph(tracer_cls=self._tracer_cls)
        output_val, old_output = g.graph_copy(self, val_map=memo, return_output_node=True)
        g._codegen = copy.deepcopy(self._codegen)
        g.output(output_val, type_expr=getattr(old_output, "type", None))
        return g

    def erase_node(self, to_erase):
        """Remove a node nothing reads any more (RuntimeError while it still has users)."""
        if len(to_erase.users) > 0:
            raise RuntimeError(f"Tried to erase Node {to_erase} but it still had "
                               f"{len(to_erase.users)} users in the graph: {to_erase.users}!")
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase.args = map_arg(to_erase.args, lambda n: None)
        to_erase.kwargs = map_arg(to_erase.kwargs, lambda n: None)

    def inserting_before(self, n=None):
        """Insert new nodes before n (the start of the graph when None); a context manager that
        restores the insert point on exit."""
        if n is None:
            return self.inserting_after(self._root)
        assert n.graph == self, "Node to insert before is not in graph."
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n=None):
        """Insert new nodes after n (the end of the graph when None); see inserting_before."""
        if n is None:
            return self.inserting_before(self._root)
        assert n.graph == self, "Node to insert after is not in graph."
        return _InsertPoint(self, n.append)

    def _target_to_str(self, target):
        if callable(target):
            op = target.__name__
        else:
            assert isinstance(target, str)
            op = target[2:-2] if _is_magic(target) else target
        return _snake_case(op)

    # --- code -----------------------------------------------------------------------------------
    def process_inputs(self, *args):
        return self._codegen.process_inputs(*args)

    def process_outputs(self, out):
        return self._codegen.process_outputs(out)

    def set_codegen(self, codegen):
        self._codegen = codegen

    def python_code(self, root_module, *, verbose=False):
        """The graph as the source of a forward function whose attributes live on root_module."""
        namespace = _Namespace()
        saved = {}
        for node in self.nodes:
            saved[node] = node._repr_fn
            node._repr_fn = lambda n: namespace.create_name(n.name, n)
        try:
            return self._codegen._gen_python_code(self.nodes, root_module, namespace,
                                                  verbose=verbose)
        finally:
            for node, fn in saved.items():
                node._repr_fn = fn

    def on_generate_code(self, make_transformer):
        """Install a transform of the generated body's lines (a context manager undoes it)."""
        old = self._codegen._body_transformer
        self._codegen._body_transformer = make_transformer(old)

        @contextlib.contextmanager
        def restore():
            try:
                yield
            finally:
                self._codegen._body_transformer = old
        return restore()

    # --- printing and checking ------------------------------------------------------------------
    def __str__(self):
        placeholder_names = []
        # (torch 1.13 passes no return-type slot here: the header never shows '-> type')
        lines = [node.format_node(placeholder_names) for node in self.nodes]
        s = f"graph({', '.join(placeholder_names)}):"
        for line in lines:
            if line:
                s += "\n    " + line
        return s

    def print_tabular(self):
        """Print one row per node: opcode, name, target, args, kwargs (torch.fx's table)."""
        rows = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(simple_table(rows, ["opcode", "name", "target", "args", "kwargs"]))

    def lint(self):
        """Check the graph is well formed: known opcodes, nodes owned by this graph, every
        argument defined before use, unique names and, with an owning module, targets that
        exist there. Raises RuntimeError (ValueError for a target of the wrong type)."""
        import opscope

        def check_arg(arg, n=None):
            context = f" of Node '{n}' " if n else " "
            if arg.graph is not self:
                raise RuntimeError(f"Argument '{arg}'{context}does not belong to this Graph, but "
                                   "was used as an argument! If you are copying nodes from "
                                   "another graph, make sure to use ``arg_transform`` on "
                                   f"node_copy() to remap values\n{self}")
            if arg not in seen_values:
                raise RuntimeError(f"Argument '{arg}'{context}was used before it has been "
                                   "defined! Please check that Nodes in the graph are "
                                   f"topologically ordered\n{self}")

        seen_names = set()
        seen_values = set()
        for node in self.nodes:
            if node.op not in ("placeholder", "call_method", "call_module", "call_function",
                               "get_attr", "output"):
                raise RuntimeError(f"Node {node} had unknown opcode {node.op}!")
            if node.graph is not self:
                raise RuntimeError(f"Node '{node}' does not belong to this Graph!")
            map_arg(node.args, lambda arg: check_arg(arg, node))
            map_arg(node.kwargs, lambda arg: check_arg(arg, node))
            seen_values.add(node)
            if node.name in seen_names:
                raise RuntimeError(f"Node redefined name {node.name}!")
            seen_names.add(node.name)

        if not self.owning_module:
            return
        for node in self.nodes:
            if node.op == "call_function":
                if not callable(node.target):
                    raise ValueError(f"Node {node} target {node.target} has type "
                                     f"{type(node.target).__qualname__} but a Callable is expected")
            elif not isinstance(node.target, str):
                raise ValueError(f"Node {node} target {node.target} has type "
                                 f"{type(node.target).__qualname__} but a str is expected")
            if node.op not in ("get_attr", "call_module"):
                continue
            atoms = node.target.split(".")
            m = self.owning_module
            for i, atom in enumerate(atoms):
                new_m = getattr(m, atom, None)
                seen_qualname = ".".join(atoms[:i])
                if new_m is None:
                    raise RuntimeError(f"Node {node} target {node.target} references nonexistent "
                                       f"attribute {atom} of {seen_qualname}")
                if node.op == "call_module" and not isinstance(new_m, opscope.nn.Module):
                    raise RuntimeError(f"Node {node} target {node.target} {atom} of "
                                       f"{seen_qualname} does not reference an nn.Module")
                if (node.op == "get_attr" and not isinstance(new_m, opscope.nn.Module)
                        and not isinstance(new_m, opscope.nn.Parameter)
                        and atom not in m._buffers):
                    warnings.warn(f"Node {node} target {node.target} {atom} of {seen_qualname} "
                                  "does not reference an nn.Module, nn.Parameter, or buffer, "
                                  "which is what 'get_attr' Nodes typically target")
                else:
                    m = new_m

    def eliminate_dead_code(self):
        """Erase nodes nothing reads (and that have no side effect), last first; returns whether
        the graph changed. Assumes the graph is functional: see Node.is_impure."""
        self.lint()
        changed = False
        for node in reversed(self.nodes):
            if not node.is_impure() and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed


def _submodule_or_none(mod, path):
    try:
        return mod.get_submodule(path)
    except AttributeError:
        return None


def _attr_reference_exists(mod, qualified_name):
    import opscope
    module_path, _, name = qualified_name.rpartition(".")
    submod = _submodule_or_none(mod, module_path)
    if submod is None:
        warnings.warn(f"Failed to fetch module {module_path}!")
        return False
    if not hasattr(submod, name):
        return False
    res = getattr(submod, name)
    return (isinstance(res, (opscope.nn.Module, opscope.nn.Parameter))
            or name in submod._buffers)
