// Element types and generated values: convert_element_type changes an array's
// dtype; iota makes an array of indices of a given dtype from no operand.
#pragma once

#include "ir/core/primitive.h"
#include "ir/primitives/rule_bases.h"
#include "ir/core/program.h"

namespace shardlab::ir {

/// convert_element_type[new_dtype, weak_type]: the same values as new_dtype
/// (float to int truncates toward zero, saturating, NaN to 0, as XLA; to bool
/// is x != 0; bool is 0 or 1). Linear from float32 to float32: dz = convert(dx)
/// and ct -> convert(ct) back; conversions to or from int32 and bool have a
/// zero tangent and no transpose.
template <>
struct Def<Prim::kConvertElementType> : BatchPerOperand<Prim::kConvertElementType>, ShardPerOperand<Def<Prim::kConvertElementType>, true> {
  static constexpr const char* kName = "convert_element_type";
  static constexpr WeakRule kWeak = WeakRule::kShapeRule;
  static constexpr ParamSchema kParams{{"new_dtype", ParamType::kDType}, {"weak_type", ParamType::kBool}};
  SHARDLAB_RULES
};

/// bitcast_convert_type[new_dtype]: the same 32 bits read as another dtype
/// (float32, int32, uint32); dz = 0 (the bits of a float are not a smooth
/// function of it).
template <>
struct Def<Prim::kBitcastConvertType> : NonDifferentiable<Def<Prim::kBitcastConvertType>>,
                                        BatchPerOperand<Prim::kBitcastConvertType>, ShardPerOperand<Def<Prim::kBitcastConvertType>> {
  static constexpr const char* kName = "bitcast_convert_type";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{{"new_dtype", ParamType::kDType}};
  SHARDLAB_NONDIFFERENTIABLE_RULES
};

/// iota[dtype, shape, dimension]: z[i_0, ..., i_n] = i_dimension, an array of
/// float32 or int32 indices; no operands, so no tangent and no transpose.
template <>
struct Def<Prim::kIota> : NoOperands<Def<Prim::kIota>>, ShardNone<Def<Prim::kIota>> {
  static constexpr const char* kName = "iota";
  static constexpr WeakRule kWeak = WeakRule::kNever;
  static constexpr ParamSchema kParams{{"dtype", ParamType::kDType}, {"shape", ParamType::kInts}, {"dimension", ParamType::kInt}};
  static constexpr const char* kNoneParams = "sharding";
  SHARDLAB_RULES
};

}  // namespace shardlab::ir
