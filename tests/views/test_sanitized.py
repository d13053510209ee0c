"""Every view in an untrusted notebook: run through the sanitizers classic Notebook and
JupyterLab apply (tests/views/sanitizers.py runs the real one under Node), then read as a page
without our style sheet shows it. Nothing may glue together, tables and charts must survive as
readable elements, and every line the trusted view shows must still be there."""
import re
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
