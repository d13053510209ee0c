// Elementary functions written so that GCC vectorizes the loops that call them (the kernels'
// `#pragma omp simd` loops, compiled with -fno-trapping-math so that the selects if-convert).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

// Clones for x86-64-v3 (AVX2 + FMA: Haswell and later, Zen) and the baseline, picked at load time.
// Files using it set `#pragma GCC optimize("fp-contract=fast")` so that a * b + c becomes one FMA.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(OPSCOPE_NO_CLONES)
#define OPSCOPE_FMA_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define OPSCOPE_FMA_CLONES
#endif

namespace opscope::cpu {

// exp(x) for float32 within 2 ulp, written so that a vectorizer can take it: x = n ln2 + r with
// |r| <= ln2 / 2, exp(r) by Cephes' degree-7 polynomial, 2^n put into the exponent bits.
// Results that would be subnormal flush to 0; NaN stays NaN; above 88.72 it is inf. Meant for
// x <= 88 (the kernels pass x - max <= 0): in (88, 88.72] it returns exp(88).
inline float exp_f32(float x) {
  constexpr float kMax = 88.72283f, kMin = -87.33654f;
  float xc = x > 88.0f ? 88.0f : x;
  xc = xc < -87.0f ? -87.0f : xc;
  float t = xc * 1.44269504088896341f + 12582912.0f;  // round(x / ln2) by the 1.5 * 2^23 trick
  float n = t - 12582912.0f;
  float r = xc - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  float scale = std::bit_cast<float>((static_cast<int32_t>(n) + 127) << 23);
  float y = p * scale;
  y = x > kMax ? std::numeric_limits<float>::infinity() : y;
  y = x < kMin ? 0.0f : y;
  return x != x ? x : y;
}

template <typename T>
inline T exp_of(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return exp_f32(x);
  } else {
    return std::exp(x);
  }
}

}  // namespace opscope::cpu
