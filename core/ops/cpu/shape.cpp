// CPU kernels of cat, flip, roll, repeat_interleave.Tensor, tril / triu and diag.out (schemas in
// core/ops/shape.cpp, registered at the end of this file; see core/ops/shape.h).
//
// Checks follow torch 1.13 (TensorShape.cpp's cat meta function, TensorTransformations.cpp,
// TriangularOps.cpp, Repeat.cpp) in order and wording. Data moves as bytes wherever the dtype
// does not change: see Note [Copying as bytes].
#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "core/runtime/Parallel.h"

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/factory_util.h"
#include "core/ops/factories.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"
#include "core/runtime/CheckedMath.h"

namespace opscope::cpu {

// The CPU copy_ kernel (core/ops/cpu/copy.cpp), which cat, tril / triu and diag call to move
// their elements: a copy inside a kernel, below the dispatcher, so no copy_ in the trace.
Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking);

namespace {

// Tensor::contiguous as torch's C++ API has it: self when already row-major (no op in the
// trace), else the contiguous op.
Tensor contiguous(const Tensor& t) {
  return t.is_contiguous() ? t : ops::contiguous(t);
}

// Note [Copying as bytes]
// ~~~~~~~~~~~~~~~~~~~~~~~
// cat of contiguous inputs into a contiguous result of the same dtype is, per row of the dims
// before `dim`, one memcpy per input: the result viewed as (outer, sum_i k_i * inner) takes input
// i as its (outer, k_i * inner) block of columns. Everything else (other dtypes, strided inputs)
// goes through copy_'s TensorIterator on a view of the result (no dispatch, so the trace shows
// only `cat`, as torch's). flip walks its own strided byte loop (strided_copy), which handles
// the negative strides a flip is.

// memcpy of n bytes, split between threads when large (chunks of >= 256 KiB).
void parallel_memcpy(char* dst, const char* src, int64_t n) {
  constexpr int64_t kChunk = int64_t(1) << 18;
  if (n <= kChunk) {
    if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n));
    return;
  }
  parallel_for(0, (n + kChunk - 1) / kChunk, 1, [&](int64_t first, int64_t last) {
    int64_t begin = first * kChunk, end = std::min(n, last * kChunk);
    std::memcpy(dst + begin, src + begin, static_cast<size_t>(end - begin));
  });
}

// dst[i] = src[i] for every index i of `sizes`; strides are in bytes per dim (src's may be
// negative: a flipped dim); elements are `elem` bytes, aligned to their size. Dims are ordered by
// dst stride and merged where both sides allow, so the innermost loop is as long as possible (a
// memcpy when both are dense, a reversed walk for a flipped dim).
void strided_copy(size_t elem, IntArrayRef sizes, char* dst, IntArrayRef dst_strides,
                  const char* src, IntArrayRef src_strides) {
  int64_t numel = compute_numel(sizes);
  if (numel == 0) return;
  struct Dim {
    int64_t size, ds, ss;
  };
  std::vector<Dim> dims;
  for (size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] != 1) dims.push_back({sizes[d], dst_strides[d], src_strides[d]});
  std::stable_sort(dims.begin(), dims.end(),
                   [](const Dim& a, const Dim& b) { return std::abs(a.ds) > std::abs(b.ds); });
  // Merge (outer, inner) when outer steps over exactly one inner run on both sides.
  std::vector<Dim> merged;
  for (const Dim& d : dims) {
    if (!merged.empty()) {
      Dim& last = merged.back();  // the outer one so far; d is inside it
      if (last.ds == d.ds * d.size && last.ss == d.ss * d.size) {
        last = {last.size * d.size, d.ds, d.ss};
        continue;
      }
    }
    merged.push_back(d);
  }
  if (merged.empty()) merged.push_back({1, static_cast<int64_t>(elem), static_cast<int64_t>(elem)});
  const Dim inner = merged.back();
  merged.pop_back();
  const auto e = static_cast<int64_t>(elem);
  const int64_t outer = numel / inner.size;
  // A strided run as typed loads and stores (W as wide as the element), which the compiler
  // turns into vector shuffles for a reversed run.
  auto typed_run = [&]<typename W>(char* d, const char* s) {
    int64_t dsw = inner.ds / e, ssw = inner.ss / e;
    auto* dw = reinterpret_cast<W*>(d);
    const auto* sw = reinterpret_cast<const W*>(s);
    if (dsw == 1) {
      for (int64_t i = 0; i < inner.size; ++i) dw[i] = sw[i * ssw];
    } else {
      for (int64_t i = 0; i < inner.size; ++i) dw[i * dsw] = sw[i * ssw];
    }
  };
  auto copy_run = [&](char* d, const char* s) {
    if (inner.ds == e && inner.ss == e) {
      std::memcpy(d, s, static_cast<size_t>(inner.size * e));
      return;
    }
    switch (elem) {
      case 1:
        return typed_run.template operator()<uint8_t>(d, s);
      case 2:
        return typed_run.template operator()<uint16_t>(d, s);
      case 4:
        return typed_run.template operator()<uint32_t>(d, s);
      case 8:
        return typed_run.template operator()<uint64_t>(d, s);
      default:
        for (int64_t i = 0; i < inner.size; ++i)
          std::memcpy(d + i * inner.ds, s + i * inner.ss, elem);
    }
  };
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner.size, 1));
  parallel_for(0, outer, grain, [&](int64_t first, int64_t last) {
    // Position of row `first`, then an odometer over the outer dims.
    size_t nd = merged.size();
    std::vector<int64_t> index(nd, 0);
    int64_t rest = first, doff = 0, soff = 0;
    for (size_t d = nd; d-- > 0;) {
      index[d] = rest % merged[d].size;
      rest /= merged[d].size;
      doff += index[d] * merged[d].ds;
      soff += index[d] * merged[d].ss;
    }
    for (int64_t row = first; row < last; ++row) {
      copy_run(dst + doff, src + soff);
      for (size_t d = nd; d-- > 0;) {
        if (++index[d] < merged[d].size) {
          doff += merged[d].ds;
          soff += merged[d].ss;
          break;
        }
        doff -= (merged[d].size - 1) * merged[d].ds;
        soff -= (merged[d].size - 1) * merged[d].ss;
        index[d] = 0;
      }
    }
  });
}

