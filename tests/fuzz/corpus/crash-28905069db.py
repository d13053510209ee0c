# opscope fuzz corpus: a case that once ended in crash (SIGSEGV).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/crash-28905069db.py
# kind: crash
# target: torch.ops.aten._reshape_alias.default
# found by case 1:62609 (seed:index); reproduced alone
# native stack when found:
#   #0  0x00007ffff6360274 in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #1  0x00007ffff630314b in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #2  0x00007ffff6303b53 in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #3  0x00007ffff6303c17 in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #4  0x00007ffff6303c17 in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #5  0x00007ffff6303c17 in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #6  0x00007ffff6303c17 in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #7  0x00007ffff63a8348 in ?? () from /usr/lib/python3/dist-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so
#   #8  0x0000000000579227 in ?? ()
#   #9  0x000000000053acbc in PyObject_Vectorcall ()
#   #10 0x000000000052b9e0 in _PyEval_EvalFrameDefault ()
#   #11 0x000000000055c9d1 in _PyFunction_Vectorcall ()
import opscope as torch
t0 = torch.tensor([[-9223372036854775808, 5], [2, -4]])
r = torch.ops.aten._reshape_alias.default(t0, [2, 2], [2 ** 31, 2 ** 31])
print(repr(r))
