// CPU kernels of the deterministic factories: empty, empty_strided, zeros, ones, full,
// scalar_tensor, arange, linspace, eye, triu_indices / tril_indices. Declared and registered in core/ops/factories.cpp; the
// random ones are in core/ops/cpu/random.cpp.
//
// Checks come in torch 1.13's order with its messages (RangeFactories.cpp, TensorFactories.cpp).
// arange and linspace reproduce torch's arithmetic to the last bit — see Note [arange and
// linspace round like torch's AVX2 kernels].
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/ops/cpu/factory_util.h"
#include "core/dispatch/Library.h"
#include "core/ops/factories.h"
#include "core/runtime/CheckedMath.h"

namespace opscope::cpu {

using namespace factory_util;

namespace {

Tensor new_cpu_tensor(IntArrayRef size, ScalarType dtype) {
  return make_empty(size, dtype, Device(DeviceType::CPU));
}

template <typename T>
void fill_contiguous(T* p, int64_t n, T value) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) p[i] = value;
  });
}

// Fills a fresh (contiguous) tensor with `value`, converted with torch's overflow check.
void fill_fresh(const Tensor& t, const Scalar& value) {
  dispatch_dtype(t.dtype(), "fill_cpu", [&]<typename T>() {
    fill_contiguous(t.data_ptr<T>(), t.numel(), checked_convert<T>(value));
  });
}

// torch's get_channels_last_strides_2d / _3d. A product that overflows stops at INT64_MAX:
// make_empty_strided then reports the storage overflow, as torch does.
DimVector channels_last_strides(IntArrayRef size) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  DimVector st(size.size(), 1);
  if (size.size() == 4) {
    st[1] = 1;
    st[3] = size[1];
    st[2] = mul_or(st[3], size[3], kMax);
    st[0] = mul_or(st[2], size[2], kMax);
  } else {
    st[1] = 1;
    st[4] = size[1];
    st[3] = mul_or(st[4], size[4], kMax);
    st[2] = mul_or(st[3], size[3], kMax);
    st[0] = mul_or(st[2], size[2], kMax);
  }
  return st;
}

}  // namespace

// --- empty / zeros / ones / full ---------------------------------------------------------------

// -> size, uninitialized.
Tensor empty_memory_format(IntArrayRef size, std::optional<ScalarType> dtype,
                           std::optional<int64_t> layout, std::optional<Device> device,
                           std::optional<bool> pin_memory, std::optional<int64_t> memory_format) {
  ScalarType dt = resolve_options(dtype, layout, pin_memory, default_dtype());
  int64_t mf = memory_format.value_or(ops::kContiguousFormat);
  OPSCOPE_CHECK(mf != ops::kPreserveFormat, "unsupported memory format Preserve");
  if (mf == ops::kChannelsLast || mf == ops::kChannelsLast3d) {
    size_t rank = mf == ops::kChannelsLast ? 4 : 5;
    OPSCOPE_CHECK(size.size() == rank, "required rank ", rank, " tensor to use ",
                  mf == ops::kChannelsLast ? "channels_last" : "channels_last_3d", " format");
    check_size_nonnegative(size);  // the negative-dimension message first, as torch
    return make_empty_strided(size, channels_last_strides(size), dt, Device(DeviceType::CPU));
  }
  OPSCOPE_CHECK(mf == ops::kContiguousFormat, "unsupported memory format ", mf);
  return new_cpu_tensor(size, dt);
}

// -> size with `stride`, uninitialized; storage large enough for the furthest element.
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                     std::optional<int64_t> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
  ScalarType dt = resolve_options(dtype, layout, pin_memory, default_dtype());
  OPSCOPE_CHECK(size.size() == stride.size(), "dimensionality of sizes (", size.size(),
                ") must match dimensionality of strides (", stride.size(), ")");
  check_size_nonnegative(size);
  bool negative_stride = false;
  for (size_t d = 0; d < size.size(); ++d) negative_stride |= stride[d] < 0 && size[d] > 1;
  OPSCOPE_CHECK(!negative_stride,
                "Storage size calculation overflowed with sizes=", shape_str(size),
                " and strides=", shape_str(stride));
  return make_empty_strided(size, stride, dt, Device(DeviceType::CPU));
}

