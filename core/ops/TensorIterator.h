// TensorIterator: how an elementwise op walks its operands.
//
// Semantically, an elementwise op (add, mul, eq, copy_, fill_, ...) computes
//     out[i0, ..., in-1] = f(a[i0, ..., in-1], b[i0, ..., in-1], ...)
// for every index of the *broadcast shape* of its inputs. Before the kernel runs, the iterator
// settles everything that is not f itself, exactly as PyTorch's TensorIterator does:
//   - the shape: inputs broadcast against each other (an in-place output must already have the
//     broadcast shape, an out= tensor is resized to it);
//   - the dtypes: the common dtype of the inputs by PyTorch's promotion rules (see Note [Type
//     promotion] in core/runtime/ScalarType.h), which inputs are converted to and, for outputs of
//     another dtype, written back from, when the config asks for it;
//   - the outputs: allocated when undefined, with the memory layout of the inputs;
//   - safety: writes into tensors whose elements overlap each other or an input are refused
//     (see Note [Memory overlap]).
// The kernel then sees only raw pointers and byte strides.
//
//   TensorIterator iter = TensorIteratorConfig()
//                             .add_output(out)      // undefined: allocated by the iterator
//                             .add_input(a)
//                             .add_input(b)
//                             .promote_inputs_to_common_dtype(true)
//                             .cast_common_dtype_to_outputs(true)
//                             .build();
//   cpu_kernel(iter, [](float x, float y) -> float { return x + y; });  // core/ops/cpu/Loops.h
//   Tensor result = iter.output();
//
// In implementation terms: operands are kept in iteration order (outputs first, then inputs),
// each with a data pointer and one byte stride per iteration dim. Iteration dims are the
// tensor dims permuted so that dim 0 moves fastest in memory, with adjacent dims merged whenever
// every operand steps through them evenly (see Note [Iteration dims]). A kernel is a 1-D inner
// loop, `loop(char** data, const int64_t* strides, int64_t n)`; for_each calls it once per run
// of the innermost dim, splitting the index range over OpenMP threads above kGrainSize elements.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "core/runtime/Parallel.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope {

// Outputs + inputs one iterator can hold.
inline constexpr int kMaxOperands = 6;

// --- values changing dtype --------------------------------------------------------------------

// Converts one element value as PyTorch's casts do: to bool is `!= 0`, Half and BFloat16 go
// through float, everything else is a static_cast (float -> int truncates toward zero).
template <typename To, typename From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return static_cast<acc_type_t<From>>(v) != acc_type_t<From>(0);
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(static_cast<acc_type_t<From>>(v)));
  } else {
    return static_cast<To>(static_cast<acc_type_t<From>>(v));
  }
}

// A Python number as an operand: a 0-d tensor of the number's kind (Bool, Int64 or Float64)
// flagged is_wrapped_number(), so that it promotes like a number. See Note [Type promotion].
Tensor wrapped_scalar_tensor(const Scalar& s);
// A plain 0-d tensor holding `s` converted to `dtype`.
Tensor scalar_to_tensor(const Scalar& s, ScalarType dtype);
// The value of a one-element tensor as a Scalar of its kind (torch's .item()).
Scalar item(const Tensor& t);
// The element at `element_offset` (from the data pointer, in elements) of a CPU tensor, as a
// Scalar of its kind: Bool, Int for integer dtypes, Double otherwise.
Scalar read_element(const Tensor& t, int64_t element_offset);
// torch.result_type: the dtype an op on these operands computes in (Note [Type promotion]).
ScalarType result_type(const Tensor& a, const Tensor& b);
// torch's infer_size: the broadcast of shapes a and b, aligned at their last dims; a mismatch is
// torch's "The size of tensor a (3) must match the size of tensor b (4) at non-singleton
// dimension 1", the dim counted in the result.
DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b);
ScalarType result_type(const Tensor& a, const Scalar& b);

// --- memory overlap -------------------------------------------------------------------------
//
// Note [Memory overlap]
// ~~~~~~~~~~~~~~~~~~~~~
// An elementwise kernel writes each output element once and reads each input element once, in
// any order and from several threads. That is only correct when (1) no two elements of an output
// share memory (an expanded tensor, stride 0 on a dim of size > 1, has *internal overlap*), and
// (2) an input either is the output (in place: each element is read before it is written) or
// shares no memory with it. A *partial overlap* — x[1:] written from x[:-1] — would read
// elements the kernel already overwrote, so it is refused, as in PyTorch; so is an input over
// the same block in another order (x.t().add_(x)). Like PyTorch, only
// what can be decided cheaply is checked: internal overlap by stride 0 on a dim of size > 1,
// partial overlap between tensors that are both non-overlapping and dense over one storage.

