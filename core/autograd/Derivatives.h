// The derivative table: how each differentiable op's backward is computed (opscope's
// derivatives.yaml, in C++), and the node the Autograd kernel records for it.
//
// Semantically an entry says, for one op overload: the node's name (PyTorch's, MulBackward0), which
// tensor arguments are differentiable (one next edge each, in order), what the formula needs from
// the forward — arguments saved as tensors, the result — and the formula itself: the gradients of
// those arguments from the gradients of the op's outputs. Formulas are written with ops, so with
// create_graph=True they are recorded too (double backward). Broadcasting and dtype are not the
// formulas' business: the engine sums a gradient down to its input's shape and converts it to the
// input's dtype (see core/autograd/Engine.h).
//
//   // mul.Tensor(Tensor self, Tensor other) -> Tensor
//   {"aten::mul.Tensor", "MulBackward0", {0, 1}, {0, 1}, false,
//    [](const BackwardContext& c, const variable_list& g) -> variable_list {
//      return {c.needs(0) ? ops::mul(g[0], c.arg(1)) : Tensor(),    // d/dself  = grad * other
//              c.needs(1) ? ops::mul(g[0], c.arg(0)) : Tensor()};   // d/dother = grad * self
//    }},
//
// In-place variants (add_.Tensor) use their functional op's entry: their node rewrites the history
// of self, and a saved self is a copy made before the write.
//
// Note [Tensor lists in the derivative table]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A differentiable `Tensor[]` argument (cat's and stack's tensors) gets one next edge per element,
// in order, and the formula returns one gradient per element in its place: cat([a, b, c]) has
// three edges and its formula returns three gradients. The formula reads the elements' shapes
// with list_size(i) / sizes(i, k) and asks needs(i, k); list elements cannot be saved. An op
// returning `Tensor[]` (split, unbind) makes every floating element an output of the node, so the
// formula gets one gradient per element (a missing one is zero, see Engine.h).
//
// Note [out= overloads and autograd]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The out= overloads of a differentiable op (add.out, sum.IntList_out) have no formula: as in
// torch, calling one in grad mode with a tensor argument that requires grad is an error
// ("add(): functions with out=... arguments don't support automatic differentiation, but one of
// the arguments requires grad."). Library::def gives each such overload the checking kernel of
// out_variant_autograd_kernel() on the Autograd key.
//
// Note [In-place ops without a derivative]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch checks every in-place op in its Autograd kernel, formula or not: writing into a leaf that
// requires grad (`w.uniform_()`, `w.ge_(0)`, `w.floor_divide_(2)`) or into a view of one
// (`w[0] = 5`) in grad mode is an error, since the leaf's value would no longer be what its
// gradient is about. The in-place ops without a derivative entry here would otherwise fall
// through the Autograd keys unchecked, so Library::def gives each of them the checking kernel of
// inplace_autograd_kernel() on the Autograd key (it checks, then runs the op below autograd). The
// same holds for the out= overloads of ops without a derivative (`argmax(x, 0, out=w[0])`): every
// tensor an op writes is checked.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/autograd/Node.h"
#include "core/dispatch/Dispatcher.h"

namespace opscope::autograd {

class DerivativeNode;

// What a formula reads of its node: saved arguments and results, non-tensor arguments, the
// sizes and dtypes of every tensor argument, and which gradients are wanted.
class BackwardContext {
 public:
  explicit BackwardContext(const DerivativeNode& node) : node_(node) {}
  Tensor arg(size_t i) const;           // tensor argument i, as saved
  const IValue& value(size_t i) const;  // non-tensor argument i (a Scalar, a dim list, ...)
  Tensor result(size_t i = 0) const;    // output i, as saved
  IntArrayRef sizes(size_t i) const;    // of tensor argument i
  ScalarType dtype(size_t i) const;     // of tensor argument i
  // Whether the gradient of tensor argument i is needed (its next edge is valid).
  bool needs(size_t i) const;
  // A Tensor[] argument i: how many tensors, element k's sizes and dtype, whether its gradient is
  // needed. See Note [Tensor lists in the derivative table].
  size_t list_size(size_t i) const;
  IntArrayRef sizes(size_t i, size_t k) const;
  ScalarType dtype(size_t i, size_t k) const;
  bool needs(size_t i, size_t k) const;

 private:
  const DerivativeNode& node_;
};

using Formula = variable_list (*)(const BackwardContext& c, const variable_list& grads);

struct Derivative {
  std::string_view op;        // "aten::mul.Tensor"
  std::string_view node;      // "MulBackward0"
  std::vector<int> inputs;    // differentiable tensor (or Tensor[]) arguments, by position
  std::vector<int> save;      // tensor arguments the formula reads with arg()
  bool save_result = false;   // the formula reads result()
  Formula formula = nullptr;  // returns one gradient per next edge (undefined: none)
  std::vector<std::string_view> inplace = {};  // in-place overloads sharing this entry
  // How many leading outputs are differentiable (get this node as grad_fn); -1: every floating
  // one. The rest (max.dim's indices, native_layer_norm's mean and rstd) are plain tensors,
  // still readable with result() when save_result.
  int outputs = -1;
  // (saved argument, input argument): that saved argument is kept only when the gradient of that
  // input is wanted (mul keeps self only for other's gradient), as torch's generated code saves
  // only what the needed gradients read. A saved argument not listed here is always kept.
  std::vector<std::pair<int, int>> save_for = {};
};

// Every entry (core/autograd/derivatives.cpp).
const std::vector<Derivative>& derivatives();

// The node the Autograd kernel records: a derivative's formula with what it saved.
class DerivativeNode final : public Node {
 public:
  explicit DerivativeNode(const Derivative& d) : d_(d) {}
  std::string name() const override { return std::string(d_.node); }
  variable_list apply(variable_list&& grads) override;
  void release_variables() override;

  const Derivative& derivative() const { return d_; }

 private:
  friend class BackwardContext;
  friend void autograd_kernel(const Derivative&, const OperatorHandle&, DispatchKeySet, Stack*);
  const Derivative& d_;
  std::vector<SavedVariable> saved_args_;  // by argument position
  std::vector<IValue> values_;             // non-tensor arguments, by position
  std::vector<DimVector> sizes_;           // of tensor arguments, by position
  std::vector<ScalarType> dtypes_;
  std::vector<std::vector<DimVector>> list_sizes_;  // of Tensor[] arguments' elements
  std::vector<std::vector<ScalarType>> list_dtypes_;
  std::vector<int> input_edge_;  // argument position -> (first) next edge index, or -1
  std::vector<SavedVariable> saved_results_;
};

// The one Autograd kernel: records a DerivativeNode when a differentiable input requires grad
// (and grad mode is on), and runs the op below autograd.
void autograd_kernel(const Derivative& d, const OperatorHandle& op, DispatchKeySet ks,
                     Stack* stack);

// The Autograd kernel of an out= overload whose op has a derivative entry (none for other
// schemas). See Note [out= overloads and autograd].
std::optional<KernelFunction> out_variant_autograd_kernel(const FunctionSchema& schema);

// The Autograd kernel of an op that writes an argument (in place or out=) and has no derivative
// entry (nor out_variant_autograd_kernel's): the leaf checks only. None for other schemas.
// See Note [In-place ops without a derivative].
std::optional<KernelFunction> inplace_autograd_kernel(const FunctionSchema& schema);

}  // namespace opscope::autograd
