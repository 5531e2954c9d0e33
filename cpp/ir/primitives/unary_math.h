// Unary math: exp, log, tanh, logistic, sqrt, rsqrt, square, abs, sign, floor,
// round, the trigonometric and hyperbolic functions, log1p, expm1, exp2, ceil.
// None is linear, so their transpose rules only reject being asked; their
// JVPs reuse the primal output where the derivative is cheapest from it.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// exp: y = e^x; dy = t * y.
template <>
struct Def<Prim::kExp> : NotLinear<Def<Prim::kExp>>, BatchPerOperand<Prim::kExp>, ShardPerOperand<Def<Prim::kExp>> {
  static constexpr const char* kName = "exp";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// log: y = ln x; dy = t / x.
template <>
struct Def<Prim::kLog> : NotLinear<Def<Prim::kLog>>, BatchPerOperand<Prim::kLog>, ShardPerOperand<Def<Prim::kLog>> {
  static constexpr const char* kName = "log";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// tanh: dy = t (1 - y^2), computed as JAX does: (t + t y)(1 - y).
template <>
struct Def<Prim::kTanh> : NotLinear<Def<Prim::kTanh>>, BatchPerOperand<Prim::kTanh>, ShardPerOperand<Def<Prim::kTanh>> {
  static constexpr const char* kName = "tanh";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// logistic: y = 1 / (1 + e^-x); dy = t * y * (1 - y).
template <>
struct Def<Prim::kLogistic> : NotLinear<Def<Prim::kLogistic>>, BatchPerOperand<Prim::kLogistic>, ShardPerOperand<Def<Prim::kLogistic>> {
  static constexpr const char* kName = "logistic";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// sqrt: dy = t / (2 y), computed as JAX does: t (0.5 / y).
template <>
struct Def<Prim::kSqrt> : NotLinear<Def<Prim::kSqrt>>, BatchPerOperand<Prim::kSqrt>, ShardPerOperand<Def<Prim::kSqrt>> {
  static constexpr const char* kName = "sqrt";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// rsqrt: y = x^-1/2; dy = t (-0.5 (y / x)), in JAX's order.
template <>
struct Def<Prim::kRsqrt> : NotLinear<Def<Prim::kRsqrt>>, BatchPerOperand<Prim::kRsqrt>, ShardPerOperand<Def<Prim::kRsqrt>> {
  static constexpr const char* kName = "rsqrt";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// square: y = x^2; dy = t * 2x.
template <>
struct Def<Prim::kSquare> : NotLinear<Def<Prim::kSquare>>, BatchPerOperand<Prim::kSquare>, ShardPerOperand<Def<Prim::kSquare>> {
  static constexpr const char* kName = "square";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// integer_pow[y]: x^y for an integer y, by square-and-multiply in x's dtype
/// (float32 or int32; 1 / x^-y for a negative y on floats); dx = t * y * x^(y-1).
template <>
struct Def<Prim::kIntegerPow> : NotLinear<Def<Prim::kIntegerPow>>, BatchPerOperand<Prim::kIntegerPow>, ShardPerOperand<Def<Prim::kIntegerPow>> {
  static constexpr const char* kName = "integer_pow";
  static constexpr ParamSchema kParams{{"y", ParamType::kInt}};
  SHARDLAB_NONLINEAR_RULES
};
/// abs: dy = t * sign(x).
template <>
struct Def<Prim::kAbs> : NotLinear<Def<Prim::kAbs>>, BatchPerOperand<Prim::kAbs>, ShardPerOperand<Def<Prim::kAbs>> {
  static constexpr const char* kName = "abs";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// sign: -1, 0 or 1; its derivative is zero wherever it exists (as in JAX).
template <>
struct Def<Prim::kSign> : NotLinear<Def<Prim::kSign>>, BatchPerOperand<Prim::kSign>, ShardPerOperand<Def<Prim::kSign>> {
  static constexpr const char* kName = "sign";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// floor: the largest integer <= x (float32); piecewise constant: dy = 0.
template <>
struct Def<Prim::kFloor> : NonDifferentiable<Def<Prim::kFloor>>, BatchPerOperand<Prim::kFloor>, ShardPerOperand<Def<Prim::kFloor>> {
  static constexpr const char* kName = "floor";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};
/// round[rounding_method]: x to an integer, halves away from zero (method 0,
/// lax.round's default) or to the even neighbour (1, jnp.round's); dy = 0.
template <>
struct Def<Prim::kRound> : NonDifferentiable<Def<Prim::kRound>>, BatchPerOperand<Prim::kRound>, ShardPerOperand<Def<Prim::kRound>> {
  static constexpr const char* kName = "round";
  static constexpr ParamSchema kParams{{"rounding_method", ParamType::kInt}};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// sin: dy = t * cos(x).
template <>
struct Def<Prim::kSin> : NotLinear<Def<Prim::kSin>>, BatchPerOperand<Prim::kSin>, ShardPerOperand<Def<Prim::kSin>> {
  static constexpr const char* kName = "sin";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// cos: dy = -t * sin(x).
template <>
struct Def<Prim::kCos> : NotLinear<Def<Prim::kCos>>, BatchPerOperand<Prim::kCos>, ShardPerOperand<Def<Prim::kCos>> {
  static constexpr const char* kName = "cos";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// tan: dy = t * (1 + y^2).
template <>
struct Def<Prim::kTan> : NotLinear<Def<Prim::kTan>>, BatchPerOperand<Prim::kTan>, ShardPerOperand<Def<Prim::kTan>> {
  static constexpr const char* kName = "tan";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// asin (jnp.arcsin): dy = t * rsqrt(1 - x^2).
template <>
struct Def<Prim::kAsin> : NotLinear<Def<Prim::kAsin>>, BatchPerOperand<Prim::kAsin>, ShardPerOperand<Def<Prim::kAsin>> {
  static constexpr const char* kName = "asin";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// acos (jnp.arccos): dy = -t * rsqrt(1 - x^2).
template <>
struct Def<Prim::kAcos> : NotLinear<Def<Prim::kAcos>>, BatchPerOperand<Prim::kAcos>, ShardPerOperand<Def<Prim::kAcos>> {
  static constexpr const char* kName = "acos";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// atan (jnp.arctan): dy = t / (1 + x^2).
template <>
struct Def<Prim::kAtan> : NotLinear<Def<Prim::kAtan>>, BatchPerOperand<Prim::kAtan>, ShardPerOperand<Def<Prim::kAtan>> {
  static constexpr const char* kName = "atan";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// sinh: dy = t * cosh(x).
template <>
struct Def<Prim::kSinh> : NotLinear<Def<Prim::kSinh>>, BatchPerOperand<Prim::kSinh>, ShardPerOperand<Def<Prim::kSinh>> {
  static constexpr const char* kName = "sinh";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// cosh: dy = t * sinh(x).
template <>
struct Def<Prim::kCosh> : NotLinear<Def<Prim::kCosh>>, BatchPerOperand<Prim::kCosh>, ShardPerOperand<Def<Prim::kCosh>> {
  static constexpr const char* kName = "cosh";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// log1p: y = ln(1 + x), exact for small x; dy = t / (1 + x).
template <>
struct Def<Prim::kLog1p> : NotLinear<Def<Prim::kLog1p>>, BatchPerOperand<Prim::kLog1p>, ShardPerOperand<Def<Prim::kLog1p>> {
  static constexpr const char* kName = "log1p";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// expm1: y = e^x - 1, exact for small x; dy = t * (y + 1).
template <>
struct Def<Prim::kExpm1> : NotLinear<Def<Prim::kExpm1>>, BatchPerOperand<Prim::kExpm1>, ShardPerOperand<Def<Prim::kExpm1>> {
  static constexpr const char* kName = "expm1";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// exp2: y = 2^x; dy = t * y * ln 2.
template <>
struct Def<Prim::kExp2> : NotLinear<Def<Prim::kExp2>>, BatchPerOperand<Prim::kExp2>, ShardPerOperand<Def<Prim::kExp2>> {
  static constexpr const char* kName = "exp2";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// ceil: the smallest integer >= x (float32); piecewise constant: dy = 0.
template <>
struct Def<Prim::kCeil> : NonDifferentiable<Def<Prim::kCeil>>, BatchPerOperand<Prim::kCeil>, ShardPerOperand<Def<Prim::kCeil>> {
  static constexpr const char* kName = "ceil";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};
/// erf: the error function (computed in float64, rounded); dy = t * 2/sqrt(pi) * exp(-x^2).
template <>
struct Def<Prim::kErf> : NotLinear<Def<Prim::kErf>>, BatchPerOperand<Prim::kErf>, ShardPerOperand<Def<Prim::kErf>> {
  static constexpr const char* kName = "erf";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};
/// erf_inv: the inverse of erf on (-1, 1) (+-inf at +-1, NaN outside),
/// computed in float64 and rounded; dy = t * sqrt(pi)/2 * exp(y^2).
template <>
struct Def<Prim::kErfInv> : NotLinear<Def<Prim::kErfInv>>, BatchPerOperand<Prim::kErfInv>, ShardPerOperand<Def<Prim::kErfInv>> {
  static constexpr const char* kName = "erf_inv";
  static constexpr ParamSchema kParams{};
  SHARDLAB_NONLINEAR_RULES
};

}  // namespace shardlab::ir
