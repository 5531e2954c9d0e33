// Partitioning (ir/transforms/partition.h): a program typed with shardings
// over Explicit mesh axes runs as one shard_map whose body computes each
// device's blocks. Every primitive's partition rule against the whole
// computation (the same equation on unsharded values) on random inputs and
// random shardings drawn from the mesh's axes; the scaling book's matmul
// cases ("How to Scale Your Model", part 3) with the collectives each needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>

#include "ir/primitives/sharding_ops.h"
#include "ir/transforms/partition.h"
#include "ir/tracing/control_flow.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "runtime/errors.h"
#include "runtime/mesh.h"

namespace shardlab::ir {
namespace {

using exec::HostArray;
using Axes = std::vector<std::string>;

const std::vector<MeshAxis> kAxes = {{"X", 2}, {"Y", 2}};
const std::shared_ptr<const Mesh> kMesh = std::make_shared<const Mesh>(std::vector<int>{2, 2}, std::vector<std::string>{"X", "Y"});

Sharding sharding(std::vector<Axes> dims, Axes unreduced = {}) { return Sharding{kAxes, std::move(dims), std::move(unreduced), {}}.for_type(); }

// An out_sharding parameter: it keeps its mesh even when it names no axis (P(), not None).
Sharding given(std::vector<Axes> dims, Axes unreduced = {}) { return Sharding{kAxes, std::move(dims), std::move(unreduced), {}}.normalized(); }

Aval typed(Shape shape, std::vector<Axes> dims) {
  Aval a = f32(std::move(shape));
  a.sharding = sharding(std::move(dims));
  return a;
}

// A random sharding of `shape` over X:2, Y:2: each dimension unsplit or split
// over axes not used yet whose sizes divide it.
Sharding random_sharding(const Shape& shape, std::mt19937& rng) {
  const std::vector<Axes> choices = {{}, {"X"}, {"Y"}, {"X", "Y"}, {"Y", "X"}};
  std::vector<Axes> dims(shape.size());
  Axes used;
  for (size_t d = 0; d < shape.size(); ++d) {
    const Axes& c = choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng)];
    bool ok = shape[d] % (int64_t{1} << c.size()) == 0;
    for (const std::string& a : c) ok = ok && std::find(used.begin(), used.end(), a) == used.end();
    if (!ok) continue;
    dims[d] = c;
    used.insert(used.end(), c.begin(), c.end());
  }
  return sharding(dims);
}

PartitionSpec spec_of(const Aval& a) {
  PartitionSpec s;
  for (size_t d = 0; d < a.shape.size(); ++d) s.entries.push_back(a.sharding.dim(d));
  return s;
}

// The collectives of partitioned program p's body, by name, in order.
std::vector<std::string> collectives(const Program& typed_program) {
  const ProgramRef p = partition(std::make_shared<const Program>(typed_program));
  std::vector<std::string> names;
  EXPECT_EQ(p->eqns.size(), 1u);
  if (p->eqns.empty() || p->eqns[0].prim != Prim::kShardMap) return names;
  for (const Eqn& e : param<ProgramRef>(p->eqns[0].params, "jaxpr", "shard_map")->eqns)
    if (primitive(e.prim).collective) names.push_back(primitive(e.prim).name);
  return names;
}

// Whether partitioned float `a` matches whole `b`: within 2 ulps, or 1e-5
// relative to the larger magnitude (at least 1): a sum over a sharded
// dimension adds its blocks' partial sums, and a product of narrower blocks
// may take another kernel path, so the order of additions differs (inputs
// are in [-2, 2), sums of at most 48 terms).
bool close(DType dtype, uint32_t a, uint32_t b) {
  if (same_value(dtype, a, b) || dtype != DType::kFloat32) return same_value(dtype, a, b);
  float x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return std::fabs(x - y) <= 1e-5f * std::max({1.0f, std::fabs(x), std::fabs(y)});
}

