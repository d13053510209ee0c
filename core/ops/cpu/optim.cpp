// CPU kernels of the optimizer family (see core/ops/optim.h): the foreach ops and the fused
// optimizer steps, each one elementwise pass per list index, and at the end of the file their
// rows.
//
// Note [One pass over a parameter's tensors]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An optimizer's update reads a parameter, its gradient and its state and writes some of them,
// element by element. When the tensors at one index share one dense layout — the same sizes, no
// gaps or overlap, the same strides — element k of each sits k elements after its data pointer
// (whatever the permutation of the dims), so the update is a loop over flat arrays that reads
// and writes each byte once: the memcpy bound. A parameter, its .grad (Note [Gradient layout
// contract], core/autograd/Node.cpp) and its state made by zeros_like share one. Other layouts
// are run on contiguous copies and the written ones copied back: right, not fast.
//
// The element loops are plain functions of raw pointers and a range (no throw; cloned for
// AVX-512 and AVX2, see OPTIM_CLONES below), split over threads by parallel_for. The file is
// compiled with -fno-math-errno (core/CMakeLists.txt), so the loops taking a root vectorize, and
// with -ffp-contract=off, so that every clone rounds alike (no fused multiply-adds in one only).
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/optim.h"
#include "core/ops/utility.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

// OPSCOPE_VECTOR_CLONES (core/ops/cpu/Loops.h) plus an AVX-512 clone: Adam's and RMSprop's roots
// and divisions bound their loops on one thread, and 16-lane units do twice the 8-lane work per
// instruction where the CPU has full-width ones. See Note [Adam's one division].
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(OPSCOPE_NO_CLONES)
#define OPTIM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define OPTIM_CLONES
#endif


// --- the lists and their layouts -------------------------------------------------------------

void check_lists(std::string_view op, std::initializer_list<TensorList> lists) {
  const TensorList first = *lists.begin();
  OPSCOPE_CHECK(!first.empty(), "Tensor list must have at least one tensor.");
  for (TensorList l : lists)
    OPSCOPE_CHECK(l.size() == first.size(),
                  "Tensor lists must have the same number of tensors, got ", first.size(),
                  " and ", l.size());
  for (size_t i = 0; i < first.size(); ++i) {
    const Tensor& t = first[i];
    OPSCOPE_CHECK(t.defined(), op, ": tensor ", i, " is None");
    OPSCOPE_CHECK(t.dtype() == ScalarType::Float32 || t.dtype() == ScalarType::Float64, op,
                  ": expected float32 or float64 tensors, but tensor ", i, " is ",
                  dtype_name(t.dtype()));
    for (TensorList l : lists) {
      OPSCOPE_CHECK(l[i].defined() && l[i].dtype() == t.dtype(), op, ": tensor ", i,
                    " of every list must have the dtype of self[", i, "] (",
                    dtype_name(t.dtype()), ")");
      OPSCOPE_CHECK(std::ranges::equal(l[i].sizes(), t.sizes()), op, ": tensor ", i,
                    " of every list must have the sizes of self[", i, "]");
    }
  }
}

// Whether t is dense with ref's strides (dims of size 1 may differ: never stepped over).
bool laid_out_like(const Tensor& t, const Tensor& ref) {
  if (!is_non_overlapping_and_dense(*t.impl())) return false;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.size(d) != 1 && t.stride(d) != ref.stride(d)) return false;
  return true;
}

// Calls body(ptrs, begin, end) over [0, numel) of N tensors of one dtype T and sizes, as Note
// [One pass over a parameter's tensors] says: on their own memory when they share a dense
// layout, else on contiguous copies, the first `written` copied back after (a tensor may stand
// in for an absent one at a later slot, untouched by the body: its first slot's copy wins).
template <typename T, size_t N, typename Body>
void run_alike(const std::array<Tensor, N>& ts, size_t written, const Body& body) {
  bool alike = true;
  for (const Tensor& t : ts) alike = alike && laid_out_like(t, ts[0]);
  std::array<Tensor, N> work = ts;
  if (!alike)
    for (Tensor& w : work) w = ops::contiguous(w);
  std::array<T*, N> ptr;
  for (size_t k = 0; k < N; ++k) ptr[k] = work[k].template data_ptr<T>();
  parallel_for(0, ts[0].numel(), kGrainSize, [&](int64_t b, int64_t e) { body(ptr, b, e); });
  if (!alike)  // last to first: a tensor standing in twice is written back from its first slot
    for (size_t k = written; k-- > 0;)
      if (!work[k].is_same(ts[k])) ops::copy_(ts[k], work[k]);
}

