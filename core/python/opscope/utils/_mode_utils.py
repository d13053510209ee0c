"""Mode helpers, as torch 1.13's torch.utils._mode_utils: ``no_dispatch()`` turns the Python
dispatch key off for a block (no mode and no ``__torch_dispatch__`` subclass sees the ops run
inside it: they go straight to the kernels)."""

import contextlib

from opscope import _C


def all_same_mode(modes):
    return all(mode == modes[0] for mode in modes)


@contextlib.contextmanager
def no_dispatch():
    guard = _C._DisableTorchDispatch()
    try:
        yield
    finally:
        del guard
