// Autograd nodes as Python objects: grad_fn, next_functions, node hooks, saved tensors, and the
// nodes of custom autograd.Functions.
//
// A node shows in Python as an instance of a class named like the node — `type(y.grad_fn)` is
// `<class 'MulBackward0'>`, as in PyTorch — one class per distinct name, made on first use, all
// with name(), next_functions, metadata, register_hook / register_prehook and, for the nodes of
// the derivative table, `_saved_<argument>` / `_saved_result`. The same node gives the same Python
// object while that object lives (live_objects).
//
// A custom Function's node is the other way round: its Python object is the `ctx` its forward
// filled (an instance of `MyExpBackward`, a subclass of _C._FunctionBase made per Function class
// in opscope/autograd/function.py), created first; the node (PyFunctionNode) holds the ctx, and the
// ctx holds the node weakly, as in PyTorch (THPFunction::cdata).
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/CopySlices.h"
#include "core/autograd/Derivatives.h"
#include "core/autograd/Node.h"
#include "core/python/crossing.h"
#include "core/python/futures.h"
#include "core/python/python_common.h"

namespace opscope::python {

namespace {

using autograd::Node;
using autograd::variable_list;

// --- the node of a custom Function --------------------------------------------------------------

// backward is the Function class's staticmethod, called through ctx.apply(*grads)
// (BackwardCFunction.apply in opscope/autograd/function.py).
class PyFunctionNode final : public Node {
 public:
  PyFunctionNode(PyObject* ctx, std::string name) : ctx_(ctx), name_(std::move(name)) {
    Py_INCREF(ctx_);
  }
  ~PyFunctionNode() override {
    if (python_is_going()) return;  // nothing to release
    py::gil_scoped_acquire gil;
    saved.clear();  // their hooks may hold Python objects
    Py_DECREF(ctx_);
  }
  std::string name() const override { return name_; }
  variable_list apply(variable_list&& grads) override;
  void release_variables() override {
    py::gil_scoped_acquire gil;
    for (autograd::SavedVariable& v : saved) v.release();
  }
  bool materializes_grads() const override { return materialize_grads; }
  PyObject* ctx() const { return ctx_; }

  std::vector<autograd::SavedVariable> saved;  // ctx.save_for_backward
  std::vector<bool> arg_is_tensor;             // per forward argument: has a next edge
  std::vector<bool> output_is_tensor;          // per forward output: non-tensors get None
  bool materialize_grads = true;

