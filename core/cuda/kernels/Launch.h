// What host code hands a CUDA kernel: plain structs and launcher declarations, no CUDA and no
// opscope headers, so that nvcc compiles only the kernels (core/cuda/kernels/*.cu) and g++ the
// rest (checks, iterators, registration rows in core/cuda/kernels/*.cpp).
//
// Semantically a launcher does one op's arithmetic on device memory the host side prepared: an
// elementwise op on the operands of a built TensorIterator (ElementwiseArgs), a reduction over
// the rows of a contiguous [rows, cols] block, a gather along a dim, ... Each launcher queues its
// kernel on `stream` and checks the launch (cudaGetLastError), raising an opscope error with the
// CUDA message on failure; it never synchronizes.
//
// Dtypes travel as the values of opscope::ScalarType (core/runtime/ScalarType.h), mirrored by
// `DT` here; core/cuda/kernels/elementwise.cpp static_asserts that the two agree.
#pragma once

#include <cstdint>

namespace opscope::cuda {

enum class DT : int8_t { Bool, UInt8, Int8, Int16, Int32, Int64, Half, BFloat16, Float, Double };

// Iteration dims an elementwise kernel takes (after the iterator merged what it could); ATen's
// MAX_DIMS is 25, opscope tensors beyond 16 dims that stay unmerged are refused with a message.
constexpr int kMaxDims = 16;
constexpr int kMaxArgs = 6;

// A built TensorIterator, as a kernel sees it: operand k's element at iteration index
// (i0, i1, ...) (dim 0 fastest) is at data[k] + sum_d i_d * strides[k][d] (bytes). An input whose
// bit is set in scalar_mask is one value held in `scalars[k]` (a CPU scalar, passed by value).
struct ElementwiseArgs {
  int ntensors = 0;
  int ndim = 0;
  int64_t numel = 0;
  bool contiguous = false;  // one flat dim, every non-scalar operand at its element size
  uint32_t scalar_mask = 0;
  DT dtypes[kMaxArgs] = {};
  char* data[kMaxArgs] = {};
  int64_t sizes[kMaxDims] = {};
  int64_t strides[kMaxArgs][kMaxDims] = {};
  alignas(8) unsigned char scalars[kMaxArgs][8] = {};
};

// Raises opscope::Error (defined in core/cuda/kernels/elementwise.cpp, where the error type is
// known): `what` failed with CUDA's `message`.
[[noreturn]] void throw_cuda_error(const char* what, const char* message);
// The error of the last launch, if any, as an opscope error naming `what` (cudaGetLastError).
void check_launch(const char* what);
// cudaMemcpyAsync device -> host of `nbytes` on `stream`, then waits for that stream.
void copy_to_host_sync(void* dst, const void* src, int64_t nbytes, void* stream);

// --- elementwise (unary.cu, binary.cu, compare.cu) ----------------------------------------------

enum class UnaryOp : int {
  // floating dtypes only
  Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Sqrt, Rsqrt, Reciprocal, Sin, Cos, Tan, Asin, Acos,
  Atan, Sinh, Cosh, Tanh, Erf, Sigmoid, Gelu, GeluTanh, Silu, Softplus, Floor, Ceil, Round, Trunc,
  LeakyRelu, Hardtanh, Elu, Hardsigmoid, Hardswish, Mish, LogSigmoid,
  // every dtype but bool
  Neg, Abs, Sign, Relu, Threshold,
  // IsNan etc. write bool: see CompareOp
};
// out = op(in) in operand 1's dtype (== out's); `a`, `b`, `c` are the op's parameters
// (softplus's beta and threshold; leaky_relu's slope; hardtanh's bounds; elu's alpha * scale,
// scale and input_scale; threshold's threshold and value). Integer dtypes take `a` and `b`
// through int64, as Scalar::to does.
void launch_unary(UnaryOp op, const ElementwiseArgs& args, double a, double b, void* stream,
                  double c = 0);

enum class BinaryOp : int {
  Add,        // a + alpha * b
  Mul, Div, DivTrunc, DivFloor, Pow, Maximum, Minimum, Remainder, Fmod, Atan2,
  BitAnd, BitOr, BitXor, LogicalAnd, LogicalOr, LogicalXor,  // logical: output bool
  LerpScalar,  // a + alpha * (b - a)
  SquaredDiff,  // (a - b)^2, mse_loss's elementwise part (floating dtypes)
};
// out = op(in0, in1), operands of one dtype (the logical ops write bool; integer division by
// zero gives -1, as on torch's GPU: no error from the device).
void launch_binary(BinaryOp op, const ElementwiseArgs& args, double alpha, int64_t ialpha,
                   void* stream);

enum class CompareOp : int { Eq, Ne, Lt, Le, Gt, Ge, IsNan, IsPosInf, IsNegInf, IsInf, IsFinite };
// out (bool, or the inputs' dtype holding 1 / 0) = in0 op in1; IsNan... take one input.
void launch_compare(CompareOp op, const ElementwiseArgs& args, void* stream);

// out = cond ? a : b; operands: out, cond (bool), a, b (one dtype).
void launch_where(const ElementwiseArgs& args, void* stream);
// out = min(max(x, lo), hi); which bounds apply: has_lo, has_hi. Tensor form: operands out, x,
// lo, hi (absent bounds: a repeat of x that is ignored).
void launch_clamp(const ElementwiseArgs& args, bool has_lo, bool has_hi, void* stream);
void launch_clamp_scalar(const ElementwiseArgs& args, bool has_lo, double lo, int64_t ilo,
                         bool has_hi, double hi, int64_t ihi, void* stream);

// --- reductions (reduce.cu): rows of a contiguous [rows, cols] input ----------------------------

enum class ReduceOp : int { Sum, Mean, Prod, Max, Min, NormP, Norm0, Norm1, Norm2, NormInf,
                            NormNegInf, LogSumExp, Any, All };
// out[r] = op(in[r, 0..cols)), out in `out_dt` (sum of int -> int64, float16 -> float16 computed in
// float). p is NormP's exponent.
void launch_reduce_rows(ReduceOp op, DT in_dt, DT out_dt, const void* in, void* out, int64_t rows,
                        int64_t cols, double p, void* workspace, void* stream);
// The device bytes launch_reduce_rows needs as `workspace` (0: none) when it cuts a few long rows
// into chunks (Note [Splitting long rows] in reduce.cu), and how many chunks per row.
int64_t reduce_rows_workspace_bytes(int64_t rows, int64_t cols);
int64_t reduce_rows_splits(int64_t rows, int64_t cols);
// out[o, i] = op over r of in[o, r, i] for a contiguous [outer, reduced, inner] input (the
// reduced dims in the middle: sum(0) of a matrix), one thread per result; in and out one dtype.
void launch_reduce_cols(ReduceOp op, DT dt, const void* in, void* out, int64_t outer,
                        int64_t reduced, int64_t inner, double p, void* workspace, void* stream);
// The device bytes launch_reduce_cols needs as `workspace` for these sizes (0: none; see Note
// [Reducing down columns] in reduce.cu), and the row splits behind it.
int64_t reduce_cols_workspace_bytes(int64_t outer, int64_t reduced, int64_t inner);
int64_t reduce_cols_splits(int64_t outer, int64_t reduced, int64_t inner);
// values[r], indices[r] = max / min of row r and its first index (NaN wins, as torch); values may
// be null (argmax).
void launch_arg_reduce_rows(bool is_max, DT dt, const void* in, void* values, int64_t* indices,
                            int64_t rows, int64_t cols, void* stream);
// var[r] (and mean[r]) of each row with `correction`; std takes the square root. mean may be null.
void launch_var_rows(DT dt, const void* in, void* var, void* mean, int64_t rows, int64_t cols,
                     double correction, bool take_sqrt, void* stream);
// Softmax / log-softmax of each row; out may have another dtype (half_to_float).
void launch_softmax_rows(bool log, DT in_dt, DT out_dt, const void* in, void* out, int64_t rows,
                         int64_t cols, void* stream);
// Rows of a contiguous [rows, cols] input normalized: out = (x - mean) * rstd * w + b; mean and
// rstd in float32 / float64 (float for the 16-bit dtypes, as torch's acc type), w and b optional.
void launch_layer_norm(DT dt, const void* in, const void* w, const void* b, void* out, void* mean,
                       void* rstd, int64_t rows, int64_t cols, double eps, void* stream);

// --- random (random.cu): Philox4x32-10, counter block = offset + i ---------------------------

// mask[i] = uniform < p1m (bool), out[i] = in[i] * mask[i] * scale; contiguous, numel n.
void launch_dropout(DT dt, const void* in, void* out, bool* mask, int64_t n, double p1m,
                    double scale, uint64_t seed, uint64_t offset, void* stream);
// Fills a contiguous block with uniform [from, to) / normal(mean, std) / bernoulli(p) draws.
void launch_uniform(DT dt, void* data, int64_t n, double from, double to, uint64_t seed,
                    uint64_t offset, void* stream);
void launch_normal(DT dt, void* data, int64_t n, double mean, double std, uint64_t seed,
                   uint64_t offset, void* stream);
void launch_bernoulli(DT dt, void* data, int64_t n, double p, uint64_t seed, uint64_t offset,
                      void* stream);

// data[i] = base + (a 64-bit draw mod range), in dt (randint's values; range >= 1).
void launch_random_range(DT dt, void* data, int64_t n, uint64_t range, int64_t base,
                         uint64_t seed, uint64_t offset, void* stream);

// --- indexing and shape (index.cu) ------------------------------------------------------------

// A tensor as an index kernel reads it: data, sizes and element strides, up to kMaxDims dims.
struct TensorArg {
  char* data = nullptr;
  int ndim = 0;
  int64_t numel = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t strides[kMaxDims] = {};
};
// out[..., i, ...] = self[..., index[i], ...] along `dim`; index int64 or int32 (flat, contiguous).
// A bad index sets *bad (device flag) to 1 + its position and is skipped.
void launch_index_select(DT dt, const TensorArg& self, const TensorArg& out, int dim,
                         const void* index, bool index_int32, int64_t* bad, void* stream);
// self[..., index[i], ...] += alpha * src[..., i, ...] along dim (atomics).
void launch_index_add(DT dt, const TensorArg& self, const TensorArg& src, int dim,
                      const void* index, bool index_int32, double alpha, int64_t* bad,
                      void* stream);
// gather: out[p] = self[p with p[dim] = index[p]]; scatter: self[p with p[dim] = index[p]] =
// src[p] (or value) for p over index; reduce 0 = assign, 1 = add, 2 = multiply.
void launch_gather(DT dt, const TensorArg& self, const TensorArg& index, const TensorArg& out,
                   int dim, int64_t* bad, void* stream);
void launch_scatter(DT dt, const TensorArg& self, const TensorArg& index, const TensorArg& src,
                    bool use_value, double value, int64_t ivalue, int dim, int reduce,
                    int64_t* bad, void* stream);
// Advanced indexing, ATen's index / index_put_ form: the iteration is over `out` (index) or the
// values (put), each of the nidx indexed dims contributes index_k[p] * stride_k (elements of
// self), indexes broadcast to the iteration shape (TensorArg strides 0 where broadcast).
struct IndexArgs {
  TensorArg self;       // the indexed tensor restrided: its indexed dims have size... see index.cpp
  TensorArg iter;       // out (index) or values (put), its shape the iteration shape
  int nidx = 0;
  TensorArg idx[kMaxDims];    // int64 index tensors, expanded to the iteration shape
  int64_t idx_size[kMaxDims] = {};    // size of the dim each indexes (bounds)
  int64_t idx_stride[kMaxDims] = {};  // element stride of that dim in self
};
void launch_index(DT dt, const IndexArgs& a, int64_t* bad, void* stream);
void launch_index_put(DT dt, const IndexArgs& a, bool accumulate, int64_t* bad, void* stream);
// out[part of dim] = input k, for cat: each input copied into its slice of out (a strided copy
// of one dtype: dst TensorArg, src TensorArg of the same sizes).
void launch_strided_copy(DT dt, const TensorArg& dst, const TensorArg& src, void* stream);

// Zeros the elements of t (*, M, N) outside its lower (j - i <= k) or upper (j - i >= k)
// triangle, in place (tril_ / triu_).
void launch_zero_triangle(DT dt, const TensorArg& t, int64_t k, bool upper, void* stream);

// --- losses (nn.cu) ---------------------------------------------------------------------------

// nll_loss_forward over self [N, C] (contiguous) and target [N] int64: per-sample losses
// (reduction none) or their sum / weighted mean in out[0] and total_weight[0]. A target outside
// [0, C) that is not ignore_index sets *bad to 1 + the target.
void launch_nll_loss(DT dt, const void* self, const int64_t* target, const void* weight,
                     void* out, void* total_weight, int64_t n, int64_t c, int64_t reduction,
                     int64_t ignore_index, int64_t* bad, void* stream);

}  // namespace opscope::cuda
