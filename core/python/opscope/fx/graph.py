"""Graph: the list of Nodes that make up one traced function, and its Python code.

A Graph is a doubly-linked list of Nodes (see node.py for the op kinds) in execution order.
It names every node uniquely (``linear``, ``linear_1``, ``sum_1`` because ``sum`` is a builtin),
prints itself as torch.fx does (``str(graph)``, ``print_tabular()``), checks itself
(``lint()``), and turns itself back into a ``forward`` function (``python_code``, written by
_codegen.CodeGen), the source that GraphModule compiles and shows as ``.code``.

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
import contextlib
import copy
import inspect
import warnings

from opscope.fx._codegen import CodeGen, PythonCode, _Namespace
from opscope.fx._tabulate import simple_table
from opscope.fx.node import Node, map_arg

__all__ = ["PythonCode", "CodeGen", "Graph"]


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
