// The nn family: schemas, their kernels' registrations, and the C++ entry points. See
// core/ops/nn.h for what each op does. Kernels: core/ops/cpu/loss.cpp,
// core/ops/cpu/normalization.cpp, core/ops/cpu/nn.cpp, core/ops/composite/nn.cpp.
//
// Keys are torch 1.13's (torch._C._dispatch_dump). Ops torch keeps in torch._C._nn (the losses,
// one_hot, pad) are declared Variants::None: Python reaches them as opscope.ops.aten.<op> from
// opscope.nn.functional, as torch reaches them from torch.nn.functional.
#include "core/ops/nn.h"

#include "core/dispatch/Library.h"

namespace opscope {

// Defined in core/ops/cpu/loss.cpp, normalization.cpp and nn.cpp.
namespace cpu {
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const Tensor& weight, int64_t reduction,
                                            int64_t ignore_index);
std::tuple<Tensor, Tensor> nll_loss_forward_output(const Tensor& self, const Tensor& target,
                                                   const Tensor& weight, int64_t reduction,
                                                   int64_t ignore_index, const Tensor& output,
                                                   const Tensor& total_weight);
std::tuple<Tensor, Tensor> nll_loss2d_forward(const Tensor& self, const Tensor& target,
                                              const Tensor& weight, int64_t reduction,
                                              int64_t ignore_index);
std::tuple<Tensor, Tensor> nll_loss2d_forward_output(const Tensor& self, const Tensor& target,
                                                     const Tensor& weight, int64_t reduction,
                                                     int64_t ignore_index, const Tensor& output,
                                                     const Tensor& total_weight);
std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                     IntArrayRef normalized_shape,
                                                     const Tensor& weight, const Tensor& bias,
                                                     double eps);
std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train);
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction);
Tensor mse_loss_out(const Tensor& self, const Tensor& target, int64_t reduction, const Tensor& out);
Tensor binary_cross_entropy(const Tensor& input, const Tensor& target, const Tensor& weight,
                            int64_t reduction);
Tensor binary_cross_entropy_out(const Tensor& input, const Tensor& target, const Tensor& weight,
                                int64_t reduction, const Tensor& loss);
Tensor embedding_renorm_(const Tensor& self, const Tensor& indices, double max_norm,
                         double norm_type);
}  // namespace cpu

// Defined in core/ops/composite/nn.cpp.
namespace composite {
Tensor nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index);
Tensor nll_loss2d(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                  int64_t ignore_index);
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight,
                   int64_t reduction, int64_t ignore_index);
Tensor nll_loss_out(const Tensor& self, const Tensor& target, const Tensor& weight,
                    int64_t reduction, int64_t ignore_index, const Tensor& output);
Tensor nll_loss2d_out(const Tensor& self, const Tensor& target, const Tensor& weight,
                      int64_t reduction, int64_t ignore_index, const Tensor& output);
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight,
                  const Tensor& bias, double eps, bool cudnn_enable);
Tensor dropout(const Tensor& input, double p, bool train);
Tensor dropout_(const Tensor& self, double p, bool train);
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value);
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode, std::optional<double> value);
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const Tensor& weight,
                          int64_t reduction, int64_t ignore_index, double label_smoothing);
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction);
Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        int64_t reduction);
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                 bool scale_grad_by_freq, bool sparse);
Tensor one_hot(const Tensor& self, int64_t num_classes);
}  // namespace composite

