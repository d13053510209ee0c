"""Call stacks: the frames a thread stands in, Python and C++ merged, innermost first.

``stack()`` captures the calling thread's stack — return addresses and references to the Python
frames' code, a microsecond or so — and names it only when you look (``.frames``, ``str()``,
indexing): C++ names demangled, file:line from DWARF, calls the compiler inlined shown as frames
of their own. Each frame has a layer, the parts the eager-mode lecture colours its torch.matmul
stack with (../shared/seeds/003): python, binding, dispatcher, autograd, kernel, runtime, blas,
cpython, libc — and profiler, other.

>>> import opscope
>>> def caller():
...     return opscope.profiler.stack()
>>> s = caller()
>>> s[0].name, s[0].layer
('caller', 'python')
>>> print(s)  # doctest: +SKIP
#   frame                          file:line                        layer
0   caller                         <doctest ...>:2                  python
1   <module>                       <doctest ...>:1                  python
...
"""
import os
import re
import shutil

from opscope import _C

__all__ = ["Frame", "Stack", "stack", "LAYERS"]

# Every layer a frame can have, from the top of a typical stack down.
LAYERS = ("python", "binding", "dispatcher", "autograd", "kernel", "runtime", "blas", "cpython",
          "libc", "profiler", "other")

# The language a layer is written in, for the boundary marks of the table (None: neither side,
# e.g. libc between the interpreter and main()).
_LANGUAGE = {"python": "Python", "cpython": "Python", "binding": "C++", "dispatcher": "C++",
             "autograd": "C++", "kernel": "C++", "runtime": "C++", "profiler": "C++",
             "blas": "BLAS"}
_CROSSING = {("Python", "C++"): "Python → C++", ("C++", "Python"): "C++ → Python",
             ("C++", "BLAS"): "host → BLAS"}


class Frame:
    """One frame of a Stack.

    ``name``: a C++ function's demangled name with its parameters, or a Python function's
    qualname; ``short_name`` is the name without parameters and with long template arguments
    elided. ``file`` / ``line``: opscope's files relative to the source tree
    (``core/ops/cpu/linear.cpp``), others absolute; "" / 0 when unknown. ``module``: the ELF file
    ("libopscope_core.so"; "" for Python frames). ``layer``: one of LAYERS. ``inlined``: a C++
    call the compiler inlined into the next (outer) frame. ``index``: 0 is the innermost frame.
    """

    __slots__ = ("index", "name", "file", "line", "module", "layer", "is_python", "inlined", "pc")

    def __init__(self, index, name, file, line, module, layer, is_python, inlined, pc):
        self.index = index
        self.name = name
        self.file = file
        self.line = line
        self.module = module
        self.layer = layer
        self.is_python = is_python
        self.inlined = inlined
        self.pc = pc

    @property
    def short_name(self):
        return self.name if self.is_python else short_cxx_name(self.name) or "??"

    @property
    def location(self):
        """``file:line``, or the module when there is no line information."""
        if self.file:
            return f"{self.file}:{self.line}" if self.line else self.file
        return f"({self.module})" if self.module else ""

    def __repr__(self):
        return f"<Frame #{self.index} {self.short_name} at {self.location} [{self.layer}]>"


