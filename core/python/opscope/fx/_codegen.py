"""Code generation for FX graphs: a Graph's nodes as the Python source of ``forward``.

CodeGen writes one line per node (``relu = opscope.relu(x);  x = None``: each value is freed
after its last reader, as torch.fx does), names every value and global through a _Namespace,
writes operators as Python syntax (``add = x + y``) and attribute paths as attribute access
(``self.layers[0]`` style), and returns the source with the globals it needs (PythonCode).
Graph.python_code drives it; GraphModule compiles the result.
"""
import builtins
import keyword
import math
import re
import typing
from dataclasses import dataclass

from opscope.fx.node import _get_qualified_name, _type_repr

__all__ = ["PythonCode", "CodeGen"]

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
