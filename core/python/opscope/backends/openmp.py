"""``opscope.backends.openmp``: opscope's CPU kernels run their threads on OpenMP (see
opscope.get_num_threads), as torch's do."""


def is_available():
    """True: opscope is built with OpenMP."""
    return True
