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
/// `fn` may run again on the same inputs (each run gives its own outputs);
/// a device may start the next run before the others end this one unless
/// `rerun_needs_sync` (the program reads, between its collectives, what a
/// run writes: see exec/repeated_job.h).
struct ProgramJob {
  std::function<void(int)> fn;                         ///< the per-device function: one run
  std::shared_ptr<std::vector<ShardedArray>> outputs;  ///< the results, once the job is done
  bool rerun_needs_sync = true;                        ///< whether the devices must meet between two runs
};

/// Checks `inputs` against the program's inputs and prepares the job running
/// it on the mesh of `comm` (which must outlive the job). Outputs of a
/// shard_map keep its out_specs; other outputs are replicated (P()).
ProgramJob prepare_program(Communicator& comm, std::shared_ptr<Executable> exe, const std::vector<ShardedArray>& inputs);

/// Runs prepare_program's job on `pool` and waits (native hosts); throws the
/// failing device's error.
std::vector<ShardedArray> run_program(DevicePool& pool, Communicator& comm, std::shared_ptr<Executable> exe,
                                      const std::vector<ShardedArray>& inputs);

}  // namespace shardlab::exec
