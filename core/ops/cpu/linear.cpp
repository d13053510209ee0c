// CPU kernels of dot, vdot, mv, mm, bmm and their out= forms (declared and registered in
// core/ops/linear.cpp).
//
// Checks follow torch 1.13 (LinearAlgebra.cpp, Blas.cpp) in order and wording. Which message a
// dtype mismatch gives depends on which operand torch reads first in its kernel:
//   mm   (addmm_impl_cpu_, result dtype = self's):  "expected scalar type <self> but found <mat2>"
//   mv   (addmv_impl_cpu, dispatched on self):       "expected scalar type <self> but found <vec>"
//   bmm  (result dtype = mat2's): K*M*N < 400 uses torch's small "bmm" kernel, dispatched on
//        self: "expected <self> but found <mat2>"; larger ones run addmm_impl_cpu_ per batch
//        entry: "expected <mat2> but found <self>"
//   dot  checks dims, then dtypes, then sizes, before any arithmetic.
// Empty results return before any dtype check; K = 0 gives zeros (through zero_, as torch).
//
// float32 / float64 go to OpenBLAS; see blas_layout for which strided operands it reads in
// place. Other dtypes (and torch's small-bmm path) use gemm_loop. (torch 1.13 has no float16
// CPU kernel for these ops — "addmm_impl_cpu_" not implemented for 'Half' — opscope computes
// them, accumulating in float.)
#include <algorithm>
#include <climits>
#include <vector>

#include <cblas.h>

#include "core/runtime/Parallel.h"

#include "core/ops/copy.h"
#include "core/ops/cpu/factory_util.h"
#include "core/ops/linear.h"

