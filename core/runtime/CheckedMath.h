// Checked integer arithmetic for sizes, strides, storage offsets and indices.
//
// Note [Size arithmetic is checked]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Semantically, a size, stride, offset or index is any int64 the user passes: a slice step of
// 2**62, a size of 2**63 - 1, a start of -2**63. Signed overflow is undefined behaviour in C++
// (the compiler may assume it never happens and drop the test written after it), so a product or
// sum of such numbers that a caller controls goes through these helpers, never through `*`/`+`:
//
//   mul_overflows / add_overflows / sub_overflows   report; the caller raises torch's error text
//   checked_mul / checked_add                       throw Error("<what>: integer multiplication
//                                                   overflow"), torch's wording for numel
//   numel_overflows                                 torch's safe_compute_numel: a partial product
//                                                   that overflows counts, though a later 0 would
//                                                   make the product 0 ([2**62, 2**62, 0] fails)
//   mul_or                                          a * b, or a fallback on overflow: a stride no
//                                                   nonzero index multiplies (a dim of at most one
//                                                   element, an empty tensor's) may be anything
//   wrapping_mul                                    two's-complement wrap, defined (uint64): the
//                                                   value torch computes unchecked, where it
//                                                   decides which of torch's errors comes
//
// Arithmetic on a valid geometry needs none of this: a non-empty tensor's (size - 1) * stride
// is bounded by its storage, so index * stride with 0 <= index < size cannot overflow. The
// helpers are for what comes from the user, and for empty tensors, whose strides are unbounded.
// tests/python/test_overflow.py holds one hostile call per site, with torch 1.13's message.
#pragma once

#include <cstdint>
#include <limits>

#include "core/runtime/Exception.h"
#include "core/runtime/SmallVector.h"

namespace opscope {

// a * b, a + b, a - b into *out; true when the exact result does not fit an int64 (*out is then
// the wrapped value).
[[nodiscard]] inline bool mul_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}
[[nodiscard]] inline bool add_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_add_overflow(a, b, out);
}
[[nodiscard]] inline bool sub_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_sub_overflow(a, b, out);
}

// a * b and a + b, or Error("<what>: integer multiplication overflow") — "numel: integer
// multiplication overflow" is torch's message for a shape with too many elements.
[[nodiscard]] inline int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  OPSCOPE_CHECK(!mul_overflows(a, b, &r), what, ": integer multiplication overflow");
  return r;
}
[[nodiscard]] inline int64_t checked_add(int64_t a, int64_t b, const char* what) {
  int64_t r;
  OPSCOPE_CHECK(!add_overflows(a, b, &r), what, ": integer addition overflow");
  return r;
}

// torch's safe_compute_numel (c10/core/TensorImpl.h): the product of sizes in uint64, flagged
// when any partial product overflows or the product exceeds INT64_MAX. *out is the product when
// false is returned. Negative sizes are the caller's to reject first.
[[nodiscard]] inline bool numel_overflows(IntArrayRef sizes, int64_t* out) {
  uint64_t n = 1;
  bool overflowed = false;
  for (int64_t s : sizes) overflowed |= __builtin_mul_overflow(n, static_cast<uint64_t>(s), &n);
  overflowed |= n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  *out = static_cast<int64_t>(n);
  return overflowed;
}

// a * b, or `fallback` when it overflows: for a stride that no nonzero index multiplies (a dim
// that reaches at most one element, any dim of an empty tensor), where any value is right.
[[nodiscard]] inline int64_t mul_or(int64_t a, int64_t b, int64_t fallback) {
  int64_t r;
  return mul_overflows(a, b, &r) ? fallback : r;
}

// a * b wrapped modulo 2**64, without undefined behaviour: torch's value, where torch's own
// unchecked product decides which error it raises (view's infer_size).
[[nodiscard]] constexpr int64_t wrapping_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

}  // namespace opscope
