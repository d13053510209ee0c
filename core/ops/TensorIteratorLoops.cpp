// TensorIterator, running: accessors, the serial and parallel walks over the iteration space,
// and the write-back of outputs computed in a temporary. Building is TensorIterator.cpp.
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "core/ops/copy.h"
#include "core/ops/TensorIterator.h"

namespace opscope {

// --- accessors ------------------------------------------------------------------------------

Tensor TensorIterator::output(int i) const {
  const Operand& op = ops_[i];
  if (op.original.defined()) return op.original;
  return Tensor(intrusive_ptr<TensorImpl>(op.impl));
}

Tensor TensorIterator::tensor(int arg) const {
  return Tensor(intrusive_ptr<TensorImpl>(ops_[arg].impl));
}

bool TensorIterator::is_contiguous() const {
  if (numel_ == 1) return true;
  if (shape_.size() != 1) return false;
  for (int i = 0; i < num_; ++i)
    if (ops_[i].stride_bytes[0] != static_cast<int64_t>(element_size(ops_[i].dtype))) return false;
  return true;
}

bool TensorIterator::is_scalar(int arg) const {
  for (int64_t s : ops_[arg].stride_bytes)
    if (s != 0) return false;
  return true;
}

void TensorIterator::cast_outputs() {
  for (int i = 0; i < num_outputs_; ++i) {
    Operand& op = ops_[i];
    if (op.needs_temp && op.original.defined()) ops::copy_(op.original, op.owned);
  }
}

// --- loops ----------------------------------------------------------------------------------

void TensorIterator::serial_for_each_impl(Loop2d loop, int64_t begin, int64_t end) const {
  if (begin >= end) return;
  const int nt = num_;
  const int nd = ndim();
  char* data[kMaxOperands];
  int64_t strides[2 * kMaxOperands];
  if (nd <= 1) {
    for (int k = 0; k < nt; ++k) {
      int64_t s = nd == 0 ? 0 : ops_[k].stride_bytes[0];
      data[k] = ops_[k].data + begin * s;
      strides[k] = s;
      strides[nt + k] = 0;
    }
    loop.fn(loop.ctx, nt, data, strides, end - begin, 1);
    return;
  }
  for (int k = 0; k < nt; ++k) {
    strides[k] = ops_[k].stride_bytes[0];
    strides[nt + k] = ops_[k].stride_bytes[1];
  }
  // counter: the multi-index of element `begin`, dim 0 fastest.
  DimVector counter(nd);
  int64_t rest = begin;
  for (int d = 0; d < nd; ++d) {
    counter[d] = rest % shape_[d];
    rest /= shape_[d];
  }
  while (begin < end) {
    for (int k = 0; k < nt; ++k) {
      char* p = ops_[k].data;
      for (int d = 0; d < nd; ++d) p += counter[d] * ops_[k].stride_bytes[d];
      data[k] = p;
    }
    // A partial run of dim 0, or as many whole runs of dim 0 as dim 1 has left.
    int64_t size0, size1;
    if (counter[0] == 0 && end - begin >= shape_[0]) {
      size0 = shape_[0];
      size1 = std::min(shape_[1] - counter[1], (end - begin) / shape_[0]);
      counter[1] += size1;
    } else {
      size0 = std::min(shape_[0] - counter[0], end - begin);
      size1 = 1;
      counter[0] += size0;
    }
    loop.fn(loop.ctx, nt, data, strides, size0, size1);
    begin += size0 * size1;
    for (int d = 0; d + 1 < nd; ++d) {  // carry
      if (counter[d] < shape_[d]) continue;
      counter[d] = 0;
      ++counter[d + 1];
    }
  }
}

// Note [Tiles for operands across the grain]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The iteration space is ordered for the output: dim 0 is its fastest. An input laid out the
// other way (a.t() + b, a channels-last tensor against a contiguous one) then steps a whole row
// per element along dim 0, touching a new cache line each time; walked row after row, each line
// is evicted before its next element is used, so every element costs a line from memory — ~5x
// the contiguous op in PyTorch and here. Walked in square tiles instead (kTile0 x kTile1 elements,
// a few KB per operand, in L1), every line fetched is used whole before the tile moves on: a
// 2-D elementwise loop over a large 2-D space with such an input goes tile by tile, threads
// taking bands of tiles along dim 1. Each such input (up to two) is first copied, reading along
// its own fast dim, into a row-major buffer, so that the op itself runs its vectorized
// contiguous loop instead of a scalar strided one. Only elementwise walks (no output broadcast along a dim:
// a reduction's accumulation order stays the plain walk's).
namespace {

// A tile: kTile0 elements along dim 0 (a run of the loop) by kTile1 rows: 16 KB of a float32
// input, its copy 16 KB more, all in L1 (measured: 16 x 64 is slower, the runs too short).
constexpr int64_t kTile0 = 64;
constexpr int64_t kTile1 = 64;
constexpr int64_t kTiledMinNumel = 16384;  // below this the space fits in cache anyway

}  // namespace

bool TensorIterator::wants_tiles() const {
  if (ndim() != 2 || numel_ < kTiledMinNumel || shape_[0] < kTile0 || shape_[1] < kTile1)
    return false;
  bool across = false;
  for (int k = 0; k < num_; ++k) {
    const int64_t s0 = ops_[k].stride_bytes[0], s1 = ops_[k].stride_bytes[1];
    if (k < num_outputs_ && (s0 == 0 || s1 == 0)) return false;  // a reduction
    across = across || (s0 != 0 && s1 != 0 && std::abs(s1) < std::abs(s0));
  }
  return across;
}

// Copies a tile (n0 x n1 elements of Size bytes, strides s0 / s1 in bytes) of an input across
// the grain into buf, row-major (dim 0 fastest), reading the input along its own fast dim. The
// element size is a template argument so that each copy is one load and one store.
template <int64_t Size>
static void gather_tile(char* buf, const char* src, int64_t s0, int64_t s1, int64_t n0,
                        int64_t n1) {
  for (int64_t i = 0; i < n0; ++i) {
    const char* from = src + i * s0;
    char* to = buf + i * Size;
    for (int64_t r = 0; r < n1; ++r) std::memcpy(to + r * n0 * Size, from + r * s1, Size);
  }
}

static void gather_tile(char* buf, const char* src, int64_t s0, int64_t s1, int64_t n0,
                        int64_t n1, int64_t size) {
  switch (size) {
    case 1: return gather_tile<1>(buf, src, s0, s1, n0, n1);
    case 2: return gather_tile<2>(buf, src, s0, s1, n0, n1);
    case 4: return gather_tile<4>(buf, src, s0, s1, n0, n1);
    default: return gather_tile<8>(buf, src, s0, s1, n0, n1);  // across[] admits 1-8 bytes
  }
}

void TensorIterator::tiled_for_each(Loop2d loop, int64_t grain_size) const {
  const int nt = num_;
  const int64_t n0 = shape_[0], n1 = shape_[1];
  int64_t strides[2 * kMaxOperands];
  bool across[kMaxOperands];
  for (int k = 0; k < nt; ++k) {
    strides[k] = ops_[k].stride_bytes[0];
    strides[nt + k] = ops_[k].stride_bytes[1];
    // Inputs across the grain run from a row-major copy of the tile (elements of 1-8 bytes).
    const int64_t size = static_cast<int64_t>(element_size(ops_[k].dtype));
    across[k] = k >= num_outputs_ && strides[nt + k] == size && strides[k] != 0 &&
                std::abs(strides[k]) > size && size <= 8;
  }
  const int64_t bands = (n1 + kTile1 - 1) / kTile1;
  const int64_t band_grain = std::max<int64_t>(1, grain_size / (n0 * kTile1));
  parallel_for(0, bands, band_grain, [&](int64_t first, int64_t last) {
    char* data[kMaxOperands];
    int64_t tile_strides[2 * kMaxOperands];
    std::copy(strides, strides + 2 * nt, tile_strides);
    alignas(64) char bufs[2][kTile0 * kTile1 * 8];
    for (int64_t band = first; band < last; ++band) {
      const int64_t j0 = band * kTile1, rows = std::min(kTile1, n1 - j0);
      for (int64_t i0 = 0; i0 < n0; i0 += kTile0) {
        const int64_t cols = std::min(kTile0, n0 - i0);
        int used = 0;
        for (int k = 0; k < nt; ++k) {
          data[k] = ops_[k].data + i0 * strides[k] + j0 * strides[nt + k];
          if (!across[k] || used == 2) continue;
          const int64_t size = strides[nt + k];
          gather_tile(bufs[used], data[k], strides[k], strides[nt + k], cols, rows, size);
          data[k] = bufs[used++];
          tile_strides[k] = size;
          tile_strides[nt + k] = cols * size;
        }
        loop.fn(loop.ctx, nt, data, tile_strides, cols, rows);
        for (int k = 0; k < nt; ++k) {  // back to the operand's own strides for the next tile
          tile_strides[k] = strides[k];
          tile_strides[nt + k] = strides[nt + k];
        }
      }
    }
  });
}

void TensorIterator::for_each_impl(Loop2d loop, int64_t grain_size) {
  if (wants_tiles()) {  // See Note [Tiles for operands across the grain]
    tiled_for_each(loop, grain_size);
  } else {
    // Each thread takes one contiguous range of the iteration space (core/runtime/Parallel.h).
    parallel_for(0, numel_, grain_size,
                 [&](int64_t begin, int64_t end) { serial_for_each_impl(loop, begin, end); });
  }
  if (has_output_temps_) cast_outputs();
}

}  // namespace opscope
