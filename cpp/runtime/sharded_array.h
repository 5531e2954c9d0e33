// A global array stored as one block per device in shared memory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/mesh.h"
#include "runtime/partition_spec.h"
#include "runtime/shape.h"

namespace shardlab {

/// A global float32 or int32 array split over a mesh by a PartitionSpec.
/// Copies share the same blocks (a job holding a copy keeps them alive).
class ShardedArray {
 public:
  /// Allocates zeroed blocks for an array of `global` shape laid out by `spec`.
  ShardedArray(std::shared_ptr<const Mesh> mesh, DType dtype, const Shape& global, const PartitionSpec& spec);

  /// Splits the row-major host array `host` (num_elements(global) elements)
  /// into blocks, replicating along the mesh axes `spec` does not mention.
  static ShardedArray put(std::shared_ptr<const Mesh> mesh, DType dtype, const Shape& global,
                          const PartitionSpec& spec, const void* host);

  /// Assembles the global array into `host`. With `check_replicas`, every
  /// replica of a block must equal the first (bitwise), else a ShardingError
  /// names the devices, the block and the first differing element.
  void get(void* host, bool check_replicas) const;

  /// The mesh.
  const Mesh& mesh() const { return *mesh_; }
  /// The mesh, shared.
  const std::shared_ptr<const Mesh>& mesh_ptr() const { return mesh_; }
  /// Element type.
  DType dtype() const { return dtype_; }
  /// Global shape.
  const Shape& shape() const { return layout_.global; }
  /// Each device's block shape.
  const Shape& block_shape() const { return layout_.block; }
  /// The spec.
  const PartitionSpec& spec() const { return spec_; }
  /// The checked layout.
  const Layout& layout() const { return layout_; }
  /// Elements per block.
  int64_t block_elements() const { return num_elements(layout_.block); }
  /// Device d's block.
  void* block(int device) { return blocks_[device]->data(); }
  /// Device d's block.
  const void* block(int device) const { return blocks_[device]->data(); }

 private:
  std::shared_ptr<const Mesh> mesh_;
  DType dtype_;
  PartitionSpec spec_;
  Layout layout_;
  std::vector<std::shared_ptr<Buffer>> blocks_;
};

}  // namespace shardlab
