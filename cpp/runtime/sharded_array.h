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

/// Copies device d's block of the row-major array `global` (laid out by `layout`) into `block`.
void read_block(const Mesh& mesh, const Layout& layout, int device, const void* global, void* block) noexcept;
/// Copies `block` to device d's place in the row-major array `global`.
void write_block(const Mesh& mesh, const Layout& layout, int device, const void* block, void* global) noexcept;

/// A global float32 or int32 array split over a mesh by a PartitionSpec.
/// Copies share the same blocks (a job holding a copy keeps them alive) and
/// the same description, so copying an array allocates nothing.
/// Replicas of a block may share one buffer: arrays are values, never
/// written after they are produced, and a replicated result written once
/// saves both memory and the bandwidth of writing every copy.
class ShardedArray {
 public:
  /// Every mesh axis: replicas share storage wherever their block index agrees.
  static constexpr uint32_t kShareAll = ~0u;

  /// Allocates zeroed blocks for an array of `global` shape laid out by
  /// `spec`. Devices holding the same block share one buffer when they also
  /// agree on every mesh axis outside `share_mask` (0: every device has its own).
  ShardedArray(std::shared_ptr<const Mesh> mesh, DType dtype, const Shape& global, const PartitionSpec& spec,
               uint32_t share_mask = kShareAll);

  /// Splits the row-major host array `host` (num_elements(global) elements)
  /// into blocks, replicating along the mesh axes `spec` does not mention.
  static ShardedArray put(std::shared_ptr<const Mesh> mesh, DType dtype, const Shape& global, const PartitionSpec& spec,
                          const void* host);

  /// Assembles the global array into `host`. With `check_replicas`, every
  /// separately stored replica of a block must equal the first (bitwise), else
  /// a ShardingError names the devices, the block and the first differing element.
  void get(void* host, bool check_replicas) const;

  /// The mesh the blocks are laid out on.
  const Mesh& mesh() const { return *s_->mesh; }
  /// The mesh, shared.
  const std::shared_ptr<const Mesh>& mesh_ptr() const { return s_->mesh; }
  /// Element type.
  DType dtype() const { return s_->dtype; }
  /// Global shape.
  const Shape& shape() const { return s_->layout.global; }
  /// Each device's block shape.
  const Shape& block_shape() const { return s_->layout.block; }
  /// How the global array is split over the mesh's axes.
  const PartitionSpec& spec() const { return s_->spec; }
  /// The checked layout.
  const Layout& layout() const { return s_->layout; }
  /// Elements per block.
  int64_t block_elements() const { return num_elements(s_->layout.block); }
  /// Device d's block.
  void* block(int device) { return s_->blocks[device]->data(); }
  /// Device d's block.
  const void* block(int device) const { return s_->blocks[device]->data(); }
  /// Whether devices d and e hold the same buffer.
  bool shares_block(int d, int e) const { return s_->blocks[d] == s_->blocks[e]; }

 private:
  struct State {
    std::shared_ptr<const Mesh> mesh;
    DType dtype;
    PartitionSpec spec;
    Layout layout;
    std::vector<std::shared_ptr<Buffer>> blocks;
  };
  std::shared_ptr<State> s_;
};

}  // namespace shardlab
