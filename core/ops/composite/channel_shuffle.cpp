// native_channel_shuffle for every backend without a kernel of its own (declared in
// core/ops/nn.cpp; the CPU kernels are core/ops/cpu/channel_shuffle.cpp): torch 1.13's
// math_channel_shuffle, registered on CompositeImplicitAutograd as torch's. The channels are
// split into (groups, k), the two swapped, and the result made contiguous at self's shape:
//
//   (N, C, *) -view-> (N, g, k, P) -permute-> (N, k, g, P) -contiguous, reshape-> (N, C, *)
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"

namespace opscope::composite {

Tensor math_channel_shuffle(const Tensor& self, int64_t groups) {
  checks::channel_shuffle_groups(self, groups);
  const int64_t b = self.size(0), c = self.size(1), k = c / groups;
  const Tensor split = ops::view(self, {b, groups, k, -1});
  return ops::reshape(ops::contiguous(ops::permute(split, {0, 2, 1, 3})), self.sizes());
}

static Library composite_implicit_channel_shuffle(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd,
    [](Library& m) { m.impl("native_channel_shuffle", fn<&math_channel_shuffle>); });

}  // namespace opscope::composite
