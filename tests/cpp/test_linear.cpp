// The linear-algebra family (core/ops/linear.h): dot / vdot / mv / mm / bmm against a naive
// double-precision reference for every dtype and for transposed, strided, expanded operands and
// out= tensors (printing the largest difference); matmul's decomposition against the ops torch
// 1.13 runs for each shape case; every error message against torch's; and a quick gemm timing.
#include <doctest/doctest.h>
#include <omp.h>

#include "core/runtime/Blas.h"
#include "core/runtime/Parallel.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/linear.h"
#include "core/ops/views.h"

using namespace opscope;
using Ints = std::vector<int64_t>;

namespace {

Ints vec(IntArrayRef r) {
  return Ints(r.begin(), r.end());
}
std::string name_of(ScalarType dt) {
  return std::string(dtype_name(dt));
}

// Element `idx` of t as a double, through t's strides.
double at(const Tensor& t, const Ints& idx) {
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.stride(static_cast<int64_t>(d));
  return dispatch_dtype(t.dtype(), "at", [&]<typename T>() -> double {
    return static_cast<double>(static_cast<acc_type_t<T>>(t.data_ptr<T>()[off]));
  });
}

// Small random values: integers in [-4, 4] ([0, 8] for uint8), floats standard normal.
Tensor random_tensor(const Ints& sizes, ScalarType dt) {
  if (is_floating(dt)) return ops::randn(sizes, dt);
  if (dt == ScalarType::UInt8) return ops::randint(0, 9, sizes, dt);
  return ops::randint(-4, 5, sizes, dt);
}

// A double as the integer dtype stores it (two's complement wrap), else unchanged.
double wrap(double v, ScalarType dt) {
  int64_t i = static_cast<int64_t>(v);
  switch (dt) {
    case ScalarType::UInt8:
      return static_cast<uint8_t>(i);
    case ScalarType::Int8:
      return static_cast<int8_t>(i);
    case ScalarType::Int16:
      return static_cast<int16_t>(i);
    case ScalarType::Int32:
      return static_cast<int32_t>(i);
    case ScalarType::Int64:
      return static_cast<double>(i);
    default:
      return v;
  }
}

// Unit roundoff of the dtype's results (0 for integers, compared exactly after wrapping).
double unit_roundoff(ScalarType dt) {
  switch (dt) {
    case ScalarType::Float16:
      return std::ldexp(1.0, -11);
    case ScalarType::BFloat16:
      return std::ldexp(1.0, -8);
    case ScalarType::Float32:
      return std::ldexp(1.0, -24);
    case ScalarType::Float64:
      return std::ldexp(1.0, -53);
    default:
      return 0;
  }
}

// Largest difference per (op, dtype), printed at the end of the comparison test.
std::map<std::string, double> g_maxdiff;

// Compares result (B,M,N) — B and N may be absent — with sum_k a(b,i,k) * b(b,k,j) computed in
// double; the tolerance is a rounding-error bound (K + 2) * u * sum_k |a| |b|.
void check_product(const std::string& what, const Tensor& result, int64_t B, int64_t M, int64_t N,
                   int64_t K, const std::function<double(int64_t, int64_t, int64_t)>& a,
                   const std::function<double(int64_t, int64_t, int64_t)>& b,
                   const std::function<Ints(int64_t, int64_t, int64_t)>& result_index) {
  ScalarType dt = result.dtype();
  double u = unit_roundoff(dt), worst = 0;
  int64_t bad = 0;
  // The operands read once into dense arrays, (b, i, k) and (b, j, k).
  std::vector<double> ad(static_cast<size_t>(B * M * K)), bd(static_cast<size_t>(B * N * K));
  for (int64_t bb = 0; bb < B; ++bb)
    for (int64_t k = 0; k < K; ++k) {
      for (int64_t i = 0; i < M; ++i) ad[(bb * M + i) * K + k] = a(bb, i, k);
      for (int64_t j = 0; j < N; ++j) bd[(bb * N + j) * K + k] = b(bb, k, j);
    }
  for (int64_t bb = 0; bb < B; ++bb)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double ref = 0, mag = 0;
        const double* arow = ad.data() + (bb * M + i) * K;
        const double* bcol = bd.data() + (bb * N + j) * K;
        for (int64_t k = 0; k < K; ++k) {
          ref += arow[k] * bcol[k];
          mag += std::abs(arow[k] * bcol[k]);
        }
        ref = wrap(ref, dt);
        double got = at(result, result_index(bb, i, j));
        double diff = std::abs(got - ref);
        worst = std::max(worst, diff);
        if (diff > (static_cast<double>(K) + 2) * u * mag && ++bad <= 3)
          MESSAGE(what, " [", bb, ", ", i, ", ", j, "]: got ", got, " want ", ref);
      }
  CHECK_MESSAGE(bad == 0, what);
  std::string key = what.substr(0, what.find(' ')) + " " + std::string(dtype_name(dt));
  g_maxdiff[key] = std::max(g_maxdiff[key], worst);
}

