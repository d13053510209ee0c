// CPU kernels of the losses (declared in core/ops/nn.cpp, registered
// at the end of this file): nll_loss_forward (+ backward),
// nll_loss2d_forward, mse_loss, smooth_l1_loss (+ backward), huber_loss (+ backward),
// binary_cross_entropy.
//
// Checks follow torch 1.13 (LossNLL.cpp, LossNLL2d.cpp, Loss.cpp) in order and wording. The
// reduced nll losses sum in torch's cascade (Note [Cascade sum]) so that results agree with torch
// to the last bit in float32.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <atomic>

#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::cpu {

namespace {

// Note [Cascade sum]
// ~~~~~~~~~~~~~~~~~~
// torch sums the per-sample losses of a reduced nll loss into 8 partial sums: sample i adds to
// level 0, and every 2^p samples (p = max(4, ceil(log2(n)) / 8)) level j is folded into level
// j + 1 — a pairwise-like sum that keeps float32 error near log(n) ulp instead of n ulp. The
// partial sums are added up at the end. We follow it step for step, in the element type T
// (torch accumulates bfloat16 in bfloat16 too).
template <typename T>
class CascadeSum {
 public:
  explicit CascadeSum(int64_t n) {
    int64_t ceil_log2 = 0;
    while ((int64_t{1} << ceil_log2) < n) ++ceil_log2;
    level_power_ = std::max<int64_t>(4, ceil_log2 / kLevels);
    level_mask_ = (int64_t{1} << level_power_) - 1;
  }
  // Adds loss (and weight) of linear sample index i.
  void add(int64_t i, T loss, T weight) {
    loss_[0] = static_cast<T>(loss_[0] + loss);
    weight_[0] = static_cast<T>(weight_[0] + weight);
    for (int64_t j = 0; j + 1 < kLevels; ++j) {
      if ((i & (level_mask_ << (j * level_power_))) != 0) break;
      loss_[j + 1] = static_cast<T>(loss_[j + 1] + loss_[j]);
      weight_[j + 1] = static_cast<T>(weight_[j + 1] + weight_[j]);
      loss_[j] = T(0);
      weight_[j] = T(0);
    }
  }
  T loss() const { return total(loss_); }
  T weight() const { return total(weight_); }

