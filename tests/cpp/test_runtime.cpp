// Runtime values: ScalarType promotion, Device parsing, Half/BFloat16 rounding, the CPU
// allocator's statistics and storage lifetime.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/tensor/Tensor.h"

using namespace opscope;
using S = ScalarType;

TEST_CASE("promote_types follows torch.promote_types") {
  CHECK(promote_types(S::UInt8, S::Int8) == S::Int16);
  CHECK(promote_types(S::UInt8, S::Int64) == S::Int64);
  CHECK(promote_types(S::Bool, S::Int32) == S::Int32);
  CHECK(promote_types(S::Int64, S::Float16) == S::Float16);
  CHECK(promote_types(S::Float16, S::BFloat16) == S::Float32);
  CHECK(promote_types(S::BFloat16, S::Float64) == S::Float64);
  CHECK(promote_types(S::Int32, S::Int16) == S::Int32);
  CHECK(promote_types(S::Bool, S::Bool) == S::Bool);
}

TEST_CASE("result type: dim tensors, 0-d tensors and wrapped numbers rank differently") {
  auto result = [](std::initializer_list<std::tuple<S, int, bool>> operands) {
    ResultTypeState st;
    for (auto [t, dim, wrapped] : operands) st.add_tensor(t, dim, wrapped);
    return st.result();
  };
  CHECK(result({{S::Int32, 1, false}, {S::Float64, 0, true}}) == S::Float32);  // int + 2.5
  CHECK(result({{S::Int32, 1, false}, {S::Int64, 0, true}}) == S::Int32);      // int32 + 2
  CHECK(result({{S::Float16, 1, false}, {S::Float64, 0, false}}) == S::Float16);
  CHECK(result({{S::Int32, 1, false}, {S::Int64, 0, false}}) == S::Int32);
  CHECK(result({{S::Int32, 1, false}, {S::Float64, 0, false}}) ==
        S::Float64);  // 0-d float wins the category
  CHECK(result({{S::Bool, 1, false}, {S::Int64, 0, true}}) == S::Int64);
  CHECK(result({{S::UInt8, 1, false}, {S::Int8, 1, false}}) == S::Int16);
  CHECK(result({{S::Int64, 0, false}, {S::Float64, 0, true}}) == S::Float32);
  CHECK(result({{S::Bool, 0, true}, {S::Bool, 1, false}}) == S::Bool);
  CHECK(can_cast(S::Int64, S::Float32));
  CHECK_FALSE(can_cast(S::Float32, S::Int64));
  CHECK_FALSE(can_cast(S::Int64, S::Bool));
}

TEST_CASE("Device parses and prints like torch.device") {
  CHECK(Device::parse("cpu").str() == "cpu");
  CHECK(Device::parse("cuda").str() == "cuda");
  CHECK(Device::parse("cuda:1").index == 1);
  CHECK(Device::parse("cuda:1").str() == "cuda:1");
  CHECK(Device::parse("meta").type == DeviceType::Meta);
  CHECK_THROWS_WITH_AS(Device::parse("tpu"), doctest::Contains("Expected one of cpu, cuda"), Error);
  CHECK_THROWS_WITH_AS(Device::parse("cuda:x"),
                       doctest::Contains("Invalid device string: 'cuda:x'"), Error);
  CHECK_THROWS_AS(Device::parse("cuda:-1"), Error);
}

TEST_CASE("Half and BFloat16 round to nearest even") {
  CHECK(float(Half(1.0f)) == 1.0f);
  CHECK(float(Half(65504.0f)) == 65504.0f);
  CHECK(std::isinf(float(Half(65520.0f))));
  CHECK(float(Half(5.9604644775390625e-08f)) == 5.9604644775390625e-08f);  // smallest subnormal
  CHECK(float(Half(1.0f + 1.0f / 2048)) == 1.0f);                          // tie -> even
  CHECK(float(Half(1.0f + 3.0f / 2048)) == 1.0f + 2.0f / 1024);
  CHECK(std::isnan(float(Half(NAN))));
  CHECK(float(BFloat16(1.0f + 1.0f / 256)) == 1.0f);  // tie -> even
  CHECK(float(BFloat16(3.140625f)) == 3.140625f);
  CHECK(std::isnan(float(BFloat16(NAN))));
  // Every half bit pattern survives a round trip through float.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    Half x;
    x.x = static_cast<uint16_t>(h);
    float f = x;
    if (std::isnan(f)) continue;
    REQUIRE(Half(f).x == x.x);
  }
}

