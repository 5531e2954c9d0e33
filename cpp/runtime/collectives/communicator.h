// Collectives among the device threads of one mesh, through shared memory.
//
// Every collective is one "exchange" in the group of devices it runs over:
// each device publishes a descriptor (its input, its output, the operation and
// its parameters), all meet at the group's barrier, each checks that its peers
// run the same operation, then reads what it needs from its peers directly.
//  - Small payloads (<= kStagingBytes) are first copied into a per-device
//    staging area, double-buffered per group, so one barrier suffices: a
//    device can only overwrite a staging buffer after the next barrier of the
//    same group, which every peer reaches only once it finished reading.
//  - Large payloads are read in place, and a second barrier keeps inputs alive
//    until every peer is done. Reductions then split the work: the device at
//    position p reduces slice p of the result over all peers and writes it to
//    every peer's output, so each device touches 1/n of the data per peer.
// Reductions always combine peers in ascending device order, so results are
// bitwise those of a serial float32 loop in that order, whatever the timing.
// The exchange itself is in exchange.h; each collective's use of it is in its
// family's file.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/barrier.h"
#include "runtime/buffer.h"
#include "runtime/collectives/collectives.h"
#include "runtime/device_pool.h"
#include "runtime/mesh.h"

namespace shardlab {

/// The collectives of one mesh; also the JobSync of the jobs that use them.
class Communicator final : public JobSync, public Collectives {
 public:
  /// Sets up barriers and staging areas for every group of every axis subset.
  explicit Communicator(std::shared_ptr<const Mesh> mesh);
  ~Communicator() override;

  /// The mesh whose devices this communicator connects.
  const Mesh& mesh() const override { return *mesh_; }
  /// The mesh, shared.
  const std::shared_ptr<const Mesh>& mesh_ptr() const { return mesh_; }

  // Only all_reduce may have out == in.
  SHARDLAB_COLLECTIVE_METHODS(, override)
  void sync(int device) override;

  // JobSync
  void device_finished(int device) override;
  void abort() override;
  void reset() override;

 private:
  struct Desc;
  struct Peers;
  struct MaskState;
  struct DeviceState;

  template <class Body>
  void exchange(int device, const AxisGroup& g, const char* what, uint64_t tag, int64_t bytes, const void* in,
                void* out, int64_t out_bytes, bool may_share_out, Body&& body);
  Barrier& barrier(uint32_t mask, int device);

  std::shared_ptr<const Mesh> mesh_;
  int num_masks_;
  JobFlags flags_;
  std::vector<std::vector<std::unique_ptr<Barrier>>> barriers_;  // [mask][group number]
  std::vector<std::unique_ptr<DeviceState>> devices_;
};

}  // namespace shardlab
