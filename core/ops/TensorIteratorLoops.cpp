// TensorIterator, running: accessors, the serial and parallel walks over the iteration space,
// and the write-back of outputs computed in a temporary. Building is TensorIterator.cpp.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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
// the contiguous op in PyTorch and here. Walked in tiles instead, every line fetched is used
// whole before the tile moves on: a 2-D elementwise loop over a large 2-D space with such an
// input goes tile by tile, threads taking bands of kTileRows along dim 1. Each such input (up to
// two) is first transposed, reading runs of kTileRows elements along its own fast dim, into a
// row-major buffer (8x8 blocks in AVX2 registers where the CPU has it), so that the op itself
// runs its vectorized contiguous loop instead of a scalar strided one. A tile spans a whole
// dim 0 where its copy stays within L2 (kTileRowBytes a row): the op then reads and writes its
// other operands as one sequential block of kTileRows rows, which the hardware prefetchers
// follow, in long rows (few calls of its row loop). Only elementwise walks (no output broadcast
// along a dim: a reduction's accumulation order stays the plain walk's).
//
// The copy's rows are kTilePad bytes longer than the data: with a power-of-two row length the
// 8 rows an 8x8 block writes, and the rows the op reads side by side with its other operands'
// (a power-of-two stride too at 2048 columns), fall in the same few cache sets and evict each
// other. Measured on float32 `a + b.t()` in a stand-alone copy of this loop (Zen 5, loaded
// 2-core VM, best of 60 rounds), against the contiguous op: 128 x 128 tiles with the next
// tile's rows prefetched (the previous layout) ran 2.3x at (2048, 2048) and 2.3x at (400, 512);
// padded, 1.9x / 1.6x; 64 x 2048 padded, 1.8-1.9x / 1.6x, the op on 64 x 512 pieces of the
// band 1.6x slower alone than on whole rows at 2048 columns (16 interleaved streams against one).
// A software prefetch of the next tile, or of the rows 16-64 ahead within one, no longer helped.
// In bench_ops.py --only layouts (1 thread, same VM): (400, 500) 2.1-2.3x -> 1.7x, (2048, 2048)
// 2.3-3.0x -> 1.6-2.1x (best of 15, the spread from run to run on the shared machine).
namespace {

constexpr int64_t kTileRows = 64;          // tile extent along dim 1
constexpr int64_t kTileRowBytes = 8192;    // along dim 0: up to this many bytes of each copy row
constexpr int64_t kTilePad = 64;           // bytes after each row of a tile copy: see the Note
constexpr int64_t kTileBytes = kTileRows * (kTileRowBytes + kTilePad);  // one tile copy, at most
constexpr int64_t kTiledMinEdge = 64;      // both dims at least this, so that runs are long
constexpr int64_t kTiledMinNumel = 16384;  // below this the space fits in cache anyway

}  // namespace

