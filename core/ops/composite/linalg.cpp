// The linalg family's composites (schemas in core/ops/linalg.cpp): the ops torch 1.13 defines by
// others, written as its decompositions so that a trace shows the same chain and autograd
// records the same nodes —
//   inverse -> linalg_inv -> linalg_inv_ex, _linalg_check_errors
//   det -> linalg_det -> _linalg_det;  slogdet -> linalg_slogdet -> _linalg_slogdet;
//   logdet -> linalg_slogdet, where(sign == -1, nan, logabsdet)
//   linalg_solve -> linalg_solve_ex -> _linalg_solve_ex
//   linalg_cholesky -> linalg_cholesky_ex;  qr -> linalg_qr
//   linalg_eigh / linalg_eigvalsh -> _linalg_eigh;  svd / linalg_svd / linalg_svdvals ->
//   _linalg_svd (svd's V is Vh.transpose(-2, -1), a view)
//   linalg_norm -> linalg_vector_norm or linalg_matrix_norm; matrix norms 1 / inf -> vector
//   norms then amax / amin, 2 / nuc -> svdvals then amax / amin / sum; nuclear_norm
//   (torch.norm(p='nuc')) -> linalg_matrix_norm
//   cross -> linalg_cross;  matrix_power -> linalg_matrix_power -> matmul (by squaring)
//   linalg_pinv -> linalg_svd (linalg_eigh when hermitian); linalg_matrix_rank -> svdvals
// All are CompositeImplicitAutograd but linalg_pinv.atol_rtol_tensor and _linalg_check_errors,
// which are CompositeExplicitAutograd (pinv has its own derivative, LinalgPinvBackward0).
#include "core/ops/linalg.h"

#include <cmath>
#include <limits>
#include <vector>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/GradMode.h"
#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/factory_util.h"
#include "core/ops/cpu/linalg_checks.h"
#include "core/ops/cpu/reduce_plan.h"
#include "core/ops/factories.h"
#include "core/ops/linear.h"
#include "core/ops/reduce.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::composite {

namespace {

using namespace cpu::linalg_checks;  // check_matrix, check_square, check_floating
using cpu::write_out;

// Handles of the reduce family's ops these compositions call.
// linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *,
//     ScalarType? dtype=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Scalar&, std::optional<IntArrayRef>, bool,
                           std::optional<ScalarType>)>
    linalg_vector_norm{"aten::linalg_vector_norm"};
// amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<IntArrayRef>, Default<bool>)> amin{
    "aten::amin"};

// torch's _may_require_fw_or_bw_grad: whether autograd will want A's gradient, so that
// eigvalsh / svdvals compute the vectors the backward needs.
bool may_require_grad(const Tensor& A) {
  if (!autograd::grad_mode_enabled()) return false;
  const autograd::AutogradMeta* meta = autograd::get_autograd_meta(A);
  return meta != nullptr && meta->requires_grad();
}

Tensor mT(const Tensor& t) {
  return ops::transpose(t, -2, -1);
}

// --- errors --------------------------------------------------------------------------------------

// info (*) int32 -> (): torch's message for the first nonzero info of a LAPACK routine.
void _linalg_check_errors(const Tensor& info, std::string_view api_name, bool is_matrix) {
  if (info.numel() == 0) return;
  int32_t code = 0;
  int64_t element = 0;
  const int32_t* p = info.data_ptr<int32_t>();
  cpu::factory_util::for_each_offset(info.sizes(), info.strides(), [&](int64_t i, int64_t off) {
    if (code == 0 && p[off] != 0) {
      code = p[off];
      element = i;
    }
  });
  if (code == 0) return;
  std::string batch = is_matrix ? "" : detail::str(": (Batch element ", element, ")");
  auto has = [&](std::string_view what) { return api_name.find(what) != std::string_view::npos; };
  if (code < 0) {
    OPSCOPE_CHECK_AS(LinAlgError, !has("svd") || code != -4, api_name, batch,
                  ": The algorithm failed to converge because the input matrix contained "
                  "non-finite values.");
    OPSCOPE_CHECK(false, api_name, batch, ": Argument ", -code,
                  " has illegal value. Most certainly there is a bug in the implementation "
                  "calling the backend library.");
  }
  if (has("inv"))
    OPSCOPE_CHECK_AS(LinAlgError, false, api_name, batch, ": The diagonal element ", code,
                  " is zero, the inversion could not be completed because the input matrix is "
                  "singular.");
  if (has("solve"))
    OPSCOPE_CHECK_AS(LinAlgError, false, api_name, batch,
                  ": The solver failed because the input matrix is singular.");
  if (has("cholesky"))
    OPSCOPE_CHECK_AS(LinAlgError, false, api_name, batch,
                  ": The factorization could not be completed because the input is not "
                  "positive-definite (the leading minor of order ",
                  code, " is not positive-definite).");
  if (has("svd"))
    OPSCOPE_CHECK_AS(LinAlgError, false, api_name, batch,
                  ": The algorithm failed to converge because the input matrix is "
                  "ill-conditioned or has too many repeated singular values (error code: ",
                  code, ").");
  if (has("lstsq"))
    OPSCOPE_CHECK_AS(LinAlgError, false, api_name, batch,
                  ": The least squares solution could not be computed because the input matrix "
                  "does not have full rank (error code: ",
                  code, ").");
  if (has("eig"))
    OPSCOPE_CHECK_AS(LinAlgError, false, api_name, batch,
                  ": The algorithm failed to converge because the input matrix is "
                  "ill-conditioned or has too many repeated eigenvalues (error code: ",
                  code, ").");
  OPSCOPE_CHECK(false, api_name, ": Unknown error code: ", code, ".");
}

