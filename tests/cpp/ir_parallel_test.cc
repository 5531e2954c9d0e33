// shard_map and the parallel primitives: values on 1-D and 2-D meshes against
// serial references, with both executors (bitwise equal), VMA typing and its
// errors, captured values, the printed program, and autodiff through the
// collectives and through shard_map (JAX's transposes and their consequence:
// the gradient of an invariant parameter is summed over the devices).
#include <gtest/gtest.h>

#include <cmath>

#include "exec/executable.h"
#include "exec/lockstep_program.h"
#include "exec/repeated_job.h"
#include "exec/threaded.h"
#include "ir/tracing/autodiff.h"
#include "ir/tracing/control_flow.h"
#include "ir/forms/json.h"
#include "ir/forms/json_value.h"
#include "ir/transforms/jvp.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "ir/forms/print.h"
#include "ir/transforms/vjp.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::as_floats;
using exec::as_ints;
using exec::host_f32;
using exec::interpret;
using Blocks = std::vector<Atom>;

PartitionSpec P() { return PartitionSpec{}; }
PartitionSpec P(std::vector<std::vector<std::string>> entries) { return PartitionSpec{std::move(entries)}; }

std::shared_ptr<const Mesh> mesh8() { return testing::make_mesh({8}, {"data"}); }
std::shared_ptr<const Mesh> mesh2x4() { return testing::make_mesh({2, 4}, {"data", "model"}); }

// A program of one shard_map with one input of aval `in`.
Program one_shard_map(const std::shared_ptr<const Mesh>& mesh, const Aval& in, const PartitionSpec& in_spec,
                      const PartitionSpec& out_spec, const std::function<Atom(Builder&, const Atom&)>& body,
                      bool check_vma = true) {
  Builder b;
  const Atom x = b.input(in);
  const auto out = shard_map(b, mesh, {in_spec}, {out_spec}, check_vma, {x},
                             [&](Builder& bb, const Blocks& blocks) { return Blocks{body(bb, blocks[0])}; });
  return b.build(out);
}

std::vector<float> run1(const Program& p, const std::shared_ptr<const Mesh>& mesh, const Shape& shape,
                        const std::vector<float>& x, const std::vector<PartitionSpec>& specs = {}) {
  return as_floats(run_both(p, mesh, {host_f32(shape, x)}, specs)[0]);
}

TEST(ShardMap, PsumOverOneAxisIsASerialFloat32Sum) {
  const auto x = testing::random_floats(8 * 3, 1);
  const Program p = one_shard_map(mesh8(), f32({8, 3}), P({{"data"}}), P(),
                                  [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); });
  // Sharded input (the executor reads blocks in place) and replicated input alike.
  for (const auto& spec : {P({{"data"}}), P()}) {
    const auto out = run1(p, mesh8(), {8, 3}, x, {spec});
    ASSERT_EQ(out.size(), 3u);
    for (int j = 0; j < 3; ++j) {
      float s = x[j];
      for (int d = 1; d < 8; ++d) s += x[d * 3 + j];
      EXPECT_EQ(out[j], s) << "column " << j;
    }
  }
}

TEST(ShardMap, PsumOnA2DMeshOverEachAxisAndBoth) {
  const auto x = testing::random_floats(4 * 8, 2);
  // Blocks [2,2]: device (r, c) holds rows 2r.., columns 2c...
  const Program rows = one_shard_map(mesh2x4(), f32({4, 8}), P({{"data"}, {"model"}}), P({{"data"}}),
                                     [](Builder& b, const Atom& v) { return psum(b, v, {"model"}); });
  const auto by_model = run1(rows, mesh2x4(), {4, 8}, x);
  ASSERT_EQ(by_model.size(), 8u);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) {
      float s = x[i * 8 + j];
      for (int m = 1; m < 4; ++m) s += x[i * 8 + m * 2 + j];
      EXPECT_EQ(by_model[i * 2 + j], s);
    }
  const Program all =
      one_shard_map(mesh2x4(), f32({4, 8}), P({{"data"}, {"model"}}), P(), [](Builder& b, const Atom& v) {
        return psum(b, v, {"data", "model"});
      });
  const auto total = run1(all, mesh2x4(), {4, 8}, x);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      float s = 0;
      for (int d = 0; d < 8; ++d) {
        const float v = x[((d / 4) * 2 + i) * 8 + (d % 4) * 2 + j];
        s = d == 0 ? v : s + v;
      }
      EXPECT_EQ(total[i * 2 + j], s);
    }
}

TEST(ShardMap, PmeanPmaxPmin) {
  const auto x = testing::random_floats(8, 3);
  auto run_op = [&](const std::function<Atom(Builder&, const Atom&)>& op) {
    return run1(one_shard_map(mesh8(), f32({8}), P({{"data"}}), P(), op), mesh8(), {8}, x);
  };
  float s = x[0], mx = x[0], mn = x[0];
  for (int d = 1; d < 8; ++d) {
    s += x[d];
    mx = std::max(mx, x[d]);
    mn = std::min(mn, x[d]);
  }
  EXPECT_EQ(run_op([](Builder& b, const Atom& v) { return pmean(b, v, {"data"}); })[0], s / 8.0f);
  EXPECT_EQ(run_op([](Builder& b, const Atom& v) { return pmax(b, v, {"data"}); })[0], mx);
  EXPECT_EQ(run_op([](Builder& b, const Atom& v) { return pmin(b, v, {"data"}); })[0], mn);
}

