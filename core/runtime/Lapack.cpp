// LAPACK from the loaded OpenBLAS. See core/runtime/Lapack.h.
//
// Fortran passes every argument by reference, and after the listed arguments one hidden length
// (size_t) per character argument (gfortran's convention, which OpenBLAS's LAPACK follows): the
// wrappers pass 1 for each.
#include "core/runtime/Lapack.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "core/runtime/Blas.h"
#include "core/runtime/Exception.h"

namespace opscope::lapack {

namespace {

using Len = size_t;

template <typename T>
struct Routines {
  void (*getrf)(const int*, const int*, T*, const int*, int*, int*) = nullptr;
  void (*getrs)(const char*, const int*, const int*, const T*, const int*, const int*, T*,
                const int*, int*, Len) = nullptr;
  void (*potrf)(const char*, const int*, T*, const int*, int*, Len) = nullptr;
  void (*geqrf)(const int*, const int*, T*, const int*, T*, T*, const int*, int*) = nullptr;
  void (*orgqr)(const int*, const int*, const int*, T*, const int*, const T*, T*, const int*,
                int*) = nullptr;
  void (*syevd)(const char*, const char*, const int*, T*, const int*, T*, T*, const int*, int*,
                const int*, int*, Len, Len) = nullptr;
  void (*gesdd)(const char*, const int*, const int*, T*, const int*, T*, T*, const int*, T*,
                const int*, T*, const int*, int*, int*, Len) = nullptr;
  void (*trsm)(int, int, int, int, int, int, int, T, const T*, int, T*, int) = nullptr;
  void (*gels)(const char*, const int*, const int*, const int*, T*, const int*, T*, const int*,
               T*, const int*, int*, Len) = nullptr;
  void (*gelsy)(const int*, const int*, const int*, T*, const int*, T*, const int*, int*,
                const T*, int*, T*, const int*, int*) = nullptr;
  void (*gelsd)(const int*, const int*, const int*, T*, const int*, T*, const int*, T*, const T*,
                int*, T*, const int*, int*, int*) = nullptr;
  void (*gelss)(const int*, const int*, const int*, T*, const int*, T*, const int*, T*, const T*,
                int*, T*, const int*, int*) = nullptr;
};

template <typename F>
void resolve(void* handle, const char* name, F& fn) {
  fn = reinterpret_cast<F>(::dlsym(handle, name));
  OPSCOPE_CHECK(fn != nullptr, "opscope: the loaded OpenBLAS (", blas::info().library,
                ") exports no LAPACK routine ", name);
}

// The routines of element type T, resolved once: s* for float, d* for double.
template <typename T>
const Routines<T>& routines() {
  static const Routines<T> r = [] {
    Routines<T> t;
    void* h = blas::library_handle();
    constexpr bool f = std::is_same_v<T, float>;
    resolve(h, f ? "sgetrf_" : "dgetrf_", t.getrf);
    resolve(h, f ? "sgetrs_" : "dgetrs_", t.getrs);
    resolve(h, f ? "spotrf_" : "dpotrf_", t.potrf);
    resolve(h, f ? "sgeqrf_" : "dgeqrf_", t.geqrf);
    resolve(h, f ? "sorgqr_" : "dorgqr_", t.orgqr);
    resolve(h, f ? "ssyevd_" : "dsyevd_", t.syevd);
    resolve(h, f ? "sgesdd_" : "dgesdd_", t.gesdd);
    resolve(h, f ? "cblas_strsm" : "cblas_dtrsm", t.trsm);
    resolve(h, f ? "sgels_" : "dgels_", t.gels);
    resolve(h, f ? "sgelsy_" : "dgelsy_", t.gelsy);
    resolve(h, f ? "sgelsd_" : "dgelsd_", t.gelsd);
    resolve(h, f ? "sgelss_" : "dgelss_", t.gelss);
    return t;
  }();
  return r;
}

template <typename T>
constexpr const char* name(const char* s, const char* d) {
  return std::is_same_v<T, float> ? s : d;
}

// Tells the BLAS call hooks that `fn` is about to run, and returns it. Inlined into each
// wrapper, so a hook's stack shows the wrapper right below the routine. See
// blas::add_call_hook.
template <typename F>
[[gnu::always_inline]] inline F announce(F fn, const char* routine) {
  blas::CallHook hooks[4];
  size_t n = blas::call_hooks(hooks, 4);
  for (size_t i = 0; i < n; ++i) hooks[i](routine, reinterpret_cast<const void*>(fn));
  return fn;
}

// A workspace size LAPACK reported in a T (rounded up, at least 1).
template <typename T>
int work_size(T w) {
  return std::max(1, static_cast<int>(w + T(0.5)) + 1);
}

}  // namespace

template <typename T>
int getrf(int m, int n, T* a, int lda, int* ipiv) {
  int info = 0;
  announce(routines<T>().getrf, name<T>("sgetrf_", "dgetrf_"))(&m, &n, a, &lda, ipiv, &info);
  return info;
}

template <typename T>
int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  int info = 0;
  announce(routines<T>().getrs, name<T>("sgetrs_", "dgetrs_"))(&trans, &n, &nrhs, a, &lda, ipiv,
                                                               b, &ldb, &info, 1);
  return info;
}

