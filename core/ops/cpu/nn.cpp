// CPU kernels of the nn family that are neither losses nor normalization (declared in
// core/ops/nn.cpp; registered at the end of this file): native_dropout, embedding_renorm_; and
// embedding_dense_backward (zeros + index_add_, its body shared with CUDA in
// core/ops/composite/nn.cpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/nn.h"
#include "core/ops/unary.h"

namespace opscope::cpu {

// input (*) -> (output (*), mask (*) bool): as torch 1.13's native_dropout_cpu, the mask is drawn
// in the input's dtype (bernoulli_(1 - p)), the output is input * mask * 1 / (1 - p).
std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p,
                                          std::optional<bool> train) {
  if (input.numel() == 0) return {input, ops::empty_like(input)};
  if (train.value_or(true)) {
    const double p1m = 1. - p;
    const double scale = p1m == 0 ? 0. : 1. / p1m;  // p = 1 drops everything, without nan
    Tensor mask = ops::empty_like(input, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                  ops::kContiguousFormat);
    ops::bernoulli_(mask, p1m);
    Tensor output = ops::mul_(ops::mul(input, mask), scale);
    return {output, ops::to(mask, ScalarType::Bool)};
  }
  return {ops::clone(input), ops::ones_like(input, ScalarType::Bool)};
}

// self (V, D) in place, indices (*) int64 / int32: each row looked up whose p-norm exceeds
// max_norm is scaled by max_norm / (norm + 1e-7) — once, however often it is looked up.
Tensor embedding_renorm_(const Tensor& self, const Tensor& indices, double max_norm,
                         double norm_type) {
  OPSCOPE_CHECK(self.dim() == 2, "Expected 2-dimensional tensor, but got ", self.dim(),
                "-dimensional tensor for argument #1 'self' (while checking arguments for "
                "embedding_renorm_)");
  OPSCOPE_CHECK(indices.dtype() == ScalarType::Int64 || indices.dtype() == ScalarType::Int32,
                "Expected tensor for argument #2 'indices' to have one of the following scalar "
                "types: Long, Int; but got torch.",
                cpp_name(indices.dtype()),
                "Tensor instead (while checking arguments for embedding_renorm_)");
  const Tensor idx = ops::to(ops::contiguous(indices), ScalarType::Int64);
  const int64_t* p = idx.data_ptr<int64_t>();
  std::vector<int64_t> rows(p, p + idx.numel());
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  const int64_t V = self.size(0), D = self.size(1);
  const int64_t s0 = self.stride(0), s1 = self.stride(1);
  dispatch_dtype(self.dtype(), "embedding_renorm_cpu_", [&]<typename T>() {
    if constexpr (std::is_integral_v<T>) {
      throw Error(detail::str("\"embedding_renorm_cpu_\" not implemented for '",
                              cpp_name(self.dtype()), "'"));
    } else {
      T* w = self.data_ptr<T>();
      for (int64_t r : rows) {
        OPSCOPE_CHECK_INDEX(r >= -V && r < V, "select(): index ", r,
                            " out of range for tensor of size ", shape_str(self.sizes()),
                            " at dimension 0");
        T* row = w + (r < 0 ? r + V : r) * s0;  // negative rows count from the end, as select
        double norm = 0;
        if (norm_type == 2) {
          for (int64_t j = 0; j < D; ++j) norm += double(row[j * s1]) * double(row[j * s1]);
          norm = std::sqrt(norm);
        } else if (std::isinf(norm_type)) {
          for (int64_t j = 0; j < D; ++j) norm = std::max(norm, std::abs(double(row[j * s1])));
        } else if (norm_type == 0) {
          for (int64_t j = 0; j < D; ++j) norm += double(row[j * s1]) != 0;
        } else {
          for (int64_t j = 0; j < D; ++j)
            norm += std::pow(std::abs(double(row[j * s1])), norm_type);
          norm = std::pow(norm, 1.0 / norm_type);
        }
        if (norm > max_norm) {
          const double scale = max_norm / (norm + 1e-7);
          for (int64_t j = 0; j < D; ++j)
            row[j * s1] =
                static_cast<T>(acc_type_t<T>(row[j * s1]) * static_cast<acc_type_t<T>>(scale));
        }
      }
    }
  });
  return self;
}

// grad_output (*, D), indices (*) -> (num_weights, D): zeros + index_add_, as torch 1.13's
// embedding_dense_backward_cpu (the body is shared with CUDA: core/ops/composite/nn.cpp)
Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices,
                                int64_t num_weights, int64_t padding_idx,
                                bool scale_grad_by_freq) {
  return composite::embedding_dense_backward_from_ops(grad_output, indices, num_weights,
                                                      padding_idx, scale_grad_by_freq);
}

static Library cpu_nn(Library::IMPL, "aten", DispatchKey::CPU, [](Library& m) {
  m.impl("native_dropout", fn<&native_dropout>);
  m.impl("embedding_renorm_", fn<&embedding_renorm_>);
  m.impl("embedding_dense_backward", fn<&embedding_dense_backward>);
});

}  // namespace opscope::cpu
