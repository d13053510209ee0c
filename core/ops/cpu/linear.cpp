// CPU kernels of dot, vdot, mv, mm, bmm, addmm, addmv, baddbmm and their out= / in-place forms
// (schemas in core/ops/linear.cpp, registered at the end of this file; the product engines are in
// core/ops/cpu/gemm.h).
//
// Checks follow torch 1.13 (LinearAlgebra.cpp, Blas.cpp) in order and wording. Which message a
// dtype mismatch gives depends on which operand torch reads first in its kernel:
//   mm   (addmm_impl_cpu_, result dtype = self's):  "expected scalar type <self> but found <mat2>"
//   mv   (addmv_impl_cpu, dispatched on self):       "expected scalar type <self> but found <vec>"
//   bmm  (result dtype = mat2's): K*M*N < 400 uses torch's small "bmm" kernel, dispatched on
//        self: "expected <self> but found <mat2>"; larger ones run addmm_impl_cpu_ per batch
//        entry: "expected <mat2> but found <self>"
//   dot  checks dims, then dtypes, then sizes, before any arithmetic.
//   addmm / addmv / baddbmm: the structured ops' meta checks first ("self and mat2 must have the
//        same dtype", "mat1 must be a matrix, got 1-D tensor", "size mismatch, got ..."), then
//        self is expanded (expand's errors), then the kernel's; baddbmm expands before any check.
// Empty results return before any dtype check; K = 0 gives zeros (through zero_, as torch), or
// beta * self for the add forms; beta = 0 never reads self.
//
// float32 / float64 go to OpenBLAS; see blas_layout for which strided operands it reads in
// place. Other dtypes (and torch's small-bmm path) use gemm_loop. (torch 1.13 has no float16
// CPU kernel for these ops — "addmm_impl_cpu_" not implemented for 'Half' — opscope computes
// them, accumulating in float.)
#include "core/ops/linear.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/factory_util.h"
#include "core/ops/cpu/gemm.h"
#include "core/ops/binary.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"

namespace opscope::cpu {

using namespace gemm;  // gemm_loop, gemm_blas and their operand types (core/ops/cpu/gemm.h)

namespace {

// --- checks and out= handling --------------------------------------------------------------

// The dtypes torch's kernel `name` has (all but bool; opscope adds float16).
void check_supported(ScalarType t, std::string_view name) {
  OPSCOPE_CHECK(t != ScalarType::Bool, "\"", name, "\" not implemented for '", cpp_name(t), "'");
}

// torch's resize_output: an out= tensor of another shape takes the result's shape (contiguous),
// keeping its storage when large enough.
void resize_out(const Tensor& out, IntArrayRef sizes) {
  if (std::ranges::equal(out.sizes(), sizes)) return;
  TensorImpl* impl = out.impl();
  int64_t numel = compute_numel(sizes);
  size_t itemsize = impl->itemsize();
  int64_t offset = impl->storage_offset();
  if (impl->storage()->nbytes() < static_cast<size_t>(offset + numel) * itemsize) {
    impl->set_storage(make_intrusive<StorageImpl>(static_cast<size_t>(numel) * itemsize,
                                                  get_allocator(out.device().type)));
    offset = 0;
  }
  impl->set_geometry(sizes, contiguous_strides(sizes), offset);
}

bool is_zero(const Scalar& s) {
  return s.to_double() == 0.0;
}

// --- shared bodies -------------------------------------------------------------------------------

// result (M,N) = beta * self + alpha * m1 (M,K) · m2 (K,N): torch's addmm_impl_cpu_. self is
// result's shape already (expanded), or result itself; beta = 0 never reads it.
void addmm_impl(const Tensor& result, const Tensor& self, const Tensor& m1, const Tensor& m2,
                const Scalar& beta, const Scalar& alpha) {
  if (result.numel() == 0) return;
  if (m1.size(1) == 0) {  // K = 0: beta * self
    if (is_zero(beta)) {
      ops::zero_(result);
    } else {
      if (!self.is_same(result)) ops::copy_(result, self);
      ops::mul_(result, beta);
    }
    return;
  }
  if (!is_zero(beta) && !self.is_same(result)) ops::copy_(result, self);
  ScalarType R = result.dtype();
  check_supported(R, "addmm_impl_cpu_");
  check_read_as(R, m2.dtype());
  check_read_as(R, m1.dtype());
  dispatch_dtype(R, "addmm_impl_cpu_", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      gemm_blas<T>(result, m1, m2, alpha.to<T>(), beta.to<T>());
    } else if constexpr (!std::is_same_v<T, bool>) {
      Tensor r = result;
      gemm_loop<T>(1, m1.size(0), m2.size(1), m1.size(1), strided2<T>(m1), strided2<T>(m2),
                   {r.data_ptr<T>(), 0, r.stride(0), r.stride(1)}, to_acc<T>(alpha),
                   to_acc<T>(beta));
    }
  });
}

