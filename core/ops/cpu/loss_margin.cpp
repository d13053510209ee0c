// CPU kernels of the multi-class margin losses (declared in core/ops/nn.cpp, see core/ops/nn.h;
// registered at the end of this file): multi_margin_loss and multilabel_margin_loss_forward, and
// their backward ops, as torch 1.13's LossMultiMargin.cpp / LossMultiLabelMargin.cpp compute
// them — float32 / float64 only, int64 targets, one sample (a row of C class scores) at a time:
//
//   multi_margin_loss       row n, target y:   sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / C
//   multilabel_margin_loss  row n, targets J (target[n, :] up to the first -1), others I:
//                           sum_{j in J} sum_{i in I} max(0, 1 - x[j] + x[i]) / C
//
// A reduced loss adds the rows' values in double, in row order (torch's accumulation), then
// divides by N for the mean; the rows themselves are computed in parallel.
//
// Checks follow torch's wording and order. Where torch 1.13 would read memory it was not given —
// a class weight of fewer than C elements, a per-sample grad_output of fewer than N — these
// kernels raise an error instead (later torch releases check the weight the same way). A target
// outside [0, C) (multi_margin) or [-1, C) (multilabel) is an error before any element is read.
#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/nn.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

// torch's AT_DISPATCH_FLOATING_TYPES: float and double, accumulated in double (at::acc_type on
// CPU).
template <typename F>
void dispatch_float(ScalarType t, std::string_view what, F&& fn) {
  if (t == ScalarType::Float32) return fn.template operator()<float>();
  if (t == ScalarType::Float64) return fn.template operator()<double>();
  throw Error(detail::str("\"", what, "\" not implemented for '", cpp_name(t), "'"));
}

Tensor contiguous_or_self(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

// A kernel writes its result densely: into `out` itself when it is contiguous, else into a
// fresh buffer that finish() copies into out.
class DenseOutput {
 public:
  explicit DenseOutput(const Tensor& out)
      : out_(out), buffer_(out.is_contiguous() ? out : make_empty(out.sizes(), out.dtype())) {}
  template <typename T>
  T* data() const {
    return buffer_.data_ptr<T>();
  }
  Tensor finish() const {
    if (!buffer_.is_same(out_)) ops::copy_(out_, buffer_);
    return out_;
  }

 private:
  Tensor out_, buffer_;
};

// grad_output of a backward: one value (a reduced loss, or an unbatched one) or one per sample
// (reduction none on a batch). torch reads grad_output[0], or grad_output[n] for n < N.
void check_grad_output(const Tensor& grad_output, int64_t reduction, int64_t nframe) {
  if (reduction != ops::kReductionNone || grad_output.dim() == 0) {
    OPSCOPE_CHECK(
        grad_output.numel() == 1,
        "Expected a single element grad_output tensor, but got: ", shape_str(grad_output.sizes()));
  } else {
    OPSCOPE_CHECK(grad_output.dim() == 1 && grad_output.size(0) == nframe,
                  "Expected a tensor of dimension 1 and tensor.size[0] == ", nframe,
                  " but got: dimension ", grad_output.dim(),
                  " and tensor.size[0] = ", grad_output.size(0));
  }
}

// grad (nframe, dim) *= grad_output: its one value, or row n's value (reduction none on a
// batch); check_grad_output has checked its size
template <typename T>
void scale_by_grad_output(T* grad, const Tensor& grad_output, int64_t reduction, int64_t nframe,
                          int64_t dim) {
  const Tensor go = contiguous_or_self(grad_output);
  const T* g = go.data_ptr<T>();
  const bool per_row = reduction == ops::kReductionNone && go.dim() > 0;
  parallel_for(0, nframe, std::max<int64_t>(1, kGrainSize / dim), [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end; ++n) {
      const T scale = per_row ? g[n] : g[0];
      for (int64_t d = 0; d < dim; ++d) grad[n * dim + d] *= scale;
    }
  });
}

// self (N, C), (C) or () -> {N, C} (an unbatched input is one sample; a 0-d one has one class)
std::pair<int64_t, int64_t> frames_and_classes(const Tensor& input) {
  const int64_t ndims = input.dim();
  OPSCOPE_CHECK(
      (ndims == 2 && input.size(1) != 0) || (ndims == 1 && input.size(0) != 0) || ndims == 0,
      "Expected non-empty vector or matrix with optional 0-dim batch size, but got: ",
      shape_str(input.sizes()));
  if (ndims <= 1) return {1, ndims == 0 ? 1 : input.size(0)};
  return {input.size(0), input.size(1)};
}

