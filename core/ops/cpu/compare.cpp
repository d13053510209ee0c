// CPU kernels of the compare ops (see core/ops/compare.h): the comparisons (eq, ne, lt, le, gt,
// ge), clamp / clamp_min / clamp_max and where; with them maximum / minimum (core/ops/binary.h),
// whose NaN-propagating kernel clamp's Tensor bounds reuse. Each op is one `*_impl(out, ...)`
// over a TensorIterator (out undefined: allocated; out == self: in place; else out=).
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/ops/factories.h"

namespace opscope::cpu {

namespace {

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

template <Cmp C, typename A>
inline bool compare_values(A a, A b) {
  if constexpr (C == Cmp::Eq)
    return a == b;
  else if constexpr (C == Cmp::Ne)
    return a != b;
  else if constexpr (C == Cmp::Lt)
    return a < b;
  else if constexpr (C == Cmp::Le)
    return a <= b;
  else if constexpr (C == Cmp::Gt)
    return a > b;
  else
    return a >= b;
}

constexpr const char* compare_name(Cmp c) {
  constexpr const char* names[] = {"eq_cpu", "ne_cpu", "lt_cpu", "le_cpu", "gt_cpu", "ge_cpu"};
  return names[static_cast<int>(c)];
}

// A Bool output gets T, T -> bool directly; another out= dtype got a temporary of the common
// dtype from the iterator, which holds 1 / 0 (see TensorIterator::comparison_op).
template <Cmp C>
void comparison_kernel(TensorIterator& iter) {
  bool bool_out = iter.dtype(0) == ScalarType::Bool;
  dispatch_dtype(iter.common_dtype(), compare_name(C), [&]<typename T>() {
    using A = acc_type_t<T>;
    if (bool_out) {
      cpu_kernel(iter, [](T a, T b) -> bool { return compare_values<C>(A(a), A(b)); });
    } else {
      cpu_kernel(iter, [](T a, T b) -> T { return static_cast<T>(compare_values<C>(A(a), A(b))); });
    }
  });
}

template <Cmp C>
Tensor compare(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::comparison_op(out, self, other);
  comparison_kernel<C>(iter);
  return iter.output();
}

// PyTorch's comparison kernels take a Scalar `other` as a wrapped number, without a trace step.
template <Cmp C>
Tensor compare(const Tensor& out, const Tensor& self, const Scalar& other) {
  Tensor wrapped = wrapped_scalar_tensor(other);
  return compare<C>(out, self, wrapped);
}

template <typename T>
constexpr bool is_half_v = std::is_same_v<T, Half>;

// --- maximum / minimum: NaN-propagating ---------------------------------------------------------

template <typename A>
inline A max_propagate(A a, A b) {
  if constexpr (!std::is_integral_v<A>) {
    if (a != a || b != b) return std::numeric_limits<A>::quiet_NaN();
  }
  return a > b ? a : b;
}
template <typename A>
inline A min_propagate(A a, A b) {
  if constexpr (!std::is_integral_v<A>) {
    if (a != a || b != b) return std::numeric_limits<A>::quiet_NaN();
  }
  return a < b ? a : b;
}

template <bool Max>
void max_min_kernel(TensorIterator& iter) {
  dispatch_dtype(iter.common_dtype(), Max ? "maximum_cpu" : "minimum_cpu", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      if (Max)
        cpu_kernel(iter, [](bool a, bool b) -> bool { return a || b; });
      else
        cpu_kernel(iter, [](bool a, bool b) -> bool { return a && b; });
    } else {
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a, T b) -> T {
        return static_cast<T>(Max ? max_propagate(A(a), A(b)) : min_propagate(A(a), A(b)));
      });
    }
  });
}

template <bool Max>
Tensor max_min_impl(const Tensor& out, const Tensor& self, const Tensor& other) {
  TensorIterator iter = TensorIterator::binary_op(out, self, other);
  max_min_kernel<Max>(iter);
  return iter.output();
}

// --- clamp --------------------------------------------------------------------------------------

