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
//   {.op = "mul.Tensor", .node = "MulBackward0", .inputs = {"self", "other"},
//    .save = {"self", "other"}, .save_for = {{"self", "other"}, {"other", "self"}},
//    .formula = [](C c, G g) -> variable_list {
//      return {c.needs("self") ? ops::mul(g[0], c.arg("other")) : Tensor(),   // self: grad * other
//              c.needs("other") ? ops::mul(g[0], c.arg("self")) : Tensor()};  // other: grad * self
//    },
//    .inplace = {"mul_.Tensor"}},
//
// The entries live in core/autograd/derivatives/, one file per op family as core/ops files them
// (unary.cpp, binary.cpp, ..., see core/ops/README.md), each next to the forward schema it undoes.
// Op names carry no "aten::" (the namespace is implied, as in derivatives.yaml), so
// grepping core for an op's quoted name finds its schema, its kernel row and its derivative.
//
// In-place variants (add_.Tensor) use their functional op's entry: their node rewrites the history
// of self, and a saved self is a copy made before the write.
//
// Note [Arguments by name in the derivative table]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An entry names the op's arguments as its schema does, in its fields (.inputs = {"self",
// "other"}) and in its formula (c.arg("other"), c.value("dim")), as derivatives.yaml writes
// `self: grad * other`. No string is looked up per call or per backward; names are resolved
// twice, each time once:
//   - at compile time, an Arg made from a string literal (a consteval constructor) becomes that
//     name's index in kArgNames, the vocabulary of argument names the table's ops use. A name
//     missing from it (a typo, or a new op's argument: add it) does not compile.
//   - once per entry, when its op's schema is defined (the listener that registers the Autograd
//     kernel, see Note [Kernels that follow a def] in core/dispatch/Dispatcher.cpp),
//     resolve_arguments() fills the entry's runtime data (Derivative::at): the schema position of
//     every vocabulary name (-1: the op has no such argument), and the positions of inputs, save
//     and save_for. A field naming an argument the schema lacks, or a non-tensor input, fails
//     then, naming the entry and the argument. An in-place variant (mul_.Tensor) shares its
//     entry, so its schema must give every name the same position; that is checked as it is
//     defined.
// The Autograd kernel then reads positions only, and c.arg("other") is two array loads: the
// position at the name's index, the saved argument at that position. A name used only inside a
// formula, which the op's schema lacks, fails at the formula's first backward, naming the entry
// and the name. tests/cpp/test_derivatives.cpp walks the whole table: every op and in-place name
// is a defined op, every field's name is one of its arguments, every input a tensor.
//
// Note [Tensor lists in the derivative table]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A differentiable `Tensor[]` argument (cat's and stack's tensors) gets one next edge per element,
// in order, and the formula returns one gradient per element in its place: cat([a, b, c]) has
// three edges and its formula returns three gradients. The formula reads the elements' shapes
// with list_size("tensors") / sizes("tensors", k) and asks needs("tensors", k); list elements
// cannot be saved. An op returning `Tensor[]` (split, unbind) makes every floating element an
// output of the node, so the formula gets one gradient per element (a missing one is zero, see
// Engine.h).
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

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/autograd/Node.h"
#include "core/dispatch/Dispatcher.h"

namespace opscope::autograd {

class DerivativeNode;

// The argument names the table's entries and formulas may use: every argument name of the ops
// it covers. See Note [Arguments by name in the derivative table].
inline constexpr std::string_view kArgNames[] = {
    "A", "B", "UPLO", "b", "compute_uv", "compute_v", "full_matrices", "hermitian", "left",
    "mode", "upper", "lower", "noise", "lambd", "N", "C", "HxW", "group", "output_size",
    "grid", "interpolation_mode", "padding_mode", "theta",
    "align_corners", "scale_factors", "mean", "std", "n", "weights",
    "delta", "momentum", "running_mean", "running_var", "training",
    "margin", "upscale_factor", "downscale_factor",
    "x1", "x2", "grad", "cdist", "pdist",
    "i1", "i2", "i3", "expand1", "expand2", "expand3", "sumdim", "unroll_dim",
    "ceil_mode", "count_include_pad", "dilation", "divisor_override", "groups", "kernel_size",
    "output_padding", "padding", "transposed", "unitriangular",
    "accumulate", "alpha", "approximate", "batch1", "batch2", "beta", "bias", "condition",
    "correction", "decimals", "descending", "device", "diagonal", "dim", "dim0", "dim1", "dim2",
    "dimension", "dims", "dtype", "end", "eps", "exponent", "grad_in", "grad_output",
    "half_to_float", "ignore_index", "implicit", "index", "indices", "input", "input_sizes", "k",
    "keepdim", "largest", "layout", "mask", "mat", "mat1", "mat2", "max", "max_val",
    "memory_format", "min", "min_val", "negative_slope", "input_scale", "scale",
    "nan", "neginf", "non_blocking", "normalized_shape", "offset", "ord", "other", "p", "pad",
    "padding_idx", "pin_memory", "pos_weight", "posinf", "reduction", "repeats", "rounding_mode",
    "scale_grad_by_freq", "self", "shifts", "size", "sorted", "source", "sparse", "sparse_grad",
    "split_size", "split_sizes", "src", "stable", "start", "step", "storage_offset", "stride",
    "target", "tensor", "tensor1", "tensor2", "tensors", "threshold", "train", "unsafe", "value",
    "values", "vec", "weight",
};
inline constexpr size_t kNumArgNames = std::size(kArgNames);

// Not constexpr, on purpose: an Arg made from a name outside kArgNames calls it, which fails to
// compile.
void argument_name_is_not_in_kArgNames();

// An argument named as in the op's schema: "self", "other", "dim". Made from a string literal at
// compile time; holds the name's index in kArgNames.
class Arg {
 public:
  consteval Arg(const char* name) : id_(index_of(name)) {}  // NOLINT: implicit, from "self"
  constexpr size_t id() const { return id_; }
  constexpr std::string_view name() const { return kArgNames[id_]; }
  friend constexpr bool operator==(Arg, Arg) = default;