// A tensor of exactly (0): cat skips it whatever `dim` is (torch's legacy behaviour).
bool cat_should_skip(const Tensor& t) {
  return t.dim() == 1 && t.size(0) == 0;
}

void check_cat_shape_except_dim(const Tensor& first, const Tensor& second, int64_t dim,
                                size_t index) {
  OPSCOPE_CHECK(first.dim() == second.dim(), "Tensors must have same number of dimensions: got ",
                first.dim(), " and ", second.dim());
  for (int64_t d = 0; d < first.dim(); ++d) {
    if (d == dim) continue;
    OPSCOPE_CHECK(first.sizes()[d] == second.sizes()[d],
                  "Sizes of tensors must match except in dimension ", dim, ". Expected size ",
                  first.sizes()[d], " but got size ", second.sizes()[d], " for tensor number ",
                  index, " in the list.");
  }
}

void check_no_overlap(const Tensor& out, const Tensor& input) {
  MemOverlapStatus s = get_overlap_status(*out.impl(), *input.impl());
  OPSCOPE_CHECK(s != MemOverlapStatus::Partial && s != MemOverlapStatus::Full,
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.");
}

// What cat's checks decide: the result's sizes, dtype and layout, and the wrapped dim.
struct CatPlan {
  DimVector sizes{0};
  ScalarType dtype = ScalarType::Undefined;
  int64_t dim = 0;
  bool any_valid = false;
  bool channels_last = false;  // every input laid out as channels_last (N, C, H, W)
};

// (N, C, H, W) strides of channels_last memory: C fastest, then W, H, N.
DimVector channels_last_strides(IntArrayRef s) {
  return DimVector{s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
}

// torch's is_channels_last_strides_2d, which suggest_memory_format() reads: a 4-D tensor whose
// strides grow in the order C, W, H, N (each at least the extent of the ones inside it). The
// ambiguous cases (C stride 0, N111 with equal strides) count as contiguous.
bool is_channels_last(const Tensor& t) {
  if (t.dim() != 4 || t.stride(1) == 0) return false;
  int64_t min = 0;
  for (int64_t d : {1, 3, 2, 0}) {
    if (t.size(d) == 0 || t.stride(d) < min) return false;
    if (d == 0 && min == t.stride(1)) return false;
    min = t.stride(d);
    if (t.size(d) > 1) min *= t.size(d);
  }
  return true;
}

CatPlan plan_cat(TensorList tensors, int64_t dim) {
  OPSCOPE_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); ++i)
    OPSCOPE_CHECK(tensors[i].dim() > 0, "zero-dimensional tensor (at position ", i,
                  ") cannot be concatenated");
  CatPlan plan;
  ResultTypeState state;
  for (const Tensor& t : tensors) state.add_tensor(t.dtype(), t.dim(), false);
  plan.dtype = state.result();
  auto valid = std::ranges::find_if(tensors, [](const Tensor& t) { return !cat_should_skip(t); });
  plan.dim = dim;
  if (valid == tensors.end()) return plan;
  const Tensor& ref = *valid;
  plan.any_valid = true;
  plan.dim = wrap_dim(dim, ref.dim());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    OPSCOPE_CHECK(t.device() == ref.device(),
                  "Expected all tensors to be on the same device, but found at least two "
                  "devices, ",
                  ref.device().str(), " and ", t.device().str(), "!");
    if (cat_should_skip(t)) continue;
    check_cat_shape_except_dim(ref, t, plan.dim, i);
    total = checked_add(total, t.size(plan.dim), "torch.cat(): the result's size");
  }
  plan.sizes.assign(ref.sizes().begin(), ref.sizes().end());
  plan.sizes[static_cast<size_t>(plan.dim)] = total;
  // torch's cat keeps a memory format all its inputs suggest (a skipped input suggests none).
  plan.channels_last = std::ranges::all_of(tensors, is_channels_last);
  return plan;
}

