// The joining / splitting / rearranging family: schemas, one def row per overload (the kernels are
// registered at the end of the files that define them). Kernels: core/ops/cpu/shape.cpp and
// core/ops/composite/shape.cpp; see core/ops/shape.h for what each op does.
//
// Keys follow PyTorch 1.13 (torch._C._dispatch_dump): cat / cat.out, flip, roll, tril / triu
// (and their in-place and out= forms), diag.out and repeat_interleave.Tensor are CPU kernels;
// stack, split.Tensor, split_with_sizes, repeat, flip.out, roll.out, diag and diag_embed are
// CompositeExplicitAutograd; concat, hstack / vstack / dstack, atleast_*, split.sizes, chunk,
// tensor_split, tile, fliplr / flipud and repeat_interleave.self_* are
// CompositeImplicitAutograd. Of the ops in core/ops/composite/shape_more.cpp, rot90 and block_diag
// (and their out= forms) are CompositeExplicitAutograd with derivatives of their own; kron,
// diagflat, column_stack / row_stack, hsplit / vsplit / dsplit, vander and combinations are
// CompositeImplicitAutograd. Python names follow torch: repeat is a method only; cat, stack,
// the *stack ops, atleast_* and repeat_interleave.Tensor are functions only.
#include "core/ops/shape.h"

#include "core/dispatch/Library.h"

namespace opscope {

static Library shape_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr Variants kFunction = Variants::Function;

