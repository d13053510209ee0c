// CPU kernels of the arithmetic ops: add, sub, rsub, mul, div, neg, pow (see core/ops/binary.h;
// neg, unary, shares their checks). Each op is one `*_impl(out, ...)` that builds a TensorIterator
// (out undefined: allocated; out == self: in place; else out=) and runs a typed loop; the
// kernels registered for the functional / in-place / out= overloads only pick `out`.
#include <atomic>
#include <cmath>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"

namespace opscope::cpu {

namespace {

// --- argument checks, as PyTorch words them -------------------------------------------------

void alpha_check(ScalarType dtype, const Scalar& alpha) {
  OPSCOPE_CHECK(!alpha.is_bool() || dtype == ScalarType::Bool,
                "Boolean alpha only supported for Boolean results.");
  OPSCOPE_CHECK(is_floating(dtype) || alpha.is_integral() || alpha.is_bool(),
                "For integral input tensors, argument alpha must not be a floating point number.");
}

void sub_check(const Tensor& self, const Tensor& other) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool || other.dtype() != ScalarType::Bool,
                "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
                "`^` or `logical_xor()` operator instead.");
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool && other.dtype() != ScalarType::Bool,
                "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

Scalar negated(const Scalar& s) {
  if (s.is_floating_point()) return Scalar(-s.to_double());
  return Scalar(-s.to_long());
}

// Unsigned twin of an integer type, for arithmetic that must wrap instead of overflowing.
template <typename T>
using wrap_t = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;

// --- add / mul ------------------------------------------------------------------------------

// Note [add with alpha rounds once]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch computes a float32 / float64 `a + alpha * b` as one fused multiply-add in the tensor's
// own dtype (Vectorized fmadd, and its scalar tail contracted to an fma too): the exact value,
// rounded once. Checked on torch 1.13: its results equal C's fmaf / fma on every element, and
// differ from `a + (alpha * b)` in ~10% of them. So these two dtypes run std::fma here: with
// AVX2 + FMA (checked at run time) 8 floats / 4 doubles per instruction, at the plain add's
// speed; elsewhere libm's fma, slower but the same numbers.
#if defined(__x86_64__) && defined(__GNUC__)
#define OPSCOPE_TARGET_FMA __attribute__((target("avx2,fma")))
#else
#define OPSCOPE_TARGET_FMA
#endif

template <typename T>
__attribute__((always_inline)) inline void fma_loop(char** data, const int64_t* strides, int64_t n, T alpha) {
  constexpr int64_t size = sizeof(T);
  if (strides[0] == size && strides[1] == size && strides[2] == size) {
    T* out = reinterpret_cast<T*>(data[0]);
    const T* a = reinterpret_cast<const T*>(data[1]);
    const T* b = reinterpret_cast<const T*>(data[2]);
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) out[i] = std::fma(b[i], alpha, a[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const T a = *reinterpret_cast<const T*>(data[1] + i * strides[1]);
    const T b = *reinterpret_cast<const T*>(data[2] + i * strides[2]);
    *reinterpret_cast<T*>(data[0] + i * strides[0]) = std::fma(b, alpha, a);
  }
}

template <typename T>
OPSCOPE_TARGET_FMA void fma_loop_avx2(char** data, const int64_t* strides, int64_t n, T alpha) {
  fma_loop(data, strides, n, alpha);  // inlined, so compiled here with FMA instructions
}

bool cpu_has_fma() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return yes;
#else
  return false;
#endif
}

// out = a + alpha * b, in the common dtype (Half / BFloat16 computing in float).
void add_kernel(TensorIterator& iter, const Scalar& alpha_scalar) {
  dispatch_dtype(iter.common_dtype(), "add_cpu", [&]<typename T>() {
    using A = acc_type_t<T>;
    A alpha = static_cast<A>(checked_convert<T>(alpha_scalar));
    if (alpha == A(1)) {
      cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(A(a) + A(b)); });
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      // See Note [add with alpha rounds once]
      OPSCOPE_CHECK(iter.noutputs() == 1 && iter.ninputs() == 2 && iter.dtype(0) == iter.dtype(1) &&
                        iter.dtype(1) == iter.dtype(2),
                    "add_cpu: operands of mixed dtypes (internal error)");
      const T a = static_cast<T>(alpha);
      if (cpu_has_fma()) {
        iter.for_each([a](char** data, const int64_t* strides, int64_t n) {
          fma_loop_avx2<T>(data, strides, n, a);
        });
      } else {
        iter.for_each([a](char** data, const int64_t* strides, int64_t n) {
          fma_loop<T>(data, strides, n, a);
        });
      }
    } else {
      cpu_kernel(iter, [alpha](T a, T b) -> T { return static_cast<T>(A(a) + alpha * A(b)); });
    }
  });
}

