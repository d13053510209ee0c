#include "core/python/arg_parser.h"

#include <structmember.h>  // PyMemberDef: the fields of a named tuple type

#include <deque>
#include <map>

#include <algorithm>
#include <unordered_set>

namespace opscope::python {

namespace {

// Ops whose Tensor parameters also take Python numbers, as wrapped 0-d tensors — exactly torch's
// should_allow_numbers_as_tensors list, so `opscope.add(t, 2)` runs add.Tensor while
// `opscope.pow(t, 2)` and `opscope.eq(t, 2)` run their .Scalar overloads, as in torch.
bool allows_numbers_as_tensors(const std::string& name) {
  static const std::unordered_set<std::string> names = {
      "add",      "add_",         "div",          "div_",         "divide", "divide_",
      "mul",      "mul_",         "multiply",     "multiply_",    "sub",    "sub_",
      "subtract", "subtract_",    "true_divide",  "true_divide_", "to",     "_to_copy",
      "copy_",    "floor_divide", "floor_divide_"};
  return names.count(name) > 0;
}

std::string py_type_name(const SchemaType& t) {
  std::string base;
  switch (t.kind) {
    case TypeKind::Tensor:
      base = "Tensor";
      break;
    case TypeKind::Int:
    case TypeKind::SymInt:
      base = "int";
      break;
    case TypeKind::Float:
      base = "float";
      break;
    case TypeKind::Bool:
      base = "bool";
      break;
    case TypeKind::Str:
      base = "str";
      break;
    case TypeKind::Scalar:
      base = "Number";
      break;
    case TypeKind::ScalarType:
      base = "torch.dtype";
      break;
    case TypeKind::Device:
      base = "Device";
      break;
    case TypeKind::Layout:
      base = "torch.layout";
      break;
    case TypeKind::MemoryFormat:
      base = "torch.memory_format";
      break;
    case TypeKind::Generator:
      base = "torch.Generator";
      break;
    case TypeKind::Dimname:
      base = "name";
      break;
  }
  if (t.is_list) {
    if (t.kind == TypeKind::Tensor) return "tuple of Tensors";
    if (t.kind == TypeKind::SymInt) return "tuple of SymInts";
    return "tuple of " + base + "s";
  }
  return base;
}

const char* type_of(PyObject* o) {
  if (is_tensor(o)) return "Tensor";
  return Py_TYPE(o)->tp_name;
}

bool is_int_like(PyObject* o) {
  if (PyBool_Check(o)) return false;
  if (PyLong_Check(o)) return true;
  if (is_tensor(o)) return is_integral(unwrap(o).dtype(), false) && unwrap(o).dim() == 0;
  return PyIndex_Check(o);  // numpy integers
}
int64_t as_int(PyObject* o) {
  if (PyLong_Check(o)) return unpack_long(o);
  PyObject* i = PyNumber_Index(o);
  if (!i) throw py::error_already_set();
  py::object owner = py::reinterpret_steal<py::object>(i);
  return unpack_long(i);
}

bool int_list_from(PyObject* o, const SchemaType& t, std::vector<int64_t>* out) {
  if (is_int_like(
          o)) {  // a single int stands for [n]*N for int[N] (int[] takes one as varargs only)
    if (t.fixed_size <= 0) return false;
    out->assign(static_cast<size_t>(t.fixed_size), as_int(o));
    return true;
  }
  if (!PyTuple_Check(o) && !PyList_Check(o)) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  out->resize(static_cast<size_t>(n));
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!is_int_like(items[i])) return false;
    (*out)[static_cast<size_t>(i)] = as_int(items[i]);
  }
  return true;
}

bool dtype_from(PyObject* o, ScalarType* out) {
  if (is_dtype_object(o)) {
    *out = dtype_of_object(o);
    return true;
  }
  // torch accepts the Python types: float -> float64, int -> int64, bool -> bool.
  if (o == reinterpret_cast<PyObject*>(&PyFloat_Type))
    *out = ScalarType::Float64;
  else if (o == reinterpret_cast<PyObject*>(&PyLong_Type))
    *out = ScalarType::Int64;
  else if (o == reinterpret_cast<PyObject*>(&PyBool_Type))
    *out = ScalarType::Bool;
  else
    return false;
  return true;
}