template <typename F>
void on_dtype(ScalarType t, const F& f) {
  if (t == ScalarType::Float64)
    f.template operator()<double>();
  else
    f.template operator()<float>();
}

// --- foreach element loops -------------------------------------------------------------------
// x (written), y, z: flat arrays; [b, e) the range. Each computes in T, as torch's kernels do.

enum class Arith { Add, Mul, Div, Max, Sub };

template <typename T>
OPTIM_CLONES void scalar_loop(T* x, int64_t b, int64_t e, Arith op, T s) {
  switch (op) {
    case Arith::Add:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = x[k] + s;
      break;
    case Arith::Sub:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = x[k] - s;
      break;
    case Arith::Mul:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = x[k] * s;
      break;
    case Arith::Div:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = x[k] / s;
      break;
    case Arith::Max:
      break;
  }
}

// x = x op (alpha * y) for Add / Sub; x = x op y otherwise.
template <typename T>
OPTIM_CLONES void list_loop(T* x, const T* y, int64_t b, int64_t e, Arith op, T alpha) {
  switch (op) {
    case Arith::Add:
      if (alpha == T(1)) {
#pragma omp simd
        for (int64_t k = b; k < e; ++k) x[k] = x[k] + y[k];
      } else {
#pragma omp simd
        for (int64_t k = b; k < e; ++k) x[k] = x[k] + alpha * y[k];
      }
      break;
    case Arith::Sub:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = x[k] - alpha * y[k];
      break;
    case Arith::Mul:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = x[k] * y[k];
      break;
    case Arith::Div:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = x[k] / y[k];
      break;
    case Arith::Max:
      for (int64_t k = b; k < e; ++k)  // torch.maximum: NaN wins
        x[k] = (std::isnan(x[k]) || std::isnan(y[k])) ? x[k] + y[k] : (x[k] > y[k] ? x[k] : y[k]);
      break;
  }
}

// x = x + v * y * z (mul) or x + v * y / z (div)
template <typename T>
OPTIM_CLONES void addc_loop(T* x, const T* y, const T* z, int64_t b, int64_t e, bool div,
                                     T v) {
  if (div) {
#pragma omp simd
    for (int64_t k = b; k < e; ++k) x[k] = x[k] + v * (y[k] / z[k]);
  } else {
#pragma omp simd
    for (int64_t k = b; k < e; ++k) x[k] = x[k] + v * (y[k] * z[k]);
  }
}

// x = lerp(x, y, w), torch's two-sided formula (exact at w = 0 and w = 1)
template <typename T>
OPTIM_CLONES void lerp_loop(T* x, const T* y, int64_t b, int64_t e, T w) {
  if (std::abs(w) < T(0.5)) {
#pragma omp simd
    for (int64_t k = b; k < e; ++k) x[k] = x[k] + w * (y[k] - x[k]);
  } else {
#pragma omp simd
    for (int64_t k = b; k < e; ++k) x[k] = y[k] - (y[k] - x[k]) * (T(1) - w);
  }
}

enum class Unary { Sqrt, Neg, Zero };

template <typename T>
OPTIM_CLONES void unary_loop(T* x, int64_t b, int64_t e, Unary op) {
  switch (op) {
    case Unary::Sqrt:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = std::sqrt(x[k]);
      break;
    case Unary::Neg:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = -x[k];
      break;
    case Unary::Zero:
#pragma omp simd
      for (int64_t k = b; k < e; ++k) x[k] = T(0);
      break;
  }
}

// --- foreach kernels: in place, and out of place on clones --------------------------------------

std::vector<Tensor> clones(TensorList self) {
  std::vector<Tensor> r;
  r.reserve(self.size());
  for (const Tensor& t : self) r.push_back(ops::clone(t));
  return r;
}

