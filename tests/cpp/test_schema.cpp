// Tests for the schema parser and printer (core/dispatch/FunctionSchema.h).
// The schemas below are PyTorch's, as written in native_functions.yaml.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/dispatch/FunctionSchema.h"

using namespace opscope;

namespace {

// Real schemas from native_functions.yaml, with the "aten::" that str() prints.
const std::vector<std::string> kAtenSchemas = {
    "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
    "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
    "aten::mm(Tensor self, Tensor mat2) -> Tensor",
    "aten::matmul(Tensor self, Tensor other) -> Tensor",
    "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)",
    "aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
    "aten::select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)",
    "aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
    "SymInt step=1) -> Tensor(a)",
    "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor",
    "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
    "aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
    "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
    "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
    "aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]",
    "aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None) -> Tensor",
    "aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
    "aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
    "aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
    "aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, "
    "SymInt ignore_index=-100) -> Tensor",
    "aten::layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, "
    "Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
    "aten::randint.generator(SymInt high, SymInt[] size, *, Generator? generator, "
    "ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
    "bool? pin_memory=None) -> Tensor",
    "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
    "aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, "
    "SymInt? storage_offset=None) -> Tensor(a)",
    "aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)",
    "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, "
    "SymInt[2] padding=0, SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
    "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
    "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
    "aten::topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> "
    "(Tensor values, Tensor indices)",
    "aten::gelu(Tensor self, *, str approximate='none') -> Tensor",
    "aten::pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor",
    "aten::_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None, bool non_blocking=False, "
    "MemoryFormat? memory_format=None) -> Tensor",
    "aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
    "MemoryFormat? memory_format=None) -> Tensor(a)",
    "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> "
    "Tensor(a)",
    "aten::__and__.Tensor(Tensor self, Tensor other) -> Tensor",
    "aten::__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, "
    "Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)",
    "aten::native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, "
    "Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> "
    "(Tensor, Tensor, Tensor)",
    "aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()",
    "aten::size.int(Tensor self, int dim) -> int",
    "aten::sym_size.int(Tensor self, int dim) -> SymInt",
    "aten::is_nonzero(Tensor self) -> bool",
    "aten::item(Tensor self) -> Scalar",
    "aten::result_type.Tensor(Tensor tensor, Tensor other) -> ScalarType",
    "aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor",
    "aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor",
    "aten::mean.names_dim(Tensor self, Dimname[1] dim, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor",
    "aten::upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, "
    "float[]? scale_factors) -> Tensor",
    "aten::std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
    "bool keepdim=False) -> Tensor",
    "aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, "
    "int reduction=Mean, SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor",
    "aten::cat(Tensor[] tensors, int dim=0) -> Tensor",
    "aten::einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor",
    "aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> "
    "(Tensor values, Tensor indices)",
    "aten::_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, "
    "Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, "
    "float eps) -> (Tensor, Tensor, Tensor)",
    "aten::normal_(Tensor(a!) self, float mean=0, float std=1, *, "
    "Generator? generator=None) -> Tensor(a!)",
    "aten::resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> "
    "Tensor(a!)",
};

// The message of the ValueError that parsing `text` throws ("" if it parses).
std::string error_of(std::string_view text) {
  try {
    (void)parse_schema(text);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("schema: real PyTorch schemas print back exactly as written") {
  for (const std::string& text : kAtenSchemas) {
    CAPTURE(text);
    FunctionSchema s = parse_schema(text);
    CHECK(s.str() == text);
    CHECK(parse_schema(s.str()) == s);
    // Without the namespace, the default one is added back.
    CHECK(parse_schema(text.substr(6)) == s);
  }
  CHECK(kAtenSchemas.size() >= 25);
}

TEST_CASE("schema: names, namespaces and overloads") {
  FunctionSchema add = parse_schema("add.Tensor(Tensor self, Tensor other) -> Tensor");
  CHECK(add.ns == "aten");
  CHECK(add.name == "add");
  CHECK(add.overload == "Tensor");
  CHECK(add.qualified_name() == "aten::add");
  CHECK(add.full_name() == "aten::add.Tensor");

  FunctionSchema mm = parse_schema("mm(Tensor self, Tensor mat2) -> Tensor", "myops");
  CHECK(mm.ns == "myops");
  CHECK(mm.overload == "");
  CHECK(mm.full_name() == "myops::mm");

  FunctionSchema q =
      parse_schema("quant::_to_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  CHECK(q.ns == "quant");
  CHECK(q.name == "_to_copy");
  CHECK(q.full_name() == "quant::_to_copy.out");

  FunctionSchema bare = parse_schema("foo(Tensor x) -> Tensor", "");
  CHECK(bare.ns == "");
  CHECK(bare.qualified_name() == "foo");
  CHECK(bare.str() == "foo(Tensor x) -> Tensor");

  FunctionSchema dunder = parse_schema("__and__.Tensor(Tensor self, Tensor other) -> Tensor");
  CHECK(dunder.name == "__and__");
  CHECK(dunder.overload == "Tensor");

  CHECK(parse_schema("f.1(Tensor x) -> Tensor").overload == "1");
}

TEST_CASE("schema: argument types") {
  FunctionSchema s = parse_schema(
      "f(Tensor a, int b, SymInt c, float d, bool e, str f, Scalar g, ScalarType h, Device i, "
      "Layout j, MemoryFormat k, Generator l, Dimname m) -> ()");
  const TypeKind kinds[] = {TypeKind::Tensor, TypeKind::Int,          TypeKind::SymInt,
                            TypeKind::Float,  TypeKind::Bool,         TypeKind::Str,
                            TypeKind::Scalar, TypeKind::ScalarType,   TypeKind::Device,
                            TypeKind::Layout, TypeKind::MemoryFormat, TypeKind::Generator,
                            TypeKind::Dimname};
  REQUIRE(s.arguments.size() == 13);
  for (size_t i = 0; i < 13; ++i) {
    CAPTURE(i);
    CHECK(s.arguments[i].type.kind == kinds[i]);
    CHECK_FALSE(s.arguments[i].type.optional);
    CHECK_FALSE(s.arguments[i].type.is_list);
    CHECK(parse_type_kind(type_kind_name(kinds[i])) == kinds[i]);
  }
  CHECK(s.returns.empty());
  CHECK_FALSE(parse_type_kind("Tensr").has_value());
}

TEST_CASE("schema: optional, list and fixed-size suffixes") {
  FunctionSchema s = parse_schema(
      "f(Tensor? a, int[] b, int[2] c, Tensor?[] d, int[]? e, SymInt[] f, int[1]? g, "
      "Tensor?[]? h) -> Tensor");
  const auto& a = s.arguments;
  CHECK(a[0].type.optional);
  CHECK_FALSE(a[0].type.is_list);
  CHECK(a[0].type.str() == "Tensor?");

  CHECK(a[1].type.is_list);
  CHECK(a[1].type.fixed_size == -1);
  CHECK_FALSE(a[1].type.optional);

  CHECK(a[2].type.is_list);
  CHECK(a[2].type.fixed_size == 2);
  CHECK(a[2].type.str() == "int[2]");

  CHECK(a[3].type.is_list);
  CHECK(a[3].type.elem_optional);
  CHECK_FALSE(a[3].type.optional);
  CHECK(a[3].type.str() == "Tensor?[]");

  CHECK(a[4].type.is_list);
  CHECK(a[4].type.optional);
  CHECK_FALSE(a[4].type.elem_optional);
  CHECK(a[4].type.str() == "int[]?");

  CHECK(a[5].type.kind == TypeKind::SymInt);
  CHECK(a[5].type.str() == "SymInt[]");

  CHECK(a[6].type.fixed_size == 1);
  CHECK(a[6].type.optional);
  CHECK(a[6].type.str() == "int[1]?");

  CHECK(a[7].type.elem_optional);
  CHECK(a[7].type.optional);
  CHECK(a[7].type.str() == "Tensor?[]?");
}

TEST_CASE("schema: alias annotations") {
  FunctionSchema add_ =
      parse_schema("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  REQUIRE(add_.arguments[0].alias.has_value());
  CHECK(add_.arguments[0].alias->set == "a");
  CHECK(add_.arguments[0].alias->is_write);
  CHECK(add_.arguments[0].alias->str() == "(a!)");
  CHECK_FALSE(add_.arguments[1].alias.has_value());
  CHECK(add_.returns[0].alias->is_write);

  FunctionSchema view = parse_schema("view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
  CHECK(view.arguments[0].alias->set == "a");
  CHECK_FALSE(view.arguments[0].alias->is_write);
  CHECK(view.returns[0].alias->str() == "(a)");

  FunctionSchema split = parse_schema(
      "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
  CHECK(split.arguments[0].alias->set == "a");
  CHECK(split.arguments[0].alias->after == "*");
  CHECK(split.arguments[0].alias->str() == "(a -> *)");
  CHECK(split.returns[0].type.is_list);
  CHECK(split.returns[0].alias->set == "a");
  CHECK(split.returns[0].type_str() == "Tensor(a)[]");

  FunctionSchema max_out = parse_schema(
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
      "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)");
  CHECK(max_out.arguments[4].alias->set == "b");
  CHECK(max_out.arguments[4].alias->is_write);
  CHECK(max_out.returns[1].name == "indices");
  CHECK(max_out.returns[1].alias->set == "b");

  // An optional written argument prints with the alias before the '?', as PyTorch does.
  FunctionSchema opt = parse_schema("f(Tensor(a!)? x, Tensor?(b!) y, Tensor(c|d) z) -> ()");
  CHECK(opt.arguments[0].type.optional);
  CHECK(opt.arguments[0].alias->is_write);
  CHECK(opt.arguments[1].type_str() == "Tensor(b!)?");
  CHECK(opt.arguments[2].alias->set == "c|d");
  CHECK(opt.str() == "aten::f(Tensor(a!)? x, Tensor(b!)? y, Tensor(c|d) z) -> ()");
}

TEST_CASE("schema: keyword-only arguments and returns") {
  FunctionSchema s = parse_schema(
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  CHECK_FALSE(s.arguments[0].kwarg_only);
  CHECK_FALSE(s.arguments[1].kwarg_only);
  CHECK(s.arguments[2].kwarg_only);
  CHECK(s.arguments[3].kwarg_only);
  CHECK_FALSE(s.arguments[2].is_out());
  CHECK(s.arguments[3].is_out());
  CHECK(s.returns.size() == 1);
  CHECK(s.returns[0].name == "");

  FunctionSchema max = parse_schema(
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  REQUIRE(max.returns.size() == 2);
  CHECK(max.returns[0].name == "values");
  CHECK(max.returns[1].name == "indices");

  CHECK(parse_schema("f(Tensor x) -> Tensor[]").returns[0].type.is_list);
  CHECK(parse_schema("f(Tensor x) -> ()").returns.empty());
  CHECK(parse_schema("f(Tensor x) -> int").returns[0].type.kind == TypeKind::Int);
  CHECK(parse_schema("f(Tensor x) -> Scalar").returns[0].type.kind == TypeKind::Scalar);
  CHECK(parse_schema("f(Tensor x) -> bool").returns[0].type.kind == TypeKind::Bool);
  CHECK(parse_schema("f() -> Tensor").arguments.empty());
}

TEST_CASE("schema: default values and their IValue tags") {
  FunctionSchema s = parse_schema(
      "f(Tensor? w=None, bool b=False, bool c=True, int i=-100, float e=1e-05, float one=1, "
      "Scalar alpha=1, Scalar beta=0.5, str mode=\"trunc\", str approx='none', int[] dims=[0,1], "
      "int[] empty=[], int[2] stride=1, float[] scales=[1.5, 2], ScalarType dt=long, "
      "ScalarType? ft=float, MemoryFormat mf=contiguous_format, int reduction=Mean, "
      "int red2=Sum, Device dev=\"cuda:1\", float big=-inf, Scalar yes=True, "
      "ScalarType cpp=Long, Layout layout=strided) -> Tensor");
  auto arg = [&](std::string_view name) -> const Argument& {
    auto i = s.argument_index(name);
    REQUIRE(i.has_value());
    REQUIRE(s.arguments[*i].default_value.has_value());
    return s.arguments[*i];
  };
  using Tag = IValue::Tag;

  CHECK(arg("w").default_value->is_none());
  CHECK(arg("w").default_text == "None");
  CHECK(arg("b").default_value->tag() == Tag::Bool);
  CHECK(arg("b").default_value->to_bool() == false);
  CHECK(arg("c").default_value->to_bool() == true);
  CHECK(arg("i").default_value->tag() == Tag::Int);
  CHECK(arg("i").default_value->to_int() == -100);
  CHECK(arg("i").default_text == "-100");
  CHECK(arg("e").default_value->tag() == Tag::Double);
  CHECK(arg("e").default_value->to_double() == doctest::Approx(1e-5));
  CHECK(arg("e").default_text == "1e-05");
  // A float argument's integer default is still a float.
  CHECK(arg("one").default_value->tag() == Tag::Double);
  CHECK(arg("one").default_value->to_double() == 1.0);
  // A Scalar keeps int or float as written.
  CHECK(arg("alpha").default_value->tag() == Tag::Int);
  CHECK(arg("alpha").default_value->to_int() == 1);
  CHECK(arg("beta").default_value->tag() == Tag::Double);
  CHECK(arg("beta").default_value->to_double() == 0.5);
  CHECK(arg("yes").default_value->tag() == Tag::Bool);
  // Strings lose their quotes; the text keeps them.
  CHECK(arg("mode").default_value->to_string() == "trunc");
  CHECK(arg("mode").default_text == "\"trunc\"");
  CHECK(arg("approx").default_value->to_string() == "none");
  CHECK(arg("approx").default_text == "'none'");
  // Lists.
  CHECK(arg("dims").default_value->to_int_list() == std::vector<int64_t>{0, 1});
  CHECK(arg("dims").default_text == "[0,1]");
  CHECK(arg("empty").default_value->tag() == Tag::IntList);
  CHECK(arg("empty").default_value->to_int_list().empty());
  // int[2] stride=1 means [1, 1], but prints as written.
  CHECK(arg("stride").default_value->to_int_list() == std::vector<int64_t>{1, 1});
  CHECK(arg("stride").default_text == "1");
  CHECK(arg("scales").default_value->to_double_list() == std::vector<double>{1.5, 2.0});
  // Names.
  CHECK(arg("dt").default_value->to_scalar_type() == ScalarType::Int64);
  CHECK(arg("ft").default_value->to_scalar_type() == ScalarType::Float32);
  CHECK(arg("cpp").default_value->to_scalar_type() == ScalarType::Int64);
  CHECK(arg("mf").default_value->to_int() == 0);      // contiguous_format, as kernels see it
  CHECK(arg("layout").default_value->to_int() == 0);  // strided
  CHECK(arg("reduction").default_value->tag() == Tag::Int);
  CHECK(arg("reduction").default_value->to_int() == 1);
  CHECK(arg("red2").default_value->to_int() == 2);
  CHECK(arg("dev").default_value->to_device() == Device(DeviceType::CUDA, 1));
  CHECK(arg("big").default_value->to_double() == -std::numeric_limits<double>::infinity());

  // Arguments without '=' have no default.
  FunctionSchema mm = parse_schema("mm(Tensor self, Tensor mat2) -> Tensor");
  CHECK_FALSE(mm.arguments[0].default_value.has_value());
  CHECK(mm.arguments[0].default_text.empty());

  CHECK(parse_schema(s.str()) == s);
}

TEST_CASE("schema: is_inplace, is_out_variant, is_view") {
  struct Case {
    const char* text;
    bool inplace, out, view;
  };
  const Case cases[] = {
      {"add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", false, false, false},
      {"add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", true, false,
       false},
      {"add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", false,
       true, false},
      {"view(Tensor(a) self, SymInt[] size) -> Tensor(a)", false, false, true},
      {"transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", false, false, true},
      {"split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]", false,
       false, true},
      {"__and__.Tensor(Tensor self, Tensor other) -> Tensor", false, false, false},
      {"__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", true, false, false},
      {"copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", true, false,
       false},
      // Written but positional (running stats), so neither in-place by name nor out=.
      {"_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, "
       "Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, "
       "float eps) -> (Tensor, Tensor, Tensor)",
       false, false, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    FunctionSchema s = parse_schema(c.text);
    CHECK(s.is_inplace() == c.inplace);
    CHECK(s.is_out_variant() == c.out);
    CHECK(s.is_view() == c.view);
  }
}

TEST_CASE("schema: argument_index and cpp_style_signature") {
  FunctionSchema add =
      parse_schema("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  CHECK(add.argument_index("self") == 0u);
  CHECK(add.argument_index("alpha") == 2u);
  CHECK_FALSE(add.argument_index("beta").has_value());
  CHECK(add.cpp_style_signature() == "(Tensor _0, Tensor _1, Scalar _2) -> Tensor _0");

  FunctionSchema max = parse_schema(
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  CHECK(max.cpp_style_signature() == "(Tensor _0, int _1, bool _2) -> (Tensor _0, Tensor _1)");

  FunctionSchema conv = parse_schema(
      "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1) -> Tensor");
  CHECK(conv.cpp_style_signature() ==
        "(Tensor _0, Tensor _1, Tensor? _2, SymInt[] _3) -> Tensor _0");

  FunctionSchema foreach_add = parse_schema(
      "_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()");
  CHECK(foreach_add.cpp_style_signature() == "(Tensor[] _0, Tensor[] _1, Scalar _2) -> ()");
}

TEST_CASE("schema: non-canonical text parses to the same structure as its printed form") {
  const char* texts[] = {
      "  aten::add.Tensor( Tensor self ,Tensor other,*,Scalar alpha = 1 )->Tensor  ",
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      "f(Tensor x) -> (Tensor)",
      "f(Tensor x) -> (Tensor(a) y)",
      "f(int[] x=[ 1, -2 ], float[2] y=0.5, Tensor(a) [] z) -> ()",
      "g(Tensor? [] x, int [ 3 ] ? y=None) -> Tensor [ ]",
  };
  for (const char* text : texts) {
    CAPTURE(text);
    FunctionSchema s = parse_schema(text);
    CHECK(parse_schema(s.str()) == s);
    CHECK(parse_schema(s.str()).str() == s.str());
  }
  CHECK(parse_schema(texts[0]).str() ==
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  CHECK(parse_schema(texts[2]).str() == "aten::f(Tensor x) -> Tensor");
  CHECK(parse_schema(texts[5]).str() == "aten::g(Tensor?[] x, int[3]? y=None) -> Tensor[]");
}

TEST_CASE("schema: defaults built in code print as schema text") {
  FunctionSchema s = parse_schema("f(Tensor x) -> Tensor");
  auto add = [&](std::string name, const char* type, IValue v) {
    Argument a;
    a.name = std::move(name);
    a.type = parse_schema(std::string("f(") + type + " x) -> ()").arguments[0].type;
    a.default_value = std::move(v);
    s.arguments.push_back(std::move(a));
  };
  add("i", "int", int64_t(3));
  add("d", "float", 0.5);
  add("s", "str", std::string("mean"));
  add("l", "int[]", std::vector<int64_t>{1, 2});
  add("t", "ScalarType", ScalarType::Float32);
  add("m", "MemoryFormat", int64_t(0));
  add("n", "int?", IValue());
  std::string text = s.str();
  CHECK(text ==
        "aten::f(Tensor x, int i=3, float d=0.5, str s=\"mean\", int[] l=[1, 2], "
        "ScalarType t=Float, MemoryFormat m=contiguous_format, int? n=None) -> Tensor");
  FunctionSchema back = parse_schema(text);
  CHECK(back.arguments[5].default_value->to_scalar_type() == ScalarType::Float32);
  CHECK(back.arguments[4].default_value->to_int_list() == std::vector<int64_t>{1, 2});
}

TEST_CASE("schema: errors name the problem, the column and the schema") {
  // Unbalanced parentheses: the arrow comes where ',' or ')' should.
  std::string mm = "mm(Tensor self, Tensor mat2 -> Tensor";
  CHECK_THROWS_AS(parse_schema(mm), ValueError);
  std::string msg = error_of(mm);
  CHECK(contains(msg, "expected ',' or ')' after an argument but found '->' at column 29"));
  CHECK(contains(msg, "in schema '" + mm + "'"));
  CHECK(mm.find("->") + 1 == 29);  // columns count from 1

  struct Case {
    std::string text;
    std::string part;  // what the message must say, including the column
  };
  const Case cases[] = {
      {"foo(Tensr self) -> Tensor", "unknown type 'Tensr' at column 5"},
      {"mm(Tensor self, Tensor mat2) Tensor",
       "expected '->' after the arguments but found "
       "'Tensor' at column 30"},
      {"mm(Tensor self, Tensor mat2)", "found the end of the schema at column 29"},
      {"f(Tensor x) -> (Tensor, Tensor",
       "expected ',' or ')' after a return but found the end "
       "of the schema at column 31"},
      {"f(Tensor x)) -> Tensor", "expected '->' after the arguments but found ')' at column 12"},
      {"f(Tensor(a! x) -> Tensor",
       "expected ')' to close the alias annotation but found 'x' at "
       "column 13"},
      {"f(Tensor x, Tensor x) -> Tensor", "duplicate argument name 'x' at column 20"},
      {"f(Tensor a, int b=1, int c) -> Tensor",
       "non-default positional argument 'c' follows default argument 'b' at column 26"},
      {"f(Tensor a, int b=1, int[]? c) -> Tensor",  // an optional list is not exempt
       "non-default positional argument 'c' follows default argument 'b' at column 29"},
      {"mm(Tensor self, Tensor mat2) -> Tensor)",
       "expected the end of the schema after the "
       "returns but found ')' at column 39"},
      {"mm(Tensor self) -> Tensor foo bar", "found 'bar' at column 31"},
      {"f(Tensor) -> Tensor", "expected an argument name but found ')' at column 9"},
      {"f(int[][] x) -> ()", "lists of lists are not supported at column 8"},
      {"f(int[x] y) -> ()", "expected ']' to close the list type but found 'x' at column 7"},
      {"f(int x=1.5) -> ()", "expected an integer default but found '1.5' at column 9"},
      {"f(int x=None) -> ()",
       "None is not a valid default for non-optional type 'int' at "
       "column 9"},
      {"f(bool x=1) -> ()", "expected True or False but found '1' at column 10"},
      {"f(str x=\"abc) -> ()", "unterminated string at column 9"},
      {"f(ScalarType x=floaty) -> ()", "unknown dtype 'floaty' at column 16"},
      {"f(Device d=\"gpu\") -> ()", "invalid device default"},
      {"f(int[] x=3) -> ()", "expected '[' to start a list default but found '3' at column 11"},
      {"f(Tensor x=0) -> ()", "expected None (the only default a Tensor or Generator can have)"},
      {"f(Tensor x, *, *, Tensor y) -> ()", "unexpected second '*' at column 16"},
      {"f(Tensor x) -> Tensor y=1", "a return cannot have a default value at column 24"},
      {"f(float x=1e) -> ()", "expected the end of the number but found 'e' at column 12"},
      {"f(int x=99999999999999999999) -> ()", "integer default out of range at column 9"},
      {"f.(Tensor x) -> ()", "expected an overload name after '.' but found '(' at column 3"},
      {"", "expected an operator name but found the end of the schema at column 1"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK_THROWS_AS(parse_schema(c.text), ValueError);
    std::string m = error_of(c.text);
    CAPTURE(m);
    CHECK(contains(m, c.part));
    CHECK(contains(m, "in schema '" + c.text + "'"));
  }

  // Lists are exempt from the default-order rule (PyTorch's checkSchema), as are kwarg-only args.
  CHECK_NOTHROW(parse_schema("f(Tensor a, int b=1, int[] c) -> Tensor"));
  CHECK_NOTHROW(parse_schema("f(Tensor a, int b=1, *, int c) -> Tensor"));
}

TEST_CASE("schema: the error message points at the column with a caret") {
  std::string msg = error_of("f(Tensr x) -> ()");
  // The schema on its own line, indented by two, and a caret under the 'T' of "Tensr".
  CHECK(contains(msg, "\n  f(Tensr x) -> ()\n    ^"));
}

TEST_CASE("schema: the worked example at the top of FunctionSchema.h runs as written") {
  FunctionSchema s =
      parse_schema("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  CHECK(s.full_name() == "aten::add.Tensor");
  CHECK(s.arguments[2].kwarg_only);
  CHECK(s.arguments[2].default_value->to_int() == 1);
  CHECK(s.str() == "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
}
