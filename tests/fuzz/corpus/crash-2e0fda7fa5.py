# opscope fuzz corpus: a case that once ended in crash (SIGSEGV).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/crash-2e0fda7fa5.py
# kind: crash
# target: torch.ops.aten.reshape.default
# found by case 1:573 against commit 96de51f (before the fixes of 350baca) (seed:index); reproduced alone
import numpy as np
import opscope as torch
n0 = np.arange(6).reshape(2, 3).astype('>i8')
r = torch.ops.aten.reshape.default(self=n0, shape=[6])
