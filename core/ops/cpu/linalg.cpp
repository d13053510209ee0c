// CPU kernels of the factorizations (linalg_inv_ex, _linalg_det, _linalg_slogdet,
// _linalg_solve_ex, linalg_cholesky_ex, cholesky, linalg_qr, _linalg_eigh, _linalg_svd), of
// the triangular solve (linalg_solve_triangular, on BLAS trsm), of least squares (linalg_lstsq)
// and of linalg_cross (schemas in core/ops/linalg.cpp, registered at the end of this file).
//
// Each factorization runs matrix by matrix over the batch: the matrix is copied into a
// column-major buffer (LAPACK's layout; any input strides are read in place), LAPACK works on
// the buffer, and the results are written into tensors whose matrices are column-major — the
// strides torch 1.13's kernels return ((*, m, n) with strides (.., m*n, 1, m)). LAPACK's `info`
// per matrix goes to an int32 tensor; the _ex ops return it, the others raise through
// _linalg_check_errors. Checks and messages follow torch's (squareCheckInputs,
// checkFloatingOrComplex, checkInputsSolver) in order and wording.
#include "core/ops/linalg.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/factory_util.h"
#include "core/ops/cpu/linalg_checks.h"
#include "core/runtime/Lapack.h"

namespace opscope::cpu {

namespace {

using namespace linalg_checks;  // check_matrix, check_square, check_floating

int lapack_int(int64_t v, std::string_view f) {
  OPSCOPE_CHECK(v <= std::numeric_limits<int>::max(), f, ": matrix dimension ", v,
                " too large for LAPACK");
  return static_cast<int>(v);
}

// Runs fn.template operator()<T>() for T float or double; other dtypes get torch's message for
// its kernel `name` ("lu_cpu").
template <typename F>
void float_or_double(ScalarType t, std::string_view name, F&& fn) {
  OPSCOPE_CHECK(t == ScalarType::Float32 || t == ScalarType::Float64, "\"", name,
                "\" not implemented for '", cpp_name(t), "'");
  if (t == ScalarType::Float32)
    fn.template operator()<float>();
  else
    fn.template operator()<double>();
}

// --- batches of matrices -------------------------------------------------------------------------

DimVector batch_sizes(const Tensor& A) {
  IntArrayRef s = A.sizes();
  return DimVector(s.begin(), s.end() - 2);
}

DimVector with_matrix(IntArrayRef batch, int64_t m, int64_t n) {
  DimVector s(batch.begin(), batch.end());
  s.push_back(m);
  s.push_back(n);
  return s;
}

DimVector with_vector(IntArrayRef batch, int64_t n) {
  DimVector s(batch.begin(), batch.end());
  s.push_back(n);
  return s;
}

// The element offset of each matrix (0,0) of t (*, m, n) when its batch dims are broadcast to
// `batch` (t's own batch when equal): a size-1 dim repeats.
std::vector<int64_t> matrix_offsets(const Tensor& t, IntArrayRef batch) {
  size_t nb = batch.size(), tb = static_cast<size_t>(t.dim()) - 2;
  DimVector strides(nb, 0);
  for (size_t i = 0; i < tb; ++i) {
    size_t d = nb - tb + i;
    if (t.size(static_cast<int64_t>(i)) != 1) strides[d] = t.stride(static_cast<int64_t>(i));
  }
  std::vector<int64_t> offsets;
  offsets.reserve(static_cast<size_t>(compute_numel(batch)));
  factory_util::for_each_offset(batch, strides,
                                [&](int64_t, int64_t off) { offsets.push_back(off); });
  return offsets;
}

// A fresh (*, m, n) tensor whose matrices are column-major, batch after batch: matrix b starts
// at b * m * n, entry (i, j) at i + j * m.
Tensor empty_colmajor(IntArrayRef sizes, ScalarType dtype) {
  DimVector swapped(sizes.begin(), sizes.end());
  size_t d = swapped.size();
  std::swap(swapped[d - 1], swapped[d - 2]);
  DimVector strides = contiguous_strides(swapped);
  std::swap(strides[d - 1], strides[d - 2]);
  return make_empty_strided(sizes, strides, dtype, Device(DeviceType::CPU));
}

// Copies matrix (m,n) at src (row stride rs, column stride cs) into dst, column-major with
// leading dimension ld.
template <typename T>
void read_colmajor(const T* src, int64_t rs, int64_t cs, int64_t m, int64_t n, T* dst,
                   int64_t ld) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) dst[i + j * ld] = src[i * rs + j * cs];
}

template <typename T>
void set_identity(T* dst, int64_t m, int64_t n, int64_t ld) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) dst[i + j * ld] = i == j ? T(1) : T(0);
}

// --- LU: inverse, determinants, solves -------------------------------------------------------

