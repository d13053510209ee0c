// CPU kernels of the 2-D convolutions (declared in core/ops/nn.cpp, registered at the end of this
// file): _slow_conv2d_forward, slow_conv_dilated2d, slow_conv_transpose2d, their backward
// _slow_conv2d_backward, and convolution_backward, which the derivative of convolution calls.
// 1-D convolutions reach them as 2-D ones of height 1 (core/ops/composite/conv.cpp).
//
// Semantically, for one image x (C, H, W) and a weight w (O, C/G, kh, kw) in G groups,
//   y[o, oh, ow] = sum_{c in o's group, i, j} w[o, c, i, j] * x[c, oh*sh - ph + i*dh, ow*sw - pw + j*dw]
// (x read as 0 outside the image), and a transposed convolution is the adjoint of that map:
// the same sum scattered from the small grid into the large image.
//
// In implementation terms both are one matrix product each way around a column matrix
// (im2col): col (C*kh*kw, OH*OW) holds, in row (c*kh + i)*kw + j, the input pixel that
// weight tap (c, i, j) meets at each output position. Then, per group g,
//   convolution            y_g (O/G, OH*OW)      = w_g (O/G, K_g) · col_g (K_g, OH*OW)
//   its grad_input         col_g                 = w_g^T · gy_g,  then col2im (scatter-add)
//   its grad_weight        gw_g (O/G, K_g)      += gy_g · col_g^T
//   transposed             col_g (Og*kk, H_in*W_in) = w_g^T (Og*kk, C_g) · x_g, then col2im
// with K_g = C/G * kh * kw; the products run on OpenBLAS (core/runtime/Blas.h). A 1x1 kernel
// with stride 1 and no padding needs no column matrix: col is the image itself.
//
// Threads: a batch of at least two images per thread runs one image per thread at a time, each
// thread with its own column buffer, and BLAS single-threaded inside (OpenBLAS runs one thread
// when called from an OpenMP region); a smaller batch runs its images in turn with BLAS on all
// threads. grad_weight sums per-thread partial products, in a fixed order.
//
// Note [Boolean masks as ints]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch's convolution_backward and _slow_conv2d_backward take `bool[3] output_mask` (which of
// grad_input, grad_weight, grad_bias to compute). opscope's schema language has no bool lists
// yet, so the two schemas say `int[3] output_mask` and the kernels read 0 / 1.
#include <omp.h>

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/conv_winograd.h"
#include "core/ops/factories.h"
#include "core/ops/nn.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"
#include "core/runtime/Blas.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

using conv_impl::gemm;
using conv_impl::kColumns;
using conv_impl::kBatchedOutput;
using conv_impl::kWinogradMinChannels;
using conv_impl::scratch;
using conv_impl::winograd_conv;

// One image's side of a 2-D convolution as im2col sees it: the image (channels, height, width)
// that a window slides over, the window, and the grid of window positions (out_h, out_w). For a
// convolution the image is the input and the grid its output; for a transposed convolution the
// image is the output and the grid its input.
struct Geometry {
  int64_t channels, height, width;
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t out_h, out_w;

  int64_t taps() const { return kh * kw; }
  int64_t rows() const { return channels * kh * kw; }  // of the column matrix
  int64_t grid() const { return out_h * out_w; }
  int64_t image() const { return channels * height * width; }
  // col is the image itself: nothing to gather.
  bool is_pointwise() const {
    return kh == 1 && kw == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0;
  }
};

// The ow range [lo, hi) whose input column ix = ow*sw + dx lies in [0, width).
inline std::pair<int64_t, int64_t> inside_columns(const Geometry& g, int64_t dx) {
  int64_t lo = dx >= 0 ? 0 : (-dx + g.sw - 1) / g.sw;
  int64_t hi = g.width - dx <= 0 ? 0 : (g.width - dx + g.sw - 1) / g.sw;
  lo = std::min(lo, g.out_w);
  hi = std::clamp(hi, lo, g.out_w);
  return {lo, hi};
}

