// The self-check of the derivative table (core/autograd/derivatives/): every entry names a
// defined op, its in-place variants are defined ops too, and every argument name it uses is one
// of that op's arguments, its inputs tensors. See Note [Arguments by name in the derivative
// table] in core/autograd/Derivatives.h.
#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>

#include "core/autograd/Derivatives.h"
#include "core/dispatch/Dispatcher.h"

using namespace opscope;
using namespace opscope::autograd;

namespace {

// "mul.Tensor" -> aten::mul, overload Tensor; "mm" -> aten::mm, overload "".
std::optional<OperatorHandle> find_op(std::string_view name) {
  size_t dot = name.find('.');
  std::string op = "aten::" + std::string(name.substr(0, dot));
  std::string_view overload = dot == std::string_view::npos ? "" : name.substr(dot + 1);
  return Dispatcher::singleton().find(op, overload);
}

const Argument* argument_named(const FunctionSchema& schema, std::string_view name) {
  for (const Argument& a : schema.arguments)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace

TEST_CASE("every derivative names a defined op, by its schema's argument names") {
  std::ostringstream wrong;
  std::set<std::string> seen;
  size_t checked = 0;
  for (const Derivative& d : derivatives()) {
    const std::string entry = std::string(d.op) + " (" + std::string(d.node) + ")";
    if (d.op.find("::") != std::string_view::npos) wrong << entry << ": op named with a namespace\n";
    if (!d.formula) wrong << entry << ": no formula\n";
    std::vector<std::string_view> names = {d.op};
    names.insert(names.end(), d.inplace.begin(), d.inplace.end());
    for (std::string_view name : names) {
      if (!seen.emplace(name).second) wrong << entry << ": " << name << " has a second entry\n";
      std::optional<OperatorHandle> op = find_op(name);
      if (!op || !op->entry().has_schema()) {
        wrong << entry << ": " << name << " is not a defined op\n";
        continue;
      }
      const FunctionSchema& schema = op->schema();
      auto check = [&](Arg a, const char* field) -> const Argument* {
        const Argument* found = argument_named(schema, a.name());
        if (!found)
          wrong << entry << ": " << field << " names '" << a.name() << "', not an argument of "
                << schema.str() << "\n";
        return found;
      };
      for (Arg a : d.inputs)
        if (const Argument* arg = check(a, "inputs"); arg && arg->type.kind != TypeKind::Tensor)
          wrong << entry << ": input '" << a.name() << "' is a " << arg->type.str()
                << ", not a tensor, in " << schema.str() << "\n";
      for (Arg a : d.save)
        if (const Argument* arg = check(a, "save"); arg && arg->type.kind != TypeKind::Tensor)
          wrong << entry << ": saved '" << a.name() << "' is not a tensor\n";
      for (SaveFor s : d.save_for) {
        check(s.saved, "save_for");
        check(s.input, "save_for");
      }
      ++checked;
    }
    // Resolved once, when the op was defined: the positions the Autograd kernel reads.
    if (!d.at.resolved) wrong << entry << ": its argument names were never resolved\n";
    if (d.at.inputs.size() != d.inputs.size() || d.at.save.size() != d.save.size())
      wrong << entry << ": resolved positions do not match its names\n";
  }
  INFO("ops checked: ", checked);
  CHECK(checked > 200);
  CHECK_MESSAGE(wrong.str().empty(), "derivative entries that do not match their ops:\n",
                wrong.str());
}

TEST_CASE("resolved positions are the schema's") {
  const Derivative* mul = nullptr;
  for (const Derivative& d : derivatives())
    if (d.op == "mul.Tensor") mul = &d;
  REQUIRE(mul != nullptr);
  CHECK(mul->node == "MulBackward0");
  CHECK(mul->at.inputs == std::vector<int>{0, 1});
  CHECK(mul->at.save_for == std::vector<std::pair<int, int>>{{0, 1}, {1, 0}});
  CHECK(mul->at.of[Arg("other").id()] == 1);
  CHECK(mul->at.of[Arg("dim").id()] == -1);
  CHECK(Arg("other").name() == "other");
}