// ==== multi_margin_loss ========================================================================

// torch's multi_margin_loss_shape_check (target), and the weight's size (see the top).
std::pair<int64_t, int64_t> multi_margin_shape_check(const Tensor& input, const Tensor& target,
                                                     const Tensor& weight) {
  const auto [nframe, dim] = frames_and_classes(input);
  OPSCOPE_CHECK(target.dim() <= 1 && target.numel() == nframe,
                "inconsistent target size, got: ", shape_str(target.sizes()));
  if (weight.defined()) {
    OPSCOPE_CHECK(weight.dim() <= 1 && weight.numel() == dim, "inconsistent weight size, expected ",
                  dim, " but got ", shape_str(weight.sizes()));
  }
  return {nframe, dim};
}

int64_t checked_margin_p(const Scalar& p) {
  const int64_t pi = p.to_long();
  OPSCOPE_CHECK(pi == 1 || pi == 2, "only p == 1 and p == 2 supported");
  return pi;
}

int64_t checked_class(int64_t y, int64_t dim) {
  OPSCOPE_CHECK(y >= 0 && y < dim, "target out of range");
  return y;
}

// One row x (C) with target y -> sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / C, in T
template <typename T>
T multi_margin_row(const T* x, int64_t y, int64_t dim, int64_t p, T margin, const T* weight) {
  const T x_y = x[y];
  T sum = 0;
  for (int64_t i = 0; i < dim; ++i) {
    if (i == y) continue;
    const T z = margin - x_y + x[i];
    if (z > 0) {
      T h = p == 1 ? z : z * z;
      if (weight != nullptr) h *= weight[y];
      sum += h;
    }
  }
  return sum / static_cast<T>(dim);
}

// self (N, C) or (C) or (), target (N) or () -> output: (N) for reduction none with a 1-D
// target, () otherwise
Tensor multi_margin_loss_out(const Tensor& self, const Tensor& target, const Scalar& p,
                             const Scalar& margin, const Tensor& weight, int64_t reduction,
                             const Tensor& output) {
  const int64_t power = checked_margin_p(p);
  const auto [nframe, dim] = multi_margin_shape_check(self, target, weight);
  const bool per_sample = reduction == ops::kReductionNone && target.dim() > 0;
  resize_output(output, per_sample ? DimVector{nframe} : DimVector{});
  dispatch_float(self.dtype(), "multi_margin_loss_cpu_kernel", [&]<typename T>() {
    check_read_as(ScalarType::Int64, target.dtype());
    if (weight.defined()) check_read_as(self.dtype(), weight.dtype());
    check_read_as(self.dtype(), output.dtype());
    if (self.numel() == 0) {  // N = 0: what the loop below gives (torch leaves output unset)
      if (!per_sample)
        ops::fill_(output, reduction == ops::kReductionMean
                               ? std::numeric_limits<double>::quiet_NaN()
                               : 0.0);
      return;
    }
    const Tensor x_c = contiguous_or_self(self), t_c = contiguous_or_self(target),
                 w_c = contiguous_or_self(weight);
    const T* x = x_c.data_ptr<T>();
    const int64_t* t = t_c.data_ptr<int64_t>();
    const T* w = weight.defined() ? w_c.data_ptr<T>() : nullptr;
    const T m = static_cast<T>(margin.to_double());
    // The rows in parallel; a reduced loss adds them in order afterwards.
    std::vector<T> rows(static_cast<size_t>(nframe));
    parallel_for(
        0, nframe, std::max<int64_t>(1, kGrainSize / dim), [&](int64_t begin, int64_t end) {
          for (int64_t n = begin; n < end; ++n)
            rows[n] = multi_margin_row(x + n * dim, checked_class(t[n], dim), dim, power, m, w);
        });
    DenseOutput out(output);
    if (per_sample) {
      std::copy(rows.begin(), rows.end(), out.data<T>());
    } else {
      double sum = 0;
      for (T r : rows) sum += r;
      if (reduction == ops::kReductionMean) sum /= static_cast<double>(nframe);
      out.data<T>()[0] = static_cast<T>(sum);
    }
    out.finish();
  });
  return output;
}

Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p,
                         const Scalar& margin, const Tensor& weight, int64_t reduction) {
  return multi_margin_loss_out(self, target, p, margin, weight, reduction,
                               make_empty({0}, self.dtype()));
}