// result (M) = beta * self + alpha * mat (M,K) · vec (K): torch's addmv_out_cpu. self is (M)
// already (expanded), or result itself; beta = 0 never reads it.
void addmv_impl(const Tensor& result, const Tensor& self, const Tensor& mat, const Tensor& vec,
                const Scalar& beta, const Scalar& alpha) {
  if (mat.numel() == 0) {
    if (is_zero(beta)) {
      ops::zero_(result);
    } else {
      if (!self.is_same(result)) ops::copy_(result, self);
      ops::mul_(result, beta);
    }
    return;
  }
  if (!is_zero(beta) && !self.is_same(result)) ops::copy_(result, self);
  if (result.numel() == 0) return;
  ScalarType R = mat.dtype();
  check_supported(R, "addmv_impl_cpu");
  check_read_as(R, vec.dtype());
  check_read_as(R, result.dtype());
  int64_t M = mat.size(0), K = mat.size(1);
  dispatch_dtype(R, "addmv_impl_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      auto la = blas_layout(M, K, mat.stride(0), mat.stride(1));
      Tensor A = la ? mat : ops::clone(mat, ops::kContiguousFormat);
      if (!la) la = blas_layout(M, K, A.stride(0), A.stride(1));
      Tensor x = vec.stride(0) > 0 || K == 1 ? vec : ops::clone(vec, ops::kContiguousFormat);
      int64_t incx = K == 1 ? 1 : x.stride(0);
      T a = alpha.to<T>(), b = beta.to<T>();
      Tensor y = result.stride(0) > 0 || M == 1 ? result
                 : b == T(0)                    ? make_empty(std::array<int64_t, 1>{M}, R)
                                                : ops::clone(result, ops::kContiguousFormat);
      int64_t incy = M == 1 ? 1 : y.stride(0);
      OPSCOPE_CHECK(fits_blas(M) && fits_blas(K) && fits_blas(incx) && fits_blas(incy),
                    "mv: sizes too large for BLAS");
      auto i = [](int64_t v) { return static_cast<int>(v); };
      // Trans: the matrix BLAS sees is A^T (K,M) row-major; it multiplies by its transpose, A.
      bool nt = la->trans == blas::NoTrans;
      if constexpr (std::is_same_v<T, float>)
        blas::sgemv(blas::RowMajor, la->trans, i(nt ? M : K), i(nt ? K : M), a, A.data_ptr<float>(),
                    i(la->ld), x.data_ptr<float>(), i(incx), b, y.data_ptr<float>(), i(incy));
      else
        blas::dgemv(blas::RowMajor, la->trans, i(nt ? M : K), i(nt ? K : M), a,
                    A.data_ptr<double>(), i(la->ld), x.data_ptr<double>(), i(incx), b,
                    y.data_ptr<double>(), i(incy));
      if (!y.is_same(result)) ops::copy_(result, y);
    } else if constexpr (!std::is_same_v<T, bool>) {
      // A matrix-matrix product with N = 1: vec is a (K,1) column, result an (M,1) column.
      Tensor r = result;
      gemm_loop<T>(1, M, 1, K, strided2<T>(mat), {vec.data_ptr<const T>(), 0, vec.stride(0), 0},
                   {r.data_ptr<T>(), 0, r.stride(0), 0}, to_acc<T>(alpha), to_acc<T>(beta));
    }
  });
}

