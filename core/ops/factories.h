// Factory ops: tensors made from nothing but sizes and numbers — empty, zeros, ones, full,
// arange, linspace, eye, scalar_tensor, the random ones (rand, randn, randint) — their *_like
// forms, and the in-place random fills (uniform_, normal_, random_, bernoulli_).
//
// Semantically a factory takes no tensor, so nothing says which backend should make the result:
// the "tensor options" keyword arguments do (`dtype=`, `layout=`, `device=`, `pin_memory=`).
// A missing dtype means the default float dtype (torch.get_default_dtype()) for float factories,
// int64 for randint, and for full / arange what the numbers are (bool -> bool, int -> int64,
// float -> default dtype). A *_like form takes its options from `self` unless given, and keeps
// self's strides when they are dense (memory_format=preserve, the default).
//
// In implementation terms, as in PyTorch: every pure factory has a BackendSelect kernel (the
// generic backend_select, which reads `device=`) that redispatches to the backend's kernel, so a
// trace reads `zeros[BackendSelect] -> zeros[CPU]`. The *_like forms dispatch on `self` and are
// CompositeExplicitAutograd: empty_like, then an in-place fill (zero_, fill_, uniform_, ...).
//
// Random numbers come from a Generator (core/runtime/Generator.h), the default one unless
// `generator=` is given. See Note [Random streams are counter-based].
//
//   Tensor a = ops::zeros({2, 3});                       // f32[2, 3]
//   Tensor b = ops::arange(0, 10, 3);                    // i64[4]: 0 3 6 9
//   Tensor c = ops::full({2}, true);                     // b8[2]
//   manual_seed(0);
//   Tensor r = ops::rand({4, 4});                        // f32[4, 4] in [0, 1)
//   Tensor i = ops::randint(0, 10, {5});                 // i64[5] in [0, 10)
//
// Note [Random streams are counter-based]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A random op on a tensor of n elements reserves blocks of the generator's Philox stream, each
// block four uint32 words, and element i (in row-major order) always reads the same words of the
// same block, whatever thread computes it:
//   32-bit draws (float, half, bfloat16, int8..int32, bool; randint ranges < 2^32):
//       element i <- word i % 4 of block offset + i / 4          ceil(n / 4) blocks
//   64-bit draws (double, int64; randint ranges >= 2^32):
//       element i <- words 2(i % 2), 2(i % 2) + 1 of block offset + i / 2    ceil(n / 2) blocks
// normal_ draws pairs for Box-Muller from the same words: elements (2j, 2j+1) of a block share
// their two draws. So the numbers depend on the seed, the generator's position and n only —
// never on the thread count — and differ from torch's mt19937 numbers (as a CUDA torch's do).
#pragma once

#include <optional>

#include "core/dispatch/Op.h"
#include "core/runtime/Generator.h"
#include "core/runtime/Scalar.h"
#include "core/tensor/Tensor.h"

