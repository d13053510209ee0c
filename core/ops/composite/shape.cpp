// Decompositions of the joining / splitting / rearranging family (schemas in core/ops/shape.cpp,
// registered at the end of this file): each calls the ops PyTorch 1.13 calls, through ops::, so a
// trace shows the same children as torch's profiler. See core/ops/shape.h for the table.
#include <algorithm>
#include <limits>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"
#include "core/runtime/CheckedMath.h"
#include "core/ops/TensorIterator.h"

namespace opscope {

namespace composite {

namespace {

std::string sizes_str(IntArrayRef s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += detail::str(i ? ", " : "", s[i]);
  return r + "]";
}

// The out= forms torch generates for a functional op: compute, resize out, copy in.
Tensor copy_into_out(const Tensor& result, const Tensor& out) {
  resize_output(out, result.sizes());
  return ops::copy_(out, result);
}

// stack's inputs for dim == ndim (and for out= when no view fits): unsqueeze each.
std::vector<Tensor> stack_inputs(TensorList tensors, int64_t dim) {
  std::vector<Tensor> inputs;
  inputs.reserve(tensors.size());
  for (const Tensor& t : tensors) inputs.push_back(ops::unsqueeze(t, dim));
  return inputs;
}

void check_stack_inputs(TensorList tensors) {
  IntArrayRef entry = tensors[0].sizes();
  for (size_t i = 1; i < tensors.size(); ++i)
    OPSCOPE_CHECK(std::ranges::equal(tensors[i].sizes(), entry),
                  "stack expects each tensor to be equal size, but got ", sizes_str(entry),
                  " at entry 0 and ", sizes_str(tensors[i].sizes()), " at entry ", i);
}

DimVector stacked_sizes(TensorList tensors, int64_t dim) {
  IntArrayRef in = tensors[0].sizes();
  DimVector s(in.begin(), in.begin() + dim);
  s.push_back(static_cast<int64_t>(tensors.size()));
  for (size_t i = static_cast<size_t>(dim); i < in.size(); ++i) s.push_back(in[i]);
  return s;
}

}  // namespace

// --- joining ---------------------------------------------------------------------------------

// cat for any backend with a cat.out kernel (torch: CompositeExplicitAutogradNonFunctional): an
// empty result of the promoted dtype, filled by cat.out, which checks and resizes it. The CPU has
// its own kernel; a call with no tensor at all (dispatch key Undefined) gets its error here.
Tensor cat(TensorList tensors, int64_t dim) {
  OPSCOPE_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  ResultTypeState state;
  for (const Tensor& t : tensors) state.add_tensor(t.dtype(), t.dim(), false);
  Tensor out = ops::empty({0}, state.result(), std::nullopt, tensors[0].device());
  return ops::cat_out(tensors, dim, out);
}

Tensor concat(TensorList tensors, int64_t dim) {
  return ops::cat(tensors, dim);
}
Tensor concat_out(TensorList tensors, int64_t dim, const Tensor& out) {
  return ops::cat_out(tensors, dim, out);
}

// n tensors (s) -> (.., n, ..): cat along dim + view (dim < len(s)), else unsqueeze + cat
Tensor stack(TensorList tensors, int64_t dim) {
  OPSCOPE_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  int64_t wrapped = wrap_dim(dim, tensors[0].dim() + 1);
  check_stack_inputs(tensors);
  if (wrapped < tensors[0].dim()) {
    return ops::view(ops::cat(tensors, wrapped), stacked_sizes(tensors, wrapped));
  }
  return ops::cat(stack_inputs(tensors, wrapped), wrapped);
}

Tensor stack_out(TensorList tensors, int64_t dim, const Tensor& out) {
  OPSCOPE_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  int64_t wrapped = wrap_dim(dim, tensors[0].dim() + 1);
  check_stack_inputs(tensors);
  if (wrapped < tensors[0].dim()) {
    resize_output(out, stacked_sizes(tensors, wrapped));
    DimVector cat_sizes(tensors[0].sizes().begin(), tensors[0].sizes().end());
    int64_t& cat_size = cat_sizes[static_cast<size_t>(wrapped)];
    // n * size overflows only beside a 0 (out has 0 elements): then the path below.
    bool fits = !mul_overflows(cat_size, static_cast<int64_t>(tensors.size()), &cat_size);
    if (fits && compute_stride(out.sizes(), out.strides(), cat_sizes)) {
      ops::cat_out(tensors, wrapped, ops::view(out, cat_sizes));
      return out;
    }
  }
  return ops::cat_out(stack_inputs(tensors, wrapped), wrapped, out);
}

Tensor atleast_1d(const Tensor& self) {
  return self.dim() == 0 ? ops::reshape(self, {1}) : self;
}
Tensor atleast_2d(const Tensor& self) {
  if (self.dim() == 0) return ops::reshape(self, {1, 1});
  if (self.dim() == 1) return ops::unsqueeze(self, 0);
  return self;
}
Tensor atleast_3d(const Tensor& self) {
  if (self.dim() == 0) return ops::reshape(self, {1, 1, 1});
  if (self.dim() == 1) return ops::unsqueeze(ops::unsqueeze(self, 0), -1);
  if (self.dim() == 2) return ops::unsqueeze(self, -1);
  return self;
}
// The Sequence forms apply the single-tensor kernel directly (as torch: no nested op).
std::vector<Tensor> atleast_1d_seq(TensorList tensors) {
  std::vector<Tensor> r;
  for (const Tensor& t : tensors) r.push_back(atleast_1d(t));
  return r;
}
std::vector<Tensor> atleast_2d_seq(TensorList tensors) {
  std::vector<Tensor> r;
  for (const Tensor& t : tensors) r.push_back(atleast_2d(t));
  return r;
}
std::vector<Tensor> atleast_3d_seq(TensorList tensors) {
  std::vector<Tensor> r;
  for (const Tensor& t : tensors) r.push_back(atleast_3d(t));
  return r;
}

Tensor hstack(TensorList tensors) {
  OPSCOPE_CHECK(!tensors.empty(), "hstack expects a non-empty TensorList");
  std::vector<Tensor> rep = ops::atleast_1d(tensors);
  return ops::cat(rep, rep[0].dim() == 1 ? 0 : 1);
}
Tensor hstack_out(TensorList tensors, const Tensor& out) {
  OPSCOPE_CHECK(!tensors.empty(), "hstack expects a non-empty TensorList");
  std::vector<Tensor> rep = ops::atleast_1d(tensors);
  return ops::cat_out(rep, rep[0].dim() == 1 ? 0 : 1, out);
}
Tensor vstack(TensorList tensors) {
  OPSCOPE_CHECK(!tensors.empty(), "vstack expects a non-empty TensorList");
  return ops::cat(ops::atleast_2d(tensors), 0);
}
Tensor vstack_out(TensorList tensors, const Tensor& out) {
  OPSCOPE_CHECK(!tensors.empty(), "vstack expects a non-empty TensorList");
  return ops::cat_out(ops::atleast_2d(tensors), 0, out);
}
Tensor dstack(TensorList tensors) {
  OPSCOPE_CHECK(!tensors.empty(), "dstack expects a non-empty TensorList");
  return ops::cat(ops::atleast_3d(tensors), 2);
}
Tensor dstack_out(TensorList tensors, const Tensor& out) {
  OPSCOPE_CHECK(!tensors.empty(), "dstack expects a non-empty TensorList");
  return ops::cat_out(ops::atleast_3d(tensors), 2, out);
}

// --- splitting -------------------------------------------------------------------------------

// (.., n, ..) -> narrow views of split_size (the last one shorter)
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  OPSCOPE_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  OPSCOPE_CHECK(split_size >= 0,
                "split expects split_size be non-negative, but got split_size=", split_size);
  int64_t dim_size = self.size(dim);
  OPSCOPE_CHECK(split_size > 0 || dim_size == 0,
                "split_size can only be 0 if dimension size is 0, but got dimension size of ",
                dim_size);
  // split_size 0 of an empty dim: one split. split_size > dim_size: one (short) split too.
  // ceil(dim_size / split_size), written so that a split_size near 2**63 cannot overflow.
  int64_t num_splits = 1;
  if (split_size != 0)
    num_splits = std::max<int64_t>(dim_size / split_size + (dim_size % split_size != 0), 1);
  int64_t last_split_size = dim_size - split_size * (num_splits - 1);
  std::vector<Tensor> splits;
  splits.reserve(static_cast<size_t>(num_splits));
  for (int64_t i = 0; i < num_splits; ++i) {
    int64_t length = i < num_splits - 1 ? split_size : last_split_size;
    splits.push_back(ops::narrow(self, dim, i * split_size, length));
  }
  return splits;
}

std::vector<Tensor> split_sizes(const Tensor& self, IntArrayRef split_size, int64_t dim) {
  return ops::split_with_sizes(self, split_size, dim);
}

// (.., n, ..) -> views (.., k_i, ..) built with as_strided (as torch: no narrow in the trace)
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  OPSCOPE_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(dim, self.dim());
  int64_t dim_size = self.size(d);
  std::vector<Tensor> splits;
  splits.reserve(split_sizes.size());
  int64_t start = 0;
  bool overflowed = false;
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  for (int64_t length : split_sizes) {
    OPSCOPE_CHECK(length >= 0,
                  "split_with_sizes expects split_sizes have only non-negative entries, but got "
                  "split_sizes=",
                  sizes_str(split_sizes));
    // Clamped like a slice; sizes that overrun fail the sum check below.
    int64_t first = std::min(start, dim_size);
    sizes[static_cast<size_t>(d)] = std::min(length, dim_size - first);
    splits.push_back(ops::as_strided(self, sizes, self.strides(),
                                     self->storage_offset() + first * self.stride(d)));
    if (add_overflows(start, length, &start)) {  // then they cannot sum to dim_size
      overflowed = true;
      start = std::numeric_limits<int64_t>::max();
    }
  }
  OPSCOPE_CHECK(!overflowed && start == dim_size,
                "split_with_sizes expects split_sizes to sum exactly to ", dim_size,
                " (input tensor's size at dimension ", dim,
                "), but got split_sizes=", sizes_str(split_sizes));
  return splits;
}