 private:
  static constexpr int64_t kLevels = 8;
  static T total(const T (&parts)[kLevels]) {
    T s(0);
    for (T p : parts) s = static_cast<T>(s + p);
    return s;
  }
  int64_t level_power_ = 4, level_mask_ = 15;
  T loss_[kLevels] = {};
  T weight_[kLevels] = {};
};

// The reduced loss over `numel` targets: sum of -input[b, target, elem] * weight[target].
// input_at(i, t) gives the input element of linear sample i and class t.
template <typename T, typename Target, typename InputAt>
void nll_reduced(const Target* target, int64_t numel, int64_t n_classes, const T* weight,
                 int64_t reduction, int64_t ignore_index, InputAt input_at, T* output,
                 T* total_weight) {
  CascadeSum<T> sums(numel);
  int64_t num_ignored = 0;
  for (int64_t i = 0; i < numel; ++i) {
    const auto cur_target = static_cast<int64_t>(target[i]);
    if (cur_target == ignore_index) {
      ++num_ignored;
      continue;
    }
    OPSCOPE_CHECK_INDEX(cur_target >= 0 && cur_target < n_classes, "Target ", cur_target,
                        " is out of bounds.");
    const T data = input_at(i, cur_target);
    if (weight != nullptr) {
      const T w = weight[cur_target];
      sums.add(i, static_cast<T>(-(acc_type_t<T>(data) * acc_type_t<T>(w))), w);
    } else {
      sums.add(i, static_cast<T>(-data), T(0));
    }
  }
  const T total = weight != nullptr ? sums.weight() : static_cast<T>(numel - num_ignored);
  T out = sums.loss();
  if (reduction == ops::kReductionMean) out = static_cast<T>(out / total);
  *output = out;
  *total_weight = total;
}

// A reduced loss over zero targets: nan for the mean, 0 for the sum (torch issue 61309).
void fill_empty_reduction(const Tensor& output, int64_t reduction) {
  if (reduction == ops::kReductionMean) {
    ops::fill_(output, std::numeric_limits<double>::quiet_NaN());
  } else {
    ops::zero_(output);
  }
}

Tensor contiguous_or_self(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

// --- nll_loss_forward ------------------------------------------------------------------------

// torch's structured meta function: checks and output shapes.
void nll_loss_forward_meta(const Tensor& self, const Tensor& target, const Tensor& weight,
                           int64_t reduction, const Tensor& output, const Tensor& total_weight) {
  checks::nll_loss_args(self, target, weight);
  if (reduction == ops::kReductionNone && self.dim() == 2) {
    resize_output(output, {self.size(0)});
  } else {
    resize_output(output, {});
  }
  resize_output(total_weight, {});
}

template <typename T, typename Target>
void nll_loss_out_frame(const Tensor& output, const Tensor& total_weight, const Tensor& input,
                        const Tensor& target, const Tensor& weight, int64_t reduction,
                        int64_t ignore_index) {
  const int64_t n_classes = input.size(-1);
  T* total_weight_data = total_weight.data_ptr<T>();
  *total_weight_data = T(0);
  const Tensor weight_contiguous = contiguous_or_self(weight);
  const T* weight_data = weight.defined() ? weight_contiguous.data_ptr<T>() : nullptr;

  if (reduction == ops::kReductionNone && input.dim() == 2) {
    // input (N, C), target (N) -> output (N), read through strides.
    const int64_t batch_size = input.size(0);
    const T* in = input.data_ptr<T>();
    const Target* tgt = target.data_ptr<Target>();
    T* out = output.data_ptr<T>();
    const int64_t is0 = input.stride(0), is1 = input.stride(1), ts = target.stride(0),
                  os = output.stride(0);
    parallel_for(0, batch_size, kGrainSize, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const auto cur_target = static_cast<int64_t>(tgt[i * ts]);
        if (cur_target == ignore_index) {
          out[i * os] = T(0);
          continue;
        }
        OPSCOPE_CHECK_INDEX(cur_target >= 0 && cur_target < n_classes, "Target ", cur_target,
                            " is out of bounds.");
        const T w = weight_data != nullptr ? weight_data[cur_target] : T(1);
        out[i * os] = static_cast<T>(-(acc_type_t<T>(in[i * is0 + cur_target * is1]) * w));
      }
    });
    return;
  }

  if (target.numel() == 0) return fill_empty_reduction(output, reduction);

  const Tensor input_contiguous = contiguous_or_self(input);
  const Tensor target_contiguous = contiguous_or_self(target);
  const T* in = input_contiguous.data_ptr<T>();
  const int64_t batch_size = input.dim() == 1 ? 1 : input.size(0);
  nll_reduced<T>(
      target_contiguous.data_ptr<Target>(), batch_size, n_classes, weight_data, reduction,
      ignore_index, [&](int64_t b, int64_t t) { return in[b * n_classes + t]; },
      output.data_ptr<T>(), total_weight_data);
}

void nll_loss_forward_impl(const Tensor& output, const Tensor& total_weight, const Tensor& self,
                           const Tensor& target, const Tensor& weight, int64_t reduction,
                           int64_t ignore_index) {
  nll_loss_forward_meta(self, target, weight, reduction, output, total_weight);
  dispatch_float_bf16(self.dtype(), "nll_loss_out_frame", [&]<typename T>() {
    if (weight.defined()) check_read_as(self.dtype(), weight.dtype());
    if (target.dtype() == ScalarType::UInt8) {
      nll_loss_out_frame<T, uint8_t>(output, total_weight, self, target, weight, reduction,
                                     ignore_index);
    } else {
      check_read_as(ScalarType::Int64, target.dtype());
      nll_loss_out_frame<T, int64_t>(output, total_weight, self, target, weight, reduction,
                                     ignore_index);
    }
  });
}

