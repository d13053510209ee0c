// CUDA kernels of the products on cuBLAS: mm, addmm, bmm, baddbmm, mv, addmv, dot, vdot.
// matmul and linear stay composites (core/ops/composite/linear.cpp), so `a @ b` on the GPU reads
// matmul -> mm -> cublasSgemm in a trace and in the stack view, as in torch.
//
// Semantically every product here is C = beta * C + alpha * op(A) op(B) on row-major tensors.
// cuBLAS is column-major: a row-major (M, N) matrix is its (N, M) transpose there, so
// C = A B is computed as C^T = B^T A^T with the operands swapped, no copy. An operand whose last
// dim is not unit-stride is read transposed when its first dim is (a .t() view: the weight of
// nn.Linear), and copied contiguous only otherwise; a result that is not row-major is computed
// into a temporary and copied back.
//
// In implementation terms float32 / float64 call cublasSgemm / cublasDgemm (and their
// StridedBatched forms for bmm) directly, as torch does, so their names are the frames under the
// kernel; float16 / bfloat16 go through cublasGemmEx with float accumulation. One cuBLAS handle
// per thread and device, bound to the current stream at each call. TF32 is off unless
// set_allow_tf32(true) (Blas.h). addmm with a bias vector (nn.Linear's forward) is one
// cublasLtMatmul with the bias in its epilogue (Note [A bias in the product's epilogue]).
#include <cublasLt.h>
#include <cublas_v2.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <unordered_map>

#include "core/cuda/kernels/Blas.h"
#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/runtime/Blas.h"
#include "core/runtime/ScalarConvert.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/linear.h"
#include "core/ops/views.h"

namespace opscope::cuda {

namespace {

std::atomic<bool> g_allow_tf32{false};

const char* cublas_status_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "CUBLAS_STATUS_UNKNOWN";
  }
}

// torch's message shape: "CUDA error: CUBLAS_STATUS_... when calling `cublasSgemm( ... )`".
void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw Error(detail::str("CUDA error: ", cublas_status_name(s), " when calling `", call, "`"));
}

// The calling thread's handle for the current device, on the current stream, in the math mode
// that float32 products should use.
cublasHandle_t handle_for(ScalarType t) {
  thread_local std::unordered_map<int, cublasHandle_t> handles;
  int device = current_device();
  auto it = handles.find(device);
  if (it == handles.end()) {
    cublasHandle_t h = nullptr;
    check_cublas(cublasCreate(&h), "cublasCreate(&handle)");
    it = handles.emplace(device, h).first;
  }
  cublasHandle_t h = it->second;
  check_cublas(cublasSetStream(h, getCurrentCUDAStream().stream()), "cublasSetStream");
  cublasMath_t mode = (t == ScalarType::Float32 && g_allow_tf32.load(std::memory_order_relaxed))
                          ? CUBLAS_TF32_TENSOR_OP_MATH
                          : CUBLAS_DEFAULT_MATH;
  check_cublas(cublasSetMathMode(h, mode), "cublasSetMathMode");
  return h;
}

// Tells the profiler's BLAS call hooks (core/runtime/Blas.h) that a cuBLAS routine is about to
// run, as the cblas wrappers do for OpenBLAS: a trace recorded with stacks then has the stack of
// a CUDA product ending in the routine (matmul -> mm[CUDA] -> cublasSgemm, the lecture's layers
// down to blas), and the op's line names it. One atomic load when no hook is set.
template <typename F>
void announce(F routine, const char* name) {
  blas::CallHook hooks[8];
  const size_t n = blas::call_hooks(hooks, 8);
  for (size_t i = 0; i < n; ++i) hooks[i](name, reinterpret_cast<const void*>(routine));
}

// The C entry points of the two Ex routines, which cublas_api.h also overloads inline.
using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const void*, const void*, cudaDataType, int, const void*,
                                  cudaDataType, int, const void*, void*, cudaDataType, int,
                                  cublasComputeType_t, cublasGemmAlgo_t);
using GemmStridedBatchedEx = cublasStatus_t (*)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*,
    cudaDataType, int, long long, const void*, cudaDataType, int, long long, const void*, void*,
    cudaDataType, int, long long, int, cublasComputeType_t, cublasGemmAlgo_t);

int as_int(int64_t v, const char* what) {
  OPSCOPE_CHECK(v >= 0 && v <= INT32_MAX, "cuBLAS takes 32-bit sizes: ", what, " = ", v,
                " is too large");
  return static_cast<int>(v);
}

