// Linear algebra on matrices: inverses, determinants, solves, the factorizations (Cholesky, QR,
// symmetric eigendecomposition, SVD), matrix and vector norms, cross products, matrix powers,
// pseudo-inverses and ranks — torch.linalg and its classic spellings (torch.inverse, det, svd).
//
// Semantically every op works on the last two dims of a tensor as a matrix and on the leading
// ones as a batch: A (*, m, n). Results are float32 or float64 as the input (integer inputs are
// refused, as torch: "Expected a floating point or complex tensor as input"). The "_ex" forms
// report LAPACK's failure per matrix in an int32 `info` tensor (*) instead of raising; the plain
// forms raise torch's message through _linalg_check_errors ("linalg.inv: The diagonal element 2
// is zero, ..."), as torch.linalg.LinAlgError (a RuntimeError; LinAlgError below). The spellings decompose as torch 1.13's do, so traces and autograd nodes
// match: inverse -> linalg_inv -> linalg_inv_ex (LinalgInvExBackward0); det -> linalg_det ->
// _linalg_det (LinalgDetBackward0); svd -> linalg_svd -> _linalg_svd (LinalgSvdBackward0), with
// torch.svd's V = Vh^T as a transpose view; linalg_solve -> linalg_solve_ex -> _linalg_solve_ex.
//
// In implementation terms the factorizations are CPU kernels over LAPACK (core/runtime/Lapack.h):
// each matrix of the batch is copied into a column-major buffer, factored, and written back.
//
//   Tensor a = ops::rand({4, 3, 3}, ScalarType::Float64);
//   auto [inv, info] = ops::linalg_inv_ex(a);          // f64[4, 3, 3], i32[4]
//   auto [U, S, Vh] = ops::linalg_svd(a, false);         // f64[4, 3, 3], f64[4, 3], f64[4, 3, 3]
#pragma once

#include <optional>
#include <string_view>
#include <tuple>

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/runtime/Exception.h"
#include "core/tensor/Tensor.h"

namespace opscope {
// torch.linalg.LinAlgError (torch._C._LinAlgError, a RuntimeError): what _linalg_check_errors
// throws when LAPACK says a matrix is singular, not positive-definite, or that it did not
// converge; opscope._C._LinAlgError in Python (core/python/module.cpp).
class LinAlgError : public Error {
  using Error::Error;
};
}  // namespace opscope

namespace opscope::ops {

using Tensor2 = std::tuple<Tensor, Tensor>;
using Tensor3 = std::tuple<Tensor, Tensor, Tensor>;
using Tensor4 = std::tuple<Tensor, Tensor, Tensor, Tensor>;

// cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None) -> Tensor
// The p-norm distance between every row of x1 (*a,r1,m) and of x2 (*b,r2,m), batch dims
// broadcast; p = 2 on more than 25 rows (compute_mode None / 0) or always (1) through one product
// (_euclidean_dist), otherwise (2, or small) directly (_cdist_forward).
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<double>,
                           Default<std::optional<int64_t>>)>
    cdist{"aten::cdist"};
// _cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, double, std::optional<int64_t>)>
    _cdist_forward{"aten::_cdist_forward"};
// _cdist_backward(Tensor grad, Tensor x1, Tensor x2, float p, Tensor cdist) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, double, const Tensor&)>
    _cdist_backward{"aten::_cdist_backward"};
// _euclidean_dist(Tensor x1, Tensor x2) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&)> _euclidean_dist{"aten::_euclidean_dist"};
// dist(Tensor self, Tensor other, Scalar p=2) -> Tensor: norm(self - other, p)
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<Scalar>)> dist{"aten::dist"};
// pdist(Tensor self, float p=2) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<double>)> pdist{"aten::pdist"};
// _pdist_forward(Tensor self, float p=2) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<double>)> _pdist_forward{"aten::_pdist_forward"};
// _pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, double, const Tensor&)> _pdist_backward{
    "aten::_pdist_backward"};

// _linalg_check_errors(Tensor info, str api_name, *, bool is_matrix) -> ()
// Raises the error of the first nonzero info, named api_name ("linalg.inv"), with
// "(Batch element i)" unless is_matrix.
inline constexpr Op<void(const Tensor&, std::string_view, bool)> _linalg_check_errors{
    "aten::_linalg_check_errors"};

// linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)
inline constexpr Op<Tensor2(const Tensor&, Default<bool>)> linalg_inv_ex{"aten::linalg_inv_ex"};
// linalg_inv(Tensor A) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> linalg_inv{"aten::linalg_inv"};

