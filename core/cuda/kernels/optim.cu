// CUDA kernels of the optimizer family: the foreach ops and the fused SGD / Adam(W) / RMSprop
// steps, several tensors per launch (ListArgs, LaunchTraining.h). Each element's arithmetic is
// the CPU kernel's (core/ops/cpu/optim.cpp), in the tensors' dtype; nvcc may contract a * b + c
// into one fused multiply-add, so float32 results can differ from the CPU's by an ulp or so.
#include "core/cuda/kernels/LaunchTraining.h"
#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

namespace {

// The tensor block blockIdx.x works on, and its element range [begin, end).
struct Chunk {
  int t;
  int64_t begin, end;
};

__device__ __forceinline__ Chunk my_chunk(const ListArgs& a) {
  const int64_t b = blockIdx.x;
  int t = 0;
  while (t + 1 < a.ntensors && a.block_start[t + 1] <= b) ++t;
  const int64_t begin = (b - a.block_start[t]) * kListChunk;
  int64_t end = begin + kListChunk;
  if (end > a.numel[t]) end = a.numel[t];
  return {t, begin, end};
}

template <typename T>
__device__ __forceinline__ T* list(const ListArgs& a, int l, int t) {
  return static_cast<T*>(a.data[l][t]);
}

template <typename T>
__device__ __forceinline__ bool nan_of(T v) {
  return v != v;
}

template <typename T>
__global__ void foreach_kernel(ListArgs a, ForeachOp op, T s) {
  const Chunk c = my_chunk(a);
  T* x = list<T>(a, 0, c.t);
  const T* y = a.data[1][c.t] ? list<T>(a, 1, c.t) : nullptr;
  const T* z = a.data[2][c.t] ? list<T>(a, 2, c.t) : nullptr;
  for (int64_t k = c.begin + threadIdx.x; k < c.end; k += blockDim.x) {
    const T v = x[k];
    T r;
    switch (op) {
      case ForeachOp::AddScalar: r = v + s; break;
      case ForeachOp::SubScalar: r = v - s; break;
      case ForeachOp::MulScalar: r = v * s; break;
      case ForeachOp::DivScalar: r = v / s; break;
      case ForeachOp::AddList: r = v + s * y[k]; break;
      case ForeachOp::SubList: r = v - s * y[k]; break;
      case ForeachOp::MulList: r = v * y[k]; break;
      case ForeachOp::DivList: r = v / y[k]; break;
      case ForeachOp::MaxList: {
        const T w = y[k];
        r = (nan_of(v) || nan_of(w)) ? v + w : (v > w ? v : w);
        break;
      }
      case ForeachOp::Addcmul: r = v + s * (y[k] * z[k]); break;
      case ForeachOp::Addcdiv: r = v + s * (y[k] / z[k]); break;
      case ForeachOp::Lerp: {  // torch's two-sided formula, exact at s = 0 and s = 1
        const T e = y[k];
        r = fabs(s) < T(0.5) ? v + s * (e - v) : e - (e - v) * (T(1) - s);
        break;
      }
      case ForeachOp::Sqrt: r = sqrt(v); break;
      case ForeachOp::Neg: r = -v; break;
      case ForeachOp::Zero: r = T(0); break;
      default: r = v; break;
    }
    x[k] = r;
  }
}

// torch.optim.SGD, as sgd_loop in core/ops/cpu/optim.cpp.
template <typename T>
__global__ void sgd_kernel(ListArgs a, SgdParams prm) {
  const Chunk c = my_chunk(a);
  T* p = list<T>(a, 0, c.t);
  const T* g = list<T>(a, 1, c.t);
  T* buf = prm.with_momentum ? list<T>(a, 2, c.t) : nullptr;
  const T sign = prm.maximize ? T(-1) : T(1), keep = T(1) - T(prm.dampening);
  const T wd = T(prm.weight_decay), mom = T(prm.momentum), lr = T(prm.lr);
  const T own = prm.nesterov ? T(1) : T(0), on_buf = prm.nesterov ? mom : T(1);
  for (int64_t k = c.begin + threadIdx.x; k < c.end; k += blockDim.x) {
    const T d = sign * g[k] + wd * p[k];
    if (!buf) {
      p[k] = p[k] - lr * d;
      continue;
    }
    // The first step never reads the buffer (uninitialized memory).
    const T m = prm.first ? d : mom * buf[k] + keep * d;
    buf[k] = m;
    p[k] = p[k] - lr * (own * d + on_buf * m);
  }
}

__device__ __forceinline__ double read_step(const ListArgs& a, int t) {
  const void* s = a.step[t];
  if (!s) return a.host_step[t];
  switch (a.step_dt) {
    case DT::Double: return *static_cast<const double*>(s);
    case DT::Int64: return static_cast<double>(*static_cast<const int64_t*>(s));
    case DT::Int32: return static_cast<double>(*static_cast<const int32_t*>(s));
    case DT::Half: return static_cast<double>(__half2float(*static_cast<const half*>(s)));
    case DT::BFloat16: return static_cast<double>(__bfloat162float(*static_cast<const bf16*>(s)));
    default: return static_cast<double>(*static_cast<const float*>(s));
  }
}

// torch.optim.Adam / AdamW, as adam_loop in core/ops/cpu/optim.cpp (one division: the step's
// 1 / sqrt(1 - beta2^t) is a factor, rounded once from double).
template <typename T>
__global__ void adam_kernel(ListArgs a, AdamParams prm) {
  const Chunk c = my_chunk(a);
  T* p = list<T>(a, 0, c.t);
  T* m = list<T>(a, 1, c.t);
  T* v = list<T>(a, 2, c.t);
  const T* g = list<T>(a, 3, c.t);
  T* vmax = prm.amsgrad ? list<T>(a, 4, c.t) : nullptr;
  const double step = read_step(a, c.t);
  const double bc1 = 1 - ::pow(prm.beta1, step), bc2 = 1 - ::pow(prm.beta2, step);
  const T neg_step = -T(prm.lr / bc1), inv_bc2 = T(1 / ::sqrt(bc2));
  const T sign = prm.maximize ? T(-1) : T(1);
  const T coupled = prm.decoupled ? T(0) : T(prm.weight_decay);
  const T shrink = prm.decoupled ? T(1) - T(prm.lr) * T(prm.weight_decay) : T(1);
  const T beta1 = T(prm.beta1), beta2 = T(prm.beta2);
  const T c1 = T(1) - beta1, c2 = T(1) - beta2, eps = T(prm.eps);
  for (int64_t k = c.begin + threadIdx.x; k < c.end; k += blockDim.x) {
    const T pk = p[k] * shrink;
    const T gk = sign * g[k] + coupled * pk;
    const T mk = m[k] * beta1 + c1 * gk;
    const T vk = v[k] * beta2 + c2 * (gk * gk);
    m[k] = mk;
    v[k] = vk;
    T w = vk;
    if (vmax) {
      const T old = vmax[k];
      w = old > vk || nan_of(old) ? old : vk;
      vmax[k] = w;
    }
    p[k] = pk + neg_step * mk / (sqrt(w) * inv_bc2 + eps);
  }
}

// torch.optim.RMSprop, as rmsprop_loop in core/ops/cpu/optim.cpp.
template <typename T>
__global__ void rmsprop_kernel(ListArgs a, RmspropParams prm) {
  const Chunk c = my_chunk(a);
  T* p = list<T>(a, 0, c.t);
  const T* g = list<T>(a, 1, c.t);
  T* sq = list<T>(a, 2, c.t);
  T* ga = prm.centered ? list<T>(a, 3, c.t) : nullptr;
  T* buf = prm.with_momentum ? list<T>(a, 4, c.t) : nullptr;
  const T sign = prm.maximize ? T(-1) : T(1), wd = T(prm.weight_decay), lr = T(prm.lr);
  const T eps = T(prm.eps), alpha = T(prm.alpha), rest = T(1) - T(prm.alpha);
  const T mom = T(prm.momentum);
  for (int64_t k = c.begin + threadIdx.x; k < c.end; k += blockDim.x) {
    const T gk = sign * g[k] + wd * p[k];
    const T s = sq[k] * alpha + rest * (gk * gk);
    sq[k] = s;
    T avg;
    if (ga) {
      const T mk = ga[k] * alpha + rest * gk;
      ga[k] = mk;
      avg = sqrt(s - mk * mk) + eps;
    } else {
      avg = sqrt(s) + eps;
    }
    if (buf) {
      const T b = buf[k] * mom + gk / avg;
      buf[k] = b;
      p[k] = p[k] - lr * b;
    } else {
      p[k] = p[k] - lr * (gk / avg);
    }
  }
}

unsigned list_grid(const ListArgs& a) { return static_cast<unsigned>(a.block_start[a.ntensors]); }

template <typename F>
void on_float_dt(DT dt, const char* what, F&& f) {
  if (dt == DT::Double) return f.template operator()<double>();
  if (dt == DT::Float) return f.template operator()<float>();
  throw_cuda_error(what, "expected float32 or float64 tensors");
}

}  // namespace