// Copies the inputs into `out` (already of plan.sizes). See Note [Copying as bytes].
void cat_copy(TensorList tensors, const CatPlan& plan, const Tensor& out) {
  if (out.numel() == 0 || !plan.any_valid) return;
  const int64_t dim = plan.dim;
  const size_t itemsize = element_size(out.dtype());
  bool fast = out.is_contiguous();
  for (const Tensor& t : tensors)
    if (!cat_should_skip(t)) fast = fast && t.is_contiguous() && t.dtype() == out.dtype();
  if (fast) {
    IntArrayRef s = out.sizes();
    int64_t outer = compute_numel(s.subspan(0, static_cast<size_t>(dim)));
    int64_t inner = compute_numel(s.subspan(static_cast<size_t>(dim) + 1));
    auto row_bytes = static_cast<int64_t>(s[static_cast<size_t>(dim)] * inner * itemsize);
    char* dst = static_cast<char*>(out.data());
    int64_t col = 0;  // where input i's block starts in a row, in bytes
    for (const Tensor& t : tensors) {
      if (cat_should_skip(t)) continue;
      auto block = static_cast<int64_t>(t.size(dim) * inner * itemsize);
      const char* src = static_cast<const char*>(t.data());
      if (outer == 1) {
        parallel_memcpy(dst + col, src, block);
      } else if (block > 0) {
        int64_t grain = std::max<int64_t>(1, (kGrainSize * 4) / block);
        parallel_for(0, outer, grain, [&](int64_t first, int64_t last) {
          for (int64_t r = first; r < last; ++r)
            std::memcpy(dst + r * row_bytes + col, src + r * block, static_cast<size_t>(block));
        });
      }
      col += block;
    }
    return;
  }
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (cat_should_skip(t)) continue;
    int64_t k = t.size(dim);
    DimVector sizes(out.sizes().begin(), out.sizes().end());
    sizes[static_cast<size_t>(dim)] = k;
    if (k > 0) {
      Tensor slice =
          make_view(out, sizes, out.strides(), out->storage_offset() + offset * out.stride(dim));
      cpu::copy_(slice, t, false);
    }
    offset += k;
  }
}

// Zeros of element size `elem` at `n` places `stride` bytes apart.
void zero_run(char* p, int64_t n, int64_t stride, size_t elem) {
  if (n <= 0) return;
  if (stride == static_cast<int64_t>(elem)) {
    std::memset(p, 0, static_cast<size_t>(n) * elem);
  } else {
    for (int64_t i = 0; i < n; ++i) std::memset(p + i * stride, 0, elem);
  }
}

