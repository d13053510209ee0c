// The composite half of the spatial transformer ops (declared in core/ops/nn.cpp; the sampling
// kernels are core/ops/cpu/grid_sampler.cpp), each with torch 1.13's key and the ops its kernel
// calls, so that a trace reads as torch's:
//
//   grid_sampler (CompositeImplicitAutograd)      -> grid_sampler_2d (4-D input) / grid_sampler_3d
//   affine_grid_generator (CompositeExplicitAutograd, AffineGridGeneratorBackward0)
//       theta (N, 2, 3), size (N, C, H, W)    -> base (N, H, W, 3) (N, H W, 3) bmm theta^T
//                                                -> (N, H, W, 2)
//       theta (N, 3, 4), size (N, C, D, H, W) -> base (N, D, H, W, 4) ... -> (N, D, H, W, 3)
//   affine_grid_generator_backward (CompositeImplicitAutograd)
//       grad (N, H, W, 2) -> (base^T (N, 3, H W) bmm grad (N, H W, 2))^T = (N, 2, 3)
//
// The base grid holds, per output point, its normalized coordinates (x, y[, z], 1): x runs
// linspace(-1, 1, W) along W (scaled by (W - 1) / W without align_corners, so that the points
// are pixel centres), y along H, z along D; a size-1 dim has the single coordinate 0.
#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/linear.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)
constexpr Op<Tensor(const Tensor&, int64_t)> unsqueeze_{"aten::unsqueeze_"};

// input (N, C, H, W) or (N, C, D, H, W), grid (N, Ho, Wo, 2) or (N, Do, Ho, Wo, 3)
//   -> (N, C, Ho, Wo) or (N, C, Do, Ho, Wo)
// (torch's cuDNN branch is CUDA-only; the kernels below check the shapes)
Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners) {
  if (input.dim() == 4)
    return ops::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners);
  return ops::grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners);
}

// -> [steps]: linspace(-1, 1, steps), times (steps - 1) / steps without align_corners; [0] for
// a single step (torch's at::tensor(0), a one-element tensor made by empty and written)
Tensor linspace_from_neg_one(const Tensor& like, int64_t steps, bool align_corners) {
  if (steps <= 1) return ops::zeros({1}, like.dtype(), std::nullopt, like.device());
  Tensor range =
      ops::linspace(Scalar(-1), Scalar(1), steps, like.dtype(), std::nullopt, like.device());
  if (!align_corners) {
    range = ops::div(ops::mul(range, Scalar(steps - 1)), Scalar(steps));
  }
  return range;
}

// sizes (N, C, spatial...) -> (N, spatial..., k + 1): the normalized coordinates of every point,
// x (along the last dim) first, then 1
Tensor make_base_grid(const Tensor& like, IntArrayRef size, bool align_corners) {
  const int64_t k = static_cast<int64_t>(size.size()) - 2;  // spatial dims
  DimVector shape{size[0]};
  for (int64_t i = 0; i < k; ++i) shape.push_back(size[2 + i]);
  shape.push_back(k + 1);
  Tensor base = ops::empty(shape, like.dtype(), std::nullopt, like.device());
  // coordinate j reads spatial dim k - 1 - j (x: W, y: H, z: D), broadcast from its own place
  for (int64_t j = 0; j < k; ++j) {
    Tensor range = linspace_from_neg_one(like, size[2 + k - 1 - j], align_corners);
    for (int64_t u = 0; u < j; ++u) range = unsqueeze_(range, -1);
    ops::copy_(ops::select(base, -1, j), range);
  }
  ops::fill_(ops::select(base, -1, k), Scalar(1));
  return base;
}

// theta (N, k, k + 1), size (N, C, spatial...) -> (N, spatial..., k)
Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners) {
  OPSCOPE_CHECK(size.size() == 4 || size.size() == 5,
                "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.");
  const int64_t k = static_cast<int64_t>(size.size()) - 2;
  int64_t points = 1;
  for (int64_t i = 0; i < k; ++i) points *= size[2 + i];
  const Tensor base = make_base_grid(theta, size, align_corners);
  const Tensor points_base = ops::view(base, {size[0], points, k + 1});
  const Tensor theta_t = ops::transpose(theta, 1, 2);
  const Tensor grid = ops::bmm(points_base, theta_t);
  DimVector out_shape{size[0]};
  for (int64_t i = 0; i < k; ++i) out_shape.push_back(size[2 + i]);
  out_shape.push_back(k);
  return ops::view(grid, out_shape);
}

