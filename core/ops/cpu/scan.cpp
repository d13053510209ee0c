// CPU kernels of cumsum and cumprod, and of the running extremes and log-sum-exp torch builds
// cummax / cummin / logcumsumexp on (_cummax_helper, _cummin_helper, _logcumsumexp; declared in
// core/ops/reduce.cpp).
//
// out[..., k, ...] = x[..., 0, ...] + ... + x[..., k, ...] along `dim` (products for cumprod), in
// the dtype torch 1.13 picks: `dtype=`, else int64 for bool and integers, else self's (float16
// has no CPU kernel). Like torch, partial sums accumulate in double for float and float for
// bfloat16. The input is read as [outer][dim][inner] (contiguous); inner > 1 scans whole rows at
// once.
#include <cmath>
#include <limits>
#include <vector>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/reduce_loops.h"
#include "core/ops/cpu/special_functions.h"
#include "core/ops/TensorIterator.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

namespace {

template <typename T>
using scan_acc_t = std::conditional_t<std::is_same_v<T, float>, double, acc_type_t<T>>;

// Elements (or rows) a scan runs between two looks for a Ctrl-C.
constexpr int64_t kScanPiece = int64_t(1) << 16;

template <typename T, bool IsSum>
void scan_kernel(const T* x, T* out, int64_t O, int64_t R, int64_t I) {
  using acc_t = scan_acc_t<T>;
  parallel_for(0, O, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(R * I, 1)),
               [&](int64_t b, int64_t e) {
                 if (I == 1) {  // scans along contiguous rows: the running value in a register
                   for (int64_t o = b; o < e; ++o) {
                     acc_t acc(IsSum ? 0 : 1);
                     const T* xr = x + o * R;
                     T* yr = out + o * R;
                     for (int64_t r0 = 0; r0 < R; r0 += kScanPiece) {
                       check_interrupt();  // a row may be 10^8 long: Note [Interrupting long ops]
                       const int64_t r1 = std::min(R, r0 + kScanPiece);
                       for (int64_t r = r0; r < r1; ++r) {
                         acc = IsSum ? acc + static_cast<acc_t>(xr[r])
                                     : acc * static_cast<acc_t>(xr[r]);
                         yr[r] = static_cast<T>(acc);
                       }
                     }
                   }
                   return;
                 }
                 std::vector<acc_t> acc(static_cast<size_t>(I));
                 for (int64_t o = b; o < e; ++o) {
                   std::fill(acc.begin(), acc.end(), acc_t(IsSum ? 0 : 1));
                   for (int64_t r = 0; r < R; ++r) {
                     if (r % kScanPiece == 0) check_interrupt();
                     const T* xr = x + (o * R + r) * I;
                     T* yr = out + (o * R + r) * I;
                     for (int64_t i = 0; i < I; ++i) {
                       acc[i] = IsSum ? acc[i] + static_cast<acc_t>(xr[i])
                                      : acc[i] * static_cast<acc_t>(xr[i]);
                       yr[i] = static_cast<T>(acc[i]);
                     }
                   }
                 }
               });
}

template <bool IsSum>
Tensor scan_impl(const Tensor& self, int64_t dim, ScalarType t) {
  const char* name = IsSum ? "cumsum_out_cpu" : "cumprod_out_cpu";
  int64_t d = wrap_dim(dim, self.dim());
  if (t == ScalarType::Bool || (is_integral(t, false) && t != ScalarType::Int64))
    return ops::to(scan_impl<IsSum>(self, dim, ScalarType::Int64), t);
  if (self.numel() == 0) return make_empty(self.sizes(), t);
  OPSCOPE_CHECK(t != ScalarType::Float16, "\"", name, "\" not implemented for 'Half'");
  Tensor in = contiguous_if_needed(cast_if_needed(self, t));
  Tensor out = make_empty(self.sizes(), t);
  if (self.numel() == 0) return out;
  int64_t O = 1, R = 1, I = 1;
  for (int64_t k = 0; k < self.dim(); ++k) (k < d ? O : k == d ? R : I) *= self.size(k);
  dispatch_dtype(t, name, [&]<typename T>() {
    if constexpr (std::is_same_v<T, int64_t> || !std::is_integral_v<T>) {
      scan_kernel<T, IsSum>(in.data_ptr<T>(), out.data_ptr<T>(), O, R, I);
    }
  });
  return out;
}

