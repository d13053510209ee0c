// CPU kernels of max_unpool2d and max_unpool3d (declared in core/ops/nn.cpp, see core/ops/nn.h;
// registered at the end of this file): F.max_unpool1d / 2d / 3d, torch 1.13's
// max_unpooling2d_forward_out_cpu / max_unpooling3d_forward_out_cpu (MaxUnpooling.cpp) with
// their checks and messages, over one loop (cpu_max_unpool in torch's MaxUnpoolKernel.cpp).
//
// Semantically max pooling's partial inverse: each input plane (n, c) of P = H W (or T H W)
// values comes with indices that say where in the output plane of Q = OH OW (or OT OH OW)
// elements each value goes, flat (h OW + w); the rest of the output is 0:
//
//   out[n, c].flat[indices[n, c, p]] = self[n, c, p]        self, indices (N, C, P) -> (N, C, Q)
//
// An index outside [0, Q) is torch's "Found an invalid max index" error; where two values name
// the same place the later one stays. max_unpool3d's stride and padding are only checked (the
// indices already say where each value goes). float32 and float64, as torch's.
#include <algorithm>
#include <cstring>
#include <optional>

#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/nn.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

// out (planes, Q) <- zeros, then each plane's values at their indices; self, indices (planes, P)
// contiguous. Returns the last index outside [0, Q) met (torch reports one), if any.
template <typename T>
std::optional<int64_t> unpool_planes(const T* self, const int64_t* indices, T* out, int64_t planes,
                                     int64_t p_size, int64_t q_size) {
  std::memset(static_cast<void*>(out), 0, sizeof(T) * planes * q_size);
  std::optional<int64_t> invalid;
  parallel_for(0, planes, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, p_size)),
               [&](int64_t begin, int64_t end) {
                 std::optional<int64_t> found;
                 for (int64_t plane = begin; plane < end; ++plane) {
                   const T* in = self + plane * p_size;
                   const int64_t* at = indices + plane * p_size;
                   T* dst = out + plane * q_size;
                   for (int64_t p = 0; p < p_size; ++p) {
                     const int64_t q = at[p];
                     if (q < 0 || q >= q_size) {
                       found = q;
                     } else {
                       dst[q] = in[p];
                     }
                   }
                 }
                 if (found) {
#pragma omp critical(opscope_unpool_invalid)
                   invalid = found;
                 }
               });
  return invalid;
}

// The checks both ops share once their own are done: indices of self's shape, no empty
// non-batch dim (dim 0 of an unbatched input is not checked, as in torch).
void check_same_shape_nonempty(const Tensor& self, const Tensor& indices, const char* fn_name) {
  const IntArrayRef a = self.sizes(), b = indices.sizes();
  OPSCOPE_CHECK(std::equal(a.begin(), a.end(), b.begin(), b.end()),
                "Expected shape of indices to be same as that of the input tensor (", shape_str(a),
                ") but got indices tensor with shape: ", shape_str(b));
  for (int64_t i = 1; i < self.dim(); ++i)
    OPSCOPE_CHECK(self.size(i) > 0, fn_name,
                  ": Expected input to have non-zero size for non-batch dimensions, but got ",
                  shape_str(a), " with dimension ", i, " being empty.");
}

// out (self's leading dims, then `spatial`) written from self and indices; `invalid` makes the
// error message from the bad index.
template <typename Message>
Tensor unpool(const Tensor& out, const Tensor& self, const Tensor& indices, IntArrayRef spatial,
              const char* name, const Message& invalid_message) {
  const int64_t spatial_dims = static_cast<int64_t>(spatial.size());
  DimVector sizes(self.sizes().begin(), self.sizes().end() - spatial_dims);
  for (int64_t s : spatial) sizes.push_back(s);
  Tensor result;  // (allocating checks that the sizes' product fits)
  if (out.defined()) {
    resize_output(out, sizes);
    result = out;
  } else {
    result = make_empty(sizes, self.dtype(), self.device());
  }
  if (result.numel() == 0) return result;
  int64_t q_size = 1, p_size = 1;
  for (int64_t s : spatial) q_size *= s;
  for (int64_t d = self.dim() - spatial_dims; d < self.dim(); ++d) p_size *= self.size(d);
  dispatch_dtype_if(self.dtype(), name, kFloatingOnly, [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      check_read_as(self.dtype(), result.dtype());
      Tensor target =
          result.is_contiguous() ? result : make_empty(sizes, self.dtype(), self.device());
      const Tensor input = self.is_contiguous() ? self : ops::contiguous(self);
      const Tensor where = indices.is_contiguous() ? indices : ops::contiguous(indices);
      const int64_t planes = result.numel() / q_size;
      const std::optional<int64_t> invalid = unpool_planes(
          static_cast<const T*>(input.data()), static_cast<const int64_t*>(where.data()),
          static_cast<T*>(target.data()), planes, p_size, q_size);
      if (invalid) throw Error(invalid_message(*invalid));
      if (!target.is_same(result)) ops::copy_(result, target);
    } else {
      throw Error(detail::str("\"", name, "\" not implemented for '", cpp_name(self.dtype()), "'"));
    }
  });
  return result;
}

}  // namespace

