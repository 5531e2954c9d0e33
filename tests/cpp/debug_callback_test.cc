// debug_callback (jax.debug.print and jax.debug.callback): the values each
// call records, per device in device order inside a shard_map body (on both
// executors), the host's outside one; kept by dead-code elimination, in a
// loop body too; under grad the primal values, once; under vmap one call per
// example; printed.
#include <gtest/gtest.h>

#include <cstring>

#include "exec/lockstep_program.h"
#include "ir/forms/print.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/control_flow.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/vmap.h"
#include "ir/transforms/dce.h"
#include "ir_checks.h"
#include "lax_calls.h"
#include "runtime/debug_log.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

void debug(Builder& b, int64_t callback, const std::vector<Atom>& xs) {
  b.emit(Prim::kDebugCallback, {{"callback", callback}, {"fmt", std::string()}}, xs);
}

std::vector<float> floats_of(const DebugValue& v) {
  std::vector<float> out(v.words.size());
  if (!out.empty()) std::memcpy(out.data(), v.words.data(), out.size() * 4);
  return out;
}

TEST(DebugCallback, RecordsTheHostsValuesAndIsKeptByDce) {
  DebugLog::instance().take();
  Builder b;
  const Atom x = b.input(f32({3}));
  const Atom y = mul(b, x, f32_scalar(2));
  debug(b, 7, {y, x});
  const Program p = dce(b.build({x}));
  EXPECT_EQ(to_text(p), "{ lambda ; a:f32[3]. let\n    b:f32[3] = mul a 2.0:f32[]\n    debug_callback[callback=7] b a\n  in (a,) }");
  exec::interpret(p, {exec::host_f32({3}, {1, 2, 3})});
  const auto got = DebugLog::instance().take();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].callback, 7);
  EXPECT_EQ(got[0].device, -1);
  EXPECT_EQ(floats_of(got[0].values[0]), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(got[0].values[1].shape, (Shape{3}));
}

// Each device's block, per device in device order, whatever the executor.
TEST(DebugCallback, InAShardMapBodyEachDeviceInDeviceOrder) {
  auto mesh = testing::make_mesh({8}, {"i"});
  Builder b;
  const Atom x = b.input(f32({16}));
  const auto out = shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{{{"i"}}}}, true, {x},
                             [](Builder& bb, const std::vector<Atom>& blocks) {
                               debug(bb, 1, {blocks[0]});
                               debug(bb, 2, {psum(bb, blocks[0], {"i"})});
                               return blocks;
                             });
  std::vector<float> xs(16);
  for (int k = 0; k < 16; ++k) xs[k] = static_cast<float>(k);
  DebugLog::instance().take();
  run_both(b.build(out), mesh, {exec::host_f32({16}, xs)});
  const auto got = DebugLog::instance().take();
  ASSERT_EQ(got.size(), 2u * 8u * 2u);  // two executors, 8 devices, two calls
  // Sorted by each device's call number, then device: every device's first
  // call, then every second one (the second run's calls are the third and fourth).
  for (size_t k = 0; k < got.size(); ++k) {
    EXPECT_EQ(got[k].device, static_cast<int>(k % 8)) << k;
    EXPECT_EQ(got[k].callback, (k / 8) % 2 == 0 ? 1 : 2) << k;
  }
  EXPECT_EQ(floats_of(got[3].values[0]), (std::vector<float>{6, 7}));
  EXPECT_EQ(floats_of(got[8].values[0]), (std::vector<float>{56, 64}));
}

