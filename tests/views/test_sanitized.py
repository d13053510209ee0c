"""Every view in an untrusted notebook: run through the sanitizers classic Notebook and
JupyterLab apply (tests/views/sanitizers.py runs the real one under Node), then read as a page
without our style sheet shows it. Nothing may glue together, tables and charts must survive as
readable elements, and every line the trusted view shows must still be there. Then through
nbconvert's own sanitizer (nbviewer's, `--sanitize-html`), which empties the charts' images: the
graph and the timeline must still be read there, as text."""
import json
import os
import re
import shutil
import subprocess
import tempfile
from html import unescape

import pytest

import programs
import sanitizers

pytestmark = pytest.mark.skipif(sanitizers.missing() is not None,
                                reason=str(sanitizers.missing()))


@pytest.fixture(scope="module")
def views():
    return programs.views()


@pytest.fixture(scope="module")
def sanitized(views):
    """{mode: {name: (original html, sanitized html)}}"""
    html = [programs.html_of(v) for _, _, v in views]
    out = {}
    for mode in sanitizers.MODES:
        clean = sanitizers.sanitize(html, mode)
        out[mode] = {name: (h, c) for (name, _, _), h, c in zip(views, html, clean)}
    return out


@pytest.mark.parametrize("mode", sanitizers.MODES)
def test_nothing_glues_after_sanitizing(sanitized, mode):
    for name, (_, clean) in sanitized[mode].items():
        reading = sanitizers.read(clean)
        assert not reading.glued, (name, reading.glued[:5])
        # no time stuck to a name ("8.96 msmatmul"), no tick label stuck to an op
        assert not re.search(r"(?<![A-Za-z])\d+(\.\d+)? (ns|µs|ms|s)[A-Za-z_(]",
                             reading.text()), name


@pytest.mark.parametrize("mode", sanitizers.MODES)
def test_what_the_sanitizer_removes_is_not_needed(sanitized, mode):
    for name, (html, clean) in sanitized[mode].items():
        assert "<style" not in clean and "<svg" not in clean
        # the charts are images that survive, with their SVG documents intact
        before = [unescape(src) for src in
                  re.findall(r'<img src="(data:image/svg\+xml,[^"]*)"', html)]
        after = sanitizers.read(clean).images
        assert after == before, name


def test_the_trace_reads_line_by_line(sanitized, views):
    step = dict((n, v) for n, _, v in views)["step"]
    for mode in sanitizers.MODES:
        text = sanitizers.read(sanitized[mode]["step"][1]).text()
        lines = text.splitlines()
        # each top-level call on a line of its own: its time, then its summary
        for item in step.top_level:
            name = item.signature() if hasattr(item, "signature") else item.name
            assert any(name in line for line in lines), (mode, name)
        assert "◀ backward(): MseLossBackward0" in text
        # the keys, marked without colour: chosen / struck / falls through
        assert any(line.strip().startswith("keys ") for line in lines)
        assert "[image: timeline:" in text and "; memory: peak" in text
        assert "call · ↳ redispatch · K chosen · K↓ falls through" in text


def test_tables_keep_their_rows(sanitized, views):
    stack = dict((n, v) for n, _, v in views)["stack"]
    from opscope.profiler import _stack
    rows = _stack.table_rows(stack.frames)
    for mode in sanitizers.MODES:
        clean = sanitized[mode]["stack"][1]
        reading = sanitizers.read(clean)
        trs = [a for t, a in reading.tags if t == "tr"]
        assert len(trs) >= len(rows) + 1
        text = reading.text()
        assert "cblas_sgemm" in text and "── host → BLAS" in text
        # the names align left by an attribute both keep (classic strips every style)
        assert clean.count('<div align="left">') >= 2 * len(rows)
        prof = sanitizers.read(sanitized[mode]["profile"][1]).text()
        assert re.search(r"aten::addmm \| [\d.]+% \|", prof), mode


def test_folds_show_a_mark_without_the_style_sheet(sanitized):
    for mode in sanitizers.MODES:
        clean = sanitized[mode]["step"][1]
        summaries = re.findall(r"<summary[^>]*>(.*?)</summary>", clean)
        assert summaries and all(s.startswith('<span class="os-tri">▸</span>')
                                 for s in summaries)
        # JupyterLab keeps list-style:none, so its native triangle does not double ours
        assert ('list-style:none' in clean) == (mode == "lab")


def test_failed_op_says_where_and_why(views):
    t = dict((n, v) for n, _, v in views)["failing"]
    text = str(t)
    assert "threw at mm[CPU]: RuntimeError: " in text or "threw at " in text
    assert "RuntimeError" in text
    tree = t.tree(width=80)
    assert "threw at" in tree and "RuntimeError" in tree


