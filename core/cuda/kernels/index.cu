// CUDA kernels of the indexing family: index_select, index_add_, gather, scatter (assign / add),
// advanced indexing (index, index_put_ with and without accumulate), masked_fill_. Every kernel
// walks one tensor's elements (the output, or the source of a scatter) by a 64-bit
// grid-stride loop, turns the flat index into coordinates, and reads the index tensor there; an
// index out of range sets *bad (the host reads it and raises torch's message) and is skipped.
#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

namespace {

__device__ __forceinline__ int64_t load_index(const char* p, bool int32) {
  return int32 ? static_cast<int64_t>(*reinterpret_cast<const int32_t*>(p))
               : *reinterpret_cast<const int64_t*>(p);
}

// Wraps a negative index; returns false (and flags) when outside [-size, size).
__device__ __forceinline__ bool wrap_index(int64_t& v, int64_t size, int64_t* bad) {
  if (v < -size || v >= size) {
    *bad = 1;
    return false;
  }
  if (v < 0) v += size;
  return true;
}

template <typename T>
__device__ __forceinline__ void atomic_add(T* p, T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                std::is_same_v<T, int32_t> || std::is_same_v<T, half> ||
                std::is_same_v<T, bf16>) {
    atomicAdd(p, v);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  }
}

// index_select / index_add take indices in [0, size) only (torch refuses negative ones there).
__device__ __forceinline__ bool in_range(int64_t v, int64_t size, int64_t* bad) {
  if (v < 0 || v >= size) {
    *bad = 1;
    return false;
  }
  return true;
}

// out (contiguous, self's sizes with size(dim) = nidx) = self gathered along dim.
template <typename T>
__global__ void index_select_kernel(TensorArg self, TensorArg out, int dim, const char* index,
                                    bool int32, int64_t* bad) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < out.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i, src = 0;
    bool ok = true;
    for (int d = out.ndim - 1; d >= 0; --d) {
      int64_t c = rem % out.sizes[d];
      rem /= out.sizes[d];
      if (d == dim) {
        c = load_index(index + c * (int32 ? 4 : 8), int32);
        ok = ok && in_range(c, self.sizes[d], bad);
      }
      src += c * self.strides[d];
    }
    reinterpret_cast<T*>(out.data)[i] = ok ? reinterpret_cast<const T*>(self.data)[src] : T();
  }
}

// self[.., index[j], ..] += alpha * src[.., j, ..], over src's elements.
template <typename T>
__global__ void index_add_kernel(TensorArg self, TensorArg src, int dim, const char* index,
                                 bool int32, acc_t<T> alpha, int64_t* bad) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < src.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i, s_off = 0, d_off = 0;
    bool ok = true;
    for (int d = src.ndim - 1; d >= 0; --d) {
      int64_t c = rem % src.sizes[d];
      rem /= src.sizes[d];
      s_off += c * src.strides[d];
      if (d == dim) {
        c = load_index(index + c * (int32 ? 4 : 8), int32);
        ok = ok && in_range(c, self.sizes[d], bad);
      }
      d_off += c * self.strides[d];
    }
    if (!ok) continue;
    T v = cvt<T>(cvt<acc_t<T>>(reinterpret_cast<const T*>(src.data)[s_off]) * alpha);
    atomic_add(reinterpret_cast<T*>(self.data) + d_off, v);
  }
}

// gather: out[p] = self[p with p[dim] = index[p]], over index's elements (out contiguous).
template <typename T>
__global__ void gather_kernel(TensorArg self, TensorArg index, TensorArg out, int dim,
                              int64_t* bad) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < index.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i, i_off = 0, s_off = 0, o_off = 0;
    int64_t coord[kMaxDims];
    for (int d = index.ndim - 1; d >= 0; --d) {
      coord[d] = rem % index.sizes[d];
      rem /= index.sizes[d];
      i_off += coord[d] * index.strides[d];
      o_off += coord[d] * out.strides[d];
    }
    int64_t v = reinterpret_cast<const int64_t*>(index.data)[i_off];
    if (v < 0 || v >= self.sizes[dim]) {
      *bad = 1;
      continue;
    }
    for (int d = 0; d < index.ndim; ++d) s_off += (d == dim ? v : coord[d]) * self.strides[d];
    reinterpret_cast<T*>(out.data)[o_off] = reinterpret_cast<const T*>(self.data)[s_off];
  }
}