// result (B,M,N) = beta * result + alpha * batch1 (B,M,K) · batch2 (B,K,N): torch's
// bmm_out_or_baddbmm_ (for baddbmm, result holds self already unless beta = 0; bmm: beta = 0).
void bmm_impl(const Tensor& result, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
              const Scalar& alpha, bool is_bmm) {
  int64_t B = batch1.size(0), M = batch1.size(1), K = batch1.size(2), N = batch2.size(2);
  if (result.numel() == 0) return;
  if (K == 0) {
    if (is_bmm || is_zero(beta))
      ops::zero_(result);
    else
      ops::mul_(result, beta);
    return;
  }
  if (K * M * N < 400) {
    // torch's baddbmm_cpu_kernel: dispatched on batch1, reads the result as batch1's type.
    const char* name = is_bmm ? "bmm" : "baddbmm";
    check_supported(batch1.dtype(), name);
    check_read_as(batch1.dtype(), result.dtype());
    check_read_as(batch1.dtype(), batch2.dtype());
    dispatch_dtype(batch1.dtype(), name, [&]<typename T>() {
      if constexpr (!std::is_same_v<T, bool>) {
        Tensor r = result;
        gemm_loop<T>(B, M, N, K, strided3<T>(batch1), strided3<T>(batch2),
                     {r.data_ptr<T>(), r.stride(0), r.stride(1), r.stride(2)}, to_acc<T>(alpha),
                     to_acc<T>(beta));
      }
    });
    return;
  }
  ScalarType R = result.dtype();
  if (is_bmm) {  // addmm_impl_cpu_ per batch entry
    check_supported(R, "addmm_impl_cpu_");
    check_read_as(R, batch2.dtype());
    check_read_as(R, batch1.dtype());
  } else {  // addmm_ per batch entry: its checks
    OPSCOPE_CHECK(batch1.dtype() == batch2.dtype(), "mat1 and mat2 must have the same dtype");
    check_supported(R, "addmm_impl_cpu_");
  }
  dispatch_dtype(R, "addmm_impl_cpu_", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      for (int64_t b = 0; b < B; ++b) {
        check_interrupt();  // between the entries' products: Note [Interrupting long ops]
        Tensor r = make_view(result, std::array<int64_t, 2>{M, N},
                             std::array<int64_t, 2>{result.stride(1), result.stride(2)},
                             result->storage_offset() + b * result.stride(0));
        Tensor a = make_view(batch1, std::array<int64_t, 2>{M, K},
                             std::array<int64_t, 2>{batch1.stride(1), batch1.stride(2)},
                             batch1->storage_offset() + b * batch1.stride(0));
        Tensor m = make_view(batch2, std::array<int64_t, 2>{K, N},
                             std::array<int64_t, 2>{batch2.stride(1), batch2.stride(2)},
                             batch2->storage_offset() + b * batch2.stride(0));
        gemm_blas<T>(r, a, m, alpha.to<T>(), beta.to<T>());
      }
    } else if constexpr (!std::is_same_v<T, bool>) {
      Tensor r = result;
      gemm_loop<T>(B, M, N, K, strided3<T>(batch1), strided3<T>(batch2),
                   {r.data_ptr<T>(), r.stride(0), r.stride(1), r.stride(2)}, to_acc<T>(alpha),
                   to_acc<T>(beta));
    }
  });
}

// torch's expand_size: self as the given shape (expand's errors), itself when it has it.
Tensor expand_size(const Tensor& self, IntArrayRef sizes) {
  return std::ranges::equal(self.sizes(), sizes) ? self : ops::expand(self, sizes);
}

// baddbmm's result shape, read as torch reads it (before checking the dims).
std::array<int64_t, 3> baddbmm_sizes(const Tensor& batch1, const Tensor& batch2) {
  return {batch1.size(0), batch1.size(1), batch2.size(2)};
}

}  // namespace

// --- kernels -------------------------------------------------------------------------------------

// self (K), tensor (K) -> ()
Tensor dot(const Tensor& self, const Tensor& tensor) {
  checks::dot_args(self, tensor);
  ScalarType R = self.dtype();
  check_supported(R, "dot");
  Tensor result = make_empty({}, R, self.device());
  int64_t K = self.numel();
  dispatch_dtype(R, "dot", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      int64_t incx = self.stride(0), incy = tensor.stride(0);
      T value = 0;
      if (K > 0 && fits_blas(K) && incx > 0 && fits_blas(incx) && incy > 0 && fits_blas(incy)) {
        if constexpr (std::is_same_v<T, float>)
          value = blas::sdot(static_cast<int>(K), self.data_ptr<float>(), static_cast<int>(incx),
                             tensor.data_ptr<float>(), static_cast<int>(incy));
        else
          value = blas::ddot(static_cast<int>(K), self.data_ptr<double>(), static_cast<int>(incx),
                             tensor.data_ptr<double>(), static_cast<int>(incy));
        *result.data_ptr<T>() = value;
        return;
      }
    }
    if constexpr (!std::is_same_v<T, bool>) {
      // A (1,K) row times a (K,1) column.
      gemm_loop<T>(1, 1, 1, K, {self.data_ptr<const T>(), 0, 0, self.stride(0)},
                   {tensor.data_ptr<const T>(), 0, tensor.stride(0), 0},
                   {result.data_ptr<T>(), 0, 0, 0});
    }
  });
  return result;
}

