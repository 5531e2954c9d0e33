// The matrix-product kernel under dot_general. Natively it is Eigen's GEMM.
// In wasm, Eigen 3.4 has no SIMD128 packet path (its products run scalar,
// about 0.1x native), and its SSE path through Emscripten's SSE headers is
// slower still at large sizes (docs/performance.md has the figures), so
// float32 products use the blocked kernel below: operands packed into
// contiguous panels, a 3x8 register tile of multiplies and adds in SIMD128,
// or a 6x8 tile of fused multiply-adds where the engine offers them
// (platform::fused_micro_kernel: relaxed SIMD, in a module of its own). In
// its own header so the kernel benchmark (tests/bench/matmul_bench.cc) times
// exactly this code under each set of flags; SHARDLAB_GEMM_EIGEN forces
// Eigen there.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "platform/platform.h"

#if defined(__wasm_simd128__) && !defined(SHARDLAB_GEMM_EIGEN)
#include <wasm_simd128.h>
#define SHARDLAB_GEMM_SIMD128 1
#endif

namespace shardlab::kernels {

#ifdef SHARDLAB_GEMM_SIMD128
namespace simd_gemm {

// Rows of the SIMD128 register tile: 6 accumulators, 2 of B, a broadcast of
// A and each product's temporary stay in registers (4 rows ran 2–4% slower
// at 1024^3 and 10–20% at 256^3 in interleaved runs; 5 or 6 spill, about 0.6x).
constexpr int64_t kMr = 3;
constexpr int64_t kNr = 8;    // columns of the register tile (two f32x4)
constexpr int64_t kKc = 256;  // depth of one packed block: a 256 x 8 panel of B is 8 KB (L1)
constexpr int64_t kMc = 128;  // rows of A packed at once: 128 x 256 floats is 128 KB (L2)

// Element (i, j) of a matrix stored with strides (rs, cs).
inline float at(const float* p, int64_t rs, int64_t cs, int64_t i, int64_t j) { return p[i * rs + j * cs]; }

// Rows [i0, i0+mr) of a row-major A (unit column stride) over depth
// [k0, k0+kc), packed k-major: four depths at a time, 4 rows are loaded as
// four vectors and transposed by shuffles into one vector per depth. Each
// store writes 4 floats; where a group has fewer than 4 rows, the extra
// lanes fall on the next slot, which a later store overwrites (or past the
// tile, into the slack the buffers keep). (Scalar packing was nearly as slow
// as the product itself when n is small: 8192x256 by 256x16 ran at 0.55x the
// square product's GFLOP/s.)
template <int64_t mr>
void pack_a_rows(const float* a, int64_t rs, int64_t i0, int64_t k0, int64_t kc, float* dst) {
  const float* row[mr];
  for (int64_t r = 0; r < mr; ++r) row[r] = a + (i0 + r) * rs + k0;
  int64_t k = 0;
  constexpr int64_t groups = (mr + 3) / 4;
  for (; k + 4 <= kc; k += 4) {
    v128_t t[groups][4];  // t[g][j]: rows 4g.. at depth k + j
    for (int64_t g = 0; g < groups; ++g) {
      v128_t x[4];
      for (int64_t r = 0; r < 4; ++r) x[r] = 4 * g + r < mr ? wasm_v128_load(row[4 * g + r] + k) : wasm_f32x4_splat(0.0f);
      const v128_t lo01 = wasm_i32x4_shuffle(x[0], x[1], 0, 4, 1, 5), lo23 = wasm_i32x4_shuffle(x[2], x[3], 0, 4, 1, 5);
      const v128_t hi01 = wasm_i32x4_shuffle(x[0], x[1], 2, 6, 3, 7), hi23 = wasm_i32x4_shuffle(x[2], x[3], 2, 6, 3, 7);
      t[g][0] = wasm_i32x4_shuffle(lo01, lo23, 0, 1, 4, 5);
      t[g][1] = wasm_i32x4_shuffle(lo01, lo23, 2, 3, 6, 7);
      t[g][2] = wasm_i32x4_shuffle(hi01, hi23, 0, 1, 4, 5);
      t[g][3] = wasm_i32x4_shuffle(hi01, hi23, 2, 3, 6, 7);
    }
    // In ascending address order, so each spill is overwritten by the next store.
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t g = 0; g < groups; ++g) wasm_v128_store(dst + (k + j) * mr + 4 * g, t[g][j]);
  }
  for (; k < kc; ++k)
    for (int64_t r = 0; r < mr; ++r) dst[k * mr + r] = row[r][k];
}

// Packs the row tiles [t0, t1) of A (mr rows each) over depth [k0, k0+kc),
// tile after tile, each as kc groups of mr values (k-major), zero-padding
// rows past m. A full tile of a row-major A goes through pack_a_rows; of a
// column-major one, each depth's mr values are contiguous already. (Copying
// a column-major A 16 depths at a time across the tiles, or one depth at a
// time, ran 10–60% slower than tile after tile.)
template <int64_t mr>
void pack_a(const float* a, int64_t rs, int64_t cs, int64_t m, int64_t t0, int64_t t1, int64_t k0, int64_t kc,
            float* dst) {
  for (int64_t t = t0; t < t1; ++t, dst += mr * kc) {
    const int64_t i0 = t * mr;
    if (i0 + mr <= m && cs == 1) {
      pack_a_rows<mr>(a, rs, i0, k0, kc, dst);
    } else if (i0 + mr <= m && rs == 1) {
      for (int64_t k = 0; k < kc; ++k) std::copy_n(a + i0 + (k0 + k) * cs, mr, dst + k * mr);
    } else {
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t r = 0; r < mr; ++r) dst[k * mr + r] = i0 + r < m ? at(a, rs, cs, i0 + r, k0 + k) : 0.0f;
    }
  }
}