const ScalarType kDtypes[] = {ScalarType::Float32,  ScalarType::Float64, ScalarType::Float16,
                              ScalarType::BFloat16, ScalarType::Int64,   ScalarType::Int32,
                              ScalarType::Int16,    ScalarType::Int8,    ScalarType::UInt8};

struct Shape {
  int64_t M, K, N;
};
const Shape kShapes[] = {{1, 1, 1},   {3, 5, 4}, {17, 33, 9}, {64, 70, 65},
                         {1, 100, 1}, {4, 0, 3}, {0, 3, 4},   {5, 7, 0}};

// Operands of (rows, cols) in several layouts, all holding the same kind of values.
struct Layout {
  const char* name;
  std::function<Tensor(int64_t, int64_t, ScalarType)> make;
};
const Layout kLayouts[] = {
    {"contiguous",
     [](int64_t r, int64_t c, ScalarType dt) {
       return random_tensor({r, c}, dt);
     }},
    {"transposed",
     [](int64_t r, int64_t c, ScalarType dt) {
       return ops::t(random_tensor({c, r}, dt));
     }},
    {"row-padded",  // strides (c + 3, 1): BLAS's lda
     [](int64_t r, int64_t c, ScalarType dt) {
       return ops::slice(random_tensor({r, c + 3}, dt), 1, 0, c);
     }},
    {"column-step",  // strides (2c, 2): not BLAS-describable, cloned
     [](int64_t r, int64_t c, ScalarType dt) {
       return ops::slice(random_tensor({r, 2 * c}, dt), 1, 0, 2 * c, 2);
     }},
    {"expanded",  // strides (0, 1)
     [](int64_t r, int64_t c, ScalarType dt) {
       return ops::expand(random_tensor({1, c}, dt), {r, c});
     }},
};

// Records the ops called (not redispatched) with their nesting depth.
class CallRecorder final : public DispatchObserver {
 public:
  void on_enter(const DispatchStep& step) override {
    bool is_call = step.kind == DispatchCallKind::Call || step.kind == DispatchCallKind::CallBoxed;
    counted_.push_back(is_call);
    if (!is_call) return;
    calls.emplace_back(depth_, step.op->full_name());
    ++depth_;
  }
  void on_exit(const DispatchStep&, const Stack*) override {
    if (counted_.back()) --depth_;
    counted_.pop_back();
  }
  std::vector<std::pair<size_t, std::string>> calls;

 private:
  size_t depth_ = 0;
  std::vector<bool> counted_;
};

// The ops matmul calls directly (depth 1), and everything below them.
std::pair<std::vector<std::string>, std::vector<std::string>> matmul_children(const Tensor& a,
                                                                              const Tensor& b) {
  auto rec = std::make_shared<CallRecorder>();
  {
    ObserverHandle h = add_dispatch_observer(rec);
    ops::matmul(a, b);
  }
  std::vector<std::string> children, all;
  for (auto& [depth, name] : rec->calls) {
    if (depth == 1) children.push_back(name);
    if (depth >= 1) all.push_back(std::string(2 * (depth - 1), ' ') + name);
  }
  return {children, all};
}

}  // namespace

