// The derivative table's linalg family (see core/autograd/Derivatives.h; core/ops/linalg.h): the
// factorizations' backward formulas, as torch 1.13's derivatives.yaml and FunctionsManual.cpp
// define them (real inputs), each next to the forward it undoes. Matrices are the last two dims;
// mT(X) is X transposed there. The triangular and LU solves torch uses are written with
// linalg_solve / linalg_solve_triangular, so with create_graph=True these formulas are
// differentiable again.
#include <cmath>

#include "core/autograd/derivatives/common.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/linalg.h"
#include "core/ops/linear.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::autograd {

namespace {

// diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<int64_t>, Default<int64_t>, Default<int64_t>)>
    diag_embed{"aten::diag_embed"};

Tensor mT(const Tensor& t) {
  return ops::transpose(t, -2, -1);
}
Tensor mm(const Tensor& a, const Tensor& b) {
  return ops::matmul(a, b);
}
// a + b, either possibly undefined (none: undefined).
Tensor plus(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return ops::add(a, b);
}

// The gradient of norm = ||x||_p over every element (torch's norm_backward for a full
// reduction): p = 0: none; p = 1: sign(x); p = inf: sign(x) shared evenly among the elements
// where |x| is the norm (or NaN); p < 1: sign(x) |x|^(p-1) norm^(1-p), 0 where x is 0;
// otherwise x |x|^(p-2) / norm^(p-1) (sign(x) |x|^(p-1) for p < 2), 0 where the norm is 0.
Tensor full_norm_backward(const Tensor& g, const Tensor& x, double p, const Tensor& norm) {
  if (p == 0.0) return ops::zeros_like(x);
  if (p == 1.0) return ops::mul(ops::sign(x), g);
  if (std::isinf(p)) {
    Tensor ax = ops::abs(x);
    Tensor mask = ops::logical_or(ops::eq(ax, norm), ops::isnan(ax));
    return ops::mul(ops::sign(x), ops::mul(ops::div(g, ops::sum(mask)), mask));
  }
  if (p < 1.0) {
    Tensor scaled = ops::mul(ops::sign(x), ops::masked_fill(ops::pow(ops::abs(x), Scalar(p - 1)),
                                                            ops::eq(x, Scalar(0)), Scalar(0)));
    return ops::mul(ops::mul(scaled, g), ops::pow(norm, Scalar(1 - p)));
  }
  Tensor scaled = p < 2.0 ? ops::mul(ops::sign(x), ops::pow(ops::abs(x), Scalar(p - 1)))
                          : ops::mul(x, ops::pow(ops::abs(x), Scalar(p - 2)));
  Tensor scale = ops::div(g, ops::pow(norm, Scalar(p - 1)));
  return ops::mul(scaled, ops::masked_fill(scale, ops::eq(norm, Scalar(0)), Scalar(0)));
}

// A^{-T} (*, n, n), through the inverse (the invertible case).
Tensor inverse_transposed(const Tensor& A) {
  return mT(std::get<0>(ops::linalg_inv_ex(A)));
}

// prod_{j != i} s_j for each i of the last dim (no division: zeros allowed), as the product
// of the exclusive running products from the left and from the right.
Tensor products_of_the_others(const Tensor& S) {
  int64_t k = S.size(-1);
  std::array<int64_t, 1> last{-1};
  Tensor one = ops::ones_like(ops::narrow(S, -1, 0, 1));
  std::array<Tensor, 2> l{one, ops::narrow(S, -1, 0, k - 1)}, r{ops::narrow(S, -1, 1, k - 1), one};
  Tensor left = ops::cumprod(ops::cat(l, -1), -1);
  Tensor right = ops::flip(ops::cumprod(ops::flip(ops::cat(r, -1), last), -1), last);
  return ops::mul(left, right);
}

// det's gradient g det A^{-T}, the cofactor matrix times g; where det is exactly 0 (A^{-T}
// does not exist) the cofactors come from the SVD A = U S Vh: det(U) det(Vh) U
// diag(prod_{j != i} s_j) Vh (torch's linalg_det_backward).
Tensor det_backward(const Tensor& g, const Tensor& det, const Tensor& A) {
  auto matrix = [](const Tensor& t) { return ops::unsqueeze(ops::unsqueeze(t, -1), -1); };
  Tensor nonsingular = ops::mul(matrix(ops::mul(g, det)), inverse_transposed(A));
  Tensor singular_at = ops::eq(det, 0.0);
  if (A.size(-1) == 0 || !ops::any(singular_at).data_ptr<bool>()[0]) return nonsingular;
  auto [U, S, Vh] = ops::linalg_svd(A, false);
  Tensor alpha = ops::mul(ops::mul(ops::linalg_det(U), ops::linalg_det(Vh)), g);
  Tensor D = ops::mul(products_of_the_others(S), ops::unsqueeze(alpha, -1));
  Tensor singular = mm(ops::mul(U, ops::unsqueeze(D, -2)), Vh);
  return ops::where(matrix(singular_at), singular, nonsingular);
}

// Cholesky: A = L L^T. With M = tril(L^T gL) and phi(M) its symmetric completion with the
// diagonal halved, gA = L^{-T} phi(M) L^{-1} (torch's cholesky_backward).
Tensor cholesky_backward(Tensor gL, bool upper, Tensor L) {
  if (!gL.defined()) return Tensor();
  if (upper) {
    L = mT(L);
    gL = mT(gL);
  }
  Tensor M = ops::tril(mm(mT(L), gL));
  Tensor phi = ops::mul(ops::add(M, mT(ops::tril(M, -1))), 0.5);
  Tensor left = ops::linalg_solve_triangular(mT(L), phi, /*upper=*/true);  // L^{-T} phi
  return ops::linalg_solve_triangular(L, left, /*upper=*/false, /*left=*/false);  // ... L^{-1}
}

// QR of a square or tall A (m >= n, reduced): A = Q R. With M = R gR^T - gQ^T Q,
// gA = (gQ + Q copyltu(M)) R^{-T}, copyltu(M) = tril(M) + tril(M, -1)^T.
Tensor qr_backward_tall(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R) {
  Tensor M = plus(gR.defined() ? mm(R, mT(gR)) : Tensor(),
                  gQ.defined() ? ops::neg(mm(mT(gQ), Q)) : Tensor());
  Tensor B = plus(gQ, mm(Q, ops::add(ops::tril(M), mT(ops::tril(M, -1)))));
  return ops::linalg_solve_triangular(mT(R), B, /*upper=*/false, /*left=*/false);  // B R^{-T}
}

// linalg_qr's backward: tall (m >= n) as above; wide (m < n): A = Q [X | Y] with X (m, m)
// square and Y = Q^T A_Y, so gA = [qr_backward(gQ + A_Y gY^T, gX) | Q gY].
Tensor qr_backward(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R,
                   std::string_view mode) {
  OPSCOPE_CHECK(mode != "r",
                "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
                "through linalg.qr.");
  int64_t m = Q.size(-2), n = R.size(-1);
  OPSCOPE_CHECK(mode != "complete" || m <= n,
                "The QR decomposition is not differentiable when mode='complete' and nrows > "
                "ncols.");
  if (m >= n) return qr_backward_tall(gQ, gR, Q, R);
  Tensor X = ops::narrow(R, -1, 0, m), Y = ops::narrow(R, -1, m, n - m);
  Tensor gX = gR.defined() ? ops::narrow(gR, -1, 0, m) : Tensor();
  Tensor gY = gR.defined() ? ops::narrow(gR, -1, m, n - m) : Tensor();
  Tensor gQ_ = plus(gQ, gY.defined() ? mm(mm(Q, Y), mT(gY)) : Tensor());  // A_Y = Q Y
  Tensor gA_X = qr_backward_tall(gQ_, gX, Q, X);
  Tensor gA_Y = gY.defined() ? mm(Q, gY) : ops::zeros_like(Y);
  std::array<Tensor, 2> parts{gA_X, gA_Y};
  return ops::cat(parts, -1);
}

// Symmetric eigendecomposition A = V diag(L) V^T:
// gA = V (diag(gL) + skew(V^T gV) / E) V^T, E_ij = L_j - L_i off the diagonal
// (torch's linalg_eig_backward for Hermitian A).
Tensor eigh_backward(const Tensor& gL, const Tensor& gV, const Tensor& L, const Tensor& V) {
  OPSCOPE_CHECK(V.defined() && V.dim() >= 2,
                "linalg_eigh_backward: torch.linalg.eigvalsh does not support backward when the "
                "eigenvectors were not computed");
  if (!gV.defined()) return mm(ops::mul(V, ops::unsqueeze(gL, -2)), mT(V));
  int64_t n = L.size(-1);
  Tensor eye = ops::eye(n, L.dtype());
  Tensor E = ops::add(ops::sub(ops::unsqueeze(L, -2), ops::unsqueeze(L, -1)), eye);
  Tensor VtgV = mm(mT(V), gV);
  Tensor skew = ops::mul(ops::sub(VtgV, mT(VtgV)), 0.5);
  Tensor inner = ops::div(skew, E);  // skew's diagonal is 0
  if (gL.defined()) inner = ops::add(inner, diag_embed(gL));
  return mm(mm(V, inner), mT(V));
}

// SVD A = U diag(S) Vh (k = min(m, n) singular values; full_matrices: the first k columns of U
// and rows of Vh), V = Vh^T. With J = skew(U^T gU), K = skew(V^T gV), E_ij = S_j^2 - S_i^2:
//   gA = U [(J S_j + S_i K) / E + diag(gS)] Vh
//        + (I - U U^T) gU S^{-1} Vh   (m > k)
//        + U S^{-1} gV^T (I - V V^T)   (n > k)
// the gauge-invariant formula of torch's svd_backward for distinct singular values.
variable_list svd_backward(const Tensor& gU_, const Tensor& gS, const Tensor& gVh_,
                           const Tensor& U_, const Tensor& S, const Tensor& Vh_) {
  if (!gU_.defined() && !gS.defined() && !gVh_.defined()) return {Tensor()};
  OPSCOPE_CHECK(U_.defined() && U_.dim() >= 2,
                "linalg.svd: the singular vectors were not computed (compute_uv=False), so "
                "the singular values cannot be differentiated here");
  int64_t k = S.size(-1), m = U_.size(-2), n = Vh_.size(-1);
  auto first_cols = [&](const Tensor& t) {
    return t.defined() && t.size(-1) > k ? ops::narrow(t, -1, 0, k) : t;
  };
  auto first_rows = [&](const Tensor& t) {
    return t.defined() && t.size(-2) > k ? ops::narrow(t, -2, 0, k) : t;
  };
  Tensor U = first_cols(U_), gU = first_cols(gU_), Vh = first_rows(Vh_), gVh = first_rows(gVh_);
  if (!gU.defined() && !gVh.defined()) return {mm(ops::mul(U, ops::unsqueeze(gS, -2)), Vh)};
  Tensor V = mT(Vh), gV = gVh.defined() ? mT(gVh) : Tensor();
  Tensor S2 = ops::mul(S, S);
  Tensor E = ops::add(ops::sub(ops::unsqueeze(S2, -2), ops::unsqueeze(S2, -1)),
                      ops::eye(k, S.dtype()));
  Tensor inner;
  if (gU.defined()) {
    Tensor UtgU = mm(mT(U), gU);
    inner = ops::mul(ops::sub(UtgU, mT(UtgU)), ops::unsqueeze(S, -2));
  }
  if (gV.defined()) {
    Tensor VtgV = mm(mT(V), gV);
    inner = plus(inner, ops::mul(ops::unsqueeze(S, -1), ops::sub(VtgV, mT(VtgV))));
  }
  inner = ops::div(inner, E);
  if (gS.defined()) inner = ops::add(inner, diag_embed(gS));
  Tensor gA = mm(mm(U, inner), Vh);
  if (gU.defined() && m > k) {
    Tensor proj = ops::sub(gU, mm(U, mm(mT(U), gU)));  // (I - U U^T) gU
    gA = ops::add(gA, mm(ops::div(proj, ops::unsqueeze(S, -2)), Vh));
  }
  if (gV.defined() && n > k) {
    Tensor proj = ops::sub(gV, mm(V, mm(mT(V), gV)));  // (I - V V^T) gV
    gA = ops::add(gA, mm(U, mT(ops::div(proj, ops::unsqueeze(S, -2)))));
  }
  return {gA};
}

// P = pinv(A) (n, m) of A (m, n), of constant rank:
// gA = -P^T g P^T + (I - A P) g^T P P^T + P^T P g^T (I - P A).
Tensor pinv_backward(const Tensor& g, const Tensor& P, const Tensor& A) {
  Tensor Pt = mT(P), gt = mT(g);
  Tensor t1 = ops::neg(mm(mm(Pt, g), Pt));
  Tensor X2 = mm(mm(gt, P), Pt);
  Tensor t2 = ops::sub(X2, mm(A, mm(P, X2)));
  Tensor X3 = mm(mm(Pt, P), gt);
  Tensor t3 = ops::sub(X3, mm(mm(X3, P), A));
  return ops::add(ops::add(t1, t2), t3);
}

}  // namespace