// Converts one Python argument to the IValue its schema type wants. False: wrong type.
bool convert(PyObject* o, const Argument& a, bool numbers_as_tensors, IValue* out) {
  const SchemaType& t = a.type;
  if (o == Py_None) {
    *out = IValue();
    return t.optional;
  }
  if (t.is_list) {
    switch (t.kind) {
      case TypeKind::Int:
      case TypeKind::SymInt: {
        std::vector<int64_t> v;
        if (!int_list_from(o, t, &v)) return false;
        *out = IValue(std::move(v));
        return true;
      }
      case TypeKind::Float: {
        if (!PyTuple_Check(o) && !PyList_Check(o)) return false;
        std::vector<double> v;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
          PyObject* x = PySequence_Fast_GET_ITEM(o, i);
          if (!PyFloat_Check(x) && !(PyLong_Check(x) && !PyBool_Check(x))) return false;
          v.push_back(unpack_double(x));
        }
        *out = IValue(std::move(v));
        return true;
      }
      case TypeKind::Tensor: {
        if (!PyTuple_Check(o) && !PyList_Check(o)) return false;
        std::vector<Tensor> v;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(o); ++i) {
          PyObject* x = PySequence_Fast_GET_ITEM(o, i);
          if (x == Py_None && t.elem_optional)
            v.emplace_back();
          else if (is_tensor(x))
            v.push_back(unwrap(x));
          else
            return false;
        }
        *out = IValue(std::move(v));
        return true;
      }
      default:
        return false;
    }
  }
  switch (t.kind) {
    case TypeKind::Tensor: {
      if (is_tensor(o)) {
        *out = IValue(unwrap(o));
        return true;
      }
      Scalar s;
      if (numbers_as_tensors && to_scalar(o, &s, false)) {
        *out = IValue(wrapped_number(s));
        return true;
      }
      return false;
    }
    case TypeKind::Scalar: {
      Scalar s;
      if (!to_scalar(o, &s, true)) return false;
      *out = IValue(s);
      return true;
    }
    case TypeKind::Int:
    case TypeKind::SymInt:
      if (!is_int_like(o)) return false;
      *out = IValue(as_int(o));
      return true;
    case TypeKind::Float:
      if (PyFloat_Check(o) || (PyLong_Check(o) && !PyBool_Check(o))) {
        *out = IValue(unpack_double(o));
        return true;
      }
      if (!is_tensor(o) && PyIndex_Check(o)) {
        *out = IValue(static_cast<double>(as_int(o)));
        return true;
      }
      if (!is_tensor(o) && Py_TYPE(o)->tp_as_number &&
          Py_TYPE(o)->tp_as_number->nb_float) {  // numpy floats
        *out = IValue(unpack_double(o));
        return true;
      }
      return false;
    case TypeKind::Bool:
      if (!PyBool_Check(o)) return false;
      *out = IValue(o == Py_True);
      return true;
    case TypeKind::Str:
      if (!PyUnicode_Check(o)) return false;
      *out = IValue(unpack_utf8(o));
      return true;
    case TypeKind::ScalarType: {
      ScalarType st;
      if (!dtype_from(o, &st)) return false;
      *out = IValue(st);
      return true;
    }
    case TypeKind::Device: {
      Device d;
      if (!to_device(o, &d)) return false;
      initialize_device(d);
      *out = IValue(d);
      return true;
    }
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: {
      // opscope.strided / opscope.contiguous_format ...: objects with an integer `_value`.
      py::handle h(o);
      if (!py::hasattr(h, "_opscope_enum")) return false;
      *out = IValue(h.attr("_opscope_enum").cast<int64_t>());
      return true;
    }
    case TypeKind::Generator:
      if (!is_generator_object(o)) return false;
      *out = IValue(generator_of_object(o));
      return true;
    case TypeKind::Dimname:
      return false;
  }
  return false;
}

}  // namespace

namespace {
// The keyword aliases torch 1.13's Python argument parser accepts for a parameter name, for NumPy
// compatibility: torch.sum(x, axis=0, keepdims=True) is torch.sum(x, dim=0, keepdim=True).
std::vector<PyObject*> numpy_aliases(const std::string& name) {
  static const std::map<std::string, std::vector<const char*>> aliases = {
      {"dim", {"axis"}}, {"keepdim", {"keepdims"}}, {"input", {"x", "a", "x1"}}, {"other", {"x2"}}};
  std::vector<PyObject*> interned;
  auto found = aliases.find(name);
  if (found != aliases.end())
    for (const char* alias : found->second) interned.push_back(PyUnicode_InternFromString(alias));
  return interned;
}
}  // namespace

