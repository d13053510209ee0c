"""The targets of the fuzzer: everything a REPL user can call, listed from the running build.

Every op overload (torch.ops.aten.<op>.<overload>, from the schemas the build declares), every
public function of opscope, opscope.nn.functional, opscope.linalg and opscope._C, every Tensor
method and property, the number protocol and indexing (`x + y`, `2**70 - x`, `x[i] = v`,
`del x[i]`, `x @= y`, `divmod(x, y)`, `bool(x)`, `format(x, spec)` ...), and the stateful
scenarios of scenarios.py (hooks, custom Functions, graphs reused).
"""
import ast
import inspect
import keyword
import re
from dataclasses import dataclass

import schema as schema_mod
from scenarios import SCENARIOS


@dataclass
class Target:
    kind: str        # op | function | method | operator | property
    name: str        # what the report shows: torch.ops.aten.add.Tensor, torch.add, Tensor.add, x + y
    callee: str = ""  # source of the callable: torch.ops.aten.add.Tensor, torch.add, .add
    schemas: tuple = ()  # parsed schemas (ops, schema-derived functions and methods)
    params: tuple = ()   # inspect parameters (Python functions without a schema)
    extra: str = ""      # operator / property detail


# --- the targets ------------------------------------------------------------------------------

_OPERATORS_BINARY = ["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>",
                     "<", "<=", "==", "!=", ">", ">="]
_OPERATORS_INPLACE = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=",
                      ">>="]
_OPERATORS_OTHER = ["-x", "+x", "~x", "abs(x)", "bool(x)", "int(x)", "float(x)", "complex(x)",
                    "operator.index(x)", "len(x)", "list(x)", "hash(x)", "round(x)",
                    "math.floor(x)", "divmod(x, y)", "divmod(y, x)", "pow(x, y, z)", "y in x",
                    "format(x, y)", "str(x)", "repr(x)", "np.asarray(x)", "np.add(x, y)",
                    "np.add(y, x)", "copy.deepcopy(x)", "pickle.loads(pickle.dumps(x))",
                    "reversed(x)", "sum(x)", "x[i]", "x[i] = y", "del x[i]", "x.__getitem__(y)",
                    "x.__setitem__(i, y)", "x.__setitem__(i)", "torch.Tensor.__getitem__(y, i)",
                    "x.__array__()", "x.__index__()", "iter(x).__next__()", "x.__dlpack__()"]


def _is_op_function(obj):
    return type(obj).__name__ == "OpFunction"


def _schemas_of(opfn):
    import opscope
    out = []
    for full in getattr(opfn, "_overloads", []):
        try:
            out.append(schema_mod.parse(opscope._C._op_schema(full)))
        except ValueError:
            pass
    return tuple(out)


