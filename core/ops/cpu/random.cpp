// CPU kernels of the random family: the in-place fills uniform_, normal_, random_ (three
// overloads), bernoulli_.float / .Tensor, exponential_, the factories rand, randn, randint built
// on them, and the samplers multinomial and randperm. Declared
// and registered in core/ops/factories.cpp.
//
// Numbers come from the generator's Philox stream, laid out per element as Note [Random streams
// are counter-based] (core/ops/factories.h) says, so they do not depend on the thread count.
// Argument checks follow torch 1.13's DistributionTemplates.h, in its order, with its messages.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "core/ops/cpu/factory_util.h"
#include "core/autograd/GradMode.h"
#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/KernelForms.h"
#include "core/ops/factories.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/utility.h"
#include "core/ops/views.h"
#include "core/ops/TensorIterator.h"

namespace opscope::cpu {

using namespace factory_util;

namespace {

using Words = std::array<uint32_t, 4>;

const Generator& generator_or_default(const std::optional<Generator>& g) {
  return g && *g ? *g : default_generator(Device(DeviceType::CPU));
}

// Reserves the blocks for n elements that draw W (1 or 2) words each, and calls
// f(first_element, count, words) once per block, in parallel for large n.
template <int W, typename F>
void for_each_block(const Generator& gen, int64_t n, F&& f) {
  constexpr int64_t E = 4 / W;  // elements per block
  if (n == 0) return;
  int64_t blocks = (n + E - 1) / E;
  auto [seed, first] = gen->reserve(static_cast<uint64_t>(blocks));
  parallel_for(0, blocks, kGrainSize / E, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      Words r = philox4x32(seed, first + static_cast<uint64_t>(b));
      f(b * E, std::min(E, n - b * E), r);
    }
  });
}

inline uint64_t word64(const Words& r, int64_t lane) {
  return static_cast<uint64_t>(r[2 * lane]) | (static_cast<uint64_t>(r[2 * lane + 1]) << 32);
}

// Gives fill(T* out) a row-major buffer of self's numel elements and makes it self's contents:
// self's own memory when contiguous, else a scratch buffer scattered through self's strides.
template <typename T, typename Fill>
void write_elements(const Tensor& self, Fill&& fill) {
  if (self.is_contiguous()) {
    fill(self.data_ptr<T>());
    return;
  }
  std::unique_ptr<T[]> tmp(new T[static_cast<size_t>(self.numel())]);
  fill(tmp.get());
  T* base = self.data_ptr<T>();
  for_each_offset(self.sizes(), self.strides(),
                  [&](int64_t i, int64_t off) { base[off] = tmp[i]; });
}

// Calls fn.template operator()<T>() for the floating dtypes, else torch's "not implemented":
// dispatch_dtype (core/runtime/ScalarType.h) with fn instantiated for floating T only.
template <typename F>
void dispatch_floating(ScalarType t, std::string_view what, F&& fn) {
  if (!is_floating(t))
    throw Error(detail::str("\"", what, "\" not implemented for '", cpp_name(t), "'"));
  dispatch_dtype(t, what, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Half> ||
                  std::is_same_v<T, BFloat16>)
      fn.template operator()<T>();
  });
}

// Bits of uniform resolution per element type: torch's numeric_limits<T>::digits.
template <typename T>
constexpr int mantissa_digits() {
  if constexpr (std::is_same_v<T, Half>)
    return 11;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return 8;
  else
    return std::numeric_limits<T>::digits;
}

// --- uniform -----------------------------------------------------------------------------------

void uniform_impl(const Tensor& self, double from, double to, const Generator& gen) {
  ScalarType dt = self.dtype();
  dispatch_floating(dt, "check_uniform_bounds", [&]<typename T>() {
    double lo = lowest_of<T>(), hi = max_of<T>();
    OPSCOPE_CHECK(from >= lo && from <= hi, "from is out of bounds for ", typemeta_name(dt));
    OPSCOPE_CHECK(to >= lo && to <= hi, "to is out of bounds for ", typemeta_name(dt));
    OPSCOPE_CHECK(from <= to,
                  "uniform_ expects to return a [from, to) range, but found from=", from,
                  " > to=", to);
    OPSCOPE_CHECK(to - from <= hi, "uniform_ expects to-from <= std::numeric_limits<", cpp_name(dt),
                  ">::max(), but found to=", to, " and from=", from,
                  " which result in to-from to exceed the limit");
    int64_t n = self.numel();
    write_elements<T>(self, [&](T* out) {
      if constexpr (std::is_same_v<T, double>) {
        for_each_block<2>(gen, n, [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t e = 0; e < cnt; ++e)
            out[i0 + e] = uint64_to_uniform_double(word64(r, e)) * (to - from) + from;
        });
      } else {
        // Like torch's uniform_real_distribution<T>: the bounds are rounded to T first, the
        // draw keeps digits(T) bits (24 float, 11 half, 8 bfloat16), the arithmetic is float.
        float f = static_cast<float>(static_cast<T>(static_cast<float>(from)));
        float t = static_cast<float>(static_cast<T>(static_cast<float>(to)));
        constexpr int shift = 32 - mantissa_digits<T>();
        constexpr float scale = 1.0f / static_cast<float>(1u << mantissa_digits<T>());
        for_each_block<1>(gen, n, [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t e = 0; e < cnt; ++e) {
            float u = static_cast<float>(r[e] >> shift) * scale;
            out[i0 + e] = static_cast<T>(u * (t - f) + f);
          }
        });
      }
    });
  });
}

