// Elementwise arithmetic: add, sub, mul, neg. Operands of binary primitives
// have equal shapes and dtypes (the JS API's numpy functions broadcast first);
// the result varies along every mesh axis an operand varies along.
#pragma once

#include "ir/primitive.h"
#include "ir/program.h"

namespace shardlab::ir {

/// The shape rule shared by the binary elementwise primitives.
std::vector<Aval> binary_shape(const char* name, const std::vector<Aval>& in);
/// The shape rule shared by the unary elementwise primitives.
std::vector<Aval> unary_shape(const char* name, const std::vector<Aval>& in);

/// add: z = x + y; d(x + y) = dx + dy; transpose: ct -> (ct, ct).
template <>
struct Def<Prim::kAdd> {
  static constexpr const char* kName = "add";
  SHARDLAB_RULES
};

/// sub: z = x - y; d(x - y) = dx - dy; transpose: ct -> (ct, -ct).
template <>
struct Def<Prim::kSub> {
  static constexpr const char* kName = "sub";
  SHARDLAB_RULES
};

/// mul: z = x * y; d(x * y) = dx * y + x * dy; linear in one operand at a
/// time: ct -> ct * y (for x) or x * ct (for y).
template <>
struct Def<Prim::kMul> {
  static constexpr const char* kName = "mul";
  SHARDLAB_RULES
};

/// neg: z = -x; d(-x) = -dx; transpose: ct -> -ct.
template <>
struct Def<Prim::kNeg> {
  static constexpr const char* kName = "neg";
  SHARDLAB_RULES
};

}  // namespace shardlab::ir
