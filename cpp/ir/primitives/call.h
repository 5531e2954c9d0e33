// Calls of a nested program: jit, a jitted function called inside another
// traced function, and checkpoint (jax.checkpoint / jax.remat). Printed as
// JAX prints them (`jit[name=... jaxpr={...}]`), run inline (their lowering
// is their program's equations), differentiated through their program.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/sharding_rules.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// jit[name, jaxpr](x): y = jaxpr(x), the program of the jitted function
/// `name` (the values it closes over first among the operands). JVP: its
/// program's JVP, emitted inline; transpose: its program's transpose,
/// inline; batched: the jit of its batched program, every output batched
/// along 0. Linear in whatever its program is linear in.
template <>
struct Def<Prim::kJit> : ShardFromProgram<Def<Prim::kJit>> {
  static constexpr const char* kName = "jit";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"name", ParamType::kString}, {"jaxpr", ParamType::kProgram}};
  static constexpr const char* kCallProgram = "jaxpr";
  SHARDLAB_TRACE_RULES
  SHARDLAB_BATCH_RULE
  /// Its program's equations, in place of the call.
  static std::vector<Atom> lower(Builder& b, const Params& p, const std::vector<Atom>& in);
  static constexpr bool kRunByExecutor = true;
};

/// remat2[differentiated, jaxpr, policy, prevent_cse](x) (jax.checkpoint's
/// equation, printed with JAX 0.11's name for it): y = jaxpr(x),
/// whose derivative recomputes what `policy` does not save (JAX's remat):
/// its JVP is a forward checkpoint giving y and the values the policy saves
/// (none for "None" and "nothing_saveable", the dot_generals' results for
/// "dots_saveable", those without batch dimensions for
/// "dots_with_no_batch_dims_saveable", all for "everything_saveable"), then
/// a checkpoint (differentiated=True) of the tangent program, which
/// recomputes the rest from x and the saved values. Its transpose is a
/// checkpoint of its program's transpose (the recomputation inside);
/// batched: the checkpoint of its batched program. JAX's JVP is one remat2
/// over the JVP program, split later by partial evaluation (the known
/// primal equations inline); here the JVP splits it at once: the same
/// values and recomputation, the printed program grouped otherwise.
template <>
struct Def<Prim::kCheckpoint> : ShardFromProgram<Def<Prim::kCheckpoint>> {
  static constexpr const char* kName = "remat2";  // JAX 0.11's name for it
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"differentiated", ParamType::kBool},
                                       {"jaxpr", ParamType::kProgram},
                                       {"policy", ParamType::kString, false, false, ParamFormat::kName},
                                       {"prevent_cse", ParamType::kBool}};
  static constexpr const char* kCallProgram = "jaxpr";
  SHARDLAB_SHAPE_RULE
  SHARDLAB_TRANSPOSE_RULE
  SHARDLAB_SAMPLE
  SHARDLAB_BATCH_RULE
  /// The forward checkpoint (y and the saved values) and the tangent one.
  static std::pair<std::vector<Atom>, std::vector<MaybeAtom>> jvp_with_primal(Builder& b, const Params& p,
                                                                              const std::vector<Atom>& x,
                                                                              const std::vector<MaybeAtom>& t);
  /// Its program's equations, in place of the call.
  static std::vector<Atom> lower(Builder& b, const Params& p, const std::vector<Atom>& in);
  static constexpr bool kRunByExecutor = true;
};

/// The policies jax.checkpoint takes here, by JAX's names ("None" for none).
bool is_checkpoint_policy(const std::string& policy);

}  // namespace shardlab::ir
