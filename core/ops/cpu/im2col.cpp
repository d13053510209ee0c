// CPU kernels of im2col and col2im (declared in core/ops/nn.cpp, see core/ops/nn.h; registered at
// the end of this file): F.unfold and F.fold, torch 1.13's im2col_out_cpu / col2im_out_cpu with
// their shape checks and messages (im2col_shape_check.h).
//
// Semantically, for one image x (C, H, W), a window (kh, kw) with dilation (dh, dw), padding
// (ph, pw) and stride (sh, sw) sliding over an OH x OW grid of positions,
//
//   im2col  col[(c kh + i) kw + j, oh OW + ow] = x[c, oh sh - ph + i dh, ow sw - pw + j dw]
//           (0 where that pixel lies in the padding)                col (C kh kw, OH OW)
//   col2im  the adjoint: every col element added to the pixel im2col read it from (nothing for
//           padding), so overlapping windows sum                     x (C, H, W)
//
// with OH = floor((H + 2 ph - dh (kh - 1) - 1) / sh) + 1 (OW alike). A batch (N, ...) is N images;
// an unbatched (C, H, W) image or (C kh kw, L) column matrix gives an unbatched result.
//
// In implementation terms each column row (c, i, j) is OH runs of OW elements; in run oh the
// positions ow whose pixel lies inside the image are one range [lo, hi) (inside_columns), so a
// run is zeros, a strided copy (a memcpy when sw = 1), zeros. im2col only moves elements, so it
// runs on their bytes (one loop per element size serves float32, float64, float16, bfloat16);
// col2im adds, per dtype, in torch's order (rows in (c, i, j) order, Half / BFloat16 rounded after
// each addition as torch's scalar_t += does). Images (im2col: and channels) share the threads.
#include <algorithm>
#include <cstring>
#include <utility>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/nn.h"
#include "core/runtime/CheckedMath.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

// The window, and the image (channels, height, width) and grid (out_h, out_w) it slides over.
struct Blocks {
  int64_t channels, height, width;
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
  int64_t out_h, out_w;

  int64_t rows() const { return channels * kh * kw; }  // of one image's column matrix
  int64_t grid() const { return out_h * out_w; }       // its columns, L
  int64_t image() const { return channels * height * width; }
};

