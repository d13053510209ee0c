// The Python dispatch key: __torch_dispatch__ subclasses and modes, kernels written in Python
// (opscope.library), and wrapper subclasses.
//
// Semantically, Python gets a say *below* autograd, as in torch: a tensor whose class defines
// __torch_dispatch__ carries the Python key, and an active TorchDispatchMode adds Python to the
// thread's include set. The Python key's kernel is one boxed fallback for every op: it turns the
// boxed arguments into Python values, split into args / kwargs as torch does, and calls the
// innermost mode's __torch_dispatch__ (the mode popped while it runs, so the ops it calls go to
// the next mode or to the kernels), then each subclass's (subclasses before their parents, left to
// right) until one does not return NotImplemented; its result goes back onto the stack. The
// choice and the calls are made by opscope.utils._python_dispatch._dispatch; a trace sees the
// Python step, a scope naming the handler ("LoggingMode.__torch_dispatch__"), and the ops it ran.
//
// A kernel registered from Python (opscope.library.Library.impl) is the same conversion around
// the user's function, marked as a Python kernel so traces show it with provenance "python kernel".
// Both calls into Python are C++ → Python crossings (crossing.h): a trace shows a scope
// "C++ → Python: __torch_dispatch__ aten::mm · GIL held" (or "python kernel twice") around them.
//
// In implementation terms: a Dispatcher fallback for DispatchKey::Python, a TLS switch for modes,
// hooks that core/tensor calls (a detach Python sees, and the release of a Python object a
// TensorImpl kept alive: Note [A Python tensor outlives its Python object]).
#include <pybind11/stl.h>

#include <mutex>
#include <unordered_set>

#include "core/autograd/AutogradMeta.h"
#include "core/dispatch/Library.h"
#include "core/dispatch/Observer.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/utility.h"
#include "core/python/arg_parser.h"
#include "core/python/crossing.h"
#include "core/runtime/LocalDispatchState.h"

namespace opscope {
// Hooks core/tensor calls when set (TensorImpl.cpp, Tensor.cpp): no header, so that setting them
// from here costs no rebuild of everything that includes TensorImpl.h.
extern void (*g_release_owned_pyobj)(TensorImpl*);
extern Tensor (*g_python_detach)(const Tensor&);
}  // namespace opscope

