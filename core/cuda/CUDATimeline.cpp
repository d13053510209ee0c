// The CUDA backend's DeviceTimeline: marks are CUDA events with timing, recorded on the current
// stream, placed on the host's clock from one anchor per device. See Note [Device time of an op]
// in core/runtime/DeviceTimer.h.
#include <cuda_runtime_api.h>
#include <time.h>

#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/cuda/CUDAGuard.h"
#include "core/cuda/CUDAStream.h"
#include "core/runtime/DeviceTimer.h"

namespace opscope::cuda {
namespace {

uint64_t monotonic_ns() {  // profiler::now_ns's clock
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Timing events by device, reused from one recording to the next (creating one costs more than
// recording it). No CUDA call when one is given back: that may happen after CUDA shut down.
class EventPool {
 public:
  // An event of the current device (the caller's guard set it), or null.
  cudaEvent_t take(int device) {
    {
      std::lock_guard lock(mutex_);
      auto& free = free_[device];
      if (!free.empty()) {
        cudaEvent_t e = free.back();
        free.pop_back();
        return e;
      }
    }
    cudaEvent_t e = nullptr;
    if (cudaEventCreateWithFlags(&e, cudaEventDefault) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    return e;
  }
  void give(int device, cudaEvent_t e) {
    std::lock_guard lock(mutex_);
    free_[device].push_back(e);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<int, std::vector<cudaEvent_t>> free_;
};

EventPool& pool() {
  static auto* p = new EventPool();  // never destroyed: recorders may outlive static teardown
  return *p;
}

class CUDATimeline final : public DeviceTimeline {
 public:
  ~CUDATimeline() override {
    for (const Mark& m : marks_) pool().give(m.device, m.event);
    for (auto& [device, a] : anchors_)
      if (a.event) pool().give(device, a.event);
  }

  uint64_t mark(int index) override {
    const int device = index >= 0 ? index : current_device();
    CUDAGuard guard(device);
    const Anchor* anchor = anchor_for(device);
    if (anchor == nullptr) return 0;
    cudaEvent_t e = pool().take(device);
    if (e == nullptr) return 0;
    const CUDAStream stream = getCurrentCUDAStream(device);
    if (cudaEventRecord(e, stream.stream()) != cudaSuccess) {
      (void)cudaGetLastError();
      pool().give(device, e);
      return 0;
    }
    std::lock_guard lock(mutex_);
    marks_.push_back({e, static_cast<int64_t>(stream.id()), device});
    return first_id_ + marks_.size() - 1;
  }

  std::vector<MarkTime> resolve(uint64_t& first_id) override {
    std::vector<Mark> marks;
    std::unordered_map<int, Anchor> anchors;
    {
      std::lock_guard lock(mutex_);
      marks.swap(marks_);
      first_id = first_id_;
      first_id_ += marks.size();
      anchors = anchors_;
    }
    std::vector<MarkTime> out(marks.size());
    for (size_t i = 0; i < marks.size(); ++i) {
      const Mark& m = marks[i];
      out[i].stream = m.stream;
      out[i].device = m.device;
      const Anchor& a = anchors.at(m.device);  // made before the mark, never removed
      CUDAGuard guard(m.device);
      float ms = 0;
      if (cudaEventSynchronize(m.event) == cudaSuccess &&
          cudaEventElapsedTime(&ms, a.event, m.event) == cudaSuccess) {
        out[i].ns = a.ns + static_cast<uint64_t>(ms > 0 ? static_cast<double>(ms) * 1e6 : 0.0);
      } else {
        (void)cudaGetLastError();
      }
      pool().give(m.device, m.event);
    }
    return out;
  }

 private:
  struct Mark {
    cudaEvent_t event;
    int64_t stream;
    int device;
  };
  struct Anchor {
    cudaEvent_t event = nullptr;
    uint64_t ns = 0;
  };

  // The device's anchor: on first use, an event recorded on the current stream and waited for
  // at once, its time read on the host's clock then (the device is idle past it).
  const Anchor* anchor_for(int device) {
    std::lock_guard lock(mutex_);
    auto [it, fresh] = anchors_.try_emplace(device);
    Anchor& a = it->second;
    if (fresh) {
      cudaEvent_t e = pool().take(device);
      if (e != nullptr && cudaEventRecord(e, getCurrentCUDAStream(device).stream()) == cudaSuccess &&
          cudaEventSynchronize(e) == cudaSuccess) {
        a.event = e;
        a.ns = monotonic_ns();
      } else {
        (void)cudaGetLastError();
        if (e != nullptr) pool().give(device, e);
      }
    }
    return a.event ? &a : nullptr;
  }

  std::mutex mutex_;
  std::vector<Mark> marks_;
  uint64_t first_id_ = 1;
  std::unordered_map<int, Anchor> anchors_;  // by device; node-based: pointers stay valid
};

const bool g_registered = [] {
  set_device_timeline_maker(DeviceType::CUDA,
                            [] { return std::unique_ptr<DeviceTimeline>(new CUDATimeline()); });
  return true;
}();

}  // namespace
}  // namespace opscope::cuda