// --- nll_loss2d_forward ----------------------------------------------------------------------

void check_inputs_nll_loss2d(const Tensor& input, const Tensor& target, const Tensor& weight) {
  OPSCOPE_CHECK(target.dim() == 3,
                "only batches of spatial targets supported (3D tensors) but got targets of "
                "dimension: ",
                target.dim());
  OPSCOPE_CHECK(input.dim() == 4,
                "only batches of spatial inputs supported (4D tensors), but got input of "
                "dimension: ",
                input.dim());
  OPSCOPE_CHECK(!weight.defined() || weight.numel() == input.size(1),
                "weight tensor should be defined either for all or no classes");
  OPSCOPE_CHECK(input.size(0) == target.size(0) && input.size(2) == target.size(1) &&
                    input.size(3) == target.size(2),
                "size mismatch (got input: ", shape_str(input.sizes()),
                " , target: ", shape_str(target.sizes()));
}

template <typename T>
void nll_loss2d_out_frame(const Tensor& output, const Tensor& total_weight, const Tensor& input,
                          const Tensor& target, const Tensor& weight, int64_t reduction,
                          int64_t ignore_index) {
  const int64_t n_classes = input.size(1);
  resize_output(total_weight, {});
  T* total_weight_data = total_weight.data_ptr<T>();
  *total_weight_data = T(0);
  const Tensor weight_contiguous = contiguous_or_self(weight);
  const T* weight_data = weight.defined() ? weight_contiguous.data_ptr<T>() : nullptr;
  const int64_t batch_size = input.size(0), H = input.size(2), W = input.size(3);

  if (reduction == ops::kReductionNone) {
    // input (N, C, H, W), target (N, H, W) -> output (N, H, W), read through strides.
    resize_output(output, {batch_size, H, W});
    check_read_as(ScalarType::Int64, target.dtype());
    const T* in = input.data_ptr<T>();
    const int64_t* tgt = target.data_ptr<int64_t>();
    T* out = output.data_ptr<T>();
    IntArrayRef is = input.strides(), ts = target.strides(), os = output.strides();
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, H * W));
    parallel_for(0, batch_size, grain, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        for (int64_t h = 0; h < H; ++h) {
          for (int64_t w = 0; w < W; ++w) {
            const int64_t cur_target = tgt[b * ts[0] + h * ts[1] + w * ts[2]];
            T& o = out[b * os[0] + h * os[1] + w * os[2]];
            if (cur_target == ignore_index) {
              o = T(0);
              continue;
            }
            OPSCOPE_CHECK_INDEX(cur_target >= 0 && cur_target < n_classes, "Target ", cur_target,
                                " is out of bounds.");
            const T wt = weight_data != nullptr ? weight_data[cur_target] : T(1);
            const T x = in[b * is[0] + cur_target * is[1] + h * is[2] + w * is[3]];
            o = static_cast<T>(-(acc_type_t<T>(x) * acc_type_t<T>(wt)));
          }
        }
      }
    });
    return;
  }

  resize_output(output, {});
  if (target.numel() == 0) return fill_empty_reduction(output, reduction);

  check_read_as(ScalarType::Int64, target.dtype());
  const Tensor input_contiguous = contiguous_or_self(input);
  const Tensor target_contiguous = contiguous_or_self(target);
  const T* in = input_contiguous.data_ptr<T>();
  const int64_t map_size = H * W, sample_size = map_size * n_classes;
  nll_reduced<T>(
      target_contiguous.data_ptr<int64_t>(), batch_size * map_size, n_classes, weight_data,
      reduction, ignore_index,
      [&](int64_t i, int64_t t) {
        const int64_t b = i / map_size, elem = i - b * map_size;
        return in[b * sample_size + t * map_size + elem];
      },
      output.data_ptr<T>(), total_weight_data);
}

