// opscope.Tensor: the Python type, its attributes, and the number protocol.
//
// `a + b` enters nb_add below and goes straight to the dispatcher through the op's typed handle
// (no argument parsing, no boxing) — the fast path for the most common calls. Everything named
// (t.add(b), t.view(3), opscope.add) goes through the schema-driven parser in ops.cpp.
#include "core/autograd/AutogradMeta.h"
#include "core/autograd/Node.h"
#include "core/dispatch/Dispatcher.h"
#include "core/python/gil.h"
#include "core/python/python_common.h"
#include "core/python/torch_function.h"
#include "core/ops/TensorIterator.h"

#include <structmember.h>  // after Python.h

namespace opscope {
// TensorImpl.cpp: called when a TensorImpl that owns its Python object dies (no header, so that
// setting it costs no rebuild of everything that includes TensorImpl.h).
extern void (*g_release_preserved_pyobj)(TensorImpl*);
}  // namespace opscope

namespace opscope::python {

PyTypeObject* g_tensor_type = nullptr;
PyObject* tensor_getitem(PyObject* self, PyObject* index);  // indexing.cpp
int tensor_setitem(PyObject* self, PyObject* index, PyObject* value);
bool is_storageless(const Tensor& t);    // python_dispatch.cpp: a wrapper subclass's tensor
Scalar dispatched_item(const Tensor& t);  // its value, through _local_scalar_dense when watched

// python_dispatch.cpp: a subclass object with __torch_dispatch__ gets the Python key; a Python
// object its TensorImpl kept alive goes back to being owned by Python.
void on_subclass_object(PyObject* obj);
void reclaim_pyobj(PyObject* obj);

static PyObject* wrap_as(PyTypeObject* type, Tensor t) {
  PyObject* obj = type->tp_alloc(type, 0);
  if (!obj) return nullptr;
  auto* pt = reinterpret_cast<PyTensor*>(obj);
  new (&pt->value) Tensor(std::move(t));
  pt->value->set_pyobj(obj);
  if (type != g_tensor_type) on_subclass_object(obj);
  return obj;
}

PyObject* wrap(Tensor t) {
  if (!t.defined()) Py_RETURN_NONE;
  if (PyObject* existing = t->pyobj()) {
    auto* pt = reinterpret_cast<PyTensor*>(existing);
    if (__builtin_expect(!pt->value.defined(), 0)) {
      // Preserved (Note [Python object preservation]): the TensorImpl's reference to the object
      // becomes the caller's, and the object holds the TensorImpl again.
      pt->value = std::move(t);
      return existing;
    }
    Py_INCREF(existing);
    reclaim_pyobj(existing);
    return existing;
  }
  return wrap_as(g_tensor_type, std::move(t));
}

py::object wrap_obj(Tensor t) {
  return py::reinterpret_steal<py::object>(wrap(std::move(t)));
}

Tensor wrapped_number(const Scalar& s) {
  ScalarType type = s.type();
  Tensor t = make_empty({}, type);
  dispatch_dtype(type, "wrapped_number", [&]<typename T>() { *t.data_ptr<T>() = s.to<T>(); });
  t->set_wrapped_number(true);
  return t;
}

namespace {

// --- lifetime ------------------------------------------------------------------------------
// Note [Python object preservation]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A tensor's Python object can carry state C++ knows nothing of: its class (a Tensor subclass) and
// its attributes (__dict__). When Python drops its last reference while C++ still holds the
// TensorImpl (autograd saved it for backward, it is a parameter's .grad, a view's base), that
// state must survive, and the tensor must come back as the same object: `y.grad_fn._saved_self is
// x`. As in PyTorch, the object is resurrected in its dealloc and the TensorImpl takes it over:
//
//   Python owns the object, the object owns the TensorImpl (PyTensor::value)   -- the usual state
//     dealloc, TensorImpl shared  ->  Py_INCREF(self); value dropped (left undefined)
//   the TensorImpl owns the object (pyobj_ set, value undefined)               -- preserved
//     wrap(t)  ->  value = t; the TensorImpl's reference is handed to the caller
//     ~TensorImpl  ->  g_release_preserved_pyobj: takes the GIL, Py_DECREF (the object dies)
//
// An undefined `value` under a set pyobj_ is what marks the preserved state; nothing else leaves a
// live object's value undefined. Only objects with state to keep are preserved (a subclass
// instance, a non-empty __dict__): a plain tensor's object is rebuilt at no loss. Differences from
// torch 1.13: weak references die when the object is preserved (torch keeps them), and a
// subclass's __slots__ and __del__ are handled by CPython before our dealloc runs (cleared / run).
//
// Caveats (the same as torch's): a reference cycle that goes through C++ is never collected —
// `x.me = y` where y's graph saved x keeps both alive for good (gc cannot see the graph's
// reference). And while C++ shares the TensorImpl, the gc does not traverse the object's __dict__:
// a cycle `x.me = x` must not be cleared by the gc just before the object is preserved; it is
// collected once C++ lets go. The release runs on whichever thread drops the TensorImpl (an engine
// thread too: it takes the GIL), and not at all once the interpreter is finalizing.
bool preservable(PyObject* self, const PyTensor* pt) {
  if (!pt->value.defined() || pt->value->use_count() <= 1 || pt->value->pyobj() != self)
    return false;
  if (Py_TYPE(self) == g_tensor_type && !(pt->dict && PyDict_GET_SIZE(pt->dict) > 0)) return false;
  return !python_is_going();
}

void release_preserved_pyobj(TensorImpl* impl) {
  if (python_is_going()) {  // nothing may touch Python now: the object is let go without a word
    impl->set_pyobj(nullptr);
    return;
  }
  py::gil_scoped_acquire gil;
  PyObject* obj = impl->pyobj();
  if (!obj || reinterpret_cast<PyTensor*>(obj)->value.defined()) return;
  impl->set_pyobj(nullptr);
  Py_DECREF(obj);
}

void tensor_dealloc(PyObject* self) {
  auto* pt = reinterpret_cast<PyTensor*>(self);
  PyTypeObject* type = Py_TYPE(self);
  if (preservable(self, pt)) {  // Note [Python object preservation]
    if (pt->weakrefs) PyObject_ClearWeakRefs(self);  // wants the count at 0
    Py_INCREF(self);
    Tensor held = std::move(pt->value);  // the object no longer holds it; it may die right here
    return;
  }
  PyObject_GC_UnTrack(self);
  if (pt->weakrefs) PyObject_ClearWeakRefs(self);
  Py_CLEAR(pt->dict);
  if (pt->value.defined() && pt->value->pyobj() == self) pt->value->set_pyobj(nullptr);
  pt->value.~Tensor();
  type->tp_free(self);
  Py_DECREF(type);
}

int tensor_traverse(PyObject* self, visitproc visit, void* arg) {
  // While C++ shares the TensorImpl, the object may be preserved: its __dict__ counts as a root
  // (Note [Python object preservation]).
  const auto* pt = reinterpret_cast<const PyTensor*>(self);
  if (!(pt->value.defined() && pt->value->use_count() > 1)) Py_VISIT(pt->dict);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

int tensor_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<PyTensor*>(self)->dict);
  return 0;
}

// Tensor(*sizes) -> uninitialized default-dtype tensor; Tensor(sequence) -> its data, default
// float dtype (torch.Tensor's legacy constructor: opscope/_legacy_tensor.py's legacy_new; the
// code below serves subclasses).
PyObject* tensor_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return guarded([&]() -> PyObject* {
    if (type == g_tensor_type) {  // torch's rules, shared with FloatTensor ...: _legacy_tensor.py
      py::object legacy = py::module_::import("opscope._legacy_tensor").attr("legacy_new");
      py::dict kw = kwargs ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict();
      return legacy(py::handle(dtype_object(default_dtype())), py::handle(args), kw)
          .release()
          .ptr();
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 1 && !PyLong_Check(PyTuple_GET_ITEM(args, 0))) {
      py::object tensor_fn = py::module_::import("opscope").attr("tensor");
      py::object t = tensor_fn(py::handle(PyTuple_GET_ITEM(args, 0)),
                               py::arg("dtype") = py::handle(dtype_object(default_dtype())));
      return wrap_as(type, Tensor(make_intrusive<TensorImpl>(
                               *unwrap(t.ptr()).impl(), unwrap(t.ptr()).sizes(),
                               unwrap(t.ptr()).strides(), unwrap(t.ptr())->storage_offset())));
    }
    DimVector sizes;
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* a = PyTuple_GET_ITEM(args, i);
      OPSCOPE_CHECK_TYPE(PyLong_Check(a), "Tensor(): expected ints as sizes, got ",
                         Py_TYPE(a)->tp_name);
      sizes.push_back(unpack_long(a));
    }
    if (n == 0) sizes.push_back(0);
    return wrap_as(type, make_empty(sizes, default_dtype()));
  });
}