// --- values ------------------------------------------------------------------------------------

TEST_CASE("mm, mv, dot, bmm agree with a double-precision reference") {
  manual_seed(11);
  for (ScalarType dt : kDtypes) {
    for (const Shape& s : kShapes) {
      for (const Layout& la : kLayouts) {
        for (const Layout& lb : kLayouts) {
          Tensor a = la.make(s.M, s.K, dt), b = lb.make(s.K, s.N, dt);
          std::string what = std::string("mm ") + name_of(dt) + " " +
                             shape_str(std::array<int64_t, 3>{s.M, s.K, s.N}) + " " + la.name +
                             " x " + lb.name;
          Tensor r = ops::mm(a, b);
          REQUIRE(vec(r.sizes()) == Ints{s.M, s.N});
          check_product(
              what, r, 1, s.M, s.N, s.K,
              [&](int64_t, int64_t i, int64_t k) {
                return at(a, {i, k});
              },
              [&](int64_t, int64_t k, int64_t j) {
                return at(b, {k, j});
              },
              [](int64_t, int64_t i, int64_t j) {
                return Ints{i, j};
              });
        }
      }
      // out= in three layouts: wrong shape (resized), column-major, strided (copied back).
      Tensor a = random_tensor({s.M, s.K}, dt), b = random_tensor({s.K, s.N}, dt);
      auto A = [&](int64_t, int64_t i, int64_t k) { return at(a, {i, k}); };
      auto Bf = [&](int64_t, int64_t k, int64_t j) { return at(b, {k, j}); };
      auto ij = [](int64_t, int64_t i, int64_t j) { return Ints{i, j}; };
      Tensor o1 = ops::empty({5}, dt);
      CHECK(ops::mm_out(a, b, o1).is_same(o1));
      check_product(std::string("mm.out ") + name_of(dt) + " resized", o1, 1, s.M, s.N, s.K, A, Bf,
                    ij);
      Tensor o2 = ops::t(ops::empty({s.N, s.M}, dt));
      ops::mm_out(a, b, o2);
      CHECK(vec(o2.strides()) == Ints{1, std::max<int64_t>(s.M, 1)});
      check_product(std::string("mm.out ") + name_of(dt) + " column-major", o2, 1, s.M, s.N, s.K, A,
                    Bf, ij);
      Tensor o3 = ops::slice(ops::empty({s.M, 2 * s.N}, dt), 1, 0, 2 * s.N, 2);
      ops::mm_out(a, b, o3);
      check_product(std::string("mm.out ") + name_of(dt) + " strided", o3, 1, s.M, s.N, s.K, A, Bf,
                    ij);

      // mv: the matrix in each layout, the vector contiguous, strided or expanded.
      for (const Layout& la : kLayouts) {
        Tensor m = la.make(s.M, s.K, dt);
        Tensor col = random_tensor({s.K, 3}, dt);
        for (Tensor v : {random_tensor({s.K}, dt), ops::select(col, 1, 1),
                         ops::expand(random_tensor({1}, dt), {s.K})}) {
          Tensor r = ops::mv(m, v);
          check_product(
              std::string("mv ") + name_of(dt) + " " + la.name, r, 1, s.M, 1, s.K,
              [&](int64_t, int64_t i, int64_t k) {
                return at(m, {i, k});
              },
              [&](int64_t, int64_t k, int64_t) { return at(v, {k}); },
              [](int64_t, int64_t i, int64_t) { return Ints{i}; });
          Tensor o = ops::empty({2, 2}, dt);
          ops::mv_out(m, v, o);
          check_product(
              std::string("mv.out ") + name_of(dt), o, 1, s.M, 1, s.K,
              [&](int64_t, int64_t i, int64_t k) {
                return at(m, {i, k});
              },
              [&](int64_t, int64_t k, int64_t) { return at(v, {k}); },
              [](int64_t, int64_t i, int64_t) { return Ints{i}; });
        }
      }

      // dot / vdot: contiguous, strided, expanded.
      Tensor cols = random_tensor({s.K, 3}, dt);
      for (Tensor x : {random_tensor({s.K}, dt), ops::select(cols, 1, 2)}) {
        for (Tensor y : {random_tensor({s.K}, dt), ops::expand(random_tensor({1}, dt), {s.K})}) {
          auto X = [&](int64_t, int64_t, int64_t k) { return at(x, {k}); };
          auto Y = [&](int64_t, int64_t k, int64_t) { return at(y, {k}); };
          auto scalar = [](int64_t, int64_t, int64_t) { return Ints{}; };
          check_product(std::string("dot ") + name_of(dt), ops::dot(x, y), 1, 1, 1, s.K, X, Y,
                        scalar);
          check_product(std::string("vdot ") + name_of(dt), ops::vdot(x, y), 1, 1, 1, s.K, X, Y,
                        scalar);
          Tensor o = ops::empty({3}, dt);
          ops::dot_out(x, y, o);
          CHECK(o.dim() == 0);
          check_product(std::string("dot.out ") + name_of(dt), o, 1, 1, 1, s.K, X, Y, scalar);
        }
      }

      // bmm: both torch paths (K*M*N below / above 400), batch-major, transposed, permuted,
      // expanded along the batch; and out=.
      const int64_t B = 3;
      std::vector<std::pair<const char*, std::pair<Tensor, Tensor>>> batches = {
          {"contiguous", {random_tensor({B, s.M, s.K}, dt), random_tensor({B, s.K, s.N}, dt)}},
          {"transposed",
           {ops::transpose(random_tensor({B, s.K, s.M}, dt), 1, 2),
            ops::transpose(random_tensor({B, s.N, s.K}, dt), 1, 2)}},
          {"batch-inner",
           {ops::permute(random_tensor({s.M, B, s.K}, dt), {1, 0, 2}),
            ops::permute(random_tensor({s.K, s.N, B}, dt), {2, 0, 1})}},
          {"expanded",
           {random_tensor({B, s.M, s.K}, dt),
            ops::expand(random_tensor({1, s.K, s.N}, dt), {B, s.K, s.N})}},
      };
      for (auto& [name, ab] : batches) {
        Tensor x = ab.first, y = ab.second;
        auto X = [&](int64_t bb, int64_t i, int64_t k) { return at(x, {bb, i, k}); };
        auto Y = [&](int64_t bb, int64_t k, int64_t j) { return at(y, {bb, k, j}); };
        auto bij = [](int64_t bb, int64_t i, int64_t j) { return Ints{bb, i, j}; };
        check_product(std::string("bmm ") + name_of(dt) + " " + name, ops::bmm(x, y), B, s.M, s.N,
                      s.K, X, Y, bij);
        Tensor o = ops::empty({1}, dt);
        ops::bmm_out(x, y, o);
        check_product(std::string("bmm.out ") + name_of(dt) + " " + name, o, B, s.M, s.N, s.K, X, Y,
                      bij);
      }
    }
  }
  for (auto& [key, worst] : g_maxdiff) MESSAGE("maxdiff ", key, ": ", worst);
}