// grad_output ((N) for reduction none on a batch, () otherwise), self, target, weight -> self's
// shape: row n gets g_i = w[y] (p 1) or 2 w[y] z_i (p 2) at each class i != y whose
// z_i = margin - x[y] + x[i] is positive, -sum of them at y; times 1 / C (1 / (N C) for the
// mean) and grad_output
Tensor multi_margin_loss_backward_out(const Tensor& grad_output, const Tensor& self,
                                      const Tensor& target, const Scalar& p, const Scalar& margin,
                                      const Tensor& weight, int64_t reduction,
                                      const Tensor& grad_input) {
  const int64_t power = checked_margin_p(p);
  const auto [nframe, dim] = multi_margin_shape_check(self, target, weight);
  resize_output(grad_input, self.sizes());
  if (self.numel() == 0) return grad_input;
  dispatch_float(self.dtype(), "multi_margin_loss_backward_cpu_kernel", [&]<typename T>() {
    check_read_as(ScalarType::Int64, target.dtype());
    if (weight.defined()) check_read_as(self.dtype(), weight.dtype());
    check_read_as(self.dtype(), grad_output.dtype());
    check_read_as(self.dtype(), grad_input.dtype());
    check_grad_output(grad_output, reduction, nframe);
    const Tensor x_c = contiguous_or_self(self), t_c = contiguous_or_self(target),
                 w_c = contiguous_or_self(weight);
    const T* x = x_c.data_ptr<T>();
    const int64_t* t = t_c.data_ptr<int64_t>();
    const T* w = weight.defined() ? w_c.data_ptr<T>() : nullptr;
    const T m = static_cast<T>(margin.to_double());
    const T g =
        static_cast<T>(reduction == ops::kReductionMean ? 1. / static_cast<double>(nframe * dim)
                                                        : 1. / static_cast<double>(dim));
    DenseOutput out(grad_input);
    T* gi = out.data<T>();
    parallel_for(0, nframe, std::max<int64_t>(1, kGrainSize / dim),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t n = begin; n < end; ++n) {
                     const T* row = x + n * dim;
                     T* grad_row = gi + n * dim;
                     const int64_t y = checked_class(t[n], dim);
                     T grad_y = 0;
                     for (int64_t i = 0; i < dim; ++i) {
                       if (i == y) continue;
                       const T z = m - row[y] + row[i];
                       if (z > 0) {
                         T h = power == 1 ? g : 2 * g * z;
                         if (w != nullptr) h *= w[y];
                         grad_y -= h;
                         grad_row[i] = h;
                       } else {
                         grad_row[i] = 0;
                       }
                     }
                     grad_row[y] = grad_y;
                   }
                 });
    scale_by_grad_output(gi, grad_output, reduction, nframe, dim);
    out.finish();
  });
  return grad_input;
}

Tensor multi_margin_loss_backward(const Tensor& grad_output, const Tensor& self,
                                  const Tensor& target, const Scalar& p, const Scalar& margin,
                                  const Tensor& weight, int64_t reduction) {
  return multi_margin_loss_backward_out(grad_output, self, target, p, margin, weight, reduction,
                                        make_empty({0}, self.dtype()));
}

// ==== multilabel_margin_loss ===================================================================

// torch's TensorArg printing: "argument #2 'target'"
std::string tensor_arg(int position, std::string_view name) {
  return detail::str("argument #", position, " '", name, "'");
}

// torch's multilabel_margin_loss_shape_check: target has self's shape ((C) for () or (C)).
std::pair<int64_t, int64_t> multilabel_shape_check(const Tensor& input, const Tensor& target,
                                                   int target_position) {
  const auto [nframe, dim] = frames_and_classes(input);
  const bool ok = input.dim() <= 1
                      ? target.dim() <= 1 && target.numel() == dim
                      : target.dim() == 2 && target.size(0) == nframe && target.size(1) == dim;
  OPSCOPE_CHECK(ok, "inconsistent size ", shape_str(target.sizes()), " for ",
                tensor_arg(target_position, "target"));
  return {nframe, dim};
}