// The typed program's outputs, partitioned and run on both executors (each
// input laid out as its type says), against the same program computed whole
// (its inputs unsharded).
void check_against_whole(const Program& typed_program, const Program& whole, uint32_t seed, const std::string& what) {
  std::mt19937 rng(seed);
  std::vector<HostArray> inputs;
  std::vector<PartitionSpec> specs;
  for (VarId v : typed_program.invars) {
    inputs.push_back(random_array(typed_program.avals[v], rng));
    specs.push_back(spec_of(typed_program.avals[v]));
  }
  const auto want = exec::interpret(whole, inputs);
  const auto got = run_both(typed_program, kMesh, inputs, specs);
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t j = 0; j < got.size(); ++j) {
    ASSERT_EQ(got[j].words.size(), want[j].words.size()) << what << " output " << j;
    for (size_t k = 0; k < want[j].words.size(); ++k)
      ASSERT_TRUE(close(want[j].aval.dtype, got[j].words[k], want[j].words[k])) << what << " output " << j << " element " << k;
  }
}

std::string shardings_text(const std::vector<Aval>& avals) {
  std::string t;
  for (const Aval& a : avals) t += (t.empty() ? "" : ", ") + a.str();
  return t;
}

// Every primitive on its sample, its operands sharded at random (an operand
// shaped as operand 0 sharded alike or not at all, so broadcasting ones
// meet): wherever its sharding rule types the result, the partitioned
// program computes what the whole one does.
TEST(Partition, EveryPrimitiveEqualsTheWholeComputation) {
  std::mt19937 rng(7);
  int partitioned = 0;
  for (size_t n = 0; n < kNumPrims; ++n) {
    const Prim prim = static_cast<Prim>(n);
    const PrimitiveDef& def = primitive(prim);
    const Sample s = def.sample();
    // (A call's or control flow's sample holds programs traced on unsharded
    // operands; traced ones have their operands' types: the tests below and
    // JS's partition those.)
    const bool holds_programs = std::any_of(s.params.begin(), s.params.end(), [](const Param& q) {
      return std::holds_alternative<ProgramRef>(q.value) || std::holds_alternative<Programs>(q.value);
    });
    if (in_body(prim, s) || holds_programs || def.effect || prim == Prim::kReshard) continue;
    const Program whole = sample_program(prim, s);
    for (int draw = 0; draw < 12; ++draw) {
      Sample t = s;
      bool any = false;
      for (size_t i = 0; i < t.operands.size(); ++i) {
        Aval& a = t.operands[i];
        if (a.shape.empty()) continue;
        a.sharding = i > 0 && a.shape == t.operands[0].shape && rng() % 2 ? t.operands[0].sharding
                     : i > 0 && a.shape == t.operands[0].shape          ? Sharding{}
                                                                        : random_sharding(a.shape, rng);
        any = any || !a.sharding.empty();
      }
      if (!any) continue;
      Program p;
      try {
        p = sample_program(prim, t);
      } catch (const Error& e) {
        ASSERT_TRUE(e.kind() == ErrorKind::kShardingType || e.kind() == ErrorKind::kSharding) << def.name << ": " << e.what();
        continue;  // the rule refuses these shardings (JAX's error)
      }
      check_against_whole(p, whole, 100 + static_cast<uint32_t>(draw), std::string(def.name) + " on " + shardings_text(t.operands));
      ++partitioned;
    }
  }
  EXPECT_GT(partitioned, 200);
}

// The unsharded product of f32[8,4] and f32[4,6] the matmul cases compute.
Program whole_matmul() {
  Builder w;
  const Atom a = w.input(f32({8, 4}));
  const Atom b = w.input(f32({4, 6}));
  return w.build({matmul(w, a, b)});
}

