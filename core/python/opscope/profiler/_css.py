"""The style sheet of every HTML view, inlined into each (a view is self-contained).

Every rule is under ``.opscope`` so a view cannot restyle the notebook around it. Colours are
custom properties: the base ones read Jupyter's theme (``--jp-*``) with fallbacks; the accents
come in a light and a dark set, picked by, strongest first: the ``os-dark`` / ``os-light``
class on the view itself, JupyterLab / Notebook 7's theme (``data-jp-theme-light`` on <body>),
VS Code's (``vscode-dark`` / ``vscode-light``), then the system's ``prefers-color-scheme``.
Colours never carry a meaning alone: marks (↓, strike, brackets) and labels say the same.
"""

__all__ = ["CSS"]

_LIGHT = """
  --os-fg: var(--jp-content-font-color1, #1f2328);
  --os-muted: var(--jp-content-font-color2, #59636e);
  --os-faint: var(--jp-content-font-color3, #818b98);
  --os-border: var(--jp-border-color2, #d1d9e0);
  --os-bg2: var(--jp-layout-color2, #f6f8fa);
  --os-op: #0550ae; --os-kernel: #0a3069; --os-chosen: #116329; --os-chosen-bg: #dafbe1;
  --os-excl: #cf222e; --os-node: #8250df; --os-bwd: #bc4c00; --os-scope: #7d4e00;
  --os-time: #0969da; --os-cross: #9a6700;
"""

_DARK = """
  --os-fg: var(--jp-content-font-color1, #e6edf3);
  --os-muted: var(--jp-content-font-color2, #9198a1);
  --os-faint: var(--jp-content-font-color3, #6e7681);
  --os-border: var(--jp-border-color2, #3d444d);
  --os-bg2: var(--jp-layout-color2, #151b23);
  --os-op: #79c0ff; --os-kernel: #a5d6ff; --os-chosen: #56d364; --os-chosen-bg: #12361c;
  --os-excl: #ff7b72; --os-node: #d2a8ff; --os-bwd: #ffa657; --os-scope: #e3b341;
  --os-time: #58a6ff; --os-cross: #e3b341;
"""

# Layer colours, as borders and translucent tints (so they read on light and dark backgrounds);
# Python code blue and the interpreter yellow, as in Python's logo.
_LAYERS = {
    "python": "#3572a5", "binding": "#8250df", "dispatcher": "#6e7781", "autograd": "#bf3989",
    "kernel": "#1a7f37", "runtime": "#0e8a99", "blas": "#d1242f", "cpython": "#c69b12",
    "libc": "#8c959f", "profiler": "#9a6700", "other": "#8c959f",
}

