// CUDA kernels of the elementwise ops, host side: the unary functions and activations, the
// arithmetic, bitwise and logical ops, comparisons, where, clamp, maximum / minimum, lerp, and
// mse_loss (its squared differences, then the mean / sum ops).
// Each builds the same TensorIterator as its CPU kernel
// (broadcasting, type promotion, out= resizing, overlap checks) and launches the device loop of
// core/cuda/kernels/{unary,binary,compare}.cu on the operands; the rows at the end register
// them on DispatchKey::CUDA with the CPU kernels' overload names.
#include <array>
#include <cmath>
#include <limits>
#include <string_view>
#include <tuple>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cuda {

namespace {

// A Scalar as the kernel's two parameter slots: double for the floating dtypes, int64 for the
// integers and bool, checked against `t`'s range as torch's Scalar::to<T>.
struct ScalarParam {
  double d = 0;
  int64_t i = 0;
};
ScalarParam scalar_param(const Scalar& s, ScalarType t) {
  ScalarParam p;
  dispatch_dtype(t, "scalar", [&]<typename T>() {
    T v = checked_convert<T>(s);
    if constexpr (std::is_integral_v<T>) {
      p.i = static_cast<int64_t>(v);
      p.d = static_cast<double>(v);
    } else {
      p.d = static_cast<double>(static_cast<acc_type_t<T>>(v));
      p.i = static_cast<int64_t>(p.d);
    }
  });
  return p;
}

// The device a two-operand op runs on: the first operand's, unless it is a CPU scalar (2 ** x).
Device gpu_of(const Tensor& a, const Tensor& b) {
  return a.device().is_cpu() ? b.device() : a.device();
}

void not_implemented(std::string_view name, ScalarType t) {
  throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(t), "'"));
}

// --- unary ----------------------------------------------------------------------------------

// Integer and bool inputs compute in the default float dtype (build_borrowing_unary_float_op).
Tensor unary_float(const Tensor& out, const Tensor& self, UnaryOp op, double a = 0,
                   double b = 0) {
  CUDAGuard guard(self.device());
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .promote_inputs_to_common_dtype(true)
                            .promote_integer_inputs_to_float(true)
                            .cast_common_dtype_to_outputs(true)
                            .enforce_safe_casting_to_output(true)
                            .build();
  launch_unary(op, make_args(iter), a, b, current_stream_ptr());
  iter.cast_outputs();
  return iter.output();
}

// Same dtype in and out; floating only (gelu, silu, softplus refuse integers, as torch).
Tensor unary_same(const Tensor& out, const Tensor& self, UnaryOp op, std::string_view name,
                  bool floating_only, double a = 0, double b = 0, double c = 0) {
  CUDAGuard guard(self.device());
  TensorIterator iter = TensorIterator::unary_op(out, self);
  ScalarType t = iter.common_dtype();
  if (t == ScalarType::Bool || (floating_only && !is_floating(t))) not_implemented(name, t);
  launch_unary(op, make_args(iter), a, b, current_stream_ptr(), c);
  return iter.output();
}

}  // namespace

static Tensor exp_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Exp);
}
static Tensor exp2_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Exp2);
}
static Tensor expm1_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Expm1);
}
static Tensor log_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Log);
}
static Tensor log2_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Log2);
}
static Tensor log10_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Log10);
}
static Tensor log1p_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Log1p);
}
static Tensor sqrt_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Sqrt);
}
static Tensor rsqrt_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Rsqrt);
}
static Tensor reciprocal_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Reciprocal);
}
static Tensor sin_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Sin);
}
static Tensor cos_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Cos);
}
static Tensor tan_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Tan);
}
static Tensor asin_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Asin);
}
static Tensor acos_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Acos);
}
static Tensor atan_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Atan);
}
static Tensor sinh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Sinh);
}
static Tensor cosh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Cosh);
}
static Tensor tanh_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Tanh);
}
static Tensor erf_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Erf);
}
static Tensor sigmoid_impl(const Tensor& out, const Tensor& self) {
  return unary_float(out, self, UnaryOp::Sigmoid);
}

// The roundings: the identity on integers; bool refused.
static Tensor floor_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Floor, "floor_cuda", false);
}
static Tensor ceil_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Ceil, "ceil_cuda", false);
}
static Tensor round_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Round, "round_cuda", false);
}
static Tensor trunc_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Trunc, "trunc_cuda", false);
}

static Tensor neg_impl(const Tensor& out, const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool,
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead.");
  return unary_same(out, self, UnaryOp::Neg, "neg_cuda", false);
}

static Tensor abs_impl(const Tensor& out, const Tensor& self) {
  if (self.dtype() == ScalarType::Bool) not_implemented("abs_cuda", ScalarType::Bool);
  return unary_same(out, self, UnaryOp::Abs, "abs_cuda", false);
}

static Tensor sign_impl(const Tensor& out, const Tensor& self) {
  if (self.dtype() == ScalarType::Bool) {  // sign of a bool is itself
    CUDAGuard guard(self.device());
    Tensor result = out.defined() ? out : make_empty(self.sizes(), ScalarType::Bool, self.device());
    resize_output(result, self.sizes());
    return ops::copy_(result, self);
  }
  return unary_same(out, self, UnaryOp::Sign, "sign_cuda", false);
}

// relu = max(self, 0), NaN kept (torch's relu is clamp_min(self, 0)).
static Tensor relu(const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "Boolean inputs not supported for relu");
  return unary_same(Tensor(), self, UnaryOp::Relu, "relu_cuda", false);
}
static Tensor relu_(const Tensor& self) {
  OPSCOPE_CHECK(self.dtype() != ScalarType::Bool, "Boolean inputs not supported for relu");
  return unary_same(self, self, UnaryOp::Relu, "relu_cuda", false);
}

static Tensor gelu_impl(const Tensor& out, const Tensor& self, std::string_view approximate) {
  UnaryOp op;
  if (approximate == "none") {
    op = UnaryOp::Gelu;
  } else if (approximate == "tanh") {
    op = UnaryOp::GeluTanh;
  } else {
    throw Error("approximate argument must be either none or tanh.");
  }
  return unary_same(out, self, op, "GeluCUDAKernelImpl", true);
}

