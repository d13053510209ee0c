// CPU kernels of upsampling (declared in core/ops/nn.cpp, registered at the end of this file):
// upsample_nearest1d / 2d, _upsample_nearest_exact1d / 2d, upsample_linear1d,
// upsample_bilinear2d and their backward ops, torch 1.13's .vec overloads (what F.interpolate
// calls).
//
// Semantically every output cell of every (n, c) plane reads input cells at a source position
// computed per spatial dim from its index o, the input size `in` and the output size `out`:
//   nearest        floor(o * ratio)             (ratio = 1 / scale when given, else in / out,
//   nearest-exact  floor((o + 0.5) * ratio)      clamped to in - 1; see Note [Nearest's
//                                                indices, forward and backward])
//   linear         src = (o + 0.5) * ratio - 0.5, at least 0 (align_corners: o (in - 1) /
//                  (out - 1)); the cells floor(src) and the next (clamped), with weights
//                  1 - frac and frac; 2-D: (x00 w0 + x01 w1) h0 + (x10 w0 + x11 w1) h1
// The backward ops add each output cell's gradient into the cells it read, with those weights,
// in output order per plane. As torch 1.13: the same index arithmetic; nearest takes uint8,
// bfloat16 (not nearest-exact), float32 and float64, linear bfloat16, float32 and float64
// (bfloat16 weights and sums in float, where torch's stay in bfloat16: its bfloat16 results can
// differ by a rounding step).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/plane_index.h"
#include "core/ops/nn.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

Tensor contiguous(const Tensor& t) {
  return t.is_contiguous() ? t : ops::contiguous(t);
}

// The dtypes torch 1.13's CPU kernels take: nearest copies uint8 too; linear and every gradient
// only the floating ones it has.
inline constexpr auto kNearestTypes = []<typename T>() {
  return std::bool_constant<std::is_same_v<T, uint8_t> || std::is_same_v<T, float> ||
                            std::is_same_v<T, double> || std::is_same_v<T, BFloat16>>{};
};
inline constexpr auto kLinearTypes = []<typename T>() {
  return std::bool_constant<std::is_same_v<T, float> || std::is_same_v<T, double> ||
                            std::is_same_v<T, BFloat16>>{};
};

// One call's geometry: planes = N * C, and per spatial dim (the last `dims` of the input) its
// input size, output size and scale factor when one was given.
struct Upsample {
  int dims = 0;
  int64_t planes = 0;
  int64_t in[2] = {1, 1};
  int64_t out[2] = {1, 1};
  std::optional<double> scale[2];
};

// torch's compute_output_size: output_size as given, else each input size times its scale
// factor (truncated), with upsample_1d / 2d_common_check's messages.
Upsample geometry(IntArrayRef input_size, std::optional<IntArrayRef> output_size,
                  std::optional<DoubleArrayRef> scale_factors, int dims) {
  const auto spatial = static_cast<size_t>(dims);
  OPSCOPE_CHECK(output_size.has_value() != scale_factors.has_value(),
                "Must specify exactly one of output_size and scale_factors");
  Upsample g;
  g.dims = dims;
  DimVector out;
  if (output_size) {
    OPSCOPE_CHECK(output_size->size() == spatial, "It is expected output_size equals to ", dims,
                  ", but got size ", output_size->size());
    out.assign(output_size->begin(), output_size->end());
  } else {
    OPSCOPE_CHECK(scale_factors->size() == spatial, "It is expected output_size equals to ", dims,
                  ", but got size ", scale_factors->size());
    OPSCOPE_CHECK(input_size.size() == spatial + 2, "It is expected input_size equals to ",
                  dims + 2, ", but got size ", input_size.size());
    for (size_t i = 0; i < spatial; ++i) {
      out.push_back(static_cast<int64_t>(static_cast<double>(input_size[i + 2]) *
                                         (*scale_factors)[i]));
      g.scale[i] = (*scale_factors)[i];
    }
  }
  OPSCOPE_CHECK(input_size.size() == spatial + 2, "It is expected input_size equals to ", dims + 2,
                ", but got size ", input_size.size());
  g.planes = input_size[0] * input_size[1];
  for (size_t i = 0; i < spatial; ++i) {
    g.in[i] = input_size[i + 2];
    g.out[i] = out[i];
  }
  if (dims == 1) {
    OPSCOPE_CHECK(g.in[0] > 0 && g.out[0] > 0,
                  "Input and output sizes should be greater than 0, but got input (W: ", g.in[0],
                  ") and output (W: ", g.out[0], ")");
  } else {
    OPSCOPE_CHECK(g.in[0] > 0 && g.in[1] > 0 && g.out[0] > 0 && g.out[1] > 0,
                  "Input and output sizes should be greater than 0, but got input (H: ", g.in[0],
                  ", W: ", g.in[1], ") output (H: ", g.out[0], ", W: ", g.out[1], ")");
  }
  return g;
}

