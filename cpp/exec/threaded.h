// The threaded executor: a program runs as one job on the device threads.
// Device 0 evaluates the replicated top level; at each shard_map every device
// runs the body on its own blocks, with collectives through the Communicator,
// and the results stay sharded (one block per device) until something at the
// top level needs them whole.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "exec/executable.h"
#include "ir/core/program.h"
#include "runtime/collectives/communicator.h"
#include "runtime/device_pool.h"
#include "runtime/sharded_array.h"

namespace shardlab::exec {

/// A program prepared to run: submit `fn` to the pool on every device of the
/// mesh with the communicator as JobSync; `outputs` is filled when it is done.
struct ProgramJob {
  std::function<void(int)> fn;                         ///< the per-device function
  std::shared_ptr<std::vector<ShardedArray>> outputs;  ///< the results, once the job is done
};

/// Checks `inputs` against the program's inputs and prepares the job running it
/// on the mesh of `comm` (which must outlive the job) `reps` times (the
/// benchmarks time thousands of collectives in one job; the outputs are the
/// last run's). Outputs of a shard_map keep its out_specs; other outputs are
/// replicated (P()).
ProgramJob prepare_program(Communicator& comm, std::shared_ptr<Executable> exe, const std::vector<ShardedArray>& inputs,
                           int reps = 1);

/// Runs prepare_program's job on `pool` and waits (native hosts); throws the
/// failing device's error.
std::vector<ShardedArray> run_program(DevicePool& pool, Communicator& comm, std::shared_ptr<Executable> exe,
                                      const std::vector<ShardedArray>& inputs, int reps = 1);

}  // namespace shardlab::exec
