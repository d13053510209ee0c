// Launchers of the kernels a training loop needs beyond the forward ops (host sides in optim.cpp,
// scan_sort.cpp, norm_pool.cpp; device code in the .cu of the same name): the optimizers'
// foreach ops and fused steps, cumsum / cumprod, sort, batch norm and 2-D pooling. Plain
// arguments only, as Launch.h's (whose DT they use), so nvcc never parses an opscope header.
#pragma once

#include "core/cuda/kernels/Launch.h"

namespace opscope::cuda {

// --- optimizers (optim.cu): several tensors per launch ---------------------------------------

// Tensors one launch takes, and lists per tensor (Adam with amsgrad: param, exp_avg, exp_avg_sq,
// max_exp_avg_sq, grad). The struct travels as a kernel argument (about 2.3 KB, under the 4 KB
// limit).
constexpr int kListTensors = 32;
constexpr int kListLists = 5;
// Elements one block updates (its chunk of one tensor).
constexpr int64_t kListChunk = 4096;

// Up to kListTensors tensors of one dtype (float or double), the element k of list l's tensor t
// at data[l][t] + k (contiguous, or dense with the strides every list shares at that index).
// Block b works on tensor t where block_start[t] <= b < block_start[t + 1], elements
// [(b - block_start[t]) * kListChunk, ...) of it.
struct ListArgs {
  int ntensors = 0;
  DT dt = DT::Float;
  void* data[kListLists][kListTensors] = {};
  int64_t numel[kListTensors] = {};
  int64_t block_start[kListTensors + 1] = {};
  // Adam's step count per tensor: read on the device from step[t] (of dtype step_dt) when not
  // null, else host_step[t].
  const void* step[kListTensors] = {};
  DT step_dt = DT::Float;
  double host_step[kListTensors] = {};
};

enum class ForeachOp : int {
  AddScalar, SubScalar, MulScalar, DivScalar,  // x = x op s
  AddList, SubList,                            // x = x op alpha * y
  MulList, DivList, MaxList,                   // x = x op y (max: NaN wins)
  Addcmul, Addcdiv,                            // x = x + s * (y * z), x + s * (y / z)
  Lerp,                                        // x = lerp(x, y, s)
  Sqrt, Neg, Zero,
};
// Lists: x (written), then y, z as the op takes them. `s` is the scalar / alpha / value / weight.
void launch_foreach(ForeachOp op, const ListArgs& args, double s, void* stream);

struct SgdParams {
  double weight_decay, momentum, lr, dampening;
  bool nesterov, maximize, first, with_momentum;
};
// Lists: param, grad, momentum buffer (when with_momentum).
void launch_fused_sgd(const ListArgs& args, const SgdParams& p, void* stream);

struct AdamParams {
  double lr, beta1, beta2, weight_decay, eps;
  bool amsgrad, maximize, decoupled;
};
// Lists: param, exp_avg, exp_avg_sq, grad, then max_exp_avg_sq when amsgrad.
void launch_fused_adam(const ListArgs& args, const AdamParams& p, void* stream);

struct RmspropParams {
  double lr, alpha, eps, weight_decay, momentum;
  bool centered, with_momentum, maximize;
};
// Lists: param, grad, square_avg, grad_avg (centered; else unused), momentum buffer (with
// momentum; else unused).
void launch_fused_rmsprop(const ListArgs& args, const RmspropParams& p, void* stream);

// --- scans and sorting (scan_sort.cu) ----------------------------------------------------------

// out[o, r, i] = in[o, 0, i] op ... op in[o, r, i] over a contiguous [outer, len, inner] block;
// in and out of dtype dt (int64 or floating), accumulated in double for float / double, float
// for the 16-bit floats, int64 for int64.
void launch_scan(bool is_sum, DT dt, const void* in, void* out, int64_t outer, int64_t len,
                 int64_t inner, void* stream);

// Sorts rows of a contiguous [rows, n] block: values (dt) and indices (int64, the position in
// the row) written to contiguous [rows, n] outputs. The order is total (NaN above every number,
// ties by position), so the result is the stable sort's. Works in `scratch`: rows * padded(n)
// keys (8 bytes each) and rows * padded(n) int64 positions, padded(n) the power of two >= n.
void launch_sort_rows(DT dt, const void* in, void* values, int64_t* indices, int64_t rows,
                      int64_t n, bool descending, void* key_scratch, int64_t* pos_scratch,
                      void* stream);
// padded(n) as launch_sort_rows uses it.
int64_t sort_padded_len(int64_t n);

// --- batch norm and pooling (norm_pool.cu) ----------------------------------------------------

// Batch norm over a contiguous [N, C, S] input (S: the product of the dims after C), with
// per-channel statistics in double on the device. Channel vectors (weight, bias, running and
// saved statistics) are contiguous, of the input's dtype; any of them may be null where noted.
//
// Training statistics of each channel (one block per channel, two passes: mean, then the
// biased variance): mean[c], invstd[c] = 1 / sqrt(var + eps), save_mean[c] and save_invstd[c];
// running_mean / running_var (may be null) move by `momentum` towards the mean and the unbiased
// variance. A channel without elements gets NaN statistics and keeps its running ones.
void launch_batch_norm_train_stats(DT dt, const void* x, int64_t N, int64_t C, int64_t S,
                                   double eps, double momentum, double* mean, double* invstd,
                                   void* save_mean, void* save_invstd, void* running_mean,
                                   void* running_var, void* stream);
// Given statistics: mean[c] = m[c], invstd[c] = v[c] when v_is_invstd, else 1 / sqrt(v[c] + eps).
void launch_batch_norm_given_stats(DT dt, const void* m, const void* v, bool v_is_invstd,
                                   double eps, int64_t C, double* mean, double* invstd,
                                   void* stream);
// y = (x - mean[c]) * invstd[c] * w[c] + b[c] (w, b may be null), computed in double.
void launch_batch_norm_apply(DT dt, const void* x, void* y, const double* mean,
                             const double* invstd, const void* w, const void* b, int64_t N,
                             int64_t C, int64_t S, void* stream);
// Per channel: sum_dy[c] = sum(dy), sum_dy_xmu[c] = sum(dy * (x - mean[c])), one block each.
void launch_batch_norm_backward_reduce(DT dt, const void* dy, const void* x, const double* mean,
                                       double* sum_dy, double* sum_dy_xmu, int64_t N, int64_t C,
                                       int64_t S, void* stream);
// dx = dy k + x p + q per channel, k = invstd w; training: p = -k invstd^2 sum_dy_xmu / n,
// q = -k sum_dy / n - mean p (n = N S); eval: p = q = 0. w may be null (1).
void launch_batch_norm_backward_input(DT dt, const void* dy, const void* x, void* dx,
                                      const double* mean, const double* invstd,
                                      const double* sum_dy, const double* sum_dy_xmu,
                                      const void* w, bool train, int64_t N, int64_t C, int64_t S,
                                      void* stream);
// grad_weight[c] = sum_dy_xmu[c] * invstd[c], grad_bias[c] = sum_dy[c]; either may be null.
void launch_batch_norm_backward_params(DT dt, const double* invstd, const double* sum_dy,
                                       const double* sum_dy_xmu, void* grad_weight,
                                       void* grad_bias, int64_t C, void* stream);

// A 2-D pooling's geometry: planes of H x W in, OH x OW out, all contiguous.
struct PoolGeom {
  int64_t planes, H, W, OH, OW;
  int64_t kH, kW, sH, sW, pH, pW, dH, dW;
};
// out, indices (h * W + w of each window's maximum; NaN wins, the last NaN) per output cell.
void launch_max_pool2d(DT dt, const void* in, void* out, int64_t* indices, const PoolGeom& g,
                       void* stream);
// grad_input (zeroed here) += grad_output at the indices, per plane (atomics).
void launch_max_pool2d_backward(DT dt, const void* grad_output, const int64_t* indices,
                                void* grad_input, const PoolGeom& g, void* stream);
// divisor_override 0: none.
void launch_avg_pool2d(DT dt, const void* in, void* out, const PoolGeom& g,
                       bool count_include_pad, int64_t divisor_override, void* stream);
// grad_input of each input cell: the sum over the windows covering it of grad / divisor (a
// gather, no atomics).
void launch_avg_pool2d_backward(DT dt, const void* grad_output, void* grad_input,
                                const PoolGeom& g, bool count_include_pad,
                                int64_t divisor_override, void* stream);

// --- 2-D convolution (conv.cu): im2col / col2im around cuBLAS products -------------------------

// A convolution's geometry: input (N, C, H, W) and output (N, O, OH, OW) contiguous, a kh x kw
// window of stride (sh, sw), zero padding (ph, pw), taps (dh, dw) apart.
struct ConvGeom {
  int64_t N, C, H, W, OH, OW;
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
};
// col (N, C * kh * kw, OH * OW)[n, (c * kh + i) * kw + j, oh * OW + ow] = the input element the
// tap (i, j) of window (oh, ow) reads, 0 in the padding.
void launch_im2col(DT dt, const void* x, void* col, const ConvGeom& g, void* stream);
// The adjoint of im2col: dx (N, C, H, W)[n, c, h, w] = the sum of the col elements that read it
// (a gather per input element: no atomics, a fixed order).
void launch_col2im(DT dt, const void* col, void* dx, const ConvGeom& g, void* stream);

}  // namespace opscope::cuda
