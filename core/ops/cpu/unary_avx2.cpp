// AVX2 + FMA kernels of core/ops/cpu/unary_vec.h: SLEEF's u10 functions over 8 floats /
// 4 doubles at a time. This file alone is compiled with -mavx2 -mfma (core/CMakeLists.txt), and
// is entered only after vec::available() checked the CPU. Keep it free of shared inline code
// (no standard library templates): an AVX2 copy of an inline function could otherwise be the one
// the linker keeps for every caller.
#include "core/ops/cpu/unary_vec.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <sleef.h>

namespace opscope::cpu::vec {

namespace {

// The same few operations on both register types, so one template serves float and double.
inline __m256 load(const float* p) {
  return _mm256_loadu_ps(p);
}
inline __m256d load(const double* p) {
  return _mm256_loadu_pd(p);
}
inline void store(float* p, __m256 v) {
  _mm256_storeu_ps(p, v);
}
inline void store(double* p, __m256d v) {
  _mm256_storeu_pd(p, v);
}
inline __m256 splat(float v) {
  return _mm256_set1_ps(v);
}
inline __m256d splat(double v) {
  return _mm256_set1_pd(v);
}
inline __m256 add(__m256 a, __m256 b) {
  return _mm256_add_ps(a, b);
}
inline __m256d add(__m256d a, __m256d b) {
  return _mm256_add_pd(a, b);
}
inline __m256 sub(__m256 a, __m256 b) {
  return _mm256_sub_ps(a, b);
}
inline __m256d sub(__m256d a, __m256d b) {
  return _mm256_sub_pd(a, b);
}
inline __m256 mul(__m256 a, __m256 b) {
  return _mm256_mul_ps(a, b);
}
inline __m256d mul(__m256d a, __m256d b) {
  return _mm256_mul_pd(a, b);
}
inline __m256 div(__m256 a, __m256 b) {
  return _mm256_div_ps(a, b);
}
inline __m256d div(__m256d a, __m256d b) {
  return _mm256_div_pd(a, b);
}
inline __m256 sqrt(__m256 a) {
  return _mm256_sqrt_ps(a);
}
inline __m256d sqrt(__m256d a) {
  return _mm256_sqrt_pd(a);
}
// max(a, b) returns b when either is NaN (vmaxps): relu(NaN) = max(0, NaN) = NaN, as PyTorch.
inline __m256 max(__m256 a, __m256 b) {
  return _mm256_max_ps(a, b);
}
inline __m256d max(__m256d a, __m256d b) {
  return _mm256_max_pd(a, b);
}
inline __m256 abs(__m256 a) {
  return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
}
inline __m256d abs(__m256d a) {
  return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a);
}
inline __m256 neg(__m256 a) {
  return _mm256_xor_ps(_mm256_set1_ps(-0.0f), a);
}
inline __m256d neg(__m256d a) {
  return _mm256_xor_pd(_mm256_set1_pd(-0.0), a);
}
// a > b ? x : y
// a == b ? x : y (ordered: NaN gives y)
inline __m256 select_eq(__m256 a, __m256 b, __m256 x, __m256 y) {
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(a, b, _CMP_EQ_OQ));
}
inline __m256d select_eq(__m256d a, __m256d b, __m256d x, __m256d y) {
  return _mm256_blendv_pd(y, x, _mm256_cmp_pd(a, b, _CMP_EQ_OQ));
}
inline __m256 select_gt(__m256 a, __m256 b, __m256 x, __m256 y) {
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(a, b, _CMP_GT_OQ));
}
inline __m256d select_gt(__m256d a, __m256d b, __m256d x, __m256d y) {
  return _mm256_blendv_pd(y, x, _mm256_cmp_pd(a, b, _CMP_GT_OQ));
}

#define OPSCOPE_SLEEF(name, fname, dname) \
  inline __m256 name(__m256 a) {          \
    return Sleef_##fname##f8_u10avx2(a);  \
  }                                       \
  inline __m256d name(__m256d a) {        \
    return Sleef_##dname##d4_u10avx2(a);  \
  }
