// Python numbers, NumPy and DLPack <-> tensors.
//
// Semantically: `t.numpy()` and `opscope.from_numpy(a)` share memory (a write through one is seen
// through the other, and the memory lives while either does); `opscope.tensor(data)` copies,
// inferring the dtype as torch does (bools -> bool, ints -> int64, any float -> the default float
// dtype, NumPy arrays keep theirs); DLPack exchanges memory with any library that speaks it.
#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>

#include <bit>
#include <cstring>
#include <limits>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/GradMode.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/python/python_common.h"

namespace opscope::python {

bool is_storageless(const Tensor& t);    // python_dispatch.cpp: a wrapper subclass's tensor
Scalar dispatched_item(const Tensor& t);  // its value, through _local_scalar_dense when watched

// --- scalars -------------------------------------------------------------------------------
int64_t unpack_long(PyObject* integer) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(integer, &overflow);
  if (overflow) throw Error("Overflow when unpacking long");  // torch's text and type
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return static_cast<int64_t>(v);
}

double unpack_double(PyObject* number) {
  double v = PyFloat_AsDouble(number);
  if (v == -1.0 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

std::string unpack_utf8(PyObject* str) {
  Py_ssize_t size = 0;
  const char* s = PyUnicode_AsUTF8AndSize(str, &size);
  if (!s) throw py::error_already_set();
  return std::string(s, static_cast<size_t>(size));
}

namespace {

// opscope has no complex dtypes: a complex number is refused rather than cut to its real part.
[[noreturn]] void refuse_complex(PyObject* o) {
  throw TypeError(detail::str("opscope has no complex dtypes (complex64, complex128): cannot use ",
                              Py_TYPE(o)->tp_name, " ", py::repr(o).cast<std::string>(),
                              " as a number"));
}

}  // namespace

bool to_scalar(PyObject* o, Scalar* out, bool allow_tensor) {
  if (PyBool_Check(o)) {
    *out = Scalar(o == Py_True);
    return true;
  }
  if (PyLong_Check(o)) {
    *out = Scalar(unpack_long(o));
    return true;
  }
  if (PyFloat_Check(o)) {
    *out = Scalar(PyFloat_AS_DOUBLE(o));
    return true;
  }
  if (is_tensor(o)) {
    if (!allow_tensor || unwrap(o).numel() != 1 || unwrap(o).dim() != 0) return false;
    *out = dispatched_item(unwrap(o));  // a subclass or mode sees _local_scalar_dense
    return true;
  }
  if (PyComplex_Check(o)) refuse_complex(o);
  // NumPy scalars (np.bool_, np.int8, np.float32, ...), never arrays: as in torch, a 0-d array
  // is not a Number (`t.add(np.array(2.))` is a TypeError; `t + np.array(2.)` is NumPy's to do).
  const char* tn = Py_TYPE(o)->tp_name;
  if (std::strncmp(tn, "numpy.", 6) != 0 || py::isinstance<py::array>(o)) return false;
  if (std::strcmp(tn, "numpy.bool_") == 0) {
    *out = Scalar(PyObject_IsTrue(o) == 1);
    return true;
  }
  if (std::strncmp(tn, "numpy.complex", 13) == 0 || std::strcmp(tn, "numpy.clongdouble") == 0)
    refuse_complex(o);
  if (PyIndex_Check(o)) {
    PyObject* i = PyNumber_Index(o);
    if (!i) throw py::error_already_set();
    py::object owner = py::reinterpret_steal<py::object>(i);
    *out = Scalar(unpack_long(i));
    return true;
  }
  if (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float) {
    *out = Scalar(unpack_double(o));
    return true;
  }
  return false;
}

PyObject* scalar_to_py(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool:
      return PyBool_FromLong(s.to_bool());
    case Scalar::Kind::Int:
      return PyLong_FromLongLong(s.to_long());
    case Scalar::Kind::Double:
      return PyFloat_FromDouble(s.to_double());
  }
  Py_RETURN_NONE;
}

namespace {

// --- NumPy ---------------------------------------------------------------------------------
py::dtype numpy_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return py::dtype("bool");
    case ScalarType::UInt8:
      return py::dtype("uint8");
    case ScalarType::Int8:
      return py::dtype("int8");
    case ScalarType::Int16:
      return py::dtype("int16");
    case ScalarType::Int32:
      return py::dtype("int32");
    case ScalarType::Int64:
      return py::dtype("int64");
    case ScalarType::Float16:
      return py::dtype("float16");
    case ScalarType::Float32:
      return py::dtype("float32");
    case ScalarType::Float64:
      return py::dtype("float64");
    default:
      throw TypeError(detail::str("Got unsupported ScalarType ", cpp_name(t)));
  }
}

