// The sharding part of a type (JAX's aval.sharding over Explicit mesh axes:
// "sharding in types"): per dimension the mesh axes it is split over, and
// the axes a value is unreduced (a sum of its shards still to be taken) or
// reduced over, with the sizes of the mesh's axes the rules check against.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/shape.h"

namespace shardlab::ir {

/// A mesh axis as a type sees it (an axis of JAX's AbstractMesh): its name,
/// size and whether it is Explicit (else Auto: the partitioner's, never in a type).
struct MeshAxis {
  std::string name;
  int size = 1;
  bool is_explicit = true;
  bool operator==(const MeshAxis& o) const { return name == o.name && size == o.size && is_explicit == o.is_explicit; }
};

/// How a value of a type is laid out over the Explicit axes of its mesh
/// (JAX's NamedSharding on an AbstractMesh, Auto axes left out). An
/// unsharded value's is empty: no mesh, no axes (a type's mesh is cleared
/// with its last axis, for_type); a parameter's (out_sharding=) keeps its
/// mesh, so given as P() it differs from one not given (no mesh).
struct Sharding {
  /// The mesh's axes in mesh order (empty when nothing is sharded).
  std::vector<MeshAxis> mesh;
  /// Per dimension, the mesh axes it is split over, major first; empty when
  /// no dimension is split (normalized: see normalized()).
  std::vector<std::vector<std::string>> dims;
  /// Axes the value is unreduced over: the logical value is the sum of the shards along them.
  std::vector<std::string> unreduced;
  /// Axes the value is reduced over (replicated, its cotangent unreduced).
  std::vector<std::string> reduced;

  /// Whether no axis is named anywhere (an unsharded value's).
  bool empty() const { return dims.empty() && unreduced.empty() && reduced.empty(); }
  /// The axes dimension `d` is split over (none past the end of dims).
  const std::vector<std::string>& dim(size_t d) const;
  /// The mesh axes named more than once (by dims, unreduced and reduced together), sorted.
  std::vector<std::string> repeated_axes() const;
  /// The product of the sizes of `axes` in the mesh.
  int64_t size_of(const std::vector<std::string>& axes) const;
  /// The same sharding with `dims` replaced (normalized).
  Sharding with_dims(std::vector<std::vector<std::string>> new_dims) const;
  /// The sharding of a cotangent of a value of this sharding (JAX 301's
  /// table): the same dims, reduced axes unreduced and unreduced ones reduced.
  Sharding cotangent() const;
  /// Canonical form: no dims if none is split, unreduced and reduced axes in mesh order.
  Sharding normalized() &&;
  /// As a type holds it: normalized, and no mesh when no axis is named.
  Sharding for_type() const;
  /// JAX's repr of the NamedSharding on its AbstractMesh for `ndim`
  /// dimensions (None when no mesh: a parameter not given).
  std::string repr(size_t ndim) const;
  /// The shape text `8@X,4@(Y,Z),2` of `shape` under this sharding.
  std::string shape_text(const Shape& shape) const;
  /// The `U:X, R:(Y,Z)` part of a type's braces ("" when neither).
  std::string state_text() const;
  /// JAX's PartitionSpec text for `ndim` dimensions: P('X', None, unreduced={'Y'}).
  std::string spec_text(size_t ndim) const;
  bool operator==(const Sharding& o) const {
    return mesh == o.mesh && dims == o.dims && unreduced == o.unreduced && reduced == o.reduced;
  }
  bool operator!=(const Sharding& o) const { return !(*this == o); }
};

/// The spec text of one dimension's entry: None, 'X' or ('X', 'Y').
std::string spec_entry_text(const std::vector<std::string>& axes);

/// Checks that `s` fits a value of `shape` (one entry per dimension at most,
/// each axis of the mesh, named once, dimensions divisible by their axes'
/// sizes); errors name `fn` and `what`.
void check_sharding(const Sharding& s, const Shape& shape, const std::string& fn, const std::string& what);

}  // namespace shardlab::ir
