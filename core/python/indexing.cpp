// Tensor.__getitem__ / __setitem__, as torch 1.13's python_variable_indexing.cpp:
//   basic items become views through the dispatcher, one op each —
//     t[1]      -> select(t, 0, 1)           t[None]   -> unsqueeze(t, 0)
//     t[1:5:2]  -> slice(t, 0, 1, 5, 2)      t[...]    -> alias(t)
//   advanced items (integer / bool tensors, lists, and bools beside them) are collected per dim
//   of that view and handed to one aten::index (get) or aten::index_put_ (set) call:
//     t[mask]   -> index(t, [mask])          t[i, :, j] -> index(t, [i, None, j])
//     t[0, idx] -> select, index             t[m] = 0   -> index_put_(t, [m], tensor(0))
//   (index_put_ turns one mask and one value into masked_fill_, as torch's does.)
//   A basic set is torch's copy_to: t[0] = 3 -> select, fill_.Tensor (the number as a 0-d
//   tensor of t's dtype); t[0] = u -> select, copy_ (u expanded when its shape differs).
// See Note [Advanced indexing] in core/ops/indexing.h for the result shape.
//
// Torch's rules, kept here on purpose where NumPy's differ:
//   - a mask advances the running dim by one only, however many dims it covers (so
//     t[mask2d, 1:] fails in torch 1.13 too);
//   - ints are applied first as select, so t[0, :, idx] is index(t[0], [None, idx]) -> (n, k);
//   - a sequence (list, range, 2-d NumPy array, ...) holding a sequence, slice, None, Ellipsis or
//     tensor is a tuple (numpy's old rule), any other one is an int64 (or bool) index tensor;
//     floats in it are truncated.
// The one-tensor case t[mask] / t[idx] skips all of this: one dispatcher call, no Python objects.
#include <algorithm>
#include <vector>

#include <pybind11/numpy.h>

#include "core/dispatch/Dispatcher.h"
#include "core/python/python_common.h"
#include "core/ops/TensorIterator.h"

namespace opscope::python {

Scalar dispatched_item(const Tensor& t);  // python_dispatch.cpp: through _local_scalar_dense

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
  TypedOperatorHandle<Tensor(const Tensor&, const Tensor&)> fill_tensor =
      typed_op<Tensor(const Tensor&, const Tensor&)>("aten::fill_.Tensor");
  TypedOperatorHandle<Tensor(const Tensor&, IntArrayRef, bool)> expand =
      typed_op<Tensor(const Tensor&, IntArrayRef, bool)>("aten::expand");
  TypedOperatorHandle<Tensor(const Tensor&, const Tensor&, bool)> copy =
      typed_op<Tensor(const Tensor&, const Tensor&, bool)>("aten::copy_");
  TypedOperatorHandle<Tensor(const Tensor&, TensorList)> index =
      typed_op<Tensor(const Tensor&, TensorList)>("aten::index.Tensor");
  TypedOperatorHandle<Tensor(const Tensor&, TensorList, const Tensor&, bool)> index_put =
      typed_op<Tensor(const Tensor&, TensorList, const Tensor&, bool)>("aten::index_put_");
  TypedOperatorHandle<std::vector<Tensor>(const Tensor&)> nonzero_numpy =
      typed_op<std::vector<Tensor>(const Tensor&)>("aten::nonzero_numpy");
  TypedOperatorHandle<Tensor(const Tensor&)> nonzero =
      typed_op<Tensor(const Tensor&)>("aten::nonzero");
};
const IndexOps& index_ops() {
  static const IndexOps ops;
  return ops;
}

bool is_int_index(PyObject* o) {
  if (PyBool_Check(o)) return false;
  if (PyLong_Check(o)) return true;
  if (is_tensor(o)) return false;
  // A NumPy array has __index__ too (for its 0-d form); an array of any rank is a sequence.
  return PyIndex_Check(o) && !PySequence_Check(o);
}

bool is_mask(const Tensor& t) {
  return t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::UInt8;
}

