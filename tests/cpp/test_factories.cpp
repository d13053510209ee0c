// The factory family (core/ops/factories.h) and the Philox generator (core/runtime/Generator.h):
// Random123's known answers; values, dtypes and errors against PyTorch 1.13 (arange / linspace
// to the last bit, from the table in data/factories_torch_ref.inc); the random ops' streams —
// reproducible, thread-count independent, with the right distributions; and the traces.
#include <doctest/doctest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/views.h"

using namespace opscope;
using Ints = std::vector<int64_t>;

namespace {

Ints vec(IntArrayRef r) {
  return Ints(r.begin(), r.end());
}

// Element i (row-major) of t as a double, whatever its dtype and strides.
double value_at(const Tensor& t, int64_t i) {
  int64_t off = 0, rest = i;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    off += (rest % t.size(d)) * t.stride(d);
    rest /= t.size(d);
  }
  return dispatch_dtype(t.dtype(), "value_at", [&]<typename T>() -> double {
    return static_cast<double>(static_cast<acc_type_t<T>>(t.data_ptr<T>()[off]));
  });
}
std::vector<double> values(const Tensor& t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(value_at(t, i));
  return v;
}

// The raw bits of element i of a contiguous tensor, zero-extended.
uint64_t bits_at(const Tensor& t, int64_t i) {
  uint64_t b = 0;
  size_t size = element_size(t.dtype());
  std::memcpy(&b, static_cast<const char*>(t.data()) + i * static_cast<int64_t>(size), size);
  return b;
}

// Ops entered by calls (not redispatches), indented by nesting, with the key that ran each.
class TraceRecorder final : public DispatchObserver {
 public:
  void on_enter(const DispatchStep& step) override {
    bool is_call = step.kind == DispatchCallKind::Call || step.kind == DispatchCallKind::CallBoxed;
    steps.push_back(std::string(2 * depth_, ' ') + (is_call ? "" : "-> ") + step.op->full_name() +
                    " [" + std::string(to_string(step.chosen)) + "]");
    ++depth_;
  }
  void on_exit(const DispatchStep&, const Stack*) override { --depth_; }
  std::vector<std::string> steps;

 private:
  size_t depth_ = 0;
};

std::vector<std::string> trace(const std::function<void()>& f) {
  auto rec = std::make_shared<TraceRecorder>();
  {
    ObserverHandle h = add_dispatch_observer(rec);
    f();
  }
  return rec->steps;
}

const ScalarType kAllDtypes[] = {ScalarType::Bool,    ScalarType::UInt8,    ScalarType::Int8,
                                 ScalarType::Int16,   ScalarType::Int32,    ScalarType::Int64,
                                 ScalarType::Float16, ScalarType::BFloat16, ScalarType::Float32,
                                 ScalarType::Float64};
const ScalarType kFloatDtypes[] = {ScalarType::Float16, ScalarType::BFloat16, ScalarType::Float32,
                                   ScalarType::Float64};

struct Moments {
  double mean = 0, stddev = 0, min = INFINITY, max = -INFINITY;
};
Moments moments(const Tensor& t) {
  Moments m;
  double s = 0, s2 = 0;
  for (double v : values(t)) {
    s += v;
    s2 += v * v;
    m.min = std::min(m.min, v);
    m.max = std::max(m.max, v);
  }
  double n = static_cast<double>(t.numel());
  m.mean = s / n;
  m.stddev = std::sqrt(s2 / n - m.mean * m.mean);
  return m;
}

// One row of data/factories_torch_ref.inc.
struct TorchRange {
  const char* call;
  const char* op;
  std::vector<Scalar> args;
  ScalarType asked, result;
  std::vector<uint64_t> bits;
  std::vector<int64_t> ints;
};
const std::vector<TorchRange> kTorchRanges = {
#include "data/factories_torch_ref.inc"
};

}  // namespace

// --- Philox and the generator ------------------------------------------------------------------