// A (*,n,n) -> inverse (*,n,n) column-major, info (*) int32
std::tuple<Tensor, Tensor> linalg_inv_ex(const Tensor& A, bool check_errors) {
  check_square(A, "linalg.inv");
  check_floating(A, "linalg.inv");
  int64_t n = A.size(-1);
  int ni = lapack_int(n, "linalg.inv");
  DimVector batch = batch_sizes(A);
  Tensor inverse = empty_colmajor(A.sizes(), A.dtype());
  Tensor info = make_empty(batch, ScalarType::Int32);
  float_or_double(A.dtype(), "linalg_inv_ex_cpu", [&]<typename T>() {
    std::vector<int64_t> offsets = matrix_offsets(A, batch);
    const T* a = A.data_ptr<T>();
    T* x = inverse.data_ptr<T>();
    int32_t* infos = info.data_ptr<int32_t>();
    std::vector<T> lu(static_cast<size_t>(n * n));
    std::vector<int> piv(static_cast<size_t>(n));
    for (size_t b = 0; b < offsets.size(); ++b) {
      T* xb = x + static_cast<int64_t>(b) * n * n;
      set_identity(xb, n, n, n);
      infos[b] = 0;
      if (n == 0) continue;
      read_colmajor(a + offsets[b], A.stride(-2), A.stride(-1), n, n, lu.data(), n);
      infos[b] = lapack::getrf<T>(ni, ni, lu.data(), ni, piv.data());
      lapack::getrs<T>('N', ni, ni, lu.data(), ni, piv.data(), xb, ni);
    }
  });
  if (check_errors) ops::_linalg_check_errors(info, "linalg.inv_ex", A.dim() == 2);
  return {inverse, info};
}

// A (*,n,n) -> LU (*,n,n) column-major, pivots (*,n) int32 (1-based, LAPACK's); then
// visit(b, lu, piv) for each matrix b.
template <typename T, typename F>
void lu_factor(const Tensor& A, const Tensor& LU, const Tensor& pivots, F&& visit) {
  int64_t n = A.size(-1);
  int ni = lapack_int(n, "linalg.det");
  std::vector<int64_t> offsets = matrix_offsets(A, batch_sizes(A));
  const T* a = A.data_ptr<T>();
  T* lu = LU.data_ptr<T>();
  int32_t* piv = pivots.data_ptr<int32_t>();
  for (size_t b = 0; b < offsets.size(); ++b) {
    T* lub = lu + static_cast<int64_t>(b) * n * n;
    int32_t* pb = piv + static_cast<int64_t>(b) * n;
    if (n > 0) {
      read_colmajor(a + offsets[b], A.stride(-2), A.stride(-1), n, n, lub, n);
      lapack::getrf<T>(ni, ni, lub, ni, pb);
    }
    visit(b, static_cast<const T*>(lub), static_cast<const int32_t*>(pb));
  }
}

// The sign of the permutation LAPACK's pivots describe.
int permutation_sign(const int32_t* piv, int64_t n) {
  int sign = 1;
  for (int64_t i = 0; i < n; ++i)
    if (piv[i] != i + 1) sign = -sign;
  return sign;
}

// A (*,n,n) -> det (*), LU (*,n,n), pivots (*,n)
std::tuple<Tensor, Tensor, Tensor> _linalg_det(const Tensor& A) {
  check_square(A, "linalg.det");
  check_floating(A, "linalg.det", /*allow_low_precision=*/true);
  int64_t n = A.size(-1);
  DimVector batch = batch_sizes(A);
  Tensor det = make_empty(batch, A.dtype());
  Tensor LU = empty_colmajor(A.sizes(), A.dtype());
  Tensor pivots = make_empty(with_vector(batch, n), ScalarType::Int32);
  float_or_double(A.dtype(), "lu_cpu", [&]<typename T>() {
    T* d = det.data_ptr<T>();
    lu_factor<T>(A, LU, pivots, [&](size_t b, const T* lu, const int32_t* piv) {
      T prod = T(permutation_sign(piv, n));
      for (int64_t i = 0; i < n; ++i) prod *= lu[i + i * n];
      d[b] = prod;
    });
  });
  return {det, LU, pivots};
}

// A (*,n,n) -> sign (*), logabsdet (*), LU (*,n,n), pivots (*,n)
std::tuple<Tensor, Tensor, Tensor, Tensor> _linalg_slogdet(const Tensor& A) {
  check_square(A, "linalg.slogdet");
  check_floating(A, "linalg.slogdet");
  int64_t n = A.size(-1);
  DimVector batch = batch_sizes(A);
  Tensor sign = make_empty(batch, A.dtype());
  Tensor logabsdet = make_empty(batch, A.dtype());
  Tensor LU = empty_colmajor(A.sizes(), A.dtype());
  Tensor pivots = make_empty(with_vector(batch, n), ScalarType::Int32);
  float_or_double(A.dtype(), "lu_cpu", [&]<typename T>() {
    T* s = sign.data_ptr<T>();
    T* l = logabsdet.data_ptr<T>();
    lu_factor<T>(A, LU, pivots, [&](size_t b, const T* lu, const int32_t* piv) {
      T sg = T(permutation_sign(piv, n)), sum = T(0);
      for (int64_t i = 0; i < n; ++i) {
        T u = lu[i + i * n];
        if (u < T(0)) sg = -sg;
        if (u == T(0)) sg = T(0);
        sum += std::log(std::abs(u));
      }
      s[b] = sg;
      l[b] = sum;
    });
  });
  return {sign, logabsdet, LU, pivots};
}

