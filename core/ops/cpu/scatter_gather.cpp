// CPU kernels of gather and the scatter family (scatter_, scatter, scatter_add_, scatter_add,
// and the reduce= forms), see core/ops/indexing.h.
//
// Index values must lie in [0, size) — no negative indices here, unlike index_select (torch).
// Both walk the index tensor: every index position p = (p0, .., pn-1) names self's element
// at p with p[dim] replaced by index[p]. The walk runs over the index's dims other than `dim`
// ("lines", split over threads) and, inside a line, along `dim`. Two lines never touch the same
// element of self (they differ in a coordinate other than dim), so parallel scatters are safe;
// one line (a 1-D problem) is split too, except when it reduces (repeated indices add up).
#include <algorithm>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/KernelForms.h"
#include "core/ops/cpu/index_util.h"
#include "core/ops/indexing.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

using namespace index_util;

namespace {

enum class Reduce { None, Add, Multiply };

Reduce parse_reduce(std::string_view reduce) {
  if (reduce == "add") return Reduce::Add;
  if (reduce == "multiply") return Reduce::Multiply;
  throw Error("reduce argument must be either add or multiply.");
}

// The geometry of one gather / scatter: sizes of the index with `dim` taken out (the lines),
// each operand's strides over them, and the strides along dim.
struct Lines {
  DimVector sizes;
  DimVector self_st, index_st, other_st;
  int64_t self_dim_stride = 0, index_dim_stride = 0, other_dim_stride = 0;
  int64_t line_len = 1;   // index.size(dim)
  int64_t self_size = 1;  // self.size(dim): the range of index values
};

// 0-d tensors count as 1-D of size 1 (torch's ensure_nonempty_dim).
int64_t size_at(const Tensor& t, int64_t d) {
  return t.dim() == 0 ? 1 : t.sizes()[static_cast<size_t>(d)];
}
int64_t stride_at(const Tensor& t, int64_t d) {
  return t.dim() == 0 ? 0 : t.strides()[static_cast<size_t>(d)];
}

Lines make_lines(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& other) {
  Lines l;
  int64_t nd = std::max<int64_t>(index.dim(), 1);
  for (int64_t d = 0; d < nd; ++d) {
    if (d == dim) continue;
    l.sizes.push_back(size_at(index, d));
    l.self_st.push_back(stride_at(self, d));
    l.index_st.push_back(stride_at(index, d));
    l.other_st.push_back(other.defined() ? stride_at(other, d) : 0);
  }
  l.self_dim_stride = stride_at(self, dim);
  l.index_dim_stride = stride_at(index, dim);
  l.other_dim_stride = other.defined() ? stride_at(other, dim) : 0;
  l.line_len = size_at(index, dim);
  l.self_size = size_at(self, dim);
  return l;
}

// Runs f(self_off, index_off, other_off, j_begin, j_end) over lines and positions within them,
// in parallel where safe.
template <typename F>
void for_each_line(const Lines& l, bool serial_within_line, F&& f) {
  int64_t nlines = compute_numel(l.sizes);
  if (nlines == 0 || l.line_len == 0) return;
  if (nlines == 1) {
    auto run = [&](int64_t lo, int64_t hi) { f(int64_t(0), int64_t(0), int64_t(0), lo, hi); };
    if (serial_within_line)
      run(0, l.line_len);
    else
      parallel_for(0, l.line_len, kGrainSize, run);
    return;
  }
  int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(l.line_len, 1));
  parallel_for(0, nlines, grain, [&](int64_t lo, int64_t hi) {
    walk<3>(l.sizes, {IntArrayRef(l.self_st), IntArrayRef(l.index_st), IntArrayRef(l.other_st)}, lo,
            hi, [&](const int64_t* off) { f(off[0], off[1], off[2], int64_t(0), l.line_len); });
  });
}

