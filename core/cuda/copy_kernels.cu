// CUDA kernels of the copy family: strided copy with dtype conversion, and fill.
//
// One kernel serves every (dst, src) dtype pair: the element is read as int64 (integral and bool
// sources into an integral or bool destination, exact) or as double (anything involving a
// floating type), then written in the destination's type. The dtype switch is the same for every
// thread of a launch, so it costs no divergence. Dense operands skip the per-element div / mod of
// the strided offsets, dense casts between two floating types have a kernel per pair, and dense
// fills store 16 bytes at a time. On the H200 (2026-11-27, tools/device-check.sh, torch 2.11 in
// the same process), 256 MiB: fill_ 1.19 -> 3.68 TB/s (torch 3.81), float32 -> float16
// 0.85 -> 3.62 TB/s (torch 3.69).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "core/cuda/CUDAFunctions.h"
#include "core/cuda/copy_kernels.h"

namespace opscope::cuda {

namespace {
// ScalarType's order (core/runtime/ScalarType.h).
enum Dt { kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64 };

__host__ __device__ constexpr bool is_floating(int t) { return t >= kFloat16; }

__device__ __forceinline__ double load_double(const char* p, int t) {
  switch (t) {
    case kBool: return *reinterpret_cast<const bool*>(p) ? 1.0 : 0.0;
    case kUInt8: return *reinterpret_cast<const uint8_t*>(p);
    case kInt8: return *reinterpret_cast<const int8_t*>(p);
    case kInt16: return *reinterpret_cast<const int16_t*>(p);
    case kInt32: return *reinterpret_cast<const int32_t*>(p);
    case kInt64: return static_cast<double>(*reinterpret_cast<const int64_t*>(p));
    case kFloat16: return __half2float(*reinterpret_cast<const __half*>(p));
    case kBFloat16: return __bfloat162float(*reinterpret_cast<const __nv_bfloat16*>(p));
    case kFloat32: return *reinterpret_cast<const float*>(p);
    default: return *reinterpret_cast<const double*>(p);
  }
}

__device__ __forceinline__ int64_t load_int(const char* p, int t) {
  switch (t) {
    case kBool: return *reinterpret_cast<const bool*>(p) ? 1 : 0;
    case kUInt8: return *reinterpret_cast<const uint8_t*>(p);
    case kInt8: return *reinterpret_cast<const int8_t*>(p);
    case kInt16: return *reinterpret_cast<const int16_t*>(p);
    case kInt32: return *reinterpret_cast<const int32_t*>(p);
    default: return *reinterpret_cast<const int64_t*>(p);
  }
}

__device__ __forceinline__ void store_double(char* p, int t, double v) {
  switch (t) {
    case kBool: *reinterpret_cast<bool*>(p) = v != 0.0; break;
    // Floating to integral converts through int64 as C++'s static_cast chain in torch does.
    case kUInt8: *reinterpret_cast<uint8_t*>(p) = static_cast<uint8_t>(static_cast<int64_t>(v)); break;
    case kInt8: *reinterpret_cast<int8_t*>(p) = static_cast<int8_t>(static_cast<int64_t>(v)); break;
    case kInt16: *reinterpret_cast<int16_t*>(p) = static_cast<int16_t>(static_cast<int64_t>(v)); break;
    case kInt32: *reinterpret_cast<int32_t*>(p) = static_cast<int32_t>(static_cast<int64_t>(v)); break;
    case kInt64: *reinterpret_cast<int64_t*>(p) = static_cast<int64_t>(v); break;
    case kFloat16: *reinterpret_cast<__half*>(p) = __float2half_rn(static_cast<float>(v)); break;
    case kBFloat16:
      *reinterpret_cast<__nv_bfloat16*>(p) = __float2bfloat16_rn(static_cast<float>(v));
      break;
    case kFloat32: *reinterpret_cast<float*>(p) = static_cast<float>(v); break;
    default: *reinterpret_cast<double*>(p) = v;
  }
}

__device__ __forceinline__ void store_int(char* p, int t, int64_t v) {
  switch (t) {
    case kBool: *reinterpret_cast<bool*>(p) = v != 0; break;
    case kUInt8: *reinterpret_cast<uint8_t*>(p) = static_cast<uint8_t>(v); break;
    case kInt8: *reinterpret_cast<int8_t*>(p) = static_cast<int8_t>(v); break;
    case kInt16: *reinterpret_cast<int16_t*>(p) = static_cast<int16_t>(v); break;
    case kInt32: *reinterpret_cast<int32_t*>(p) = static_cast<int32_t>(v); break;
    default: *reinterpret_cast<int64_t*>(p) = v;
  }
}

__host__ __device__ constexpr int size_of(int t) {
  return t <= kUInt8 || t == kInt8 ? 1 : t == kInt16 || t == kFloat16 || t == kBFloat16 ? 2
                                     : t == kInt32 || t == kFloat32                     ? 4
                                                                                        : 8;
}

// A dense geometry (every operand contiguous, or one element) indexes by i itself: the div / mod
// of Geometry::offsets per element made the plain fills and casts 3-4x slower than torch's.
template <int N>
bool is_dense(const Geometry<N>& g) {
  if (g.ndim == 0) return true;
  if (g.ndim > 1) return false;
  for (int k = 0; k < N; ++k)
    if (g.strides[k][0] != 1) return false;
  return true;
}

__global__ void copy_kernel(char* dst, int dst_dtype, const char* src, int src_dtype,
                            int64_t numel, Geometry<2> g, bool dense) {
  const int dsz = size_of(dst_dtype), ssz = size_of(src_dtype);
  const bool via_double = is_floating(dst_dtype) || is_floating(src_dtype);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < numel;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2] = {i, i};
    if (!dense) g.offsets(i, off);
    char* d = dst + off[0] * dsz;
    const char* s = src + off[1] * ssz;
    if (dst_dtype == src_dtype) {
      switch (dsz) {
        case 1: *d = *s; break;
        case 2: *reinterpret_cast<uint16_t*>(d) = *reinterpret_cast<const uint16_t*>(s); break;
        case 4: *reinterpret_cast<uint32_t*>(d) = *reinterpret_cast<const uint32_t*>(s); break;
        default: *reinterpret_cast<uint64_t*>(d) = *reinterpret_cast<const uint64_t*>(s);
      }
    } else if (via_double) {
      store_double(d, dst_dtype, load_double(s, src_dtype));
    } else {
      store_int(d, dst_dtype, load_int(s, src_dtype));
    }
  }
}

