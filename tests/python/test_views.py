"""The views (opscope/profiler/_views_text.py, _html.py, _svg.py, _graph.py): HTML that parses and
has the expected parts, text that fits its width, the display protocol's mime types. What they
look like is checked by eye: tests/views/snapshot writes screenshots."""
import doctest
import json
import re
import shutil
from html.parser import HTMLParser

import pytest

import opscope
from opscope import profiler
from opscope.profiler import _graph, _html, _stack, _svg, _textview, _views_text
from opscope.profiler._trace import Trace

ANSI = re.compile(r"\x1b\[[0-9;]*m")
VOID = {"br", "hr", "img", "input", "meta", "link", "col", "wbr", "source", "area", "base"}
SVG_LEAVES = {"rect", "line", "circle", "path", "polygon", "polyline", "ellipse"}


class Tree(HTMLParser):
    """Parses HTML and checks that every element is closed in order; keeps every start tag as
    (tag, attributes) and the text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.open, self.tags, self.text, self.errors = [], [], [], []
        self.feed(text)
        self.close()
        if self.open:
            self.errors.append(f"not closed: {self.open}")

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
            return
        self.open.pop()

    def handle_data(self, data):
        self.text.append(data)

    def having(self, tag, cls=None):
        return [a for t, a in self.tags
                if t == tag and (cls is None or cls in a.get("class", "").split())]


def parse(text):
    tree = Tree(text)
    assert not tree.errors, tree.errors[:5]
    assert "<script" not in text.lower()
    # nothing fetched from a network (the SVG namespace in an image's document is a name)
    local = re.sub(r"http://www\.w3\.org/(2000/svg|1999/xlink)", "", text)
    assert not re.search(r"https?://", local), re.search(r".{40}https?://.{40}", local)
    return tree


@pytest.fixture(scope="module")
def mm_trace():
    """matmul with a leaf that requires grad, then backward."""
    a = opscope.randn(2, 3, requires_grad=True)
    b = opscope.randn(3, 4)
    with opscope.trace() as t:
        c = opscope.matmul(a, b)
        c.sum().backward()
    return t


@pytest.fixture(scope="module")
def loop_trace():
    x = opscope.randn(4)
    with opscope.trace() as t:
        for _ in range(300):
            x = x + 1
        x.sum()
    return t


# --- the dispatch tree: HTML ---------------------------------------------------------------------

def test_trace_html_has_one_folded_block_per_top_level_item(mm_trace):
    html = mm_trace._repr_html_()
    tree = parse(html)
    items = mm_trace.top_level   # the backward() pass is one item (Note [Backward passes])
    assert len(tree.having("details", "os-root")) == len(items) == 3
    assert len(tree.having("div", "opscope")) == 1
    assert len(tree.having("style")) == 1
    # nested ops are lines of their own below the roots
    ops = re.findall(r"<li><div(?: class=\"os-threw\")?>", html)
    assert len(ops) == sum(1 for op in mm_trace.ops if op.parent is not None) + 1  # + the seed
    # the default view is folded; open_all opens every block
    assert not any("open" in a for a in tree.having("details", "os-root"))
    opened = parse(_html.trace_html(mm_trace, open_all=True))
    assert all("open" in a for a in opened.having("details"))
    # every fold shows our own mark (front ends hide or restyle the native one)
    assert len(tree.having("span", "os-tri")) == len(tree.having("summary"))


def test_trace_html_marks_the_chosen_key_of_every_step(mm_trace):
    html = _html.trace_html(mm_trace, open_all=True)
    tree = parse(html)
    steps = sum(len(op.steps) for op in mm_trace.ops)
    assert len(tree.having("i")) == steps                # each step's label
    dittos = sum(line.count("<i>") for line in re.findall(r"<li>(?:(?!<li>).)*?</li>", html)
                 if "= same as above" in line)
    assert len(tree.having("b")) - 2 == steps - dittos   # a chosen key per step; title, legend
    # mm's CPU step: AutogradCPU left out (struck), the Autograd kernel's set fell through
    text = "".join(tree.text)
    assert "cpu::mm" in text and "MmBackward0" in text
    assert tree.having("s") and tree.having("em")


def test_trace_html_shows_backward_runs_and_nodes(mm_trace):
    tree = parse(_html.trace_html(mm_trace))
    backward = [r for r in mm_trace.roots if type(r).__name__ == "NodeRun"]
    assert len(tree.having("div", "os-k-backward")) == len(backward)
    assert len(tree.having("details", "os-k-pass")) == 1
    text = "".join(tree.text)
    assert "◀ backward MmBackward0" in text and "◀ backward(): " in text
    assert "MmBackward0 #0 → next: AccumulateGrad" in text or "→ next: AccumulateGrad" in text
    assert "18446744073709551615" not in text


def test_trace_html_of_a_loop_groups_paths(loop_trace):
    html = loop_trace._repr_html_()
    tree = parse(html)
    groups = tree.having("details", "os-group")
    assert len(groups) == 1                      # the 300 adds
    assert len(tree.having("details", "os-root")) == 2   # and the sum, alone
    assert "×300" in "".join(tree.text)
    assert len(html) < 30_000


def _bars(svg, cls):
    """The bars of one kind in a timeline: its path's subpaths."""
    m = re.search(f'class="os-bar {cls}"[^>]* d="([^"]*)"', svg)
    return m.group(1).count("M") if m else 0


