// Running a cond equation (ir/primitives/control_flow.h) on one device's
// values: only the branch its index picks (clamped to the branches, as XLA's
// conditional) is evaluated, its collectives meeting the other devices'.
#pragma once

#include <vector>

#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::exec {

/// The branch cond equation `e` takes for index value `index` (clamped).
const ir::Program& chosen_branch(const ir::Eqn& e, int32_t index);

/// Evaluates cond equation `e` on operands `in` (the index, then the
/// branch's operands) into `out`; `ctx` is the device running it (null outside a shard_map body).
void run_cond(const ir::Eqn& e, const std::vector<const ir::Tensor*>& in, const std::vector<ir::Tensor*>& out,
              const ir::DeviceContext* ctx);

}  // namespace shardlab::exec
