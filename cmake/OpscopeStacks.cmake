# OpscopeStacks.cmake — what the profiler's call stacks need, as `opscope::dw` and
# `opscope::unwind_headers`.
#
# Symbolization reads DWARF through elfutils' libdw / libdwfl (Debian's libdw-dev): linked. The
# fast unwinder is libunwind's unw_backtrace (Debian's libunwind-dev): only its header is used at
# build time; profiler/Stack.cpp loads libunwind.so.8 with dlopen, privately, because that library
# also defines the C++ exception unwinder's _Unwind_* functions (see Note [Capturing cheaply]).
#
# Usage (profiler/CMakeLists.txt):
#   include(${PROJECT_SOURCE_DIR}/cmake/OpscopeStacks.cmake)
#   target_link_libraries(opscope_profiler PRIVATE opscope::dw opscope::unwind_headers)

if(TARGET opscope::dw)
  return()
endif()

find_path(OPSCOPE_DWFL_INCLUDE_DIR elfutils/libdwfl.h)
find_library(OPSCOPE_DW_LIBRARY dw)
if(NOT OPSCOPE_DWFL_INCLUDE_DIR OR NOT OPSCOPE_DW_LIBRARY)
  message(FATAL_ERROR "elfutils libdw not found (elfutils/libdwfl.h, libdw.so): install libdw-dev "
                      "(tools/setup.sh does)")
endif()
find_path(OPSCOPE_LIBUNWIND_INCLUDE_DIR libunwind.h PATH_SUFFIXES ${CMAKE_LIBRARY_ARCHITECTURE})
if(NOT OPSCOPE_LIBUNWIND_INCLUDE_DIR)
  message(FATAL_ERROR "libunwind.h not found: install libunwind-dev (tools/setup.sh does)")
endif()
message(STATUS "Stacks: ${OPSCOPE_DW_LIBRARY}, libunwind.h in ${OPSCOPE_LIBUNWIND_INCLUDE_DIR}")

add_library(opscope::dw INTERFACE IMPORTED GLOBAL)
target_include_directories(opscope::dw INTERFACE ${OPSCOPE_DWFL_INCLUDE_DIR})
target_link_libraries(opscope::dw INTERFACE ${OPSCOPE_DW_LIBRARY})
add_library(opscope::unwind_headers INTERFACE IMPORTED GLOBAL)
target_include_directories(opscope::unwind_headers INTERFACE ${OPSCOPE_LIBUNWIND_INCLUDE_DIR})
target_link_libraries(opscope::unwind_headers INTERFACE ${CMAKE_DL_LIBS})