// A 0-d integer tensor indexes like an int (select); a 0-d bool / uint8 one like a bool.
bool is_int_scalar_tensor(const Tensor& t) {
  return t.dim() == 0 && is_integral(t.dtype(), false) && t.dtype() != ScalarType::UInt8;
}

// torch's treatSequenceAsTuple: a list (not a tuple, not a tensor) that holds a sequence,
// slice, tensor, None or Ellipsis is read as a tuple of indices.
bool list_is_tuple(PyObject* index) {
  if (is_tensor(index) || PyUnicode_Check(index) || PyBytes_Check(index) ||
      !PySequence_Check(index))
    return false;
  Py_ssize_t n = PySequence_Size(index);
  if (n < 0) {
    PyErr_Clear();
    return false;
  }
  if (n >= 32) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_GetItem(index, i);
    if (!item) {
      PyErr_Clear();
      return false;
    }
    bool yes = is_tensor(item) || PySequence_Check(item) || PySlice_Check(item) ||
               item == Py_None || item == Py_Ellipsis;
    Py_DECREF(item);
    if (yes) return true;
  }
  return false;
}

// A Python sequence (list, numpy array, ...) as an index tensor: bool stays bool, uint8 stays
// uint8, everything else becomes int64 (torch's indexing_tensor_from_data).
Tensor sequence_to_index(PyObject* seq) {
  OPSCOPE_CHECK_TYPE(!PyUnicode_Check(seq) && !PyBytes_Check(seq), "new(): invalid data type '",
                     Py_TYPE(seq)->tp_name, "'");
  // A range, deque or other sequence reads as the list of its items (x[range(3)] is x[[0, 1, 2]]).
  py::object data = py::reinterpret_borrow<py::object>(seq);
  if (!PyList_Check(seq) && !PyTuple_Check(seq) && !py::isinstance<py::array>(seq)) {
    data = py::reinterpret_steal<py::object>(PySequence_List(seq));
    if (!data) throw py::error_already_set();
  }
  py::object t = py::module_::import("opscope").attr("tensor")(data);
  Tensor r = unwrap(t.ptr());
  if (is_mask(r) || r.dtype() == ScalarType::Int64) return r;
  Tensor as_long = make_empty(r.sizes(), ScalarType::Int64, r.device());
  index_ops().copy.call(as_long, r, false);
  return as_long;
}

// A bool index as the index tensor torch makes of it: [0] for True, [] for False (int64).
Tensor bool_index(bool value) {
  Tensor t = make_empty({value ? 1 : 0}, ScalarType::Int64);
  if (value) *t.data_ptr<int64_t>() = 0;
  return t;
}

// The result of the basic items, and the index tensors (per dim of it) the advanced ones left.
struct Sliced {
  Tensor view;
  std::vector<Tensor> indices;  // empty: no advanced indexing
  bool viewed = false;
};

