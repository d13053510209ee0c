#!/usr/bin/python3
"""Screenshots of every view, as a class meets them on day one (`make screenshots`):

    tests/views/snapshot/run.py [OUTDIR [notebook]]   (default /tmp/opscope-views; "notebook":
                                                       only the notebook's screenshots)

1. A lecture notebook (tests/views/programs.py's programs, each view as the notebook shows it
   and, where it folds, unfolded) executed on the stock ipykernel by nbclient, saved as it
   comes (untrusted) and as a trusted copy, opened in classic Notebook 6.4 (`jupyter notebook`,
   headless) in headless Chromium: notebook-{untrusted,trusted}.png at 1400 px,
   notebook-{untrusted,trusted}-projector.png at 1280×720 and 150 % (853 CSS px, the first
   screen and the whole page), notebook-trusted-os-dark.png with a dark system preference
   (the page stays light: Note [Dark only when the page says so] in _css.py).
2. Each view alone, trusted, in a light page and in JupyterLab's dark theme at 1400 px:
   VIEW-light.png, VIEW-dark.png (and the HTML files).
3. The text views as a terminal shows them at 80 and 120 columns: terminal-80.{txt,png},
   terminal-120.{txt,png}.

OUTDIR/index.html links everything. Needs chromium and python3-notebook (tools/setup.sh
--views); without Chromium only the HTML and text files are written.
"""
import html
import os
import re
import shutil
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VIEWS = os.path.dirname(HERE)
ROOT = os.path.abspath(os.path.join(VIEWS, "..", ".."))
sys.path.insert(0, VIEWS)

import programs  # noqa: E402
from opscope.profiler import _html, _textview  # noqa: E402

CHROME_PX = 0   # what headless Chromium takes off the window's height in a screenshot (156: none)

# The lecture notebook: (markdown, code) cells. `programs` is tests/views/programs.py.
LECTURE = [
    ("# opscope views in a notebook", "import sys\nsys.path.insert(0, {views!r})\n"
     "import programs, opscope\nfrom opscope.profiler import _html\n"
     "from IPython.display import HTML, display"),
    ("## 1. A trace, as a cell shows it (folded)", "t = programs.training_step()\nt"),
    ("The same, unfolded", "display(HTML(_html.trace_html(t, open_all=True)))"),
    ("## 2. The call stack at mm, recorded in this cell",
     "y, z = opscope.randn(64, 32), opscope.randn(32, 16)\n"
     "with opscope.trace(with_stack=True) as ts:\n    x = opscope.matmul(y, z)\n"
     "ts.stack('aten::mm')"),
    ("## 3. The tree as text", "print(t.tree())"),
    ("`t.tree()` typed alone displays itself", "t.tree()"),
    ("## 4. An op that fails", "programs.failing()"),
    ("## 5. A loop", "programs.loop()"),
    ("## 6. The profile", "programs.profile()"),
    ("## 7. The autograd graph", "programs.graph()"),
]


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(args, timeout=120):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout)


def _shoot(browser, url, png, width, height, scale=1.0, dark=False, wait_ms=0):
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--window-size={width},{height + CHROME_PX}", f"--screenshot={png}"]
    if scale != 1.0:
        args.append(f"--force-device-scale-factor={scale}")
    if dark:
        args.append("--force-dark-mode")
    if wait_ms:
        args.append(f"--virtual-time-budget={wait_ms}")
    _run(args + [url], timeout=180)
    return os.path.exists(png)


def _height(browser, url, width, wait_ms=0, element="document.documentElement"):
    """The page's height at `width`, read back with --dump-dom from a script the page runs."""
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={width},800",
            "--dump-dom"]
    if wait_ms:
        args.append(f"--virtual-time-budget={wait_ms}")
    if url.startswith("file://"):
        path = url[7:]
        probe = path + ".measure.html"
        text = open(path, encoding="utf-8").read()
        script = (f"<script>document.title='H'+{element}.scrollHeight</script>")
        open(probe, "w", encoding="utf-8").write(text.replace("</body>", script + "</body>"))
        try:
            out = _run(args + ["file://" + probe]).stdout
        finally:
            os.remove(probe)
        start = out.find("<title>H")
        return int(out[start + 8:out.index("<", start + 8)]) if start >= 0 else 1600
    return 1600


