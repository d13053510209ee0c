"""``opscope.backends.mkl``: Intel MKL, which opscope does not use (its BLAS is OpenBLAS)."""


def is_available():
    """False: opscope is built without MKL."""
    return False
