"""opscope.fx: capture a program as a graph of operations, transform it, and run it again.

The tracer of torch.fx (PyTorch 1.13), on opscope. ``symbolic_trace`` runs a module's forward on
Proxy values; what the program does with them (operators, tensor methods, opscope functions
through ``__torch_function__``, leaf submodules) becomes the Nodes of a Graph, and a GraphModule
turns the graph back into Python code that runs::

    import opscope
    import opscope.fx

    class MLP(opscope.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = opscope.nn.Linear(4, 8)
        def forward(self, x):
            return opscope.relu(self.linear(x)) + 1

    gm = opscope.fx.symbolic_trace(MLP())
    gm.graph.print_tabular()     # placeholder x, call_module linear, call_function relu, ...
    print(gm.code)               # def forward(self, x): linear = self.linear(x); ...
    gm(opscope.randn(2, 4))      # the same values as MLP()(...)

Files: node.py (Node, map_arg), graph.py (Graph, printing, lint), _codegen.py (the generated
forward), proxy.py (Proxy, the recording value), _symbolic_trace.py (Tracer, symbolic_trace,
wrap), graph_module.py (GraphModule), interpreter.py (Interpreter, Transformer),
subgraph_rewriter.py (replace_pattern), passes/ (ShapeProp).
"""
from opscope.fx.graph import CodeGen, Graph
from opscope.fx.graph_module import GraphModule
from opscope.fx.interpreter import Interpreter, Transformer
from opscope.fx.node import Node, map_aggregate, map_arg
from opscope.fx.proxy import Proxy
from opscope.fx._symbolic_trace import PH, ProxyableClassMeta, Tracer, symbolic_trace, wrap
from opscope.fx.subgraph_rewriter import replace_pattern

__all__ = ["symbolic_trace", "Tracer", "wrap", "Graph", "GraphModule", "Node", "Proxy",
           "Interpreter", "Transformer", "map_arg", "map_aggregate", "CodeGen", "PH",
           "ProxyableClassMeta", "replace_pattern"]
