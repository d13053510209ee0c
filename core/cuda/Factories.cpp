// CUDA kernels of the deterministic factories: empty, empty_strided, zeros, ones, full,
// scalar_tensor, and the ranges (arange, linspace, eye). Schemas in core/ops/factories.cpp; the
// BackendSelect rows that bring `device="cuda"` here are in core/ops/fallbacks.cpp. The random
// factories are core/cuda's random kernels' (Philox).
//
// The constant fills are empty + a fill kernel on the device. The ranges are computed by the CPU
// kernel and copied over (a trace reads arange[CUDA] -> arange[CPU], _to_copy): their values are
// then the CPU's to the last bit, and they are small next to what a GPU program computes.
#include <array>

#include "core/cuda/CUDACachingAllocator.h"
#include "core/cuda/CUDAGuard.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"

namespace opscope::cuda {

namespace {

// The `layout=` / `pin_memory=` checks every CUDA factory makes; the dtype to use.
ScalarType resolve_options(std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                           std::optional<bool> pin_memory, ScalarType fallback) {
  OPSCOPE_CHECK_AS(NotImplementedError, !layout || *layout == ops::kStrided,
                   "opscope supports only the strided layout (torch.strided), got layout ",
                   *layout);
  OPSCOPE_CHECK(!pin_memory || !*pin_memory, "Only dense CPU tensors can be pinned");
  return dtype.value_or(fallback);
}

Device cuda_device(std::optional<Device> device) {
  return device.value_or(Device(DeviceType::CUDA));
}

// Row-major strides of a channels-last layout (N, C, *spatial): C varies fastest.
DimVector channels_last_strides(IntArrayRef size) {
  DimVector st(size.size(), 1);
  int64_t s = size[1];  // C's stride is 1; then the spatial dims innermost-first, then N
  for (size_t d = size.size() - 1; d >= 2; --d) {
    st[d] = s;
    s *= std::max<int64_t>(size[d], 1);
  }
  st[0] = s;
  return st;
}

}  // namespace

// -> size, uninitialized
Tensor empty_memory_format(IntArrayRef size, std::optional<ScalarType> dtype,
                           std::optional<int64_t> layout, std::optional<Device> device,
                           std::optional<bool> pin_memory, std::optional<int64_t> memory_format) {
  ScalarType dt = resolve_options(dtype, layout, pin_memory, default_dtype());
  int64_t mf = memory_format.value_or(ops::kContiguousFormat);
  OPSCOPE_CHECK(mf != ops::kPreserveFormat, "unsupported memory format Preserve");
  if (mf == ops::kChannelsLast || mf == ops::kChannelsLast3d) {
    size_t rank = mf == ops::kChannelsLast ? 4 : 5;
    OPSCOPE_CHECK(size.size() == rank, "required rank ", rank, " tensor to use ",
                  mf == ops::kChannelsLast ? "channels_last" : "channels_last_3d", " format");
    check_size_nonnegative(size);
    return empty_strided_cuda(size, channels_last_strides(size), dt, cuda_device(device));
  }
  OPSCOPE_CHECK(mf == ops::kContiguousFormat, "unsupported memory format ", mf);
  return empty_cuda(size, dt, cuda_device(device));
}

// -> size with `stride`, uninitialized
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                     std::optional<int64_t> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
  ScalarType dt = resolve_options(dtype, layout, pin_memory, default_dtype());
  OPSCOPE_CHECK(size.size() == stride.size(), "dimensionality of sizes (", size.size(),
                ") must match dimensionality of strides (", stride.size(), ")");
  return empty_strided_cuda(size, stride, dt, cuda_device(device));
}

// -> size, all 0
Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = empty_cuda(size, resolve_options(dtype, layout, pin_memory, default_dtype()),
                        cuda_device(device));
  return ops::zero_(t);
}

// -> size, all 1
Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = empty_cuda(size, resolve_options(dtype, layout, pin_memory, default_dtype()),
                        cuda_device(device));
  return ops::fill_(t, Scalar(int64_t(1)));
}

// -> size, all fill_value; dtype from the value's kind when None
Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<int64_t> layout, std::optional<Device> device,
            std::optional<bool> pin_memory) {
  ScalarType inferred = fill_value.is_bool()       ? ScalarType::Bool
                        : fill_value.is_integral() ? ScalarType::Int64
                                                   : default_dtype();
  Tensor t = empty_cuda(size, resolve_options(dtype, layout, pin_memory, inferred),
                        cuda_device(device));
  return ops::fill_(t, fill_value);
}

// -> 0-d holding s
Tensor scalar_tensor(const Scalar& s, std::optional<ScalarType> dtype,
                     std::optional<int64_t> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
  Tensor t = empty_cuda({}, resolve_options(dtype, layout, pin_memory, default_dtype()),
                        cuda_device(device));
  return ops::fill_(t, s);
}

// The ranges: the CPU kernel's values, copied to the device (see the top of the file).
static Tensor to_device(const Tensor& host, std::optional<Device> device) {
  return ops::_to_copy(host, std::nullopt, std::nullopt, cuda_device(device), std::nullopt, false,
                       std::nullopt);
}
static const Device kCpu{DeviceType::CPU};

// -> [ceil(end / 1)]
Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  resolve_options(dtype, layout, pin_memory, ScalarType::Int64);
  return to_device(ops::arange(end, dtype, layout, kCpu, std::nullopt), device);
}
// -> [ceil(end - start)]
Tensor arange_start(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
                    std::optional<int64_t> layout, std::optional<Device> device,
                    std::optional<bool> pin_memory) {
  resolve_options(dtype, layout, pin_memory, ScalarType::Int64);
  return to_device(ops::arange(start, end, dtype, layout, kCpu, std::nullopt), device);
}
// -> [ceil((end - start) / step)]
Tensor arange_start_step(const Scalar& start, const Scalar& end, const Scalar& step,
                         std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory) {
  resolve_options(dtype, layout, pin_memory, ScalarType::Int64);
  return to_device(ops::arange(start, end, step, dtype, layout, kCpu, std::nullopt), device);
}
// -> [steps]
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  resolve_options(dtype, layout, pin_memory, ScalarType::Float32);
  return to_device(ops::linspace(start, end, steps, dtype, layout, kCpu, std::nullopt), device);
}
// -> (n, n)
Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
           std::optional<Device> device, std::optional<bool> pin_memory) {
  resolve_options(dtype, layout, pin_memory, ScalarType::Float32);
  return to_device(ops::eye(n, dtype, layout, kCpu, std::nullopt), device);
}
// -> (n, m)
Tensor eye_m(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  resolve_options(dtype, layout, pin_memory, ScalarType::Float32);
  return to_device(ops::eye(n, m, dtype, layout, kCpu, std::nullopt), device);
}

static Library cuda_factories(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("empty.memory_format", fn<&empty_memory_format>);
  m.impl("empty_strided", fn<&empty_strided>);
  m.impl("zeros", fn<&zeros>);
  m.impl("ones", fn<&ones>);
  m.impl("full", fn<&full>);
  m.impl("scalar_tensor", fn<&scalar_tensor>);
  m.impl("arange", fn<&arange>);
  m.impl("arange.start", fn<&arange_start>);
  m.impl("arange.start_step", fn<&arange_start_step>);
  m.impl("linspace", fn<&linspace>);
  m.impl("eye", fn<&eye>);
  m.impl("eye.m", fn<&eye_m>);
});

}  // namespace opscope::cuda
