// CPU kernel of equal (declared in core/ops/compare.cpp) and of
// _local_scalar_dense (core/ops/utility.cpp); their rows at the end of the file.
#include <atomic>

#include "core/dispatch/Library.h"
#include "core/ops/compare.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/utility.h"

namespace opscope::cpu {

// self, other (same shape) -> whether every element is equal (nan != nan), compared in their
// common dtype as torch 1.13 does (equal(float 1.0, int 1) is true).
bool equal(const Tensor& self, const Tensor& other) {
  OPSCOPE_CHECK(self.device() == other.device(), "Expected all tensors to be on the same device");
  if (!std::ranges::equal(self.sizes(), other.sizes())) return false;
  if (self.numel() == 0) return true;
  std::atomic<bool> result{true};
  TensorIterator iter = TensorIteratorConfig()
                            .add_input(self)
                            .add_input(other)
                            .check_mem_overlap(false)
                            .promote_inputs_to_common_dtype(true)
                            .build();
  dispatch_dtype(iter.common_dtype(), "equal_cpu", [&]<typename T>() {
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      if (!result.load(std::memory_order_relaxed)) return;
      const char* a = data[0];
      const char* b = data[1];
      for (int64_t i = 0; i < n; ++i, a += strides[0], b += strides[1]) {
        if (!(*reinterpret_cast<const T*>(a) == *reinterpret_cast<const T*>(b))) {
          result.store(false, std::memory_order_relaxed);
          return;
        }
      }
    });
  });
  return result.load();
}

// self (one element, any layout) -> its value as a Scalar of its kind (Int, Double or Bool).
Scalar _local_scalar_dense(const Tensor& self) {
  OPSCOPE_CHECK(self.numel() > 0, "a Tensor with 0 elements cannot be converted to Scalar");
  return item(self);
}

static Library cpu_utility(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("equal", fn<&equal>);
  m.impl("_local_scalar_dense", fn<&_local_scalar_dense>);
});

}  // namespace opscope::cpu