namespace opscope::cpu {

namespace {

// --- checks and out= handling --------------------------------------------------------------

// The c10 data_ptr<T>() check: an operand read as the kernel's type T.
void check_read_as(ScalarType expected, ScalarType found) {
  OPSCOPE_CHECK(expected == found, "expected scalar type ", cpp_name(expected), " but found ",
                cpp_name(found));
}

// The dtypes torch's kernel `name` has (all but bool; opscope adds float16).
void check_supported(ScalarType t, std::string_view name) {
  OPSCOPE_CHECK(t != ScalarType::Bool, "\"", name, "\" not implemented for '", cpp_name(t), "'");
}

// A structured out= kernel's dtype check.
void check_out_dtype(const Tensor& out, ScalarType expected) {
  OPSCOPE_CHECK(out.dtype() == expected, "Expected out tensor to have dtype ",
                typemeta_name(expected), ", but got ",
                typemeta_name(out.dtype()), " instead");
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

// --- the loop kernel -----------------------------------------------------------------------------

// Accumulator of gemm_loop: float for half / bfloat16, uint64 for integers (wrap-around
// arithmetic, so int8 100*100*3 is 48 as in torch, without signed overflow), T otherwise.
template <typename T>
using loop_acc_t = std::conditional_t<
    std::is_integral_v<T>, uint64_t,
    std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>>;

// A matrix operand as strided memory: element (b, r, c) at data[b*sb + r*s0 + c*s1].
template <typename T>
struct Strided {
  T* data;
  int64_t sb, s0, s1;
  T& at(int64_t b, int64_t r, int64_t c) const { return data[b * sb + r * s0 + c * s1]; }
};

// C[b] (M,N) = A[b] (M,K) · B[b] (K,N) for b < batch, i-k-j order: each row of C is built in a
// row of accumulators while the rows of B stream past. Rows are split between threads.
template <typename T>
void gemm_loop(int64_t batch, int64_t M, int64_t N, int64_t K, Strided<const T> A,
               Strided<const T> B, Strided<T> C) {
  using Acc = loop_acc_t<T>;
  int64_t rows = batch * M;
  // Threads only above ~1M multiply-adds: a grain of that many rows' worth of work.
  int64_t grain = std::max<int64_t>(1, (int64_t(1) << 20) / std::max<int64_t>(N * K, 1));
  parallel_for(0, rows, grain, [&](int64_t first, int64_t last) {
    std::vector<Acc> acc(static_cast<size_t>(N));
    for (int64_t row = first; row < last; ++row) {
      int64_t b = row / M, i = row % M;
      std::fill(acc.begin(), acc.end(), Acc(0));
      for (int64_t k = 0; k < K; ++k) {
        Acc a = static_cast<Acc>(A.at(b, i, k));
        const T* brow = &B.at(b, k, 0);
        if (B.s1 == 1) {
          for (int64_t j = 0; j < N; ++j) acc[j] += a * static_cast<Acc>(brow[j]);
        } else {
          for (int64_t j = 0; j < N; ++j) acc[j] += a * static_cast<Acc>(brow[j * B.s1]);
        }
      }
      for (int64_t j = 0; j < N; ++j) C.at(b, i, j) = static_cast<T>(acc[j]);
    }
  });
}

template <typename T>
Strided<const T> strided3(const Tensor& t) {  // (B, R, C)
  return {t.data_ptr<const T>(), t.stride(0), t.stride(1), t.stride(2)};
}
template <typename T>
Strided<const T> strided2(const Tensor& t) {  // (R, C) as one batch entry
  return {t.data_ptr<const T>(), 0, t.stride(0), t.stride(1)};
}

// --- BLAS
// ------------------------------------------------------------------------------------------

bool fits_blas(int64_t v) {
  return v >= 0 && v <= INT_MAX;
}

// How BLAS can read a (rows, cols) operand with strides (s0, s1) in place, if it can:
//   row-major:    element (r, c) at r*ld + c  -> NoTrans, ld = s0   (needs s1 == 1, ld >= cols)
//   column-major: element (r, c) at r + c*ld  -> Trans,   ld = s1   (needs s0 == 1, ld >= rows)
// A dim of size 1 never moves, so its stride is free. Anything else (expanded, sliced with a
// step) is cloned to row-major first.
struct BlasLayout {
  CBLAS_TRANSPOSE trans;
  int64_t ld;
};
std::optional<BlasLayout> blas_layout(int64_t rows, int64_t cols, int64_t s0, int64_t s1) {
  std::optional<BlasLayout> r;
  if ((cols == 1 || s1 == 1) && (rows == 1 || s0 >= std::max<int64_t>(1, cols)))
    r = BlasLayout{CblasNoTrans, rows == 1 ? std::max<int64_t>(1, cols) : s0};
  else if ((rows == 1 || s0 == 1) && (cols == 1 || s1 >= std::max<int64_t>(1, rows)))
    r = BlasLayout{CblasTrans, cols == 1 ? std::max<int64_t>(1, rows) : s1};
  if (r && !fits_blas(r->ld)) r.reset();
  return r;
}
CBLAS_TRANSPOSE flip(CBLAS_TRANSPOSE t) {
  return t == CblasNoTrans ? CblasTrans : CblasNoTrans;
}

template <typename T>
void cblas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t M, int64_t N, int64_t K, const T* A,
                int64_t lda, const T* B, int64_t ldb, T* C, int64_t ldc) {
  auto i = [](int64_t v) { return static_cast<blasint>(v); };
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, ta, tb, i(M), i(N), i(K), 1.0f, A, i(lda), B, i(ldb), 0.0f, C,
                i(ldc));
  else
    cblas_dgemm(CblasRowMajor, ta, tb, i(M), i(N), i(K), 1.0, A, i(lda), B, i(ldb), 0.0, C, i(ldc));
}

// result (M,N) = a (M,K) · b (K,N) on BLAS, a and b 2-D views of one batch entry.
template <typename T>
void gemm_blas(const Tensor& result, const Tensor& a, const Tensor& b) {
  int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  OPSCOPE_CHECK(fits_blas(M) && fits_blas(N) && fits_blas(K), "mm: sizes ", M, "x", K, " and ", K,
                "x", N, " are too large for BLAS");
  Tensor A = a, B = b;
  auto la = blas_layout(M, K, A.stride(0), A.stride(1));
  if (!la) {
    A = ops::clone(a, ops::kContiguousFormat);
    la = blas_layout(M, K, A.stride(0), A.stride(1));
  }
  auto lb = blas_layout(K, N, B.stride(0), B.stride(1));
  if (!lb) {
    B = ops::clone(b, ops::kContiguousFormat);
    lb = blas_layout(K, N, B.stride(0), B.stride(1));
  }
  auto lc = blas_layout(M, N, result.stride(0), result.stride(1));
  if (lc && lc->trans == CblasNoTrans) {
    cblas_gemm<T>(la->trans, lb->trans, M, N, K, A.data_ptr<T>(), la->ld, B.data_ptr<T>(), lb->ld,
                  result.data_ptr<T>(), lc->ld);
  } else if (lc) {
    // A column-major result: compute its transpose, C^T (N,M) = B^T · A^T, row-major.
    cblas_gemm<T>(flip(lb->trans), flip(la->trans), N, M, K, B.data_ptr<T>(), lb->ld,
                  A.data_ptr<T>(), la->ld, result.data_ptr<T>(), lc->ld);
  } else {
    Tensor tmp = make_empty(std::array<int64_t, 2>{M, N}, result.dtype(), result.device());
    cblas_gemm<T>(la->trans, lb->trans, M, N, K, A.data_ptr<T>(), la->ld, B.data_ptr<T>(), lb->ld,
                  tmp.data_ptr<T>(), std::max<int64_t>(N, 1));
    ops::copy_(result, tmp);
  }
}

// --- shared bodies -------------------------------------------------------------------------------

// result (M,N) = m1 (M,K) · m2 (K,N): torch's addmm_impl_cpu_ with beta = 0, alpha = 1.
void addmm_impl(const Tensor& result, const Tensor& m1, const Tensor& m2) {
  if (result.numel() == 0) return;
  if (m1.size(1) == 0) {
    ops::zero_(result);
    return;
  }
  ScalarType R = result.dtype();
  check_supported(R, "addmm_impl_cpu_");
  check_read_as(R, m2.dtype());
  check_read_as(R, m1.dtype());
  dispatch_dtype(R, "addmm_impl_cpu_", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      gemm_blas<T>(result, m1, m2);
    } else if constexpr (!std::is_same_v<T, bool>) {
      Tensor r = result;
      gemm_loop<T>(1, m1.size(0), m2.size(1), m1.size(1), strided2<T>(m1), strided2<T>(m2),
                   {r.data_ptr<T>(), 0, r.stride(0), r.stride(1)});
    }
  });
}

