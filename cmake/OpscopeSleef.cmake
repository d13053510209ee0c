# OpscopeSleef.cmake — finds SLEEF (Debian's libsleef-dev) and defines `opscope::sleef`.
#
# The pointwise kernels call SLEEF's vectorized math (Sleef_expf8_u10avx2, ...), as PyTorch's CPU
# kernels do. Debian puts sleef.h under /usr/include/<multiarch>/, so we look for it by name
# next to the library rather than only in /usr/include.
#
# Usage (core/CMakeLists.txt):
#   include(${PROJECT_SOURCE_DIR}/cmake/OpscopeSleef.cmake)
#   target_link_libraries(opscope_core PRIVATE opscope::sleef)

if(TARGET opscope::sleef)
  return()
endif()

find_path(OPSCOPE_SLEEF_INCLUDE_DIR sleef.h PATH_SUFFIXES ${CMAKE_LIBRARY_ARCHITECTURE})
find_library(OPSCOPE_SLEEF_LIBRARY sleef)
if(NOT OPSCOPE_SLEEF_INCLUDE_DIR OR NOT OPSCOPE_SLEEF_LIBRARY)
  message(FATAL_ERROR "SLEEF not found (sleef.h, libsleef.so): install libsleef-dev "
                      "(tools/setup.sh does)")
endif()
message(STATUS "SLEEF: ${OPSCOPE_SLEEF_LIBRARY}")
add_library(opscope::sleef INTERFACE IMPORTED GLOBAL)
target_include_directories(opscope::sleef INTERFACE ${OPSCOPE_SLEEF_INCLUDE_DIR})
target_link_libraries(opscope::sleef INTERFACE ${OPSCOPE_SLEEF_LIBRARY})
