#include "core/cuda/CUDAEvent.h"

#include "core/cuda/CUDAFunctions.h"
#include "core/cuda/CUDAGuard.h"

namespace opscope::cuda {

CUDAEvent::~CUDAEvent() {
  if (event_) {
    CUDAGuard guard(device_);
    cudaEventDestroy(event_);
  }
}

void CUDAEvent::record(const CUDAStream& stream) {
  CUDAGuard guard(stream.device_index());
  if (!event_) {
    OPSCOPE_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags_));
    device_ = stream.device_index();
  }
  OPSCOPE_CHECK(device_ == stream.device_index(), "Event device ", device_,
                " does not match recording stream's device ", stream.device_index(), ".");
  OPSCOPE_CUDA_CHECK(cudaEventRecord(event_, stream.stream()));
  recorded_ = true;
}

void CUDAEvent::block(const CUDAStream& stream) {
  if (!recorded_) return;
  CUDAGuard guard(stream.device_index());
  OPSCOPE_CUDA_CHECK(cudaStreamWaitEvent(stream.stream(), event_, 0));
}

bool CUDAEvent::query() const {
  if (!recorded_) return true;
  cudaError_t err = cudaEventQuery(event_);
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  OPSCOPE_CUDA_CHECK(err);
  return true;
}

void CUDAEvent::synchronize() const {
  if (recorded_) OPSCOPE_CUDA_CHECK(cudaEventSynchronize(event_));
}

float CUDAEvent::elapsed_time(const CUDAEvent& end) const {
  OPSCOPE_CHECK(recorded_ && end.recorded_,
                "Both events must be recorded before calculating elapsed time.");
  float ms = 0;
  CUDAGuard guard(device_);
  OPSCOPE_CUDA_CHECK(cudaEventElapsedTime(&ms, event_, end.event_));
  return ms;
}

}  // namespace opscope::cuda
