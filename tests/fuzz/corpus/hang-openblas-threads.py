# opscope fuzz corpus: a case that once ended in hang (no answer within 10 s).
# Replayed by tests/fuzz/test_fuzz.py (in the fuzz worker, which runs under RLIMIT_AS): it must
# end in a result or a Python exception. It hangs only under an address-space limit; alone:
#   (ulimit -v 1300000; /usr/bin/python3 tests/fuzz/corpus/hang-openblas-threads.py)
# kind: hang
# target: torch.set_num_threads
# found by case 1:34184 (seed:index); reproduced after 256 earlier cases, one of them a matmul;
# minimized by hand. Spins in OpenBLAS's blas_memory_alloc (openblas_set_num_threads).
import opscope as torch
a = torch.ones(64, 64)
(a @ a).sum()
torch.set_num_threads(2**31 - 1)
