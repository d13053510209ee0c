# OpscopeSanitize.cmake — OPSCOPE_SANITIZE=ON builds every target of the tree with
# AddressSanitizer + UndefinedBehaviorSanitizer. `make test-sanitize` configures such a build in its
# own folder (build-sanitize/) and runs the C++ and Python suites under it; tests/sanitize/README.md
# says how Python, which is not sanitized, is made to run the sanitized library.
#
# Usage (CMakeLists.txt, after the compiler flags are set):
#   include(${PROJECT_SOURCE_DIR}/cmake/OpscopeSanitize.cmake)
#
# What the build is:
#   -fsanitize=address,undefined   both runtimes; UBSan recovers by default and
#                                  UBSAN_OPTIONS=halt_on_error=1 makes its first report fatal
#   -fno-omit-frame-pointer        readable stacks from ASan's fast unwinder
#   -O1 -g, asserts on             ASan's advice (-O0 is several times slower to test; -O2 hides
#                                  some reports); no -DNDEBUG: assert()s are checks worth running
#   -fno-sanitize=vptr             UBSan's vptr check compares type_info by address; pybind11
#                                  modules are built -fvisibility=hidden, so the same class has
#                                  one type_info per library and the check reports false downcasts

option(OPSCOPE_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
if(NOT OPSCOPE_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  message(FATAL_ERROR "opscope: OPSCOPE_SANITIZE needs GCC or Clang")
endif()

message(STATUS "opscope: AddressSanitizer + UndefinedBehaviorSanitizer build (OPSCOPE_SANITIZE)")
set(_opscope_sanitize_flags -fsanitize=address,undefined -fno-sanitize=vptr
  -fno-omit-frame-pointer)
add_compile_options(${_opscope_sanitize_flags})
add_link_options(${_opscope_sanitize_flags})
foreach(_type RELWITHDEBINFO RELEASE DEBUG MINSIZEREL)
  set(CMAKE_CXX_FLAGS_${_type} "-O1 -g")
  set(CMAKE_C_FLAGS_${_type} "-O1 -g")
endforeach()