TEST_CASE("matmul values for every shape case, against the reference") {
  manual_seed(3);
  struct Case {
    Ints a, b, out;
  };
  const Case cases[] = {{{3}, {3}, {}},
                        {{2, 3}, {3}, {2}},
                        {{3}, {3, 4}, {4}},
                        {{2, 3}, {3, 4}, {2, 4}},
                        {{5, 2, 3}, {3}, {5, 2}},
                        {{5, 2, 3}, {3, 4}, {5, 2, 4}},
                        {{5, 2, 3}, {5, 3, 4}, {5, 2, 4}},
                        {{3}, {5, 3, 4}, {5, 4}},
                        {{2, 3}, {5, 3, 4}, {5, 2, 4}},
                        {{7, 5, 2, 3}, {5, 3, 4}, {7, 5, 2, 4}},
                        {{5, 2, 3}, {1, 3, 4}, {5, 2, 4}},
                        {{5, 0, 3}, {3, 4}, {5, 0, 4}},
                        {{2, 5, 2, 3}, {3}, {2, 5, 2}},
                        {{4}, {2, 4, 3}, {2, 3}},
                        {{5, 2, 3}, {2, 5, 3, 4}, {2, 5, 2, 4}},
                        {{3, 5, 0}, {0, 0}, {3, 5, 0}}};
  for (ScalarType dt : {ScalarType::Float32, ScalarType::Float64, ScalarType::Int64}) {
    for (const Case& c : cases) {
      CAPTURE(shape_str(c.a));
      CAPTURE(shape_str(c.b));
      Tensor a = random_tensor(c.a, dt), b = random_tensor(c.b, dt);
      Tensor r = ops::matmul(a, b);
      REQUIRE(vec(r.sizes()) == c.out);
      // Reference: promote 1-D operands, broadcast the batch dims, multiply in double.
      Ints ash = c.a.size() == 1 ? Ints{1, c.a[0]} : c.a;
      Ints bsh = c.b.size() == 1 ? Ints{c.b[0], 1} : c.b;
      int64_t M = ash[ash.size() - 2], K = ash.back(), N = bsh.back();
      Ints batch(c.out.begin(), c.out.end() - (c.a.size() > 1) - (c.b.size() > 1));
      int64_t nb = 1;
      for (int64_t s : batch) nb *= s;
      auto batch_coords = [&](int64_t bb) {  // flat batch index -> output batch coordinates
        Ints bi(batch.size());
        for (size_t d = batch.size(); d-- > 0;) {
          bi[d] = bb % batch[d];
          bb /= batch[d];
        }
        return bi;
      };
      // Element (r0, c0) of batch entry bb of an operand of (promoted) shape `shape`: its batch
      // dims align with the output's last ones; a size-1 dim broadcasts.
      auto operand_at = [&](const Tensor& t, const Ints& shape, int64_t bb, int64_t r0, int64_t c0,
                            bool is_left) {
        if (t.dim() == 1) return at(t, {is_left ? c0 : r0});
        Ints bi = batch_coords(bb);
        size_t nbd = shape.size() - 2;
        Ints idx(nbd);
        for (size_t od = 0; od < nbd; ++od)
          idx[od] = shape[od] == 1 ? 0 : bi[od + batch.size() - nbd];
        idx.push_back(r0);
        idx.push_back(c0);
        return at(t, idx);
      };
      check_product(
          std::string("matmul ") + shape_str(c.a) + "x" + shape_str(c.b), r, nb, M, N, K,
          [&](int64_t bb, int64_t i, int64_t k) { return operand_at(a, ash, bb, i, k, true); },
          [&](int64_t bb, int64_t k, int64_t j) { return operand_at(b, bsh, bb, k, j, false); },
          [&](int64_t bb, int64_t i, int64_t j) {
            Ints idx = batch_coords(bb);
            if (c.a.size() > 1) idx.push_back(i);
            if (c.b.size() > 1) idx.push_back(j);
            return idx;
          });
    }
  }
  for (auto& [key, worst] : g_maxdiff)
    if (key.starts_with("matmul")) MESSAGE("maxdiff ", key, ": ", worst);
}