class Stack:
    """A captured call stack, innermost frame first; symbolized on first look.

    ``frames`` (a list of Frame), ``len()``, indexing and iteration; ``str()`` is ``table()``.
    """

    def __init__(self, raw):
        self._raw = raw
        self._frames = None

    @classmethod
    def from_frames(cls, frames):
        """A Stack of frames already named: dicts with Frame's fields (``name``, ``file``,
        ``line``, ``module``, ``layer``, ``is_python``, ``inlined``, ``pc``), as a saved trace
        holds them."""
        s = cls(None)
        s._frames = [Frame(i, f["name"], f["file"], f["line"], f["module"], f["layer"],
                           f["is_python"], f["inlined"], f["pc"]) for i, f in enumerate(frames)]
        return s

    def to_dicts(self):
        """The frames as JSON-ready dicts (the inverse of from_frames)."""
        return [{"name": f.name, "file": f.file, "line": f.line, "module": f.module,
                 "layer": f.layer, "is_python": f.is_python, "inlined": f.inlined, "pc": f.pc}
                for f in self.frames]

    @property
    def frames(self):
        if self._frames is None:
            self._frames = [Frame(i, *f) for i, f in enumerate(self._raw.symbolize())]
        return self._frames

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, i):
        return self.frames[i]

    def __iter__(self):
        return iter(self.frames)

    def __repr__(self):
        n = len(self.frames)
        python = sum(f.is_python for f in self.frames)
        return f"<opscope.profiler.Stack: {n} frames ({python} Python, {n - python} C++)>"

    def __str__(self):
        return self.table()

    def table(self, width=None, full=False):
        """The stack as a text table ``#  frame  file:line  layer``, fitting `width` columns
        (default: the terminal's). Lines mark where the stack crosses languages (Python → C++,
        C++ → Python, host → BLAS). Unless `full`, runs of glue frames are folded into one row:
        the dispatcher's templates ("dispatch logic ×4"), the interpreter's call machinery,
        pybind11 and the standard library."""
        if width is None:
            width = shutil.get_terminal_size((120, 24)).columns
        rows = _rows(self.frames, full)
        marks = _crossings(self.frames)
        return _render(rows, marks, width)

    # --- views: the HTML table is _html.stack_html ---

    def _repr_html_(self):
        from opscope.profiler import _html
        return _html.stack_html(self)

    def _repr_mimebundle_(self, include=None, exclude=None):
        from opscope.profiler import _html
        return _html.bundle({"text/plain": lambda: str(self),
                             "text/html": lambda: _html.stack_html(self)}, include, exclude)


def stack():
    """The calling thread's call stack now, from the caller of ``stack()`` outwards.

    Works anywhere: at top level, inside a hook the autograd engine calls, inside a Python kernel
    the dispatcher calls — the C++ frames between show how the call got there."""
    return Stack(_C._capture_stack(1))


# --- names ---------------------------------------------------------------------------------------

def short_cxx_name(name, keep_template=16):
    """A demangled C++ name as a table shows it: no parameter list or trailing qualifiers,
    template arguments longer than `keep_template` characters elided as <…>, no
    "(anonymous namespace)::".

    >>> short_cxx_name("opscope::Dispatcher::call(opscope::OperatorHandle const&) const")
    'opscope::Dispatcher::call'
    >>> short_cxx_name("opscope::KernelFunction::call<opscope::Tensor, opscope::Tensor const&>()")
    'opscope::KernelFunction::call<…>'
    >>> short_cxx_name("f<float>::{lambda()#1}::operator()() const")
    'f<float>::{lambda()#1}::operator()'
    """
    s = re.sub(r" \[clone [^\]]*\]", "", name).strip()  # GCC's copies: f [clone .part.0]
    changed = True
    while changed:
        changed = False
        for suffix in (" const", " volatile", " &&", " &", " noexcept"):
            if s.endswith(suffix):
                s, changed = s[: -len(suffix)], True
    if s.endswith(")"):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ")":
                depth += 1
            elif s[i] == "(":
                depth -= 1
                if depth == 0:
                    if not s[:i].endswith("operator"):  # "operator()" is the name itself
                        s = s[:i]
                    break
    s = _elide_templates(s, keep_template)
    s = _elide_inner_parameters(s.replace("(anonymous namespace)::", ""))
    return _drop_return_type(s)


def _top_level(s):
    """Yields (index, char) for the characters of s outside <...> and (...)."""
    depth = 0
    for i, c in enumerate(s):
        if c in "<(" and not (c == "<" and s[:i].endswith("operator")):
            depth += 1
        elif c in ">)" and depth > 0 and not (c == ">" and s[:i].endswith("operator-")):
            depth -= 1
        elif depth == 0:
            yield i, c


def _drop_return_type(s):
    """"void opscope::parallel_for<…>" -> "opscope::parallel_for<…>" (templates' names carry it);
    "X::operator bool" keeps its space."""
    spaces = [i for i, c in _top_level(s) if c == " " and not s[:i].endswith("operator")]
    return s[spaces[-1] + 1:] if spaces else s