ScalarType scan_dtype(const Tensor& self, OptDtype dtype) {
  if (dtype) return *dtype;
  return is_integral(self.dtype(), true) ? ScalarType::Int64 : self.dtype();
}

template <bool IsSum>
Tensor scan_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out) {
  OPSCOPE_CHECK(!dtype || *dtype == out.dtype(), "provided dtype must match dtype of result in ",
                IsSum ? "cumsum" : "cumprod", ". Got ", cpp_name(out.dtype()), " and ",
                cpp_name(*dtype), ".");
  return write_out(out, scan_impl<IsSum>(self, dim, out.dtype()));
}

}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, OptDtype dtype) {
  return scan_impl<true>(self, dim, scan_dtype(self, dtype));
}
Tensor cumsum_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out) {
  return scan_out<true>(self, dim, dtype, out);
}
Tensor cumprod(const Tensor& self, int64_t dim, OptDtype dtype) {
  return scan_impl<false>(self, dim, scan_dtype(self, dtype));
}
Tensor cumprod_out(const Tensor& self, int64_t dim, OptDtype dtype, const Tensor& out) {
  return scan_out<false>(self, dim, dtype, out);
}

// self [*s] <- its own running sums (products) along dim, in self's dtype; dtype= must be it
template <bool IsSum>
Tensor scan_inplace(const Tensor& self, int64_t dim, OptDtype dtype) {
  const char* name = IsSum ? "cumsum_out_cpu" : "cumprod_out_cpu";
  OPSCOPE_CHECK(!dtype || *dtype == self.dtype(), "Bad in-place call: input tensor dtype ",
                typemeta_name(self.dtype()), " and output tensor dtype ", typemeta_name(*dtype),
                " should match");
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "\"", name, "\" not implemented for 'Bool'");
  return scan_out<IsSum>(self, dim, self.dtype(), self);
}
Tensor cumsum_(const Tensor& self, int64_t dim, OptDtype dtype) {
  return scan_inplace<true>(self, dim, dtype);
}
Tensor cumprod_(const Tensor& self, int64_t dim, OptDtype dtype) {
  return scan_inplace<false>(self, dim, dtype);
}

// --- cummax / cummin: the running extreme along dim and its index -----------------------------

namespace {

// Each [outer][dim][inner] line of self: values[k] the extreme of self[0..k], indices[k] where
// it is — the later index on ties (>= / <=, as torch), and a NaN, once met, kept with its index.
template <bool Max>
void running_extreme(const Tensor& self, const Tensor& values, const Tensor& indices, int64_t dim) {
  const char* name = Max ? "cummax_cpu" : "cummin_cpu";
  OPSCOPE_CHECK(self.dtype() != ScalarType::Float16, "\"", name, "\" not implemented for 'Half'");
  const int64_t d = wrap_dim(dim, self.dim());
  // The outputs come from the caller (cummax's out= forms allocate them): torch's dtype messages,
  // and sizes made right here (torch's kernel writes past a smaller one).
  OPSCOPE_CHECK(values.dtype() == self.dtype(), "expected scalar type ", cpp_name(self.dtype()),
                " but found ", cpp_name(values.dtype()));
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64, "expected scalar type Long but found ",
                cpp_name(indices.dtype()));
  resize_output(values, self.sizes());
  resize_output(indices, self.sizes());
  Tensor in = contiguous_if_needed(self);
  Tensor vals = values.is_contiguous() ? values : make_empty(self.sizes(), self.dtype());
  Tensor idx = indices.is_contiguous() ? indices : make_empty(self.sizes(), ScalarType::Int64);
  int64_t O = 1, R = 1, I = 1;
  for (int64_t k = 0; k < self.dim(); ++k) (k < d ? O : k == d ? R : I) *= self.size(k);
  dispatch_dtype(self.dtype(), name, [&]<typename T>() {
    using A = acc_type_t<T>;
    const T* x = in.data_ptr<const T>();
    T* v = vals.data_ptr<T>();
    int64_t* ix = idx.data_ptr<int64_t>();
    parallel_for(0, O * I, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(R, 1)),
                 [&](int64_t b, int64_t e) {
                   for (int64_t line = b; line < e; ++line) {
                     const int64_t base = (line / I) * R * I + line % I;
                     A best = static_cast<A>(x[base]);
                     int64_t at = 0;
                     for (int64_t r = 0; r < R; ++r) {
                       const int64_t off = base + r * I;
                       const A a = static_cast<A>(x[off]);
                       const bool nan_best = best != best;
                       if (a != a || (!nan_best && (Max ? a >= best : a <= best))) {
                         best = a;
                         at = r;
                       }
                       v[off] = static_cast<T>(best);
                       ix[off] = at;
                     }
                   }
                 });
  });
  if (!vals.is_same(values)) ops::copy_(values, vals);
  if (!idx.is_same(indices)) ops::copy_(indices, idx);
}

}  // namespace