static Tensor silu_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Silu, "silu_cuda", true);
}

static Tensor softplus_impl(const Tensor& out, const Tensor& self, const Scalar& beta,
                            const Scalar& threshold) {
  return unary_same(out, self, UnaryOp::Softplus, "softplus_cuda", true, beta.to_double(),
                    threshold.to_double());
}

static Tensor leaky_relu_impl(const Tensor& out, const Tensor& self,
                              const Scalar& negative_slope) {
  return unary_same(out, self, UnaryOp::LeakyRelu, "leaky_relu_cuda", true,
                    negative_slope.to_double());
}

// clamp(self, min_val, max_val), every dtype but bool (integers too, as clamp's)
static Tensor hardtanh_impl(const Tensor& out, const Tensor& self, const Scalar& min_val,
                            const Scalar& max_val) {
  return unary_same(out, self, UnaryOp::Hardtanh, "hardtanh_cuda", false, min_val.to_double(),
                    max_val.to_double());
}

// value where self <= threshold, self elsewhere, every dtype but bool; the scalars rounded to
// self's dtype first, as torch's threshold.to<scalar_t>() (a bfloat16 0.1 is 0.10009765625)
static Tensor threshold_impl(const Tensor& out, const Tensor& self, const Scalar& threshold,
                             const Scalar& value) {
  const auto in_dtype = [t = self.dtype()](const Scalar& s) {
    switch (t) {
      case ScalarType::BFloat16: return double(static_cast<float>(s.to<BFloat16>()));
      case ScalarType::Float16: return double(static_cast<float>(s.to<Half>()));
      case ScalarType::Float32: return double(s.to<float>());
      default: return s.to_double();
    }
  };
  return unary_same(out, self, UnaryOp::Threshold, "threshold_cuda", false, in_dtype(threshold),
                    in_dtype(value));
}

static Tensor hardsigmoid_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Hardsigmoid, "hardsigmoid_cuda", true);
}
static Tensor hardswish_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Hardswish, "hardswish_cuda", true);
}
static Tensor mish_impl(const Tensor& out, const Tensor& self) {
  return unary_same(out, self, UnaryOp::Mish, "mish_cuda", true);
}

// (output, an empty buffer: the backward recomputes exp(-|self|)), as torch's CUDA kernel
static std::tuple<Tensor, Tensor> log_sigmoid_forward(const Tensor& self) {
  Tensor out = unary_same(Tensor(), self, UnaryOp::LogSigmoid, "log_sigmoid_forward_cuda", true);
  return {out, make_empty(std::array<int64_t, 1>{0}, self.dtype(), self.device())};
}

static Tensor elu_impl(const Tensor& out, const Tensor& self, const Scalar& alpha,
                       const Scalar& scale, const Scalar& input_scale) {
  return unary_same(out, self, UnaryOp::Elu, "elu_cuda", true,
                    alpha.to_double() * scale.to_double(), scale.to_double(),
                    input_scale.to_double());
}

// --- binary ---------------------------------------------------------------------------------

namespace {

void run_binary(BinaryOp op, TensorIterator& iter, const ScalarParam& alpha = {}) {
  launch_binary(op, make_args(iter), alpha.d, alpha.i, current_stream_ptr());
  iter.cast_outputs();
}

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

Tensor add_sub(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha,
               bool negate) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  alpha_check(iter.common_dtype(), alpha);
  ScalarParam a = scalar_param(alpha, iter.common_dtype());
  if (negate) {
    a.d = -a.d;
    a.i = static_cast<int64_t>(0ULL - static_cast<uint64_t>(a.i));
  }
  run_binary(BinaryOp::Add, iter, a);
  return iter.output();
}

Tensor simple_binary(BinaryOp op, const Tensor& out, const Tensor& self, const Tensor& other,
                     std::string_view name, bool allow_bool, bool floating_only = false) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  ScalarType t = iter.common_dtype();
  if ((!allow_bool && t == ScalarType::Bool) || (floating_only && !is_floating(t)))
    not_implemented(name, t);
  run_binary(op, iter);
  return iter.output();
}

}  // namespace

static Tensor add_impl(const Tensor& out, const Tensor& self, const Tensor& other,
                       const Scalar& alpha) {
  return add_sub(out, self, other, alpha, false);
}
static Tensor sub_impl(const Tensor& out, const Tensor& self, const Tensor& other,
                       const Scalar& alpha) {
  sub_check(self, other);
  return add_sub(out, self, other, alpha, true);
}
static Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return ops::sub(other, self, alpha);
}
static Tensor mul_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return simple_binary(BinaryOp::Mul, out, self, other, "mul_cuda", true);
}

