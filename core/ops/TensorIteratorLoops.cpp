// TensorIterator, running: accessors, the serial and parallel walks over the iteration space,
// and the write-back of outputs computed in a temporary. Building is TensorIterator.cpp.
#include <omp.h>

#include <algorithm>
#include <exception>

#include "core/ops/copy.h"
#include "core/ops/TensorIterator.h"

namespace opscope {

// --- accessors ------------------------------------------------------------------------------

Tensor TensorIterator::output(int i) const {
  const Operand& op = ops_[i];
  if (op.original.defined()) return op.original;
  return Tensor(intrusive_ptr<TensorImpl>(op.impl));
}

Tensor TensorIterator::tensor(int arg) const {
  return Tensor(intrusive_ptr<TensorImpl>(ops_[arg].impl));
}

bool TensorIterator::is_contiguous() const {
  if (numel_ == 1) return true;
  if (shape_.size() != 1) return false;
  for (int i = 0; i < num_; ++i)
    if (ops_[i].stride_bytes[0] != static_cast<int64_t>(element_size(ops_[i].dtype))) return false;
  return true;
}

bool TensorIterator::is_scalar(int arg) const {
  for (int64_t s : ops_[arg].stride_bytes)
    if (s != 0) return false;
  return true;
}

void TensorIterator::cast_outputs() {
  for (int i = 0; i < num_outputs_; ++i) {
    Operand& op = ops_[i];
    if (op.needs_temp && op.original.defined()) ops::copy_(op.original, op.owned);
  }
}

// --- loops ----------------------------------------------------------------------------------

void TensorIterator::serial_for_each_impl(Loop2d loop, int64_t begin, int64_t end) const {
  if (begin >= end) return;
  const int nt = num_;
  const int nd = ndim();
  char* data[kMaxOperands];
  int64_t strides[2 * kMaxOperands];
  if (nd <= 1) {
    for (int k = 0; k < nt; ++k) {
      int64_t s = nd == 0 ? 0 : ops_[k].stride_bytes[0];
      data[k] = ops_[k].data + begin * s;
      strides[k] = s;
      strides[nt + k] = 0;
    }
    loop.fn(loop.ctx, nt, data, strides, end - begin, 1);
    return;
  }
  for (int k = 0; k < nt; ++k) {
    strides[k] = ops_[k].stride_bytes[0];
    strides[nt + k] = ops_[k].stride_bytes[1];
  }
  // counter: the multi-index of element `begin`, dim 0 fastest.
  DimVector counter(nd);
  int64_t rest = begin;
  for (int d = 0; d < nd; ++d) {
    counter[d] = rest % shape_[d];
    rest /= shape_[d];
  }
  while (begin < end) {
    for (int k = 0; k < nt; ++k) {
      char* p = ops_[k].data;
      for (int d = 0; d < nd; ++d) p += counter[d] * ops_[k].stride_bytes[d];
      data[k] = p;
    }
    // A partial run of dim 0, or as many whole runs of dim 0 as dim 1 has left.
    int64_t size0, size1;
    if (counter[0] == 0 && end - begin >= shape_[0]) {
      size0 = shape_[0];
      size1 = std::min(shape_[1] - counter[1], (end - begin) / shape_[0]);
      counter[1] += size1;
    } else {
      size0 = std::min(shape_[0] - counter[0], end - begin);
      size1 = 1;
      counter[0] += size0;
    }
    loop.fn(loop.ctx, nt, data, strides, size0, size1);
    begin += size0 * size1;
    for (int d = 0; d + 1 < nd; ++d) {  // carry
      if (counter[d] < shape_[d]) continue;
      counter[d] = 0;
      ++counter[d + 1];
    }
  }
}

void TensorIterator::for_each_impl(Loop2d loop, int64_t grain_size) {
  // Each thread takes one contiguous range of the iteration space (see core/runtime/Parallel.h).
  parallel_for(0, numel_, grain_size,
               [&](int64_t begin, int64_t end) { serial_for_each_impl(loop, begin, end); });
  if (has_output_temps_) cast_outputs();
}

}  // namespace opscope
