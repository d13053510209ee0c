// A fake CUDA device, to run opscope's CUDA host code on a machine without a GPU: a shared
// library preloaded ahead of the CUDA runtime and cuBLAS (LD_PRELOAD), answering the calls
// core/cuda/ makes. tests/python/test_cuda_fake_device.py builds it and runs a CUDA build of
// opscope over it.
//
// Semantically it is one device, cuda:0 ("Fake CUDA device", sm_90, 80 GiB). Its memory is an
// address range the host cannot touch (PROT_NONE), backed by a shadow mapping that only the
// copy and memset entry points use: host code that dereferences a device pointer faults, as it
// does beside a real GPU. Copies and memsets are real, so values that only travel (H2D, D2H,
// D2D, fill by memset) come back intact; kernel launches and cuBLAS products are accepted and do
// nothing, so computed values are garbage. What the fake checks is the host side: no crash, the
// right errors (out of memory past FAKECUDA_SPAN_GB, default 64), the right calls.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

namespace {
size_t kSpan = size_t(1) << 36;  // 64 GiB of address space, reserved, not committed (FAKECUDA_SPAN_GB)
char* g_dev = nullptr;
char* g_shadow = nullptr;
std::atomic<size_t> g_next{0};
std::mutex g_mutex;
std::set<void*> g_pinned;
thread_local int t_device = 0;
std::atomic<uintptr_t> g_handles{0x1000};

void init() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char* gb = getenv("FAKECUDA_SPAN_GB")) kSpan = size_t(atoi(gb)) << 30;
    g_dev = static_cast<char*>(
        mmap(nullptr, kSpan, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    g_shadow = static_cast<char*>(mmap(nullptr, kSpan, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (g_dev == MAP_FAILED || g_shadow == MAP_FAILED) abort();
    if (getenv("FAKECUDA_VERBOSE")) fprintf(stderr, "fakecuda: device at %p\n", (void*)g_dev);
  });
}
bool on_device(const void* p) {
  init();
  auto c = static_cast<const char*>(p);
  return c >= g_dev && c < g_dev + kSpan;
}
void* host_view(const void* p) {
  if (on_device(p)) return g_shadow + (static_cast<const char*>(p) - g_dev);
  return const_cast<void*>(p);
}
template <typename T>
T fake_handle() {
  return reinterpret_cast<T>(g_handles.fetch_add(16));
}

// How many times the host made each kind of call, for tests of what an op or a step costs the
// host (fakecuda_count below): kernel launches, copies to the host, waits for the device.
enum Counter { kLaunches, kCopiesToHost, kSyncs, kGetDevice, kCounters };
std::atomic<long> g_counts[kCounters];
void count(Counter c) { g_counts[c].fetch_add(1, std::memory_order_relaxed); }

// cuBLASLt's descriptors, kept so that cublasLtMatmul can report the problem it was given
// (FAKECUDA_LOG_LT=path: one line per call appended to that file).
struct LtDesc {
  int transa = 0, transb = 0, epilogue = 1;
  const void* bias = nullptr;
};
struct LtLayout {
  uint64_t rows, cols;
  int64_t ld;
};
}  // namespace

