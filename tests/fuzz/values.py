"""Argument values for fuzz cases, as Python source: every value is an expression (or a variable
bound by a setup line) so that a case prints as a standalone snippet.

Two kinds of value:
  * plausible ones, made from the schema type and the argument's name (a `dim` is a valid dim of
    the case's base shape, an `index` is an int64 tensor of valid indices ...), so that calls get
    past argument checks into the kernels;
  * hostile ones: wrong types, None, NumPy arrays and scalars of every dtype (complex, big-endian,
    strided, negative strides), ints at the edges of int64 and past them, NaN / inf / -0.0 /
    denormals, strings with lone surrogates, objects whose __index__ / __float__ raise, tensors of
    every dtype that are empty, 0-d, non-contiguous, expanded (stride 0) or self-overlapping.
"""
import math

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64"]
FLOAT_DTYPES = ["float16", "bfloat16", "float32", "float64"]
INT_DTYPES = ["uint8", "int8", "int16", "int32", "int64"]
INT_RANGE = {"uint8": (0, 255), "int8": (-128, 127), "int16": (-2**15, 2**15 - 1),
             "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}

EDGE_INTS = ["0", "1", "-1", "2", "3", "-3", "7", "2**31 - 1", "2**31", "-2**31 - 1", "2**32",
             "2**62", "2**63 - 1", "-2**63", "2**63", "2**64", "2**70", "-2**70", "10**400"]
EDGE_FLOATS = ["0.5", "-1.5", "0.0", "-0.0", "nan", "-nan", "inf", "-inf", "5e-324", "1e308",
               "-1e308", "1e-10", "3.0", "65504.0", "65520.0", "3.4e38", "1e39", "2.0**63"]
SPECIAL_FLOATS = ["nan", "inf", "-inf", "-0.0", "5e-324", "1e308", "-1e308", "65504.0", "1e-45"]
NP_SCALARS = [
    "np.float16(1.5)", "np.float32(2.5)", "np.float64(-0.5)", "np.longdouble(1.25)",
    "np.int8(-3)", "np.int16(300)", "np.int32(-7)", "np.int64(2**63 - 1)", "np.int64(-2**63)",
    "np.uint8(255)", "np.uint16(65535)", "np.uint32(2**32 - 1)", "np.uint64(2**64 - 1)",
    "np.uint64(3)", "np.int64(2)", "np.bool_(True)", "np.bool_(False)", "np.complex64(1 + 2j)",
    "np.complex128(-1j)", "np.float32('nan')", "np.float64('inf')", "np.float16('-inf')",
    "np.datetime64('2020-01-01')", "np.timedelta64(5, 's')", "np.str_('a')", "np.bytes_(b'a')",
]
NP_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
             "float16", "float32", "float64", "longdouble", "complex64", "complex128", ">f4",
             ">i8", ">f8", "<f4", ">u2", "U3", "S2", "O", "M8[s]", "m8[s]", "V4",
             "[('a', '<f4'), ('b', '<i2')]"]
STRINGS = ["'garbage'", "''", "'\\ud800'", "'cpu'", "'cuda'", "'sum'", "'mean'", "'floor'",
           "'trunc'", "'\\x00'", "'a' * 10000"]
OTHERS = ["None", "[]", "[[]]", "[1, [2]]", "()", "{}", "set()", "object()", "lambda: 0",
          "b'bytes'", "bytearray(3)", "torch.float32", "torch.int64", "torch.device('cpu')",
          "torch.Size([2, 3])", "slice(None)", "...", "range(3)", "1j", "True", "False", "float",
          "int", "np.float32", "np.dtype('float32')", "Fraction(1, 3)", "Decimal('1.5')",
          "[1.5, nan]", "[2**70]", "[None]", "(2, 'a')", "memoryview(b'ab')", "iter([1, 2])",
          "torch.strided", "torch.contiguous_format", "torch.default_generator"]