// Case 1: A[I@X, J] · B[J, K@Y] is C[I@X, K@Y]: each device multiplies its blocks, no communication.
TEST(Partition, MatmulOfUnshardedContractionMovesNothing) {
  Builder b;
  const Atom x = b.input(typed({8, 4}, {{"X"}, {}}));
  const Atom y = b.input(typed({4, 6}, {{}, {"Y"}}));
  const Atom z = matmul(b, x, y);
  EXPECT_EQ(z.aval.str(), "f32[8@X,6@Y]");
  const Program p = b.build({z});
  EXPECT_EQ(collectives(p), Axes{});
  const Program whole = whole_matmul();
  check_against_whole(p, whole, 1, "case 1");
}

// Case 2: A[I, J@X] · B[J@X, K]: partial sums over X, then as out_sharding
// says: summed everywhere (psum, an all-reduce), reduce-scattered onto the
// dimension it splits over X, or left unreduced (and summed by a later reshard).
TEST(Partition, MatmulOfShardedContractionReducesThePartialSums) {
  const Program whole = whole_matmul();
  const IntLists mm{{1}, {0}, {}, {}};
  struct Case {
    Sharding out;
    std::vector<std::string> moves;
  };
  // (P('Y', None): the Y split is a slice of A's rows, then the psum over X.)
  for (const Case& c : {Case{given({}), {"psum"}}, Case{given({{"X"}, {}}), {"reduce_scatter"}},
                        Case{given({{}, {"X"}}), {"reduce_scatter"}}, Case{given({{"Y"}, {}}), {"psum"}}}) {
    Builder b;
    const Atom x = b.input(typed({8, 4}, {{}, {"X"}}));
    const Atom y = b.input(typed({4, 6}, {{"X"}, {}}));
    const Atom z = dot_general(b, x, y, mm, c.out);
    const Program p = b.build({z});
    EXPECT_EQ(collectives(p), c.moves) << z.aval.str();
    check_against_whole(p, whole, 2, "case 2 " + z.aval.str());
  }
  // Left unreduced (301): no traffic at the product; the reshard that reduces it is a psum.
  Builder b;
  const Atom x = b.input(typed({8, 4}, {{}, {"X"}}));
  const Atom y = b.input(typed({4, 6}, {{"X"}, {}}));
  const Atom z = dot_general(b, x, y, mm, given({}, {"X"}));
  EXPECT_EQ(z.aval.str(), "f32[8,6]{U:X}");
  const Atom r = reshard(b, z, given({}));
  const Program p = b.build({r});
  EXPECT_EQ(collectives(p), (Axes{"psum"}));
  check_against_whole(p, whole, 3, "case 2 unreduced");
}

// Case 3: A[I@X, J] · B[J, K@X] would name X twice (JAX's error); with
// out_sharding P('X', None) the product needs B whole: one all_gather.
TEST(Partition, MatmulOfOneAxisOnBothFreeDimensionsGathersAnOperand) {
  Builder b;
  const Atom x = b.input(typed({8, 4}, {{"X"}, {}}));
  const Atom y = b.input(typed({4, 6}, {{}, {"X"}}));
  EXPECT_THROW(matmul(b, x, y), Error);
  const Atom z = dot_general(b, x, y, {{1}, {0}, {}, {}}, given({{"X"}, {}}));
  const Program p = b.build({z});
  EXPECT_EQ(collectives(p), (Axes{"all_gather"}));
  const Program whole = whole_matmul();
  check_against_whole(p, whole, 4, "case 3");
}

// jax.reshard between shardings: an axis moving between dimensions is one
// all_to_all; an axis dropped is gathered; an axis added is a slice (no traffic).
TEST(Partition, ReshardMovesBlocksWithTheFewestCollectives) {
  struct Case {
    std::vector<Axes> from, to;
    std::vector<std::string> moves;
  };
  for (const Case& c : {Case{{{"X"}, {}}, {{}, {"X"}}, {"all_to_all"}}, Case{{{"X"}, {"Y"}}, {{}, {"Y"}}, {"all_gather"}},
                        Case{{{}, {}}, {{"X", "Y"}, {}}, {}}, Case{{{"X"}, {}}, {{"X", "Y"}, {}}, {}},
                        Case{{{"X", "Y"}, {}}, {{"Y"}, {"X"}}, {"all_gather"}}}) {
    Builder b;
    const Atom x = b.input(typed({8, 4}, c.from));
    const Atom y = reshard(b, x, sharding(c.to));
    const Program p = b.build({y});
    EXPECT_EQ(collectives(p), c.moves) << x.aval.str() << " to " << y.aval.str();
    Builder w;
    const Atom wx = w.input(f32({8, 4}));
    check_against_whole(p, w.build({wx}), 5, x.aval.str() + " to " + y.aval.str());
  }
}