// -> size, all 0 (every dtype's zero is all-zero bytes).
Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = new_cpu_tensor(size, resolve_options(dtype, layout, pin_memory, default_dtype()));
  auto* p = static_cast<char*>(t.data());
  int64_t nbytes = t.numel() * static_cast<int64_t>(element_size(t.dtype()));
  parallel_for(0, nbytes, 16 * kGrainSize,
               [&](int64_t b, int64_t e) { std::memset(p + b, 0, static_cast<size_t>(e - b)); });
  return t;
}

// -> size, all 1.
Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = new_cpu_tensor(size, resolve_options(dtype, layout, pin_memory, default_dtype()));
  fill_fresh(t, Scalar(int64_t(1)));
  return t;
}

// -> size, all fill_value; dtype from the value's kind when None (torch 1.13's full).
Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<int64_t> layout, std::optional<Device> device,
            std::optional<bool> pin_memory) {
  ScalarType inferred = fill_value.is_bool()       ? ScalarType::Bool
                        : fill_value.is_integral() ? ScalarType::Int64
                                                   : default_dtype();
  Tensor t = new_cpu_tensor(size, resolve_options(dtype, layout, pin_memory, inferred));
  fill_fresh(t, fill_value);
  return t;
}

// -> 0-d holding s; default dtype when None.
Tensor scalar_tensor(const Scalar& s, std::optional<ScalarType> dtype,
                     std::optional<int64_t> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
  Tensor t = new_cpu_tensor({}, resolve_options(dtype, layout, pin_memory, default_dtype()));
  fill_fresh(t, s);
  return t;
}

// --- eye ---------------------------------------------------------------------------------------

// -> (n, m): 1 where row == column.
Tensor eye_m(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  ScalarType dt = resolve_options(dtype, layout, pin_memory, default_dtype());
  OPSCOPE_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  OPSCOPE_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  Tensor t = zeros(std::array<int64_t, 2>{n, m}, dt, std::nullopt, std::nullopt, std::nullopt);
  dispatch_dtype(dt, "eye", [&]<typename T>() {
    T* p = t.data_ptr<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) p[i * m + i] = T(1);
  });
  return t;
}

// -> (n, n) identity.
Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
           std::optional<Device> device, std::optional<bool> pin_memory) {
  OPSCOPE_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  return eye_m(n, n, dtype, layout, device, pin_memory);
}

// --- triu_indices / tril_indices ---------------------------------------------------------------

namespace {

// -> (2, k): the (i, j) of a row x col matrix with j - i >= offset (upper) or <= offset (lower),
// row by row; row i keeps the columns [first, last) below, so k is their sum.
Tensor triangle_indices(const char* name, bool upper, int64_t row, int64_t col, int64_t offset,
                        std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                        std::optional<bool> pin_memory) {
  ScalarType dt = resolve_options(dtype, layout, pin_memory, ScalarType::Int64);
  OPSCOPE_CHECK(row >= 0, "row must be non-negative, got", row);
  OPSCOPE_CHECK(col >= 0, "col must be non-negative, got", col);
  // Row i's columns, clamped to [0, col]. An offset beyond [-row - 1, col + 1] selects what that
  // bound does, so it is clamped first (no overflow near the int64 limits).
  const int64_t d = std::clamp<int64_t>(offset, -row - 1, col + 1);
  auto columns = [&](int64_t i) -> std::pair<int64_t, int64_t> {
    int64_t diag = d + i;  // the column where j - i == offset
    if (upper) return {std::clamp<int64_t>(diag, 0, col), col};
    return {0, std::clamp<int64_t>(diag + 1, 0, col)};
  };
  // The rows that hold cells are one run: [0, col - d) for upper, [-d, row) for lower (clamped
  // to the matrix), so k is a sum of clamp(a + i, 0, col) over a run of i, in closed form — a
  // loop over 2^62 rows would not end — in 128 bits, and refused past int64 as torch refuses it.
  const int64_t begin = upper ? 0 : std::clamp<int64_t>(-d, 0, row);
  const int64_t end = upper ? std::clamp<int64_t>(col - d, 0, row) : row;
  auto clamped_sum = [col](__int128 a, __int128 n) {  // sum_{i < n} clamp(a + i, 0, col)
    const __int128 i0 = std::clamp<__int128>(-a, 0, n), i1 = std::clamp<__int128>(col - a, i0, n);
    return (i1 - i0) * a + (i0 + i1 - 1) * (i1 - i0) / 2 + (n - i1) * col;
  };
  const __int128 n = end - begin;
  const __int128 cells = upper ? n * col - clamped_sum(d + begin, n) : clamped_sum(d + begin + 1, n);
  if (cells > std::numeric_limits<int64_t>::max() / 2) {
    std::string digits;
    for (__int128 c = cells; c > 0; c /= 10) digits.insert(digits.begin(), char('0' + int(c % 10)));
    throw Error(detail::str("Storage size calculation overflowed with sizes=[2, ", digits, "]"));
  }
  const int64_t k = static_cast<int64_t>(cells);
  Tensor t = new_cpu_tensor(std::array<int64_t, 2>{2, k}, dt);
  bool dispatched = false;
  auto fill = [&]<typename T>() {
    dispatched = true;
    T* rows = t.data_ptr<T>();
    T* cols = rows + k;
    int64_t n = 0;
    // each of these rows holds a cell (when there are any: col may be 0), so at most k rows
    for (int64_t i = begin; i < end && k > 0; ++i) {
      auto [first, last] = columns(i);
      for (int64_t j = first; j < last; ++j, ++n) {
        rows[n] = static_cast<T>(i);
        cols[n] = static_cast<T>(j);
      }
    }
  };
  if (dt == ScalarType::Int64) fill.template operator()<int64_t>();
  if (dt == ScalarType::Int32) fill.template operator()<int32_t>();
  OPSCOPE_CHECK(dispatched, "\"", name, "\" not implemented for '", cpp_name(dt), "'");
  return t;
}

}  // namespace