// --- normal (Box-Muller) -----------------------------------------------------------------------

void normal_impl(const Tensor& self, double mean, double std, const Generator& gen) {
  OPSCOPE_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  dispatch_floating(self.dtype(), "normal_kernel_cpu", [&]<typename T>() {
    int64_t n = self.numel();
    write_elements<T>(self, [&](T* out) {
      if constexpr (std::is_same_v<T, double>) {
        // One pair per block: u1 in (0, 1] from words 0-1, u2 in [0, 1) from words 2-3.
        for_each_block<2>(gen, n, [&](int64_t i0, int64_t cnt, const Words& r) {
          double u1 = static_cast<double>((word64(r, 0) >> 11) + 1) * (1.0 / 9007199254740992.0);
          double u2 = uint64_to_uniform_double(word64(r, 1));
          double radius = std::sqrt(-2.0 * std::log(u1));
          double theta = 2.0 * std::numbers::pi * u2;
          out[i0] = mean + std * radius * std::cos(theta);
          if (cnt > 1) out[i0 + 1] = mean + std * radius * std::sin(theta);
        });
      } else {
        // Two pairs per block, (words 0, 1) and (words 2, 3), in float.
        float m = static_cast<float>(mean), s = static_cast<float>(std);
        for_each_block<1>(gen, n, [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t p = 0; p < cnt; p += 2) {
            float u1 = static_cast<float>((r[p] >> 8) + 1) * (1.0f / 16777216.0f);
            float u2 = uint32_to_uniform_float(r[p + 1]);
            float radius = std::sqrt(-2.0f * std::log(u1));
            float theta = 2.0f * std::numbers::pi_v<float> * u2;
            out[i0 + p] = static_cast<T>(m + s * radius * std::cos(theta));
            if (p + 1 < cnt) out[i0 + p + 1] = static_cast<T>(m + s * radius * std::sin(theta));
          }
        });
      }
    });
  });
}

// --- random_ -----------------------------------------------------------------------------------

// An int64 rounded to T and back (through float for half / bfloat16, as c10 converts), in 128
// bits: a bound near int64's ends may round to 2**63, which int64 cannot hold.
template <typename T>
__int128 round_trip(int64_t v) {
  if constexpr (std::is_same_v<T, double>)
    return static_cast<__int128>(static_cast<double>(v));
  else
    return static_cast<__int128>(static_cast<float>(static_cast<T>(static_cast<float>(v))));
}

// The distance from |v| to the next value of T above it (v's ulp in T), for v != 0.
template <typename T>
__int128 ulp_above(__int128 v) {
  const unsigned __int128 magnitude = v < 0 ? -static_cast<unsigned __int128>(v) : v;
  int bits = 0;
  for (unsigned __int128 m = magnitude; m >>= 1;) ++bits;
  return static_cast<__int128>(1) << std::max(0, bits - mantissa_digits<T>() + 1);
}

// Back to int64, saturating: a bound past int64's ends is then refused by the range checks.
int64_t saturate(__int128 v) {
  constexpr int64_t lo = std::numeric_limits<int64_t>::lowest(), hi = std::numeric_limits<int64_t>::max();
  return v < lo ? lo : v > hi ? hi : static_cast<int64_t>(v);
}

// torch's update_from / update_to: move a bound that T cannot hold exactly to one it can. In 128
// bits: torch 1.13's int64 version overflows at the ends (from + 1 for from = 2**63 - 1, whose
// std::abs then loops forever: random_(2**63 - 1) on a float tensor hangs torch).
template <typename T>
int64_t update_from(int64_t from) {
  const __int128 next = static_cast<__int128>(from) + 1;
  if (next > std::numeric_limits<int64_t>::max()) return from;  // refused by the range checks
  const __int128 from_plus_1 = round_trip<T>(static_cast<int64_t>(next));
  if (from_plus_1 < from) return saturate(from_plus_1 + ulp_above<T>(next));
  return from;
}
template <typename T>
int64_t update_to(int64_t to) {
  const __int128 prev = static_cast<__int128>(to) - 1;
  if (prev < std::numeric_limits<int64_t>::lowest()) return to;  // refused by the range checks
  const __int128 to_minus_1 = round_trip<T>(static_cast<int64_t>(prev));
  if (to_minus_1 >= to) return saturate(to_minus_1 - ulp_above<T>(prev));
  return to;
}

