// The loops of the unary CPU kernels, shared by core/ops/cpu/unary.cpp, unary_math.cpp and
// activation.cpp (and private to them).
//
// Semantically unary_loop<T>(iter, vop, f) computes out = f(in) over a built TensorIterator whose
// two operands are of dtype T; unary_float(out, self, name, half, vop, f) is the whole kernel of
// a float function that promotes integers (exp, lgamma), unary_same_float(out, self, name, vop,
// f) of a float-only function of self's own dtype (gelu, silu, softplus). In implementation terms float32
// / float64 runs go through SLEEF's vector kernel `vop` (unary_vec.h) when the CPU has AVX2,
// strided runs through a small buffer, bfloat16 through float buffers (Note [bfloat16 through the
// float kernels]); other dtypes run the scalar form f on acc_type_t<T>.
#pragma once

#include <algorithm>
#include <optional>
#include <string_view>
#include <type_traits>

#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/unary_vec.h"

namespace opscope::cpu {

inline constexpr int64_t kBufferElems = 256;

// BFloat16(float)'s bits (nearest, ties to even; NaN: a quiet NaN) without a branch, so that a
// loop of them vectorizes; round_bf16 is the float it stands for.
inline uint32_t bf16_rounded_float_bits(float v) {  // the float's bits, the low 16 cleared
  const uint32_t u = detail::float_bits(v);
  const uint32_t rounded = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
  const uint32_t nan = 0u - static_cast<uint32_t>((u & 0x7fffffffu) > 0x7f800000u);
  return (rounded & ~nan) | (0x7fc00000u & nan);
}
inline uint16_t bf16_bits(float v) { return static_cast<uint16_t>(bf16_rounded_float_bits(v) >> 16); }
inline float round_bf16(float v) { return detail::bits_float(bf16_rounded_float_bits(v)); }

// m bfloat16 elements, `stride` bytes apart, widened into floats, and back (rounded to nearest
// even): plain loops over typed pointers when the elements are adjacent, so they vectorize.
inline void widen_bf16(const char* in, int64_t stride, float* out, int64_t m) {
  if (stride == sizeof(BFloat16)) {
    const BFloat16* p = reinterpret_cast<const BFloat16*>(in);
#pragma omp simd
    for (int64_t i = 0; i < m; ++i) out[i] = static_cast<float>(p[i]);
    return;
  }
  for (int64_t i = 0; i < m; ++i)
    out[i] = static_cast<float>(*reinterpret_cast<const BFloat16*>(in + i * stride));
}
inline void narrow_bf16(const float* in, char* out, int64_t stride, int64_t m) {
  if (stride == sizeof(BFloat16)) {
    uint16_t* p = reinterpret_cast<uint16_t*>(out);
#pragma omp simd
    for (int64_t i = 0; i < m; ++i) p[i] = bf16_bits(in[i]);
    return;
  }
  for (int64_t i = 0; i < m; ++i) *reinterpret_cast<BFloat16*>(out + i * stride) = BFloat16(in[i]);
}

[[noreturn]] inline void not_implemented(std::string_view name, ScalarType t) {
  throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(t), "'"));
}

// out = f(in) over a built iterator whose operands are both of dtype T. `vop` names the vector
// kernel to use for float / double (when the CPU has one), `f` is the scalar form on acc_type_t<T>.
template <typename T, typename F>
void unary_loop(TensorIterator& iter, std::optional<vec::UnaryOp> vop, const F& f,
                const double* params = nullptr) {
  using A = acc_type_t<T>;
  constexpr bool vectorizable = std::is_same_v<T, float> || std::is_same_v<T, double>;
  const bool use_vec = (vectorizable || std::is_same_v<T, BFloat16>) && vop && vec::available();
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    if constexpr (std::is_same_v<T, BFloat16>) {
      // Note [bfloat16 through the float kernels]
      // A bfloat16 run is widened to float a block at a time, goes through the float vector
      // kernel, and is rounded back, as torch's Vectorized<BFloat16> does: the same values as
      // the scalar form in float (up to the vector functions' last bits, before the rounding),
      // 20-60x faster than a scalar loop with a branch per element (leaky_relu on 10^6: 5.2 ms
      // against torch's 0.13).
      if (use_vec) {
        float buf[kBufferElems];
        for (int64_t start = 0; start < n; start += kBufferElems) {
          const int64_t m = std::min(kBufferElems, n - start);
          widen_bf16(data[1] + start * strides[1], strides[1], buf, m);
          if (!vec::vec_unary(*vop, buf, buf, m, params))
            for (int64_t i = 0; i < m; ++i) buf[i] = static_cast<float>(f(A(buf[i])));
          narrow_bf16(buf, data[0] + start * strides[0], strides[0], m);
        }
        return;
      }
    }
    if constexpr (vectorizable) {
      if (use_vec) {
        if (strides[0] == sizeof(T) && strides[1] == sizeof(T)) {
          vec::vec_unary(*vop, reinterpret_cast<const T*>(data[1]), reinterpret_cast<T*>(data[0]),
                         n, params);
          return;
        }
        // Strided: gather a block, compute it in place, scatter it.
        T buf[kBufferElems];
        for (int64_t start = 0; start < n; start += kBufferElems) {
          int64_t m = std::min(kBufferElems, n - start);
          const char* in = data[1] + start * strides[1];
          for (int64_t i = 0; i < m; ++i) buf[i] = *reinterpret_cast<const T*>(in + i * strides[1]);
          vec::vec_unary(*vop, buf, buf, m, params);
          char* out = data[0] + start * strides[0];
          for (int64_t i = 0; i < m; ++i) *reinterpret_cast<T*>(out + i * strides[0]) = buf[i];
        }
        return;
      }
    }
    if (strides[0] == sizeof(T) && strides[1] == sizeof(T)) {
      T* out = reinterpret_cast<T*>(data[0]);
      const T* in = reinterpret_cast<const T*>(data[1]);
      // A copy of f: its captured parameters cannot alias out, so the loop vectorizes (through
      // the reference every store could change them).
      const F fn = f;
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(fn(A(in[i])));
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<T*>(data[0] + i * strides[0]) =
          static_cast<T>(f(A(*reinterpret_cast<const T*>(data[1] + i * strides[1]))));
    }
  });
}

