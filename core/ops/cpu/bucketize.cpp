// CPU kernels of searchsorted, bucketize and isin (declared in core/ops/sorting.cpp): where values
// fall among sorted boundaries, and whether elements occur in a set of test elements.
//
// searchsorted(sorted_sequence, self): for each value of self the index of the first boundary
// >= it (right / side="right": > it) in the innermost dim of sorted_sequence — one 1-D sequence
// for all values, or one per row when sorted_sequence's leading dims are self's; `sorter` gives
// the order of an unsorted sequence (argsort's). bucketize(self, boundaries) is the same with a
// 1-D boundaries tensor. Values and boundaries compare in their common dtype; the result is int64
// (int32 with out_int32). The binary search moves right past a boundary unless boundary >= value
// (right: > value), as torch's, so a NaN value lands after every boundary.
#include <algorithm>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/cpu/reduce_plan.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu {

namespace {

// torch's searchsorted_pre_check.
void check_searchsorted(const Tensor& boundaries, const Tensor& input, const Tensor& out,
                        bool out_int32, bool right, std::optional<std::string_view> side,
                        const Tensor& sorter) {
  if (side) {
    OPSCOPE_CHECK(*side == "left" || *side == "right",
                  "torch.searchsorted(): side can only be 'left' or 'right' but got ", *side);
    OPSCOPE_CHECK(!right || *side == "right",
                  "torch.searchsorted(): side and right can't be set to opposites, got side of ",
                  *side, " while right was True");
  }
  if (out.defined()) {
    const ScalarType want = out_int32 ? ScalarType::Int32 : ScalarType::Int64;
    OPSCOPE_CHECK(out.dtype() == want,
                  "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) "
                  "or Long(int64) depending on whether out_int32 flag is True, but we got output "
                  "tensor's dtype ", cpp_name(out.dtype()), " and out_int32 flag is ",
                  out_int32 ? "True" : "False");
  }
  if (sorter.defined()) {
    OPSCOPE_CHECK(sorter.dtype() == ScalarType::Int64,
                  "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype ",
                  cpp_name(sorter.dtype()));
    OPSCOPE_CHECK(std::ranges::equal(sorter.sizes(), boundaries.sizes()),
                  "torch.searchsorted(): boundary and sorter must have the same size, but got "
                  "boundary tensor ", shape_str(boundaries.sizes()), "and got sorter tensor ",
                  shape_str(sorter.sizes()));
  }
  OPSCOPE_CHECK(input.dim() > 0 || boundaries.dim() == 1,
                "torch.searchsorted(): input value can be a scalar only when boundaries tensor "
                "dimension is 1, but we got boundaries tensor dim(", boundaries.dim(),
                ") and input value's dim(", input.dim(), ") numel(", input.numel(), ")");
  OPSCOPE_CHECK(boundaries.dim() != 0,
                "torch.searchsorted(): boundaries tensor should have positive dimension, but got "
                "0 dimension");
  bool leading_match = boundaries.dim() == 1;
  if (!leading_match && boundaries.dim() == input.dim()) {
    leading_match = true;
    for (int64_t d = 0; d + 1 < boundaries.dim(); ++d)
      leading_match = leading_match && boundaries.size(d) == input.size(d);
  }
  OPSCOPE_CHECK(leading_match,
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                "dimensions of boundaries tensor and input value tensor must match, but we got "
                "boundaries tensor ", shape_str(boundaries.sizes()), " and input value tensor ",
                shape_str(input.sizes()));
}

// The search itself: result (input's shape, int64 or int32) of input's values among boundaries'
// innermost rows, in their common dtype.
Tensor search(const Tensor& boundaries, const Tensor& input, const Tensor& out, bool out_int32,
              bool right, const Tensor& sorter) {
  const ScalarType common = promote_types(boundaries.dtype(), input.dtype());
  Tensor b = contiguous_if_needed(cast_if_needed(boundaries, common));
  Tensor v = contiguous_if_needed(cast_if_needed(input, common));
  Tensor order = sorter.defined() ? contiguous_if_needed(sorter) : Tensor();
  const ScalarType index_dtype = out_int32 ? ScalarType::Int32 : ScalarType::Int64;
  Tensor result = out.defined() ? out : make_empty(input.sizes(), index_dtype, input.device());
  resize_output(result, input.sizes());
  Tensor dst = result.is_contiguous() ? result : make_empty(input.sizes(), index_dtype);
  const int64_t len = b.size(-1);
  const int64_t rows = b.dim() == 1 ? 1 : b.numel() / std::max<int64_t>(len, 1);
  const int64_t per_row = rows == 1 ? v.numel() : v.numel() / std::max<int64_t>(rows, 1);
  dispatch_dtype(common, "searchsorted_out_cpu", [&]<typename T>() {
    using A = acc_type_t<T>;
    const T* bd = b.data_ptr<const T>();
    const T* vd = v.data_ptr<const T>();
    const int64_t* sd = order.defined() ? order.data_ptr<const int64_t>() : nullptr;
    auto write = [&](int64_t i, int64_t pos) {
      if (index_dtype == ScalarType::Int64)
        dst.data_ptr<int64_t>()[i] = pos;
      else
        dst.data_ptr<int32_t>()[i] = static_cast<int32_t>(pos);
    };
    parallel_for(0, v.numel(), kGrainSize / 16, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        const int64_t row = rows == 1 ? 0 : i / per_row;
        const T* seq = bd + row * len;
        const int64_t* perm = sd ? sd + row * len : nullptr;
        auto at = [&](int64_t k) { return static_cast<A>(seq[perm ? perm[k] : k]); };
        const A x = static_cast<A>(vd[i]);
        int64_t first = 0, count = len;  // the first k with at(k) >= x (right: > x)
        while (count > 0) {
          const int64_t step = count / 2, k = first + step;
          const bool go_right = right ? !(at(k) > x) : !(at(k) >= x);
          if (go_right) {
            first = k + 1;
            count -= step + 1;
          } else {
            count = step;
          }
        }
        write(i, first);
      }
    });
  });
  if (!dst.is_same(result)) ops::copy_(result, dst);
  return result;
}

