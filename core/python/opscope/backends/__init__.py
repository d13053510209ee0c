"""``opscope.backends``: torch.backends' switches, for code written against them.

opscope runs on its own CPU kernels: there is no cuDNN, MPS or oneDNN (mkldnn) here, and CUDA is
``opscope.cuda``'s business. The switches still exist, with torch 1.13's defaults and type checks,
so that the lines tutorials start with (``torch.backends.cudnn.benchmark = True``,
``torch.backends.cuda.matmul.allow_tf32 = True``) run; they change nothing opscope computes.

This module also keeps the process-wide flags torch keeps in its C++ context (at::Context) and
``opscope`` exports: the float32 matmul precision and the deterministic-algorithms mode.

>>> import opscope
>>> opscope.backends.cudnn.is_available(), opscope.backends.mps.is_available()
(False, False)
>>> opscope.get_float32_matmul_precision()
'highest'
"""

import types
import warnings
from contextlib import contextmanager


class PropModule(types.ModuleType):
    """A module whose attributes may be properties (torch.backends.PropModule): `enabled` and its
    kin check the type of what is assigned, as torch's setters do."""


def _check_bool(value, setter):
    if not isinstance(value, bool):
        raise RuntimeError(f"{setter} expects a bool, but got {type(value).__name__}")
    return value


def _flag(name, setter):
    """A bool property stored in the module's _flags dict, refusing non-bools with torch's message."""
    def get(self):
        return self._flags[name]

    def set(self, value):
        self._flags[name] = _check_bool(value, setter)

    return property(get, set)


@contextmanager
def _flags_set(module, **values):
    """Sets a module's flags for a `with` block, restoring them after."""
    saved = dict(module._flags)
    try:
        for name, value in values.items():
            setattr(module, name, value)
        yield
    finally:
        module._flags.update(saved)


# --- float32 matmul precision (torch 1.12+) -----------------------------------------------------

_matmul_precision = "highest"


def set_float32_matmul_precision(precision):
    """Sets the internal precision of float32 matrix products: 'highest' (full float32), 'high'
    or 'medium' (TF32 / bfloat16 allowed on GPUs that have them). opscope's CPU products always
    compute in full float32; the setting is kept, read back by get_float32_matmul_precision and
    by backends.cuda.matmul.allow_tf32 ('high' and 'medium' allow TF32), as in torch."""
    global _matmul_precision
    if precision not in ("highest", "high", "medium"):
        # torch logs this from C++ and carries on; here it is a Python warning with its words.
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.")
        return
    _matmul_precision = precision
    _tell_cublas()


def _tell_cublas():
    """Passes the precision to the CUDA backend's products, when there is one (TF32 allowed
    unless 'highest')."""
    from opscope import _C
    if hasattr(_C, "_set_cublas_allow_tf32"):
        _C._set_cublas_allow_tf32(_matmul_precision != "highest")


def get_float32_matmul_precision():
    """The float32 matmul precision: 'highest' (the default), 'high' or 'medium'."""
    return _matmul_precision


# --- deterministic algorithms --------------------------------------------------------------------

_deterministic = False
_deterministic_warn_only = False


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Asks for deterministic algorithms only. opscope's kernels are deterministic already (its
    parallel reductions split work the same way every run), so no op refuses in this mode; the
    mode is kept and read back, as torch keeps it."""
    global _deterministic, _deterministic_warn_only
    if not isinstance(mode, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, "
                        f"not {type(mode).__name__}")
    if not isinstance(warn_only, bool):
        raise TypeError("_set_deterministic_algorithms(): argument 'warn_only' must be bool, "
                        f"not {type(warn_only).__name__}")
    _deterministic, _deterministic_warn_only = mode, warn_only


def are_deterministic_algorithms_enabled():
    """True after use_deterministic_algorithms(True)."""
    return _deterministic


def is_deterministic_algorithms_warn_only_enabled():
    """True after use_deterministic_algorithms(True, warn_only=True)."""
    return _deterministic_warn_only


_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def set_deterministic_debug_mode(debug_mode):
    """The same switch as use_deterministic_algorithms, by level: 'default' / 0 (off), 'warn' / 1
    (on, warn only), 'error' / 2 (on)."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = _DEBUG_MODES[debug_mode]
    elif isinstance(debug_mode, int) and not isinstance(debug_mode, bool):
        if debug_mode not in (0, 1, 2):
            raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    else:
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    """0 (off), 1 (on, warn only) or 2 (on)."""
    if not _deterministic:
        return 0
    return 1 if _deterministic_warn_only else 2


from opscope.backends import cuda, cudnn, mkl, mkldnn, mps, openmp  # noqa: E402,F401