static Library nn_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kCPU = DispatchKey::CPU;
  constexpr DispatchKey kImplicit = DispatchKey::CompositeImplicitAutograd;
  constexpr DispatchKey kExplicit = DispatchKey::CompositeExplicitAutograd;
  constexpr Variants kFunction = Variants::Function;
  constexpr Variants kNone = Variants::None;  // torch._C._nn ops and internal kernels

  // --- nll_loss ---
  m.def(
      "nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index) -> (Tensor output, Tensor total_weight)",
      kNone);
  m.impl("nll_loss_forward", kCPU, fn<&cpu::nll_loss_forward>);
  m.def(
      "nll_loss_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> "
      "(Tensor(a!), Tensor(b!))",
      kNone);
  m.impl("nll_loss_forward.output", kCPU, fn<&cpu::nll_loss_forward_output>);
  m.def(
      "nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index) -> (Tensor output, Tensor total_weight)",
      kNone);
  m.impl("nll_loss2d_forward", kCPU, fn<&cpu::nll_loss2d_forward>);
  m.def(
      "nll_loss2d_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> "
      "(Tensor(a!), Tensor(b!))",
      kNone);
  m.impl("nll_loss2d_forward.output", kCPU, fn<&cpu::nll_loss2d_forward_output>);
  m.def(
      "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);
  m.impl("nll_loss", kImplicit, fn<&composite::nll_loss>);
  m.def(
      "nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);
  m.impl("nll_loss2d", kImplicit, fn<&composite::nll_loss2d>);
  m.def(
      "nll_loss.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.impl("nll_loss.out", kImplicit, fn<&composite::nll_loss_out>);
  m.def(
      "nll_loss2d.out(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.impl("nll_loss2d.out", kImplicit, fn<&composite::nll_loss2d_out>);
  m.def(
      "nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100) -> Tensor",
      kNone);
  m.impl("nll_loss_nd", kImplicit, fn<&composite::nll_loss_nd>);

  m.def(
      "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
      "int ignore_index=-100, float label_smoothing=0.0) -> Tensor",
      kNone);
  m.impl("cross_entropy_loss", kImplicit, fn<&composite::cross_entropy_loss>);

  // --- regression and binary losses ---
  m.def("mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  m.impl("mse_loss", kCPU, fn<&cpu::mse_loss>);
  m.def(
      "mse_loss.out(Tensor self, Tensor target, int reduction=1, *, Tensor(a!) out) "
      "-> Tensor(a!)",
      kNone);
  m.impl("mse_loss.out", kCPU, fn<&cpu::mse_loss_out>);
  m.def("l1_loss(Tensor self, Tensor target, int reduction=1) -> Tensor", kNone);
  m.impl("l1_loss", kImplicit, fn<&composite::l1_loss>);
  m.def(
      "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) "
      "-> Tensor",
      kNone);
  m.impl("binary_cross_entropy", kCPU, fn<&cpu::binary_cross_entropy>);
  m.def(
      "binary_cross_entropy.out(Tensor self, Tensor target, Tensor? weight=None, "
      "int reduction=1, *, Tensor(a!) out) -> Tensor(a!)",
      kNone);
  m.impl("binary_cross_entropy.out", kCPU, fn<&cpu::binary_cross_entropy_out>);
  m.def(
      "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, "
      "Tensor? pos_weight=None, int reduction=1) -> Tensor",
      kFunction);
  m.impl("binary_cross_entropy_with_logits", kExplicit,
         fn<&composite::binary_cross_entropy_with_logits>);

  // --- normalization, dropout ---
  m.def(
      "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, "
      "Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.impl("native_layer_norm", kCPU, fn<&cpu::native_layer_norm>);
  m.def(
      "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
      kFunction);
  m.impl("layer_norm", kImplicit, fn<&composite::layer_norm>);
  m.def("native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)", kFunction);
  m.impl("native_dropout", kCPU, fn<&cpu::native_dropout>);
  m.def("dropout(Tensor input, float p, bool train) -> Tensor", kFunction);
  m.impl("dropout", kImplicit, fn<&composite::dropout>);
  m.def("dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", kFunction);
  m.impl("dropout_", kImplicit, fn<&composite::dropout_>);

  // --- embedding, one_hot ---
  m.def(
      "embedding(Tensor weight, Tensor indices, int padding_idx=-1, "
      "bool scale_grad_by_freq=False, bool sparse=False) -> Tensor",
      kFunction);
  m.impl("embedding", kExplicit, fn<&composite::embedding>);
  m.def(
      "embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) "
      "-> Tensor(a!)",
      kFunction);
  m.impl("embedding_renorm_", kCPU, fn<&cpu::embedding_renorm_>);
  m.def("one_hot(Tensor self, int num_classes=-1) -> Tensor", kNone);
  m.impl("one_hot", kImplicit, fn<&composite::one_hot>);

  // --- padding ---
  m.def("constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", kFunction);
  m.impl("constant_pad_nd", kExplicit, fn<&composite::constant_pad_nd>);
  m.def("pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor",
        kNone);
  m.impl("pad", kImplicit, fn<&composite::pad>);
});

}  // namespace opscope