// floor(a / b) for b > 0 (c10's div_rtn)
int64_t div_floor(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// ceil(a / b) for a >= 0, b > 0, without the a + b - 1 that can overflow
int64_t div_ceil(int64_t a, int64_t b) {
  return a / b + (a % b != 0);
}

// The ow range [lo, hi) whose pixel column ow sw + dx lies in [0, width).
std::pair<int64_t, int64_t> inside_columns(const Blocks& b, int64_t dx) {
  int64_t lo = dx >= 0 ? 0 : div_ceil(-dx, b.sw);
  int64_t hi = b.width - dx <= 0 ? 0 : div_ceil(b.width - dx, b.sw);
  lo = std::min(lo, b.out_w);
  hi = std::clamp(hi, lo, b.out_w);
  return {lo, hi};
}

// The number of window positions along one dim, floor((size + 2 pad - dil (k - 1) - 1) / stride)
// + 1, in checked arithmetic (sizes past int64 are refused, where torch's wrap).
int64_t block_count(int64_t size, int64_t k, int64_t dil, int64_t pad, int64_t stride,
                    const char* what) {
  const int64_t span = checked_add(checked_mul(dil, k - 1, what), 1, what);
  const int64_t padded = checked_add(size, checked_mul(2, pad, what), what);
  return div_floor(padded - span, stride) + 1;  // both non-negative: no overflow
}

// The length-2 lists of both schemas: int[2] holds two, as torch's kernels check.
void check_pair(IntArrayRef list, const char* name) {
  OPSCOPE_CHECK(list.size() == 2, "It is expected ", name, " equals to 2, but got size ",
                list.size());
}

// torch's checks of the window shared by im2col and col2im, in each one's order.
void check_kernel(int64_t kh, int64_t kw) {
  OPSCOPE_CHECK(kw > 0 && kh > 0,
                "kernel size should be greater than zero, but got kernel_height: ", kh,
                " kernel_width: ", kw);
}
void check_dilation(int64_t dh, int64_t dw) {
  OPSCOPE_CHECK(dw > 0 && dh > 0,
                "dilation should be greater than zero, but got dilation_height: ", dh,
                " dilation_width: ", dw);
}
void check_padding(int64_t ph, int64_t pw) {
  OPSCOPE_CHECK(pw >= 0 && ph >= 0, "padding should be non-negative, but got pad_height: ", ph,
                " pad_width: ", pw);
}
void check_stride(int64_t sh, int64_t sw) {
  OPSCOPE_CHECK(sw > 0 && sh > 0, "stride should be greater than zero, but got stride_height: ", sh,
                " stride_width: ", sw);
}

// torch's im2col_shape_check: self (N, C, H, W) or (C, H, W), only N may be 0.
Blocks im2col_blocks(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation,
                     IntArrayRef padding, IntArrayRef stride) {
  check_pair(kernel_size, "kernel_size");
  check_pair(dilation, "dilation");
  check_pair(padding, "padding");
  check_pair(stride, "stride");
  Blocks b{};
  b.kh = kernel_size[0], b.kw = kernel_size[1], b.dh = dilation[0], b.dw = dilation[1];
  b.ph = padding[0], b.pw = padding[1], b.sh = stride[0], b.sw = stride[1];
  check_kernel(b.kh, b.kw);
  check_dilation(b.dh, b.dw);
  check_padding(b.ph, b.pw);
  check_stride(b.sh, b.sw);
  const int64_t ndim = self.dim();
  // torch reads sizes 1 and 2 before it looks at the rank (a 2-D input: IndexError from size(2))
  const bool valid_dims = self.size(1) != 0 && self.size(2) != 0;
  OPSCOPE_CHECK((ndim == 3 && self.size(0) != 0 && valid_dims) ||
                    (ndim == 4 && valid_dims && self.size(3) != 0),
                "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
                "non-zero dimensions for input, but got: ",
                shape_str(self.sizes()));
  b.channels = self.size(-3), b.height = self.size(-2), b.width = self.size(-1);
  b.out_h = block_count(b.height, b.kh, b.dh, b.ph, b.sh, "im2col");
  b.out_w = block_count(b.width, b.kw, b.dw, b.pw, b.sw, "im2col");
  // (torch's message names the input height twice)
  OPSCOPE_CHECK(b.out_h >= 1 && b.out_w >= 1, "Given input with spatial size (", b.height, ", ",
                b.height, "), kernel_size=(", b.kh, ", ", b.kw, "), dilation=(", b.dh, ", ", b.dw,
                "), padding=(", b.ph, ", ", b.pw,
                "), calculated shape of the array of sliding blocks as (", b.out_h, ", ", b.out_w,
                "), but its components must be at least one.");
  return b;
}

// torch's col2im_shape_check: self (N, C kh kw, L) or (C kh kw, L), only N may be 0.
Blocks col2im_blocks(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
                     IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  check_pair(output_size, "output_size");
  check_pair(kernel_size, "kernel_size");
  check_pair(dilation, "dilation");
  check_pair(padding, "padding");
  check_pair(stride, "stride");
  Blocks b{};
  b.height = output_size[0], b.width = output_size[1];
  b.kh = kernel_size[0], b.kw = kernel_size[1], b.dh = dilation[0], b.dw = dilation[1];
  b.ph = padding[0], b.pw = padding[1], b.sh = stride[0], b.sw = stride[1];
  check_kernel(b.kh, b.kw);
  check_stride(b.sh, b.sw);
  check_dilation(b.dh, b.dw);
  check_padding(b.ph, b.pw);
  const int64_t ndim = self.dim();
  OPSCOPE_CHECK((ndim == 2 && self.size(0) != 0 && self.size(1) != 0) ||
                    (ndim == 3 && self.size(1) != 0 && self.size(2) != 0),
                "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                "non-zero dimensions for input, but got: ",
                shape_str(self.sizes()));
  const int64_t planes = self.size(-2), length = self.size(-1);
  OPSCOPE_CHECK(planes % checked_mul(b.kw, b.kh, "col2im") == 0,
                "Expected size of input's dimension 1 to be divisible by the product of "
                "kernel_size, but got input.size(1)=",
                planes, " and kernel_size=(", b.kh, ", ", b.kw, ").");
  b.out_h = block_count(b.height, b.kh, b.dh, b.ph, b.sh, "col2im");
  b.out_w = block_count(b.width, b.kw, b.dw, b.pw, b.sw, "col2im");
  const auto given = [&] {
    return detail::str("Given output_size=(", b.height, ", ", b.width, "), kernel_size=(", b.kh,
                       ", ", b.kw, "), dilation=(", b.dh, ", ", b.dw, "), padding=(", b.ph, ", ",
                       b.pw, "), stride=(", b.sh, ", ", b.sw, "), ");
  };
  int64_t blocks = 0;
  OPSCOPE_CHECK(!mul_overflows(b.out_h, b.out_w, &blocks) && length == blocks, given(),
                "expected size of input's dimension 2 to match the calculated number of sliding "
                "blocks ",
                b.out_h, " * ", b.out_w, " = ", blocks, ", but got input.size(2)=", length, ".");
  OPSCOPE_CHECK(b.out_h >= 1 && b.out_w >= 1, given(),
                "calculated shape of the array of sliding blocks as (", b.out_h, ", ", b.out_w,
                "), which is too small (non-positive)");
  OPSCOPE_CHECK(b.width >= 1 && b.height >= 1,
                "Expected output spatial size to be positive, but got: output_size=(", b.height,
                ", ", b.width, ").");
  b.channels = planes / (b.kh * b.kw);
  return b;
}

// An element of `Bytes` bytes, moved as a value.
template <size_t Bytes>
struct Element {
  unsigned char bytes[Bytes];
};

// col rows [row_begin, row_end) of one image <- img (channels, height, width).
template <typename E>
void im2col_rows(const E* img, E* col, const Blocks& b, int64_t row_begin, int64_t row_end) {
  const int64_t grid = b.grid();
  for (int64_t row = row_begin; row < row_end; ++row) {
    const int64_t j = row % b.kw, i = (row / b.kw) % b.kh, c = row / (b.kh * b.kw);
    const E* plane = img + c * b.height * b.width;
    E* out_row = col + row * grid;
    const int64_t dx = j * b.dw - b.pw;
    const auto [lo, hi] = inside_columns(b, dx);
    for (int64_t oh = 0; oh < b.out_h; ++oh) {
      E* out = out_row + oh * b.out_w;
      const int64_t iy = oh * b.sh - b.ph + i * b.dh;
      if (iy < 0 || iy >= b.height) {
        std::memset(static_cast<void*>(out), 0, sizeof(E) * b.out_w);
        continue;
      }
      const E* in = plane + iy * b.width + dx;
      if (lo > 0) std::memset(static_cast<void*>(out), 0, sizeof(E) * lo);
      if (b.sw == 1) {
        std::memcpy(static_cast<void*>(out + lo), in + lo, sizeof(E) * (hi - lo));
      } else {
        for (int64_t ow = lo; ow < hi; ++ow) out[ow] = in[ow * b.sw];
      }
      if (hi < b.out_w) std::memset(static_cast<void*>(out + hi), 0, sizeof(E) * (b.out_w - hi));
    }
  }
}

// out (batch, rows, L) <- in (batch, C, H, W), both contiguous; the (image, row) pairs split
// over the threads.
template <size_t Bytes>
void im2col_batch(const void* in, void* out, const Blocks& b, int64_t batch) {
  using E = Element<Bytes>;
  const E* img = static_cast<const E*>(in);
  E* col = static_cast<E*>(out);
  const int64_t rows = b.rows();
  parallel_for(0, batch * rows, std::max<int64_t>(1, kGrainSize / b.grid()),
               [&](int64_t begin, int64_t end) {
                 while (begin < end) {
                   const int64_t n = begin / rows, row = begin % rows;
                   const int64_t stop = std::min(end - begin, rows - row) + row;
                   im2col_rows(img + n * b.image(), col + n * rows * b.grid(), b, row, stop);
                   begin += stop - row;
                 }
               });
}

// img (channels, height, width) += col (rows, L), scattered back in row order.
template <typename T>
void col2im_image(const T* col, T* img, const Blocks& b) {
  using A = acc_type_t<T>;
  const int64_t grid = b.grid();
  for (int64_t row = 0; row < b.rows(); ++row) {
    const int64_t j = row % b.kw, i = (row / b.kw) % b.kh, c = row / (b.kh * b.kw);
    T* plane = img + c * b.height * b.width;
    const T* in_row = col + row * grid;
    const int64_t dx = j * b.dw - b.pw;
    const auto [lo, hi] = inside_columns(b, dx);
    for (int64_t oh = 0; oh < b.out_h; ++oh) {
      const int64_t iy = oh * b.sh - b.ph + i * b.dh;
      if (iy < 0 || iy >= b.height) continue;
      const T* in = in_row + oh * b.out_w;
      T* out = plane + iy * b.width + dx;
      if (b.sw == 1) {
#pragma omp simd
        for (int64_t ow = lo; ow < hi; ++ow)
          out[ow] = static_cast<T>(static_cast<A>(out[ow]) + static_cast<A>(in[ow]));
      } else {
        for (int64_t ow = lo; ow < hi; ++ow)
          out[ow * b.sw] = static_cast<T>(static_cast<A>(out[ow * b.sw]) + static_cast<A>(in[ow]));
      }
    }
  }
}

// dispatch_dtype_if over the floating types (float32, float64, float16, bfloat16)
template <typename F>
void dispatch_float_half(ScalarType t, std::string_view what, F&& fn) {
  dispatch_dtype_if(t, what, kFloatingOnly, fn);
}

// `out` as the kernel's result: resized to `sizes` (out=) or new; `dtype` checked as torch's
// data_ptr<scalar_t>() checks it.
Tensor result_tensor(const Tensor& out, IntArrayRef sizes, ScalarType dtype, Device device) {
  if (!out.defined()) return make_empty(sizes, dtype, device);
  resize_output(out, sizes);
  check_read_as(dtype, out.dtype());
  return out;
}

// Writes `done` (contiguous) into the out= tensor when the kernel could not write it directly.
Tensor finish(const Tensor& out, const Tensor& done) {
  if (out.defined() && !out.is_same(done)) ops::copy_(out, done);
  return out.defined() ? out : done;
}

}  // namespace

