// More of the shape family's decompositions (schemas in core/ops/shape.cpp, registered at the end
// of this file): rot90, kron, block_diag, diagflat, column_stack / row_stack, hsplit / vsplit /
// dsplit, vander, combinations, and the out= forms of triu_indices / tril_indices (whose CPU
// kernels are in core/ops/cpu/factories.cpp). Each calls the ops PyTorch 1.13 calls
// (TensorTransformations.cpp, LinearAlgebra.cpp, TensorShape.cpp, TensorFactories.cpp,
// Itertools.cpp), so a trace shows the same children as torch's profiler:
//   rot90(k)       k % 4 == 1: flip(dims[1]) + transpose_;  2: flip(both);  3: flip(dims[0]) +
//                  transpose_;  0: clone(contiguous_format)
//   kron           _unsafe_view each operand to interleaved sizes, mul, _unsafe_view the product
//   block_diag     expand 0-d / 1-D inputs to 2-D, zeros, slice + slice + copy_ per block
//   diagflat       contiguous, view(-1), diag
//   column_stack   reshape 0-d / 1-D inputs to (n, 1), hstack;   row_stack: vstack
//   h/v/dsplit     tensor_split along dim 1 (0 for 1-D) / 0 / 2
//   vander         empty, select + fill_ (column 0), slice + copy_ + cumprod + copy_, flip
//   combinations   meshgrid of self and of arange(n), a mask from lt / le and mul_, masked_select
//                  per grid, stack
#include <algorithm>
#include <array>

#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)   (a views row; rot90 calls it on
// flip's fresh result, as torch does)
constexpr Op<Tensor(const Tensor&, int64_t, int64_t)> transpose_{"aten::transpose_"};
// triu_indices / tril_indices (int row, int col, int offset=0, *, ScalarType? dtype=long,
// Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
constexpr Op<Tensor(int64_t, int64_t, int64_t, std::optional<ScalarType>, std::optional<int64_t>,
                    std::optional<Device>, std::optional<bool>)>
    triu_indices{"aten::triu_indices"}, tril_indices{"aten::tril_indices"};

// The out= forms torch generates for a functional op: compute, resize out, copy in.
Tensor copy_into_out(const Tensor& result, const Tensor& out) {
  resize_output(out, result.sizes());
  return ops::copy_(out, result);
}

}  // namespace

// --- rot90 -----------------------------------------------------------------------------------

// self (.., n0 at dims[0], .., n1 at dims[1], ..) turned k times by 90 degrees in that plane.
Tensor rot90(const Tensor& self, int64_t k, IntArrayRef dims) {
  const int64_t total_dims = self.dim();
  const int64_t total_rot_dims = static_cast<int64_t>(dims.size());
  OPSCOPE_CHECK(total_rot_dims == 2, "expected total rotation dims == 2, but got dims = ",
                total_rot_dims);
  OPSCOPE_CHECK(total_dims >= 2, "expected total dims >= 2, but got total dims = ", total_dims);
  OPSCOPE_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != total_dims,
                "expected rotation dims to be different, but got dim0 = ", dims[0],
                " and dim1 = ", dims[1]);
  OPSCOPE_CHECK(dims[0] < total_dims && dims[0] >= -total_dims,
                "Rotation dim0 out of range, dim0 = ", dims[0]);
  OPSCOPE_CHECK(dims[1] < total_dims && dims[1] >= -total_dims,
                "Rotation dim1 out of range, dim1 = ", dims[1]);
  switch (((k % 4) + 4) % 4) {
    case 1:  // one quarter turn: reverse dims[1], then swap the two dims
      return transpose_(ops::flip(self, std::array<int64_t, 1>{dims[1]}), dims[0], dims[1]);
    case 2:  // half a turn: reverse both
      return ops::flip(self, dims);
    case 3:  // three quarters: reverse dims[0], then swap
      return transpose_(ops::flip(self, std::array<int64_t, 1>{dims[0]}), dims[0], dims[1]);
    default:
      return ops::clone(self, ops::kContiguousFormat);
  }
}
Tensor rot90_out(const Tensor& self, int64_t k, IntArrayRef dims, const Tensor& out) {
  return copy_into_out(ops::rot90(self, k, dims), out);
}