void cummax_helper(const Tensor& self, const Tensor& values, const Tensor& indices, int64_t dim) {
  running_extreme<true>(self, values, indices, dim);
}
void cummin_helper(const Tensor& self, const Tensor& values, const Tensor& indices, int64_t dim) {
  running_extreme<false>(self, values, indices, dim);
}

// --- _logcumsumexp: out[k] = log(exp(x[0]) + ... + exp(x[k])) along dim, floating only --------

Tensor logcumsumexp_out_impl(const Tensor& self, int64_t dim, const Tensor& out) {
  const int64_t d = wrap_dim(dim, self.dim());
  resize_output(out, self.sizes());
  if (self.numel() == 0) return out;
  OPSCOPE_CHECK(is_floating(self.dtype()) && self.dtype() != ScalarType::Float16,
                "\"logcumsumexp_out_cpu\" not implemented for '", cpp_name(self.dtype()), "'");
  Tensor in = contiguous_if_needed(cast_if_needed(self, out.dtype()));
  Tensor result = out.is_contiguous() ? out : make_empty(self.sizes(), out.dtype());
  int64_t O = 1, R = 1, I = 1;
  for (int64_t k = 0; k < self.dim(); ++k) (k < d ? O : k == d ? R : I) *= self.size(k);
  dispatch_dtype(out.dtype(), "logcumsumexp_out_cpu", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) {
      using A = scan_acc_t<T>;
      const T* x = in.data_ptr<const T>();
      T* y = result.data_ptr<T>();
      parallel_for(0, O * I, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(R, 1)),
                   [&](int64_t b, int64_t e) {
                     for (int64_t line = b; line < e; ++line) {
                       const int64_t base = (line / I) * R * I + line % I;
                       A acc = -std::numeric_limits<A>::infinity();
                       for (int64_t r = 0; r < R; ++r) {
                         acc = special::log_add_exp(acc, static_cast<A>(x[base + r * I]));
                         y[base + r * I] = static_cast<T>(acc);
                       }
                     }
                   });
    }
  });
  if (!result.is_same(out)) ops::copy_(out, result);
  return out;
}
Tensor logcumsumexp_private(const Tensor& self, int64_t dim) {
  return logcumsumexp_out_impl(self, dim, make_empty(self.sizes(), self.dtype()));
}
Tensor logcumsumexp_private_out(const Tensor& self, int64_t dim, const Tensor& out) {
  return logcumsumexp_out_impl(self, dim, out);
}

static Library cpu_scan(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("cumsum", fn<&cumsum>);
  m.impl("cumsum.out", fn<&cumsum_out>);
  m.impl("cumsum_", fn<&cumsum_>);
  m.impl("cumprod", fn<&cumprod>);
  m.impl("cumprod.out", fn<&cumprod_out>);
  m.impl("cumprod_", fn<&cumprod_>);
  m.impl("_cummax_helper", fn<&cummax_helper>);
  m.impl("_cummin_helper", fn<&cummin_helper>);
  m.impl("_logcumsumexp", fn<&logcumsumexp_private>);
  m.impl("_logcumsumexp.out", fn<&logcumsumexp_private_out>);
});

}  // namespace opscope::cpu
