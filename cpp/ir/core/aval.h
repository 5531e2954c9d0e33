// Abstract values: what tracing knows about a value (its dtype, its shape and,
// inside a shard_map body, the mesh axes it varies along), as JAX's avals.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/core/sharding.h"
#include "runtime/shape.h"

namespace shardlab::ir {

/// The type of a traced value: dtype, shape, the set of mesh axes it varies
/// along (VMA; sorted names, empty outside shard_map or when invariant),
/// whether it is weakly typed (JAX's weak_type: a Python scalar, or computed
/// from weak values only, it takes the dtype of what it is combined with)
/// and its sharding over Explicit mesh axes (empty when unsharded).
struct Aval {
  DType dtype = DType::kFloat32;
  Shape shape;
  std::vector<std::string> vma;
  bool weak = false;
  Sharding sharding{};

  /// JAX's text: f32[4,2], f32[8@X,2] when sharded, f32[4,2]{V:data} when
  /// varying, f32[4,2]{U:X} when unreduced (as a jaxpr prints it: the weak
  /// type is not shown there).
  std::string str() const;
  /// Rank.
  int ndim() const { return static_cast<int>(shape.size()); }
  bool operator==(const Aval& o) const {
    return dtype == o.dtype && shape == o.shape && vma == o.vma && weak == o.weak && sharding == o.sharding;
  }
  bool operator!=(const Aval& o) const { return !(*this == o); }
};

/// Whether `a` and `b` have the same dtype and shape (what a program traced
/// on one takes the other as: varying axes aside, which pvary reconciles, and
/// weak types, which JAX's typematch ignores).
inline bool same_type(const Aval& a, const Aval& b) { return a.dtype == b.dtype && a.shape == b.shape; }

/// Checks that a value of type `aval` can exist: its dimensions are in
/// 0..kMaxDimension (else a ValueError) and its bytes, counted in 64 bits,
/// fit in the device memory (else a ResourceError); errors name `fn` and `what`.
void check_aval(const Aval& aval, std::string_view fn, std::string_view what);

/// The sorted union of two VMA sets (the axes a result of both varies along).
std::vector<std::string> vma_union(const std::vector<std::string>& a, const std::vector<std::string>& b);
/// The sorted union of the VMA sets of `avals` (the axes a result of all of them varies along).
std::vector<std::string> vma_union(const std::vector<Aval>& avals);

}  // namespace shardlab::ir
