# opscope fuzz corpus: a case that once ended in crash (SIGSEGV).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/crash-1569b790a6.py
# kind: crash
# target: x == y
# found by case 1:168 against commit 96de51f (before the fixes of 350baca) (seed:index); reproduced alone
import numpy as np
import opscope as torch
t0 = torch.ones(2, 3)
r = t0 == np.array(2.5)
