// Slicing and assembling arrays: concatenate, slice, pad, dynamic_slice and
// dynamic_update_slice. Each moves the elements of a region of one array to
// another, so all are linear in their array operands (jointly, where there are
// several) and their transposes move cotangents back: a slice is transposed by
// a pad with zeros and a pad by a slice. Indices of the dynamic ones are int32
// scalars, clamped as XLA does so that the window fits in the operand.
#pragma once

#include "ir/core/primitive.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// concatenate[dimension]: the operands (equal dtypes, equal shapes but along
/// `dimension`) one after the other along `dimension`. dz = concatenate(dx_i);
/// transpose: each operand's cotangent is its slice of ct.
template <>
struct Def<Prim::kConcatenate> {
  static constexpr const char* kName = "concatenate";
  static constexpr ParamSchema kParams{{"dimension", ParamType::kInt}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// slice[start_indices, limit_indices, strides]: z[i] = x[start + i * stride]
/// for start + i * stride < limit (empty strides mean 1s). dz = slice(dx);
/// transpose: ct padded with zeros back to the operand (interior padding
/// stride - 1), as JAX.
template <>
struct Def<Prim::kSlice> {
  static constexpr const char* kName = "slice";
  static constexpr ParamSchema kParams{{"start_indices", ParamType::kInts}, {"limit_indices", ParamType::kInts}, {"strides", ParamType::kInts, false, false, ParamFormat::kNoneIfEmpty}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// pad[padding_config](x, v): x with lo elements of the scalar v before, hi
/// after and interior between its elements along each dimension, per entry
/// (lo, hi, interior) of padding_config; a negative lo or hi removes elements.
/// Linear in (x, v) jointly: dz = pad(dx, dv). Transpose, as JAX: x's
/// cotangent is ct with lo and hi undone and every (interior + 1)-th element
/// taken; v's is sum(ct) minus the sum of x's.
template <>
struct Def<Prim::kPad> {
  static constexpr const char* kName = "pad";
  static constexpr ParamSchema kParams{{"padding_config", ParamType::kIntLists}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// dynamic_slice[slice_sizes](x, *indices): the slice_sizes window of x at the
/// indices (one int32 scalar per dimension, clamped so the window fits).
/// dz = dynamic_slice(dx, *indices); linear in x only: ct ->
/// dynamic_update_slice(zeros, ct, *indices).
template <>
struct Def<Prim::kDynamicSlice> {
  static constexpr const char* kName = "dynamic_slice";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams{{"slice_sizes", ParamType::kInts}};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

/// dynamic_update_slice(x, u, *indices): x with the window at the indices
/// (clamped so u fits) replaced by u. Linear in (x, u) jointly: dz =
/// dynamic_update_slice(dx, du, *indices); transpose: x's cotangent is ct with
/// the window zeroed, u's is the window of ct.
template <>
struct Def<Prim::kDynamicUpdateSlice> {
  static constexpr const char* kName = "dynamic_update_slice";
  static constexpr WeakRule kWeak = WeakRule::kFirstOperand;
  static constexpr ParamSchema kParams{};
  SHARDLAB_RULES
  SHARDLAB_BATCH_RULE
  SHARDLAB_SHARDING_RULE
};

}  // namespace shardlab::ir
