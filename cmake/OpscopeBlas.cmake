# OpscopeBlas.cmake — finds OpenBLAS (Debian's libopenblas-dev) and defines `opscope::blas`.
#
# The CPU products (mm, bmm, mv, dot) call the C interface, cblas.h, of OpenBLAS. Debian installs
# several BLAS implementations side by side and points the generic /usr/include/cblas.h and
# libblas.so at whichever one `update-alternatives` chose (maybe the slow reference BLAS), so we
# ask for OpenBLAS by name, through its own pkg-config file first:
#
#   1. pkg-config `openblas`        -> /usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h and
#                                      libopenblas.so from the same directory
#   2. find_package(BLAS), BLA_VENDOR=OpenBLAS, plus the cblas.h next to OpenBLAS's own
#      openblas_config.h (so header and library are the same OpenBLAS)
#
# Usage (core/CMakeLists.txt):
#   include(${PROJECT_SOURCE_DIR}/cmake/OpscopeBlas.cmake)
#   target_link_libraries(opscope_core PUBLIC opscope::blas)

if(TARGET opscope::blas)
  return()
endif()

# 1. pkg-config
# -------------
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(OPSCOPE_OPENBLAS QUIET IMPORTED_TARGET openblas)
endif()

if(OPSCOPE_OPENBLAS_FOUND)
  add_library(opscope::blas INTERFACE IMPORTED GLOBAL)
  target_link_libraries(opscope::blas INTERFACE PkgConfig::OPSCOPE_OPENBLAS)
  message(STATUS "opscope: OpenBLAS ${OPSCOPE_OPENBLAS_VERSION} (pkg-config), "
                 "cblas.h from ${OPSCOPE_OPENBLAS_INCLUDE_DIRS}")
  return()
endif()

# 2. FindBLAS
# -----------
set(BLA_VENDOR OpenBLAS)
find_package(BLAS QUIET)
find_path(OPSCOPE_OPENBLAS_CBLAS_DIR cblas.h
  PATH_SUFFIXES openblas openblas-pthread openblas-openmp openblas64-pthread
                x86_64-linux-gnu/openblas-pthread x86_64-linux-gnu/openblas-openmp
                aarch64-linux-gnu/openblas-pthread
  DOC "Directory with OpenBLAS's cblas.h")

if(BLAS_FOUND AND OPSCOPE_OPENBLAS_CBLAS_DIR)
  add_library(opscope::blas INTERFACE IMPORTED GLOBAL)
  target_link_libraries(opscope::blas INTERFACE ${BLAS_LIBRARIES})
  target_include_directories(opscope::blas INTERFACE ${OPSCOPE_OPENBLAS_CBLAS_DIR})
  message(STATUS "opscope: OpenBLAS ${BLAS_LIBRARIES} (FindBLAS), "
                 "cblas.h from ${OPSCOPE_OPENBLAS_CBLAS_DIR}")
  return()
endif()

message(FATAL_ERROR "opscope: OpenBLAS not found. On Debian / Ubuntu: "
                    "apt-get install libopenblas-dev pkg-config")