// --- matmul's decomposition --------------------------------------------------------------------

TEST_CASE("matmul decomposes into the ops torch 1.13 runs") {
  using V = std::vector<std::string>;
  auto f32 = [](Ints s) { return ops::zeros(s); };
  struct Case {
    const char* name;
    Tensor a, b;
    V children;
  };
  const V fold_mm = {"aten::reshape", "aten::mm", "aten::_unsafe_view"};
  const V bmm = {"aten::expand",  "aten::reshape", "aten::expand",
                 "aten::reshape", "aten::bmm",     "aten::_unsafe_view"};
  const std::vector<Case> cases = {
      {"1D.1D", f32({3}), f32({3}), {"aten::dot"}},
      {"2D.1D", f32({2, 3}), f32({3}), {"aten::mv"}},
      {"1D.2D", f32({3}), f32({3, 4}), {"aten::unsqueeze", "aten::mm", "aten::squeeze.dim"}},
      {"2D.2D", f32({2, 3}), f32({3, 4}), {"aten::mm"}},
      {"3D.1D", f32({5, 2, 3}), f32({3}), {"aten::reshape", "aten::mv", "aten::_unsafe_view"}},
      {"3D.2D", f32({5, 2, 3}), f32({3, 4}), fold_mm},
      {"4D.2D", f32({1, 5, 2, 3}), f32({3, 4}), fold_mm},
      {"3D.2D empty", f32({5, 0, 3}), f32({3, 4}), fold_mm},
      {"3D.3D", f32({5, 2, 3}), f32({5, 3, 4}), bmm},
      {"4D.3D", f32({7, 5, 2, 3}), f32({5, 3, 4}), bmm},
      {"3D.3D broadcast", f32({5, 2, 3}), f32({1, 3, 4}), bmm},
      {"1D.3D",
       f32({3}),
       f32({5, 3, 4}),
       {"aten::transpose.int", "aten::reshape", "aten::mv", "aten::_unsafe_view"}},
      {"2D.3D",
       f32({2, 3}),
       f32({5, 3, 4}),
       {"aten::transpose.int", "aten::t", "aten::reshape", "aten::mm", "aten::_unsafe_view",
        "aten::transpose.int", "aten::contiguous"}},
      // A batch of transposed matrices is not folded (it would copy): bmm reads them in place.
      {"3D(transposed).2D", ops::transpose(f32({5, 3, 2}), 1, 2), f32({3, 4}), bmm},
      // Transposed in the batch dims only: folded, and reshape copies.
      {"3D(batch-transposed).2D", ops::transpose(f32({2, 5, 3}), 0, 1), f32({3, 4}), fold_mm},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    auto [children, all] = matmul_children(c.a, c.b);
    CHECK(children == c.children);
    if (children != c.children)
      for (auto& line : all) MESSAGE(line);
  }
  // Below the children: whether reshape was a view (torch: _reshape_alias) or a copy (clone +
  // _unsafe_view), as torch's trace shows.
  auto below = [](const Tensor& a, const Tensor& b) { return matmul_children(a, b).second; };
  auto has = [](const V& lines, const std::string& s) {
    return std::find(lines.begin(), lines.end(), s) != lines.end();
  };
  CHECK(has(below(f32({5, 2, 3}), f32({3, 4})), "  aten::_reshape_alias"));
  CHECK(has(below(f32({3}), f32({5, 3, 4})), "  aten::clone"));
  CHECK(has(below(ops::transpose(f32({2, 5, 3}), 0, 1), f32({3, 4})), "  aten::clone"));
  CHECK_FALSE(has(below(f32({5, 2, 3}), f32({3, 4})), "  aten::clone"));
}

