#include "core/autograd/Engine.h"

#include <cstddef>
#include <mutex>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/GradMode.h"
#include "core/dispatch/Observer.h"
#include "core/ops/copy.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"

namespace opscope::autograd {

namespace {

std::string sizes_str(IntArrayRef s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

// The sum of g over the dims it was broadcast along, so that it has `sizes` (torch's sum_to).
// False when g is not a broadcast of that shape.
bool sum_to(const Tensor& g, IntArrayRef sizes, Tensor* out) {
  const int64_t lead = g.dim() - static_cast<int64_t>(sizes.size());
  if (lead < 0) return false;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < g.dim(); ++d) {
    if (d < lead) {
      dims.push_back(d);
      continue;
    }
    int64_t want = sizes[static_cast<size_t>(d - lead)], have = g.size(d);
    if (want == have) continue;
    if (want != 1) return false;
    dims.push_back(d);
  }
  Tensor r = dims.empty() ? g : ops::sum(g, IntArrayRef(dims), /*keepdim=*/true, std::nullopt);
  *out = ops::view(r, sizes);
  return true;
}

// Checks (and adapts) the gradient `fn` returned for next edge `i`, as torch's validate_outputs.
Tensor validated(const Node& fn, size_t i, Tensor g, const InputMetadata& meta) {
  if (!std::ranges::equal(g.sizes(), IntArrayRef(meta.sizes))) {
    Tensor reduced;
    OPSCOPE_CHECK(sum_to(g, meta.sizes, &reduced), "Function ", fn.name(),
                  " returned an invalid gradient at index ", i, " - got ", sizes_str(g.sizes()),
                  " but expected shape compatible with ", sizes_str(meta.sizes));
    g = reduced;
  }
  if (g.dtype() != meta.dtype) g = ops::to(g, meta.dtype);
  return g;
}

// Adds g into slot `nr` of a node's input buffer.
void accumulate(variable_list& buffer, size_t nr, Tensor g) {
  if (!g.defined()) return;
  Tensor& slot = buffer[nr];
  slot = slot.defined() ? ops::add(slot, g) : std::move(g);
}

// Tells dispatch observers that the engine runs a node (begin, then end — also when it throws),
// so the ops its hooks and formula call nest under it in a trace.
class ReportRun {
 public:
  explicit ReportRun(const Node& n) : node_(n), observed_(detail::dispatch_observed()) {
    if (observed_) report(AutogradEventKind::NodeBegin);
  }
  ~ReportRun() {
    if (observed_) report(AutogradEventKind::NodeEnd);
  }
  ReportRun(const ReportRun&) = delete;
  ReportRun& operator=(const ReportRun&) = delete;

 private:
  void report(AutogradEventKind kind) const {
    const std::string name = node_.name();
    detail::notify_autograd({kind, name, node_.sequence_nr(), &node_});
  }
  const Node& node_;
  bool observed_;
};

// Note [Concurrent accumulation]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Several threads may run backward at once over graphs that share leaves (a model's parameters
// used by every thread). Each backward is its own GraphTask, but a shared leaf's AccumulateGrad
// adds into the one .grad of that leaf, a read-modify-write of the tensor: run unserialized, two
// threads lose one another's gradient (or both set .grad at once). So the engine runs a leaf's
// accumulation holding a lock of that leaf — one of kAccumulateLocks, chosen by the leaf's
// TensorImpl address — as PyTorch's AccumulateGrad holds its node's mutex. The hooks before it
// (register_hook on the leaf, retain_grad) and after it run outside the lock.
//
// The lock is held while the accumulation's add_ dispatches, so observers run under it (an op
// hook written in Python takes the GIL there). That is safe because no thread holding the GIL
// ever waits for it: the engine always runs with the GIL released (opscope._C's _backward and
// _grad let it go; a Python hook or kernel the engine calls takes it and gives it back). See
// Note [No Python object dies under a lock] in core/dispatch/Observer.cpp. The locks are
// recursive: a hook running under one may start a backward of its own that lands on the same one.
constexpr size_t kAccumulateLocks = 64;

std::recursive_mutex& accumulate_lock(const AccumulateGrad& acc) {
  static std::recursive_mutex locks[kAccumulateLocks];
  auto address = reinterpret_cast<uintptr_t>(acc.variable().impl_ptr().get());
  return locks[(address / alignof(std::max_align_t)) % kAccumulateLocks];
}

struct Target {
  size_t index;  // into the result of grad()
  uint32_t input_nr;
};

// One run of the engine over the graph reachable from `roots`.
class GraphTask {
 public:
  GraphTask(const std::vector<Edge>& roots, const BackwardOptions& options) : options_(options) {
    count_dependencies(roots);
  }