bool TensorIterator::wants_tiles() const {
  if (ndim() != 2 || numel_ < kTiledMinNumel || shape_[0] < kTiledMinEdge ||
      shape_[1] < kTiledMinEdge)
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
// the grain into buf, row-major (dim 0 fastest, rows bs bytes apart), reading the input along its
// own fast dim. The element size is a template argument so that each copy is one load and one
// store.
template <int64_t Size>
static void gather_tile_scalar(char* buf, int64_t bs, const char* src, int64_t s0, int64_t s1,
                               int64_t n0, int64_t n1) {
  for (int64_t i = 0; i < n0; ++i) {
    const char* from = src + i * s0;
    char* to = buf + i * Size;
    for (int64_t r = 0; r < n1; ++r) std::memcpy(to + r * bs, from + r * s1, Size);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define OPSCOPE_HAS_AVX2_TILES 1
#define OPSCOPE_TARGET_AVX2 __attribute__((target("avx2")))

// The same tile copy as a transpose of 8x8 blocks of 4-byte elements (4x4 of 8-byte ones) in AVX2
// registers, the ragged edges of a tile going through the scalar copy. Each register is loaded
// as two 128-bit halves, rows k and k + 4 (k + 2 for 8-byte elements), so that two rounds of
// in-lane shuffles finish the transpose (8 row loads, 16 shuffles, 8 row stores per 64 floats;
// measured 28% faster than loading whole rows and crossing lanes with permute2f128 at the end).
OPSCOPE_TARGET_AVX2 static inline __m256 load_halves(const char* lo, const char* hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(reinterpret_cast<const float*>(lo))),
                              _mm_loadu_ps(reinterpret_cast<const float*>(hi)), 1);
}

OPSCOPE_TARGET_AVX2 static void transpose8x8(char* to, int64_t to_stride, const char* from,
                                             int64_t from_stride) {
  // Both loops unrolled by pragma: at -O2 GCC keeps them rolled and r[] on the stack, a store
  // and a reload per register (a + b.t() 1.7x -> 1.9x the contiguous op at (400, 512)).
  __m256 r[8];  // r[k]: [row k | row k + 4], columns 0-3; r[k + 4]: the same, columns 4-7
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    r[k] = load_halves(from + k * from_stride, from + (k + 4) * from_stride);
    r[k + 4] = load_halves(from + k * from_stride + 16, from + (k + 4) * from_stride + 16);
  }
#pragma GCC unroll 2
  for (int h = 0; h < 8; h += 4) {  // output rows h..h+3: columns h..h+3 of the input
    const __m256 t0 = _mm256_unpacklo_ps(r[h], r[h + 1]), t1 = _mm256_unpackhi_ps(r[h], r[h + 1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[h + 2], r[h + 3]);
    const __m256 t3 = _mm256_unpackhi_ps(r[h + 2], r[h + 3]);
    float* out = reinterpret_cast<float*>(to + h * to_stride);
    const int64_t step = to_stride / 4;
    _mm256_storeu_ps(out, _mm256_shuffle_ps(t0, t2, 0x44));
    _mm256_storeu_ps(out + step, _mm256_shuffle_ps(t0, t2, 0xEE));
    _mm256_storeu_ps(out + 2 * step, _mm256_shuffle_ps(t1, t3, 0x44));
    _mm256_storeu_ps(out + 3 * step, _mm256_shuffle_ps(t1, t3, 0xEE));
  }
}

OPSCOPE_TARGET_AVX2 static void transpose4x4(char* to, int64_t to_stride, const char* from,
                                             int64_t from_stride) {
  // r0: [row 0 | row 2], columns 0-1; r1: the same of rows 1 and 3; r2, r3: columns 2-3.
  const int64_t s = from_stride;
  const __m256d r0 = _mm256_castps_pd(load_halves(from, from + 2 * s));
  const __m256d r1 = _mm256_castps_pd(load_halves(from + s, from + 3 * s));
  const __m256d r2 = _mm256_castps_pd(load_halves(from + 16, from + 2 * s + 16));
  const __m256d r3 = _mm256_castps_pd(load_halves(from + s + 16, from + 3 * s + 16));
  double* out = reinterpret_cast<double*>(to);
  const int64_t step = to_stride / 8;
  _mm256_storeu_pd(out, _mm256_unpacklo_pd(r0, r1));
  _mm256_storeu_pd(out + step, _mm256_unpackhi_pd(r0, r1));
  _mm256_storeu_pd(out + 2 * step, _mm256_unpacklo_pd(r2, r3));
  _mm256_storeu_pd(out + 3 * step, _mm256_unpackhi_pd(r2, r3));
}

// Block b x b (b = 32 / Size) at (i, r): input rows i.. (dim 0 index), each read along r (dim 1),
// written as buffer rows r.. (bs bytes apart), each along i.
template <int64_t Size>
OPSCOPE_TARGET_AVX2 static void gather_tile_avx2(char* buf, int64_t bs, const char* src,
                                                 int64_t s0, int64_t n0, int64_t n1) {
  constexpr int64_t b = 32 / Size;
  const int64_t m0 = n0 - n0 % b, m1 = n1 - n1 % b;
  for (int64_t i = 0; i < m0; i += b) {
    for (int64_t r = 0; r < m1; r += b) {
      char* to = buf + r * bs + i * Size;
      const char* from = src + i * s0 + r * Size;
      if constexpr (Size == 4) {
        transpose8x8(to, bs, from, s0);
      } else {
        transpose4x4(to, bs, from, s0);
      }
    }
  }
  if (m1 < n1)  // the last n1 % b buffer rows
    gather_tile_scalar<Size>(buf + m1 * bs, bs, src + m1 * Size, s0, Size, n0, n1 - m1);
  if (m0 < n0)  // the last n0 % b elements of the other buffer rows
    for (int64_t r = 0; r < m1; ++r)
      for (int64_t i = m0; i < n0; ++i)
        std::memcpy(buf + r * bs + i * Size, src + i * s0 + r * Size, Size);
}

static bool cpu_has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
#endif

// Input across the grain here means s1 == size (see tiled_for_each).
static void gather_tile(char* buf, int64_t bs, const char* src, int64_t s0, int64_t n0,
                        int64_t n1, int64_t size) {
#ifdef OPSCOPE_HAS_AVX2_TILES
  if ((size == 4 || size == 8) && cpu_has_avx2()) {
    if (size == 4) return gather_tile_avx2<4>(buf, bs, src, s0, n0, n1);
    return gather_tile_avx2<8>(buf, bs, src, s0, n0, n1);
  }
#endif
  switch (size) {
    case 1: return gather_tile_scalar<1>(buf, bs, src, s0, size, n0, n1);
    case 2: return gather_tile_scalar<2>(buf, bs, src, s0, size, n0, n1);
    case 4: return gather_tile_scalar<4>(buf, bs, src, s0, size, n0, n1);
    default: return gather_tile_scalar<8>(buf, bs, src, s0, size, n0, n1);  // across[]: 1-8 bytes
  }
}

void TensorIterator::tiled_for_each(Loop2d loop, int64_t grain_size) const {
  const int nt = num_;
  const int64_t n0 = shape_[0], n1 = shape_[1];
  int64_t strides[2 * kMaxOperands];
  bool across[kMaxOperands];
  int copies = 0;          // inputs across the grain copied (the first two)
  int64_t widest = 1;      // their largest element size
  for (int k = 0; k < nt; ++k) {
    strides[k] = ops_[k].stride_bytes[0];
    strides[nt + k] = ops_[k].stride_bytes[1];
    // Inputs across the grain run from a row-major copy of the tile (elements of 1-8 bytes).
    const int64_t size = static_cast<int64_t>(element_size(ops_[k].dtype));
    across[k] = k >= num_outputs_ && strides[nt + k] == size && strides[k] != 0 &&
                std::abs(strides[k]) > size && size <= 8 && copies < 2;
    if (across[k]) {
      ++copies;
      widest = std::max(widest, size);
    }
  }
  // Tiles of kTileRows x tile_cols: a whole dim 0 where the copies stay within L2; squarer where
  // nothing is copied (an input across the grain read in place, strided or of 16-byte elements).
  const int64_t tile_cols = std::min(n0, copies ? kTileRowBytes / copies / widest : 128);
  const int64_t bands = (n1 + kTileRows - 1) / kTileRows;
  const int64_t band_grain = std::max<int64_t>(1, grain_size / (n0 * kTileRows));
  parallel_for(0, bands, band_grain, [&](int64_t first, int64_t last) {
    char* data[kMaxOperands];
    int64_t tile_strides[2 * kMaxOperands];
    std::copy(strides, strides + 2 * nt, tile_strides);
    // Two tile copies of up to 528 KB, far too much for a thread's stack; kept per thread (a
    // fresh allocation would be fresh pages, faulted in on every call).
    thread_local std::unique_ptr<char[]> bufs;
    if (!bufs) bufs.reset(new char[2 * kTileBytes + 64]);
    char* const buf0 = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(bufs.get()) + 63) &
                                               ~uintptr_t{63});
    for (int64_t band = first; band < last; ++band) {
      const int64_t j0 = band * kTileRows, rows = std::min(kTileRows, n1 - j0);
      for (int64_t i0 = 0; i0 < n0; i0 += tile_cols) {
        const int64_t cols = std::min(tile_cols, n0 - i0);
        int used = 0;
        for (int k = 0; k < nt; ++k) {
          data[k] = ops_[k].data + i0 * strides[k] + j0 * strides[nt + k];
          if (!across[k]) continue;
          const int64_t size = strides[nt + k];
          char* buf = buf0 + used++ * kTileBytes;
          const int64_t row_bytes = cols * size + kTilePad;
          gather_tile(buf, row_bytes, data[k], strides[k], cols, rows, size);
          data[k] = buf;
          tile_strides[k] = size;
          tile_strides[nt + k] = row_bytes;
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
