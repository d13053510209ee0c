// Node and Edge: the backward graph.
//
// Semantically, every differentiable op that ran on a tensor requiring grad leaves a Node (named
// like PyTorch's: MulBackward0, MmBackward0): given the gradients of the op's outputs, it returns
// the gradients of its inputs. Its next edges say where those go — the node that produced each
// input (its grad_fn) or, for a leaf the user created, its AccumulateGrad node, which adds the
// gradient into the leaf's .grad. backward() walks this graph from the loss (core/autograd/
// Engine.h).
//
//   x (leaf) ──► AccumulateGrad ◄── MulBackward0 ◄── SumBackward0 ◄── loss.backward()
//                                   (x * w)          (.sum())
//
// In implementation terms nodes are shared_ptrs: a tensor holds its grad_fn, a node holds the
// nodes of its inputs, so the graph lives exactly as long as some output does. The sequence number
// orders nodes by creation; the engine runs later nodes first, and traces use it to link a
// backward node to the forward op that made it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/SmallVector.h"
#include "core/tensor/Tensor.h"

namespace opscope::autograd {

class Node;
using variable_list = std::vector<Tensor>;

// A function of a gradient (Tensor.register_hook): returns its replacement, or an undefined
// tensor to leave it as it is.
using GradHook = std::function<Tensor(const Tensor&)>;
// Hooks on a whole node (grad_fn.register_prehook / register_hook). A pre-hook gets the gradients
// of the node's forward outputs (its inputs), a post-hook also what the node returned (the
// gradients of its forward inputs); each returns replacements — for the inputs, for what the node
// returned — or an empty list to leave them. Undefined tensors stand for None.
using NodePreHook = std::function<variable_list(const variable_list& grad_outputs)>;
using NodePostHook = std::function<variable_list(const variable_list& grad_inputs,
                                                 const variable_list& grad_outputs)>;

// Where a gradient goes: input `input_nr` of `function`. An invalid edge (no function) stands
// for an input that does not require grad.
struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool valid() const { return function != nullptr; }
};

// What the engine checks a gradient against, for each input of a node (= each forward output the
// node differentiates): its shape, dtype and device.
struct InputMetadata {
  DimVector sizes;
  ScalarType dtype = ScalarType::Float32;
  Device device;
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  Node();  // takes the thread's next sequence number
  explicit Node(uint64_t sequence_nr) : sequence_nr_(sequence_nr) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // PyTorch's class name of this node: "MulBackward0", "AccumulateGrad".
  virtual std::string name() const = 0;
  // grads[i] is the gradient of the node's input i (undefined: zero); returns one gradient per
  // next edge (undefined: zero or not needed).
  virtual variable_list apply(variable_list&& grads) = 0;
  // Frees what the node saved, after a backward without retain_graph.
  virtual void release_variables() {}

  uint64_t sequence_nr() const { return sequence_nr_; }
  const std::vector<Edge>& next_edges() const { return next_edges_; }
  void add_next_edge(Edge e) { next_edges_.push_back(std::move(e)); }
  void set_next_edge(size_t i, Edge e) { next_edges_[i] = std::move(e); }
  // Records a forward output this node differentiates; returns its input number.
  uint32_t add_input_metadata(const Tensor& t);
  uint32_t add_input_metadata(InputMetadata m);
  size_t num_inputs() const { return input_metadata_.size(); }
  const InputMetadata& input_metadata(size_t i) const { return input_metadata_[i]; }

  // Hooks on the gradient of input `input_nr` (the gradient of that forward output), run by the
  // engine before apply() in registration order, the retain_grad ones last. Returns an id for
  // remove_pre_hook.
  uint64_t add_pre_hook(uint32_t input_nr, GradHook hook, bool retains_grad = false);
  // Hooks on the whole node: pre-hooks run after the tensors' ones, post-hooks after apply().
  uint64_t add_node_pre_hook(NodePreHook hook);
  uint64_t add_post_hook(NodePostHook hook);
  // Removes a hook of any kind by the id its add_* returned.
  void remove_pre_hook(uint64_t id);
  // Runs the hooks over the node's input gradients (the engine, before apply and captures).
  virtual void run_pre_hooks(variable_list& grads);
  bool has_post_hooks() const { return !post_hooks_.empty(); }
  void run_post_hooks(variable_list& grad_inputs, const variable_list& grad_outputs);
  // Whether the engine replaces a missing input gradient by zeros before apply() (a custom
  // Function's ctx.set_materialize_grads(False) asks for None instead).
  virtual bool materializes_grads() const { return true; }

