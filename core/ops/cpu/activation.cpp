// CPU kernels of the activations (see core/ops/nn.h): relu (clamp_min, as PyTorch) and its
// gradient threshold_backward; gelu, silu and softplus, float-only functions of self's own dtype
// over the unary loops (unary_loops.h), and their gradients gelu_backward, silu_backward and
// softplus_backward (one pass over grad and self, SLEEF's vector math for float / double);
// leaky_relu, hardtanh, elu, hardsigmoid, hardswish, mish and log_sigmoid with their gradients;
// threshold; prelu, hardshrink and softshrink and their gradients. Each
// of these is one `*_impl(out, ...)`, registered at the end of the file in its functional /
// in-place / out= forms (core/ops/KernelForms.h).
#include <bit>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/compare.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/unary_loops.h"
#include "core/ops/copy.h"
#include "core/ops/reduce.h"
#include "core/ops/utility.h"

namespace opscope::cpu {

namespace {

using vec::UnaryOp;

UnaryOp gelu_op(std::string_view approximate) {
  if (approximate == "none") return UnaryOp::GeluErf;
  if (approximate == "tanh") return UnaryOp::GeluTanh;
  throw Error(detail::str("approximate argument must be either none or tanh."));
}

// GELU on bfloat16 as PyTorch 1.13 computes it: in bfloat16 arithmetic, rounding after every
// step (gelu(-2.5) is -0.0146, not the nearer -0.0155). A block at a time in float buffers, each
// step a plain loop (`omp simd`: -O2 does not vectorize a loop of unknown length on its own) and
// erf (float GELU's approximation) / tanh through the float vector kernels: 10^6
// elements on 1 thread took 11.3 ms as a scalar loop per element (torch 0.36).
Tensor gelu_bfloat16(const Tensor& out, const Tensor& self, bool tanh) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  const float alpha = round_bf16(static_cast<float>(M_SQRT1_2));
  const float beta = round_bf16(static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5));
  const float kappa = round_bf16(0.044715f);
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    float x[kBufferElems], t[kBufferElems];
    for (int64_t start = 0; start < n; start += kBufferElems) {
      const int64_t m = std::min(kBufferElems, n - start);
      widen_bf16(data[1] + start * strides[1], strides[1], x, m);
      if (tanh) {  // 0.5 x (1 + tanh(beta (x + kappa x^3)))
#pragma omp simd
        for (int64_t i = 0; i < m; ++i) {
          const float cube = round_bf16(round_bf16(x[i] * x[i]) * x[i]);
          t[i] = round_bf16(beta * round_bf16(x[i] + round_bf16(kappa * cube)));
        }
        if (!vec::vec_unary(UnaryOp::Tanh, t, t, m))
          for (int64_t i = 0; i < m; ++i) t[i] = std::tanh(t[i]);
      } else {  // x / 2 (1 + erf(x / sqrt(2)))
#pragma omp simd
        for (int64_t i = 0; i < m; ++i) t[i] = round_bf16(x[i] * alpha);
        if (!vec::vec_unary(UnaryOp::GeluErfStep, t, t, m))  // float GELU's erf
          for (int64_t i = 0; i < m; ++i) t[i] = std::erf(t[i]);
      }
#pragma omp simd
      for (int64_t i = 0; i < m; ++i) {
        const float half_x = round_bf16(x[i] * 0.5f);
        t[i] = round_bf16(half_x * round_bf16(1.0f + round_bf16(t[i])));
      }
      narrow_bf16(t, data[0] + start * strides[0], strides[0], m);
    }
  });
  return iter.output();
}

}  // namespace

// relu = clamp_min(self, 0), as PyTorch (bool refused)
Tensor relu(const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "Boolean inputs not supported for relu");
  return ops::clamp_min(self, 0);
}
Tensor relu_(const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "Boolean inputs not supported for relu");
  return ops::clamp_min_(self, 0);
}

