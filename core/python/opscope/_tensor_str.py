"""Text form of a tensor, character for character the way PyTorch 1.13 prints it.

Semantically, ``format_tensor`` answers "what would ``repr(torch_tensor)`` show
for a tensor holding these values?".  Users of opscope come from PyTorch and
read printed tensors all day, so the printout is part of the interface: same
precision, same column alignment, same ``...`` summaries, same suffixes.

In implementation terms this module works on plain NumPy arrays and knows
nothing of opscope's C++ core; the caller passes the element values together
with the facts a printout needs (dtype name, device, autograd state).

Worked example::

    >>> import numpy as np
    >>> format_tensor(np.array([1.0, 2.5, -3.0]), dtype_name="float32")
    'tensor([ 1.0000,  2.5000, -3.0000])'
    >>> format_tensor(np.array([1e-5, 1.0]), dtype_name="float64")
    'tensor([1.0000e-05, 1.0000e+00], dtype=torch.float64)'
    >>> print(format_tensor(np.arange(6).reshape(2, 3), dtype_name="int64"))
    tensor([[0, 1, 2],
            [3, 4, 5]])

Note [Printing follows torch, quirks included]
    The goal is byte-identical output, so a few torch oddities are kept on
    purpose and marked "See Note [Printing follows torch, quirks included]":
    ``set_printoptions`` resets ``sci_mode`` whenever it is not passed; a
    tensor whose elements are all zero or non-finite ignores a forced
    ``sci_mode``; column widths count only nonzero finite elements; and the
    suffix line-length estimate is off by a couple of characters.
    tests/python/test_printing.py compares against text recorded from torch.
"""

import contextlib
import math

# NumPy is imported by the functions that use it, at the first print, not at `import opscope`:
# it is 130-230 ms of the start-up of every process that imports opscope, the REPL's included
# (tests/bench/bench_repl.py).

__all__ = [
    "PrintOptions",
    "set_printoptions",
    "get_printoptions",
    "printoptions",
    "format_tensor",
    "format_parameter",
]


# ---------------------------------------------------------------------------
# Print options
# ---------------------------------------------------------------------------


class PrintOptions:
    """The printing state that ``torch.set_printoptions`` controls.

    precision: digits after the decimal point for floating elements.
    threshold: element count above which the printout is summarized with ``...``.
    edgeitems: elements kept at each end of every summarized dimension.
    linewidth: characters per line before wrapping.
    sci_mode:  True/False forces scientific notation on/off; None lets the
               values decide (see ``_ElementFormatter``).
    """

    def __init__(self, precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None):
        self.precision = precision
        self.threshold = threshold
        self.edgeitems = edgeitems
        self.linewidth = linewidth
        self.sci_mode = sci_mode

    def as_dict(self):
        return {
            "precision": self.precision,
            "threshold": self.threshold,
            "edgeitems": self.edgeitems,
            "linewidth": self.linewidth,
            "sci_mode": self.sci_mode,
        }

    def __repr__(self):
        fields = ", ".join(f"{key}={value!r}" for key, value in self.as_dict().items())
        return f"PrintOptions({fields})"


# The one process-wide state, like torch._tensor_str.PRINT_OPTS.
PRINT_OPTIONS = PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(
    precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None
):
    """Change the printing state, with the semantics of ``torch.set_printoptions``.

    ``profile`` ("default", "short" or "full") first sets precision, threshold,
    edgeitems and linewidth; any other argument given then overrides it.
    ``sci_mode`` is always assigned, so leaving it out resets it to None
    (See Note [Printing follows torch, quirks included]).

    >>> import numpy as np
    >>> set_printoptions(precision=2)
    >>> format_tensor(np.array([1.12345]), dtype_name="float32")
    'tensor([1.12])'
    >>> set_printoptions(profile="default")
    >>> format_tensor(np.array([1.12345]), dtype_name="float32")
    'tensor([1.1235])'
    """
    if profile is not None:
        if profile not in _PROFILES:
            # torch silently ignores an unknown profile; a typo deserves an error.
            raise ValueError(f"unknown print profile {profile!r}; expected {sorted(_PROFILES)}")
        for key, value in _PROFILES[profile].items():
            setattr(PRINT_OPTIONS, key, value)
    if precision is not None:
        PRINT_OPTIONS.precision = precision
    if threshold is not None:
        PRINT_OPTIONS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTIONS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTIONS.linewidth = linewidth
    PRINT_OPTIONS.sci_mode = sci_mode