_RULES = """
.opscope { color: var(--os-fg); font-family: var(--jp-code-font-family, ui-monospace,
  'SFMono-Regular', Menlo, Consolas, 'DejaVu Sans Mono', monospace);
  font-size: var(--jp-code-font-size, 12.5px); line-height: 1.45; }
.opscope * { box-sizing: border-box; }
.opscope .os-title { margin: 2px 0 6px; color: var(--os-muted); }
.opscope .os-title b { color: var(--os-fg); }
.opscope details > summary { cursor: pointer; list-style-position: outside; margin-left: 1.1em;
  padding: 1px 0; }
.opscope details > summary:hover { background: var(--os-bg2); }
.opscope .os-time { float: right; color: var(--os-time); padding-left: 2em; }
.opscope .os-mem { color: var(--os-muted); padding-left: 1em; }
.opscope .os-root { border-top: 1px solid var(--os-border); }
.opscope .os-root:last-of-type { border-bottom: 1px solid var(--os-border); }
.opscope .os-body { margin: 0 0 2px 0.45em; padding-left: 0.9em;
  border-left: 1px solid var(--os-border); }
.opscope .os-op { color: var(--os-op); font-weight: 600; }
.opscope .os-threw { color: var(--os-excl); font-weight: 600; }
.opscope .os-path { color: var(--os-muted); }
.opscope .os-kc { color: var(--os-chosen); }
.opscope .os-count { color: var(--os-time); font-weight: 600; padding-right: 0.6em; }
.opscope .os-bwd { color: var(--os-bwd); font-weight: 600; }
.opscope .os-scope { color: var(--os-scope); font-weight: 600; }
.opscope .os-node { color: var(--os-node); }
.opscope .os-muted { color: var(--os-muted); }
.opscope .os-step { margin: 1px 0 3px 1.1em; }
.opscope .os-call { color: var(--os-muted); display: inline-block; width: 1.1em;
  margin-left: -1.1em; }
.opscope .os-label { font-weight: 600; }
.opscope .os-kernel { color: var(--os-kernel); font-family: inherit; }
.opscope .os-site { color: var(--os-faint); padding-left: 0.8em; }
.opscope .os-keys { margin: 1px 0 0 0.2em; }
.opscope .os-key { display: inline-block; padding: 0 5px; margin: 1px 3px 1px 0;
  border: 1px solid transparent; border-radius: 3px; color: var(--os-muted); }
.opscope .os-chosen { color: var(--os-chosen); background: var(--os-chosen-bg);
  border-color: var(--os-chosen); font-weight: 700; }
.opscope .os-fallthrough { border: 1px dashed var(--os-border); }
.opscope .os-excluded { color: var(--os-excl); text-decoration: line-through; opacity: 0.85; }
.opscope .os-below { color: var(--os-faint); }
.opscope .os-legend { color: var(--os-muted); margin-top: 6px; font-size: 0.92em; }
.opscope .os-section { margin-top: 6px; }
.opscope .os-section > summary { color: var(--os-muted); font-weight: 600; }
.opscope .os-scroll { overflow-x: auto; max-width: 100%; }
.opscope svg { display: block; }
.opscope svg text { font-family: inherit; font-size: 11px; }
.opscope svg .os-axis { fill: var(--os-muted); }
.opscope svg .os-grid { stroke: var(--os-border); }
.opscope svg .os-lane { fill: var(--os-muted); font-weight: 600; }
.opscope svg .os-bar-text { fill: #111; pointer-events: none; }
.opscope svg .os-memline { stroke: var(--os-time); fill: none; }
.opscope svg .os-memarea { fill: var(--os-time); opacity: 0.15; }
.opscope table { border-collapse: collapse; font-family: inherit; font-size: inherit; }
.opscope th { text-align: left; color: var(--os-muted); font-weight: 600; white-space: nowrap;
  border-bottom: 1px solid var(--os-border); padding: 2px 10px 2px 4px; }
.opscope td { padding: 1px 10px 1px 4px; vertical-align: top; white-space: nowrap; }
.opscope td.os-num, .opscope th.os-num { text-align: right;
  font-variant-numeric: tabular-nums; }
.opscope .os-stack tr.os-row td:first-child { border-left: 4px solid var(--os-layer); }
.opscope .os-stack tr.os-row { background: var(--os-tint); }
.opscope .os-stack .os-idx { color: var(--os-muted); text-align: right; }
.opscope .os-stack .os-loc { color: var(--os-muted); }
.opscope .os-stack tr.os-cross td { color: var(--os-cross); font-weight: 600; padding: 3px 4px;
  border-top: 2px solid var(--os-cross); font-size: 0.92em; }
.opscope .os-stack details > summary { margin-left: 0.9em; color: var(--os-muted); }
.opscope .os-stack ol { margin: 2px 0 2px 0; padding-left: 3.2em; color: var(--os-muted); }
.opscope .os-badge { display: inline-block; padding: 0 6px; border-radius: 8px;
  background: var(--os-tint); border: 1px solid var(--os-layer); }
.opscope .os-swatches { margin-top: 6px; color: var(--os-muted); }
.opscope .os-swatches .os-badge { margin-right: 4px; color: var(--os-fg); }
.opscope .os-pct { position: relative; }
.opscope .os-pct i { position: absolute; left: 0; bottom: 1px; height: 3px;
  background: var(--os-time); opacity: 0.7; border-radius: 1px; }
.opscope .os-prof tbody tr:nth-child(even) { background: var(--os-bg2); }
.opscope .os-prof td.os-name { white-space: normal; max-width: 44ch; overflow-wrap: anywhere; }
.opscope .os-graph svg .edge path, .opscope .os-graph svg .edge polygon {
  stroke: var(--os-muted); }
.opscope .os-graph svg .edge polygon { fill: var(--os-muted); }
.opscope .os-graph svg > g > polygon { fill: transparent; stroke: none; }
.opscope pre.os-text { margin: 0; font-family: inherit; }
.opscope .os-swatch { display: inline-block; width: 11px; height: 11px; margin: 0 2px 0 8px;
  border: 1px solid #0004; border-radius: 3px; vertical-align: -1px; }
"""


def _layer_rules():
    rules = []
    for layer, color in _LAYERS.items():
        rules.append(f".opscope .os-L-{layer} {{ --os-layer: {color}; --os-tint: {color}1f; }}")
    return "\n".join(rules)


CSS = (f".opscope {{{_LIGHT}}}\n"
       f"@media (prefers-color-scheme: dark) {{ .opscope {{{_DARK}}} }}\n"
       f".opscope.opscope.os-dark, .vscode-dark .opscope, [data-jp-theme-light='false'] .opscope "
       f"{{{_DARK}}}\n"
       f".opscope.opscope.os-light, .vscode-light .opscope, [data-jp-theme-light='true'] .opscope "
       f"{{{_LIGHT}}}\n"
       + _RULES + _layer_rules() + "\n")

LAYER_COLORS = _LAYERS