void foreach_scalar_(std::string_view op, TensorList self, const Scalar& s, Arith a) {
  check_lists(op, {self});
  for (const Tensor& x : self)
    on_dtype(x.dtype(), [&]<typename T>() {
      T v = static_cast<T>(s.to_double());
      run_alike<T, 1>({x}, 1, [&](auto p, int64_t b, int64_t e) { scalar_loop(p[0], b, e, a, v); });
    });
}

void foreach_list_(std::string_view op, TensorList self, TensorList other, const Scalar& alpha,
                   Arith a) {
  check_lists(op, {self, other});
  for (size_t i = 0; i < self.size(); ++i)
    on_dtype(self[i].dtype(), [&]<typename T>() {
      T al = static_cast<T>(alpha.to_double());
      run_alike<T, 2>({self[i], other[i]}, 1,
                      [&](auto p, int64_t b, int64_t e) { list_loop(p[0], p[1], b, e, a, al); });
    });
}

void foreach_addc_(std::string_view op, TensorList self, TensorList t1, TensorList t2,
                   const Scalar& value, bool div) {
  check_lists(op, {self, t1, t2});
  for (size_t i = 0; i < self.size(); ++i)
    on_dtype(self[i].dtype(), [&]<typename T>() {
      T v = static_cast<T>(value.to_double());
      run_alike<T, 3>({self[i], t1[i], t2[i]}, 1, [&](auto p, int64_t b, int64_t e) {
        addc_loop(p[0], p[1], p[2], b, e, div, v);
      });
    });
}

void foreach_unary_(std::string_view op, TensorList self, Unary u) {
  check_lists(op, {self});
  for (const Tensor& x : self)
    on_dtype(x.dtype(), [&]<typename T>() {
      run_alike<T, 1>({x}, 1, [&](auto p, int64_t b, int64_t e) { unary_loop(p[0], b, e, u); });
    });
}

void foreach_lerp_(TensorList self, TensorList end, const Scalar& weight) {
  check_lists("_foreach_lerp_", {self, end});
  for (size_t i = 0; i < self.size(); ++i)
    on_dtype(self[i].dtype(), [&]<typename T>() {
      T w = static_cast<T>(weight.to_double());
      run_alike<T, 2>({self[i], end[i]}, 1,
                      [&](auto p, int64_t b, int64_t e) { lerp_loop(p[0], p[1], b, e, w); });
    });
}

// The ops, by schema.
void foreach_add_scalar_(TensorList self, const Scalar& s) {
  foreach_scalar_("_foreach_add_", self, s, Arith::Add);
}
void foreach_sub_scalar_(TensorList self, const Scalar& s) {
  foreach_scalar_("_foreach_sub_", self, s, Arith::Sub);
}
void foreach_mul_scalar_(TensorList self, const Scalar& s) {
  foreach_scalar_("_foreach_mul_", self, s, Arith::Mul);
}
void foreach_div_scalar_(TensorList self, const Scalar& s) {
  foreach_scalar_("_foreach_div_", self, s, Arith::Div);
}
void foreach_add_list_(TensorList self, TensorList other, const Scalar& alpha) {
  foreach_list_("_foreach_add_", self, other, alpha, Arith::Add);
}
void foreach_sub_list_(TensorList self, TensorList other, const Scalar& alpha) {
  foreach_list_("_foreach_sub_", self, other, alpha, Arith::Sub);
}
void foreach_mul_list_(TensorList self, TensorList other) {
  foreach_list_("_foreach_mul_", self, other, Scalar(1), Arith::Mul);
}
void foreach_div_list_(TensorList self, TensorList other) {
  foreach_list_("_foreach_div_", self, other, Scalar(1), Arith::Div);
}
void foreach_maximum_list_(TensorList self, TensorList other) {
  foreach_list_("_foreach_maximum_", self, other, Scalar(1), Arith::Max);
}
void foreach_addcmul_(TensorList self, TensorList t1, TensorList t2, const Scalar& value) {
  foreach_addc_("_foreach_addcmul_", self, t1, t2, value, /*div=*/false);
}
void foreach_addcdiv_(TensorList self, TensorList t1, TensorList t2, const Scalar& value) {
  foreach_addc_("_foreach_addcdiv_", self, t1, t2, value, /*div=*/true);
}
void foreach_sqrt_(TensorList self) { foreach_unary_("_foreach_sqrt_", self, Unary::Sqrt); }
void foreach_neg_(TensorList self) { foreach_unary_("_foreach_neg_", self, Unary::Neg); }
void foreach_zero_(TensorList self) { foreach_unary_("_foreach_zero_", self, Unary::Zero); }

