#include "exec/executable.h"

#include <algorithm>

#include "ir/lower.h"
#include "ir/primitives/shard_map.h"
#include "runtime/collectives/communicator.h"
#include "runtime/mesh.h"

namespace shardlab::exec {

namespace {

// The plan of body output j of shard_map `e` laid out by `layout` (see OutputPlan).
OutputPlan plan_output(const ir::Eqn& e, size_t j, const Layout& layout) {
  const ir::Program& body = *ir::param<ir::ProgramRef>(e.params, "jaxpr", "shard_map");
  const Mesh& mesh = *ir::param<ir::MeshRef>(e.params, "mesh", "shard_map");
  if (!ir::param<bool>(e.params, "check_vma", "shard_map")) return OutputPlan{0, true};
  const ir::Atom& a = body.outvars[j];
  if (a.is_literal()) return {};
  for (size_t k = 0; k < j; ++k)
    if (!body.outvars[k].is_literal() && body.outvars[k].var == a.var) return {};  // a repeat is copied by one device
  for (const ir::Eqn& q : body.eqns) {
    const ir::PrimitiveDef& def = ir::primitive(q.prim);
    if (!def.collective || std::find(q.outputs.begin(), q.outputs.end(), a.var) == q.outputs.end()) continue;
    const AxisGroup g = mesh.axis_group(def.group_axes(q.params), def.name);
    const int64_t bytes = num_elements(layout.block) * static_cast<int64_t>(kElemBytes);
    // Large: one buffer per group that every member writes its share of
    // (only for a single result: a batched psum unpacks each device's copy
    // of every result itself). Small: as any output, one buffer the first
    // holder writes (the others compute theirs in their frames anyway).
    if (q.outputs.size() == 1 && (layout.split_mask & g.mask) == 0 &&
        bytes > static_cast<int64_t>(Communicator::kStagingBytes))
      return OutputPlan{g.mask, true};
    break;
  }
  return {};
}

}  // namespace

Executable::Executable(std::shared_ptr<const ir::Program> program)
    : program_(ir::lower(program)),
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
      output_plans_[i].push_back(plan_output(e, j, out_layouts_[i].back()));
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
