// Batching (jax.vmap): every primitive of the registry, on its sample, batched
// against a loop over the batch (each example is computed with the same
// operations in the same order: equal to 2 ulps, see same_value); vmap's in_axes, out_axes and
// axis_size, its errors (JAX's messages), the printed program, per-example
// gradients (vmap of grad), vmap inside and around shard_map, and its
// axis_name: collectives over it meet the batch's examples as devices.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "exec/lockstep_program.h"
#include "ir/tracing/autodiff.h"
#include "ir/transforms/batching.h"
#include "ir/tracing/ops.h"
#include "ir/tracing/parallel_ops.h"
#include "lax_calls.h"
#include "ir/forms/print.h"
#include "ir/tracing/vmap.h"
#include "ir_checks.h"
#include "test_util.h"

namespace shardlab::ir {
namespace {

using exec::HostArray;

constexpr int64_t kBatch = 3;

// The examples stacked along dimension `dim`.
HostArray stack(const std::vector<HostArray>& examples, int dim) {
  HostArray out{examples[0].aval, {}};
  out.aval.shape.insert(out.aval.shape.begin() + dim, static_cast<int64_t>(examples.size()));
  const int64_t n = num_elements(out.aval.shape);
  for (int64_t k = 0; k < n; ++k) {
    std::vector<int64_t> idx = testing::unravel(k, out.aval.shape);
    const int64_t e = idx[dim];
    idx.erase(idx.begin() + dim);
    out.words.push_back(examples[e].words[testing::ravel(idx, examples[e].aval.shape)]);
  }
  return out;
}

// `p` batched with input i mapped along dims[i] (kNotBatched: the same for every example), outputs batched at 0.
Program batched_program(const Program& p, const std::vector<int>& dims) {
  Builder b;
  std::vector<Batched> ins;
  for (size_t i = 0; i < p.invars.size(); ++i) {
    Aval a = p.avals[p.invars[i]];
    if (dims[i] != kNotBatched) a.shape.insert(a.shape.begin() + dims[i], kBatch);
    ins.push_back(Batched{b.input(a), dims[i]});
  }
  std::vector<Atom> outs;
  for (const Batched& o : batch_program(b, p, ins, kBatch)) outs.push_back(move_batch_dim(b, o, 0, kBatch));
  return b.build(outs);
}

// Checks the batched program against the loop over the examples, for inputs mapped along `dims`.
void check_batching(const Program& p, const std::vector<int>& dims, uint32_t seed, const std::string& what) {
  std::mt19937 rng(seed);
  std::vector<std::vector<HostArray>> examples(p.invars.size());
  std::vector<HostArray> batched_inputs;
  for (size_t i = 0; i < p.invars.size(); ++i) {
    const Aval& a = p.avals[p.invars[i]];
    if (dims[i] == kNotBatched) {
      examples[i].assign(kBatch, random_array(a, rng));
      batched_inputs.push_back(examples[i][0]);
    } else {
      for (int64_t k = 0; k < kBatch; ++k) examples[i].push_back(random_array(a, rng));
      batched_inputs.push_back(stack(examples[i], dims[i]));
    }
  }
  std::vector<std::vector<HostArray>> per_output(p.outvars.size());
  for (int64_t k = 0; k < kBatch; ++k) {
    std::vector<HostArray> ins;
    for (auto& e : examples) ins.push_back(e[k]);
    const auto outs = exec::interpret(p, ins);
    for (size_t j = 0; j < outs.size(); ++j) per_output[j].push_back(outs[j]);
  }
  const Program bp = batched_program(p, dims);
  const auto got = exec::interpret(bp, batched_inputs);
  ASSERT_EQ(got.size(), p.outvars.size()) << what;
  for (size_t j = 0; j < got.size(); ++j) {
    const HostArray want = stack(per_output[j], 0);
    EXPECT_EQ(got[j].aval.shape, want.aval.shape) << what << " output " << j;
    ASSERT_EQ(got[j].words.size(), want.words.size()) << what << " output " << j;
    for (size_t e = 0; e < want.words.size(); ++e)
      EXPECT_TRUE(same_value(got[j].aval.dtype, got[j].words[e], want.words[e]))
          << what << " output " << j << " element " << e << "\n" << to_text(bp);
  }
}

TEST(Batching, EveryPrimitiveBatchedEqualsALoopOverTheBatch) {
  for (size_t n = 0; n < kNumPrims; ++n) {
    const Prim prim = static_cast<Prim>(n);
    const Sample s = primitive(prim).sample();
    if (s.operands.empty()) continue;  // nothing to batch (iota, axis_index)
    const Program p = sample_program(prim, s);
    const std::string name = primitive(prim).name;
    const size_t k = p.invars.size();
    // Every input batched first, every input batched last, and each input alone batched.
    std::vector<int> first(k, 0), last;
    for (size_t i = 0; i < k; ++i) last.push_back(p.avals[p.invars[i]].ndim());
    check_batching(p, first, 1, name + " (all batched along dimension 0)");
    check_batching(p, last, 2, name + " (all batched along their last dimension)");
    for (size_t i = 0; k > 1 && i < k; ++i) {
      std::vector<int> one(k, kNotBatched);
      one[i] = 0;
      check_batching(p, one, 3 + static_cast<uint32_t>(i), name + " (only input " + std::to_string(i) + " batched)");
    }
  }
}

TEST(Batching, EverySampleIsAValidEquation) {
  for (size_t n = 0; n < kNumPrims; ++n) {
    const Prim prim = static_cast<Prim>(n);
    const Sample s = primitive(prim).sample();
    if (in_body(prim, s) || prim == Prim::kShardMap) continue;
    Builder b;
    std::vector<Atom> xs;
    for (const Aval& a : s.operands) xs.push_back(b.input(a));
    EXPECT_NO_THROW(b.emit(prim, s.params, xs)) << primitive(prim).name;
  }
}

// vmap(f, in_axes=(0, None))(x, w) for f(x, w) = tanh(x @ w) + 1.
TEST(Vmap, InAxesNoneAndTheProgramAsJaxPrintsIt) {
  Builder b;
  const Atom x = b.input(f32({5, 3}));
  const Atom w = b.input(f32({3, 4}));
  const auto out = vmap_at(
      b, [](Builder& bb, const std::vector<Atom>& a) { return std::vector<Atom>{add(bb, unary(bb, Prim::kTanh, matmul(bb, a[0], a[1])), f32_scalar(1.0))}; },
      {x, w}, {0, std::nullopt}, {0});
  const Program p = b.build(out);
  EXPECT_EQ(to_text(p),
            "{ lambda ; a:f32[5,3] b:f32[3,4]. let\n"
            "    c:f32[5,4] = dot_general[\n"
            "      dimension_numbers=(([1], [0]), ([], []))\n"
            "      preferred_element_type=float32\n"
            "    ] a b\n"
            "    d:f32[5,4] = tanh c\n"
            "    e:f32[5,4] = add d 1.0:f32[]\n"
            "  in (e,) }");
  const auto xs = testing::random_floats(15, 1);
  const auto ws = testing::random_floats(12, 2);
  const auto got = exec::as_floats(exec::interpret(p, {exec::host_f32({5, 3}, xs), exec::host_f32({3, 4}, ws)})[0]);
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 4; ++c) {
      double acc = 0;
      for (int k = 0; k < 3; ++k) acc += double(xs[r * 3 + k]) * ws[k * 4 + c];
      EXPECT_NEAR(got[r * 4 + c], std::tanh(acc) + 1.0, 1e-6);
    }
}

TEST(Vmap, NegativeAxesOutAxesAndAxisSize) {
  Builder b;
  const Atom x = b.input(f32({2, 3}));
  // Mapped along its last axis (3 examples of f32[2]); the output's batch dimension last.
  const auto out = vmap_at(
      b, [](Builder& bb, const std::vector<Atom>& a) { return std::vector<Atom>{reduce_sum(bb, a[0], {0}), a[0]}; },
      {x}, {-1}, {-1, 0});
  EXPECT_EQ(out[0].aval.str(), "f32[3]");
  EXPECT_EQ(out[1].aval.str(), "f32[3,2]");
  // Nothing mapped: axis_size gives the batch, and a result the same for every example is repeated.
  Builder c;
  const Atom y = c.input(f32({2}));
  const auto rep = vmap_at(
      c, [](Builder&, const std::vector<Atom>& a) { return a; }, {y}, {std::nullopt}, {1}, 4);
  EXPECT_EQ(rep[0].aval.str(), "f32[2,4]");
}

TEST(Vmap, ErrorsAsJaxWordsThem) {
  auto id = [](Builder&, const std::vector<Atom>& a) { return a; };
  Builder b;
  const Atom x = b.input(f32({3, 2}));
  const Atom y = b.input(f32({4}));
  EXPECT_EQ(testing::error_message([&] { vmap_at(b, id, {x, y}, {0, 0}, {0, 0}); }),
            "vmap got inconsistent sizes for array axes to be mapped:\n"
            "  * one axis had size 3: axis 0 of argument 0 of type f32[3,2];\n"
            "  * one axis had size 4: axis 0 of argument 1 of type f32[4];");
  EXPECT_EQ(testing::error_message([&] { vmap_at(b, id, {y}, {1}, {0}); }),
            "vmap was requested to map its argument along axis 1, which implies that its rank should be at least 2, "
            "but is only 1 (its shape is (4,))");
  EXPECT_NE(testing::error_message([&] { vmap_at(b, id, {y}, {std::nullopt}, {0}); })
                .find("vmap must have at least one non-None value in in_axes"),
            std::string::npos);
  EXPECT_NE(testing::error_message([&] { vmap_at(b, id, {y}, {0}, {std::nullopt}); })
                .find("at vmap out_axes (output 0), got axis spec None but output was batched on axis 0"),
            std::string::npos);
}

// vmap(grad(f)) gives per-example gradients: f(w, x) = sum((x . w)^2) per example x.
TEST(Vmap, OfGradGivesPerExampleGradients) {
  Builder b;
  const Atom w = b.input(f32({3}));
  const Atom xs = b.input(f32({4, 3}));
  const auto out = vmap_at(
      b,
      [](Builder& bb, const std::vector<Atom>& a) {
        return grad_at(
                   bb,
                   [](Builder& g, const std::vector<Atom>& v) {
                     const Atom z = reduce_sum(g, mul(g, v[0], v[1]), {0});
                     return std::vector<Atom>{mul(g, z, z)};
                   },
                   {a[0], a[1]})
            .derivs;
      },
      {w, xs}, {std::nullopt, 0}, {0, 0});
  const Program p = b.build(out);
  const auto wv = testing::random_floats(3, 3);
  const auto xv = testing::random_floats(12, 4);
  const auto r = exec::interpret(p, {exec::host_f32({3}, wv), exec::host_f32({4, 3}, xv)});
  const auto gw = exec::as_floats(r[0]);
  ASSERT_EQ(r[0].aval.shape, (Shape{4, 3}));
  for (int e = 0; e < 4; ++e) {
    double z = 0;
    for (int k = 0; k < 3; ++k) z += double(wv[k]) * xv[e * 3 + k];
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(gw[e * 3 + k], 2 * z * xv[e * 3 + k], 1e-5) << e << "," << k;
  }
}

// A shard_map body calling a vmapped function, and vmap of a function holding a shard_map with a psum.
TEST(Vmap, InsideAndAroundShardMap) {
  auto mesh = testing::make_mesh({8}, {"i"});
  const auto xv = testing::random_floats(8 * 2 * 3, 5);
  // Inside: each device's block f32[2, 3] (rows of x split over 'i'), the row sums vmapped over its 2 rows, then psum.
  {
    Builder b;
    const Atom x = b.input(f32({16, 3}));
    const auto out = shard_map(b, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{}}, true, {x},
                               [](Builder& bb, const std::vector<Atom>& blocks) {
                                 const auto rows = vmap_at(
                                     bb, [](Builder& v, const std::vector<Atom>& a) { return std::vector<Atom>{reduce_sum(v, a[0], {0})}; },
                                     {blocks[0]}, {0}, {0});
                                 return std::vector<Atom>{psum(bb, rows[0], {"i"})};
                               });
    const auto got = exec::as_floats(run_both(b.build(out), mesh, {exec::host_f32({16, 3}, xv)})[0]);
    for (int r = 0; r < 2; ++r) {
      double want = 0;
      for (int d = 0; d < 8; ++d)
        for (int c = 0; c < 3; ++c) want += xv[(d * 2 + r) * 3 + c];
      EXPECT_NEAR(got[r], want, 1e-5);
    }
  }
  // Around: vmap over 2 examples of f32[8, 3], each summed over devices by a shard_map's psum.
  {
    Builder b;
    const Atom x = b.input(f32({2, 8, 3}));
    const auto out = vmap_at(
        b,
        [&](Builder& bb, const std::vector<Atom>& a) {
          return shard_map(bb, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{}}, true, {a[0]},
                           [](Builder& s, const std::vector<Atom>& blocks) {
                             return std::vector<Atom>{psum(s, blocks[0], {"i"})};
                           });
        },
        {x}, {0}, {0});
    const Program p = b.build(out);
    const auto got = exec::as_floats(run_both(p, mesh, {exec::host_f32({2, 8, 3}, xv)})[0]);
    ASSERT_EQ(got.size(), 6u);
    for (int e = 0; e < 2; ++e)
      for (int c = 0; c < 3; ++c) {
        double want = 0;
        for (int d = 0; d < 8; ++d) want += xv[(e * 8 + d) * 3 + c];
        EXPECT_NEAR(got[e * 3 + c], want, 1e-5);
      }
  }
}

}  // namespace
}  // namespace shardlab::ir

