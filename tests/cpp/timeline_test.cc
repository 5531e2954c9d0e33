// The timeline a run records when armed: the ring all-reduce (7 ppermute
// rounds and 7 adds in one shard_map) seen from each device, threaded (with
// its waits at the collectives' barriers, each inside its collective) and in
// lockstep (the same equations, no waits); nothing is recorded unarmed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "exec/executable.h"
#include "exec/lockstep_program.h"
#include "exec/threaded.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "runtime/timeline.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using Blocks = std::vector<Atom>;

std::shared_ptr<const Mesh> mesh8() { return testing::make_mesh({8}, {"data"}); }

// out = the sum of every device's block, by 7 shifts around the ring.
Program ring_all_reduce() {
  std::vector<std::pair<int, int>> ring;
  for (int d = 0; d < 8; ++d) ring.emplace_back(d, (d + 1) % 8);
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {8, 4}, {}});
  const PartitionSpec split{{{"data"}}};
  const auto out = shard_map(b, mesh8(), {split}, {split}, true, {x}, [&](Builder& bb, const Blocks& in) {
    Atom sum = in[0], message = in[0];
    for (int step = 0; step < 7; ++step) {
      message = ppermute(bb, message, {"data"}, ring);
      sum = add(bb, sum, message);
    }
    return Blocks{sum};
  });
  return b.build(out);
}

std::vector<Span> of_device(const std::vector<Span>& spans, int d, SpanKind kind, const std::string& name) {
  std::vector<Span> out;
  for (const Span& s : spans)
    if (s.device == d && s.kind == kind && name == s.name) out.push_back(s);
  return out;
}

// Every device's spans: one shard_map at depth 0, within it 7 ppermutes and
// 7 adds at depth 1 (their positions in the body alternate), in order.
void expect_ring(const std::vector<Span>& spans) {
  for (int d = 0; d < 8; ++d) {
    const auto body = of_device(spans, d, SpanKind::kEquation, "shard_map");
    ASSERT_EQ(body.size(), 1u) << "device " << d;
    EXPECT_EQ(body[0].depth, 0);
    EXPECT_EQ(body[0].index, 0);
    const auto rounds = of_device(spans, d, SpanKind::kCollective, "ppermute");
    const auto adds = of_device(spans, d, SpanKind::kEquation, "add");
    ASSERT_EQ(rounds.size(), 7u) << "device " << d;
    ASSERT_EQ(adds.size(), 7u) << "device " << d;
    for (int k = 0; k < 7; ++k) {
      EXPECT_EQ(rounds[k].index, 2 * k);
      EXPECT_EQ(adds[k].index, 2 * k + 1);
      EXPECT_EQ(rounds[k].depth, 1);
      EXPECT_LE(body[0].begin_ns, rounds[k].begin_ns);
      EXPECT_LE(rounds[k].begin_ns, rounds[k].end_ns);
      EXPECT_LE(rounds[k].end_ns, adds[k].begin_ns);
      EXPECT_LE(adds[k].end_ns, body[0].end_ns);
      if (k > 0) {
        EXPECT_LE(adds[k - 1].end_ns, rounds[k].begin_ns);
      }
    }
  }
}

TEST(Timeline, TheThreadedRingShowsSevenPpermuteRoundsPerDeviceWithItsWaitsInside) {
  const Program p = ring_all_reduce();
  const auto x = testing::random_floats(32, 3);
  auto exe = std::make_shared<exec::Executable>(std::make_shared<const Program>(p));
  Communicator comm(mesh8());
  const std::vector<ShardedArray> args{ShardedArray::put(mesh8(), DType::kFloat32, {8, 4}, PartitionSpec{{{"data"}}}, x.data())};
  Timeline::arm();
  exec::run_program(testing::pool(), comm, exe, args);
  const std::vector<Span> spans = Timeline::take().spans;
  expect_ring(spans);
  // A device that waited at a ppermute's barrier did so inside that ppermute
  // (and with 8 devices on fewer cores, some always wait).
  int waits = 0;
  for (const Span& w : spans) {
    if (w.kind != SpanKind::kWait) continue;
    ++waits;
    EXPECT_EQ(w.index, -1);
    if (std::string(w.name) != "ppermute") continue;
    const auto rounds = of_device(spans, w.device, SpanKind::kCollective, "ppermute");
    EXPECT_TRUE(std::any_of(rounds.begin(), rounds.end(),
                            [&](const Span& r) { return r.begin_ns <= w.begin_ns && w.end_ns <= r.end_ns; }))
        << "a wait of device " << w.device << " outside its ppermutes";
  }
  EXPECT_GT(waits, 0);
  // Disarmed: the next run records nothing.
  exec::run_program(testing::pool(), comm, exe, args);
  EXPECT_TRUE(Timeline::take().spans.empty());
}

TEST(Timeline, TheLockstepRingShowsTheSameStepsAndNoWaits) {
  const Program p = ring_all_reduce();
  Timeline::arm();
  exec::interpret(p, {exec::host_f32({8, 4}, testing::random_floats(32, 4))});
  const std::vector<Span> spans = Timeline::take().spans;
  expect_ring(spans);
  EXPECT_TRUE(std::none_of(spans.begin(), spans.end(), [](const Span& s) { return s.kind == SpanKind::kWait; }));
}

TEST(Timeline, PastTheCapADeviceCountsWhatItDropsAndKeepsTheSpanHoldingThem) {
  Timeline::arm();
  Timeline* t = Timeline::armed();
  const int64_t body = span_begin(3);
  const int64_t inner = static_cast<int64_t>(Timeline::kMaxSpansPerDevice) + 100;
  for (int64_t i = 0; i < inner; ++i) span_end(3, SpanKind::kEquation, static_cast<int32_t>(i), "add", span_begin(3));
  span_end(3, SpanKind::kEquation, 0, "shard_map", body);
  ASSERT_NE(t, nullptr);
  const Recording r = Timeline::take();
  // The body's span began first: with it, the cap's worth of spans; the rest counted.
  EXPECT_EQ(r.spans.size(), Timeline::kMaxSpansPerDevice);
  EXPECT_EQ(r.dropped, inner - static_cast<int64_t>(Timeline::kMaxSpansPerDevice) + 1);
  EXPECT_EQ(std::string(r.spans.back().name), "shard_map");
  EXPECT_EQ(r.spans.back().depth, 0);
  EXPECT_EQ(r.spans.front().depth, 1);
}

}  // namespace
}  // namespace shardlab::ir
