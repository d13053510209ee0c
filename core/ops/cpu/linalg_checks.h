// The argument checks the linalg family's kernels and composites share (core/ops/cpu/linalg.cpp,
// core/ops/composite/linalg.cpp): torch's checkIsMatrix, squareCheckInputs and
// checkFloatingOrComplex, with torch's wording; `f` names the function as torch's messages do
// ("linalg.inv").
#pragma once

#include <string_view>

#include "core/tensor/Tensor.h"

namespace opscope::cpu::linalg_checks {

// A (*, m, n): at least two dims.
inline void check_matrix(const Tensor& A, std::string_view f, std::string_view arg = "A") {
  OPSCOPE_CHECK(A.dim() >= 2, f, ": The input tensor ", arg, " must have at least 2 dimensions.");
}

// A (*, n, n).
inline void check_square(const Tensor& A, std::string_view f, std::string_view arg = "A") {
  check_matrix(A, f, arg);
  OPSCOPE_CHECK(A.size(-1) == A.size(-2), f, ": ", arg,
                " must be batches of square matrices, but they are ", A.size(-2), " by ",
                A.size(-1), " matrices");
}

// A floating dtype; float16 / bfloat16 only when allow_low_precision (LAPACK has neither).
inline void check_floating(const Tensor& A, std::string_view f, bool allow_low_precision = false) {
  ScalarType t = A.dtype();
  OPSCOPE_CHECK(is_floating(t), f, ": Expected a floating point or complex tensor as input. Got ",
                cpp_name(t));
  OPSCOPE_CHECK(allow_low_precision || t == ScalarType::Float32 || t == ScalarType::Float64, f,
                ": Low precision dtypes not supported. Got ", cpp_name(t));
}

}  // namespace opscope::cpu::linalg_checks