// Conversions between the floating types, as store_double(load_double(...)) computes them, but
// through float when neither side is double (the same values: float -> double -> float is exact).
template <typename M> __device__ __forceinline__ M widen(__half v) { return __half2float(v); }
template <typename M> __device__ __forceinline__ M widen(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <typename M> __device__ __forceinline__ M widen(float v) { return v; }
template <typename M> __device__ __forceinline__ M widen(double v) { return static_cast<M>(v); }

template <typename D, typename M>
__device__ __forceinline__ D narrow(M v) {
  if constexpr (std::is_same_v<D, __half>) {
    return __float2half_rn(static_cast<float>(v));
  } else if constexpr (std::is_same_v<D, __nv_bfloat16>) {
    return __float2bfloat16_rn(static_cast<float>(v));
  } else {
    return static_cast<D>(v);
  }
}

// dst[i] = src[i] converted, both dense: kUnroll elements per thread and trip, all loaded before
// any is stored (the elementwise kernels' scheme, core/cuda/kernels/Loops.cuh).
constexpr int kUnroll = 4;

template <typename D, typename S>
__global__ void cast_dense_kernel(D* dst, const S* src, int64_t numel) {
  using M = std::conditional_t<std::is_same_v<D, double> || std::is_same_v<S, double>, double,
                               float>;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t base = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; base < numel;
       base += kUnroll * step) {
    S x[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (base + u * step < numel) x[u] = src[base + u * step];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (base + u * step < numel) dst[base + u * step] = narrow<D>(widen<M>(x[u]));
  }
}

// Calls f.template operator()<T>() with T the device type of a floating dtype; false for others.
template <typename F>
bool with_floating_type(int dtype, F&& f) {
  switch (dtype) {
    case kFloat16: f.template operator()<__half>(); return true;
    case kBFloat16: f.template operator()<__nv_bfloat16>(); return true;
    case kFloat32: f.template operator()<float>(); return true;
    case kFloat64: f.template operator()<double>(); return true;
    default: return false;
  }
}

// Enough blocks to cover numel once, capped (the loops stride over the rest).
dim3 grid_for(int64_t numel, int threads) {
  int64_t blocks = (numel + threads - 1) / threads;
  return dim3(static_cast<unsigned>(blocks < 65535 * 8 ? blocks : 65535 * 8));
}

template <typename W>
__global__ void fill_kernel(W* dst, W value, int64_t numel, Geometry<1> g) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < numel;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off;
    g.offsets(i, &off);
    dst[off] = value;
  }
}