// Packs depth [k0, k0+kc) x columns [j0, j0+kNr) of B as kc rows of kNr
// values, zero-padding columns past n.
inline void pack_b(const float* b, int64_t rs, int64_t cs, int64_t n, int64_t k0, int64_t kc, int64_t j0, float* dst) {
  for (int64_t k = 0; k < kc; ++k)
    for (int64_t c = 0; c < kNr; ++c) *dst++ = j0 + c < n ? at(b, rs, cs, k0 + k, j0 + c) : 0.0f;
}

// c (kMr x kNr, rows ldc apart) = (accumulate ? c : 0) + packed A sliver x
// packed B panel, over kc. Per k: two loads of B, kMr broadcasts of A (each
// one load32_splat), 2 kMr multiplies and as many adds (SIMD128 has no fused
// multiply-add). The loops over rows and vectors have constant bounds: the
// compiler unrolls them and keeps `acc` in registers.
inline void micro_kernel(int64_t kc, const float* ap, const float* bp, float* c, int64_t ldc, bool accumulate) {
  constexpr int64_t nv = kNr / 4;
  v128_t acc[kMr][nv];
  for (int64_t r = 0; r < kMr; ++r)
    for (int64_t v = 0; v < nv; ++v) acc[r][v] = accumulate ? wasm_v128_load(c + r * ldc + 4 * v) : wasm_f32x4_splat(0.0f);
  for (int64_t k = 0; k < kc; ++k, ap += kMr, bp += kNr) {
    v128_t b[nv];
    for (int64_t v = 0; v < nv; ++v) b[v] = wasm_v128_load(bp + 4 * v);
    for (int64_t r = 0; r < kMr; ++r) {
      const v128_t a = wasm_v128_load32_splat(ap + r);
      for (int64_t v = 0; v < nv; ++v) acc[r][v] = wasm_f32x4_add(acc[r][v], wasm_f32x4_mul(a, b[v]));
    }
  }
  for (int64_t r = 0; r < kMr; ++r)
    for (int64_t v = 0; v < nv; ++v) wasm_v128_store(c + r * ldc + 4 * v, acc[r][v]);
}