void nll_loss2d_forward_impl(const Tensor& output, const Tensor& total_weight, const Tensor& self,
                             const Tensor& target, const Tensor& weight, int64_t reduction,
                             int64_t ignore_index) {
  check_inputs_nll_loss2d(self, target, weight);
  dispatch_float_bf16(self.dtype(), "nll_loss2d_forward_out_frame", [&]<typename T>() {
    if (weight.defined()) check_read_as(self.dtype(), weight.dtype());
    nll_loss2d_out_frame<T>(output, total_weight, self, target, weight, reduction, ignore_index);
  });
}

// --- mse_loss, binary_cross_entropy --------------------------------------------------------------

// torch's apply_loss_reduction: mean() / sum() of the per-element losses, or them.
Tensor apply_loss_reduction(const Tensor& unreduced, int64_t reduction) {
  if (reduction == ops::kReductionMean) return ops::mean(unreduced);
  if (reduction == ops::kReductionSum) return ops::sum(unreduced);
  return unreduced;
}

// out (undefined: allocated) = (self - target)^2 over the broadcast shape, in the common dtype.
Tensor mse_elementwise(const Tensor& out, const Tensor& self, const Tensor& target) {
  TensorIterator iter = TensorIterator::binary_op(out, self, target);
  const ScalarType dtype = iter.common_dtype();
  OPSCOPE_CHECK(is_floating(dtype) && dtype != ScalarType::BFloat16,
                "\"mse_cpu\" not implemented for '", cpp_name(dtype), "'");
  dispatch_dtype(dtype, "mse_cpu", [&]<typename T>() {
    if constexpr (!std::is_integral_v<T>) {
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a, T b) -> T {
        const A d = A(a) - A(b);
        return static_cast<T>(d * d);
      });
    }
  });
  return iter.output();
}

// out (undefined: allocated) = -(t * max(log(x), -100) + (1 - t) * max(log(1 - x), -100)).
Tensor bce_elementwise(const Tensor& out, const Tensor& input, const Tensor& target) {
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_owned_input(ops::squeeze(input))
                            .add_owned_input(ops::squeeze(target))
                            .build();
  std::atomic<bool> out_of_range{false};
  std::atomic<bool>* flag = &out_of_range;
  const ScalarType dtype = iter.common_dtype();
  OPSCOPE_CHECK(dtype == ScalarType::Float32 || dtype == ScalarType::Float64,
                "\"binary_cross_entropy\" not implemented for '", cpp_name(dtype), "'");
  dispatch_dtype(dtype, "binary_cross_entropy", [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      cpu_kernel(iter, [flag](T x, T t) -> T {
        if (!(x >= 0 && x <= 1)) flag->store(true, std::memory_order_relaxed);
        return (t - T(1)) * std::max(T(std::log(T(1) - x)), T(-100)) -
               t * std::max(T(std::log(x)), T(-100));
      });
    }
  });
  OPSCOPE_CHECK(!out_of_range.load(), "all elements of input should be between 0 and 1");
  return out;
}

}  // namespace

namespace {

// f(self - target) elementwise over the broadcast shape, reduced.
template <typename Loss>
Tensor pointwise_loss(std::string_view what, const Tensor& self, const Tensor& target,
                      int64_t reduction, Loss loss) {
  const Tensor out;  // undefined: the iterator allocates it (and borrows this handle)
  TensorIterator iter = TensorIterator::binary_op(out, self, target);
  dispatch_dtype_if(iter.common_dtype(), what, kFloatingOnly, [&]<typename T>() {
    using A = acc_type_t<T>;
    cpu_kernel(iter, [loss](T x, T y) -> T { return static_cast<T>(loss(A(x) - A(y))); });
  });
  return apply_loss_reduction(iter.output(), reduction);
}

}  // namespace