 private:
  struct PreHook {
    uint64_t id;
    uint32_t input_nr;
    GradHook fn;
    bool retains_grad;
  };
  std::vector<PreHook> pre_hooks_;
  std::vector<std::pair<uint64_t, NodePreHook>> node_pre_hooks_;
  std::vector<std::pair<uint64_t, NodePostHook>> post_hooks_;
  uint64_t sequence_nr_;
  std::vector<Edge> next_edges_;
  std::vector<InputMetadata> input_metadata_;
};

// The node of a leaf that requires grad: accumulates into leaf.grad. It keeps the leaf alive
// while the graph lives, as PyTorch's does. Its sequence number is the largest there is (as in
// torch): among ready nodes, gradients are handed to leaves first.
class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor leaf);
  std::string name() const override { return "AccumulateGrad"; }
  variable_list apply(variable_list&& grads) override;
  // The leaf's own hooks (Tensor.register_hook on a leaf) run here, then any on the node.
  void run_pre_hooks(variable_list& grads) override;
  const Tensor& variable() const { return leaf_; }

 private:
  Tensor leaf_;
};

// A tensor a node needs in backward (an input or an output of its op), and the version it had
// when saved: unpacking it after an in-place write is torch's "one of the variables needed for
// gradient computation has been modified by an inplace operation" error, unpacking it after
// release_variables() the "backward through the graph a second time" one.
//
// An input is kept as it is (its grad_fn is upstream of the node: no cycle). An output is kept
// as a detached alias — the output itself would hold this node as its grad_fn, a cycle — and gets
// the node back as grad_fn when unpacked, so a formula that uses it stays differentiable
// (create_graph).
//
// While saved-tensor hooks are installed (autograd.graph.saved_tensors_hooks), a SavedVariable
// keeps only what the pack hook returned, and unpack() calls the unpack hook.
class SavedTensorHooks {
 public:
  virtual ~SavedTensorHooks() = default;
  virtual void pack(const Tensor& t) = 0;  // keeps whatever it makes of t
  virtual Tensor unpack() = 0;             // gives a tensor back from it
};
// Makes one SavedTensorHooks per saved tensor. The innermost installed factory is used.
using SavedTensorHooksFactory = std::function<std::unique_ptr<SavedTensorHooks>()>;
// Installs a factory on this thread's stack (saved_tensors_hooks.__enter__ / __exit__).
void push_saved_tensors_hooks(SavedTensorHooksFactory factory);
void pop_saved_tensors_hooks();

class SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& t, bool is_output);
  // `owner` is the node that saved it (needed for outputs).
  Tensor unpack(const std::shared_ptr<Node>& owner) const;
  void release();
  bool defined() const { return was_defined_; }

 private:
  Tensor data_;                              // without hooks
  std::shared_ptr<SavedTensorHooks> hooks_;  // with hooks (data_ is then undefined)
  intrusive_ptr<VersionCounter> version_counter_;
  std::string type_name_;  // for the modified-in-place error, when data_ is not kept
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool is_leaf_ = false;
  bool was_defined_ = false;
  bool released_ = false;
};

// --- the autograd state of tensors --------------------------------------------------------------

// Where the gradient of t goes: its grad_fn (and which of that node's inputs), its
// AccumulateGrad node when it is a leaf that requires grad, or an invalid edge.
Edge gradient_edge(const Tensor& t);
// The leaf's AccumulateGrad node (one per leaf, made on first use, held weakly by the leaf).
std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);
// Makes `fn` the grad_fn of `output` (as input `fn->add_input_metadata(output)` of fn).
void set_history(const Tensor& output, const std::shared_ptr<Node>& fn);
// Tensor.register_hook: on a leaf, kept with the leaf (its AccumulateGrad runs it); on a
// non-leaf, a pre-hook of its grad_fn. Returns an id for remove_tensor_hook.
uint64_t register_tensor_hook(const Tensor& t, GradHook hook);
void remove_tensor_hook(const Tensor& t, uint64_t id);
// Tensor.retain_grad: a non-leaf's .grad is filled by backward too (a leaf's always is).
void retain_grad(const Tensor& t);
bool retains_grad(const Tensor& t);

// The tensor's grad_fn, or null for leaves and tensors outside autograd. A view's is remade first
// if an in-place write made it stale (Note [In-place on a view], core/autograd/CopySlices.h).
std::shared_ptr<Node> grad_fn(const Tensor& t);
bool is_leaf(const Tensor& t);

// Tells dispatch observers that `n` was just recorded (see AutogradEvent in
// core/dispatch/Observer.h); costs one branch when nothing observes.
void report_node_created(const Node& n);

}  // namespace opscope::autograd
