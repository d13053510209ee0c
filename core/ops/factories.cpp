// The factory family: schemas, their kernels' registrations, and the C++ entry points.
// Kernels: core/ops/cpu/factories.cpp (constant fills and ranges), core/ops/cpu/random.cpp
// (random fills and random factories), core/ops/composite/factories.cpp (*_like). See
// core/ops/factories.h for what each op does.
//
// Keys follow the shape of PyTorch 1.13's dispatch: a pure factory has no tensor to dispatch
// on, so it gets the generic BackendSelect kernel (which reads `device=`) plus a backend kernel,
// and a trace reads zeros[BackendSelect] -> zeros[CPU]. (torch writes some of these —
// zeros, ones, full, rand, randint — as CompositeExplicitAutograd over empty + a fill; here each
// is one CPU kernel.) The in-place random fills are CPU kernels; the *_like forms dispatch on
// self and are CompositeExplicitAutograd, as in torch.
#include "core/ops/factories.h"

#include "core/dispatch/Library.h"
#include "core/ops/fallbacks.h"

namespace opscope {

using ops::OptBool;
using ops::OptDevice;
using ops::OptDtype;
using ops::OptGenerator;
using ops::OptLayout;
using ops::OptMemoryFormat;

// Defined in core/ops/cpu/factories.cpp and core/ops/cpu/random.cpp.
namespace cpu {
Tensor empty_memory_format(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
                           OptBool pin_memory, OptMemoryFormat memory_format);
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, OptDtype dtype, OptLayout layout,
                     OptDevice device, OptBool pin_memory);
Tensor zeros(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
             OptBool pin_memory);
Tensor ones(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
            OptBool pin_memory);
Tensor full(IntArrayRef size, const Scalar& fill_value, OptDtype dtype, OptLayout layout,
            OptDevice device, OptBool pin_memory);
Tensor scalar_tensor(const Scalar& s, OptDtype dtype, OptLayout layout, OptDevice device,
                     OptBool pin_memory);
Tensor arange(const Scalar& end, OptDtype dtype, OptLayout layout, OptDevice device,
              OptBool pin_memory);
Tensor arange_start(const Scalar& start, const Scalar& end, OptDtype dtype, OptLayout layout,
                    OptDevice device, OptBool pin_memory);
Tensor arange_start_step(const Scalar& start, const Scalar& end, const Scalar& step, OptDtype dtype,
                         OptLayout layout, OptDevice device, OptBool pin_memory);
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, OptDtype dtype,
                OptLayout layout, OptDevice device, OptBool pin_memory);
Tensor eye(int64_t n, OptDtype dtype, OptLayout layout, OptDevice device, OptBool pin_memory);
Tensor eye_m(int64_t n, int64_t m, OptDtype dtype, OptLayout layout, OptDevice device,
             OptBool pin_memory);
Tensor rand(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
            OptBool pin_memory);
Tensor rand_generator(IntArrayRef size, OptGenerator generator, OptDtype dtype, OptLayout layout,
                      OptDevice device, OptBool pin_memory);
Tensor randn(IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
             OptBool pin_memory);
Tensor randn_generator(IntArrayRef size, OptGenerator generator, OptDtype dtype, OptLayout layout,
                       OptDevice device, OptBool pin_memory);
Tensor randint(int64_t high, IntArrayRef size, OptDtype dtype, OptLayout layout, OptDevice device,
               OptBool pin_memory);
Tensor randint_generator(int64_t high, IntArrayRef size, OptGenerator generator, OptDtype dtype,
                         OptLayout layout, OptDevice device, OptBool pin_memory);
Tensor randint_low(int64_t low, int64_t high, IntArrayRef size, OptDtype dtype, OptLayout layout,
                   OptDevice device, OptBool pin_memory);
Tensor randint_low_generator(int64_t low, int64_t high, IntArrayRef size, OptGenerator generator,
                             OptDtype dtype, OptLayout layout, OptDevice device,
                             OptBool pin_memory);
Tensor uniform_(const Tensor& self, double from, double to, OptGenerator generator);
Tensor normal_(const Tensor& self, double mean, double std, OptGenerator generator);
Tensor random_from(const Tensor& self, int64_t from, std::optional<int64_t> to,
                   OptGenerator generator);
Tensor random_to(const Tensor& self, int64_t to, OptGenerator generator);
Tensor random_(const Tensor& self, OptGenerator generator);
Tensor bernoulli_float(const Tensor& self, double p, OptGenerator generator);
}  // namespace cpu

// Defined in core/ops/composite/factories.cpp.
namespace composite {
Tensor empty_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device,
                  OptBool pin_memory, OptMemoryFormat memory_format);
Tensor zeros_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device,
                  OptBool pin_memory, OptMemoryFormat memory_format);
Tensor ones_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device,
                 OptBool pin_memory, OptMemoryFormat memory_format);
Tensor full_like(const Tensor& self, const Scalar& fill_value, OptDtype dtype, OptLayout layout,
                 OptDevice device, OptBool pin_memory, OptMemoryFormat memory_format);
Tensor rand_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device,
                 OptBool pin_memory, OptMemoryFormat memory_format);
