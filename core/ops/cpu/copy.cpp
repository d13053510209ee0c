// CPU kernels of copy_, fill_ and zero_ (see core/ops/copy.h).
#include <cstring>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/Loops.h"

namespace opscope::cpu {

namespace {

// Same dtype: move bytes. W is an unsigned integer as wide as the element.
template <typename W>
void copy_same_dtype(TensorIterator& iter) {
  iter.for_each([](char** data, const int64_t* strides, int64_t n) {
    constexpr auto w = static_cast<int64_t>(sizeof(W));
    if (strides[0] == w && strides[1] == w) {
      std::memcpy(data[0], data[1], static_cast<size_t>(n * w));
    } else if (strides[0] == w && strides[1] == 0) {
      W v;
      std::memcpy(&v, data[1], sizeof(W));
      std::fill_n(reinterpret_cast<W*>(data[0]), n, v);
    } else {
      for (int64_t i = 0; i < n; ++i)
        std::memcpy(data[0] + i * strides[0], data[1] + i * strides[1], sizeof(W));
    }
  });
}

void copy_kernel(TensorIterator& iter) {
  ScalarType dst = iter.dtype(0), src = iter.dtype(1);
  if (dst == src) {
    switch (element_size(dst)) {
      case 1:
        return copy_same_dtype<uint8_t>(iter);
      case 2:
        return copy_same_dtype<uint16_t>(iter);
      case 4:
        return copy_same_dtype<uint32_t>(iter);
      default:
        return copy_same_dtype<uint64_t>(iter);
    }
  }
  dispatch_dtype(dst, "copy_", [&]<typename D>() {
    dispatch_dtype(src, "copy_",
                   [&]<typename S>() { cpu_kernel(iter, [](S v) -> D { return convert<D>(v); }); });
  });
}

}  // namespace

// self [*s] <- src broadcast to [*s], converted to self's dtype
Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  if (self.is_same(src)) return self;
  OPSCOPE_CHECK(self.device().is_cpu() && src.device().is_cpu(),
                "copy_: the CPU kernel copies between CPU tensors, not from ", src.device().str(),
                " to ", self.device().str());
  // Two views of the same elements in the same layout: nothing to move.
  if (self->storage().get() == src->storage().get() &&
      self->storage_offset() == src->storage_offset() && self.dtype() == src.dtype() &&
      std::ranges::equal(self.sizes(), src.sizes()) &&
      std::ranges::equal(self.strides(), src.strides()))
    return self;
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(self)
                            .add_input(src)
                            .resize_outputs(false)
                            .check_all_same_dtype(false)
                            .build();
  if (iter.numel() > 0) copy_kernel(iter);
  return self;
}

// self [*s] <- value everywhere (also into an expanded tensor)
Tensor fill_(const Tensor& self, const Scalar& value) {
  dispatch_dtype(self.dtype(), "fill_cpu", [&]<typename T>() {
    T v = checked_convert<T>(value);
    if (self.numel() == 1) {
      *self.data_ptr<T>() = v;
      return;
    }
    TensorIterator iter = TensorIterator::nullary_op(self);
    cpu_kernel(iter, [v]() -> T { return v; });
  });
  return self;
}

// self [*s] <- value, a 0-d tensor
Tensor fill_tensor_(const Tensor& self, const Tensor& value) {
  OPSCOPE_CHECK(value.dim() == 0,
                "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
                " dimensions.");
  return fill_(self, item(value));
}

// self [*s] <- 0
Tensor zero_(const Tensor& self) {
  // Dense memory below the grain size: one memset (PyTorch's shortcut); otherwise fill_.
  if (self.numel() < kGrainSize && is_non_overlapping_and_dense(*self.impl())) {
    if (self.numel() > 0)
      std::memset(self.data(), 0, static_cast<size_t>(self.numel()) * self->itemsize());
    return self;
  }
  return ops::fill_(self, Scalar(int64_t(0)));
}

static Library cpu_copy(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("copy_", fn<&copy_>);
  m.impl("fill_.Scalar", fn<&fill_>);
  m.impl("fill_.Tensor", fn<&fill_tensor_>);
  m.impl("zero_", fn<&zero_>);
});

}  // namespace opscope::cpu
