"""Fuzz cases: what to call and with what, reproducible from (seed, index), printed as a snippet.

    >>> ts = targets()
    >>> case = make_case(7, 123, ts)
    >>> print(case.code)          # a standalone snippet: paste it into a REPL
    >>> case.id, case.target      # ('7:123', 'torch.ops.aten.index_select.default')

The targets (targets.py) are everything a REPL user can call. Case `index` of a run calls target
number `index % N` of a list shuffled per seed (reshuffled every N cases), so any N consecutive
cases reach every target once. Its arguments come from the target's schema (or Python signature)
and the argument names (values.py), a share of them hostile; the call may be wrapped (no_grad,
inference_mode, warnings as errors, under a trace, followed by backward); the snippet prints the
result as a REPL would and runs one more op.
"""
import inspect
import keyword
import random
import re
from dataclasses import dataclass

from scenarios import SCENARIOS
from targets import _OPERATORS_BINARY, _OPERATORS_INPLACE, op_name, targets  # noqa: F401
from values import (BOOLISH, DEVICES, DTYPES, FLOATISH, HOSTILE_CLASSES, INTISH, STR_CHOICES,
                    TENSORISH, Values, contiguous_strides, numel, plan)


@dataclass
class Case:
    id: str
    target: str
    code: str


# --- one case ----------------------------------------------------------------------------------

class Ctx:
    """The state of one case being made: its random stream, setup lines, base shape and dtype."""

    def __init__(self, rng, op_name=""):
        self.rng = rng
        self.lines = []
        self.counter = 0
        self.tensors = []  # variables bound to tensors, for out= aliasing
        self.shape = Values(self).random_shape()
        if rng.random() < 0.05:  # big enough for the kernels' parallel paths (OpenMP)
            self.shape = rng.choice([[70000], [300, 250], [50, 40, 40], [2, 40000], [40000, 2]])
        self.dtype = rng.choices(DTYPES, weights=[1, 1, 1, 1, 1, 3, 1, 1, 8, 3])[0]
        # How many arguments are hostile: none in some cases, so calls reach the kernels.
        self.hostility = rng.choices([0.0, 0.1, 0.35], weights=[3, 4, 3])[0]
        self.op_name = op_name.rstrip("_") if not op_name.startswith("_") else op_name
        self.inplace = op_name.endswith("_") and not op_name.endswith("__")
        if re.search(r"bitwise|shift|gcd|lcm|__and|__or|__xor", self.op_name) and rng.random() < 0.7:
            self.dtype = rng.choice(["int64", "int32", "uint8", "int8", "bool"])
        self.plan = plan(self.op_name, rng) if rng.random() < 0.85 else {}
        if "self" in self.plan:
            self.shape = list(self.plan["self"])

    def bind(self, expr, prefix="a"):
        name = f"{prefix}{self.counter}"
        self.counter += 1
        self.lines.append(f"{name} = {expr}")
        if prefix == "t":
            self.tensors.append(name)
        return name