// --- attributes ----------------------------------------------------------------------------
#define SELF (unwrap(self))

PyObject* get_shape(PyObject* self, void*) {
  return size_object(SELF.sizes());
}
PyObject* get_dtype(PyObject* self, void*) {
  PyObject* d = dtype_object(SELF.dtype());
  Py_INCREF(d);
  return d;
}
PyObject* get_device(PyObject* self, void*) {
  return guarded([&] { return device_object(SELF.device()); });
}
PyObject* get_ndim(PyObject* self, void*) {
  return PyLong_FromLongLong(SELF.dim());
}
PyObject* get_is_cuda(PyObject* self, void*) {
  return PyBool_FromLong(SELF.device().is_cuda());
}
PyObject* get_is_cpu(PyObject* self, void*) {
  return PyBool_FromLong(SELF.device().is_cpu());
}
PyObject* get_is_meta(PyObject* self, void*) {
  return PyBool_FromLong(SELF.device().type == DeviceType::Meta);
}
PyObject* get_version(PyObject* self, void*) {
  return guarded([&] {
    OPSCOPE_CHECK(!SELF->is_inference(), "Inference tensors do not track version counter.");
    return PyLong_FromUnsignedLong(SELF->version());
  });
}
PyObject* get_requires_grad(PyObject* self, void*) {
  return PyBool_FromLong(SELF->requires_grad());
}
int set_requires_grad(PyObject* self, PyObject* value, void*) {
  OPSCOPE_CHECK_TYPE(value && PyBool_Check(value), "requires_grad must be a bool");
  autograd::set_requires_grad(SELF, value == Py_True);
  return 0;
}
PyObject* get_is_leaf(PyObject* self, void*) {
  return PyBool_FromLong(autograd::is_leaf(SELF));
}
PyObject* get_grad_fn(PyObject* self, void*) {
  return guarded([&] { return node_object(autograd::grad_fn(SELF)); });
}
PyObject* get_grad(PyObject* self, void*) {
  auto* m = autograd::get_autograd_meta(SELF);
  if (m && m->grad_fn && !m->retain_hook && !m->grad.defined() &&
      PyErr_WarnEx(PyExc_UserWarning,
                   "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                   "Its .grad attribute won't be populated during autograd.backward(). If you "
                   "indeed want the .grad field to be populated for a non-leaf Tensor, use "
                   ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
                   "mistake, make sure you access the leaf Tensor instead. See "
                   "github.com/pytorch/pytorch/pull/30531 for more informations.",
                   1) < 0)
    return nullptr;
  return wrap(m ? m->grad : Tensor());
}
int set_grad(PyObject* self, PyObject* value, void*) {
  Tensor g;
  if (value && value != Py_None) {
    OPSCOPE_CHECK_TYPE(is_tensor(value),
                       "assigned grad expected to be a Tensor or None but got grad of type ",
                       Py_TYPE(value)->tp_name);
    g = unwrap(value);
    OPSCOPE_CHECK(g.dtype() == SELF.dtype(), "assigned grad has data of a different type");
    OPSCOPE_CHECK(g.sizes().size() == SELF.sizes().size() &&
                      std::equal(g.sizes().begin(), g.sizes().end(), SELF.sizes().begin()),
                  "assigned grad has data of a different size");
  }
  if (g.defined() || autograd::get_autograd_meta(SELF))
    autograd::materialize_autograd_meta(SELF).grad = g;
  return 0;
}
PyObject* get_layout(PyObject* self, void*) {
  return py::object(py::module_::import("opscope").attr("strided")).release().ptr();
}

