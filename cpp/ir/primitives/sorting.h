// Sorting: sort, the primitive behind jnp.sort and jnp.argsort.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// sort[dimension, is_stable, num_keys](x_1, ..., x_n): every operand (one
/// shape) permuted along `dimension` by the order of the first num_keys
/// operands, compared lexicographically (floats in JAX's total order: -0 before
/// +0, NaN last). The sort is always stable, so equal keys keep their order.
/// JVP: the tangents permuted the same way (a gather by the permutation,
/// sorted alongside as an iota); not linear.
template <>
struct Def<Prim::kSort> : NotLinear<Def<Prim::kSort>> {
  static constexpr const char* kName = "sort";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{
      {"dimension", ParamType::kInt}, {"is_stable", ParamType::kBool}, {"num_keys", ParamType::kInt}};
  SHARDLAB_NONLINEAR_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

}  // namespace shardlab::ir
