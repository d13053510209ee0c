// Schema-derived Python functions and methods: opscope.add, Tensor.add,
// opscope.ops.aten.add.Tensor.
//
// At import, every declared op becomes a callable object whose overloads are the op's schemas
// (see arg_parser.h). Calling it parses the arguments against each overload in turn, boxes them
// into a Stack and makes one boxed dispatcher call — the only binding code any op has.
#include <algorithm>
#include <map>

#include <pybind11/stl.h>

#include "core/autograd/AutogradMeta.h"
#include "core/python/arg_parser.h"
#include "core/python/torch_function.h"
#include "core/python/gil.h"

#include <structmember.h>  // after Python.h

namespace opscope::python {

namespace {

// Note [In-place binary methods]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `p.add_(g)`, `m.mul_(beta)`: the in-place binary methods are what a hand-written training loop
// calls per parameter, so their per-call cost counts. A call with exactly two plain tensors (no
// keyword, no subclass, no torch function mode) runs the op's typed handle directly, as `a += b`
// does (tensor_type.cpp), instead of parsing against each overload and boxing a Stack: the same
// dispatcher call, the same trace, ~40 ns less (bench_ops.py, "in place a.add_(b)"). Anything
// else (`alpha=`, a number, a Parameter) takes the general path below.
using InplaceBinary = void (*)(const Tensor& self, const Tensor& other);

template <const char* Name, bool HasAlpha>
void inplace_binary(const Tensor& self, const Tensor& other) {
  if constexpr (HasAlpha) {
    static const auto f = typed_op<Tensor(const Tensor&, const Tensor&, const Scalar&)>(Name);
    f.call(self, other, 1);
  } else {
    static const auto f = typed_op<Tensor(const Tensor&, const Tensor&)>(Name);
    f.call(self, other);
  }
}
constexpr char kAddInplace[] = "aten::add_.Tensor";
constexpr char kSubInplace[] = "aten::sub_.Tensor";
constexpr char kMulInplace[] = "aten::mul_.Tensor";
constexpr char kDivInplace[] = "aten::div_.Tensor";

InplaceBinary inplace_fast_path(const std::string& method_name) {
  if (method_name == "add_") return inplace_binary<kAddInplace, true>;
  if (method_name == "sub_") return inplace_binary<kSubInplace, true>;
  if (method_name == "mul_") return inplace_binary<kMulInplace, false>;
  if (method_name == "div_") return inplace_binary<kDivInplace, false>;
  return nullptr;
}

struct OpBinding {
  std::string name;     // "add"
  bool method = false;  // installed on Tensor: args[0] is self
  // Public functions and methods honour __torch_function__; opscope.ops.aten overloads do not.
  bool torch_function = true;
  std::vector<Signature> signatures;
  InplaceBinary inplace = nullptr;  // Note [In-place binary methods]
};

struct PyOp {
  PyObject_HEAD vectorcallfunc vectorcall;
  OpBinding* binding;  // lives as long as the process (ops are never destroyed)
};

PyTypeObject* g_op_type = nullptr;

// torch's description of the arguments given, quirks included: a method leaves out self; keyword
// arguments come after the positional ones in reverse order, and each keeps its trailing ", "
// when no positional argument precedes them: t.std(correction=0) -> "(correction=int, )".
std::string got_types(PyObject* const* args, size_t nargs, PyObject* kwnames, bool method) {
  auto type_name = [](PyObject* v) -> std::string {
    return is_tensor(v) ? "Tensor" : Py_TYPE(v)->tp_name;
  };
  std::string s = "(";
  size_t first = method && nargs ? 1 : 0;
  for (size_t i = first; i < nargs; ++i) s += type_name(args[i]) + ", ";
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = nkw - 1; k >= 0; --k)
    s += unpack_utf8(PyTuple_GET_ITEM(kwnames, k)) + "=" +
         type_name(args[nargs + static_cast<size_t>(k)]) + ", ";
  if (nargs > first && s.size() > 1) s.resize(s.size() - 2);
  return s + ")";
}

size_t nkw(PyObject* kwnames) {
  return kwnames ? static_cast<size_t>(PyTuple_GET_SIZE(kwnames)) : 0;
}

PyObject* op_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  OpBinding& b = *reinterpret_cast<PyOp*>(self)->binding;
  size_t nargs = PyVectorcall_NARGS(nargsf);
  return guarded([&]() -> PyObject* {
    if (b.inplace && nargs == 2 && !kwnames && Py_TYPE(args[0]) == g_tensor_type &&
        Py_TYPE(args[1]) == g_tensor_type && !torch_function_possible(args, nargs)) {
      const Tensor &self_tensor = unwrap(args[0]), &other = unwrap(args[1]);
      {
        ReleaseGilFor no_gil({&self_tensor, &other});
        b.inplace(self_tensor, other);
      }
      Py_INCREF(args[0]);
      return args[0];
    }
    // See Note [The torch function fast path]: exact tensors and numbers cost a few compares.
    // An overloaded argument sends the call to its __torch_function__ before any parsing (so an
    // FX Proxy may stand where the schema has an int); a mode alone takes calls that parse.
    const char* api = b.method ? "torch.Tensor" : "torch";
    bool to_mode = false;
    if (b.torch_function && torch_function_possible(args, nargs + nkw(kwnames))) {
      std::vector<PyObject*> overloaded = overloaded_args(args, nargs, kwnames);
      if (!overloaded.empty()) return call_torch_function(self, overloaded, args, nargs, kwnames, api);
      to_mode = torch_function_mode_set();
    }
    ParseResult r;
    std::string why;
    for (const Signature& sig : b.signatures) {
      if (!parse_signature(sig, args, nargs, kwnames, &r, &why)) continue;
      if (to_mode) return call_torch_function(self, {}, args, nargs, kwnames, api);
      const OperatorHandle& op = r.use_out ? *sig.out_op : sig.op;
      call_op_from_python(op, &r.stack);  // the GIL released for big ones (gil.h)
      if (r.requires_grad && !r.stack.empty() && r.stack[0].is_tensor()) {
        OPSCOPE_CHECK(is_floating(r.stack[0].to_tensor().dtype()),
                      "Only Tensors of floating point and complex dtype can require gradients");
        autograd::set_requires_grad(r.stack[0].to_tensor(), true);
      }
      return returns_to_py(op.schema(), r.stack, 0,
                           r.use_out ? sig.out_result_type : sig.result_type);
    }
    if (b.signatures.size() == 1) throw TypeError(why);
    std::string msg = b.name + "() received an invalid combination of arguments - got " +
                      got_types(args, nargs, kwnames, b.method) + ", but expected one of:\n";
    for (const Signature& sig : b.signatures) msg += " * " + sig.display + "\n";
    throw TypeError(msg);
  });
}

