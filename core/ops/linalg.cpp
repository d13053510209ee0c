// The linalg family's schemas: one def row per overload (torch 1.13's native_functions.yaml),
// with a shape comment. See core/ops/linalg.h for what each op does.
//
// Kernels, each registered beside its definition: the factorizations (linalg_inv_ex,
// _linalg_det, _linalg_slogdet, _linalg_solve_ex, linalg_cholesky_ex, cholesky, linalg_qr,
// _linalg_eigh, _linalg_svd) and linalg_cross are CPU kernels in core/ops/cpu/linalg.cpp, on
// LAPACK (core/runtime/Lapack.h); the spellings and the ops torch defines by others (linalg_inv,
// det, slogdet, logdet, solve, eigvalsh, svd / svdvals, the norms, cross, matrix_power, pinv,
// matrix_rank, multi_dot) are composites in core/ops/composite/linalg.cpp, so a trace shows the
// chain torch's does (torch.det -> linalg_det -> _linalg_det).
#include "core/ops/linalg.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library linalg_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;  // torch.linalg.* and out= forms
  constexpr Variants kBoth = Variants::FunctionAndMethod;

  // info (*) int32 -> (): raises torch's message for the first nonzero info
  m.def("_linalg_check_errors(Tensor info, str api_name, *, bool is_matrix) -> ()");

  // A (*,n,n) -> inverse (*,n,n), info (*)
  m.def("linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)",
        kFunction);
  m.def("linalg_inv(Tensor A) -> Tensor", kFunction);
  m.def("linalg_inv.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("inverse(Tensor self) -> Tensor", kBoth);
  m.def("inverse.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);

  // A (*,n,n) -> det (*), LU (*,n,n), pivots (*,n)
  m.def("_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)");
  m.def("linalg_det(Tensor A) -> Tensor", kFunction);
  m.def("linalg_det.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("det(Tensor self) -> Tensor", kBoth);
  // A (*,n,n) -> sign (*), logabsdet (*), LU (*,n,n), pivots (*,n)
  m.def(
      "_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)");
  m.def("linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", kFunction);
  m.def("slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", kBoth);
  m.def("logdet(Tensor self) -> Tensor", kBoth);

  // A (*,n,n), B (*,n,k) or (*,n) -> X of B's shape, batch dims broadcast; left=False: X A = B
  m.def(
      "_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
      "(Tensor result, Tensor LU, Tensor pivots, Tensor info)");
  m.def(
      "linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
      "(Tensor result, Tensor info)",
      kFunction);
  m.def("linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", kFunction);
  m.def("linalg_solve.out(Tensor A, Tensor B, *, bool left=True, Tensor(a!) out) -> Tensor(a!)",
        kFunction);

  // self (*a,n,n) triangular, B (*b,n,k) -> X (broadcast(*a,*b), n,k), in self's dtype;
  // left=False: X self = B, B (*b,k,n)
  m.def(
      "linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, "
      "bool unitriangular=False) -> Tensor",
      kFunction);
  m.def(
      "linalg_solve_triangular.out(Tensor self, Tensor B, *, bool upper, bool left=True, "
      "bool unitriangular=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  // self (*,n,n) symmetric positive-definite -> L (*,n,n) lower (upper: L^T), info (*)
  m.def(
      "linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> "
      "(Tensor L, Tensor info)",
      kFunction);
  m.def("linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor", kFunction);
  m.def("linalg_cholesky.out(Tensor self, *, bool upper=False, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("cholesky(Tensor self, bool upper=False) -> Tensor", kBoth);
  m.def("cholesky.out(Tensor self, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);

  // A (*,m,n) -> Q (*,m,k), R (*,k,n), k = min(m,n) (complete: Q (*,m,m), R (*,m,n); r: Q empty)
  m.def("linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)", kFunction);
  m.def("qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)", kBoth);

  // A (*,n,n) symmetric -> eigenvalues (*,n) ascending, eigenvectors (*,n,n) as columns
  m.def(
      "_linalg_eigh(Tensor A, str UPLO=\"L\", bool compute_v=True) -> "
      "(Tensor eigenvalues, Tensor eigenvectors)");
  m.def(
      "linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)",
      kFunction);
  m.def("linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor", kFunction);
  m.def("linalg_eigvalsh.out(Tensor self, str UPLO=\"L\", *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);

  // A (*,m,n) -> U (*,m,k), S (*,k), Vh (*,k,n), k = min(m,n) (full_matrices: U (*,m,m),
  // Vh (*,n,n))
  m.def(
      "_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, "
      "str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)");
  m.def(
      "linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> "
      "(Tensor U, Tensor S, Tensor Vh)",
      kFunction);
  m.def("linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", kFunction);
  m.def("linalg_svdvals.out(Tensor A, *, str? driver=None, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  // self (*,m,n) -> U, S, V (not Vh): (*,m,k), (*,k), (*,n,k) (some=False: U (*,m,m), V (*,n,n))
  m.def(
      "svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)",
      kBoth);

  // norms: self (*) -> reduced over dim (a vector norm over one dim, a matrix norm over two)
  m.def(
      "linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      kFunction);
  m.def(
      "linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      kFunction);
  m.def(
      "linalg_norm.out(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, "
      "ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_norm.ord_str_out(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, "
      "ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      kFunction);
  m.def(
      "linalg_matrix_norm.out(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, "
      "*, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[] dim=[-2,-1], "
      "bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      kFunction);
  m.def(
      "linalg_matrix_norm.str_ord_out(Tensor self, str ord='fro', int[] dim=[-2,-1], "
      "bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  // self (m,n) or over dim -> the sum of the singular values (torch.norm(p='nuc'))
  m.def("nuclear_norm(Tensor self, bool keepdim=False) -> Tensor", kFunction);
  m.def("nuclear_norm.out(Tensor self, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor", kFunction);
  m.def(
      "nuclear_norm.dim_out(Tensor self, int[2] dim, bool keepdim=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);

  // Distances (kernels in core/ops/cpu/distance.cpp, composites in composite/distance.cpp).
  // x1 (*a,r1,m), x2 (*b,r2,m) -> the p-norm distance of every row pair (broadcast(a, b),r1,r2)
  m.def("cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None) -> Tensor", kFunction);
  m.def("_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor", kFunction);
  // grad (*,r1,r2), x1 (*,r1,m), x2 (*,r2,m), cdist (*,r1,r2) -> the gradient for x1 (*,r1,m)
  m.def("_cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor",
        kFunction);
  // x1 (B,r1,m), x2 (B,r2,m) -> euclidean distances through one product (B,r1,r2)
  m.def("_euclidean_dist(Tensor x1, Tensor x2) -> Tensor", kFunction);
  // self, other broadcast -> ||self - other||_p over every element (0-d)
  m.def("dist(Tensor self, Tensor other, Scalar p=2) -> Tensor");
  // self (n,m) -> the distance of every row pair i < j, row-major (n(n-1)/2)
  m.def("pdist(Tensor self, float p=2) -> Tensor", kFunction);
  m.def("_pdist_forward(Tensor self, float p=2) -> Tensor", kFunction);
  // grad (n(n-1)/2), self (n,m), pdist (n(n-1)/2) -> the gradient for self (n,m)
  m.def("_pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor", kFunction);

  // self, other (*,3,*) broadcast -> self x other along dim
  m.def("linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor", kFunction);
  m.def(
      "linalg_cross.out(Tensor self, Tensor other, *, int dim=-1, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def("cross(Tensor self, Tensor other, int? dim=None) -> Tensor", kBoth);
  m.def("cross.out(Tensor self, Tensor other, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);

  // self (*,n,n) -> self^n (*,n,n); n < 0: inverse^|n|
  m.def("linalg_matrix_power(Tensor self, int n) -> Tensor", kFunction);
  m.def("linalg_matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def("matrix_power(Tensor self, int n) -> Tensor", kBoth);
  m.def("matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)", kFunction);

  // self (*,m,n) -> pinv (*,n,m)
  m.def(
      "linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, "
      "bool hermitian=False) -> Tensor",
      kFunction);
  m.def(
      "linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, "
      "bool hermitian=False) -> Tensor",
      kFunction);
  m.def("linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor", kFunction);
  m.def("linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> Tensor",
        kFunction);
  m.def(
      "linalg_pinv.atol_rtol_tensor_out(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, "
      "bool hermitian=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_pinv.atol_rtol_float_out(Tensor self, *, float? atol=None, float? rtol=None, "
      "bool hermitian=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_pinv.out(Tensor self, float rcond, bool hermitian=False, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def(
      "linalg_pinv.out_rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  // input (*,m,n) -> rank (*) int64
  m.def(
      "linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, "
      "Tensor? rtol=None, bool hermitian=False) -> Tensor",
      kFunction);
  m.def(
      "linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, "
      "bool hermitian=False) -> Tensor",
      kFunction);
  m.def("linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor", kFunction);
  m.def("linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> Tensor",
        kFunction);
  m.def(
      "linalg_matrix_rank.atol_rtol_tensor_out(Tensor input, *, Tensor? atol=None, "
      "Tensor? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_matrix_rank.atol_rtol_float_out(Tensor self, *, float? atol=None, "
      "float? rtol=None, bool hermitian=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_matrix_rank.out(Tensor self, float tol, bool hermitian=False, *, Tensor(a!) out) "
      "-> Tensor(a!)",
      kFunction);
  m.def(
      "linalg_matrix_rank.out_tol_tensor(Tensor input, Tensor tol, bool hermitian=False, *, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);

  // self (*,m,n), b (*,m,k) or (*,m) -> solution (*,n,k) or (*,n), residuals (*,k) or (0),
  // rank (*) or (0), singular_values (*,min(m,n)) or (0), by the LAPACK driver asked
  m.def(
      "linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> "
      "(Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)",
      kFunction);

  // tensors: (n0) or (m0,n0), (n0,n1), ..., (nk) or (nk,p) -> their product
  m.def("linalg_multi_dot(Tensor[] tensors) -> Tensor", kFunction);
  m.def("linalg_multi_dot.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
});

}  // namespace opscope