// --- kron ------------------------------------------------------------------------------------

namespace {

// The sizes kron views its operands with: self (a_i) as (a_0, 1, a_1, 1, ..), other (b_i) as
// (1, b_0, 1, b_1, ..), both padded to the longer rank with leading 1s; their product
// (a_0, b_0, a_1, b_1, ..) is the result (a_0 * b_0, a_1 * b_1, ..).
struct KronShapes {
  DimVector self_view, other_view, product, result;
  KronShapes(IntArrayRef a, IntArrayRef b) {
    const size_t rank = std::max(a.size(), b.size());
    const size_t pad_a = rank - a.size(), pad_b = rank - b.size();
    for (size_t i = 0; i < rank; ++i) {
      int64_t ai = i >= pad_a ? a[i - pad_a] : 1, bi = i >= pad_b ? b[i - pad_b] : 1;
      self_view.push_back(ai);
      self_view.push_back(1);
      other_view.push_back(1);
      other_view.push_back(bi);
      product.push_back(ai);
      product.push_back(bi);
      result.push_back(ai * bi);
    }
  }
};

}  // namespace

Tensor kron(const Tensor& self, const Tensor& other) {
  KronShapes s(self.sizes(), other.sizes());
  Tensor product = ops::mul(ops::_unsafe_view(self, s.self_view),
                            ops::_unsafe_view(other, s.other_view));
  return ops::_unsafe_view(product, s.result);
}
Tensor kron_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  KronShapes s(self.sizes(), other.sizes());
  Tensor self_view = ops::_unsafe_view(self, s.self_view);
  Tensor other_view = ops::_unsafe_view(other, s.other_view);
  resize_output(out, s.result);
  ops::mul_out(ops::_unsafe_view(out, s.product), self_view, other_view);
  return out;
}

// --- block_diag ------------------------------------------------------------------------------

Tensor block_diag(TensorList tensors) {
  if (tensors.empty()) return ops::empty({1, 0});
  const Device device = tensors[0].device();
  for (size_t i = 0; i < tensors.size(); ++i)
    OPSCOPE_CHECK(tensors[i].device() == device,
                  "torch.block_diag: input tensors must all be on the same device. Input 0 is "
                  "on device ",
                  device.str(), " and input ", i, " is on device ", tensors[i].device().str());
  ResultTypeState state;
  for (const Tensor& t : tensors) state.add_tensor(t.dtype(), t.dim(), false);
  // Every input as a matrix: () -> (1, 1) and (n) -> (1, n), by expand.
  std::vector<Tensor> blocks;
  int64_t rows = 0, cols = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    OPSCOPE_CHECK(t.dim() <= 2,
                  "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i,
                  " has ", t.dim(), " dimensions");
    if (t.dim() == 2) {
      blocks.push_back(t);
    } else {
      int64_t n = t.dim() == 1 ? t.size(0) : 1;
      blocks.push_back(ops::expand(t, std::array<int64_t, 2>{1, n}));
    }
    rows += blocks.back().size(0);
    cols += blocks.back().size(1);
  }
  Tensor result = ops::zeros(std::array<int64_t, 2>{rows, cols}, state.result(), std::nullopt,
                             device);
  int64_t row = 0, col = 0;
  for (const Tensor& b : blocks) {
    int64_t m = b.size(0), n = b.size(1);
    ops::copy_(ops::slice(ops::slice(result, 0, row, row + m), 1, col, col + n), b);
    row += m;
    col += n;
  }
  return result;
}
Tensor block_diag_out(TensorList tensors, const Tensor& out) {
  return copy_into_out(ops::block_diag(tensors), out);
}

// --- diagflat, column_stack, row_stack -------------------------------------------------------

Tensor diagflat(const Tensor& self, int64_t offset) {
  return ops::diag(ops::view(ops::contiguous(self), std::array<int64_t, 1>{-1}), offset);
}