// torch's check_from_to_in_range: both bounds must be values of the dtype.
void check_from_to_in_range(int64_t from, int64_t to_inc, ScalarType dt) {
  dispatch_dtype(dt, "check_random_bounds", [&]<typename T>() {
    double lo = lowest_of<T>(), hi = max_of<T>();
    if constexpr (std::is_same_v<T, bool>) lo = 0, hi = 1;
    OPSCOPE_CHECK(static_cast<double>(from) >= lo && static_cast<double>(from) <= hi,
                  "from is out of bounds for ", typemeta_name(dt));
    OPSCOPE_CHECK(static_cast<double>(to_inc) >= lo && static_cast<double>(to_inc) <= hi,
                  "to - 1 is out of bounds for ", typemeta_name(dt));
  });
}

// self <- from + (draw % range), draws of 32 bits when range < 2^32, else 64.
void random_range_fill(const Tensor& self, uint64_t range, int64_t from, const Generator& gen) {
  dispatch_dtype(self.dtype(), "random_from_to_kernel_cpu", [&]<typename T>() {
    auto value = [&](uint64_t draw) {
      return static_cast<T>(static_cast<int64_t>(draw % range + static_cast<uint64_t>(from)));
    };
    int64_t n = self.numel();
    write_elements<T>(self, [&](T* out) {
      if (range >= (uint64_t(1) << 32)) {
        for_each_block<2>(gen, n, [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t e = 0; e < cnt; ++e) out[i0 + e] = value(word64(r, e));
        });
      } else {
        for_each_block<1>(gen, n, [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t e = 0; e < cnt; ++e) out[i0 + e] = value(r[e]);
        });
      }
    });
  });
}

// torch's random_from_to_impl: [from, to), or [from, dtype's largest integer] when to is None.
void random_from_to_impl(const Tensor& self, int64_t from, std::optional<int64_t> to_opt,
                         const Generator& gen) {
  ScalarType dt = self.dtype();
  if (to_opt) {
    int64_t to = *to_opt;
    OPSCOPE_CHECK(from < to, "random_ expects 'from' to be less than 'to', but got from=", from,
                  " >= to=", to);
    if (is_floating(dt)) {
      dispatch_floating(dt, "random_update_from_to", [&]<typename T>() {
        from = update_from<T>(from);
        to = update_to<T>(to);
        OPSCOPE_CHECK(from < to,
                      "random_ expects 'from' casted to dtype to be less than 'to' "
                      "casted to dtype, but got from=",
                      from, " >= to=", to);
      });
    }
    check_from_to_in_range(from, to - 1, dt);
    if (self.numel() == 0) return;
    random_range_fill(self, static_cast<uint64_t>(to) - static_cast<uint64_t>(from), from, gen);
  } else if (from != std::numeric_limits<int64_t>::lowest()) {
    int64_t to_inc = 0;
    dispatch_dtype(dt, "random_from_to_range_calc", [&]<typename T>() {
      if constexpr (std::is_same_v<T, bool>) {
        to_inc = 1;
      } else if constexpr (std::is_integral_v<T>) {
        to_inc = static_cast<int64_t>(std::numeric_limits<T>::max());
      } else {
        constexpr int digits = mantissa_digits<T>();
        to_inc = digits >= 63 ? std::numeric_limits<int64_t>::max() : int64_t(1) << digits;
        from = update_from<T>(from);
        OPSCOPE_CHECK(from < to_inc,
                      "random_ expects 'from' casted to dtype to be less than or "
                      "equal to 'to_inc' casted to dtype, but got from=",
                      from, " > to_inc=", to_inc);
      }
    });
    check_from_to_in_range(from, to_inc, dt);
    if (self.numel() == 0) return;
    random_range_fill(self, static_cast<uint64_t>(to_inc) - static_cast<uint64_t>(from) + 1, from,
                      gen);
  } else {
    // [int64 min, int64 max]: all 2^64 values.
    if (self.numel() == 0) return;
    dispatch_dtype(dt, "random_full_64_bits_range_kernel_cpu", [&]<typename T>() {
      constexpr bool ok = std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                          std::is_same_v<T, float> || std::is_same_v<T, BFloat16>;
      OPSCOPE_CHECK(ok,
                    "random_full_64_bits_range_kernel_cpu handles only int64, double, float "
                    "and bfloat16");
      if constexpr (ok) {
        write_elements<T>(self, [&](T* out) {
          for_each_block<2>(gen, self.numel(), [&](int64_t i0, int64_t cnt, const Words& r) {
            for (int64_t e = 0; e < cnt; ++e)
              out[i0 + e] = static_cast<T>(static_cast<int64_t>(word64(r, e)));
          });
        });
      }
    });
  }
}

