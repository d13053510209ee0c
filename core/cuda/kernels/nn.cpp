// CUDA kernels of the nn family, host side: native_layer_norm, native_dropout, nll_loss_forward,
// the random fills dropout rests on (bernoulli_, uniform_, normal_), and rand / randn / randint
// on the GPU (an empty tensor, then its fill). Checks and messages follow the CPU kernels
// (core/ops/cpu/normalization.cpp, nn.cpp, loss.cpp, random.cpp). Random draws come from the
// device's default generator (opscope.cuda.manual_seed), whose Philox stream each call reserves
// one counter block per element of.
#include <cmath>
#include <string>

#include "core/cuda/kernels/KernelUtil.h"
#include "core/dispatch/Library.h"
#include "core/ops/arg_checks.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"
#include "core/runtime/Generator.h"

namespace opscope::cuda {

namespace {

Tensor contiguous_or_self(const Tensor& t) {
  return !t.defined() || t.is_contiguous() ? t : ops::contiguous(t);
}

// The generator a random op on `device` draws from: `gen` when given, else the default.
Generator pick_generator(std::optional<Generator> gen, Device device) {
  if (gen && *gen) {
    OPSCOPE_CHECK((*gen)->device().is_cuda(), "Expected a 'cuda' device type for generator but "
                  "found '", device_type_name((*gen)->device().type), "'");
    return *gen;
  }
  return default_generator(Device(DeviceType::CUDA, current_device()));
}

void check_float(const Tensor& t, const char* name) {
  OPSCOPE_CHECK(is_floating(t.dtype()), "\"", name, "\" not implemented for '",
                cpp_name(t.dtype()), "'");
}

}  // namespace

// --- layer norm -----------------------------------------------------------------------------

// input (*, N1..Nk) -> (out (*, N1..Nk), mean (*, 1..1), rstd (*, 1..1)); mean and rstd in the
// input's dtype, as the CPU kernel gives them (computed in float for the 16-bit dtypes).
static std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input,
                                                            IntArrayRef normalized_shape,
                                                            const Tensor& weight,
                                                            const Tensor& bias, double eps) {
  const auto [M, N] = checks::layer_norm_inputs(input, normalized_shape, weight, bias);
  const int64_t input_ndim = input.dim();
  const int64_t axis = input_ndim - static_cast<int64_t>(normalized_shape.size());
  check_float(input, "LayerNormKernelImpl");
  if (weight.defined()) {
    check_same_device(input, weight, "native_layer_norm");
    OPSCOPE_CHECK(weight.dtype() == input.dtype(), "expected scalar type ",
                  cpp_name(input.dtype()), " but found ", cpp_name(weight.dtype()));
  }
  if (bias.defined()) {
    check_same_device(input, bias, "native_layer_norm");
    OPSCOPE_CHECK(bias.dtype() == input.dtype(), "expected scalar type ", cpp_name(input.dtype()),
                  " but found ", cpp_name(bias.dtype()));
  }
  CUDAGuard guard(input.device());
  const Tensor X = contiguous_or_self(input);
  const Tensor gamma = contiguous_or_self(weight);
  const Tensor beta = contiguous_or_self(bias);
  const ScalarType acc = input.dtype() == ScalarType::Float64 ? ScalarType::Float64
                                                               : ScalarType::Float32;
  Tensor Y = make_empty(input.sizes(), input.dtype(), input.device());
  Tensor mean = make_empty({M}, acc, input.device());
  Tensor rstd = make_empty({M}, acc, input.device());
  if (M > 0) {
    if (N == 0) {
      ops::fill_(mean, std::nan(""));
      ops::fill_(rstd, std::nan(""));
    } else {
      launch_layer_norm(dt_of(input.dtype()), X.data(), gamma.defined() ? gamma.data() : nullptr,
                        beta.defined() ? beta.data() : nullptr, Y.data(), mean.data(),
                        rstd.data(), M, N, eps, current_stream_ptr());
    }
  }
  if (acc != input.dtype()) {
    mean = ops::to(mean, input.dtype());
    rstd = ops::to(rstd, input.dtype());
  }
  DimVector stat_shape(input.sizes().begin(), input.sizes().begin() + axis);
  for (int64_t i = axis; i < input_ndim; ++i) stat_shape.push_back(1);
  return {Y, ops::view(mean, stat_shape), ops::view(rstd, stat_shape)};
}

// --- dropout and the random fills -------------------------------------------------------------

// input (*) -> (output (*), mask (*) bool): kept with probability 1 - p, scaled by 1 / (1 - p).
static std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p,
                                                 std::optional<bool> train) {
  CUDAGuard guard(input.device());
  if (input.numel() == 0) return {input, ops::empty_like(input)};
  if (!train.value_or(true)) return {ops::clone(input), ops::ones_like(input, ScalarType::Bool)};
  check_float(input, "dropout_cuda");
  const double p1m = 1. - p;
  const double scale = p1m == 0 ? 0. : 1. / p1m;
  Tensor x = contiguous_or_self(input);
  Tensor out = make_empty(input.sizes(), input.dtype(), input.device());
  Tensor mask = make_empty(input.sizes(), ScalarType::Bool, input.device());
  auto [seed, offset] = pick_generator(std::nullopt, input.device())
                            ->reserve(static_cast<uint64_t>(input.numel()));
  launch_dropout(dt_of(input.dtype()), x.data(), out.data(), mask.data_ptr<bool>(),
                 input.numel(), p1m, scale, seed, offset, current_stream_ptr());
  return {out, mask};
}

