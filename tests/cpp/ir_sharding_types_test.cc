// Sharding in types: a type's sharding prints as JAX 0.11 prints it, survives
// the program JSON, and every primitive's sharding rule gives its results'
// shardings as JAX's rules do (the cases and messages of JAX's "Distributed
// arrays and automatic parallelization" page, docs/new_docs/201/sharding.md at
// jax-v0.11.0, and of jax/_src/lax/lax.py's *_sharding_rule functions).
#include <gtest/gtest.h>

#include "ir/forms/json.h"
#include "ir/forms/json_read.h"
#include "ir/primitives/sharding_ops.h"
#include "ir/transforms/lower.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"
#include "runtime/errors.h"

namespace shardlab::ir {
namespace {

const std::vector<MeshAxis> kMeshXY = {{"X", 4}, {"Y", 2}};

// A float32 value of `shape` whose dimension d is split over dims[d] of the mesh X:4, Y:2.
Aval sharded(Shape shape, std::vector<std::vector<std::string>> dims, std::vector<std::string> unreduced = {}) {
  Aval a = f32(std::move(shape));
  a.sharding.mesh = kMeshXY;
  a.sharding.dims = std::move(dims);
  a.sharding.unreduced = std::move(unreduced);
  a.sharding = a.sharding.for_type();
  return a;
}

// The message of the ShardingTypeError `f` throws (a failure if it throws none).
template <class F>
std::string sharding_error(F f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kShardingType) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no ShardingError";
  return "";
}

TEST(ShardingTypes, PrintAsJax) {
  EXPECT_EQ(sharded({8, 4}, {{"X"}, {"Y"}}).str(), "f32[8@X,4@Y]");
  EXPECT_EQ(sharded({8, 4}, {{"X", "Y"}, {}}).str(), "f32[8@(X,Y),4]");
  EXPECT_EQ(sharded({8, 4}, {{}, {}}).str(), "f32[8,4]");  // replicated: no sharding at all
  EXPECT_TRUE(sharded({8, 4}, {{}, {}}).sharding.empty());
  EXPECT_EQ(sharded({8, 16}, {{}, {}}, {"X"}).str(), "f32[8,16]{U:X}");
  Aval both = sharded({8}, {{"X"}}, {"Y"});
  both.vma = {"i"};
  EXPECT_EQ(both.str(), "f32[8@X]{V:i, U:Y}");
  EXPECT_EQ(sharded({8, 4}, {{"X"}, {}}, {"Y"}).sharding.spec_text(2), "P('X', None, unreduced={'Y'})");
}

TEST(ShardingTypes, UnaryAndTransposeFollowTheOperand) {
  // 201: y = jnp.sin(x).T of x: f32[8@X,4@Y] is f32[4@Y,8@X].
  Builder b;
  const Atom x = b.input(sharded({8, 4}, {{"X"}, {"Y"}}));
  EXPECT_EQ(transpose(b, unary(b, Prim::kSin, x), {1, 0}).aval.str(), "f32[4@Y,8@X]");
}

TEST(ShardingTypes, BroadcastingTakesEachDimensionsSharding) {
  // 201: arg0 f32[4@X,1] + arg1 f32[1,8@Y] (broadcast to [4,8]) is f32[4@X,8@Y].
  Builder b;
  const Atom x = b.input(sharded({4, 1}, {{"X"}, {}}));
  const Atom y = b.input(sharded({1, 8}, {{}, {"Y"}}));
  const Atom xb = b.emit1(Prim::kBroadcastInDim, {{"shape", std::vector<int64_t>{4, 8}}, {"broadcast_dimensions", std::vector<int64_t>{0, 1}}}, {x});
  EXPECT_EQ(xb.aval.str(), "f32[4@X,8]");  // a dimension of size 1 broadcast is unsharded
  const Atom yb = b.emit1(Prim::kBroadcastInDim, {{"shape", std::vector<int64_t>{4, 8}}, {"broadcast_dimensions", std::vector<int64_t>{0, 1}}}, {y});
  EXPECT_EQ(add(b, xb, yb).aval.str(), "f32[4@X,8@Y]");
  // A scalar operand takes no part.
  EXPECT_EQ(mul(b, xb, Atom::constant(2.0, DType::kFloat32)).aval.str(), "f32[4@X,8]");
}

TEST(ShardingTypes, ConflictingOrRepeatedAxesAreErrors) {
  Builder b;
  const Atom x = b.input(sharded({4, 4}, {{"X"}, {}}));
  const Atom y = b.input(sharded({4, 4}, {{}, {"X"}}));
  const Atom z = b.input(sharded({4, 4}, {{"Y"}, {}}));
  // 201: x P('X', None) + y P(None, 'X') names X twice.
  EXPECT_EQ(sharding_error([&] { add(b, x, y); }),
            "add operation with inputs: f32[4@X,4], f32[4,4@X] produces an illegally sharded result: f32[4@X,4@X]");
  EXPECT_EQ(sharding_error([&] { mul(b, x, z); }), "mul got incompatible shardings for broadcasting: ('X', None), ('Y', None).");
}

TEST(ShardingTypes, ReductionsDropTheirDimensions) {
  // 201: x.sum(0) of f32[8@X,4@Y] is f32[4@Y].
  Builder b;
  const Atom x = b.input(sharded({8, 4}, {{"X"}, {"Y"}}));
  EXPECT_EQ(reduce_sum(b, x, {0}).aval.str(), "f32[4@Y]");
  EXPECT_EQ(reduce_sum(b, x, {0, 1}).aval.str(), "f32[]");
}

TEST(ShardingTypes, DotGeneralFollowsJaxsCases) {
  Builder b;
  // 201: x f32[8,4@X] . y f32[4@X,16]: ambiguous, out_sharding decides.
  const Atom x = b.input(sharded({8, 4}, {{}, {"X"}}));
  const Atom y = b.input(sharded({4, 16}, {{"X"}, {}}));
  EXPECT_EQ(sharding_error([&] { matmul(b, x, y); }),
            "Contracting dimensions are sharded and it is ambiguous how the output should be sharded. Please specify "
            "the output sharding via the `out_sharding` parameter. Got lhs_contracting_spec=('X',) and "
            "rhs_contracting_spec=('X',)");
  // 201: x f32[8,4] . y f32[4@X,16] is f32[8,16] (the partitioner all-gathers y, as FSDP).
  EXPECT_EQ(matmul(b, b.input(f32({8, 4})), y).aval.str(), "f32[8,16]");
  // Free dimensions keep their axes: f32[8@X,4] . f32[4,16@Y] is f32[8@X,16@Y].
  const Atom xs = b.input(sharded({8, 4}, {{"X"}, {}}));
  EXPECT_EQ(matmul(b, xs, b.input(sharded({4, 16}, {{}, {"Y"}}))).aval.str(), "f32[8@X,16@Y]");
  // JAX's test_dot_general_error 'fail1' (tests/pjit_test.py:5109).
  EXPECT_EQ(sharding_error([&] { matmul(b, xs, b.input(sharded({4, 16}, {{}, {"X"}}))); }),
            "dot_general operation with inputs: f32[8@X,4], f32[4,16@X] produces an illegally sharded result: "
            "f32[8@X,16@X]");
  EXPECT_EQ(sharding_error([&] { matmul(b, b.input(sharded({8, 4}, {{}, {"Y"}})), y); }),
            "dot_general requires contracting dimensions to have consistent sharding, got ('Y',) and ('X',).");
  EXPECT_EQ(sharding_error([&] { matmul(b, b.input(sharded({8, 4}, {{}, {}}, {"Y"})), y); }).rfind(
                "lhs or rhs passed to dot_general cannot be unreduced.", 0),
            0u);
}

TEST(ShardingTypes, OutShardingSettlesAContraction) {
  // 201: jnp.dot(x, y, out_sharding=P('X', None)) of x f32[8,4@X], y f32[4@X,16] is f32[8@X,16].
  Builder b;
  const Atom x = b.input(sharded({8, 4}, {{}, {"X"}}));
  const Atom y = b.input(sharded({4, 16}, {{"X"}, {}}));
  const IntLists mm{{1}, {0}, {}, {}};
  EXPECT_EQ(dot_general(b, x, y, mm, Sharding{kMeshXY, {{"X"}, {}}, {}, {}}).aval.str(), "f32[8@X,16]");
  // 301: left unreduced over X (no communication), then summed by a reshard.
  const Atom u = dot_general(b, x, y, mm, Sharding{kMeshXY, {}, {"X"}, {}});
  EXPECT_EQ(u.aval.str(), "f32[8,16]{U:X}");
  EXPECT_EQ(reshard(b, u, Sharding{kMeshXY, {}, {}, {}}).aval.str(), "f32[8,16]");
  EXPECT_NE(sharding_error([&] { dot_general(b, x, y, mm, Sharding{kMeshXY, {}, {"Y"}, {}}); })
                .find("out_sharding's unreduced axes should be equal to the contracting specs"),
            std::string::npos);
}

TEST(ShardingTypes, ReshardRetypesAndItsCotangentReturns) {
  Builder b;
  const Atom x = b.input(sharded({8, 4}, {{"X"}, {}}));
  const Atom y = reshard(b, x, Sharding{kMeshXY, {{}, {"Y"}}, {}, {}});
  EXPECT_EQ(y.aval.str(), "f32[8,4@Y]");
  // The cotangent of reshard is resharded back to the primal's type (301).
  const Atom ct = b.input(sharded({8, 4}, {{}, {"Y"}}));
  const auto cts = primitive(Prim::kReshard).transpose(b, {{"dst_sharding", y.aval.sharding}}, {ct}, {x}, {true});
  EXPECT_EQ(cts[0]->aval.str(), "f32[8@X,4]");
  EXPECT_THROW(reshard(b, x, Sharding{}), Error);  // jax.reshard(x, None)
}

TEST(ShardingTypes, ACotangentIsTypedAsItsPrimal) {
  // x f32[8,4] . w f32[4@X,16] is f32[8,16]; x's cotangent ct . w^T would be
  // f32[8,4@X] by the rule, but is typed as x: f32[8,4] (301's rule).
  Builder b;
  const Atom x = b.input(f32({8, 4}));
  const Atom w = b.input(sharded({4, 16}, {{"X"}, {}}));
  const Atom ct = b.input(f32({8, 16}));
  const Params p = {{"dimension_numbers", IntLists{{1}, {0}, {}, {}}}, {"preferred_element_type", DType::kFloat32}, {"out_sharding", Sharding{}}};
  const auto cts = primitive(Prim::kDotGeneral).transpose(b, p, {ct}, {Atom{-1, 0.0, x.aval}, w}, {true, false});
  EXPECT_EQ(cts[0]->aval.str(), "f32[8,4]");
  const auto wct = primitive(Prim::kDotGeneral).transpose(b, p, {ct}, {x, Atom{-1, 0.0, w.aval}}, {false, true});
  EXPECT_EQ(wct[1]->aval.str(), "f32[4@X,16]");
}

TEST(ShardingTypes, LoweringKeepsTheTypes) {
  // The executors' form fuses transpose(dot_general(x, y)) into dot_general(y, x): typed as the transpose.
  Builder b;
  const Atom ct = b.input(f32({8, 8}));
  const Atom a = b.input(sharded({8, 2}, {{"X"}, {}}));
  const Atom e = dot_general(b, ct, a, {{0}, {0}, {}, {}}, Sharding{kMeshXY, {{"Y"}, {}}, {}, {}});
  const Program p = b.build({transpose(b, e, {1, 0})});
  ASSERT_EQ(p.outvars[0].aval.str(), "f32[2,8@Y]");
  const ProgramRef lowered = lower(std::make_shared<const Program>(p));
  EXPECT_EQ(lowered->eqns.size(), 1u);  // fused
  EXPECT_EQ(lowered->outvars[0].aval.str(), "f32[2,8@Y]");
}

TEST(ShardingTypes, ReshapeKeepsBlocksOrAsksForAnOutSharding) {
  Builder b;
  const Atom x = b.input(sharded({8, 4}, {{"X"}, {}}));
  // X's 4 blocks of 2 rows are no blocks of [2,4,4]'s dimensions: 2 does not divide over 4 devices.
  EXPECT_NE(sharding_error([&] { reshape(b, x, {2, 4, 4}); }).find("This reshape is not supported"), std::string::npos);
  EXPECT_EQ(reshape(b, x, {4, 2, 4}).aval.str(), "f32[4@X,2,4]");
  EXPECT_EQ(reshape(b, x, {32}).aval.str(), "f32[32@X]");
  EXPECT_EQ(reshape(b, x, {8, 1, 4}).aval.str(), "f32[8@X,1,4]");
  EXPECT_EQ(sharding_error([&] { reshape(b, b.input(sharded({8, 4}, {{}, {"X"}})), {32}); }),
            "This reshape is not supported. Please specify the sharding of the output via the `out_sharding` "
            "argument of jax.lax.reshape (or jax.reshard the operand). Got operand type: f32[8,4@X], new sizes: [32]");
}

TEST(ShardingTypes, UnreducedValuesOnlyAdd) {
  Builder b;
  const Atom u = b.input(sharded({8, 16}, {{}, {}}, {"X"}));
  EXPECT_EQ(add(b, u, u).aval.str(), "f32[8,16]{U:X}");
  EXPECT_EQ(reduce_sum(b, u, {0}).aval.str(), "f32[16]{U:X}");
  EXPECT_NE(sharding_error([&] { mul(b, u, u); }).find("jax.reshard it to a spec without unreduced axes"), std::string::npos);
  EXPECT_NE(sharding_error([&] { add(b, u, b.input(f32({8, 16}))); }).find("over the same mesh axes"), std::string::npos);
}

// 301: a reduced value is replicated for every primitive (elementwise
// results stay reduced, a contraction's result is not), operands must agree
// on it, and its cotangent is unreduced: a gradient through a reshard to
// reduced leaves its partial sums to the reshard's transpose.
TEST(ShardingTypes, ReducedValuesActReplicatedAndTheirCotangentsAreUnreduced) {
  Builder b;
  Aval w_type = f32({4, 2});
  w_type.sharding = Sharding{kMeshXY, {}, {}, {"X"}};
  const Atom w = b.input(w_type);
  EXPECT_EQ(w.aval.str(), "f32[4,2]{R:X}");
  EXPECT_EQ(unary(b, Prim::kSin, w).aval.str(), "f32[4,2]{R:X}");
  EXPECT_NE(sharding_error([&] { add(b, w, b.input(sharded({4, 2}, {{}, {}}, {}))); }).find("over the same mesh axes"), std::string::npos);
  EXPECT_NE(sharding_error([&] { mul(b, w, b.input(sharded({4, 2}, {{}, {}}, {}))); }).find("Inputs cannot be replicated on the same axes"), std::string::npos);
  EXPECT_EQ(mul(b, w, Atom::constant(2.0, DType::kFloat32, true)).aval.str(), "f32[4,2]{R:X}");
  const Atom x = b.input(sharded({8, 4}, {{"X"}, {}}));
  EXPECT_EQ(matmul(b, x, w).aval.str(), "f32[8@X,2]");
  EXPECT_EQ(Sharding(w_type.sharding).cotangent().unreduced, (std::vector<std::string>{"X"}));
}

TEST(ShardingTypes, ShardingsSurviveTheProgramJson) {
  Builder b;
  const Atom x = b.input(sharded({8, 4}, {{"X"}, {"Y"}}));
  const Program p = b.build({reduce_sum(b, unary(b, Prim::kSin, x), {0})});
  const Program q = program_from_json(to_json(p));
  EXPECT_EQ(q.avals[q.invars[0]].str(), "f32[8@X,4@Y]");
  EXPECT_EQ(q.outvars[0].aval.str(), "f32[4@Y]");
  EXPECT_EQ(to_json(q), to_json(p));
  // The reader checks what it is given: an axis named twice, one the mesh lacks, a dimension it does not divide.
  std::string json = to_json(p);
  const std::string good = "\"dims\":[[\"X\"],[\"Y\"]]";
  ASSERT_NE(json.find(good), std::string::npos);
  for (const char* bad : {"\"dims\":[[\"X\"],[\"X\"]]", "\"dims\":[[\"Z\"],[]]", "\"dims\":[[\"X\",\"Y\"],[],[]]"}) {
    std::string text = json;
    text.replace(text.find(good), good.size(), bad);
    EXPECT_THROW(program_from_json(text), Error) << bad;
  }
  std::string odd = json;
  odd.replace(odd.find("[\"X\",4,"), 7, "[\"X\",3,");
  EXPECT_THROW(program_from_json(odd), Error);  // 8 does not split over 3 devices
}

// Every primitive on its sample: unsharded operands give unsharded results,
// and operands sharded over X on their first dimension (where it divides)
// give results whose shardings fit them, or a ShardingError: never another
// failure.
TEST(ShardingTypes, EveryPrimitivesRuleRuns) {
  for (size_t n = 0; n < kNumPrims; ++n) {
    const Prim prim = static_cast<Prim>(n);
    const PrimitiveDef& def = primitive(prim);
    Sample s = def.sample();
    const Program plain = sample_program(prim, s);
    // (reshard's sample types its result by its parameter.)
    for (const Atom& o : plain.outvars) EXPECT_EQ(o.aval.sharding.empty(), prim != Prim::kReshard) << def.name;
    if (in_body(prim, s)) continue;  // values in a shard_map body are blocks, never sharded
    bool any = false;
    for (Aval& a : s.operands)
      if (!a.shape.empty() && a.shape[0] % 2 == 0) {
        a.sharding = Sharding{{{"X", 2}}, {{"X"}}, {}, {}};
        any = true;
      }
    if (!any) continue;
    try {
      const Program p = sample_program(prim, s);
      for (const Atom& o : p.outvars) check_sharding(o.aval.sharding, o.aval.shape, def.name, "the result");
    } catch (const Error& e) {
      EXPECT_TRUE(e.kind() == ErrorKind::kShardingType || e.kind() == ErrorKind::kSharding) << def.name << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace shardlab::ir