// dst[0, numel) all `value`, dst dense: 16-byte stores over the aligned middle (`head` elements
// before its first 16-byte boundary, `nvec` vectors), single elements for the ends.
template <typename W>
__global__ void fill_dense_kernel(W* dst, W value, int64_t numel, int64_t head, int64_t nvec) {
  constexpr int kPer = 16 / sizeof(W);
  union {
    W w[kPer];
    uint4 v;
  } pattern;
#pragma unroll
  for (int k = 0; k < kPer; ++k) pattern.w[k] = value;
  uint4* body = reinterpret_cast<uint4*>(dst + head);
  const int64_t first = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  for (int64_t i = first; i < nvec; i += int64_t(gridDim.x) * blockDim.x) body[i] = pattern.v;
  const int64_t tail = head + nvec * kPer;
  if (first < head) dst[first] = value;
  if (first < numel - tail) dst[tail + first] = value;
}

template <typename W>
void launch_fill_as(void* dst, uint64_t bits, int64_t numel, const Geometry<1>& geometry,
                    cudaStream_t stream) {
  constexpr int kThreads = 256;
  W* d = static_cast<W*>(dst);
  const W value = static_cast<W>(bits);
  if (!is_dense(geometry)) {
    fill_kernel<<<grid_for(numel, kThreads), kThreads, 0, stream>>>(d, value, numel, geometry);
    return;
  }
  constexpr int64_t kPer = 16 / sizeof(W);
  const auto address = reinterpret_cast<uintptr_t>(dst);
  int64_t head = static_cast<int64_t>((16 - address % 16) % 16) / int64_t(sizeof(W));
  if (head > numel) head = numel;
  const int64_t nvec = (numel - head) / kPer;
  fill_dense_kernel<<<grid_for(nvec > 0 ? nvec : 1, kThreads), kThreads, 0, stream>>>(
      d, value, numel, head, nvec);
}

}  // namespace

void launch_copy(void* dst, int dst_dtype, const void* src, int src_dtype, int64_t numel,
                 const Geometry<2>& geometry, cudaStream_t stream) {
  if (numel == 0) return;
  constexpr int kThreads = 256;
  const bool dense = is_dense(geometry);
  // Dense casts between floating types (model.half(), x.float(), autocast's copies): a kernel per
  // pair. The rest: the one kernel over every pair.
  if (dense && dst_dtype != src_dtype && is_floating(dst_dtype) && is_floating(src_dtype)) {
    with_floating_type(dst_dtype, [&]<typename D>() {
      with_floating_type(src_dtype, [&]<typename S>() {
        cast_dense_kernel<<<grid_for((numel + kUnroll - 1) / kUnroll, kThreads), kThreads, 0,
                            stream>>>(static_cast<D*>(dst), static_cast<const S*>(src), numel);
      });
    });
  } else {
    copy_kernel<<<grid_for(numel, kThreads), kThreads, 0, stream>>>(
        static_cast<char*>(dst), dst_dtype, static_cast<const char*>(src), src_dtype, numel,
        geometry, dense);
  }
  OPSCOPE_CUDA_CHECK(cudaGetLastError());
}

void launch_fill(void* dst, int element_size, uint64_t value, int64_t numel,
                 const Geometry<1>& geometry, cudaStream_t stream) {
  if (numel == 0) return;
  switch (element_size) {
    case 1: launch_fill_as<uint8_t>(dst, value, numel, geometry, stream); break;
    case 2: launch_fill_as<uint16_t>(dst, value, numel, geometry, stream); break;
    case 4: launch_fill_as<uint32_t>(dst, value, numel, geometry, stream); break;
    default: launch_fill_as<uint64_t>(dst, value, numel, geometry, stream);
  }
  OPSCOPE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace opscope::cuda
