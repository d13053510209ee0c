"""The style sheet of the HTML views, inlined into each (a view is self-contained), and kept small:
every output carries it.

Note [Views without their style sheet]: a shared notebook opens untrusted, and the front end's
sanitizer removes every <style> element (classic Notebook also every style attribute; JupyterLab
keeps style attributes with allowed properties and plain colours). So the views are built to
read with no CSS at all: one block element per line, the parts of a line separated by spaces
and " · ", key marks as <b> / <s> / "↓", nesting as lists, charts as <img> of SVG documents that
carry their own colours. This sheet only adds colour, alignment and the fold marks; a test
renders every view through the real sanitizers (tests/views/test_sanitized.py).

Every rule is under ``.opscope`` so a view cannot restyle the notebook around it. Light unless
the page says it is dark (see Note [Dark only when the page says so]). Colours never carry a
meaning alone: marks (↓, strike, brackets) and labels say the same.
"""

__all__ = ["CSS", "LAYER_COLORS"]

# Note [Dark only when the page says so]: a system's dark preference says nothing about the
# page a view sits on (classic Notebook and nbconvert's classic template are light whatever the
# system prefers), so prefers-color-scheme is not read. Dark comes from the page's own theme:
# JupyterLab / Notebook 7 / nbconvert's lab template (data-jp-theme-light="false" on <body>),
# VS Code (body.vscode-dark), or the view's os-dark class.
_LIGHT = ("--o-fg:var(--jp-content-font-color1,#1f2328);"
          "--o-muted:var(--jp-content-font-color2,#59636e);"
          "--o-border:var(--jp-border-color2,#d1d9e0);--o-bg2:var(--jp-layout-color2,#f6f8fa);"
          "--o-op:#0550ae;--o-kernel:#0a3069;--o-chosen:#116329;--o-chosen-bg:#dafbe1;"
          "--o-excl:#cf222e;--o-node:#8250df;--o-bwd:#bc4c00;--o-scope:#7d4e00;"
          "--o-time:#0969da;--o-cross:#9a6700;")
_DARK = ("--o-fg:var(--jp-content-font-color1,#e6edf3);"
         "--o-muted:var(--jp-content-font-color2,#9198a1);"
         "--o-border:var(--jp-border-color2,#3d444d);--o-bg2:var(--jp-layout-color2,#151b23);"
         "--o-op:#79c0ff;--o-kernel:#a5d6ff;--o-chosen:#56d364;--o-chosen-bg:#12361c;"
         "--o-excl:#ff7b72;--o-node:#d2a8ff;--o-bwd:#ffa657;--o-scope:#e3b341;"
         "--o-time:#58a6ff;--o-cross:#e3b341;")

# Layer colours, as borders and translucent tints (so they read on light and dark backgrounds);
# Python code blue and the interpreter yellow, as in Python's logo.
LAYER_COLORS = {
    "python": "#3572a5", "binding": "#8250df", "dispatcher": "#6e7781", "autograd": "#bf3989",
    "kernel": "#1a7f37", "runtime": "#0e8a99", "blas": "#d1242f", "cpython": "#c69b12",
    "libc": "#8c959f", "profiler": "#9a6700", "frontend": "#8c959f", "other": "#8c959f",
}

# Front ends' own rules this overrides: classic Notebook's `summary {display:block}` (hides the
# fold triangle) and `.rendered_html td {text-align:right}`, table {margin:auto; table-layout:
# fixed}; JupyterLab's right-aligned cells. The fold mark is our own glyph (.os-tri), turned when
# open, so it shows the same in every front end.
_RULES = """
.opscope{color:var(--o-fg);font-family:var(--jp-code-font-family,ui-monospace,Menlo,Consolas,
'DejaVu Sans Mono',monospace);font-size:var(--jp-code-font-size,12.5px);line-height:1.45}
.opscope ul{list-style:none;margin:0 0 2px .45em;padding-left:.9em;border-left:1px solid
var(--o-border)}
.opscope summary{display:block;list-style:none;cursor:pointer}
.opscope .os-tri{display:inline-block;width:1em;color:var(--o-muted)}
.opscope details[open]>summary .os-tri{transform:rotate(90deg)}
.opscope .os-title{margin:2px 0 6px;color:var(--o-muted)}
.opscope .os-title b{color:var(--o-fg);padding:0;border:0;background:none}
.opscope time{color:var(--o-time);font-weight:normal}
.opscope .os-root{border-top:1px solid var(--o-border)}
.opscope .os-op,.opscope li>div:first-child:not([class]){color:var(--o-op)}
.opscope .os-op{font-weight:600}
.opscope .os-threw,.opscope s{color:var(--o-excl)}
.opscope .os-muted,.opscope small,.opscope .os-legend,
.opscope .os-loc,.opscope li>div:not(:first-child),.opscope ol{color:var(--o-muted)}
.opscope li>i{font-style:normal;font-weight:600}
.opscope li>div:not(:first-child){margin-left:1.2em}
.opscope .os-count{color:var(--o-time);font-weight:600}
.opscope .os-bwd,.opscope div.os-k-backward,.opscope .os-k-pass>summary,
.opscope .os-k-backward>summary{color:var(--o-bwd);font-weight:600}
.opscope div.os-k-scope,.opscope .os-k-scope>summary{color:var(--o-scope);font-weight:600}
.opscope strong{color:var(--o-op)}
.opscope .os-node{color:var(--o-node)}
.opscope code{color:var(--o-kernel);font:inherit;background:none;padding:0}
.opscope small{font-size:inherit;padding-left:.6em}
.opscope b,.opscope em,.opscope s{padding:0 4px;border:1px solid transparent;border-radius:3px;
font-style:normal}
.opscope li b,.opscope .os-legend b{color:var(--o-chosen);background:var(--o-chosen-bg);
border-color:var(--o-chosen)}
.opscope em{border:1px dashed var(--o-border)}
.opscope .os-legend{margin-top:6px}
.opscope .os-section>summary{color:var(--o-muted);font-weight:600;margin-top:4px}
.opscope img{max-width:100%;height:auto;display:block;margin:2px 0}
.opscope table{border-collapse:collapse;margin:0;table-layout:auto;width:auto;max-width:100%;
font:inherit;color:inherit}
.opscope th,.opscope td{text-align:left;padding:1px 8px 1px 4px;vertical-align:top;
white-space:normal;overflow-wrap:anywhere;border:none;line-height:1.4}
.opscope th{color:var(--o-muted);font-weight:600;border-bottom:1px solid var(--o-border)}
.opscope .os-num,.opscope .os-lay{text-align:right;white-space:nowrap;
font-variant-numeric:tabular-nums}
.opscope .os-lay{overflow-wrap:normal}
.opscope .os-cross td{color:var(--o-cross);border-top:2px solid var(--o-cross)}
.opscope ol{margin:2px 0;padding-left:3.2em}
.opscope .os-prof tbody tr:nth-child(even){background:var(--o-bg2)}
.opscope .os-prof .os-op{min-width:16ch}
.opscope .os-prof th.os-num{white-space:normal;overflow-wrap:normal}
.opscope pre.os-text{margin:0;font:inherit;white-space:pre;overflow-x:auto;background:none;
padding:0}
"""


def _minify(css):
    return " ".join(line.strip() for line in css.strip().splitlines()).replace("{ ", "{")


CSS = (f".opscope{{{_LIGHT}}}"
       f".opscope.os-dark,.vscode-dark .opscope,[data-jp-theme-light='false'] .opscope"
       f"{{{_DARK}}}"
       + _minify(_RULES))
