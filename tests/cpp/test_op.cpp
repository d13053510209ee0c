// Op handles: the C++ entry points — overloads, schema defaults, out= first, signature checks,
// and the kernels that follow a def.
#include <doctest/doctest.h>

#include "core/dispatch/Library.h"
#include "core/dispatch/Op.h"
#include "core/ops/factories.h"

using namespace opscope;

namespace {
// A tiny op family of our own, so the test states its schemas beside the handles.
Tensor scaled(const Tensor& self, const Scalar& factor) {
  Tensor r = make_empty({1}, ScalarType::Float64);
  *r.data_ptr<double>() = *self.data_ptr<double>() * factor.to_double();
  return r;
}
Tensor scaled_out(const Tensor& self, const Scalar& factor, const Tensor& out) {
  *out.data_ptr<double>() = *self.data_ptr<double>() * factor.to_double();
  return out;
}
Tensor shifted(const Tensor& self, IntArrayRef by, std::string_view mode) {
  Tensor r = make_empty({1}, ScalarType::Float64);
  double s = 0;
  for (int64_t b : by) s += static_cast<double>(b);
  *r.data_ptr<double>() = *self.data_ptr<double>() + s + (mode == "twice" ? s : 0.0);
  return r;
}

double value(const Tensor& t) {
  return *t.data_ptr<double>();
}
Tensor scalar_tensor(double v) {
  Tensor t = make_empty({1}, ScalarType::Float64);
  *t.data_ptr<double>() = v;
  return t;
}

inline constexpr Op<Tensor(const Tensor&, Default<const Scalar&>)> scaled_op{"test_op::scaled"};
inline constexpr Op<Tensor(Out, const Tensor&, Default<const Scalar&>)> scaled_out_op{
    "test_op::scaled.out"};
inline constexpr Overloads shifted_op{
    Op<Tensor(const Tensor&, Default<IntArrayRef>, Default<std::string_view>)>{
        "test_op::shifted"},
    Op<Tensor(const Tensor&, const Scalar&)>{"test_op::scaled"}};
inline constexpr Op<Tensor(const Tensor&, Default<bool>)> no_default_op{"test_op::scaled"};
inline constexpr Op<Tensor(const Tensor&, const Scalar&, Default<bool>)> bad_default_op{
    "test_op::scaled"};
}  // namespace

TEST_CASE("Op handles call through the dispatcher with the schema's defaults") {
  Library lib(Library::DEF, "test_op", [](Library& m) {
    m.def("scaled(Tensor self, Scalar factor=3) -> Tensor");
    m.impl("scaled", DispatchKey::CPU, fn<&scaled>);
    m.def("scaled.out(Tensor self, Scalar factor=3, *, Tensor(a!) out) -> Tensor(a!)");
    m.impl("scaled.out", DispatchKey::CPU, fn<&scaled_out>);
    m.def("shifted(Tensor self, int[] by=[1, 2], str mode=\"twice\") -> Tensor");
    m.impl("shifted", DispatchKey::CPU, fn<&shifted>);
  });
  Tensor x = scalar_tensor(2.0);
  CHECK(value(scaled_op(x)) == 6.0);       // factor from the schema
  CHECK(value(scaled_op(x, 5)) == 10.0);   // given
  Tensor out = scalar_tensor(0.0);
  CHECK(scaled_out_op(out, x).is_same(out));  // out first in C++, last in the schema
  CHECK(value(out) == 6.0);
  CHECK(value(shifted_op(x)) == 2.0 + 3 + 3);  // int[] and str defaults
  CHECK(value(shifted_op(x, {4}, "once")) == 6.0);
  CHECK(value(shifted_op(x, 0.5)) == 1.0);  // the other overload
  // A handle whose C++ form disagrees with the schema fails on its first call, clearly.
  CHECK_THROWS_WITH_AS(no_default_op(x), doctest::Contains("wrong C++ signature"), Error);
  CHECK_THROWS_WITH_AS(bad_default_op(x, 1), doctest::Contains("wrong C++ signature"), Error);
}

TEST_CASE("ops that write an argument get ADInplaceOrView and a checking Autograd kernel") {
  std::optional<Library> lib;
  lib.emplace(Library::DEF, "test_op_w", [](Library& m) {
    m.def("scaled.out(Tensor self, Scalar factor=3, *, Tensor(a!) out) -> Tensor(a!)");
    m.def("scaled(Tensor self, Scalar factor=3) -> Tensor");
  });
  OperatorHandle w = Dispatcher::singleton().find_by_full_name("test_op_w::scaled.out");
  OperatorHandle r = Dispatcher::singleton().find_by_full_name("test_op_w::scaled");
  auto has = [](const OperatorHandle& op, const std::string& row) {
    return op.entry().dump_table().find(row) != std::string::npos;
  };
  CHECK(has(w, "ADInplaceOrView: registered at core/autograd/InplaceOrView.cpp"));
  CHECK(has(w, "AutogradCPU: registered at core/autograd/InplaceOrView.cpp"));
  CHECK_FALSE(has(r, "ADInplaceOrView: registered"));
  lib.reset();  // the kernels go with the schema
  CHECK_FALSE(has(w, "ADInplaceOrView: registered"));
}