// self [*s] -> gelu(self) [*s]; approximate "none" (erf) or "tanh"
Tensor gelu_impl(const Tensor& out, const Tensor& self, std::string_view approximate) {
  if (self.dtype() == ScalarType::BFloat16 && (!out.defined() || out.dtype() == self.dtype()))
    return gelu_bfloat16(out, self, gelu_op(approximate) == UnaryOp::GeluTanh);
  if (gelu_op(approximate) == UnaryOp::GeluErf) {
    return unary_same_float(out, self, "GeluKernelImpl", UnaryOp::GeluErf, [](auto x) {
      using A = decltype(x);
      return x * A(0.5) * (A(1) + std::erf(x * A(M_SQRT1_2)));
    });
  }
  return unary_same_float(out, self, "GeluKernelImpl", UnaryOp::GeluTanh, [](auto x) {
    using A = decltype(x);
    const A beta = A(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = A(0.044715);
    return A(0.5) * x * (A(1) + std::tanh(beta * (x + kappa * x * x * x)));
  });
}

// self [*s] -> x * sigmoid(x) [*s] (floating dtypes only)
Tensor silu_impl(const Tensor& out, const Tensor& self) {
  return unary_same_float(out, self, "silu_cpu", UnaryOp::Silu, [](auto x) {
    using A = decltype(x);
    return x / (A(1) + std::exp(-x));
  });
}

// self [*s] -> log(1 + exp(beta * x)) / beta, or x where beta * x > threshold
Tensor softplus_impl(const Tensor& out, const Tensor& self, const Scalar& beta,
                     const Scalar& threshold) {
  const double params[2] = {beta.to_double(), threshold.to_double()};
  return unary_same_float(
      out, self, "softplus_cpu", UnaryOp::Softplus,
      [b = params[0], t = params[1]](auto x) {
        using A = decltype(x);
        return x * A(b) > A(t) ? x : std::log1p(std::exp(x * A(b))) / A(b);
      },
      params);
}

// self [*s] -> self where self > 0, negative_slope * self elsewhere (floating; Half refused, as
// torch 1.13's leaky_relu_cpu)
Tensor leaky_relu_impl(const Tensor& out, const Tensor& self, const Scalar& negative_slope) {
  const double params[1] = {negative_slope.to_double()};
  return unary_same_float(
      out, self, "leaky_relu_cpu", UnaryOp::LeakyRelu,
      [slope = params[0]](auto x) {
        using A = decltype(x);
        return x > A(0) ? x : x * A(slope);
      },
      params);
}

// self [*s] -> value where self <= threshold, self elsewhere [*s] (every dtype but bool and
// Half, as torch 1.13's threshold_cpu; NaN stays NaN; both scalars converted to self's dtype)
Tensor threshold_impl(const Tensor& out, const Tensor& self, const Scalar& threshold,
                      const Scalar& value) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype_if(iter.common_dtype(), "threshold_cpu", kAllButBool, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented("threshold_cpu", iter.common_dtype());
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, BFloat16>) {  // bfloat16 through the float kernel
      const double params[2] = {double(static_cast<acc_type_t<T>>(threshold.to<T>())),
                                double(static_cast<acc_type_t<T>>(value.to<T>()))};
      using A = acc_type_t<T>;
      unary_loop<T>(
          iter, UnaryOp::Threshold,
          [t = A(params[0]), v = A(params[1])](A x) { return x <= t ? v : x; }, params);
      return;
    }
    const T t = threshold.to<T>(), v = value.to<T>();
    cpu_kernel(iter, [t, v](T x) -> T { return x <= t ? v : x; });
  });
  return iter.output();
}

// --- prelu -------------------------------------------------------------------------------------

namespace {
// prelu's weight as an operand of self's shape: weight[c] at channel c (dim 1), its one element
// everywhere when it has one. An alias with stride 0 elsewhere, seen by the iterator only. Checks
// and messages are torch 1.13's prelu_cpu.
Tensor prelu_weight_operand(const Tensor& self, const Tensor& weight) {
  OPSCOPE_CHECK(weight.dim() <= 1,
                "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = ",
                weight.dim());
  const int64_t n = weight.numel();
  DimVector strides(static_cast<size_t>(self.dim()), 0);
  if (n != 1) {
    OPSCOPE_CHECK(self.dim() > 0, "Not allow zero-dim input tensor.");
    const int64_t channels = self.dim() > 1 ? self.size(1) : 1;
    OPSCOPE_CHECK(n == channels,
                  "Mismatch of parameter numbers and input channel size. Found parameter "
                  "numbers = ", n, " and channel size = ", channels, ".");
    strides[1] = weight.stride(0);
  }
  return Tensor(make_intrusive<TensorImpl>(weight->storage(), weight.dtype(), self.sizes(),
                                           strides, weight->storage_offset()));
}

// c ? x : y without a branch: a select on the values' bits. The caller computes both sides, so
// the compiler keeps the loop branch-free and vectorizes it: `v > 0 ? v : a * v` kept a branch per
// element (-ftrapping-math may not speculate the product), and on random signs a (4096, 1000)
// prelu took 17.6 ms against torch's 0.55.
template <typename A>
A select(bool c, A x, A y) {
  using U = std::conditional_t<sizeof(A) == 4, uint32_t, uint64_t>;
  const U mask = U(0) - U(c);
  return std::bit_cast<A>((std::bit_cast<U>(x) & mask) | (std::bit_cast<U>(y) & ~mask));
}

// Floating dtypes and bfloat16 (Half refused, as torch 1.13's CPU kernels).
void check_prelu_dtype(ScalarType t, const char* what) {
  if (!is_floating(t) || t == ScalarType::Float16) not_implemented(what, t);
}
}  // namespace