namespace {

// A random fill of self: through a contiguous temporary when self is not contiguous.
template <typename Launch>
Tensor random_fill(const Tensor& self, std::optional<Generator> gen, Launch&& launch) {
  CUDAGuard guard(self.device());
  if (self.numel() == 0) return self;
  Generator g = pick_generator(gen, self.device());
  auto [seed, offset] = g->reserve(static_cast<uint64_t>(self.numel()));
  Tensor target =
      self.is_contiguous() ? self : make_empty(self.sizes(), self.dtype(), self.device());
  launch(target, seed, offset);
  if (!target.is_same(self)) ops::copy_(self, target);
  return self;
}

}  // namespace

static Tensor uniform_(const Tensor& self, double from, double to,
                       std::optional<Generator> gen) {
  check_float(self, "uniform_cuda");
  OPSCOPE_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=",
                from, " > to=", to);
  return random_fill(self, gen, [&](const Tensor& t, uint64_t seed, uint64_t offset) {
    launch_uniform(dt_of(t.dtype()), t.data(), t.numel(), from, to, seed, offset,
                   current_stream_ptr());
  });
}

static Tensor normal_(const Tensor& self, double mean, double std,
                      std::optional<Generator> gen) {
  check_float(self, "normal_cuda");
  OPSCOPE_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  return random_fill(self, gen, [&](const Tensor& t, uint64_t seed, uint64_t offset) {
    launch_normal(dt_of(t.dtype()), t.data(), t.numel(), mean, std, seed, offset,
                  current_stream_ptr());
  });
}

static Tensor bernoulli_float_(const Tensor& self, double p, std::optional<Generator> gen) {
  OPSCOPE_CHECK(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  return random_fill(self, gen, [&](const Tensor& t, uint64_t seed, uint64_t offset) {
    launch_bernoulli(dt_of(t.dtype()), t.data(), t.numel(), p, seed, offset,
                     current_stream_ptr());
  });
}

// --- rand / randn / randint on the GPU: an empty tensor, then the fill -----------------------

namespace {

ScalarType factory_dtype(std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                         ScalarType fallback) {
  OPSCOPE_CHECK_AS(NotImplementedError, !layout || *layout == 0,
                   "opscope supports only the strided layout (torch.strided), got layout ",
                   *layout);
  return dtype.value_or(fallback);
}

Device factory_device(std::optional<Device> device) {
  Device d = device.value_or(Device(DeviceType::CUDA, current_device()));
  return d.index < 0 ? Device(DeviceType::CUDA, current_device()) : d;
}

}  // namespace

static Tensor rand_generator(IntArrayRef size, std::optional<Generator> generator,
                             std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                             std::optional<Device> device, std::optional<bool> /*pin_memory*/) {
  Device d = factory_device(device);
  CUDAGuard guard(d);
  Tensor t = make_empty(size, factory_dtype(dtype, layout, default_dtype()), d);
  return uniform_(t, 0, 1, generator);
}
static Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory) {
  return rand_generator(size, std::nullopt, dtype, layout, device, pin_memory);
}
static Tensor randn_generator(IntArrayRef size, std::optional<Generator> generator,
                              std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                              std::optional<Device> device, std::optional<bool> /*pin_memory*/) {
  Device d = factory_device(device);
  CUDAGuard guard(d);
  Tensor t = make_empty(size, factory_dtype(dtype, layout, default_dtype()), d);
  return normal_(t, 0, 1, generator);
}
static Tensor randn(IntArrayRef size, std::optional<ScalarType> dtype,
                    std::optional<int64_t> layout, std::optional<Device> device,
                    std::optional<bool> pin_memory) {
  return randn_generator(size, std::nullopt, dtype, layout, device, pin_memory);
}
// Integers in [low, high), each a 64-bit draw reduced mod (high - low).
static Tensor randint_low_generator(int64_t low, int64_t high, IntArrayRef size,
                                    std::optional<Generator> generator,
                                    std::optional<ScalarType> dtype,
                                    std::optional<int64_t> layout, std::optional<Device> device,
                                    std::optional<bool> /*pin_memory*/) {
  OPSCOPE_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from=", low,
                " >= to=", high);
  Device d = factory_device(device);
  CUDAGuard guard(d);
  Tensor t = make_empty(size, factory_dtype(dtype, layout, ScalarType::Int64), d);
  if (t.numel() == 0) return t;
  auto [seed, offset] = pick_generator(generator, d)->reserve(static_cast<uint64_t>(t.numel()));
  launch_random_range(dt_of(t.dtype()), t.data(), t.numel(),
                      static_cast<uint64_t>(high) - static_cast<uint64_t>(low), low, seed, offset,
                      current_stream_ptr());
  return t;
}
static Tensor randint_low(int64_t low, int64_t high, IntArrayRef size,
                          std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                          std::optional<Device> device, std::optional<bool> pin_memory) {
  return randint_low_generator(low, high, size, std::nullopt, dtype, layout, device, pin_memory);
}
static Tensor randint_generator(int64_t high, IntArrayRef size, std::optional<Generator> generator,
                                std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                                std::optional<Device> device, std::optional<bool> pin_memory) {
  return randint_low_generator(0, high, size, generator, dtype, layout, device, pin_memory);
}
static Tensor randint(int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
                      std::optional<int64_t> layout, std::optional<Device> device,
                      std::optional<bool> pin_memory) {
  return randint_low_generator(0, high, size, std::nullopt, dtype, layout, device, pin_memory);
}