// (.., n, ..) -> split(ceil(n / chunks)); an empty dim gives `chunks` empty views
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  OPSCOPE_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  OPSCOPE_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t dim_size = self.size(dim);
  // ceil(dim_size / chunks), written so that chunks near 2**63 cannot overflow (torch's does:
  // x.chunk(2**63 - 1) fails there with "split_size=-1").
  int64_t split_size = dim_size / chunks + (dim_size % chunks != 0);
  if (split_size == 0 && dim_size == 0) {
    std::vector<int64_t> sizes(static_cast<size_t>(chunks), split_size);
    sizes.back() = split_size - (split_size * chunks - dim_size);
    return ops::split_with_sizes(self, sizes, dim);
  }
  return ops::split(self, split_size, dim);
}

std::vector<Tensor> tensor_split_sections(const Tensor& self, int64_t sections, int64_t dim) {
  OPSCOPE_CHECK(self.dim() > 0,
                "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
                self.dim(), " dims");
  int64_t d = wrap_dim(dim, self.dim());
  OPSCOPE_CHECK(sections > 0, "number of sections must be larger than 0, got ", sections);
  // One tensor per section, even an empty one: more than any memory holds is a clear error.
  constexpr int64_t kMaxSections = std::numeric_limits<int32_t>::max();
  OPSCOPE_CHECK(sections <= kMaxSections, "tensor_split: ", sections,
                " sections would make as many ", "tensors; at most ", kMaxSections,
                " are supported");
  int64_t dim_size = self.size(d);
  int64_t min_size = dim_size / sections, extra = dim_size % sections;
  std::vector<Tensor> splits;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    int64_t size = extra > i ? min_size + 1 : min_size;
    splits.push_back(ops::slice(self, d, start, start + size));
    start += size;
  }
  return splits;
}

