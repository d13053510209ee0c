// CPU kernels of advanced indexing and the per-dim index ops: index, _index_put_impl_,
// index_select, index_add_, index_fill_, take, put_ (see core/ops/indexing.h).
//
// All of them reduce to one shape of work: a list of element offsets into self (one per
// position of the index), and a *block* of the dims the index does not touch, moved whole per
// offset. See Note [Advanced indexing] in core/ops/indexing.h.
#include <algorithm>
#include <vector>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/KernelForms.h"
#include "core/ops/cpu/index_util.h"
#include "core/ops/binary.h"
#include "core/ops/indexing.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

using namespace index_util;

Tensor index_util::fresh_copy(const Tensor& self) {
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  if (self.numel() > 0) cpu::copy_(out, self, false);
  return out;
}

Tensor index_util::destination(const Tensor& out, const Tensor& self) {
  if (!out.defined()) return fresh_copy(self);
  resize_output(out, self.sizes());
  if (!out.is_same(self)) cpu::copy_(out, self, false);
  return out;
}

namespace {

// A list of positions in self: offsets[n] (element counts from self's data pointer) for each
// of the n positions, and the block of self's other dims that each position names.
struct Blocks {
  std::vector<int64_t> offsets;
  DimVector rest_sizes;    // the block's shape
  DimVector rest_strides;  // self's strides over it
  int64_t rest_numel = 1;
};

// Grain for parallel loops over positions that each move a block of `rest_numel` elements.
int64_t position_grain(int64_t rest_numel) {
  return std::max<int64_t>(1, kGrainSize / std::max<int64_t>(rest_numel, 1));
}

// dst block <- src block (blocks of `sizes`, element strides given), any dtype of `width` bytes.
template <typename W>
void copy_block(const W* src, W* dst, IntArrayRef sizes, IntArrayRef src_st, IntArrayRef dst_st) {
  walk<2>(sizes, {src_st, dst_st}, 0, compute_numel(sizes),
          [&](const int64_t* off) { dst[off[1]] = src[off[0]]; });
}

// Whether strides `st` lay out a block of `sizes` row-major without gaps.
bool is_row_major(IntArrayRef sizes, IntArrayRef st) {
  int64_t expected = 1;
  for (size_t d = sizes.size(); d-- > 0;) {
    if (sizes[d] != 1 && st[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

// out[n-th block] <- self block at offsets[n]. The out blocks start at n * out_n_stride and use
// out_rest_strides inside.
void gather_blocks(const Tensor& self, const Blocks& b, const Tensor& out, int64_t out_n_stride,
                   IntArrayRef out_rest_strides) {
  const int64_t n = static_cast<int64_t>(b.offsets.size());
  if (n == 0 || b.rest_numel == 0) return;
  dispatch_width(self->itemsize(), [&]<typename W>() {
    const W* src = static_cast<const W*>(self.data());
    W* dst = static_cast<W*>(out.data());
    const int64_t* off = b.offsets.data();
    if (b.rest_sizes.empty() || b.rest_numel == 1) {  // one element per position (masks)
      int64_t src_extra = 0, dst_extra = 0;           // size-1 rest dims add nothing
      parallel_for(0, n, kGrainSize, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i)
          dst[i * out_n_stride + dst_extra] = src[off[i] + src_extra];
      });
      return;
    }
    bool memcpy_ok =
        is_row_major(b.rest_sizes, b.rest_strides) && is_row_major(b.rest_sizes, out_rest_strides);
    parallel_for(0, n, position_grain(b.rest_numel), [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        if (memcpy_ok)
          std::memcpy(dst + i * out_n_stride, src + off[i],
                      static_cast<size_t>(b.rest_numel) * sizeof(W));
        else
          copy_block(src + off[i], dst + i * out_n_stride, b.rest_sizes, b.rest_strides,
                     out_rest_strides);
      }
    });
  });
}

// self block at offsets[n] <- (or +=) the values block at voffsets[n] (values of self's dtype).
void put_blocks(const Tensor& self, const Blocks& b, const Tensor& values,
                const std::vector<int64_t>& voffsets, IntArrayRef values_rest_strides,
                bool accumulate) {
  const int64_t n = static_cast<int64_t>(b.offsets.size());
  if (n == 0 || b.rest_numel == 0) return;
  const int64_t* off = b.offsets.data();
  const int64_t* voff = voffsets.data();
  if (!accumulate) {
    dispatch_width(self->itemsize(), [&]<typename W>() {
      W* dst = static_cast<W*>(self.data());
      const W* src = static_cast<const W*>(values.data());
      parallel_for(0, n, position_grain(b.rest_numel), [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
          if (b.rest_sizes.empty())
            dst[off[i]] = src[voff[i]];
          else
            copy_block(src + voff[i], dst + off[i], b.rest_sizes, values_rest_strides,
                       b.rest_strides);
        }
      });
    });
    return;
  }
  // Accumulate: positions may repeat, so one thread walks them in order (as torch's CPU kernel).
  dispatch_dtype(self.dtype(), "index_put_with_accumulate", [&]<typename T>() {
    T* dst = self.data_ptr<T>();
    const T* src = values.data_ptr<T>();
    auto add = [](T a, T b) -> T {
      if constexpr (std::is_same_v<T, bool>)
        return a || b;
      else
        return static_cast<T>(static_cast<acc_type_t<T>>(a) + static_cast<acc_type_t<T>>(b));
    };
    if (b.rest_sizes.empty()) {
      for (int64_t i = 0; i < n; ++i) dst[off[i]] = add(dst[off[i]], src[voff[i]]);
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      T* d = dst + off[i];
      const T* s = src + voff[i];
      walk<2>(b.rest_sizes, {values_rest_strides, IntArrayRef(b.rest_strides)}, 0, b.rest_numel,
              [&](const int64_t* o) { d[o[1]] = add(d[o[1]], s[o[0]]); });
    }
  });
}

// --- advanced indexing -------------------------------------------------------------------

// self's dims, each with its (broadcast) index tensor or undefined; masks already expanded.
struct IndexPlan {
  std::vector<Tensor> per_dim;  // size self.dim()
  DimVector index_shape;        // B: the defined indices broadcast together
  bool adjacent = true;         // the indexed dims form one run
  int64_t first = 0;            // the run's first dim (when adjacent)
  DimVector result_shape;
  DimVector result_rest_pos;  // where each non-indexed dim of self lands in the result
  int64_t index_pos = 0;      // where B starts in the result
};

// Replaces masks by their nonzero() columns and checks every index's dtype and shape.
std::vector<Tensor> expand_masks(const Tensor& self, TensorList indices) {
  OPSCOPE_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(),
                      "too many indices for tensor of dimension ", self.dim(), " (got ",
                      indices.size(), ")");
  std::vector<Tensor> out;
  out.reserve(static_cast<size_t>(self.dim()));
  for (const Tensor& idx : indices) {
    if (!idx.defined()) {
      out.emplace_back();
      continue;
    }
    ScalarType t = idx.dtype();
    if (t == ScalarType::Bool || t == ScalarType::UInt8) {
      int64_t d0 = static_cast<int64_t>(out.size());
      OPSCOPE_CHECK_INDEX(d0 + idx.dim() <= self.dim(), "too many indices for tensor of dimension ",
                          self.dim(), " (got ", d0 + idx.dim(), ")");
      for (int64_t j = 0; j < idx.dim(); ++j)
        OPSCOPE_CHECK_INDEX(
            idx.sizes()[static_cast<size_t>(j)] == self.sizes()[static_cast<size_t>(d0 + j)],
            "The shape of the mask ", shape_str(idx.sizes()), " at index ", j,
            " does not match the shape of the indexed tensor ", shape_str(self.sizes()),
            " at index ", d0 + j);
      Tensor nz = ops::nonzero(idx);  // (n, k) int64
      for (int64_t j = 0; j < idx.dim(); ++j)
        out.push_back(
            make_view(nz, {nz.size(0)}, {nz.stride(0)}, nz->storage_offset() + j * nz.stride(1)));
    } else {
      OPSCOPE_CHECK_INDEX(t == ScalarType::Int64,
                          "tensors used as indices must be long, byte or bool tensors");
      out.push_back(idx);
    }
  }
  while (static_cast<int64_t>(out.size()) < self.dim()) out.emplace_back();
  return out;
}

