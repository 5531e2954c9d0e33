// Collectives for devices stepped in turn by one thread (the lockstep
// executor): each call records the device's buffers, and the last device's
// call computes every device's output. They need no threads or shared memory
// (the fallback where SharedArrayBuffer is missing) and give bitwise the
// Communicator's results (the same kernels, peers in the same ascending
// device order). Each method sits beside its threaded counterpart in its
// family's file.
#pragma once

#include <memory>
#include <vector>

#include "runtime/collectives/collectives.h"

namespace shardlab {

/// The serial collectives of one mesh. Outputs must not alias inputs.
class LockstepCollectives final : public Collectives {
 public:
  /// Collectives over the devices of `mesh`.
  explicit LockstepCollectives(std::shared_ptr<const Mesh> mesh);
  const Mesh& mesh() const override { return *mesh_; }
  SHARDLAB_COLLECTIVE_METHODS(, override)
  void sync(int) override {}

 private:
  // Records device's buffers; true when it is the last device of the mesh.
  bool record(int device, const void* in, void* out);
  // Every device's out = op over its group's recorded inputs, in ascending device order.
  template <class T>
  void reduce_all(const AxisGroup& g, ReduceOp op, int64_t count) {
    std::vector<const T*> srcs(g.size);
    for (int d = 0; d < mesh_->size(); ++d) {
      for (int p = 0, k = 0; p < mesh_->size(); ++p)
        if (mesh_->group_devices(d, g.mask) >> p & 1) srcs[k++] = static_cast<const T*>(in_[p]);
      reduce_arrays(op, static_cast<T*>(out_[d]), srcs.data(), g.size, count);
    }
  }
  // reduce_all in `dtype`'s lane type, each result narrowed to `dtype` (as the Communicator's).
  void reduce_all(const AxisGroup& g, ReduceOp op, DType dtype, int64_t count) {
    if (is_float(dtype)) {
      reduce_all<float>(g, op, count);
    } else {
      reduce_all<int32_t>(g, op, count);
    }
    for (void* o : out_) narrow_words(static_cast<uint32_t*>(o), count, dtype);
  }

  std::shared_ptr<const Mesh> mesh_;
  std::vector<const void*> in_;
  std::vector<void*> out_;
  int calls_ = 0;
  // all_reduce_many: each device's operands, packed, and its buffers.
  std::vector<std::vector<uint32_t>> packed_in_, packed_out_;
  std::vector<std::vector<ReduceBuffer>> bufs_;
};

}  // namespace shardlab