// PyTorch's clamp with Scalar bounds: a non-floating self takes part in promotion with the
// bounds (int_tensor.clamp(0.5) is float); in place that must not change self's dtype.
Tensor promote_for_clamp(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max) {
  if (is_floating(self.dtype())) return self;
  ScalarType t = self.dtype();
  // result_type of self with the bounds, as PyTorch's ResultTypeState.
  Tensor probe = self;
  if (min) t = result_type(probe, *min);
  if (max) t = promote_types(t, result_type(self, *max));
  if (min && max && !is_floating(t)) {
    // Two integral / bool bounds: the tensor's category wins, as for one.
    t = promote_types(result_type(self, *min), result_type(self, *max));
  }
  OPSCOPE_CHECK(t == self.dtype() || !out.defined() || !out.is_same(self), "result type ",
                cpp_name(t), " can't be cast to the desired output type ",
                typemeta_name(self.dtype()));
  return t == self.dtype() ? self : ops::to(self, t);
}

enum class Bound { Both, Min, Max };

Tensor clamp_scalar_impl(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max, Bound which) {
  OPSCOPE_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  Tensor input = promote_for_clamp(out, self, min, max);
  TensorIterator iter = TensorIterator::unary_op(out, input);
  if (min && max && (std::isnan(min->to_double()) || std::isnan(max->to_double()))) {
    // As PyTorch: a NaN bound makes every element NaN.
    Tensor result = iter.output();
    if (!is_floating(result.dtype())) return result;
    return ops::fill_(result, std::numeric_limits<double>::quiet_NaN());
  }
  const char* name = which == Bound::Both  ? "clamp_scalar_cpu"
                     : which == Bound::Min ? "clamp_min_cpu"
                                           : "clamp_max_scalar_cpu";
  dispatch_dtype_if(iter.common_dtype(), name, kAllButBool, [&]<typename T>() {
    if (is_half_v<T>) throw Error(detail::str("\"", name, "\" not implemented for 'Half'"));
    using A = acc_type_t<T>;
    if (min && max) {
      const A lo = A(checked_convert<T>(*min)), hi = A(checked_convert<T>(*max));
      cpu_kernel(iter, [lo, hi](T a) -> T {
        A v = A(a);
        v = v < lo ? lo : v;  // std::max(a, lo): NaN stays
        return static_cast<T>(hi < v ? hi : v);
      });
    } else if (min) {
      const A lo = A(checked_convert<T>(*min));
      cpu_kernel(iter, [lo](T a) -> T { return A(a) < lo ? static_cast<T>(lo) : a; });
    } else {
      const A hi = A(checked_convert<T>(*max));
      cpu_kernel(iter, [hi](T a) -> T { return hi < A(a) ? static_cast<T>(hi) : a; });
    }
  });
  return iter.output();
}

Tensor clamp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& min,
                         const Tensor& max) {
  OPSCOPE_CHECK(min.defined() || max.defined(),
                "torch.clamp: At least one of 'min' or 'max' must not be None");
  auto config = [&]() {
    TensorIteratorConfig c;
    c.add_output(out)
        .add_input(self)
        .promote_inputs_to_common_dtype(true)
        .cast_common_dtype_to_outputs(true)
        .enforce_safe_casting_to_output(true);
    return c;
  };
  if (min.defined() && max.defined()) {
    TensorIteratorConfig c = config();
    TensorIterator iter = c.add_input(min).add_input(max).build();
    dispatch_dtype_if(iter.common_dtype(), "clamp_cpu", kAllButBool, [&]<typename T>() {
      if (is_half_v<T>) throw Error("\"clamp_cpu\" not implemented for 'Half'");
      using A = acc_type_t<T>;
      cpu_kernel(iter, [](T a, T lo, T hi) -> T {
        return static_cast<T>(min_propagate(max_propagate(A(a), A(lo)), A(hi)));
      });
    });
    return iter.output();
  }
  TensorIteratorConfig c = config();
  TensorIterator iter = c.add_input(min.defined() ? min : max).build();
  if (min.defined())
    max_min_kernel<true>(iter);
  else
    max_min_kernel<false>(iter);
  return iter.output();
}

// --- where --------------------------------------------------------------------------------------