// How cuBLAS reads a row-major matrix operand (rows, cols) with strides (s0, s1): as is
// (column-major op N of its transpose, ld = s0) or transposed (ld = s1). A layout that is
// neither gets a contiguous copy.
struct Operand {
  Tensor t;          // the tensor cuBLAS reads (the input, or its contiguous copy)
  cublasOperation_t op;
  int64_t ld;
  int64_t batch_stride;
};

Operand as_operand(const Tensor& m, bool batched) {
  const int64_t d0 = batched ? 1 : 0;
  const int64_t rows = m.size(d0), cols = m.size(d0 + 1);
  const int64_t s0 = m.stride(d0), s1 = m.stride(d0 + 1);
  const int64_t bs = batched ? m.stride(0) : 0;
  if (s1 == 1 && s0 >= std::max<int64_t>(1, cols)) return {m, CUBLAS_OP_N, s0, bs};
  if (s0 == 1 && s1 >= std::max<int64_t>(1, rows)) return {m, CUBLAS_OP_T, s1, bs};
  // A size-1 dim's stride is arbitrary: a (1, K) or (K, 1) matrix is still a plain vector.
  if (cols == 1 && s0 >= 1) return {m, CUBLAS_OP_N, std::max<int64_t>(s0, 1), bs};
  if (rows == 1 && s1 >= 1) return {m, CUBLAS_OP_T, std::max<int64_t>(s1, 1), bs};
  Tensor c = ops::contiguous(m);
  return {c, CUBLAS_OP_N, std::max<int64_t>(1, cols), batched ? rows * cols : 0};
}

cudaDataType_t cuda_type(ScalarType t) {
  return t == ScalarType::Float16 ? CUDA_R_16F : CUDA_R_16BF;
}

// c (B?, M, N) = alpha * a (B?, M, K) b (B?, K, N) + beta * c; c row-major with unit last
// stride. Batched when `batched` (3-D operands, a batch stride each; 0 broadcasts).
void gemm(const Tensor& c, const Tensor& a, const Tensor& b, double alpha, double beta,
          bool batched, const char* name) {
  const ScalarType t = c.dtype();
  const int64_t d0 = batched ? 1 : 0;
  const int64_t M = c.size(d0), N = c.size(d0 + 1), K = a.size(d0 + 1);
  const int64_t batch = batched ? c.size(0) : 1;
  Operand A = as_operand(a, batched), B = as_operand(b, batched);
  const int m = as_int(N, "n"), n = as_int(M, "m"), k = as_int(K, "k");
  const int lda = as_int(B.ld, "ld"), ldb = as_int(A.ld, "ld");
  const int ldc = as_int(std::max<int64_t>(1, c.stride(d0)), "ldc");
  const int64_t stride_c = batched ? c.stride(0) : 0;
  const int nbatch = as_int(batch, "batch");
  cublasHandle_t h = handle_for(t);
  // Column-major: C^T (N x M) = B^T (N x K) * A^T (K x M).
  if (t == ScalarType::Float32) {
    const float al = static_cast<float>(alpha), be = static_cast<float>(beta);
    const float* pb = static_cast<const float*>(B.t.data());
    const float* pa = static_cast<const float*>(A.t.data());
    float* pc = static_cast<float*>(c.data());
    if (!batched) {
      announce(&cublasSgemm_v2, "cublasSgemm");
      check_cublas(cublasSgemm(h, B.op, A.op, m, n, k, &al, pb, lda, pa, ldb, &be, pc, ldc),
                   "cublasSgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, "
                   "ldc)");
    } else {
      announce(&cublasSgemmStridedBatched, "cublasSgemmStridedBatched");
      check_cublas(cublasSgemmStridedBatched(h, B.op, A.op, m, n, k, &al, pb, lda, B.batch_stride,
                                             pa, ldb, A.batch_stride, &be, pc, ldc, stride_c,
                                             nbatch),
                   "cublasSgemmStridedBatched( handle, opa, opb, m, n, k, &alpha, a, lda, stridea, "
                   "b, ldb, strideb, &beta, c, ldc, stridec, num_batches)");
    }
  } else if (t == ScalarType::Float64) {
    const double* pb = static_cast<const double*>(B.t.data());
    const double* pa = static_cast<const double*>(A.t.data());
    double* pc = static_cast<double*>(c.data());
    if (!batched) {
      announce(&cublasDgemm_v2, "cublasDgemm");
      check_cublas(cublasDgemm(h, B.op, A.op, m, n, k, &alpha, pb, lda, pa, ldb, &beta, pc, ldc),
                   "cublasDgemm( handle, opa, opb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, "
                   "ldc)");
    } else {
      announce(&cublasDgemmStridedBatched, "cublasDgemmStridedBatched");
      check_cublas(cublasDgemmStridedBatched(h, B.op, A.op, m, n, k, &alpha, pb, lda,
                                             B.batch_stride, pa, ldb, A.batch_stride, &beta, pc,
                                             ldc, stride_c, nbatch),
                   "cublasDgemmStridedBatched( handle, opa, opb, m, n, k, &alpha, a, lda, stridea, "
                   "b, ldb, strideb, &beta, c, ldc, stridec, num_batches)");
    }
  } else if (t == ScalarType::Float16 || t == ScalarType::BFloat16) {
    const float al = static_cast<float>(alpha), be = static_cast<float>(beta);
    const cudaDataType_t dt = cuda_type(t);
    if (!batched) {
      announce(static_cast<GemmEx>(&cublasGemmEx), "cublasGemmEx");
      check_cublas(cublasGemmEx(h, B.op, A.op, m, n, k, &al, B.t.data(), dt, lda, A.t.data(), dt,
                                ldb, &be, c.data(), dt, ldc, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT_TENSOR_OP),
                   "cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, type, lda, b, type, ldb, "
                   "&fbeta, c, type, ldc, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)");
    } else {
      announce(static_cast<GemmStridedBatchedEx>(&cublasGemmStridedBatchedEx),
               "cublasGemmStridedBatchedEx");
      check_cublas(cublasGemmStridedBatchedEx(h, B.op, A.op, m, n, k, &al, B.t.data(), dt, lda,
                                              B.batch_stride, A.t.data(), dt, ldb,
                                              A.batch_stride, &be, c.data(), dt, ldc, stride_c,
                                              nbatch, CUBLAS_COMPUTE_32F,
                                              CUBLAS_GEMM_DEFAULT_TENSOR_OP),
                   "cublasGemmStridedBatchedEx( handle, opa, opb, m, n, k, &falpha, a, type, lda, "
                   "stridea, b, type, ldb, strideb, &fbeta, c, type, ldc, stridec, num_batches, "
                   "compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)");
    }
  } else {
    throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(t), "'"));
  }
}