Tensor triu_indices(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                    std::optional<int64_t> layout, std::optional<Device> device,
                    std::optional<bool> pin_memory) {
  return triangle_indices("triu_indices", true, row, col, offset, dtype, layout, pin_memory);
}
Tensor tril_indices(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                    std::optional<int64_t> layout, std::optional<Device> device,
                    std::optional<bool> pin_memory) {
  return triangle_indices("tril_indices", false, row, col, offset, dtype, layout, pin_memory);
}

// --- arange ------------------------------------------------------------------------------------
//
// Note [arange and linspace round like torch's AVX2 kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch 1.13 fills a contiguous range with cpu_serial_kernel_vec: blocks of 2V elements (V =
// elements per 256-bit vector: 4 double / int64, 8 float / int32, 16 half / bfloat16 / int16,
// 32 int8 / uint8) come from Vectorized::arange(base, step), lane k = base + k * step, where
// base is the scalar formula at the vector's first index rounded to the element type; the
// elements after the last whole block use the scalar formula. GCC contracts the scalar formulas
// `start + step * i` and `end - step * (steps - i - 1)` into one fused multiply-add (torch's
// kernels are built with -mfma). So element i's value depends on where its vector starts, and
// these kernels compute exactly that, element by element (hence thread-count independent).
// Checked against values printed by torch 1.13 (tests/cpp/test_factories.cpp): linspace rounds
// a lane as T(base + T(k * step)); arange's double-accumulated lanes as fma(k, step, base).
// Ranges longer than torch's GRAIN_SIZE (32768) split differently in torch when it runs on
// several threads; opscope always rounds as torch does on one.

namespace {

template <typename T>
constexpr int64_t vec_lanes() {
  return 32 / static_cast<int64_t>(sizeof(T));  // one AVX2 register
}

// Index of the first element of i's vector, or -1 when i is in the scalar tail.
template <typename T>
int64_t vector_start(int64_t i, int64_t n) {
  constexpr int64_t V = vec_lanes<T>();
  int64_t whole = n / (2 * V) * (2 * V);
  return i < whole ? i - i % V : -1;
}

// Accumulation type of torch's CPU arange: double for float/double, float for half/bfloat16,
// int64 for integers.
template <typename T>
using arange_acc_t = std::conditional_t<std::is_integral_v<T>, int64_t,
                                        std::conditional_t<sizeof(T) == 2, float, double>>;

template <typename T>
void arange_fill(T* out, int64_t n, const Scalar& start_s, const Scalar& step_s) {
  using Acc = arange_acc_t<T>;
  Acc start = checked_convert<Acc>(start_s), step = checked_convert<Acc>(step_s);
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      if constexpr (std::is_integral_v<T>) {
        // int64 arithmetic that wraps (as torch's), then truncation to T.
        out[i] = static_cast<T>(static_cast<uint64_t>(start) +
                                static_cast<uint64_t>(step) * static_cast<uint64_t>(i));
      } else {
        int64_t v0 = vector_start<T>(i, n);
        if (v0 < 0) {
          out[i] = static_cast<T>(std::fma(step, static_cast<Acc>(i), start));
        } else {
          T base = static_cast<T>(std::fma(step, static_cast<Acc>(v0), start));
          Acc k = static_cast<Acc>(i - v0);
          if constexpr (std::is_same_v<Acc, double>)
            out[i] = static_cast<T>(std::fma(k, step, static_cast<double>(base)));
          else
            out[i] = static_cast<T>(static_cast<float>(base) + k * step);
        }
      }
    }
  });
}

