// Calls of a nested program: jit, a jitted function called inside another
// traced function. Printed as JAX prints it (`jit[name=... jaxpr={...}]`),
// run inline (its lowering is its program's equations), differentiated
// through its program.
#pragma once

#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// jit[name, jaxpr](x): y = jaxpr(x), the program of the jitted function
/// `name` (the values it closes over first among the operands). JVP: its
/// program's JVP, emitted inline; transpose: its program's transpose,
/// inline; batched: the jit of its batched program, every output batched
/// along 0. Linear in whatever its program is linear in.
template <>
struct Def<Prim::kJit> {
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

}  // namespace shardlab::ir
