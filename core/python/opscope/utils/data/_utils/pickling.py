"""How an opscope tensor crosses a process boundary: multiprocessing's ForkingPickler (used by
its queues, and for a ``spawn`` worker's arguments) sends a tensor as a NumPy array of its
values plus its dtype and requires_grad, and the receiver builds a fresh tensor over that
array. A copy, not shared memory: PyTorch puts batches in shared memory; here the batch bytes
travel through the queue's pipe.

Only multiprocessing's pickler is taught this; plain ``pickle.dumps(tensor)`` is unchanged.
"""
from multiprocessing.reduction import ForkingPickler

import opscope

# dtypes NumPy has no type for travel as float32, which holds each of their values exactly.
_WIDENED = {opscope.bfloat16: opscope.float32}


def _rebuild_tensor(array, dtype, requires_grad):
    t = opscope.from_numpy(array)
    if t.dtype != dtype:
        t = t.to(dtype)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _reduce_tensor(t):
    if t.requires_grad and not t.is_leaf:
        raise RuntimeError(
            "Cowardly refusing to serialize non-leaf tensor which requires_grad, "
            "since autograd does not support crossing process boundaries.  "
            "If you just want to transfer the data, call detach() on the tensor "
            "before serializing (e.g., putting it on the queue).")
    data = t.detach()
    wide = _WIDENED.get(data.dtype)
    if wide is not None:
        data = data.to(wide)
    array = data.numpy()  # pickled as its values, whatever its strides
    return _rebuild_tensor, (array, t.dtype, t.requires_grad)


def register():
    """Teaches ForkingPickler opscope tensors (idempotent). Subclasses such as nn.Parameter
    reduce themselves to a plain tensor, which lands here."""
    ForkingPickler.register(opscope.Tensor, _reduce_tensor)


register()