ScalarType scalar_type_of_numpy(const py::dtype& d) {
  char kind = d.kind();
  size_t size = static_cast<size_t>(d.itemsize());
  if (kind == 'b') return ScalarType::Bool;
  if (kind == 'u' && size == 1) return ScalarType::UInt8;
  if (kind == 'i') {
    switch (size) {
      case 1:
        return ScalarType::Int8;
      case 2:
        return ScalarType::Int16;
      case 4:
        return ScalarType::Int32;
      case 8:
        return ScalarType::Int64;
    }
  }
  if (kind == 'f') {
    switch (size) {
      case 2:
        return ScalarType::Float16;
      case 4:
        return ScalarType::Float32;
      case 8:
        return ScalarType::Float64;
    }
  }
  throw TypeError(detail::str(
      "can't convert np.ndarray of type numpy.", py::str(d.attr("name")).cast<std::string>(),
      ". The only supported types are: float64, float32, float16, "
      "complex64, complex128, int64, int32, int16, int8, uint8, and bool."));
}

py::object to_numpy(py::handle self_obj, bool check_grad = true) {
  const Tensor& t = unwrap(self_obj.ptr());
  // A __torch_dispatch__ subclass's values are its own business (a wrapper has none here).
  OPSCOPE_CHECK(!t.key_set().has(DispatchKey::Python),
                ".numpy() is not supported for tensor subclasses.");
  // torch 1.13's order: the device first (a CUDA parameter's numpy() is the TypeError), then
  // the gradient, which only matters while grad mode is on (no_grad() allows it).
  OPSCOPE_CHECK_TYPE(t.device().is_cpu(), "can't convert ", t.device().str(),
                     " device type tensor "
                     "to numpy. Use Tensor.cpu() to copy the tensor to host memory first.");
  OPSCOPE_CHECK(!check_grad || !t->requires_grad() || !autograd::grad_mode_enabled(),
                "Can't call numpy() on Tensor that requires "
                "grad. Use tensor.detach().numpy() instead.");
  std::vector<py::ssize_t> shape(t.sizes().begin(), t.sizes().end());
  std::vector<py::ssize_t> strides;
  for (int64_t s : t.strides()) strides.push_back(s * static_cast<py::ssize_t>(t->itemsize()));
  // The array's base is the tensor's Python object: it keeps the storage alive.
  return py::array(numpy_dtype(t.dtype()), shape, strides, t.data(), self_obj);
}

Tensor from_numpy(py::array a) {
  ScalarType type = scalar_type_of_numpy(a.dtype());
  // opscope reads memory in the machine's byte order: a '>f4' array would read as garbage.
  const char order = a.dtype().attr("byteorder").cast<std::string>()[0];
  OPSCOPE_CHECK_VALUE(order != (std::endian::native == std::endian::little ? '>' : '<'),
                      "given numpy array has byte order different from the native byte order. "
                      "Conversion between byte orders is currently not supported.");
  size_t itemsize = static_cast<size_t>(a.itemsize());
  DimVector sizes, strides;
  int64_t extent = 1;
  bool empty = false;
  for (py::ssize_t d = 0; d < a.ndim(); ++d) {
    py::ssize_t st = a.strides(d);
    OPSCOPE_CHECK_VALUE(st >= 0,
                        "At least one stride in the given numpy array is negative, and "
                        "tensors with negative strides are not currently supported. (You can "
                        "probably work around this by making a copy of your array  with "
                        "array.copy().) ");
    OPSCOPE_CHECK_VALUE(st % static_cast<py::ssize_t>(itemsize) == 0,
                        "given numpy array strides "
                        "not a multiple of the element byte size. Copy the numpy array to "
                        "reallocate the memory.");
    sizes.push_back(a.shape(d));
    strides.push_back(st / static_cast<py::ssize_t>(itemsize));
    if (a.shape(d) == 0) empty = true;
    extent += (a.shape(d) - 1) * strides.back();
  }
  if (empty) extent = 0;
  PyObject* owner = a.ptr();
  Py_INCREF(owner);
  auto storage = make_intrusive<StorageImpl>(
      a.mutable_data(), static_cast<size_t>(extent) * itemsize, Device(DeviceType::CPU), [owner] {
        if (python_is_going()) return;  // leave it
        PyGILState_STATE s = PyGILState_Ensure();
        Py_DECREF(owner);
        PyGILState_Release(s);
      });
  return Tensor(make_intrusive<TensorImpl>(std::move(storage), type, sizes, strides, 0));
}

