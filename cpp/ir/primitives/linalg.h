// Linear algebra: dot_general, the one contraction primitive (matmul, batched
// matmul, vector products and tensor contractions are all dot_generals, as in
// JAX). It evaluates as Eigen matrix products (GEMM), one per batch element.
#pragma once

#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// dot_general[dimension_numbers, preferred_element_type](x, y): the sum over
/// the paired contracting dimensions of x * y, for each index of the paired
/// batch dimensions; dimension_numbers = (lhs_contracting, rhs_contracting,
/// lhs_batch, rhs_batch). The result holds the batch dimensions, then x's free
/// ones, then y's (as jax.lax.dot_general). float32 (accumulated in float32)
/// or int32 (wrapping). Bilinear: d(x . y) = dx . y + x . dy; linear in one
/// operand at a time: x's cotangent is dot_general(ct, y) contracting y's free
/// dimensions, transposed back to x's dimension order (JAX's
/// _dot_general_transpose_lhs), and y's likewise, typed as x (its out_sharding
/// is x's sharding: 301's rule, a cotangent's type is its primal's).
/// out_sharding (None when not given) types the result where the operands'
/// shardings leave it ambiguous (a contraction over a sharded dimension).
template <>
struct Def<Prim::kDotGeneral> {
  static constexpr const char* kName = "dot_general";
  static constexpr ParamSchema kParams{
      {"dimension_numbers", ParamType::kIntLists, false, false, ParamFormat::kDotDimensions},
      {"preferred_element_type", ParamType::kDType},
      {"out_sharding", ParamType::kSharding, false, true}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

}  // namespace shardlab::ir
