#include "core/cuda/CUDAFunctions.h"

#include <cuda_runtime.h>

namespace opscope::cuda {

void check_cuda(cudaError_t err, const char* what, const char* file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear it, so the next call does not report it again
  throw Error(detail::str("CUDA error: ", cudaGetErrorString(err),
                          "\nCUDA kernel errors might be asynchronously reported at some other "
                          "API call, so the stacktrace below might be incorrect.\n(", what, " at ",
                          file, ":", line, ")"));
}

// torch's device_count_impl (c10/cuda/CUDAFunctions.cpp), with its messages.
static int device_count_impl(bool fail_if_no_driver) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess) return count;
  cudaGetLastError();
  switch (err) {
    case cudaErrorNoDevice:
      return 0;
    case cudaErrorInsufficientDriver: {
      int version = 0;
      cudaDriverGetVersion(&version);
      cudaGetLastError();
      if (version <= 0) {
        OPSCOPE_CHECK(!fail_if_no_driver,
                      "Found no NVIDIA driver on your system. Please check that you have an "
                      "NVIDIA GPU and installed a driver from "
                      "http://www.nvidia.com/Download/index.aspx");
        return 0;
      }
      OPSCOPE_CHECK(!fail_if_no_driver, "The NVIDIA driver on your system is too old (found version ",
                    version,
                    "). Please update your GPU driver by downloading and installing a new version "
                    "from the URL: http://www.nvidia.com/Download/index.aspx");
      return 0;
    }
    case cudaErrorInitializationError:
      OPSCOPE_CHECK(!fail_if_no_driver,
                    "CUDA driver initialization failed, you might not have a CUDA gpu.");
      return 0;
    default:
      OPSCOPE_CHECK(!fail_if_no_driver, "Unexpected error from cudaGetDeviceCount(). Error ",
                    static_cast<int>(err), ": ", cudaGetErrorString(err));
      return 0;
  }
}

int device_count() {
  // Counted once: CUDA_VISIBLE_DEVICES is read when the runtime starts, as in torch.
  static int count = [] {
    try {
      return device_count_impl(false);
    } catch (const Error&) {
      return 0;
    }
  }();
  return count;
}

int device_count_ensure_non_zero() {
  int count = device_count_impl(true);
  OPSCOPE_CHECK(count > 0, "No CUDA GPUs are available");
  return count;
}

int current_device() {
  int d = 0;
  OPSCOPE_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

void set_device(int index) {
  OPSCOPE_CUDA_CHECK(cudaSetDevice(index));
}

int device_index(Device device) {
  OPSCOPE_CHECK(device.is_cuda(), "expected a CUDA device, got ", device.str());
  if (!device.has_index()) return current_device();
  if (device.index >= device_count()) {
    device_count_ensure_non_zero();  // torch's message when there is no device at all
    OPSCOPE_CUDA_CHECK(cudaErrorInvalidDevice);
  }
  return device.index;
}

void device_synchronize() {
  OPSCOPE_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace opscope::cuda
