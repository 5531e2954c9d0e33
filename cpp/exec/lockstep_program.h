// Evaluates a program on the host, equation by equation, with the
// primitives' evaluation rules; a shard_map runs its body on every device of
// its mesh in lockstep (exec/lockstep_shard_map.h). This is the lockstep executor: no
// threads, no shared memory, and bitwise the threaded executor's results.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/core/program.h"

namespace shardlab::exec {

/// A host array: its aval and its elements' bits (4 bytes each, row-major).
struct HostArray {
  ir::Aval aval;
  std::vector<uint32_t> words;  ///< the elements' bits, row-major
};

/// Runs `program` on `inputs` (one per invar, matching its aval) and returns the outputs.
std::vector<HostArray> interpret(const ir::Program& program, const std::vector<HostArray>& inputs);

}  // namespace shardlab::exec
