// Call stacks (profiler/Stack.h): a capture names its caller with file:line; inside a dispatch
// observer during mm the stack holds the dispatcher's frames, and at the BLAS call the routine
// (frame #0, layer blas) above the kernel and the dispatcher; Python frames (from a fake provider
// here: see tests/python/test_stacks.py for CPython's) stand just before the C++ frame that runs
// them, placed by their anchors on the exact path and then by the learned return addresses on the
// fast one.
#include <doctest/doctest.h>

#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "core/dispatch/Observer.h"
#include "core/ops/factories.h"
#include "core/ops/linear.h"
#include "core/runtime/Blas.h"
#include "profiler/Stack.h"

using namespace opscope;
using profiler::Frame;
using profiler::Layer;

namespace {

[[gnu::noinline]] profiler::RawStack capture_here() {
  profiler::RawStack s = profiler::capture_stack();
  asm volatile("" ::: "memory");  // not a tail call: this frame stays on the stack
  return s;
}

std::string dump(const std::vector<Frame>& frames) {
  std::string out;
  for (size_t i = 0; i < frames.size(); ++i)
    out += std::to_string(i) + " " + frames[i].function.substr(0, 90) + " " + frames[i].file + ":" +
           std::to_string(frames[i].line) + " [" + std::string(to_string(frames[i].layer)) + "]\n";
  return out;
}

// The index of the first frame whose function contains `name` (and file starts with `file`), or -1.
int find(const std::vector<Frame>& frames, std::string_view name, std::string_view file = "") {
  for (size_t i = 0; i < frames.size(); ++i)
    if (frames[i].function.find(name) != std::string::npos && frames[i].file.starts_with(file))
      return static_cast<int>(i);
  return -1;
}

bool has_layer(const std::vector<Frame>& frames, Layer layer) {
  for (const Frame& f : frames)
    if (f.layer == layer) return true;
  return false;
}

// Captures the stack at every dispatch step of one op on one key.
struct StackAtStep final : DispatchObserver {
  std::string op;
  DispatchKey key;
  std::vector<profiler::RawStack> stacks;
  StackAtStep(std::string o, DispatchKey k) : op(std::move(o)), key(k) {}
  void on_enter(const DispatchStep& step) override {
    if (step.op->full_name() == op && step.chosen == key)
      stacks.push_back(profiler::capture_stack());
  }
  void on_exit(const DispatchStep&, const Stack*) override {}
};

// Captures the calling thread's stack at each BLAS call, the routine as frame #0.
std::mutex g_blas_mu;
std::vector<profiler::RawStack> g_blas_stacks;
std::thread::id g_blas_thread;
void on_blas_call(const char*, const void* entry) {
  if (std::this_thread::get_id() != g_blas_thread) return;  // OpenMP's other threads
  std::lock_guard<std::mutex> lock(g_blas_mu);
  g_blas_stacks.push_back(profiler::capture_stack(/*skip=*/1, entry));
}

// --- a fake Python: two "activations" anchored at locals of outer() and middle() --------------

std::map<uintptr_t, std::string> g_fake_frames;  // anchor -> the Python frame's name
std::vector<uintptr_t> g_fake_activations;       // innermost first
const int kFakeCode = 0;

void fake_capture(std::vector<profiler::PythonFrameRef>& frames,
                  std::vector<uintptr_t>& activations) {
  for (uintptr_t a : g_fake_activations) {
    activations.push_back(a);
    frames.push_back({&kFakeCode, 0, a, 0});
  }
}
void fake_release(const profiler::PythonFrameRef*, size_t) {}
void fake_describe(const profiler::PythonFrameRef& f, std::string& function, std::string& file,
                   int& line) {
  function = g_fake_frames[f.anchor];
  file = "fake.py";
  line = 1;
}
// No eval-loop range: the first capture must place the frames by their anchors.
const profiler::PythonFramesProvider kFake{&fake_capture, &fake_release, &fake_describe, 0, 0};

[[gnu::noinline]] profiler::RawStack fake_middle() {
  volatile int local = 0;  // on this frame's stack: the anchor
  g_fake_frames[reinterpret_cast<uintptr_t>(&local)] = "py_run_by_middle";
  g_fake_activations.insert(g_fake_activations.begin(), reinterpret_cast<uintptr_t>(&local));
  profiler::RawStack s = capture_here();
  asm volatile("" ::: "memory");
  return s;
}
[[gnu::noinline]] profiler::RawStack fake_outer() {
  volatile int local = 0;
  g_fake_frames[reinterpret_cast<uintptr_t>(&local)] = "py_run_by_outer";
  g_fake_activations = {reinterpret_cast<uintptr_t>(&local)};
  profiler::RawStack s = fake_middle();
  asm volatile("" ::: "memory");
  return s;
}

}  // namespace

