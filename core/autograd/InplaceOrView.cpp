#include "core/autograd/InplaceOrView.h"

#include <string_view>
#include <unordered_set>

#include "core/autograd/Derivatives.h"
#include "core/autograd/GradMode.h"
#include "core/dispatch/Library.h"
#include "core/dispatch/Dispatcher.h"
#include "core/ops/TensorIterator.h"

namespace opscope::autograd {

namespace {

// Note [Writing into a tensor whose elements share memory]
// An expanded tensor (`zeros(1).expand(3)`, stride 0) or an as_strided one whose elements overlap
// has several elements at one address: a kernel writing different values to them (scatter_,
// uniform_, mul_, sum(out=), copy_) leaves whichever came last — a silent wrong answer. As torch
// does (assert_no_internal_overlap in each kernel), every op that writes into a tensor refuses
// one with a stride-0 dimension of size > 1; the check lives here, in the one kernel every
// writing op passes (unless it runs in inference mode, which skips this key). Exempt are the ops
// torch allows: those writing one value everywhere they write (fill_, zero_, masked_fill_,
// index_fill_, fill_diagonal_, index_put_) and those changing only sizes and strides.
bool may_write_overlapping(std::string_view op_name) {
  static const std::unordered_set<std::string_view> exempt = {
      "fill_",    "zero_",      "masked_fill_", "index_fill_", "fill_diagonal_", "index_put_",
      "resize_",  "resize_as_", "set_",         "t_",          "transpose_",     "swapdims_",
      "swapaxes_", "squeeze_",  "unsqueeze_",   "as_strided_", "detach_",        "requires_grad_"};
  return exempt.count(op_name) > 0;
}

// What one op's ADInplaceOrView kernel needs of its schema, worked out once when the op is
// defined, not on every call: the positions of the arguments it writes and whether it may write
// overlapping memory.
struct WritePlan {
  std::vector<uint32_t> writes;  // schema positions of the `Tensor(a!)` / `Tensor(a!)[]` arguments
  size_t nargs = 0;
  bool overlap_ok = false;
};

WritePlan plan_of(const FunctionSchema& schema) {
  WritePlan plan;
  plan.nargs = schema.arguments.size();
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    if (a.alias && a.alias->is_write) plan.writes.push_back(static_cast<uint32_t>(i));
  }
  plan.overlap_ok = may_write_overlapping(schema.name);
  return plan;
}

// The tensors a call writes into, kept alive past the kernel (which consumes the stack) to bump
// their versions; up to four without a heap allocation (a foreach op's lists spill over).
class Written {
 public:
  void add(const Tensor& t) {
    if (n_ < kInline) {
      inline_[n_++] = t;
    } else {
      more_.push_back(t);
    }
  }
  template <typename F>
  void each(F&& f) const {
    for (size_t i = 0; i < n_; ++i) f(inline_[i]);
    for (const Tensor& t : more_) f(t);
  }

 private:
  static constexpr size_t kInline = 4;
  Tensor inline_[kInline];
  size_t n_ = 0;
  std::vector<Tensor> more_;
};

void check_inference(const Tensor& t) {
  OPSCOPE_CHECK(!t->is_inference() || inference_mode_enabled(),
                "Inplace update to inference tensor outside InferenceMode is not allowed.You "
                "can make a clone to get a normal tensor before doing inplace update.See "
                "https://github.com/pytorch/rfcs/pull/17 for more details.");
}

void inplace_or_view(const WritePlan& plan, const OperatorHandle& op, DispatchKeySet ks,
                     Stack* stack) {
  const size_t base = stack->size() - plan.nargs;
  Written keep;
  for (uint32_t i : plan.writes) {
    const IValue& v = (*stack)[base + i];
    if (v.is_tensor()) {
      if (const Tensor& t = v.to_tensor(); t.defined()) keep.add(t);
    } else if (v.is_tensor_list()) {  // "Tensor(a!)[] self": a foreach op writes every element
      for (const Tensor& t : v.to_tensor_list())
        if (t.defined()) keep.add(t);
    }
  }
  keep.each([&](const Tensor& t) {
    check_inference(t);
    if (!plan.overlap_ok) assert_no_internal_overlap(*t.impl());
  });
  {
    AutoDispatchBelowADInplaceOrView guard;
    op.redispatch_boxed(ks & kAfterADInplaceOrView, stack);
  }
  keep.each([](const Tensor& t) { t->bump_version(); });
}

KernelFunction planned_kernel(const FunctionSchema& schema) {
  return KernelFunction::boxed(
      [plan = plan_of(schema)](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
        inplace_or_view(plan, op, ks, stack);
      },
      "opscope::autograd::ad_inplace_or_view");
}

}  // namespace

// For an op known only when called: the plan is worked out on every call.
KernelFunction ad_inplace_or_view_kernel() {
  return KernelFunction::boxed(
      [](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
        inplace_or_view(plan_of(op.schema()), op, ks, stack);
      },
      "opscope::autograd::ad_inplace_or_view");
}

// Every op that writes an argument (in place or out=) gets this kernel on ADInplaceOrView, and,
// where autograd has no formula for it, a checking kernel on Autograd (Note [out= overloads and
// autograd], Note [In-place ops without a derivative] in Derivatives.h). Registered as ops are
// defined: see Note [Kernels that follow a def] in core/dispatch/Dispatcher.cpp.
static RegistrationHandle kernels_for_writing_ops =
    Dispatcher::singleton().on_def([](const OperatorHandle& op) {
      std::vector<RegistrationHandle> handles;
      const FunctionSchema& schema = op.schema();
      bool writes = false;
      for (const Argument& a : schema.arguments) writes |= a.alias && a.alias->is_write;
      if (!writes) return handles;
      const std::string site = site_of(std::source_location::current());
      handles.push_back(Dispatcher::singleton().register_impl(
          op.full_name(), DispatchKey::ADInplaceOrView, planned_kernel(schema), site));
      for (auto k : {out_variant_autograd_kernel(schema), inplace_autograd_kernel(schema)})
        if (k)
          handles.push_back(Dispatcher::singleton().register_impl(
              op.full_name(), DispatchKey::Autograd, std::move(*k), site));
      return handles;
    });

}  // namespace opscope::autograd