// --- inverse, determinants, solves -------------------------------------------------------------

Tensor linalg_inv(const Tensor& A) {
  auto [inverse, info] = ops::linalg_inv_ex(A);
  ops::_linalg_check_errors(info, "linalg.inv", A.dim() == 2);
  return inverse;
}
Tensor linalg_inv_out(const Tensor& A, const Tensor& out) {
  return write_out(out, ops::linalg_inv(A));
}
Tensor inverse(const Tensor& self) {
  return ops::linalg_inv(self);
}

Tensor linalg_det(const Tensor& A) {
  return std::get<0>(ops::_linalg_det(A));
}
Tensor linalg_det_out(const Tensor& A, const Tensor& out) {
  return write_out(out, ops::linalg_det(A));
}
Tensor det(const Tensor& self) {
  return ops::linalg_det(self);
}

std::tuple<Tensor, Tensor> linalg_slogdet(const Tensor& A) {
  auto [sign, logabsdet, LU, pivots] = ops::_linalg_slogdet(A);
  return {sign, logabsdet};
}
std::tuple<Tensor, Tensor> slogdet(const Tensor& self) {
  return ops::linalg_slogdet(self);
}
// log det: NaN where the determinant is negative.
Tensor logdet(const Tensor& self) {
  check_square(self, "logdet");
  check_floating(self, "logdet");
  auto [sign, logabsdet] = ops::linalg_slogdet(self);
  return ops::where(ops::eq(sign, -1.0), std::numeric_limits<double>::quiet_NaN(), logabsdet);
}

std::tuple<Tensor, Tensor> linalg_solve_ex(const Tensor& A, const Tensor& B, bool left,
                                           bool check_errors) {
  auto [result, LU, pivots, info] = ops::_linalg_solve_ex(A, B, left, check_errors);
  return {result, info};
}
Tensor linalg_solve(const Tensor& A, const Tensor& B, bool left) {
  auto [result, info] = ops::linalg_solve_ex(A, B, left);
  ops::_linalg_check_errors(info, "torch.linalg.solve", A.dim() == 2);
  return result;
}
Tensor linalg_solve_out(const Tensor& A, const Tensor& B, bool left, const Tensor& out) {
  return write_out(out, ops::linalg_solve(A, B, left));
}

// --- Cholesky, QR, eigh, SVD -----------------------------------------------------------------

Tensor linalg_cholesky(const Tensor& self, bool upper) {
  auto [L, info] = ops::linalg_cholesky_ex(self, upper, false);
  ops::_linalg_check_errors(info, "linalg.cholesky", self.dim() == 2);
  return L;
}
Tensor linalg_cholesky_out(const Tensor& self, bool upper, const Tensor& out) {
  return write_out(out, linalg_cholesky(self, upper));
}

// torch.qr, deprecated in favor of linalg.qr: `some` is mode 'reduced' / 'complete'.
std::tuple<Tensor, Tensor> qr(const Tensor& self, bool some) {
  return ops::linalg_qr(self, some ? "reduced" : "complete");
}

std::tuple<Tensor, Tensor> linalg_eigh(const Tensor& self, std::string_view UPLO) {
  return ops::_linalg_eigh(self, UPLO, true);
}
Tensor linalg_eigvalsh(const Tensor& self, std::string_view UPLO) {
  return std::get<0>(ops::_linalg_eigh(self, UPLO, may_require_grad(self)));
}
Tensor linalg_eigvalsh_out(const Tensor& self, std::string_view UPLO, const Tensor& out) {
  return write_out(out, linalg_eigvalsh(self, UPLO));
}

std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& A, bool full_matrices,
                                              std::optional<std::string_view> driver) {
  return ops::_linalg_svd(A, full_matrices, true, driver);
}
Tensor linalg_svdvals(const Tensor& A, std::optional<std::string_view> driver) {
  return std::get<1>(ops::_linalg_svd(A, false, may_require_grad(A), driver));
}
Tensor linalg_svdvals_out(const Tensor& A, std::optional<std::string_view> driver,
                          const Tensor& out) {
  return write_out(out, linalg_svdvals(A, driver));
}