void launch_foreach(ForeachOp op, const ListArgs& args, double s, void* stream) {
  if (args.ntensors == 0 || list_grid(args) == 0) return;
  on_float_dt(args.dt, "foreach_cuda", [&]<typename T>() {
    foreach_kernel<T><<<list_grid(args), kBlock, 0, as_stream(stream)>>>(args, op, T(s));
  });
  check_launch("foreach_cuda");
}

void launch_fused_sgd(const ListArgs& args, const SgdParams& p, void* stream) {
  if (args.ntensors == 0 || list_grid(args) == 0) return;
  on_float_dt(args.dt, "fused_sgd_cuda", [&]<typename T>() {
    sgd_kernel<T><<<list_grid(args), kBlock, 0, as_stream(stream)>>>(args, p);
  });
  check_launch("fused_sgd_cuda");
}

void launch_fused_adam(const ListArgs& args, const AdamParams& p, void* stream) {
  if (args.ntensors == 0 || list_grid(args) == 0) return;
  on_float_dt(args.dt, "fused_adam_cuda", [&]<typename T>() {
    adam_kernel<T><<<list_grid(args), kBlock, 0, as_stream(stream)>>>(args, p);
  });
  check_launch("fused_adam_cuda");
}

void launch_fused_rmsprop(const ListArgs& args, const RmspropParams& p, void* stream) {
  if (args.ntensors == 0 || list_grid(args) == 0) return;
  on_float_dt(args.dt, "fused_rmsprop_cuda", [&]<typename T>() {
    rmsprop_kernel<T><<<list_grid(args), kBlock, 0, as_stream(stream)>>>(args, p);
  });
  check_launch("fused_rmsprop_cuda");
}

}  // namespace opscope::cuda