// The input's checks: the dims the mode needs, and no empty plane (a batch of 0 is fine).
void check_input(const Tensor& input, int dims) {
  int64_t rest = 1;
  for (int64_t d = 1; d < input.dim(); ++d) rest *= input.size(d);
  OPSCOPE_CHECK(input.dim() == dims + 2 && (input.numel() != 0 || rest != 0), "Non-empty ",
                dims + 2, "D data tensor expected but got a tensor with sizes ",
                shape_str(input.sizes()));
}

void check_grad_output(const Tensor& grad_output, const Upsample& g, IntArrayRef input_size) {
  OPSCOPE_CHECK(grad_output.dim() == g.dims + 2, "Expected grad_output to be a tensor of dimension ",
                g.dims + 2, " but got: dimension ", grad_output.dim());
  for (int64_t d = 0; d < g.dims + 2; ++d) {
    const int64_t expected = d < 2 ? input_size[static_cast<size_t>(d)] : g.out[d - 2];
    OPSCOPE_CHECK(grad_output.size(d) == expected,
                  "Expected grad_output to have the same shape as output; output.size(", d,
                  ") = ", expected, " but got grad_output.size(", d, ") = ", grad_output.size(d));
  }
}

DimVector output_shape(const Upsample& g, IntArrayRef input_size) {
  DimVector shape{input_size[0], input_size[1]};
  for (int d = 0; d < g.dims; ++d) shape.push_back(g.out[d]);
  return shape;
}

// torch's compute_scales_value: 1 / scale when one was given (and positive), else in / out.
template <typename A>
A scales_value(std::optional<double> scale, int64_t in, int64_t out) {
  return scale.has_value() && *scale > 0 ? static_cast<A>(1.0 / *scale)
                                         : static_cast<A>(in) / static_cast<A>(out);
}

// Note [Nearest's indices, forward and backward]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch 1.13 computes the source index of output index o twice, in two ways. Its backward
// (nearest_idx / nearest_exact_idx) takes the ratio in float and o itself when out = in, o / 2
// when out = 2 in. Its forward (compute_indices_weights_nearest) takes the ratio in the input's
// type (float for float and uint8, double for double, rounded to bfloat16 for bfloat16) and has
// no such cases: with in = out = 3 and scale_factor 1.3 (ratio 1 / 1.3) it reads 0, 0, 1 where
// its backward sends the gradient to 0, 1, 2 — except for a 4-D input laid out channels-last
// (which a contiguous (N, 1, H, W) one is too), whose kernel takes the backward's indices. Both
// are reproduced as they are, so values and gradients match torch's (a forward / backward pair
// that disagrees, as in torch).

// The backward's source index of every output index along one dim.
template <bool Exact>
std::vector<int64_t> nearest_indices(int64_t in, int64_t out, std::optional<double> scale) {
  std::vector<int64_t> idx(static_cast<size_t>(out));
  const float ratio = scales_value<float>(scale, in, out);
  for (int64_t o = 0; o < out; ++o) {
    int64_t src;
    if constexpr (Exact) {
      src = static_cast<int64_t>(std::floor(static_cast<float>((static_cast<double>(o) + 0.5) * ratio)));
    } else if (out == in) {
      src = o;
    } else if (out == 2 * in) {
      src = o >> 1;
    } else {
      src = static_cast<int64_t>(std::floor(static_cast<float>(o) * ratio));
    }
    idx[static_cast<size_t>(o)] = std::min(src, in - 1);
  }
  return idx;
}