# --- 1. the notebook in classic Notebook ----------------------------------------------------------

def _data_dir(out_dir):
    return os.path.join(out_dir, ".jupyter-data")


def notebook(out_dir):
    os.environ["JUPYTER_DATA_DIR"] = _data_dir(out_dir)
    import nbclient
    import nbformat
    cells = []
    for markdown, code in LECTURE:
        cells.append(nbformat.v4.new_markdown_cell(markdown))
        cells.append(nbformat.v4.new_code_cell(code.format(views=VIEWS)))
    nb = nbformat.v4.new_notebook(cells=cells)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": out_dir}}).execute()
    untrusted = os.path.join(out_dir, "notebook-untrusted.ipynb")
    trusted = os.path.join(out_dir, "notebook-trusted.ipynb")
    nbformat.write(nb, untrusted)
    # the trusted copy differs (a signature is of the content: the same content is trusted
    # wherever it is)
    nb.metadata["opscope"] = {"copy": "trusted"}
    nbformat.write(nb, trusted)
    # `jupyter trust`, into a signature database of this folder's own (the server's too)
    _run([sys.executable, "-m", "nbformat.sign", trusted], timeout=60)
    sizes = {os.path.basename(p): os.path.getsize(p) for p in (untrusted,)}
    return untrusted, trusted, sizes


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def notebook_screenshots(browser, out_dir):
    """Opens the two notebooks in classic Notebook, headless, and screenshots them."""
    port = _free_port()
    env = dict(os.environ, JUPYTER_DATA_DIR=_data_dir(out_dir))
    server = subprocess.Popen(
        [sys.executable, "-m", "notebook", "--no-browser", f"--port={port}",
         "--NotebookApp.token=", "--NotebookApp.password=", "--allow-root",
         f"--notebook-dir={out_dir}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=env)
    shots = []
    try:
        for _ in range(60):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.5)
        for which in ("untrusted", "trusted"):
            url = f"http://127.0.0.1:{port}/notebooks/notebook-{which}.ipynb"
            cases = [(f"notebook-{which}.png", 1400, 9000, 1.0, False),
                     (f"notebook-{which}-projector.png", 853, 480, 1.5, False),
                     (f"notebook-{which}-projector-page.png", 853, 9000, 1.5, False)]
            if which == "trusted":
                cases.append(("notebook-trusted-os-dark.png", 1400, 1600, 1.0, True))
            for name, w, h, scale, dark in cases:
                png = os.path.join(out_dir, name)
                if _shoot(browser, url, png, w, h, scale, dark, wait_ms=8000):
                    shots.append(png)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return shots


# --- 2. each view alone ---------------------------------------------------------------------------

_JUPYTERLAB_DARK = ('<body data-jp-theme-light="false" data-jp-theme-name="JupyterLab Dark" '
                    'style="background:#111111; color:#e6e6e6; --jp-layout-color0:#111111; '
                    '--jp-layout-color2:#2a2a2a; --jp-content-font-color1:rgba(255,255,255,1); '
                    '--jp-content-font-color2:rgba(255,255,255,.7); '
                    '--jp-content-font-color3:rgba(255,255,255,.5); --jp-border-color2:#424242">')


def view_pages(browser, out_dir, views):
    index = []
    for name, title, view in views:
        body = _open_html(view)
        files = []
        for theme in ("light", "dark"):
            path = os.path.join(out_dir, f"{name}-{theme}.html")
            page = _html.page(title, f"<h2>{html.escape(title)}</h2>{body}")
            if theme == "dark":
                page = page.replace("<body>", _JUPYTERLAB_DARK)
            open(path, "w", encoding="utf-8").write(page)
            files.append(path)
            if browser is not None:
                png = path[:-5] + ".png"
                height = min(_height(browser, "file://" + path, 1400) + 12, 12000)
                if _shoot(browser, "file://" + path, png, 1400, height):
                    files.append(png)
        index.append((title, files))
    return index


def _open_html(view):
    """A view's HTML with its folds open (a screenshot cannot click)."""
    if hasattr(view, "top_level"):
        return _html.trace_html(view, open_all=True)
    return re.sub(r"<details(?![^>]*open)", "<details open", programs.html_of(view))


# --- 3. the terminal ------------------------------------------------------------------------------

_SGR_CSS = {"1": "font-weight:bold", "2": "opacity:.6", "9": "text-decoration:line-through",
            "31": "color:#ff7b72", "32": "color:#56d364", "33": "color:#e3b341",
            "34": "color:#79c0ff", "35": "color:#d2a8ff", "36": "color:#39c5cf"}


def _ansi_html(text):
    out = []
    for part in re.split(r"(\x1b\[[0-9;]*m)", text):
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
        if not m:
            out.append(html.escape(part))
        elif m.group(1) in ("", "0"):
            out.append("</span>")
        else:
            style = ";".join(_SGR_CSS.get(c, "") for c in m.group(1).split(";"))
            out.append(f'<span style="{style}">')
    return "".join(out)


def terminal(browser, out_dir, views):
    """The text views at 80 and 120 columns, as text files and as a terminal would draw them."""
    by_name = {name: v for name, _, v in views}
    files = []
    for width in (80, 120):
        parts = [("print(t)", str(by_name["step"])),
                 ("print(t.tree())", by_name["matmul"].tree(width=width, color=True)),
                 ("print(t.tree())  # a failed op", by_name["failing"].tree(width=width,
                                                                          color=True)),
                 ("print(s)  # the stack at mm", str(by_name["stack"].table(width=width)))]
        text = "\n\n".join(f"$ {cmd}\n{out}" for cmd, out in parts)
        txt = os.path.join(out_dir, f"terminal-{width}.txt")
        open(txt, "w", encoding="utf-8").write(re.sub(r"\x1b\[[0-9;]*m", "", text) + "\n")
        files.append(txt)
        page = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{{margin:0;'
                f'background:#0d1117;color:#e6edf3}} pre{{margin:8px;font:13px/1.35 '
                f"'DejaVu Sans Mono',monospace;width:{width}ch;white-space:pre;overflow:hidden;"
                f'border-right:1px dashed #444}}</style></head><body><pre>{_ansi_html(text)}'
                f'</pre></body></html>')
        path = os.path.join(out_dir, f"terminal-{width}.html")
        open(path, "w", encoding="utf-8").write(page)
        if browser is not None:
            png = path[:-5] + ".png"
            w = int(width * 7.9) + 40
            height = min(_height(browser, "file://" + path, w) + 12, 12000)
            if _shoot(browser, "file://" + path, png, w, height):
                files.append(png)
    return files


# --- main -----------------------------------------------------------------------------------------

def main():
    out_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "/tmp/opscope-views")
    os.makedirs(out_dir, exist_ok=True)
    browser = _chromium()
    if browser is None:
        print("Chromium is not installed: HTML and text files only (tools/setup.sh --views)")
    only = sys.argv[2] if len(sys.argv) > 2 else None   # "notebook": only part 1
    views = programs.views()
    index = []
    if only is None:
        print("views alone, light and in JupyterLab's dark theme")
        index += view_pages(browser, out_dir, views)
        print("text views at 80 and 120 columns")
        index.append(("the text views in a terminal at 80 and 120 columns",
                      terminal(browser, out_dir, views)))
    print("the lecture notebook, executed on ipykernel")
    try:
        untrusted, trusted, sizes = notebook(out_dir)
        index.append(("the notebook", [untrusted, trusted]))
        print(f"  {sizes}")
        if browser is not None:
            print("  in classic Notebook, trusted and untrusted")
            index.append(("classic Notebook", notebook_screenshots(browser, out_dir)))
    except Exception as e:  # no kernel / no notebook server: the rest still stands
        print(f"  the notebook did not run: {e}")
    links = "".join(f"<li>{html.escape(title)}: " + " · ".join(
        f'<a href="{os.path.basename(f)}">{os.path.basename(f)}</a>' for f in files) + "</li>"
        for title, files in index)
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as f:
        f.write(_html.page("opscope views", f"<h2>opscope views</h2><ul>{links}</ul>"))
    print(f"wrote {out_dir}/index.html (text width in a notebook: "
          f"{_textview.NOTEBOOK_COLUMNS} columns)")


if __name__ == "__main__":
    main()