// torch's linalg_solve_is_vector_rhs: B is a vector (n) or a batch of vectors (*, n) with A's
// batch.
bool solve_is_vector_rhs(const Tensor& A, const Tensor& B) {
  if (B.dim() == 1) return true;
  if (A.dim() - 1 != B.dim()) return false;
  IntArrayRef a = A.sizes(), b = B.sizes();
  return std::equal(b.begin(), b.end(), a.begin());
}

// A (*a,n,n), B (*b,n,k) or (*b,n) -> X (broadcast(*a,*b), n,k) or (.., n); LU (.., n,n),
// pivots (.., n), info (..). left=False solves X A = B (B (*b,k,n)): A^T X^T = B^T.
std::tuple<Tensor, Tensor, Tensor, Tensor> _linalg_solve_ex(const Tensor& A, const Tensor& B,
                                                            bool left, bool check_errors) {
  check_floating(A, "linalg.solve", /*allow_low_precision=*/true);
  OPSCOPE_CHECK(A.dtype() == B.dtype(),
                "linalg.solve: Expected A and B to have the same dtype, but found A of type ",
                cpp_name(A.dtype()), " and B of type ", cpp_name(B.dtype()), " instead");
  const bool vector_case = solve_is_vector_rhs(A, B);
  // B as a matrix: a vector is one column (left) — left=False refuses vectors below.
  DimVector b_sizes(B.sizes().begin(), B.sizes().end()), b_strides(B.strides().begin(),
                                                                   B.strides().end());
  if (vector_case) {
    b_sizes.push_back(1);
    b_strides.push_back(1);
  }
  Tensor Bm = vector_case ? make_view(B, b_sizes, b_strides, B->storage_offset()) : B;
  check_square(A, "linalg.solve");
  check_matrix(Bm, "linalg.solve", "B");
  OPSCOPE_CHECK(left ? A.size(-2) == Bm.size(-2) : A.size(-1) == Bm.size(-1),
                "linalg.solve: Incompatible shapes of A and B for the equation ",
                left ? "AX = B" : "XA = B", " (", A.size(-2), "x", A.size(-1), " and ",
                Bm.size(-2), "x", Bm.size(-1), ")");
  DimVector batch = broadcast_shapes(batch_sizes(Bm), batch_sizes(A));
  OPSCOPE_CHECK(left || !vector_case,
                "linalg.solve: Vector broadcasting of the left hand side is not supported for "
                "left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)");
  int64_t n = A.size(-1);
  // The right-hand sides as LAPACK sees them: columns of B (left), rows of B (left=False).
  int64_t k = left ? Bm.size(-1) : Bm.size(-2);
  int ni = lapack_int(n, "linalg.solve"), ki = lapack_int(k, "linalg.solve");
  Tensor LU = empty_colmajor(with_matrix(batch, n, n), A.dtype());
  Tensor pivots = make_empty(with_vector(batch, n), ScalarType::Int32);
  Tensor info = make_empty(batch, ScalarType::Int32);
  // X column-major (left) or row-major (left=False: X^T column-major), n*k per matrix.
  Tensor X;
  if (vector_case)
    X = make_empty(with_vector(batch, n), A.dtype());
  else if (left)
    X = empty_colmajor(with_matrix(batch, n, k), A.dtype());
  else
    X = make_empty(with_matrix(batch, k, n), A.dtype());
  float_or_double(A.dtype(), "lu_cpu", [&]<typename T>() {
    std::vector<int64_t> a_off = matrix_offsets(A, batch), b_off = matrix_offsets(Bm, batch);
    const T* a = A.data_ptr<T>();
    const T* bp = Bm.data_ptr<T>();
    T* lu = LU.data_ptr<T>();
    T* x = X.data_ptr<T>();
    int32_t* piv = pivots.data_ptr<int32_t>();
    int32_t* infos = info.data_ptr<int32_t>();
    // B's (n, k) right-hand sides: B itself (left) or B^T (left=False).
    int64_t rs = left ? Bm.stride(-2) : Bm.stride(-1), cs = left ? Bm.stride(-1) : Bm.stride(-2);
    for (size_t b = 0; b < a_off.size(); ++b) {
      T* lub = lu + static_cast<int64_t>(b) * n * n;
      int32_t* pb = piv + static_cast<int64_t>(b) * n;
      T* xb = x + static_cast<int64_t>(b) * n * k;
      infos[b] = 0;
      if (n == 0) continue;
      read_colmajor(a + a_off[b], A.stride(-2), A.stride(-1), n, n, lub, n);
      read_colmajor(bp + b_off[b], rs, cs, n, k, xb, n);
      infos[b] = lapack::getrf<T>(ni, ni, lub, ni, pb);
      if (k > 0) lapack::getrs<T>(left ? 'N' : 'T', ni, ki, lub, ni, pb, xb, ni);
    }
  });
  if (check_errors) ops::_linalg_check_errors(info, "torch.linalg.solve_ex", A.dim() == 2);
  return {X, LU, pivots, info};
}