// self, indices int64 (N, C, H, W) or (C, H, W) -> (N, C, OH, OW) or (C, OH, OW)
Tensor max_unpool2d_impl(const Tensor& out, const Tensor& self, const Tensor& indices,
                         IntArrayRef output_size) {
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64,
                "elements in indices should be type int64 but got: ", cpp_name(indices.dtype()));
  OPSCOPE_CHECK(output_size.size() == 2,
                "There should be exactly two elements (height, width) in output_size, but got ",
                output_size.size(), " elements.");
  OPSCOPE_CHECK(self.dim() == 3 || self.dim() == 4,
                "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with ",
                self.dim(), " dimensions.");
  check_same_shape_nonempty(self, indices, "max_unpooling2d_forward_out_cpu()");
  const int64_t oh = output_size[0], ow = output_size[1];
  OPSCOPE_CHECK(oh >= 0 && ow >= 0, "max_unpool2d: output_size must be non-negative, but got ",
                shape_str(output_size));
  return unpool(out, self, indices, output_size, "max_unpool2d", [&](int64_t index) {
    // (torch's message has no closing parenthesis)
    return detail::str("Found an invalid max index: ", index, " (output volumes are of size ", oh,
                       "x", ow);
  });
}

// self, indices int64 (N, C, T, H, W) or (C, T, H, W) -> (N, C, OT, OH, OW) or (C, OT, OH, OW)
Tensor max_unpool3d_impl(const Tensor& out, const Tensor& self, const Tensor& indices,
                         IntArrayRef output_size, IntArrayRef stride, IntArrayRef padding) {
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64, "elements in indices should be type int64");
  OPSCOPE_CHECK(self.dim() == 4 || self.dim() == 5,
                "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with ",
                self.dim(), " dimensions.");
  OPSCOPE_CHECK(output_size.size() == 3,
                "There should be exactly three elements (depth, height, width) in output_size, "
                "but got ",
                output_size.size(), " elements.");
  OPSCOPE_CHECK(stride.size() == 3,
                "There should be exactly three elements (depth, height, width) in stride, but "
                "got: ",
                stride.size(), " elements.");
  OPSCOPE_CHECK(padding.size() == 3,
                "There should be exactly three elements (depth, height, width) in padding, but "
                "got: ",
                padding.size(), " elements.");
  check_same_shape_nonempty(self, indices, "max_unpooling3d_forward_out_cpu()");
  OPSCOPE_CHECK(stride[0] > 0 && stride[1] > 0 && stride[2] > 0,
                "strides should be greater than zero, but got stride: ", shape_str(stride));
  const int64_t ot = output_size[0], oh = output_size[1], ow = output_size[2];
  OPSCOPE_CHECK(ot >= 0 && oh >= 0 && ow >= 0,
                "max_unpool3d: output_size must be non-negative, but got ", shape_str(output_size));
  return unpool(out, self, indices, output_size, "max_unpool3d", [&](int64_t index) {
    return detail::str("Found an invalid max index: ", index, " (output volumes are of size ", ot,
                       "x", oh, "x", ow);
  });
}

static Library cpu_unpool(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("max_unpool2d", functional<&max_unpool2d_impl>());
  m.impl("max_unpool2d.out", out<&max_unpool2d_impl>());
  m.impl("max_unpool3d", functional<&max_unpool3d_impl>());
  m.impl("max_unpool3d.out", out<&max_unpool3d_impl>());
});

}  // namespace opscope::cpu
