// CompositeExplicitAutograd kernels of the *_like factories, of the factories' out= forms
// (declared in core/ops/factories.cpp; out= resizes out, then fills it as the functional form
// would, in out's dtype) and of the samplers normal / bernoulli (bernoulli.p is
// CompositeImplicitAutograd, as torch's). As torch 1.13's TensorFactories.cpp, each is empty_like followed by
// an in-place fill, all called through ops:: so a trace reads
//   zeros_like -> empty_like -> empty_strided, zero_
//   rand_like  -> empty_like -> empty_strided, uniform_
#include <algorithm>
#include <numeric>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/factories.h"
#include "core/ops/reduce.h"
#include "core/ops/utility.h"
#include "core/ops/TensorIterator.h"

namespace opscope::composite {

namespace {

// torch's compute_non_overlapping_and_dense: some permutation of the dims is row-major
// contiguous (dims of size < 2 ignored), so the elements fill their memory without gaps.
bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  size_t nd = sizes.size();
  if (nd == 1) return sizes[0] < 2 || strides[0] == 1;
  DimVector perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t require = 1;
  for (size_t i = 0; i < nd; ++i) {
    int64_t size = sizes[perm[i]];
    if (size < 2) return true;
    if (strides[perm[i]] != require) return false;
    require *= size;
  }
  return true;
}

// torch's infer_dense_strides: dense strides that keep the order of self's strides (dims with
// stride 0 keep their row-major place): a column slice, sizes (3, 2) strides (4, 2), gets
// (2, 1); an expanded column, sizes (3, 4) strides (1, 0), gets (4, 1).
DimVector infer_dense_strides(IntArrayRef sizes, IntArrayRef strides) {
  size_t nd = sizes.size();
  if (nd == 0) return {};
  if (nd == 1) return {1};
  DimVector perm(nd);
  for (size_t i = 0; i < nd; ++i) perm[i] = static_cast<int64_t>(nd - 1 - i);  // n-1, ..., 0
  // -1: dim0 goes before dim1 (inner), 1: after, 0: ambiguous (keep). Stable insertion sort.
  auto should_swap = [&](int64_t d0, int64_t d1) {
    int64_t s0 = strides[d0], s1 = strides[d1];
    if (s0 == 0 || s1 == 0) return 0;
    if (s0 < s1) return -1;
    if (s0 > s1) return 1;
    return sizes[d0] > sizes[d1] ? 1 : 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t d1 = i;
    for (size_t j = 1; j <= i; ++j) {
      size_t d0 = i - j;
      int c = should_swap(perm[d0], perm[d1]);
      if (c > 0) {
        std::swap(perm[d0], perm[d1]);
        d1 = d0;
      } else if (c < 0) {
        break;
      }
    }
  }
  DimVector out(nd);
  int64_t stride = 1;
  for (size_t i = 0; i < nd; ++i) {
    int64_t d = perm[i];
    out[d] = stride;
    if (sizes[d] > 1) stride *= sizes[d];
  }
  return out;
}

}  // namespace

// self [*s] -> new [*s], uninitialized; self's dtype / device unless given. preserve_format
// (the default) keeps self's strides when dense, else dense strides in self's dim order.
Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype,
                  std::optional<int64_t> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<int64_t> memory_format) {
  ScalarType dt = dtype.value_or(self.dtype());
  Device dev = device.value_or(self.device());
  int64_t format = memory_format.value_or(ops::kPreserveFormat);
  if (format != ops::kPreserveFormat)
    return ops::empty(self.sizes(), dt, layout, dev, pin_memory, format);
  if (is_non_overlapping_and_dense(self.sizes(), self.strides()))
    return ops::empty_strided(self.sizes(), self.strides(), dt, layout, dev, pin_memory);
  DimVector strides = infer_dense_strides(self.sizes(), self.strides());
  return ops::empty_strided(self.sizes(), strides, dt, layout, dev, pin_memory);
}