IndexPlan make_plan(const Tensor& self, TensorList indices) {
  IndexPlan p;
  p.per_dim = expand_masks(self, indices);
  // Broadcast the defined indices together.
  bool any = false;
  int64_t last = -1;
  std::string shapes;
  for (size_t d = 0; d < p.per_dim.size(); ++d) {
    const Tensor& t = p.per_dim[d];
    if (!t.defined()) continue;
    shapes += (shapes.empty() ? "" : ", ") + shape_str(t.sizes());
    if (!any) {
      p.index_shape.assign(t.sizes().begin(), t.sizes().end());
      p.first = static_cast<int64_t>(d);
    } else {
      if (static_cast<int64_t>(d) != last + 1) p.adjacent = false;
      IntArrayRef a = p.index_shape, b = t.sizes();
      size_t nd = std::max(a.size(), b.size());
      DimVector r(nd);
      bool ok = true;
      for (size_t k = 0; k < nd; ++k) {
        int64_t sa = k < a.size() ? a[a.size() - 1 - k] : 1;
        int64_t sb = k < b.size() ? b[b.size() - 1 - k] : 1;
        if (sa != sb && sa != 1 && sb != 1) ok = false;
        r[nd - 1 - k] = sa == 1 ? sb : sa;
      }
      if (!ok) {
        // Name every index's shape, as torch does.
        for (size_t e = d + 1; e < p.per_dim.size(); ++e)
          if (p.per_dim[e].defined()) shapes += ", " + shape_str(p.per_dim[e].sizes());
        throw IndexError(
            "shape mismatch: indexing tensors could not be broadcast together with shapes " +
            shapes);
      }
      p.index_shape = std::move(r);
    }
    any = true;
    last = static_cast<int64_t>(d);
  }
  // The result shape: B in place of an adjacent run, else B first.
  const int64_t nd = self.dim(), nb = static_cast<int64_t>(p.index_shape.size());
  p.index_pos = p.adjacent ? p.first : 0;
  int64_t pos = 0;
  for (int64_t d = 0; d < nd; ++d) {
    if (pos == p.index_pos) {
      for (int64_t s : p.index_shape) p.result_shape.push_back(s);
      pos += nb;
    }
    if (p.per_dim[static_cast<size_t>(d)].defined()) continue;
    p.result_rest_pos.push_back(pos);
    p.result_shape.push_back(self.sizes()[static_cast<size_t>(d)]);
    ++pos;
  }
  if (pos == p.index_pos) {
    for (int64_t s : p.index_shape) p.result_shape.push_back(s);
  }
  // An indexed dim of size 0 has no valid index: unless B is empty too, some index is out of
  // bounds (torch checks this before any value).
  bool empty_dim = false;
  for (int64_t d = 0; d < nd; ++d)
    empty_dim = empty_dim || (p.per_dim[static_cast<size_t>(d)].defined() &&
                              self.sizes()[static_cast<size_t>(d)] == 0);
  OPSCOPE_CHECK_INDEX(!empty_dim || compute_numel(p.index_shape) == 0,
                      "index is out of bounds for dimension with size 0");
  return p;
}

