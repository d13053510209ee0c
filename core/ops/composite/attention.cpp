// scaled_dot_product_attention (schema in core/ops/nn.cpp, registered at the end of this file):
// torch 2.x's attention op, CompositeImplicitAutograd as its math path on CPU.
//
// Semantically: softmax(q k^T * scale + mask) v, scale = 1 / sqrt(E) unless given; a bool mask
// says which (query, key) pairs take part (False -> -inf), a float mask is added; is_causal
// lets query i see keys 0..i only (a lower-triangular bool mask). Dropout on the attention
// weights while dropout_p > 0.
//
// In implementation terms, as torch 2.x's _scaled_dot_product_attention_math: q and k are each
// scaled by sqrt(scale) before the product (for the range of the product), the mask is added in
// place to the product, and every step is an op so autograd differentiates it and a trace shows
// it.
#include <cmath>
#include <limits>
#include <optional>

#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/indexing.h"
#include "core/ops/linear.h"
#include "core/ops/reduce.h"
#include "core/ops/shape.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// dropout(Tensor input, float p, bool train) -> Tensor
constexpr Op<Tensor(const Tensor&, double, bool)> dropout_{"aten::dropout"};

// A bool mask (True = takes part) as the float mask to add: 0 where True, -inf where False.
Tensor additive_mask(const Tensor& mask, ScalarType dtype) {
  if (mask.dtype() != ScalarType::Bool) return mask;
  Tensor out = ops::zeros_like(mask, dtype);
  return ops::masked_fill_(out, ops::logical_not(mask), -std::numeric_limits<double>::infinity());
}

}  // namespace

// query (*, L, E), key (*, S, E), value (*, S, Ev), attn_mask broadcastable to (*, L, S)
// -> (*, L, Ev)
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask_, double dropout_p, bool is_causal,
                                    std::optional<double> scale) {
  OPSCOPE_CHECK(query.dim() >= 2 && key.dim() >= 2 && value.dim() >= 2,
                "scaled_dot_product_attention: expected query, key and value of at least 2 "
                "dimensions, got ",
                query.dim(), ", ", key.dim(), " and ", value.dim());
  OPSCOPE_CHECK(query.dtype() == key.dtype() && query.dtype() == value.dtype(),
                "Expected query, key, and value to have the same dtype, but got query.dtype: ",
                cpp_name(query.dtype()), " key.dtype: ", cpp_name(key.dtype()),
                " and value.dtype: ", cpp_name(value.dtype()), " instead.");
  const double s = scale.value_or(1.0 / std::sqrt(static_cast<double>(query.size(-1))));
  const double scaling_factor = std::sqrt(s);
  Tensor attn_mask = attn_mask_.defined() ? additive_mask(attn_mask_, query.dtype()) : Tensor();
  if (is_causal) {
    OPSCOPE_CHECK(!attn_mask_.defined(),
                  "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                  "is_causal=True");
    const int64_t L = query.size(-2), S = key.size(-2);
    attn_mask = additive_mask(
        ops::tril(ops::ones({L, S}, ScalarType::Bool, std::nullopt, query.device())), query.dtype());
  }
  const Tensor q = ops::mul(query, Scalar(scaling_factor));
  Tensor attn = ops::matmul(q, ops::mul(ops::transpose(key, -2, -1), Scalar(scaling_factor)));
  if (attn_mask.defined()) attn = ops::add_(attn, attn_mask);
  attn = ops::softmax(attn, -1);
  if (dropout_p > 0.0) attn = dropout_(attn, dropout_p, true);
  return ops::matmul(attn, value);
}

static Library composite_implicit_attention(Library::IMPL, "aten",
                                            DispatchKey::CompositeImplicitAutograd, [](Library& m) {
                                              m.impl("scaled_dot_product_attention",
                                                     fn<&scaled_dot_product_attention>);
                                            });

}  // namespace opscope::composite