Tensor arange_impl(const Scalar& start, const Scalar& end, const Scalar& step,
                   std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                   std::optional<bool> pin_memory) {
  bool integral =
      !start.is_floating_point() && !end.is_floating_point() && !step.is_floating_point();
  ScalarType dt =
      resolve_options(dtype, layout, pin_memory, integral ? ScalarType::Int64 : default_dtype());
  OPSCOPE_CHECK(dt != ScalarType::Bool, "\"arange_cpu\" not implemented for 'Bool'");
  return dispatch_dtype(dt, "arange_cpu", [&]<typename T>() -> Tensor {
    using Acc = arange_acc_t<T>;
    Acc xstart = checked_convert<Acc>(start), xend = checked_convert<Acc>(end),
        xstep = checked_convert<Acc>(step);
    // The length in double for every type but int64 (torch's choice, for CPU/GPU agreement).
    // int64's is exact, in 128 bits: end - start may not fit an int64 (arange(-2**63, 2**63 - 1,
    // 2**63 - 1) has 3 elements; torch 1.13's difference wraps, and it returns none).
    double size_d = 0;
    int64_t exact = -1;
    if constexpr (std::is_same_v<T, int64_t>) {
      if (xstep != 0) {
        __int128 diff = static_cast<__int128>(xend) - xstart;
        __int128 q = diff / xstep;  // rounded to zero; ceil below
        if (q * xstep != diff && (diff > 0) == (xstep > 0)) ++q;
        size_d = static_cast<double>(q);
        if (q >= 0 && q <= std::numeric_limits<int64_t>::max()) exact = static_cast<int64_t>(q);
      }
    } else {
      size_d = std::ceil((end.to_double() - start.to_double()) / step.to_double());
    }
    OPSCOPE_CHECK(xstep > 0 || xstep < 0, "step must be nonzero");
    OPSCOPE_CHECK(
        std::isfinite(static_cast<double>(xstart)) && std::isfinite(static_cast<double>(xend)),
        "unsupported range: ", xstart, " -> ", xend);
    OPSCOPE_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
                  "upper bound and larger bound inconsistent with step sign");
    // 2**63 (a double) does not fit an int64: the bound is strict.
    OPSCOPE_CHECK(exact >= 0 || (size_d >= 0 && size_d < 0x1p63),
                  "invalid size, possible overflow?");
    int64_t n = exact >= 0 ? exact : static_cast<int64_t>(size_d);
    Tensor t = new_cpu_tensor(std::array<int64_t, 1>{n}, dt);
    arange_fill<T>(t.data_ptr<T>(), n, start, step);
    return t;
  });
}

}  // namespace

// -> [ceil(end)]: 0, 1, ...
Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  return arange_impl(Scalar(int64_t(0)), end, Scalar(int64_t(1)), dtype, layout, pin_memory);
}

// -> [ceil(end - start)]: start, start + 1, ...
Tensor arange_start(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
                    std::optional<int64_t> layout, std::optional<Device> device,
                    std::optional<bool> pin_memory) {
  return arange_impl(start, end, Scalar(int64_t(1)), dtype, layout, pin_memory);
}

// -> [ceil((end - start) / step)]: start + i * step.
Tensor arange_start_step(const Scalar& start, const Scalar& end, const Scalar& step,
                         std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory) {
  return arange_impl(start, end, step, dtype, layout, pin_memory);
}

// --- linspace ----------------------------------------------------------------------------------

