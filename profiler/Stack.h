// Call stacks: the C++ and Python frames a thread stands in, merged, symbolized and sorted into
// layers.
//
// Semantically a stack answers "how did we get here?" for one moment on one thread — typically
// the innermost kernel of an op, where it calls BLAS. It is one list of frames, innermost first,
// in which the Python frames stand where the interpreter runs them (between the C frames of
// CPython's eval loop), each frame with its function, file:line, module and layer (python,
// binding, dispatcher, autograd, kernel, runtime, blas, cpython, libc), like the annotated
// torch.matmul stack of ../shared/seeds/003 but produced by one call:
//
//   profiler::RawStack raw = profiler::capture_stack();      // cheap: addresses and references
//   for (const profiler::Frame& f : profiler::symbolize(raw))  // when drawn: names, file:line
//     std::printf("%s %s:%d [%s]\n", f.function.c_str(), f.file.c_str(), f.line,
//                 profiler::to_string(f.layer).data());
//
// In implementation terms a capture keeps return addresses (from the unwinder, no names) and,
// through a provider the Python extension installs, one reference per Python frame (its code
// object and instruction offset). symbolize() turns them into names and file:line on demand,
// with a per-address cache: DWARF (elfutils' libdw) for the C++ frames, the provider for the
// Python ones. See Note [Where the Python frames go] and Note [Capturing cheaply] in Stack.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace opscope::profiler {

struct PythonFramesProvider;

// One Python frame as a capture keeps it: references, not strings (see PythonFramesProvider).
struct PythonFrameRef {
  const void* code = nullptr;  // the frame's code object, a strong reference the stack owns
  int32_t instruction = 0;     // byte offset of the instruction running, for the line number
  // The C stack address of the interpreter activation running this frame (the provider's
  // answer), then, once captured, the number of C++ frames innermost of this one: the frame
  // stands just before raw.pcs[position]. See Note [Where the Python frames go].
  uintptr_t anchor = 0;
  uint32_t position = 0;
};

// A captured stack, innermost first. Move-only: it owns its Python frames' references.
class RawStack {
 public:
  RawStack() = default;
  RawStack(RawStack&& other) noexcept;
  RawStack& operator=(RawStack&& other) noexcept;
  RawStack(const RawStack&) = delete;
  RawStack& operator=(const RawStack&) = delete;
  ~RawStack();

  std::vector<uintptr_t> pcs;          // C++ frames: return addresses (see exact_pcs)
  std::vector<PythonFrameRef> python;  // Python frames, innermost first, each with its position
  uint32_t exact_pcs = 0;  // how many leading pcs are exact addresses (a callee's entry), not
                           // return addresses: those are looked up as they are, not at pc - 1

  size_t size() const { return pcs.size() + python.size(); }
  // Drops the innermost Python frames up to and including the n-th (1-based) and every C++ frame
  // inside them: what is left starts at the caller of that Python function. Used by
  // opscope.profiler.stack() to leave itself out.
  void drop_through_python_frame(size_t n);
  const PythonFramesProvider* provider() const { return provider_; }

 private:
  friend RawStack capture_stack(int skip, const void* callee);
  void release_python();
  const PythonFramesProvider* provider_ = nullptr;  // who took the Python references
};

// The stack of the calling thread now. `skip` leaves out that many more innermost C++ frames
// (capture_stack's own frame is never included). `callee`, when set, is pushed as frame #0: the
// entry address of a function about to be called (a BLAS routine), as a debugger breakpoint on it
// would show. Costs about 10 ns a frame: 0.3 us for 20 frames, 2.7 us for 260 (2-core VM;
// tests/bench/bench_stacks.py). Callable from any thread, with or without the GIL (see
// Note [Capturing cheaply] in Stack.cpp).
RawStack capture_stack(int skip = 0, const void* callee = nullptr);

// How the captures so far placed their Python frames: by the fast unwinder alone, or by the exact
// path (see Note [Where the Python frames go] in Stack.cpp). For tests and the benchmark.
struct CaptureStats {
  uint64_t fast = 0;
  uint64_t exact = 0;
};
CaptureStats capture_stats();

// --- symbolized frames ---------------------------------------------------------------------------

enum class Layer : uint8_t {
  Python,      // a Python frame
  Binding,     // core/python/: opscope._C
  Dispatcher,  // core/dispatch/
  Autograd,    // core/autograd/
  Kernel,      // core/ops/
  Runtime,     // core/runtime/, core/tensor/
  Blas,        // libopenblas
  CPython,     // the interpreter: libpython, the python3.11 executable
  Libc,        // libc, libstdc++, libgcc_s, libgomp, libm, ld.so
  Profiler,    // profiler/: the capture itself, observers
  Other,       // anything else (a test binary, NumPy, ...)
};
std::string_view to_string(Layer layer);  // "python", "binding", ..., "other"

struct Frame {
  std::string function;  // demangled C++ name with its parameters; a Python function's qualname
  std::string file;      // relative to the source tree for opscope's files
                         // ("core/ops/cpu/linear.cpp"), absolute otherwise, "" when unknown
  int line = 0;          // 0 when unknown
  std::string module;    // the ELF file's name ("libopscope_core.so"); "" for Python frames
  Layer layer = Layer::Other;
  bool is_python = false;
  // The compiler inlined this function into the next (outer) frame: both run at the same pc.
  bool inlined = false;
  uintptr_t pc = 0;  // the address looked up (return address - 1); 0 for Python frames
};

// Names every frame, innermost first; inlined calls become frames of their own. Thread-safe;
// each address is looked up once per process (the cache holds it from then on).
std::vector<Frame> symbolize(const RawStack& stack);

// The path as a Frame shows it: relative to the source tree when inside it.
std::string source_relative(std::string_view path);

// --- the Python side -----------------------------------------------------------------------------

// How a capture sees Python frames without this library depending on Python: the extension
// installs these functions (core/python/stacks.cpp). All may be called on any thread.
struct PythonFramesProvider {
  // Appends the calling thread's Python frames, innermost first, each with its code object (a
  // new strong reference), instruction offset and anchor (see PythonFrameRef); and to
  // `activations` the anchor of every interpreter activation on the thread, innermost first
  // (also those that show no frame), so that the capture can check it found each of them.
  void (*capture)(std::vector<PythonFrameRef>& frames, std::vector<uintptr_t>& activations);
  // Drops the references capture took.
  void (*release)(const PythonFrameRef* frames, size_t n);
  // A captured frame's function (qualname), file and line.
  void (*describe)(const PythonFrameRef& frame, std::string& function, std::string& file,
                   int& line);
  // The code of the interpreter's eval loop (CPython's _PyEval_EvalFrameDefault): a C++ frame
  // whose return address lies in [eval_begin, eval_end) is an activation.
  uintptr_t eval_begin = 0;
  uintptr_t eval_end = 0;
};
// Installs the provider (nullptr uninstalls). The object must outlive every RawStack.
void set_python_frames_provider(const PythonFramesProvider* provider);

}  // namespace opscope::profiler
