// The joining / splitting / rearranging family: schemas, their kernels' registrations, and the
// C++ entry points. Kernels: core/ops/cpu/shape.cpp and core/ops/composite/shape.cpp; see
// core/ops/shape.h for what each op does.
//
// Keys follow PyTorch 1.13 (torch._C._dispatch_dump): cat / cat.out, flip, roll, tril / triu
// (and their in-place and out= forms), diag.out and repeat_interleave.Tensor are CPU kernels;
// stack, split.Tensor, split_with_sizes, repeat, flip.out, roll.out, diag and diag_embed are
// CompositeExplicitAutograd; concat, hstack / vstack / dstack, atleast_*, split.sizes, chunk,
// tensor_split, tile, fliplr / flipud and repeat_interleave.self_* are
// CompositeImplicitAutograd. Python names follow torch: repeat is a method only; cat, stack,
// the *stack ops, atleast_* and repeat_interleave.Tensor are functions only.
#include "core/ops/shape.h"

#include "core/dispatch/Library.h"

namespace opscope {

// Defined in core/ops/cpu/shape.cpp.
namespace cpu {
Tensor cat(TensorList tensors, int64_t dim);
Tensor cat_out(TensorList tensors, int64_t dim, const Tensor& out);
Tensor flip(const Tensor& self, IntArrayRef dims);
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims);
Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> output_size);
Tensor tril(const Tensor& self, int64_t diagonal);
Tensor tril_(const Tensor& self, int64_t diagonal);
Tensor tril_out(const Tensor& self, int64_t diagonal, const Tensor& out);
Tensor triu(const Tensor& self, int64_t diagonal);
Tensor triu_(const Tensor& self, int64_t diagonal);
Tensor triu_out(const Tensor& self, int64_t diagonal, const Tensor& out);
Tensor diag_out(const Tensor& self, int64_t diagonal, const Tensor& out);
}  // namespace cpu

// Defined in core/ops/composite/shape.cpp.
namespace composite {
Tensor cat(TensorList tensors, int64_t dim);
Tensor concat(TensorList tensors, int64_t dim);
Tensor concat_out(TensorList tensors, int64_t dim, const Tensor& out);
Tensor stack(TensorList tensors, int64_t dim);
Tensor stack_out(TensorList tensors, int64_t dim, const Tensor& out);
Tensor hstack(TensorList tensors);
Tensor hstack_out(TensorList tensors, const Tensor& out);
Tensor vstack(TensorList tensors);
Tensor vstack_out(TensorList tensors, const Tensor& out);
Tensor dstack(TensorList tensors);
Tensor dstack_out(TensorList tensors, const Tensor& out);
Tensor atleast_1d(const Tensor& self);
Tensor atleast_2d(const Tensor& self);
Tensor atleast_3d(const Tensor& self);
std::vector<Tensor> atleast_1d_seq(TensorList tensors);
std::vector<Tensor> atleast_2d_seq(TensorList tensors);
std::vector<Tensor> atleast_3d_seq(TensorList tensors);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim);
std::vector<Tensor> split_sizes(const Tensor& self, IntArrayRef split_size, int64_t dim);
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim);
std::vector<Tensor> tensor_split_sections(const Tensor& self, int64_t sections, int64_t dim);
std::vector<Tensor> tensor_split_indices(const Tensor& self, IntArrayRef indices, int64_t dim);
std::vector<Tensor> tensor_split_tensor(const Tensor& self,
                                        const Tensor& tensor_indices_or_sections, int64_t dim);
Tensor flip_out(const Tensor& self, IntArrayRef dims, const Tensor& out);
Tensor fliplr(const Tensor& self);
Tensor flipud(const Tensor& self);
Tensor roll_out(const Tensor& self, IntArrayRef shifts, IntArrayRef dims, const Tensor& out);
Tensor repeat(const Tensor& self, IntArrayRef repeats);
Tensor repeat_out(const Tensor& self, IntArrayRef repeats, const Tensor& out);
Tensor tile(const Tensor& self, IntArrayRef dims);
Tensor repeat_interleave_self_tensor(const Tensor& self, const Tensor& repeats,
                                     std::optional<int64_t> dim,
                                     std::optional<int64_t> output_size);
Tensor repeat_interleave_self_int(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                                  std::optional<int64_t> output_size);
Tensor diag(const Tensor& self, int64_t diagonal);
Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
}  // namespace composite

