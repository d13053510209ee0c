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
Tensor empty(IntArrayRef size, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
             OptBool pin_memory = {}, OptMemoryFormat memory_format = {});

// empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None,
//               Device? device=None, bool? pin_memory=None) -> Tensor
// -> size with the given strides (element counts), uninitialized.
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, OptDtype dtype = {},
                     OptLayout layout = {}, OptDevice device = {}, OptBool pin_memory = {});

// zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//       bool? pin_memory=None) -> Tensor
Tensor zeros(IntArrayRef size, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
             OptBool pin_memory = {});

// ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//      bool? pin_memory=None) -> Tensor
Tensor ones(IntArrayRef size, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
            OptBool pin_memory = {});

// full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None,
//      Device? device=None, bool? pin_memory=None) -> Tensor
// dtype from fill_value when None: bool -> bool, int -> int64, float -> default dtype.
Tensor full(IntArrayRef size, const Scalar& fill_value, OptDtype dtype = {}, OptLayout layout = {},
            OptDevice device = {}, OptBool pin_memory = {});

// scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//               bool? pin_memory=None) -> Tensor
// -> 0-d, default dtype when None (even for an int or bool s).
Tensor scalar_tensor(const Scalar& s, OptDtype dtype = {}, OptLayout layout = {},
                     OptDevice device = {}, OptBool pin_memory = {});

// --- ranges ------------------------------------------------------------------------------------
// arange's dtype when None: int64 if every number is an int or bool, else the default dtype.
// Length ceil((end - start) / step).

// arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//        bool? pin_memory=None) -> Tensor
Tensor arange(const Scalar& end, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
              OptBool pin_memory = {});
// arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None,
//              Device? device=None, bool? pin_memory=None) -> Tensor
Tensor arange(const Scalar& start, const Scalar& end, OptDtype dtype = {}, OptLayout layout = {},
              OptDevice device = {}, OptBool pin_memory = {});
// arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None,
//                   Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
// (step is required here in C++, or arange(0, 5) would be ambiguous.)
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, OptDtype dtype = {},
              OptLayout layout = {}, OptDevice device = {}, OptBool pin_memory = {});

// linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None,
//          Device? device=None, bool? pin_memory=None) -> Tensor
// -> [steps]: start + i * step for the first half, end - (steps - 1 - i) * step for the second,
// step = (end - start) / (steps - 1): symmetric, so both ends are exact.
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, OptDtype dtype = {},
                OptLayout layout = {}, OptDevice device = {}, OptBool pin_memory = {});

// eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//     bool? pin_memory=None) -> Tensor
// -> (n, n) identity.
Tensor eye(int64_t n, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
           OptBool pin_memory = {});
// eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//       bool? pin_memory=None) -> Tensor
// -> (n, m), ones on the main diagonal.
Tensor eye(int64_t n, int64_t m, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
           OptBool pin_memory = {});

// --- random factories --------------------------------------------------------------------------

// rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//      bool? pin_memory=None) -> Tensor
// -> size, uniform in [0, 1).
Tensor rand(IntArrayRef size, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
            OptBool pin_memory = {});
// rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None,
//                Device? device=None, bool? pin_memory=None) -> Tensor
Tensor rand(IntArrayRef size, OptGenerator generator, OptDtype dtype = {}, OptLayout layout = {},
            OptDevice device = {}, OptBool pin_memory = {});

// randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//       bool? pin_memory=None) -> Tensor
// -> size, standard normal.
Tensor randn(IntArrayRef size, OptDtype dtype = {}, OptLayout layout = {}, OptDevice device = {},
             OptBool pin_memory = {});
// randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None,
//                 Device? device=None, bool? pin_memory=None) -> Tensor
Tensor randn(IntArrayRef size, OptGenerator generator, OptDtype dtype = {}, OptLayout layout = {},
             OptDevice device = {}, OptBool pin_memory = {});

// randint(int high, int[] size, *, ScalarType? dtype=long, Layout? layout=None,
//         Device? device=None, bool? pin_memory=None) -> Tensor
// -> size, integers uniform in [0, high).
Tensor randint(int64_t high, IntArrayRef size, OptDtype dtype = ScalarType::Int64,
               OptLayout layout = {}, OptDevice device = {}, OptBool pin_memory = {});