// Note [A bias in the product's epilogue]
// nn.Linear's forward is addmm(bias, x, weight.t()): beta 1, a bias vector broadcast over the
// rows. Copying the bias into every row of the result and then multiplying with beta = 1 writes
// the result twice and reads it once more; cuBLASLt adds the bias in the product's epilogue
// instead (CUBLASLT_EPILOGUE_BIAS), one kernel and one write. torch 2.x takes this path under
// the same conditions (its addmm Lt path), so the stack of a CUDA Linear ends in cublasLtMatmul
// in both: a fresh (not in-place) result, 2-D and contiguous; beta exactly 1; a contiguous bias
// of N elements (1-D, or leading sizes of 1); float32 / float64 / float16 / bfloat16; every size
// of both matrices above 1. DISABLE_ADDMM_CUDA_LT=1 turns it off, as in torch.
//
// In column-major terms the product is C^T (N x M) = B^T A^T (gemm's operands swapped), and
// cuBLASLt's bias has one element per row of C^T: the N columns of the row-major result, as
// addmm broadcasts it. Each thread has a cuBLASLt handle per device and a 4 MiB workspace per
// stream from the caching allocator, held for the thread's life (torch keeps one per handle and
// stream too: the first Linear on a stream shows it in memory_allocated()). When cuBLASLt finds
// no algorithm for a problem, the product takes the copy + gemm path.
constexpr size_t kLtWorkspaceBytes = size_t(4) << 20;

