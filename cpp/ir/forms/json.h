// The JSON form of a program: the content of the text form, structured, for
// the checker's requirements to query (which primitives a shard_map body
// holds, over which axes, with which block shapes). Variable names are the
// text form's, so a message can quote either.
//
//   {"invars": [var...], "eqns": [eqn...], "outvars": [atom...]}
//   var:  {"name": "a", "aval": aval}        literal: {"literal": 2.0, "aval": aval}
//   aval: {"dtype": "float32", "shape": [4, 2], "vma": ["data"], "str": "f32[4,2]{V:data}"}
//   eqn:  {"primitive": "psum", "params": {...}, "inputs": [atom...], "outputs": [var...]}
// Params keep their names; a spec is a list of entries (null, "axis" or
// ["a", "b"]), a mesh {"axis_names": [...], "shape": [...]}, the jaxpr of a
// shard_map a nested program object.
#pragma once

#include <string>

#include "ir/core/program.h"

namespace shardlab::ir {

/// The program as one JSON object (no whitespace).
std::string to_json(const Program& program);

}  // namespace shardlab::ir
