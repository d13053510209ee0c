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
import sys

from opscope import _C

__all__ = ["Frame", "Stack", "stack", "LAYERS"]

# Every layer a frame can have, from the top of a typical stack down.
LAYERS = ("python", "binding", "dispatcher", "autograd", "kernel", "runtime", "blas", "cpython",
          "libc", "profiler", "other")

# The layer of a table row that folds a front end's own frames (see Note [Front-end frames]).
FRONTEND = "frontend"

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

    __slots__ = ("index", "name", "file", "line", "module", "layer", "is_python", "inlined", "pc",
                 "cell")

    def __init__(self, index, name, file, line, module, layer, is_python, inlined, pc,
                 cell=None):
        self.index = index
        self.name = name
        self.file = file
        self.line = line
        self.module = module
        self.layer = layer
        self.is_python = is_python
        self.inlined = inlined
        self.pc = pc
        self.cell = cell  # IPython's execution count of the cell this frame runs, else None

    @property
    def short_name(self):
        return self.name if self.is_python else short_cxx_name(self.name) or "??"

    @property
    def location(self):
        """``file:line``; a notebook or IPython cell as IPython's tracebacks name it (``Cell In
        [4], line 3``); the module when there is no line information."""
        if self.cell is not None:
            return f"Cell In [{self.cell}], line {self.line}"
        if self.file:
            return f"{self.file}:{self.line}" if self.line else self.file
        return f"({self.module})" if self.module else ""

    def __repr__(self):
        return f"<Frame #{self.index} {self.short_name} at {self.location} [{self.layer}]>"


class Stack:
    """A captured call stack, innermost frame first; symbolized on first look.

    ``frames`` (a list of Frame), ``len()``, indexing and iteration; ``str()`` is ``table()``.
    """

    def __init__(self, raw, python_crossings=()):
        self._raw = raw
        self._frames = None
        # The C++ → Python crossings running when it was taken, outermost first (crossing.h):
        # "C++ → Python: tensor hook double_it · GIL acquired, was released".
        self.python_crossings = list(python_crossings)

    @classmethod
    def from_frames(cls, frames):
        """A Stack of frames already named: dicts with Frame's fields (``name``, ``file``,
        ``line``, ``module``, ``layer``, ``is_python``, ``inlined``, ``pc``), as a saved trace
        holds them."""
        s = cls(None)
        s._frames = [Frame(i, f["name"], f["file"], f["line"], f["module"], f["layer"],
                           f["is_python"], f["inlined"], f["pc"], f.get("cell"))
                     for i, f in enumerate(frames)]
        return s

    def to_dicts(self):
        """The frames as JSON-ready dicts (the inverse of from_frames)."""
        return [dict({"name": f.name, "file": f.file, "line": f.line, "module": f.module,
                      "layer": f.layer, "is_python": f.is_python, "inlined": f.inlined,
                      "pc": f.pc}, **({"cell": f.cell} if f.cell is not None else {}))
                for f in self.frames]

    @property
    def frames(self):
        if self._frames is None:
            cells = _ipython_cells()
            self._frames = [Frame(i, *f) for i, f in enumerate(self._raw.symbolize())]
            for f in self._frames:
                if f.is_python and f.file in cells:
                    f.cell = cells[f.file]
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
        return str(self.table())

    def table(self, width=None, full=False):
        """The stack as a text table ``#  frame  file:line  layer``, fitting `width` columns
        (default: the terminal's, see text_width()). Lines mark where the stack crosses
        languages (Python → C++, C++ → Python, host → BLAS). Unless `full`, runs of glue frames
        are folded into one row: the dispatcher's templates ("dispatch logic ×4"), the
        interpreter's call machinery, pybind11 and the standard library, and the front end's
        own frames below the user's code ("Jupyter kernel ×66", see Note [Front-end frames]).
        Returns a TextView: print() it, or let a notebook show it."""
        from opscope.profiler._textview import TextView, text_width
        width = text_width(width)
        rows = table_rows(self.frames, full)
        marks = crossings(self.frames, self.python_crossings)
        return TextView(_render(rows, marks, width), html=lambda: self._repr_html_())

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
    return Stack(_C._capture_stack(1), _C._python_crossings())


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


