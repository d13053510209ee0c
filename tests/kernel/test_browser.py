"""A real browser: classic Notebook (Debian's python3-notebook) started on 127.0.0.1, headless
Chromium driven by Selenium (python3-selenium, chromium-driver) opens a notebook whose kernelspec
is xopscope, runs a cell with a matmul and then %trace by typing Shift+Enter in them, and the
page is checked as rendered: the per-cell view's summary line is there, and a <details> fold of
the trace opens on a click. Screenshots of the page (light, and dark as JupyterLab's dark theme
marks its page) are saved for eyes in $OPSCOPE_SCREENSHOTS, by default <build>/screenshots/kernel/,
and their paths printed.

Skips, saying why, only where Chromium, its driver or Selenium is not installed (tools/setup.sh
installs them, best effort).
"""
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

import kerneltests
from kerneltests import BUILD, KERNELSPECS, kernel_environment  # noqa: F401 (the fixture)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    webdriver = None

missing = [what for what, ok in (("chromium", CHROMIUM), ("chromium-driver", DRIVER),
                                  ("python3-selenium", webdriver)) if not ok]
pytestmark = [kerneltests.pytestmark, pytest.mark.skipif(
    bool(missing), reason=f"no browser: {', '.join(missing)} not installed (tools/setup.sh)")]

CELLS = ["import opscope\n"
         "a = opscope.randn(2, 3, requires_grad=True)\n"
         "c = a @ opscope.randn(3, 4)",
         "%trace"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def notebook_server(tmp_path):
    """(url of a notebook using the xopscope kernel, its folder), served by classic Notebook."""
    nbformat.write(new_notebook(cells=[new_code_cell(c) for c in CELLS], metadata={
        "kernelspec": {"name": "xopscope", "display_name": "opscope (xopscope)",
                       "language": "python"}}), tmp_path / "view.ipynb")
    port = _free_port()
    env = dict(os.environ, JUPYTER_PATH=str(KERNELSPECS),
               JUPYTER_DATA_DIR=str(tmp_path / "data"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         "--NotebookApp.token=", "--NotebookApp.password=", "--allow-root",
         f"--notebook-dir={tmp_path}"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "server.log").read_text()
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/notebooks/view.ipynb", tmp_path
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


@pytest.fixture
def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def run_cell(driver, cell):
    cell.find_element(By.CSS_SELECTOR, ".input_area").click()
    driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.ENTER)


def test_a_cells_view_in_classic_notebook(notebook_server, browser):
    url, folder = notebook_server
    browser.get(url)
    wait = WebDriverWait(browser, 90)
    wait.until(lambda d: d.execute_script(
        "return !!(window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel"
        " && Jupyter.notebook.kernel.is_connected() && Jupyter.notebook.kernel_busy === false)"))
    assert browser.execute_script("return Jupyter.notebook.kernel.name") == "xopscope"

    cells = browser.find_elements(By.CSS_SELECTOR, ".cell.code_cell")
    run_cell(browser, cells[0])
    outputs = lambda cell: cell.find_elements(By.CSS_SELECTOR, ".output_area")  # noqa: E731
    wait.until(lambda d: any("matmul" in o.text for o in outputs(cells[0])))
    text = cells[0].find_element(By.CSS_SELECTOR, ".output_wrapper").text
    summary = [line for line in text.splitlines() if line.startswith("matmul(")]
    assert summary and "mm[AutogradCPU] → mm[CPU]" in summary[0] and "MmBackward0" in summary[0]
    # One output: the view (the cell itself shows nothing), drawn as HTML.
    assert len(outputs(cells[0])) == 1
    assert cells[0].find_elements(By.CSS_SELECTOR, ".output_html .opscope, .output_html div")

    run_cell(browser, cells[1])
    wait.until(lambda d: cells[1].find_elements(By.CSS_SELECTOR, ".output_area details"))
    folds = [d for d in cells[1].find_elements(By.CSS_SELECTOR, ".output_area details")
             if d.is_displayed() and d.get_attribute("open") is None]
    assert folds, "the trace has a closed fold to open"
    folds[0].find_element(By.TAG_NAME, "summary").click()
    wait.until(lambda d: folds[0].get_attribute("open") is not None)

    shots = pathlib.Path(os.environ.get("OPSCOPE_SCREENSHOTS", BUILD / "screenshots" / "kernel"))
    shots.mkdir(parents=True, exist_ok=True)
    light, dark = shots / "notebook-light.png", shots / "notebook-dark.png"
    assert browser.save_screenshot(str(light))
    # Classic Notebook has no dark theme, and the views turn dark only when the page says so
    # (Note [Dark only when the page says so] in opscope/profiler/_css.py): the page is made to
    # say it as JupyterLab's dark theme does, its own background darkened to match.
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    browser.execute_script("""
        document.body.setAttribute('data-jp-theme-light', 'false');
        const s = document.createElement('style');
        s.textContent = 'body, #site, #notebook, #notebook-container, .cell, div.input_area,'
          + ' .output_area, .output_subarea, .output_html, .rendered_html, .CodeMirror,'
          + ' #header, #menubar-container, .navbar-default'
          + ' { background: #1e1e1e !important; color: #d4d4d4 !important; }';
        document.head.appendChild(s);""")
    assert browser.save_screenshot(str(dark))
    print(f"screenshots: {light} {dark}")