Signature make_signature(const OperatorHandle& op, bool method) {
  const FunctionSchema& schema = op.schema();
  Signature sig;
  sig.op = op;
  sig.method = method;
  sig.numbers_as_tensors = allows_numbers_as_tensors(schema.name);
  std::string display = "(";
  bool star_printed = false;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const Argument& a = schema.arguments[i];
    std::string name = a.name;
    if (i == 0 && name == "self" && !method) name = "input";
    sig.params.push_back({name, &a, PyUnicode_InternFromString(name.c_str()), numpy_aliases(name)});
    if (!a.kwarg_only) ++sig.num_positional;
    if (a.type.kind == TypeKind::Layout) sig.accepts_requires_grad = true;
    if (method && i == 0) continue;  // self is not shown
    if (a.kwarg_only && !star_printed) {
      display += display.size() > 1 ? ", *" : "*";
      star_printed = true;
    }
    if (display.size() > 1) display += ", ";
    display += py_type_name(a.type) +
               (a.type.optional && a.type.kind != TypeKind::Tensor ? "?" : "") + " " + name;
  }
  // `t.view(2, 3)`, `opscope.zeros(2, 3)`: an int[] that is the only positional parameter (after
  // self) may be given as separate ints — torch's rule, so `t.tensor_split(3, 1)` stays
  // (sections=3, dim=1) and `t.sum(0, 1)` is an error, not sum over (0, 1).
  size_t first = method ? 1 : 0;
  if (sig.num_positional == first + 1) {
    const Argument& a = schema.arguments[first];
    if (a.type.is_list && (a.type.kind == TypeKind::Int || a.type.kind == TypeKind::SymInt))
      sig.varargs_int_list = static_cast<int>(first);
  }
  sig.display = display + ")";
  sig.result_type = named_result_type(schema, false);
  return sig;
}

