// Generator: the state of a random number stream (torch.Generator), counter-based.
//
// Semantically a generator is a seed plus a position in the stream it defines. manual_seed(s)
// resets both; every random op reserves a block of the stream and advances the position, so two
// runs from the same seed produce the same numbers, whatever the thread count — and a CUDA kernel
// can produce the same stream as the CPU.
//
// In implementation terms the stream is Philox4x32-10 (Salmon et al., "Parallel random numbers:
// as easy as 1, 2, 3", SC'11): a keyed bijection of a 128-bit counter. Element block i of a
// reservation starting at offset o is philox(key = seed, counter = o + i), four uint32 per block.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>

#include "core/runtime/Device.h"
#include "core/runtime/intrusive_ptr.h"

namespace opscope {

class GeneratorImpl final : public intrusive_target {
 public:
  explicit GeneratorImpl(Device device = Device(DeviceType::CPU), uint64_t seed = kDefaultSeed);

  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // torch's default_rng_seed_val

  Device device() const { return device_; }
  void set_seed(uint64_t seed);  // also rewinds the stream to its start
  uint64_t seed() const;
  uint64_t offset() const;  // position in the stream, in 128-bit counter blocks
  void set_offset(uint64_t offset);
  // A non-deterministic seed (from std::random_device), installed and returned.
  uint64_t seed_randomly();

  // Reserves `blocks` counter blocks; returns {seed, first block}. Thread-safe.
  std::pair<uint64_t, uint64_t> reserve(uint64_t blocks);

 private:
  mutable std::mutex mutex_;
  Device device_;
  uint64_t seed_;
  uint64_t offset_ = 0;
};

using Generator = intrusive_ptr<GeneratorImpl>;

// The default generator of a device (torch.default_generator for CPU).
const Generator& default_generator(Device device = Device(DeviceType::CPU));

// Philox4x32-10: four random uint32 for counter block `counter` of the stream keyed by `seed`.
std::array<uint32_t, 4> philox4x32(uint64_t seed, uint64_t counter, uint64_t subsequence = 0);

// Uniform float in [0, 1) from 24 random bits / double from 53 bits, as torch does.
inline float uint32_to_uniform_float(uint32_t x) {
  return static_cast<float>(x >> 8) * (1.0f / 16777216.0f);
}
inline double uint64_to_uniform_double(uint64_t x) {
  return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace opscope
