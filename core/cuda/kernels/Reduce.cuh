// Device helpers of the row reductions (reduce.cu, nn.cu): block-wide reduction in shared
// memory, NaN-propagating extremes, and the launch shape for "one block per row".
#pragma once

#include <cfloat>
#include <climits>
#include <type_traits>

#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

// Dynamic shared memory as an array of T (sized by the launch: blockDim.x elements).
template <typename T>
__device__ __forceinline__ T* shared_mem() {
  extern __shared__ __align__(16) unsigned char opscope_smem[];
  return reinterpret_cast<T*>(opscope_smem);
}

// The combination of a warp's 32 values, in a fixed tree order (shuffles): lane 0 holds it.
template <typename T, typename F>
__device__ __forceinline__ T warp_reduce(T v, F combine) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = combine(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// The same with every lane getting the result (a butterfly: at each step two lanes combine the
// same pair, so for a commutative combine — +, max — all lanes hold the same bits).
template <typename T, typename F>
__device__ __forceinline__ T warp_allreduce(T v, F combine) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = combine(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// The combination of every thread's v, in a fixed tree order; every thread gets the result.
// blockDim.x must be a power of two (32 or more). Numbers reduce within each warp by shuffles,
// then across the warps in warp 0; other types (argmax's value-index pairs) through a tree in
// shared memory (blockDim.x elements).
template <typename T, typename F>
__device__ __forceinline__ T block_reduce(T v, T* shared, F combine) {
  if constexpr (std::is_arithmetic_v<T>) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = warp_reduce(v, combine);
    if (warps > 1) {
      if (lane == 0) shared[warp] = v;
      __syncthreads();
      if (warp == 0) {
        // Lanes past `warps` read a stale slot; only lanes below `warps` feed lane 0's result.
        v = shared[lane < warps ? lane : 0];
        for (unsigned offset = warps / 2; offset > 0; offset >>= 1)
          v = combine(v, __shfl_down_sync(0xffffffffu, v, offset));
        // Every lane's read of shared[] above is done before lane 0 writes shared[0] below
        // (compute-sanitizer's racecheck saw the read and the write unordered).
        __syncwarp();
      }
    }
    if (threadIdx.x == 0) shared[0] = v;
    __syncthreads();
    T r = shared[0];
    __syncthreads();
    return r;
  } else {
    shared[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s)
        shared[threadIdx.x] = combine(shared[threadIdx.x], shared[threadIdx.x + s]);
      __syncthreads();
    }
    T r = shared[0];
    __syncthreads();
    return r;
  }
}

template <typename A>
__device__ __forceinline__ bool is_nan(A v) {
  if constexpr (std::is_floating_point_v<A>) return v != v;
  return false;
}
template <typename A>
__device__ __forceinline__ A abs_val(A v) {
  if constexpr (std::is_floating_point_v<A>) return fabs(v);
  return v < A(0) ? -v : v;
}
template <typename A>
__device__ __forceinline__ A nan_max(A a, A b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return a > b ? a : b;
}
template <typename A>
__device__ __forceinline__ A nan_min(A a, A b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return a < b ? a : b;
}
template <typename A>
__device__ __forceinline__ A lowest() {
  if constexpr (std::is_same_v<A, float>) return -INFINITY;
  if constexpr (std::is_same_v<A, double>) return -static_cast<double>(INFINITY);
  if constexpr (std::is_same_v<A, int64_t>) return INT64_MIN;
  return A(0);
}
template <typename A>
__device__ __forceinline__ A highest() {
  if constexpr (std::is_same_v<A, float>) return INFINITY;
  if constexpr (std::is_same_v<A, double>) return static_cast<double>(INFINITY);
  if constexpr (std::is_same_v<A, int64_t>) return INT64_MAX;
  return A(0);
}

struct RowLaunch {
  unsigned grid;
  unsigned block;
};
// One block per row (at most 2^16 blocks, striding over the rest), the smallest power of two
// >= cols between 32 and 256 threads.
inline RowLaunch row_launch(int64_t rows, int64_t cols) {
  unsigned block = 32;
  while (block < 256 && block < cols) block *= 2;
  int64_t grid = rows < 65536 ? rows : 65536;
  if (grid < 1) grid = 1;
  return {static_cast<unsigned>(grid), block};
}

}  // namespace opscope::cuda
