#include "exec/executable.h"

#include <algorithm>

#include "ir/transforms/lower.h"
#include "ir/transforms/partition.h"
#include "ir/primitives/shard_map.h"
#include "runtime/mesh.h"

namespace shardlab::exec {

namespace {

// The plan of body output j of shard_map `e` (see OutputPlan): one buffer per
// group for a shared collective result (only for a single result: a batched
// psum unpacks each device's copy of every result itself); otherwise, as any
// output, one buffer the first holder writes (the others compute theirs in
// their frames anyway).
OutputPlan plan_output(const ir::Eqn& e, size_t j) {
  if (!ir::param<bool>(e.params, "check_vma", "shard_map")) return OutputPlan{0, true};
  if (const auto g = ir::shared_output_group(e, j)) return OutputPlan{g->mask, true};
  return {};
}

}  // namespace

Executable::Executable(std::shared_ptr<const ir::Program> program)
    : program_(ir::lower(ir::partition(program))),
      frames_(program_->eqns.size()),
      in_layouts_(program_->eqns.size()),
      out_layouts_(program_->eqns.size()),
      output_plans_(program_->eqns.size()) {
  for (size_t i = 0; i < frames_.size(); ++i) {
    const ir::Eqn& e = program_->eqns[i];
    if (e.prim != ir::Prim::kShardMap) continue;
    frames_[i].resize(kMaxDevices);
    const Mesh& mesh = *ir::param<ir::MeshRef>(e.params, "mesh", "shard_map");
    const auto& in_specs = ir::param<ir::Specs>(e.params, "in_specs", "shard_map");
    for (size_t k = 0; k < e.inputs.size(); ++k)
      in_layouts_[i].push_back(make_layout(mesh, e.inputs[k].aval.shape, in_specs[k], "shard_map"));
    const auto& out_specs = ir::param<ir::Specs>(e.params, "out_specs", "shard_map");
    for (size_t j = 0; j < e.outputs.size(); ++j) {
      out_layouts_[i].push_back(make_layout(mesh, program_->avals[e.outputs[j]].shape, out_specs[j], "shard_map"));
      output_plans_[i].push_back(plan_output(e, j));
    }
  }
}

Frame& Executable::frame(size_t eqn, int device) {
  std::unique_ptr<Frame>& f = frames_.at(eqn).at(static_cast<size_t>(device));
  if (!f) {
    const ir::Eqn& e = program_->eqns[eqn];
    const Mesh& mesh = *ir::param<ir::MeshRef>(e.params, "mesh", "shard_map");
    std::vector<bool> writes;
    for (size_t j = 0; j < out_layouts_[eqn].size(); ++j)
      writes.push_back(output_plans_[eqn][j].every_device_writes || out_layouts_[eqn][j].owner(mesh, device) == device);
    f = std::make_unique<Frame>(*ir::param<ir::ProgramRef>(e.params, "jaxpr", "shard_map"), std::move(writes));
  }
  return *f;
}

}  // namespace shardlab::exec
