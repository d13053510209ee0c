"""``opscope.backends.cuda``: torch.backends.cuda's switches. is_built() says whether the CUDA
backend is compiled in; ``matmul.allow_tf32`` is the float32 matmul precision seen as a bool, as in
torch: True once set_float32_matmul_precision('high') or ('medium'), and setting it sets that
precision."""

import opscope.backends as _backends
from opscope.backends import _check_bool


def is_built():
    """Whether this opscope was built with its CUDA backend (OPSCOPE_CUDA=ON)."""
    from opscope import _C
    return hasattr(_C, "_cuda_getDeviceCount")


class cuBLASModule:
    """torch.backends.cuda.matmul: allow_tf32 and allow_fp16_reduced_precision_reduction."""

    _fp16_reduction = True

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _backends._matmul_precision != "highest"
        if name == "allow_fp16_reduced_precision_reduction":
            return cuBLASModule._fp16_reduction
        raise AssertionError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _check_bool(value, "set_allow_tf32_cublas")
            _backends._matmul_precision = "high" if value else "highest"
            _backends._tell_cublas()
        elif name == "allow_fp16_reduced_precision_reduction":
            cuBLASModule._fp16_reduction = _check_bool(value, "set_allow_fp16_reduction_cublas")
        else:
            raise AssertionError(f"Unknown attribute {name}")


matmul = cuBLASModule()
