#!/usr/bin/python3
"""Renders every view of a few example programs to HTML files and PNG screenshots (light and
dark), to look at: the views are for teaching, so they are checked by eye as well as by
tests/python/test_views.py.

    tests/views/snapshot [OUTDIR]        (default /tmp/opscope-views)

Programs: torch.matmul's five cases from the eager-mode lecture's shape table (1D×1D → dot,
2D×1D → mv, 2D×2D → mm, batched → bmm, broadcast), a small MLP's forward and backward, a
10,000-op loop (its render time is printed), a record_function scope (when opscope has
record_function), the call stack at mm's BLAS call, a profile table and the MLP's autograd
graph. Screenshots need Chromium (`chromium --headless`); without it the HTML files are still
written and the script says so. OUTDIR/index.html links everything.
"""
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "core", "python"))

import opscope as torch  # noqa: E402
import opscope.nn as nn  # noqa: E402
import opscope.nn.functional as F  # noqa: E402
from opscope import profiler  # noqa: E402
from opscope.profiler import _html  # noqa: E402

WIDTH = 1100    # the screenshots' width in CSS pixels
CHROME_PX = 87  # what headless Chromium takes off the window's height in a screenshot


# --- the programs ---------------------------------------------------------------------------------

def matmul_cases():
    """The lecture's table: which op torch.matmul calls for which input shapes."""
    cases = [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)), ((5, 2, 3), (5, 3, 4)),
             ((2, 1, 3, 4), (5, 4, 2))]
    args = [(torch.randn(*a, requires_grad=True), torch.randn(*b)) for a, b in cases]
    with torch.trace() as t:
        for a, b in args:
            torch.matmul(a, b)
    return t


def matmul_with_stack():
    """The lecture's example: x = torch.matmul(y, z), 2D × 2D, with the stack at the BLAS call."""
    y, z = torch.randn(64, 32), torch.randn(32, 16)
    torch.matmul(y, z)
    with torch.trace(with_stack=True) as t:
        torch.matmul(y, z)
    return t


def mlp():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    x, y = torch.randn(5, 4), torch.randn(5, 3)
    # The graph of a forward of its own: backward frees what the nodes saved.
    graph = profiler.graph(F.mse_loss(model(x), y))
    with torch.trace() as t:
        loss = F.mse_loss(model(x), y)
        loss.backward()
    return t, graph


def loop(n=10_000):
    x = torch.randn(4)
    with torch.trace() as t:
        for _ in range(n):
            x = x + 1
    return t


def scope():
    record_function = getattr(profiler, "record_function", None)
    if record_function is None:
        return None
    a = torch.randn(8, 8, requires_grad=True)
    with torch.trace() as t:
        with record_function("attention"):
            s = (a @ a.t()).softmax(-1)
            with record_function("weighted sum"):
                (s @ a).sum().backward()
    return t


def blas_stack():
    """The stack at mm's BLAS call: from the trace (trace(with_stack=True)) when opscope records
    stacks there, else from the test probe."""
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    torch.mm(a, b)
    try:
        with torch.trace(with_stack=True) as t:
            torch.matmul(a, b)
        s = t.stack("aten::mm")
        if s is not None:
            return s
    except (TypeError, AttributeError, KeyError):
        pass
    probe = torch._C._StackProbe("blas")
    try:
        torch.matmul(a, b)
    finally:
        probe.remove()
    stacks = [profiler.Stack(r) for r in probe.stacks()]
    return next(s for s in stacks if any(f.is_python for f in s))


class _Row:
    """A key_averages() row, for when opscope.profiler.profile is not there yet."""

    def __init__(self, key):
        self.key, self.count, self.cpu_time_total, self.self_cpu_time_total = key, 0, 0.0, 0.0
        self.cpu_memory_usage = self.self_cpu_memory_usage = 0
        self.input_shapes = ""

    @property
    def cpu_time(self):
        return self.cpu_time_total / max(self.count, 1)


def profile_rows(program):
    """key_averages() of a program: opscope.profiler.profile's when it runs, else rows added up
    from a trace here (labelled so)."""
    prof = getattr(profiler, "profile", None)
    if prof is not None:
        try:
            with prof(record_shapes=True, profile_memory=True) as p:
                program()
            return p.key_averages(), "profile"
        except Exception as e:  # the profiler needs main's trace(with_stack=, memory=)
            print(f"  (profile() did not run: {e}; the table is added up from a trace)")
    with torch.trace() as t:
        program()
    rows = {}
    for op in t.ops:
        r = rows.setdefault(op.name, _Row(op.name))
        r.count += 1
        r.cpu_time_total += op.duration_ns / 1e3
        r.self_cpu_time_total += (op.duration_ns - sum(c.duration_ns for c in op.children)) / 1e3
    return list(rows.values()), "profile (added up from a trace)"


# --- screenshots ---------------------------------------------------------------------------------

def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(args):
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def _height(browser, html_path):
    """The page's height at WIDTH: a copy with a script that writes it into the title, read
    back with --dump-dom (the views themselves have no script)."""
    probe = html_path + ".measure.html"
    text = open(html_path, encoding="utf-8").read()
    script = "<script>document.title='H'+document.documentElement.scrollHeight</script>"
    open(probe, "w", encoding="utf-8").write(text.replace("</body>", script + "</body>"))
    try:
        out = _run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                    f"--window-size={WIDTH},100", "--dump-dom", "file://" + probe]).stdout
    finally:
        os.remove(probe)
    start = out.find("<title>H")
    return int(out[start + 8:out.index("<", start + 8)]) if start >= 0 else 1600


