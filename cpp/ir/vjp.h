// Reverse-mode autodiff of a whole program, as JAX does it: linearize (the
// JVP), then transpose the linear part. vjp(f) takes (primals, output
// cotangents) and returns (primal outputs, input cotangents).
#pragma once

#include "ir/program.h"

namespace shardlab::ir {

/// The VJP of `program`: inputs are its inputs then one cotangent per output;
/// outputs are its outputs then one cotangent per input.
Program vjp(const Program& program);

}  // namespace shardlab::ir