 private:
  PyObject* ctx_;
  std::string name_;
};

variable_list PyFunctionNode::apply(variable_list&& grads) {
  CallIntoPython gil("custom Function backward", ctx_, name_);  // takes the GIL (crossing.h)
  py::tuple args(grads.size());
  for (size_t i = 0; i < grads.size(); ++i)
    args[i] = output_is_tensor[i] && grads[i].defined() ? wrap_obj(grads[i]) : py::none();
  py::object r = py::reinterpret_borrow<py::object>(ctx_).attr("apply")(*args);
  py::tuple rt = py::isinstance<py::tuple>(r) ? py::tuple(r) : py::make_tuple(r);
  const size_t n = arg_is_tensor.size();
  bool count_ok = rt.size() >= n;  // more is fine when the extra ones are None
  for (size_t i = n; count_ok && i < rt.size(); ++i) count_ok = rt[i].is_none();
  OPSCOPE_CHECK(count_ok, "function ", name_,
                " returned an incorrect number of gradients (expected ", n, ", got ", rt.size(),
                ")");
  variable_list out;
  for (size_t i = 0; i < n; ++i) {
    py::handle g = rt[i];
    if (!arg_is_tensor[i]) {
      OPSCOPE_CHECK(g.is_none(), "function ", name_,
                    " returned a gradient different than None at position ", i + 1,
                    ", but the corresponding forward input was not a Variable");
      continue;
    }
    if (g.is_none()) {
      out.emplace_back();
      continue;
    }
    OPSCOPE_CHECK(is_tensor(g.ptr()), "expected Variable or None (got ", Py_TYPE(g.ptr())->tp_name,
                  ")");
    out.push_back(unwrap(g.ptr()));
  }
  return out;
}

// --- the Python types ---------------------------------------------------------------------------

struct PyNode {  // the object of a C++ node (MulBackward0, AccumulateGrad, CopySlices, ...)
  PyObject_HEAD std::shared_ptr<Node> node;
  PyObject* metadata;  // a dict, made on first use
};

struct PyFunctionBase {  // a custom Function's ctx (_C._FunctionBase)
  PyObject_HEAD std::weak_ptr<Node> cdata;
  PyObject* metadata;
};

PyTypeObject* g_function_base_type = nullptr;

bool is_function_ctx(PyObject* o) {
  return g_function_base_type && PyObject_TypeCheck(o, g_function_base_type);
}

// The node behind a Python node object (a ctx's node may not exist yet: null).
std::shared_ptr<Node> node_of(PyObject* self) {
  if (is_function_ctx(self)) return reinterpret_cast<PyFunctionBase*>(self)->cdata.lock();
  return reinterpret_cast<PyNode*>(self)->node;
}

std::shared_ptr<Node> checked_node_of(PyObject* self) {
  std::shared_ptr<Node> n = node_of(self);
  OPSCOPE_CHECK(n, "this Function has not been applied: it has no node yet");
  return n;
}

PyObject*& metadata_slot(PyObject* self) {
  return is_function_ctx(self) ? reinterpret_cast<PyFunctionBase*>(self)->metadata
                               : reinterpret_cast<PyNode*>(self)->metadata;
}

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

// name() as torch's: its own C++ nodes keep their namespace ("torch::autograd::AccumulateGrad"),
// generated and Python nodes are the class name. type(fn).__name__ is the class name for all.
PyObject* node_name(PyObject* self, PyObject*) {
  return guarded([&] {
    const std::string& name = checked_node_of(self)->name();
    const bool cpp_node = name == "AccumulateGrad" || name == "CopySlices" || name == "GraphRoot";
    return PyUnicode_FromString(cpp_node ? ("torch::autograd::" + name).c_str() : name.c_str());
  });
}

PyObject* node_sequence_nr(PyObject* self, PyObject*) {
  return guarded([&] { return PyLong_FromUnsignedLongLong(checked_node_of(self)->sequence_nr()); });
}

PyObject* node_next_functions(PyObject* self, void*) {
  return guarded([&]() -> PyObject* {
    std::shared_ptr<Node> n = node_of(self);
    if (!n) return PyTuple_New(0);
    const auto& edges = n->next_edges();
    py::tuple t(edges.size());
    for (size_t i = 0; i < edges.size(); ++i)
      t[i] = py::make_tuple(py::reinterpret_steal<py::object>(node_object(edges[i].function)),
                            edges[i].input_nr);
    return t.release().ptr();
  });
}

PyObject* node_metadata(PyObject* self, void*) {
  PyObject*& slot = metadata_slot(self);
  if (!slot) slot = PyDict_New();
  Py_XINCREF(slot);
  return slot;
}

PyObject* node_variable(PyObject* self, void*) {
  auto* acc = dynamic_cast<autograd::AccumulateGrad*>(node_of(self).get());
  if (!acc) {
    PyErr_SetString(PyExc_AttributeError, "only AccumulateGrad nodes have 'variable'");
    return nullptr;
  }
  return wrap(acc->variable());
}

// A tuple of gradients for a hook (undefined: None).
py::tuple grads_to_py(const variable_list& gs) {
  py::tuple t(gs.size());
  for (size_t i = 0; i < gs.size(); ++i) t[i] = gs[i].defined() ? wrap_obj(gs[i]) : py::none();
  return t;
}

// A node hook's result, checked as torch checks it: None (no change) or a tuple of as many
// Tensors-or-None as `grads`, with no gradient where there was none.
variable_list grads_from_py(const py::object& r, const py::object& hook,
                            const variable_list& grads) {
  if (r.is_none()) return {};
  OPSCOPE_CHECK_TYPE(py::isinstance<py::tuple>(r), "expected tuple, but hook returned '",
                     Py_TYPE(r.ptr())->tp_name, "'");
  py::tuple t(r);
  OPSCOPE_CHECK(t.size() == grads.size(), "hook '",
                py::str(py::getattr(hook, "__name__", py::str("?"))).cast<std::string>(),
                "' has returned an incorrect number of values (got ", t.size(), ", but expected ",
                grads.size(), ")");
  variable_list out;
  for (size_t i = 0; i < t.size(); ++i) {
    py::handle h = t[i];
    OPSCOPE_CHECK_TYPE(h.is_none() || is_tensor(h.ptr()), "expected Variable or None (got ",
                       Py_TYPE(h.ptr())->tp_name, ")");
    OPSCOPE_CHECK(h.is_none() || grads[i].defined(),
                  "can't replace a None gradient with a non-None value");
    out.push_back(h.is_none() ? Tensor() : unwrap(h.ptr()));
  }
  return out;
}

// A handle whose remove() takes hook `id` off the node (opscope.utils.hooks.RemovableHandle).
PyObject* hook_handle(PyObject* self, uint64_t id) {
  py::object node = py::reinterpret_borrow<py::object>(self);
  py::cpp_function remove([node, id] { checked_node_of(node.ptr())->remove_pre_hook(id); });
  return py::module_::import("opscope.utils.hooks")
      .attr("RemovableHandle")(remove, id)
      .release()
      .ptr();
}

// grad_fn.register_hook(hook(grad_inputs, grad_outputs) -> tuple or None): after the node ran.
PyObject* node_register_hook(PyObject* self, PyObject* fn) {
  return guarded([&] {
    auto holder = std::make_shared<PyCallable>(py::reinterpret_borrow<py::object>(fn));
    uint64_t id = checked_node_of(self)->add_post_hook(
        [holder](const variable_list& grad_inputs, const variable_list& grad_outputs) {
          CallIntoPython gil("grad_fn hook", holder->fn);  // takes the GIL
          py::object r = holder->fn(grads_to_py(grad_inputs), grads_to_py(grad_outputs));
          r = awaited_hook_result(std::move(r), holder->fn, "grad_fn hook",  // Note [Async hooks]
                                  "the gradients pass through unchanged");
          return grads_from_py(r, holder->fn, grad_inputs);
        });
    return hook_handle(self, id);
  });
}

// grad_fn.register_prehook(hook(grad_outputs) -> tuple or None): before the node runs.
PyObject* node_register_prehook(PyObject* self, PyObject* fn) {
  return guarded([&] {
    auto holder = std::make_shared<PyCallable>(py::reinterpret_borrow<py::object>(fn));
    uint64_t id =
        checked_node_of(self)->add_node_pre_hook([holder](const variable_list& grad_outputs) {
          CallIntoPython gil("grad_fn prehook", holder->fn);  // takes the GIL
          py::object r = awaited_hook_result(holder->fn(grads_to_py(grad_outputs)), holder->fn,
                                             "grad_fn prehook",  // Note [Async hooks]
                                             "the gradients pass through unchanged");
          return grads_from_py(r, holder->fn, grad_outputs);
        });
    return hook_handle(self, id);
  });
}

// grad_fn._saved_self, _saved_other, _saved_dim, _saved_result (_saved_result1 ...): what a
// derivative-table node keeps, named after the op's schema arguments (torch's generated
// attributes).
PyObject* saved_attribute(const autograd::DerivativeNode& d, const std::string& what) {
  autograd::BackwardContext c(d);
  if (what == "result") return d.derivative().save_result ? wrap(c.result(0)) : nullptr;
  const std::string op = "aten::" + std::string(d.derivative().op);
  const FunctionSchema& schema = Dispatcher::singleton().find_by_full_name(op).schema();
  // A named result: nll_loss_forward's total_weight is _saved_total_weight, as torch names it.
  for (size_t r = 0; r < schema.returns.size() && d.derivative().save_result; ++r)
    if (!schema.returns[r].name.empty() && schema.returns[r].name == what) return wrap(c.result(r));
  // A node of an op with several results: _saved_result1, _saved_result2 (native_layer_norm's
  // mean and rstd), as torch's generated attributes.
  if (what.size() > 6 && what.starts_with("result") &&
      what.find_first_not_of("0123456789", 6) == std::string::npos && d.derivative().save_result)
    return wrap(c.result(std::stoul(what.substr(6))));
  const auto& saved = d.derivative().at.save;  // schema positions
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    if (schema.arguments[i].name != what) continue;
    if (Tensor t = c.arg_at(i); t.defined()) return wrap(t);
    if (!c.value_at(i).is_none()) return ivalue_to_py(c.value_at(i)).release().ptr();
    // A tensor the formula may read, not kept because no wanted gradient needed it: None.
    if (std::find(saved.begin(), saved.end(), static_cast<int>(i)) != saved.end()) Py_RETURN_NONE;
  }
  return nullptr;
}

PyObject* node_getattro(PyObject* self, PyObject* name) {
  PyObject* r = PyObject_GenericGetAttr(self, name);
  if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
  const char* n = PyUnicode_AsUTF8(name);
  if (!n || std::string_view(n).rfind("_saved_", 0) != 0) return nullptr;
  auto* d = dynamic_cast<autograd::DerivativeNode*>(node_of(self).get());
  if (!d) return nullptr;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyObject* found = guarded([&] { return saved_attribute(*d, std::string(n + 7)); });
  if (found || PyErr_Occurred()) {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return found;
  }
  PyErr_Restore(type, value, tb);
  return nullptr;
}

// dir(grad_fn): object's attributes and the node's _saved_* names (tab completion in IPython and
// Jupyter reads dir), as torch's generated properties list them: the saved tensors, the results
// (_saved_result, or _saved_result1.. of an op with several), and the non-tensor arguments
// (all of them: torch lists only those its formula reads).
PyObject* node_dir(PyObject* self, PyObject*) {
  return guarded([&]() -> PyObject* {
    py::list names = py::reinterpret_steal<py::list>(
        PyObject_CallMethod(reinterpret_cast<PyObject*>(&PyBaseObject_Type), "__dir__", "O", self));
    if (!names) throw py::error_already_set();
    auto* d = dynamic_cast<autograd::DerivativeNode*>(node_of(self).get());
    if (!d) return names.release().ptr();
    const autograd::Derivative& entry = d->derivative();
    const FunctionSchema& schema =
        Dispatcher::singleton().find_by_full_name("aten::" + std::string(entry.op)).schema();
    // Names only: the saved tensors are not unpacked (after backward they are freed, and dir,
    // like torch's, still answers).
    autograd::BackwardContext c(*d);
    const auto& saved = entry.at.save;  // schema positions of the saved tensors
    for (size_t i = 0; i < schema.arguments.size(); ++i)
      if (std::find(saved.begin(), saved.end(), static_cast<int>(i)) != saved.end() ||
          !c.value_at(i).is_none())
        names.append("_saved_" + schema.arguments[i].name);
    if (entry.save_result) {
      const size_t results = schema.returns.size();
      for (size_t r = 0; r < results; ++r) {
        const std::string& name = schema.returns[r].name;
        if (!name.empty()) {
          if (r > 0) names.append("_saved_" + name);  // the first is the output itself
        } else if (results == 1) {
          names.append("_saved_result");
        } else if (r > 0) {
          names.append("_saved_result" + std::to_string(r));
        }
      }
    }
    return names.release().ptr();
  });
}

PyMethodDef node_methods[] = {
    {"__dir__", method<node_dir>(), METH_NOARGS, "The attributes, the saved values' too."},
    {"name", method<node_name>(), METH_NOARGS, "torch's name of the node: 'MulBackward0', 'torch::autograd::AccumulateGrad'."},
    {"_sequence_nr", method<node_sequence_nr>(), METH_NOARGS,
     "Creation order: links a backward node to the forward op that recorded it."},
    {"register_hook", method<node_register_hook>(), METH_O,
     "register_hook(hook(grad_inputs, grad_outputs) -> tuple or None): runs after the node; "
     "a returned tuple replaces grad_inputs. Returns a handle with remove()."},
    {"register_prehook", method<node_register_prehook>(), METH_O,
     "register_prehook(hook(grad_outputs) -> tuple or None): runs before the node; a returned "
     "tuple replaces grad_outputs. Returns a handle with remove()."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef node_getset[] = {
    {"next_functions", guard<node_next_functions>, nullptr,
     "((node or None, input_nr), ...): where this node sends each gradient.", nullptr},
    {"metadata", guard<node_metadata>, nullptr, "A dict for the user's annotations.", nullptr},
    {"variable", guard<node_variable>, nullptr, "The leaf an AccumulateGrad node accumulates into.",
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
  PyType_Slot slots[] = {{Py_tp_dealloc, slot<node_dealloc>()},
                         {Py_tp_methods, node_methods},
                         {Py_tp_getset, node_getset},
                         {Py_tp_getattro, slot<node_getattro>()},
                         {0, nullptr}};
  PyType_Spec spec{spec_names->back()->c_str(), sizeof(PyNode), 0, Py_TPFLAGS_DEFAULT, slots};
  auto* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!type) throw py::error_already_set();
  type->tp_name = it->first.c_str();
  it->second = type;  // kept for the life of the process
  return type;
}

// --- _C._FunctionBase: the base of every custom Function's ctx ---------------------------------

PyObject* function_base_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyObject* self = type->tp_alloc(type, 0);
  if (!self) return nullptr;
  auto* f = reinterpret_cast<PyFunctionBase*>(self);
  new (&f->cdata) std::weak_ptr<Node>();
  f->metadata = nullptr;
  return self;
}

void function_base_dealloc(PyObject* self) {
  auto* f = reinterpret_cast<PyFunctionBase*>(self);
  f->cdata.~weak_ptr<Node>();
  Py_XDECREF(f->metadata);
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);
}

// ctx.saved_tensors: what save_for_backward kept, checked for in-place writes and for a freed
// graph; before the node exists (inside forward), the tensors given to save_for_backward.
PyObject* function_saved_tensors(PyObject* self, void*) {
  return guarded([&]() -> PyObject* {
    std::shared_ptr<Node> n = node_of(self);
    if (!n) {
      py::object to_save = py::getattr(self, "to_save", py::none());
      return (to_save.is_none() ? py::tuple() : py::tuple(to_save)).release().ptr();
    }
    auto& f = static_cast<PyFunctionNode&>(*n);
    py::tuple t(f.saved.size());
    for (size_t i = 0; i < f.saved.size(); ++i) {
      Tensor v = f.saved[i].unpack(n);
      t[i] = v.defined() ? wrap_obj(std::move(v)) : py::none();
    }
    return t.release().ptr();
  });
}

PyGetSetDef function_getset[] = {
    {"next_functions", guard<node_next_functions>, nullptr,
     "((node or None, input_nr), ...): where this node sends each gradient.", nullptr},
    {"metadata", guard<node_metadata>, nullptr, "A dict for the user's annotations.", nullptr},
    {"saved_tensors", guard<function_saved_tensors>, nullptr,
     "The tensors forward gave to ctx.save_for_backward.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject* make_function_base_type() {
  PyType_Slot slots[] = {{Py_tp_new, slot<function_base_new>()},
                         {Py_tp_dealloc, slot<function_base_dealloc>()},
                         {Py_tp_methods, node_methods},
                         {Py_tp_getset, function_getset},
                         {0, nullptr}};
  PyType_Spec spec{"opscope._C._FunctionBase", sizeof(PyFunctionBase), 0,
                   Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  auto* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!type) throw py::error_already_set();
  return type;
}

// --- Function.apply's second half ---------------------------------------------------------------

std::unordered_set<const TensorImpl*> impls_in(const py::object& seq) {
  std::unordered_set<const TensorImpl*> s;
  if (seq.is_none()) return s;
  for (py::handle h : seq)
    if (is_tensor(h.ptr())) s.insert(unwrap(h.ptr()).impl());
  return s;
}

// After forward ran (without grad) on `args` and returned `outputs`: records ctx's node when
// `executable` (grad mode on and an input requires grad), making it the grad_fn of the
// differentiable outputs, and keeps what ctx.save_for_backward was given. Returns the outputs to
// hand back: an input returned as it is comes back as a view of it, as in torch.
py::object function_record(py::handle ctx, py::tuple args, py::object outputs, bool executable) {
  OPSCOPE_CHECK_TYPE(is_function_ctx(ctx.ptr()), "_function_record expects a Function's ctx");
  if (!executable) return outputs;
  const bool single = !py::isinstance<py::tuple>(outputs);
  py::tuple outs = single ? py::make_tuple(outputs) : py::tuple(outputs);

  auto node = std::make_shared<PyFunctionNode>(
      ctx.ptr(), py::str(py::type::of(ctx).attr("__name__")).cast<std::string>());
  std::unordered_set<const TensorImpl*> inputs;
  for (py::handle a : args) {
    bool t = is_tensor(a.ptr());
    node->arg_is_tensor.push_back(t);
    if (!t) continue;
    node->add_next_edge(autograd::gradient_edge(unwrap(a.ptr())));
    inputs.insert(unwrap(a.ptr()).impl());
  }
  auto dirty = impls_in(py::getattr(ctx, "dirty_tensors", py::none()));
  auto non_differentiable = impls_in(py::getattr(ctx, "non_differentiable", py::none()));

  py::list result;
  std::unordered_set<const TensorImpl*> recorded;  // outputs whose grad_fn is the node
  for (py::handle o : outs) {
    if (!is_tensor(o.ptr())) {
      node->output_is_tensor.push_back(false);
      node->add_input_metadata(autograd::InputMetadata{});
      result.append(o);
      continue;
    }
    node->output_is_tensor.push_back(true);
    Tensor t = unwrap(o.ptr());
    const bool differentiable = !non_differentiable.count(t.impl()) && is_floating(t.dtype());
    if (dirty.count(t.impl())) {
      OPSCOPE_CHECK(!(autograd::is_leaf(t) && t->requires_grad()),
                    "a leaf Variable that requires grad has been used in an in-place operation.");
      t->bump_version();  // as torch's _mark_dirty, on top of the write's own bump
      if (!differentiable) {
        node->add_input_metadata(t);
      } else if (autograd::is_differentiable_view(t)) {
        autograd::check_inplace_on_view(t);
        autograd::rebase_history(t, node);
      } else {
        autograd::set_history(t, node);
      }
      result.append(o);
    } else if (!differentiable) {
      node->add_input_metadata(t);
      result.append(o);
    } else {
      if (inputs.count(t.impl())) t = make_view(t, t.sizes(), t.strides(), t->storage_offset());
      autograd::set_history(t, node);
      result.append(wrap_obj(t));
    }
    if (differentiable) recorded.insert(t.impl());
  }

  py::object to_save = py::getattr(ctx, "to_save", py::none());
  if (!to_save.is_none()) {
    for (py::handle h : to_save) {
      if (h.is_none()) {
        node->saved.emplace_back();
        continue;
      }
      const Tensor& t = unwrap(h.ptr());
      node->saved.emplace_back(t, /*is_output=*/recorded.count(t.impl()) > 0);
    }
    py::setattr(ctx, "to_save", py::none());
  }
  node->materialize_grads = py::getattr(ctx, "materialize_grads", py::bool_(true)).cast<bool>();
  reinterpret_cast<PyFunctionBase*>(ctx.ptr())->cdata = node;
  autograd::report_node_created(*node);
  if (single) return py::object(result[0]);
  return py::tuple(result);
}

}  // namespace

PyObject* node_object(const std::shared_ptr<Node>& node) {
  if (!node) Py_RETURN_NONE;
  if (auto* f = dynamic_cast<PyFunctionNode*>(node.get())) {
    Py_INCREF(f->ctx());
    return f->ctx();
  }
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

void init_nodes(py::module_& m) {
  g_function_base_type = make_function_base_type();
  m.add_object("_FunctionBase", py::reinterpret_borrow<py::object>(
                                    reinterpret_cast<PyObject*>(g_function_base_type)));
  m.def("_function_record", &function_record, py::arg("ctx"), py::arg("args"), py::arg("outputs"),
        py::arg("executable"),
        "The second half of autograd.Function.apply (opscope/autograd/function.py).");
}

}  // namespace opscope::python