// Out of place: the in-place op on clones of self (self's layout kept, as torch's results).
std::vector<Tensor> foreach_add_scalar(TensorList self, const Scalar& s) {
  check_lists("_foreach_add", {self});
  auto r = clones(self);
  foreach_add_scalar_(r, s);
  return r;
}
std::vector<Tensor> foreach_sub_scalar(TensorList self, const Scalar& s) {
  check_lists("_foreach_sub", {self});
  auto r = clones(self);
  foreach_sub_scalar_(r, s);
  return r;
}
std::vector<Tensor> foreach_mul_scalar(TensorList self, const Scalar& s) {
  check_lists("_foreach_mul", {self});
  auto r = clones(self);
  foreach_mul_scalar_(r, s);
  return r;
}
std::vector<Tensor> foreach_div_scalar(TensorList self, const Scalar& s) {
  check_lists("_foreach_div", {self});
  auto r = clones(self);
  foreach_div_scalar_(r, s);
  return r;
}
std::vector<Tensor> foreach_add_list(TensorList self, TensorList other, const Scalar& alpha) {
  check_lists("_foreach_add", {self, other});
  auto r = clones(self);
  foreach_add_list_(r, other, alpha);
  return r;
}
std::vector<Tensor> foreach_sub_list(TensorList self, TensorList other, const Scalar& alpha) {
  check_lists("_foreach_sub", {self, other});
  auto r = clones(self);
  foreach_sub_list_(r, other, alpha);
  return r;
}
std::vector<Tensor> foreach_mul_list(TensorList self, TensorList other) {
  check_lists("_foreach_mul", {self, other});
  auto r = clones(self);
  foreach_mul_list_(r, other);
  return r;
}
std::vector<Tensor> foreach_div_list(TensorList self, TensorList other) {
  check_lists("_foreach_div", {self, other});
  auto r = clones(self);
  foreach_div_list_(r, other);
  return r;
}
std::vector<Tensor> foreach_maximum_list(TensorList self, TensorList other) {
  check_lists("_foreach_maximum", {self, other});
  auto r = clones(self);
  foreach_maximum_list_(r, other);
  return r;
}
std::vector<Tensor> foreach_addcmul(TensorList self, TensorList t1, TensorList t2,
                                    const Scalar& value) {
  check_lists("_foreach_addcmul", {self, t1, t2});
  auto r = clones(self);
  foreach_addcmul_(r, t1, t2, value);
  return r;
}
std::vector<Tensor> foreach_addcdiv(TensorList self, TensorList t1, TensorList t2,
                                    const Scalar& value) {
  check_lists("_foreach_addcdiv", {self, t1, t2});
  auto r = clones(self);
  foreach_addcdiv_(r, t1, t2, value);
  return r;
}
std::vector<Tensor> foreach_lerp(TensorList self, TensorList end, const Scalar& weight) {
  check_lists("_foreach_lerp", {self, end});
  auto r = clones(self);
  foreach_lerp_(r, end, weight);
  return r;
}
std::vector<Tensor> foreach_sqrt(TensorList self) {
  check_lists("_foreach_sqrt", {self});
  auto r = clones(self);
  foreach_sqrt_(r);
  return r;
}
std::vector<Tensor> foreach_neg(TensorList self) {
  check_lists("_foreach_neg", {self});
  auto r = clones(self);
  foreach_neg_(r);
  return r;
}

// --- fused optimizer steps -------------------------------------------------------------------

void check_no_grad_scale(std::string_view op, const Tensor& grad_scale, const Tensor& found_inf) {
  OPSCOPE_CHECK(!grad_scale.defined() && !found_inf.defined(), op,
                ": grad_scale and found_inf (AMP's gradient scaling) are not supported on CPU");
}

// torch.optim.SGD's update of one parameter, element by element:
//   d = ±grad + weight_decay * p;  buf = first ? d : momentum * buf + (1 - dampening) * d;
//   p -= lr * (nesterov ? d + momentum * buf : buf)      (no momentum: p -= lr * d)
template <typename T>
struct SgdArgs {
  T weight_decay, momentum, lr, dampening;
  bool nesterov, maximize, first;
};

