"""The autograd graph behind a tensor, drawn: ``opscope.profiler.graph(loss)``.

What backward will walk, as PyTorch names it: the tensor's ``grad_fn`` and, through each node's
``next_functions``, every node down to the leaves' AccumulateGrad nodes. Drawn like torchviz's
make_dot, forward reading top to bottom: leaves at the top (AccumulateGrad, with the leaf's
shape), the root tensor at the bottom (its shape), the tensors a node saved for its formula
beside it (``grad_fn._saved_self`` …, dashed).

>>> import opscope
>>> a = opscope.randn(2, 3, requires_grad=True)
>>> g = opscope.profiler.graph((a * a).sum())
>>> print(g)
f32[] ← SumBackward0
└─ MulBackward0 · saved self f32[2,3], other f32[2,3]
   ├─ AccumulateGrad · leaf f32[2,3]
   └─ AccumulateGrad (↑ above)

``str(g)`` is that text; in a notebook the graph is an SVG made by Graphviz's ``dot`` (text when
dot is not installed); ``g.dot()`` is the DOT source, ``g.svg()`` the SVG document.
"""
import re
import shutil
import subprocess
from html import escape

from opscope import _C

__all__ = ["graph", "Graph"]

_DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
           "int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8",
           "bool": "b8", "complex64": "c64", "complex128": "c128"}

# Node fills (light, with dark text: readable in light and dark notebooks), as torchviz has them.
_FILL = {"root": "#c6f1a4", "leaf": "#bfe0f7", "saved": "#fbd29a", "fn": "#e2e6eb"}

_LEGEND = ('<div class="os-legend">' + " · ".join(
    f'<span style="border-left:10px solid {_FILL[k]};padding-left:3px">{text}</span>'
    for k, text in (
        ("root", "the tensor"), ("fn", "backward node (grad_fn)"),
        ("leaf", "a leaf's AccumulateGrad"), ("saved", "saved for backward (dashed)"))) +
    " · arrows: the forward direction; backward runs them in reverse</div>")

_SAVED_NAMES = {}  # node name -> {argument: default} of its op's schemas (a cache)


def _tensor_str(t):
    dtype = str(t.dtype).replace("torch.", "")
    return f"{_DTYPES.get(dtype, dtype)}[{','.join(str(s) for s in t.shape)}]"


def _op_of(node_name):
    """MmBackward0 -> aten::mm; NativeLayerNormBackward0 -> aten::native_layer_norm."""
    base = re.sub(r"Backward\d*$", "", node_name)
    return "aten::" + re.sub(r"(?<!^)(?=[A-Z])", "_", base).lower()


def _arguments(node_name):
    """{argument name: default or None} over every overload of the op a node differentiates:
    the candidates for its ``_saved_<name>`` attributes."""
    if node_name not in _SAVED_NAMES:
        names = {}
        op = _op_of(node_name)
        try:
            overloads = _C._op_overload_names(op)
        except Exception:  # not an op: a custom Function's node, AccumulateGrad
            overloads = []
        for o in overloads:
            try:
                schema = _C._op_schema(op if o == "default" else f"{op}.{o}")
            except Exception:
                continue
            for a in schema[schema.index("(") + 1:schema.rindex(") ->")].split(","):
                declaration, _, default = a.partition("=")
                words = declaration.split()
                if len(words) >= 2 and words[-1] != "out":
                    names.setdefault(words[-1], default.strip() or None)
        _SAVED_NAMES[node_name] = names
    return _SAVED_NAMES[node_name]


def _saved(fn):
    """[(name, text, is_tensor)] of what the node saved for its formula; values equal to the
    argument's default are left out. (``_saved_result`` is not asked: nodes whose formula does
    not read the result crash on it, see core/python/nodes.cpp saved_attribute.)"""
    out = []
    for name, default in _arguments(fn.name()).items():
        try:
            v = getattr(fn, "_saved_" + name)
        except (AttributeError, RuntimeError):
            continue
        if v is None:
            continue
        if hasattr(v, "shape") and hasattr(v, "dtype") and len(v.shape) > 0:
            out.append((name, _tensor_str(v), True))
        elif hasattr(v, "shape") and hasattr(v, "dtype"):  # a scalar, kept as a 0-dim tensor
            out.append((name, str(v.item()), False))
        elif str(v) != default:
            text = str(v)
            out.append((name, text if len(text) <= 24 else text[:23] + "…", False))
    return out


