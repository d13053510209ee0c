// Errors that cross into Python.
//
// Semantically, every failure a user can cause (a wrong shape, dtype, device, index or argument)
// is reported as one of these exceptions, whose message says what was expected and what came.
// The Python binding maps each class onto the Python exception PyTorch raises for the same
// mistake: Error -> RuntimeError, IndexError -> IndexError, TypeError -> TypeError,
// ValueError -> ValueError, NotImplementedError -> NotImplementedError.
//
// In implementation terms they are std::exception subclasses with a pre-formatted message; the
// OPSCOPE_CHECK family builds the message only when the check fails.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace opscope {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class IndexError : public Error {
  using Error::Error;
};
class TypeError : public Error {
  using Error::Error;
};
class ValueError : public Error {
  using Error::Error;
};
class NotImplementedError : public Error {
  using Error::Error;
};

namespace detail {
template <typename... Args>
std::string str(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
}  // namespace detail

}  // namespace opscope

// OPSCOPE_CHECK(cond, "expected ", a, " but got ", b): throws opscope::Error when cond is false.
// The message arguments are only evaluated on failure.
#define OPSCOPE_CHECK_AS(ExcType, cond, ...)                         \
  do {                                                               \
    if (__builtin_expect(!(cond), 0)) {                              \
      throw ::opscope::ExcType(::opscope::detail::str(__VA_ARGS__)); \
    }                                                                \
  } while (0)
#define OPSCOPE_CHECK(cond, ...) OPSCOPE_CHECK_AS(Error, cond, __VA_ARGS__)
#define OPSCOPE_CHECK_INDEX(cond, ...) OPSCOPE_CHECK_AS(IndexError, cond, __VA_ARGS__)
#define OPSCOPE_CHECK_TYPE(cond, ...) OPSCOPE_CHECK_AS(TypeError, cond, __VA_ARGS__)
#define OPSCOPE_CHECK_VALUE(cond, ...) OPSCOPE_CHECK_AS(ValueError, cond, __VA_ARGS__)
