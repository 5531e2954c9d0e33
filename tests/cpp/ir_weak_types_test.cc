// Weak types (JAX's weak_type): every primitive of the registry on its sample
// with every operand weak, then every operand strong, gives the weak types its
// WeakRule says, as JAX's weak_type_rules (lax.py, slicing.py): all operands
// weak for the standard rule, the operand alone for gather, scatter and the
// dynamic slices, the cases for select_n, never for iota, argmax and the
// random bits; convert_element_type's from its parameter; a call's from its
// program; and a program's weak types survive its JSON.
#include <gtest/gtest.h>

#include "ir/forms/json.h"
#include "ir/forms/json_read.h"
#include "ir/tracing/ops.h"
#include "ir_checks.h"

namespace shardlab::ir {
namespace {

Sample with_weak(Sample s, bool weak) {
  for (Aval& a : s.operands) a.weak = weak;
  return s;
}

TEST(WeakTypes, EveryPrimitiveFollowsItsRule) {
  for (size_t n = 0; n < kNumPrims; ++n) {
    const Prim prim = static_cast<Prim>(n);
    const PrimitiveDef& def = primitive(prim);
    if (def.weak == WeakRule::kShapeRule) continue;  // tested below, each by its own rule
    const Sample s = def.sample();
    const Program weak = sample_program(prim, with_weak(s, true));
    const Program strong = sample_program(prim, with_weak(s, false));
    for (size_t i = 0; i < weak.outvars.size(); ++i) {
      EXPECT_EQ(weak.outvars[i].aval.weak, def.weak != WeakRule::kNever && !s.operands.empty()) << def.name << " output " << i;
      EXPECT_FALSE(strong.outvars[i].aval.weak) << def.name << " output " << i;
    }
  }
}

TEST(WeakTypes, TheStandardRuleNeedsEveryOperandWeak) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {3}, {}, true});
  const Atom y = b.input(f32({3}));
  EXPECT_TRUE(add(b, x, Atom::constant(2.0, DType::kFloat32, true)).aval.weak);  // x + 2.0: both Python's
  EXPECT_FALSE(add(b, x, y).aval.weak);
  EXPECT_FALSE(add(b, x, Atom::constant(2.0, DType::kFloat32)).aval.weak);  // a numpy float32 constant is strong
  EXPECT_TRUE(compare(b, Prim::kLt, x, x).aval.weak);                      // lax.lt(1.0, 2.0) is a weak bool
}

TEST(WeakTypes, OperandOnlyRulesIgnoreIndicesAndPredicates) {
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {4}, {}, true});
  const Atom strong_i = b.input(Aval{DType::kInt32, {}, {}, false});
  const Atom pred = b.input(Aval{DType::kBool, {4}, {}, false});
  EXPECT_TRUE(b.emit1(Prim::kDynamicSlice, {{"slice_sizes", std::vector<int64_t>{2}}}, {x, strong_i}).aval.weak);
  EXPECT_TRUE(select_n(b, pred, {x, x}).aval.weak);
  EXPECT_FALSE(select_n(b, pred, {x, b.input(f32({4}))}).aval.weak);
  EXPECT_FALSE(iota(b, DType::kInt32, {4}, 0).aval.weak);
}

TEST(WeakTypes, ConvertElementTypeSetsItsParameter) {
  Builder b;
  const Atom x = b.input(Aval{DType::kInt32, {2}, {}, false});
  const auto convert = [&](const Atom& v, bool weak) {
    return b.emit1(Prim::kConvertElementType, {{"new_dtype", DType::kFloat32}, {"weak_type", weak}}, {v});
  };
  EXPECT_TRUE(convert(x, true).aval.weak);  // int32 + 1.5: the array becomes a weak float32
  EXPECT_FALSE(convert(convert(x, true), false).aval.weak);
}

TEST(WeakTypes, ACallGivesItsProgramsWeakTypesAndJsonKeepsThem) {
  Builder inner;
  const Atom v = inner.input(Aval{DType::kFloat32, {}, {}, true});
  auto body = std::make_shared<const Program>(inner.build({mul(inner, v, Atom::constant(2.0, DType::kFloat32, true))}));
  Builder b;
  const Atom x = b.input(Aval{DType::kFloat32, {}, {}, true});
  const Atom y = b.emit1(Prim::kJit, {{"name", std::string("f")}, {"jaxpr", ProgramRef(body)}}, {x});
  EXPECT_TRUE(y.aval.weak);
  const Program p = b.build({y, add(b, y, Atom::constant(1.0, DType::kFloat32))});
  const Program back = program_from_json(to_json(p));
  ASSERT_EQ(back.outvars.size(), 2u);
  EXPECT_TRUE(back.avals[back.invars[0]].weak);
  EXPECT_TRUE(back.outvars[0].aval.weak);
  EXPECT_FALSE(back.outvars[1].aval.weak);
}

}  // namespace
}  // namespace shardlab::ir