// JAX binds one psum for a whole tree; the devices then meet once. Packing
// the operands must not change a single bit of any result.
TEST(ShardMap, APsumOfSeveralOperandsIsOneEquationWithEachOperandsOwnSum) {
  const auto xf = testing::random_floats(8 * 3, 4);
  const auto yf = testing::random_floats(16, 5);
  std::vector<int32_t> k(8);
  for (int i = 0; i < 8; ++i) k[i] = 3 * i - 7;
  auto program = [&](bool together) {
    Builder b;
    const Blocks in{b.input(f32({8, 3})), b.input(Aval{DType::kInt32, {8}, {}}), b.input(f32({16}))};
    const auto out = shard_map(b, mesh8(), {P({{"data"}}), P({{"data"}}), P({{"data"}})}, {P(), P(), P()}, true, in,
                               [&](Builder& bb, const Blocks& blk) {
                                 if (together) return psum(bb, blk, {"data"});
                                 return Blocks{psum(bb, blk[0], {"data"}), psum(bb, blk[1], {"data"}),
                                               psum(bb, blk[2], {"data"})};
                               });
    return b.build(out);
  };
  const Program one = program(true), three = program(false);
  const std::string text = to_text(one);
  EXPECT_NE(text.find("= psum[axes=('data',)] "), std::string::npos) << text;
  EXPECT_EQ(text.find("psum["), text.rfind("psum[")) << text;
  const std::vector<exec::HostArray> args{host_f32({8, 3}, xf), exec::host_i32({8}, k), host_f32({16}, yf)};
  const auto a = run_both(one, mesh8(), args);
  const auto c = run_both(three, mesh8(), args);
  ASSERT_EQ(a.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(a[i].words, c[i].words) << "output " << i;
  EXPECT_EQ(exec::as_ints(a[1])[0], 3 * 28 - 7 * 8);
  // pmean of a tree: one psum, then a division per leaf.
  check_linear_vjp(one_shard_map(mesh8(), f32({8, 3}), P({{"data"}}), P(), [](Builder& b, const Atom& v) {
    const Blocks m = pmean(b, Blocks{v, mul(b, v, f32_scalar(2))}, {"data"});
    return add(b, m[0], m[1]);
  }));
}

TEST(ShardMap, AllGatherKeepsTheValueVarying) {
  const auto x = testing::random_floats(8 * 2, 4);
  // Tiled: every device gets the whole [8,2]; the result varies (as in JAX),
  // so out_specs mentions 'data' and the global result holds 8 copies.
  const Program tiled = one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P({{"data"}}),
                                      [](Builder& b, const Atom& v) { return all_gather(b, v, {"data"}, 0, true); });
  const auto out = run1(tiled, mesh8(), {8, 2}, x);
  ASSERT_EQ(out.size(), 8u * 16u);
  for (int d = 0; d < 8; ++d)
    for (int k = 0; k < 16; ++k) EXPECT_EQ(out[d * 16 + k], x[k]);
  // Untiled along axis 1 of [1,2] blocks: [1,8,2] per device.
  const Program stacked = one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P({{"data"}}),
                                        [](Builder& b, const Atom& v) { return all_gather(b, v, {"data"}, 1, false); });
  const auto out2 = run1(stacked, mesh8(), {8, 2}, x);
  ASSERT_EQ(out2.size(), 8u * 16u);
  for (int d = 0; d < 8; ++d)
    for (int k = 0; k < 16; ++k) EXPECT_EQ(out2[d * 16 + k], x[k]);
}

TEST(ShardMap, PsumScatterGivesEachDeviceItsChunkOfTheSum) {
  const auto x = testing::random_floats(8 * 16, 5);
  const Program p = one_shard_map(mesh8(), f32({8, 16}), P({{"data"}}), P({{}, {"data"}}),
                                  [](Builder& b, const Atom& v) { return psum_scatter(b, v, {"data"}, 1, true); });
  const auto out = run1(p, mesh8(), {8, 16}, x);
  ASSERT_EQ(out.size(), 16u);
  for (int j = 0; j < 16; ++j) {
    float s = x[j];
    for (int d = 1; d < 8; ++d) s += x[d * 16 + j];
    EXPECT_EQ(out[j], s);
  }
}

TEST(ShardMap, PpermuteShiftsAroundTheRingAndZeroesTheUnreached) {
  const auto x = testing::random_floats(8 * 2, 6);
  std::vector<std::pair<int, int>> ring;
  for (int i = 0; i < 8; ++i) ring.emplace_back(i, (i + 1) % 8);
  const Program p = one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P({{"data"}}),
                                  [&](Builder& b, const Atom& v) { return ppermute(b, v, {"data"}, ring); });
  const auto out = run1(p, mesh8(), {8, 2}, x);
  for (int d = 0; d < 8; ++d)
    for (int k = 0; k < 2; ++k) EXPECT_EQ(out[d * 2 + k], x[((d + 7) % 8) * 2 + k]);
  const Program partial =
      one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P({{"data"}}), [](Builder& b, const Atom& v) {
        return ppermute(b, v, {"data"}, {{0, 1}, {1, 2}});
      });
  const auto out2 = run1(partial, mesh8(), {8, 2}, x);
  for (int d = 0; d < 8; ++d)
    for (int k = 0; k < 2; ++k) EXPECT_EQ(out2[d * 2 + k], d == 1 || d == 2 ? x[(d - 1) * 2 + k] : 0.0f);
}

TEST(ShardMap, AllToAllTransposesTheBlockLayout) {
  const auto x = testing::random_floats(8 * 8, 7);
  // Row blocks in, column blocks out: the global array is unchanged.
  const Program p = one_shard_map(mesh8(), f32({8, 8}), P({{"data"}}), P({{}, {"data"}}),
                                  [](Builder& b, const Atom& v) { return all_to_all(b, v, {"data"}, 1, 0, true); });
  EXPECT_EQ(run1(p, mesh8(), {8, 8}, x), x);
  // Untiled on the 2x4 mesh over 'model': block [2,4] -> [4,2] (split dim 1 removed, new dim 0).
  const auto y = testing::random_floats(4 * 16, 8);
  const Program q = one_shard_map(mesh2x4(), f32({4, 16}), P({{"data"}, {"model"}}), P({{"data"}, {"model"}}),
                                  [](Builder& b, const Atom& v) { return all_to_all(b, v, {"model"}, 1, 0, false); });
  const auto out = run1(q, mesh2x4(), {4, 16}, y);
  ASSERT_EQ(out.size(), 8u * 8u);  // global [8, 8]: blocks [4,2]
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 4; ++c)
      for (int j = 0; j < 4; ++j)      // source position along model
        for (int i = 0; i < 2; ++i) {  // row of the source block
          // Device (r,c) receives from (r,j) that device's column c of its block [2,4].
          const float want = y[(r * 2 + i) * 16 + j * 4 + c];
          EXPECT_EQ(out[(r * 4 + j) * 8 + c * 2 + i], want);
        }
}

