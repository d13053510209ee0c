// CPU kernels of the sorting family (declared and registered in core/ops/sorting.cpp; see
// core/ops/sorting.h).
//
// Every kernel works slice by slice: for_slices lists where each 1-D slice along `dim` starts,
// each slice is copied into a vector of (key, index) pairs, ordered with the standard algorithm
// torch 1.13 uses for the op, and written back. Keys of float16 / bfloat16 are floats (exact
// both ways). See Note [NaN orders last].
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/runtime/Parallel.h"

#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/factory_util.h"
#include "core/ops/factories.h"
#include "core/ops/sorting.h"
#include "core/ops/views.h"
#include "core/ops/TensorIterator.h"

namespace opscope::cpu {

namespace {

// Tensor::contiguous as torch's C++ API has it: self when already row-major (no op in the
// trace), else the contiguous op.
Tensor contiguous(const Tensor& t) {
  return t.is_contiguous() ? t : ops::contiguous(t);
}

// Note [NaN orders last]
// ~~~~~~~~~~~~~~~~~~~~~~
// torch's comparators put NaN above every number: ascending `(!nan(a) && nan(b)) || a < b`,
// descending `(nan(a) && !nan(b)) || a > b`. Both are strict weak orders (all NaNs equal), so
// std::sort / std::stable_sort / nth_element behave, and the same algorithm on the same
// sequence visits the same comparisons as torch's — ties come out in torch's order.
template <typename K>
bool is_nan(K x) {
  if constexpr (std::is_floating_point_v<K>) {
    return std::isnan(x);
  } else {
    return false;
  }
}

template <typename K>
struct Ascending {
  bool operator()(const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& b) const {
    return (!is_nan(a.first) && is_nan(b.first)) || (a.first < b.first);
  }
};
template <typename K>
struct Descending {
  bool operator()(const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& b) const {
    return (is_nan(a.first) && !is_nan(b.first)) || (a.first > b.first);
  }
};

// Note [Interruptible sorts]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// One std::sort of a 10^7-element slice is a second of work with no loop of ours to look for a
// Ctrl-C in (Note [Interrupting long ops], core/runtime/Interrupt.cpp). Cutting the slice into
// runs sorted and merged apart would change which of two equal keys comes first under
// stable=False (torch's order is std::sort's on the whole slice: Note [NaN orders last]), so
// slices of kWatchedSortLen elements or more are sorted by the same algorithm with a comparator
// that also looks at the flag: one relaxed load per comparison, lost in a comparison's branch
// misprediction, and only on slices long enough for it to matter.
constexpr int64_t kWatchedSortLen = int64_t(1) << 18;
constexpr int64_t kSortPiece = int64_t(1) << 16;  // elements copied between two looks

template <typename Cmp>
struct Watched {
  Cmp cmp;
  template <typename P>
  [[gnu::always_inline]] bool operator()(const P& a, const P& b) const {
    if (__builtin_expect(interrupt_requested(), 0)) check_interrupt();
    return cmp(a, b);
  }
};

// std::stable_sort or std::sort of [first, last) by cmp; see Note [Interruptible sorts].
template <typename It, typename Cmp>
void sort_range(It first, It last, bool stable, Cmp cmp) {
  if (last - first >= kWatchedSortLen) {
    if (stable)
      std::stable_sort(first, last, Watched<Cmp>{cmp});
    else
      std::sort(first, last, Watched<Cmp>{cmp});
  } else if (stable) {
    std::stable_sort(first, last, cmp);
  } else {
    std::sort(first, last, cmp);
  }
}

// The key a T is ordered by: float for float16 / bfloat16, T itself otherwise.
template <typename T>
using key_t = acc_type_t<T>;

// Element offsets of the first element of every 1-D slice of t along dim, in row-major order of
// the other dims. A 0-d tensor is one slice of one element.
std::vector<int64_t> for_slices(const Tensor& t, int64_t dim) {
  std::vector<int64_t> offsets;
  if (t.dim() == 0) return {0};
  DimVector sizes(t.sizes().begin(), t.sizes().end()),
      strides(t.strides().begin(), t.strides().end());
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  factory_util::for_each_offset(sizes, strides,
                                [&](int64_t, int64_t off) { offsets.push_back(off); });
  return offsets;
}

int64_t slice_len(const Tensor& t, int64_t dim) {
  return t.dim() == 0 ? 1 : t.size(dim);
}
int64_t slice_stride(const Tensor& t, int64_t dim) {
  return t.dim() == 0 ? 1 : t.stride(dim);
}

// The dtypes torch's kernel `name` lacks.
void check_not(ScalarType t, std::string_view name, std::initializer_list<ScalarType> missing) {
  for (ScalarType m : missing)
    OPSCOPE_CHECK(t != m, "\"", name, "\" not implemented for '", cpp_name(t), "'");
}

// Runs f(slice_index, in_offset, values_offset, indices_offset) over the slices of self along
// dim, split between threads by about kGrainSize elements of work.
template <typename F>
void parallel_slices(const Tensor& self, const Tensor& values, const Tensor& indices, int64_t dim,
                     int64_t work_per_slice, F&& f) {
  std::vector<int64_t> in = for_slices(self, dim), vo = for_slices(values, dim),
                       io = for_slices(indices, dim);
  auto n = static_cast<int64_t>(in.size());
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(work_per_slice, 1));
  parallel_for(0, n, grain, [&](int64_t first, int64_t last) {
    for (int64_t s = first; s < last; ++s) {
      auto u = static_cast<size_t>(s);
      f(in[u], vo[u], io[u]);
    }
  });
}

// values, indices (self's shape) <- self sorted along dim
void sort_into(const Tensor& self, int64_t dim, bool descending, bool stable, const Tensor& values,
               const Tensor& indices) {
  if (self.numel() == 0) return;
  int64_t n = slice_len(self, dim);
  int64_t ss = slice_stride(self, dim), vs = slice_stride(values, dim),
          is = slice_stride(indices, dim);
  dispatch_dtype(self.dtype(), "sort", [&]<typename T>() {
    using K = key_t<T>;
    const T* src = self.data_ptr<const T>();
    T* vdst = values.data_ptr<T>();
    int64_t* idst = indices.data_ptr<int64_t>();
    parallel_slices(self, values, indices, dim, n, [&](int64_t io_, int64_t vo_, int64_t ii_) {
      // Filled and written back in pieces with a look for Ctrl-C between them: a long slice's
      // buffer is page-faulted in here, which takes as long as the sort on a busy machine.
      std::vector<std::pair<K, int64_t>> buf;
      buf.reserve(static_cast<size_t>(n));
      for (int64_t j0 = 0; j0 < n; j0 += kSortPiece) {
        check_interrupt();
        for (int64_t j = j0, j1 = std::min(n, j0 + kSortPiece); j < j1; ++j)
          buf.emplace_back(static_cast<K>(src[io_ + j * ss]), j);
      }
      if (descending)
        sort_range(buf.begin(), buf.end(), stable, Descending<K>());
      else
        sort_range(buf.begin(), buf.end(), stable, Ascending<K>());
      for (int64_t j0 = 0; j0 < n; j0 += kSortPiece) {
        check_interrupt();
        for (int64_t j = j0, j1 = std::min(n, j0 + kSortPiece); j < j1; ++j) {
          vdst[vo_ + j * vs] = static_cast<T>(buf[static_cast<size_t>(j)].first);
          idst[ii_ + j * is] = buf[static_cast<size_t>(j)].second;
        }
      }
    });
  });
}

// Moves the (k+1)-th smallest pair (NaN largest) to q[k], as torch's quick_select_template
// (median-of-three Hoare partitioning), so that ties pick the index torch picks.
template <typename K>
void quick_select(std::vector<std::pair<K, int64_t>>& q, int64_t k) {
  auto gt = [](K x, K y) { return (is_nan(x) && !is_nan(y)) || (x > y); };
  auto at = [&](int64_t i) -> std::pair<K, int64_t>& { return q[static_cast<size_t>(i)]; };
  auto swap = [&](int64_t i, int64_t j) { std::swap(at(i), at(j)); };
  int64_t L = 0, R = static_cast<int64_t>(q.size()) - 1;
  while (true) {
    if (R <= L) return;
    if (R == L + 1) {
      if (gt(at(L).first, at(R).first)) swap(L, R);
      return;
    }
    int64_t P = L + (R - L) / 2;
    swap(P, L + 1);
    if (gt(at(L + 1).first, at(R).first)) swap(L + 1, R);
    if (gt(at(L).first, at(R).first)) swap(L, R);
    if (gt(at(L + 1).first, at(L).first)) swap(L + 1, L);
    int64_t i = L + 1, j = R;
    K piv = at(L).first;
    while (true) {
      do ++i;
      while (gt(piv, at(i).first));
      do --j;
      while (gt(at(j).first, piv));
      if (j < i) break;
      swap(i, j);
    }
    swap(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
}

DimVector sizes_with(const Tensor& self, int64_t dim, int64_t n) {
  DimVector s(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) s[static_cast<size_t>(dim)] = n;
  return s;
}

}  // namespace

// --- sort ----------------------------------------------------------------------------------------

// (.., n, ..) -> values, indices (.., n, ..)
ops::TensorPair sort_values_stable(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                   bool descending, const Tensor& values, const Tensor& indices) {
  int64_t d = wrap_dim(dim, self.dim());
  checks::out_dtype(values, self.dtype());
  checks::out_dtype(indices, ScalarType::Int64);
  checks::no_overlap(values, indices);
  resize_output(values, self.sizes());
  resize_output(indices, self.sizes());
  sort_into(self, d, descending, stable.value_or(false), values, indices);
  return {values, indices};
}

ops::TensorPair sort_stable(const Tensor& self, std::optional<bool> stable, int64_t dim,
                            bool descending) {
  Tensor values = make_empty(self.sizes(), self.dtype(), self.device());
  Tensor indices = make_empty(self.sizes(), ScalarType::Int64, self.device());
  return sort_values_stable(self, stable, dim, descending, values, indices);
}

Tensor argsort_stable(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(ops::sort(self, std::optional<bool>(stable), dim, descending));
}

// --- topk / kthvalue -----------------------------------------------------------------------------

// (.., n, ..) -> (.., k, ..), as torch's topk_impl_loop: partial_sort when k * 64 <= n, else
// nth_element (+ sort of the first k - 1 when sorted).
ops::TensorPair topk_values(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted,
                            const Tensor& values, const Tensor& indices) {
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = slice_len(self, d);
  OPSCOPE_CHECK(k >= 0 && k <= n, "selected index k out of range");
  checks::out_dtype(values, self.dtype());
  checks::out_dtype(indices, ScalarType::Int64);
  DimVector out_sizes = sizes_with(self, d, k);
  resize_output(values, out_sizes);
  resize_output(indices, out_sizes);
  check_not(self.dtype(), "topk_cpu", {ScalarType::Bool, ScalarType::Float16});
  if (self.numel() == 0 || k == 0) return {values, indices};
  int64_t ss = slice_stride(self, d), vs = slice_stride(values, d), is = slice_stride(indices, d);
  dispatch_dtype(self.dtype(), "topk_cpu", [&]<typename T>() {
    using K = key_t<T>;
    const T* src = self.data_ptr<const T>();
    T* vdst = values.data_ptr<T>();
    int64_t* idst = indices.data_ptr<int64_t>();
    parallel_slices(self, values, indices, d, n, [&](int64_t io_, int64_t vo_, int64_t ii_) {
      std::vector<std::pair<K, int64_t>> q(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j)
        q[static_cast<size_t>(j)] = {static_cast<K>(src[io_ + j * ss]), j};
      auto run = [&](auto comp) {
        if (k * 64 <= n) {
          std::partial_sort(q.begin(), q.begin() + k, q.end(), comp);
        } else {
          std::nth_element(q.begin(), q.begin() + k - 1, q.end(), comp);
          if (sorted) std::sort(q.begin(), q.begin() + k - 1, comp);
        }
      };
      if (largest)
        run(Descending<K>());
      else
        run(Ascending<K>());
      for (int64_t j = 0; j < k; ++j) {
        vdst[vo_ + j * vs] = static_cast<T>(q[static_cast<size_t>(j)].first);
        idst[ii_ + j * is] = q[static_cast<size_t>(j)].second;
      }
    });
  });
  return {values, indices};
}

ops::TensorPair topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  Tensor values = make_empty({0}, self.dtype(), self.device());
  Tensor indices = make_empty({0}, ScalarType::Int64, self.device());
  return topk_values(self, k, dim, largest, sorted, values, indices);
}

namespace {

// One element per slice of self along d, chosen by pick(q) from the slice's (value, index)
// pairs, written to values / indices, sized (.., 1, ..) and then squeezed unless keepdim: the
// kernels of kthvalue and median.
template <typename Pick>
ops::TensorPair select_per_slice(const Tensor& self, int64_t d, bool keepdim, const Tensor& values,
                                 const Tensor& indices, const char* name, const Pick& pick) {
  const int64_t n = slice_len(self, d);
  checks::out_dtype(values, self.dtype());
  checks::out_dtype(indices, ScalarType::Int64);
  DimVector keep = sizes_with(self, d, 1);
  resize_output(values, keep);
  resize_output(indices, keep);
  check_not(self.dtype(), name, {ScalarType::Bool, ScalarType::Float16});
  if (self.numel() > 0) {
    int64_t ss = slice_stride(self, d);
    dispatch_dtype(self.dtype(), name, [&]<typename T>() {
      using K = key_t<T>;
      const T* src = self.data_ptr<const T>();
      T* vdst = values.data_ptr<T>();
      int64_t* idst = indices.data_ptr<int64_t>();
      parallel_slices(self, values, indices, d, n, [&](int64_t io_, int64_t vo_, int64_t ii_) {
        std::vector<std::pair<K, int64_t>> q(static_cast<size_t>(n));
        for (int64_t j = 0; j < n; ++j)
          q[static_cast<size_t>(j)] = {static_cast<K>(src[io_ + j * ss]), j};
        const std::pair<K, int64_t> chosen = pick(q);
        vdst[vo_] = static_cast<T>(chosen.first);
        idst[ii_] = chosen.second;
      });
    });
  }
  if (!keepdim && self.dim() > 0) {
    for (const Tensor* t : {&values, &indices}) {  // squeeze dim d away
      DimVector sz(t->sizes().begin(), t->sizes().end()),
          st(t->strides().begin(), t->strides().end());
      sz.erase(sz.begin() + d);
      st.erase(st.begin() + d);
      (*t)->set_geometry(sz, st, (*t)->storage_offset());
    }
  }
  return {values, indices};
}

}  // namespace

// (.., n, ..) -> (.., ..) (keepdim: (.., 1, ..)): the k-th smallest, NaN largest
ops::TensorPair kthvalue_values(const Tensor& self, int64_t k, int64_t dim, bool keepdim,
                                const Tensor& values, const Tensor& indices) {
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = slice_len(self, d);
  if (self.numel() == 0)
    OPSCOPE_CHECK_INDEX(self.dim() == 0 || self.size(d) != 0, "kthvalue(): Expected reduction dim ",
                        d, " to have non-zero size.");
  OPSCOPE_CHECK(k >= 1 && k <= n, "kthvalue(): selected number k out of range for dimension ", d);
  return select_per_slice(self, d, keepdim, values, indices, "kthvalue_cpu", [k](auto& q) {
    quick_select(q, k - 1);
    return q[static_cast<size_t>(k - 1)];
  });
}

// --- median / nanmedian --------------------------------------------------------------------------

namespace {

// The lower median of one slice's n values and its index, as torch's median kernels: a slice with
// a NaN gives its first NaN (median; nanmedian leaves the NaNs out and gives NaN, index 0, only
// for a slice of NaNs); else the ((m - 1) / 2)-th smallest of its m numbers.
template <bool IgnoreNan, typename K>
std::pair<K, int64_t> median_of(std::vector<std::pair<K, int64_t>>& q) {
  int64_t m = static_cast<int64_t>(q.size());
  if constexpr (!IgnoreNan) {
    for (const auto& e : q)
      if (is_nan(e.first)) return e;
  } else {
    m = std::count_if(q.begin(), q.end(), [](const auto& e) { return !is_nan(e.first); });
    if (m == 0) return {q.front().first, 0};
  }
  quick_select(q, (m - 1) / 2);  // NaN sorts last, so the numbers come first
  return q[static_cast<size_t>((m - 1) / 2)];
}

template <bool IgnoreNan>
ops::TensorPair median_dim_impl(const Tensor& self, int64_t dim, bool keepdim,
                                const Tensor& values, const Tensor& indices) {
  int64_t d = wrap_dim(dim, self.dim());
  OPSCOPE_CHECK_INDEX(self.dim() == 0 || self.size(d) != 0, "median(): Expected reduction dim ", d,
                      " to have non-zero size.");
  return select_per_slice(self, d, keepdim, values, indices, "median_out",
                          [](auto& q) { return median_of<IgnoreNan>(q); });
}

// [*s] -> 0-d: the lower median of all elements (NaN for none, as torch)
template <bool IgnoreNan>
Tensor median_all_impl(const Tensor& self, const Tensor& out) {
  check_not(self.dtype(), "median_cpu", {ScalarType::Bool, ScalarType::Float16});
  Tensor result = out.defined() ? out : make_empty({}, self.dtype(), self.device());
  checks::out_dtype(result, self.dtype());
  resize_output(result, {});
  dispatch_dtype(self.dtype(), "median_cpu", [&]<typename T>() {
    using K = key_t<T>;
    T* dst = result.data_ptr<T>();
    if (self.numel() == 0) {
      *dst = static_cast<T>(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    const T* src = self.data_ptr<const T>();
    std::vector<std::pair<K, int64_t>> q;
    q.reserve(static_cast<size_t>(self.numel()));
    factory_util::for_each_offset(self.sizes(), self.strides(), [&](int64_t i, int64_t off) {
      q.emplace_back(static_cast<K>(src[off]), i);
    });
    *dst = static_cast<T>(median_of<IgnoreNan>(q).first);
  });
  return result;
}

}  // namespace

ops::TensorPair median_dim_values(const Tensor& self, int64_t dim, bool keepdim,
                                  const Tensor& values, const Tensor& indices) {
  return median_dim_impl<false>(self, dim, keepdim, values, indices);
}
ops::TensorPair nanmedian_dim_values(const Tensor& self, int64_t dim, bool keepdim,
                                     const Tensor& values, const Tensor& indices) {
  return median_dim_impl<true>(self, dim, keepdim, values, indices);
}
Tensor median(const Tensor& self) {
  return median_all_impl<false>(self, Tensor());
}
Tensor median_out(const Tensor& self, const Tensor& out) {
  return median_all_impl<false>(self, out);
}
Tensor nanmedian(const Tensor& self) {
  return median_all_impl<true>(self, Tensor());
}
Tensor nanmedian_out(const Tensor& self, const Tensor& out) {
  return median_all_impl<true>(self, out);
}

// --- unique --------------------------------------------------------------------------------------

namespace {

// torch's unique_cpu_template: a hash set of the elements (its iteration order when not
// sorted), then hash maps for inverse and counts, filled when either is asked for.
template <typename T, typename Key = T, typename Hash = std::hash<Key>>
ops::TensorTriple unique_hashed(const Tensor& self, bool sorted, bool return_inverse,
                                bool return_counts) {
  static_assert(sizeof(Key) == sizeof(T), "a key is its element, reinterpreted");
  Tensor input = contiguous(self);
  const Key* data = reinterpret_cast<const Key*>(input.data_ptr<const T>());
  int64_t numel = input.numel();
  std::unordered_set<Key, Hash> set(data, data + numel);
  std::vector<Key> uniq(set.begin(), set.end());
  // bool: torch's own template, always in order (false, true).
  if (sorted || std::is_same_v<T, bool>) std::sort(uniq.begin(), uniq.end());
  auto m = static_cast<int64_t>(uniq.size());
  Tensor output = make_empty({m}, self.dtype(), self.device());
  std::copy(uniq.begin(), uniq.end(), reinterpret_cast<Key*>(output.data_ptr<T>()));
  Tensor inverse = make_empty({0}, ScalarType::Int64, self.device());
  Tensor counts = make_empty({0}, ScalarType::Int64, self.device());
  if (return_inverse || return_counts) {
    inverse = make_empty(self.sizes(), ScalarType::Int64, self.device());
    int64_t* inv = inverse.data_ptr<int64_t>();
    std::unordered_map<Key, int64_t, Hash> position;
    position.reserve(uniq.size());
    for (int64_t i = 0; i < m; ++i) position[uniq[static_cast<size_t>(i)]] = i;
    for (int64_t i = 0; i < numel; ++i) inv[i] = position[data[i]];
    if (return_counts) {
      std::unordered_map<Key, int64_t, Hash> count;
      count.reserve(uniq.size());
      for (const Key& v : uniq) count[v] = 0;
      for (int64_t i = 0; i < numel; ++i) count[data[i]] += 1;
      counts = make_empty({m}, ScalarType::Int64, self.device());
      int64_t* c = counts.data_ptr<int64_t>();
      for (int64_t i = 0; i < m; ++i) c[i] = count[uniq[static_cast<size_t>(i)]];
    }
  }
  return {output, inverse, counts};
}

// bfloat16 as a hash-set key: equal as floats (NaN unequal to itself, -0 == 0), hashed by its
// bits as c10's std::hash<BFloat16> does, so that the set's order is torch's.
struct BF16Key {
  BFloat16 v;
  bool operator==(const BF16Key& o) const {
    return static_cast<float>(v) == static_cast<float>(o.v);
  }
  bool operator<(const BF16Key& o) const { return static_cast<float>(v) < static_cast<float>(o.v); }
};
struct BF16Hash {
  size_t operator()(const BF16Key& k) const { return std::hash<uint16_t>()(k.v.x); }
};

}  // namespace

// self (any) -> distinct (m), inverse (self's shape) or (0), counts (m) or (0)
ops::TensorTriple _unique2(const Tensor& self, bool sorted, bool return_inverse,
                           bool return_counts) {
  ScalarType t = self.dtype();
  check_not(t, "unique", {ScalarType::Float16});
  if (t == ScalarType::BFloat16)
    return unique_hashed<BFloat16, BF16Key, BF16Hash>(self, sorted, return_inverse, return_counts);
  return dispatch_dtype(t, "unique", [&]<typename T>() -> ops::TensorTriple {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      throw Error("unreachable");
    } else {
      return unique_hashed<T>(self, sorted, return_inverse, return_counts);
    }
  });
}

ops::TensorPair _unique(const Tensor& self, bool sorted, bool return_inverse) {
  auto [o, i, c] = _unique2(self, sorted, return_inverse, false);
  if (!return_inverse) i = make_empty({0}, ScalarType::Int64, self.device());
  return {o, i};
}

namespace {

// self moved so that dim comes first and flattened to rows: (n, rest), contiguous.
Tensor as_rows(const Tensor& self, int64_t dim) {
  Tensor moved = contiguous(ops::movedim(self, dim, 0));
  return ops::reshape(moved,
                      {self.size(dim), moved.numel() / std::max<int64_t>(self.size(dim), 1)});
}

// rows (n, r) picked by `keep` (row indices), reshaped back to self's layout with dim of size m.
Tensor gather_rows(const Tensor& self, int64_t dim, const Tensor& rows,
                   const std::vector<int64_t>& keep) {
  auto m = static_cast<int64_t>(keep.size());
  int64_t r = rows.dim() > 1 ? rows.size(1) : 0;
  Tensor out = make_empty({m, r}, self.dtype(), self.device());
  size_t bytes = static_cast<size_t>(r) * element_size(self.dtype());
  const char* src = static_cast<const char*>(rows.data());
  char* dst = static_cast<char*>(out.data());
  for (int64_t i = 0; i < m; ++i)
    if (bytes) std::memcpy(dst + i * bytes, src + keep[static_cast<size_t>(i)] * bytes, bytes);
  DimVector moved_sizes;
  moved_sizes.push_back(m);
  for (int64_t d = 0; d < self.dim(); ++d)
    if (d != dim) moved_sizes.push_back(self.size(d));
  return contiguous(ops::movedim(ops::view(out, moved_sizes), 0, dim));
}

// Rows i, j of a (n, r) contiguous tensor compared element by element.
template <typename T>
struct RowCompare {
  const T* data;
  int64_t r;
  bool less(int64_t i, int64_t j) const {
    return std::lexicographical_compare(data + i * r, data + (i + 1) * r, data + j * r,
                                        data + (j + 1) * r);
  }
  bool equal(int64_t i, int64_t j) const {
    return std::equal(data + i * r, data + (i + 1) * r, data + j * r);
  }
};

// Distinct rows (consecutive only, or all after a lexicographic sort) with inverse and counts.
ops::TensorTriple unique_rows(const Tensor& self, int64_t dim, bool consecutive,
                              bool return_inverse, bool return_counts) {
  int64_t n = self.size(dim);
  Tensor rows = as_rows(self, dim);
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> keep, counts_v, inverse_v(static_cast<size_t>(n));
  dispatch_dtype(self.dtype(), "unique_dim", [&]<typename T>() {
    RowCompare<T> cmp{rows.data_ptr<const T>(), rows.size(1)};
    if (!consecutive)
      std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cmp.less(a, b); });
    for (int64_t i = 0; i < n; ++i) {
      int64_t row = order[static_cast<size_t>(i)];
      if (keep.empty() || !cmp.equal(keep.back(), row)) {
        keep.push_back(row);
        counts_v.push_back(0);
      }
      counts_v.back() += 1;
      inverse_v[static_cast<size_t>(row)] = static_cast<int64_t>(keep.size()) - 1;
    }
  });
  Tensor output = gather_rows(self, dim, rows, keep);
  Tensor inverse = make_empty({return_inverse ? n : 0}, ScalarType::Int64, self.device());
  if (return_inverse) std::copy(inverse_v.begin(), inverse_v.end(), inverse.data_ptr<int64_t>());
  auto m = static_cast<int64_t>(counts_v.size());
  Tensor counts = make_empty({return_counts ? m : 0}, ScalarType::Int64, self.device());
  if (return_counts) std::copy(counts_v.begin(), counts_v.end(), counts.data_ptr<int64_t>());
  return {output, inverse, counts};
}

}  // namespace