// dot into out: resized to (), dtype must be self's.
Tensor dot_out(const Tensor& self, const Tensor& tensor, const Tensor& out) {
  resize_out(out, {});
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "result dtype ", cpp_name(out.dtype()),
                " does not match input dtype ", cpp_name(self.dtype()));
  return ops::fill_(out, ops::dot(self, tensor));
}

// self (K), other (K) -> (): real dtypes only, so vdot is dot (and the trace shows it).
Tensor vdot(const Tensor& self, const Tensor& other) {
  return ops::dot(self, other);
}

Tensor vdot_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  resize_out(out, {});
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "result dtype ", cpp_name(out.dtype()),
                " does not match input dtype ", cpp_name(self.dtype()));
  return ops::fill_(out, ops::vdot(self, other));
}

// self (M,K), vec (K) -> (M)
Tensor mv(const Tensor& self, const Tensor& vec) {
  checks::mv_args(self, vec);
  Tensor result = make_empty(std::array<int64_t, 1>{self.size(0)}, self.dtype(), self.device());
  addmv_impl(result, result, self, vec, 0, 1);
  return result;
}

Tensor mv_out(const Tensor& self, const Tensor& vec, const Tensor& out) {
  checks::mv_args(self, vec);
  checks::out_dtype(out, vec.dtype());  // torch's addmv sets its output from vec's options
  resize_out(out, std::array<int64_t, 1>{self.size(0)});
  addmv_impl(out, out, self, vec, 0, 1);
  return out;
}

// self (M,K), mat2 (K,N) -> (M,N)
Tensor mm(const Tensor& self, const Tensor& mat2) {
  checks::mm_args(self, mat2);
  Tensor result =
      make_empty(std::array<int64_t, 2>{self.size(0), mat2.size(1)}, self.dtype(), self.device());
  addmm_impl(result, result, self, mat2, 0, 1);
  return result;
}

Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  checks::mm_args(self, mat2);
  checks::out_dtype(out, self.dtype());
  resize_out(out, std::array<int64_t, 2>{self.size(0), mat2.size(1)});
  addmm_impl(out, out, self, mat2, 0, 1);
  return out;
}

// self (B,M,K), mat2 (B,K,N) -> (B,M,N) in mat2's dtype
Tensor bmm(const Tensor& self, const Tensor& mat2) {
  checks::bmm_args(self, mat2);
  Tensor result = make_empty(std::array<int64_t, 3>{self.size(0), self.size(1), mat2.size(2)},
                             mat2.dtype(), mat2.device());
  bmm_impl(result, self, mat2, 0, 1, /*is_bmm=*/true);
  return result;
}

Tensor bmm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  checks::bmm_args(self, mat2);
  checks::out_dtype(out, mat2.dtype());
  resize_out(out, std::array<int64_t, 3>{self.size(0), self.size(1), mat2.size(2)});
  bmm_impl(out, self, mat2, 0, 1, /*is_bmm=*/true);
  return out;
}

// self broadcastable to (M,N), mat1 (M,K), mat2 (K,N) -> beta * self + alpha * mat1 · mat2 (M,N)
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  checks::addmm_args(self, mat1, mat2);
  std::array<int64_t, 2> sizes{mat1.size(0), mat2.size(1)};
  Tensor result = make_empty(sizes, self.dtype(), self.device());
  addmm_impl(result, expand_size(self, sizes), mat1, mat2, beta, alpha);
  return result;
}