namespace shardlab::ir {
namespace {

// vmap(f, axis_name='b') of x: f32[4, 3], f's collectives over 'b' meeting the 4 examples as devices.
Program named_vmap(const std::function<std::vector<Atom>(Builder&, const std::vector<Atom>&)>& f, const Shape& shape = {4, 3}) {
  Builder b;
  const Atom x = b.input(f32(shape));
  std::vector<MapAxis> out_axes(1, 0);
  return b.build(vmap_at(b, f, {x}, {0}, out_axes, std::nullopt, std::string("b")));
}

std::vector<float> run_named(const Program& p, const std::vector<float>& xs, const Shape& shape = {4, 3}) {
  return exec::as_floats(exec::interpret(p, {exec::host_f32(shape, xs)})[0]);
}

// psum, pmax, pmin and pmean over the vmap's axis reduce the batch (float64
// references: column sums, maxima); the result is the same for every example.
TEST(VmapAxisName, ReductionsOverTheBatch) {
  const auto xs = testing::random_floats(12, 7);
  const Program sum = named_vmap([](Builder& bb, const std::vector<Atom>& a) { return std::vector<Atom>{psum(bb, a[0], {"b"})}; });
  EXPECT_EQ(to_text(sum),
            "{ lambda ; a:f32[4,3]. let\n"
            "    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a\n"
            "    c:f32[4,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b\n"
            "  in (c,) }");
  const auto got = run_named(sum, xs);
  for (int c = 0; c < 3; ++c) {
    double want = 0;
    for (int r = 0; r < 4; ++r) want += xs[r * 3 + c];
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(got[r * 3 + c], want, 1e-6);
  }
  const auto maxes = run_named(named_vmap([](Builder& bb, const std::vector<Atom>& a) { return std::vector<Atom>{pmax(bb, a[0], {"b"})}; }), xs);
  const auto means = run_named(named_vmap([](Builder& bb, const std::vector<Atom>& a) { return std::vector<Atom>{pmean(bb, a[0], {"b"})}; }), xs);
  for (int c = 0; c < 3; ++c) {
    float m = xs[c];
    double s = 0;
    for (int r = 0; r < 4; ++r) m = std::max(m, xs[r * 3 + c]), s += xs[r * 3 + c];
    EXPECT_EQ(maxes[c], m);
    EXPECT_NEAR(means[2 * 3 + c], s / 4, 1e-6);
  }
  // A value the same for every example (a literal here) sums to 4 times itself.
  const auto fours = run_named(named_vmap([](Builder& bb, const std::vector<Atom>&) {
    return std::vector<Atom>{psum(bb, broadcast_in_dim(bb, f32_scalar(1.5), {3}, {}), {"b"})};
  }), xs);
  EXPECT_EQ(fours, std::vector<float>(12, 6.0f));
}

// axis_index is each example's position; all_gather gives every example the
// whole batch; ppermute moves examples, zeros where none arrives.
TEST(VmapAxisName, IndexGatherAndPermute) {
  const auto xs = testing::random_floats(12, 8);
  Builder b;
  const Atom x = b.input(f32({4, 3}));
  const auto idx = vmap_at(b, [](Builder& bb, const std::vector<Atom>&) { return std::vector<Atom>{axis_index(bb, {"b"})}; },
                           {x}, {0}, {0}, std::nullopt, std::string("b"));
  EXPECT_EQ(exec::as_ints(exec::interpret(b.build(idx), {exec::host_f32({4, 3}, xs)})[0]), (std::vector<int32_t>{0, 1, 2, 3}));
  const auto gathered = run_named(named_vmap([](Builder& bb, const std::vector<Atom>& a) { return std::vector<Atom>{all_gather(bb, a[0], {"b"}, 0, false)}; }), xs);
  ASSERT_EQ(gathered.size(), 48u);
  for (int e = 0; e < 4; ++e)
    for (int k = 0; k < 12; ++k) EXPECT_EQ(gathered[e * 12 + k], xs[k]);
  const auto shifted = run_named(named_vmap([](Builder& bb, const std::vector<Atom>& a) {
    return std::vector<Atom>{ppermute(bb, a[0], {"b"}, {{0, 1}, {1, 2}, {2, 3}})};
  }), xs);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(shifted[c], 0.0f);
  for (int k = 3; k < 12; ++k) EXPECT_EQ(shifted[k], xs[k - 3]);
}

// Nested vmaps name their own axes: a psum over both sums everything; in a
// shard_map body a psum over the vmap's axis and a mesh axis sums the batch
// across the devices.
TEST(VmapAxisName, NestedAndInsideShardMap) {
  const auto xs = testing::random_floats(12, 9);
  double total = 0;
  for (float v : xs) total += v;
  Builder b;
  const Atom x = b.input(f32({4, 3}));
  const auto out = vmap_at(
      b,
      [](Builder& outer, const std::vector<Atom>& a) {
        return vmap_at(outer, [](Builder& inner, const std::vector<Atom>& v) { return std::vector<Atom>{psum(inner, v[0], {"a", "b"})}; },
                       a, {0}, {0}, std::nullopt, std::string("b"));
      },
      {x}, {0}, {0}, std::nullopt, std::string("a"));
  for (float v : exec::as_floats(exec::interpret(b.build(out), {exec::host_f32({4, 3}, xs)})[0])) EXPECT_NEAR(v, total, 1e-5);

  auto mesh = testing::make_mesh({8}, {"i"});
  const auto ys = testing::random_floats(8 * 2, 10);
  Builder c;
  const Atom y = c.input(f32({16}));
  const auto sums = shard_map(c, mesh, {PartitionSpec{{{"i"}}}}, {PartitionSpec{}}, true, {y},
                              [](Builder& bb, const std::vector<Atom>& blocks) {
                                return vmap_at(bb, [](Builder& v, const std::vector<Atom>& a) { return std::vector<Atom>{psum(v, a[0], {"b", "i"})}; },
                                               blocks, {0}, {0}, std::nullopt, std::string("b"));
                              });
  double all = 0;
  for (float v : ys) all += v;
  for (float v : exec::as_floats(run_both(c.build(sums), mesh, {exec::host_f32({16}, ys)})[0])) EXPECT_NEAR(v, all, 1e-5);
}

TEST(VmapAxisName, ErrorsNameWhatIsNotSupported) {
  Builder b;
  const Atom x = b.input(f32({4, 8}));
  EXPECT_EQ(testing::error_message([&] {
              vmap_at(b, [](Builder& bb, const std::vector<Atom>& a) { return std::vector<Atom>{psum_scatter(bb, a[0], {"b"}, 0, true)}; },
                      {x}, {0}, {0}, std::nullopt, std::string("b"));
            }),
            "psum_scatter over jax.vmap's axis_name 'b' is not supported by ShardLab (psum, pmax, pmin, pmean, all_gather, "
            "ppermute and axis_index are); run it over a shard_map's mesh axis");
  // Outside the vmap the name is unbound again.
  EXPECT_NE(testing::error_message([&] { psum(b, x, {"b"}); }).find("Found an unbound axis name: b"), std::string::npos);
}

}  // namespace
}  // namespace shardlab::ir
