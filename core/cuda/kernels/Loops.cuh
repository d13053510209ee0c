// Device-side elementwise loops: write f for one element, get the kernel over a TensorIterator's
// operands (ElementwiseArgs, core/cuda/kernels/Launch.h) — ATen's gpu_kernel, in small.
//
// Semantically gpu_elementwise<R, A...>(args, f, stream) runs out = f(in0, in1, ...) for every
// element; R and A... are the device element types of the operands (float, __half, int64_t,
// bool, ...), which the launcher picked from args.dtypes.
//
// In implementation terms a 1-D grid-stride loop over the flat iteration index (64-bit), each
// thread turning its index into per-operand byte offsets by div/mod over the iteration sizes
// (dim 0 fastest), the OffsetCalculator of ATen; contiguous iterations skip that and index by
// element. Inputs in scalar_mask are loaded once from the kernel's arguments (CPU scalars).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/cuda/kernels/Launch.h"

namespace opscope::cuda {

using half = __half;
using bf16 = __nv_bfloat16;

// The type arithmetic on T happens in: float for the 16-bit floats, T otherwise.
template <typename T> struct AccT { using type = T; };
template <> struct AccT<half> { using type = float; };
template <> struct AccT<bf16> { using type = float; };
template <typename T> using acc_t = typename AccT<T>::type;

template <typename T> struct IsFloat : std::is_floating_point<T> {};
template <> struct IsFloat<half> : std::true_type {};
template <> struct IsFloat<bf16> : std::true_type {};

// Value conversions as opscope's convert(): to bool is != 0, 16-bit floats through float.
template <typename To, typename From>
__host__ __device__ __forceinline__ To cvt(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, half>) {
    return cvt<To>(__half2float(v));
  } else if constexpr (std::is_same_v<From, bf16>) {
    return cvt<To>(__bfloat162float(v));
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_same_v<To, half>) {
    return __float2half_rn(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, bf16>) {
    return __float2bfloat16_rn(static_cast<float>(v));
  } else {
    return static_cast<To>(v);
  }
}

constexpr int kBlock = 256;

// Blocks for n elements in a grid-stride loop: enough to fill the GPU, at most 2^20 (so that an
// index never overflows the grid).
inline unsigned grid_for(int64_t n, int block = kBlock) {
  int64_t blocks = (n + block - 1) / block;
  if (blocks < 1) blocks = 1;
  if (blocks > (1 << 20)) blocks = 1 << 20;
  return static_cast<unsigned>(blocks);
}

inline cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }

// Byte offset of operand k at flat iteration index i.
__device__ __forceinline__ void compute_offsets(const ElementwiseArgs& a, int64_t i,
                                                int64_t* off) {
  for (int k = 0; k < a.ntensors; ++k) off[k] = 0;
  for (int d = 0; d < a.ndim; ++d) {
    int64_t size = a.sizes[d];
    int64_t q = i / size;
    int64_t r = i - q * size;
    for (int k = 0; k < a.ntensors; ++k) off[k] += r * a.strides[k][d];
    i = q;
  }
}

template <typename T>
__device__ __forceinline__ T load_operand(const ElementwiseArgs& a, int k, const int64_t* off,
                                          int64_t i) {
  if ((a.scalar_mask >> k) & 1u) return *reinterpret_cast<const T*>(a.scalars[k]);
  if (a.contiguous) return reinterpret_cast<const T*>(a.data[k])[i];
  return *reinterpret_cast<const T*>(a.data[k] + off[k]);
}

template <typename R>
__device__ __forceinline__ void store_out(const ElementwiseArgs& a, const int64_t* off, int64_t i,
                                          R v) {
  if (a.contiguous) {
    reinterpret_cast<R*>(a.data[0])[i] = v;
  } else {
    *reinterpret_cast<R*>(a.data[0] + off[0]) = v;
  }
}

// Contiguous iterations take kUnroll elements per thread and loop trip, loaded before any is
// computed (memory-level parallelism: the streaming kernels are bandwidth-bound); the element
// index still steps by the whole grid, so the accesses of a warp stay coalesced.
constexpr int kUnroll = 4;

__device__ __forceinline__ int64_t first_index() {
  return blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
}
__device__ __forceinline__ int64_t grid_step() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

template <typename R, typename F>
__global__ void elementwise0(ElementwiseArgs a, F f) {
  int64_t off[kMaxArgs];
  for (int64_t i = first_index(); i < a.numel; i += grid_step()) {
    if (!a.contiguous) compute_offsets(a, i, off);
    store_out<R>(a, off, i, f());
  }
}

