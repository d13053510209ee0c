// CUDA kernels of the ternary family: addcmul and addcdiv (host side: ternary.cpp).
#include "core/cuda/kernels/LaunchTernary.h"
#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

namespace {

// self + value * (tensor1 * tensor2), or / for Div: torch's CUDA grouping (the product or
// quotient first), in acc_t<T>. NaN and inf follow the arithmetic.
template <typename T, bool Div>
struct Addc {
  acc_t<T> value;
  __device__ T operator()(T self, T a, T b) const {
    using A = acc_t<T>;
    const A ab = Div ? cvt<A>(a) / cvt<A>(b) : cvt<A>(a) * cvt<A>(b);
    return cvt<T>(cvt<A>(self) + value * ab);
  }
};

}  // namespace

void launch_addc(bool div, const ElementwiseArgs& args, double value, int64_t ivalue,
                 void* stream) {
  const char* name = div ? "addcdiv_cuda" : "addcmul_cuda";
  dispatch_numeric(args.dtypes[0], name, [&]<typename T>() {
    using A = acc_t<T>;
    const A v = IsFloat<T>::value ? static_cast<A>(value) : static_cast<A>(ivalue);
    if (div)
      gpu_elementwise<T, T, T, T>(args, Addc<T, true>{v}, stream, name);
    else
      gpu_elementwise<T, T, T, T>(args, Addc<T, false>{v}, stream, name);
  });
}

}  // namespace opscope::cuda
