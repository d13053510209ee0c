// The sorting family's schemas, one def row per overload; see core/ops/sorting.h for what each op
// does. Kernels, each registered at the end of its file: core/ops/cpu/sorting.cpp (CPU) and
// core/ops/composite/sorting.cpp (the decompositions).
//
// Keys follow PyTorch 1.13: sort.stable, sort.values_stable, argsort.stable, topk, topk.values,
// kthvalue.values, _unique2, _unique, unique_dim and unique_consecutive are CPU kernels; sort,
// sort.values and kthvalue are CompositeExplicitAutograd; argsort and msort are
// CompositeImplicitAutograd. torch.unique and torch.unique_consecutive are Python functions in
// torch (torch/functional.py) over _unique2 / unique_dim / unique_consecutive, which return only
// the tensors asked for; unique_dim and unique_consecutive are therefore reachable here as
// opscope.ops.aten.<name> only, until such wrappers exist.
#include "core/ops/sorting.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library sorting_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;

  m.def("sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)");
  m.def(
      "sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
      "(Tensor values, Tensor indices)");
  m.def(
      "sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.def(
      "sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, "
      "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.def("argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor");
  m.def("argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor");
  m.def("msort(Tensor self) -> Tensor");
  m.def("msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);

  m.def(
      "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> "
      "(Tensor values, Tensor indices)");
  m.def(
      "topk.values(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, *, "
      "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.def(
      "kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> "
      "(Tensor values, Tensor indices)");
  m.def(
      "kthvalue.values(Tensor self, int k, int dim=-1, bool keepdim=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);

  // median / nanmedian: the lower median (CPU kernels median, median.out, median.dim_values;
  // median.dim CompositeExplicitAutograd over median.dim_values, as kthvalue)
  m.def("median(Tensor self) -> Tensor");
  m.def("median.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def("median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  m.def(
      "median.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      Variants::Function);
  m.def("nanmedian(Tensor self) -> Tensor");
  m.def("nanmedian.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", Variants::Function);
  m.def(
      "nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor "
      "indices)");
  m.def(
      "nanmedian.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      Variants::Function);
  // searchsorted / bucketize / isin (core/ops/cpu/bucketize.cpp): int64 (int32) positions among
  // sorted boundaries, and bool membership
  m.def(
      "searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, "
      "bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
      kFunction);
  m.def(
      "searchsorted.Tensor_out(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, "
      "bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "searchsorted.Scalar(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, "
      "bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
      kFunction);
  m.def(
      "searchsorted.Scalar_out(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, "
      "bool right=False, str? side=None, Tensor? sorter=None, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, "
      "bool right=False) -> Tensor",
      kFunction);
  m.def(
      "bucketize.Tensor_out(Tensor self, Tensor boundaries, *, bool out_int32=False, "
      "bool right=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "bucketize.Scalar(Scalar self, Tensor boundaries, *, bool out_int32=False, "
      "bool right=False) -> Tensor",
      kFunction);
  m.def(
      "bucketize.Scalar_out(Scalar self, Tensor boundaries, *, bool out_int32=False, "
      "bool right=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, "
      "bool invert=False) -> Tensor",
      kFunction);
  m.def(
      "isin.Tensor_Tensor_out(Tensor elements, Tensor test_elements, *, bool assume_unique=False, "
      "bool invert=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, "
      "bool invert=False) -> Tensor",
      kFunction);
  m.def(
      "isin.Tensor_Scalar_out(Tensor elements, Scalar test_element, *, bool assume_unique=False, "
      "bool invert=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, "
      "bool invert=False) -> Tensor",
      kFunction);
  m.def(
      "isin.Scalar_Tensor_out(Scalar element, Tensor test_elements, *, bool assume_unique=False, "
      "bool invert=False, Tensor(a!) out) -> Tensor(a!)",
      kFunction);
  m.def(
      "_unique2(Tensor self, bool sorted=True, bool return_inverse=False, "
      "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.def("_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)",
        kFunction);
  m.def(
      "unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
      "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
      Variants::None);
  m.def(
      "unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, "
      "int? dim=None) -> (Tensor, Tensor, Tensor)",
      Variants::None);
});

}  // namespace opscope