// (.., n, ..) -> distinct slices along dim, in lexicographic order
ops::TensorTriple unique_dim(const Tensor& self, int64_t dim, bool /*sorted*/, bool return_inverse,
                             bool return_counts) {
  int64_t d = wrap_dim(dim, self.dim());
  check_not(self.dtype(), "unique_dim", {ScalarType::Float16});
  if (self.numel() == 0) {
    int64_t zero_dims = std::ranges::count(self.sizes(), 0);
    OPSCOPE_CHECK(zero_dims == 1,
                  "Number of zero sized dimensions is more than one, so unique cannot be applied ");
    OPSCOPE_CHECK(self.size(d) == 0,
                  "There are 0 sized dimensions, and they aren't selected, so unique cannot be "
                  "applied");
    return {ops::empty(self.sizes(), self.dtype(), {}, self.device()),
            make_empty({0}, ScalarType::Int64, self.device()),
            make_empty({0}, ScalarType::Int64, self.device())};
  }
  return unique_rows(self, d, false, return_inverse, return_counts);
}

// runs of equal consecutive elements (or slices along dim) -> one each
ops::TensorTriple unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts,
                                     std::optional<int64_t> dim) {
  if (dim && !(self.dim() == 1 && wrap_dim(*dim, 1) == 0)) {
    int64_t d = wrap_dim(*dim, self.dim());
    check_not(self.dtype(), "unique_dim", {ScalarType::Float16});
    if (self.size(d) == 0)
      return {ops::empty(self.sizes(), self.dtype(), {}, self.device()),
              make_empty({0}, ScalarType::Int64, self.device()),
              make_empty({0}, ScalarType::Int64, self.device())};
    return unique_rows(self, d, true, return_inverse, return_counts);
  }
  check_not(self.dtype(), "unique", {ScalarType::Float16});
  Tensor input = contiguous(self);
  int64_t numel = input.numel();
  const std::vector<int64_t> empty_shape{0};
  Tensor inverse = make_empty(return_inverse ? self.sizes() : IntArrayRef(empty_shape),
                              ScalarType::Int64, self.device());
  // Written in place into tensors of numel elements, then shrunk to m (torch's resize_).
  Tensor output = make_empty({numel}, self.dtype(), self.device());
  Tensor counts = make_empty({return_counts ? numel : 0}, ScalarType::Int64, self.device());
  int64_t m = 0;
  dispatch_dtype(self.dtype(), "unique", [&]<typename T>() {
    const T* data = input.data_ptr<const T>();
    T* out = output.data_ptr<T>();
    int64_t* inv = return_inverse ? inverse.data_ptr<int64_t>() : nullptr;
    int64_t* cnt = return_counts ? counts.data_ptr<int64_t>() : nullptr;
    int64_t last = 0;
    for (int64_t i = 0; i < numel; ++i) {
      // `!=` as torch: every NaN starts a new run.
      if (m == 0 || data[i] != out[m - 1]) {
        if (cnt && m > 0) cnt[m - 1] = i - last;
        last = i;
        out[m++] = data[i];
      }
      if (inv) inv[i] = m - 1;
    }
    if (cnt && m > 0) cnt[m - 1] = numel - last;
  });
  const std::vector<int64_t> result_shape{m};
  output->set_geometry(result_shape, std::vector<int64_t>{1}, 0);
  if (return_counts) counts->set_geometry(result_shape, std::vector<int64_t>{1}, 0);
  return {output, inverse, counts};
}

static Library cpu_sorting(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("sort.stable", fn<&sort_stable>);
  m.impl("sort.values_stable", fn<&sort_values_stable>);
  m.impl("argsort.stable", fn<&argsort_stable>);
  m.impl("topk", fn<&topk>);
  m.impl("topk.values", fn<&topk_values>);
  m.impl("kthvalue.values", fn<&kthvalue_values>);
  m.impl("median", fn<&median>);
  m.impl("median.out", fn<&median_out>);
  m.impl("median.dim_values", fn<&median_dim_values>);
  m.impl("nanmedian", fn<&nanmedian>);
  m.impl("nanmedian.out", fn<&nanmedian_out>);
  m.impl("nanmedian.dim_values", fn<&nanmedian_dim_values>);
  m.impl("_unique2", fn<&_unique2>);
  m.impl("_unique", fn<&_unique>);
  m.impl("unique_dim", fn<&unique_dim>);
  m.impl("unique_consecutive", fn<&unique_consecutive>);
});

}  // namespace opscope::cpu