bool right_of(bool right, std::optional<std::string_view> side) {
  return right || (side && *side == "right");
}

}  // namespace

Tensor searchsorted_tensor_out(const Tensor& sorted_sequence, const Tensor& self, bool out_int32,
                               bool right, std::optional<std::string_view> side,
                               const Tensor& sorter, const Tensor& out) {
  check_searchsorted(sorted_sequence, self, out, out_int32, right, side, sorter);
  return search(sorted_sequence, self, out, out_int32, right_of(right, side), sorter);
}
Tensor searchsorted_tensor(const Tensor& sorted_sequence, const Tensor& self, bool out_int32,
                           bool right, std::optional<std::string_view> side, const Tensor& sorter) {
  return searchsorted_tensor_out(sorted_sequence, self, out_int32, right, side, sorter, Tensor());
}
Tensor searchsorted_scalar_out(const Tensor& sorted_sequence, const Scalar& self, bool out_int32,
                               bool right, std::optional<std::string_view> side,
                               const Tensor& sorter, const Tensor& out) {
  return searchsorted_tensor_out(sorted_sequence, wrapped_scalar_tensor(self), out_int32, right,
                                 side, sorter, out);
}
Tensor searchsorted_scalar(const Tensor& sorted_sequence, const Scalar& self, bool out_int32,
                           bool right, std::optional<std::string_view> side, const Tensor& sorter) {
  return searchsorted_scalar_out(sorted_sequence, self, out_int32, right, side, sorter, Tensor());
}

// bucketize: searchsorted with the arguments swapped and 1-D boundaries
Tensor bucketize_tensor_out(const Tensor& self, const Tensor& boundaries, bool out_int32,
                            bool right, const Tensor& out) {
  OPSCOPE_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(",
                boundaries.dim(), ")");
  check_searchsorted(boundaries, self, out, out_int32, right, std::nullopt, Tensor());
  return search(boundaries, self, out, out_int32, right, Tensor());
}
Tensor bucketize_tensor(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  return bucketize_tensor_out(self, boundaries, out_int32, right, Tensor());
}
Tensor bucketize_scalar(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  return bucketize_tensor_out(wrapped_scalar_tensor(self), boundaries, out_int32, right, Tensor());
}
Tensor bucketize_scalar_out(const Scalar& self, const Tensor& boundaries, bool out_int32,
                            bool right, const Tensor& out) {
  return bucketize_tensor_out(wrapped_scalar_tensor(self), boundaries, out_int32, right, out);
}