def display_name(frame):
    """A frame's name as the tables show it: short_name without the ``opscope::`` every one of
    our frames would start with."""
    name = frame.short_name
    return name[9:] if name.startswith("opscope::") else name


def frame_location(frame):
    return frame.location


def _ipython_cells():
    """{code file name: execution count} of the cells IPython has run in this process (what its
    tracebacks use to print ``Cell In [4], line 3``); {} outside IPython."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None) if ipython is not None else None
    shell = get() if get is not None else None
    return dict(getattr(getattr(shell, "compile", None), "_filename_map", None) or {})


# --- the table -----------------------------------------------------------------------------------

_FOLD_LABEL = {"dispatcher": "dispatch logic", "cpython": "CPython", "libc": "libc"}

# Note [Front-end frames]: under a notebook cell, most of the stack is the front end running it:
# IPython's run_cell, ipykernel's handlers, tornado's and asyncio's event loops, runpy, and the
# interpreter and libc frames between them (66 of 108 frames for one matmul in ipykernel). They
# are the same for every op, so the table folds them into one row, named after the front end
# ("Jupyter kernel ×66"), openable. A frame belongs to them when it is outside the user's code:
# every Python frame from there outwards lives in one of these packages.
_FRONTENDS = (  # (a part of the file's path, the front end it means), most specific first
    ("/opscope/interactive/", "opscope session"), ("xopscope", "opscope kernel"),
    ("/ipykernel/", "Jupyter kernel"), ("/ipykernel_launcher.py", "Jupyter kernel"),
    ("/tornado/", "Jupyter kernel"), ("/zmq/", "Jupyter kernel"),
    ("/jupyter_client/", "Jupyter kernel"), ("/xeus_python", "Jupyter kernel"),
    ("/IPython/", "IPython"), ("/prompt_toolkit/", "IPython"), ("/traitlets/", None),
    ("/asyncio/", None), ("/concurrent/futures/", None), ("runpy", None),
    ("/_pytest/", "pytest"), ("/pluggy/", "pytest"), ("/pytest/", "pytest"),
)
# Which name a fold gets when several front ends are in it: the outermost program wins.
_FRONTEND_RANK = ("opscope kernel", "Jupyter kernel", "opscope session", "IPython", "pytest")


def _frontend_of(frame):
    """The front end a Python frame belongs to ("IPython", ...), "" for one of the shared
    machinery (asyncio, runpy), None for user code."""
    for part, name in _FRONTENDS:
        if part in frame.file:
            return name or ""
    return None


def _frontend_start(frames):
    """The index of the innermost frame of the front end below the user's code (see Note
    [Front-end frames]), or None."""
    start = None
    for k in range(len(frames) - 1, -1, -1):
        f = frames[k]
        if not f.is_python:
            continue
        if _frontend_of(f) is None:
            break
        start = k
    if start is None:
        return None
    # the C++ frames just inside it (the interpreter calling it) belong to it too
    while start > 0 and not frames[start - 1].is_python and frames[start - 1].layer in (
            "cpython", "libc"):
        start -= 1
    if not any(f.is_python and _frontend_of(f) is None for f in frames[:start]):
        return None  # nothing of the user's: fold nothing
    return start


def frontend_name(frames):
    names = {_frontend_of(f) for f in frames if f.is_python} - {None, ""}
    for name in _FRONTEND_RANK:
        if name in names:
            return name
    return "front end"


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


def table_rows(frames, full=False):
    """('frame', i, i, [Frame]), ('fold', first, last, frames) and ('frontend', first, last,
    frames) rows, innermost first. `full`: every frame a row of its own."""
    rows, i = [], 0
    end = len(frames) if full else (_frontend_start(frames) or len(frames))
    while i < end:
        f = frames[i]
        j = i
        if not full and _foldable(f):
            while (j + 1 < end and frames[j + 1].layer == f.layer
                   and _foldable(frames[j + 1])):
                j += 1
        if j - i + 1 >= 2:
            rows.append(("fold", i, j, frames[i:j + 1]))
        else:
            rows.append(("frame", i, i, [f]))
        i = j + 1
    if end < len(frames):
        rows.append(("frontend", end, len(frames) - 1, frames[end:]))
    return rows


_rows = table_rows


# The files whose call sites take the GIL through CallIntoPython (core/python/crossing.h).
_CROSSING_SITES = ("core/python/nodes.cpp", "core/python/autograd.cpp", "core/python/profiler.cpp",
                   "core/python/python_dispatch.cpp")


def crossings(frames, python_crossings=()):
    """{k: label} for each change of language: frame k is the outermost frame of the inner (callee)
    side, so the table draws the line just below it. Walks from the outermost frame in; frames of
    no language (libc) do not count.

    `python_crossings` (Stack.python_crossings, outermost first) name the C++ → Python marks whose
    C++ side is a hook / custom Function call site, innermost with innermost, with the hook and
    the GIL's state: "C++ → Python: tensor hook double_it · GIL acquired, was released"."""
    marks, current, sites = {}, None, []
    for k in range(len(frames) - 1, -1, -1):
        lang = _LANGUAGE.get(frames[k].layer)
        if lang is None:
            continue
        if current is not None and lang != current:
            marks[k] = _CROSSING.get((current, lang), f"{current} → {lang}")
            if (current, lang) == ("C++", "Python") and _is_crossing_site(frames, k + 1):
                sites.append(k)
        current = lang
    # sites: outermost first, as python_crossings; match them from the innermost.
    for k, label in zip(reversed(sites), reversed(list(python_crossings))):
        marks[k] = label
    return marks