// out (m x n, row-major) = A (m x k, strides ra/ca) * B (k x n, strides rb/cb),
// in tiles of mr x kNr, each computed by kernel(kc, ap, bp, c, ldc, accumulate)
// with micro_kernel's contract for mr rows.
// Per depth block of kKc: B is packed whole into column panels, then A in
// blocks of about kMc rows that stay in L2 while every panel of B passes
// over them, and full tiles are read and written in place. (Packing all of A
// at once streamed a 1024-row A from L2 for every panel; against that, this
// measured 8% faster at 256^3 and 12–16% at 1024^3, in interleaved runs.)
// Each output element is summed in ascending k (a later depth block
// continues from the stored partial sum), so results do not depend on the
// blocking. Packing buffers are per thread and kept between calls.
template <int64_t mr, class Kernel>
void blocked_matmul(int64_t m, int64_t k, int64_t n, const float* a, int64_t ra, int64_t ca, const float* b,
                    int64_t rb, int64_t cb, float* out, Kernel kernel) {
  thread_local std::vector<float> apack_store, bpack_store;
  // The panels start on a 64-byte line, so no vector load of them straddles
  // two lines; at least 16 floats stay past the end for pack_a_rows' spill.
  const auto aligned = [](std::vector<float>& v, size_t n) {
    v.resize(n + 32);
    return reinterpret_cast<float*>((reinterpret_cast<uintptr_t>(v.data()) + 63) & ~uintptr_t{63});
  };
  const int64_t row_tiles = (m + mr - 1) / mr, col_tiles = (n + kNr - 1) / kNr, block_tiles = kMc / mr;
  alignas(16) float tile[mr * kNr];
  for (int64_t k0 = 0; k0 < k; k0 += kKc) {
    const int64_t kc = std::min(kKc, k - k0);
    const bool accumulate = k0 > 0;
    float* bpack = aligned(bpack_store, static_cast<size_t>(col_tiles * kc * kNr));
    for (int64_t ct = 0; ct < col_tiles; ++ct) pack_b(b, rb, cb, n, k0, kc, ct * kNr, bpack + ct * kc * kNr);
    float* apack = aligned(apack_store, static_cast<size_t>(block_tiles * mr * kc));
    for (int64_t t0 = 0; t0 < row_tiles; t0 += block_tiles) {
      const int64_t t1 = std::min(row_tiles, t0 + block_tiles);
      pack_a<mr>(a, ra, ca, m, t0, t1, k0, kc, apack);
      for (int64_t ct = 0; ct < col_tiles; ++ct) {
        const int64_t j0 = ct * kNr, nc = std::min(kNr, n - j0);
        const float* bp = bpack + ct * kc * kNr;
        for (int64_t t = t0; t < t1; ++t) {
          const int64_t i0 = t * mr, mc = std::min(mr, m - i0);
          const float* ap = apack + (t - t0) * mr * kc;
          if (mc == mr && nc == kNr) {
            kernel(kc, ap, bp, out + i0 * n + j0, n, accumulate);
            continue;
          }
          // A ragged edge tile goes through a full-size buffer.
          for (int64_t r = 0; r < mr; ++r)
            for (int64_t c = 0; c < kNr; ++c)
              tile[r * kNr + c] = accumulate && r < mc && c < nc ? out[(i0 + r) * n + j0 + c] : 0.0f;
          kernel(kc, ap, bp, tile, kNr, true);
          for (int64_t r = 0; r < mc; ++r)
            for (int64_t c = 0; c < nc; ++c) out[(i0 + r) * n + j0 + c] = tile[r * kNr + c];
        }
      }
    }
  }
}

// The product with the engine's fused kernel (platform::kFusedRows x 8
// tiles of fused multiply-adds: one rounding per term, as XLA's CPU
// products) where it has one, else with micro_kernel (a rounded product,
// then a rounded sum).
inline void matmul(int64_t m, int64_t k, int64_t n, const float* a, int64_t ra, int64_t ca, const float* b, int64_t rb,
                   int64_t cb, float* out) {
  if (k == 0) {
    std::fill(out, out + m * n, 0.0f);
    return;
  }
  if (const platform::FusedMicroKernel fused = platform::fused_micro_kernel()) {
    blocked_matmul<platform::kFusedRows>(
        m, k, n, a, ra, ca, b, rb, cb, out,
        [fused](int64_t kc, const float* ap, const float* bp, float* c, int64_t ldc, bool accumulate) {
          fused(static_cast<int32_t>(kc), ap, bp, c, static_cast<int32_t>(ldc), accumulate);
        });
  } else {
    // A lambda, not the function's address, so that the kernel is inlined
    // into the loop rather than called through the table.
    blocked_matmul<kMr>(m, k, n, a, ra, ca, b, rb, cb, out,
                        [](int64_t kc, const float* ap, const float* bp, float* c, int64_t ldc, bool accumulate) {
                          micro_kernel(kc, ap, bp, c, ldc, accumulate);
                        });
  }
}

}  // namespace simd_gemm
#endif

/// out[i] = a[i] * b[i] for the `batch` row-major M x N result matrices;
/// a[i] is M x K in AOrder, b[i] is K x N in BOrder (Eigen::RowMajor or ColMajor).
template <class T, int AOrder, int BOrder>
void gemm(int64_t batch, int64_t m, int64_t k, int64_t n, const T* a, const T* b, T* out) {
#ifdef SHARDLAB_GEMM_SIMD128
  if constexpr (std::is_same_v<T, float>) {
    const bool a_rows = AOrder == Eigen::RowMajor, b_rows = BOrder == Eigen::RowMajor;
    for (int64_t i = 0; i < batch; ++i)
      simd_gemm::matmul(m, k, n, a + i * m * k, a_rows ? k : 1, a_rows ? 1 : m, b + i * k * n, b_rows ? n : 1,
                        b_rows ? 1 : k, out + i * m * n);
    return;
  }
#endif
  using A = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, AOrder>;
  using B = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, BOrder>;
  using Out = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (int64_t i = 0; i < batch; ++i)
    Eigen::Map<Out>(out + i * m * n, m, n).noalias() =
        Eigen::Map<const A>(a + i * m * k, m, k) * Eigen::Map<const B>(b + i * k * n, k, n);
}

}  // namespace shardlab::kernels
