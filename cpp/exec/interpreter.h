// Evaluates a program on the host, equation by equation, with the
// primitives' evaluation rules (the single-device reference of the executors).
#pragma once

#include <vector>

#include "ir/program.h"

namespace shardlab::exec {

/// A host array: its aval and its elements (float32 or int32 bits as floats' storage).
struct HostArray {
  ir::Aval aval;
  std::vector<uint32_t> words;  ///< the elements' bits, row-major
};

/// Runs `program` on `inputs` (one per invar, matching its aval) and returns the outputs.
std::vector<HostArray> interpret(const ir::Program& program, const std::vector<HostArray>& inputs);

/// A float32 host array of `shape` holding `values`.
HostArray host_f32(const Shape& shape, const std::vector<float>& values);
/// The elements of a float32 host array.
std::vector<float> as_floats(const HostArray& a);
/// An int32 host array of `shape` holding `values`.
HostArray host_i32(const Shape& shape, const std::vector<int32_t>& values);
/// The elements of an int32 or bool (0/1) host array.
std::vector<int32_t> as_ints(const HostArray& a);

}  // namespace shardlab::exec