// self [*s] -> [*s] of 0.
Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype,
                  std::optional<int64_t> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<int64_t> memory_format) {
  return ops::zero_(ops::empty_like(self, dtype, layout, device, pin_memory, memory_format));
}

// self [*s] -> [*s] of 1.
Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<int64_t> memory_format) {
  Tensor r = ops::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return ops::fill_(r, Scalar(1.0));
}

// self [*s] -> [*s] of fill_value, in self's dtype unless given.
Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<int64_t> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory, std::optional<int64_t> memory_format) {
  Tensor r = ops::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return ops::fill_(r, fill_value);
}

// self [*s] -> [*s] uniform in [0, 1).
Tensor rand_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<int64_t> memory_format) {
  Tensor r = ops::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return ops::uniform_(r, 0, 1, std::nullopt);
}

// self [*s] -> [*s] standard normal.
Tensor randn_like(const Tensor& self, std::optional<ScalarType> dtype,
                  std::optional<int64_t> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<int64_t> memory_format) {
  Tensor r = ops::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return ops::normal_(r, 0, 1, std::nullopt);
}

// self [*s] -> [*s] integers in [0, high).
Tensor randint_like(const Tensor& self, int64_t high, std::optional<ScalarType> dtype,
                    std::optional<int64_t> layout, std::optional<Device> device,
                    std::optional<bool> pin_memory, std::optional<int64_t> memory_format) {
  Tensor r = ops::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return ops::random_(r, 0, high, std::nullopt);
}

// self [*s] -> [*s] integers in [low, high).
Tensor randint_like_low_dtype(const Tensor& self, int64_t low, int64_t high,
                              std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                              std::optional<Device> device, std::optional<bool> pin_memory,
                              std::optional<int64_t> memory_format) {
  Tensor r = ops::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  return ops::random_(r, low, high, std::nullopt);
}

// --- out= forms: out resized to the result's shape, then filled in its own dtype ----------------

namespace {
// torch's resize_ of an out= tensor refuses one that requires grad.
void resize_out(const Tensor& out, IntArrayRef size) {
  OPSCOPE_CHECK(!out->requires_grad(), "cannot resize variables that require grad");
  resize_output(out, size);
}
// The values of a range factory, in out's dtype, copied into out.
Tensor copy_into(const Tensor& out, const Tensor& values) {
  resize_out(out, values.sizes());
  return ops::copy_(out, values);
}
}  // namespace

// size -> out (size), uninitialized / zeros / ones / fill_value.
Tensor empty_out(IntArrayRef size, std::optional<int64_t> memory_format, const Tensor& out) {
  OPSCOPE_CHECK_AS(NotImplementedError, !memory_format || *memory_format == ops::kContiguousFormat,
                   "opscope's empty(out=) supports only torch.contiguous_format");
  resize_out(out, size);
  return out;
}
Tensor zeros_out(IntArrayRef size, const Tensor& out) {
  resize_out(out, size);
  return ops::zero_(out);
}
Tensor ones_out(IntArrayRef size, const Tensor& out) {
  resize_out(out, size);
  return ops::fill_(out, Scalar(1));
}
Tensor full_out(IntArrayRef size, const Scalar& fill_value, const Tensor& out) {
  resize_out(out, size);
  return ops::fill_(out, fill_value);
}

// -> out (n): the range / linspace / identity of the functional form, in out's dtype.
Tensor arange_out(const Scalar& end, const Tensor& out) {
  return copy_into(out, ops::arange(end, out.dtype()));
}
Tensor arange_start_out(const Scalar& start, const Scalar& end, const Scalar& step,
                        const Tensor& out) {
  return copy_into(out, ops::arange(start, end, step, out.dtype()));
}
Tensor linspace_out(const Scalar& start, const Scalar& end, int64_t steps, const Tensor& out) {
  return copy_into(out, ops::linspace(start, end, steps, out.dtype()));
}
Tensor eye_out(int64_t n, const Tensor& out) {
  return copy_into(out, ops::eye(n, out.dtype()));
}
Tensor eye_m_out(int64_t n, int64_t m, const Tensor& out) {
  return copy_into(out, ops::eye(n, m, out.dtype()));
}