static Tensor div_impl(const Tensor& out, const Tensor& self, const Tensor& other,
                       ops::RoundingMode mode) {
  CUDAGuard guard(gpu_of(self, other));
  if (!mode) {
    TensorIterator iter = TensorIterator::binary_float_op(out, self, other);
    run_binary(BinaryOp::Div, iter);
    return iter.output();
  }
  BinaryOp op;
  if (*mode == "trunc") {
    op = BinaryOp::DivTrunc;
  } else if (*mode == "floor") {
    op = BinaryOp::DivFloor;
  } else {
    throw Error(detail::str("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                            "but found '", *mode, "'"));
  }
  return simple_binary(op, out, self, other,
                       op == BinaryOp::DivTrunc ? "div_trunc_cuda" : "div_floor_cuda", false);
}
static Tensor div(const Tensor& self, const Tensor& other) {
  return div_impl(Tensor(), self, other, std::nullopt);
}
static Tensor div_(const Tensor& self, const Tensor& other) {
  return div_impl(self, self, other, std::nullopt);
}
static Tensor div_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return div_impl(out, self, other, std::nullopt);
}
static Tensor div_mode(const Tensor& self, const Tensor& other, ops::RoundingMode mode) {
  return div_impl(Tensor(), self, other, mode);
}
static Tensor div_mode_(const Tensor& self, const Tensor& other, ops::RoundingMode mode) {
  return div_impl(self, self, other, mode);
}
static Tensor div_out_mode(const Tensor& self, const Tensor& other, ops::RoundingMode mode,
                           const Tensor& out) {
  return div_impl(out, self, other, mode);
}

static Tensor pow_tensor_tensor_impl(const Tensor& out, const Tensor& self,
                                     const Tensor& exponent) {
  return simple_binary(BinaryOp::Pow, out, self, exponent, "pow_cuda", false);
}
static Tensor pow_tensor_tensor(const Tensor& self, const Tensor& exponent) {
  return pow_tensor_tensor_impl(Tensor(), self, exponent);
}
static Tensor pow_tensor_(const Tensor& self, const Tensor& exponent) {
  return pow_tensor_tensor_impl(self, self, exponent);
}
static Tensor pow_tensor_tensor_out(const Tensor& self, const Tensor& exponent,
                                    const Tensor& out) {
  return pow_tensor_tensor_impl(out, self, exponent);
}

// self ** a number: the number joins as a CPU scalar of the promoted dtype.
static Tensor pow_tensor_scalar_impl(const Tensor& out, const Tensor& self,
                                     const Scalar& exponent) {
  OPSCOPE_CHECK(!(is_integral(self.dtype(), /*include_bool=*/true) &&
                  (exponent.is_integral() || exponent.is_bool()) && exponent.to_long() < 0),
                "Integers to negative integer powers are not allowed.");
  return pow_tensor_tensor_impl(out, self, wrapped_scalar_tensor(exponent));
}
static Tensor pow_tensor_scalar(const Tensor& self, const Scalar& exponent) {
  return pow_tensor_scalar_impl(Tensor(), self, exponent);
}
static Tensor pow_scalar_(const Tensor& self, const Scalar& exponent) {
  return pow_tensor_scalar_impl(self, self, exponent);
}
static Tensor pow_tensor_scalar_out(const Tensor& self, const Scalar& exponent,
                                    const Tensor& out) {
  return pow_tensor_scalar_impl(out, self, exponent);
}
static Tensor pow_scalar_impl(const Tensor& out, const Scalar& self, const Tensor& exponent) {
  return pow_tensor_tensor_impl(out, wrapped_scalar_tensor(self), exponent);
}
static Tensor pow_scalar(const Scalar& self, const Tensor& exponent) {
  return pow_scalar_impl(Tensor(), self, exponent);
}
static Tensor pow_scalar_out(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  return pow_scalar_impl(out, self, exponent);
}

static Tensor remainder_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return simple_binary(BinaryOp::Remainder, out, self, other, "remainder_cuda", false);
}
static Tensor remainder_scalar_tensor(const Scalar& self, const Tensor& other) {
  return remainder_impl(Tensor(), wrapped_scalar_tensor(self), other);
}
static Tensor fmod_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return simple_binary(BinaryOp::Fmod, out, self, other, "fmod_cuda", false);
}
static Tensor floor_divide_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return simple_binary(BinaryOp::DivFloor, out, self, other, "div_floor_cuda", false);
}
static Tensor atan2_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::binary_float_op(out, self, other);
  run_binary(BinaryOp::Atan2, iter);
  return iter.output();
}
static Tensor maximum_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return simple_binary(BinaryOp::Maximum, out, self, other, "maximum_cuda", true);
}
static Tensor minimum_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  return simple_binary(BinaryOp::Minimum, out, self, other, "minimum_cuda", true);
}
static Tensor bitwise_and_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  if (is_floating(iter.common_dtype())) not_implemented("bitwise_and_cuda", iter.common_dtype());
  run_binary(BinaryOp::BitAnd, iter);
  return iter.output();
}
static Tensor bitwise_or_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  if (is_floating(iter.common_dtype())) not_implemented("bitwise_or_cuda", iter.common_dtype());
  run_binary(BinaryOp::BitOr, iter);
  return iter.output();
}
static Tensor bitwise_xor_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  if (is_floating(iter.common_dtype())) not_implemented("bitwise_xor_cuda", iter.common_dtype());
  run_binary(BinaryOp::BitXor, iter);
  return iter.output();
}

// bitwise_not(self) = self ^ all ones (true for bool): the xor kernel with a CPU scalar operand
// of self's dtype, bit-exact as torch's own kernel; floating dtypes are refused as torch does.
static Tensor bitwise_not_impl(const Tensor& out, const Tensor& self) {
  CUDAGuard guard(self.device());
  if (is_floating(self.dtype())) not_implemented("bitwise_not_cuda", self.dtype());
  Tensor ones = make_empty({}, self.dtype());  // on the CPU: passed to the kernel by value
  dispatch_dtype(self.dtype(), "bitwise_not_cuda", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      *ones.data_ptr<T>() = true;
    } else if constexpr (std::is_integral_v<T>) {
      *ones.data_ptr<T>() = static_cast<T>(~T(0));
    }
  });
  TensorIterator iter = TensorIterator::binary_op(out, self, ones);
  run_binary(BinaryOp::BitXor, iter);
  return iter.output();
}

// logical_not.out(self, out): out = (self == 0) in out's dtype, eq's out= kernel (logical_not
// and logical_not_ are composites over this row, as on the CPU).
static Tensor logical_not_out(const Tensor& self, const Tensor& out) {
  return ops::eq_out(out, self, Scalar(int64_t(0)));
}

// The logical ops: inputs compared in their common dtype, the output bool (or out's dtype).
static Tensor logical_impl(BinaryOp op, const Tensor& out, const Tensor& self,
                           const Tensor& other) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::comparison_op(out, self, other);
  launch_binary(op, make_args(iter), 0, 0, current_stream_ptr());
  iter.cast_outputs();
  return out;
}
static Tensor logical_and_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_impl(BinaryOp::LogicalAnd, out, self, other);
}
static Tensor logical_or_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_impl(BinaryOp::LogicalOr, out, self, other);
}
static Tensor logical_xor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return logical_impl(BinaryOp::LogicalXor, out, self, other);
}