[[noreturn]] void throw_out_of_bounds(int64_t v, int64_t dim, int64_t size) {
  throw Error(
      detail::str("index ", v, " is out of bounds for dimension ", dim, " with size ", size));
}

// After a loop that only noted that some index was out of range: name the first one.
[[noreturn]] void report_first_bad(const int64_t* ip, int64_t stride, int64_t j0, int64_t j1,
                                   int64_t dim, int64_t size) {
  for (int64_t j = j0; j < j1; ++j) {
    int64_t k = ip[j * stride];
    if (k < 0 || k >= size) throw_out_of_bounds(k, dim, size);
  }
  throw_out_of_bounds(size, dim, size);
}

template <typename T>
T combine(Reduce r, T a, T b) {
  using A = acc_type_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return r == Reduce::Add ? (a || b) : (a && b);
  } else {
    return r == Reduce::Add ? static_cast<T>(static_cast<A>(a) + static_cast<A>(b))
                            : static_cast<T>(static_cast<A>(a) * static_cast<A>(b));
  }
}

// self[.., index[p], ..] (op)= src[p] (or the value when src is undefined).
Tensor scatter_impl(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                    const Scalar* value, Reduce reduce, const char* name) {
  dim = wrap_dim(dim, self.dim());
  checks::scatter_shapes(self, dim, index, src);
  if (index.numel() == 0) return self;
  Lines l = make_lines(self, dim, index, src);
  const int64_t* idx = index.data_ptr<int64_t>();
  dispatch_dtype(self.dtype(), name, [&]<typename T>() {
    T* out = self.data_ptr<T>();
    const T* s = src.defined() ? src.data_ptr<T>() : nullptr;
    T v = value ? checked_convert<T>(*value) : T();
    auto run = [&]<Reduce R>() {
      const int64_t size = l.self_size, sst = l.self_dim_stride, ist = l.index_dim_stride,
                    rst = s ? l.other_dim_stride : 0;
      for_each_line(l, R != Reduce::None,
                    [&](int64_t so, int64_t io, int64_t oo, int64_t j0, int64_t j1) {
                      const int64_t* ip = idx + io;
                      const T* sp = s ? s + oo : &v;
                      T* dp = out + so;
                      for (int64_t j = j0; j < j1; ++j) {
                        int64_t k = ip[j * ist];
                        if (static_cast<uint64_t>(k) >= static_cast<uint64_t>(size)) [[unlikely]]
                          throw_out_of_bounds(k, dim, size);
                        T x = sp[j * rst];
                        T& d = dp[k * sst];
                        if constexpr (R == Reduce::None)
                          d = x;
                        else
                          d = combine(R, d, x);
                      }
                    });
    };
    switch (reduce) {
      case Reduce::None:
        run.template operator()<Reduce::None>();
        break;
      case Reduce::Add:
        run.template operator()<Reduce::Add>();
        break;
      case Reduce::Multiply:
        run.template operator()<Reduce::Multiply>();
        break;
    }
  });
  return self;
}

}  // namespace