// Offsets into self for every position of B (row-major), bounds-checked.
Blocks make_blocks(const Tensor& self, const IndexPlan& p) {
  Blocks b;
  const int64_t n = compute_numel(p.index_shape);
  b.offsets.assign(static_cast<size_t>(n), 0);
  // Nothing to move (a non-indexed dim of size 0): torch's kernel never runs, so no index is
  // checked.
  bool nothing = false;
  for (int64_t d = 0; d < self.dim(); ++d)
    nothing = nothing || (!p.per_dim[static_cast<size_t>(d)].defined() &&
                          self.sizes()[static_cast<size_t>(d)] == 0);
  int64_t k = 0;  // ordinal of the defined index, which torch's message calls the dimension
  for (int64_t d = 0; d < self.dim(); ++d) {
    const Tensor& idx = p.per_dim[static_cast<size_t>(d)];
    if (!idx.defined()) {
      b.rest_sizes.push_back(self.sizes()[static_cast<size_t>(d)]);
      b.rest_strides.push_back(self.strides()[static_cast<size_t>(d)]);
      continue;
    }
    if (nothing) continue;
    const int64_t size = self.sizes()[static_cast<size_t>(d)],
                  stride = self.strides()[static_cast<size_t>(d)];
    const int64_t* data = idx.data_ptr<int64_t>();
    DimVector st = broadcast_strides(idx, p.index_shape);
    int64_t* off = b.offsets.data();
    const int64_t dim_ordinal = k;
    auto add_range = [&](int64_t lo, int64_t hi) {
      int64_t i = lo;
      walk<1>(p.index_shape, {IntArrayRef(st)}, lo, hi, [&](const int64_t* o) {
        int64_t v = data[o[0]];
        if (v < -size || v >= size) [[unlikely]]
          throw IndexError(detail::str("index ", v, " is out of bounds for dimension ", dim_ordinal,
                                       " with size ", size));
        off[i++] += (v < 0 ? v + size : v) * stride;
      });
    };
    parallel_for(0, n, kGrainSize, add_range);
    ++k;
  }
  b.rest_numel = compute_numel(b.rest_sizes);
  return b;
}