// Zeros the part of each (M, N) matrix of t that tril (upper = false) or triu drops:
// tril keeps j - i <= k, triu keeps j - i >= k.
void zero_triangle(const Tensor& t, int64_t k, bool upper) {
  if (t.numel() == 0) return;
  const size_t elem = element_size(t.dtype());
  int64_t nd = t.dim();
  int64_t M = t.size(-2), N = t.size(-1);
  int64_t sm = t.stride(-2) * static_cast<int64_t>(elem),
          sn = t.stride(-1) * static_cast<int64_t>(elem);
  IntArrayRef batch_sizes = t.sizes().subspan(0, static_cast<size_t>(nd - 2));
  DimVector batch_strides;
  for (int64_t d = 0; d < nd - 2; ++d) batch_strides.push_back(t.stride(d));
  std::vector<int64_t> batch_offsets;
  factory_util::for_each_offset(batch_sizes, batch_strides, [&](int64_t, int64_t off) {
    batch_offsets.push_back(off * static_cast<int64_t>(elem));
  });
  char* base = static_cast<char*>(t.data());
  int64_t rows = static_cast<int64_t>(batch_offsets.size()) * M;
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(N, 1));
  // Past -M - 1 and N every k keeps or drops whole rows alike: clamped there, i + k + 1 cannot
  // overflow (torch's does: x.tril(2**63 - 1) comes out all zeros there).
  k = std::clamp<int64_t>(k, -M - 1, N);
  parallel_for(0, rows, grain, [&](int64_t first, int64_t last) {
    for (int64_t r = first; r < last; ++r) {
      int64_t i = r % M;
      char* row = base + batch_offsets[static_cast<size_t>(r / M)] + i * sm;
      if (upper) {  // triu: zero j < i + k
        int64_t end = std::clamp<int64_t>(i + k, 0, N);
        zero_run(row, end, sn, elem);
      } else {  // tril: zero j > i + k
        int64_t begin = std::clamp<int64_t>(i + k + 1, 0, N);
        zero_run(row + begin * sn, N - begin, sn, elem);
      }
    }
  });
}

void check_matrix(const Tensor& self) {
  // torch wraps -2 against self's dims: a 1-D tensor gets "expected ... [-1, 0], but got -2".
  wrap_dim(-2, self.dim(), false);
}

Tensor triangle_out(const Tensor& self, int64_t k, const Tensor& out, bool upper) {
  check_matrix(self);
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "Expected out tensor to have dtype ",
                typemeta_name(self.dtype()), ", but got ", typemeta_name(out.dtype()), " instead");
  if (!out.is_same(self)) {
    resize_output(out, self.sizes());
    cpu::copy_(out, self, false);
  }
  zero_triangle(out, k, upper);
  return out;
}

// Diagonal d of a matrix (M, N) as a view, built directly (no diagonal op in the trace, as in
// torch's diag kernel): length min(M, N - d) for d >= 0, min(M + d, N) otherwise.
Tensor diagonal_view(const Tensor& m, int64_t d) {
  int64_t len = d >= 0 ? std::min(m.size(0), m.size(1) - d) : std::min(m.size(0) + d, m.size(1));
  len = std::max<int64_t>(len, 0);
  // An empty diagonal keeps the offset; only then can d * stride overflow (d of any size).
  int64_t offset = m->storage_offset();
  if (len > 0) offset += d >= 0 ? d * m.stride(1) : -d * m.stride(0);
  int64_t stride;
  if (add_overflows(m.stride(0), m.stride(1), &stride)) stride = 1;  // an empty m's: any will do
  return make_view(m, std::vector<int64_t>{len}, std::vector<int64_t>{stride}, offset);
}

}  // namespace

// --- cat -----------------------------------------------------------------------------------------

// n tensors (.., k_i, ..) -> (.., sum k_i, ..)
Tensor cat(TensorList tensors, int64_t dim) {
  CatPlan plan = plan_cat(tensors, dim);
  Tensor out = plan.channels_last
                   ? make_empty_strided(plan.sizes, channels_last_strides(plan.sizes), plan.dtype,
                                        tensors[0].device())
                   : make_empty(plan.sizes, plan.dtype, tensors[0].device());
  cat_copy(tensors, plan, out);
  return out;
}

