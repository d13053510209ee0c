// opscope._C._cuda_*: the C++ half of opscope.cuda (core/python/opscope/cuda/__init__.py), in a
// build with the CUDA backend. Their presence is how Python knows the backend is compiled
// (opscope.cuda._is_compiled()). Names follow torch._C's (_cuda_getDeviceCount, ...).
#include <cuda_runtime.h>

#include <cstring>
#include <memory>

#include "core/cuda/CUDACachingAllocator.h"
#include "core/cuda/CUDAEvent.h"
#include "core/cuda/CUDAFunctions.h"
#include "core/cuda/CUDAGuard.h"
#include "core/cuda/CUDAStream.h"
#include "core/cuda/kernels/Blas.h"
#include "core/ops/copy.h"
#include "core/python/python_common.h"
#include "core/runtime/Generator.h"
#include "profiler/FatalSignal.h"

namespace opscope::python {

using namespace opscope::cuda;

namespace {

// torch._C._CudaDeviceProperties, with its repr.
struct DeviceProperties {
  std::string name;
  int major = 0, minor = 0, multi_processor_count = 0;
  int64_t total_memory = 0;
  bool is_integrated = false, is_multi_gpu_board = false;
};

py::dict stats_dict(const DeviceStats& s) {
  py::dict d;
  static const char* kPools[] = {"all", "small_pool", "large_pool"};
  auto put = [&](const char* name, const StatArray& stat) {
    for (int p = 0; p < kNumStatTypes; ++p) {
      std::string base = std::string(name) + "." + kPools[p] + ".";
      d[py::str(base + "current")] = stat[p].current;
      d[py::str(base + "peak")] = stat[p].peak;
      d[py::str(base + "allocated")] = stat[p].allocated;
      d[py::str(base + "freed")] = stat[p].freed;
    }
  };
  put("allocation", s.allocation);
  put("segment", s.segment);
  put("active", s.active);
  put("inactive_split", s.inactive_split);
  put("allocated_bytes", s.allocated_bytes);
  put("reserved_bytes", s.reserved_bytes);
  put("active_bytes", s.active_bytes);
  put("inactive_split_bytes", s.inactive_split_bytes);
  put("requested_bytes", s.requested_bytes);
  d["num_alloc_retries"] = s.num_alloc_retries;
  d["num_ooms"] = s.num_ooms;
  return d;
}

int index_or_current(int device) {
  return device < 0 ? current_device() : device;
}

void seed_devices(bool all, const std::function<void(int)>& f) {
  if (all) {
    for (int d = 0; d < device_count(); ++d) f(d);
  } else {
    f(current_device());
  }
}

}  // namespace

void init_cuda(py::module_& m) {
  // The caching allocator's cuda::OutOfMemoryError becomes opscope.cuda.OutOfMemoryError in
  // set_python_error (core/python/module.cpp), for every entry from Python alike.

  m.def("_set_cublas_allow_tf32", [](bool allow) { set_allow_tf32(allow); },
        "Whether float32 products on cuBLAS may use TF32 (opscope.backends.cuda.matmul"
        ".allow_tf32 and set_float32_matmul_precision set it).");
  m.def("_get_cublas_allow_tf32", [] { return allow_tf32(); });
  m.def("_cuda_getDeviceCount", [] { return device_count(); },
        "Visible CUDA devices; 0 without a driver or GPU.");
  m.def("_cuda_init", [] { device_count_ensure_non_zero(); },
        "CUDA's lazy initialisation: torch's error when no GPU can be used.");
  m.def("_cuda_getDevice", [] { return current_device(); });
  m.def("_cuda_setDevice", [](int d) {
    device_index(Device(DeviceType::CUDA, d));  // range check with torch's message
    set_device(d);
  });
  m.def("_cuda_synchronize", [] {
    py::gil_scoped_release release;
    device_synchronize();
  });
  m.def("_cuda_getArchFlags", [] { return std::string(OPSCOPE_CUDA_ARCH_LIST); });
  m.def(
      "_cuda_reportFatalSignals", [] { profiler::install_fatal_signal_handler(2); },
      "From now on a SIGSEGV / SIGABRT ... prints the C++ stack of the crashing thread, named, "
      "before Python's faulthandler prints its frames (profiler/FatalSignal.h): the CUDA test "
      "files turn it on when a GPU is present, so that a crash on a lent GPU machine, where no "
      "debugger may be at hand, names its C++ frame.");
  m.def("_cuda_memGetInfo", [](int device) {
    CUDAGuard guard(index_or_current(device));
    size_t free_bytes = 0, total = 0;
    OPSCOPE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    return py::make_tuple(free_bytes, total);
  });

  py::class_<DeviceProperties>(m, "_CudaDeviceProperties")
      .def_readonly("name", &DeviceProperties::name)
      .def_readonly("major", &DeviceProperties::major)
      .def_readonly("minor", &DeviceProperties::minor)
      .def_readonly("total_memory", &DeviceProperties::total_memory)
      .def_readonly("multi_processor_count", &DeviceProperties::multi_processor_count)
      .def_readonly("is_integrated", &DeviceProperties::is_integrated)
      .def_readonly("is_multi_gpu_board", &DeviceProperties::is_multi_gpu_board)
      .def("__repr__", [](const DeviceProperties& p) {
        return detail::str("_CudaDeviceProperties(name='", p.name, "', major=", p.major,
                           ", minor=", p.minor, ", total_memory=", p.total_memory / (1024 * 1024),
                           "MB, multi_processor_count=", p.multi_processor_count, ")");
      });
  m.def("_cuda_getDeviceProperties", [](int device) {
    int d = device_index(Device(DeviceType::CUDA, device));
    cudaDeviceProp prop{};
    OPSCOPE_CUDA_CHECK(cudaGetDeviceProperties(&prop, d));
    DeviceProperties p;
    p.name = prop.name;
    p.major = prop.major;
    p.minor = prop.minor;
    p.total_memory = static_cast<int64_t>(prop.totalGlobalMem);
    p.multi_processor_count = prop.multiProcessorCount;
    p.is_integrated = prop.integrated != 0;
    p.is_multi_gpu_board = prop.isMultiGpuBoard != 0;
    return p;
  });

  // --- streams and events ---------------------------------------------------------------------
  py::class_<CUDAStream>(m, "_CudaStream")
      .def(py::init([](int device, int priority) {
             // torch: priority 0 is the low one, a negative one the high one.
             return getStreamFromPool(priority < 0, device);
           }),
           py::arg("device") = -1, py::arg("priority") = 0)
      .def_property_readonly("device_index", &CUDAStream::device_index)
      .def_property_readonly("cuda_stream", &CUDAStream::id)
      .def_property_readonly("priority", &CUDAStream::priority)
      .def("query", &CUDAStream::query)
      .def("synchronize",
           [](const CUDAStream& s) {
             py::gil_scoped_release release;
             s.synchronize();
           })
      .def("__eq__", [](const CUDAStream& a, const CUDAStream& b) { return a == b; })
      .def("__hash__", [](const CUDAStream& s) { return std::hash<uintptr_t>()(s.id()) ^ s.device_index(); });
  m.def("_cuda_getCurrentStream",
        [](int device) { return getCurrentCUDAStream(index_or_current(device)); });
  m.def("_cuda_getDefaultStream",
        [](int device) { return getDefaultCUDAStream(index_or_current(device)); });
  m.def("_cuda_setStream", [](const CUDAStream& s) { setCurrentCUDAStream(s); });
  m.def("_cuda_externalStream", [](uintptr_t ptr, int device) {
    return wrap_stream(index_or_current(device), reinterpret_cast<cudaStream_t>(ptr));
  });

  py::class_<CUDAEvent, std::shared_ptr<CUDAEvent>>(m, "_CudaEvent")
      .def(py::init([](bool enable_timing, bool blocking, bool interprocess) {
             unsigned flags = (enable_timing ? cudaEventDefault : cudaEventDisableTiming) |
                              (blocking ? cudaEventBlockingSync : 0) |
                              (interprocess ? cudaEventInterprocess : 0);
             return std::make_shared<CUDAEvent>(flags);
           }),
           py::arg("enable_timing") = false, py::arg("blocking") = false,
           py::arg("interprocess") = false)
      .def("record", &CUDAEvent::record)
      .def("wait", &CUDAEvent::block)
      .def("query", &CUDAEvent::query)
      .def("synchronize",
           [](const CUDAEvent& e) {
             py::gil_scoped_release release;
             e.synchronize();
           })
      .def("elapsed_time", &CUDAEvent::elapsed_time)
      .def_property_readonly("device_index", &CUDAEvent::device_index)
      .def_property_readonly("cuda_event",
                             [](const CUDAEvent& e) { return reinterpret_cast<uintptr_t>(e.event()); })
      .def_property_readonly("was_recorded", &CUDAEvent::was_recorded);

  m.def("_cuda_recordStream", [](py::handle t, const CUDAStream& s) {
    OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "record_stream expects a Tensor");
    record_stream(unwrap(t.ptr()), s);
  });