// PyTorch's build_borrowing_unary_float_op: integer and bool inputs compute in the default float
// dtype; out= / in-place outputs must be able to hold the result.
inline TensorIterator unary_float_iter(const Tensor& out, const Tensor& self) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(self)
      .promote_inputs_to_common_dtype(true)
      .promote_integer_inputs_to_float(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

// A float function: `name` is the kernel PyTorch names in its dtype error; `half` whether
// PyTorch's CPU kernel takes float16.
template <typename F>
Tensor unary_float(const Tensor& out, const Tensor& self, std::string_view name, bool half,
                   std::optional<vec::UnaryOp> vop, const F& f) {
  TensorIterator iter = unary_float_iter(out, self);
  dispatch_dtype_if(iter.common_dtype(), name, kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half> && !half) not_implemented(name, iter.common_dtype());
    unary_loop<T>(iter, vop, f);
  });
  return iter.output();
}

// A float-only function of self's own dtype (gelu, silu, softplus): no integer promotion.
template <typename F>
Tensor unary_same_float(const Tensor& out, const Tensor& self, std::string_view name,
                        std::optional<vec::UnaryOp> vop, const F& f,
                        const double* params = nullptr) {
  TensorIterator iter = TensorIterator::unary_op(out, self);
  dispatch_dtype_if(iter.common_dtype(), name, kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented(name, iter.common_dtype());
    unary_loop<T>(iter, vop, f, params);
  });
  return iter.output();
}

// An activation's gradient (gelu_backward, silu_backward, softplus_backward): out = f(grad, self)
// = grad * f'(self) over grad and self broadcast, one floating dtype (Half refused, as torch 1.13
// on the CPU). Float32 / float64 go through the vector kernel `vop` (vec_activation_backward),
// strided runs through small buffers; bfloat16 through float buffers and the same kernel.
template <typename F>
Tensor activation_backward(const Tensor& grad_input, const Tensor& grad, const Tensor& self,
                           std::string_view name, vec::UnaryOp vop, const F& f,
                           const double* params = nullptr) {
  TensorIterator iter = TensorIterator::binary_op(grad_input, grad, self);
  dispatch_dtype_if(iter.common_dtype(), name, kFloatingOnly, [&]<typename T>() {
    if (std::is_same_v<T, Half>) not_implemented(name, iter.common_dtype());
    using A = acc_type_t<T>;
    constexpr bool vectorizable = std::is_same_v<T, float> || std::is_same_v<T, double>;
    const bool use_vec = (vectorizable || std::is_same_v<T, BFloat16>) && vec::available();
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      if constexpr (std::is_same_v<T, BFloat16>) {  // Note [bfloat16 through the float kernels]
        if (use_vec) {
          float gbuf[kBufferElems], xbuf[kBufferElems];
          for (int64_t start = 0; start < n; start += kBufferElems) {
            const int64_t m = std::min(kBufferElems, n - start);
            widen_bf16(data[1] + start * strides[1], strides[1], gbuf, m);
            widen_bf16(data[2] + start * strides[2], strides[2], xbuf, m);
            if (!vec::vec_activation_backward(vop, gbuf, xbuf, gbuf, m, params)) {
              for (int64_t i = 0; i < m; ++i) gbuf[i] = static_cast<float>(f(A(gbuf[i]), A(xbuf[i])));
            }
            narrow_bf16(gbuf, data[0] + start * strides[0], strides[0], m);
          }
          return;
        }
      }
      if constexpr (vectorizable) {
        if (use_vec) {
          if (strides[0] == sizeof(T) && strides[1] == sizeof(T) && strides[2] == sizeof(T)) {
            vec::vec_activation_backward(vop, reinterpret_cast<const T*>(data[1]),
                                         reinterpret_cast<const T*>(data[2]),
                                         reinterpret_cast<T*>(data[0]), n, params);
            return;
          }
          T gbuf[kBufferElems], xbuf[kBufferElems];
          for (int64_t start = 0; start < n; start += kBufferElems) {
            const int64_t m = std::min(kBufferElems, n - start);
            for (int64_t i = 0; i < m; ++i) {
              gbuf[i] = *reinterpret_cast<const T*>(data[1] + (start + i) * strides[1]);
              xbuf[i] = *reinterpret_cast<const T*>(data[2] + (start + i) * strides[2]);
            }
            vec::vec_activation_backward(vop, gbuf, xbuf, gbuf, m, params);
            for (int64_t i = 0; i < m; ++i)
              *reinterpret_cast<T*>(data[0] + (start + i) * strides[0]) = gbuf[i];
          }
          return;
        }
      }
      for (int64_t i = 0; i < n; ++i) {
        const A g = A(*reinterpret_cast<const T*>(data[1] + i * strides[1]));
        const A x = A(*reinterpret_cast<const T*>(data[2] + i * strides[2]));
        *reinterpret_cast<T*>(data[0] + i * strides[0]) = static_cast<T>(f(g, x));
      }
    });
  });
  return iter.output();
}

}  // namespace opscope::cpu
