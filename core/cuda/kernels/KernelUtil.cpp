// Host-side helpers of the CUDA kernels (see KernelUtil.h), and Launch.h's error hooks.
#include "core/cuda/kernels/KernelUtil.h"

#include <cuda_runtime_api.h>

#include <cstring>

#include "core/ops/factories.h"

namespace opscope::cuda {

static_assert(static_cast<int>(DT::Bool) == static_cast<int>(ScalarType::Bool) &&
                  static_cast<int>(DT::Int64) == static_cast<int>(ScalarType::Int64) &&
                  static_cast<int>(DT::Half) == static_cast<int>(ScalarType::Float16) &&
                  static_cast<int>(DT::BFloat16) == static_cast<int>(ScalarType::BFloat16) &&
                  static_cast<int>(DT::Float) == static_cast<int>(ScalarType::Float32) &&
                  static_cast<int>(DT::Double) == static_cast<int>(ScalarType::Float64),
              "core/cuda/kernels/Launch.h's DT must mirror ScalarType");

void throw_cuda_error(const char* what, const char* message) {
  throw Error(detail::str("CUDA error: ", message, " (in ", what, ")"));
}

void check_launch(const char* what) {
  cudaError_t err = cudaGetLastError();  // also clears a non-sticky error
  if (err != cudaSuccess) throw_cuda_error(what, cudaGetErrorString(err));
}

void copy_to_host_sync(void* dst, const void* src, int64_t nbytes, void* stream) {
  auto s = static_cast<cudaStream_t>(stream);
  cudaError_t err = cudaMemcpyAsync(dst, src, static_cast<size_t>(nbytes),
                                    cudaMemcpyDeviceToHost, s);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  if (err != cudaSuccess) throw_cuda_error("copy_to_host_sync", cudaGetErrorString(err));
}

ElementwiseArgs make_args(const TensorIterator& iter) {
  ElementwiseArgs a;
  a.ntensors = iter.ntensors();
  a.numel = iter.numel();
  OPSCOPE_CHECK(iter.ndim() <= kMaxDims, "CUDA elementwise kernels take at most ", kMaxDims,
                " dims that cannot be merged; this op has ", iter.ndim());
  a.ndim = iter.ndim();
  for (int d = 0; d < a.ndim; ++d) a.sizes[d] = iter.shape()[d];
  bool contiguous = true;
  for (int k = 0; k < a.ntensors; ++k) {
    a.dtypes[k] = dt_of(iter.dtype(k));
    a.data[k] = static_cast<char*>(iter.data_ptr(k));
    IntArrayRef strides = iter.strides(k);
    for (int d = 0; d < a.ndim; ++d) a.strides[k][d] = strides[d];
    // An input on the CPU is a scalar (the iterator only lets 0-d CPU tensors join a CUDA op):
    // its value, already in the kernel's dtype, travels in the arguments.
    if (k >= iter.noutputs() && iter.tensor(k).device().is_cpu()) {
      a.scalar_mask |= 1u << k;
      std::memcpy(a.scalars[k], iter.data_ptr(k), element_size(iter.dtype(k)));
      continue;
    }
    auto item = static_cast<int64_t>(element_size(iter.dtype(k)));
    if (a.ndim > 1 || (a.ndim == 1 && strides[0] != item)) contiguous = false;
  }
  a.contiguous = contiguous || a.numel <= 1;
  if (a.numel <= 1) a.ndim = 0;  // one element: every operand at its data pointer
  return a;
}

TensorArg make_tensor_arg(const Tensor& t) {
  TensorArg a;
  OPSCOPE_CHECK(t.dim() <= kMaxDims, "CUDA kernels take tensors of at most ", kMaxDims,
                " dims, got ", t.dim());
  a.data = static_cast<char*>(t.data());
  a.ndim = static_cast<int>(t.dim());
  a.numel = t.numel();
  for (int d = 0; d < a.ndim; ++d) {
    a.sizes[d] = t.size(d);
    a.strides[d] = t.stride(d);
  }
  return a;
}

void check_same_device(const Tensor& a, const Tensor& b, std::string_view op) {
  OPSCOPE_CHECK(a.device() == b.device(),
                "Expected all tensors to be on the same device, but found at least two devices, ",
                a.device().str(), " and ", b.device().str(), "! (when checking argument for ",
                op, ")");
}

DeviceFlag::DeviceFlag(Device device) {
  flag_ = make_empty({1}, ScalarType::Int64, device);
  cudaError_t err = cudaMemsetAsync(flag_.data(), 0, sizeof(int64_t),
                                    getCurrentCUDAStream().stream());
  if (err != cudaSuccess) throw_cuda_error("DeviceFlag", cudaGetErrorString(err));
}

int64_t DeviceFlag::read() const {
  int64_t v = 0;
  copy_to_host_sync(&v, flag_.data(), sizeof(v), current_stream_ptr());
  return v;
}

}  // namespace opscope::cuda