PyGetSetDef tensor_getset[] = {
    {"shape", guard<tf_getter<get_shape>>, nullptr, "The size of the tensor, an opscope.Size.", const_cast<char*>("shape")},
    {"dtype", guard<tf_getter<get_dtype>>, nullptr, "The element type.", const_cast<char*>("dtype")},
    {"device", guard<tf_getter<get_device>>, nullptr, "Where the tensor's memory lives.", const_cast<char*>("device")},
    {"ndim", guard<tf_getter<get_ndim>>, nullptr, "Number of dimensions.", const_cast<char*>("ndim")},
    {"is_cuda", guard<tf_getter<get_is_cuda>>, nullptr, nullptr, const_cast<char*>("is_cuda")},
    {"is_cpu", guard<tf_getter<get_is_cpu>>, nullptr, nullptr, const_cast<char*>("is_cpu")},
    {"is_meta", guard<tf_getter<get_is_meta>>, nullptr, nullptr, const_cast<char*>("is_meta")},
    {"_version", guard<tf_getter<get_version>>, nullptr, "In-place writes so far (shared with views).", const_cast<char*>("_version")},
    {"requires_grad", guard<tf_getter<get_requires_grad>>, guard<tf_setter<set_requires_grad>>, nullptr, const_cast<char*>("requires_grad")},
    {"is_leaf", guard<tf_getter<get_is_leaf>>, nullptr, nullptr, const_cast<char*>("is_leaf")},
    {"grad_fn", guard<tf_getter<get_grad_fn>>, nullptr, nullptr, const_cast<char*>("grad_fn")},
    {"grad", guard<tf_getter<get_grad>>, guard<tf_setter<set_grad>>, nullptr, const_cast<char*>("grad")},
    {"layout", guard<tf_getter<get_layout>>, nullptr, nullptr, const_cast<char*>("layout")},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// --- small methods -------------------------------------------------------------------------
PyObject* optional_dim_query(PyObject* self, PyObject* args, PyObject* kwargs, bool strides) {
  return guarded([&]() -> PyObject* {
    static const char* names[] = {"dim", nullptr};
    PyObject* dim = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, strides ? "|O:stride" : "|O:size",
                                     const_cast<char**>(names), &dim))
      return nullptr;
    if (dim == Py_None) {
      if (!strides) return size_object(SELF.sizes());
      IntArrayRef st = SELF.strides();
      PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(st.size()));
      for (size_t i = 0; i < st.size(); ++i)
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(st[i]));
      return t;
    }
    OPSCOPE_CHECK_TYPE(PyLong_Check(dim), (strides ? "stride" : "size"),
                       "(): argument 'dim' must be int, not ", Py_TYPE(dim)->tp_name);
    int64_t d = wrap_dim(unpack_long(dim), SELF.dim(), false);
    return PyLong_FromLongLong(strides ? SELF->stride(d) : SELF->size(d));
  });
}
PyObject* m_size(PyObject* self, PyObject* args, PyObject* kw) {
  return optional_dim_query(self, args, kw, false);
}
PyObject* m_stride(PyObject* self, PyObject* args, PyObject* kw) {
  return optional_dim_query(self, args, kw, true);
}
PyObject* m_dim(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(SELF.dim());
}
PyObject* m_numel(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(SELF.numel());
}
PyObject* m_element_size(PyObject* self, PyObject*) {
  return PyLong_FromSize_t(SELF->itemsize());
}
PyObject* m_storage_offset(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(SELF->storage_offset());
}
PyObject* m_data_ptr(PyObject* self, PyObject*) {
  // A wrapper subclass has no storage: torch's data_ptr() is then the offset from a null
  // storage (0 for the wrapper itself, storage_offset * itemsize for a view of it).
  if (is_storageless(SELF))
    return PyLong_FromLongLong(SELF->storage_offset() * static_cast<int64_t>(SELF->itemsize()));
  return PyLong_FromVoidPtr(SELF.data());
}
// The tensor's whole storage as a 1-D tensor from element 0, read as `dtype` (its own when None):
// what opscope/storage.py holds. Made directly, not by ops (torch's x.storage() runs none, so
// neither does a trace of it); outside autograd, not a view.
PyObject* m_storage_flat(PyObject* self, PyObject* dtype) {
  OPSCOPE_CHECK(!is_storageless(SELF),
                "Cannot access storage of a tensor that has no storage (a wrapper subclass)");
  OPSCOPE_CHECK_TYPE(dtype == Py_None || is_dtype_object(dtype),
                     "_storage_flat(): expected a dtype or None, got ", Py_TYPE(dtype)->tp_name);
  const ScalarType t = dtype == Py_None ? SELF.dtype() : dtype_of_object(dtype);
  const Storage& storage = SELF->storage();
  const int64_t n = static_cast<int64_t>(storage->nbytes() / element_size(t));
  const int64_t one = 1;
  return wrap(Tensor(make_intrusive<TensorImpl>(storage, t, IntArrayRef(&n, 1),
                                                IntArrayRef(&one, 1), 0)));
}
PyObject* m_is_inference(PyObject* self, PyObject*) {
  return PyBool_FromLong(SELF->is_inference());
}