// Every target index in [-1, C): the rows' loops then read only self's own elements.
void check_multilabel_targets(const int64_t* t, int64_t numel, int64_t dim, int target_position) {
  if (numel == 0) return;
  const auto [lo, hi] = std::minmax_element(t, t + numel);
  OPSCOPE_CHECK(*lo >= -1, tensor_arg(target_position, "target"), " is out of range");
  OPSCOPE_CHECK(*hi < dim, tensor_arg(target_position, "target"), " is out of range");
}

// Row x (C) with targets t (C, ended by the first -1) -> is_target row marked, and
// sum_{j in targets} sum_{i not a target} max(0, 1 - x[j] + x[i]), in double
template <typename T>
double multilabel_row(const T* x, const int64_t* t, T* is_target, int64_t dim) {
  for (int64_t k = 0; k < dim && t[k] >= 0; ++k) is_target[t[k]] = 1;
  double sum = 0;
  for (int64_t k = 0; k < dim && t[k] >= 0; ++k) {
    const T x_j = x[t[k]];
    for (int64_t i = 0; i < dim; ++i) {
      if (is_target[i] != 0) continue;
      const T z = 1 - x_j + x[i];
      if (z > 0) sum += z;
    }
  }
  return sum;
}

// self (N, C) or (C) or (), target of self's shape -> (output: (N) for reduction none on a
// batch, () otherwise; is_target: target's shape, self's dtype)
std::tuple<Tensor, Tensor> multilabel_margin_loss_forward_out(const Tensor& self,
                                                              const Tensor& target,
                                                              int64_t reduction,
                                                              const Tensor& output,
                                                              const Tensor& is_target) {
  const auto [nframe, dim] = multilabel_shape_check(self, target, 2);
  const bool per_sample = reduction == ops::kReductionNone && target.dim() > 1;
  resize_output(output, per_sample ? DimVector{nframe} : DimVector{});
  resize_output(is_target, target.sizes());
  OPSCOPE_CHECK(is_target.is_contiguous(), "is_target must be contiguous");
  ops::zero_(is_target);
  if (self.numel() == 0) {  // N = 0: what the loop below gives (torch leaves output unset)
    if (!per_sample)
      ops::fill_(output,
                 reduction == ops::kReductionMean ? std::numeric_limits<double>::quiet_NaN() : 0.0);
    return {output, is_target};
  }
  dispatch_float(self.dtype(), "multilabel_margin_loss_forward_out_frame", [&]<typename T>() {
    check_read_as(ScalarType::Int64, target.dtype());
    const Tensor t_c = contiguous_or_self(target);
    const int64_t* t = t_c.data_ptr<int64_t>();
    check_multilabel_targets(t, t_c.numel(), dim, 2);
    check_read_as(self.dtype(), is_target.dtype());
    check_read_as(self.dtype(), output.dtype());
    const Tensor x_c = contiguous_or_self(self);
    const T* x = x_c.data_ptr<T>();
    T* marks = is_target.data_ptr<T>();
    std::vector<double> rows(static_cast<size_t>(nframe));
    parallel_for(0, nframe, std::max<int64_t>(1, kGrainSize / dim / dim),
                 [&](int64_t b, int64_t e) {
                   for (int64_t n = b; n < e; ++n)
                     rows[n] = multilabel_row(x + n * dim, t + n * dim, marks + n * dim, dim);
                 });
    DenseOutput out(output);
    if (per_sample) {  // each row rounded to T, then divided in T (torch's order)
      for (int64_t n = 0; n < nframe; ++n)
        out.data<T>()[n] = static_cast<T>(rows[n]) / static_cast<T>(dim);
    } else {
      double sum = 0;
      for (double r : rows) sum += r;
      sum /= static_cast<double>(dim);
      if (reduction == ops::kReductionMean) sum /= static_cast<double>(nframe);
      out.data<T>()[0] = static_cast<T>(sum);
    }
    out.finish();
  });
  return {output, is_target};
}

std::tuple<Tensor, Tensor> multilabel_margin_loss_forward(const Tensor& self, const Tensor& target,
                                                          int64_t reduction) {
  return multilabel_margin_loss_forward_out(self, target, reduction, make_empty({0}, self.dtype()),
                                            make_empty({0}, self.dtype()));
}