// randint.generator(int high, int[] size, *, Generator? generator, ScalarType? dtype=long,
//                   Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor
Tensor randint(int64_t high, IntArrayRef size, OptGenerator generator,
               OptDtype dtype = ScalarType::Int64, OptLayout layout = {}, OptDevice device = {},
               OptBool pin_memory = {});
// randint.low(int low, int high, int[] size, *, ScalarType? dtype=long, Layout? layout=None,
//             Device? device=None, bool? pin_memory=None) -> Tensor
// -> size, integers uniform in [low, high).
Tensor randint(int64_t low, int64_t high, IntArrayRef size, OptDtype dtype = ScalarType::Int64,
               OptLayout layout = {}, OptDevice device = {}, OptBool pin_memory = {});
// randint.low_generator(int low, int high, int[] size, *, Generator? generator,
//                       ScalarType? dtype=long, Layout? layout=None, Device? device=None,
//                       bool? pin_memory=None) -> Tensor
Tensor randint(int64_t low, int64_t high, IntArrayRef size, OptGenerator generator,
               OptDtype dtype = ScalarType::Int64, OptLayout layout = {}, OptDevice device = {},
               OptBool pin_memory = {});

// --- in-place random fills (methods) ---------------------------------------------------------

// uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)
// self (any shape, floating) <- uniform in [from, to).
Tensor uniform_(const Tensor& self, double from = 0, double to = 1, OptGenerator generator = {});

// normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)
// self (any shape, floating) <- mean + std * N(0, 1), Box-Muller.
Tensor normal_(const Tensor& self, double mean = 0, double std = 1, OptGenerator generator = {});

// random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)
// self <- integers uniform in [from, to); to=None: up to the dtype's largest integer.
Tensor random_(const Tensor& self, int64_t from, std::optional<int64_t> to,
               OptGenerator generator = {});
// random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)
// self <- integers uniform in [0, to).
Tensor random_(const Tensor& self, int64_t to, OptGenerator generator = {});
// random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)
// self <- integers uniform in [0, 2^mantissa] (floats) or [0, max] (integers).
Tensor random_(const Tensor& self, OptGenerator generator = {});

// bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)
// self (any dtype) <- 1 with probability p, else 0.
Tensor bernoulli_(const Tensor& self, double p = 0.5, OptGenerator generator = {});

// --- *_like: options from self -----------------------------------------------------------------

// empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//            bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
Tensor empty_like(const Tensor& self, OptDtype dtype = {}, OptLayout layout = {},
                  OptDevice device = {}, OptBool pin_memory = {},
                  OptMemoryFormat memory_format = {});
// zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//            bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
Tensor zeros_like(const Tensor& self, OptDtype dtype = {}, OptLayout layout = {},
                  OptDevice device = {}, OptBool pin_memory = {},
                  OptMemoryFormat memory_format = {});
// ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//           bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
Tensor ones_like(const Tensor& self, OptDtype dtype = {}, OptLayout layout = {},
                 OptDevice device = {}, OptBool pin_memory = {},
                 OptMemoryFormat memory_format = {});
// full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None,
//           Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
// dtype is self's when None (not fill_value's).
Tensor full_like(const Tensor& self, const Scalar& fill_value, OptDtype dtype = {},
                 OptLayout layout = {}, OptDevice device = {}, OptBool pin_memory = {},
                 OptMemoryFormat memory_format = {});
// rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//           bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
Tensor rand_like(const Tensor& self, OptDtype dtype = {}, OptLayout layout = {},
                 OptDevice device = {}, OptBool pin_memory = {},
                 OptMemoryFormat memory_format = {});
// randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None,
//            bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor
Tensor randn_like(const Tensor& self, OptDtype dtype = {}, OptLayout layout = {},
                  OptDevice device = {}, OptBool pin_memory = {},
                  OptMemoryFormat memory_format = {});
// randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None,
//              Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None)
//   -> Tensor
Tensor randint_like(const Tensor& self, int64_t high, OptDtype dtype = {}, OptLayout layout = {},
                    OptDevice device = {}, OptBool pin_memory = {},
                    OptMemoryFormat memory_format = {});
// randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None,
//                        Layout? layout=None, Device? device=None, bool? pin_memory=None,
//                        MemoryFormat? memory_format=None) -> Tensor
Tensor randint_like(const Tensor& self, int64_t low, int64_t high, OptDtype dtype = {},
                    OptLayout layout = {}, OptDevice device = {}, OptBool pin_memory = {},
                    OptMemoryFormat memory_format = {});

}  // namespace ops
}  // namespace opscope