TEST_CASE("philox4x32-10 gives Random123's known answers") {
  using W = std::array<uint32_t, 4>;
  CHECK(philox4x32(0, 0, 0) == W{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(philox4x32(~0ull, ~0ull, ~0ull) == W{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  // counter (243f6a88 85a308d3 13198a2e 03707344), key (a4093822 299f31d0): digits of pi.
  CHECK(philox4x32(0x299f31d0a4093822ull, 0x85a308d3243f6a88ull, 0x0370734413198a2eull) ==
        W{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("a generator is a seed and a position; reserve hands out consecutive blocks") {
  Generator g = make_intrusive<GeneratorImpl>(Device(DeviceType::CPU), 42);
  CHECK(g->seed() == 42);
  CHECK(g->offset() == 0);
  CHECK(g->reserve(3) == std::pair<uint64_t, uint64_t>{42, 0});
  CHECK(g->reserve(5) == std::pair<uint64_t, uint64_t>{42, 3});
  CHECK(g->offset() == 8);
  g->set_offset(2);
  CHECK(g->reserve(1).second == 2);
  g->set_seed(7);  // rewinds
  CHECK(g->offset() == 0);
  CHECK(g->seed() == 7);
  uint64_t s = g->seed_randomly();
  CHECK(g->seed() == s);
  CHECK(GeneratorImpl(Device(DeviceType::CPU)).seed() == 67280421310721ull);

  const Generator& d = default_generator();
  CHECK(d.get() == default_generator(Device(DeviceType::CPU)).get());
  manual_seed(123);
  CHECK(d->seed() == 123);
  CHECK(d->offset() == 0);
  CHECK(default_generator(Device(DeviceType::CUDA, 0)).get() !=
        default_generator(Device(DeviceType::CUDA, 1)).get());
}

// --- deterministic factories -------------------------------------------------------------------

TEST_CASE("arange and linspace match torch 1.13 to the last bit") {
  int64_t total = 0, mismatched = 0;
  for (const TorchRange& r : kTorchRanges) {
    CAPTURE(r.call);
    std::optional<ScalarType> dtype;
    if (r.asked != ScalarType::Undefined) dtype = r.asked;
    Tensor t;
    if (std::string(r.op) == "arange") {
      if (r.args.size() == 1) t = ops::arange(r.args[0], dtype);
      if (r.args.size() == 2) t = ops::arange(r.args[0], r.args[1], dtype);
      if (r.args.size() == 3) t = ops::arange(r.args[0], r.args[1], r.args[2], dtype);
    } else {
      t = ops::linspace(r.args[0], r.args[1], r.args[2].to_long(), dtype);
    }
    CHECK(t.dtype() == r.result);
    bool floating = !r.bits.empty() || is_floating(r.result);
    int64_t n =
        floating ? static_cast<int64_t>(r.bits.size()) : static_cast<int64_t>(r.ints.size());
    REQUIRE(t.numel() == n);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      bool same =
          floating ? bits_at(t, i) == r.bits[i] : static_cast<int64_t>(value_at(t, i)) == r.ints[i];
      if (!same && ++bad <= 3)
        MESSAGE(r.call, " element ", i, ": opscope ", value_at(t, i), " torch ",
                floating ? std::to_string(r.bits[i]) : std::to_string(r.ints[i]), " (bits)");
    }
    CHECK(bad == 0);
    total += n;
    mismatched += bad;
  }
  MESSAGE("arange/linspace vs torch: ", kTorchRanges.size(), " calls, ", total, " elements, ",
          mismatched, " differ");
}

TEST_CASE("dtype inference follows torch 1.13") {
  CHECK(ops::full({2}, true).dtype() == ScalarType::Bool);
  CHECK(ops::full({2}, 3).dtype() == ScalarType::Int64);
  CHECK(ops::full({2}, 3.5).dtype() == ScalarType::Float32);
  CHECK(ops::arange(5).dtype() == ScalarType::Int64);
  CHECK(ops::arange(true).dtype() == ScalarType::Int64);
  CHECK(ops::arange(5.0).dtype() == ScalarType::Float32);
  CHECK(ops::arange(0, 5, 0.5).dtype() == ScalarType::Float32);
  CHECK(ops::linspace(0, 10, 5).dtype() == ScalarType::Float32);
  CHECK(ops::scalar_tensor(3).dtype() == ScalarType::Float32);
  CHECK(ops::scalar_tensor(true).dtype() == ScalarType::Float32);
  CHECK(ops::zeros({2}).dtype() == ScalarType::Float32);
  CHECK(ops::eye(2).dtype() == ScalarType::Float32);
  CHECK(ops::rand({2}).dtype() == ScalarType::Float32);
  CHECK(ops::randint(5, {2}).dtype() == ScalarType::Int64);
  CHECK(ops::randint(5, {2}, std::optional<ScalarType>()).dtype() == ScalarType::Int64);  // None
  set_default_dtype(ScalarType::Float64);
  CHECK(ops::full({2}, 3.5).dtype() == ScalarType::Float64);
  CHECK(ops::arange(0, 1, 0.25).dtype() == ScalarType::Float64);
  CHECK(ops::randn({2}).dtype() == ScalarType::Float64);
  CHECK(ops::empty({2}).dtype() == ScalarType::Float64);
  CHECK(ops::full({2}, 3).dtype() == ScalarType::Int64);
  set_default_dtype(ScalarType::Float32);
  // *_like keep self's dtype unless told.
  Tensor i32 = ops::zeros({2, 2}, ScalarType::Int32);
  CHECK(ops::full_like(i32, 2.5).dtype() == ScalarType::Int32);
  CHECK(values(ops::full_like(i32, 2.5)) == std::vector<double>{2, 2, 2, 2});
  CHECK(ops::full_like(ops::zeros({2}), true).dtype() == ScalarType::Float32);
  CHECK(ops::ones_like(i32, ScalarType::Float64).dtype() == ScalarType::Float64);
  CHECK(ops::rand_like(ops::zeros({2}, ScalarType::Float16)).dtype() == ScalarType::Float16);
}

TEST_CASE("zeros, ones, full, eye, scalar_tensor: values for every dtype") {
  for (ScalarType dt : kAllDtypes) {
    CAPTURE(dtype_name(dt));
    CHECK(values(ops::zeros({2, 3}, dt)) == std::vector<double>(6, 0.0));
    CHECK(values(ops::ones({3}, dt)) == std::vector<double>(3, 1.0));
    CHECK(values(ops::full({2, 2}, 1, dt)) == std::vector<double>(4, 1.0));
    CHECK(values(ops::eye(2, 3, dt)) == std::vector<double>{1, 0, 0, 0, 1, 0});
    Tensor s = ops::scalar_tensor(1, dt);
    CHECK(s.dim() == 0);
    CHECK(value_at(s, 0) == 1.0);
  }
  CHECK(values(ops::full({3}, -2.7, ScalarType::Int64)) == std::vector<double>(3, -2.0));
  CHECK(values(ops::full({2}, -1, ScalarType::UInt8)) == std::vector<double>(2, 255.0));
  CHECK(values(ops::full({2}, 2, ScalarType::Bool)) == std::vector<double>(2, 1.0));
  CHECK(values(ops::full({1}, 0.1, ScalarType::Float16))[0] == doctest::Approx(0.0999755859375));
  CHECK(values(ops::eye(3)) == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1});
  CHECK(vec(ops::eye(3, 0).sizes()) == Ints{3, 0});
  CHECK(vec(ops::eye(0).sizes()) == Ints{0, 0});
  CHECK(ops::zeros({0, 5}).numel() == 0);
  CHECK(values(ops::linspace(3, 10, 0)).empty());
  CHECK(values(ops::linspace(true, false, 1, ScalarType::Bool)) == std::vector<double>{1});
  CHECK(values(ops::arange(-3, 3, 1, ScalarType::Float16)) ==
        std::vector<double>{-3, -2, -1, 0, 1, 2});
  Tensor big = ops::zeros({1 << 20}, ScalarType::Float64);  // the parallel memset path
  CHECK(moments(big).max == 0.0);
  CHECK(moments(ops::ones({1 << 17})).min == 1.0);
}

TEST_CASE("empty, empty_strided and memory formats") {
  Tensor e = ops::empty({2, 3});
  CHECK(vec(e.strides()) == Ints{3, 1});
  Tensor s = ops::empty_strided(std::array<int64_t, 2>{2, 3}, std::array<int64_t, 2>{1, 2});
  CHECK(vec(s.strides()) == Ints{1, 2});
  CHECK(s->storage()->nbytes() == 6 * sizeof(float));
  Tensor cl = ops::empty(std::array<int64_t, 4>{2, 3, 4, 5}, std::nullopt, std::nullopt,
                         std::nullopt, std::nullopt, ops::kChannelsLast);
  CHECK(vec(cl.strides()) == Ints{60, 1, 15, 3});
  Tensor cl3 = ops::empty(std::array<int64_t, 5>{2, 3, 4, 5, 6}, std::nullopt, std::nullopt,
                          std::nullopt, std::nullopt, ops::kChannelsLast3d);
  CHECK(vec(cl3.strides()) == Ints{360, 1, 90, 18, 3});

  // empty_like's preserve_format keeps dense strides, else infers dense ones in the same order.
  Tensor a = ops::empty({3, 4});
  CHECK(vec(ops::empty_like(ops::t(a)).strides()) == Ints{1, 4});
  CHECK(vec(ops::zeros_like(ops::t(a)).strides()) == Ints{1, 4});
  CHECK(vec(ops::empty_like(ops::slice(a, 1, 0, 4, 2)).strides()) == Ints{2, 1});
  CHECK(vec(ops::empty_like(ops::expand(ops::empty({3, 1}), {3, 4})).strides()) == Ints{4, 1});
  CHECK(vec(ops::empty_like(ops::t(a), std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                            ops::kContiguousFormat)
                .strides()) == Ints{3, 1});
  Tensor nchw = ops::empty(std::array<int64_t, 4>{2, 3, 4, 5});
  CHECK(vec(ops::zeros_like(ops::permute(nchw, {0, 2, 3, 1})).strides()) == Ints{60, 5, 1, 20});
}

TEST_CASE("factory errors say what torch says") {
  using ST = ScalarType;
  auto throws = [](const std::function<void()>& f, const std::string& msg) {
    CAPTURE(msg);
    CHECK_THROWS_WITH_AS(f(), msg.c_str(), Error);
  };
  throws([] { ops::zeros(std::array<int64_t, 1>{-1}); },
         "Trying to create tensor with negative dimension -1: [-1]");
  throws(
      [] {
        ops::empty_strided(std::array<int64_t, 2>{2, -3}, std::array<int64_t, 2>{1, 2});
      },
      "Trying to create tensor with negative dimension -3: [2, -3]");
  throws(
      [] {
        ops::empty_strided(std::array<int64_t, 2>{2, 3}, std::array<int64_t, 1>{1});
      },
      "dimensionality of sizes (2) must match dimensionality of strides (1)");
  throws(
      [] {
        ops::empty_strided(std::array<int64_t, 2>{2, 3}, std::array<int64_t, 2>{1, -2});
      },
      "Storage size calculation overflowed with sizes=[2, 3] and strides=[1, -2]");
  throws(
      [] {
        ops::empty(std::array<int64_t, 1>{2}, std::nullopt, std::nullopt, std::nullopt,
                   std::nullopt, ops::kPreserveFormat);
      },
      "unsupported memory format Preserve");
  throws(
      [] {
        ops::empty(std::array<int64_t, 2>{2, 3}, std::nullopt, std::nullopt, std::nullopt,
                   std::nullopt, ops::kChannelsLast);
      },
      "required rank 4 tensor to use channels_last format");
  throws(
      [] {
        ops::empty_like(ops::empty({2, 3}), std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                        ops::kChannelsLast);
      },
      "required rank 4 tensor to use channels_last format");
  throws(
      [] { ops::empty(std::array<int64_t, 1>{2}, std::nullopt, std::nullopt, std::nullopt, true); },
      "Pinned memory requires CUDA.");
  throws([] { ops::arange(0, 10, -1); },
         "upper bound and larger bound inconsistent with step sign");
  throws([] { ops::arange(0, 10, 0); }, "step must be nonzero");
  throws([] { ops::arange(0, 5, 0.5, ST::Int64); }, "step must be nonzero");
  throws([] { ops::arange(NAN); }, "unsupported range: 0 -> nan");
  throws([] { ops::arange(INFINITY); }, "unsupported range: 0 -> inf");
  throws([] { ops::arange(0, 1e20, 1e-5); }, "invalid size, possible overflow?");
  throws([] { ops::arange(0, 10, 1, ST::Bool); }, "\"arange_cpu\" not implemented for 'Bool'");
  throws([] { ops::arange(NAN, ST::Int64); },
         "value cannot be converted to type int64_t without overflow");
  throws([] { ops::linspace(0, 1, -1); }, "number of steps must be non-negative");
  throws([] { ops::linspace(0, 10, 5, ST::Bool); }, "\"linspace_cpu\" not implemented for 'Bool'");
  throws([] { ops::linspace(0, 300, 5, ST::UInt8); },
         "value cannot be converted to type uint8_t without overflow");
  throws([] { ops::eye(-1); }, "n must be greater or equal to 0, got -1");
  throws([] { ops::eye(2, -1); }, "m must be greater or equal to 0, got -1");
  throws([] { ops::full({2}, 300, ST::UInt8); },
         "value cannot be converted to type uint8_t without overflow");
  throws([] { ops::full({2}, -300, ST::Int8); },
         "value cannot be converted to type int8_t without overflow");
  throws([] { ops::full({2}, 1e6, ST::Float16); },
         "value cannot be converted to type at::Half without overflow");
  throws([] { ops::full({2}, NAN, ST::Int64); },
         "value cannot be converted to type int64_t without overflow");
  throws([] { ops::full_like(ops::zeros({2}, ST::UInt8), 300); },
         "value cannot be converted to type uint8_t without overflow");
}

// --- random ------------------------------------------------------------------------------------

TEST_CASE("random streams: reproducible from a seed, consumed in order, per generator") {
  manual_seed(2024);
  std::vector<double> a = values(ops::rand({100}));
  std::vector<double> b = values(ops::rand({100}));
  CHECK(a != b);                               // the stream moved on
  CHECK(default_generator()->offset() == 50);  // 25 blocks of 4 words per call
  manual_seed(2024);
  CHECK(values(ops::rand({100})) == a);
  CHECK(values(ops::rand({100})) == b);
  manual_seed(2025);
  CHECK(values(ops::rand({100})) != a);

  // Element i reads word i % 4 of block i / 4: the first elements of a longer draw are a
  // shorter draw.
  manual_seed(5);
  std::vector<double> long_draw = values(ops::rand({1000}));
  manual_seed(5);
  std::vector<double> short_draw = values(ops::rand({10}));
  CHECK(std::equal(short_draw.begin(), short_draw.end(), long_draw.begin()));
  // And the value is the documented one: (word >> 8) * 2^-24.
  manual_seed(5);
  Tensor one = ops::rand({1});
  CHECK(value_at(one, 0) == static_cast<double>(uint32_to_uniform_float(philox4x32(5, 0)[0])));

  // An explicit generator leaves the default one alone.
  Generator g = make_intrusive<GeneratorImpl>(Device(DeviceType::CPU), 5);
  uint64_t before = default_generator()->offset();
  CHECK(values(ops::rand(std::array<int64_t, 1>{10}, g)) == short_draw);
  CHECK(default_generator()->offset() == before);
  CHECK(g->offset() == 3);
  Generator g2 = make_intrusive<GeneratorImpl>(Device(DeviceType::CPU), 5);
  CHECK(values(ops::randn(std::array<int64_t, 1>{7}, g)) !=
        values(ops::randn(std::array<int64_t, 1>{7}, g2)));  // g is 3 blocks further
}

TEST_CASE("random values do not depend on the thread count") {
  const int64_t n = 200000;  // above the 32768-element grain: several threads when allowed
  int saved = omp_get_max_threads();
  std::map<std::string, std::vector<std::vector<double>>> runs;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    auto run = [&](const char* name, const std::function<Tensor()>& f) {
      manual_seed(77);
      runs[name].push_back(values(f()));
    };
    run("rand f32", [&] { return ops::rand({n}); });
    run("rand f64", [&] { return ops::rand({n}, ScalarType::Float64); });
    run("randn f32", [&] { return ops::randn({n}); });
    run("randn f64", [&] { return ops::randn({n}, ScalarType::Float64); });
    run("randn bf16", [&] { return ops::randn({n}, ScalarType::BFloat16); });
    run("randint", [&] { return ops::randint(-5, 1000, {n}); });
    run("randint wide", [&] { return ops::randint(0, int64_t(1) << 40, {n}); });
    run("bernoulli_", [&] { return ops::bernoulli_(ops::empty({n}), 0.3); });
    run("random_", [&] { return ops::random_(ops::empty({n}, ScalarType::Int32)); });
    run("arange f32", [&] { return ops::arange(0, n, 0.7); });
    run("linspace f64", [&] { return ops::linspace(-2, 3, n, ScalarType::Float64); });
  }
  omp_set_num_threads(saved);
  for (const auto& [name, r] : runs) {
    CAPTURE(name);
    CHECK(r[0] == r[1]);
  }
}

TEST_CASE("distributions: uniform_, normal_, randint, random_, bernoulli_") {
  manual_seed(1);
  const int64_t n = 400000;
  for (ScalarType dt : kFloatDtypes) {
    CAPTURE(dtype_name(dt));
    Moments u = moments(ops::rand({n}, dt));
    CHECK(u.min >= 0.0);
    CHECK(u.max < 1.0);
    CHECK(u.mean == doctest::Approx(0.5).epsilon(0.01));
    CHECK(u.stddev == doctest::Approx(std::sqrt(1.0 / 12)).epsilon(0.01));
    Moments w = moments(ops::uniform_(ops::empty({n}, dt), -3, 5));
    CHECK(w.min >= -3.0);
    CHECK(w.max < 5.0);
    CHECK(w.mean == doctest::Approx(1.0).epsilon(0.01));
    Moments g = moments(ops::randn({n}, dt));
    CHECK(std::abs(g.mean) < 0.01);
    CHECK(g.stddev == doctest::Approx(1.0).epsilon(0.01));
    Moments h = moments(ops::normal_(ops::empty({n}, dt), 10, 0.5));
    CHECK(h.mean == doctest::Approx(10.0).epsilon(0.01));
    CHECK(h.stddev == doctest::Approx(0.5).epsilon(0.02));
    MESSAGE(dtype_name(dt), ": rand mean ", u.mean, " std ", u.stddev, "; randn mean ", g.mean,
            " std ", g.stddev);
  }
  // A normal sample has about 0.27% beyond 3 sigma: Box-Muller's tails are there.
  std::vector<double> z = values(ops::randn({n}, ScalarType::Float64));
  double beyond3 = 0;
  for (double v : z) beyond3 += std::abs(v) > 3;
  CHECK(beyond3 / n == doctest::Approx(0.0027).epsilon(0.15));

  // randint: every value of the range, about equally often.
  std::vector<double> ri = values(ops::randint(-3, 4, {70000}));
  std::map<int, int> counts;
  for (double v : ri) counts[static_cast<int>(v)]++;
  CHECK(counts.size() == 7);
  CHECK(counts.begin()->first == -3);
  CHECK(counts.rbegin()->first == 3);
  for (auto [v, c] : counts) CHECK(c == doctest::Approx(10000).epsilon(0.05));
  Moments wide = moments(ops::randint(0, int64_t(1) << 50, {20000}));
  CHECK(wide.max < std::ldexp(1.0, 50));
  CHECK(wide.mean == doctest::Approx(std::ldexp(1.0, 49)).epsilon(0.03));
  for (ScalarType dt : kAllDtypes) {
    CAPTURE(dtype_name(dt));
    Moments m = moments(ops::randint(0, 2, {1000}, dt));
    CHECK(m.min == 0);
    CHECK(m.max == 1);
  }
  Moments half_ints = moments(ops::randint(0, 2048, {1000}, ScalarType::Float16));
  CHECK(half_ints.max <= 2047);

  // random_: [0, 2^mantissa] for floats, [0, max] for integers, {0, 1} for bool.
  CHECK(moments(ops::random_(ops::empty({1000}, ScalarType::Bool))).max == 1);
  Moments r8 = moments(ops::random_(ops::empty({5000}, ScalarType::Int8)));
  CHECK(r8.min >= 0);
  CHECK(r8.max == 127);
  Moments rh = moments(ops::random_(ops::empty({5000}, ScalarType::Float16)));
  CHECK(rh.max <= 2048);
  Moments rt = moments(ops::random_(ops::empty({5000}, ScalarType::UInt8), 10));
  CHECK(rt.max == 9);
  Moments rf =
      moments(ops::random_(ops::empty({5000}, ScalarType::Int16), -100, std::optional<int64_t>()));
  CHECK(rf.min >= -100);
  CHECK(rf.max > 30000);
  Moments full64 =
      moments(ops::random_(ops::empty({5000}, ScalarType::Int64),
                           std::numeric_limits<int64_t>::lowest(), std::optional<int64_t>()));
  CHECK(full64.min < -1e18);
  CHECK(full64.max > 1e18);

  for (double p : {0.0, 0.25, 1.0}) {
    Moments b = moments(ops::bernoulli_(ops::empty({n}, ScalarType::Int64), p));
    CHECK(b.mean == doctest::Approx(p).epsilon(0.02));
  }

  // *_like and a non-contiguous in-place fill: element i (row-major) gets the i-th value.
  manual_seed(9);
  std::vector<double> fresh = values(ops::rand({4, 3}));
  manual_seed(9);
  Tensor tr = ops::t(ops::empty({3, 4}));
  ops::uniform_(tr);
  CHECK(values(tr) == fresh);
  manual_seed(9);
  CHECK(values(ops::rand_like(ops::empty({4, 3}))) == fresh);
  Tensor rl = ops::randint_like(ops::empty({1000}, ScalarType::Int32), 3, 6);
  CHECK(rl.dtype() == ScalarType::Int32);
  CHECK(moments(rl).min == 3);
  CHECK(moments(rl).max == 5);
  CHECK(moments(ops::randint_like(ops::empty({1000}), 4)).max == 3);
  CHECK(std::abs(moments(ops::randn_like(ops::empty({n}, ScalarType::Float64))).mean) < 0.01);
  // Empty tensors reserve nothing.
  uint64_t before = default_generator()->offset();
  ops::rand({0, 3});
  CHECK(default_generator()->offset() == before);
}

TEST_CASE("random op errors say what torch says") {
  using ST = ScalarType;
  auto throws = [](const std::function<void()>& f, const std::string& msg) {
    CAPTURE(msg);
    CHECK_THROWS_WITH_AS(f(), msg.c_str(), Error);
  };
  throws([] { ops::rand({2}, ST::Int64); }, "\"check_uniform_bounds\" not implemented for 'Long'");
  throws([] { ops::rand({2}, ST::Bool); }, "\"check_uniform_bounds\" not implemented for 'Bool'");
  throws([] { ops::randn({2}, ST::Int32); }, "\"normal_kernel_cpu\" not implemented for 'Int'");
  throws([] { ops::uniform_(ops::empty({2}), 1, 0); },
         "uniform_ expects to return a [from, to) range, but found from=1 > to=0");
  throws([] { ops::uniform_(ops::empty({0}), 1, 0); },
         "uniform_ expects to return a [from, to) range, but found from=1 > to=0");
  throws([] { ops::uniform_(ops::empty({2}, ST::Float16), 0, 1e6); },
         "to is out of bounds for c10::Half");
  throws([] { ops::uniform_(ops::empty({2}), 0, INFINITY); }, "to is out of bounds for float");
  throws([] { ops::uniform_(ops::empty({2}), -3e38, 3e38); },
         "uniform_ expects to-from <= std::numeric_limits<Float>::max(), but found to=3e+38 and "
         "from=-3e+38 which result in to-from to exceed the limit");
  throws([] { ops::normal_(ops::empty({2}), 0, -1); },
         "normal expects std >= 0.0, but found std -1");
  throws([] { ops::normal_(ops::empty({2}, ST::Int64), 0, -1); },
         "normal expects std >= 0.0, but found std -1");
  throws([] { ops::normal_(ops::empty({2}), 0, NAN); },
         "normal expects std >= 0.0, but found std nan");
  throws([] { ops::normal_(ops::empty({0}, ST::Int64)); },
         "\"normal_kernel_cpu\" not implemented for 'Long'");
  throws([] { ops::randint(3, 0, {2}); },
         "random_ expects 'from' to be less than 'to', but got from=3 >= to=0");
  throws([] { ops::randint(0, {2}); },
         "random_ expects 'from' to be less than 'to', but got from=0 >= to=0");
  throws([] { ops::randint(3, {2}, ST::Bool); }, "to - 1 is out of bounds for bool");
  throws([] { ops::randint(int64_t(1) << 40, {2}, ST::Int32); }, "to - 1 is out of bounds for int");
  throws([] { ops::randint(300, {2}, ST::UInt8); }, "to - 1 is out of bounds for unsigned char");
  throws([] { ops::randint(-300, 3, {2}, ST::UInt8); }, "from is out of bounds for unsigned char");
  throws([] { ops::random_(ops::empty({3}, ST::Int8), 200); },
         "to - 1 is out of bounds for signed char");
  throws([] { ops::random_(ops::empty({3}, ST::Int8), -129, 3); },
         "from is out of bounds for signed char");
  throws([] { ops::random_(ops::empty({2}, ST::Float16), 0, 70000); },
         "to - 1 is out of bounds for c10::Half");
  throws([] { ops::random_(ops::empty({0}, ST::Bool), 0, 3); }, "to - 1 is out of bounds for bool");
  throws([] { ops::bernoulli_(ops::empty({2}), 1.5); },
         "bernoulli_ expects p to be in [0, 1], but got p=1.5");
}

// --- registration and traces -------------------------------------------------------------------

TEST_CASE("factory schemas are torch 1.13's") {
  auto schema = [](const char* name) {
    return Dispatcher::singleton().find_by_full_name(name).schema().str();
  };
  CHECK(schema("aten::zeros") ==
        "aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=None) -> Tensor");
  CHECK(schema("aten::full") ==
        "aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  CHECK(schema("aten::arange.start_step") ==
        "aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor");
  CHECK(schema("aten::randint.low_generator") ==
        "aten::randint.low_generator(int low, int high, int[] size, *, Generator? generator, "
        "ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor");
  CHECK(schema("aten::uniform_") ==
        "aten::uniform_(Tensor(a!) self, float from=0, float to=1, *, "
        "Generator? generator=None) -> Tensor(a!)");
  CHECK(schema("aten::randint_like.low_dtype") ==
        "aten::randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=None, "
        "MemoryFormat? memory_format=None) -> Tensor");
  auto dflt = Dispatcher::singleton().find_by_full_name("aten::randint").schema().arguments[2];
  CHECK(dflt.default_value->to_scalar_type() == ScalarType::Int64);
}

TEST_CASE("traces: factories go BackendSelect -> CPU, *_like decompose as torch's") {
  CHECK(trace([] { ops::zeros({2}); }) ==
        std::vector<std::string>{"aten::zeros [BackendSelect]", "  -> aten::zeros [CPU]"});
  CHECK(trace([] { ops::randint(0, 5, {3}); }) ==
        std::vector<std::string>{"aten::randint.low [BackendSelect]",
                                 "  -> aten::randint.low [CPU]"});
  Tensor x = ops::empty({2, 3});
  auto zl = trace([&] { ops::zeros_like(x); });
  for (auto& s : zl) MESSAGE(s);
  REQUIRE(zl.size() >= 4);
  CHECK(zl[0] == "aten::zeros_like [CPU]");
  CHECK(zl[1] == "  aten::empty_like [CPU]");
  CHECK(zl[2] == "    aten::empty_strided [BackendSelect]");
  // zero_ is differentiable (ZeroBackward0): AutogradCPU first, as in torch; in-place ops then
  // pass ADInplaceOrView (version counter) before the kernel.
  CHECK(zl[zl.size() - 3] == "  aten::zero_ [AutogradCPU]");
  CHECK(zl[zl.size() - 2] == "    -> aten::zero_ [ADInplaceOrView]");
  CHECK(zl.back() == "      -> aten::zero_ [CPU]");
  // uniform_ has no derivative but, as every in-place op in torch, an Autograd kernel that checks
  // it is not writing into a leaf that requires grad (Note [In-place ops without a derivative]).
  auto rl = trace([&] { ops::rand_like(x); });
  REQUIRE(rl.size() >= 3);
  CHECK(rl[rl.size() - 3] == "  aten::uniform_ [AutogradCPU]");
  CHECK(rl.back() == "      -> aten::uniform_ [CPU]");
}