// torch's is_contiguous(channels_last) for a 4-D tensor: strides C, W, H, N innermost first,
// dims of size 1 skipped — which a contiguous (N, 1, H, W) or (N, C, 1, 1) tensor also is.
bool channels_last_contiguous(const Tensor& t) {
  if (t.dim() != 4) return false;
  int64_t expected = 1;
  for (int64_t d : {1, 3, 2, 0}) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

// The forward's source index of every output index along one dim, for input dtype T.
template <bool Exact, typename T>
std::vector<int64_t> nearest_forward_indices(int64_t in, int64_t out, std::optional<double> scale) {
  using P = std::conditional_t<std::is_same_v<T, double>, double, float>;  // the product's type
  P ratio;
  if constexpr (std::is_same_v<T, BFloat16>) {
    const float r = scale.has_value() && *scale > 0
                        ? static_cast<float>(1.0 / *scale)
                        : static_cast<float>(BFloat16(static_cast<float>(in))) / static_cast<float>(out);
    ratio = static_cast<float>(BFloat16(r));
  } else {
    ratio = scales_value<P>(scale, in, out);
  }
  std::vector<int64_t> idx(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    const float src = Exact ? static_cast<float>((static_cast<double>(o) + 0.5) * ratio)
                            : static_cast<float>(ratio * static_cast<P>(o));
    idx[static_cast<size_t>(o)] = std::min(static_cast<int64_t>(std::floor(src)), in - 1);
  }
  return idx;
}

// Along one dim, output index o reads input cells i0[o] and i1[o] with weights w0[o], w1[o].
template <typename A>
struct LinearTaps {
  std::vector<int64_t> i0, i1;
  std::vector<A> w0, w1;
};

// torch's area_pixel_compute_scale + compute_source_index_and_lambda.
template <typename A>
LinearTaps<A> linear_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  LinearTaps<A> t;
  const auto n = static_cast<size_t>(out);
  t.i0.resize(n), t.i1.resize(n), t.w0.resize(n), t.w1.resize(n);
  const A ratio = align_corners ? (out > 1 ? static_cast<A>(in - 1) / static_cast<A>(out - 1) : A(0))
                                : scales_value<A>(scale, in, out);
  for (int64_t o = 0; o < out; ++o) {
    const auto k = static_cast<size_t>(o);
    if (out == in) {  // a copy
      t.i0[k] = t.i1[k] = o;
      t.w0[k] = A(1);
      t.w1[k] = A(0);
      continue;
    }
    A src = align_corners ? ratio * static_cast<A>(o)
                          : static_cast<A>(ratio * (static_cast<A>(o) + A(0.5)) - A(0.5));
    if (!align_corners && src < A(0)) src = A(0);
    t.i0[k] = std::min(static_cast<int64_t>(src), in - 1);
    t.i1[k] = t.i0[k] + (t.i0[k] < in - 1 ? 1 : 0);
    t.w1[k] = std::min(std::max(src - static_cast<A>(t.i0[k]), A(0)), A(1));
    t.w0[k] = A(1) - t.w1[k];
  }
  return t;
}

// nearest / nearest-exact, forward: a gather of whole cells (the forward's indices, Note
// [Nearest's indices, forward and backward]).
template <bool Exact>
Tensor nearest(const char* name, const Tensor& input, std::optional<IntArrayRef> output_size,
               std::optional<DoubleArrayRef> scale_factors, int dims) {
  check_input(input, dims);
  const Upsample g = geometry(input.sizes(), output_size, scale_factors, dims);
  const Tensor x = contiguous(input);
  Tensor y = make_empty(output_shape(g, input.sizes()), input.dtype());
  // torch's channels_last kernel takes the backward's indices; a dtype it lacks is named by the
  // kernel that refused it
  const bool as_backward = channels_last_contiguous(input);
  const std::string kernel =
      as_backward ? std::string(name) + "_channels_last" : "compute_indices_weights_nearest";
  dispatch_dtype_if(input.dtype(), kernel, kNearestTypes, [&]<typename T>() {
    if (Exact && std::is_same_v<T, BFloat16>)  // torch 1.13's CPU kernels have no bfloat16 here
      throw Error("\"" + kernel + "\" not implemented for 'BFloat16'");
    const auto indices = [&](int d) {
      return as_backward ? nearest_indices<Exact>(g.in[d], g.out[d], g.scale[d])
                         : nearest_forward_indices<Exact, T>(g.in[d], g.out[d], g.scale[d]);
    };
    const std::vector<int64_t> ih = indices(0);
    const std::vector<int64_t> iw = dims == 2 ? indices(1) : std::vector<int64_t>{0};
    // a 1-d input is a plane of W x 1 cells
    gather_planes<T>(x.data_ptr<T>(), y.data_ptr<T>(), g.planes, g.in[0], g.in[1], ih, iw);
  });
  return y;
}

