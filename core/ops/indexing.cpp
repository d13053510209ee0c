// The indexing family: schemas, one def row per overload (the kernels are registered at the end of
// the files that define them). Kernels: core/ops/cpu/indexing.cpp (index, _index_put_impl_,
// index_select, index_add, index_fill_, take, put_), core/ops/cpu/scatter_gather.cpp (gather,
// scatter*), core/ops/cpu/masked.cpp (nonzero, masked_fill_, masked_select, masked_scatter_) and
// core/ops/composite/indexing.cpp. See core/ops/indexing.h for what each op does.
//
// Keys are torch 1.13's: the kernels that touch elements are CPU; index_put_ / index_put,
// masked_fill, masked_scatter, put and index_fill (functional) are CompositeExplicitAutograd
// over the in-place CPU kernels (clone + op_, as torch's trace shows); nonzero_numpy and argwhere
// are CompositeImplicitAutograd over nonzero.
#include "core/ops/indexing.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library indexing_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;
  constexpr Variants kMethod = Variants::Method;
  constexpr Variants kBoth = Variants::FunctionAndMethod;

  // torch.index is not a Python function: t[...] reaches it (and opscope.ops.aten.index).
  m.def("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", Variants::None);
  m.def("index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  m.def(
      "index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> "
      "Tensor(a!)",
      kBoth);
  m.def(
      "index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor");
  m.def(
      "_index_put_impl_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False, "
      "bool unsafe=False) -> Tensor(a!)",
      kFunction);

  m.def("index_select(Tensor self, int dim, Tensor index) -> Tensor");
  m.def("index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)",
        kFunction);
  m.def(
      "index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> "
      "Tensor(a!)",
      kMethod);
  m.def(
      "index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor");
  m.def(
      "index_add.out(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
      kMethod);
  m.def(
      "index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)",
      kMethod);
  m.def("index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor");
  m.def("index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor");

  m.def("gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor");
  // self and indices broadcast against each other except along dim, then gather along it;
  // dim=None: the flattened self at the flattened indices
  m.def("take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor");
  m.def(
      "gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) "
      "-> Tensor(a!)",
      kFunction);

  m.def("scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor");
  m.def("scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor");
  m.def("scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor");
  m.def(
      "scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> "
      "Tensor");
  m.def("scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", kMethod);
  m.def("scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
        kMethod);
  m.def(
      "scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> "
      "Tensor(a!)",
      kMethod);
  m.def(
      "scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) "
      "-> Tensor(a!)",
      kMethod);
  m.def(
      "scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def(
      "scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def(
      "scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, "
      "Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);
  m.def(
      "scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, "
      "Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def("scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor");
  m.def("scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)", kMethod);
  m.def(
      "scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> "
      "Tensor(a!)",
      kFunction);

  m.def("masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)", kMethod);
  m.def("masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)", kMethod);
  m.def("masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor");
  m.def("masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor");
  m.def("masked_select(Tensor self, Tensor mask) -> Tensor");
  m.def("masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)", kMethod);
  m.def("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor");

  m.def("nonzero(Tensor self) -> Tensor");
  m.def("nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("nonzero_numpy(Tensor self) -> Tensor[]", kFunction);
  m.def("argwhere(Tensor self) -> Tensor");

  m.def("take(Tensor self, Tensor index) -> Tensor");
  m.def("take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)",
        kMethod);
  m.def("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor");
});

}  // namespace opscope
