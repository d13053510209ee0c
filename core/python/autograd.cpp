// The Python face of autograd: backward / grad, grad mode, tensor hooks, saved-tensor hooks. The
// nodes' Python objects and custom Functions are in core/python/nodes.cpp.
#include <pybind11/stl.h>

#include <memory>
#include <unordered_map>
#include <vector>

#include "core/autograd/AutogradMeta.h"
#include "core/autograd/CopySlices.h"
#include "core/autograd/Derivatives.h"
#include "core/autograd/Engine.h"
#include "core/autograd/GradMode.h"
#include "core/autograd/Node.h"
#include "core/python/crossing.h"
#include "core/python/futures.h"
#include "core/python/python_common.h"

namespace opscope::python {

namespace {

using autograd::Node;

// Tensor.register_hook's function as a GradHook: called with the GIL; its result replaces the
// gradient unless it is None; its exception propagates out of backward(). An `async def` hook's
// coroutine is awaited on the async-hook loop; when it fails the gradient passes through unchanged
// (Note [Async hooks] in futures.cpp).
autograd::GradHook python_grad_hook(py::object fn) {
  auto holder = std::make_shared<PyCallable>(std::move(fn));
  return [holder](const Tensor& g) -> Tensor {
    CallIntoPython gil("tensor hook", holder->fn);  // takes the GIL (crossing.h)
    py::object r = awaited_hook_result(holder->fn(wrap_obj(g)), holder->fn, "tensor hook",
                                       "the gradient passes through unchanged");
    if (r.is_none()) return Tensor();
    OPSCOPE_CHECK_TYPE(is_tensor(r.ptr()), "hook returned an object of type ",
                       Py_TYPE(r.ptr())->tp_name, "; expected a Tensor or None");
    return unwrap(r.ptr());
  };
}

// opscope.autograd.graph.saved_tensors_hooks(pack, unpack), for one saved tensor: pack(tensor)
// runs when the tensor is saved and its result is all that is kept; unpack(that) runs when backward
// (or grad_fn._saved_*) needs the tensor back.
class PySavedTensorHooks final : public autograd::SavedTensorHooks {
 public:
  PySavedTensorHooks(std::shared_ptr<PyCallable> pack, std::shared_ptr<PyCallable> unpack)
      : pack_(std::move(pack)), unpack_(std::move(unpack)) {}
  // An `async def` pack that fails keeps the tensor itself (unpack is then skipped); an async
  // unpack that fails raises: backward cannot go on without the tensor. Note [Async hooks].
  void pack(const Tensor& t) override {
    CallIntoPython gil("saved tensor pack_hook", pack_->fn);  // takes the GIL
    py::object r = pack_->fn(wrap_obj(t));
    if (is_coroutine(r)) {
      std::optional<py::object> awaited =
          await_hook_coroutine(std::move(r), pack_->fn, "saved tensor pack_hook",
                               "the tensor is saved as it is, without pack_hook / unpack_hook");
      if (!awaited) {
        kept_ = t;
        return;
      }
      r = std::move(*awaited);
    }
    packed_ = std::make_unique<PyCallable>(std::move(r));
  }
  Tensor unpack() override {
    if (kept_.defined()) return kept_;
    CallIntoPython gil("saved tensor unpack_hook", unpack_->fn);  // takes the GIL
    py::object r = unpack_->fn(packed_->fn);
    if (is_coroutine(r)) {
      std::optional<py::object> awaited =
          await_hook_coroutine(std::move(r), unpack_->fn, "saved tensor unpack_hook",
                               "backward cannot go on without the tensor");
      OPSCOPE_CHECK(awaited.has_value(),
                    "the async saved tensor unpack_hook gave no tensor (see the warning above)");
      r = std::move(*awaited);
    }
    OPSCOPE_CHECK_TYPE(is_tensor(r.ptr()),
                       "Output of saved tensor unpack_hook expected to be a Tensor but got result "
                       "of type ",
                       Py_TYPE(r.ptr())->tp_name);
    return unwrap(r.ptr());
  }

 private:
  std::shared_ptr<PyCallable> pack_, unpack_;
  std::unique_ptr<PyCallable> packed_;
  Tensor kept_;  // the tensor itself, when an async pack_hook failed
};

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

void init_autograd(py::module_& m) {
  m.def("is_grad_enabled", &autograd::grad_mode_enabled);
  m.def("_set_grad_enabled", &autograd::set_grad_mode_enabled);
  m.def("is_inference_mode_enabled", &autograd::inference_mode_enabled);
  py::class_<autograd::InferenceModeGuard>(m, "_InferenceMode",
                                           "Inference mode (or normal mode) while it lives.")
      .def(py::init<bool>());
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
      "_push_saved_tensors_hooks",
      [](py::object pack, py::object unpack) {
        auto p = std::make_shared<PyCallable>(std::move(pack));
        auto u = std::make_shared<PyCallable>(std::move(unpack));
        autograd::push_saved_tensors_hooks(
            [p, u] { return std::make_unique<PySavedTensorHooks>(p, u); });
      },
      "saved_tensors_hooks.__enter__: tensors saved from now on go through pack / unpack.");
  m.def("_pop_saved_tensors_hooks", &autograd::pop_saved_tensors_hooks,
        "saved_tensors_hooks.__exit__.");
  m.def(
      "_derivatives",
      [] {
        py::list l;
        for (const autograd::Derivative& d : autograd::derivatives()) {
          l.append(py::make_tuple("aten::" + std::string(d.op), std::string(d.node)));
          for (std::string_view name : d.inplace)
            l.append(py::make_tuple("aten::" + std::string(name), std::string(d.node)));
        }
        return l;
      },
      "[(op, node name)] for every op the derivative table covers "
      "(core/autograd/derivatives/).");
  m.def(
      "_data",
      [](py::handle t) {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "data expects a tensor");
        Tensor alias = make_alias_not_view(unwrap(t.ptr()));
        alias->reset_version_counter();
        return wrap_obj(std::move(alias));
      },
      "Tensor.data: the same memory, outside autograd, with a version counter of its own.");
  m.def(
      "_set_data",
      [](py::handle t, py::handle data) {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "data expects a tensor");
        OPSCOPE_CHECK_TYPE(is_tensor(data.ptr()), "Variable data has to be a tensor, but got ",
                           Py_TYPE(data.ptr())->tp_name);
        unwrap(t.ptr())->shallow_copy_from(*unwrap(data.ptr()).impl());
      },
      "Tensor.data = other: this tensor takes other's memory, shape and dtype.");
  m.def(
      "_python_crossings", [] { return CallIntoPython::active(); },
      "This thread's C++ -> Python crossings now running, outermost first (crossing.h).");
  m.def(
      "_view_base",
      [](py::handle t) -> py::object {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "_base expects a tensor");
        const Tensor& self = unwrap(t.ptr());
        if (!self->view_base()) return py::none();
        return wrap_obj(autograd::view_base_of(self));
      },
      "Tensor._base: the tensor this one is a view of, or None.");
  m.def(
      "_detach_",
      [](py::handle t) {
        OPSCOPE_CHECK_TYPE(is_tensor(t.ptr()), "detach_ expects a tensor");
        const Tensor& self = unwrap(t.ptr());
        OPSCOPE_CHECK(!autograd::is_differentiable_view(self),
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