def _is_crossing_site(frames, k):
    """Whether the C++ frames from k outwards (up to the next Python frame) hold a crossing site."""
    while k < len(frames) and _LANGUAGE.get(frames[k].layer) != "Python":
        if (frames[k].file or "").endswith(_CROSSING_SITES):
            return True
        k += 1
    return False


def _fit(text, n, left=False):
    if len(text) <= n:
        return text.ljust(n)
    if n <= 1:
        return text[:n]
    return ("…" + text[-(n - 1):]) if left else (text[: n - 1] + "…")


def elide_path(path, n):
    """A path (file:line) in at most n columns, keeping its first folders and its file:line:
    core/ops/…/linear.cpp:76; else …/linear.cpp:76; else its end."""
    if len(path) <= n:
        return path
    parts = path.split("/")
    if len(parts) > 2:
        for k in range(len(parts) - 2, 0, -1):  # as many leading folders as fit
            text = "/".join(parts[:k]) + "/…/" + parts[-1]
            if len(text) <= n:
                return text
        if len(parts[-1]) + 2 <= n:
            return "…/" + parts[-1]
    return "…" + path[-(n - 1):] if n > 1 else path[:n]


def _top_level_parts(name):
    """A C++ name split at its "::" outside <…> and (…)."""
    parts, start = [], 0
    for i, c in _top_level(name):
        if c == ":" and name[i:i + 2] == "::" and (i == 0 or name[i - 1] != ":"):
            parts.append(name[start:i])
            start = i + 2
    parts.append(name[start:])
    return [p for p in parts if p]


def elide_name(name, n):
    """A name in at most n columns, keeping what identifies it: the first namespace and as many
    of the last components as fit, the middle ones as "…" (``cpu::…::cblas_gemm_rows<float>``);
    a last component that is itself too long loses its middle."""
    if len(name) <= n:
        return name
    parts = _top_level_parts(name)
    if len(parts) >= 2:
        for keep in range(len(parts) - 1, 0, -1):
            text = "::".join([parts[0], "…"] + parts[-keep:])
            if len(text) <= n:
                return text
            text = "…::" + "::".join(parts[-keep:])
            if len(text) <= n:
                return text
    last = parts[-1] if parts else name
    if n < 3:
        return last[:n]
    head = (n - 1) // 2
    return last[:head] + "…" + last[len(last) - (n - 1 - head):]


def row_index(row):
    """"12" for a frame, "12-17" for a fold."""
    _, a, b, _ = row
    return str(a) if a == b else f"{a}-{b}"


def row_layer(row):
    return FRONTEND if row[0] == "frontend" else row[3][0].layer