  // --- pinned host memory: page-locked, so copies to the GPU can be asynchronous -----------------
  m.def("_cuda_isPinned", [](py::handle t) {
    OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "is_pinned expects a Tensor");
    const Tensor& self = unwrap(t.ptr());
    void* p = self->storage()->data();
    if (!p || !self.device().is_cpu()) return false;
    cudaPointerAttributes attr{};
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    return attr.type == cudaMemoryTypeHost;
  });
  m.def("_cuda_pinMemory", [](py::handle t) {
    OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "pin_memory expects a Tensor");
    const Tensor& self = unwrap(t.ptr());
    size_t nbytes = static_cast<size_t>(self.numel()) * self->itemsize();
    void* p = nullptr;
    if (nbytes > 0) OPSCOPE_CUDA_CHECK(cudaHostAlloc(&p, nbytes, cudaHostAllocDefault));
    auto storage = make_intrusive<StorageImpl>(p, nbytes, Device(DeviceType::CPU), [p] {
      if (p) cudaFreeHost(p);
    });
    Tensor out(make_intrusive<TensorImpl>(std::move(storage), self.dtype(), self.sizes(),
                                          contiguous_strides(self.sizes()), 0));
    ops::copy_(out, self, false);
    return wrap_obj(std::move(out));
  });

  // --- random numbers: each device's default generator (core/runtime/Generator.h) ---------------
  m.def("_cuda_manualSeed", [](py::int_ seed, bool all) {
    uint64_t s = static_cast<uint64_t>(PyLong_AsUnsignedLongLongMask(seed.ptr()));
    seed_devices(all, [&](int d) { default_generator(Device(DeviceType::CUDA, d))->set_seed(s); });
  });
  m.def("_cuda_seed", [](bool all) {
    uint64_t s = default_generator(Device(DeviceType::CUDA, current_device()))->seed_randomly();
    seed_devices(all, [&](int d) { default_generator(Device(DeviceType::CUDA, d))->set_seed(s); });
  });
  m.def("_cuda_initialSeed",
        [] { return default_generator(Device(DeviceType::CUDA, current_device()))->seed(); });
  m.def("_cuda_getDefaultGenerator",
        [](int d) { return default_generator(Device(DeviceType::CUDA, index_or_current(d))); });
  // The state is 16 bytes, seed then offset (little-endian uint64s), as torch's CUDA state.
  m.def("_cuda_getRngState", [](int d) {
    const Generator& g = default_generator(Device(DeviceType::CUDA, index_or_current(d)));
    uint64_t words[2] = {g->seed(), g->offset()};
    return py::bytes(reinterpret_cast<const char*>(words), sizeof words);
  });
  m.def("_cuda_setRngState", [](py::bytes state, int d) {
    std::string s = state;
    OPSCOPE_CHECK(s.size() == 16, "RNG state must be 16 bytes (seed, offset), got ", s.size());
    uint64_t words[2];
    std::memcpy(words, s.data(), sizeof words);
    const Generator& g = default_generator(Device(DeviceType::CUDA, index_or_current(d)));
    g->set_seed(words[0]);
    g->set_offset(words[1]);
  });

  // --- memory: the caching allocator of each device ---------------------------------------------
  m.def("_cuda_memoryStats",
        [](int d) { return stats_dict(caching_allocator(index_or_current(d)).stats()); });
  m.def("_cuda_resetPeakMemoryStats",
        [](int d) { caching_allocator(index_or_current(d)).reset_peak_stats(); });
  m.def("_cuda_resetAccumulatedMemoryStats",
        [](int d) { caching_allocator(index_or_current(d)).reset_accumulated_stats(); });
  m.def("_cuda_emptyCache", [] { empty_cache(); });
  m.def("_cuda_memorySnapshot", [](int d) {
    py::list out;
    for (const SegmentInfo& seg : caching_allocator(index_or_current(d)).snapshot()) {
      py::dict s;
      s["device"] = index_or_current(d);
      s["address"] = seg.address;
      s["total_size"] = seg.total_size;
      s["stream"] = seg.stream;
      s["segment_type"] = seg.is_large ? "large" : "small";
      py::list blocks;
      size_t allocated = 0, active = 0;
      for (const auto& b : seg.blocks) {
        py::dict bd;
        bd["size"] = b.size;
        bd["requested_size"] = b.requested;
        bd["state"] = b.allocated ? "active_allocated" : "inactive";
        blocks.append(bd);
        if (b.allocated) allocated += b.size, active += b.size;
      }
      s["allocated_size"] = allocated;
      s["active_size"] = active;
      s["blocks"] = blocks;
      out.append(s);
    }
    return out;
  });
}

}  // namespace opscope::python
