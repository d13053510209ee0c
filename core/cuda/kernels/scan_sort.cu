// CUDA kernels of cumsum / cumprod and of sorting (sort, argsort, topk; host side in
// scan_sort.cpp).
//
// Scans: along contiguous rows (inner == 1) one block per row walks the row in tiles of
// blockDim.x elements, each tile scanned in shared memory (Hillis-Steele) and offset by the
// running value of the tiles before it; otherwise one thread per (outer, inner) column walks its
// column (neighbouring threads read neighbouring columns: coalesced).
//
// Sort: each element becomes a 64-bit key whose unsigned order is the requested one (floats by
// their bits, sign-folded; NaN above every number; -0.0 as +0.0; descending by inverting the key
// in its width), paired with its position in the row. Rows are padded to a power of two with
// pairs above every real one and sorted by a bitonic network in global memory, one launch per
// stage (log2(P) (log2(P) + 1) / 2 launches for padded length P): simple, any length, and the
// (key, position) order is total, so the result is the stable sort's.
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/cuda/kernels/Reduce.cuh"

namespace opscope::cuda {

namespace {

// --- scans ---------------------------------------------------------------------------------

template <bool IsSum, typename A>
__device__ __forceinline__ A scan_op(A a, A b) {
  if constexpr (IsSum) {
    return a + b;
  } else {
    return a * b;
  }
}

template <bool IsSum, typename T, typename A>
__global__ void scan_rows_kernel(const T* in, T* out, int64_t rows, int64_t len) {
  A* sh = shared_mem<A>();
  const A identity = IsSum ? A(0) : A(1);
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* x = in + r * len;
    T* y = out + r * len;
    A carry = identity;
    for (int64_t base = 0; base < len; base += blockDim.x) {
      const int64_t i = base + threadIdx.x;
      A v = i < len ? cvt<A>(x[i]) : identity;
      sh[threadIdx.x] = v;
      __syncthreads();
      for (unsigned off = 1; off < blockDim.x; off <<= 1) {
        const A before = threadIdx.x >= off ? sh[threadIdx.x - off] : identity;
        __syncthreads();
        v = scan_op<IsSum>(before, v);
        sh[threadIdx.x] = v;
        __syncthreads();
      }
      if (i < len) y[i] = cvt<T>(scan_op<IsSum>(carry, v));
      const A tile = sh[blockDim.x - 1];
      __syncthreads();  // every thread has read the tile's total before the next tile's writes
      carry = scan_op<IsSum>(carry, tile);
    }
  }
}

template <bool IsSum, typename T, typename A>
__global__ void scan_cols_kernel(const T* in, T* out, int64_t outer, int64_t len,
                                 int64_t inner) {
  const int64_t total = outer * inner;
  for (int64_t c = first_index(); c < total; c += grid_step()) {
    const int64_t o = c / inner, i = c - o * inner;
    const T* x = in + o * len * inner + i;
    T* y = out + o * len * inner + i;
    A acc = IsSum ? A(0) : A(1);
    for (int64_t r = 0; r < len; ++r) {
      acc = scan_op<IsSum>(acc, cvt<A>(x[r * inner]));
      y[r * inner] = cvt<T>(acc);
    }
  }
}

// The accumulation type of a scan: as the CPU kernel (core/ops/cpu/scan.cpp), double for float.
template <typename T> struct ScanAcc { using type = acc_t<T>; };
template <> struct ScanAcc<float> { using type = double; };

template <bool IsSum, typename T>
void scan_launch(const void* in, void* out, int64_t outer, int64_t len, int64_t inner,
                 void* stream) {
  using A = typename ScanAcc<T>::type;
  if (inner == 1) {
    const RowLaunch l = row_launch(outer, len);
    scan_rows_kernel<IsSum, T, A><<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(out), outer, len);
  } else {
    scan_cols_kernel<IsSum, T, A><<<grid_for(outer * inner), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(in), static_cast<T*>(out), outer, len, inner);
  }
}

// --- sort ------------------------------------------------------------------------------------

constexpr uint64_t kPadKey = ~uint64_t(0);