// col (rows, grid) <- img (channels, height, width), zero where the window leaves the image; the
// rows of col are ld apart (ld >= grid: several images side by side).
template <typename T>
void im2col(const T* img, T* col, const Geometry& g, int64_t ld) {
  const int64_t grid = ld;
  for (int64_t c = 0; c < g.channels; ++c) {
    const T* plane = img + c * g.height * g.width;
    for (int64_t i = 0; i < g.kh; ++i) {
      for (int64_t j = 0; j < g.kw; ++j) {
        T* row = col + ((c * g.kh + i) * g.kw + j) * grid;
        const int64_t dx = j * g.dw - g.pw;
        const auto [lo, hi] = inside_columns(g, dx);
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          T* out = row + oh * g.out_w;
          const int64_t iy = oh * g.sh - g.ph + i * g.dh;
          if (iy < 0 || iy >= g.height) {
            std::memset(out, 0, sizeof(T) * g.out_w);
            continue;
          }
          const T* in = plane + iy * g.width + dx;
          for (int64_t ow = 0; ow < lo; ++ow) out[ow] = T(0);
          if (g.sw == 1) {
            std::memcpy(out + lo, in + lo, sizeof(T) * (hi - lo));
          } else {
            for (int64_t ow = lo; ow < hi; ++ow) out[ow] = in[ow * g.sw];
          }
          for (int64_t ow = hi; ow < g.out_w; ++ow) out[ow] = T(0);
        }
      }
    }
  }
}

// img (channels, height, width) += col (rows, grid), scattered back: im2col's adjoint.
template <typename T>
void col2im(const T* col, T* img, const Geometry& g) {
  const int64_t grid = g.grid();
  for (int64_t c = 0; c < g.channels; ++c) {
    T* plane = img + c * g.height * g.width;
    for (int64_t i = 0; i < g.kh; ++i) {
      for (int64_t j = 0; j < g.kw; ++j) {
        const T* row = col + ((c * g.kh + i) * g.kw + j) * grid;
        const int64_t dx = j * g.dw - g.pw;
        const auto [lo, hi] = inside_columns(g, dx);
        for (int64_t oh = 0; oh < g.out_h; ++oh) {
          const int64_t iy = oh * g.sh - g.ph + i * g.dh;
          if (iy < 0 || iy >= g.height) continue;
          const T* in = row + oh * g.out_w;
          T* out = plane + iy * g.width + dx;
          if (g.sw == 1) {
#pragma omp simd
            for (int64_t ow = lo; ow < hi; ++ow) out[ow] += in[ow];
          } else {
            for (int64_t ow = lo; ow < hi; ++ow) out[ow * g.sw] += in[ow];
          }
        }
      }
    }
  }
}

// Runs body(n, col) for each image n < batch, col a column buffer of `col_size` elements private
// to the calling thread: one image per thread when the batch covers the threads twice over,
// else images in turn (BLAS then threads each product). `work` is one image's multiply-adds.
template <typename T, typename F>
void for_each_image(int64_t batch, int64_t col_size, double work, const F& body) {
  const int threads = get_num_threads();
  const bool per_thread = threads > 1 && batch >= 2 * threads && work * batch > 4e6;
  if (!per_thread) {
    T* col = scratch<T>(kColumns, col_size);
    for (int64_t n = 0; n < batch; ++n) body(n, col);
    return;
  }
  parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    T* col = scratch<T>(kColumns, col_size);
    for (int64_t n = begin; n < end; ++n) body(n, col);
  });
}