class _Node:
    __slots__ = ("id", "name", "kind", "leaf", "saved", "next")

    def __init__(self, nid, name, kind):
        self.id, self.name, self.kind = nid, name, kind
        self.leaf, self.saved, self.next = None, [], []


class Graph:
    """The autograd graph reachable from a tensor's grad_fn; see the module's docstring."""

    def __init__(self, tensor, show_saved=True, max_nodes=400):
        fn = getattr(tensor, "grad_fn", None)
        if fn is None and not getattr(tensor, "requires_grad", False):
            raise ValueError(
                "graph(): this tensor has no grad_fn and does not require grad, so no autograd "
                "graph leads to it. Make it from tensors created with requires_grad=True "
                "(outside no_grad()), e.g. graph((w * x).sum()) with w = randn(3, "
                "requires_grad=True).")
        self.root = _tensor_str(tensor)
        self.nodes = []       # in breadth-first order from the root's grad_fn
        self.truncated = False
        self.root_node = None
        if fn is None:        # a leaf that requires grad: nothing has used it yet
            self.leaf_only = True
            return
        self.leaf_only = False
        seen = {}
        order = [fn]
        while order:
            f = order.pop(0)
            if id(f) in seen:
                continue
            if len(seen) >= max_nodes:
                self.truncated = True
                break
            name = type(f).__name__  # "AccumulateGrad" (name() is torch's "torch::autograd::...")
            node = _Node(len(seen), name, "leaf" if name == "AccumulateGrad" else "fn")
            seen[id(f)] = (node, f)
            self.nodes.append(node)
            if node.kind == "leaf":
                try:
                    node.leaf = _tensor_str(f.variable)
                except (AttributeError, RuntimeError):
                    node.leaf = None
            elif show_saved:
                node.saved = _saved(f)
            for nxt, _ in f.next_functions:
                if nxt is not None:
                    order.append(nxt)
        for node, f in seen.values():
            node.next = [seen[id(n)][0] for n, _ in f.next_functions
                         if n is not None and id(n) in seen]
        self.root_node = self.nodes[0]

    # --- text ---

    def _label(self, node):
        if node.kind == "leaf":
            return f"{node.name} · leaf {node.leaf}" if node.leaf else node.name
        saved = ", ".join(f"{n} {t}" for n, t, _ in node.saved)
        return f"{node.name} · saved {saved}" if saved else node.name

    def __str__(self):
        if self.leaf_only:
            return f"{self.root} (a leaf that requires grad: no graph yet)"
        lines, shown = [f"{self.root} ← {self._label(self.root_node)}"], set()
        shown.add(self.root_node.id)

        def walk(node, indent):
            for i, child in enumerate(node.next):
                last = i == len(node.next) - 1
                branch = "└─ " if last else "├─ "
                if child.id in shown:
                    lines.append(f"{indent}{branch}{child.name} (↑ above)")
                    continue
                shown.add(child.id)
                lines.append(f"{indent}{branch}{self._label(child)}")
                walk(child, indent + ("   " if last else "│  "))

        walk(self.root_node, "")
        if self.truncated:
            lines.append(f"… (stopped at {len(self.nodes)} nodes)")
        return "\n".join(lines)

    def __repr__(self):
        return f"<opscope.profiler.Graph: {len(self.nodes)} nodes, root {self.root}>"

    # --- Graphviz ---

    def dot(self):
        """The graph in Graphviz's DOT language."""
        def q(s):
            return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

        out = ["digraph autograd {",
               '  graph [bgcolor="transparent", nodesep=0.25, ranksep=0.3, '
               'fontname="DejaVu Sans Mono"];',
               '  node [shape=box, style="rounded,filled", fontname="DejaVu Sans Mono", '
               f'fontsize=10, height=0.3, margin="0.12,0.05", fillcolor="{_FILL["fn"]}", '
               'color="#57606a", fontcolor="#111111"];',
               '  edge [color="#57606a", arrowsize=0.6];']
        if self.leaf_only:
            out.append(f'  root [label={q(self.root + " (leaf)")}, fillcolor="{_FILL["leaf"]}"];')
        else:
            out.append(f'  root [label={q(self.root)}, fillcolor="{_FILL["root"]}"];')
        for n in self.nodes:
            if n.kind == "leaf":
                label = f"{n.name}\n{n.leaf}" if n.leaf else n.name
                out.append(f'  n{n.id} [label={q(label)}, fillcolor="{_FILL["leaf"]}"];')
                continue
            values = [f"{name}={text}" for name, text, is_tensor in n.saved if not is_tensor]
            label = n.name + "".join("\n" + v for v in values)
            out.append(f'  n{n.id} [label={q(label)}];')
            for k, (name, text, is_tensor) in enumerate(n.saved):
                if is_tensor:
                    box = q(f"{name}\n{text}")
                    out.append(f'  n{n.id}s{k} [label={box}, fillcolor="{_FILL["saved"]}", '
                               'fontsize=9];')
                    out.append(f'  n{n.id}s{k} -> n{n.id} [style=dashed, arrowhead=none];')
        for n in self.nodes:
            for child in n.next:
                out.append(f"  n{child.id} -> n{n.id};")
        if self.root_node is not None:
            out.append(f"  n{self.root_node.id} -> root;")
        out.append("}")
        return "\n".join(out) + "\n"

    def svg(self):
        """The SVG document Graphviz's dot draws; RuntimeError when dot is not installed."""
        dot = shutil.which("dot")
        if dot is None:
            raise RuntimeError("graph.svg(): Graphviz's `dot` is not installed "
                               "(apt-get install graphviz); str(graph) is the text form")
        done = subprocess.run([dot, "-Tsvg"], input=self.dot().encode(), capture_output=True,
                              timeout=30)
        if done.returncode != 0:
            raise RuntimeError(f"dot failed: {done.stderr.decode(errors='replace')}")
        return done.stdout.decode()

    def _inline_svg(self):
        """The SVG for inlining in HTML: no XML prolog, DOCTYPE, comments or namespace URLs."""
        s = self.svg()
        s = s[s.index("<svg"):]
        s = re.sub(r"<!--.*?-->", "", s, flags=re.S)
        s = re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", s)
        return s.strip()

    def _repr_html_(self):
        """The graph as an image (an SVG document in a data URI: an untrusted notebook's
        sanitizer removes inline <svg>, see Note [Views without their style sheet] in
        _css.py), the legend, and the text form folded below; the text alone without dot.
        Where nbconvert's sanitizer empties the image, the text shows in its place (Note
        [Charts that survive sanitizing] in _html.py)."""
        from opscope.profiler import _html, _svg
        head = (f'<div class="os-title"><b>autograd graph</b> · {len(self.nodes)} nodes · '
                f'root {escape(self.root)}</div>')
        text = str(self)
        try:
            image = _svg.img(self._standalone_svg(), f"the autograd graph of {self.root}")
        except (RuntimeError, OSError, subprocess.SubprocessError):
            return _html.view(head + f'<pre class="os-text">{escape(text)}</pre>')
        folded = _html._fold("as text", f'<pre class="os-text">{escape(text)}</pre>',
                             "os-section")
        return _html.view(head + _html.with_fallback(
            text, f'<div class="os-graph">{image}</div>{_LEGEND}{folded}'))

    def _standalone_svg(self):
        """dot's SVG without its XML prolog, DOCTYPE and comments (an image's document)."""
        s = self.svg()
        s = s[s.index("<svg"):]
        return re.sub(r"<!--.*?-->", "", s, flags=re.S).strip()

    def _repr_mimebundle_(self, include=None, exclude=None):
        from opscope.profiler import _html
        return _html.bundle({"text/plain": lambda: str(self), "text/html": self._repr_html_},
                            include, exclude)


def graph(tensor, show_saved=True, max_nodes=400):
    """The autograd graph behind `tensor` (a Graph); see the module's docstring."""
    return Graph(tensor, show_saved=show_saved, max_nodes=max_nodes)