namespace {
// column_stack's inputs: 0-d and 1-D tensors as columns (n, 1).
std::vector<Tensor> as_columns(TensorList tensors) {
  OPSCOPE_CHECK(!tensors.empty(), "column_stack expects a non-empty TensorList");
  std::vector<Tensor> columns;
  for (const Tensor& t : tensors)
    columns.push_back(t.dim() <= 1 ? ops::reshape(t, std::array<int64_t, 2>{t.numel(), 1}) : t);
  return columns;
}
}  // namespace

Tensor column_stack(TensorList tensors) {
  return ops::hstack(as_columns(tensors));
}
Tensor column_stack_out(TensorList tensors, const Tensor& out) {
  return ops::hstack_out(out, as_columns(tensors));
}
Tensor row_stack(TensorList tensors) {
  return ops::vstack(tensors);
}
Tensor row_stack_out(TensorList tensors, const Tensor& out) {
  return ops::vstack_out(out, tensors);
}

// --- hsplit, vsplit, dsplit ------------------------------------------------------------------

namespace {
// The dim h/v/dsplit split along, after checking that self has it.
int64_t split_dim(const Tensor& self, const char* name, int64_t min_dims, int64_t dim) {
  if (min_dims == 1)
    OPSCOPE_CHECK(self.dim() >= 1, "torch.", name,
                  " requires a tensor with at least 1 dimension, but got a tensor with ",
                  self.dim(), " dimensions!");
  else
    OPSCOPE_CHECK(self.dim() >= min_dims, "torch.", name, " requires a tensor with at least ",
                  min_dims, " dimension, but got a tensor with ", self.dim(), " dimensions!");
  return dim;
}
std::vector<Tensor> split_equal(const Tensor& self, const char* name, int64_t dim,
                                int64_t sections) {
  OPSCOPE_CHECK(sections != 0 && self.size(dim) % sections == 0, "torch.", name,
                " attempted to split along dimension ", dim,
                ", but the size of the dimension ", self.size(dim),
                " is not divisible by the split_size ", sections, "!");
  return ops::tensor_split(self, sections, dim);
}
}  // namespace

std::vector<Tensor> hsplit_int(const Tensor& self, int64_t sections) {
  int64_t dim = split_dim(self, "hsplit", 1, self.dim() == 1 ? 0 : 1);
  return split_equal(self, "hsplit", dim, sections);
}
std::vector<Tensor> hsplit_array(const Tensor& self, IntArrayRef indices) {
  int64_t dim = split_dim(self, "hsplit", 1, self.dim() == 1 ? 0 : 1);
  return ops::tensor_split(self, indices, dim);
}
std::vector<Tensor> vsplit_int(const Tensor& self, int64_t sections) {
  return split_equal(self, "vsplit", split_dim(self, "vsplit", 2, 0), sections);
}
std::vector<Tensor> vsplit_array(const Tensor& self, IntArrayRef indices) {
  return ops::tensor_split(self, indices, split_dim(self, "vsplit", 2, 0));
}
std::vector<Tensor> dsplit_int(const Tensor& self, int64_t sections) {
  return split_equal(self, "dsplit", split_dim(self, "dsplit", 3, 2), sections);
}
std::vector<Tensor> dsplit_array(const Tensor& self, IntArrayRef indices) {
  return ops::tensor_split(self, indices, split_dim(self, "dsplit", 3, 2));
}

// --- vander, combinations --------------------------------------------------------------------

// x (n) -> (n, N): columns 1, x, x^2, .. (a cumprod of copies of x), flipped unless increasing.
Tensor vander(const Tensor& x, std::optional<int64_t> N, bool increasing) {
  OPSCOPE_CHECK(x.dim() == 1, "x must be a one-dimensional tensor.");
  int64_t n = x.size(0);
  if (N) {
    OPSCOPE_CHECK(*N >= 0, "N must be non-negative.");
    n = *N;
  }
  Tensor result = ops::empty(std::array<int64_t, 2>{x.size(0), n},
                             promote_types(x.dtype(), ScalarType::Int64), std::nullopt,
                             x.device());
  if (n > 0) {
    ops::fill_(ops::select(result, 1, 0), Scalar(1));
    if (n > 1) {
      ops::copy_(ops::slice(result, 1, 1), ops::unsqueeze(x, 1));
      ops::copy_(ops::slice(result, 1, 1), ops::cumprod(ops::slice(result, 1, 1), 1));
    }
  }
  if (!increasing) return ops::flip(result, std::array<int64_t, 1>{1});
  return result;
}

