// The launcher of the ternary family's CUDA kernels (ternary.cu), as Launch.h declares the
// others: plain arguments, no CUDA or opscope headers. Kept apart from Launch.h, which most
// kernel files include, so that adding it rebuilt two files.
#pragma once

#include <cstdint>

#include "core/cuda/kernels/Launch.h"

namespace opscope::cuda {

// out = in0 + value * (in1 * in2)  (Div: in0 + value * (in1 / in2)), torch's CUDA grouping, in
// acc_t of the operands' one dtype (float for the 16-bit floats); value as a double for the
// floating dtypes, as an int64 for the integers. Operands: out, self, tensor1, tensor2.
void launch_addc(bool div, const ElementwiseArgs& args, double value, int64_t ivalue,
                 void* stream);

}  // namespace opscope::cuda