// The strides that the result's (or values') rest dims and flattened B use.
struct ResultLayout {
  DimVector rest_strides;
  DimVector b_strides;
};
ResultLayout split_layout(const IndexPlan& p, IntArrayRef strides) {
  ResultLayout l;
  for (int64_t pos : p.result_rest_pos) l.rest_strides.push_back(strides[static_cast<size_t>(pos)]);
  for (size_t j = 0; j < p.index_shape.size(); ++j)
    l.b_strides.push_back(strides[static_cast<size_t>(p.index_pos) + j]);
  return l;
}

}  // namespace

// self (*s), indices: see Note [Advanced indexing]
Tensor index(const Tensor& self, TensorList indices) {
  IndexPlan p = make_plan(self, indices);
  Tensor out = make_empty(p.result_shape, self.dtype(), self.device());
  if (p.index_shape.empty() && std::none_of(p.per_dim.begin(), p.per_dim.end(),
                                            [](const Tensor& t) { return t.defined(); })) {
    if (self.numel() > 0) cpu::copy_(out, self, false);  // no index at all: a copy
    return out;
  }
  Blocks b = make_blocks(self, p);
  ResultLayout l = split_layout(p, out.strides());
  // out is contiguous, so the B dims flatten: position n starts at n * (stride of B's last dim).
  int64_t n_stride = l.b_strides.empty() ? 0 : l.b_strides.back();
  gather_blocks(self, b, out, n_stride, l.rest_strides);
  return out;
}

Tensor index_out(const Tensor& self, TensorList indices, const Tensor& out) {
  Tensor r = cpu::index(self, indices);
  OPSCOPE_CHECK(out.dtype() == r.dtype(), "index_out: expected out to have dtype ",
                cpp_name(r.dtype()), " but got ", cpp_name(out.dtype()));
  resize_output(out, r.sizes());
  if (r.numel() > 0) cpu::copy_(out, r, false);
  return out;
}

