// Dead-code elimination: drops the equations none of whose outputs reach the
// program's outputs. Autodiff re-emits a program's forward part next to its
// transpose, and only some of it is needed there (JAX's vjp does the same).
#pragma once

#include "ir/core/program.h"

namespace shardlab::ir {

/// What dce does with effects (debug_callback): keep them, or drop them,
/// nested programs' too, where a program recomputes values already computed
/// once (a scan transpose's forward pass: its prints ran with the primal).
enum class Effects { kKeep, kDrop };

/// `p` without the equations that do not contribute to its outputs. Other
/// primitives have no side effects, collectives included: every device runs
/// the same program, so a collective dropped here is dropped on all of them.
Program dce(const Program& p, Effects effects = Effects::kKeep);

}  // namespace shardlab::ir