// lerp(self, end, weight): self + weight * (end - self).
static Tensor lerp_scalar_impl(const Tensor& out, const Tensor& self, const Tensor& end,
                               const Scalar& weight) {
  CUDAGuard guard(self.device());
  OPSCOPE_CHECK(self.dtype() == end.dtype(), "expected dtype ", cpp_name(self.dtype()),
                " for `end` but got dtype ", cpp_name(end.dtype()));
  TensorIterator iter = TensorIterator::binary_op(out, self, end);
  if (!is_floating(iter.common_dtype())) not_implemented("lerp_kernel_scalar", iter.common_dtype());
  run_binary(BinaryOp::LerpScalar, iter, scalar_param(weight, iter.common_dtype()));
  return iter.output();
}
static Tensor lerp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& end,
                               const Tensor& weight) {
  // self + weight * (end - self), from the ops themselves: each has its CUDA kernel.
  Tensor result = ops::add(self, ops::mul(weight, ops::sub(end, self)));
  if (!out.defined()) return result;
  resize_output(out, result.sizes());
  return ops::copy_(out, result);
}

// mse_loss: (self - target)^2 over the broadcast shape, then the reduction (mean / sum ops).
static Tensor mse_elementwise(const Tensor& out, const Tensor& self, const Tensor& target) {
  return simple_binary(BinaryOp::SquaredDiff, out, self, target, "mse_cuda", false, true);
}
static Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  Tensor loss = mse_elementwise(Tensor(), self, target);
  if (reduction == ops::kReductionMean) return ops::mean(loss);
  if (reduction == ops::kReductionSum) return ops::sum(loss);
  return loss;
}
static Tensor mse_loss_out(const Tensor& self, const Tensor& target, int64_t reduction,
                           const Tensor& out) {
  if (reduction == ops::kReductionNone) return mse_elementwise(out, self, target);
  Tensor loss = mse_elementwise(Tensor(), self, target);
  if (reduction == ops::kReductionMean) return ops::mean_out(out, loss, std::nullopt);
  return ops::sum_out(out, loss, std::nullopt);
}

// --- compare ------------------------------------------------------------------------------

namespace {

Tensor compare(CompareOp op, const Tensor& out, const Tensor& self, const Tensor& other) {
  CUDAGuard guard(gpu_of(self, other));
  TensorIterator iter = TensorIterator::comparison_op(out, self, other);
  launch_compare(op, make_args(iter), current_stream_ptr());
  iter.cast_outputs();
  return iter.output();
}

Tensor classify(CompareOp op, const Tensor& out, const Tensor& self) {
  CUDAGuard guard(self.device());
  Tensor result = out.defined() ? out : make_empty(self.sizes(), ScalarType::Bool, self.device());
  OPSCOPE_CHECK(result.dtype() == ScalarType::Bool, "result dtype ", cpp_name(result.dtype()),
                " does not match expected dtype Bool");
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(result)
                            .add_input(self)
                            .check_all_same_dtype(false)
                            .build();
  launch_compare(op, make_args(iter), current_stream_ptr());
  return result;
}

}  // namespace

// self op other, other a tensor or a number; functional, in-place and out= forms.
static Tensor eq_tensor(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Eq, Tensor(), self, other);
}
static Tensor eq_scalar(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Eq, Tensor(), self, wrapped_scalar_tensor(other));
}
static Tensor eq_tensor_(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Eq, self, self, other);
}
static Tensor eq_scalar_(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Eq, self, self, wrapped_scalar_tensor(other));
}
static Tensor eq_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare(CompareOp::Eq, out, self, other);
}
static Tensor eq_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare(CompareOp::Eq, out, self, wrapped_scalar_tensor(other));
}
static Tensor ne_tensor(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Ne, Tensor(), self, other);
}
static Tensor ne_scalar(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Ne, Tensor(), self, wrapped_scalar_tensor(other));
}
static Tensor ne_tensor_(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Ne, self, self, other);
}
static Tensor ne_scalar_(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Ne, self, self, wrapped_scalar_tensor(other));
}
static Tensor ne_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare(CompareOp::Ne, out, self, other);
}
static Tensor ne_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare(CompareOp::Ne, out, self, wrapped_scalar_tensor(other));
}
static Tensor lt_tensor(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Lt, Tensor(), self, other);
}
static Tensor lt_scalar(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Lt, Tensor(), self, wrapped_scalar_tensor(other));
}
static Tensor lt_tensor_(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Lt, self, self, other);
}
static Tensor lt_scalar_(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Lt, self, self, wrapped_scalar_tensor(other));
}
static Tensor lt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare(CompareOp::Lt, out, self, other);
}
static Tensor lt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare(CompareOp::Lt, out, self, wrapped_scalar_tensor(other));
}
static Tensor le_tensor(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Le, Tensor(), self, other);
}
static Tensor le_scalar(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Le, Tensor(), self, wrapped_scalar_tensor(other));
}
static Tensor le_tensor_(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Le, self, self, other);
}
static Tensor le_scalar_(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Le, self, self, wrapped_scalar_tensor(other));
}
static Tensor le_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare(CompareOp::Le, out, self, other);
}
static Tensor le_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare(CompareOp::Le, out, self, wrapped_scalar_tensor(other));
}
static Tensor gt_tensor(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Gt, Tensor(), self, other);
}
static Tensor gt_scalar(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Gt, Tensor(), self, wrapped_scalar_tensor(other));
}
static Tensor gt_tensor_(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Gt, self, self, other);
}
static Tensor gt_scalar_(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Gt, self, self, wrapped_scalar_tensor(other));
}
static Tensor gt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare(CompareOp::Gt, out, self, other);
}
static Tensor gt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare(CompareOp::Gt, out, self, wrapped_scalar_tensor(other));
}
static Tensor ge_tensor(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Ge, Tensor(), self, other);
}
static Tensor ge_scalar(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Ge, Tensor(), self, wrapped_scalar_tensor(other));
}
static Tensor ge_tensor_(const Tensor& self, const Tensor& other) {
  return compare(CompareOp::Ge, self, self, other);
}
static Tensor ge_scalar_(const Tensor& self, const Scalar& other) {
  return compare(CompareOp::Ge, self, self, wrapped_scalar_tensor(other));
}
static Tensor ge_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare(CompareOp::Ge, out, self, other);
}
static Tensor ge_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare(CompareOp::Ge, out, self, wrapped_scalar_tensor(other));
}

