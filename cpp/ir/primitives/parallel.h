// The parallel primitives of a shard_map body: collectives over mesh axes
// (psum, pmax, pmin, all_gather, reduce_scatter, ppermute, all_to_all), the
// device's position (axis_index) and pvary, which marks a value as varying.
// Their types follow JAX's VMA rules: a value records the mesh axes it
// varies along; psum-like results are invariant along the reduced axes,
// all_gather and reduce_scatter keep their operand's axes, ppermute and
// all_to_all vary along theirs, axis_index varies along its axes. Operands
// must already vary along the collective's axes: each primitive's bind rule
// (its jax.lax function, found by name through the registry) inserts the
// pvary, which is how psum of an invariant x gives n * x, as in JAX.
// Transposes as in JAX: psum <-> pvary, all_gather <-> reduce_scatter,
// ppermute <-> the inverse ppermute, all_to_all <-> all_to_all.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// psum[axes]: the sum over the devices of the axes' groups, in device order.
/// Linear: d(psum x) = psum dx; transpose: ct -> pvary(ct) (psum of a
/// per-device cotangent when VMA is not tracked, JAX's check_vma=False rule).
template <>
struct Def<Prim::kPsum> : BatchPerOperand<Prim::kPsum>, ShardPerOperand<Def<Prim::kPsum>> {
  static constexpr const char* kName = "psum";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"axes", ParamType::kNames}};
  static constexpr const char* kLaxName = "psum";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames)};
  SHARDLAB_COLLECTIVE_RULES
};

/// pmax[axes]: the elementwise maximum over the devices; no JVP, as in JAX.
template <>
struct Def<Prim::kPmax> : BatchPerOperand<Prim::kPmax>, ShardPerOperand<Def<Prim::kPmax>> {
  static constexpr const char* kName = "pmax";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"axes", ParamType::kNames}};
  static constexpr const char* kLaxName = "pmax";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames)};
  SHARDLAB_COLLECTIVE_RULES
};

/// pmin[axes]: the elementwise minimum over the devices; no JVP, as in JAX.
template <>
struct Def<Prim::kPmin> : BatchPerOperand<Prim::kPmin>, ShardPerOperand<Def<Prim::kPmin>> {
  static constexpr const char* kName = "pmin";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"axes", ParamType::kNames}};
  static constexpr const char* kLaxName = "pmin";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames)};
  SHARDLAB_COLLECTIVE_RULES
};

/// pvary[axes]: the identity on values; the result's type varies along
/// `axes` too. Transpose: psum over `axes` (a per-device cotangent of an
/// invariant value is the sum of the devices' contributions). Bound by
/// jax.lax.pcast(x, axis_name, to='varying'), one equation per operand.
template <>
struct Def<Prim::kPvary> : BatchPerOperand<Prim::kPvary>, ShardPerOperand<Def<Prim::kPvary>> {
  static constexpr const char* kName = "pvary";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"axes", ParamType::kNames}};
  static constexpr const char* kLaxName = "pcast";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames), keyword_arg("to", ParamType::kString)};
  SHARDLAB_DEVICE_RULES
  SHARDLAB_BIND_RULE
};

/// all_gather[all_gather_dimension, axis_name, axis_size, tiled]: every
/// device's block, in position order, stacked at (or, tiled, concatenated
/// along) all_gather_dimension. Transpose: reduce_scatter of the cotangent
/// over the same dimension.
template <>
struct Def<Prim::kAllGather> : ShardNone<Def<Prim::kAllGather>> {
  static constexpr const char* kName = "all_gather";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"all_gather_dimension", ParamType::kInt}, {"axis_name", ParamType::kNames}, {"axis_size", ParamType::kInt}, {"tiled", ParamType::kBool}};
  static constexpr const char* kLaxName = "all_gather";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames), keyword_arg("axis", ParamType::kInt, 0),
                                        keyword_arg("tiled", ParamType::kBool, false),
                                        keyword_text_arg("to", "varying")};
  SHARDLAB_COLLECTIVE_RULES
  SHARDLAB_BATCH_RULE
};

/// all_gather_invariant[all_gather_dimension, axis_name, axis_size, tiled]
/// (jax.lax.all_gather(..., to='invarying')): all_gather whose result is
/// invariant along the gathered axes (every device holds the same whole).
/// Transpose: each device's own block of the cotangent, a dynamic_slice at
/// axis_index * block size (no communication).
template <>
struct Def<Prim::kAllGatherInvariant> : ShardNone<Def<Prim::kAllGatherInvariant>> {
  static constexpr const char* kName = "all_gather_invariant";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"all_gather_dimension", ParamType::kInt}, {"axis_name", ParamType::kNames}, {"axis_size", ParamType::kInt}, {"tiled", ParamType::kBool}};
  SHARDLAB_UNBOUND_COLLECTIVE_RULES
  SHARDLAB_BATCH_RULE
};