// self (N, C, H, W) or (C, H, W) -> (N, C kh kw, L) or (C kh kw, L)
Tensor im2col_impl(const Tensor& out, const Tensor& self, IntArrayRef kernel_size,
                   IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  const Blocks b = im2col_blocks(self, kernel_size, dilation, padding, stride);
  const bool batched = self.dim() == 4;
  const int64_t batch = batched ? self.size(0) : 1;
  DimVector sizes;
  if (batched) sizes.push_back(batch);
  sizes.push_back(checked_mul(checked_mul(b.channels, b.kh, "im2col"), b.kw, "im2col"));
  sizes.push_back(checked_mul(b.out_h, b.out_w, "im2col"));
  // torch's dtype check (its AT_DISPATCH) comes before an out= tensor's
  dispatch_dtype_if(self.dtype(), "im2col_out_cpu", kFloatingOnly, []<typename T>() {});
  Tensor result = result_tensor(out, sizes, self.dtype(), self.device());
  Tensor target = result.is_contiguous() ? result : make_empty(sizes, self.dtype(), self.device());
  if (target.numel() == 0) return finish(out, target);
  const Tensor input = self.is_contiguous() ? self : ops::contiguous(self);
  switch (element_size(self.dtype())) {
    case 2:
      im2col_batch<2>(input.data(), target.data(), b, batch);
      break;
    case 4:
      im2col_batch<4>(input.data(), target.data(), b, batch);
      break;
    default:
      im2col_batch<8>(input.data(), target.data(), b, batch);
      break;
  }
  return finish(out, target);
}