// torch.svd: U, S and V = Vh^T (a view); some=False gives square U and V; compute_uv=False
// gives zero-filled U (*, m, m) and V (*, n, n).
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& self, bool some, bool compute_uv) {
  OPSCOPE_CHECK(self.dim() >= 2, "linalg.svd: input should have at least 2 dimensions, but has ",
                self.dim(), " dimensions instead");
  check_floating(self, "linalg.svd", /*allow_low_precision=*/true);
  if (compute_uv) {
    auto [U, S, Vh] = ops::linalg_svd(self, !some);
    return {U, S, mT(Vh)};
  }
  Tensor S = ops::linalg_svdvals(self);
  int64_t m = self.size(-2), n = self.size(-1);
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  sizes.back() = m;
  Tensor U = ops::zeros(sizes, self.dtype());
  sizes[sizes.size() - 2] = n;
  sizes.back() = n;
  Tensor Vh = ops::zeros(sizes, self.dtype());
  return {U, S, mT(Vh)};
}

// --- norms ---------------------------------------------------------------------------------------

// The dims of an ndim tensor but dim0, dim1, in order, then dim0, dim1 (torch's
// create_dim_backshift_permutation).
DimVector backshift(int64_t dim0, int64_t dim1, int64_t ndim) {
  DimVector p;
  for (int64_t d = 0; d < ndim; ++d)
    if (d != dim0 && d != dim1) p.push_back(d);
  p.push_back(dim0);
  p.push_back(dim1);
  return p;
}

DimVector inverse_permutation(const DimVector& p) {
  DimVector inv(p.size());
  for (size_t i = 0; i < p.size(); ++i) inv[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
  return inv;
}

// "0 1 2": a dim list as torch's messages print a std::vector.
std::string spaced(IntArrayRef dims) {
  std::string s;
  for (int64_t d : dims) s += (s.empty() ? "" : " ") + std::to_string(d);
  return s;
}

// torch's _linalg_matrix_norm_checks: A a matrix of a floating dtype, dim two different dims
// (wrapped in place).
void matrix_norm_checks(const Tensor& A, DimVector& dim, bool allow_low_precision) {
  check_matrix(A, "linalg.matrix_norm");
  check_floating(A, "linalg.matrix_norm", allow_low_precision);
  OPSCOPE_CHECK(dim.size() == 2, "linalg.matrix_norm: dim must be a 2-tuple. Got ",
                spaced(dim));
  for (int64_t& d : dim) d = wrap_dim(d, A.dim());
  OPSCOPE_CHECK(dim[0] != dim[1], "linalg.matrix_norm: dims must be different. Got (", dim[0],
                ", ", dim[1], ")");
}

// A function of the singular values of A's matrices over dim, reduced by `reduce` over their
// last dim, with A's dims kept (size 1) when keepdim.
template <typename F>
Tensor over_svdvals(const Tensor& A, const DimVector& dim, bool keepdim,
                    std::optional<ScalarType> dtype, F&& reduce) {
  DimVector perm = backshift(dim[0], dim[1], A.dim());
  Tensor A_ = dtype ? ops::to(A, *dtype) : A;
  Tensor result = reduce(ops::linalg_svdvals(ops::permute(A_, perm)));
  if (keepdim) result = ops::permute(ops::unsqueeze(result, -1), inverse_permutation(perm));
  return result;
}

// ord 2, -2: the largest / smallest singular value; 1, -1: the largest / smallest column sum of
// absolute values; inf, -inf: the same over rows.
Tensor linalg_matrix_norm(const Tensor& A, const Scalar& scalar_ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  double ord = scalar_ord.to_double(), abs_ord = std::abs(ord);
  OPSCOPE_CHECK(abs_ord == 2.0 || abs_ord == 1.0 || std::isinf(abs_ord), "linalg.matrix_norm: Order ",
                ord, " not supported.");
  DimVector d(dim.begin(), dim.end());
  matrix_norm_checks(A, d, abs_ord != 2.0);
  auto max_min = [&](const Tensor& t, int64_t at, bool keep) {
    std::array<int64_t, 1> dims{at};
    return ord > 0 ? ops::amax(t, IntArrayRef(dims), keep) : amin(t, IntArrayRef(dims), keep);
  };
  if (abs_ord == 2.0) {
    return over_svdvals(A, d, keepdim, dtype, [&](const Tensor& s) { return max_min(s, -1, keepdim); });
  }
  if (std::isinf(abs_ord)) std::swap(d[0], d[1]);
  // The first reduction removes dim d[0]; a later d[1] moves down by one.
  if (!keepdim && d[0] < d[1]) --d[1];
  std::array<int64_t, 1> first{d[0]};
  return max_min(linalg_vector_norm(A, 1.0, IntArrayRef(first), keepdim, dtype), d[1], keepdim);
}

// 'fro': the 2-norm of the entries; 'nuc': the sum of the singular values.
Tensor linalg_matrix_norm_str(const Tensor& A, std::string_view ord, IntArrayRef dim, bool keepdim,
                              std::optional<ScalarType> dtype) {
  OPSCOPE_CHECK(ord == "fro" || ord == "nuc", "linalg.matrix_norm: Order ", ord,
                " not supported.");
  DimVector d(dim.begin(), dim.end());
  matrix_norm_checks(A, d, ord != "nuc");
  if (ord == "fro") return linalg_vector_norm(A, 2.0, IntArrayRef(d), keepdim, dtype);
  return over_svdvals(A, d, keepdim, dtype, [&](const Tensor& s) {
    std::array<int64_t, 1> last{-1};
    return ops::sum(s, IntArrayRef(last), keepdim, std::nullopt);
  });
}

Tensor linalg_matrix_norm_out(const Tensor& A, const Scalar& ord, IntArrayRef dim, bool keepdim,
                              std::optional<ScalarType> dtype, const Tensor& out) {
  return write_out(out, linalg_matrix_norm(A, ord, dim, keepdim, dtype));
}
Tensor linalg_matrix_norm_str_out(const Tensor& A, std::string_view ord, IntArrayRef dim,
                                  bool keepdim, std::optional<ScalarType> dtype,
                                  const Tensor& out) {
  return write_out(out, linalg_matrix_norm_str(A, ord, dim, keepdim, dtype));
}

// torch.norm(p='nuc'): the nuclear norm of a matrix, or over two dims.
Tensor nuclear_norm_dim(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::linalg_matrix_norm(self, std::string_view("nuc"), dim, keepdim, std::nullopt);
}
Tensor nuclear_norm(const Tensor& self, bool keepdim) {
  OPSCOPE_CHECK(self.dim() == 2, "Expected a tensor with 2 dimensions, but got a tensor with ",
                self.dim(), " dimension", self.dim() == 1 ? "" : "s", " instead.");
  return nuclear_norm_dim(self, {0, 1}, keepdim);
}
Tensor nuclear_norm_out(const Tensor& self, bool keepdim, const Tensor& out) {
  return write_out(out, nuclear_norm(self, keepdim));
}
Tensor nuclear_norm_dim_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  return write_out(out, nuclear_norm_dim(self, dim, keepdim));
}