// self [N, C, *], weight [C] (or one element) -> self where self > 0, weight[c] self elsewhere
Tensor prelu(const Tensor& self, const Tensor& weight) {
  check_prelu_dtype(self.dtype(), "prelu_cpu");
  const Tensor w = prelu_weight_operand(self, weight), none;
  TensorIterator iter =
      TensorIteratorConfig().add_output(none).add_input(self).add_input(w).build();
  dispatch_dtype_if(iter.common_dtype(), "prelu_cpu", kFloatingOnly, [&]<typename T>() {
    using A = std::conditional_t<std::is_floating_point_v<T>, T, float>;  // bfloat16: float
    cpu_kernel(iter, [](T x, T a) -> T {
      const A v = A(x);
      return T(select<A>(v > A(0), v, A(a) * v));
    });
  });
  return iter.output();
}

// -> (grad_output where self > 0 and weight[c] grad_output elsewhere, the sum over all but the
// channel dim of self grad_output where self <= 0), as torch's prelu_backward_cpu: the per-element
// terms of the weight's gradient are summed by aten::sum (the whole sum, then fill_, for a
// one-element weight)
std::tuple<Tensor, Tensor> prelu_backward(const Tensor& grad_output, const Tensor& self,
                                          const Tensor& weight) {
  check_prelu_dtype(self.dtype(), "prelu_backward_cpu");
  const Tensor w = prelu_weight_operand(self, weight), none;
  TensorIterator gi = TensorIteratorConfig().add_output(none).add_input(grad_output)
                          .add_input(self).add_input(w).build();
  TensorIterator terms =
      TensorIteratorConfig().add_output(none).add_input(grad_output).add_input(self).build();
  dispatch_dtype_if(gi.common_dtype(), "prelu_backward_cpu", kFloatingOnly, [&]<typename T>() {
    using A = std::conditional_t<std::is_floating_point_v<T>, T, float>;  // bfloat16: float
    cpu_kernel(gi, [](T g, T x, T a) -> T {
      const A gv = A(g);
      return T(select<A>(A(x) > A(0), gv, A(a) * gv));
    });
    cpu_kernel(terms, [](T g, T x) -> T {
      const A xv = A(x);
      return T(select<A>(xv > A(0), A(0), xv * A(g)));
    });
  });
  if (weight.numel() == 1) {
    Tensor gw = make_empty(weight.sizes(), weight.dtype(), weight.device());
    ops::fill_(gw, ops::item(ops::sum(terms.output())));
    return {gi.output(), gw};
  }
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < self.dim(); ++d) dims.push_back(d);
  return {gi.output(), ops::sum(terms.output(), dims)};
}

// --- hardshrink, softshrink ------------------------------------------------------------------------

// self [*s] -> 0 inside [-lambd, lambd], self elsewhere (NaN stays); floating dtypes and bfloat16
Tensor hardshrink_impl(const Tensor& out, const Tensor& self, const Scalar& lambd) {
  const double params[1] = {lambd.to_double()};
  return unary_same_float(
      out, self, "hardshrink_cpu", UnaryOp::Hardshrink,
      [l = params[0]](auto x) {
        using A = decltype(x);
        return (x >= A(-l) && x <= A(l)) ? A(0) : x;
      },
      params);
}

