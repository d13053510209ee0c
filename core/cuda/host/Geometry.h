// Geometry of an elementwise CUDA kernel over up to kMaxDims dims: what a thread needs to find
// its elements, passed to the kernel by value.
//
// Semantically element i (row-major over `sizes`) of operand k lives at
//   offset_k(i) = sum_d index_d(i) * strides[k][d]      (in elements)
// where index_d(i) are i's digits in the mixed radix `sizes`. Before a launch the dims are
// coalesced: two neighbouring dims d-1, d merge when every operand has
//   strides[k][d-1] == strides[k][d] * sizes[d]
// (then they address memory as one dim of sizes[d-1] * sizes[d]), and dims of size 1 drop out, so
// contiguous operands become one dim and a kernel's digit loop runs once. Pure C++: the kernels
// (.cu) include it, and tests/cpp/test_cuda_allocator.cpp checks it without a GPU.
#pragma once

#include <cstdint>

#include "core/runtime/Exception.h"
#include "core/runtime/SmallVector.h"

namespace opscope::cuda {

constexpr int kMaxDims = 16;

template <int N>  // N operands
struct Geometry {
  int ndim = 0;
  int64_t sizes[kMaxDims];
  int64_t strides[N][kMaxDims];

  // dims are innermost last (row-major), as tensors list them.
  static Geometry make(const int64_t* sz, const int64_t* const* st, int nd) {
    Geometry g;
    for (int d = 0; d < nd; ++d) {
      if (sz[d] == 1) continue;  // contributes nothing to any offset
      if (g.ndim > 0) {
        bool mergeable = true;
        for (int k = 0; k < N; ++k) mergeable &= st[k][d] * sz[d] == g.strides[k][g.ndim - 1];
        if (mergeable) {  // the previous kept dim and this one are one dim
          g.sizes[g.ndim - 1] *= sz[d];
          for (int k = 0; k < N; ++k) g.strides[k][g.ndim - 1] = st[k][d];
          continue;
        }
      }
      OPSCOPE_CHECK(g.ndim < kMaxDims, "CUDA kernels take tensors of at most ", kMaxDims,
                    " dims after coalescing");
      g.sizes[g.ndim] = sz[d];
      for (int k = 0; k < N; ++k) g.strides[k][g.ndim] = st[k][d];
      ++g.ndim;
    }
    return g;
  }

#if defined(__CUDACC__)
  __host__ __device__
#endif
  // Offsets (in elements) of element i for every operand.
  void offsets(int64_t i, int64_t* out) const {
    for (int k = 0; k < N; ++k) out[k] = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      int64_t idx = i % sizes[d];
      i /= sizes[d];
      for (int k = 0; k < N; ++k) out[k] += idx * strides[k][d];
    }
  }
};

}  // namespace opscope::cuda
