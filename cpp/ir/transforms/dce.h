// Dead-code elimination: drops the equations none of whose outputs reach the
// program's outputs. Autodiff re-emits a program's forward part next to its
// transpose, and only some of it is needed there (JAX's vjp does the same).
#pragma once

#include "ir/core/program.h"

namespace shardlab::ir {

/// `p` without the equations that do not contribute to its outputs.
/// Primitives have no side effects, collectives included: every device runs
/// the same program, so a collective dropped here is dropped on all of them.
Program dce(const Program& p);

}  // namespace shardlab::ir
