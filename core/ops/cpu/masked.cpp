// CPU kernels of the mask ops: nonzero, masked_fill_, masked_select, masked_scatter_ (see
// core/ops/indexing.h). A mask is bool, or uint8 (deprecated in torch 1.13, still accepted);
// any nonzero byte counts as true.
#include <algorithm>
#include <vector>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/cpu/index_util.h"
#include "core/ops/indexing.h"
#include "core/runtime/ScalarConvert.h"
#include "core/ops/TensorIterator.h"

namespace opscope::cpu {

using namespace index_util;

namespace {

bool is_mask_dtype(ScalarType t) {
  return t == ScalarType::Bool || t == ScalarType::UInt8;
}

}  // namespace

// self (*s) -> int64 (n, len(s)), stored column-major (strides (1, n)) as torch's
Tensor nonzero_out(const Tensor& self, const Tensor& out) {
  OPSCOPE_CHECK(out.dtype() == ScalarType::Int64,
                "nonzero: Expected out tensor to have scalar type Long but got scalar type",
                cpp_name(out.dtype()));
  const int64_t nd = self.dim();
  const int64_t numel = self.numel();
  Tensor src = self.is_contiguous() ? self : fresh_copy(self);
  // Pass 1: count the nonzeros per chunk.
  const int64_t grain = kGrainSize;
  const int64_t nchunks = std::max<int64_t>(1, (numel + grain - 1) / grain);
  std::vector<int64_t> counts(static_cast<size_t>(nchunks) + 1, 0);
  dispatch_dtype(self.dtype(), "nonzero_cpu", [&]<typename T>() {
    const T* data = src.data_ptr<T>();
    parallel_for(0, nchunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        int64_t lo = c * grain, hi = std::min(numel, lo + grain), n = 0;
        for (int64_t i = lo; i < hi; ++i) n += convert<bool>(data[i]) ? 1 : 0;
        counts[static_cast<size_t>(c) + 1] = n;
      }
    });
  });
  for (size_t c = 1; c < counts.size(); ++c) counts[c] += counts[c - 1];
  const int64_t total = counts.back();
  // The result is a transposed (nd, n) buffer, so each coordinate column is contiguous.
  DimVector sizes{total, nd};
  DimVector strides{1, std::max<int64_t>(total, 1)};
  resize_output(out, sizes, IntArrayRef(strides));
  if (total == 0 || nd == 0) return out;
  int64_t* o = out.data_ptr<int64_t>();
  const int64_t col = out.strides()[1], row = out.strides()[0];
  // Pass 2: write each chunk's coordinates at its prefix offset.
  dispatch_dtype(self.dtype(), "nonzero_cpu", [&]<typename T>() {
    const T* data = src.data_ptr<T>();
    IntArrayRef sz = self.sizes();
    parallel_for(0, nchunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        int64_t lo = c * grain, hi = std::min(numel, lo + grain),
                r = counts[static_cast<size_t>(c)];
        if (nd == 1) {  // branch-free: write every position, advance past the nonzero ones
          const int64_t end = counts[static_cast<size_t>(c) + 1];
          for (int64_t i = lo; i < hi && r < end; ++i) {
            o[r] = i;
            r += convert<bool>(data[i]) ? 1 : 0;
          }
          continue;
        }
        for (int64_t i = lo; i < hi; ++i) {
          if (!convert<bool>(data[i])) continue;
          int64_t rem = i;
          for (int64_t d = nd; d-- > 0;) {
            int64_t s = sz[static_cast<size_t>(d)];
            o[r * row + d * col] = rem % s;
            rem /= s;
          }
          ++r;
        }
      }
    });
  });
  return out;
}

Tensor nonzero(const Tensor& self) {
  Tensor out = make_empty({0}, ScalarType::Int64, self.device());
  return cpu::nonzero_out(self, out);
}

// self[mask] = value, mask broadcast to self
Tensor masked_fill_(const Tensor& self, const Tensor& mask_in, const Scalar& value) {
  // torch 1.13 also takes integer masks without a word (a later torch refuses them): any
  // nonzero value is true here. Float masks are refused.
  OPSCOPE_CHECK(is_integral(mask_in.dtype(), true),
                "masked_fill_ only supports boolean masks, but got mask with dtype ",
                cpp_name(mask_in.dtype()));
  Tensor mask = mask_in;
  if (!is_mask_dtype(mask_in.dtype())) {
    mask = make_empty(mask_in.sizes(), ScalarType::Bool, mask_in.device());
    if (mask.numel() > 0) cpu::copy_(mask, mask_in, false);
  }
  // One element each: no iterator.
  if (self.numel() == 1 && mask.numel() == 1 && mask.dim() <= self.dim()) {
    dispatch_dtype(self.dtype(), "masked_fill", [&]<typename T>() {
      T v = checked_convert<T>(value);
      bool m = *static_cast<const uint8_t*>(mask.data()) != 0;
      if (m) *self.data_ptr<T>() = v;
    });
    return self;
  }
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(self)
                            .add_input(mask)
                            .resize_outputs(false)
                            .check_all_same_dtype(false)
                            .build();
  dispatch_dtype(self.dtype(), "masked_fill", [&]<typename T>() {
    T v = checked_convert<T>(value);
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      char* out = data[0];
      const char* m = data[1];
      if (strides[0] == static_cast<int64_t>(sizeof(T)) && (strides[1] == 1 || strides[1] == 0)) {
        // Contiguous: a branch-free select the compiler vectorizes (a random mask would
        // mispredict a branch half the time).
        T* o = reinterpret_cast<T*>(out);
        const uint8_t* mm = reinterpret_cast<const uint8_t*>(m);
        const int64_t ms = strides[1];
        for (int64_t i = 0; i < n; ++i) o[i] = mm[i * ms] ? v : o[i];
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        if (*reinterpret_cast<const uint8_t*>(m + i * strides[1]) != 0)
          *reinterpret_cast<T*>(out + i * strides[0]) = v;
      }
    });
  });
  return self;
}