Tensor where_impl(const Tensor& out, const Tensor& condition, const Tensor& self,
                  const Tensor& other) {
  OPSCOPE_CHECK(condition.dtype() == ScalarType::Bool || condition.dtype() == ScalarType::UInt8,
                "where expected condition to be a boolean tensor, but got a tensor with dtype ",
                cpp_name(condition.dtype()));
  ScalarType t = result_type(self, other);
  Tensor cond =
      condition.dtype() == ScalarType::Bool ? condition : ops::to(condition, ScalarType::Bool);
  Tensor a = self.dtype() == t ? self : ops::to(self, t);
  Tensor b = other.dtype() == t ? other : ops::to(other, t);
  Tensor result = out;
  if (!result.defined()) result = make_empty({0}, t, self.device());
  OPSCOPE_CHECK(result.dtype() == t, "Expected out type to be ", cpp_name(t), " but got ",
                cpp_name(result.dtype()));
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(result)
                            .add_input(cond)
                            .add_input(a)
                            .add_input(b)
                            .check_all_same_dtype(false)
                            .build();
  dispatch_dtype(t, "where_cpu", [&]<typename T>() {
    if constexpr (sizeof(T) == 1) {
      cpu_kernel(iter, [](bool c, T x, T y) -> T { return c ? x : y; });
    } else {
      // Branch-free: a random mask would mispredict every other element.
      using U = std::conditional_t<sizeof(T) == 2, uint16_t,
                                   std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
      cpu_kernel(iter, [](bool c, T x, T y) -> T {
        U mask = U(0) - static_cast<U>(c);
        U bits = (std::bit_cast<U>(x) & mask) | (std::bit_cast<U>(y) & ~mask);
        return std::bit_cast<T>(bits);
      });
    }
  });
  return result;
}

}  // namespace

// self, other broadcast -> self == other
Tensor eq_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Eq>(Tensor(), self, other);
}
Tensor eq_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Eq>(Tensor(), self, other);
}
Tensor eq_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Eq>(self, self, other);
}
Tensor eq_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Eq>(self, self, other);
}
Tensor eq_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Eq>(out, self, other);
}
Tensor eq_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Eq>(out, self, other);
}

// self, other broadcast -> self != other
Tensor ne_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ne>(Tensor(), self, other);
}
Tensor ne_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ne>(Tensor(), self, other);
}
Tensor ne_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ne>(self, self, other);
}
Tensor ne_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ne>(self, self, other);
}
Tensor ne_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Ne>(out, self, other);
}
Tensor ne_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Ne>(out, self, other);
}

// self, other broadcast -> self < other
Tensor lt_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Lt>(Tensor(), self, other);
}
Tensor lt_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Lt>(Tensor(), self, other);
}
Tensor lt_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Lt>(self, self, other);
}
Tensor lt_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Lt>(self, self, other);
}
Tensor lt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Lt>(out, self, other);
}
Tensor lt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Lt>(out, self, other);
}

// self, other broadcast -> self <= other
Tensor le_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Le>(Tensor(), self, other);
}
Tensor le_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Le>(Tensor(), self, other);
}
Tensor le_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Le>(self, self, other);
}
Tensor le_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Le>(self, self, other);
}
Tensor le_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Le>(out, self, other);
}
Tensor le_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Le>(out, self, other);
}

// self, other broadcast -> self > other
Tensor gt_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Gt>(Tensor(), self, other);
}
Tensor gt_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Gt>(Tensor(), self, other);
}
Tensor gt_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Gt>(self, self, other);
}
Tensor gt_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Gt>(self, self, other);
}
Tensor gt_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Gt>(out, self, other);
}
Tensor gt_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Gt>(out, self, other);
}

// self, other broadcast -> self >= other
Tensor ge_tensor(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ge>(Tensor(), self, other);
}
Tensor ge_scalar(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ge>(Tensor(), self, other);
}
Tensor ge_tensor_(const Tensor& self, const Tensor& other) {
  return compare<Cmp::Ge>(self, self, other);
}
Tensor ge_scalar_(const Tensor& self, const Scalar& other) {
  return compare<Cmp::Ge>(self, self, other);
}
Tensor ge_tensor_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return compare<Cmp::Ge>(out, self, other);
}
Tensor ge_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  return compare<Cmp::Ge>(out, self, other);
}

