"""GraphModule: an nn.Module whose forward is the Python code of a Graph.

It copies from the traced root only what the graph's get_attr and call_module nodes name
(parameters, buffers, submodules, at the same paths), writes the graph as source (``code``),
and compiles that into ``forward``. After editing ``graph``, call ``recompile()``. Each
GraphModule gets a class of its own, so its forward does not leak into other instances.
"""
import copy
import linecache
import sys
import traceback

import opscope
from opscope.nn.modules.module import _addindent

__all__ = ["GraphModule"]


class _EvalCacheLoader:
    """Keeps each generated source under a made-up file name ('<eval_with_key>.N') so that
    tracebacks and inspect can show the generated lines."""

    def __init__(self):
        self.eval_cache = {}
        self.next_id = 0

    def cache(self, src, globals_):
        key = f"<eval_with_key>.{self.next_id}"
        self.next_id += 1
        self.eval_cache[key] = src
        globals_copy = dict(globals_, __file__=key, __name__=key, __loader__=self)
        linecache.lazycache(key, globals_copy)
        return key

    def get_source(self, module_name):
        return self.eval_cache.get(module_name)


_loader = _EvalCacheLoader()


def _forward_from_src(src, globals_):
    globals_copy = dict(globals_)
    key = _loader.cache(src, globals_copy)
    exec(compile(src, key, "exec"), globals_copy)
    return globals_copy.pop("forward")