TEST(ShardMap, AxisIndexCountsMajorFirst) {
  Builder b;
  const auto out = shard_map(b, mesh2x4(), {}, {P({{"data", "model"}}), P({{"data", "model"}})}, true, {},
                             [](Builder& bb, const Blocks&) {
                               return Blocks{broadcast_in_dim(bb, axis_index(bb, {"data", "model"}), {1}, {}),
                                             broadcast_in_dim(bb, axis_index(bb, {"model"}), {1}, {})};
                             });
  const auto res = run_both(b.build(out), mesh2x4(), {});
  EXPECT_EQ(as_ints(res[0]), (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(as_ints(res[1]), (std::vector<int32_t>{0, 1, 2, 3, 0, 1, 2, 3}));
}

TEST(Vma, BodyInputsVaryAlongTheirSpecsAxesAndMixedOperandsArePvaryd) {
  Builder b;
  const Atom x = b.input(f32({8, 2}));
  const Atom w = b.input(f32({2}));
  const auto out =
      shard_map(b, mesh8(), {P({{"data"}}), P()}, {P({{"data"}})}, true, {x, w}, [](Builder& bb, const Blocks& in) {
        EXPECT_EQ(in[0].aval.str(), "f32[1,2]{V:data}");
        EXPECT_EQ(in[1].aval.str(), "f32[2]");
        return Blocks{mul(bb, in[0], broadcast_in_dim(bb, in[1], {1, 2}, {1}))};
      });
  EXPECT_EQ(to_text(b.build(out)),
            "{ lambda ; a:f32[8,2] b:f32[2]. let\n"
            "    c:f32[8,2] = shard_map[\n"
            "      check_vma=True\n"
            "      in_specs=(P('data'), P())\n"
            "      jaxpr={ lambda ; d:f32[1,2]{V:data} e:f32[2]. let\n"
            "          f:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(1,)] e\n"
            "          g:f32[1,2]{V:data} = pvary[axes=('data',)] f\n"
            "          h:f32[1,2]{V:data} = mul d g\n"
            "        in (h,) }\n"
            "      mesh=Mesh('data': 8)\n"
            "      out_specs=(P('data'),)\n"
            "    ] a b\n"
            "  in (c,) }");
  // The printer says where the body's three equations went (lines 5..7), for folding.
  std::vector<PrintedBody> bodies;
  to_text(b.build(out), bodies);
  ASSERT_EQ(bodies.size(), 1u);
  EXPECT_EQ(bodies[0].first, 5);
  EXPECT_EQ(bodies[0].last, 8);
  EXPECT_EQ(bodies[0].equations, 3);
}

TEST(Vma, PsumOfAnInvariantValueMultipliesByTheAxisSize) {
  const Program p =
      one_shard_map(mesh8(), f32({3}), P(), P(), [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); });
  EXPECT_NE(to_text(p).find("pvary[axes=('data',)]"), std::string::npos) << to_text(p);
  const std::vector<float> w = {0.5f, -1.0f, 2.0f};
  EXPECT_EQ(run1(p, mesh8(), {3}, w), (std::vector<float>{4.0f, -8.0f, 16.0f}));
}

TEST(Vma, AnOutSpecOmittingAVaryingAxisIsAnError) {
  EXPECT_EQ(testing::error_message([] {
              one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P(), [](Builder&, const Atom& v) { return v; });
            }),
            "shard_map: out_specs[0] is P() but output 0 (f32[1,2]{V:data}) varies along mesh axis 'data'; mention "
            "'data' in out_specs[0], make the value invariant along it first (psum or pmean over 'data'), or pass "
            "check_vma=False");
  // check_vma=False: no types, no error; the first device's block is the result.
  const Program p = one_shard_map(
      mesh8(), f32({8, 2}), P({{"data"}}), P(), [](Builder&, const Atom& v) { return v; }, false);
  EXPECT_EQ(p.eqns[0].params.size(), 5u);
  EXPECT_EQ(run1(p, mesh8(), {8, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
            (std::vector<float>{1, 2}));
}

TEST(Vma, CollectivesOutsideABodyAndBadAxesAreErrors) {
  Builder b;
  const Atom x = b.input(f32({4}));
  EXPECT_EQ(testing::error_message([&] { psum(b, x, {"data"}); }),
            "Found an unbound axis name: data. To fix this, please call psum under `jax.shard_map`.");
  EXPECT_NE(testing::error_message([&] {
              one_shard_map(mesh8(), f32({8}), P({{"data"}}), P(),
                            [](Builder& bb, const Atom& v) { return psum(bb, v, {"model"}); });
            }).find("Found an unbound axis name: model. To fix this, please call psum under `jax.shard_map`. "
                    "(The enclosing shard_map's mesh is "),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] {
              one_shard_map(mesh8(), f32({6}), P({{"data"}}), P({{"data"}}), [](Builder&, const Atom& v) { return v; });
            }).find("shard_map in_specs[0]"),
            std::string::npos);
}

// A replicated body output is one buffer its first holder writes, so the
// other devices skip the equations only it needs, though never a collective:
// on a 2x4 mesh, y = psum(x, 'model') * 2 laid out P('data') is written by
// devices 0 and 4 (model coordinate 0); x * 3 laid out P('data', 'model') by all.
TEST(ShardMap, ADeviceRunsOnlyWhatTheOutputsItWritesNeedAndEveryCollective) {
  Builder b;
  const Atom x = b.input(f32({2, 4}));
  const auto out = shard_map(b, mesh2x4(), {P({{"data"}, {"model"}})}, {P({{"data"}}), P({{"data"}, {"model"}})}, true,
                             {x}, [](Builder& bb, const Blocks& in) {
                               return Blocks{mul(bb, psum(bb, in[0], {"model"}), f32_scalar(2)),
                                             mul(bb, in[0], f32_scalar(3))};
                             });
  const Program p = b.build(out);
  const std::vector<float> xs = {1, 2, 3, 4, 5, 6, 7, 8};
  auto exe = std::make_shared<exec::Executable>(std::make_shared<const Program>(p));
  Communicator comm(mesh2x4());
  for (int rep = 0; rep < 3; ++rep) {
    const auto outs = exec::run_program(testing::pool(), comm, exe,
                                        {ShardedArray::put(mesh2x4(), DType::kFloat32, {2, 4}, P({{"data"}, {"model"}}),
                                                           xs.data())});
    std::vector<float> y(2), z(8);
    outs[0].get(y.data(), true);
    outs[1].get(z.data(), true);
    EXPECT_EQ(y, (std::vector<float>{20, 52}));
    EXPECT_EQ(z, (std::vector<float>{3, 6, 9, 12, 15, 18, 21, 24}));
  }
  // Devices 0 and 4: psum, pvary 2, mul, pvary 3, mul; the others skip y's pvary and mul.
  for (int d = 0; d < 8; ++d)
    EXPECT_EQ(exe->frame(0, d).equations_run(), d % 4 == 0 ? 5u : 3u) << "device " << d;
  run_both(p, mesh2x4(), {host_f32({2, 4}, xs)}, {P({{"data"}, {"model"}})});
}