bool lt_disabled() {
  static const bool disabled = [] {
    const char* v = std::getenv("DISABLE_ADDMM_CUDA_LT");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return disabled;
}

bool bias_fits_epilogue(const Tensor& result, const Tensor& bias, const Tensor& m1,
                        const Tensor& m2, const Scalar& beta) {
  const ScalarType t = result.dtype();
  if (lt_disabled() || bias.is_same(result) || beta.to_double() != 1.0) return false;
  if (t != ScalarType::Float32 && t != ScalarType::Float64 && t != ScalarType::Float16 &&
      t != ScalarType::BFloat16)
    return false;
  if (bias.dtype() != t || m1.dtype() != t || m2.dtype() != t) return false;
  if (result.dim() != 2 || !result.is_contiguous() || !bias.is_contiguous()) return false;
  if (bias.dim() == 0 || bias.size(-1) != m2.size(1)) return false;
  for (int64_t d = 0; d + 1 < bias.dim(); ++d)
    if (bias.size(d) != 1) return false;
  return m1.size(0) > 1 && m1.size(1) > 1 && m2.size(0) > 1 && m2.size(1) > 1;
}

cublasLtHandle_t lt_handle() {
  thread_local std::unordered_map<int, cublasLtHandle_t> handles;
  int device = current_device();
  auto it = handles.find(device);
  if (it == handles.end()) {
    cublasLtHandle_t h = nullptr;
    check_cublas(cublasLtCreate(&h), "cublasLtCreate(&handle)");
    it = handles.emplace(device, h).first;
  }
  return it->second;
}

// The calling thread's workspace for the current stream (see the Note).
void* lt_workspace(Device device, cudaStream_t stream) {
  thread_local std::unordered_map<cudaStream_t, Tensor> workspaces;
  auto it = workspaces.find(stream);
  if (it == workspaces.end()) {
    Tensor w =
        make_empty(std::array<int64_t, 1>{int64_t(kLtWorkspaceBytes)}, ScalarType::UInt8, device);
    it = workspaces.emplace(stream, std::move(w)).first;
  }
  return it->second.data();
}

// The largest power of two (up to 256) dividing a pointer: cuBLASLt must not pick an algorithm
// that needs more alignment than a view's data has.
uint32_t alignment_of(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  uint32_t align = 1;
  while (align < 256 && (a % (align * 2)) == 0) align *= 2;
  return align;
}

template <typename T, auto Destroy>
struct LtDeleter {
  void operator()(T p) const { Destroy(p); }
};
using MatmulDesc = std::unique_ptr<std::remove_pointer_t<cublasLtMatmulDesc_t>,
                                   LtDeleter<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy>>;
using Layout = std::unique_ptr<std::remove_pointer_t<cublasLtMatrixLayout_t>,
                               LtDeleter<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>>;
using Preference =
    std::unique_ptr<std::remove_pointer_t<cublasLtMatmulPreference_t>,
                    LtDeleter<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy>>;

// A column-major matrix of rows x cols with leading dimension ld, or its transpose when op is T
// (so that op(X) is rows x cols).
Layout lt_layout(cudaDataType_t type, cublasOperation_t op, uint64_t rows, uint64_t cols,
                 int64_t ld) {
  const bool trans = op == CUBLAS_OP_T;
  cublasLtMatrixLayout_t l = nullptr;
  check_cublas(cublasLtMatrixLayoutCreate(&l, type, trans ? cols : rows, trans ? rows : cols, ld),
               "cublasLtMatrixLayoutCreate(&layout, type, rows, cols, ld)");
  return Layout(l);
}

// result (M, N) = alpha * m1 m2 + bias, as one cublasLtMatmul; false when cuBLASLt has no
// algorithm for it (the caller then runs the gemm path).
bool addmm_bias_epilogue(const Tensor& result, const Tensor& bias, const Tensor& m1,
                         const Tensor& m2, const Scalar& alpha) {
  const ScalarType t = result.dtype();
  const int64_t M = result.size(0), N = result.size(1), K = m1.size(1);
  Operand A = as_operand(m1, false), B = as_operand(m2, false);
  const uint64_t m = as_int(N, "n"), n = as_int(M, "m"), k = as_int(K, "k");
  const int64_t lda = as_int(B.ld, "ld"), ldb = as_int(A.ld, "ld");
  cudaDataType_t data = CUDA_R_32F, scale = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  if (t == ScalarType::Float64) {
    data = scale = CUDA_R_64F;
    compute = CUBLAS_COMPUTE_64F;
  } else if (t == ScalarType::Float16 || t == ScalarType::BFloat16) {
    data = cuda_type(t);
  } else if (g_allow_tf32.load(std::memory_order_relaxed)) {
    compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  }
  cublasLtMatmulDesc_t raw_desc = nullptr;
  check_cublas(cublasLtMatmulDescCreate(&raw_desc, compute, scale),
               "cublasLtMatmulDescCreate(&desc, compute_type, scale_type)");
  MatmulDesc desc(raw_desc);
  const cublasOperation_t opa = B.op, opb = A.op;  // C^T = B^T A^T
  const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
  const void* bias_ptr = bias.data();
  const auto set = [&](cublasLtMatmulDescAttributes_t attr, const void* v, size_t size) {
    check_cublas(cublasLtMatmulDescSetAttribute(desc.get(), attr, v, size),
                 "cublasLtMatmulDescSetAttribute(desc, attr, value, size)");
  };
  set(CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa);
  set(CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb);
  set(CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue);
  set(CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias_ptr, sizeof bias_ptr);
  Layout la = lt_layout(data, opa, m, k, lda), lb = lt_layout(data, opb, k, n, ldb);
  Layout lc = lt_layout(data, CUBLAS_OP_N, m, n, result.stride(0));

  cublasLtMatmulPreference_t raw_pref = nullptr;
  check_cublas(cublasLtMatmulPreferenceCreate(&raw_pref), "cublasLtMatmulPreferenceCreate(&pref)");
  Preference pref(raw_pref);
  const auto prefer = [&](cublasLtMatmulPreferenceAttributes_t attr, const void* v, size_t size) {
    check_cublas(cublasLtMatmulPreferenceSetAttribute(pref.get(), attr, v, size),
                 "cublasLtMatmulPreferenceSetAttribute(pref, attr, value, size)");
  };
  const size_t workspace_bytes = kLtWorkspaceBytes;
  prefer(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes, sizeof workspace_bytes);
  const uint32_t align_a = alignment_of(B.t.data()), align_b = alignment_of(A.t.data()),
                 align_c = alignment_of(result.data()), align_d = align_c;
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &align_a, sizeof align_a);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &align_b, sizeof align_b);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &align_c, sizeof align_c);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &align_d, sizeof align_d);

  cublasLtHandle_t h = lt_handle();
  cublasLtMatmulHeuristicResult_t heuristic;
  std::memset(&heuristic, 0, sizeof heuristic);
  int found = 0;
  const cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(
      h, desc.get(), la.get(), lb.get(), lc.get(), lc.get(), pref.get(), 1, &heuristic, &found);
  if (hs == CUBLAS_STATUS_NOT_SUPPORTED || (hs == CUBLAS_STATUS_SUCCESS && found == 0))
    return false;
  check_cublas(hs,
               "cublasLtMatmulAlgoGetHeuristic( handle, desc, adesc, bdesc, cdesc, ddesc, pref, "
               "1, &result, &count)");

  const cudaStream_t stream = getCurrentCUDAStream().stream();
  void* workspace = lt_workspace(result.device(), stream);
  const double a = alpha.to_double();
  const float af = static_cast<float>(a), zero_f = 0;
  const double zero_d = 0;
  const void* pa = t == ScalarType::Float64 ? static_cast<const void*>(&a) : &af;
  const void* pzero = t == ScalarType::Float64 ? static_cast<const void*>(&zero_d) : &zero_f;
  announce(&cublasLtMatmul, "cublasLtMatmul");
  const cublasStatus_t s = cublasLtMatmul(
      h, desc.get(), pa, B.t.data(), la.get(), A.t.data(), lb.get(), pzero, result.data(), lc.get(),
      result.data(), lc.get(), &heuristic.algo, workspace, workspace_bytes, stream);
  if (s == CUBLAS_STATUS_NOT_SUPPORTED) return false;
  check_cublas(s,
               "cublasLtMatmul( handle, desc, &alpha, a, adesc, b, bdesc, &beta, c, cdesc, d, "
               "ddesc, &algo, workspace, workspace_size, stream)");
  return true;
}

