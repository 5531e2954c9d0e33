// Changing a value's sharding in the global view (jax.reshard): the values
// stay, the type's sharding changes, and a partitioner moves the blocks.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// reshard[dst_sharding](x): x, typed with the sharding dst_sharding (JAX's
/// reshard_p, printed without its parameters as JAX prints it). Linear:
/// d(reshard x) = reshard dx; its transpose reshards the cotangent back to
/// x's sharding (301's rule: a cotangent is typed as its primal). Batched, the
/// batch dimension is unsharded.
template <>
struct Def<Prim::kReshard> {
  static constexpr const char* kName = "reshard";
  static constexpr ParamSchema kParams{{"dst_sharding", ParamType::kSharding, false, false, ParamFormat::kImplied}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// jax.reshard's equation: x typed as `dst`.
Atom reshard(Builder& b, const Atom& x, const Sharding& dst);

}  // namespace shardlab::ir
