// The indexing family: schemas, their kernels' registrations, and the C++ entry points.
// Kernels: core/ops/cpu/indexing.cpp (index, _index_put_impl_, index_select, index_add,
// index_fill_, take, put_), core/ops/cpu/scatter_gather.cpp (gather, scatter*),
// core/ops/cpu/masked.cpp (nonzero, masked_fill_, masked_select, masked_scatter_) and
// core/ops/composite/indexing.cpp. See core/ops/indexing.h for what each op does.
//
// Keys are torch 1.13's: the kernels that touch elements are CPU; index_put_ / index_put,
// masked_fill, masked_scatter, put and index_fill (functional) are CompositeExplicitAutograd
// over the in-place CPU kernels (clone + op_, as torch's trace shows); nonzero_numpy and argwhere
// are CompositeImplicitAutograd over nonzero.
#include "core/ops/indexing.h"

#include "core/dispatch/Library.h"

namespace opscope {

// Defined in core/ops/cpu/indexing.cpp, scatter_gather.cpp and masked.cpp.
namespace cpu {
Tensor index(const Tensor& self, TensorList indices);
Tensor index_out(const Tensor& self, TensorList indices, const Tensor& out);
Tensor _index_put_impl_(const Tensor& self, TensorList indices, const Tensor& values,
                        bool accumulate, bool unsafe);
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor index_select_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out);
Tensor index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                  const Scalar& alpha);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha);
Tensor index_add_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                     const Scalar& alpha, const Tensor& out);
Tensor index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor index_fill_tensor_(const Tensor& self, int64_t dim, const Tensor& index,
                          const Tensor& value);
Tensor take(const Tensor& self, const Tensor& index);
Tensor take_out(const Tensor& self, const Tensor& index, const Tensor& out);
Tensor put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad);
Tensor gather_out(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad,
                  const Tensor& out);
Tensor scatter_src_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_value_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter_reduce_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       std::string_view reduce);
Tensor scatter_value_reduce_(const Tensor& self, int64_t dim, const Tensor& index,
                             const Scalar& value, std::string_view reduce);
Tensor scatter_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce);
Tensor scatter_value_reduce(const Tensor& self, int64_t dim, const Tensor& index,
                            const Scalar& value, std::string_view reduce);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_src_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       const Tensor& out);
Tensor scatter_value_out(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                         const Tensor& out);
Tensor scatter_reduce_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                          std::string_view reduce, const Tensor& out);
Tensor scatter_value_reduce_out(const Tensor& self, int64_t dim, const Tensor& index,
                                const Scalar& value, std::string_view reduce, const Tensor& out);
Tensor scatter_add_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       const Tensor& out);

Tensor nonzero(const Tensor& self);
Tensor nonzero_out(const Tensor& self, const Tensor& out);
Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor masked_fill_tensor_(const Tensor& self, const Tensor& mask, const Tensor& value);
Tensor masked_select(const Tensor& self, const Tensor& mask);
Tensor masked_select_out(const Tensor& self, const Tensor& mask, const Tensor& out);
Tensor masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source);
}  // namespace cpu

// Defined in core/ops/composite/indexing.cpp.
namespace composite {
Tensor index_put_(const Tensor& self, TensorList indices, const Tensor& values, bool accumulate);
Tensor index_put(const Tensor& self, TensorList indices, const Tensor& values, bool accumulate);
Tensor masked_fill_scalar(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor masked_fill_tensor(const Tensor& self, const Tensor& mask, const Tensor& value);
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);
Tensor index_fill_scalar(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor index_fill_tensor(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);
std::vector<Tensor> nonzero_numpy(const Tensor& self);
Tensor argwhere(const Tensor& self);
}  // namespace composite

static Library indexing_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kCPU = DispatchKey::CPU;
  constexpr DispatchKey kExplicit = DispatchKey::CompositeExplicitAutograd;
  constexpr DispatchKey kImplicit = DispatchKey::CompositeImplicitAutograd;
  constexpr Variants kFunction = Variants::Function;
  constexpr Variants kMethod = Variants::Method;
  constexpr Variants kBoth = Variants::FunctionAndMethod;