// scatter: self[p with p[dim] = index[p]] (=, +=) src[p] or value, over index's elements.
template <typename T>
__global__ void scatter_kernel(TensorArg self, TensorArg index, TensorArg src, bool use_value,
                               T value, int dim, int reduce, int64_t* bad) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < index.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i, i_off = 0, d_off = 0, s_off = 0;
    int64_t coord[kMaxDims];
    for (int d = index.ndim - 1; d >= 0; --d) {
      coord[d] = rem % index.sizes[d];
      rem /= index.sizes[d];
      i_off += coord[d] * index.strides[d];
      if (!use_value) s_off += coord[d] * src.strides[d];
    }
    int64_t v = reinterpret_cast<const int64_t*>(index.data)[i_off];
    if (v < 0 || v >= self.sizes[dim]) {
      *bad = 1;
      continue;
    }
    for (int d = 0; d < index.ndim; ++d) d_off += (d == dim ? v : coord[d]) * self.strides[d];
    T x = use_value ? value : reinterpret_cast<const T*>(src.data)[s_off];
    T* p = reinterpret_cast<T*>(self.data) + d_off;
    if (reduce == 1) {
      atomic_add(p, x);
    } else {
      *p = x;
    }
  }
}

// Advanced indexing over the iteration shape (the nidx broadcast index dims first, then the
// rest of self's dims): self offset = sum_k index_k * idx_stride[k] + rest coordinates.
template <typename T, bool Put>
__global__ void advanced_index_kernel(IndexArgs a, bool accumulate, int64_t* bad) {
  const int nb = a.idx[0].ndim;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < a.iter.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i, it_off = 0, s_off = 0;
    int64_t idx_off[kMaxDims];
    for (int k = 0; k < a.nidx; ++k) idx_off[k] = 0;
    for (int d = a.iter.ndim - 1; d >= 0; --d) {
      int64_t c = rem % a.iter.sizes[d];
      rem /= a.iter.sizes[d];
      it_off += c * a.iter.strides[d];
      if (d < nb) {
        for (int k = 0; k < a.nidx; ++k) idx_off[k] += c * a.idx[k].strides[d];
      } else {
        s_off += c * a.self.strides[d - nb];
      }
    }
    bool ok = true;
    for (int k = 0; k < a.nidx; ++k) {
      int64_t v = reinterpret_cast<const int64_t*>(a.idx[k].data)[idx_off[k]];
      ok = ok && wrap_index(v, a.idx_size[k], bad);
      s_off += v * a.idx_stride[k];
    }
    T* self = reinterpret_cast<T*>(a.self.data);
    T* it = reinterpret_cast<T*>(a.iter.data);
    if constexpr (Put) {
      if (!ok) continue;
      if (accumulate) {
        atomic_add(self + s_off, it[it_off]);
      } else {
        self[s_off] = it[it_off];
      }
    } else {
      it[it_off] = ok ? self[s_off] : T();
    }
  }
}

// dst[p] = src[p] for p over dst's sizes (same dtype, any strides).
template <typename T>
__global__ void strided_copy_kernel(TensorArg dst, TensorArg src) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < dst.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i, d_off = 0, s_off = 0;
    for (int d = dst.ndim - 1; d >= 0; --d) {
      int64_t c = rem % dst.sizes[d];
      rem /= dst.sizes[d];
      d_off += c * dst.strides[d];
      s_off += c * src.strides[d];
    }
    reinterpret_cast<T*>(dst.data)[d_off] = reinterpret_cast<const T*>(src.data)[s_off];
  }
}

// t[..., i, j] = 0 outside the kept triangle, over t's elements.
template <typename T>
__global__ void zero_triangle_kernel(TensorArg t, int64_t k, bool upper) {
  const int nd = t.ndim;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < t.numel;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rem = i, off = 0, row = 0, col = 0;
    for (int d = nd - 1; d >= 0; --d) {
      int64_t c = rem % t.sizes[d];
      rem /= t.sizes[d];
      off += c * t.strides[d];
      if (d == nd - 1) col = c;
      if (d == nd - 2) row = c;
    }
    const bool keep = upper ? (col - row >= k) : (col - row <= k);
    if (!keep) reinterpret_cast<T*>(t.data)[off] = T(0);
  }
}

// Moves values without arithmetic: one instantiation per element width.
template <typename F>
void dispatch_width(DT dt, F&& fn) {
  switch (dt) {
    case DT::Bool:
    case DT::UInt8:
    case DT::Int8: return fn.template operator()<uint8_t>();
    case DT::Int16:
    case DT::Half:
    case DT::BFloat16: return fn.template operator()<uint16_t>();
    case DT::Int32:
    case DT::Float: return fn.template operator()<uint32_t>();
    default: return fn.template operator()<uint64_t>();
  }
}