// torch's random_impl: [0, 2^digits] for floats, [0, max] for integers, {0, 1} for bool.
void random_impl(const Tensor& self, const Generator& gen) {
  if (self.numel() == 0) return;
  dispatch_dtype(self.dtype(), "random_kernel_cpu", [&]<typename T>() {
    auto value = [](uint64_t v) -> T {
      if constexpr (std::is_same_v<T, bool>) {
        return (v & 1) != 0;
      } else if constexpr (std::is_integral_v<T>) {
        return static_cast<T>(v % (static_cast<uint64_t>(std::numeric_limits<T>::max()) + 1));
      } else {
        uint64_t m = (uint64_t(1) << mantissa_digits<T>()) + 1;
        return static_cast<T>(static_cast<acc_type_t<T>>(v % m));
      }
    };
    constexpr bool wide = std::is_same_v<T, double> || std::is_same_v<T, int64_t>;
    write_elements<T>(self, [&](T* out) {
      for_each_block<wide ? 2 : 1>(gen, self.numel(), [&](int64_t i0, int64_t cnt, const Words& r) {
        for (int64_t e = 0; e < cnt; ++e) out[i0 + e] = value(wide ? word64(r, e) : r[e]);
      });
    });
  });
}

Tensor new_cpu_tensor(IntArrayRef size, ScalarType dtype) {
  return make_empty(size, dtype, Device(DeviceType::CPU));
}

}  // namespace

// --- in-place kernels ----------------------------------------------------------------------------

// self <- uniform in [from, to).
Tensor uniform_(const Tensor& self, double from, double to, std::optional<Generator> generator) {
  uniform_impl(self, from, to, generator_or_default(generator));
  return self;
}

// self <- mean + std * N(0, 1).
Tensor normal_(const Tensor& self, double mean, double std, std::optional<Generator> generator) {
  normal_impl(self, mean, std, generator_or_default(generator));
  return self;
}

// self <- integers in [from, to) (to=None: up to the dtype's largest).
Tensor random_from(const Tensor& self, int64_t from, std::optional<int64_t> to,
                   std::optional<Generator> generator) {
  random_from_to_impl(self, from, to, generator_or_default(generator));
  return self;
}

// self <- integers in [0, to).
Tensor random_to(const Tensor& self, int64_t to, std::optional<Generator> generator) {
  random_from_to_impl(self, 0, to, generator_or_default(generator));
  return self;
}

// self <- integers in [0, 2^digits] (floats) / [0, max] (integers).
Tensor random_(const Tensor& self, std::optional<Generator> generator) {
  random_impl(self, generator_or_default(generator));
  return self;
}

// self <- 1 with probability p.
Tensor bernoulli_float(const Tensor& self, double p, std::optional<Generator> generator) {
  OPSCOPE_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  const Generator& gen = generator_or_default(generator);
  dispatch_dtype(self.dtype(), "bernoulli_scalar_cpu_", [&]<typename T>() {
    write_elements<T>(self, [&](T* out) {
      for_each_block<1>(gen, self.numel(), [&](int64_t i0, int64_t cnt, const Words& r) {
        for (int64_t e = 0; e < cnt; ++e) {
          double u = static_cast<double>(r[e]) * (1.0 / 4294967296.0);  // [0, 1)
          out[i0 + e] = static_cast<T>(u < p ? 1 : 0);
        }
      });
    });
  });
  return self;
}

// self <- 1 where a draw is below p's element (p broadcast to self's shape), else 0; one draw
// per element of self, as bernoulli_.float's.
Tensor bernoulli_tensor(const Tensor& self, const Tensor& p, std::optional<Generator> generator) {
  const Generator& gen = generator_or_default(generator);
  const Tensor probs = ops::contiguous(ops::expand(p, self.sizes()));
  dispatch_floating(probs.dtype(), "bernoulli_tensor_cpu_p_", [&]<typename P>() {
    const P* pr = probs.data_ptr<P>();
    for (int64_t i = 0; i < probs.numel(); ++i) {
      const double v = static_cast<double>(pr[i]);
      OPSCOPE_CHECK(v >= 0 && v <= 1,  // torch 1.13's words (a TORCH_CHECK without a message)
                    "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                    "error message be improved?  If so, please report an enhancement request to "
                    "PyTorch.)");
    }
    dispatch_dtype(self.dtype(), "bernoulli_tensor_cpu_self_", [&]<typename T>() {
      write_elements<T>(self, [&](T* out) {
        for_each_block<1>(gen, self.numel(), [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t e = 0; e < cnt; ++e) {
            const double u = static_cast<double>(r[e]) * (1.0 / 4294967296.0);  // [0, 1)
            out[i0 + e] = static_cast<T>(u < static_cast<double>(pr[i0 + e]) ? 1 : 0);
          }
        });
      });
    });
  });
  return self;
}