Sliced apply_slicing(const Tensor& self, PyObject* index) {
  const IndexOps& ops = index_ops();
  // A single index is treated as a 1-tuple; a list is a tuple only by torch's rule above.
  py::object holder;
  PyObject* tuple = nullptr;
  if (PyTuple_Check(index)) {
    tuple = index;
  } else if (list_is_tuple(index)) {  // any sequence, as torch's (a 2-d NumPy array too)
    holder = py::reinterpret_steal<py::object>(PySequence_Tuple(index));
    if (!holder) throw py::error_already_set();
    tuple = holder.ptr();
  }
  Py_ssize_t n = tuple ? PyTuple_GET_SIZE(tuple) : 1;
  auto item_at = [&](Py_ssize_t i) { return tuple ? PyTuple_GET_ITEM(tuple, i) : index; };

  // Pass 1: how many dims the items name, and whether any item is advanced.
  int64_t specified = 0, bools = 0;
  bool advanced = false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* it = item_at(i);
    if (it == Py_Ellipsis) {
      // Several are allowed, as in torch 1.13 (each one spans the unnamed dims; NumPy refuses).
    } else if (is_tensor(it)) {
      const Tensor& t = unwrap(it);
      specified += is_mask(t) ? t.dim() : 1;
      advanced = advanced || !is_int_scalar_tensor(t);
    } else if (is_int_index(it) || PySlice_Check(it)) {
      ++specified;
    } else if (it == Py_None) {
    } else if (PyBool_Check(it)) {
      ++bools;
    } else if (PySequence_Check(it) && !PyUnicode_Check(it) && !PyBytes_Check(it)) {
      ++specified;
      advanced = true;
    } else if (PyUnicode_Check(it) || PyBytes_Check(it)) {
      throw TypeError(detail::str("new(): invalid data type '", Py_TYPE(it)->tp_name, "'"));
    } else {
      throw IndexError(
          detail::str("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                      "Variables are valid indices (got ",
                      Py_TYPE(it)->tp_name, ")"));
    }
  }
  if (self.dim() == 0 && !tuple && is_int_index(index)) {  // t[0], not t[0,]
    long long v = PyLong_AsLongLong(index);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    OPSCOPE_CHECK_INDEX(v != 0,
                        "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                        "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
    throw IndexError(detail::str("index ", v, " is out of bounds for dimension 0 with size 0"));
  }
  OPSCOPE_CHECK_INDEX(self.dim() > 0 || tuple || !PySlice_Check(index),
                      "slice() cannot be applied to a 0-dim tensor.");
  OPSCOPE_CHECK_INDEX(specified <= self.dim(), "too many indices for tensor of dimension ",
                      self.dim());
  // Bools are index tensors ([0] / []) once anything else is, or when there are several (they
  // broadcast together); a lone bool among basic items is the same as a view of a new dim.
  advanced = advanced || bools > 1;

  Sliced s;
  Tensor& result = s.view;
  result = self;
  int64_t dim = 0;  // the dim of `result` the next index applies to
  Py_ssize_t position =
      0;  // the item's place in the index tuple: torch's messages call it the dimension
  auto record = [&](Tensor t) {
    if (static_cast<int64_t>(s.indices.size()) < dim + 1)
      s.indices.resize(static_cast<size_t>(dim + 1));
    s.indices[static_cast<size_t>(dim)] = std::move(t);
    ++dim;
  };
  auto select = [&](int64_t v) {
    OPSCOPE_CHECK_INDEX(
        result.dim() > 0,
        "invalid index of a 0-dim tensor. Use `tensor.item()` in "
        "Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
    int64_t size = result->size(dim);
    OPSCOPE_CHECK_INDEX(v >= -size && v < size, "index ", v, " is out of bounds for dimension ",
                        position, " with size ", size);
    result = ops.select.call(result, dim, v);
    s.viewed = true;
  };
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* it = item_at(i);
    position = i;
    if (is_int_index(it)) {
      PyObject* as_long = PyNumber_Index(it);
      if (!as_long) throw py::error_already_set();
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(as_long, &overflow);
      Py_DECREF(as_long);
      OPSCOPE_CHECK_INDEX(!overflow || result.dim() == 0, "index ", py::str(it).cast<std::string>(),
                          " is out of bounds for dimension ", position, " with size ",
                          result.dim() ? result->size(dim) : 0);
      select(v);
    } else if (PySlice_Check(it)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(it, &start, &stop, &step) < 0) throw py::error_already_set();
      OPSCOPE_CHECK_VALUE(step > 0, "step must be greater than zero");
      Py_ssize_t length = static_cast<Py_ssize_t>(result->size(dim));
      PySlice_AdjustIndices(length, &start, &stop, step);
      if (!(start == 0 && stop == length && step == 1)) {  // `:` is no op, as in torch
        result = ops.slice.call(result, dim, static_cast<int64_t>(start),
                                static_cast<int64_t>(stop), step);
        s.viewed = true;
      }
      ++dim;
    } else if (it == Py_None) {
      result = ops.unsqueeze.call(result, dim);
      s.viewed = true;
      ++dim;
    } else if (it == Py_Ellipsis) {
      dim += self.dim() - specified;
    } else if (PyBool_Check(it)) {
      result = ops.unsqueeze.call(result, dim);
      s.viewed = true;
      if (advanced) {
        record(bool_index(it == Py_True));
      } else {  // only basic items: a view (t[True] adds a dim of 1, t[False] one of 0)
        if (it == Py_False) result = ops.slice.call(result, dim, 0, 0, 1);
        ++dim;
      }
    } else if (is_tensor(it)) {
      const Tensor& t = unwrap(it);
      if (is_int_scalar_tensor(t)) {
        select(dispatched_item(t).to_long());
      } else if (t.dim() == 0 && is_mask(t)) {
        result = ops.unsqueeze.call(result, dim);
        s.viewed = true;
        record(bool_index(dispatched_item(t).to_bool()));
      } else {
        record(t);
      }
    } else {
      record(sequence_to_index(it));
    }
  }
  return s;
}

