# OpscopeBlas.cmake — finds the OpenBLAS files opscope may load, and defines `opscope::blas`.
#
# opscope does not link OpenBLAS: core/runtime/Blas.cpp dlopen's it on first use, after choosing
# the kernels for this CPU (OPENBLAS_CORETYPE must be set before OpenBLAS's load-time constructor
# runs; see Note [Choosing OpenBLAS's kernels] there). So we look for the shared library files
# only, best first, and hand Blas.cpp the list:
#
#   1. <libdir>/openblas-openmp/libopenblas.so.0   Debian's libopenblas0-openmp: its threads are
#                                                  OpenMP's (Note [One thread pool])
#   2. <libdir>/openblas-pthread/libopenblas.so.0  libopenblas0-pthread
#   3. <libdir>/openblas-serial/libopenblas.so.0   libopenblas0-serial
#   4. libopenblas.so.0 / libopenblas.so anywhere CMake looks (other distributions, a prefix)
#
# At run time OPSCOPE_BLAS_LIBRARY=/path/to/libopenblas.so overrides the list.
#
# Usage (core/CMakeLists.txt):
#   include(${PROJECT_SOURCE_DIR}/cmake/OpscopeBlas.cmake)
#   target_link_libraries(opscope_core PUBLIC opscope::blas)

if(TARGET opscope::blas)
  return()
endif()

# The candidates
# --------------
set(_opscope_blas_libdirs)
foreach(_prefix /usr/lib /usr/local/lib /lib)
  if(CMAKE_LIBRARY_ARCHITECTURE)
    list(APPEND _opscope_blas_libdirs ${_prefix}/${CMAKE_LIBRARY_ARCHITECTURE})
  endif()
  list(APPEND _opscope_blas_libdirs ${_prefix})
endforeach()

set(OPSCOPE_BLAS_CANDIDATES)
foreach(_flavour openmp pthread serial)
  unset(_opscope_blas_file CACHE)
  find_file(_opscope_blas_file libopenblas.so.0
    PATHS ${_opscope_blas_libdirs} PATH_SUFFIXES openblas-${_flavour} NO_DEFAULT_PATH)
  if(_opscope_blas_file)
    list(APPEND OPSCOPE_BLAS_CANDIDATES ${_opscope_blas_file})
  endif()
endforeach()
unset(_opscope_blas_file CACHE)
find_library(_opscope_blas_file NAMES libopenblas.so.0 openblas)
if(_opscope_blas_file)
  list(APPEND OPSCOPE_BLAS_CANDIDATES ${_opscope_blas_file})
endif()
unset(_opscope_blas_file CACHE)

if(NOT OPSCOPE_BLAS_CANDIDATES)
  message(FATAL_ERROR "opscope: OpenBLAS not found. On Debian / Ubuntu: "
                      "apt-get install libopenblas0-openmp")
endif()

# opscope::blas
# -------------
# Only libdl; the candidate list reaches Blas.cpp alone (':'-separated, as in PATH), so that a
# change in it rebuilds one file.
add_library(opscope::blas INTERFACE IMPORTED GLOBAL)
target_link_libraries(opscope::blas INTERFACE ${CMAKE_DL_LIBS})
string(REPLACE ";" ":" _opscope_blas_list "${OPSCOPE_BLAS_CANDIDATES}")
set_property(SOURCE ${PROJECT_SOURCE_DIR}/core/runtime/Blas.cpp APPEND PROPERTY
  COMPILE_DEFINITIONS "OPSCOPE_BLAS_CANDIDATES=\"${_opscope_blas_list}\"")
list(GET OPSCOPE_BLAS_CANDIDATES 0 _opscope_blas_first)
message(STATUS "opscope: OpenBLAS loaded at run time, first choice ${_opscope_blas_first}")
if(NOT _opscope_blas_first MATCHES "openmp")
  message(STATUS "opscope: no OpenMP build of OpenBLAS (apt-get install libopenblas0-openmp): "
                 "OpenBLAS will keep its own pthread pool beside OpenMP's")
endif()