bool parse_signature(const Signature& sig, PyObject* const* args, size_t nargs, PyObject* kwnames,
                     ParseResult* out, std::string* why) {
  const std::string fname = sig.op.schema().name + "()";
  size_t nparams = sig.params.size();
  Stack& stack = out->stack;
  stack.clear();
  stack.resize(nparams);
  size_t nkw = kwnames ? static_cast<size_t>(PyTuple_GET_SIZE(kwnames)) : 0;
  PyObject* const* kwvalues = args + nargs;

  // Varargs int list: pack trailing ints into the list parameter.
  std::vector<int64_t> packed;
  size_t positional = nargs;
  bool use_packed = false;
  if (sig.varargs_int_list >= 0 && nargs > static_cast<size_t>(sig.varargs_int_list)) {
    use_packed = true;
    for (size_t i = static_cast<size_t>(sig.varargs_int_list); i < nargs; ++i) {
      if (!is_int_like(args[i])) {
        use_packed = false;
        break;
      }
      packed.push_back(as_int(args[i]));
    }
    if (use_packed) positional = static_cast<size_t>(sig.varargs_int_list) + 1;
  }
  // A method's messages count its arguments as the user wrote them, without self (torch's
  // "type_as(): argument 'other' (position 1)").
  const size_t self_args = sig.method ? 1 : 0;
  if (positional > sig.num_positional) {
    const size_t takes = sig.num_positional - self_args, given = nargs - self_args;
    *why = fname + " takes " + std::to_string(takes) + " positional argument" +
           (takes == 1 ? "" : "s") + " but " + std::to_string(given) +
           (given == 1 ? " was" : " were") + " given";
    return false;
  }

  std::vector<bool> kw_used(nkw, false);
  for (size_t i = 0; i < nparams; ++i) {
    const Param& p = sig.params[i];
    PyObject* value = nullptr;
    if (i < positional) {
      if (use_packed && static_cast<int>(i) == sig.varargs_int_list) {
        stack[i] = IValue(packed);
        continue;
      }
      value = args[i];
    } else {
      for (size_t k = 0; k < nkw; ++k) {
        PyObject* key = PyTuple_GET_ITEM(kwnames, static_cast<Py_ssize_t>(k));
        if (key == p.py_name || PyUnicode_Compare(key, p.py_name) == 0) {
          value = kwvalues[k];
          kw_used[k] = true;
          break;
        }
      }
      for (size_t k = 0; !value && k < nkw && !p.aliases.empty(); ++k) {
        PyObject* key = PyTuple_GET_ITEM(kwnames, static_cast<Py_ssize_t>(k));
        for (PyObject* alias : p.aliases)
          if (!kw_used[k] && (key == alias || PyUnicode_Compare(key, alias) == 0)) {
            value = kwvalues[k];
            kw_used[k] = true;
            break;
          }
      }
    }
    if (!value) {
      if (p.arg->default_value) {
        stack[i] = *p.arg->default_value;
        continue;
      }
      *why = fname + " missing 1 required positional argument: \"" + p.name + "\"";
      if (p.arg->kwarg_only) *why = fname + " missing required keyword argument '" + p.name + "'";
      return false;
    }
    if (!convert(value, *p.arg, sig.numbers_as_tensors, &stack[i])) {
      *why = fname + ": argument '" + p.name + "'" +
             (i < positional ? " (position " + std::to_string(i + 1 - self_args) + ")" : "") +
             " must be " +
             py_type_name(p.arg->type) + ", not " + type_of(value);
      return false;
    }
  }
  out->use_out = false;
  if (sig.out_op) {  // out= given: append the out tensors for the out overload
    const auto& out_args = sig.out_op->schema().arguments;
    size_t first_out = out_args.size() - sig.out_names.size();
    // Several out tensors (sort's values, indices): torch takes them as one tuple, out=(v, i);
    // they are handed on as the keywords of their names, which are also accepted by themselves.
    PyObject* spread[8] = {};
    if (sig.out_names.size() > 1 && sig.out_names.size() <= std::size(spread)) {
      static PyObject* out_key = PyUnicode_InternFromString("out");
      for (size_t k = 0; k < nkw; ++k) {
        PyObject* key = PyTuple_GET_ITEM(kwnames, static_cast<Py_ssize_t>(k));
        if (kw_used[k] || PyUnicode_Compare(key, out_key) != 0) continue;
        kw_used[k] = true;
        PyObject* given = kwvalues[k];
        if (given == Py_None) break;
        if (!PyTuple_Check(given) && !PyList_Check(given)) {
          *why = fname + ": argument 'out' must be tuple of Tensors, not " + type_of(given);
          return false;
        }
        const auto n = static_cast<size_t>(PySequence_Fast_GET_SIZE(given));
        if (n != sig.out_names.size())
          throw TypeError(detail::str("expected tuple of ", sig.out_names.size(),
                                      " elements but got ", n));
        for (size_t j = 0; j < n; ++j) {
          spread[j] = PySequence_Fast_GET_ITEM(given, static_cast<Py_ssize_t>(j));
          if (!is_tensor(spread[j]))
            throw TypeError(detail::str("expected Tensor as element ", j, " in argument ",
                                        sig.params.size() - (sig.method ? 1 : 0), ", but got ",
                                        type_of(spread[j])));
        }
        break;
      }
    }
    for (size_t j = 0; j < sig.out_names.size(); ++j) {
      PyObject* value = spread[j];
      for (size_t k = 0; k < nkw && !value; ++k) {
        PyObject* key = PyTuple_GET_ITEM(kwnames, static_cast<Py_ssize_t>(k));
        if (kw_used[k] || PyUnicode_Compare(key, sig.out_names[j]) != 0) continue;
        kw_used[k] = true;
        value = kwvalues[k];
      }
      if (value && value != Py_None) {  // out=None means no out
        std::optional<ScalarType> dtype;  // a factory's dtype= beside out= must agree with it
        if (!out->use_out && !sig.out_arg_source.empty()) {
          const auto d = static_cast<size_t>(sig.options_dtype);
          if (sig.options_dtype >= 0 && !stack[d].is_none()) {
            // randint's dtype=long is its schema's default, not a choice to check
            const auto& fallback = sig.params[d].arg->default_value;
            ScalarType given = stack[d].to_scalar_type();
            if (!fallback || fallback->is_none() || fallback->to_scalar_type() != given)
              dtype = given;
          }
          Stack moved(first_out + sig.out_names.size());
          for (size_t i = 0; i < first_out; ++i)
            moved[i] = std::move(stack[static_cast<size_t>(sig.out_arg_source[i])]);
          stack = std::move(moved);
        } else if (!out->use_out) {
          stack.resize(first_out + sig.out_names.size());
        }
        out->use_out = true;
        const Argument& a = out_args[first_out + j];
        if (!convert(value, a, false, &stack[first_out + j])) {
          *why = fname + ": argument '" + a.name + "' must be Tensor, not " + type_of(value);
          return false;
        }
        if (dtype && stack[first_out + j].is_tensor() &&
            stack[first_out + j].to_tensor().dtype() != *dtype)
          throw Error(detail::str("dtype ", cpp_name(*dtype),
                                  " does not match dtype of out parameter (",
                                  cpp_name(stack[first_out + j].to_tensor().dtype()), ")"));
      }
    }
    if (out->use_out && sig.out_names.size() > 1) {
      for (size_t j = 0; j < sig.out_names.size(); ++j)
        if (stack[first_out + j].is_none()) {
          *why = fname + ": all out tensors must be given together";
          return false;
        }
    }
  }
  for (size_t k = 0; k < nkw; ++k) {
    if (kw_used[k]) continue;
    PyObject* key = PyTuple_GET_ITEM(kwnames, static_cast<Py_ssize_t>(k));
    if (sig.accepts_requires_grad && PyUnicode_CompareWithASCIIString(key, "requires_grad") == 0 &&
        PyBool_Check(kwvalues[k])) {
      out->requires_grad = kwvalues[k] == Py_True;
      continue;
    }
    *why = fname + " got an unexpected keyword argument '" + unpack_utf8(key) + "'";
    return false;
  }
  return true;
}

