// See Note [Device time of an op] in DeviceTimer.h.
#include "core/runtime/DeviceTimer.h"

#include <array>
#include <atomic>

namespace opscope {
namespace {
// By DeviceType; set once at load, read by recorders.
std::array<std::atomic<DeviceTimelineMaker>, 4> g_makers{};
}  // namespace

void set_device_timeline_maker(DeviceType type, DeviceTimelineMaker maker) {
  g_makers[static_cast<size_t>(type)].store(maker, std::memory_order_release);
}

std::unique_ptr<DeviceTimeline> make_device_timeline(DeviceType type) {
  DeviceTimelineMaker maker = g_makers[static_cast<size_t>(type)].load(std::memory_order_acquire);
  return maker ? maker() : nullptr;
}

}  // namespace opscope