Tensor contiguous(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

void check_float(const Tensor& t, const char* what) {
  OPSCOPE_CHECK(t.dtype() == ScalarType::Float32 || t.dtype() == ScalarType::Float64, "\"", what,
                "\" not implemented for '", cpp_name(t.dtype()), "'");
}

// out (N, O, *) += bias[o] over each plane.
template <typename T>
void fill_bias(T* out, const T* bias, int64_t channels, int64_t plane) {
  for (int64_t o = 0; o < channels; ++o) std::fill(out + o * plane, out + (o + 1) * plane, bias[o]);
}

// A 2-D convolution's parameters as the kernels take them.
struct Conv2d {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw, oph = 0, opw = 0;
  int64_t groups = 1;
  bool transposed = false;
};

Conv2d conv_params(IntArrayRef kernel, IntArrayRef stride, IntArrayRef padding,
                   IntArrayRef dilation) {
  const auto second = [](IntArrayRef v) { return v.size() > 1 ? v[1] : v[0]; };  // [k] is [k, k]
  return {.kh = kernel[0], .kw = second(kernel), .sh = stride[0], .sw = second(stride),
          .ph = padding[0], .pw = second(padding), .dh = dilation[0], .dw = second(dilation)};
}

// The image-side geometry of input (N, C, H, W) and weight under p, and the output's sizes.
Geometry geometry(const Tensor& input, const Tensor& weight, const Conv2d& p,
                  DimVector* out_sizes) {
  const int64_t N = input.size(0), H = input.size(2), W = input.size(3);
  if (!p.transposed) {
    const int64_t OH = (H + 2 * p.ph - p.dh * (p.kh - 1) - 1) / p.sh + 1;
    const int64_t OW = (W + 2 * p.pw - p.dw * (p.kw - 1) - 1) / p.sw + 1;
    OPSCOPE_CHECK(OH > 0 && OW > 0, "Given input size per channel: (", H, " x ", W,
                  "). Calculated output size per channel: (", OH, " x ", OW,
                  "). Output size is too small");
    *out_sizes = {N, weight.size(0), OH, OW};
    return {input.size(1), H, W, p.kh, p.kw, p.sh, p.sw, p.ph, p.pw, p.dh, p.dw, OH, OW};
  }
  const int64_t OH = (H - 1) * p.sh - 2 * p.ph + p.dh * (p.kh - 1) + p.oph + 1;
  const int64_t OW = (W - 1) * p.sw - 2 * p.pw + p.dw * (p.kw - 1) + p.opw + 1;
  OPSCOPE_CHECK(OH > 0 && OW > 0, "Given input size per channel: (", H, " x ", W,
                "). Calculated output size per channel: (", OH, " x ", OW,
                "). Output size is too small");
  const int64_t C_out = weight.size(1) * p.groups;
  *out_sizes = {N, C_out, OH, OW};
  return {C_out, OH, OW, p.kh, p.kw, p.sh, p.sw, p.ph, p.pw, p.dh, p.dw, H, W};
}


// Below this many multiply-adds per image, one product per image is mostly call overhead: the
// forward puts images side by side, a product per chunk of kBatchColumns output columns.
constexpr double kSmallProduct = 1 << 18;
constexpr int64_t kBatchColumns = 4096;

// x (N, C, H, W), w (O, C/G, kh, kw) -> y (N, O, OH, OW) for small images: the column matrices
// of a chunk of images side by side (rows kBatchColumns-ish long), one product per group, then
// each image's (O, OH*OW) block copied out with the bias.
template <typename T>
void conv_small_images(const T* x, const T* w, const T* b, T* y, int64_t N, int64_t O, int64_t G,
                       const Geometry& g) {
  const int64_t grid = g.grid(), Og = O / G, Kg = g.rows() / G;
  const int64_t per = std::clamp<int64_t>(kBatchColumns / std::max<int64_t>(grid, 1), 1, N);
  const int64_t chunks = (N + per - 1) / per;
  const auto run = [&](int64_t first, int64_t last) {
    T* col = scratch<T>(kColumns, g.rows() * per * grid);
    T* out = scratch<T>(kBatchedOutput, O * per * grid);
    for (int64_t q = first; q < last; ++q) {
      const int64_t n0 = q * per, images = std::min(per, N - n0), cols = images * grid;
      for (int64_t i = 0; i < images; ++i)
        im2col(x + (n0 + i) * g.image(), col + i * grid, g, cols);
      for (int64_t gi = 0; gi < G; ++gi)
        gemm<T>(false, false, Og, cols, Kg, T(1), w + gi * Og * Kg, Kg, col + gi * Kg * cols, cols,
                T(0), out + gi * Og * cols, cols);
      for (int64_t i = 0; i < images; ++i) {
        for (int64_t o = 0; o < O; ++o) {
          const T* src = out + o * cols + i * grid;
          T* dst = y + ((n0 + i) * O + o) * grid;
          const T bias = b != nullptr ? b[o] : T(0);
#pragma omp simd
          for (int64_t k = 0; k < grid; ++k) dst[k] = src[k] + bias;
        }
      }
    }
  };
  const int threads = get_num_threads();
  if (threads > 1 && chunks >= 2 * threads)
    parallel_for(0, chunks, 1, run);
  else
    run(0, chunks);
}

bool use_winograd(const Conv2d& p, const Geometry& g, int64_t O) {
  return !p.transposed && p.groups == 1 && p.kh == 3 && p.kw == 3 && p.sh == 1 && p.sw == 1 &&
         p.dh == 1 && p.dw == 1 && g.channels >= kWinogradMinChannels &&
         O >= kWinogradMinChannels;
}

// --- forward -------------------------------------------------------------------------------

// input (N, C, H, W), weight (O, C/G, kh, kw) or transposed (C, O/G, kh, kw), bias (O)
// -> (N, O, OH, OW)
Tensor conv2d_forward(const Tensor& input_, const Tensor& weight_, const Tensor& bias_,
                      const Conv2d& p, const char* name) {
  check_float(input_, name);
  checks::conv_dtypes(input_, weight_, bias_);
  const Tensor input = contiguous(input_), weight = contiguous(weight_), bias = contiguous(bias_);
  DimVector out_sizes;
  const Geometry g = geometry(input, weight, p, &out_sizes);
  Tensor out = make_empty(out_sizes, input.dtype());
  const int64_t N = input.size(0), O = out_sizes[1], G = p.groups;
  const int64_t in_plane = input.size(2) * input.size(3), out_plane = out_sizes[2] * out_sizes[3];
  const int64_t C = input.size(1);
  dispatch_dtype(input.dtype(), name, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* x = input.data_ptr<T>();
      const T* w = weight.data_ptr<T>();
      const T* b = bias.defined() ? bias.data_ptr<T>() : nullptr;
      T* y = out.data_ptr<T>();
      const bool direct = g.is_pointwise();
      const int64_t col_size = direct ? 0 : g.rows() * g.grid();
      if (use_winograd(p, g, O)) {
        winograd_conv<T>(x, w, b, y, N, C, input.size(2), input.size(3), O, out_sizes[2],
                         out_sizes[3], p.ph, p.pw);
      } else if (!p.transposed && !direct && N > 1 &&
                 double(O) * (g.rows() / G) * g.grid() < kSmallProduct) {
        conv_small_images<T>(x, w, b, y, N, O, G, g);
      } else if (!p.transposed) {
        const int64_t Og = O / G, Kg = g.rows() / G;
        const double work = double(O) * Kg * g.grid();
        for_each_image<T>(N, col_size, work, [&](int64_t n, T* col) {
          const T* xn = x + n * C * in_plane;
          T* yn = y + n * O * out_plane;
          if (!direct) im2col(xn, col, g, g.grid());
          const T* cols = direct ? xn : col;
          if (b != nullptr) fill_bias(yn, b, O, out_plane);
          for (int64_t gi = 0; gi < G; ++gi)
            gemm<T>(false, false, Og, out_plane, Kg, T(1), w + gi * Og * Kg, Kg,
                    cols + gi * Kg * g.grid(), g.grid(), b != nullptr ? T(1) : T(0),
                    yn + gi * Og * out_plane, out_plane);
        });
      } else {
        // g's image is the output (O, OH, OW), its grid the input (H, W).
        const int64_t Cg = C / G, Rg = g.rows() / G;  // Rg = O/G * kh * kw
        const double work = double(C) * Rg * in_plane;
        for_each_image<T>(N, g.rows() * g.grid(), work, [&](int64_t n, T* col) {
          const T* xn = x + n * C * in_plane;
          T* yn = y + n * O * out_plane;
          for (int64_t gi = 0; gi < G; ++gi)
            gemm<T>(true, false, Rg, in_plane, Cg, T(1), w + gi * Cg * Rg, Rg,
                    xn + gi * Cg * in_plane, in_plane, T(0), col + gi * Rg * in_plane, in_plane);
          if (b != nullptr)
            fill_bias(yn, b, O, out_plane);
          else
            std::fill(yn, yn + O * out_plane, T(0));
          col2im(col, yn, g);
        });
      }
    } else {
      throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(input.dtype()), "'"));
    }
  });
  return out;
}