// self, target (broadcast) -> z = |self - target|: 0.5 z^2 / beta where z < beta, z - 0.5 beta
// elsewhere; reduced
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  OPSCOPE_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  if (beta == 0) {  // no quadratic part: the l1 loss
    return pointwise_loss("smooth_l1_cpu", self, target, reduction,
                          [](auto d) -> decltype(d) { return std::abs(d); });
  }
  // With m = min(z, beta): m^2 / (2 beta) + (z - m) is 0.5 z^2 / beta below beta and
  // z - 0.5 beta above (within an ulp of torch's), without a select the loop would turn into a
  // branch (which mispredicts on data whose |d| straddles beta: 20x slower).
  return pointwise_loss("smooth_l1_cpu", self, target, reduction,
                        [beta, half_inv = 0.5 / beta](auto d) -> decltype(d) {
                          using A = decltype(d);
                          const A b = A(beta), z = std::abs(d), m = z < b ? z : b;
                          return m * m * A(half_inv) + (z - m);
                        });
}

// self, target (broadcast) -> z = |self - target|: 0.5 z^2 where z < delta,
// delta (z - 0.5 delta) elsewhere; reduced
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  OPSCOPE_CHECK(delta > 0, "huber_loss does not support non-positive values for delta.");
  return pointwise_loss("huber_cpu", self, target, reduction, [delta](auto d) -> decltype(d) {
    using A = decltype(d);
    // min(z, delta) (z - 0.5 min(z, delta)) is 0.5 z^2 below delta and delta (z - 0.5 delta)
    // above, rounded as those are, without a data-dependent branch.
    const A c = A(delta), z = std::abs(d), m = z < c ? z : c;
    return m * (z - A(0.5) * m);
  });
}

namespace {

// grad_output * f'(self - target) * norm over self's shape (grad_output broadcast), where
// f'(d) = dloss(d) and norm = 1 / numel for the mean: the backward of the two losses above. A
// reduced loss's grad_output is one value: it is read once and the loop has two inputs (the
// elementwise loops vectorize two-input kernels with a broadcast operand hoisted, not three).
template <typename DLoss>
Tensor pointwise_loss_backward(std::string_view what, const Tensor& grad_output,
                               const Tensor& self, const Tensor& target, int64_t reduction,
                               DLoss dloss) {
  const double norm = reduction == ops::kReductionMean && self.numel() > 0
                          ? 1.0 / static_cast<double>(self.numel())
                          : 1.0;
  const Tensor out;  // undefined: the iterator allocates it
  if (grad_output.numel() == 1) {
    TensorIterator iter = TensorIterator::binary_op(out, self, target);
    const double g = opscope::item(grad_output).to_double() * norm;
    dispatch_dtype_if(iter.common_dtype(), what, kFloatingOnly, [&]<typename T>() {
      using A = acc_type_t<T>;
      const A scale = A(g);
      cpu_kernel(iter, [scale, dloss](T x, T y) -> T { return static_cast<T>(dloss(A(x) - A(y)) * scale); });
    });
    return iter.output();
  }
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(out)
                            .add_input(self)
                            .add_input(target)
                            .add_input(grad_output)
                            .promote_inputs_to_common_dtype(true)
                            .build();
  dispatch_dtype_if(iter.common_dtype(), what, kFloatingOnly, [&]<typename T>() {
    using A = acc_type_t<T>;
    const A n = A(norm);
    cpu_kernel(iter, [n, dloss](T x, T y, T g) -> T {
      return static_cast<T>(dloss(A(x) - A(y)) * n * A(g));
    });
  });
  return iter.output();
}

}  // namespace