// A vector norm over one dim (or all, when ord and dim are None), a matrix norm over two.
Tensor linalg_norm(const Tensor& X, const std::optional<Scalar>& ord,
                   std::optional<IntArrayRef> dim, bool keepdim, std::optional<ScalarType> dtype) {
  if (dim) {
    OPSCOPE_CHECK(dim->size() == 1 || dim->size() == 2,
                  "linalg.norm: If dim is specified, it must be of length 1 or 2. Got ", shape_str(*dim));
  } else if (ord) {
    OPSCOPE_CHECK(X.dim() == 1 || X.dim() == 2,
                  "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                  "Got ",
                  X.dim(), "D.");
  }
  if (ord && ((dim && dim->size() == 2) || (!dim && X.dim() == 2))) {
    std::array<int64_t, 2> all{0, 1};
    return ops::linalg_matrix_norm(X, *ord, dim ? *dim : IntArrayRef(all), keepdim, dtype);
  }
  return linalg_vector_norm(X, ord.value_or(Scalar(2.0)), dim, keepdim, dtype);
}

Tensor linalg_norm_str(const Tensor& X, std::string_view ord, std::optional<IntArrayRef> dim,
                       bool keepdim, std::optional<ScalarType> dtype) {
  if (dim) {
    OPSCOPE_CHECK(dim->size() == 1 || dim->size() == 2,
                  "linalg.norm: If dim is specified, it mut be of length 1 or 2. Got ", shape_str(*dim));
  } else {
    OPSCOPE_CHECK(X.dim() == 1 || X.dim() == 2,
                  "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                  "Got ",
                  X.dim(), "D.");
  }
  std::array<int64_t, 2> all{0, 1};
  return ops::linalg_matrix_norm(X, ord, dim ? *dim : IntArrayRef(all), keepdim, dtype);
}

Tensor linalg_norm_out(const Tensor& X, const std::optional<Scalar>& ord,
                       std::optional<IntArrayRef> dim, bool keepdim,
                       std::optional<ScalarType> dtype, const Tensor& out) {
  return write_out(out, linalg_norm(X, ord, dim, keepdim, dtype));
}
Tensor linalg_norm_str_out(const Tensor& X, std::string_view ord, std::optional<IntArrayRef> dim,
                           bool keepdim, std::optional<ScalarType> dtype, const Tensor& out) {
  return write_out(out, linalg_norm_str(X, ord, dim, keepdim, dtype));
}

// --- cross, powers -------------------------------------------------------------------------------