  // Only nodes with a path to one of these run; gradients reaching them are kept (grad()).
  void capture(const std::vector<Edge>& targets, bool accumulate_into_leaves) {
    accumulate_ = accumulate_into_leaves;
    for (size_t i = 0; i < targets.size(); ++i)
      targets_[targets[i].function.get()].push_back({i, targets[i].input_nr});
    captured_.resize(targets.size());
    mark_needed();
  }
  // Only these leaves' AccumulateGrad nodes (and the nodes on paths to them) run.
  void only_leaves(const std::vector<Edge>& leaves) {
    for (const Edge& e : leaves) leaf_targets_.insert(e.function.get());
    mark_needed();
  }

  variable_list run(const std::vector<Edge>& roots, variable_list grads) {
    for (size_t i = 0; i < roots.size(); ++i) send(roots[i], std::move(grads[i]), nullptr, i);
    while (!ready_.empty()) {
      std::shared_ptr<Node> fn = ready_.top().fn;
      ready_.pop();
      variable_list inputs = std::move(buffers_[fn.get()]);
      buffers_.erase(fn.get());
      variable_list outputs;
      {
        ReportRun report(*fn);
        {
          // As torch's engine: hooks see grad mode on only under create_graph=True.
          GradModeGuard mode(options_.create_graph);
          fn->run_pre_hooks(inputs);  // Tensor.register_hook, retain_grad
        }
        if (auto t = targets_.find(fn.get()); t != targets_.end())
          for (const Target& c : t->second) accumulate(captured_, c.index, inputs[c.input_nr]);
        if (should_run(*fn)) outputs = call(*fn, std::move(inputs));
      }
      const auto& edges = fn->next_edges();
      for (size_t i = 0; i < edges.size(); ++i)
        send(edges[i], i < outputs.size() ? std::move(outputs[i]) : Tensor(), fn.get(), i);
    }
    return std::move(captured_);
  }

 private:
  struct Ready {
    std::shared_ptr<Node> fn;
    bool operator<(const Ready& o) const { return fn->sequence_nr() < o.fn->sequence_nr(); }
  };

  void count_dependencies(const std::vector<Edge>& roots) {
    std::vector<Node*> stack;
    for (const Edge& e : roots)
      if (e.valid() && seen_.insert(e.function.get()).second) stack.push_back(e.function.get());
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (const Edge& e : n->next_edges()) {
        if (!e.valid()) continue;
        ++dependencies_[e.function.get()];
        if (seen_.insert(e.function.get()).second) stack.push_back(e.function.get());
      }
    }
  }

  // needed_[n]: n has a path to a target (so it must run, or at least pass gradients on).
  void mark_needed() {
    // Reverse topological order by a second walk: a node is needed when it is a target or one
    // of its next nodes is needed. Nodes are visited in post-order (iteratively: graphs of a
    // long loop are deep).
    prune_ = true;
    std::unordered_map<Node*, bool> done;
    std::vector<std::pair<Node*, size_t>> stack;
    for (Node* root : seen_) {
      if (done.count(root)) continue;
      stack.push_back({root, 0});
      done[root] = false;
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        const auto& edges = n->next_edges();
        if (next < edges.size()) {
          Node* child = edges[next++].function.get();
          if (child && !done.count(child)) {
            done[child] = false;
            stack.push_back({child, 0});
          }
          continue;
        }
        bool needed = targets_.count(n) || leaf_targets_.count(n);
        for (const Edge& e : edges)
          if (e.valid() && needed_.count(e.function.get())) needed = true;
        if (needed) needed_.insert(n);
        done[n] = true;
        stack.pop_back();
      }
    }
  }

  bool should_run(const Node& fn) const {
    bool is_accumulate = dynamic_cast<const AccumulateGrad*>(&fn) != nullptr;
    if (is_accumulate && !accumulate_) return false;
    if (!prune_) return true;
    if (is_accumulate) return leaf_targets_.empty() || leaf_targets_.count(const_cast<Node*>(&fn));
    for (const Edge& e : fn.next_edges())
      if (e.valid() && needed_.count(e.function.get())) return true;
    return false;
  }

  // The node's formula; a leaf's accumulation holds that leaf's lock, since its .grad is shared
  // by every thread's backward (Note [Concurrent accumulation]).
  static variable_list apply(Node& fn, variable_list inputs) {
    if (const auto* acc = dynamic_cast<const AccumulateGrad*>(&fn)) {
      std::lock_guard lock(accumulate_lock(*acc));
      return fn.apply(std::move(inputs));
    }
    return fn.apply(std::move(inputs));
  }

  variable_list call(Node& fn, variable_list inputs) {
    bool any = false;
    for (const Tensor& g : inputs) any = any || g.defined();
    if (!any) return {};
    for (size_t i = 0; i < inputs.size() && fn.materializes_grads(); ++i) {
      if (inputs[i].defined()) continue;  // a missing gradient is a zero one
      const InputMetadata& m = fn.input_metadata(i);
      inputs[i] = ops::zeros(IntArrayRef(m.sizes), m.dtype, std::nullopt, m.device);
    }
    variable_list outputs;
    {
      GradModeGuard mode(options_.create_graph);
      if (fn.has_post_hooks()) {
        variable_list grad_outputs = inputs;
        outputs = apply(fn, std::move(inputs));
        outputs.resize(fn.next_edges().size());
        fn.run_post_hooks(outputs, grad_outputs);
      } else {
        outputs = apply(fn, std::move(inputs));
      }
    }
    if (!options_.keep_graph) fn.release_variables();
    OPSCOPE_CHECK(outputs.empty() || outputs.size() == fn.next_edges().size(), "Function ",
                  fn.name(), " returned an incorrect number of gradients (expected ",
                  fn.next_edges().size(), ", got ", outputs.size(), ")");
    return outputs;
  }

