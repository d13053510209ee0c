// The nn family's schemas (see core/ops/nn.h for what each op does): one def row per overload.
// The kernels register themselves at the end of the files that define them:
// core/ops/cpu/activation.cpp (relu, gelu, silu, softplus), core/ops/cpu/loss.cpp,
// core/ops/cpu/normalization.cpp, core/ops/cpu/nn.cpp and core/ops/composite/nn.cpp.
//
// Keys are torch 1.13's (torch._C._dispatch_dump). Ops torch keeps in torch._C._nn (the losses,
// one_hot, pad) are declared Variants::None: Python reaches them as opscope.ops.aten.<op> from
// opscope.nn.functional, as torch reaches them from torch.nn.functional.
#include "core/dispatch/Library.h"

namespace opscope {

static Library nn_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;
  constexpr Variants kNone = Variants::None;  // torch._C._nn ops and internal kernels

  // --- activations ---
  m.def("relu(Tensor self) -> Tensor");
  m.def("relu_(Tensor(a!) self) -> Tensor(a!)", Variants::FunctionAndMethod);
  m.def("relu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("gelu(Tensor self, *, str approximate=\"none\") -> Tensor", Variants::None);
  m.def("gelu_(Tensor(a!) self, *, str approximate=\"none\") -> Tensor(a!)", Variants::None);
  m.def("gelu.out(Tensor self, *, str approximate=\"none\", Tensor(a!) out) -> Tensor(a!)",
        Variants::Function);
  m.def("silu(Tensor self) -> Tensor", Variants::None);
  m.def("silu_(Tensor(a!) self) -> Tensor(a!)", Variants::None);
  m.def("silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", Variants::None);
  m.def(
      "softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      Variants::Function);

  // --- nll_loss ---
  m.def(
      "nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index) -> (Tensor output, Tensor total_weight)",
      kNone);
  m.def(
      "nll_loss_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> "
      "(Tensor(a!), Tensor(b!))",
      kNone);
  m.def(
      "nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index) -> (Tensor output, Tensor total_weight)",
      kNone);
  m.def(
      "nll_loss2d_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> "
      "(Tensor(a!), Tensor(b!))",
      kNone);
  m.def(
      "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);
  m.def(
      "nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);
  m.def(
      "nll_loss.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "nll_loss2d.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);

  m.def(
      "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, float label_smoothing=0.0) -> Tensor",
      kNone);

  // --- regression and binary losses ---
  m.def("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  m.def(
      "mse_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) "
      "-> Tensor(a!)",
      kNone);
  m.def("l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  m.def(
      "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) "
      "-> Tensor",
      kNone);
  m.def(
      "binary_cross_entropy.out(Tensor self, Tensor target, Tensor? weight=None, "
      "int reduction=1, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.def(
      "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, "
      "Tensor? pos_weight=None, int reduction=1) -> Tensor",
      kFunction);

  // --- normalization, dropout ---
  m.def(
      "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, "
      "Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.def(
      "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
      kFunction);
  m.def("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)", kFunction);
  m.def("dropout(Tensor input, float p, bool train) -> Tensor", kFunction);
  m.def("dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", kFunction);

  // --- embedding, one_hot ---
  m.def(
      "embedding(Tensor weight, Tensor indices, int padding_idx=-1, "
      "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
      kFunction);
  m.def(
      "embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) "
      "-> Tensor(a!)",
      kFunction);
  m.def("one_hot(Tensor self, int num_classes=-1) -> Tensor", kNone);

  // --- padding ---
  m.def("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", kFunction);
  m.def("pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor",
        kNone);
});

}  // namespace opscope