static Library shape_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kCPU = DispatchKey::CPU;
  constexpr DispatchKey kExplicit = DispatchKey::CompositeExplicitAutograd;
  constexpr DispatchKey kImplicit = DispatchKey::CompositeImplicitAutograd;
  constexpr Variants kFunction = Variants::Function;

  // Joining.
  m.def("cat(Tensor[] tensors, int dim=0) -> Tensor", kFunction);
  m.impl("cat", kCPU, fn<&cpu::cat>);
  m.impl("cat", kExplicit, fn<&composite::cat>);  // backends without their own; cat([])
  m.def("cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("cat.out", kCPU, fn<&cpu::cat_out>);
  m.def("concat(Tensor[] tensors, int dim=0) -> Tensor", kFunction);
  m.impl("concat", kImplicit, fn<&composite::concat>);
  m.def("concat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("concat.out", kImplicit, fn<&composite::concat_out>);
  m.def("stack(Tensor[] tensors, int dim=0) -> Tensor", kFunction);
  m.impl("stack", kExplicit, fn<&composite::stack>);
  m.def("stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("stack.out", kExplicit, fn<&composite::stack_out>);
  m.def("hstack(Tensor[] tensors) -> Tensor", kFunction);
  m.impl("hstack", kImplicit, fn<&composite::hstack>);
  m.def("hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("hstack.out", kImplicit, fn<&composite::hstack_out>);
  m.def("vstack(Tensor[] tensors) -> Tensor", kFunction);
  m.impl("vstack", kImplicit, fn<&composite::vstack>);
  m.def("vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("vstack.out", kImplicit, fn<&composite::vstack_out>);
  m.def("dstack(Tensor[] tensors) -> Tensor", kFunction);
  m.impl("dstack", kImplicit, fn<&composite::dstack>);
  m.def("dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("dstack.out", kImplicit, fn<&composite::dstack_out>);
  m.def("atleast_1d(Tensor self) -> Tensor", kFunction);
  m.impl("atleast_1d", kImplicit, fn<&composite::atleast_1d>);
  m.def("atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction);
  m.impl("atleast_1d.Sequence", kImplicit, fn<&composite::atleast_1d_seq>);
  m.def("atleast_2d(Tensor self) -> Tensor", kFunction);
  m.impl("atleast_2d", kImplicit, fn<&composite::atleast_2d>);
  m.def("atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction);
  m.impl("atleast_2d.Sequence", kImplicit, fn<&composite::atleast_2d_seq>);
  m.def("atleast_3d(Tensor self) -> Tensor", kFunction);
  m.impl("atleast_3d", kImplicit, fn<&composite::atleast_3d>);
  m.def("atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction);
  m.impl("atleast_3d.Sequence", kImplicit, fn<&composite::atleast_3d_seq>);

  // Splitting: views.
  m.def("split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]");
  m.impl("split.Tensor", kExplicit, fn<&composite::split>);
  m.def("split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]");
  m.impl("split.sizes", kImplicit, fn<&composite::split_sizes>);
  m.def("split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]");
  m.impl("split_with_sizes", kExplicit, fn<&composite::split_with_sizes>);
  m.def("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]");
  m.impl("chunk", kImplicit, fn<&composite::chunk>);
  m.def("tensor_split.sections(Tensor(a -> *) self, int sections, int dim=0) -> Tensor(a)[]");
  m.impl("tensor_split.sections", kImplicit, fn<&composite::tensor_split_sections>);
  m.def("tensor_split.indices(Tensor(a -> *) self, int[] indices, int dim=0) -> Tensor(a)[]");
  m.impl("tensor_split.indices", kImplicit, fn<&composite::tensor_split_indices>);
  m.def(
      "tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, "
      "Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]");
  m.impl("tensor_split.tensor_indices_or_sections", kImplicit, fn<&composite::tensor_split_tensor>);

  // Rearranging.
  m.def("flip(Tensor self, int[] dims) -> Tensor");
  m.impl("flip", kCPU, fn<&cpu::flip>);
  // torch.flip / torch.roll take no out= in Python; the out forms are ops.aten only.
  m.def("flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)", Variants::None);
  m.impl("flip.out", kExplicit, fn<&composite::flip_out>);
  m.def("fliplr(Tensor self) -> Tensor");
  m.impl("fliplr", kImplicit, fn<&composite::fliplr>);
  m.def("flipud(Tensor self) -> Tensor");
  m.impl("flipud", kImplicit, fn<&composite::flipud>);
  m.def("roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor");
  m.impl("roll", kCPU, fn<&cpu::roll>);
  m.def("roll.out(Tensor self, int[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  m.impl("roll.out", kExplicit, fn<&composite::roll_out>);
  m.def("repeat(Tensor self, SymInt[] repeats) -> Tensor", Variants::Method);
  m.impl("repeat", kExplicit, fn<&composite::repeat>);
  m.def("repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  m.impl("repeat.out", kExplicit, fn<&composite::repeat_out>);
  m.def("tile(Tensor self, int[] dims) -> Tensor");
  m.impl("tile", kImplicit, fn<&composite::tile>);
  m.def("repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor", kFunction);
  m.impl("repeat_interleave.Tensor", kCPU, fn<&cpu::repeat_interleave>);
  m.def(
      "repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, "
      "int? output_size=None) -> Tensor");
  m.impl("repeat_interleave.self_Tensor", kImplicit, fn<&composite::repeat_interleave_self_tensor>);
  m.def(
      "repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, "
      "int? output_size=None) -> Tensor");
  m.impl("repeat_interleave.self_int", kImplicit, fn<&composite::repeat_interleave_self_int>);

  // Triangles and diagonals.
  m.def("tril(Tensor self, int diagonal=0) -> Tensor");
  m.impl("tril", kCPU, fn<&cpu::tril>);
  m.def("tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", Variants::Method);
  m.impl("tril_", kCPU, fn<&cpu::tril_>);
  m.def("tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("tril.out", kCPU, fn<&cpu::tril_out>);
  m.def("triu(Tensor self, int diagonal=0) -> Tensor");
  m.impl("triu", kCPU, fn<&cpu::triu>);
  m.def("triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", Variants::Method);
  m.impl("triu_", kCPU, fn<&cpu::triu_>);
  m.def("triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("triu.out", kCPU, fn<&cpu::triu_out>);
  m.def("diag(Tensor self, int diagonal=0) -> Tensor");
  m.impl("diag", kExplicit, fn<&composite::diag>);
  m.def("diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.impl("diag.out", kCPU, fn<&cpu::diag_out>);
  m.def("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor");
  m.impl("diag_embed", kExplicit, fn<&composite::diag_embed>);
});

}  // namespace opscope