def _copy_attr(from_module, to_module, target):
    """Copy the attribute at dotted path target, making empty Modules for missing parents."""
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return
        if t is None:
            t = opscope.nn.Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, opscope.Tensor) and not isinstance(orig, opscope.nn.Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(from_obj, to_module, target):
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = opscope.nn.Module()
            setattr(to_module, item, t)
        to_module = t
    if isinstance(from_obj, opscope.Tensor) and not isinstance(from_obj, opscope.nn.Parameter):
        to_module.register_buffer(field, from_obj)
    else:
        setattr(to_module, field, from_obj)


def _format_import_block(globals_):
    """Import statements that bind each global of generated code (for unpickling)."""
    from opscope.fx._codegen import _custom_builtins
    custom_imports = {"inf": "from math import inf", "nan": "from math import nan",
                      "NoneType": "NoneType = type(None)", "opscope": "import opscope",
                      "device": "from opscope import device"}
    lines = set()
    for name, obj in globals_.items():
        if name in _custom_builtins():
            lines.add(custom_imports[name])
        else:
            lines.add(f"from {obj.__module__} import {obj.__qualname__} as {name}")
    return "\n".join(sorted(lines))


def reduce_graph_module(body, import_block):
    """Rebuild a pickled GraphModule: its forward from the saved code, its graph by tracing that
    forward again with every submodule kept as a leaf."""
    from opscope.fx._symbolic_trace import Tracer
    forward = _forward_from_src(import_block + body["_code"], {})

    class CodeOnlyModule(opscope.nn.Module):
        def __init__(self, body):
            super().__init__()
            self.__dict__ = body
    CodeOnlyModule.forward = forward

    class KeepModules(Tracer):
        def is_leaf_module(self, _, __):
            return True

    com = CodeOnlyModule(body)
    graph = KeepModules().trace(com)
    gm = GraphModule(com, graph, class_name=body.get("_graphmodule_cls_name", "GraphModule"))
    for k, v in body.items():
        if not hasattr(gm, k):
            setattr(gm, k, v)
    return gm


class _WrappedCall:
    """Calls the module; an error raised inside generated code also prints the generated lines
    around it (stderr), as torch.fx does."""

    def __init__(self, cls, cls_call):
        self.cls = cls
        self.cls_call = cls_call

    @staticmethod
    def _generate_error_message(frame):
        lineno = frame.lineno
        lines = linecache.getlines(frame.filename)
        marker = "~" * len(frame.line or "") + "~~~ <--- HERE"
        return "\n".join([traceback.format_exc(),
                          f"Call using an FX-traced Module, line {lineno} of the traced Module's "
                          "generated forward function:",
                          "".join(lines[lineno - 2:lineno]), marker,
                          "\n".join(lines[lineno:lineno + 2])])

    def __call__(self, obj, *args, **kwargs):
        try:
            if self.cls_call is not None:
                return self.cls_call(obj, *args, **kwargs)
            return super(self.cls, obj).__call__(*args, **kwargs)
        except Exception as e:
            top = traceback.extract_tb(e.__traceback__)[-1]
            if "eval_with_key" in top.filename:
                print(_WrappedCall._generate_error_message(top), file=sys.stderr)
                raise e.with_traceback(None)
            raise


class GraphModule(opscope.nn.Module):
    """A Module built from a root (a Module, or a dict from target path to object) and a Graph."""

    def __new__(cls, *args, **kwargs):
        # A class per instance: recompile() sets forward on the class.
        for t in cls.__mro__:
            if t.__qualname__.split(".")[-1] != "GraphModuleImpl":
                cls = t
                break

        class GraphModuleImpl(cls):
            pass
        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name="GraphModule"):
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, opscope.nn.Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            targets = []
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError("Node " + str(node) + " referenced target " +
                                           node.target + " but that target was not provided in "
                                           "``root``!")
                    targets.append(node.target)
            for target in sorted(targets, key=lambda t: t.count(".")):
                _assign_attr(root[target], self, target)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph
        self._tracer_cls = None
        if graph._tracer_cls and "<locals>" not in graph._tracer_cls.__qualname__:
            self._tracer_cls = graph._tracer_cls
        self._tracer_extras = graph._tracer_extras or {}
        self.meta = {}

    @property
    def graph(self):
        return self._graph

    @graph.setter
    def graph(self, g):
        from opscope.fx.graph import Graph
        assert isinstance(g, Graph), f"Expected a Graph instance, but got {type(g)}"
        self._graph = g
        g.owning_module = self
        self.recompile()

    @property
    def code(self):
        """The Python source of forward, generated from the graph."""
        if not hasattr(self, "_code"):
            raise RuntimeError("Code has not been generated! Please report a bug to PyTorch")
        return self._code

    def recompile(self):
        """Regenerate code and forward from the graph (after editing it); returns the PythonCode."""
        python_code = self._graph.python_code(root_module="self")
        self._code = python_code.src
        cls = type(self)
        cls.forward = _forward_from_src(self._code, python_code.globals)
        cls_call = cls.__call__ if "__call__" in vars(cls) else None
        if "_wrapped_call" not in vars(cls):
            cls._wrapped_call = _WrappedCall(cls, cls_call)

        def call_wrapped(self, *args, **kwargs):
            return self._wrapped_call(self, *args, **kwargs)
        cls.__call__ = call_wrapped
        return python_code

    def add_submodule(self, target, m):
        """Install m at dotted path target (making empty parents); False when a parent on the
        path is not a Module."""
        *prefix, field = target.split(".")
        mod = self
        for item in prefix:
            submod = getattr(mod, item, None)
            if submod is None:
                submod = opscope.nn.Module()
                setattr(mod, item, submod)
            if not isinstance(submod, opscope.nn.Module):
                return False
            mod = submod
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target):
        """Remove the submodule at target; False when there is none."""
        *path, name = target.split(".")
        mod = self
        for item in path:
            if not hasattr(mod, item):
                return False
            mod = getattr(mod, item)
            if not isinstance(mod, opscope.nn.Module):
                return False
        if not isinstance(getattr(mod, name, None), opscope.nn.Module):
            return False
        delattr(mod, name)
        return True

    def delete_all_unused_submodules(self):
        """Remove the submodules no node (or its parents' paths) refers to."""
        used = set()
        for node in self.graph.nodes:
            if node.op in ("call_module", "get_attr"):
                atoms = node.target.split(".")
                for i in range(1, len(atoms) + 1):
                    used.add(".".join(atoms[:i]))
                if node.op == "call_module":
                    try:
                        submod = self.get_submodule(node.target)
                    except AttributeError:
                        continue
                    for name, _ in submod.named_modules():
                        if name != "":
                            used.add(node.target + "." + name)
        for name in [n for n, _ in self.named_modules() if n not in used]:
            self.delete_submodule(name)

    def print_readable(self):
        """Print the module as a class with its generated forward."""
        src = self._graph.python_code(root_module="self", verbose=True).src.lstrip("\n")
        src = f"class {self._get_name()}(opscope.nn.Module):\n" + src
        print(_addindent(src, 4))

    def __str__(self):
        return "\n".join([super().__repr__(), self._code,
                          "# To see more debug info, please use `graph_module.print_readable()`"])

    def __reduce__(self):
        body = self.__dict__.copy()
        body["_graphmodule_cls_name"] = self.__class__.__name__
        del body["_graph"]
        python_code = self.recompile()
        return (reduce_graph_module, (body, _format_import_block(python_code.globals)))

    def __deepcopy__(self, memo):
        fake = opscope.nn.Module()
        fake.__dict__ = copy.deepcopy(self.__dict__, memo)
        return GraphModule(fake, fake.__dict__["_graph"])

    def __copy__(self):
        return GraphModule(self, self.graph)
