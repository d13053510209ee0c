// The doctest runner for opscope's C++ unit tests (see tests/cpp/CMakeLists.txt).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
