// What the CPU factory kernels share (core/ops/cpu/factories.cpp and random.cpp): reading the
// tensor options, converting a Scalar to an element type the way torch checks it, the names
// torch's messages use for element types, and walking a strided tensor.
#pragma once

#include "core/runtime/Parallel.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

#include "core/runtime/Scalar.h"
#include "core/runtime/ScalarConvert.h"
#include "core/tensor/Tensor.h"

namespace opscope::cpu::factory_util {

// Applies the `layout=` / `pin_memory=` checks every CPU factory makes and returns the dtype to
// use (`fallback` when dtype is None). Only torch.strided (0) is a layout opscope has.
inline ScalarType resolve_options(std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                                  std::optional<bool> pin_memory, ScalarType fallback) {
  OPSCOPE_CHECK_AS(NotImplementedError, !layout || *layout == 0,
                   "opscope supports only the strided layout (torch.strided), got layout ",
                   *layout);
  OPSCOPE_CHECK(!pin_memory || !*pin_memory, "Pinned memory requires CUDA.");
  return dtype.value_or(fallback);
}

// Calls f(i, offset) for every element of a tensor with these sizes and strides, in row-major
// order: i counts elements 0..numel-1, offset is the element's position from the data pointer
// (offset = sum_d index[d] * strides[d]).
template <typename F>
void for_each_offset(IntArrayRef sizes, IntArrayRef strides, F&& f) {
  int64_t n = compute_numel(sizes);
  if (n == 0) return;
  size_t nd = sizes.size();
  DimVector index(nd, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(i, offset);
    for (size_t d = nd; d-- > 0;) {  // odometer increment, innermost dim first
      if (++index[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= (sizes[d] - 1) * strides[d];
      index[d] = 0;
    }
  }
}

using opscope::kGrainSize;

}  // namespace opscope::cpu::factory_util
