// The Winograd F(4x4, 3x3) path of the 3x3, stride-1 convolutions (called from
// core/ops/cpu/conv.cpp, declared in core/ops/cpu/conv_winograd.h).
#include "core/ops/cpu/conv_winograd.h"

#include <cstring>
#include <vector>

#include "core/ops/cpu/Loops.h"
#include "core/runtime/Parallel.h"

namespace opscope::cpu::conv_impl {

namespace {

// --- Winograd F(4x4, 3x3) --------------------------------------------------------------------
// Note [Winograd convolution]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A 3x3 convolution with stride 1 and no dilation computes each 4x4 block of output from a 6x6
// block of input. Winograd's minimal filtering (Lavin & Gray 2015, F(4x4, 3x3)) does that with
// 36 products instead of 144, in transformed coordinates:
//   Y (4x4) = A^T [ (G g G^T) . (B^T d B) ] A      (. elementwise; g the 3x3 kernel, d the tile)
// Summed over input channels, the elementwise products become 36 matrix products, one per
// transformed position xi:  M[xi] (O, tiles) = U[xi] (O, C) · V[xi] (C, tiles), with
// U = G g G^T per (o, c) and V = B^T d B per (c, tile): 4x fewer multiply-adds than im2col +
// gemm, for the price of three transforms linear in the data. The transforms' constants (up to
// 8 in A, 1/24 in G) round more than direct summation: float32 results differ from it by about
// 1e-5 relative (torch's oneDNN uses the same transform for float32). Used when both channel
// counts are at least kWinogradMinChannels (below that the transforms, not the products,
// dominate).
constexpr int kTileOut = 4, kTile = 6, kPositions = kTile * kTile;

// B^T (6x6), G (6x3), A^T (4x6) of F(4x4, 3x3).
constexpr double kBT[kTile][kTile] = {{4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0},
                                      {0, 4, -4, -1, 1, 0}, {0, -2, -1, 2, 1, 0},
                                      {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1}};
constexpr double kG[kTile][3] = {{1.0 / 4, 0, 0},
                                 {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                 {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                 {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                 {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                 {0, 0, 1}};
constexpr double kAT[kTileOut][kTile] = {
    {1, 1, 1, 1, 1, 0}, {0, 1, -1, 2, -2, 0}, {0, 1, 1, 4, 4, 0}, {0, 1, -1, 8, -8, 1}};

// U[xi][o][c] = (G g G^T)[xi] for w (O, C, 3, 3), computed in double.
template <typename T>
void winograd_weights(const T* w, T* U, int64_t O, int64_t C) {
  for (int64_t o = 0; o < O; ++o) {
    for (int64_t c = 0; c < C; ++c) {
      const T* g = w + (o * C + c) * 9;
      double t[kTile][3];  // G g
      for (int i = 0; i < kTile; ++i)
        for (int j = 0; j < 3; ++j)
          t[i][j] = kG[i][0] * g[j] + kG[i][1] * g[3 + j] + kG[i][2] * g[6 + j];
      for (int i = 0; i < kTile; ++i)
        for (int j = 0; j < kTile; ++j)
          U[((i * kTile + j) * O + o) * C + c] =
              static_cast<T>(t[i][0] * kG[j][0] + t[i][1] * kG[j][1] + t[i][2] * kG[j][2]);
    }
  }
}

// V[xi][c][t] = (B^T d B)[xi] for the 6x6 input tiles d of images x (n, C, H, W), tile t =
// (image, ty, tx) starting at row 4 ty - ph, column 4 tx - pw (zeros outside the image): B^T on
// whole padded rows first (vectorized along the row), then along each tile's columns.
template <typename T>
OPSCOPE_VECTOR_CLONES void winograd_input(const T* x, T* V, int64_t images, int64_t C, int64_t H,
                                          int64_t W, int64_t ph, int64_t pw, int64_t TH,
                                          int64_t TW, int64_t tiles) {
  const int64_t Wp = kTileOut * TW + 2;
  std::vector<T> rows(static_cast<size_t>(2 * kTile * Wp));
  T* d = rows.data();              // 6 padded input rows
  T* e = rows.data() + kTile * Wp;  // B^T d, 6 rows
  const int64_t lo = std::min(pw, Wp), hi = std::clamp(W + pw, lo, Wp);
  for (int64_t n = 0; n < images; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const T* plane = x + (n * C + c) * H * W;
      for (int64_t ty = 0; ty < TH; ++ty) {
        for (int r = 0; r < kTile; ++r) {
          const int64_t iy = kTileOut * ty - ph + r;
          T* row = d + r * Wp;
          if (iy < 0 || iy >= H) {
            std::fill(row, row + Wp, T(0));
            continue;
          }
          std::fill(row, row + lo, T(0));
          std::memcpy(row + lo, plane + iy * W + (lo - pw), sizeof(T) * (hi - lo));
          std::fill(row + hi, row + Wp, T(0));
        }
        const T *d0 = d, *d1 = d + Wp, *d2 = d + 2 * Wp, *d3 = d + 3 * Wp, *d4 = d + 4 * Wp,
                *d5 = d + 5 * Wp;
        T *e0 = e, *e1 = e + Wp, *e2 = e + 2 * Wp, *e3 = e + 3 * Wp, *e4 = e + 4 * Wp,
          *e5 = e + 5 * Wp;
#pragma omp simd
        for (int64_t j = 0; j < Wp; ++j) {
          e0[j] = T(4) * d0[j] - T(5) * d2[j] + d4[j];
          e1[j] = -T(4) * (d1[j] + d2[j]) + d3[j] + d4[j];
          e2[j] = T(4) * (d1[j] - d2[j]) - d3[j] + d4[j];
          e3[j] = T(2) * (d3[j] - d1[j]) - d2[j] + d4[j];
          e4[j] = T(2) * (d1[j] - d3[j]) - d2[j] + d4[j];
          e5[j] = T(4) * d1[j] - T(5) * d3[j] + d5[j];
        }
        const int64_t t0 = (n * TH + ty) * TW;
        for (int k = 0; k < kTile; ++k) {
          const T* r = e + k * Wp;
          T* v0 = V + ((k * kTile + 0) * C + c) * tiles + t0;
          T* v1 = v0 + C * tiles;
          T* v2 = v1 + C * tiles;
          T* v3 = v2 + C * tiles;
          T* v4 = v3 + C * tiles;
          T* v5 = v4 + C * tiles;
#pragma omp simd
          for (int64_t tx = 0; tx < TW; ++tx) {
            const T* q = r + kTileOut * tx;
            v0[tx] = T(4) * q[0] - T(5) * q[2] + q[4];
            v1[tx] = -T(4) * (q[1] + q[2]) + q[3] + q[4];
            v2[tx] = T(4) * (q[1] - q[2]) - q[3] + q[4];
            v3[tx] = T(2) * (q[3] - q[1]) - q[2] + q[4];
            v4[tx] = T(2) * (q[1] - q[3]) - q[2] + q[4];
            v5[tx] = T(4) * q[1] - T(5) * q[3] + q[5];
          }
        }
      }
    }
  }
}

// One row of tiles: s[k][l] = (A^T m)[k][l] for k < 4 from the 36 products m[xi][tx], then the
// 4x4 outputs (+ b) y[i][j][tx] = (s A)[i][j]. m's positions are `stride` apart.
template <typename T>
OPSCOPE_VECTOR_CLONES void winograd_output_row(const T* m, int64_t stride, int64_t TW, T b,
                                               T* __restrict y) {
  for (int l = 0; l < kTile; ++l) {
    const T *m0 = m + l * stride, *m1 = m + (6 + l) * stride, *m2 = m + (12 + l) * stride;
    const T *m3 = m + (18 + l) * stride, *m4 = m + (24 + l) * stride,
            *m5 = m + (30 + l) * stride;
    T* s = y + (16 + l * 4) * TW;  // scratch rows after the 16 output rows
#pragma omp simd
    for (int64_t tx = 0; tx < TW; ++tx) {
      const T a = m1[tx] + m2[tx], bb = m1[tx] - m2[tx];
      const T c = m3[tx] + m4[tx], dd = m3[tx] - m4[tx];
      s[tx] = m0[tx] + a + c;
      s[TW + tx] = bb + T(2) * dd;
      s[2 * TW + tx] = a + T(4) * c;
      s[3 * TW + tx] = bb + T(8) * dd + m5[tx];
    }
  }
  for (int k = 0; k < kTileOut; ++k) {
    const T *s0 = y + (16 + 0 * 4 + k) * TW, *s1 = y + (16 + 1 * 4 + k) * TW;
    const T *s2 = y + (16 + 2 * 4 + k) * TW, *s3 = y + (16 + 3 * 4 + k) * TW;
    const T *s4 = y + (16 + 4 * 4 + k) * TW, *s5 = y + (16 + 5 * 4 + k) * TW;
    T *y0 = y + (k * 4 + 0) * TW, *y1 = y + (k * 4 + 1) * TW, *y2 = y + (k * 4 + 2) * TW,
      *y3 = y + (k * 4 + 3) * TW;
#pragma omp simd
    for (int64_t tx = 0; tx < TW; ++tx) {
      const T a = s1[tx] + s2[tx], bb = s1[tx] - s2[tx];
      const T c = s3[tx] + s4[tx], dd = s3[tx] - s4[tx];
      y0[tx] = s0[tx] + a + c + b;
      y1[tx] = bb + T(2) * dd + b;
      y2[tx] = a + T(4) * c + b;
      y3[tx] = bb + T(8) * dd + s5[tx] + b;
    }
  }
}

// y (n, O, OH, OW) = A^T M A (+ bias) for each tile: per output channel, all the chunk's tiles
// in one vectorized pass (a row of tiles alone is too short a vector), then copied into place.
template <typename T>
void winograd_output(const T* M, T* y, const T* bias, int64_t images, int64_t O, int64_t OH,
                     int64_t OW, int64_t TH, int64_t TW, int64_t tiles) {
  std::vector<T> buf(static_cast<size_t>((16 + 24) * tiles));  // 16 output rows + 24 scratch
  const T* out = buf.data();
  const int64_t stride = O * tiles;  // between transformed positions
  for (int64_t o = 0; o < O; ++o) {
    winograd_output_row(M + o * tiles, stride, tiles, bias != nullptr ? bias[o] : T(0),
                        buf.data());
    for (int64_t n = 0; n < images; ++n) {
      T* plane = y + (n * O + o) * OH * OW;
      for (int64_t ty = 0; ty < TH; ++ty) {
        const int64_t t0 = (n * TH + ty) * TW;
        for (int i = 0; i < kTileOut && kTileOut * ty + i < OH; ++i) {
          T* row = plane + (kTileOut * ty + i) * OW;
          const T *c0 = out + (i * 4) * tiles + t0, *c1 = c0 + tiles, *c2 = c1 + tiles,
                  *c3 = c2 + tiles;
          const int64_t full = OW / kTileOut;  // tiles whose four columns are all inside
          for (int64_t tx = 0; tx < full; ++tx) {
            T* dst = row + kTileOut * tx;
            dst[0] = c0[tx];
            dst[1] = c1[tx];
            dst[2] = c2[tx];
            dst[3] = c3[tx];
          }
          const T* cs[4] = {c0, c1, c2, c3};
          for (int64_t j = 0; kTileOut * full + j < OW; ++j) row[kTileOut * full + j] = cs[j][full];
        }
      }
    }
  }
}

}  // namespace

// See Note [Winograd convolution]. Images go in chunks of about kWinogradTiles tiles, a chunk per
// thread when the batch has enough of them.
template <typename T>
void winograd_conv(const T* x, const T* w, const T* bias, T* y, int64_t N, int64_t C, int64_t H,
                   int64_t W, int64_t O, int64_t OH, int64_t OW, int64_t ph, int64_t pw) {
  constexpr int64_t kWinogradTiles = 128;
  const int64_t TH = (OH + kTileOut - 1) / kTileOut, TW = (OW + kTileOut - 1) / kTileOut;
  const int64_t per_image = TH * TW;
  std::vector<T> U(static_cast<size_t>(kPositions * O * C));
  winograd_weights(w, U.data(), O, C);
  const int64_t chunk = std::clamp<int64_t>(kWinogradTiles / std::max<int64_t>(per_image, 1), 1, N);
  const int64_t chunks = (N + chunk - 1) / chunk;
  const auto run = [&](int64_t first, int64_t last) {
    T* V = scratch<T>(kWinogradInput, kPositions * C * chunk * per_image);
    T* M = scratch<T>(kWinogradProducts, kPositions * O * chunk * per_image);
    for (int64_t q = first; q < last; ++q) {
      const int64_t n0 = q * chunk, images = std::min(chunk, N - n0), tiles = images * per_image;
      winograd_input(x + n0 * C * H * W, V, images, C, H, W, ph, pw, TH, TW, tiles);
      for (int xi = 0; xi < kPositions; ++xi)
        gemm<T>(false, false, O, tiles, C, T(1), U.data() + xi * O * C, C, V + xi * C * tiles,
                tiles, T(0), M + xi * O * tiles, tiles);
      winograd_output(M, y + n0 * O * OH * OW, bias, images, O, OH, OW, TH, TW, tiles);
    }
  };
  const int threads = get_num_threads();
  if (threads > 1 && chunks >= 2 * threads)
    parallel_for(0, chunks, 1, run);
  else
    run(0, chunks);
}

template void winograd_conv<float>(const float*, const float*, const float*, float*, int64_t,
                                   int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                   int64_t);
template void winograd_conv<double>(const double*, const double*, const double*, double*,
                                    int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                                    int64_t, int64_t);

}  // namespace opscope::cpu::conv_impl