// --- opscope.tensor(data) ------------------------------------------------------------------
struct Inferred {
  DimVector sizes;
  ScalarType type = ScalarType::Undefined;
};

bool is_sequence(PyObject* o) {
  return PyList_Check(o) || PyTuple_Check(o);
}

// Walks the data: the shape from the first element at each depth, the dtype from all leaves.
void infer(PyObject* o, size_t depth, Inferred& inf) {
  if (is_tensor(o)) {
    const Tensor& t = unwrap(o);
    if (depth == inf.sizes.size())
      for (int64_t s : t.sizes()) inf.sizes.push_back(s);
    inf.type = promote_types(inf.type, t.dtype());
    return;
  }
  if (py::isinstance<py::array>(o)) {
    py::array a = py::reinterpret_borrow<py::array>(o);
    if (depth == inf.sizes.size())
      for (py::ssize_t d = 0; d < a.ndim(); ++d) inf.sizes.push_back(a.shape(d));
    inf.type = promote_types(inf.type, scalar_type_of_numpy(a.dtype()));
    return;
  }
  if (is_sequence(o)) {
    // torch's limit: deeper nesting is refused before it can exhaust the C stack.
    constexpr size_t kMaxDims = 128;
    OPSCOPE_CHECK_VALUE(depth < kMaxDims, "too many dimensions '", Py_TYPE(o)->tp_name, "'");
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    if (depth == inf.sizes.size()) inf.sizes.push_back(n);
    for (Py_ssize_t i = 0; i < n; ++i) infer(PySequence_Fast_GET_ITEM(o, i), depth + 1, inf);
    return;
  }
  if (std::strncmp(Py_TYPE(o)->tp_name, "numpy.", 6) == 0 && PyObject_HasAttrString(o, "dtype")) {
    // A NumPy scalar keeps its dtype, as in torch (np.float64(2.5) -> float64).
    py::dtype d = py::handle(o).attr("dtype").cast<py::dtype>();
    inf.type = promote_types(inf.type, scalar_type_of_numpy(d));
    return;
  }
  Scalar s;
  OPSCOPE_CHECK_TYPE(to_scalar(o, &s, false), "new(): invalid data type '", Py_TYPE(o)->tp_name,
                     "'");
  ScalarType t = s.is_floating_point() ? default_dtype() : s.type();
  // Categories only: a Python int next to a float gives the default float dtype.
  if (inf.type == ScalarType::Undefined)
    inf.type = t;
  else if (is_floating(t) && !is_floating(inf.type))
    inf.type = t;
  else if (t == ScalarType::Int64 && inf.type == ScalarType::Bool)
    inf.type = t;
}

void fill(PyObject* o, const Tensor& out, size_t depth, int64_t offset) {
  auto write = [&](const Scalar& s) {
    dispatch_dtype(out.dtype(), "tensor", [&]<typename T>() {
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // An int the dtype cannot hold is an error (torch's checked_convert), not a wrap.
        if (!s.is_bool()) {
          double v = s.to_double();
          OPSCOPE_CHECK(v >= static_cast<double>(std::numeric_limits<T>::lowest()) &&
                            v <= static_cast<double>(std::numeric_limits<T>::max()),
                        "value cannot be converted to type ", dtype_name(out.dtype()),
                        " without overflow");
        }
      }
      out.data_ptr<T>()[offset] = s.to<T>();
    });
  };
  if (is_tensor(o) || py::isinstance<py::array>(o)) {
    // Copy element-wise through tolist() semantics (rare path; keeps the code small).
    py::object as_list =
        is_tensor(o) ? py::handle(o).attr("tolist")() : py::handle(o).attr("tolist")();
    fill(as_list.ptr(), out, depth, offset);
    return;
  }
  if (is_sequence(o)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    OPSCOPE_CHECK_VALUE(depth < static_cast<size_t>(out.dim()) && n == out.sizes()[depth],
                        "expected sequence of length ",
                        depth < static_cast<size_t>(out.dim()) ? out.sizes()[depth] : 0, " at dim ",
                        depth, " (got ", n, ")");
    for (Py_ssize_t i = 0; i < n; ++i)
      fill(PySequence_Fast_GET_ITEM(o, i), out, depth + 1, offset + i * out.strides()[depth]);
    return;
  }
  OPSCOPE_CHECK_TYPE(depth == static_cast<size_t>(out.dim()), "not a sequence");
  Scalar s;
  OPSCOPE_CHECK_TYPE(to_scalar(o, &s, false), "new(): invalid data type '", Py_TYPE(o)->tp_name,
                     "'");
  write(s);
}