// A reduction over a sharded dimension: each device reduces its block, then
// one psum (pmax, pmin) over the axes; an MLP-like program keeps its shapes.
TEST(Partition, ReductionsCombineAcrossTheDevices) {
  Builder b;
  const Atom x = b.input(typed({8, 4}, {{"X"}, {"Y"}}));
  const Atom s = reduce_sum(b, x, {0});
  const Atom m = reduce_max(b, x, {0, 1});
  EXPECT_EQ(s.aval.str(), "f32[4@Y]");
  const Program p = b.build({s, m});
  EXPECT_EQ(collectives(p), (Axes{"psum", "pmax"}));
  Builder w;
  const Atom wx = w.input(f32({8, 4}));
  check_against_whole(p, w.build({reduce_sum(w, wx, {0}), reduce_max(w, wx, {0, 1})}), 6, "reductions");
}

// A while over sharded values: each device loops over its blocks (the
// cond and body partitioned as programs of blocks); values as computed whole.
TEST(Partition, AWhileLoopsOverEachDevicesBlocks) {
  auto loop = [](Builder& b, const Atom& x) {
    WhileTrace w(b, {x, Atom::constant(0, DType::kInt32)});
    Builder& c = w.begin_cond();
    w.end_cond(compare(c, Prim::kLt, w.inputs()[1], Atom::constant(3, DType::kInt32)));
    Builder& body = w.begin_body();
    const Atom total = reduce_sum(body, w.inputs()[0], {0});  // a psum on each trip
    const Atom next = add(body, mul(body, w.inputs()[0], Atom::constant(0.5, DType::kFloat32, true)),
                          broadcast_in_dim(body, total, {8, 4}, {1}));
    return w.finish({next, add(body, w.inputs()[1], Atom::constant(1, DType::kInt32))})[0];
  };
  Builder b;
  const Program p = b.build({loop(b, b.input(typed({8, 4}, {{"X"}, {}})))});
  const ProgramRef run = partition(std::make_shared<const Program>(p));
  ASSERT_EQ(run->eqns.size(), 1u);
  EXPECT_EQ(run->eqns[0].prim, Prim::kShardMap);
  Builder w;
  const Program whole = w.build({loop(w, w.input(f32({8, 4})))});
  check_against_whole(p, whole, 7, "while");
}

// A scan over xs split along the scanned dimension is not partitioned: the
// program is computed whole (its types unsharded), with the same values.
TEST(Partition, AScanOverASplitScannedDimensionIsComputedWhole) {
  auto cumulative = [](Builder& b, const Atom& xs) {
    ScanTrace s(b, {Atom::constant(0, DType::kFloat32)}, {xs}, 8, false);
    Builder& body = s.builder();
    const Atom c = add(body, s.inputs()[0], reduce_sum(body, s.inputs()[1], {0}));
    return s.finish({c, c})[1];
  };
  Builder b;
  const Program p = b.build({cumulative(b, b.input(typed({8, 4}, {{"X"}, {}})))});
  const ProgramRef run = partition(std::make_shared<const Program>(p));
  ASSERT_EQ(run->eqns.size(), 1u);
  EXPECT_EQ(run->eqns[0].prim, Prim::kScan);
  for (const Aval& a : run->avals) EXPECT_TRUE(a.sharding.empty()) << a.str();
  Builder w;
  const Program whole = w.build({cumulative(w, w.input(f32({8, 4})))});
  check_against_whole(p, whole, 8, "scan");
}

}  // namespace
}  // namespace shardlab::ir