// --- maximum / minimum, clamp, where ------------------------------------------------------------

// self, other broadcast -> elementwise max / min, NaN if either is NaN
Tensor maximum(const Tensor& self, const Tensor& other) {
  return max_min_impl<true>(Tensor(), self, other);
}
Tensor maximum_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return max_min_impl<true>(out, self, other);
}
Tensor minimum(const Tensor& self, const Tensor& other) {
  return max_min_impl<false>(Tensor(), self, other);
}
Tensor minimum_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  return max_min_impl<false>(out, self, other);
}

// --- clamp: self [*s] (min, max broadcast) -> [*s] ---------------------------------------------

using OptScalar = std::optional<Scalar>;
Tensor clamp(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return clamp_scalar_impl(Tensor(), self, min, max, Bound::Both);
}
Tensor clamp_(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return clamp_scalar_impl(self, self, min, max, Bound::Both);
}
Tensor clamp_out(const Tensor& self, const OptScalar& min, const OptScalar& max,
                 const Tensor& out) {
  return clamp_scalar_impl(out, self, min, max, Bound::Both);
}
Tensor clamp_tensor(const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_tensor_impl(Tensor(), self, min, max);
}
Tensor clamp_tensor_(const Tensor& self, const Tensor& min, const Tensor& max) {
  return clamp_tensor_impl(self, self, min, max);
}
Tensor clamp_tensor_out(const Tensor& self, const Tensor& min, const Tensor& max,
                        const Tensor& out) {
  return clamp_tensor_impl(out, self, min, max);
}
Tensor clamp_min(const Tensor& self, const Scalar& min) {
  return clamp_scalar_impl(Tensor(), self, min, std::nullopt, Bound::Min);
}
Tensor clamp_min_(const Tensor& self, const Scalar& min) {
  return clamp_scalar_impl(self, self, min, std::nullopt, Bound::Min);
}
Tensor clamp_min_out(const Tensor& self, const Scalar& min, const Tensor& out) {
  return clamp_scalar_impl(out, self, min, std::nullopt, Bound::Min);
}
Tensor clamp_min_tensor(const Tensor& self, const Tensor& min) {
  return clamp_tensor_impl(Tensor(), self, min, Tensor());
}
Tensor clamp_min_tensor_(const Tensor& self, const Tensor& min) {
  return clamp_tensor_impl(self, self, min, Tensor());
}
Tensor clamp_min_tensor_out(const Tensor& self, const Tensor& min, const Tensor& out) {
  return clamp_tensor_impl(out, self, min, Tensor());
}
Tensor clamp_max(const Tensor& self, const Scalar& max) {
  return clamp_scalar_impl(Tensor(), self, std::nullopt, max, Bound::Max);
}
Tensor clamp_max_(const Tensor& self, const Scalar& max) {
  return clamp_scalar_impl(self, self, std::nullopt, max, Bound::Max);
}
Tensor clamp_max_out(const Tensor& self, const Scalar& max, const Tensor& out) {
  return clamp_scalar_impl(out, self, std::nullopt, max, Bound::Max);
}
Tensor clamp_max_tensor(const Tensor& self, const Tensor& max) {
  return clamp_tensor_impl(Tensor(), self, Tensor(), max);
}
Tensor clamp_max_tensor_(const Tensor& self, const Tensor& max) {
  return clamp_tensor_impl(self, self, Tensor(), max);
}
Tensor clamp_max_tensor_out(const Tensor& self, const Tensor& max, const Tensor& out) {
  return clamp_tensor_impl(out, self, Tensor(), max);
}

// condition, self, other broadcast -> condition ? self : other, in result_type(self, other)
Tensor where_self(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return where_impl(Tensor(), condition, self, other);
}
Tensor where_self_out(const Tensor& condition, const Tensor& self, const Tensor& other,
                      const Tensor& out) {
  return where_impl(out, condition, self, other);
}