extern "C" {

// The count of "launches", "copies_to_host", "syncs" or "get_device" so far (-1 for another
// name); a test reads it through ctypes.CDLL(None).fakecuda_count.
long fakecuda_count(const char* name) {
  const char* names[kCounters] = {"launches", "copies_to_host", "syncs", "get_device"};
  for (int i = 0; i < kCounters; ++i)
    if (std::strcmp(name, names[i]) == 0) return g_counts[i].load();
  return -1;
}

cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* v) {
  *v = 13000;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* d) {
  count(kGetDevice);
  *d = t_device;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int d) {
  if (d != 0) return cudaErrorInvalidDevice;
  t_device = d;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (d != 0) return cudaErrorInvalidDevice;
  std::memset(p, 0, sizeof *p);
  std::strcpy(p->name, "Fake CUDA device");
  p->major = 9;
  p->minor = 0;
  p->totalGlobalMem = size_t(80) << 30;
  p->multiProcessorCount = 132;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr, int) {
  *value = 0;
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
  *total = size_t(80) << 30;
  *free_bytes = *total - g_next.load();
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() {
  count(kSyncs);
  return cudaSuccess;
}
cudaError_t cudaGetLastError() { return cudaSuccess; }
cudaError_t cudaPeekAtLastError() { return cudaSuccess; }

cudaError_t cudaMalloc(void** p, size_t size) {
  init();
  size_t n = (size + 511) & ~size_t(511);
  if (n == 0) n = 512;
  if (size > kSpan || g_next.load() + n > kSpan) return cudaErrorMemoryAllocation;
  size_t at = g_next.fetch_add(n);
  if (at + n > kSpan) return cudaErrorMemoryAllocation;
  *p = g_dev + at;
  return cudaSuccess;
}
cudaError_t cudaFree(void* p) {
  if (p && !on_device(p)) return cudaErrorInvalidValue;
  return cudaSuccess;
}
cudaError_t cudaHostAlloc(void** p, size_t size, unsigned int) {
  *p = malloc(size ? size : 1);
  std::lock_guard lock(g_mutex);
  g_pinned.insert(*p);
  return cudaSuccess;
}
cudaError_t cudaFreeHost(void* p) {
  {
    std::lock_guard lock(g_mutex);
    g_pinned.erase(p);
  }
  free(p);
  return cudaSuccess;
}
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* a, const void* p) {
  std::memset(a, 0, sizeof *a);
  if (on_device(p)) {
    a->type = cudaMemoryTypeDevice;
    a->device = 0;
    a->devicePointer = const_cast<void*>(p);
    return cudaSuccess;
  }
  std::lock_guard lock(g_mutex);
  a->type = g_pinned.count(const_cast<void*>(p)) ? cudaMemoryTypeHost : cudaMemoryTypeUnregistered;
  a->device = -2;
  a->hostPointer = const_cast<void*>(p);
  return cudaSuccess;
}

void copy(void* dst, const void* src, size_t n) {
  if (n == 0) return;
  if (on_device(src) && !on_device(dst)) count(kCopiesToHost);
  std::memmove(host_view(dst), host_view(src), n);
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, cudaMemcpyKind) {
  count(kSyncs);
  copy(dst, src, n);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind, cudaStream_t) {
  copy(dst, src, n);
  return cudaSuccess;
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int, const void* src, int, size_t n, cudaStream_t) {
  copy(dst, src, n);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int v, size_t n, cudaStream_t) {
  if (n) std::memset(host_view(p), v, n);
  return cudaSuccess;
}
cudaError_t cudaMemset(void* p, int v, size_t n) { return cudaMemsetAsync(p, v, n, nullptr); }

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned int, int) {
  *s = fake_handle<cudaStream_t>();
  return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  *least = 0;
  *greatest = -5;
  return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t, int* p) {
  *p = 0;
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  count(kSyncs);
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) { return cudaSuccess; }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) {
  *e = fake_handle<cudaEvent_t>();
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, 0); }
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  count(kSyncs);
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0;
  return cudaSuccess;
}

// Kernel launches: accepted, not run. A `kernel<<<...>>>(...)` compiled by nvcc 13 pushes its
// configuration, looks its kernel handle up once, pops the configuration and calls
// __cudaLaunchKernel; the fake answers all four (the kernel's registration at load stays the
// runtime's).
thread_local dim3 t_grid, t_block;
thread_local size_t t_shared = 0;
thread_local void* t_stream = nullptr;
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st* s) {
  t_grid = grid;
  t_block = block;
  t_shared = shared;
  t_stream = s;
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  *grid = t_grid;
  *block = t_block;
  *shared = t_shared;
  *static_cast<void**>(stream) = t_stream;
  return cudaSuccess;
}
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* fn) {
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(fn));
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t) {
  count(kLaunches);
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t) {
  count(kLaunches);
  return cudaSuccess;
}
cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t) {
  count(kLaunches);
  return cudaSuccess;
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**) {
  count(kLaunches);
  return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, const void*) {
  std::memset(a, 0, sizeof *a);
  a->maxThreadsPerBlock = 1024;
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, const void*, int, size_t) {
  *n = 8;
  return cudaSuccess;
}

// cuBLAS: a handle, and products that do nothing.
cublasStatus_t cublasCreate_v2(cublasHandle_t* h) {
  *h = fake_handle<cublasHandle_t>();
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasSetStream_v2(cublasHandle_t, cudaStream_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasSetMathMode(cublasHandle_t, cublasMath_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t, cublasPointerMode_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSgemm_v2(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const float*, const float*, int, const float*, int, const float*,
                              float*, int) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDgemm_v2(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const double*, const double*, int, const double*, int,
                              const double*, double*, int) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                         int, int, const float*, const float*, int, long long,
                                         const float*, int, long long, const float*, float*, int,
                                         long long, int) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                         int, int, const double*, const double*, int, long long,
                                         const double*, int, long long, const double*, double*,
                                         int, long long, int) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const void*, const void*, cudaDataType, int, const void*, cudaDataType,
                            int, const void*, void*, cudaDataType, int, cublasComputeType_t,
                            cublasGemmAlgo_t) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                          int, int, int, const void*, const void*, cudaDataType,
                                          int, long long, const void*, cudaDataType, int,
                                          long long, const void*, void*, cudaDataType, int,
                                          long long, int, cublasComputeType_t, cublasGemmAlgo_t) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSdot_v2(cublasHandle_t, int, const float*, int, const float*, int, float*) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDdot_v2(cublasHandle_t, int, const double*, int, const double*, int,
                             double*) {
  count(kLaunches);  // a product is work queued on the device
  return CUBLAS_STATUS_SUCCESS;
}