void check_mm_args(const Tensor& self, const Tensor& mat2) {
  OPSCOPE_CHECK(self.dim() == 2, "self must be a matrix");
  OPSCOPE_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  OPSCOPE_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
                self.size(0), "x", self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

// The checks of torch's mv, which adds into a fresh (M) vector through addmv: so the first dim
// torch's message reports is always 1.
void check_mv_args(const Tensor& self, const Tensor& vec) {
  OPSCOPE_CHECK_INDEX(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  OPSCOPE_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ",
                self.dim(), ", ", vec.dim());
  OPSCOPE_CHECK(self.size(1) == vec.size(0), "size mismatch, got ", self.size(0), ", ",
                self.size(0), "x", self.size(1), ",", vec.size(0));
}

// result (M) = self (M,K) · vec (K): torch's addmv_out_cpu with beta = 0.
void addmv_impl(const Tensor& result, const Tensor& self, const Tensor& vec) {
  if (self.numel() == 0) {
    ops::zero_(result);
    return;
  }
  ScalarType R = self.dtype();
  check_supported(R, "addmv_impl_cpu");
  check_read_as(R, vec.dtype());
  check_read_as(R, result.dtype());
  int64_t M = self.size(0), K = self.size(1);
  dispatch_dtype(R, "addmv_impl_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      auto la = blas_layout(M, K, self.stride(0), self.stride(1));
      Tensor A = la ? self : ops::clone(self, ops::kContiguousFormat);
      if (!la) la = blas_layout(M, K, A.stride(0), A.stride(1));
      Tensor x = vec.stride(0) > 0 || K == 1 ? vec : ops::clone(vec, ops::kContiguousFormat);
      int64_t incx = K == 1 ? 1 : x.stride(0);
      Tensor y = result.stride(0) > 0 || M == 1 ? result : make_empty(std::array<int64_t, 1>{M}, R);
      int64_t incy = M == 1 ? 1 : y.stride(0);
      OPSCOPE_CHECK(fits_blas(M) && fits_blas(K) && fits_blas(incx) && fits_blas(incy),
                    "mv: sizes too large for BLAS");
      auto i = [](int64_t v) { return static_cast<blasint>(v); };
      // Trans: the matrix BLAS sees is A^T (K,M) row-major; it multiplies by its transpose, A.
      bool nt = la->trans == CblasNoTrans;
      if constexpr (std::is_same_v<T, float>)
        cblas_sgemv(CblasRowMajor, la->trans, i(nt ? M : K), i(nt ? K : M), 1.0f,
                    A.data_ptr<float>(), i(la->ld), x.data_ptr<float>(), i(incx), 0.0f,
                    y.data_ptr<float>(), i(incy));
      else
        cblas_dgemv(CblasRowMajor, la->trans, i(nt ? M : K), i(nt ? K : M), 1.0,
                    A.data_ptr<double>(), i(la->ld), x.data_ptr<double>(), i(incx), 0.0,
                    y.data_ptr<double>(), i(incy));
      if (!y.is_same(result)) ops::copy_(result, y);
    } else if constexpr (!std::is_same_v<T, bool>) {
      // A matrix-matrix product with N = 1: vec is a (K,1) column, result an (M,1) column.
      Tensor r = result;
      gemm_loop<T>(1, M, 1, K, strided2<T>(self), {vec.data_ptr<const T>(), 0, vec.stride(0), 0},
                   {r.data_ptr<T>(), 0, r.stride(0), 0});
    }
  });
}

