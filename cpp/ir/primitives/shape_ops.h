// Shape operations: broadcast_in_dim and reshape. Both are linear, so their
// JVP applies them to the tangent and their transpose undoes the shape change.
#pragma once

#include "ir/primitive.h"
#include "ir/program.h"

namespace shardlab::ir {

/// broadcast_in_dim[shape, broadcast_dimensions]: operand dimension i becomes
/// output dimension broadcast_dimensions[i] (size equal, or 1 and repeated);
/// the other output dimensions repeat the operand. Transpose: reduce_sum over
/// the repeated dimensions, then reshape to the operand's shape.
template <>
struct Def<Prim::kBroadcastInDim> {
  static constexpr const char* kName = "broadcast_in_dim";
  SHARDLAB_RULES
};

/// reshape[new_sizes]: the same elements in row-major order, another shape.
/// Transpose: reshape back.
template <>
struct Def<Prim::kReshape> {
  static constexpr const char* kName = "reshape";
  SHARDLAB_RULES
};

}  // namespace shardlab::ir
