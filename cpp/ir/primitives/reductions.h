// Reductions over axes: reduce_sum, reduce_prod, reduce_max, reduce_min,
// reduce_and, reduce_or, argmax, argmin, and the cumulative sum and product
// along an axis. They run in a fixed order (row-major
// over the reduced elements; sums with a float64 accumulator), so they are
// deterministic.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// The batching rule of a reduction over `axes`: the batch dimension stays
/// where it is and is not reduced, the axes moving around it.
std::vector<Batched> batch_reduction(Builder& b, Prim prim, const Params& p, const Batched& x);

/// The reductions' batching rule (batch_reduction).
template <Prim P>
struct BatchReduction {
  static std::vector<Batched> batch(Builder& b, const Params& p, const std::vector<Batched>& in, int64_t) {
    return batch_reduction(b, P, p, in[0]);
  }
};

/// reduce_sum[axes]: sums over `axes` (sorted, distinct), which disappear from
/// the shape. d(sum x) = sum dx; transpose: broadcast_in_dim of the cotangent
/// back over the summed axes.
template <>
struct Def<Prim::kReduceSum> : BatchReduction<Prim::kReduceSum>, ShardReduction<Def<Prim::kReduceSum>, true> {
  static constexpr const char* kName = "reduce_sum";
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}};
  static constexpr const char* kNoneParams = "out_sharding";
  SHARDLAB_RULES
};

/// reduce_prod[axes]: the product over `axes` (float64 accumulation for
/// float32; int32 wraps). dz = sum_i dx_i prod_{j != i} x_j, the products of
/// the others formed from prefix and suffix products (no division, so zeros
/// are handled); not linear.
template <>
struct Def<Prim::kReduceProd> : NotLinear<Def<Prim::kReduceProd>>, BatchReduction<Prim::kReduceProd>, ShardReduction<Def<Prim::kReduceProd>> {
  static constexpr const char* kName = "reduce_prod";
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}};
  SHARDLAB_NONLINEAR_RULES
};

/// reduce_and[axes]: whether every bool over `axes` is true (true when empty).
template <>
struct Def<Prim::kReduceAnd> : NonDifferentiable<Def<Prim::kReduceAnd>>, BatchReduction<Prim::kReduceAnd>, ShardReduction<Def<Prim::kReduceAnd>> {
  static constexpr const char* kName = "reduce_and";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// reduce_or[axes]: whether any bool over `axes` is true (false when empty).
template <>
struct Def<Prim::kReduceOr> : NonDifferentiable<Def<Prim::kReduceOr>>, BatchReduction<Prim::kReduceOr>, ShardReduction<Def<Prim::kReduceOr>> {
  static constexpr const char* kName = "reduce_or";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// reduce_max[axes]: the maximum over `axes` (NaN if any element is; -inf, the
/// smallest int32 or false when empty). JVP as JAX: the mean tangent of the
/// elements equal to the maximum, sum(dx * [x == z]) / sum([x == z]); not linear.
template <>
struct Def<Prim::kReduceMax> : NotLinear<Def<Prim::kReduceMax>>, BatchReduction<Prim::kReduceMax>, ShardReduction<Def<Prim::kReduceMax>> {
  static constexpr const char* kName = "reduce_max";
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}};
  SHARDLAB_NONLINEAR_RULES
};

/// reduce_min[axes]: the minimum over `axes` (NaN if any element is; +inf, the
/// largest int32 or true when empty). JVP: sum(dx * [x == z]) / sum([x == z]);
/// not linear.
template <>
struct Def<Prim::kReduceMin> : NotLinear<Def<Prim::kReduceMin>>, BatchReduction<Prim::kReduceMin>, ShardReduction<Def<Prim::kReduceMin>> {
  static constexpr const char* kName = "reduce_min";
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}};
  SHARDLAB_NONLINEAR_RULES
};

/// argmax[axes, index_dtype]: the index along the one axis in `axes` of the
/// largest element (the first of equal ones; the first NaN if any, as XLA),
/// as int32; the axis disappears. Piecewise constant: dz = 0.
template <>
struct Def<Prim::kArgmax> : NonDifferentiable<Def<Prim::kArgmax>>, ShardReduction<Def<Prim::kArgmax>> {
  static constexpr const char* kName = "argmax";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}, {"index_dtype", ParamType::kDType}};
  SHARDLAB_NONDIFFERENTIABLE_RULES
  SHARDLAB_BATCH_RULE
};

/// argmin[axes, index_dtype]: as argmax, of the smallest element.
template <>
struct Def<Prim::kArgmin> : NonDifferentiable<Def<Prim::kArgmin>>, ShardReduction<Def<Prim::kArgmin>> {
  static constexpr const char* kName = "argmin";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{{"axes", ParamType::kInts}, {"index_dtype", ParamType::kDType}};
  SHARDLAB_NONDIFFERENTIABLE_RULES
  SHARDLAB_BATCH_RULE
};

/// cumsum[axis, reverse]: z_i = sum of x_j for j <= i along `axis` (j >= i
/// when reverse), in order (float32 accumulation, as a serial loop). Linear:
/// dz = cumsum(dx); transpose: the cumsum of the cotangent the other way.
template <>
struct Def<Prim::kCumsum> : ShardAlongDims<Def<Prim::kCumsum>, true> {
  static constexpr const char* kName = "cumsum";
  static constexpr ParamSchema kParams{{"axis", ParamType::kInt}, {"reverse", ParamType::kBool}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
};

/// cumprod[axis, reverse]: z_i = the product of x_j for j <= i along `axis`
/// (j >= i when reverse), in order. JVP: the prefix scan of pairs (y, dy)
/// under (a, da) * (b, db) = (a b, da b + a db), as JAX differentiates its
/// associative scan (log2(n) steps of shifted products; exact at zeros); not
/// linear.
template <>
struct Def<Prim::kCumprod> : NotLinear<Def<Prim::kCumprod>>, ShardAlongDims<Def<Prim::kCumprod>> {
  static constexpr const char* kName = "cumprod";
  static constexpr ParamSchema kParams{{"axis", ParamType::kInt}, {"reverse", ParamType::kBool}};
  SHARDLAB_NONLINEAR_RULES
  SHARDLAB_BATCH_RULE
};

}  // namespace shardlab::ir
