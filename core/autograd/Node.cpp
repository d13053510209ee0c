#include "core/autograd/Node.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/CopySlices.h"
#include "core/autograd/GradMode.h"
#include "core/dispatch/Observer.h"
#include "core/ops/copy.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/factories.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/unary.h"

namespace opscope::autograd {

namespace {

thread_local uint64_t t_next_sequence_nr = 0;

// How torch's autograd messages name a tensor: "[torch.FloatTensor [2, 3]]".
std::string legacy_type_name(const Tensor& t) {
  std::string n;
  switch (t.dtype()) {
    case ScalarType::Float32:
      n = "Float";
      break;
    case ScalarType::Float64:
      n = "Double";
      break;
    case ScalarType::Float16:
      n = "Half";
      break;
    case ScalarType::BFloat16:
      n = "BFloat16";
      break;
    case ScalarType::Int64:
      n = "Long";
      break;
    case ScalarType::Int32:
      n = "Int";
      break;
    case ScalarType::Int16:
      n = "Short";
      break;
    case ScalarType::Int8:
      n = "Char";
      break;
    case ScalarType::UInt8:
      n = "Byte";
      break;
    case ScalarType::Bool:
      n = "Bool";
      break;
    default:
      n = "Undefined";
      break;
  }
  std::string shape;
  for (size_t i = 0; i < t.sizes().size(); ++i)
    shape += (i ? ", " : "") + std::to_string(t.sizes()[i]);
  return "[torch." + n + "Tensor [" + shape + "]]";
}

// t with no autograd state: same storage, same version counter, not a view of t for autograd.
Tensor detached_alias(const Tensor& t) {
  return make_alias_not_view(t);
}

}  // namespace

Node::Node() : sequence_nr_(t_next_sequence_nr++) {}

uint32_t Node::add_input_metadata(const Tensor& t) {
  return add_input_metadata(
      InputMetadata{DimVector(t.sizes().begin(), t.sizes().end()), t.dtype(), t.device()});
}

uint32_t Node::add_input_metadata(InputMetadata m) {
  input_metadata_.push_back(std::move(m));
  return static_cast<uint32_t>(input_metadata_.size() - 1);
}

namespace {
uint64_t next_hook_id() {
  static std::atomic<uint64_t> id{1};
  return id.fetch_add(1, std::memory_order_relaxed);
}

// Runs hook on g: its result replaces g unless it is undefined.
void run_hook(const GradHook& hook, Tensor& g) {
  if (!g.defined()) return;
  Tensor r = hook(g);
  if (r.defined()) g = std::move(r);
}
}  // namespace

uint64_t Node::add_pre_hook(uint32_t input_nr, GradHook hook, bool retains_grad) {
  uint64_t id = next_hook_id();
  PreHook h{id, input_nr, std::move(hook), retains_grad};
  if (retains_grad) {
    pre_hooks_.push_back(std::move(h));
  } else {  // before the retain_grad hooks, which see the final gradient
    auto pos = std::find_if(pre_hooks_.begin(), pre_hooks_.end(),
                            [](const PreHook& p) { return p.retains_grad; });
    pre_hooks_.insert(pos, std::move(h));
  }
  return id;
}

uint64_t Node::add_node_pre_hook(NodePreHook hook) {
  uint64_t id = next_hook_id();
  node_pre_hooks_.emplace_back(id, std::move(hook));
  return id;
}

uint64_t Node::add_post_hook(NodePostHook hook) {
  uint64_t id = next_hook_id();
  post_hooks_.emplace_back(id, std::move(hook));
  return id;
}

void Node::remove_pre_hook(uint64_t id) {
  std::erase_if(pre_hooks_, [id](const PreHook& h) { return h.id == id; });
  std::erase_if(node_pre_hooks_, [id](const auto& h) { return h.first == id; });
  std::erase_if(post_hooks_, [id](const auto& h) { return h.first == id; });
}

namespace {
// A node hook's replacement list, checked against what it replaces (torch's message).
void replace_all(variable_list& grads, variable_list&& r, const Node& n) {
  if (r.empty()) return;
  OPSCOPE_CHECK(r.size() == grads.size(), "hook for ", n.name(),
                " has returned an incorrect number of values (got ", r.size(), ", but expected ",
                grads.size(), ")");
  grads = std::move(r);
}
}  // namespace

void Node::run_pre_hooks(variable_list& grads) {
  auto hooks = pre_hooks_;  // a copy: a hook may remove hooks
  for (const PreHook& h : hooks)
    if (h.input_nr < grads.size()) run_hook(h.fn, grads[h.input_nr]);
  auto node_hooks = node_pre_hooks_;
  for (const auto& [id, hook] : node_hooks) replace_all(grads, hook(grads), *this);
}

void Node::run_post_hooks(variable_list& grad_inputs, const variable_list& grad_outputs) {
  auto hooks = post_hooks_;
  for (const auto& [id, hook] : hooks)
    replace_all(grad_inputs, hook(grad_inputs, grad_outputs), *this);
}

// --- AccumulateGrad ---------------------------------------------------------------------------

AccumulateGrad::AccumulateGrad(Tensor leaf)
    : Node(std::numeric_limits<uint64_t>::max()), leaf_(std::move(leaf)) {
  add_input_metadata(leaf_);
}

void AccumulateGrad::run_pre_hooks(variable_list& grads) {
  if (AutogradMeta* m = get_autograd_meta(leaf_)) {
    auto hooks = m->leaf_hooks;  // a copy: a hook may remove itself
    for (auto& [id, hook] : hooks) run_hook(hook, grads[0]);
  }
  Node::run_pre_hooks(grads);
}

// Note [Gradient layout contract]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// What a leaf's .grad looks like in memory, as PyTorch's AccumulateGrad promises it:
//   - a leaf that is non-overlapping and dense (contiguous, transposed, channels-last, any
//     permutation of a row-major block) gets a .grad with the leaf's own strides;
//   - any other leaf (a strided slice, an expand) gets a row-major contiguous .grad.
// So an optimizer reads parameter and gradient with one index, in one pass over memory, and
// weight.grad.view(-1) works where weight.view(-1) does. Dims of size 1 may have any stride (they
// are never stepped over), except 0: a size-1 dim of stride 0 is a broadcast view, not storage
// of its own.
//
// The first gradient is stolen — kept as it is, no copy — when it already obeys the contract,
// nobody else holds it and no graph is being built; otherwise it is copied into the contract's
// layout (under create_graph by copy_, so the copy is differentiable: CopyBackwards). Later
// gradients are added in place (no graph) or out of place (create_graph): either way the result
// keeps the first one's layout. retain_grad's .grad of a non-leaf is a contiguous copy, and
// autograd.grad returns the gradients as computed, with no contract (Engine.cpp).
namespace {

bool obeys_layout_contract(const Tensor& grad, const Tensor& leaf) {
  if (!is_non_overlapping_and_dense(*leaf.impl())) return grad.is_contiguous();
  for (int64_t d = 0; d < grad.dim(); ++d) {
    if (grad.size(d) != 1 ? grad.stride(d) != leaf.stride(d) : grad.stride(d) == 0) return false;
  }
  return true;
}

// A copy of grad laid out as Note [Gradient layout contract] asks for leaf's .grad.
Tensor clone_obeying_contract(const Tensor& grad, const Tensor& leaf) {
  if (!is_non_overlapping_and_dense(*leaf.impl())) return ops::clone(grad, ops::kContiguousFormat);
  Tensor r = ops::empty_strided(leaf.sizes(), leaf.strides(), grad.dtype(), std::nullopt,
                                grad.device());
  return ops::copy_(r, grad);
}

}  // namespace

// leaf.grad = grad, stolen or copied into the contract's layout (Note [Gradient layout
// contract]); or leaf.grad += grad: in place, or out of place under create_graph so the sum
// stays differentiable.
variable_list AccumulateGrad::apply(variable_list&& grads) {
  Tensor g = std::move(grads[0]);
  if (!g.defined()) return {};
  AutogradMeta& m = materialize_autograd_meta(leaf_);
  const bool create_graph = grad_mode_enabled();
  if (!m.grad.defined()) {
    bool steal = !create_graph && g.impl_ptr().use_count() == 1 && obeys_layout_contract(g, leaf_);
    m.grad = steal ? detached_alias(g) : clone_obeying_contract(g, leaf_);
  } else if (create_graph) {
    m.grad = ops::add(m.grad, g);
  } else {
    ops::add_(m.grad, g);
  }
  return {};
}

// --- SavedVariable ----------------------------------------------------------------------------

namespace {
thread_local std::vector<SavedTensorHooksFactory> t_saved_tensors_hooks;
}  // namespace

void push_saved_tensors_hooks(SavedTensorHooksFactory factory) {
  t_saved_tensors_hooks.push_back(std::move(factory));
}

void pop_saved_tensors_hooks() {
  OPSCOPE_CHECK(!t_saved_tensors_hooks.empty(), "no saved tensors hooks to pop");
  t_saved_tensors_hooks.pop_back();
}

SavedVariable::SavedVariable(const Tensor& t, bool is_output) {
  if (!t.defined()) return;
  OPSCOPE_CHECK(!t->is_inference(),
                "Inference tensors cannot be saved for backward. To work around you can make a "
                "clone to get a normal tensor and use it in autograd.");
  was_defined_ = true;
  is_output_ = is_output;
  saved_version_ = t->version();
  if (AutogradMeta* m = is_output ? get_autograd_meta(t) : nullptr) output_nr_ = m->output_nr;
  // An output is kept without its grad_fn (which is the node saving it: a cycle otherwise).
  Tensor kept = is_output ? detached_alias(t) : t;
  if (t_saved_tensors_hooks.empty()) {
    data_ = std::move(kept);
    return;
  }
  hooks_ = t_saved_tensors_hooks.back()();
  version_counter_ = t->version_counter();
  type_name_ = legacy_type_name(t);
  hooks_->pack(kept);
}

void SavedVariable::release() {
  data_ = Tensor();
  hooks_.reset();
  released_ = true;
}

Tensor SavedVariable::unpack(const std::shared_ptr<Node>& owner) const {
  if (!was_defined_) return Tensor();
  OPSCOPE_CHECK(!released_,
                "Trying to backward through the graph a second time (or directly access saved "
                "tensors after they have already been freed). Saved intermediate values of the "
                "graph are freed when you call .backward() or autograd.grad(). Specify "
                "retain_graph=True if you need to backward through the graph a second time or if "
                "you need to access saved tensors after calling backward.");
  const uint32_t version = hooks_ ? version_counter_->version.load() : data_->version();
  if (version != saved_version_) {
    std::string which;
    std::shared_ptr<Node> fn = is_output_ ? owner : (data_.defined() ? grad_fn(data_) : nullptr);
    AutogradMeta* m = data_.defined() ? get_autograd_meta(data_) : nullptr;
    uint32_t nr = is_output_ ? output_nr_ : (m ? m->output_nr : 0);
    if (fn) which = ", which is output " + std::to_string(nr) + " of " + fn->name() + ",";
    OPSCOPE_CHECK(false,
                  "one of the variables needed for gradient computation has been modified by an "
                  "inplace operation: ",
                  hooks_ ? type_name_ : legacy_type_name(data_), which, " is at version ", version,
                  "; expected version ", saved_version_,
                  " instead. Hint: enable anomaly detection to find the operation that failed to "
                  "compute its gradient, with torch.autograd.set_detect_anomaly(True).");
  }
  const Tensor& data = hooks_ ? hooks_->unpack() : data_;
  if (!is_output_) return data;
  Tensor r = detached_alias(data);
  if (owner) {
    AutogradMeta& m = materialize_autograd_meta(r);
    m.grad_fn = owner;
    m.output_nr = output_nr_;
  }
  return r;
}

// --- the autograd state of tensors --------------------------------------------------------------

std::shared_ptr<Node> grad_fn(const Tensor& t) {
  if (!t.defined()) return nullptr;
  if (t->view_base()) refresh_view_grad_fn(t);
  AutogradMeta* m = get_autograd_meta(t);
  return m ? m->grad_fn : nullptr;
}

bool is_leaf(const Tensor& t) {
  return grad_fn(t) == nullptr;
}

std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  AutogradMeta& m = materialize_autograd_meta(leaf);
  if (auto acc = m.grad_accumulator.lock()) return acc;
  auto acc = std::make_shared<AccumulateGrad>(leaf);
  m.grad_accumulator = acc;
  report_node_created(*acc);
  return acc;
}

