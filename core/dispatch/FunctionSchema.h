// FunctionSchema: an operator's signature, written in PyTorch's schema language.
//
// Semantically a schema says what an op is called, what it takes and what it gives back — and,
// through alias annotations, which outputs are views of or writes into which inputs. It is the
// one description of an op that the dispatcher, the boxed calling convention, the Python binding
// and error messages all read. The text is exactly what native_functions.yaml uses:
//
//   FunctionSchema s = parse_schema(
//       "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
//   s.full_name();                       // "aten::add.Tensor"
//   s.arguments[2].kwarg_only;           // true
//   s.arguments[2].default_value->to_int();  // 1
//   s.str();  // "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
//
// In implementation terms it is plain data (names, a vector of Arguments for each side) filled
// by a hand-written recursive-descent parser; str() prints the canonical text back.
//
// Note [Schema language]
// ~~~~~~~~~~~~~~~~~~~~~~
//   schema    := [ns "::"] name ["." overload] "(" [arg ("," arg)*] ")" "->" returns
//   arg       := type name ["=" default]  |  "*"        ("*" makes later args keyword-only)
//   returns   := ret  |  "(" [ret ("," ret)*] ")"       ret := type [name]
//   type      := Base [alias] ["?"] ["[" [N] "]" ["?"]]
//   alias     := "(" set ["!"] [" -> " set] ")"         e.g. (a)  (a!)  (a -> *)
// Base is one of TypeKind's names as written in the schema (Tensor, int, SymInt, float, bool, str,
// Scalar, ScalarType, Device, Layout, MemoryFormat, Generator, Dimname). "T?" is optional,
// "T[]" a list, "T[N]" a list of N (its default may be one value, repeated N times), "T?[]" a
// list of optional elements, "T[]?" an optional list. "Tensor(a)" means "aliases set a": on a
// return it marks a view (view, transpose); "Tensor(a!)" means "written in place" (add_, and the
// kwarg-only `out` arguments of out= variants). An alias on a list ("Tensor(a)[]") is on its
// elements: split returns views of self.
//
// Defaults become IValues by the argument's type: None -> None, True/False -> bool, ints -> int
// (float args: double; Scalar args: int or double as written), "x" or 'x' -> str, [0,1] -> int[]
// or float[], a single value for int[N] -> N copies, dtype names (long, float) -> ScalarType,
// Mean/Sum -> int 1/2 (at::Reduction), other names (contiguous_format, strided) -> str, and a
// quoted device for a Device argument ("cuda:1") -> Device.
// default_text keeps the default exactly as written, and str() prints that.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/dispatch/IValue.h"

namespace opscope {

enum class TypeKind {
  Tensor,
  Int,
  SymInt,
  Float,
  Bool,
  Str,
  Scalar,
  ScalarType,
  Device,
  Layout,
  MemoryFormat,
  Generator,
  Dimname,
};

// The name as written in a schema: "Tensor", "int", "SymInt", "float", "ScalarType", ...
std::string_view type_kind_name(TypeKind k);
// The inverse of type_kind_name; nullopt for a name the schema language does not know.
std::optional<TypeKind> parse_type_kind(std::string_view name);

// The type of one argument or return, without its alias annotation (which Argument holds).
struct SchemaType {
  TypeKind kind = TypeKind::Tensor;
  bool optional = false;       // "T?"; for a list, the whole list may be None: "int[]?"
  bool is_list = false;        // "T[]" or "T[N]"
  int fixed_size = -1;         // N of "int[2]", -1 if none
  bool elem_optional = false;  // "Tensor?[]": the elements may be None

  // "Tensor?", "int[2]", "Tensor?[]", "int[]?", "SymInt[]".
  std::string str() const;
  friend bool operator==(const SchemaType&, const SchemaType&) = default;
};

// An alias annotation: "(a)" says the value may alias set a, "(a!)" that it is also written.
// PyTorch's "(a -> *)" (after the call the value may alias anything) keeps "*" in `after`.
// Sets may be unions ("a|b") or the wildcard "*"; they are kept as written.
struct AliasInfo {
  std::string set;  // "a"
  bool is_write = false;
  std::string after;  // the set after " -> ", empty when there is no arrow

  std::string str() const;  // "(a)", "(a!)", "(a -> *)"
  friend bool operator==(const AliasInfo&, const AliasInfo&) = default;
};

struct Argument {
  std::string name;  // may be empty for returns
  SchemaType type;
  std::optional<IValue> default_value;  // the parsed default; see Note [Schema language]
  std::string default_text;             // the default exactly as written, empty if none
  bool kwarg_only = false;
  std::optional<AliasInfo> alias;

  // An out= argument: keyword-only and written in place ("*, Tensor(a!) out").
  bool is_out() const { return alias && alias->is_write && kwarg_only; }
  // The type with its alias annotation in PyTorch's place: "Tensor(a!)", "Tensor(a)[]",
  // "Tensor(a!)?".
  std::string type_str() const;
  // "Tensor(a!) self", "Scalar alpha=1", "Tensor" (an unnamed return).
  std::string str() const;
  // Structural equality; defaults compare by tag and printed value.
  friend bool operator==(const Argument& a, const Argument& b);
};

struct FunctionSchema {
  std::string ns;        // "aten" ("" if unqualified)
  std::string name;      // "add"
  std::string overload;  // "Tensor" ("" if none)
  std::vector<Argument> arguments;
  std::vector<Argument> returns;

  std::string qualified_name() const;  // "aten::add"
  std::string full_name() const;       // "aten::add.Tensor" (no dot when overload is empty)
  // The canonical text: "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) ->
  // Tensor". One return prints bare, several (or none) in parentheses: "-> (Tensor values,
  // Tensor indices)", "-> ()".
  std::string str() const;

  // add_: the name ends in '_' and the first argument is written ("Tensor(a!) self").
  bool is_inplace() const;
  // add.out: some argument is an out= argument (Argument::is_out).
  bool is_out_variant() const;
  // view, transpose: some return aliases an input without writing it ("-> Tensor(a)").
  bool is_view() const;
  std::optional<size_t> argument_index(std::string_view arg_name) const;
  // The signature as PyTorch infers it from a C++ kernel, for dispatcher dumps and error
  // messages: positional names, no defaults, aliases or list sizes.
  //   "(Tensor _0, Tensor _1, Scalar _2) -> Tensor _0"
  std::string cpp_style_signature() const;

  friend bool operator==(const FunctionSchema&, const FunctionSchema&) = default;
};

std::ostream& operator<<(std::ostream& os, const SchemaType& t);
std::ostream& operator<<(std::ostream& os, const Argument& a);
std::ostream& operator<<(std::ostream& os, const FunctionSchema& s);

// Parses a schema; see Note [Schema language]. default_namespace is used when the text has no
// "ns::" prefix. Throws ValueError quoting the schema and the column (1-based) where the text
// stopped making sense:
//   expected ',' or ')' after an argument but found '->' at column 29 in schema
//   'mm(Tensor self, Tensor mat2 -> Tensor'
FunctionSchema parse_schema(std::string_view text, std::string_view default_namespace = "aten");

}  // namespace opscope
