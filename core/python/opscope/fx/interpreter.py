"""Interpreter and Transformer: run a GraphModule's graph one node at a time.

``Interpreter(gm).run(*args)`` walks the nodes in order and calls the method named after each
node's op (``placeholder``, ``get_attr``, ``call_function``, ``call_method``, ``call_module``,
``output``) with the node's target and its arguments filled in from earlier results. Subclass
and override those methods to observe or change execution (shape propagation, profiling,
swapping an op); values are dropped after their last use unless ``garbage_collect_values`` is
False.

``Transformer`` is an Interpreter whose methods build a new graph instead of computing values:
override e.g. ``call_function`` to emit something else, and ``transform()`` returns the new
GraphModule.
"""
import inspect

from opscope.fx._symbolic_trace import Tracer
from opscope.fx.graph import Graph
from opscope.fx.graph_module import GraphModule
from opscope.fx.node import map_aggregate, map_arg
from opscope.fx.proxy import Proxy

__all__ = ["Interpreter", "Transformer"]


class Interpreter:
    """Runs module.graph node by node (see the module docstring)."""

    def __init__(self, module, garbage_collect_values=True):
        assert isinstance(module, GraphModule)
        self.module = module
        self.submodules = dict(self.module.named_modules())
        self.env = {}
        self.garbage_collect_values = garbage_collect_values
        if garbage_collect_values:
            # For each node, the values whose last reader it is (freed right after it runs).
            seen = set()
            self.user_to_last_uses = {}
            for node in reversed(self.module.graph.nodes):
                for read in node.all_input_nodes:
                    if read not in seen:
                        seen.add(read)
                        self.user_to_last_uses.setdefault(node, []).append(read)

    def run(self, *args, initial_env=None, enable_io_processing=True):
        """Run the graph on args; initial_env maps nodes to values to use instead of running
        them. Returns what the output node returns."""
        self.env = initial_env if initial_env else {}
        if enable_io_processing:
            args = self.module.graph.process_inputs(*args)
        self.args_iter = iter(args)
        for node in self.module.graph.nodes:
            if node in self.env:
                continue
            try:
                self.env[node] = self.run_node(node)
            except Exception as e:
                msg = f"While executing {node.format_node()}"
                msg = f"{e.args[0]}\n\n{msg}" if e.args else str(msg)
                msg += f"\nOriginal traceback:\n{node.stack_trace}"
                e.args = (msg,) + e.args[1:]
                if isinstance(e, KeyError):
                    raise RuntimeError(*e.args)
                raise
            if self.garbage_collect_values:
                for to_delete in self.user_to_last_uses.get(node, []):
                    del self.env[to_delete]
            if node.op == "output":
                output_val = self.env[node]
                if enable_io_processing:
                    return self.module.graph.process_outputs(output_val)
                return output_val

    def run_node(self, n):
        """Run one node: fetch its arguments, call the method named by its op."""
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    def placeholder(self, target, args, kwargs):
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration:
            if len(args) > 0:
                return args[0]
            raise RuntimeError(f"Expected positional argument for parameter {target}, but one "
                               "was not passed in!") from None

    def get_attr(self, target, args, kwargs):
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        assert not isinstance(target, str)
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target, args, kwargs):
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args, kwargs):
        return args[0]

    def fetch_attr(self, target):
        """The attribute of the module at dotted path target."""
        atoms = target.split(".")
        obj = self.module
        for i, atom in enumerate(atoms):
            if not hasattr(obj, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(atoms[:i])}")
            obj = getattr(obj, atom)
        return obj

    def fetch_args_kwargs_from_env(self, n):
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n):
        def load_arg(n_arg):
            if n_arg not in self.env:
                raise RuntimeError(f"Node {n} referenced nonexistent value {n_arg}! Run "
                                   "Graph.lint() to diagnose such issues")
            return self.env[n_arg]
        return map_arg(args, load_arg)


class Transformer(Interpreter):
    """Rebuilds the graph node by node through a tracer; override the op methods to rewrite."""

    def __init__(self, module):
        super().__init__(module)
        self.new_graph = Graph()
        self.new_graph.set_codegen(module.graph._codegen)

        class TransformerTracer(Tracer):
            def __init__(self, graph):
                super().__init__()
                self.graph = graph

            def is_leaf_module(self, _, __):
                return True

        self.tracer = TransformerTracer(self.new_graph)
        self.tracer.root = module

    def placeholder(self, target, args, kwargs):
        default = next(iter(args)) if args else inspect.Signature.empty
        return Proxy(self.new_graph.placeholder(target, default_value=default), self.tracer)

    def get_attr(self, target, args, kwargs):
        return Proxy(self.new_graph.get_attr(target), self.tracer)

    def call_module(self, target, args, kwargs):
        submod = self.fetch_attr(target)
        return self.tracer.call_module(submod, submod.forward, args, kwargs)

    def call_function(self, target, args, kwargs):
        return self.tracer.create_proxy("call_function", target, args, kwargs)

    def transform(self):
        """The new GraphModule (same root, the rebuilt graph)."""
        result = super().run(enable_io_processing=False)
        if result is not None:
            self.new_graph.output(map_aggregate(
                result, lambda a: a.node if isinstance(a, Proxy) else a))
        return GraphModule(self.module, self.new_graph)