// The options are copied into locals first: read through `a` inside the loop, they might alias
// the arrays written (same element type), and the loop would neither vectorize nor hoist them.
template <typename T>
OPTIM_CLONES void sgd_loop(T* __restrict p, const T* __restrict g, T* __restrict buf,
                                    int64_t b, int64_t e, const SgdArgs<T>& a) {
  const T sign = a.maximize ? T(-1) : T(1), keep = T(1) - a.dampening;
  const T wd = a.weight_decay, mom = a.momentum, lr = a.lr;
  if (!buf) {
#pragma omp simd
    for (int64_t k = b; k < e; ++k) p[k] = p[k] - lr * (sign * g[k] + wd * p[k]);
    return;
  }
  // p -= lr * (own * d + on_buf * buf): nesterov (1, momentum), else (0, 1).
  const T own = a.nesterov ? T(1) : T(0), on_buf = a.nesterov ? mom : T(1);
  if (a.first) {  // buf is uninitialized memory: never read it (it may hold NaNs)
#pragma omp simd
    for (int64_t k = b; k < e; ++k) {
      T d = sign * g[k] + wd * p[k];
      buf[k] = d;
      p[k] = p[k] - lr * (own * d + on_buf * d);
    }
    return;
  }
#pragma omp simd
  for (int64_t k = b; k < e; ++k) {
    T d = sign * g[k] + wd * p[k];
    T m = mom * buf[k] + keep * d;
    buf[k] = m;
    p[k] = p[k] - lr * (own * d + on_buf * m);
  }
}

void fused_sgd_(TensorList self, TensorList grads, TensorList momentum_buffer_list,
                double weight_decay, double momentum, double lr, double dampening, bool nesterov,
                bool maximize, bool is_first_step, const Tensor& grad_scale,
                const Tensor& found_inf) {
  check_no_grad_scale("_fused_sgd_", grad_scale, found_inf);
  const bool with_momentum = !momentum_buffer_list.empty();
  if (with_momentum)
    check_lists("_fused_sgd_", {self, grads, momentum_buffer_list});
  else
    check_lists("_fused_sgd_", {self, grads});
  for (size_t i = 0; i < self.size(); ++i)
    on_dtype(self[i].dtype(), [&]<typename T>() {
      SgdArgs<T> a{T(weight_decay), T(momentum), T(lr),       T(dampening),
                   nesterov,        maximize,    is_first_step};
      if (with_momentum)
        run_alike<T, 3>({self[i], momentum_buffer_list[i], grads[i]}, 2,
                        [&](auto p, int64_t b, int64_t e) { sgd_loop(p[0], p[2], p[1], b, e, a); });
      else
        run_alike<T, 2>({self[i], grads[i]}, 1, [&](auto p, int64_t b, int64_t e) {
          sgd_loop<T>(p[0], p[1], nullptr, b, e, a);
        });
    });
}

// torch.optim.Adam's update of one parameter at step t, element by element (AdamW: decoupled):
//   g = ±grad;  Adam: g += weight_decay * p;  AdamW: p *= 1 - lr * weight_decay
//   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
//   vmax = max(vmax, v) (amsgrad);  denom = sqrt(amsgrad ? vmax : v) / sqrt(1 - beta2^t) + eps
//   p += (-lr / (1 - beta1^t)) * m / denom       (torch's addcdiv_: value * m first, then / denom)
//
// Note [Adam's one division]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch's formula divides twice per element, by the step's sqrt(1 - beta2^t) and by denom. The
// first divisor is one number per step, so the kernel multiplies by its reciprocal (rounded once,
// from double) instead: the quotient can move by one unit in the last place, the update by less.
// With AVX2 the division unit is the loop's bottleneck (sqrt + 2 divisions per 8 floats): the
// second division cost ~25% of the step on one thread (measured 1.3-1.4x a memcpy of the bytes
// moved with both divisions, 1.0-1.2x with one; without any, 0.8x; in the step benchmark the
// kernel went from 1.3x to 1.1x a memcpy, the loaded 2-core VM). With one division left the
// AVX2 loop still ran 1.17x a memcpy of the bytes moved (RMSprop 1.25x) on one thread of a Zen 5
// (stand-alone copy of the loop, 203530 floats, best of 30): the AVX-512 clone's 16-lane roots
// and divisions take it to 0.77x (RMSprop 0.76x); in L1 (4096 floats) 0.29 -> 0.16 ns an
// element. Roots and quotients are correctly rounded at any width and the file has no
// contraction into fused multiply-adds, so every clone gives the same bits (checked against
// NumPy's float32 evaluation of the formula in test_optim_kernels_exact.py). The fused path already
// rounds differently from torch 1.13's tensor-by-tensor ops (its products and sums are not
// torch's fused multiply-adds: 90% of float32 elements differ by a few ulps after five steps),
// so its contract is torch's values to rounding, which this keeps.
template <typename T>
struct AdamArgs {
  T lr, beta1, beta2, weight_decay, eps, step_size, inv_bias_correction2_sqrt;
  bool decoupled, maximize;
};