// torch.cross: dim None is the first dim of self of size 3.
Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim) {
  if (!dim) {
    for (int64_t d = 0; d < self.dim() && !dim; ++d)
      if (self.size(d) == 3) dim = d;
    OPSCOPE_CHECK(dim.has_value(), "no dimension of size 3 in input");
  }
  return ops::linalg_cross(self, other, *dim);
}
Tensor cross_out(const Tensor& self, const Tensor& other, std::optional<int64_t> dim,
                 const Tensor& out) {
  return write_out(out, cross(self, other, dim));
}

// self^n by repeated squaring (n < 0: of the inverse); n = 0 gives the identity through a
// clone of self, so the result stays in the graph.
Tensor linalg_matrix_power(const Tensor& self, int64_t n) {
  check_square(self, "linalg.matrix_power");
  if (n == 0) {
    Tensor out = ops::clone(self, ops::kContiguousFormat);
    return ops::copy_(out, ops::eye(self.size(-2), self.dtype()));
  }
  Tensor a = n < 0 ? ops::linalg_inv(self) : self;
  n = n < 0 ? -n : n;
  if (n == 1) return ops::clone(a);
  if (n == 2) return ops::matmul(a, a);
  if (n == 3) return ops::matmul(ops::matmul(a, a), a);
  Tensor z, result;
  while (n > 0) {
    bool bit = n % 2 == 1;
    n /= 2;
    z = z.defined() ? ops::matmul(z, z) : a;
    if (bit) result = result.defined() ? ops::matmul(result, z) : z;
  }
  return result;
}
Tensor linalg_matrix_power_out(const Tensor& self, int64_t n, const Tensor& out) {
  return write_out(out, ops::linalg_matrix_power(self, n));
}
Tensor matrix_power(const Tensor& self, int64_t n) {
  return ops::linalg_matrix_power(self, n);
}
Tensor matrix_power_out(const Tensor& self, int64_t n, const Tensor& out) {
  return write_out(out, ops::linalg_matrix_power(self, n));
}

// --- pinv, matrix_rank ---------------------------------------------------------------------------

// torch's get_atol_rtol: float64 0-d tolerances; rtol defaults to eps * max(m, n), or to 0 where
// an atol > 0 is given.
std::pair<Tensor, Tensor> atol_rtol(const Tensor& input, const Tensor& atol_opt,
                                    const Tensor& rtol_opt) {
  Tensor atol = atol_opt.defined() ? atol_opt : ops::zeros({}, ScalarType::Float64);
  if (rtol_opt.defined()) return {atol, rtol_opt};
  OPSCOPE_CHECK(input.dtype() == ScalarType::Float32 || input.dtype() == ScalarType::Float64,
                "This function doesn't handle types other than float and double");
  double eps = input.dtype() == ScalarType::Float32 ? std::numeric_limits<float>::epsilon()
                                                    : std::numeric_limits<double>::epsilon();
  double default_rtol = eps * static_cast<double>(std::max(input.size(-1), input.size(-2)));
  Tensor rtol = ops::full({}, default_rtol, ScalarType::Float64);
  if (atol_opt.defined())
    rtol = ops::where(ops::gt(atol_opt, 0.0), ops::zeros({}, ScalarType::Float64), rtol);
  return {atol, rtol};
}

Tensor optional_full(std::optional<double> v) {
  return v ? ops::full({}, *v, ScalarType::Float64) : Tensor();
}

// self (*,m,n) -> (*,n,m): V diag(1/s) U^T over the singular values s above
// max(atol, rtol * max(s)) (eigenvalues by magnitude when hermitian).
Tensor linalg_pinv(const Tensor& self, const Tensor& atol, const Tensor& rtol, bool hermitian) {
  ScalarType t = self.dtype();
  OPSCOPE_CHECK((t == ScalarType::Float32 || t == ScalarType::Float64) && self.dim() >= 2,
                "linalg.pinv(", cpp_name(t), "{", shape_str(self.sizes()),
                "}): expected a tensor with 2 or more dimensions of float, double, cfloat or "
                "cdouble types");
  auto [atol_t, rtol_t] = atol_rtol(self, atol, rtol);
  if (self.numel() == 0) {
    DimVector sizes(self.sizes().begin(), self.sizes().end());
    std::swap(sizes[sizes.size() - 1], sizes[sizes.size() - 2]);
    return ops::zeros(sizes, t);
  }
  auto pseudo_inverse = [&](const Tensor& S, const Tensor& abs_S, const Tensor& max_val) {
    Tensor tol = ops::maximum(ops::unsqueeze(atol_t, -1), ops::mul(ops::unsqueeze(rtol_t, -1), max_val));
    return ops::to(ops::where(ops::gt(abs_S, tol), ops::reciprocal(S), ops::zeros({}, t)), t);
  };
  if (!hermitian) {
    auto [U, S, Vh] = ops::linalg_svd(self, false);
    Tensor S_inv = pseudo_inverse(S, S, ops::narrow(S, -1, 0, 1));
    return ops::matmul(ops::mul(mT(Vh), ops::unsqueeze(S_inv, -2)), mT(U));
  }
  auto [S, U] = ops::linalg_eigh(self);
  Tensor abs_S = ops::abs(S);
  std::array<int64_t, 1> last{-1};
  Tensor S_inv = pseudo_inverse(S, abs_S, ops::amax(abs_S, IntArrayRef(last), true));
  return ops::matmul(ops::mul(U, ops::unsqueeze(S_inv, -2)), mT(U));
}
Tensor linalg_pinv_float(const Tensor& self, std::optional<double> atol, std::optional<double> rtol,
                         bool hermitian) {
  return ops::linalg_pinv(self, optional_full(atol), optional_full(rtol), hermitian);
}
Tensor linalg_pinv_rcond(const Tensor& self, double rcond, bool hermitian) {
  return ops::linalg_pinv(self, ops::zeros({}, ScalarType::Float64), optional_full(rcond),
                          hermitian);
}
Tensor linalg_pinv_rcond_tensor(const Tensor& self, const Tensor& rcond, bool hermitian) {
  return ops::linalg_pinv(self, ops::zeros({}, ScalarType::Float64), rcond, hermitian);
}