def test_timeline_has_one_bar_per_item(mm_trace, monkeypatch):
    monkeypatch.setattr(_svg, "MERGE_PX", 0.0)  # however short the ops were
    svg = _svg.timeline_svg(mm_trace)
    parse(svg.replace("http://www.w3.org/2000/svg", "svg"))
    items = [i for r in mm_trace.roots for i in r.walk()]
    forward, in_backward = _bars(svg, "os-op"), _bars(svg, "os-bwd-op")
    assert forward + in_backward == len(mm_trace.ops)
    assert _bars(svg, "os-node-run") == len(items) - len(mm_trace.ops)
    assert in_backward > 0
    # a standalone document: its own namespace, font and colours (it is shown as an <img>)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and 'font-family=' in svg


def test_timeline_merges_short_bars_of_a_long_loop(loop_trace):
    svg = _svg.timeline_svg(loop_trace, width=400)
    bars = sum(_bars(svg, cls) for cls, _, _ in _svg.BAR_FILLS.values())
    assert 0 < bars < 200


class _Event:
    def __init__(self, kind, t_ns, n, total):
        self.kind, self.t_ns, self.bytes, self.total_bytes = kind, t_ns, n, total
        self.ptr, self.device, self.thread, self.op = 0, "cpu", 1, None


def _with_memory(trace):
    """A copy of the trace with made-up memory events across its span."""
    t = Trace(trace.events)
    start, end = t.roots[0].start_ns, t.roots[-1].end_ns
    step = (end - start) // 8
    total, events = 0, []
    for i in range(8):
        n = 1024 * (i + 1)
        kind = "alloc" if i % 3 != 2 else "free"
        total += n if kind == "alloc" else -n
        events.append(_Event(kind, start + i * step, n, total))
    t.memory_events = events
    return t, max(e.total_bytes for e in events)


def test_memory_svg_from_memory_events(mm_trace):
    assert _svg.memory_svg(mm_trace) == "" or hasattr(mm_trace, "memory_events")
    t, peak = _with_memory(mm_trace)
    tree = parse(_svg.memory_svg(t).replace("http://", ""))
    assert len(tree.having("path", "os-memline")) == 1
    assert f"peak {_html.V.bytes_str(peak)}" in "".join(tree.text)
    assert "memory" in "".join(parse(_html.trace_html(t)).text)
    assert "data:image/svg+xml," in _html.trace_html(t)


