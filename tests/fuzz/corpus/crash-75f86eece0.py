# opscope fuzz corpus: a case that once ended in crash (SIGSEGV).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/crash-75f86eece0.py
# kind: crash
# target: torch.ops.aten.zero_.default
# found by case 2:1825 (seed:index); reproduced alone
# native stack when found:
#   #0  __strlen_evex () at ../sysdeps/x86_64/multiarch/strlen-evex.S:79
#   #4  opscope::python::parse_signature (...) at /work/main/core/python/arg_parser.cpp:396
#   #7  opscope::python::(anonymous namespace)::op_vectorcall (...) at /work/main/core/python/ops.cpp:55
import opscope as torch
t0 = torch.tensor([0.43, -5.523, -5.136, -2.569])[1:]
r = torch.ops.aten.zero_.default(t0, **{'\ud800': 1})