// self[indices] = values (broadcast to the indexed shape); accumulate adds instead
Tensor _index_put_impl_(const Tensor& self, TensorList indices, const Tensor& values,
                        bool accumulate, bool /*unsafe*/) {
  OPSCOPE_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(),
                      "too many indices for tensor of dimension ", self.dim(), " (got ",
                      indices.size(), ")");
  // One mask and one value: masked_fill_, as torch's canDispatchToMaskedFill.
  if (!accumulate && values.numel() == 1) {
    int64_t defined = 0, mask_at = -1, dim_at = 0, d = 0;
    for (size_t i = 0; i < indices.size(); ++i) {
      const Tensor& t = indices[i];
      if (t.defined()) {
        ++defined;
        if (t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::UInt8) {
          mask_at = static_cast<int64_t>(i);
          dim_at = d;
        }
        d += (t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::UInt8) ? t.dim() : 1;
      } else {
        ++d;
      }
    }
    if (defined == 1 && mask_at >= 0) {
      const Tensor& m = indices[static_cast<size_t>(mask_at)];
      bool fits = dim_at + m.dim() <= self.dim();
      for (int64_t j = 0; fits && j < m.dim(); ++j)
        fits = m.sizes()[static_cast<size_t>(j)] == self.sizes()[static_cast<size_t>(dim_at + j)];
      if (fits) {
        // Trailing dims of self: the mask broadcasts over them.
        DimVector ms(m.sizes().begin(), m.sizes().end()),
            mst(m.strides().begin(), m.strides().end());
        for (int64_t j = dim_at + m.dim(); j < self.dim(); ++j) {
          ms.push_back(1);
          mst.push_back(1);
        }
        Tensor mask = ms.size() == static_cast<size_t>(m.dim())
                          ? m
                          : make_view(m, ms, mst, m->storage_offset());
        return ops::masked_fill_(self, mask, item(values));
      }
    }
  }
  MemOverlapStatus overlap = get_overlap_status(*self.impl(), *values.impl());
  OPSCOPE_CHECK(
      overlap != MemOverlapStatus::Full && overlap != MemOverlapStatus::Partial,
      "unsupported operation: some elements of the input tensor and the written-to tensor "
      "refer to a single memory location. Please clone() the tensor before performing the "
      "operation.");
  IndexPlan p = make_plan(self, indices);
  OPSCOPE_CHECK(broadcastable_to(values.sizes(), p.result_shape),
                "shape mismatch: value tensor of shape ", shape_str(values.sizes()),
                " cannot be broadcast to indexing result of shape ", shape_str(p.result_shape));
  OPSCOPE_CHECK(values.dtype() == self.dtype(),
                "Index put requires the source and destination dtypes match, got ",
                cpp_name(self.dtype()), " for the destination and ", cpp_name(values.dtype()),
                " for the source.");
  Blocks b = make_blocks(self, p);
  DimVector vst = broadcast_strides(values, p.result_shape);
  ResultLayout l = split_layout(p, vst);
  std::vector<int64_t> voff(b.offsets.size());
  walk<1>(p.index_shape, {IntArrayRef(l.b_strides)}, 0, static_cast<int64_t>(voff.size()),
          [&, i = int64_t(0)](const int64_t* o) mutable { voff[static_cast<size_t>(i++)] = o[0]; });
  put_blocks(self, b, values, voff, l.rest_strides, accumulate);
  return self;
}

// --- per-dim index ops ---------------------------------------------------------------------

namespace {

// Offsets of the 1-D index's entries along `dim` of self, checked with `err` for a bad index.
template <typename Err>
Blocks dim_blocks(const Tensor& self, int64_t dim, const Tensor& index, const Err& err,
                  bool allow_negative = true) {
  Blocks b;
  const int64_t n = index.numel();
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[static_cast<size_t>(dim)];
  const int64_t stride = self.dim() == 0 ? 0 : self.strides()[static_cast<size_t>(dim)];
  b.offsets.resize(static_cast<size_t>(n));
  const void* data = index.data();
  const int64_t ist = index.dim() == 0 ? 0 : index.strides()[0];
  ScalarType it = index.dtype();
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = read_index(data, it, i * ist);
    if (v < (allow_negative ? -size : 0) || v >= size) err(v, size);
    b.offsets[static_cast<size_t>(i)] = (v < 0 ? v + size : v) * stride;
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == dim) continue;
    b.rest_sizes.push_back(self.sizes()[static_cast<size_t>(d)]);
    b.rest_strides.push_back(self.strides()[static_cast<size_t>(d)]);
  }
  b.rest_numel = compute_numel(b.rest_sizes);
  return b;
}

