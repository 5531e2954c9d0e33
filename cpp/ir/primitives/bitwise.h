// Bitwise operations on integers (int32, uint32) and bools: and, or, xor,
// not, and the shifts. Operands as for the binary elementwise primitives
// (equal dtypes, equal shapes or one a scalar). Integer-valued, so their
// tangents are zero and they are never linear.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// and: z = x & y (logical for bools); dz = 0.
template <>
struct Def<Prim::kAnd> : NonDifferentiable<Def<Prim::kAnd>>, BatchElementwise<Prim::kAnd>, ShardBroadcast<Def<Prim::kAnd>> {
  static constexpr const char* kName = "and";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// or: z = x | y; dz = 0.
template <>
struct Def<Prim::kOr> : NonDifferentiable<Def<Prim::kOr>>, BatchElementwise<Prim::kOr>, ShardBroadcast<Def<Prim::kOr>> {
  static constexpr const char* kName = "or";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// xor: z = x ^ y; dz = 0.
template <>
struct Def<Prim::kXor> : NonDifferentiable<Def<Prim::kXor>>, BatchElementwise<Prim::kXor>, ShardBroadcast<Def<Prim::kXor>> {
  static constexpr const char* kName = "xor";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// not: z = ~x (logical negation for bools); dz = 0.
template <>
struct Def<Prim::kNot> : NonDifferentiable<Def<Prim::kNot>>, BatchPerOperand<Prim::kNot>, ShardPerOperand<Def<Prim::kNot>> {
  static constexpr const char* kName = "not";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// shift_left: z = x << y; a shift of 32 or more (or negative) gives 0, as XLA's.
template <>
struct Def<Prim::kShiftLeft> : NonDifferentiable<Def<Prim::kShiftLeft>>, BatchElementwise<Prim::kShiftLeft>, ShardBroadcast<Def<Prim::kShiftLeft>> {
  static constexpr const char* kName = "shift_left";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// shift_right_logical: z = x >> y filling with zeros (x's bits as unsigned);
/// 32 or more (or negative) gives 0.
template <>
struct Def<Prim::kShiftRightLogical> : NonDifferentiable<Def<Prim::kShiftRightLogical>>,
                                       BatchElementwise<Prim::kShiftRightLogical>, ShardBroadcast<Def<Prim::kShiftRightLogical>> {
  static constexpr const char* kName = "shift_right_logical";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// shift_right_arithmetic: z = x >> y filling with the sign bit (x's bits as
/// signed); 32 or more (or negative) fills every bit with it.
template <>
struct Def<Prim::kShiftRightArithmetic> : NonDifferentiable<Def<Prim::kShiftRightArithmetic>>,
                                          BatchElementwise<Prim::kShiftRightArithmetic>, ShardBroadcast<Def<Prim::kShiftRightArithmetic>> {
  static constexpr const char* kName = "shift_right_arithmetic";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// threefry2x32(k1, k2, x1, x2): the Threefry-2x32 block cipher (20 rounds,
/// Random123's), keyed by (k1, k2), applied to each counter pair (x1, x2);
/// two uint32 outputs. All operands uint32, of one shape (a scalar repeated).
/// The hash behind jax.random; dz = 0.
template <>
struct Def<Prim::kThreefry2x32> : NonDifferentiable<Def<Prim::kThreefry2x32>>,
                                  BatchElementwise<Prim::kThreefry2x32>, ShardBroadcast<Def<Prim::kThreefry2x32>> {
  static constexpr const char* kName = "threefry2x32";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

}  // namespace shardlab::ir
