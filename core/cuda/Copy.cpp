// CUDA kernels of the copy family: copy_ (within a GPU, across GPUs, to and from the CPU), fill_,
// zero_, and _local_scalar_dense (item() of a CUDA tensor). Schemas in core/ops/copy.cpp and
// core/ops/utility.cpp; rows at the end of this file.
//
// Note [Copies between CPU and CUDA]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// copy_ dispatches on the highest backend key of its two tensors, so every copy that involves a
// CUDA tensor lands here (CUDA > CPU). Bytes cross the bus with cudaMemcpyAsync on the current
// stream of the CUDA side's device, and only as one contiguous block of one dtype:
//   CPU -> CUDA   the source is made contiguous in self's dtype and shape on the CPU first (the
//                 CPU copy_ converts and broadcasts), then copied to self, or to a contiguous
//                 temporary that a device copy spreads over self's strides;
//   CUDA -> CPU   the source is made contiguous on its GPU (same dtype), copied to a host buffer,
//                 and the CPU copy_ converts it into self's dtype and strides.
// The host waits for the stream after the copy, as torch does, unless non_blocking was asked
// and the host side is pinned memory (cudaHostAlloc; Tensor.pin_memory()), where the copy is truly
// asynchronous and the caller orders it with streams or events.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "core/cuda/CUDACachingAllocator.h"
#include "core/cuda/CUDAGuard.h"
#include "core/cuda/copy_kernels.h"
#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/utility.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cuda {

namespace {

bool same_geometry(const Tensor& a, const Tensor& b) {
  return std::ranges::equal(a.sizes(), b.sizes()) && std::ranges::equal(a.strides(), b.strides());
}

// Whether host memory at p is page-locked (cudaHostAlloc / cudaHostRegister).
bool is_pinned_ptr(const void* p) {
  if (!p) return false;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

// dst <- src on dst's GPU, both CUDA tensors on that device: src broadcast to dst's shape,
// converted to dst's dtype (copy_kernels.cu).
void device_copy(const Tensor& dst, const Tensor& src, const CUDAStream& stream) {
  int64_t n = dst.numel();
  if (n == 0) return;
  // Same dtype, same dense layout: one memcpy.
  if (dst.dtype() == src.dtype() && same_geometry(dst, src) && dst.is_contiguous()) {
    OPSCOPE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(),
                                       static_cast<size_t>(n) * dst->itemsize(),
                                       cudaMemcpyDeviceToDevice, stream.stream()));
    return;
  }
  size_t nd = dst.sizes().size();
  DimVector src_strides(nd, 0);  // broadcast: missing or size-1 dims of src read stride 0
  size_t offset = nd - src.sizes().size();
  for (size_t d = 0; d < src.sizes().size(); ++d)
    src_strides[offset + d] = src.size(static_cast<int64_t>(d)) == 1 ? 0 : src.strides()[d];
  const int64_t* strides[2] = {dst.strides().data(), src_strides.data()};
  auto g = Geometry<2>::make(dst.sizes().data(), strides, static_cast<int>(nd));
  launch_copy(dst.data(), static_cast<int>(dst.dtype()), src.data(), static_cast<int>(src.dtype()),
              n, g, stream.stream());
}

Tensor contiguous_on_device(const Tensor& t, const CUDAStream& stream) {
  if (t.is_contiguous()) return t;
  Tensor c = empty_cuda(t.sizes(), t.dtype(), t.device());
  device_copy(c, t, stream);
  return c;
}

// torch's broadcast check of copy_ (src must expand to self's shape), with its message.
void check_expands(const Tensor& self, const Tensor& src) {
  int64_t nd = self.dim(), ns = src.dim();
  for (int64_t i = 1; i <= std::max(nd, ns); ++i) {
    int64_t a = i <= nd ? self.size(nd - i) : 1, b = i <= ns ? src.size(ns - i) : 1;
    OPSCOPE_CHECK(a == b || b == 1, "The size of tensor a (", a,
                  ") must match the size of tensor b (", b, ") at non-singleton dimension ",
                  std::max(nd, ns) - i);
  }
  if (ns > nd) {  // a larger src: torch names the broadcast shape
    DimVector shape(src.sizes().begin(), src.sizes().end());
    throw Error(detail::str("output with shape ", shape_str(self.sizes()),
                            " doesn't match the broadcast shape ", shape_str(shape)));
  }
}

void finish(const CUDAStream& stream, bool non_blocking, const Tensor& host) {
  if (non_blocking && is_pinned_ptr(host.data())) return;
  stream.synchronize();
}

}  // namespace

