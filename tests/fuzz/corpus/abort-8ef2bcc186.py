# opscope fuzz corpus: a case that once ended in abort (SIGABRT).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/abort-8ef2bcc186.py
# kind: abort
# target: x - y
# found by case 1:11838 against commit 96de51f (before the fixes of 350baca) (seed:index); reproduced alone
import opscope as torch
t0 = torch.ones(4, 4)
r = 2**70 - t0
