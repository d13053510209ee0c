// CPU kernels of glu and glu_backward (declared in core/ops/nn.cpp, see core/ops/nn.h; registered
// at the end of this file), in torch 1.13's steps (Activation.cpp, GatedLinearUnit.cpp): self is
// cut along dim into halves a and b by narrow views, then
//
//   glu:          out = a sigmoid(b)                                  a, b, out: (..., n, ...)
//   glu_backward: grad_input[first half]  = sigmoid(b) g              (sigmoid.out, then mul_)
//                 grad_input[second half] = (1 - sigmoid(b)) sigmoid(b) a g
//
// float32, float64 and bfloat16 (computed in float and rounded once, as torch's bfloat16
// kernels); grad_output g broadcasts to a half.
#include <algorithm>
#include <cmath>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/binary.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/unary_vec.h"
#include "core/ops/views.h"

namespace opscope::cpu {

namespace {

// sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
constexpr Op<Tensor(Out, const Tensor&)> sigmoid_out{"aten::sigmoid.out"};

// self's halves along dim (wrapped), after torch's checks
struct Halves {
  int64_t dim;
  int64_t size;  // of each half
};

Halves glu_halves(const Tensor& self, int64_t dim) {
  OPSCOPE_CHECK(self.dim() > 0, "glu does not support 0-dimensional tensors");
  const int64_t wrapped = wrap_dim(dim, self.dim());
  const int64_t n = self.size(wrapped);
  OPSCOPE_CHECK(n % 2 == 0, "Halving dimension must be even, but dimension ", wrapped, " is size ",
                n);
  return {wrapped, n / 2};
}

// Block size of glu's loop: b's block is gathered, its sigmoid computed in place by the vector
// kernel, then multiplied by a's block into out.
constexpr int64_t kBlock = 256;

// out = a sigmoid(b) over one run of the iterator (out, a, b with their byte strides), as torch:
// a * (1 / (1 + exp(-b))) in float (bfloat16 too, rounded once) or double. SLEEF's exp through
// vec_unary's Sigmoid where the CPU has it (torch's vectorized kernel computes the same), std::exp
// otherwise.
template <typename T>
void glu_run(char** data, const int64_t* strides, int64_t n) {
  using A = acc_type_t<T>;
  if constexpr (std::is_same_v<T, A>) {  // float / double: contiguous runs straight into out
    if (strides[0] == sizeof(T) && strides[1] == sizeof(T) && strides[2] == sizeof(T)) {
      T* out = reinterpret_cast<T*>(data[0]);
      const T* a = reinterpret_cast<const T*>(data[1]);
      const T* b = reinterpret_cast<const T*>(data[2]);
      if (out != a && vec::vec_unary(vec::UnaryOp::Sigmoid, b, out, n)) {
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) out[i] = a[i] * out[i];
        return;
      }
    }
  }
  A s[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t m = std::min(kBlock, n - start);
    const char* a = data[1] + start * strides[1];
    const char* b = data[2] + start * strides[2];
    char* out = data[0] + start * strides[0];
    for (int64_t i = 0; i < m; ++i) s[i] = A(*reinterpret_cast<const T*>(b + i * strides[2]));
    if (!vec::vec_unary(vec::UnaryOp::Sigmoid, s, s, m))
      for (int64_t i = 0; i < m; ++i) s[i] = A(1) / (A(1) + std::exp(-s[i]));
    for (int64_t i = 0; i < m; ++i) {
      const A a_i = A(*reinterpret_cast<const T*>(a + i * strides[1]));
      *reinterpret_cast<T*>(out + i * strides[0]) = static_cast<T>(a_i * s[i]);
    }
  }
}

// s = sigmoid(b), a, g -> (1 - s) s a g, left to right; bfloat16 in float, rounded once
template <typename T>
T glu_second_half_grad(T s, T a, T g) {
  using A = acc_type_t<T>;
  return static_cast<T>((A(1) - A(s)) * A(s) * A(a) * A(g));
}

}  // namespace

// self (..., 2 n, ...) -> a sigmoid(b), (..., n, ...)
Tensor glu_impl(const Tensor& out, const Tensor& self, int64_t dim) {
  const Halves h = glu_halves(self, dim);
  const Tensor first = ops::narrow(self, h.dim, 0, h.size);
  const Tensor second = ops::narrow(self, h.dim, h.size, h.size);
  TensorIterator iter = TensorIterator::binary_op(out, first, second);
  dispatch_float_bf16(iter.common_dtype(), "glu_cpu", [&]<typename T>() {
    iter.for_each(
        [](char** data, const int64_t* strides, int64_t n) { glu_run<T>(data, strides, n); });
  });
  return iter.output();
}

// grad_output (broadcast to a half), self (..., 2 n, ...) -> grad_input, self's shape
Tensor glu_backward_impl(const Tensor& grad_input_out, const Tensor& grad_output,
                         const Tensor& self, int64_t dim) {
  const Halves h = glu_halves(self, dim);
  Tensor grad_input = grad_input_out;
  if (grad_input.defined()) {
    resize_output(grad_input, self.sizes());
  } else {
    grad_input = make_empty(self.sizes(), self.dtype(), self.device());
  }
  const Tensor first = ops::narrow(self, h.dim, 0, h.size);
  const Tensor second = ops::narrow(self, h.dim, h.size, h.size);
  const Tensor grad_first = ops::narrow(grad_input, h.dim, 0, h.size);
  const Tensor grad_second = ops::narrow(grad_input, h.dim, h.size, h.size);
  sigmoid_out(grad_first, second);
  // The second half from sigmoid(b) (now in grad_first), a and g in one pass.
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(grad_second)
                            .add_input(grad_first)
                            .add_input(first)
                            .add_input(grad_output)
                            .resize_outputs(false)
                            .build();
  dispatch_float_bf16(iter.common_dtype(), "glu_backward_cpu", [&]<typename T>() {
    cpu_kernel(iter, [](T s, T a, T g) -> T { return glu_second_half_grad(s, a, g); });
  });
  ops::mul_(grad_first, grad_output);
  return grad_input;
}

static Library cpu_glu(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("glu", functional<&glu_impl>());
  m.impl("glu.out", out<&glu_impl>());
  m.impl("glu_backward", functional<&glu_backward_impl>());
  m.impl("glu_backward.grad_input", out<&glu_backward_impl>());
});

}  // namespace opscope::cpu
