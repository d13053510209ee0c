// The LAPACK routines opscope's linear-algebra kernels run on (core/ops/cpu/linalg.cpp).
//
// Semantically, opscope::lapack is LAPACK's Fortran interface for float and double: LU (getrf,
// getrs), Cholesky (potrf), QR (geqrf, orgqr), the symmetric eigensolver (syevd), the SVD
// (gesdd) and least squares (gels, gelsy, gelsd, gelss), on column-major matrices, each
// returning LAPACK's `info` (0: success, i > 0: the routine's own failure at step i, -i:
// argument i was illegal). The workspace routines need is
// allocated here (a workspace query, then the call), so callers pass only the matrices.
//
//   std::vector<int> piv(n);
//   int info = lapack::getrf<double>(n, n, a, n, piv.data());   // a (n,n) column-major -> LU
//
// In implementation terms the routines are the ones the OpenBLAS library core/runtime/Blas.h
// loaded also exports (sgetrf_, dgesdd_, ...): resolved from the same dlopen handle on first
// use, never linked. Each call tells the BLAS call hooks its routine's name ("dgesdd_") first,
// from the wrapper's own frame, so a trace's stack shows `dgesdd_` as it shows cblas_sgemm.
#pragma once

namespace opscope::lapack {

// A (m,n) = P L U in place; ipiv (min(m,n)), 1-based row swaps. info > 0: U(info,info) is zero.
template <typename T>
int getrf(int m, int n, T* a, int lda, int* ipiv);
// Solves op(A) X = B with getrf's LU; trans 'N' or 'T'. b (n,nrhs) is overwritten with X.
template <typename T>
int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);
// A (n,n) = L L^T ('L') or U^T U ('U'), the factor written over that triangle only.
// info > 0: the leading minor of order info is not positive-definite.
template <typename T>
int potrf(char uplo, int n, T* a, int lda);
// A (m,n) = Q R: R above the diagonal of a, Q as min(m,n) Householder reflectors below it and
// in tau.
template <typename T>
int geqrf(int m, int n, T* a, int lda, T* tau);
// The first n columns of Q (m,m) from k of geqrf's reflectors, written over a (m,n).
template <typename T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau);
// Eigenvalues w (n, ascending) of the symmetric A (n,n), read from triangle uplo; jobz 'V' also
// writes the eigenvectors over a (columns). info > 0: no convergence.
template <typename T>
int syevd(char jobz, char uplo, int n, T* a, int lda, T* w);
// A (m,n) = U diag(s) VT by divide and conquer; jobz 'A' (U (m,m), VT (n,n)), 'S' (U (m,k), VT
// (k,n), k = min(m,n)) or 'N' (s only). a is destroyed. info > 0: no convergence; -4: A holds
// NaN or infinity (LAPACK 3.10+).
template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt);

// Least squares min ||A X - B|| for A (m,n), B (max(m,n), nrhs) whose first m rows hold B; the
// first n rows of b become X. gels: A of full rank, by QR (trans 'N'); gelsy: complete
// orthogonal factorization with column pivoting; gelsd / gelss: SVD (divide and conquer / plain),
// singular values into s (min(m,n)). Singular values below rcond * the largest count as zero;
// *rank gets the effective rank (gelsy, gelsd, gelss).
template <typename T>
int gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb);
template <typename T>
int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T rcond, int* rank);
template <typename T>
int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank);
template <typename T>
int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank);

// BLAS's triangular solve (cblas_?trsm, column-major), which LAPACK's own solvers build on:
// op(A) X = alpha B (left) or X op(A) = alpha B (right), A (k,k) triangular (upper or lower,
// unit diagonal when unit), B (m,n) overwritten with X. No singularity check: a zero on A's
// diagonal gives inf / nan, as torch's linalg.solve_triangular.
template <typename T>
void trsm(bool left, bool upper, bool transpose, bool unit, int m, int n, T alpha, const T* a,
          int lda, T* b, int ldb);

}  // namespace opscope::lapack