// nearest / nearest-exact, backward: each output cell's gradient added into the cell it copied.
template <bool Exact>
Tensor nearest_backward(const char* name, const Tensor& grad_output,
                        std::optional<IntArrayRef> output_size, IntArrayRef input_size,
                        std::optional<DoubleArrayRef> scale_factors, int dims) {
  const Upsample g = geometry(input_size, output_size, scale_factors, dims);
  check_grad_output(grad_output, g, input_size);
  const Tensor go = contiguous(grad_output);
  Tensor gi = make_empty(input_size, grad_output.dtype());
  const std::vector<int64_t> ih = nearest_indices<Exact>(g.in[0], g.out[0], g.scale[0]);
  const std::vector<int64_t> iw = dims == 2 ? nearest_indices<Exact>(g.in[1], g.out[1], g.scale[1])
                                            : std::vector<int64_t>{0};
  const int64_t in_plane = g.in[0] * g.in[1], out_plane = g.out[0] * g.out[1];
  const int64_t out_w = dims == 2 ? g.out[1] : 1, in_w = dims == 2 ? g.in[1] : 1;
  dispatch_dtype_if(grad_output.dtype(), name, kLinearTypes, [&]<typename T>() {
    using A = acc_type_t<T>;
    const T* src = go.data_ptr<T>();
    T* dst = gi.data_ptr<T>();
    // The columns reading one input column are consecutive: each run is summed in a register,
    // added in column order as torch adds them one by one (the same bits).
    std::vector<int64_t> run_start{0};
    for (int64_t ow = 1; ow < out_w; ++ow)
      if (iw[static_cast<size_t>(ow)] != iw[static_cast<size_t>(ow - 1)]) run_start.push_back(ow);
    run_start.push_back(out_w);
    accumulate_planes<T, A>(dst, g.planes, in_plane, plane_grain(out_plane), [&](int64_t p, A* acc) {
      const T* gp = src + p * out_plane;
      for (int64_t oh = 0; oh < g.out[0]; ++oh) {
        A* row = acc + ih[static_cast<size_t>(oh)] * in_w;
        const T* grow = gp + oh * out_w;
        for (size_t r = 0; r + 1 < run_start.size(); ++r) {
          A& cell = row[iw[static_cast<size_t>(run_start[r])]];
          A sum = cell;
          for (int64_t ow = run_start[r]; ow < run_start[r + 1]; ++ow) sum += A(grow[ow]);
          cell = sum;
        }
      }
    });
  });
  return gi;
}

// linear / bilinear, forward.
Tensor linear(const char* name, const Tensor& input, std::optional<IntArrayRef> output_size,
              bool align_corners, std::optional<DoubleArrayRef> scale_factors, int dims) {
  check_input(input, dims);
  const Upsample g = geometry(input.sizes(), output_size, scale_factors, dims);
  const Tensor x = contiguous(input);
  Tensor y = make_empty(output_shape(g, input.sizes()), input.dtype());
  const int64_t in_plane = g.in[0] * g.in[1], out_plane = g.out[0] * g.out[1];
  const std::string kernel = channels_last_contiguous(input) ? std::string(name) + "_channels_last"
                                                             : "compute_indices_weights_linear";
  dispatch_dtype_if(input.dtype(), kernel, kLinearTypes, [&]<typename T>() {
    using A = acc_type_t<T>;
    const T* src = x.data_ptr<T>();
    T* dst = y.data_ptr<T>();
    // dims == 1: the one dim is the "w" taps, with a single row.
    const LinearTaps<A> th = dims == 2 ? linear_taps<A>(g.in[0], g.out[0], align_corners, g.scale[0])
                                       : LinearTaps<A>{{0}, {0}, {A(1)}, {A(0)}};
    const int d = dims - 1;
    const LinearTaps<A> tw = linear_taps<A>(g.in[d], g.out[d], align_corners, g.scale[d]);
    const int64_t in_w = g.in[d], out_w = g.out[d], out_h = dims == 2 ? g.out[0] : 1;
    parallel_for(0, g.planes, plane_grain(out_plane), [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        const T* xp = src + p * in_plane;
        T* yp = dst + p * out_plane;
        for (int64_t oh = 0; oh < out_h; ++oh) {
          const auto h = static_cast<size_t>(oh);
          const T* r0 = xp + th.i0[h] * in_w;
          const T* r1 = xp + th.i1[h] * in_w;
          for (int64_t ow = 0; ow < out_w; ++ow) {
            const auto w = static_cast<size_t>(ow);
            const A top = A(r0[tw.i0[w]]) * tw.w0[w] + A(r0[tw.i1[w]]) * tw.w1[w];
            if (dims == 1) {
              yp[ow] = static_cast<T>(top);
              continue;
            }
            const A bottom = A(r1[tw.i0[w]]) * tw.w0[w] + A(r1[tw.i1[w]]) * tw.w1[w];
            yp[oh * out_w + ow] = static_cast<T>(top * th.w0[h] + bottom * th.w1[h]);
          }
        }
      }
    });
  });
  return y;
}