class _Scope:
    """A record_function scope as the trace holds one (the lead's ScopeRecord)."""

    def __init__(self, name, children):
        self.name, self.children, self.thread, self.parent = name, children, 1, None
        self.start_ns = children[0].start_ns - 100
        self.end_ns = children[-1].end_ns + 100

    @property
    def duration_ns(self):
        return self.end_ns - self.start_ns

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


def test_scopes_group_their_ops(mm_trace):
    t = Trace(mm_trace.events)
    t.roots = [_Scope("attention", t.roots[:2])] + t.roots[2:]
    t._top_level = None
    tree = parse(_html.trace_html(t))
    assert len(tree.having("details", "os-k-scope")) == 1
    assert "▣ record_function attention" in "".join(tree.text)
    assert "▣ record_function attention" in t.tree(width=100, color=False)
    assert _bars(_svg.timeline_svg(t), "os-scope-bar") == 1


def test_record_function_scopes():
    a = opscope.randn(4, 4, requires_grad=True)
    with opscope.trace() as t:
        with profiler.record_function("block"):
            with profiler.record_function("inner"):
                (a * a).sum().backward()
    tree = parse(t._repr_html_())
    scopes = tree.having("details", "os-k-scope") + tree.having("div", "os-k-scope")
    assert len(scopes) == len(t.scopes) == 2
    assert "▣ record_function inner" in t.tree(width=100)
    assert _bars(_svg.timeline_svg(t), "os-scope-bar") == 2


def test_real_memory_events():
    with opscope.trace() as t:
        x = opscope.randn(256, 256)
        y = x @ x
        del x, y
    if not t.memory_events:
        pytest.skip("no memory events recorded")
    tree = parse(_svg.memory_svg(t).replace("http://", ""))
    assert tree.having("path", "os-memline")
    assert "memory" in "".join(parse(t._repr_html_()).text)


# --- the dispatch tree: text ---------------------------------------------------------------------

@pytest.mark.parametrize("width", [40, 80, 120])
def test_tree_fits_the_width(mm_trace, loop_trace, width):
    for t in (mm_trace, loop_trace):
        for color in (False, True):
            text = t.tree(width=width, color=color)
            for line in text.splitlines():
                assert len(ANSI.sub("", line)) <= width, line


def test_tree_colour_only_when_asked(mm_trace):
    plain = mm_trace.tree(width=100)     # pytest captures stdout: not a tty
    assert not ANSI.search(plain)
    colored = mm_trace.tree(width=100, color=True)
    assert ANSI.search(colored)
    assert ANSI.sub("", colored) == plain


def test_tree_reads_without_colour(mm_trace):
    text = mm_trace.tree(width=140, color=False)
    assert "[AutogradCPU]" in text                 # the chosen key
    assert "~AutogradCPU~" in text                 # left out below the Autograd kernel
    assert "ADInplaceOrView↓" in text              # fell through
    assert "↳ mm[CPU]" in text                     # the redispatch
    assert "◀ backward MmBackward0" in text
    assert "└─ mm(f32[2,3], f32[3,4]) → f32[2,4]" in text


def test_tree_of_a_loop_is_grouped(loop_trace):
    text = loop_trace.tree(width=100)
    assert "×300" in text and "first call:" in text
    assert len(text.splitlines()) < 30


def test_summary_stays_the_default(mm_trace, loop_trace):
    assert str(mm_trace) == "\n".join(mm_trace.summary_lines())
    assert str(loop_trace).startswith("301 top-level calls, 2 distinct paths:")


# --- the protocol --------------------------------------------------------------------------------

