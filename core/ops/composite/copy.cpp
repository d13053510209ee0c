// Composite kernels of the copy family: _to_copy and clone (CompositeExplicitAutograd: allocate,
// then copy_), to.*, contiguous and fill_diagonal_ (CompositeImplicitAutograd). See
// core/ops/copy.h.
#include "core/ops/copy.h"

#include <algorithm>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/views.h"

namespace opscope {

int64_t parse_memory_format(std::string_view name) {
  if (name == "contiguous_format") return ops::kContiguousFormat;
  if (name == "preserve_format") return ops::kPreserveFormat;
  if (name == "channels_last") return ops::kChannelsLast;
  if (name == "channels_last_3d") return ops::kChannelsLast3d;
  throw ValueError(detail::str("unknown memory format '", name, "'"));
}

// A `Device` argument read from its IValue: to.device's is the only non-optional one (the
// others are `Device?`, KernelFunction.h's IValueConv<std::optional<Device>>). Kept here, with
// its one kernel, rather than in KernelFunction.h, which most of the tree includes.
template <>
struct IValueConv<Device> {
  static Device from(const IValue& v) { return v.to_device(); }
};

namespace composite {

// self [*s] -> new [*s]: dtype / device changed; self's strides kept when dense and preserved
Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                std::optional<int64_t> memory_format) {
  OPSCOPE_CHECK(!layout || *layout == ops::kStrided,
                "_to_copy: only the strided layout is supported");
  ScalarType dt = dtype.value_or(self.dtype());
  Device dev = device.value_or(self.device());
  int64_t format = memory_format.value_or(ops::kPreserveFormat);
  Tensor result;
  if (format == ops::kPreserveFormat && is_non_overlapping_and_dense(*self.impl())) {
    result = ops::empty_strided(self.sizes(), self.strides(), dt, layout, dev, pin_memory);
  } else {
    // A preserved layout that is not dense becomes row-major (torch's suggest_memory_format).
    if (format == ops::kPreserveFormat) format = ops::kContiguousFormat;
    result = ops::empty(self.sizes(), dt, layout, dev, pin_memory, format);
  }
  ops::copy_(result, self, non_blocking);
  return result;
}

// Whether `to` may return self: nothing changes and no copy was asked for. As in torch, a
// requested contiguous_format does not force a copy of a non-contiguous tensor (its suggested
// format is contiguous already).
static bool to_will_alias(const Tensor& self, std::optional<ScalarType> dtype,
                          std::optional<Device> device, bool copy,
                          std::optional<int64_t> memory_format) {
  if (copy) return false;
  if (dtype && *dtype != self.dtype()) return false;
  if (device && !(device->type == self.device().type &&
                  (!device->has_index() || device->index == self.device().index)))
    return false;
  int64_t format = memory_format.value_or(ops::kPreserveFormat);
  return format == ops::kPreserveFormat || format == ops::kContiguousFormat;
}

// self [*s] -> [*s] of dtype (self itself when it already has it and copy=False)
Tensor to_dtype(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy,
                std::optional<int64_t> memory_format) {
  if (to_will_alias(self, dtype, std::nullopt, copy, memory_format)) return self;
  return ops::_to_copy(self, dtype, std::nullopt, std::nullopt, std::nullopt, non_blocking,
                       memory_format);
}

// self [*s] -> [*s] of dtype on device (self itself when it is already and copy=False). The
// schema's `Device device` is not optional, and neither is the parameter: ops::to(t, device,
// dtype) — copy.h's to.device handle — reaches this kernel from C++ (it takes a `Device`; a
// kernel taking std::optional<Device> made that call throw "wrong C++ signature").
Tensor to_device(const Tensor& self, Device device, ScalarType dtype, bool non_blocking,
                 bool copy, std::optional<int64_t> memory_format) {
  if (to_will_alias(self, dtype, device, copy, memory_format)) return self;
  return ops::_to_copy(self, dtype, std::nullopt, device, std::nullopt, non_blocking,
                       memory_format);
}

Tensor to_other(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
                std::optional<int64_t> memory_format) {
  if (to_will_alias(self, other.dtype(), other.device(), copy, memory_format)) return self;
  return ops::_to_copy(self, other.dtype(), std::nullopt, other.device(), std::nullopt,
                       non_blocking, memory_format);
}

Tensor to_dtype_layout(const Tensor& self, std::optional<ScalarType> dtype,
                       std::optional<int64_t> layout, std::optional<Device> device,
                       std::optional<bool> pin_memory, bool non_blocking, bool copy,
                       std::optional<int64_t> memory_format) {
  OPSCOPE_CHECK(!layout || *layout == ops::kStrided, "to: only the strided layout is supported");
  if (to_will_alias(self, dtype, device, copy, memory_format)) return self;
  return ops::_to_copy(self, dtype, layout, device, pin_memory, non_blocking, memory_format);
}

// self [*s] -> new [*s]; preserve_format (None) keeps dense strides, else row-major
Tensor clone(const Tensor& self, std::optional<int64_t> memory_format) {
  int64_t format = memory_format.value_or(ops::kPreserveFormat);
  Tensor result;
  if (format == ops::kPreserveFormat && is_non_overlapping_and_dense(*self.impl())) {
    result =
        ops::empty_strided(self.sizes(), self.strides(), self.dtype(), std::nullopt, self.device());
  } else {
    result = ops::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, format);
  }
  ops::copy_(result, self);
  return result;
}

