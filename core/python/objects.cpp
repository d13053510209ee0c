// dtype, device, Size and Generator: the small Python objects around tensors.
//
// They print like torch's (`torch.float32`, `device(type='cuda', index=1)`,
// `torch.Size([2, 3])`) because opscope is meant to be imported as torch: code that prints or
// compares them behaves the same. See python_common.h.
#include <pybind11/operators.h>

#include <limits>

#include "core/python/python_common.h"

namespace opscope::python {

namespace {

struct DType {
  ScalarType type;
};

PyObject* g_dtypes[kNumScalarTypes] = {};
PyTypeObject* g_dtype_type = nullptr;
PyTypeObject* g_size_type = nullptr;
PyTypeObject* g_device_type = nullptr;
PyTypeObject* g_generator_type = nullptr;

// --- Size: a tuple subclass ---------------------------------------------------------------
PyObject* size_repr(PyObject* self) {
  std::string s = "torch.Size([";
  Py_ssize_t n = PyTuple_GET_SIZE(self);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* r = PyObject_Repr(PyTuple_GET_ITEM(self, i));
    if (!r) return nullptr;
    if (i) s += ", ";
    s += PyUnicode_AsUTF8(r);
    Py_DECREF(r);
  }
  s += "])";
  return PyUnicode_FromString(s.c_str());
}

PyObject* size_numel(PyObject* self, PyObject*) {
  int64_t n = 1;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self); ++i)
    OPSCOPE_CHECK(!__builtin_mul_overflow(n, unpack_long(PyTuple_GET_ITEM(self, i)), &n),
                  "Size.numel(): the product of the sizes overflows int64");
  return PyLong_FromLongLong(n);
}

PyObject* size_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  // Size(iterable): every element must be an int (torch.Size((2, 3.5)) is a TypeError).
  PyObject* seq = nullptr;
  if (!PyArg_ParseTuple(args, "|O:Size", &seq)) return nullptr;
  PyObject* items = seq ? PySequence_Tuple(seq) : PyTuple_New(0);
  if (!items) return nullptr;
  Py_ssize_t n = PyTuple_GET_SIZE(items);
  PyObject* self = type->tp_alloc(type, n);
  if (!self) {
    Py_DECREF(items);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PyTuple_GET_ITEM(items, i);
    PyObject* as_int = PyNumber_Index(item);
    if (!as_int) {
      PyErr_Format(PyExc_TypeError, "torch.Size() takes an iterable of 'int' (item %zd is '%s')", i,
                   Py_TYPE(item)->tp_name);
      Py_DECREF(items);
      Py_DECREF(self);
      return nullptr;
    }
    PyTuple_SET_ITEM(self, i, as_int);
  }
  Py_DECREF(items);
  return self;
}

PyMethodDef size_methods[] = {
    {"numel", method<size_numel>(), METH_NOARGS, "Number of elements a tensor of this size holds."},
    {nullptr, nullptr, 0, nullptr}};

void init_size(py::module_& m) {
  PyType_Slot slots[] = {{Py_tp_repr, slot<size_repr>()},
                         {Py_tp_new, slot<size_new>()},
                         {Py_tp_methods, size_methods},
                         {Py_tp_doc, const_cast<char*>("The shape of a tensor: a tuple of ints.")},
                         {0, nullptr}};
  PyType_Spec spec = {"opscope.Size", 0, 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  PyObject* bases = PyTuple_Pack(1, reinterpret_cast<PyObject*>(&PyTuple_Type));
  g_size_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpecWithBases(&spec, bases));
  Py_DECREF(bases);
  if (!g_size_type) throw py::error_already_set();
  m.add_object("Size", reinterpret_cast<PyObject*>(g_size_type));
}

}  // namespace

PyObject* size_object(IntArrayRef sizes) {
  PyObject* s = g_size_type->tp_alloc(g_size_type, static_cast<Py_ssize_t>(sizes.size()));
  if (!s) return nullptr;
  for (size_t i = 0; i < sizes.size(); ++i)
    PyTuple_SET_ITEM(s, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(sizes[i]));
  return s;
}

PyObject* dtype_object(ScalarType t) {
  return g_dtypes[static_cast<int>(t)];
}
bool is_dtype_object(PyObject* o) {
  return PyObject_TypeCheck(o, g_dtype_type);
}
ScalarType dtype_of_object(PyObject* o) {
  return py::handle(o).cast<const DType&>().type;
}

PyObject* device_object(Device d) {
  return py::cast(d).release().ptr();
}
bool to_device(PyObject* o, Device* out) {
  if (PyObject_TypeCheck(o, g_device_type)) {
    *out = py::handle(o).cast<Device>();
    return true;
  }
  if (PyUnicode_Check(o)) {
    *out = Device::parse(unpack_utf8(o));
    return true;
  }
  if (PyLong_Check(o) && !PyBool_Check(o)) {  // torch: an int means that CUDA device
    int64_t i = unpack_long(o);
    OPSCOPE_CHECK(i >= 0, "Device index must not be negative");
    OPSCOPE_CHECK(i <= std::numeric_limits<int8_t>::max(), "Device index out of range: ", i);
    *out = Device(DeviceType::CUDA, static_cast<int>(i));
    return true;
  }
  return false;
}

