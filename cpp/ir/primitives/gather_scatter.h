// Gathering and scattering by index arrays (XLA's Gather and Scatter, as
// jax.lax has them): what x[idx] and x.at[idx].set/add/multiply/min/max
// lower to. The index vector is always the last dimension of the indices
// (int32). Dimension numbers are five lists, printed as JAX's NamedTuples:
//   gather:  offset_dims, collapsed_slice_dims, start_index_map,
//            operand_batching_dims, start_indices_batching_dims;
//   scatter: update_window_dims, inserted_window_dims,
//            scatter_dims_to_operand_dims, operand_batching_dims,
//            scatter_indices_batching_dims.
// mode is "clip" (indices clamped so the window fits), "fill" (JAX's
// FILL_OR_DROP: an out-of-bounds gather window is fill_value, an
// out-of-bounds scatter window is dropped) or "promise_in_bounds" (as XLA on
// CPU: gathers clamp, scatters drop). Gather and scatter-add transpose into
// each other; scatter's combiners apply in row-major order of the updates,
// so duplicate indices give the same result every run.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// gather[dimension_numbers, fill_value, indices_are_sorted, mode,
/// slice_sizes, unique_indices](x, idx): out[b..., w...] = x[start(idx[b])
/// + w] where the window w spans slice_sizes (collapsed and batching
/// dimensions of size 1 dropped); the batch positions b are the output
/// dimensions not in offset_dims. Linear in x: dz = gather(dx); transpose:
/// scatter-add of ct into zeros at the same indices.
template <>
struct Def<Prim::kGather> : ShardUnsharded<Def<Prim::kGather>> {
  static constexpr const char* kName = "gather";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams{
      {"dimension_numbers", ParamType::kIntLists, false, false, ParamFormat::kGatherDimensions},
      {"fill_value", ParamType::kFloat, false, false, ParamFormat::kFillValue},
      {"indices_are_sorted", ParamType::kBool},
      {"mode", ParamType::kString, false, false, ParamFormat::kGatherMode},
      {"slice_sizes", ParamType::kInts},
      {"unique_indices", ParamType::kBool}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
};

/// The rules the scatters share (their Defs add their JVP and transpose):
/// the shape rule (the operand's type; updates shaped as the indices' batch
/// dimensions and the windows), evaluation (each update combined into the
/// operand in row-major order, dropped or clamped out of bounds), batching
/// (every operand batched along 0, the batch a batching dimension of operand
/// and indices) and the sample.
template <Prim P>
struct ScatterRules {
  SHARDLAB_SHAPE_RULE
  SHARDLAB_EVAL_RULE
  SHARDLAB_BATCH_RULE
  SHARDLAB_SAMPLE
};

/// scatter[dimension_numbers, indices_are_sorted, mode, unique_indices](x,
/// idx, u): x with each update window written at its index (the last write
/// wins where windows overlap). Linear in (x, u) jointly: dz = scatter(dx,
/// idx, du); transpose: x's cotangent is ct with the written entries zeroed,
/// u's the gather of ct where that update is the one that won.
template <>
struct Def<Prim::kScatter> : ScatterRules<Prim::kScatter>, ShardUnsharded<Def<Prim::kScatter>> {
  static constexpr const char* kName = "scatter";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams{
      {"dimension_numbers", ParamType::kIntLists, false, false, ParamFormat::kScatterDimensions},
      {"indices_are_sorted", ParamType::kBool},
      {"mode", ParamType::kString, false, false, ParamFormat::kGatherMode},
      {"unique_indices", ParamType::kBool}};
  SHARDLAB_JVP_RULE
  SHARDLAB_TRANSPOSE_RULE
};

/// scatter-add: x with the updates added at their indices (duplicates
/// accumulate). Linear in (x, u) jointly: dz = scatter-add(dx, idx, du);
/// transpose: x's cotangent is ct, u's the gather of ct.
template <>
struct Def<Prim::kScatterAdd> : ScatterRules<Prim::kScatterAdd>, ShardUnsharded<Def<Prim::kScatterAdd>> {
  static constexpr const char* kName = "scatter-add";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams = Def<Prim::kScatter>::kParams;
  SHARDLAB_JVP_RULE
  SHARDLAB_TRANSPOSE_RULE
};

/// scatter-mul: x multiplied by the updates at their indices. With unique
/// indices (JAX differentiates it only then) dz = scatter-mul(dx, idx, u) +
/// scatter-add(0, idx, gather(x) du); linear in x alone: ct ->
/// scatter-mul(ct, idx, u).
template <>
struct Def<Prim::kScatterMul> : ScatterRules<Prim::kScatterMul>, ShardUnsharded<Def<Prim::kScatterMul>> {
  static constexpr const char* kName = "scatter-mul";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams = Def<Prim::kScatter>::kParams;
  SHARDLAB_JVP_RULE
  SHARDLAB_TRANSPOSE_RULE
};

/// scatter-min: the smaller of x and the updates at their indices. dz at
/// an entry is the mean of the tangents of the values that tie for the
/// result there (x's and every update's written to it).
template <>
struct Def<Prim::kScatterMin> : ScatterRules<Prim::kScatterMin>, NotLinear<Def<Prim::kScatterMin>>, ShardUnsharded<Def<Prim::kScatterMin>> {
  static constexpr const char* kName = "scatter-min";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams = Def<Prim::kScatter>::kParams;
  SHARDLAB_JVP_RULE
};

/// scatter-max: the larger of x and the updates at their indices; dz as
/// scatter-min's.
template <>
struct Def<Prim::kScatterMax> : ScatterRules<Prim::kScatterMax>, NotLinear<Def<Prim::kScatterMax>>, ShardUnsharded<Def<Prim::kScatterMax>> {
  static constexpr const char* kName = "scatter-max";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams = Def<Prim::kScatter>::kParams;
  SHARDLAB_JVP_RULE
};

}  // namespace shardlab::ir
