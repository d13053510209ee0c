# opscope fuzz corpus: a case that once ended in abort (SIGABRT).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/abort-e20d3c78c2.py
# kind: abort
# target: torch.seed
# found by case 11:4461 (seed:index); reproduced alone
# native stack when found:
#   #0  __pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=6, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44
#   #1  0x00007ffff7d2ff4f in __pthread_kill_internal (signo=6, threadid=<optimized out>) at ./nptl/pthread_kill.c:78
#   #2  0x00007ffff7ce0fb2 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26
#   #3  0x00007ffff7ccb472 in __GI_abort () at ./stdlib/abort.c:79
#   #4  0x00007ffff6a9d919 in ?? () from /lib/x86_64-linux-gnu/libstdc++.so.6
#   #5  0x00007ffff6aa8e1a in ?? () from /lib/x86_64-linux-gnu/libstdc++.so.6
#   #6  0x00007ffff6aa8e85 in std::terminate() () from /lib/x86_64-linux-gnu/libstdc++.so.6
#   #7  0x00007ffff6aa90d8 in __cxa_throw () from /lib/x86_64-linux-gnu/libstdc++.so.6
#   #8  0x00007ffff783f247 in pybind11::str::operator std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > (this=this@entry=0x7fffffffdef0) at /usr/include/pybind11/pytypes.h:1527
#   #9  0x00007ffff7844973 in pybind11::cpp_function::dispatcher (self=<optimized out>, args_in=0xa69d58 <_PyRuntime+58904>, kwargs_in=0x7ffff7c3fac0) at /usr/include/pybind11/pybind11.h:1104
#   #10 0x0000000000547b96 in ?? ()
#   #11 0x000000000056a494 in PyObject_Call ()
import opscope as torch
r = torch.seed(**{'\ud800': 1})
