// Copies and conversions: copy_, to / _to_copy, clone, contiguous, fill_, zero_.
//
// Semantically these ops move values between tensors without computing anything: copy_ writes
// `src` (broadcast to self's shape, converted to self's dtype) into self; `to(dtype)` returns a
// tensor of another dtype — self itself when nothing would change and copy=False, as in
// PyTorch, so the result may alias; clone always returns new memory (same strides when self is
// dense, else row-major); contiguous returns self when it is already row-major, else a clone;
// fill_ and zero_ write one value everywhere, even into an expanded tensor.
//
// In implementation terms, as in PyTorch 1.13: copy_, fill_ and zero_ are CPU kernels over a
// TensorIterator (core/ops/TensorIterator.h); _to_copy and clone are CompositeExplicitAutograd
// (allocate, then copy_), `to` and `contiguous` CompositeImplicitAutograd, so a trace shows
//   to -> _to_copy -> empty_strided -> copy_        contiguous -> clone -> empty_like -> copy_
// (empty_strided / empty_like appear when the factories family has registered them).
//
//   Tensor a = make_empty({2, 3}, ScalarType::Float32);
//   ops::fill_(a, 1.5);
//   Tensor i = ops::to(a, ScalarType::Int64);            // i64[2, 3], all 1
//   Tensor t = ops::contiguous(ops::transpose(a, 0, 1)); // f32[3, 2], strides [2, 1]
#pragma once

#include <optional>
#include <string_view>

#include "core/dispatch/KernelFunction.h"
#include "core/dispatch/Op.h"
#include "core/ops/factories.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope {

// A non-optional `MemoryFormat` argument (contiguous's). Its schema default is the *name*
// `contiguous_format`, which the schema parser keeps as a str, while Python passes the integer:
// this type accepts both, and boxes as the integer.
struct MemoryFormatArg {
  int64_t value = ops::kContiguousFormat;               // the integers of core/ops/factories.h
  constexpr operator int64_t() const { return value; }  // NOLINT: boxes as an int IValue
};
// "contiguous_format" -> 0, ...; throws ValueError for another name.
int64_t parse_memory_format(std::string_view name);
template <>
struct IValueConv<MemoryFormatArg> {
  static MemoryFormatArg from(const IValue& v) {
    if (v.tag() == IValue::Tag::String) return {parse_memory_format(v.to_string())};
    return {v.to_int()};
  }
};

namespace ops {

// copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
// self [*s], src broadcastable to [*s] (any dtype) -> self
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<bool>)> copy_{"aten::copy_"};

// _to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//          bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None)
//   -> Tensor
// self [*s] -> new [*s] (dtype / device changed; self's strides when dense and preserved)
inline constexpr Op<Tensor(const Tensor&, Default<std::optional<ScalarType>>,
                           Default<std::optional<int64_t>>, Default<std::optional<Device>>,
                           Default<std::optional<bool>>, Default<bool>,
                           Default<std::optional<int64_t>>)>
    _to_copy{"aten::_to_copy"};

// to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False,
//          MemoryFormat? memory_format=None) -> Tensor(a)
// self [*s] -> [*s] of dtype; self itself when the dtype already matches and copy=False
// to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False,
//           bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)
// to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False,
//          MemoryFormat? memory_format=None) -> Tensor(a)
// self [*s] -> [*s] with other's dtype and device
// to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None,
//                 Device? device=None, bool? pin_memory=None, bool non_blocking=False,
//                 bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)
inline constexpr Overloads to{
    Op<Tensor(const Tensor&, ScalarType, Default<bool>, Default<bool>,
              Default<std::optional<int64_t>>)>{"aten::to.dtype"},
    Op<Tensor(const Tensor&, Device, ScalarType, Default<bool>, Default<bool>,
              Default<std::optional<int64_t>>)>{"aten::to.device"},
    Op<Tensor(const Tensor&, const Tensor&, Default<bool>, Default<bool>,
              Default<std::optional<int64_t>>)>{"aten::to.other"},
    Op<Tensor(const Tensor&, std::optional<ScalarType>, std::optional<int64_t>,
              std::optional<Device>, std::optional<bool>, Default<bool>, Default<bool>,
              Default<std::optional<int64_t>>)>{"aten::to.dtype_layout"}};

// clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
// self [*s] -> new [*s]; None means preserve_format
inline constexpr Op<Tensor(const Tensor&, Default<std::optional<int64_t>>)> clone{"aten::clone"};

// contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)
// self [*s] -> self when row-major, else clone(self, memory_format=contiguous_format)
inline constexpr Op<Tensor(const Tensor&, Default<MemoryFormatArg>)> contiguous{"aten::contiguous"};

// fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
// fill_.Tensor(Tensor(a!) self, Tensor value) -> Tensor(a!)      value: 0-d
inline constexpr Overloads fill_{Op<Tensor(const Tensor&, const Scalar&)>{"aten::fill_.Scalar"},
                                 Op<Tensor(const Tensor&, const Tensor&)>{"aten::fill_.Tensor"}};
// zero_(Tensor(a!) self) -> Tensor(a!)
inline constexpr Op<Tensor(const Tensor&)> zero_{"aten::zero_"};

}  // namespace ops

}  // namespace opscope