template <typename T>
int potrf(char uplo, int n, T* a, int lda) {
  int info = 0;
  announce(routines<T>().potrf, name<T>("spotrf_", "dpotrf_"))(&uplo, &n, a, &lda, &info, 1);
  return info;
}

template <typename T>
int geqrf(int m, int n, T* a, int lda, T* tau) {
  int info = 0, query = -1;
  T w{};
  auto fn = routines<T>().geqrf;
  fn(&m, &n, a, &lda, tau, &w, &query, &info);
  if (info != 0) return info;
  int lwork = work_size(w);
  std::vector<T> work(static_cast<size_t>(lwork));
  announce(fn, name<T>("sgeqrf_", "dgeqrf_"))(&m, &n, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <typename T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau) {
  int info = 0, query = -1;
  T w{};
  auto fn = routines<T>().orgqr;
  fn(&m, &n, &k, a, &lda, tau, &w, &query, &info);
  if (info != 0) return info;
  int lwork = work_size(w);
  std::vector<T> work(static_cast<size_t>(lwork));
  announce(fn, name<T>("sorgqr_", "dorgqr_"))(&m, &n, &k, a, &lda, tau, work.data(), &lwork,
                                              &info);
  return info;
}

template <typename T>
int syevd(char jobz, char uplo, int n, T* a, int lda, T* w) {
  int info = 0, query = -1, iw = 0;
  T ws{};
  auto fn = routines<T>().syevd;
  fn(&jobz, &uplo, &n, a, &lda, w, &ws, &query, &iw, &query, &info, 1, 1);
  if (info != 0) return info;
  int lwork = work_size(ws), liwork = std::max(1, iw);
  std::vector<T> work(static_cast<size_t>(lwork));
  std::vector<int> iwork(static_cast<size_t>(liwork));
  announce(fn, name<T>("ssyevd_", "dsyevd_"))(&jobz, &uplo, &n, a, &lda, w, work.data(), &lwork,
                                              iwork.data(), &liwork, &info, 1, 1);
  return info;
}

template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt) {
  int info = 0, query = -1;
  T ws{};
  int k = std::min(m, n);
  std::vector<int> iwork(static_cast<size_t>(std::max(1, 8 * k)));
  auto fn = routines<T>().gesdd;
  fn(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &ws, &query, iwork.data(), &info, 1);
  if (info != 0) return info;
  int lwork = work_size(ws);
  std::vector<T> work(static_cast<size_t>(lwork));
  announce(fn, name<T>("sgesdd_", "dgesdd_"))(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt,
                                              work.data(), &lwork, iwork.data(), &info, 1);
  return info;
}