// self (*a,n,n) triangular (the upper or lower triangle read; unitriangular: ones assumed on the
// diagonal), B (*b,n,k) -> X (broadcast(*a,*b), n,k) column-major with self X = B, in self's
// dtype; left=False: X self = B with B (*b,k,n). No singularity check: a zero on the diagonal
// gives inf / nan, as torch (BLAS trsm).
Tensor linalg_solve_triangular(const Tensor& self, const Tensor& B_, bool upper, bool left,
                               bool unitriangular) {
  const Tensor& A = self;
  check_square(A, "linalg.solve_triangular");
  check_matrix(B_, "linalg.solve_triangular", "B");
  OPSCOPE_CHECK(left ? A.size(-2) == B_.size(-2) : A.size(-1) == B_.size(-1),
                "linalg.solve_triangular: Incompatible shapes of A and B for the equation ",
                left ? "AX = B" : "XA = B", " (", A.size(-2), "x", A.size(-1), " and ",
                B_.size(-2), "x", B_.size(-1), ")");
  DimVector batch = broadcast_shapes(batch_sizes(B_), batch_sizes(A));
  Tensor B = B_.dtype() == A.dtype() ? B_ : ops::to(B_, A.dtype());
  int64_t n = A.size(-1), rows = B.size(-2), cols = B.size(-1);
  Tensor X = empty_colmajor(with_matrix(batch, rows, cols), A.dtype());
  int ni = lapack_int(n, "linalg.solve_triangular"), ri = lapack_int(rows, "linalg.solve_triangular"),
      ci = lapack_int(cols, "linalg.solve_triangular");
  float_or_double(A.dtype(), "triangular_solve_cpu", [&]<typename T>() {
    std::vector<int64_t> a_off = matrix_offsets(A, batch), b_off = matrix_offsets(B, batch);
    std::vector<T> a(static_cast<size_t>(n * n));
    for (size_t i = 0; i < a_off.size(); ++i) {
      T* xb = X.data_ptr<T>() + static_cast<int64_t>(i) * rows * cols;
      read_colmajor(B.data_ptr<T>() + b_off[i], B.stride(-2), B.stride(-1), rows, cols, xb, rows);
      if (rows == 0 || cols == 0) continue;
      read_colmajor(A.data_ptr<T>() + a_off[i], A.stride(-2), A.stride(-1), n, n, a.data(), n);
      lapack::trsm<T>(left, upper, /*transpose=*/false, unitriangular, ri, ci, T(1), a.data(), ni,
                      xb, ri);
    }
  });
  return X;
}

Tensor linalg_solve_triangular_out(const Tensor& self, const Tensor& B, bool upper, bool left,
                                   bool unitriangular, const Tensor& out) {
  Tensor X = linalg_solve_triangular(self, B, upper, left, unitriangular);
  resize_output(out, X.sizes());
  return ops::copy_(out, X);
}

// --- Cholesky ------------------------------------------------------------------------------------

// self (*,n,n) -> L (*,n,n) column-major lower (upper: L^T), info (*)
std::tuple<Tensor, Tensor> cholesky_impl(const Tensor& A, bool upper, std::string_view f) {
  check_square(A, f);
  check_floating(A, f, /*allow_low_precision=*/true);
  int64_t n = A.size(-1);
  int ni = lapack_int(n, f);
  DimVector batch = batch_sizes(A);
  Tensor L = empty_colmajor(A.sizes(), A.dtype());
  Tensor info = make_empty(batch, ScalarType::Int32);
  float_or_double(A.dtype(), "cholesky_cpu", [&]<typename T>() {
    std::vector<int64_t> offsets = matrix_offsets(A, batch);
    const T* a = A.data_ptr<T>();
    T* l = L.data_ptr<T>();
    int32_t* infos = info.data_ptr<int32_t>();
    std::vector<T> buf(static_cast<size_t>(n * n));
    for (size_t b = 0; b < offsets.size(); ++b) {
      T* lb = l + static_cast<int64_t>(b) * n * n;
      infos[b] = 0;
      if (n == 0) continue;
      read_colmajor(a + offsets[b], A.stride(-2), A.stride(-1), n, n, buf.data(), n);
      infos[b] = lapack::potrf<T>('L', ni, buf.data(), ni);
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
          T v = i >= j ? buf[i + j * n] : T(0);  // lower triangle, upper zeroed
          if (upper)
            lb[j + i * n] = v;
          else
            lb[i + j * n] = v;
        }
    }
  });
  return {L, info};
}

std::tuple<Tensor, Tensor> linalg_cholesky_ex(const Tensor& self, bool upper, bool check_errors) {
  auto [L, info] = cholesky_impl(self, upper, "linalg.cholesky");
  if (check_errors) ops::_linalg_check_errors(info, "linalg.cholesky_ex", self.dim() == 2);
  return {L, info};
}

// torch.cholesky, deprecated in favor of linalg.cholesky: the same factor, torch's own node
// (CholeskyBackward0) and messages.
Tensor cholesky(const Tensor& self, bool upper) {
  auto [L, info] = cholesky_impl(self, upper, "cholesky");
  ops::_linalg_check_errors(info, "cholesky", self.dim() == 2);
  return L;
}

Tensor cholesky_out(const Tensor& self, bool upper, const Tensor& out) {
  Tensor L = cholesky(self, upper);
  resize_output(out, L.sizes());
  return ops::copy_(out, L);
}

// --- QR ------------------------------------------------------------------------------------------

