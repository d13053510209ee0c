#include "core/dispatch/FunctionSchema.h"

#include <cctype>
#include <charconv>
#include <iterator>
#include <unordered_set>

#include "core/runtime/Exception.h"

namespace opscope {

// ---------------------------------------------------------------------------------------------
// Type names
// ---------------------------------------------------------------------------------------------

namespace {

// Indexed by TypeKind; the names as a schema writes them.
constexpr std::string_view kKindNames[] = {
    "Tensor",     "int",    "SymInt", "float",        "bool",      "str",    "Scalar",
    "ScalarType", "Device", "Layout", "MemoryFormat", "Generator", "Dimname"};
static_assert(std::size(kKindNames) == static_cast<size_t>(TypeKind::Dimname) + 1,
              "kKindNames must list every TypeKind in order");

// The values of at::Reduction, which `int reduction=Mean` defaults name.
constexpr int64_t kReductionMean = 1;
constexpr int64_t kReductionSum = 2;

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Where an alias annotation goes, as PyTorch prints it: on the element of a list
// ("Tensor(a)[]", "Tensor?(a)[]"), otherwise before the '?' ("Tensor(a!)?").
std::string type_string(const SchemaType& t, const AliasInfo* alias) {
  std::string s(type_kind_name(t.kind));
  if (t.is_list) {
    if (t.elem_optional) s += '?';
    if (alias) s += alias->str();
    s += '[';
    if (t.fixed_size >= 0) s += std::to_string(t.fixed_size);
    s += ']';
  } else if (alias) {
    s += alias->str();
  }
  if (t.optional) s += '?';
  return s;
}

// Schema text for a default that was built in code rather than parsed (default_text empty).
std::string default_to_text(const IValue& v, TypeKind kind) {
  switch (v.tag()) {
    case IValue::Tag::String:
      if (kind == TypeKind::Layout || kind == TypeKind::MemoryFormat) return v.to_string();
      return "\"" + v.to_string() + "\"";
    case IValue::Tag::ScalarType:
      return std::string(cpp_name(v.to_scalar_type()));
    case IValue::Tag::Device:
      return "\"" + v.to_device().str() + "\"";
    case IValue::Tag::Int:
      if (kind == TypeKind::Layout) return "strided";
      if (kind == TypeKind::MemoryFormat) {
        static constexpr const char* names[] = {"contiguous_format", "preserve_format",
                                                "channels_last"};
        int64_t i = v.to_int();
        if (i >= 0 && i < 3) return names[i];
      }
      return v.str();
    default:
      return v.str();  // None, True, 3, 0.5, [1, 2] are schema text already
  }
}

// ---------------------------------------------------------------------------------------------
// The parser: recursive descent over the characters, one method per rule of
// Note [Schema language]. Whitespace is skipped before every token.
// ---------------------------------------------------------------------------------------------

class SchemaParser {
 public:
  SchemaParser(std::string_view text, std::string_view default_ns)
      : text_(text), default_ns_(default_ns) {}

  FunctionSchema parse() {
    FunctionSchema s;
    parse_name(s);
    s.arguments = parse_arguments();
    expect("->", "'->' after the arguments");
    s.returns = parse_returns();
    if (peek() != '\0') fail("the end of the schema after the returns");
    return s;
  }

 private:
  // --- errors --------------------------------------------------------------------------------

  [[noreturn]] void error_at(size_t pos, std::string_view what) const {
    std::string caret(pos + 3, ' ');
    caret.back() = '^';
    throw ValueError(detail::str(what, " at column ", pos + 1, " in schema '", text_, "'\n  ",
                                 text_, "\n", caret));
  }
  [[noreturn]] void fail(std::string_view expected) {
    skip_ws();
    error_at(pos_, detail::str("expected ", expected, " but found ", describe(pos_)));
  }
  std::string describe(size_t pos) const {
    if (pos >= text_.size()) return "the end of the schema";
    if (text_.substr(pos, 2) == "->") return "'->'";
    size_t end = pos + 1;
    if (is_ident_char(text_[pos]))
      while (end < text_.size() && is_ident_char(text_[end])) ++end;
    return detail::str("'", text_.substr(pos, end - pos), "'");
  }

