// The lockstep executor's shard_map: one thread steps every device through
// each equation of the body in turn, and collectives combine the devices'
// values directly once the last device has called them. It needs no threads
// or shared memory (the fallback where SharedArrayBuffer is missing) and
// gives bitwise the threaded executor's results (the same kernels, and
// reductions in the same ascending device order).
#pragma once

#include <memory>
#include <vector>

#include "exec/interpreter.h"
#include "runtime/collectives.h"

namespace shardlab::exec {

/// Collectives for devices stepped in turn by one thread: each call records
/// the device's buffers, and the last device's call computes every output.
/// Outputs must not alias inputs.
class LockstepCollectives final : public Collectives {
 public:
  /// Collectives over the devices of `mesh`.
  explicit LockstepCollectives(std::shared_ptr<const Mesh> mesh);
  const Mesh& mesh() const override { return *mesh_; }
  void all_reduce(int device, const AxisGroup& g, ReduceOp op, DType dtype, const void* in, void* out,
                  int64_t count) override;
  void all_reduce_many(int device, const AxisGroup& g, ReduceOp op, const std::vector<ReduceBuffer>& bufs) override;
  void all_gather(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape, int axis,
                  bool tiled) override;
  void reduce_scatter(int device, const AxisGroup& g, DType dtype, const void* in, void* out, const Shape& in_shape,
                      int dim, bool tiled) override;
  void ppermute(int device, const AxisGroup& g, const void* in, void* out, int64_t count,
                const Permutation& perm) override;
  void all_to_all(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape, int split_axis,
                  int concat_axis, bool tiled) override;
  void sync(int) override {}

 private:
  // Records device's buffers; true when it is the last device of the mesh.
  bool record(int device, const void* in, void* out);
  template <class T>
  void reduce_all(const AxisGroup& g, ReduceOp op, int64_t count);

  std::shared_ptr<const Mesh> mesh_;
  std::vector<const void*> in_;
  std::vector<void*> out_;
  int calls_ = 0;
  // all_reduce_many: each device's operands, packed, and its buffers.
  std::vector<std::vector<uint32_t>> packed_in_, packed_out_;
  std::vector<std::vector<ReduceBuffer>> bufs_;
};

/// Runs the shard_map equation `e` on its operands' global values, stepping
/// every device of its mesh in lockstep; returns the global outputs.
std::vector<HostArray> run_shard_map_lockstep(const ir::Eqn& e, const std::vector<HostArray>& operands);

}  // namespace shardlab::exec