// A (*,m,n) -> Q (*,m,k), R (*,k,n), k = min(m,n); complete: Q (*,m,m), R (*,m,n); r: Q (0)
std::tuple<Tensor, Tensor> linalg_qr(const Tensor& A, std::string_view mode) {
  check_matrix(A, "linalg.qr");
  check_floating(A, "linalg.qr", /*allow_low_precision=*/true);
  bool complete = mode == "complete", compute_q = mode != "r";
  OPSCOPE_CHECK(complete || mode == "reduced" || mode == "r", "qr received unrecognized mode '",
                mode, "' but expected one of 'reduced' (default), 'r', or 'complete'");
  int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  int64_t q_cols = complete ? m : k, r_rows = complete ? m : k;
  int mi = lapack_int(m, "linalg.qr"), ni = lapack_int(n, "linalg.qr");
  DimVector batch = batch_sizes(A);
  Tensor Q = compute_q ? empty_colmajor(with_matrix(batch, m, q_cols), A.dtype())
                       : make_empty(std::array<int64_t, 1>{0}, A.dtype());
  Tensor R = empty_colmajor(with_matrix(batch, r_rows, n), A.dtype());
  float_or_double(A.dtype(), "geqrf_cpu", [&]<typename T>() {
    std::vector<int64_t> offsets = matrix_offsets(A, batch);
    const T* a = A.data_ptr<T>();
    // The factored matrix, wide enough for a complete Q (m,m) when m > n.
    int64_t width = std::max(n, q_cols);
    std::vector<T> buf(static_cast<size_t>(m * width)), tau(static_cast<size_t>(k));
    for (size_t b = 0; b < offsets.size(); ++b) {
      if (k > 0) {
        read_colmajor(a + offsets[b], A.stride(-2), A.stride(-1), m, n, buf.data(), m);
        lapack::geqrf<T>(mi, ni, buf.data(), mi, tau.data());
      }
      T* rb = R.data_ptr<T>() + static_cast<int64_t>(b) * r_rows * n;
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < r_rows; ++i) rb[i + j * r_rows] = i <= j ? buf[i + j * m] : T(0);
      if (!compute_q) continue;
      T* qb = Q.data_ptr<T>() + static_cast<int64_t>(b) * m * q_cols;
      if (k == 0) {
        set_identity(qb, m, q_cols, m);
        continue;
      }
      lapack::orgqr<T>(mi, lapack_int(q_cols, "linalg.qr"), lapack_int(k, "linalg.qr"),
                       buf.data(), mi, tau.data());
      std::copy(buf.begin(), buf.begin() + m * q_cols, qb);
    }
  });
  return {Q, R};
}

// --- symmetric eigendecomposition ----------------------------------------------------------------

// A (*,n,n) symmetric (triangle UPLO read) -> eigenvalues (*,n) ascending, eigenvectors
// (*,n,n) column-major (compute_v=False: (0))
std::tuple<Tensor, Tensor> _linalg_eigh(const Tensor& A, std::string_view UPLO, bool compute_v) {
  check_square(A, "linalg.eigh");
  OPSCOPE_CHECK(UPLO.size() == 1 && (std::toupper(UPLO[0]) == 'L' || std::toupper(UPLO[0]) == 'U'),
                "Expected UPLO argument to be 'L' or 'U', but got ", UPLO);
  int64_t n = A.size(-1);
  int ni = lapack_int(n, "linalg.eigh");
  char uplo = static_cast<char>(std::toupper(UPLO[0]));
  DimVector batch = batch_sizes(A);
  Tensor values = make_empty(with_vector(batch, n), A.dtype());
  Tensor vectors = compute_v ? empty_colmajor(A.sizes(), A.dtype())
                             : make_empty(std::array<int64_t, 1>{0}, A.dtype());
  Tensor info = make_empty(batch, ScalarType::Int32);
  float_or_double(A.dtype(), "linalg_eigh_cpu", [&]<typename T>() {
    std::vector<int64_t> offsets = matrix_offsets(A, batch);
    const T* a = A.data_ptr<T>();
    std::vector<T> buf(compute_v ? 0 : static_cast<size_t>(n * n));
    for (size_t b = 0; b < offsets.size(); ++b) {
      T* vb = compute_v ? vectors.data_ptr<T>() + static_cast<int64_t>(b) * n * n : buf.data();
      T* wb = values.data_ptr<T>() + static_cast<int64_t>(b) * n;
      info.data_ptr<int32_t>()[b] = 0;
      if (n == 0) continue;
      read_colmajor(a + offsets[b], A.stride(-2), A.stride(-1), n, n, vb, n);
      info.data_ptr<int32_t>()[b] = lapack::syevd<T>(compute_v ? 'V' : 'N', uplo, ni, vb, ni, wb);
    }
  });
  ops::_linalg_check_errors(info, "linalg.eigh", A.dim() == 2);
  return {values, vectors};
}

// --- SVD -----------------------------------------------------------------------------------------

// Note [SVD of a matrix with infinities]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// LAPACK's gesdd refuses a matrix with a NaN (INFO = -4, which torch words as "the input matrix
// contained non-finite values"), but takes one with an infinity and, for some (a 4 x 3 with -inf
// and 1e308, found by the fuzzer), never returns: torch 1.13 hangs there too, in the same
// OpenBLAS. Where it does return, its answer is all NaN (torch and NumPy print that for
// [[1, inf], [2, 3]]). So a matrix with an infinity gets that answer without the call, and one
// with a NaN the error without the call: linalg.svd, svdvals, pinv, matrix_rank and the 2-norms
// built on it never hang; nor does lstsq's SVD drivers (gelsd, gelss: torch 1.13 hangs in both
// on that matrix), whose answer for a matrix with a NaN or an infinity is NaN.