 private:
  static consteval uint8_t index_of(std::string_view name) {
    for (size_t i = 0; i < kNumArgNames; ++i)
      if (kArgNames[i] == name) return static_cast<uint8_t>(i);
    argument_name_is_not_in_kArgNames();
    return 0;
  }
  uint8_t id_;
};

// What a formula reads of its node, by argument name: saved tensor arguments, non-tensor
// arguments, the sizes and dtypes of every tensor argument, and which gradients are wanted.
class BackwardContext {
 public:
  explicit BackwardContext(const DerivativeNode& node) : node_(node) {}
  Tensor arg(Arg a) const;           // tensor argument a, as saved
  const IValue& value(Arg a) const;  // non-tensor argument a (a Scalar, a dim list, ...)
  Tensor result(size_t i = 0) const;  // output i, as saved
  IntArrayRef sizes(Arg a) const;     // of tensor argument a
  ScalarType dtype(Arg a) const;      // of tensor argument a
  Device device() const;              // where the forward ran (its first output's device)
  // Whether the gradient of tensor argument a is needed (its next edge is valid).
  bool needs(Arg a) const;
  // A Tensor[] argument a: how many tensors, element k's sizes and dtype, whether its gradient is
  // needed. See Note [Tensor lists in the derivative table].
  size_t list_size(Arg a) const;
  IntArrayRef sizes(Arg a, size_t k) const;
  ScalarType dtype(Arg a, size_t k) const;
  bool needs(Arg a, size_t k) const;

  // By schema position, for the Autograd kernel and the Python node attributes.
  Tensor arg_at(size_t i) const;
  const IValue& value_at(size_t i) const;
  bool needs_at(size_t i) const;

 private:
  size_t position(Arg a) const;  // in the op's schema; fails for an argument the op lacks
  const DerivativeNode& node_;
};

using Formula = variable_list (*)(const BackwardContext& c, const variable_list& grads);

// (saved, input): the saved argument is kept only when the gradient of that input is wanted.
struct SaveFor {
  Arg saved;
  Arg input;
};

// An entry's runtime data: its names as schema positions, filled once by resolve_arguments().
// See Note [Arguments by name in the derivative table].
struct ArgPositions {
  bool resolved = false;
  std::array<int8_t, kNumArgNames> of = {};  // kArgNames index -> schema position, -1: none
  std::vector<int> inputs, save;
  std::vector<std::pair<int, int>> save_for;  // (saved, input)
};

// One entry; written with designated initializers, every argument by name.
struct Derivative {
  std::string_view op;    // "mul.Tensor" (in aten; no "aten::", as in derivatives.yaml)
  std::string_view node;  // "MulBackward0"
  // The differentiable tensor (or Tensor[]) arguments: one next edge each, in this order; the
  // formula returns one gradient per edge (undefined: none).
  std::vector<Arg> inputs;
  std::vector<Arg> save = {};  // tensor arguments the formula reads with arg()
  bool save_result = false;    // the formula reads result()
  // Saved arguments kept only when the gradient of one of these inputs is wanted (mul keeps self
  // only for other's gradient: {"self", "other"}), as torch's generated code saves only what the
  // needed gradients read. A saved argument not listed here is always kept.
  std::vector<SaveFor> save_for = {};
  Formula formula = nullptr;
  std::vector<std::string_view> inplace = {};  // in-place overloads sharing this entry
  // How many leading outputs are differentiable (get this node as grad_fn); -1: every floating
  // one. The rest (max.dim's indices, native_layer_norm's mean and rstd) are plain tensors,
  // still readable with result() when save_result.
  int outputs = -1;

  // Runtime data (not written in the table): see Note [Arguments by name in the derivative
  // table].
  mutable ArgPositions at = {};
};

// Resolves d's argument names against `schema` (d.op's, or one of d.inplace's) the first time,
// checks that a later schema agrees; fails naming the entry and the argument. Called once per op
// as it is defined (core/autograd/VariableKernel.cpp).
void resolve_arguments(const Derivative& d, const FunctionSchema& schema);

// Every entry, the families joined (core/autograd/derivatives/).
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