namespace opscope::python {

namespace {

// --- boxed values as Python sees them ------------------------------------------------------

PyObject* enum_object(const char* kind, int64_t value) {
  // opscope.strided, opscope.contiguous_format, ...: the object whose _opscope_enum is value.
  // Kept for the process (a static py::object would be released after Python is gone).
  static py::handle enums = py::module_::import("opscope._enums").release();
  for (const char* name : {"strided", "contiguous_format", "preserve_format", "channels_last"}) {
    py::object o = enums.attr(name);
    if (py::isinstance(o, enums.attr(kind)) && o.attr("_opscope_enum").cast<int64_t>() == value)
      return o.release().ptr();
  }
  return PyLong_FromLongLong(value);
}

py::object value_to_py(const IValue& v, const SchemaType& type) {
  switch (v.tag()) {
    case IValue::Tag::None:
      return py::none();
    case IValue::Tag::Tensor:
      return wrap_obj(v.to_tensor());
    case IValue::Tag::TensorList: {
      py::list l;
      for (const Tensor& t : v.to_tensor_list()) l.append(wrap_obj(t));
      return l;
    }
    case IValue::Tag::Double:
      return py::float_(v.to_double());
    case IValue::Tag::Bool:
      return py::bool_(v.to_bool());
    case IValue::Tag::Int:
      if (type.kind == TypeKind::Layout)
        return py::reinterpret_steal<py::object>(enum_object("layout", v.to_int()));
      if (type.kind == TypeKind::MemoryFormat)
        return py::reinterpret_steal<py::object>(enum_object("memory_format", v.to_int()));
      return py::int_(v.to_int());
    case IValue::Tag::IntList:
      return py::cast(v.to_int_list());
    case IValue::Tag::DoubleList:
      return py::cast(v.to_double_list());
    case IValue::Tag::String:
      return py::str(v.to_string());
    case IValue::Tag::ScalarType:
      return py::reinterpret_borrow<py::object>(dtype_object(v.to_scalar_type()));
    case IValue::Tag::Device:
      return py::reinterpret_steal<py::object>(device_object(v.to_device()));
    case IValue::Tag::Generator:
      return py::cast(v.to_generator());
  }
  return py::str(v.str());
}

// Whether an argument holds its schema default (torch leaves such arguments out of the call it
// shows Python). Defaults are never tensors.
bool is_default(const Argument& a, const IValue& v) {
  if (!a.default_value) return false;
  const IValue& d = *a.default_value;
  if (d.is_none() || v.is_none()) return d.is_none() && v.is_none();
  if (v.is_tensor() || v.is_tensor_list()) return false;
  if (d.is_scalar() && v.is_scalar()) {
    if ((d.tag() == IValue::Tag::Bool) != (v.tag() == IValue::Tag::Bool)) return false;
    return d.to_double() == v.to_double();
  }
  if (d.tag() != v.tag()) return false;
  return d.str() == v.str();
}

// The boxed arguments of a call as Python's (args, kwargs), as torch's
// parseIValuesToPyArgsKwargs splits them: positional arguments up to the last one that is not
// its default, keyword-only arguments that are not their default as keywords.
std::pair<py::tuple, py::dict> to_args_kwargs(const FunctionSchema& schema, const IValue* values) {
  const auto& params = schema.arguments;
  size_t kwarg_start = params.size();
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].kwarg_only) {
      kwarg_start = i;
      break;
    }
  size_t positional_end = kwarg_start;
  while (positional_end > 0 && is_default(params[positional_end - 1], values[positional_end - 1]))
    --positional_end;
  py::tuple args(positional_end);
  for (size_t i = 0; i < positional_end; ++i) args[i] = value_to_py(values[i], params[i].type);
  py::dict kwargs;
  for (size_t i = kwarg_start; i < params.size(); ++i)
    if (!is_default(params[i], values[i]))
      kwargs[py::str(params[i].name)] = value_to_py(values[i], params[i].type);
  return {args, kwargs};
}

// A Python result onto the stack, as the schema's returns say (in number and kind: callers read
// the stack by the schema).
void push_results(const OperatorHandle& op, py::handle r, Stack* stack) {
  const std::vector<Argument>& returns = op.schema().returns;
  auto push = [&](py::handle h, const Argument& ret) {
    const SchemaType& type = ret.type;
    auto refuse = [&] {
      throw TypeError(detail::str("a Python kernel for ", op.full_name(), " returned ",
                                  Py_TYPE(h.ptr())->tp_name, " where its schema has ",
                                  type.str()));
    };
    if (h.is_none() && (type.optional || returns.empty())) {
      stack->emplace_back();
    } else if (type.kind == TypeKind::Tensor && type.is_list) {
      if (!py::isinstance<py::sequence>(h) || py::isinstance<py::str>(h)) refuse();
      std::vector<Tensor> list;
      for (py::handle e : h) {
        if (!is_tensor(e.ptr())) refuse();
        list.push_back(unwrap(e.ptr()));
      }
      stack->emplace_back(std::move(list));
    } else if (type.kind == TypeKind::Tensor) {
      if (!is_tensor(h.ptr())) refuse();
      stack->emplace_back(unwrap(h.ptr()));
    } else if (type.is_list && (type.kind == TypeKind::Int || type.kind == TypeKind::SymInt)) {
      if (!py::isinstance<py::sequence>(h)) refuse();
      stack->emplace_back(h.cast<std::vector<int64_t>>());
    } else {
      Scalar value;
      if (type.is_list || !to_scalar(h.ptr(), &value, false)) refuse();
      stack->emplace_back(value);
    }
  };
  if (returns.size() > 1) {
    OPSCOPE_CHECK_TYPE(PyTuple_Check(r.ptr()) || PyList_Check(r.ptr()), "a Python kernel for ",
                       op.full_name(), " must return a tuple of ", returns.size(), " values, not ",
                       Py_TYPE(r.ptr())->tp_name);
    py::sequence values = py::reinterpret_borrow<py::sequence>(r);
    OPSCOPE_CHECK(values.size() == returns.size(), "a Python kernel for ", op.full_name(),
                  " returned ", values.size(), " values, its schema has ", returns.size());
    for (size_t i = 0; i < returns.size(); ++i) push(values[i], returns[i]);
  } else if (returns.size() == 1) {
    push(r, returns[0]);
  }
}