PyObject* m_is_floating_point(PyObject* self, PyObject*) {
  return PyBool_FromLong(is_floating(SELF.dtype()));
}
// Whether a 4-D tensor's strides are those of NHWC order (torch's channels-last contiguity):
// C varies fastest, then W, H, N; dims of size 1 may have any stride.
bool is_channels_last_contiguous(const Tensor& t) {
  if (t.dim() != 4) return false;
  int64_t expected = 1;
  for (int d : {1, 3, 2, 0}) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

// t.is_contiguous(*, memory_format=opscope.contiguous_format)
PyObject* m_is_contiguous(PyObject* self, PyObject* args, PyObject* kw) {
  return guarded([&]() -> PyObject* {
    Py_ssize_t nargs = args ? PyTuple_GET_SIZE(args) : 0;
    if (nargs)
      throw TypeError("is_contiguous() takes 0 positional arguments but " +
                      std::to_string(nargs) + (nargs == 1 ? " was" : " were") + " given");
    PyObject* format = nullptr;
    PyObject *key, *value_obj;
    for (Py_ssize_t pos = 0; kw && PyDict_Next(kw, &pos, &key, &value_obj);) {
      if (unpack_utf8(key) != "memory_format")
        throw TypeError("is_contiguous() got an unexpected keyword argument '" +
                        unpack_utf8(key) + "'");
      format = value_obj;
    }
    int64_t value = 0;  // contiguous_format; preserve_format reads as it (torch's default case)
    if (format) {
      py::handle h(format);
      if (!py::hasattr(h, "_opscope_enum") ||
          std::string_view(Py_TYPE(format)->tp_name) != "memory_format")
        throw TypeError(std::string("is_contiguous(): argument 'memory_format' must be "
                                    "torch.memory_format, not ") + Py_TYPE(format)->tp_name);
      value = h.attr("_opscope_enum").cast<int64_t>();
    }
    constexpr int64_t kChannelsLast = 2;  // opscope/_enums.py
    return PyBool_FromLong(value == kChannelsLast ? is_channels_last_contiguous(SELF)
                                                  : SELF.is_contiguous());
  });
}
PyObject* m_requires_grad_(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&]() -> PyObject* {
    static const char* names[] = {"requires_grad", nullptr};
    int flag = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:requires_grad_", const_cast<char**>(names),
                                     &flag))
      return nullptr;
    OPSCOPE_CHECK(!flag || is_floating(SELF.dtype()),
                  "only Tensors of floating point dtype can require gradients");
    autograd::set_requires_grad(SELF, flag != 0);
    Py_INCREF(self);
    return self;
  });
}

PyObject* m_item(PyObject* self, PyObject*) {
  return guarded([&]() -> PyObject* {
    OPSCOPE_CHECK_VALUE(SELF.numel() == 1,
                        "only one element tensors can be converted to Python scalars");
    return scalar_to_py(dispatched_item(SELF));
  });
}

PyObject* tolist_rec(const Tensor& t, int64_t dim, int64_t offset) {
  if (dim == t.dim()) return scalar_to_py(read_element(t, offset));
  int64_t n = t->size(dim);
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    PyObject* item = tolist_rec(t, dim + 1, offset + i * t->stride(dim));
    if (!item) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return list;
}
PyObject* m_tolist(PyObject* self, PyObject*) {
  return guarded([&] {
    OPSCOPE_CHECK(!SELF.key_set().has(DispatchKey::Python),
                  ".tolist() is not supported for tensor subclasses.");
    return tolist_rec(SELF, 0, 0);
  });
}

// Tensor._make_subclass(cls, data, require_grad=False): a new `cls` object aliasing `data`
// (how nn.Parameter is made).
PyObject* m_make_subclass(PyObject*, PyObject* args, PyObject* kwargs) {
  return guarded([&]() -> PyObject* {
    static const char* names[] = {"cls", "data", "require_grad", nullptr};
    PyObject *cls, *data;
    int require_grad = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|p:_make_subclass", const_cast<char**>(names),
                                     &cls, &data, &require_grad))
      return nullptr;
    OPSCOPE_CHECK_TYPE(
        PyType_Check(cls) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), g_tensor_type),
        "cls must be a subclass of opscope.Tensor");
    OPSCOPE_CHECK_TYPE(is_tensor(data), "data must be a Tensor");
    const Tensor& d = unwrap(data);
    Tensor alias = make_alias_not_view(d);
    if (require_grad) autograd::set_requires_grad(alias, true);
    return wrap_as(reinterpret_cast<PyTypeObject*>(cls), std::move(alias));
  });
}

// t.as_subclass(cls): a `cls` object for an alias of t (aten::alias: the same memory, and a view
// in autograd's eyes), as torch does; the default __torch_function__ converts results with it.
PyObject* m_as_subclass(PyObject* self, PyObject* args, PyObject* kwargs) {
  return guarded([&]() -> PyObject* {
    static const char* names[] = {"cls", nullptr};
    PyObject* cls;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:as_subclass", const_cast<char**>(names),
                                     &cls))
      return nullptr;
    OPSCOPE_CHECK_TYPE(PyType_Check(cls), "cls must be a type (got ", Py_TYPE(cls)->tp_name, ")");
    OPSCOPE_CHECK(
        PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), g_tensor_type),
        "Creating a Tensor subclass from a class that does not inherit from Tensor is not "
        "possible. Make sure your class inherits from Tensor.");
    static const auto alias = typed_op<Tensor(const Tensor&)>("aten::alias");
    return wrap_as(reinterpret_cast<PyTypeObject*>(cls), alias.call(SELF));
  });
}

// Tensor's C++ methods by name, for __torch_function__ (see torch_function.h).
namespace method_name {
constexpr char size[] = "size";
constexpr char stride[] = "stride";
constexpr char dim[] = "dim";
constexpr char ndimension[] = "ndimension";
constexpr char numel[] = "numel";
constexpr char nelement[] = "nelement";
constexpr char element_size[] = "element_size";
constexpr char storage_offset[] = "storage_offset";
constexpr char data_ptr[] = "data_ptr";
constexpr char is_floating_point[] = "is_floating_point";
constexpr char is_inference[] = "is_inference";
constexpr char is_contiguous[] = "is_contiguous";
constexpr char requires_grad_[] = "requires_grad_";
constexpr char item[] = "item";
constexpr char tolist[] = "tolist";
}  // namespace method_name