// The key of v whose unsigned order is ascending order with NaN last (descending: inverted in
// the key's width, so NaN comes first, as torch's descending comparator).
template <typename T>
__device__ __forceinline__ uint64_t sort_key(T v, bool descending) {
  if constexpr (std::is_same_v<T, double>) {
    uint64_t u;
    if (v != v) {
      u = ~uint64_t(0);
    } else {
      if (v == 0) v = 0.0;  // -0.0 == +0.0
      u = static_cast<uint64_t>(__double_as_longlong(v));
      u = (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
    }
    return descending ? ~u : u;
  } else if constexpr (IsFloat<T>::value) {  // float, half, bfloat16: by their float value
    float f = cvt<float>(v);
    uint32_t u;
    if (f != f) {
      u = ~uint32_t(0);
    } else {
      if (f == 0) f = 0.0f;
      u = static_cast<uint32_t>(__float_as_int(f));
      u = (u >> 31) ? ~u : (u | (uint32_t(1) << 31));
    }
    return descending ? ~u : u;
  } else if constexpr (std::is_same_v<T, bool>) {
    uint64_t u = v ? 1 : 0;
    return descending ? 1 - u : u;
  } else if constexpr (std::is_signed_v<T>) {
    uint64_t u = static_cast<uint64_t>(static_cast<int64_t>(v)) ^ (uint64_t(1) << 63);
    return descending ? ~u : u;
  } else {  // uint8
    uint64_t u = static_cast<uint64_t>(v);
    return descending ? 255 - u : u;
  }
}

template <typename T>
__global__ void sort_init_kernel(const T* in, uint64_t* key, int64_t* pos, int64_t rows,
                                 int64_t n, int64_t P, bool descending) {
  const int64_t total = rows * P;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t r = e / P, j = e - r * P;
    if (j < n) {
      key[e] = sort_key(in[r * n + j], descending);
    } else {
      key[e] = kPadKey;
    }
    pos[e] = j;  // pads sit at positions >= n: after every real pair of equal key
  }
}

// One stage of the bitonic network: pairs (i, i + j) with bit j of i clear, ascending where bit
// k of i is clear.
__global__ void bitonic_step_kernel(uint64_t* key, int64_t* pos, int64_t rows, int64_t P,
                                    int64_t k, int64_t j) {
  const int64_t half_p = P / 2, total = rows * half_p;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t r = e / half_p, t = e - r * half_p;
    const int64_t i = (t / j) * 2 * j + (t % j), l = i + j;
    const int64_t a = r * P + i, b = r * P + l;
    const uint64_t ka = key[a], kb = key[b];
    const int64_t pa = pos[a], pb = pos[b];
    const bool a_greater = ka > kb || (ka == kb && pa > pb);
    const bool ascending = (i & k) == 0;
    if (a_greater == ascending) {
      key[a] = kb;
      key[b] = ka;
      pos[a] = pb;
      pos[b] = pa;
    }
  }
}

template <typename T>
__global__ void sort_gather_kernel(const T* in, const int64_t* pos, T* values, int64_t* indices,
                                   int64_t rows, int64_t n, int64_t P) {
  const int64_t total = rows * n;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t r = e / n, j = e - r * n;
    const int64_t p = pos[r * P + j];
    values[e] = in[r * n + p];
    indices[e] = p;
  }
}

}  // namespace

void launch_scan(bool is_sum, DT dt, const void* in, void* out, int64_t outer, int64_t len,
                 int64_t inner, void* stream) {
  if (outer * len * inner == 0) return;
  auto go = [&]<typename T>() {
    if (is_sum)
      scan_launch<true, T>(in, out, outer, len, inner, stream);
    else
      scan_launch<false, T>(in, out, outer, len, inner, stream);
  };
  switch (dt) {
    case DT::Int64: go.template operator()<int64_t>(); break;
    case DT::Half: go.template operator()<half>(); break;
    case DT::BFloat16: go.template operator()<bf16>(); break;
    case DT::Float: go.template operator()<float>(); break;
    case DT::Double: go.template operator()<double>(); break;
    default: throw_cuda_error("scan_cuda", "expected int64 or a floating dtype");
  }
  check_launch(is_sum ? "cumsum_cuda" : "cumprod_cuda");
}

int64_t sort_padded_len(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

void launch_sort_rows(DT dt, const void* in, void* values, int64_t* indices, int64_t rows,
                      int64_t n, bool descending, void* key_scratch, int64_t* pos_scratch,
                      void* stream) {
  if (rows * n == 0) return;
  const int64_t P = sort_padded_len(n);
  auto* key = static_cast<uint64_t*>(key_scratch);
  dispatch_dt(dt, "sort_cuda", [&]<typename T>() {
    sort_init_kernel<T><<<grid_for(rows * P), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(in), key, pos_scratch, rows, n, P, descending);
    check_launch("sort_cuda");
    for (int64_t k = 2; k <= P; k *= 2) {
      for (int64_t j = k / 2; j >= 1; j /= 2) {
        bitonic_step_kernel<<<grid_for(rows * (P / 2)), kBlock, 0, as_stream(stream)>>>(
            key, pos_scratch, rows, P, k, j);
      }
    }
    check_launch("sort_cuda");
    sort_gather_kernel<T><<<grid_for(rows * n), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(in), pos_scratch, static_cast<T*>(values), indices, rows, n, P);
  });
  check_launch("sort_cuda");
}

}  // namespace opscope::cuda