def _params_of(fn):
    """The parameters of a Python callable; for a pybind11 one, read from its docstring's first
    line (`tensor(data: handle, *, dtype: object = None) -> ...`)."""
    try:
        return tuple(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        pass
    doc = (getattr(fn, "__doc__", None) or "").strip().split("\n")[0]
    m = re.match(r"^\w+\((.*)\)\s*->", doc)
    if not m:
        return None
    params, kind = [], inspect.Parameter.POSITIONAL_OR_KEYWORD
    for part in re.split(r",\s*(?![^\[]*\])", m.group(1)):
        part = part.strip()
        if not part:
            continue
        if part == "*":
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        name, _, rest = part.partition(":")
        default = inspect.Parameter.empty
        if "=" in rest:
            text = rest.split("=", 1)[1].strip()
            try:
                default = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                default = None
        try:
            params.append(inspect.Parameter(name.strip(), kind, default=default))
        except ValueError:
            return None
    return tuple(params)


# _C functions that only switch on logging to a file descriptor (every later case would print
# its dispatch trace): harmless, and slow for the rest of the run.
_C_LEFT_OUT = {"_set_alloc_log", "_set_dispatch_log"}


def targets():
    """Every target the build offers, in a stable order."""
    import opscope
    import opscope.nn.functional as F
    ts = []
    # Every op overload, called as torch.ops.<ns>.<op>.<overload>.
    for full in sorted(opscope._C._all_op_names()):
        try:
            s = schema_mod.parse(opscope._C._op_schema(full))
        except ValueError:
            continue
        ns = full.split("::")[0]
        overload = s.overload or "default"
        callee = (f"torch.ops.{ns}.{s.name}.{overload}" if not keyword.iskeyword(overload)
                  else f"getattr(torch.ops.{ns}.{s.name}, {overload!r})")
        ts.append(Target("op", callee, callee, (s,)))
    # Public functions.
    for prefix, module in (("torch", opscope), ("torch.nn.functional", F),
                           ("torch.linalg", opscope.linalg)):
        for name in sorted(dir(module)):
            if name.startswith("__"):
                continue
            obj = getattr(module, name)
            if inspect.ismodule(obj) or not callable(obj):
                continue
            if name.startswith("_") and not _is_op_function(obj):
                continue
            if module is F and (inspect.isclass(obj) or getattr(obj, "__module__", "") != F.__name__):
                continue
            callee = f"{prefix}.{name}"
            if _is_op_function(obj):
                ts.append(Target("function", callee, callee, _schemas_of(obj)))
            else:
                ts.append(Target("function", callee, callee, (), _params_of(obj) or ()))
    # The binding module's own functions (opscope._C.*: a REPL user can reach them too), where
    # they are not the objects already listed under torch.*.
    public = {id(getattr(opscope, n)) for n in dir(opscope)}
    for name in sorted(dir(opscope._C)):
        obj = getattr(opscope._C, name)
        if name.startswith("__") or inspect.ismodule(obj) or not callable(obj) or id(obj) in public:
            continue
        if name in _C_LEFT_OUT:
            continue
        ts.append(Target("function", f"torch._C.{name}", f"torch._C.{name}", (),
                         _params_of(obj) or ()))
    # Tensor methods (schema-derived, hand-written in C++, and Python ones).
    for name in sorted(dir(opscope.Tensor)):
        if name.startswith("__"):
            continue
        attr = inspect.getattr_static(opscope.Tensor, name)
        if isinstance(attr, property) or type(attr).__name__ in ("getset_descriptor",
                                                                 "member_descriptor"):
            ts.append(Target("property", f"Tensor.{name}", extra=name))
            continue
        obj = getattr(opscope.Tensor, name)
        if not callable(obj):
            continue
        if _is_op_function(obj):
            ts.append(Target("method", f"Tensor.{name}", f".{name}", _schemas_of(obj)))
        else:
            ts.append(Target("method", f"Tensor.{name}", f".{name}", (),
                             tuple(_params_of(obj) or ())[1:]))
    for op in _OPERATORS_BINARY:
        ts.append(Target("operator", f"x {op} y", extra=op))
    for op in _OPERATORS_INPLACE:
        ts.append(Target("operator", f"x {op} y", extra=op))
    for op in _OPERATORS_OTHER:
        ts.append(Target("operator", op, extra=op))
    for name in SCENARIOS:
        ts.append(Target("scenario", f"scenario:{name}", extra=name))
    return ts


def op_name(t):
    """The op a target is about (add for x + y, add_ for x += y), for plans and hints."""
    if t.schemas:
        return t.schemas[0].name
    if t.kind in ("function", "method"):
        return t.name.rsplit(".", 1)[-1]
    if t.kind == "operator":
        base = {"&": "__and", "|": "__or", "^": "__xor", "<<": "__lshift", ">>": "__rshift",
                "~x": "bitwise_not", "@": "matmul"}
        if t.extra in _OPERATORS_INPLACE:
            return base.get(t.extra[:-1], "__inplace") + "_"
        return base.get(t.extra, t.extra)
    return ""