// self <- Exp(lambd) draws, -log(1 - u) / lambd (lambd = 0 gives inf, as torch's).
Tensor exponential_(const Tensor& self, double lambd, std::optional<Generator> generator) {
  OPSCOPE_CHECK(lambd >= 0.0, "exponential_ expects lambda >= 0.0, but found lambda=", lambd);
  const Generator& gen = generator_or_default(generator);
  dispatch_floating(self.dtype(), "exponential_cpu", [&]<typename T>() {
    write_elements<T>(self, [&](T* out) {
      if constexpr (std::is_same_v<T, double>) {
        for_each_block<2>(gen, self.numel(), [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t e = 0; e < cnt; ++e)
            out[i0 + e] = -std::log1p(-uint64_to_uniform_double(word64(r, e))) / lambd;
        });
      } else {  // 24-bit draws and float arithmetic, as uniform_ draws for float
        const float l = static_cast<float>(lambd);
        for_each_block<1>(gen, self.numel(), [&](int64_t i0, int64_t cnt, const Words& r) {
          for (int64_t e = 0; e < cnt; ++e)
            out[i0 + e] = static_cast<T>(-std::log1p(-uint32_to_uniform_float(r[e])) / l);
        });
      }
    });
  });
  return self;
}

// --- multinomial ---------------------------------------------------------------------------------

namespace {

// The ops multinomial calls without replacement, as torch 1.13's multinomial_out does (its trace
// shows them); declared here, their only C++ caller.
inline constexpr Op<Tensor(Out, const Tensor&, Default<std::optional<int64_t>>, Default<bool>)>
    argmax_out{"aten::argmax.out"};
inline constexpr Op<std::tuple<Tensor, Tensor>(Out, Out, const Tensor&, int64_t, Default<int64_t>,
                                               Default<bool>, Default<bool>)>
    topk_out{"aten::topk.values"};
inline constexpr Op<Tensor(const Tensor&, double, Default<std::optional<Generator>>)> exponential{
    "aten::exponential_"};

// With replacement: per row, the running sums of the row divided by its total are the
// distribution's steps; each sample is the first step at or above a uniform draw (torch's
// multinomial_with_replacement kernel: its checks and messages, a binary search per sample).
template <typename T>
void sample_with_replacement(const Tensor& probs, int64_t n_sample, const Tensor& result,
                             const Generator& gen) {
  const int64_t rows = probs.dim() == 1 ? 1 : probs.size(0);
  const int64_t cats = probs.size(-1);
  const int64_t row_stride = probs.dim() == 1 ? 0 : probs.stride(0);
  const int64_t col_stride = probs.stride(-1);
  const T* p = probs.data_ptr<T>();
  int64_t* out = result.data_ptr<int64_t>();  // contiguous: made or resized by the caller
  // Every row's steps first (and its checks), then the samples, drawn and placed in parallel.
  std::vector<double> steps(static_cast<size_t>(rows * cats));
  for (int64_t i = 0; i < rows; ++i) {
    double* row = steps.data() + i * cats;
    double total = 0;
    for (int64_t j = 0; j < cats; ++j) {
      double v = static_cast<double>(p[i * row_stride + j * col_stride]);
      OPSCOPE_CHECK(v >= 0,
                    "invalid multinomial distribution (encountering probability entry < 0)");
      OPSCOPE_CHECK(std::isfinite(v),
                    "invalid multinomial distribution (encountering probability entry = infinity "
                    "or NaN)");
      total += v;
      row[j] = total;
    }
    OPSCOPE_CHECK(total > 0, "invalid multinomial distribution (sum of probabilities <= 0)");
    for (int64_t j = 0; j < cats; ++j) row[j] /= total;
    row[cats - 1] = 1;  // the last step catches every draw, rounding aside
  }
  // Each sample is the first step >= u (a binary search). Many samples per row start the
  // search from a guide table instead: guide[k] is the first step >= k / cats, at or before the
  // answer for every u in [k / cats, (k + 1) / cats), so a few steps forward find it.
  if (n_sample < 32) {
    for_each_block<2>(gen, rows * n_sample, [&](int64_t i0, int64_t cnt, const Words& r) {
      for (int64_t e = 0; e < cnt; ++e) {
        const double* row = steps.data() + (i0 + e) / n_sample * cats;
        double u = uint64_to_uniform_double(word64(r, e));
        out[i0 + e] = std::lower_bound(row, row + cats, u) - row;
      }
    });
    return;
  }
  std::vector<int64_t> guide(static_cast<size_t>(rows * cats));
  for (int64_t i = 0; i < rows; ++i) {
    const double* row = steps.data() + i * cats;
    int64_t j = 0;
    for (int64_t k = 0; k < cats; ++k) {
      while (row[j] < static_cast<double>(k) / static_cast<double>(cats)) ++j;
      guide[static_cast<size_t>(i * cats + k)] = j;
    }
  }
  for_each_block<2>(gen, rows * n_sample, [&](int64_t i0, int64_t cnt, const Words& r) {
    for (int64_t e = 0; e < cnt; ++e) {
      const int64_t i = (i0 + e) / n_sample;
      const double* row = steps.data() + i * cats;
      double u = uint64_to_uniform_double(word64(r, e));
      int64_t k = std::min(cats - 1, static_cast<int64_t>(u * static_cast<double>(cats)));
      int64_t j = guide[static_cast<size_t>(i * cats + k)];
      while (row[j] < u) ++j;  // ends: the last step is 1 > u
      out[i0 + e] = j;
    }
  });
}

}  // namespace