std::vector<Tensor> tensor_split_indices(const Tensor& self, IntArrayRef indices, int64_t dim) {
  OPSCOPE_CHECK(self.dim() > 0,
                "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
                self.dim(), " dims");
  int64_t d = wrap_dim(dim, self.dim());
  std::vector<Tensor> splits;
  int64_t start = 0;
  for (int64_t end : indices) {
    splits.push_back(ops::slice(self, d, start, end));
    start = end;
  }
  splits.push_back(ops::slice(self, d, start, self.size(d)));
  return splits;
}

// An int64 0-d tensor means sections, a 1-D one indices (read on the host, as torch does).
std::vector<Tensor> tensor_split_tensor(const Tensor& self,
                                        const Tensor& tensor_indices_or_sections, int64_t dim) {
  const Tensor& t = tensor_indices_or_sections;
  OPSCOPE_CHECK(t.device().is_cpu(),
                "tensor_split expected tensor_indices_or_sections to be on cpu, but it's on ",
                t.device().str());
  OPSCOPE_CHECK(t.dtype() == ScalarType::Int64,
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but got ",
                cpp_name(t.dtype()));
  OPSCOPE_CHECK(t.dim() <= 1,
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                "one-dimensional tensor, but got a tensor with ",
                t.dim(), " dims");
  const int64_t* data = t.data_ptr<const int64_t>();
  if (t.dim() == 0) return ops::tensor_split(self, *data, dim);
  std::vector<int64_t> indices(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) indices[static_cast<size_t>(i)] = data[i * t.stride(0)];
  return ops::tensor_split(self, IntArrayRef(indices), dim);
}

