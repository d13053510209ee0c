#!/usr/bin/python3
"""The teaching notebooks executed and rendered as a class sees them (`make notebooks`):

    notebooks/render.py [OUTDIR [NOTEBOOK ...]]     (default build/notebooks, every notebook)

For each notebook: runs it top to bottom on the xopscope kernel (nbclient), saves the executed
copy (OUTDIR/NAME.ipynb), exports it to HTML with nbconvert twice — NAME-trusted.html as
`jupyter nbconvert --to html` writes it, NAME-untrusted.html sanitized as nbviewer shows an
untrusted notebook — with the `remove-input` cells' code left out (the hidden `# test:`
cells), and, where Chromium is installed, screenshots each page: NAME-*-projector.png (the
first screen of a 1280×720 projector at 150 %) and NAME-*-page.png (the whole page, as wide).
Prints each notebook's run time. The notebooks in git stay without outputs.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def execute(path, out_dir):
    """Runs the notebook on xopscope in out_dir; returns (executed notebook, seconds)."""
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(path, as_version=4)
    start = time.monotonic()
    NotebookClient(nb, kernel_name="xopscope", timeout=120,
                   resources={"metadata": {"path": str(out_dir)}}).execute()
    return nb, time.monotonic() - start


def html(nb, trusted):
    """nbconvert's HTML of an executed notebook, the hidden cells' code left out."""
    from nbconvert import HTMLExporter
    from traitlets.config import Config
    c = Config()
    c.TagRemovePreprocessor.enabled = True
    c.TagRemovePreprocessor.remove_input_tags = {"remove-input"}
    c.HTMLExporter.sanitize_html = not trusted
    body, _ = HTMLExporter(config=c).from_notebook_node(nb)
    return body


def _chromium():
    return next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)


def _page_height(browser, page, width):
    """The page's height at `width` CSS px, read back with --dump-dom."""
    probe = page.with_suffix(".measure.html")
    probe.write_text(page.read_text(encoding="utf-8").replace(
        "</body>", "<script>document.title='H'+document.documentElement.scrollHeight"
        "</script></body>"), encoding="utf-8")
    try:
        out = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                              f"--window-size={width},800", "--dump-dom", probe.as_uri()],
                             capture_output=True, text=True, timeout=120).stdout
    finally:
        probe.unlink()
    start = out.find("<title>H")
    return int(out[start + 8:out.index("<", start + 8)]) if start >= 0 else 4000


def shoot(browser, page, png, width, height, scale=1.0):
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{height}", f"--force-device-scale-factor={scale}",
                    f"--screenshot={png}", "--virtual-time-budget=10000", page.as_uri()],
                   capture_output=True, timeout=180)
    return png.exists()


def main():
    out_dir = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "notebooks")
    out_dir = out_dir.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    names = sys.argv[2:]
    paths = [HERE / n if not os.path.exists(n) else pathlib.Path(n) for n in names] or \
        sorted(HERE.glob("*.ipynb"))
    browser = _chromium()
    if browser is None:
        print("Chromium is not installed: HTML only (tools/setup.sh --views)")
    import nbformat
    for path in paths:
        nb, seconds = execute(path, out_dir)
        nbformat.write(nb, out_dir / path.name)
        print(f"{path.name}: ran in {seconds:.1f} s")
        for form in ("trusted", "untrusted"):
            page = out_dir / f"{path.stem}-{form}.html"
            page.write_text(html(nb, form == "trusted"), encoding="utf-8")
            if browser is None:
                continue
            # 1280×720 at 150 %: 853×480 CSS px, as a projected notebook shows it
            shoot(browser, page, out_dir / f"{path.stem}-{form}-projector.png", 853, 480, 1.5)
            height = min(_page_height(browser, page, 853) + 16, 12000)
            shoot(browser, page, out_dir / f"{path.stem}-{form}-page.png", 853, height, 1.5)
    print(f"wrote {out_dir}")


if __name__ == "__main__":
    main()