// --- backward ------------------------------------------------------------------------------

// grad_output (N, O, OH, OW) -> (grad_input, grad_weight, grad_bias) for the mask's true entries.
std::tuple<Tensor, Tensor, Tensor> conv2d_backward(const Tensor& grad_output_,
                                                   const Tensor& input_, const Tensor& weight_,
                                                   const Conv2d& p, IntArrayRef mask,
                                                   const char* name) {
  check_float(input_, name);
  const Tensor input = contiguous(input_), weight = contiguous(weight_);
  const Tensor grad_output = contiguous(grad_output_);
  DimVector out_sizes;
  const Geometry g = geometry(input, weight, p, &out_sizes);
  OPSCOPE_CHECK(std::ranges::equal(grad_output.sizes(), IntArrayRef(out_sizes)), name,
                ": expected grad_output of size ", shape_str(out_sizes), ", but got ",
                shape_str(grad_output.sizes()));
  const bool want_input = mask[0] != 0, want_weight = mask[1] != 0, want_bias = mask[2] != 0;
  Tensor grad_input, grad_weight, grad_bias;
  if (want_input) grad_input = make_empty(input.sizes(), input.dtype());
  if (want_weight) grad_weight = make_empty(weight.sizes(), weight.dtype());
  if (want_bias) grad_bias = make_empty({out_sizes[1]}, input.dtype());
  const int64_t N = input.size(0), C = input.size(1), O = out_sizes[1], G = p.groups;
  const int64_t in_plane = input.size(2) * input.size(3), out_plane = out_sizes[2] * out_sizes[3];
  dispatch_dtype(input.dtype(), name, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* x = input.data_ptr<T>();
      const T* w = weight.data_ptr<T>();
      const T* gy = grad_output.data_ptr<T>();
      T* gx = want_input ? grad_input.data_ptr<T>() : nullptr;
      const int64_t wsize = weight.numel();
      // grad_input of a 3x3 stride-1 convolution is the 3x3 convolution of grad_output with the
      // kernel turned 180 degrees and its channels swapped, padded 2 - pad: Winograd again.
      bool input_done = false;
      if (want_input && use_winograd(p, g, O) && p.ph <= 2 && p.pw <= 2) {
        std::vector<T> turned(static_cast<size_t>(wsize));  // (C, O, 3, 3)
        for (int64_t o = 0; o < O; ++o)
          for (int64_t c = 0; c < C; ++c)
            for (int k = 0; k < 9; ++k) turned[size_t((c * O + o) * 9 + k)] = w[(o * C + c) * 9 + 8 - k];
        winograd_conv<T>(gy, turned.data(), nullptr, gx, N, O, out_sizes[2], out_sizes[3], C,
                         input.size(2), input.size(3), 2 - p.ph, 2 - p.pw);
        input_done = true;
      }
      const bool want_input_here = want_input && !input_done;
      const bool direct = !p.transposed && g.is_pointwise();
      const int64_t col_size = direct ? 0 : g.rows() * g.grid();
      // grad_weight: one partial sum per thread, added in thread order at the end.
      const int threads = get_num_threads();
      std::vector<T> partial(want_weight ? size_t(threads) * size_t(wsize) : 0, T(0));
      std::vector<char> touched(size_t(threads), 0);
      const double work = double(wsize) * (p.transposed ? in_plane : out_plane) *
                          (int(want_input_here) + int(want_weight));
      for_each_image<T>(N, col_size, work, [&](int64_t n, T* col) {
        const int t = omp_in_parallel() ? omp_get_thread_num() : 0;
        T* gw = want_weight ? partial.data() + size_t(t) * size_t(wsize) : nullptr;
        touched[size_t(t)] = 1;
        const T* xn = x + n * C * in_plane;
        const T* gyn = gy + n * O * out_plane;
        T* gxn = want_input_here ? gx + n * C * in_plane : nullptr;
        if (!p.transposed) {
          const int64_t Og = O / G, Kg = g.rows() / G;
          if (want_weight) {
            if (!direct) im2col(xn, col, g, g.grid());
            const T* cols = direct ? xn : col;
            for (int64_t gi = 0; gi < G; ++gi)
              gemm<T>(false, true, Og, Kg, g.grid(), T(1), gyn + gi * Og * out_plane, out_plane,
                      cols + gi * Kg * g.grid(), g.grid(), T(1), gw + gi * Og * Kg, Kg);
          }
          if (want_input_here) {
            T* dst = direct ? gxn : col;
            for (int64_t gi = 0; gi < G; ++gi)
              gemm<T>(true, false, Kg, g.grid(), Og, T(1), w + gi * Og * Kg, Kg,
                      gyn + gi * Og * out_plane, out_plane, T(0), dst + gi * Kg * g.grid(),
                      g.grid());
            if (!direct) {
              std::fill(gxn, gxn + C * in_plane, T(0));
              col2im(col, gxn, g);
            }
          }
        } else {
          // col (O*kh*kw, H*W) = im2col(grad_output); gx_g = w_g · col_g; gw_g += x_g · col_g^T.
          const int64_t Cg = C / G, Rg = g.rows() / G;
          im2col(gyn, col, g, g.grid());
          for (int64_t gi = 0; gi < G; ++gi) {
            if (want_input_here)
              gemm<T>(false, false, Cg, in_plane, Rg, T(1), w + gi * Cg * Rg, Rg,
                      col + gi * Rg * in_plane, in_plane, T(0), gxn + gi * Cg * in_plane,
                      in_plane);
            if (want_weight)
              gemm<T>(false, true, Cg, Rg, in_plane, T(1), xn + gi * Cg * in_plane, in_plane,
                      col + gi * Rg * in_plane, in_plane, T(1), gw + gi * Cg * Rg, Rg);
          }
        }
      });
      if (want_weight) {
        T* dst = grad_weight.data_ptr<T>();
        std::fill(dst, dst + wsize, T(0));
        for (int t = 0; t < threads; ++t) {
          if (!touched[size_t(t)]) continue;
          const T* src = partial.data() + size_t(t) * size_t(wsize);
#pragma omp simd
          for (int64_t i = 0; i < wsize; ++i) dst[i] += src[i];
        }
      }
      if (want_bias) {
        T* gb = grad_bias.data_ptr<T>();
        for (int64_t o = 0; o < O; ++o) {
          double sum = 0;  // a sum of N * OH * OW terms: accumulated in double
          for (int64_t n = 0; n < N; ++n) {
            const T* plane = gy + (n * O + o) * out_plane;
#pragma omp simd reduction(+ : sum)
            for (int64_t i = 0; i < out_plane; ++i) sum += double(plane[i]);
          }
          gb[o] = static_cast<T>(sum);
        }
      }
    } else {
      throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(input.dtype()), "'"));
    }
  });
  return {grad_input, grad_weight, grad_bias};
}

}  // namespace