// A prepared job runs again on the same inputs: a program of shard_maps
// reading only its inputs needs no meeting between runs (its collectives
// order them), one with a top-level equation does; either way 200 runs in one
// job give the one run's values (exec/repeated_job.h, the benchmarks' loop).
TEST(ShardMap, APreparedJobRunsAgainWithTheSameValues) {
  const std::vector<float> xs = {1, 2, 3, 4, 5, 6, 7, 8};
  const auto psum_program = [](bool then_top_level) {
    Builder b;
    const Atom x = b.input(f32({8}));
    Atom y = shard_map(b, mesh8(), {P({{"data"}})}, {P()}, true, {x},
                       [](Builder& bb, const Blocks& in) { return Blocks{psum(bb, in[0], {"data"})}; })[0];
    if (then_top_level) y = mul(b, y, f32_scalar(2));
    return std::make_shared<exec::Executable>(std::make_shared<const Program>(b.build({y})));
  };
  for (const bool top_level : {false, true}) {
    Communicator comm(mesh8());
    const ShardedArray arg = ShardedArray::put(mesh8(), DType::kFloat32, {8}, P({{"data"}}), xs.data());
    const exec::ProgramJob job = exec::prepare_program(comm, psum_program(top_level), {arg});
    EXPECT_EQ(job.rerun_needs_sync, top_level);
    const JobResult r = testing::pool().run(8, exec::repeated(job, comm, 200), &comm);
    ASSERT_TRUE(r.ok) << r.message;
    ASSERT_EQ(job.outputs->size(), 1u);  // the last run's, not one per run
    std::vector<float> y(1);
    job.outputs->at(0).get(y.data(), true);
    EXPECT_EQ(y[0], top_level ? 72.0f : 36.0f);
    EXPECT_EQ(testing::error_message([&] { exec::repeated(job, comm, 0); }), "repeated: reps=0 must be >= 1");
  }
}

TEST(ShardMap, CapturedValuesBecomeLeadingReplicatedInputs) {
  Builder b;
  const Atom x = b.input(f32({8}));
  const Atom w = b.input(f32({}));
  const auto out = shard_map(b, mesh8(), {P({{"data"}})}, {P({{"data"}})}, true, {x},
                             [&](Builder& bb, const Blocks& in) { return Blocks{mul(bb, in[0], w)}; });
  const Program p = b.build(out);
  const std::string text = to_text(p);
  EXPECT_NE(text.find("in_specs=(P(), P('data'))"), std::string::npos) << text;
  EXPECT_NE(text.find("] b a\n"), std::string::npos) << text;
  const auto res = run_both(p, mesh8(), {host_f32({8}, {1, 2, 3, 4, 5, 6, 7, 8}), host_f32({}, {2})});
  EXPECT_EQ(as_floats(res[0]), (std::vector<float>{2, 4, 6, 8, 10, 12, 14, 16}));
}

// Values flowing between bodies and the top level in every way the threaded
// executor plans for: a split body output read whole at the top level, then
// by a body as its own blocks; a top-level value cut into a body; top-level
// equations on a replicated body output (run on its blocks, no assembly); a
// body reading such a result. Checked against the values worked out by hand
// and, bitwise, against the lockstep executor (and by `npm run test:tsan`).
TEST(ShardMap, ValuesFlowBetweenBodiesAndTheTopLevel) {
  Builder b;
  const Atom x = b.input(f32({16}));
  const Atom s = b.input(f32({}));
  auto body = [&](const std::vector<PartitionSpec>& in_specs, const PartitionSpec& out_spec,
                  const std::vector<Atom>& in, std::function<Atom(Builder&, const Blocks&)> f) {
    return shard_map(b, mesh8(), in_specs, {out_spec}, true, in,
                     [&](Builder& bb, const Blocks& blk) { return Blocks{f(bb, blk)}; })[0];
  };
  const Atom a = body({P({{"data"}})}, P({{"data"}}), {x},
                      [](Builder& bb, const Blocks& blk) { return mul(bb, blk[0], f32_scalar(2)); });  // 2x
  const Atom t = reduce_sum(b, a, {0});                                                                // 272
  const Atom c = body({P({{"data"}}), P()}, P(), {a, t}, [](Builder& bb, const Blocks& blk) {
    return add(bb, psum(bb, reduce_sum(bb, blk[0], {0}), {"data"}), blk[1]);  // 272 + 272
  });
  const Atom u = add(b, mul(b, c, s), f32_scalar(1));  // 544 * 0.5 + 1
  const Atom v = body({P()}, P(), {u}, [](Builder& bb, const Blocks& blk) { return add(bb, blk[0], f32_scalar(1)); });
  std::vector<float> xs(16);
  for (int i = 0; i < 16; ++i) xs[i] = static_cast<float>(i + 1);
  for (int rep = 0; rep < 20; ++rep) {
    const auto res =
        run_both(b.build({v, u, a}), mesh8(), {host_f32({16}, xs), host_f32({}, {0.5f})}, {P({{"data"}}), P()});
    EXPECT_EQ(as_floats(res[0]), std::vector<float>{274});
    EXPECT_EQ(as_floats(res[1]), std::vector<float>{273});
    std::vector<float> twice(16);
    for (int i = 0; i < 16; ++i) twice[i] = 2 * xs[i];
    EXPECT_EQ(as_floats(res[2]), twice);
  }
}

TEST(ShardMapAutodiff, EveryCollectiveTransposesByTheDotProductIdentity) {
  std::vector<std::pair<int, int>> ring;
  for (int i = 0; i < 8; ++i) ring.emplace_back(i, (i + 3) % 8);
  check_linear_vjp(one_shard_map(mesh8(), f32({8, 3}), P({{"data"}}), P(),
                                 [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); }));
  check_linear_vjp(one_shard_map(mesh8(), f32({3}), P(), P({{"data"}}),
                                 [](Builder& b, const Atom& v) { return pvary(b, v, {"data"}); }));
  check_linear_vjp(one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P({{"data"}}),
                                 [](Builder& b, const Atom& v) { return all_gather(b, v, {"data"}, 0, true); }));
  check_linear_vjp(one_shard_map(mesh8(), f32({8, 16}), P({{"data"}}), P({{"data"}}),
                                 [](Builder& b, const Atom& v) { return psum_scatter(b, v, {"data"}, 1, true); }));
  check_linear_vjp(one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P({{"data"}}),
                                 [&](Builder& b, const Atom& v) { return ppermute(b, v, {"data"}, ring); }));
  check_linear_vjp(one_shard_map(mesh8(), f32({8, 8}), P({{"data"}}), P({{}, {"data"}}),
                                 [](Builder& b, const Atom& v) { return all_to_all(b, v, {"data"}, 1, 0, true); }));
  check_linear_vjp(one_shard_map(mesh2x4(), f32({4, 16}), P({{"data"}, {"model"}}), P({{"data"}, {"model"}}),
                                 [](Builder& b, const Atom& v) { return all_to_all(b, v, {"model"}, 1, 0, false); }));
}

