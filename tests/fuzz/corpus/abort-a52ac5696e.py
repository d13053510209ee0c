# opscope fuzz corpus: a case that once ended in abort (SIGABRT).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/abort-a52ac5696e.py
# kind: abort
# target: Tensor.numpy
# found by case 1:76110 (seed:index); reproduced alone
# native stack when found:
#   #8  0x00007ffff783f247 in pybind11::str::operator std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > (this=this@entry=0x7fffffffde20) at /usr/include/pybind11/pytypes.h:1527
#   #9  0x00007ffff7844973 in pybind11::cpp_function::dispatcher (self=<optimized out>, args_in=0x7ffff7a33fd0, kwargs_in=0x7ffff79f8a00) at /usr/include/pybind11/pybind11.h:1104
#   #10 0x0000000000547b96 in ?? ()
#   #11 0x0000000000517fc3 in _PyObject_MakeTpCall ()
#   #12 0x0000000000583b94 in ?? ()
#   #13 0x000000000056a381 in PyObject_Call ()
#   #14 0x000000000052f9c1 in _PyEval_EvalFrameDefault ()
#   #15 0x00000000005236bb in PyEval_EvalCode ()
#   #16 0x0000000000647d97 in ?? ()
#   #17 0x00000000006456ef in ?? ()
#   #18 0x0000000000651770 in ?? ()
#   #19 0x00000000006514bb in _PyRun_SimpleFileObject ()
import opscope as torch
t0 = torch.empty((0, 1)).expand((0, 3))
r = t0.numpy(**{'\ud800': 1})
