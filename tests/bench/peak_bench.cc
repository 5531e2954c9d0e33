// The arithmetic ceilings the matmul kernels are judged against: GFLOP/s of
// a GEMM register tile (c_ij += a_i * b_j over vectors, operands held in
// registers, so no memory traffic) on one thread, built three ways:
//   128-bit multiply then add: all a wasm SIMD128 kernel can ask of the CPU
//     (SIMD128 has no fused multiply-add, and V8 emits mulps/addps);
//   128-bit fused multiply-add: what relaxed SIMD's f32x4.relaxed_madd
//     becomes (V8 emits vfmadd on CPUs with FMA);
//   the widest fused multiply-add the build targets (AVX-512 on these
//     machines): what native Eigen's kernel runs on.
// Compiled with -ffp-contract=off so the first is not fused behind our back.
// Prints {"rows": [{"impl", "min_gflops", "median_gflops"}]} (x86-64 only).
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

constexpr long kIterations = 20'000'000;
// Rows of the register tile (by 2 columns): 12 independent accumulators
// cover the add or FMA latency on every port; with AVX-512 the 20 live
// vectors fit in its 32 registers, else a 4-row tile fits in 16.
#ifdef __AVX512F__
constexpr int kRows = 6;
#else
constexpr int kRows = 4;
#endif

// One register tile, `n` times over: c_ij = step(a_i, b_j, c_ij) for
// kRows x 2 accumulators. Named variables, not arrays, so that every
// accumulator stays in a register. Returns a sum of the tile so the work is
// kept.
template <class V, class Set1, class Step, class First>
float tile(long n, Set1 set1, Step step, First first) {
  V a0 = set1(1e-3f), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, b0 = a0, b1 = a0;
  V c00 = set1(0.0f), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00, c40 = c00, c41 = c00,
    c50 = c00, c51 = c00;
  for (long k = 0; k < n; ++k) {
    // Opaque to the optimiser: the operands may change every iteration, so
    // nothing is hoisted and every product is really computed.
    __asm__ volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), "+v"(b0), "+v"(b1));
    c00 = step(a0, b0, c00), c01 = step(a0, b1, c01), c10 = step(a1, b0, c10), c11 = step(a1, b1, c11);
    c20 = step(a2, b0, c20), c21 = step(a2, b1, c21), c30 = step(a3, b0, c30), c31 = step(a3, b1, c31);
    if constexpr (kRows == 6)
      c40 = step(a4, b0, c40), c41 = step(a4, b1, c41), c50 = step(a5, b0, c50), c51 = step(a5, b1, c51);
  }
  return first(c00) + first(c01) + first(c10) + first(c11) + first(c20) + first(c21) + first(c30) + first(c31) +
         first(c40) + first(c41) + first(c50) + first(c51);
}

// The 128-bit tiles' broadcast and first lane.
inline __m128 set1_128(float x) { return _mm_set1_ps(x); }
inline float first_128(__m128 x) { return _mm_cvtss_f32(x); }

// 128-bit multiply, then add (what V8 emits for SIMD128's f32x4.mul and .add).
__attribute__((noinline)) float mul_add_128(long n) {
  return tile<__m128>(
      n, set1_128, [](__m128 a, __m128 b, __m128 c) { return _mm_add_ps(c, _mm_mul_ps(a, b)); }, first_128);
}

#if defined(__AVX512F__)
using Wide = __m512;
constexpr int kWideLanes = 16;
constexpr const char* kWideName = "native-peak-avx512-fma";
inline Wide wide_fma(Wide a, Wide b, Wide c) { return _mm512_fmadd_ps(a, b, c); }
inline Wide wide_set1(float x) { return _mm512_set1_ps(x); }
inline float wide_first(Wide x) { return _mm512_cvtss_f32(x); }
#elif defined(__FMA__)
using Wide = __m256;
constexpr int kWideLanes = 8;
constexpr const char* kWideName = "native-peak-avx2-fma";
inline Wide wide_fma(Wide a, Wide b, Wide c) { return _mm256_fmadd_ps(a, b, c); }
inline Wide wide_set1(float x) { return _mm256_set1_ps(x); }
inline float wide_first(Wide x) { return _mm256_cvtss_f32(x); }
#endif

#ifdef __FMA__
// The same tile with 128-bit fused multiply-adds (relaxed SIMD's madd).
__attribute__((noinline)) float fma_128(long n) {
  return tile<__m128>(
      n, set1_128, [](__m128 a, __m128 b, __m128 c) { return _mm_fmadd_ps(a, b, c); }, first_128);
}

// The same tile with fused multiply-adds at the widest width.
__attribute__((noinline)) float fma_wide(long n) { return tile<Wide>(n, wide_set1, wide_fma, wide_first); }
#endif

// Prints one row: the tile's GFLOP/s over 5 repetitions (2 x kRows products of
// `lanes` floats, 2 flops each, per iteration).
void row(const char* impl, float (*tile)(long), int lanes, bool first) {
  std::vector<double> gflops;
  float keep = 0;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    keep += tile(kIterations);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    gflops.push_back(4.0 * kRows * lanes * kIterations / s / 1e9);
  }
  std::sort(gflops.begin(), gflops.end());
  std::printf("%s{\"impl\": \"%s\", \"min_gflops\": %.2f, \"median_gflops\": %.2f, \"keep\": %g}", first ? "" : ", ",
              impl, gflops.front(), gflops[gflops.size() / 2], static_cast<double>(keep));
}

}  // namespace

int main() {
  std::printf("{\"rows\": [");
  row("native-peak-128bit-mul-add", mul_add_128, 4, true);
#ifdef __FMA__
  row("native-peak-128bit-fma", fma_128, 4, false);
  row(kWideName, fma_wide, kWideLanes, false);
#endif
  std::printf("]}\n");
  return 0;
}
