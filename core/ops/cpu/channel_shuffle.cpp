// CPU kernels of channel_shuffle and native_channel_shuffle (declared in core/ops/nn.cpp, see
// core/ops/nn.h; registered at the end of this file), torch 1.13's channel_shuffle (the checks,
// then native_channel_shuffle) and channel_shuffle_cpu (ChannelShuffle.cpp, one copy per output
// channel as cpu_channel_shuffle does). ShuffleNet's mixing of grouped channels: self (N, C, *)
// with C = g k channels read as g groups of k and written as k groups of g,
//
//   out[n, i g + j] = self[n, j k + i]        (i < k, j < g; each channel a plane of the * dims)
//
// For every dtype: the copy moves bytes, so one loop per element size serves them all. Other
// backends use native_channel_shuffle's composite kernel (core/ops/composite/channel_shuffle.cpp).
//
// native_channel_shuffle makes channel_shuffle's checks of groups too (torch 1.13's kernel has
// none and divides by zero for groups = 0), and returns an empty input's copy (torch's divides by
// the batch size).
#include <algorithm>
#include <cstring>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/nn.h"
#include "core/runtime/Parallel.h"

namespace opscope {

namespace checks {

void channel_shuffle_groups(const Tensor& self, int64_t groups) {
  OPSCOPE_CHECK(
      groups > 0,
      "Number of groups to divide channels in must be positive. Value of groups:", groups);
  const int64_t c = self.size(1);
  OPSCOPE_CHECK(c % groups == 0, "Number of channels must be divisible by groups. Got ", c,
                " channels and ", groups, " groups.");
}

}  // namespace checks

namespace cpu {

// self (N, C, *) -> self's shape, channels shuffled
Tensor channel_shuffle(const Tensor& self, int64_t groups) {
  OPSCOPE_CHECK(self.dim() > 2,
                "channel_shuffle expects input with > 2 dims, but got input with sizes ",
                shape_str(self.sizes()));
  checks::channel_shuffle_groups(self, groups);
  return ops::native_channel_shuffle(self, groups);
}

// self (N, C, ...) -> self's shape: out channel i g + j <- self channel j k + i, k = C / g
Tensor native_channel_shuffle(const Tensor& self, int64_t groups) {
  checks::channel_shuffle_groups(self, groups);
  Tensor output = make_empty(self.sizes(), self.dtype(), self.device());
  if (output.numel() == 0) return output;
  const Tensor input = self.is_contiguous() ? self : ops::contiguous(self);
  const int64_t batch = self.size(0), channels = self.size(1), k = channels / groups;
  const int64_t plane_bytes =
      static_cast<int64_t>(element_size(self.dtype())) * (self.numel() / (batch * channels));
  const char* in = static_cast<const char*>(input.data());
  char* out = static_cast<char*>(output.data());
  parallel_for(0, batch * channels, std::max<int64_t>(1, kGrainSize / plane_bytes),
               [&](int64_t begin, int64_t end) {
                 for (int64_t o = begin; o < end; ++o) {
                   const int64_t n = o / channels, i = (o % channels) / groups, j = o % groups;
                   const int64_t from = n * channels + j * k + i;
                   std::memcpy(out + o * plane_bytes, in + from * plane_bytes,
                               static_cast<size_t>(plane_bytes));
                 }
               });
  return output;
}

static Library cpu_channel_shuffle(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("channel_shuffle", fn<&channel_shuffle>);
  m.impl("native_channel_shuffle", fn<&native_channel_shuffle>);
});

}  // namespace cpu

}  // namespace opscope