bool row_major(const Tensor& c, bool batched) {
  const int64_t d0 = batched ? 1 : 0;
  const int64_t N = c.size(d0 + 1);
  return (c.stride(d0 + 1) == 1 || N == 1) && c.stride(d0) >= std::max<int64_t>(1, N) &&
         (!batched || c.size(0) == 1 || c.stride(0) >= c.size(d0) * c.stride(d0));
}

// result = beta * self + alpha * m1 m2 (self already result's shape, or result itself).
void addmm_impl(const Tensor& result, const Tensor& self, const Tensor& m1, const Tensor& m2,
                const Scalar& beta, const Scalar& alpha, bool batched, const char* name) {
  if (result.numel() == 0) return;
  const ScalarType t = result.dtype();
  OPSCOPE_CHECK(is_floating(t), "\"", name, "\" not implemented for '", cpp_name(t), "'");
  OPSCOPE_CHECK(m1.dtype() == t && m2.dtype() == t, "expected scalar type ", cpp_name(t),
                " but found ", cpp_name(m1.dtype() != t ? m1.dtype() : m2.dtype()));
  const double b = beta.to_double();
  if (m1.size(-1) == 0) {  // K = 0: beta * self
    if (b == 0) {
      ops::zero_(result);
    } else {
      if (!self.is_same(result)) ops::copy_(result, self);
      ops::mul_(result, beta);
    }
    return;
  }
  Tensor c = row_major(result, batched) ? result : ops::contiguous(result);
  if (b != 0 && !self.is_same(c)) ops::copy_(c, self);
  gemm(c, m1, m2, alpha.to_double(), b, batched, name);
  if (!c.is_same(result)) ops::copy_(result, c);
}