TEST(ShardMapAutodiff, JvpThroughShardMapMatchesFiniteDifferences) {
  check_jvp(
      [](Builder& b, const std::vector<Atom>& in) {
        return shard_map(b, mesh8(), {P({{"data"}}), P()}, {P()}, true, in, [](Builder& bb, const Blocks& blk) {
          const Atom y = unary(bb, Prim::kTanh, mul(bb, blk[0], broadcast_in_dim(bb, blk[1], {1, 2}, {1})));
          return Blocks{psum(bb, unary(bb, Prim::kSquare, y), {"data"})};
        })[0];
      },
      {f32({8, 2}), f32({2})});
}

// The data-parallel pattern on a per-example model y ~ x * w (w: one weight
// per feature): the per-device loss is the mean squared error of its block.
Blocks local_grad(Builder& b, const Atom& w, const Atom& x, const Atom& y, bool pcast_first) {
  const Atom wv = pcast_first ? pvary(b, w, {"data"}) : w;
  const auto g = grad_at(b,
                         [&](Builder& gb, const std::vector<Atom>& args) {
                           const Atom pred = mul(gb, x, broadcast_in_dim(gb, args[0], x.aval.shape, {1}));
                           const Atom err = unary(gb, Prim::kSquare, sub(gb, pred, y));
                           return std::vector<Atom>{div(gb, reduce_sum(gb, err, {0, 1}), f32_scalar(x.aval.shape[0]))};
                         },
                         {wv});
  return {pmean(b, g.derivs[0], {"data"}), pmean(b, g.outputs[0], {"data"})};
}

std::vector<float> data_parallel_grad(bool pcast_first, const std::vector<float>& w, const std::vector<float>& x,
                                      const std::vector<float>& y) {
  Builder b;
  const Atom wa = b.input(f32({2})), xa = b.input(f32({16, 2})), ya = b.input(f32({16, 2}));
  const auto out =
      shard_map(b, mesh8(), {P(), P({{"data"}}), P({{"data"}})}, {P(), P()}, true, {wa, xa, ya},
                [&](Builder& bb, const Blocks& in) { return local_grad(bb, in[0], in[1], in[2], pcast_first); });
  const auto res = run_both(b.build(out), mesh8(), {host_f32({2}, w), host_f32({16, 2}, x), host_f32({16, 2}, y)});
  return as_floats(res[0]);
}

TEST(ShardMapAutodiff, GradOfAnInvariantParameterIsSummedOverDevicesUnlessPcastFirst) {
  const auto w = testing::random_floats(2, 9), x = testing::random_floats(32, 10), y = testing::random_floats(32, 11);
  // Reference in float64: the gradient of the global mean over devices of
  // each block's mean squared error (= mean over all 16 rows of 2*(xw-y)*x).
  std::vector<double> ref(2, 0.0);
  for (int n = 0; n < 16; ++n)
    for (int k = 0; k < 2; ++k) {
      const double e = static_cast<double>(x[n * 2 + k]) * w[k] - y[n * 2 + k];
      ref[k] += 2 * e * x[n * 2 + k] / 16.0;
    }
  const auto right = data_parallel_grad(true, w, x, y);
  const auto forgot = data_parallel_grad(false, w, x, y);
  for (int k = 0; k < 2; ++k) {
    EXPECT_NEAR(right[k], ref[k], 1e-5 * (1 + std::abs(ref[k])));
    EXPECT_NEAR(forgot[k], 8 * ref[k], 8e-5 * (1 + std::abs(ref[k])));
  }
}

TEST(ShardMapAutodiff, GradThroughAShardMapFromOutside) {
  // f(w) = sum over devices of sum(tanh(x_block * w)): the transposed body
  // sums w's cotangent over the devices (pvary's transpose is psum).
  const auto x = testing::random_floats(16, 12);
  Builder b;
  const Atom w = b.input(f32({2}));
  const Atom xa = b.input(f32({8, 2}));
  const auto g =
      grad_at(b,
              [&](Builder& gb, const std::vector<Atom>& args) {
                const auto out = shard_map(
                    gb, mesh8(), {P(), P({{"data"}})}, {P()}, true, {args[0], xa}, [](Builder& bb, const Blocks& in) {
                      const Atom t = unary(bb, Prim::kTanh, mul(bb, in[1], broadcast_in_dim(bb, in[0], {1, 2}, {1})));
                      return Blocks{psum(bb, reduce_sum(bb, t, {0, 1}), {"data"})};
                    });
                return std::vector<Atom>{out[0]};
              },
              {w});
  const std::vector<float> wv = {0.3f, -0.7f};
  const auto res = run_both(b.build({g.outputs[0], g.derivs[0]}), mesh8(), {host_f32({2}, wv), host_f32({8, 2}, x)});
  double f = 0;
  std::vector<double> dw(2, 0);
  for (int n = 0; n < 8; ++n)
    for (int k = 0; k < 2; ++k) {
      const double t = std::tanh(static_cast<double>(x[n * 2 + k]) * wv[k]);
      f += t;
      dw[k] += (1 - t * t) * x[n * 2 + k];
    }
  EXPECT_NEAR(as_floats(res[0])[0], f, 1e-5);
  EXPECT_NEAR(as_floats(res[1])[0], dw[0], 1e-5);
  EXPECT_NEAR(as_floats(res[1])[1], dw[1], 1e-5);
}

TEST(ShardMapAutodiff, PmaxHasNoDerivative) {
  Builder b;
  const Atom x = b.input(f32({8}));
  EXPECT_NE(testing::error_message([&] {
              grad_at(b,
                      [](Builder& gb, const std::vector<Atom>& a) {
                        return std::vector<Atom>{
                            shard_map(gb, mesh8(), {P({{"data"}})}, {P()}, true, a, [](Builder& bb, const Blocks& in) {
                              return Blocks{reduce_sum(bb, pmax(bb, in[0], {"data"}), {0})};
                            })[0]};
                      },
                      {x});
            }).find("pmax: has no derivative"),
            std::string::npos);
}

}  // namespace
}  // namespace shardlab::ir