// grad_output ((): reduced), self, target -> grad_output clamp((self - target) / beta, -1, 1)
Tensor smooth_l1_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                               int64_t reduction, double beta) {
  if (beta == 0) {  // sign(d), -1 at 0 as torch's backward
    return pointwise_loss_backward("smooth_l1_backward_cpu_out", grad_output, self, target,
                                   reduction, [](auto d) -> decltype(d) {
                                     using A = decltype(d);
                                     return d <= A(0) ? A(-1) : A(1);
                                   });
  }
  // clamp(d / beta, -1, 1): the division on every element, so the loop is branch-free
  return pointwise_loss_backward("smooth_l1_backward_cpu_out", grad_output, self, target,
                                 reduction, [beta](auto d) -> decltype(d) {
                                   using A = decltype(d);
                                   const A r = d / A(beta);
                                   return r < A(-1) ? A(-1) : (r > A(1) ? A(1) : r);
                                 });
}

// grad_output ((): reduced), self, target -> grad_output clamp(self - target, -delta, delta)
Tensor huber_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                           int64_t reduction, double delta) {
  return pointwise_loss_backward("huber_backward_cpu_out", grad_output, self, target, reduction,
                                 [delta](auto d) -> decltype(d) {
                                   using A = decltype(d);
                                   const A c = A(delta);
                                   return d < -c ? -c : (d > c ? c : d);
                                 });
}

// grad_output ((): reduced), self, target -> grad_output 2 (self - target), as torch's
// mse_backward_cpu_out
Tensor mse_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                         int64_t reduction) {
  return pointwise_loss_backward("mse_backward_cpu_out", grad_output, self, target, reduction,
                                 [](auto d) -> decltype(d) { return d + d; });
}

// grad_output (broadcast), self, target, weight -> grad_output weight (self - target) /
// max((1 - self) self, 1e-12), divided by numel for the mean (torch 1.13's
// binary_cross_entropy_backward_out_cpu); float32 / float64.
Tensor binary_cross_entropy_backward(const Tensor& grad_output, const Tensor& self,
                                     const Tensor& target, const Tensor& weight,
                                     int64_t reduction) {
  const ScalarType dtype = self.dtype();
  OPSCOPE_CHECK(dtype == ScalarType::Float32 || dtype == ScalarType::Float64,
                "\"binary_cross_entropy_backward\" not implemented for '", cpp_name(dtype), "'");
  const double norm = reduction == ops::kReductionMean && self.numel() > 0
                          ? 1.0 / static_cast<double>(self.numel())
                          : 1.0;
  // The gradient has self's shape; target, grad_output and weight broadcast to it.
  const Tensor grad_input = make_empty(self.sizes(), dtype);
  TensorIteratorConfig config;
  config.add_output(grad_input)
      .add_input(self)
      .add_input(target)
      .add_input(grad_output);
  config.promote_inputs_to_common_dtype(true);
  if (weight.defined()) config.add_input(weight);
  TensorIterator iter = config.build();
  dispatch_dtype_if(iter.common_dtype(), "binary_cross_entropy_backward", kFloatingOnly,
                    [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T n = T(norm), eps = T(1e-12);
      auto d = [n, eps](T x, T t, T g) {
        return g * (x - t) / std::max((T(1) - x) * x, eps) * n;
      };
      if (weight.defined()) {
        cpu_kernel(iter, [d](T x, T t, T g, T w) -> T { return d(x, t, g) * w; });
      } else {
        cpu_kernel(iter, [d](T x, T t, T g) -> T { return d(x, t, g); });
      }
    } else {
      throw Error(detail::str("\"binary_cross_entropy_backward\" not implemented for '",
                              cpp_name(iter.common_dtype()), "'"));
    }
  });
  return iter.output();
}

// self, target (broadcast) -> (self - target)^2, reduced
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  Tensor loss = mse_elementwise(Tensor(), self, target);
  return apply_loss_reduction(loss, reduction);
}

Tensor mse_loss_out(const Tensor& self, const Tensor& target, int64_t reduction,
                    const Tensor& out) {
  if (reduction == ops::kReductionNone) return mse_elementwise(out, self, target);
  Tensor loss = mse_elementwise(Tensor(), self, target);
  if (reduction == ops::kReductionMean) return ops::mean_out(out, loss, std::nullopt);
  return ops::sum_out(out, loss, std::nullopt);
}