Tensor addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                 const Scalar& alpha, const Tensor& out) {
  checks::addmm_args(self, mat1, mat2);
  std::array<int64_t, 2> sizes{mat1.size(0), mat2.size(1)};
  checks::out_dtype(out, self.dtype());
  resize_out(out, sizes);
  addmm_impl(out, self.is_same(out) ? out : expand_size(self, sizes), mat1, mat2, beta, alpha);
  return out;
}

// self (M,N) += ...: self is the result.
Tensor addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
              const Scalar& alpha) {
  checks::addmm_args(self, mat1, mat2);
  checks::inplace_result(self, std::array<int64_t, 2>{mat1.size(0), mat2.size(1)},
                         self.dtype());
  addmm_impl(self, self, mat1, mat2, beta, alpha);
  return self;
}

// self (M) or (1) or (), mat (M,K), vec (K) -> beta * self + alpha * mat · vec (M), vec's dtype
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
             const Scalar& alpha) {
  checks::addmv_args(self, mat, vec);
  std::array<int64_t, 1> sizes{mat.size(0)};
  Tensor result = make_empty(sizes, vec.dtype(), vec.device());
  addmv_impl(result, expand_size(self, sizes), mat, vec, beta, alpha);
  return result;
}

Tensor addmv_out(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                 const Scalar& alpha, const Tensor& out) {
  checks::addmv_args(self, mat, vec);
  std::array<int64_t, 1> sizes{mat.size(0)};
  checks::out_dtype(out, vec.dtype());
  resize_out(out, sizes);
  addmv_impl(out, self.is_same(out) ? out : expand_size(self, sizes), mat, vec, beta, alpha);
  return out;
}

Tensor addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
              const Scalar& alpha) {
  checks::addmv_args(self, mat, vec);
  checks::inplace_result(self, std::array<int64_t, 1>{mat.size(0)}, vec.dtype());
  addmv_impl(self, self, mat, vec, beta, alpha);
  return self;
}

// self broadcastable to (B,M,N), batch1 (B,M,K), batch2 (B,K,N) -> (B,M,N) in batch2's dtype
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  Tensor b_self = expand_size(self, baddbmm_sizes(batch1, batch2));  // torch expands first
  checks::bmm_args(batch1, batch2);
  Tensor result = make_empty(baddbmm_sizes(batch1, batch2), batch2.dtype(), batch2.device());
  if (!is_zero(beta)) ops::copy_(result, b_self);
  bmm_impl(result, batch1, batch2, beta, alpha, /*is_bmm=*/false);
  return result;
}

Tensor baddbmm_out(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                   const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  Tensor b_self = expand_size(self, baddbmm_sizes(batch1, batch2));
  checks::bmm_args(batch1, batch2);
  checks::out_dtype(out, batch2.dtype());
  resize_out(out, baddbmm_sizes(batch1, batch2));
  if (!is_zero(beta) && !self.is_same(out)) ops::copy_(out, b_self);
  bmm_impl(out, batch1, batch2, beta, alpha, /*is_bmm=*/false);
  return out;
}

Tensor baddbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                const Scalar& alpha) {
  expand_size(self, baddbmm_sizes(batch1, batch2));
  checks::bmm_args(batch1, batch2);
  checks::inplace_result(self, baddbmm_sizes(batch1, batch2), batch2.dtype());
  bmm_impl(self, batch1, batch2, beta, alpha, /*is_bmm=*/false);
  return self;
}

static Library cpu_linear(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("dot", fn<&dot>);
  m.impl("dot.out", fn<&dot_out>);
  m.impl("vdot", fn<&vdot>);
  m.impl("vdot.out", fn<&vdot_out>);
  m.impl("mv", fn<&mv>);
  m.impl("mv.out", fn<&mv_out>);
  m.impl("mm", fn<&mm>);
  m.impl("mm.out", fn<&mm_out>);
  m.impl("bmm", fn<&bmm>);
  m.impl("bmm.out", fn<&bmm_out>);
  m.impl("addmm", fn<&addmm>);
  m.impl("addmm.out", fn<&addmm_out>);
  m.impl("addmm_", fn<&addmm_>);
  m.impl("addmv", fn<&addmv>);
  m.impl("addmv.out", fn<&addmv_out>);
  m.impl("addmv_", fn<&addmv_>);
  m.impl("baddbmm", fn<&baddbmm>);
  m.impl("baddbmm.out", fn<&baddbmm_out>);
  m.impl("baddbmm_", fn<&baddbmm_>);
});

}  // namespace opscope::cpu