// logspace -> empty [steps] -> logspace.out, as torch 1.13's CompositeExplicitAutograd kernel
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base,
                std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  OPSCOPE_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor result = ops::empty({steps}, dtype, layout, device, pin_memory);
  return ops::logspace_out(result, start, end, steps, base);
}

// size -> out (size), drawn by the in-place fill of the functional form.
Tensor rand_generator_out(IntArrayRef size, std::optional<Generator> generator, const Tensor& out) {
  resize_out(out, size);
  return ops::uniform_(out, 0, 1, generator);
}
Tensor rand_out(IntArrayRef size, const Tensor& out) {
  return rand_generator_out(size, std::nullopt, out);
}
Tensor randn_generator_out(IntArrayRef size, std::optional<Generator> generator,
                           const Tensor& out) {
  resize_out(out, size);
  return ops::normal_(out, 0, 1, generator);
}
Tensor randn_out(IntArrayRef size, const Tensor& out) {
  return randn_generator_out(size, std::nullopt, out);
}
Tensor randint_low_generator_out(int64_t low, int64_t high, IntArrayRef size,
                                 std::optional<Generator> generator, const Tensor& out) {
  resize_out(out, size);
  return ops::random_(out, low, std::optional<int64_t>(high), generator);
}
Tensor randint_low_out(int64_t low, int64_t high, IntArrayRef size, const Tensor& out) {
  return randint_low_generator_out(low, high, size, std::nullopt, out);
}
Tensor randint_generator_out(int64_t high, IntArrayRef size, std::optional<Generator> generator,
                             const Tensor& out) {
  return randint_low_generator_out(0, high, size, generator, out);
}
Tensor randint_out(int64_t high, IntArrayRef size, const Tensor& out) {
  return randint_low_generator_out(0, high, size, std::nullopt, out);
}

static Library composite_explicit_factories_out(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("empty.out", fn<&empty_out>);
      m.impl("zeros.out", fn<&zeros_out>);
      m.impl("ones.out", fn<&ones_out>);
      m.impl("full.out", fn<&full_out>);
      m.impl("arange.out", fn<&arange_out>);
      m.impl("arange.start_out", fn<&arange_start_out>);
      m.impl("linspace.out", fn<&linspace_out>);
      m.impl("logspace", fn<&logspace>);
      m.impl("eye.out", fn<&eye_out>);
      m.impl("eye.m_out", fn<&eye_m_out>);
      m.impl("rand.out", fn<&rand_out>);
      m.impl("rand.generator_out", fn<&rand_generator_out>);
      m.impl("randn.out", fn<&randn_out>);
      m.impl("randn.generator_out", fn<&randn_generator_out>);
      m.impl("randint.out", fn<&randint_out>);
      m.impl("randint.generator_out", fn<&randint_generator_out>);
      m.impl("randint.low_out", fn<&randint_low_out>);
      m.impl("randint.low_generator_out", fn<&randint_low_generator_out>);
    });

// size with stride, uninitialized, in self's dtype and on its device unless given.
Tensor new_empty_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                         std::optional<ScalarType> dtype, std::optional<int64_t> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory) {
  return ops::empty_strided(size, stride, dtype.value_or(self.dtype()), layout,
                            device.value_or(self.device()), pin_memory);
}

// --- normal's tensor forms: torch 1.13's normal_impl / normal_out_impl (CompositeExplicitAutograd
// here, over normal_, mul_ and add_, so every backend with those runs them) -----------------------