// A (*,m,n) -> U (*,m,k), S (*,k), Vh (*,k,n), k = min(m,n); full_matrices: U (*,m,m),
// Vh (*,n,n); compute_uv=False: U, Vh (0)
std::tuple<Tensor, Tensor, Tensor> _linalg_svd(const Tensor& A, bool full_matrices,
                                               bool compute_uv,
                                               std::optional<std::string_view> driver) {
  check_matrix(A, "linalg.svd");
  check_floating(A, "linalg.svd", /*allow_low_precision=*/true);
  OPSCOPE_CHECK(!driver, "torch.linalg.svd: keyword argument `driver=` is only supported on "
                         "CUDA inputs with cuSOLVER backend.");
  int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  int64_t u_cols = full_matrices ? m : k, vh_rows = full_matrices ? n : k;
  int mi = lapack_int(m, "linalg.svd"), ni = lapack_int(n, "linalg.svd");
  DimVector batch = batch_sizes(A);
  Tensor U = compute_uv ? empty_colmajor(with_matrix(batch, m, u_cols), A.dtype())
                        : make_empty(std::array<int64_t, 1>{0}, A.dtype());
  Tensor S = make_empty(with_vector(batch, k), A.dtype());
  Tensor Vh = compute_uv ? empty_colmajor(with_matrix(batch, vh_rows, n), A.dtype())
                         : make_empty(std::array<int64_t, 1>{0}, A.dtype());
  Tensor info = make_empty(batch, ScalarType::Int32);
  char jobz = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  float_or_double(A.dtype(), "linalg_svd_cpu", [&]<typename T>() {
    std::vector<int64_t> offsets = matrix_offsets(A, batch);
    const T* a = A.data_ptr<T>();
    std::vector<T> buf(static_cast<size_t>(m * n)), none(1);
    for (size_t b = 0; b < offsets.size(); ++b) {
      T* ub = compute_uv ? U.data_ptr<T>() + static_cast<int64_t>(b) * m * u_cols : none.data();
      T* vb = compute_uv ? Vh.data_ptr<T>() + static_cast<int64_t>(b) * vh_rows * n : none.data();
      T* sb = S.data_ptr<T>() + static_cast<int64_t>(b) * k;
      info.data_ptr<int32_t>()[b] = 0;
      if (k == 0) {  // no singular values: U and Vh are identities (or have no columns / rows)
        if (compute_uv) {
          set_identity(ub, m, u_cols, m);
          set_identity(vb, vh_rows, n, vh_rows);
        }
        continue;
      }
      read_colmajor(a + offsets[b], A.stride(-2), A.stride(-1), m, n, buf.data(), m);
      // See Note [SVD of a matrix with infinities].
      bool has_nan = false, has_inf = false;
      for (T x : buf) {
        has_nan = has_nan || std::isnan(x);
        has_inf = has_inf || std::isinf(x);
      }
      if (has_nan) {  // what gesdd itself answers: argument 4 (A) is bad
        info.data_ptr<int32_t>()[b] = -4;
        continue;
      }
      if (has_inf) {
        const T not_a_number = std::numeric_limits<T>::quiet_NaN();
        std::fill(sb, sb + k, not_a_number);
        if (compute_uv) {
          std::fill(ub, ub + m * u_cols, not_a_number);
          std::fill(vb, vb + vh_rows * n, not_a_number);
        }
        continue;
      }
      info.data_ptr<int32_t>()[b] =
          lapack::gesdd<T>(jobz, mi, ni, buf.data(), mi, sb, ub, compute_uv ? mi : 1, vb,
                           compute_uv ? lapack_int(vh_rows, "linalg.svd") : 1);
    }
  });
  ops::_linalg_check_errors(info, "linalg.svd", A.dim() == 2);
  return {U, S, Vh};
}

// --- least squares -------------------------------------------------------------------------------

