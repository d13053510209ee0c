// The schema-driven argument parser: Python call arguments -> a boxed Stack, per op schema.
//
// Semantically this is PyTorch's PythonArgParser, but derived at run time from each op's schema
// instead of from generated signature strings: every declared op becomes opscope.<name> and/or
// Tensor.<name> with no binding code of its own. Overloads are tried in declaration order; the
// first whose parameters accept the arguments wins. Python numbers are accepted for Tensor
// parameters of arithmetic ops (add, sub, mul, div, comparisons, ...) as "wrapped numbers", so
// `opscope.add(t, 2)` runs aten::add.Tensor, exactly as torch does.
#pragma once

#include <string>
#include <vector>

#include "core/dispatch/Dispatcher.h"
#include "core/python/python_common.h"

namespace opscope::python {

struct Param {
  std::string name;     // Python keyword ("input" for the self of a function)
  const Argument* arg;  // the schema argument
  PyObject* py_name;    // interned name, for fast keyword matching
  // NumPy's spellings torch also accepts as keywords: axis= for dim, keepdims= for keepdim,
  // x= / a= / x1= for input, x2= for other (torch's numpy_compatibility_arg_names). Interned.
  std::vector<PyObject*> aliases = {};
};

struct Signature {
  OperatorHandle op;
  std::vector<Param> params;
  size_t num_positional = 0;           // parameters before `*`
  bool method = false;                 // a Tensor method: params[0] is self, not counted in errors
  bool numbers_as_tensors = false;     // Python numbers accepted for Tensor parameters
  bool accepts_requires_grad = false;  // factory: the Python-only `requires_grad=` keyword
  int varargs_int_list = -1;           // index of an int[] parameter that may be given as varargs
  std::string display;  // "(Tensor input, Tensor other, *, Number alpha, Tensor out)"
  // The op's out= overload (add.out for add.Tensor), taken when `out=` is given. Its arguments
  // are this signature's plus the trailing out tensors. See merge_out_variants().
  std::optional<OperatorHandle> out_op;
  std::vector<PyObject*>
      out_names;  // interned keywords of the out arguments ("out", or "values", "indices")
  // For a factory (zeros(size, *, dtype, layout, device, pin_memory) with zeros.out(size, *, out)):
  // each out-overload argument's index among this signature's, and the dtype parameter's (-1:
  // none), whose value must agree with out's. Empty when the arguments are the same.
  std::vector<int> out_arg_source;
  int options_dtype = -1;
  // For ops whose returns are named (`-> (Tensor values, Tensor indices)`): the named tuple type
  // the function returns, torch.return_types.max (and .max_out for the out= overload).
  PyTypeObject* result_type = nullptr;
  PyTypeObject* out_result_type = nullptr;
};

struct ParseResult {
  Stack stack;
  bool requires_grad = false;
  bool use_out = false;  // the out= overload is to be called (its out tensors are on the stack)
};

// Tries to bind (args, kwnames) to `sig`; on failure returns false and sets *why.
bool parse_signature(const Signature& sig, PyObject* const* args, size_t nargs, PyObject* kwnames,
                     ParseResult* out, std::string* why);
// Builds the signature of `op` for Python; `method` binds the first argument to self.
Signature make_signature(const OperatorHandle& op, bool method);

// Folds each out= overload into the functional overload with the same other arguments, as
// torch's Python signatures do (`add(Tensor input, Tensor other, *, Number alpha, Tensor out)`).
void merge_out_variants(std::vector<Signature>& sigs);

// Converts the op's boxed returns to Python: one value, None, a tuple, or — given `named` — a
// named tuple of that type.
PyObject* returns_to_py(const FunctionSchema& schema, Stack& stack, size_t first,
                        PyTypeObject* named = nullptr);

// The named tuple type for an op with named returns (torch.return_types.<name>), created once
// per name and kept in the opscope.return_types module; nullptr if the returns are not named.
// `out` gives the type of the out= form, <name>_out.
PyTypeObject* named_result_type(const FunctionSchema& schema, bool out);

}  // namespace opscope::python