// masked_fill_.Tensor: value is 0-d
Tensor masked_fill_tensor_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  OPSCOPE_CHECK(value.dim() == 0,
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
                value.dim(), " dimension(s).");
  return cpu::masked_fill_(self, mask, item(value));
}

// self, mask broadcast together -> the elements where mask is true, row-major
Tensor masked_select_out(const Tensor& self, const Tensor& mask, const Tensor& out) {
  OPSCOPE_CHECK(is_mask_dtype(mask.dtype()),
                "masked_select: expected BoolTensor or ByteTensor for mask");
  OPSCOPE_CHECK(out.dtype() == self.dtype(),
                "masked_select(): self and result must have the same scalar type");
  DimVector shape = broadcast_shapes(mask.sizes(), self.sizes());
  DimVector sst = broadcast_strides(self, shape), mst = broadcast_strides(mask, shape);
  const int64_t numel = compute_numel(shape);
  const uint8_t* m = static_cast<const uint8_t*>(mask.data());
  int64_t count = 0;
  walk<1>(shape, {IntArrayRef(mst)}, 0, numel, [&](const int64_t* o) { count += m[o[0]] != 0; });
  resize_output(out, {count});
  if (count == 0) return out;
  dispatch_width(self->itemsize(), [&]<typename W>() {
    const W* s = static_cast<const W*>(self.data());
    W* d = static_cast<W*>(out.data());
    const int64_t ost = out.strides()[0];
    int64_t k = 0;
    walk<2>(shape, {IntArrayRef(sst), IntArrayRef(mst)}, 0, numel, [&](const int64_t* o) {
      if (m[o[1]]) d[ost * k++] = s[o[0]];
    });
  });
  return out;
}

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  Tensor out = make_empty({0}, self.dtype(), self.device());
  return cpu::masked_select_out(self, mask, out);
}

// self's true positions (mask broadcast to self), row-major, take source's first elements
Tensor masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source) {
  OPSCOPE_CHECK(is_mask_dtype(mask.dtype()),
                "masked_scatter_ only supports boolean masks, but got mask with dtype ",
                cpp_name(mask.dtype()));
  OPSCOPE_CHECK(self.dtype() == source.dtype(),
                "masked_scatter: expected self and source to have same dtypes but got",
                cpp_name(self.dtype()), " and ", cpp_name(source.dtype()));
  OPSCOPE_CHECK(broadcastable_to(mask.sizes(), self.sizes()), "The size of tensor a (",
                mask.dim() ? mask.sizes().back() : 1, ") must match the size of tensor b (",
                self.dim() ? self.sizes().back() : 1, ") at non-singleton dimension ",
                self.dim() - 1);
  DimVector mst = broadcast_strides(mask, self.sizes());
  Tensor src = source.is_contiguous() ? source : fresh_copy(source);
  const uint8_t* m = static_cast<const uint8_t*>(mask.data());
  const int64_t numel = self.numel(), available = src.numel();
  dispatch_width(self->itemsize(), [&]<typename W>() {
    W* d = static_cast<W*>(self.data());
    const W* s = static_cast<const W*>(src.data());
    int64_t k = 0;
    bool short_source = false;
    walk<2>(self.sizes(), {self.strides(), IntArrayRef(mst)}, 0, numel, [&](const int64_t* o) {
      if (!m[o[1]]) return;
      if (k >= available) {
        short_source = true;
        return;
      }
      d[o[0]] = s[k++];
    });
    OPSCOPE_CHECK(!short_source, "Number of elements of source < number of ones in mask");
  });
  return self;
}

static Library cpu_masked(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("masked_fill_.Scalar", fn<&masked_fill_>);
  m.impl("masked_fill_.Tensor", fn<&masked_fill_tensor_>);
  m.impl("masked_select", fn<&masked_select>);
  m.impl("masked_select.out", fn<&masked_select_out>);
  m.impl("masked_scatter_", fn<&masked_scatter_>);
  m.impl("nonzero", fn<&nonzero>);
  m.impl("nonzero.out", fn<&nonzero_out>);
});

}  // namespace opscope::cpu