// --- rearranging -----------------------------------------------------------------------------

Tensor flip_out(const Tensor& self, IntArrayRef dims, const Tensor& out) {
  return copy_into_out(ops::flip(self, dims), out);
}
Tensor fliplr(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() >= 2, "Input must be >= 2-d.");
  return ops::flip(self, std::vector<int64_t>{1});
}
Tensor flipud(const Tensor& self) {
  OPSCOPE_CHECK(self.dim() >= 1, "Input must be >= 1-d.");
  return ops::flip(self, std::vector<int64_t>{0});
}
Tensor roll_out(const Tensor& self, IntArrayRef shifts, IntArrayRef dims, const Tensor& out) {
  return copy_into_out(ops::roll(self, shifts, dims), out);
}

// (s) -> (r * s'): the result seen as (r_0, s'_0, r_1, s'_1, ...) through unfold, and
// self expanded into it with one copy_.
Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  OPSCOPE_CHECK(static_cast<int64_t>(repeats.size()) >= self.dim(),
                "Number of dimensions of repeat dims can not be smaller than number of "
                "dimensions of tensor");
  size_t num_new = repeats.size() - static_cast<size_t>(self.dim());
  DimVector padded(num_new, 1);
  for (int64_t s : self.sizes()) padded.push_back(s);
  DimVector target(repeats.size());
  bool zero = false;
  for (size_t i = 0; i < repeats.size(); ++i) {
    zero = zero || repeats[i] == 0;
    target[i] = checked_mul(padded[i], repeats[i], "numel");
  }
  Tensor x = ops::expand(self, padded);
  Tensor result = ops::empty(target, self.dtype(), {}, self.device());
  if (zero) return result;
  Tensor u = ops::alias(result);
  for (int64_t i = 0; i < x.dim(); ++i) {
    int64_t size_i = x.sizes()[static_cast<size_t>(i)];
    u = ops::unfold(u, i, size_i, std::max<int64_t>(size_i, 1));
  }
  ops::copy_(u, ops::expand_as(x, u));
  return result;
}
Tensor repeat_out(const Tensor& self, IntArrayRef repeats, const Tensor& out) {
  return copy_into_out(ops::repeat(self, repeats), out);
}
Tensor tile(const Tensor& self, IntArrayRef dims) {
  int64_t diff = self.dim() - static_cast<int64_t>(dims.size());
  if (diff > 0) {
    std::vector<int64_t> reps(static_cast<size_t>(diff), 1);
    reps.insert(reps.end(), dims.begin(), dims.end());
    return ops::repeat(self, reps);
  }
  return ops::repeat(self, dims);
}