// Whether the elements tile a block of memory with no gaps and no repeats, in some dim order
// (contiguous, transposed, permuted; not sliced with steps, not expanded).
bool is_non_overlapping_and_dense(const TensorImpl& t);
enum class MemOverlap { No, Yes, TooHard };
MemOverlap has_internal_overlap(const TensorImpl& t);
enum class MemOverlapStatus { Full, Partial, No, TooHard };
MemOverlapStatus get_overlap_status(const TensorImpl& a, const TensorImpl& b);
// Throw PyTorch's "unsupported operation: ..." errors. See Note [Memory overlap].
void assert_no_internal_overlap(const TensorImpl& t);
void assert_no_partial_overlap(const TensorImpl& a, const TensorImpl& b);

// Resizes an out= tensor to `sizes` (contiguous, or with `strides` when given), keeping its
// storage offset; the storage grows (contents kept) when it is too small. No-op when the sizes
// already match and no strides are given.
void resize_output(const Tensor& t, IntArrayRef sizes, std::optional<IntArrayRef> strides = {});

// --- the iterator -------------------------------------------------------------------------

class TensorIterator;

// How to build a TensorIterator. Tensors are *borrowed*: they must outlive the iterator (pass
// tensors the caller owns; add_owned_input for a temporary). Settings are PyTorch's.
class TensorIteratorConfig {
 public:
  TensorIteratorConfig() = default;

  // An output; an undefined tensor asks the iterator to allocate it. Outputs come first.
  TensorIteratorConfig& add_output(const Tensor& t) { return add(&t, true); }
  TensorIteratorConfig& add_input(const Tensor& t) { return add(&t, false); }
  TensorIteratorConfig& add_owned_output(Tensor t);
  TensorIteratorConfig& add_owned_input(Tensor t);
  // A temporary would dangle: use add_owned_input / add_owned_output for those.
  TensorIteratorConfig& add_output(const Tensor&&) = delete;
  TensorIteratorConfig& add_input(const Tensor&&) = delete;

  // Refuse writes into overlapping memory (default on). See Note [Memory overlap].
  TensorIteratorConfig& check_mem_overlap(bool v) {
    check_mem_overlap_ = v;
    return *this;
  }
  // Every defined operand must have one dtype (default on; promotion and casting turn it off).
  TensorIteratorConfig& check_all_same_dtype(bool v) {
    check_all_same_dtype_ = v;
    return *this;
  }
  // Compute the common dtype by promotion and convert inputs of another dtype to it.
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v);
  // An integral or bool common dtype becomes the default float dtype (true division).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) {
    promote_int_to_float_ = v;
    return *this;
  }
  // Outputs of another dtype get a temporary of the common dtype, copied back by cast_outputs().
  TensorIteratorConfig& cast_common_dtype_to_outputs(bool v);
  // An output must be able to hold the common dtype (can_cast): "result type Float can't be
  // cast to the desired output type Long".
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v) {
    enforce_safe_casting_ = v;
    return *this;
  }
  // Resize out= tensors of the wrong shape (default on). When off, outputs join broadcasting
  // and must have the broadcast shape (copy_).
  TensorIteratorConfig& resize_outputs(bool v) {
    resize_outputs_ = v;
    return *this;
  }
  // The dtype of undefined outputs, instead of the common dtype (Bool for comparisons).
  TensorIteratorConfig& static_dtype(ScalarType t) {
    static_dtype_ = t;
    return *this;
  }

  [[nodiscard]] TensorIterator build() const;

 private:
  friend class TensorIterator;
  TensorIteratorConfig& add(const Tensor* borrowed, bool is_output) {
    if (num_ >= kMaxOperands || (is_output && num_ != num_outputs_)) [[unlikely]]
      throw_cannot_add(is_output);
    borrowed_[num_] = borrowed;
    is_output_[num_] = is_output;
    ++num_;
    num_outputs_ += is_output;
    return *this;
  }
  [[noreturn]] void throw_cannot_add(bool is_output) const;

  const Tensor* borrowed_[kMaxOperands] = {};
  Tensor owned_[kMaxOperands];
  bool is_output_[kMaxOperands] = {};
  int num_ = 0;
  int num_outputs_ = 0;
  std::optional<ScalarType> static_dtype_;
  bool check_mem_overlap_ = true;
  bool check_all_same_dtype_ = true;
  bool promote_inputs_ = false;
  bool promote_int_to_float_ = false;
  bool cast_to_outputs_ = false;
  bool enforce_safe_casting_ = false;
  bool resize_outputs_ = true;
};