namespace {
bool is_factory_option(const Argument& a) {
  return a.kwarg_only &&
         (a.name == "dtype" || a.name == "layout" || a.name == "device" || a.name == "pin_memory");
}
}  // namespace

void merge_out_variants(std::vector<Signature>& sigs) {
  auto same_argument = [](const Argument& a, const Argument& b) {
    return a.name == b.name && a.type == b.type && a.kwarg_only == b.kwarg_only;
  };
  std::vector<bool> merged(sigs.size(), false);
  for (size_t o = 0; o < sigs.size(); ++o) {
    const FunctionSchema& out_schema = sigs[o].op.schema();
    if (!out_schema.is_out_variant()) continue;
    const auto& oargs = out_schema.arguments;
    size_t n_out = 0;
    while (n_out < oargs.size() && oargs[oargs.size() - 1 - n_out].is_out()) ++n_out;
    for (size_t f = 0; f < sigs.size(); ++f) {
      const FunctionSchema& fs = sigs[f].op.schema();
      if (f == o || fs.is_out_variant() || sigs[f].out_op) continue;
      const auto& fargs = fs.arguments;
      // The out overload's arguments, each found in the functional one in order; the functional
      // may have more only if they are a factory's options (zeros(size, *, dtype, ...) and
      // zeros.out(size, *, out)), which out= then leaves out, as torch's signatures do.
      std::vector<int> source;
      size_t next = 0;
      bool same = true;
      for (size_t i = 0; i + n_out < oargs.size() && same; ++i) {
        while (next < fargs.size() && !same_argument(fargs[next], oargs[i]) &&
               is_factory_option(fargs[next]))
          ++next;
        same = next < fargs.size() && same_argument(fargs[next], oargs[i]);
        source.push_back(static_cast<int>(next++));
      }
      for (; same && next < fargs.size(); ++next) same = is_factory_option(fargs[next]);
      if (!same) continue;
      Signature& sig = sigs[f];
      if (fargs.size() + n_out != oargs.size()) {
        sig.out_arg_source = std::move(source);
        auto dtype = fs.argument_index("dtype");
        sig.options_dtype = dtype ? static_cast<int>(*dtype) : -1;
      }
      sig.out_op = sigs[o].op;
      sig.out_result_type = named_result_type(sig.out_op->schema(), true);
      sig.display.pop_back();  // the ')'
      bool has_star = sig.display.find('*') != std::string::npos;
      for (size_t j = oargs.size() - n_out; j < oargs.size(); ++j)
        sig.out_names.push_back(PyUnicode_InternFromString(oargs[j].name.c_str()));
      const std::string lead = std::string(sig.display.size() > 1 ? ", " : "") + (has_star ? "" : "*, ");
      if (n_out > 1) {  // torch's one out= tuple (see parse())
        sig.display += lead + "tuple of Tensors out";
      } else {
        sig.display += lead + "Tensor " + oargs.back().name;
      }
      sig.display += ")";
      merged[o] = true;
      break;
    }
  }
  std::vector<Signature> kept;
  for (size_t i = 0; i < sigs.size(); ++i)
    if (!merged[i]) kept.push_back(std::move(sigs[i]));
  sigs = std::move(kept);
}

