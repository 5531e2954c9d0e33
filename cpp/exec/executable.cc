#include "exec/executable.h"

#include "ir/primitives/shard_map.h"
#include "runtime/mesh.h"

namespace shardlab::exec {

Executable::Executable(std::shared_ptr<const ir::Program> program)
    : program_(std::move(program)), frames_(program_->eqns.size()) {
  for (size_t i = 0; i < frames_.size(); ++i)
    if (program_->eqns[i].prim == ir::Prim::kShardMap) frames_[i].resize(kMaxDevices);
}

Frame& Executable::frame(size_t eqn, int device) {
  std::unique_ptr<Frame>& f = frames_.at(eqn).at(static_cast<size_t>(device));
  if (!f) f = std::make_unique<Frame>(*ir::param<ir::ProgramRef>(program_->eqns[eqn].params, "jaxpr", "shard_map"));
  return *f;
}

}  // namespace shardlab::exec
