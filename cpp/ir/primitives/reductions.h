// Reductions over axes: reduce_sum. Sums run in a fixed order (row-major over
// the reduced elements) with a float64 accumulator, so they are deterministic.
#pragma once

#include "ir/primitive.h"
#include "ir/program.h"

namespace shardlab::ir {

/// reduce_sum[axes]: sums over `axes` (sorted, distinct), which disappear from
/// the shape. d(sum x) = sum dx; transpose: broadcast_in_dim of the cotangent
/// back over the summed axes.
template <>
struct Def<Prim::kReduceSum> {
  static constexpr const char* kName = "reduce_sum";
  SHARDLAB_RULES
};

}  // namespace shardlab::ir
