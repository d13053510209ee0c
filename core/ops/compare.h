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

// --- clip ----------------------------------------------------------------------------------------
// clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor
// clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
inline constexpr Overloads clip{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clip"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clip.Tensor"}};
// clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)
// clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)
inline constexpr Overloads clip_{
    Op<Tensor(const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clip_"},
    Op<Tensor(const Tensor&, const Tensor&, const Tensor&)>{"aten::clip_.Tensor"}};
// clip.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)
// clip.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads clip_out{
    Op<Tensor(Out, const Tensor&, Default<const std::optional<Scalar>&>,
              Default<const std::optional<Scalar>&>)>{"aten::clip.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&)>{"aten::clip.Tensor_out"}};

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
// clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)
// clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads clamp_min_out{
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::clamp_min.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::clamp_min.Tensor_out"}};

// --- clamp_max -----------------------------------------------------------------------------------
// clamp_max(Tensor self, Scalar max) -> Tensor
// clamp_max.Tensor(Tensor self, Tensor max) -> Tensor
inline constexpr Overloads clamp_max{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_max"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_max.Tensor"}};
// clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)
// clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)
inline constexpr Overloads clamp_max_{
    Op<Tensor(const Tensor&, const Scalar&)>{"aten::clamp_max_"},
    Op<Tensor(const Tensor&, const Tensor&)>{"aten::clamp_max_.Tensor"}};
// clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)
// clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads clamp_max_out{
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::clamp_max.out"},
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::clamp_max.Tensor_out"}};

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
// where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&, const Tensor&, const Tensor&)> where_out{
    "aten::where.self_out"};

// --- isnan ---------------------------------------------------------------------------------------
// isnan(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isnan{"aten::isnan"};
// isnan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isnan_out{"aten::isnan.out"};

// --- isinf ---------------------------------------------------------------------------------------
// isinf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isinf{"aten::isinf"};
// isinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isinf_out{"aten::isinf.out"};

// --- isfinite ------------------------------------------------------------------------------------
// isfinite(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isfinite{"aten::isfinite"};

// --- isposinf ------------------------------------------------------------------------------------
// isposinf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isposinf{"aten::isposinf"};
// isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isposinf_out{"aten::isposinf.out"};

// --- isneginf ------------------------------------------------------------------------------------
// isneginf(Tensor self) -> Tensor
inline constexpr Op<Tensor(const Tensor&)> isneginf{"aten::isneginf"};
// isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Op<Tensor(Out, const Tensor&)> isneginf_out{"aten::isneginf.out"};

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
// ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads ne_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ne_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::ne_.Scalar"}};
// ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads ne_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::ne.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::ne.Scalar_out"}};

// lt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// lt.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads lt{Op<Tensor(const Tensor&, const Tensor&)>{"aten::lt.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::lt.Scalar"}};
// lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads lt_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::lt_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::lt_.Scalar"}};
// lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads lt_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::lt.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::lt.Scalar_out"}};

// le.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// le.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads le{Op<Tensor(const Tensor&, const Tensor&)>{"aten::le.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::le.Scalar"}};
// le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads le_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::le_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::le_.Scalar"}};
// le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads le_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::le.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::le.Scalar_out"}};

// gt.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// gt.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads gt{Op<Tensor(const Tensor&, const Tensor&)>{"aten::gt.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::gt.Scalar"}};
// gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads gt_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::gt_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::gt_.Scalar"}};
// gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads gt_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::gt.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::gt.Scalar_out"}};

// ge.Tensor(Tensor self, Tensor other) -> Tensor          self, other broadcast -> bool
// ge.Scalar(Tensor self, Scalar other) -> Tensor
inline constexpr Overloads ge{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ge.Tensor"},
                              Op<Tensor(const Tensor&, const Scalar&)>{"aten::ge.Scalar"}};
// ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)   1/0 in self's dtype
// ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)
inline constexpr Overloads ge_{Op<Tensor(const Tensor&, const Tensor&)>{"aten::ge_.Tensor"},
                               Op<Tensor(const Tensor&, const Scalar&)>{"aten::ge_.Scalar"}};
// ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
// ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
inline constexpr Overloads ge_out{
    Op<Tensor(Out, const Tensor&, const Tensor&)>{"aten::ge.Tensor_out"},
    Op<Tensor(Out, const Tensor&, const Scalar&)>{"aten::ge.Scalar_out"}};

// --- equal, isclose, allclose
// --------------------------------------------------------------------- equal(Tensor self, Tensor
// other) -> bool
inline constexpr Op<bool(const Tensor&, const Tensor&)> equal{"aten::equal"};
// isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False)
//     -> Tensor                                                   b8[broadcast(self, other)]
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<double>, Default<double>,
                           Default<bool>)>
    isclose{"aten::isclose"};
// allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False)
//     -> bool
inline constexpr Op<bool(const Tensor&, const Tensor&, Default<double>, Default<double>,
                         Default<bool>)>
    allclose{"aten::allclose"};

}  // namespace opscope::ops
