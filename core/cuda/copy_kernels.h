// Launchers of the copy family's CUDA kernels (copy_kernels.cu), for Copy.cpp: plain data in,
// so the .cu needs no tensor headers. dtypes are ScalarType values as int.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/cuda/host/Geometry.h"

namespace opscope::cuda {

// dst[offset_0(i)] = convert(src[offset_1(i)]) for i < numel.
void launch_copy(void* dst, int dst_dtype, const void* src, int src_dtype, int64_t numel,
                 const Geometry<2>& geometry, cudaStream_t stream);
// dst[offset_0(i)] = the element whose bytes are `value` (element_size bytes, little end first).
void launch_fill(void* dst, int element_size, uint64_t value, int64_t numel,
                 const Geometry<1>& geometry, cudaStream_t stream);

}  // namespace opscope::cuda