// along dim (flattened self when None): index_select(self, dim, repeat_interleave(repeats))
Tensor repeat_interleave_self_tensor(const Tensor& self, const Tensor& repeats,
                                     std::optional<int64_t> dim,
                                     std::optional<int64_t> output_size) {
  Tensor input = self;
  if (!dim) {
    input = ops::flatten(self);
    dim = 0;
  }
  int64_t d = wrap_dim(*dim, input.dim());
  Tensor reps = repeats;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.size(0) == 1)) {
    reps = ops::expand(ops::reshape(repeats, {1}), {input.size(d)});
  } else if (repeats.dim() == 1) {
    OPSCOPE_CHECK(repeats.size(0) == input.size(d),
                  "repeats must have the same size as input along dim");
  } else {
    throw Error("repeats must be 0-dim or 1-dim tensor");
  }
  return ops::index_select(input, d, ops::repeat_interleave(reps, output_size));
}

Tensor repeat_interleave_self_int(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                                  std::optional<int64_t> output_size) {
  Tensor reps = ops::fill_(ops::empty({1}, ScalarType::Int64, {}, self.device()), Scalar(repeats));
  return repeat_interleave_self_tensor(self, reps, dim, output_size);
}

// --- diagonals -------------------------------------------------------------------------------

Tensor diag(const Tensor& self, int64_t diagonal) {
  Tensor result = ops::empty({0}, self.dtype(), {}, self.device());
  return ops::diag_out(self, diagonal, result);
}

// (*, n) -> zeros (*, n + |o|, n + |o|) with self copied onto diagonal(o, dim1, dim2)
Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1_, int64_t dim2_) {
  int64_t nd = self.dim() + 1;
  int64_t dim1 = wrap_dim(dim1_, nd), dim2 = wrap_dim(dim2_, nd);
  OPSCOPE_CHECK(dim1 != dim2, "diagonal dimensions cannot be identical ", dim1_, ", ", dim2_);
  // |offset| + n, checked (torch's wraps into a negative size).
  int64_t len;
  OPSCOPE_CHECK(offset != std::numeric_limits<int64_t>::min() &&
                    !add_overflows(std::abs(offset), self.size(-1), &len),
                "numel: integer multiplication overflow");
  DimVector sizes(self.sizes().begin(), self.sizes().end());
  sizes.pop_back();
  sizes.insert(sizes.begin() + std::min(dim1, dim2), len);
  sizes.insert(sizes.begin() + std::max(dim1, dim2), len);
  Tensor result = ops::zeros(sizes, self.dtype(), {}, self.device());
  ops::copy_(ops::diagonal(result, offset, dim1, dim2), self);
  return result;
}

static Library composite_explicit_shape(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("cat", fn<&cat>);  // backends without their own; cat([])
      m.impl("stack", fn<&stack>);
      m.impl("stack.out", fn<&stack_out>);
      m.impl("split.Tensor", fn<&split>);
      m.impl("split_with_sizes", fn<&split_with_sizes>);
      m.impl("flip.out", fn<&flip_out>);
      m.impl("roll.out", fn<&roll_out>);
      m.impl("repeat", fn<&repeat>);
      m.impl("repeat.out", fn<&repeat_out>);
      m.impl("diag", fn<&diag>);
      m.impl("diag_embed", fn<&diag_embed>);
    });

// --- meshgrid, cartesian_prod ----------------------------------------------------------------

