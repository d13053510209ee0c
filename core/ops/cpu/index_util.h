// What the CPU indexing kernels share (core/ops/cpu/indexing.cpp, scatter_gather.cpp,
// masked.cpp): walking several strided operands in step, moving one element of any dtype, and
// turning index values into checked offsets.
#pragma once

#include <array>
#include <cstring>

#include "core/runtime/Parallel.h"
#include "core/tensor/Tensor.h"
#include "core/ops/TensorIterator.h"

namespace opscope::cpu {

// The CPU copy_ kernel (core/ops/cpu/copy.cpp), which the kernels here call to move elements
// into their results: a copy inside a kernel, below the dispatcher, so no copy_ in the trace.
Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking);

}  // namespace opscope::cpu

namespace opscope::cpu::index_util {

// Calls f(offsets) for elements [begin, end) of a row-major walk over `sizes`, where offsets[k]
// is sum_d position[d] * strides[k][d] (element counts) for operand k. The innermost dim steps
// by addition; outer dims carry like an odometer.
//   walk<2>(sizes, {a_strides, b_strides}, 0, numel, [&](const int64_t* off) {...});
template <size_t N, typename F>
void walk(IntArrayRef sizes, const std::array<IntArrayRef, N>& strides, int64_t begin, int64_t end,
          F&& f) {
  if (begin >= end) return;
  size_t nd = sizes.size();
  int64_t off[N == 0 ? 1 : N] = {};
  if (nd == 0) {
    f(static_cast<const int64_t*>(off));
    return;
  }
  DimVector pos(nd, 0);
  int64_t rem = begin;
  for (size_t d = nd; d-- > 0;) {  // decompose `begin` into a position, innermost dim last
    pos[d] = rem % sizes[d];
    rem /= sizes[d];
    for (size_t k = 0; k < N; ++k) off[k] += pos[d] * strides[k][d];
  }
  const int64_t inner = sizes[nd - 1];
  int64_t inner_stride[N == 0 ? 1 : N];
  for (size_t k = 0; k < N; ++k) inner_stride[k] = strides[k][nd - 1];
  int64_t i = begin;
  while (i < end) {
    int64_t run = std::min(inner - pos[nd - 1], end - i);
    for (int64_t j = 0; j < run; ++j) {
      f(static_cast<const int64_t*>(off));
      for (size_t k = 0; k < N; ++k) off[k] += inner_stride[k];
    }
    i += run;
    if (i >= end) break;
    // Carry: the innermost dim wrapped.
    for (size_t k = 0; k < N; ++k) off[k] -= inner * inner_stride[k];
    pos[nd - 1] = 0;
    for (size_t d = nd - 1; d-- > 0;) {
      for (size_t k = 0; k < N; ++k) off[k] += strides[k][d];
      if (++pos[d] < sizes[d]) break;
      for (size_t k = 0; k < N; ++k) off[k] -= sizes[d] * strides[k][d];
      pos[d] = 0;
    }
  }
}

// Moves one element of `size` bytes (1, 2, 4 or 8) — index kernels need no arithmetic on the
// values they move, so one instantiation per width serves every dtype.
template <typename F>
decltype(auto) dispatch_width(size_t size, F&& fn) {
  switch (size) {
    case 1:
      return fn.template operator()<uint8_t>();
    case 2:
      return fn.template operator()<uint16_t>();
    case 4:
      return fn.template operator()<uint32_t>();
    default:
      return fn.template operator()<uint64_t>();
  }
}

// The strides of `t` read as a tensor of `sizes` (numpy broadcasting: missing leading dims and
// size-1 dims get stride 0). The caller has checked that t broadcasts to sizes.
inline DimVector broadcast_strides(const Tensor& t, IntArrayRef sizes) {
  DimVector st(sizes.size(), 0);
  int64_t lead = static_cast<int64_t>(sizes.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d)
    st[static_cast<size_t>(lead + d)] =
        t.sizes()[static_cast<size_t>(d)] == 1 ? 0 : t.strides()[static_cast<size_t>(d)];
  return st;
}

// Whether `from` broadcasts to `to` (aligned at the last dim).
inline bool broadcastable_to(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  size_t lead = to.size() - from.size();
  for (size_t d = 0; d < from.size(); ++d)
    if (from[d] != 1 && from[d] != to[lead + d]) return false;
  return true;
}

// Reads element `off` of an integer index tensor (int64 or int32) as int64.
inline int64_t read_index(const void* data, ScalarType t, int64_t off) {
  return t == ScalarType::Int64 ? static_cast<const int64_t*>(data)[off]
                                : static_cast<int64_t>(static_cast<const int32_t*>(data)[off]);
}

// A fresh contiguous tensor with self's sizes and values (the functional ops' first step; a
// direct kernel call, so it does not show in a trace, as in torch's structured kernels).
Tensor fresh_copy(const Tensor& self);

// Where the functional, in-place and out= forms of one *_impl(out, self, ...) write
// (core/ops/KernelForms.h): a fresh copy of self when out is undefined; otherwise out, resized to
// self's sizes and holding self's values (self itself for the in-place form).
Tensor destination(const Tensor& out, const Tensor& self);

}  // namespace opscope::cpu::index_util