def screenshot(browser, html_path, png_path, dark):
    # Headless Chromium's screenshots are CHROME_PX shorter than the window.
    height = min(_height(browser, html_path) + CHROME_PX + 12, 8000)
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--window-size={WIDTH},{height}", f"--screenshot={png_path}"]
    if dark:
        args.append("--force-dark-mode")
    _run(args + ["file://" + html_path])
    return os.path.exists(png_path)


# JupyterLab's dark theme as its page has it: the attribute on <body> and some --jp-* colours.
_JUPYTERLAB_DARK = ('<body data-jp-theme-light="false" data-jp-theme-name="JupyterLab Dark" '
                    'style="background:#111111; color:#e6e6e6; --jp-layout-color0:#111111; '
                    '--jp-layout-color2:#2a2a2a; --jp-content-font-color1:rgba(255,255,255,1); '
                    '--jp-content-font-color2:rgba(255,255,255,.7); '
                    '--jp-content-font-color3:rgba(255,255,255,.5); --jp-border-color2:#424242">')


def jupyterlab_dark(browser, out_dir, body):
    """A view inside JupyterLab's dark theme while the system prefers light: the theme's
    attribute must win."""
    html_path = os.path.join(out_dir, "jupyterlab-dark.html")
    page = _html.page("JupyterLab dark", f"<h2>in JupyterLab's dark theme</h2>{body}")
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(page.replace("<body>", _JUPYTERLAB_DARK))
    png = os.path.join(out_dir, "jupyterlab-dark.png")
    screenshot(browser, html_path, png, dark=False)
    return png


# --- main ----------------------------------------------------------------------------------------

def main():
    out_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "/tmp/opscope-views")
    os.makedirs(out_dir, exist_ok=True)
    views = []   # (name, title, body html)

    print("matmul's shape cases")
    t = matmul_cases()
    views.append(("matmul", "torch.matmul by input shapes", _html.trace_html(t, open_all=True)))
    views.append(("matmul-default", "torch.matmul by input shapes (default view)",
                  t._repr_html_()))

    print("torch.matmul with stacks")
    views.append(("matmul-stack", "torch.matmul, 2D × 2D, with its call stack",
                  _html.trace_html(matmul_with_stack(), open_all=True)))

    print("MLP forward + backward")
    t, graph = mlp()
    views.append(("mlp", "MLP forward + backward", _html.trace_html(t, open_all=True)))
    views.append(("graph", "the MLP loss's autograd graph", graph._repr_html_()))

    print("10,000-op loop")
    t = loop()
    start = time.perf_counter()
    default = t._repr_html_()
    bundle = t._repr_mimebundle_()
    text = t.tree(width=100)
    summary = str(t)
    elapsed = time.perf_counter() - start
    print(f"  rendered the loop's views (HTML {len(default) // 1024} KiB, mimebundle, tree, "
          f"summary) in {elapsed * 1e3:.0f} ms")
    views.append(("loop", "a 10,000-op loop", _html.trace_html(t, open_all=True)))
    views.append(("loop-default", "a 10,000-op loop (default view)", default))
    del bundle, text, summary

    t = scope()
    if t is None:
        print("record_function: not in opscope.profiler yet, skipped")
    else:
        print("record_function scopes")
        views.append(("scope", "record_function scopes", _html.trace_html(t, open_all=True)))

    print("call stack at mm's BLAS call")
    views.append(("stack", "the call stack at cblas_sgemm", _html.stack_html(blas_stack())))

    print("profile table")
    rows, title = profile_rows(lambda: mlp())
    views.append(("profile", title, _html.key_averages_html(rows, title=title)))

    browser = _chromium()
    if browser is None:
        print("Chromium is not installed: wrote the HTML files only, no screenshots "
              "(apt-get install chromium)")
    index = []
    for name, title, body in views:
        html_path = os.path.join(out_dir, f"{name}.html")
        with open(html_path, "w", encoding="utf-8") as f:
            f.write(_html.page(title, f"<h2>{title}</h2>{body}"))
        files = [html_path]
        for theme in ("light", "dark") if browser is not None else ():
            png = os.path.join(out_dir, f"{name}-{theme}.png")
            if screenshot(browser, html_path, png, dark=theme == "dark"):
                files.append(png)
        index.append((title, files))
        print(f"  {name}: " + ", ".join(os.path.basename(f) for f in files))
    if browser is not None:
        index.append(("JupyterLab's dark theme on a light system", [jupyterlab_dark(
            browser, out_dir, views[1][2])]))
    links = "".join(f"<li>{title}: " + " · ".join(
        f'<a href="{os.path.basename(f)}">{os.path.basename(f)}</a>' for f in files) + "</li>"
        for title, files in index)
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as f:
        f.write(_html.page("opscope views", f"<h2>opscope views</h2><ul>{links}</ul>"))
    print(f"wrote {out_dir}/index.html")


if __name__ == "__main__":
    main()
