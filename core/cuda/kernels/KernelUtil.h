// Host-side helpers of the CUDA kernels' .cpp files: a built TensorIterator as ElementwiseArgs,
// a tensor as a TensorArg, the current stream, and the device flag through which a kernel reports
// a bad index (read back after the launch to raise torch's message).
#pragma once

#include <string_view>

#include "core/cuda/CUDAGuard.h"
#include "core/cuda/CUDAStream.h"
#include "core/cuda/kernels/Launch.h"
#include "core/ops/TensorIterator.h"

namespace opscope::cuda {

inline DT dt_of(ScalarType t) { return static_cast<DT>(static_cast<int8_t>(t)); }

// The calling thread's current stream on the current device (set by the kernel's CUDAGuard).
inline void* current_stream_ptr() { return static_cast<void*>(getCurrentCUDAStream().stream()); }

// The operands of `iter` as a kernel reads them; CPU scalars (0-d CPU tensors, Python numbers)
// travel by value. Throws when the iteration keeps more than kMaxDims dims.
ElementwiseArgs make_args(const TensorIterator& iter);
// A CUDA tensor's data, sizes and element strides; more than kMaxDims dims is refused.
TensorArg make_tensor_arg(const Tensor& t);

// Refuses a tensor that is not on CUDA as torch's "Expected all tensors to be on the same
// device" does; `name` is the argument's.
void check_same_device(const Tensor& a, const Tensor& b, std::string_view op);

// A zeroed int64 on the device for kernels to report a bad index in, and its read-back.
class DeviceFlag {
 public:
  explicit DeviceFlag(Device device);
  int64_t* ptr() const { return flag_.data_ptr<int64_t>(); }
  // The flag's value after the work queued so far (synchronizes the current stream).
  int64_t read() const;

 private:
  Tensor flag_;
};

}  // namespace opscope::cuda
