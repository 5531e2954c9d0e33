#include "runtime/collectives/lockstep_collectives.h"

namespace shardlab {

LockstepCollectives::LockstepCollectives(std::shared_ptr<const Mesh> mesh)
    : mesh_(std::move(mesh)),
      in_(mesh_->size()),
      out_(mesh_->size()),
      packed_in_(mesh_->size()),
      packed_out_(mesh_->size()),
      bufs_(mesh_->size()) {}

bool LockstepCollectives::record(int device, const void* in, void* out) {
  in_[device] = in;
  out_[device] = out;
  if (++calls_ < mesh_->size()) return false;
  calls_ = 0;
  return true;
}

}  // namespace shardlab