// The log reads in program order: a host call before a shard_map, the body's
// calls per device, then a host call on its result, on both executors, though
// device 0 may reach the host's second call while others are in the body.
TEST(DebugCallback, HostCallsAroundABodyReadInProgramOrder) {
  auto mesh = testing::make_mesh({8}, {"i"});
  Builder b;
  const Atom x = b.input(f32({16}));
  debug(b, 1, {x});
  const auto out = shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{{{"i"}}}}, true, {x},
                             [](Builder& bb, const std::vector<Atom>& blocks) {
                               debug(bb, 2, {blocks[0]});
                               return blocks;
                             });
  debug(b, 3, {out[0]});
  std::vector<float> xs(16);
  for (int k = 0; k < 16; ++k) xs[k] = static_cast<float>(k);
  for (int executor = 0; executor < 2; ++executor) {
    DebugLog::instance().take();
    if (executor == 0)
      exec::interpret(b.build(out), {exec::host_f32({16}, xs)});
    else
      run_both(b.build(out), mesh, {exec::host_f32({16}, xs)});
    const auto got = DebugLog::instance().take();
    const size_t runs = executor == 0 ? 1 : 2;
    ASSERT_EQ(got.size(), runs * 10) << executor;
    // Each run's calls are in the log in turn only within a phase: phase by phase, run by run.
    std::vector<int64_t> callbacks;
    for (const DebugRecord& r : got) callbacks.push_back(r.callback);
    std::vector<int64_t> want;
    for (int64_t cb : {1, 2, 3})
      for (size_t run = 0; run < runs; ++run)
        for (int k = 0; k < (cb == 2 ? 8 : 1); ++k) want.push_back(cb);
    EXPECT_EQ(callbacks, want) << executor;
    EXPECT_EQ(got[runs].device, 0);
  }
}

TEST(DebugCallback, GradSeesPrimalsVmapCallsPerExample) {
  Builder b;
  const Atom x = b.input(f32({2}));
  const auto d = grad_at(b, [](Builder& g, const std::vector<Atom>& v) {
    debug(g, 3, {v[0]});
    return std::vector<Atom>{reduce_sum(g, mul(g, v[0], v[0]), {0})};
  }, {x});
  DebugLog::instance().take();
  const auto r = exec::interpret(b.build(d.derivs), {exec::host_f32({2}, {1.5f, -2})});
  EXPECT_EQ(exec::as_floats(r[0]), (std::vector<float>{3, -4}));
  auto got = DebugLog::instance().take();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(floats_of(got[0].values[0]), (std::vector<float>{1.5f, -2}));

  Builder c;
  const Atom xs = c.input(f32({3, 2}));
  const auto out = vmap_at(c, [](Builder& v, const std::vector<Atom>& a) {
    debug(v, 4, {a[0]});
    return a;
  }, {xs}, {0}, {0});
  c.build(out);
  exec::interpret(c.build(out), {exec::host_f32({3, 2}, {0, 1, 2, 3, 4, 5})});
  got = DebugLog::instance().take();
  ASSERT_EQ(got.size(), 3u);
  for (int e = 0; e < 3; ++e) EXPECT_EQ(floats_of(got[static_cast<size_t>(e)].values[0]), (std::vector<float>{2.0f * e, 2.0f * e + 1}));
}

// A scan printing each step: kept whole though its outputs are unused, and
// under grad its steps print once (the primal scan's), not again where the
// derivative recomputes the forward pass or differentiates the body.
TEST(DebugCallback, AScanPrintsEachStepOnceUnderGrad) {
  const auto scan_printing = [](Builder& b, const Atom& x, const Atom& xs) {
    ScanTrace s(b, {x}, {xs}, std::nullopt, false);
    Builder& in = s.builder();
    debug(in, 5, {s.inputs()[0], s.inputs()[1]});
    return s.finish({mul(in, s.inputs()[0], s.inputs()[1]), s.inputs()[0]});
  };
  Builder b;
  const Atom x = b.input(f32({}));
  const Atom xs = b.input(f32({3}));
  scan_printing(b, x, xs);
  DebugLog::instance().take();
  exec::interpret(dce(b.build({x})), {exec::host_f32({}, {2}), exec::host_f32({3}, {1, 2, 3})});
  EXPECT_EQ(DebugLog::instance().take().size(), 3u);

  Builder g;
  const Atom gx = g.input(f32({}));
  const Atom gxs = g.input(f32({3}));
  const auto d = grad_at(g, [&](Builder& fb, const std::vector<Atom>& v) {
    const auto out = scan_printing(fb, v[0], v[1]);
    return std::vector<Atom>{add(fb, out[0], reduce_sum(fb, out[1], {0}))};
  }, {gx, gxs});
  const auto r = exec::interpret(g.build({d.derivs[0]}), {exec::host_f32({}, {2}), exec::host_f32({3}, {1, 2, 3})});
  EXPECT_EQ(exec::as_floats(r[0]), (std::vector<float>{10}));  // f = 6x + (x + x + 2x)
  const auto got = DebugLog::instance().take();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(floats_of(got[2].values[0]), (std::vector<float>{4}));
  EXPECT_EQ(floats_of(got[2].values[1]), (std::vector<float>{3}));
}

}  // namespace
}  // namespace shardlab::ir