# --- nbconvert's sanitizer (nbviewer, `jupyter nbconvert --sanitize-html`, render.py) ------------
# Unlike the front ends' sanitize-html, it keeps <style> but empties an SVG image's src and drops
# the `open` and `hidden` attributes (see Note [Charts that survive sanitizing] in _html.py).
# What a reader sees there is read from the exporter's real page.

class _Visible:
    """The text a page shows without a click, as lines: no element marked `hidden`, no fold's
    body unless the fold is open (or `open_folds`: as after a click on each), an <img> as
    nothing (its picture is not text)."""

    def __init__(self, element, open_folds=False):
        self.open_folds = open_folds
        self.lines = [""]
        self._walk(element)
        self.lines = [line.rstrip() for line in self.lines if line.strip()]

    def _walk(self, e):
        if not isinstance(e.tag, str) or e.get("hidden") is not None or e.tag in (
                "style", "script"):
            return
        closed = e.tag == "details" and e.get("open") is None and not self.open_folds
        block = e.tag in ("div", "p", "li", "pre", "details", "summary", "tr", "table", "ul")
        if block:
            self.lines.append("")
        if e.text:
            self._text(e.text, e.tag == "pre")
        for child in e:
            if not (closed and child.tag != "summary"):
                self._walk(child)
            if child.tail:
                self._text(child.tail, e.tag == "pre")
        if block:
            self.lines.append("")

    def _text(self, text, pre):
        parts = text.split("\n") if pre else [" ".join(text.split())]
        self.lines[-1] += parts[0]
        self.lines.extend(parts[1:])

    def text(self):
        return "\n".join(self.lines)


def _nbconvert(bundles, sanitize=True):
    """Each mime bundle as a display_data output in one notebook, exported to HTML by nbconvert
    (sanitized as nbviewer does): [the lxml element of each output]."""
    nbformat = pytest.importorskip("nbformat")
    exporters = pytest.importorskip("nbconvert")
    lxml_html = pytest.importorskip("lxml.html")
    from traitlets.config import Config
    nb = nbformat.v4.new_notebook()
    for b in bundles:
        cell = nbformat.v4.new_code_cell("view")
        cell.outputs = [nbformat.v4.new_output("display_data", data=b)]
        nb.cells.append(cell)
    c = Config()
    c.HTMLExporter.sanitize_html = sanitize
    page, _ = exporters.HTMLExporter(config=c).from_notebook_node(nb)
    outputs = lxml_html.fromstring(page).xpath('//*[@data-mime-type]')
    assert len(outputs) == len(bundles)
    return page, outputs


def lxml_tostring(element):
    import lxml.html
    return lxml.html.tostring(element, encoding="unicode")


@pytest.fixture(scope="module")
def exported():
    """{name: (view, sanitized output element)} for the graph, the profile and the trace of a
    training step, as nbconvert's sanitized page holds them."""
    chosen = {"graph": programs.graph(), "profile": programs.profile(),
              "step": programs.training_step()}
    _, outputs = _nbconvert([v._repr_mimebundle_() for v in chosen.values()])
    return {name: (v, out) for (name, v), out in zip(chosen.items(), outputs)}


def _timeline_lines(trace):
    """The names of the top-level calls, as the timeline's text names them."""
    from opscope.profiler import _views as V
    return list(dict.fromkeys(V.item_label(b.item) for b in V.bars(trace) if b.depth == 0))


def test_nbconvert_shows_the_graph_as_text_where_it_drops_the_image(exported):
    g, out = exported["graph"]
    html = lxml_tostring(out)
    assert 'src=""' in html   # the SVG image is gone: what stands for it must be text
    seen = _Visible(out).text()
    for node in g.nodes:
        assert node.name in seen, node.name
    # the tree, line by line, as str(g) prints it
    for line in str(g).splitlines():
        assert line in seen.splitlines(), line


def test_nbconvert_keeps_an_open_timeline_readable(exported):
    p, out = exported["profile"]
    seen = _Visible(out).text().splitlines()
    recorded = p._finished[0]
    assert any(line.startswith("timeline: ") for line in seen)
    assert any(line.startswith("memory: peak ") for line in seen)
    assert any(line.startswith("thread ") for line in seen)
    for name in _timeline_lines(recorded):
        assert any(re.match(rf"^.   {re.escape(name)}\b.* [\d.]+ (ns|µs|ms|s) +[█▏]", line)
                   for line in seen), name