// torch 1.13's meshgrid: tensor i (0-d or 1-D, n_i elements) is viewed as (1, .., n_i, .., 1)
// and expanded to (n_0, .., n_k-1). "xy" (Cartesian) indexing builds the "ij" grids with the first
// two inputs swapped, then swaps those two results back: every grid is then (n_1, n_0, n_2, ..).
std::vector<Tensor> meshgrid_indexing(TensorList tensors, std::string_view indexing) {
  const size_t size = tensors.size();
  OPSCOPE_CHECK(size > 0, "meshgrid expects a non-empty TensorList");
  for (size_t i = 0; i + 1 < size; ++i) {
    OPSCOPE_CHECK(tensors[i].dtype() == tensors[i + 1].dtype(),
                  "meshgrid expects all tensors to have the same dtype");
    OPSCOPE_CHECK(tensors[i].device() == tensors[i + 1].device(),
                  "meshgrid expects all tensors to have the same device");
  }
  OPSCOPE_CHECK(indexing == "xy" || indexing == "ij",
                "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ",
                indexing);
  std::vector<Tensor> grid_inputs(tensors.begin(), tensors.end());
  const bool swap_first_and_second = size >= 2 && indexing == "xy";
  if (swap_first_and_second) std::swap(grid_inputs[0], grid_inputs[1]);

  DimVector shape;
  for (const Tensor& t : grid_inputs) {
    OPSCOPE_CHECK(t.dim() <= 1,
                  "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a ",
                  t.dim(), "-D tensor of shape ", shape_str(t.sizes()));
    shape.push_back(t.dim() == 0 ? 1 : t.size(0));
  }
  std::vector<Tensor> grids;
  grids.reserve(size);
  for (size_t i = 0; i < size; ++i) {
    DimVector view_shape(size, 1);
    view_shape[i] = -1;
    grids.push_back(ops::expand(ops::view(grid_inputs[i], view_shape), shape));
  }
  if (swap_first_and_second) std::swap(grids[0], grids[1]);
  return grids;
}

// meshgrid without indexing=: "ij" (torch warns that the argument will be required; opscope's
// Python function does, once).
std::vector<Tensor> meshgrid(TensorList tensors) {
  return meshgrid_indexing(tensors, "ij");
}

// torch 1.13's cartesian_prod: the "ij" grids, flattened, stacked as columns; one input is
// returned as it is.
Tensor cartesian_prod(TensorList tensors) {
  for (const Tensor& t : tensors)
    OPSCOPE_CHECK(t.dim() == 1, "Expect a 1D vector, but got shape ", shape_str(t.sizes()));
  if (tensors.size() == 1) return tensors[0];
  std::vector<Tensor> columns = ops::meshgrid(tensors, "ij");
  for (Tensor& column : columns) column = ops::flatten(column, 0, -1);
  return ops::stack(columns, 1);
}

static Library composite_implicit_shape(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("concat", fn<&concat>);
      m.impl("concat.out", fn<&concat_out>);
      m.impl("hstack", fn<&hstack>);
      m.impl("hstack.out", fn<&hstack_out>);
      m.impl("vstack", fn<&vstack>);
      m.impl("vstack.out", fn<&vstack_out>);
      m.impl("dstack", fn<&dstack>);
      m.impl("dstack.out", fn<&dstack_out>);
      m.impl("atleast_1d", fn<&atleast_1d>);
      m.impl("atleast_1d.Sequence", fn<&atleast_1d_seq>);
      m.impl("atleast_2d", fn<&atleast_2d>);
      m.impl("atleast_2d.Sequence", fn<&atleast_2d_seq>);
      m.impl("atleast_3d", fn<&atleast_3d>);
      m.impl("atleast_3d.Sequence", fn<&atleast_3d_seq>);
      m.impl("split.sizes", fn<&split_sizes>);
      m.impl("chunk", fn<&chunk>);
      m.impl("tensor_split.sections", fn<&tensor_split_sections>);
      m.impl("tensor_split.indices", fn<&tensor_split_indices>);
      m.impl("tensor_split.tensor_indices_or_sections", fn<&tensor_split_tensor>);
      m.impl("fliplr", fn<&fliplr>);
      m.impl("flipud", fn<&flipud>);
      m.impl("tile", fn<&tile>);
      m.impl("repeat_interleave.self_Tensor", fn<&repeat_interleave_self_tensor>);
      m.impl("repeat_interleave.self_int", fn<&repeat_interleave_self_int>);
      m.impl("meshgrid", fn<&meshgrid>);
      m.impl("meshgrid.indexing", fn<&meshgrid_indexing>);
      m.impl("cartesian_prod", fn<&cartesian_prod>);
    });

}  // namespace composite
}  // namespace opscope
