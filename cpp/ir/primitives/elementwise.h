// Elementwise arithmetic: add, add_any, sub, mul, div, neg, max, min, pow. Operands of binary primitives
// have equal dtypes and equal shapes, or one is a scalar (repeated, as in a
// jaxpr's `mul a b` with b:f32[]); other broadcasting is explicit
// (broadcast_in_dim; the JS API's numpy functions insert it). The result
// varies along every mesh axis an operand varies along.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// The shape rule shared by the binary elementwise primitives.
std::vector<Aval> binary_shape(const char* name, const std::vector<Aval>& in);
/// The shape rule shared by the unary elementwise primitives.
std::vector<Aval> unary_shape(const char* name, const std::vector<Aval>& in);

/// add: z = x + y; d(x + y) = dx + dy; transpose: ct -> (ct, ct).
template <>
struct Def<Prim::kAdd> : BatchElementwise<Prim::kAdd>, ShardSum<Def<Prim::kAdd>> {
  static constexpr const char* kName = "add";
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
};

/// add_any: z = x + y where autodiff sums the cotangents of one value (JAX's
/// add_jaxvals, printed add_any), so a gradient's program reads as JAX's;
/// d(x + y) = dx + dy; transpose: ct -> (ct, ct).
template <>
struct Def<Prim::kAddAny> : BatchElementwise<Prim::kAddAny>, ShardSum<Def<Prim::kAddAny>> {
  static constexpr const char* kName = "add_any";
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
};

/// sub: z = x - y; d(x - y) = dx - dy; transpose: ct -> (ct, -ct).
template <>
struct Def<Prim::kSub> : BatchElementwise<Prim::kSub>, ShardSum<Def<Prim::kSub>> {
  static constexpr const char* kName = "sub";
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
};

/// mul: z = x * y; d(x * y) = dx * y + x * dy; linear in one operand at a
/// time: ct -> ct * y (for x) or x * ct (for y).
template <>
struct Def<Prim::kMul> : BatchElementwise<Prim::kMul>, ShardBroadcast<Def<Prim::kMul>> {
  static constexpr const char* kName = "mul";
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
};

/// div: z = x / y (int32 division truncates, as lax.div); d(x / y) = dx / y + (-dy x) y^-2, JAX's two
/// rules; linear in x only: ct -> ct / y.
template <>
struct Def<Prim::kDiv> : BatchElementwise<Prim::kDiv>, ShardBroadcast<Def<Prim::kDiv>> {
  static constexpr const char* kName = "div";
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
};

/// neg: z = -x; d(-x) = -dx; transpose: ct -> -ct.
template <>
struct Def<Prim::kNeg> : BatchPerOperand<Prim::kNeg>, ShardPerOperand<Def<Prim::kNeg>, true> {
  static constexpr const char* kName = "neg";
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
};

/// max: z = max(x, y) (NaN if either is); dz = dx * [x > y] + dy * [x < y] +
/// (dx + dy) / 2 * [x == y], JAX's tie split; not linear.
template <>
struct Def<Prim::kMax> : NotLinear<Def<Prim::kMax>>, BatchElementwise<Prim::kMax>, ShardBroadcast<Def<Prim::kMax>> {
  static constexpr const char* kName = "max";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

/// min: z = min(x, y) (NaN if either is); dz = dx * [x < y] + dy * [x > y] +
/// (dx + dy) / 2 * [x == y]; not linear.
template <>
struct Def<Prim::kMin> : NotLinear<Def<Prim::kMin>>, BatchElementwise<Prim::kMin>, ShardBroadcast<Def<Prim::kMin>> {
  static constexpr const char* kName = "min";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

/// pow: z = x^y (float32 only); d(x^y) = y * x^(y-1) * dx + log(x) * x^y * dy,
/// the dx term 0 where y == 0 and the dy term 0 where x == 0, as JAX; not linear.
template <>
struct Def<Prim::kPow> : NotLinear<Def<Prim::kPow>>, BatchElementwise<Prim::kPow>, ShardBroadcast<Def<Prim::kPow>> {
  static constexpr const char* kName = "pow";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

/// rem: z = x - y * trunc(x / y), the remainder of truncating division (C's
/// fmod and %; the sign of x), as XLA's rem: an int32 x % 0 is x. dz = dx -
/// dy * trunc(x / y); not linear.
template <>
struct Def<Prim::kRem> : NotLinear<Def<Prim::kRem>>, BatchElementwise<Prim::kRem>, ShardBroadcast<Def<Prim::kRem>> {
  static constexpr const char* kName = "rem";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

/// atan2: z = the angle of the point (y, x) in (-pi, pi], arctan(x / y)
/// placed by the signs of both (float32 only); dz = (y dx - x dy) / (x^2 + y^2).
template <>
struct Def<Prim::kAtan2> : NotLinear<Def<Prim::kAtan2>>, BatchElementwise<Prim::kAtan2>, ShardBroadcast<Def<Prim::kAtan2>> {
  static constexpr const char* kName = "atan2";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

/// nextafter: the float32 next to x in the direction of y (y itself when
/// equal, NaN if either is); piecewise constant: dz = 0.
template <>
struct Def<Prim::kNextafter> : NonDifferentiable<Def<Prim::kNextafter>>, BatchElementwise<Prim::kNextafter>, ShardBroadcast<Def<Prim::kNextafter>> {
  static constexpr const char* kName = "nextafter";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

}  // namespace shardlab::ir