// --- errors --------------------------------------------------------------------------------------

TEST_CASE("linear algebra errors say what torch says") {
  using ST = ScalarType;
  auto m = [](Ints s, ST dt = ST::Float32) { return ops::ones(s, dt); };
  auto throws = [](const std::function<void()>& f, const std::string& msg) {
    CAPTURE(msg);
    CHECK_THROWS_WITH_AS(f(), msg.c_str(), Error);
  };
  // mm
  throws(
      [&] {
        ops::mm(m({2, 3}), m({2, 3}));
      },
      "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  throws(
      [&] {
        ops::mm(m({2, 3}), m({3, 3}, ST::Float64));
      },
      "expected scalar type Float but found Double");
  throws(
      [&] {
        ops::mm(m({2, 3}, ST::Float64), m({3, 3}));
      },
      "expected scalar type Double but found Float");
  throws(
      [&] {
        ops::mm(m({2, 3}, ST::Bool), m({3, 3}, ST::Bool));
      },
      "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  throws(
      [&] {
        ops::mm(m({2, 3}, ST::Bool), m({3, 3}));
      },
      "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  throws(
      [&] {
        ops::mm(m({2, 3}), m({3, 3}, ST::Bool));
      },
      "expected scalar type Float but found Bool");
  throws(
      [&] {
        ops::mm(m({2, 3}, ST::Int64), m({3, 3}));
      },
      "expected scalar type Long but found Float");
  throws(
      [&] {
        ops::mm(m({2, 3}), m({2, 3}, ST::Float64));
      },
      "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  throws([&] { ops::mm(m({3}), m({3, 3})); }, "self must be a matrix");
  throws([&] { ops::mm(m({3, 3}), m({3})); }, "mat2 must be a matrix");
  throws([&] { ops::mm(m({2, 3, 3}), m({3, 3})); }, "self must be a matrix");
  throws(
      [&] {
        ops::mm_out(m({2, 3}), m({3, 4}), m({2, 4}, ST::Float64));
      },
      "Expected out tensor to have dtype float, but got double instead");
  throws(
      [&] {
        ops::mm_out(m({2, 3}), m({3, 4}), m({2, 4}, ST::Int64));
      },
      "Expected out tensor to have dtype float, but got long int instead");
  // Empty results and K = 0 return before any dtype check, as in torch.
  CHECK(ops::mm(m({2, 0}), m({0, 3}, ST::Float64)).dtype() == ST::Float32);
  CHECK(ops::mm(m({0, 2}), m({2, 3}, ST::Float64)).numel() == 0);
  CHECK(at(ops::mm(m({2, 0}, ST::Bool), m({0, 3}, ST::Bool)), {1, 2}) == 0);
  // dot / vdot
  for (auto dot : {ops::dot, ops::vdot}) {
    throws([&] { dot(m({3}), m({3}, ST::Float64)); },
           "dot : expected both vectors to have same dtype, but found Float and Double");
    throws([&] { dot(m({3}), m({4}, ST::Float64)); },
           "dot : expected both vectors to have same dtype, but found Float and Double");
    throws([&] { dot(m({3, 3}), m({3, 3})); }, "1D tensors expected, but got 2D and 2D tensors");
    throws([&] { dot(m({3, 3}), m({3})); }, "1D tensors expected, but got 2D and 1D tensors");
    throws([&] { dot(m({}), m({3})); }, "1D tensors expected, but got 0D and 1D tensors");
    throws([&] { dot(m({3}), m({4})); },
           "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
           "elements, but got 3 and 4 elements respectively");
    throws([&] { dot(m({3}, ST::Bool), m({3}, ST::Bool)); }, "\"dot\" not implemented for 'Bool'");
  }
  throws([&] { ops::dot_out(m({3}), m({3}), m({2}, ST::Float64)); },
         "result dtype Double does not match input dtype Float");
  CHECK(at(ops::dot(m({0}), m({0})), {}) == 0);
  // mv
  throws(
      [&] {
        ops::mv(m({2, 3}), m({3}, ST::Float64));
      },
      "expected scalar type Float but found Double");
  throws(
      [&] {
        ops::mv(m({2, 3}, ST::Float64), m({3}));
      },
      "expected scalar type Double but found Float");
  throws([&] { ops::mv(m({2, 3}), m({4})); }, "size mismatch, got 2, 2x3,4");
  throws([&] { ops::mv(m({2, 3}), m({4}, ST::Float64)); }, "size mismatch, got 2, 2x3,4");
  throws([&] { ops::mv(m({3}), m({3})); }, "vector + matrix @ vector expected, got 1, 1, 1");
  throws([&] { ops::mv(m({3, 3}), m({3, 1})); }, "vector + matrix @ vector expected, got 1, 2, 2");
  throws([&] { ops::mv(m({2, 3, 3}), m({3})); }, "vector + matrix @ vector expected, got 1, 3, 1");
  throws(
      [&] {
        ops::mv(m({2, 3}, ST::Bool), m({3}));
      },
      "\"addmv_impl_cpu\" not implemented for 'Bool'");
  CHECK_THROWS_WITH_AS(ops::mv(m({}), m({3})),
                       "Dimension specified as 0 but tensor has no dimensions", IndexError);
  throws(
      [&] {
        ops::mv_out(m({2, 3}), m({3}), m({2}, ST::Float64));
      },
      "Expected out tensor to have dtype float, but got double instead");
  CHECK(at(ops::mv(m({2, 0}), m({0})), {1}) == 0);
  // bmm
  throws(
      [&] {
        ops::bmm(m({5, 2, 3}), m({5, 4, 4}));
      },
      "Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: [5, 4].");
  throws(
      [&] {
        ops::bmm(m({5, 2, 3}), m({4, 3, 4}));
      },
      "Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: [4, 3].");
  throws([&] { ops::bmm(m({2, 3}), m({5, 3, 4})); }, "batch1 must be a 3D tensor");
  throws([&] { ops::bmm(m({5, 2, 3}), m({3, 4})); }, "batch2 must be a 3D tensor");
  throws(
      [&] {
        ops::bmm(m({5, 2, 3}), m({5, 3, 4}, ST::Float64));
      },
      "expected scalar type Float but found Double");
  throws(
      [&] {
        ops::bmm(m({5, 2, 3}, ST::Float64), m({5, 3, 4}));
      },
      "expected scalar type Double but found Float");
  throws(
      [&] {
        ops::bmm(m({5, 20, 30}), m({5, 30, 40}, ST::Float64));
      },
      "expected scalar type Double but found Float");
  throws(
      [&] {
        ops::bmm(m({5, 2, 3}, ST::Int64), m({5, 3, 4}));
      },
      "expected scalar type Long but found Float");
  throws(
      [&] {
        ops::bmm(m({5, 2, 3}, ST::Bool), m({5, 3, 4}, ST::Bool));
      },
      "\"bmm\" not implemented for 'Bool'");
  throws(
      [&] {
        ops::bmm(m({5, 20, 30}, ST::Bool), m({5, 30, 40}, ST::Bool));
      },
      "\"addmm_impl_cpu_\" not implemented for 'Bool'");
  throws(
      [&] {
        ops::bmm_out(m({5, 2, 3}), m({5, 3, 4}), m({5, 2, 4}, ST::Float64));
      },
      "Expected out tensor to have dtype float, but got double instead");
  CHECK(ops::bmm(m({5, 2, 0}, ST::Int64), m({5, 0, 4})).dtype() == ST::Float32);
  CHECK(vec(ops::bmm(m({0, 2, 3}), m({0, 3, 4})).sizes()) == Ints{0, 2, 4});
  // matmul
  throws(
      [&] {
        ops::matmul(m({}), m({2, 3}));
      },
      "both arguments to matmul need to be at least 1D, but they are 0D and 2D");
  throws(
      [&] {
        ops::matmul(m({2, 3}), m({}));
      },
      "both arguments to matmul need to be at least 1D, but they are 2D and 0D");
  throws(
      [&] {
        ops::matmul(m({5, 2, 3}), m({4, 3, 4}));
      },
      "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0");
  throws(
      [&] {
        ops::matmul(m({5, 2, 3}), m({4, 4}));
      },
      "mat1 and mat2 shapes cannot be multiplied (10x3 and 4x4)");
  throws(
      [&] {
        ops::matmul(m({3}), m({4, 4}));
      },
      "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x4)");
  throws(
      [&] {
        ops::matmul(m({2, 3}), m({3, 4}, ST::Float64));
      },
      "expected scalar type Float but found Double");
}

// --- speed ---------------------------------------------------------------------------------------

TEST_CASE("mm float32 1024: GFLOP/s on one thread") {
  int saved_omp = omp_get_max_threads();
  opscope::set_num_threads(1);
  Tensor a = ops::rand({1024, 1024}), b = ops::rand({1024, 1024});
  ops::mm(a, b);  // warm up
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    ops::mm(a, b);
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  double gflops = 2.0 * 1024 * 1024 * 1024 / best / 1e9;
  MESSAGE("mm f32 1024x1024x1024, 1 thread: ", best * 1e3, " ms, ", gflops,
          " GFLOP/s (OpenBLAS core ", blas::info().corename, ", ", blas::info().config, ")");
  CHECK(gflops > 1.0);
  opscope::set_num_threads(saved_omp);
}