  // Joining.
  // n tensors (.., k_i, ..) -> (.., sum k_i, ..) along dim; concat is its alias
  m.def("cat(Tensor[] tensors, int dim=0) -> Tensor", kFunction);
  m.def("cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("concat(Tensor[] tensors, int dim=0) -> Tensor", kFunction);
  m.def("concat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // concatenate: another alias of cat (kernels in core/ops/composite/aliases.cpp)
  m.def("concatenate(Tensor[] tensors, int dim=0) -> Tensor", kFunction);
  m.def("concatenate.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // n tensors (s) of one shape -> (.., n, ..) with n at dim
  m.def("stack(Tensor[] tensors, int dim=0) -> Tensor", kFunction);
  m.def("stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // cat along dim 1 (dim 0 when the inputs are 1-D); vstack: atleast_2d, cat along dim 0;
  // dstack: atleast_3d, cat along dim 2
  m.def("hstack(Tensor[] tensors) -> Tensor", kFunction);
  m.def("hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("vstack(Tensor[] tensors) -> Tensor", kFunction);
  m.def("vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("dstack(Tensor[] tensors) -> Tensor", kFunction);
  m.def("dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // column_stack: 0-d / 1-D inputs as columns (n, 1), then hstack; row_stack: vstack's alias
  m.def("column_stack(Tensor[] tensors) -> Tensor", kFunction);
  m.def("column_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("row_stack(Tensor[] tensors) -> Tensor", kFunction);
  m.def("row_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // [(m_i, n_i)] (0-d, 1-D as (1, n)) -> zeros (sum m_i, sum n_i), each input on the diagonal;
  // torch.block_diag(*tensors) is torch.functional's Python function over it
  m.def("block_diag(Tensor[] tensors) -> Tensor", Variants::None);
  m.def("block_diag.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)", Variants::None);
  m.def("atleast_1d(Tensor self) -> Tensor", kFunction);
  m.def("atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction);
  m.def("atleast_2d(Tensor self) -> Tensor", kFunction);
  m.def("atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction);
  m.def("atleast_3d(Tensor self) -> Tensor", kFunction);
  m.def("atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction);

  // Splitting: views.
  m.def("split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]");
  m.def("split.sizes(Tensor(a -> *) self, int[] split_size, int dim=0) -> Tensor(a)[]");
  m.def("split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]");
  m.def("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]");
  m.def("tensor_split.sections(Tensor(a -> *) self, int sections, int dim=0) -> Tensor(a)[]");
  m.def("tensor_split.indices(Tensor(a -> *) self, int[] indices, int dim=0) -> Tensor(a)[]");
  m.def(
      "tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, "
      "Tensor tensor_indices_or_sections, int dim=0) -> Tensor(a)[]");
  // tensor_split along dim 1 (dim 0 for 1-D self) / 0 / 2; the int form needs equal sections
  m.def("hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]");
  m.def("hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]");
  m.def("vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]");
  m.def("vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]");
  m.def("dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]");
  m.def("dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]");

  // Rearranging.
  m.def("flip(Tensor self, int[] dims) -> Tensor");
  // torch.flip / torch.roll take no out= in Python; the out forms are ops.aten only.
  m.def("flip.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)", Variants::None);
  // flip(self, {1}), needs >= 2 dims; flipud: flip(self, {0}), needs >= 1 dim
  m.def("fliplr(Tensor self) -> Tensor");
  m.def("flipud(Tensor self) -> Tensor");
  m.def("roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor");
  m.def("roll.out(Tensor self, int[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  // the plane (dims[0], dims[1]) turned k quarter turns, from dims[0] towards dims[1]
  m.def("rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor");
  m.def("rot90.out(Tensor self, int k=1, int[] dims=[0,1], *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  // self (a_0, ..), other (b_0, ..) (shorter one padded with leading 1s) -> (a_0 * b_0, ..):
  // block (i_0, ..) is self[i_0, ..] * other
  m.def("kron(Tensor self, Tensor other) -> Tensor");
  m.def("kron.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("repeat(Tensor self, SymInt[] repeats) -> Tensor", Variants::Method);
  m.def("repeat.out(Tensor self, SymInt[] repeats, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  // repeat, dims padded with leading 1s
  m.def("tile(Tensor self, int[] dims) -> Tensor");
  m.def("repeat_interleave.Tensor(Tensor repeats, *, int? output_size=None) -> Tensor", kFunction);
  m.def(
      "repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, "
      "int? output_size=None) -> Tensor");
  m.def(
      "repeat_interleave.self_int(Tensor self, int repeats, int? dim=None, *, "
      "int? output_size=None) -> Tensor");

  // Triangles and diagonals.
  // (*, M, N): keeps (i, j) with j - i <= diagonal (tril) / >= diagonal (triu), zeros elsewhere
  m.def("tril(Tensor self, int diagonal=0) -> Tensor");
  m.def("tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", Variants::Method);
  m.def("tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  m.def("triu(Tensor self, int diagonal=0) -> Tensor");
  m.def("triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", Variants::Method);
  m.def("triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // (n) -> (n + |d|, n + |d|) with self on diagonal d;  (M, N) -> (its diagonal d)
  m.def("diag(Tensor self, int diagonal=0) -> Tensor");
  m.def("diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)", kFunction);
  // (*, n) -> (*, n + |o|, n + |o|) (the two new dims at dim1, dim2), self on their diagonal
  // self (*) flattened, then diag: (n) -> (n + |offset|, n + |offset|)
  m.def("diagflat(Tensor self, int offset=0) -> Tensor");
  m.def("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor");

  // Grids. [(n0), (n1), ...] -> each (n0, n1, ...) ("ij"), a view + expand of its input; "xy"
  // swaps the first two dims. opscope.meshgrid is torch.functional's Python function over it.
  m.def("meshgrid(Tensor[] tensors) -> Tensor[]", Variants::None);
  m.def("meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]", Variants::None);
  // [(n0), (n1), ...] -> (n0 * n1 * ..., k): every combination, the last input varying fastest
  m.def("cartesian_prod(Tensor[] tensors) -> Tensor", Variants::None);
  // x (n) -> (n, N): row i is x_i^(N-1), .., x_i, 1 (reversed when increasing); dtype
  // promote_types(x, int64)
  m.def("vander(Tensor x, int? N=None, bool increasing=False) -> Tensor", kFunction);
  // self (n) -> (C, r): every r-subset of self's elements (multiset when with_replacement), in
  // itertools.combinations' order
  m.def("combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor", kFunction);
});

}  // namespace opscope
