// The special functions <cmath> lacks, for the CPU kernels of digamma, polygamma, erfinv
// (core/ops/cpu/unary_math.cpp), logaddexp (binary_math.cpp) and logcumsumexp (scan.cpp), each a
// scalar function of one float type A (float or double; bfloat16 computes in float). Private to
// the kernel files.
//
//   special::digamma(0.5)          // -1.9635100260214235 = -γ - 2 ln 2
//   special::polygamma(1, 1.0)     // 1.6449340668482264 = π² / 6
//   special::erfinv(0.5)           // 0.4769362762044699
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace opscope::cpu::special {

template <typename A>
constexpr A kInf = std::numeric_limits<A>::infinity();
template <typename A>
constexpr A kNaN = std::numeric_limits<A>::quiet_NaN();

// ln(e^a + e^b) = max + ln(1 + e^-|a - b|): NaN if either is, two equal infinities give
// themselves (not inf - inf).
template <typename A>
A log_add_exp(A a, A b) {
  if (a != a || b != b) return kNaN<A>;  // before min / max drop it
  const A lo = std::min(a, b), hi = std::max(a, b);
  if (std::isinf(lo) && lo == hi) return lo;
  return hi + std::log1p(std::exp(lo - hi));
}

// ψ(x) = d/dx ln Γ(x). Poles at 0, -1, -2, ...: NaN there, except ∓inf at ±0 (as torch). Below 0
// by the reflection ψ(x) = ψ(1 - x) - π / tan(π x); above, ψ(x) = ψ(x + 1) - 1 / x up to x ≥ 10,
// then the asymptotic series ln x - 1 / 2x - Σ B₂ₖ / (2k x²ᵏ), seven terms (the eighth is below
// 10⁻¹⁸ there).
template <typename A>
A digamma(A x) {
  if (x == 0) return std::copysign(kInf<A>, -x);
  if (std::isnan(x) || x == -kInf<A>) return kNaN<A>;
  if (x < 0) {
    if (x == std::trunc(x)) return kNaN<A>;
    const A fraction = x - std::floor(x);  // tan(π x) from x's fraction, exact, keeps its digits
    return digamma(A(1) - x) - std::numbers::pi_v<A> / std::tan(std::numbers::pi_v<A> * fraction);
  }
  A shift = 0;
  for (; x < A(10); x += A(1)) shift -= A(1) / x;
  const A z = A(1) / (x * x);
  // B₂ₖ / 2k for k = 1..7: 1/12, -1/120, 1/252, -1/240, 1/132, -691/32760, 1/12.
  const A series =
      z * (A(1) / 12 -
           z * (A(1) / 120 -
                z * (A(1) / 252 -
                     z * (A(1) / 240 - z * (A(1) / 132 - z * (A(691) / 32760 - z / 12))))));
  return shift + std::log(x) - A(0.5) / x - series;
}

// The Hurwitz zeta function ζ(s, q) = Σₖ (q + k)⁻ˢ for s > 1 (here s = n + 1, an integer, so q
// may be negative: inf at q = 0, -1, -2, ...). The sum is taken term by term until q + k ≥ 9
// (at least 9 terms; a negative q is first moved to positive ones), and its tail by Euler–Maclaurin: ∫ + half the first term + the Bernoulli
// corrections B₂ⱼ / (2j)! · s (s + 1) ⋯ (s + 2j - 2) · w^(-s-2j+1), w = q + N, until they stop
// mattering.
template <typename A>
A hurwitz_zeta(A s, A q) {
  if (q <= 0 && q == std::floor(q)) return kInf<A>;
  if (q < 0) {
    // q = M + r, M = floor(q) < 0, 0 < r < 1: the terms q, q + 1, ..., -1 + r are -(j - r) for
    // j = 1..|M|, so ζ(s, q) = ζ(s, r) + (-1)^s (ζ(s, 1 - r) - ζ(s, 1 - r + |M|)) — three sums
    // from positive q, however negative q is (a loop up to q + k ≥ 9 would not end in time).
    const A m = std::floor(q), r = q - m;
    const A sign = std::fmod(s, A(2)) == 0 ? A(1) : A(-1);
    // (the first two first: for r = 1/2 and odd s they cancel exactly)
    return (hurwitz_zeta(s, r) + sign * hurwitz_zeta(s, A(1) - r)) -
           sign * hurwitz_zeta(s, A(1) - r - m);
  }
  constexpr A eps = std::numeric_limits<A>::epsilon();
  A sum = 0;
  int terms = 0;
  for (; terms < 9 || q < A(9); ++terms, q += A(1)) {
    const A term = std::pow(q, -s);
    sum += term;
    if (terms >= 9 && std::abs(term) <= eps * std::abs(sum)) return sum;
  }
  const A w = q;
  sum += std::pow(w, A(1) - s) / (s - A(1)) + A(0.5) * std::pow(w, -s);
  // B₂ⱼ, j = 1..12, as numerator / denominator.
  constexpr double bernoulli[12][2] = {
      {1, 6},        {-1, 30},         {1, 42},           {-1, 30},
      {5, 66},       {-691, 2730},     {7, 6},            {-3617, 510},
      {43867, 798},  {-174611, 330},   {854513, 138},     {-236364091, 2730}};
  A rising = s;                   // s (s + 1) ⋯ (s + 2j - 2)
  A power = std::pow(w, -s - 1);  // w^(-s-2j+1)
  double factorial = 2;           // (2j)!
  for (int j = 1; j <= 12; ++j) {
    const A term = A(bernoulli[j - 1][0] / bernoulli[j - 1][1] / factorial) * rising * power;
    sum += term;
    if (std::abs(term) <= eps * std::abs(sum)) break;
    rising *= (s + A(2 * j - 1)) * (s + A(2 * j));
    power /= w * w;
    factorial *= double(2 * j + 1) * double(2 * j + 2);
  }
  return sum;
}

// ψ⁽ⁿ⁾(x), n ≥ 1: (-1)ⁿ⁺¹ n! ζ(n + 1, x).
template <typename A>
A polygamma(int64_t n, A x) {
  if (n == 0) return digamma(x);
  A factorial = 1;  // n! (inf from 171! in double, 35! in float: the loop stops there)
  for (int64_t k = 2; k <= n && std::isfinite(factorial); ++k) factorial *= A(k);
  const A sign = (n % 2 == 1) ? A(1) : A(-1);
  return sign * factorial * hurwitz_zeta(A(n + 1), x);
}

// erf⁻¹(y) on [-1, 1] (±inf at ±1, NaN outside). Winitzki's closed form (a = 0.147, relative
// error below 2·10⁻³) gives a start; three Halley steps — on erf(x) = y for |y| ≤ 1/2, on
// erfc(x) = 1 - |y| beyond, where 1 - |y| is exact and erfc keeps the digits erf loses — make it
// exact to the last bit or two of double (two usually do: the third runs only when the second
// step was large). Computed in double for float too.
inline double erfinv(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return kNaN<double>;
  if (y == 0) return y;  // keeps -0
  if (std::abs(y) == 1) return std::copysign(kInf<double>, y);
  const double ay = std::abs(y);
  const double a = 0.147, two_over_pi_a = 2 / (std::numbers::pi * a);
  const double ln = std::log((1 - ay) * (1 + ay));
  const double c = two_over_pi_a + ln / 2;
  double x = std::sqrt(std::sqrt(c * c - ln / a) - c);
  const double slope = 2 / std::sqrt(std::numbers::pi);  // erf'(x) = slope · exp(-x²)
  for (int i = 0; i < 3; ++i) {  // cubic: 2e-3, 1e-8, then below double's last bit
    const double d = slope * std::exp(-x * x);
    double step;
    if (ay <= 0.5) {
      const double f = std::erf(x) - ay;  // Halley: x - f / (f' - f f'' / 2f'), f'' = -2x f'
      step = -f / (d + x * f);
    } else {
      const double g = std::erfc(x) - (1 - ay);  // g' = -f', g'' = 2x f'
      step = g / (d - x * g);
    }
    x += step;
    if (std::abs(step) <= 1e-9 * x) break;  // the next step would be below 1e-24 x: done
  }
  return std::copysign(x, y);
}

}  // namespace opscope::cpu::special