// linear / bilinear, backward: each output cell's gradient spread over the cells it mixed.
Tensor linear_backward(const char* name, const Tensor& grad_output,
                       std::optional<IntArrayRef> output_size, IntArrayRef input_size,
                       bool align_corners, std::optional<DoubleArrayRef> scale_factors, int dims) {
  const Upsample g = geometry(input_size, output_size, scale_factors, dims);
  check_grad_output(grad_output, g, input_size);
  const Tensor go = contiguous(grad_output);
  Tensor gi = make_empty(input_size, grad_output.dtype());
  const int64_t in_plane = g.in[0] * g.in[1], out_plane = g.out[0] * g.out[1];
  dispatch_dtype_if(grad_output.dtype(), name, kLinearTypes, [&]<typename T>() {
    using A = acc_type_t<T>;
    const T* src = go.data_ptr<T>();
    T* dst = gi.data_ptr<T>();
    const LinearTaps<A> th = dims == 2 ? linear_taps<A>(g.in[0], g.out[0], align_corners, g.scale[0])
                                       : LinearTaps<A>{{0}, {0}, {A(1)}, {A(0)}};
    const int d = dims - 1;
    const LinearTaps<A> tw = linear_taps<A>(g.in[d], g.out[d], align_corners, g.scale[d]);
    const int64_t in_w = g.in[d], out_w = g.out[d], out_h = dims == 2 ? g.out[0] : 1;
    accumulate_planes<T, A>(dst, g.planes, in_plane, plane_grain(out_plane), [&](int64_t p, A* acc) {
      const T* gp = src + p * out_plane;
      for (int64_t oh = 0; oh < out_h; ++oh) {
        const auto h = static_cast<size_t>(oh);
        A* r0 = acc + th.i0[h] * in_w;
        A* r1 = acc + th.i1[h] * in_w;
        const A h0 = th.w0[h], h1 = th.w1[h];
        const T* grow = gp + oh * out_w;
        if (dims == 1) {
          for (int64_t ow = 0; ow < out_w; ++ow) {
            const auto w = static_cast<size_t>(ow);
            const A v = A(grow[ow]);
            r0[tw.i0[w]] += tw.w0[w] * v;
            r0[tw.i1[w]] += tw.w1[w] * v;
          }
          continue;
        }
        for (int64_t ow = 0; ow < out_w; ++ow) {  // torch's (h w) g, cell by cell
          const auto w = static_cast<size_t>(ow);
          const A v = A(grow[ow]);
          r0[tw.i0[w]] += h0 * tw.w0[w] * v;
          r0[tw.i1[w]] += h0 * tw.w1[w] * v;
          r1[tw.i0[w]] += h1 * tw.w0[w] * v;
          r1[tw.i1[w]] += h1 * tw.w1[w] * v;
        }
      }
    });
  });
  return gi;
}

}  // namespace

