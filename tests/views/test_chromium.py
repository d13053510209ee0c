"""The short slice of the screenshots that `make test` runs when Chromium is installed
(tools/setup.sh --views): views inside classic Notebook's own style sheet, trusted (with our
sheet) and untrusted (after its sanitizer), laid out by headless Chromium and read back — the
text a reader sees, the cells' alignment, the fold marks, the colours under a dark system
preference. `make screenshots` takes the pictures (tests/views/README.md)."""
import json
import os
import shutil
import subprocess
import tempfile

import pytest

import programs
import sanitizers

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)
NOTEBOOK_CSS = "/usr/lib/python3/dist-packages/notebook/static/style/style.min.css"

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (setup.sh --views)"),
    pytest.mark.skipif(not os.path.exists(NOTEBOOK_CSS), reason="python3-notebook missing"),
    pytest.mark.skipif(sanitizers.missing() is not None, reason=str(sanitizers.missing())),
]

# Reads the laid-out page back: what a reader sees (innerText), and a few computed styles.
_PROBE = """<script>
const q = (s) => document.querySelector(s);
const style = (e, p) => e ? getComputedStyle(e)[p] : null;
const out = {
  text: document.querySelector('.output').innerText,
  name_align: style(q('.os-stack tbody tr td:nth-child(2) div'), 'textAlign'),
  fold_mark: style(q('summary .os-tri'), 'display'),
  title_color: style(q('.os-title b'), 'color'),
};
document.body.innerHTML = '<pre id="probe"></pre>';
document.getElementById('probe').textContent = JSON.stringify(out);
</script>"""


def _read(views_html, dark=False, width=1400):
    """The views in classic Notebook's output area, laid out by Chromium: the probe's dict."""
    cells = "".join(f'<div class="output_subarea output_html rendered_html">{h}</div>'
                    for h in views_html)
    page = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="stylesheet" '
            f'href="file://{NOTEBOOK_CSS}"></head><body class="notebook_app">'
            f'<div class="output">{cells}</div>{_PROBE}</body></html>')
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "page.html")
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                f"--window-size={width},900", "--allow-file-access-from-files", "--dump-dom"]
        if dark:
            args.append("--force-dark-mode")
        dom = subprocess.run(args + ["file://" + path], capture_output=True, text=True,
                             timeout=120).stdout
    start = dom.index('<pre id="probe">') + len('<pre id="probe">')
    text = dom[start:dom.index("</pre>", start)]
    return json.loads(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
                      .replace("&quot;", '"'))


@pytest.fixture(scope="module")
def html():
    """The trace as a cell shows it, unfolded (a reader opens the folds), and the stack."""
    from opscope.profiler import _html
    t = programs.matmul()
    return [t._repr_html_(), _html.trace_html(t, open_all=True),
            t.stack("aten::mm")._repr_html_()]


def test_trusted_in_classic_notebook(html):
    seen = _read(html)
    assert seen["name_align"] in ("left", "-webkit-left")   # classic: td {text-align:right}
    assert seen["fold_mark"] not in (None, "none")
    assert seen["title_color"] in ("rgb(31, 35, 40)",)   # light, our own fg
    assert "matmul(f32[64,32], f32[32,16])" in seen["text"]


def test_untrusted_in_classic_notebook_reads_line_by_line(html):
    clean = sanitizers.sanitize(html, "classic")
    seen = _read(clean)
    text = seen["text"]
    assert seen["name_align"] in ("left", "-webkit-left")   # <div align="left"> survives
    assert seen["fold_mark"] not in (None, "none")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert any(line.startswith("▸ matmul(f32[64,32], f32[32,16]) →") for line in lines)
    assert any(line.startswith("keys ") for line in lines)
    assert "cblas_sgemm" in text and "host → BLAS" in text


def test_a_dark_system_leaves_a_light_page_light(html):
    seen = _read(html, dark=True)
    assert seen["title_color"] == "rgb(31, 35, 40)"    # not white on white
