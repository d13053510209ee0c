// CPU kernels of pixel_shuffle and pixel_unshuffle (declared in core/ops/nn.cpp, see
// core/ops/nn.h; registered at the end of this file), torch 1.13's pixel_shuffle_cpu /
// pixel_unshuffle_cpu: one pass that copies each element to its place, for every dtype (the copy
// moves bytes, so one loop per element size serves them all). With r the factor and the batch
// dims (*) flattened to B:
//
//   pixel_shuffle    in (B, C r^2, H, W) -> out (B, C, H r, W r)
//                    out[b, c, h r + i, w r + j] = in[b, c r^2 + i r + j, h, w]
//   pixel_unshuffle  the inverse: in (B, C, H r, W r) -> out (B, C r^2, H, W)
//
// The output is contiguous (torch keeps a channels-last input's layout; opscope does not yet).
// Other backends use the composite kernels of core/ops/composite/pixel_shuffle.cpp.
#include <algorithm>
#include <cstdint>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

// An element of `Bytes` bytes, copied as a value.
template <size_t Bytes>
struct Element {
  unsigned char bytes[Bytes];
};

// Copies in (B, C r^2, H, W) into out (B, C, H r, W r) (shuffle) or back (unshuffle), element
// type E; both contiguous. One row of the large side per iteration: its elements w r + j come
// from row h of plane c r^2 + i r + j of the small side (y = h r + i the large row), so the
// inner loop walks one small row contiguously and the large row with step r.
template <typename E>
void shuffle_copy(const E* in, E* out, int64_t batch, int64_t c, int64_t h, int64_t w, int64_t r,
                  bool unshuffle) {
  const int64_t oh = h * r, ow = w * r;  // the large spatial sizes
  const int64_t rows = batch * c * oh;   // rows of the (B, C, H r, W r) side
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / ow), [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t y = row % oh, bc = row / oh;  // bc = b C + c
      const int64_t hh = y / r, i = y % r;
      for (int64_t j = 0; j < r; ++j) {
        const int64_t small = ((bc * r * r + i * r + j) * h + hh) * w;
        const int64_t large = row * ow + j;
        if (unshuffle) {
          for (int64_t ww = 0; ww < w; ++ww) out[small + ww] = in[large + ww * r];
        } else {
          for (int64_t ww = 0; ww < w; ++ww) out[large + ww * r] = in[small + ww];
        }
      }
    }
  });
}

void shuffle_bytes(const Tensor& in, const Tensor& out, int64_t batch, int64_t c, int64_t h,
                   int64_t w, int64_t r, bool unshuffle) {
  auto run = [&]<size_t N>() {
    shuffle_copy(static_cast<const Element<N>*>(in.data()), static_cast<Element<N>*>(out.data()),
                 batch, c, h, w, r, unshuffle);
  };
  switch (element_size(in.dtype())) {
    case 1:
      return run.template operator()<1>();
    case 2:
      return run.template operator()<2>();
    case 4:
      return run.template operator()<4>();
    case 8:
      return run.template operator()<8>();
    case 16:
      return run.template operator()<16>();
    default:
      throw Error(
          detail::str("pixel_shuffle: unsupported element size ", element_size(in.dtype())));
  }
}

// self's sizes with the last three replaced
DimVector with_last_three(const Tensor& self, int64_t a, int64_t b, int64_t c) {
  DimVector sizes(self.sizes().begin(), self.sizes().end() - 3);
  sizes.push_back(a);
  sizes.push_back(b);
  sizes.push_back(c);
  return sizes;
}

}  // namespace

// self (*, C r^2, H, W) -> (*, C, H r, W r)
Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor) {
  checks::pixel_shuffle_shapes(self, upscale_factor);
  const int64_t r = upscale_factor;
  const int64_t c = self.size(-3) / (r * r), h = self.size(-2), w = self.size(-1);
  Tensor output = make_empty(with_last_three(self, c, h * r, w * r), self.dtype(), self.device());
  if (output.numel() == 0) return output;
  const Tensor input = self.is_contiguous() ? self : ops::contiguous(self);
  shuffle_bytes(input, output, output.numel() / (c * h * r * w * r), c, h, w, r, false);
  return output;
}

// self (*, C, H r, W r) -> (*, C r^2, H, W)
Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor) {
  checks::pixel_unshuffle_shapes(self, downscale_factor);
  // torch 1.13's pixel_unshuffle_cpu returns an empty input's clone, of the input's shape (not
  // the unshuffled one); so does this kernel, so that results match.
  if (self.numel() == 0) return ops::clone(self);
  const int64_t r = downscale_factor;
  const int64_t c = self.size(-3), h = self.size(-2) / r, w = self.size(-1) / r;
  Tensor output = make_empty(with_last_three(self, c * r * r, h, w), self.dtype(), self.device());
  if (output.numel() == 0) return output;
  const Tensor input = self.is_contiguous() ? self : ops::contiguous(self);
  shuffle_bytes(input, output, output.numel() / (c * r * r * h * w), c, h, w, r, true);
  return output;
}

static Library cpu_pixel_shuffle(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("pixel_shuffle", fn<&pixel_shuffle>);
  m.impl("pixel_unshuffle", fn<&pixel_unshuffle>);
});

}  // namespace opscope::cpu