namespace shardlab::ir {
namespace {

TEST(Json, HoldsTheTextFormsContentStructured) {
  const Program p = one_shard_map(mesh8(), f32({8, 2}), P({{"data"}}), P(), [](Builder& b, const Atom& v) {
    return psum(b, mul(b, v, f32_scalar(2)), {"data"});
  });
  EXPECT_EQ(
      to_json(p),
      R"({"invars":[{"name":"a","aval":{"dtype":"float32","shape":[8,2],"vma":[],"str":"f32[8,2]"}}],)"
      R"("eqns":[{"primitive":"shard_map","call":"jaxpr","params":{"jaxpr":{)"
      R"("invars":[{"name":"c","aval":{"dtype":"float32","shape":[1,2],"vma":["data"],"str":"f32[1,2]{V:data}"}}],)"
      R"("eqns":[{"primitive":"pvary","params":{"axes":["data"]},)"
      R"("inputs":[{"literal":2,"aval":{"dtype":"float32","shape":[],"vma":[],"str":"f32[]"}}],)"
      R"("outputs":[{"name":"d","aval":{"dtype":"float32","shape":[],"vma":["data"],"str":"f32[]{V:data}"}}]},)"
      R"({"primitive":"mul","params":{},"inputs":[{"name":"c","aval":{"dtype":"float32","shape":[1,2],"vma":["data"],"str":"f32[1,2]{V:data}"}},)"
      R"({"name":"d","aval":{"dtype":"float32","shape":[],"vma":["data"],"str":"f32[]{V:data}"}}],)"
      R"("outputs":[{"name":"e","aval":{"dtype":"float32","shape":[1,2],"vma":["data"],"str":"f32[1,2]{V:data}"}}]},)"
      R"({"primitive":"psum","collective":true,)"
      R"j("traffic":{"algorithm":"every device reduces all the blocks itself, staged (one barrier)","operand_bytes":8,"sent":[56,56,56,56,56,56,56,56],)j"
      R"j("computes":"every device ends with the sum of the blocks","combine":"+","links":[[0,1],[0,2],[0,3],[0,4],[0,5],[0,6],[0,7],[1,0],[1,2],[1,3],[1,4],[1,5],[1,6],[1,7],[2,0],[2,1],[2,3],[2,4],[2,5],[2,6],[2,7],[3,0],[3,1],[3,2],[3,4],[3,5],[3,6],[3,7],[4,0],[4,1],[4,2],[4,3],[4,5],[4,6],[4,7],[5,0],[5,1],[5,2],[5,3],[5,4],[5,6],[5,7],[6,0],[6,1],[6,2],[6,3],[6,4],[6,5],[6,7],[7,0],[7,1],[7,2],[7,3],[7,4],[7,5],[7,6]]},)j"
      R"("params":{"axes":["data"]},"inputs":[{"name":"e","aval":{"dtype":"float32","shape":[1,2],"vma":["data"],"str":"f32[1,2]{V:data}"}}],)"
      R"("outputs":[{"name":"f","aval":{"dtype":"float32","shape":[1,2],"vma":[],"str":"f32[1,2]"}}]}],)"
      R"("outvars":[{"name":"f","aval":{"dtype":"float32","shape":[1,2],"vma":[],"str":"f32[1,2]"}}]},)"
      R"("mesh":{"axis_names":["data"],"shape":[8]},"in_specs":[["data"]],"out_specs":[[]],"check_vma":true},)"
      R"("inputs":[{"name":"a","aval":{"dtype":"float32","shape":[8,2],"vma":[],"str":"f32[8,2]"}}],)"
      R"("outputs":[{"name":"b","aval":{"dtype":"float32","shape":[1,2],"vma":[],"str":"f32[1,2]"}}]}],)"
      R"("outvars":[{"name":"b","aval":{"dtype":"float32","shape":[1,2],"vma":[],"str":"f32[1,2]"}}]})");
}

}  // namespace
}  // namespace shardlab::ir

namespace shardlab::ir {
namespace {

// The traffic the program JSON gives each collective equation, in order:
// (primitive, algorithm, bytes sent by each position of the group, what the
// group computes, the combining operator, the links data moves along).
struct EqnTraffic {
  std::string primitive, algorithm;
  std::vector<int64_t> sent;
  std::string computes, combine;
  std::vector<std::pair<int, int>> links;
};
void collect_traffic(const JsonValue& program, std::vector<EqnTraffic>& out) {
  for (const JsonValue& e : program.find("eqns")->items) {
    if (const JsonValue* t = e.find("traffic")) {
      EqnTraffic r{e.find("primitive")->string, t->find("algorithm")->string, {}, t->find("computes")->string,
                   t->find("combine")->string, {}};
      for (const JsonValue& b : t->find("sent")->items) r.sent.push_back(static_cast<int64_t>(b.number));
      for (const JsonValue& l : t->find("links")->items)
        r.links.emplace_back(static_cast<int>(l.items.at(0).number), static_cast<int>(l.items.at(1).number));
      out.push_back(r);
    }
    for (const auto& [key, value] : e.find("params")->members) {
      if (value.kind == JsonValue::Kind::kObject && value.find("eqns")) collect_traffic(value, out);
      for (const JsonValue& item : value.items)
        if (item.kind == JsonValue::Kind::kObject && item.find("eqns")) collect_traffic(item, out);
    }
  }
}
std::vector<EqnTraffic> traffic_of(const Program& p) {
  std::vector<EqnTraffic> out;
  collect_traffic(parse_json(to_json(p), "program", size_t{1} << 26, 64), out);
  return out;
}
std::vector<int64_t> each(int n, int64_t bytes) { return std::vector<int64_t>(static_cast<size_t>(n), bytes); }

// The references below are the algorithms as communicator.h states them,
// counted by hand: staged, each of the n - 1 peers reads a device's whole
// block b; read in place, reductions split into slices of ceil(count / n)
// rounded up to 16 elements, the peers read theirs of the device's block
// and it writes its reduced slice to each of them (or once, into a result
// the group shares); gathers are read whole by each peer, scatters and
// all-to-alls by chunks of b / n.
// A psum of float16 blocks, small (staged, each device reducing all) and
// large (slice-parallel into the group's one shared result): each sum is
// float32's in device order, rounded once to float16, on both executors alike.
TEST(NarrowDtypes, PsumOfFloat16RoundsEachSumOnce) {
  for (int64_t n : {int64_t{6}, int64_t{5000}}) {
    const Program p = one_shard_map(mesh8(), Aval{DType::kFloat16, {8 * n}, {}}, P({{"data"}}), P(),
                                    [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); });
    std::vector<float> x(static_cast<size_t>(8 * n));
    for (size_t k = 0; k < x.size(); ++k) x[k] = round_to_float16(0.1f * static_cast<float>(k % 97) + 0.003f);
    const auto out = as_floats(run_both(p, mesh8(), {exec::host_array(DType::kFloat16, {8 * n}, x)}, {P({{"data"}})})[0]);
    ASSERT_EQ(out.size(), static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) {
      float s = x[static_cast<size_t>(j)];
      for (int64_t d = 1; d < 8; ++d) s += x[static_cast<size_t>(d * n + j)];
      ASSERT_EQ(out[static_cast<size_t>(j)], round_to_float16(s)) << "n " << n << " element " << j;
    }
  }
}

// A device of JAX sends a dtype's own bytes, though ShardLab stores every
// element in 4: a psum of 8 bfloat16s per device sends 7 * 16 bytes, of 8 int8s 7 * 8.
TEST(Traffic, CountsEachDtypesOwnBytes) {
  for (const auto& [dtype, size] : {std::pair{DType::kFloat32, 4}, {DType::kBFloat16, 2}, {DType::kInt8, 1}}) {
    const auto t = traffic_of(one_shard_map(mesh8(), Aval{dtype, {64}, {}}, P({{"data"}}), P(),
                                            [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); }));
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0].sent, each(8, 7 * 8 * size)) << dtype_name(dtype);
  }
}

