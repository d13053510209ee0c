#include "core/runtime/Device.h"

#include <charconv>

#include "core/runtime/Exception.h"
#include "core/runtime/Scalar.h"

namespace opscope {

std::string_view device_type_name(DeviceType t) {
  switch (t) {
    case DeviceType::CPU:
      return "cpu";
    case DeviceType::CUDA:
      return "cuda";
    case DeviceType::Meta:
      return "meta";
    case DeviceType::PrivateUse1:
      return "privateuseone";
  }
  return "?";
}

Device Device::parse(std::string_view spec) {
  std::string_view kind = spec, index;
  if (auto colon = spec.find(':'); colon != std::string_view::npos) {
    kind = spec.substr(0, colon);
    index = spec.substr(colon + 1);
  }
  Device d;
  bool known = false;
  for (DeviceType t :
       {DeviceType::CPU, DeviceType::CUDA, DeviceType::Meta, DeviceType::PrivateUse1}) {
    if (device_type_name(t) == kind) {
      d.type = t;
      known = true;
    }
  }
  OPSCOPE_CHECK(known,
                "Expected one of cpu, cuda, meta, privateuseone device type at start of device "
                "string: ",
                spec);
  if (spec.find(':') != std::string_view::npos) {
    int value = -1;
    auto [end, ec] = std::from_chars(index.data(), index.data() + index.size(), value);
    OPSCOPE_CHECK(ec == std::errc() && end == index.data() + index.size() && value >= 0 &&
                      value < 128 && !index.empty(),
                  "Invalid device string: '", spec, "'");
    d.index = static_cast<int8_t>(value);
  }
  return d;
}

std::string Device::str() const {
  std::string s(device_type_name(type));
  if (index >= 0) s += ":" + std::to_string(index);
  return s;
}

std::string Scalar::str() const {
  switch (kind_) {
    case Kind::Bool:
      return i_ ? "True" : "False";
    case Kind::Int:
      return std::to_string(i_);
    case Kind::Double: {
      char buf[32];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d_);
      std::string s(buf, end);
      if (s.find_first_of(".eninf") == std::string::npos) s += ".0";
      return s;
    }
  }
  return "?";
}

}  // namespace opscope
