"""``opscope.utils.hooks``: the handle every ``register_hook`` returns."""


class RemovableHandle:
    """What ``Tensor.register_hook``, ``grad_fn.register_hook`` / ``register_prehook`` return:
    ``remove()`` takes the hook off again (once; later calls do nothing). Also a context manager
    that removes the hook on exit, as torch.utils.hooks.RemovableHandle."""

    def __init__(self, remove, hook_id):
        self._remove, self.id = remove, hook_id

    def remove(self):
        if self._remove is not None:
            self._remove()
            self._remove = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