// out = a * b (logical and for bool).
void mul_kernel(TensorIterator& iter) {
  dispatch_dtype(iter.common_dtype(), "mul_cpu", [&]<typename T>() {
    using A = acc_type_t<T>;
    if constexpr (std::is_same_v<T, bool>) {
      cpu_kernel(iter, [](bool a, bool b) -> bool { return a && b; });
    } else {
      cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(A(a) * A(b)); });
    }
  });
}

// --- div ------------------------------------------------------------------------------------

enum class Rounding { None, Trunc, Floor };

Rounding parse_rounding_mode(ops::RoundingMode mode) {
  if (!mode) return Rounding::None;
  if (*mode == "trunc") return Rounding::Trunc;
  if (*mode == "floor") return Rounding::Floor;
  throw Error(
      detail::str("div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                  "found '",
                  *mode, "'"));
}

// out = a / b; the iterator promoted integers to a floating dtype.
void div_true_kernel(TensorIterator& iter) {
  dispatch_dtype_if(iter.common_dtype(), "div_true_cpu", kFloatingOnly, [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(A(a) / A(b)); });
  });
}

// Integer a / b rounded toward zero (Floor = false) or toward -inf (Floor = true). Sets
// *by_zero instead of dividing by zero; a / -1 wraps like the other integer arithmetic.
template <bool Floor, typename T>
inline T int_divide(T a, T b, std::atomic<bool>* by_zero) {
  if (b == 0) {
    by_zero->store(true, std::memory_order_relaxed);
    return 0;
  }
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a));
    T q = static_cast<T>(a / b);
    if (Floor && (a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return static_cast<T>(a / b);
  }
}

// Python's float floor division: the quotient's floor computed from fmod, so that
// a == b * q + fmod(a, b) holds as closely as floating point allows. Intermediates are stored
// as T, so float16 / bfloat16 round after each step as PyTorch's Half arithmetic does.
template <typename T>
inline T float_floor_divide(T a, T b) {
  using A = acc_type_t<T>;
  if (A(b) == 0) return static_cast<T>(A(a) / A(b));  // inf or nan, as IEEE division gives
  auto mod = static_cast<T>(std::fmod(A(a), A(b)));
  auto q = static_cast<T>(A(static_cast<T>(A(a) - A(mod))) / A(b));
  if (A(mod) != 0 && ((A(b) < 0) != (A(mod) < 0))) q = static_cast<T>(A(q) - A(1));
  if (A(q) == 0) return static_cast<T>(std::copysign(A(0), A(a) / A(b)));
  auto floored = static_cast<T>(std::floor(A(q)));
  if (A(static_cast<T>(A(q) - A(floored))) > A(0.5)) floored = static_cast<T>(A(floored) + A(1));
  return floored;
}

template <bool Floor>
void div_rounding_kernel(TensorIterator& iter) {
  const char* name = Floor ? "div_floor_cpu" : "div_trunc_cpu";
  dispatch_dtype_if(iter.common_dtype(), name, kAllButBool, [&]<typename T>() {
    using A = acc_type_t<T>;
    if constexpr (std::is_integral_v<T>) {
      // Kernels must not throw inside the loop (see core/ops/cpu/Loops.h): flag, then raise.
      std::atomic<bool> by_zero{false};
      std::atomic<bool>* flag = &by_zero;
      cpu_kernel(iter, [flag](T a, T b) -> T { return int_divide<Floor>(a, b, flag); });
      OPSCOPE_CHECK(!by_zero.load(), "ZeroDivisionError");
    } else if constexpr (Floor) {
      cpu_kernel(iter, [](T a, T b) -> T { return float_floor_divide(a, b); });
    } else {
      // The quotient rounds to T before truncating, as in PyTorch (matters for float16).
      cpu_kernel(iter, [](T a, T b) -> T {
        return static_cast<T>(std::trunc(A(static_cast<T>(A(a) / A(b)))));
      });
    }
  });
}