// t[index]: a single index tensor of a mask or int64 dtype goes straight to aten::index.
Tensor get_item(const Tensor& self, PyObject* index) {
  if (is_tensor(index)) {
    const Tensor& t = unwrap(index);
    if (t.dim() > 0 && (is_mask(t) || t.dtype() == ScalarType::Int64)) {
      OPSCOPE_CHECK_INDEX((is_mask(t) ? t.dim() : 1) <= self.dim(),
                          "too many indices for tensor of dimension ", self.dim());
      return index_ops().index.call(self, TensorList(&t, 1));
    }
  }
  Sliced s = apply_slicing(self, index);
  if (!s.indices.empty()) return index_ops().index.call(s.view, s.indices);
  // t[...] and t[:] still return a new tensor object (an alias), never self.
  return s.viewed ? s.view : index_ops().alias.call(s.view);
}

// Leading dims of size 1 in the value are dropped first (torch's slicePrefix1sSize), so
// t[0] = u with u of shape [1, 3] fills a row of 3.
Tensor drop_leading_ones(const Tensor& src, IntArrayRef target) {
  bool same_shape = std::ranges::equal(src.sizes(), target);
  int64_t lead = 0;
  while (!same_shape && lead < src.dim() && src.sizes()[static_cast<size_t>(lead)] == 1) ++lead;
  if (lead == 0) return src;
  return index_ops().view.call(src, IntArrayRef(src.sizes().subspan(static_cast<size_t>(lead))));
}

// A value that is not a tensor or a number, as a tensor of self's dtype (lists).
Tensor value_tensor(PyObject* value, ScalarType dtype) {
  py::object v = py::module_::import("opscope").attr("tensor")(
      py::handle(value), py::arg("dtype") = py::handle(dtype_object(dtype)));
  return unwrap(v.ptr());
}

void set_item(const Tensor& self, PyObject* index, PyObject* value) {
  OPSCOPE_CHECK_TYPE(value != nullptr, "Tensor does not support deleting items");
  const IndexOps& ops = index_ops();
  Sliced s = apply_slicing(self, index);
  Scalar scalar;
  bool is_number = !is_tensor(value) && to_scalar(value, &scalar, false);
  if (s.indices.empty()) {  // torch's copy_to
    const Tensor& view = s.view;
    Tensor src = is_number          ? scalar_to_tensor(scalar, self.dtype())
                 : is_tensor(value) ? unwrap(value)
                                    : value_tensor(value, view.dtype());
    if (std::ranges::equal(src.sizes(), view.sizes())) {
      ops.copy.call(view, src, false);
    } else if (src.dim() == 0) {
      ops.fill_tensor.call(view, src);
    } else {
      ops.copy.call(
          view, ops.expand.call(drop_leading_ones(src, view.sizes()), view.sizes(), false), false);
    }
    return;
  }
  // Advanced: one index_put_ with the value as a tensor of self's dtype (a number becomes a 0-d
  // one).
  Tensor v = is_number          ? scalar_to_tensor(scalar, self.dtype())
             : is_tensor(value) ? unwrap(value)
                                : value_tensor(value, self.dtype());
  if (v.dim() > 0) {
    int64_t lead = 0;
    while (lead < v.dim() && v.sizes()[static_cast<size_t>(lead)] == 1) ++lead;
    if (lead > 0) v = ops.view.call(v, IntArrayRef(v.sizes().subspan(static_cast<size_t>(lead))));
  }
  ops.index_put.call(s.view, s.indices, v, false);
}

}  // namespace

