// The scale cases of `npm run bench` (scripts/bench/scale.mjs) as plain Eigen
// on one native thread: the reference the 8-device and 1-device wasm runs are
// compared with. The data-parallel step (N=65536, D=256, K=16): mean squared
// error of x w + b against y, its gradient, one SGD update. The MLP forward
// (B=256, D=1024, H=4096, O=1024): relu(x w1 + b1) w2 + b2. Usage:
// scale_bench [REPETITIONS=5]; prints {"rows": [{"case", "min_ms", "median_ms"}]}.
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Row = Eigen::Matrix<float, 1, Eigen::Dynamic>;

Mat filled(int r, int c, float scale) {
  Mat m(r, c);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) m(i, j) = scale * static_cast<float>(((i * 31 + j * 17) % 23) - 11) / 11.0f;
  return m;
}

std::pair<double, double> time_ms(const std::function<void()>& f, int repetitions) {
  f();  // warm-up
  std::vector<double> ms;
  for (int r = 0; r < repetitions; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const int n = 65536, d = 256, k = 16;
  const Mat x = filled(n, d, 1.0f), y = filled(n, k, 1.0f);
  Mat w = filled(d, k, 0.1f);
  Row b = filled(1, k, 0.1f);
  float loss = 0;
  const auto step = time_ms(
      [&] {
        const Mat err = ((x * w).rowwise() + b) - y;
        loss = err.squaredNorm() / n;
        const Mat g = err * (2.0f / n);
        const Mat gw = x.transpose() * g;
        const Row gb = g.colwise().sum();
        w -= 0.01f * gw;
        b -= 0.01f * gb;
      },
      repetitions);
  const int bb = 256, dd = 1024, hh = 4096, oo = 1024;
  const Mat xm = filled(bb, dd, 1.0f), w1 = filled(dd, hh, 0.05f), w2 = filled(hh, oo, 0.05f);
  const Row b1 = filled(1, hh, 0.1f), b2 = filled(1, oo, 0.1f);
  Mat out;
  const auto mlp = time_ms(
      [&] {
        const Mat h = ((xm * w1).rowwise() + b1).cwiseMax(0.0f);
        out = (h * w2).rowwise() + b2;
      },
      repetitions);
  std::printf(
      "{\"rows\": [{\"case\": \"data-parallel-step\", \"min_ms\": %.3f, \"median_ms\": %.3f, \"check\": %.4f}, "
      "{\"case\": \"tensor-parallel-mlp\", \"min_ms\": %.3f, \"median_ms\": %.3f, \"check\": %.4f}]}\n",
      step.first, step.second, static_cast<double>(loss), mlp.first, mlp.second, static_cast<double>(out(0, 0)));
  return 0;
}