// result (B,M,N) = batch1 (B,M,K) · batch2 (B,K,N): torch's bmm_out_or_baddbmm_.
void bmm_impl(const Tensor& result, const Tensor& batch1, const Tensor& batch2) {
  int64_t B = batch1.size(0), M = batch1.size(1), K = batch1.size(2), N = batch2.size(2);
  if (result.numel() == 0) return;
  if (K == 0) {
    ops::zero_(result);
    return;
  }
  if (K * M * N < 400) {
    // torch's baddbmm_cpu_kernel: dispatched on batch1, reads the result as batch1's type.
    check_supported(batch1.dtype(), "bmm");
    check_read_as(batch1.dtype(), result.dtype());
    check_read_as(batch1.dtype(), batch2.dtype());
    dispatch_dtype(batch1.dtype(), "bmm", [&]<typename T>() {
      if constexpr (!std::is_same_v<T, bool>) {
        Tensor r = result;
        gemm_loop<T>(B, M, N, K, strided3<T>(batch1), strided3<T>(batch2),
                     {r.data_ptr<T>(), r.stride(0), r.stride(1), r.stride(2)});
      }
    });
    return;
  }
  ScalarType R = result.dtype();
  check_supported(R, "addmm_impl_cpu_");
  check_read_as(R, batch2.dtype());
  check_read_as(R, batch1.dtype());
  dispatch_dtype(R, "addmm_impl_cpu_", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      for (int64_t b = 0; b < B; ++b) {
        Tensor r = make_view(result, std::array<int64_t, 2>{M, N},
                             std::array<int64_t, 2>{result.stride(1), result.stride(2)},
                             result->storage_offset() + b * result.stride(0));
        Tensor a = make_view(batch1, std::array<int64_t, 2>{M, K},
                             std::array<int64_t, 2>{batch1.stride(1), batch1.stride(2)},
                             batch1->storage_offset() + b * batch1.stride(0));
        Tensor m = make_view(batch2, std::array<int64_t, 2>{K, N},
                             std::array<int64_t, 2>{batch2.stride(1), batch2.stride(2)},
                             batch2->storage_offset() + b * batch2.stride(0));
        gemm_blas<T>(r, a, m);
      }
    } else if constexpr (!std::is_same_v<T, bool>) {
      Tensor r = result;
      gemm_loop<T>(B, M, N, K, strided3<T>(batch1), strided3<T>(batch2),
                   {r.data_ptr<T>(), r.stride(0), r.stride(1), r.stride(2)});
    }
  });
}

