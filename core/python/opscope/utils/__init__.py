"""``opscope.utils``: helpers that are not ops (``opscope.utils.hooks``)."""
from opscope.utils import hooks  # noqa: F401
