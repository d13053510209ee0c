// CUDA kernels of the gradient ops a training step's backward calls (launchers declared in
// LaunchBackward.h, host side in backward.cpp): threshold_backward (elementwise),
// _softmax_backward_data / _log_softmax_backward_data (one block per row: a block-wide sum, then
// the write) and nll_loss_backward (one thread per sample writes its one nonzero).
#include "core/cuda/kernels/LaunchBackward.h"
#include "core/cuda/kernels/Reduce.cuh"

namespace opscope::cuda {

namespace {

// Compared in the accumulation type (float for half / bfloat16); the gradient passes through.
template <typename T>
struct ThresholdBackward {
  acc_t<T> threshold;
  __device__ T operator()(T g, T x) const {
    return cvt<acc_t<T>>(x) <= threshold ? cvt<T>(acc_t<T>(0)) : g;
  }
};

template <bool Log, typename T>
__global__ void softmax_backward_rows_kernel(const T* grad, const T* out, T* gin, int64_t rows,
                                             int64_t cols) {
  using A = acc_t<T>;
  A* shared = shared_mem<A>();
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T* g = grad + r * cols;
    const T* y = out + r * cols;
    T* gi = gin + r * cols;
    A s = A(0);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x)
      s += Log ? cvt<A>(g[c]) : cvt<A>(g[c]) * cvt<A>(y[c]);
    s = block_reduce(s, shared, [](A a, A b) { return a + b; });
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      if constexpr (Log) {
        gi[c] = cvt<T>(cvt<A>(g[c]) - exp(cvt<A>(y[c])) * s);
      } else {
        gi[c] = cvt<T>(cvt<A>(y[c]) * (cvt<A>(g[c]) - s));
      }
    }
  }
}

template <typename T>
__global__ void nll_loss_backward_kernel(const T* grad, const int64_t* target, const T* weight,
                                         const T* total_weight, T* gin, int64_t n, int64_t c,
                                         bool per_row, bool mean, int64_t ignore_index,
                                         int64_t* bad) {
  using A = acc_t<T>;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t t = target[i];
    if (t == ignore_index) continue;
    if (t < 0 || t >= c) {
      *bad = t + 1;  // the host reads the flag and raises torch's message
      continue;
    }
    A g = cvt<A>(grad[per_row ? i : 0]);
    if (!per_row && mean) g /= cvt<A>(total_weight[0]);
    const A w = weight ? cvt<A>(weight[t]) : A(1);
    gin[i * c + t] = cvt<T>(-w * g);
  }
}

}  // namespace

void launch_threshold_backward(const ElementwiseArgs& args, double threshold, void* stream) {
  dispatch_numeric(args.dtypes[0], "threshold_cuda", [&]<typename T>() {
    gpu_elementwise<T, T, T>(args, ThresholdBackward<T>{static_cast<acc_t<T>>(threshold)}, stream,
                             "threshold_cuda");
  });
}

void launch_softmax_backward_rows(bool log, DT dt, const void* grad_output, const void* output,
                                  void* grad_input, int64_t rows, int64_t cols, void* stream) {
  if (rows == 0 || cols == 0) return;
  dispatch_float(dt, "softmax_backward_cuda", [&]<typename T>() {
    using A = acc_t<T>;
    const RowLaunch l = row_launch(rows, cols);
    const auto* g = static_cast<const T*>(grad_output);
    const auto* y = static_cast<const T*>(output);
    auto* gi = static_cast<T*>(grad_input);
    if (log) {
      softmax_backward_rows_kernel<true, T>
          <<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(g, y, gi, rows, cols);
    } else {
      softmax_backward_rows_kernel<false, T>
          <<<l.grid, l.block, l.block * sizeof(A), as_stream(stream)>>>(g, y, gi, rows, cols);
    }
  });
  check_launch("softmax_backward_cuda");
}

void launch_nll_loss_backward(DT dt, const void* grad_output, const int64_t* target,
                              const void* weight, const void* total_weight, void* grad_input,
                              int64_t n, int64_t c, bool per_row, bool mean, int64_t ignore_index,
                              int64_t* bad, void* stream) {
  if (n == 0) return;
  dispatch_float(dt, "nll_loss_backward_cuda", [&]<typename T>() {
    nll_loss_backward_kernel<T><<<grid_for(n), kBlock, 0, as_stream(stream)>>>(
        static_cast<const T*>(grad_output), target, static_cast<const T*>(weight),
        static_cast<const T*>(total_weight), static_cast<T*>(grad_input), n, c, per_row, mean,
        ignore_index, bad);
  });
  check_launch("nll_loss_backward_cuda");
}

}  // namespace opscope::cuda
