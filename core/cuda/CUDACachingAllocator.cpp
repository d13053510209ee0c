#include "core/cuda/CUDACachingAllocator.h"

#include <cuda_runtime.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include "core/cuda/CUDAFunctions.h"
#include "core/cuda/CUDAGuard.h"
#include "core/runtime/CheckedMath.h"

namespace opscope::cuda {

namespace {
constexpr int kMaxDevices = 64;

// Segments and events of one device from the CUDA runtime.
class CudaMemory final : public DeviceMemory {
 public:
  explicit CudaMemory(int device) : device_(device) {}
  void* malloc(size_t size) override {
    CUDAGuard guard(device_);
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, size);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      return nullptr;
    }
    OPSCOPE_CUDA_CHECK(err);
    return p;
  }
  void free(void* ptr) override {
    CUDAGuard guard(device_);
    OPSCOPE_CUDA_CHECK(cudaFree(ptr));
  }
  void* record_event(StreamId stream) override {
    CUDAGuard guard(device_);
    cudaEvent_t e = nullptr;
    OPSCOPE_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    OPSCOPE_CUDA_CHECK(cudaEventRecord(e, reinterpret_cast<cudaStream_t>(stream)));
    return e;
  }
  bool event_done(void* event) override {
    cudaError_t err = cudaEventQuery(static_cast<cudaEvent_t>(event));
    if (err == cudaErrorNotReady) {
      cudaGetLastError();
      return false;
    }
    OPSCOPE_CUDA_CHECK(err);
    return true;
  }
  void synchronize_event(void* event) override {
    OPSCOPE_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(event)));
  }
  void destroy_event(void* event) override { cudaEventDestroy(static_cast<cudaEvent_t>(event)); }
  std::pair<size_t, size_t> mem_info() override {
    CUDAGuard guard(device_);
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) cudaGetLastError();
    return {free_bytes, total};
  }

 private:
  int device_;
};

// Device `index`'s opscope::Allocator: blocks from its caching allocator, on the current stream.
class CudaDeviceAllocator final : public Allocator {
 public:
  explicit CudaDeviceAllocator(int index) : index_(index), memory_(index), cache_(index, &memory_) {}
  Device device() const override { return Device(DeviceType::CUDA, index_); }
  DeviceCachingAllocator& cache() { return cache_; }

 protected:
  void* raw_allocate(size_t nbytes) override {
    return cache_.allocate(nbytes, getCurrentCUDAStream(index_).id());
  }
  void raw_deallocate(void* ptr, size_t) override { cache_.free(ptr); }

 private:
  int index_;
  CudaMemory memory_;
  DeviceCachingAllocator cache_;
};

std::mutex g_mutex;  // making an allocator
// Created on first use (under g_mutex), never freed; read without the lock.
std::array<std::atomic<CudaDeviceAllocator*>, kMaxDevices> g_devices{};

CudaDeviceAllocator& device_allocator(int index) {
  OPSCOPE_CHECK(index >= 0 && index < kMaxDevices, "invalid CUDA device index ", index);
  if (CudaDeviceAllocator* a = g_devices[index].load(std::memory_order_acquire)) return *a;
  std::lock_guard lock(g_mutex);
  // Never freed: tensors held by static objects are freed after main returns.
  if (!g_devices[index].load(std::memory_order_relaxed))
    g_devices[index].store(new CudaDeviceAllocator(index), std::memory_order_release);
  return *g_devices[index].load(std::memory_order_relaxed);
}

// get_allocator(DeviceType::CUDA), for code that allocates with make_empty(..., cuda): the
// current device's allocator, so such code allocates where its CUDAGuard points.
class CurrentDeviceAllocator final : public Allocator {
 public:
  Device device() const override { return Device(DeviceType::CUDA, current_device()); }

 protected:
  void* raw_allocate(size_t nbytes) override {
    return device_allocator(current_device()).cache().allocate(
        nbytes, getCurrentCUDAStream().id());
  }
  void raw_deallocate(void* ptr, size_t) override {
    // A block knows nothing of its device here: the device allocator holding it as an allocated
    // block is found by a lookup in each (one, with one GPU) rather than by asking the driver
    // (cudaPointerGetAttributes: a driver call on every free of a CUDA tensor).
    const int devices = device_count();
    for (int index = 0; index < devices && index < kMaxDevices; ++index) {
      CudaDeviceAllocator* a = g_devices[index].load(std::memory_order_acquire);
      if (a != nullptr && a->cache().block_size(ptr) != 0) return a->cache().free(ptr);
    }
    cudaPointerAttributes attr{};
    OPSCOPE_CUDA_CHECK(cudaPointerGetAttributes(&attr, ptr));
    device_allocator(attr.device).cache().free(ptr);
  }
};

const bool g_registered = [] {
  static CurrentDeviceAllocator current;
  set_allocator(DeviceType::CUDA, &current);
  return true;
}();
}  // namespace

Allocator* cuda_allocator(int index) {
  return &device_allocator(index < 0 ? current_device() : index);
}

DeviceCachingAllocator& caching_allocator(int index) {
  return device_allocator(index).cache();
}

std::vector<int> devices_in_use() {
  std::lock_guard lock(g_mutex);
  std::vector<int> out;
  for (int i = 0; i < kMaxDevices; ++i)
    if (g_devices[i].load(std::memory_order_acquire)) out.push_back(i);
  return out;
}

void empty_cache() {
  for (int d : devices_in_use()) caching_allocator(d).empty_cache();
}

void record_stream(const Tensor& tensor, const CUDAStream& stream) {
  OPSCOPE_CHECK(tensor.device().is_cuda(), "record_stream: expected a CUDA tensor, got one on ",
                tensor.device().str());
  void* ptr = tensor->storage()->data();
  if (!ptr || tensor->storage()->is_external()) return;
  caching_allocator(tensor.device().index).record_stream(ptr, stream.id());
}

Tensor empty_cuda(IntArrayRef sizes, ScalarType dtype, Device device) {
  return empty_strided_cuda(sizes, contiguous_strides(sizes), dtype, device);
}

Tensor empty_strided_cuda(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                          Device device) {
  int index = device_index(device);
  OPSCOPE_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  check_size_nonnegative(sizes);
  int64_t nbytes = storage_nbytes(sizes, strides, element_size(dtype));
  CUDAGuard guard(index);
  auto storage = make_intrusive<StorageImpl>(static_cast<size_t>(nbytes), cuda_allocator(index));
  return Tensor(make_intrusive<TensorImpl>(std::move(storage), dtype, sizes, strides, 0));
}

}  // namespace opscope::cuda