// self (N, C, H, W), weight (O, C, kh, kw), bias (O) -> (N, O, OH, OW): im2col + gemm
Tensor _slow_conv2d_forward(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                            const Tensor& bias, IntArrayRef stride, IntArrayRef padding) {
  checks::conv2d_kernel_size(kernel_size, weight);
  checks::conv_args(self, weight, 2, stride, padding, {1}, {}, 1, false);
  return conv2d_forward(self, weight, bias, conv_params(kernel_size, stride, padding, {1, 1}),
                        "slow_conv2d_cpu");
}

// As _slow_conv2d_forward, the window's taps `dilation` apart.
Tensor slow_conv_dilated2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                           const Tensor& bias, IntArrayRef stride, IntArrayRef padding,
                           IntArrayRef dilation) {
  checks::conv2d_kernel_size(kernel_size, weight);
  checks::conv_args(self, weight, 2, stride, padding, dilation, {}, 1, false);
  return conv2d_forward(self, weight, bias, conv_params(kernel_size, stride, padding, dilation),
                        "slow_conv_dilated<>");
}

// self (N, C, H, W), weight (C, O, kh, kw), bias (O) -> (N, O, OH, OW): gemm + col2im
Tensor slow_conv_transpose2d(const Tensor& self, const Tensor& weight, IntArrayRef kernel_size,
                             const Tensor& bias, IntArrayRef stride, IntArrayRef padding,
                             IntArrayRef output_padding, IntArrayRef dilation) {
  checks::conv2d_kernel_size(kernel_size, weight);
  checks::conv_args(self, weight, 2, stride, padding, dilation, output_padding, 1, true);
  OPSCOPE_CHECK(!output_padding.empty(), "expected output_padding to be a list of 2 values");
  Conv2d p = conv_params(kernel_size, stride, padding, dilation);
  p.oph = output_padding[0];
  p.opw = output_padding.size() > 1 ? output_padding[1] : output_padding[0];
  p.transposed = true;
  return conv2d_forward(self, weight, bias, p, "slow_conv_transpose2d_out_cpu");
}

