#include "core/cuda/CUDAStream.h"

#include <array>
#include <atomic>
#include <mutex>

#include "core/cuda/CUDAFunctions.h"
#include "core/cuda/CUDAGuard.h"

namespace opscope::cuda {

namespace {
constexpr int kMaxDevices = 64;
constexpr int kStreamsPerPool = 32;

struct DevicePools {
  std::once_flag created;
  cudaStream_t low[kStreamsPerPool] = {};
  cudaStream_t high[kStreamsPerPool] = {};
  std::atomic<uint32_t> next_low{0}, next_high{0};
};
std::array<DevicePools, kMaxDevices> g_pools;

// The calling thread's current stream per device; nullptr (the default stream) until set.
thread_local std::array<cudaStream_t, kMaxDevices> t_current{};

int resolve(int device) {
  int d = device < 0 ? current_device() : device;
  OPSCOPE_CHECK(d < kMaxDevices, "opscope supports CUDA devices 0..", kMaxDevices - 1);
  return d;
}

void create_pools(int device, DevicePools& pools) {
  CUDAGuard guard(device);
  int least = 0, greatest = 0;  // numerically: greatest priority is the lowest number
  OPSCOPE_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  for (int i = 0; i < kStreamsPerPool; ++i) {
    OPSCOPE_CUDA_CHECK(cudaStreamCreateWithPriority(&pools.low[i], cudaStreamNonBlocking, least));
    OPSCOPE_CUDA_CHECK(
        cudaStreamCreateWithPriority(&pools.high[i], cudaStreamNonBlocking, greatest));
  }
}
}  // namespace

int CUDAStream::priority() const {
  int p = 0;
  OPSCOPE_CUDA_CHECK(cudaStreamGetPriority(stream_, &p));
  return p;
}

bool CUDAStream::query() const {
  cudaError_t err = cudaStreamQuery(stream_);
  if (err == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  OPSCOPE_CUDA_CHECK(err);
  return true;
}

void CUDAStream::synchronize() const {
  OPSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

CUDAStream getDefaultCUDAStream(int device) {
  return CUDAStream(resolve(device), nullptr);
}

CUDAStream getCurrentCUDAStream(int device) {
  int d = resolve(device);
  return CUDAStream(d, t_current[d]);
}

CUDAStream getStreamFromPool(bool high_priority, int device) {
  int d = resolve(device);
  DevicePools& pools = g_pools[d];
  std::call_once(pools.created, create_pools, d, std::ref(pools));
  auto& next = high_priority ? pools.next_high : pools.next_low;
  uint32_t i = next.fetch_add(1, std::memory_order_relaxed) % kStreamsPerPool;
  return CUDAStream(d, high_priority ? pools.high[i] : pools.low[i]);
}

void setCurrentCUDAStream(CUDAStream stream) {
  t_current[resolve(stream.device_index())] = stream.stream();
}

CUDAStream wrap_stream(int device, cudaStream_t stream) {
  return CUDAStream(resolve(device), stream);
}

}  // namespace opscope::cuda
