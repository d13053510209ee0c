// The factory family's schemas, one def row per overload. See core/ops/factories.h for what each
// op does. Kernels, each registered at the end of the file that defines it:
// core/ops/cpu/factories.cpp (constant fills and ranges), core/ops/cpu/random.cpp (random fills
// and random factories), core/ops/cpu/logspace.cpp (logspace.out), core/ops/composite/factories.cpp
// (*_like, logspace), core/ops/composite/windows.cpp (the signal windows); the pure factories'
// BackendSelect rows are in core/ops/fallbacks.cpp, beside backend_select.
//
// Keys follow the shape of PyTorch 1.13's dispatch: a pure factory has no tensor to dispatch
// on, so it gets the generic BackendSelect kernel (which reads `device=`) plus a backend kernel,
// and a trace reads zeros[BackendSelect] -> zeros[CPU]. (torch writes some of these —
// zeros, ones, full, rand, randint — as CompositeExplicitAutograd over empty + a fill; here each
// is one CPU kernel.) The in-place random fills are CPU kernels; the *_like forms dispatch on
// self and are CompositeExplicitAutograd, as in torch.
#include "core/ops/factories.h"

#include <string>

#include "core/dispatch/Library.h"

namespace opscope {

static Library factory_ops(Library::FRAGMENT, "aten", [](Library& m) {
  // Filled with constants.
  m.def(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor");
  m.def(
      "empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  // empty_strided with self's dtype and device unless given (composite/factories.cpp)
  m.def(
      "new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      Variants::Method);
  m.def(
      "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");

  // Ranges.
  m.def(
      "arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "arange.start_step(Scalar start, Scalar end, Scalar step=1, *, "
      "ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor");
  m.def(
      "linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor");
  m.def(
      "eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  // -> (2, k): the (row, column) indices of the upper (triu: j - i >= offset) / lower (tril:
  // j - i <= offset) triangle of a row x col matrix, row by row; int64 or int32 only
  m.def(
      "triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  // torch.triu_indices takes no out=: ops.aten only (kernels in core/ops/composite/shape_more.cpp)
  m.def("triu_indices.out(int row, int col, int offset=0, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);
  m.def("tril_indices.out(int row, int col, int offset=0, *, Tensor(a!) out) -> Tensor(a!)",
        Variants::None);

  // Random factories.
  m.def(
      "rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "randint(int high, int[] size, *, ScalarType? dtype=long, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "randint.generator(int high, int[] size, *, Generator? generator, "
      "ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor");
  m.def(
      "randint.low(int low, int high, int[] size, *, ScalarType? dtype=long, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "randint.low_generator(int low, int high, int[] size, *, Generator? generator, "
      "ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor");

  // randperm: (n) -> a random permutation of 0..n-1.
  m.def(
      "randperm(int n, *, ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor");
  m.def(
      "randperm.generator(int n, *, Generator? generator, ScalarType? dtype=long, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def("randperm.out(int n, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("randperm.generator_out(int n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)");

  // multinomial: self (C) or (R, C) probabilities -> (num_samples) or (R, num_samples) indices.
  m.def(
      "multinomial(Tensor self, int num_samples, bool replacement=False, *, "
      "Generator? generator=None) -> Tensor",
      Variants::FunctionAndMethod);
  m.def(
      "multinomial.out(Tensor self, int num_samples, bool replacement=False, *, "
      "Generator? generator=None, Tensor(a!) out) -> Tensor(a!)",
      Variants::Function);

  // In-place random fills (methods).
  m.def(
      "exponential_(Tensor(a!) self, float lambd=1, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.def(
      "uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.def(
      "normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.def(
      "random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.def("random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)");
  m.def("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)");
  m.def(
      "bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) "
      "-> Tensor(a!)");
  // self <- 1 where a draw is below p's element (p broadcast to self), else 0
  m.def(
      "bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) "
      "-> Tensor(a!)");

  // Samples as new tensors. normal: mean + std * N(0, 1), mean and / or std tensors broadcast
  // (a float for the other), or both floats and a size; bernoulli: 1 with probability self's
  // element (or p), the result shaped and typed as self. Their gradients are zero.
  m.def("normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor");
  m.def("normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor");
  m.def("normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor");
  m.def(
      "normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, "
      "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) "
      "-> Tensor");
  m.def("bernoulli(Tensor self, *, Generator? generator=None) -> Tensor");
  m.def("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor");

  // out= forms: out resized to the result's shape and filled (kernels in
  // core/ops/composite/factories.cpp); the values take out's dtype.
  m.def(
      "empty.out(SymInt[] size, *, MemoryFormat? memory_format=None, Tensor(a!) out) "
      "-> Tensor(a!)");
  m.def("zeros.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("ones.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)");
  m.def(
      "arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) "
      "-> Tensor(a!)");
  m.def("linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("eye.out(int n, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("rand.out(int[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("rand.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)");
  m.def("randn.out(int[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def("randn.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)");
  m.def("randint.out(int high, int[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def(
      "randint.generator_out(int high, int[] size, *, Generator? generator, Tensor(a!) out) "
      "-> Tensor(a!)");
  m.def("randint.low_out(int low, int high, int[] size, *, Tensor(a!) out) -> Tensor(a!)");
  m.def(
      "randint.low_generator_out(int low, int high, int[] size, *, Generator? generator, "
      "Tensor(a!) out) -> Tensor(a!)");

  // logspace: base ** linspace(start, end, steps) -> [steps] (CompositeExplicitAutograd over the
  // CPU kernel logspace.out, as torch 1.13: core/ops/composite/factories.cpp, cpu/logspace.cpp)
  m.def(
      "logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor");
  m.def(
      "logspace.out(Scalar start, Scalar end, int steps, float base=10.0, *, Tensor(a!) out) -> "
      "Tensor(a!)");

  // The signal windows -> [window_length], floating dtypes only; periodic=True drops the last
  // point of a window one longer (CompositeExplicitAutograd, core/ops/composite/windows.cpp)
  {
    const std::string options =
        "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=None) -> Tensor";
    for (const char* name : {"hann_window", "hamming_window", "bartlett_window",
                             "blackman_window", "kaiser_window"}) {
      const std::string op(name);
      m.def(op + "(int window_length, " + options);
      m.def(op + ".periodic(int window_length, bool periodic, " + options);
    }
    m.def("hamming_window.periodic_alpha(int window_length, bool periodic, float alpha, " +
          options);
    m.def(
        "hamming_window.periodic_alpha_beta(int window_length, bool periodic, float alpha, "
        "float beta, " +
        options);
    m.def("kaiser_window.beta(int window_length, bool periodic, float beta, " + options);
    // their autogenerated out= forms: torch.hann_window takes no out=, ops.aten only
    const std::string out = "*, Tensor(a!) out) -> Tensor(a!)";
    for (const char* name : {"hann_window", "hamming_window", "bartlett_window",
                             "blackman_window", "kaiser_window"}) {
      const std::string op(name);
      m.def(op + ".out(int window_length, " + out, Variants::None);
      m.def(op + ".periodic_out(int window_length, bool periodic, " + out, Variants::None);
    }
    m.def("hamming_window.periodic_alpha_out(int window_length, bool periodic, float alpha, " + out,
          Variants::None);
    m.def(
        "hamming_window.periodic_alpha_beta_out(int window_length, bool periodic, float alpha, "
        "float beta, " +
            out,
        Variants::None);
    m.def("kaiser_window.beta_out(int window_length, bool periodic, float beta, " + out,
          Variants::None);
  }

  // *_like: functions only, as in torch.
  constexpr Variants kFunction = Variants::Function;
  m.def(
      "empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.def(
      "zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.def(
      "ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.def(
      "full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None, "
      "MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.def(
      "rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.def(
      "randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.def(
      "randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.def(
      "randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None, "
      "MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
});

void manual_seed(uint64_t seed) {
  default_generator(Device(DeviceType::CPU))->set_seed(seed);
}

}  // namespace opscope
