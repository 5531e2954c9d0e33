// The collectives a device calls while it runs a shard_map body, as one
// interface with two implementations: the Communicator (each device on its own
// thread, meeting its peers in shared memory) and the lockstep executor's
// (one thread calls for every device in turn; the results appear once the last
// device of the mesh has called). Every device of the mesh calls the same
// collectives in the same order; `in` and `out` hold 4-byte elements.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/collective_shapes.h"
#include "runtime/mesh.h"
#include "kernels/reduce_kernels.h"
#include "runtime/shape.h"

namespace shardlab {

/// One operand of a batched all-reduce.
struct ReduceBuffer {
  DType dtype;    ///< float32 or int32
  const void* in;  ///< this device's operand
  void* out;       ///< where its result goes
  int64_t count;   ///< elements
};

/// Copies the inputs of `bufs` of `dtype`, end to end, into `dst` (resized to
/// fit); returns how many elements that is.
int64_t pack_inputs(const std::vector<ReduceBuffer>& bufs, DType dtype, std::vector<uint32_t>& dst);
/// Copies consecutive runs of `src` into the outputs of `bufs` of `dtype` (pack_inputs' inverse).
void unpack_outputs(const uint32_t* src, const std::vector<ReduceBuffer>& bufs, DType dtype);

/// Collectives among the devices of one mesh, called per device.
class Collectives {
 public:
  virtual ~Collectives() = default;
  /// The mesh whose axes the collectives' groups are taken from.
  virtual const Mesh& mesh() const = 0;
  /// psum / pmax / pmin over the axes of g: out = in_0 op in_1 op ... (device order).
  virtual void all_reduce(int device, const AxisGroup& g, ReduceOp op, DType dtype, const void* in, void* out,
                          int64_t count) = 0;
  /// all_reduce of several operands with one rendezvous per dtype (how a
  /// psum of a tree runs): the operands are packed end to end and reduced
  /// together, so each result is bitwise what its own all_reduce gives.
  virtual void all_reduce_many(int device, const AxisGroup& g, ReduceOp op, const std::vector<ReduceBuffer>& bufs) = 0;
  /// all_gather: out holds every peer's block, in position order, along `axis`.
  virtual void all_gather(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape, int axis,
                          bool tiled) = 0;
  /// psum_scatter: out = chunk `position` of the sum of every peer's input.
  virtual void reduce_scatter(int device, const AxisGroup& g, DType dtype, const void* in, void* out,
                              const Shape& in_shape, int dim, bool tiled) = 0;
  /// ppermute: out = the input of the peer whose pair names this device as
  /// destination, or zeros when none does.
  virtual void ppermute(int device, const AxisGroup& g, const void* in, void* out, int64_t count,
                        const Permutation& perm) = 0;
  /// all_to_all: chunk j of split_axis goes to position j; received chunks are
  /// concatenated (tiled) or stacked along concat_axis in source order.
  virtual void all_to_all(int device, const AxisGroup& g, const void* in, void* out, const Shape& in_shape,
                          int split_axis, int concat_axis, bool tiled) = 0;
  /// Returns once every device of the mesh has called it (values written
  /// before are then visible to all).
  virtual void sync(int device) = 0;
};

}  // namespace shardlab