def test_nbconvert_timeline_fold_opens_onto_the_calls(exported):
    t, out = exported["step"]
    folds = [d for d in out.iter("details")
             if "timeline" in "".join(d.find("summary").itertext())]
    assert len(folds) == 1
    seen = _Visible(folds[0], open_folds=True).text()
    for name in _timeline_lines(t):
        assert re.search(rf"^.   {re.escape(name)}\b", seen, re.M), name
    assert "memory: peak" in seen


@pytest.mark.parametrize("mode", sanitizers.MODES)
def test_where_the_image_stays_its_text_stays_hidden(mode):
    views = [programs.graph(), programs.profile()]
    clean = sanitizers.sanitize([programs.html_of(v) for v in views], mode)
    for html in clean:
        alts = re.findall(r'<pre class="os-text os-alt"[^>]*>', html)
        assert alts and all(" hidden" in a for a in alts), alts
        assert '<img src="data:image/svg+xml,' in html


# --- the same pages laid out by Chromium (skipped without it) -----------------------------------

_CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                  if shutil.which(n)), None)

# Per output: the text a reader sees (innerText: no hidden element, no shut fold's body, no
# display:none), and its images drawn and shown broken.
_PROBE = """<script>window.addEventListener('load', () => {
  const out = [...document.querySelectorAll('[data-mime-type="text/html"]')].map((o) => ({
    text: o.innerText,
    drawn: [...o.querySelectorAll('img')].filter((i) => i.offsetParent && i.naturalWidth > 0)
      .length,
    broken: [...o.querySelectorAll('img')].filter((i) => i.offsetParent && !i.naturalWidth)
      .length}));
  document.body.innerHTML = '<pre id="probe"></pre>';
  document.getElementById('probe').textContent = JSON.stringify(out);
});</script>"""


def _laid_out(page):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "page.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", _PROBE + "</body>"))
        dom = subprocess.run([_CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                              "--window-size=1000,900",
                              "--dump-dom", "file://" + path],
                             capture_output=True, text=True, timeout=120).stdout
    start = dom.index('<pre id="probe">') + len('<pre id="probe">')
    return json.loads(unescape(dom[start:dom.index("</pre>", start)]))


@pytest.mark.skipif(_CHROMIUM is None, reason="Chromium is not installed (setup.sh --views)")
def test_nbconvert_pages_in_chromium():
    g, p = programs.graph(), programs.profile()
    bundles = [g._repr_mimebundle_(), p._repr_mimebundle_()]
    # one page (one Chromium run): the sanitized export, then the trusted outputs
    _, outputs = _nbconvert(bundles, sanitize=False)
    page = _nbconvert(bundles, sanitize=True)[0].replace(
        "</body>", "".join(lxml_tostring(o) for o in outputs) + "</body>")
    seen = _laid_out(page)
    untrusted, trusted = seen[:2], seen[2:]
    # trusted: the pictures, and their text is not shown twice
    assert [o["drawn"] for o in trusted] == [1, 1] and not any(o["broken"] for o in trusted)
    assert "thread " not in trusted[1]["text"]
    assert trusted[0]["text"].count("MseLossBackward0") == 0   # the tree is folded "as text"
    # sanitized: no broken image shown; the graph's tree and the timeline's lines instead
    assert not any(o["broken"] for o in untrusted), untrusted
    graph_text = untrusted[0]["text"]
    for node in g.nodes:
        assert node.name in graph_text, node.name
    assert "as text" not in graph_text      # the fold holding the same text is not shown
    lines = untrusted[1]["text"].splitlines()
    assert any(line.startswith("thread ") for line in lines)
    for name in _timeline_lines(p._finished[0]):
        assert any(re.match(rf"^.   {re.escape(name)}\b", line) for line in lines), name


def test_every_view_through_nbconvert(views):
    """Every view in nbconvert's sanitized page: nothing glues, and each image the sanitizer
    emptied has its text, shown, first in its block (the style sheet, which nbconvert keeps,
    hides the rest of the block: Note [Charts that survive sanitizing] in _html.py)."""
    _, outputs = _nbconvert([{"text/html": programs.html_of(v), "text/plain": str(v)}
                             for _, _, v in views])
    for (name, _, _), out in zip(views, outputs):
        reading = sanitizers.read(lxml_tostring(out))
        assert not reading.glued, (name, reading.glued[:5])
        for img in out.iter("img"):
            if img.get("src"):
                continue
            block = img.getparent()
            while block is not None and "os-chart" not in (block.get("class") or ""):
                block = block.getparent()
            assert block is not None, f"{name}: an emptied image and no text in its place"
            first = block[0]
            assert first.tag == "pre" and "os-alt" in first.get("class"), name
            assert first.get("hidden") is None, name
            text = first.text_content()
            assert text.strip() and text.strip() in _Visible(out, open_folds=True).text(), name