// The ops: input (N, C, [H,] W) -> (N, C, [OH,] OW), and their backward ops.
Tensor upsample_nearest1d(const Tensor& input, std::optional<IntArrayRef> output_size,
                          std::optional<DoubleArrayRef> scale_factors) {
  return nearest<false>("upsample_nearest1d", input, output_size, scale_factors, 1);
}
Tensor upsample_nearest2d(const Tensor& input, std::optional<IntArrayRef> output_size,
                          std::optional<DoubleArrayRef> scale_factors) {
  return nearest<false>("upsample_nearest2d", input, output_size, scale_factors, 2);
}
Tensor upsample_nearest_exact1d(const Tensor& input, std::optional<IntArrayRef> output_size,
                                std::optional<DoubleArrayRef> scale_factors) {
  return nearest<true>("upsample_nearest1d", input, output_size, scale_factors, 1);
}
Tensor upsample_nearest_exact2d(const Tensor& input, std::optional<IntArrayRef> output_size,
                                std::optional<DoubleArrayRef> scale_factors) {
  return nearest<true>("upsample_nearest2d", input, output_size, scale_factors, 2);
}
Tensor upsample_linear1d(const Tensor& input, std::optional<IntArrayRef> output_size,
                         bool align_corners, std::optional<DoubleArrayRef> scale_factors) {
  return linear("upsample_linear1d", input, output_size, align_corners, scale_factors, 1);
}
Tensor upsample_bilinear2d(const Tensor& input, std::optional<IntArrayRef> output_size,
                           bool align_corners, std::optional<DoubleArrayRef> scale_factors) {
  return linear("upsample_bilinear2d", input, output_size, align_corners, scale_factors, 2);
}

Tensor upsample_nearest1d_backward(const Tensor& grad_output,
                                   std::optional<IntArrayRef> output_size, IntArrayRef input_size,
                                   std::optional<DoubleArrayRef> scale_factors) {
  return nearest_backward<false>("upsample_nearest1d_backward", grad_output, output_size,
                                 input_size, scale_factors, 1);
}
Tensor upsample_nearest2d_backward(const Tensor& grad_output,
                                   std::optional<IntArrayRef> output_size, IntArrayRef input_size,
                                   std::optional<DoubleArrayRef> scale_factors) {
  return nearest_backward<false>("upsample_nearest2d_backward", grad_output, output_size,
                                 input_size, scale_factors, 2);
}
Tensor upsample_nearest_exact1d_backward(const Tensor& grad_output,
                                         std::optional<IntArrayRef> output_size,
                                         IntArrayRef input_size,
                                         std::optional<DoubleArrayRef> scale_factors) {
  return nearest_backward<true>("_upsample_nearest_exact1d_backward", grad_output, output_size,
                                input_size, scale_factors, 1);
}
Tensor upsample_nearest_exact2d_backward(const Tensor& grad_output,
                                         std::optional<IntArrayRef> output_size,
                                         IntArrayRef input_size,
                                         std::optional<DoubleArrayRef> scale_factors) {
  return nearest_backward<true>("_upsample_nearest_exact2d_backward", grad_output, output_size,
                                input_size, scale_factors, 2);
}
Tensor upsample_linear1d_backward(const Tensor& grad_output,
                                  std::optional<IntArrayRef> output_size, IntArrayRef input_size,
                                  bool align_corners, std::optional<DoubleArrayRef> scale_factors) {
  return linear_backward("upsample_linear1d_backward", grad_output, output_size, input_size,
                         align_corners, scale_factors, 1);
}
Tensor upsample_bilinear2d_backward(const Tensor& grad_output,
                                    std::optional<IntArrayRef> output_size, IntArrayRef input_size,
                                    bool align_corners,
                                    std::optional<DoubleArrayRef> scale_factors) {
  return linear_backward("upsample_bilinear2d_backward", grad_output, output_size, input_size,
                         align_corners, scale_factors, 2);
}

static Library cpu_upsample(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("upsample_nearest1d.vec", fn<&upsample_nearest1d>);
  m.impl("upsample_nearest2d.vec", fn<&upsample_nearest2d>);
  m.impl("_upsample_nearest_exact1d.vec", fn<&upsample_nearest_exact1d>);
  m.impl("_upsample_nearest_exact2d.vec", fn<&upsample_nearest_exact2d>);
  m.impl("upsample_linear1d.vec", fn<&upsample_linear1d>);
  m.impl("upsample_bilinear2d.vec", fn<&upsample_bilinear2d>);
  m.impl("upsample_nearest1d_backward.vec", fn<&upsample_nearest1d_backward>);
  m.impl("upsample_nearest2d_backward.vec", fn<&upsample_nearest2d_backward>);
  m.impl("_upsample_nearest_exact1d_backward.vec", fn<&upsample_nearest_exact1d_backward>);
  m.impl("_upsample_nearest_exact2d_backward.vec", fn<&upsample_nearest_exact2d_backward>);
  m.impl("upsample_linear1d_backward.vec", fn<&upsample_linear1d_backward>);
  m.impl("upsample_bilinear2d_backward.vec", fn<&upsample_bilinear2d_backward>);
});

}  // namespace opscope::cpu
