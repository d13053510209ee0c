// pixel_shuffle / pixel_unshuffle for every backend without a kernel of its own (declared in
// core/ops/nn.cpp; the CPU kernels are core/ops/cpu/pixel_shuffle.cpp): torch 1.13's
// math_pixel_shuffle / math_pixel_unshuffle, registered on CompositeExplicitAutograd (torch's
// CompositeExplicitAutogradNonFunctional, which opscope does not have). The channel dim is split
// into its factors, the factors permuted next to the spatial dims they scale, and the result
// cloned contiguous and viewed at its final size (never an alias of the input):
//
//   shuffle    (*, C, r, r, H, W) -permute-> (*, C, H, r, W, r) -clone, view-> (*, C, H r, W r)
//   unshuffle  (*, C, H, r, W, r) -permute-> (*, C, r, r, H, W) -clone, view-> (*, C r^2, H, W)
#include <initializer_list>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"

namespace opscope {

namespace checks {

void pixel_shuffle_shapes(const Tensor& self, int64_t upscale_factor) {
  OPSCOPE_CHECK(self.dim() >= 3,
                "pixel_shuffle expects input to have at least 3 dimensions, but got input with ",
                self.dim(), " dimension(s)");
  OPSCOPE_CHECK(upscale_factor > 0, "pixel_shuffle expects a positive upscale_factor, but got ",
                upscale_factor);
  // A factor whose square or the output's H r, W r overflow is refused (torch 1.13 overflows).
  int64_t squared = 0, h = 0, w = 0;
  OPSCOPE_CHECK(!__builtin_mul_overflow(upscale_factor, upscale_factor, &squared) &&
                    !__builtin_mul_overflow(self.size(-2), upscale_factor, &h) &&
                    !__builtin_mul_overflow(self.size(-1), upscale_factor, &w),
                "pixel_shuffle: upscale_factor ", upscale_factor, " is too large");
  const int64_t c = self.size(-3);
  OPSCOPE_CHECK(c % squared == 0,
                "pixel_shuffle expects its input's 'channel' dimension to be divisible by the "
                "square of upscale_factor, but input.size(-3)=",
                c, " is not divisible by ", squared);
}

void pixel_unshuffle_shapes(const Tensor& self, int64_t downscale_factor) {
  OPSCOPE_CHECK(self.dim() >= 3,
                "pixel_unshuffle expects input to have at least 3 dimensions, but got input with ",
                self.dim(), " dimension(s)");
  OPSCOPE_CHECK(downscale_factor > 0,
                "pixel_unshuffle expects a positive downscale_factor, but got ", downscale_factor);
  const int64_t h = self.size(-2), w = self.size(-1);
  OPSCOPE_CHECK(h % downscale_factor == 0,
                "pixel_unshuffle expects height to be divisible by downscale_factor, but "
                "input.size(-2)=",
                h, " is not divisible by ", downscale_factor);
  OPSCOPE_CHECK(w % downscale_factor == 0,
                "pixel_unshuffle expects width to be divisible by downscale_factor, but "
                "input.size(-1)=",
                w, " is not divisible by ", downscale_factor);
  // (H = W = 0 passes any factor; the output's C r^2 must still be a size: torch 1.13 overflows)
  int64_t squared = 0, channels = 0;
  OPSCOPE_CHECK(!__builtin_mul_overflow(downscale_factor, downscale_factor, &squared) &&
                    !__builtin_mul_overflow(self.size(-3), squared, &channels),
                "pixel_unshuffle: downscale_factor ", downscale_factor, " is too large");
}

}  // namespace checks

namespace composite {

namespace {

// self's batch dims (all but the last three) followed by `rest`
DimVector batch_then(const Tensor& self, std::initializer_list<int64_t> rest) {
  DimVector sizes(self.sizes().begin(), self.sizes().end() - 3);
  for (int64_t s : rest) sizes.push_back(s);
  return sizes;
}

// the batch dims in order, then `rest` (negative: counted from the end)
DimVector batch_permutation(int64_t batch_dims, std::initializer_list<int64_t> rest) {
  DimVector perm;
  for (int64_t d = 0; d < batch_dims; ++d) perm.push_back(d);
  for (int64_t d : rest) perm.push_back(d);
  return perm;
}

}  // namespace

Tensor math_pixel_shuffle(const Tensor& self, int64_t upscale_factor) {
  checks::pixel_shuffle_shapes(self, upscale_factor);
  const int64_t r = upscale_factor, batch_dims = self.dim() - 3;
  const int64_t c = self.size(-3) / (r * r), h = self.size(-2), w = self.size(-1);
  const Tensor split = ops::reshape(self, batch_then(self, {c, r, r, h, w}));
  // (*, C, r_h, r_w, H, W) -> (*, C, H, r_h, W, r_w)
  const Tensor permuted = ops::permute(split, batch_permutation(batch_dims, {-5, -2, -4, -1, -3}));
  return ops::view(ops::clone(permuted, int64_t{0}), batch_then(self, {c, h * r, w * r}));
}

Tensor math_pixel_unshuffle(const Tensor& self, int64_t downscale_factor) {
  checks::pixel_unshuffle_shapes(self, downscale_factor);
  const int64_t r = downscale_factor, batch_dims = self.dim() - 3;
  const int64_t c = self.size(-3), h = self.size(-2) / r, w = self.size(-1) / r;
  const Tensor split = ops::reshape(self, batch_then(self, {c, h, r, w, r}));
  // (*, C, H, r_h, W, r_w) -> (*, C, r_h, r_w, H, W)
  const Tensor permuted = ops::permute(split, batch_permutation(batch_dims, {-5, -3, -1, -4, -2}));
  return ops::view(ops::clone(permuted, int64_t{0}), batch_then(self, {c * r * r, h, w}));
}

static Library composite_explicit_pixel_shuffle(Library::IMPL, "aten",
                                                DispatchKey::CompositeExplicitAutograd,
                                                [](Library& m) {
                                                  m.impl("pixel_shuffle", fn<&math_pixel_shuffle>);
                                                  m.impl("pixel_unshuffle",
                                                         fn<&math_pixel_unshuffle>);
                                                });

}  // namespace composite

}  // namespace opscope