// _linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)
inline constexpr Op<Tensor3(const Tensor&)> _linalg_det{"aten::_linalg_det"};
// linalg_det(Tensor A) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> linalg_det{"aten::linalg_det"};
// _linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)
inline constexpr Op<Tensor4(const Tensor&)> _linalg_slogdet{"aten::_linalg_slogdet"};
// linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)
inline constexpr Op<Tensor2(const Tensor&)> linalg_slogdet{"aten::linalg_slogdet"};

// _linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False)
//     -> (Tensor result, Tensor LU, Tensor pivots, Tensor info)
inline constexpr Op<Tensor4(const Tensor&, const Tensor&, Default<bool>, Default<bool>)>
    _linalg_solve_ex{"aten::_linalg_solve_ex"};
// linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False)
//     -> (Tensor result, Tensor info)
inline constexpr Op<Tensor2(const Tensor&, const Tensor&, Default<bool>, Default<bool>)>
    linalg_solve_ex{"aten::linalg_solve_ex"};
// linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<bool>)> linalg_solve{
    "aten::linalg_solve"};

// linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True,
//     bool unitriangular=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, bool, Default<bool>, Default<bool>)>
    linalg_solve_triangular{"aten::linalg_solve_triangular"};

// linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False)
//     -> (Tensor L, Tensor info)
inline constexpr Op<Tensor2(const Tensor&, Default<bool>, Default<bool>)> linalg_cholesky_ex{
    "aten::linalg_cholesky_ex"};

// linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)
inline constexpr Op<Tensor2(const Tensor&, Default<std::string_view>)> linalg_qr{
    "aten::linalg_qr"};

// _linalg_eigh(Tensor A, str UPLO="L", bool compute_v=True)
//     -> (Tensor eigenvalues, Tensor eigenvectors)
inline constexpr Op<Tensor2(const Tensor&, Default<std::string_view>, Default<bool>)>
    _linalg_eigh{"aten::_linalg_eigh"};
// linalg_eigh(Tensor self, str UPLO="L") -> (Tensor eigenvalues, Tensor eigenvectors)
inline constexpr Op<Tensor2(const Tensor&, Default<std::string_view>)> linalg_eigh{
    "aten::linalg_eigh"};

// linalg_eigvalsh(Tensor self, str UPLO="L") -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<std::string_view>)> linalg_eigvalsh{
    "aten::linalg_eigvalsh"};

// _linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None)
//     -> (Tensor U, Tensor S, Tensor Vh)
inline constexpr Op<Tensor3(const Tensor&, Default<bool>, Default<bool>,
                            Default<std::optional<std::string_view>>)>
    _linalg_svd{"aten::_linalg_svd"};
// linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None)
//     -> (Tensor U, Tensor S, Tensor Vh)
inline constexpr Op<Tensor3(const Tensor&, Default<bool>, Default<std::optional<std::string_view>>)>
    linalg_svd{"aten::linalg_svd"};
// linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<std::optional<std::string_view>>)>
    linalg_svdvals{"aten::linalg_svdvals"};

// linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *,
//     ScalarType? dtype=None) -> Tensor
// linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[] dim=[-2,-1], bool keepdim=False,
//     *, ScalarType? dtype=None) -> Tensor
inline constexpr Overloads linalg_matrix_norm{
    Op<Tensor(const Tensor&, const Scalar&, IntArrayRef, bool, std::optional<ScalarType>)>{
        "aten::linalg_matrix_norm"},
    Op<Tensor(const Tensor&, std::string_view, IntArrayRef, bool, std::optional<ScalarType>)>{
        "aten::linalg_matrix_norm.str_ord"}};

// linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<int64_t>)> linalg_cross{
    "aten::linalg_cross"};

// linalg_matrix_power(Tensor self, int n) -> Tensor
inline constexpr Op<Tensor(const Tensor&, int64_t)> linalg_matrix_power{
    "aten::linalg_matrix_power"};

// linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None,
//     bool hermitian=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, bool)> linalg_pinv{
    "aten::linalg_pinv.atol_rtol_tensor"};
// linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, Tensor? rtol=None,
//     bool hermitian=False) -> Tensor
inline constexpr Op<Tensor(const Tensor&, const Tensor&, const Tensor&, bool)> linalg_matrix_rank{
    "aten::linalg_matrix_rank.atol_rtol_tensor"};

}  // namespace opscope::ops