void check_bmm_args(const Tensor& batch1, const Tensor& batch2) {
  OPSCOPE_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  OPSCOPE_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  int64_t bs = batch1.size(0), contraction = batch1.size(2);
  OPSCOPE_CHECK(batch2.size(0) == bs && batch2.size(1) == contraction,
                "Expected size for first two dimensions of batch2 tensor to be: [", bs, ", ",
                contraction, "] but got: [", batch2.size(0), ", ", batch2.size(1), "].");
}

void check_dot_args(const Tensor& self, const Tensor& other) {
  OPSCOPE_CHECK(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got ", self.dim(),
                "D and ", other.dim(), "D tensors");
  OPSCOPE_CHECK(self.dtype() == other.dtype(),
                "dot : expected both vectors to have same dtype, but found ",
                cpp_name(self.dtype()), " and ", cpp_name(other.dtype()));
  OPSCOPE_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [",
                self.numel(), "] and src [", other.numel(),
                "] to have the same number of elements, but got ", self.numel(), " and ",
                other.numel(), " elements respectively");
}

}  // namespace

// --- kernels
// ---------------------------------------------------------------------------------------

// self (K), tensor (K) -> ()
Tensor dot(const Tensor& self, const Tensor& tensor) {
  check_dot_args(self, tensor);
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
          value = cblas_sdot(static_cast<blasint>(K), self.data_ptr<float>(),
                             static_cast<blasint>(incx), tensor.data_ptr<float>(),
                             static_cast<blasint>(incy));
        else
          value = cblas_ddot(static_cast<blasint>(K), self.data_ptr<double>(),
                             static_cast<blasint>(incx), tensor.data_ptr<double>(),
                             static_cast<blasint>(incy));
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
  check_mv_args(self, vec);
  Tensor result = make_empty(std::array<int64_t, 1>{self.size(0)}, self.dtype(), self.device());
  addmv_impl(result, self, vec);
  return result;
}

Tensor mv_out(const Tensor& self, const Tensor& vec, const Tensor& out) {
  check_mv_args(self, vec);
  check_out_dtype(out, vec.dtype());  // torch's addmv sets its output from vec's options
  resize_out(out, std::array<int64_t, 1>{self.size(0)});
  addmv_impl(out, self, vec);
  return out;
}

// self (M,K), mat2 (K,N) -> (M,N)
Tensor mm(const Tensor& self, const Tensor& mat2) {
  check_mm_args(self, mat2);
  Tensor result =
      make_empty(std::array<int64_t, 2>{self.size(0), mat2.size(1)}, self.dtype(), self.device());
  addmm_impl(result, self, mat2);
  return result;
}

Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_mm_args(self, mat2);
  check_out_dtype(out, self.dtype());
  resize_out(out, std::array<int64_t, 2>{self.size(0), mat2.size(1)});
  addmm_impl(out, self, mat2);
  return out;
}

// self (B,M,K), mat2 (B,K,N) -> (B,M,N) in mat2's dtype
Tensor bmm(const Tensor& self, const Tensor& mat2) {
  check_bmm_args(self, mat2);
  Tensor result = make_empty(std::array<int64_t, 3>{self.size(0), self.size(1), mat2.size(2)},
                             mat2.dtype(), mat2.device());
  bmm_impl(result, self, mat2);
  return result;
}

Tensor bmm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_bmm_args(self, mat2);
  check_out_dtype(out, mat2.dtype());
  resize_out(out, std::array<int64_t, 3>{self.size(0), self.size(1), mat2.size(2)});
  bmm_impl(out, self, mat2);
  return out;
}

}  // namespace opscope::cpu
