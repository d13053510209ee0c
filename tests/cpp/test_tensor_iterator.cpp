// TensorIterator (core/ops/TensorIterator.h) and the elementwise / copy ops built on it
// (core/ops/elementwise.h, core/ops/copy.h), against PyTorch 1.13.
//
// Values are checked against references computed here by plain loops over indices; each check
// prints the largest difference (maxdiff). Dtypes, strides and error messages are checked
// against what torch 1.13 gives: the promotion tables were generated with /usr/bin/python3 and
// torch (see the comment above each table).
#include <doctest/doctest.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"
#include "core/ops/TensorIterator.h"

using namespace opscope;
using Ints = std::vector<int64_t>;
using S = ScalarType;

namespace {

constexpr S kAllDtypes[] = {S::Bool,  S::UInt8,   S::Int8,     S::Int16,   S::Int32,
                            S::Int64, S::Float16, S::BFloat16, S::Float32, S::Float64};

Ints vec(IntArrayRef r) {
  return Ints(r.begin(), r.end());
}

// The element of t at a multi-index, as a double.
double get(const Tensor& t, const Ints& idx) {
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.strides()[d];
  return dispatch_dtype(t.dtype(), "get", [&]<typename T>() {
    return static_cast<double>(static_cast<acc_type_t<T>>(t.data_ptr<T>()[off]));
  });
}

// Calls f(index) for every multi-index of `sizes` in row-major order.
void for_each_index(const Ints& sizes, const std::function<void(const Ints&)>& f) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  Ints idx(sizes.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    f(idx);
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

// t's values in row-major order.
std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  for_each_index(vec(t.sizes()), [&](const Ints& idx) { out.push_back(get(t, idx)); });
  return out;
}

// The index of a broadcast operand of shape `sizes` for an index of the broadcast shape.
Ints broadcast_index(const Ints& sizes, const Ints& out_idx) {
  Ints idx(sizes.size());
  size_t offset = out_idx.size() - sizes.size();
  for (size_t d = 0; d < sizes.size(); ++d) idx[d] = sizes[d] == 1 ? 0 : out_idx[offset + d];
  return idx;
}

// out[i] = f(a[i], b[i]) over the broadcast shape, by plain loops.
std::vector<double> reference(const Tensor& a, const Tensor& b, const Ints& out_shape,
                              const std::function<double(double, double)>& f) {
  std::vector<double> out;
  for_each_index(out_shape, [&](const Ints& idx) {
    out.push_back(f(get(a, broadcast_index(vec(a.sizes()), idx)),
                    get(b, broadcast_index(vec(b.sizes()), idx))));
  });
  return out;
}

// Largest |a - b|; NaNs and infinities must agree exactly.
double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      if (std::isnan(a[i]) != std::isnan(b[i])) return INFINITY;
    } else if (std::isinf(a[i]) || std::isinf(b[i])) {
      if (a[i] != b[i]) return INFINITY;
    } else {
      m = std::max(m, std::fabs(a[i] - b[i]));
    }
  }
  return m;
}

void check_close(const char* what, const std::vector<double>& got, const std::vector<double>& want,
                 double tol = 0) {
  double d = max_diff(got, want);
  MESSAGE(std::string(what) << ": maxdiff " << d);
  CHECK(d <= tol);
}

// A contiguous tensor holding f(i) at row-major position i.
Tensor make(const Ints& sizes, S dtype, const std::function<double(int64_t)>& f) {
  Tensor t = make_empty(sizes, dtype);
  dispatch_dtype(dtype, "make", [&]<typename T>() {
    for (int64_t i = 0; i < t.numel(); ++i) t.data_ptr<T>()[i] = convert<T>(f(i));
  });
  return t;
}
// Small varied values: 1, 2, ..., with a sign pattern for signed dtypes.
Tensor iota(const Ints& sizes, S dtype = S::Float32, double start = 1) {
  return make(sizes, dtype, [&](int64_t i) { return start + static_cast<double>(i % 97); });
}
Tensor full(const Ints& sizes, S dtype, double v) {
  return make(sizes, dtype, [&](int64_t) { return v; });
}

Tensor transpose(const Tensor& t) {  // the last two dims swapped, a view
  Ints sizes = vec(t.sizes()), strides = vec(t.strides());
  std::swap(sizes[sizes.size() - 1], sizes[sizes.size() - 2]);
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return make_view(t, sizes, strides, t->storage_offset());
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

// Records the op names a call runs, nested: "aten::contiguous > aten::clone > aten::copy_".
class OpRecorder final : public DispatchObserver {
 public:
  void on_enter(const DispatchStep& step) override {
    if (step.kind == DispatchCallKind::Redispatch || step.kind == DispatchCallKind::RedispatchBoxed)
      return;
    names.push_back(std::string(depth, ' ') + step.op->full_name());
    ++depth;
    entered.push_back(step.id);
  }
  void on_exit(const DispatchStep& step, const Stack*) override {
    if (!entered.empty() && entered.back() == step.id) {
      entered.pop_back();
      --depth;
    }
  }
  std::vector<std::string> names;
  std::vector<uint64_t> entered;
  size_t depth = 0;
};

std::vector<std::string> trace(const std::function<void()>& f) {
  auto rec = std::make_shared<OpRecorder>();
  {
    ObserverHandle h = add_dispatch_observer(rec);
    f();
  }
  return rec->names;
}

}  // namespace

// --- TensorIterator -----------------------------------------------------------------------------