// self (N, C kh kw, L) or (C kh kw, L) -> (N, C, H, W) or (C, H, W), (H, W) = output_size
Tensor col2im_impl(const Tensor& out, const Tensor& self, IntArrayRef output_size,
                   IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                   IntArrayRef stride) {
  const Blocks b = col2im_blocks(self, output_size, kernel_size, dilation, padding, stride);
  const bool batched = self.dim() == 3;
  const int64_t batch = batched ? self.size(0) : 1;
  DimVector sizes;
  if (batched) sizes.push_back(batch);
  for (int64_t s : {b.channels, b.height, b.width}) sizes.push_back(s);
  dispatch_dtype_if(self.dtype(), "col2im_out_cpu", kFloatingOnly, []<typename T>() {});
  Tensor result = result_tensor(out, sizes, self.dtype(), self.device());
  Tensor target = result.is_contiguous() ? result : make_empty(sizes, self.dtype(), self.device());
  dispatch_float_half(self.dtype(), "col2im_out_cpu", [&]<typename T>() {
    if (target.numel() == 0) return;
    const Tensor input = self.is_contiguous() ? self : ops::contiguous(self);
    const T* col = static_cast<const T*>(input.data());
    T* img = static_cast<T*>(target.data());
    std::memset(static_cast<void*>(img), 0, sizeof(T) * target.numel());
    const int64_t col_size = b.rows() * b.grid();
    parallel_for(0, batch, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, col_size)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t n = begin; n < end; ++n)
                     col2im_image(col + n * col_size, img + n * b.image(), b);
                 });
  });
  return finish(out, target);
}

static Library cpu_im2col(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("im2col", functional<&im2col_impl>());
  m.impl("im2col.out", out<&im2col_impl>());
  m.impl("col2im", functional<&col2im_impl>());
  m.impl("col2im.out", out<&col2im_impl>());
});

}  // namespace opscope::cpu
