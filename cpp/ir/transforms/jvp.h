// Forward-mode autodiff of a whole program: jvp(f) takes (primals, tangents)
// and returns (primal outputs, tangent outputs), emitted equation by equation
// through each primitive's JVP rule. Symbolic zeros are never materialised
// until an output needs one (then as a broadcast literal, as JAX does).
#pragma once

#include "ir/core/program.h"

namespace shardlab::ir {

/// The JVP of `program` with respect to the inputs marked in `wrt` (all when
/// empty; the others have zero tangents): inputs are its inputs then one
/// tangent per marked input; outputs are its outputs then one tangent per output.
Program jvp(const Program& program, const std::vector<bool>& wrt = {});

}  // namespace shardlab::ir