Edge gradient_edge(const Tensor& t) {
  if (!t.defined()) return {};
  if (t->view_base()) refresh_view_grad_fn(t);
  AutogradMeta* m = get_autograd_meta(t);
  if (!m) return {};
  if (m->grad_fn) return {m->grad_fn, m->output_nr};
  if (m->requires_grad_) return {grad_accumulator(t), 0};
  return {};
}

uint64_t register_tensor_hook(const Tensor& t, GradHook hook) {
  OPSCOPE_CHECK(t->requires_grad(),
                "cannot register a hook on a tensor that doesn't require gradient");
  AutogradMeta& m = materialize_autograd_meta(t);
  if (!m.grad_fn) {
    uint64_t id = next_hook_id();
    m.leaf_hooks.emplace_back(id, std::move(hook));
    return id;
  }
  return m.grad_fn->add_pre_hook(m.output_nr, std::move(hook));
}

void remove_tensor_hook(const Tensor& t, uint64_t id) {
  AutogradMeta* m = get_autograd_meta(t);
  if (!m) return;
  std::erase_if(m->leaf_hooks, [id](const auto& h) { return h.first == id; });
  if (m->grad_fn) m->grad_fn->remove_pre_hook(id);
}

void retain_grad(const Tensor& t) {
  OPSCOPE_CHECK(t->requires_grad(), "can't retain_grad on Tensor that has requires_grad=False");
  AutogradMeta& m = materialize_autograd_meta(t);
  if (!m.grad_fn || m.retain_hook) return;  // a leaf's .grad is always filled
  AutogradMeta* meta = &m;  // the hook dies with the metadata (~AutogradMeta removes it)
  m.retain_hook = m.grad_fn->add_pre_hook(
      m.output_nr,
      [meta](const Tensor& g) {
        if (!meta->grad.defined())  // a contiguous copy, as torch's retain_grad hook makes
          meta->grad = ops::clone(g, ops::kContiguousFormat);
        else
          meta->grad = ops::add(meta->grad, g);
        return Tensor();
      },
      /*retains_grad=*/true);
}

bool retains_grad(const Tensor& t) {
  AutogradMeta* m = get_autograd_meta(t);
  return m && m->retain_hook != 0;
}

void set_history(const Tensor& output, const std::shared_ptr<Node>& fn) {
  AutogradMeta& m = materialize_autograd_meta(output);
  m.output_nr = fn->add_input_metadata(output);
  m.grad_fn = fn;
  if (output->view_base()) output->set_view_attr_version(output->version());
}

void report_node_created(const Node& n) {
  if (!detail::dispatch_observed()) return;
  const std::string name = n.name();
  std::vector<std::string> next;
  for (const Edge& e : n.next_edges()) next.push_back(e.valid() ? e.function->name() : "");
  detail::notify_autograd({AutogradEventKind::NodeCreated, name, n.sequence_nr(), &n, &next});
}

}  // namespace opscope::autograd
