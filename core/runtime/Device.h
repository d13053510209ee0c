// Device: where a tensor's memory lives — `cpu`, `cuda`, `cuda:1`, `meta`.
//
// Semantically a device is a kind of memory plus an index among devices of that kind; an index
// of -1 means "the current one" (torch.device("cuda") prints as `cuda`, and means cuda:N for the
// current N). In implementation terms it is two bytes, compared and hashed as a value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opscope {

enum class DeviceType : int8_t { CPU, CUDA, Meta, PrivateUse1 };
constexpr int kNumDeviceTypes = 4;

std::string_view device_type_name(DeviceType t);  // "cpu", "cuda", "meta", "privateuseone"

struct Device {
  DeviceType type = DeviceType::CPU;
  int8_t index = -1;

  constexpr Device() = default;
  constexpr Device(DeviceType t, int index = -1) : type(t), index(static_cast<int8_t>(index)) {}
  // Parses like torch.device: "cpu", "cuda", "cuda:1", "meta". Throws on anything else.
  static Device parse(std::string_view spec);

  bool is_cpu() const { return type == DeviceType::CPU; }
  bool is_cuda() const { return type == DeviceType::CUDA; }
  bool has_index() const { return index >= 0; }
  std::string str() const;  // "cpu", "cuda:1"

  friend constexpr bool operator==(Device a, Device b) {
    return a.type == b.type && a.index == b.index;
  }
};

}  // namespace opscope
