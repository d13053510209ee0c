"""``opscope.nn``: neural-network building blocks. For now the functional API
(``import opscope.nn.functional as F``); Modules come later."""

from opscope.nn import functional  # noqa: F401  (opscope.nn.functional after `import opscope.nn`)
