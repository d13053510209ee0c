// Kernels that map every output cell of an (N * C) stack of planes to one input cell by a row
// index and a column index (upsample's nearest modes, reflection and replication padding), and
// the gradient sums that go with them. Planes are split over threads, each summed by one thread
// in its own order, so the bits do not depend on the thread count.
#pragma once

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/runtime/Parallel.h"

namespace opscope::cpu {

inline int64_t plane_grain(int64_t plane_size) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(plane_size, 1));
}

// out[p][r][c] = in[p][rows[r]][cols[c]] for every plane p, in planes of in_h x in_w cells
// (in_h is rows' range; the out planes are rows.size() x cols.size()).
template <typename T>
void gather_planes(const T* in, T* out, int64_t planes, int64_t in_h, int64_t in_w,
                   const std::vector<int64_t>& rows, const std::vector<int64_t>& cols) {
  const auto out_h = static_cast<int64_t>(rows.size()), out_w = static_cast<int64_t>(cols.size());
  parallel_for(0, planes, plane_grain(out_h * out_w), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* ip = in + p * in_h * in_w;
      T* op = out + p * out_h * out_w;
      for (int64_t r = 0; r < out_h; ++r) {
        const T* row = ip + rows[static_cast<size_t>(r)] * in_w;
        for (int64_t c = 0; c < out_w; ++c) op[r * out_w + c] = row[cols[static_cast<size_t>(c)]];
      }
    }
  });
}

// For each of `planes` planes of in_plane cells of dst, a zeroed accumulator that add(p, acc)
// fills: dst's plane itself when T is its own accumulation type, else a buffer in A rounded into
// dst afterwards.
template <typename T, typename A, typename Add>
void accumulate_planes(T* dst, int64_t planes, int64_t in_plane, int64_t grain, const Add& add) {
  parallel_for(0, planes, grain, [&](int64_t begin, int64_t end) {
    std::vector<A> buffer(std::is_same_v<T, A> ? 0 : static_cast<size_t>(in_plane));
    for (int64_t p = begin; p < end; ++p) {
      T* plane = dst + p * in_plane;
      if constexpr (std::is_same_v<T, A>) {
        std::fill(plane, plane + in_plane, T(0));
        add(p, plane);
      } else {
        std::fill(buffer.begin(), buffer.end(), A(0));
        add(p, buffer.data());
        for (int64_t i = 0; i < in_plane; ++i) plane[i] = static_cast<T>(buffer[static_cast<size_t>(i)]);
      }
    }
  });
}

// The gradient of gather_planes: grad_in[p][rows[r]][cols[c]] += grad_out[p][r][c], in output
// order, summed in A.
template <typename T, typename A>
void scatter_add_planes(const T* grad_out, T* grad_in, int64_t planes, int64_t in_h, int64_t in_w,
                        const std::vector<int64_t>& rows, const std::vector<int64_t>& cols) {
  const auto out_h = static_cast<int64_t>(rows.size()), out_w = static_cast<int64_t>(cols.size());
  accumulate_planes<T, A>(grad_in, planes, in_h * in_w, plane_grain(out_h * out_w),
                          [&](int64_t p, A* acc) {
                            const T* gp = grad_out + p * out_h * out_w;
                            for (int64_t r = 0; r < out_h; ++r) {
                              A* row = acc + rows[static_cast<size_t>(r)] * in_w;
                              for (int64_t c = 0; c < out_w; ++c)
                                row[cols[static_cast<size_t>(c)]] += A(gp[r * out_w + c]);
                            }
                          });
}

}  // namespace opscope::cpu