TEST(Traffic, EachCollectiveSaysWhatEachDeviceSends) {
  const auto in_body = [](const Shape& block, std::function<Atom(Builder&, const Atom&)> f, PartitionSpec out = P({{"data"}}),
                          bool check_vma = true) {
    Shape global = block;
    global[0] *= 8;
    return traffic_of(one_shard_map(mesh8(), f32(global), P({{"data"}}), out, f, check_vma));
  };
  // psum of f32[8,4]: 128 bytes, staged.
  auto t = in_body({8, 4}, [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); }, P());
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].primitive, "psum");
  EXPECT_EQ(t[0].sent, each(8, 7 * 128));
  EXPECT_NE(t[0].algorithm.find("staged"), std::string::npos) << t[0].algorithm;
  // At the staging limit (16 KiB) still staged; one element more and read in
  // place by slices: 4097 elements in slices of 528 (ceil(4097 / 8) = 513,
  // rounded up to 16) and a last one of 401. Without check_vma each device
  // keeps its own result: it writes its slice to the 7 others.
  t = in_body({4096}, [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); }, P());
  EXPECT_EQ(t[0].sent, each(8, 7 * 16384));
  t = in_body({4097}, [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); }, P(), false);
  std::vector<int64_t> sliced;
  for (int p = 0; p < 8; ++p) {
    const int64_t slice = p < 7 ? 528 : 4097 - 7 * 528;
    sliced.push_back(4 * ((4097 - slice) + 7 * slice));
  }
  EXPECT_EQ(t[0].sent, sliced);
  EXPECT_NE(t[0].algorithm.find("writes it to every peer, read in place (two barriers)"), std::string::npos) << t[0].algorithm;
  // With check_vma the replicated result is one buffer the group shares:
  // each device writes its slice once, so its whole block leaves it once.
  t = in_body({4097}, [](Builder& b, const Atom& v) { return psum(b, v, {"data"}); }, P());
  EXPECT_EQ(t[0].sent, each(8, 4 * 4097));
  EXPECT_NE(t[0].algorithm.find("into the group's one result"), std::string::npos) << t[0].algorithm;
  // A psum of two operands is one all-reduce per dtype, packed: 8 + 3
  // float32 (44 bytes) and 2 int32 (8 bytes), both staged.
  {
    Builder b;
    const Atom x = b.input(f32({64})), y = b.input(f32({24})), k = b.input(Aval{DType::kInt32, {16}, {}});
    const auto out = shard_map(b, mesh8(), {P({{"data"}}), P({{"data"}}), P({{"data"}})}, {P(), P(), P()}, true, {x, y, k},
                               [](Builder& bb, const Blocks& v) { return psum(bb, v, {"data"}); });
    t = traffic_of(b.build(out));
    EXPECT_EQ(t[0].sent, each(8, 7 * 44 + 7 * 8));
  }
  // all_gather of f32[4,2] (32 bytes) over 'model' on 2x4: groups of 4.
  {
    const auto mesh = mesh2x4();
    t = traffic_of(one_shard_map(mesh, f32({8, 8}), P({{"data"}, {"model"}}), P({{"data"}, {"model"}}), [](Builder& b, const Atom& v) {
      return all_gather(b, v, {"model"}, 1, true);
    }));
    EXPECT_EQ(t[0].sent, each(4, 3 * 32));
  }
  // A block past the staging limit is read in place (a gathered result
  // varies along its axes, so it is never the group's shared buffer).
  t = in_body({8192}, [](Builder& b, const Atom& v) { return all_gather(b, v, {"data"}, 0, true); });
  EXPECT_EQ(t[0].sent, each(8, 7 * 32768));
  EXPECT_NE(t[0].algorithm.find("read in place (two barriers)"), std::string::npos) << t[0].algorithm;
  // psum_scatter of f32[8,4]: each peer reads its 16-byte chunk.
  t = in_body({8, 4}, [](Builder& b, const Atom& v) { return psum_scatter(b, v, {"data"}, 0, true); });
  EXPECT_EQ(t[0].sent, each(8, 7 * 16));
  // ppermute: only sources send, and a device sending to itself moves nothing.
  t = in_body({1, 3}, [](Builder& b, const Atom& v) { return ppermute(b, v, {"data"}, {{0, 1}, {1, 2}, {5, 5}}); });
  EXPECT_EQ(t[0].sent, (std::vector<int64_t>{12, 12, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(t[0].links, (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));
  EXPECT_EQ(t[0].combine, "");
  // all_to_all of f32[8,2]: each peer reads its 8-byte chunk.
  t = in_body({8, 2}, [](Builder& b, const Atom& v) { return all_to_all(b, v, {"data"}, 0, 0, true); });
  EXPECT_EQ(t[0].sent, each(8, 7 * 8));
  EXPECT_EQ(t[0].links.size(), 56u);  // every peer reads from every other
  EXPECT_EQ(t[0].combine, "");
  // Reductions name their operator: psum_scatter sums, pmax takes the maximum.
  t = in_body({8, 4}, [](Builder& b, const Atom& v) { return psum_scatter(b, v, {"data"}, 0, true); });
  EXPECT_EQ(t[0].combine, "+");
  t = in_body({8, 4}, [](Builder& b, const Atom& v) { return pmax(b, v, {"data"}); }, P());
  EXPECT_EQ(t[0].combine, "max");
  EXPECT_NE(t[0].computes.find("maximum"), std::string::npos) << t[0].computes;
}

// A program runs on one mesh: program_mesh finds its shard_maps' mesh, nested
// ones included (here in a cond branch), and both executors refuse a program
// whose shard_maps use two meshes, with one message.
TEST(ShardMapErrors, AProgramsShardMapsUseOneMesh) {
  const auto doubled = [](Builder& bb, const Blocks& in) { return Blocks{mul(bb, in[0], f32_scalar(2))}; };
  const auto program = [&](const std::shared_ptr<const Mesh>& inner_mesh) {
    Builder b;
    const Atom x = b.input(f32({8}));
    const Atom y = shard_map(b, mesh8(), {P({{"data"}})}, {P({{"data"}})}, true, {x}, doubled)[0];
    CondTrace cond(b, {y});
    for (int branch = 0; branch < 2; ++branch) {
      Builder& bb = cond.begin_branch();
      const Atom v = cond.inputs()[0];
      cond.end_branch(branch ? shard_map(bb, inner_mesh, {P({{"data"}})}, {P({{"data"}})}, true, {v}, doubled)
                             : std::vector<Atom>{v});
    }
    return b.build(cond.finish(Atom::constant(1, DType::kInt32)));
  };
  const Program same = program(testing::make_mesh({8}, {"data"}));  // another Mesh object of the same shape and names
  ASSERT_NE(program_mesh(same, "run"), nullptr);
  EXPECT_EQ(program_mesh(same, "run")->str(), mesh8()->str());
  std::vector<float> xs(8, 1.5f);
  EXPECT_EQ(as_floats(run_both(same, mesh8(), {host_f32({8}, xs)}, {P({{"data"}})})[0]), std::vector<float>(8, 6.0f));

  const Program two = program(testing::make_mesh({4, 2}, {"data", "model"}));
  const std::string want = "run: one program uses two meshes (" + mesh8()->str() + " and " +
                           testing::make_mesh({4, 2}, {"data", "model"})->str() + "); use one mesh per program";
  EXPECT_EQ(testing::error_message([&] { program_mesh(two, "run"); }), want);
  EXPECT_EQ(testing::error_message([&] { interpret(two, {host_f32({8}, xs)}); }), want);
  Communicator comm(mesh8());
  const ShardedArray arg = ShardedArray::put(mesh8(), DType::kFloat32, {8}, P({{"data"}}), xs.data());
  EXPECT_EQ(testing::error_message([&] {
              exec::run_program(testing::pool(), comm, std::make_shared<exec::Executable>(std::make_shared<const Program>(two)), {arg});
            }),
            want);
  Builder none;
  EXPECT_EQ(program_mesh(none.build({none.input(f32({2}))}), "run"), nullptr);
}

TEST(ShardMapErrors, SpecsAndTracesAreChecked) {
  Builder b;
  const Atom x = b.input(f32({8, 2}));
  const auto id = [](Builder&, const Blocks& in) { return in; };
  EXPECT_EQ(testing::error_message([&] { shard_map(b, mesh8(), {}, {P()}, true, {x}, id); }),
            "shard_map: got 1 arguments but 0 in_specs; give one spec per argument (or one for a whole subtree)");
  EXPECT_EQ(testing::error_message([&] { shard_map(b, mesh8(), {P({{"data"}})}, {}, true, {x}, id); }),
            "shard_map: the body returned 1 outputs but there are 0 out_specs; give one spec per output (or one for a "
            "whole subtree)");
  EXPECT_EQ(
      testing::error_message([&] {
        shard_map(b, mesh8(), {P({{"data"}})}, {P({{"data"}})}, true, {x},
                  [&](Builder& bb, const Blocks& in) { return shard_map(bb, mesh8(), {P()}, {P()}, true, in, id); });
      }),
      "shard_map: a shard_map inside a shard_map body is not supported; use one shard_map over all the mesh axes");
  EXPECT_EQ(testing::error_message([&] {
              shard_map(b, mesh8(), {P({{"data"}})}, {P({{}, {}, {"data"}})}, true, {x}, id);
            }),
            "shard_map out_specs[0]: P(None, None, 'data') has 3 entries but output 0 of the body is f32[1,2]{V:data} "
            "(rank 2)");
  // A value of a finished trace used in another one.
  Atom escaped;
  {
    Builder other;
    escaped = other.input(f32({2}));
  }
  EXPECT_EQ(testing::error_message([&] { add(b, x, escaped); }),
            "trace: the value f32[2] belongs to a trace that is not this one or an enclosing one (a traced value "
            "escaped the function that made it, e.g. stored in a variable outside it); pass it as an argument instead");
}

}  // namespace
}  // namespace shardlab::ir

