// An equation's evaluation as a span of an armed timeline
// (runtime/timeline.h): the one rule for what kind of span an equation
// makes, and the begin / evaluate / end every executor's loop runs. Not a
// scope object: a destructor at each evaluation would route it through
// Emscripten's JavaScript exception handling in wasm.
#pragma once

#include <cstdint>

#include "ir/core/primitive.h"
#include "runtime/timeline.h"

namespace shardlab::exec {

/// The kind of span an equation of primitive `def` makes: a collective (the registry's) or an equation.
inline SpanKind span_kind(const ir::PrimitiveDef& def) {
  return def.collective ? SpanKind::kCollective : SpanKind::kEquation;
}

/// Runs `eval()` as device `d`'s span of the equation at `index` of its
/// program, of primitive `def` (nothing is recorded unless a timeline is armed).
template <class Eval>
void timed(int d, int32_t index, const ir::PrimitiveDef& def, Eval&& eval) {
  const int64_t t0 = span_begin(d);
  eval();
  span_end(d, span_kind(def), index, def.name, t0);
}

}  // namespace shardlab::exec
