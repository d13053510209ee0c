// The CUDA devices of this process: how many, which one is current, and CUDA errors as opscope
// errors.
//
// Semantically a CUDA device is one GPU that CUDA_VISIBLE_DEVICES leaves visible, numbered from 0;
// each host thread has a current one (cudaSetDevice), on which kernels launch and memory is
// allocated unless a DeviceGuard (CUDAGuard.h) says otherwise. Nothing here initialises CUDA until
// asked: device_count() answers 0 on a machine without a driver or GPU, and only
// device_count_ensure_non_zero() — what opscope.cuda._lazy_init() calls — turns that into torch's
// error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/runtime/Device.h"
#include "core/runtime/Exception.h"

namespace opscope::cuda {

// Throws opscope::Error "CUDA error: <what the runtime says>" unless err is cudaSuccess (and
// clears the runtime's sticky last error). Used as OPSCOPE_CUDA_CHECK(cudaMemcpy(...)).
void check_cuda(cudaError_t err, const char* what, const char* file, int line);
#define OPSCOPE_CUDA_CHECK(expr) ::opscope::cuda::check_cuda((expr), #expr, __FILE__, __LINE__)

// Visible devices; 0 when there is no driver or no GPU (never throws).
int device_count();
// Visible devices; throws torch's RuntimeError when none can be used ("Found no NVIDIA driver on
// your system. ..." / "No CUDA GPUs are available").
int device_count_ensure_non_zero();

int current_device();
void set_device(int index);
// The index a CUDA Device means: its own, or the current device's for `cuda` without one.
// Checks it is in range (torch's "CUDA error: invalid device ordinal").
int device_index(Device device);

// Waits for all work on the current device.
void device_synchronize();

}  // namespace opscope::cuda