template <typename T>
OPTIM_CLONES void adam_loop(T* __restrict p, T* __restrict m, T* __restrict v,
                                     T* __restrict vmax, const T* __restrict g, int64_t b,
                                     int64_t e, const AdamArgs<T>& a) {
  // Locals, not reads through `a` (see sgd_loop).
  const T sign = a.maximize ? T(-1) : T(1);
  const T coupled = a.decoupled ? T(0) : a.weight_decay;
  const T shrink = a.decoupled ? T(1) - a.lr * a.weight_decay : T(1);
  const T beta1 = a.beta1, beta2 = a.beta2, c1 = T(1) - a.beta1, c2 = T(1) - a.beta2;
  const T neg_step = -a.step_size, inv_bc2 = a.inv_bias_correction2_sqrt, eps = a.eps;
  if (vmax) {
    for (int64_t k = b; k < e; ++k) {
      T pk = p[k] * shrink;
      T gk = sign * g[k] + coupled * pk;
      T mk = m[k] * beta1 + c1 * gk;
      T vk = v[k] * beta2 + c2 * (gk * gk);
      T wk = vmax[k] > vk || std::isnan(vmax[k]) ? vmax[k] : vk;
      m[k] = mk;
      v[k] = vk;
      vmax[k] = wk;
      p[k] = pk + neg_step * mk / (std::sqrt(wk) * inv_bc2 + eps);
    }
    return;
  }
#pragma omp simd
  for (int64_t k = b; k < e; ++k) {
    T pk = p[k] * shrink;
    T gk = sign * g[k] + coupled * pk;
    T mk = m[k] * beta1 + c1 * gk;
    T vk = v[k] * beta2 + c2 * (gk * gk);
    m[k] = mk;
    v[k] = vk;
    p[k] = pk + neg_step * mk / (std::sqrt(vk) * inv_bc2 + eps);  // Note [Adam's one division]
  }
}

void fused_adam_any_(std::string_view op, bool decoupled, TensorList self, TensorList grads,
                     TensorList exp_avgs, TensorList exp_avg_sqs, TensorList max_exp_avg_sqs,
                     TensorList state_steps, double lr, double beta1, double beta2,
                     double weight_decay, double eps, bool amsgrad, bool maximize,
                     const Tensor& grad_scale, const Tensor& found_inf) {
  check_no_grad_scale(op, grad_scale, found_inf);
  if (amsgrad)
    check_lists(op, {self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs});
  else
    check_lists(op, {self, grads, exp_avgs, exp_avg_sqs});
  OPSCOPE_CHECK(state_steps.size() == self.size(), op, ": expected ", self.size(),
                " state_steps, got ", state_steps.size());
  for (size_t i = 0; i < self.size(); ++i) {
    OPSCOPE_CHECK(state_steps[i].defined() && state_steps[i].numel() == 1, op,
                  ": state_steps must be one-element tensors");
    const double step = ops::item(state_steps[i]).to_double();
    on_dtype(self[i].dtype(), [&]<typename T>() {
      const double bc1 = 1 - std::pow(beta1, step), bc2 = 1 - std::pow(beta2, step);
      AdamArgs<T> a{T(lr),        T(beta1),
                    T(beta2),     T(weight_decay),
                    T(eps),       T(lr / bc1),
                    T(1 / std::sqrt(bc2)), decoupled,
                    maximize};
      if (amsgrad)
        run_alike<T, 5>({self[i], exp_avgs[i], exp_avg_sqs[i], max_exp_avg_sqs[i], grads[i]}, 4,
                        [&](auto p, int64_t b, int64_t e) {
                          adam_loop(p[0], p[1], p[2], p[3], p[4], b, e, a);
                        });
      else
        run_alike<T, 4>({self[i], exp_avgs[i], exp_avg_sqs[i], grads[i]}, 3,
                        [&](auto p, int64_t b, int64_t e) {
                          adam_loop<T>(p[0], p[1], p[2], nullptr, p[3], b, e, a);
                        });
    });
  }
}

