// CUDA kernels of 2-D convolution's data movement (host side in conv.cpp, which multiplies with
// cuBLAS through the matmul op): im2col, one thread per element of the column matrix, and its
// adjoint col2im, one thread per input element summing the column entries that read it.
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

namespace {

template <typename T>
__global__ void im2col_kernel(const T* x, T* col, ConvGeom g) {
  const int64_t L = g.OH * g.OW, K = g.C * g.kh * g.kw;
  const int64_t total = g.N * K * L;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t l = e % L, r = (e / L) % K, n = e / (L * K);
    const int64_t ow = l % g.OW, oh = l / g.OW;
    const int64_t j = r % g.kw, i = (r / g.kw) % g.kh, c = r / (g.kw * g.kh);
    const int64_t h = oh * g.sh - g.ph + i * g.dh, w = ow * g.sw - g.pw + j * g.dw;
    col[e] = (h >= 0 && h < g.H && w >= 0 && w < g.W) ? x[((n * g.C + c) * g.H + h) * g.W + w]
                                                       : T(0);
  }
}

template <typename T>
__global__ void col2im_kernel(const T* col, T* dx, ConvGeom g) {
  using A = acc_t<T>;
  const int64_t L = g.OH * g.OW, K = g.C * g.kh * g.kw;
  const int64_t total = g.N * g.C * g.H * g.W;
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t w = e % g.W, h = (e / g.W) % g.H, c = (e / (g.W * g.H)) % g.C;
    const int64_t n = e / (g.W * g.H * g.C);
    A acc = A(0);
    for (int64_t i = 0; i < g.kh; ++i) {
      const int64_t th = h + g.ph - i * g.dh;  // oh * sh
      if (th < 0 || th % g.sh != 0) continue;
      const int64_t oh = th / g.sh;
      if (oh >= g.OH) continue;
      for (int64_t j = 0; j < g.kw; ++j) {
        const int64_t tw = w + g.pw - j * g.dw;
        if (tw < 0 || tw % g.sw != 0) continue;
        const int64_t ow = tw / g.sw;
        if (ow >= g.OW) continue;
        const int64_t r = (c * g.kh + i) * g.kw + j;
        acc += cvt<A>(col[(n * K + r) * L + oh * g.OW + ow]);
      }
    }
    dx[e] = cvt<T>(acc);
  }
}

}  // namespace

void launch_im2col(DT dt, const void* x, void* col, const ConvGeom& g, void* stream) {
  const int64_t total = g.N * g.C * g.kh * g.kw * g.OH * g.OW;
  if (total == 0) return;
  dispatch_float(dt, "im2col_cuda", [&]<typename T>() {
    im2col_kernel<T><<<grid_for(total), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(x), static_cast<T*>(col), g);
  });
  check_launch("im2col_cuda");
}

void launch_col2im(DT dt, const void* col, void* dx, const ConvGeom& g, void* stream) {
  const int64_t total = g.N * g.C * g.H * g.W;
  if (total == 0) return;
  dispatch_float(dt, "col2im_cuda", [&]<typename T>() {
    col2im_kernel<T><<<grid_for(total), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(col), static_cast<T*>(dx), g);
  });
  check_launch("col2im_cuda");
}

}  // namespace opscope::cuda