// --- neg ------------------------------------------------------------------------------------

void neg_kernel(TensorIterator& iter) {
  dispatch_dtype_if(iter.common_dtype(), "neg_cpu", kAllButBool, [&]<typename T>() {
    using A = acc_type_t<T>;
    if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter,
                 [](T a) -> T { return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a)); });
    } else {
      cpu_kernel(iter, [](T a) -> T { return static_cast<T>(-A(a)); });
    }
  });
}

// --- pow ------------------------------------------------------------------------------------

// Integer power by repeated squaring (wrapping). A negative exponent gives 1 for base 1, +-1 for
// base -1 and 0 otherwise, as PyTorch's powi.
template <typename T>
inline T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  // In uint64_t: wraps modulo 2^64, and the final narrowing wraps modulo T's width.
  uint64_t result = 1, b = static_cast<uint64_t>(static_cast<int64_t>(base));
  for (auto e = static_cast<uint64_t>(exp); e != 0; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  return static_cast<T>(result);
}

// out = a ** b, both tensors.
void pow_tensor_tensor_kernel(TensorIterator& iter) {
  dispatch_dtype_if(iter.common_dtype(), "pow", kAllButBool, [&]<typename T>() {
    using A = acc_type_t<T>;
    if constexpr (std::is_integral_v<T>) {
      cpu_kernel(iter, [](T a, T b) -> T { return int_pow(a, b); });
    } else {
      cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(std::pow(A(a), A(b))); });
    }
  });
}

// out = a ** exponent. Like PyTorch, small exponents take exact shortcuts (x * x, sqrt, 1 / x).
void pow_tensor_scalar_kernel(TensorIterator& iter, const Scalar& exponent) {
  dispatch_dtype_if(iter.common_dtype(), "pow", kAllButBool, [&]<typename T>() {
    using A = acc_type_t<T>;
    if constexpr (std::is_integral_v<T>) {
      T e = checked_convert<T>(exponent);
      if (e == 2)
        cpu_kernel(iter, [](T a) -> T { return int_pow(a, T(2)); });
      else
        cpu_kernel(iter, [e](T a) -> T { return int_pow(a, e); });
    } else if constexpr (std::is_same_v<T, Half>) {
      // PyTorch takes no shortcut for Half, and rounds the exponent to Half first
      // (exp_scalar.to<Half>()): 2.3 is taken as 2.30078125.
      const A e = static_cast<A>(static_cast<T>(exponent.to_double()));
      cpu_kernel(iter, [e](T a) -> T { return static_cast<T>(std::pow(A(a), e)); });
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      // As PyTorch: sqrt / rsqrt / reciprocal for an exact 0.5 / -0.5 / -1, otherwise the
      // exponent rounded to BFloat16, and x*x*x, 1/(x*x) in BFloat16 arithmetic (rounding after
      // each product: 1.7 ** -2 is 0.34375, not the nearer 0.345703125).
      const double exact = exponent.to_double();
      const A e = static_cast<A>(static_cast<T>(exact));
      auto round = [](A v) { return A(static_cast<T>(v)); };
      if (exact == 0.5)
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(std::sqrt(A(a))); });
      else if (exact == -0.5)
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(1) / std::sqrt(A(a))); });
      else if (exact == -1)
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(1) / A(a)); });
      else if (e == A(2))
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(a) * A(a)); });
      else if (e == A(3))
        cpu_kernel(iter, [round](T a) -> T { return static_cast<T>(round(A(a) * A(a)) * A(a)); });
      else if (e == A(-2))
        cpu_kernel(iter, [round](T a) -> T { return static_cast<T>(A(1) / round(A(a) * A(a))); });
      else
        cpu_kernel(iter, [e](T a) -> T { return static_cast<T>(std::pow(A(a), e)); });
    } else {
      auto e = static_cast<A>(exponent.to_double());
      if (e == A(0.5))
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(std::sqrt(A(a))); });
      else if (e == A(2))
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(a) * A(a)); });
      else if (e == A(3))
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(a) * A(a) * A(a)); });
      else if (e == A(-0.5))
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(1) / std::sqrt(A(a))); });
      else if (e == A(-1))
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(1) / A(a)); });
      else if (e == A(-2))
        cpu_kernel(iter, [](T a) -> T { return static_cast<T>(A(1) / (A(a) * A(a))); });
      else
        cpu_kernel(iter, [e](T a) -> T { return static_cast<T>(std::pow(A(a), e)); });
    }
  });
}

