// CUDA kernels of the optimizer family, host side: the _foreach_* ops and the fused SGD /
// Adam / AdamW / RMSprop steps that core/ops/cpu/optim.cpp registers for the CPU, with its
// schemas, checks and messages, and its arithmetic per element (optim.cu).
//
// Up to kListTensors indices go to one launch (ListArgs): block b updates one chunk of one
// tensor, so a step over a model's parameters is a few launches, not one per tensor. As on the
// CPU (Note [One pass over a parameter's tensors], core/ops/cpu/optim.cpp), the tensors at one
// index are read as flat arrays when they share one dense layout, else through contiguous
// copies whose written ones are copied back after the launch.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/optim.h"
#include "core/ops/utility.h"

namespace opscope::cuda {

namespace {

// The CPU kernel's list checks (same messages), and every tensor on self[0]'s GPU.
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
      check_same_device(first[0], l[i], op);
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

// The tensors at one list index, list by list (undefined: a list the step does not use).
using Row = std::array<Tensor, kListLists>;

// Launches `launch(args)` over the rows, kListTensors at a time (a batch also ends where the
// dtype changes). The lists whose bit is set in `written` are written: when a row's tensors do
// not share one dense layout they are run on contiguous copies and those lists copied back after
// the launch.
// extra(args, t, i) fills what a launch needs beyond the data for row i at batch slot t.
template <typename Extra, typename Launch>
void run_lists(const std::vector<Row>& rows, unsigned written, Extra&& extra, Launch&& launch) {
  ListArgs a;
  std::vector<std::pair<Tensor, Tensor>> back;  // (given, copy) to write back after the launch
  std::vector<Tensor> keep;                     // copies alive until the launch is queued
  auto flush = [&] {
    if (a.ntensors > 0) {
      launch(a);
      for (auto& [given, work] : back) ops::copy_(given, work);
    }
    a = ListArgs();
    back.clear();
    keep.clear();
  };
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const Tensor& ref = r[0];
    if (a.ntensors > 0 && a.dt != dt_of(ref.dtype())) flush();
    a.dt = dt_of(ref.dtype());
    bool alike = true;
    for (const Tensor& t : r) alike = alike && (!t.defined() || laid_out_like(t, ref));
    const int slot = a.ntensors;
    for (int l = 0; l < kListLists; ++l) {
      Tensor w = r[static_cast<size_t>(l)];
      if (w.defined() && !alike) {
        Tensor c = ops::contiguous(w);
        if (!c.is_same(w)) {
          keep.push_back(c);
          if ((written >> l) & 1u) back.emplace_back(w, c);
        }
        w = c;
      }
      a.data[l][slot] = w.defined() ? w.data() : nullptr;
    }
    a.numel[slot] = ref.numel();
    a.block_start[slot + 1] = a.block_start[slot] + (ref.numel() + kListChunk - 1) / kListChunk;
    extra(a, slot, i);
    a.ntensors = slot + 1;
    if (a.ntensors == kListTensors) flush();
  }
  flush();
}

auto no_extra = [](ListArgs&, int, size_t) {};

std::vector<Row> rows_of(std::initializer_list<TensorList> lists) {
  std::vector<Row> rows(lists.begin()->size());
  int l = 0;
  for (TensorList list : lists) {
    for (size_t i = 0; i < rows.size(); ++i) rows[i][static_cast<size_t>(l)] = list[i];
    ++l;
  }
  return rows;
}

void foreach_run(std::string_view op, ForeachOp f, std::initializer_list<TensorList> lists,
                 double s) {
  check_lists(op, lists);
  CUDAGuard guard(lists.begin()->front().device());
  run_lists(rows_of(lists), 0b1u, no_extra,
            [&](const ListArgs& a) { launch_foreach(f, a, s, current_stream_ptr()); });
}

std::vector<Tensor> clones(TensorList self) {
  std::vector<Tensor> r;
  r.reserve(self.size());
  for (const Tensor& t : self) r.push_back(ops::clone(t));
  return r;
}

// The in-place ops, by schema.
void foreach_add_scalar_(TensorList self, const Scalar& s) {
  foreach_run("_foreach_add_", ForeachOp::AddScalar, {self}, s.to_double());
}
void foreach_sub_scalar_(TensorList self, const Scalar& s) {
  foreach_run("_foreach_sub_", ForeachOp::SubScalar, {self}, s.to_double());
}
void foreach_mul_scalar_(TensorList self, const Scalar& s) {
  foreach_run("_foreach_mul_", ForeachOp::MulScalar, {self}, s.to_double());
}
void foreach_div_scalar_(TensorList self, const Scalar& s) {
  foreach_run("_foreach_div_", ForeachOp::DivScalar, {self}, s.to_double());
}
void foreach_add_list_(TensorList self, TensorList other, const Scalar& alpha) {
  foreach_run("_foreach_add_", ForeachOp::AddList, {self, other}, alpha.to_double());
}
void foreach_sub_list_(TensorList self, TensorList other, const Scalar& alpha) {
  foreach_run("_foreach_sub_", ForeachOp::SubList, {self, other}, alpha.to_double());
}
void foreach_mul_list_(TensorList self, TensorList other) {
  foreach_run("_foreach_mul_", ForeachOp::MulList, {self, other}, 1);
}
void foreach_div_list_(TensorList self, TensorList other) {
  foreach_run("_foreach_div_", ForeachOp::DivList, {self, other}, 1);
}
void foreach_maximum_list_(TensorList self, TensorList other) {
  foreach_run("_foreach_maximum_", ForeachOp::MaxList, {self, other}, 1);
}
void foreach_addcmul_(TensorList self, TensorList t1, TensorList t2, const Scalar& value) {
  foreach_run("_foreach_addcmul_", ForeachOp::Addcmul, {self, t1, t2}, value.to_double());
}
void foreach_addcdiv_(TensorList self, TensorList t1, TensorList t2, const Scalar& value) {
  foreach_run("_foreach_addcdiv_", ForeachOp::Addcdiv, {self, t1, t2}, value.to_double());
}
void foreach_lerp_(TensorList self, TensorList end, const Scalar& weight) {
  foreach_run("_foreach_lerp_", ForeachOp::Lerp, {self, end}, weight.to_double());
}
void foreach_sqrt_(TensorList self) { foreach_run("_foreach_sqrt_", ForeachOp::Sqrt, {self}, 0); }
void foreach_neg_(TensorList self) { foreach_run("_foreach_neg_", ForeachOp::Neg, {self}, 0); }
void foreach_zero_(TensorList self) { foreach_run("_foreach_zero_", ForeachOp::Zero, {self}, 0); }

// Out of place: the in-place op on clones of self (self's layout kept, as torch's results).
template <typename F>
std::vector<Tensor> out_of_place(std::string_view op, std::initializer_list<TensorList> lists,
                                 F&& in_place) {
  check_lists(op, lists);
  auto r = clones(*lists.begin());
  in_place(TensorList(r));
  return r;
}
std::vector<Tensor> foreach_add_scalar(TensorList self, const Scalar& s) {
  return out_of_place("_foreach_add", {self}, [&](TensorList r) { foreach_add_scalar_(r, s); });
}
std::vector<Tensor> foreach_sub_scalar(TensorList self, const Scalar& s) {
  return out_of_place("_foreach_sub", {self}, [&](TensorList r) { foreach_sub_scalar_(r, s); });
}
std::vector<Tensor> foreach_mul_scalar(TensorList self, const Scalar& s) {
  return out_of_place("_foreach_mul", {self}, [&](TensorList r) { foreach_mul_scalar_(r, s); });
}
std::vector<Tensor> foreach_div_scalar(TensorList self, const Scalar& s) {
  return out_of_place("_foreach_div", {self}, [&](TensorList r) { foreach_div_scalar_(r, s); });
}
std::vector<Tensor> foreach_add_list(TensorList self, TensorList other, const Scalar& alpha) {
  return out_of_place("_foreach_add", {self, other},
                      [&](TensorList r) { foreach_add_list_(r, other, alpha); });
}
std::vector<Tensor> foreach_sub_list(TensorList self, TensorList other, const Scalar& alpha) {
  return out_of_place("_foreach_sub", {self, other},
                      [&](TensorList r) { foreach_sub_list_(r, other, alpha); });
}
std::vector<Tensor> foreach_mul_list(TensorList self, TensorList other) {
  return out_of_place("_foreach_mul", {self, other},
                      [&](TensorList r) { foreach_mul_list_(r, other); });
}
std::vector<Tensor> foreach_div_list(TensorList self, TensorList other) {
  return out_of_place("_foreach_div", {self, other},
                      [&](TensorList r) { foreach_div_list_(r, other); });
}
std::vector<Tensor> foreach_maximum_list(TensorList self, TensorList other) {
  return out_of_place("_foreach_maximum", {self, other},
                      [&](TensorList r) { foreach_maximum_list_(r, other); });
}
std::vector<Tensor> foreach_addcmul(TensorList self, TensorList t1, TensorList t2,
                                    const Scalar& value) {
  return out_of_place("_foreach_addcmul", {self, t1, t2},
                      [&](TensorList r) { foreach_addcmul_(r, t1, t2, value); });
}
std::vector<Tensor> foreach_addcdiv(TensorList self, TensorList t1, TensorList t2,
                                    const Scalar& value) {
  return out_of_place("_foreach_addcdiv", {self, t1, t2},
                      [&](TensorList r) { foreach_addcdiv_(r, t1, t2, value); });
}
std::vector<Tensor> foreach_lerp(TensorList self, TensorList end, const Scalar& weight) {
  return out_of_place("_foreach_lerp", {self, end},
                      [&](TensorList r) { foreach_lerp_(r, end, weight); });
}
std::vector<Tensor> foreach_sqrt(TensorList self) {
  return out_of_place("_foreach_sqrt", {self}, [&](TensorList r) { foreach_sqrt_(r); });
}
std::vector<Tensor> foreach_neg(TensorList self) {
  return out_of_place("_foreach_neg", {self}, [&](TensorList r) { foreach_neg_(r); });
}

// --- fused optimizer steps -------------------------------------------------------------------

void check_no_grad_scale(std::string_view op, const Tensor& grad_scale, const Tensor& found_inf) {
  OPSCOPE_CHECK(!grad_scale.defined() && !found_inf.defined(), op,
                ": grad_scale and found_inf (AMP's gradient scaling) are not supported on CUDA");
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
  CUDAGuard guard(self.front().device());
  std::vector<Row> rows = with_momentum ? rows_of({self, grads, momentum_buffer_list})
                                        : rows_of({self, grads});
  const SgdParams p{weight_decay, momentum, lr,           dampening,
                    nesterov,     maximize, is_first_step, with_momentum};
  // Written: the parameter (0) and the momentum buffer (2).
  run_lists(rows, 0b101u, no_extra,
            [&](const ListArgs& a) { launch_fused_sgd(a, p, current_stream_ptr()); });
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
  for (const Tensor& s : state_steps)
    OPSCOPE_CHECK(s.defined() && s.numel() == 1, op, ": state_steps must be one-element tensors");
  CUDAGuard guard(self.front().device());
  // Step counts on this GPU are read by the kernel (no synchronization); others (torch 1.13's
  // CPU steps) on the host.
  std::optional<DT> device_step_dt;
  for (const Tensor& s : state_steps) {
    const ScalarType t = s.dtype();
    if (s.device() == self.front().device() &&
        (t == ScalarType::Float32 || t == ScalarType::Float64 || t == ScalarType::Int64)) {
      device_step_dt = dt_of(t);
      break;
    }
  }
  auto steps = [&](ListArgs& a, int slot, size_t i) {
    const Tensor& s = state_steps[i];
    if (device_step_dt) a.step_dt = *device_step_dt;
    if (device_step_dt && s.device() == self.front().device() && dt_of(s.dtype()) == a.step_dt) {
      a.step[slot] = s.data();
    } else {
      a.step[slot] = nullptr;
      a.host_step[slot] = ops::item(s).to_double();
    }
  };
  std::vector<Row> rows = amsgrad ? rows_of({self, exp_avgs, exp_avg_sqs, grads, max_exp_avg_sqs})
                                  : rows_of({self, exp_avgs, exp_avg_sqs, grads});
  const AdamParams p{lr, beta1, beta2, weight_decay, eps, amsgrad, maximize, decoupled};
  // Written: param, exp_avg, exp_avg_sq and max_exp_avg_sq (4); not grad (3).
  run_lists(rows, 0b10111u, steps,
            [&](const ListArgs& a) { launch_fused_adam(a, p, current_stream_ptr()); });
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

void fused_rmsprop_(TensorList self, TensorList grads, TensorList square_avgs,
                    TensorList grad_avgs, TensorList momentum_buffer_list, double lr,
                    double alpha, double eps, double weight_decay, double momentum, bool centered,
                    bool maximize) {
  const bool with_momentum = momentum > 0;
  check_lists("_fused_rmsprop_", {self, grads, square_avgs});
  if (centered) check_lists("_fused_rmsprop_", {self, grad_avgs});
  if (with_momentum) check_lists("_fused_rmsprop_", {self, momentum_buffer_list});
  CUDAGuard guard(self.front().device());
  std::vector<Row> rows = rows_of({self, grads, square_avgs});
  for (size_t i = 0; i < rows.size(); ++i) {
    if (centered) rows[i][3] = grad_avgs[i];
    if (with_momentum) rows[i][4] = momentum_buffer_list[i];
  }
  const RmspropParams p{lr, alpha, eps, weight_decay, momentum, centered, with_momentum, maximize};
  run_lists(rows, 0b11101u, no_extra,  // all but grad (1)
            [&](const ListArgs& a) { launch_fused_rmsprop(a, p, current_stream_ptr()); });
}

}  // namespace

static Library cuda_optim(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
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

}  // namespace opscope::cuda