OPSCOPE_SLEEF(exp, exp, exp)
OPSCOPE_SLEEF(exp2, exp2, exp2)
OPSCOPE_SLEEF(expm1, expm1, expm1)
OPSCOPE_SLEEF(log, log, log)
OPSCOPE_SLEEF(log2, log2, log2)
OPSCOPE_SLEEF(log10, log10, log10)
OPSCOPE_SLEEF(log1p, log1p, log1p)
OPSCOPE_SLEEF(sin, sin, sin)
OPSCOPE_SLEEF(cos, cos, cos)
OPSCOPE_SLEEF(tan, tan, tan)
OPSCOPE_SLEEF(asin, asin, asin)
OPSCOPE_SLEEF(acos, acos, acos)
OPSCOPE_SLEEF(atan, atan, atan)
OPSCOPE_SLEEF(sinh, sinh, sinh)
OPSCOPE_SLEEF(cosh, cosh, cosh)
OPSCOPE_SLEEF(tanh, tanh, tanh)
OPSCOPE_SLEEF(erf, erf, erf)
OPSCOPE_SLEEF(lgamma, lgamma, lgamma)
#undef OPSCOPE_SLEEF
inline __m256 hypot(__m256 a, __m256 b) {
  return Sleef_hypotf8_u05avx2(a, b);
}
inline __m256d hypot(__m256d a, __m256d b) {
  return Sleef_hypotd4_u05avx2(a, b);
}

// exp(z) for z <= 0 inlined (no call, so GELU's constants stay in registers): Cephes' expf
// polynomial on z - n ln2, scaled by 2^n; within 2 ulp, far below the erf approximation's error.
inline __m256 exp_nonpositive(__m256 z) {
  z = _mm256_max_ps(z, _mm256_set1_ps(-87.0f));
  __m256 n = _mm256_round_ps(_mm256_mul_ps(z, _mm256_set1_ps(1.44269504088896341f)),
                             _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), z);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  __m256 y = _mm256_add_ps(_mm256_fmadd_ps(_mm256_mul_ps(p, r), r, r), _mm256_set1_ps(1.0f));
  __m256i e =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(y, _mm256_castsi256_ps(e));
}

// erf(x) for GELU on float32, the approximation oneDNN's gelu_erf (which PyTorch 1.13 runs for
// float32 GELU) uses: Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7,
// erf(x) = sign(x) (1 - t (p1 + t (p2 + t (p3 + t (p4 + t p5)))) exp(-x^2)), t = 1 / (1 + p |x|).
// float64 uses SLEEF's erf.
// The approximation, also giving the exp(-x^2) it computed on the way (GELU's derivative reuses
// it as its density).
inline __m256 erf_approx(__m256 x, __m256* exp_minus_x2) {
  const __m256 neg_zero = _mm256_set1_ps(-0.f), one = _mm256_set1_ps(1.0f);
  const __m256 p = _mm256_set1_ps(0.3275911f), p1 = _mm256_set1_ps(0.254829592f),
               p2 = _mm256_set1_ps(-0.284496736f), p3 = _mm256_set1_ps(1.421413741f),
               p4 = _mm256_set1_ps(-1.453152027f), p5 = _mm256_set1_ps(1.061405429f);
  __m256 sign = _mm256_and_ps(neg_zero, x);
  __m256 ax = _mm256_xor_ps(sign, x);
  __m256 t = _mm256_div_ps(one, _mm256_fmadd_ps(p, ax, one));
  __m256 r = _mm256_fmadd_ps(
      _mm256_fmadd_ps(_mm256_fmadd_ps(_mm256_fmadd_ps(p5, t, p4), t, p3), t, p2), t, p1);
  __m256 e = exp_nonpositive(_mm256_xor_ps(neg_zero, _mm256_mul_ps(x, x)));  // exp(-x^2)
  *exp_minus_x2 = e;
  __m256 y = _mm256_fnmadd_ps(_mm256_mul_ps(e, t), r, one);  // 1 - t r exp(-x^2)
  return _mm256_xor_ps(sign, y);
}
inline __m256 gelu_erf(__m256 x) {
  __m256 unused;
  return erf_approx(x, &unused);
}
inline __m256d gelu_erf(__m256d x) {
  return erf(x);
}

