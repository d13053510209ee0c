// The Autograd kernel (one boxed kernel for every op of the derivative table) and the node it
// records. PyTorch generates a VariableType kernel per op; this one reads the op's schema and
// its Derivative entry instead.
#include <unordered_map>
#include <unordered_set>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/CopySlices.h"
#include "core/autograd/Derivatives.h"
#include "core/autograd/GradMode.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"

namespace opscope::autograd {

// --- what formulas read ---------------------------------------------------------------------

size_t BackwardContext::position(Arg a) const {
  int p = node_.d_.at.of[a.id()];
  OPSCOPE_CHECK(p >= 0, node_.name(), " (", node_.d_.op, "): its formula reads argument '",
                a.name(), "', which ", node_.d_.op, " does not have");
  return static_cast<size_t>(p);
}

Tensor BackwardContext::arg_at(size_t i) const {
  const auto self = std::const_pointer_cast<Node>(node_.shared_from_this());
  return node_.saved_args_[i].unpack(self);
}
const IValue& BackwardContext::value_at(size_t i) const {
  return node_.values_[i];
}
bool BackwardContext::needs_at(size_t i) const {
  int e = node_.input_edge_[i];
  return e >= 0 && node_.next_edges()[static_cast<size_t>(e)].valid();
}

Tensor BackwardContext::arg(Arg a) const {
  return arg_at(position(a));
}
const IValue& BackwardContext::value(Arg a) const {
  return value_at(position(a));
}
Tensor BackwardContext::result(size_t i) const {
  OPSCOPE_CHECK(i < node_.saved_results_.size(), node_.name(), " did not save its output ", i,
                " (its derivative entry reads result() without save_result)");
  const auto self = std::const_pointer_cast<Node>(node_.shared_from_this());
  return node_.saved_results_[i].unpack(self);
}
IntArrayRef BackwardContext::sizes(Arg a) const {
  return node_.sizes_[position(a)];
}
ScalarType BackwardContext::dtype(Arg a) const {
  return node_.dtypes_[position(a)];
}
Device BackwardContext::device() const {
  return node_.num_inputs() > 0 ? node_.input_metadata(0).device : Device(DeviceType::CPU);
}
bool BackwardContext::needs(Arg a) const {
  return needs_at(position(a));
}
size_t BackwardContext::list_size(Arg a) const {
  return node_.list_sizes_[position(a)].size();
}
IntArrayRef BackwardContext::sizes(Arg a, size_t k) const {
  return node_.list_sizes_[position(a)][k];
}
ScalarType BackwardContext::dtype(Arg a, size_t k) const {
  return node_.list_dtypes_[position(a)][k];
}
bool BackwardContext::needs(Arg a, size_t k) const {
  int e = node_.input_edge_[position(a)];
  return e >= 0 && node_.next_edges()[static_cast<size_t>(e) + k].valid();
}

variable_list DerivativeNode::apply(variable_list&& grads) {
  variable_list out = d_.formula(BackwardContext(*this), grads);
  OPSCOPE_CHECK(out.size() == next_edges().size(), name(), ": its formula returned ", out.size(),
                " gradients for ", next_edges().size(), " inputs");
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

bool any_requires_grad(const IValue& v) {
  if (v.is_tensor()) return v.to_tensor().defined() && v.to_tensor()->requires_grad();
  if (v.is_tensor_list())
    for (const Tensor& t : v.to_tensor_list())
      if (t.defined() && t->requires_grad()) return true;
  return false;
}

// Whether saved argument `i` is read by the gradient of an input that needs one (see
// Derivative::save_for).
bool needed_by_a_wanted_gradient(const Derivative& d, const DerivativeNode& node, int i) {
  bool listed = false;
  for (auto [saved, input] : d.at.save_for) {
    if (saved != i) continue;
    listed = true;
    if (BackwardContext(node).needs_at(static_cast<size_t>(input))) return true;
  }
  return !listed;
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
    for (int i : d.at.inputs)
      needs = needs || any_requires_grad((*stack)[base + static_cast<size_t>(i)]);

  std::shared_ptr<DerivativeNode> node;
  // In-place into a view: the write changes the view's base too (Note [In-place on a view]).
  const Tensor* self = tensor_at(*stack, base);
  const bool into_view = in_place && self && is_differentiable_view(*self);
  if (needs) {
    if (into_view) check_inplace_on_view(*self);
    OPSCOPE_CHECK(!in_place || !self || !is_leaf(*self) || !(*self)->requires_grad(),
                  "a leaf Variable that requires grad is being used in an in-place operation.");
    node = std::make_shared<DerivativeNode>(d);
    node->saved_args_.resize(n);
    node->values_.resize(n);
    node->sizes_.resize(n);
    node->dtypes_.resize(n, ScalarType::Float32);
    node->input_edge_.assign(n, -1);
    node->list_sizes_.resize(n);
    node->list_dtypes_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const IValue& v = (*stack)[base + i];
      if (const Tensor* t = tensor_at(*stack, base + i)) {
        node->sizes_[i] = DimVector(t->sizes().begin(), t->sizes().end());
        node->dtypes_[i] = t->dtype();
      } else if (!v.is_tensor()) {
        node->values_[i] = v;
      }
    }
    for (int input : d.at.inputs) {
      size_t i = static_cast<size_t>(input);
      node->input_edge_[i] = static_cast<int>(node->next_edges().size());
      const IValue& v = (*stack)[base + i];
      if (v.is_tensor_list()) {  // See Note [Tensor lists in the derivative table]
        for (const Tensor& t : v.to_tensor_list()) {
          node->list_sizes_[i].emplace_back(t.sizes().begin(), t.sizes().end());
          node->list_dtypes_[i].push_back(t.dtype());
          node->add_next_edge(gradient_edge(t));
        }
        continue;
      }
      const Tensor* t = tensor_at(*stack, base + i);
      // Into a view, self's gradient is wanted when the base's is: CopySlices routes it.
      bool to_base = into_view && i == 0;
      node->add_next_edge(!t ? Edge{} : gradient_edge(to_base ? view_base_of(*t) : *t));
    }
    for (int i : d.at.save) {
      const Tensor* t = tensor_at(*stack, base + static_cast<size_t>(i));
      if (!t || !needed_by_a_wanted_gradient(d, *node, i)) continue;
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
  if (nret == 1 && stack->back().is_tensor_list()) {  // split, unbind: every element an output
    for (const Tensor& out : stack->back().to_tensor_list())
      if (out.defined() && is_floating(out.dtype())) set_history(out, node);
    return;
  }
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

// --- out= overloads ------------------------------------------------------------------------------

namespace {

// The entry of "aten::mul.Tensor" or of its in-place variant "aten::mul_.Tensor"; null if none.
const Derivative* derivative_of(const std::string& full_name) {
  static const std::unordered_map<std::string, const Derivative*> by_name = [] {
    std::unordered_map<std::string, const Derivative*> m;
    for (const Derivative& d : derivatives()) {
      m.emplace("aten::" + std::string(d.op), &d);
      for (std::string_view name : d.inplace) m.emplace("aten::" + std::string(name), &d);
    }
    return m;
  }();
  auto it = by_name.find(full_name);
  return it == by_name.end() ? nullptr : it->second;
}


// See Note [In-place ops without a derivative] in core/autograd/Derivatives.h.
void inplace_check_kernel(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t base = stack->size() - schema.arguments.size();
  for (size_t i = 0; i < schema.arguments.size() && grad_mode_enabled(); ++i) {
    const Argument& a = schema.arguments[i];
    if (!a.alias || !a.alias->is_write) continue;
    std::vector<Tensor> written;  // one tensor, or each of a foreach op's "Tensor(a!)[]"
    if (const Tensor* t = tensor_at(*stack, base + i)) written.push_back(*t);
    if ((*stack)[base + i].is_tensor_list()) written = (*stack)[base + i].to_tensor_list();
    for (const Tensor& w : written) {
      if (!w.defined() || !w->requires_grad()) continue;
      if (is_differentiable_view(w)) check_inplace_on_view(w);
      OPSCOPE_CHECK(!is_leaf(w),
                    "a leaf Variable that requires grad is being used in an in-place operation.");
    }
  }
  AutoDispatchBelowAutograd guard;  // ADInplaceOrView still runs: it bumps versions
  op.redispatch_boxed(ks & kAfterAutograd, stack);
}

// "aten::add" for every op with an entry (any overload).
bool has_derivative(const std::string& qualified_name) {
  static const std::unordered_set<std::string> names = [] {
    std::unordered_set<std::string> s;
    for (const Derivative& d : derivatives())
      s.emplace("aten::" + std::string(d.op.substr(0, d.op.find('.'))));
    return s;
  }();
  return names.count(qualified_name) > 0;
}

// See Note [out= overloads and autograd] in core/autograd/Derivatives.h.
void out_variant_kernel(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const size_t n = op.schema().arguments.size(), base = stack->size() - n;
  if (grad_mode_enabled())
    for (size_t i = 0; i < n; ++i)
      OPSCOPE_CHECK(!any_requires_grad((*stack)[base + i]), op.schema().name,
                    "(): functions with out=... arguments don't support automatic "
                    "differentiation, but one of the arguments requires grad.");
  AutoDispatchBelowAutograd guard;  // ADInplaceOrView still runs: out's version is bumped
  op.redispatch_boxed(ks & kAfterAutograd, stack);
}

}  // namespace

std::optional<KernelFunction> out_variant_autograd_kernel(const FunctionSchema& schema) {
  if (!schema.is_out_variant() || !has_derivative(schema.qualified_name())) return std::nullopt;
  return KernelFunction::autograd(&out_variant_kernel, "opscope::autograd::out_variant_kernel");
}

std::optional<KernelFunction> inplace_autograd_kernel(const FunctionSchema& schema) {
  bool writes = false;
  for (const Argument& a : schema.arguments) writes = writes || (a.alias && a.alias->is_write);
  if (!writes || derivative_of(schema.full_name()) || out_variant_autograd_kernel(schema))
    return std::nullopt;
  return KernelFunction::autograd(&inplace_check_kernel, "opscope::autograd::inplace_check_kernel");
}

// --- registration -------------------------------------------------------------------------------

namespace {

KernelFunction kernel_for(const Derivative& d) {
  return KernelFunction::autograd([&d](const OperatorHandle& op, DispatchKeySet ks,
                                       Stack* stack) { autograd_kernel(d, op, ks, stack); },
                                  "opscope::autograd::autograd_kernel");
}

}  // namespace

// Each op of the table gets the Autograd kernel as it is defined, when its schema is known: its
// entry's argument names are resolved then, once (Note [Arguments by name in the derivative
// table] in Derivatives.h; Note [Kernels that follow a def] in core/dispatch/Dispatcher.cpp).
static RegistrationHandle autograd_kernels =
    Dispatcher::singleton().on_def([](const OperatorHandle& op) {
      std::vector<RegistrationHandle> handles;
      const Derivative* d = derivative_of(op.full_name());
      if (!d) return handles;
      resolve_arguments(*d, op.schema());
      handles.push_back(Dispatcher::singleton().register_impl(
          op.full_name(), DispatchKey::Autograd, kernel_for(*d),
          site_of(std::source_location::current())));
      return handles;
    });

}  // namespace opscope::autograd
