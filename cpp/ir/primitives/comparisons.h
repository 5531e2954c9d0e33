// Comparisons and selection: eq, ne, lt, le, gt, ge give bool arrays (operands
// as for the binary elementwise primitives: equal dtypes, equal shapes or one a
// scalar), is_finite tests one float32 array; select_n picks elements among cases by a bool or int32 array. A
// comparison is piecewise constant, so its tangent is zero and it is never
// linear; select_n is linear in its cases.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// is_finite: z = x is neither infinite nor NaN (bool; float32 x); dz = 0.
template <>
struct Def<Prim::kIsFinite> : NonDifferentiable<Def<Prim::kIsFinite>>, BatchPerOperand<Prim::kIsFinite>, ShardPerOperand<Def<Prim::kIsFinite>> {
  static constexpr const char* kName = "is_finite";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// eq: z = (x == y) as bool; dz = 0.
template <>
struct Def<Prim::kEq> : NonDifferentiable<Def<Prim::kEq>>, BatchElementwise<Prim::kEq>, ShardBroadcast<Def<Prim::kEq>> {
  static constexpr const char* kName = "eq";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// ne: z = (x != y) as bool; dz = 0.
template <>
struct Def<Prim::kNe> : NonDifferentiable<Def<Prim::kNe>>, BatchElementwise<Prim::kNe>, ShardBroadcast<Def<Prim::kNe>> {
  static constexpr const char* kName = "ne";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// lt: z = (x < y) as bool; dz = 0.
template <>
struct Def<Prim::kLt> : NonDifferentiable<Def<Prim::kLt>>, BatchElementwise<Prim::kLt>, ShardBroadcast<Def<Prim::kLt>> {
  static constexpr const char* kName = "lt";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// le: z = (x <= y) as bool; dz = 0.
template <>
struct Def<Prim::kLe> : NonDifferentiable<Def<Prim::kLe>>, BatchElementwise<Prim::kLe>, ShardBroadcast<Def<Prim::kLe>> {
  static constexpr const char* kName = "le";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// gt: z = (x > y) as bool; dz = 0.
template <>
struct Def<Prim::kGt> : NonDifferentiable<Def<Prim::kGt>>, BatchElementwise<Prim::kGt>, ShardBroadcast<Def<Prim::kGt>> {
  static constexpr const char* kName = "gt";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// ge: z = (x >= y) as bool; dz = 0.
template <>
struct Def<Prim::kGe> : NonDifferentiable<Def<Prim::kGe>>, BatchElementwise<Prim::kGe>, ShardBroadcast<Def<Prim::kGe>> {
  static constexpr const char* kName = "ge";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// select_n(which, *cases): z = cases[which] elementwise (which bool, or int32
/// clamped into range; a scalar which selects a whole case). dz =
/// select_n(which, *dcases) with zeros for zero tangents; linear in the cases
/// only: ct_i = select_n(which, 0, ..., ct (at i), ..., 0).
template <>
struct Def<Prim::kSelectN> {
  static constexpr const char* kName = "select_n";
  static constexpr WeakRule kWeak = WeakRule::kCases;
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

}  // namespace shardlab::ir
