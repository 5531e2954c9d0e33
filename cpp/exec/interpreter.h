// Evaluates a program on the host, equation by equation, with the
// primitives' evaluation rules; a shard_map runs its body on every device of
// its mesh in lockstep (exec/lockstep.h). This is the lockstep executor: no
// threads, no shared memory, and bitwise the threaded executor's results.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/program.h"

namespace shardlab::exec {

/// A host array: its aval and its elements' bits (4 bytes each, row-major).
struct HostArray {
  ir::Aval aval;
  std::vector<uint32_t> words;  ///< the elements' bits, row-major
};

/// Runs `program` on `inputs` (one per invar, matching its aval) and returns the outputs.
std::vector<HostArray> interpret(const ir::Program& program, const std::vector<HostArray>& inputs);

/// A float32 host array of `shape` holding `values`.
HostArray host_f32(const Shape& shape, const std::vector<float>& values);
/// An int32 host array of `shape` holding `values`.
HostArray host_i32(const Shape& shape, const std::vector<int32_t>& values);
/// The elements of a float32 host array.
std::vector<float> as_floats(const HostArray& a);
/// The elements of an int32 or bool (0/1) host array.
std::vector<int32_t> as_ints(const HostArray& a);

}  // namespace shardlab::exec