// self (C) or (R, C) probabilities, not necessarily normalized -> (num_samples) or
// (R, num_samples) category indices, int64.
Tensor multinomial_out(const Tensor& self, int64_t n_sample, bool with_replacement,
                       std::optional<Generator> generator, const Tensor& result) {
  OPSCOPE_CHECK(self.dim() > 0 && self.dim() <= 2, "prob_dist must be 1 or 2 dim");
  OPSCOPE_CHECK(is_floating(self.dtype()),
                "multinomial only supports floating-point dtypes for input, got: ",
                cpp_name(self.dtype()));
  OPSCOPE_CHECK(result.dtype() == ScalarType::Int64, "multinomial expects Long tensor out, got: ",
                cpp_name(result.dtype()));
  OPSCOPE_CHECK(n_sample > 0, "cannot sample n_sample <= 0 samples");
  const int64_t n_categories = self.size(-1);
  OPSCOPE_CHECK(with_replacement || n_sample <= n_categories,
                "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  // torch indexes categories in float: 2^24 is float's last consecutive integer.
  OPSCOPE_CHECK(n_categories <= (int64_t(1) << 24), "number of categories cannot exceed 2^24");
  OPSCOPE_CHECK(self.dtype() != ScalarType::Float16,
                "multinomial is not implemented for half on CPU");
  if (self.dim() == 1)
    resize_output(result, {n_sample});
  else
    resize_output(result, {self.size(0), n_sample});
  if (result.numel() == 0) return result;

  if (!with_replacement) {
    // The draws are not differentiable: the ops below record no graph (torch runs them below
    // autograd), whatever self requires.
    autograd::GradModeGuard no_grad(false);
    // torch's way, op by op: the row's probabilities over Exp(1) draws have their largest at a
    // sample of the distribution (the Gumbel-max trick: argmax of log p - log(-log u)), and their
    // top k at k samples without replacement.
    Tensor nonnegative = ops::ge(ops::min(self), 0);
    Tensor finite = ops::lt(ops::max(self), std::numeric_limits<double>::infinity());
    OPSCOPE_CHECK(ops::item(ops::bitwise_and(finite, nonnegative)).to_bool(),
                  "probability tensor contains either `inf`, `nan` or element < 0");
    bool zero_row =
        self.dim() == 1
            ? ops::item(ops::eq(ops::sum(self), 0)).to_bool()
            : ops::item(ops::sum(ops::eq(ops::sum(self, IntArrayRef({1})), 0))).to_long() != 0;
    OPSCOPE_CHECK(!zero_row, "invalid multinomial distribution (sum of probabilities <= 0)");
    Tensor q = exponential(ops::empty_like(self), 1.0, generator);
    ops::div_out(q, self, q);
    if (n_sample == 1) {
      argmax_out(result, q, -1, true);
    } else {
      Tensor values = ops::empty(result.sizes(), self.dtype());
      topk_out(values, result, q, n_sample);
    }
    return result;
  }
  Tensor out = result.is_contiguous() ? result : ops::empty(result.sizes(), ScalarType::Int64);
  dispatch_floating(self.dtype(), "multinomial", [&]<typename T>() {
    sample_with_replacement<T>(self, n_sample, out, generator_or_default(generator));
  });
  if (!out.is_same(result)) ops::copy_(result, out);
  return result;
}
Tensor multinomial(const Tensor& self, int64_t n_sample, bool with_replacement,
                   std::optional<Generator> generator) {
  return multinomial_out(self, n_sample, with_replacement, generator,
                         make_empty({0}, ScalarType::Int64, self.device()));
}

// --- randperm ------------------------------------------------------------------------------------

// out <- a random permutation of 0..n-1 (Fisher-Yates), resized to (n).
Tensor randperm_generator_out(int64_t n, std::optional<Generator> generator, const Tensor& out) {
  OPSCOPE_CHECK(n >= 0, "n must be non-negative, got", n);
  // torch's check_supported_max_int_with_precision: n - 1 must be a value of out's dtype, and
  // every integer up to n one a float dtype holds exactly.
  dispatch_dtype(out.dtype(), "randperm", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      throw Error(detail::str("\"randperm\" not implemented for 'Bool'"));
    } else if constexpr (std::is_integral_v<T>) {
      OPSCOPE_CHECK(n - 1 <= static_cast<int64_t>(std::numeric_limits<T>::max()),
                    "value cannot be converted to type ", std::is_signed_v<T> ? "" : "u", "int",
                    8 * sizeof(T), "_t without overflow");
    }
  });
  if (out.dtype() == ScalarType::Float16)
    OPSCOPE_CHECK(n <= (int64_t(1) << 11) + 1, "n cannot be greater than 2049 for Half type.");
  if (out.dtype() == ScalarType::Float32)
    OPSCOPE_CHECK(n <= (int64_t(1) << 24) + 1, "n cannot be greater than 2^24+1 for Float type.");
  if (out.dtype() == ScalarType::Float64)
    OPSCOPE_CHECK(n <= (int64_t(1) << 53) + 1, "n cannot be greater than 2^53+1 for Double type.");
  resize_output(out, {n});
  if (n == 0) return out;
  // Swap i with a uniform j in [i, n): one draw per swap, scaled to the range by a multiply (no
  // division) — 32 bits (four per Philox block) when n fits, as torch's 32-bit draws, else 64
  // bits (two per block). The values are exact in every dtype allowed.
  const bool wide = n > (int64_t(1) << 32);
  const int64_t per_block = wide ? 2 : 4;
  auto [seed, first] = generator_or_default(generator)->reserve(
      static_cast<uint64_t>((n - 1 + per_block - 1) / per_block));
  dispatch_dtype(out.dtype(), "randperm", [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>)
      write_elements<T>(out, [&](T* o) {
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(i);
        Words r{};
        for (int64_t i = 0; i + 1 < n; ++i) {
          const int64_t lane = i % per_block;
          if (lane == 0) r = philox4x32(seed, first + static_cast<uint64_t>(i / per_block));
          const auto range = static_cast<uint64_t>(n - i);
          const int64_t offset = static_cast<int64_t>(
              wide ? (static_cast<unsigned __int128>(word64(r, lane)) * range) >> 64
                   : (static_cast<uint64_t>(r[lane]) * range) >> 32);
          std::swap(o[i], o[i + offset]);
        }
      });
  });
  return out;
}
Tensor randperm_out(int64_t n, const Tensor& out) {
  return randperm_generator_out(n, std::nullopt, out);
}
// -> (n) int64 (or dtype): a random permutation of 0..n-1.
Tensor randperm_generator(int64_t n, std::optional<Generator> generator,
                          std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                          std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = new_cpu_tensor({n}, resolve_options(dtype, layout, pin_memory, ScalarType::Int64));
  return randperm_generator_out(n, generator, t);
}
Tensor randperm(int64_t n, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  return randperm_generator(n, std::nullopt, dtype, layout, device, pin_memory);
}