namespace opscope {

// Seeds the default CPU generator and rewinds it (torch.manual_seed, for the CPU).
void manual_seed(uint64_t seed);

namespace ops {

// Layout? and MemoryFormat? are plain ints (see core/ops/README.md): torch's enum values.
inline constexpr int64_t kStrided = 0;           // torch.strided
inline constexpr int64_t kContiguousFormat = 0;  // torch.contiguous_format
inline constexpr int64_t kPreserveFormat = 1;    // torch.preserve_format
inline constexpr int64_t kChannelsLast = 2;      // torch.channels_last
inline constexpr int64_t kChannelsLast3d = 3;    // torch.channels_last_3d

using OptDtype = std::optional<ScalarType>;
using OptLayout = std::optional<int64_t>;
using OptDevice = std::optional<Device>;
using OptBool = std::optional<bool>;
using OptMemoryFormat = std::optional<int64_t>;
using OptGenerator = std::optional<Generator>;

// --- filled with constants -------------------------------------------------------------------

// empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None,
//                     Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None)
//   -> Tensor
// A new tensor of `size`, uninitialized; contiguous unless memory_format says channels_last(_3d).
inline constexpr Op<Tensor(IntArrayRef, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>, Default<OptMemoryFormat>)>
    empty{"aten::empty.memory_format"};

// empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None,
//               Device? device=None, bool? pin_memory=None) -> Tensor
// -> size with the given strides (element counts), uninitialized.
inline constexpr Op<Tensor(IntArrayRef, IntArrayRef, Default<OptDtype>, Default<OptLayout>,
                           Default<OptDevice>, Default<OptBool>)>
    empty_strided{"aten::empty_strided"};

// zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//       bool? pin_memory=None) -> Tensor
inline constexpr Op<Tensor(IntArrayRef, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>)>
    zeros{"aten::zeros"};

// ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//      bool? pin_memory=None) -> Tensor
inline constexpr Op<Tensor(IntArrayRef, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>)>
    ones{"aten::ones"};

// full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None,
//      Device? device=None, bool? pin_memory=None) -> Tensor
// dtype from fill_value when None: bool -> bool, int -> int64, float -> default dtype.
inline constexpr Op<Tensor(IntArrayRef, const Scalar&, Default<OptDtype>, Default<OptLayout>,
                           Default<OptDevice>, Default<OptBool>)>
    full{"aten::full"};

// scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//               bool? pin_memory=None) -> Tensor
// -> 0-d, default dtype when None (even for an int or bool s).
inline constexpr Op<Tensor(const Scalar&, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>)>
    scalar_tensor{"aten::scalar_tensor"};

// --- ranges ------------------------------------------------------------------------------------
// arange's dtype when None: int64 if every number is an int or bool, else the default dtype.
// Length ceil((end - start) / step).

// arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//        bool? pin_memory=None) -> Tensor
// arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None,
//              Device? device=None, bool? pin_memory=None) -> Tensor
// arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None,
//                   Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
// (step is required here in C++, or arange(0, 5) would be ambiguous.)
inline constexpr Overloads arange{
    Op<Tensor(const Scalar&, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
              Default<OptBool>)>{"aten::arange"},
    Op<Tensor(const Scalar&, const Scalar&, Default<OptDtype>, Default<OptLayout>,
              Default<OptDevice>, Default<OptBool>)>{"aten::arange.start"},
    Op<Tensor(const Scalar&, const Scalar&, const Scalar&, Default<OptDtype>, Default<OptLayout>,
              Default<OptDevice>, Default<OptBool>)>{"aten::arange.start_step"}};

// linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None,
//          Device? device=None, bool? pin_memory=None) -> Tensor
// -> [steps]: start + i * step for the first half, end - (steps - 1 - i) * step for the second,
// step = (end - start) / (steps - 1): symmetric, so both ends are exact.
inline constexpr Op<Tensor(const Scalar&, const Scalar&, int64_t, Default<OptDtype>,
                           Default<OptLayout>, Default<OptDevice>, Default<OptBool>)>
    linspace{"aten::linspace"};

// logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None,
//          Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
// -> [steps]: base ** (linspace's exponents, computed in double), rounded to the dtype.
inline constexpr Op<Tensor(const Scalar&, const Scalar&, int64_t, Default<double>,
                           Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>)>
    logspace{"aten::logspace"};
// logspace.out(Scalar start, Scalar end, int steps, float base=10.0, *, Tensor(a!) out)
inline constexpr Op<Tensor(Out, const Scalar&, const Scalar&, int64_t, double)> logspace_out{
    "aten::logspace.out"};

// The signal windows (core/ops/composite/windows.cpp) -> [window_length]:
// hann_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None,
//             Device? device=None, bool? pin_memory=None) -> Tensor
// hann_window.periodic(int window_length, bool periodic, *, ...) -> Tensor; the same for
// hamming_window (+ .periodic_alpha(..., float alpha, *, ...), .periodic_alpha_beta(...,
// float alpha, float beta, *, ...)), bartlett_window, blackman_window, kaiser_window (+ .beta(...,
// float beta, *, ...)). Their autogenerated out= forms take `out` alone after the numbers.
template <typename... Numbers>
using WindowOp = Op<Tensor(Numbers..., Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>)>;
inline constexpr Overloads hann_window{WindowOp<int64_t>{"aten::hann_window"},
                                       WindowOp<int64_t, bool>{"aten::hann_window.periodic"}};
inline constexpr Overloads hamming_window{
    WindowOp<int64_t>{"aten::hamming_window"},
    WindowOp<int64_t, bool>{"aten::hamming_window.periodic"},
    WindowOp<int64_t, bool, double>{"aten::hamming_window.periodic_alpha"},
    WindowOp<int64_t, bool, double, double>{"aten::hamming_window.periodic_alpha_beta"}};
inline constexpr Overloads bartlett_window{
    WindowOp<int64_t>{"aten::bartlett_window"},
    WindowOp<int64_t, bool>{"aten::bartlett_window.periodic"}};
inline constexpr Overloads blackman_window{
    WindowOp<int64_t>{"aten::blackman_window"},
    WindowOp<int64_t, bool>{"aten::blackman_window.periodic"}};
inline constexpr Overloads kaiser_window{WindowOp<int64_t>{"aten::kaiser_window"},
                                         WindowOp<int64_t, bool>{"aten::kaiser_window.periodic"},
                                         WindowOp<int64_t, bool, double>{"aten::kaiser_window.beta"}};

// eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//     bool? pin_memory=None) -> Tensor
// -> (n, n) identity.
// eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//       bool? pin_memory=None) -> Tensor
// -> (n, m), ones on the main diagonal.
inline constexpr Overloads eye{Op<Tensor(int64_t, Default<OptDtype>, Default<OptLayout>,
                                         Default<OptDevice>, Default<OptBool>)>{"aten::eye"},
                               Op<Tensor(int64_t, int64_t, Default<OptDtype>, Default<OptLayout>,
                                         Default<OptDevice>, Default<OptBool>)>{"aten::eye.m"}};

// triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, Layout? layout=None,
//              Device? device=None, bool? pin_memory=None) -> Tensor
// -> (2, k): row indices, then column indices, of the (i, j) with j - i >= offset in a row x col
// matrix, row by row (numpy.triu_indices). dtype int64 or int32.
inline constexpr Op<Tensor(int64_t, int64_t, Default<int64_t>, Default<OptDtype>,
                           Default<OptLayout>, Default<OptDevice>, Default<OptBool>)>
    triu_indices{"aten::triu_indices"};
// tril_indices(...): the same for j - i <= offset.
inline constexpr Op<Tensor(int64_t, int64_t, Default<int64_t>, Default<OptDtype>,
                           Default<OptLayout>, Default<OptDevice>, Default<OptBool>)>
    tril_indices{"aten::tril_indices"};

// --- random factories --------------------------------------------------------------------------

// rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//      bool? pin_memory=None) -> Tensor
// -> size, uniform in [0, 1).
// rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None,
//                Device? device=None, bool? pin_memory=None) -> Tensor
inline constexpr Overloads rand{
    Op<Tensor(IntArrayRef, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
              Default<OptBool>)>{"aten::rand"},
    Op<Tensor(IntArrayRef, OptGenerator, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
              Default<OptBool>)>{"aten::rand.generator"}};

// randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//       bool? pin_memory=None) -> Tensor
// -> size, standard normal.
// randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None,
//                 Device? device=None, bool? pin_memory=None) -> Tensor
inline constexpr Overloads randn{
    Op<Tensor(IntArrayRef, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
              Default<OptBool>)>{"aten::randn"},
    Op<Tensor(IntArrayRef, OptGenerator, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
              Default<OptBool>)>{"aten::randn.generator"}};

// randint(int high, int[] size, *, ScalarType? dtype=long, Layout? layout=None,
//         Device? device=None, bool? pin_memory=None) -> Tensor
// -> size, integers uniform in [0, high).
// randint.generator(int high, int[] size, *, Generator? generator, ScalarType? dtype=long,
//                   Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
// randint.low(int low, int high, int[] size, *, ScalarType? dtype=long, Layout? layout=None,
//             Device? device=None, bool? pin_memory=None) -> Tensor
// -> size, integers uniform in [low, high).
// randint.low_generator(int low, int high, int[] size, *, Generator? generator,
//                       ScalarType? dtype=long, Layout? layout=None, Device? device=None,
//                       bool? pin_memory=None) -> Tensor
inline constexpr Overloads randint{
    Op<Tensor(int64_t, IntArrayRef, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
              Default<OptBool>)>{"aten::randint"},
    Op<Tensor(int64_t, IntArrayRef, OptGenerator, Default<OptDtype>, Default<OptLayout>,
              Default<OptDevice>, Default<OptBool>)>{"aten::randint.generator"},
    Op<Tensor(int64_t, int64_t, IntArrayRef, Default<OptDtype>, Default<OptLayout>,
              Default<OptDevice>, Default<OptBool>)>{"aten::randint.low"},
    Op<Tensor(int64_t, int64_t, IntArrayRef, OptGenerator, Default<OptDtype>, Default<OptLayout>,
              Default<OptDevice>, Default<OptBool>)>{"aten::randint.low_generator"}};

// --- in-place random fills (methods) ---------------------------------------------------------

// uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)
// self (any shape, floating) <- uniform in [from, to).
inline constexpr Op<Tensor(const Tensor&, Default<double>, Default<double>, Default<OptGenerator>)>
    uniform_{"aten::uniform_"};

// normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)
// self (any shape, floating) <- mean + std * N(0, 1), Box-Muller.
inline constexpr Op<Tensor(const Tensor&, Default<double>, Default<double>, Default<OptGenerator>)>
    normal_{"aten::normal_"};

// random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)
// self <- integers uniform in [from, to); to=None: up to the dtype's largest integer.
// random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)
// self <- integers uniform in [0, to).
// random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)
// self <- integers uniform in [0, 2^mantissa] (floats) or [0, max] (integers).
inline constexpr Overloads random_{
    Op<Tensor(const Tensor&, int64_t, std::optional<int64_t>, Default<OptGenerator>)>{
        "aten::random_.from"},
    Op<Tensor(const Tensor&, int64_t, Default<OptGenerator>)>{"aten::random_.to"},
    Op<Tensor(const Tensor&, Default<OptGenerator>)>{"aten::random_"}};

// bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)
// self (any dtype) <- 1 with probability p, else 0.
inline constexpr Op<Tensor(const Tensor&, Default<double>, Default<OptGenerator>)> bernoulli_{
    "aten::bernoulli_.float"};

// bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)
// self (any dtype) <- 1 with probability p's element (p floating, broadcast to self), else 0.
inline constexpr Op<Tensor(const Tensor&, const Tensor&, Default<OptGenerator>)> bernoulli__tensor{
    "aten::bernoulli_.Tensor"};

// normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor
// normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor
// normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor
// mean + std * N(0, 1) per element of the broadcast of mean and std (torch's normal_out_impl:
// empty, normal_, mul_ by std, add_ mean).
// normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, ...)
// a new tensor of `size` filled by normal_.
inline constexpr Overloads normal{
    Op<Tensor(const Tensor&, double, Default<OptGenerator>)>{"aten::normal.Tensor_float"},
    Op<Tensor(double, const Tensor&, Default<OptGenerator>)>{"aten::normal.float_Tensor"},
    Op<Tensor(const Tensor&, const Tensor&, Default<OptGenerator>)>{"aten::normal.Tensor_Tensor"}};

// bernoulli(Tensor self, *, Generator? generator=None) -> Tensor
// bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor
// A new tensor like self: 1 with probability self's element (bernoulli.p: p), else 0.
inline constexpr Overloads bernoulli{
    Op<Tensor(const Tensor&, Default<OptGenerator>)>{"aten::bernoulli"},
    Op<Tensor(const Tensor&, double, Default<OptGenerator>)>{"aten::bernoulli.p"}};

// --- *_like: options from self -----------------------------------------------------------------

// empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//            bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>, Default<OptMemoryFormat>)>
    empty_like{"aten::empty_like"};
// zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//            bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>, Default<OptMemoryFormat>)>
    zeros_like{"aten::zeros_like"};
// ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//           bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>, Default<OptMemoryFormat>)>
    ones_like{"aten::ones_like"};
// full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None,
//           Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
// dtype is self's when None (not fill_value's).
inline constexpr Op<Tensor(const Tensor&, const Scalar&, Default<OptDtype>, Default<OptLayout>,
                           Default<OptDevice>, Default<OptBool>, Default<OptMemoryFormat>)>
    full_like{"aten::full_like"};
// rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//           bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>, Default<OptMemoryFormat>)>
    rand_like{"aten::rand_like"};
// randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//            bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
inline constexpr Op<Tensor(const Tensor&, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
                           Default<OptBool>, Default<OptMemoryFormat>)>
    randn_like{"aten::randn_like"};
// randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None,
//              Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None)
//   -> Tensor
// randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None,
//                        Layout? layout=None, Device? device=None, bool? pin_memory=None,
//                        MemoryFormat? memory_format=None) -> Tensor
inline constexpr Overloads randint_like{
    Op<Tensor(const Tensor&, int64_t, Default<OptDtype>, Default<OptLayout>, Default<OptDevice>,
              Default<OptBool>, Default<OptMemoryFormat>)>{"aten::randint_like"},
    Op<Tensor(const Tensor&, int64_t, int64_t, Default<OptDtype>, Default<OptLayout>,
              Default<OptDevice>, Default<OptBool>, Default<OptMemoryFormat>)>{
        "aten::randint_like.low_dtype"}};

}  // namespace ops
}  // namespace opscope