def get_printoptions():
    """Return the current printing state as a dict (a copy; editing it changes nothing)."""
    return PRINT_OPTIONS.as_dict()


@contextlib.contextmanager
def printoptions(**options):
    """Scoped ``set_printoptions``: the previous state comes back on exit.

    >>> import numpy as np
    >>> with printoptions(threshold=5):
    ...     format_tensor(np.arange(10), dtype_name="int64")
    'tensor([0, 1, 2,  ..., 7, 8, 9])'
    >>> get_printoptions()["threshold"]
    1000
    """
    saved = get_printoptions()
    set_printoptions(**options)
    try:
        yield
    finally:
        for key, value in saved.items():
            setattr(PRINT_OPTIONS, key, value)


# ---------------------------------------------------------------------------
# Element formatting
# ---------------------------------------------------------------------------

_FLOAT_DTYPES = {"float32", "float64", "float16", "bfloat16"}
_INT_DTYPES = {"int64", "int32", "int16", "int8", "uint8"}


class _ElementFormatter:
    """Turns one element into a string of the common column width.

    Built once per tensor from the elements that will be shown (all of them,
    or only the edges when summarizing).  For floats it picks one of three
    modes, as torch does:

    * int mode: every nonzero finite element is a whole number -> ``2.``;
    * scientific: largest/smallest nonzero |x| > 1000, or largest > 1e8, or
      (outside int mode) smallest < 1e-4 -> ``2.0000e+00``;
    * fixed: ``2.0000``.

    The width counts only nonzero finite elements, so ``nan`` or ``0.`` can
    come out wider or narrower than the column.  A forced ``sci_mode`` is
    applied after the width is measured, and not at all when there is no
    nonzero finite element (See Note [Printing follows torch, quirks included]).
    """

    def __init__(self, shown, is_float, precision, forced_sci_mode):
        import numpy as np  # noqa: PLC0415
        self.is_float = is_float
        self.precision = precision
        self.int_mode = True
        self.sci_mode = False
        self.width = 1

        if not is_float:
            for value in shown.ravel().tolist():
                self.width = max(self.width, len(str(value)))
            return

        flat = shown.ravel().astype(np.float64)
        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            return

        magnitudes = np.abs(nonzero_finite)
        smallest, largest = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        wide_range = largest / smallest > 1000.0 or largest > 1.0e8
        if self.int_mode:
            self.sci_mode = wide_range
        else:
            self.sci_mode = wide_range or smallest < 1.0e-4

        for value in nonzero_finite.tolist():
            if self.sci_mode:
                text = f"{value:.{precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}."
            else:
                text = f"{value:.{precision}f}"
            self.width = max(self.width, len(text))

        if forced_sci_mode is not None:
            self.sci_mode = forced_sci_mode

    def format(self, value):
        """Format one Python number (float, int or bool), right-aligned to the width."""
        if not self.is_float:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:{self.width}.{self.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{self.precision}f}"
        return text.rjust(self.width)


# ---------------------------------------------------------------------------
# Layout: nesting, wrapping, summarizing
# ---------------------------------------------------------------------------


def _edges(values, edgeitems):
    """The elements a summarized printout shows: first and last ``edgeitems``
    along every dimension longer than ``2 * edgeitems``.

    The tail is taken as ``[-edgeitems:]``, so with ``edgeitems=0`` a vector
    keeps all its elements, as in torch.
    """
    import numpy as np  # noqa: PLC0415
    for axis in range(values.ndim):
        if values.shape[axis] > 2 * edgeitems:
            before = (slice(None),) * axis
            head = values[before + (slice(None, edgeitems),)]
            tail = values[before + (slice(-edgeitems, None),)]
            values = np.concatenate([head, tail], axis=axis)
    return values


