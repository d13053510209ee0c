// The sorting family: schemas, their kernels' registrations, and the C++ entry points. Kernels:
// core/ops/cpu/sorting.cpp (CPU) and the decompositions below the registrations' declarations
// in the same file; see core/ops/sorting.h for what each op does.
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
#include "core/ops/factories.h"

namespace opscope {

// Defined in core/ops/cpu/sorting.cpp.
namespace cpu {
ops::TensorPair sort_stable(const Tensor& self, std::optional<bool> stable, int64_t dim,
                            bool descending);
ops::TensorPair sort_values_stable(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                   bool descending, const Tensor& values, const Tensor& indices);
Tensor argsort_stable(const Tensor& self, bool stable, int64_t dim, bool descending);
ops::TensorPair topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted);
ops::TensorPair topk_values(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted,
                            const Tensor& values, const Tensor& indices);
ops::TensorPair kthvalue_values(const Tensor& self, int64_t k, int64_t dim, bool keepdim,
                                const Tensor& values, const Tensor& indices);
ops::TensorTriple _unique2(const Tensor& self, bool sorted, bool return_inverse,
                           bool return_counts);
ops::TensorPair _unique(const Tensor& self, bool sorted, bool return_inverse);
ops::TensorTriple unique_dim(const Tensor& self, int64_t dim, bool sorted, bool return_inverse,
                             bool return_counts);
ops::TensorTriple unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts,
                                     std::optional<int64_t> dim);
}  // namespace cpu

// The decompositions (CompositeExplicitAutograd / CompositeImplicitAutograd), as torch's.
namespace composite {

// sort -> sort.stable(stable=False)
ops::TensorPair sort(const Tensor& self, int64_t dim, bool descending) {
  return ops::sort(self, std::optional<bool>(false), dim, descending);
}
ops::TensorPair sort_values(const Tensor& self, int64_t dim, bool descending, const Tensor& values,
                            const Tensor& indices) {
  return ops::sort_out(self, std::optional<bool>(false), dim, descending, values, indices);
}
Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(ops::sort(self, dim, descending));
}
Tensor msort(const Tensor& self) {
  return std::get<0>(ops::sort(self, 0, false));
}
Tensor msort_out(const Tensor& self, const Tensor& out) {
  Tensor indices = ops::empty({0}, ScalarType::Int64, {}, self.device());
  ops::sort_out(self, 0, false, out, indices);
  return out;
}
// kthvalue -> empty (values), empty (indices), kthvalue.values
ops::TensorPair kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  Tensor values = ops::empty({0}, self.dtype(), {}, self.device());
  Tensor indices = ops::empty({0}, ScalarType::Int64, {}, self.device());
  ops::kthvalue_out(self, k, dim, keepdim, values, indices);
  return {values, indices};
}

}  // namespace composite

static Library sorting_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kCPU = DispatchKey::CPU;
  constexpr DispatchKey kExplicit = DispatchKey::CompositeExplicitAutograd;
  constexpr DispatchKey kImplicit = DispatchKey::CompositeImplicitAutograd;
  constexpr Variants kFunction = Variants::Function;

  m.def("sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)");
  m.impl("sort", kExplicit, fn<&composite::sort>);
  m.def(
      "sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
      "(Tensor values, Tensor indices)");
  m.impl("sort.stable", kCPU, fn<&cpu::sort_stable>);
  m.def(
      "sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.impl("sort.values", kExplicit, fn<&composite::sort_values>);
  m.def(
      "sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, "
      "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.impl("sort.values_stable", kCPU, fn<&cpu::sort_values_stable>);
  m.def("argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor");
  m.impl("argsort", kImplicit, fn<&composite::argsort>);
  m.def("argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor");
  m.impl("argsort.stable", kCPU, fn<&cpu::argsort_stable>);
  m.def("msort(Tensor self) -> Tensor");
  m.impl("msort", kImplicit, fn<&composite::msort>);
  m.def("msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("msort.out", kImplicit, fn<&composite::msort_out>);

  m.def(
      "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> "
      "(Tensor values, Tensor indices)");
  m.impl("topk", kCPU, fn<&cpu::topk>);
  m.def(
      "topk.values(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, *, "
      "Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.impl("topk.values", kCPU, fn<&cpu::topk_values>);
  m.def(
      "kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> "
      "(Tensor values, Tensor indices)");
  m.impl("kthvalue", kExplicit, fn<&composite::kthvalue>);
  m.def(
      "kthvalue.values(Tensor self, int k, int dim=-1, bool keepdim=False, *, Tensor(a!) values, "
      "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
      kFunction);
  m.impl("kthvalue.values", kCPU, fn<&cpu::kthvalue_values>);

  m.def(
      "_unique2(Tensor self, bool sorted=True, bool return_inverse=False, "
      "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
      kFunction);
  m.impl("_unique2", kCPU, fn<&cpu::_unique2>);
  m.def("_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)",
        kFunction);
  m.impl("_unique", kCPU, fn<&cpu::_unique>);
  m.def(
      "unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
      "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
      Variants::None);
  m.impl("unique_dim", kCPU, fn<&cpu::unique_dim>);
  m.def(
      "unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, "
      "int? dim=None) -> (Tensor, Tensor, Tensor)",
      Variants::None);
  m.impl("unique_consecutive", kCPU, fn<&cpu::unique_consecutive>);
});

}  // namespace opscope