namespace shardlab::ir {
namespace {

// <ct, J t> from the JVP equals <J^T ct, t> from the VJP, for a nonlinear
// program with a shard_map, collectives and a matmul.
TEST(Autodiff, JvpAndVjpAgree) {
  Builder b;
  const Atom w = b.input(f32({3, 2})), x = b.input(f32({8, 3}));
  const auto y =
      shard_map(b, mesh8(), {P(), P({{"data"}})}, {P({{"data"}})}, true, {w, x}, [](Builder& bb, const Blocks& in) {
        const Atom h = unary(bb, Prim::kTanh, matmul(bb, in[1], in[0]));
        const Atom s = psum(bb, reduce_sum(bb, h, {0}), {"data"});
        return Blocks{mul(bb, h, broadcast_in_dim(bb, s, {1, 2}, {1}))};
      });
  const Program f = b.build(y);
  const auto wv = testing::random_floats(6, 30), xv = testing::random_floats(24, 31);
  const auto tw = testing::random_floats(6, 32), tx = testing::random_floats(24, 33);
  const auto ct = testing::random_floats(16, 34);
  const auto jv =
      interpret(jvp(f), {host_f32({3, 2}, wv), host_f32({8, 3}, xv), host_f32({3, 2}, tw), host_f32({8, 3}, tx)});
  const auto vj = interpret(vjp(f), {host_f32({3, 2}, wv), host_f32({8, 3}, xv), host_f32({8, 2}, ct)});
  double lhs = 0, rhs = 0;
  const auto jt = as_floats(jv[1]), cw = as_floats(vj[1]), cx = as_floats(vj[2]);
  for (size_t i = 0; i < ct.size(); ++i) lhs += static_cast<double>(ct[i]) * jt[i];
  for (size_t i = 0; i < tw.size(); ++i) rhs += static_cast<double>(cw[i]) * tw[i];
  for (size_t i = 0; i < tx.size(); ++i) rhs += static_cast<double>(cx[i]) * tx[i];
  EXPECT_NEAR(lhs, rhs, 1e-4 * (1 + std::abs(lhs)));
}

}  // namespace
}  // namespace shardlab::ir
