"""Every declared aten op, called once through ``opscope.ops.aten.<op>.<overload>``.

The arguments come from the op's schema (``opscope._C._op_schema``): a sample for each required
argument, chosen by its type and name (SAMPLES), with per-op replacements where the generic
sample does not fit (OVERRIDES: mm needs matrices, bitwise ops integers, ...). Arguments with a
default keep it. The call must succeed and return what the schema says: a new tensor, the
tensor written in place or passed as out= (the same object), a view of its input, or a list.

An op declared later that the generator cannot build arguments for fails here, by name: there is
no list of ops to keep in sync, only samples to add.

    /usr/bin/python3 -m pytest -q tests/python/test_op_table.py
"""
import glob
import importlib
import os
import re

import pytest

import opscope
from reference_cases import matrix

ALL_OPS = sorted(opscope._C._all_op_names())


# --- schemas ---------------------------------------------------------------------------------
def split_top_level(text):
    """Splits on commas that are not inside (), [] — `Tensor(a -> *) self, int[2] x`."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return parts + ([current.strip()] if current.strip() else [])


def parse_schema(schema):
    """'aten::add.out(Tensor self, ..., *, Tensor(a!) out) -> Tensor(a!)' ->
    (arguments as dicts: type, name, default, kwarg_only, alias; return types)."""
    m = re.fullmatch(r"(\w+::[\w.]+)\((.*)\) -> (.+)", schema)
    assert m, f"cannot read schema {schema!r}"
    args, kwarg_only = [], False
    for piece in split_top_level(m.group(2)):
        if piece == "*":
            kwarg_only = True
            continue
        decl, has_default, default = piece.partition("=")
        type_, name = decl.rsplit(" ", 1)
        alias = re.search(r"\((\w!?)", type_)
        args.append({"type": type_, "name": name, "has_default": bool(has_default), "default": default,
                     "kwarg_only": kwarg_only, "alias": alias.group(1) if alias else None})
    returns = m.group(3)  # `()` (nothing: in-place list ops), `(Tensor, Tensor)` or one type
    returns = split_top_level(returns[1:-1]) if returns.startswith("(") else [returns]
    return args, returns


def base_type(type_):
    """'Tensor(a!)' -> 'Tensor', 'SymInt[]' -> 'int[]', 'int?' -> 'int', 'Tensor(a)[]' -> 'Tensor[]'."""
    t = re.sub(r"\(.*?\)", "", type_).replace("SymInt", "int").rstrip("?")
    return re.sub(r"\[\d+\]", "[]", t)


# --- samples ---------------------------------------------------------------------------------
# (base type, argument name) -> a sample; callables are called for a fresh value each time.
SAMPLES = {
    ("Tensor", "self"): lambda: matrix(2, 3), ("Tensor", "other"): lambda: matrix(2, 3),
    ("Tensor", "exponent"): lambda: matrix(2, 3) / 4, ("Tensor", "src"): lambda: matrix(2, 3),
    ("Tensor", "value"): lambda: opscope.tensor(1.5),  # fill_.Tensor takes a 0-d value
    ("Tensor", "out"): lambda: opscope.empty(0),
    ("Scalar", "self"): 2, ("Scalar", "other"): 2, ("Scalar", "exponent"): 2, ("Scalar", "s"): 3,
    ("Scalar", "start"): 0, ("Scalar", "end"): 5, ("Scalar", "fill_value"): 1.5, ("Scalar", "value"): 1.5,
    ("Scalar", "threshold"): 0.5,
    ("int", "dim"): 0, ("int", "dim0"): 0, ("int", "dim1"): 1, ("int", "index"): 1, ("int", "start"): 0,
    ("int", "length"): 2, ("int", "source"): 0, ("int", "destination"): 1, ("int", "axis0"): 0,
    ("int", "axis1"): 1, ("int", "n"): 3, ("int", "m"): 2, ("int", "steps"): 5, ("int", "low"): 0,
    ("int", "high"): 10, ("int", "from"): 0, ("int", "to"): 10, ("int", "dimension"): 1,
    ("int", "size"): 2, ("int", "step"): 1,
    ("int[]", "size"): [2, 3], ("int[]", "stride"): [3, 1], ("int[]", "shape"): [3, 2],
    ("int[]", "dims"): [1, 0], ("int[]", "sizes"): [3, 1], ("int[]", "source"): [0],
    ("int[]", "destination"): [1],
    ("str", "rounding_mode"): "floor", ("ScalarType", "dtype"): opscope.float64,
    ("Device", "device"): "cpu", ("Generator", "generator"): lambda: opscope.Generator().manual_seed(0),
}

INTS = {("Tensor", "self"): lambda: matrix(2, 3, dtype=opscope.int64),
        ("Tensor", "other"): lambda: matrix(2, 3, dtype=opscope.int64),
        ("Tensor", "out"): lambda: opscope.empty(0, dtype=opscope.int64)}
# Per op: replacements for the generic samples, by argument name or (base type, name).
OVERRIDES = {
    "aten::mm": {"self": lambda: matrix(2, 3), "mat2": lambda: matrix(3, 4)},
    "aten::mm.out": {"self": lambda: matrix(2, 3), "mat2": lambda: matrix(3, 4)},
    "aten::bmm": {"self": lambda: matrix(2, 2, 3), "mat2": lambda: matrix(2, 3, 4)},
    "aten::bmm.out": {"self": lambda: matrix(2, 2, 3), "mat2": lambda: matrix(2, 3, 4)},
    "aten::mv": {"vec": lambda: matrix(3)}, "aten::mv.out": {"vec": lambda: matrix(3)},
    "aten::dot": {"self": lambda: matrix(3), "tensor": lambda: matrix(3)},
    "aten::dot.out": {"self": lambda: matrix(3), "tensor": lambda: matrix(3)},
    "aten::vdot": {"self": lambda: matrix(3), "other": lambda: matrix(3)},
    "aten::vdot.out": {"self": lambda: matrix(3), "other": lambda: matrix(3)},
    "aten::matmul": {"other": lambda: matrix(3, 4)},
    "aten::prelu": {"weight": lambda: matrix(3)},
    "aten::hardshrink_backward": {"grad_out": lambda: matrix(2, 3), "lambd": 0.5},
    "aten::softshrink_backward": {"grad_output": lambda: matrix(2, 3), "lambd": 0.5},
    "aten::rrelu_with_noise": {"noise": lambda: matrix(2, 3)},
    "aten::rrelu_with_noise_": {"noise": lambda: matrix(2, 3)},
    "aten::rrelu_with_noise.out": {"noise": lambda: matrix(2, 3)},
    "aten::rrelu_with_noise_backward": {"grad_output": lambda: matrix(2, 3),
                                        "noise": lambda: matrix(2, 3), "lower": 0.1,
                                        "upper": 0.3, "training": True,
                                        "self_is_result": False},
    "aten::prelu_backward": {"grad_output": lambda: matrix(2, 3), "weight": lambda: matrix(3)},
    "aten::unflatten.int": {"dim": 1},
    "aten::view.dtype": {"dtype": opscope.int32},  # same element size: any geometry
    "aten::select_backward": {"grad_output": lambda: matrix(3), "input_sizes": [2, 3], "dim": 0, "index": 1},
    "aten::slice_backward": {"grad_output": lambda: matrix(2, 2), "input_sizes": [2, 5], "dim": 1, "start": 1,
                             "end": 5, "step": 2},
    "aten::diagonal_backward": {"grad_output": lambda: matrix(3), "input_sizes": [3, 4], "offset": 1, "dim1": 0,
                                "dim2": 1},
    "aten::unfold_backward": {"grad_in": lambda: matrix(4, 2), "input_sizes": [5], "dim": 0, "size": 2, "step": 1},
    **{name: INTS for name in ALL_OPS if "bitwise" in name},
}


def merge_family_samples():
    """Each op family adds its own samples in tests/python/samples_<family>.py (module-level
    SAMPLES and OVERRIDES dicts), so families do not edit one shared table; a key given twice
    must agree."""
    here = os.path.dirname(__file__)
    for path in sorted(glob.glob(os.path.join(here, "samples_*.py"))):
        module = importlib.import_module(os.path.basename(path)[:-3])
        for table, extra in ((SAMPLES, getattr(module, "SAMPLES", {})),
                             (OVERRIDES, getattr(module, "OVERRIDES", {}))):
            for key, value in extra.items():
                assert key not in table or table[key] is value, f"{path}: {key!r} is already sampled"
                table[key] = value


merge_family_samples()


def sample_arguments(name, schema):
    """Positional and keyword arguments for one call of the op `name` with this schema."""
    args, _ = parse_schema(schema)
    overrides = OVERRIDES.get(name, {})
    positional, keywords = [], {}
    for arg in args:
        key = (base_type(arg["type"]), arg["name"])
        if key in overrides or arg["name"] in overrides:
            value = overrides.get(key, overrides.get(arg["name"]))
        elif arg["has_default"]:
            continue  # the schema's default
        else:
            if key not in SAMPLES:
                raise LookupError(f"{schema}: no sample for argument '{arg['name']}' of type "
                                  f"{arg['type']}; add one to SAMPLES or OVERRIDES in {__file__}")
            value = SAMPLES[key]
        value = value() if callable(value) else value
        if arg["kwarg_only"]:
            keywords[arg["name"]] = value
        else:
            assert not keywords, f"{schema}: positional argument after a skipped default"
            positional.append(value)
    return positional, keywords


def overload_of(name):
    """`aten::add.out` -> opscope.ops.aten.add.out (`aten::mm` -> ...mm.default)."""
    qualified, _, overload = name.partition(".")
    namespace, op = qualified.split("::")
    return getattr(getattr(getattr(opscope.ops, namespace), op), overload or "default")


def storage_base(t):
    return t.data_ptr() - t.storage_offset() * t.element_size()


# Ops whose schema says Tensor(a) but which copy when they must (a dtype change, a layout that
# no view can express); with the samples above only `to` copies.
MAY_COPY = {"aten::to.dtype", "aten::to.device", "aten::to.other", "aten::to.dtype_layout",
            "aten::contiguous", "aten::reshape"}


def check_result(name, schema, positional, keywords, result):
    args, returns = parse_schema(schema)
    values = dict(zip([a["name"] for a in args if not a["kwarg_only"]], positional), **keywords)
    if not returns:  # `-> ()`: the op only writes its (a!) arguments
        assert result is None, f"{name} returned {type(result).__name__}, schema says ()"
        return
    results = list(result) if len(returns) > 1 else [result]
    assert len(results) == len(returns), f"{name}: {len(results)} results, schema says {returns}"
    for r, ret in zip(results, returns):
        alias = re.search(r"\((\w!?)", ret)
        annotated = [values[a["name"]] for a in args if alias and a["alias"] == alias.group(1)]
        if ret.endswith("[]"):
            assert isinstance(r, (list, tuple)) and r and all(isinstance(x, opscope.Tensor) for x in r), name
            if isinstance(values.get("self"), (list, tuple)):  # _foreach_*: one result per input
                assert len(r) == len(values["self"]), f"{name}: {len(r)} results for {len(values['self'])} inputs"
            if annotated:
                assert all(storage_base(x) == storage_base(annotated[0]) for x in r), f"{name}: not views"
            continue
        plain = {"bool": bool, "int": int, "float": float, "Scalar": (bool, int, float, complex)}
        kind = ret.split()[0]
        if kind in plain:
            assert isinstance(r, plain[kind]), f"{name} returned {type(r).__name__}, schema says {kind}"
            continue
        assert isinstance(r, opscope.Tensor), f"{name} returned {type(r).__name__}"
        if alias and alias.group(1).endswith("!"):
            assert r is annotated[0], f"{name} must return its {alias.group(1)} argument itself"
        elif alias and name not in MAY_COPY:
            assert storage_base(r) == storage_base(annotated[0]), f"{name}: result is not a view"


@pytest.mark.parametrize("name", ALL_OPS)
def test_every_op_runs_with_schema_built_arguments(name):
    schema = opscope._C._op_schema(name)
    positional, keywords = sample_arguments(name, schema)
    result = overload_of(name)(*positional, **keywords)
    check_result(name, schema, positional, keywords, result)


def test_every_declared_op_is_covered():
    """The ops the samples can call are exactly the ops declared (no op untested), and every
    override names an op that exists."""
    covered = set()
    for name in ALL_OPS:
        try:
            sample_arguments(name, opscope._C._op_schema(name))
            covered.add(name)
        except LookupError:
            pass
    assert covered == set(ALL_OPS), f"no samples for: {sorted(set(ALL_OPS) - covered)}"
    assert set(OVERRIDES) <= set(ALL_OPS), f"overrides of undeclared ops: {sorted(set(OVERRIDES) - set(ALL_OPS))}"
    assert len(ALL_OPS) >= 180


def test_the_schema_reader():
    args, returns = parse_schema("aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]")
    assert [(a["type"], a["name"], a["default"]) for a in args] == [("Tensor(a -> *)", "self", ""), ("int", "dim", "0")]
    assert returns == ["Tensor(a)[]"] and base_type("Tensor(a)[]") == "Tensor[]"
    args, returns = parse_schema("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)")
    assert [a["kwarg_only"] for a in args] == [False, False, True, True] and args[3]["alias"] == "a!"
    assert base_type("SymInt[]") == "int[]" and base_type("int?") == "int" and base_type("int[2]") == "int[]"
    _, returns = parse_schema("aten::x(Tensor self) -> (Tensor values, Tensor indices)")
    assert returns == ["Tensor values", "Tensor indices"]
    args, returns = parse_schema("aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()")
    assert returns == [] and args[0]["alias"] == "a!" and base_type(args[0]["type"]) == "Tensor[]"
    with pytest.raises(LookupError, match="no sample for argument 'weird'"):
        sample_arguments("aten::x", "aten::x(Tensor self, float weird) -> Tensor")
