// A job that runs one collective on every device's block of a sharded array,
// the way a shard_map whose body is that single collective would: the blocks
// of the input are the per-device values, and the per-device results become
// the blocks of an output array laid out by `out_spec`. The demo, the wasm
// bindings and the benchmark drive the runtime through it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/communicator.h"
#include "runtime/device_pool.h"
#include "runtime/sharded_array.h"

namespace shardlab {

/// Which collective a CollectiveSpec runs.
enum class CollectiveKind { kPsum, kPmean, kPmax, kPmin, kAllGather, kPsumScatter, kPpermute, kAllToAll, kAxisIndex };

/// Parses "psum", "all_gather", ... (jax.lax names); throws a ValueError listing the valid names.
CollectiveKind collective_kind_from_name(const std::string& name);
/// The jax.lax name of a kind.
const char* collective_kind_name(CollectiveKind kind);

/// A collective with its jax.lax arguments.
struct CollectiveSpec {
  CollectiveKind kind = CollectiveKind::kPsum;
  std::vector<std::string> axis_name;  ///< one axis or several
  int axis = 0;                        ///< all_gather
  int scatter_dimension = 0;           ///< psum_scatter
  bool tiled = false;                  ///< all_gather / psum_scatter / all_to_all
  Permutation perm;                    ///< ppermute's (source, destination) pairs
  int split_axis = 0;                  ///< all_to_all
  int concat_axis = 0;                 ///< all_to_all
};

/// The output block shape of `spec` applied to blocks of shape `in_block`
/// (axis_index gives an int32 block of shape [1] per device, so that its
/// results can be laid out along a mesh axis).
Shape collective_block_shape(const Mesh& mesh, const CollectiveSpec& spec, const Shape& in_block);

/// A prepared job and the array it will fill.
struct CollectiveJob {
  ShardedArray out;             ///< allocated output; valid once the job is done
  std::function<void(int)> fn;  ///< the per-device function
};

/// The mesh axes along which the result of `spec` varies, for an input that
/// varies along `in_varying` (bit sets over mesh axes), by JAX's rules: psum-
/// like collectives and all_gather make the result invariant along their
/// axes; psum_scatter, ppermute and all_to_all make it vary; axis_index varies
/// exactly along its axes.
uint32_t collective_varying_axes(const Mesh& mesh, const CollectiveSpec& spec, uint32_t in_varying);

/// Checks everything on the host and prepares a job that runs `spec` `reps`
/// times on each device's block of `in`, writing the result blocks of `out`
/// (laid out by `out_spec`). Submit fn to the pool with `comm` as JobSync.
/// With check_vma (as jax.shard_map's), an out_spec that omits an axis the
/// result varies along is an error; without it, replicas are stored
/// separately so ShardedArray::get can still detect the disagreement.
CollectiveJob prepare_collective(Communicator& comm, const ShardedArray& in, const CollectiveSpec& spec,
                                 const PartitionSpec& out_spec, int reps, bool check_vma = true);

/// Runs prepare_collective's job on `pool` and waits (native hosts); throws
/// the failing device's error.
ShardedArray run_collective(DevicePool& pool, Communicator& comm, const ShardedArray& in, const CollectiveSpec& spec,
                            const PartitionSpec& out_spec, int reps = 1, bool check_vma = true);

}  // namespace shardlab