// Calls fn(*args, **kwargs) with the op's boxed arguments and leaves its results on the stack.
void call_python_boxed(const OperatorHandle& op, Stack* stack, py::handle fn) {
  const FunctionSchema& schema = op.schema();
  size_t n = schema.arguments.size();
  size_t base = stack->size() - n;
  auto [args, kwargs] = to_args_kwargs(schema, stack->data() + base);
  py::object r = fn(*args, **kwargs);
  stack->resize(base);
  push_results(op, r, stack);
}

// --- the Python key ------------------------------------------------------------------------

// The OpOverload object of an op (opscope.ops.aten.mm.default): the `func` handlers receive.
py::object overload_object(const OperatorHandle& op) {
  static py::handle of = py::module_::import("opscope.ops").attr("_overload_of").cast<py::object>().release();
  return of(op.full_name());
}

// Runs the handler Python chooses for the call on the stack (a mode or a subclass); false, with
// the stack untouched, when there is none (no mode, no argument whose class has
// __torch_dispatch__ and is still alive in Python).
bool dispatch_to_python(const OperatorHandle& op, Stack* stack) {
  static py::handle dispatch =
      py::module_::import("opscope.utils._python_dispatch").attr("_dispatch").cast<py::object>().release();
  static py::handle none_sentinel =
      py::module_::import("opscope.utils._python_dispatch").attr("_NO_HANDLER").cast<py::object>().release();
  const FunctionSchema& schema = op.schema();
  size_t n = schema.arguments.size();
  size_t base = stack->size() - n;
  auto [args, kwargs] = to_args_kwargs(schema, stack->data() + base);
  py::object r = dispatch(overload_object(op), args, kwargs);
  if (r.is(none_sentinel)) return false;
  stack->resize(base);
  push_results(op, r, stack);
  return true;
}

void python_fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  bool handled;
  {
    // Python chooses the handler (a mode or a subclass): the crossing is named after the op.
    CallIntoPython gil("__torch_dispatch__", py::handle(), op.full_name());  // takes the GIL
    handled = dispatch_to_python(op, stack);
  }
  // Nothing in Python for this call (a tensor that kept the key but not its Python object, say):
  // carry on below the Python key.
  if (!handled)
    op.redispatch_boxed(ks & DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::Python),
                        stack);
}

Tensor python_detach(const Tensor& t) {
  if (python_is_going()) return Tensor();
  CallIntoPython gil("__torch_dispatch__", py::handle(), "aten::detach");  // takes the GIL
  static const OperatorHandle detach = Dispatcher::singleton().find_by_full_name("aten::detach");
  Stack stack{t};
  if (!dispatch_to_python(detach, &stack)) return Tensor();
  return stack.back().to_tensor();
}

// Python's view of the key: which tensors bring it, whether a class handles it.
PyObject* g_disabled_dispatch = nullptr;  // Tensor.__torch_dispatch__

bool has_torch_dispatch(PyTypeObject* type) {
  static PyObject* name = PyUnicode_InternFromString("__torch_dispatch__");
  PyObject* attr = _PyType_Lookup(type, name);  // borrowed
  return attr && attr != g_disabled_dispatch;
}

// Note [A Python tensor outlives its Python object]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A __torch_dispatch__ subclass keeps its state in its Python object (LoggingTensor.elem). When
// C++ still holds the tensor (autograd saved it for backward) after Python dropped its last
// reference, that object must not die, or backward would meet a tensor without its state. As in
// torch (PyObject preservation), such an object is resurrected in its dealloc: the TensorImpl then
// owns the Python object, and the object's own Tensor handle is borrowed (uncounted). When Python
// finds the object again (wrap), ownership flips back; when the TensorImpl dies first, it releases
// the object (g_release_owned_pyobj). Only classes with __torch_dispatch__ get this dealloc: it
// runs before CPython's subtype_dealloc, which clears a subclass's __slots__ (LoggingTensor keeps
// `elem` in one) before the base dealloc — where Note [Python object preservation]
// (tensor_type.cpp) keeps every other tensor object with state.
std::mutex g_owned_mutex;
std::unordered_set<TensorImpl*> g_owned;  // TensorImpls that own their Python object
destructor g_subtype_dealloc = nullptr;   // the dealloc the patched classes had