Tensor linalg_pinv_out(const Tensor& self, const Tensor& atol, const Tensor& rtol, bool hermitian,
                       const Tensor& out) {
  return write_out(out, ops::linalg_pinv(self, atol, rtol, hermitian));
}
Tensor linalg_pinv_float_out(const Tensor& self, std::optional<double> atol,
                             std::optional<double> rtol, bool hermitian, const Tensor& out) {
  return write_out(out, linalg_pinv_float(self, atol, rtol, hermitian));
}
Tensor linalg_pinv_rcond_out(const Tensor& self, double rcond, bool hermitian, const Tensor& out) {
  return write_out(out, linalg_pinv_rcond(self, rcond, hermitian));
}
Tensor linalg_pinv_rcond_tensor_out(const Tensor& self, const Tensor& rcond, bool hermitian,
                                    const Tensor& out) {
  return write_out(out, linalg_pinv_rcond_tensor(self, rcond, hermitian));
}

// input (*,m,n) -> (*) int64: how many singular values exceed max(atol, rtol * max(s))
// (eigenvalues by magnitude when hermitian).
Tensor linalg_matrix_rank(const Tensor& input, const Tensor& atol, const Tensor& rtol,
                          bool hermitian) {
  check_matrix(input, "torch.linalg.matrix_rank", "input");
  auto [atol_t, rtol_t] = atol_rtol(input, atol, rtol);
  if (input.numel() == 0) {  // no nonzero rows: rank 0 for each matrix
    IntArrayRef sizes = input.sizes();
    return ops::zeros(IntArrayRef(sizes.data(), sizes.size() - 2), ScalarType::Int64);
  }
  Tensor S, max_S;
  std::array<int64_t, 1> last{-1};
  if (!hermitian) {
    S = ops::linalg_svdvals(input);
    max_S = ops::narrow(S, -1, 0, 1);
  } else {
    S = ops::abs(ops::linalg_eigvalsh(input));
    max_S = ops::amax(S, IntArrayRef(last), true);
  }
  Tensor tol = ops::maximum(ops::unsqueeze(atol_t, -1), ops::mul(ops::unsqueeze(rtol_t, -1), max_S));
  return ops::sum(ops::gt(S, tol), IntArrayRef(last), false, std::nullopt);
}
Tensor linalg_matrix_rank_float(const Tensor& self, std::optional<double> atol,
                                std::optional<double> rtol, bool hermitian) {
  return ops::linalg_matrix_rank(self, optional_full(atol), optional_full(rtol), hermitian);
}
Tensor linalg_matrix_rank_tol(const Tensor& self, double tol, bool hermitian) {
  return ops::linalg_matrix_rank(self, optional_full(tol), ops::zeros({}, ScalarType::Float64),
                                 hermitian);
}
Tensor linalg_matrix_rank_tol_tensor(const Tensor& input, const Tensor& tol, bool hermitian) {
  return ops::linalg_matrix_rank(input, tol, ops::zeros({}, ScalarType::Float64), hermitian);
}

Tensor linalg_matrix_rank_out(const Tensor& input, const Tensor& atol, const Tensor& rtol,
                              bool hermitian, const Tensor& out) {
  return write_out(out, ops::linalg_matrix_rank(input, atol, rtol, hermitian));
}
Tensor linalg_matrix_rank_float_out(const Tensor& self, std::optional<double> atol,
                                    std::optional<double> rtol, bool hermitian, const Tensor& out) {
  return write_out(out, linalg_matrix_rank_float(self, atol, rtol, hermitian));
}
Tensor linalg_matrix_rank_tol_out(const Tensor& self, double tol, bool hermitian,
                                  const Tensor& out) {
  return write_out(out, linalg_matrix_rank_tol(self, tol, hermitian));
}
Tensor linalg_matrix_rank_tol_tensor_out(const Tensor& input, const Tensor& tol, bool hermitian,
                                         const Tensor& out) {
  return write_out(out, linalg_matrix_rank_tol_tensor(input, tol, hermitian));
}

