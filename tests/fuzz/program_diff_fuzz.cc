// libFuzzer target: a differential fuzzer over generated programs. The input
// bytes choose a program, a shard_map over 8 devices ('data') whose body
// applies a sequence of operations to each device's [1, n] block of x
// (elementwise arithmetic and functions, a sum along the row, psum, pmax,
// ppermute by a shift, all_gather), and the values of x. Three evaluations
// must agree: the threaded executor and the lockstep one (exec/lockstep_program.h)
// bitwise, and a float64 reference written here from each operation's
// definition within a tolerance. Any disagreement aborts, so libFuzzer keeps
// the input; tests/fuzz/corpus/program_diff_fuzz holds the seeds and every
// input that once failed, replayed by ctest (program_diff_corpus).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "exec/executable.h"
#include "exec/lockstep_program.h"
#include "../cpp/host_arrays.h"
#include "exec/threaded.h"
#include "ir/tracing/builder.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "../cpp/lax_calls.h"
#include "ir/forms/print.h"
#include "runtime/collectives/communicator.h"
#include "runtime/device_pool.h"
#include "runtime/sharded_array.h"

namespace {

using namespace shardlab;
using ir::Atom;
using ir::Builder;

constexpr int kDevices = 8;
// The float32 result against the float64 reference, relative to the largest magnitude the element's value
// met on its way (a sum of large values can cancel): float32's rounding, a few ulps per operation, is far below.
constexpr double kTolerance = 1e-4;
// At most this many operations; none multiplies a magnitude by more than 8 (x * tanh(x) in place of a
// square), so no value leaves float32's range.
constexpr int kMaxOps = 10;

/// What one operation does to every device's block; each has a float64 meaning below.
enum class Op : uint8_t { kAddConst, kMulConst, kTanh, kNeg, kMaxConst, kTimesTanh, kRowSum, kPsum, kPmax, kPpermute, kAllGatherSum, kCount };

struct Step {
  Op op;
  float c;    // the constant of kAddConst, kMulConst, kMaxConst
  int shift;  // kPpermute: device d sends to d + shift
};

// Device blocks in float64: blocks[d][j].
using Blocks = std::vector<std::vector<double>>;

void apply(const Step& s, Blocks& x);

// The float64 meaning of `s` on every device's block (the reference); `peak` follows, per element, the
// largest magnitude among the values it was computed from (for the tolerance).
void reference(const Step& s, Blocks& x, Blocks& peak) {
  const size_t n = x[0].size();
  // Where the step combines elements, each result's peak is the largest of theirs.
  const auto combined = [&](auto sources) {
    Blocks next = peak;
    for (int d = 0; d < kDevices; ++d)
      for (size_t j = 0; j < n; ++j) {
        double m = 0;
        for (auto [e, k] : sources(d, j)) m = std::max(m, peak[e][k]);
        next[d][j] = m;
      }
    peak = next;
  };
  using Sources = std::vector<std::pair<int, size_t>>;
  if (s.op == Op::kRowSum) {
    combined([&](int d, size_t) {
      Sources r;
      for (size_t k = 0; k < n; ++k) r.emplace_back(d, k);
      return r;
    });
  } else if (s.op == Op::kPsum || s.op == Op::kPmax || s.op == Op::kAllGatherSum) {
    combined([&](int, size_t j) {
      Sources r;
      for (int e = 0; e < kDevices; ++e) r.emplace_back(e, j);
      return r;
    });
  } else if (s.op == Op::kPpermute) {
    combined([&](int d, size_t j) { return Sources{{(d - s.shift + kDevices) % kDevices, j}}; });
  }
  apply(s, x);
  for (int d = 0; d < kDevices; ++d)
    for (size_t j = 0; j < n; ++j) peak[d][j] = std::max(peak[d][j], std::abs(x[d][j]));
}

// The float64 meaning of `s` on every device's block.
void apply(const Step& s, Blocks& x) {
  const size_t n = x[0].size();
  const auto each = [&](auto f) {
    for (auto& b : x)
      for (double& v : b) v = f(v);
  };
  const auto across = [&](auto combine) {
    std::vector<double> r = x[0];
    for (int d = 1; d < kDevices; ++d)
      for (size_t j = 0; j < n; ++j) r[j] = combine(r[j], x[d][j]);
    for (auto& b : x) b = r;
  };
  switch (s.op) {
    case Op::kAddConst: return each([&](double v) { return v + s.c; });
    case Op::kMulConst: return each([&](double v) { return v * s.c; });
    case Op::kTanh: return each([](double v) { return std::tanh(v); });
    case Op::kNeg: return each([](double v) { return -v; });
    case Op::kMaxConst: return each([&](double v) { return std::max(v, static_cast<double>(s.c)); });
    case Op::kTimesTanh: return each([](double v) { return v * std::tanh(v); });
    case Op::kRowSum:
      for (auto& b : x) {
        double t = 0;
        for (double v : b) t += v;
        for (double& v : b) v = t;
      }
      return;
    case Op::kPsum:
    case Op::kAllGatherSum: return across([](double a, double b) { return a + b; });
    case Op::kPmax: return across([](double a, double b) { return std::max(a, b); });
    case Op::kPpermute: {
      Blocks moved(kDevices);
      for (int d = 0; d < kDevices; ++d) moved[(d + s.shift) % kDevices] = x[d];
      x = moved;
      return;
    }
    case Op::kCount: return;
  }
}

// Emits `s` on the block `x` (f32[1, n], varying along data) into the body; the result is varying again.
Atom emit(Builder& b, const Step& s, const Atom& x, int64_t n) {
  const ir::AxisNames data{"data"};
  const auto varying = [&](const Atom& v) { return ir::pvary(b, v, data); };
  switch (s.op) {
    case Op::kAddConst: return ir::add(b, x, ir::f32_scalar(s.c));
    case Op::kMulConst: return ir::mul(b, x, ir::f32_scalar(s.c));
    case Op::kTanh: return ir::unary(b, ir::Prim::kTanh, x);
    case Op::kNeg: return ir::neg(b, x);
    case Op::kMaxConst: return ir::max(b, x, ir::f32_scalar(s.c));
    case Op::kTimesTanh: return ir::mul(b, x, ir::unary(b, ir::Prim::kTanh, x));
    case Op::kRowSum: return ir::broadcast_in_dim(b, ir::reduce_sum(b, x, {1}), {1, n}, {0});
    case Op::kPsum: return varying(ir::psum(b, x, data));
    case Op::kPmax: return varying(ir::pmax(b, x, data));
    case Op::kPpermute: {
      std::vector<std::pair<int, int>> perm;
      for (int d = 0; d < kDevices; ++d) perm.emplace_back(d, (d + s.shift) % kDevices);
      return ir::ppermute(b, x, data, perm);
    }
    case Op::kAllGatherSum: {
      // Every device's block stacked ([8, n]), then summed over the devices: psum by another road.
      const Atom all = ir::all_gather(b, x, data, 0, true);
      return varying(ir::reshape(b, ir::reduce_sum(b, all, {0}), {1, n}));
    }
    case Op::kCount: break;
  }
  std::abort();
}

// The input's bytes as small integers, one byte each (0 once they run out): a g++ build replays the corpus, so
// libFuzzer's own FuzzedDataProvider (a clang header) is not used.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  /// An integer in [lo, hi].
  int take(int lo, int hi) { return lo + (at_ < size_ ? data_[at_++] : 0) % (hi - lo + 1); }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

DevicePool& pool() {
  static DevicePool p(kDevices);
  return p;
}

[[noreturn]] void disagree(const char* what, const ir::Program& p, size_t at, double a, double b) {
  std::fprintf(stderr, "program_diff_fuzz: %s at element %zu: %.9g against %.9g\n%s\n", what, at, a, b, ir::to_text(p).c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  const int64_t n = in.take(1, 4);
  std::vector<Step> steps(static_cast<size_t>(in.take(1, kMaxOps)));
  for (Step& s : steps) {
    s.op = static_cast<Op>(in.take(0, static_cast<int>(Op::kCount) - 1));
    s.c = static_cast<float>(in.take(-8, 8)) / 4;  // quarters: exact in float32
    s.shift = in.take(1, kDevices - 1);
  }
  std::vector<float> x(static_cast<size_t>(kDevices * n));
  for (float& v : x) v = static_cast<float>(in.take(-64, 64)) / 64;

  auto mesh = std::make_shared<const Mesh>(std::vector<int>{kDevices}, std::vector<std::string>{"data"});
  const PartitionSpec rows{{{"data"}}};
  Builder b;
  const Atom input = b.input(ir::Aval{DType::kFloat32, {kDevices, n}, {}});
  const auto outs = ir::shard_map(b, mesh, {rows}, {rows}, true, {input}, [&](Builder& body, const std::vector<Atom>& blocks) {
    Atom v = blocks[0];
    for (const Step& s : steps) v = emit(body, s, v, n);
    return std::vector<Atom>{v};
  });
  const ir::Program program = b.build(outs);

  // Lockstep.
  const auto lockstep = exec::interpret(program, {exec::host_f32({kDevices, n}, x)});
  const std::vector<float> stepped = exec::as_floats(lockstep[0]);
  // Threaded.
  Communicator comm(mesh);
  std::vector<uint32_t> words(x.size());
  std::memcpy(words.data(), x.data(), x.size() * sizeof(float));
  const auto arg = ShardedArray::put(mesh, DType::kFloat32, {kDevices, n}, rows, words.data());
  const auto run = exec::run_program(pool(), comm, std::make_shared<exec::Executable>(std::make_shared<const ir::Program>(program)), {arg});
  std::vector<float> threaded(x.size());
  run[0].get(threaded.data(), true);
  for (size_t i = 0; i < x.size(); ++i) {
    uint32_t p, q;
    std::memcpy(&p, &threaded[i], 4);
    std::memcpy(&q, &stepped[i], 4);
    if (p != q) disagree("the threaded and lockstep executors differ", program, i, threaded[i], stepped[i]);
  }
  // The float64 reference.
  Blocks ref(kDevices, std::vector<double>(static_cast<size_t>(n)));
  for (int d = 0; d < kDevices; ++d)
    for (int64_t j = 0; j < n; ++j) ref[d][j] = x[static_cast<size_t>(d * n + j)];
  Blocks peak = ref;
  for (auto& b : peak)
    for (double& v : b) v = std::abs(v);
  for (const Step& s : steps) reference(s, ref, peak);
  for (int d = 0; d < kDevices; ++d) {
    for (int64_t j = 0; j < n; ++j) {
      const size_t i = static_cast<size_t>(d * n + j);
      const double want = ref[d][j];
      const double got = stepped[i];
      if (!(std::abs(got - want) <= kTolerance * (1 + peak[d][j]))) disagree("the result differs from the float64 reference", program, i, got, want);
    }
  }
  return 0;
}