static Tensor isnan(const Tensor& self) { return classify(CompareOp::IsNan, Tensor(), self); }
static Tensor isposinf_impl(const Tensor& out, const Tensor& self) {
  return classify(CompareOp::IsPosInf, out, self);
}
static Tensor isneginf_impl(const Tensor& out, const Tensor& self) {
  return classify(CompareOp::IsNegInf, out, self);
}

// nan_to_num.out(self, nan, posinf, neginf, out): NaN, +inf and -inf of self replaced by nan
// (0), posinf and neginf (the dtype's largest and lowest finite values), as the CPU kernel
// (core/ops/cpu/unary.cpp); integers and bool are copied. The three masks are taken from self
// before out is written, so a replacement is never replaced again; then masked_fill_ per mask.
static Tensor nan_to_num_impl(const Tensor& out, const Tensor& self, std::optional<double> nan,
                              std::optional<double> posinf, std::optional<double> neginf) {
  CUDAGuard guard(self.device());
  OPSCOPE_CHECK(!out.defined() || out.dtype() == self.dtype(), "nan_to_num: dtype of out: ",
                cpp_name(out.dtype()), " should be same as input: ", cpp_name(self.dtype()));
  const bool floating = is_floating(self.dtype());
  Tensor is_nan, is_pos, is_neg;
  if (floating) {
    is_nan = isnan(self);
    is_pos = isposinf_impl(Tensor(), self);
    is_neg = isneginf_impl(Tensor(), self);
  }
  Tensor result = out.defined() ? out : ops::empty_like(self);
  if (!result.is_same(self)) {
    resize_output(result, self.sizes());
    ops::copy_(result, self);
  }
  if (!floating) return result;
  // The dtype's largest finite value (std::numeric_limits knows no Half / BFloat16).
  const ScalarType t = self.dtype();
  const double largest = t == ScalarType::Float16    ? 65504.0
                         : t == ScalarType::BFloat16 ? 3.3895313892515355e38
                         : t == ScalarType::Float32  ? double(std::numeric_limits<float>::max())
                                                     : std::numeric_limits<double>::max();
  ops::masked_fill_(result, is_nan, Scalar(nan.value_or(0.0)));
  ops::masked_fill_(result, is_pos, Scalar(posinf.value_or(largest)));
  ops::masked_fill_(result, is_neg, Scalar(neginf.value_or(-largest)));
  return result;
}

// where(condition, self, other): self and other promoted together, condition bool.
static Tensor where_impl(const Tensor& out, const Tensor& condition, const Tensor& self,
                         const Tensor& other) {
  CUDAGuard guard(gpu_of(self, other));
  OPSCOPE_CHECK(condition.dtype() == ScalarType::Bool || condition.dtype() == ScalarType::UInt8,
                "where expected condition to be a boolean tensor, but got a tensor with dtype ",
                cpp_name(condition.dtype()));
  ScalarType t = result_type(self, other);
  Tensor cond =
      condition.dtype() == ScalarType::Bool ? condition : ops::to(condition, ScalarType::Bool);
  Tensor a = self.dtype() == t ? self : ops::to(self, t);
  Tensor b = other.dtype() == t ? other : ops::to(other, t);
  Tensor result = out;
  const Device device = !condition.device().is_cpu() ? condition.device() : gpu_of(self, other);
  if (!result.defined()) result = make_empty({0}, t, device);
  OPSCOPE_CHECK(result.dtype() == t, "Expected out type to be ", cpp_name(t), " but got ",
                cpp_name(result.dtype()));
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(result)
                            .add_input(cond)
                            .add_input(a)
                            .add_input(b)
                            .check_all_same_dtype(false)
                            .build();
  launch_where(make_args(iter), current_stream_ptr());
  return result;
}
static Tensor where_self(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return where_impl(Tensor(), condition, self, other);
}
static Tensor where_self_out(const Tensor& condition, const Tensor& self, const Tensor& other,
                             const Tensor& out) {
  return where_impl(out, condition, self, other);
}

// clamp with number bounds: an integer self promotes with floating bounds (int.clamp(0.5) is
// float), as torch; a NaN bound with both given makes every element NaN.
static Tensor clamp_scalar_impl(const Tensor& out, const Tensor& self,
                                const std::optional<Scalar>& min,
                                const std::optional<Scalar>& max) {
  OPSCOPE_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  CUDAGuard guard(self.device());
  Tensor input = self;
  if (!is_floating(self.dtype())) {
    ScalarType t = self.dtype();
    if (min) t = result_type(self, *min);
    if (max) t = promote_types(t, result_type(self, *max));
    OPSCOPE_CHECK(t == self.dtype() || !out.defined() || !out.is_same(self), "result type ",
                  cpp_name(t), " can't be cast to the desired output type ",
                  cpp_name(self.dtype()));
    if (t != self.dtype()) input = ops::to(self, t);
  }
  TensorIterator iter = TensorIterator::unary_op(out, input);
  ScalarType t = iter.common_dtype();
  if (t == ScalarType::Bool) not_implemented("clamp_scalar_cuda", t);
  if (min && max && (std::isnan(min->to_double()) || std::isnan(max->to_double()))) {
    Tensor result = iter.output();
    if (!is_floating(result.dtype())) return result;
    return ops::fill_(result, std::numeric_limits<double>::quiet_NaN());
  }
  ScalarParam lo = min ? scalar_param(*min, t) : ScalarParam{};
  ScalarParam hi = max ? scalar_param(*max, t) : ScalarParam{};
  launch_clamp_scalar(make_args(iter), min.has_value(), lo.d, lo.i, max.has_value(), hi.d, hi.i,
                      current_stream_ptr());
  return iter.output();
}
static Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
                    const std::optional<Scalar>& max) {
  return clamp_scalar_impl(Tensor(), self, min, max);
}
static Tensor clamp_(const Tensor& self, const std::optional<Scalar>& min,
                     const std::optional<Scalar>& max) {
  return clamp_scalar_impl(self, self, min, max);
}
static Tensor clamp_out(const Tensor& self, const std::optional<Scalar>& min,
                        const std::optional<Scalar>& max, const Tensor& out) {
  return clamp_scalar_impl(out, self, min, max);
}
static Tensor clamp_min(const Tensor& self, const Scalar& min) {
  return clamp_scalar_impl(Tensor(), self, min, std::nullopt);
}
static Tensor clamp_min_(const Tensor& self, const Scalar& min) {
  return clamp_scalar_impl(self, self, min, std::nullopt);
}
static Tensor clamp_min_out(const Tensor& self, const Scalar& min, const Tensor& out) {
  return clamp_scalar_impl(out, self, min, std::nullopt);
}
static Tensor clamp_max(const Tensor& self, const Scalar& max) {
  return clamp_scalar_impl(Tensor(), self, std::nullopt, max);
}
static Tensor clamp_max_(const Tensor& self, const Scalar& max) {
  return clamp_scalar_impl(self, self, std::nullopt, max);
}
static Tensor clamp_max_out(const Tensor& self, const Scalar& max, const Tensor& out) {
  return clamp_scalar_impl(out, self, std::nullopt, max);
}