// self [*s] <- src broadcast to [*s], converted to self's dtype; either may be on the CPU
// (Note [Copies between CPU and CUDA])
Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  if (self.is_same(src)) return self;
  OPSCOPE_CHECK(self.device().is_cuda() || self.device().is_cpu(), "copy_: cannot copy to ",
                self.device().str());
  OPSCOPE_CHECK(src.device().is_cuda() || src.device().is_cpu(), "copy_: cannot copy from ",
                src.device().str());
  check_expands(self, src);
  if (self.numel() == 0) return self;
  if (self.device().is_cuda() && src.device().is_cuda()) {
    CUDAGuard guard(self.device());
    CUDAStream stream = getCurrentCUDAStream(guard.current_device());
    if (src.device().index != self.device().index) {
      // Another GPU: its bytes, contiguous, then a copy on self's GPU. The source's stream
      // finishes its work on src first.
      Tensor c;
      {
        CUDAGuard src_guard(src.device());
        c = contiguous_on_device(src, getCurrentCUDAStream(src_guard.current_device()));
        getCurrentCUDAStream(src_guard.current_device()).synchronize();
      }
      Tensor here = empty_cuda(c.sizes(), c.dtype(), self.device());
      OPSCOPE_CUDA_CHECK(cudaMemcpyPeerAsync(here.data(), self.device().index, c.data(),
                                             src.device().index,
                                             static_cast<size_t>(c.numel()) * c->itemsize(),
                                             stream.stream()));
      device_copy(self, here, stream);
      if (!non_blocking) stream.synchronize();
      return self;
    }
    device_copy(self, src, stream);
    return self;
  }
  if (self.device().is_cuda()) {  // CPU -> CUDA
    CUDAGuard guard(self.device());
    CUDAStream stream = getCurrentCUDAStream(guard.current_device());
    Tensor host = src;
    if (src.dtype() != self.dtype() || !std::ranges::equal(src.sizes(), self.sizes()) ||
        !src.is_contiguous()) {
      host = make_empty(self.sizes(), self.dtype(), Device(DeviceType::CPU));
      ops::copy_(host, src, false);
    }
    size_t nbytes = static_cast<size_t>(self.numel()) * self->itemsize();
    if (self.is_contiguous()) {
      OPSCOPE_CUDA_CHECK(
          cudaMemcpyAsync(self.data(), host.data(), nbytes, cudaMemcpyHostToDevice, stream));
    } else {
      Tensor staged = empty_cuda(self.sizes(), self.dtype(), self.device());
      OPSCOPE_CUDA_CHECK(
          cudaMemcpyAsync(staged.data(), host.data(), nbytes, cudaMemcpyHostToDevice, stream));
      device_copy(self, staged, stream);
    }
    // A staged host buffer is freed on return: only the caller's own pinned tensor may be left
    // to an asynchronous copy.
    finish(stream, non_blocking && host.is_same(src), host);
    return self;
  }
  // CUDA -> CPU
  CUDAGuard guard(src.device());
  CUDAStream stream = getCurrentCUDAStream(guard.current_device());
  Tensor dev = contiguous_on_device(src, stream);
  bool direct = self.dtype() == src.dtype() && std::ranges::equal(self.sizes(), src.sizes()) &&
                self.is_contiguous();
  Tensor host = direct ? self : make_empty(src.sizes(), src.dtype(), Device(DeviceType::CPU));
  OPSCOPE_CUDA_CHECK(cudaMemcpyAsync(host.data(), dev.data(),
                                     static_cast<size_t>(dev.numel()) * dev->itemsize(),
                                     cudaMemcpyDeviceToHost, stream));
  finish(stream, non_blocking && direct, host);
  if (!direct) ops::copy_(self, host, false);
  return self;
}

// self [*s] <- value everywhere (also into an expanded tensor)
Tensor fill_(const Tensor& self, const Scalar& value) {
  uint64_t bits = 0;
  dispatch_dtype(self.dtype(), "fill_cuda", [&]<typename T>() {
    T v = checked_convert<T>(value);
    std::memcpy(&bits, &v, sizeof(T));
  });
  if (self.numel() == 0) return self;
  CUDAGuard guard(self.device());
  const int64_t* strides[1] = {self.strides().data()};
  auto g = Geometry<1>::make(self.sizes().data(), strides, static_cast<int>(self.dim()));
  launch_fill(self.data(), static_cast<int>(self->itemsize()), bits, self.numel(), g,
              getCurrentCUDAStream(guard.current_device()).stream());
  return self;
}

// self [*s] <- value, a 0-d tensor (on the CPU or this GPU)
Tensor fill_tensor_(const Tensor& self, const Tensor& value) {
  OPSCOPE_CHECK(value.dim() == 0,
                "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
                " dimensions.");
  return fill_(self, ops::item(value));
}

// self [*s] <- 0
Tensor zero_(const Tensor& self) {
  if (self.numel() > 0 && self.is_contiguous()) {
    CUDAGuard guard(self.device());
    OPSCOPE_CUDA_CHECK(cudaMemsetAsync(self.data(), 0,
                                       static_cast<size_t>(self.numel()) * self->itemsize(),
                                       getCurrentCUDAStream(guard.current_device()).stream()));
    return self;
  }
  return fill_(self, Scalar(int64_t(0)));
}

// self (one element) -> its value on the host (waits for the stream)
Scalar _local_scalar_dense(const Tensor& self) {
  OPSCOPE_CHECK(self.numel() == 1, "a Tensor with ", self.numel(),
                " elements cannot be converted to Scalar");
  CUDAGuard guard(self.device());
  Tensor host = make_empty({}, self.dtype(), Device(DeviceType::CPU));
  CUDAStream stream = getCurrentCUDAStream(guard.current_device());
  OPSCOPE_CUDA_CHECK(cudaMemcpyAsync(host.data(), self.data(), self->itemsize(),
                                     cudaMemcpyDeviceToHost, stream.stream()));
  stream.synchronize();
  return item(host);
}

static Library cuda_copy(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("copy_", fn<&copy_>);
  m.impl("fill_.Scalar", fn<&fill_>);
  m.impl("fill_.Tensor", fn<&fill_tensor_>);
  m.impl("zero_", fn<&zero_>);
  m.impl("_local_scalar_dense", fn<&_local_scalar_dense>);
});

}  // namespace opscope::cuda
