# opscope fuzz corpus: a case that once ended in crash (SIGSEGV).
# Replayed by tests/fuzz/test_fuzz.py: it must end in a result or a Python
# exception. Run alone (PYTHONPATH as make sets it):
#   /usr/bin/python3 tests/fuzz/corpus/crash-4fa7d06a9d.py
# kind: crash
# target: torch._C._add_dispatch_observer (since the one-recorder change: the trace
#         recorder's start, the observer that replaced it)
# found by case 21:2965 (seed:index); reproduced alone
# native stack when found:
#   #0  opscope::detail::ObservedCall::ObservedCall (...) (core/dispatch/Observer.h)
#   #1  opscope::Dispatcher::dispatch_boxed (...) at core/dispatch/Dispatcher.cpp:201
import opscope as torch
r = torch._C._TraceRecorder.start(None)
torch.ones(3).mul(2).sum().item()