PyObject* op_descr_get(PyObject* self, PyObject* obj, PyObject*) {
  if (!obj || !reinterpret_cast<PyOp*>(self)->binding->method) {
    Py_INCREF(self);
    return self;
  }
  return PyMethod_New(self, obj);
}

PyObject* op_get_name(PyObject* self, void*) {
  return PyUnicode_FromString(reinterpret_cast<PyOp*>(self)->binding->name.c_str());
}

PyObject* op_get_doc(PyObject* self, void*) {
  const OpBinding& b = *reinterpret_cast<PyOp*>(self)->binding;
  std::string doc;
  for (const Signature& s : b.signatures)
    doc += b.name + s.display + "\n    schema: " + s.op.schema().str() + "\n";
  return PyUnicode_FromString(doc.c_str());
}

PyObject* op_get_overloads(PyObject* self, void*) {
  const OpBinding& b = *reinterpret_cast<PyOp*>(self)->binding;
  PyObject* list = PyList_New(0);
  for (const Signature& s : b.signatures) {
    PyObject* n = PyUnicode_FromString(s.op.full_name().c_str());
    PyList_Append(list, n);
    Py_DECREF(n);
  }
  return list;
}

PyObject* op_repr(PyObject* self) {
  const OpBinding& b = *reinterpret_cast<PyOp*>(self)->binding;
  return PyUnicode_FromFormat(
      b.method ? "<method '%s' of 'opscope.Tensor' objects>" : "<built-in function %s>",
      b.name.c_str());
}

