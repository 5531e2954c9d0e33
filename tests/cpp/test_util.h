// Helpers shared by the C++ tests: the one device pool of a test binary,
// seeded random data, multi-index arithmetic for serial references, and a
// single collective run as the device runtime runs it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "host_arrays.h"
#include "ir/core/params.h"
#include "runtime/collectives/communicator.h"
#include "runtime/device_pool.h"
#include "runtime/errors.h"
#include "runtime/mesh.h"
#include "runtime/sharded_array.h"

namespace shardlab::testing {

/// The 8-thread pool every test of a binary shares (created once: in wasm the
/// workers are a fixed pool).
DevicePool& pool();

/// A mesh as a shared pointer.
std::shared_ptr<const Mesh> make_mesh(std::vector<int> shape, std::vector<std::string> names);

/// `n` floats from a seeded generator, in [-1, 1).
std::vector<float> random_floats(size_t n, uint32_t seed);

/// The message of the shardlab::Error that f() throws, or "no error".
std::string error_message(const std::function<void()>& f);
/// The kind of the shardlab::Error that f() throws (a test failure, reported as kValue, if it throws none).
ErrorKind error_kind(const std::function<void()>& f);

/// jax.lax function `name` with its keyword arguments `args` on every
/// device's block of `in`, the results laid out by `out_spec`: the program
/// the device runtime's collective() runs (ir::collective_program), on the pool.
ShardedArray run_collective(Communicator& comm, const ShardedArray& in, const std::string& name, const ir::Params& args,
                            const PartitionSpec& out_spec, bool check_vma = true);

/// The row-major multi-index of element `linear` of `shape`.
std::vector<int64_t> unravel(int64_t linear, const Shape& shape);
/// The linear index of multi-index `idx` in `shape`.
int64_t ravel(const std::vector<int64_t>& idx, const Shape& shape);

}  // namespace shardlab::testing
