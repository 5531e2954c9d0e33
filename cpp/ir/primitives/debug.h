// Seeing values from inside a program: jax.debug.print and
// jax.debug.callback bind debug_callback, whose values the host's callback
// receives once the job has run (runtime/debug_log.h).
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/sharding_rules.h"

namespace shardlab::ir {

/// debug_callback[callback, fmt](*xs): hands the operands' values, on each
/// device that runs it (the host outside a shard_map body), to host callback
/// number `callback`; no outputs. `fmt` is a jax.debug.print's format with
/// its fields numbered by operand (web/lib/api/core/debug_text.js; empty for
/// jax.debug.callback), unprinted as JAX keeps it in the callback: a program
/// run elsewhere (the judge's, from a sandbox's trace) prints from it alone. An effect: dead-code elimination keeps it, and it
/// runs outside shard_map bodies too. JVP: the call on the primals (as JAX,
/// the callback sees primal values), no tangents; batched: one call per example, in
/// order (JAX's debug_callback batching rule); linear in nothing.
template <>
struct Def<Prim::kDebugCallback> : ShardPerOperand<Def<Prim::kDebugCallback>, true> {
  static constexpr const char* kName = "debug_callback";
  static constexpr ParamSchema kParams{{"callback", ParamType::kInt},
                                       {"fmt", ParamType::kString, false, false, ParamFormat::kImplied}};
  static constexpr bool kEffect = true;
  SHARDLAB_TRACE_RULES
  SHARDLAB_BATCH_RULE
  static void eval_on_device(const DeviceContext& ctx, const Params& p, const std::vector<const Tensor*>& in,
                             const std::vector<Tensor*>& out);
};

}  // namespace shardlab::ir
