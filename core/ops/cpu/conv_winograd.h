// What the 2-D convolution kernels (core/ops/cpu/conv.cpp) and their Winograd path
// (core/ops/cpu/conv_winograd.cpp) share: the BLAS product, the per-thread scratch buffers, and
// the Winograd entry point. Private to those two files.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/runtime/Blas.h"

namespace opscope::cpu::conv_impl {

// Row-major C (M,N) = alpha op(A) · op(B) + beta C on OpenBLAS.
template <typename T>
void gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, T alpha, const T* A, int64_t lda,
          const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  if (M == 0 || N == 0) return;
  const auto a = ta ? blas::Trans : blas::NoTrans, b = tb ? blas::Trans : blas::NoTrans;
  if constexpr (std::is_same_v<T, float>) {
    blas::sgemm(blas::RowMajor, a, b, int(M), int(N), int(K), alpha, A, int(lda), B, int(ldb),
                beta, C, int(ldc));
  } else {
    blas::dgemm(blas::RowMajor, a, b, int(M), int(N), int(K), alpha, A, int(lda), B, int(ldb),
                beta, C, int(ldc));
  }
}

// Scratch memory of the calling thread, kept between calls (one buffer per slot, grown, never
// shrunk, never zeroed): a column matrix is megabytes, and a fresh allocation of that size is
// fresh pages from the kernel each call — page faults and zeroing that cost as much as the
// product itself on a small convolution.
enum ScratchSlot { kColumns, kWinogradInput, kWinogradProducts, kBatchedOutput, kNumScratchSlots };

template <typename T>
T* scratch(ScratchSlot slot, int64_t count) {
  struct Buffer {
    std::unique_ptr<char[]> data;
    size_t bytes = 0;
  };
  thread_local Buffer buffers[kNumScratchSlots];
  Buffer& b = buffers[slot];
  const size_t bytes = sizeof(T) * static_cast<size_t>(std::max<int64_t>(count, 1));
  if (b.bytes < bytes) {
    b.data.reset(new char[bytes]);
    b.bytes = bytes;
  }
  return reinterpret_cast<T*>(b.data.get());
}

// Winograd F(4x4, 3x3) is used when both channel counts are at least this (see
// Note [Winograd convolution] in conv_winograd.cpp).
constexpr int64_t kWinogradMinChannels = 16;

// x (N, C, H, W), w (O, C, 3, 3), stride 1, no dilation, one group -> y (N, O, OH, OW), bias
// optional (nullptr). Instantiated for float and double.
template <typename T>
void winograd_conv(const T* x, const T* w, const T* bias, T* y, int64_t N, int64_t C, int64_t H,
                   int64_t W, int64_t O, int64_t OH, int64_t OW, int64_t ph, int64_t pw);

}  // namespace opscope::cpu::conv_impl
