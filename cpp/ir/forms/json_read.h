// Reading a program from its JSON form (ir/forms/json.h), as the checker's judge
// does with what a sandbox traced: nothing in the text is trusted. Every
// equation is emitted again through a Builder, so the primitive's parameter
// schema and shape rule check it (a shard_map body is traced again inside its
// ShardMapTrace); every type the text declares must be the type the rules
// give; and the size of the text, its equations, the memory its values need
// and the work of one run are bounded. What is read is the program that runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ir/core/program.h"

namespace shardlab::ir {

/// Bounds on a program read from outside; a body's values and work count
/// once per device of its mesh.
struct ReadLimits {
  size_t max_text_bytes = size_t{16} << 20;      ///< the JSON text
  int max_json_depth = 64;                       ///< nesting of JSON arrays and objects
  size_t max_equations = 20000;                  ///< equations of all programs together
  int64_t max_value_bytes = int64_t{256} << 20;  ///< any one value (a device's block in a body)
  int64_t max_total_bytes = int64_t{2} << 30;    ///< every value of the program, all together
  double max_work = 2e10;                        ///< element operations of one run (a dot counts 2 per multiply-add)
};

/// The program whose JSON form is `text`; throws a ValueError naming what
/// is malformed (with the equation's index and primitive), the rules' own
/// errors for a program they reject, or a ResourceError for one over `limits`.
Program program_from_json(const std::string& text, const ReadLimits& limits = {});

}  // namespace shardlab::ir