bool scalar_is(const Scalar& s, double v) {
  // PyTorch's exp.equal(v): a bool exponent equals no number, so bool ** True still reaches
  // the kernel (and its "not implemented for 'Bool'").
  return !s.is_bool() && s.to_double() == v;
}

}  // namespace

// --- the ops --------------------------------------------------------------------------------

// self, other broadcast -> self + alpha * other
Tensor add_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  alpha_check(iter.common_dtype(), alpha);
  add_kernel(iter, alpha);
  return iter.output();
}

// self, other broadcast -> self - alpha * other
Tensor sub_impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(self, other);
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  alpha_check(iter.common_dtype(), alpha);
  add_kernel(iter, negated(alpha));
  return iter.output();
}

// self, other broadcast -> self * other
Tensor mul_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  mul_kernel(iter);
  return iter.output();
}

// self, other broadcast -> self / other, rounded as rounding_mode says
Tensor div_impl(const Tensor& out, const Tensor& self, const Tensor& other,
                ops::RoundingMode mode) {
  Rounding rounding = parse_rounding_mode(mode);
  if (rounding == Rounding::None) {
    TensorIterator iter = TensorIterator::binary_float_op(out, self, other);
    div_true_kernel(iter);
    return iter.output();
  }
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  if (rounding == Rounding::Trunc)
    div_rounding_kernel<false>(iter);
  else
    div_rounding_kernel<true>(iter);
  return iter.output();
}

// self [*s] -> -self [*s]
Tensor neg_impl(const Tensor& out, const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool,
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead.");
  TensorIterator iter = TensorIterator::unary_op(out, self);
  neg_kernel(iter);
  return iter.output();
}

Tensor pow_tensor_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& exponent) {
  TensorIterator iter = TensorIterator::binary_op(out, self, exponent);
  pow_tensor_tensor_kernel(iter);
  return iter.output();
}

Tensor pow_tensor_scalar_impl(const Tensor& out, const Tensor& self, const Scalar& exponent) {
  OPSCOPE_CHECK(!(is_integral(self.dtype(), /*include_bool=*/true) &&
                  (exponent.is_integral() || exponent.is_bool()) && exponent.to_long() < 0),
                "Integers to negative integer powers are not allowed.");
  // self converted to the result type first (an in-place int.pow_(0.5) then fails the
  // iterator's dtype check: "Found dtype Long but expected Float", as in PyTorch).
  Tensor base = ops::to(self, result_type(self, exponent));
  TensorIterator iter = TensorIterator::unary_op(out, base);
  Tensor result = iter.output();
  if (scalar_is(exponent, 0)) return ops::fill_(result, 1);
  if (scalar_is(exponent, 1)) return ops::copy_(result, base);
  pow_tensor_scalar_kernel(iter, exponent);
  return result;
}

Tensor pow_scalar_impl(const Tensor& out, const Scalar& self, const Tensor& exponent) {
  // exponent's shape, the result type of (self, exponent) unless out= says otherwise.
  Tensor result = out;
  if (result.defined()) {
    resize_output(result, exponent.sizes());
  } else {
    result = make_empty(exponent.sizes(), result_type(exponent, self), exponent.device());
  }
  if (!self.is_bool() && self.to_double() == 1.0) return ops::fill_(result, 1);
  return ops::pow_out(result, wrapped_scalar_tensor(self), exponent);
}

// self, other broadcast -> other - alpha * self (PyTorch redispatches to sub)
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return ops::sub(other, self, alpha);
}

