// CUDAStream: a queue of work on one GPU, and the stream each thread is using.
//
// Semantically a stream orders work: kernels and copies queued on one stream run one after the
// other, on different streams they may overlap. Each thread has a current stream per device
// (opscope.cuda.current_stream(), changed by `with opscope.cuda.stream(s):`), on which every
// kernel launches and whose pool the caching allocator takes blocks from; it starts as the
// default stream (the legacy NULL stream, cudaStream_t 0, which waits for and is waited on by
// the device's other blocking streams). New streams come from a pool of 32 per device and
// priority, created on first use, handed out round-robin (as torch's getStreamFromPool).
//
// In implementation terms a CUDAStream is a value: (device index, cudaStream_t).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/runtime/Device.h"

namespace opscope::cuda {

class CUDAStream {
 public:
  CUDAStream(int device, cudaStream_t stream) : device_(device), stream_(stream) {}

  cudaStream_t stream() const { return stream_; }
  operator cudaStream_t() const { return stream_; }
  int device_index() const { return device_; }
  Device device() const { return Device(DeviceType::CUDA, device_); }
  // The stream as an integer: cudaStream_t's value (0 for the default stream), as torch's
  // Stream.cuda_stream.
  uintptr_t id() const { return reinterpret_cast<uintptr_t>(stream_); }
  int priority() const;
  bool query() const;        // true when all its work is done
  void synchronize() const;  // waits for all its work

  friend bool operator==(const CUDAStream& a, const CUDAStream& b) {
    return a.device_ == b.device_ && a.stream_ == b.stream_;
  }

 private:
  int device_;
  cudaStream_t stream_;
};

// device -1: the current device.
CUDAStream getDefaultCUDAStream(int device = -1);
CUDAStream getCurrentCUDAStream(int device = -1);
CUDAStream getStreamFromPool(bool high_priority = false, int device = -1);
// Makes `stream` the calling thread's current stream on its device.
void setCurrentCUDAStream(CUDAStream stream);
// A stream that is not the default stream and did not come from the pool (an external one,
// torch.cuda.ExternalStream): taken as is.
CUDAStream wrap_stream(int device, cudaStream_t stream);

}  // namespace opscope::cuda