def _format_vector(values, indent, summarize, formatter, options):
    """1-d block: ``[a, b, c,`` wrapped so that lines fit in the linewidth.

    ``indent`` is the column of the opening bracket; continuation lines start
    one column further.  Each element takes ``width + 2`` (for ", ").
    """
    element_length = formatter.width + 2
    per_line = max(1, math.floor((options.linewidth - indent) / element_length))

    edge = options.edgeitems
    if summarize and len(values) > 2 * edge:
        items = [formatter.format(v) for v in values[:edge].tolist()]
        items.append(" ...")
        items += [formatter.format(v) for v in values[-edge:].tolist()]
    else:
        items = [formatter.format(v) for v in values.tolist()]

    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _format_block(values, indent, summarize, formatter, options):
    """Any-rank block.  Sub-blocks of a rank-d block are separated by a comma,
    d-1 newlines and enough spaces to line up under the opening bracket."""
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        return _format_vector(values, indent, summarize, formatter, options)

    edge = options.edgeitems
    count = values.shape[0]
    if summarize and count > 2 * edge:
        rows = list(range(edge)) + [None] + list(range(count - edge, count))
    else:
        rows = list(range(count))
    parts = []
    for row in rows:
        if row is None:
            parts.append("...")
        else:
            parts.append(_format_block(values[row], indent + 1, summarize, formatter, options))
    separator = "," + "\n" * (values.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _format_body(values, is_float, indent, options):
    """The bracketed element text of a non-empty tensor."""
    summarize = values.size > options.threshold
    shown = _edges(values, options.edgeitems) if summarize else values
    formatter = _ElementFormatter(shown, is_float, options.precision, options.sci_mode)
    return _format_block(values, indent, summarize, formatter, options)


def _add_suffixes(text, suffixes, indent, linewidth):
    """Append ``, dtype=...`` style suffixes and the closing parenthesis,
    moving a suffix to its own line (at ``indent``) when it would overflow.

    The length of the last line is estimated as torch does it, two characters
    long (See Note [Printing follows torch, quirks included]).
    """
    pieces = [text]
    last_line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_length + len(suffix) + 2 > linewidth:
            pieces.append(",\n" + " " * indent + suffix)
            last_line_length = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            last_line_length += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def _as_element_array(values, dtype_name):
    """The values in the NumPy dtype whose Python scalars torch would print.

    float16 and bfloat16 are printed through float32, as torch does; bfloat16
    values are expected to be rounded to bfloat16 by the caller already.
    """
    import numpy as np  # noqa: PLC0415
    values = np.asarray(values)
    if dtype_name in ("float32", "float16", "bfloat16"):
        if dtype_name == "float16":
            values = values.astype(np.float16)
        return values.astype(np.float32)
    if dtype_name == "float64":
        return values.astype(np.float64)
    if dtype_name == "bool":
        return values.astype(np.bool_)
    if dtype_name in _INT_DTYPES:
        return values.astype(np.dtype(dtype_name))
    raise ValueError(f"unsupported dtype_name {dtype_name!r}")


def format_tensor(
    values,
    *,
    dtype_name,
    default_float_dtype="float32",
    device="cpu",
    requires_grad=False,
    grad_fn_name=None,
    is_leaf=True,
    tensor_name="tensor",
):
    """Return what PyTorch 1.13's ``repr(tensor)`` (== ``str(tensor)``) shows.

    values:              NumPy array (any shape, 0-d and 0-size included).
    dtype_name:          "float32", "float64", "float16", "bfloat16", "int64",
                         "int32", "int16", "int8", "uint8" or "bool".
    default_float_dtype: ``torch.get_default_dtype()``; that dtype, int64 and
                         bool print no ``dtype=`` suffix (empty tensors show
                         every dtype but the default float one).
    device:              printed as ``device='cuda:0'`` unless "cpu".
    grad_fn_name:        e.g. "AddBackward0"; when given, ``grad_fn=<...>`` is
                         printed instead of ``requires_grad=True``.
    is_leaf:             accepted so callers can pass autograd state straight
                         through; a tensor has a grad_fn exactly when it is not
                         a leaf, so the printout depends on grad_fn_name only.
    tensor_name:         the word before the parenthesis.

    >>> import numpy as np
    >>> format_tensor(np.float32(3.5), dtype_name="float32")
    'tensor(3.5000)'
    >>> format_tensor(np.array([True, False]), dtype_name="bool")
    'tensor([ True, False])'
    >>> format_tensor(np.zeros((0, 3)), dtype_name="float32")
    'tensor([], size=(0, 3))'
    >>> format_tensor(np.array([2.0, 4.0]), dtype_name="float32", grad_fn_name="MulBackward0")
    'tensor([2., 4.], grad_fn=<MulBackward0>)'
    """
    options = PRINT_OPTIONS
    values = _as_element_array(values, dtype_name)
    is_float = dtype_name in _FLOAT_DTYPES
    prefix = tensor_name + "("
    indent = len(prefix)

    suffixes = []
    if device != "cpu":
        suffixes.append(f"device='{device}'")

    if values.size == 0:
        # Nothing to infer the dtype from, so only the default float dtype
        # goes unnamed; a shape other than (0,) is spelled out, like NumPy.
        if values.ndim != 1:
            suffixes.append(f"size={tuple(values.shape)}")
        if dtype_name != default_float_dtype:
            suffixes.append(f"dtype=torch.{dtype_name}")
        body = "[]"
    else:
        if dtype_name not in (default_float_dtype, "int64", "bool"):
            suffixes.append(f"dtype=torch.{dtype_name}")
        body = _format_body(values, is_float, indent, options)

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")

    return _add_suffixes(prefix + body, suffixes, indent, options.linewidth)


def format_parameter(values, *, dtype_name, requires_grad=True, **kwargs):
    """``repr(torch.nn.Parameter(...))``: a header line, then the tensor.

    >>> import numpy as np
    >>> print(format_parameter(np.array([1.0, 2.0]), dtype_name="float32"))
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    """
    return "Parameter containing:\n" + format_tensor(
        values, dtype_name=dtype_name, requires_grad=requires_grad, **kwargs
    )


# ---------------------------------------------------------------------------
# Values of a __torch_dispatch__ subclass
# ---------------------------------------------------------------------------


def values_through_ops(tensor):
    """The values of a tensor with a ``__torch_dispatch__`` subclass, read through ops on it.

    Such a tensor keeps its data where its class says (a wrapper made with
    ``Tensor._make_wrapper_subclass`` has none of its own), so, as torch's
    printing does, the values come from ops that the subclass answers: ``unbind``
    (or ``select`` for the rows a summary shows) down to single elements, then
    ``item()`` (``aten::_local_scalar_dense``) on each. Elements a summary hides
    are left at zero. Returns a NumPy array of the tensor's shape for
    ``format_tensor``.
    """
    import numpy as np  # noqa: PLC0415
    import opscope  # noqa: PLC0415

    dtype_name = str(tensor.dtype)[len("torch."):]
    out = np.zeros(tuple(tensor.shape), dtype=np.float32 if dtype_name == "bfloat16" else dtype_name)
    if out.size == 0:
        return out
    summarize = out.size > PRINT_OPTIONS.threshold
    with opscope.no_grad():
        _read_through_ops(tensor, out, (), summarize, PRINT_OPTIONS.edgeitems)
    return out


def _read_through_ops(tensor, out, at, summarize, edgeitems):
    """Fill ``out[at]`` with the values of ``tensor``, one dimension at a time."""
    if tensor.dim() == 0:
        out[at] = tensor.item()
        return
    n = tensor.shape[0]
    if summarize and n > 2 * edgeitems:
        for i in [*range(edgeitems), *range(n - edgeitems, n)]:
            _read_through_ops(tensor[i], out, at + (i,), summarize, edgeitems)
    else:
        for i, row in enumerate(tensor.unbind(0)):
            _read_through_ops(row, out, at + (i,), summarize, edgeitems)
