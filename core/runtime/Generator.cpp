// Generator: seed + stream position, and the Philox4x32-10 bijection behind every random op.
// See Generator.h for what a generator means; this file is how it is kept and how a counter
// block becomes four random words.
#include "core/runtime/Generator.h"

#include <map>
#include <random>

#include "core/runtime/Exception.h"

namespace opscope {

// --- GeneratorImpl -----------------------------------------------------------------------------

GeneratorImpl::GeneratorImpl(Device device, uint64_t seed) : device_(device), seed_(seed) {}

void GeneratorImpl::set_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  offset_ = 0;
}

uint64_t GeneratorImpl::seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seed_;
}

uint64_t GeneratorImpl::offset() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return offset_;
}

void GeneratorImpl::set_offset(uint64_t offset) {
  std::lock_guard<std::mutex> lock(mutex_);
  offset_ = offset;
}

uint64_t GeneratorImpl::seed_randomly() {
  std::random_device rd;
  uint64_t s = (static_cast<uint64_t>(rd()) << 32) | rd();
  set_seed(s);
  return s;
}

std::pair<uint64_t, uint64_t> GeneratorImpl::reserve(uint64_t blocks) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t first = offset_;
  offset_ += blocks;
  return {seed_, first};
}

// --- default generators ------------------------------------------------------------------------

const Generator& default_generator(Device device) {
  if (device.is_cpu()) {
    static const Generator cpu = make_intrusive<GeneratorImpl>(Device(DeviceType::CPU));
    return cpu;
  }
  // One per (type, index); an index of -1 ("the current device") means device 0 here.
  static std::mutex mutex;
  static std::map<std::pair<int, int>, Generator> others;
  std::lock_guard<std::mutex> lock(mutex);
  int index = device.has_index() ? device.index : 0;
  auto key = std::make_pair(static_cast<int>(device.type), index);
  auto it = others.find(key);
  if (it == others.end())
    it = others.emplace(key, make_intrusive<GeneratorImpl>(Device(device.type, index))).first;
  return it->second;  // std::map nodes never move: the reference stays valid
}

// --- Philox4x32-10 -----------------------------------------------------------------------------
//
// One round maps the counter (c0, c1, c2, c3) under key (k0, k1) to
//   hi(M0*c0), lo(M0*c0) = mul(0xD2511F53, c0)     hi(M1*c2), lo(M1*c2) = mul(0xCD9E8D57, c2)
//   (hi(M1*c2) ^ c1 ^ k0,  lo(M1*c2),  hi(M0*c0) ^ c3 ^ k1,  lo(M0*c0))
// and the key is bumped by the Weyl constants (golden ratio, sqrt(3) - 1) between rounds.
// Ten rounds, as Random123's philox4x32_10, whose known-answer vectors the tests check.

namespace {
constexpr uint32_t kPhiloxM0 = 0xD2511F53u;
constexpr uint32_t kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u;
constexpr uint32_t kPhiloxW1 = 0xBB67AE85u;

inline void philox_round(std::array<uint32_t, 4>& c, uint32_t k0, uint32_t k1) {
  uint64_t p0 = static_cast<uint64_t>(kPhiloxM0) * c[0];
  uint64_t p1 = static_cast<uint64_t>(kPhiloxM1) * c[2];
  uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
  uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
  c = {hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0};
}
}  // namespace

std::array<uint32_t, 4> philox4x32(uint64_t seed, uint64_t counter, uint64_t subsequence) {
  std::array<uint32_t, 4> c = {static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32),
                               static_cast<uint32_t>(subsequence),
                               static_cast<uint32_t>(subsequence >> 32)};
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kPhiloxW0;
      k1 += kPhiloxW1;
    }
    philox_round(c, k0, k1);
  }
  return c;
}

}  // namespace opscope