def test_trace_mimebundle(mm_trace):
    b = mm_trace._repr_mimebundle_()
    assert set(b) == {"text/plain", "text/html"}        # the JSON only when asked for
    assert b["text/plain"] == str(mm_trace)
    asked = mm_trace._repr_mimebundle_(include=["application/vnd.opscope.trace+json"])
    json.dumps(asked["application/vnd.opscope.trace+json"])
    assert set(mm_trace._repr_mimebundle_(include=["text/plain"])) == {"text/plain"}
    assert "text/html" not in mm_trace._repr_mimebundle_(exclude=["text/html"])
    assert mm_trace._repr_html_() == mm_trace._trace._repr_html_()   # the with-block object


def test_trace_json_is_the_trace_or_a_summary(mm_trace, loop_trace):
    data = mm_trace._repr_mimebundle_(include=[_html.TRACE_MIME])[_html.TRACE_MIME]
    if hasattr(mm_trace, "to_json"):
        assert data["schema"] == "opscope.trace/1"
        assert len(profiler.load(json.dumps(data)).ops) == len(mm_trace.ops)
    small = _html.trace_json(loop_trace, max_events=10)
    assert small["schema"] == "opscope.trace-summary/1"
    assert small["ops"] == len(loop_trace.ops) and small["summary"] == loop_trace.summary_lines()


def test_recording_trace_has_a_plain_bundle():
    t = opscope.trace()
    assert t._repr_mimebundle_() == {"text/plain": "<opscope trace: recording>"}


# --- the call stack ------------------------------------------------------------------------------

def _blas_stack():
    a, b = opscope.randn(32, 32), opscope.randn(32, 32)
    opscope.mm(a, b)
    probe = opscope._C._StackProbe("blas")
    try:
        opscope.mm(a, b)
    finally:
        probe.remove()
    stacks = [profiler.Stack(r) for r in probe.stacks()]
    return next(s for s in stacks if any(f.is_python for f in s))


def test_stack_html_has_a_row_per_table_row():
    s = _blas_stack()
    text_before = s.table(width=120)
    tree = parse(s._repr_html_())
    rows = _stack.table_rows(s.frames, full=False)
    assert len(tree.having("tr", "os-row")) == len(rows)
    folds = [r for r in rows if r[0] != "frame"]
    assert len(tree.having("details")) == len(folds)
    assert len(tree.having("li")) == sum(len(r[3]) for r in folds)
    crossings = [t for t in tree.text if t.startswith("── ")]
    assert "── host → BLAS" in crossings and "── Python → C++" in crossings
    full = parse(_html.stack_html(s, full=True))
    assert len(full.having("tr", "os-row")) == len(s)
    # every name cell aligns itself left (front ends right-align cells)
    assert len([a for a in tree.having("div") if a.get("align") == "left"]) >= 3 * len(rows)
    assert s.table(width=120) == text_before


def test_stack_mimebundle():
    s = profiler.stack()
    b = s._repr_mimebundle_()
    assert set(b) == {"text/plain", "text/html"}
    assert b["text/plain"] == str(s)


# --- the profile table ---------------------------------------------------------------------------

class _Row:
    def __init__(self, key, count, total, self_total, mem=0, shapes=""):
        self.key, self.count = key, count
        self.cpu_time_total, self.self_cpu_time_total = total, self_total
        self.cpu_time = total / count
        self.cpu_memory_usage = self.self_cpu_memory_usage = mem
        self.input_shapes = shapes


def test_key_averages_html():
    rows = [_Row("aten::mm", 2, 30.0, 20.0), _Row("aten::matmul", 1, 40.0, 10.0),
            _Row("aten::add", 5, 5.0, 5.0)]
    tree = parse(_html.key_averages_html(rows))
    body = tree.having("tr")[1:]
    assert len(body) == 3
    names = [t for t in tree.text if t.startswith("aten::")]
    assert names == ["aten::matmul", "aten::mm", "aten::add"]      # by CPU total
    heads = [t for t in tree.text if t in ("CPU Mem", "Input Shapes")]
    assert heads == []
    rows[0].cpu_memory_usage = 4096
    rows[0].input_shapes = [[2, 3], [3, 4]]
    tree = parse(_html.key_averages_html(rows, sort_by="self_cpu_time_total", row_limit=2))
    text = "".join(tree.text)
    assert "CPU Mem" in text and "Input Shapes" in text and "4.0 KiB" in text
    assert "[[2, 3], [3, 4]]" in text and "1 more rows not shown" in text
    assert [t for t in tree.text if t.startswith("aten::")] == ["aten::mm", "aten::matmul"]