// self (*,m,n), b (*,m,k) or (*,m) -> solution (*,n,k) or (*,n); residuals (*,k) (m > n, not
// gelsy, full rank) or (0); rank (*) (not gels) or (0); singular_values (*,min(m,n)) (gelsd,
// gelss) or (0). Batch dims broadcast.
std::tuple<Tensor, Tensor, Tensor, Tensor> linalg_lstsq(const Tensor& self, const Tensor& b,
                                                        std::optional<double> rcond,
                                                        std::optional<std::string_view> driver) {
  OPSCOPE_CHECK(self.dim() >= 2, "torch.linalg.lstsq: input must have at least 2 dimensions.");
  OPSCOPE_CHECK(b.dim() >= 1, "torch.linalg.lstsq: other must have at least 1 dimension.");
  OPSCOPE_CHECK(self.dtype() == b.dtype(),
                "torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
                "input's dtype ",
                cpp_name(self.dtype()), " and other's dtype ", cpp_name(b.dtype()));
  int64_t dim_diff = self.dim() - b.dim();
  OPSCOPE_CHECK(dim_diff == 0 || dim_diff == 1,
                "torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                "(input.dim() - other.dim()) <= 1");
  const bool vector_case = dim_diff == 1;
  DimVector b_sizes(b.sizes().begin(), b.sizes().end()), b_strides(b.strides().begin(),
                                                                   b.strides().end());
  if (vector_case) {
    b_sizes.push_back(1);
    b_strides.push_back(1);
  }
  Tensor B = vector_case ? make_view(b, b_sizes, b_strides, b->storage_offset()) : b;
  OPSCOPE_CHECK(self.size(-2) == B.size(-2),
                vector_case ? "torch.linalg.lstsq: input.size(-2) should match other.size(-1)"
                            : "torch.linalg.lstsq: input.size(-2) should match other.size(-2)");
  std::string_view drv = driver.value_or("gelsy");
  OPSCOPE_CHECK(drv == "gels" || drv == "gelsy" || drv == "gelsd" || drv == "gelss",
                "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, "
                "gelss)");
  ScalarType t = self.dtype();
  OPSCOPE_CHECK(t == ScalarType::Float32 || t == ScalarType::Float64,
                "This function doesn't handle types other than float and double");
  int64_t m = self.size(-2), n = self.size(-1), k = B.size(-1), mn = std::min(m, n);
  int64_t ldb = std::max<int64_t>({1, m, n});
  double eps = t == ScalarType::Float32 ? std::numeric_limits<float>::epsilon()
                                        : std::numeric_limits<double>::epsilon();
  double rc = rcond.value_or(eps * static_cast<double>(std::max(m, n)));
  DimVector batch = broadcast_shapes(batch_sizes(self), batch_sizes(B));
  const bool has_rank = drv != "gels", has_s = drv == "gelsd" || drv == "gelss";
  // X column-major, n * k per matrix (a vector: k = 1, contiguous)
  Tensor X = vector_case ? make_empty(with_vector(batch, n), t)
                         : empty_colmajor(with_matrix(batch, n, k), t);
  Tensor rank = has_rank ? make_empty(batch, ScalarType::Int64)
                         : make_empty(std::array<int64_t, 1>{0}, ScalarType::Int64);
  Tensor S = has_s ? make_empty(with_vector(batch, mn), t) : make_empty(std::array<int64_t, 1>{0}, t);
  Tensor info = make_empty(batch, ScalarType::Int32);
  // The residual rows of each solution buffer: sums of squares per column, when asked.
  bool want_residuals = m > n && drv != "gelsy";
  Tensor residuals = make_empty(with_vector(batch, k), t);
  bool full_rank = true;
  int mi = lapack_int(m, "linalg.lstsq"), ni = lapack_int(n, "linalg.lstsq"),
      ki = lapack_int(k, "linalg.lstsq"), ldbi = lapack_int(ldb, "linalg.lstsq");
  float_or_double(t, "linalg_lstsq_cpu", [&]<typename T>() {
    std::vector<int64_t> a_off = matrix_offsets(self, batch), b_off = matrix_offsets(B, batch);
    std::vector<T> a(static_cast<size_t>(m * n)), x(static_cast<size_t>(ldb * k));
    for (size_t i = 0; i < a_off.size(); ++i) {
      read_colmajor(self.data_ptr<T>() + a_off[i], self.stride(-2), self.stride(-1), m, n,
                    a.data(), std::max<int64_t>(m, 1));
      std::fill(x.begin(), x.end(), T(0));
      read_colmajor(B.data_ptr<T>() + b_off[i], B.stride(-2), B.stride(-1), m, k, x.data(), ldb);
      int r = 0, code = 0;
      T* s = has_s ? S.data_ptr<T>() + static_cast<int64_t>(i) * mn : nullptr;
      if (m > 0 && n > 0 && k > 0) {
        int lda = std::max(mi, 1);
        T rct = static_cast<T>(rc);
        if (drv == "gels")
          code = lapack::gels<T>(mi, ni, ki, a.data(), lda, x.data(), ldbi);
        else if (drv == "gelsy")
          code = lapack::gelsy<T>(mi, ni, ki, a.data(), lda, x.data(), ldbi, rct, &r);
        else if (!std::all_of(a.begin(), a.end(), [](T v) { return std::isfinite(v); })) {
          // gelsd / gelss are SVDs: see Note [SVD of a matrix with infinities]. No answer but
          // NaN: singular values and solution NaN, rank 0 (so no residuals).
          std::fill(s, s + mn, std::numeric_limits<T>::quiet_NaN());
          std::fill(x.begin(), x.end(), std::numeric_limits<T>::quiet_NaN());
        } else if (drv == "gelsd") {
          code = lapack::gelsd<T>(mi, ni, ki, a.data(), lda, x.data(), ldbi, s, rct, &r);
        } else {
          code = lapack::gelss<T>(mi, ni, ki, a.data(), lda, x.data(), ldbi, s, rct, &r);
        }
      } else if (has_s) {
        std::fill(s, s + mn, T(0));
      }
      info.data_ptr<int32_t>()[i] = code;
      if (has_rank) rank.data_ptr<int64_t>()[i] = r;
      if (has_s && r != n) full_rank = false;
      T* xb = X.data_ptr<T>() + static_cast<int64_t>(i) * n * k;
      T* res = residuals.data_ptr<T>() + static_cast<int64_t>(i) * k;
      for (int64_t j = 0; j < k; ++j) {
        T sum = T(0);
        for (int64_t row = n; row < m; ++row) sum += x[row + j * ldb] * x[row + j * ldb];
        res[j] = sum;
        for (int64_t row = 0; row < n; ++row) xb[row + j * n] = m == 0 ? T(0) : x[row + j * ldb];
      }
    }
  });
  ops::_linalg_check_errors(info, "torch.linalg.lstsq", info.numel() <= 1);
  if (!want_residuals || !full_rank) residuals = make_empty(std::array<int64_t, 1>{0}, t);
  return {X, residuals, rank, S};
}

// --- cross product -------------------------------------------------------------------------------

// self, other (*, 3 at dim, *) broadcast -> self x other
Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim) {
  OPSCOPE_CHECK(self.dim() == other.dim(),
                "linalg.cross: inputs must have the same number of dimensions.");
  int64_t d = wrap_dim(dim, self.dim());
  OPSCOPE_CHECK(self.size(d) == 3 && other.size(d) == 3, "linalg.cross: inputs dimension ", dim,
                " must have length 3. Got ", self.size(d), " and ", other.size(d));
  OPSCOPE_CHECK(self.dtype() == other.dtype(), "expected scalar type ", cpp_name(self.dtype()),
                " but found ", cpp_name(other.dtype()));
  DimVector sizes = broadcast_shapes(self.sizes(), other.sizes());
  Tensor out = make_empty(sizes, self.dtype());
  // Every position but the cross dim, with the three tensors' strides (0 where broadcast).
  size_t nd = sizes.size();
  DimVector outer = sizes, s_str(nd), o_str(nd);
  DimVector r_str = contiguous_strides(sizes);
  for (size_t i = 0; i < nd; ++i) {
    auto id = static_cast<int64_t>(i);
    s_str[i] = self.size(id) == 1 ? 0 : self.stride(id);
    o_str[i] = other.size(id) == 1 ? 0 : other.stride(id);
  }
  outer[static_cast<size_t>(d)] = 1;
  int64_t sd = self.stride(d), od = other.stride(d), rd = r_str[static_cast<size_t>(d)];
  dispatch_dtype(self.dtype(), "linalg_cross", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      OPSCOPE_CHECK(false, "\"linalg_cross\" not implemented for 'Bool'");
    } else {
      // float16 / bfloat16 multiply in float; the others in their own type, as torch.
      using Acc = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>,
                                     float, T>;
      const T* x = self.data_ptr<T>();
      const T* y = other.data_ptr<T>();
      T* r = out.data_ptr<T>();
      int64_t count = compute_numel(outer);
      DimVector index(nd, 0);
      int64_t xo = 0, yo = 0, ro = 0;
      for (int64_t c = 0; c < count; ++c) {
        auto X = [&](int i) { return static_cast<Acc>(x[xo + i * sd]); };
        auto Y = [&](int i) { return static_cast<Acc>(y[yo + i * od]); };
        r[ro] = static_cast<T>(X(1) * Y(2) - X(2) * Y(1));
        r[ro + rd] = static_cast<T>(X(2) * Y(0) - X(0) * Y(2));
        r[ro + 2 * rd] = static_cast<T>(X(0) * Y(1) - X(1) * Y(0));
        for (size_t i = nd; i-- > 0;) {  // odometer over `outer`
          if (++index[i] < outer[i]) {
            xo += s_str[i];
            yo += o_str[i];
            ro += r_str[i];
            break;
          }
          xo -= (outer[i] - 1) * s_str[i];
          yo -= (outer[i] - 1) * o_str[i];
          ro -= (outer[i] - 1) * r_str[i];
          index[i] = 0;
        }
      }
    }
  });
  return out;
}

