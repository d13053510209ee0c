"""``opscope.backends.mkldnn``: oneDNN (mkldnn), which opscope does not use: its CPU kernels are
its own (and OpenBLAS for the products)."""

import sys

from opscope.backends import PropModule, _flag, _flags_set


def is_available():
    """False: opscope is built without oneDNN."""
    return False


def flags(enabled=False):
    """A `with` block with `enabled` set, restored after."""
    return _flags_set(sys.modules[__name__], enabled=enabled)


class MkldnnModule(PropModule):
    enabled = _flag("enabled", "set_enabled_mkldnn")


_flags = {"enabled": True}
sys.modules[__name__].__class__ = MkldnnModule