// GELU's derivative Phi(x) + x phi(x) on float32: gelu_erf's approximation of erf(x / sqrt(2)),
// whose exp(-x^2 / 2) is also phi's, computed once. float64: SLEEF's erf and exp.
inline __m256 gelu_derivative(__m256 x) {
  __m256 e;  // exp(-z^2) = exp(-x^2 / 2)
  const __m256 erf_z = erf_approx(_mm256_mul_ps(x, _mm256_set1_ps(0.70710678118654752440f)), &e);
  const __m256 cdf =
      _mm256_mul_ps(_mm256_set1_ps(0.5f), _mm256_add_ps(_mm256_set1_ps(1.0f), erf_z));
  return _mm256_fmadd_ps(_mm256_mul_ps(x, _mm256_set1_ps(0.39894228040143267794f)), e, cdf);
}
inline __m256d gelu_derivative(__m256d x) {
  const __m256d half = _mm256_set1_pd(0.5), one = _mm256_set1_pd(1.0);
  const __m256d cdf = mul(half, add(one, erf(mul(x, _mm256_set1_pd(0.70710678118654752440)))));
  const __m256d pdf = mul(_mm256_set1_pd(0.39894228040143267794),
                          exp(mul(_mm256_set1_pd(-0.5), mul(x, x))));
  return add(cdf, mul(x, pdf));
}

// The register of 256 bits of T (no __m256 as a template argument: GCC drops its attributes).
template <typename T>
struct Vec;
template <>
struct Vec<float> {
  using type = __m256;
};
template <>
struct Vec<double> {
  using type = __m256d;
};

// y[i] = f(x[i]); the last partial vector goes through a zero-padded buffer.
template <typename T, typename F>
inline void loop(const T* x, T* y, int64_t n, F f) {
  constexpr int L = static_cast<int>(32 / sizeof(T));
  int64_t i = 0;
  for (; i + L <= n; i += L) store(y + i, f(load(x + i)));
  if (i < n) {
    T buf[L] = {};
    for (int64_t j = 0; j < n - i; ++j) buf[j] = x[i + j];
    store(buf, f(load(buf)));
    for (int64_t j = 0; j < n - i; ++j) y[i + j] = buf[j];
  }
}