  // torch.index is not a Python function: t[...] reaches it (and opscope.ops.aten.index).
  m.def("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", Variants::None);
  m.impl("index.Tensor", kCPU, fn<&cpu::index>);
  m.def("index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  m.impl("index.Tensor_out", kCPU, fn<&cpu::index_out>);
  m.def(
      "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> "
      "Tensor(a!)",
      kBoth);
  m.impl("index_put_", kExplicit, fn<&composite::index_put_>);
  m.def(
      "index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor");
  m.impl("index_put", kExplicit, fn<&composite::index_put>);
  m.def(
      "_index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False, "
      "bool unsafe=False) -> Tensor(a!)",
      kFunction);
  m.impl("_index_put_impl_", kCPU, fn<&cpu::_index_put_impl_>);

  m.def("index_select(Tensor self, int dim, Tensor index) -> Tensor");
  m.impl("index_select", kCPU, fn<&cpu::index_select>);
  m.def("index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.impl("index_select.out", kCPU, fn<&cpu::index_select_out>);
  m.def(
      "index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> "
      "Tensor(a!)",
      kMethod);
  m.impl("index_add_", kCPU, fn<&cpu::index_add_>);
  m.def(
      "index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor");
  m.impl("index_add", kCPU, fn<&cpu::index_add>);
  m.def(
      "index_add.out(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("index_add.out", kCPU, fn<&cpu::index_add_out>);
  m.def(
      "index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
      kMethod);
  m.impl("index_fill_.int_Scalar", kCPU, fn<&cpu::index_fill_>);
  m.def(
      "index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)",
      kMethod);
  m.impl("index_fill_.int_Tensor", kCPU, fn<&cpu::index_fill_tensor_>);
  m.def("index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor");
  m.impl("index_fill.int_Scalar", kExplicit, fn<&composite::index_fill_scalar>);
  m.def("index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor");
  m.impl("index_fill.int_Tensor", kExplicit, fn<&composite::index_fill_tensor>);

  m.def("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor");
  m.impl("gather", kCPU, fn<&cpu::gather>);
  m.def(
      "gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) "
      "-> Tensor(a!)",
      kFunction);
  m.impl("gather.out", kCPU, fn<&cpu::gather_out>);

  m.def("scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor");
  m.impl("scatter.src", kCPU, fn<&cpu::scatter_src>);
  m.def("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor");
  m.impl("scatter.value", kCPU, fn<&cpu::scatter_value>);
  m.def("scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor");
  m.impl("scatter.reduce", kCPU, fn<&cpu::scatter_reduce>);
  m.def(
      "scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> "
      "Tensor");
  m.impl("scatter.value_reduce", kCPU, fn<&cpu::scatter_value_reduce>);
  m.def("scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", kMethod);
  m.impl("scatter_.src", kCPU, fn<&cpu::scatter_src_>);
  m.def("scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
        kMethod);
  m.impl("scatter_.value", kCPU, fn<&cpu::scatter_value_>);
  m.def(
      "scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> "
      "Tensor(a!)",
      kMethod);
  m.impl("scatter_.reduce", kCPU, fn<&cpu::scatter_reduce_>);
  m.def(
      "scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) "
      "-> Tensor(a!)",
      kMethod);
  m.impl("scatter_.value_reduce", kCPU, fn<&cpu::scatter_value_reduce_>);
  m.def(
      "scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("scatter.src_out", kCPU, fn<&cpu::scatter_src_out>);
  m.def(
      "scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("scatter.value_out", kCPU, fn<&cpu::scatter_value_out>);
  m.def(
      "scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, "
      "Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("scatter.reduce_out", kCPU, fn<&cpu::scatter_reduce_out>);
  m.def(
      "scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.impl("scatter.value_reduce_out", kCPU, fn<&cpu::scatter_value_reduce_out>);
  m.def("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor");
  m.impl("scatter_add", kCPU, fn<&cpu::scatter_add>);
  m.def("scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", kMethod);
  m.impl("scatter_add_", kCPU, fn<&cpu::scatter_add_>);
  m.def(
      "scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.impl("scatter_add.out", kCPU, fn<&cpu::scatter_add_out>);

  m.def("masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", kMethod);
  m.impl("masked_fill_.Scalar", kCPU, fn<&cpu::masked_fill_>);
  m.def("masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)", kMethod);
  m.impl("masked_fill_.Tensor", kCPU, fn<&cpu::masked_fill_tensor_>);
  m.def("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor");
  m.impl("masked_fill.Scalar", kExplicit, fn<&composite::masked_fill_scalar>);
  m.def("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor");
  m.impl("masked_fill.Tensor", kExplicit, fn<&composite::masked_fill_tensor>);
  m.def("masked_select(Tensor self, Tensor mask) -> Tensor");
  m.impl("masked_select", kCPU, fn<&cpu::masked_select>);
  m.def("masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("masked_select.out", kCPU, fn<&cpu::masked_select_out>);
  m.def("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", kMethod);
  m.impl("masked_scatter_", kCPU, fn<&cpu::masked_scatter_>);
  m.def("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor");
  m.impl("masked_scatter", kExplicit, fn<&composite::masked_scatter>);

  m.def("nonzero(Tensor self) -> Tensor");
  m.impl("nonzero", kCPU, fn<&cpu::nonzero>);
  m.def("nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("nonzero.out", kCPU, fn<&cpu::nonzero_out>);
  m.def("nonzero_numpy(Tensor self) -> Tensor[]", kFunction);
  m.impl("nonzero_numpy", kImplicit, fn<&composite::nonzero_numpy>);
  m.def("argwhere(Tensor self) -> Tensor");
  m.impl("argwhere", kImplicit, fn<&composite::argwhere>);

  m.def("take(Tensor self, Tensor index) -> Tensor");
  m.impl("take", kCPU, fn<&cpu::take>);
  m.def("take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("take.out", kCPU, fn<&cpu::take_out>);
  m.def("put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)",
        kMethod);
  m.impl("put_", kCPU, fn<&cpu::put_>);
  m.def("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor");
  m.impl("put", kExplicit, fn<&composite::put>);
});

}  // namespace opscope