def test_a_profile_renders_its_table_timeline_and_memory():
    a = opscope.randn(8, 8, requires_grad=True)
    with profiler.profile(profile_memory=True) as prof:
        (a @ a).sum().backward()
    bundle = prof._repr_mimebundle_()
    assert sorted(bundle) == ["text/html", "text/plain"]
    assert bundle["text/plain"].splitlines()[1].split()[:3] == ["Name", "Self", "CPU"]
    tree = parse(bundle["text/html"])
    names = [t for t in tree.text if t.startswith("aten::")]
    assert "aten::mm" in names and "aten::sum" in names
    imgs = [a["src"] for a in tree.having("img")]
    assert len(imgs) == 1 and imgs[0].startswith("data:image/svg+xml,")  # timeline + memory
    assert bundle["text/html"].count("<style>") == 1
    averages = prof.key_averages()
    assert sorted(averages._repr_mimebundle_()) == ["text/html", "text/plain"]
    assert "aten::mm" in "".join(parse(averages._repr_html_()).text)
    empty = profiler.profile()
    assert "nothing recorded" in empty._repr_html_()


# --- the autograd graph --------------------------------------------------------------------------

def test_graph_names_nodes_like_pytorch():
    a = opscope.randn(2, 3, requires_grad=True)
    w = opscope.randn(3, 4, requires_grad=True)
    y = (a @ w).relu().sum()
    g = profiler.graph(y)
    assert [n.name for n in g.nodes] == ["SumBackward0", "ReluBackward0", "MmBackward0",
                                         "AccumulateGrad", "AccumulateGrad"]
    text = str(g)
    assert text.splitlines()[0] == "f32[] ← SumBackward0"
    assert "MmBackward0 · saved self f32[2,3], mat2 f32[3,4]" in text
    assert "AccumulateGrad · leaf f32[3,4]" in text
    dot = g.dot()
    assert dot.count("AccumulateGrad") == 2 and 'label="self\\nf32[2,3]"' in dot
    assert g._repr_mimebundle_().keys() == {"text/plain", "text/html"}


def test_graph_refuses_a_tensor_without_history():
    with pytest.raises(ValueError, match="no grad_fn and does not require grad"):
        profiler.graph(opscope.randn(3))
    leaf = opscope.randn(3, requires_grad=True)
    assert "leaf" in str(profiler.graph(leaf))


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_graph_svg_from_dot():
    a = opscope.randn(2, 3, requires_grad=True)
    g = profiler.graph((a * 2).sum())
    assert g.svg().lstrip().startswith("<?xml")
    tree = parse(g._repr_html_())
    assert not tree.having("svg")               # an image: sanitizers remove inline <svg>
    [img] = tree.having("img")
    assert img["src"].startswith("data:image/svg+xml,")
    svg = g._standalone_svg()
    saved = sum(is_tensor for n in g.nodes for _, _, is_tensor in n.saved)
    assert svg.count('class="node"') == len(g.nodes) + 1 + saved   # the root tensor too
    assert "other=2" in g.dot()


def test_graph_text_when_dot_is_missing(monkeypatch):
    a = opscope.randn(2, requires_grad=True)
    g = profiler.graph((a * a).sum())
    monkeypatch.setattr(_graph.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="not installed"):
        g.svg()
    tree = parse(g._repr_html_())
    assert tree.having("pre", "os-text") and not tree.having("svg")


def test_docstring_examples_run():
    for module in (_graph, _views_text, _textview):
        failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert failed == 0, module.__name__
