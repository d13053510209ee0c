// CUDAEvent: a marker queued on a stream, for ordering streams and for timing.
//
// Semantically an event is "the point in a stream's queue where it was recorded": query() says
// whether the work before it is done, synchronize() waits for that on the host, block(s) makes
// stream s wait for it on the device (no host wait), and with timing enabled elapsed_time(end)
// gives the milliseconds between two recorded events. As in torch, the cudaEvent_t is created on
// first record, on the recording stream's device, and an event never recorded counts as done.
#pragma once

#include <cuda_runtime_api.h>

#include "core/cuda/CUDAStream.h"

namespace opscope::cuda {

class CUDAEvent {
 public:
  // flags: cudaEventDefault (timing on), cudaEventDisableTiming, cudaEventBlockingSync, ...
  explicit CUDAEvent(unsigned flags = cudaEventDisableTiming) : flags_(flags) {}
  ~CUDAEvent();
  CUDAEvent(const CUDAEvent&) = delete;
  CUDAEvent& operator=(const CUDAEvent&) = delete;

  void record(const CUDAStream& stream);
  void block(const CUDAStream& stream);  // stream waits for this event
  bool query() const;
  void synchronize() const;
  // Milliseconds from this event to `end`; both recorded, both with timing.
  float elapsed_time(const CUDAEvent& end) const;

  bool was_recorded() const { return recorded_; }
  int device_index() const { return device_; }
  cudaEvent_t event() const { return event_; }

 private:
  unsigned flags_;
  bool recorded_ = false;
  int device_ = -1;
  cudaEvent_t event_ = nullptr;
};

}  // namespace opscope::cuda