// --- random factories ----------------------------------------------------------------------------

// -> size, uniform in [0, 1).
Tensor rand_generator(IntArrayRef size, std::optional<Generator> generator,
                      std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                      std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = new_cpu_tensor(size, resolve_options(dtype, layout, pin_memory, default_dtype()));
  uniform_impl(t, 0, 1, generator_or_default(generator));
  return t;
}
Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  return rand_generator(size, std::nullopt, dtype, layout, device, pin_memory);
}

// -> size, standard normal.
Tensor randn_generator(IntArrayRef size, std::optional<Generator> generator,
                       std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                       std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = new_cpu_tensor(size, resolve_options(dtype, layout, pin_memory, default_dtype()));
  normal_impl(t, 0, 1, generator_or_default(generator));
  return t;
}
Tensor randn(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  return randn_generator(size, std::nullopt, dtype, layout, device, pin_memory);
}

// -> size, integers in [low, high); int64 when dtype is None (the schema's default, `long`).
Tensor randint_low_generator(int64_t low, int64_t high, IntArrayRef size,
                             std::optional<Generator> generator, std::optional<ScalarType> dtype,
                             std::optional<int64_t> layout, std::optional<Device> device,
                             std::optional<bool> pin_memory) {
  Tensor t = new_cpu_tensor(size, resolve_options(dtype, layout, pin_memory, ScalarType::Int64));
  random_from_to_impl(t, low, high, generator_or_default(generator));
  return t;
}
Tensor randint_low(int64_t low, int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
                   std::optional<int64_t> layout, std::optional<Device> device,
                   std::optional<bool> pin_memory) {
  return randint_low_generator(low, high, size, std::nullopt, dtype, layout, device, pin_memory);
}
Tensor randint_generator(int64_t high, IntArrayRef size, std::optional<Generator> generator,
                         std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory) {
  return randint_low_generator(0, high, size, generator, dtype, layout, device, pin_memory);
}
Tensor randint(int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<int64_t> layout, std::optional<Device> device,
               std::optional<bool> pin_memory) {
  return randint_low_generator(0, high, size, std::nullopt, dtype, layout, device, pin_memory);
}

// --- rrelu --------------------------------------------------------------------------------------