# Objects whose number protocol fails or lies: errors in C++ argument parsing must propagate.
HOSTILE_CLASSES = {
    "BadNumber": (
        "class BadNumber:\n"
        "    def __index__(self): raise ValueError('__index__ failed')\n"
        "    def __int__(self): raise ValueError('__int__ failed')\n"
        "    def __float__(self): raise ValueError('__float__ failed')\n"
        "    def __len__(self): raise ValueError('__len__ failed')\n"
        "    def __iter__(self): raise ValueError('__iter__ failed')\n"
        "    def __getitem__(self, i): raise ValueError('__getitem__ failed')"),
    "HugeIndex": (
        "class HugeIndex:\n"
        "    def __index__(self): return 2**80\n"
        "    def __float__(self): return 1e300"),
    "FloatSub": "class FloatSub(float): pass",
    "IntSub": "class IntSub(int): pass",
    "BadSeq": (
        "class BadSeq(list):\n"
        "    def __len__(self): return 10**9\n"
        "    def __iter__(self): raise ValueError('__iter__ failed')"),
}
HOSTILE_INSTANCES = ["BadNumber()", "HugeIndex()", "FloatSub(2.5)", "IntSub(3)",
                     "FloatSub(nan)", "IntSub(2**64)", "BadSeq([1, 2])"]
DEVICES = ["'cpu'", "'cpu:0'", "torch.device('cpu')", "'cuda'", "'cuda:0'", "'meta'", "'garbage'",
           "'cpu:-1'", "'cpu:99999999999999999999'", "0", "-1", "2**70", "'cuda:1:2'", "''"]


# Argument names and what they usually want, for parameters no schema describes (and for
# string choices).
STR_CHOICES = {
    "rounding_mode": ["'trunc'", "'floor'"],
    "reduce": ["'sum'", "'prod'", "'mean'", "'amax'", "'amin'", "'add'", "'multiply'"],
    "approximate": ["'none'", "'tanh'"],
    "reduction": ["'mean'", "'sum'", "'none'"],
    "mode": ["'constant'", "'reflect'", "'replicate'", "'circular'"],
    "side": ["'left'", "'right'"],
    "interpolation": ["'linear'", "'lower'", "'higher'", "'midpoint'", "'nearest'"],
    "indexing": ["'ij'", "'xy'"],
    "ord": ["'fro'", "'nuc'", "2", "inf"],
}
INT_NAME_SMALL = {"k", "n", "length", "step", "steps", "chunks", "sections", "split_size",
                   "decimals", "diagonal", "offset", "start", "end", "groups", "from", "to", "high",
                   "low", "num_samples", "bins", "correction", "repeats", "index", "size"}
TENSORISH = {"input", "self", "other", "tensor", "weight", "bias", "target", "x", "y", "grad",
              "gradient", "mat", "mat1", "mat2", "vec", "vec1", "vec2", "src", "source", "value",
              "exponent", "min", "max", "end", "start", "elements", "test_elements", "condition",
              "mask", "index", "indices", "tensors", "input1", "input2", "anchor", "positive",
              "negative", "log_input", "var", "mean", "running_mean", "running_var", "pos_weight",
              "a", "b", "A", "B", "data", "obj", "outputs", "inputs", "grad_outputs",
              "grad_tensors", "tensor1", "tensor2", "batch1", "batch2"}
INTISH = {"dim", "dims", "axis", "dim0", "dim1", "start_dim", "end_dim", "num_classes",
           "padding_idx", "ignore_index", "k", "n", "diagonal", "offset", "groups", "chunks",
           "sections", "split_size_or_sections", "seed", "max_norm", "size", "shape", "pad",
           "num_threads", "repeats", "out_int32", "sizes", "indices_or_sections", "correction"}
FLOATISH = {"p", "eps", "alpha", "beta", "negative_slope", "lambd", "momentum", "threshold",
             "min_val", "max_val", "beta1", "beta2", "lr", "weight_decay", "label_smoothing",
             "norm_type", "scale_grad_by_freq", "rtol", "atol", "margin", "delta"}
BOOLISH = {"keepdim", "inplace", "training", "sparse", "unbiased", "sorted", "return_inverse",
            "return_counts", "requires_grad", "retain_graph", "create_graph", "stable",
            "descending", "largest", "copy", "non_blocking", "log_target", "full", "pin_memory",
            "upper", "right", "half_to_float", "allow_unused", "equal_nan", "accumulate"}


