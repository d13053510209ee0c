// roll on CUDA (schema in core/ops/shape.cpp), from ops with CUDA kernels: as the CPU kernel
// (core/ops/cpu/shape.cpp) and torch 1.13's roll_common, several dims roll one at a time and no
// dims rolls the flattened tensor; one dim is the two narrowed pieces concatenated (cat's kernel
// moves the data, where torch's CUDA roll has a kernel of its own: same values, one launch).
#include <vector>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::cuda {

namespace {

// self [*s] -> [*s], each element moved shifts[i] places along dims[i] (wrapping around)
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (dims.size() != 1 || shifts.size() != 1) {
    OPSCOPE_CHECK(!shifts.empty(), "`shifts` required");
    if (dims.empty() && shifts.size() == 1) {
      Tensor flat = ops::view(ops::contiguous(self), {self.numel()});
      return ops::view(ops::roll(flat, shifts, std::vector<int64_t>{0}), self.sizes());
    }
    OPSCOPE_CHECK(shifts.size() == dims.size(), "shifts and dimensions must align. shifts: ",
                  shifts.size(), ", dims:", dims.size());
    Tensor first = ops::roll(self, shifts.subspan(0, 1), dims.subspan(0, 1));
    return ops::roll(first, shifts.subspan(1), dims.subspan(1));
  }
  if (self.numel() == 0) return ops::clone(self, ops::kPreserveFormat);
  const int64_t dim = dims[0];
  const int64_t size = self.size(dim);
  // (size - shift) mod size, the shift reduced first (size - (-2**63) would overflow)
  const int64_t start = (size - shifts[0] % size) % size;
  return ops::cat(std::vector<Tensor>{ops::narrow(self, dim, start, size - start),
                                      ops::narrow(self, dim, 0, start)},
                  dim);
}

}  // namespace

static Library cuda_shape(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("roll", fn<&roll>);
});

}  // namespace opscope::cuda