template <typename T>
void trsm(bool left, bool upper, bool transpose, bool unit, int m, int n, T alpha, const T* a,
          int lda, T* b, int ldb) {
  // cblas's enum values: ColMajor 102; Left 141 / Right 142; Upper 121 / Lower 122;
  // NoTrans 111 / Trans 112; NonUnit 131 / Unit 132.
  announce(routines<T>().trsm, name<T>("cblas_strsm", "cblas_dtrsm"))(
      102, left ? 141 : 142, upper ? 121 : 122, transpose ? 112 : 111, unit ? 132 : 131, m, n,
      alpha, a, lda, b, ldb);
}

template <typename T>
int gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb) {
  int info = 0, query = -1;
  char trans = 'N';
  T ws{};
  auto fn = routines<T>().gels;
  fn(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, &ws, &query, &info, 1);
  if (info != 0) return info;
  int lwork = work_size(ws);
  std::vector<T> work(static_cast<size_t>(lwork));
  announce(fn, name<T>("sgels_", "dgels_"))(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work.data(),
                                            &lwork, &info, 1);
  return info;
}

template <typename T>
int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T rcond, int* rank) {
  int info = 0, query = -1;
  T ws{};
  std::vector<int> jpvt(static_cast<size_t>(std::max(1, n)), 0);  // every column free to pivot
  auto fn = routines<T>().gelsy;
  fn(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt.data(), &rcond, rank, &ws, &query, &info);
  if (info != 0) return info;
  int lwork = work_size(ws);
  std::vector<T> work(static_cast<size_t>(lwork));
  announce(fn, name<T>("sgelsy_", "dgelsy_"))(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt.data(),
                                              &rcond, rank, work.data(), &lwork, &info);
  return info;
}

template <typename T>
int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank) {
  int info = 0, query = -1, iw = 1;
  T ws{};
  auto fn = routines<T>().gelsd;
  fn(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, &ws, &query, &iw, &info);
  if (info != 0) return info;
  int lwork = work_size(ws);
  std::vector<T> work(static_cast<size_t>(lwork));
  std::vector<int> iwork(static_cast<size_t>(std::max(1, iw)));
  announce(fn, name<T>("sgelsd_", "dgelsd_"))(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank,
                                              work.data(), &lwork, iwork.data(), &info);
  return info;
}

template <typename T>
int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank) {
  int info = 0, query = -1;
  T ws{};
  auto fn = routines<T>().gelss;
  fn(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, &ws, &query, &info);
  if (info != 0) return info;
  int lwork = work_size(ws);
  std::vector<T> work(static_cast<size_t>(lwork));
  announce(fn, name<T>("sgelss_", "dgelss_"))(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank,
                                              work.data(), &lwork, &info);
  return info;
}

#define OPSCOPE_LAPACK_INSTANTIATE(T)                                                       \
  template int getrf<T>(int, int, T*, int, int*);                                           \
  template int getrs<T>(char, int, int, const T*, int, const int*, T*, int);                \
  template int potrf<T>(char, int, T*, int);                                                \
  template int geqrf<T>(int, int, T*, int, T*);                                             \
  template int orgqr<T>(int, int, int, T*, int, const T*);                                  \
  template int syevd<T>(char, char, int, T*, int, T*);                                      \
  template int gesdd<T>(char, int, int, T*, int, T*, T*, int, T*, int);                   \
  template void trsm<T>(bool, bool, bool, bool, int, int, T, const T*, int, T*, int);       \
  template int gels<T>(int, int, int, T*, int, T*, int);                                    \
  template int gelsy<T>(int, int, int, T*, int, T*, int, T, int*);                          \
  template int gelsd<T>(int, int, int, T*, int, T*, int, T*, T, int*);                      \
  template int gelss<T>(int, int, int, T*, int, T*, int, T*, T, int*);
OPSCOPE_LAPACK_INSTANTIATE(float)
OPSCOPE_LAPACK_INSTANTIATE(double)
#undef OPSCOPE_LAPACK_INSTANTIATE

}  // namespace opscope::lapack