void check_same_devices(std::initializer_list<const Tensor*> ts, const char* name) {
  const Tensor* first = *ts.begin();
  for (const Tensor* t : ts)
    if (t->defined()) check_same_device(*first, *t, name);
}

void resize_out(const Tensor& out, IntArrayRef sizes) { resize_output(out, sizes); }

// mm's checks (core/ops/arg_checks.h), then one dtype for both before cuBLAS.
void check_mm_args(const Tensor& self, const Tensor& mat2) {
  checks::mm_args(self, mat2);
  OPSCOPE_CHECK(self.dtype() == mat2.dtype(), "expected scalar type ", cpp_name(self.dtype()),
                " but found ", cpp_name(mat2.dtype()));
}

Tensor expand_size(const Tensor& self, IntArrayRef sizes) {
  return std::ranges::equal(self.sizes(), sizes) ? self : ops::expand(self, sizes);
}

// A (K) vector as a (1, K) row or a (K, 1) column view.
Tensor as_row(const Tensor& v) {
  return make_view(v, std::array<int64_t, 2>{1, v.size(0)},
                   std::array<int64_t, 2>{v.size(0) * v.stride(0), v.stride(0)},
                   v->storage_offset());
}
Tensor as_column(const Tensor& v) {
  return make_view(v, std::array<int64_t, 2>{v.size(0), 1},
                   std::array<int64_t, 2>{v.stride(0), 1}, v->storage_offset());
}

}  // namespace

bool allow_tf32() { return g_allow_tf32.load(std::memory_order_relaxed); }
void set_allow_tf32(bool allow) { g_allow_tf32.store(allow, std::memory_order_relaxed); }

// self (M,K), mat2 (K,N) -> (M,N)
static Tensor mm(const Tensor& self, const Tensor& mat2) {
  check_mm_args(self, mat2);
  check_same_devices({&self, &mat2}, "mm");
  CUDAGuard guard(self.device());
  Tensor result =
      make_empty(std::array<int64_t, 2>{self.size(0), mat2.size(1)}, self.dtype(), self.device());
  addmm_impl(result, result, self, mat2, 0, 1, false, "addmm_cuda");
  return result;
}
static Tensor mm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  check_mm_args(self, mat2);
  check_same_devices({&self, &mat2, &out}, "mm");
  CUDAGuard guard(self.device());
  checks::out_dtype(out, self.dtype());
  resize_out(out, std::array<int64_t, 2>{self.size(0), mat2.size(1)});
  addmm_impl(out, out, self, mat2, 0, 1, false, "addmm_cuda");
  return out;
}

static Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                    const Scalar& beta, const Scalar& alpha) {
  checks::addmm_args(self, mat1, mat2);
  check_same_devices({&self, &mat1, &mat2}, "addmm");
  CUDAGuard guard(self.device());
  std::array<int64_t, 2> sizes{mat1.size(0), mat2.size(1)};
  Tensor result = make_empty(sizes, self.dtype(), self.device());
  if (bias_fits_epilogue(result, self, mat1, mat2, beta) &&
      addmm_bias_epilogue(result, self, mat1, mat2, alpha))
    return result;
  addmm_impl(result, expand_size(self, sizes), mat1, mat2, beta, alpha, false, "addmm_cuda");
  return result;
}
static Tensor addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                        const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  checks::addmm_args(self, mat1, mat2);
  check_same_devices({&self, &mat1, &mat2, &out}, "addmm");
  CUDAGuard guard(self.device());
  std::array<int64_t, 2> sizes{mat1.size(0), mat2.size(1)};
  checks::out_dtype(out, self.dtype());
  resize_out(out, sizes);
  if (bias_fits_epilogue(out, self, mat1, mat2, beta) &&
      addmm_bias_epilogue(out, self, mat1, mat2, alpha))
    return out;
  addmm_impl(out, self.is_same(out) ? out : expand_size(self, sizes), mat1, mat2, beta, alpha,
             false, "addmm_cuda");
  return out;
}
static Tensor addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                     const Scalar& beta, const Scalar& alpha) {
  checks::addmm_args(self, mat1, mat2);
  check_same_devices({&self, &mat1, &mat2}, "addmm");
  CUDAGuard guard(self.device());
  checks::inplace_result(self, std::array<int64_t, 2>{mat1.size(0), mat2.size(1)},
                         self.dtype());
  addmm_impl(self, self, mat1, mat2, beta, alpha, false, "addmm_cuda");
  return self;
}

