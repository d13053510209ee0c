"""Build and run-time configuration, as torch.__config__: which BLAS opscope runs and its threads.

>>> import opscope.__config__
>>> "kernels:" in opscope.__config__.show()
True
"""
from opscope import _C


def show():
    """The BLAS opscope loaded (loading it if nothing has yet): file, kernel family, why, threads."""
    return _C._blas_info()["text"]


def parallel_info():
    """Threads of opscope's CPU kernels (OpenMP) and of its OpenBLAS products."""
    info = _C._blas_info()
    return (f"opscope.get_num_threads() : {_C.get_num_threads()}\n"
            f"OpenBLAS threads : {info['num_threads']} ({info['threading']})\n")