// Note [Iteration dims]
// ~~~~~~~~~~~~~~~~~~~~~
// The iterator walks `shape()` — the broadcast shape with its dims reordered so that dim 0 has
// the smallest strides (moves fastest in memory) and with adjacent dims merged when, for every
// operand, stepping the outer dim equals stepping the inner one shape times:
//   strides[k][d + 1] == strides[k][d] * shape[d]      (byte strides, for every operand k)
// So a contiguous [2, 3, 4] op iterates one dim of 24; a transposed [3, 4] beside a contiguous
// one keeps two. Dims where an operand is broadcast have byte stride 0 for it. The *fast path*
// skips all of this when every operand has the broadcast shape and one dense layout (all
// row-major, or all with the very same permuted strides): one flat dim of numel elements.
// The commonest case of all (every operand row-major, one dtype, nothing to broadcast, cast or
// resize) is recognized in one pass before anything else: a 1-element `a + b` costs little
// more than allocating its result.
class TensorIterator {
 public:
  // The inner loop: data[k] points at operand k's first element of this run, strides[k] is its
  // byte step, n the number of elements. Operands are outputs first, then inputs.
  //   void loop(char** data, const int64_t* strides, int64_t n);
  template <typename Loop>
  void for_each(Loop&& loop, int64_t grain_size = kGrainSize);
  // Runs elements [begin, end) of the iteration space on this thread (no cast_outputs()).
  template <typename Loop>
  void serial_for_each(Loop&& loop, int64_t begin, int64_t end) const;
  // Copies outputs computed into temporaries (cast_common_dtype_to_outputs) back into the
  // tensors the caller gave. for_each does this when it is done.
  void cast_outputs();

  // Common convenience builds (PyTorch's build_borrowing_*_op):
  // binary_op: promote inputs, cast to outputs, enforce safe casting (add, sub, mul, bitwise).
  static TensorIterator binary_op(const Tensor& out, const Tensor& a, const Tensor& b);
  // binary_float_op: binary_op whose integral common dtype becomes the default float (div).
  static TensorIterator binary_float_op(const Tensor& out, const Tensor& a, const Tensor& b);
  // comparison_op: a Bool output when `out` is undefined, else `out`'s dtype (eq, lt, ...).
  static TensorIterator comparison_op(const Tensor& out, const Tensor& a, const Tensor& b);
  // unary_op: out and a of one dtype (neg, bitwise_not).
  static TensorIterator unary_op(const Tensor& out, const Tensor& a);
  // nullary_op: only an output, which may overlap itself (fill_).
  static TensorIterator nullary_op(const Tensor& out);

  int ntensors() const { return num_; }
  int noutputs() const { return num_outputs_; }
  int ninputs() const { return num_ - num_outputs_; }
  // The iteration space; see Note [Iteration dims].
  int ndim() const { return static_cast<int>(shape_.size()); }
  IntArrayRef shape() const { return shape_; }
  int64_t numel() const { return numel_; }
  // The shape the outputs have (the broadcast shape, in tensor dim order).
  IntArrayRef output_shape() const { return broadcast_shape_; }
  // The dtype inputs were promoted to (or share); Undefined if they differ and were not.
  ScalarType common_dtype() const { return common_dtype_; }
  // The dtype the kernel reads or writes for operand `arg`.
  ScalarType dtype(int arg = 0) const { return ops_[arg].dtype; }
  // Byte strides of operand `arg`, one per iteration dim.
  IntArrayRef strides(int arg) const { return ops_[arg].stride_bytes; }
  void* data_ptr(int arg) const { return ops_[arg].data; }
  // The result: the tensor the caller gave as output `i`, or the one the iterator allocated.
  Tensor output(int i = 0) const;
  // Operand `arg` as the kernel sees it (a converted temporary of an input, say).
  Tensor tensor(int arg) const;
  // One flat dim in which every operand steps by its element size.
  bool is_contiguous() const;
  // Operand `arg` is one value broadcast over everything (every stride 0).
  bool is_scalar(int arg) const;
  // That value, as the kernel's dtype for `arg` stores it.
  template <typename T>
  T scalar_value(int arg) const {
    return *static_cast<const T*>(ops_[arg].data);
  }