PyMethodDef tensor_methods[] = {
    {"size", method<tf_varargs<m_size, method_name::size>>(), METH_VARARGS | METH_KEYWORDS, "size(dim=None)"},
    {"stride", method<tf_varargs<m_stride, method_name::stride>>(), METH_VARARGS | METH_KEYWORDS,
     "stride(dim=None)"},
    {"dim", method<tf_noargs<m_dim, method_name::dim>>(), METH_NOARGS, nullptr},
    {"ndimension", method<tf_noargs<m_dim, method_name::ndimension>>(), METH_NOARGS, nullptr},
    {"numel", method<tf_noargs<m_numel, method_name::numel>>(), METH_NOARGS, nullptr},
    {"nelement", method<tf_noargs<m_numel, method_name::nelement>>(), METH_NOARGS, nullptr},
    {"element_size", method<tf_noargs<m_element_size, method_name::element_size>>(), METH_NOARGS, nullptr},
    {"storage_offset", method<tf_noargs<m_storage_offset, method_name::storage_offset>>(), METH_NOARGS, nullptr},
    {"data_ptr", method<tf_noargs<m_data_ptr, method_name::data_ptr>>(), METH_NOARGS, nullptr},
    {"_storage_flat", method<m_storage_flat>(), METH_O,
     "_storage_flat(dtype): the whole storage as a 1-D tensor of dtype (None: the tensor's)."},
    {"is_floating_point", method<tf_noargs<m_is_floating_point, method_name::is_floating_point>>(), METH_NOARGS, nullptr},
    {"is_inference", method<tf_noargs<m_is_inference, method_name::is_inference>>(), METH_NOARGS,
     "Whether the tensor was made in inference mode (opscope.inference_mode)."},
    {"is_contiguous", method<tf_varargs<m_is_contiguous, method_name::is_contiguous>>(), METH_VARARGS | METH_KEYWORDS,
     nullptr},
    {"requires_grad_", method<tf_varargs<m_requires_grad_, method_name::requires_grad_>>(),
     METH_VARARGS | METH_KEYWORDS, nullptr},
    {"item", method<tf_noargs<m_item, method_name::item>>(), METH_NOARGS, "The value of a one-element tensor as a Python number."},
    {"tolist", method<tf_noargs<m_tolist, method_name::tolist>>(), METH_NOARGS, "The tensor as nested Python lists."},
    {"as_subclass", method<m_as_subclass>(), METH_VARARGS | METH_KEYWORDS,
     "as_subclass(cls): this tensor's data as a `cls` object."},
    {"_make_subclass", method<m_make_subclass>(),
     METH_VARARGS | METH_KEYWORDS | METH_STATIC, nullptr},
    {nullptr, nullptr, 0, nullptr}};

// --- number protocol -----------------------------------------------------------------------
using Binary = Tensor (*)(const Tensor&, const Tensor&);

template <typename Sig>
TypedOperatorHandle<Sig> op(const char* name) {
  return typed_op<Sig>(name);
}
using TTS = Tensor(const Tensor&, const Tensor&, const Scalar&);
using TT = Tensor(const Tensor&, const Tensor&);
using TS = Tensor(const Tensor&, const Scalar&);

// Converts a binary operand: a tensor as is, a Python number as a wrapped 0-d tensor.
// Returns false for anything else (the operator then returns NotImplemented).
bool operand(PyObject* o, Tensor* out) {
  if (is_tensor(o)) {
    *out = unwrap(o);
    return true;
  }
  Scalar s;
  if (!to_scalar(o, &s, false)) return false;
  *out = wrapped_number(s);
  return true;
}

template <typename F>
PyObject* binary(PyObject* a, PyObject* b, F&& f) {
  return guarded([&]() -> PyObject* {
    Tensor ta, tb;
    if (!operand(a, &ta) || !operand(b, &tb)) Py_RETURN_NOTIMPLEMENTED;
    bool left_is_tensor = is_tensor(a);
    Tensor result;
    {
      ReleaseGilFor no_gil({&ta, &tb});
      result = f(ta, tb, left_is_tensor);
    }
    return wrap(std::move(result));
  });
}