// input, target (same shape), weight (broadcastable) -> the binary cross entropy, reduced
Tensor binary_cross_entropy_out(const Tensor& input, const Tensor& target, const Tensor& weight,
                                int64_t reduction, const Tensor& loss) {
  resize_output(loss, input.sizes());
  Tensor loss_squeezed = ops::squeeze(loss);
  bce_elementwise(loss_squeezed, input, target);
  if (weight.defined()) ops::mul_(loss, weight);
  if (reduction != ops::kReductionNone) {
    Tensor reduced = apply_loss_reduction(loss, reduction);
    resize_output(loss, reduced.sizes());
    ops::copy_(loss, reduced);
  }
  return loss;
}

Tensor binary_cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight,
                            int64_t reduction) {
  Tensor loss = ops::empty_like(input);
  return binary_cross_entropy_out(input, target, weight, reduction, loss);
}

// self (N,C) or (C), target (N) or () -> (output, total_weight)
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const Tensor& weight, int64_t reduction,
                                            int64_t ignore_index) {
  Tensor output = make_empty({}, self.dtype());
  Tensor total_weight = make_empty({}, self.dtype());
  nll_loss_forward_impl(output, total_weight, self, target, weight, reduction, ignore_index);
  return {output, total_weight};
}

std::tuple<Tensor, Tensor> nll_loss_forward_output(const Tensor& self, const Tensor& target,
                                                   const Tensor& weight, int64_t reduction,
                                                   int64_t ignore_index, const Tensor& output,
                                                   const Tensor& total_weight) {
  nll_loss_forward_impl(output, total_weight, self, target, weight, reduction, ignore_index);
  return {output, total_weight};
}

// self (N,C,H,W), target (N,H,W) -> (output, total_weight)
std::tuple<Tensor, Tensor> nll_loss2d_forward(const Tensor& self, const Tensor& target,
                                              const Tensor& weight, int64_t reduction,
                                              int64_t ignore_index) {
  Tensor output = make_empty({}, self.dtype());
  Tensor total_weight = make_empty({}, self.dtype());
  nll_loss2d_forward_impl(output, total_weight, self, target, weight, reduction, ignore_index);
  return {output, total_weight};
}

std::tuple<Tensor, Tensor> nll_loss2d_forward_output(const Tensor& self, const Tensor& target,
                                                     const Tensor& weight, int64_t reduction,
                                                     int64_t ignore_index, const Tensor& output,
                                                     const Tensor& total_weight) {
  nll_loss2d_forward_impl(output, total_weight, self, target, weight, reduction, ignore_index);
  return {output, total_weight};
}

namespace {

template <typename T, typename Target>
void nll_loss_backward_frame(const Tensor& grad_input, const Tensor& grad_output,
                             const Tensor& target, const Tensor& weight, int64_t reduction,
                             int64_t ignore_index, const Tensor& total_weight) {
  const bool batched = grad_input.dim() == 2;
  const int64_t n_classes = grad_input.size(-1), batch = batched ? grad_input.size(0) : 1;
  const Tensor target_c = contiguous_or_self(target), weight_c = contiguous_or_self(weight);
  const Target* tgt = target_c.data_ptr<Target>();
  const T* w = weight.defined() ? weight_c.data_ptr<T>() : nullptr;
  T* gi = grad_input.data_ptr<T>();  // contiguous
  std::fill_n(gi, grad_input.numel(), T(0));
  const bool per_row = reduction == ops::kReductionNone && batched;
  const Tensor grad_c = contiguous_or_self(grad_output);
  const T* go = grad_c.data_ptr<T>();
  // reduced: one gradient for every row, divided by the total weight for the mean
  acc_type_t<T> g = 0;
  if (!per_row) {
    g = acc_type_t<T>(go[0]);
    if (reduction == ops::kReductionMean) g /= acc_type_t<T>(*total_weight.data_ptr<T>());
  }
  for (int64_t i = 0; i < batch; ++i) {
    const auto t = static_cast<int64_t>(tgt[i]);
    if (t == ignore_index) continue;
    OPSCOPE_CHECK_INDEX(t >= 0 && t < n_classes, "Target ", t, " is out of bounds.");
    const acc_type_t<T> wt = w != nullptr ? acc_type_t<T>(w[t]) : acc_type_t<T>(1);
    gi[i * n_classes + t] = static_cast<T>(-wt * (per_row ? acc_type_t<T>(go[i]) : g));
  }
}

}  // namespace