Tensor cat_out(TensorList tensors, int64_t dim, const Tensor& out) {
  CatPlan plan = plan_cat(tensors, dim);
  OPSCOPE_CHECK(can_cast(plan.dtype, out.dtype()),
                "torch.cat(): input types can't be cast to the desired output type ",
                cpp_name(out.dtype()));
  assert_no_internal_overlap(*out.impl());
  for (const Tensor& t : tensors) check_no_overlap(out, t);
  resize_output(out, plan.sizes);
  cat_copy(tensors, plan, out);
  return out;
}

// --- flip / roll ---------------------------------------------------------------------------------

// (s) -> (s), element i of each dim in dims read from n-1-i
Tensor flip(const Tensor& self, IntArrayRef dims) {
  int64_t nd = self.dim();
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(nd, 1)), false);
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, nd);
    OPSCOPE_CHECK(!flipped[static_cast<size_t>(w)], "dim ", w,
                  " appears multiple times in the list of dims");
    flipped[static_cast<size_t>(w)] = true;
  }
  Tensor out = ops::empty_like(self);
  if (self.numel() == 0) return out;
  const auto elem = static_cast<int64_t>(element_size(self.dtype()));
  DimVector src_strides, dst_strides;
  const char* src = static_cast<const char*>(self.data());
  for (int64_t d = 0; d < nd; ++d) {
    int64_t s = self.stride(d) * elem;
    if (flipped[static_cast<size_t>(d)]) {
      src += (self.size(d) - 1) * s;
      s = -s;
    }
    src_strides.push_back(s);
    dst_strides.push_back(out.stride(d) * elem);
  }
  strided_copy(static_cast<size_t>(elem), self.sizes(), static_cast<char*>(out.data()), dst_strides,
               src, src_strides);
  return out;
}

// One dim: cat of the two narrowed pieces; several: one roll per dim; none: the flattened roll.
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (dims.size() != 1 || shifts.size() != 1) {
    OPSCOPE_CHECK(!shifts.empty(), "`shifts` required");
    if (dims.empty() && shifts.size() == 1) {
      Tensor flat = ops::view(contiguous(self), {self.numel()});
      return ops::view(ops::roll(flat, shifts, std::vector<int64_t>{0}), self.sizes());
    }
    OPSCOPE_CHECK(shifts.size() == dims.size(),
                  "shifts and dimensions must align. shifts: ", shifts.size(),
                  ", dims:", dims.size());
    Tensor first = ops::roll(self, shifts.subspan(0, 1), dims.subspan(0, 1));
    return ops::roll(first, shifts.subspan(1), dims.subspan(1));
  }
  if (self.numel() == 0) return ops::clone(self, ops::kPreserveFormat);
  int64_t dim = dims[0];
  int64_t size = self.size(dim);
  // (size - shift) mod size, with the shift reduced first: size - (-2**63) would overflow
  // (torch's does, and x.roll(-2**63) rolls the wrong way there).
  int64_t start = (size - shifts[0] % size) % size;
  Tensor t0 = ops::narrow(self, dim, start, size - start);
  Tensor t1 = ops::narrow(self, dim, 0, start);
  return ops::cat(std::vector<Tensor>{t0, t1}, dim);
}

// --- repeat_interleave ---------------------------------------------------------------------------

// repeats (n) -> (sum repeats): i written repeats[i] times
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size) {
  OPSCOPE_CHECK(repeats.dim() == 1, "repeat_interleave only accept 1D vector as repeat");
  ScalarType t = repeats.dtype();
  OPSCOPE_CHECK(t == ScalarType::Int64 || t == ScalarType::Int32,
                "\"repeat_interleave_cpu\" not implemented for '", cpp_name(t), "'");
  int64_t n = repeats.size(0);
  if (n == 0) return ops::empty_like(repeats);
  Tensor r = contiguous(repeats);
  std::vector<int64_t> counts(static_cast<size_t>(n));
  dispatch_dtype(t, "repeat_interleave_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      const T* p = r.data_ptr<const T>();
      for (int64_t i = 0; i < n; ++i) counts[static_cast<size_t>(i)] = static_cast<int64_t>(p[i]);
    }
  });
  int64_t total = 0;
  bool overflowed = false;
  for (int64_t c : counts) overflowed |= add_overflows(total, c, &total);
  if (!output_size) {
    OPSCOPE_CHECK(std::ranges::all_of(counts, [](int64_t c) { return c >= 0; }),
                  "repeats can not be negative");
    OPSCOPE_CHECK(!overflowed,
                  "repeat_interleave: the repeats sum past 2**63 - 1 (integer "
                  "addition overflow)");
  }
  int64_t result_size = output_size.value_or(total);
  Tensor out = make_empty({result_size}, t, repeats.device());
  dispatch_dtype(t, "repeat_interleave_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
      T* o = out.data_ptr<T>();
      int64_t pos = 0;
      for (int64_t i = 0; i < n; ++i) {
        int64_t c = counts[static_cast<size_t>(i)];
        OPSCOPE_CHECK(c >= 0, "repeats can not be negative");
        OPSCOPE_CHECK(c <= result_size - pos, "allocated size does not match required size");
        std::fill_n(o + pos, c, static_cast<T>(i));
        pos += c;
      }
      OPSCOPE_CHECK(pos == result_size, "allocated size does not match required size");
    }
  });
  return out;
}

