// Tensor.__getitem__ / __setitem__ for basic indexing: ints, slices with steps, None, Ellipsis,
// True/False — each one a view op through the dispatcher, as in torch's python_variable_indexing:
//   t[1]      -> select(t, 0, 1)           t[None]   -> unsqueeze(t, 0)
//   t[1:5:2]  -> slice(t, 0, 1, 5, 2)      t[..., 0] -> select(t, -1... as the dims fall)
//   t[i] = 3  -> fill_(view, 3)            t[i] = u  -> copy_(view, u)  (u broadcast)
// Advanced indexing (integer / bool tensors and lists) arrives with the op library.
#include <algorithm>

#include "core/dispatch/Dispatcher.h"
#include "core/python/python_common.h"

namespace opscope::python {

namespace {

using OptInt = std::optional<int64_t>;

struct IndexOps {
  TypedOperatorHandle<Tensor(const Tensor&, int64_t, int64_t)> select =
      typed_op<Tensor(const Tensor&, int64_t, int64_t)>("aten::select.int");
  TypedOperatorHandle<Tensor(const Tensor&, int64_t, OptInt, OptInt, int64_t)> slice =
      typed_op<Tensor(const Tensor&, int64_t, OptInt, OptInt, int64_t)>("aten::slice.Tensor");
  TypedOperatorHandle<Tensor(const Tensor&, int64_t)> unsqueeze =
      typed_op<Tensor(const Tensor&, int64_t)>("aten::unsqueeze");
  TypedOperatorHandle<Tensor(const Tensor&)> alias = typed_op<Tensor(const Tensor&)>("aten::alias");
  TypedOperatorHandle<Tensor(const Tensor&, IntArrayRef)> view =
      typed_op<Tensor(const Tensor&, IntArrayRef)>("aten::view");
  TypedOperatorHandle<Tensor(const Tensor&, const Scalar&)> fill =
      typed_op<Tensor(const Tensor&, const Scalar&)>("aten::fill_.Scalar");
  TypedOperatorHandle<Tensor(const Tensor&, const Tensor&, bool)> copy =
      typed_op<Tensor(const Tensor&, const Tensor&, bool)>("aten::copy_");
};
const IndexOps& index_ops() {
  static const IndexOps ops;
  return ops;
}

bool is_int_index(PyObject* o) {
  if (PyBool_Check(o)) return false;
  if (PyLong_Check(o)) return true;
  if (is_tensor(o)) return false;
  return PyIndex_Check(o);
}

// How many tensor dims an index item consumes (None / Ellipsis / bools consume none).
int64_t consumed_dims(PyObject* item) {
  if (item == Py_None || item == Py_Ellipsis || PyBool_Check(item)) return 0;
  return 1;
}

Tensor apply_indexing(const Tensor& self, PyObject* index) {
  const IndexOps& ops = index_ops();
  // A single index is treated as a 1-tuple; a list is advanced indexing (not a tuple!).
  PyObject* tuple = PyTuple_Check(index) ? index : nullptr;
  Py_ssize_t n = tuple ? PyTuple_GET_SIZE(tuple) : 1;
  auto item_at = [&](Py_ssize_t i) { return tuple ? PyTuple_GET_ITEM(tuple, i) : index; };

  int64_t specified = 0;
  bool seen_ellipsis = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* it = item_at(i);
    if (it == Py_Ellipsis) {
      OPSCOPE_CHECK_INDEX(!seen_ellipsis, "an index can only have a single ellipsis ('...')");
      seen_ellipsis = true;
    }
    if (is_tensor(it) || PyList_Check(it) || PyTuple_Check(it))
      throw NotImplementedError(detail::str(
          "indexing with ", is_tensor(it) ? "a tensor" : Py_TYPE(it)->tp_name,
          " (advanced indexing) is not supported yet: only ints, slices, None, Ellipsis and "
          "bools index opscope tensors in this version"));
    OPSCOPE_CHECK_INDEX(is_int_index(it) || PySlice_Check(it) || it == Py_None ||
                            it == Py_Ellipsis || PyBool_Check(it),
                        "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                        "Variables are valid indices (got ", Py_TYPE(it)->tp_name, ")");
    specified += consumed_dims(it);
  }
  OPSCOPE_CHECK_INDEX(self.dim() > 0 || tuple || !is_int_index(index),  // t[0], not t[0,]
                      "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                      "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  OPSCOPE_CHECK_INDEX(specified <= self.dim(), "too many indices for tensor of dimension ", self.dim());

  Tensor result = self;
  bool viewed = false;
  int64_t dim = 0;       // the dim of `result` the next index applies to
  int64_t self_dim = 0;  // the same dim counted in `self`, for messages (as torch reports it)
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* it = item_at(i);
    if (is_int_index(it)) {
      OPSCOPE_CHECK_INDEX(result.dim() > 0, "invalid index of a 0-dim tensor. Use `tensor.item()` in "
                          "Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
      PyObject* as_long = PyNumber_Index(it);
      if (!as_long) throw py::error_already_set();
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(as_long, &overflow);
      Py_DECREF(as_long);
      int64_t size = result->size(dim);
      OPSCOPE_CHECK_INDEX(!overflow && v >= -size && v < size, "index ", v,
                          " is out of bounds for dimension ", self_dim, " with size ", size);
      result = ops.select.call(result, dim, v);
      viewed = true;
      ++self_dim;
    } else if (PySlice_Check(it)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(it, &start, &stop, &step) < 0) throw py::error_already_set();
      OPSCOPE_CHECK_VALUE(step > 0, "step must be greater than zero");
      Py_ssize_t length = static_cast<Py_ssize_t>(result->size(dim));
      PySlice_AdjustIndices(length, &start, &stop, step);
      if (!(start == 0 && stop == length && step == 1)) {  // `:` is no op, as in torch
        result = ops.slice.call(result, dim, static_cast<int64_t>(start), static_cast<int64_t>(stop), step);
        viewed = true;
      }
      ++dim;
      ++self_dim;
    } else if (it == Py_None) {
      result = ops.unsqueeze.call(result, dim);
      viewed = true;
      ++dim;
    } else if (it == Py_Ellipsis) {
      dim += self.dim() - specified;
      self_dim += self.dim() - specified;
    } else if (PyBool_Check(it)) {
      // t[True] adds a dim of size 1; t[False] adds a dim of size 0.
      result = ops.unsqueeze.call(result, dim);
      if (it == Py_False) result = ops.slice.call(result, dim, 0, 0, 1);
      viewed = true;
      ++dim;
    }
  }
  // t[...] and t[:] still return a new tensor object (an alias), never self.
  if (!viewed) result = ops.alias.call(result);
  return result;
}

}  // namespace

PyObject* tensor_getitem(PyObject* self, PyObject* index) {
  return guarded([&] { return wrap(apply_indexing(unwrap(self), index)); });
}

int tensor_setitem(PyObject* self, PyObject* index, PyObject* value) {
  PyObject* r = guarded([&]() -> PyObject* {
    OPSCOPE_CHECK_TYPE(value != nullptr, "Tensor does not support deleting items");
    Tensor view = apply_indexing(unwrap(self), index);
    Scalar s;
    if (!is_tensor(value) && to_scalar(value, &s, false)) {
      index_ops().fill.call(view, s);
    } else {
      py::object v = is_tensor(value) ? py::reinterpret_borrow<py::object>(value)
                                      : py::module_::import("opscope").attr("tensor")(
                                            py::handle(value), py::arg("dtype") = py::handle(dtype_object(view.dtype())));
      // Leading dims of size 1 in the value are dropped first (torch's slicePrefix1sSize), so
      // t[0] = u with u of shape [1, 3] fills a row of 3.
      Tensor src = unwrap(v.ptr());
      bool same_shape = std::equal(src.sizes().begin(), src.sizes().end(), view.sizes().begin(),
                                   view.sizes().end());
      int64_t lead = 0;
      while (!same_shape && lead < src.dim() && src.sizes()[static_cast<size_t>(lead)] == 1) ++lead;
      if (lead > 0) src = index_ops().view.call(src, IntArrayRef(src.sizes().subspan(static_cast<size_t>(lead))));
      index_ops().copy.call(view, src, false);
    }
    Py_RETURN_NONE;
  });
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

}  // namespace opscope::python
