// The alias ops: torch's other spellings of an op — multiply for mul, arccos for acos, greater
// for gt, fix for trunc, torch.special's special_expit for sigmoid. Each is an op of its own,
// with its own schema (def rows in the family files: binary.cpp, compare.cpp, unary.cpp,
// reduce.cpp, shape.cpp, views.cpp), so a trace reads as torch's does, `multiply -> mul`, and
// autograd records the target's node (MulBackward0), as torch's CompositeImplicitAutograd
// aliases do.
//
// An alias's arguments are its target's, in the same order, so one boxed kernel serves them all:
// it hands the stack unchanged to the target overload. The table below is the whole mapping.
#include <memory>
#include <mutex>
#include <string_view>

#include "core/dispatch/Dispatcher.h"
#include "core/dispatch/Library.h"

namespace opscope::composite {

namespace {

struct Alias {
  std::string_view name;    // the alias overload, "multiply.Tensor"
  std::string_view target;  // the op it stands for, "mul.Tensor"
};

// clang-format off
constexpr Alias kAliases[] = {
    {"multiply.Tensor", "mul.Tensor"},
    {"multiply.Scalar", "mul.Scalar"},
    {"multiply.out", "mul.out"},
    {"multiply_.Tensor", "mul_.Tensor"},
    {"multiply_.Scalar", "mul_.Scalar"},
    {"divide.Tensor", "div.Tensor"},
    {"divide.Scalar", "div.Scalar"},
    {"divide.Tensor_mode", "div.Tensor_mode"},
    {"divide.Scalar_mode", "div.Scalar_mode"},
    {"divide.out", "div.out"},
    {"divide.out_mode", "div.out_mode"},
    {"divide_.Tensor", "div_.Tensor"},
    {"divide_.Tensor_mode", "div_.Tensor_mode"},
    {"divide_.Scalar_mode", "div_.Scalar_mode"},
    {"divide_.Scalar", "div_.Scalar"},
    {"true_divide.Tensor", "div.Tensor"},
    {"true_divide.Scalar", "div.Scalar"},
    {"true_divide.out", "div.out"},
    {"true_divide_.Tensor", "div_.Tensor"},
    {"true_divide_.Scalar", "div_.Scalar"},
    {"subtract.Tensor", "sub.Tensor"},
    {"subtract.out", "sub.out"},
    {"subtract.Scalar", "sub.Scalar"},
    {"subtract_.Tensor", "sub_.Tensor"},
    {"subtract_.Scalar", "sub_.Scalar"},
    {"greater.Tensor", "gt.Tensor"},
    {"greater.Scalar", "gt.Scalar"},
    {"greater.Scalar_out", "gt.Scalar_out"},
    {"greater.Tensor_out", "gt.Tensor_out"},
    {"greater_.Scalar", "gt_.Scalar"},
    {"greater_.Tensor", "gt_.Tensor"},
    {"greater_equal.Tensor", "ge.Tensor"},
    {"greater_equal.Scalar", "ge.Scalar"},
    {"greater_equal.Scalar_out", "ge.Scalar_out"},
    {"greater_equal.Tensor_out", "ge.Tensor_out"},
    {"greater_equal_.Scalar", "ge_.Scalar"},
    {"greater_equal_.Tensor", "ge_.Tensor"},
    {"less.Tensor", "lt.Tensor"},
    {"less.Scalar", "lt.Scalar"},
    {"less.Scalar_out", "lt.Scalar_out"},
    {"less.Tensor_out", "lt.Tensor_out"},
    {"less_.Scalar", "lt_.Scalar"},
    {"less_.Tensor", "lt_.Tensor"},
    {"less_equal.Tensor", "le.Tensor"},
    {"less_equal.Scalar", "le.Scalar"},
    {"less_equal.Scalar_out", "le.Scalar_out"},
    {"less_equal.Tensor_out", "le.Tensor_out"},
    {"less_equal_.Scalar", "le_.Scalar"},
    {"less_equal_.Tensor", "le_.Tensor"},
    {"not_equal.Tensor", "ne.Tensor"},
    {"not_equal.Scalar", "ne.Scalar"},
    {"not_equal.Scalar_out", "ne.Scalar_out"},
    {"not_equal.Tensor_out", "ne.Tensor_out"},
    {"not_equal_.Scalar", "ne_.Scalar"},
    {"not_equal_.Tensor", "ne_.Tensor"},
    {"negative", "neg"},
    {"negative.out", "neg.out"},
    {"negative_", "neg_"},
    {"arccos", "acos"},
    {"arccos.out", "acos.out"},
    {"arccos_", "acos_"},
    {"arcsin", "asin"},
    {"arcsin.out", "asin.out"},
    {"arcsin_", "asin_"},
    {"arctan", "atan"},
    {"arctan.out", "atan.out"},
    {"arctan_", "atan_"},
    {"arccosh", "acosh"},
    {"arccosh.out", "acosh.out"},
    {"arccosh_", "acosh_"},
    {"arcsinh", "asinh"},
    {"arcsinh.out", "asinh.out"},
    {"arcsinh_", "asinh_"},
    {"arctanh", "atanh"},
    {"arctanh.out", "atanh.out"},
    {"arctanh_", "atanh_"},
    {"fix", "trunc"},
    {"fix.out", "trunc.out"},
    {"fix_", "trunc_"},
    {"special_expit", "sigmoid"},
    {"special_expit.out", "sigmoid.out"},
    {"special_logit", "logit"},
    {"special_logit.out", "logit.out"},
    {"special_erf", "erf"},
    {"special_erf.out", "erf.out"},
    {"special_erfc", "erfc"},
    {"special_erfc.out", "erfc.out"},
    {"special_erfinv", "erfinv"},
    {"special_erfinv.out", "erfinv.out"},
    {"special_gammaln", "lgamma"},
    {"special_gammaln.out", "lgamma.out"},
    {"special_digamma", "digamma"},
    {"special_digamma.out", "digamma.out"},
    {"special_psi", "digamma"},
    {"special_psi.out", "digamma.out"},
    {"special_polygamma", "polygamma"},
    {"special_polygamma.out", "polygamma.out"},
    {"special_i0", "i0"},
    {"special_i0.out", "i0.out"},
    {"special_sinc", "sinc"},
    {"special_sinc.out", "sinc.out"},
    {"special_exp2", "exp2"},
    {"special_exp2.out", "exp2.out"},
    {"special_expm1", "expm1"},
    {"special_expm1.out", "expm1.out"},
    {"special_log1p", "log1p"},
    {"special_log1p.out", "log1p.out"},
    {"special_round", "round.decimals"},
    {"special_round.out", "round.decimals_out"},
    {"special_logsumexp", "logsumexp"},
    {"special_logsumexp.out", "logsumexp.out"},
    {"special_softmax", "softmax.int"},
    {"special_log_softmax", "log_softmax.int"},
    {"special_xlogy", "xlogy.Tensor"},
    {"special_xlogy.self_scalar", "xlogy.Scalar_Self"},
    {"special_xlogy.other_scalar", "xlogy.Scalar_Other"},
    {"special_xlogy.out", "xlogy.OutTensor"},
    {"special_xlogy.self_scalar_out", "xlogy.OutScalar_Self"},
    {"special_xlogy.other_scalar_out", "xlogy.OutScalar_Other"},
    {"concatenate", "cat"},
    {"concatenate.out", "cat.out"},
    {"swapaxes_", "transpose_"},
    {"swapdims_", "transpose_"},
};
// clang-format on

// The kernel of one alias: calls its target with the same stack. The target is looked up at the
// first call (it may be defined after this file's rows run), once.
KernelFunction alias_kernel(const Alias& alias) {
  struct Target {
    std::once_flag found;
    std::optional<OperatorHandle> op;
  };
  auto target = std::make_shared<Target>();
  std::string full_name = "aten::" + std::string(alias.target);
  std::string name(alias.name.substr(0, alias.name.find('.')));
  return KernelFunction::boxed(
      [target, full_name](const OperatorHandle&, DispatchKeySet, Stack* stack) {
        std::call_once(target->found, [&] {
          target->op = Dispatcher::singleton().find_by_full_name(full_name);
        });
        target->op->call_boxed(stack);
      },
      "opscope::composite::" + name);
}

}  // namespace

static Library composite_aliases(Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd,
                                 [](Library& m) {
                                   for (const Alias& alias : kAliases)
                                     m.impl(alias.name, alias_kernel(alias));
                                 });

}  // namespace opscope::composite
