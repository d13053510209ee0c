"""``opscope.autograd.graph``: hooks on the tensors autograd saves for backward.

>>> import opscope
>>> def pack(t):
...     print("packing", tuple(t.shape))
...     return t
>>> x = opscope.ones(3, requires_grad=True)
>>> with opscope.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
...     y = x * x
packing (3,)
packing (3,)
"""
import opscope
from opscope import _C

__all__ = ["saved_tensors_hooks", "save_on_cpu"]


class saved_tensors_hooks:
    """Inside this context, every tensor an op saves for backward is given to ``pack_hook`` and
    only its result is kept; backward (or ``grad_fn._saved_*``) calls ``unpack_hook`` on that
    result to get a tensor back. Nested contexts: the innermost pair is used."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _C._push_saved_tensors_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *exc):
        _C._pop_saved_tensors_hooks()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept on the CPU (copied there when saved) and moved back to their device
    for backward."""

    def __init__(self, pin_memory=False):
        def pack(t):
            return (t.device, t.cpu())

        def unpack(packed):
            device, t = packed
            return t.to(device)

        super().__init__(pack, unpack)