def _elide_inner_parameters(s):
    """Parameter lists inside a qualified name ("f(int, long)::{lambda(long)#1}") as (…)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(s):
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                inner = s[start + 1:i]
                if inner and not s[:start].endswith("operator"):
                    out.append("(…)")
                else:
                    out.append(s[start:i + 1])
                continue
        if depth == 0:
            out.append(c)
    return "".join(out)


def _elide_templates(s, keep):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "<" and not s[:i].endswith("operator") and not s[:i].endswith("operator<"):
            depth, j = 0, i
            while j < len(s):
                if s[j] == "<":
                    depth += 1
                elif s[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            inner = s[i + 1:j]
            out.append("<" + (inner if len(inner) <= keep else "…") + ">")
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _last_component(name):
    return name.rsplit("::", 1)[-1] if "::" in name else name


# --- the table -----------------------------------------------------------------------------------

_FOLD_LABEL = {"dispatcher": "dispatch logic", "cpython": "CPython", "libc": "libc"}


def _foldable(f):
    """Glue: frames a reader skips. The dispatcher's templates (headers, std::function), the
    interpreter's machinery, and pybind11 / standard-library code outside the source tree."""
    if f.is_python:
        return False
    if f.layer in ("cpython", "libc"):
        return True
    outside_tree = f.file == "" or os.path.isabs(f.file)
    if f.layer == "dispatcher":
        return outside_tree or f.file.endswith(".h")
    return f.layer in ("binding", "autograd", "kernel", "runtime") and outside_tree


def _rows(frames, full):
    """('frame', Frame) and ('fold', first, last, frames) rows, innermost first."""
    rows, i = [], 0
    while i < len(frames):
        f = frames[i]
        j = i
        if not full and _foldable(f):
            while (j + 1 < len(frames) and frames[j + 1].layer == f.layer
                   and _foldable(frames[j + 1])):
                j += 1
        if j - i + 1 >= 2:
            rows.append(("fold", i, j, frames[i:j + 1]))
        else:
            rows.append(("frame", i, i, [f]))
        i = j + 1
    return rows


def _crossings(frames):
    """{k: label} for each change of language: frame k is the outermost frame of the inner (callee)
    side, so the table draws the line just below it. Walks from the outermost frame in; frames of
    no language (libc) do not count."""
    marks, current = {}, None
    for k in range(len(frames) - 1, -1, -1):
        lang = _LANGUAGE.get(frames[k].layer)
        if lang is None:
            continue
        if current is not None and lang != current:
            marks[k] = _CROSSING.get((current, lang), f"{current} → {lang}")
        current = lang
    return marks


def _fit(text, n, left=False):
    if len(text) <= n:
        return text.ljust(n)
    if n <= 1:
        return text[:n]
    return ("…" + text[-(n - 1):]) if left else (text[: n - 1] + "…")


def _row_index(row):
    """"12" for a frame, "12-17" for a fold."""
    _, a, b, _ = row
    return str(a) if a == b else f"{a}-{b}"


def _row_name(row):
    """A frame's short name; a fold's label, count and first and last names."""
    kind, _, _, fs = row
    if kind == "frame":
        return fs[0].short_name
    label = _FOLD_LABEL.get(fs[0].layer, f"{fs[0].layer} glue")
    names = [_last_component(f.short_name) for f in fs if f.name]
    detail = f" ({names[0]} … {names[-1]})" if len(names) >= 2 else ""
    return f"{label} ×{len(fs)}{detail}"


def _row_location(row):
    """file:line; a fold shows where it is entered from, in the source tree if it can."""
    fs = row[3]
    for f in reversed(fs):
        if f.file and not os.path.isabs(f.file):
            return f.location
    return fs[-1].location


def _render(rows, marks, width):
    cells = [(_row_index(r), _row_name(r), _row_location(r), r[3][0].layer) for r in rows]
    w_index = max([1] + [len(c[0]) for c in cells])
    w_layer = max([5] + [len(c[3]) for c in cells])
    w_loc = min(max([9] + [len(c[2]) for c in cells]),
                max(20, (width - w_index - w_layer) * 2 // 5))
    w_name = max(16, width - w_index - w_loc - w_layer - 6)
    lines = [f"{'#'.ljust(w_index)}  {'frame'.ljust(w_name)}  {'file:line'.ljust(w_loc)}  layer"]
    for row, (i, n, loc, layer) in zip(rows, cells):
        lines.append(f"{i.ljust(w_index)}  {_fit(n, w_name)}  {_fit(loc, w_loc, left=True)}"
                     f"  {layer}")
        if row[2] in marks and row is not rows[-1]:
            label = f"── {marks[row[2]]} "
            rule = "─" * max(0, w_name + w_loc + w_layer + 4 - len(label))
            lines.append(" " * (w_index + 2) + label + rule)
    return "\n".join(line.rstrip() for line in lines)
