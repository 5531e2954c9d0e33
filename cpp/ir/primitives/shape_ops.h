// Shape operations: broadcast_in_dim, reshape, transpose, squeeze,
// expand_dims and rev. All are linear, so their JVP applies them to the tangent and
// their transpose undoes the shape change.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/sharding_rules.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// broadcast_in_dim[shape, broadcast_dimensions]: operand dimension i becomes
/// output dimension broadcast_dimensions[i] (size equal, or 1 and repeated);
/// the other output dimensions repeat the operand. Transpose: reduce_sum over
/// the repeated dimensions, then reshape to the operand's shape.
template <>
struct Def<Prim::kBroadcastInDim> {
  static constexpr const char* kName = "broadcast_in_dim";
  // Printed as JAX 0.11 prints it: no shape (the binder's type), broadcast_dimensions only when there are some.
  static constexpr ParamSchema kParams{{"shape", ParamType::kInts, false, false, ParamFormat::kImplied},
                                       {"broadcast_dimensions", ParamType::kInts, false, true}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// reshape[new_sizes]: the same elements in row-major order, another shape.
/// Transpose: reshape back.
template <>
struct Def<Prim::kReshape> {
  static constexpr const char* kName = "reshape";
  static constexpr ParamSchema kParams{{"new_sizes", ParamType::kInts}};
  static constexpr const char* kNoneParams = "dimensions sharding";
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// transpose[permutation]: output dimension i is operand dimension
/// permutation[i]. Transpose: the inverse permutation.
template <>
struct Def<Prim::kTranspose> {
  static constexpr const char* kName = "transpose";
  static constexpr ParamSchema kParams{{"permutation", ParamType::kInts}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// squeeze[dimensions]: removes the listed dimensions, each of size 1.
/// Transpose: expand_dims at the same dimensions.
template <>
struct Def<Prim::kSqueeze> {
  static constexpr const char* kName = "squeeze";
  static constexpr ParamSchema kParams{{"dimensions", ParamType::kInts}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// expand_dims[dimensions]: inserts dimensions of size 1 at the listed output
/// positions. Transpose: squeeze them.
template <>
struct Def<Prim::kExpandDims> {
  static constexpr const char* kName = "expand_dims";
  static constexpr ParamSchema kParams{{"dimensions", ParamType::kInts}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// rev[dimensions]: the elements in reverse order along each listed
/// dimension, z[.., i, ..] = x[.., n - 1 - i, ..] (jnp.flip, x[::-1]).
/// Transpose: rev again.
template <>
struct Def<Prim::kRev> : ShardAlongDims<Def<Prim::kRev>, true> {
  static constexpr const char* kName = "rev";
  static constexpr ParamSchema kParams{{"dimensions", ParamType::kInts}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
};

}  // namespace shardlab::ir