namespace {
// torch prints a return_types value one field per line:
//   torch.return_types.max(
//   values=tensor([3., 4.]),
//   indices=tensor([1, 1]))
PyObject* named_result_repr(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  std::string text = std::string(type->tp_name) + "(";
  Py_ssize_t n = PyTuple_GET_SIZE(self);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* r = PyObject_Repr(PyTuple_GET_ITEM(self, i));
    if (!r) return nullptr;
    const char* field = type->tp_members[i].name;
    text += std::string("\n") + field + "=" + PyUnicode_AsUTF8(r) + (i + 1 < n ? "," : ")");
    Py_DECREF(r);
  }
  return PyUnicode_FromString(text.c_str());
}
}  // namespace

PyTypeObject* named_result_type(const FunctionSchema& schema, bool out) {
  if (schema.returns.size() < 2) return nullptr;
  for (const Argument& r : schema.returns)
    if (r.name.empty()) return nullptr;
  std::string name = schema.name + (out ? "_out" : "");
  static std::map<std::string, PyTypeObject*> types;  // name -> type, alive for the process
  auto found = types.find(name);
  if (found != types.end()) return found->second;

  // PyStructSequence_NewType keeps pointers to the names: they live as long as `types`.
  static std::deque<std::string> names;
  auto* fields = new PyStructSequence_Field[schema.returns.size() + 1]();
  for (size_t i = 0; i < schema.returns.size(); ++i)
    fields[i].name = names.emplace_back(schema.returns[i].name).c_str();
  auto* desc = new PyStructSequence_Desc{names.emplace_back("torch.return_types." + name).c_str(),
                                         nullptr, fields, static_cast<int>(schema.returns.size())};
  PyTypeObject* type = PyStructSequence_NewType(desc);
  if (!type) throw py::error_already_set();
  type->tp_repr = named_result_repr;
  // `opscope.return_types.max` is the type, as `torch.return_types.max` is.
  PyObject* module = PyImport_AddModule("opscope.return_types");  // borrowed
  if (module) PyObject_SetAttrString(module, name.c_str(), reinterpret_cast<PyObject*>(type));
  types.emplace(name, type);
  return type;
}

PyObject* returns_to_py(const FunctionSchema& schema, Stack& stack, size_t first,
                        PyTypeObject* named) {
  size_t n = stack.size() - first;
  auto one = [](IValue& v) -> PyObject* {
    switch (v.tag()) {
      case IValue::Tag::None:
        Py_RETURN_NONE;
      case IValue::Tag::Tensor:
        return wrap(std::move(v.to_tensor()));
      case IValue::Tag::Double:
        return PyFloat_FromDouble(v.to_double());
      case IValue::Tag::Int:
        return PyLong_FromLongLong(v.to_int());
      case IValue::Tag::Bool:
        return PyBool_FromLong(v.to_bool());
      case IValue::Tag::TensorList: {  // a tuple, as torch returns from unbind / split
        const auto& l = v.to_tensor_list();
        PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(l.size()));
        for (size_t i = 0; i < l.size(); ++i)
          PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), wrap(l[i]));
        return tuple;
      }
      default:
        return py::cast(v.str()).release().ptr();
    }
  };
  if (n == 0) Py_RETURN_NONE;
  if (n == 1 && schema.returns.size() <= 1) return one(stack[first]);
  // A named result has exactly the schema's fields: more values would be written past it.
  OPSCOPE_CHECK(!named || n == schema.returns.size(), schema.name, " returned ", n,
                " values, its schema has ", schema.returns.size());
  PyObject* tuple = named ? PyStructSequence_New(named) : PyTuple_New(static_cast<Py_ssize_t>(n));
  if (!tuple) return nullptr;
  for (size_t i = 0; i < n; ++i)
    PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), one(stack[first + i]));
  return tuple;
}

}  // namespace opscope::python