// Atomic accumulation: the dtypes CUDA adds atomically (others are refused on the host).
template <typename F>
void dispatch_atomic(DT dt, const char* what, F&& fn) {
  switch (dt) {
    case DT::Int32: return fn.template operator()<int32_t>();
    case DT::Int64: return fn.template operator()<int64_t>();
    case DT::Half: return fn.template operator()<half>();
    case DT::BFloat16: return fn.template operator()<bf16>();
    case DT::Float: return fn.template operator()<float>();
    case DT::Double: return fn.template operator()<double>();
    default: throw_cuda_error(what, "no atomic add for this dtype");
  }
}

}  // namespace

void launch_index_select(DT dt, const TensorArg& self, const TensorArg& out, int dim,
                         const void* index, bool index_int32, int64_t* bad, void* stream) {
  if (out.numel == 0) return;
  dispatch_width(dt, [&]<typename T>() {
    index_select_kernel<T><<<grid_for(out.numel), kBlock, 0, as_stream(stream)>>>(
        self, out, dim, static_cast<const char*>(index), index_int32, bad);
  });
  check_launch("index_select_cuda");
}

void launch_index_add(DT dt, const TensorArg& self, const TensorArg& src, int dim,
                      const void* index, bool index_int32, double alpha, int64_t* bad,
                      void* stream) {
  if (src.numel == 0) return;
  dispatch_atomic(dt, "index_add_cuda", [&]<typename T>() {
    index_add_kernel<T><<<grid_for(src.numel), kBlock, 0, as_stream(stream)>>>(
        self, src, dim, static_cast<const char*>(index), index_int32,
        static_cast<acc_t<T>>(alpha), bad);
  });
  check_launch("index_add_cuda");
}

void launch_gather(DT dt, const TensorArg& self, const TensorArg& index, const TensorArg& out,
                   int dim, int64_t* bad, void* stream) {
  if (index.numel == 0) return;
  dispatch_width(dt, [&]<typename T>() {
    gather_kernel<T><<<grid_for(index.numel), kBlock, 0, as_stream(stream)>>>(self, index, out,
                                                                               dim, bad);
  });
  check_launch("gather_cuda");
}

void launch_scatter(DT dt, const TensorArg& self, const TensorArg& index, const TensorArg& src,
                    bool use_value, double value, int64_t ivalue, int dim, int reduce,
                    int64_t* bad, void* stream) {
  if (index.numel == 0) return;
  auto go = [&]<typename T>() {
    T v{};
    if (use_value) {
      if constexpr (IsFloat<T>::value) v = cvt<T>(value);
      else v = static_cast<T>(ivalue);
    }
    scatter_kernel<T><<<grid_for(index.numel), kBlock, 0, as_stream(stream)>>>(
        self, index, src, use_value, v, dim, reduce, bad);
  };
  if (reduce == 1) {
    dispatch_atomic(dt, "scatter_add_cuda", go);
  } else {
    dispatch_dt(dt, "scatter_cuda", go);
  }
  check_launch("scatter_cuda");
}

void launch_index(DT dt, const IndexArgs& a, int64_t* bad, void* stream) {
  if (a.iter.numel == 0) return;
  dispatch_width(dt, [&]<typename T>() {
    advanced_index_kernel<T, false><<<grid_for(a.iter.numel), kBlock, 0, as_stream(stream)>>>(
        a, false, bad);
  });
  check_launch("index_cuda");
}

void launch_index_put(DT dt, const IndexArgs& a, bool accumulate, int64_t* bad, void* stream) {
  if (a.iter.numel == 0) return;
  if (accumulate) {
    dispatch_atomic(dt, "index_put_cuda", [&]<typename T>() {
      advanced_index_kernel<T, true><<<grid_for(a.iter.numel), kBlock, 0, as_stream(stream)>>>(
          a, true, bad);
    });
  } else {
    dispatch_width(dt, [&]<typename T>() {
      advanced_index_kernel<T, true><<<grid_for(a.iter.numel), kBlock, 0, as_stream(stream)>>>(
          a, false, bad);
    });
  }
  check_launch("index_put_cuda");
}

void launch_strided_copy(DT dt, const TensorArg& dst, const TensorArg& src, void* stream) {
  if (dst.numel == 0) return;
  dispatch_width(dt, [&]<typename T>() {
    strided_copy_kernel<T><<<grid_for(dst.numel), kBlock, 0, as_stream(stream)>>>(dst, src);
  });
  check_launch("strided_copy_cuda");
}

void launch_zero_triangle(DT dt, const TensorArg& t, int64_t k, bool upper, void* stream) {
  if (t.numel == 0) return;
  dispatch_width(dt, [&]<typename T>() {
    zero_triangle_kernel<T><<<grid_for(t.numel), kBlock, 0, as_stream(stream)>>>(t, k, upper);
  });
  check_launch("triangle_cuda");
}

}  // namespace opscope::cuda