TEST_CASE("capture_stack names its caller with file:line") {
  std::vector<Frame> frames = profiler::symbolize(capture_here());
  INFO(dump(frames));
  REQUIRE(frames.size() > 2);
  CHECK(frames[0].function.find("capture_here") != std::string::npos);
  CHECK(frames[0].file == "tests/cpp/test_stacks.cpp");
  CHECK(frames[0].line > 0);
  CHECK(frames[0].module == "opscope_cpp_tests");
  CHECK(!frames[0].is_python);
  CHECK(find(frames, "main") >= 0);
  CHECK(has_layer(frames, Layer::Libc));  // __libc_start_main
  // Symbolizing again gives the same frames (from the cache).
  std::vector<Frame> again = profiler::symbolize(capture_here());
  CHECK(again[0].function == frames[0].function);
}

TEST_CASE("inside a dispatch observer during mm: the dispatcher's frames") {
  Tensor a = ops::randn({64, 64}), b = ops::randn({64, 64});
  auto probe = std::make_shared<StackAtStep>("aten::mm", DispatchKey::CPU);
  {
    ObserverHandle h = add_dispatch_observer(probe);
    ops::mm(a, b);
  }
  REQUIRE(probe->stacks.size() == 1);
  std::vector<Frame> frames = profiler::symbolize(probe->stacks[0]);
  INFO(dump(frames));
  CHECK(find(frames, "StackAtStep::on_enter", "tests/cpp/test_stacks.cpp") == 0);
  int dispatch = find(frames, "opscope::Dispatcher::", "core/dispatch/Dispatcher.cpp");
  // ops::mm(a, b) is an Op handle (core/dispatch/Op.h): the C++ entry point, like at::mm.
  int frontend = find(frames, "opscope::detail::OpArity<", "core/dispatch/Op.h");
  CHECK(dispatch > 0);
  CHECK(frontend > dispatch);  // the caller of the dispatcher is outer
  CHECK(frames[static_cast<size_t>(dispatch)].layer == Layer::Dispatcher);
  CHECK(frames[static_cast<size_t>(frontend)].layer == Layer::Dispatcher);
  CHECK(find(frames, "DOCTEST_ANON_FUNC") > frontend);  // this test case
}

TEST_CASE("at the BLAS call of mm: the routine, the kernel, the dispatcher") {
  Tensor a = ops::randn({64, 64}), b = ops::randn({64, 64});
  ops::mm(a, b);  // loads OpenBLAS first
  g_blas_thread = std::this_thread::get_id();
  g_blas_stacks.clear();
  blas::add_call_hook(&on_blas_call);
  ops::mm(a, b);
  blas::remove_call_hook(&on_blas_call);
  REQUIRE(g_blas_stacks.size() >= 1);  // one per OpenMP thread that ran a block of rows
  std::vector<Frame> frames = profiler::symbolize(g_blas_stacks[0]);
  INFO(dump(frames));
  CHECK(frames[0].function == "cblas_sgemm");
  CHECK(frames[0].layer == Layer::Blas);
  CHECK(frames[0].module.starts_with("libopenblas"));
  CHECK(frames[1].file == "core/runtime/Blas.cpp");
  int kernel = find(frames, "opscope::cpu::mm", "core/ops/cpu/linear.cpp");
  int dispatch = find(frames, "opscope::", "core/dispatch/");
  CHECK(kernel > 1);
  CHECK(frames[static_cast<size_t>(kernel)].layer == Layer::Kernel);
  CHECK(dispatch > kernel);
  CHECK(frames[static_cast<size_t>(dispatch)].layer == Layer::Dispatcher);
  CHECK(find(frames, "DOCTEST_ANON_FUNC") > dispatch);
}

TEST_CASE("Python frames stand just before the C++ frame that runs them") {
  profiler::set_python_frames_provider(&kFake);
  profiler::CaptureStats before = profiler::capture_stats();
  profiler::RawStack exact = fake_outer();  // no eval range: placed by the anchors
  profiler::CaptureStats middle = profiler::capture_stats();
  profiler::RawStack fast = fake_outer();  // the same call sites: now known, placed fast
  profiler::CaptureStats after = profiler::capture_stats();

  CHECK(middle.exact == before.exact + 1);
  CHECK(after.fast == middle.fast + 1);
  for (profiler::RawStack* raw : {&exact, &fast}) {
    std::vector<Frame> frames = profiler::symbolize(*raw);
    INFO(dump(frames));
    REQUIRE(frames.size() > 5);
    CHECK(frames[0].function.find("capture_here") != std::string::npos);
    CHECK(frames[1].function == "py_run_by_middle");
    CHECK(frames[1].is_python);
    CHECK(frames[1].layer == Layer::Python);
    CHECK(frames[1].file == "fake.py");
    CHECK(frames[2].function.find("fake_middle") != std::string::npos);
    CHECK(frames[3].function == "py_run_by_outer");
    CHECK(frames[4].function.find("fake_outer") != std::string::npos);
  }

  // What opscope.profiler.stack() does to leave itself out: drop through the first Python frame.
  fast.drop_through_python_frame(1);
  std::vector<Frame> frames = profiler::symbolize(fast);
  INFO(dump(frames));
  CHECK(frames[0].function.find("fake_middle") != std::string::npos);
  CHECK(frames[1].function == "py_run_by_outer");
  profiler::set_python_frames_provider(nullptr);
}
