// The lockstep executor's shard_map: one thread steps every device through
// each equation of the body in turn, and collectives combine the devices'
// values directly once the last device has called them. It needs no threads
// or shared memory (the fallback where SharedArrayBuffer is missing) and
// gives bitwise the threaded executor's results (the same kernels, and
// reductions in the same ascending device order). A while loop steps its
// iterations for all devices together: each iteration evaluates the cond on
// every device still looping, then the body on those whose predicate holds.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/lockstep_program.h"

namespace shardlab::exec {

/// Runs the shard_map equation `e` on its operands' global values, stepping
/// every device of its mesh in lockstep; returns the global outputs. `index`
/// is the equation's position in its program, for an armed timeline.
std::vector<HostArray> run_shard_map_lockstep(const ir::Eqn& e, const std::vector<HostArray>& operands,
                                              int32_t index);

}  // namespace shardlab::exec