// grad (N, spatial..., k), size (N, C, spatial...) -> grad_theta (N, k, k + 1)
Tensor affine_grid_generator_backward(const Tensor& grad, IntArrayRef size, bool align_corners) {
  OPSCOPE_CHECK(size.size() == 4 || size.size() == 5,
                "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.");
  const int64_t k = static_cast<int64_t>(size.size()) - 2;
  int64_t points = 1;
  DimVector expected{size[0]};
  for (int64_t i = 0; i < k; ++i) {
    points *= size[2 + i];
    expected.push_back(size[2 + i]);
  }
  expected.push_back(k);
  const Tensor base = make_base_grid(grad, size, align_corners);
  // torch asserts this (an internal assert naming its source line)
  OPSCOPE_CHECK(DimVector(grad.sizes().begin(), grad.sizes().end()) == expected,
                k == 2 ? "grad_grid.sizes() == IntArrayRef({N, H, W, 2}) INTERNAL ASSERT FAILED"
                       : "grad_grid.sizes() == IntArrayRef({N, D, H, W, 3}) INTERNAL ASSERT "
                         "FAILED");
  const Tensor base_t = ops::transpose(ops::view(base, {size[0], points, k + 1}), 1, 2);
  const Tensor grad_points = ops::view(grad, {size[0], points, k});
  const Tensor grad_theta = ops::bmm(base_t, grad_points);
  return ops::transpose(grad_theta, 1, 2);
}

// The out= forms torch 1.13 generates on CompositeExplicitAutograd: the functional op, then its
// results resized into and copied to out (an output the backward left undefined is not written).
Tensor copy_to_out(const Tensor& out, const Tensor& result) {
  if (!result.defined()) return out;
  resize_output(out, result.sizes());
  ops::copy_(out, result);
  return out;
}

Tensor grid_sampler_2d_out(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                           int64_t padding_mode, bool align_corners, const Tensor& out) {
  return copy_to_out(
      out, ops::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners));
}

Tensor grid_sampler_3d_out(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                           int64_t padding_mode, bool align_corners, const Tensor& out) {
  return copy_to_out(
      out, ops::grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners));
}

template <const auto& Backward>
std::tuple<Tensor, Tensor> grid_sampler_backward_out(const Tensor& grad_output, const Tensor& input,
                                                     const Tensor& grid, int64_t interpolation_mode,
                                                     int64_t padding_mode, bool align_corners,
                                                     IntArrayRef output_mask, const Tensor& out0,
                                                     const Tensor& out1) {
  auto [grad_input, grad_grid] = Backward(grad_output, input, grid, interpolation_mode,
                                          padding_mode, align_corners, output_mask);
  return {copy_to_out(out0, grad_input), copy_to_out(out1, grad_grid)};
}

Tensor affine_grid_generator_out(const Tensor& theta, IntArrayRef size, bool align_corners,
                                 const Tensor& out) {
  return copy_to_out(out, ops::affine_grid_generator(theta, size, align_corners));
}

}  // namespace

static Library composite_implicit_grid_sampler(Library::IMPL, "aten",
                                               DispatchKey::CompositeImplicitAutograd,
                                               [](Library& m) {
                                                 m.impl("grid_sampler", fn<&grid_sampler>);
                                                 m.impl("affine_grid_generator_backward",
                                                        fn<&affine_grid_generator_backward>);
                                               });

static Library composite_explicit_grid_sampler(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("affine_grid_generator", fn<&affine_grid_generator>);
      m.impl("affine_grid_generator.out", fn<&affine_grid_generator_out>);
      m.impl("grid_sampler_2d.out", fn<&grid_sampler_2d_out>);
      m.impl("grid_sampler_3d.out", fn<&grid_sampler_3d_out>);
      m.impl("grid_sampler_2d_backward.out",
             fn<&grid_sampler_backward_out<ops::grid_sampler_2d_backward>>);
      m.impl("grid_sampler_3d_backward.out",
             fn<&grid_sampler_backward_out<ops::grid_sampler_3d_backward>>);
    });

}  // namespace opscope::composite
