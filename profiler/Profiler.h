// libopscope_profiler: see profiler/CMakeLists.txt. The recorder, stacks and views each have their
// own header in this folder; this one only names the library's version of the trace format.
#pragma once

namespace opscope::profiler {

// The trace JSON schema this library writes and reads (share/: opscope.trace/1).
inline constexpr const char* kTraceSchema = "opscope.trace/1";

}  // namespace opscope::profiler