// clamp with tensor bounds (broadcast, promoted with self); NaN propagates.
static Tensor clamp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& min,
                                const Tensor& max) {
  OPSCOPE_CHECK(min.defined() || max.defined(),
                "torch.clamp: At least one of 'min' or 'max' must not be None");
  CUDAGuard guard(self.device());
  const Tensor& lo = min.defined() ? min : self;  // an absent bound: self again, ignored
  const Tensor& hi = max.defined() ? max : self;
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(lo)
                            .add_input(hi)
                            .promote_inputs_to_common_dtype(true)
                            .cast_common_dtype_to_outputs(true)
                            .enforce_safe_casting_to_output(true)
                            .build();
  if (iter.common_dtype() == ScalarType::Bool) not_implemented("clamp_cuda", ScalarType::Bool);
  launch_clamp(make_args(iter), min.defined(), max.defined(), current_stream_ptr());
  iter.cast_outputs();
  return iter.output();
}
static Tensor clamp_tensor(const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_tensor_impl(Tensor(), self, min, max);
}
static Tensor clamp_tensor_(const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_tensor_impl(self, self, min, max);
}
static Tensor clamp_tensor_out(const Tensor& self, const Tensor& min, const Tensor& max,
                               const Tensor& out) {
  return clamp_tensor_impl(out, self, min, max);
}
static Tensor clamp_min_tensor(const Tensor& self, const Tensor& min) {
  return clamp_tensor_impl(Tensor(), self, min, Tensor());
}
static Tensor clamp_min_tensor_(const Tensor& self, const Tensor& min) {
  return clamp_tensor_impl(self, self, min, Tensor());
}
static Tensor clamp_min_tensor_out(const Tensor& self, const Tensor& min, const Tensor& out) {
  return clamp_tensor_impl(out, self, min, Tensor());
}
static Tensor clamp_max_tensor(const Tensor& self, const Tensor& max) {
  return clamp_tensor_impl(Tensor(), self, Tensor(), max);
}
static Tensor clamp_max_tensor_(const Tensor& self, const Tensor& max) {
  return clamp_tensor_impl(self, self, Tensor(), max);
}
static Tensor clamp_max_tensor_out(const Tensor& self, const Tensor& max, const Tensor& out) {
  return clamp_tensor_impl(out, self, Tensor(), max);
}