class Maker:
    """Turns a target into the source of one call."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.rng = ctx.rng
        self.v = Values(ctx)

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def hostile_now(self):
        return self.chance(self.ctx.hostility)

    # --- plausible values, by schema type and name ----------------------------------------------
    def dim_value(self):
        nd = max(len(self.ctx.shape), 1)
        if self.chance(0.1):
            return str(self.pick([nd, -nd - 1, 64, -65]))
        return str(self.rng.randrange(-nd, nd))

    def small_int(self, name=""):
        if name == "reduction":
            return str(self.rng.randint(0, 2))
        if name == "ignore_index":
            return self.pick(["-100", "0", "1"])
        if name in ("num_classes",):
            return self.pick(["-1", "3", "5"])
        return str(self.rng.choice([0, 1, 1, 2, 2, 3, 4, -1]))

    def shape_like(self):
        shape = self.ctx.shape
        n = numel(shape)
        options = [list(shape), [n], [-1], list(reversed(shape)), self.v.random_shape()]
        if shape:
            with_m1 = list(shape)
            with_m1[self.rng.randrange(len(shape))] = -1
            options.append(with_m1)
            options.append([1] + list(shape))
        return repr(self.pick(options))

    def int_list_value(self, a):
        name = a.name
        nd = len(self.ctx.shape)
        if name in self.ctx.plan:
            return repr(self.ctx.plan[name])
        if name in ("size", "shape", "sizes"):
            return self.shape_like()
        if name in ("dim", "dims", "axis"):
            pool = list(range(-nd, nd)) if nd else [0, -1]
            k = self.rng.randint(0 if a.has_default else 1, max(1, nd))
            picked = self.rng.sample(pool, min(k, len(pool)))
            # a permutation for permute-like ops, otherwise any distinct dims
            return repr(picked)
        if name == "stride":
            return repr(contiguous_strides(self.ctx.shape))
        if name == "repeats":
            return repr([self.rng.randint(1, 3) for _ in range(nd + self.rng.randint(0, 1))])
        if name == "pad":
            return repr([self.rng.randint(-1, 2) for _ in range(2 * self.rng.randint(1, 2))])
        if a.fixed_size:
            if self.chance(0.3):
                return self.dim_value()
            return repr([int(self.dim_value()) for _ in range(a.fixed_size)])
        return repr([self.rng.randint(0, 3) for _ in range(self.rng.randint(0, 3))])

    def tensor_value(self, name):
        v, ctx = self.v, self.ctx
        shape = ctx.shape
        if name in ctx.plan and name not in ("self", "input"):
            if name in ("target", "indices"):
                # class indices below C = self's dim 1 (its last for 2-d); rows of the weight
                if name == "indices":
                    hi = ctx.plan["weight"][0]
                else:
                    inp = ctx.plan.get("self") or ctx.plan.get("input")
                    hi = inp[1] if len(inp) >= 2 else 1
                return ctx.bind(v.int_data(ctx.plan[name], 0, max(hi, 1)), "t")
            return v.tensor(shape=ctx.plan[name])
        if name in ("index", "indices"):
            n = max(min(shape) if shape else 1, 1)
            if self.chance(0.15):
                n = n + self.pick([1, 5, 2**31, 2**62])  # out of range, maybe far
            ishape = shape if self.chance(0.5) else [self.rng.randint(0, 3)]
            return v.tensor(shape=ishape, dtype="int64", layout="contiguous", grad=False,
                            special_p=0.0) if self.chance(0.3) else ctx.bind(
                v.int_data(ishape, -n, n), "t")
        if name in ("mask", "condition"):
            return v.tensor(dtype="bool")
        if name == "target":
            if self.chance(0.5):
                n = shape[-1] if shape else 2
                tshape = shape[:1] if len(shape) >= 2 else []
                return ctx.bind(v.int_data(tshape, 0, max(n, 1)), "t")
            return v.tensor()
        if name in ("mat2", "mat1", "vec", "vec1", "vec2", "weight", "bias", "batch1", "batch2"):
            if self.chance(0.5):
                return v.tensor(shape=v.random_shape(3))
        if self.chance(0.1):
            return v.tensor(shape=v.random_shape())
        if self.chance(0.15):
            return v.tensor(dtype=self.pick(DTYPES))
        if self.chance(0.1) and shape:
            return v.tensor(shape=shape[1:])  # broadcasts
        return v.tensor()

    def out_value(self):
        """Something to pass as out=: fresh, resized, of the wrong dtype or shape, expanded,
        transposed, requiring grad, or an input (or a view of one) again."""
        ctx = self.ctx
        shape, dtype = ctx.shape, ctx.dtype
        choices = [
            f"torch.empty(0, dtype=torch.{dtype})",
            f"torch.empty({tuple(shape)!r}, dtype=torch.{dtype})",
            f"torch.empty({tuple(shape)!r}, dtype=torch.{self.pick(DTYPES)})",
            "torch.empty(3, 7)",
            "torch.zeros(1).expand(5)",
            "torch.zeros(4, 4).t()",
            "torch.zeros(2, requires_grad=True)",
            "torch.tensor(0.)",
            f"torch.zeros(1, dtype=torch.{dtype}).expand({tuple(shape)!r})" if shape else "torch.zeros(())",
        ]
        if ctx.tensors and self.chance(0.4):
            t = self.pick(ctx.tensors)
            return self.pick([t, t, f"{t}[:1]", f"{t}.view(-1)", f"{t}.flatten()"])
        if self.chance(0.1):
            return self.v.hostile()
        return ctx.bind(self.pick(choices), "t")

    def value(self, a, for_out=False):
        """A value for schema argument a."""
        if a.is_out or for_out:
            return self.out_value()
        if self.hostile_now():
            if a.kind in ("int", "SymInt"):
                return self.v.hostile_int_list() if a.is_list and self.chance(0.5) else self.v.hostile_int()
            return self.v.hostile()
        if a.optional and self.chance(0.15):
            return "None"
        k = a.kind
        if a.is_list:
            if k in ("int", "SymInt"):
                return self.int_list_value(a)
            if k == "Tensor":
                if a.elem_optional:  # indices
                    entries = []
                    for _ in range(self.rng.randint(1, max(1, len(self.ctx.shape)))):
                        entries.append(self.pick(["None", self.tensor_value("index"),
                                                  self.v.tensor(dtype="bool")]))
                    return "[" + ", ".join(entries) + "]"
                if self.chance(0.08):
                    return "[]"
                items = [self.v.tensor() if self.chance(0.8) else self.tensor_value("")
                         for _ in range(self.rng.randint(1, 3))]
                if self.chance(0.2):
                    return "(" + ", ".join(items) + ",)"
                return "[" + ", ".join(items) + "]"
            if k == "float":
                return repr([round(self.rng.uniform(-2, 2), 2) for _ in range(self.rng.randint(1, 3))])
            if k == "bool":
                return repr([self.chance(0.5) for _ in range(a.fixed_size or 2)])
            return self.v.hostile()
        if k == "Tensor":
            if a.name == "self" and (a.mutable or self.ctx.inplace):
                return self.self_tensor()
            return self.tensor_value(a.name)
        if k in ("int", "SymInt"):
            if "dim" in a.name or a.name in ("axis", "axis0", "axis1", "source", "destination"):
                return self.dim_value()
            return self.small_int(a.name)
        if k == "float":
            if a.name == "p":
                return self.pick(["0.5", "0.0", "1.0", "2.0"])
            return self.pick(["0.5", "1.0", "2.0", "-1.0", "0.0", "1e-5", "0.1"])
        if k == "bool":
            return self.pick(["True", "False"])
        if k == "str":
            return self.pick(STR_CHOICES.get(a.name, ["'none'", "'sum'"]))
        if k == "Scalar":
            if self.chance(0.08):
                return self.pick(["nan", "inf", "-inf", "-0.0", "2**63 - 1", "1e308", "5e-324"])
            return self.pick(["0", "1", "-1", "2", "3", "0.5", "-2.5", "True", "1.5"])
        if k == "ScalarType":
            return "torch." + self.pick(DTYPES)
        if k == "Device":
            return self.pick(["'cpu'", "'cpu'", "torch.device('cpu')"] + DEVICES[3:6])
        if k == "Layout":
            return "torch.strided"
        if k == "MemoryFormat":
            return self.pick(["torch.contiguous_format", "torch.preserve_format",
                              "torch.channels_last"])
        if k == "Generator":
            return self.pick(["torch.Generator()", "torch.default_generator",
                              "torch.Generator().manual_seed(3)"])
        if k == "Dimname":
            return "'N'"
        return self.v.hostile()

    def value_for_param(self, p):
        """A value for a Python parameter with no schema: by its name and default."""
        name, d = p.name, p.default
        if name in ("data", "ndarray", "ext_tensor", "iterable", "obj"):
            return self.v.data_value()
        if self.hostile_now():
            return self.v.hostile()
        if name in BOOLISH or isinstance(d, bool):
            return self.pick(["True", "False"])
        if name in ("dtype",):
            return "torch." + self.pick(DTYPES)
        if name in ("device",):
            return self.pick(["'cpu'", "None", "'cuda'", "'meta'"])
        if name in STR_CHOICES and (isinstance(d, str) or d is inspect.Parameter.empty):
            return self.pick(STR_CHOICES[name])
        if isinstance(d, str):
            return repr(d)
        if name in FLOATISH or isinstance(d, float):
            return self.pick(["0.5", "1.0", "2.0", "0.0", "1e-5", "-1.0"])
        if name in INTISH or isinstance(d, int):
            if name in ("size", "shape", "sizes"):
                return self.shape_like()
            if "dim" in name or name == "axis":
                return self.dim_value()
            if name == "pad":
                return repr(tuple(self.rng.randint(-1, 2) for _ in range(2 * self.rng.randint(1, 2))))
            return self.small_int(name)
        if name in TENSORISH:
            return self.tensor_value(name)
        if d is None and self.chance(0.5):
            return "None"
        return self.pick([self.v.tensor(), self.small_int(), "None", "0.5"])

    # --- calls ----------------------------------------------------------------------------------
    def schema_call(self, callee, s, method=False, self_name="input", out_schema=None):
        """Source of a call of callee with arguments for schema s."""
        args = list(s.args[1:] if method else s.args)
        positional, kwargs = [], []
        keyword_from_here = False
        for i, a in enumerate(args):
            if a.is_out:
                continue
            pyname = self_name if (i == 0 and not method and a.name == "self") else a.name
            if a.has_default and self.chance(0.4):
                keyword_from_here = True
                continue
            val = self.value(a)
            if a.kwarg_only or keyword_from_here or self.chance(0.07):
                kwargs.append((pyname, val))
                keyword_from_here = True
            else:
                positional.append(val)
        outs = [a for a in s.args if a.is_out]
        if outs and not self.chance(0.1):
            for a in outs:
                kwargs.append((a.name, self.out_value()))
        elif out_schema is not None and self.chance(0.3):
            for a in out_schema.out_args:
                kwargs.append((a.name, self.out_value()))
        return self.render_call(callee, positional, kwargs)

    def render_call(self, callee, positional, kwargs):
        parts = list(positional)
        kw = list(kwargs)
        if self.ctx.hostility:
            if self.chance(0.04):
                parts.append(self.v.hostile())
            if self.chance(0.03):
                kw.append(("bogus", "1"))
            if self.chance(0.02):
                kw.append(("\\ud800", "1"))
        text = ", ".join(parts)
        plain = [(k, v) for k, v in kw if k.isidentifier() and not keyword.iskeyword(k)]
        odd = [(k, v) for k, v in kw if (k, v) not in plain]
        if plain:
            text += (", " if text else "") + ", ".join(f"{k}={v}" for k, v in plain)
        if odd:
            text += (", " if text else "") + "**{" + ", ".join(f"'{k}': {v}" for k, v in odd) + "}"
        return f"{callee}({text})"

    def params_call(self, callee, params):
        positional, kwargs = [], []
        keyword_from_here = False
        for p in params:
            if p.kind == p.VAR_POSITIONAL:
                for _ in range(self.rng.randint(0, 3)):
                    positional.append(self.pick([self.small_int(), self.v.tensor(), self.dim_value()])
                                      if not self.hostile_now() else self.v.hostile())
                continue
            if p.kind == p.VAR_KEYWORD:
                continue
            if p.default is not p.empty and self.chance(0.5):
                keyword_from_here = True
                continue
            val = self.value_for_param(p)
            if p.kind == p.KEYWORD_ONLY or keyword_from_here:
                kwargs.append((p.name, val))
                keyword_from_here = True
            elif p.kind == p.POSITIONAL_ONLY:
                positional.append(val)
            else:
                positional.append(val)
        return self.render_call(callee, positional, kwargs)

    def generic_call(self, callee):
        """A callable we know nothing about: 0-3 arguments of any kind."""
        args = []
        for _ in range(self.rng.choices([0, 1, 2, 3], weights=[3, 4, 2, 1])[0]):
            args.append(self.v.hostile() if self.hostile_now() or self.chance(0.3)
                        else self.pick([self.dim_value(), self.v.tensor(), "True", "0.5"]))
        return self.render_call(callee, args, [])

    def self_tensor(self):
        if self.chance(0.2):
            return self.v.hostile_tensor()
        if self.ctx.inplace and self.chance(0.8):
            return self.v.tensor(grad=False, layout=self.pick(
                ["contiguous", "contiguous", "transposed", "strided", "offset"]))
        return self.v.tensor()

    def index_value(self, as_expr=False):
        """Something to put in x[...] (as_expr: as an expression, slices as slice objects)."""
        nd = len(self.ctx.shape)

        def one():
            kind = self.rng.choices(
                ["int", "slice", "none", "ellipsis", "bool", "tensor", "mask", "list", "np", "odd"],
                weights=[5, 5, 1, 1, 1, 2, 1, 1, 1, 2])[0]
            if kind == "int":
                return self.pick(["0", "1", "-1", "2", "-3", "5"]) if self.chance(0.8) else self.v.hostile_int()
            if kind == "slice":
                ends = ["", "0", "1", "-1", "2", "5", "2**70", "-2**70", "None"]
                steps = ["", "1", "2", "3", "-1", "0", "2**70", "None"]
                a, b, st = self.pick(ends), self.pick(ends), self.pick(steps)
                if not as_expr:
                    return f"{a}:{b}" + (f":{st}" if st else "")
                return f"slice({a or None}, {b or None}, {st or None})"
            if kind == "none":
                return "None"
            if kind == "ellipsis":
                return "..."
            if kind == "bool":
                return self.pick(["True", "False"])
            if kind == "tensor":
                return self.tensor_value("index")
            if kind == "mask":
                return self.v.tensor(dtype="bool", layout="contiguous")
            if kind == "list":
                return self.pick(["[0, 1]", "[-1, 0, -1]", "[[0], [1]]", "[]", "[True, False]",
                                  "[0, [1]]", "[2**70]", "[0.5]", "[None]", "[torch.tensor(0)]"])
            if kind == "np":
                return self.pick(["np.array([0, 1])", "np.int64(1)", "np.array(True)",
                                  "np.array([True, False])", "np.uint64(2**64 - 1)",
                                  "np.array([0, 1])[::-1]", "np.array([[0]], dtype='>i4')",
                                  "np.array([0.5])", "np.bool_(False)"])
            return self.v.hostile()

        n = self.rng.choices([1, 1, 1, 2, 3, max(nd, 1) + 1], weights=[3, 3, 3, 2, 1, 1])[0]
        items = [one() for _ in range(n)]
        if n == 1:
            return items[0]
        return ("(" + ", ".join(items) + ")") if as_expr else ", ".join(items)

    def operand(self):
        """The other operand of a binary operator."""
        if self.hostile_now() or self.chance(0.2):
            return self.v.hostile()
        return self.pick([self.v.tensor(), self.tensor_value(""), "2", "0.5", "-1", "True",
                          "2**70", "np.float32(2.5)", "np.array(2.5)"])

    # --- one call per target kind ---------------------------------------------------------------
    def body(self, t):
        """(statement lines, expression whose repr the case prints)."""
        rng = self.rng
        if t.kind == "op":
            s = t.schemas[0]
            return [f"r = {self.schema_call(t.callee, s, self_name='self')}"], "r"
        if t.name in _SPECIAL_ARGS:
            args = _SPECIAL_ARGS[t.name](self)
            return [f"r = {self.render_call(t.callee, args, [])}"], "r"
        if t.kind == "function":
            if t.schemas:
                s = self.pick(t.schemas)
                out_schema = _out_overload_for(s, t.schemas)
                return [f"r = {self.schema_call(t.callee, s, out_schema=out_schema)}"], "r"
            if t.params or self.chance(0.5):
                return [f"r = {self.params_call(t.callee, t.params)}"], "r"
            return [f"r = {self.generic_call(t.callee)}"], "r"
        if t.kind == "method":
            x = self.self_tensor()
            if self.chance(0.03):  # the unbound method with something else as self
                callee = f"torch.Tensor{t.callee}"
                return [f"r = {self.render_call(callee, [self.v.hostile()], [])}"], "r"
            if t.schemas:
                s = self.pick(t.schemas)
                out_schema = _out_overload_for(s, t.schemas)
                return [f"r = {self.schema_call(x + t.callee, s, method=True, out_schema=out_schema)}"], "r"
            if t.params:
                return [f"r = {self.params_call(x + t.callee, t.params)}"], "r"
            return [f"r = {self.generic_call(x + t.callee)}"], "r"
        if t.kind == "scenario":
            return SCENARIOS[t.extra](self), "r"
        if t.kind == "property":
            x = self.self_tensor()
            what = rng.choices(["get", "set", "del"], weights=[5, 4, 1])[0]
            if what == "get":
                return [f"r = {x}.{t.extra}"], "r"
            if what == "set":
                val = self.pick([self.v.tensor(), self.v.hostile(), "None", "True",
                                 self.v.tensor(dtype=self.pick(DTYPES))])
                return [f"{x}.{t.extra} = {val}", f"r = {x}.{t.extra}"], "r"
            return [f"del {x}.{t.extra}", f"r = {x}"], "r"
        # operators
        op = t.extra
        x = self.self_tensor()
        if op in _OPERATORS_BINARY:
            y = self.operand()
            expr = f"{x} {op} {y}" if self.chance(0.5) else f"{y} {op} {x}"
            return [f"r = {expr}"], "r"
        if op in _OPERATORS_INPLACE:
            y = self.operand()
            if self.chance(0.25):  # a non-tensor on the left, the tensor on the right
                z = self.ctx.bind(y, "a")
                return [f"{z} {op} {x}", f"r = {z}"], "r"
            return [f"{x} {op} {y}", f"r = {x}"], "r"
        subs = {"x": x}
        letters = set(re.findall(r"\b([yzi])\b", op))
        if "y" in letters:
            subs["y"] = self.operand()
            if op.startswith("format"):
                subs["y"] = self.pick(["'.2f'", "''", "'>10'", "'d'", "'x'", "'garbage'", "'e'"])
        if "z" in letters:
            subs["z"] = self.operand()
        if "i" in letters:
            subs["i"] = self.index_value(as_expr="[i]" not in op)
        text = re.sub(r"\b([xyzi])\b", lambda m: subs[m.group(1)], op)
        if op in ("x[i] = y", "del x[i]") or op.startswith("x.__setitem__"):
            return [text, f"r = {x}"], "r"
        return [f"r = {text}"], "r"


# Constructors and process-wide setters, whose parameters nothing describes.
_SPECIAL_ARGS = {
    "torch.device": lambda m: m.rng.choice([
        [m.pick(DEVICES)], [m.pick(["'cpu'", "'cuda'", "'meta'", "'garbage'"]), m.v.hostile_int()],
        [m.v.hostile()], []]),
    "torch.Tensor": lambda m: m.rng.choice([
        [m.v.data_value()], [m.small_int(), m.small_int()], [m.v.hostile_int()],
        [m.v.hostile_int_list()], [], [m.v.hostile(), m.v.hostile()]]),
    "torch.Generator": lambda m: m.rng.choice([[], [m.pick(DEVICES)], [m.v.hostile()]]),
    "torch.dtype": lambda m: m.rng.choice([[], [m.v.hostile()]]),
    "torch.DispatchKeySet": lambda m: m.rng.choice([
        [], [m.pick(["['CPU']", "['AutogradCPU', 'CPU']", "['garbage']", "['\\ud800']",
                     "[1]", "'CPU'"])], [m.v.hostile()]]),
    "torch.set_default_dtype": lambda m: [m.pick(["torch." + d for d in DTYPES] + [m.v.hostile()])],
    "torch.set_num_threads": lambda m: [m.pick(["1", "2", "0", "-1", m.v.hostile_int()])],
    "torch.manual_seed": lambda m: [m.pick(["0", "1", "-1", m.v.hostile_int(), m.v.hostile()])],
}


def _out_overload_for(s, all_schemas):
    """The out= overload merged into functional schema s (same other arguments), if any."""
    if s.out_args:
        return None
    names = [(a.name, a.kind, a.is_list) for a in s.args]
    for o in all_schemas:
        if o.out_args and [(a.name, a.kind, a.is_list) for a in o.args if not a.is_out] == names:
            return o
    return None


def _wrap(ctx, lines):
    """Optional surroundings of the call: grad modes, warnings as errors, a trace, backward."""
    rng = ctx.rng
    lines = [ln for item in lines for ln in item.split("\n")]
    roll = rng.random()
    if roll < 0.04:
        return ["with torch.no_grad():"] + ["    " + ln for ln in lines]
    if roll < 0.06:
        return ["with torch.inference_mode():"] + ["    " + ln for ln in lines]
    if roll < 0.09:
        return ["warnings.simplefilter('error')"] + lines
    if roll < 0.12:
        args = "with_stack=True" if rng.random() < 0.3 else ""
        return ([f"with torch.trace({args}) as tr:"]
                + ["    " + ln for ln in lines]
                + ["print(tr)", "tr._repr_html_()"])
    if roll < 0.20:
        return lines + ["if isinstance(r, torch.Tensor) and r.requires_grad:",
                        "    r.sum().backward()"]
    return lines


_HEADER = "import numpy as np\nimport opscope as torch\nfrom math import inf, nan\n"
_IMPORTS = [("operator.", "import operator"), ("copy.", "import copy"), ("pickle.", "import pickle"),
            ("math.", "import math"), ("warnings.", "import warnings"),
            ("Fraction(", "from fractions import Fraction"),
            ("Decimal(", "from decimal import Decimal"), ("array.array(", "import array")]


# The last line of every case: the session goes on. A case that leaves the process broken (a
# null observer installed, a corrupted allocator) fails here, in its own snippet.
_NEXT_LINE = "torch.ones(3).mul(2).sum().item()"


def render(ctx, body_lines, result):
    body = "\n".join(ctx.lines + body_lines + [f"print(repr({result}))", _NEXT_LINE])
    head = _HEADER
    for needle, imp in _IMPORTS:
        if needle in body:
            head += imp + "\n"
    for cls, definition in HOSTILE_CLASSES.items():
        if re.search(rf"\b{cls}\(", body):
            head += definition + "\n"
    return head + body + "\n"


def make_case(seed, index, ts):
    n = len(ts)
    order = list(range(n))
    random.Random(f"order:{seed}:{index // n}").shuffle(order)
    t = ts[order[index % n]]
    rng = random.Random(f"case:{seed}:{index}")
    ctx = Ctx(rng, op_name(t))
    maker = Maker(ctx)
    lines, result = maker.body(t)
    lines = _wrap(ctx, lines)
    return Case(id=f"{seed}:{index}", target=t.name, code=render(ctx, lines, result))
