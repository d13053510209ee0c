// CUDA kernels of the copy family: strided copy with dtype conversion, and fill.
//
// One kernel serves every (dst, src) dtype pair: the element is read as int64 (integral and bool
// sources into an integral or bool destination, exact) or as double (anything involving a
// floating type), then written in the destination's type. The dtype switch is the same for every
// thread of a launch, so it costs no divergence; copies are bound by memory, not by that switch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "core/cuda/CUDAFunctions.h"
#include "core/cuda/copy_kernels.h"

namespace opscope::cuda {

namespace {
// ScalarType's order (core/runtime/ScalarType.h).
enum Dt { kBool, kUInt8, kInt8, kInt16, kInt32, kInt64, kFloat16, kBFloat16, kFloat32, kFloat64 };

__device__ __forceinline__ bool is_floating(int t) { return t >= kFloat16; }

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

__global__ void copy_kernel(char* dst, int dst_dtype, const char* src, int src_dtype,
                            int64_t numel, Geometry<2> g) {
  const int dsz = size_of(dst_dtype), ssz = size_of(src_dtype);
  const bool via_double = is_floating(dst_dtype) || is_floating(src_dtype);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < numel;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    g.offsets(i, off);
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

template <typename W>
__global__ void fill_kernel(W* dst, W value, int64_t numel, Geometry<1> g) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < numel;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off;
    g.offsets(i, &off);
    dst[off] = value;
  }
}

// Enough blocks to cover numel once, capped (the loops stride over the rest).
dim3 grid_for(int64_t numel, int threads) {
  int64_t blocks = (numel + threads - 1) / threads;
  return dim3(static_cast<unsigned>(blocks < 65535 * 8 ? blocks : 65535 * 8));
}
}  // namespace

void launch_copy(void* dst, int dst_dtype, const void* src, int src_dtype, int64_t numel,
                 const Geometry<2>& geometry, cudaStream_t stream) {
  if (numel == 0) return;
  constexpr int kThreads = 256;
  copy_kernel<<<grid_for(numel, kThreads), kThreads, 0, stream>>>(
      static_cast<char*>(dst), dst_dtype, static_cast<const char*>(src), src_dtype, numel,
      geometry);
  OPSCOPE_CUDA_CHECK(cudaGetLastError());
}

void launch_fill(void* dst, int element_size, uint64_t value, int64_t numel,
                 const Geometry<1>& geometry, cudaStream_t stream) {
  if (numel == 0) return;
  constexpr int kThreads = 256;
  dim3 grid = grid_for(numel, kThreads);
  switch (element_size) {
    case 1:
      fill_kernel<<<grid, kThreads, 0, stream>>>(static_cast<uint8_t*>(dst),
                                                 static_cast<uint8_t>(value), numel, geometry);
      break;
    case 2:
      fill_kernel<<<grid, kThreads, 0, stream>>>(static_cast<uint16_t*>(dst),
                                                 static_cast<uint16_t>(value), numel, geometry);
      break;
    case 4:
      fill_kernel<<<grid, kThreads, 0, stream>>>(static_cast<uint32_t*>(dst),
                                                 static_cast<uint32_t>(value), numel, geometry);
      break;
    default:
      fill_kernel<<<grid, kThreads, 0, stream>>>(static_cast<uint64_t*>(dst), value, numel,
                                                 geometry);
  }
  OPSCOPE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace opscope::cuda