TEST_CASE("TensorIterator: broadcasting shapes and values") {
  struct Case {
    Ints a, b, out;
  };
  for (const Case& c : {Case{{2, 1, 4}, {3, 1}, {2, 3, 4}}, Case{{3}, {}, {3}},
                        Case{{}, {2, 3}, {2, 3}}, Case{{1}, {5, 1}, {5, 1}},
                        Case{{4, 1, 3}, {1, 2, 1}, {4, 2, 3}}, Case{{2, 3}, {2, 3}, {2, 3}}}) {
    Tensor a = iota(c.a), b = iota(c.b, S::Float32, 10);
    Tensor r = ops::add(a, b);
    CHECK(vec(r.sizes()) == c.out);
    check_close(("add " + shape_str(c.a) + " + " + shape_str(c.b)).c_str(), values(r),
                reference(a, b, c.out, [](double x, double y) { return x + y; }));
  }
  CHECK(error_of([] {
          ops::add(iota({2, 3}), iota({4}));
        }) ==
        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
        "dimension 1");
  CHECK(error_of([] {
          ops::mul(iota({2, 3, 4}), iota({3, 5}));
        }) ==
        "The size of tensor a (4) must match the size of tensor b (5) at non-singleton "
        "dimension 2");
  CHECK(error_of([] {
          ops::add_(iota({3}), iota({2, 3}));
        }) == "output with shape [3] doesn't match the broadcast shape [2, 3]");
  CHECK(error_of([] {
          ops::copy_(iota({3}), iota({2, 3}));
        }) == "output with shape [3] doesn't match the broadcast shape [2, 3]");
}

TEST_CASE("TensorIterator: dimension coalescing and iteration order") {
  Tensor a = iota({2, 3, 4});
  {
    Tensor out;
    TensorIterator iter = TensorIteratorConfig().add_output(out).add_input(a).add_input(a).build();
    CHECK(iter.ndim() == 1);
    CHECK(vec(iter.shape()) == Ints{24});
    CHECK(iter.is_contiguous());
  }
  {
    // A transposed operand beside a contiguous one: no dims merge.
    Tensor t = transpose(iota({4, 3}));  // [3, 4], strides [1, 3]
    Tensor c = iota({3, 4});
    Tensor out;
    TensorIterator iter = TensorIteratorConfig().add_output(out).add_input(t).add_input(c).build();
    CHECK(iter.ndim() == 2);
    CHECK_FALSE(iter.is_contiguous());
  }
  {
    // Broadcasting a row over a contiguous [5, 6] keeps two dims; a [1, 6] beside [1, 6] is one.
    Tensor out;
    Tensor big = iota({5, 6}), row = iota({6});
    TensorIterator iter =
        TensorIteratorConfig().add_output(out).add_input(big).add_input(row).build();
    CHECK(iter.ndim() == 2);
    CHECK(vec(iter.strides(2)) == Ints{4, 0});
  }
  {
    // Slicing with a step: [4, 7][:, ::2] merges nothing ([4, 6][:, ::2] would: its elements
    // are evenly spaced); [4, 6][1:3] (whole rows) merges.
    Tensor base = iota({4, 7});
    Tensor stepped = make_view(base, Ints{4, 3}, Ints{7, 2}, 0);
    Tensor rows = make_view(iota({4, 6}), Ints{2, 6}, Ints{6, 1}, 6);
    Tensor out1, out2;
    TensorIterator i1 = TensorIteratorConfig().add_output(out1).add_input(stepped).build();
    TensorIterator i2 = TensorIteratorConfig().add_output(out2).add_input(rows).build();
    CHECK(i1.ndim() == 2);
    CHECK(i2.ndim() == 1);
  }
  // Allocated outputs follow the inputs' layout, like torch (strides from torch 1.13).
  Tensor t = transpose(iota({2, 3}));  // [3, 2], strides [1, 3]
  CHECK(vec(ops::add(t, t).strides()) == Ints{1, 3});
  CHECK(vec(ops::add(t, iota({3, 2})).strides()) == Ints{1, 3});
  CHECK(vec(ops::add(iota({3, 2}), t).strides()) == Ints{2, 1});
  Tensor p = make_view(iota({2, 3, 4}), Ints{4, 2, 3}, Ints{1, 12, 4}, 0);  // permute(2, 0, 1)
  CHECK(vec(ops::mul(p, 2).strides()) == Ints{1, 12, 4});
  check_close(
      "permuted * 2", values(ops::mul(p, 2)),
      reference(p, full({}, S::Float32, 2), {4, 2, 3}, [](double x, double y) { return x * y; }));
}