// out <- rrelu_with_noise(self). Training: each element <= 0 times a draw from U(lower, upper),
// which noise keeps (1 for the others). Evaluation: leaky_relu with slope (lower + upper) / 2,
// computed as torch 1.13's kernel does (add and div of 0-d tensors, item); noise untouched.
Tensor rrelu_with_noise_impl(const Tensor& out, const Tensor& self, const Tensor& noise,
                             const Scalar& lower, const Scalar& upper, bool training,
                             std::optional<Generator> generator) {
  Tensor result = out.defined() ? out : ops::empty_like(self);  // first, as torch's
  if (!training) {
    Tensor slope = ops::div(ops::add(scalar_to_tensor(lower, ScalarType::Float64),
                                     scalar_to_tensor(upper, ScalarType::Float64)),
                            Scalar(2));
    return ops::leaky_relu_out(result, self, ops::item(slope));
  }
  const ScalarType dt = self.dtype();
  if (dt == ScalarType::Float16)  // the floating dtypes and bfloat16, as torch 1.13's CPU kernel
    throw Error(detail::str("\"rrelu_with_noise_out_cpu\" not implemented for '", cpp_name(dt),
                            "'"));
  OPSCOPE_CHECK(std::ranges::equal(noise.sizes(), self.sizes()) && noise.dtype() == dt,
                "rrelu_with_noise: noise must have the input's shape and dtype (",
                shape_str(self.sizes()), " ", cpp_name(dt), "), got ", shape_str(noise.sizes()), " ",
                cpp_name(noise.dtype()));
  if (out.defined() && !out.is_same(self)) resize_output(result, self.sizes());
  OPSCOPE_CHECK(result.dtype() == dt, "rrelu_with_noise: out has dtype ",
                cpp_name(result.dtype()), ", expected ", cpp_name(dt));
  const int64_t n = self.numel();
  const double lo = lower.to_double(), hi = upper.to_double();
  std::vector<double> draws(static_cast<size_t>(n));
  for_each_block<2>(generator_or_default(generator), n,
                    [&](int64_t i0, int64_t cnt, const Words& r) {
                      for (int64_t e = 0; e < cnt; ++e)
                        draws[i0 + e] = uint64_to_uniform_double(word64(r, e)) * (hi - lo) + lo;
                    });
  dispatch_floating(dt, "rrelu_with_noise_out_cpu", [&]<typename T>() {
    const Tensor x = self.is_contiguous() ? self : ops::contiguous(self);
    std::vector<T> values(x.data_ptr<T>(), x.data_ptr<T>() + n);  // before an in-place write
    using A = acc_type_t<T>;
    write_elements<T>(noise, [&](T* r) {
      for (int64_t i = 0; i < n; ++i) r[i] = A(values[i]) <= A(0) ? T(draws[i]) : T(1);
    });
    write_elements<T>(result, [&](T* y) {
      for (int64_t i = 0; i < n; ++i)
        y[i] = A(values[i]) <= A(0) ? T(A(values[i]) * A(draws[i])) : values[i];
    });
  });
  return result;
}

// -> noise grad_output in training (where upper > lower), else leaky_relu_backward with slope
// (lower + upper) / 2 (self_is_result: from the in-place form's result)
Tensor rrelu_with_noise_backward(const Tensor& grad_output, const Tensor& self,
                                 const Tensor& noise, const Scalar& lower, const Scalar& upper,
                                 bool training, bool self_is_result) {
  if (training && upper.to_double() - lower.to_double() > 1e-6) return ops::mul(grad_output, noise);
  const double slope = (lower.to_double() + upper.to_double()) / 2;
  return ops::leaky_relu_backward(grad_output, self, slope, self_is_result);
}

static Library cpu_random(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("rrelu_with_noise", functional<&rrelu_with_noise_impl>());
  m.impl("rrelu_with_noise_", inplace<&rrelu_with_noise_impl>());
  m.impl("rrelu_with_noise.out", out<&rrelu_with_noise_impl>());
  m.impl("rrelu_with_noise_backward", fn<&rrelu_with_noise_backward>);
  m.impl("rand", fn<&rand>);
  m.impl("rand.generator", fn<&rand_generator>);
  m.impl("randn", fn<&randn>);
  m.impl("randn.generator", fn<&randn_generator>);
  m.impl("randint", fn<&randint>);
  m.impl("randint.generator", fn<&randint_generator>);
  m.impl("randint.low", fn<&randint_low>);
  m.impl("randint.low_generator", fn<&randint_low_generator>);
  m.impl("uniform_", fn<&uniform_>);
  m.impl("normal_", fn<&normal_>);
  m.impl("random_.from", fn<&random_from>);
  m.impl("random_.to", fn<&random_to>);
  m.impl("random_", fn<&random_>);
  m.impl("bernoulli_.float", fn<&bernoulli_float>);
  m.impl("bernoulli_.Tensor", fn<&bernoulli_tensor>);
  m.impl("exponential_", fn<&exponential_>);
  m.impl("multinomial", fn<&multinomial>);
  m.impl("multinomial.out", fn<&multinomial_out>);
  m.impl("randperm", fn<&randperm>);
  m.impl("randperm.generator", fn<&randperm_generator>);
  m.impl("randperm.out", fn<&randperm_out>);
  m.impl("randperm.generator_out", fn<&randperm_generator_out>);
});

}  // namespace opscope::cpu