void dispatch_subclass_dealloc(PyObject* self) {
  auto* pt = reinterpret_cast<PyTensor*>(self);
  Tensor& value = pt->value;
  if (value.defined() && value->pyobj() == self && value->use_count() > 1 &&
      value.key_set().has(DispatchKey::Python) && !python_is_going()) {
    Py_INCREF(self);  // resurrected: the TensorImpl owns it now
    {
      // Make the object's handle uncounted: drop its reference, keep its pointer.
      Tensor counted = value;
      value.~Tensor();
      std::memcpy(static_cast<void*>(&value), static_cast<void*>(&counted), sizeof(Tensor));
    }
    std::lock_guard lock(g_owned_mutex);
    g_owned.insert(value.impl());
    return;
  }
  // CPython's subtype_dealloc looks for the first class up the chain whose dealloc is not its own
  // and calls that: the patched classes get theirs back for the call (else it would call this).
  PyTypeObject* type = Py_TYPE(self);
  Py_INCREF(type);  // the object's reference to its class goes inside the call
  SmallVector<PyTypeObject*, 4> patched;
  for (PyTypeObject* t = type; t; t = t->tp_base)
    if (t->tp_dealloc == dispatch_subclass_dealloc) {
      t->tp_dealloc = g_subtype_dealloc;
      patched.push_back(t);
    }
  g_subtype_dealloc(self);
  for (PyTypeObject* t : patched) t->tp_dealloc = dispatch_subclass_dealloc;
  Py_DECREF(type);
}

void release_owned_pyobj(TensorImpl* impl) {
  {
    std::lock_guard lock(g_owned_mutex);
    if (!g_owned.erase(impl)) return;
  }
  PyObject* obj = impl->pyobj();
  impl->set_pyobj(nullptr);
  if (python_is_going()) return;
  py::gil_scoped_acquire gil;
  // The object's handle is borrowed and its TensorImpl is being destroyed: forget the pointer.
  new (&reinterpret_cast<PyTensor*>(obj)->value) Tensor();
  Py_DECREF(obj);
}

}  // namespace

void reclaim_pyobj(PyObject* obj) {
  if (Py_TYPE(obj)->tp_dealloc != dispatch_subclass_dealloc) return;
  TensorImpl* impl = unwrap(obj).impl();
  {
    std::lock_guard lock(g_owned_mutex);
    if (!g_owned.erase(impl)) return;
  }
  // Count the object's handle again (a copy whose destructor never runs), and drop the
  // TensorImpl's reference to the object (the caller holds one).
  alignas(Tensor) unsigned char counted[sizeof(Tensor)];
  new (counted) Tensor(unwrap(obj));
  Py_DECREF(obj);
}

void on_subclass_object(PyObject* obj) {
  PyTypeObject* type = Py_TYPE(obj);
  if (!has_torch_dispatch(type)) return;
  const Tensor& t = unwrap(obj);
  t->add_keys(DispatchKeySet{DispatchKey::Python, DispatchKey::PythonTLSSnapshot});
  if (type->tp_dealloc != dispatch_subclass_dealloc) {
    if (!g_subtype_dealloc) g_subtype_dealloc = type->tp_dealloc;
    if (type->tp_dealloc == g_subtype_dealloc) type->tp_dealloc = dispatch_subclass_dealloc;
  }
}