// add(tensor[2] of the row dtype, tensor[2] of the column dtype).dtype in torch 1.13; rows and
// columns in kAllDtypes order (bool, uint8, int8, int16, int32, int64, float16, bfloat16,
// float32, float64). Generated by:
//   [[short[torch.add(torch.ones(2, dtype=a), torch.ones(2, dtype=b)).dtype] for b in dts]
//    for a in dts]
const char* const kAddTensorTensor[10][10] = {
    {"b8", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"},
    {"u8", "u8", "i16", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"},
    {"i8", "i16", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"},
    {"i16", "i16", "i16", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"},
    {"i32", "i32", "i32", "i32", "i32", "i64", "f16", "bf16", "f32", "f64"},
    {"i64", "i64", "i64", "i64", "i64", "i64", "f16", "bf16", "f32", "f64"},
    {"f16", "f16", "f16", "f16", "f16", "f16", "f16", "f32", "f32", "f64"},
    {"bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "f32", "bf16", "f32", "f64"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f64"},
    {"f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64"},
};
// add(tensor[2] of the row dtype, 0-d tensor of the column dtype).dtype in torch 1.13.
const char* const kAddTensorZeroDim[10][10] = {
    {"b8", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"},
    {"u8", "u8", "u8", "u8", "u8", "u8", "f16", "bf16", "f32", "f64"},
    {"i8", "i8", "i8", "i8", "i8", "i8", "f16", "bf16", "f32", "f64"},
    {"i16", "i16", "i16", "i16", "i16", "i16", "f16", "bf16", "f32", "f64"},
    {"i32", "i32", "i32", "i32", "i32", "i32", "f16", "bf16", "f32", "f64"},
    {"i64", "i64", "i64", "i64", "i64", "i64", "f16", "bf16", "f32", "f64"},
    {"f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16"},
    {"bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "bf16"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32"},
    {"f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64"},
};
// add(tensor[2] of the row dtype, Python True / 1 / 1.5).dtype in torch 1.13.
const char* const kAddTensorNumber[10][3] = {
    {"b8", "i64", "f32"},  {"u8", "u8", "f32"},   {"i8", "i8", "f32"},   {"i16", "i16", "f32"},
    {"i32", "i32", "f32"}, {"i64", "i64", "f32"}, {"f16", "f16", "f16"}, {"bf16", "bf16", "bf16"},
    {"f32", "f32", "f32"}, {"f64", "f64", "f64"},
};
// div(tensor[2] of the row dtype, tensor[2] of the column dtype).dtype in torch 1.13.
const char* const kDivTensorTensor[10][10] = {
    {"f32", "f32", "f32", "f32", "f32", "f32", "f16", "bf16", "f32", "f64"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f16", "bf16", "f32", "f64"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f16", "bf16", "f32", "f64"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f16", "bf16", "f32", "f64"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f16", "bf16", "f32", "f64"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f16", "bf16", "f32", "f64"},
    {"f16", "f16", "f16", "f16", "f16", "f16", "f16", "f32", "f32", "f64"},
    {"bf16", "bf16", "bf16", "bf16", "bf16", "bf16", "f32", "bf16", "f32", "f64"},
    {"f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f64"},
    {"f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64"},
};

TEST_CASE("TensorIterator: type promotion of add and div matches torch 1.13") {
  int mismatches = 0;
  double worst = 0;
  for (int i = 0; i < 10; ++i) {
    for (int j = 0; j < 10; ++j) {
      Tensor a = full({2}, kAllDtypes[i], 1), b = full({2}, kAllDtypes[j], 1);
      Tensor r = ops::add(a, b);
      if (short_dtype(r.dtype()) != kAddTensorTensor[i][j]) {
        ++mismatches;
        MESSAGE("add " << dtype_name(kAllDtypes[i]) << " + " << dtype_name(kAllDtypes[j])
                       << ": got " << short_dtype(r.dtype()) << ", torch "
                       << kAddTensorTensor[i][j]);
      }
      double expected = r.dtype() == S::Bool ? 1 : 2;
      worst = std::max(worst, max_diff(values(r), {expected, expected}));
      Tensor z = ops::add(a, full({}, kAllDtypes[j], 1));
      if (short_dtype(z.dtype()) != kAddTensorZeroDim[i][j]) {
        ++mismatches;
        MESSAGE("add " << dtype_name(kAllDtypes[i]) << " + 0-d " << dtype_name(kAllDtypes[j])
                       << ": got " << short_dtype(z.dtype()) << ", torch "
                       << kAddTensorZeroDim[i][j]);
      }
      Tensor q = ops::div(a, b);
      if (short_dtype(q.dtype()) != kDivTensorTensor[i][j]) {
        ++mismatches;
        MESSAGE("div " << dtype_name(kAllDtypes[i]) << " / " << dtype_name(kAllDtypes[j])
                       << ": got " << short_dtype(q.dtype()) << ", torch "
                       << kDivTensorTensor[i][j]);
      }
      worst = std::max(worst, max_diff(values(q), {1, 1}));
    }
    const Scalar numbers[3] = {Scalar(true), Scalar(int64_t(1)), Scalar(1.5)};
    for (int j = 0; j < 3; ++j) {
      Tensor r = ops::add(full({2}, kAllDtypes[i], 1), numbers[j]);
      if (short_dtype(r.dtype()) != kAddTensorNumber[i][j]) {
        ++mismatches;
        MESSAGE("add " << dtype_name(kAllDtypes[i]) << " + " << numbers[j].str() << ": got "
                       << short_dtype(r.dtype()) << ", torch " << kAddTensorNumber[i][j]);
      }
    }
  }
  MESSAGE("promotion table mismatches: " << mismatches << ", values maxdiff " << worst);
  CHECK(mismatches == 0);
  CHECK(worst == 0);
}

TEST_CASE("TensorIterator: wrapped numbers promote like Python numbers") {
  Tensor i32 = iota({3}, S::Int32);
  CHECK(ops::add(i32, 2.5).dtype() == S::Float32);
  CHECK(ops::add(i32, wrapped_scalar_tensor(2.5)).dtype() == S::Float32);
  CHECK(ops::add(i32, int64_t(2)).dtype() == S::Int32);
  // A 0-d tensor that is not a wrapped number keeps its dtype when its category is higher.
  CHECK(ops::add(i32, full({}, S::Float64, 2.5)).dtype() == S::Float64);
  CHECK(ops::add(full({3}, S::Float16, 1), full({}, S::Float64, 2.5)).dtype() == S::Float16);
  // Two Python numbers: the default dtype, not float64.
  CHECK(ops::add(wrapped_scalar_tensor(1.5), wrapped_scalar_tensor(2.0)).dtype() == S::Float32);
  set_default_dtype(S::Float64);
  CHECK(ops::add(i32, 2.5).dtype() == S::Float64);
  CHECK(ops::div(i32, i32).dtype() == S::Float64);
  set_default_dtype(S::Float32);
  check_close("int32 + 2.5", values(ops::add(i32, 2.5)), {3.5, 4.5, 5.5});
  // uint8 compares with -1 after -1 wraps to 255, as in torch.
  check_close("uint8 < -1", values(ops::lt(full({2}, S::UInt8, 1), -1)), {1, 1});
  check_close("uint8 + 257", values(ops::add(full({2}, S::UInt8, 1), 257)), {2, 2});
}

TEST_CASE("TensorIterator: 0-d and empty tensors") {
  Tensor a = full({}, S::Float32, 2), b = full({}, S::Float32, 3);
  Tensor r = ops::mul(a, b);
  CHECK(r.dim() == 0);
  check_close("0-d * 0-d", values(r), {6});
  check_close("0-d + [3]", values(ops::add(a, iota({3}))), {3, 4, 5});
  for (const Ints& shape : {Ints{0}, Ints{2, 0}, Ints{0, 3}}) {
    Tensor e = ops::add(iota(shape), iota({1}));
    CHECK(vec(e.sizes()) == shape);
    CHECK(e.numel() == 0);
  }
  CHECK(vec(ops::add(iota({2, 0}), iota({0})).sizes()) == Ints{2, 0});
  CHECK(error_of([] {
          ops::add(iota({2, 0}), iota({2}));
        }) ==
        "The size of tensor a (0) must match the size of tensor b (2) at non-singleton "
        "dimension 1");
  Tensor out = make_empty(Ints{5}, S::Float32);
  ops::add_out(out, iota({0}), iota({0}));
  CHECK(vec(out.sizes()) == Ints{0});
}

TEST_CASE("TensorIterator: non-contiguous inputs and outputs") {
  Tensor base = iota({6, 8});
  Tensor t = transpose(base);                                    // [8, 6], strides [1, 8]
  Tensor stepped = make_view(base, Ints{3, 4}, Ints{16, 2}, 1);  // base[::2, 1::2]
  Tensor expanded = make_view(iota({8}), Ints{6, 8}, Ints{0, 1}, 0);
  auto add = [](double x, double y) { return x + y; };
  check_close("transposed + contiguous", values(ops::add(t, iota({8, 6}))),
              reference(t, iota({8, 6}), {8, 6}, add));
  check_close("stepped * stepped", values(ops::mul(stepped, stepped)),
              reference(stepped, stepped, {3, 4}, [](double x, double y) { return x * y; }));
  check_close("expanded - contiguous", values(ops::sub(expanded, base)),
              reference(expanded, base, {6, 8}, [](double x, double y) { return x - y; }));
  check_close("transposed + expanded row", values(ops::add(t, iota({6}))),
              reference(t, iota({6}), {8, 6}, add));
  // In place into a non-contiguous view writes through to the base.
  Tensor base2 = iota({6, 8});
  Tensor view = make_view(base2, Ints{3, 4}, Ints{16, 2}, 1);
  std::vector<double> want = reference(view, iota({4}), {3, 4}, add);
  ops::add_(view, iota({4}));
  check_close("stepped view add_", values(view), want);
  CHECK(get(base2, {0, 0}) == 1);  // untouched elements stay
  // Mixed dtypes with non-contiguous operands.
  Tensor ti = transpose(iota({6, 8}, S::Int64));
  check_close("int64 transposed + float", values(ops::add(ti, iota({8, 6}))),
              reference(ti, iota({8, 6}), {8, 6}, add));
}

TEST_CASE("TensorIterator: memory overlap errors") {
  const std::string internal =
      "unsupported operation: more than one element of the written-to tensor refers to a single "
      "memory location. Please clone() the tensor before performing the operation.";
  const std::string partial =
      "unsupported operation: some elements of the input tensor and the written-to tensor refer "
      "to a single memory location. Please clone() the tensor before performing the operation.";
  Tensor expanded = make_view(iota({3}), Ints{2, 3}, Ints{0, 1}, 0);
  CHECK(error_of([&] { ops::add_(expanded, 1); }) == internal);
  CHECK(error_of([&] { ops::copy_(expanded, iota({2, 3})); }) == internal);
  Tensor x = iota({6});
  Tensor head = make_view(x, Ints{5}, Ints{1}, 0), tail = make_view(x, Ints{5}, Ints{1}, 1);
  CHECK(error_of([&] { ops::add_(tail, head); }) == partial);
  CHECK(error_of([&] { ops::copy_(tail, head); }) == partial);
  CHECK(error_of([&] { ops::mul_out(tail, head, head); }) == partial);
  // Disjoint halves, and the very same view, are fine.
  Tensor lo = make_view(x, Ints{3}, Ints{1}, 0), hi = make_view(x, Ints{3}, Ints{1}, 3);
  ops::add_(lo, hi);
  check_close("x[:3] += x[3:]", values(x), {5, 7, 9, 4, 5, 6});
  Tensor same = make_view(x, Ints{6}, Ints{1}, 0);
  ops::add_(x, same);
  check_close("x += x (same memory)", values(x), {10, 14, 18, 8, 10, 12});
  // fill_ and zero_ may write into an expanded tensor, as in torch.
  ops::fill_(expanded, 7);
  check_close("expanded.fill_(7)", values(expanded), std::vector<double>(6, 7));
  ops::zero_(expanded);
  check_close("expanded.zero_()", values(expanded), std::vector<double>(6, 0));
}

TEST_CASE("TensorIterator: out= resize and dtype errors") {
  Tensor a = iota({2, 3}), b = iota({3}, S::Float32, 5);
  Tensor out = make_empty(Ints{0}, S::Float32);
  Tensor r = ops::add_out(out, a, b);
  CHECK(r.is_same(out));
  CHECK(vec(out.sizes()) == Ints{2, 3});
  check_close("add out= resized", values(out),
              reference(a, b, {2, 3}, [](double x, double y) { return x + y; }));
  // A transposed input: the resized out= takes its layout (torch gives strides [1, 3]).
  Tensor out2 = make_empty(Ints{0}, S::Float32);
  ops::add_out(out2, transpose(a), wrapped_scalar_tensor(1));
  CHECK(vec(out2.strides()) == Ints{1, 3});
  // An out= of a wider dtype: computed in the common dtype, then cast.
  Tensor out64 = make_empty(Ints{2, 3}, S::Float64);
  ops::mul_out(out64, a, b);
  CHECK(out64.dtype() == S::Float64);
  check_close("mul out=float64", values(out64),
              reference(a, b, {2, 3}, [](double x, double y) { return double(float(x * y)); }));
  Tensor out_int = make_empty(Ints{2, 3}, S::Int64);
  CHECK(error_of([&] { ops::add_out(out_int, a, b); }) ==
        "result type Float can't be cast to the desired output type Long");
  Tensor out_bool = make_empty(Ints{2, 3}, S::Bool);
  CHECK(error_of([&] { ops::mul_(out_bool, 2); }) ==
        "result type Long can't be cast to the desired output type Bool");
  // int + int into float out=: fine (int64 computed, then cast).
  Tensor out_f = make_empty(Ints{3}, S::Float32);
  ops::add_out(out_f, iota({3}, S::Int64), iota({3}, S::Int64));
  check_close("int64 + int64 out=float32", values(out_f), {2, 4, 6});
}

TEST_CASE("TensorIterator: int_tensor.add_(0.5) and other in-place casts") {
  Tensor i = iota({3}, S::Int64);
  CHECK(error_of([&] { ops::add_(i, 0.5); }) ==
        "result type Float can't be cast to the desired output type Long");
  CHECK(error_of([&] { ops::add_(i, iota({3})); }) ==
        "result type Float can't be cast to the desired output type Long");
  CHECK(error_of([&] { ops::div_(i, 2); }) ==
        "result type Float can't be cast to the desired output type Long");
  // float16 += float32 tensor: computed in float32, cast back into float16.
  Tensor h = iota({4}, S::Float16);
  ops::add_(h, iota({4}, S::Float32, 0.5));
  CHECK(h.dtype() == S::Float16);
  check_close("f16.add_(f32)", values(h), {1.5, 3.5, 5.5, 7.5});
  // Comparisons in place write 1 / 0 in self's dtype (torch: int64.eq_(2.5) -> [0, 0, 0]).
  Tensor j = full({3}, S::Int64, 1);
  ops::lt_(j, full({3}, S::Float32, 1.5));
  check_close("int64.lt_(1.5)", values(j), {1, 1, 1});
}

TEST_CASE("TensorIterator: the parallel path equals the serial path") {
  const int64_t n = 1 << 21;  // 2M elements: 64 grains
  Tensor a = make({n}, S::Float32, [](int64_t i) { return std::sin(double(i)); });
  Tensor b = make({n}, S::Float32, [](int64_t i) { return std::cos(double(i)); });
  int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  Tensor serial = ops::add(a, b, 0.5);
  Tensor serial_t = ops::mul(transpose(make_view(a, Ints{1024, 2048}, Ints{2048, 1}, 0)), 3);
  omp_set_num_threads(std::max(saved, 2));
  Tensor parallel = ops::add(a, b, 0.5);
  Tensor parallel_t = ops::mul(transpose(make_view(a, Ints{1024, 2048}, Ints{2048, 1}, 0)), 3);
  omp_set_num_threads(saved);
  check_close("add 2M elements, 1 thread vs 2+", values(parallel), values(serial));
  check_close("transposed mul, 1 thread vs 2+", values(parallel_t), values(serial_t));
  check_close(
      "add 2M elements vs loops", values(serial),
      reference(a, b, {n}, [](double x, double y) { return double(float(x + float(0.5) * y)); }));

  // Every element is visited exactly once, whatever the split: write each element's index.
  omp_set_num_threads(std::max(saved, 2));
  Tensor idx = make_empty(Ints{1000, 1500}, S::Int64);
  Tensor src = transpose(make_empty(Ints{1500, 1000}, S::Int64));
  TensorIterator iter = TensorIteratorConfig().add_output(idx).add_input(src).build();
  std::vector<int> hits(1000 * 1500, 0);
  iter.for_each([&](char** data, const int64_t* strides, int64_t count) {
    for (int64_t k = 0; k < count; ++k) {
      auto off = (data[0] + k * strides[0] - static_cast<char*>(idx.data())) / 8;
#pragma omp atomic
      ++hits[off];
    }
  });
  omp_set_num_threads(saved);
  int wrong = 0;
  for (int h : hits) wrong += h != 1;
  CHECK(wrong == 0);
}

// --- the ops ------------------------------------------------------------------------------------

TEST_CASE("elementwise: sub, rsub, mul and their checks") {
  Tensor a = iota({2, 3}), b = iota({3}, S::Float32, 4);
  check_close("sub alpha=2", values(ops::sub(a, b, 2)),
              reference(a, b, {2, 3}, [](double x, double y) { return x - 2 * y; }));
  check_close("rsub alpha=3", values(ops::rsub(a, b, 3)),
              reference(a, b, {2, 3}, [](double x, double y) { return y - 3 * x; }));
  check_close("rsub.Scalar", values(ops::rsub(full({3}, S::Float32, 1), 2, 3)), {-1, -1, -1});
  check_close("mul int8 wraps", values(ops::mul(full({2}, S::Int8, 100), full({2}, S::Int8, 3))),
              {44, 44});
  check_close("bool * bool",
              values(ops::mul(make({4}, S::Bool, [](int64_t i) { return i & 1; }),
                              make({4}, S::Bool, [](int64_t i) { return i >> 1; }))),
              {0, 0, 0, 1});
  check_close("bool + bool, alpha=2",
              values(ops::add(full({2}, S::Bool, 1), full({2}, S::Bool, 0), 2)), {1, 1});
  Tensor bo = full({2}, S::Bool, 1);
  CHECK(error_of([&] { ops::sub(bo, bo); }) ==
        "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
        "`logical_xor()` operator instead.");
  CHECK(error_of([&] { ops::sub(iota({2}, S::Int32), true); }) ==
        "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
        "to invert a mask, use the `~` or `logical_not()` operator instead.");
  CHECK(error_of([&] { ops::add(iota({3}, S::Int64), iota({3}, S::Int64), 0.5); }) ==
        "For integral input tensors, argument alpha must not be a floating point number.");
  CHECK(error_of([&] { ops::add(iota({3}), iota({3}), true); }) ==
        "Boolean alpha only supported for Boolean results.");
  CHECK(error_of([&] { ops::add(full({3}, S::Int8, 1), full({3}, S::Int8, 1), 1000); }) ==
        "value cannot be converted to type int8_t without overflow");
  // Half and bfloat16 compute in float and round once.
  check_close("f16 add", values(ops::add(full({2}, S::Float16, 0.1), full({2}, S::Float16, 0.2))),
              {double(float(Half(float(Half(0.1f)) + float(Half(0.2f))))),
               double(float(Half(float(Half(0.1f)) + float(Half(0.2f)))))});
  check_close("f16 + 1e6 overflows to inf", values(ops::add(full({1}, S::Float16, 1), 1e6)),
              {INFINITY});
}

TEST_CASE("elementwise: div with and without rounding modes") {
  // Values from torch 1.13.
  Tensor i = make({4}, S::Int64, [](int64_t k) { return std::vector<double>{5, -5, 7, -7}[k]; });
  Tensor j = make({4}, S::Int64, [](int64_t k) { return std::vector<double>{3, 3, -2, -2}[k]; });
  check_close("int div true", values(ops::div(i, j)), {5.0f / 3, -5.0f / 3, -3.5, 3.5}, 1e-6);
  check_close("int div trunc", values(ops::div(i, j, "trunc")), {1, -1, -3, 3});
  check_close("int div floor", values(ops::div(i, j, "floor")), {1, -2, -4, 3});
  CHECK(ops::div(i, j, "floor").dtype() == S::Int64);
  Tensor f = make({4}, S::Float32, [](int64_t k) {
    return std::vector<double>{5.5, -5.5, 5, -5}[k];
  });
  Tensor g = make({4}, S::Float32, [](int64_t k) { return std::vector<double>{2, 2, 0, 0}[k]; });
  check_close("float div floor", values(ops::div(f, g, "floor")), {2, -3, INFINITY, -INFINITY});
  check_close("float div trunc", values(ops::div(f, g, "trunc")), {2, -2, INFINITY, -INFINITY});
  check_close("int / 0 true division", values(ops::div(full({2}, S::Int64, 1), 0)),
              {INFINITY, INFINITY});
  check_close("0 / 0 true division", values(ops::div(full({1}, S::Int64, 0), 0)), {NAN});
  CHECK(error_of([] { ops::div(full({3}, S::Int64, 1), 0, "trunc"); }) == "ZeroDivisionError");
  CHECK(error_of([] { ops::div(full({3}, S::Int64, 1), full({3}, S::Int64, 0), "floor"); }) ==
        "ZeroDivisionError");
  CHECK(error_of([] { ops::div(full({3}, S::Int64, 1), 2, "bad"); }) ==
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'bad'");
  CHECK(error_of([] { ops::div(full({1}, S::Bool, 1), full({1}, S::Bool, 1), "trunc"); }) ==
        "\"div_trunc_cpu\" not implemented for 'Bool'");
  // INT64_MIN / -1 wraps instead of trapping.
  check_close("int8 -128 // -1", values(ops::div(full({1}, S::Int8, -128), -1, "trunc")), {-128});
  Tensor big = make({1}, S::Int64, [](int64_t) { return -9223372036854775808.0; });
  CHECK(ops::div(big, -1, "floor").data_ptr<int64_t>()[0] == INT64_MIN);
}

TEST_CASE("elementwise: neg and pow") {
  check_close("neg", values(ops::neg(iota({3}))), {-1, -2, -3});
  check_close("neg uint8 wraps", values(ops::neg(full({2}, S::UInt8, 1))), {255, 255});
  CHECK(error_of([] { ops::neg(full({2}, S::Bool, 1)); }) ==
        "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
        "invert a mask, use the `~` or `logical_not()` operator instead.");
  Tensor b = make({5}, S::Int64, [](int64_t k) { return std::vector<double>{2, 3, -1, 1, 0}[k]; });
  Tensor e = make({5}, S::Int64, [](int64_t k) {
    return std::vector<double>{10, 3, -3, -5, 0}[k];
  });
  check_close("int pow tensor", values(ops::pow(b, e)), {1024, 27, -1, 1, 1});
  check_close("int ** -1 (tensor) -> 0",
              values(ops::pow(full({2}, S::Int32, 3), full({}, S::Int64, -1))), {0, 0});
  CHECK(error_of([] { ops::pow(full({2}, S::Int64, 2), -1); }) ==
        "Integers to negative integer powers are not allowed.");
  CHECK(ops::pow(full({2}, S::Int64, 2), 2.5).dtype() == S::Float32);
  check_close("int ** 2.5", values(ops::pow(full({1}, S::Int64, 2), 2.5)),
              {double(std::pow(2.0f, 2.5f))});
  Tensor f = iota({5});
  for (double ex : {0.5, 2.0, 3.0, -0.5, -1.0, -2.0, 1.7, 0.0, 1.0}) {
    std::vector<double> want;
    for (double v : values(f)) want.push_back(double(std::pow(float(v), float(ex))));
    check_close(("float ** " + std::to_string(ex)).c_str(), values(ops::pow(f, ex)), want,
                2e-6 * 125);
  }
  check_close("2 ** int tensor", values(ops::pow(Scalar(int64_t(2)), iota({3}, S::Int64))),
              {2, 4, 8});
  CHECK(ops::pow(Scalar(int64_t(2)), full({2}, S::Bool, 1)).dtype() == S::Int64);
  CHECK(ops::pow(Scalar(2.5), iota({2}, S::Int64)).dtype() == S::Float32);
  check_close("1 ** x", values(ops::pow(Scalar(int64_t(1)), iota({2}))), {1, 1});
  CHECK(error_of([] { ops::pow(full({1}, S::Bool, 1), full({1}, S::Bool, 1)); }) ==
        "\"pow\" not implemented for 'Bool'");
  CHECK(error_of([] { ops::pow_(full({2}, S::Int64, 2), 0.5); }) ==
        "Found dtype Long but expected Float");
  Tensor p = iota({3}, S::Int64);
  ops::pow_(p, 2);
  check_close("int.pow_(2)", values(p), {1, 4, 9});
}

TEST_CASE("elementwise: comparisons and bitwise ops") {
  Tensor a = iota({2, 3}), b = make({3}, S::Float32, [](int64_t i) { return 2.0 * double(i); });
  struct Cmp {
    const char* name;
    std::function<Tensor(const Tensor&, const Tensor&)> op;
    std::function<double(double, double)> ref;
  };
  const Cmp cmps[] = {
      {"eq", ops::eq, [](double x, double y) { return double(x == y); }},
      {"ne", ops::ne, [](double x, double y) { return double(x != y); }},
      {"lt", ops::lt, [](double x, double y) { return double(x < y); }},
      {"le", ops::le, [](double x, double y) { return double(x <= y); }},
      {"gt", ops::gt, [](double x, double y) { return double(x > y); }},
      {"ge", ops::ge, [](double x, double y) { return double(x >= y); }},
  };
  for (const Cmp& c : cmps) {
    Tensor r = c.op(a, b);
    CHECK(r.dtype() == S::Bool);
    check_close(c.name, values(r), reference(a, b, {2, 3}, c.ref));
  }
  CHECK(ops::eq(iota({3}), iota({3}, S::Int64)).dtype() == S::Bool);
  Tensor out = make_empty(Ints{0}, S::Int64);
  ops::eq_out(out, full({3}, S::Float32, 1), 1);
  CHECK(out.dtype() == S::Int64);
  check_close("eq out=int64", values(out), {1, 1, 1});
  CHECK(error_of([] {
          ops::eq_(iota({3}), iota({2, 3}));
        }) == "output with shape [3] doesn't match the broadcast shape [2, 3]");

  Tensor x = make({4}, S::Int64, [](int64_t i) { return double(i * 5); });
  Tensor y = make({4}, S::Int64, [](int64_t i) { return double(6 - i); });
  check_close("bitwise_and", values(ops::bitwise_and(x, y)), {0 & 6, 5 & 5, 10 & 4, 15 & 3});
  check_close("bitwise_or", values(ops::bitwise_or(x, y)), {0 | 6, 5 | 5, 10 | 4, 15 | 3});
  check_close("bitwise_xor", values(ops::bitwise_xor(x, y)), {0 ^ 6, 5 ^ 5, 10 ^ 4, 15 ^ 3});
  check_close("bitwise_not", values(ops::bitwise_not(x)), {~0, ~5, ~10, ~15});
  check_close("bitwise_and(3, t)", values(ops::bitwise_and(Scalar(int64_t(3)), x)), {0, 1, 2, 3});
  Tensor t = make({2}, S::Bool, [](int64_t i) { return double(i == 0); });
  check_close("bool & 3 -> int64", values(ops::bitwise_and(t, 3)), {1, 0});
  CHECK(ops::bitwise_and(t, 3).dtype() == S::Int64);
  check_close("~bool", values(ops::bitwise_not(t)), {0, 1});
  check_close("bool ^ bool", values(ops::bitwise_xor(t, t)), {0, 0});
  CHECK(error_of([] { ops::bitwise_and(iota({2}), iota({2})); }) ==
        "\"bitwise_and_cpu\" not implemented for 'Float'");
  CHECK(error_of([] { ops::bitwise_or(iota({2}, S::Int64), 1.5); }) ==
        "\"bitwise_or_cpu\" not implemented for 'Float'");
  CHECK(error_of([] { ops::bitwise_not(iota({2})); }) ==
        "\"bitwise_not_cpu\" not implemented for 'Float'");
}

TEST_CASE("copy: copy_, to, clone, contiguous, fill_, zero_") {
  // copy_ broadcasts and converts.
  Tensor dst = make_empty(Ints{2, 3}, S::Float32);
  ops::copy_(dst, make({3}, S::Int64, [](int64_t i) { return double(i) - 1; }));
  check_close("copy_ int64[3] -> f32[2, 3]", values(dst), {-1, 0, 1, -1, 0, 1});
  int worst_pairs = 0;
  for (S from : kAllDtypes) {
    for (S to : kAllDtypes) {
      Tensor src = make({5}, from, [](int64_t i) { return double(i); });
      Tensor d = make_empty(Ints{5}, to);
      ops::copy_(d, src);
      std::vector<double> want = {0, 1, 2, 3, 4};
      if (to == S::Bool || from == S::Bool) want = {0, 1, 1, 1, 1};
      if (max_diff(values(d), want) != 0) ++worst_pairs;
    }
  }
  CHECK(worst_pairs == 0);
  check_close("copy_ float -> int truncates",
              values(ops::to(make({3}, S::Float32,
                                  [](int64_t i) {
                                    return std::vector<double>{2.7, -2.7, 0.5}[i];
                                  }),
                             S::Int64)),
              {2, -2, 0});

  // to: the same tensor when nothing changes; a copy with copy=true or another dtype.
  Tensor a = iota({2, 3});
  CHECK(ops::to(a, S::Float32).is_same(a));
  Tensor c = ops::to(a, S::Float32, false, true);
  CHECK_FALSE(c.is_same(a));
  CHECK(c->storage().get() != a->storage().get());
  Tensor t = transpose(a);
  Tensor td = ops::to(t, S::Float64);
  CHECK(vec(td.strides()) == Ints{1, 3});  // torch: dense layouts are preserved
  check_close("to(float64) of a transposed view", values(td), values(t));
  CHECK(ops::to(a, a).is_same(a));

  // clone keeps dense strides; a stepped view becomes row-major.
  CHECK(vec(ops::clone(t).strides()) == Ints{1, 3});
  Tensor stepped = make_view(a, Ints{2, 2}, Ints{3, 2}, 0);
  Tensor cs = ops::clone(stepped);
  CHECK(vec(cs.strides()) == Ints{2, 1});
  check_close("clone of a stepped view", values(cs), values(stepped));
  Tensor ce = ops::clone(make_view(a, Ints{4, 2, 3}, Ints{0, 3, 1}, 0));
  CHECK(vec(ce.strides()) == Ints{6, 3, 1});

  // contiguous: self when row-major, else clone.
  CHECK(ops::contiguous(a).is_same(a));
  Tensor tc = ops::contiguous(t);
  CHECK(tc.is_contiguous());
  CHECK(vec(tc.strides()) == Ints{2, 1});
  check_close("contiguous(t)", values(tc), values(t));
  CHECK(trace([&] { ops::contiguous(t); }) ==
        std::vector<std::string>{"aten::contiguous", " aten::clone", "  aten::empty_like",
                                 "   aten::empty.memory_format", "  aten::copy_"});
  CHECK(error_of([&] { ops::contiguous(t, {ops::kPreserveFormat}); }) ==
        "preserve memory format is unsupported by the contiguous operator");

  // fill_ converts with overflow checks; zero_.
  Tensor u = make_empty(Ints{3}, S::UInt8);
  ops::fill_(u, -1);
  check_close("uint8 fill_(-1)", values(u), {255, 255, 255});
  CHECK(error_of([&] { ops::fill_(u, 300); }) ==
        "value cannot be converted to type uint8_t without overflow");
  CHECK(error_of([] { ops::fill_(make_empty(Ints{2}, S::Float16), 1e6); }) ==
        "value cannot be converted to type at::Half without overflow");
  Tensor i = make_empty(Ints{3}, S::Int64);
  ops::fill_(i, 2.5);
  check_close("int64 fill_(2.5)", values(i), {2, 2, 2});
  ops::fill_(i, full({}, S::Float32, 4.5));
  check_close("int64 fill_(tensor(4.5))", values(i), {4, 4, 4});
  CHECK(error_of([&] { ops::fill_(i, iota({2})); }) ==
        "fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.");
  Tensor big = iota({300, 200});
  ops::zero_(transpose(big));
  check_close("zero_ of a transposed view", values(big), std::vector<double>(60000, 0));
}

TEST_CASE("elementwise: traces show PyTorch's decomposition") {
  Tensor a = iota({3}), i = iota({3}, S::Int32);
  CHECK(trace([&] { ops::add(a, 2); }) ==
        std::vector<std::string>{"aten::add.Scalar", " aten::add.Tensor"});
  CHECK(trace([&] { ops::rsub(a, a); }) ==
        std::vector<std::string>{"aten::rsub.Tensor", " aten::sub.Tensor"});
  // A converted input goes through aten::to, as torch's profiler shows.
  CHECK(trace([&] { ops::add(i, a); }) ==
        std::vector<std::string>{"aten::add.Tensor", " aten::to.dtype", "  aten::_to_copy",
                                 "   aten::empty_strided", "   aten::copy_"});
  // An out= of another dtype is written back with copy_.
  Tensor out64 = make_empty(Ints{3}, S::Float64);
  CHECK(trace([&] { ops::add_out(out64, a, a); }) ==
        std::vector<std::string>{"aten::add.out", " aten::copy_"});
}

// Not run by default (doctest --no-skip): the timings quoted in the report.
TEST_CASE("TensorIterator: timings" * doctest::skip()) {
  using clock = std::chrono::steady_clock;
  Tensor a = full({1}, S::Float32, 1), b = full({1}, S::Float32, 2);
  for (int i = 0; i < 10000; ++i) ops::add(a, b);
  const int calls = 1000000;
  auto t0 = clock::now();
  for (int i = 0; i < calls; ++i) ops::add(a, b);
  double ns = std::chrono::duration<double, std::nano>(clock::now() - t0).count() / calls;
  std::printf("ops::add on 1-element float32: %.0f ns per call\n", ns);

  const int64_t n = 10000000;
  Tensor x = full({n}, S::Float32, 1), y = full({n}, S::Float32, 2);
  Tensor out = make_empty(Ints{n}, S::Float32);
  int saved = omp_get_max_threads();
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    ops::add_out(out, x, y);
    double best = 1e9;
    for (int rep = 0; rep < 10; ++rep) {
      auto s = clock::now();
      ops::add_out(out, x, y);
      best = std::min(best, std::chrono::duration<double>(clock::now() - s).count());
    }
    std::printf("add 1e7 float32 (out=), %d thread(s): %.2f ms, %.1f GB/s\n", threads, best * 1e3,
                3.0 * 4 * n / best / 1e9);
    double best_alloc = 1e9;
    for (int rep = 0; rep < 10; ++rep) {
      auto s = clock::now();
      Tensor r = ops::add(x, y);
      best_alloc = std::min(best_alloc, std::chrono::duration<double>(clock::now() - s).count());
    }
    std::printf("add 1e7 float32 (allocating), %d thread(s): %.2f ms, %.1f GB/s\n", threads,
                best_alloc * 1e3, 3.0 * 4 * n / best_alloc / 1e9);
  }
  omp_set_num_threads(saved);
}
