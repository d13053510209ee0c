// Compare ops: elementwise answers from comparing values — eq, ne, lt, le, gt, ge, isclose, the
// classifications isnan / isinf / isfinite / isposinf / isneginf — the ops that select by a
// comparison — where (by a condition), clamp / clip / clamp_min / clamp_max (by bounds) — and
// the whole-tensor answers equal and allclose (ATen's TensorCompare and comparison ops).
//
// Semantically the comparisons and classifications return bool over the broadcast shape of
// their operands, compared in the operands' common dtype; where(cond, a, b) takes a where cond
// is true and b elsewhere, in a and b's common dtype; clamp keeps self's dtype (promoted with
// Tensor bounds). equal(a, b) is true when shapes match and every element compares equal (nan
// never does); isclose is |a - b| <= atol + rtol * |b| (and nan == nan when equal_nan);
// allclose is isclose(...).all() as a bool.
//
// In implementation terms, as torch 1.13: comparisons, where, clamp and the classifications
// are CPU kernels over a TensorIterator (core/ops/cpu/compare.cpp); equal stops at the first
// difference; isclose is CompositeImplicitAutograd, allclose CompositeExplicitAutograd over it
// (core/ops/composite/compare.cpp). See core/ops/README.md for what belongs in this family.
//
//   Tensor m = ops::gt(x, 1.5);                                  // b8[x's shape]
//   Tensor w = ops::where(ops::gt(x, 0), x, ops::zeros_like(x));
//   Tensor z = ops::clamp(x, 0.5, 2.0);
//   ops::equal(ops::ones({2}), ops::ones({2}))                   // true
#pragma once

#include <optional>

#include "core/dispatch/Op.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope::ops {

// --- clamp ---------------------------------------------------------------------------------------
// clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
// clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
inline constexpr Overloads clamp{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clamp"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clamp.Tensor"}};
// clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor: an alias of clamp
inline constexpr Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
                           Default<const std::optional<Scalar>&>)>
    clip{"aten::clip"};
// clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)
// clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
inline constexpr Overloads clamp_{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clamp_"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clamp_.Tensor"}};
// clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
// clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) ->
// Tensor(a!)
inline constexpr Overloads clamp_out{
    Op<Tensor(Out, const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clamp.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&)>{"aten::clamp.Tensor_out"}};

// --- clamp_min -----------------------------------------------------------------------------------
// clamp_min(Tensor self, Scalar min) -> Tensor
// clamp_min.Tensor(Tensor self, Tensor min) -> Tensor
inline constexpr Overloads clamp_min{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_min"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_min.Tensor"}};
// clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)
// clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)
inline constexpr Overloads clamp_min_{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_min_"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_min_.Tensor"}};

// --- where ---------------------------------------------------------------------------------------
// where.self(Tensor condition, Tensor self, Tensor other) -> Tensor
// where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor
// where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor
// where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor
inline constexpr Overloads where{
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::where.self"},
    Op<Tensor(const Tensor&, const Scalar&, const Tensor&)>{"aten::where.ScalarSelf"},
    Op<Tensor(const Tensor&, const Tensor&, const Scalar&)>{"aten::where.ScalarOther"},
    Op<Tensor(const Tensor&, const Scalar&, const Scalar&)>{"aten::where.Scalar"}};

// --- isnan ---------------------------------------------------------------------------------------
// isnan(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isnan{"aten::isnan"};

// --- isinf ---------------------------------------------------------------------------------------
// isinf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isinf{"aten::isinf"};

// --- isfinite ------------------------------------------------------------------------------------
// isfinite(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isfinite{"aten::isfinite"};

// --- comparisons: bool results (or 1 / 0 in self's dtype in place) ----------------------------
// eq.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// eq.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads eq{Op<Tensor(const Tensor&, const Tensor&)>{"aten::eq.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::eq.Scalar"}};
// eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads eq_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::eq_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::eq_.Scalar"}};
// eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads eq_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::eq.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::eq.Scalar_out"}};

// ne.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// ne.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads ne{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ne.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::ne.Scalar"}};

// lt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// lt.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads lt{Op<Tensor(const Tensor&, const Tensor&)>{"aten::lt.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::lt.Scalar"}};
// lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads lt_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::lt_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::lt_.Scalar"}};

// le.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// le.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads le{Op<Tensor(const Tensor&, const Tensor&)>{"aten::le.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::le.Scalar"}};

// gt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// gt.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads gt{Op<Tensor(const Tensor&, const Tensor&)>{"aten::gt.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::gt.Scalar"}};

// ge.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// ge.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads ge{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ge.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::ge.Scalar"}};

// --- equal, isclose, allclose
// --------------------------------------------------------------------- equal(Tensor self, Tensor
// other) -> bool
inline constexpr Op<bool(const Tensor&, const Tensor&)> equal{"aten::equal"};
// isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False)
//     -> Tensor                                                   b8[broadcast(self, other)]
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<double>, Default<double>,
                           Default<bool>)>
    isclose{"aten::isclose"};

}  // namespace opscope::ops
