// float32 matmul GFLOP/s of dot_general's kernel (cpp/ir/primitives/gemm.h)
// on one thread, at 256^3 and 1024^3. Built several times with different
// flags (tests/bench/CMakeLists.txt) so one run compares them. Usage:
// matmul_bench IMPL [REPETITIONS=5]; prints one JSON object:
// {"impl": IMPL, "fused": whether the platform's fused micro-kernel ran,
//  "rows": [{"size", "min_gflops", "median_gflops"}]}.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kernels/gemm.h"
#include "platform/platform.h"

int main(int argc, char** argv) {
  const char* impl = argc > 1 ? argv[1] : "unnamed";
  const int repetitions = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const bool fused = shardlab::platform::fused_micro_kernel() != nullptr;
  std::printf("{\"impl\": \"%s\", \"fused\": %s, \"rows\": [", impl, fused ? "true" : "false");
  bool first = true;
  for (const int n : {256, 1024}) {
    std::vector<float> a(static_cast<size_t>(n) * n), b(a.size()), c(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
      b[i] = static_cast<float>(i % 13) * 0.5f - 3.0f;
    }
    const double flops = 2.0 * n * n * n;
    // About 0.3 s of work per repetition.
    const int reps = std::max(1, static_cast<int>(3e9 / flops));
    shardlab::kernels::gemm<float, Eigen::RowMajor, Eigen::RowMajor>(1, n, n, n, a.data(), b.data(), c.data());  // warm-up
    std::vector<double> gflops;
    for (int r = 0; r < repetitions; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < reps; ++i)
        shardlab::kernels::gemm<float, Eigen::RowMajor, Eigen::RowMajor>(1, n, n, n, a.data(), b.data(), c.data());
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      gflops.push_back(flops * reps / s / 1e9);
    }
    std::sort(gflops.begin(), gflops.end());
    // Highest throughput = fastest repetition: "min" is the slowest's figure.
    std::printf("%s{\"size\": %d, \"min_gflops\": %.2f, \"median_gflops\": %.2f, \"check\": %.1f}", first ? "" : ", ",
                n, gflops.front(), gflops[gflops.size() / 2], static_cast<double>(c[static_cast<size_t>(n) + 1]));
    first = false;
  }
  std::printf("]}\n");
  return 0;
}