def row_name(row, short=True):
    """A frame's name (display_name, or short_name with its opscope:: unless `short`); a fold's
    label, count and first and last names."""
    kind, _, _, fs = row
    if kind == "frame":
        return display_name(fs[0]) if short else fs[0].short_name
    if kind == "frontend":
        python = [f.name for f in fs if f.is_python]
        detail = f" ({python[0]} … {python[-1]})" if len(python) >= 2 else ""
        return f"{frontend_name(fs)} ×{len(fs)}{detail}"
    label = _FOLD_LABEL.get(fs[0].layer, f"{fs[0].layer} glue")
    names = [_last_component(f.short_name) for f in fs if f.name]
    detail = f" ({names[0]} … {names[-1]})" if len(names) >= 2 else ""
    return f"{label} ×{len(fs)}{detail}"


def row_location(row):
    """file:line; a fold shows where it is entered from, in the source tree if it can."""
    fs = row[3]
    if row[0] == "frontend":
        return next((f.location for f in fs if f.is_python), fs[0].location)
    for f in reversed(fs):
        if f.file and not os.path.isabs(f.file):
            return f.location
    return fs[-1].location


def _render(rows, marks, width):
    """The table in `width` columns: one line per row while names get at least NAME_MIN
    columns beside file:line, else each row's file:line on a line of its own below its name."""
    cells = [(row_index(r), row_name(r, short=False), row_location(r), row_layer(r))
             for r in rows]
    w_index = max([1] + [len(c[0]) for c in cells])
    w_layer = max([5] + [len(c[3]) for c in cells])
    avail = width - w_index - w_layer - 6
    w_loc = min(max([9] + [len(c[2]) for c in cells]), max(20, avail * 2 // 5))
    # room for every file:line's file and line at least (…/KernelFunction.h:245)
    w_loc = max([w_loc] + [len(c[2].rsplit("/", 1)[-1]) + 2 for c in cells if ":" in c[2]])
    w_name = avail - w_loc
    stacked = w_name < NAME_MIN
    if stacked:
        w_name = max(8, width - w_index - w_layer - 4)
        header = f"{'#'.ljust(w_index)}  {'frame / file:line'.ljust(w_name)}  layer"
    else:
        header = f"{'#'.ljust(w_index)}  {'frame'.ljust(w_name)}  {'file:line'.ljust(w_loc)}  layer"
    lines = [header]
    # when some name does not fit, every name drops its opscope:: (then namespaces elide)
    strip = any(len(n) > w_name for r, (_, n, _, _) in zip(rows, cells) if r[0] == "frame")
    for row, (i, n, loc, layer) in zip(rows, cells):
        if row[0] != "frame":
            name = _fit(n, w_name).rstrip()
        else:
            name = elide_name(n[9:] if strip and n.startswith("opscope::") else n, w_name)
        if stacked:
            lines.append(f"{i.ljust(w_index)}  {name.ljust(w_name)}  {layer}")
            indent = " " * (w_index + 4)
            lines.append(indent + elide_path(loc, width - len(indent)))
        else:
            lines.append(f"{i.ljust(w_index)}  {name.ljust(w_name)}  "
                         f"{elide_path(loc, w_loc).ljust(w_loc)}  {layer}")
        if row[2] in marks and row is not rows[-1]:
            lines.extend(_mark_lines(marks[row[2]], w_index + 2, width))
    return "\n".join(line.rstrip() for line in lines)


def _mark_lines(text, indent, width):
    """A boundary mark, "── C++ → Python ─────", in `width` columns from `indent`; a long one
    (a crossing's hook and GIL state) breaks at its " · " onto lines of its own."""
    room = max(8, width - indent)
    label = f"── {text} "
    if len(label) <= room:
        return [" " * indent + label + "─" * (room - len(label))]
    parts = text.split(" · ")
    out, line = [], "── " + parts[0]
    for part in parts[1:]:
        if len(line) + 3 + len(part) <= room:
            line += " · " + part
        else:
            out.append(line)
            line = "   · " + part
    out.append(line)
    return [" " * indent + _fit(x, room).rstrip() for x in out]


# The fewest columns a frame's name gets beside file:line (else the table stacks them).
NAME_MIN = 28
