// The device's own time for the kernels an op launched: what opscope.profiler.profile shows as
// "Self CUDA" / "CUDA total" (Note [Device time of an op]).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/runtime/Device.h"

namespace opscope {

// Note [Device time of an op]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A CUDA kernel runs after its op has returned, when the stream's queue reaches it, so the host
// clock that times an op's dispatch steps says nothing of the device's work. A backend whose
// kernels run that way registers a DeviceTimeline maker. A recorder asked for device time
// (opscope.profiler.profile with ProfilerActivity.CUDA) makes one timeline for its recording,
// marks the stream right before and right after each of that backend's kernel steps (a mark is
// a CUDA event), and when the recording is taken asks for every mark's time, once the device has
// passed it, on the host's clock (CLOCK_MONOTONIC ns, as the other events): the timeline waits
// for an anchor mark as soon as it is first used on a device and reads now_ns() then, and places
// later marks by their elapsed time from that anchor. A kernel step's device span runs from its
// begin mark to its end mark: the kernels its op launched on that stream, with any gap between
// them (none for one kernel). Marking costs two event records per kernel step (~2 x 1 us of host
// time on an H200), so only a recorder that asks for device time marks.
class DeviceTimeline {
 public:
  virtual ~DeviceTimeline() = default;
  // A mark on the current stream of device `index` (-1: the current device); 0 when none could be
  // made. Ids count up from 1 within the timeline. Thread-safe.
  virtual uint64_t mark(int index) = 0;
  struct MarkTime {
    uint64_t ns = 0;     // on CLOCK_MONOTONIC; 0: unknown
    int64_t stream = 0;  // the stream's id (0: the default stream)
    int device = -1;
  };
  // The times of the marks made since the last call (ids first_id, first_id + 1, ...), waiting
  // for the device to pass them; their events go back to the backend's pool.
  virtual std::vector<MarkTime> resolve(uint64_t& first_id) = 0;
};

using DeviceTimelineMaker = std::unique_ptr<DeviceTimeline> (*)();
// Called once by a backend when it loads (core/cuda/CUDAEvent.cpp for CUDA).
void set_device_timeline_maker(DeviceType type, DeviceTimelineMaker maker);
// A new timeline for that backend's kernels; null when the backend is not built or registered.
std::unique_ptr<DeviceTimeline> make_device_timeline(DeviceType type);

}  // namespace opscope