// self [*s] -> self when row-major, else clone(self, memory_format=contiguous_format)
Tensor contiguous(const Tensor& self, MemoryFormatArg memory_format) {
  OPSCOPE_CHECK(memory_format != ops::kPreserveFormat,
                "preserve memory format is unsupported by the contiguous operator");
  OPSCOPE_CHECK_AS(NotImplementedError, memory_format == ops::kContiguousFormat,
                   "contiguous: only contiguous_format is supported");
  if (self.is_contiguous()) return self;
  return ops::clone(self, ops::kContiguousFormat);
}

// self [*s] -> [*s] with other's dtype and device: self itself when they already match
// (torch's self.to(other.options())).
Tensor type_as(const Tensor& self, const Tensor& other) {
  return ops::to(self, std::optional<ScalarType>(other.dtype()), std::nullopt,
                 std::optional<Device>(other.device()), std::nullopt);
}

// self (n, n, ...) or (h, w), fill_value -> self with its main diagonal filled: one strided view
// of the diagonal (a step of every stride summed), filled; for a matrix with wrap and more than
// w + 1 rows, a second view from row w + 1 on covers the diagonals that restart every w + 1
// rows. torch's steps: as_strided, fill_ (twice with wrap).
Tensor fill_diagonal_(const Tensor& self, const Scalar& fill_value, bool wrap) {
  const int64_t nd = self.dim();
  OPSCOPE_CHECK(nd >= 2, "dimensions must larger than 1");
  const int64_t height = self.size(0), width = self.size(1);
  if (nd > 2) {
    for (int64_t i = 1; i < nd; ++i)
      OPSCOPE_CHECK(self.size(i) == height, "all dimensions of input must be of equal length");
  }
  int64_t step = 0;
  for (int64_t i = 0; i < nd; ++i) step += self.stride(i);
  const int64_t diag[1] = {std::min(height, width)}, strides[1] = {step};
  ops::fill_(ops::as_strided(self, IntArrayRef(diag, 1), IntArrayRef(strides, 1),
                             self->storage_offset()),
             fill_value);
  if (wrap && nd == 2 && height > width + 1) {
    // the rest of the elements, counted in steps of w + 1 from the start, past the first diagonal
    const int64_t rest[1] = {(self.numel() + width) / (width + 1) - diag[0]};
    ops::fill_(ops::as_strided(self, IntArrayRef(rest, 1), IntArrayRef(strides, 1),
                               self->storage_offset() + self.stride(0) * (width + 1)),
               fill_value);
  }
  return self;
}

static Library composite_explicit_copy(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("_to_copy", fn<&_to_copy>);
      m.impl("clone", fn<&clone>);
    });

static Library composite_implicit_copy(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("to.dtype", fn<&to_dtype>);
      m.impl("to.device", fn<&to_device>);
      m.impl("to.other", fn<&to_other>);
      m.impl("to.dtype_layout", fn<&to_dtype_layout>);
      m.impl("contiguous", fn<&contiguous>);
      m.impl("type_as", fn<&type_as>);
      m.impl("fill_diagonal_", fn<&fill_diagonal_>);
    });

}  // namespace composite
}  // namespace opscope
