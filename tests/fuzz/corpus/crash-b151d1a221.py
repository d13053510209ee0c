# opscope fuzz corpus: a case that once ended in crash (SIGSEGV).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/crash-b151d1a221.py
# kind: crash
# target: scenario:library.impl
# found by case 21:1126 (then written by hand, smaller) (seed:index); reproduced alone
# native stack when found:
#   #0  0x0000000000f4b4b0 in ?? ()
#   #1  0x000000000050bdb5 in ?? ()
#   #2  0x000000000050babe in ?? ()
#   #3  0x000000000050a602 in ?? ()
#   #4  0x0000000000630c37 in ?? ()
#   #5  0x00000000005084dd in PyType_GenericAlloc ()
#   #6  0x00007ffff78a36a1 in opscope::python::wrap_as (t=..., type=<optimized out>) at /work/main/core/python/tensor_type.cpp:21
#   #7  opscope::python::wrap (t=...) at /work/main/core/python/tensor_type.cpp:35
#   #8  0x00007ffff782fd66 in operator() (v=..., __closure=<optimized out>) at /work/main/core/python/arg_parser.cpp:497
#   #9  0x00007ffff782fef8 in opscope::python::returns_to_py (schema=..., stack=std::vector of length 1000, capacity 1536 = {...}, first=first@entry=0, named=named@entry=0xf98a10) at /work/main/core/python/arg_parser.cpp:520
#   #10 0x00007ffff788d955 in operator() (__closure=<optimized out>) at /work/main/core/python/ops.cpp:67
#   #11 opscope::python::guarded<opscope::python::(anonymous namespace)::op_vectorcall(PyObject*, PyObject* const*, size_t, PyObject*)::<lambda()> > (f=...) at /work/main/core/python/python_common.h:106
import opscope as torch
lib = torch._C._Library('IMPL', 'aten')
h = lib.impl('sort', 'CPU', lambda *args: torch.ones(1000))
r = torch.ones(2).sort()
