// The composite kernels of pooling (declared in core/ops/nn.cpp, registered at the end of this
// file), in torch 1.13's order (Pooling.cpp, AdaptiveAveragePooling.cpp):
//
//   max_pool2d                 max_pool2d_with_indices, the values
//   max_pool1d                 max_pool1d_with_indices, the values
//   max_pool1d_with_indices    unsqueeze(-2), max_pool2d_with_indices (window (1, k)), squeeze(-2)
//   avg_pool1d                 unsqueeze(-2), avg_pool2d, squeeze(-2)
//   adaptive_avg_pool2d        output (1, 1): mean over (-1, -2) keepdim; else _adaptive_avg_pool2d
//   adaptive_avg_pool1d        unsqueeze(-2), adaptive_avg_pool2d (1, L), squeeze(-2)
//   adaptive_max_pool1d        unsqueeze(-2), adaptive_max_pool2d (1, L), squeeze(-2)
//
// torch 1.13's max_pool1d runs its own kernel, without indices, when no gradient is wanted;
// opscope always goes through max_pool1d_with_indices.
#include "core/dispatch/Library.h"
#include "core/ops/nn.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// torch's checkDimRange(name, self, 2, 4): a 2-D or 3-D tensor.
void check_dim_range(const Tensor& self, const char* name) {
  OPSCOPE_CHECK(self.dim() >= 2 && self.dim() < 4, "Expected 2 to 3 dimensions, but got ",
                self.dim(), "-dimensional tensor for argument #1 'self' (while checking "
                "arguments for ", name, ")");
}

// torch's check1d.
void check1d(const char* name, const char* arg, IntArrayRef x) {
  OPSCOPE_CHECK(x.size() == 1, name, "() argument '", arg, "' should contain one int (got ",
                x.size(), ")");
}

}  // namespace

// self (N, C, H, W) or (C, H, W) -> (N, C, OH, OW)
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(
      ops::max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

// self (N, C, L) or (C, L) -> (out, indices) (N, C, L_out)
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntArrayRef kernel_size,
                                                   IntArrayRef stride_, IntArrayRef padding,
                                                   IntArrayRef dilation, bool ceil_mode) {
  IntArrayRef stride = stride_.empty() ? kernel_size : stride_;
  check_dim_range(self, "max_pool1d");
  check1d("max_pool1d", "kernel_size", kernel_size);
  check1d("max_pool1d", "stride", stride);
  check1d("max_pool1d", "padding", padding);
  check1d("max_pool1d", "dilation", dilation);
  auto [out, indices] = ops::max_pool2d_with_indices(ops::unsqueeze(self, -2), {1, kernel_size[0]},
                                                     {1, stride[0]}, {0, padding[0]},
                                                     {1, dilation[0]}, ceil_mode);
  return {ops::squeeze(out, -2), ops::squeeze(indices, -2)};
}

Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  OPSCOPE_CHECK(self.dim() == 2 || self.dim() == 3,
                "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size "
                "for input, but got:",
                shape_str(self.sizes()));
  OPSCOPE_CHECK(kernel_size.size() == 1,
                "max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 "
                "but got size ",
                kernel_size.size());
  OPSCOPE_CHECK(stride.empty() || stride.size() == 1,
                "max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size "
                "1 but got size ",
                stride.size());
  OPSCOPE_CHECK(padding.size() == 1,
                "max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but "
                "got size ",
                padding.size());
  OPSCOPE_CHECK(dilation.size() == 1,
                "max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but "
                "got size ",
                dilation.size());
  const int64_t k = kernel_size[0], s = stride.empty() ? k : stride[0];
  OPSCOPE_CHECK(k > 0, "max_pool1d() kernel_size must be greater than zero, but got ", k);
  OPSCOPE_CHECK(s > 0, "max_pool1d() stride must be greater than zero, but got ", s);
  OPSCOPE_CHECK(padding[0] >= 0, "max_pool1d() padding must be non-negative, but got ",
                padding[0]);
  OPSCOPE_CHECK(padding[0] <= k / 2,
                "max_pool1d() padding should be at most half of kernel size, but got padding=",
                padding[0], " and kernel_size=", k);
  OPSCOPE_CHECK(dilation[0] > 0, "max_pool1d() dilation must be greater than zero, but got ",
                dilation[0]);
  return std::get<0>(
      ops::max_pool1d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

// self (N, C, L) or (C, L) -> (N, C, L_out)
Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride_,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad) {
  IntArrayRef stride = stride_.empty() ? kernel_size : stride_;
  check_dim_range(self, "avg_pool1d");
  check1d("avg_pool1d", "kernel_size", kernel_size);
  check1d("avg_pool1d", "stride", stride);
  check1d("avg_pool1d", "padding", padding);
  Tensor out = ops::avg_pool2d(ops::unsqueeze(self, -2), {1, kernel_size[0]}, {1, stride[0]},
                               {0, padding[0]}, ceil_mode, count_include_pad, std::nullopt);
  return ops::squeeze(out, -2);
}

// self (N, C, H, W) or (C, H, W) -> (N, C, OH, OW)
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  OPSCOPE_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  OPSCOPE_CHECK(output_size[0] >= 0 && output_size[1] >= 0,
                "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
                "but received {",
                output_size[0], ", ", output_size[1], "}");
  if (output_size[0] == 1 && output_size[1] == 1)
    return ops::mean(self, std::vector<int64_t>{-1, -2}, true, std::nullopt);
  return ops::_adaptive_avg_pool2d(self, output_size);
}

// self (N, C, L) or (C, L) -> (N, C, L_out)
Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size) {
  check_dim_range(self, "adaptive_avg_pool1d");
  check1d("adaptive_avg_pool1d", "output_size", output_size);
  return ops::squeeze(ops::adaptive_avg_pool2d(ops::unsqueeze(self, -2), {1, output_size[0]}), -2);
}

std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntArrayRef output_size) {
  check_dim_range(self, "adaptive_max_pool1d");
  check1d("adaptive_max_pool1d", "output_size", output_size);
  auto [out, indices] = ops::adaptive_max_pool2d(ops::unsqueeze(self, -2), {1, output_size[0]});
  return {ops::squeeze(out, -2), ops::squeeze(indices, -2)};
}

static Library composite_implicit_pool(Library::IMPL, "aten",
                                       DispatchKey::CompositeImplicitAutograd, [](Library& m) {
                                         m.impl("max_pool2d", fn<&max_pool2d>);
                                         m.impl("max_pool1d", fn<&max_pool1d>);
                                         m.impl("max_pool1d_with_indices",
                                                fn<&max_pool1d_with_indices>);
                                         m.impl("avg_pool1d", fn<&avg_pool1d>);
                                         m.impl("adaptive_avg_pool2d", fn<&adaptive_avg_pool2d>);
                                         m.impl("adaptive_avg_pool1d", fn<&adaptive_avg_pool1d>);
                                         m.impl("adaptive_max_pool1d", fn<&adaptive_max_pool1d>);
                                       });

}  // namespace opscope::composite
