// The CPU kernel of logspace.out (schema in core/ops/factories.cpp; the functional logspace is
// CompositeExplicitAutograd over it, in core/ops/composite/factories.cpp, as in torch 1.13).
//
// out [steps] = base ** e_i, the exponents e_i running from start to end as linspace's do:
// step = (end - start) / (steps - 1), e_i = start + step * i for the first half and
// end - step * (steps - 1 - i) for the second, so both ends are exact. As torch's kernel: start
// and end are first converted to out's dtype (an integer dtype truncates them, and uint8 wraps
// negatives), their difference is taken in that dtype (bfloat16 rounds it), the exponents and the
// power are double, and the power is converted to the dtype (truncated for integers; for a value
// an integer cannot hold, what x86's conversion gives, as in torch's build). One step: out =
// base ** start, through fill_ (any dtype, bool too). bool (more steps) and float16 are refused.
#include <cmath>
#include <type_traits>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/copy.h"
#include "core/ops/cpu/Loops.h"
#include "core/runtime/ScalarConvert.h"

namespace opscope::cpu {

namespace {

template <typename T>
void logspace_fill(T* out, int64_t steps, double base, const Scalar& start_s, const Scalar& end_s) {
  const T start = checked_convert<T>(start_s), end = checked_convert<T>(end_s);
  double difference;
  if constexpr (std::is_same_v<T, BFloat16>)  // c10's BFloat16 - BFloat16 is a BFloat16
    difference = static_cast<float>(BFloat16(static_cast<float>(end) - static_cast<float>(start)));
  else
    difference = static_cast<double>(end - start);  // integers: in int (int64 for int64)
  const double step = difference / static_cast<double>(steps - 1);
  const double first = static_cast<double>(start), last = static_cast<double>(end);
  const int64_t halfway = steps / 2;
  parallel_for(0, steps, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const double exponent = i < halfway ? first + step * static_cast<double>(i)
                                          : last - step * static_cast<double>(steps - i - 1);
      const double v = std::pow(base, exponent);
      if constexpr (std::is_same_v<T, BFloat16>)
        out[i] = BFloat16(static_cast<float>(v));
      else
        out[i] = static_cast<T>(v);
    }
  });
}

}  // namespace

// -> out [steps]
Tensor logspace_out(const Scalar& start, const Scalar& end, int64_t steps, double base,
                    const Tensor& out) {
  OPSCOPE_CHECK(steps >= 0, "number of steps must be non-negative");
  if (out.numel() != steps) resize_output(out, {steps});
  if (steps == 0) return out;
  if (steps == 1) {
    ops::fill_(out, Scalar(std::pow(base, start.to_double())));
    return out;
  }
  Tensor r = out.is_contiguous() ? out : make_empty({steps}, out.dtype(), out.device());
  dispatch_dtype_if(
      r.dtype(), "logspace_cpu",
      []<typename T>() {
        return std::bool_constant < !std::is_same_v<T, bool> && !std::is_same_v < T, Half >> {};
      },
      [&]<typename T>() { logspace_fill<T>(r.data_ptr<T>(), steps, base, start, end); });
  if (!r.is_same(out)) ops::copy_(out, r);
  return out;
}

static Library cpu_logspace(Library::IMPL, "aten", DispatchKey::CPU,
                            [](Library& m) { m.impl("logspace.out", fn<&logspace_out>); });

}  // namespace opscope::cpu
