# opscope fuzz corpus: a case that once ended in abort (SIGABRT).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/abort-df8230db1b.py
# kind: abort
# target: torch.device
# found by case 1:99509 (seed:index); reproduced alone
# native stack when found:
#   #8  0x00007ffff783f247 in pybind11::str::operator std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > (this=this@entry=0x7fffffffdc90) at /usr/include/pybind11/pytypes.h:1527
#   #9  0x00007ffff7844973 in pybind11::cpp_function::dispatcher (self=<optimized out>, args_in=0x7ffff7a33fa0, kwargs_in=0x7ffff79f8a00) at /usr/include/pybind11/pybind11.h:1104
#   #10 0x0000000000547b96 in ?? ()
#   #11 0x0000000000517fc3 in _PyObject_MakeTpCall ()
#   #12 0x0000000000583b94 in ?? ()
#   #13 0x000000000056a5a7 in _PyObject_Call ()
#   #14 0x0000000000565cd0 in ?? ()
#   #15 0x000000000051835f in ?? ()
#   #16 0x00007ffff7845aa5 in pybind11::detail::pybind11_meta_call (type=<optimized out>, args=<optimized out>, kwargs=<optimized out>) at /usr/include/pybind11/detail/class.h:187
#   #17 0x000000000056a494 in PyObject_Call ()
#   #18 0x000000000052f9c1 in _PyEval_EvalFrameDefault ()
#   #19 0x00000000005236bb in PyEval_EvalCode ()
import opscope as torch
r = torch.device(**{'\ud800': 1})