Tensor randn_like(const Tensor& self, OptDtype dtype, OptLayout layout, OptDevice device,
                  OptBool pin_memory, OptMemoryFormat memory_format);
Tensor randint_like(const Tensor& self, int64_t high, OptDtype dtype, OptLayout layout,
                    OptDevice device, OptBool pin_memory, OptMemoryFormat memory_format);
Tensor randint_like_low_dtype(const Tensor& self, int64_t low, int64_t high, OptDtype dtype,
                              OptLayout layout, OptDevice device, OptBool pin_memory,
                              OptMemoryFormat memory_format);
}  // namespace composite

static Library factory_ops(Library::FRAGMENT, "aten", [](Library& m) {
  constexpr DispatchKey kCPU = DispatchKey::CPU;
  constexpr DispatchKey kExplicit = DispatchKey::CompositeExplicitAutograd;
  // A pure factory: BackendSelect reads device=, then the backend kernel runs. (The default
  // argument is evaluated at each call, so every registration keeps its own line.)
  auto factory = [&](std::string_view schema, std::string_view name, KernelFunction cpu_kernel,
                     std::source_location loc = std::source_location::current()) {
    m.def(schema, Variants::Auto, loc);
    m.impl(name, DispatchKey::BackendSelect, backend_select_kernel(), loc);
    m.impl(name, kCPU, std::move(cpu_kernel), loc);
  };

  // Filled with constants.
  factory(
      "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      "empty.memory_format", fn<&cpu::empty_memory_format>);
  factory(
      "empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "empty_strided", fn<&cpu::empty_strided>);
  factory(
      "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "zeros", fn<&cpu::zeros>);
  factory(
      "ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "ones", fn<&cpu::ones>);
  factory(
      "full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "full", fn<&cpu::full>);
  factory(
      "scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "scalar_tensor", fn<&cpu::scalar_tensor>);

  // Ranges.
  factory(
      "arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "arange", fn<&cpu::arange>);
  factory(
      "arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "arange.start", fn<&cpu::arange_start>);
  factory(
      "arange.start_step(Scalar start, Scalar end, Scalar step=1, *, "
      "ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor",
      "arange.start_step", fn<&cpu::arange_start_step>);
  factory(
      "linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "linspace", fn<&cpu::linspace>);
  factory(
      "eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor",
      "eye", fn<&cpu::eye>);
  factory(
      "eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "eye.m", fn<&cpu::eye_m>);

  // Random factories.
  factory(
      "rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "rand", fn<&cpu::rand>);
  factory(
      "rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "rand.generator", fn<&cpu::rand_generator>);
  factory(
      "randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "randn", fn<&cpu::randn>);
  factory(
      "randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "randn.generator", fn<&cpu::randn_generator>);
  factory(
      "randint(int high, int[] size, *, ScalarType? dtype=long, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      "randint", fn<&cpu::randint>);
  factory(
      "randint.generator(int high, int[] size, *, Generator? generator, "
      "ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor",
      "randint.generator", fn<&cpu::randint_generator>);
  factory(
      "randint.low(int low, int high, int[] size, *, ScalarType? dtype=long, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "randint.low", fn<&cpu::randint_low>);
  factory(
      "randint.low_generator(int low, int high, int[] size, *, Generator? generator, "
      "ScalarType? dtype=long, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None) -> Tensor",
      "randint.low_generator", fn<&cpu::randint_low_generator>);

  // In-place random fills (methods).
  m.def(
      "uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.impl("uniform_", kCPU, fn<&cpu::uniform_>);
  m.def(
      "normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.impl("normal_", kCPU, fn<&cpu::normal_>);
  m.def(
      "random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.impl("random_.from", kCPU, fn<&cpu::random_from>);
  m.def("random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)");
  m.impl("random_.to", kCPU, fn<&cpu::random_to>);
  m.def("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)");
  m.impl("random_", kCPU, fn<&cpu::random_>);
  m.def(
      "bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) "
      "-> Tensor(a!)");
  m.impl("bernoulli_.float", kCPU, fn<&cpu::bernoulli_float>);

  // *_like: functions only, as in torch.
  constexpr Variants kFunction = Variants::Function;
  m.def(
      "empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("empty_like", kExplicit, fn<&composite::empty_like>);
  m.def(
      "zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("zeros_like", kExplicit, fn<&composite::zeros_like>);
  m.def(
      "ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("ones_like", kExplicit, fn<&composite::ones_like>);
  m.def(
      "full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None, "
      "MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("full_like", kExplicit, fn<&composite::full_like>);
  m.def(
      "rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("rand_like", kExplicit, fn<&composite::rand_like>);
  m.def(
      "randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("randn_like", kExplicit, fn<&composite::randn_like>);
  m.def(
      "randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("randint_like", kExplicit, fn<&composite::randint_like>);
  m.def(
      "randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None, "
      "Layout? layout=None, Device? device=None, bool? pin_memory=None, "
      "MemoryFormat? memory_format=None) -> Tensor",
      kFunction);
  m.impl("randint_like.low_dtype", kExplicit, fn<&composite::randint_like_low_dtype>);
});

void manual_seed(uint64_t seed) {
  default_generator(Device(DeviceType::CPU))->set_seed(seed);
}

}  // namespace opscope
