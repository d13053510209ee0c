"""``opscope.backends.cudnn``: torch.backends.cudnn's switches. opscope has no cuDNN, so
is_available() is False and the switches (enabled, benchmark, deterministic, allow_tf32) change
nothing; they keep torch 1.13's defaults and refuse non-bools as torch does."""

import sys

from opscope.backends import PropModule, _flag, _flags_set


def is_available():
    """False: opscope has no cuDNN."""
    return False


def version():
    """None: no cuDNN library is loaded."""
    return None


def is_acceptable(tensor):
    """False: no tensor can use cuDNN here."""
    return False


def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    """A `with` block with these switches set (torch.backends.cudnn.flags), restored after."""
    return _flags_set(sys.modules[__name__], enabled=enabled, benchmark=benchmark,
                      deterministic=deterministic, allow_tf32=allow_tf32)


class CudnnModule(PropModule):
    enabled = _flag("enabled", "set_enabled_cudnn")
    benchmark = _flag("benchmark", "set_benchmark_cudnn")
    deterministic = _flag("deterministic", "set_deterministic_cudnn")
    # torch 1.13's message names the cuBLAS setter here too.
    allow_tf32 = _flag("allow_tf32", "set_allow_tf32_cublas")


_flags = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}
sys.modules[__name__].__class__ = CudnnModule