py::object tensor_from_data(py::handle data, py::object dtype, py::object device,
                            bool requires_grad) {
  std::optional<ScalarType> want;
  if (!dtype.is_none()) {
    OPSCOPE_CHECK_TYPE(is_dtype_object(dtype.ptr()),
                       "tensor(): argument 'dtype' must be torch.dtype, not ",
                       Py_TYPE(dtype.ptr())->tp_name);
    want = dtype_of_object(dtype.ptr());
  }
  Device dev(DeviceType::CPU);
  if (!device.is_none())
    OPSCOPE_CHECK_TYPE(to_device(device.ptr(), &dev), "tensor(): invalid device");
  initialize_device(dev);
  OPSCOPE_CHECK(dev.is_cpu() || dev.is_cuda(), "tensor(): no ", dev.str(),
                " backend in this build");
  if (is_tensor(data.ptr()) && unwrap(data.ptr()).key_set().has(DispatchKey::Python)) {
    // A __torch_dispatch__ subclass is copied through ops it answers (detach, then _to_copy),
    // as torch's tensor(t) does: it keeps its kind and its dtype and device unless given.
    const Tensor& t = unwrap(data.ptr());
    py::object copy = py::handle(data).attr("detach")().attr("to")(
        py::arg("device") = device.is_none() ? py::str(t.device().str()) : device,
        py::arg("dtype") = dtype.is_none() ? py::handle(data).attr("dtype") : dtype,
        py::arg("copy") = true);
    if (requires_grad) copy.attr("requires_grad_")(true);
    return copy;
  }
  Tensor out;
  if (py::isinstance<py::array>(data) && !want) {
    // Copy of the array with its own dtype.
    py::array a = py::array::ensure(data, py::array::c_style | py::array::forcecast);
    Tensor shared = from_numpy(a);
    out = make_empty(shared.sizes(), shared.dtype());
    if (out.numel() > 0)  // an empty tensor's data() may be null, which memcpy may not get
      std::memcpy(out.data(), shared.data(), static_cast<size_t>(out.numel()) * out->itemsize());
  } else {
    // tensor(range(5)), as torch takes any sequence: a range reads as the list of its items.
    py::object items = py::reinterpret_borrow<py::object>(data);
    if (PyRange_Check(data.ptr())) items = py::list(items);
    Inferred inf;
    infer(items.ptr(), 0, inf);
    ScalarType type = want.value_or(inf.type == ScalarType::Undefined ? default_dtype() : inf.type);
    out = make_empty(inf.sizes, type);
    fill(items.ptr(), out, 0, 0);
  }
  if (!dev.is_cpu())  // built on the CPU, then copied over (torch does the same)
    out = ops::_to_copy(out, std::nullopt, std::nullopt, dev, std::nullopt, false, std::nullopt);
  if (requires_grad) {
    OPSCOPE_CHECK(is_floating(out.dtype()),
                  "Only Tensors of floating point and complex dtype can require gradients");
    autograd::set_requires_grad(out, true);
  }
  return wrap_obj(std::move(out));
}

// --- DLPack --------------------------------------------------------------------------------
DLDataType dl_type(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      throw TypeError("Bool type is not supported by dlpack");
    case ScalarType::UInt8:
      return {kDLUInt, 8, 1};
    case ScalarType::Int8:
      return {kDLInt, 8, 1};
    case ScalarType::Int16:
      return {kDLInt, 16, 1};
    case ScalarType::Int32:
      return {kDLInt, 32, 1};
    case ScalarType::Int64:
      return {kDLInt, 64, 1};
    case ScalarType::Float16:
      return {kDLFloat, 16, 1};
    case ScalarType::BFloat16:
      return {kDLBfloat, 16, 1};
    case ScalarType::Float32:
      return {kDLFloat, 32, 1};
    case ScalarType::Float64:
      return {kDLFloat, 64, 1};
    default:
      throw TypeError("unsupported dtype for DLPack");
  }
}

