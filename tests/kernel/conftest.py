"""The kernel tests' fixtures and collection hook; what they share is in kerneltests.py (a
module of its own name: several test folders have a conftest.py, and `from conftest import`
would find whichever pytest loaded last)."""
import os
import pathlib

import pytest

from kerneltests import BUILD, KERNELSPECS, XOPSCOPE, kernel_switched_off


def pytest_collection_modifyitems(config, items):
    here = pathlib.Path(__file__).parent
    mine = [i for i in items if here in pathlib.Path(str(i.fspath)).parents]
    if not mine or os.access(XOPSCOPE, os.X_OK):
        return
    if kernel_switched_off():
        mark = pytest.mark.skip(reason=f"the kernel is switched off in {BUILD} (OPSCOPE_KERNEL)")
        for item in mine:
            item.add_marker(mark)
    # Not switched off, yet missing: kernel_environment fails (CI must build it).


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