namespace {
void check_normal_std(double std) {
  OPSCOPE_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
}
void check_normal_std(const Tensor& std) {
  OPSCOPE_CHECK(std.numel() == 0 || !ops::item(ops::any(ops::lt(std, Scalar(0.0)))).to_bool(),
                "normal expects all elements of std >= 0.0");
}
}  // namespace

// mean (any shape) + std * N(0, 1)
Tensor normal_tensor_float(const Tensor& mean, double std, std::optional<Generator> generator) {
  check_normal_std(std);
  Tensor out = ops::empty_like(mean, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                               ops::kContiguousFormat);
  ops::normal_(out, 0.0, std, generator);
  return ops::add_(out, mean);
}

// mean + std (any shape) * N(0, 1)
Tensor normal_float_tensor(double mean, const Tensor& std, std::optional<Generator> generator) {
  check_normal_std(std);
  Tensor out = ops::empty_like(std, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                               ops::kContiguousFormat);
  ops::normal_(out, 0.0, 1.0, generator);
  return ops::add_(ops::mul_(out, std),
                   ops::full({}, Scalar(mean), out.dtype(), std::nullopt, out.device()));
}

// mean + std * N(0, 1), mean and std broadcast
Tensor normal_tensor_tensor(const Tensor& mean, const Tensor& std,
                            std::optional<Generator> generator) {
  check_normal_std(std);
  const DimVector shape = broadcast_shapes(mean.sizes(), std.sizes());
  Tensor out = ops::empty(shape, mean.dtype(), std::nullopt, mean.device());
  ops::normal_(out, 0.0, 1.0, generator);
  return ops::add_(ops::mul_(out, std), mean);
}

// A new tensor of `size`: mean + std * N(0, 1) (torch's normal(float, float, size): empty, then
// normal_).
Tensor normal_float_float(double mean, double std, IntArrayRef size,
                          std::optional<Generator> generator, std::optional<ScalarType> dtype,
                          std::optional<int64_t> layout, std::optional<Device> device,
                          std::optional<bool> pin_memory) {
  Tensor r = ops::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return ops::normal_(r, mean, std, generator);
}

// self [*s] (probabilities) -> [*s] of self's dtype: 1 with probability self's element.
Tensor bernoulli(const Tensor& self, std::optional<Generator> generator) {
  Tensor r = ops::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                             ops::kContiguousFormat);
  return ops::bernoulli__tensor(r, self, generator);
}

// self [*s] -> [*s] of self's dtype: 1 with probability p (CompositeImplicitAutograd, as torch:
// empty_like + bernoulli_.float, no gradient).
Tensor bernoulli_p(const Tensor& self, double p, std::optional<Generator> generator) {
  Tensor r = ops::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                             ops::kContiguousFormat);
  return ops::bernoulli_(r, p, generator);
}

static Library composite_implicit_random(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd,
    [](Library& m) { m.impl("bernoulli.p", fn<&bernoulli_p>); });

static Library composite_explicit_factories(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("normal.float_float", fn<&normal_float_float>);
      m.impl("normal.Tensor_float", fn<&normal_tensor_float>);
      m.impl("normal.float_Tensor", fn<&normal_float_tensor>);
      m.impl("normal.Tensor_Tensor", fn<&normal_tensor_tensor>);
      m.impl("bernoulli", fn<&bernoulli>);
      m.impl("new_empty_strided", fn<&new_empty_strided>);
      m.impl("empty_like", fn<&empty_like>);
      m.impl("zeros_like", fn<&zeros_like>);
      m.impl("ones_like", fn<&ones_like>);
      m.impl("full_like", fn<&full_like>);
      m.impl("rand_like", fn<&rand_like>);
      m.impl("randn_like", fn<&randn_like>);
      m.impl("randint_like", fn<&randint_like>);
      m.impl("randint_like.low_dtype", fn<&randint_like_low_dtype>);
    });

}  // namespace opscope::composite