ScalarType from_dl_type(DLDataType t) {
  OPSCOPE_CHECK(t.lanes == 1, "DLPack: vector types (lanes != 1) are not supported");
  switch (t.code) {
    case kDLUInt:
      if (t.bits == 8) return ScalarType::UInt8;
      break;
    case kDLInt:
      if (t.bits == 8) return ScalarType::Int8;
      if (t.bits == 16) return ScalarType::Int16;
      if (t.bits == 32) return ScalarType::Int32;
      if (t.bits == 64) return ScalarType::Int64;
      break;
    case kDLFloat:
      if (t.bits == 16) return ScalarType::Float16;
      if (t.bits == 32) return ScalarType::Float32;
      if (t.bits == 64) return ScalarType::Float64;
      break;
    case kDLBfloat:
      if (t.bits == 16) return ScalarType::BFloat16;
      break;
  }
  throw TypeError(
      detail::str("Unsupported DLPack data type: code ", int(t.code), ", bits ", int(t.bits)));
}

// Keeps the tensor (and its shape arrays) alive while a consumer holds the DLPack capsule.
struct DLPackOwner {
  Tensor tensor;
  std::vector<int64_t> shape, strides;
  DLManagedTensor managed;
};

py::object to_dlpack(py::handle self_obj, py::object stream) {
  const Tensor& t = unwrap(self_obj.ptr());
  OPSCOPE_CHECK(!t->requires_grad(),
                "Can't export tensors that require gradient, use tensor.detach()");
  OPSCOPE_CHECK(!is_storageless(t),
                "Cannot access data pointer of Tensor that doesn't have storage");
  auto* owner = new DLPackOwner{
      t, {t.sizes().begin(), t.sizes().end()}, {t.strides().begin(), t.strides().end()}, {}};
  DLTensor& dl = owner->managed.dl_tensor;
  dl.data = t->storage()->data();
  dl.byte_offset = static_cast<uint64_t>(t->storage_offset()) * t->itemsize();
  dl.device = {t.device().is_cuda() ? kDLCUDA : kDLCPU, std::max<int32_t>(t.device().index, 0)};
  dl.ndim = static_cast<int32_t>(t.dim());
  dl.dtype = dl_type(t.dtype());
  dl.shape = owner->shape.data();
  dl.strides = owner->strides.data();
  owner->managed.manager_ctx = owner;
  owner->managed.deleter = [](DLManagedTensor* m) {
    delete static_cast<DLPackOwner*>(m->manager_ctx);
  };
  // A capsule nobody consumed frees the tensor when it is collected.
  PyObject* cap = PyCapsule_New(&owner->managed, "dltensor", [](PyObject* c) {
    if (PyCapsule_IsValid(c, "dltensor")) {
      auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
      if (m && m->deleter) m->deleter(m);
    }
  });
  return py::reinterpret_steal<py::object>(cap);
}

py::object from_dlpack(py::object ext) {
  if (is_tensor(ext.ptr())) return ext;
  py::object cap = py::hasattr(ext, "__dlpack__") ? ext.attr("__dlpack__")() : ext;
  OPSCOPE_CHECK_TYPE(PyCapsule_IsValid(cap.ptr(), "dltensor"),
                     "from_dlpack: expected an object "
                     "with __dlpack__ or a DLPack capsule named 'dltensor' (not one already used)");
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
  PyCapsule_SetDestructor(cap.ptr(), nullptr);
  const DLTensor& dl = m->dl_tensor;
  OPSCOPE_CHECK(dl.device.device_type == kDLCPU || dl.device.device_type == kDLCUDAHost,
                "from_dlpack: only CPU memory is supported in this build");
  ScalarType type = from_dl_type(dl.dtype);
  DimVector sizes(dl.shape, dl.shape + dl.ndim);
  DimVector strides =
      dl.strides ? DimVector(dl.strides, dl.strides + dl.ndim) : contiguous_strides(sizes);
  int64_t extent = 1;
  for (int i = 0; i < dl.ndim; ++i) extent += (sizes[i] - 1) * strides[i];
  if (compute_numel(sizes) == 0) extent = 0;
  void* data = static_cast<char*>(dl.data) + dl.byte_offset;
  auto storage = make_intrusive<StorageImpl>(data, static_cast<size_t>(extent) * element_size(type),
                                             Device(DeviceType::CPU), [m] {
                                               if (m->deleter) m->deleter(m);
                                             });
  return wrap_obj(Tensor(make_intrusive<TensorImpl>(std::move(storage), type, sizes, strides, 0)));
}

}  // namespace