PyGetSetDef op_getset[] = {{"__name__", guard<op_get_name>, nullptr, nullptr, nullptr},
                           {"__qualname__", guard<op_get_name>, nullptr, nullptr, nullptr},
                           {"__doc__", guard<op_get_doc>, nullptr, nullptr, nullptr},
                           {"_overloads", guard<op_get_overloads>, nullptr,
                            "The full names of the overloads, in parsing order.", nullptr},
                           {nullptr, nullptr, nullptr, nullptr, nullptr}};

void init_op_type() {
  static PyMemberDef members[] = {
      {"__vectorcalloffset__", T_PYSSIZET, offsetof(PyOp, vectorcall), READONLY, nullptr},
      {nullptr, 0, 0, 0, nullptr}};
  PyType_Slot slots[] = {{Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                         {Py_tp_descr_get, slot<op_descr_get>()},
                         {Py_tp_getset, op_getset},
                         {Py_tp_members, members},
                         {Py_tp_repr, slot<op_repr>()},
                         {0, nullptr}};
  PyType_Spec spec = {
      "opscope._C.OpFunction", sizeof(PyOp), 0,
      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR, slots};
  g_op_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  if (!g_op_type) throw py::error_already_set();
}

PyObject* make_op(OpBinding* b) {
  PyOp* o = PyObject_New(PyOp, g_op_type);
  o->vectorcall = guard<op_vectorcall>;
  o->binding = b;
  return reinterpret_cast<PyObject*>(o);
}

// Overloads are tried with functional ones first, those taking more tensors first, out= last.
void sort_signatures(std::vector<Signature>& sigs) {
  auto key = [](const Signature& s) {
    const FunctionSchema& f = s.op.schema();
    int tensors = 0;
    for (const auto& a : f.arguments)
      if (a.type.kind == TypeKind::Tensor && !a.type.is_list && !a.kwarg_only) ++tensors;
    return std::make_tuple(f.is_out_variant(), -tensors, f.overload);
  };
  std::stable_sort(sigs.begin(), sigs.end(),
                   [&](const Signature& a, const Signature& b) { return key(a) < key(b); });
  // torch's sort_overloads also tries an `int` (or `int?`) argument before an `int[]` in the
  // same place: a lone int[] takes a bare number (x.view(6)), so x.hsplit(3) would otherwise
  // match hsplit.array([3]) before hsplit.int(3). Two signatures that differ only there swap.
  auto int_before_list = [](const Signature& a, const Signature& b) {  // b should precede a
    const auto& x = a.op.schema().arguments;
    const auto& y = b.op.schema().arguments;
    if (x.size() != y.size() || a.op.schema().is_out_variant() != b.op.schema().is_out_variant())
      return false;
    bool differs = false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i].type == y[i].type) continue;
      bool list_vs_int = x[i].type.is_list && x[i].type.kind == TypeKind::Int &&
                         !y[i].type.is_list && y[i].type.kind == TypeKind::Int;
      if (!list_vs_int) return false;
      differs = true;
    }
    return differs;
  };
  for (size_t i = 0; i < sigs.size(); ++i)
    for (size_t j = i + 1; j < sigs.size(); ++j)
      if (int_before_list(sigs[i], sigs[j])) {
        std::rotate(sigs.begin() + static_cast<std::ptrdiff_t>(i),
                    sigs.begin() + static_cast<std::ptrdiff_t>(j),
                    sigs.begin() + static_cast<std::ptrdiff_t>(j) + 1);
      }
}

bool wants_function(const OperatorEntry& e) {
  const FunctionSchema& s = e.schema();
  switch (e.variants()) {
    case Variants::Function:
    case Variants::FunctionAndMethod:
      return true;
    case Variants::Auto:
      return !s.name.ends_with("_") || s.name.starts_with("_");
    default:
      return false;
  }
}
bool wants_method(const OperatorEntry& e) {
  const FunctionSchema& s = e.schema();
  bool self_first = !s.arguments.empty() && s.arguments[0].name == "self" &&
                    s.arguments[0].type.kind == TypeKind::Tensor && !s.arguments[0].type.is_list;
  switch (e.variants()) {
    case Variants::Method:
    case Variants::FunctionAndMethod:
      return self_first;
    case Variants::Auto:
      return self_first && !s.name.starts_with("_");
    default:
      return false;
  }
}