static DimVector baddbmm_sizes(const Tensor& batch1, const Tensor& batch2) {
  return DimVector{batch1.size(0), batch1.size(1), batch2.size(2)};
}

static Tensor bmm(const Tensor& self, const Tensor& mat2) {
  checks::bmm_args(self, mat2);
  check_same_devices({&self, &mat2}, "bmm");
  CUDAGuard guard(self.device());
  Tensor result = make_empty(baddbmm_sizes(self, mat2), mat2.dtype(), mat2.device());
  addmm_impl(result, result, self, mat2, 0, 1, true, "bmm_cuda");
  return result;
}
static Tensor bmm_out(const Tensor& self, const Tensor& mat2, const Tensor& out) {
  checks::bmm_args(self, mat2);
  check_same_devices({&self, &mat2, &out}, "bmm");
  CUDAGuard guard(self.device());
  checks::out_dtype(out, mat2.dtype());
  resize_out(out, baddbmm_sizes(self, mat2));
  addmm_impl(out, out, self, mat2, 0, 1, true, "bmm_cuda");
  return out;
}
static Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                      const Scalar& beta, const Scalar& alpha) {
  Tensor b_self = expand_size(self, baddbmm_sizes(batch1, batch2));
  checks::bmm_args(batch1, batch2);
  check_same_devices({&self, &batch1, &batch2}, "baddbmm");
  CUDAGuard guard(self.device());
  Tensor result = make_empty(baddbmm_sizes(batch1, batch2), batch2.dtype(), batch2.device());
  addmm_impl(result, b_self, batch1, batch2, beta, alpha, true, "baddbmm_cuda");
  return result;
}
static Tensor baddbmm_out(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                          const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  Tensor b_self = expand_size(self, baddbmm_sizes(batch1, batch2));
  checks::bmm_args(batch1, batch2);
  check_same_devices({&self, &batch1, &batch2, &out}, "baddbmm");
  CUDAGuard guard(self.device());
  checks::out_dtype(out, batch2.dtype());
  resize_out(out, baddbmm_sizes(batch1, batch2));
  addmm_impl(out, self.is_same(out) ? out : b_self, batch1, batch2, beta, alpha, true,
             "baddbmm_cuda");
  return out;
}
static Tensor baddbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                       const Scalar& beta, const Scalar& alpha) {
  expand_size(self, baddbmm_sizes(batch1, batch2));
  checks::bmm_args(batch1, batch2);
  check_same_devices({&self, &batch1, &batch2}, "baddbmm");
  CUDAGuard guard(self.device());
  checks::inplace_result(self, baddbmm_sizes(batch1, batch2), batch2.dtype());
  addmm_impl(self, self, batch1, batch2, beta, alpha, true, "baddbmm_cuda");
  return self;
}

// mv / addmv: the product of (M, K) and a (K, 1) column, into an (M, 1) column view.
static Tensor addmv_into(const Tensor& result, const Tensor& self, const Tensor& mat,
                         const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  CUDAGuard guard(mat.device());
  Tensor c = as_column(result);
  addmm_impl(c, self.is_same(result) ? c : as_column(self), mat, as_column(vec), beta, alpha,
             false, "addmv_impl_cuda");
  return result;
}
static Tensor mv(const Tensor& self, const Tensor& vec) {
  checks::mv_args(self, vec);
  check_same_devices({&self, &vec}, "mv");
  Tensor result = make_empty(std::array<int64_t, 1>{self.size(0)}, self.dtype(), self.device());
  return addmv_into(result, result, self, vec, 0, 1);
}
static Tensor mv_out(const Tensor& self, const Tensor& vec, const Tensor& out) {
  checks::mv_args(self, vec);
  check_same_devices({&self, &vec, &out}, "mv");
  checks::out_dtype(out, vec.dtype());
  resize_out(out, std::array<int64_t, 1>{self.size(0)});
  return addmv_into(out, out, self, vec, 0, 1);
}
static Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                    const Scalar& alpha) {
  checks::addmv_args(self, mat, vec);
  check_same_devices({&self, &mat, &vec}, "addmv");
  std::array<int64_t, 1> sizes{mat.size(0)};
  Tensor result = make_empty(sizes, vec.dtype(), vec.device());
  return addmv_into(result, expand_size(self, sizes), mat, vec, beta, alpha);
}
static Tensor addmv_out(const Tensor& self, const Tensor& mat, const Tensor& vec,
                        const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  checks::addmv_args(self, mat, vec);
  check_same_devices({&self, &mat, &vec, &out}, "addmv");
  std::array<int64_t, 1> sizes{mat.size(0)};
  checks::out_dtype(out, vec.dtype());
  resize_out(out, sizes);
  return addmv_into(out, self.is_same(out) ? out : expand_size(self, sizes), mat, vec, beta,
                    alpha);
}
static Tensor addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                     const Scalar& alpha) {
  checks::addmv_args(self, mat, vec);
  check_same_devices({&self, &mat, &vec}, "addmv");
  checks::inplace_result(self, std::array<int64_t, 1>{mat.size(0)}, vec.dtype());
  return addmv_into(self, self, mat, vec, beta, alpha);
}

