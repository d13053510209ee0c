// The argument checks the CPU and CUDA kernels share: see arg_checks.h.
#include "core/ops/arg_checks.h"

#include <algorithm>
#include <string>

#include "core/runtime/Exception.h"
#include "core/runtime/ScalarConvert.h"  // typemeta_name

namespace opscope::checks {

// --- products ---------------------------------------------------------------------------------

void mm_args(const Tensor& self, const Tensor& mat2) {
  OPSCOPE_CHECK(self.dim() == 2, "self must be a matrix");
  OPSCOPE_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  OPSCOPE_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
                self.size(0), "x", self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

void bmm_args(const Tensor& batch1, const Tensor& batch2) {
  OPSCOPE_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  OPSCOPE_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  int64_t bs = batch1.size(0), contraction = batch1.size(2);
  OPSCOPE_CHECK(batch2.size(0) == bs && batch2.size(1) == contraction,
                "Expected size for first two dimensions of batch2 tensor to be: [", bs, ", ",
                contraction, "] but got: [", batch2.size(0), ", ", batch2.size(1), "].");
}

void addmm_args(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  OPSCOPE_CHECK(self.dtype() == mat2.dtype(), "self and mat2 must have the same dtype");
  OPSCOPE_CHECK(mat1.dtype() == mat2.dtype(), "mat1 and mat2 must have the same dtype");
  OPSCOPE_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  OPSCOPE_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  OPSCOPE_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
                mat1.size(0), "x", mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

// torch's mv adds into a fresh (M) vector through addmv: the first dim its message reports is
// always 1.
void mv_args(const Tensor& self, const Tensor& vec) {
  OPSCOPE_CHECK_INDEX(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  OPSCOPE_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ",
                self.dim(), ", ", vec.dim());
  OPSCOPE_CHECK(self.size(1) == vec.size(0), "size mismatch, got ", self.size(0), ", ",
                self.size(0), "x", self.size(1), ",", vec.size(0));
}

void addmv_args(const Tensor& self, const Tensor& mat, const Tensor& vec) {
  OPSCOPE_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1,
                "vector + matrix @ vector expected, got ", self.dim(), ", ", mat.dim(), ", ",
                vec.dim());
  if (mat.size(1) == vec.size(0) && (mat.size(0) == self.numel() || self.numel() == 1)) return;
  OPSCOPE_CHECK_INDEX(self.dim() > 0, "Dimension specified as 0 but tensor has no dimensions");
  OPSCOPE_CHECK(false, "size mismatch, got ", self.size(0), ", ", mat.size(0), "x", mat.size(1),
                ",", vec.size(0));
}

void dot_args(const Tensor& self, const Tensor& other) {
  OPSCOPE_CHECK(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got ", self.dim(),
                "D and ", other.dim(), "D tensors");
  OPSCOPE_CHECK(self.dtype() == other.dtype(),
                "dot : expected both vectors to have same dtype, but found ",
                cpp_name(self.dtype()), " and ", cpp_name(other.dtype()));
  OPSCOPE_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [",
                self.numel(), "] and src [", other.numel(),
                "] to have the same number of elements, but got ", self.numel(), " and ",
                other.numel(), " elements respectively");
}

void inplace_result(const Tensor& self, IntArrayRef sizes, ScalarType dtype) {
  OPSCOPE_CHECK(std::ranges::equal(self.sizes(), sizes), "Bad in-place call: input tensor size ",
                shape_str(self.sizes()), " and output tensor size ", shape_str(sizes),
                " should match");
  OPSCOPE_CHECK(self.dtype() == dtype, "Bad in-place call: input tensor dtype ",
                typemeta_name(self.dtype()), " and output tensor dtype ", typemeta_name(dtype),
                " should match");
}

void out_dtype(const Tensor& out, ScalarType expected) {
  OPSCOPE_CHECK(out.dtype() == expected, "Expected out tensor to have dtype ",
                typemeta_name(expected), ", but got ", typemeta_name(out.dtype()), " instead");
}

// --- gather / scatter -------------------------------------------------------------------------

namespace {
int64_t size_at(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }
}  // namespace

void gather_shapes(const Tensor& self, int64_t dim, const Tensor& index) {
  OPSCOPE_CHECK(index.dtype() == ScalarType::Int64, "gather(): Expected dtype int64 for index");
  OPSCOPE_CHECK(std::max<int64_t>(index.dim(), 1) == std::max<int64_t>(self.dim(), 1),
                "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t d = 0; d < std::max<int64_t>(self.dim(), 1); ++d)
    OPSCOPE_CHECK(d == dim || size_at(index, d) <= size_at(self, d),
                  "Size does not match at dimension ", d, " expected index ",
                  shape_str(index.sizes()), " to be smaller than self ", shape_str(self.sizes()),
                  " apart from dimension ", dim);
}

void scatter_shapes(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  OPSCOPE_CHECK(index.dtype() == ScalarType::Int64, "scatter(): Expected dtype int64 for index");
  if (src.defined())
    OPSCOPE_CHECK(self.dtype() == src.dtype(),
                  "scatter(): Expected self.dtype to be equal to src.dtype");
  const int64_t nd = std::max<int64_t>(self.dim(), 1);
  OPSCOPE_CHECK(std::max<int64_t>(index.dim(), 1) == nd,
                "Index tensor must have the same number of dimensions as self tensor");
  if (src.defined())
    OPSCOPE_CHECK(std::max<int64_t>(src.dim(), 1) == nd,
                  "Index tensor must have the same number of dimensions as src tensor");
  if (index.numel() == 0) return;
  bool ok = true;
  for (int64_t d = 0; d < nd; ++d) {
    if (d != dim && size_at(index, d) > size_at(self, d)) ok = false;
    if (src.defined() && size_at(index, d) > size_at(src, d)) ok = false;
  }
  if (ok) return;
  if (src.defined())
    throw Error(detail::str("Expected index ", shape_str(index.sizes()),
                            " to be smaller than self ", shape_str(self.sizes()),
                            " apart from dimension ", dim, " and to be smaller size than src ",
                            shape_str(src.sizes())));
  throw Error(detail::str("Expected index ", shape_str(index.sizes()), " to be smaller than self ",
                          shape_str(self.sizes()), " apart from dimension ", dim));
}

// --- layer norm -------------------------------------------------------------------------------

std::pair<int64_t, int64_t> layer_norm_inputs(const Tensor& input, IntArrayRef normalized_shape,
                                              const Tensor& weight, const Tensor& bias) {
  const auto normalized_ndim = static_cast<int64_t>(normalized_shape.size());
  OPSCOPE_CHECK(normalized_ndim >= 1,
                "Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                "least one element, but got normalized_shape = ",
                shape_str(normalized_shape));
  OPSCOPE_CHECK(!weight.defined() || std::ranges::equal(weight.sizes(), normalized_shape),
                "Expected weight to be of same shape as normalized_shape, but got weight of "
                "shape ",
                shape_str(weight.sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  OPSCOPE_CHECK(!bias.defined() || std::ranges::equal(bias.sizes(), normalized_shape),
                "Expected bias to be of same shape as normalized_shape, but got bias of shape ",
                shape_str(bias.sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  const int64_t input_ndim = input.dim();
  IntArrayRef input_shape = input.sizes();
  if (input_ndim < normalized_ndim ||
      !std::ranges::equal(input_shape.last(static_cast<size_t>(normalized_ndim)),
                          normalized_shape)) {
    std::string expected = "[*";
    for (int64_t s : normalized_shape) expected += ", " + std::to_string(s);
    throw Error(detail::str("Given normalized_shape=", shape_str(normalized_shape),
                            ", expected input with shape ", expected, "], but got input of size",
                            shape_str(input_shape)));
  }
  const int64_t axis = input_ndim - normalized_ndim;
  int64_t M = 1, N = 1;
  for (int64_t i = 0; i < input_ndim; ++i) (i < axis ? M : N) *= input_shape[i];
  return {M, N};
}

}  // namespace opscope::checks