// grad_output ((N) for reduction none on a batch, () otherwise), self (N,C) or (C), target (N)
// or (), total_weight () -> d loss / d self: -weight[t] * grad at [n, t = target[n]], zeros
// elsewhere; the mean divides by total_weight (0 / 0 gives NaN on the rows that count, as torch)
Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                         const Tensor& weight, int64_t reduction, int64_t ignore_index,
                         const Tensor& total_weight) {
  checks::nll_loss_backward_args(self, target, weight, total_weight);
  if (reduction == ops::kReductionNone && self.dim() == 2) {
    const int64_t nframe = self.size(0);
    OPSCOPE_CHECK(grad_output.dim() == 1 && grad_output.size(0) == nframe,
                  "Expected a tensor of dimension 1 and tensor.size[0] == ", nframe,
                  " but got: dimension ", grad_output.dim(), " and tensor.size[0] = ",
                  grad_output.dim() > 0 ? grad_output.size(0) : 1);
  } else {
    OPSCOPE_CHECK(grad_output.dim() <= 1 && grad_output.numel() == 1,
                  "Expected a single element grad_output tensor, but got: ",
                  shape_str(grad_output.sizes()));
  }
  Tensor grad_input = make_empty(self.sizes(), self.dtype());
  dispatch_float_bf16(self.dtype(), "nll_loss_backward_out_frame", [&]<typename T>() {
    check_read_as(self.dtype(), grad_output.dtype());
    check_read_as(self.dtype(), total_weight.dtype());
    if (weight.defined()) check_read_as(self.dtype(), weight.dtype());
    if (target.dtype() == ScalarType::UInt8) {
      nll_loss_backward_frame<T, uint8_t>(grad_input, grad_output, target, weight, reduction,
                                          ignore_index, total_weight);
    } else {
      check_read_as(ScalarType::Int64, target.dtype());
      nll_loss_backward_frame<T, int64_t>(grad_input, grad_output, target, weight, reduction,
                                          ignore_index, total_weight);
    }
  });
  return grad_input;
}

static Library cpu_loss(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("nll_loss_forward", fn<&nll_loss_forward>);
  m.impl("nll_loss_forward.output", fn<&nll_loss_forward_output>);
  m.impl("nll_loss_backward", fn<&nll_loss_backward>);
  m.impl("nll_loss2d_forward", fn<&nll_loss2d_forward>);
  m.impl("nll_loss2d_forward.output", fn<&nll_loss2d_forward_output>);
  m.impl("smooth_l1_loss", fn<&smooth_l1_loss>);
  m.impl("huber_loss", fn<&huber_loss>);
  m.impl("smooth_l1_loss_backward", fn<&smooth_l1_loss_backward>);
  m.impl("mse_loss_backward", fn<&mse_loss_backward>);
  m.impl("binary_cross_entropy_backward", fn<&binary_cross_entropy_backward>);
  m.impl("huber_loss_backward", fn<&huber_loss_backward>);
  m.impl("mse_loss", fn<&mse_loss>);
  m.impl("mse_loss.out", fn<&mse_loss_out>);
  m.impl("binary_cross_entropy", fn<&binary_cross_entropy>);
  m.impl("binary_cross_entropy.out", fn<&binary_cross_entropy_out>);
});

}  // namespace opscope::cpu