// dot: a (1, K) row times a (K, 1) column into a 0-d result; float / double through cublasSdot /
// cublasDdot, writing the result on the device.
static Tensor dot(const Tensor& self, const Tensor& tensor) {
  checks::dot_args(self, tensor);
  check_same_devices({&self, &tensor}, "dot");
  CUDAGuard guard(self.device());
  const ScalarType t = self.dtype();
  OPSCOPE_CHECK(is_floating(t), "\"dot\" not implemented for '", cpp_name(t), "'");
  Tensor result = make_empty({}, t, self.device());
  const int64_t K = self.numel();
  if (K == 0) return ops::zero_(result);
  const bool plain = self.stride(0) > 0 && tensor.stride(0) > 0 && self.stride(0) <= INT32_MAX &&
                     tensor.stride(0) <= INT32_MAX && K <= INT32_MAX;
  if (plain && (t == ScalarType::Float32 || t == ScalarType::Float64)) {
    cublasHandle_t h = handle_for(t);
    check_cublas(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode");
    cublasStatus_t s;
    if (t == ScalarType::Float32) {
      announce(&cublasSdot_v2, "cublasSdot");
      s = cublasSdot(h, static_cast<int>(K), self.data_ptr<float>(),
                     static_cast<int>(self.stride(0)), tensor.data_ptr<float>(),
                     static_cast<int>(tensor.stride(0)), result.data_ptr<float>());
    } else {
      announce(&cublasDdot_v2, "cublasDdot");
      s = cublasDdot(h, static_cast<int>(K), self.data_ptr<double>(),
                     static_cast<int>(self.stride(0)), tensor.data_ptr<double>(),
                     static_cast<int>(tensor.stride(0)), result.data_ptr<double>());
    }
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    check_cublas(s, t == ScalarType::Float32 ? "cublasSdot(handle, n, x, incx, y, incy, result)"
                                             : "cublasDdot(handle, n, x, incx, y, incy, result)");
    return result;
  }
  Tensor c = make_view(result, std::array<int64_t, 2>{1, 1}, std::array<int64_t, 2>{1, 1},
                       result->storage_offset());
  addmm_impl(c, c, as_row(self), as_column(tensor), 0, 1, false, "dot");
  return result;
}
static Tensor dot_out(const Tensor& self, const Tensor& tensor, const Tensor& out) {
  resize_out(out, {});
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "result dtype ", cpp_name(out.dtype()),
                " does not match input dtype ", cpp_name(self.dtype()));
  return ops::copy_(out, ops::dot(self, tensor));
}
static Tensor vdot(const Tensor& self, const Tensor& other) { return ops::dot(self, other); }
static Tensor vdot_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  resize_out(out, {});
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "result dtype ", cpp_name(out.dtype()),
                " does not match input dtype ", cpp_name(self.dtype()));
  return ops::copy_(out, ops::vdot(self, other));
}

static Library cuda_linear(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("dot", fn<&dot>);
  m.impl("dot.out", fn<&dot_out>);
  m.impl("vdot", fn<&vdot>);
  m.impl("vdot.out", fn<&vdot_out>);
  m.impl("mv", fn<&mv>);
  m.impl("mv.out", fn<&mv_out>);
  m.impl("mm", fn<&mm>);
  m.impl("mm.out", fn<&mm_out>);
  m.impl("bmm", fn<&bmm>);
  m.impl("bmm.out", fn<&bmm_out>);
  m.impl("addmm", fn<&addmm>);
  m.impl("addmm.out", fn<&addmm_out>);
  m.impl("addmm_", fn<&addmm_>);
  m.impl("addmv", fn<&addmv>);
  m.impl("addmv.out", fn<&addmv_out>);
  m.impl("addmv_", fn<&addmv_>);
  m.impl("baddbmm", fn<&baddbmm>);
  m.impl("baddbmm.out", fn<&baddbmm_out>);
  m.impl("baddbmm_", fn<&baddbmm_>);
});

}  // namespace opscope::cuda
