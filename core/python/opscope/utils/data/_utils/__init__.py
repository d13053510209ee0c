"""The parts of data loading that the DataLoader's iterators and its worker processes share
(``torch.utils.data._utils``): collation, fetching, the worker loop, and how tensors cross the
process boundary. Everything a worker runs lives at module level, so that it pickles by name for
the ``spawn`` start method.
"""
import atexit
import sys
import traceback

MP_STATUS_CHECK_INTERVAL = 5.0
"""Seconds a blocked queue read waits before it checks that the process on the other end is
still alive (a worker checks its parent; the main process checks its workers)."""

python_exit_status = False
"""True once the interpreter has begun to exit: iterators then leave their daemonic workers to
multiprocessing's own exit handler instead of talking to queues whose threads may be gone."""


def _set_python_exit_flag():
    global python_exit_status
    python_exit_status = True


atexit.register(_set_python_exit_flag)


class KeyErrorMessage(str):
    """A str whose repr is itself: KeyError prints repr(arg), which would print a traceback
    carried as its message as one long quoted line."""

    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception caught in a worker, carried to the main process as its type and formatted
    traceback (a traceback object does not pickle), and raised there again by ``reraise``."""

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        """Raises ``exc_type("Caught <Type> <where>.\\nOriginal Traceback ...")``, as PyTorch does;
        a RuntimeError with that message where the type cannot be built from one string."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type == KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except TypeError:
            raise RuntimeError(msg) from None
        raise exception


from opscope.utils.data._utils import collate, fetch, pickling, worker  # noqa: E402,F401