// --- nll_loss ---------------------------------------------------------------------------------

static void nll_loss_forward_impl(const Tensor& output, const Tensor& total_weight,
                                  const Tensor& self, const Tensor& target, const Tensor& weight,
                                  int64_t reduction, int64_t ignore_index) {
  checks::nll_loss_args(self, target, weight);
  check_float(self, "nll_loss_forward_out_cuda_kernel");
  OPSCOPE_CHECK(target.dtype() == ScalarType::Int64, "expected scalar type Long but found ",
                cpp_name(target.dtype()));
  check_same_device(self, target, "nll_loss_forward");
  if (weight.defined()) {
    check_same_device(self, weight, "nll_loss_forward");
    OPSCOPE_CHECK(weight.dtype() == self.dtype(), "expected scalar type ", cpp_name(self.dtype()),
                  " but found ", cpp_name(weight.dtype()));
  }
  CUDAGuard guard(self.device());
  const bool none = reduction == ops::kReductionNone && self.dim() == 2;
  if (none) {
    resize_output(output, std::array<int64_t, 1>{self.size(0)});
  } else {
    resize_output(output, {});
  }
  resize_output(total_weight, {});
  const int64_t n = self.dim() == 1 ? 1 : self.size(0), n_classes = self.size(-1);
  Tensor x = contiguous_or_self(self);
  Tensor t = contiguous_or_self(target);
  Tensor w = contiguous_or_self(weight);
  Tensor out = output.is_contiguous()
                   ? output
                   : make_empty(output.sizes(), output.dtype(), output.device());
  DeviceFlag bad(self.device());
  launch_nll_loss(dt_of(self.dtype()), x.data(), t.data_ptr<int64_t>(),
                  w.defined() ? w.data() : nullptr, out.data(), total_weight.data(), n, n_classes,
                  none ? 0 : (reduction == ops::kReductionNone ? 2 : reduction), ignore_index,
                  bad.ptr(), current_stream_ptr());
  if (none) ops::zero_(total_weight);  // torch leaves it 0 for reduction='none'
  if (!out.is_same(output)) ops::copy_(output, out);
  const int64_t flag = bad.read();
  if (flag != 0)
    throw IndexError(detail::str("Target ", flag - 1, " is out of bounds."));
}

static std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                                   const Tensor& weight, int64_t reduction,
                                                   int64_t ignore_index) {
  Tensor output = make_empty({}, self.dtype(), self.device());
  Tensor total_weight = make_empty({}, self.dtype(), self.device());
  nll_loss_forward_impl(output, total_weight, self, target, weight, reduction, ignore_index);
  return {output, total_weight};
}

static std::tuple<Tensor, Tensor> nll_loss_forward_output(const Tensor& self,
                                                          const Tensor& target,
                                                          const Tensor& weight, int64_t reduction,
                                                          int64_t ignore_index,
                                                          const Tensor& output,
                                                          const Tensor& total_weight) {
  nll_loss_forward_impl(output, total_weight, self, target, weight, reduction, ignore_index);
  return {output, total_weight};
}

static Library cuda_nn(Library::IMPL, "aten", DispatchKey::CUDA, [](Library& m) {
  m.impl("native_layer_norm", fn<&native_layer_norm>);
  m.impl("native_dropout", fn<&native_dropout>);
  m.impl("uniform_", fn<&uniform_>);
  m.impl("normal_", fn<&normal_>);
  m.impl("bernoulli_.float", fn<&bernoulli_float_>);
  m.impl("rand", fn<&rand>);
  m.impl("rand.generator", fn<&rand_generator>);
  m.impl("randn", fn<&randn>);
  m.impl("randn.generator", fn<&randn_generator>);
  m.impl("randint", fn<&randint>);
  m.impl("randint.generator", fn<&randint_generator>);
  m.impl("randint.low", fn<&randint_low>);
  m.impl("randint.low_generator", fn<&randint_low_generator>);
  m.impl("nll_loss_forward", fn<&nll_loss_forward>);
  m.impl("nll_loss_forward.output", fn<&nll_loss_forward_output>);
});

}  // namespace opscope::cuda
