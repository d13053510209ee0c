// Vectorized math for the unary kernels (cpu/unary.cpp, cpu/activation.cpp): y[i] = f(x[i]) over
// contiguous float32 / float64 arrays, with SLEEF's 1-ulp (u10) functions — the ones PyTorch's
// CPU kernels use — on CPUs with AVX2 and FMA.
//
// Semantically vec_unary(op, x, y, n, params) fills y[0, n) and returns true, or returns false
// when no vector kernel applies (no AVX2 / FMA, or `op` has none): the caller then runs its
// scalar loop. x and y may be the same array (in place), not otherwise overlap.
//
// In implementation terms the kernels live in unary_avx2.cpp, the one file compiled with
// -mavx2 -mfma (see core/CMakeLists.txt); it is only entered after a run-time CPU check, so the
// library still loads and runs on an x86-64 baseline CPU.
#pragma once

#include <cstdint>

namespace opscope::cpu::vec {

enum class UnaryOp : int {
  Exp,
  Exp2,
  Expm1,
  Log,
  Log2,
  Log10,
  Log1p,
  Sqrt,
  Rsqrt,
  Reciprocal,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Erf,
  Sigmoid,
  Silu,
  GeluErf,
  GeluTanh,
  Softplus,  // Softplus: params = {beta, threshold}
  Abs,
  Relu,
  Elu,         // params = {alpha scale, scale, input_scale} (backward: and is_result)
  Mish,
  LogSigmoid,  // min(x, 0) - log1p(exp(-|x|)) (backward: 1 - sigmoid(x))
  LeakyRelu,   // params = {negative_slope}
  Hardtanh,    // params = {min_val, max_val}
  Hardsigmoid,
  Hardswish,
  Threshold,   // params = {threshold, value}: value where x <= threshold (forward only)
  GeluErfStep,  // erf as GELU computes it: oneDNN's approximation on float32 (forward only)
  Hardshrink,  // params = {lambd}: 0 inside [-lambd, lambd] (backward: the shrinks' gradient)
  Softshrink,  // params = {lambd}: x -+ lambd outside [-lambd, lambd], 0 inside (and NaN)
  Lgamma,
};

// Functions of two operands (cpu/binary_math.cpp), as torch's vectorized kernels compute them:
// LogAddExp max + log1p(exp(-|a - b|)) (two equal infinities: themselves), LogAddExp2 the same in
// base 2, Hypot SLEEF's hypot (0.5 ulp).
enum class BinaryOp : int { LogAddExp, LogAddExp2, Hypot };

// Whether this CPU runs the vector kernels (AVX2 and FMA), decided once.
bool available();

bool vec_unary(UnaryOp op, const float* x, float* y, int64_t n, const double* params = nullptr);
bool vec_unary(UnaryOp op, const double* x, double* y, int64_t n, const double* params = nullptr);

// y[i] = g[i] * f'(x[i]) for the activations' gradients (gelu_backward, silu_backward,
// softplus_backward): `op` names f (GeluErf, GeluTanh, Silu, Softplus with its params); false when
// no vector kernel applies. y may be g or x, not otherwise overlap them.
bool vec_activation_backward(UnaryOp op, const float* g, const float* x, float* y, int64_t n,
                             const double* params = nullptr);
bool vec_activation_backward(UnaryOp op, const double* g, const double* x, double* y, int64_t n,
                             const double* params = nullptr);

// y[i] = op(a[i], b[i]) over contiguous arrays; false when no vector kernel applies. y may be a
// or b, not otherwise overlap them.
bool vec_binary(BinaryOp op, const float* a, const float* b, float* y, int64_t n);
bool vec_binary(BinaryOp op, const double* a, const double* b, double* y, int64_t n);

// The AVX2 kernels themselves (unary_avx2.cpp); call only when available().
bool avx2_unary(UnaryOp op, const float* x, float* y, int64_t n, const double* params);
bool avx2_unary(UnaryOp op, const double* x, double* y, int64_t n, const double* params);
bool avx2_activation_backward(UnaryOp op, const float* g, const float* x, float* y, int64_t n,
                              const double* params);
bool avx2_activation_backward(UnaryOp op, const double* g, const double* x, double* y, int64_t n,
                              const double* params);
bool avx2_binary(BinaryOp op, const float* a, const float* b, float* y, int64_t n);
bool avx2_binary(BinaryOp op, const double* a, const double* b, double* y, int64_t n);

}  // namespace opscope::cpu::vec