PyObject* nb_add(PyObject* a, PyObject* b) {
  static const auto add = op<TTS>("aten::add.Tensor");
  return binary(a, b, [](const Tensor& x, const Tensor& y, bool) { return add.call(x, y, 1); });
}
PyObject* nb_sub(PyObject* a, PyObject* b) {
  static const auto sub = op<TTS>("aten::sub.Tensor");
  static const auto rsub =
      op<Tensor(const Tensor&, const Scalar&, const Scalar&)>("aten::rsub.Scalar");
  Scalar s;
  if (!is_tensor(a) && is_tensor(b) && to_scalar(a, &s, false))  // `2 - t` is torch's rsub(t, 2)
    return guarded([&] { return wrap(rsub.call(unwrap(b), s, 1)); });
  return binary(a, b, [](const Tensor& x, const Tensor& y, bool) { return sub.call(x, y, 1); });
}
PyObject* nb_mul(PyObject* a, PyObject* b) {
  static const auto mul = op<TT>("aten::mul.Tensor");
  return binary(a, b, [](const Tensor& x, const Tensor& y, bool left_is_tensor) {
    return left_is_tensor ? mul.call(x, y) : mul.call(y, x);
  });
}
PyObject* nb_truediv(PyObject* a, PyObject* b) {
  static const auto div = op<TT>("aten::div.Tensor");
  static const auto reciprocal = op<Tensor(const Tensor&)>("aten::reciprocal");
  static const auto mul = op<TT>("aten::mul.Tensor");
  Scalar s;
  if (!is_tensor(a) && is_tensor(b) && to_scalar(a, &s, false))  // `2 / t`: torch's __rdiv__,
    return guarded([&] {                                         // reciprocal(t) * 2
      return wrap(mul.call(reciprocal.call(unwrap(b)), wrapped_number(s)));
    });
  return binary(a, b, [](const Tensor& x, const Tensor& y, bool) { return div.call(x, y); });
}
PyObject* nb_matmul(PyObject* a, PyObject* b) {
  static const auto matmul = op<TT>("aten::matmul");
  if (!is_tensor(a) || !is_tensor(b)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&] {
    const Tensor &x = unwrap(a), &y = unwrap(b);
    Tensor result;
    {
      ReleaseGilFor no_gil({&x, &y});
      result = matmul.call(x, y);
    }
    return wrap(std::move(result));
  });
}
PyObject* nb_pow(PyObject* a, PyObject* b, PyObject* mod) {
  static const auto pow_tt = op<TT>("aten::pow.Tensor_Tensor");
  static const auto pow_ts = op<TS>("aten::pow.Tensor_Scalar");
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&]() -> PyObject* {
    Scalar s;
    if (is_tensor(a) && is_tensor(b)) return wrap(pow_tt.call(unwrap(a), unwrap(b)));
    if (is_tensor(a) && to_scalar(b, &s, false)) return wrap(pow_ts.call(unwrap(a), s));
    if (is_tensor(b) && to_scalar(a, &s, false)) {
      // `2 ** t`: torch's __rpow__ makes 2 a 0-d tensor of result_type(2, t): pow.Tensor_Tensor
      static const auto scalar_tensor =
          op<Tensor(const Scalar&, std::optional<ScalarType>, std::optional<int64_t>,
                    std::optional<Device>, std::optional<bool>)>("aten::scalar_tensor");
      const Tensor& t = unwrap(b);
      Tensor base =
          scalar_tensor.call(s, result_type(t, s), std::nullopt, t.device(), std::nullopt);
      return wrap(pow_tt.call(base, t));
    }
    Py_RETURN_NOTIMPLEMENTED;
  });
}
// `t // u`, `t % u`, `t << u`, `t >> u` and their reflected forms (`2 // t`): floor_divide,
// remainder and the bit shifts, a Python number wrapped like torch's (see core/ops/pointwise.h).
template <const char* Name>
PyObject* binary_tensor_op(PyObject* a, PyObject* b) {
  static const auto f = op<TT>(Name);
  return binary(a, b, [](const Tensor& x, const Tensor& y, bool) { return f.call(x, y); });
}
constexpr char kFloorDivide[] = "aten::floor_divide";
constexpr char kRemainder[] = "aten::remainder.Tensor";
constexpr char kLeftShift[] = "aten::bitwise_left_shift.Tensor";
constexpr char kRightShift[] = "aten::bitwise_right_shift.Tensor";
PyObject* nb_abs(PyObject* a) {
  static const auto abs = op<Tensor(const Tensor&)>("aten::abs");
  return guarded([&] { return wrap(abs.call(unwrap(a))); });
}
// `t //= u`, `t %= u`, `t <<= u`, `t >>= u`
template <const char* Name>
PyObject* inplace_tensor_op(PyObject* a, PyObject* b);

// `t & u` runs bitwise_and.Tensor, `t & 1` and `1 & t` bitwise_and.Scalar (torch's __and__).
template <const char* Name>
PyObject* bitwise(PyObject* a, PyObject* b) {
  static const auto tensor_op = op<TT>((std::string(Name) + ".Tensor").c_str());
  static const auto scalar_op = op<TS>((std::string(Name) + ".Scalar").c_str());
  return guarded([&]() -> PyObject* {
    Scalar s;
    if (is_tensor(a) && is_tensor(b)) return wrap(tensor_op.call(unwrap(a), unwrap(b)));
    if (is_tensor(a) && to_scalar(b, &s, false)) return wrap(scalar_op.call(unwrap(a), s));
    if (is_tensor(b) && to_scalar(a, &s, false)) return wrap(scalar_op.call(unwrap(b), s));
    Py_RETURN_NOTIMPLEMENTED;
  });
}
constexpr char kAnd[] = "aten::bitwise_and";
constexpr char kOr[] = "aten::bitwise_or";
constexpr char kXor[] = "aten::bitwise_xor";