def plan(op, rng):
    """Argument shapes that fit together for ops that need them (matrix products, losses, norms):
    {argument name: shape}, "self" standing for self / input."""
    b, n, k, m = (rng.choice([0, 1, 2, 3, 4]) for _ in range(4))
    if rng.random() < 0.7:
        b, n, k, m = (max(x, 1) for x in (b, n, k, m))
    plans = {
        "mm": {"self": (n, k), "mat2": (k, m)},
        "addmm": {"self": (n, m), "mat1": (n, k), "mat2": (k, m)},
        "bmm": {"self": (b, n, k), "mat2": (b, k, m)},
        "baddbmm": {"self": (b, n, m), "batch1": (b, n, k), "batch2": (b, k, m)},
        "mv": {"self": (n, k), "vec": (k,)},
        "addmv": {"self": (n,), "mat": (n, k), "vec": (k,)},
        "dot": {"self": (k,), "other": (k,), "tensor": (k,)},
        "vdot": {"self": (k,), "other": (k,)},
        "outer": {"self": (n,), "vec2": (m,)},
        "ger": {"self": (n,), "vec2": (m,)},
        "matmul": {"self": rng.choice([(k,), (n, k), (b, n, k)]),
                   "other": rng.choice([(k,), (k, m), (b, k, m)])},
        "linear": {"self": (n, k), "input": (n, k), "weight": (m, k), "bias": (m,)},
        "embedding": {"weight": (n + 1, k), "indices": (m,)},
        "layer_norm": {"self": (n, k), "normalized_shape": (k,), "weight": (k,), "bias": (k,)},
        "native_layer_norm": {"self": (n, k), "normalized_shape": (k,), "weight": (k,),
                              "bias": (k,)},
        "nll_loss": {"self": (n, k + 1), "target": (n,), "weight": (k + 1,)},
        "nll_loss_nd": {"self": (n, k + 1), "target": (n,), "weight": (k + 1,)},
        "nll_loss_forward": {"self": (n, k + 1), "target": (n,), "weight": (k + 1,)},
        "nll_loss2d": {"self": (b, k + 1, n, m), "target": (b, n, m), "weight": (k + 1,)},
        "cross_entropy_loss": {"self": (n, k + 1), "target": (n,), "weight": (k + 1,)},
        "cross_entropy": {"self": (n, k + 1), "input": (n, k + 1), "target": (n,),
                          "weight": (k + 1,)},
        "nll_loss2d_forward": {"self": (b, k + 1, n, m), "target": (b, n, m), "weight": (k + 1,)},
    }
    plan = plans.get(op, {})
    return {name: list(shape) for name, shape in plan.items()}


def numel(shape):
    return math.prod(shape)


