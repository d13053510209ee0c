# opscope fuzz corpus: a case that once ended in SystemError (SystemError: <built-in function movedim> returned a result with an exception set).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/systemerror-447ba782e6.py
# kind: SystemError
# target: torch.ops.aten.movedim.int
# found by case 1:1694 against commit 96de51f (before the fixes of 350baca) (seed:index); reproduced alone
import numpy as np
import opscope as torch
t0 = torch.ones(1, 3)
r = torch.ops.aten.movedim.int(t0, -1, np.uint64(2**64 - 1))