// cuBLASLt: descriptors that remember their attributes, one algorithm found (none with
// FAKECUDA_LT_NO_ALGO=1), products that do nothing.
cublasStatus_t cublasLtCreate(cublasLtHandle_t* h) {
  *h = fake_handle<cublasLtHandle_t>();
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* d, cublasComputeType_t,
                                        cudaDataType_t) {
  *d = reinterpret_cast<cublasLtMatmulDesc_t>(new LtDesc);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) {
  delete reinterpret_cast<LtDesc*>(d);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d,
                                              cublasLtMatmulDescAttributes_t attr, const void* buf,
                                              size_t size) {
  auto* desc = reinterpret_cast<LtDesc*>(d);
  if (attr == CUBLASLT_MATMUL_DESC_TRANSA && size == sizeof(int))
    std::memcpy(&desc->transa, buf, size);
  if (attr == CUBLASLT_MATMUL_DESC_TRANSB && size == sizeof(int))
    std::memcpy(&desc->transb, buf, size);
  if (attr == CUBLASLT_MATMUL_DESC_EPILOGUE && size == sizeof(int))
    std::memcpy(&desc->epilogue, buf, size);
  if (attr == CUBLASLT_MATMUL_DESC_BIAS_POINTER && size == sizeof(void*))
    std::memcpy(&desc->bias, buf, size);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* l, cudaDataType, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  if (ld < int64_t(rows)) return CUBLAS_STATUS_INVALID_VALUE;
  *l = reinterpret_cast<cublasLtMatrixLayout_t>(new LtLayout{rows, cols, ld});
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l) {
  delete reinterpret_cast<LtLayout*>(l);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* p) {
  *p = fake_handle<cublasLtMatmulPreference_t>();
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t,
                                                    cublasLtMatmulPreferenceAttributes_t,
                                                    const void*, size_t) {
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t, cublasLtMatmulDesc_t,
                                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                              cublasLtMatmulPreference_t, int requested,
                                              cublasLtMatmulHeuristicResult_t* results,
                                              int* found) {
  const char* none = getenv("FAKECUDA_LT_NO_ALGO");
  *found = (none && none[0] == '1') || requested < 1 ? 0 : 1;
  if (*found) std::memset(results, 0, sizeof *results);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t d, const void*, const void* a,
                              cublasLtMatrixLayout_t la, const void* b, cublasLtMatrixLayout_t lb,
                              const void*, const void* c, cublasLtMatrixLayout_t lc, void* out,
                              cublasLtMatrixLayout_t, const cublasLtMatmulAlgo_t*, void* workspace,
                              size_t workspace_size, cudaStream_t) {
  if (!on_device(a) || !on_device(b) || !on_device(c) || !on_device(out) ||
      (workspace_size && !on_device(workspace)))
    return CUBLAS_STATUS_INVALID_VALUE;
  count(kLaunches);
  if (const char* log = getenv("FAKECUDA_LOG_LT")) {
    auto* desc = reinterpret_cast<LtDesc*>(d);
    auto *A = reinterpret_cast<LtLayout*>(la), *B = reinterpret_cast<LtLayout*>(lb),
         *C = reinterpret_cast<LtLayout*>(lc);
    const uint64_t k = desc->transa ? A->rows : A->cols;
    if (FILE* f = fopen(log, "a")) {
      fprintf(f,
              "cublasLtMatmul m=%llu n=%llu k=%llu transa=%d transb=%d lda=%lld ldb=%lld "
              "ldc=%lld epilogue=%d bias=%p workspace=%zu\n",
              (unsigned long long)C->rows, (unsigned long long)C->cols, (unsigned long long)k,
              desc->transa, desc->transb, (long long)A->ld, (long long)B->ld, (long long)C->ld,
              desc->epilogue, desc->bias, workspace_size);
      fclose(f);
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
