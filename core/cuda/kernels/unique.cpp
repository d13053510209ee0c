// The unique family on CUDA (_unique2, _unique, unique_dim, unique_consecutive; schemas in
// core/ops/sorting.cpp): the CPU kernels over a host copy of self, their results copied back to
// self's GPU. How many values come out depends on the values, so torch's CUDA kernels wait for
// the device too (they read back the count); this reads back all of self, and the trace shows
// the round trip (_to_copy, the CPU kernel, _to_copy) under the CUDA row. Results are sorted, as
// torch's CUDA kernels always return them (sorted=False is not honoured on CUDA).
#include <tuple>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/sorting.h"

namespace opscope::cuda {

namespace {

// The CPU kernels' handles this file calls besides ops::_unique2 (sorting.h has only that one).
inline constexpr Op<ops::TensorPair(const Tensor&, bool, bool)> unique1{"aten::_unique"};
inline constexpr Op<ops::TensorTriple(const Tensor&, int64_t, bool, bool, bool)> unique_dim_op{
    "aten::unique_dim"};
inline constexpr Op<ops::TensorTriple(const Tensor&, bool, bool, std::optional<int64_t>)>
    unique_consecutive_op{"aten::unique_consecutive"};

Tensor host(const Tensor& t) { return ops::to(t, Device(DeviceType::CPU), t.dtype()); }
Tensor back(const Tensor& t, Device d) { return ops::to(t, d, t.dtype()); }
ops::TensorTriple back(const ops::TensorTriple& r, Device d) {
  return {back(std::get<0>(r), d), back(std::get<1>(r), d), back(std::get<2>(r), d)};
}

// self (any) -> distinct values (m), inverse (self's shape) or (0), counts (m) or (0)
ops::TensorTriple unique2(const Tensor& self, bool /*sorted*/, bool return_inverse,
                          bool return_counts) {
  CUDAGuard guard(self.device());
  return back(ops::_unique2(host(self), true, return_inverse, return_counts), self.device());
}
ops::TensorPair unique(const Tensor& self, bool /*sorted*/, bool return_inverse) {
  CUDAGuard guard(self.device());
  auto [values, inverse] = unique1(host(self), true, return_inverse);
  return {back(values, self.device()), back(inverse, self.device())};
}
// self (.., n, ..) -> the distinct slices along dim (.., m, ..), inverse (n), counts (m)
ops::TensorTriple unique_dim(const Tensor& self, int64_t dim, bool /*sorted*/,
                             bool return_inverse, bool return_counts) {
  CUDAGuard guard(self.device());
  return back(unique_dim_op(host(self), dim, true, return_inverse, return_counts),
              self.device());
}
// self -> runs of equal values (or slices along dim) collapsed, inverse, counts
ops::TensorTriple unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts,
                                     std::optional<int64_t> dim) {
  CUDAGuard guard(self.device());
  return back(unique_consecutive_op(host(self), return_inverse, return_counts, dim),
              self.device());
}

}  // namespace

static Library cuda_unique(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("_unique2", fn<&unique2>);
  m.impl("_unique", fn<&unique>);
  m.impl("unique_dim", fn<&unique_dim>);
  m.impl("unique_consecutive", fn<&unique_consecutive>);
});

}  // namespace opscope::cuda
