// CPU kernels of the activations (see core/ops/nn.h): relu (clamp_min, as PyTorch) and its
// gradient threshold_backward; gelu, silu and softplus, float-only functions of self's own dtype
// over the unary loops (unary_loops.h), and their gradients gelu_backward, silu_backward and
// softplus_backward (one pass over grad and self, SLEEF's vector math for float / double); the
// gradients of sigmoid and tanh from their results, sigmoid_backward and tanh_backward. Each
// of these is one `*_impl(out, ...)`, registered at the end of the file in its functional /
// in-place / out= forms (core/ops/KernelForms.h).
#include <cmath>
#include <string_view>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/compare.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/unary_loops.h"

namespace opscope::cpu {

namespace {

using vec::UnaryOp;

UnaryOp gelu_op(std::string_view approximate) {
  if (approximate == "none") return UnaryOp::GeluErf;
  if (approximate == "tanh") return UnaryOp::GeluTanh;
  throw Error(detail::str("approximate argument must be either none or tanh."));
}

// GELU on bfloat16 as PyTorch 1.13 computes it: in bfloat16 arithmetic, rounding after every
// step (gelu(-2.5) is -0.0146, not the nearer -0.0155).
Tensor gelu_bfloat16(const Tensor& out, const Tensor& self, bool tanh) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  auto r = [](float v) { return static_cast<float>(BFloat16(v)); };
  if (tanh) {
    const float beta = r(static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5)), kappa = r(0.044715f);
    cpu_kernel(iter, [=](BFloat16 a) -> BFloat16 {
      float x = static_cast<float>(a);
      float inner = r(beta * r(x + r(kappa * r(r(x * x) * x))));
      return BFloat16(r(0.5f * x) * r(1.0f + r(std::tanh(inner))));
    });
  } else {
    const float alpha = r(static_cast<float>(M_SQRT1_2));
    cpu_kernel(iter, [=](BFloat16 a) -> BFloat16 {
      float x = static_cast<float>(a);
      return BFloat16(r(x * 0.5f) * r(1.0f + r(std::erf(r(x * alpha)))));
    });
  }
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

// grad_output, output (broadcast) -> grad_output * (1 - output) * output (sigmoid's gradient from
// its result; floating dtypes, Half included, as torch 1.13's sigmoid_backward_cpu)
Tensor sigmoid_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                             const Tensor& output) {
  TensorIterator iter = TensorIterator::binary_op(grad_input, grad_output, output);
  dispatch_dtype_if(iter.common_dtype(), "sigmoid_backward_cpu", kFloatingOnly, [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T g, T y) -> T { return static_cast<T>(A(g) * (A(1) - A(y)) * A(y)); });
  });
  return iter.output();
}

// grad_output, output (broadcast) -> grad_output * (1 - output^2) (tanh's gradient from its
// result; Half refused, as torch 1.13's tanh_backward_cpu)
Tensor tanh_backward_impl(const Tensor& grad_input, const Tensor& grad_output,
                          const Tensor& output) {
  TensorIterator iter = TensorIterator::binary_op(grad_input, grad_output, output);
  dispatch_dtype_if(iter.common_dtype(), "tanh_backward_cpu", kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented("tanh_backward_cpu", iter.common_dtype());
    using A = acc_type_t<T>;
    cpu_kernel(iter, [](T g, T y) -> T { return static_cast<T>(A(g) * (A(1) - A(y) * A(y))); });
  });
  return iter.output();
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
  m.impl("gelu", functional<&gelu_impl>());
  m.impl("gelu_", inplace<&gelu_impl>());
  m.impl("gelu.out", out<&gelu_impl>());
  m.impl("silu", functional<&silu_impl>());
  m.impl("silu_", inplace<&silu_impl>());
  m.impl("silu.out", out<&silu_impl>());
  m.impl("softplus", functional<&softplus_impl>());
  m.impl("softplus.out", out<&softplus_impl>());
  m.impl("sigmoid_backward", functional<&sigmoid_backward_impl>());
  m.impl("sigmoid_backward.grad_input", out<&sigmoid_backward_impl>());
  m.impl("tanh_backward", functional<&tanh_backward_impl>());
  m.impl("tanh_backward.grad_input", out<&tanh_backward_impl>());
  m.impl("gelu_backward", functional<&gelu_backward_impl>());
  m.impl("gelu_backward.grad_input", out<&gelu_backward_impl>());
  m.impl("silu_backward", functional<&silu_backward_impl>());
  m.impl("silu_backward.grad_input", out<&silu_backward_impl>());
  m.impl("softplus_backward", functional<&softplus_backward_impl>());
  m.impl("softplus_backward.grad_input", out<&softplus_backward_impl>());
});

}  // namespace opscope::cpu
