"""``opscope.utils``: helpers that are not ops (``opscope.utils.hooks``, ``opscope.utils.data``)."""
from opscope.utils import hooks  # noqa: F401


def __getattr__(name):
    # ``opscope.utils.data`` loads on first use: it brings NumPy and multiprocessing, which
    # ``import opscope`` alone does not need.
    if name == "data":
        import importlib
        return importlib.import_module("opscope.utils.data")
    raise AttributeError(f"module 'opscope.utils' has no attribute '{name}'")