void fused_adam_(TensorList self, TensorList grads, TensorList exp_avgs, TensorList exp_avg_sqs,
                 TensorList max_exp_avg_sqs, TensorList state_steps, double lr, double beta1,
                 double beta2, double weight_decay, double eps, bool amsgrad, bool maximize,
                 const Tensor& grad_scale, const Tensor& found_inf) {
  fused_adam_any_("_fused_adam_", /*decoupled=*/false, self, grads, exp_avgs, exp_avg_sqs,
                  max_exp_avg_sqs, state_steps, lr, beta1, beta2, weight_decay, eps, amsgrad,
                  maximize, grad_scale, found_inf);
}

void fused_adamw_(TensorList self, TensorList grads, TensorList exp_avgs, TensorList exp_avg_sqs,
                  TensorList max_exp_avg_sqs, TensorList state_steps, double lr, double beta1,
                  double beta2, double weight_decay, double eps, bool amsgrad, bool maximize,
                  const Tensor& grad_scale, const Tensor& found_inf) {
  fused_adam_any_("_fused_adamw_", /*decoupled=*/true, self, grads, exp_avgs, exp_avg_sqs,
                  max_exp_avg_sqs, state_steps, lr, beta1, beta2, weight_decay, eps, amsgrad,
                  maximize, grad_scale, found_inf);
}

// torch.optim.RMSprop's update of one parameter, element by element (no torch op of this name:
// torch has no fused RMSprop; the schema follows _fused_adam_'s):
//   g = ±grad + weight_decay * p;  sq = alpha * sq + (1 - alpha) * g * g
//   centered: ga = alpha * ga + (1 - alpha) * g, avg = sqrt(sq - ga * ga) + eps; else sqrt(sq) + eps
//   momentum: buf = momentum * buf + g / avg, p -= lr * buf;  else p -= lr * g / avg
template <typename T>
struct RmspropArgs {
  T lr, alpha, eps, weight_decay, momentum;
  bool maximize;
};

template <typename T, bool Centered, bool Momentum>
OPTIM_CLONES void rmsprop_loop(T* __restrict p, const T* __restrict g, T* __restrict sq,
                                        T* __restrict ga, T* __restrict buf, int64_t b,
                                        int64_t e, const RmspropArgs<T>& a) {
  const T sign = a.maximize ? T(-1) : T(1), wd = a.weight_decay, lr = a.lr, eps = a.eps;
  const T alpha = a.alpha, rest = T(1) - a.alpha, mom = a.momentum;
#pragma omp simd
  for (int64_t k = b; k < e; ++k) {
    T gk = sign * g[k] + wd * p[k];
    T s = sq[k] * alpha + rest * (gk * gk);
    sq[k] = s;
    T avg;
    if constexpr (Centered) {
      T m = ga[k] * alpha + rest * gk;
      ga[k] = m;
      avg = std::sqrt(s - m * m) + eps;
    } else {
      avg = std::sqrt(s) + eps;
    }
    if constexpr (Momentum) {
      T v = buf[k] * mom + gk / avg;
      buf[k] = v;
      p[k] = p[k] - lr * v;
    } else {
      p[k] = p[k] - lr * (gk / avg);
    }
  }
}