template <typename T>
bool run(UnaryOp op, const T* x, T* y, int64_t n, const double* params) {
  using V = typename Vec<T>::type;
  const V one = splat(T(1)), half = splat(T(0.5));
  switch (op) {
    case UnaryOp::Exp:
      loop(x, y, n, [](V v) { return exp(v); });
      return true;
    case UnaryOp::Exp2:
      loop(x, y, n, [](V v) { return exp2(v); });
      return true;
    case UnaryOp::Expm1:
      loop(x, y, n, [](V v) { return expm1(v); });
      return true;
    case UnaryOp::Log:
      loop(x, y, n, [](V v) { return log(v); });
      return true;
    case UnaryOp::Log2:
      loop(x, y, n, [](V v) { return log2(v); });
      return true;
    case UnaryOp::Log10:
      loop(x, y, n, [](V v) { return log10(v); });
      return true;
    case UnaryOp::Log1p:
      loop(x, y, n, [](V v) { return log1p(v); });
      return true;
    case UnaryOp::Sqrt:
      loop(x, y, n, [](V v) { return sqrt(v); });
      return true;
    case UnaryOp::Rsqrt:
      loop(x, y, n, [one](V v) { return div(one, sqrt(v)); });
      return true;
    case UnaryOp::Reciprocal:
      loop(x, y, n, [one](V v) { return div(one, v); });
      return true;
    case UnaryOp::Sin:
      loop(x, y, n, [](V v) { return sin(v); });
      return true;
    case UnaryOp::Cos:
      loop(x, y, n, [](V v) { return cos(v); });
      return true;
    case UnaryOp::Tan:
      loop(x, y, n, [](V v) { return tan(v); });
      return true;
    case UnaryOp::Asin:
      loop(x, y, n, [](V v) { return asin(v); });
      return true;
    case UnaryOp::Acos:
      loop(x, y, n, [](V v) { return acos(v); });
      return true;
    case UnaryOp::Atan:
      loop(x, y, n, [](V v) { return atan(v); });
      return true;
    case UnaryOp::Sinh:
      loop(x, y, n, [](V v) { return sinh(v); });
      return true;
    case UnaryOp::Cosh:
      loop(x, y, n, [](V v) { return cosh(v); });
      return true;
    case UnaryOp::Tanh:
      loop(x, y, n, [](V v) { return tanh(v); });
      return true;
    case UnaryOp::Erf:
      loop(x, y, n, [](V v) { return erf(v); });
      return true;
    case UnaryOp::Lgamma:
      loop(x, y, n, [](V v) { return lgamma(v); });
      return true;
    case UnaryOp::Sigmoid:  // 1 / (1 + exp(-x))
      loop(x, y, n, [one](V v) { return div(one, add(one, exp(neg(v)))); });
      return true;
    case UnaryOp::Silu:  // x / (1 + exp(-x))
      loop(x, y, n, [one](V v) { return div(v, add(one, exp(neg(v)))); });
      return true;
    case UnaryOp::GeluErfStep:  // erf alone, as GeluErf computes it (bfloat16 GELU's step)
      loop(x, y, n, [](V v) { return gelu_erf(v); });
      return true;
    case UnaryOp::GeluErf: {  // x / 2 * (1 + erf(x / sqrt(2)))
      const V alpha = splat(T(0.70710678118654752440));
      loop(x, y, n, [=](V v) { return mul(mul(v, half), add(one, gelu_erf(mul(v, alpha)))); });
      return true;
    }
    case UnaryOp::GeluTanh: {  // x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))
      const V beta = splat(T(0.79788456080286535588)), kappa = splat(T(0.044715));
      loop(x, y, n, [=](V v) {
        V inner = mul(beta, add(v, mul(kappa, mul(mul(v, v), v))));
        return mul(mul(half, v), add(one, tanh(inner)));
      });
      return true;
    }
    case UnaryOp::Softplus: {  // x * beta > threshold ? x : log1p(exp(x * beta)) / beta
      const V beta = splat(T(params[0])), threshold = splat(T(params[1]));
      loop(x, y, n, [=](V v) {
        V xb = mul(v, beta);
        return select_gt(xb, threshold, v, div(log1p(exp(xb)), beta));
      });
      return true;
    }
    case UnaryOp::Elu: {  // x > 0 ? scale x : alpha scale (exp(input_scale x) - 1)
      // exp - 1, as torch 1.13's vectorized elu_kernel: SLEEF's expm1 takes 4x exp's time (1e6
      // floats: 1.49 ms against torch's 0.49), and the absolute error stays ~1 ulp of 1.
      const V negcoef = splat(T(params[0])), poscoef = splat(T(params[1])),
              negiptcoef = splat(T(params[2])), zero = splat(T(0)), one = splat(T(1));
      loop(x, y, n, [=](V v) {
        V negative = mul(sub(exp(mul(v, negiptcoef)), one), negcoef);
        return select_gt(v, zero, mul(v, poscoef), negative);
      });
      return true;
    }
    case UnaryOp::Mish:  // x tanh(log1p(exp(x)))
      loop(x, y, n, [](V v) { return mul(v, tanh(log1p(exp(v)))); });
      return true;
    case UnaryOp::LogSigmoid: {  // min(x, 0) - log1p(exp(-|x|))
      const V zero = splat(T(0));
      loop(x, y, n, [zero](V v) {
        return sub(select_gt(v, zero, zero, v), log1p(exp(neg(abs(v)))));
      });
      return true;
    }
    case UnaryOp::LeakyRelu: {  // x > 0 ? x : slope x
      const V slope = splat(T(params[0])), zero = splat(T(0));
      loop(x, y, n, [=](V v) { return select_gt(v, zero, v, mul(v, slope)); });
      return true;
    }
    case UnaryOp::Hardtanh: {  // clamp(x, lo, hi), NaN kept
      const V lo = splat(T(params[0])), hi = splat(T(params[1]));
      loop(x, y, n, [=](V v) { return select_gt(v, hi, hi, select_gt(lo, v, lo, v)); });
      return true;
    }
    case UnaryOp::Threshold: {  // x <= t ? value : x, NaN kept (every compare is false)
      const V t = splat(T(params[0])), value = splat(T(params[1]));
      loop(x, y, n, [=](V v) { return select_gt(t, v, value, select_eq(v, t, value, v)); });
      return true;
    }
    case UnaryOp::Hardshrink: {  // 0 inside [-l, l], x elsewhere (NaN kept)
      const V l = splat(T(params[0])), minus_l = splat(T(-params[0])), zero = splat(T(0));
      loop(x, y, n, [=](V v) {
        V outside = select_gt(v, l, v, select_gt(minus_l, v, v, zero));
        return select_eq(v, v, outside, v);
      });
      return true;
    }
    case UnaryOp::Softshrink: {  // x - l above l, x + l below -l, 0 between (and for NaN)
      const V l = splat(T(params[0])), minus_l = splat(T(-params[0])), zero = splat(T(0));
      loop(x, y, n, [=](V v) {
        return select_gt(v, l, sub(v, l), select_gt(minus_l, v, add(v, l), zero));
      });
      return true;
    }
    case UnaryOp::Hardsigmoid: {  // clamp(x + 3, 0, 6) / 6
      const V three = splat(T(3)), six = splat(T(6)), zero = splat(T(0));
      loop(x, y, n, [=](V v) {
        V t = add(v, three);
        return div(select_gt(t, six, six, select_gt(zero, t, zero, t)), six);
      });
      return true;
    }
    case UnaryOp::Hardswish: {  // x clamp(x + 3, 0, 6) / 6
      const V three = splat(T(3)), six = splat(T(6)), zero = splat(T(0));
      loop(x, y, n, [=](V v) {
        V t = add(v, three);
        return div(mul(v, select_gt(t, six, six, select_gt(zero, t, zero, t))), six);
      });
      return true;
    }
    case UnaryOp::Abs:
      loop(x, y, n, [](V v) { return abs(v); });
      return true;
    case UnaryOp::Relu: {
      const V zero = splat(T(0));
      loop(x, y, n, [zero](V v) { return max(zero, v); });
      return true;
    }
  }
  return false;
}