/// reduce_scatter[axis_name, axis_size, scatter_dimension, tiled] (jax.lax.
/// psum_scatter): chunk `position` of the sum over the devices. Transpose:
/// all_gather of the cotangent.
template <>
struct Def<Prim::kReduceScatter> : ShardNone<Def<Prim::kReduceScatter>> {
  static constexpr const char* kName = "reduce_scatter";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"axis_name", ParamType::kNames}, {"axis_size", ParamType::kInt}, {"scatter_dimension", ParamType::kInt}, {"tiled", ParamType::kBool}};
  static constexpr const char* kLaxName = "psum_scatter";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames),
                                        keyword_arg("scatter_dimension", ParamType::kInt, 0),
                                        keyword_arg("tiled", ParamType::kBool, false)};
  SHARDLAB_COLLECTIVE_RULES
  SHARDLAB_BATCH_RULE
};

/// ppermute[axis_name, perm]: device at position dst receives the block of
/// the device at src for each (src, dst) pair; others receive zeros.
/// Transpose: ppermute by the inverted pairs.
template <>
struct Def<Prim::kPpermute> : BatchPerOperand<Prim::kPpermute>, ShardPerOperand<Def<Prim::kPpermute>> {
  static constexpr const char* kName = "ppermute";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"axis_name", ParamType::kNames}, {"perm", ParamType::kIntLists}};
  static constexpr const char* kLaxName = "ppermute";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames), positional_arg("perm", ParamType::kIntLists)};
  SHARDLAB_COLLECTIVE_RULES
};

/// all_to_all[axis_name, axis_size, split_axis, concat_axis, tiled]: chunk j
/// of split_axis goes to position j, received chunks join along concat_axis.
/// Transpose: all_to_all with split_axis and concat_axis swapped.
template <>
struct Def<Prim::kAllToAll> : ShardNone<Def<Prim::kAllToAll>> {
  static constexpr const char* kName = "all_to_all";
  static constexpr WeakRule kWeak = WeakRule::kEachOperand;
  static constexpr ParamSchema kParams{{"axis_name", ParamType::kNames}, {"axis_size", ParamType::kInt}, {"concat_axis", ParamType::kInt}, {"split_axis", ParamType::kInt}, {"tiled", ParamType::kBool}};
  static constexpr const char* kLaxName = "all_to_all";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames), positional_arg("split_axis", ParamType::kInt),
                                        positional_arg("concat_axis", ParamType::kInt), keyword_arg("tiled", ParamType::kBool, false)};
  SHARDLAB_COLLECTIVE_RULES
  SHARDLAB_BATCH_RULE
};

/// axis_index[axis_name]: the device's position along the axes (major
/// first), an int32 scalar varying along them; no operands, no tangent.
template <>
struct Def<Prim::kAxisIndex> : NoOperands<Def<Prim::kAxisIndex>>, ShardNone<Def<Prim::kAxisIndex>> {
  static constexpr const char* kName = "axis_index";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{{"axis_name", ParamType::kNames}};
  static constexpr const char* kLaxName = "axis_index";
  static constexpr ParamSchema kLaxArgs{positional_arg("axis_name", ParamType::kNames)};
  static constexpr bool kNullary = true;
  SHARDLAB_DEVICE_RULES
  SHARDLAB_BIND_RULE
};

/// `x` pvary'd along the axes of `axes` it does not vary along yet (only
/// where VMA is tracked): what every collective's bind does to its operands,
/// and shard_map to a body output tiled along mesh axes.
Atom vary_along(Builder& b, const Atom& x, const std::vector<std::string>& axes);

/// jax.lax.pmean(x, axis_name): not a primitive (as in JAX) but psum, then a
/// division of each result by the group's size.
std::vector<Atom> bind_pmean(Builder& b, const Params& args, const std::vector<Atom>& operands);

/// The jax.lax functions of this family that are compositions of primitives.
inline constexpr LaxFunction kParallelComposites[] = {
    {"pmean", ParamSchema{positional_arg("axis_name", ParamType::kNames)}, &bind_pmean, true},
};

}  // namespace shardlab::ir