template <typename R, typename A0, typename F>
__global__ void elementwise1(ElementwiseArgs a, F f) {
  int64_t off[kMaxArgs];
  const int64_t step = grid_step();
  if (a.contiguous) {
    for (int64_t base = first_index(); base < a.numel; base += kUnroll * step) {
      A0 x0[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (base + u * step < a.numel) x0[u] = load_operand<A0>(a, 1, off, base + u * step);
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (base + u * step < a.numel) store_out<R>(a, off, base + u * step, f(x0[u]));
    }
    return;
  }
  for (int64_t i = first_index(); i < a.numel; i += step) {
    compute_offsets(a, i, off);
    store_out<R>(a, off, i, f(load_operand<A0>(a, 1, off, i)));
  }
}

template <typename R, typename A0, typename A1, typename F>
__global__ void elementwise2(ElementwiseArgs a, F f) {
  int64_t off[kMaxArgs];
  const int64_t step = grid_step();
  if (a.contiguous) {
    for (int64_t base = first_index(); base < a.numel; base += kUnroll * step) {
      A0 x0[kUnroll];
      A1 x1[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (base + u * step < a.numel) {
          x0[u] = load_operand<A0>(a, 1, off, base + u * step);
          x1[u] = load_operand<A1>(a, 2, off, base + u * step);
        }
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (base + u * step < a.numel) store_out<R>(a, off, base + u * step, f(x0[u], x1[u]));
    }
    return;
  }
  for (int64_t i = first_index(); i < a.numel; i += step) {
    compute_offsets(a, i, off);
    store_out<R>(a, off, i, f(load_operand<A0>(a, 1, off, i), load_operand<A1>(a, 2, off, i)));
  }
}

template <typename R, typename A0, typename A1, typename A2, typename F>
__global__ void elementwise3(ElementwiseArgs a, F f) {
  int64_t off[kMaxArgs];
  const int64_t step = grid_step();
  if (a.contiguous) {
    for (int64_t base = first_index(); base < a.numel; base += kUnroll * step) {
      A0 x0[kUnroll];
      A1 x1[kUnroll];
      A2 x2[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (base + u * step < a.numel) {
          x0[u] = load_operand<A0>(a, 1, off, base + u * step);
          x1[u] = load_operand<A1>(a, 2, off, base + u * step);
          x2[u] = load_operand<A2>(a, 3, off, base + u * step);
        }
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        if (base + u * step < a.numel)
          store_out<R>(a, off, base + u * step, f(x0[u], x1[u], x2[u]));
    }
    return;
  }
  for (int64_t i = first_index(); i < a.numel; i += step) {
    compute_offsets(a, i, off);
    store_out<R>(a, off, i,
                 f(load_operand<A0>(a, 1, off, i), load_operand<A1>(a, 2, off, i),
                   load_operand<A2>(a, 3, off, i)));
  }
}

// Launches out = f(inputs...) with the element types R, A...; checks the launch.
template <typename R, typename... A, typename F>
void gpu_elementwise(const ElementwiseArgs& a, F f, void* stream, const char* what) {
  if (a.numel == 0) return;
  // Contiguous kernels cover kUnroll elements per thread.
  unsigned grid = grid_for(a.contiguous && sizeof...(A) > 0 ? (a.numel + kUnroll - 1) / kUnroll
                                                            : a.numel);
  if constexpr (sizeof...(A) == 0) {
    elementwise0<R><<<grid, kBlock, 0, as_stream(stream)>>>(a, f);
  } else if constexpr (sizeof...(A) == 1) {
    elementwise1<R, A...><<<grid, kBlock, 0, as_stream(stream)>>>(a, f);
  } else if constexpr (sizeof...(A) == 2) {
    elementwise2<R, A...><<<grid, kBlock, 0, as_stream(stream)>>>(a, f);
  } else {
    static_assert(sizeof...(A) == 3, "gpu_elementwise: at most three inputs");
    elementwise3<R, A...><<<grid, kBlock, 0, as_stream(stream)>>>(a, f);
  }
  check_launch(what);
}

// Calls fn.template operator()<T>() with T the device type of dt, for the dtypes `Filter` takes;
// others are refused (the host side checked them first, this is the backstop).
template <typename F>
void dispatch_dt(DT dt, const char* what, F&& fn) {
  switch (dt) {
    case DT::Bool: return fn.template operator()<bool>();
    case DT::UInt8: return fn.template operator()<uint8_t>();
    case DT::Int8: return fn.template operator()<int8_t>();
    case DT::Int16: return fn.template operator()<int16_t>();
    case DT::Int32: return fn.template operator()<int32_t>();
    case DT::Int64: return fn.template operator()<int64_t>();
    case DT::Half: return fn.template operator()<half>();
    case DT::BFloat16: return fn.template operator()<bf16>();
    case DT::Float: return fn.template operator()<float>();
    case DT::Double: return fn.template operator()<double>();
  }
  throw_cuda_error(what, "unknown dtype");
}

// Only the floating dtypes (float, double, half, bfloat16).
template <typename F>
void dispatch_float(DT dt, const char* what, F&& fn) {
  switch (dt) {
    case DT::Half: return fn.template operator()<half>();
    case DT::BFloat16: return fn.template operator()<bf16>();
    case DT::Float: return fn.template operator()<float>();
    case DT::Double: return fn.template operator()<double>();
    default: throw_cuda_error(what, "not implemented for this dtype (floating dtypes only)");
  }
}

// Floating dtypes and the integers torch's CUDA kernels take (no bool).
template <typename F>
void dispatch_numeric(DT dt, const char* what, F&& fn) {
  switch (dt) {
    case DT::UInt8: return fn.template operator()<uint8_t>();
    case DT::Int8: return fn.template operator()<int8_t>();
    case DT::Int16: return fn.template operator()<int16_t>();
    case DT::Int32: return fn.template operator()<int32_t>();
    case DT::Int64: return fn.template operator()<int64_t>();
    case DT::Half: return fn.template operator()<half>();
    case DT::BFloat16: return fn.template operator()<bf16>();
    case DT::Float: return fn.template operator()<float>();
    case DT::Double: return fn.template operator()<double>();
    default: throw_cuda_error(what, "not implemented for 'Bool'");
  }
}

}  // namespace opscope::cuda
