# opscope fuzz corpus: a case that once ended in crash (SIGSEGV).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/crash-d3581afca1.py
# kind: crash
# target: Tensor.numpy
# found by case 1:85385 (seed:index); reproduced alone
# native stack when found:
#   #0  opscope::TensorImpl::requires_grad (this=<optimized out>) at /work/main/core/tensor/TensorImpl.h:103
#   #1  0x00007fffeafcca95 in opscope::python::(anonymous namespace)::to_numpy (self_obj=..., check_grad=check_grad@entry=true) at /work/main/core/runtime/intrusive_ptr.h:59
#   #2  0x00007fffeafccb7f in operator() (self=..., __closure=<optimized out>) at /work/main/core/python/interop.cpp:489
#   #3  pybind11::detail::argument_loader<pybind11::handle>::call_impl<pybind11::object, opscope::python::init_interop(pybind11::module_&)::<lambda(pybind11::handle)>&, 0, pybind11::detail::void_type> (f=..., this=<synthetic pointer>) at /usr/include/pybind11/cast.h:1443
#   #4  pybind11::detail::argument_loader<pybind11::handle>::call<pybind11::object, pybind11::detail::void_type, opscope::python::init_interop(pybind11::module_&)::<lambda(pybind11::handle)>&> (f=..., this=<synthetic pointer>) at /usr/include/pybind11/cast.h:1412
#   #5  operator() (__closure=0x0, call=...) at /usr/include/pybind11/pybind11.h:248
#   #6  _FUN () at /usr/include/pybind11/pybind11.h:223
#   #7  0x00007fffeaf9fe81 in pybind11::cpp_function::dispatcher (self=<optimized out>, args_in=0x7ffff7c1e3b0, kwargs_in=0x0) at /usr/include/pybind11/pybind11.h:939
#   #8  0x0000000000547b96 in ?? ()
#   #9  0x0000000000517fc3 in _PyObject_MakeTpCall ()
#   #10 0x000000000052b9e0 in _PyEval_EvalFrameDefault ()
#   #11 0x00000000005236bb in PyEval_EvalCode ()
import numpy as np
import opscope as torch
r = torch.Tensor.numpy(np.float32())
