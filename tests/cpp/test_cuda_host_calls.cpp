// The C++ calls the CUDA kernels (core/cuda/) make into other ops, made here on the CPU: a typed
// op handle whose C++ signature does not match its kernel's throws "Tried to access operator ...
// with a wrong C++ signature" at the call, on any device, so these run in every build. Found
// through core/cuda/kernels/index.cpp, whose boolean-mask indexing, nonzero, index_put_ from the
// CPU and out-of-range index reports called ops::to(t, device, dtype), the to.device handle
// (Device) that its kernel (std::optional<Device>) does not match.
#include <doctest/doctest.h>

#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"

using namespace opscope;

TEST_CASE("ops::to with a dtype and a device goes through to.dtype_layout from C++") {
  Tensor t = ops::arange(Scalar(int64_t(5)));
  Tensor d = ops::to(t, std::optional<ScalarType>(ScalarType::Float64), std::nullopt,
                     std::optional<Device>(Device(DeviceType::CPU)), std::nullopt);
  CHECK(d.dtype() == ScalarType::Float64);
  CHECK(d.device().is_cpu());
  CHECK(read_element(d, 4).to_double() == 4.0);
  // Nothing to change: the tensor itself, as torch's to().
  CHECK(ops::to(t, std::optional<ScalarType>(ScalarType::Int64), std::nullopt,
                std::optional<Device>(Device(DeviceType::CPU)), std::nullopt)
            .is_same(t));
}

TEST_CASE("ops::to with a device and a dtype reaches to.device's kernel from C++") {
  // The handle in core/ops/copy.h and the kernel in core/ops/composite/copy.cpp both take a
  // Device (the kernel took std::optional<Device>: "wrong C++ signature").
  Tensor t = ops::arange(Scalar(int64_t(4)));
  Tensor d = ops::to(t, Device(DeviceType::CPU), ScalarType::Float64);
  CHECK(d.dtype() == ScalarType::Float64);
  CHECK(d.device().is_cpu());
  CHECK(read_element(d, 3).to_double() == 3.0);
  CHECK(ops::to(t, Device(DeviceType::CPU), ScalarType::Int64).is_same(t));
  CHECK_FALSE(ops::to(t, Device(DeviceType::CPU), ScalarType::Int64, false, /*copy=*/true)
                  .is_same(t));
}

TEST_CASE("ops::to with a dtype, and _to_copy, as the CUDA kernels call them") {
  Tensor t = ops::arange(Scalar(int64_t(3)));
  CHECK(ops::to(t, ScalarType::Float32).dtype() == ScalarType::Float32);
  Tensor c = ops::_to_copy(t, ScalarType::Float64, std::nullopt, Device(DeviceType::CPU),
                           std::nullopt, false, std::nullopt);
  CHECK(c.dtype() == ScalarType::Float64);
  CHECK(read_element(c, 2).to_double() == 2.0);
}