// self (n) -> (C, r): the r-tuples of indices i_0 < i_1 < .. (<= with replacement), in
// lexicographic order, read off r meshgrids through one mask.
Tensor combinations(const Tensor& self, int64_t r, bool with_replacement) {
  OPSCOPE_CHECK(self.dim() == 1, "Expect a 1D vector, but got shape ", shape_str(self.sizes()));
  OPSCOPE_CHECK(r >= 0, "Expect a non-negative number, but got ", r);
  if (r == 0) return ops::empty({0}, self.dtype(), std::nullopt, self.device());
  const int64_t n = self.numel();
  std::vector<Tensor> copies(static_cast<size_t>(r), self);
  std::vector<Tensor> grids = ops::meshgrid(copies, "ij");
  Tensor index = ops::arange(Scalar(n), ScalarType::Int64, std::nullopt, self.device());
  std::vector<Tensor> index_copies(static_cast<size_t>(r), index);
  std::vector<Tensor> index_grids = ops::meshgrid(index_copies, "ij");
  Tensor mask = ops::full(grids[0].sizes(), Scalar(true), ScalarType::Bool, std::nullopt,
                          self.device());
  for (size_t i = 1; i < static_cast<size_t>(r); ++i) {
    Tensor ordered = with_replacement ? ops::le(index_grids[i - 1], index_grids[i])
                                      : ops::lt(index_grids[i - 1], index_grids[i]);
    ops::mul_(mask, ordered);
  }
  std::vector<Tensor> columns;
  for (const Tensor& g : grids) columns.push_back(ops::masked_select(g, mask));
  return ops::stack(columns, 1);
}

// --- triu_indices / tril_indices: out= -------------------------------------------------------

// torch's generated out= forms: the functional op with out's dtype and device, copied into out.
Tensor triu_indices_out(int64_t row, int64_t col, int64_t offset, const Tensor& out) {
  return copy_into_out(
      triu_indices(row, col, offset, out.dtype(), std::nullopt, out.device(), std::nullopt),
      out);
}
Tensor tril_indices_out(int64_t row, int64_t col, int64_t offset, const Tensor& out) {
  return copy_into_out(
      tril_indices(row, col, offset, out.dtype(), std::nullopt, out.device(), std::nullopt),
      out);
}

static Library composite_explicit_shape_more(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("rot90", fn<&rot90>);
      m.impl("rot90.out", fn<&rot90_out>);
      m.impl("block_diag", fn<&block_diag>);
      m.impl("block_diag.out", fn<&block_diag_out>);
      m.impl("triu_indices.out", fn<&triu_indices_out>);
      m.impl("tril_indices.out", fn<&tril_indices_out>);
    });

static Library composite_implicit_shape_more(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("kron", fn<&kron>);
      m.impl("kron.out", fn<&kron_out>);
      m.impl("diagflat", fn<&diagflat>);
      m.impl("column_stack", fn<&column_stack>);
      m.impl("column_stack.out", fn<&column_stack_out>);
      m.impl("row_stack", fn<&row_stack>);
      m.impl("row_stack.out", fn<&row_stack_out>);
      m.impl("hsplit.int", fn<&hsplit_int>);
      m.impl("hsplit.array", fn<&hsplit_array>);
      m.impl("vsplit.int", fn<&vsplit_int>);
      m.impl("vsplit.array", fn<&vsplit_array>);
      m.impl("dsplit.int", fn<&dsplit_int>);
      m.impl("dsplit.array", fn<&dsplit_array>);
      m.impl("vander", fn<&vander>);
      m.impl("combinations", fn<&combinations>);
    });

}  // namespace opscope::composite
