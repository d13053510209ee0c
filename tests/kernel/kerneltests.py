"""What the kernel tests share, imported by each test module (`from kerneltests import
kernel_environment, pytestmark`; no conftest.py: make test collects tests/kernel beside
tests/python, whose test modules import their own conftest by name): the xopscope kernel of the
build under test, found through its own kernelspec, and a clean environment for it.

The build folder is the one named by OPSCOPE_BUILD_DIR, else the one whose python/ folder is on
PYTHONPATH (as `make test` exports it), else <repo>/build. Its kernelspec,
<build>/share/jupyter/kernels/xopscope/kernel.json, names <build>/bin/xopscope (Note [One
kernelspec per build folder] in kernel/CMakeLists.txt): JUPYTER_PATH points there, so the user's
installed kernelspecs are neither used nor changed. IPYTHONDIR and XDG_CONFIG_HOME are temporary,
so the user's IPython history and saved opscope settings (a saved `%views off`) play no part.
"""
import os
import pathlib
import re
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _build_dir():
    if os.environ.get("OPSCOPE_BUILD_DIR"):
        return pathlib.Path(os.environ["OPSCOPE_BUILD_DIR"]).resolve()
    for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        p = pathlib.Path(entry) if entry else None
        if p is not None and p.name == "python" and (p.parent / "bin" / "xopscope").exists():
            return p.parent.resolve()
    return REPO / "build"


BUILD = _build_dir()
XOPSCOPE = BUILD / "bin" / "xopscope"
KERNELSPECS = BUILD / "share" / "jupyter"


def kernel_switched_off():
    cache = BUILD / "CMakeCache.txt"
    if not cache.exists():
        return False
    m = re.search(r"^OPSCOPE_KERNEL:\w+=(.*)$", cache.read_text(), re.M)
    return m is not None and m.group(1).upper() in ("OFF", "0", "FALSE", "NO")


def wait_until(predicate, timeout, interval=0.02):
    """Polls predicate() until it is true (returns True) or timeout seconds passed (False)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


# Every test here skips where the build switched the kernel off; where it is missing without
# being switched off, kernel_environment fails (CI must build it).
pytestmark = pytest.mark.skipif(kernel_switched_off(),
                                reason=f"the kernel is switched off in {BUILD} (OPSCOPE_KERNEL)")


@pytest.fixture(scope="session", autouse=True)
def kernel_environment(tmp_path_factory):
    """The environment every kernel of these tests starts in (restored at the end)."""
    if not os.access(XOPSCOPE, os.X_OK):
        pytest.fail(f"{XOPSCOPE} is missing: install the packages (tools/setup.sh) and build "
                    f"(make build; CMake option OPSCOPE_KERNEL=AUTO or ON)")
    home = tmp_path_factory.mktemp("kernel-home")
    saved = {k: os.environ.get(k) for k in
             ("JUPYTER_PATH", "IPYTHONDIR", "XDG_CONFIG_HOME", "XOPSCOPE_VIEWS")}
    os.environ["JUPYTER_PATH"] = str(KERNELSPECS)
    os.environ["IPYTHONDIR"] = str(home / "ipython")
    os.environ["XDG_CONFIG_HOME"] = str(home / "config")
    os.environ.pop("XOPSCOPE_VIEWS", None)
    yield home
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