PyObject* tensor_getitem(PyObject* self, PyObject* index) {
  return guarded([&] { return wrap(get_item(unwrap(self), index)); });
}

int tensor_setitem(PyObject* self, PyObject* index, PyObject* value) {
  PyObject* r = guarded([&]() -> PyObject* {
    set_item(unwrap(self), index, value);
    Py_RETURN_NONE;
  });
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

// --- torch.nonzero(input, *, as_tuple=False, out=None) -------------------------------------

namespace {

// nonzero with torch's Python-only as_tuple flag: as_tuple=True is aten::nonzero_numpy.
PyObject* nonzero_with_as_tuple(PyObject* op, PyObject* args, PyObject* kwargs, bool method_self,
                                PyObject* self) {
  return guarded([&]() -> PyObject* {
    PyObject* as_tuple = kwargs ? PyDict_GetItemString(kwargs, "as_tuple") : nullptr;
    if (!as_tuple || !PyObject_IsTrue(as_tuple)) {
      py::dict kw = kwargs ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict();
      py::dict rest;
      for (auto item : kw)
        if (py::str(item.first).cast<std::string>() != "as_tuple") rest[item.first] = item.second;
      py::tuple a = py::reinterpret_borrow<py::tuple>(args);
      if (method_self) {
        py::list l;
        l.append(py::handle(self));
        for (auto x : a) l.append(x);
        a = py::tuple(l);
      }
      return py::handle(op)(*a, **rest).release().ptr();
    }
    PyObject* input = method_self
                          ? self
                          : (PyTuple_GET_SIZE(args) > 0
                                 ? PyTuple_GET_ITEM(args, 0)
                                 : (kwargs ? PyDict_GetItemString(kwargs, "input") : nullptr));
    OPSCOPE_CHECK_TYPE(input && is_tensor(input),
                       "nonzero() missing required argument 'input' (a Tensor)");
    std::vector<Tensor> cols = index_ops().nonzero_numpy.call(unwrap(input));
    py::tuple out(cols.size());
    for (size_t i = 0; i < cols.size(); ++i)
      out[i] = py::reinterpret_steal<py::object>(wrap(cols[i]));
    return out.release().ptr();
  });
}

}  // namespace

// Installs nonzero(..., as_tuple=) as torch's function and Tensor method, wrapping the
// schema-derived callables that init_ops made: module.cpp calls it after init_ops(m).
void init_indexing(py::module_& m) {
  py::object functions = m.attr("_VariableFunctions");
  py::object fn_op = functions.attr("nonzero");
  py::object method_op =
      py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(g_tensor_type))
          .attr("nonzero");
  functions.attr("nonzero") = py::cpp_function(
      [fn_op](py::args args, py::kwargs kwargs) {
        PyObject* r = nonzero_with_as_tuple(fn_op.ptr(), args.ptr(), kwargs.ptr(), false, nullptr);
        if (!r) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(r);
      },
      py::name("nonzero"), py::doc("nonzero(input, *, out=None, as_tuple=False)"));
  py::object method = py::cpp_function(
      [method_op](py::object self, py::args args, py::kwargs kwargs) {
        PyObject* r =
            nonzero_with_as_tuple(method_op.ptr(), args.ptr(), kwargs.ptr(), true, self.ptr());
        if (!r) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(r);
      },
      py::name("nonzero"));
  // An instancemethod binds `self` as the schema-derived methods do.
  py::object bound = py::reinterpret_steal<py::object>(PyInstanceMethod_New(method.ptr()));
  if (!bound || PyObject_SetAttrString(reinterpret_cast<PyObject*>(g_tensor_type), "nonzero",
                                       bound.ptr()) < 0)
    throw py::error_already_set();
}

}  // namespace opscope::python
