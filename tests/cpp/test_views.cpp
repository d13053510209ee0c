// The view / shape ops (core/ops/views.h) against PyTorch 1.13: geometry, storage sharing and
// lifetime, the traces of composite ops, schemas, and every error with torch's exact message.
//
// The tables were generated with torch 1.13 (/usr/bin/python3): each row is an op call and the
// sizes / strides / storage offset (or the error) torch gives for the same call. A failing row
// prints torch's and our geometry side by side.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "core/ops/factories.h"
#include "core/ops/views.h"

using namespace opscope;
using Ints = std::vector<int64_t>;

namespace {

Ints vec(IntArrayRef r) {
  return Ints(r.begin(), r.end());
}

std::string geometry_str(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  return shape_str(sizes) + " " + shape_str(strides) + " +" + std::to_string(offset);
}

Tensor empty(const Ints& sizes, ScalarType dtype = ScalarType::Float32) {
  return make_empty(sizes, dtype);
}

// A float tensor holding 0, 1, 2, ... in row-major order.
Tensor iota(const Ints& sizes) {
  Tensor t = make_empty(sizes, ScalarType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data_ptr<float>()[i] = static_cast<float>(i);
  return t;
}

// The element of t at an index, through its strides.
float& at(const Tensor& t, Ints idx) {
  REQUIRE(static_cast<int64_t>(idx.size()) == t.dim());
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides()[d];
  return t.data_ptr<float>()[off];
}

// A tensor on the meta device: geometry and a storage size, no memory.
Tensor meta_tensor(const Ints& sizes) {
  DimVector strides = contiguous_strides(sizes);
  size_t nbytes = static_cast<size_t>(compute_numel(sizes)) * sizeof(float);
  auto storage = make_intrusive<StorageImpl>(nullptr, nbytes, Device(DeviceType::Meta), nullptr);
  return Tensor(
      make_intrusive<TensorImpl>(std::move(storage), ScalarType::Float32, sizes, strides, 0));
}

// Records the ops a call runs, indented by nesting: "aten::narrow", "  aten::slice.Tensor".
// Redispatches (an autograd layer handing the call down) are not new ops and are left out.
class TraceRecorder final : public DispatchObserver {
 public:
  void on_enter(const DispatchStep& step) override {
    bool is_call = step.kind == DispatchCallKind::Call || step.kind == DispatchCallKind::CallBoxed;
    counted_.push_back(is_call);
    if (!is_call) return;
    lines.push_back(std::string(2 * depth_, ' ') + step.op->full_name());
    ++depth_;
  }
  void on_exit(const DispatchStep&, const Stack*) override {
    if (counted_.back()) --depth_;
    counted_.pop_back();
  }
  std::vector<std::string> lines;

 private:
  size_t depth_ = 0;
  std::vector<bool> counted_;
};

std::vector<std::string> trace(const std::function<void()>& f, size_t max_depth = 100) {
  auto rec = std::make_shared<TraceRecorder>();
  {
    ObserverHandle h = add_dispatch_observer(rec);
    f();
  }
  std::vector<std::string> out;
  for (const auto& l : rec->lines)
    if (l.find_first_not_of(' ') / 2 <= max_depth) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("views: the worked example of core/ops/views.h") {
  Tensor a = ops::zeros({2, 3});
  Tensor t = ops::transpose(a, 0, 1);
  Tensor r = ops::reshape(t, {6});
  Tensor v = ops::view(a, {3, -1});
  CHECK(vec(t.sizes()) == Ints{3, 2});
  CHECK(vec(t.strides()) == Ints{1, 3});
  CHECK(t->storage().get() == a->storage().get());
  CHECK(vec(r.strides()) == Ints{1});
  CHECK(r->storage().get() != a->storage().get());
  CHECK(vec(v.sizes()) == Ints{3, 2});
  CHECK(vec(v.strides()) == Ints{2, 1});
  CHECK(v->storage().get() == a->storage().get());
}

TEST_CASE("views: sizes, strides and offsets match torch") {
  // A contiguous; B = A.transpose(0, 2); C = A[:, 1:, ::2]; S 0-d; E empty; V a vector.
  Tensor A = iota({2, 3, 4});
  Tensor B = ops::transpose(A, 0, 2);
  Tensor C = ops::slice(ops::slice(A, 1, 1), 2, std::nullopt, std::nullopt, 2);
  Tensor S = iota({});
  Tensor E = empty({0, 3}, ScalarType::Float32);
  Tensor V = iota({5});
  REQUIRE(vec(C.strides()) == Ints{12, 4, 2});
  REQUIRE(C->storage_offset() == 4);

  struct Row {
    const char* call;
    std::function<Tensor()> fn;
    Ints sizes, strides;
    int64_t offset;
  };
  // clang-format off
  const std::vector<Row> rows = {
    {"ops::view(A, {6, 4})", [&] { return ops::view(A, {6, 4}); }, {6, 4}, {4, 1}, 0},
    {"ops::view(A, {-1})", [&] { return ops::view(A, {-1}); }, {24}, {1}, 0},
    {"ops::view(A, {2, -1, 2})", [&] { return ops::view(A, {2, -1, 2}); }, {2, 6, 2}, {12, 2, 1}, 0},
    {"ops::view(B, {4, 3, 2, 1})", [&] { return ops::view(B, {4, 3, 2, 1}); }, {4, 3, 2, 1}, {1, 4, 12, 12}, 0},
    {"ops::view(C, {2, 4})", [&] { return ops::view(C, {2, 4}); }, {2, 4}, {12, 2}, 4},
    {"ops::view(S, {1, 1})", [&] { return ops::view(S, {1, 1}); }, {1, 1}, {1, 1}, 0},
    {"ops::view(E, {3, 0})", [&] { return ops::view(E, {3, 0}); }, {3, 0}, {1, 1}, 0},
    {"ops::view(E, {-1})", [&] { return ops::view(E, {-1}); }, {0}, {1}, 0},
    {"ops::view(E, {5, -1})", [&] { return ops::view(E, {5, -1}); }, {5, 0}, {1, 1}, 0},
    {"ops::reshape(A, {4, 6})", [&] { return ops::reshape(A, {4, 6}); }, {4, 6}, {6, 1}, 0},
    {"ops::reshape(B, {2, 2, 3, 2})", [&] { return ops::reshape(B, {2, 2, 3, 2}); }, {2, 2, 3, 2}, {2, 1, 4, 12}, 0},
    {"ops::as_strided(A, {3, 3}, {1, 2}, 5)", [&] { return ops::as_strided(A, {3, 3}, {1, 2}, 5); }, {3, 3}, {1, 2}, 5},
    {"ops::as_strided(C, {2}, {3})", [&] { return ops::as_strided(C, {2}, {3}); }, {2}, {3}, 4},
    {"ops::as_strided(A, {0, 2}, {100, 1}, 30)", [&] { return ops::as_strided(A, {0, 2}, {100, 1}, 30); }, {0, 2}, {100, 1}, 30},
    {"ops::alias(C)", [&] { return ops::alias(C); }, {2, 2, 2}, {12, 4, 2}, 4},
    {"ops::transpose(A, 0, 1)", [&] { return ops::transpose(A, 0, 1); }, {3, 2, 4}, {4, 12, 1}, 0},
    {"ops::transpose(A, -1, 0)", [&] { return ops::transpose(A, -1, 0); }, {4, 3, 2}, {1, 4, 12}, 0},
    {"ops::transpose(C, 1, 1)", [&] { return ops::transpose(C, 1, 1); }, {2, 2, 2}, {12, 4, 2}, 4},
    {"ops::transpose(S, 0, -1)", [&] { return ops::transpose(S, 0, -1); }, {}, {}, 0},
    {"ops::t(ops::select(A, 0, 1))", [&] { return ops::t(ops::select(A, 0, 1)); }, {4, 3}, {1, 4}, 12},
    {"ops::t(V)", [&] { return ops::t(V); }, {5}, {1}, 0},
    {"ops::t(S)", [&] { return ops::t(S); }, {}, {}, 0},
    {"ops::permute(A, {2, 0, 1})", [&] { return ops::permute(A, {2, 0, 1}); }, {4, 2, 3}, {1, 12, 4}, 0},
    {"ops::permute(B, {-1, 0, 1})", [&] { return ops::permute(B, {-1, 0, 1}); }, {2, 4, 3}, {12, 1, 4}, 0},
    {"ops::permute(S, {})", [&] { return ops::permute(S, {}); }, {}, {}, 0},
    {"ops::squeeze(ops::view(A, {1, 2, 1, 12, 1}))", [&] { return ops::squeeze(ops::view(A, {1, 2, 1, 12, 1})); }, {2, 12}, {12, 1}, 0},
    {"ops::squeeze(ops::view(A, {1, 2, 1, 12, 1}), 2)", [&] { return ops::squeeze(ops::view(A, {1, 2, 1, 12, 1}), 2); }, {1, 2, 12, 1}, {24, 12, 1, 1}, 0},
    {"ops::squeeze(ops::view(A, {1, 2, 1, 12, 1}), -1)", [&] { return ops::squeeze(ops::view(A, {1, 2, 1, 12, 1}), -1); }, {1, 2, 1, 12}, {24, 12, 12, 1}, 0},
    {"ops::squeeze(A, 1)", [&] { return ops::squeeze(A, 1); }, {2, 3, 4}, {12, 4, 1}, 0},
    {"ops::squeeze(S)", [&] { return ops::squeeze(S); }, {}, {}, 0},
    {"ops::squeeze(S, -1)", [&] { return ops::squeeze(S, -1); }, {}, {}, 0},
    {"ops::squeeze(ops::expand(ops::view(V, {1, 5}), {2, 1, 5}))", [&] { return ops::squeeze(ops::expand(ops::view(V, {1, 5}), {2, 1, 5})); }, {2, 5}, {0, 1}, 0},
    {"ops::unsqueeze(A, 0)", [&] { return ops::unsqueeze(A, 0); }, {1, 2, 3, 4}, {24, 12, 4, 1}, 0},
    {"ops::unsqueeze(A, 3)", [&] { return ops::unsqueeze(A, 3); }, {2, 3, 4, 1}, {12, 4, 1, 1}, 0},
    {"ops::unsqueeze(A, -1)", [&] { return ops::unsqueeze(A, -1); }, {2, 3, 4, 1}, {12, 4, 1, 1}, 0},
    {"ops::unsqueeze(B, 1)", [&] { return ops::unsqueeze(B, 1); }, {4, 1, 3, 2}, {1, 12, 4, 12}, 0},
    {"ops::unsqueeze(C, 3)", [&] { return ops::unsqueeze(C, 3); }, {2, 2, 2, 1}, {12, 4, 2, 1}, 4},
    {"ops::unsqueeze(S, 0)", [&] { return ops::unsqueeze(S, 0); }, {1}, {1}, 0},
    {"ops::unsqueeze(S, -1)", [&] { return ops::unsqueeze(S, -1); }, {1}, {1}, 0},
    {"ops::expand(V, {3, 5})", [&] { return ops::expand(V, {3, 5}); }, {3, 5}, {0, 1}, 0},
    {"ops::expand(ops::unsqueeze(V, 0), {2, -1, 5})", [&] { return ops::expand(ops::unsqueeze(V, 0), {2, -1, 5}); }, {2, 1, 5}, {0, 5, 1}, 0},
    {"ops::expand(ops::unsqueeze(V, 1), {5, 4})", [&] { return ops::expand(ops::unsqueeze(V, 1), {5, 4}); }, {5, 4}, {1, 0}, 0},
    {"ops::expand(ops::unsqueeze(V, 1), {0, 5, 0})", [&] { return ops::expand(ops::unsqueeze(V, 1), {0, 5, 0}); }, {0, 5, 0}, {0, 1, 0}, 0},
    {"ops::expand(S, {2, 3})", [&] { return ops::expand(S, {2, 3}); }, {2, 3}, {0, 0}, 0},
    {"ops::expand(S, {})", [&] { return ops::expand(S, {}); }, {}, {}, 0},
    {"ops::expand(C, {3, 2, 2, 2})", [&] { return ops::expand(C, {3, 2, 2, 2}); }, {3, 2, 2, 2}, {0, 12, 4, 2}, 4},
    {"ops::expand_as(V, ops::expand(ops::view(A, {24, 1}), {24, 5}))", [&] { return ops::expand_as(V, ops::expand(ops::view(A, {24, 1}), {24, 5})); }, {24, 5}, {0, 1}, 0},
    {"ops::view_as(A, ops::view(A, {4, 6}))", [&] { return ops::view_as(A, ops::view(A, {4, 6})); }, {4, 6}, {6, 1}, 0},
    {"ops::narrow(A, 1, 1, 2)", [&] { return ops::narrow(A, 1, 1, 2); }, {2, 2, 4}, {12, 4, 1}, 4},
    {"ops::narrow(A, -1, -3, 2)", [&] { return ops::narrow(A, -1, -3, 2); }, {2, 3, 2}, {12, 4, 1}, 1},
    {"ops::narrow(A, 2, 4, 0)", [&] { return ops::narrow(A, 2, 4, 0); }, {2, 3, 0}, {12, 4, 1}, 4},
    {"ops::narrow(C, 0, 1, 1)", [&] { return ops::narrow(C, 0, 1, 1); }, {1, 2, 2}, {12, 4, 2}, 16},
    {"ops::select(A, 0, 1)", [&] { return ops::select(A, 0, 1); }, {3, 4}, {4, 1}, 12},
    {"ops::select(A, 2, -1)", [&] { return ops::select(A, 2, -1); }, {2, 3}, {12, 4}, 3},
    {"ops::select(B, 1, 2)", [&] { return ops::select(B, 1, 2); }, {4, 2}, {1, 12}, 8},
    {"ops::select(C, -1, 1)", [&] { return ops::select(C, -1, 1); }, {2, 2}, {12, 4}, 6},
    {"ops::select(V, 0, 3)", [&] { return ops::select(V, 0, 3); }, {}, {}, 3},
    {"ops::slice(A, 1, 1, 3)", [&] { return ops::slice(A, 1, 1, 3); }, {2, 2, 4}, {12, 4, 1}, 4},
    {"ops::slice(A, 2, 0, 4, 3)", [&] { return ops::slice(A, 2, 0, 4, 3); }, {2, 3, 2}, {12, 4, 3}, 0},
    {"ops::slice(A, -1, -3)", [&] { return ops::slice(A, -1, -3); }, {2, 3, 3}, {12, 4, 1}, 1},
    {"ops::slice(A, 0, -100, 100)", [&] { return ops::slice(A, 0, -100, 100); }, {2, 3, 4}, {12, 4, 1}, 0},
    {"ops::slice(A, 1, 2, 1)", [&] { return ops::slice(A, 1, 2, 1); }, {2, 0, 4}, {12, 4, 1}, 8},
    {"ops::slice(A, 1, 7, 9)", [&] { return ops::slice(A, 1, 7, 9); }, {2, 0, 4}, {12, 4, 1}, 12},
    {"ops::slice(A, 1, std::nullopt, -1)", [&] { return ops::slice(A, 1, std::nullopt, -1); }, {2, 2, 4}, {12, 4, 1}, 0},
    {"ops::slice(A, 2, std::nullopt, std::nullopt, 2)", [&] { return ops::slice(A, 2, std::nullopt, std::nullopt, 2); }, {2, 3, 2}, {12, 4, 2}, 0},
    {"ops::slice(C, 2, 1)", [&] { return ops::slice(C, 2, 1); }, {2, 2, 1}, {12, 4, 2}, 6},
    {"ops::slice(E, 0, 0, 5)", [&] { return ops::slice(E, 0, 0, 5); }, {0, 3}, {3, 1}, 0},
    {"ops::flatten(A)", [&] { return ops::flatten(A); }, {24}, {1}, 0},
    {"ops::flatten(A, 1)", [&] { return ops::flatten(A, 1); }, {2, 12}, {12, 1}, 0},
    {"ops::flatten(A, 0, 1)", [&] { return ops::flatten(A, 0, 1); }, {6, 4}, {4, 1}, 0},
    {"ops::flatten(A, -2, -1)", [&] { return ops::flatten(A, -2, -1); }, {2, 12}, {12, 1}, 0},
    {"ops::flatten(S)", [&] { return ops::flatten(S); }, {1}, {1}, 0},
    {"ops::flatten(ops::view(E, {0, 1, 3, 1}), 1, 2)", [&] { return ops::flatten(ops::view(E, {0, 1, 3, 1}), 1, 2); }, {0, 3, 1}, {3, 1, 1}, 0},
    {"ops::unflatten(A, 1, {3, 1})", [&] { return ops::unflatten(A, 1, {3, 1}); }, {2, 3, 1, 4}, {12, 4, 4, 1}, 0},
    {"ops::unflatten(A, -1, {2, -1})", [&] { return ops::unflatten(A, -1, {2, -1}); }, {2, 3, 2, 2}, {12, 4, 2, 1}, 0},
    {"ops::unflatten(B, 0, {2, 2})", [&] { return ops::unflatten(B, 0, {2, 2}); }, {2, 2, 3, 2}, {2, 1, 4, 12}, 0},
    {"ops::unflatten(ops::view(E, {3, 0}), 1, {5, 0})", [&] { return ops::unflatten(ops::view(E, {3, 0}), 1, {5, 0}); }, {3, 5, 0}, {5, 1, 1}, 0},
    {"ops::diagonal(A)", [&] { return ops::diagonal(A); }, {4, 2}, {1, 16}, 0},
    {"ops::diagonal(A, 1, 1, 2)", [&] { return ops::diagonal(A, 1, 1, 2); }, {2, 3}, {12, 5}, 1},
    {"ops::diagonal(A, -1, 1, 2)", [&] { return ops::diagonal(A, -1, 1, 2); }, {2, 2}, {12, 5}, 4},
    {"ops::diagonal(A, 0, 2, 0)", [&] { return ops::diagonal(A, 0, 2, 0); }, {3, 2}, {4, 13}, 0},
    {"ops::diagonal(A, 10, 1, 2)", [&] { return ops::diagonal(A, 10, 1, 2); }, {2, 0}, {12, 5}, 0},
    {"ops::diagonal(A, -10, -1, -2)", [&] { return ops::diagonal(A, -10, -1, -2); }, {2, 0}, {12, 5}, 0},
    {"ops::diagonal(B, 1)", [&] { return ops::diagonal(B, 1); }, {2, 2}, {12, 5}, 4},
    {"ops::diagonal(C, -1, 0, 2)", [&] { return ops::diagonal(C, -1, 0, 2); }, {2, 1}, {4, 14}, 16},
    {"ops::unfold(V, 0, 2, 1)", [&] { return ops::unfold(V, 0, 2, 1); }, {4, 2}, {1, 1}, 0},
    {"ops::unfold(V, 0, 2, 2)", [&] { return ops::unfold(V, 0, 2, 2); }, {2, 2}, {2, 1}, 0},
    {"ops::unfold(A, 1, 2, 1)", [&] { return ops::unfold(A, 1, 2, 1); }, {2, 2, 4, 2}, {12, 4, 1, 4}, 0},
    {"ops::unfold(B, -1, 1, 3)", [&] { return ops::unfold(B, -1, 1, 3); }, {4, 3, 1, 1}, {1, 4, 36, 12}, 0},
    {"ops::unfold(S, 0, 1, 1)", [&] { return ops::unfold(S, 0, 1, 1); }, {1}, {1}, 0},
    {"ops::unfold(V, 0, 0, 1)", [&] { return ops::unfold(V, 0, 0, 1); }, {6, 0}, {1, 1}, 0},
    {"ops::unbind(A, 1)[2]", [&] { return ops::unbind(A, 1)[2]; }, {2, 4}, {12, 1}, 8},
    {"ops::unbind(C, -1)[1]", [&] { return ops::unbind(C, -1)[1]; }, {2, 2}, {12, 4}, 6},
    {"ops::movedim(A, 0, 2)", [&] { return ops::movedim(A, 0, 2); }, {3, 4, 2}, {4, 1, 12}, 0},
    {"ops::movedim(A, -1, 0)", [&] { return ops::movedim(A, -1, 0); }, {4, 2, 3}, {1, 12, 4}, 0},
    {"ops::movedim(A, {0, 1}, {2, 0})", [&] { return ops::movedim(A, {0, 1}, {2, 0}); }, {3, 4, 2}, {4, 1, 12}, 0},
    {"ops::movedim(B, {2}, {1})", [&] { return ops::movedim(B, {2}, {1}); }, {4, 2, 3}, {1, 12, 4}, 0},
    {"ops::movedim(S, 0, -1)", [&] { return ops::movedim(S, 0, -1); }, {}, {}, 0},
    {"ops::moveaxis(A, 1, 0)", [&] { return ops::moveaxis(A, 1, 0); }, {3, 2, 4}, {4, 12, 1}, 0},
    {"ops::swapaxes(A, 0, 2)", [&] { return ops::swapaxes(A, 0, 2); }, {4, 3, 2}, {1, 4, 12}, 0},
    {"ops::swapdims(B, 1, -1)", [&] { return ops::swapdims(B, 1, -1); }, {4, 2, 3}, {1, 12, 4}, 0},
    {"ops::_reshape_alias(A, {4, 6}, {6, 1})", [&] { return ops::_reshape_alias(A, {4, 6}, {6, 1}); }, {4, 6}, {6, 1}, 0},
    {"ops::_unsafe_view(A, {4, 6})", [&] { return ops::_unsafe_view(A, {4, 6}); }, {4, 6}, {6, 1}, 0},
  };
  // clang-format on
  const std::vector<const Tensor*> bases = {&A, &S, &E, &V};
  int checked = 0;
  for (const Row& r : rows) {
    std::string call = r.call;
    CAPTURE(call);
    Tensor out = r.fn();
    std::string got = geometry_str(out.sizes(), out.strides(), out->storage_offset());
    std::string want = geometry_str(r.sizes, r.strides, r.offset);
    CHECK_MESSAGE(got == want, "torch: ", want, "  opscope: ", got);
    bool shares = false;
    for (const Tensor* b : bases) shares |= out->storage().get() == (*b)->storage().get();
    CHECK_MESSAGE(shares, "not a view of its input");
    ++checked;
  }
  CHECK(checked == static_cast<int>(rows.size()));
}

TEST_CASE("views: view of strided tensors succeeds exactly when torch's does") {
  // Note [Which views are possible]: (old sizes, old strides, new shape, ok, new strides).
  struct Row {
    Ints size, stride, shape;
    bool ok;
    Ints expected;
  };
  // clang-format off
  const std::vector<Row> rows = {
    {{2, 3, 4}, {12, 4, 1}, {24}, true, {1}},
    {{2, 3, 4}, {12, 4, 1}, {6, 4}, true, {4, 1}},
    {{2, 3, 4}, {12, 4, 1}, {2, 12}, true, {12, 1}},
    {{2, 3, 4}, {12, 4, 1}, {4, 6}, true, {6, 1}},
    {{2, 3, 4}, {12, 4, 1}, {3, 8}, true, {8, 1}},
    {{2, 3, 4}, {12, 4, 1}, {2, 3, 4}, true, {12, 4, 1}},
    {{2, 3, 4}, {12, 4, 1}, {2, 3, 2, 2}, true, {12, 4, 2, 1}},
    {{2, 3, 4}, {12, 4, 1}, {1, 2, 3, 4, 1}, true, {24, 12, 4, 1, 1}},
    {{2, 3, 4}, {12, 4, 1}, {3, 2, 4}, true, {8, 4, 1}},
    {{2, 3, 4}, {12, 4, 1}, {4, 3, 2}, true, {6, 2, 1}},
    {{2, 3, 4}, {12, 4, 1}, {3, 2, 2, 2}, true, {8, 4, 2, 1}},
    {{2, 3, 4}, {12, 4, 1}, {2, 2, 3, 2}, true, {12, 6, 2, 1}},
    {{2, 3, 4}, {12, 4, 1}, {3, 1, 2, 4}, true, {8, 8, 4, 1}},
    {{2, 3, 4}, {12, 4, 1}, {1, 4, 3, 2, 1}, true, {24, 6, 2, 1, 1}},
    {{3, 2, 4}, {4, 12, 1}, {24}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {6, 4}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {2, 12}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {4, 6}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {3, 8}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {2, 3, 4}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {2, 3, 2, 2}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {1, 2, 3, 4, 1}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {3, 2, 4}, true, {4, 12, 1}},
    {{3, 2, 4}, {4, 12, 1}, {4, 3, 2}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {3, 2, 2, 2}, true, {4, 12, 2, 1}},
    {{3, 2, 4}, {4, 12, 1}, {2, 2, 3, 2}, false, {}},
    {{3, 2, 4}, {4, 12, 1}, {3, 1, 2, 4}, true, {4, 24, 12, 1}},
    {{3, 2, 4}, {4, 12, 1}, {1, 4, 3, 2, 1}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {24}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {6, 4}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {2, 12}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {4, 6}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {3, 8}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {2, 3, 4}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {2, 3, 2, 2}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {1, 2, 3, 4, 1}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {3, 2, 4}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {4, 3, 2}, true, {1, 4, 12}},
    {{4, 3, 2}, {1, 4, 12}, {3, 2, 2, 2}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {2, 2, 3, 2}, true, {2, 1, 4, 12}},
    {{4, 3, 2}, {1, 4, 12}, {3, 1, 2, 4}, false, {}},
    {{4, 3, 2}, {1, 4, 12}, {1, 4, 3, 2, 1}, true, {4, 1, 4, 12, 12}},
    {{2, 3, 2}, {12, 4, 2}, {12}, true, {2}},
    {{2, 3, 2}, {12, 4, 2}, {2, 6}, true, {12, 2}},
    {{2, 3, 2}, {12, 4, 2}, {6, 2}, true, {4, 2}},
    {{2, 3, 2}, {12, 4, 2}, {3, 2, 2}, true, {8, 4, 2}},
    {{2, 3, 2}, {12, 4, 2}, {2, 2, 3}, true, {12, 6, 2}},
    {{2, 3, 2}, {12, 4, 2}, {4, 3}, true, {6, 2}},
    {{2, 3, 2}, {12, 4, 2}, {12, 1}, true, {2, 2}},
    {{2, 3, 2}, {12, 4, 2}, {3, 4}, true, {8, 2}},
    {{2, 2, 4}, {12, 4, 1}, {16}, false, {}},
    {{2, 2, 4}, {12, 4, 1}, {2, 8}, true, {12, 1}},
    {{2, 2, 4}, {12, 4, 1}, {4, 4}, false, {}},
    {{2, 2, 4}, {12, 4, 1}, {2, 2, 2, 2}, true, {12, 4, 2, 1}},
    {{3, 4}, {1, 0}, {12}, false, {}},
    {{3, 4}, {1, 0}, {2, 6}, false, {}},
    {{3, 4}, {1, 0}, {6, 2}, false, {}},
    {{3, 4}, {1, 0}, {3, 2, 2}, true, {1, 0, 0}},
    {{3, 4}, {1, 0}, {2, 2, 3}, false, {}},
    {{3, 4}, {1, 0}, {4, 3}, false, {}},
    {{3, 4}, {1, 0}, {12, 1}, false, {}},
    {{3, 4}, {1, 0}, {3, 4}, true, {1, 0}},
    {{2, 1, 3}, {3, 100, 1}, {6}, true, {1}},
    {{2, 1, 3}, {3, 100, 1}, {3, 2}, true, {2, 1}},
    {{2, 1, 3}, {3, 100, 1}, {2, 3}, true, {3, 1}},
    {{2, 1, 3}, {3, 100, 1}, {1, 6}, true, {6, 1}},
    {{2, 1, 3}, {3, 100, 1}, {6, 1, 1}, true, {1, 1, 1}},
    {{2, 1, 3}, {3, 100, 1}, {2, 1, 3}, true, {3, 3, 1}},
    {{1, 6, 1}, {7, 1, 9}, {6}, true, {1}},
    {{1, 6, 1}, {7, 1, 9}, {3, 2}, true, {2, 1}},
    {{1, 6, 1}, {7, 1, 9}, {2, 3}, true, {3, 1}},
    {{1, 6, 1}, {7, 1, 9}, {1, 6}, true, {6, 1}},
    {{1, 6, 1}, {7, 1, 9}, {6, 1, 1}, true, {1, 9, 9}},
    {{1, 6, 1}, {7, 1, 9}, {2, 1, 3}, true, {3, 3, 1}},
    {{6}, {2}, {6}, true, {2}},
    {{6}, {2}, {3, 2}, true, {4, 2}},
    {{6}, {2}, {2, 3}, true, {6, 2}},
    {{6}, {2}, {1, 6}, true, {12, 2}},
    {{6}, {2}, {6, 1, 1}, true, {2, 2, 2}},
    {{6}, {2}, {2, 1, 3}, true, {6, 6, 2}},
    {{0, 3}, {1, 7}, {0, 3}, true, {1, 7}},
    {{0, 3}, {1, 7}, {3, 0}, true, {1, 1}},
    {{0, 3}, {1, 7}, {0}, true, {1}},
    {{}, {}, {1, 1}, true, {1, 1}},
    {{}, {}, {}, true, {}},
    {{}, {}, {1}, true, {1}},
    {{1}, {5}, {1, 1}, true, {5, 5}},
    {{1}, {5}, {}, true, {}},
    {{1}, {5}, {1}, true, {5}},
  };
  // clang-format on
  Tensor buffer = empty({1000}, ScalarType::Float32);
  for (const Row& r : rows) {
    CAPTURE(shape_str(r.size));
    CAPTURE(shape_str(r.stride));
    CAPTURE(shape_str(r.shape));
    std::optional<DimVector> s = compute_stride(r.size, r.stride, r.shape);
    CHECK(s.has_value() == r.ok);
    if (s && r.ok) CHECK(vec(*s) == r.expected);
    // The same through the op, on a real strided tensor.
    Tensor x = ops::as_strided(buffer, r.size, r.stride);
    if (r.ok) {
      Tensor v = ops::view(x, r.shape);
      CHECK(vec(v.strides()) == r.expected);
      CHECK(v->storage().get() == buffer->storage().get());
    } else {
      CHECK_THROWS_WITH_AS(ops::view(x, r.shape),
                           doctest::Contains("at least one dimension spans across two contiguous "
                                             "subspaces"),
                           Error);
    }
  }
}

TEST_CASE("views: errors carry torch's exception type and exact message") {
  Tensor A = iota({2, 3, 4});
  Tensor S = iota({});
  Tensor E = empty({0, 3}, ScalarType::Float32);
  Tensor V = iota({5});
  Tensor Y = iota({2, 3});
  Tensor D = empty({2, 3}, ScalarType::Float64);
  Tensor L = empty({2, 3}, ScalarType::Bool);
  enum class Kind { Runtime, Index };
  struct Row {
    const char* call;
    std::function<void()> fn;
    Kind kind;
    const char* message;
  };
  // clang-format off
  const std::vector<Row> rows = {
    {"ops::view(Y, {4, 5})", [&] { (void)ops::view(Y, {4, 5}); }, Kind::Runtime,
     "shape '[4, 5]' is invalid for input of size 6"},
    {"ops::view(Y, {-1, -1})", [&] { (void)ops::view(Y, {-1, -1}); }, Kind::Runtime,
     "only one dimension can be inferred"},
    {"ops::view(Y, {-2, 3})", [&] { (void)ops::view(Y, {-2, 3}); }, Kind::Runtime,
     "invalid shape dimension -2"},
    {"ops::view(Y, {-1, 4})", [&] { (void)ops::view(Y, {-1, 4}); }, Kind::Runtime,
     "shape '[-1, 4]' is invalid for input of size 6"},
    {"ops::view(E, {-1, 0})", [&] { (void)ops::view(E, {-1, 0}); }, Kind::Runtime,
     "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous"},
    {"ops::view(ops::transpose(A, 0, 1), {24})", [&] { (void)ops::view(ops::transpose(A, 0, 1), {24}); }, Kind::Runtime,
     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."},
    {"ops::view(ops::expand(V, {3, 5}), {15})", [&] { (void)ops::view(ops::expand(V, {3, 5}), {15}); }, Kind::Runtime,
     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."},
    {"ops::reshape(Y, {4, 5})", [&] { (void)ops::reshape(Y, {4, 5}); }, Kind::Runtime,
     "shape '[4, 5]' is invalid for input of size 6"},
    {"ops::reshape(Y, {-1, -1})", [&] { (void)ops::reshape(Y, {-1, -1}); }, Kind::Runtime,
     "only one dimension can be inferred"},
    {"ops::_unsafe_view(ops::t(Y), {6})", [&] { (void)ops::_unsafe_view(ops::t(Y), {6}); }, Kind::Runtime,
     "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead."},
    {"ops::as_strided(Y, {3, 3}, {3, 1})", [&] { (void)ops::as_strided(Y, {3, 3}, {3, 1}); }, Kind::Runtime,
     "setStorage: sizes [3, 3], strides [3, 1], storage offset 0, and itemsize 4 requiring a storage size of 36 are out of bounds for storage of size 24"},
    {"ops::as_strided(Y, {2, 2}, {1, 1}, 5)", [&] { (void)ops::as_strided(Y, {2, 2}, {1, 1}, 5); }, Kind::Runtime,
     "setStorage: sizes [2, 2], strides [1, 1], storage offset 5, and itemsize 4 requiring a storage size of 32 are out of bounds for storage of size 24"},
    {"ops::as_strided(D, {7}, {1})", [&] { (void)ops::as_strided(D, {7}, {1}); }, Kind::Runtime,
     "setStorage: sizes [7], strides [1], storage offset 0, and itemsize 8 requiring a storage size of 56 are out of bounds for storage of size 48"},
    {"ops::as_strided(Y, {2, 2}, {1, 1}, -1)", [&] { (void)ops::as_strided(Y, {2, 2}, {1, 1}, -1); }, Kind::Runtime,
     "Tensor: invalid storage offset -1"},
    {"ops::as_strided(Y, {2, 2}, {-1, 1})", [&] { (void)ops::as_strided(Y, {2, 2}, {-1, 1}); }, Kind::Runtime,
     "as_strided: Negative strides are not supported at the moment, got strides: [-1, 1]"},
    {"ops::as_strided(Y, {2, 2}, {1})", [&] { (void)ops::as_strided(Y, {2, 2}, {1}); }, Kind::Runtime,
     "mismatch in length of strides and shape"},
    {"ops::as_strided(Y, {-2, 2}, {1, 1})", [&] { (void)ops::as_strided(Y, {-2, 2}, {1, 1}); }, Kind::Runtime,
     "Storage size calculation overflowed with sizes=[-2, 2] and strides=[1, 1]"},
    {"ops::expand(ops::view(Y, {1, 6}), {-2, 6})", [&] { (void)ops::expand(ops::view(Y, {1, 6}), {-2, 6}); }, Kind::Runtime,
     "numel: integer multiplication overflow"},
    {"ops::expand(S, {-1})", [&] { (void)ops::expand(S, {-1}); }, Kind::Runtime,
     "numel: integer multiplication overflow"},
    {"ops::transpose(Y, 0, 2)", [&] { (void)ops::transpose(Y, 0, 2); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"ops::transpose(Y, -3, 0)", [&] { (void)ops::transpose(Y, -3, 0); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
    {"ops::transpose(S, 0, 1)", [&] { (void)ops::transpose(S, 0, 1); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"ops::t(A)", [&] { (void)ops::t(A); }, Kind::Runtime,
     "t() expects a tensor with <= 2 dimensions, but self is 3D"},
    {"ops::t(ops::unsqueeze(A, 0))", [&] { (void)ops::t(ops::unsqueeze(A, 0)); }, Kind::Runtime,
     "t() expects a tensor with <= 2 dimensions, but self is 4D"},
    {"ops::permute(Y, {0, 1, 2})", [&] { (void)ops::permute(Y, {0, 1, 2}); }, Kind::Runtime,
     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 3"},
    {"ops::permute(Y, {0})", [&] { (void)ops::permute(Y, {0}); }, Kind::Runtime,
     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1"},
    {"ops::permute(Y, {0, 0})", [&] { (void)ops::permute(Y, {0, 0}); }, Kind::Runtime,
     "permute(): duplicate dims are not allowed."},
    {"ops::permute(Y, {1, -1})", [&] { (void)ops::permute(Y, {1, -1}); }, Kind::Runtime,
     "permute(): duplicate dims are not allowed."},
    {"ops::permute(Y, {0, 2})", [&] { (void)ops::permute(Y, {0, 2}); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"ops::squeeze(Y, 2)", [&] { (void)ops::squeeze(Y, 2); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"ops::squeeze(S, 1)", [&] { (void)ops::squeeze(S, 1); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"ops::unsqueeze(Y, 3)", [&] { (void)ops::unsqueeze(Y, 3); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
    {"ops::unsqueeze(Y, -4)", [&] { (void)ops::unsqueeze(Y, -4); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got -4)"},
    {"ops::unsqueeze(S, 1)", [&] { (void)ops::unsqueeze(S, 1); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"ops::expand(V, {2, 4})", [&] { (void)ops::expand(V, {2, 4}); }, Kind::Runtime,
     "The expanded size of the tensor (4) must match the existing size (5) at non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [5]"},
    {"ops::expand(Y, {3})", [&] { (void)ops::expand(Y, {3}); }, Kind::Runtime,
     "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"},
    {"ops::expand(D, {3})", [&] { (void)ops::expand(D, {3}); }, Kind::Runtime,
     "expand(torch.DoubleTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"},
    {"ops::expand(L, {3})", [&] { (void)ops::expand(L, {3}); }, Kind::Runtime,
     "expand(CPUBoolType{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"},
    {"ops::expand(V, {-1, 5})", [&] { (void)ops::expand(V, {-1, 5}); }, Kind::Runtime,
     "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"},
    {"ops::expand(Y, {0, 3})", [&] { (void)ops::expand(Y, {0, 3}); }, Kind::Runtime,
     "The expanded size of the tensor (0) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [0, 3].  Tensor sizes: [2, 3]"},
    {"ops::expand(Y, {4, 2, 4})", [&] { (void)ops::expand(Y, {4, 2, 4}); }, Kind::Runtime,
     "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 2.  Target sizes: [4, 2, 4].  Tensor sizes: [2, 3]"},
    {"ops::expand_as(V, Y)", [&] { (void)ops::expand_as(V, Y); }, Kind::Runtime,
     "The expanded size of the tensor (3) must match the existing size (5) at non-singleton dimension 1.  Target sizes: [2, 3].  Tensor sizes: [5]"},
    {"ops::view_as(A, Y)", [&] { (void)ops::view_as(A, Y); }, Kind::Runtime,
     "shape '[2, 3]' is invalid for input of size 24"},
    {"ops::narrow(Y, 1, 2, 2)", [&] { (void)ops::narrow(Y, 1, 2, 2); }, Kind::Runtime,
     "start (2) + length (2) exceeds dimension size (3)."},
    {"ops::narrow(Y, 1, -1, 2)", [&] { (void)ops::narrow(Y, 1, -1, 2); }, Kind::Runtime,
     "start (2) + length (2) exceeds dimension size (3)."},
    {"ops::narrow(Y, 1, 0, -1)", [&] { (void)ops::narrow(Y, 1, 0, -1); }, Kind::Runtime,
     "start (0) + length (-1) exceeds dimension size (3)."},
    {"ops::narrow(Y, 1, 4, 0)", [&] { (void)ops::narrow(Y, 1, 4, 0); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got 4)"},
    {"ops::narrow(Y, 1, -4, 0)", [&] { (void)ops::narrow(Y, 1, -4, 0); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got -4)"},
    {"ops::narrow(Y, 2, 0, 1)", [&] { (void)ops::narrow(Y, 2, 0, 1); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"ops::narrow(S, 0, 0, 1)", [&] { (void)ops::narrow(S, 0, 0, 1); }, Kind::Runtime,
     "narrow() cannot be applied to a 0-dim tensor."},
    {"ops::select(V, 0, 5)", [&] { (void)ops::select(V, 0, 5); }, Kind::Index,
     "select(): index 5 out of range for tensor of size [5] at dimension 0"},
    {"ops::select(V, 0, -6)", [&] { (void)ops::select(V, 0, -6); }, Kind::Index,
     "select(): index -6 out of range for tensor of size [5] at dimension 0"},
    {"ops::select(Y, -1, 3)", [&] { (void)ops::select(Y, -1, 3); }, Kind::Index,
     "select(): index 3 out of range for tensor of size [2, 3] at dimension 1"},
    {"ops::select(Y, 2, 0)", [&] { (void)ops::select(Y, 2, 0); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"ops::select(S, 0, 0)", [&] { (void)ops::select(S, 0, 0); }, Kind::Index,
     "select() cannot be applied to a 0-dim tensor."},
    {"ops::select(E, 0, 0)", [&] { (void)ops::select(E, 0, 0); }, Kind::Index,
     "select(): index 0 out of range for tensor of size [0, 3] at dimension 0"},
    {"ops::slice(Y, 1, 0, 3, 0)", [&] { (void)ops::slice(Y, 1, 0, 3, 0); }, Kind::Runtime,
     "slice step must be positive"},
    {"ops::slice(Y, 1, 0, 3, -1)", [&] { (void)ops::slice(Y, 1, 0, 3, -1); }, Kind::Runtime,
     "slice step must be positive"},
    {"ops::slice(Y, 2)", [&] { (void)ops::slice(Y, 2); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"ops::slice(S, 0, 0, 1)", [&] { (void)ops::slice(S, 0, 0, 1); }, Kind::Index,
     "slice() cannot be applied to a 0-dim tensor."},
    {"ops::flatten(A, 2, 1)", [&] { (void)ops::flatten(A, 2, 1); }, Kind::Runtime,
     "flatten() has invalid args: start_dim cannot come after end_dim"},
    {"ops::flatten(A, 0, 3)", [&] { (void)ops::flatten(A, 0, 3); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
    {"ops::flatten(S, 0, 1)", [&] { (void)ops::flatten(S, 0, 1); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"ops::unflatten(A, 2, {3, 2})", [&] { (void)ops::unflatten(A, 2, {3, 2}); }, Kind::Runtime,
     "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 2 (4) in the input tensor"},
    {"ops::unflatten(A, -1, {-1, 3})", [&] { (void)ops::unflatten(A, -1, {-1, 3}); }, Kind::Runtime,
     "unflatten: Provided sizes [-1, 3] don't multiply up to the size of dim 2 (4) in the input tensor"},
    {"ops::unflatten(A, 2, {})", [&] { (void)ops::unflatten(A, 2, {}); }, Kind::Runtime,
     "unflatten: sizes must be non-empty"},
    {"ops::unflatten(A, 2, {-1, -1})", [&] { (void)ops::unflatten(A, 2, {-1, -1}); }, Kind::Runtime,
     "unflatten got an unexpected error:\nonly one dimension can be inferred"},
    {"ops::unflatten(A, 2, {-2, -2})", [&] { (void)ops::unflatten(A, 2, {-2, -2}); }, Kind::Runtime,
     "invalid shape dimension -2"},
    {"ops::unflatten(A, 3, {1})", [&] { (void)ops::unflatten(A, 3, {1}); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
    {"ops::unflatten(ops::view(E, {3, 0}), 1, {-1, 0})", [&] { (void)ops::unflatten(ops::view(E, {3, 0}), 1, {-1, 0}); }, Kind::Runtime,
     "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous"},
    {"ops::diagonal(A, 0, 1, 1)", [&] { (void)ops::diagonal(A, 0, 1, 1); }, Kind::Runtime,
     "diagonal dimensions cannot be identical 1, 1"},
    {"ops::diagonal(A, 0, 1, -2)", [&] { (void)ops::diagonal(A, 0, 1, -2); }, Kind::Runtime,
     "diagonal dimensions cannot be identical 1, -2"},
    {"ops::diagonal(V)", [&] { (void)ops::diagonal(V); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"ops::diagonal(A, 0, 0, 3)", [&] { (void)ops::diagonal(A, 0, 0, 3); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
    {"ops::unfold(V, 0, 6, 1)", [&] { (void)ops::unfold(V, 0, 6, 1); }, Kind::Runtime,
     "maximum size for tensor at dimension 0 is 5 but size is 6"},
    {"ops::unfold(V, 0, 2, 0)", [&] { (void)ops::unfold(V, 0, 2, 0); }, Kind::Runtime,
     "step is 0 but must be > 0"},
    {"ops::unfold(V, 1, 2, 1)", [&] { (void)ops::unfold(V, 1, 2, 1); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
    {"ops::unfold(S, 0, 2, 1)", [&] { (void)ops::unfold(S, 0, 2, 1); }, Kind::Runtime,
     "maximum size for tensor at dimension 0 is 1 but size is 2"},
    {"ops::unfold(V, 0, -1, 1)", [&] { (void)ops::unfold(V, 0, -1, 1); }, Kind::Runtime,
     "Storage size calculation overflowed with sizes=[7, -1] and strides=[1, 1]"},
    {"ops::unbind(Y, 2)", [&] { (void)ops::unbind(Y, 2); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
    {"ops::movedim(A, {0, 0}, {2, 1})", [&] { (void)ops::movedim(A, {0, 0}, {2, 1}); }, Kind::Runtime,
     "movedim: repeated dim in `source` ([0, 0])"},
    {"ops::movedim(A, {0, 1}, {2, -1})", [&] { (void)ops::movedim(A, {0, 1}, {2, -1}); }, Kind::Runtime,
     "movedim: repeated dim in `destination` ([2, -1])"},
    {"ops::movedim(A, {0, 1}, {2})", [&] { (void)ops::movedim(A, {0, 1}, {2}); }, Kind::Runtime,
     "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same number of dims as destination ([2] dims)"},
    {"ops::movedim(A, 3, 0)", [&] { (void)ops::movedim(A, 3, 0); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
    {"ops::swapaxes(A, 0, 3)", [&] { (void)ops::swapaxes(A, 0, 3); }, Kind::Index,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
  };
  // clang-format on
  for (const Row& r : rows) {
    std::string call = r.call;
    CAPTURE(call);
    try {
      r.fn();
      FAIL_CHECK("no error; torch raises: ", r.message);
    } catch (const IndexError& e) {
      CHECK_MESSAGE(r.kind == Kind::Index, "IndexError, torch raises RuntimeError: ", e.what());
      CHECK(std::string(e.what()) == std::string(r.message));
    } catch (const Error& e) {
      CHECK_MESSAGE(r.kind == Kind::Runtime, "RuntimeError, torch raises IndexError: ", e.what());
      CHECK(std::string(e.what()) == std::string(r.message));
    }
  }
}

TEST_CASE("views: a 0-d tensor has no dim to unbind or unflatten") {
  // torch: IndexError "Dimension specified as 0 but tensor has no dimensions", raised by
  // self.size(0) (here Tensor::size -> wrap_dim in core/tensor/Tensor.cpp).
  Tensor S = iota({});
  const char* message = "specified as 0 but tensor has no dimensions";
  CHECK_THROWS_WITH_AS(ops::unbind(S), doctest::Contains(message), IndexError);
  CHECK_THROWS_WITH_AS(ops::unflatten(S, 0, {1}), doctest::Contains(message), IndexError);
}

TEST_CASE("views: share storage and version counter; writes show through") {
  Tensor a = iota({2, 3, 4});
  Tensor t = ops::transpose(a, 0, 2);  // [4, 3, 2]
  Tensor s = ops::select(t, 1, 2);     // [4, 2]: a[:, 2, :].T
  Tensor e = ops::expand(ops::unsqueeze(ops::select(a, 0, 1), 0), {5, 3, 4});
  Tensor d = ops::diagonal(a, 1, 1, 2);  // [2, 3]
  for (const Tensor* v : {&t, &s, &e, &d}) {
    CHECK(v->impl()->storage().get() == a->storage().get());
    CHECK(v->impl()->version_counter().get() == a->version_counter().get());
  }
  // A write through one view is seen by the base and by every other view.
  at(s, {3, 1}) = 100.f;  // s[3, 1] = t[3, 2, 1] = a[1, 2, 3]
  CHECK(at(a, {1, 2, 3}) == 100.f);
  CHECK(at(e, {4, 2, 3}) == 100.f);  // e[k] = a[1] for every k
  CHECK(at(d, {1, 2}) == 100.f);     // d[b, i] = a[b, i, i + 1]
  at(a, {0, 0, 1}) = -1.f;
  CHECK(at(d, {0, 0}) == -1.f);
  CHECK(at(t, {1, 0, 0}) == -1.f);
  // In-place writes bump the one counter every view sees.
  uint32_t v0 = a->version();
  s->bump_version();
  CHECK(a->version() == v0 + 1);
  CHECK(d->version() == v0 + 1);
  // The unbound slices are views as well.
  std::vector<Tensor> rows = ops::unbind(a, 1);
  REQUIRE(rows.size() == 3);
  CHECK(at(rows[2], {1, 3}) == 100.f);
  // A view of a view records the absolute offset in the shared storage.
  Tensor n = ops::narrow(ops::select(a, 0, 1), 1, 1, 2);  // a[1, :, 1:3]
  CHECK(n->storage_offset() == 13);
  CHECK(at(n, {2, 1}) == at(a, {1, 2, 2}));
}

TEST_CASE("views: storage lives until the last view goes") {
  Allocator* alloc = cpu_allocator();
  const int64_t before = alloc->stats().current_bytes;
  Tensor view;
  {
    Tensor base = iota({250, 4});  // 4000 bytes
    CHECK(alloc->stats().current_bytes == before + 4000);
    view = ops::select(ops::transpose(ops::reshape(base, {10, 100}), 0, 1), 0, 7);
    CHECK(alloc->stats().current_bytes == before + 4000);  // views allocate nothing
  }
  // The base handle is gone; its storage is not (the view holds it, and its base: _base).
  CHECK(alloc->stats().current_bytes == before + 4000);
  CHECK(view->view_base() != nullptr);
  CHECK(view->storage()->use_count() == 2);
  CHECK(at(view, {3}) == 307.f);  // base[3 * 100 + 7]
  view = Tensor();
  CHECK(alloc->stats().current_bytes == before);
}

TEST_CASE("views: reshape copies only when no strides can do") {
  Tensor a = iota({2, 3, 4});
  Tensor viewable = ops::reshape(ops::transpose(a, 0, 1), {3, 2, 2, 2});
  CHECK(viewable->storage().get() == a->storage().get());

  Tensor b = ops::transpose(a, 1, 2);  // [2, 4, 3]
  Tensor r = ops::reshape(b, {2, 12});
  CHECK(r->storage().get() != a->storage().get());
  CHECK(vec(r.sizes()) == Ints{2, 12});
  CHECK(vec(r.strides()) == Ints{12, 1});
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t k = 0; k < 3; ++k) CHECK(at(r, {i, j * 3 + k}) == at(b, {i, j, k}));
  // The copy is a new tensor: writing it leaves `a` alone.
  at(r, {0, 0}) = 42.f;
  CHECK(at(a, {0, 0, 0}) == 0.f);

  Tensor c = ops::slice(a, 2, std::nullopt, std::nullopt, 3);  // [2, 3, 2] strides [12, 4, 3]
  Tensor f = ops::flatten(c);
  CHECK(f->storage().get() != a->storage().get());
  CHECK(vec(f.strides()) == Ints{1});
  CHECK(at(f, {5}) == at(c, {0, 2, 1}));
}

TEST_CASE("views: composite ops show torch's decomposition in the trace") {
  using Lines = std::vector<std::string>;
  Tensor a = iota({2, 3, 4});
  Tensor y = iota({2, 3});
  Tensor s = iota({});
  CHECK(trace([&] { ops::view(a, {6, 4}); }) == Lines{"aten::view"});
  CHECK(trace([&] { ops::transpose(a, 0, 1); }) ==
        Lines{"aten::transpose.int", "  aten::as_strided"});
  CHECK(trace([&] { ops::transpose(a, 1, -2); }) == Lines{"aten::transpose.int", "  aten::alias"});
  CHECK(trace([&] { ops::t(y); }) ==
        Lines{"aten::t", "  aten::transpose.int", "    aten::as_strided"});
  CHECK(trace([&] {
          ops::reshape(a, {4, 6});
        }) == Lines{"aten::reshape", "  aten::_reshape_alias"});
  CHECK(trace([&] { ops::reshape(ops::t(y), {6}); }, 1) == Lines{"aten::t", "  aten::transpose.int",
                                                                 "aten::reshape", "  aten::clone",
                                                                 "  aten::_unsafe_view"});
  CHECK(trace([&] { ops::flatten(a, 1); }) ==
        Lines{"aten::flatten.using_ints", "  aten::_reshape_alias"});
  CHECK(trace([&] { ops::flatten(s); }) ==
        Lines{"aten::flatten.using_ints", "  aten::reshape", "    aten::_reshape_alias"});
  CHECK(trace([&] { ops::flatten(a, 1, 1); }) == Lines{"aten::flatten.using_ints"});
  CHECK(trace([&] {
          ops::unflatten(a, 1, {3, 1});
        }) == Lines{"aten::unflatten.int", "  aten::view"});
  CHECK(trace([&] { ops::narrow(a, 1, 0, 2); }) ==
        Lines{"aten::narrow", "  aten::slice.Tensor", "    aten::as_strided"});
  Tensor a46 = ops::view(a, {4, 6});
  Tensor v4 = iota({4});
  CHECK(trace([&] { ops::view_as(a, a46); }) == Lines{"aten::view_as", "  aten::view"});
  CHECK(trace([&] { ops::expand_as(v4, a); }) ==
        Lines{"aten::expand_as", "  aten::expand", "    aten::as_strided"});
  CHECK(trace([&] { ops::unbind(y, 0); }) == Lines{"aten::unbind.int", "  aten::select.int",
                                                   "    aten::as_strided", "  aten::select.int",
                                                   "    aten::as_strided"});
  CHECK(trace([&] { ops::movedim(a, 0, 2); }) ==
        Lines{"aten::movedim.int", "  aten::permute", "    aten::as_strided"});
  CHECK(trace([&] { ops::swapaxes(a, 0, 2); }) ==
        Lines{"aten::swapaxes", "  aten::transpose.int", "    aten::as_strided"});
  CHECK(trace([&] { ops::_unsafe_view(a, {24}); }) == Lines{"aten::_unsafe_view"});
}

TEST_CASE("views: kernels run on every backend (meta tensors)") {
  Tensor m = meta_tensor({2, 3, 4});
  REQUIRE(m.key_set().has(DispatchKey::Meta));
  Tensor t = ops::permute(m, {2, 0, 1});
  CHECK(vec(t.sizes()) == Ints{4, 2, 3});
  CHECK(vec(t.strides()) == Ints{1, 12, 4});
  CHECK(t.device().type == DeviceType::Meta);
  CHECK(vec(ops::reshape(t, {4, 6}).sizes()) == Ints{4, 6});  // viewable: no copy needed
  CHECK(vec(ops::view(m, {-1}).sizes()) == Ints{24});
  CHECK(vec(ops::expand(ops::select(m, 0, 1), {5, 3, 4}).strides()) == Ints{0, 4, 1});
  CHECK_THROWS_WITH_AS(ops::as_strided(m, {5, 5}, {5, 1}),
                       doctest::Contains("requiring a storage size of 100 are out of bounds for "
                                         "storage of size 96"),
                       Error);
  CHECK_THROWS_WITH_AS(ops::expand(m, {4}),
                       doctest::Contains("expand(MetaFloatType{[2, 3, 4]}, size=[4])"), Error);
}

TEST_CASE("views: schemas, keys and Python names are torch 1.13's") {
  // (schema as torch._C._jit_get_schemas_for_operator prints it, key, variants)
  // clang-format off
  const std::vector<std::tuple<const char*, DispatchKey, Variants>> ops = {
      {"aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Method},
      {"aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::None},
      {"aten::_unsafe_view(Tensor self, SymInt[] size) -> Tensor",
       DispatchKey::CompositeExplicitAutograd, Variants::None},
      {"aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::alias(Tensor(a) self) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::None},
      {"aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::t(Tensor(a) self) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::squeeze(Tensor(a) self) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Method},
      {"aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Method},
      {"aten::view_as(Tensor(a) self, Tensor other) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Method},
      {"aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::None},
      {"aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)",
       DispatchKey::CompositeExplicitAutograd, Variants::Method},
      {"aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]",
       DispatchKey::CompositeExplicitAutograd, Variants::Auto},
      {"aten::movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
      {"aten::swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
       DispatchKey::CompositeImplicitAutograd, Variants::Auto},
  };
  // clang-format on
  Dispatcher& d = Dispatcher::singleton();
  for (const auto& [schema, key, variants] : ops) {
    std::string text(schema);
    CAPTURE(text);
    OperatorHandle op = d.find_by_full_name(text.substr(0, text.find('(')));
    CHECK(op.schema().str() == text);
    CHECK(op.entry().variants() == variants);
    DispatchKey chosen;
    const DispatchTableEntry& cpu = d.lookup(op, DispatchKeySet{DispatchKey::CPU}, &chosen);
    CHECK(cpu.registered_key == key);
    const DispatchTableEntry& meta = d.lookup(op, DispatchKeySet{DispatchKey::Meta}, &chosen);
    CHECK(meta.registered_key == key);
  }
}