static Library cpu_compare(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("clamp", fn<&clamp>);
  m.impl("clamp_", fn<&clamp_>);
  m.impl("clamp.out", fn<&clamp_out>);
  m.impl("clamp.Tensor", fn<&clamp_tensor>);
  m.impl("clamp_.Tensor", fn<&clamp_tensor_>);
  m.impl("clamp.Tensor_out", fn<&clamp_tensor_out>);
  m.impl("clamp_min", fn<&clamp_min>);
  m.impl("clamp_min_", fn<&clamp_min_>);
  m.impl("clamp_min.out", fn<&clamp_min_out>);
  m.impl("clamp_min.Tensor", fn<&clamp_min_tensor>);
  m.impl("clamp_min_.Tensor", fn<&clamp_min_tensor_>);
  m.impl("clamp_min.Tensor_out", fn<&clamp_min_tensor_out>);
  m.impl("clamp_max", fn<&clamp_max>);
  m.impl("clamp_max_", fn<&clamp_max_>);
  m.impl("clamp_max.out", fn<&clamp_max_out>);
  m.impl("clamp_max.Tensor", fn<&clamp_max_tensor>);
  m.impl("clamp_max_.Tensor", fn<&clamp_max_tensor_>);
  m.impl("clamp_max.Tensor_out", fn<&clamp_max_tensor_out>);
  m.impl("maximum", fn<&maximum>);
  m.impl("maximum.out", fn<&maximum_out>);
  m.impl("minimum", fn<&minimum>);
  m.impl("minimum.out", fn<&minimum_out>);
  m.impl("where.self", fn<&where_self>);
  m.impl("where.self_out", fn<&where_self_out>);
  m.impl("eq.Scalar", fn<&eq_scalar>);
  m.impl("eq.Tensor", fn<&eq_tensor>);
  m.impl("eq_.Scalar", fn<&eq_scalar_>);
  m.impl("eq_.Tensor", fn<&eq_tensor_>);
  m.impl("eq.Scalar_out", fn<&eq_scalar_out>);
  m.impl("eq.Tensor_out", fn<&eq_tensor_out>);
  m.impl("ne.Scalar", fn<&ne_scalar>);
  m.impl("ne.Tensor", fn<&ne_tensor>);
  m.impl("ne_.Scalar", fn<&ne_scalar_>);
  m.impl("ne_.Tensor", fn<&ne_tensor_>);
  m.impl("ne.Scalar_out", fn<&ne_scalar_out>);
  m.impl("ne.Tensor_out", fn<&ne_tensor_out>);
  m.impl("lt.Scalar", fn<&lt_scalar>);
  m.impl("lt.Tensor", fn<&lt_tensor>);
  m.impl("lt_.Scalar", fn<&lt_scalar_>);
  m.impl("lt_.Tensor", fn<&lt_tensor_>);
  m.impl("lt.Scalar_out", fn<&lt_scalar_out>);
  m.impl("lt.Tensor_out", fn<&lt_tensor_out>);
  m.impl("le.Scalar", fn<&le_scalar>);
  m.impl("le.Tensor", fn<&le_tensor>);
  m.impl("le_.Scalar", fn<&le_scalar_>);
  m.impl("le_.Tensor", fn<&le_tensor_>);
  m.impl("le.Scalar_out", fn<&le_scalar_out>);
  m.impl("le.Tensor_out", fn<&le_tensor_out>);
  m.impl("gt.Scalar", fn<&gt_scalar>);
  m.impl("gt.Tensor", fn<&gt_tensor>);
  m.impl("gt_.Scalar", fn<&gt_scalar_>);
  m.impl("gt_.Tensor", fn<&gt_tensor_>);
  m.impl("gt.Scalar_out", fn<&gt_scalar_out>);
  m.impl("gt.Tensor_out", fn<&gt_tensor_out>);
  m.impl("ge.Scalar", fn<&ge_scalar>);
  m.impl("ge.Tensor", fn<&ge_tensor>);
  m.impl("ge_.Scalar", fn<&ge_scalar_>);
  m.impl("ge_.Tensor", fn<&ge_tensor_>);
  m.impl("ge.Scalar_out", fn<&ge_scalar_out>);
  m.impl("ge.Tensor_out", fn<&ge_tensor_out>);
});

}  // namespace opscope::cpu