TEST_CASE("storage is shared by views and freed with the last one; the allocator counts") {
  Allocator* a = cpu_allocator();
  AllocatorStats before = a->stats();
  {
    Tensor t = make_empty({256}, S::Float32);
    CHECK(reinterpret_cast<uintptr_t>(t.data()) % kCpuAlignment == 0);
    CHECK(a->stats().current_bytes == before.current_bytes + 1024);
    CHECK(a->stats().num_allocs == before.num_allocs + 1);
    Tensor v = make_view(t, {16, 16}, {16, 1}, 0);
    t = Tensor();  // the base handle goes; the view keeps the storage (and its base, _base)
    CHECK(a->stats().current_bytes == before.current_bytes + 1024);
    CHECK(v->view_base() != nullptr);
    CHECK(v->storage().use_count() == 2);  // the view's and its base's
    CHECK(v->version() == 0);
  }
  CHECK(a->stats().current_bytes == before.current_bytes);
  CHECK(a->stats().num_frees == before.num_frees + 1);
  CHECK(a->stats().peak_bytes >= before.current_bytes + 1024);
}

TEST_CASE("contiguity and strides") {
  CHECK(contiguous_strides(std::vector<int64_t>{2, 3, 4}) == DimVector{12, 4, 1});
  CHECK(contiguous_strides(std::vector<int64_t>{2, 0, 4}) == DimVector{4, 4, 1});
  Tensor t = make_empty({2, 3}, S::Float32);
  CHECK(t.is_contiguous());
  Tensor tt = make_view(t, {3, 2}, {1, 3}, 0);
  CHECK_FALSE(tt.is_contiguous());
  CHECK(make_view(t, {1, 3}, {99, 1}, 0).is_contiguous());  // size-1 dims may have any stride
  CHECK_THROWS_WITH_AS(make_empty({-1}, S::Float32), doctest::Contains("negative dimension -1"),
                       Error);
  CHECK(wrap_dim(-1, 3) == 2);
  CHECK_THROWS_WITH_AS(
      wrap_dim(3, 3),
      doctest::Contains("Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
      IndexError);
}

// See Note [CPU small-block cache].
TEST_CASE("small CPU blocks are reused by the thread that freed them; stats stay logical") {
  Allocator* a = cpu_allocator();
  void* p = a->allocate(200);  // class 256
  CHECK(reinterpret_cast<uintptr_t>(p) % kCpuAlignment == 0);
  std::memset(p, 0xab, 200);
  AllocatorStats held = a->stats();
  a->deallocate(p, 200);
  CHECK(a->stats().current_bytes == held.current_bytes - 200);
  void* q = a->allocate(250);  // same class: the same block comes back
  CHECK(q == p);
  void* r = a->allocate(100);  // another class: another block
  CHECK(r != q);
  std::memset(r, 0, 100);
  a->deallocate(q, 250);
  a->deallocate(r, 100);
  CHECK(a->allocate(0) == nullptr);  // empty tensors own no memory
  // More frees than a class holds go back to the system; nothing is lost or reused twice.
  std::vector<void*> blocks;
  for (int i = 0; i < 100; ++i) blocks.push_back(a->allocate(64));
  std::sort(blocks.begin(), blocks.end());
  CHECK(std::adjacent_find(blocks.begin(), blocks.end()) == blocks.end());
  for (void* b : blocks) a->deallocate(b, 64);
  cpu_empty_cache();
}