// --- isin: elements [*s] -> bool [*s], whether each is among test_elements (invert: is not) ----
// Integers whose test values span a modest range: a table of the values that occur; else the
// test elements sorted once (NaN equal to nothing) and a binary search per element; in the common
// dtype. torch's kernel picks between a broadcast eq and a sort of both, with the same answer.
Tensor isin_out_impl(const Tensor& elements, const Tensor& test_elements, bool invert,
                     const Tensor& out) {
  const ScalarType common = promote_types(elements.dtype(), test_elements.dtype());
  Tensor e = contiguous_if_needed(cast_if_needed(elements, common));
  Tensor t = contiguous_if_needed(cast_if_needed(test_elements, common));
  Tensor result = out.defined() ? out : make_empty(elements.sizes(), ScalarType::Bool, elements.device());
  OPSCOPE_CHECK(result.dtype() == ScalarType::Bool, "isin: expected a bool out tensor, got ",
                cpp_name(result.dtype()));
  resize_output(result, elements.sizes());
  Tensor dst = result.is_contiguous() ? result : make_empty(elements.sizes(), ScalarType::Bool);
  dispatch_dtype(common, "isin_default_cpu", [&]<typename T>() {
    using A = acc_type_t<T>;
    const T* td = t.data_ptr<const T>();
    const T* ed = e.data_ptr<const T>();
    bool* out_data = dst.data_ptr<bool>();
    if constexpr (std::is_integral_v<T>) {
      // Integers over a modest range: a table of which values occur, one lookup per element
      // (NumPy's "table" kind); a binary search otherwise.
      if (t.numel() > 0) {
        const auto [lo, hi] = std::minmax_element(td, td + t.numel());
        const __int128 span = static_cast<__int128>(*hi) - static_cast<__int128>(*lo) + 1;
        if (span <= std::max<__int128>(int64_t(1) << 20, 4 * static_cast<__int128>(e.numel()))) {
          const int64_t base = static_cast<int64_t>(*lo);
          std::vector<uint8_t> table(static_cast<size_t>(span), 0);
          for (int64_t k = 0; k < t.numel(); ++k) table[static_cast<size_t>(td[k] - base)] = 1;
          parallel_for(0, e.numel(), kGrainSize, [&](int64_t lo_i, int64_t hi_i) {
            for (int64_t i = lo_i; i < hi_i; ++i) {
              const __int128 at = static_cast<__int128>(ed[i]) - base;
              const bool found = at >= 0 && at < span && table[static_cast<size_t>(at)];
              out_data[i] = found != invert;
            }
          });
          return;
        }
      }
    }
    std::vector<A> pool;
    pool.reserve(static_cast<size_t>(t.numel()));
    for (int64_t k = 0; k < t.numel(); ++k)
      if (static_cast<A>(td[k]) == static_cast<A>(td[k])) pool.push_back(static_cast<A>(td[k]));
    std::sort(pool.begin(), pool.end());
    parallel_for(0, e.numel(), kGrainSize / 16, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) {
        const A x = static_cast<A>(ed[i]);
        const bool found = x == x && std::binary_search(pool.begin(), pool.end(), x);
        out_data[i] = found != invert;
      }
    });
  });
  if (!dst.is_same(result)) ops::copy_(result, dst);
  return result;
}
Tensor isin_tensor_tensor(const Tensor& elements, const Tensor& test_elements, bool,
                          bool invert) {
  return isin_out_impl(elements, test_elements, invert, Tensor());
}
Tensor isin_tensor_tensor_out(const Tensor& elements, const Tensor& test_elements, bool,
                              bool invert, const Tensor& out) {
  return isin_out_impl(elements, test_elements, invert, out);
}
Tensor isin_tensor_scalar(const Tensor& elements, const Scalar& test_element, bool, bool invert) {
  return isin_out_impl(elements, wrapped_scalar_tensor(test_element), invert, Tensor());
}
Tensor isin_tensor_scalar_out(const Tensor& elements, const Scalar& test_element, bool,
                              bool invert, const Tensor& out) {
  return isin_out_impl(elements, wrapped_scalar_tensor(test_element), invert, out);
}
Tensor isin_scalar_tensor(const Scalar& element, const Tensor& test_elements, bool,
                          bool invert) {
  return isin_out_impl(wrapped_scalar_tensor(element), test_elements, invert, Tensor());
}
Tensor isin_scalar_tensor_out(const Scalar& element, const Tensor& test_elements, bool,
                              bool invert, const Tensor& out) {
  return isin_out_impl(wrapped_scalar_tensor(element), test_elements, invert, out);
}

static Library cpu_bucketize(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("searchsorted.Tensor", fn<&searchsorted_tensor>);
  m.impl("searchsorted.Tensor_out", fn<&searchsorted_tensor_out>);
  m.impl("searchsorted.Scalar", fn<&searchsorted_scalar>);
  m.impl("searchsorted.Scalar_out", fn<&searchsorted_scalar_out>);
  m.impl("bucketize.Tensor", fn<&bucketize_tensor>);
  m.impl("bucketize.Tensor_out", fn<&bucketize_tensor_out>);
  m.impl("bucketize.Scalar", fn<&bucketize_scalar>);
  m.impl("bucketize.Scalar_out", fn<&bucketize_scalar_out>);
  m.impl("isin.Tensor_Tensor", fn<&isin_tensor_tensor>);
  m.impl("isin.Tensor_Tensor_out", fn<&isin_tensor_tensor_out>);
  m.impl("isin.Tensor_Scalar", fn<&isin_tensor_scalar>);
  m.impl("isin.Tensor_Scalar_out", fn<&isin_tensor_scalar_out>);
  m.impl("isin.Scalar_Tensor", fn<&isin_scalar_tensor>);
  m.impl("isin.Scalar_Tensor_out", fn<&isin_scalar_tensor_out>);
});

}  // namespace opscope::cpu
