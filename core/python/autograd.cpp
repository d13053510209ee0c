// The Python face of autograd: grad_fn objects, backward / grad, grad mode.
//
// A node shows in Python as an instance of a class named like the node — `type(y.grad_fn)` is
// `<class 'MulBackward0'>`, as in PyTorch — one class per distinct name, made on first use, all
// with name(), next_functions and metadata. The same node always gives the same Python object while
// that object lives (Node::py_object is its weak back-pointer).
#include <pybind11/stl.h>

#include <memory>
#include <unordered_map>
#include <vector>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/Derivatives.h"
#include "core/autograd/Engine.h"
#include "core/autograd/GradMode.h"
#include "core/autograd/Node.h"
#include "core/python/python_common.h"

namespace opscope::python {

namespace {

using autograd::Node;

struct PyNode {
  PyObject_HEAD std::shared_ptr<Node> node;
  PyObject* metadata;  // a dict, made on first use
};

std::unordered_map<std::string, PyTypeObject*>& node_types() {
  static auto* types = new std::unordered_map<std::string, PyTypeObject*>();
  return *types;
}
std::unordered_map<const Node*, PyObject*>& live_objects() {
  static auto* objects = new std::unordered_map<const Node*, PyObject*>();
  return *objects;
}

void node_dealloc(PyObject* self) {
  auto* n = reinterpret_cast<PyNode*>(self);
  live_objects().erase(n->node.get());
  n->node.~shared_ptr<Node>();
  Py_XDECREF(n->metadata);
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject* node_name(PyObject* self, PyObject*) {
  return PyUnicode_FromString(reinterpret_cast<PyNode*>(self)->node->name().c_str());
}

PyObject* node_sequence_nr(PyObject* self, PyObject*) {
  return PyLong_FromUnsignedLongLong(reinterpret_cast<PyNode*>(self)->node->sequence_nr());
}

PyObject* node_next_functions(PyObject* self, void*) {
  return guarded([&]() -> PyObject* {
    const auto& edges = reinterpret_cast<PyNode*>(self)->node->next_edges();
    py::tuple t(edges.size());
    for (size_t i = 0; i < edges.size(); ++i)
      t[i] = py::make_tuple(py::reinterpret_steal<py::object>(node_object(edges[i].function)),
                            edges[i].input_nr);
    return t.release().ptr();
  });
}

PyObject* node_metadata(PyObject* self, void*) {
  auto* n = reinterpret_cast<PyNode*>(self);
  if (!n->metadata) n->metadata = PyDict_New();
  Py_XINCREF(n->metadata);
  return n->metadata;
}

PyObject* node_variable(PyObject* self, void*) {
  auto* acc = dynamic_cast<autograd::AccumulateGrad*>(reinterpret_cast<PyNode*>(self)->node.get());
  if (!acc) {
    PyErr_SetString(PyExc_AttributeError, "only AccumulateGrad nodes have 'variable'");
    return nullptr;
  }
  return wrap(acc->variable());
}

PyMethodDef node_methods[] = {
    {"name", node_name, METH_NOARGS, "The node's class name, e.g. 'MulBackward0'."},
    {"_sequence_nr", node_sequence_nr, METH_NOARGS,
     "Creation order: links a backward node to the forward op that recorded it."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef node_getset[] = {
    {"next_functions", node_next_functions, nullptr,
     "((node or None, input_nr), ...): where this node sends each gradient.", nullptr},
    {"metadata", node_metadata, nullptr, "A dict for the user's annotations.", nullptr},
    {"variable", node_variable, nullptr, "The leaf an AccumulateGrad node accumulates into.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject* node_type(const std::string& name) {
  auto& types = node_types();
  if (auto it = types.find(name); it != types.end()) return it->second;
  // Created in module builtins (so no DeprecationWarning), then named bare, as torch's node
  // classes are: <class 'MulBackward0'>, <MulBackward0 object at 0x...>. The names must outlive
  // the type: the spec's is kept in `spec_names`, the bare one is the map's key.
  static auto* spec_names = new std::vector<std::unique_ptr<std::string>>();
  spec_names->push_back(std::make_unique<std::string>("builtins." + name));
  auto [it, _] = types.emplace(name, nullptr);
  PyType_Slot slots[] = {{Py_tp_dealloc, reinterpret_cast<void*>(node_dealloc)},
                         {Py_tp_methods, node_methods},
                         {Py_tp_getset, node_getset},
                         {0, nullptr}};
  PyType_Spec spec{spec_names->back()->c_str(), sizeof(PyNode), 0, Py_TPFLAGS_DEFAULT, slots};
  auto* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!type) throw py::error_already_set();
  type->tp_name = it->first.c_str();
  it->second = type;  // kept for the life of the process
  return type;
}

// A Python callable held from C++ (a hook inside the graph): it may be dropped on a thread that
// does not hold the GIL, so dropping takes it (unless the interpreter is already gone).
struct PyCallable {
  py::object fn;
  explicit PyCallable(py::object f) : fn(std::move(f)) {}
  ~PyCallable() {
    if (!Py_IsInitialized()) {
      fn.release();
      return;
    }
    py::gil_scoped_acquire gil;
    fn = py::object();
  }
};

// Tensor.register_hook's function as a GradHook: called with the GIL; its result replaces the
// gradient unless it is None; its exception propagates out of backward().
autograd::GradHook python_grad_hook(py::object fn) {
  auto holder = std::make_shared<PyCallable>(std::move(fn));
  return [holder](const Tensor& g) -> Tensor {
    py::gil_scoped_acquire gil;
    py::object r = holder->fn(wrap_obj(g));
    if (r.is_none()) return Tensor();
    OPSCOPE_CHECK_TYPE(is_tensor(r.ptr()), "hook returned an object of type ",
                       Py_TYPE(r.ptr())->tp_name, "; expected a Tensor or None");
    return unwrap(r.ptr());
  };
}

autograd::variable_list tensors_of(const py::handle& seq, const char* what) {
  autograd::variable_list out;
  if (seq.is_none()) return out;
  for (py::handle h : seq) {
    if (h.is_none()) {
      out.emplace_back();
      continue;
    }
    OPSCOPE_CHECK_TYPE(is_tensor(h.ptr()), what, " must be tensors, got ",
                       Py_TYPE(h.ptr())->tp_name);
    out.push_back(unwrap(h.ptr()));
  }
  return out;
}

}  // namespace

PyObject* node_object(const std::shared_ptr<Node>& node) {
  if (!node) Py_RETURN_NONE;
  auto& live = live_objects();
  if (auto it = live.find(node.get()); it != live.end()) {
    Py_INCREF(it->second);
    return it->second;
  }
  PyTypeObject* type = node_type(node->name());
  PyObject* obj = type->tp_alloc(type, 0);
  if (!obj) return nullptr;
  auto* n = reinterpret_cast<PyNode*>(obj);
  new (&n->node) std::shared_ptr<Node>(node);
  n->metadata = nullptr;
  live.emplace(node.get(), obj);
  return obj;
}

void init_autograd(py::module_& m) {
  m.def("is_grad_enabled", &autograd::grad_mode_enabled);
  m.def("_set_grad_enabled", &autograd::set_grad_mode_enabled);
  m.def(
      "_backward",
      [](py::handle tensors, py::handle grad_tensors, bool retain_graph, bool create_graph,
         py::handle inputs) {
        autograd::BackwardOptions o{retain_graph, create_graph};
        autograd::variable_list roots = tensors_of(tensors, "tensors");
        autograd::variable_list grads = tensors_of(grad_tensors, "grad_tensors");
        autograd::variable_list in = tensors_of(inputs, "inputs");
        py::gil_scoped_release no_gil;
        autograd::backward(roots, grads, o, in);
      },
      py::arg("tensors"), py::arg("grad_tensors"), py::arg("retain_graph"), py::arg("create_graph"),
      py::arg("inputs"), "The engine behind Tensor.backward and opscope.autograd.backward.");
  m.def(
      "_grad",
      [](py::handle outputs, py::handle inputs, py::handle grad_outputs, bool retain_graph,
         bool create_graph, bool allow_unused) {
        autograd::BackwardOptions o{retain_graph, create_graph};
        autograd::variable_list outs = tensors_of(outputs, "outputs");
        autograd::variable_list ins = tensors_of(inputs, "inputs");
        autograd::variable_list grads = tensors_of(grad_outputs, "grad_outputs");
        autograd::variable_list result;
        {
          py::gil_scoped_release no_gil;
          result = autograd::grad(outs, ins, grads, o, allow_unused);
        }
        py::tuple t(result.size());
        for (size_t i = 0; i < result.size(); ++i) t[i] = wrap_obj(result[i]);
        return t;
      },
      "The engine behind opscope.autograd.grad.");
  m.def(
      "_register_hook",
      [](py::handle t, py::object fn) {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "register_hook expects a tensor");
        return autograd::register_tensor_hook(unwrap(t.ptr()), python_grad_hook(std::move(fn)));
      },
      "Tensor.register_hook: returns the hook's id for _remove_hook.");
  m.def("_remove_hook", [](py::handle t, uint64_t id) {
    OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "_remove_hook expects a tensor");
    autograd::remove_tensor_hook(unwrap(t.ptr()), id);
  });
  m.def("_retain_grad", [](py::handle t) {
    OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "retain_grad expects a tensor");
    autograd::retain_grad(unwrap(t.ptr()));
  });
  m.def("_retains_grad", [](py::handle t) {
    OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "retains_grad expects a tensor");
    return autograd::retains_grad(unwrap(t.ptr()));
  });
  m.def(
      "_derivatives",
      [] {
        py::list l;
        for (const autograd::Derivative& d : autograd::derivatives()) {
          l.append(py::make_tuple(std::string(d.op), std::string(d.node)));
          for (std::string_view name : d.inplace)
            l.append(py::make_tuple(std::string(name), std::string(d.node)));
        }
        return l;
      },
      "[(op, node name)] for every op the derivative table covers "
      "(core/autograd/derivatives.cpp).");
  m.def(
      "_view_base",
      [](py::handle t) -> py::object {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "_base expects a tensor");
        TensorImpl* base = unwrap(t.ptr())->view_base();
        if (!base) return py::none();
        return wrap_obj(Tensor(intrusive_ptr<TensorImpl>(base)));
      },
      "Tensor._base: the tensor this one is a view of, or None.");
  m.def(
      "_detach_",
      [](py::handle t) {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "detach_ expects a tensor");
        const Tensor& self = unwrap(t.ptr());
        OPSCOPE_CHECK(!self->view_base() || !is_floating(self.dtype()),
                      "Can't detach views in-place. Use detach() instead. If you are using "
                      "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                      "is set as True, gradients are views of DDP buckets, and hence detach_() "
                      "cannot be called on these gradients. To fix this error, please refer to "
                      "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                      "solution.");
        if (auto* meta = autograd::get_autograd_meta(self)) {
          meta->grad_fn.reset();
          meta->requires_grad_ = false;
          meta->output_nr = 0;
        }
      },
      "Tensor.detach_(): self leaves the graph and no longer requires grad.");
}

}  // namespace opscope::python
