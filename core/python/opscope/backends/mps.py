"""``opscope.backends.mps``: Apple's Metal backend, which opscope does not have."""


def is_available():
    """False: opscope has no MPS backend."""
    return False


def is_built():
    """False: opscope is built without MPS."""
    return False