namespace {

std::string site_of_python_caller(int depth) {
  py::object frame = py::module_::import("sys").attr("_getframe")(depth);
  return py::str(frame.attr("f_code").attr("co_filename")).cast<std::string>() + ":" +
         std::to_string(frame.attr("f_lineno").cast<int>());
}

// A Python callable as a boxed kernel (opscope.library): arguments in, results back.
KernelFunction python_kernel(py::function f, std::string name) {
  // A PyCallable: a table entry holding the last reference may be dropped on any thread.
  auto shared = std::make_shared<PyCallable>(std::move(f));
  return KernelFunction::python(
      [shared](const OperatorHandle& op, DispatchKeySet, Stack* stack) {
        CallIntoPython gil("python kernel", shared->fn);  // takes the GIL (crossing.h)
        call_python_boxed(op, stack, shared->fn);
      },
      std::move(name));
}

// Storage-less tensors: torch 1.13's wrapper subclass has no storage, so its data_ptr() is 0 and
// every read of its values goes through the dispatcher (the subclass answers) or raises. opscope
// has no storage-less TensorImpl, so a wrapper gets bytes no one reads through the Python API
// (kernels run under no_dispatch() read these bytes, never freed memory), and the data pointers
// of such blocks are kept here to tell a wrapper (and its views) from a tensor with real data.
std::mutex g_storageless_mutex;
std::unordered_set<const void*> g_storageless;

Tensor storageless_tensor(IntArrayRef sizes, IntArrayRef strides, int64_t offset, ScalarType st,
                          Device dev) {
  size_t itemsize = element_size(st);
  int64_t nbytes = storage_nbytes(sizes, strides, itemsize, offset);
  Tensor bytes = make_empty({nbytes / static_cast<int64_t>(itemsize)}, st, dev);
  void* data = bytes->storage()->data();
  if (data) {
    std::lock_guard<std::mutex> lock(g_storageless_mutex);
    g_storageless.insert(data);
  }
  // The release forgets the block before `bytes` (captured) gives it back to the allocator.
  auto storage = make_intrusive<StorageImpl>(data, static_cast<size_t>(nbytes), dev,
                                             [bytes, data]() mutable {
                                               std::lock_guard<std::mutex> lock(g_storageless_mutex);
                                               g_storageless.erase(data);
                                             });
  return Tensor(make_intrusive<TensorImpl>(std::move(storage), st, sizes, strides, offset));
}

}  // namespace

bool is_storageless(const Tensor& t) {
  if (!t.key_set().has(DispatchKey::Python)) return false;  // only wrappers are storage-less
  const void* data = t->storage()->data();
  std::lock_guard<std::mutex> lock(g_storageless_mutex);
  return data && g_storageless.count(data);
}

Scalar dispatched_item(const Tensor& t) {
  // Nobody to see it (no subclass, mode or observer) and in host memory: read the element, as
  // the CPU kernel would. A GPU tensor's element comes through its backend's kernel (a copy).
  if (t.device().is_cpu() && !detail::dispatch_observed() &&
      !t.key_set().has(DispatchKey::Python) &&
      !local_dispatch_key_set().included.has(DispatchKey::Python))
    return read_element(t, 0);
  return ops::item(t);
}

namespace {

// Tensor._make_wrapper_subclass(cls, size, *, strides=None, storage_offset=None, dtype=None,
// device=None, requires_grad=False, ...): a `cls` object with the given geometry for a
// __torch_dispatch__ subclass that keeps its data elsewhere (in its own fields). torch's other
// keywords (memory_format, layout, pin_memory, dispatch_sizes_strides_policy, dispatch_device,
// dispatch_strides) are accepted and change nothing here.
py::object make_wrapper_subclass(py::handle cls, py::handle size, const py::kwargs& kwargs) {
  OPSCOPE_CHECK_TYPE(PyType_Check(cls.ptr()), "cls must be a type (got ",
                     Py_TYPE(cls.ptr())->tp_name, ")");
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  OPSCOPE_CHECK_TYPE(PyType_IsSubtype(type, g_tensor_type) && type != g_tensor_type,
                     "cls must be a subclass of opscope.Tensor");
  static const std::unordered_set<std::string> known = {
      "strides",   "storage_offset", "memory_format", "dtype",
      "layout",    "device",         "pin_memory",    "requires_grad",
      "dispatch_sizes_strides_policy", "dispatch_device", "dispatch_strides"};
  auto get = [&](const char* name) -> py::object {
    return kwargs.contains(name) ? py::reinterpret_borrow<py::object>(kwargs[name]) : py::none();
  };
  for (auto item : kwargs) {
    std::string k = py::str(item.first).cast<std::string>();
    OPSCOPE_CHECK_TYPE(known.count(k), "_make_wrapper_subclass() got an unexpected keyword "
                       "argument '", k, "'");
  }
  DimVector sizes;
  for (py::handle s : size) sizes.push_back(s.cast<int64_t>());
  check_size_nonnegative(sizes);
  DimVector strides = contiguous_strides(sizes);
  if (py::object given = get("strides"); !given.is_none()) {
    strides.clear();
    for (py::handle s : given) strides.push_back(s.cast<int64_t>());
    OPSCOPE_CHECK(strides.size() == sizes.size(), "_make_wrapper_subclass: ", sizes.size(),
                  " sizes but ", strides.size(), " strides");
  }
  py::object offset_obj = get("storage_offset");
  int64_t offset = offset_obj.is_none() ? 0 : offset_obj.cast<int64_t>();
  py::object dtype = get("dtype");
  ScalarType st = dtype.is_none() ? default_dtype() : dtype_of_object(dtype.ptr());
  Device dev(DeviceType::CPU);
  if (py::object device = get("device"); !device.is_none())
    OPSCOPE_CHECK_TYPE(to_device(device.ptr(), &dev), "invalid device");
  initialize_device(dev);
  py::object rg = get("requires_grad");
  bool requires_grad = !rg.is_none() && rg.cast<bool>();
  Tensor t = storageless_tensor(sizes, strides, offset, st, dev);
  ExcludeDispatchKeyGuard no_python(DispatchKey::Python);  // no detach for a mode to see
  py::object make_subclass =
      py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(g_tensor_type))
          .attr("_make_subclass");
  return make_subclass(cls, wrap_obj(std::move(t)), requires_grad);
}