// --- tril / triu ---------------------------------------------------------------------------------

// (*, M, N) -> (*, M, N): (i, j) kept where j - i <= diagonal
Tensor tril(const Tensor& self, int64_t diagonal) {
  check_matrix(self);
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  return triangle_out(self, diagonal, out, false);
}
Tensor tril_(const Tensor& self, int64_t diagonal) {
  check_matrix(self);
  zero_triangle(self, diagonal, false);
  return self;
}
Tensor tril_out(const Tensor& self, int64_t diagonal, const Tensor& out) {
  return triangle_out(self, diagonal, out, false);
}
// (*, M, N) -> (*, M, N): (i, j) kept where j - i >= diagonal
Tensor triu(const Tensor& self, int64_t diagonal) {
  check_matrix(self);
  Tensor out = make_empty(self.sizes(), self.dtype(), self.device());
  return triangle_out(self, diagonal, out, true);
}
Tensor triu_(const Tensor& self, int64_t diagonal) {
  check_matrix(self);
  zero_triangle(self, diagonal, true);
  return self;
}
Tensor triu_out(const Tensor& self, int64_t diagonal, const Tensor& out) {
  return triangle_out(self, diagonal, out, true);
}

// --- diag ----------------------------------------------------------------------------------------

// (n) -> (n + |d|, n + |d|) with self on diagonal d;  (M, N) -> (k), diagonal d of self
Tensor diag_out(const Tensor& self, int64_t diagonal, const Tensor& out) {
  int64_t nd = self.dim();
  OPSCOPE_CHECK(nd == 1 || nd == 2, "matrix or a vector expected");
  OPSCOPE_CHECK(self.dtype() != ScalarType::Float16, "\"diag\" not implemented for 'Half'");
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "Expected out tensor to have dtype ",
                typemeta_name(self.dtype()), ", but got ", typemeta_name(out.dtype()), " instead");
  if (nd == 1) {
    int64_t n = self.size(0), sz;  // n + |diagonal|, checked (torch's wraps to a negative size)
    OPSCOPE_CHECK(diagonal != std::numeric_limits<int64_t>::min() &&
                      !add_overflows(n, std::abs(diagonal), &sz),
                  "numel: integer multiplication overflow");
    resize_output(out, std::vector<int64_t>{sz, sz});
    ops::zero_(out);
    cpu::copy_(diagonal_view(out, diagonal), self, false);
    return out;
  }
  int64_t sz = diagonal >= 0 ? std::min(self.size(0), self.size(1) - diagonal)
                             : std::min(self.size(0) + diagonal, self.size(1));
  OPSCOPE_CHECK(sz >= 0, "numel: integer multiplication overflow");
  resize_output(out, std::vector<int64_t>{sz});
  ops::zero_(out);
  if (sz > 0) cpu::copy_(out, diagonal_view(self, diagonal), false);
  return out;
}

static Library cpu_shape(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("cat", fn<&cat>);
  m.impl("cat.out", fn<&cat_out>);
  m.impl("flip", fn<&flip>);
  m.impl("roll", fn<&roll>);
  m.impl("repeat_interleave.Tensor", fn<&repeat_interleave>);
  m.impl("tril", fn<&tril>);
  m.impl("tril_", fn<&tril_>);
  m.impl("tril.out", fn<&tril_out>);
  m.impl("triu", fn<&triu>);
  m.impl("triu_", fn<&triu_>);
  m.impl("triu.out", fn<&triu_out>);
  m.impl("diag.out", fn<&diag_out>);
});

}  // namespace opscope::cpu
