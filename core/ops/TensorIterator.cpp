// TensorIterator, building: the config, the operands, shape, dtypes, outputs and iteration dims
// (see core/ops/TensorIterator.h). Running the loops is TensorIteratorLoops.cpp.
#include "core/ops/TensorIterator.h"

#include <algorithm>
#include <cstring>

#include "core/ops/copy.h"
#include "core/runtime/CheckedMath.h"

namespace opscope {

// --- scalars as tensors ---------------------------------------------------------------------

Tensor scalar_to_tensor(const Scalar& s, ScalarType dtype) {
  Tensor t = make_empty({}, dtype);
  dispatch_dtype(dtype, "scalar_to_tensor", [&]<typename T>() { *t.data_ptr<T>() = s.to<T>(); });
  return t;
}

Tensor wrapped_scalar_tensor(const Scalar& s) {
  Tensor t = scalar_to_tensor(s, s.type());
  t->set_wrapped_number(true);
  return t;
}

Scalar item(const Tensor& t) {
  OPSCOPE_CHECK(t.numel() == 1, "a Tensor with ", t.numel(),
                " elements cannot be converted to Scalar");
  return read_element(t, 0);
}

Scalar read_element(const Tensor& t, int64_t element_offset) {
  OPSCOPE_CHECK(t.device().is_cpu(), "reading a value of a ", t.device().str(),
                " tensor needs a copy to the CPU first");
  return dispatch_dtype(t.dtype(), "item", [&]<typename T>() -> Scalar {
    T v = t.data_ptr<T>()[element_offset];
    if constexpr (std::is_same_v<T, bool>)
      return Scalar(v);
    else if constexpr (std::is_integral_v<T>)
      return Scalar(static_cast<int64_t>(v));
    else
      return Scalar(static_cast<double>(static_cast<acc_type_t<T>>(v)));
  });
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  ResultTypeState state;
  state.add_tensor(a.dtype(), a.dim(), a->is_wrapped_number());
  state.add_tensor(b.dtype(), b.dim(), b->is_wrapped_number());
  return state.result();
}

ScalarType result_type(const Tensor& a, const Scalar& b) {
  ResultTypeState state;
  state.add_tensor(a.dtype(), a.dim(), a->is_wrapped_number());
  state.add_scalar(b.type());
  return state.result();
}

// --- memory overlap (see Note [Memory overlap]) ----------------------------------------------

bool is_non_overlapping_and_dense(const TensorImpl& t) {
  if (t.is_contiguous()) return true;
  IntArrayRef sizes = t.sizes(), strides = t.strides();
  // Dims of size >= 2 sorted by stride must be contiguous in that order; size-0/1 dims are free.
  DimVector dims;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return true;  // an empty tensor covers no memory at all
    if (sizes[d] >= 2) dims.push_back(static_cast<int64_t>(d));
  }
  std::sort(dims.begin(), dims.end(),
            [&](int64_t a, int64_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (int64_t d : dims) {
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

MemOverlap has_internal_overlap(const TensorImpl& t) {
  if (t.is_contiguous() || is_non_overlapping_and_dense(t)) return MemOverlap::No;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.stride(d) == 0 && t.size(d) > 1) return MemOverlap::Yes;
  return MemOverlap::TooHard;
}

MemOverlapStatus get_overlap_status(const TensorImpl& a, const TensorImpl& b) {
  if (&a == &b) return MemOverlapStatus::Full;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlapStatus::No;
  if (a.storage().get() != b.storage().get()) return MemOverlapStatus::No;
  if (!is_non_overlapping_and_dense(a) || !is_non_overlapping_and_dense(b))
    return MemOverlapStatus::TooHard;
  auto* a_begin = static_cast<char*>(a.data());
  auto* b_begin = static_cast<char*>(b.data());
  char* a_end = a_begin + a.numel() * static_cast<int64_t>(a.itemsize());
  char* b_end = b_begin + b.numel() * static_cast<int64_t>(b.itemsize());
  if (a_begin == b_begin && a_end == b_end) {
    // Same block but another order (x.t() against x) pairs different elements: partial.
    IntArrayRef as = a.strides(), bs = b.strides();
    bool same_strides = as.size() == bs.size() && std::equal(as.begin(), as.end(), bs.begin());
    return same_strides ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
  }
  if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::Partial;
  return MemOverlapStatus::No;
}

void assert_no_internal_overlap(const TensorImpl& t) {
  OPSCOPE_CHECK(has_internal_overlap(t) != MemOverlap::Yes,
                "unsupported operation: more than one element of the written-to tensor refers to "
                "a single memory location. Please clone() the tensor before performing the "
                "operation.");
}

void assert_no_partial_overlap(const TensorImpl& a, const TensorImpl& b) {
  OPSCOPE_CHECK(get_overlap_status(a, b) != MemOverlapStatus::Partial,
                "unsupported operation: some elements of the input tensor and the written-to "
                "tensor refer to a single memory location. Please clone() the tensor before "
                "performing the operation.");
}

constexpr int64_t kMaxInt = std::numeric_limits<int64_t>::max();

// --- out= resizing --------------------------------------------------------------------------

static void resize_impl(TensorImpl& t, IntArrayRef sizes, IntArrayRef strides) {
  compute_numel(sizes);  // torch's order: the sizes' messages, then the storage's
  auto needed =
      static_cast<size_t>(storage_nbytes(sizes, strides, t.itemsize(), t.storage_offset()));
  const Storage& old = t.storage();
  if (needed > old->nbytes()) {
    OPSCOPE_CHECK(!old->is_external(), "Trying to resize storage that is not resizable");
    auto grown = make_intrusive<StorageImpl>(needed, get_allocator(old->device().type));
    if (old->nbytes() > 0 && old->device().is_cpu()) {
      std::memcpy(grown->data(), old->data(), old->nbytes());
    } else if (old->nbytes() > 0) {
      // Device memory is moved by the device's copy_ kernel: both storages as byte tensors.
      const auto n = static_cast<int64_t>(old->nbytes());
      const int64_t one = 1;
      Tensor from(make_intrusive<TensorImpl>(old, ScalarType::UInt8, IntArrayRef(&n, 1),
                                             IntArrayRef(&one, 1), 0));
      Tensor to(make_intrusive<TensorImpl>(grown, ScalarType::UInt8, IntArrayRef(&n, 1),
                                           IntArrayRef(&one, 1), 0));
      ops::copy_(to, from);
    }
    t.set_storage(std::move(grown));
  }
  t.set_geometry(sizes, strides, t.storage_offset());
}

void resize_output(const Tensor& t, IntArrayRef sizes, std::optional<IntArrayRef> strides) {
  bool same_sizes = std::ranges::equal(t.sizes(), sizes);
  if (same_sizes && (!strides || std::ranges::equal(t.strides(), *strides))) return;
  if (strides) {
    resize_impl(*t.impl(), sizes, *strides);
  } else {
    resize_impl(*t.impl(), sizes, contiguous_strides(sizes));
  }
}

// --- config ---------------------------------------------------------------------------------

void TensorIteratorConfig::throw_cannot_add(bool is_output) const {
  OPSCOPE_CHECK(num_ < kMaxOperands, "TensorIterator supports at most ", kMaxOperands, " operands");
  OPSCOPE_CHECK(!is_output || num_ == num_outputs_,
                "TensorIteratorConfig: add outputs before inputs");
  throw Error("TensorIteratorConfig: cannot add an operand");
}

TensorIteratorConfig& TensorIteratorConfig::add_owned_output(Tensor t) {
  add(nullptr, true);
  owned_[num_ - 1] = std::move(t);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_owned_input(Tensor t) {
  add(nullptr, false);
  owned_[num_ - 1] = std::move(t);
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::promote_inputs_to_common_dtype(bool v) {
  promote_inputs_ = v;
  if (v) check_all_same_dtype_ = false;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::cast_common_dtype_to_outputs(bool v) {
  cast_to_outputs_ = v;
  if (v) check_all_same_dtype_ = false;
  return *this;
}

TensorIterator TensorIteratorConfig::build() const {
  return TensorIterator(*this);
}

TensorIterator TensorIterator::binary_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(a)
      .add_input(b)
      .promote_inputs_to_common_dtype(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

TensorIterator TensorIterator::binary_float_op(const Tensor& out, const Tensor& a,
                                               const Tensor& b) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(a)
      .add_input(b)
      .promote_inputs_to_common_dtype(true)
      .promote_integer_inputs_to_float(true)
      .cast_common_dtype_to_outputs(true)
      .enforce_safe_casting_to_output(true)
      .build();
}

TensorIterator TensorIterator::comparison_op(const Tensor& out, const Tensor& a, const Tensor& b) {
  TensorIteratorConfig config;
  config.add_output(out).add_input(a).add_input(b).promote_inputs_to_common_dtype(true);
  // A Bool result is written directly (kernels provide a T, T -> bool loop); another out= dtype
  // gets the comparison in the common dtype, cast back.
  if (!out.defined())
    config.static_dtype(ScalarType::Bool);
  else if (out.dtype() != ScalarType::Bool)
    config.cast_common_dtype_to_outputs(true);
  return config.build();
}

TensorIterator TensorIterator::unary_op(const Tensor& out, const Tensor& a) {
  return TensorIteratorConfig().add_output(out).add_input(a).build();
}

TensorIterator TensorIterator::nullary_op(const Tensor& out) {
  return TensorIteratorConfig()
      .add_output(out)
      .check_mem_overlap(false)
      .check_all_same_dtype(false)
      .resize_outputs(false)
      .build();
}

// --- build ----------------------------------------------------------------------------------

TensorIterator::TensorIterator(const TensorIteratorConfig& config) {
  populate(config);
  if (trivial_setup(config)) return;
  if (config.check_mem_overlap_) check_mem_overlaps();
  compute_shape(config);
  mark_resize_outputs(config);
  compute_types(config);
  if (!fast_setup()) {
    compute_strides();
    reorder_dimensions();
    allocate_or_resize_outputs();
    coalesce_dimensions();
  }
  if (has_output_temps_) make_output_temporaries();
  finish();
}

void TensorIterator::populate(const TensorIteratorConfig& config) {
  num_ = config.num_;
  num_outputs_ = config.num_outputs_;
  bool have_device = false;
  for (int i = 0; i < num_; ++i) {
    Operand& op = ops_[i];
    const Tensor* borrowed = config.borrowed_[i];
    if (borrowed) {
      op.impl = borrowed->impl();
    } else {
      op.owned = config.owned_[i];
      op.impl = op.owned.impl();
    }
    op.is_output = i < num_outputs_;
    OPSCOPE_CHECK(op.impl || op.is_output, "TensorIterator: input ", i - num_outputs_,
                  " is an undefined tensor");
    if (!op.impl) continue;
    op.dtype = op.impl->dtype();
    // All operands on one device; a 0-d CPU input may join any device (a CPU scalar), and
    // decides the device only when no other operand does (2 ** cuda_tensor runs on the GPU).
    Device d = op.impl->device();
    const bool cpu_scalar = d.is_cpu() && op.impl->dim() == 0 && !op.is_output;
    if (!have_device) {
      device_ = d;
      have_device = !cpu_scalar;
    } else if (!(d == device_) && !cpu_scalar) {
      throw Error(
          detail::str("Expected all tensors to be on the same device, but found at "
                      "least two devices, ",
                      device_.str(), " and ", d.str(), "!"));
    }
  }
  for (int i = 0; i < num_outputs_; ++i)
    for (int j = num_outputs_; j < num_; ++j)
      if (ops_[i].impl && ops_[i].impl == ops_[j].impl) ops_[i].is_read_write = true;
}

void TensorIterator::check_mem_overlaps() const {
  for (int i = 0; i < num_outputs_; ++i) {
    const TensorImpl* out = ops_[i].impl;
    if (!out) continue;
    assert_no_internal_overlap(*out);
    for (int j = num_outputs_; j < num_; ++j)
      if (ops_[j].impl != out) assert_no_partial_overlap(*out, *ops_[j].impl);
  }
}

// Equal int lists; a plain loop beats memcmp for the few dims tensors have.
static inline bool same_ints(IntArrayRef a, IntArrayRef b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// The common case in one pass: every defined operand contiguous, of the first input's sizes and
// dtype, no wrapped numbers, no memory shared between an output and another input. Then none of
// the general steps can change anything or raise: the iteration is one flat dim of numel.
bool TensorIterator::trivial_setup(const TensorIteratorConfig& config) {
  if (num_ == num_outputs_) return false;
  const TensorImpl* first = ops_[num_outputs_].impl;
  ScalarType dtype = first->dtype();
  IntArrayRef sizes = first->sizes();
  if (config.promote_int_to_float_ && is_integral(dtype, /*include_bool=*/true)) return false;
  for (int i = num_outputs_; i < num_; ++i) {
    const TensorImpl* in = ops_[i].impl;
    if (in->dtype() != dtype || in->is_wrapped_number() || !in->is_contiguous() ||
        !same_ints(in->sizes(), sizes))
      return false;
  }
  for (int i = 0; i < num_outputs_; ++i) {
    const TensorImpl* out = ops_[i].impl;
    if (!out) continue;
    if (out->dtype() != dtype || !out->is_contiguous() || !same_ints(out->sizes(), sizes))
      return false;
    if (config.check_mem_overlap_)
      for (int j = num_outputs_; j < num_; ++j)
        if (ops_[j].impl != out && ops_[j].impl->storage().get() == out->storage().get())
          return false;
  }
  common_dtype_ = dtype;
  broadcast_shape_ = DimVector(sizes);
  numel_ = first->numel();
  bool flat = !sizes.empty();
  if (flat) shape_.assign(1, numel_);
  for (int i = 0; i < num_; ++i) {
    Operand& op = ops_[i];
    if (!op.impl) {
      op.dtype = config.static_dtype_.value_or(dtype);
      op.owned = make_empty(sizes, op.dtype, device_);
      op.impl = op.owned.impl();
    }
    if (flat) op.stride_bytes.assign(1, static_cast<int64_t>(op.impl->itemsize()));
    op.data = static_cast<char*>(op.impl->data());
  }
  return true;
}

DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b) {
  size_t n = std::max(a.size(), b.size());
  DimVector out(n);
  for (size_t i = n; i-- > 0;) {
    size_t from_end = n - 1 - i;
    int64_t size_a = from_end < a.size() ? a[a.size() - 1 - from_end] : 1;
    int64_t size_b = from_end < b.size() ? b[b.size() - 1 - from_end] : 1;
    OPSCOPE_CHECK(size_a == size_b || size_a == 1 || size_b == 1, "The size of tensor a (", size_a,
                  ") must match the size of tensor b (", size_b, ") at non-singleton dimension ",
                  i);
    out[i] = size_a == 1 ? size_b : size_a;
  }
  return out;
}

void TensorIterator::compute_shape(const TensorIteratorConfig& config) {
  bool first = true;
  for (int i = 0; i < num_; ++i) {
    const Operand& op = ops_[i];
    if (!op.impl) continue;
    // out= tensors do not broadcast: they get the inputs' shape (see mark_resize_outputs).
    if (config.resize_outputs_ && op.is_output) continue;
    IntArrayRef sizes = op.impl->sizes();
    if (first) {
      broadcast_shape_ = DimVector(sizes);
      first = false;
    } else if (!same_ints(sizes, broadcast_shape_)) {
      all_same_shape_ = false;
      broadcast_shape_ = broadcast_shapes(broadcast_shape_, sizes);
    }
  }
}

void TensorIterator::mark_resize_outputs(const TensorIteratorConfig& config) {
  for (int i = 0; i < num_outputs_; ++i) {
    Operand& op = ops_[i];
    if (!op.impl || same_ints(op.impl->sizes(), broadcast_shape_)) continue;
    OPSCOPE_CHECK(config.resize_outputs_ && !op.is_read_write, "output with shape ",
                  shape_str(op.impl->sizes()), " doesn't match the broadcast shape ",
                  shape_str(broadcast_shape_));
    op.will_resize = true;
  }
}

// Writes `src`'s one element, converted to `to`, into `dst`.
static void convert_one(const TensorImpl& src, ScalarType to, void* dst) {
  dispatch_dtype(src.dtype(), "TensorIterator", [&]<typename S>() {
    S v = *static_cast<const S*>(src.data());
    dispatch_dtype(to, "TensorIterator",
                   [&]<typename D>() { *static_cast<D*>(dst) = convert<D>(v); });
  });
}

void TensorIterator::compute_types(const TensorIteratorConfig& config) {
  ScalarType common = ScalarType::Undefined, out_dtype = ScalarType::Undefined;
  bool different_inputs = false, different_outputs = false, undefined_outputs = false;
  bool any_wrapped = false;
  for (int i = 0; i < num_; ++i) {
    Operand& op = ops_[i];
    if (!op.impl) {
      if (config.static_dtype_)
        op.dtype = *config.static_dtype_;
      else
        undefined_outputs = true;
      continue;
    }
    ScalarType& first = op.is_output ? out_dtype : common;
    if (first == ScalarType::Undefined)
      first = op.dtype;
    else if (op.dtype != first)
      (op.is_output ? different_outputs : different_inputs) = true;
    if (!op.is_output && op.impl->is_wrapped_number()) any_wrapped = true;
  }

  if (config.check_all_same_dtype_ &&
      (different_inputs || different_outputs ||
       (out_dtype != ScalarType::Undefined && out_dtype != common))) {
    for (int i = 0; i < num_; ++i)
      if (ops_[i].impl)
        OPSCOPE_CHECK(ops_[i].dtype == common, "Found dtype ", cpp_name(ops_[i].dtype),
                      " but expected ", cpp_name(common));
  }

  if (!undefined_outputs && !config.promote_inputs_ && !config.cast_to_outputs_ &&
      !config.enforce_safe_casting_) {
    common_dtype_ = different_inputs ? ScalarType::Undefined : common;
    return;
  }

  // See Note [Type promotion]. Wrapped numbers promote differently from tensors of their dtype
  // even when every input has one dtype (two Python floats give the default dtype).
  if (config.promote_inputs_ && (different_inputs || any_wrapped)) {
    ResultTypeState state;
    for (int i = num_outputs_; i < num_; ++i)
      state.add_tensor(ops_[i].dtype, ops_[i].impl->dim(), ops_[i].impl->is_wrapped_number());
    common = state.result();
  }
  if (config.promote_int_to_float_ && is_integral(common, /*include_bool=*/true))
    common = default_dtype();
  common_dtype_ = common;

  for (int i = 0; i < num_; ++i) {
    Operand& op = ops_[i];
    if (!op.impl) {
      if (!config.static_dtype_) op.dtype = common;
      continue;
    }
    if (op.dtype == common) continue;
    if (op.is_output) {
      OPSCOPE_CHECK(!config.enforce_safe_casting_ || can_cast(common, op.dtype), "result type ",
                    cpp_name(common), " can't be cast to the desired output type ",
                    cpp_name(op.dtype));
      if (config.cast_to_outputs_) {
        op.needs_temp = true;
        has_output_temps_ = true;
      }
    } else if (config.promote_inputs_) {
      if (op.impl->numel() == 1 && op.impl->device().is_cpu()) {
        // One value (a Python number, a 0-d tensor): converted in place, no temporary tensor.
        convert_one(*op.impl, common, op.scalar);
        op.inline_scalar = true;
      } else {
        // As PyTorch: the trace shows aten::to -> aten::_to_copy -> aten::copy_.
        op.owned = ops::to(Tensor(intrusive_ptr<TensorImpl>(op.impl)), common);
        op.impl = op.owned.impl();
      }
      op.dtype = common;
    }
  }
}

void TensorIterator::set_output(Operand& op, IntArrayRef sizes, IntArrayRef strides) {
  if (!op.impl) {
    // torch allocates a contiguous output with empty(), not empty_strided(): its message on
    // overflow names the sizes only.
    op.owned = std::ranges::equal(strides, contiguous_strides(sizes))
                   ? make_empty(sizes, op.dtype, device_)
                   : make_empty_strided(sizes, strides, op.dtype, device_);
    op.impl = op.owned.impl();
  } else if (op.will_resize) {
    resize_impl(*op.impl, sizes, strides);
  }
}

bool TensorIterator::fast_setup() {
  if (!all_same_shape_) return false;
  // Which dense layout every defined operand shares, if any: contiguous, or the strides of the
  // first operand when all have exactly those strides and they cover memory densely.
  const TensorImpl* first = nullptr;
  bool all_contiguous = true, all_same_strides = true;
  for (int i = 0; i < num_; ++i) {
    const Operand& op = ops_[i];
    if (!op.impl || op.will_resize) continue;
    all_contiguous = all_contiguous && op.impl->is_contiguous();
    if (!first)
      first = op.impl;
    else if (!same_ints(op.impl->strides(), first->strides()))
      all_same_strides = false;
  }
  DimVector strides;
  if (all_contiguous) {
    strides = contiguous_strides(broadcast_shape_);
  } else if (all_same_strides && is_non_overlapping_and_dense(*first)) {
    strides = DimVector(first->strides());
  } else {
    return false;
  }
  for (int i = 0; i < num_outputs_; ++i)
    if (!ops_[i].impl || ops_[i].will_resize) set_output(ops_[i], broadcast_shape_, strides);

  // Every operand visits memory in the same order: one flat dim of numel elements.
  numel_ = compute_numel(broadcast_shape_);
  bool flat = !broadcast_shape_.empty();
  shape_.clear();
  if (flat) shape_.push_back(numel_);
  for (int i = 0; i < num_; ++i) {
    Operand& op = ops_[i];
    op.stride_bytes.clear();
    if (flat)
      op.stride_bytes.push_back(op.inline_scalar ? 0 : static_cast<int64_t>(op.impl->itemsize()));
  }
  return true;
}

void TensorIterator::compute_strides() {
  size_t ndim = broadcast_shape_.size();
  for (int i = 0; i < num_; ++i) {
    Operand& op = ops_[i];
    op.stride_bytes.clear();
    if (!op.impl || op.will_resize) continue;  // set when allocated
    op.stride_bytes.assign(ndim, 0);
    if (op.inline_scalar) continue;
    size_t offset = ndim - static_cast<size_t>(op.impl->dim());
    auto itemsize = static_cast<int64_t>(op.impl->itemsize());
    for (int64_t d = 0; d < op.impl->dim(); ++d) {
      // A dim of size 1 against a larger broadcast dim repeats its one element: stride 0.
      bool broadcast = op.impl->size(d) == 1 && broadcast_shape_[offset + d] != 1;
      // An empty tensor's stride may be anything, even past INT64_MAX / itemsize: it is never
      // stepped through. See Note [Size arithmetic is checked].
      op.stride_bytes[offset + d] = broadcast ? 0 : mul_or(op.impl->stride(d), itemsize, kMaxInt);
    }
  }
}

void TensorIterator::reorder_dimensions() {
  // perm_[i] is the tensor dim that iteration dim i walks; start from row-major order (the
  // last tensor dim innermost), then sort dims by stride, innermost first.
  int ndim = static_cast<int>(broadcast_shape_.size());
  perm_.resize(ndim);
  for (int i = 0; i < ndim; ++i) perm_[i] = ndim - 1 - i;

  // > 0: tensor dim d1 should iterate inside d0; < 0: keep; 0: no operand has an opinion.
  // The first operand whose strides differ (neither broadcast) decides; equal strides put the
  // smaller dim inside.
  auto should_swap = [&](int64_t d0, int64_t d1) {
    for (int k = 0; k < num_; ++k) {
      const Operand& op = ops_[k];
      if (op.stride_bytes.empty() || op.will_resize) continue;
      int64_t s0 = op.stride_bytes[d0], s1 = op.stride_bytes[d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (broadcast_shape_[d0] > broadcast_shape_[d1]) return 1;
    }
    return 0;
  };
  // Insertion sort: stable, and it stops at the first operand that says "keep".
  for (int i = 1; i < ndim; ++i) {
    int d1 = i;
    for (int d0 = i - 1; d0 >= 0; --d0) {
      int cmp = should_swap(perm_[d0], perm_[d1]);
      if (cmp > 0) {
        std::swap(perm_[d0], perm_[d1]);
        d1 = d0;
      } else if (cmp < 0) {
        break;
      }
    }
  }

  shape_.resize(ndim);
  for (int i = 0; i < ndim; ++i) shape_[i] = broadcast_shape_[perm_[i]];
  for (int k = 0; k < num_; ++k) {
    Operand& op = ops_[k];
    if (op.stride_bytes.empty()) continue;
    DimVector permuted(ndim);
    for (int i = 0; i < ndim; ++i) permuted[i] = op.stride_bytes[perm_[i]];
    op.stride_bytes = permuted;
  }
}

void TensorIterator::allocate_or_resize_outputs() {
  int ndim = static_cast<int>(shape_.size());
  for (int i = 0; i < num_outputs_; ++i) {
    Operand& op = ops_[i];
    if (op.impl && !op.will_resize) continue;
    // Dense in iteration order: the inputs' memory layout (row-major when perm_ is the identity).
    DimVector sizes(ndim), strides(ndim);
    // Saturating, as contiguous_strides: only an empty output's strides can overflow, and then
    // set_output reports the storage size torch reports.
    int64_t next = 1;
    for (int d = 0; d < ndim; ++d) {
      sizes[perm_[d]] = shape_[d];
      strides[perm_[d]] = next;
      next = mul_or(next, std::max<int64_t>(shape_[d], 1), kMaxInt);
    }
    set_output(op, sizes, strides);
    auto itemsize = static_cast<int64_t>(element_size(op.dtype));
    op.stride_bytes.resize(ndim);
    for (int d = 0; d < ndim; ++d)
      op.stride_bytes[d] = mul_or(strides[perm_[d]], itemsize, kMaxInt);
  }
}

void TensorIterator::coalesce_dimensions() {
  int ndim = static_cast<int>(shape_.size());
  if (ndim <= 1) return;
  // See Note [Iteration dims]: dims d0 (inner) and d1 merge when d1 steps as d0 * shape[d0].
  auto can_merge = [&](int d0, int d1) {
    if (shape_[d0] == 1 || shape_[d1] == 1) return true;
    int64_t merged, step;  // an empty iteration's sizes and strides may be huge: no merge then
    if (mul_overflows(shape_[d0], shape_[d1], &merged)) return false;
    for (int k = 0; k < num_; ++k) {
      const DimVector& s = ops_[k].stride_bytes;
      if (mul_overflows(s[d0], shape_[d0], &step) || step != s[d1]) return false;
    }
    return true;
  };
  auto take_strides = [&](int to, int from) {
    for (int k = 0; k < num_; ++k) ops_[k].stride_bytes[to] = ops_[k].stride_bytes[from];
  };
  int prev = 0;
  for (int d = 1; d < ndim; ++d) {
    if (can_merge(prev, d)) {
      if (shape_[prev] == 1) take_strides(prev, d);
      shape_[prev] *= shape_[d];
    } else {
      ++prev;
      if (prev != d) {
        take_strides(prev, d);
        shape_[prev] = shape_[d];
      }
    }
  }
  shape_.resize(prev + 1);
  for (int k = 0; k < num_; ++k) ops_[k].stride_bytes.resize(prev + 1);
}

void TensorIterator::make_output_temporaries() {
  // Outputs of another dtype than the common one: compute into a temporary with the same
  // geometry, and copy back in cast_outputs().
  for (int i = 0; i < num_outputs_; ++i) {
    Operand& op = ops_[i];
    if (!op.needs_temp) continue;
    op.original = Tensor(intrusive_ptr<TensorImpl>(op.impl));
    auto from = static_cast<int64_t>(op.impl->itemsize());
    auto to = static_cast<int64_t>(element_size(common_dtype_));
    op.owned =
        make_empty_strided(op.original.sizes(), op.original.strides(), common_dtype_, device_);
    op.impl = op.owned.impl();
    op.dtype = common_dtype_;
    for (int64_t& s : op.stride_bytes) s = s / from * to;
  }
}

void TensorIterator::finish() {
  // The operands are valid tensors, so this fits — but for a 0 among sizes whose partial
  // products overflow ([2**62, 2**62, 0]): count the 0 first.
  numel_ = std::ranges::find(shape_, 0) != shape_.end() ? 0 : check_numel(shape_);
  for (int i = 0; i < num_; ++i) {
    Operand& op = ops_[i];
    op.data =
        op.inline_scalar ? reinterpret_cast<char*>(op.scalar) : static_cast<char*>(op.impl->data());
  }
}

}  // namespace opscope