  // Delivers g, gradient i of node `from` (null: of root i), along edge e; e's node becomes ready
  // when all its gradients are in.
  void send(const Edge& e, Tensor g, const Node* from, size_t i) {
    if (!e.valid()) return;
    Node* n = e.function.get();
    auto [it, fresh] = buffers_.try_emplace(n);
    if (fresh) it->second.resize(n->num_inputs());
    if (g.defined()) {
      GradModeGuard mode(options_.create_graph);
      const InputMetadata& meta = n->input_metadata(e.input_nr);
      if (!from) {
        OPSCOPE_CHECK(std::ranges::equal(g.sizes(), IntArrayRef(meta.sizes)),
                      "Mismatch in shape: grad_output[", i, "] has a shape of torch.Size(",
                      sizes_str(g.sizes()), ") and output[", i, "] has a shape of torch.Size(",
                      sizes_str(meta.sizes), ").");
        if (g.dtype() != meta.dtype) g = ops::to(g, meta.dtype);
      } else {
        g = validated(*from, i, std::move(g), meta);
      }
      accumulate(it->second, e.input_nr, std::move(g));
    }
    if (--dependencies_[n] <= 0) ready_.push({e.function});
  }

  BackwardOptions options_;
  std::unordered_set<Node*> seen_;
  std::unordered_map<Node*, int> dependencies_;
  std::unordered_map<Node*, variable_list> buffers_;
  std::priority_queue<Ready> ready_;
  std::unordered_map<Node*, std::vector<Target>> targets_;
  std::unordered_set<Node*> leaf_targets_;
  std::unordered_set<Node*> needed_;
  variable_list captured_;
  bool accumulate_ = true;
  bool prune_ = false;
};

std::vector<Edge> root_edges(const variable_list& roots, variable_list& grads) {
  OPSCOPE_CHECK(grads.empty() || grads.size() == roots.size(), "grad_tensors has ", grads.size(),
                " elements, but there are ", roots.size(), " tensors");
  grads.resize(roots.size());
  std::vector<Edge> edges;
  for (size_t i = 0; i < roots.size(); ++i) {
    const Tensor& r = roots[i];
    Edge e = gradient_edge(r);
    OPSCOPE_CHECK(e.valid(), "element ", i,
                  " of tensors does not require grad and does not have a grad_fn");
    if (!grads[i].defined()) {
      OPSCOPE_CHECK(r.numel() == 1, "grad can be implicitly created only for scalar outputs");
      // ones_like, as torch's engine: a subclass output seeds with its own kind of tensor, and a
      // mode sees ones_like (contiguous, torch's LEGACY_CONTIGUOUS_MEMORY_FORMAT).
      grads[i] = ops::ones_like(r, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                ops::kContiguousFormat);
    }
    edges.push_back(std::move(e));
  }
  return edges;
}

}  // namespace

void backward(const variable_list& roots, variable_list grads, const BackwardOptions& options,
              const variable_list& inputs) {
  std::vector<Edge> edges = root_edges(roots, grads);
  GraphTask task(edges, options);
  if (!inputs.empty()) {
    std::vector<Edge> leaves;
    for (const Tensor& t : inputs) {
      OPSCOPE_CHECK(is_leaf(t) && t.defined() && t->requires_grad(),
                    "backward(inputs=...): only leaf tensors that require grad are supported");
      leaves.push_back(gradient_edge(t));
    }
    task.only_leaves(leaves);
  }
  task.run(edges, std::move(grads));
}

variable_list grad(const variable_list& outputs, const variable_list& inputs, variable_list grads,
                   const BackwardOptions& options, bool allow_unused) {
  std::vector<Edge> edges = root_edges(outputs, grads);
  std::vector<Edge> targets;
  for (const Tensor& t : inputs) {
    Edge e = gradient_edge(t);
    OPSCOPE_CHECK(e.valid(), "One of the differentiated Tensors does not require grad");
    targets.push_back(std::move(e));
  }
  GraphTask task(edges, options);
  task.capture(targets, /*accumulate_into_leaves=*/false);
  variable_list result = task.run(edges, std::move(grads));
  for (const Tensor& g : result)
    OPSCOPE_CHECK(g.defined() || allow_unused,
                  "One of the differentiated Tensors appears to not have been used in the graph. "
                  "Set allow_unused=True if this is the desired behavior.");
  return result;
}

}  // namespace opscope::autograd