// Undoes _slow_conv2d_forward: grad_output (N, O, OH, OW) -> (grad_input (N, C, H, W),
// grad_weight (O, C, kh, kw), grad_bias (O)). See Note [Boolean masks as ints].
std::tuple<Tensor, Tensor, Tensor> _slow_conv2d_backward(const Tensor& grad_output,
                                                         const Tensor& self, const Tensor& weight,
                                                         IntArrayRef kernel_size,
                                                         IntArrayRef stride, IntArrayRef padding,
                                                         IntArrayRef output_mask) {
  checks::conv2d_kernel_size(kernel_size, weight);
  checks::conv_args(self, weight, 2, stride, padding, {1}, {}, 1, false);
  OPSCOPE_CHECK(output_mask.size() == 3, "_slow_conv2d_backward: output_mask must have 3 entries");
  return conv2d_backward(grad_output, self, weight,
                         conv_params(kernel_size, stride, padding, {1, 1}), output_mask,
                         "slow_conv2d_cpu_grad_input");
}

// Undoes convolution (see Note [Boolean masks as ints]): grad_output (N, O, o...) -> grads of
// input (N, C, d...), weight and bias (bias_sizes). As torch's, the plain 2-D case calls
// _slow_conv2d_backward once per group; dilated and transposed ones run their kernels here.
std::tuple<Tensor, Tensor, Tensor> convolution_backward(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight,
    std::optional<IntArrayRef> bias_sizes, IntArrayRef stride, IntArrayRef padding,
    IntArrayRef dilation, bool transposed, IntArrayRef output_padding, int64_t groups,
    IntArrayRef output_mask) {
  checks::conv_backward_args(grad_output, input, weight, stride, padding, dilation, transposed,
                             output_padding, groups, output_mask);
  const int64_t dim = input.dim();
  std::vector<int64_t> mask(output_mask.begin(), output_mask.end());
  mask[2] = mask[2] != 0 && bias_sizes.has_value();
  if (dim == 3) {  // 1-D: the 2-D backward of height 1
    auto [gi, gw, gb] = convolution_backward(
        ops::unsqueeze(grad_output, 2), ops::unsqueeze(input, 2), ops::unsqueeze(weight, 2),
        bias_sizes, {1, stride[0]}, {0, padding[0]}, {1, dilation[0]}, transposed,
        {0, output_padding.empty() ? 0 : output_padding[0]}, groups, mask);
    return {gi.defined() ? ops::squeeze(gi, 2) : gi, gw.defined() ? ops::squeeze(gw, 2) : gw, gb};
  }
  const auto expand = [](IntArrayRef v) {
    return std::vector<int64_t>{v[0], v.size() > 1 ? v[1] : v[0]};
  };
  const std::vector<int64_t> st = expand(stride), pd = expand(padding), dl = expand(dilation);
  const std::vector<int64_t> op = output_padding.empty() ? std::vector<int64_t>{0, 0}
                                                         : expand(output_padding);
  const std::vector<int64_t> kernel{weight.size(2), weight.size(3)};
  const bool dilated = dl[0] != 1 || dl[1] != 1;
  if (!transposed && !dilated) {
    if (groups == 1)
      return ops::_slow_conv2d_backward(grad_output, input, weight, kernel, st, pd, mask);
    // torch's per-group split: narrow each operand to its group, cat the gradients.
    std::vector<Tensor> gis, gws, gbs;
    const int64_t Cg = input.size(1) / groups, Og = weight.size(0) / groups;
    for (int64_t g = 0; g < groups; ++g) {
      auto [gi, gw, gb] = ops::_slow_conv2d_backward(
          ops::narrow(grad_output, 1, g * Og, Og), ops::narrow(input, 1, g * Cg, Cg),
          ops::narrow(weight, 0, g * Og, Og), kernel, st, pd, mask);
      gis.push_back(gi);
      gws.push_back(gw);
      gbs.push_back(gb);
    }
    return {mask[0] ? ops::cat(gis, 1) : Tensor(), mask[1] ? ops::cat(gws, 0) : Tensor(),
            mask[2] ? ops::cat(gbs, 0) : Tensor()};
  }
  Conv2d p = conv_params(kernel, st, pd, dl);
  p.oph = op[0];
  p.opw = op[1];
  p.groups = groups;
  p.transposed = transposed;
  return conv2d_backward(grad_output, input, weight, p, mask,
                         transposed ? "slow_conv_transpose2d_backward_out_cpu"
                                    : "slow_conv_dilated2d_cpu");
}

static Library cpu_conv(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("_slow_conv2d_forward", fn<&_slow_conv2d_forward>);
  m.impl("_slow_conv2d_backward.output_mask", fn<&_slow_conv2d_backward>);
  m.impl("slow_conv_dilated2d", fn<&slow_conv_dilated2d>);
  m.impl("slow_conv_transpose2d", fn<&slow_conv_transpose2d>);
  m.impl("convolution_backward", fn<&convolution_backward>);
});

}  // namespace opscope::cpu
