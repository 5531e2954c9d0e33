// shard_map: runs its body (the `jaxpr` param) on every device of `mesh`,
// each on its blocks of the operands as `in_specs` split them, and
// concatenates the per-device results as `out_specs` say. Inside the body a
// value's type carries the mesh axes it varies along (when check_vma): an
// input varies along the axes its in_spec mentions, and an out_spec must
// mention every axis its output varies along (an omitted axis asserts the
// value is the same on all devices along it).
#pragma once

#include <optional>

#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// shard_map[jaxpr, mesh, in_specs, out_specs, check_vma]. JVP: the shard_map
/// of the body's JVP (tangents split like their primals). Transpose: the
/// shard_map of the body's transpose, taking the non-linear operands and the
/// output cotangents (split by out_specs) and giving the linear operands'
/// cotangents (joined by their in_specs).
template <>
struct Def<Prim::kShardMap> {
  static constexpr const char* kName = "shard_map";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"jaxpr", ParamType::kProgram}, {"mesh", ParamType::kMesh}, {"in_specs", ParamType::kSpecs}, {"out_specs", ParamType::kSpecs}, {"check_vma", ParamType::kBool}};
  static constexpr const char* kCallProgram = "jaxpr";
  SHARDLAB_EXECUTOR_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// The axes a block split by `spec` varies along (sorted names).
std::vector<std::string> spec_axes(const PartitionSpec& spec);

/// The aval of a device's block of a value of aval `global` split by `spec`
/// on `mesh` (varying along the spec's axes when `check_vma`); errors name
/// `what` (e.g. "shard_map in_specs[0]").
Aval block_aval(const Mesh& mesh, const Aval& global, const PartitionSpec& spec, bool check_vma,
                const std::string& what);

/// The group whose members share one buffer for body output j of shard_map
/// equation `e`, each writing its share (the Communicator's shared result),
/// or nothing. So is stored a result too large to stage (kStagingBytes) of
/// a one-output collective that out_specs[j] replicates over the
/// collective's group, its first mention among the outputs, when check_vma
/// proves the replicas agree. The executor plans its outputs by this; the
/// program JSON's traffic counts it.
std::optional<AxisGroup> shared_output_group(const Eqn& e, size_t j);

}  // namespace shardlab::ir