// The strides of `t` without dim `dim` (the block layout), and its stride along dim.
DimVector strides_without(const Tensor& t, int64_t dim) {
  DimVector st;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (d != dim) st.push_back(t.strides()[static_cast<size_t>(d)]);
  return st;
}

void check_index_vector(const Tensor& index, const char* op, bool allow_int32,
                        bool index_error_for_dtype) {
  OPSCOPE_CHECK_INDEX(index.dim() <= 1, op, "(): Index is supposed to be a vector");
  bool ok =
      index.dtype() == ScalarType::Int64 || (allow_int32 && index.dtype() == ScalarType::Int32);
  if (!ok) {
    std::string msg = allow_int32 ? detail::str(op, "(): Expected dtype int32 or int64 for index")
                                  : detail::str(op, "(): Expected dtype int64 for index.");
    if (index_error_for_dtype) throw IndexError(msg);
    throw Error(msg);
  }
}

}  // namespace

// self (.., n, ..), index (k) -> (.., k, ..)
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  dim = wrap_dim(dim, self.dim());
  check_index_vector(index, "index_select", true, false);
  DimVector shape(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) shape[static_cast<size_t>(dim)] = index.numel();
  Tensor out = make_empty(shape, self.dtype(), self.device());
  // torch 1.13's quirks: an empty self of 2+ dims is only checked for an empty indexed dim, and
  // no index may be negative; along dim 1 the message is the dim-1 kernel's.
  const bool dim1_kernel = dim == 1 && self.dim() > 1;
  auto out_of_range = [&](int64_t v, int64_t size) {
    if (dim1_kernel)
      throw Error(detail::str("INDICES element is out of DATA bounds, id=", v, " axis_dim=", size));
    throw IndexError("index out of range in self");
  };
  if (self.dim() > 1 && index.numel() > 0 && self.numel() == 0) {
    OPSCOPE_CHECK(self.sizes()[static_cast<size_t>(dim)] > 0,
                  "index_select(): self indexing axis dim should be positive");
    if (dim1_kernel) dim_blocks(self, dim, index, out_of_range, /*allow_negative=*/false);
    return out;
  }
  Blocks b = dim_blocks(self, dim, index, out_of_range, /*allow_negative=*/false);
  if (self.dim() == 0) {  // torch returns a 0-d result here, whatever the index's length
    cpu::copy_(out, self, false);
    return out;
  }
  gather_blocks(self, b, out, out.strides()[static_cast<size_t>(dim)], strides_without(out, dim));
  return out;
}

Tensor index_select_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  Tensor r = cpu::index_select(self, dim, index);
  OPSCOPE_CHECK(out.dtype() == self.dtype(),
                "index_select(): self and result must have the same scalar type");
  resize_output(out, r.sizes());
  if (r.numel() > 0) cpu::copy_(out, r, false);
  return out;
}

