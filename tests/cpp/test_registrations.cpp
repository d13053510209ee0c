// The start-up self-check of the op library: every op with a kernel has a schema, and every
// kernel's registration site (what _dispatch_dump_table prints) is the file that defines the
// kernel — the row sits beside the code that runs (core/ops/README.md).
#include <doctest/doctest.h>

#include <sstream>

#include "core/dispatch/Dispatcher.h"
#include "profiler/Stack.h"

using namespace opscope;

namespace {

// "core/ops/cpu/linear.cpp:123" -> "core/ops/cpu/linear.cpp"
std::string file_of_site(const std::string& site) {
  return site.substr(0, site.rfind(':'));
}

// The source file defining the function at `address`, from the debug info.
std::string file_defining(const void* address) {
  profiler::RawStack raw;
  raw.pcs.push_back(reinterpret_cast<uintptr_t>(address));
  raw.exact_pcs = 1;
  std::vector<profiler::Frame> frames = profiler::symbolize(raw);
  // The outermost frame at that address is the function itself (inner ones are inlined calls).
  return frames.empty() ? "" : frames.back().file;
}

}  // namespace

TEST_CASE("every op with a kernel has a schema") {
  std::ostringstream orphans;
  for (const OperatorHandle& op : Dispatcher::singleton().all_entries())
    if (!op.entry().has_schema() && !op.entry().registrations().empty())
      orphans << op.entry().qualified_name() << "." << op.entry().overload() << "\n";
  CHECK_MESSAGE(orphans.str().empty(), "kernels registered for ops without a schema:\n",
                orphans.str());
}

TEST_CASE("every registration site is the file that defines its kernel") {
  std::ostringstream wrong;
  size_t checked = 0;
  for (const OperatorHandle& op : Dispatcher::singleton().all_ops()) {
    for (const auto& [key, reg] : op.entry().registrations()) {
      const void* source = reg->kernel.source();
      if (!source) continue;  // boxed kernels (autograd, BackendSelect, fallthroughs)
      std::string defined_in = file_defining(source);
      if (defined_in.empty()) continue;  // no debug info for it
      ++checked;
      if (defined_in != file_of_site(reg->site))
        wrong << op.full_name() << " [" << to_string(key) << "] " << reg->kernel.name()
              << ": registered at " << reg->site << ", defined in " << defined_in << "\n";
    }
  }
  INFO("kernels checked: ", checked);
  CHECK(checked > 500);
  CHECK_MESSAGE(wrong.str().empty(), "registration rows away from their kernels:\n", wrong.str());
}
