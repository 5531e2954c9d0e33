#include "runtime/collectives/communicator.h"

#include "runtime/collectives/exchange.h"

namespace shardlab {

Communicator::Communicator(std::shared_ptr<const Mesh> mesh) : mesh_(std::move(mesh)), num_masks_(1 << mesh_->ndim()) {
  barriers_.resize(num_masks_);
  for (int mask = 0; mask < num_masks_; ++mask) {
    int groups = mesh_->size();
    for (int a = 0; a < mesh_->ndim(); ++a)
      if (mask & (1 << a)) groups /= mesh_->axis_size(a);
    barriers_[mask].resize(groups);
    for (int d = 0; d < mesh_->size(); ++d) {
      auto& b = barriers_[mask][mesh_->group_number(d, mask)];
      if (!b) b = std::make_unique<Barrier>(mesh_->group_devices(d, mask), &flags_);
    }
  }
  for (int d = 0; d < mesh_->size(); ++d) {
    auto state = std::make_unique<DeviceState>();
    state->masks.resize(num_masks_);
    state->staging = std::make_unique<Buffer>(static_cast<size_t>(num_masks_ * 2 * kStagingBytes), d);
    auto* base = static_cast<unsigned char*>(state->staging->data());
    for (int mask = 0; mask < num_masks_; ++mask)
      for (int p = 0; p < 2; ++p) state->masks[mask].staging[p] = base + (mask * 2 + p) * kStagingBytes;
    devices_.push_back(std::move(state));
  }
}

Communicator::~Communicator() = default;

std::string exchange_path(int64_t bytes, bool shared_out) {
  return staged(bytes) && !shared_out ? "staged (one barrier)" : staged(bytes) ? "staged, then a barrier for the shared result"
                                                                               : "read in place (two barriers)";
}

Permutation all_pairs(int n) {
  Permutation links;
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d)
      if (s != d) links.emplace_back(s, d);
  return links;
}

int64_t element_bytes(DType dtype, int64_t count) { return count * static_cast<int64_t>(itemsize(dtype)); }

Barrier& Communicator::barrier(uint32_t mask, int device) {
  return *barriers_[mask][mesh_->group_number(device, mask)];
}

void Communicator::sync(int device) { barrier(num_masks_ - 1, device).arrive_and_wait(device, "shard_map"); }

void Communicator::device_finished(int device) {
  flags_.finished.fetch_or(uint64_t{1} << device);
  for (int mask = 0; mask < num_masks_; ++mask) barrier(mask, device).poke();
}

void Communicator::abort() {
  flags_.aborted.store(true);
  for (auto& groups : barriers_)
    for (auto& b : groups) b->poke();
}

void Communicator::reset() {
  flags_.aborted.store(false);
  flags_.finished.store(0);
  for (auto& groups : barriers_)
    for (auto& b : groups) b->reset();
  for (auto& d : devices_)
    for (auto& m : d->masks) m.seq = 0;
}

}  // namespace shardlab
