// The Autograd kernel (one boxed kernel for every op of the derivative table) and the node it
// records. PyTorch generates a VariableType kernel per op; this one reads the op's schema and
// its Derivative entry instead.
#include "core/autograd/AutogradMeta.h"
#include "core/autograd/CopySlices.h"
#include "core/autograd/Derivatives.h"
#include "core/autograd/GradMode.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"

namespace opscope::autograd {

// --- what formulas read ---------------------------------------------------------------------

Tensor BackwardContext::arg(size_t i) const {
  const auto self = std::const_pointer_cast<Node>(node_.shared_from_this());
  return node_.saved_args_[i].unpack(self);
}
const IValue& BackwardContext::value(size_t i) const {
  return node_.values_[i];
}
Tensor BackwardContext::result(size_t i) const {
  const auto self = std::const_pointer_cast<Node>(node_.shared_from_this());
  return node_.saved_results_[i].unpack(self);
}
IntArrayRef BackwardContext::sizes(size_t i) const {
  return node_.sizes_[i];
}
ScalarType BackwardContext::dtype(size_t i) const {
  return node_.dtypes_[i];
}
bool BackwardContext::needs(size_t i) const {
  int e = node_.input_edge_[i];
  return e >= 0 && node_.next_edges()[static_cast<size_t>(e)].valid();
}

variable_list DerivativeNode::apply(variable_list&& grads) {
  variable_list out = d_.formula(BackwardContext(*this), grads);
  OPSCOPE_CHECK(out.size() == d_.inputs.size(), name(), ": its formula returned ", out.size(),
                " gradients for ", d_.inputs.size(), " inputs");
  return out;
}

void DerivativeNode::release_variables() {
  for (SavedVariable& v : saved_args_) v.release();
  for (SavedVariable& v : saved_results_) v.release();
}

// --- the kernel ---------------------------------------------------------------------------------

namespace {

const Tensor* tensor_at(const Stack& s, size_t i) {
  return s[i].is_tensor() && s[i].to_tensor().defined() ? &s[i].to_tensor() : nullptr;
}

bool writes_self(const FunctionSchema& schema) {
  return !schema.arguments.empty() && schema.arguments[0].alias &&
         schema.arguments[0].alias->is_write;
}

}  // namespace

// See Note [The Autograd kernel] in core/autograd/Derivatives.h.
void autograd_kernel(const Derivative& d, const OperatorHandle& op, DispatchKeySet ks,
                     Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  const size_t base = stack->size() - n;
  const bool in_place = writes_self(schema);

  bool needs = false;
  if (grad_mode_enabled())
    for (int i : d.inputs)
      if (const Tensor* t = tensor_at(*stack, base + static_cast<size_t>(i));
          t && (*t)->requires_grad())
        needs = true;

  std::shared_ptr<DerivativeNode> node;
  // In-place into a view: the write changes the view's base too (Note [In-place on a view]).
  const Tensor* self = tensor_at(*stack, base);
  const bool into_view = in_place && self && (*self)->view_base() && is_floating(self->dtype());
  if (needs) {
    if (into_view) {
      TensorImpl* b = (*self)->view_base();
      OPSCOPE_CHECK(!b->requires_grad() || !is_leaf(Tensor(intrusive_ptr<TensorImpl>(b))),
                    "a view of a leaf Variable that requires grad is being used in an in-place "
                    "operation.");
    }
    OPSCOPE_CHECK(!in_place || !self || !is_leaf(*self) || !(*self)->requires_grad(),
                  "a leaf Variable that requires grad is being used in an in-place operation.");
    node = std::make_shared<DerivativeNode>(d);
    node->saved_args_.resize(n);
    node->values_.resize(n);
    node->sizes_.resize(n);
    node->dtypes_.resize(n, ScalarType::Float32);
    node->input_edge_.assign(n, -1);
    for (size_t i = 0; i < n; ++i) {
      const IValue& v = (*stack)[base + i];
      if (const Tensor* t = tensor_at(*stack, base + i)) {
        node->sizes_[i] = DimVector(t->sizes().begin(), t->sizes().end());
        node->dtypes_[i] = t->dtype();
      } else if (!v.is_tensor()) {
        node->values_[i] = v;
      }
    }
    for (size_t k = 0; k < d.inputs.size(); ++k) {
      size_t i = static_cast<size_t>(d.inputs[k]);
      const Tensor* t = tensor_at(*stack, base + i);
      node->input_edge_[i] = static_cast<int>(k);
      // Into a view, self's gradient is wanted when the base's is: CopySlices routes it.
      bool to_base = into_view && i == 0;
      node->add_next_edge(
          !t ? Edge{} : gradient_edge(to_base ? Tensor(intrusive_ptr((*t)->view_base())) : *t));
    }
    for (int i : d.save) {
      const Tensor* t = tensor_at(*stack, base + static_cast<size_t>(i));
      if (!t) continue;
      if (in_place && i == 0) {
        // self is about to be overwritten: keep a copy of it, recorded (CloneBackward0) as
        // torch's original_self is, so the formula stays differentiable.
        node->saved_args_[0] = SavedVariable(ops::clone(*t), false);
      } else {
        node->saved_args_[static_cast<size_t>(i)] = SavedVariable(*t, false);
      }
    }
  }

  if (op.entry().writes_or_views()) {
    AutoDispatchBelowAutograd guard;  // ADInplaceOrView still runs: it bumps versions
    op.redispatch_boxed(ks & kAfterAutograd, stack);
  } else {
    AutoDispatchBelowADInplaceOrView guard;
    op.redispatch_boxed(ks & kAfterAutograd, stack);
  }
  if (!node) return;
  report_node_created(*node);

  const size_t nret = schema.returns.size(), first = stack->size() - nret;
  for (size_t r = first; r < stack->size(); ++r) {
    const Tensor* out = tensor_at(*stack, r);
    bool differentiable = out && is_floating(out->dtype()) &&
                          (d.outputs < 0 || r - first < static_cast<size_t>(d.outputs));
    if (differentiable) {
      if (into_view && r == first)
        rebase_history(*out, node);
      else
        set_history(*out, node);
    }
    if (d.save_result)
      node->saved_results_.push_back(out ? SavedVariable(*out, differentiable) : SavedVariable());
  }
}

// --- registration -------------------------------------------------------------------------------

namespace {

KernelFunction kernel_for(const Derivative& d) {
  return KernelFunction::autograd([&d](const OperatorHandle& op, DispatchKeySet ks,
                                       Stack* stack) { autograd_kernel(d, op, ks, stack); },
                                  "opscope::autograd::autograd_kernel");
}

}  // namespace

static Library autograd_kernels(Library::IMPL, "aten", [](Library& m) {
  for (const Derivative& d : derivatives()) {
    m.impl(d.op, DispatchKey::Autograd, kernel_for(d));
    for (std::string_view name : d.inplace) m.impl(name, DispatchKey::Autograd, kernel_for(d));
  }
});

}  // namespace opscope::autograd