void fused_rmsprop_(TensorList self, TensorList grads, TensorList square_avgs,
                    TensorList grad_avgs, TensorList momentum_buffer_list, double lr,
                    double alpha, double eps, double weight_decay, double momentum, bool centered,
                    bool maximize) {
  const bool with_momentum = momentum > 0;
  check_lists("_fused_rmsprop_", {self, grads, square_avgs});
  if (centered) check_lists("_fused_rmsprop_", {self, grad_avgs});
  if (with_momentum) check_lists("_fused_rmsprop_", {self, momentum_buffer_list});
  for (size_t i = 0; i < self.size(); ++i)
    on_dtype(self[i].dtype(), [&]<typename T>() {
      RmspropArgs<T> a{T(lr), T(alpha), T(eps), T(weight_decay), T(momentum), maximize};
      // Absent lists stand in as the parameter itself, never touched by the loop chosen.
      const Tensor& m = centered ? grad_avgs[i] : self[i];
      const Tensor& v = with_momentum ? momentum_buffer_list[i] : self[i];
      run_alike<T, 5>({self[i], square_avgs[i], m, v, grads[i]}, 4,
                      [&](auto q, int64_t b, int64_t e) {
                        if (centered && with_momentum)
                          rmsprop_loop<T, true, true>(q[0], q[4], q[1], q[2], q[3], b, e, a);
                        else if (centered)
                          rmsprop_loop<T, true, false>(q[0], q[4], q[1], q[2], nullptr, b, e, a);
                        else if (with_momentum)
                          rmsprop_loop<T, false, true>(q[0], q[4], q[1], nullptr, q[3], b, e, a);
                        else
                          rmsprop_loop<T, false, false>(q[0], q[4], q[1], nullptr, nullptr, b, e,
                                                        a);
                      });
    });
}

}  // namespace

static Library cpu_optim(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("_foreach_add.Scalar", fn<&foreach_add_scalar>);
  m.impl("_foreach_add_.Scalar", fn<&foreach_add_scalar_>);
  m.impl("_foreach_add.List", fn<&foreach_add_list>);
  m.impl("_foreach_add_.List", fn<&foreach_add_list_>);
  m.impl("_foreach_sub.Scalar", fn<&foreach_sub_scalar>);
  m.impl("_foreach_sub_.Scalar", fn<&foreach_sub_scalar_>);
  m.impl("_foreach_sub.List", fn<&foreach_sub_list>);
  m.impl("_foreach_sub_.List", fn<&foreach_sub_list_>);
  m.impl("_foreach_mul.Scalar", fn<&foreach_mul_scalar>);
  m.impl("_foreach_mul_.Scalar", fn<&foreach_mul_scalar_>);
  m.impl("_foreach_mul.List", fn<&foreach_mul_list>);
  m.impl("_foreach_mul_.List", fn<&foreach_mul_list_>);
  m.impl("_foreach_div.Scalar", fn<&foreach_div_scalar>);
  m.impl("_foreach_div_.Scalar", fn<&foreach_div_scalar_>);
  m.impl("_foreach_div.List", fn<&foreach_div_list>);
  m.impl("_foreach_div_.List", fn<&foreach_div_list_>);
  m.impl("_foreach_maximum.List", fn<&foreach_maximum_list>);
  m.impl("_foreach_maximum_.List", fn<&foreach_maximum_list_>);
  m.impl("_foreach_addcmul.Scalar", fn<&foreach_addcmul>);
  m.impl("_foreach_addcmul_.Scalar", fn<&foreach_addcmul_>);
  m.impl("_foreach_addcdiv.Scalar", fn<&foreach_addcdiv>);
  m.impl("_foreach_addcdiv_.Scalar", fn<&foreach_addcdiv_>);
  m.impl("_foreach_lerp.Scalar", fn<&foreach_lerp>);
  m.impl("_foreach_lerp_.Scalar", fn<&foreach_lerp_>);
  m.impl("_foreach_sqrt", fn<&foreach_sqrt>);
  m.impl("_foreach_sqrt_", fn<&foreach_sqrt_>);
  m.impl("_foreach_neg", fn<&foreach_neg>);
  m.impl("_foreach_neg_", fn<&foreach_neg_>);
  m.impl("_foreach_zero_", fn<&foreach_zero_>);
  m.impl("_fused_sgd_", fn<&fused_sgd_>);
  m.impl("_fused_adam_", fn<&fused_adam_>);
  m.impl("_fused_adamw_", fn<&fused_adamw_>);
  m.impl("_fused_rmsprop_", fn<&fused_rmsprop_>);
});

}  // namespace opscope::cpu