// --- multi_dot -----------------------------------------------------------------------------------

// The product of chain[i..j] in the order `split` (the matrix-chain dynamic program) gives.
Tensor chain_product(const std::vector<Tensor>& chain, const std::vector<std::vector<size_t>>& split,
                     size_t i, size_t j) {
  if (i == j) return chain[i];
  size_t k = split[i][j];
  return ops::mm(chain_product(chain, split, i, k), chain_product(chain, split, k + 1, j));
}

// tensors (n0) or (m,n0), (n0,n1), ..., (nk) or (nk,p) -> the product in the cheapest order,
// 1-D ends as a row / column vector (their dims dropped from the result).
Tensor linalg_multi_dot(TensorList tensors) {
  size_t n = tensors.size();
  OPSCOPE_CHECK(n >= 2, "multi_dot(): expected at least 2 tensors but got ", n);
  std::vector<Tensor> chain(tensors.begin(), tensors.end());
  DimVector out_shape;
  const Tensor& first = tensors[0];
  const Tensor& last = tensors[n - 1];
  OPSCOPE_CHECK(first.dim() == 1 || first.dim() == 2,
                "multi_dot(): the first tensor must be 1D or 2D but got ", first.dim(), "D");
  if (first.dim() == 1)
    chain[0] = ops::unsqueeze(first, 0);
  else
    out_shape.push_back(first.size(0));
  OPSCOPE_CHECK(last.dim() == 1 || last.dim() == 2,
                "multi_dot(): the last tensor must be 1D or 2D but got ", last.dim(), "D");
  if (last.dim() == 1)
    chain[n - 1] = ops::unsqueeze(last, -1);
  else
    out_shape.push_back(last.size(1));
  for (size_t i = 1; i + 1 < n; ++i)
    OPSCOPE_CHECK(tensors[i].dim() == 2, "multi_dot(): tensor ", i, " must be 2D but got ",
                  tensors[i].dim(), "D");
  for (size_t i = 1; i < n; ++i) {
    OPSCOPE_CHECK(chain[i].dtype() == chain[0].dtype(),
                  "multi_dot(): all tensors must have be the same dtype but tensor 0 is ",
                  typemeta_name(chain[0].dtype()), " and tensor ", i, " ",
                  typemeta_name(chain[i].dtype()));
    OPSCOPE_CHECK(chain[i - 1].size(-1) == chain[i].size(0), "multi_dot(): tensors ", i - 1,
                  " and ", i, " with shapes ", shape_str(tensors[i - 1].sizes()), " and ",
                  shape_str(tensors[i].sizes()), " cannot be multiplied");
  }
  if (n == 2) return ops::view(ops::mm(chain[0], chain[1]), out_shape);
  if (n == 3) {
    int64_t a = chain[0].size(0), b = chain[1].size(0), c = chain[2].size(0), d = chain[2].size(1);
    bool right_first = a * c * (b + d) > b * d * (a + c);
    Tensor r = right_first ? ops::mm(chain[0], ops::mm(chain[1], chain[2]))
                           : ops::mm(ops::mm(chain[0], chain[1]), chain[2]);
    return ops::view(r, out_shape);
  }
  // cost[i][j]: the fewest multiplications for chain[i..j]; split[i][j]: where to split it.
  std::vector<int64_t> p(n + 1);
  for (size_t i = 0; i < n; ++i) p[i] = chain[i].size(0);
  p[n] = chain[n - 1].size(1);
  std::vector<std::vector<int64_t>> cost(n, std::vector<int64_t>(n, 0));
  std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
  for (size_t len = 1; len < n; ++len)
    for (size_t i = 0; i + len < n; ++i) {
      size_t j = i + len;
      cost[i][j] = std::numeric_limits<int64_t>::max();
      for (size_t k = i; k < j; ++k) {
        int64_t q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
        if (q < cost[i][j]) {
          cost[i][j] = q;
          split[i][j] = k;
        }
      }
    }
  return ops::view(chain_product(chain, split, 0, n - 1), out_shape);
}

Tensor linalg_multi_dot_out(TensorList tensors, const Tensor& out) {
  return write_out(out, linalg_multi_dot(tensors));
}

}  // namespace