// _DisableTorchDispatch: while alive, the Python key is excluded (no_dispatch()).
struct DisableTorchDispatch {
  DisableTorchDispatch() : saved(local_dispatch_key_set().excluded) {
    local_dispatch_key_set().excluded =
        saved | DispatchKeySet{DispatchKey::Python, DispatchKey::PythonTLSSnapshot};
  }
  ~DisableTorchDispatch() { local_dispatch_key_set().excluded = saved; }
  DispatchKeySet saved;
};

Library::Kind library_kind(const std::string& kind) {
  if (kind == "DEF") return Library::DEF;
  if (kind == "IMPL") return Library::IMPL;
  OPSCOPE_CHECK_VALUE(kind == "FRAGMENT", "Unsupported kind: ", kind);
  return Library::FRAGMENT;
}

}  // namespace

void init_python_dispatch(py::module_& m) {
  static RegistrationHandle fallback = Dispatcher::singleton().register_fallback(
      DispatchKey::Python,
      KernelFunction::boxed(python_fallback, "opscope::python::python_fallback"),
      site_of(std::source_location::current()));
  g_release_owned_pyobj = release_owned_pyobj;
  g_python_detach = python_detach;

  m.def(
      "_has_storage",
      [](py::handle t) {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "_has_storage(): expected a Tensor");
        return !is_storageless(unwrap(t.ptr()));
      },
      "Whether the tensor has storage: False for a wrapper subclass (_make_wrapper_subclass).");
  m.def(
      "_disabled_torch_dispatch_impl",
      [](py::object func, py::object types, py::object args, py::object kwargs) {
        ExcludeDispatchKeyGuard no_python(
            DispatchKeySet{DispatchKey::Python, DispatchKey::PythonTLSSnapshot});
        py::dict kw = kwargs.is_none() ? py::dict() : py::dict(kwargs);
        py::tuple a = py::tuple(args);
        return func(*a, **kw);
      },
      py::arg("func"), py::arg("types"), py::arg("args") = py::tuple(),
      py::arg("kwargs") = py::none(),
      "Tensor.__torch_dispatch__: runs func with the Python key excluded.");
  g_disabled_dispatch = m.attr("_disabled_torch_dispatch_impl").ptr();
  PyObject_SetAttrString(reinterpret_cast<PyObject*>(g_tensor_type), "__torch_dispatch__",
                         g_disabled_dispatch);

  m.def(
      "_set_dispatch_mode_key",
      [](bool on) {
        auto& local = local_dispatch_key_set();
        local.included = on ? local.included.add(DispatchKey::Python)
                            : local.included.remove(DispatchKey::Python);
      },
      "Adds (or removes) Python in this thread's include set: a dispatch mode is active.");
  m.def(
      "_has_torch_dispatch",
      [](py::handle t) {
        return is_tensor(t.ptr()) && unwrap(t.ptr()).key_set().has(DispatchKey::Python) &&
               has_torch_dispatch(Py_TYPE(t.ptr()));
      },
      "Whether a tensor takes part in __torch_dispatch__ (its class defines it).");
  py::class_<DisableTorchDispatch>(m, "_DisableTorchDispatch").def(py::init<>());
  // `with _AutoDispatchBelowAutograd():` what a Python Autograd kernel (an autograd.Function
  // registered for the Autograd key) wraps its redispatch in, as in torch.
  struct BelowAutograd {
    std::optional<AutoDispatchBelowADInplaceOrView> guard;
  };
  py::class_<BelowAutograd>(m, "_AutoDispatchBelowAutograd")
      .def(py::init<>())
      .def("__enter__", [](BelowAutograd& b) { b.guard.emplace(); })
      .def("__exit__", [](BelowAutograd& b, py::args) { b.guard.reset(); });
  m.def(
      "_op_schema_info",
      [](const std::string& full_name) {
        const FunctionSchema& s = Dispatcher::singleton().find_by_full_name(full_name).schema();
        auto args = [](const std::vector<Argument>& list) {
          py::list out;
          for (const Argument& a : list)
            out.append(py::dict(
                py::arg("name") = a.name, py::arg("type") = a.type_str(),
                py::arg("default") = a.default_text.empty() ? py::object(py::none())
                                                            : py::object(py::str(a.default_text)),
                py::arg("kwarg_only") = a.kwarg_only,
                py::arg("is_write") = a.alias.has_value() && a.alias->is_write,
                py::arg("text") = a.str()));
          return out;
        };
        return py::dict(py::arg("name") = s.qualified_name(), py::arg("overload_name") = s.overload,
                        py::arg("arguments") = args(s.arguments),
                        py::arg("returns") = args(s.returns), py::arg("text") = s.str());
      },
      "An op's schema in parts, for opscope.ops's FunctionSchema objects.");

  PyObject_SetAttrString(
      reinterpret_cast<PyObject*>(g_tensor_type), "_make_wrapper_subclass",
      py::staticmethod(py::cpp_function(make_wrapper_subclass, py::arg("cls"), py::arg("size")))
          .ptr());

  py::class_<Library>(m, "_Library")
      .def(py::init([](const std::string& kind, const std::string& ns) {
             return std::make_unique<Library>(library_kind(kind), ns);
           }),
           py::arg("kind"), py::arg("ns"))
      .def(
          "define",
          [](Library& lib, const std::string& schema, int depth) {
            auto h = Dispatcher::singleton().register_schema(
                schema, site_of_python_caller(depth), Variants::None, lib.ns());
            return py::cast(new RegistrationHandle(std::move(h)),
                            py::return_value_policy::take_ownership);
          },
          py::arg("schema"), py::arg("depth") = 0,
          "Declares an op; the handle it returns undoes it. The registration site is the Python "
          "frame `depth` levels above the caller.")
      .def(
          "impl",
          [](Library& lib, const std::string& name, const std::string& key, py::object f,
             int depth) {
            std::string full = name.find("::") == std::string::npos ? lib.ns() + "::" + name : name;
            std::string site = site_of_python_caller(depth);
            KernelFunction kernel;
            if (f.is_none()) {
              kernel = KernelFunction::fallthrough();
            } else {
              std::string kname = py::hasattr(f, "__qualname__")
                                      ? py::str(f.attr("__qualname__")).cast<std::string>()
                                      : py::str(py::repr(f)).cast<std::string>();
              kernel = python_kernel(f, kname);
            }
            auto h = Dispatcher::singleton().register_impl(full, parse_dispatch_key(key),
                                                           std::move(kernel), site);
            return py::cast(new RegistrationHandle(std::move(h)),
                            py::return_value_policy::take_ownership);
          },
          py::arg("name"), py::arg("key"), py::arg("fn"), py::arg("depth") = 0,
          "Registers fn (None: a fallthrough) for the op and key; the handle undoes it.");
  py::class_<RegistrationHandle>(m, "_RegistrationHandle")
      .def("remove", &RegistrationHandle::reset);
}

}  // namespace opscope::python