PyObject* nb_neg(PyObject* a) {
  static const auto neg = op<Tensor(const Tensor&)>("aten::neg");
  return guarded([&] { return wrap(neg.call(unwrap(a))); });
}
PyObject* nb_pos(PyObject* a) {
  return guarded([&]() -> PyObject* {
    OPSCOPE_CHECK(unwrap(a).dtype() != ScalarType::Bool,
                  "The `+` operator, on a bool tensor is not supported.");
    Py_INCREF(a);
    return a;
  });
}
PyObject* nb_invert(PyObject* a) {
  static const auto f = op<Tensor(const Tensor&)>("aten::bitwise_not");
  return guarded([&] {
    OPSCOPE_CHECK_TYPE(
        is_integral(unwrap(a).dtype(), /*include_bool=*/true),
        "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
    return wrap(f.call(unwrap(a)));
  });
}

// In-place operators: self must be a tensor; the result is self (the same Python object).
template <typename F>
PyObject* inplace(PyObject* a, PyObject* b, F&& f) {
  if (!is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&]() -> PyObject* {
    Tensor tb;
    if (!operand(b, &tb)) Py_RETURN_NOTIMPLEMENTED;
    const Tensor& ta = unwrap(a);
    {
      ReleaseGilFor no_gil({&ta, &tb});
      f(ta, tb);
    }
    Py_INCREF(a);
    return a;
  });
}
PyObject* nb_iadd(PyObject* a, PyObject* b) {
  static const auto f = op<TTS>("aten::add_.Tensor");
  return inplace(a, b, [](const Tensor& x, const Tensor& y) { f.call(x, y, 1); });
}
PyObject* nb_isub(PyObject* a, PyObject* b) {
  static const auto f = op<TTS>("aten::sub_.Tensor");
  return inplace(a, b, [](const Tensor& x, const Tensor& y) { f.call(x, y, 1); });
}
PyObject* nb_imul(PyObject* a, PyObject* b) {
  static const auto f = op<TT>("aten::mul_.Tensor");
  return inplace(a, b, [](const Tensor& x, const Tensor& y) { f.call(x, y); });
}
PyObject* nb_itruediv(PyObject* a, PyObject* b) {
  static const auto f = op<TT>("aten::div_.Tensor");
  return inplace(a, b, [](const Tensor& x, const Tensor& y) { f.call(x, y); });
}
// `t &= u`, `t |= 1`, `t **= 2`: the in-place ops, .Tensor or .Scalar as the operand is.
template <const char* Name>
PyObject* inplace_tensor_or_scalar(PyObject* a, PyObject* b) {
  static const auto tensor_op = op<TT>((std::string(Name) + ".Tensor").c_str());
  static const auto scalar_op = op<TS>((std::string(Name) + ".Scalar").c_str());
  if (!is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
  return guarded([&]() -> PyObject* {
    Scalar s;
    if (is_tensor(b))
      tensor_op.call(unwrap(a), unwrap(b));
    else if (to_scalar(b, &s, false))
      scalar_op.call(unwrap(a), s);
    else
      Py_RETURN_NOTIMPLEMENTED;
    Py_INCREF(a);
    return a;
  });
}
constexpr char kAndInplace[] = "aten::bitwise_and_";
constexpr char kOrInplace[] = "aten::bitwise_or_";
constexpr char kXorInplace[] = "aten::bitwise_xor_";
constexpr char kPowInplace[] = "aten::pow_";
PyObject* nb_ipow(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return inplace_tensor_or_scalar<kPowInplace>(a, b);
}

template <const char* Name>
PyObject* inplace_tensor_op(PyObject* a, PyObject* b) {
  static const auto f = op<TT>(Name);
  return inplace(a, b, [](const Tensor& x, const Tensor& y) { f.call(x, y); });
}
constexpr char kFloorDivideInplace[] = "aten::floor_divide_.Tensor";
constexpr char kRemainderInplace[] = "aten::remainder_.Tensor";
constexpr char kLeftShiftInplace[] = "aten::bitwise_left_shift_.Tensor";
constexpr char kRightShiftInplace[] = "aten::bitwise_right_shift_.Tensor";

// Conversions of one-element tensors.
Scalar single_value(PyObject* self, const char* what) {
  const Tensor& t = SELF;
  OPSCOPE_CHECK(t.numel() == 1, what);
  return dispatched_item(t);
}
// bool(t), `if t:`: aten::is_nonzero, as torch's __bool__ (its trace: is_nonzero -> item ->
// _local_scalar_dense; "no values" and "more than one value" are its errors).
int nb_bool(PyObject* self) {
  static const auto is_nonzero = op<bool(const Tensor&)>("aten::is_nonzero");
  PyObject* r = guarded([&]() -> PyObject* { return PyBool_FromLong(is_nonzero.call(SELF)); });
  if (!r) return -1;
  int v = r == Py_True;
  Py_DECREF(r);
  return v;
}
PyObject* nb_float(PyObject* self) {
  return guarded([&] {
    return PyFloat_FromDouble(
        single_value(self, "only one element tensors can be converted to Python scalars")
            .to_double());
  });
}
PyObject* nb_int(PyObject* self) {
  return guarded([&] {
    return PyLong_FromLongLong(
        single_value(self, "only one element tensors can be converted to Python scalars")
            .to_long());
  });
}
PyObject* nb_index(PyObject* self) {
  return guarded([&]() -> PyObject* {
    OPSCOPE_CHECK_TYPE(is_integral(SELF.dtype(), true) && SELF.numel() == 1,
                       "only integer tensors of a single element can be converted to an index");
    return PyLong_FromLongLong(dispatched_item(SELF).to_long());
  });
}

PyObject* richcompare(PyObject* a, PyObject* b, int cmp) {
  static const char* names[] = {"lt", "le", "eq", "ne", "gt", "ge"};
  return guarded([&]() -> PyObject* {
    if (!is_tensor(a)) Py_RETURN_NOTIMPLEMENTED;
    if (b == Py_None && (cmp == Py_EQ || cmp == Py_NE)) return PyBool_FromLong(cmp == Py_NE);
    std::string base = std::string("aten::") + names[cmp];
    if (is_tensor(b)) {
      auto f = Dispatcher::singleton().find_by_full_name(base + ".Tensor").typed<TT>();
      return wrap(f.call(unwrap(a), unwrap(b)));
    }
    Scalar s;
    if (!to_scalar(b, &s, false)) Py_RETURN_NOTIMPLEMENTED;
    auto f = Dispatcher::singleton().find_by_full_name(base + ".Scalar").typed<TS>();
    return wrap(f.call(unwrap(a), s));
  });
}

Py_ssize_t mp_length(PyObject* self) {
  if (SELF.dim() == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
    return -1;
  }
  return static_cast<Py_ssize_t>(SELF->size(0));
}

PyObject* tensor_iter(PyObject* self) {
  // Iterates over dim 0 (t[0], t[1], ...), as torch.Tensor.__iter__ does.
  if (SELF.dim() == 0) {
    PyErr_SetString(PyExc_TypeError, "iteration over a 0-d tensor");
    return nullptr;
  }
  return PySeqIter_New(self);
}

PyObject* sq_item(PyObject* self, Py_ssize_t i) {
  if (SELF.dim() > 0 && i >= SELF->size(0)) {
    PyErr_SetString(PyExc_IndexError, "index out of range");  // ends iteration
    return nullptr;
  }
  PyObject* index = PyLong_FromSsize_t(i);
  PyObject* r = tf_getitem<tensor_getitem, tf_name::getitem>(self, index);
  Py_DECREF(index);
  return r;
}

PyObject* default_repr(PyObject* self) {
  // Replaced by opscope/_tensor.py with torch's format; this one serves while bootstrapping.
  return PyUnicode_FromFormat("<opscope.Tensor %s>", SELF.short_str().c_str());
}

#undef SELF
}  // namespace

