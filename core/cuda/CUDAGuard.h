// CUDAGuard: makes a CUDA device current for a scope, and restores the previous one after.
//
// Semantically the guard answers "on which GPU does this code run": a kernel launch, an
// allocation or a cudaMemcpy goes to the current device, so every CUDA kernel opens with
// `CUDAGuard guard(self.device());` (torch's generated wrappers do the same with a DeviceGuard),
// and the stack view at a CUDA op shows it. Setting the device the thread already has costs one
// cudaGetDevice and no cudaSetDevice.
#pragma once

#include "core/cuda/CUDAFunctions.h"

namespace opscope::cuda {

class CUDAGuard {
 public:
  explicit CUDAGuard(int index) : previous_(::opscope::cuda::current_device()) {
    if (index >= 0 && index != previous_) set_device(index);
    current_ = index >= 0 ? index : previous_;
  }
  explicit CUDAGuard(Device device) : CUDAGuard(device.is_cuda() ? device_index(device) : -1) {}
  ~CUDAGuard() {
    if (current_ != previous_) cudaSetDevice(previous_);  // no throw from a destructor
  }
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;

  int current_device() const { return current_; }
  int original_device() const { return previous_; }

 private:
  int previous_;
  int current_;
};

}  // namespace opscope::cuda
