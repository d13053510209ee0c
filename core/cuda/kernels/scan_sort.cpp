// CUDA kernels of cumsum / cumprod and the sorting family (sort, argsort, topk), host side. The
// dtypes, checks and messages follow the CPU kernels (core/ops/cpu/scan.cpp, sorting.cpp); the
// device code is scan_sort.cu.
//
// Sorts move the sorted dim last (a copy when that is not the memory order), sort the rows of
// that contiguous block, and copy the results into the outputs through the inverse transpose.
// The sort is stable whatever `stable` says (ties keep their order), so unstable sorts give one
// of the orders torch may give; topk takes the first k of a full sort (sorted whatever `sorted`
// says). Any row length is sorted; the work is O(n log^2 n) per row.
#include <algorithm>
#include <vector>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/cpu/reduce_plan.h"
#include "core/ops/sorting.h"
#include "core/ops/views.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cuda {

namespace {

// --- cumsum / cumprod ------------------------------------------------------------------------

// out[..., k, ...] = x[..., 0, ...] op ... op x[..., k, ...] along dim, in dtype t: integers
// (and bool) are scanned in int64 and cast, as the CPU kernel does.
template <bool IsSum>
Tensor scan_impl(const Tensor& self, int64_t dim, ScalarType t) {
  const int64_t d = wrap_dim(dim, self.dim());
  if (t == ScalarType::Bool || (is_integral(t, false) && t != ScalarType::Int64))
    return ops::to(scan_impl<IsSum>(self, dim, ScalarType::Int64), t);
  CUDAGuard guard(self.device());
  Tensor out = make_empty(self.sizes(), t, self.device());
  if (self.numel() == 0) return out;
  const Tensor in = cpu::contiguous_if_needed(cpu::cast_if_needed(self, t));
  int64_t O = 1, R = 1, I = 1;
  for (int64_t k = 0; k < self.dim(); ++k) (k < d ? O : k == d ? R : I) *= self.size(k);
  launch_scan(IsSum, dt_of(t), in.data(), out.data(), O, R, I, current_stream_ptr());
  return out;
}

ScalarType scan_dtype(const Tensor& self, cpu::OptDtype dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), true) ? ScalarType::Int64 : self.dtype();
}

template <bool IsSum>
Tensor scan_out(const Tensor& self, int64_t dim, cpu::OptDtype dtype, const Tensor& out) {
  OPSCOPE_CHECK(!dtype || *dtype == out.dtype(), "provided dtype must match dtype of result in ",
                IsSum ? "cumsum" : "cumprod", ". Got ", cpp_name(out.dtype()), " and ",
                cpp_name(*dtype), ".");
  check_same_device(self, out, IsSum ? "cumsum" : "cumprod");
  return cpu::write_out(out, scan_impl<IsSum>(self, dim, out.dtype()));
}

Tensor cumsum(const Tensor& self, int64_t dim, cpu::OptDtype dtype) {
  return scan_impl<true>(self, dim, scan_dtype(self, dtype));
}
Tensor cumsum_out(const Tensor& self, int64_t dim, cpu::OptDtype dtype, const Tensor& out) {
  return scan_out<true>(self, dim, dtype, out);
}
Tensor cumprod(const Tensor& self, int64_t dim, cpu::OptDtype dtype) {
  return scan_impl<false>(self, dim, scan_dtype(self, dtype));
}
Tensor cumprod_out(const Tensor& self, int64_t dim, cpu::OptDtype dtype, const Tensor& out) {
  return scan_out<false>(self, dim, dtype, out);
}

// flip(Tensor self, int[] dims) -> Tensor: cumsum's and cumprod's backward read their gradient
// reversed. A strided copy whose source steps backwards along the flipped dims.
Tensor flip(const Tensor& self, IntArrayRef dims) {
  const int64_t nd = self.dim();
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(nd, 1)), false);
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, nd);
    OPSCOPE_CHECK(!flipped[static_cast<size_t>(w)], "dim ", w,
                  " appears multiple times in the list of dims");
    flipped[static_cast<size_t>(w)] = true;
  }
  CUDAGuard guard(self.device());
  Tensor out = ops::empty_like(self);
  if (self.numel() == 0) return out;
  TensorArg src = make_tensor_arg(self);
  const auto elem = static_cast<int64_t>(element_size(self.dtype()));
  for (int64_t d = 0; d < nd; ++d) {
    if (!flipped[static_cast<size_t>(d)]) continue;
    src.data += (self.size(d) - 1) * self.stride(d) * elem;
    src.strides[d] = -src.strides[d];
  }
  launch_strided_copy(dt_of(self.dtype()), make_tensor_arg(out), src, current_stream_ptr());
  return out;
}

// --- sort / argsort / topk -------------------------------------------------------------------

DimVector sizes_with(const Tensor& self, int64_t dim, int64_t n) {
  DimVector s(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) s[static_cast<size_t>(dim)] = n;
  return s;
}