void init_tensor_type(py::module_& m) {
  static PyMemberDef members[] = {
      {"__dictoffset__", T_PYSSIZET, offsetof(PyTensor, dict), READONLY, nullptr},
      {"__weaklistoffset__", T_PYSSIZET, offsetof(PyTensor, weakrefs), READONLY, nullptr},
      {nullptr, 0, 0, 0, nullptr}};
  PyType_Slot slots[] = {
      {Py_tp_members, members},
      {Py_tp_dealloc, slot<tensor_dealloc>()},
      {Py_tp_traverse, slot<tensor_traverse>()},
      {Py_tp_clear, slot<tensor_clear>()},
      {Py_tp_new, slot<tensor_new>()},
      {Py_tp_repr, slot<default_repr>()},
      {Py_tp_getset, tensor_getset},
      {Py_tp_methods, tensor_methods},
      {Py_tp_hash, reinterpret_cast<void*>(PyBaseObject_Type.tp_hash)},
      {Py_tp_richcompare, slot<tf_richcompare<richcompare>>()},
      {Py_tp_iter, slot<tensor_iter>()},
      {Py_nb_add, slot<tf_binary<nb_add, tf_name::add, tf_name::add>>()},
      {Py_nb_subtract, slot<tf_binary<nb_sub, tf_name::sub, tf_name::rsub>>()},
      {Py_nb_multiply, slot<tf_binary<nb_mul, tf_name::mul, tf_name::mul>>()},
      {Py_nb_true_divide, slot<tf_binary<nb_truediv, tf_name::div, tf_name::rdiv>>()},
      {Py_nb_matrix_multiply, slot<tf_binary<nb_matmul, tf_name::matmul, tf_name::rmatmul>>()},
      {Py_nb_power, slot<tf_ternary<nb_pow, tf_name::pow, tf_name::rpow>>()},
      {Py_nb_floor_divide, slot<tf_binary<binary_tensor_op<kFloorDivide>, tf_name::floordiv, tf_name::rfloordiv>>()},
      {Py_nb_remainder, slot<tf_binary<binary_tensor_op<kRemainder>, tf_name::remainder, tf_name::rmod>>()},
      {Py_nb_lshift, slot<tf_binary<binary_tensor_op<kLeftShift>, tf_name::lshift, tf_name::rlshift>>()},
      {Py_nb_rshift, slot<tf_binary<binary_tensor_op<kRightShift>, tf_name::rshift, tf_name::rrshift>>()},
      {Py_nb_absolute, slot<tf_unary<nb_abs, tf_name::abs>>()},
      {Py_nb_inplace_floor_divide, slot<tf_binary<inplace_tensor_op<kFloorDivideInplace>, tf_name::ifloordiv, tf_name::ifloordiv>>()},
      {Py_nb_inplace_remainder, slot<tf_binary<inplace_tensor_op<kRemainderInplace>, tf_name::imod, tf_name::imod>>()},
      {Py_nb_inplace_lshift, slot<tf_binary<inplace_tensor_op<kLeftShiftInplace>, tf_name::ilshift, tf_name::ilshift>>()},
      {Py_nb_inplace_rshift, slot<tf_binary<inplace_tensor_op<kRightShiftInplace>, tf_name::irshift, tf_name::irshift>>()},
      {Py_nb_negative, slot<tf_unary<nb_neg, tf_name::neg>>()},
      {Py_nb_positive, slot<tf_unary<nb_pos, tf_name::pos>>()},
      {Py_nb_invert, slot<tf_unary<nb_invert, tf_name::invert>>()},
      {Py_nb_and, slot<tf_binary<bitwise<kAnd>, tf_name::and_, tf_name::rand_>>()},
      {Py_nb_or, slot<tf_binary<bitwise<kOr>, tf_name::or_, tf_name::ror_>>()},
      {Py_nb_xor, slot<tf_binary<bitwise<kXor>, tf_name::xor_, tf_name::rxor_>>()},
      {Py_nb_inplace_add, slot<tf_binary<nb_iadd, tf_name::iadd, tf_name::iadd>>()},
      {Py_nb_inplace_subtract, slot<tf_binary<nb_isub, tf_name::isub, tf_name::isub>>()},
      {Py_nb_inplace_multiply, slot<tf_binary<nb_imul, tf_name::imul, tf_name::imul>>()},
      {Py_nb_inplace_true_divide, slot<tf_binary<nb_itruediv, tf_name::idiv, tf_name::idiv>>()},
      {Py_nb_inplace_and, slot<tf_binary<inplace_tensor_or_scalar<kAndInplace>, tf_name::iand, tf_name::iand>>()},
      {Py_nb_inplace_or, slot<tf_binary<inplace_tensor_or_scalar<kOrInplace>, tf_name::ior, tf_name::ior>>()},
      {Py_nb_inplace_xor, slot<tf_binary<inplace_tensor_or_scalar<kXorInplace>, tf_name::ixor, tf_name::ixor>>()},
      {Py_nb_inplace_power, slot<tf_ternary<nb_ipow, tf_name::ipow, tf_name::ipow>>()},
      {Py_nb_bool, slot<tf_predicate<nb_bool, tf_name::bool_>>()},
      {Py_nb_float, slot<tf_unary<nb_float, tf_name::float_>>()},
      {Py_nb_int, slot<tf_unary<nb_int, tf_name::int_>>()},
      {Py_nb_index, slot<tf_unary<nb_index, tf_name::index>>()},
      {Py_mp_length, slot<mp_length>()},
      {Py_mp_subscript, slot<tf_getitem<tensor_getitem, tf_name::getitem>>()},
      {Py_mp_ass_subscript, slot<tf_setitem<tensor_setitem, tf_name::setitem>>()},
      {Py_sq_item, slot<sq_item>()},
      {Py_tp_doc, const_cast<char*>("A multi-dimensional array of one dtype on one device.")},
      {0, nullptr}};
  PyType_Spec spec = {"opscope.Tensor", sizeof(PyTensor), 0,
                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC, slots};
  g_tensor_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!g_tensor_type) throw py::error_already_set();
  m.add_object("Tensor", reinterpret_cast<PyObject*>(g_tensor_type));
  g_release_preserved_pyobj = release_preserved_pyobj;
}

}  // namespace opscope::python
