// The text form of a program, in the style of jax.make_jaxpr:
//   { lambda ; a:f32[8,1] b:f32[8,1]. let c:f32[8,1] = mul a b in (c,) }
#pragma once

#include <string>
#include <vector>

#include "ir/core/program.h"

namespace shardlab::ir {

/// JAX's variable names: a..z, then ba, bb, ... (as jax.core's counter prints them).
std::string var_name(VarId v);

/// The program as jaxpr text; one line when it is short, else one equation
/// per line. Its last `num_consts` inputs are closed-over constants, printed
/// first, before the `;`, as JAX prints constvars: { lambda a:f32[3]; b:f32[3]. ...
std::string to_text(const Program& program, size_t num_consts = 0);

/// Where a nested program (a shard_map body) printed on several lines has
/// its equations: lines [first, last) of the text (0-based), `equations` of them.
struct PrintedBody {
  int first = 0;
  int last = 0;
  int equations = 0;
};

/// The text of to_text and, in order, every nested program printed on several lines.
std::string to_text(const Program& program, std::vector<PrintedBody>& bodies, size_t num_consts = 0);

}  // namespace shardlab::ir