namespace {

// torch's step_t: double for integers, the element type itself otherwise (so a half linspace
// steps in half precision, each operation rounded — c10::Half's operators).
template <typename T>
using linspace_step_t = std::conditional_t<std::is_integral_v<T>, double, T>;

template <typename T>
void linspace_fill(T* out, int64_t steps, T start, T end) {
  using S = linspace_step_t<T>;
  S step;
  if constexpr (std::is_integral_v<T>)
    step = (static_cast<double>(end) - static_cast<double>(start)) / static_cast<double>(steps - 1);
  else if constexpr (sizeof(T) == 2)  // Half / BFloat16: a / int64 is a / T(int64)
    step = T(static_cast<float>(T(static_cast<float>(end) - static_cast<float>(start))) /
             static_cast<float>(T(static_cast<float>(steps - 1))));
  else
    step = (end - start) / static_cast<T>(steps - 1);
  int64_t halfway = steps / 2;
  // The scalar formula at index i (fused like torch's build, see the Note).
  auto scalar_at = [&](int64_t i) -> T {
    if constexpr (sizeof(T) == 2 && !std::is_integral_v<T>) {
      float lo_mul = static_cast<float>(
          T(static_cast<float>(step) * static_cast<float>(T(static_cast<float>(i)))));
      float hi_mul = static_cast<float>(
          T(static_cast<float>(step) * static_cast<float>(T(static_cast<float>(steps - i - 1)))));
      return i < halfway ? T(static_cast<float>(start) + lo_mul)
                         : T(static_cast<float>(end) - hi_mul);
    } else if constexpr (std::is_integral_v<T>) {
      return i < halfway ? static_cast<T>(
                               std::fma(step, static_cast<double>(i), static_cast<double>(start)))
                         : static_cast<T>(std::fma(-step, static_cast<double>(steps - i - 1),
                                                   static_cast<double>(end)));
    } else {
      return i < halfway ? std::fma(step, static_cast<T>(i), start)
                         : std::fma(-step, static_cast<T>(steps - i - 1), end);
    }
  };
  parallel_for(0, steps, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      int64_t v0 = vector_start<T>(i, steps);
      if (v0 < 0 || v0 == i) {
        out[i] = scalar_at(v0 < 0 ? i : v0);
        continue;
      }
      T base = scalar_at(v0);
      int64_t k = i - v0;
      if constexpr (std::is_integral_v<T>) {
        out[i] = static_cast<T>(static_cast<double>(base) + static_cast<double>(k) * step);
      } else if constexpr (sizeof(T) == 2) {
        float ks = static_cast<float>(
            T(static_cast<float>(T(static_cast<float>(k))) * static_cast<float>(step)));
        out[i] = T(static_cast<float>(base) + ks);
      } else {
        T ks = static_cast<T>(k) * step;  // rounded on its own: not fused (see the Note)
        out[i] = base + ks;
      }
    }
  });
}

}  // namespace

// -> [steps] from start to end, both included.
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  ScalarType dt = resolve_options(dtype, layout, pin_memory, default_dtype());
  OPSCOPE_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor t = new_cpu_tensor(std::array<int64_t, 1>{steps}, dt);
  if (steps == 0) return t;
  if (steps == 1) {
    fill_fresh(t, start);
    return t;
  }
  OPSCOPE_CHECK(dt != ScalarType::Bool, "\"linspace_cpu\" not implemented for 'Bool'");
  dispatch_dtype(dt, "linspace_cpu", [&]<typename T>() {
    linspace_fill<T>(t.data_ptr<T>(), steps, checked_convert<T>(start), checked_convert<T>(end));
  });
  return t;
}

static Library cpu_factories(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("empty.memory_format", fn<&empty_memory_format>);
  m.impl("empty_strided", fn<&empty_strided>);
  m.impl("zeros", fn<&zeros>);
  m.impl("ones", fn<&ones>);
  m.impl("full", fn<&full>);
  m.impl("scalar_tensor", fn<&scalar_tensor>);
  m.impl("arange", fn<&arange>);
  m.impl("arange.start", fn<&arange_start>);
  m.impl("arange.start_step", fn<&arange_start_step>);
  m.impl("linspace", fn<&linspace>);
  m.impl("eye", fn<&eye>);
  m.impl("eye.m", fn<&eye_m>);
  m.impl("triu_indices", fn<&triu_indices>);
  m.impl("tril_indices", fn<&tril_indices>);
});

}  // namespace opscope::cpu