// out = self, then out[.., index[j], ..] += alpha * source[.., j, ..] (out: see destination)
Tensor index_add_impl(const Tensor& out, const Tensor& input, int64_t dim, const Tensor& index,
                      const Tensor& source, const Scalar& alpha) {
  const Tensor self = destination(out, input);
  dim = wrap_dim(dim, self.dim());
  check_index_vector(index, "index_add_", true, false);
  OPSCOPE_CHECK(self.dtype() == source.dtype(), "index_add_(): self (", cpp_name(self.dtype()),
                ") and source (", cpp_name(source.dtype()), ") must have the same scalar type");
  int64_t src_n = source.dim() == 0 ? 1 : source.size(std::min<int64_t>(dim, source.dim() - 1));
  OPSCOPE_CHECK(index.numel() == src_n, "index_add_(): Number of indices (", index.numel(),
                ") should be equal to source.size(dim): (", src_n, "), for dim: ", dim);
  OPSCOPE_CHECK(source.dim() == self.dim() || (source.dim() <= 1 && self.dim() <= 1),
                "index_add_(): self and source must have the same number of dimensions");
  for (int64_t d = 0; d < self.dim(); ++d)
    OPSCOPE_CHECK(d == dim || self.size(d) == source.size(d), "index_add_(): source (",
                  shape_str(source.sizes()), ") and self (", shape_str(self.sizes()),
                  ") must match outside dim ", dim);
  Blocks b = dim_blocks(
      self, dim, index, [](int64_t, int64_t) { throw IndexError("index out of range in self"); },
      /*allow_negative=*/false);
  Tensor src = source;
  bool unit = alpha.is_floating_point() ? alpha.to_double() == 1.0 : alpha.to_long() == 1;
  if (!unit) src = ops::mul(source, alpha);
  std::vector<int64_t> voff(b.offsets.size());
  int64_t sst = source.dim() == 0 ? 0 : src.strides()[static_cast<size_t>(dim)];
  for (size_t i = 0; i < voff.size(); ++i) voff[i] = static_cast<int64_t>(i) * sst;
  put_blocks(self, b, src, voff, strides_without(src, dim), true);
  return self;
}

// self[.., index[j], ..] = value
Tensor index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  dim = wrap_dim(dim, self.dim());
  check_index_vector(index, "index_fill_", false, true);
  if (self.numel() == 0) return self;  // nothing to fill, and torch checks no index then
  Blocks b = dim_blocks(self, dim, index, [&](int64_t v, int64_t size) {
    throw IndexError(
        detail::str("index ", v, " is out of bounds for dimension ", dim, " with size ", size));
  });
  dispatch_dtype(self.dtype(), "index_fill_", [&]<typename T>() {
    Tensor v = make_empty({}, self.dtype(), self.device());
    *v.data_ptr<T>() = checked_convert<T>(value);
    std::vector<int64_t> voff(b.offsets.size(), 0);
    DimVector zeros(b.rest_sizes.size(), 0);
    put_blocks(self, b, v, voff, zeros, false);
  });
  return self;
}

// index_fill_.int_Tensor: value must be 0-d
Tensor index_fill_tensor_(const Tensor& self, int64_t dim, const Tensor& index,
                          const Tensor& value) {
  OPSCOPE_CHECK(value.dim() == 0,
                "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
                value.dim(), " dimension(s).");
  return cpu::index_fill_(self, dim, index, item(value));
}

// --- flat ---------------------------------------------------------------------------------

namespace {
// Element offset of flat (row-major) position i of self.
int64_t flat_offset(const Tensor& self, int64_t i) {
  if (self.is_contiguous()) return i;
  int64_t off = 0;
  for (int64_t d = self.dim(); d-- > 0;) {
    int64_t s = self.sizes()[static_cast<size_t>(d)];
    off += (i % s) * self.strides()[static_cast<size_t>(d)];
    i /= s;
  }
  return off;
}
}  // namespace

