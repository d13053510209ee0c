// The derivative table as one list (its families, core/autograd/derivatives/, joined) and the
// resolution of its argument names to schema positions. See Note [Arguments by name in the
// derivative table] in Derivatives.h.
#include "core/autograd/Derivatives.h"

#include <algorithm>

#include "core/autograd/derivatives/common.h"

namespace opscope::autograd {

const std::vector<Derivative>& derivatives() {
  static const std::vector<Derivative> table = [] {
    std::vector<Derivative> all;
    for (auto family : {unary_derivatives, binary_derivatives, compare_derivatives, nn_derivatives,
                        reduce_derivatives, linear_derivatives, views_derivatives,
                        shape_derivatives, indexing_derivatives, copy_derivatives,
                        sorting_derivatives, linalg_derivatives, ternary_derivatives,
                        factories_derivatives})
      for (Derivative& d : family()) all.push_back(std::move(d));
    return all;
  }();
  return table;
}

namespace {

// Where each vocabulary name sits in `schema` (-1: not an argument of it).
std::array<int8_t, kNumArgNames> positions_in(const FunctionSchema& schema) {
  std::array<int8_t, kNumArgNames> of;
  of.fill(-1);
  for (size_t i = 0; i < kNumArgNames; ++i)
    for (size_t p = 0; p < schema.arguments.size(); ++p)
      if (schema.arguments[p].name == kArgNames[i]) of[i] = static_cast<int8_t>(p);
  return of;
}

}  // namespace

void resolve_arguments(const Derivative& d, const FunctionSchema& schema) {
  const std::array<int8_t, kNumArgNames> of = positions_in(schema);
  auto where = [&](Arg a, const char* field) {
    OPSCOPE_CHECK(of[a.id()] >= 0, "derivative entry ", d.op, " (", d.node, "): its ", field,
                  " name '", a.name(), "', which is not an argument of ", schema.str());
    return static_cast<int>(of[a.id()]);
  };
  ArgPositions at;
  at.of = of;
  for (Arg a : d.inputs) {
    at.inputs.push_back(where(a, "inputs"));
    const Argument& arg = schema.arguments[static_cast<size_t>(at.inputs.back())];
    OPSCOPE_CHECK(arg.type.kind == TypeKind::Tensor, "derivative entry ", d.op, " (", d.node,
                  "): input '", a.name(), "' is not a tensor in ", schema.str());
  }
  for (Arg a : d.save) at.save.push_back(where(a, "save"));
  for (SaveFor s : d.save_for)
    at.save_for.emplace_back(where(s.saved, "save_for"), where(s.input, "save_for"));
  at.resolved = true;
  if (!d.at.resolved) {
    d.at = std::move(at);
    return;
  }
  // A second schema of the same entry (an in-place variant, or the op defined again).
  OPSCOPE_CHECK(d.at.of == at.of, "derivative entry ", d.op, " (", d.node, "): ", schema.str(),
                " shares it, but its arguments are not at ", d.op, "'s positions");
}

}  // namespace opscope::autograd