def contiguous_strides(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(s, 1)
    return list(reversed(strides))


class Values:
    """Makes the values of one case. Setup statements go to ctx.lines; expressions come back."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.rng = ctx.rng

    # --- small helpers --------------------------------------------------------------------------
    def pick(self, seq):
        return self.rng.choice(seq)

    def chance(self, p):
        return self.rng.random() < p

    # --- shapes and literals --------------------------------------------------------------------
    def random_shape(self, max_dims=4):
        nd = self.rng.choices(range(max_dims + 1), weights=[2, 4, 4, 2, 1][:max_dims + 1])[0]
        return [self.rng.choices([0, 1, 2, 3, 4, 5], weights=[1, 3, 4, 4, 2, 1])[0]
                for _ in range(nd)]

    def scalar_literal(self, dtype, special_p=0.15):
        r = self.rng
        if dtype == "bool":
            return self.pick(["True", "False"])
        if dtype in INT_DTYPES:
            lo, hi = INT_RANGE[dtype]
            if self.chance(special_p):
                return str(self.pick([lo, hi, 0, -1 if lo < 0 else 1]))
            return str(r.randint(max(lo, -5), min(hi, 9)))
        if self.chance(special_p):
            return self.pick(SPECIAL_FLOATS)
        return repr(round(r.gauss(0, 2), 3))

    def nested_literal(self, shape, dtype, special_p=0.15):
        if not shape:
            return self.scalar_literal(dtype, special_p)
        return "[" + ", ".join(self.nested_literal(shape[1:], dtype, special_p)
                               for _ in range(shape[0])) + "]"

    def data_expr(self, shape, dtype, special_p=0.15):
        """An expression for a fresh contiguous tensor of this shape and dtype."""
        n = numel(shape)
        if n == 0 or n > 24:
            if n == 0:
                return f"torch.empty({tuple(shape)!r}, dtype=torch.{dtype})"
            return f"(torch.arange({n}) % 7 - 3).reshape({tuple(shape)!r}).to(torch.{dtype})"
        if self.chance(0.1):
            fill = self.scalar_literal(dtype, 0.5)
            return f"torch.full({tuple(shape)!r}, {fill}, dtype=torch.{dtype})"
        return f"torch.tensor({self.nested_literal(shape, dtype, special_p)}, dtype=torch.{dtype})"

    def int_data(self, shape, lo, hi):
        """An int64 tensor of values in [lo, hi), written out (no random generator: a snippet
        gives the same tensor in any library)."""
        n = numel(shape)
        if n <= 64:
            vals = [self.rng.randrange(lo, hi) if hi > lo else lo for _ in range(n)]
            data = vals[0] if not shape else vals
            expr = f"torch.tensor({data!r}, dtype=torch.int64)"
            return expr if len(shape) <= 1 else f"{expr}.reshape({tuple(shape)!r})"
        span = max(hi - lo, 1)
        return f"(torch.arange({n}) * 7919 % {span} + {lo}).reshape({tuple(shape)!r})"

    # --- tensors --------------------------------------------------------------------------------
    def tensor(self, shape=None, dtype=None, layout=None, grad=None, special_p=0.15, name="t"):
        """Binds a tensor to a fresh variable; returns its name."""
        rng = self.rng
        shape = list(self.ctx.shape if shape is None else shape)
        dtype = dtype or self.ctx.dtype
        if layout is None:
            layout = rng.choices(
                ["contiguous", "transposed", "strided", "expanded", "overlapping", "offset",
                 "zero_stride_all"],
                weights=[10, 3, 2, 2, 1, 1, 0.3])[0]
        nd = len(shape)
        if layout == "transposed" and nd >= 2:
            rev = list(reversed(shape))
            expr = f"{self.data_expr(rev, dtype, special_p)}.permute({tuple(reversed(range(nd)))!r})"
        elif layout == "strided" and nd >= 1:
            doubled = [shape[0] * 2] + shape[1:]
            expr = f"{self.data_expr(doubled, dtype, special_p)}[::2]"
        elif layout == "expanded" and nd >= 1:
            d = rng.randrange(nd)
            small = shape[:d] + [1] + shape[d + 1:]
            expr = f"{self.data_expr(small, dtype, special_p)}.expand({tuple(shape)!r})"
        elif layout == "overlapping" and nd >= 1 and numel(shape) > 0:
            strides = [1] * nd  # element (i, j) and (i+1, j-1) share memory
            need = 1 + sum((s - 1) * st for s, st in zip(shape, strides))
            expr = (f"{self.data_expr([need], dtype, special_p)}"
                    f".as_strided({tuple(shape)!r}, {tuple(strides)!r})")
        elif layout == "zero_stride_all" and nd >= 1:
            expr = (f"{self.data_expr([1], dtype, special_p)}"
                    f".as_strided({tuple(shape)!r}, {tuple([0] * nd)!r})")
        elif layout == "offset" and nd >= 1:
            grown = [shape[0] + 1] + shape[1:]
            expr = f"{self.data_expr(grown, dtype, special_p)}[1:]"
        else:
            expr = self.data_expr(shape, dtype, special_p)
        if grad is None:
            grad = dtype in FLOAT_DTYPES and self.chance(0.2)
        if grad:
            # A leaf that requires grad first, the layout applied after: the argument is a view
            # (non-leaf) for layouts other than contiguous.
            base = self.data_expr(shape, dtype, special_p) if layout == "contiguous" else expr
            if layout == "contiguous":
                expr = f"{base}.requires_grad_()"
            else:
                expr = f"{base}.detach().requires_grad_()"
        return self.ctx.bind(expr, name)

    def hostile_tensor(self):
        dtype = self.pick(DTYPES)
        shape = self.pick([[], [0], [0, 3], [3, 0, 2], [1], [5], [2, 3], [1, 1, 1, 1, 1, 1],
                           self.random_shape(), self.random_shape(), [64, 65]])
        return self.tensor(shape=shape, dtype=dtype, special_p=0.4)

    def numpy_array(self):
        dt = self.pick(NP_DTYPES)
        if dt in ("U3", "S2"):
            base = f"np.array([['ab', 'c', 'd'], ['e', 'f', 'g']], dtype={dt!r})"
        elif dt == "O":
            base = "np.array([[1, None, 2.5], [torch.ones(1), 'x', 3]], dtype=object)"
        elif dt in ("M8[s]", "m8[s]"):
            base = f"np.arange(6).reshape(2, 3).astype({dt!r})"
        elif dt == "V4":
            base = "np.zeros((2, 3), dtype='V4')"
        elif dt.startswith("["):
            base = f"np.zeros((2, 3), dtype={dt})"
        elif dt.startswith("complex"):
            base = f"(np.arange(6).reshape(2, 3) + 1j).astype({dt!r})"
        else:
            base = f"np.arange(6).reshape(2, 3).astype({dt!r})"
        form = self.pick(["as_is", "0d", "1d", "empty", "noncontig", "negative", "transposed",
                          "broadcast", "readonly", "fortran", "unaligned"])
        if form == "0d":
            expr = f"np.asarray({base}[0, 0])"
        elif form == "1d":
            expr = f"{base}[0]"
        elif form == "empty":
            expr = f"{base}[:0]"
        elif form == "noncontig":
            expr = f"{base}[:, ::2]"
        elif form == "negative":
            expr = f"{base}[::-1, ::-1]"
        elif form == "transposed":
            expr = f"{base}.T"
        elif form == "broadcast":
            expr = f"np.broadcast_to({base}[:1], (4, 3))"
        elif form == "readonly":
            self.ctx.lines.append(f"_ro = {base}")
            self.ctx.lines.append("_ro.setflags(write=False)")
            expr = "_ro"
        elif form == "fortran":
            expr = f"np.asfortranarray({base})"
        elif form == "unaligned":
            expr = "np.frombuffer(b'\\x00' * 17, dtype=np.float64, offset=1, count=2)"
        else:
            expr = base
        return self.ctx.bind(expr, "n")

    def hostile(self, depth=0):
        """Any value at all."""
        kind = self.rng.choices(
            ["int", "float", "np_scalar", "np_array", "tensor", "string", "other", "instance",
             "list_of_tensors", "complex"],
            weights=[4, 3, 4, 4, 4, 2, 3, 2, 1, 1])[0]
        if kind == "int":
            return self.pick(EDGE_INTS)
        if kind == "float":
            return self.pick(EDGE_FLOATS)
        if kind == "np_scalar":
            return self.pick(NP_SCALARS)
        if kind == "np_array":
            return self.numpy_array()
        if kind == "tensor":
            return self.hostile_tensor()
        if kind == "string":
            return self.pick(STRINGS)
        if kind == "instance":
            return self.pick(HOSTILE_INSTANCES)
        if kind == "list_of_tensors":
            return "[" + ", ".join(self.hostile_tensor() for _ in range(self.rng.randint(1, 3))) + "]"
        if kind == "complex":
            return self.pick(["1j", "complex(nan, 1)", "complex(1e308, -1e308)"])
        return self.pick(OTHERS)

    def hostile_int(self):
        if self.chance(0.6):
            return self.pick(EDGE_INTS)
        if self.chance(0.5):
            return self.pick(["np.int64(2)", "np.uint64(2**64 - 1)", "np.int8(-1)", "True",
                              "IntSub(2)", "HugeIndex()", "BadNumber()", "torch.tensor(1)",
                              "torch.tensor([1])", "torch.tensor(2**40)", "np.array(1)",
                              "2.0", "nan"])
        return self.hostile()

    def hostile_int_list(self):
        choice = self.pick([
            "[2**40, 2**40]", "[-1]", "[-1, -1]", "[-2]", "[2**63 - 1]", "[2**63]", "[0, -5]",
            "[1] * 100", "[1] * 65", "[2] * 40", "[2**31, 2**31]", "[np.int64(2), np.uint64(3)]",
            "[2.0]", "[None]", "[True, False]", "[torch.tensor(2), 3]", "(i for i in [1, 2])",
            "[BadNumber()]", "[HugeIndex()]", "[[2], [3]]", "np.array([2, 3])", "torch.tensor([2, 3])",
            "torch.Size([2, 2])", "[]", "()", "[3, 0]", "[0] * 10", "[2**21, 2**21, 2**21]"])
        return choice

    # --- data for tensor(), from_numpy(), Size(), ... -----------------------------------------
    def data_value(self):
        """What a user may hand to torch.tensor(): nested lists of mixed numbers, ragged and deep
        lists, NumPy arrays and scalars, tensors, lists of tensors, self-containing lists."""
        kind = self.rng.choices(
            ["nested", "mixed", "ragged", "deep", "numpy", "np_list", "tensor", "tensor_list",
             "edge", "odd", "self_ref", "hostile"],
            weights=[4, 3, 1, 1, 4, 1, 2, 1, 2, 2, 0.5, 2])[0]
        if kind == "nested":
            return self.nested_literal(self.random_shape(), self.pick(DTYPES), 0.2)
        if kind == "mixed":
            items = [self.pick(["1", "2.5", "True", "np.float32(1.5)", "np.int8(-1)", "nan",
                                "torch.tensor(3)", "torch.tensor([4.])", "np.array(2.5)",
                                "np.uint64(2**64 - 1)", "1j", "-0.0"])
                     for _ in range(self.rng.randint(1, 4))]
            return "[" + ", ".join(items) + "]"
        if kind == "ragged":
            return self.pick(["[[1, 2], [3]]", "[[1], 2]", "[1, [2]]", "[[], [1]]", "[[[]]]",
                              "[[1, 2], (3, 4)]", "[[1, 2], np.array([3, 4, 5])]"])
        if kind == "deep":
            depth = self.pick([64, 100, 1000, 100000])
            self.ctx.lines.append(f"deep = 1\nfor _ in range({depth}):\n    deep = [deep]")
            return "deep"
        if kind == "numpy":
            return self.numpy_array()
        if kind == "np_list":
            return "[" + ", ".join(self.numpy_array() for _ in range(self.rng.randint(1, 3))) + "]"
        if kind == "tensor":
            return self.hostile_tensor()
        if kind == "tensor_list":
            return "[" + ", ".join(self.hostile_tensor() for _ in range(self.rng.randint(1, 3))) + "]"
        if kind == "edge":
            return self.pick(["[2**63]", "[2**64]", "[-2**63 - 1]", "[10**400]", "[2**63 - 1, 1.5]",
                              "[1e308, 1e309]", "[5e-324]", "2**63", "10**400", "[True, 2]",
                              "range(5)", "range(10**10)", "[0] * 100000"])
        if kind == "odd":
            return self.pick(["'abc'", "b'abc'", "bytearray(b'ab')", "memoryview(b'ab')",
                              "{1: 2}", "{1, 2}", "(x for x in [1, 2])", "[None]", "[[None]]",
                              "[object()]", "['a', 'b']", "[1, 'a']", "np.array([1, 2]).tolist()",
                              "array.array('d', [1.0, 2.0])", "np.matrix([[1, 2]])",
                              "[torch.ones(2), [1, 2]]", "[BadNumber()]", "[FloatSub(2.5)]",
                              "[HugeIndex()]", "BadSeq([1, 2])"])
        if kind == "self_ref":
            self.ctx.lines.append("loop = [1]\nloop.append(loop)")
            return "loop"
        return self.hostile()