// `self` of a Tensor method bound with pybind11, checked: `Tensor.numpy(1.5)` is CPython's
// TypeError, not a float read as a tensor.
static py::handle tensor_self(py::handle self, const char* method) {
  OPSCOPE_CHECK_TYPE(is_tensor(self.ptr()), "descriptor '", method,
                     "' for 'opscope.Tensor' objects doesn't apply to a '",
                     Py_TYPE(self.ptr())->tp_name, "' object");
  return self;
}

void init_interop(py::module_& m) {
  py::object tensor_type =
      py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(g_tensor_type));
  py::setattr(tensor_type, "numpy",
              py::cpp_function([](py::handle self) { return to_numpy(tensor_self(self, "numpy")); },
                               py::is_method(tensor_type),
                               "The tensor as a NumPy array sharing its memory."));
  py::setattr(tensor_type, "__array__",
              py::cpp_function(
                  [](py::handle self, py::object dtype) {
                    py::object a = to_numpy(tensor_self(self, "__array__"));
                    return dtype.is_none() ? a : a.attr("astype")(dtype, py::arg("copy") = false);
                  },
                  py::is_method(tensor_type), py::arg("dtype") = py::none()));
  py::setattr(tensor_type, "__dlpack__",
              py::cpp_function(
                  [](py::handle self, py::object stream) {
                    return to_dlpack(tensor_self(self, "__dlpack__"), stream);
                  },
                  py::is_method(tensor_type), py::arg("stream") = py::none()));
  py::setattr(tensor_type, "__dlpack_device__",
              py::cpp_function(
                  [](py::handle self) {
                    Device d = unwrap(tensor_self(self, "__dlpack_device__").ptr()).device();
                    return py::make_tuple(d.is_cuda() ? int(kDLCUDA) : int(kDLCPU),
                                          std::max<int>(d.index, 0));
                  },
                  py::is_method(tensor_type)));

  // For printing: no requires_grad check, bfloat16 widened to a float32 copy.
  m.def("_numpy_for_print", [](py::handle self) -> py::object {
    const Tensor& t = unwrap(tensor_self(self, "_numpy_for_print").ptr());
    // A __torch_dispatch__ subclass is read through ops on it, which it answers.
    if (t.key_set().has(DispatchKey::Python))
      return py::module_::import("opscope._tensor_str").attr("values_through_ops")(self);
    if (t.dtype() != ScalarType::BFloat16) return to_numpy(self, false);
    py::array_t<float> out(std::vector<py::ssize_t>(t.sizes().begin(), t.sizes().end()));
    float* dst = out.mutable_data();
    int64_t n = t.numel(), d = t.dim();
    DimVector index(static_cast<size_t>(d), 0);
    for (int64_t i = 0; i < n; ++i) {  // row-major walk through the strides
      int64_t off = 0;
      for (int64_t k = 0; k < d; ++k)
        off += index[static_cast<size_t>(k)] * t.strides()[static_cast<size_t>(k)];
      dst[i] = static_cast<float>(t.data_ptr<BFloat16>()[off]);
      for (int64_t k = d - 1; k >= 0; --k) {
        if (++index[static_cast<size_t>(k)] < t.sizes()[static_cast<size_t>(k)]) break;
        index[static_cast<size_t>(k)] = 0;
      }
    }
    return std::move(out);
  });
  m.def(
      "from_numpy", [](py::array a) { return wrap_obj(from_numpy(a)); }, py::arg("ndarray"),
      "A tensor sharing memory with a NumPy array.");
  m.def(
      "from_dlpack", &from_dlpack, py::arg("ext_tensor"),
      "A tensor sharing memory with any object that implements __dlpack__ (or a DLPack capsule).");
  m.def("tensor", &tensor_from_data, py::arg("data"), py::kw_only(), py::arg("dtype") = py::none(),
        py::arg("device") = py::none(), py::arg("requires_grad") = false,
        "A new tensor holding a copy of data (nested lists / tuples, numbers, NumPy arrays, "
        "tensors).");
}

}  // namespace opscope::python