// self [*s] -> self - lambd above lambd, self + lambd below -lambd, 0 between (and for NaN, as
// torch 1.13's CPU kernel); lambd >= 0
Tensor softshrink_impl(const Tensor& out, const Tensor& self, const Scalar& lambd) {
  OPSCOPE_CHECK(lambd.to_double() >= 0, "lambda must be greater or equal to 0, but found to be ",
                lambd.to_double(), ".");
  const double params[1] = {lambd.to_double()};
  return unary_same_float(
      out, self, "softshrink_cpu", UnaryOp::Softshrink,
      [l = params[0]](auto x) {
        using A = decltype(x);
        return x > A(l) ? x - A(l) : (x < A(-l) ? x + A(l) : A(0));
      },
      params);
}

// grad, self (broadcast) -> grad where self is outside [-lambd, lambd] (NaN too), 0 inside: the
// gradient of both shrinks
Tensor shrink_backward(const Tensor& grad, const Tensor& self, const Scalar& lambd,
                       const char* name) {
  const double params[1] = {lambd.to_double()};
  return activation_backward(
      Tensor(), grad, self, name, UnaryOp::Hardshrink,
      [l = params[0]](auto g, auto x) {
        using A = decltype(x);
        return (x >= A(-l) && x <= A(l)) ? A(0) : g;
      },
      params);
}
Tensor hardshrink_backward(const Tensor& grad_out, const Tensor& self, const Scalar& lambd) {
  return shrink_backward(grad_out, self, lambd, "hardshrink_backward_cpu");
}
Tensor softshrink_backward(const Tensor& grad_output, const Tensor& self, const Scalar& lambd) {
  return shrink_backward(grad_output, self, lambd, "softshrink_backward_cpu");
}

// self [*s] -> clamp(self, min_val, max_val) (every dtype but bool; NaN stays NaN, as clamp)
Tensor hardtanh_impl(const Tensor& out, const Tensor& self, const Scalar& min_val,
                     const Scalar& max_val) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  const double params[2] = {min_val.to_double(), max_val.to_double()};
  dispatch_dtype_if(iter.common_dtype(), "clamp_scalar_cpu", kAllButBool, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented("clamp_scalar_cpu", iter.common_dtype());
    using A = acc_type_t<T>;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                  std::is_same_v<T, BFloat16>) {  // bfloat16 through the float kernel
      unary_loop<T>(
          iter, UnaryOp::Hardtanh,
          [lo = params[0], hi = params[1]](A x) {
            return x != x ? x : (x < A(lo) ? A(lo) : (x > A(hi) ? A(hi) : x));
          },
          params);
      return;
    }
    const A lo = min_val.to<A>(), hi = max_val.to<A>();
    cpu_kernel(iter, [lo, hi](T v) -> T {
      const A x = A(v);
      if (x != x) return v;
      return static_cast<T>(x < lo ? lo : (x > hi ? hi : x));
    });
  });
  return iter.output();
}

// self [*s] -> scale self where self > 0, scale alpha (exp(input_scale self) - 1) elsewhere
// (floating; Half refused, as torch 1.13's elu_cpu)
Tensor elu_impl(const Tensor& out, const Tensor& self, const Scalar& alpha, const Scalar& scale,
                const Scalar& input_scale) {
  const double params[3] = {alpha.to_double() * scale.to_double(), scale.to_double(),
                            input_scale.to_double()};
  return unary_same_float(
      out, self, "elu_cpu", UnaryOp::Elu,
      [negcoef = params[0], poscoef = params[1], negiptcoef = params[2]](auto x) {
        using A = decltype(x);
        const A positive = x * A(poscoef);
        return x <= A(0) ? std::expm1(x * A(negiptcoef)) * A(negcoef) : positive;
      },
      params);
}

// self [*s] -> clamp(self + 3, 0, 6) / 6
Tensor hardsigmoid_impl(const Tensor& out, const Tensor& self) {
  return unary_same_float(out, self, "hardsigmoid_cpu", UnaryOp::Hardsigmoid, [](auto x) {
    using A = decltype(x);
    const A y = x + A(3);
    return (y < A(0) ? A(0) : (y > A(6) ? A(6) : y)) / A(6);
  });
}

// self [*s] -> self * clamp(self + 3, 0, 6) / 6
Tensor hardswish_impl(const Tensor& out, const Tensor& self) {
  return unary_same_float(out, self, "hardswish_cpu", UnaryOp::Hardswish, [](auto x) {
    using A = decltype(x);
    const A y = x + A(3);
    return x * (y < A(0) ? A(0) : (y > A(6) ? A(6) : y)) / A(6);
  });
}