  // --- tokens --------------------------------------------------------------------------------

  void skip_ws() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_ws();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool accept(std::string_view token) {
    skip_ws();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void expect(std::string_view token, std::string_view expected) {
    if (!accept(token)) fail(expected);
  }
  // The identifier at the cursor, without consuming it; empty if there is none.
  std::string_view peek_ident() {
    skip_ws();
    if (pos_ >= text_.size() || !is_ident_start(text_[pos_])) return {};
    size_t end = pos_;
    while (end < text_.size() && is_ident_char(text_[end])) ++end;
    return text_.substr(pos_, end - pos_);
  }
  std::string_view ident(std::string_view expected) {
    std::string_view id = peek_ident();
    if (id.empty()) fail(expected);
    pos_ += id.size();
    return id;
  }

  // --- schema := [ns "::"] name ["." overload] ---------------------------------------------

  void parse_name(FunctionSchema& s) {
    std::string_view first = ident("an operator name");
    if (accept("::")) {
      s.ns = first;
      s.name = ident("an operator name after '::'");
    } else {
      s.ns = default_ns_;
      s.name = first;
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      size_t end = pos_;
      while (end < text_.size() && is_ident_char(text_[end])) ++end;
      if (end == pos_) fail("an overload name after '.'");
      s.overload = text_.substr(pos_, end - pos_);
      pos_ = end;
    }
  }

  // --- "(" [arg ("," arg)*] ")" -------------------------------------------------------------

  std::vector<Argument> parse_arguments() {
    expect("(", "'(' after the operator name");
    std::vector<Argument> args;
    if (accept(")")) return args;
    std::unordered_set<std::string> names;
    bool kwarg_only = false;
    std::string default_name;  // the latest argument with a default, once there is one
    do {
      skip_ws();
      if (text_.substr(pos_, 1) == "*") {
        if (kwarg_only) error_at(pos_, "unexpected second '*'");
        ++pos_;
        kwarg_only = true;
      } else {
        size_t name_pos = 0;
        Argument a = parse_argument(/*is_return=*/false, &name_pos);
        a.kwarg_only = kwarg_only;
        if (!names.insert(a.name).second)
          error_at(name_pos, detail::str("duplicate argument name '", a.name, "'"));
        // As PyTorch's checkSchema: a positional argument without a default may not follow
        // one with a default; plain lists are exempt (old serialized schemas relied on it).
        bool exempt = a.kwarg_only || (a.type.is_list && !a.type.optional);
        if (a.default_value) {
          default_name = a.name;
        } else if (!default_name.empty() && !exempt) {
          error_at(name_pos, detail::str("non-default positional argument '", a.name,
                                         "' follows default argument '", default_name, "'"));
        }
        args.push_back(std::move(a));
      }
    } while (accept(","));
    expect(")", "',' or ')' after an argument");
    return args;
  }

  // --- returns := ret | "(" [ret ("," ret)*] ")" --------------------------------------------

  std::vector<Argument> parse_returns() {
    if (!accept("(")) return {parse_argument(/*is_return=*/true, nullptr)};
    std::vector<Argument> rets;
    if (accept(")")) return rets;
    do {
      rets.push_back(parse_argument(/*is_return=*/true, nullptr));
    } while (accept(","));
    expect(")", "',' or ')' after a return");
    return rets;
  }

  // --- arg := type name ["=" default];  ret := type [name] ----------------------------------

  Argument parse_argument(bool is_return, size_t* name_pos) {
    Argument a;
    a.type = parse_type(a.alias);
    if (is_return) {
      a.name = peek_ident();
      pos_ += a.name.size();
      if (peek() == '=') error_at(pos_, "a return cannot have a default value");
      return a;
    }
    skip_ws();
    *name_pos = pos_;
    a.name = ident("an argument name");
    if (accept("=")) {
      skip_ws();
      size_t start = pos_;
      a.default_value = parse_default(a.type);
      a.default_text = text_.substr(start, pos_ - start);
    }
    return a;
  }

  // --- type := Base [alias] ["?"] ["[" [N] "]" ["?"]] ---------------------------------------

  SchemaType parse_type(std::optional<AliasInfo>& alias) {
    skip_ws();
    size_t start = pos_;
    std::string_view base = ident("a type");
    std::optional<TypeKind> kind = parse_type_kind(base);
    if (!kind) error_at(start, detail::str("unknown type '", base, "'"));
    SchemaType t;
    t.kind = *kind;
    alias = parse_alias();
    if (accept("?")) {
      (peek() == '[' ? t.elem_optional : t.optional) = true;
      if (!alias) alias = parse_alias();  // "Tensor?(a!)" is accepted, printed "Tensor(a!)?"
    }
    if (accept("[")) {
      t.is_list = true;
      skip_ws();
      if (pos_ < text_.size() && is_digit(text_[pos_])) {
        size_t n_pos = pos_;
        t.fixed_size = static_cast<int>(parse_integer("a list size"));
        if (t.fixed_size < 0) error_at(n_pos, "a list size must not be negative");
      }
      expect("]", "']' to close the list type");
      if (accept("?")) t.optional = true;
      if (peek() == '[') error_at(pos_, "lists of lists are not supported");
    }
    return t;
  }

  // --- alias := "(" set ["!"] ["->" set] ")" ------------------------------------------------

  std::optional<AliasInfo> parse_alias() {
    if (!accept("(")) return std::nullopt;
    AliasInfo info;
    info.set = parse_alias_set();
    info.is_write = accept("!");
    if (accept("->")) info.after = parse_alias_set();
    expect(")", "')' to close the alias annotation");
    return info;
  }
  // set := name ("|" name)* where name is an identifier or "*".
  std::string parse_alias_set() {
    std::string set;
    do {
      if (!set.empty()) set += '|';
      if (accept("*")) {
        set += '*';
      } else {
        set += ident("an alias set such as 'a' or '*'");
      }
    } while (accept("|"));
    return set;
  }

  // --- defaults ------------------------------------------------------------------------------

  IValue parse_default(const SchemaType& t) {
    size_t start = pos_;
    if (peek_ident() == "None") {
      if (!t.optional)
        error_at(start,
                 detail::str("None is not a valid default for non-optional type '", t.str(), "'"));
      pos_ += 4;
      return IValue();
    }
    if (!t.is_list) return parse_constant(t.kind);

    std::vector<IValue> elems;
    if (accept("[")) {
      if (!accept("]")) {
        do {
          skip_ws();
          elems.push_back(parse_constant(t.kind));
        } while (accept(","));
        expect("]", "',' or ']' in the list default");
      }
    } else if (t.fixed_size > 0) {
      // "int[2] stride=1" means [1, 1], as in PyTorch.
      elems.assign(static_cast<size_t>(t.fixed_size), parse_constant(t.kind));
    } else {
      fail("'[' to start a list default");
    }
    switch (t.kind) {
      case TypeKind::Int:
      case TypeKind::SymInt: {
        std::vector<int64_t> out;
        for (const IValue& v : elems) out.push_back(v.to_int());
        return out;
      }
      case TypeKind::Float: {
        std::vector<double> out;
        for (const IValue& v : elems) out.push_back(v.to_double());
        return out;
      }
      case TypeKind::Tensor:
        if (elems.empty()) return std::vector<Tensor>{};
        break;
      default:
        break;
    }
    error_at(start, detail::str("defaults of type '", t.str(), "' are not supported"));
  }

  // One value of `kind`, as written in a default (never None; see parse_default).
  IValue parse_constant(TypeKind kind) {
    skip_ws();
    size_t start = pos_;
    std::string_view word = peek_ident();
    switch (kind) {
      case TypeKind::Int:
      case TypeKind::SymInt:
        if (word == "Mean" || word == "Sum") {
          pos_ += word.size();
          return word == "Mean" ? kReductionMean : kReductionSum;
        }
        return parse_integer("an integer default");
      case TypeKind::Float:
        return parse_number("a float default").to_double();
      case TypeKind::Scalar:
        if (word == "True" || word == "False") return parse_bool();
        return parse_number("a number default");
      case TypeKind::Bool:
        return parse_bool();
      case TypeKind::Str:
      case TypeKind::Dimname:
        return parse_string();
      case TypeKind::ScalarType: {
        std::string_view name = ident("a dtype name such as 'long' or 'float'");
        if (auto t = dtype_from_name(name)) return *t;
        error_at(start, detail::str("unknown dtype '", name, "'"));
      }
      case TypeKind::Layout:
      case TypeKind::MemoryFormat: {
        // As integers, the form kernels and the Python parser use (see core/ops/README.md).
        std::string_view name = ident("a name such as 'strided' or 'contiguous_format'");
        if (name == "strided" || name == "contiguous_format") return int64_t(0);
        if (name == "preserve_format") return int64_t(1);
        if (name == "channels_last") return int64_t(2);
        error_at(start, detail::str("unknown layout or memory format '", name, "'"));
      }
      case TypeKind::Device: {
        std::string spec = parse_string();
        try {
          return Device::parse(spec);
        } catch (const Error& e) {
          error_at(start, detail::str("invalid device default (", e.what(), ")"));
        }
      }
      case TypeKind::Tensor:
      case TypeKind::Generator:
        break;
    }
    fail("None (the only default a Tensor or Generator can have)");
  }

  static std::optional<ScalarType> dtype_from_name(std::string_view name) {
    try {
      return parse_dtype(name);
    } catch (const Error&) {
    }
    for (int i = 0; i < kNumScalarTypes; ++i) {  // PyTorch's C++ names: Long, Float, ...
      auto t = static_cast<ScalarType>(i);
      if (cpp_name(t) == name) return t;
    }
    return std::nullopt;
  }

  IValue parse_bool() {
    if (accept("True")) return true;
    if (accept("False")) return false;
    fail("True or False");
  }

  int64_t parse_integer(std::string_view expected) {
    size_t start = pos_;
    IValue v = parse_number(expected);
    if (v.tag() != IValue::Tag::Int)
      error_at(start, detail::str("expected ", expected, " but found '",
                                  text_.substr(start, pos_ - start), "'"));
    return v.to_int();
  }

  // A number as std::from_chars reads one (-100, 0.5, 1e-05, -inf, nan): an Int IValue when
  // written with digits alone, a Double otherwise.
  IValue parse_number(std::string_view expected) {
    skip_ws();
    size_t start = pos_;
    const char* first = text_.data() + start;
    double d = 0;
    auto [end, ec] = std::from_chars(first, text_.data() + text_.size(), d);
    if (end == first) fail(expected);
    pos_ += static_cast<size_t>(end - first);
    if (ec != std::errc()) error_at(start, "float default out of range");
    if (pos_ < text_.size() && is_ident_char(text_[pos_])) fail("the end of the number");
    std::string_view written = text_.substr(start, pos_ - start);
    if (written.find_first_not_of("-0123456789") != std::string_view::npos) return d;
    int64_t i = 0;
    auto [int_end, int_ec] = std::from_chars(first, end, i);
    if (int_ec != std::errc() || int_end != end) error_at(start, "integer default out of range");
    return i;
  }

  // "text" or 'text', with backslash escapes; returns the contents.
  std::string parse_string() {
    skip_ws();
    size_t start = pos_;
    char quote = pos_ < text_.size() ? text_[pos_] : '\0';
    if (quote != '"' && quote != '\'') fail("a quoted string");
    std::string out;
    for (++pos_; pos_ < text_.size() && text_[pos_] != quote; ++pos_) {
      char c = text_[pos_];
      if (c == '\\' && pos_ + 1 < text_.size()) {
        c = text_[++pos_];
        if (c == 'n') c = '\n';
        if (c == 't') c = '\t';
      }
      out += c;
    }
    if (pos_ >= text_.size()) error_at(start, "unterminated string");
    ++pos_;  // the closing quote
    return out;
  }

  std::string_view text_;
  std::string_view default_ns_;
  size_t pos_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Printing and queries
// ---------------------------------------------------------------------------------------------

std::string_view type_kind_name(TypeKind k) {
  return kKindNames[static_cast<size_t>(k)];
}

std::optional<TypeKind> parse_type_kind(std::string_view name) {
  for (size_t i = 0; i < std::size(kKindNames); ++i)
    if (kKindNames[i] == name) return static_cast<TypeKind>(i);
  return std::nullopt;
}

std::string SchemaType::str() const {
  return type_string(*this, nullptr);
}

std::string AliasInfo::str() const {
  std::string s = "(" + set + (is_write ? "!" : "");
  if (!after.empty()) s += " -> " + after;
  return s + ")";
}

std::string Argument::type_str() const {
  return type_string(type, alias ? &*alias : nullptr);
}

std::string Argument::str() const {
  std::string s = type_str();
  if (!name.empty()) s += " " + name;
  if (!default_text.empty()) {
    s += "=" + default_text;
  } else if (default_value) {
    s += "=" + default_to_text(*default_value, type.kind);
  }
  return s;
}

bool operator==(const Argument& a, const Argument& b) {
  auto same_default = [](const std::optional<IValue>& x, const std::optional<IValue>& y) {
    if (!x || !y) return !x && !y;
    return x->tag() == y->tag() && x->str() == y->str();
  };
  return a.name == b.name && a.type == b.type && a.default_text == b.default_text &&
         a.kwarg_only == b.kwarg_only && a.alias == b.alias &&
         same_default(a.default_value, b.default_value);
}

std::string FunctionSchema::qualified_name() const {
  return ns.empty() ? name : ns + "::" + name;
}

std::string FunctionSchema::full_name() const {
  return overload.empty() ? qualified_name() : qualified_name() + "." + overload;
}

namespace {
// One return bare, any other number parenthesized: "Tensor", "(Tensor values, Tensor indices)".
template <typename F>
std::string returns_text(const std::vector<Argument>& rets, F&& one) {
  if (rets.size() == 1) return one(rets[0], 0);
  std::string s = "(";
  for (size_t i = 0; i < rets.size(); ++i) s += (i ? ", " : "") + one(rets[i], i);
  return s + ")";
}
}  // namespace

std::string FunctionSchema::str() const {
  std::string s = full_name() + "(";
  bool star = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i) s += ", ";
    if (arguments[i].kwarg_only && !star) {
      s += "*, ";
      star = true;
    }
    s += arguments[i].str();
  }
  s += ") -> ";
  return s + returns_text(returns, [](const Argument& r, size_t) { return r.str(); });
}

bool FunctionSchema::is_inplace() const {
  return !name.empty() && name.back() == '_' && !arguments.empty() && arguments[0].alias &&
         arguments[0].alias->is_write;
}

bool FunctionSchema::is_out_variant() const {
  for (const Argument& a : arguments)
    if (a.is_out()) return true;
  return false;
}

bool FunctionSchema::is_view() const {
  for (const Argument& r : returns)
    if (r.alias && !r.alias->is_write) return true;
  return false;
}

std::optional<size_t> FunctionSchema::argument_index(std::string_view arg_name) const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].name == arg_name) return i;
  return std::nullopt;
}

std::string FunctionSchema::cpp_style_signature() const {
  auto plain = [](const Argument& a, size_t i) {
    SchemaType t = a.type;
    t.fixed_size = -1;  // a C++ kernel takes IntArrayRef whatever N the schema says
    return t.str() + " _" + std::to_string(i);
  };
  std::string s = "(";
  for (size_t i = 0; i < arguments.size(); ++i) s += (i ? ", " : "") + plain(arguments[i], i);
  return s + ") -> " + returns_text(returns, plain);
}

std::ostream& operator<<(std::ostream& os, const SchemaType& t) {
  return os << t.str();
}
std::ostream& operator<<(std::ostream& os, const Argument& a) {
  return os << a.str();
}
std::ostream& operator<<(std::ostream& os, const FunctionSchema& s) {
  return os << s.str();
}

FunctionSchema parse_schema(std::string_view text, std::string_view default_namespace) {
  return SchemaParser(text, default_namespace).parse();
}

}  // namespace opscope
