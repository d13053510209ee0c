// The cuBLAS side of the CUDA backend that other files reach: the float32 matmul precision switch
// (torch.backends.cuda.matmul.allow_tf32, off by default as in torch >= 1.12).
#pragma once

namespace opscope::cuda {

// Whether float32 products may use TF32 tensor cores (cuBLAS's CUBLAS_TF32_TENSOR_OP_MATH).
bool allow_tf32();
void set_allow_tf32(bool allow);

}  // namespace opscope::cuda