// self [*s] -> self * tanh(log1p(exp(self)))
Tensor mish_impl(const Tensor& out, const Tensor& self) {
  return unary_same_float(out, self, "mish_cpu", UnaryOp::Mish, [](auto x) {
    return x * std::tanh(std::log1p(std::exp(x)));
  });
}

// self [*s] -> (min(self, 0) - log1p(exp(-|self|)), an empty buffer): one vectorized pass; the
// backward recomputes exp(-|self|) (torch 1.13's CPU kernel fills the buffer with it, its CUDA
// kernel leaves it empty, as here)
std::tuple<Tensor, Tensor> log_sigmoid_forward(const Tensor& self) {
  Tensor output = unary_same_float(
      Tensor(), self, "log_sigmoid_forward", UnaryOp::LogSigmoid, [](auto x) {
        using A = decltype(x);
        return (x < A(0) ? x : A(0)) - std::log1p(std::exp(-std::abs(x)));
      });
  return {output, make_empty({0}, output.dtype())};
}

// The gradients: one pass over grad_output and self (broadcast), activation_backward's
// vector kernels for float / double (unary_loops.h, unary_avx2.cpp).

// grad_output where self > 0, negative_slope grad_output elsewhere
Tensor leaky_relu_backward(const Tensor& grad_output, const Tensor& self,
                           const Scalar& negative_slope, bool self_is_result) {
  OPSCOPE_CHECK(!self_is_result || negative_slope.to_double() >= 0.0,
                "In-place leakyReLu backward calculation is triggered with a negative slope "
                "which is not supported. This is caused by calling in-place forward function "
                "with a negative slope, please call out-of-place version instead. File an issue "
                "at https://github.com/pytorch/pytorch if you do require supporting in-place "
                "leakRelu backward calculation with negative slope");
  const double params[1] = {negative_slope.to_double()};
  return activation_backward(
      Tensor(), grad_output, self, "leaky_relu_backward_cpu", UnaryOp::LeakyRelu,
      [slope = params[0]](auto g, auto x) {
        using A = decltype(x);
        return x > A(0) ? g : g * A(slope);
      },
      params);
}

// grad_output strictly between min_val and max_val, 0 at and beyond them (NaN passes it)
Tensor hardtanh_backward(const Tensor& grad_output, const Tensor& self, const Scalar& min_val,
                         const Scalar& max_val) {
  const double params[2] = {min_val.to_double(), max_val.to_double()};
  return activation_backward(
      Tensor(), grad_output, self, "hardtanh_backward_cpu", UnaryOp::Hardtanh,
      [lo = params[0], hi = params[1]](auto g, auto x) {
        using A = decltype(x);
        return (x <= A(lo) || x >= A(hi)) ? A(0) : g;
      },
      params);
}

// grad_output (1 - sigmoid(x)) = grad_output z / (1 + z) for x >= 0 and grad_output / (1 + z)
// below, z = exp(-|x|) recomputed (the buffer is not read: this file's forward leaves it empty)
Tensor log_sigmoid_backward(const Tensor& grad_output, const Tensor& self,
                            const Tensor& /*buffer*/) {
  return activation_backward(Tensor(), grad_output, self, "log_sigmoid_backward",
                             UnaryOp::LogSigmoid, [](auto g, auto x) {
                               using A = decltype(x);
                               const A z = std::exp(-std::abs(x)), r = A(1) / (A(1) + z);
                               return g * (x < A(0) ? r : z * r);
                             });
}

// grad_output / 6 strictly inside (-3, 3), 0 elsewhere
Tensor hardsigmoid_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(Tensor(), grad_output, self, "hardsigmoid_backward",
                             UnaryOp::Hardsigmoid, [](auto g, auto x) {
                               using A = decltype(x);
                               return (x > A(-3) && x < A(3)) ? g / A(6) : A(0);
                             });
}

// 0 below -3, grad_output (x / 3 + 1/2) up to 3, grad_output above
Tensor hardswish_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(Tensor(), grad_output, self, "hardswish_backward_cpu",
                             UnaryOp::Hardswish, [](auto g, auto x) {
                               using A = decltype(x);
                               if (x < A(-3)) return A(0);
                               return x <= A(3) ? g * (x / A(3) + A(0.5)) : g;
                             });
}