// y[i] = f(g[i], x[i]), the last partial vector through zero-padded buffers.
template <typename T, typename F>
inline void loop2(const T* g, const T* x, T* y, int64_t n, F f) {
  constexpr int L = static_cast<int>(32 / sizeof(T));
  int64_t i = 0;
  for (; i + L <= n; i += L) store(y + i, f(load(g + i), load(x + i)));
  if (i < n) {
    T gb[L] = {}, xb[L] = {};
    for (int64_t j = 0; j < n - i; ++j) {
      gb[j] = g[i + j];
      xb[j] = x[i + j];
    }
    store(gb, f(load(gb), load(xb)));
    for (int64_t j = 0; j < n - i; ++j) y[i + j] = gb[j];
  }
}

// The activations' derivatives times the incoming gradient, as the scalar forms in
// core/ops/cpu/activation.cpp (and torch 1.13's cpu/Activation.cpp) compute them.
template <typename T>
bool run_backward(UnaryOp op, const T* g, const T* x, T* y, int64_t n, const double* params) {
  using V = typename Vec<T>::type;
  const V one = splat(T(1)), half = splat(T(0.5));
  switch (op) {
    case UnaryOp::GeluErf:  // Phi(x) + x phi(x)
      loop2(g, x, y, n, [](V gv, V v) { return mul(gv, gelu_derivative(v)); });
      return true;
    case UnaryOp::GeluTanh: {  // d/dx x / 2 (1 + tanh(beta (x + kappa x^3)))
      const V beta = splat(T(0.79788456080286535588)), kappa = splat(T(0.044715));
      const V three_kappa = splat(T(3 * 0.044715));
      loop2(g, x, y, n, [=](V gv, V v) {
        V x2 = mul(v, v);
        V t = tanh(mul(beta, add(v, mul(kappa, mul(x2, v)))));
        V left = mul(half, add(one, t));
        V right = mul(mul(mul(half, v), sub(one, mul(t, t))),
                      mul(beta, add(one, mul(three_kappa, x2))));
        return mul(gv, add(left, right));
      });
      return true;
    }
    case UnaryOp::Silu:  // s (1 + x (1 - s)), s = sigmoid(x)
      loop2(g, x, y, n, [one](V gv, V v) {
        V sg = div(one, add(one, exp(neg(v))));
        return mul(gv, mul(sg, add(one, mul(v, sub(one, sg)))));
      });
      return true;
    case UnaryOp::Softplus: {  // x beta > threshold ? 1 : z / (z + 1), z = exp(x beta)
      const V beta = splat(T(params[0])), threshold = splat(T(params[1]));
      loop2(g, x, y, n, [=](V gv, V v) {
        V xb = mul(v, beta);
        V z = exp(xb);
        return select_gt(xb, threshold, gv, div(mul(gv, z), add(z, one)));
      });
      return true;
    }
    case UnaryOp::Elu: {  // x > 0 ? g scale : from the result y or the input x, as elu_backward
      const V negcoef = splat(T(params[0])), poscoef = splat(T(params[1])),
              negiptcoef = splat(T(params[2])), zero = splat(T(0));
      if (params[3] != 0) {
        loop2(g, x, y, n, [=](V gv, V v) {
          return select_gt(v, zero, mul(gv, poscoef), mul(mul(gv, negiptcoef), add(v, negcoef)));
        });
      } else {
        loop2(g, x, y, n, [=](V gv, V v) {
          V negative = mul(mul(mul(gv, negiptcoef), negcoef), exp(mul(v, negiptcoef)));
          return select_gt(v, zero, mul(gv, poscoef), negative);
        });
      }
      return true;
    }
    case UnaryOp::LeakyRelu: {  // g where x > 0, slope g elsewhere
      const V slope = splat(T(params[0])), zero = splat(T(0));
      loop2(g, x, y, n, [=](V gv, V v) { return select_gt(v, zero, gv, mul(gv, slope)); });
      return true;
    }
    case UnaryOp::Hardshrink:
    case UnaryOp::Softshrink: {  // g outside [-l, l] (NaN x: g), 0 inside
      const V l = splat(T(params[0])), minus_l = splat(T(-params[0])), zero = splat(T(0));
      loop2(g, x, y, n, [=](V gv, V v) {
        V outside = select_gt(v, l, gv, select_gt(minus_l, v, gv, zero));
        return select_eq(v, v, outside, gv);
      });
      return true;
    }
    case UnaryOp::Hardtanh: {  // g strictly inside (lo, hi), 0 at and beyond (NaN x: g)
      const V lo = splat(T(params[0])), hi = splat(T(params[1])), zero = splat(T(0));
      loop2(g, x, y, n, [=](V gv, V v) {
        // 0 where x < lo, x > hi, x == lo or x == hi; every compare is false for a NaN x
        V inside = select_eq(v, hi, zero, gv);
        inside = select_eq(v, lo, zero, inside);
        return select_gt(lo, v, zero, select_gt(v, hi, zero, inside));
      });
      return true;
    }
    case UnaryOp::Hardsigmoid: {  // g / 6 strictly inside (-3, 3)
      const V three = splat(T(3)), minus_three = splat(T(-3)), six = splat(T(6)),
              zero = splat(T(0));
      loop2(g, x, y, n, [=](V gv, V v) {
        return select_gt(v, minus_three, select_gt(three, v, div(gv, six), zero), zero);
      });
      return true;
    }
    case UnaryOp::Hardswish: {  // 0 below -3, g (x / 3 + 1/2) up to 3, g above
      const V three = splat(T(3)), minus_three = splat(T(-3)), zero = splat(T(0));
      loop2(g, x, y, n, [=](V gv, V v) {
        V middle = mul(gv, add(div(v, three), half));
        return select_gt(minus_three, v, zero, select_gt(v, three, gv, middle));
      });
      return true;
    }
    case UnaryOp::Mish:  // tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2), sp = log1p(exp(x))
      loop2(g, x, y, n, [one](V gv, V v) {
        V sg = div(one, add(one, exp(neg(v))));
        V t = tanh(log1p(exp(v)));
        return mul(gv, add(t, mul(mul(v, sg), sub(one, mul(t, t)))));
      });
      return true;
    case UnaryOp::LogSigmoid: {  // 1 - sigmoid(x) with z = exp(-|x|): 1 / (1 + z) below 0
      const V zero = splat(T(0));
      loop2(g, x, y, n, [=](V gv, V v) {
        V z = exp(neg(abs(v)));
        V r = div(one, add(one, z));
        return mul(gv, select_gt(zero, v, r, mul(z, r)));
      });
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

bool avx2_activation_backward(UnaryOp op, const float* g, const float* x, float* y, int64_t n,
                              const double* params) {
  return run_backward(op, g, x, y, n, params);
}
bool avx2_activation_backward(UnaryOp op, const double* g, const double* x, double* y, int64_t n,
                              const double* params) {
  return run_backward(op, g, x, y, n, params);
}

// +inf and ln 2 in each lane, chosen by the register type (no standard library templates here).
inline __m256 infinity_like(__m256) {
  return _mm256_set1_ps(__builtin_inff());
}
inline __m256d infinity_like(__m256d) {
  return _mm256_set1_pd(__builtin_inf());
}
inline __m256 ln2_like(__m256) {
  return _mm256_set1_ps(0.693147180559945309417f);
}
inline __m256d ln2_like(__m256d) {
  return _mm256_set1_pd(0.693147180559945309417232121458176568);
}

// max(a, b) + log1p(base^-|a - b|) / ln(base), where two equal infinities give themselves (not
// inf - inf) and a NaN operand NaN, as torch's vectorized logaddexp / logaddexp2.
template <bool Base2, typename V>
inline V log_add_exp(V a, V b) {
  const V d = neg(abs(sub(a, b)));
  V r;
  if constexpr (Base2) {
    r = add(max(a, b), div(log1p(exp2(d)), ln2_like(a)));
  } else {
    r = add(max(a, b), log1p(exp(d)));
  }
  // a where a == b == ±inf; a NaN operand's NaN stays in r (d is NaN)
  return select_eq(abs(a), infinity_like(a), select_eq(a, b, a, r), r);
}

template <typename T>
bool run_binary(BinaryOp op, const T* a, const T* b, T* y, int64_t n) {
  using V = typename Vec<T>::type;
  switch (op) {
    case BinaryOp::LogAddExp:
      loop2(a, b, y, n, [](V u, V v) { return log_add_exp<false>(u, v); });
      return true;
    case BinaryOp::LogAddExp2:
      loop2(a, b, y, n, [](V u, V v) { return log_add_exp<true>(u, v); });
      return true;
    case BinaryOp::Hypot:
      loop2(a, b, y, n, [](V u, V v) { return hypot(u, v); });
      return true;
  }
  return false;
}

bool avx2_binary(BinaryOp op, const float* a, const float* b, float* y, int64_t n) {
  return run_binary(op, a, b, y, n);
}
bool avx2_binary(BinaryOp op, const double* a, const double* b, double* y, int64_t n) {
  return run_binary(op, a, b, y, n);
}

bool avx2_unary(UnaryOp op, const float* x, float* y, int64_t n, const double* params) {
  return run(op, x, y, n, params);
}
bool avx2_unary(UnaryOp op, const double* x, double* y, int64_t n, const double* params) {
  return run(op, x, y, n, params);
}

}  // namespace opscope::cpu::vec

#else  // not x86-64: no vector kernels; vec::available() is false and these are never called

namespace opscope::cpu::vec {
bool avx2_unary(UnaryOp, const float*, float*, int64_t, const double*) {
  return false;
}
bool avx2_unary(UnaryOp, const double*, double*, int64_t, const double*) {
  return false;
}
bool avx2_activation_backward(UnaryOp, const float*, const float*, float*, int64_t,
                              const double*) {
  return false;
}
bool avx2_activation_backward(UnaryOp, const double*, const double*, double*, int64_t,
                              const double*) {
  return false;
}
bool avx2_binary(BinaryOp, const float*, const float*, float*, int64_t) {
  return false;
}
bool avx2_binary(BinaryOp, const double*, const double*, double*, int64_t) {
  return false;
}
}  // namespace opscope::cpu::vec

#endif
