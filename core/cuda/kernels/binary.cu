// CUDA kernels of the binary elementwise ops: add / sub (alpha), mul, div (true, trunc, floor),
// pow, maximum / minimum, remainder, fmod, atan2, the bitwise and logical ops, lerp, mse_loss's
// squared difference. Operands share one dtype (the host side promoted them); 16-bit floats
// compute in float and round once, as torch's CUDA kernels.
#include "core/cuda/kernels/Loops.cuh"

namespace opscope::cuda {

namespace {

template <typename A>
__device__ __forceinline__ A float_floor_divide(A a, A b) {
  if (b == A(0)) return a / b;
  A mod = fmod(a, b);
  A div = (a - mod) / b;
  if (mod != A(0) && ((b < A(0)) != (mod < A(0)))) div -= A(1);
  if (div == A(0)) return copysign(A(0), a / b);
  A floored = floor(div);
  if (div - floored > A(0.5)) floored += A(1);
  return floored;
}

template <typename A>
__device__ __forceinline__ A float_binary(BinaryOp op, A a, A b, A alpha) {
  switch (op) {
    case BinaryOp::Add: return a + alpha * b;
    case BinaryOp::Mul: return a * b;
    case BinaryOp::Div: return a / b;
    case BinaryOp::DivTrunc: return trunc(a / b);
    case BinaryOp::DivFloor: return float_floor_divide(a, b);
    case BinaryOp::Pow: return pow(a, b);
    case BinaryOp::Maximum: return (a != a || b != b) ? a + b : (a > b ? a : b);
    case BinaryOp::Minimum: return (a != a || b != b) ? a + b : (a < b ? a : b);
    case BinaryOp::Remainder: {
      A r = fmod(a, b);
      if (r != A(0) && ((r < A(0)) != (b < A(0)))) r += b;
      return r;
    }
    case BinaryOp::Fmod: return fmod(a, b);
    case BinaryOp::Atan2: return atan2(a, b);
    case BinaryOp::LerpScalar: return a + alpha * (b - a);
    case BinaryOp::SquaredDiff: return (a - b) * (a - b);
    default: return a;
  }
}

template <typename T>
struct FloatBinary {
  BinaryOp op;
  acc_t<T> alpha;
  __device__ T operator()(T a, T b) const {
    using A = acc_t<T>;
    return cvt<T>(float_binary<A>(op, cvt<A>(a), cvt<A>(b), alpha));
  }
};

template <typename T>
__device__ __forceinline__ T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  uint64_t result = 1, b = static_cast<uint64_t>(static_cast<int64_t>(base));
  for (auto e = static_cast<uint64_t>(exp); e != 0; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  return static_cast<T>(result);
}

// Integers wrap (arithmetic through the unsigned twin); division by zero gives -1 as CUDA's
// hardware does for torch (no error on the device).
template <typename T>
struct IntBinary {
  BinaryOp op;
  T alpha;
  __device__ T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case BinaryOp::Add: return static_cast<T>(U(a) + U(alpha) * U(b));
      case BinaryOp::Mul: return static_cast<T>(U(a) * U(b));
      case BinaryOp::DivTrunc:
      case BinaryOp::DivFloor: {
        if (b == 0) return T(-1);
        if constexpr (std::is_signed_v<T>) {
          if (b == T(-1)) return static_cast<T>(U(0) - U(a));
        }
        T q = a / b;
        if constexpr (std::is_signed_v<T>) {
          if (op == BinaryOp::DivFloor && (a % b != 0) && ((a < 0) != (b < 0))) --q;
        }
        return q;
      }
      case BinaryOp::Pow: return int_pow(a, b);
      case BinaryOp::Maximum: return a > b ? a : b;
      case BinaryOp::Minimum: return a < b ? a : b;
      case BinaryOp::Remainder: {
        if (b == 0) return T(-1);
        if constexpr (std::is_signed_v<T>) {
          if (b == T(-1)) return T(0);
        }
        T r = a % b;
        if constexpr (std::is_signed_v<T>) {
          if (r != 0 && ((r < 0) != (b < 0))) r += b;
        }
        return r;
      }
      case BinaryOp::Fmod:
        if (b == 0) return T(-1);
        if constexpr (std::is_signed_v<T>) {
          if (b == T(-1)) return T(0);
        }
        return a % b;
      case BinaryOp::BitAnd: return a & b;
      case BinaryOp::BitOr: return a | b;
      case BinaryOp::BitXor: return a ^ b;
      default: return a;
    }
  }
};

struct BoolBinary {
  BinaryOp op;
  __device__ bool operator()(bool a, bool b) const {
    switch (op) {
      case BinaryOp::Add:
      case BinaryOp::BitOr:
      case BinaryOp::Maximum: return a || b;
      case BinaryOp::Mul:
      case BinaryOp::BitAnd:
      case BinaryOp::Minimum: return a && b;
      case BinaryOp::BitXor: return a != b;
      default: return a;
    }
  }
};

// Output bool, or (out= of another dtype) the inputs' dtype holding 1 / 0.
template <typename T, typename R>
struct Logical {
  BinaryOp op;
  __device__ R operator()(T a, T b) const {
    bool x = cvt<bool>(a), y = cvt<bool>(b);
    bool r = op == BinaryOp::LogicalAnd ? (x && y) : op == BinaryOp::LogicalOr ? (x || y) : x != y;
    return cvt<R>(r);
  }
};

}  // namespace

void launch_binary(BinaryOp op, const ElementwiseArgs& args, double alpha, int64_t ialpha,
                   void* stream) {
  if (op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr || op == BinaryOp::LogicalXor) {
    const bool bool_out = args.dtypes[0] == DT::Bool;
    dispatch_dt(args.dtypes[1], "logical_cuda", [&]<typename T>() {
      if (bool_out) {
        gpu_elementwise<bool, T, T>(args, Logical<T, bool>{op}, stream, "logical_cuda");
      } else {
        gpu_elementwise<T, T, T>(args, Logical<T, T>{op}, stream, "logical_cuda");
      }
    });
    return;
  }
  dispatch_dt(args.dtypes[0], "binary_cuda", [&]<typename T>() {
    if constexpr (std::is_same_v<T, bool>) {
      gpu_elementwise<bool, bool, bool>(args, BoolBinary{op}, stream, "binary_cuda");
    } else if constexpr (IsFloat<T>::value) {
      gpu_elementwise<T, T, T>(args, FloatBinary<T>{op, static_cast<acc_t<T>>(alpha)}, stream,
                               "binary_cuda");
    } else {
      gpu_elementwise<T, T, T>(args, IntBinary<T>{op, static_cast<T>(ialpha)}, stream,
                               "binary_cuda");
    }
  });
}

}  // namespace opscope::cuda