// grad_output (tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2)), sp = softplus(x)
Tensor mish_backward(const Tensor& grad_output, const Tensor& self) {
  return activation_backward(Tensor(), grad_output, self, "mish_backward_cpu", UnaryOp::Mish,
                             [](auto g, auto x) {
                               using A = decltype(x);
                               const A sigmoid = A(1) / (A(1) + std::exp(-x));
                               const A t = std::tanh(std::log1p(std::exp(x)));
                               return g * (t + x * sigmoid * (A(1) - t * t));
                             });
}

// x > 0: grad_output scale; otherwise grad_output input_scale (y + alpha scale) from the result
// y (is_result), or grad_output input_scale alpha scale exp(input_scale x) from the input x
Tensor elu_backward(const Tensor& grad_output, const Scalar& alpha, const Scalar& scale,
                    const Scalar& input_scale, bool is_result, const Tensor& self_or_result) {
  const double negcoef = alpha.to_double() * scale.to_double(), poscoef = scale.to_double(),
               negiptcoef = input_scale.to_double();
  OPSCOPE_CHECK(!is_result || alpha.to_double() >= 0.0,
                "In-place elu backward calculation is triggered with a negative slope which is "
                "not supported. This is caused by calling in-place forward function with a "
                "negative slope, please call out-of-place version instead.");
  const double params[4] = {negcoef, poscoef, negiptcoef, is_result ? 1.0 : 0.0};
  return activation_backward(
      Tensor(), grad_output, self_or_result, "elu_backward_cpu", UnaryOp::Elu,
      [=](auto g, auto x) {
        using A = decltype(x);
        if (x > A(0)) return g * A(poscoef);
        return is_result ? g * A(negiptcoef) * (x + A(negcoef))
                         : g * A(negiptcoef) * A(negcoef) * std::exp(x * A(negiptcoef));
      },
      params);
}

// grad_output, self (broadcast) -> grad_output * gelu'(self): "none" Phi(x) + x phi(x), "tanh"
// the derivative of 0.5 x (1 + tanh(beta (x + kappa x^3))), as torch 1.13's GeluBackwardKernelImpl.
Tensor gelu_backward_impl(const Tensor& grad_input, const Tensor& grad_output, const Tensor& self,
                          std::string_view approximate) {
  const UnaryOp op = gelu_op(approximate);
  if (op == UnaryOp::GeluErf) {
    return activation_backward(grad_input, grad_output, self, "GeluBackwardKernelImpl", op,
                               [](auto g, auto x) {
                                 using A = decltype(x);
                                 const A cdf = A(0.5) * (A(1) + std::erf(x * A(M_SQRT1_2)));
                                 const A pdf = A(M_2_SQRTPI * M_SQRT1_2 * 0.5) *
                                               std::exp(A(-0.5) * x * x);
                                 return g * (cdf + x * pdf);
                               });
  }
  return activation_backward(
      grad_input, grad_output, self, "GeluBackwardKernelImpl", op, [](auto g, auto x) {
        using A = decltype(x);
        const A beta = A(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = A(0.044715);
        const A x2 = x * x, t = std::tanh(beta * (x + kappa * x2 * x));
        const A left = A(0.5) * (A(1) + t);
        const A right = A(0.5) * x * (A(1) - t * t) * beta * (A(1) + A(3) * kappa * x2);
        return g * (left + right);
      });
}

// grad_output, self (broadcast) -> grad_output * s (1 + x (1 - s)), s = sigmoid(self)
Tensor silu_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                          const Tensor& self) {
  return activation_backward(grad_input, grad_output, self, "silu_backward_cpu", UnaryOp::Silu,
                             [](auto g, auto x) {
                               using A = decltype(x);
                               const A s = A(1) / (A(1) + std::exp(-x));
                               return g * s * (A(1) + x * (A(1) - s));
                             });
}

// grad_output, self (broadcast) -> grad_output * sigmoid(beta x), grad_output itself where
// beta x > threshold (softplus is x there)
Tensor softplus_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                              const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  const double params[2] = {beta.to_double(), threshold.to_double()};
  return activation_backward(
      grad_input, grad_output, self, "softplus_backward_cpu", UnaryOp::Softplus,
      [b = params[0], t = params[1]](auto g, auto x) {
        using A = decltype(x);
        const A z = std::exp(x * A(b));
        return x * A(b) > A(t) ? g : g * z / (z + A(1));
      },
      params);
}