static Library composite_implicit_linalg(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("linalg_inv", fn<&linalg_inv>);
      m.impl("linalg_inv.out", fn<&linalg_inv_out>);
      m.impl("inverse", fn<&inverse>);
      m.impl("inverse.out", fn<&linalg_inv_out>);
      m.impl("linalg_det", fn<&linalg_det>);
      m.impl("linalg_det.out", fn<&linalg_det_out>);
      m.impl("det", fn<&det>);
      m.impl("linalg_slogdet", fn<&linalg_slogdet>);
      m.impl("slogdet", fn<&slogdet>);
      m.impl("logdet", fn<&logdet>);
      m.impl("linalg_solve_ex", fn<&linalg_solve_ex>);
      m.impl("linalg_solve", fn<&linalg_solve>);
      m.impl("linalg_solve.out", fn<&linalg_solve_out>);
      m.impl("linalg_cholesky", fn<&linalg_cholesky>);
      m.impl("linalg_cholesky.out", fn<&linalg_cholesky_out>);
      m.impl("qr", fn<&qr>);
      m.impl("linalg_eigh", fn<&linalg_eigh>);
      m.impl("linalg_eigvalsh", fn<&linalg_eigvalsh>);
      m.impl("linalg_eigvalsh.out", fn<&linalg_eigvalsh_out>);
      m.impl("linalg_svd", fn<&linalg_svd>);
      m.impl("linalg_svdvals", fn<&linalg_svdvals>);
      m.impl("linalg_svdvals.out", fn<&linalg_svdvals_out>);
      m.impl("svd", fn<&svd>);
      m.impl("linalg_norm", fn<&linalg_norm>);
      m.impl("linalg_norm.ord_str", fn<&linalg_norm_str>);
      m.impl("linalg_norm.out", fn<&linalg_norm_out>);
      m.impl("linalg_norm.ord_str_out", fn<&linalg_norm_str_out>);
      m.impl("linalg_matrix_norm", fn<&linalg_matrix_norm>);
      m.impl("linalg_matrix_norm.out", fn<&linalg_matrix_norm_out>);
      m.impl("linalg_matrix_norm.str_ord", fn<&linalg_matrix_norm_str>);
      m.impl("linalg_matrix_norm.str_ord_out", fn<&linalg_matrix_norm_str_out>);
      m.impl("nuclear_norm", fn<&nuclear_norm>);
      m.impl("nuclear_norm.out", fn<&nuclear_norm_out>);
      m.impl("nuclear_norm.dim", fn<&nuclear_norm_dim>);
      m.impl("nuclear_norm.dim_out", fn<&nuclear_norm_dim_out>);
      m.impl("cross", fn<&cross>);
      m.impl("cross.out", fn<&cross_out>);
      m.impl("linalg_matrix_power", fn<&linalg_matrix_power>);
      m.impl("linalg_matrix_power.out", fn<&linalg_matrix_power_out>);
      m.impl("matrix_power", fn<&matrix_power>);
      m.impl("matrix_power.out", fn<&matrix_power_out>);
      m.impl("linalg_pinv.atol_rtol_float", fn<&linalg_pinv_float>);
      m.impl("linalg_pinv", fn<&linalg_pinv_rcond>);
      m.impl("linalg_pinv.rcond_tensor", fn<&linalg_pinv_rcond_tensor>);
      m.impl("linalg_matrix_rank.atol_rtol_tensor", fn<&linalg_matrix_rank>);
      m.impl("linalg_matrix_rank.atol_rtol_float", fn<&linalg_matrix_rank_float>);
      m.impl("linalg_matrix_rank", fn<&linalg_matrix_rank_tol>);
      m.impl("linalg_matrix_rank.tol_tensor", fn<&linalg_matrix_rank_tol_tensor>);
      m.impl("linalg_multi_dot", fn<&linalg_multi_dot>);
      m.impl("linalg_multi_dot.out", fn<&linalg_multi_dot_out>);
      m.impl("linalg_pinv.atol_rtol_tensor_out", fn<&linalg_pinv_out>);
      m.impl("linalg_pinv.atol_rtol_float_out", fn<&linalg_pinv_float_out>);
      m.impl("linalg_pinv.out", fn<&linalg_pinv_rcond_out>);
      m.impl("linalg_pinv.out_rcond_tensor", fn<&linalg_pinv_rcond_tensor_out>);
      m.impl("linalg_matrix_rank.atol_rtol_tensor_out", fn<&linalg_matrix_rank_out>);
      m.impl("linalg_matrix_rank.atol_rtol_float_out", fn<&linalg_matrix_rank_float_out>);
      m.impl("linalg_matrix_rank.out", fn<&linalg_matrix_rank_tol_out>);
      m.impl("linalg_matrix_rank.out_tol_tensor", fn<&linalg_matrix_rank_tol_tensor_out>);
    });

static Library composite_explicit_linalg(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("_linalg_check_errors", fn<&_linalg_check_errors>);
      m.impl("linalg_pinv.atol_rtol_tensor", fn<&linalg_pinv>);
    });

}  // namespace opscope::composite