void initialize_device(Device d) {
  if (!d.is_cuda()) return;
  static bool initialized = false;  // under the GIL
  if (initialized) return;
  py::module_::import("opscope.cuda").attr("_lazy_init")();
  initialized = true;
}

bool is_generator_object(PyObject* o) {
  return PyObject_TypeCheck(o, g_generator_type);
}
Generator generator_of_object(PyObject* o) {
  return py::handle(o).cast<Generator>();
}

#ifdef OPSCOPE_HAS_CUDA
void init_cuda(py::module_& m);
#endif

void init_objects(py::module_& m) {
  // dtype
  py::class_<DType> dtype(m, "dtype");
  dtype.def("__repr__", [](const DType& d) { return "torch." + std::string(dtype_name(d.type)); })
      .def_property_readonly("is_floating_point",
                             [](const DType& d) { return is_floating(d.type); })
      .def_property_readonly("is_complex", [](const DType&) { return false; })
      .def_property_readonly("is_signed", [](const DType& d) { return is_signed(d.type); })
      .def_property_readonly("itemsize", [](const DType& d) { return element_size(d.type); })
      .def("__reduce__", [](const DType& d) { return std::string(dtype_name(d.type)); });
  g_dtype_type = reinterpret_cast<PyTypeObject*>(dtype.ptr());
  for (int i = 0; i < kNumScalarTypes; ++i) {
    auto t = static_cast<ScalarType>(i);
    g_dtypes[i] = py::cast(DType{t}).release().ptr();
    m.add_object(std::string(dtype_name(t)).c_str(), py::handle(g_dtypes[i]).inc_ref());
  }
  auto alias = [&](const char* name, ScalarType t) {
    m.add_object(name, py::handle(dtype_object(t)).inc_ref());
  };
  alias("float", ScalarType::Float32);
  alias("double", ScalarType::Float64);
  alias("half", ScalarType::Float16);
  alias("long", ScalarType::Int64);
  alias("int", ScalarType::Int32);
  alias("short", ScalarType::Int16);

  // device
  py::class_<Device> device(m, "device");
  device.def(py::init([](const Device& d) { return d; }), py::arg("device"))
      .def(py::init([](const std::string& spec) { return Device::parse(spec); }), py::arg("type"))
      .def(py::init([](const std::string& type, int index) {
             Device d = Device::parse(type);
             OPSCOPE_CHECK(!d.has_index(),
                           "type (string) must not include an index because index "
                           "was passed explicitly: ",
                           type);
             OPSCOPE_CHECK(index >= 0, "Device index must not be negative");
             d.index = static_cast<int8_t>(index);
             return d;
           }),
           py::arg("type"), py::arg("index"))
      .def_property_readonly("type",
                             [](const Device& d) { return std::string(device_type_name(d.type)); })
      .def_property_readonly("index",
                             [](const Device& d) -> py::object {
                               return d.has_index() ? py::object(py::int_(d.index)) : py::none();
                             })
      .def("__str__", &Device::str)
      .def("__repr__",
           [](const Device& d) {
             std::string s = "device(type='" + std::string(device_type_name(d.type)) + "'";
             if (d.has_index()) s += ", index=" + std::to_string(d.index);
             return s + ")";
           })
      .def("__eq__", [](const Device& a, const Device& b) { return a == b; })
      .def("__hash__", [](const Device& d) { return static_cast<int>(d.type) * 256 + d.index; })
      .def("__reduce__", [](const Device& d) {
        return py::make_tuple(py::type::of<Device>(), py::make_tuple(d.str()));
      });
  g_device_type = reinterpret_cast<PyTypeObject*>(device.ptr());
  py::implicitly_convertible<std::string, Device>();

  init_size(m);

  // Generator
  py::class_<GeneratorImpl, Generator> gen(m, "Generator");
  gen.def(py::init([](py::object device) {
            Device d(DeviceType::CPU);
            if (!device.is_none())
              OPSCOPE_CHECK_TYPE(to_device(device.ptr(), &d), "Generator(): invalid device");
            return make_intrusive<GeneratorImpl>(d);
          }),
          py::arg("device") = py::none())
      .def("manual_seed",
           [](Generator g, py::int_ seed) {
             // torch accepts negative seeds (two's complement) up to 2**64 - 1.
             g->set_seed(static_cast<uint64_t>(PyLong_AsUnsignedLongLongMask(seed.ptr())));
             return g;
           })
      .def("seed", [](Generator g) { return g->seed_randomly(); })
      .def("initial_seed", [](Generator g) { return g->seed(); })
      .def_property_readonly("device", [](Generator g) { return g->device(); })
      .def("get_offset", [](Generator g) { return g->offset(); })
      .def("set_offset", [](Generator g, uint64_t o) {
        g->set_offset(o);
        return g;
      });
  g_generator_type = reinterpret_cast<PyTypeObject*>(gen.ptr());
  m.attr("default_generator") = default_generator(Device(DeviceType::CPU));
#ifdef OPSCOPE_HAS_CUDA
  init_cuda(m);  // opscope._C._cuda_* (core/cuda/python/cuda_module.cpp), after Generator
#endif
}

}  // namespace opscope::python