// out (*i) = self gathered along dim by index (*i)
Tensor gather_out(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/,
                  const Tensor& out) {
  dim = wrap_dim(dim, self.dim());
  checks::gather_shapes(self, dim, index);
  OPSCOPE_CHECK(out.dtype() == self.dtype(), "gather(): Expected out tensor to have dtype ",
                cpp_name(self.dtype()), ", but got ", cpp_name(out.dtype()), " instead");
  resize_output(out, index.sizes());
  if (index.numel() == 0) return out;
  Lines l = make_lines(self, dim, index, out);
  // make_lines put out's strides in `other`.
  const int64_t* idx = index.data_ptr<int64_t>();
  if (l.self_size == 0) throw_out_of_bounds(idx[0], dim, 0);  // nothing to read at all
  dispatch_width(self->itemsize(), [&]<typename W>() {
    const W* src = static_cast<const W*>(self.data());
    W* dst = static_cast<W*>(out.data());
    const int64_t size = l.self_size, sst = l.self_dim_stride;
    for_each_line(l, false, [&](int64_t so, int64_t io, int64_t oo, int64_t j0, int64_t j1) {
      const int64_t* ip = idx + io;
      const W* sp = src + so;
      W* op = dst + oo;
      bool bad = false;
      if (l.index_dim_stride == 1 && l.other_dim_stride == 1 && sst == 1) {  // rows along dim
        for (int64_t j = j0; j < j1; ++j) {
          int64_t k = ip[j];
          bad |= static_cast<uint64_t>(k) >= static_cast<uint64_t>(size);
          op[j] = sp[bad ? 0 : k];
        }
      } else {
        for (int64_t j = j0; j < j1; ++j) {
          int64_t k = ip[j * l.index_dim_stride];
          bad |= static_cast<uint64_t>(k) >= static_cast<uint64_t>(size);
          op[j * l.other_dim_stride] = sp[(bad ? 0 : k) * sst];
        }
      }
      if (bad) [[unlikely]]
        report_first_bad(ip, l.index_dim_stride, j0, j1, dim, size);
    });
  });
  return out;
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  Tensor out = make_empty(index.sizes(), self.dtype(), self.device());
  return cpu::gather_out(self, dim, index, sparse_grad, out);
}

// The scatter ops write into a copy of self (the functional form), self (in place) or out, each
// from one *_impl(out, self, ...) registered in its three forms (core/ops/KernelForms.h); out
// undefined means a new tensor.
Tensor scatter_src_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src) {
  return scatter_impl(destination(out, self), dim, index, src, nullptr, Reduce::None, "scatter_");
}
Tensor scatter_value_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                          const Scalar& value) {
  return scatter_impl(destination(out, self), dim, index, Tensor(), &value, Reduce::None,
                      "scatter_");
}
Tensor scatter_reduce_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& src, std::string_view reduce) {
  return scatter_impl(destination(out, self), dim, index, src, nullptr, parse_reduce(reduce),
                      "scatter_");
}
Tensor scatter_value_reduce_impl(const Tensor& out, const Tensor& self, int64_t dim,
                                 const Tensor& index, const Scalar& value,
                                 std::string_view reduce) {
  return scatter_impl(destination(out, self), dim, index, Tensor(), &value, parse_reduce(reduce),
                      "scatter_");
}
Tensor scatter_add_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src) {
  return scatter_impl(destination(out, self), dim, index, src, nullptr, Reduce::Add,
                      "scatter_add_");
}

static Library cpu_scatter_gather(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("gather", fn<&gather>);
  m.impl("gather.out", fn<&gather_out>);
  m.impl("scatter.src", functional<&scatter_src_impl>());
  m.impl("scatter_.src", inplace<&scatter_src_impl>());
  m.impl("scatter.src_out", out<&scatter_src_impl>());
  m.impl("scatter.value", functional<&scatter_value_impl>());
  m.impl("scatter_.value", inplace<&scatter_value_impl>());
  m.impl("scatter.value_out", out<&scatter_value_impl>());
  m.impl("scatter.reduce", functional<&scatter_reduce_impl>());
  m.impl("scatter_.reduce", inplace<&scatter_reduce_impl>());
  m.impl("scatter.reduce_out", out<&scatter_reduce_impl>());
  m.impl("scatter.value_reduce", functional<&scatter_value_reduce_impl>());
  m.impl("scatter_.value_reduce", inplace<&scatter_value_reduce_impl>());
  m.impl("scatter.value_reduce_out", out<&scatter_value_reduce_impl>());
  m.impl("scatter_add", functional<&scatter_add_impl>());
  m.impl("scatter_add_", inplace<&scatter_add_impl>());
  m.impl("scatter_add.out", out<&scatter_add_impl>());
});

}  // namespace opscope::cpu