// grad_output, self (broadcast) -> grad_output where self > threshold, 0 elsewhere: relu's
// gradient read off its result (a NaN in self passes the gradient, as torch's).
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  TensorIterator iter = TensorIterator::binary_op(Tensor(), grad_output, self);
  dispatch_dtype_if(iter.common_dtype(), "threshold_cpu", kAllButBool, [&]<typename T>() {
    const T t = threshold.to<T>();
    cpu_kernel(iter, [t](T g, T x) -> T { return x <= t ? T(0) : g; });
  });
  return iter.output();
}

static Library cpu_activation(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("relu", fn<&relu>);
  m.impl("relu_", fn<&relu_>);
  m.impl("threshold_backward", fn<&threshold_backward>);
  m.impl("hardshrink", functional<&hardshrink_impl>());
  m.impl("hardshrink.out", out<&hardshrink_impl>());
  m.impl("hardshrink_backward", fn<&hardshrink_backward>);
  m.impl("softshrink", functional<&softshrink_impl>());
  m.impl("softshrink.out", out<&softshrink_impl>());
  m.impl("softshrink_backward", fn<&softshrink_backward>);
  m.impl("prelu", fn<&prelu>);
  m.impl("prelu_backward", fn<&prelu_backward>);
  m.impl("threshold", functional<&threshold_impl>());
  m.impl("threshold_", inplace<&threshold_impl>());
  m.impl("threshold.out", out<&threshold_impl>());
  m.impl("gelu", functional<&gelu_impl>());
  m.impl("gelu_", inplace<&gelu_impl>());
  m.impl("gelu.out", out<&gelu_impl>());
  m.impl("silu", functional<&silu_impl>());
  m.impl("silu_", inplace<&silu_impl>());
  m.impl("silu.out", out<&silu_impl>());
  m.impl("softplus", functional<&softplus_impl>());
  m.impl("softplus.out", out<&softplus_impl>());
  m.impl("leaky_relu", functional<&leaky_relu_impl>());
  m.impl("leaky_relu_", inplace<&leaky_relu_impl>());
  m.impl("leaky_relu.out", out<&leaky_relu_impl>());
  m.impl("hardtanh", functional<&hardtanh_impl>());
  m.impl("hardtanh_", inplace<&hardtanh_impl>());
  m.impl("hardtanh.out", out<&hardtanh_impl>());
  m.impl("elu", functional<&elu_impl>());
  m.impl("elu_", inplace<&elu_impl>());
  m.impl("elu.out", out<&elu_impl>());
  m.impl("hardsigmoid", functional<&hardsigmoid_impl>());
  m.impl("hardsigmoid_", inplace<&hardsigmoid_impl>());
  m.impl("hardsigmoid.out", out<&hardsigmoid_impl>());
  m.impl("hardsigmoid_backward", fn<&hardsigmoid_backward>);
  m.impl("hardswish", functional<&hardswish_impl>());
  m.impl("hardswish_", inplace<&hardswish_impl>());
  m.impl("hardswish.out", out<&hardswish_impl>());
  m.impl("hardswish_backward", fn<&hardswish_backward>);
  m.impl("mish", functional<&mish_impl>());
  m.impl("mish_", inplace<&mish_impl>());
  m.impl("mish.out", out<&mish_impl>());
  m.impl("mish_backward", fn<&mish_backward>);
  m.impl("log_sigmoid_forward", fn<&log_sigmoid_forward>);
  m.impl("log_sigmoid_backward", fn<&log_sigmoid_backward>);
  m.impl("leaky_relu_backward", fn<&leaky_relu_backward>);
  m.impl("hardtanh_backward", fn<&hardtanh_backward>);
  m.impl("elu_backward", fn<&elu_backward>);
  m.impl("gelu_backward", functional<&gelu_backward_impl>());
  m.impl("gelu_backward.grad_input", out<&gelu_backward_impl>());
  m.impl("silu_backward", functional<&silu_backward_impl>());
  m.impl("silu_backward.grad_input", out<&silu_backward_impl>());
  m.impl("softplus_backward", functional<&softplus_backward_impl>());
  m.impl("softplus_backward.grad_input", out<&softplus_backward_impl>());
});

}  // namespace opscope::cpu