  TensorIterator(const TensorIterator&) = delete;
  TensorIterator& operator=(const TensorIterator&) = delete;

 private:
  friend class TensorIteratorConfig;
  explicit TensorIterator(const TensorIteratorConfig& config);

  struct Operand {
    TensorImpl* impl = nullptr;  // what the kernel reads or writes (borrowed unless `owned`)
    Tensor owned;                // set when the iterator made or holds the tensor
    Tensor original;             // an output computed into a temporary: the caller's tensor
    char* data = nullptr;
    DimVector stride_bytes;
    ScalarType dtype = ScalarType::Undefined;
    bool is_output = false;
    bool is_read_write = false;  // an output that is also an input (in place)
    bool will_resize = false;    // an out= tensor of the wrong shape
    bool needs_temp = false;     // an output whose dtype is not the common dtype
    bool inline_scalar = false;  // a one-element input converted into `scalar`
    alignas(8) unsigned char scalar[8];
  };

  // The loop as the .cpp calls it: 2-D (size0 inner elements, size1 rows), strides[0, n) inner
  // and strides[n, 2n) outer, n = ntensors.
  using Loop2dFn = void (*)(void* ctx, int ntensors, char** data, const int64_t* strides,
                            int64_t size0, int64_t size1);
  struct Loop2d {
    void* ctx;
    Loop2dFn fn;
  };
  template <typename Loop>
  static Loop2d make_loop2d(Loop& loop);
  void for_each_impl(Loop2d loop, int64_t grain_size);
  // Note [Tiles for operands across the grain] (TensorIteratorLoops.cpp).
  bool wants_tiles() const;
  void tiled_for_each(Loop2d loop, int64_t grain_size) const;
  void serial_for_each_impl(Loop2d loop, int64_t begin, int64_t end) const;

  // build(), step by step.
  void populate(const TensorIteratorConfig& config);
  bool trivial_setup(const TensorIteratorConfig& config);
  void check_mem_overlaps() const;
  void compute_shape(const TensorIteratorConfig& config);
  void mark_resize_outputs(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  bool fast_setup();
  void compute_strides();
  void reorder_dimensions();
  void allocate_or_resize_outputs();
  void coalesce_dimensions();
  void make_output_temporaries();
  void finish();
  void set_output(Operand& op, IntArrayRef sizes, IntArrayRef strides);

  Operand ops_[kMaxOperands];
  int num_ = 0;
  int num_outputs_ = 0;
  DimVector shape_;            // iteration shape, see Note [Iteration dims]
  DimVector broadcast_shape_;  // in tensor dim order
  DimVector perm_;             // iteration dim i is tensor dim perm_[i]
  int64_t numel_ = 0;
  ScalarType common_dtype_ = ScalarType::Undefined;
  Device device_;
  bool all_same_shape_ = true;
  bool has_output_temps_ = false;
};

// --- templates --------------------------------------------------------------------------------

template <typename Loop>
TensorIterator::Loop2d TensorIterator::make_loop2d(Loop& loop) {
  return {const_cast<void*>(static_cast<const void*>(&loop)),
          [](void* ctx, int ntensors, char** base, const int64_t* strides, int64_t size0,
             int64_t size1) {
            auto& inner = *static_cast<Loop*>(ctx);
            if (size1 == 1) {
              inner(base, strides, size0);
              return;
            }
            char* data[kMaxOperands];
            for (int k = 0; k < ntensors; ++k) data[k] = base[k];
            const int64_t* outer = strides + ntensors;
            for (int64_t j = 0; j < size1; ++j) {
              inner(data, strides, size0);
              for (int k = 0; k < ntensors; ++k) data[k] += outer[k];
            }
          }};
}

template <typename Loop>
void TensorIterator::for_each(Loop&& loop, int64_t grain_size) {
  for_each_impl(make_loop2d(loop), grain_size);
}

template <typename Loop>
void TensorIterator::serial_for_each(Loop&& loop, int64_t begin, int64_t end) const {
  serial_for_each_impl(make_loop2d(loop), begin, end);
}

}  // namespace opscope