// One callable for a single overload (opscope.ops.aten.add.Tensor).
PyObject* op_overload(const std::string& full_name) {
  OperatorHandle h = Dispatcher::singleton().find_by_full_name(full_name);
  auto* b = new OpBinding{h.schema().name, false, false, {}};
  Signature sig = make_signature(h, false);
  if (!sig.params.empty()) {  // keep the schema's own name ("self") for keyword use
    sig.params[0].name = h.schema().arguments[0].name;
    sig.params[0].py_name = PyUnicode_InternFromString(sig.params[0].name.c_str());
  }
  sig.numbers_as_tensors = true;  // torch.ops converts Python numbers for Tensor arguments
  b->signatures.push_back(std::move(sig));
  return make_op(b);
}

}  // namespace

void init_ops(py::module_& m) {
  init_op_type();
  init_torch_function(m);
  // opscope.return_types: the named tuple types of ops with named returns (named_result_type).
  PyObject* return_types = PyImport_AddModule("opscope.return_types");
  if (!return_types) throw py::error_already_set();
  PyModule_AddStringConstant(return_types, "__doc__",
                             "Named tuples returned by ops such as max, sort, topk.");
  // Group aten overloads by name into functions (opscope.add) and methods (Tensor.add).
  std::map<std::string, std::vector<OperatorHandle>> by_name;
  for (const OperatorHandle& h : Dispatcher::singleton().all_ops())
    if (h.schema().ns == "aten") by_name[h.schema().name].push_back(h);

  py::module_ functions = m.def_submodule("_VariableFunctions", "Every aten op as a function.");
  PyObject* tensor_dict = g_tensor_type->tp_dict;
  for (auto& [name, handles] : by_name) {
    auto* fb = new OpBinding{name, false, true, {}};
    auto* mb = new OpBinding{name, true, true, {}};
    for (const OperatorHandle& h : handles) {
      if (wants_function(h.entry())) fb->signatures.push_back(make_signature(h, false));
      if (wants_method(h.entry())) mb->signatures.push_back(make_signature(h, true));
    }
    sort_signatures(fb->signatures);
    sort_signatures(mb->signatures);
    merge_out_variants(fb->signatures);
    merge_out_variants(mb->signatures);
    if (!fb->signatures.empty())
      functions.add_object(name.c_str(), py::reinterpret_steal<py::object>(make_op(fb)));
    else
      delete fb;
    // Hand-written methods (size, stride, item, ...) take precedence.
    if (!mb->signatures.empty() && !PyDict_GetItemString(tensor_dict, name.c_str())) {
      mb->inplace = inplace_fast_path(name);
      PyObject* meth = make_op(mb);
      PyObject_SetAttrString(reinterpret_cast<PyObject*>(g_tensor_type), name.c_str(), meth);
      Py_DECREF(meth);
    } else if (mb->signatures.empty()) {
      delete mb;
    }
  }

  m.def(
      "_op_overload",
      [](const std::string& full_name) {
        return py::reinterpret_steal<py::object>(op_overload(full_name));
      },
      "A callable for exactly one overload: _op_overload('aten::add.Tensor').");
  m.def(
      "_op_overload_names",
      [](const std::string& qualified_name) {
        std::vector<std::string> names;
        for (const auto& h : Dispatcher::singleton().overloads(qualified_name))
          names.push_back(h.entry().overload().empty() ? "default" : h.entry().overload());
        return names;
      },
      "Overload names of an op ('default' for the unnamed one): _op_overload_names('aten::add').");
  m.def("_op_schema", [](const std::string& full_name) {
    return Dispatcher::singleton().find_by_full_name(full_name).schema().str();
  });
  m.def(
      "_all_op_names",
      [] {
        std::vector<std::string> names;
        for (const auto& h : Dispatcher::singleton().all_ops()) names.push_back(h.full_name());
        return names;
      },
      "Full names of every declared op.");
}

}  // namespace opscope::python
