# opscope fuzz corpus: a case that once ended in SystemError (SystemError: <built-in function stack> returned a result with an exception set).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/systemerror-5adfa06478.py
# kind: SystemError
# target: torch.ops.aten.stack.default
# found by case 1:4139 against commit 96de51f (before the fixes of 350baca) (seed:index); reproduced alone
import opscope as torch
class HugeIndex:
    def __index__(self): return 2**80
r = torch.ops.aten.stack.default((torch.ones(1),), HugeIndex())