Tensor linalg_cross_out(const Tensor& self, const Tensor& other, int64_t dim, const Tensor& out) {
  Tensor r = linalg_cross(self, other, dim);
  resize_output(out, r.sizes());
  return ops::copy_(out, r);
}

}  // namespace

static Library cpu_linalg(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("linalg_inv_ex", fn<&linalg_inv_ex>);
  m.impl("_linalg_det", fn<&_linalg_det>);
  m.impl("_linalg_slogdet", fn<&_linalg_slogdet>);
  m.impl("_linalg_solve_ex", fn<&_linalg_solve_ex>);
  m.impl("linalg_solve_triangular", fn<&linalg_solve_triangular>);
  m.impl("linalg_solve_triangular.out", fn<&linalg_solve_triangular_out>);
  m.impl("linalg_cholesky_ex", fn<&linalg_cholesky_ex>);
  m.impl("cholesky", fn<&cholesky>);
  m.impl("cholesky.out", fn<&cholesky_out>);
  m.impl("linalg_qr", fn<&linalg_qr>);
  m.impl("_linalg_eigh", fn<&_linalg_eigh>);
  m.impl("_linalg_svd", fn<&_linalg_svd>);
  m.impl("linalg_lstsq", fn<&linalg_lstsq>);
  m.impl("linalg_cross", fn<&linalg_cross>);
  m.impl("linalg_cross.out", fn<&linalg_cross_out>);
});

}  // namespace opscope::cpu
