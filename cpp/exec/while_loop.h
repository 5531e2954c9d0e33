// Running a while equation (ir/primitives/control_flow.h) on one device's
// values: its cond and body programs evaluated equation by equation, again
// and again. Its trip count is only known as it runs, so it cannot be
// unrolled like a scan; collectives inside meet the other devices on each
// iteration (the threaded executor), and every iteration first checks
// whether the host cancelled the job, so a loop that never ends is stopped.
#pragma once

#include <vector>

#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::exec {

/// Evaluates while equation `e` on operands `in` into `out` (its final
/// carries); `ctx` is the device running it (null outside a shard_map body).
void run_while(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
               const ir::DeviceContext* ctx);

}  // namespace shardlab::exec
