// The text form of a program, in the style of jax.make_jaxpr:
//   { lambda ; a:f32[8,1] b:f32[8,1]. let c:f32[8,1] = mul a b in (c,) }
#pragma once

#include <string>

#include "ir/program.h"

namespace shardlab::ir {

/// JAX's variable names: a..z, then ba, bb, ... (as jax.core's counter prints them).
std::string var_name(VarId v);

/// The program as jaxpr text; one line when it is short, else one equation per line.
std::string to_text(const Program& program);

}  // namespace shardlab::ir
