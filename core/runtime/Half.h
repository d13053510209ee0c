// 16-bit floating point storage types: IEEE half (float16) and bfloat16.
//
// Semantically both are floats with fewer bits: arithmetic happens in float32 and the result is
// rounded back (round to nearest even), which is what PyTorch's CPU kernels do for these dtypes.
// In implementation terms each is a uint16_t with conversions to and from float.
#pragma once

#include <cstdint>
#include <cstring>

namespace opscope {

namespace detail {
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace detail

struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  BFloat16(float f) {  // NOLINT: implicit like a builtin float type
    uint32_t u = detail::float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      x = 0x7fc0;  // NaN stays NaN (quiet)
    } else {
      u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
      x = static_cast<uint16_t>(u >> 16);
    }
  }
  operator float() const { return detail::bits_float(static_cast<uint32_t>(x) << 16); }
};

struct Half {
  uint16_t x = 0;
  Half() = default;
  Half(float f) { x = from_float(f); }  // NOLINT
  operator float() const { return to_float(x); }

  static uint16_t from_float(float f) {
    // float32 -> binary16, round to nearest even, with subnormals, inf and NaN.
    uint32_t u = detail::float_bits(f);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);   // NaN
    if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
    if (abs < 0x38800000u) {
      // Subnormal half (or zero): scale so the half's subnormal step becomes 1.0 and round there.
      float scaled = detail::bits_float(abs) + 0.5f;  // 0.5 = 2^-1 forces the binade of 2^-24
      return static_cast<uint16_t>(sign | (detail::float_bits(scaled) - 0x3f000000u));
    }
    uint32_t mant_odd = (abs >> 13) & 1u;
    abs += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round
    return static_cast<uint16_t>(sign | (abs >> 13));
  }
  static float to_float(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return detail::bits_float(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
      float m = static_cast<float>(mant) * 5.9604644775390625e-08f;  // 2^-24
      return sign ? -m : m;
    }
    return detail::bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
  }
};

}  // namespace opscope
