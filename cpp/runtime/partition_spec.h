// PartitionSpec, as jax.sharding.PartitionSpec: one entry per array dimension,
// each None (not split), one mesh axis, or several axes (split over their
// product, major axis first). Missing trailing entries mean None.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "runtime/mesh.h"
#include "runtime/shape.h"

namespace shardlab {

/// A partition spec: entries[i] lists the mesh axes dimension i is split over.
struct PartitionSpec {
  std::vector<std::vector<std::string>> entries;

  /// Text like P('data', None) or P(('data', 'model'),).
  std::string str() const;
  bool operator==(const PartitionSpec& other) const { return entries == other.entries; }
  /// Whether both split every dimension alike (trailing unsplit entries aside: P('X') and P('X', None)).
  bool splits_like(const PartitionSpec& other) const;
};

/// A PartitionSpec checked against a mesh and a global shape.
struct Layout {
  Shape global;                     ///< the global shape
  Shape block;                      ///< each device's block shape
  std::vector<AxisGroup> dim_axes;  ///< per dimension: the axes it is split over (size 1 if none)
  uint32_t split_mask = 0;          ///< every mesh axis the spec mentions

  /// Index of device d's block along each dimension.
  Dims block_index(const Mesh& mesh, int device) const noexcept;
  /// The lowest-numbered device holding the same block as device d (d
  /// itself if none): the copy ShardedArray::get reads, and the device that
  /// writes a block its replicas share (a program's outputs, kShareAll).
  int owner(const Mesh& mesh, int device) const noexcept;
};

/// Checks `spec` for an array of shape `global` on `mesh` and computes its
/// blocks; errors name `fn`, the dimension, the axes and the sizes.
Layout make_layout(const Mesh& mesh, const Shape& global, const PartitionSpec& spec, std::string_view fn);

}  // namespace shardlab