// clang-format off
std::vector<Derivative> linalg_derivatives() {
  using namespace formulas;
  return {
      // linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)
      //   A (*,n,n) -> A^{-1}: gA = -A^{-T} g A^{-T}
      {.op = "linalg_inv_ex", .node = "LinalgInvExBackward0", .inputs = {"A"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         Tensor inv_t = mT(c.result(0));
         return {ops::neg(mm(mm(inv_t, g[0]), inv_t))};
       },
       .outputs = 1},
      // _linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)
      //   A (*,n,n) -> det (*): gA = g det A^{-T} (the cofactors where det = 0)
      {.op = "_linalg_det", .node = "LinalgDetBackward0", .inputs = {"A"}, .save = {"A"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {det_backward(g[0], c.result(0), c.arg("A"))};
       },
       .outputs = 1},
      // _linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)
      //   A (*,n,n) -> log|det| (*): gA = g A^{-T} (the sign's gradient is zero)
      {.op = "_linalg_slogdet", .node = "LinalgSlogdetBackward0", .inputs = {"A"}, .save = {"A"},
       .formula = [](C c, G g) -> variable_list {
         if (!g[1].defined()) return {Tensor()};
         Tensor scale = ops::unsqueeze(ops::unsqueeze(g[1], -1), -1);
         return {ops::mul(scale, inverse_transposed(c.arg("A")))};
       },
       .outputs = 2},
      // _linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False)
      //     -> (Tensor result, Tensor LU, Tensor pivots, Tensor info)
      //   A X = B: gB = A^{-T} g, gA = -gB X^T;  X A = B: gB = g A^{-T}, gA = -X^T gB
      {.op = "_linalg_solve_ex", .node = "LinalgSolveExBackward0", .inputs = {"A", "B"},
       .save = {"A"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         bool left = c.value("left").to_bool();
         Tensor A = c.arg("A"), X = c.result(0);
         Tensor gB = ops::linalg_solve(mT(A), g[0], left);
         if (!c.needs("A")) return {Tensor(), gB};
         IntArrayRef a = c.sizes("A"), b = c.sizes("B");
         bool vector = b.size() == 1 ||
                       (a.size() - 1 == b.size() && std::equal(b.begin(), b.end(), a.begin()));
         Tensor gA = !left  ? mm(mT(X), gB)
                     : vector ? mm(ops::unsqueeze(gB, -1), ops::unsqueeze(X, -2))
                              : mm(gB, mT(X));
         return {ops::neg(gA), c.needs("B") ? gB : Tensor()};
       },
       .outputs = 1},
      // linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True,
      //     bool unitriangular=False) -> Tensor
      //   A X = B: gB = A^{-T} g (A^T is triangular the other way), gA = -gB X^T on A's triangle
      //   (its strict part when unitriangular); X A = B: gA = -X^T gB
      {.op = "linalg_solve_triangular", .node = "LinalgSolveTriangularBackward0",
       .inputs = {"self", "B"}, .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         bool upper = c.value("upper").to_bool(), left = c.value("left").to_bool();
         bool unit = c.value("unitriangular").to_bool();
         Tensor A = c.arg("self"), X = c.result(0);
         Tensor gB = ops::linalg_solve_triangular(mT(A), g[0], !upper, left, unit);
         Tensor gA;
         if (c.needs("self")) {
           gA = ops::neg(left ? mm(gB, mT(X)) : mm(mT(X), gB));
           gA = upper ? ops::triu(gA, unit ? 1 : 0) : ops::tril(gA, unit ? -1 : 0);
         }
         return {gA, c.needs("B") ? gB : Tensor()};
       }},
      // linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False)
      //     -> (Tensor L, Tensor info)
      {.op = "linalg_cholesky_ex", .node = "LinalgCholeskyExBackward0", .inputs = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {cholesky_backward(g[0], c.value("upper").to_bool(), c.result(0))};
       },
       .outputs = 1},
      // cholesky(Tensor self, bool upper=False) -> Tensor
      {.op = "cholesky", .node = "CholeskyBackward0", .inputs = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {cholesky_backward(g[0], c.value("upper").to_bool(), c.result(0))};
       }},
      // linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)
      {.op = "linalg_qr", .node = "LinalgQrBackward0", .inputs = {"A"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {qr_backward(g[0], g[1], c.result(0), c.result(1), c.value("mode").to_string())};
       }},
      // _linalg_eigh(Tensor A, str UPLO="L", bool compute_v=True)
      //     -> (Tensor eigenvalues, Tensor eigenvectors)
      {.op = "_linalg_eigh", .node = "LinalgEighBackward0", .inputs = {"A"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {eigh_backward(g[0], g[1], c.result(0), c.result(1))};
       }},
      // _linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None)
      //     -> (Tensor U, Tensor S, Tensor Vh)
      {.op = "_linalg_svd", .node = "LinalgSvdBackward0", .inputs = {"A"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return svd_backward(g[0], g[1], g[2], c.result(0), c.result(1), c.result(2));
       }},
      // _cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor:
      //   x1: _cdist_backward(grad.contiguous(), x1, x2, p, result)
      //   x2: _cdist_backward(grad.mT().contiguous(), x2, x1, p, result.mT().contiguous())
      {.op = "_cdist_forward", .node = "CdistBackward0", .inputs = {"x1", "x2"},
       .save = {"x1", "x2"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         if (!g[0].defined()) return {Tensor(), Tensor()};
         const double p = c.value("p").to_double();
         Tensor x1 = c.arg("x1"), x2 = c.arg("x2"), result = c.result();
         auto contiguous = [](const Tensor& t) {  // Tensor::contiguous(): an op only when needed
           return t.is_contiguous() ? t : ops::contiguous(t);
         };
         return {c.needs("x1") ? ops::_cdist_backward(contiguous(g[0]), x1, x2, p, result)
                               : Tensor(),
                 c.needs("x2") ? ops::_cdist_backward(contiguous(mT(g[0])), x2, x1, p,
                                                      contiguous(mT(result)))
                               : Tensor()};
       }},
      // _cdist_backward(...) and _pdist_backward(...): no derivative in torch 1.13
      {.op = "_cdist_backward", .node = "CdistBackwardBackward0",
       .inputs = {"grad", "x1", "x2", "cdist"},
       .formula = [](C, G) -> variable_list {
         throw NotImplementedError("the derivative for '_cdist_backward' is not implemented.");
       }},
      {.op = "_pdist_backward", .node = "PdistBackwardBackward0",
       .inputs = {"grad", "self", "pdist"},
       .formula = [](C, G) -> variable_list {
         throw NotImplementedError("the derivative for '_pdist_backward' is not implemented.");
       }},
      // _euclidean_dist(Tensor x1, Tensor x2) -> Tensor:
      //   x1, x2: _euclidean_dist_backward(grad, x1, x2, result): with r = grad / result (0 where
      //   result is 0), x1 sum_j r - r x2 and x2 sum_i r - r^T x1
      {.op = "_euclidean_dist", .node = "EuclideanDistBackward0", .inputs = {"x1", "x2"},
       .save = {"x1", "x2"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         if (!g[0].defined()) return {Tensor(), Tensor()};
         Tensor x1 = c.arg("x1"), x2 = c.arg("x2"), result = c.result();
         Tensor ratio = ops::div(g[0], result);
         ops::masked_fill_(ratio, ops::eq(result, Scalar(0)), Scalar(0));
         std::array<int64_t, 1> last{-1}, rows{-2};
         Tensor g1 = ops::sub(ops::mul(x1, ops::sum(ratio, IntArrayRef(last), true, std::nullopt)),
                              ops::matmul(ratio, x2));
         Tensor g2 = ops::sub(
             ops::mul(x2, ops::unsqueeze(ops::sum(ratio, IntArrayRef(rows), false, std::nullopt), -1)),
             ops::matmul(mT(ratio), x1));
         return {g1, g2};
       }},
      // dist(Tensor self, Tensor other, Scalar p=2) -> Tensor:
      //   self: norm_backward(grad, self - other, p, result); other: its negation, both summed
      //   back over broadcast dims by the engine
      {.op = "dist", .node = "DistBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         if (!g[0].defined()) return {Tensor(), Tensor()};
         Tensor d = ops::sub(c.arg("self"), c.arg("other"));
         Tensor gd = full_norm_backward(g[0], d, c.value("p").to_double(), c.result());
         return {c.needs("self") ? gd : Tensor(), c.needs("other") ? ops::neg(gd) : Tensor()};
       }},
      // _pdist_forward(Tensor self, float p=2) -> Tensor:
      //   self: _pdist_backward(grad, self, p, result)
      {.op = "_pdist_forward", .node = "PdistBackward0", .inputs = {"self"}, .save = {"self"},
       .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         if (!g[0].defined()) return {Tensor()};
         return {ops::_pdist_backward(g[0], c.arg("self"), c.value("p").to_double(), c.result())};
       }},
      // linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor
      //   d(self x other) = dself x other + self x dother: gself = other x g, gother = g x self
      {.op = "linalg_cross", .node = "LinalgCrossBackward0", .inputs = {"self", "other"},
       .save = {"self", "other"}, .save_for = {{"self", "other"}, {"other", "self"}},
       .formula = [](C c, G g) -> variable_list {
         int64_t dim = c.value("dim").to_int();
         return {c.needs("self") ? ops::linalg_cross(c.arg("other"), g[0], dim) : Tensor(),
                 c.needs("other") ? ops::linalg_cross(g[0], c.arg("self"), dim) : Tensor()};
       }},
      // linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None,
      //     bool hermitian=False) -> Tensor:   self (*,m,n) -> (*,n,m)
      {.op = "linalg_pinv.atol_rtol_tensor", .node = "LinalgPinvBackward0", .inputs = {"self"},
       .save = {"self"}, .save_result = true,
       .formula = [](C c, G g) -> variable_list {
         return {pinv_backward(g[0], c.result(0), c.arg("self"))};
       }},
      // linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None)
      //     -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)
      //   X = pinv(A) B: gA through pinv's backward with g_pinv = gX B^T, gB = pinv(A)^T gX
      {.op = "linalg_lstsq", .node = "LinalgLstsqBackward0", .inputs = {"self", "b"},
       .save = {"self", "b"},
       .formula = [](C c, G g) -> variable_list {
         if (!g[0].defined()) return {Tensor(), Tensor()};
         Tensor A = c.arg("self"), B = c.arg("b");
         bool vector = B.dim() == A.dim() - 1;
         Tensor gX = vector ? ops::unsqueeze(g[0], -1) : g[0];
         Tensor Bm = vector ? ops::unsqueeze(B, -1) : B;
         Tensor P = ops::linalg_pinv(A, Tensor(), Tensor(), false);
         Tensor gA = c.needs("self") ? pinv_backward(mm(gX, mT(Bm)), P, A) : Tensor();
         Tensor gB;
         if (c.needs("b")) {
           gB = mm(mT(P), gX);
           if (vector) gB = ops::squeeze(gB, -1);
         }
         return {gA, gB};
       },
       .outputs = 1},
  };
}
// clang-format on

}  // namespace opscope::autograd