// self, other broadcast -> self / other
Tensor div(const Tensor& self, const Tensor& other) {
  return div_impl(Tensor(), self, other, std::nullopt);
}
Tensor div_(const Tensor& self, const Tensor& other) {
  return div_impl(self, self, other, std::nullopt);
}
Tensor div_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return div_impl(out, self, other, std::nullopt);
}
Tensor div_mode(const Tensor& self, const Tensor& other, ops::RoundingMode rounding_mode) {
  return div_impl(Tensor(), self, other, rounding_mode);
}
Tensor div_mode_(const Tensor& self, const Tensor& other, ops::RoundingMode rounding_mode) {
  return div_impl(self, self, other, rounding_mode);
}
Tensor div_out_mode(const Tensor& self, const Tensor& other, ops::RoundingMode rounding_mode,
                    const Tensor& out) {
  return div_impl(out, self, other, rounding_mode);
}

// self, exponent broadcast -> self ** exponent
Tensor pow_tensor_tensor(const Tensor& self, const Tensor& exponent) {
  return pow_tensor_tensor_impl(Tensor(), self, exponent);
}
Tensor pow_tensor_(const Tensor& self, const Tensor& exponent) {
  return pow_tensor_tensor_impl(self, self, exponent);
}
Tensor pow_tensor_tensor_out(const Tensor& self, const Tensor& exponent, const Tensor& out) {
  return pow_tensor_tensor_impl(out, self, exponent);
}
Tensor pow_tensor_scalar(const Tensor& self, const Scalar& exponent) {
  return pow_tensor_scalar_impl(Tensor(), self, exponent);
}
Tensor pow_scalar_(const Tensor& self, const Scalar& exponent) {
  return pow_tensor_scalar_impl(self, self, exponent);
}
Tensor pow_tensor_scalar_out(const Tensor& self, const Scalar& exponent, const Tensor& out) {
  return pow_tensor_scalar_impl(out, self, exponent);
}
// self (a number), exponent [*s] -> [*s]
Tensor pow_scalar(const Scalar& self, const Tensor& exponent) {
  return pow_scalar_impl(Tensor(), self, exponent);
}
Tensor pow_scalar_out(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  return pow_scalar_impl(out, self, exponent);
}

static Library cpu_binary(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("add.Tensor", functional<&add_impl>());
  m.impl("add_.Tensor", inplace<&add_impl>());
  m.impl("add.out", out<&add_impl>());
  m.impl("sub.Tensor", functional<&sub_impl>());
  m.impl("sub_.Tensor", inplace<&sub_impl>());
  m.impl("sub.out", out<&sub_impl>());
  m.impl("rsub.Tensor", fn<&rsub>);
  m.impl("mul.Tensor", functional<&mul_impl>());
  m.impl("mul_.Tensor", inplace<&mul_impl>());
  m.impl("mul.out", out<&mul_impl>());
  m.impl("div.Tensor", fn<&div>);
  m.impl("div_.Tensor", fn<&div_>);
  m.impl("div.out", fn<&div_out>);
  m.impl("div.Tensor_mode", fn<&div_mode>);
  m.impl("div_.Tensor_mode", fn<&div_mode_>);
  m.impl("div.out_mode", fn<&div_out_mode>);
  m.impl("neg", functional<&neg_impl>());
  m.impl("neg_", inplace<&neg_impl>());
  m.impl("neg.out", out<&neg_impl>());
  m.impl("pow.Tensor_Tensor", fn<&pow_tensor_tensor>);
  m.impl("pow.Tensor_Scalar", fn<&pow_tensor_scalar>);
  m.impl("pow.Scalar", fn<&pow_scalar>);
  m.impl("pow_.Scalar", fn<&pow_scalar_>);
  m.impl("pow_.Tensor", fn<&pow_tensor_>);
  m.impl("pow.Tensor_Tensor_out", fn<&pow_tensor_tensor_out>);
  m.impl("pow.Tensor_Scalar_out", fn<&pow_tensor_scalar_out>);
  m.impl("pow.Scalar_out", fn<&pow_scalar_out>);
});

}  // namespace opscope::cpu