// self sorted along dim d: (values, indices), contiguous in self's sizes with dim d moved last
// and moved back (views), for the caller to copy or narrow. self has elements.
std::pair<Tensor, Tensor> sorted_along(const Tensor& self, int64_t d, bool descending) {
  const Tensor x = self.dim() == 0 ? ops::reshape(self, std::array<int64_t, 1>{1}) : self;
  const bool last = d == x.dim() - 1;
  const Tensor rows = cpu::contiguous_if_needed(last ? x : ops::transpose(x, d, -1));
  const int64_t n = rows.size(-1), nrows = rows.numel() / n;
  Tensor v = make_empty(rows.sizes(), self.dtype(), self.device());
  Tensor i = make_empty(rows.sizes(), ScalarType::Int64, self.device());
  const int64_t P = sort_padded_len(n);
  Tensor scratch = make_empty({2 * nrows * P}, ScalarType::Int64, self.device());
  int64_t* keys = scratch.data_ptr<int64_t>();
  launch_sort_rows(dt_of(self.dtype()), rows.data(), v.data(), i.data_ptr<int64_t>(), nrows, n,
                   descending, keys, keys + nrows * P, current_stream_ptr());
  if (!last) {
    v = ops::transpose(v, d, -1);
    i = ops::transpose(i, d, -1);
  }
  if (self.dim() == 0) {
    v = ops::reshape(v, IntArrayRef{});
    i = ops::reshape(i, IntArrayRef{});
  }
  return {v, i};
}

// (.., n, ..) -> values, indices (.., n, ..)
ops::TensorPair sort_values_stable(const Tensor& self, std::optional<bool> /*stable*/,
                                   int64_t dim, bool descending, const Tensor& values,
                                   const Tensor& indices) {
  const int64_t d = wrap_dim(dim, self.dim());
  checks::out_dtype(values, self.dtype());
  checks::out_dtype(indices, ScalarType::Int64);
  checks::no_overlap(values, indices);
  check_same_device(self, values, "sort");
  check_same_device(self, indices, "sort");
  resize_output(values, self.sizes());
  resize_output(indices, self.sizes());
  if (self.numel() == 0) return {values, indices};
  CUDAGuard guard(self.device());
  auto [v, i] = sorted_along(self, d, descending);
  ops::copy_(values, v);
  ops::copy_(indices, i);
  return {values, indices};
}

ops::TensorPair sort_stable(const Tensor& self, std::optional<bool> stable, int64_t dim,
                            bool descending) {
  CUDAGuard guard(self.device());
  Tensor values = make_empty(self.sizes(), self.dtype(), self.device());
  Tensor indices = make_empty(self.sizes(), ScalarType::Int64, self.device());
  return sort_values_stable(self, stable, dim, descending, values, indices);
}

Tensor argsort_stable(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(ops::sort(self, std::optional<bool>(stable), dim, descending));
}

// (.., n, ..) -> (.., k, ..): the first k of the sort, largest first when `largest`
ops::TensorPair topk_values(const Tensor& self, int64_t k, int64_t dim, bool largest,
                            bool /*sorted*/, const Tensor& values, const Tensor& indices) {
  const int64_t d = wrap_dim(dim, self.dim());
  const int64_t n = self.dim() == 0 ? 1 : self.size(d);
  OPSCOPE_CHECK(k >= 0 && k <= n, "selected index k out of range");
  checks::out_dtype(values, self.dtype());
  checks::out_dtype(indices, ScalarType::Int64);
  check_same_device(self, values, "topk");
  check_same_device(self, indices, "topk");
  const DimVector out_sizes = sizes_with(self, d, k);
  resize_output(values, out_sizes);
  resize_output(indices, out_sizes);
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool,
                "\"topk_out_cuda\" not implemented for 'Bool'");
  if (self.numel() == 0 || k == 0) return {values, indices};
  CUDAGuard guard(self.device());
  auto [v, i] = sorted_along(self, d, largest);
  if (self.dim() > 0) {
    v = ops::narrow(v, d, 0, k);
    i = ops::narrow(i, d, 0, k);
  }
  ops::copy_(values, v);
  ops::copy_(indices, i);
  return {values, indices};
}

ops::TensorPair topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  CUDAGuard guard(self.device());
  Tensor values = make_empty({0}, self.dtype(), self.device());
  Tensor indices = make_empty({0}, ScalarType::Int64, self.device());
  return topk_values(self, k, dim, largest, sorted, values, indices);
}

}  // namespace

static Library cuda_scan_sort(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("cumsum", fn<&cumsum>);
  m.impl("cumsum.out", fn<&cumsum_out>);
  m.impl("cumprod", fn<&cumprod>);
  m.impl("cumprod.out", fn<&cumprod_out>);
  m.impl("flip", fn<&flip>);
  m.impl("sort.stable", fn<&sort_stable>);
  m.impl("sort.values_stable", fn<&sort_values_stable>);
  m.impl("argsort.stable", fn<&argsort_stable>);
  m.impl("topk", fn<&topk>);
  m.impl("topk.values", fn<&topk_values>);
});

}  // namespace opscope::cuda
