// The view / shape family: schemas, their kernels' registrations, and the C++ entry points.
// Kernels are in core/ops/composite/views.cpp; see core/ops/views.h for what each op does.
//
// Keys follow PyTorch 1.13. Ops torch implements once for every backend are
// CompositeExplicitAutograd here. view, as_strided, _reshape_alias and unfold have CPU and Meta
// kernels in torch; their kernels only touch geometry, so one CompositeExplicitAutograd kernel
// serves every backend (the trace still reads view[CPU]). Ops torch writes in terms of other ops
// (reshape, flatten, narrow, ...) are CompositeImplicitAutograd. Python names follow torch:
// `view`, `expand`, `view_as`, `expand_as` and `unfold` are methods only; `slice`, `alias`,
// `_reshape_alias` and `_unsafe_view` exist only as opscope.ops.aten.<name>.
#include "core/ops/views.h"

#include "core/dispatch/Library.h"

namespace opscope {

// Defined in core/ops/composite/views.cpp.
namespace composite {
Tensor view(const Tensor& self, IntArrayRef size);
Tensor _reshape_alias(const Tensor& self, IntArrayRef size, IntArrayRef stride);
Tensor _unsafe_view(const Tensor& self, IntArrayRef size);
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset);
Tensor alias(const Tensor& self);
Tensor detach(const Tensor& self);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& self);
Tensor permute(const Tensor& self, IntArrayRef dims);
Tensor squeeze(const Tensor& self);
Tensor squeeze_dim(const Tensor& self, int64_t dim);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step);
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2);
Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim);
Tensor reshape(const Tensor& self, IntArrayRef shape);
Tensor view_as(const Tensor& self, const Tensor& other);
Tensor expand_as(const Tensor& self, const Tensor& other);
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim);
Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes);
Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination);
Tensor movedim_int(const Tensor& self, int64_t source, int64_t destination);
Tensor moveaxis(const Tensor& self, IntArrayRef source, IntArrayRef destination);
Tensor moveaxis_int(const Tensor& self, int64_t source, int64_t destination);
Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1);
Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1);
}  // namespace composite

static Library view_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kExplicit = DispatchKey::CompositeExplicitAutograd;
  constexpr DispatchKey kImplicit = DispatchKey::CompositeImplicitAutograd;

  // Views built directly.
  m.def("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", Variants::Method);
  m.impl("view", kExplicit, fn<&composite::view>);
  m.def("_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)",
        Variants::None);
  m.impl("_reshape_alias", kExplicit, fn<&composite::_reshape_alias>);
  m.def("_unsafe_view(Tensor self, SymInt[] size) -> Tensor", Variants::None);
  m.impl("_unsafe_view", kExplicit, fn<&composite::_unsafe_view>);
  m.def("alias(Tensor(a) self) -> Tensor(a)", Variants::None);
  m.impl("alias", kExplicit, fn<&composite::alias>);
  // A view outside autograd: no derivative entry, so the Autograd key falls through and the
  // result has no grad_fn and does not require grad.
  m.def("detach(Tensor(a) self) -> Tensor(a)");
  m.impl("detach", kExplicit, fn<&composite::detach>);
  m.def(
      "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
      "-> Tensor(a)");
  m.impl("as_strided", kExplicit, fn<&composite::as_strided>);

  // Views through as_strided.
  m.def("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  m.impl("transpose.int", kExplicit, fn<&composite::transpose>);
  m.def("t(Tensor(a) self) -> Tensor(a)");
  m.impl("t", kExplicit, fn<&composite::t>);
  m.def("permute(Tensor(a) self, int[] dims) -> Tensor(a)");
  m.impl("permute", kExplicit, fn<&composite::permute>);
  m.def("squeeze(Tensor(a) self) -> Tensor(a)");
  m.impl("squeeze", kExplicit, fn<&composite::squeeze>);
  m.def("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)");
  m.impl("squeeze.dim", kExplicit, fn<&composite::squeeze_dim>);
  m.def("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)");
  m.impl("unsqueeze", kExplicit, fn<&composite::unsqueeze>);
  m.def("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
        Variants::Method);
  m.impl("expand", kExplicit, fn<&composite::expand>);
  m.def("select.int(Tensor(a) self, int dim, int index) -> Tensor(a)");
  m.impl("select.int", kExplicit, fn<&composite::select>);
  m.def(
      "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
      "SymInt step=1) -> Tensor(a)",
      Variants::None);
  m.impl("slice.Tensor", kExplicit, fn<&composite::slice>);
  m.def("diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)");
  m.impl("diagonal", kExplicit, fn<&composite::diagonal>);
  m.def("unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)", Variants::Method);
  m.impl("unfold", kExplicit, fn<&composite::unfold>);
  m.def("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]");
  m.impl("unbind.int", kExplicit, fn<&composite::unbind>);

  // Defined by other ops.
  m.def("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)");
  m.impl("reshape", kImplicit, fn<&composite::reshape>);
  m.def("view_as(Tensor(a) self, Tensor other) -> Tensor(a)", Variants::Method);
  m.impl("view_as", kImplicit, fn<&composite::view_as>);
  m.def("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)", Variants::Method);
  m.impl("expand_as", kImplicit, fn<&composite::expand_as>);
  m.def("narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)");
  m.impl("narrow", kImplicit, fn<&composite::narrow>);
  m.def("flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)");
  m.impl("flatten.using_ints", kImplicit, fn<&composite::flatten>);
  m.def("unflatten.int(Tensor(a) self, int dim, int[] sizes) -> Tensor(a)");
  m.impl("unflatten.int", kImplicit, fn<&composite::unflatten>);
  m.def("movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)");
  m.impl("movedim.intlist", kImplicit, fn<&composite::movedim>);
  m.def("movedim.int(Tensor(a) self, int source, int destination) -> Tensor(a)");
  m.impl("movedim.int", kImplicit, fn<&composite::movedim_int>);
  m.def("moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)");
  m.impl("moveaxis.intlist", kImplicit, fn<&composite::moveaxis>);
  m.def("moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)");
  m.impl("moveaxis.int", kImplicit, fn<&composite::moveaxis_int>);
  m.def("swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)");
  m.impl("swapaxes", kImplicit, fn<&composite::swapaxes>);
  m.def("swapdims(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  m.impl("swapdims", kImplicit, fn<&composite::swapdims>);
});

}  // namespace opscope