// grad_output, self, target, is_target (as the forward gave them) -> self's shape: for each
// target j and non-target i with 1 - x[j] + x[i] > 0, +g at i and -g at j, g = 1 / C (1 / (N C)
// for the mean); times grad_output
Tensor multilabel_margin_loss_backward_out(const Tensor& grad_output, const Tensor& self,
                                           const Tensor& target, int64_t reduction,
                                           const Tensor& is_target, const Tensor& grad_input) {
  const auto [nframe, dim] = multilabel_shape_check(self, target, 3);
  OPSCOPE_CHECK(std::ranges::equal(target.sizes(), is_target.sizes()), "Expected tensor for ",
                tensor_arg(3, "target"), " to have same size as tensor for ",
                tensor_arg(5, "is_target"), "; but ", shape_str(target.sizes()), " does not equal ",
                shape_str(is_target.sizes()),
                " (while checking arguments for multilabel_margin_loss_backward_cpu_template)");
  resize_output(grad_input, self.sizes());
  if (grad_input.numel() == 0) return grad_input;
  dispatch_float(self.dtype(), "multilabel_margin_loss_backward_out_frame", [&]<typename T>() {
    check_read_as(ScalarType::Int64, target.dtype());
    const Tensor t_c = contiguous_or_self(target);
    const int64_t* t = t_c.data_ptr<int64_t>();
    check_multilabel_targets(t, t_c.numel(), dim, 3);
    check_read_as(self.dtype(), is_target.dtype());
    const Tensor marks_c = contiguous_or_self(is_target);
    const T* marks = marks_c.data_ptr<T>();
    const auto [lo, hi] = std::minmax_element(marks, marks + marks_c.numel());  // not empty
    OPSCOPE_CHECK(*lo >= 0, tensor_arg(5, "is_target"), " is out of range");
    OPSCOPE_CHECK(*hi <= 1, tensor_arg(5, "is_target"), " is out of range");
    check_read_as(self.dtype(), grad_output.dtype());
    check_read_as(self.dtype(), grad_input.dtype());
    check_grad_output(grad_output, reduction, nframe);
    const Tensor x_c = contiguous_or_self(self);
    const T* x = x_c.data_ptr<T>();
    const T g =
        static_cast<T>(reduction == ops::kReductionMean ? 1. / static_cast<double>(nframe * dim)
                                                        : 1. / static_cast<double>(dim));
    DenseOutput out(grad_input);
    T* gi = out.data<T>();
    std::fill_n(gi, grad_input.numel(), T(0));
    parallel_for(0, nframe, std::max<int64_t>(1, kGrainSize / dim / dim),
                 [&](int64_t b, int64_t e) {
                   for (int64_t n = b; n < e; ++n) {
                     const T* row = x + n * dim;
                     const int64_t* targets = t + n * dim;
                     const T* is_t = marks + n * dim;
                     T* grad_row = gi + n * dim;
                     for (int64_t k = 0; k < dim && targets[k] >= 0; ++k) {
                       const int64_t j = targets[k];
                       const T x_j = row[j];
                       for (int64_t i = 0; i < dim; ++i) {
                         if (is_t[i] != 0) continue;
                         if (1 - x_j + row[i] > 0) {
                           grad_row[j] -= g;
                           grad_row[i] += g;
                         }
                       }
                     }
                   }
                 });
    scale_by_grad_output(gi, grad_output, reduction, nframe, dim);
    out.finish();
  });
  return grad_input;
}

Tensor multilabel_margin_loss_backward(const Tensor& grad_output, const Tensor& self,
                                       const Tensor& target, int64_t reduction,
                                       const Tensor& is_target) {
  return multilabel_margin_loss_backward_out(grad_output, self, target, reduction, is_target,
                                             make_empty({0}, self.dtype()));
}

}  // namespace

static Library cpu_loss_margin(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("multi_margin_loss", fn<&multi_margin_loss>);
  m.impl("multi_margin_loss.out", fn<&multi_margin_loss_out>);
  m.impl("multi_margin_loss_backward", fn<&multi_margin_loss_backward>);
  m.impl("multi_margin_loss_backward.grad_input", fn<&multi_margin_loss_backward_out>);
  m.impl("multilabel_margin_loss_forward", fn<&multilabel_margin_loss_forward>);
  m.impl("multilabel_margin_loss_forward.output", fn<&multilabel_margin_loss_forward_out>);
  m.impl("multilabel_margin_loss_backward", fn<&multilabel_margin_loss_backward>);
  m.impl("multilabel_margin_loss_backward.grad_input", fn<&multilabel_margin_loss_backward_out>);
});

}  // namespace opscope::cpu