static Library cuda_elementwise(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  // unary
  m.impl("exp", functional<&exp_impl>());
  m.impl("exp_", inplace<&exp_impl>());
  m.impl("exp.out", out<&exp_impl>());
  m.impl("exp2", functional<&exp2_impl>());
  m.impl("exp2_", inplace<&exp2_impl>());
  m.impl("exp2.out", out<&exp2_impl>());
  m.impl("expm1", functional<&expm1_impl>());
  m.impl("expm1_", inplace<&expm1_impl>());
  m.impl("expm1.out", out<&expm1_impl>());
  m.impl("log", functional<&log_impl>());
  m.impl("log_", inplace<&log_impl>());
  m.impl("log.out", out<&log_impl>());
  m.impl("log2", functional<&log2_impl>());
  m.impl("log2_", inplace<&log2_impl>());
  m.impl("log2.out", out<&log2_impl>());
  m.impl("log10", functional<&log10_impl>());
  m.impl("log10_", inplace<&log10_impl>());
  m.impl("log10.out", out<&log10_impl>());
  m.impl("log1p", functional<&log1p_impl>());
  m.impl("log1p_", inplace<&log1p_impl>());
  m.impl("log1p.out", out<&log1p_impl>());
  m.impl("sqrt", functional<&sqrt_impl>());
  m.impl("sqrt_", inplace<&sqrt_impl>());
  m.impl("sqrt.out", out<&sqrt_impl>());
  m.impl("rsqrt", functional<&rsqrt_impl>());
  m.impl("rsqrt_", inplace<&rsqrt_impl>());
  m.impl("rsqrt.out", out<&rsqrt_impl>());
  m.impl("reciprocal", functional<&reciprocal_impl>());
  m.impl("reciprocal_", inplace<&reciprocal_impl>());
  m.impl("reciprocal.out", out<&reciprocal_impl>());
  m.impl("sin", functional<&sin_impl>());
  m.impl("sin_", inplace<&sin_impl>());
  m.impl("sin.out", out<&sin_impl>());
  m.impl("cos", functional<&cos_impl>());
  m.impl("cos_", inplace<&cos_impl>());
  m.impl("cos.out", out<&cos_impl>());
  m.impl("tan", functional<&tan_impl>());
  m.impl("tan_", inplace<&tan_impl>());
  m.impl("tan.out", out<&tan_impl>());
  m.impl("asin", functional<&asin_impl>());
  m.impl("asin_", inplace<&asin_impl>());
  m.impl("asin.out", out<&asin_impl>());
  m.impl("acos", functional<&acos_impl>());
  m.impl("acos_", inplace<&acos_impl>());
  m.impl("acos.out", out<&acos_impl>());
  m.impl("atan", functional<&atan_impl>());
  m.impl("atan_", inplace<&atan_impl>());
  m.impl("atan.out", out<&atan_impl>());
  m.impl("sinh", functional<&sinh_impl>());
  m.impl("sinh_", inplace<&sinh_impl>());
  m.impl("sinh.out", out<&sinh_impl>());
  m.impl("cosh", functional<&cosh_impl>());
  m.impl("cosh_", inplace<&cosh_impl>());
  m.impl("cosh.out", out<&cosh_impl>());
  m.impl("tanh", functional<&tanh_impl>());
  m.impl("tanh_", inplace<&tanh_impl>());
  m.impl("tanh.out", out<&tanh_impl>());
  m.impl("erf", functional<&erf_impl>());
  m.impl("erf_", inplace<&erf_impl>());
  m.impl("erf.out", out<&erf_impl>());
  m.impl("sigmoid", functional<&sigmoid_impl>());
  m.impl("sigmoid_", inplace<&sigmoid_impl>());
  m.impl("sigmoid.out", out<&sigmoid_impl>());
  m.impl("floor", functional<&floor_impl>());
  m.impl("floor_", inplace<&floor_impl>());
  m.impl("floor.out", out<&floor_impl>());
  m.impl("ceil", functional<&ceil_impl>());
  m.impl("ceil_", inplace<&ceil_impl>());
  m.impl("ceil.out", out<&ceil_impl>());
  m.impl("round", functional<&round_impl>());
  m.impl("round_", inplace<&round_impl>());
  m.impl("round.out", out<&round_impl>());
  m.impl("trunc", functional<&trunc_impl>());
  m.impl("trunc_", inplace<&trunc_impl>());
  m.impl("trunc.out", out<&trunc_impl>());
  m.impl("neg", functional<&neg_impl>());
  m.impl("neg_", inplace<&neg_impl>());
  m.impl("neg.out", out<&neg_impl>());
  m.impl("abs.out", out<&abs_impl>());
  m.impl("sign", functional<&sign_impl>());
  m.impl("sign_", inplace<&sign_impl>());
  m.impl("sign.out", out<&sign_impl>());
  m.impl("sgn", functional<&sign_impl>());  // real dtypes only: sign's kernel
  m.impl("sgn_", inplace<&sign_impl>());
  m.impl("sgn.out", out<&sign_impl>());
  m.impl("isnan", fn<&isnan>);
  m.impl("isposinf", functional<&isposinf_impl>());
  m.impl("isposinf.out", out<&isposinf_impl>());
  m.impl("isneginf", functional<&isneginf_impl>());
  m.impl("isneginf.out", out<&isneginf_impl>());
  m.impl("nan_to_num.out", out<&nan_to_num_impl>());
  // activations
  m.impl("relu", fn<&relu>);
  m.impl("relu_", fn<&relu_>);
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
  m.impl("threshold", functional<&threshold_impl>());
  m.impl("threshold_", inplace<&threshold_impl>());
  m.impl("threshold.out", out<&threshold_impl>());
  m.impl("hardtanh", functional<&hardtanh_impl>());
  m.impl("hardtanh_", inplace<&hardtanh_impl>());
  m.impl("hardtanh.out", out<&hardtanh_impl>());
  m.impl("elu", functional<&elu_impl>());
  m.impl("elu_", inplace<&elu_impl>());
  m.impl("elu.out", out<&elu_impl>());
  m.impl("hardsigmoid", functional<&hardsigmoid_impl>());
  m.impl("hardsigmoid_", inplace<&hardsigmoid_impl>());
  m.impl("hardsigmoid.out", out<&hardsigmoid_impl>());
  m.impl("hardswish", functional<&hardswish_impl>());
  m.impl("hardswish_", inplace<&hardswish_impl>());
  m.impl("hardswish.out", out<&hardswish_impl>());
  m.impl("log_sigmoid_forward", fn<&log_sigmoid_forward>);
  m.impl("mish", functional<&mish_impl>());
  m.impl("mish_", inplace<&mish_impl>());
  m.impl("mish.out", out<&mish_impl>());
  // binary
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
  m.impl("pow.Tensor_Tensor", fn<&pow_tensor_tensor>);
  m.impl("pow.Tensor_Scalar", fn<&pow_tensor_scalar>);
  m.impl("pow.Scalar", fn<&pow_scalar>);
  m.impl("pow_.Scalar", fn<&pow_scalar_>);
  m.impl("pow_.Tensor", fn<&pow_tensor_>);
  m.impl("pow.Tensor_Tensor_out", fn<&pow_tensor_tensor_out>);
  m.impl("pow.Tensor_Scalar_out", fn<&pow_tensor_scalar_out>);
  m.impl("pow.Scalar_out", fn<&pow_scalar_out>);
  m.impl("remainder.Tensor", functional<&remainder_impl>());
  m.impl("remainder_.Tensor", inplace<&remainder_impl>());
  m.impl("remainder.Tensor_out", out<&remainder_impl>());
  m.impl("remainder.Scalar_Tensor", fn<&remainder_scalar_tensor>);
  m.impl("fmod.Tensor", functional<&fmod_impl>());
  m.impl("fmod_.Tensor", inplace<&fmod_impl>());
  m.impl("fmod.Tensor_out", out<&fmod_impl>());
  m.impl("floor_divide", functional<&floor_divide_impl>());
  m.impl("floor_divide_.Tensor", inplace<&floor_divide_impl>());
  m.impl("floor_divide.out", out<&floor_divide_impl>());
  m.impl("atan2", functional<&atan2_impl>());
  m.impl("atan2_", inplace<&atan2_impl>());
  m.impl("atan2.out", out<&atan2_impl>());
  m.impl("maximum", functional<&maximum_impl>());
  m.impl("maximum.out", out<&maximum_impl>());
  m.impl("minimum", functional<&minimum_impl>());
  m.impl("minimum.out", out<&minimum_impl>());
  m.impl("bitwise_and.Tensor", functional<&bitwise_and_impl>());
  m.impl("bitwise_and_.Tensor", inplace<&bitwise_and_impl>());
  m.impl("bitwise_and.Tensor_out", out<&bitwise_and_impl>());
  m.impl("bitwise_or.Tensor", functional<&bitwise_or_impl>());
  m.impl("bitwise_or_.Tensor", inplace<&bitwise_or_impl>());
  m.impl("bitwise_or.Tensor_out", out<&bitwise_or_impl>());
  m.impl("bitwise_not", functional<&bitwise_not_impl>());
  m.impl("bitwise_not_", inplace<&bitwise_not_impl>());
  m.impl("bitwise_not.out", out<&bitwise_not_impl>());
  m.impl("logical_not.out", fn<&logical_not_out>);
  m.impl("bitwise_xor.Tensor", functional<&bitwise_xor_impl>());
  m.impl("bitwise_xor_.Tensor", inplace<&bitwise_xor_impl>());
  m.impl("bitwise_xor.Tensor_out", out<&bitwise_xor_impl>());
  m.impl("logical_and.out", fn<&logical_and_out>);
  m.impl("logical_or.out", fn<&logical_or_out>);
  m.impl("logical_xor.out", fn<&logical_xor_out>);
  m.impl("lerp.Scalar", functional<&lerp_scalar_impl>());
  m.impl("lerp_.Scalar", inplace<&lerp_scalar_impl>());
  m.impl("lerp.Scalar_out", out<&lerp_scalar_impl>());
  m.impl("lerp.Tensor", functional<&lerp_tensor_impl>());
  m.impl("lerp_.Tensor", inplace<&lerp_tensor_impl>());
  m.impl("lerp.Tensor_out", out<&lerp_tensor_impl>());
  m.impl("mse_loss", fn<&mse_loss>);
  m.impl("mse_loss.out", fn<&mse_loss_out>);
  // compare
  m.impl("eq.Tensor", fn<&eq_tensor>);
  m.impl("eq.Scalar", fn<&eq_scalar>);
  m.impl("eq_.Tensor", fn<&eq_tensor_>);
  m.impl("eq_.Scalar", fn<&eq_scalar_>);
  m.impl("eq.Tensor_out", fn<&eq_tensor_out>);
  m.impl("eq.Scalar_out", fn<&eq_scalar_out>);
  m.impl("ne.Tensor", fn<&ne_tensor>);
  m.impl("ne.Scalar", fn<&ne_scalar>);
  m.impl("ne_.Tensor", fn<&ne_tensor_>);
  m.impl("ne_.Scalar", fn<&ne_scalar_>);
  m.impl("ne.Tensor_out", fn<&ne_tensor_out>);
  m.impl("ne.Scalar_out", fn<&ne_scalar_out>);
  m.impl("lt.Tensor", fn<&lt_tensor>);
  m.impl("lt.Scalar", fn<&lt_scalar>);
  m.impl("lt_.Tensor", fn<&lt_tensor_>);
  m.impl("lt_.Scalar", fn<&lt_scalar_>);
  m.impl("lt.Tensor_out", fn<&lt_tensor_out>);
  m.impl("lt.Scalar_out", fn<&lt_scalar_out>);
  m.impl("le.Tensor", fn<&le_tensor>);
  m.impl("le.Scalar", fn<&le_scalar>);
  m.impl("le_.Tensor", fn<&le_tensor_>);
  m.impl("le_.Scalar", fn<&le_scalar_>);
  m.impl("le.Tensor_out", fn<&le_tensor_out>);
  m.impl("le.Scalar_out", fn<&le_scalar_out>);
  m.impl("gt.Tensor", fn<&gt_tensor>);
  m.impl("gt.Scalar", fn<&gt_scalar>);
  m.impl("gt_.Tensor", fn<&gt_tensor_>);
  m.impl("gt_.Scalar", fn<&gt_scalar_>);
  m.impl("gt.Tensor_out", fn<&gt_tensor_out>);
  m.impl("gt.Scalar_out", fn<&gt_scalar_out>);
  m.impl("ge.Tensor", fn<&ge_tensor>);
  m.impl("ge.Scalar", fn<&ge_scalar>);
  m.impl("ge_.Tensor", fn<&ge_tensor_>);
  m.impl("ge_.Scalar", fn<&ge_scalar_>);
  m.impl("ge.Tensor_out", fn<&ge_tensor_out>);
  m.impl("ge.Scalar_out", fn<&ge_scalar_out>);
  m.impl("where.self", fn<&where_self>);
  m.impl("where.self_out", fn<&where_self_out>);
  m.impl("clamp", fn<&clamp>);
  m.impl("clamp_", fn<&clamp_>);
  m.impl("clamp.out", fn<&clamp_out>);
  m.impl("clamp.Tensor", fn<&clamp_tensor>);
  m.impl("clamp_.Tensor", fn<&clamp_tensor_>);
  m.impl("clamp.Tensor_out", fn<&clamp_tensor_out>);
  m.impl("clamp_min", fn<&clamp_min>);
  m.impl("clamp_min_", fn<&clamp_min_>);
  m.impl("clamp_min.out", fn<&clamp_min_out>);
  m.impl("clamp_min.Tensor", fn<&clamp_min_tensor>);
  m.impl("clamp_min_.Tensor", fn<&clamp_min_tensor_>);
  m.impl("clamp_min.Tensor_out", fn<&clamp_min_tensor_out>);
  m.impl("clamp_max", fn<&clamp_max>);
  m.impl("clamp_max_", fn<&clamp_max_>);
  m.impl("clamp_max.out", fn<&clamp_max_out>);
  m.impl("clamp_max.Tensor", fn<&clamp_max_tensor>);
  m.impl("clamp_max_.Tensor", fn<&clamp_max_tensor_>);
  m.impl("clamp_max.Tensor_out", fn<&clamp_max_tensor_out>);
});

}  // namespace opscope::cuda