// self (*s) flat, index (*i) -> (*i)
Tensor take(const Tensor& self, const Tensor& index) {
  OPSCOPE_CHECK(index.dtype() == ScalarType::Int64,
                "take(): Expected a long tensor for index, but got ", cpp_name(index.dtype()));
  const int64_t numel = self.numel();
  OPSCOPE_CHECK_INDEX(numel > 0 || index.numel() == 0,
                      "take(): tried to take from an empty tensor");
  Tensor out = make_empty(index.sizes(), self.dtype(), self.device());
  Tensor idx = index.is_contiguous() ? index : fresh_copy(index);
  const int64_t* iv = idx.data_ptr<int64_t>();
  const bool contiguous = self.is_contiguous();
  dispatch_width(self->itemsize(), [&]<typename W>() {
    const W* src = static_cast<const W*>(self.data());
    W* dst = static_cast<W*>(out.data());
    parallel_for(0, index.numel(), kGrainSize, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        int64_t v = iv[i];
        if (v < -numel || v >= numel) [[unlikely]]
          throw IndexError(detail::str("out of range: tried to access index ", v,
                                       " on a tensor of ", numel, " elements."));
        v += v < 0 ? numel : 0;
        dst[i] = src[contiguous ? v : flat_offset(self, v)];
      }
    });
  });
  return out;
}

Tensor take_out(const Tensor& self, const Tensor& index, const Tensor& out) {
  Tensor r = cpu::take(self, index);
  OPSCOPE_CHECK(out.dtype() == self.dtype(),
                "take(): self and out expected to have the same dtype, but got self.dtype = ",
                cpp_name(self.dtype()), " and out.dtype = ", cpp_name(out.dtype()));
  resize_output(out, r.sizes());
  if (r.numel() > 0) cpu::copy_(out, r, false);
  return out;
}

// self.flat[index] = source (or +=)
Tensor put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  OPSCOPE_CHECK(index.dtype() == ScalarType::Int64,
                "put_(): Expected a long tensor for index, but got ", cpp_name(index.dtype()));
  OPSCOPE_CHECK(self.dtype() == source.dtype(),
                "put_(): self and source expected to have the same dtype, but got self.dtype = ",
                cpp_name(self.dtype()), " and source.dtype = ", cpp_name(source.dtype()));
  OPSCOPE_CHECK_INDEX(source.numel() == index.numel(),
                      "put_(): Expected source and index to have the same number of elements, but "
                      "got source.numel() = ",
                      source.numel(), ", index.numel() = ", index.numel());
  const int64_t numel = self.numel();
  OPSCOPE_CHECK_INDEX(numel > 0 || index.numel() == 0,
                      "put_(): Tried to put elements into an empty tensor");
  Tensor idx = index.is_contiguous() ? index : fresh_copy(index);
  Tensor src = source.is_contiguous() ? source : fresh_copy(source);
  Blocks b;
  b.offsets.resize(static_cast<size_t>(index.numel()));
  const int64_t* iv = idx.data_ptr<int64_t>();
  for (int64_t i = 0; i < index.numel(); ++i) {
    int64_t v = iv[i];
    OPSCOPE_CHECK_INDEX(v >= -numel && v < numel, "out of range: tried to access index ", v,
                        " on a tensor of ", numel, " elements.");
    b.offsets[static_cast<size_t>(i)] = flat_offset(self, v < 0 ? v + numel : v);
  }
  std::vector<int64_t> voff(b.offsets.size());
  for (size_t i = 0; i < voff.size(); ++i) voff[i] = static_cast<int64_t>(i);
  put_blocks(self, b, src, voff, {}, accumulate);
  return self;
}

static Library cpu_indexing(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("index.Tensor", fn<&index>);
  m.impl("index.Tensor_out", fn<&index_out>);
  m.impl("_index_put_impl_", fn<&_index_put_impl_>);
  m.impl("index_select", fn<&index_select>);
  m.impl("index_select.out", fn<&index_select_out>);
  m.impl("index_add_", inplace<&index_add_impl>());
  m.impl("index_add", functional<&index_add_impl>());
  m.impl("index_add.out", out<&index_add_impl>());
  m.impl("index_fill_.int_Scalar", fn<&index_fill_>);
  m.impl("index_fill_.int_Tensor", fn<&index_fill_tensor_>);
  m.impl("take", fn<&take>);
  m.impl("take.out", fn<&take_out>);
  m.impl("put_", fn<&put_>);
});

}  // namespace opscope::cpu
