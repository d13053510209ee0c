// CPU kernels of reflection and replication padding (declared in core/ops/nn.cpp, registered at
// the end of this file): reflection_pad1d / 2d, replication_pad1d / 2d and their backward ops,
// what F.pad(mode="reflect" / "replicate") and nn.ReflectionPad* / ReplicationPad* run.
//
// Semantically, along each padded dim of n cells with padding (before, after), output cell o
// copies input cell i = o - before, or when i falls outside [0, n):
//   reflect    the cell mirrored at the edge, -i before it and 2 (n - 1) - i after it (the
//              edge cell is not repeated: both paddings must be below n)
//   replicate  the edge cell, clamp(i, 0, n - 1)
// A negative padding crops. Each output cell reads one input cell, so the kernel is a gather by
// a row index and a column index (core/ops/cpu/plane_index.h) and the backward the matching
// scatter-add. Checks and messages are torch 1.13's; float32, float64, float16 and bfloat16.
#include <algorithm>
#include <string>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/plane_index.h"
#include "core/ops/nn.h"

namespace opscope::cpu {

namespace {

inline constexpr auto kPadTypes = []<typename T>() {
  return std::bool_constant<std::is_same_v<T, float> || std::is_same_v<T, double> ||
                            std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>>{};
};

// Which input cell each output cell of one dim copies.
std::vector<int64_t> source_indices(int64_t n, int64_t before, int64_t after, bool reflect) {
  std::vector<int64_t> idx(static_cast<size_t>(n + before + after));
  for (int64_t o = 0; o < n + before + after; ++o) {
    int64_t i = o - before;
    if (reflect) {
      if (i < 0) i = -i;
      if (i >= n) i = 2 * (n - 1) - i;
    } else {
      i = std::min(std::max<int64_t>(i, 0), n - 1);
    }
    idx[static_cast<size_t>(o)] = i;
  }
  return idx;
}

// One call's geometry: the planes (all dims before the padded ones), and per padded dim (rows:
// 2d only) its size, padding and output size.
struct PadPlan {
  int64_t planes = 1, in_h = 1, in_w = 1;
  std::vector<int64_t> rows{0}, cols;
  DimVector out_shape;
};

PadPlan plan(const char* name, const Tensor& self, IntArrayRef padding, int dims, bool reflect) {
  const int64_t ndim = self.dim();
  int64_t rest = 1;  // every dim but the batch must be non-empty
  for (int64_t d = ndim == dims + 2 ? 1 : 0; d < ndim; ++d) rest *= self.size(d);
  OPSCOPE_CHECK((ndim == dims + 1 || ndim == dims + 2) && rest != 0, "Expected ", dims + 1,
                "D or ", dims + 2,
                "D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions "
                "for input, but got: ",
                shape_str(self.sizes()));
  OPSCOPE_CHECK(static_cast<int>(padding.size()) == 2 * dims, name, ": padding must have ",
                2 * dims, " values, got ", padding.size());
  PadPlan p;
  const int64_t dim_w = ndim - 1, dim_h = ndim - 2;
  for (int64_t d = 0; d < ndim - dims; ++d) p.planes *= self.size(d);
  p.out_shape.assign(self.sizes().begin(), self.sizes().end() - dims);
  const auto padded = [&](int64_t dim, int64_t before, int64_t after, const char* axis) {
    const int64_t n = self.size(dim);
    if (reflect) {
      OPSCOPE_CHECK(before < n && after < n,
                    "Argument #4: Padding size should be less than the corresponding input "
                    "dimension, but got: padding (",
                    before, ", ", after, ") at dimension ", dim, " of input ",
                    // torch 1.13's 2d kernel names the input's number of dims here
                    dims == 2 ? std::to_string(ndim) : shape_str(self.sizes()));
    }
    OPSCOPE_CHECK(n + before + after >= 1, "input (", axis, ": ", n,
                  ") is too small. Calculated output ", axis, ": ", n + before + after);
    return source_indices(n, before, after, reflect);
  };
  if (dims == 2) {
    p.rows = padded(dim_h, padding[2], padding[3], "H");
    p.in_h = self.size(dim_h);
    p.out_shape.push_back(static_cast<int64_t>(p.rows.size()));
  }
  p.cols = padded(dim_w, padding[0], padding[1], "W");
  p.in_w = self.size(dim_w);
  p.out_shape.push_back(static_cast<int64_t>(p.cols.size()));
  return p;
}

Tensor pad(const char* name, const Tensor& self, IntArrayRef padding, int dims, bool reflect) {
  const PadPlan p = plan(name, self, padding, dims, reflect);
  const Tensor x = self.is_contiguous() ? self : ops::contiguous(self);
  Tensor out = make_empty(p.out_shape, self.dtype());
  dispatch_dtype_if(self.dtype(), name, kPadTypes, [&]<typename T>() {
    gather_planes<T>(x.data_ptr<T>(), out.data_ptr<T>(), p.planes, p.in_h, p.in_w, p.rows, p.cols);
  });
  return out;
}

Tensor pad_backward(const char* name, const Tensor& grad_output, const Tensor& self,
                    IntArrayRef padding, int dims, bool reflect) {
  const PadPlan p = plan(name, self, padding, dims, reflect);
  OPSCOPE_CHECK(std::ranges::equal(grad_output.sizes(), p.out_shape),
                name, ": grad_output of shape ", shape_str(grad_output.sizes()),
                " where the padded output is ", shape_str(p.out_shape));
  const Tensor g = grad_output.is_contiguous() ? grad_output : ops::contiguous(grad_output);
  Tensor grad_input = make_empty(self.sizes(), grad_output.dtype());
  dispatch_dtype_if(grad_output.dtype(), name, kPadTypes, [&]<typename T>() {
    scatter_add_planes<T, acc_type_t<T>>(g.data_ptr<T>(), grad_input.data_ptr<T>(), p.planes,
                                         p.in_h, p.in_w, p.rows, p.cols);
  });
  return grad_input;
}

}  // namespace

Tensor reflection_pad1d(const Tensor& self, IntArrayRef padding) {
  return pad("reflection_pad1d", self, padding, 1, true);
}
Tensor reflection_pad2d(const Tensor& self, IntArrayRef padding) {
  return pad("reflection_pad2d", self, padding, 2, true);
}
Tensor replication_pad1d(const Tensor& self, IntArrayRef padding) {
  return pad("replication_pad1d", self, padding, 1, false);
}
Tensor replication_pad2d(const Tensor& self, IntArrayRef padding) {
  return pad("replication_pad2d", self, padding, 2, false);
}
Tensor reflection_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return pad_backward("reflection_pad1d_backward", grad_output, self, padding, 1, true);
}
Tensor reflection_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                 IntArrayRef padding) {
  return pad_backward("reflection_pad2d_backward", grad_output, self, padding, 2, true);
}
Tensor replication_pad1d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return pad_backward("replication_pad1d_backward", grad_output, self, padding, 1, false);
}
Tensor replication_pad2d_backward(const Tensor& grad_output, const Tensor& self,
                                  IntArrayRef padding) {
  return pad_backward("replication_pad2d_backward", grad_output, self, padding, 2, false);
}

static Library cpu_padding(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("reflection_pad1d", fn<&reflection_pad1d>);
  m.impl("reflection_pad2d", fn<&reflection_pad2d>);
  m.impl("replication_pad1d", fn<&replication_pad1d>);
  m.impl("replication_pad2d", fn<&replication_pad2d>);
  m.impl("reflection_pad1d_backward", fn<&reflection_pad1d_backward>);
  m.impl("reflection_pad2d_backward", fn<&reflection_pad2d_backward>);
  m.impl("replication_pad1d_backward", fn<&replication_pad1d_backward>);
  m.impl("replication_pad2d_backward", fn<&replication_pad2d_backward>);
});

}  // namespace opscope::cpu
